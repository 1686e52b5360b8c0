//! `readlink` (`-f`, `-e`, `-m`, `-n`, `-v`, `-z`) and `realpath` (`-e`, `-m`,
//! `-s`, `-q`, `-z`, `--relative-to`): symlink resolution walked component by
//! component as gnulib's `canonicalize_filename_mode` does.

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FsError};
use async_trait::async_trait;

pub struct Readlink;
pub struct Realpath;

/// How much of a path must exist.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    All,
    AllButLast,
    Nothing,
}

const MAX_HOPS: usize = 40;

/// Absolute path with every symlink resolved.
async fn canonical(ctx: &CommandContext<'_>, name: &str, need: Need, follow: bool) -> Result<String, FsError> {
    if name.is_empty() {
        return Err(FsError::NotFound);
    }
    let start = if name.starts_with('/') { name.to_string() } else { format!("{}/{name}", ctx.cwd) };
    let mut pending: Vec<String> = start.split('/').rev().map(String::from).collect();
    let mut cur = String::from("/");
    let mut hops = 0;
    while let Some(c) = pending.pop() {
        match c.as_str() {
            "" | "." => continue,
            ".." => {
                cur = path::parent(&cur).to_string();
                continue;
            }
            _ => {}
        }
        let next = path::join(&cur, &c);
        let last = pending.iter().all(|p| p.is_empty() || p == ".");
        match ctx.fs.symlink_metadata(&next).await {
            Ok(m) if m.is_symlink() && follow => {
                hops += 1;
                if hops > MAX_HOPS {
                    return Err(FsError::TooManyLinks);
                }
                let target = ctx.fs.read_link(&next).await?;
                if target.starts_with('/') {
                    cur = "/".into();
                }
                pending.extend(target.split('/').rev().map(String::from));
            }
            Ok(m) => {
                if !last && !m.is_dir() && !m.is_symlink() && need != Need::Nothing {
                    return Err(FsError::NotADirectory);
                }
                cur = next;
            }
            Err(e) => match need {
                Need::All => return Err(e),
                Need::AllButLast if !last => return Err(e),
                _ => cur = next,
            },
        }
    }
    Ok(cur)
}

/// `to` relative to directory `from` (both canonical).
fn relative_to(to: &str, from: &str) -> String {
    let f: Vec<&str> = from.split('/').filter(|c| !c.is_empty()).collect();
    let t: Vec<&str> = to.split('/').filter(|c| !c.is_empty()).collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts = vec![".."; f.len() - common];
    parts.extend(&t[common..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

const READLINK: Spec = Spec::new(
    "efmnqsvz",
    &[
        ("canonicalize", Arg::No, "f"),
        ("canonicalize-existing", Arg::No, "e"),
        ("canonicalize-missing", Arg::No, "m"),
        ("no-newline", Arg::No, "n"),
        ("quiet", Arg::No, "q"),
        ("silent", Arg::No, "s"),
        ("verbose", Arg::No, "v"),
        ("zero", Arg::No, "z"),
    ],
    "[OPTION]... FILE...",
);

#[async_trait]
impl Utility for Readlink {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&READLINK).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let mut need = None;
        for o in &p.opts {
            match o.id {
                "f" => need = Some(Need::AllButLast),
                "e" => need = Some(Need::All),
                "m" => need = Some(Need::Nothing),
                _ => {}
            }
        }
        let verbose = p.opts.iter().rev().find(|o| matches!(o.id, "v" | "q" | "s")).is_some_and(|o| o.id == "v");
        let end = if p.has("z") {
            "\0"
        } else if p.has("n") && p.operands.len() == 1 {
            ""
        } else {
            "\n"
        };
        let mut status = 0;
        for op in &p.operands {
            let r = match need {
                Some(n) => canonical(ctx, op, n, true).await,
                None => ctx.fs.read_link(&ctx.resolve(op)).await,
            };
            match r {
                Ok(s) => ctx.out(format!("{s}{end}").as_bytes()).await?,
                Err(e) => {
                    if verbose {
                        ctx.err(format!("{}: {e}", quotef(op))).await?;
                    }
                    status = 1;
                }
            }
        }
        Ok(status)
    }
}

const REALPATH: Spec = Spec::new(
    "eLmPqsz",
    &[
        ("canonicalize-existing", Arg::No, "e"),
        ("canonicalize-missing", Arg::No, "m"),
        ("logical", Arg::No, "L"),
        ("physical", Arg::No, "P"),
        ("quiet", Arg::No, "q"),
        ("relative-to", Arg::Yes, "relative-to"),
        ("relative-base", Arg::Yes, "relative-base"),
        ("strip", Arg::No, "s"),
        ("no-symlinks", Arg::No, "s"),
        ("zero", Arg::No, "z"),
    ],
    "[OPTION]... FILE...",
);

#[async_trait]
impl Utility for Realpath {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&REALPATH).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let mut need = Need::AllButLast;
        for o in &p.opts {
            match o.id {
                "e" => need = Need::All,
                "m" => need = Need::Nothing,
                _ => {}
            }
        }
        let follow = !p.has("s");
        let end = if p.has("z") { "\0" } else { "\n" };
        let mut rel = None;
        for (opt, base) in [("relative-to", false), ("relative-base", true)] {
            if let Some(d) = p.last(opt) {
                match canonical(ctx, d, need, follow).await {
                    Ok(c) => rel = Some((c, base)),
                    Err(e) => {
                        return Err(UError::new(1, format!("{}: {e}", quotef(d))));
                    }
                }
            }
        }
        let mut status = 0;
        for op in &p.operands {
            match canonical(ctx, op, need, follow).await {
                Ok(mut s) => {
                    if let Some((dir, only_below)) = &rel {
                        let below = s == *dir || s.starts_with(&format!("{}/", dir.trim_end_matches('/')));
                        if !*only_below || below {
                            s = relative_to(&s, dir);
                        }
                    }
                    ctx.out(format!("{s}{end}").as_bytes()).await?;
                }
                Err(e) => {
                    if !p.has("q") {
                        ctx.err(format!("{}: {e}", quotef(op))).await?;
                    }
                    status = 1;
                }
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::file_util::testing::{check_on, fs_with};

    fn fixture() -> std::sync::Arc<dyn crate::fs::Fs> {
        fs_with(&[("d/e/", ""), ("f", "")], &[("ld", "d"), ("dang", "nowhere"), ("ll", "ld")])
    }

    #[track_caller]
    fn ok(argv: &[&str], out: &str, err: &str, status: i32) {
        let fs = fixture();
        let t = super::super::util::testutil::tree(&fs);
        check_on(&fs, argv, "", out, err, status, &t);
    }

    #[test]
    fn readlink() {
        ok(&["readlink", "ld", "ll", "f"], "d\nld\n", "", 1);
        ok(&["readlink", "-v", "f"], "", "readlink: f: Invalid argument\n", 1);
        ok(&["readlink", "-f", "ll", "dang", "nope/x"], "/w/d\n/w/nowhere\n", "", 1);
        ok(&["readlink", "-e", "dang"], "", "", 1);
        ok(&["readlink", "-m", "nope/x/../y"], "/w/nope/y\n", "", 0);
        ok(&["readlink", "-n", "ld"], "d", "", 0);
        ok(&["readlink"], "", "readlink: missing operand\nTry 'readlink --help' for more information.\n", 1);
    }

    #[test]
    fn realpath() {
        ok(&["realpath", "ll", "f", "nope"], "/w/d\n/w/f\n/w/nope\n", "", 0);
        ok(&["realpath", "-m", "nope/x"], "/w/nope/x\n", "", 0);
        ok(&["realpath", "-e", "dang"], "", "realpath: dang: No such file or directory\n", 1);
        ok(&["realpath", "nope/x"], "", "realpath: nope/x: No such file or directory\n", 1);
        ok(&["realpath", "--relative-to=d", "f"], "../f\n", "", 0);
        ok(&["realpath", "-s", "ll"], "/w/ll\n", "", 0);
        ok(&["realpath", "d/e/.."], "/w/d\n", "", 0);
        ok(&["realpath"], "", "realpath: missing operand\nTry 'realpath --help' for more information.\n", 1);
    }
}
