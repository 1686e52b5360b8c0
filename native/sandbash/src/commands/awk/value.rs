//! awk values: numbers, strings and "strnums" (input that looks numeric), with
//! awk's conversions between them (`CONVFMT`/`OFMT`, strtod-style prefixes).

use std::cmp::Ordering;

#[derive(Clone, Debug, Default)]
pub enum Value {
    /// Never assigned: "" and 0 at once.
    #[default]
    Uninit,
    Num(f64),
    Str(String),
    /// Input data (fields, getline, split, ARGV, ENVIRON, -v) that looks like
    /// a number: compares numerically, prints as the original text.
    StrNum(String, f64),
}

impl Value {
    /// A value from input data: a strnum when the whole text is a number.
    pub fn from_input(s: String) -> Value {
        match looks_numeric(&s) {
            Some(n) => Value::StrNum(s, n),
            None => Value::Str(s),
        }
    }

    pub fn num(&self) -> f64 {
        match self {
            Value::Uninit => 0.0,
            Value::Num(n) | Value::StrNum(_, n) => *n,
            Value::Str(s) => str_to_num(s),
        }
    }

    /// The string form, numbers converted with `convfmt`.
    pub fn str(&self, convfmt: &str) -> String {
        match self {
            Value::Uninit => String::new(),
            Value::Num(n) => num_to_str(*n, convfmt),
            Value::Str(s) | Value::StrNum(s, _) => s.clone(),
        }
    }

    /// Borrow the string form when there is one already.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Uninit => Some(""),
            Value::Str(s) | Value::StrNum(s, _) => Some(s),
            Value::Num(_) => None,
        }
    }

    pub fn truthy(&self) -> bool {
        match self {
            Value::Uninit => false,
            Value::Num(n) | Value::StrNum(_, n) => *n != 0.0,
            Value::Str(s) => !s.is_empty(),
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Value::Uninit | Value::Num(_) | Value::StrNum(..))
    }
}

/// awk comparison: numeric when both sides are numbers (or strnums or
/// unset), otherwise by the bytes of their string forms.
pub fn compare(a: &Value, b: &Value, convfmt: &str) -> Ordering {
    if a.is_numeric() && b.is_numeric() {
        let (x, y) = (a.num(), b.num());
        // NaN compares as gawk does: unequal and not less.
        return x.partial_cmp(&y).unwrap_or(if x.is_nan() && !y.is_nan() { Ordering::Greater } else { Ordering::Less });
    }
    match (a.as_str(), b.as_str()) {
        (Some(x), Some(y)) => x.as_bytes().cmp(y.as_bytes()),
        _ => a.str(convfmt).as_bytes().cmp(b.str(convfmt).as_bytes()),
    }
}

/// Length of the longest numeric prefix strtod would take (after leading
/// blanks), and its value. No hex, no inf/nan words (gawk's default).
fn numeric_prefix(s: &str) -> (usize, f64) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') {
        i += 1;
    }
    let start = i;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    // gawk's special values: exactly "+inf", "-nan" etc. (sign required).
    if i > start && b.len() >= i + 3 {
        let w = s[i..i + 3].to_ascii_lowercase();
        if w == "inf" || w == "nan" {
            let neg = b[start] == b'-';
            let v = if w == "inf" { f64::INFINITY } else { f64::NAN };
            return (i + 3, if neg { -v } else { v });
        }
    }
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut nd = i - digits_start;
    if i < b.len() && b[i] == b'.' {
        let j = i + 1;
        let mut k = j;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        nd += k - j;
        if nd > 0 {
            i = k;
        }
    }
    if nd == 0 {
        return (0, 0.0);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut k = i + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        let ds = k;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        if k > ds {
            i = k;
        }
    }
    (i, decimal_value(&s[start..i]))
}

/// The value of a decimal number text (sign, digits, `.`, exponent). Short
/// plain decimals take the exact path (an integer below 2^53 divided by an
/// exact power of ten rounds correctly); the rest goes to the full parser.
fn decimal_value(t: &str) -> f64 {
    const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    let b = t.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let (mut m, mut n, mut frac) = (0u64, 0usize, None);
    for (k, &c) in digits.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
                n += 1;
            }
            b'.' if frac.is_none() => frac = Some(digits.len() - k - 1),
            _ => return t.parse::<f64>().unwrap_or(0.0),
        }
        if n > 15 {
            return t.parse::<f64>().unwrap_or(0.0);
        }
    }
    let Some(p) = POW10.get(frac.unwrap_or(0)) else { return t.parse::<f64>().unwrap_or(0.0) };
    let v = m as f64 / p;
    if neg {
        -v
    } else {
        v
    }
}

/// awk's string-to-number: the numeric prefix, 0 when there is none.
pub fn str_to_num(s: &str) -> f64 {
    numeric_prefix(s).1
}

/// `Some(n)` when all of `s` (but surrounding blanks) is a number.
pub fn looks_numeric(s: &str) -> Option<f64> {
    let (n, v) = numeric_prefix(s);
    if n == 0 {
        return None;
    }
    s[n..].bytes().all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')).then_some(v)
}

/// Number to string: integral values print as integers, others with `fmt`
/// (`CONVFMT` or `OFMT`).
pub fn num_to_str(n: f64, fmt: &str) -> String {
    if n.is_nan() {
        return if n.is_sign_negative() { "-nan" } else { "+nan" }.into();
    }
    if n.is_infinite() {
        return if n < 0.0 { "-inf" } else { "+inf" }.into();
    }
    if n == n.trunc() {
        if n.abs() < 1e18 {
            return format!("{}", n as i64);
        }
        return format!("{n:.0}");
    }
    if fmt == "%.6g" {
        return super::format::fmt_g(n, 6, false, false);
    }
    super::format::sprintf(fmt, &[Value::Num(n)], "%.6g").unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(str_to_num(" 12abc"), 12.0);
        assert_eq!(str_to_num(".5e1x"), 5.0);
        assert_eq!(str_to_num("0x1A"), 0.0);
        assert_eq!(str_to_num("+inf"), f64::INFINITY);
        assert!(looks_numeric(" 1e3 ").is_some());
        assert!(looks_numeric("1e").is_none());
        assert!(looks_numeric(".").is_none());
        assert_eq!(num_to_str(0.1 + 0.2, "%.6g"), "0.3");
        assert_eq!(num_to_str(1e30, "%.6g"), "1000000000000000019884624838656");
        assert_eq!(num_to_str(-0.0, "%.6g"), "0");
        assert_eq!(num_to_str(1e-6, "%.6g"), "1e-06");
        // The exact short path agrees with the full parser.
        for t in ["0.318", "-4711", "+.5", "5.", "123456789012345", "0.1", "1234567890123456", "1e5", "-0"] {
            assert_eq!(decimal_value(t).to_bits(), t.parse::<f64>().unwrap_or(f64::NAN).to_bits(), "{t}");
        }
    }
}
