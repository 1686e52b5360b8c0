//! `numfmt` (GNU coreutils): convert numbers to and from human-readable
//! form: `--from`/`--to` `si|iec|iec-i` (`--from=auto`), `--from-unit`,
//! `--to-unit`, `--round`, `--suffix`, `--padding`, `--format`, `--field`,
//! `-d`, `--header`, `--invalid`, `-z`; fields keep their width as GNU's
//! auto-padding does. Values are doubles (GNU uses long doubles).

use super::util::{bad_arg, parse_size, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Numfmt;

const SPEC: Spec = Spec::new(
    "d:z",
    &[
        ("from", Arg::Yes, "from"),
        ("from-unit", Arg::Yes, "from-unit"),
        ("to", Arg::Yes, "to"),
        ("to-unit", Arg::Yes, "to-unit"),
        ("round", Arg::Yes, "round"),
        ("suffix", Arg::Yes, "suffix"),
        ("padding", Arg::Yes, "padding"),
        ("format", Arg::Yes, "format"),
        ("field", Arg::Yes, "field"),
        ("delimiter", Arg::Yes, "d"),
        ("header", Arg::Optional, "header"),
        ("invalid", Arg::Yes, "invalid"),
        ("grouping", Arg::No, "grouping"),
        ("debug", Arg::No, "debug"),
        ("zero-terminated", Arg::No, "z"),
    ],
    "[OPTION]... [NUMBER]...",
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scale {
    None,
    Auto,
    Si,
    Iec,
    IecI,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    Up,
    Down,
    FromZero,
    TowardsZero,
    Nearest,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Invalid {
    Abort,
    Fail,
    Warn,
    Ignore,
}

struct Cfg {
    from: Scale,
    to: Scale,
    from_unit: f64,
    to_unit: f64,
    round: Round,
    suffix: Option<String>,
    /// Width to pad to: positive aligns right, negative left; 0 none.
    padding: i64,
    auto_padding: bool,
    zero_pad: usize,
    user_precision: Option<usize>,
    prefix: String,
    postfix: String,
    fields: Vec<(usize, usize)>,
    delim: Option<u8>,
    invalid: Invalid,
}

const SUFFIXES: &[u8] = b"KMGTPEZY";

fn round(v: f64, r: Round) -> f64 {
    match r {
        Round::Up => v.ceil(),
        Round::Down => v.floor(),
        Round::FromZero => {
            if v < 0.0 {
                v.floor()
            } else {
                v.ceil()
            }
        }
        Round::TowardsZero => v.trunc(),
        Round::Nearest => {
            if v < 0.0 {
                (v - 0.5).trunc()
            } else {
                (v + 0.5).trunc()
            }
        }
    }
}

/// A parse failure: GNU's message (the caller adds the exit status).
type PErr = String;

/// GNU's simple_strtod_human: the value and the digits after the point
/// (0 when a suffix scaled it).
fn parse_number(text: &str, cfg: &Cfg) -> Result<(f64, usize), PErr> {
    let s = text.trim_start_matches([' ', '\t']);
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        let f0 = i + 1;
        let mut j = f0;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        frac_digits = j - f0;
        i = j;
    }
    if int_digits + frac_digits == 0 {
        return Err(format!("invalid number: {}", quote_locale(text)));
    }
    let digits = s[int_start..i].bytes().filter(u8::is_ascii_digit).count();
    let lead_zeros = s[int_start..i].bytes().take_while(|&c| c == b'0' || c == b'.').filter(|&c| c == b'0').count();
    if digits.saturating_sub(lead_zeros) > 27 {
        return Err(format!("value too large to be converted: {}", quote_locale(text)));
    }
    let mut val: f64 = s[..i].parse().unwrap_or(0.0);
    let mut precision = frac_digits;
    let rest = &s[i..];
    if !rest.is_empty() {
        let c = rest.as_bytes()[0];
        let Some(power) = SUFFIXES.iter().position(|&x| x == c) else {
            return Err(format!("invalid suffix in input: {}", quote_locale(text)));
        };
        if cfg.from == Scale::None {
            return Err(format!("rejecting suffix in input: {} (consider using --from)", quote_locale(text)));
        }
        let mut after = &rest[1..];
        let base = match cfg.from {
            Scale::Si => 1000.0,
            Scale::Iec => 1024.0,
            Scale::IecI => {
                let Some(a) = after.strip_prefix('i') else {
                    return Err(format!("missing 'i' suffix in input: {} (e.g. Ki/Mi/Gi)", quote_locale(text)));
                };
                after = a;
                1024.0
            }
            _ => match after.strip_prefix('i') {
                Some(a) => {
                    after = a;
                    1024.0
                }
                None => 1000.0,
            },
        };
        if !after.is_empty() {
            return Err(format!("invalid suffix in input: {}", quote_locale(text)));
        }
        val *= f64::powi(base, power as i32 + 1);
        precision = 0;
    }
    Ok((val, precision))
}

fn scale_base(s: Scale) -> f64 {
    match s {
        Scale::Iec | Scale::IecI => 1024.0,
        _ => 1000.0,
    }
}

/// `v` with `prec` decimals, zeros after its sign up to `width`
/// (`{v:0width$.prec$}`, for any width and precision, within the budget).
fn zero_padded(v: f64, width: usize, prec: usize) -> String {
    use crate::commands::util::pad;
    let s = pad::fixed(v, prec);
    let n = pad::room(width, s.len());
    if n == 0 {
        return s;
    }
    let (sign, digits) = if s.starts_with('-') { s.split_at(1) } else { ("", s.as_str()) };
    let mut out = String::with_capacity(s.len() + n);
    out.push_str(sign);
    out.extend(std::iter::repeat_n('0', n));
    out.push_str(digits);
    out
}

/// GNU's double_to_human.
fn to_human(val: f64, precision: usize, cfg: &Cfg) -> String {
    let zp = cfg.zero_pad;
    if cfg.to == Scale::None {
        let p = 10f64.powi(precision as i32);
        let mut v = round(val * p, cfg.round) / p;
        if v == 0.0 {
            v = 0.0;
        }
        return zero_padded(v, zp, precision);
    }
    let base = scale_base(cfg.to);
    let mut v = val;
    let mut power = 0usize;
    while v.abs() >= base && power < 9 {
        power += 1;
        v /= base;
    }
    let adjust = match cfg.user_precision {
        Some(u) => (power * 3).min(u),
        None if v.abs() < 10.0 => 1,
        None => 0,
    };
    let p = 10f64.powi(adjust as i32);
    v = round(v * p, cfg.round) / p;
    if v.abs() >= base {
        v /= base;
        power += 1;
    }
    if v == 0.0 {
        v = 0.0;
    }
    let decimals = match cfg.user_precision {
        Some(u) => u,
        None => usize::from(v != 0.0 && v.abs() < 10.0 && power > 0),
    };
    let letter = if power == 0 { String::new() } else { (SUFFIXES[power - 1] as char).to_string() };
    let mut s = format!("{}{letter}", zero_padded(v, zp, decimals));
    if cfg.to == Scale::IecI && power > 0 {
        s.push('i');
    }
    s
}

/// `--field` ranges: `N`, `N-M`, `N-`, `-M`, `-`, comma separated.
fn parse_fields(s: &str) -> Result<Vec<(usize, usize)>, String> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let num = |t: &str| -> Result<usize, String> {
            let n: usize = t.parse().map_err(|_| format!("invalid field value {}", quote_locale(t)))?;
            if n == 0 {
                return Err("fields are numbered from 1".into());
            }
            Ok(n)
        };
        let (a, b) = match part.split_once('-') {
            None => {
                let n = num(part)?;
                (n, n)
            }
            Some((a, b)) => {
                let a = if a.is_empty() { 1 } else { num(a)? };
                let b = if b.is_empty() { usize::MAX } else { num(b)? };
                if b < a {
                    return Err("invalid decreasing range".into());
                }
                (a, b)
            }
        };
        out.push((a, b));
    }
    Ok(out)
}

/// `--format`: prefix, `%[0]['][-][N][.][N]f`, suffix.
fn parse_format(fmt: &str, cfg: &mut Cfg) -> Result<(), String> {
    let b = fmt.as_bytes();
    let mut i = 0;
    let mut prefix = String::new();
    while i < b.len() {
        if b[i] == b'%' {
            if b.get(i + 1) == Some(&b'%') {
                prefix.push('%');
                i += 2;
                continue;
            }
            break;
        }
        prefix.push(b[i] as char);
        i += 1;
    }
    if i >= b.len() {
        return Err(format!("format {} has no % directive", quote_locale(fmt)));
    }
    let bad = || format!("invalid format {}, directive must be %[0]['][-][N][.][N]f", quote_locale(fmt));
    i += 1;
    let mut zero = false;
    let mut left = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0' => zero = true,
            b'\'' => {}
            b'-' => left = true,
            _ => break,
        }
        i += 1;
    }
    let w0 = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let width: usize = fmt[w0..i].parse().unwrap_or(0);
    if b.get(i) == Some(&b'.') {
        i += 1;
        let p0 = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        cfg.user_precision = Some(fmt[p0..i].parse().unwrap_or(0));
    }
    if b.get(i) != Some(&b'f') {
        return Err(bad());
    }
    i += 1;
    let mut postfix = String::new();
    while i < b.len() {
        if b[i] == b'%' {
            if b.get(i + 1) == Some(&b'%') {
                postfix.push('%');
                i += 2;
                continue;
            }
            return Err(format!("format {} has too many % directives", quote_locale(fmt)));
        }
        postfix.push(b[i] as char);
        i += 1;
    }
    if width > 0 {
        if zero && !left {
            cfg.zero_pad = width;
        } else {
            cfg.padding = if left { -(width as i64) } else { width as i64 };
        }
    }
    cfg.prefix = prefix;
    cfg.postfix = postfix;
    Ok(())
}

/// One field: the converted text, or `Err(message)` if it is not a number.
fn convert(field: &str, index: usize, cfg: &Cfg) -> Result<String, String> {
    let mut text = field.to_string();
    if let Some(suf) = &cfg.suffix {
        if text.len() > suf.len() && text.ends_with(suf.as_str()) {
            text.truncate(text.len() - suf.len());
        }
    }
    let (val, precision) = parse_number(&text, cfg)?;
    let val = val * cfg.from_unit / cfg.to_unit;
    let precision = cfg.user_precision.unwrap_or(precision);
    let mag = if val == 0.0 { 0 } else { val.abs().log10().floor().max(0.0) as usize };
    if cfg.to == Scale::None && mag + precision > 18 {
        let g = format!("{val:e}").replace('e', "e+");
        return Err(if precision > 0 {
            format!("value/precision too large to be printed: '{g}/{precision}' (consider using --to)")
        } else {
            format!("value too large to be printed: '{g}' (consider using --to)")
        });
    }
    let mut s = to_human(val, precision, cfg);
    if let Some(suf) = &cfg.suffix {
        s.push_str(suf);
    }
    let leading = field.len() - field.trim_start_matches([' ', '\t']).len();
    let width = if cfg.padding != 0 {
        cfg.padding
    } else if cfg.auto_padding && (leading > 0 || index > 1) {
        field.len() as i64
    } else {
        0
    };
    let w = width.unsigned_abs() as usize;
    if w > s.chars().count() {
        s = if width < 0 {
            crate::commands::util::pad::left(&s, w)
        } else {
            crate::commands::util::pad::right(&s, w, ' ')
        };
    }
    Ok(format!("{}{s}{}", cfg.prefix, cfg.postfix))
}

/// Convert the selected fields of one line. `Err` carries the output so
/// far and the message of the first bad field.
fn process_line(line: &str, cfg: &Cfg) -> (String, Option<String>) {
    let mut out = String::new();
    let mut err = None;
    let selected = |n: usize| cfg.fields.iter().any(|&(a, b)| n >= a && n <= b);
    // Split into fields: (text, whether a separator followed).
    let mut parts: Vec<&str> = Vec::new();
    match cfg.delim {
        Some(d) => parts.extend(line.split(d as char)),
        None => {
            let b = line.as_bytes();
            let mut i = 0;
            loop {
                let start = i;
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                while i < b.len() && b[i] != b' ' && b[i] != b'\t' {
                    i += 1;
                }
                parts.push(&line[start..i]);
                if i >= b.len() {
                    break;
                }
                i += 1;
            }
        }
    }
    let sep = cfg.delim.map_or(' ', |d| d as char);
    for (k, f) in parts.iter().enumerate() {
        if k > 0 {
            out.push(sep);
        }
        if !selected(k + 1) {
            out.push_str(f);
            continue;
        }
        match convert(f, k + 1, cfg) {
            Ok(s) => out.push_str(&s),
            Err(e) => {
                if cfg.invalid == Invalid::Abort {
                    return (out, Some(e));
                }
                err.get_or_insert(e);
                out.push_str(f);
            }
        }
    }
    (out, err)
}

#[async_trait]
impl Utility for Numfmt {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut cfg = Cfg {
            from: Scale::None,
            to: Scale::None,
            from_unit: 1.0,
            to_unit: 1.0,
            round: Round::FromZero,
            suffix: None,
            padding: 0,
            auto_padding: false,
            zero_pad: 0,
            user_precision: None,
            prefix: String::new(),
            postfix: String::new(),
            fields: vec![(1, 1)],
            delim: None,
            invalid: Invalid::Abort,
        };
        let mut header = 0usize;
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            let bad = |name: &str, valid: &[&str]| bad_arg(v, name, valid);
            match o.id {
                "from" | "to" => {
                    let s = match v {
                        "none" => Scale::None,
                        "auto" if o.id == "from" => Scale::Auto,
                        "si" => Scale::Si,
                        "iec" => Scale::Iec,
                        "iec-i" => Scale::IecI,
                        _ => {
                            let valid: &[&str] = if o.id == "from" {
                                &["'none'", "'auto'", "'si'", "'iec'", "'iec-i'"]
                            } else {
                                &["'none'", "'si'", "'iec'", "'iec-i'"]
                            };
                            return Err(UError::usage(1, bad(o.id, valid)));
                        }
                    };
                    if o.id == "from" {
                        cfg.from = s;
                    } else {
                        cfg.to = s;
                    }
                }
                "from-unit" | "to-unit" => match parse_size(v).filter(|&n| n > 0) {
                    Some(n) if o.id == "from-unit" => cfg.from_unit = n as f64,
                    Some(n) => cfg.to_unit = n as f64,
                    None => {
                        return Err(UError::new(1, format!("invalid unit size: {}", quote_locale(v))));
                    }
                },
                "round" => {
                    cfg.round = match v {
                        "up" => Round::Up,
                        "down" => Round::Down,
                        "from-zero" => Round::FromZero,
                        "towards-zero" => Round::TowardsZero,
                        "nearest" => Round::Nearest,
                        _ => {
                            let valid = ["'up'", "'down'", "'from-zero'", "'towards-zero'", "'nearest'"];
                            return Err(UError::usage(1, bad("round", &valid)));
                        }
                    }
                }
                "suffix" => cfg.suffix = Some(v.to_string()),
                "padding" => match v.parse::<i64>() {
                    Ok(n) if n != 0 => cfg.padding = n,
                    _ => {
                        return Err(UError::new(1, format!("invalid padding value {}", quote_locale(v))));
                    }
                },
                "format" => {
                    if let Err(e) = parse_format(v, &mut cfg) {
                        return Err(UError::new(1, e));
                    }
                }
                "field" => match parse_fields(v) {
                    Ok(f) => cfg.fields = f,
                    Err(e) => {
                        return Err(UError::usage(1, e));
                    }
                },
                "d" => {
                    if v.len() != 1 {
                        return Err(UError::new(1, "the delimiter must be a single character"));
                    }
                    cfg.delim = Some(v.as_bytes()[0]);
                }
                "header" => {
                    header = match o.val.as_deref() {
                        None => 1,
                        Some(h) => match h.parse::<usize>() {
                            Ok(n) if n > 0 => n,
                            _ => {
                                return Err(UError::new(1, format!("invalid header value {}", quote_locale(h))));
                            }
                        },
                    }
                }
                "invalid" => {
                    cfg.invalid = match v {
                        "abort" => Invalid::Abort,
                        "fail" => Invalid::Fail,
                        "warn" => Invalid::Warn,
                        "ignore" => Invalid::Ignore,
                        _ => {
                            return Err(UError::usage(1, bad("invalid", &["'abort'", "'fail'", "'warn'", "'ignore'"])));
                        }
                    }
                }
                _ => {}
            }
        }
        cfg.auto_padding = cfg.padding == 0 && cfg.delim.is_none();
        let eol = if p.has("z") { b'\0' } else { b'\n' };
        let mut failed = false;
        let mut handle = |line: &str, out: &mut Vec<u8>, errs: &mut Vec<String>| -> bool {
            let (s, e) = process_line(line, &cfg);
            if let Some(e) = e {
                if cfg.invalid != Invalid::Ignore {
                    errs.push(e);
                }
                if cfg.invalid == Invalid::Abort {
                    out.extend_from_slice(s.as_bytes());
                    return false;
                }
                if cfg.invalid == Invalid::Fail {
                    failed = true;
                }
            }
            out.extend_from_slice(s.as_bytes());
            out.push(eol);
            true
        };
        let mut out = Vec::new();
        let mut errs = Vec::new();
        if !p.operands.is_empty() {
            for a in &p.operands {
                let go = handle(a, &mut out, &mut errs);
                ctx.out(&std::mem::take(&mut out)).await?;
                for e in errs.drain(..) {
                    ctx.err(e).await?;
                }
                if !go {
                    return Ok(2);
                }
            }
        } else {
            let mut src = match ctx.open_lines("-", eol).await {
                Ok(s) => s,
                Err(e) => {
                    return Err(UError::new(1, e));
                }
            };
            let mut n = 0usize;
            while let Some(l) = src.next_text(ctx).await {
                n += 1;
                if n <= header {
                    out.extend_from_slice(&l);
                    out.push(eol);
                } else {
                    let line = String::from_utf8_lossy(&l).into_owned();
                    let go = handle(&line, &mut out, &mut errs);
                    ctx.out(&std::mem::take(&mut out)).await?;
                    for e in errs.drain(..) {
                        ctx.err(e).await?;
                    }
                    if !go {
                        return Ok(2);
                    }
                }
                if !ctx.still_running() {
                    break;
                }
            }
            ctx.out(&out).await?;
        }
        Ok(if failed { 2 } else { 0 })
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    fn n(args: &[&str], out: &str) {
        let mut argv = vec!["numfmt"];
        argv.extend_from_slice(args);
        check(&argv, &[], "", out, "", 0);
    }
    fn bad(args: &[&str], out: &str, err: &str, status: i32) {
        let mut argv = vec!["numfmt"];
        argv.extend_from_slice(args);
        check(&argv, &[], "", out, err, status);
    }

    #[test]
    fn to_scales() {
        n(&["--to=si", "1500"], "1.5K\n");
        n(&["--to=si", "1000"], "1.0K\n");
        n(&["--to=si", "999"], "999\n");
        n(&["--to=si", "123456789"], "124M\n");
        n(&["--to=si", "1001"], "1.1K\n");
        n(&["--to=si", "9999"], "10K\n");
        n(&["--to=si", "99999"], "100K\n");
        n(&["--to=si", "999999"], "1.0M\n");
        n(&["--to=iec", "1024"], "1.0K\n");
        n(&["--to=iec", "1536"], "1.5K\n");
        n(&["--to=iec-i", "1048576"], "1.0Mi\n");
        n(&["--to=iec", "1023"], "1023\n");
        n(&["--to=si", "--", "-1500"], "-1.5K\n");
        n(&["--to=si", "0"], "0\n");
        n(&["--to=si", "1.25"], "1\n");
        n(&["--to=si", "9.96"], "10\n");
        n(&["--to=si", "999.9"], "1.0K\n");
        n(&["--to=si", "12.34"], "13\n");
        n(&["--to=si", "1000.5"], "1.1K\n");
        n(&["--to=si", "1", "2", "3"], "1\n2\n3\n");
    }

    #[test]
    fn from_and_options() {
        n(&["--from=si", "1K"], "1000\n");
        n(&["--from=si", "1.5M"], "1500000\n");
        n(&["--from=iec", "1K"], "1024\n");
        n(&["--from=iec-i", "1Ki"], "1024\n");
        n(&["--from=auto", "1Ki", "1K"], "1024\n1000\n");
        n(&["--from=si", "1.5"], "1.5\n");
        n(&["1.5"], "1.5\n");
        n(&["1000.50"], "1000.50\n");
        n(&["007"], "7\n");
        n(&["--", "-0"], "0\n");
        n(&[" 5"], " 5\n");
        n(&["5 "], "5 \n");
        n(&["--to=si", "--suffix=B", "1500"], "1.5KB\n");
        n(&["--suffix=B", "100B"], "100B\n");
        n(&["--padding=10", "--to=si", "1500"], "      1.5K\n");
        n(&["--padding=-10", "--to=si", "1500"], "1.5K      \n");
        n(&["--format=%.3f", "--to=si", "1234567"], "1.235M\n");
        n(&["--format=%10f", "5"], "         5\n");
        n(&["--format=%-10fx", "5"], "5         x\n");
        n(&["--format=%08f", "5"], "00000005\n");
        n(&["--to=si", "--format=%.1f", "1000"], "1.0K\n");
        n(&["--to=si", "--format=%.2f", "100"], "100.00\n");
        n(&["--to=si", "--round=down", "1999"], "1.9K\n");
        n(&["--to=si", "--round=nearest", "1450"], "1.5K\n");
        n(&["--to=si", "--round=towards-zero", "--", "-1999"], "-1.9K\n");
        n(&["--to=si", "--round=up", "1001"], "1.1K\n");
        n(&["--from-unit=1024", "--to=si", "1"], "1.1K\n");
        n(&["--to-unit=1000", "2000000"], "2000\n");
    }

    #[test]
    fn fields_and_header() {
        check(&["numfmt", "--to=si", "--field=2"], &[], "  1000   2000 x\n", "  1000   2.0K x\n", "", 0);
        check(&["numfmt", "--to=si"], &[], "  1000   2000 x\n", "  1.0K   2000 x\n", "", 0);
        check(&["numfmt", "--to=si", "--field=1,2"], &[], "  1000   2000 x\n", "  1.0K   2.0K x\n", "", 0);
        check(&["numfmt", "--to=si", "--field=2-"], &[], "  1000   2000 3000\n", "  1000   2.0K 3.0K\n", "", 0);
        check(&["numfmt", "-d:", "--to=si", "--field=2"], &[], "a:1000:2000\n", "a:1.0K:2000\n", "", 0);
        check(&["numfmt", "--header=2", "--to=si"], &[], "H1\nH2\n1000\n", "H1\nH2\n1.0K\n", "", 0);
        check(&["numfmt", "--header", "--to=si"], &[], "H1\n1000\n", "H1\n1.0K\n", "", 0);
        check(&["numfmt", "--field=3", "--to=si"], &[], "x 1000\n", "x 1000\n", "", 0);
        check(&["numfmt", "--to=si"], &[], "a 1000\n", "", "numfmt: invalid number: 'a'\n", 2);
        check(&["numfmt", "-z", "--to=si"], &[], "1000\0", "1.0K\0", "", 0);
    }

    #[test]
    fn errors() {
        bad(&["--from=none", "1K"], "", "numfmt: rejecting suffix in input: '1K' (consider using --from)\n", 2);
        bad(&["abc"], "", "numfmt: invalid number: 'abc'\n", 2);
        bad(&["+5"], "", "numfmt: invalid number: '+5'\n", 2);
        bad(&["--from=si", "1X"], "", "numfmt: invalid suffix in input: '1X'\n", 2);
        bad(&["--to=si", "1e3"], "", "numfmt: invalid suffix in input: '1e3'\n", 2);
        bad(
            &["--to=si", "1000000000000000000000000000"],
            "",
            "numfmt: value too large to be converted: '1000000000000000000000000000'\n",
            2,
        );
        bad(&["--invalid=warn", "abc", "5"], "abc\n5\n", "numfmt: invalid number: 'abc'\n", 0);
        bad(&["--invalid=ignore", "abc", "5"], "abc\n5\n", "", 0);
        bad(&["--invalid=fail", "abc", "5"], "abc\n5\n", "numfmt: invalid number: 'abc'\n", 2);
        bad(&["--format=%d", "5"], "", "numfmt: invalid format '%d', directive must be %[0]['][-][N][.][N]f\n", 1);
        bad(&["--format=a%fb%f", "5"], "", "numfmt: format 'a%fb%f' has too many % directives\n", 1);
        bad(
            &["--field=0", "5"],
            "",
            "numfmt: fields are numbered from 1\nTry 'numfmt --help' for more information.\n",
            1,
        );
        bad(
            &["--to=bad", "5"],
            "",
            "numfmt: invalid argument 'bad' for '--to'\nValid arguments are:\n  - 'none'\n  - 'si'\n  - 'iec'\n  \
             - 'iec-i'\nTry 'numfmt --help' for more information.\n",
            1,
        );
        bad(&["--padding=x", "5"], "", "numfmt: invalid padding value 'x'\n", 1);
    }
}
