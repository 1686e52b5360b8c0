//! `du`: disk usage as a Linux ext4 machine would show it: every file takes
//! its size rounded up to 4 KiB blocks, a directory 4 KiB, a symlink none
//! (real numbers depend on the host filesystem). Entries are visited in
//! name order; a file reached twice is counted once.

use super::util::{human_size, quote, quote_locale, Arg, Spec};
use super::find::printf::blocks_k;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::path;
use crate::io::IoError;
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use std::collections::HashSet;

pub struct Du;

const SPEC: Spec = Spec::new(
    "ashcd:kbmLPHxl0S",
    &[
        ("all", Arg::No, "a"),
        ("summarize", Arg::No, "s"),
        ("human-readable", Arg::No, "h"),
        ("total", Arg::No, "c"),
        ("max-depth", Arg::Yes, "d"),
        ("bytes", Arg::No, "b"),
        ("apparent-size", Arg::No, "A"),
        ("block-size", Arg::Yes, "B"),
        ("si", Arg::No, "si"),
        ("dereference", Arg::No, "L"),
        ("no-dereference", Arg::No, "P"),
        ("one-file-system", Arg::No, "x"),
        ("count-links", Arg::No, "l"),
        ("null", Arg::No, "0"),
        ("separate-dirs", Arg::No, "S"),
        ("exclude", Arg::Yes, "exclude"),
    ],
    "[OPTION]... [FILE]...",
);

struct Opts {
    all: bool,
    max_depth: Option<usize>,
    /// Apparent sizes in bytes instead of blocks.
    apparent: bool,
    /// Print units of this many bytes (1024 for -k), or `None` for -h.
    unit: Option<u64>,
    human_base: u64,
    end: u8,
    separate: bool,
    exclude: Vec<regex::Regex>,
}

struct Walk<'a> {
    o: &'a Opts,
    seen: HashSet<String>,
    status: i32,
}

fn show(o: &Opts, bytes: u64) -> String {
    match o.unit {
        Some(u) => bytes.div_ceil(u).to_string(),
        None => human_size(bytes, o.human_base),
    }
}

async fn line(ctx: &CommandContext<'_>, o: &Opts, bytes: u64, name: &str) -> Result<(), IoError> {
    let mut l = format!("{}\t{name}", show(o, bytes)).into_bytes();
    l.push(o.end);
    ctx.out(&l).await
}

/// Size in bytes of `full` (printed as `shown`) and everything below it.
fn walk<'a>(
    ctx: &'a CommandContext<'_>,
    w: &'a mut Walk<'_>,
    full: String,
    shown: String,
    depth: usize,
) -> BoxFuture<'a, Result<u64, IoError>> {
    Box::pin(async move {
        let m = match ctx.fs.symlink_metadata(&full).await {
            Ok(m) => m,
            Err(e) => {
                ctx.err(format!("cannot access {}: {e}", quote(&shown))).await?;
                w.status = 1;
                return Ok(0);
            }
        };
        if !w.seen.insert(full.clone()) {
            return Ok(0);
        }
        let name = shown.rsplit('/').next().unwrap_or(&shown);
        if depth > 0 && w.o.exclude.iter().any(|r| r.is_match(name)) {
            return Ok(0);
        }
        let own = if w.o.apparent { m.size } else { blocks_k(&m) * 1024 };
        let printable = w.o.max_depth.is_none_or(|d| depth <= d);
        if !m.is_dir() {
            if (w.o.all && printable) || depth == 0 {
                line(ctx, w.o, own, &shown).await?;
            }
            return Ok(own);
        }
        let mut total = own;
        let mut sub_total = own;
        match ctx.fs.read_dir(&full).await {
            Ok(entries) => {
                for e in entries {
                    if !ctx.still_running() {
                        break;
                    }
                    let child =
                        if shown.ends_with('/') { format!("{shown}{}", e.name) } else { format!("{shown}/{}", e.name) };
                    let n = walk(ctx, w, path::join(&full, &e.name), child, depth + 1).await?;
                    total += n;
                    if e.file_type != crate::fs::FileType::Dir {
                        sub_total += n;
                    }
                }
            }
            Err(e) => {
                ctx.err(format!("cannot read directory {}: {e}", quote(&shown))).await?;
                w.status = 1;
            }
        }
        if printable {
            line(ctx, w.o, if w.o.separate { sub_total } else { total }, &shown).await?;
        }
        Ok(total)
    })
}

#[async_trait]
impl Utility for Du {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut o = Opts {
            all: false,
            max_depth: None,
            apparent: false,
            unit: Some(1024),
            human_base: 1024,
            end: b'\n',
            separate: false,
            exclude: vec![],
        };
        let mut summarize = false;
        for opt in &p.opts {
            let v = opt.val.as_deref().unwrap_or("");
            match opt.id {
                "a" => o.all = true,
                "s" => summarize = true,
                "h" => o.unit = None,
                "si" => (o.unit, o.human_base) = (None, 1000),
                "k" => o.unit = Some(1024),
                "m" => o.unit = Some(1 << 20),
                "b" => (o.apparent, o.unit) = (true, Some(1)),
                "A" => o.apparent = true,
                "B" => match super::util::parse_size(v).filter(|&n| n > 0) {
                    Some(n) => o.unit = Some(n),
                    None => {
                        return Err(UError::new(1, format!("invalid --block-size argument {}", quote(v))));
                    }
                },
                "d" => match v.parse::<usize>() {
                    Ok(n) => o.max_depth = Some(n),
                    Err(_) => {
                        return Err(UError::new(1, format!("invalid maximum depth {}", quote_locale(v))));
                    }
                },
                "0" => o.end = 0,
                "S" => o.separate = true,
                "exclude" => {
                    if let Some(r) = crate::pattern::Pattern::from_glob_text(v).compile(false, false) {
                        o.exclude.push(r);
                    }
                }
                _ => {}
            }
        }
        if summarize {
            if o.all {
                return Err(UError::usage(1, "cannot both summarize and show all entries"));
            }
            if o.max_depth.is_some_and(|d| d > 0) {
                ctx.err(format!("warning: summarizing conflicts with --max-depth={}", o.max_depth.unwrap_or(0)))
                    .await?;
                return Err(UError::usage(1, ""));
            }
            o.max_depth = Some(0);
        }
        let files = if p.operands.is_empty() { vec![".".to_string()] } else { p.operands.clone() };
        let mut w = Walk { o: &o, seen: HashSet::new(), status: 0 };
        let mut grand = 0;
        for f in &files {
            grand += walk(ctx, &mut w, ctx.resolve(f), f.clone(), 0).await?;
        }
        if p.has("c") {
            line(ctx, &o, grand, "total").await?;
        }
        Ok(w.status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const FILES: &[(&str, &str)] = &[("d/f", "hello\n"), ("d/e/big", "")];

    fn big() -> Vec<(&'static str, String)> {
        vec![("d/f", "hello\n".into()), ("d/e/big", "x".repeat(5000))]
    }

    fn du(args: &[&str], out: &str) {
        let files = big();
        let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (*a, b.as_str())).collect();
        let mut argv = vec!["du"];
        argv.extend_from_slice(args);
        check(&argv, &files, "", out, "", 0);
    }

    #[test]
    fn sizes() {
        // GNU du on ext4 (4 KiB blocks) over the same tree.
        du(&["d"], "12\td/e\n20\td\n");
        du(&["-s", "d"], "20\td\n");
        du(&["-a", "d"], "8\td/e/big\n12\td/e\n4\td/f\n20\td\n");
        du(&["-sh", "d"], "20K\td\n");
        du(&["-c", "d", "d/f"], "12\td/e\n20\td\n20\ttotal\n");
        du(&["-d", "0", "d"], "20\td\n");
        du(&["--max-depth=1", "d"], "12\td/e\n20\td\n");
        du(&["-b", "d"], "9096\td/e\n13198\td\n");
        du(&["-k", "d/f"], "4\td/f\n");
        du(&["-ab", "d/f"], "6\td/f\n");
    }

    #[test]
    fn errors() {
        check(&["du", "nope"], FILES, "", "", "du: cannot access 'nope': No such file or directory\n", 1);
        check(
            &["du", "-x", "-q"],
            FILES,
            "",
            "",
            "du: invalid option -- 'q'\nTry 'du --help' for more information.\n",
            1,
        );
    }
}
