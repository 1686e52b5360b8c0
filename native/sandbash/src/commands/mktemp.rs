//! `mktemp`: create a uniquely named file (mode 0600) or directory (0700).
//! Names come from a small PRNG seeded per call from the clock and a
//! counter; a name that exists is retried.

use super::util::{quote, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Mktemp;

const SPEC: Spec = Spec::new(
    "dp:qtu",
    &[
        ("directory", Arg::No, "d"),
        ("dry-run", Arg::No, "u"),
        ("quiet", Arg::No, "q"),
        ("suffix", Arg::Yes, "suffix"),
        ("tmpdir", Arg::Optional, "p"),
    ],
    "[OPTION]... [TEMPLATE]",
);

const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// splitmix64, seeded from the time and a process-wide counter.
struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        static CALLS: AtomicU64 = AtomicU64::new(0);
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        Rng(t ^ CALLS.fetch_add(1, Ordering::Relaxed).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[async_trait]
impl Utility for Mktemp {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.len() > 1 {
            return Err(UError::usage(1, "too many templates"));
        }
        let (dir_mode, dry, quiet) = (p.has("d"), p.has("u"), p.has("q"));
        let tmpdir = ctx.env.get("TMPDIR").filter(|t| !t.is_empty()).unwrap_or_else(|| "/tmp".into());
        let given = p.operands.first().cloned();
        let mut template = given.clone().unwrap_or_else(|| "tmp.XXXXXXXXXX".into());
        let mut suffix = p.last("suffix").unwrap_or("").to_string();
        if suffix.is_empty() && !template.ends_with('X') {
            // GNU: the X's may be followed by a suffix.
            if let Some(i) = template.rfind("XXX") {
                suffix = template[i + 3..].to_string();
                template.truncate(i + 3);
            }
        }
        if suffix.contains('/') {
            return Err(UError::new(1, format!("invalid suffix {}, contains directory separator", quote_locale(&suffix))));
        }
        let xs = template.len() - template.trim_end_matches('X').len();
        if xs < 3 {
            return Err(UError::new(1, format!("too few X's in template {}", quote(&format!("{template}{suffix}")))));
        }
        // Where the template lives: -p DIR, -t (TMPDIR or /tmp), or as given.
        let dir = match (p.opts.iter().rev().find(|o| o.id == "p"), p.has("t") || given.is_none()) {
            (Some(o), _) => Some(o.val.clone().filter(|v| !v.is_empty()).unwrap_or(tmpdir.clone())),
            (None, true) => Some(tmpdir.clone()),
            (None, false) => None,
        };
        if dir.is_some() && template.contains('/') {
            ctx.err(format!("invalid template, {}; with --tmpdir, it may not be absolute", quote_locale(&template)))
                .await?;
            return Ok(1);
        }
        let base = match &dir {
            Some(d) => format!("{}/{template}", d.trim_end_matches('/')),
            None => template.clone(),
        };
        let stem = &base[..base.len() - xs];
        let mut rng = Rng::new();
        for _ in 0..100 {
            let rand: String = (0..xs).map(|_| CHARS[(rng.next() % CHARS.len() as u64) as usize] as char).collect();
            let name = format!("{stem}{rand}{suffix}");
            let full = ctx.resolve(&name);
            if ctx.fs.symlink_metadata(&full).await.is_ok() {
                continue;
            }
            let made = if dry {
                Ok(())
            } else if dir_mode {
                match ctx.fs.mkdir(&full, false).await {
                    Ok(()) => ctx.fs.set_mode(&full, 0o700).await,
                    Err(e) => Err(e),
                }
            } else {
                match ctx.fs.write(&full, b"").await {
                    Ok(()) => ctx.fs.set_mode(&full, 0o600).await,
                    Err(e) => Err(e),
                }
            };
            return match made {
                Ok(()) => {
                    ctx.out(format!("{name}\n").as_bytes()).await?;
                    Ok(0)
                }
                Err(e) => {
                    if !quiet {
                        let what = if dir_mode { "directory" } else { "file" };
                        let shown = format!("{base}{suffix}");
                        ctx.err(format!("failed to create {what} via template {}: {e}", quote_locale(&shown))).await?;
                    }
                    Ok(1)
                }
            };
        }
        ctx.err(format!("failed to create file via template {}: {}", quote_locale(&base), FsError::AlreadyExists))
            .await?;
        Ok(1)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, make_fs, run_full};

    #[test]
    fn creates() {
        let fs = make_fs(&[("tmp/", "")]);
        let o = run_full(&fs, &["mktemp", "-p", "/w/tmp"], b"", &[], Default::default());
        assert!(o.out.starts_with("/w/tmp/tmp.") && o.out.len() == "/w/tmp/tmp.".len() + 11, "{o:?}");
        let name = o.out.trim_end();
        let m = crate::commands::util::testutil::block_on(fs.metadata(name)).expect("created");
        assert_eq!((m.is_file(), m.mode), (true, 0o600));
        let o = run_full(&fs, &["mktemp", "-d", "dXXXXXX"], b"", &[], Default::default());
        let m = crate::commands::util::testutil::block_on(fs.metadata(&format!("/w/{}", o.out.trim_end()))).expect("dir");
        assert_eq!((m.is_dir(), m.mode, o.out.len()), (true, 0o700, 8));
        let o = run_full(&fs, &["mktemp", "--suffix=.txt", "aXXX"], b"", &[], Default::default());
        assert!(o.out.starts_with('a') && o.out.ends_with(".txt\n") && o.out.len() == 9, "{o:?}");
        let o = run_full(&fs, &["mktemp", "-u", "fooXXX"], b"", &[], Default::default());
        assert!(crate::commands::util::testutil::block_on(fs.metadata(&format!("/w/{}", o.out.trim_end()))).is_err());
        let o = run_full(&fs, &["mktemp", "-t", "xXXXX"], b"", &[("TMPDIR", "/w/tmp")], Default::default());
        assert!(o.out.starts_with("/w/tmp/x") && o.out.len() == 13, "{o:?}");
    }

    #[test]
    fn errors() {
        check(&["mktemp", "abc"], &[], "", "", "mktemp: too few X's in template 'abc'\n", 1);
        check(
            &["mktemp", "a", "b"],
            &[],
            "",
            "",
            "mktemp: too many templates\nTry 'mktemp --help' for more information.\n",
            1,
        );
        check(&["mktemp", "aXXX/b"], &[], "", "", "mktemp: invalid suffix '/b', contains directory separator\n", 1);
        check(
            &["mktemp", "-p", "nope"],
            &[],
            "",
            "",
            "mktemp: failed to create file via template 'nope/tmp.XXXXXXXXXX': No such file or directory\n",
            1,
        );
    }
}
