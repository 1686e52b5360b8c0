//! bc's lexer: source bytes to tokens, with the lines of illegal characters.

#[derive(Clone, Debug, PartialEq)]
pub(super) enum T {
    Num(String),
    Name(String),
    Str(String),
    Op(&'static str),
    Nl,
    Eof,
}

#[derive(Clone, Debug)]
pub(super) struct Tok {
    pub(super) t: T,
    pub(super) line: usize,
}

pub(super) const OPS: &[&str] = &[
    "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||", "+", "-", "*", "/", "%", "^",
    "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ";",
];

pub(super) fn is_digit(c: u8) -> bool {
    c.is_ascii_digit() || c.is_ascii_uppercase()
}

/// A character the lexer dropped: the number of tokens before it, its line
/// and itself (GNU reports `illegal character` and skips the line).
pub(super) type Illegal = (usize, usize, char);

pub(super) fn lex(src: &[u8]) -> Result<(Vec<Tok>, Vec<Illegal>), crate::limits::Stop> {
    let mut toks = Vec::new();
    let mut bad = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < src.len() {
        // A line of names and NULs holds ~100 bytes a byte: the budget sees
        // them as they come, and is asked before either vector doubles.
        crate::limits::checkpoint()?;
        crate::limits::scope::before_push(&toks)?;
        crate::limits::scope::before_push(&bad)?;
        let c = src[i];
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\\' if src.get(i + 1) == Some(&b'\n') => {
                i += 2;
                line += 1;
            }
            b'\n' => {
                toks.push(Tok { t: T::Nl, line });
                line += 1;
                i += 1;
            }
            b'#' => {
                while i < src.len() && src[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < src.len() && !(src[i] == b'*' && src.get(i + 1) == Some(&b'/')) {
                    if src[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            b'"' => {
                let start_line = line;
                let start = i + 1;
                i += 1;
                while i < src.len() && src[i] != b'"' {
                    if src[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if i >= src.len() {
                    // Unterminated: the quote is dropped, the rest lexed again.
                    bad.push((toks.len(), start_line, '"'));
                    i = start;
                    line = start_line;
                    continue;
                }
                let s = String::from_utf8_lossy(&src[start..i]).into_owned();
                toks.push(Tok { t: T::Str(s), line: start_line });
                i += 1;
            }
            _ if is_digit(c) || (c == b'.' && src.get(i + 1).is_some_and(|&d| is_digit(d))) => {
                let mut s = String::new();
                let mut dot = false;
                while i < src.len() {
                    let d = src[i];
                    if is_digit(d) {
                        s.push(d as char);
                    } else if d == b'.' && !dot {
                        dot = true;
                        s.push('.');
                    } else if d == b'\\' && src.get(i + 1) == Some(&b'\n') {
                        i += 1;
                        line += 1;
                    } else {
                        break;
                    }
                    i += 1;
                }
                toks.push(Tok { t: T::Num(s), line });
            }
            b'.' => {
                toks.push(Tok { t: T::Name("last".into()), line });
                i += 1;
            }
            b'a'..=b'z' => {
                let start = i;
                while i < src.len() && (src[i].is_ascii_lowercase() || src[i].is_ascii_digit() || src[i] == b'_') {
                    i += 1;
                }
                toks.push(Tok { t: T::Name(String::from_utf8_lossy(&src[start..i]).into_owned()), line });
            }
            _ => {
                let op = OPS.iter().find(|op| src[i..].starts_with(op.as_bytes()));
                match op {
                    Some(op) => {
                        toks.push(Tok { t: T::Op(op), line });
                        i += op.len();
                    }
                    None => {
                        let ch = String::from_utf8_lossy(&src[i..(i + 1).min(src.len())]).chars().next().unwrap_or('?');
                        bad.push((toks.len(), line, ch));
                        i += 1;
                    }
                }
            }
        }
    }
    toks.push(Tok { t: T::Eof, line });
    Ok((toks, bad))
}
