//! `mkdir`: create directories (`-p` parents, `-v` verbose, `-m MODE`).

use super::util::{quote, quote_locale, Arg, Spec};
use super::util::file_mode::ModeChange;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;

pub struct Mkdir;

const SPEC: Spec = Spec::new(
    "m:pvZ",
    &[("mode", Arg::Yes, "m"), ("parents", Arg::No, "p"), ("verbose", Arg::No, "v"), ("context", Arg::Optional, "Z")],
    "[OPTION]... DIRECTORY...",
);

#[async_trait]
impl Utility for Mkdir {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let (parents, verbose) = (p.has("p"), p.has("v"));
        let mode = match p.last("m") {
            None => None,
            Some(m) => match ModeChange::parse(m) {
                Some(c) => Some(c.apply_umask(0o777, true, ctx.fs.umask())),
                None => {
                    return Err(UError::new(1, format!("invalid mode {}", quote_locale(m))));
                }
            },
        };
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let mut status = 0;
        for op in &p.operands {
            if let Err((name, e)) = make(ctx, op, parents, verbose, mode).await? {
                ctx.err(format!("cannot create directory {}: {e}", quote_locale(&name))).await?;
                status = 1;
            }
        }
        Ok(status)
    }
}

/// Create one operand; `Ok(Err((name, error)))` names what could not be made.
async fn make(
    ctx: &CommandContext<'_>,
    op: &str,
    parents: bool,
    verbose: bool,
    mode: Option<u32>,
) -> Result<Result<(), (String, FsError)>, crate::io::IoError> {
    if op.is_empty() {
        return Ok(Err((String::new(), FsError::NotFound)));
    }
    if parents && !verbose && ctx.fs.whole_operations(&ctx.resolve(op)) {
        // An application's backend gets `mkdir -p` as one recursive call.
        let path = ctx.resolve(op);
        if let Err(e) = ctx.fs.mkdir(&path, true).await {
            return Ok(Err((op.to_string(), e)));
        }
        if let Some(m) = mode {
            ctx.fs.set_mode(&path, m).await.ok();
        }
        return Ok(Ok(()));
    }
    if parents {
        // Walk the ancestors as typed (`x/./y` reports `x/./y`), creating missing ones.
        let trimmed = op.trim_end_matches('/');
        let ends: Vec<usize> = trimmed.match_indices('/').map(|(i, _)| i).filter(|&i| i > 0).collect();
        for end in ends {
            let prefix = &op[..end];
            if prefix.ends_with('/') {
                continue;
            }
            let path = ctx.resolve(prefix);
            match ctx.fs.mkdir(&path, false).await {
                Ok(()) => {
                    // A parent keeps u+wx whatever the mask, so the rest can be made in it.
                    let umask = ctx.fs.umask();
                    if umask & 0o300 != 0 {
                        ctx.fs.set_mode(&path, (0o777 & !umask) | 0o300).await.ok();
                    }
                    if verbose {
                        ctx.out(format!("{}: created directory {}\n", ctx.name, quote(prefix)).as_bytes()).await?;
                    }
                }
                Err(FsError::AlreadyExists) => match ctx.fs.metadata(&path).await {
                    // GNU enters each ancestor in turn: one it may not search is the one named.
                    Ok(m) if m.is_dir() && !ctx.fs.access(&path, 1).await.unwrap_or(true) => {
                        return Ok(Err((prefix.to_string(), FsError::PermissionDenied)));
                    }
                    Ok(m) if m.is_dir() => {}
                    Ok(_) => return Ok(Err((prefix.to_string(), FsError::NotADirectory))),
                    Err(_) => return Ok(Err((prefix.to_string(), FsError::AlreadyExists))),
                },
                Err(e) => return Ok(Err((prefix.to_string(), e))),
            }
        }
    }
    let path = ctx.resolve(op);
    match ctx.fs.mkdir(&path, false).await {
        Ok(()) => {}
        Err(FsError::AlreadyExists) if parents && ctx.fs.metadata(&path).await.is_ok_and(|m| m.is_dir()) => {
            return Ok(Ok(()));
        }
        Err(e) => return Ok(Err((op.to_string(), e))),
    }
    if let Some(m) = mode {
        ctx.fs.set_mode(&path, m).await.ok();
    }
    if verbose {
        ctx.out(format!("{}: created directory {}\n", ctx.name, quote(op)).as_bytes()).await?;
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{check, check_tree, make_fs, run_full};
    use crate::limits::Limits;

    #[test]
    fn creates_and_reports() {
        check_tree(&["mkdir", "-v", "a"], &[], "", "mkdir: created directory 'a'\n", "", 0, "a/\n");
        check(&["mkdir", "a"], &[("a/", "")], "", "", "mkdir: cannot create directory 'a': File exists\n", 1);
        check(&["mkdir", "x/y"], &[], "", "", "mkdir: cannot create directory 'x/y': No such file or directory\n", 1);
        check(&["mkdir", "f"], &[("f", "")], "", "", "mkdir: cannot create directory 'f': File exists\n", 1);
        check(&["mkdir", "f/g"], &[("f", "")], "", "", "mkdir: cannot create directory 'f/g': Not a directory\n", 1);
        check(&["mkdir", "a/"], &[("a/", "")], "", "", "mkdir: cannot create directory 'a/': File exists\n", 1);
        check(&["mkdir", ""], &[], "", "", "mkdir: cannot create directory '': No such file or directory\n", 1);
        check_tree(
            &["mkdir", "-v", "a", "b", "c/d"],
            &[("a/", "")],
            "",
            "mkdir: created directory 'b'\n",
            "mkdir: cannot create directory 'a': File exists\nmkdir: cannot create directory 'c/d': No such file or directory\n",
            1,
            "a/\nb/\n",
        );
    }

    #[test]
    fn parents() {
        check_tree(
            &["mkdir", "-pv", "x/y/z"],
            &[],
            "",
            "mkdir: created directory 'x'\nmkdir: created directory 'x/y'\nmkdir: created directory 'x/y/z'\n",
            "",
            0,
            "x/\nx/y/\nx/y/z/\n",
        );
        check(&["mkdir", "-p", "a"], &[("a/", "")], "", "", "", 0);
        check(&["mkdir", "-p", "f"], &[("f", "")], "", "", "mkdir: cannot create directory 'f': File exists\n", 1);
        check(
            &["mkdir", "-p", "f/g"],
            &[("f", "")],
            "",
            "",
            "mkdir: cannot create directory 'f': Not a directory\n",
            1,
        );
        check(
            &["mkdir", "-p", "x/f/g/h"],
            &[("x/f", "")],
            "",
            "",
            "mkdir: cannot create directory 'x/f': Not a directory\n",
            1,
        );
        check_tree(
            &["mkdir", "-pv", "x/./y/../z"],
            &[("x/", "")],
            "",
            "mkdir: created directory 'x/./y'\nmkdir: created directory 'x/./y/../z'\n",
            "",
            0,
            "x/\nx/y/\nx/z/\n",
        );
        check(&["mkdir", "-p", ""], &[], "", "", "mkdir: cannot create directory '': No such file or directory\n", 1);
        check(
            &["mkdir", "--mode=0700", "--parents", "--verbose", "q/r"],
            &[],
            "",
            "mkdir: created directory 'q'\nmkdir: created directory 'q/r'\n",
            "",
            0,
        );
    }

    #[test]
    fn modes() {
        let fs = make_fs(&[]);
        let go = |args: &[&str]| run_full(&fs, args, b"", &[], Limits::default()).status;
        assert_eq!(go(&["mkdir", "-m", "700", "m1"]), 0);
        assert_eq!(go(&["mkdir", "-m", "u+x,g=r", "m2"]), 0);
        assert_eq!(go(&["mkdir", "-m", "1777", "m4"]), 0);
        assert_eq!(go(&["mkdir", "-pm", "700", "p1/p2"]), 0);
        assert_eq!(go(&["mkdir", "-m", "-w", "m7"]), 0);
        let mode =
            |p: &str| super::super::util::testutil::block_on(fs.metadata(&format!("/w/{p}"))).map(|m| m.mode).unwrap_or(0);
        assert_eq!(
            [mode("m1"), mode("m2"), mode("m4"), mode("p1"), mode("p1/p2"), mode("m7")],
            [0o700, 0o747, 0o1777, 0o755, 0o700, 0o577]
        );
        check(&["mkdir", "-m", "bad", "m3"], &[], "", "", "mkdir: invalid mode 'bad'\n", 1);
        check(&["mkdir", "-m", "888", "z"], &[], "", "", "mkdir: invalid mode '888'\n", 1);
    }

    #[test]
    fn usage_errors() {
        check(&["mkdir"], &[], "", "", "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", 1);
        check(
            &["mkdir", "-q"],
            &[],
            "",
            "",
            "mkdir: invalid option -- 'q'\nTry 'mkdir --help' for more information.\n",
            1,
        );
        check(
            &["mkdir", "-m"],
            &[],
            "",
            "",
            "mkdir: option requires an argument -- 'm'\nTry 'mkdir --help' for more information.\n",
            1,
        );
        check(
            &["mkdir", "--mode"],
            &[],
            "",
            "",
            "mkdir: option '--mode' requires an argument\nTry 'mkdir --help' for more information.\n",
            1,
        );
    }
}
