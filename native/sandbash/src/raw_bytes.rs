//! Bytes that are not UTF-8, carried inside the shell's `String`s.
//!
//! bash's strings are bytes; ours are UTF-8. Where bytes become a shell
//! string (`$( )`, `read`, `mapfile`, `$'\xff'`, `printf -v`, a script's
//! text), each byte that is not part of a valid UTF-8 character becomes one
//! character of the last 128 code points of Unicode's private use plane 16
//! (U+10FF80..=U+10FFFF for the bytes 0x80..=0xFF). So it keeps its place, counts
//! as one character (as bash counts an invalid byte), matches only itself in
//! patterns, and turns back into the same byte where the string is written out
//! (echo, printf, here-documents, messages). Quoting (`printf %q`, `${x@Q}`,
//! `declare -p`) prints it as bash does, `\377`.
//!
//! A real character of that range in the input (valid UTF-8, but private and
//! practically unseen) is carried as its four bytes, so the way back is exact.

use std::borrow::Cow;

/// Code point of the character that stands for byte 0: byte `b` is `BASE + b`.
const BASE: u32 = 0x10FF00;

/// The character standing for the byte `b` (0x80..=0xFF).
pub fn byte_char(b: u8) -> char {
    char::from_u32(BASE + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The byte `c` stands for, when it is one.
pub fn as_byte(c: char) -> Option<u8> {
    let u = c as u32;
    (u >= BASE + 0x80).then(|| (u - BASE) as u8)
}

/// Whether quoting for reuse (`printf %q`, `${x@Q}`, `declare -p`) needs
/// bash's `$'...'` form for `c`: a control character or a byte that is not UTF-8.
pub fn wants_ansi_quotes(c: char) -> bool {
    c.is_control() || as_byte(c).is_some()
}

/// Whether `bytes` starts with the UTF-8 encoding of a character that stands
/// for a byte (F4 8F BE|BF 80..BF).
fn stand_in_at(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [0xF4, 0x8F, b2 @ (0xBE | 0xBF), b3 @ 0x80..=0xBF, ..] => Some(((b2 & 1) << 6) | (b3 & 0x3F) | 0x80),
        _ => None,
    }
}

/// Bytes to a shell string (see the module's comment).
pub fn decode(bytes: &[u8]) -> String {
    if memchr::memchr(0xF4, bytes).is_none() {
        if let Ok(s) = std::str::from_utf8(bytes) {
            return s.to_string();
        }
    }
    decode_slow(bytes)
}

/// [`decode`] of an owned buffer: no copy when it is plain UTF-8.
pub fn decode_vec(bytes: Vec<u8>) -> String {
    if memchr::memchr(0xF4, &bytes).is_none() {
        match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => decode_slow(e.as_bytes()),
        }
    } else {
        decode_slow(&bytes)
    }
}

fn decode_slow(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    while !bytes.is_empty() {
        let (good, bad) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, 0),
            Err(e) => {
                // Safe split: `valid_up_to` is a character boundary.
                let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
                (good, e.error_len().unwrap_or(bytes.len() - e.valid_up_to()))
            }
        };
        // Real stand-in characters in the valid part go as their four bytes.
        let mut rest = good;
        while let Some(i) = rest.as_bytes().iter().position(|&b| b == 0xF4) {
            out.push_str(&rest[..i]);
            let n = rest[i..].chars().next().map_or(1, char::len_utf8);
            if stand_in_at(&rest.as_bytes()[i..]).is_some() {
                out.extend(rest.as_bytes()[i..i + n].iter().map(|&b| byte_char(b)));
            } else {
                out.push_str(&rest[i..i + n]);
            }
            rest = &rest[i + n..];
        }
        out.push_str(rest);
        let bad_at = good.len();
        out.extend(bytes[bad_at..bad_at + bad].iter().map(|&b| byte_char(b)));
        bytes = &bytes[bad_at + bad..];
    }
    out
}

/// A shell string back to bytes.
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    if memchr::memchr(0xF4, s.as_bytes()).is_none() {
        return Cow::Borrowed(s.as_bytes());
    }
    Cow::Owned(encode_mixed(s.as_bytes()))
}

/// [`encode`] of a buffer that mixes shell text with raw bytes (echo's
/// output with its escapes decoded): each stand-in character becomes its byte.
pub fn encode_vec(v: Vec<u8>) -> Vec<u8> {
    if memchr::memchr(0xF4, &v).is_none() {
        return v;
    }
    encode_mixed(&v)
}

fn encode_mixed(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(off) = memchr::memchr(0xF4, &b[i..]) {
        out.extend_from_slice(&b[i..i + off]);
        i += off;
        match stand_in_at(&b[i..]) {
            Some(byte) => {
                out.push(byte);
                i += 4;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    out.extend_from_slice(&b[i..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_byte_string_shape() {
        let cases: Vec<Vec<u8>> = vec![
            b"plain".to_vec(),
            vec![b'a', 0xFF, b'b'],
            vec![0xC3, 0xA9, 0xE9],
            vec![0xC3],
            vec![0xE2, 0x82],
            // A real U+10FF80 (private use) stays four bytes long.
            vec![0xF4, 0x8F, 0xBE, 0x80, b'x'],
            vec![0xF4, 0x8F, 0xBF, 0xBF],
            vec![0xF4, 0x8F],
            (0u8..=255).collect(),
        ];
        for c in cases {
            let s = decode(&c);
            assert_eq!(encode(&s).as_ref(), c.as_slice(), "{c:?}");
            assert_eq!(decode_vec(c.clone()), s);
        }
    }

    #[test]
    fn an_invalid_byte_is_one_character() {
        let s = decode(&[b'a', 0xFF, 0xC3, 0xA9, 0xE9]);
        assert_eq!(s.chars().count(), 4);
        assert_eq!(s.chars().nth(1).and_then(as_byte), Some(0xFF));
        assert_eq!(s.chars().nth(2), Some('é'));
        assert_eq!(as_byte('é'), None);
    }

    #[test]
    fn mixed_buffers_keep_their_raw_bytes() {
        let mut v = decode(&[0xFF]).into_bytes();
        v.extend([0xFE, b'A']);
        assert_eq!(encode_vec(v), vec![0xFF, 0xFE, b'A']);
    }
}
