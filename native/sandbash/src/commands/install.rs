//! `install`: copy files and set their mode (0755 unless `-m`), or create
//! directories (`-d`); `-D` creates the destination's leading directories,
//! `-t DIR` names the target directory. Ownership options are accepted and
//! ignored (the sandbox has one user).

use super::util::{quote, quote_locale, Arg, Spec};
use super::util::file_mode::ModeChange;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::path;
use async_trait::async_trait;

pub struct Install;

const SPEC: Spec = Spec::new(
    "bcCdDg:m:o:pst:TvS:",
    &[
        ("backup", Arg::Optional, "b"),
        ("compare", Arg::No, "C"),
        ("directory", Arg::No, "d"),
        ("group", Arg::Yes, "g"),
        ("mode", Arg::Yes, "m"),
        ("owner", Arg::Yes, "o"),
        ("preserve-timestamps", Arg::No, "p"),
        ("strip", Arg::No, "s"),
        ("target-directory", Arg::Yes, "t"),
        ("no-target-directory", Arg::No, "T"),
        ("verbose", Arg::No, "v"),
        ("suffix", Arg::Yes, "S"),
    ],
    "[OPTION]... [-T] SOURCE DEST",
);

#[async_trait]
impl Utility for Install {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut mode = 0o755;
        if let Some(m) = p.last("m") {
            match ModeChange::parse(m) {
                Some(c) => mode = c.apply_umask(0, false, 0),
                None => {
                    return Err(UError::new(1, format!("invalid mode {}", quote_locale(m))));
                }
            }
        }
        let verbose = p.has("v");
        let ops = &p.operands;
        if p.has("d") {
            if ops.is_empty() {
                return Err(UError::usage(1, "missing file operand"));
            }
            let mut status = 0;
            for d in ops {
                let full = ctx.resolve(d);
                let r = match ctx.fs.mkdir(&full, true).await {
                    Ok(()) => ctx.fs.set_mode(&full, mode).await,
                    Err(e) => Err(e),
                };
                if let Err(e) = r {
                    ctx.err(format!("cannot create directory {}: {e}", quote(d))).await?;
                    status = 1;
                } else if verbose {
                    ctx.out(format!("install: creating directory {}\n", quote(d)).as_bytes()).await?;
                }
            }
            return Ok(status);
        }
        let (sources, dir): (&[String], Option<&str>) = match p.last("t") {
            Some(t) => (ops, Some(t)),
            None => match ops.len() {
                0 => {
                    return Err(UError::usage(1, "missing file operand"));
                }
                1 => {
                    return Err(UError::usage(1, format!("missing destination file operand after {}", quote(&ops[0]))));
                }
                2 if p.has("T") || !is_dir(ctx, &ops[1]).await => {
                    return copy_one(ctx, &ops[0], &ops[1], mode, p.has("D"), verbose).await;
                }
                n => (&ops[..n - 1], Some(ops[n - 1].as_str())),
            },
        };
        let dir = dir.unwrap_or(".");
        if p.has("D") {
            let _ = ctx.fs.mkdir(&ctx.resolve(dir), true).await;
        }
        if !is_dir(ctx, dir).await {
            let why = match ctx.fs.metadata(&ctx.resolve(dir)).await {
                Ok(_) => "Not a directory".to_string(),
                Err(e) => e.to_string(),
            };
            return Err(UError::new(1, format!("target {}: {why}", quote(dir))));
        }
        let mut status = 0;
        for s in sources {
            let name = s.trim_end_matches('/').rsplit('/').next().unwrap_or(s);
            let dest = format!("{}/{name}", dir.trim_end_matches('/'));
            status |= match copy_one(ctx, s, &dest, mode, false, verbose).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 };
        }
        Ok(status)
    }
}

async fn is_dir(ctx: &CommandContext<'_>, p: &str) -> bool {
    ctx.fs.metadata(&ctx.resolve(p)).await.is_ok_and(|m| m.is_dir())
}

async fn copy_one(
    ctx: &CommandContext<'_>,
    src: &str,
    dest: &str,
    mode: u32,
    parents: bool,
    verbose: bool,
) -> UResult<i32> {
    let sfull = ctx.resolve(src);
    match ctx.fs.metadata(&sfull).await {
        Ok(m) if m.is_dir() => {
            return Err(UError::new(1, format!("omitting directory {}", quote(src))));
        }
        Ok(_) => {}
        Err(e) => {
            return Err(UError::new(1, format!("cannot stat {}: {e}", quote(src))));
        }
    }
    let dfull = ctx.resolve(dest);
    if parents {
        if let Err(e) = ctx.fs.mkdir(path::parent(&dfull), true).await {
            return Err(UError::new(1, format!("cannot create directory {}: {e}", quote(path::parent(dest)))));
        }
    }
    let data = match ctx.fs.read(&sfull).await {
        Ok(d) => d,
        Err(e) => {
            return Err(UError::new(1, format!("cannot open {} for reading: {e}", quote(src))));
        }
    };
    // GNU install unlinks the destination first: a read-only one is replaced.
    if ctx.fs.symlink_metadata(&dfull).await.is_ok_and(|m| !m.is_dir()) {
        if let Err(e) = ctx.fs.remove_file(&dfull).await {
            return Err(UError::new(1, format!("cannot remove {}: {e}", quote(dest))));
        }
    }
    let r = match ctx.fs.write(&dfull, &data).await {
        Ok(()) => ctx.fs.set_mode(&dfull, mode).await,
        Err(e) => Err(e),
    };
    if let Err(e) = r {
        return Err(UError::new(1, format!("cannot create regular file {}: {e}", quote(dest))));
    }
    if verbose {
        ctx.out(format!("{} -> {}\n", quote(src), quote(dest)).as_bytes()).await?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{block_on, check, check_tree, make_fs, run_full};

    #[test]
    fn installs() {
        let fs = make_fs(&[("a", "hi\n"), ("d/", "")]);
        let mode = |p: &str| block_on(fs.metadata(&format!("/w/{p}"))).map(|m| m.mode).ok();
        let run = |argv: &[&str]| run_full(&fs, argv, b"", &[], Default::default()).status;
        assert_eq!(run(&["install", "a", "b"]), 0);
        assert_eq!(mode("b"), Some(0o755));
        assert_eq!(run(&["install", "-m", "644", "a", "c"]), 0);
        assert_eq!(mode("c"), Some(0o644));
        assert_eq!(run(&["install", "-m", "u=rw,go=r", "a", "c2"]), 0);
        assert_eq!(mode("c2"), Some(0o644));
        assert_eq!(run(&["install", "-d", "x/y/z"]), 0);
        assert_eq!(mode("x/y/z"), Some(0o755));
        assert_eq!(run(&["install", "-D", "a", "p/q/r"]), 0);
        assert_eq!(mode("p/q/r"), Some(0o755));
        assert_eq!(run(&["install", "a", "b", "d"]), 0);
        assert_eq!(run(&["install", "-t", "x", "a"]), 0);
        assert_eq!((mode("d/a"), mode("d/b"), mode("x/a")), (Some(0o755), Some(0o755), Some(0o755)));
        check_tree(&["install", "a", "d"], &[("a", "hi\n"), ("d/", "")], "", "", "", 0, "a\thi\\n\nd/\nd/a\thi\\n\n");
    }

    #[test]
    fn errors() {
        let files = &[("a", "hi\n"), ("d/", "")];
        check(&["install", "nope", "z"], files, "", "", "install: cannot stat 'nope': No such file or directory\n", 1);
        check(
            &["install", "a"],
            files,
            "",
            "",
            "install: missing destination file operand after 'a'\nTry 'install --help' for more information.\n",
            1,
        );
        check(&["install", "d", "e"], files, "", "", "install: omitting directory 'd'\n", 1);
        check(
            &["install", "a", "a", "nodir"],
            files,
            "",
            "",
            "install: target 'nodir': No such file or directory\n",
            1,
        );
        check(&["install", "-m", "999", "a", "f"], files, "", "", "install: invalid mode '999'\n", 1);
    }
}
