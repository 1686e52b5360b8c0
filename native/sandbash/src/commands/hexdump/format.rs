//! `hexdump -e FORMAT` / `-f FILE` (util-linux 2.38, after BSD hexdump):
//! format units `[ITER][/BYTES] "text with %conversions"`. Each format
//! string walks the same block (the largest byte count among them); a unit
//! repeats ITER times, and on its last turn drops the single whitespace
//! character that ends it. Past the end of input, conversions print as
//! blanks of their width. Conversions: `%d %i %o %u %x %X` (1, 2, 4 or 8
//! bytes, default 4), `%e %f %g %E %G` (4 or 8, default 8), `%c`, `%s`
//! (precision or byte count), `%_a[dox]` (offset), `%_c`, `%_p`, `%_u`, `%%`.

/// One conversion of a format unit.
#[derive(Clone, Debug)]
struct Conv {
    /// The printf spec without the conversion letter (`%08.3`).
    spec: String,
    /// Field width, for blanks past the end of input.
    width: usize,
    kind: Kind,
    /// Bytes it reads.
    size: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Signed(u8),
    Unsigned(u8),
    Float(u8),
    Char,
    Str,
    /// `%_a` with `d`, `o` or `x`.
    Addr(u8),
    /// `%_A`: printed only after the input ends, which hexdump -e output here leaves out.
    EndAddr,
    EscChar,
    Printable,
    Named,
}

#[derive(Clone, Debug)]
enum Piece {
    Text(Vec<u8>),
    Conv(Conv),
}

#[derive(Clone, Debug)]
pub struct Unit {
    reps: usize,
    /// Whether ITER was given (a unit without one may be repeated to fill the block).
    set_reps: bool,
    pieces: Vec<Piece>,
    /// Bytes one turn reads.
    bytes: usize,
}

/// The parsed `-e`/`-f` format strings.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub strings: Vec<Vec<Unit>>,
    pub block: usize,
}

/// The text of a quoted format with its backslash escapes applied.
fn unescape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() {
            i += 1;
            out.push(match s[i] {
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'v' => 11,
                b'0'..=b'7' => {
                    let start = i;
                    while i < s.len() && i < start + 3 && (b'0'..=b'7').contains(&s[i]) {
                        i += 1;
                    }
                    i -= 1;
                    s[start..=i].iter().fold(0u8, |a, d| a.wrapping_mul(8).wrapping_add(d - b'0'))
                }
                c => c,
            });
        } else {
            out.push(s[i]);
        }
        i += 1;
    }
    out
}

/// Split a unit's text into pieces; `count` is its `/BYTES`. `Err` is the message.
fn pieces(text: &[u8], count: Option<usize>) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i] != b'%' {
            lit.push(text[i]);
            i += 1;
            continue;
        }
        if text.get(i + 1) == Some(&b'%') {
            lit.push(b'%');
            i += 2;
            continue;
        }
        let start = i;
        i += 1;
        while i < text.len() && b"#-+ 0".contains(&text[i]) {
            i += 1;
        }
        let wstart = i;
        while i < text.len() && text[i].is_ascii_digit() {
            i += 1;
        }
        let width: usize = std::str::from_utf8(&text[wstart..i]).ok().and_then(|w| w.parse().ok()).unwrap_or(0);
        let mut prec = None;
        if text.get(i) == Some(&b'.') {
            i += 1;
            let ps = i;
            while i < text.len() && text[i].is_ascii_digit() {
                i += 1;
            }
            prec = std::str::from_utf8(&text[ps..i]).ok().and_then(|p| p.parse::<usize>().ok()).or(Some(0));
        }
        let spec = String::from_utf8_lossy(&text[start..i]).into_owned();
        let Some(&c) = text.get(i) else {
            return Err("bad format {%}".to_string());
        };
        i += 1;
        let int_size = |count: Option<usize>, c: u8| match count {
            None => Ok(4),
            Some(n @ (1 | 2 | 4 | 8)) => Ok(n),
            Some(_) => Err(format!("bad byte count for conversion character {}", c as char)),
        };
        let (kind, size) = match c {
            b'd' | b'i' => (Kind::Signed(c), int_size(count, c)?),
            b'o' | b'u' | b'x' | b'X' => (Kind::Unsigned(c), int_size(count, c)?),
            b'e' | b'E' | b'f' | b'g' | b'G' => match count {
                None => (Kind::Float(c), 8),
                Some(n @ (4 | 8)) => (Kind::Float(c), n),
                Some(_) => return Err(format!("bad byte count for conversion character {}", c as char)),
            },
            b'c' => (Kind::Char, 1),
            b's' => match prec.or(count) {
                Some(n) if n > 0 => (Kind::Str, n),
                _ => return Err("%s requires a precision or a byte count".to_string()),
            },
            b'_' => {
                let Some(&d) = text.get(i) else {
                    return Err("bad conversion character %_".to_string());
                };
                i += 1;
                match d {
                    b'a' | b'A' => {
                        let base = match text.get(i) {
                            Some(&b @ (b'd' | b'o' | b'x')) => {
                                i += 1;
                                b
                            }
                            _ => b'd',
                        };
                        (if d == b'a' { Kind::Addr(base) } else { Kind::EndAddr }, 0)
                    }
                    b'c' => (Kind::EscChar, 1),
                    b'p' => (Kind::Printable, 1),
                    b'u' => (Kind::Named, 1),
                    _ => return Err(format!("bad conversion character %_{}", d as char)),
                }
            }
            _ => return Err(format!("bad conversion character %{}", c as char)),
        };
        if !lit.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut lit)));
        }
        out.push(Piece::Conv(Conv { spec, width, kind, size }));
    }
    if !lit.is_empty() {
        out.push(Piece::Text(lit));
    }
    Ok(out)
}

impl Program {
    /// Add one format string (an `-e` argument or a line of `-f`).
    pub fn add(&mut self, fmt: &str) -> Result<(), String> {
        let b = fmt.as_bytes();
        let mut units = Vec::new();
        let mut i = 0;
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= b.len() {
                break;
            }
            let num = |i: &mut usize| {
                let s = *i;
                while *i < b.len() && b[*i].is_ascii_digit() {
                    *i += 1;
                }
                fmt[s..*i].parse::<usize>().ok()
            };
            let reps = num(&mut i);
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let mut count = None;
            if b.get(i) == Some(&b'/') {
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                count = num(&mut i);
                if count.is_none() {
                    return Err(format!(
                        "bad byte count for conversion character {}",
                        fmt[i..].chars().next().unwrap_or(' ')
                    ));
                }
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
            }
            if b.get(i) != Some(&b'"') {
                return Err(format!("bad format {{{fmt}}}"));
            }
            i += 1;
            let start = i;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            let text = unescape(&b[start..i.min(b.len())]);
            i += 1;
            let pieces = pieces(&text, count)?;
            let bytes = pieces.iter().map(|p| if let Piece::Conv(c) = p { c.size } else { 0 }).sum();
            units.push(Unit { reps: reps.unwrap_or(1).max(1), set_reps: reps.is_some(), pieces, bytes });
        }
        let total: usize = units.iter().map(|u| u.reps * u.bytes).sum();
        self.block = self.block.max(total);
        self.strings.push(units);
        Ok(())
    }

    /// Fill each string up to the block size with its last unit (BSD's rule
    /// for a last unit without an iteration count). Call once, after `add`.
    pub fn finish(&mut self) {
        let block = self.block;
        for units in &mut self.strings {
            let total: usize = units.iter().map(|u| u.reps * u.bytes).sum();
            if let Some(last) = units.last_mut() {
                if total < block && !last.set_reps && last.bytes > 0 {
                    last.reps += (block - total) / last.bytes;
                }
            }
        }
    }

    /// Print one block (`data`, shorter than the block at the end of input)
    /// that starts at offset `off`.
    pub fn render(&self, data: &[u8], off: u64, out: &mut Vec<u8>) {
        for units in &self.strings {
            let mut pos = 0usize;
            for u in units {
                for rep in 0..u.reps {
                    let last_turn = u.reps > 1 && rep + 1 == u.reps;
                    let n = u.pieces.len();
                    for (k, piece) in u.pieces.iter().enumerate() {
                        match piece {
                            Piece::Text(t) => {
                                // The last turn drops the whitespace character ending the unit.
                                let t = if last_turn && k + 1 == n && t.last().is_some_and(u8::is_ascii_whitespace) {
                                    &t[..t.len() - 1]
                                } else {
                                    &t[..]
                                };
                                out.extend_from_slice(t);
                            }
                            Piece::Conv(c) => {
                                conv(c, data, pos, off, out);
                                pos += c.size;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Format one integer or float with a printf spec (`%08x`), as C does.
fn printf(spec: &str, conv: u8, arg: String) -> Vec<u8> {
    let fmt = format!("{spec}{}", conv as char);
    crate::commands::printf::format(fmt.as_bytes(), &[arg], 0, 1 << 20).out
}

fn conv(c: &Conv, data: &[u8], pos: usize, off: u64, out: &mut Vec<u8>) {
    if let Kind::Addr(base) = c.kind {
        out.extend_from_slice(&printf(&c.spec, base, (off + pos as u64).to_string()));
        return;
    }
    if c.kind == Kind::EndAddr {
        return;
    }
    if pos >= data.len() {
        // Past the end of input: blanks of the field's width.
        out.extend(std::iter::repeat_n(b' ', c.width));
        return;
    }
    // A unit the input ends inside of reads zeros for the missing bytes.
    let mut buf = data[pos..data.len().min(pos + c.size)].to_vec();
    buf.resize(c.size, 0);
    let bytes = &buf[..];
    let unsigned = bytes.iter().rev().fold(0u64, |a, &b| (a << 8) | u64::from(b));
    match c.kind {
        Kind::Signed(conv) => {
            let bits = 8 * c.size as u32;
            let v = if bits == 64 { unsigned as i64 } else { ((unsigned << (64 - bits)) as i64) >> (64 - bits) };
            out.extend_from_slice(&printf(&c.spec, conv, v.to_string()));
        }
        Kind::Unsigned(conv) => out.extend_from_slice(&printf(&c.spec, conv, unsigned.to_string())),
        Kind::Float(conv) => {
            let v = if c.size == 4 { f64::from(f32::from_bits(unsigned as u32)) } else { f64::from_bits(unsigned) };
            let arg = if v.is_nan() {
                "nan".to_string()
            } else if v.is_infinite() {
                if v < 0.0 { "-inf" } else { "inf" }.to_string()
            } else {
                // Every digit of the double, so strtold reads back exactly it.
                format!("{v:.800e}")
            };
            out.extend_from_slice(&printf(&c.spec, conv, arg));
        }
        Kind::Char => out.extend_from_slice(&pad(c, &bytes[..1])),
        Kind::Str => {
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            out.extend_from_slice(&pad(c, &bytes[..end]));
        }
        Kind::Printable => {
            let ch = if (32..127).contains(&bytes[0]) { bytes[0] } else { b'.' };
            out.extend_from_slice(&pad(c, &[ch]));
        }
        Kind::EscChar => {
            let text: Vec<u8> = match bytes[0] {
                0 => b"\\0".to_vec(),
                7 => b"\\a".to_vec(),
                8 => b"\\b".to_vec(),
                12 => b"\\f".to_vec(),
                10 => b"\\n".to_vec(),
                13 => b"\\r".to_vec(),
                9 => b"\\t".to_vec(),
                11 => b"\\v".to_vec(),
                b @ 32..=126 => vec![b],
                b => format!("{b:03o}").into_bytes(),
            };
            out.extend_from_slice(&pad(c, &text));
        }
        Kind::Named => {
            const NAMES: [&str; 32] = [
                "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "lf", "vt", "ff", "cr", "so", "si",
                "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs",
                "us",
            ];
            let b = bytes[0];
            let text = match b {
                0..=31 => NAMES[usize::from(b)].as_bytes().to_vec(),
                127 => b"del".to_vec(),
                128.. => format!("{b:02x}").into_bytes(),
                _ => vec![b],
            };
            out.extend_from_slice(&pad(c, &text));
        }
        Kind::Addr(_) | Kind::EndAddr => {}
    }
}

/// `text` in the conversion's field (left-justified with `-`).
fn pad(c: &Conv, text: &[u8]) -> Vec<u8> {
    let fill = crate::commands::util::pad::room(c.width, text.len());
    let mut out = Vec::with_capacity(text.len() + fill);
    if c.spec.contains('-') {
        out.extend_from_slice(text);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(text);
    }
    out
}
