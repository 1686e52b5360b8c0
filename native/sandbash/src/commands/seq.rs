//! `seq [-f FMT] [-s SEP] [-w] [FIRST [INCR]] LAST`, GNU style: operands are
//! long doubles, the default format's precision comes from how the operands
//! were written (`seq 0 0.5 2` prints `0.0 0.5 ...`), `-w` pads to equal width.
//! Numbers are formatted by `printf`'s long double formatter.

use super::util::{quote, quote_locale, Arg, Spec};
use super::util::ldouble::{self, LD};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Seq;

const SPEC: Spec = Spec::new(
    "f:s:w",
    &[("format", Arg::Yes, "f"), ("separator", Arg::Yes, "s"), ("equal-width", Arg::No, "w")],
    "[OPTION]... LAST\n  or:  seq [OPTION]... FIRST LAST\n  or:  seq [OPTION]... FIRST INCREMENT LAST",
)
.numbers();

/// An operand: its value and the width/precision it was written with.
struct Operand {
    value: f64,
    width: i64,
    /// Digits after the point; `None` when unknown (hex floats): `%Lg`.
    precision: Option<i64>,
}

fn to_f64(v: LD) -> f64 {
    match v {
        LD::Finite { neg, mant, exp } => {
            let m = mant as f64 * 2f64.powi(exp.clamp(-1100, 1100));
            if neg {
                -m
            } else {
                m
            }
        }
        LD::Inf(neg) => {
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        LD::Nan(_) => f64::NAN,
    }
}

/// GNU seq's `scan_arg`: value, and the width and precision of its text.
fn scan(arg: &str) -> Result<Operand, String> {
    let (ld, used, _) = ldouble::parse(arg.as_bytes());
    if used != arg.len() || used == 0 {
        return Err(format!("invalid floating point argument: {}", quote_locale(arg)));
    }
    if matches!(ld, LD::Nan(_)) {
        return Err(format!("invalid 'not-a-number' argument: {}", quote_locale(arg)));
    }
    let a = arg.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '+');
    let dot = a.find('.');
    let mut precision = if dot.is_none() && !a.contains('p') { Some(0i64) } else { None };
    let mut width = 0i64;
    if !a.contains(['x', 'X']) && !matches!(ld, LD::Inf(_)) {
        width = a.len() as i64;
        if let Some(d) = dot {
            let frac = a[d + 1..].find(['e', 'E']).unwrap_or(a.len() - d - 1) as i64;
            precision = Some(frac);
            let digit_before = d > 0 && a.as_bytes()[d - 1].is_ascii_digit();
            width += if frac == 0 { -1 } else { i64::from(!digit_before) };
        }
        if let Some(e) = a.find(['e', 'E']) {
            let exponent: i64 = {
                let t = &a[e + 1..];
                let end = t.find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '+')).unwrap_or(t.len());
                t[..end].parse().unwrap_or(0)
            };
            let p0 = precision.unwrap_or(0);
            let p = p0 + if exponent < 0 { -exponent } else { -p0.min(exponent) };
            precision = Some(p);
            width -= (a.len() - e) as i64;
            let adj = if exponent < 0 {
                match dot {
                    Some(d) if e == d + 1 => width += 1,
                    Some(_) => {}
                    None => width += 1,
                }
                -exponent
            } else {
                if dot.is_some() && p == 0 && exponent != 0 {
                    width -= 1;
                }
                // Digits the exponent moves left of the point widen it.
                exponent - p0.min(exponent)
            };
            width += adj;
        }
    }
    Ok(Operand { value: to_f64(ld), width, precision })
}

/// Check a `-f` format as GNU does: exactly one float directive.
fn check_format(fmt: &str) -> Result<(), String> {
    let b = fmt.as_bytes();
    let q = quote(fmt);
    let mut i = 0;
    while !(b.get(i) == Some(&b'%') && b.get(i + 1) != Some(&b'%')) {
        if i >= b.len() {
            return Err(format!("format {q} has no % directive"));
        }
        i += if b[i] == b'%' { 2 } else { 1 };
    }
    i += 1;
    while b.get(i).is_some_and(|c| b"-+#0 '".contains(c)) {
        i += 1;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if b.get(i) == Some(&b'L') {
        i += 1;
    }
    match b.get(i) {
        None => return Err(format!("format {q} ends in %")),
        Some(c) if !b"efgaEFGA".contains(c) => {
            return Err(format!("format {q} has unknown %{} directive", *c as char));
        }
        _ => {}
    }
    i += 1;
    while i < b.len() {
        if b[i] == b'%' && b.get(i + 1) != Some(&b'%') {
            return Err(format!("format {q} has too many % directives"));
        }
        i += if b[i] == b'%' { 2 } else { 1 };
    }
    Ok(())
}

/// The format GNU picks when there is no `-f`.
fn default_format(first: &Operand, step: &Operand, last: &Operand, equal_width: bool) -> String {
    let (Some(fp), Some(sp), Some(lp)) = (first.precision, step.precision, last.precision) else {
        return "%Lg".into();
    };
    let prec = fp.max(sp);
    if !equal_width {
        return format!("%.{prec}Lf");
    }
    let first_width = first.width + (prec - fp) + i64::from(fp == 0 && prec > 0);
    let mut last_width = last.width + (prec - lp);
    if lp > 0 && prec == 0 {
        last_width -= 1;
    }
    if lp == 0 && prec > 0 {
        last_width += 1;
    }
    format!("%0{}.{prec}Lf", first_width.max(last_width))
}

/// Format one value with a (checked) printf-style float format, in at most
/// `max` bytes (`seq -f '%9223372036854775807g' 1` asks for more: `None`).
fn fmt_value(fmt: &[u8], v: f64, max: usize) -> Option<Vec<u8>> {
    // `{}` is the shortest text that reads back as `v`; reading it as a long
    // double gives what GNU's long double arithmetic would mostly produce.
    let text = if v == 0.0 && v.is_sign_negative() { "-0".to_string() } else { format!("{v}") };
    let f = super::printf::format(fmt, &[text], 0, max);
    (!f.overflow).then_some(f.out)
}

#[async_trait]
impl Utility for Seq {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let ops = &p.operands;
        if ops.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        if ops.len() > 3 {
            return Err(UError::usage(1, format!("extra operand {}", quote_locale(&ops[3]))));
        }
        let mut scanned = Vec::new();
        for o in ops {
            match scan(o) {
                Ok(v) => scanned.push(v),
                Err(m) => {
                    return Err(UError::usage(1, m));
                }
            }
        }
        let one = || Operand { value: 1.0, width: 1, precision: Some(0) };
        let (first, step, last) = match scanned.len() {
            1 => (one(), one(), scanned.remove(0)),
            2 => {
                let l = scanned.remove(1);
                (scanned.remove(0), one(), l)
            }
            _ => {
                let l = scanned.remove(2);
                let s = scanned.remove(1);
                (scanned.remove(0), s, l)
            }
        };
        if step.value == 0.0 {
            return Err(UError::usage(1, format!("invalid Zero increment value: {}", quote_locale(&ops[1]))));
        }
        let user_fmt = p.last("f");
        let equal_width = p.has("w");
        if user_fmt.is_some() && equal_width {
            return Err(UError::usage(1, "format string may not be specified when printing equal width strings"));
        }
        if let Some(f) = user_fmt {
            if let Err(m) = check_format(f) {
                return Err(UError::new(1, m));
            }
        }
        // seq's format goes to printf(3) as is: keep backslashes literal for
        // the bash-printf formatter.
        let fmt = match user_fmt {
            Some(f) => f.replace('\\', "\\\\"),
            None => default_format(&first, &step, &last, equal_width),
        };
        let fmt = fmt.as_bytes();
        let sep = p.last("s").unwrap_or("\n").as_bytes();

        let (a, s, l) = (first.value, step.value, last.value);
        let past = |x: f64| if s < 0.0 { x < l } else { l < x };
        if past(a) {
            return Ok(0);
        }
        let mut out = Vec::new();
        let mut x = a;
        let mut i = 1u64;
        let max = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
        let too_wide = || {
            let limit = ctx.budget.limits.max_string_bytes;
            crate::commands::util::operands::stop_exec(
                ctx.budget,
                crate::limits::Budget::exceeded("max_string_bytes", limit, "formatted number"),
            );
            Ok(1)
        };
        loop {
            let Some(shown) = fmt_value(fmt, x, max) else { return too_wide() };
            out.extend_from_slice(&shown);
            let next = a + i as f64 * s;
            i += 1;
            if past(next) {
                // GNU prints one more when it rounds to LAST and differs
                // from the previous number (`seq 0 0.000001 0.000003`).
                let Some(next_shown) = fmt_value(fmt, next, max) else { return too_wide() };
                let reads_as_last = to_f64(ldouble::parse(&next_shown).0) == l;
                if !(reads_as_last && next_shown != shown) {
                    break;
                }
            }
            out.extend_from_slice(sep);
            x = next;
            if out.len() >= 64 * 1024 {
                ctx.out(&out).await?;
                out.clear();
                if !ctx.still_running() {
                    return Ok(1);
                }
            }
        }
        out.push(b'\n');
        ctx.out(&out).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    fn ok(args: &[&str], out: &str) {
        let mut argv = vec!["seq"];
        argv.extend_from_slice(args);
        check(&argv, &[], "", out, "", 0);
    }
    fn usage(args: &[&str], msg: &str) {
        let mut argv = vec!["seq"];
        argv.extend_from_slice(args);
        check(&argv, &[], "", "", &format!("seq: {msg}\nTry 'seq --help' for more information.\n"), 1);
    }

    #[test]
    fn sequences() {
        ok(&["3"], "1\n2\n3\n");
        ok(&["2", "4"], "2\n3\n4\n");
        ok(&["1", "2", "9"], "1\n3\n5\n7\n9\n");
        ok(&["5", "1"], "");
        ok(&["5", "-1", "1"], "5\n4\n3\n2\n1\n");
        ok(&["10", "-3", "1"], "10\n7\n4\n1\n");
        ok(&["-1"], "");
        ok(&["-0", "1"], "-0\n1\n");
        ok(&["0", "0.5", "2"], "0.0\n0.5\n1.0\n1.5\n2.0\n");
        ok(&["0", "0.1", "0.3"], "0.0\n0.1\n0.2\n0.3\n");
        ok(&["1", "0.1", "1.3"], "1.0\n1.1\n1.2\n1.3\n");
        ok(&["0.000001", "0.000001", "0.000003"], "0.000001\n0.000002\n0.000003\n");
        ok(&["1.5", "3"], "1.5\n2.5\n");
        ok(&["1.0", "3"], "1.0\n2.0\n3.0\n");
        ok(&["1e2", "1e2"], "100\n");
        ok(&["1e1", "1e1", "3e1"], "10\n20\n30\n");
        ok(&["1e-1", "3e-1"], "0.1\n");
        ok(&["0x10", "0x12"], "16\n17\n18\n");
        ok(&[" 2", "3"], "2\n3\n");
    }

    #[test]
    fn options() {
        ok(&["-w", "8", "11"], "08\n09\n10\n11\n");
        ok(&["-w", "-5", "2"], "-5\n-4\n-3\n-2\n-1\n00\n01\n02\n");
        ok(&["-w", "1", "0.5", "3"], "1.0\n1.5\n2.0\n2.5\n3.0\n");
        ok(&["-w", "0.5", "3"], "0.5\n1.5\n2.5\n");
        ok(&["-w", "0.5", "10"], "00.5\n01.5\n02.5\n03.5\n04.5\n05.5\n06.5\n07.5\n08.5\n09.5\n");
        ok(&["-w", "1", "1", "1e1"], "01\n02\n03\n04\n05\n06\n07\n08\n09\n10\n");
        ok(&["-w", "12e-1", "12e-1"], "01.2\n");
        ok(&["-w", "0.5e1", "0.5e1"], "05\n");
        ok(&["-w", "1e-2", "1e-2"], "0.01\n");
        ok(&["-w", "009", "011"], "009\n010\n011\n");
        ok(&["-s,", "1", "3"], "1,2,3\n");
        ok(&["-s", "\\n", "1", "2"], "1\\n2\n");
        ok(&["-s", "", "1", "3"], "123\n");
        ok(&["-f", "%03g", "1", "3"], "001\n002\n003\n");
        ok(&["-f", "x%.2fy", "1", "2"], "x1.00y\nx2.00y\n");
        ok(&["-f", "%%%g", "1", "2"], "%1\n%2\n");
        ok(&["-f", "%.3e", "1", "2"], "1.000e+00\n2.000e+00\n");
        ok(&["-f", "%5.1f|", "1", "2"], "  1.0|\n  2.0|\n");
    }

    #[test]
    fn errors() {
        usage(&["x"], "invalid floating point argument: 'x'");
        usage(&["1", "x"], "invalid floating point argument: 'x'");
        usage(&["2 ", "3"], "invalid floating point argument: '2 '");
        usage(&[], "missing operand");
        usage(&["1", "2", "3", "4"], "extra operand '4'");
        usage(&["1", "0", "3"], "invalid Zero increment value: '0'");
        usage(&["nan"], "invalid 'not-a-number' argument: 'nan'");
        usage(&["-w", "-f", "%f", "1"], "format string may not be specified when printing equal width strings");
        check(&["seq", "-f", "%d", "1"], &[], "", "", "seq: format '%d' has unknown %d directive\n", 1);
        check(&["seq", "-f", "a", "1"], &[], "", "", "seq: format 'a' has no % directive\n", 1);
        check(&["seq", "-f", "%f%f", "1"], &[], "", "", "seq: format '%f%f' has too many % directives\n", 1);
    }
}
