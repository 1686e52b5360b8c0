//! `mv`: rename or move files and directories (`-f`, `-i`, `-n`, `-u`, `-v`,
//! `-b`, `-t`, `-T`). Everything lives on one filesystem, so a move is a rename.

use super::util::{quote, Arg, Spec};
use super::cp::plan_targets;
use super::util::file_util::{ask, is_dot_or_dotdot};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::fs::{path, FsError};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Mv;

const SPEC: Spec = Spec::new(
    "bfinS:t:TuvZ",
    &[
        ("backup", Arg::Optional, "b"),
        ("force", Arg::No, "f"),
        ("interactive", Arg::No, "i"),
        ("no-clobber", Arg::No, "n"),
        ("no-target-directory", Arg::No, "T"),
        ("strip-trailing-slashes", Arg::No, "strip-trailing-slashes"),
        ("suffix", Arg::Yes, "S"),
        ("target-directory", Arg::Yes, "t"),
        ("update", Arg::Optional, "u"),
        ("verbose", Arg::No, "v"),
        ("context", Arg::No, "Z"),
    ],
    "[OPTION]... [-T] SOURCE DEST",
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Clobber {
    Yes,
    No,
    Ask,
}

struct Opts {
    clobber: Clobber,
    update: bool,
    verbose: bool,
    backup: Option<String>,
}

#[async_trait]
impl Utility for Mv {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut o = Opts { clobber: Clobber::Yes, update: p.has("u"), verbose: p.has("v"), backup: None };
        for opt in &p.opts {
            match opt.id {
                "f" => o.clobber = Clobber::Yes,
                "i" => o.clobber = Clobber::Ask,
                "n" => o.clobber = Clobber::No,
                _ => {}
            }
        }
        if p.has("b") || p.has("S") {
            let suffix = p.last("S").map(String::from).or_else(|| ctx.env.get("SIMPLE_BACKUP_SUFFIX"));
            o.backup = Some(suffix.unwrap_or_else(|| "~".to_string()));
        }
        let Some(plan) = plan_targets(ctx, &p.operands, p.last("t"), p.has("T"), false, true).await? else {
            return Ok(1);
        };
        let mut status = 0;
        for (src, dst) in plan {
            if let Err(msg) = move_one(ctx, &o, &src, &dst).await? {
                ctx.err(msg).await?;
                status = 1;
            }
        }
        Ok(status)
    }
}

/// The real key of a path's node without following a final symlink.
async fn real_nofollow(ctx: &CommandContext<'_>, full: &str) -> Option<String> {
    let parent = ctx.fs.canonicalize(path::parent(full)).await.ok()?;
    Some(path::join(&parent, path::file_name(full)))
}

/// Move one source; the inner `Err` is the message to print.
async fn move_one(ctx: &CommandContext<'_>, o: &Opts, src: &str, dst: &str) -> Result<Result<(), String>, IoError> {
    let (sq, dq) = (quote(src), quote(dst));
    let cannot = |e: FsError| Err(format!("cannot move {sq} to {dq}: {e}"));
    let (src_full, dst_full) = (ctx.resolve(src), ctx.resolve(dst));
    let lookup = if src.is_empty() {
        Err(FsError::NotFound)
    } else if src.ends_with('/') {
        ctx.fs.metadata(&src_full).await
    } else {
        ctx.fs.symlink_metadata(&src_full).await
    };
    let sm = match lookup {
        Ok(m) => m,
        Err(e) => return Ok(Err(format!("cannot stat {sq}: {e}"))),
    };
    if is_dot_or_dotdot(src) {
        return Ok(Err(format!("cannot move {sq} to {dq}: Device or resource busy")));
    }
    let (src_real, dst_real) = (real_nofollow(ctx, &src_full).await, real_nofollow(ctx, &dst_full).await);
    if let (Some(s), Some(d)) = (&src_real, &dst_real) {
        if sm.is_dir() && d.starts_with(&format!("{}/", s.trim_end_matches('/'))) {
            return Ok(Err(format!("cannot move {sq} to a subdirectory of itself, {dq}")));
        }
    }
    let mut note = String::new();
    if let Ok(dm) = ctx.fs.symlink_metadata(&dst_full).await {
        if src_real.is_some() && src_real == dst_real {
            return Ok(Err(format!("{sq} and {dq} are the same file")));
        }
        match (sm.is_dir(), dm.is_dir()) {
            (false, true) => return Ok(Err(format!("cannot overwrite directory {dq} with non-directory"))),
            (true, false) => return Ok(Err(format!("cannot overwrite non-directory {dq} with directory {sq}"))),
            _ => {}
        }
        match o.clobber {
            Clobber::No => return Ok(Ok(())),
            Clobber::Ask if !ask(ctx, &format!("overwrite {dq}")).await? => return Ok(Ok(())),
            _ => {}
        }
        if o.update && dm.mtime >= sm.mtime {
            return Ok(Ok(()));
        }
        if let Some(suffix) = o.backup.as_ref().filter(|_| !dm.is_dir()) {
            let b = format!("{dst}{suffix}");
            if let Err(e) = ctx.fs.rename(&dst_full, &ctx.resolve(&b)).await {
                return Ok(Err(format!("cannot backup {dq}: {e}")));
            }
            note = format!(" (backup: {})", quote(&b));
        }
    } else if dst.ends_with('/') && !sm.is_dir() {
        return Ok(cannot(FsError::NotADirectory));
    }
    if let Err(e) = ctx.fs.rename(&src_full, &dst_full).await {
        return Ok(cannot(e));
    }
    if o.verbose {
        ctx.out(format!("renamed {sq} -> {dq}{note}\n").as_bytes()).await?;
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::super::util::file_util::testing::{check_on, fs_with};
    use super::super::util::testutil::{check, check_tree};

    #[test]
    fn renames_and_moves() {
        check_tree(&["mv", "-v", "a", "c"], &[("a", "A")], "", "renamed 'a' -> 'c'\n", "", 0, "c\tA\n");
        check_tree(
            &["mv", "c", "b", "d/"],
            &[("b", "B"), ("c", "C"), ("d/", "")],
            "",
            "",
            "",
            0,
            "d/\nd/b\tB\nd/c\tC\n",
        );
        check_tree(&["mv", "d", "e"], &[("d/x", ""), ("e/", "")], "", "", "", 0, "e/\ne/d/\ne/d/x\t\n");
        check(&["mv", "-v", "d", "f/"], &[("d/", ""), ("f/", "")], "", "renamed 'd' -> 'f/d'\n", "", 0);
        check(&["mv", "-v", "-t", "d", "b"], &[("b", ""), ("d/", "")], "", "renamed 'b' -> 'd/b'\n", "", 0);
        check_tree(&["mv", "g", "e"], &[("g", "G"), ("e/", "")], "", "", "", 0, "e/\ne/g\tG\n");
        check_tree(&["mv", "-v", "a", "b"], &[("a", "A"), ("b", "B")], "", "renamed 'a' -> 'b'\n", "", 0, "b\tA\n");
        check_tree(&["mv", "e/", "e2"], &[("e/", "")], "", "", "", 0, "e2/\n");
        check_tree(&["mv", "-T", "d", "e"], &[("d/x", ""), ("e/", "")], "", "", "", 0, "e/\ne/x\t\n");
        let fs = fs_with(&[("h/", "")], &[("ly", "x")]);
        check_on(&fs, &["mv", "-v", "ly", "h"], "", "renamed 'ly' -> 'h/ly'\n", "", 0, "h/\nh/ly -> x\n");
    }

    #[test]
    fn clobber_options() {
        check_tree(&["mv", "-n", "a", "b"], &[("a", "A"), ("b", "B")], "", "", "", 0, "a\tA\nb\tB\n");
        check_tree(
            &["mv", "-vi", "a", "b"],
            &[("a", "A"), ("b", "B")],
            "",
            "",
            "mv: overwrite 'b'? ",
            0,
            "a\tA\nb\tB\n",
        );
        check_tree(
            &["mv", "-vi", "a", "b"],
            &[("a", "A"), ("b", "B")],
            "y\n",
            "renamed 'a' -> 'b'\n",
            "mv: overwrite 'b'? ",
            0,
            "b\tA\n",
        );
        check_tree(&["mv", "-vf", "a", "b"], &[("a", "A"), ("b", "B")], "", "renamed 'a' -> 'b'\n", "", 0, "b\tA\n");
        check_tree(
            &["mv", "-vb", "q", "r"],
            &[("q", "Q"), ("r", "R")],
            "",
            "renamed 'q' -> 'r' (backup: 'r~')\n",
            "",
            0,
            "r\tQ\nr~\tR\n",
        );
    }

    #[test]
    fn errors() {
        check(&["mv", "x", "y"], &[], "", "", "mv: cannot stat 'x': No such file or directory\n", 1);
        check(&["mv", "", "z"], &[], "", "", "mv: cannot stat '': No such file or directory\n", 1);
        check(
            &["mv", "d", "d/sub"],
            &[("d/", "")],
            "",
            "",
            "mv: cannot move 'd' to a subdirectory of itself, 'd/sub'\n",
            1,
        );
        check(&["mv", "d", "d"], &[("d/", "")], "", "", "mv: cannot move 'd' to a subdirectory of itself, 'd/d'\n", 1);
        check(
            &["mv", "e", "g"],
            &[("e/", ""), ("g", "")],
            "",
            "",
            "mv: cannot overwrite non-directory 'g' with directory 'e'\n",
            1,
        );
        check(
            &["mv", "e", "h"],
            &[("e/", ""), ("h/e/x", "")],
            "",
            "",
            "mv: cannot move 'e' to 'h/e': Directory not empty\n",
            1,
        );
        check(
            &["mv", "x", "g"],
            &[("x", ""), ("g/x/", "")],
            "",
            "",
            "mv: cannot overwrite directory 'g/x' with non-directory\n",
            1,
        );
        check(&["mv", "x", "nodir/"], &[("x", "")], "", "", "mv: cannot move 'x' to 'nodir/': Not a directory\n", 1);
        check(
            &["mv", "-T", "f2", "d"],
            &[("f2/", ""), ("d/b", "")],
            "",
            "",
            "mv: cannot move 'f2' to 'd': Directory not empty\n",
            1,
        );
        check(
            &["mv", "-vT", "z", "d"],
            &[("z", ""), ("d/", "")],
            "",
            "",
            "mv: cannot overwrite directory 'd' with non-directory\n",
            1,
        );
        check(
            &["mv", "a", "b", "c"],
            &[("a", ""), ("b", "")],
            "",
            "",
            "mv: target 'c': No such file or directory\n",
            1,
        );
        check(
            &["mv", "a", "b", "c"],
            &[("a", ""), ("b", ""), ("c", "")],
            "",
            "",
            "mv: target 'c': Not a directory\n",
            1,
        );
        check(&["mv", "z", "z"], &[("z", "")], "", "", "mv: 'z' and 'z' are the same file\n", 1);
        check(&["mv", ".", "z"], &[], "", "", "mv: cannot move '.' to 'z': Device or resource busy\n", 1);
        check(
            &["mv", "-t", "nope", "x"],
            &[("x", "")],
            "",
            "",
            "mv: target directory 'nope': No such file or directory\n",
            1,
        );
        check(
            &["mv", "-t", "x", "c"],
            &[("x", ""), ("c", "")],
            "",
            "",
            "mv: target directory 'x': Not a directory\n",
            1,
        );
        check(&["mv"], &[], "", "", "mv: missing file operand\nTry 'mv --help' for more information.\n", 1);
        check(
            &["mv", "a"],
            &[],
            "",
            "",
            "mv: missing destination file operand after 'a'\nTry 'mv --help' for more information.\n",
            1,
        );
        check(&["mv", "-x", "a"], &[], "", "", "mv: invalid option -- 'x'\nTry 'mv --help' for more information.\n", 1);
    }
}
