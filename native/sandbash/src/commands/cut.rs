//! `cut`: select bytes (-b, and -c which GNU treats the same), or fields (-f)
//! split on -d, with GNU's list syntax (`1,3-5,-2,4-`), -s, --complement,
//! --output-delimiter and -z. Stdin is processed a line at a time.

use super::util::{quote, quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Cut;

const SPEC: Spec = Spec::new(
    "b:c:d:f:nsz",
    &[
        ("bytes", Arg::Yes, "b"),
        ("characters", Arg::Yes, "c"),
        ("delimiter", Arg::Yes, "d"),
        ("fields", Arg::Yes, "f"),
        ("only-delimited", Arg::No, "s"),
        ("zero-terminated", Arg::No, "z"),
        ("complement", Arg::No, "complement"),
        ("output-delimiter", Arg::Yes, "od"),
    ],
    "OPTION... [FILE]...",
);

/// Sorted, merged, 1-based inclusive ranges.
type Ranges = Vec<(u64, u64)>;

/// Parse a list as GNU's `set_fields`; `Err` is the message (a usage error).
fn parse_list(s: &str, fields: bool) -> Result<Ranges, String> {
    let from1 = if fields { "fields are numbered from 1" } else { "byte/character positions are numbered from 1" };
    let mut ranges = Vec::new();
    let (mut value, mut initial) = (0u64, 0u64);
    let (mut lhs, mut rhs, mut dash) = (false, false, false);
    let b = s.as_bytes();
    let mut num_start = 0;
    let mut in_digits = false;
    let mut i = 0;
    loop {
        let c = b.get(i).copied();
        match c {
            Some(b'-') => {
                in_digits = false;
                if dash {
                    return Err(if fields { "invalid field range" } else { "invalid byte or character range" }.into());
                }
                dash = true;
                if lhs && value == 0 {
                    return Err(from1.into());
                }
                initial = if lhs { value } else { 1 };
                value = 0;
            }
            None | Some(b',' | b' ' | b'\t') => {
                in_digits = false;
                if dash {
                    dash = false;
                    if !lhs && !rhs {
                        return Err("invalid range with no endpoint: -".into());
                    }
                    if !rhs {
                        ranges.push((initial, u64::MAX));
                    } else {
                        if value < initial {
                            return Err("invalid decreasing range".into());
                        }
                        ranges.push((initial, value));
                    }
                } else {
                    if value == 0 {
                        return Err(from1.into());
                    }
                    ranges.push((value, value));
                }
                value = 0;
                if c.is_none() {
                    break;
                }
                lhs = false;
                rhs = false;
            }
            Some(d) if d.is_ascii_digit() => {
                if !in_digits {
                    num_start = i;
                }
                in_digits = true;
                if dash {
                    rhs = true;
                } else {
                    lhs = true;
                }
                match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(d - b'0'))) {
                    Some(v) if v != u64::MAX => value = v,
                    _ => {
                        let len = b[num_start..].iter().take_while(|c| c.is_ascii_digit()).count();
                        let num = &s[num_start..num_start + len];
                        return Err(if fields {
                            format!("field number {} is too large", quote(num))
                        } else {
                            format!("byte/character offset {} is too large", quote(num))
                        });
                    }
                }
            }
            Some(_) => {
                let rest = String::from_utf8_lossy(&b[i..]).into_owned();
                return Err(if fields {
                    format!("invalid field value {}", quote_locale(&rest))
                } else {
                    format!("invalid byte/character position {}", quote_locale(&rest))
                });
            }
        }
        i += 1;
    }
    ranges.sort_unstable();
    let mut merged: Ranges = Vec::new();
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    Ok(merged)
}

/// The ranges not in `r` (for --complement).
fn complement(r: &Ranges) -> Ranges {
    let mut out = Vec::new();
    let mut next = 1u64;
    for &(lo, hi) in r {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
        if hi == u64::MAX {
            return out;
        }
    }
    out.push((next, u64::MAX));
    out
}

struct Cutter {
    ranges: Ranges,
    fields: bool,
    delim: u8,
    out_delim: Option<Vec<u8>>,
    only_delimited: bool,
    eol: u8,
}

impl Cutter {
    /// Cut one line (without its terminator) into `out`, terminator included.
    fn line(&self, line: &[u8], out: &mut Vec<u8>) {
        if self.fields {
            if !line.contains(&self.delim) {
                if !self.only_delimited {
                    out.extend_from_slice(line);
                    out.push(self.eol);
                }
                return;
            }
            let od: &[u8] = self.out_delim.as_deref().unwrap_or(std::slice::from_ref(&self.delim));
            let mut first = true;
            for (i, f) in line.split(|&b| b == self.delim).enumerate() {
                if self.selected(i as u64 + 1).is_some() {
                    if !first {
                        out.extend_from_slice(od);
                    }
                    first = false;
                    out.extend_from_slice(f);
                }
            }
        } else {
            let mut printed = false;
            for (i, &b) in line.iter().enumerate() {
                let pos = i as u64 + 1;
                if let Some(lo) = self.selected(pos) {
                    // The output delimiter goes between separate ranges.
                    if let Some(od) = &self.out_delim {
                        if printed && lo == pos {
                            out.extend_from_slice(od);
                        }
                    }
                    printed = true;
                    out.push(b);
                }
            }
        }
        out.push(self.eol);
    }

    /// The start of the range holding `pos`, if any.
    fn selected(&self, pos: u64) -> Option<u64> {
        self.ranges.iter().find(|(lo, hi)| *lo <= pos && pos <= *hi).map(|r| r.0)
    }
}

#[async_trait]
impl Utility for Cut {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        // Errors GNU reports while reading the options, in their order.
        let mut list: Option<&crate::commands::util::Opt> = None;
        for o in &p.opts {
            let err = match o.id {
                "b" | "c" | "f" if list.is_some() => "only one list may be specified",
                "b" | "c" | "f" => {
                    list = Some(o);
                    continue;
                }
                "d" if o.val.as_ref().is_some_and(|d| d.len() > 1) => "the delimiter must be a single character",
                _ => continue,
            };
            return Err(UError::usage(1, err));
        }
        let Some(list) = list else {
            return Err(UError::usage(1, "you must specify a list of bytes, characters, or fields"));
        };
        let fields = list.id == "f";
        let delim_opt = p.last("d");
        if delim_opt.is_some() && !fields {
            return Err(UError::usage(1, "an input delimiter may be specified only when operating on fields"));
        }
        if p.has("s") && !fields {
            return Err(UError::usage(1, "suppressing non-delimited lines makes sense\n\tonly when operating on fields"));
        }
        let mut ranges = match parse_list(list.val.as_deref().unwrap_or(""), fields) {
            Ok(r) => r,
            Err(m) => {
                return Err(UError::usage(1, m));
            }
        };
        if p.has("complement") {
            ranges = complement(&ranges);
        }
        let cutter = Cutter {
            ranges,
            fields,
            delim: delim_opt.map_or(b'\t', |d| d.as_bytes().first().copied().unwrap_or(0)),
            out_delim: p.last("od").map(|s| s.as_bytes().to_vec()),
            only_delimited: p.has("s"),
            eol: if p.has("z") { 0 } else { b'\n' },
        };
        let files: Vec<String> = if p.operands.is_empty() { vec!["-".into()] } else { p.operands.clone() };
        let mut status = 0;
        let mut out = Vec::new();
        for f in &files {
            let input = if f == "-" { Ok(ctx.stdin.clone()) } else { ctx.open_input(f).await };
            let input = match input {
                Ok(i) => i,
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                    continue;
                }
            };
            // Output goes out in batches, and before any wait for input.
            let mut lines = ctx.line_reader(input, cutter.eol);
            let mut n = 0u32;
            loop {
                if !lines.line_ready() && !out.is_empty() {
                    ctx.out(&out).await?;
                    out.clear();
                }
                let Some(line) = lines.next_line().await else { break };
                cutter.line(line.strip_suffix(&[cutter.eol]).unwrap_or(line), &mut out);
                n = n.wrapping_add(1);
                if out.len() >= 64 * 1024 {
                    ctx.out(&out).await?;
                    out.clear();
                }
                if n.is_multiple_of(1024) && !ctx.still_running() {
                    break;
                }
            }
            if lines.too_long {
                ctx.budget.input_exceeded();
            }
            ctx.out(&out).await?;
            out.clear();
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    const F: (&str, &str) = ("f", "a:b:c:d\nno delim\n1:2\n");

    fn ok(args: &[&str], out: &str) {
        let mut argv = vec!["cut"];
        argv.extend_from_slice(args);
        argv.push("f");
        check(&argv, &[F], "", out, "", 0);
    }
    fn usage(args: &[&str], msg: &str) {
        let mut argv = vec!["cut"];
        argv.extend_from_slice(args);
        check(&argv, &[F], "", "", &format!("cut: {msg}\nTry 'cut --help' for more information.\n"), 1);
    }

    #[test]
    fn fields() {
        ok(&["-d:", "-f2"], "b\nno delim\n2\n");
        ok(&["-d:", "-f1,3-"], "a:c:d\nno delim\n1\n");
        ok(&["-d:", "-f-2"], "a:b\nno delim\n1:2\n");
        ok(&["-s", "-d:", "-f2"], "b\n2\n");
        ok(&["-d:", "--complement", "-f2"], "a:c:d\nno delim\n1\n");
        ok(&["-d:", "-f1,3", "--output-delimiter=XX"], "aXXc\nno delim\n1\n");
        ok(&["-f", "1 2", "-d:"], "a:b\nno delim\n1:2\n");
        ok(&["-f", "3-5", "-d:"], "c:d\nno delim\n\n");
        ok(&["-f1"], "a:b:c:d\nno delim\n1:2\n");
        check(&["cut", "-f2"], &[], "x\ty\n", "y\n", "", 0);
        check(&["cut", "-d:", "-f1"], &[], "a:b", "a\n", "", 0);
        check(&["cut", "-z", "-d:", "-f2"], &[], "a:b\0c:d\0", "b\0d\0", "", 0);
        check(&["cut", "-d:", "-f", "1", "-"], &[], "", "", "", 0);
    }

    #[test]
    fn bytes() {
        ok(&["-b2-4"], ":b:\no d\n:2\n");
        ok(&["-c1,3"], "ab\nn \n12\n");
        ok(&["-b", "3,1"], "ab\nn \n12\n");
        ok(&["-b1-2,4-", "--output-delimiter=_"], "a:_:c:d\nno_delim\n1:\n");
        ok(&["-b", "1-"], "a:b:c:d\nno delim\n1:2\n");
        check(&["cut", "-b1,2,4", "--output-delimiter=_"], &[], "abcdef\n", "a_b_d\n", "", 0);
        check(&["cut", "-b1-3,2-5", "--output-delimiter=_"], &[], "abcdef\n", "abcde\n", "", 0);
        check(&["cut", "-b5-,1-2", "--output-delimiter=_"], &[], "abcdef\n", "ab_ef\n", "", 0);
        check(&["cut", "-d:", "-f1,1,2"], &[], "a:b:c\n", "a:b\n", "", 0);
    }

    #[test]
    fn errors() {
        usage(&["f"], "you must specify a list of bytes, characters, or fields");
        usage(&["-d:", "f"], "you must specify a list of bytes, characters, or fields");
        usage(&["-b1", "-f1", "f"], "only one list may be specified");
        usage(&["-f0", "f"], "fields are numbered from 1");
        usage(&["-f", "", "f"], "fields are numbered from 1");
        usage(&["-f", "1,,2", "f"], "fields are numbered from 1");
        usage(&["-f2-1", "f"], "invalid decreasing range");
        usage(&["-fx", "f"], "invalid field value 'x'");
        usage(&["-c1x", "f"], "invalid byte/character position 'x'");
        usage(&["-d:", "-b1", "f"], "an input delimiter may be specified only when operating on fields");
        usage(&["-b0", "f"], "byte/character positions are numbered from 1");
        usage(&["-c0-", "f"], "byte/character positions are numbered from 1");
        usage(&["-b", "-", "f"], "invalid range with no endpoint: -");
        usage(&["-s", "-b1", "f"], "suppressing non-delimited lines makes sense\n\tonly when operating on fields");
        usage(&["-d", "ab", "-f1", "f"], "the delimiter must be a single character");
        check(
            &["cut", "-f1", "nope", "f"],
            &[F],
            "",
            "a:b:c:d\nno delim\n1:2\n",
            "cut: nope: No such file or directory\n",
            1,
        );
    }
}
