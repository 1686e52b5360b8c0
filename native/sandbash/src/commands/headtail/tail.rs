//! `tail`: the last lines or bytes of each input (`-n N`, `-n +N` from line
//! N, `-c`, `-q`, `-v`, `-z`, the obsolete `-5`/`+5`). `-f`/`-F` are accepted
//! but nothing is followed: the sandbox's files do not grow behind a script.

use crate::commands::util::{Arg, Spec};
use super::{Headers, Opened};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::{Input, IoError};
use async_trait::async_trait;

pub struct Tail;

const SPEC: Spec = Spec::new(
    "c:n:fFqvzs:0123456789",
    &[
        ("bytes", Arg::Yes, "c"),
        ("lines", Arg::Yes, "n"),
        ("follow", Arg::Optional, "f"),
        ("quiet", Arg::No, "q"),
        ("silent", Arg::No, "q"),
        ("verbose", Arg::No, "v"),
        ("zero-terminated", Arg::No, "z"),
        ("sleep-interval", Arg::Yes, "s"),
        ("pid", Arg::Yes, "pid"),
        ("retry", Arg::No, "retry"),
        ("max-unchanged-stats", Arg::Yes, "mus"),
    ],
    "[OPTION]... [FILE]...",
);

#[derive(Clone, Copy)]
struct Mode {
    lines: bool,
    count: u64,
    /// `+N`: start at line/byte N instead of counting from the end.
    from_start: bool,
    delim: u8,
}

/// The obsolete form `tail -5`, `tail +5c f`, `tail -3l`: one option, at most
/// one file. Returns the equivalent arguments.
fn obsolete(args: &[String]) -> Option<Vec<String>> {
    let first = args.first()?;
    let one_file = args.len() == 1 || (args.len() == 2 && !(args[1].starts_with('-') && args[1].len() > 1));
    let sign = first.chars().next()?;
    if !one_file || !(sign == '+' || sign == '-') {
        return None;
    }
    let body = &first[1..];
    let digits_end = body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len());
    if digits_end == 0 {
        return None;
    }
    let mut rest = &body[digits_end..];
    let mut num = if sign == '+' { format!("+{}", &body[..digits_end]) } else { body[..digits_end].to_string() };
    let mut lines = true;
    if let Some(r) = rest.strip_prefix(['b', 'c', 'l']) {
        lines = rest.starts_with('l');
        if rest.starts_with('b') {
            num.push('b');
        }
        rest = r;
    }
    let rest = rest.strip_prefix('f').unwrap_or(rest);
    if !rest.is_empty() {
        return None;
    }
    let mut out = vec![if lines { "-n" } else { "-c" }.to_string(), num];
    out.extend(args[1..].iter().cloned());
    Some(out)
}

#[async_trait]
impl Utility for Tail {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = obsolete(ctx.args).unwrap_or_else(|| ctx.args.to_vec());
        let p = ctx.opts_of(&args, &SPEC).await?;
        // Digits are options to getopt but only valid in the obsolete form.
        if let Some(o) = p.opts.iter().find(|o| o.id.as_bytes()[0].is_ascii_digit()) {
            return Err(UError::new(1, format!("option used in invalid context -- {}", o.id)));
        }
        let mut mode = Mode { lines: true, count: 10, from_start: false, delim: b'\n' };
        for o in &p.opts {
            match (o.id, o.val.as_deref()) {
                ("n" | "c", Some(v)) => {
                    mode.lines = o.id == "n";
                    mode.from_start = v.starts_with('+');
                    let num = v.strip_prefix(['+', '-']).unwrap_or(v);
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
            if f == "-" {
                headers.show(ctx, f).await?;
                tail(ctx, &ctx.stdin, mode).await?;
                continue;
            }
            match super::open(ctx, f).await? {
                Opened::Stream(input) => {
                    headers.show(ctx, f).await?;
                    tail(ctx, &input, mode).await?;
                }
                Opened::OpenFailed => status = 1,
                Opened::ReadFailed(e) => {
                    headers.show(ctx, f).await?;
                    super::read_error(ctx, f, e).await?;
                    status = 1;
                }
            }
        }
        Ok(status)
    }
}

/// Print what `mode` selects of `input`, streaming: `+N` skips and then
/// copies chunk by chunk; the last N lines or bytes hold only those.
async fn tail(ctx: &CommandContext<'_>, input: &Input, mode: Mode) -> Result<(), IoError> {
    if !mode.from_start {
        let rest = super::read_keeping_last(ctx, input, mode.lines, mode.count, mode.delim, false).await?;
        let start = super::last_start(&rest, mode.lines, mode.count, mode.delim);
        return ctx.out(&rest[start..]).await;
    }
    // `+N`: from line (byte) N, so N-1 of them are skipped; `+0` is `+1`.
    let mut skip = mode.count.saturating_sub(1);
    while let Some(chunk) = input.read_chunk().await {
        let mut c = &chunk[..];
        if mode.lines {
            while skip > 0 {
                match memchr::memchr(mode.delim, c) {
                    Some(i) => {
                        c = &c[i + 1..];
                        skip -= 1;
                    }
                    None => {
                        c = &[];
                        break;
                    }
                }
            }
        } else {
            let k = usize::try_from(skip).unwrap_or(usize::MAX).min(c.len());
            c = &c[k..];
            skip -= k as u64;
        }
        if !c.is_empty() {
            ctx.out(c).await?;
        }
        if !ctx.still_running() {
            break;
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
        check(&["tail", "-n", "2", "f"], &[F], "", "4\n5\n", "", 0);
        check(&["tail", "-n", "-2", "f"], &[F], "", "4\n5\n", "", 0);
        check(&["tail", "-n", "+4", "f"], &[F], "", "4\n5\n", "", 0);
        check(&["tail", "-n", "+0", "f"], &[F], "", "1\n2\n3\n4\n5\n", "", 0);
        check(&["tail", "-n", "0", "f"], &[F], "", "", "", 0);
        check(&["tail", "-c", "3", "f"], &[F], "", "\n5\n", "", 0);
        check(&["tail", "-c", "+9", "f"], &[F], "", "5\n", "", 0);
        check(&["tail", "-c", "-2", "f"], &[F], "", "5\n", "", 0);
        check(&["tail", "-c", "0", "f"], &[F], "", "", "", 0);
        check(&["tail", "-c", "2k", "f"], &[F], "", "1\n2\n3\n4\n5\n", "", 0);
        check(&["tail", "-2", "f"], &[F], "", "4\n5\n", "", 0);
        check(&["tail", "+4", "f"], &[F], "", "4\n5\n", "", 0);
        check(&["tail", "-3c", "f"], &[F], "", "\n5\n", "", 0);
        check(&["tail", "+2c", "f"], &[F], "", "\n2\n3\n4\n5\n", "", 0);
        check(&["tail", "-n1", "g"], &[G], "", "b", "", 0);
        check(&["tail", "-f", "-n1", "f"], &[F], "", "5\n", "", 0);
        check(&["tail", "-z", "-n1", "f"], &[F], "", "1\n2\n3\n4\n5\n", "", 0);
        check(&["tail", "-n", "1", "--", "f"], &[F], "", "5\n", "", 0);
    }

    #[test]
    fn headers_and_files() {
        check(&["tail", "-n", "2", "f", "g"], &[F, G], "", "==> f <==\n4\n5\n\n==> g <==\na\nb", "", 0);
        check(&["tail", "-v", "-n1", "f"], &[F], "", "==> f <==\n5\n", "", 0);
        check(&["tail", "-q", "-n1", "f", "g"], &[F, G], "", "5\nb", "", 0);
        check(&["tail", "-v", "-n1", "-"], &[], "x\ny\n", "==> standard input <==\ny\n", "", 0);
        let nope = "tail: cannot open 'nope' for reading: No such file or directory\n";
        check(&["tail", "nope", "f"], &[F], "", "==> f <==\n1\n2\n3\n4\n5\n", nope, 1);
        check(
            &["tail", "d", "f"],
            &[("d/", ""), F],
            "",
            "==> d <==\n\n==> f <==\n1\n2\n3\n4\n5\n",
            "tail: error reading 'd': Is a directory\n",
            1,
        );
    }

    #[test]
    fn stdin_and_errors() {
        check(&["tail", "-n", "2"], &[], "a\nb\nc", "b\nc", "", 0);
        check(&["tail", "-n", "3"], &[], "", "", "", 0);
        check(&["tail", "-n", "x", "f"], &[F], "", "", "tail: invalid number of lines: 'x'\n", 1);
        check(
            &["tail", "-n", "99999999999999999999999", "f"],
            &[F],
            "",
            "",
            "tail: invalid number of lines: '99999999999999999999999': Value too large for defined data type\n",
            1,
        );
        check(&["tail", "-1", "g", "f"], &[F, G], "", "", "tail: option used in invalid context -- 1\n", 1);
        check(
            &["tail", "-x"],
            &[],
            "",
            "",
            "tail: invalid option -- 'x'\nTry 'tail --help' for more information.\n",
            1,
        );
        check(
            &["tail", "-n"],
            &[],
            "",
            "",
            "tail: option requires an argument -- 'n'\nTry 'tail --help' for more information.\n",
            1,
        );
    }
}
