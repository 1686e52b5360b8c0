//! `split`: cut a file into pieces by lines (`-l`), bytes (`-b`) or a number
//! of chunks (`-n N`, `-n l/N`), named PREFIX + suffix (`aa`, `ab`, ... or
//! `00`, `01`, ... with `-d`; length `-a`) + `--additional-suffix`.

use super::util::{parse_size, quote, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::commands::run_util::{self, Exec, Ran};
use crate::io::{Input, IoError};
use async_trait::async_trait;
use std::borrow::Cow;

pub struct Split;

const SPEC: Spec = Spec::new(
    "l:b:C:n:da:xe",
    &[
        ("lines", Arg::Yes, "l"),
        ("bytes", Arg::Yes, "b"),
        ("line-bytes", Arg::Yes, "C"),
        ("number", Arg::Yes, "n"),
        ("numeric-suffixes", Arg::Optional, "d"),
        ("hex-suffixes", Arg::Optional, "x"),
        ("suffix-length", Arg::Yes, "a"),
        ("additional-suffix", Arg::Yes, "add"),
        ("elide-empty-files", Arg::No, "e"),
        ("verbose", Arg::No, "verbose"),
        ("filter", Arg::Yes, "filter"),
    ],
    "[OPTION]... [FILE [PREFIX]]",
);

/// How to cut.
enum By {
    Lines(u64),
    Bytes(u64),
    Chunks(u64),
    LineChunks(u64),
    /// `-n r/N`: line `i` to piece `i % N`.
    RoundRobin(u64),
    /// `-C N`: at most N bytes of whole lines (a longer line in N-byte parts).
    LineBytes(u64),
}

/// The `n`th suffix of `len` characters, or `None` when they are used up.
fn suffix(mut n: u64, len: usize, digits: Option<u32>) -> Option<String> {
    let (base, alpha): (u64, &[u8]) = match digits {
        Some(16) => (16, b"0123456789abcdef"),
        Some(_) => (10, b"0123456789"),
        None => (26, b"abcdefghijklmnopqrstuvwxyz"),
    };
    let mut out = vec![b'a'; len];
    for slot in out.iter_mut().rev() {
        *slot = alpha[(n % base) as usize];
        n /= base;
    }
    (n == 0).then(|| String::from_utf8_lossy(&out).into_owned())
}

/// Whether a piece holding `filled` lines (or bytes) is complete.
fn piece_full(by: &By, filled: u64) -> bool {
    match *by {
        By::Lines(n) | By::Bytes(n) => filled >= n,
        _ => false,
    }
}

/// How many bytes of `c` go into a piece holding `filled` lines (or bytes).
fn piece_take(by: &By, filled: u64, c: &[u8]) -> usize {
    match *by {
        By::Lines(n) => {
            let want = usize::try_from(n.saturating_sub(filled)).unwrap_or(usize::MAX);
            memchr::memchr_iter(b'\n', c).nth(want.saturating_sub(1)).map_or(c.len(), |i| i + 1)
        }
        By::Bytes(n) => usize::try_from(n.saturating_sub(filled)).unwrap_or(usize::MAX).min(c.len()),
        _ => c.len(),
    }
}

/// Split `data` into the pieces `by` asks for (`-n`), one at a time: `-n
/// 9223372036854775807` asks for that many files, and they are made (as GNU
/// makes them) until a limit or the deadline stops it, never listed first.
fn pieces<'a>(data: &'a [u8], by: &By) -> Box<dyn Iterator<Item = Cow<'a, [u8]>> + Send + 'a> {
    match *by {
        By::Lines(n) => {
            let mut start = 0usize;
            Box::new(std::iter::from_fn(move || {
                if start >= data.len() {
                    return None;
                }
                let want = usize::try_from(n).unwrap_or(usize::MAX);
                let end = memchr::memchr_iter(b'\n', &data[start..]).nth(want.saturating_sub(1)).map_or(data.len(), |i| start + i + 1);
                let piece = &data[start..end];
                start = end;
                Some(Cow::Borrowed(piece))
            }))
        }
        By::Bytes(n) => Box::new(data.chunks(usize::try_from(n).unwrap_or(usize::MAX)).map(Cow::Borrowed)),
        By::LineBytes(n) => {
            let max = usize::try_from(n).unwrap_or(usize::MAX);
            let mut start = 0usize;
            Box::new(std::iter::from_fn(move || {
                if start >= data.len() {
                    return None;
                }
                let limit = start.saturating_add(max).min(data.len());
                let end = if limit == data.len() {
                    limit
                } else {
                    memchr::memrchr(b'\n', &data[start..limit]).map_or(limit, |i| start + i + 1)
                };
                let piece = &data[start..end];
                start = end;
                Some(Cow::Borrowed(piece))
            }))
        }
        By::Chunks(k) => {
            // GNU: at least a byte each while there are bytes, the rest in the last.
            let size = (data.len() as u64 / k).max(1);
            let len = data.len();
            Box::new((0..k).map(move |i| {
                let a = i.saturating_mul(size).min(len as u64) as usize;
                let b = if i == k - 1 { len } else { (i + 1).saturating_mul(size).min(len as u64) as usize };
                Cow::Borrowed(&data[a..b])
            }))
        }
        // Each piece gathered whole: fine for the pieces a script asks
        // for, as the input is already held whole.
        By::RoundRobin(k) => {
            let lines: Vec<&[u8]> = crate::commands::util::lines(data).collect();
            Box::new((0..k).map(move |i| {
                let mut piece = Vec::new();
                for l in lines.iter().skip(i as usize).step_by(k as usize) {
                    piece.extend_from_slice(l);
                }
                Cow::Owned(piece)
            }))
        }
        By::LineChunks(k) => {
            let size = data.len() as u64 / k;
            let mut start = 0usize;
            Box::new((0..k).map(move |i| {
                let target = ((i + 1).saturating_mul(size) as usize).min(data.len());
                let end = if i == k - 1 {
                    data.len()
                } else if target <= start {
                    start
                } else {
                    data[target - 1..].iter().position(|&b| b == b'\n').map_or(data.len(), |p| target + p)
                };
                let piece = &data[start..end];
                start = end;
                Cow::Borrowed(piece)
            }))
        }
    }
}

#[async_trait]
impl Utility for Split {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut by = By::Lines(1000);
        let (mut len, mut digits, mut elide) = (2usize, None, false);
        // `-n K/N`: only the Kth piece, to stdout.
        let mut chunk: Option<u64> = None;
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            // A plain number past 64 bits is refused, not taken as the most.
            let too_large = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && v.parse::<u64>().is_err();
            let num = parse_size(v).filter(|&n| n > 0 && !too_large);
            match o.id {
                "l" => match num {
                    Some(n) => by = By::Lines(n),
                    None => return Err(bad("number of lines", v)),
                },
                "b" => match num {
                    Some(n) => by = By::Bytes(n),
                    None => return Err(bad("number of bytes", v)),
                },
                "C" => match num {
                    Some(n) => by = By::LineBytes(n),
                    None => return Err(bad("number of bytes", v)),
                },
                // N, K/N, l/N, l/K/N, r/N, r/K/N: K sends the Kth piece to stdout.
                "n" => {
                    let (kind, rest) = match v.split_once('/') {
                        Some(("l", r)) => ('l', r),
                        Some(("r", r)) => ('r', r),
                        _ => ('b', v),
                    };
                    let (k, n) = match rest.split_once('/') {
                        Some((k, n)) => (Some(k), n),
                        None => (None, rest),
                    };
                    let Some(n) = n.parse::<u64>().ok().filter(|&n| n > 0) else {
                        return Err(bad("number of chunks", n));
                    };
                    chunk = match k {
                        Some(k) => match k.parse::<u64>() {
                            Ok(i) if (1..=n).contains(&i) => Some(i),
                            Ok(_) => {
                                return Err(UError::new(
                                    1,
                                    format!("invalid chunk number: {}: Numerical result out of range", quote_locale(k)),
                                ))
                            }
                            Err(_) => return Err(bad("chunk number", k)),
                        },
                        None => None,
                    };
                    by = match kind {
                        'l' => By::LineChunks(n),
                        'r' => By::RoundRobin(n),
                        _ => By::Chunks(n),
                    };
                }
                "d" => digits = Some(10),
                "x" => digits = Some(16),
                "a" => match v.parse::<usize>() {
                    Ok(n) if n > 0 => len = n.min(64),
                    _ => return Err(bad("suffix length", v)),
                },
                "e" => elide = true,
                _ => {}
            }
        }
        if p.operands.len() > 2 {
            return Err(UError::usage(1, format!("extra operand {}", quote_locale(&p.operands[2]))));
        }
        let input = p.operands.first().map_or("-", String::as_str);
        let prefix = p.operands.get(1).map_or("x", String::as_str);
        let extra = p.last("add").unwrap_or("");
        let verbose = p.has("verbose");
        let filter = p.last("filter");
        if filter.is_some() && chunk.is_some() {
            return Err(UError::usage(1, "--filter does not process a chunk extracted to stdout"));
        }
        let name_of = |n: u64| suffix(n, len, digits).map(|suf| format!("{prefix}{suf}{extra}"));
        // `-l` and `-b` stream: each piece is written as its bytes arrive.
        if matches!(by, By::Lines(_) | By::Bytes(_)) && filter.is_none() {
            let input = match ctx.open_input(input).await {
                Ok(i) => i,
                Err(e) => {
                    return Err(UError::new(1, format!("cannot open {} for reading: {e}", quote(input))));
                }
            };
            // The piece being written: its name and how full it is.
            let mut cur: Option<(String, u64)> = None;
            let mut n = 0;
            while let Some(chunk) = input.read_chunk().await {
                let mut c = &chunk[..];
                while !c.is_empty() {
                    let (path, filled) = match cur.take() {
                        Some(open) if !piece_full(&by, open.1) => (Some(open.0), open.1),
                        _ => (None, 0),
                    };
                    let take = piece_take(&by, filled, c);
                    let (seg, rest) = c.split_at(take);
                    c = rest;
                    let written = match path {
                        Some(name) => match ctx.fs.append(&ctx.resolve(&name), seg).await {
                            Ok(()) => Ok(name),
                            Err(e) => Err((e, name)),
                        },
                        None => {
                            let Some(name) = name_of(n) else {
                                return Err(UError::new(1, "output file suffixes exhausted"));
                            };
                            n += 1;
                            if verbose {
                                ctx.out(format!("creating file {}\n", quote(&name)).as_bytes()).await?;
                            }
                            match ctx.fs.write(&ctx.resolve(&name), seg).await {
                                Ok(()) => Ok(name),
                                Err(e) => Err((e, name)),
                            }
                        }
                    };
                    match written {
                        Ok(name) => {
                            let added = if let By::Lines(_) = by {
                                memchr::memchr_iter(b'\n', seg).count() as u64
                            } else {
                                seg.len() as u64
                            };
                            cur = Some((name, filled + added));
                        }
                        Err((e, name)) => {
                            return Err(UError::new(1, format!("{}: {e}", quote(&name))));
                        }
                    }
                }
                if !ctx.still_running() {
                    return Ok(1);
                }
            }
            return Ok(0);
        }
        // `-n`: the pieces' sizes come from the whole input's.
        let data = match ctx.read_operand(input).await {
            Ok(d) => d,
            Err(e) => {
                return Err(UError::new(1, format!("cannot open {} for reading: {e}", quote(input))));
            }
        };
        let mut n = 0;
        for (i, piece) in pieces(&data, &by).enumerate() {
            if !ctx.still_running() {
                return Ok(1);
            }
            if let Some(k) = chunk {
                if i as u64 + 1 == k {
                    ctx.out(&piece).await?;
                    break;
                }
                continue;
            }
            if elide && piece.is_empty() {
                continue;
            }
            let Some(name) = name_of(n) else {
                return Err(UError::new(1, "output file suffixes exhausted"));
            };
            n += 1;
            if let Some(cmd) = filter {
                if let Some(status) = run_filter(ctx, cmd, &name, &piece).await? {
                    return Ok(status);
                }
                continue;
            }
            if verbose {
                ctx.out(format!("creating file {}\n", quote(&name)).as_bytes()).await?;
            }
            if let Err(e) = ctx.fs.write(&ctx.resolve(&name), &piece).await {
                return Err(UError::new(1, format!("{}: {e}", quote(&name))));
            }
        }
        Ok(0)
    }
}

/// `--filter=COMMAND`: the piece on the stdin of `$SHELL -c COMMAND` with
/// `FILE` set to the piece's name. `Some(status)` stops split (a command
/// that failed, or no shell), as GNU stops at the first.
async fn run_filter(ctx: &CommandContext<'_>, cmd: &str, name: &str, piece: &[u8]) -> Result<Option<i32>, IoError> {
    let shell = ctx.env.get("SHELL").filter(|s| !s.is_empty()).unwrap_or_else(|| "/bin/sh".into());
    let argv = [shell.clone(), "-c".to_string(), cmd.to_string()];
    let env = super::env::Overlay { base: ctx.env, clear: false, unset: Vec::new(), set: vec![("FILE".into(), name.into())] };
    let mut e = Exec::from_ctx(ctx, &argv);
    e.env = &env;
    e.stdin = Input::from_bytes(piece.to_vec());
    match run_util::run(ctx, e).await? {
        Ran::Status(0) => Ok(None),
        Ran::Status(s) => {
            ctx.err(format!("with FILE={name}, exit {s} from command: {cmd}")).await?;
            Ok(Some(s))
        }
        Ran::NotFound => {
            ctx.err(format!("failed to run command: \"{shell} -c {cmd}\": No such file or directory")).await?;
            Ok(Some(1))
        }
    }
}

fn bad(what: &str, v: &str) -> UError {
    // GNU names the errno only for a zero and for a number too large.
    let why = match v.parse::<u64>() {
        Ok(0) => ": Numerical result out of range",
        Err(_) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => ": Value too large for defined data type",
        _ => "",
    };
    UError::new(1, format!("invalid {what}: {}{why}", quote_locale(v)))
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    const IN: &[(&str, &str)] = &[("in", "1\n2\n3\n4\n5\n")];

    #[test]
    fn splits() {
        check_tree(
            &["split", "-l", "2", "in"],
            IN,
            "",
            "",
            "",
            0,
            "in\t1\\n2\\n3\\n4\\n5\\n\nxaa\t1\\n2\\n\nxab\t3\\n4\\n\nxac\t5\\n\n",
        );
        check_tree(
            &["split", "-b", "4", "-d", "in", "p"],
            IN,
            "",
            "",
            "",
            0,
            "in\t1\\n2\\n3\\n4\\n5\\n\np00\t1\\n2\\n\np01\t3\\n4\\n\np02\t5\\n\n",
        );
        check_tree(
            &["split", "-n", "2", "in"],
            IN,
            "",
            "",
            "",
            0,
            "in\t1\\n2\\n3\\n4\\n5\\n\nxaa\t1\\n2\\n3\nxab\t\\n4\\n5\\n\n",
        );
        check_tree(
            &["split", "-n", "l/2", "in", "L"],
            IN,
            "",
            "",
            "",
            0,
            "Laa\t1\\n2\\n3\\n\nLab\t4\\n5\\n\nin\t1\\n2\\n3\\n4\\n5\\n\n",
        );
        check_tree(
            &["split", "-l", "2", "-a", "3", "--additional-suffix=.txt", "in", "s_"],
            IN,
            "",
            "",
            "",
            0,
            "in\t1\\n2\\n3\\n4\\n5\\n\ns_aaa.txt\t1\\n2\\n\ns_aab.txt\t3\\n4\\n\ns_aac.txt\t5\\n\n",
        );
        check_tree(&["split"], &[], "x\n", "", "", 0, "xaa\tx\\n\n");
    }

    #[test]
    fn errors() {
        check(
            &["split", "-l", "2", "nope"],
            &[],
            "",
            "",
            "split: cannot open 'nope' for reading: No such file or directory\n",
            1,
        );
        check(
            &["split", "-l", "0", "in"],
            IN,
            "",
            "",
            "split: invalid number of lines: '0': Numerical result out of range\n",
            1,
        );
        check(
            &["split", "-a", "1", "-l", "1", "-"],
            &[],
            &"x\n".repeat(27),
            "",
            "split: output file suffixes exhausted\n",
            1,
        );
    }
}
