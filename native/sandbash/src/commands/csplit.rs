//! `csplit` (GNU coreutils 9.1): split a file at line numbers (`N`), at lines
//! matching a BRE (`/re/[+-N]`), or skip to one (`%re%[+-N]`), each pattern
//! repeatable (`{N}`, `{*}`); `-f PREFIX`, `-n DIGITS`, `-b FORMAT`, `-s`,
//! `-z`, `-k`, `--suppress-matched`. Lines are tracked as GNU does: a regex
//! search starts after the last line already matched or split at, so `{*}`
//! always moves forward and ends.

use super::util::{quote, quote_locale, Arg, Spec};
use super::util::regex_translate::translate;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use regex::bytes::{Regex, RegexBuilder};

pub struct Csplit;

const SPEC: Spec = Spec::new(
    "b:f:kn:sz",
    &[
        ("suffix-format", Arg::Yes, "b"),
        ("prefix", Arg::Yes, "f"),
        ("keep-files", Arg::No, "k"),
        ("digits", Arg::Yes, "n"),
        ("quiet", Arg::No, "s"),
        ("silent", Arg::No, "s"),
        ("elide-empty-files", Arg::No, "z"),
        ("suppress-matched", Arg::No, "suppress-matched"),
    ],
    "[OPTION]... FILE PATTERN...",
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Repeat {
    Times(u64),
    Forever,
}

enum Kind {
    Line(usize),
    Regex { re: Regex, offset: i64, skip: bool },
}

struct Pattern {
    /// As written, for messages.
    text: String,
    kind: Kind,
    repeat: Repeat,
}

/// `%[flags][width]d`-style suffix formats (`-b`), with GNU's checks.
fn format_suffix(fmt: &str, n: u64) -> String {
    let Some(pct) = fmt.find('%') else { return fmt.to_string() };
    let (head, rest) = fmt.split_at(pct);
    let spec_end = rest.find(['d', 'i', 'u', 'x', 'X', 'o']).unwrap_or(rest.len() - 1);
    let spec = &rest[1..spec_end];
    let conv = rest.as_bytes().get(spec_end).copied().unwrap_or(b'd');
    let tail = rest.get(spec_end + 1..).unwrap_or("");
    let flags_end = spec.find(|c: char| !"-#' +0".contains(c)).unwrap_or(spec.len());
    let (flags, width) = spec.split_at(flags_end);
    let (zero, left) = (flags.contains('0'), flags.contains('-'));
    let width: usize = width.parse().unwrap_or(0).min(4096);
    let digits = match conv {
        b'x' => format!("{n:x}"),
        b'X' => format!("{n:X}"),
        b'o' => format!("{n:o}"),
        _ => n.to_string(),
    };
    let body = if left {
        format!("{digits:<width$}")
    } else if zero {
        format!("{digits:0>width$}")
    } else {
        format!("{digits:>width$}")
    };
    format!("{head}{body}{tail}")
}

/// Whether `-b FORMAT` holds exactly one integer conversion.
fn valid_format(fmt: &str) -> Result<(), String> {
    let convs = fmt.matches('%').count() - 2 * fmt.matches("%%").count();
    if convs == 0 {
        return Err("missing conversion specifier in suffix".into());
    }
    if convs > 1 {
        return Err("too many % conversion specifications in suffix".into());
    }
    let pct = fmt.find('%').unwrap_or(0);
    let rest = &fmt[pct + 1..];
    let c = rest
        .trim_start_matches(['-', '#', '\'', ' ', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
        .chars()
        .next();
    match c {
        Some('d' | 'i' | 'u' | 'x' | 'X' | 'o') => Ok(()),
        Some(c) => Err(format!("invalid conversion specifier in suffix: {c}")),
        None => Err("missing conversion specifier in suffix".into()),
    }
}

/// Parse the PATTERN operands, GNU's checks and wording included.
fn parse_patterns(ops: &[String], limit: usize) -> Result<(Vec<Pattern>, Vec<String>), String> {
    let mut pats: Vec<Pattern> = Vec::new();
    let mut warnings = Vec::new();
    let mut last_line: Option<usize> = None;
    for op in ops {
        if let Some(body) = op.strip_prefix('{') {
            let Some(inner) = body.strip_suffix('}') else {
                return Err(format!("{}: '}}' is required in repeat count", quote_locale(op)));
            };
            let rep = if inner == "*" {
                Repeat::Forever
            } else {
                match inner.parse::<u64>() {
                    Ok(n) => Repeat::Times(n),
                    Err(_) => return Err(format!("{}: invalid repeat count", quote_locale(op))),
                }
            };
            match pats.last_mut() {
                Some(p) => p.repeat = rep,
                None => return Err(format!("{}: invalid pattern", quote_locale(op))),
            }
            continue;
        }
        if let Some(delim) = op.chars().next().filter(|c| *c == '/' || *c == '%') {
            let body = &op[1..];
            let Some(end) = body.rfind(delim) else {
                return Err(format!("{}: closing delimiter '{delim}' missing", quote_locale(op)));
            };
            let (re_text, off_text) = (&body[..end], &body[end + 1..]);
            let offset = if off_text.is_empty() {
                0
            } else {
                let t = off_text.strip_prefix('+').unwrap_or(off_text);
                match t.parse::<i64>() {
                    Ok(n) if !t.starts_with('+') => n,
                    _ => return Err(format!("{}: integer expected after delimiter", quote_locale(op))),
                }
            };
            let src = translate(re_text, false)
                .map_err(|e| format!("{}: invalid regular expression: {e}", quote_locale(op)))?
                .source;
            crate::commands::util::regex_cache::admit(&src)?;
            let re = RegexBuilder::new(&src)
                .size_limit(limit)
                .build()
                .map_err(|_| format!("{}: invalid regular expression: Invalid regular expression", quote_locale(op)))?;
            pats.push(Pattern {
                text: op.clone(),
                kind: Kind::Regex { re, offset, skip: delim == '%' },
                repeat: Repeat::Times(0),
            });
            continue;
        }
        let n: usize = match op.parse() {
            Ok(n) if op.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Err(format!("{}: invalid pattern", quote_locale(op))),
        };
        if n == 0 {
            return Err(format!("{op}: line number must be greater than zero"));
        }
        if let Some(prev) = last_line {
            if n < prev {
                return Err(format!("line number {} is smaller than preceding line number, {prev}", quote_locale(op)));
            }
            if n == prev {
                warnings
                    .push(format!("warning: line number {} is the same as preceding line number", quote_locale(op)));
            }
        }
        last_line = Some(n);
        pats.push(Pattern { text: op.clone(), kind: Kind::Line(n), repeat: Repeat::Times(0) });
    }
    Ok((pats, warnings))
}

/// The split in progress: where the current piece starts, the last line
/// looked at, and the files written so far.
struct Splitter<'a> {
    lines: Vec<&'a [u8]>,
    start: usize,
    current: usize,
    made: Vec<String>,
    prefix: String,
    format: String,
    elide: bool,
    quiet: bool,
}

impl Splitter<'_> {
    /// Write lines `start..end` (1-based, `end` exclusive) as the next piece.
    async fn piece(&mut self, ctx: &CommandContext<'_>, end: usize) -> Result<Result<(), String>, crate::io::IoError> {
        let from = self.start.saturating_sub(1).min(self.lines.len());
        let to = end.saturating_sub(1).clamp(from, self.lines.len());
        let data: Vec<u8> = self.lines[from..to].concat();
        self.start = self.start.max(end);
        if data.is_empty() && self.elide {
            return Ok(Ok(()));
        }
        let name = format!("{}{}", self.prefix, format_suffix(&self.format, self.made.len() as u64));
        if let Err(e) = ctx.fs.write(&ctx.resolve(&name), &data).await {
            return Ok(Err(format!("{name}: {e}")));
        }
        self.made.push(name);
        if !self.quiet {
            ctx.out(format!("{}\n", data.len()).as_bytes()).await?;
        }
        Ok(Ok(()))
    }
}

#[async_trait]
impl Utility for Csplit {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let Some((file, ops)) = p.operands.split_first() else {
            return Err(UError::usage(1, "missing operand"));
        };
        if ops.is_empty() {
            return Err(UError::usage(1, format!("missing operand after {}", quote_locale(file))));
        }
        let digits: usize = match p.last("n") {
            Some(d) => match d.parse() {
                Ok(n) if n <= 4096 => n,
                _ => {
                    return Err(UError::new(1, format!("invalid number: {}", quote_locale(d))));
                }
            },
            None => 2,
        };
        let format = match p.last("b") {
            Some(f) => {
                if let Err(m) = valid_format(f) {
                    return Err(UError::new(1, m));
                }
                f.to_string()
            }
            None => format!("%0{digits}d"),
        };
        let (pats, warnings) = match parse_patterns(ops, ctx.regex_limit()) {
            Ok(x) => x,
            Err(m) => {
                return Err(UError::new(1, m));
            }
        };
        for w in warnings {
            ctx.err(w).await?;
        }
        let data = match ctx.read_operand(file).await {
            Ok(d) => d,
            Err(e) => {
                return Err(UError::new(1, format!("cannot open {} for reading: {e}", quote(file))));
            }
        };
        let mut s = Splitter {
            lines: data.split_inclusive(|&b| b == b'\n').collect(),
            start: 1,
            current: 0,
            made: Vec::new(),
            prefix: p.last("f").unwrap_or("xx").to_string(),
            format,
            elide: p.has("z"),
            quiet: p.has("s"),
        };
        let suppress = p.has("suppress-matched");
        match split(ctx, &mut s, &pats, suppress).await? {
            Ok(()) => Ok(0),
            Err(m) => {
                ctx.err(m).await?;
                if !p.has("k") {
                    for f in &s.made {
                        let _ = ctx.fs.remove_file(&ctx.resolve(f)).await;
                    }
                }
                Ok(1)
            }
        }
    }
}

/// Apply every pattern, then write the rest as the last piece.
async fn split(
    ctx: &CommandContext<'_>,
    s: &mut Splitter<'_>,
    pats: &[Pattern],
    suppress: bool,
) -> Result<Result<(), String>, crate::io::IoError> {
    let total = s.lines.len();
    for pat in pats {
        let mut rep: u64 = 0;
        loop {
            if !ctx.still_running() {
                return Ok(Err("interrupted".into()));
            }
            let on_rep = if rep > 0 { format!(" on repetition {rep}") } else { String::new() };
            let name = quote_locale(&pat.text);
            match &pat.kind {
                Kind::Line(n) => {
                    let target = n.saturating_mul(rep as usize + 1);
                    if target > total {
                        if let Err(e) = s.piece(ctx, total + 1).await? {
                            return Ok(Err(e));
                        }
                        return Ok(Err(format!("{name}: line number out of range{on_rep}")));
                    }
                    if let Err(e) = s.piece(ctx, target).await? {
                        return Ok(Err(e));
                    }
                    s.current = target - 1;
                    if suppress && s.start == target {
                        s.start += 1;
                        s.current = target;
                    }
                }
                Kind::Regex { re, offset, skip } => {
                    let from = s.current.min(total);
                    let found = s.lines[from..].iter().position(|l| {
                        let l = l.strip_suffix(b"\n").unwrap_or(l);
                        re.is_match(l)
                    });
                    let Some(i) = found else {
                        if pat.repeat == Repeat::Forever {
                            break;
                        }
                        if !skip {
                            if let Err(e) = s.piece(ctx, total + 1).await? {
                                return Ok(Err(e));
                            }
                        }
                        return Ok(Err(format!("{name}: match not found{on_rep}")));
                    };
                    let m = from + i + 1;
                    let brk = m as i64 + offset;
                    if brk > total as i64 + 1 {
                        if let Err(e) = s.piece(ctx, total + 1).await? {
                            return Ok(Err(e));
                        }
                        return Ok(Err(format!("{name}: line number out of range{on_rep}")));
                    }
                    if brk < s.start as i64 {
                        if !skip {
                            if let Err(e) = s.piece(ctx, s.start).await? {
                                return Ok(Err(e));
                            }
                        }
                        return Ok(Err(format!("{name}: line number out of range{on_rep}")));
                    }
                    let brk = brk as usize;
                    if *skip {
                        s.start = brk;
                    } else if let Err(e) = s.piece(ctx, brk).await? {
                        return Ok(Err(e));
                    }
                    s.current = m.max(brk);
                    if suppress && *offset == 0 && s.start == m {
                        s.start += 1;
                    }
                }
            }
            rep += 1;
            match pat.repeat {
                Repeat::Times(n) if rep > n => break,
                _ => {}
            }
        }
    }
    s.piece(ctx, total + 1).await
}

#[cfg(test)]
mod tests {
    use super::format_suffix;
    use crate::commands::util::testutil::{check, check_tree};

    fn seq20() -> String {
        (1..=20).map(|i| format!("{i}\n")).collect()
    }

    #[test]
    fn suffixes() {
        assert_eq!(format_suffix("%02d", 3), "03");
        assert_eq!(format_suffix("%03x.txt", 26), "01a.txt");
        assert_eq!(format_suffix("%d", 12), "12");
    }

    #[test]
    fn splits_like_gnu() {
        let f = seq20();
        let files = [("f", f.as_str())];
        check(&["csplit", "f", "5", "12"], &files, "", "8\n16\n27\n", "", 0);
        check(&["csplit", "f", "/3/", "{*}"], &files, "", "4\n23\n24\n", "", 0);
        check(&["csplit", "-z", "f", "/1/", "{*}"], &files, "", "18\n3\n3\n3\n3\n3\n3\n3\n3\n3\n6\n", "", 0);
        check(&["csplit", "f", "%5%", "/10/"], &files, "", "10\n33\n", "", 0);
        check(&["csplit", "f", "/5/+2", "/10/-1"], &files, "", "12\n4\n35\n", "", 0);
        check(&["csplit", "f", "/3/", "/3/"], &files, "", "4\n23\n24\n", "", 0);
        check(&["csplit", "f", "/3/-1", "/3/"], &files, "", "2\n25\n24\n", "", 0);
        check(&["csplit", "f", "/3/+1", "/4/"], &files, "", "6\n24\n21\n", "", 0);
        check(&["csplit", "f", "5", "{2}"], &files, "", "8\n10\n15\n18\n", "", 0);
        check(&["csplit", "f", "5", "/5/"], &files, "", "8\n0\n43\n", "", 0);
        check(&["csplit", "f", "/7/", "5", "/9/"], &files, "", "12\n0\n4\n35\n", "", 0);
        check(&["csplit", "f", "20"], &files, "", "48\n3\n", "", 0);
        check(&["csplit", "f", "/20/+1"], &files, "", "51\n0\n", "", 0);
        check(&["csplit", "--suppress-matched", "f", "/5/"], &files, "", "8\n41\n", "", 0);
        check(&["csplit", "-", "3"], &[], &f, "4\n47\n", "", 0);
        check(
            &["csplit", "f", "5", "5"],
            &files,
            "",
            "8\n0\n43\n",
            "csplit: warning: line number '5' is the same as preceding line number\n",
            0,
        );
        check_tree(
            &["csplit", "-f", "p", "-n", "3", "-s", "f", "/1/", "{1}"],
            &[("f", "a\n1\nb\n10\nc\n")],
            "",
            "",
            "",
            0,
            "f\ta\\n1\\nb\\n10\\nc\\n\np000\ta\\n\np001\t1\\nb\\n\np002\t10\\nc\\n\n",
        );
    }

    #[test]
    fn errors_remove_pieces() {
        let f = seq20();
        let files = [("f", f.as_str())];
        let fline = format!("f\t{}\n", f.replace('\n', "\\n"));
        check_tree(
            &["csplit", "f", "/5/", "{2}"],
            &files,
            "",
            "8\n25\n18\n",
            "csplit: '/5/': match not found on repetition 2\n",
            1,
            &fline,
        );
        check_tree(&["csplit", "f", "30"], &files, "", "51\n", "csplit: '30': line number out of range\n", 1, &fline);
        check(&["csplit", "-k", "f", "5", "30"], &files, "", "8\n43\n", "csplit: '30': line number out of range\n", 1);
        check(
            &["csplit", "f", "5", "{4}"],
            &files,
            "",
            "8\n10\n15\n15\n3\n",
            "csplit: '5': line number out of range on repetition 4\n",
            1,
        );
        check(&["csplit", "f", "/nomatch/"], &files, "", "51\n", "csplit: '/nomatch/': match not found\n", 1);
        check(&["csplit", "f", "/20/+2"], &files, "", "51\n", "csplit: '/20/+2': line number out of range\n", 1);
        check(
            &["csplit", "f", "5", "3"],
            &files,
            "",
            "",
            "csplit: line number '3' is smaller than preceding line number, 5\n",
            1,
        );
        check(
            &["csplit", "f"],
            &files,
            "",
            "",
            "csplit: missing operand after 'f'\nTry 'csplit --help' for more information.\n",
            1,
        );
        check(
            &["csplit", "nope", "3"],
            &files,
            "",
            "",
            "csplit: cannot open 'nope' for reading: No such file or directory\n",
            1,
        );
        check(&["csplit", "f", "0"], &files, "", "", "csplit: 0: line number must be greater than zero\n", 1);
    }
}
