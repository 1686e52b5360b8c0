//! `touch`: create files and set their modification time (`-c`, `-d`, `-t`,
//! `-r`, `-m`, `-a`, `--time`). The sandbox keeps no access times, so `-a`
//! alone only creates missing files.

use super::util::{quote, quote_locale, Arg, Spec};
use super::util::file_time::{parse_date, parse_stamp};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;
use std::time::SystemTime;

pub struct Touch;

const SPEC: Spec = Spec::new(
    "acd:fhmr:t:",
    &[
        ("no-create", Arg::No, "c"),
        ("date", Arg::Yes, "d"),
        ("no-dereference", Arg::No, "h"),
        ("reference", Arg::Yes, "r"),
        ("time", Arg::Yes, "time"),
    ],
    "[OPTION]... FILE...",
);

#[async_trait]
impl Utility for Touch {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let no_deref = p.has("h");
        let no_create = p.has("c") || no_deref;
        // Which times change: mtime unless only atime was asked for.
        let mut atime_only = p.has("a") && !p.has("m");
        if let Some(w) = p.last("time") {
            match w {
                "atime" | "access" | "use" => atime_only = !p.has("m"),
                "mtime" | "modify" => atime_only = false,
                _ => {
                    ctx.err(format!(
                        "invalid argument {} for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'",
                        quote(w)
                    ))
                    .await?;
                    return Err(UError::usage(1, ""));
                }
            }
        }
        if p.has("t") && (p.has("d") || p.has("r")) {
            return Err(UError::usage(1, "cannot specify times from more than one source"));
        }
        let now = SystemTime::now();
        let mut when: Option<SystemTime> = None;
        if let Some(r) = p.last("r") {
            match ctx.fs.metadata(&ctx.resolve(r)).await {
                Ok(m) => when = Some(m.mtime),
                Err(e) => {
                    return Err(UError::new(1, format!("failed to get attributes of {}: {e}", quote(r))));
                }
            }
        }
        if let Some(d) = p.last("d") {
            match parse_date(d, when.unwrap_or(now), ctx.env.get("TZ").as_deref()) {
                Some(t) => when = Some(t),
                None => {
                    return Err(UError::new(1, format!("invalid date format {}", quote_locale(d))));
                }
            }
        }
        if let Some(t) = p.last("t") {
            match parse_stamp(t, now) {
                Some(t) => when = Some(t),
                None => {
                    return Err(UError::new(1, format!("invalid date format {}", quote_locale(t))));
                }
            }
        }
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing file operand"));
        }
        let mtime = when.unwrap_or(now);
        let mut status = 0;
        for op in &p.operands {
            if op == "-" {
                continue; // GNU touches stdout, which is no file here.
            }
            let path = if op.is_empty() { String::new() } else { ctx.resolve(op) };
            if let Err(msg) = touch_one(ctx, op, &path, no_create, no_deref, atime_only, mtime).await {
                ctx.err(msg).await?;
                status = 1;
            }
        }
        Ok(status)
    }
}

/// Touch one operand; `Err` carries the message to print.
async fn touch_one(
    ctx: &CommandContext<'_>,
    op: &str,
    path: &str,
    no_create: bool,
    no_deref: bool,
    atime_only: bool,
    mtime: SystemTime,
) -> Result<(), String> {
    let setting = |e: FsError| format!("setting times of {}: {e}", quote(op));
    if op.is_empty() {
        return Err(format!("cannot touch {}: {}", quote(op), FsError::NotFound));
    }
    let meta = if no_deref { ctx.fs.symlink_metadata(path).await } else { ctx.fs.metadata(path).await };
    match meta {
        Ok(m) if op.ends_with('/') && !m.is_dir() => return Err(setting(FsError::NotADirectory)),
        // `-h`: the link's own time (a backend that keeps none leaves it).
        Ok(m) if m.is_symlink() => {
            if !atime_only {
                match ctx.fs.set_symlink_mtime(path, mtime).await {
                    Ok(()) | Err(FsError::NotSupported) => {}
                    Err(e) => return Err(setting(e)),
                }
            }
            return Ok(());
        }
        Ok(_) => {}
        Err(FsError::NotFound) if op.ends_with('/') || no_deref => return Err(setting(FsError::NotFound)),
        Err(FsError::NotFound) if no_create => return Ok(()),
        Err(FsError::NotFound) => {
            ctx.fs.write(path, b"").await.map_err(|e| format!("cannot touch {}: {e}", quote(op)))?;
        }
        Err(e) if no_create => return Err(setting(e)),
        Err(e) => return Err(format!("cannot touch {}: {e}", quote(op))),
    }
    if !atime_only {
        ctx.fs.set_mtime(path, mtime).await.map_err(setting)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::util::file_time::to_unix;
    use super::super::util::testutil::{block_on, check, check_tree, make_fs, run_full};
    use crate::limits::Limits;

    fn mtime_after(files: &[(&str, &str)], argv: &[&str], name: &str) -> i64 {
        let fs = make_fs(files);
        let o = run_full(&fs, argv, b"", &[], Limits::default());
        assert_eq!((o.out.as_str(), o.err.as_str(), o.status), ("", "", 0), "{argv:?}");
        to_unix(block_on(fs.metadata(&format!("/w/{name}"))).expect("exists").mtime).0
    }

    #[test]
    fn creates_and_keeps_content() {
        check_tree(&["touch", "a", "b"], &[("b", "keep")], "", "", "", 0, "a\t\nb\tkeep\n");
        check_tree(&["touch", "-c", "b"], &[], "", "", "", 0, "");
        check(&["touch", "-c", "x/y"], &[], "", "", "", 0);
        check(&["touch", "x/y"], &[], "", "", "touch: cannot touch 'x/y': No such file or directory\n", 1);
        check(&["touch", ""], &[], "", "", "touch: cannot touch '': No such file or directory\n", 1);
        check(&["touch", "d"], &[("d/", "")], "", "", "", 0);
        check(&["touch", "f/"], &[], "", "", "touch: setting times of 'f/': No such file or directory\n", 1);
        check(&["touch", "f/"], &[("f", "")], "", "", "touch: setting times of 'f/': Not a directory\n", 1);
        check(&["touch", "-h", "dl2"], &[], "", "", "touch: setting times of 'dl2': No such file or directory\n", 1);
    }

    #[test]
    fn sets_times() {
        assert_eq!(mtime_after(&[("a", "")], &["touch", "-d", "@0", "a"], "a"), 0);
        assert_eq!(mtime_after(&[], &["touch", "-d", "2020-01-02 03:04:05", "a"], "a"), 1_577_934_245);
        assert_eq!(mtime_after(&[], &["touch", "--date=2020-01-02", "a"], "a"), 1_577_923_200);
        assert_eq!(mtime_after(&[], &["touch", "-t", "202001020304.05", "a"], "a"), 1_577_934_245);
        assert_eq!(mtime_after(&[], &["touch", "-t", "2001020304", "a"], "a"), 1_577_934_240);
        assert_eq!(mtime_after(&[], &["touch", "-m", "-d", "@7", "a"], "a"), 7);
        let fs = make_fs(&[("a", "")]);
        run_full(&fs, &["touch", "-d", "@1000", "a"], b"", &[], Limits::default());
        run_full(&fs, &["touch", "-r", "a", "b"], b"", &[], Limits::default());
        assert_eq!(to_unix(block_on(fs.metadata("/w/b")).expect("b").mtime).0, 1000);
        run_full(&fs, &["touch", "-a", "-d", "@5", "a"], b"", &[], Limits::default());
        assert_eq!(to_unix(block_on(fs.metadata("/w/a")).expect("a").mtime).0, 1000);
    }

    #[test]
    fn errors() {
        check(&["touch", "-d", "nonsense", "a"], &[], "", "", "touch: invalid date format 'nonsense'\n", 1);
        check(&["touch", "-t", "bad", "a"], &[], "", "", "touch: invalid date format 'bad'\n", 1);
        check(
            &["touch", "-r", "nope", "a"],
            &[],
            "",
            "",
            "touch: failed to get attributes of 'nope': No such file or directory\n",
            1,
        );
        check(&["touch"], &[], "", "", "touch: missing file operand\nTry 'touch --help' for more information.\n", 1);
        check(
            &["touch", "-x"],
            &[],
            "",
            "",
            "touch: invalid option -- 'x'\nTry 'touch --help' for more information.\n",
            1,
        );
        check(
            &["touch", "-d", "@0", "-t", "202001010000", "a"],
            &[],
            "",
            "",
            "touch: cannot specify times from more than one source\nTry 'touch --help' for more information.\n",
            1,
        );
        check(
            &["touch", "--time=bogus", "f"],
            &[],
            "",
            "",
            "touch: invalid argument 'bogus' for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'\nTry 'touch --help' for more information.\n",
            1,
        );
    }
}
