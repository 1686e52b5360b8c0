//! `uniq`: report or omit repeated adjacent lines (GNU coreutils 9.1). The
//! two loops follow GNU's `check_file` so odd combinations (`-u -D`) match.

use super::util::{bad_arg, quote, quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Uniq;

const SPEC: Spec = Spec::new(
    "cdDf:is:uw:z",
    &[
        ("count", Arg::No, "c"),
        ("repeated", Arg::No, "d"),
        ("all-repeated", Arg::Optional, "D"),
        ("skip-fields", Arg::Yes, "f"),
        ("ignore-case", Arg::No, "i"),
        ("skip-chars", Arg::Yes, "s"),
        ("unique", Arg::No, "u"),
        ("zero-terminated", Arg::No, "z"),
        ("check-chars", Arg::Yes, "w"),
        ("group", Arg::Optional, "group"),
    ],
    "[OPTION]... [INPUT [OUTPUT]]",
);

/// Blank lines between groups: `--all-repeated=` (Delimit) or `--group=`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sep {
    None,
    Prepend,
    Separate,
    Append,
    Both,
}

/// What gets compared of each line.
struct Cmp {
    skip_fields: usize,
    skip_chars: usize,
    check_chars: usize,
    ignore_case: bool,
}

impl Cmp {
    /// GNU `find_field` plus the `-w` limit; `line` excludes its delimiter.
    fn field<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\n');
        let mut i = 0;
        for _ in 0..self.skip_fields {
            if i >= line.len() {
                break;
            }
            while i < line.len() && blank(line[i]) {
                i += 1;
            }
            while i < line.len() && !blank(line[i]) {
                i += 1;
            }
        }
        i += self.skip_chars.min(line.len() - i);
        let f = &line[i..];
        &f[..f.len().min(self.check_chars)]
    }

    fn different(&self, a: &[u8], b: &[u8], delim: u8) -> bool {
        let strip = |l: &'_ [u8]| -> usize { l.len() - usize::from(l.last() == Some(&delim)) };
        let (a, b) = (self.field(&a[..strip(a)]), self.field(&b[..strip(b)]));
        if self.ignore_case {
            !a.eq_ignore_ascii_case(b)
        } else {
            a != b
        }
    }
}

/// `-f`/`-s`/`-w` values: a decimal count; too large clamps.
fn size_opt(v: &str) -> Option<usize> {
    let t = v.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(t.bytes().fold(0usize, |a, d| a.saturating_mul(10).saturating_add(usize::from(d - b'0'))))
}

/// Buffered output: stdout in chunks, or a file written at the end.
struct Sink {
    buf: Vec<u8>,
    to_file: bool,
}

impl Sink {
    async fn put(&mut self, ctx: &CommandContext<'_>, data: &[u8]) -> Result<(), IoError> {
        self.buf.extend_from_slice(data);
        if !self.to_file && self.buf.len() >= 8192 {
            ctx.out(&self.buf).await?;
            self.buf.clear();
        }
        Ok(())
    }
}

#[async_trait]
impl Utility for Uniq {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut cmp = Cmp { skip_fields: 0, skip_chars: 0, check_chars: usize::MAX, ignore_case: false };
        let (mut unique, mut first_rep, mut later_rep) = (true, true, false);
        let (mut count, mut delimit, mut group, mut zero) = (false, Sep::None, None::<Sep>, false);
        for o in &p.opts {
            let val = o.val.as_deref().unwrap_or("");
            if let Some(what) = match o.id {
                "f" => Some("fields to skip"),
                "s" => Some("bytes to skip"),
                "w" => Some("bytes to compare"),
                _ => None,
            } {
                let Some(n) = size_opt(val) else {
                    return Err(UError::new(1, format!("{val}: invalid number of {what}")));
                };
                match o.id {
                    "f" => cmp.skip_fields = n,
                    "s" => cmp.skip_chars = n,
                    _ => cmp.check_chars = n,
                }
                continue;
            }
            match o.id {
                "c" => count = true,
                "d" => unique = false,
                "D" => {
                    unique = false;
                    later_rep = true;
                    delimit = match o.val.as_deref() {
                        None | Some("none") => Sep::None,
                        Some("prepend") => Sep::Prepend,
                        Some("separate") => Sep::Separate,
                        Some(v) => {
                            return Err(UError::usage(1, bad_arg(v, "all-repeated", &["'none'", "'prepend'", "'separate'"])));
                        }
                    };
                }
                "group" => {
                    group = Some(match o.val.as_deref() {
                        None | Some("separate") => Sep::Separate,
                        Some("prepend") => Sep::Prepend,
                        Some("append") => Sep::Append,
                        Some("both") => Sep::Both,
                        Some(v) => {
                            let valid = ["'prepend'", "'append'", "'separate'", "'both'"];
                            return Err(UError::usage(1, bad_arg(v, "group", &valid)));
                        }
                    });
                }
                "i" => cmp.ignore_case = true,
                "u" => first_rep = false,
                _ => zero = true,
            };
        }
        if let Some(extra) = p.operands.get(2) {
            return Err(UError::usage(1, format!("extra operand {}", quote_locale(extra))));
        }
        if group.is_some() && (count || !unique || !first_rep || later_rep) {
            return Err(UError::usage(1, "--group is mutually exclusive with -c/-d/-D/-u"));
        }
        if count && later_rep {
            return Err(UError::usage(1, "printing all duplicated lines and repeat counts is meaningless"));
        }
        let input = p.operands.first().map_or("-", String::as_str);
        let output = p.operands.get(1).filter(|o| *o != "-");
        if let Some(o) = output {
            // GNU opens (and truncates) the output before reading.
            if let Err(e) = ctx.fs.write(&ctx.resolve(o), b"").await {
                return Err(UError::new(1, format!("{}: {e}", quotef(o))));
            }
        }
        let delim = if zero { 0 } else { b'\n' };
        let mut src = match ctx.open_lines(input, delim).await {
            Ok(s) => s,
            Err(e) if e == "Is a directory" => {
                return Err(UError::new(1, format!("error reading {}", quote(input))));
            }
            Err(e) => {
                return Err(UError::new(1, format!("{}: {e}", quotef(input))));
            }
        };
        let mut sink = Sink { buf: Vec::new(), to_file: output.is_some() };
        let fix = |mut l: Vec<u8>| {
            if l.last() != Some(&delim) {
                l.push(delim);
            }
            l
        };
        let sep = [delim];

        if unique && first_rep && !count {
            // Every group's first line (or, with --group, every line) right away.
            let group = group.unwrap_or(Sep::None);
            let mut prev: Option<Vec<u8>> = None;
            while let Some(line) = src.next_line(ctx).await {
                // Per line: the cheap turn counter (a full check every 1,024 lines).
                if !super::util::checkpoint_ok(ctx.budget) {
                    return Ok(1);
                }
                let line = fix(line);
                let new_group = prev.as_ref().is_none_or(|p| cmp.different(&line, p, delim));
                let printed = prev.is_some();
                if new_group
                    && (matches!(group, Sep::Prepend | Sep::Both)
                        || (printed && matches!(group, Sep::Append | Sep::Separate)))
                {
                    sink.put(ctx, &sep).await?;
                }
                if new_group || group != Sep::None {
                    sink.put(ctx, &line).await?;
                    prev = Some(line);
                }
            }
            if matches!(group, Sep::Both | Sep::Append) && prev.is_some() {
                sink.put(ctx, &sep).await?;
            }
        } else if let Some(first) = src.next_line(ctx).await {
            let mut prev = fix(first);
            let mut matches = 0u64;
            let mut first_delim = true;
            let write = |line: &[u8], is_match: bool, n: u64| -> Option<Vec<u8>> {
                let show = if n == 0 {
                    unique
                } else if !is_match {
                    first_rep
                } else {
                    later_rep
                };
                show.then(|| {
                    let mut v = if count { format!("{:7} ", n + 1).into_bytes() } else { Vec::new() };
                    v.extend_from_slice(line);
                    v
                })
            };
            while let Some(line) = src.next_line(ctx).await {
                // Per line: the cheap turn counter (a full check every 1,024 lines).
                if !super::util::checkpoint_ok(ctx.budget) {
                    return Ok(1);
                }
                let line = fix(line);
                let is_match = !cmp.different(&line, &prev, delim);
                matches += u64::from(is_match);
                if delimit != Sep::None {
                    if !is_match {
                        if matches > 0 {
                            first_delim = false;
                        }
                    } else if matches == 1 && (delimit == Sep::Prepend || (delimit == Sep::Separate && !first_delim)) {
                        sink.put(ctx, &sep).await?;
                    }
                }
                if !is_match || later_rep {
                    if let Some(out) = write(&prev, is_match, matches) {
                        sink.put(ctx, &out).await?;
                    }
                    prev = line;
                    if !is_match {
                        matches = 0;
                    }
                }
            }
            if let Some(out) = write(&prev, false, matches) {
                sink.put(ctx, &out).await?;
            }
        }
        match output {
            Some(o) => {
                if let Err(e) = ctx.fs.write(&ctx.resolve(o), &sink.buf).await {
                    return Err(UError::new(1, format!("{}: {e}", quotef(o))));
                }
            }
            None => ctx.out(&sink.buf).await?,
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    const IN: &str = "a\na\nb\nc\nc\nc\nd";

    #[test]
    fn modes() {
        check(&["uniq"], &[], IN, "a\nb\nc\nd\n", "", 0);
        check(&["uniq", "-c"], &[], IN, "      2 a\n      1 b\n      3 c\n      1 d\n", "", 0);
        check(&["uniq", "-d"], &[], IN, "a\nc\n", "", 0);
        check(&["uniq", "-u"], &[], IN, "b\nd\n", "", 0);
        check(&["uniq", "-D"], &[], IN, "a\na\nc\nc\nc\n", "", 0);
        check(&["uniq", "-u", "-D"], &[], IN, "a\nc\nc\n", "", 0);
        check(&["uniq", "-d", "-u"], &[], IN, "", "", 0);
        check(&["uniq", "-c", "-d"], &[], IN, "      2 a\n      3 c\n", "", 0);
        check(&["uniq", "--all-repeated=separate"], &[], IN, "a\na\n\nc\nc\nc\n", "", 0);
        check(&["uniq", "--all-repeated=prepend"], &[], IN, "\na\na\n\nc\nc\nc\n", "", 0);
        check(&["uniq", "--group"], &[], IN, "a\na\n\nb\n\nc\nc\nc\n\nd\n", "", 0);
        check(&["uniq", "--group=both"], &[], "a\na\nb\n", "\na\na\n\nb\n\n", "", 0);
        check(&["uniq", "--group=append"], &[], "a\na\nb\n", "a\na\n\nb\n\n", "", 0);
        check(&["uniq"], &[], "", "", "", 0);
        check(&["uniq", "-z"], &[], "a\0a\0b", "a\0b\0", "", 0);
    }

    #[test]
    fn comparing() {
        check(&["uniq", "-f1", "-c"], &[], "a b\nc b\nx  b\n", "      2 a b\n      1 x  b\n", "", 0);
        check(&["uniq", "-i", "-c"], &[], "ab\nAB\nAb\nac\n", "      3 ab\n      1 ac\n", "", 0);
        check(&["uniq", "-s1", "-w1", "-c"], &[], "xab\nyab\nyac\n", "      3 xab\n", "", 0);
    }

    #[test]
    fn files() {
        check(&["uniq", "f"], &[("f", "x\nx\n")], "", "x\n", "", 0);
        check(&["uniq", "-"], &[], "x\nx\n", "x\n", "", 0);
        check_tree(&["uniq", "f", "g"], &[("f", "x\nx\ny")], "", "", "", 0, "f\tx\\nx\\ny\ng\tx\\ny\\n\n");
        check(&["uniq", "nope"], &[], "", "", "uniq: nope: No such file or directory\n", 1);
        check(&["uniq", "d"], &[("d/", "")], "", "", "uniq: error reading 'd'\n", 1);
        check(&["uniq", "-", "/nope/x"], &[], "a\n", "", "uniq: /nope/x: No such file or directory\n", 1);
    }

    #[test]
    fn errors() {
        check(&["uniq", "-f", "x"], &[], "", "", "uniq: x: invalid number of fields to skip\n", 1);
        check(&["uniq", "-s", "x"], &[], "", "", "uniq: x: invalid number of bytes to skip\n", 1);
        check(&["uniq", "-w", "x"], &[], "", "", "uniq: x: invalid number of bytes to compare\n", 1);
        let t = "Try 'uniq --help' for more information.\n";
        check(&["uniq", "a", "b", "c"], &[], "", "", &format!("uniq: extra operand 'c'\n{t}"), 1);
        check(
            &["uniq", "-c", "-D"],
            &[],
            "",
            "",
            &format!("uniq: printing all duplicated lines and repeat counts is meaningless\n{t}"),
            1,
        );
        check(
            &["uniq", "--group", "-c"],
            &[],
            "",
            "",
            &format!("uniq: --group is mutually exclusive with -c/-d/-D/-u\n{t}"),
            1,
        );
        check(&["uniq", "-x"], &[], "", "", &format!("uniq: invalid option -- 'x'\n{t}"), 1);
        check(
            &["uniq", "--all-repeated=x"],
            &[],
            "",
            "",
            &format!("uniq: invalid argument 'x' for '--all-repeated'\nValid arguments are:\n  - 'none'\n  - 'prepend'\n  - 'separate'\n{t}"),
            1,
        );
    }
}
