//! `head`: the first lines or bytes of each input (`-n N`, `-n -N` for all
//! but the last N, `-c`, `-q`, `-v`, `-z`, and the obsolete `-5`, `-5c`).
//! Stdin is read only as far as needed, so `yes | head -n 1` ends.

use crate::commands::util::{Arg, Spec};
use super::{Headers, Opened};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Head;

const SPEC: Spec = Spec::new(
    "c:n:qvz0123456789",
    &[
        ("bytes", Arg::Yes, "c"),
        ("lines", Arg::Yes, "n"),
        ("quiet", Arg::No, "q"),
        ("silent", Arg::No, "q"),
        ("verbose", Arg::No, "v"),
        ("zero-terminated", Arg::No, "z"),
    ],
    "[OPTION]... [FILE]...",
);

/// What to print: `count` lines or bytes, or all but the last `count` (`elide`).
#[derive(Clone, Copy)]
struct Mode {
    lines: bool,
    count: u64,
    elide: bool,
    delim: u8,
}

/// Rewrite the obsolete first argument `-5`, `-5c`, `-2k`, `-3qv` into options.
fn obsolete(args: &[String]) -> Result<Vec<String>, char> {
    let Some(first) = args.first() else { return Ok(Vec::new()) };
    let b = first.as_bytes();
    if b.len() < 2 || b[0] != b'-' || !b[1].is_ascii_digit() {
        return Ok(args.to_vec());
    }
    let digits_end = 1 + first[1..].find(|c: char| !c.is_ascii_digit()).unwrap_or(first.len() - 1);
    let mut num = first[1..digits_end].to_string();
    let (mut lines, mut suffix) = (true, "");
    let mut out = Vec::new();
    for c in first[digits_end..].chars() {
        match c {
            'c' => (lines, suffix) = (false, ""),
            'b' => (lines, suffix) = (false, "b"),
            'k' => (lines, suffix) = (false, "k"),
            'm' => (lines, suffix) = (false, "m"),
            'l' => lines = true,
            'q' => out.push("-q".to_string()),
            'v' => out.push("-v".to_string()),
            'z' => out.push("-z".to_string()),
            c => return Err(c),
        }
    }
    num.push_str(suffix);
    out.push(if lines { "-n" } else { "-c" }.to_string());
    out.push(num);
    out.extend(args[1..].iter().cloned());
    Ok(out)
}

#[async_trait]
impl Utility for Head {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = match obsolete(ctx.args) {
            Ok(a) => a,
            Err(c) => {
                return Err(UError::usage(1, format!("invalid trailing option -- {c}")));
            }
        };
        let p = ctx.opts_of(&args, &SPEC).await?;
        // Digits are options to getopt but only valid first (`-5`).
        if let Some(o) = p.opts.iter().find(|o| o.id.as_bytes()[0].is_ascii_digit()) {
            return Err(UError::usage(1, format!("invalid trailing option -- {}", o.id)));
        }
        let mut mode = Mode { lines: true, count: 10, elide: false, delim: b'\n' };
        for o in &p.opts {
            match (o.id, o.val.as_deref()) {
                ("n" | "c", Some(v)) => {
                    mode.lines = o.id == "n";
                    let (elide, num) = match v.strip_prefix('-') {
                        Some(rest) => (true, rest),
                        None => (false, v),
                    };
                    mode.elide = elide;
                    mode.count = match super::count(num, mode.lines) {
                        Ok(n) => n,
                        Err(m) => {
                            return Err(UError::new(1, m));
                        }
                    };
                }
                ("z", _) => mode.delim = 0,
                _ => {}
            }
        }
        let files: Vec<String> = if p.operands.is_empty() { vec!["-".into()] } else { p.operands.clone() };
        let mut headers = Headers::new(super::verbosity(&p), files.len());
        let mut status = 0;
        for f in &files {
            // Files, devices and stdin are all streamed: `head -c 10` of a
            // huge file reads a chunk, `head -c 16 /dev/urandom` ends.
            let input = if f == "-" {
                ctx.stdin.clone()
            } else {
                match super::open(ctx, f).await? {
                    Opened::Stream(input) => input,
                    Opened::OpenFailed => {
                        status = 1;
                        continue;
                    }
                    Opened::ReadFailed(e) => {
                        headers.show(ctx, f).await?;
                        super::read_error(ctx, f, e).await?;
                        status = 1;
                        continue;
                    }
                }
            };
            headers.show(ctx, f).await?;
            if mode.elide {
                // `-n -N`: all but the last N, printed as they fall out of the window.
                let rest = super::read_keeping_last(ctx, &input, mode.lines, mode.count, mode.delim, true).await?;
                let end = super::last_start(&rest, mode.lines, mode.count, mode.delim);
                ctx.out(&rest[..end]).await?;
            } else {
                stream(ctx, &input, mode).await?;
            }
        }
        Ok(status)
    }
}

/// Copy the first lines or bytes of `input` without reading past them.
async fn stream(ctx: &CommandContext<'_>, input: &crate::io::Input, mode: Mode) -> Result<(), crate::io::IoError> {
    const PIECE: usize = 64 * 1024;
    let mut left = mode.count;
    while left > 0 && ctx.still_running() {
        if mode.lines {
            let Some(piece) = input.read_until(mode.delim, PIECE).await else { break };
            if piece.last() == Some(&mode.delim) {
                left -= 1;
            }
            ctx.out(&piece).await?;
        } else {
            let want = usize::try_from(left).unwrap_or(usize::MAX).min(PIECE);
            let piece = input.read_exact_upto(want).await;
            if piece.is_empty() {
                break;
            }
            left -= piece.len() as u64;
            ctx.out(&piece).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const F: (&str, &str) = ("f", "1\n2\n3\n4\n5\n");
    const G: (&str, &str) = ("g", "a\nb");

    #[test]
    fn lines_and_bytes() {
        check(&["head", "-n", "2", "f"], &[F], "", "1\n2\n", "", 0);
        check(&["head", "-n", "-2", "f"], &[F], "", "1\n2\n3\n", "", 0);
        check(&["head", "-n", "+2", "f"], &[F], "", "1\n2\n", "", 0);
        check(&["head", "-c", "3", "f"], &[F], "", "1\n2", "", 0);
        check(&["head", "-c", "-3", "f"], &[F], "", "1\n2\n3\n4", "", 0);
        check(&["head", "--bytes=2", "f"], &[F], "", "1\n", "", 0);
        check(&["head", "-2", "f"], &[F], "", "1\n2\n", "", 0);
        check(&["head", "-5c", "f"], &[F], "", "1\n2\n3", "", 0);
        check(&["head", "-n", "1k", "f"], &[F], "", "1\n2\n3\n4\n5\n", "", 0);
        check(
            &["head", "f"],
            &[("f", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n")],
            "",
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "",
            0,
        );
        check(&["head", "-n", "-1", "g"], &[G], "", "a\n", "", 0);
        check(&["head", "-n", "-0", "g"], &[G], "", "a\nb", "", 0);
        check(&["head", "-n", "0", "g"], &[G], "", "", "", 0);
        check(&["head", "-z", "-n", "1", "f"], &[F], "", "1\n2\n3\n4\n5\n", "", 0);
    }

    #[test]
    fn headers_and_files() {
        check(&["head", "-n", "2", "f", "g"], &[F, G], "", "==> f <==\n1\n2\n\n==> g <==\na\nb", "", 0);
        check(&["head", "-v", "-n1", "f"], &[F], "", "==> f <==\n1\n", "", 0);
        check(&["head", "-q", "f", "g"], &[F, G], "", "1\n2\n3\n4\n5\na\nb", "", 0);
        check(&["head", "-3q", "f", "g"], &[F, G], "", "1\n2\n3\na\nb", "", 0);
        check(&["head", "-v", "-n1", "-"], &[], "x\ny\n", "==> standard input <==\nx\n", "", 0);
        let nope = "head: cannot open 'nope' for reading: No such file or directory\n";
        check(&["head", "-n1", "nope", "f"], &[F], "", "==> f <==\n1\n", nope, 1);
        check(
            &["head", "-n1", "d", "f"],
            &[("d/", ""), F],
            "",
            "==> d <==\n\n==> f <==\n1\n",
            "head: error reading 'd': Is a directory\n",
            1,
        );
    }

    #[test]
    fn stdin_and_errors() {
        check(&["head", "-n", "1"], &[], "a\nb\n", "a\n", "", 0);
        check(&["head", "-c", "2"], &[], "abc", "ab", "", 0);
        check(&["head", "-n", "-1"], &[], "a\nb\nc", "a\nb\n", "", 0);
        check(&["head"], &[], "", "", "", 0);
        check(&["head", "-n", "x", "f"], &[F], "", "", "head: invalid number of lines: 'x'\n", 1);
        check(&["head", "-c", "1x", "f"], &[F], "", "", "head: invalid number of bytes: '1x'\n", 1);
        check(
            &["head", "-n", "99999999999999999999999", "f"],
            &[F],
            "",
            "",
            "head: invalid number of lines: '99999999999999999999999': Value too large for defined data type\n",
            1,
        );
        check(
            &["head", "-n"],
            &[],
            "",
            "",
            "head: option requires an argument -- 'n'\nTry 'head --help' for more information.\n",
            1,
        );
        check(
            &["head", "-n", "1", "f", "-3"],
            &[F],
            "",
            "",
            "head: invalid trailing option -- 3\nTry 'head --help' for more information.\n",
            1,
        );
        check(
            &["head", "-5x", "f"],
            &[F],
            "",
            "",
            "head: invalid trailing option -- x\nTry 'head --help' for more information.\n",
            1,
        );
        check(
            &["head", "-x"],
            &[],
            "",
            "",
            "head: invalid option -- 'x'\nTry 'head --help' for more information.\n",
            1,
        );
    }
}
