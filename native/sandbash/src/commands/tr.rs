//! `tr`: translate, delete (-d) or squeeze (-s) bytes, with ranges, classes,
//! `[c*n]` repeats, `[=c=]`, escapes, -c/-C complement and -t. Works on
//! bytes (GNU tr has no multibyte support) and streams its input.

use super::util::{quote, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Tr;

const SPEC: Spec = Spec::new(
    "cCdst",
    &[
        ("complement", Arg::No, "c"),
        ("delete", Arg::No, "d"),
        ("squeeze-repeats", Arg::No, "s"),
        ("truncate-set1", Arg::No, "t"),
    ],
    "[OPTION]... STRING1 [STRING2]",
);

/// One parsed element of a set.
#[derive(Clone, Debug, PartialEq)]
enum Elem {
    Byte(u8),
    Range(u8, u8),
    Class(&'static str),
    Equiv(u8),
    /// `[c*n]`; `None` = fill up to set1's length.
    Repeat(u8, Option<usize>),
}

const CLASSES: [&str; 12] =
    ["alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"];

fn class_has(name: &str, b: u8) -> bool {
    match name {
        "alnum" => b.is_ascii_alphanumeric(),
        "alpha" => b.is_ascii_alphabetic(),
        "blank" => b == b' ' || b == b'\t',
        "cntrl" => b.is_ascii_control(),
        "digit" => b.is_ascii_digit(),
        "graph" => b.is_ascii_graphic(),
        "lower" => b.is_ascii_lowercase(),
        "print" => b.is_ascii_graphic() || b == b' ',
        "punct" => b.is_ascii_punctuation(),
        "space" => matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        "upper" => b.is_ascii_uppercase(),
        _ => b.is_ascii_hexdigit(),
    }
}

/// Resolve backslash escapes: each byte with whether it was escaped, plus
/// GNU's warnings.
fn unescape(s: &[u8], warnings: &mut Vec<String>) -> Vec<(u8, bool)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            out.push((s[i], false));
            i += 1;
            continue;
        }
        let Some(&c) = s.get(i + 1) else {
            warnings.push("warning: an unescaped backslash at end of string is not portable".into());
            out.push((b'\\', true));
            break;
        };
        i += 2;
        let b = match c {
            b'a' => 7,
            b'b' => 8,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 0x0b,
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && s.get(i).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                    let next = v * 8 + u32::from(s[i] - b'0');
                    if next > 255 {
                        let (d1, d2, d3) = (c as char, s[i - 1] as char, s[i] as char);
                        warnings.push(format!(
                            "warning: the ambiguous octal escape \\{d1}{d2}{d3} is being\n\tinterpreted as the 2-byte sequence \\0{d1}{d2}, {d3}"
                        ));
                        break;
                    }
                    v = next;
                    i += 1;
                    n += 1;
                }
                v as u8
            }
            other => other,
        };
        out.push((b, true));
    }
    out
}

/// Parse a set into elements. `Err` is the message after `tr: `.
fn parse_set(s: &[u8], warnings: &mut Vec<String>) -> Result<Vec<Elem>, String> {
    let e = unescape(s, warnings);
    let plain = |i: usize, c: u8| e.get(i).is_some_and(|&(b, esc)| b == c && !esc);
    let mut out = Vec::new();
    let mut i = 0;
    while i < e.len() {
        if plain(i, b'[') && (plain(i + 1, b':') || plain(i + 1, b'=')) {
            let delim = e[i + 1].0;
            // Find the closing `:]` / `=]`.
            let close = (i + 2..e.len().saturating_sub(1)).find(|&j| plain(j, delim) && plain(j + 1, b']'));
            if let Some(j) = close {
                let inner: Vec<u8> = e[i + 2..j].iter().map(|p| p.0).collect();
                let name = String::from_utf8_lossy(&inner).into_owned();
                if delim == b':' {
                    match CLASSES.iter().find(|c| **c == name) {
                        Some(c) => out.push(Elem::Class(c)),
                        None => return Err(format!("invalid character class {}", quote_locale(&name))),
                    }
                } else if inner.len() == 1 {
                    out.push(Elem::Equiv(inner[0]));
                } else {
                    return Err(format!("{name}: equivalence class operand must be a single character"));
                }
                i = j + 2;
                continue;
            }
        }
        if plain(i, b'[') && i + 2 < e.len() && plain(i + 2, b'*') {
            if let Some(j) = (i + 3..e.len()).find(|&j| plain(j, b']')) {
                let digits: String = e[i + 3..j].iter().map(|p| p.0 as char).collect();
                let count = if digits.is_empty() {
                    None
                } else {
                    let radix = if digits.starts_with('0') { 8 } else { 10 };
                    match usize::from_str_radix(&digits, radix) {
                        Ok(0) => None,
                        Ok(n) => Some(n),
                        Err(_) => {
                            return Err(format!("invalid repeat count {} in [c*n] construct", quote_locale(&digits)))
                        }
                    }
                };
                out.push(Elem::Repeat(e[i + 1].0, count));
                i = j + 1;
                continue;
            }
        }
        if plain(i + 1, b'-') && i + 2 < e.len() {
            let (a, b) = (e[i].0, e[i + 2].0);
            if a > b {
                let text =
                    |x: u8| if e[i].1 || x.is_ascii_graphic() { (x as char).to_string() } else { format!("\\{x:03o}") };
                return Err(format!(
                    "range-endpoints of {} are in reverse collating sequence order",
                    quote(&format!("{}-{}", text(a), text(b)))
                ));
            }
            out.push(Elem::Range(a, b));
            i += 3;
            continue;
        }
        out.push(Elem::Byte(e[i].0));
        i += 1;
    }
    Ok(out)
}

/// Expand elements into bytes; `fill` is the length a `[c*]` pads up to.
/// Also returns the start index of each upper/lower class (for alignment).
fn expand(elems: &[Elem], fill: usize) -> (Vec<u8>, Vec<(usize, &'static str)>) {
    let fixed: usize = elems
        .iter()
        .map(|e| match e {
            Elem::Byte(_) | Elem::Equiv(_) => 1,
            Elem::Range(a, b) => usize::from(b - a) + 1,
            Elem::Class(c) => (0..=255u8).filter(|&b| class_has(c, b)).count(),
            Elem::Repeat(_, n) => n.unwrap_or(0),
        })
        .sum();
    let mut out = Vec::new();
    let mut case = Vec::new();
    for e in elems {
        match *e {
            Elem::Byte(b) | Elem::Equiv(b) => out.push(b),
            Elem::Range(a, b) => out.extend(a..=b),
            Elem::Class(c) => {
                if c == "upper" || c == "lower" {
                    case.push((out.len(), c));
                }
                out.extend((0..=255u8).filter(|&b| class_has(c, b)));
            }
            Elem::Repeat(b, Some(n)) => out.extend(std::iter::repeat_n(b, n.min(1 << 20))),
            Elem::Repeat(b, None) => out.extend(std::iter::repeat_n(b, fill.saturating_sub(fixed))),
        }
    }
    (out, case)
}

#[async_trait]
impl Utility for Tr {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let (complement, delete, squeeze, truncate) = (p.has("c") || p.has("C"), p.has("d"), p.has("s"), p.has("t"));
        let ops = &p.operands;
        let translating = !delete && ops.len() >= 2;
        let needs_two = (delete && squeeze) || (!delete && !squeeze);
        let max_ops = if delete && !squeeze { 1 } else { 2 };
        if ops.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        if ops.len() == 1 && needs_two {
            let why = if delete {
                "Two strings must be given when both deleting and squeezing repeats."
            } else {
                "Two strings must be given when translating."
            };
            return Err(UError::usage(1, format!("missing operand after {}\n{why}", quote_locale(&ops[0]))));
        }
        if ops.len() > max_ops {
            let mut msg = format!("extra operand {}", quote_locale(&ops[max_ops]));
            if max_ops == 1 {
                msg.push_str("\nOnly one string may be given when deleting without squeezing repeats.");
            }
            return Err(UError::usage(1, msg));
        }

        let mut warnings = Vec::new();
        let set1 = parse_set(ops[0].as_bytes(), &mut warnings);
        let set2 = ops.get(1).map(|s| parse_set(s.as_bytes(), &mut warnings));
        for w in &warnings {
            ctx.err(w).await?;
        }
        let tables = set1.and_then(|s1| build(&s1, set2.transpose()?.as_deref(), complement, truncate, translating));
        let t = match tables {
            Ok(t) => t,
            Err(m) => {
                return Err(UError::new(1, m));
            }
        };
        // With -d only set1 deletes; with -s the last given set squeezes.
        let del = if delete { t.set1 } else { [false; 256] };
        let sq = if !squeeze {
            [false; 256]
        } else if ops.len() == 2 {
            t.set2
        } else {
            t.set1
        };
        let mut last: Option<u8> = None;
        let mut out = Vec::new();
        while let Some(chunk) = ctx.stdin.read_chunk().await {
            out.clear();
            for &b in chunk.iter() {
                if del[usize::from(b)] {
                    continue;
                }
                let o = t.map[usize::from(b)];
                if sq[usize::from(o)] && last == Some(o) {
                    continue;
                }
                last = Some(o);
                out.push(o);
            }
            ctx.out(&out).await?;
            if !ctx.still_running() {
                break;
            }
        }
        Ok(0)
    }
}

struct Tables {
    map: [u8; 256],
    set1: [bool; 256],
    set2: [bool; 256],
}

/// Membership tables and the translation map for the parsed sets.
fn build(
    s1: &[Elem],
    s2: Option<&[Elem]>,
    complement: bool,
    truncate: bool,
    translating: bool,
) -> Result<Tables, String> {
    if s1.iter().any(|e| matches!(e, Elem::Repeat(_, None))) {
        return Err("the [c*] repeat construct may not appear in string1".into());
    }
    let (mut b1, case1) = expand(s1, 0);
    let mut set1 = [false; 256];
    for &b in &b1 {
        set1[usize::from(b)] = true;
    }
    if complement {
        set1 = std::array::from_fn(|i| !set1[i]);
        b1 = (0..=255u8).filter(|&b| set1[usize::from(b)]).collect();
    }
    let mut map: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut set2 = [false; 256];
    if let Some(s2) = s2 {
        if translating {
            if s2.iter().any(|e| matches!(e, Elem::Equiv(_))) {
                return Err("[=c=] expressions may not appear in string2 when translating".into());
            }
            if s2.iter().any(|e| matches!(e, Elem::Class(c) if *c != "upper" && *c != "lower")) {
                return Err(
                    "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'"
                        .into(),
                );
            }
        }
        let (mut b2, case2) = expand(s2, b1.len());
        for &b in &b2 {
            set2[usize::from(b)] = true;
        }
        if translating {
            if case2.iter().any(|(pos, _)| !case1.iter().any(|(p1, _)| p1 == pos)) || (complement && !case2.is_empty())
            {
                return Err("misaligned [:upper:] and/or [:lower:] construct".into());
            }
            if truncate {
                b1.truncate(b2.len());
            } else if b2.is_empty() && !b1.is_empty() {
                return Err("when not truncating set1, string2 must be non-empty".into());
            }
            if let Some(&last) = b2.last() {
                b2.resize(b1.len().max(b2.len()), last);
            }
            for (&from, &to) in b1.iter().zip(&b2) {
                map[usize::from(from)] = to;
            }
        }
    }
    Ok(Tables { map, set1, set2 })
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    fn ok(args: &[&str], input: &str, out: &str) {
        let mut argv = vec!["tr"];
        argv.extend_from_slice(args);
        check(&argv, &[], input, out, "", 0);
    }
    fn fails(args: &[&str], err: &str) {
        let mut argv = vec!["tr"];
        argv.extend_from_slice(args);
        check(&argv, &[], "x", "", err, 1);
    }

    #[test]
    fn translate() {
        ok(&["a-z", "A-Z"], "hello", "HELLO");
        ok(&["abc", "x"], "abcdef", "xxxdef");
        ok(&["-t", "abc", "x"], "abcdef", "xbcdef");
        ok(&["hello", "a-z"], "", "");
        ok(&["a-z", "A-C"], "hello", "CCCCC");
        ok(&["[:digit:]", "[x*]"], "a1b2", "axbx");
        ok(&["a-c", "[x*2]y"], "abc", "xxy");
        ok(&["[a*3]", "x"], "abc", "xbc");
        ok(&["a-c", "[x*010]"], "abc", "xxx");
        ok(&["\\\\", "x"], "a\\b", "axb");
        ok(&["a-", "xy"], "a-b", "xyb");
        ok(&["\\t\\n", "_"], "tab\tx", "tab_x");
        ok(&["\\141", "z"], "abc", "zbc");
        ok(&["[:upper:][:lower:]", "[:lower:][:upper:]"], "Hello", "hELLO");
        ok(&["[:lower:]", "[:upper:]x"], "ab", "AB");
        ok(&["[=l=]", "L"], "hello", "heLLo");
        ok(&["[b]", "xyz"], "a[b]c", "axyzc");
        ok(&["[:alpha", "x"], "abc", "xbc");
        ok(&["[:space:]", "\\n"], "a b", "a\nb");
        ok(&["-C", "b", "z"], "abc", "zbz");
        ok(&["-c", "a-z", "*"], "hello", "hello");
        ok(&["-c", "a", "\\n"], "aXb", "a\n\n");
        ok(&["", "x"], "abc", "abc");
    }

    #[test]
    fn delete_and_squeeze() {
        ok(&["-d", "lo"], "hello world", "he wrd");
        ok(&["-s", "a-c "], "aabbccdd  ee", "abcdd ee");
        ok(&["-cd", "a-z"], "hello\n", "hello");
        ok(&["-s", "a-z", "A-Z"], "aaa bbb", "A B");
        ok(&["-ds", "a", "c-d"], "abcdd", "bcd");
        ok(&["-s", "lo"], "hello world", "helo world");
        ok(&["-s", "[:lower:]", "[:upper:]"], "aabb", "AB");
        ok(&["--delete", "--complement", "0-9"], "a1b2\n", "12");
    }

    #[test]
    fn errors() {
        let try_ = "Try 'tr --help' for more information.\n";
        fails(&[], &format!("tr: missing operand\n{try_}"));
        fails(&["a"], &format!("tr: missing operand after 'a'\nTwo strings must be given when translating.\n{try_}"));
        fails(
            &["-d", "a", "b"],
            &format!(
                "tr: extra operand 'b'\nOnly one string may be given when deleting without squeezing repeats.\n{try_}"
            ),
        );
        fails(&["a", "b", "c"], &format!("tr: extra operand 'c'\n{try_}"));
        fails(
            &["-ds", "a"],
            &format!("tr: missing operand after 'a'\nTwo strings must be given when both deleting and squeezing repeats.\n{try_}"),
        );
        fails(&["a", ""], "tr: when not truncating set1, string2 must be non-empty\n");
        fails(&["z-a", "b"], "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n");
        fails(&["[:foo:]", "a"], "tr: invalid character class 'foo'\n");
        fails(
            &["a", "[:digit:]"],
            "tr: when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'\n",
        );
        fails(&["[a*]", "b"], "tr: the [c*] repeat construct may not appear in string1\n");
        fails(&["a", "[b*1x]"], "tr: invalid repeat count '1x' in [c*n] construct\n");
        fails(&["a", "[=b=]"], "tr: [=c=] expressions may not appear in string2 when translating\n");
        fails(&["[=bc=]", "x"], "tr: bc: equivalence class operand must be a single character\n");
        fails(&["a", "[:upper:]"], "tr: misaligned [:upper:] and/or [:lower:] construct\n");
        fails(&["-x"], &format!("tr: invalid option -- 'x'\n{try_}"));
        check(
            &["tr", "a\\", "x"],
            &[],
            "abc",
            "xbc",
            "tr: warning: an unescaped backslash at end of string is not portable\n",
            0,
        );
        check(
            &["tr", "\\400", "a"],
            &[],
            "x",
            "x",
            "tr: warning: the ambiguous octal escape \\400 is being\n\tinterpreted as the 2-byte sequence \\040, 0\n",
            0,
        );
    }
}
