//! JSON text for `jq`: a writer with jq 1.7's layout (2-space or tab indent,
//! `-S`, `-a`) and number printing, and a byte-at-a-time reader modelled on
//! jq's own parser, so a stream of values can arrive in chunks and malformed
//! input gets jq's messages (`Unfinished JSON term at EOF at line 2, column 0`).

use super::val::{fmt_f64, num_from_text, Map, Val};
use std::rc::Rc;

/// Output layout.
#[derive(Clone, Debug)]
pub struct Fmt {
    /// Spaces per level; 0 is compact.
    pub indent: usize,
    pub tab: bool,
    pub sort_keys: bool,
    pub ascii: bool,
}

impl Default for Fmt {
    fn default() -> Self {
        Fmt { indent: 2, tab: false, sort_keys: false, ascii: false }
    }
}

impl Fmt {
    pub fn compact() -> Fmt {
        Fmt { indent: 0, ..Fmt::default() }
    }
    fn pretty(&self) -> bool {
        self.tab || self.indent > 0
    }
}

/// Compact JSON, as `tojson` and messages show values.
pub fn to_json(v: &Val) -> String {
    let mut out = Vec::new();
    write(&mut out, v, &Fmt::compact(), 0);
    String::from_utf8(out).unwrap_or_default()
}

pub fn write_str(out: &mut Vec<u8>, s: &str, ascii: bool) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
            }
            c if ascii && !c.is_ascii() => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{:04x}", u).as_bytes());
                }
            }
            c => {
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
    out.push(b'"');
}

fn newline(out: &mut Vec<u8>, f: &Fmt, level: usize) {
    out.push(b'\n');
    if f.tab {
        out.extend(std::iter::repeat_n(b'\t', level));
    } else {
        out.extend(std::iter::repeat_n(b' ', level * f.indent));
    }
}

/// Append `v` at nesting `level`.
pub fn write(out: &mut Vec<u8>, v: &Val, f: &Fmt, level: usize) {
    match v {
        Val::Null => out.extend_from_slice(b"null"),
        Val::Bool(true) => out.extend_from_slice(b"true"),
        Val::Bool(false) => out.extend_from_slice(b"false"),
        Val::Num(n) => out.extend_from_slice(fmt_f64(*n).as_bytes()),
        Val::Lit(l) => out.extend_from_slice(l.1.as_bytes()),
        Val::Str(s) => write_str(out, s, f.ascii),
        Val::Arr(a) if a.items.is_empty() => out.extend_from_slice(b"[]"),
        Val::Arr(a) => {
            out.push(b'[');
            for (i, x) in a.items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if f.pretty() {
                    newline(out, f, level + 1);
                }
                write(out, x, f, level + 1);
            }
            if f.pretty() {
                newline(out, f, level);
            }
            out.push(b']');
        }
        Val::Obj(o) if o.map.is_empty() => out.extend_from_slice(b"{}"),
        Val::Obj(o) => {
            out.push(b'{');
            let mut entries: Vec<(&Rc<str>, &Val)> = o.map.iter().collect();
            if f.sort_keys {
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            }
            for (i, (k, x)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if f.pretty() {
                    newline(out, f, level + 1);
                }
                write_str(out, k, f.ascii);
                out.push(b':');
                if f.pretty() {
                    out.push(b' ');
                }
                write(out, x, f, level + 1);
            }
            if f.pretty() {
                newline(out, f, level);
            }
            out.push(b'}');
        }
    }
}

// ---------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------

/// jq's limit on input nesting.
pub const MAX_PARSING_DEPTH: usize = 256;

enum Frame {
    Arr(Vec<Val>),
    Obj(Map),
    /// A key waiting for its value (after `:`).
    Key(Rc<str>),
}

#[derive(PartialEq)]
enum St {
    Normal,
    Str,
    StrEsc,
}

/// Incremental JSON-stream reader: feed bytes, take values.
pub struct Reader {
    stack: Vec<Frame>,
    next: Option<Val>,
    token: Vec<u8>,
    st: St,
    /// Last structural event was a `:` (for jq's key checks).
    after_colon: bool,
    pub line: usize,
    pub col: usize,
}

impl Default for Reader {
    fn default() -> Self {
        Reader { stack: Vec::new(), next: None, token: Vec::new(), st: St::Normal, after_colon: false, line: 1, col: 0 }
    }
}

/// A parse error: message without the position, and whether it hit EOF.
pub type ParseErr = String;

impl Reader {
    /// Feed one byte; a complete top-level value comes back.
    pub fn feed(&mut self, ch: u8) -> Result<Option<Val>, ParseErr> {
        if ch == b'\n' {
            self.line += 1;
            self.col = 0;
        } else {
            self.col += 1;
        }
        match self.st {
            St::Str => {
                if ch == b'"' {
                    self.st = St::Normal;
                    let s = decode_string(&self.token)?;
                    self.token.clear();
                    self.value(Val::Str(Rc::from(s)))?;
                } else {
                    if ch == b'\\' {
                        self.st = St::StrEsc;
                    }
                    super::val::check_len(self.token.len() + 1, "string");
                    self.token.push(ch);
                }
            }
            St::StrEsc => {
                self.st = St::Str;
                self.token.push(ch);
            }
            St::Normal => {
                let ws = matches!(ch, b' ' | b'\t' | b'\r' | b'\n');
                let structural = matches!(ch, b'[' | b'{' | b':' | b',' | b']' | b'}');
                if ws || structural || ch == b'"' {
                    self.flush_token()?;
                }
                if ch == b'"' {
                    self.st = St::Str;
                } else if structural {
                    self.structural(ch)?;
                } else if !ws {
                    super::val::check_len(self.token.len() + 1, "number");
                    self.token.push(ch);
                }
            }
        }
        if self.stack.is_empty() {
            if let Some(v) = self.next.take() {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// Inside a string, take the plain bytes at the front of `bytes` at once
    /// (up to a quote, backslash or newline, which `feed` handles); how many.
    pub fn feed_string_run(&mut self, bytes: &[u8]) -> usize {
        if self.st != St::Str {
            return 0;
        }
        let n = memchr::memchr3(b'"', b'\\', b'\n', bytes).unwrap_or(bytes.len());
        if n > 0 {
            super::val::check_len(self.token.len() + n, "string");
            self.token.extend_from_slice(&bytes[..n]);
            self.col += n;
        }
        n
    }

    /// End of input: a last value, or an error (message ends with "at EOF").
    pub fn finish(&mut self) -> Result<Option<Val>, ParseErr> {
        if self.st != St::Normal {
            return Err("Unfinished string at EOF".into());
        }
        self.flush_token().map_err(|e| format!("{e} at EOF"))?;
        if !self.stack.is_empty() {
            return Err("Unfinished JSON term at EOF".into());
        }
        Ok(self.next.take())
    }

    fn value(&mut self, v: Val) -> Result<(), ParseErr> {
        if self.next.is_some() {
            return Err("Expected separator between values".into());
        }
        self.next = Some(v);
        self.after_colon = false;
        Ok(())
    }

    fn flush_token(&mut self) -> Result<(), ParseErr> {
        if self.token.is_empty() {
            return Ok(());
        }
        let tok = std::mem::take(&mut self.token);
        let lit = |pat: &[u8], v: Val| if tok == pat { Ok(v) } else { Err("Invalid literal".to_string()) };
        let v = match tok[0] {
            b't' => lit(b"true", Val::Bool(true))?,
            b'f' => lit(b"false", Val::Bool(false))?,
            b'n' if tok.len() == 3 => lit(b"nan", Val::Num(f64::NAN))?,
            b'n' => lit(b"null", Val::Null)?,
            _ => parse_number(&tok).ok_or_else(|| "Invalid numeric literal".to_string())?,
        };
        self.value(v)
    }

    fn structural(&mut self, ch: u8) -> Result<(), ParseErr> {
        match ch {
            b'[' | b'{' => {
                if self.next.is_some() {
                    return Err("Expected separator between values".into());
                }
                if self.stack.len() >= MAX_PARSING_DEPTH {
                    return Err("Exceeds depth limit for parsing".into());
                }
                self.stack.push(if ch == b'[' { Frame::Arr(Vec::new()) } else { Frame::Obj(Map::default()) });
            }
            b':' => {
                let Some(next) = self.next.take() else {
                    return Err("Expected string key before ':'".into());
                };
                if !matches!(self.stack.last(), Some(Frame::Obj(_))) {
                    return Err("':' not as part of an object".into());
                }
                let Val::Str(k) = next else {
                    return Err("Object keys must be strings".into());
                };
                if self.after_colon {
                    return Err("':' should follow a key".into());
                }
                self.stack.push(Frame::Key(k));
                self.after_colon = true;
            }
            b',' => {
                // Values built from input count as work: a big document's
                // memory is checked while it is parsed, not after.
                super::val::tick();
                let Some(next) = self.next.take() else {
                    return Err("Expected value before ','".into());
                };
                match self.stack.last_mut() {
                    None => return Err("',' not as part of an object or array".into()),
                    Some(Frame::Arr(a)) => {
                        super::val::check_len(a.len() + 1, "array");
                        a.push(next)
                    }
                    Some(Frame::Key(_)) => self.set_key(next),
                    Some(Frame::Obj(_)) => return Err("Objects must consist of key:value pairs".into()),
                }
            }
            b']' => {
                super::val::tick();
                let Some(Frame::Arr(_)) = self.stack.last() else {
                    return Err("Unmatched ']'".into());
                };
                let Some(Frame::Arr(mut a)) = self.stack.pop() else { return Ok(()) };
                match self.next.take() {
                    Some(v) => a.push(v),
                    None if !a.is_empty() => return Err("Expected another array element".into()),
                    None => {}
                }
                self.next = Some(Val::arr(a));
            }
            b'}' => {
                super::val::tick();
                if self.stack.is_empty() {
                    return Err("Unmatched '}'".into());
                }
                if let Some(v) = self.next.take() {
                    if !matches!(self.stack.last(), Some(Frame::Key(_))) {
                        return Err("Objects must consist of key:value pairs".into());
                    }
                    self.set_key(v);
                } else {
                    match self.stack.last() {
                        Some(Frame::Obj(m)) if !m.is_empty() => return Err("Expected another key-value pair".into()),
                        Some(Frame::Obj(_)) => {}
                        _ => return Err("Unmatched '}'".into()),
                    }
                }
                let Some(Frame::Obj(m)) = self.stack.pop() else { return Ok(()) };
                self.next = Some(Val::obj(m));
            }
            _ => {}
        }
        Ok(())
    }

    /// Pop a pending key and store `v` under it in the object below.
    fn set_key(&mut self, v: Val) {
        if let Some(Frame::Key(k)) = self.stack.pop() {
            if let Some(Frame::Obj(m)) = self.stack.last_mut() {
                super::val::check_len(m.len() + 1, "object");
                m.insert(k, v);
            }
        }
    }
}

fn parse_number(tok: &[u8]) -> Option<Val> {
    let s = std::str::from_utf8(tok).ok()?;
    let body = s.strip_prefix('+').unwrap_or(s);
    let digits = body.strip_prefix('-').unwrap_or(body);
    // Only digits, one '.', one exponent: no `inf`, `0x`, `1_0`.
    let (mant, exp) = match digits.find(['e', 'E']) {
        Some(i) => (&digits[..i], Some(&digits[i + 1..])),
        None => (digits, None),
    };
    if mant.is_empty()
        || mant == "."
        || mant.matches('.').count() > 1
        || !mant.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    if let Some(e) = exp {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e.is_empty() || !e.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    num_from_text(body)
}

fn hex4(b: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// The body of a JSON string (between the quotes) with escapes resolved.
fn decode_string(raw: &[u8]) -> Result<String, ParseErr> {
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if b < 0x20 {
            return Err("Invalid string: control characters from U+0000 through U+001F must be escaped".into());
        }
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let Some(&e) = raw.get(i + 1) else { return Err("Invalid escape".into()) };
        i += 2;
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = hex4(&raw[i..]).ok_or("Invalid characters in \\uXXXX escape")?;
                i += 4;
                if (0xD800..0xDC00).contains(&hi) {
                    let lo = (raw.get(i) == Some(&b'\\') && raw.get(i + 1) == Some(&b'u'))
                        .then(|| hex4(&raw[i + 2..]))
                        .flatten()
                        .filter(|lo| (0xDC00..0xE000).contains(lo))
                        .ok_or("Invalid \\uXXXX\\uXXXX surrogate pair escape")?;
                    i += 6;
                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)).unwrap_or('\u{fffd}')
                } else {
                    char::from_u32(hi).unwrap_or('\u{fffd}')
                }
            }
            _ => return Err("Invalid escape".into()),
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Parse text holding exactly one value (`fromjson`, `--argjson`):
/// jq's messages for none and for several.
pub fn parse_one(text: &str) -> Result<Val, String> {
    let mut r = Reader::default();
    let mut got: Option<Val> = None;
    let pos = |r: &Reader| format!("at line {}, column {}", r.line, r.col);
    for &b in text.as_bytes() {
        match r.feed(b) {
            Ok(Some(v)) => {
                if got.is_some() {
                    return Err("Unexpected extra JSON values".into());
                }
                got = Some(v);
            }
            Ok(None) => {}
            Err(e) => return Err(format!("{e} {}", pos(&r))),
        }
    }
    match r.finish() {
        Ok(Some(v)) => {
            if got.is_some() {
                return Err("Unexpected extra JSON values".into());
            }
            Ok(v)
        }
        Ok(None) => got.ok_or_else(|| "Expected JSON value".to_string()),
        Err(e) => Err(format!("{e} {}", pos(&r))),
    }
}

/// Parse a whole text of zero or more values (`--slurpfile`, `--jsonargs`).
pub fn parse_all(text: &[u8]) -> Result<Vec<Val>, String> {
    let mut r = Reader::default();
    let mut out = Vec::new();
    let pos = |r: &Reader| format!("at line {}, column {}", r.line, r.col);
    for &b in text {
        match r.feed(b) {
            Ok(Some(v)) => out.push(v),
            Ok(None) => {}
            Err(e) => return Err(format!("{e} {}", pos(&r))),
        }
    }
    match r.finish() {
        Ok(v) => out.extend(v),
        Err(e) => return Err(format!("{e} {}", pos(&r))),
    }
    Ok(out)
}
