//! `rmdir`: remove empty directories (`-p` parents, `-v`, `--ignore-fail-on-non-empty`).

use super::util::{quote, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;

pub struct Rmdir;

const SPEC: Spec = Spec::new(
    "pv",
    &[("ignore-fail-on-non-empty", Arg::No, "ignore"), ("parents", Arg::No, "p"), ("verbose", Arg::No, "v")],
    "[OPTION]... DIRECTORY...",
);

#[async_trait]
impl Utility for Rmdir {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let ignore_non_empty = p.has("ignore");
        let mut status = 0;
        for op in &p.operands {
            // The operand, then (with -p) each parent named by dropping a component.
            let mut name = op.clone();
            let mut first = true;
            loop {
                if p.has("v") {
                    ctx.out(format!("{}: removing directory, {}\n", ctx.name, quote(&name)).as_bytes()).await?;
                }
                let r = remove(ctx, &name).await;
                match r {
                    Ok(()) => {}
                    Err(FsError::NotEmpty) if ignore_non_empty => break,
                    Err(e) => {
                        let what = if first { "" } else { "directory " };
                        ctx.err(format!("failed to remove {what}{}: {e}", quote(&name))).await?;
                        status = 1;
                        break;
                    }
                }
                first = false;
                let t = name.trim_end_matches('/');
                match t.rfind('/') {
                    Some(i) if p.has("p") && !t[..i].trim_end_matches('/').is_empty() => {
                        name = t[..i].trim_end_matches('/').to_string();
                    }
                    _ => break,
                }
            }
        }
        Ok(status)
    }
}

async fn remove(ctx: &CommandContext<'_>, name: &str) -> Result<(), FsError> {
    if name.is_empty() {
        return Err(FsError::NotFound);
    }
    let full = ctx.resolve(name);
    // A trailing slash on a symlink to a directory still names the link.
    if ctx.fs.symlink_metadata(&full).await?.is_symlink() {
        return Err(FsError::NotADirectory);
    }
    ctx.fs.remove_dir(&full, false).await
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{check, check_tree};

    #[test]
    fn removes() {
        check_tree(&["rmdir", "-p", "a/b/"], &[("a/b/", "")], "", "", "", 0, "");
        check_tree(
            &["rmdir", "-pv", "d/e/f"],
            &[("d/e/f/", "")],
            "",
            "rmdir: removing directory, 'd/e/f'\nrmdir: removing directory, 'd/e'\nrmdir: removing directory, 'd'\n",
            "",
            0,
            "",
        );
        check_tree(
            &["rmdir", "-p", "x/y"],
            &[("x/y/", ""), ("x/f", "")],
            "",
            "",
            "rmdir: failed to remove directory 'x': Directory not empty\n",
            1,
            "x/\nx/f\t\n",
        );
        check(
            &["rmdir", "-pv", "--ignore-fail-on-non-empty", "x"],
            &[("x/f", "")],
            "",
            "rmdir: removing directory, 'x'\n",
            "",
            0,
        );
        check(&["rmdir", "-v", "q/"], &[("q/", "")], "", "rmdir: removing directory, 'q/'\n", "", 0);
    }

    #[test]
    fn errors() {
        check(&["rmdir", "d"], &[("d/e/", "")], "", "", "rmdir: failed to remove 'd': Directory not empty\n", 1);
        check(&["rmdir", "a"], &[("a", "")], "", "", "rmdir: failed to remove 'a': Not a directory\n", 1);
        check(&["rmdir", "nope"], &[], "", "", "rmdir: failed to remove 'nope': No such file or directory\n", 1);
        check(&["rmdir"], &[], "", "", "rmdir: missing operand\nTry 'rmdir --help' for more information.\n", 1);
        check(
            &["rmdir", "-x"],
            &[],
            "",
            "",
            "rmdir: invalid option -- 'x'\nTry 'rmdir --help' for more information.\n",
            1,
        );
    }
}
