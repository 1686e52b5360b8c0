//! `dd` (GNU coreutils 9.1): `if= of= bs= ibs= obs= count= skip= seek=`,
//! `conv=notrunc,ucase,lcase,sync,...`, `iflag=`/`oflag=` (`fullblock`,
//! `count_bytes`, `skip_bytes`, `seek_bytes`, `append`), `status=`, with the
//! record counts and transfer line on stderr. Input is read a block at a time
//! (as with `iflag=fullblock`: sandbox pipes hand over what was written, so
//! counts do not depend on timing); blocks are capped by the string limit, the
//! output file by the filesystem's limits, and the copy stops with the deadline.

use super::util::{coreutils_version, quote, quote_locale, quotef};
use super::{CommandContext, CommandResult};
use crate::commands::util::{UError, UResult, Utility};
use crate::io::{Input, IoError};
use async_trait::async_trait;
use std::time::Instant;

pub struct Dd;

const TRY: &str = "Try 'dd --help' for more information.";

#[derive(Default)]
struct Opts {
    input: Option<String>,
    output: Option<String>,
    ibs: u64,
    obs: u64,
    /// `bs=` given: blocks are copied as read, not re-blocked.
    bs: bool,
    count: Option<u64>,
    skip: u64,
    seek: u64,
    notrunc: bool,
    ucase: bool,
    lcase: bool,
    sync: bool,
    swab: bool,
    excl: bool,
    nocreat: bool,
    count_bytes: bool,
    skip_bytes: bool,
    seek_bytes: bool,
    append: bool,
    /// 0 default, 1 noxfer, 2 none.
    quiet: u8,
}

/// A dd number: digits, an optional multiplier suffix (`c w b kB K MB M xM ...`),
/// and `x`-separated products (`2x512`). `Err(true)`: too large.
fn number(s: &str) -> Result<u64, bool> {
    let mut total: u64 = 1;
    for part in s.split('x') {
        let digits = part.find(|c: char| !c.is_ascii_digit()).unwrap_or(part.len());
        if digits == 0 {
            return Err(false);
        }
        let n: u64 = part[..digits].parse().map_err(|_| true)?;
        let suffix = &part[digits..];
        let mult: u64 = match suffix {
            "" | "c" => 1,
            "w" => 2,
            "b" => 512,
            _ => {
                let mut ch = suffix.chars();
                let pow = match ch.next() {
                    Some('k' | 'K') => 1,
                    Some('M') => 2,
                    Some('G') => 3,
                    Some('T') => 4,
                    Some('P') => 5,
                    Some('E') => 6,
                    _ => return Err(false),
                };
                let base: u64 = match ch.as_str() {
                    "" | "iB" => 1024,
                    "B" => 1000,
                    _ => return Err(false),
                };
                if suffix.starts_with('k') && ch.as_str().is_empty() {
                    return Err(false);
                }
                base.checked_pow(pow).ok_or(true)?
            }
        };
        total = total.checked_mul(n.checked_mul(mult).ok_or(true)?).ok_or(true)?;
    }
    Ok(total)
}

/// `2.1 MB` / `24 MiB`: one decimal below 10, rounded to nearest; `None` when
/// the value needs no prefix (below the base).
fn human(n: u64, base: f64, units: &[&str]) -> Option<String> {
    let mut v = n as f64;
    if v < base {
        return None;
    }
    let mut i = 0;
    while v >= base && i + 1 < units.len() {
        v /= base;
        i += 1;
    }
    let u = units.get(i).copied().unwrap_or("");
    Some(if v < 9.95 { format!("{v:.1} {u}") } else { format!("{:.0} {u}", v.round()) })
}

const SI: &[&str] = &["B", "kB", "MB", "GB", "TB", "PB", "EB"];
const IEC: &[&str] = &["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// The third stderr line: bytes, their size in SI and IEC units, time and rate.
fn transfer_line(bytes: u64, secs: f64) -> String {
    let sizes = match (human(bytes, 1000.0, SI), human(bytes, 1024.0, IEC)) {
        (None, _) => String::new(),
        (Some(si), None) => format!(" ({si})"),
        (Some(si), Some(iec)) => format!(" ({si}, {iec})"),
    };
    let noun = if bytes == 1 { "byte" } else { "bytes" };
    let rate = if secs > 0.0 { bytes as f64 / secs } else { 0.0 };
    let mut r = rate / 1000.0;
    let mut i = 1;
    while r >= 1000.0 && i + 1 < SI.len() {
        r /= 1000.0;
        i += 1;
    }
    let rate = if r < 100.0 { format!("{r:.1}") } else { format!("{r:.0}") };
    format!("{bytes} {noun}{sizes} copied, {} s, {rate} {}/s\n", fmt_g(secs), SI.get(i).copied().unwrap_or("B"))
}

/// C's `%g`: six significant digits, exponent form for small values.
fn fmt_g(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let exp = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&exp) {
        let s = format!("{:.5e}", x);
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
        let e: i32 = e.parse().unwrap_or(0);
        return format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    }
    let decimals = (5 - exp).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

enum Parsed {
    Run(Opts),
    Exit(String, i32, bool),
}

fn parse_operands(args: &[String]) -> Parsed {
    let mut o = Opts { ibs: 512, obs: 512, ..Opts::default() };
    let bad_num = |v: &str, big: bool| {
        let m = format!("invalid number: {}", quote_locale(v));
        Parsed::Exit(if big { format!("{m}: Value too large for defined data type") } else { m }, 1, false)
    };
    for a in args {
        let Some((key, val)) = a.split_once('=') else {
            return Parsed::Exit(format!("unrecognized operand {}", quote_locale(a)), 1, true);
        };
        let num = |positive: bool| match number(val) {
            Ok(0) if positive => Err(bad_num(val, false)),
            Ok(n) => Ok(n),
            Err(big) => Err(bad_num(val, big)),
        };
        match key {
            "if" => o.input = Some(val.to_string()),
            "of" => o.output = Some(val.to_string()),
            "bs" | "ibs" | "obs" | "cbs" => {
                let n = match num(true) {
                    Ok(n) => n,
                    Err(e) => return e,
                };
                match key {
                    "bs" => (o.ibs, o.obs, o.bs) = (n, n, true),
                    "ibs" => o.ibs = n,
                    "obs" => o.obs = n,
                    _ => {}
                }
            }
            "count" | "skip" | "seek" | "iseek" | "oseek" => {
                let n = match num(false) {
                    Ok(n) => n,
                    Err(e) => return e,
                };
                match key {
                    "count" => o.count = Some(n),
                    "skip" | "iseek" => o.skip = n,
                    _ => o.seek = n,
                }
            }
            "conv" | "iflag" | "oflag" => {
                for f in val.split(',') {
                    let flag: Option<&mut bool> = match (key, f) {
                        ("conv", "notrunc") => Some(&mut o.notrunc),
                        ("conv", "ucase") => Some(&mut o.ucase),
                        ("conv", "lcase") => Some(&mut o.lcase),
                        ("conv", "sync") => Some(&mut o.sync),
                        ("conv", "swab") => Some(&mut o.swab),
                        ("conv", "excl") => Some(&mut o.excl),
                        ("conv", "nocreat") => Some(&mut o.nocreat),
                        ("iflag", "count_bytes") => Some(&mut o.count_bytes),
                        ("iflag", "skip_bytes") => Some(&mut o.skip_bytes),
                        ("oflag", "seek_bytes") => Some(&mut o.seek_bytes),
                        ("oflag", "append") => Some(&mut o.append),
                        // Accepted, with nothing to do in the sandbox.
                        ("conv", "noerror" | "fsync" | "fdatasync" | "sparse") => None,
                        ("iflag" | "oflag", "fullblock" | "direct" | "dsync" | "sync" | "nonblock" | "noatime")
                        | ("iflag" | "oflag", "nocache" | "noctty" | "nofollow" | "binary" | "text") => None,
                        _ => {
                            let what = match key {
                                "conv" => "conversion",
                                "iflag" => "input flag",
                                _ => "output flag",
                            };
                            return Parsed::Exit(format!("invalid {what}: {}", quote_locale(f)), 1, true);
                        }
                    };
                    if let Some(b) = flag {
                        *b = true;
                    }
                }
            }
            "status" => match val {
                "none" => o.quiet = 2,
                "noxfer" => o.quiet = 1,
                "progress" => o.quiet = 0,
                _ => return Parsed::Exit(format!("invalid status level: {}", quote_locale(val)), 1, true),
            },
            _ => return Parsed::Exit(format!("unrecognized operand {}", quote_locale(a)), 1, true),
        }
    }
    if o.ucase && o.lcase {
        return Parsed::Exit("cannot combine lcase and ucase".into(), 1, true);
    }
    Parsed::Run(o)
}

/// Where output goes.
enum Sink {
    Stdout,
    Stderr,
    Null,
    /// A file: its sandbox path and its contents being built.
    File(String, Vec<u8>, usize),
}

#[async_trait]
impl Utility for Dd {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        match ctx.args.first().map(String::as_str) {
            Some("--help") => {
                ctx.out_help(b"Usage: dd [OPERAND]...\n  or:  dd OPTION\nCopy a file, converting and formatting according to the operands.\n").await?;
                return Ok(0);
            }
            Some("--version") => {
                ctx.out(coreutils_version("dd").as_bytes()).await?;
                return Ok(0);
            }
            Some("--") => {}
            Some(a) if a.starts_with('-') && a.len() > 1 => {
                let m = if a.starts_with("--") {
                    format!("unrecognized option '{a}'")
                } else {
                    format!("invalid option -- '{}'", a.chars().nth(1).unwrap_or('-'))
                };
                return Err(UError::usage(1, m));
            }
            _ => {}
        }
        let args: Vec<String> = ctx.args.iter().filter(|a| *a != "--").cloned().collect();
        let o = match parse_operands(&args) {
            Parsed::Run(o) => o,
            Parsed::Exit(m, st, usage) => {
                if usage {
                    ctx.err(m).await?;
                    ctx.stderr.write(format!("{TRY}\n").as_bytes()).await?;
                } else {
                    ctx.err(m).await?;
                }
                return Ok(st);
            }
        };
        let cap = ctx.budget.limits.max_string_bytes.max(1 << 20);
        for bs in [o.ibs, o.obs] {
            if bs > cap {
                ctx.err(format!(
                    "memory exhausted by input buffer of size {bs} bytes ({})",
                    human(bs, 1024.0, IEC).unwrap_or_default()
                ))
                .await?;
                return Ok(1);
            }
        }
        Ok(copy(ctx, &o).await?)
    }
}

async fn copy(ctx: &CommandContext<'_>, o: &Opts) -> UResult<i32> {
    let started = Instant::now();
    let input: Input = match &o.input {
        None => ctx.stdin.clone(),
        Some(f) => {
            let full = ctx.resolve(f);
            if ctx.fs.metadata(&full).await.is_ok_and(|m| m.is_dir()) {
                ctx.err(format!("error reading {}: Is a directory", quote(f))).await?;
                summary(ctx, o, (0, 0, 0, 0), 0, started).await?;
                return Ok(1);
            }
            match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) => {
                    return Err(UError::new(1, format!("failed to open {}: {e}", quote(f))));
                }
            }
        }
    };
    let mut sink = match o.output.as_deref() {
        None | Some("/dev/stdout") => Sink::Stdout,
        Some("/dev/stderr") => Sink::Stderr,
        Some("/dev/null") => Sink::Null,
        Some(f) => {
            let full = ctx.resolve(f);
            let existing = match ctx.fs.metadata(&full).await {
                Ok(m) if m.is_dir() => {
                    return Err(UError::new(1, format!("failed to open {}: Is a directory", quote(f))));
                }
                Ok(_) if o.excl => {
                    return Err(UError::new(1, format!("failed to open {}: File exists", quote(f))));
                }
                Ok(_) => Some(ctx.fs.read(&full).await.unwrap_or_default()),
                Err(_) if o.nocreat => {
                    return Err(UError::new(1, format!("failed to open {}: No such file or directory", quote(f))));
                }
                Err(_) => None,
            };
            let mut data = existing.unwrap_or_default();
            let seek = if o.seek_bytes { o.seek } else { o.seek.saturating_mul(o.obs) };
            let start = if o.append { data.len() as u64 } else { seek };
            if start > ctx.budget.limits.max_string_bytes.saturating_mul(16) {
                return Err(UError::new(1, format!("{}: cannot seek: File too large", quotef(f))));
            }
            let start = start as usize;
            if !o.notrunc && !o.append {
                data.truncate(start);
            }
            if data.len() < start {
                data.resize(start, 0);
            }
            // Create (or truncate) the file now, as dd's open does.
            if let Err(e) = ctx.fs.write(&full, &data).await {
                return Err(UError::new(1, format!("failed to open {}: {e}", quote(f))));
            }
            Sink::File(full, data, start)
        }
    };
    // Skip input: whole blocks (or bytes), read and dropped.
    let skip = if o.skip_bytes { o.skip } else { o.skip.saturating_mul(o.ibs) };
    let mut skipped = 0u64;
    while skipped < skip {
        if !ctx.still_running() {
            return Ok(1);
        }
        let want = (skip - skipped).min(1 << 16) as usize;
        let got = input.read_exact_upto(want).await.len() as u64;
        skipped += got;
        if got < want as u64 {
            break;
        }
    }
    if skipped < skip {
        let name = o.input.as_deref().unwrap_or("standard input");
        ctx.err(format!("{}: cannot skip to specified offset", quotef(name))).await?;
    }
    // (full in, partial in, full out, partial out)
    let mut rec = (0u64, 0u64, 0u64, 0u64);
    let mut bytes_out = 0u64;
    let mut pending: Vec<u8> = Vec::new();
    let mut bytes_in = 0u64;
    let mut status = 0;
    loop {
        if !ctx.still_running() {
            status = 1;
            break;
        }
        let mut want = o.ibs;
        if let Some(c) = o.count {
            if o.count_bytes {
                if bytes_in >= c {
                    break;
                }
                want = want.min(c - bytes_in);
            } else if rec.0 + rec.1 >= c {
                break;
            }
        }
        let mut block = input.read_exact_upto(want as usize).await;
        if block.is_empty() {
            break;
        }
        bytes_in += block.len() as u64;
        if block.len() as u64 == o.ibs {
            rec.0 += 1;
        } else {
            rec.1 += 1;
            if o.sync {
                block.resize(o.ibs as usize, 0);
            }
        }
        convert(o, &mut block);
        if o.bs {
            // bs=: each block goes out as read.
            if block.len() as u64 == o.obs {
                rec.2 += 1;
            } else {
                rec.3 += 1;
            }
            bytes_out += block.len() as u64;
            if let Err(e) = emit(ctx, &mut sink, &block).await? {
                report_write(ctx, o, &e).await?;
                status = 1;
                break;
            }
            continue;
        }
        pending.extend_from_slice(&block);
        while pending.len() as u64 >= o.obs {
            let rest = pending.split_off(o.obs as usize);
            let full = std::mem::replace(&mut pending, rest);
            rec.2 += 1;
            bytes_out += full.len() as u64;
            if let Err(e) = emit(ctx, &mut sink, &full).await? {
                report_write(ctx, o, &e).await?;
                return Ok(finish(ctx, o, rec, bytes_out, started, 1).await?);
            }
        }
    }
    if status == 0 && !pending.is_empty() {
        rec.3 += 1;
        bytes_out += pending.len() as u64;
        if let Err(e) = emit(ctx, &mut sink, &pending).await? {
            report_write(ctx, o, &e).await?;
            status = 1;
        }
    }
    if let Sink::File(full, data, _) = &sink {
        if let Err(e) = ctx.fs.write(full, data).await {
            report_write(ctx, o, &e.to_string()).await?;
            status = 1;
        }
    }
    Ok(finish(ctx, o, rec, bytes_out, started, status).await?)
}

async fn finish(
    ctx: &CommandContext<'_>,
    o: &Opts,
    rec: (u64, u64, u64, u64),
    bytes: u64,
    started: Instant,
    status: i32,
) -> CommandResult {
    summary(ctx, o, rec, bytes, started).await?;
    Ok(status)
}

async fn report_write(ctx: &CommandContext<'_>, o: &Opts, e: &str) -> Result<(), IoError> {
    let name = o.output.as_deref().unwrap_or("standard output");
    ctx.err(format!("error writing {}: {e}", quote(name))).await
}

fn convert(o: &Opts, block: &mut [u8]) {
    if o.swab {
        for pair in block.chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
    }
    if o.ucase {
        block.make_ascii_uppercase();
    } else if o.lcase {
        block.make_ascii_lowercase();
    }
}

/// Write one output block; `Ok(Err(msg))` when the file would grow past the limit.
async fn emit(ctx: &CommandContext<'_>, sink: &mut Sink, data: &[u8]) -> Result<Result<(), String>, IoError> {
    match sink {
        Sink::Stdout => ctx.out(data).await?,
        Sink::Stderr => ctx.stderr.write(data).await?,
        Sink::Null => {}
        Sink::File(_, buf, at) => {
            let end = *at + data.len();
            if end as u64 > ctx.budget.limits.max_string_bytes.saturating_mul(16) {
                return Ok(Err("File too large".into()));
            }
            if buf.len() < end {
                // The growing buffer is asked of the budget before it moves.
                let grow = end - buf.len();
                if end > buf.capacity() && !crate::limits::scope::may_grow(end.max(buf.capacity() * 2) as u64) {
                    return Ok(Err("Cannot allocate memory".into()));
                }
                buf.resize(buf.len() + grow, 0);
            }
            if let Some(dst) = buf.get_mut(*at..end) {
                dst.copy_from_slice(data);
            }
            *at = end;
        }
    }
    Ok(Ok(()))
}

async fn summary(
    ctx: &CommandContext<'_>,
    o: &Opts,
    rec: (u64, u64, u64, u64),
    bytes: u64,
    started: Instant,
) -> Result<(), IoError> {
    if o.quiet >= 2 {
        return Ok(());
    }
    let mut s = format!("{}+{} records in\n{}+{} records out\n", rec.0, rec.1, rec.2, rec.3);
    if o.quiet == 0 {
        s.push_str(&transfer_line(bytes, started.elapsed().as_secs_f64()));
    }
    ctx.stderr.write(s.as_bytes()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::util::testutil::{check, check_tree, run};

    #[test]
    fn numbers_and_formats() {
        assert_eq!(number("2x512"), Ok(1024));
        assert_eq!(number("1w"), Ok(2));
        assert_eq!(number("1kB"), Ok(1000));
        assert_eq!(number("1xk"), Err(false));
        assert_eq!(number("1K"), Ok(1024));
        assert_eq!(number("3M"), Ok(3 << 20));
        assert_eq!(number("99999999999999999999999"), Err(true));
        // The size part of dd 9.1's transfer line.
        assert!(transfer_line(0, 0.0).starts_with("0 bytes copied, "));
        assert!(transfer_line(1, 0.1).starts_with("1 byte copied, "));
        assert!(transfer_line(999, 0.1).starts_with("999 bytes copied, "));
        assert!(transfer_line(1000, 0.1).starts_with("1000 bytes (1.0 kB) copied, "));
        assert!(transfer_line(1024, 0.1).starts_with("1024 bytes (1.0 kB, 1.0 KiB) copied, "));
        assert!(transfer_line(2_097_152, 0.1).starts_with("2097152 bytes (2.1 MB, 2.0 MiB) copied, "));
        assert!(transfer_line(25_000_000, 0.1).starts_with("25000000 bytes (25 MB, 24 MiB) copied, "));
        assert_eq!(fmt_g(1.8037e-05), "1.8037e-05");
        assert_eq!(fmt_g(0.00349083), "0.00349083");
    }

    /// The first two stderr lines exactly, the third by shape.
    #[track_caller]
    fn check_stats(argv: &[&str], files: &[(&str, &str)], stdin: &str, out: &str, records: &str, bytes: &str) {
        let o = run(argv, files, stdin);
        assert_eq!(o.out, out, "{argv:?}");
        assert_eq!(o.status, 0);
        let (head, last) = o.err.rsplit_once("records out\n").unwrap();
        assert_eq!(format!("{head}records out\n"), records);
        assert!(last.starts_with(bytes), "{last}");
        assert!(last.ends_with("/s\n") && last.contains(" s, "), "{last}");
    }

    #[test]
    fn copies_and_counts() {
        let seq: String = (1..=1000).map(|i| format!("{i}\n")).collect();
        let f = [("in", seq.as_str())];
        check_stats(
            &["dd", "if=in", "bs=100", "count=3", "of=/dev/null"],
            &f,
            "",
            "",
            "3+0 records in\n3+0 records out\n",
            "300 bytes copied, ",
        );
        check_stats(
            &["dd", "if=in", "bs=1K", "skip=1", "count=1", "of=/dev/null"],
            &f,
            "",
            "",
            "1+0 records in\n1+0 records out\n",
            "1024 bytes (1.0 kB, 1.0 KiB) copied, ",
        );
        check_stats(
            &["dd", "if=in", "ibs=7", "obs=13", "count=5", "of=/dev/null"],
            &f,
            "",
            "",
            "5+0 records in\n2+1 records out\n",
            "35 bytes copied, ",
        );
        check_stats(
            &["dd", "if=/dev/zero", "bs=1M", "count=2", "of=z"],
            &[],
            "",
            "",
            "2+0 records in\n2+0 records out\n",
            "2097152 bytes (2.1 MB, 2.0 MiB) copied, ",
        );
        check_stats(
            &["dd", "conv=ucase"],
            &[],
            "abc\n",
            "ABC\n",
            "0+1 records in\n0+1 records out\n",
            "4 bytes copied, ",
        );
        check(&["dd", "if=in", "status=none", "count=1", "bs=10"], &f, "", "1\n2\n3\n4\n5\n", "", 0);
        check(
            &["dd", "if=in", "status=noxfer", "count=1", "bs=10", "of=/dev/null"],
            &f,
            "",
            "",
            "1+0 records in\n1+0 records out\n",
            0,
        );
        check(&["dd", "conv=lcase", "status=none"], &[], "ABC\n", "abc\n", "", 0);
        check(&["dd", "bs=4", "conv=sync", "status=none"], &[], "ab", "ab\0\0", "", 0);
        check(&["dd", "bs=2", "skip=1", "count=1", "status=none"], &[], "abcdef", "cd", "", 0);
        check(&["dd", "if=in", "iflag=count_bytes", "count=5", "status=none"], &f, "", "1\n2\n3", "", 0);
        check_tree(
            &["dd", "of=x", "seek=1", "bs=1", "conv=notrunc", "status=none"],
            &[("x", "12345")],
            "XY",
            "",
            "",
            0,
            "x\t1XY45\n",
        );
        check_tree(&["dd", "of=x", "seek=1", "bs=1", "status=none"], &[("x", "12345")], "XY", "", "", 0, "x\t1XY\n");
        check_tree(
            &["dd", "of=x", "seek=2", "bs=3", "count=1", "status=none"],
            &[],
            "1\n2\n",
            "",
            "",
            0,
            "x\t\0\0\0\0\0\0\x31\\n2\n",
        );
    }

    #[test]
    fn errors() {
        let t = "Try 'dd --help' for more information.\n";
        check(&["dd", "if=nope"], &[], "", "", "dd: failed to open 'nope': No such file or directory\n", 1);
        check(&["dd", "bs=0"], &[], "", "", "dd: invalid number: '0'\n", 1);
        check(&["dd", "bs=1x"], &[], "", "", "dd: invalid number: '1x'\n", 1);
        check(&["dd", "bs=-1"], &[], "", "", "dd: invalid number: '-1'\n", 1);
        check(
            &["dd", "bs=99999999999999999999999"],
            &[],
            "",
            "",
            "dd: invalid number: '99999999999999999999999': Value too large for defined data type\n",
            1,
        );
        check(&["dd", "foo=1"], &[], "", "", &format!("dd: unrecognized operand 'foo=1'\n{t}"), 1);
        check(&["dd", "conv=bogus"], &[], "", "", &format!("dd: invalid conversion: 'bogus'\n{t}"), 1);
        check(&["dd", "status=bogus"], &[], "", "", &format!("dd: invalid status level: 'bogus'\n{t}"), 1);
        check(
            &["dd", "count=1", "skip=100", "if=in", "status=noxfer"],
            &[("in", "abc")],
            "",
            "",
            "dd: in: cannot skip to specified offset\n0+0 records in\n0+0 records out\n",
            0,
        );
    }

    /// An endless input into a file stops at the limit instead of filling memory.
    #[test]
    fn endless_input_is_bounded() {
        use crate::commands::util::testutil::{make_fs, run_full};
        let fs = make_fs(&[]);
        let limits = crate::limits::Limits { max_string_bytes: 1000, ..Default::default() };
        let o = run_full(&fs, &["dd", "if=/dev/zero", "of=f", "bs=1K", "status=noxfer"], b"", &[], limits);
        assert_eq!(o.status, 1);
        assert!(o.err.starts_with("dd: error writing 'f': File too large\n"), "{}", o.err);
    }
}
