//! `od` (GNU coreutils): dump bytes as `-t` types (`a c d o u x f` with
//! sizes `1 2 4 8`/`C S I L`/`F D`, `z` for a text trailer) or the old
//! letters (`-a -b -c -d -f -i -l -o -s -x` ...), addresses in `-A d|o|x|n`,
//! `-j` skip, `-N` limit, `-w` width, `--endian`, and `*` for repeated lines
//! unless `-v`. Columns of several types line up as GNU pads them.

use super::util::{parse_size, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Od;

const SPEC: Spec = Spec::new(
    "A:j:N:t:vw::abcdfilosxBDeFhHILOX",
    &[
        ("address-radix", Arg::Yes, "A"),
        ("skip-bytes", Arg::Yes, "j"),
        ("read-bytes", Arg::Yes, "N"),
        ("format", Arg::Yes, "t"),
        ("output-duplicates", Arg::No, "v"),
        ("width", Arg::Optional, "w"),
        ("endian", Arg::Yes, "endian"),
    ],
    "[OPTION]... [FILE]...",
);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fmt {
    Signed,
    Unsigned,
    Octal,
    Hex,
    Float,
    Named,
    Char,
}

#[derive(Clone, Debug)]
struct TypeSpec {
    fmt: Fmt,
    size: usize,
    /// Printed width of one field (without the blank before it).
    width: usize,
    /// `z`: append `>text<`.
    trailer: bool,
    pad: usize,
}

fn field_width(fmt: Fmt, size: usize) -> usize {
    let idx = match size {
        1 => 0,
        2 => 1,
        4 => 2,
        _ => 3,
    };
    match fmt {
        Fmt::Hex => [2, 4, 8, 16][idx],
        Fmt::Octal => [3, 6, 11, 22][idx],
        Fmt::Unsigned => [3, 5, 10, 20][idx],
        Fmt::Signed => [4, 6, 11, 20][idx],
        Fmt::Float => match size {
            4 => 15,
            8 => 24,
            _ => 29,
        },
        Fmt::Named | Fmt::Char => 3,
    }
}

/// Parse one `-t` string into its specs; `Err` is GNU's message.
fn parse_types(s: &str, out: &mut Vec<TypeSpec>) -> Result<(), String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        i += 1;
        let (fmt, size) = match c {
            b'd' | b'o' | b'u' | b'x' => {
                let fmt = match c {
                    b'd' => Fmt::Signed,
                    b'o' => Fmt::Octal,
                    b'u' => Fmt::Unsigned,
                    _ => Fmt::Hex,
                };
                let size = match b.get(i) {
                    Some(b'C') => {
                        i += 1;
                        1
                    }
                    Some(b'S') => {
                        i += 1;
                        2
                    }
                    Some(b'I') => {
                        i += 1;
                        4
                    }
                    Some(b'L') => {
                        i += 1;
                        8
                    }
                    Some(d) if d.is_ascii_digit() => {
                        let n0 = i;
                        while b.get(i).is_some_and(u8::is_ascii_digit) {
                            i += 1;
                        }
                        let n: usize = s[n0..i].parse().unwrap_or(usize::MAX);
                        if ![1, 2, 4, 8].contains(&n) {
                            return Err(format!(
                                "invalid type string {};\nthis system doesn't provide a {n}-byte integral type",
                                quote_locale(&s[start..])
                            ));
                        }
                        n
                    }
                    _ => 4,
                };
                (fmt, size)
            }
            b'f' => {
                let size = match b.get(i) {
                    Some(b'F') => {
                        i += 1;
                        4
                    }
                    Some(b'D') => {
                        i += 1;
                        8
                    }
                    Some(b'L') => {
                        i += 1;
                        16
                    }
                    Some(d) if d.is_ascii_digit() => {
                        let n0 = i;
                        while b.get(i).is_some_and(u8::is_ascii_digit) {
                            i += 1;
                        }
                        let n: usize = s[n0..i].parse().unwrap_or(usize::MAX);
                        if ![4, 8, 16].contains(&n) {
                            return Err(format!(
                                "invalid type string {};\nthis system doesn't provide a {n}-byte floating point type",
                                quote_locale(&s[start..])
                            ));
                        }
                        n
                    }
                    _ => 8,
                };
                (Fmt::Float, size)
            }
            b'a' => (Fmt::Named, 1),
            b'c' => (Fmt::Char, 1),
            _ => {
                let ch = s[start..].chars().next().unwrap_or('?');
                return Err(format!(
                    "invalid character {} in type string {}",
                    quote_locale(&ch.to_string()),
                    quote_locale(s)
                ));
            }
        };
        let trailer = b.get(i) == Some(&b'z');
        if trailer {
            i += 1;
        }
        out.push(TypeSpec { fmt, size, width: field_width(fmt, size), trailer, pad: 0 });
    }
    Ok(())
}

const NAMES: [&str; 33] = [
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si", "dle",
    "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
];

/// `%g` with `prec` significant digits from the shortest round-trip digits.
fn g_format(digits: &str, exp: i32, prec: usize) -> String {
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if exp < -4 || exp >= prec as i32 {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else if exp < 0 {
        format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
    } else {
        let point = exp as usize + 1;
        if digits.len() <= point {
            format!("{digits}{}", "0".repeat(point - digits.len()))
        } else {
            format!("{}.{}", &digits[..point], &digits[point..])
        }
    }
}

/// GNU's ftoastr: the shortest `%.*g` (at least FLT_DIG/DBL_DIG digits for
/// normal numbers) that reads back as the same value.
fn float_str(v: f64, single: bool) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    let normal = if single { (v as f32).is_normal() } else { v.is_normal() };
    let min = if !normal {
        1
    } else if single {
        6
    } else {
        15
    };
    // The fewest digits, from `min` up, that read back as the same value,
    // each correctly rounded as printf's %.*g would (ties to even).
    let mut prec = min;
    let mut sci = String::new();
    while prec <= 17 {
        sci = format!("{:.*e}", prec - 1, v);
        let back_ok = if single {
            sci.parse::<f32>().is_ok_and(|b| b == v as f32)
        } else {
            sci.parse::<f64>().is_ok_and(|b| b == v)
        };
        if back_ok {
            break;
        }
        prec += 1;
    }
    let (neg, sci) = match sci.strip_prefix('-') {
        Some(s) => (true, s.to_string()),
        None => (false, sci),
    };
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let s = g_format(&digits, exp, prec);
    if neg {
        format!("-{s}")
    } else {
        s
    }
}

fn render(spec: &TypeSpec, chunk: &[u8], big: bool) -> String {
    if spec.size == 16 {
        // An x87 long double: 10 bytes of value in a 16-byte slot.
        let mut b = [0u8; 16];
        let n = chunk.len().min(16);
        b[..n].copy_from_slice(&chunk[..n]);
        if big {
            b.reverse();
        }
        let mut x = [0u8; 10];
        x.copy_from_slice(&b[..10]);
        return super::util::ldouble::shortest_g(super::util::ldouble::from_x87(&x));
    }
    let mut buf = [0u8; 8];
    buf[..chunk.len()].copy_from_slice(chunk);
    let raw = &buf[..spec.size];
    let mut u: u64 = 0;
    if big {
        for &b in raw {
            u = (u << 8) | u64::from(b);
        }
    } else {
        for &b in raw.iter().rev() {
            u = (u << 8) | u64::from(b);
        }
    }
    let bits = spec.size * 8;
    match spec.fmt {
        Fmt::Hex => format!("{u:0w$x}", w = spec.width),
        Fmt::Octal => format!("{u:0w$o}", w = spec.width),
        Fmt::Unsigned => u.to_string(),
        Fmt::Signed => {
            let s = if bits == 64 { u as i64 } else { ((u << (64 - bits)) as i64) >> (64 - bits) };
            s.to_string()
        }
        Fmt::Float => {
            if spec.size == 4 {
                float_str(f64::from(f32::from_bits(u as u32)), true)
            } else {
                float_str(f64::from_bits(u), false)
            }
        }
        Fmt::Named => {
            let c = raw[0] & 0x7f;
            match c {
                0..=32 => NAMES[usize::from(c)].to_string(),
                127 => "del".into(),
                _ => (c as char).to_string(),
            }
        }
        Fmt::Char => {
            let c = raw[0];
            match c {
                0 => "\\0".into(),
                7 => "\\a".into(),
                8 => "\\b".into(),
                12 => "\\f".into(),
                10 => "\\n".into(),
                13 => "\\r".into(),
                9 => "\\t".into(),
                11 => "\\v".into(),
                32..=126 => (c as char).to_string(),
                _ => format!("{c:03o}"),
            }
        }
    }
}

struct Layout {
    specs: Vec<TypeSpec>,
    per_line: usize,
    radix: char,
    big: bool,
}

impl Layout {
    fn address(&self, off: u64) -> String {
        match self.radix {
            'd' => format!("{off:07}"),
            'x' => format!("{off:06x}"),
            'n' => String::new(),
            _ => format!("{off:07o}"),
        }
    }

    /// The lines of one block of `n` bytes (`block` is zero-filled past `n`).
    fn block(&self, off: u64, block: &[u8], n: usize, out: &mut Vec<u8>) {
        let addr = self.address(off);
        for (i, spec) in self.specs.iter().enumerate() {
            if i == 0 {
                out.extend_from_slice(addr.as_bytes());
            } else {
                out.extend(std::iter::repeat_n(b' ', addr.len()));
            }
            let fields = self.per_line / spec.size;
            let blank = (self.per_line - n) / spec.size;
            let mut pad_remaining = spec.pad;
            for f in 0..fields - blank {
                let i = fields - f;
                let next_pad = spec.pad * (i - 1) / fields;
                let w = pad_remaining - next_pad + spec.width;
                let s = render(spec, &block[f * spec.size..(f + 1) * spec.size], self.big);
                out.extend_from_slice(format!("{s:>w$}").as_bytes());
                pad_remaining = next_pad;
            }
            if spec.trailer {
                let fw = spec.width + spec.pad / fields;
                out.extend(std::iter::repeat_n(b' ', blank * fw));
                out.extend_from_slice(b"  >");
                out.extend(block[..n].iter().map(|&c| if (32..127).contains(&c) { c } else { b'.' }));
                out.push(b'<');
            }
            out.push(b'\n');
        }
    }
}

fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// `-j`/`-N` values: decimal, `0x` hex or `0` octal, with size suffixes.
fn parse_count(s: &str) -> Option<u64> {
    let t = s.trim_start();
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let end = h.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(h.len());
        let n = u64::from_str_radix(&h[..end], 16).ok()?;
        let mult = if end == h.len() { 1 } else { parse_size(&format!("1{}", &h[end..]))? };
        return n.checked_mul(mult);
    }
    if t.len() > 1 && t.starts_with('0') {
        let end = t.find(|c: char| !('0'..='7').contains(&c)).unwrap_or(t.len());
        let n = u64::from_str_radix(&t[..end], 8).ok()?;
        let mult = if end == t.len() { 1 } else { parse_size(&format!("1{}", &t[end..]))? };
        return n.checked_mul(mult);
    }
    parse_size(t)
}

#[async_trait]
impl Utility for Od {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // A bare `-w` takes no value (getopt's optional argument).
        let args: Vec<String> =
            ctx.args.iter().map(|a| if a == "-w" { "--width".to_string() } else { a.clone() }).collect();
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut specs = Vec::new();
        let mut radix = 'o';
        let (mut skip, mut limit) = (0u64, None);
        let mut width = None;
        let mut big = false;
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            let letter = match o.id {
                "a" => Some("a"),
                "b" => Some("o1"),
                "c" => Some("c"),
                "d" => Some("u2"),
                "f" => Some("fF"),
                "i" => Some("dI"),
                "l" => Some("dL"),
                "o" | "B" => Some("o2"),
                "s" => Some("d2"),
                "x" | "h" => Some("x2"),
                "D" => Some("u4"),
                "e" | "F" => Some("fD"),
                "H" | "X" => Some("x4"),
                "I" | "L" => Some("d8"),
                "O" => Some("o4"),
                _ => None,
            };
            if let Some(t) = letter {
                let _ = parse_types(t, &mut specs);
                continue;
            }
            match o.id {
                "t" => {
                    if let Err(e) = parse_types(v, &mut specs) {
                        return Err(UError::new(1, e));
                    }
                }
                "A" => {
                    let mut cs = v.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c @ ('d' | 'o' | 'x' | 'n')), None) => radix = c,
                        _ => {
                            ctx.err(format!(
                                "invalid output address radix {}; it must be one character from [doxn]",
                                quote_locale(v)
                            ))
                            .await?;
                            return Ok(1);
                        }
                    }
                }
                "j" | "N" => match parse_count(v) {
                    Some(n) if o.id == "j" => skip = n,
                    Some(n) => limit = Some(n),
                    None => {
                        return Err(UError::new(1, format!("invalid -{} argument {}", o.id, quote_locale(v))));
                    }
                },
                "w" => {
                    width = Some(match o.val.as_deref() {
                        None => 32,
                        Some(w) => match parse_count(w) {
                            Some(n) if n > 0 => n as usize,
                            _ => {
                                return Err(UError::new(1, format!("invalid -w argument {}", quote_locale(w))));
                            }
                        },
                    })
                }
                "endian" => match v {
                    "big" => big = true,
                    "little" => big = false,
                    _ => {
                        let m = super::util::bad_arg(v, "endian", &["'big'", "'little'"]);
                        return Err(UError::usage(1, m));
                    }
                },
                _ => {}
            }
        }
        if specs.is_empty() {
            let _ = parse_types("o2", &mut specs);
        }
        let l_c_m = specs.iter().fold(1, |a, s| lcm(a, s.size));
        let mut per_line = width.unwrap_or(16);
        if per_line % l_c_m != 0 {
            let fixed = l_c_m;
            ctx.err(format!("warning: invalid width {per_line}; using {fixed} instead")).await?;
            per_line = fixed;
        }
        per_line = per_line.min(1 << 20);
        let width_per_block = specs.iter().map(|s| (s.width + 1) * (per_line / s.size)).max().unwrap_or(0);
        for s in &mut specs {
            s.pad = width_per_block - s.width * (per_line / s.size);
        }
        let lay = Layout { specs, per_line, radix, big };

        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut status = 0;
        let mut opened_any = false;
        let mut block: Vec<u8> = Vec::with_capacity(per_line);
        let mut prev: Option<Vec<u8>> = None;
        let mut prev_equal = false;
        let mut off = skip;
        let mut to_skip = skip;
        let mut left = limit;
        let mut out: Vec<u8> = Vec::new();
        let abbreviate = !p.has("v");
        for f in &files {
            if left == Some(0) {
                break;
            }
            let input = match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) => {
                    ctx.err(format!("{}: {e}", super::util::quotef(f))).await?;
                    status = 1;
                    continue;
                }
            };
            opened_any = true;
            while let Some(chunk) = input.read_chunk().await {
                let mut data: &[u8] = &chunk;
                if to_skip > 0 {
                    let n = (to_skip as usize).min(data.len());
                    data = &data[n..];
                    to_skip -= n as u64;
                }
                if let Some(l) = left.as_mut() {
                    let n = (*l as usize).min(data.len());
                    data = &data[..n];
                    *l -= n as u64;
                }
                while !data.is_empty() {
                    let take = (per_line - block.len()).min(data.len());
                    block.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    if block.len() == per_line {
                        if abbreviate && prev.as_ref() == Some(&block) {
                            if !prev_equal {
                                out.extend_from_slice(b"*\n");
                                prev_equal = true;
                            }
                        } else {
                            prev_equal = false;
                            lay.block(off, &block, per_line, &mut out);
                        }
                        off += per_line as u64;
                        prev = Some(std::mem::take(&mut block));
                    }
                }
                if out.len() >= 64 * 1024 {
                    ctx.out(&std::mem::take(&mut out)).await?;
                }
                if left == Some(0) || !ctx.still_running() {
                    break;
                }
            }
        }
        if !opened_any {
            return Ok(status);
        }
        if to_skip > 0 {
            ctx.out(&out).await?;
            return Err(UError::new(1, "cannot skip past end of combined input"));
        }
        if !block.is_empty() {
            let n = block.len();
            block.resize(per_line, 0);
            lay.block(off, &block, n, &mut out);
            off += n as u64;
        }
        if radix != 'n' {
            out.extend_from_slice(lay.address(off).as_bytes());
            out.push(b'\n');
        }
        ctx.out(&out).await?;
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, make_fs, run_full};
    use crate::limits::Limits;

    /// `hello world\nthis\tis\0\x01\x7f\xc3\xa9 end` (28 bytes; é is the
    /// UTF-8 pair c3 a9).
    const DATA: &str = "hello world\nthis\tis\0\x01\x7fé end";

    fn od(args: &[&str], out: &str) {
        let mut argv = vec!["od"];
        argv.extend_from_slice(args);
        argv.push("o.bin");
        check(&argv, &[("o.bin", DATA)], "", out, "", 0);
    }

    #[test]
    fn default_and_chars() {
        od(
            &[],
            "0000000 062550 066154 020157 067567 066162 005144 064164 071551\n\
             0000020 064411 000163 077401 124703 062440 062156\n0000034\n",
        );
        od(
            &["-c"],
            "0000000   h   e   l   l   o       w   o   r   l   d  \\n   t   h   i   s\n\
             0000020  \\t   i   s  \\0 001 177 303 251       e   n   d\n0000034\n",
        );
        od(
            &["-a"],
            "0000000   h   e   l   l   o  sp   w   o   r   l   d  nl   t   h   i   s\n\
             0000020  ht   i   s nul soh del   C   )  sp   e   n   d\n0000034\n",
        );
        od(
            &["-An", "-tx1", "-c"],
            "  68  65  6c  6c  6f  20  77  6f  72  6c  64  0a  74  68  69  73\n   \
             h   e   l   l   o       w   o   r   l   d  \\n   t   h   i   s\n  \
             09  69  73  00  01  7f  c3  a9  20  65  6e  64\n  \\t   i   s  \\0 001 177 303 251       e   n   d\n",
        );
        od(&["-j", "3", "-N", "4", "-c"], "0000003   l   o       w\n0000007\n");
        od(&["-j", "0x4", "-N", "010", "-c"], "0000004   o       w   o   r   l   d  \\n\n0000014\n");
        od(&["-tx1", "-tc", "-tu1", "-N3"], "0000000  68  65  6c\n          h   e   l\n        104 101 108\n0000003\n");
        od(&["-tc", "-td2", "-N5"], "0000000   h   e   l   l   o\n          25960   27756     111\n0000005\n");
        od(
            &["-tx1z", "-N", "20"],
            "0000000 68 65 6c 6c 6f 20 77 6f 72 6c 64 0a 74 68 69 73  >hello world.this<\n\
             0000020 09 69 73 00                                      >.is.<\n0000024\n",
        );
    }

    #[test]
    fn integers() {
        od(
            &["-Ax", "-tx2"],
            "000000 6568 6c6c 206f 6f77 6c72 0a64 6874 7369\n000010 6909 0073 7f01 a9c3 6520 646e\n00001c\n",
        );
        od(
            &["-Ad", "-tx4"],
            "0000000 6c6c6568 6f77206f 0a646c72 73696874\n0000016 00736909 a9c37f01 646e6520\n0000028\n",
        );
        od(&["-b", "-N", "5"], "0000000 150 145 154 154 157\n0000005\n");
        od(&["-td1", "-N8"], "0000000  104  101  108  108  111   32  119  111\n0000010\n");
        od(&["-tu2", "-N8"], "0000000 25960 27756  8303 28535\n0000010\n");
        od(&["-td4", "-N8"], "0000000  1819043176  1870078063\n0000010\n");
        od(&["-to4", "-N8"], "0000000 15433062550 15735620157\n0000010\n");
        od(&["-tx8", "-N8"], "0000000 6f77206f6c6c6568\n0000010\n");
        od(&["-s", "-N4"], "0000000  25960  27756\n0000004\n");
        od(&["-l", "-N8"], "0000000  8031924123371070824\n0000010\n");
        od(&["-w4", "-tx1", "-N", "10"], "0000000 68 65 6c 6c\n0000004 6f 20 77 6f\n0000010 72 6c\n0000012\n");
        od(&["--endian=big", "-tx2", "-N4"], "0000000 6865 6c6c\n0000004\n");
        od(
            &["-w", "-tx1", "-N40"],
            "0000000 68 65 6c 6c 6f 20 77 6f 72 6c 64 0a 74 68 69 73 09 69 73 00 01 7f c3 a9 20 65 6e 64\n0000034\n",
        );
    }

    #[test]
    fn floats() {
        od(&["-tf4", "-N8"], "0000000   1.1431415e+27   7.6482007e+28\n0000010\n");
        od(&["-tf8", "-N16"], "0000000   8.765776478827897e+228   8.882542258762046e+247\n0000020\n");
        let fs = make_fs(&[]);
        let got = run_full(
            &fs,
            &["od", "-tf4", "-tf8"],
            b"\x00\x00\x80\x3f\x9a\x99\x99\x99\x99\x99\xb9\x3f",
            &[],
            Limits::default(),
        );
        assert_eq!(
            got.out,
            "0000000               1  -1.5881868e-23       1.4499999\n               \
             -2.3534382773174628e-185                  5.2821946e-315\n0000014\n"
        );
    }

    #[test]
    fn duplicates_and_errors() {
        let z = "\0".repeat(64);
        check(&["od"], &[], &z, "0000000 000000 000000 000000 000000 000000 000000 000000 000000\n*\n0000100\n", "", 0);
        check(
            &["od", "-v", "-An", "-w8", "-tx1", "-N", "16"],
            &[],
            &z,
            " 00 00 00 00 00 00 00 00\n 00 00 00 00 00 00 00 00\n",
            "",
            0,
        );
        check(&["od"], &[], "", "0000000\n", "", 0);
        check(&["od", "-An"], &[], "a", " 000141\n", "", 0);
        check(&["od", "nofile"], &[], "", "", "od: nofile: No such file or directory\n", 1);
        check(&["od", "-t", "q"], &[], "", "", "od: invalid character 'q' in type string 'q'\n", 1);
        check(
            &["od", "-t", "x3"],
            &[],
            "",
            "",
            "od: invalid type string 'x3';\nthis system doesn't provide a 3-byte integral type\n",
            1,
        );
        check(
            &["od", "-w3", "-tx2", "-N4"],
            &[],
            "hell",
            "0000000 6568\n0000002 6c6c\n0000004\n",
            "od: warning: invalid width 3; using 2 instead\n",
            0,
        );
        check(
            &["od", "-Aq"],
            &[],
            "",
            "",
            "od: invalid output address radix 'q'; it must be one character from [doxn]\n",
            1,
        );
        check(&["od", "-N", "x"], &[], "", "", "od: invalid -N argument 'x'\n", 1);
        check(&["od", "-j", "100"], &[], "abc", "", "od: cannot skip past end of combined input\n", 1);
    }

    #[test]
    fn long_double() {
        // 1, 0.1, pi, the smallest normal, the smallest subnormal, NaN, -inf,
        // the largest, -0, a pseudo-normal (x87 80-bit in 16-byte slots).
        let data: &[u8] = b"\x00\x00\x00\x00\x00\x00\x00\x80\xff\x3f\x00\x00\x00\x00\x00\x00\xcd\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xfb\x3f\x00\x00\x00\x00\x00\x00\x35\xc2\x68\x21\xa2\xda\x0f\xc9\x00\x40\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xc0\xff\x7f\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\xff\xff\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\x7f\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40\xff\x3f\x00\x00\x00\x00\x00\x00";
        let fs = make_fs(&[]);
        let want = "0000000                             1\n0000020                           0.1\n\
                    0000040         3.1415926535897932385\n0000060   3.3621031431120935063e-4932\n\
                    0000100                       4e-4951\n0000120                           nan\n\
                    0000140                          -inf\n0000160    1.189731495357231765e+4932\n\
                    0000200                            -0\n0000220                           nan\n0000240\n";
        let o = run_full(&fs, &["od", "-t", "fL"], data, &[], Limits::default());
        assert_eq!((o.out.as_str(), o.status), (want, 0));
        let o = run_full(&fs, &["od", "-t", "f16", "-N", "16"], data, &[], Limits::default());
        assert_eq!(o.out, "0000000                             1\n0000020\n");
    }
}
