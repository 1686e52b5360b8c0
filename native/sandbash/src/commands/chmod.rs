//! `chmod`: change permission bits (octal and symbolic modes, `-R`, `-v`, `-c`,
//! `-f`, `--reference`). Symlinks met during `-R` are skipped, as GNU does.

use super::util::{quote, quote_locale, quotef, Arg, Spec};
use super::util::file_mode::{mode_string, ModeChange};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FileType};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Chmod;

const SPEC: Spec = Spec::new(
    "cfvR",
    &[
        ("changes", Arg::No, "c"),
        ("silent", Arg::No, "f"),
        ("quiet", Arg::No, "f"),
        ("verbose", Arg::No, "v"),
        ("recursive", Arg::No, "R"),
        ("reference", Arg::Yes, "reference"),
        ("preserve-root", Arg::No, "preserve-root"),
        ("no-preserve-root", Arg::No, "no-preserve-root"),
    ],
    "[OPTION]... MODE[,MODE]... FILE...",
);

/// `-w`, `-x`, `-rwx`, `-644`: a mode that looks like an option (GNU accepts it).
fn is_mode_arg(a: &str) -> bool {
    a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "rwxXstugoa,+-=01234567".contains(c))
}

#[async_trait]
impl Utility for Chmod {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // Pull a dash-mode out before option parsing so getopt does not reject it.
        let mut args: Vec<String> = Vec::new();
        let mut dash_mode = None;
        let mut ended = false;
        for a in ctx.args {
            if a == "--" {
                ended = true;
            }
            if !ended && dash_mode.is_none() && is_mode_arg(a) {
                dash_mode = Some(a.clone());
            } else {
                args.push(a.clone());
            }
        }
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut ops = p.operands.clone();
        let change = if let Some(r) = p.last("reference") {
            match ctx.fs.metadata(&ctx.resolve(r)).await {
                Ok(m) => ModeChange::parse(&format!("{:o}", m.mode)),
                Err(e) => {
                    return Err(UError::new(1, format!("failed to get attributes of {}: {e}", quote(r))));
                }
            }
        } else {
            let mode = match dash_mode {
                Some(m) => Some(m),
                None if ops.is_empty() => None,
                None => Some(ops.remove(0)),
            };
            let Some(mode) = mode else {
                return Err(UError::usage(1, "missing operand"));
            };
            if ops.is_empty() {
                return Err(UError::usage(1, format!("missing operand after {}", quote_locale(&mode))));
            }
            match ModeChange::parse(&mode) {
                Some(c) => Some(c),
                None => {
                    return Err(UError::usage(1, format!("invalid mode: {}", quote_locale(&mode))));
                }
            }
        };
        let Some(change) = change else { return Ok(1) };
        if ops.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let mut status = 0;
        for op in &ops {
            // Depth-first, parents before children; names as given plus `/child`.
            let mut stack = vec![(op.clone(), true)];
            while let Some((name, top)) = stack.pop() {
                if !ctx.still_running() {
                    return Ok(1);
                }
                let full = ctx.resolve(&name);
                let meta = if top { ctx.fs.metadata(&full).await } else { ctx.fs.symlink_metadata(&full).await };
                let m = match meta {
                    Ok(m) => m,
                    Err(e) => {
                        if !p.has("f") {
                            ctx.err(format!("cannot access {}: {e}", quote(&name))).await?;
                        }
                        status = 1;
                        continue;
                    }
                };
                if m.is_symlink() {
                    continue;
                }
                let new = change.apply_umask(m.mode, m.is_dir(), ctx.fs.umask());
                if ctx.fs.set_mode(&full, new).await.is_err() {
                    status = 1;
                }
                report(ctx, &p, &name, m.file_type, m.mode, new).await?;
                // GNU warns when the umask kept a `+`/`-`/`=` without who from applying.
                let wanted = change.apply_umask(m.mode, m.is_dir(), 0);
                if wanted != new {
                    let perms = |x: u32| mode_string(m.file_type, x)[1..].to_string();
                    let msg = format!("{}: new permissions are {}, not {}", quotef(&name), perms(new), perms(wanted));
                    ctx.err(msg).await?;
                    status = 1;
                }
                if p.has("R") && m.is_dir() {
                    if let Ok(entries) = ctx.fs.read_dir(&full).await {
                        for e in entries.iter().rev() {
                            stack.push((path::join(&name, &e.name), false));
                        }
                    }
                }
            }
        }
        Ok(status)
    }
}

/// `-v`/`-c` lines: `mode of 'a' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)`.
async fn report(
    ctx: &CommandContext<'_>,
    p: &super::util::Parsed,
    name: &str,
    t: FileType,
    old: u32,
    new: u32,
) -> Result<(), IoError> {
    let perms = |m: u32| mode_string(t, m)[1..].to_string();
    let line = if old != new && (p.has("v") || p.has("c")) {
        format!("mode of {} changed from {old:04o} ({}) to {new:04o} ({})\n", quote(name), perms(old), perms(new))
    } else if old == new && p.has("v") {
        format!("mode of {} retained as {old:04o} ({})\n", quote(name), perms(old))
    } else {
        return Ok(());
    };
    ctx.out(line.as_bytes()).await
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{block_on, check, make_fs, run_full};

    fn mode_after(files: &[(&str, &str)], argv: &[&str], p: &str) -> u32 {
        let fs = make_fs(files);
        run_full(&fs, argv, b"", &[], Default::default());
        block_on(fs.metadata(&format!("/w/{p}"))).map(|m| m.mode).unwrap_or(0)
    }

    #[test]
    fn modes() {
        // Results from GNU chmod on files created 0644 (dirs 0755), umask 022.
        assert_eq!(mode_after(&[("a", "")], &["chmod", "u+x,g+w", "a"], "a"), 0o764);
        assert_eq!(mode_after(&[("a", "")], &["chmod", "600", "a"], "a"), 0o600);
        assert_eq!(mode_after(&[("a", "")], &["chmod", "+x", "a"], "a"), 0o755);
        assert_eq!(mode_after(&[("a", "")], &["chmod", "-w", "a"], "a"), 0o444);
        assert_eq!(mode_after(&[("a", "")], &["chmod", "a-x,u=rw", "a"], "a"), 0o644);
        assert_eq!(mode_after(&[("a", "")], &["chmod", "0", "a"], "a"), 0);
        assert_eq!(mode_after(&[("m/1", "")], &["chmod", "-R", "700", "m"], "m/1"), 0o700);
        assert_eq!(mode_after(&[("a", ""), ("m/", "")], &["chmod", "--reference=a", "m"], "m"), 0o644);
    }

    #[test]
    fn reports() {
        check(
            &["chmod", "-R", "-v", "go-rx", "m"],
            &[("m/1", ""), ("m/s/", "")],
            "",
            "mode of 'm' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\nmode of 'm/1' changed from 0644 (rw-r--r--) to 0600 (rw-------)\nmode of 'm/s' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n",
            "",
            0,
        );
        check(
            &["chmod", "-c", "u+x", "a", "nope"],
            &[("a", "")],
            "",
            "mode of 'a' changed from 0644 (rw-r--r--) to 0744 (rwxr--r--)\n",
            "chmod: cannot access 'nope': No such file or directory\n",
            1,
        );
        check(&["chmod", "-c", "644", "a"], &[("a", "")], "", "", "", 0);
        check(
            &["chmod", "-v", "644", "--", "a"],
            &[("a", "")],
            "",
            "mode of 'a' retained as 0644 (rw-r--r--)\n",
            "",
            0,
        );
        check(&["chmod", "-f", "644", "nope"], &[], "", "", "", 1);
        check(&["chmod", "u+x,g+w", "a"], &[("a", "")], "", "", "", 0);
        let fs = make_fs(&[("a", "")]);
        run_full(&fs, &["chmod", "764", "a"], b"", &[], Default::default());
        let o = run_full(&fs, &["chmod", "-w", "a"], b"", &[], Default::default());
        assert_eq!(
            (o.out.as_str(), o.err.as_str(), o.status),
            ("", "chmod: a: new permissions are r-xrw-r--, not r-xr--r--\n", 1)
        );
    }

    #[test]
    fn errors() {
        check(
            &["chmod", "bad", "a"],
            &[],
            "",
            "",
            "chmod: invalid mode: 'bad'\nTry 'chmod --help' for more information.\n",
            1,
        );
        check(
            &["chmod", "8", "a"],
            &[],
            "",
            "",
            "chmod: invalid mode: '8'\nTry 'chmod --help' for more information.\n",
            1,
        );
        check(
            &["chmod", "u+q", "a"],
            &[],
            "",
            "",
            "chmod: invalid mode: 'u+q'\nTry 'chmod --help' for more information.\n",
            1,
        );
        check(&["chmod"], &[], "", "", "chmod: missing operand\nTry 'chmod --help' for more information.\n", 1);
        check(
            &["chmod", "644"],
            &[],
            "",
            "",
            "chmod: missing operand after '644'\nTry 'chmod --help' for more information.\n",
            1,
        );
        check(
            &["chmod", "+x"],
            &[],
            "",
            "",
            "chmod: missing operand after '+x'\nTry 'chmod --help' for more information.\n",
            1,
        );
        check(&["chmod", "644", "nope"], &[], "", "", "chmod: cannot access 'nope': No such file or directory\n", 1);
    }
}
