//! `ln`: make links (`-s`, `-f`, `-n`, `-r`, `-v`, `-t`, `-T`). The sandbox
//! filesystem keeps hard links (one file, several names); a backend without
//! them (a host mount) gets a copy.

use super::util::{quote, Arg, Spec};
use super::cp::plan_targets;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::fs::{path, FsError};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Ln;

const SPEC: Spec = Spec::new(
    "bfiLnPrsS:t:Tv",
    &[
        ("backup", Arg::Optional, "b"),
        ("force", Arg::No, "f"),
        ("interactive", Arg::No, "i"),
        ("logical", Arg::No, "L"),
        ("no-dereference", Arg::No, "n"),
        ("no-target-directory", Arg::No, "T"),
        ("physical", Arg::No, "P"),
        ("relative", Arg::No, "r"),
        ("suffix", Arg::Yes, "S"),
        ("symbolic", Arg::No, "s"),
        ("target-directory", Arg::Yes, "t"),
        ("verbose", Arg::No, "v"),
    ],
    "[OPTION]... [-T] TARGET LINK_NAME",
);

#[async_trait]
impl Utility for Ln {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut ops = p.operands.clone();
        // One operand links into the current directory (`./name`).
        if ops.len() == 1 && p.last("t").is_none() && !p.has("T") {
            ops.push(".".into());
        }
        let Some(plan) = plan_targets(ctx, &ops, p.last("t"), p.has("T"), false, !p.has("n")).await? else {
            return Ok(1);
        };
        let mut status = 0;
        for (target, link) in plan {
            if let Err(msg) = link_one(ctx, &p, &target, &link).await? {
                ctx.err(msg).await?;
                status = 1;
            }
        }
        Ok(status)
    }
}

/// `to` relative to the directory holding `link` (both absolute, normalized).
fn relative(to: &str, link: &str) -> String {
    let from: Vec<&str> = path::parent(link).split('/').filter(|c| !c.is_empty()).collect();
    let to_parts: Vec<&str> = to.split('/').filter(|c| !c.is_empty()).collect();
    let common = from.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to_parts[common..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

async fn link_one(
    ctx: &CommandContext<'_>,
    p: &super::util::Parsed,
    target: &str,
    link: &str,
) -> Result<Result<(), String>, IoError> {
    let symbolic = p.has("s");
    let link_full = ctx.resolve(link);
    let failed = |e: FsError| {
        if symbolic {
            format!("failed to create symbolic link {}: {e}", quote(link))
        } else {
            // GNU names the target too, but for errors about room or an existing name.
            match e {
                FsError::AlreadyExists | FsError::NoSpace | FsError::ReadOnly | FsError::Limit(..) => {
                    format!("failed to create hard link {}: {e}", quote(link))
                }
                _ => format!("failed to create hard link {} => {}: {e}", quote(link), quote(target)),
            }
        }
    };
    let src_meta = ctx.fs.metadata(&ctx.resolve(target)).await;
    if !symbolic {
        match &src_meta {
            Err(e) => return Ok(Err(format!("failed to access {}: {e}", quote(target)))),
            Ok(m) if m.is_dir() => return Ok(Err(format!("{target}: hard link not allowed for directory"))),
            _ => {}
        }
    }
    if let Ok(existing) = ctx.fs.symlink_metadata(&link_full).await {
        if !p.has("f") {
            return Ok(Err(failed(FsError::AlreadyExists)));
        }
        if existing.is_dir() {
            return Ok(Err(format!("cannot overwrite directory {}", quote(link))));
        }
        if let Err(e) = ctx.fs.remove_file(&link_full).await {
            return Ok(Err(format!("cannot remove {}: {e}", quote(link))));
        }
    }
    if symbolic {
        let text = if p.has("r") { relative(&ctx.resolve(target), &link_full) } else { target.to_string() };
        if let Err(e) = ctx.fs.symlink(&text, &link_full).await {
            return Ok(Err(failed(e)));
        }
        if p.has("v") {
            ctx.out(format!("{} -> {}\n", quote(link), quote(&text)).as_bytes()).await?;
        }
        return Ok(Ok(()));
    }
    if let Err(e) = ctx.fs.hard_link(&ctx.resolve(target), &link_full).await {
        return Ok(Err(failed(e)));
    }
    if p.has("v") {
        ctx.out(format!("{} => {}\n", quote(link), quote(target)).as_bytes()).await?;
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::super::util::file_util::testing::{check_on, fs_with};
    use super::super::util::testutil::{check, check_tree};

    #[test]
    fn symbolic() {
        let fs = fs_with(&[("a", "A"), ("d/", "")], &[]);
        check_on(&fs, &["ln", "-sv", "a", "l1"], "", "'l1' -> 'a'\n", "", 0, "a\tA\nd/\nl1 -> a\n");
        check_on(
            &fs,
            &["ln", "-s", "a", "l1"],
            "",
            "",
            "ln: failed to create symbolic link 'l1': File exists\n",
            1,
            "a\tA\nd/\nl1 -> a\n",
        );
        check_on(&fs, &["ln", "-s", "a", "d"], "", "", "", 0, "a\tA\nd/\nd/a -> a\nl1 -> a\n");
        check_on(
            &fs,
            &["ln", "-sv", "/x/y", "d"],
            "",
            "'d/y' -> '/x/y'\n",
            "",
            0,
            "a\tA\nd/\nd/a -> a\nd/y -> /x/y\nl1 -> a\n",
        );
        check_on(&fs, &["ln", "-sfn", "d", "l1"], "", "", "", 0, "a\tA\nd/\nd/a -> a\nd/y -> /x/y\nl1 -> d\n");
        check_on(
            &fs,
            &["ln", "-sfv", "a", "l1"],
            "",
            "'l1/a' -> 'a'\n",
            "",
            0,
            "a\tA\nd/\nd/a -> a\nd/y -> /x/y\nl1 -> d\n",
        );
        check_on(
            &fs,
            &["ln", "-sT", "a", "d"],
            "",
            "",
            "ln: failed to create symbolic link 'd': File exists\n",
            1,
            "a\tA\nd/\nd/a -> a\nd/y -> /x/y\nl1 -> d\n",
        );
        check_on(
            &fs,
            &["ln", "-s", "a"],
            "",
            "",
            "ln: failed to create symbolic link './a': File exists\n",
            1,
            "a\tA\nd/\nd/a -> a\nd/y -> /x/y\nl1 -> d\n",
        );
        let fs = fs_with(&[("a", ""), ("d/", "")], &[]);
        check_on(&fs, &["ln", "-sr", "a", "d/rel"], "", "", "", 0, "a\t\nd/\nd/rel -> ../a\n");
    }

    #[test]
    fn hard_links() {
        check_tree(&["ln", "-v", "a", "h"], &[("a", "A")], "", "'h' => 'a'\n", "", 0, "a\tA\nh\tA\n");
        check(&["ln", "nope", "h2"], &[], "", "", "ln: failed to access 'nope': No such file or directory\n", 1);
        check(&["ln", "d", "h3"], &[("d/", "")], "", "", "ln: d: hard link not allowed for directory\n", 1);
        check(
            &["ln", "a", "h"],
            &[("a", ""), ("h", "")],
            "",
            "",
            "ln: failed to create hard link 'h': File exists\n",
            1,
        );
    }

    #[test]
    fn errors() {
        check(&["ln", "-s"], &[], "", "", "ln: missing file operand\nTry 'ln --help' for more information.\n", 1);
        check(&["ln", "-s", "a", "b", "c"], &[], "", "", "ln: target 'c': No such file or directory\n", 1);
        check(
            &["ln", "-s", "a", "nod/x"],
            &[],
            "",
            "",
            "ln: failed to create symbolic link 'nod/x': No such file or directory\n",
            1,
        );
        check(
            &["ln", "-st", "d", "a"],
            &[("d/a", "")],
            "",
            "",
            "ln: failed to create symbolic link 'd/a': File exists\n",
            1,
        );
        check(&["ln", "-x"], &[], "", "", "ln: invalid option -- 'x'\nTry 'ln --help' for more information.\n", 1);
    }
}
