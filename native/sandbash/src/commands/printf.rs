//! `printf`: bash 5.2's builtin formatting (the shell's `printf` builtin
//! dispatches here and handles `-v` itself). The formatter is the pure
//! function [`format`]; the command only parses `--` and prints.

use super::util::ldouble::{self, LD};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Printf;

const USAGE: &str = "printf: usage: printf [-v var] format [arguments]\n";
/// Widths and precisions are C ints; past this they are clamped. Whether one
/// fits is decided against the output limit (see [`format`]'s `max_out`).
const MAX_FIELD: usize = i32::MAX as usize;

#[async_trait]
impl Command for Printf {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let mut args = ctx.args;
        if let Some(a) = args.first() {
            if a == "--" {
                args = &args[1..];
            } else if a.len() > 1 && a.starts_with('-') {
                let opt: String = a.chars().take(2).collect();
                ctx.builtin_err(format!("{opt}: invalid option")).await?;
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(2);
            }
        }
        let Some((fmt, rest)) = args.split_first() else {
            ctx.stderr.write(USAGE.as_bytes()).await?;
            return Ok(2);
        };
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        // Output past the limit would be refused anyway; stop building it there.
        let limits = &ctx.budget.limits;
        let max_out = usize::try_from(limits.max_output_bytes.max(limits.max_string_bytes)).unwrap_or(usize::MAX);
        // `%(fmt)T` shows times in `TZ`'s zone.
        let zone = crate::commands::date::parse::Zone::from_tz(ctx.env.get("TZ").as_deref());
        let r = format_in(&crate::raw_bytes::encode(fmt), rest, now, Some(&zone), max_out);
        if r.overflow {
            return Err(crate::io::IoError::OutputLimit(limits.max_output_bytes));
        }
        // bash reports each bad argument as it formats it; its stdout is
        // line-buffered, so the complete lines made before an error come first.
        let mut written = 0;
        for (e, &at) in r.errors.iter().zip(&r.error_at) {
            let flushed = r.out[..at.min(r.out.len())].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            if flushed > written {
                ctx.out(&r.out[written..flushed]).await?;
                written = flushed;
            }
            ctx.builtin_err(e).await?;
        }
        ctx.out(&r.out[written..]).await?;
        Ok(r.status)
    }
}

/// What formatting produced: the bytes, the error messages (without the
/// `bash: line N: printf: ` prefix) and the exit status.
#[derive(Debug, Default)]
pub struct Formatted {
    pub out: Vec<u8>,
    pub errors: Vec<String>,
    /// How much of `out` was made when each error was reported.
    pub error_at: Vec<usize>,
    pub status: i32,
    /// The output would pass `max_out` bytes (`printf '%*s' 2000000000 x`):
    /// formatting stopped there.
    pub overflow: bool,
}

/// The arguments being consumed, with the number-conversion errors.
struct Args<'a> {
    list: &'a [String],
    pos: usize,
    errors: Vec<String>,
    conversion_error: bool,
}

impl<'a> Args<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let a = self.list.get(self.pos)?;
        self.pos += 1;
        Some(a)
    }
    fn str(&mut self) -> &'a str {
        self.next().unwrap_or("")
    }
    fn check(&mut self, arg: &str, used: usize, range: bool) {
        if used != arg.len() {
            // bash's sh_invalidnum looks only at the argument's first bytes.
            let b = arg.as_bytes();
            let what = match (b.first(), b.get(1)) {
                (Some(b'0'), Some(d)) if d.is_ascii_digit() => "invalid octal number",
                (Some(b'0'), Some(b'x')) => "invalid hex number",
                _ => "invalid number",
            };
            self.errors.push(format!("{arg}: {what}"));
            self.conversion_error = true;
        } else if range {
            self.errors.push(format!("warning: {arg}: Numerical result out of range"));
        }
    }
    /// `getintmax`: strtoimax with base detection, `'c` for a character code.
    fn int(&mut self) -> i64 {
        let Some(a) = self.next() else { return 0 };
        if let Some(c) = char_code(a) {
            return c;
        }
        let (v, used, over) = strtox(a.as_bytes());
        let clamped = v.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
        self.check(a, used, over || clamped != v);
        clamped as i64
    }
    /// `getuintmax`: strtoumax (negative values wrap).
    fn uint(&mut self) -> u64 {
        let Some(a) = self.next() else { return 0 };
        if let Some(c) = char_code(a) {
            return c as u64;
        }
        let (v, used, over) = strtox(a.as_bytes());
        let over = over || v.unsigned_abs() > u128::from(u64::MAX);
        self.check(a, used, over);
        if over {
            u64::MAX
        } else if v < 0 {
            (v.unsigned_abs() as u64).wrapping_neg()
        } else {
            v as u64
        }
    }
    /// `getint` for `*` widths: clamped to the C int range.
    fn width(&mut self) -> i64 {
        let had = self.pos < self.list.len();
        let v = self.int();
        if had && (v > i64::from(i32::MAX) || v < i64::from(i32::MIN)) {
            let a = &self.list[self.pos - 1];
            self.errors.push(format!("warning: {a}: Numerical result out of range"));
            return v.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
        }
        v
    }
    /// `getfloatmax`: strtold.
    fn float(&mut self) -> LD {
        let Some(a) = self.next() else { return LD::zero(false) };
        if let Some(c) = char_code(a) {
            return ldouble::parse(c.to_string().as_bytes()).0;
        }
        let (v, used, range) = ldouble::parse(a.as_bytes());
        self.check(a, used, range);
        v
    }
}

/// `'c` or `"c`: the code of the character after the quote (0 when none).
fn char_code(a: &str) -> Option<i64> {
    let rest = a.strip_prefix(['\'', '"'])?;
    Some(rest.chars().next().map_or(0, |c| i64::from(u32::from(c))))
}

/// strtoimax/strtoumax with base 0: value (as i128, saturated), bytes used
/// (0 when there is no number) and overflow.
fn strtox(s: &[u8]) -> (i128, usize, bool) {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let mut base = 10;
    if s.get(i) == Some(&b'0') {
        if matches!(s.get(i + 1), Some(b'x' | b'X')) && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
            base = 16;
            i += 2;
        } else {
            base = 8;
        }
    }
    let start = i;
    let mut v: u128 = 0;
    let mut over = false;
    while let Some(d) = s.get(i).and_then(|&c| (c as char).to_digit(base)) {
        v = v * u128::from(base) + u128::from(d);
        if v > u128::from(u64::MAX) + 1 {
            over = true;
            v = u128::from(u64::MAX) + 1;
        }
        i += 1;
    }
    if i == start {
        return (0, 0, false);
    }
    let v = v as i128;
    (if neg { -v } else { v }, i, over)
}

/// Flags, width and precision of one conversion.
#[derive(Default, Clone, Copy)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

impl Spec {
    /// Pad `sign + prefix + body` to the width; zeros go after the prefix.
    fn pad(&self, out: &mut Vec<u8>, sign: &str, prefix: &str, body: &[u8], zero_ok: bool) {
        let len = sign.len() + prefix.len() + body.len();
        let fill = self.width.saturating_sub(len);
        if self.minus {
            out.extend_from_slice(sign.as_bytes());
            out.extend_from_slice(prefix.as_bytes());
            out.extend_from_slice(body);
            out.resize(out.len() + fill, b' ');
        } else if self.zero && zero_ok {
            out.extend_from_slice(sign.as_bytes());
            out.extend_from_slice(prefix.as_bytes());
            out.resize(out.len() + fill, b'0');
            out.extend_from_slice(body);
        } else {
            out.resize(out.len() + fill, b' ');
            out.extend_from_slice(sign.as_bytes());
            out.extend_from_slice(prefix.as_bytes());
            out.extend_from_slice(body);
        }
    }
    /// A string conversion: precision cuts bytes, width pads with spaces.
    fn string(&self, out: &mut Vec<u8>, s: &[u8]) {
        let s = match self.prec {
            Some(p) if p < s.len() => &s[..p],
            _ => s,
        };
        self.pad(out, "", "", s, false);
    }
    fn sign(&self, neg: bool) -> &'static str {
        if neg {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }
    /// Integer digits with the precision's minimum digit count.
    fn digits(&self, s: String, zero: bool) -> String {
        match self.prec {
            Some(0) if zero => String::new(),
            Some(p) if p > s.len() => "0".repeat(p - s.len()) + &s,
            _ => s,
        }
    }
}

/// Format `fmt` with `args` as bash's `printf` does, reusing the format
/// while arguments remain. `now` is the time `%(fmt)T` shows for -1 / -2.
/// Output that would pass `max_out` bytes is not built: `overflow` says so.
pub fn format(fmt: &[u8], args: &[String], now: i64, max_out: usize) -> Formatted {
    format_in(fmt, args, now, None, max_out)
}

/// [`format`] with `%(fmt)T` in `zone` (UTC without one).
pub fn format_in(
    fmt: &[u8],
    args: &[String],
    now: i64,
    zone: Option<&crate::commands::date::parse::Zone>,
    max_out: usize,
) -> Formatted {
    let mut a = Args { list: args, pos: 0, errors: Vec::new(), conversion_error: false };
    let mut out = Vec::new();
    let mut status = 0;
    let mut overflow = false;
    // Where in `out` each error was reported (see `Formatted::error_at`).
    let mut error_at = Vec::new();
    let mut step_start = 0;
    'outer: loop {
        if out.len() > max_out {
            overflow = true;
            break;
        }
        let start_pos = a.pos;
        let mut i = 0;
        while i < fmt.len() {
            // Errors the last step made came before its output.
            error_at.resize(a.errors.len(), step_start);
            step_start = out.len();
            let c = fmt[i];
            if c == b'\\' {
                let (bytes, used, _) = escape(&fmt[i + 1..], false, &mut a.errors);
                out.extend_from_slice(&bytes);
                i += 1 + used;
                continue;
            }
            if c != b'%' {
                out.push(c);
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            if fmt.get(i) == Some(&b'%') {
                out.push(b'%');
                i += 1;
                continue;
            }
            let mut sp = Spec::default();
            while let Some(&f) = fmt.get(i) {
                match f {
                    b'#' => sp.alt = true,
                    b'-' => sp.minus = true,
                    b'+' => sp.plus = true,
                    b' ' => sp.space = true,
                    b'0' => sp.zero = true,
                    b'\'' => {}
                    _ => break,
                }
                i += 1;
            }
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let w = a.width();
                if w < 0 {
                    sp.minus = true;
                }
                sp.width = (w.unsigned_abs() as usize).min(MAX_FIELD);
            } else {
                sp.width = number(fmt, &mut i);
            }
            if fmt.get(i) == Some(&b'.') {
                i += 1;
                if fmt.get(i) == Some(&b'*') {
                    i += 1;
                    let p = a.width();
                    sp.prec = (p >= 0).then_some((p as usize).min(MAX_FIELD));
                } else {
                    let negative = fmt.get(i) == Some(&b'-');
                    if negative {
                        i += 1;
                    }
                    let p = number(fmt, &mut i);
                    sp.prec = (!negative).then_some(p);
                }
            }
            while fmt.get(i).is_some_and(|c| b"hjlLtz".contains(c)) {
                i += 1;
            }
            if sp.width.max(sp.prec.unwrap_or(0)) > max_out.saturating_sub(out.len()) {
                overflow = true;
                break 'outer;
            }
            let Some(&conv) = fmt.get(i) else {
                let spec = String::from_utf8_lossy(&fmt[start..]);
                a.errors.push(format!("`{spec}': missing format character"));
                status = 1;
                break 'outer;
            };
            i += 1;
            match conv {
                b'c' => {
                    let b = a.next().and_then(|s| crate::raw_bytes::encode(s).first().copied()).unwrap_or(0);
                    sp.prec = None;
                    sp.string(&mut out, &[b]);
                }
                b's' => sp.string(&mut out, &crate::raw_bytes::encode(a.str())),
                b'b' => {
                    let (bytes, stop) = bexpand(&crate::raw_bytes::encode(a.str()), &mut a.errors);
                    sp.string(&mut out, &bytes);
                    if stop {
                        break 'outer;
                    }
                }
                b'q' | b'Q' => {
                    let mut s = a.str();
                    if conv == b'Q' {
                        if let Some(p) = sp.prec.take() {
                            let mut p = p.min(s.len());
                            while !s.is_char_boundary(p) {
                                p -= 1;
                            }
                            s = &s[..p];
                        }
                    }
                    sp.string(&mut out, &shell_quote(s));
                }
                b'(' => {
                    // `%(fmt)T`: the time format runs to the matching paren.
                    let mut depth = 1;
                    let mut j = i;
                    while j < fmt.len() {
                        match fmt[j] {
                            b'(' => depth += 1,
                            b')' => depth -= 1,
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                        j += 1;
                    }
                    let tfmt = &fmt[i..j.min(fmt.len())];
                    if fmt.get(j + 1) != Some(&b'T') {
                        let bad = fmt.get(j + 1).map(|&b| b as char).map(String::from).unwrap_or_default();
                        a.errors.push(format!("warning: `{bad}': invalid time format specification"));
                        out.push(b'%');
                        i = start + 1;
                        continue;
                    }
                    i = j + 2;
                    let secs = match if a.pos < a.list.len() { a.int() } else { -1 } {
                        -1 | -2 => now,
                        s => s,
                    };
                    let tfmt: &[u8] = if tfmt.is_empty() { b"%X" } else { tfmt };
                    let mut t = match zone {
                        Some(z) => {
                            let (offset, abbr) = z.info(secs);
                            let w = super::util::strftime::When { secs, nanos: 0, offset, abbr: &abbr };
                            super::util::strftime::strftime_at(tfmt, &w)
                        }
                        None => super::util::strftime::strftime(tfmt, secs),
                    };
                    // bash formats into a 128-byte buffer; longer results are empty.
                    if t.len() >= 128 {
                        t.clear();
                    }
                    sp.string(&mut out, &t);
                }
                b'n' => {
                    a.next();
                }
                b'd' | b'i' => {
                    let v = a.int();
                    let body = sp.digits(v.unsigned_abs().to_string(), v == 0);
                    let zero_ok = sp.prec.is_none();
                    sp.pad(&mut out, sp.sign(v < 0), "", body.as_bytes(), zero_ok);
                }
                b'o' | b'u' | b'x' | b'X' => {
                    let v = a.uint();
                    let s = match conv {
                        b'o' => format!("{v:o}"),
                        b'u' => v.to_string(),
                        b'x' => format!("{v:x}"),
                        _ => format!("{v:X}"),
                    };
                    let mut body = sp.digits(s, v == 0);
                    let mut prefix = "";
                    if sp.alt && conv == b'o' && !body.starts_with('0') {
                        body.insert(0, '0');
                    } else if sp.alt && v != 0 && conv == b'x' {
                        prefix = "0x";
                    } else if sp.alt && v != 0 && conv == b'X' {
                        prefix = "0X";
                    }
                    let zero_ok = sp.prec.is_none();
                    sp.pad(&mut out, "", prefix, body.as_bytes(), zero_ok);
                }
                b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => {
                    let v = a.float();
                    float(&mut out, &sp, conv, v);
                }
                _ => {
                    a.errors.push(format!("`{}': invalid format character", conv as char));
                    status = 1;
                    break 'outer;
                }
            }
        }
        if a.pos == start_pos || a.pos >= a.list.len() {
            break;
        }
    }
    if a.conversion_error {
        status = 1;
    }
    error_at.resize(a.errors.len(), step_start);
    Formatted { out, errors: a.errors, error_at, status, overflow }
}

/// Decimal digits at `fmt[*i..]` (saturating), advancing `i`.
fn number(fmt: &[u8], i: &mut usize) -> usize {
    let mut n = 0usize;
    while let Some(d) = fmt.get(*i).filter(|c| c.is_ascii_digit()) {
        n = (n * 10 + usize::from(d - b'0')).min(MAX_FIELD);
        *i += 1;
    }
    n
}

/// A float conversion with glibc's output for an x87 long double.
fn float(out: &mut Vec<u8>, sp: &Spec, conv: u8, v: LD) {
    let upper = conv.is_ascii_uppercase();
    let sign = sp.sign(v.is_neg());
    let (mant, exp) = match v {
        LD::Finite { mant, exp, .. } => (mant, exp),
        LD::Inf(_) | LD::Nan(_) => {
            let word = if matches!(v, LD::Inf(_)) { "inf" } else { "nan" };
            let word = if upper { word.to_uppercase() } else { word.to_string() };
            sp.pad(out, sign, "", word.as_bytes(), false);
            return;
        }
    };
    let prec = sp.prec.unwrap_or(6);
    let body = match conv.to_ascii_lowercase() {
        b'f' => ldouble::fmt_f(mant, exp, prec, sp.alt),
        b'e' => ldouble::fmt_e(mant, exp, prec, sp.alt, upper),
        b'g' => ldouble::fmt_g(mant, exp, prec, sp.alt, upper),
        _ => ldouble::fmt_a(mant, exp, sp.prec, sp.alt, upper),
    };
    if let Some(rest) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        sp.pad(out, sign, &body[..2], rest.as_bytes(), true);
    } else {
        sp.pad(out, sign, "", body.as_bytes(), true);
    }
}

/// One backslash escape (`s` starts after the backslash), as bash's
/// `tescape`: the bytes it stands for, how many bytes of `s` it used, and
/// whether it was `\c` (only in `%b`, where `\0NNN` also takes 3 digits).
fn escape(s: &[u8], in_b: bool, errors: &mut Vec<String>) -> (Vec<u8>, usize, bool) {
    let Some(&c) = s.first() else { return (vec![b'\\'], 0, false) };
    let one = |b: u8| (vec![b], 1, false);
    match c {
        b'a' => one(7),
        b'b' => one(8),
        b'e' | b'E' => one(0x1b),
        b'f' => one(0x0c),
        b'n' => one(b'\n'),
        b'r' => one(b'\r'),
        b't' => one(b'\t'),
        b'v' => one(0x0b),
        b'\\' => one(b'\\'),
        b'\'' | b'"' | b'?' if !in_b => one(c),
        b'0'..=b'7' => {
            let max = if c == b'0' && in_b { 3 } else { 2 };
            let mut v = u32::from(c - b'0');
            let mut j = 1;
            while j <= max && s.get(j).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                v = v * 8 + u32::from(s[j] - b'0');
                j += 1;
            }
            (vec![v as u8], j, false)
        }
        b'x' => {
            let (v, n) = hex(&s[1..], 2);
            if n == 0 {
                errors.push("missing hex digit for \\x".into());
                return (vec![b'\\'], 0, false);
            }
            (vec![v as u8], 1 + n, false)
        }
        b'u' | b'U' => {
            let (v, n) = hex(&s[1..], if c == b'u' { 4 } else { 8 });
            if n == 0 {
                errors.push(format!("missing unicode digit for \\{}", c as char));
                return (vec![b'\\'], 0, false);
            }
            (utf8(v), 1 + n, false)
        }
        b'c' if in_b => (Vec::new(), 1, true),
        _ => (vec![b'\\'], 0, false),
    }
}

/// Up to `max` hex digits: value and count.
fn hex(s: &[u8], max: usize) -> (u32, usize) {
    let mut v = 0u32;
    let mut n = 0;
    while n < max {
        match s.get(n).and_then(|&c| (c as char).to_digit(16)) {
            Some(d) => v = v.wrapping_mul(16).wrapping_add(d),
            None => break,
        }
        n += 1;
    }
    (v, n)
}

/// UTF-8 bytes of a code point, including the surrogates and the old 5- and
/// 6-byte forms bash still produces.
fn utf8(v: u32) -> Vec<u8> {
    if v < 0x80 {
        return vec![v as u8];
    }
    let (len, lead) = match v {
        0..=0x7ff => (2, 0xc0),
        0x800..=0xffff => (3, 0xe0),
        0x1_0000..=0x1f_ffff => (4, 0xf0),
        0x20_0000..=0x3ff_ffff => (5, 0xf8),
        _ => (6, 0xfc),
    };
    let mut out = vec![0u8; len];
    let mut x = v;
    for b in out.iter_mut().skip(1).rev() {
        *b = 0x80 | (x & 0x3f) as u8;
        x >>= 6;
    }
    out[0] = lead | x as u8;
    out
}

/// `%b`'s argument with its escapes expanded; `true` when `\c` stopped it.
fn bexpand(s: &[u8], errors: &mut Vec<String>) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' || i + 1 == s.len() {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let (bytes, used, stop) = escape(&s[i + 1..], true, errors);
        if stop {
            return (out, true);
        }
        out.extend_from_slice(&bytes);
        i += 1 + used;
    }
    (out, false)
}

/// `%q`: `''` for empty, `$'...'` when there are control characters,
/// otherwise backslashes before the shell's special characters.
fn shell_quote(s: &str) -> Vec<u8> {
    if s.is_empty() {
        return b"''".to_vec();
    }
    let mut out = String::new();
    if s.chars().any(crate::raw_bytes::wants_ansi_quotes) {
        out.push_str("$'");
        for c in s.chars() {
            match c {
                '\x1b' => out.push_str("\\E"),
                '\x07' => out.push_str("\\a"),
                '\x0b' => out.push_str("\\v"),
                '\x08' => out.push_str("\\b"),
                '\x0c' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\\' | '\'' => {
                    out.push('\\');
                    out.push(c);
                }
                c if crate::raw_bytes::as_byte(c).is_some() => {
                    out.push_str(&format!("\\{:03o}", crate::raw_bytes::as_byte(c).unwrap_or(0)));
                }
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\{b:03o}"));
                    }
                }
                c => out.push(c),
            }
        }
        out.push('\'');
        return out.into_bytes();
    }
    let mut prev: Option<char> = None;
    for (i, c) in s.chars().enumerate() {
        let special = " !\"$&'()*,;<>?[\\]^`{|}".contains(c)
            || (c == '#' && i == 0)
            || (c == '~' && (i == 0 || prev == Some(':') || prev == Some('=')));
        if special {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;
    use super::format;

    /// Format with string args; expected values are bash 5.2's output.
    fn f(fmt: &str, args: &[&str]) -> (Vec<u8>, Vec<String>, i32) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let r = format(fmt.as_bytes(), &args, 0, 1 << 20);
        (r.out, r.errors, r.status)
    }
    fn out(fmt: &str, args: &[&str]) -> String {
        String::from_utf8_lossy(&f(fmt, args).0).into_owned()
    }

    #[test]
    fn integers() {
        assert_eq!(
            out("%d|%i|%o|%u|%x|%X\n", &["1", "-2", "8", "-1", "255", "255"]),
            "1|-2|10|18446744073709551615|ff|FF\n"
        );
        assert_eq!(
            out("%d %d %d %d\n", &["'a", "\"é", "0x1F", "010", " 12", "+5", "-0x10"]),
            "97 233 31 8\n12 5 -16 0\n"
        );
        assert_eq!(
            out("%.3d|%5.3d|%-5.3d|%05.3d|%.0d|%5.0d|\n", &["7", "7", "7", "7", "0", "0"]),
            "007|  007|007  |  007||     |\n"
        );
        assert_eq!(
            out("%#o|%#5o|%#.3o|%#x|%#10.4x|%#-10X|\n", &["0", "8", "8", "1", "255", "255"]),
            "0|  010|010|0x1|    0x00ff|0XFF      |\n"
        );
        assert_eq!(
            out("[%-+5d][%+-5d][% 05d][%-#8x][%#8o]\n", &["3", "3", "3", "255", "8"]),
            "[+3   ][+3   ][ 0003][0xff    ][     010]\n"
        );
        assert_eq!(out("%*d|%-*d|%.*d|%*d|\n", &["5", "42", "4", "7", "-2", "7", "-4", "9"]), "   42|7   |7|9   |\n");
    }

    #[test]
    fn invalid_numbers_keep_going() {
        let (o, e, s) = f("%d\n", &["99999999999999999999", "1e3", "", " ", "3x", "08", "0x"]);
        assert_eq!(String::from_utf8_lossy(&o), "9223372036854775807\n1\n0\n0\n3\n0\n0\n");
        assert_eq!(
            e,
            [
                "warning: 99999999999999999999: Numerical result out of range",
                "1e3: invalid number",
                " : invalid number",
                "3x: invalid number",
                "08: invalid octal number",
                "0x: invalid hex number"
            ]
        );
        assert_eq!(s, 1);
        // A range warning alone leaves the status 0.
        assert_eq!(f("%u\n", &["-99999999999999999999"]).2, 0);
    }

    #[test]
    fn floats_are_long_doubles() {
        assert_eq!(
            out("%f|%.20f|%.2f|%e|%g|%a|%A|%G\n", &["1", "0.1", "2.675", "12345.678", "0.0001", "1", "0.1", "1e-10"]),
            "1.000000|0.10000000000000000000|2.67|1.234568e+04|0.0001|0x8p-3|0XC.CCCCCCCCCCCCCCDP-7|1E-10\n"
        );
        assert_eq!(
            out("%.2f\n", &["1.005", "1.015", "1.025", "0.125", "0.375", "2.5", "10.555"]),
            "1.00\n1.01\n1.02\n0.12\n0.38\n2.50\n10.56\n"
        );
        assert_eq!(
            out("%f %f %f %f %F %e\n", &["inf", "-nan", "0x10", "1e5000", "-inf", "nan"]),
            "inf -nan 16.000000 inf -INF nan\n"
        );
        assert_eq!(
            out(
                "%.3g|%g|%g|%g|%#g|%g|%G|%.0e|%e\n",
                &["1234567", "100000", "1000000", "0.0001234", "1", "1e-5", "1e100", "15", "0"]
            ),
            "1.23e+06|100000|1e+06|0.0001234|1.00000|1e-05|1E+100|2e+01|0.000000e+00\n"
        );
        assert_eq!(
            out("%5.2f|%-8.3e|%05.1f|%05f|%+08.3f|% .2f\n", &["3.14159", "1234.5", "2.25", "inf", "3.14159", "2"]),
            " 3.14|1.234e+03|002.2|  inf|+003.142| 2.00\n"
        );
        assert_eq!(
            out("%.3a|%.0a|%a|%a|%.1a\n", &["1", "1.99", "0", "-0.5", "0x1.f8p0"]),
            "0x8.000p-3|0x1p+1|0x0p+0|-0x8p-4|0xf.cp-3\n"
        );
        assert_eq!(out("%f %f\n", &["'a", ".5"]), "97.000000 0.500000\n");
    }

    #[test]
    fn strings_chars_and_quoting() {
        assert_eq!(f("%c|%c|%c|%5c|%-3c|\n", &["abc", "é", "", "x", "y"]).0, b"a|\xc3|\0|    x|y  |\n");
        assert_eq!(f("%c", &[]).0, b"\0");
        assert_eq!(f("%.2s|%5s|%-5s|%05s|\n", &["héllo", "ab", "cd", "ef"]).0, b"h\xc3|   ab|cd   |   ef|\n");
        assert_eq!(out("%q %q %q %q %q\n", &["a b", "", "é", "a\tb", "~x#y #z"]), "a\\ b '' é $'a\\tb' \\~x#y\\ #z\n");
        assert_eq!(
            out("%q\n", &["\x07\x08\x1b\x0c\r\x0b\\\x01\x7f'é b"]),
            "$'\\a\\b\\E\\f\\r\\v\\\\\\001\\177\\'é b'\n"
        );
        assert_eq!(out("%q %q %q %q\n", &["a=~", "a~", "#a", "a#"]), "a=\\~ a~ \\#a a#\n");
        assert_eq!(
            out("%Q|%#q|%.2Q|%10q|%-6q|%.3q|\n", &["a b", "a b", "a b c", "a b", "x", "a b c"]),
            "a\\ b|a\\ b|a\\ |      a\\ b|x     |a\\ |\n"
        );
    }

    #[test]
    fn escapes_in_format_and_b() {
        assert_eq!(
            f("\\a\\b\\e\\E\\f\\n\\r\\t\\v\\\\\\\"\\x41\\x4g\\101\\0101\\u00e9\\U0001F600\\u12\\c\\d\\q", &[]).0,
            b"\x07\x08\x1b\x1b\x0c\n\r\t\x0b\\\"A\x04gA\x081\xc3\xa9\xf0\x9f\x98\x80\x12\\c\\d\\q"
        );
        let (o, e, s) = f("ab\\xZ|\\u", &[]);
        assert_eq!((o, s), (b"ab\\xZ|\\u".to_vec(), 0));
        assert_eq!(e, ["missing hex digit for \\x", "missing unicode digit for \\u"]);
        assert_eq!(f("\\ud800|\\U7fffffff", &[]).0, b"\xed\xa0\x80|\xfd\xbf\xbf\xbf\xbf\xbf");
        assert_eq!(out("%b|", &["a\\nb", "\\0101", "\\101", "\\x41", "\\u00e9", "x\\cy", "z"]), "a\nb|A|A|A|é|x");
        assert_eq!(out("%b\n", &["a\\'b\\\"c\\?d", "\\"]), "a\\'b\\\"c\\?d\n\\\n");
        assert_eq!(out("%5b|%-4b|%.2b|\n", &["x\\ty", "q", "abc"]), "  x\ty|q   |ab|\n");
    }

    #[test]
    fn format_reuse_and_errors() {
        assert_eq!(out("%s %s\n", &["a", "b", "c"]), "a b\nc \n");
        assert_eq!(out("%s-%d\n", &[]), "-0\n");
        assert_eq!(out("no conversions\n", &["a", "b"]), "no conversions\n");
        assert_eq!(f("abc%5", &[]), (b"abc".to_vec(), vec!["`%5': missing format character".to_string()], 1));
        assert_eq!(f("x%yz", &["1"]), (b"x".to_vec(), vec!["`y': invalid format character".to_string()], 1));
        assert_eq!(
            out("a%zb|%ld %hd %lld %Lf %jd %zd %qd\n", &["", "1", "2", "3", "4.5", "6", "7", "8"]),
            "a|1 2 3 4.500000 6 7 8d\n"
        );
        assert_eq!(out("%d%%\n", &["50"]), "50%\n");
    }

    #[test]
    fn time_conversion() {
        assert_eq!(
            out("%(%s)T|%()T|%(%Y)Tx|%(%F %T)T\n", &["5", "5", "5", "1700000000"]),
            "5|00:00:05|1970x|2023-11-14 22:13:20\n"
        );
        let (o, e, s) = f("%(%Y)T\n", &["abc"]);
        assert_eq!((o, e, s), (b"1970\n".to_vec(), vec!["abc: invalid number".to_string()], 1));
    }

    #[test]
    fn command_usage_and_errors() {
        let usage = "printf: usage: printf [-v var] format [arguments]\n";
        check(&["printf"], &[], "", "", usage, 2);
        check(&["printf", "-x"], &[], "", "", &format!("bash: line 1: printf: -x: invalid option\n{usage}"), 2);
        check(&["printf", "--"], &[], "", "", usage, 2);
        check(&["printf", "--", "--"], &[], "", "--", "", 0);
        check(
            &["printf", "--", "%d\n", "5", "abc"],
            &[],
            "",
            "5\n0\n",
            "bash: line 1: printf: abc: invalid number\n",
            1,
        );
        check(&["printf", "%s\n", "-x"], &[], "", "-x\n", "", 0);
    }
}
