//! `cmp`: compare two files byte by byte (GNU diffutils 3.8).

use super::util::{parse, parse_size, quote, Arg, OptError, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::Input;
use async_trait::async_trait;
use bytes::Bytes;

pub struct Cmp;

const SPEC: Spec = Spec::new(
    "bi:ln:s",
    &[
        ("print-bytes", Arg::No, "b"),
        ("ignore-initial", Arg::Yes, "i"),
        ("verbose", Arg::No, "l"),
        ("bytes", Arg::Yes, "n"),
        ("quiet", Arg::No, "s"),
        ("silent", Arg::No, "s"),
    ],
    "[OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]",
)
.status(2);

/// GNU `sprintc`: `a`, `^J`, `^?`, `M-^@`.
fn show(b: u8) -> String {
    let mut s = String::new();
    let mut c = b;
    if c >= 128 {
        s.push_str("M-");
        c -= 128;
    }
    match c {
        0..=31 => {
            s.push('^');
            s.push((c + 64) as char);
        }
        127 => s.push_str("^?"),
        _ => s.push(c as char),
    }
    s
}

/// One input: the unread part of its current chunk.
struct Side {
    input: Input,
    buf: Bytes,
    eof: bool,
}

impl Side {
    /// Have bytes to compare; false at end of input.
    async fn fill(&mut self) -> bool {
        while self.buf.is_empty() && !self.eof {
            match self.input.read_chunk().await {
                Some(c) => self.buf = c,
                None => self.eof = true,
            }
        }
        !self.buf.is_empty()
    }

    /// Drop the first `n` bytes (`-i`, SKIP operands).
    async fn skip(&mut self, mut n: u64) {
        while n > 0 && self.fill().await {
            let k = usize::try_from(n).unwrap_or(usize::MAX).min(self.buf.len());
            self.buf = self.buf.slice(k..);
            n -= k as u64;
        }
    }
}

/// diffutils' usage error: `cmp: MSG` and `cmp: Try 'cmp --help' ...`, exit 2.
async fn usage(ctx: &CommandContext<'_>, msg: &str) -> UResult<i32> {
    ctx.err(msg).await?;
    Err(UError::new(2, "Try 'cmp --help' for more information."))
}

#[async_trait]
impl Utility for Cmp {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = match parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out_help(b"Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]\nCompare two files byte by byte.\n")
                    .await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(b"cmp (GNU diffutils) 3.8\n").await?;
                return Ok(0);
            }
            Err(e) => return usage(ctx, &e.to_string()).await,
        };
        let (verbose, silent, bytes) = (p.has("l"), p.has("s"), p.has("b"));
        if verbose && silent {
            return usage(ctx, "options -l and -s are incompatible").await;
        }
        let mut skip = [0u64; 2];
        if let Some(v) = p.last("i") {
            let (a, b) = v.split_once(':').unwrap_or((v, v));
            match (parse_size(a), parse_size(b)) {
                (Some(x), Some(y)) => skip = [x, y],
                _ => return usage(ctx, &format!("invalid --ignore-initial value {}", quote(v))).await,
            }
        }
        let limit = match p.last("n") {
            Some(v) => match parse_size(v) {
                Some(n) => n,
                None => return usage(ctx, &format!("invalid --bytes value {}", quote(v))).await,
            },
            None => u64::MAX,
        };
        let ops = &p.operands;
        if ops.is_empty() {
            return usage(ctx, "missing operand after 'cmp'").await;
        }
        for (k, op) in ops.iter().enumerate().skip(2).take(2) {
            match parse_size(op) {
                Some(n) => skip[k - 2] = n,
                None => return usage(ctx, &format!("invalid --ignore-initial value {}", quote(op))).await,
            }
        }
        if ops.len() > 4 {
            return usage(ctx, &format!("extra operand {}", quote(&ops[4]))).await;
        }
        let names = [ops[0].clone(), ops.get(1).cloned().unwrap_or_else(|| "-".into())];
        let mut sides = Vec::new();
        for n in &names {
            match ctx.open_input(n).await {
                Ok(input) => sides.push(Side { input, buf: Bytes::new(), eof: false }),
                Err(_) if silent => return Err(UError::Exit(2)),
                Err(e) => return Err(UError::new(2, format!("{n}: {e}"))),
            }
        }
        // GNU sizes `-l`'s offset column from the regular files' sizes (the
        // smaller one), before reading anything.
        let mut max_off = limit.min(i64::MAX as u64);
        for (k, n) in names.iter().enumerate() {
            if n != "-" {
                if let Ok(m) = ctx.fs.metadata(&ctx.resolve(n)).await {
                    if m.is_file() {
                        max_off = max_off.min(m.size.saturating_sub(skip[k]));
                    }
                }
            }
        }
        let width = max_off.to_string().len();
        for (side, &n) in sides.iter_mut().zip(&skip) {
            side.skip(n).await;
        }
        // Both inputs are compared a chunk at a time.
        let (mut pos, mut lines, mut last) = (0u64, 0u64, None::<u8>);
        let mut status = 0;
        let mut out = String::new();
        while pos < limit {
            if !ctx.still_running() {
                return Ok(2);
            }
            let [a, b] = &mut sides[..] else { return Ok(2) };
            if !a.fill().await | !b.fill().await {
                break;
            }
            let n = a.buf.len().min(b.buf.len()).min(usize::try_from(limit - pos).unwrap_or(usize::MAX));
            let (x, y) = (&a.buf[..n], &b.buf[..n]);
            if verbose {
                for i in (0..n).filter(|&i| x[i] != y[i]) {
                    status = 1;
                    let off = pos + i as u64 + 1;
                    if bytes {
                        let (sx, sy) = (show(x[i]), show(y[i]));
                        out.push_str(&format!("{off:>width$} {:3o} {sx:<4} {:3o} {sy}\n", x[i], y[i]));
                    } else {
                        out.push_str(&format!("{off:>width$} {:3o} {:3o}\n", x[i], y[i]));
                    }
                }
                ctx.out(out.as_bytes()).await?;
                out.clear();
            } else if let Some(i) = (0..n).find(|&i| x[i] != y[i]) {
                if !silent {
                    let line = 1 + lines + memchr::memchr_iter(b'\n', &x[..i]).count() as u64;
                    let mut msg = format!("{} {} differ: byte {}, line {line}", names[0], names[1], pos + i as u64 + 1);
                    if bytes {
                        msg.push_str(&format!(" is {:3o} {} {:3o} {}", x[i], show(x[i]), y[i], show(y[i])));
                    }
                    msg.push('\n');
                    ctx.out(msg.as_bytes()).await?;
                }
                return Ok(1);
            }
            lines += memchr::memchr_iter(b'\n', x).count() as u64;
            last = x.last().copied().or(last);
            a.buf = a.buf.slice(n..);
            b.buf = b.buf.slice(n..);
            pos += n as u64;
        }
        // One input ended first (within the byte limit).
        let short = match (sides[0].buf.is_empty(), sides[1].buf.is_empty()) {
            (true, false) => Some(&names[0]),
            (false, true) => Some(&names[1]),
            _ => None,
        };
        if let Some(name) = short.filter(|_| pos < limit) {
            if !silent {
                let msg = if pos == 0 {
                    format!("EOF on {name} which is empty")
                } else if verbose {
                    format!("EOF on {name} after byte {pos}")
                } else if last == Some(b'\n') {
                    format!("EOF on {name} after byte {pos}, line {lines}")
                } else {
                    format!("EOF on {name} after byte {pos}, in line {}", lines + 1)
                };
                ctx.err(msg).await?;
            }
            status = 1;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    #[test]
    fn cmp_files() {
        check(&["cmp", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "p q differ: byte 1, line 1\n", "", 1);
        check(
            &["cmp", "-l", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "1 141 170\n3 142 141\n",
            "cmp: EOF on p after byte 4\n",
            1,
        );
        check(&["cmp", "-s", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "", "", 1);
        check(
            &["cmp", "-b", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "p q differ: byte 1, line 1 is 141 a 170 x\n",
            "",
            1,
        );
        check(&["cmp", "p", "p"], &[("p", "a\nb\n")], "", "", "", 0);
        check(&["cmp", "a", "p"], &[("a", "a\n"), ("p", "a\nb\n")], "", "", "cmp: EOF on a after byte 2, line 1\n", 1);
        check(&["cmp", "e", "p"], &[("e", ""), ("p", "a\nb\n")], "", "", "cmp: EOF on e which is empty\n", 1);
        check(&["cmp", "p", "nope"], &[("p", "a\nb\n")], "", "", "cmp: nope: No such file or directory\n", 2);
        check(&["cmp", "-s", "p", "nope"], &[("p", "a\nb\n")], "", "", "", 2);
        check(
            &["cmp", "-k", "p", "p"],
            &[("p", "a\nb\n")],
            "",
            "",
            "cmp: invalid option -- 'k'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(&["cmp", "p"], &[("p", "a\nb\n")], "a\nb\n", "", "", 0);
        check(&["cmp", "p", "-"], &[("p", "a\nb\n")], "a\nc\n", "p - differ: byte 3, line 2\n", "", 1);
        check(
            &["cmp"],
            &[],
            "",
            "",
            "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "a", "b", "c", "d", "e"],
            &[],
            "",
            "",
            "cmp: invalid --ignore-initial value 'c'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "a", "b", "1", "2", "e"],
            &[],
            "",
            "",
            "cmp: extra operand 'e'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(&["cmp", "-l", "c1", "c2"], &[("c1", "abc"), ("c2", "abd")], "", "3 143 144\n", "", 1);
        check(&["cmp", "-n", "2", "c1", "c2"], &[("c1", "abc"), ("c2", "abd")], "", "", "", 0);
        check(
            &["cmp", "-i", "1", "c1", "c2"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "c1 c2 differ: byte 2, line 1\n",
            "",
            1,
        );
        check(
            &["cmp", "c1", "c2", "1", "1"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "c1 c2 differ: byte 2, line 1\n",
            "",
            1,
        );
        check(
            &["cmp", "-n", "abc", "c1", "c2"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "",
            "cmp: invalid --bytes value 'abc'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "-i", "x", "c1", "c2"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "",
            "cmp: invalid --ignore-initial value 'x'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "",
            "cmp: EOF on x after byte 3, in line 2\n",
            1,
        );
        check(
            &["cmp", "x2", "y2"],
            &[("x2", "a\nb\n"), ("y2", "a\nb\nc")],
            "",
            "",
            "cmp: EOF on x2 after byte 4, line 2\n",
            1,
        );
        check(
            &["cmp", "y2", "x2"],
            &[("x2", "a\nb\n"), ("y2", "a\nb\nc")],
            "",
            "",
            "cmp: EOF on x2 after byte 4, line 2\n",
            1,
        );
        check(
            &["cmp", "-lb", "h1", "h2"],
            &[("h1", "\x01\n"), ("h2", "ab\n")],
            "",
            "1   1 ^A   141 a\n2 177 ^?   142 b\n",
            "",
            1,
        );
        check(
            &["cmp", "-b", "h1", "h2"],
            &[("h1", "\x01\n"), ("h2", "ab\n")],
            "",
            "h1 h2 differ: byte 1, line 1 is   1 ^A 141 a\n",
            "",
            1,
        );
        check(
            &["cmp", "-i", "1:2", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "x y differ: byte 1, line 1\n",
            "",
            1,
        );
        check(
            &["cmp", "-l", "-s", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "",
            "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "--verbose", "--print-bytes", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "",
            "cmp: EOF on x after byte 3\n",
            1,
        );
        check(&["cmp", "-l", "r1", "r2"], &[("r1", "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"), ("r2", "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000X00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")], "", "151  60 130\n", "", 1);
        check(&["cmp", "-l", "z1", "z2"], &[("z1", "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"), ("z2", "0000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")], "", "   8  60  61\n", "cmp: EOF on z2 after byte 1000\n", 1);
        check(&["cmp", "-lb", "s1", "z1"], &[("s1", "ab\n"), ("z1", "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")], "", "1 141 a     60 0\n2 142 b     60 0\n3  12 ^J    60 0\n", "cmp: EOF on s1 after byte 3\n", 1);
    }
}
