//! `$'...'` escapes (also used by `echo -e` and `printf %b` style decoding).

/// Decode the backslash escapes of a `$'...'` string. bash's result is a C
/// string: it ends at the first NUL an escape made (`$'a\0b'` is `a`).
pub fn decode(s: &str) -> String {
    let mut bytes = decode_bytes(s, false);
    if let Some(nul) = bytes.iter().position(|&c| c == 0) {
        bytes.truncate(nul);
    }
    crate::raw_bytes::decode_vec(bytes)
}

/// Decode escapes to bytes. With `echo_mode`, octal is `\0NNN` (echo -e) and
/// `\c` is not special here (callers handle it).
pub fn decode_bytes(s: &str, echo_mode: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        match c {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'e' | b'E' => out.push(27),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            b'\'' if !echo_mode => out.push(b'\''),
            b'"' if !echo_mode => out.push(b'"'),
            b'?' if !echo_mode => out.push(b'?'),
            b'0'..=b'7' => {
                let max = if echo_mode && c == b'0' {
                    3
                } else if echo_mode {
                    0
                } else {
                    2
                };
                if echo_mode && c != b'0' {
                    out.push(b'\\');
                    out.push(c);
                    continue;
                }
                let mut v: u32 = if echo_mode { 0 } else { (c - b'0') as u32 };
                let mut n = 0;
                while n < max && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push((v & 0xff) as u8);
            }
            // `\x{HHH}` (not in echo): every hex digit up to `}`, the low byte kept.
            b'x' if !echo_mode && b.get(i) == Some(&b'{') => {
                i += 1;
                let mut v: u32 = 0;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = (v << 4 | (b[i] as char).to_digit(16).unwrap_or(0)) & 0xff;
                    i += 1;
                }
                if b.get(i) == Some(&b'}') {
                    i += 1;
                }
                out.push(v as u8);
            }
            b'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while n < 2 && i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v * 16 + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.extend_from_slice(b"\\x");
                } else {
                    out.push(v as u8);
                }
            }
            b'u' | b'U' => {
                let max = if c == b'u' { 4 } else { 8 };
                let mut v: u32 = 0;
                let mut n = 0;
                while n < max && i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v * 16 + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.push(b'\\');
                    out.push(c);
                } else if let Some(ch) = char::from_u32(v) {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
            }
            // `\cX`: a control character (`\c?` is DEL; `\c\\` takes both
            // backslashes); a `\c` ending the text stays as it is.
            b'c' if !echo_mode => match b.get(i) {
                None => out.extend_from_slice(b"\\c"),
                Some(&x) => {
                    i += 1;
                    if x == b'\\' && b.get(i) == Some(&b'\\') {
                        i += 1;
                    }
                    out.push(if x == b'?' { 0x7f } else { x.to_ascii_uppercase() & 0x1f });
                }
            },
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn decodes() {
        assert_eq!(super::decode(r"a\tb\n\x41\101\u00e9\'"), "a\tb\nAA\u{e9}'");
        assert_eq!(super::decode_bytes(r"\0101\q", true), b"A\\q");
    }
}
