//! awk's `printf`/`sprintf` formatting (C printf semantics on doubles) and
//! the `%g`/`%e`/`%f` digit generation shared with number-to-string.

use super::value::Value;

/// Digits of `x` (finite, non-negative) as `%e` with `prec` fraction digits:
/// mantissa digits and the decimal exponent. Rust's float formatting is
/// correctly rounded, like glibc's.
fn e_parts(x: f64, prec: usize) -> (String, i32) {
    // Past 800 fraction digits an f64's mantissa has only zeros (and
    // `format!` panics past a precision of 65,535): they are added after.
    let p = prec.min(800);
    let s = format!("{x:.p$e}");
    let (mut m, e) = match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (s, 0),
    };
    if prec > p {
        m.extend(std::iter::repeat_n('0', crate::commands::util::pad::room(prec, p)));
    }
    (m, e)
}

fn exp_suffix(e: i32, upper: bool) -> String {
    format!("{}{}{:02}", if upper { 'E' } else { 'e' }, if e < 0 { '-' } else { '+' }, e.unsigned_abs())
}

/// `%e` of a non-negative finite `x`.
pub fn fmt_e(x: f64, prec: usize, alt: bool, upper: bool) -> String {
    let (mut m, e) = e_parts(x, prec);
    if alt && prec == 0 {
        m.push('.');
    }
    m + &exp_suffix(e, upper)
}

/// `%f` of a non-negative finite `x`.
pub fn fmt_f(x: f64, prec: usize, alt: bool) -> String {
    let mut s = crate::commands::util::pad::fixed(x, prec);
    if alt && prec == 0 {
        s.push('.');
    }
    s
}

/// `%g` of `x` (any sign, finite).
pub fn fmt_g(x: f64, prec: usize, alt: bool, upper: bool) -> String {
    if x.is_sign_negative() && x != 0.0 {
        return format!("-{}", fmt_g(-x, prec, alt, upper));
    }
    let p = prec.max(1);
    let x = x.abs();
    let (_, e) = if x == 0.0 { (String::new(), 0) } else { e_parts(x, p - 1) };
    let mut s =
        if e < p as i32 && e >= -4 { fmt_f(x, (p as i32 - 1 - e) as usize, alt) } else { fmt_e(x, p - 1, alt, upper) };
    if !alt {
        let (body, suffix) = match s.find(['e', 'E']) {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.clone(), String::new()),
        };
        let body = if body.contains('.') { body.trim_end_matches('0').trim_end_matches('.').to_string() } else { body };
        s = body + &suffix;
    }
    s
}

/// Flags and sizes of one conversion.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

impl Spec {
    /// Pad `body` (with its sign/prefix already in `sign`) to the width.
    fn pad(&self, sign: &str, body: &str, zero_ok: bool) -> String {
        let len = sign.chars().count() + body.chars().count();
        if len >= self.width {
            return format!("{sign}{body}");
        }
        let fill = crate::commands::util::pad::room(self.width, len);
        if self.left {
            format!("{sign}{body}{}", " ".repeat(fill))
        } else if self.zero && zero_ok {
            format!("{sign}{}{body}", "0".repeat(fill))
        } else {
            format!("{}{sign}{body}", " ".repeat(fill))
        }
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
}

/// Why formatting failed: gawk's fatal message (without the `awk: ` prefix).
pub type FormatError = String;

/// Format `args` by `fmt` as awk's sprintf does.
pub fn sprintf(fmt: &str, args: &[Value], convfmt: &str) -> Result<String, FormatError> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut ai = 0;
    let mut i = 0;
    let ran_out = |pos: usize| -> FormatError {
        format!(
            "not enough arguments to satisfy format string\n\t`{fmt}'\n\t{}^ ran out for this one",
            " ".repeat(pos + 1)
        )
    };
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        let start = i - 1;
        let mut sp = Spec::default();
        while i < chars.len() {
            match chars[i] {
                '-' => sp.left = true,
                '+' => sp.plus = true,
                ' ' => sp.space = true,
                '#' => sp.alt = true,
                '0' => sp.zero = true,
                '\'' => {}
                _ => break,
            }
            i += 1;
        }
        if chars.get(i) == Some(&'*') {
            i += 1;
            let Some(a) = args.get(ai) else { return Err(ran_out(start)) };
            ai += 1;
            let w = a.num() as i64;
            if w < 0 {
                sp.left = true;
            }
            sp.width = w.unsigned_abs().min(1 << 20) as usize;
        } else {
            while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
                sp.width = (sp.width * 10 + d as usize).min(1 << 20);
                i += 1;
            }
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            if chars.get(i) == Some(&'*') {
                i += 1;
                let Some(a) = args.get(ai) else { return Err(ran_out(start)) };
                ai += 1;
                let p = a.num() as i64;
                sp.prec = if p < 0 { None } else { Some(p.min(1 << 20) as usize) };
            } else {
                let mut p = 0usize;
                while let Some(d) = chars.get(i).and_then(|c| c.to_digit(10)) {
                    p = (p * 10 + d as usize).min(1 << 20);
                    i += 1;
                }
                sp.prec = Some(p);
            }
        }
        while matches!(chars.get(i), Some('h' | 'l' | 'L' | 'q' | 'j' | 'z' | 't')) {
            i += 1;
        }
        let Some(&conv) = chars.get(i) else {
            // A lone `%` at the end prints as itself.
            out.extend(&chars[start..]);
            break;
        };
        i += 1;
        if conv == '%' {
            out.push('%');
            continue;
        }
        if !"cdiouxXeEfFgGs".contains(conv) {
            out.extend(&chars[start..i]);
            continue;
        }
        let Some(arg) = args.get(ai) else { return Err(ran_out(start)) };
        ai += 1;
        out.push_str(&conv_one(conv, &sp, arg, convfmt));
    }
    Ok(out)
}

fn conv_one(conv: char, sp: &Spec, arg: &Value, convfmt: &str) -> String {
    match conv {
        'c' => {
            let s = match arg {
                Value::Num(n) | Value::StrNum(_, n) => char::from_u32(*n as u32).map(String::from).unwrap_or_default(),
                Value::Uninit => String::new(),
                Value::Str(s) => s.chars().next().map(String::from).unwrap_or_default(),
            };
            sp.pad("", &s, false)
        }
        's' => {
            let s = arg.str(convfmt);
            let s = match sp.prec {
                Some(p) => s.chars().take(p).collect(),
                None => s,
            };
            sp.pad("", &s, false)
        }
        'd' | 'i' => {
            let n = arg.num();
            if !n.is_finite() {
                return special(n, sp);
            }
            let t = n.trunc();
            let digits = if t.abs() < 1e18 { (t.abs() as u64).to_string() } else { format!("{:.0}", t.abs()) };
            int_body(sp, t < 0.0, digits, "")
        }
        'o' | 'x' | 'X' | 'u' => {
            let n = arg.num();
            if !n.is_finite() {
                return special(n, sp);
            }
            let t = n.trunc();
            let v: u64 = if t < 0.0 { (t as i64) as u64 } else { t as u64 };
            let (digits, prefix) = match conv {
                'o' => (format!("{v:o}"), if sp.alt { "0" } else { "" }),
                'x' => (format!("{v:x}"), if sp.alt && v != 0 { "0x" } else { "" }),
                'X' => (format!("{v:X}"), if sp.alt && v != 0 { "0X" } else { "" }),
                _ => (v.to_string(), ""),
            };
            let digits =
                if conv == 'o' && sp.alt && digits.starts_with('0') { digits } else { format!("{prefix}{digits}") };
            let mut s2 = Spec { plus: false, space: false, ..*sp };
            s2.alt = false;
            int_body(&s2, false, digits, "")
        }
        _ => {
            let n = arg.num();
            if !n.is_finite() {
                return special(n, sp);
            }
            let neg = n.is_sign_negative() && n != 0.0 || (n == 0.0 && n.is_sign_negative());
            let x = n.abs();
            let p = sp.prec.unwrap_or(6);
            let body = match conv {
                'e' | 'E' => fmt_e(x, p, sp.alt, conv == 'E'),
                'f' | 'F' => fmt_f(x, p, sp.alt),
                _ => fmt_g(x, p, sp.alt, conv == 'G'),
            };
            sp.pad(sp.sign(neg), &body, true)
        }
    }
}

/// An integer conversion's digits with precision (minimum digits), sign and padding.
fn int_body(sp: &Spec, neg: bool, digits: String, _p: &str) -> String {
    let digits = match sp.prec {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    };
    sp.pad(sp.sign(neg), &digits, sp.prec.is_none())
}

/// inf and nan under a numeric conversion: gawk prints them as `%f` would.
fn special(n: f64, sp: &Spec) -> String {
    let body = if n.is_nan() { "nan" } else { "inf" };
    let neg = n.is_sign_negative();
    let sign = if neg {
        "-"
    } else if sp.space && !sp.plus {
        " "
    } else {
        "+"
    };
    sp.pad(sign, body, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, args: &[Value]) -> String {
        sprintf(fmt, args, "%.6g").unwrap_or_else(|e| e)
    }

    #[test]
    // 3.14159 is a printf input here, not an approximation of pi.
    #[allow(clippy::approx_constant)]
    fn formats() {
        let n = |x: f64| Value::Num(x);
        let s = |x: &str| Value::Str(x.into());
        // Expected strings printed by gawk 5.2.1.
        assert_eq!(
            f(
                "%x %u %o %c|%c|%5.2s|%-5d|%+d|%05.1f|%e|%G",
                &[
                    n(-1.0),
                    n(-1.0),
                    n(8.0),
                    n(65.0),
                    s("hello"),
                    s("abc"),
                    n(3.0),
                    n(4.0),
                    n(3.14159),
                    n(12345.678),
                    n(0.0001)
                ]
            ),
            "ffffffffffffffff 18446744073709551615 10 A|h|   ab|3    |+4|003.1|1.234568e+04|0.0001"
        );
        assert_eq!(f("%d %d %i", &[s("0x1A"), n(1e20), n(-2.7)]), "0 100000000000000000000 -2");
    }
}
