//! jq numbers: canonical literals, printing of doubles, parsing of numeric text.

use super::*;

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

/// A JSON number's text as jq 1.7 prints an unchanged literal (decNumber's
/// to-scientific-string): `1.0`, `1E+2`, `0.00001`, `1E-7`. `None` if the
/// text is not a number.
pub fn canonical_literal(s: &str) -> Option<String> {
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (mant, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: String = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let coef = if digits.is_empty() { "0" } else { digits };
    let exp = exp.checked_sub(frac.len() as i64)?;
    let n = coef.len() as i64;
    let adjusted = exp + n - 1;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp <= 0 && adjusted >= -6 {
        if exp == 0 {
            out.push_str(coef);
        } else {
            let point = n + exp;
            if point > 0 {
                out.push_str(&coef[..point as usize]);
                out.push('.');
                out.push_str(&coef[point as usize..]);
            } else {
                out.push_str("0.");
                for _ in 0..-point {
                    out.push('0');
                }
                out.push_str(coef);
            }
        }
    } else {
        out.push_str(&coef[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&coef[1..]);
        }
        out.push('E');
        out.push(if adjusted >= 0 { '+' } else { '-' });
        out.push_str(&adjusted.unsigned_abs().to_string());
    }
    Some(out)
}

/// A double as jq 1.7 prints it: shortest round-trip digits, plain unless
/// the exponent is below -4 or far past the digits, `e+XX` exponents,
/// infinities as the largest double, NaN as `null`.
pub fn fmt_f64(f: f64) -> String {
    if f.is_nan() {
        return "null".into();
    }
    let f = if f.is_infinite() { f64::MAX.copysign(f) } else { f };
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // `{:e}` gives the shortest round-trip digits: d.ddddde±x
    let e = format!("{:e}", f.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let nd = digits.len() as i32;
    let decpt = exp + 1;
    let mut out = String::new();
    if f < 0.0 {
        out.push('-');
    }
    if decpt <= -4 || decpt > nd + 15 {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        let x = decpt - 1;
        out.push(if x < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", x.unsigned_abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        for _ in 0..-decpt {
            out.push('0');
        }
        out.push_str(&digits);
    } else if decpt >= nd {
        out.push_str(&digits);
        for _ in 0..decpt - nd {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    }
    out
}

/// A number from its JSON or program text, keeping the literal when jq
/// would print it differently from the double.
pub fn num_from_text(s: &str) -> Option<Val> {
    if plain_number(s) {
        // Printed back exactly as written: no literal to keep.
        return s.parse().ok().map(Val::Num);
    }
    let canon = canonical_literal(s)?;
    let f: f64 = s.parse().ok()?;
    if fmt_f64(f) == canon {
        Some(Val::Num(f))
    } else {
        Some(Val::Lit(Rc::new((f, canon))))
    }
}

/// `0`, or an integer or decimal with a non-zero integer part, no trailing
/// zero in its fraction and at most 15 digits: an f64 holds it exactly and
/// prints it back as written, so the slow check of [`num_from_text`] (format
/// and compare) would say so too. Most JSON numbers are like this.
pub(super) fn plain_number(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    if b == b"0" {
        return s.len() == 1;
    }
    let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if int_len == 0 || b[0] == b'0' {
        return false;
    }
    let frac = match &b[int_len..] {
        [] => &[][..],
        [b'.', frac @ ..] => frac,
        _ => return false,
    };
    if !frac.is_empty() && (!frac.iter().all(u8::is_ascii_digit) || frac.last() == Some(&b'0')) {
        return false;
    }
    if int_len > 0 && b.len() - int_len == 1 {
        return false; // `5.`: not JSON, left to the slow path
    }
    int_len + frac.len() <= 15
}

pub(super) fn num_cmp(a: f64, b: f64) -> Ordering {
    // jq sorts NaN below every number.
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}
