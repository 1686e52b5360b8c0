//! Tokens of an awk program. Whether `/` starts a regex or divides depends on
//! the previous token, as in every awk.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Str(String),
    /// A `/.../` literal, its text raw (escapes kept for the regex translator).
    Regex(String),
    Name(String),
    /// A name directly followed by `(`: a user function call.
    FuncName(String),
    Builtin(&'static str),
    Begin,
    End,
    Function,
    If,
    Else,
    While,
    For,
    Do,
    Break,
    Continue,
    Next,
    Nextfile,
    Exit,
    Return,
    Delete,
    In,
    Getline,
    Print,
    Printf,
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Semi,
    Newline,
    Comma,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Not,
    Gt,
    Lt,
    Pipe,
    Question,
    Colon,
    Tilde,
    NoMatch,
    Dollar,
    Assign,
    AddAssign,
    SubAssign,
    MulAssign,
    DivAssign,
    ModAssign,
    PowAssign,
    Eq,
    Le,
    Ge,
    Ne,
    Incr,
    Decr,
    And,
    Or,
    Append,
    Eof,
}

/// Builtin functions (called with or without a space before `(`).
pub const BUILTINS: &[&str] = &[
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos", "atan2", "exp", "log",
    "sqrt", "int", "rand", "srand", "tolower", "toupper", "systime", "strftime", "gensub", "close", "fflush", "system",
    "mktime", "and", "or", "xor", "lshift", "rshift", "compl", "asort", "asorti", "patsplit", "isarray", "typeof",
];

/// Where a token starts: source index, line (1-based) and byte column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub src: usize,
    pub line: usize,
    pub col: usize,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// One program text: `cmd. line` or a `-f` file name, and its text.
pub struct Source {
    pub name: String,
    pub text: String,
}

/// A syntax error at `pos` with gawk's message (`syntax error`, ...).
#[derive(Debug)]
pub struct SyntaxError {
    pub pos: Pos,
    pub msg: String,
    /// Reported as `awk: cmd. line:N: error: msg` without the source line.
    pub plain: bool,
    /// The message names the line after the token's (gawk's newline quirk).
    pub line_after: bool,
}

impl SyntaxError {
    pub fn new(pos: Pos, msg: impl Into<String>) -> SyntaxError {
        SyntaxError { pos, msg: msg.into(), plain: false, line_after: false }
    }
}

/// Format a syntax error as gawk does: the source line, then a caret line.
pub fn format_error(name: &str, sources: &[Source], e: &SyntaxError) -> String {
    let src = &sources[e.pos.src.min(sources.len().saturating_sub(1))];
    let line = src.text.split('\n').nth(e.pos.line.saturating_sub(1)).unwrap_or("");
    let pad: String = line.bytes().take(e.pos.col).map(|b| if b == b'\t' { '\t' } else { ' ' }).collect();
    let pad = if e.pos.col > line.len() { format!("{pad}{}", " ".repeat(e.pos.col - line.len())) } else { pad };
    let prefix = format!("{name}: {}:{}:", src.name, e.pos.line + usize::from(e.line_after));
    if e.plain {
        return format!("{prefix} error: {}\n", e.msg);
    }
    format!("{prefix} {line}\n{prefix} {pad}^ {}\n", e.msg)
}

/// Tokenize one source. Warnings (gawk's about unknown escapes) go to `warn`.
pub fn lex(
    src_index: usize,
    text: &str,
    out: &mut Vec<Token>,
    warn: &mut Vec<(Pos, String)>,
) -> Result<(), SyntaxError> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut line = 1;
    let mut line_start = 0;
    while i < b.len() {
        let c = b[i];
        let pos = Pos { src: src_index, line, col: i - line_start };
        let push = |out: &mut Vec<Token>, tok: Tok| out.push(Token { tok, pos });
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                i += 2;
                line += 1;
                line_start = i;
            }
            b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => {
                i += 3;
                line += 1;
                line_start = i;
            }
            b'\n' => {
                push(out, Tok::Newline);
                i += 1;
                line += 1;
                line_start = i;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                let (s, n) = lex_string(text, i, pos, warn)?;
                push(out, Tok::Str(s));
                i = n;
            }
            b'/' if regex_allowed(out.last().map(|t| &t.tok)) => {
                let mut j = i + 1;
                let mut in_br = false;
                let mut br_start = 0;
                loop {
                    match b.get(j) {
                        None | Some(b'\n') => {
                            return Err(SyntaxError::new(Pos { col: pos.col + 1, ..pos }, "unterminated regexp"));
                        }
                        Some(b'\\') if j + 1 < b.len() && b[j + 1] != b'\n' => j += 2,
                        Some(b'[') if !in_br => {
                            in_br = true;
                            j += 1;
                            br_start = j;
                            if b.get(j) == Some(&b'^') {
                                j += 1;
                                br_start = j;
                            }
                            if b.get(j) == Some(&b']') {
                                j += 1;
                            }
                        }
                        Some(b'[') if in_br && matches!(b.get(j + 1), Some(b':' | b'.' | b'=')) => {
                            let kind = b[j + 1];
                            let mut k = j + 2;
                            while k + 1 < b.len() && !(b[k] == kind && b[k + 1] == b']') && b[k] != b'\n' {
                                k += 1;
                            }
                            j = if k + 1 < b.len() && b[k] == kind { k + 2 } else { j + 1 };
                        }
                        Some(b']') if in_br && j > br_start => {
                            in_br = false;
                            j += 1;
                        }
                        Some(b'/') if !in_br => break,
                        Some(_) => j += 1,
                    }
                }
                push(out, Tok::Regex(text[i + 1..j].to_string()));
                i = j + 1;
            }
            b'0'..=b'9' | b'.' if c != b'.' || b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let (v, n) = lex_number(&text[i..]);
                push(out, Tok::Num(v));
                i += n;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let w = &text[s..i];
                let tok = match w {
                    "BEGIN" => Tok::Begin,
                    "END" => Tok::End,
                    "function" | "func" => Tok::Function,
                    "if" => Tok::If,
                    "else" => Tok::Else,
                    "while" => Tok::While,
                    "for" => Tok::For,
                    "do" => Tok::Do,
                    "break" => Tok::Break,
                    "continue" => Tok::Continue,
                    "next" => Tok::Next,
                    "nextfile" => Tok::Nextfile,
                    "exit" => Tok::Exit,
                    "return" => Tok::Return,
                    "delete" => Tok::Delete,
                    "in" => Tok::In,
                    "getline" => Tok::Getline,
                    "print" => Tok::Print,
                    "printf" => Tok::Printf,
                    _ => match BUILTINS.iter().find(|&&n| n == w) {
                        Some(n) => Tok::Builtin(n),
                        None if b.get(i) == Some(&b'(') => Tok::FuncName(w.to_string()),
                        None => Tok::Name(w.to_string()),
                    },
                };
                push(out, tok);
            }
            _ => {
                // `get`: a non-ASCII character here must not be cut in two.
                let two = text.get(i..i + 2).unwrap_or("");
                let three = text.get(i..i + 3).unwrap_or("");
                let (tok, n) = if three == "**=" {
                    (Tok::PowAssign, 3)
                } else {
                    match two {
                        "+=" => (Tok::AddAssign, 2),
                        "-=" => (Tok::SubAssign, 2),
                        "*=" => (Tok::MulAssign, 2),
                        "/=" => (Tok::DivAssign, 2),
                        "%=" => (Tok::ModAssign, 2),
                        "^=" => (Tok::PowAssign, 2),
                        "==" => (Tok::Eq, 2),
                        "<=" => (Tok::Le, 2),
                        ">=" => (Tok::Ge, 2),
                        "!=" => (Tok::Ne, 2),
                        "++" => (Tok::Incr, 2),
                        "--" => (Tok::Decr, 2),
                        "&&" => (Tok::And, 2),
                        "||" => (Tok::Or, 2),
                        ">>" => (Tok::Append, 2),
                        "!~" => (Tok::NoMatch, 2),
                        "**" => (Tok::Caret, 2),
                        _ => {
                            let t = match c {
                                b'{' => Tok::LBrace,
                                b'}' => Tok::RBrace,
                                b'(' => Tok::LParen,
                                b')' => Tok::RParen,
                                b'[' => Tok::LBracket,
                                b']' => Tok::RBracket,
                                b';' => Tok::Semi,
                                b',' => Tok::Comma,
                                b'+' => Tok::Plus,
                                b'-' => Tok::Minus,
                                b'*' => Tok::Star,
                                b'/' => Tok::Slash,
                                b'%' => Tok::Percent,
                                b'^' => Tok::Caret,
                                b'!' => Tok::Not,
                                b'>' => Tok::Gt,
                                b'<' => Tok::Lt,
                                b'|' => Tok::Pipe,
                                b'?' => Tok::Question,
                                b':' => Tok::Colon,
                                b'~' => Tok::Tilde,
                                b'$' => Tok::Dollar,
                                b'=' => Tok::Assign,
                                _ => {
                                    let ch_len = text[i..].chars().next().map_or(1, char::len_utf8);
                                    let p = Pos { col: pos.col + ch_len, ..pos };
                                    return Err(SyntaxError::new(p, "syntax error"));
                                }
                            };
                            (t, 1)
                        }
                    }
                };
                push(out, tok);
                i += n;
            }
        }
    }
    out.push(Token { tok: Tok::Newline, pos: Pos { src: src_index, line, col: i - line_start } });
    Ok(())
}

/// After these tokens an operand ended, so `/` divides.
fn regex_allowed(prev: Option<&Tok>) -> bool {
    !matches!(
        prev,
        Some(
            Tok::Num(_)
                | Tok::Str(_)
                | Tok::Name(_)
                | Tok::Builtin(_)
                | Tok::RParen
                | Tok::RBracket
                | Tok::Dollar
                | Tok::Incr
                | Tok::Decr
                | Tok::Regex(_)
        )
    )
}

/// A numeric constant: decimal, or gawk's `0x1F` hex and `017` octal.
fn lex_number(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    if b.len() > 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') && b[2].is_ascii_hexdigit() {
        let n = 2 + b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        return (u64::from_str_radix(&s[2..n], 16).map_or(f64::MAX, |v| v as f64), n);
    }
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_end = i;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut k = i + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            i = k;
        }
    }
    if i == int_end && int_end > 1 && b[0] == b'0' && b[..int_end].iter().all(|c| (b'0'..=b'7').contains(c)) {
        return (u64::from_str_radix(&s[1..int_end], 8).map_or(f64::MAX, |v| v as f64), i);
    }
    (s[..i].parse().unwrap_or(0.0), i)
}

/// A string literal starting at the `"` at `start`; returns the text and the
/// index after the closing quote.
fn lex_string(
    text: &str,
    start: usize,
    pos: Pos,
    warn: &mut Vec<(Pos, String)>,
) -> Result<(String, usize), SyntaxError> {
    let chars: Vec<(usize, char)> = text[start + 1..].char_indices().collect();
    // Bytes: an octal or hex escape is one byte, as in gawk (`"\303\251"` is `é`).
    let mut out: Vec<u8> = Vec::new();
    let push = |out: &mut Vec<u8>, c: char| out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    let mut k = 0;
    let unterminated = || SyntaxError::new(pos, "unterminated string");
    loop {
        let Some(&(off, c)) = chars.get(k) else { return Err(unterminated()) };
        k += 1;
        match c {
            '"' => return Ok((super::bytes_to_string(out), start + 1 + off + 1)),
            '\n' => return Err(unterminated()),
            '\\' => {
                let Some(&(_, e)) = chars.get(k) else { return Err(unterminated()) };
                k += 1;
                match e {
                    'n' => push(&mut out, '\n'),
                    't' => push(&mut out, '\t'),
                    'r' => push(&mut out, '\r'),
                    '\\' => push(&mut out, '\\'),
                    '"' => push(&mut out, '"'),
                    '/' => push(&mut out, '/'),
                    'a' => push(&mut out, '\x07'),
                    'b' => push(&mut out, '\x08'),
                    'f' => push(&mut out, '\x0c'),
                    'v' => push(&mut out, '\x0b'),
                    '\n' => {}
                    '0'..='7' => {
                        let mut v = e as u32 - '0' as u32;
                        for _ in 0..2 {
                            match chars.get(k) {
                                Some(&(_, d @ '0'..='7')) => {
                                    v = v * 8 + (d as u32 - '0' as u32);
                                    k += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push((v & 0xff) as u8);
                    }
                    'x' if chars.get(k).is_some_and(|&(_, d)| d.is_ascii_hexdigit()) => {
                        let mut v = 0;
                        for _ in 0..2 {
                            match chars.get(k) {
                                Some(&(_, d)) if d.is_ascii_hexdigit() => {
                                    v = v * 16 + d.to_digit(16).unwrap_or(0);
                                    k += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push(v as u8);
                    }
                    other => {
                        warn.push((pos, format!("escape sequence `\\{other}' treated as plain `{other}'")));
                        push(&mut out, other);
                    }
                }
            }
            c => push(&mut out, c),
        }
    }
}
