//! `split`: cut a file into pieces by lines (`-l`), bytes (`-b`) or a number
//! of chunks (`-n N`, `-n l/N`), named PREFIX + suffix (`aa`, `ab`, ... or
//! `00`, `01`, ... with `-d`; length `-a`) + `--additional-suffix`.

use super::util::{parse_size, quote, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Split;

const SPEC: Spec = Spec::new(
    "l:b:C:n:da:x",
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
    ],
    "[OPTION]... [FILE [PREFIX]]",
);

/// How to cut.
enum By {
    Lines(u64),
    Bytes(u64),
    Chunks(u64),
    LineChunks(u64),
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
fn pieces<'a>(data: &'a [u8], by: &By) -> Box<dyn Iterator<Item = &'a [u8]> + Send + 'a> {
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
                Some(piece)
            }))
        }
        By::Bytes(n) => Box::new(data.chunks(usize::try_from(n).unwrap_or(usize::MAX))),
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
                Some(piece)
            }))
        }
        By::Chunks(k) => {
            let size = data.len() as u64 / k;
            let len = data.len();
            Box::new((0..k).map(move |i| {
                let a = i.saturating_mul(size).min(len as u64) as usize;
                let b = if i == k - 1 { len } else { (i + 1).saturating_mul(size).min(len as u64) as usize };
                &data[a..b]
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
                piece
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
                "n" => {
                    let (lines, k) = match v.strip_prefix("l/") {
                        Some(k) => (true, k),
                        None => (false, v),
                    };
                    match k.parse::<u64>().ok().filter(|&n| n > 0) {
                        Some(n) if lines => by = By::LineChunks(n),
                        Some(n) => by = By::Chunks(n),
                        None => return Err(bad("number of chunks", v)),
                    }
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
        let name_of = |n: u64| suffix(n, len, digits).map(|suf| format!("{prefix}{suf}{extra}"));
        // `-l` and `-b` stream: each piece is written as its bytes arrive.
        if let By::Lines(_) | By::Bytes(_) = by {
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
        for piece in pieces(&data, &by) {
            if !ctx.still_running() {
                return Ok(1);
            }
            if elide && piece.is_empty() {
                continue;
            }
            let Some(name) = name_of(n) else {
                return Err(UError::new(1, "output file suffixes exhausted"));
            };
            n += 1;
            if verbose {
                ctx.out(format!("creating file {}\n", quote(&name)).as_bytes()).await?;
            }
            if let Err(e) = ctx.fs.write(&ctx.resolve(&name), piece).await {
                return Err(UError::new(1, format!("{}: {e}", quote(&name))));
            }
        }
        Ok(0)
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
