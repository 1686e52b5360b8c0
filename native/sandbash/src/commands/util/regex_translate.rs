//! GNU grep's regular expressions (BRE, ERE) translated to the `regex` crate's
//! syntax. Errors carry GNU's wording (`Unmatched ( or \(`). A pattern with
//! back-references (`\(a\)\1`) comes out in fancy-regex's syntax, which is the
//! same plus `\N`, with `backrefs` set (see `posix_regex`).

/// A translated pattern, plus GNU's warnings (`* at start of expression`).
pub struct Translated {
    pub source: String,
    pub warnings: Vec<&'static str>,
    /// The pattern refers back to a group: it needs a backtracking engine.
    pub backrefs: bool,
}

/// Largest `{n}` GNU accepts (RE_DUP_MAX).
const DUP_MAX: u32 = 32767;

/// Translate one GNU BRE (`ere == false`) or ERE pattern.
pub fn translate(pat: &str, ere: bool) -> Result<Translated, String> {
    translate_with(pat, ere, false)
}

/// Translate a GNU sed regex: groups capture (for `\1` in the replacement),
/// and the escapes sed converts before compiling (`\n`, `\t`, `\xHH`, ...)
/// become the characters they name.
pub fn translate_sed(pat: &str, ere: bool) -> Result<Translated, String> {
    translate_with(pat, ere, true)
}

/// Translate a POSIX ERE whose groups all capture, as regcomp reads it
/// (bash's `[[ =~ ]]` and `BASH_REMATCH`).
pub fn translate_capturing(pat: &str) -> Result<Translated, String> {
    let chars: Vec<char> = pat.chars().collect();
    let mut t = Tr {
        c: &chars,
        i: 0,
        ere: true,
        sed: false,
        capture: true,
        out: String::new(),
        warnings: Vec::new(),
        depth: 0,
        closed_groups: 0,
        backrefs: false,
        strict: true,
    };
    t.run()?;
    Ok(Translated { source: t.out, warnings: t.warnings, backrefs: t.backrefs })
}

fn translate_with(pat: &str, ere: bool, sed: bool) -> Result<Translated, String> {
    let chars: Vec<char> = pat.chars().collect();
    let run = |capture: bool| -> Result<Translated, String> {
        let mut t = Tr {
            c: &chars,
            i: 0,
            ere,
            sed,
            capture,
            out: String::new(),
            warnings: Vec::new(),
            depth: 0,
            closed_groups: 0,
            backrefs: false,
            strict: false,
        };
        t.run()?;
        Ok(Translated { source: t.out, warnings: t.warnings, backrefs: t.backrefs })
    };
    // Groups only capture when something needs them: sed's `\1` in a
    // replacement, or a back-reference in the pattern itself.
    let t = run(sed)?;
    if t.backrefs && !sed {
        return run(true);
    }
    Ok(t)
}

struct Tr<'a> {
    c: &'a [char],
    i: usize,
    ere: bool,
    /// sed flavour: character escapes.
    sed: bool,
    /// Groups capture.
    capture: bool,
    /// regcomp's reading (bash's `=~`): a repetition with nothing before it
    /// and a `{` that is no interval are errors, not literals as in grep.
    strict: bool,
    out: String,
    warnings: Vec<&'static str>,
    depth: usize,
    /// Groups closed so far: a back-reference may name only these.
    closed_groups: usize,
    backrefs: bool,
}

/// What the last emitted item was, for quantifier handling.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Start of the pattern or of a group/alternative (quantifiers are special here).
    Start,
    /// After an anchor `^` at the start (ERE: a following `*` has nothing to repeat).
    Anchor,
    /// An atom starting at this byte of `out`.
    Atom(usize),
    /// A quantified atom starting at this byte.
    Quantified(usize),
}

impl Tr<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    fn run(&mut self) -> Result<(), String> {
        let mut last = Last::Start;
        let mut group_starts: Vec<usize> = Vec::new();
        while self.i < self.c.len() {
            let ch = self.c[self.i];
            self.i += 1;
            // Classify the token: BRE needs a backslash for the operators ERE writes bare.
            let (tok, escaped) = if ch == '\\' {
                match self.peek(0) {
                    None => return Err("Trailing backslash".into()),
                    Some(n) => {
                        self.i += 1;
                        (n, true)
                    }
                }
            } else {
                (ch, false)
            };
            let op = |c: char| escaped != self.ere && tok == c;
            let start = self.out.len();
            if op('(') {
                group_starts.push(start);
                self.depth += 1;
                self.out.push_str(if self.capture { "(" } else { "(?:" });
                last = Last::Start;
            } else if op(')') {
                if self.depth == 0 {
                    if self.ere && !self.sed {
                        self.out.push_str("\\)");
                        last = Last::Atom(start);
                        continue;
                    }
                    return Err("Unmatched ) or \\)".into());
                }
                self.depth -= 1;
                self.closed_groups += 1;
                self.out.push(')');
                last = Last::Atom(group_starts.pop().unwrap_or(0));
            } else if op('|') {
                self.out.push('|');
                last = Last::Start;
            } else if tok == '*' && !escaped || op('+') || op('?') {
                self.quantifier(&mut last, tok.to_string(), start)?;
            } else if op('{') {
                match self.interval()? {
                    Some(q) => self.quantifier(&mut last, q, start)?,
                    None => {
                        // ERE: not a valid interval, so a literal brace.
                        self.out.push_str("\\{");
                        last = Last::Atom(start);
                    }
                }
            } else if escaped {
                self.escape(tok, &mut last, start)?;
            } else {
                match tok {
                    '^' if self.ere || last == Last::Start => {
                        self.out.push('^');
                        last = if last == Last::Start { Last::Anchor } else { Last::Atom(start) };
                    }
                    '$' if self.ere || self.at_end() => {
                        self.out.push('$');
                        last = Last::Atom(start);
                    }
                    '.' => {
                        self.out.push('.');
                        last = Last::Atom(start);
                    }
                    '[' => {
                        self.bracket()?;
                        last = Last::Atom(start);
                    }
                    c => {
                        self.out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
                        last = Last::Atom(start);
                    }
                }
            }
        }
        if self.depth > 0 {
            return Err("Unmatched ( or \\(".into());
        }
        Ok(())
    }

    /// BRE `$` is an anchor only at the end of the pattern, a group or an alternative.
    fn at_end(&self) -> bool {
        matches!((self.peek(0), self.peek(1)), (None, _) | (Some('\\'), Some(')' | '|')))
    }

    fn quantifier(&mut self, last: &mut Last, q: String, start: usize) -> Result<(), String> {
        match *last {
            Last::Start | Last::Anchor => {
                if !self.ere && q == "*" {
                    // BRE: a leading `*` is literal.
                    self.out.push_str("\\*");
                    *last = Last::Atom(start);
                } else if self.ere && self.strict {
                    return Err("Invalid preceding regular expression".into());
                } else if self.ere {
                    self.warnings.push(match q.as_str() {
                        "*" => "* at start of expression",
                        "+" => "+ at start of expression",
                        "?" => "? at start of expression",
                        _ => "{...} at start of expression",
                    });
                } else {
                    // BRE `\+` / `\{` at the start: literal.
                    self.out.push_str(&regex::escape(&q[..1]));
                    *last = Last::Atom(start);
                }
            }
            Last::Atom(a) => {
                self.out.push_str(&q);
                *last = Last::Quantified(a);
            }
            Last::Quantified(a) => {
                // `a**`, `a+?`: repeat the repetition (never Rust's lazy `+?`).
                self.out.insert_str(a, "(?:");
                self.out.push(')');
                self.out.push_str(&q);
            }
        }
        Ok(())
    }

    /// After `{` (ERE) or `\{` (BRE): `{m}`, `{m,}`, `{,n}`, `{m,n}`.
    /// `Ok(None)`: an ERE brace that is not an interval (a literal).
    fn interval(&mut self) -> Result<Option<String>, String> {
        let save = self.i;
        let num = |t: &mut Self| -> Option<u32> {
            let s = t.i;
            while t.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                t.i += 1;
            }
            (t.i > s).then(|| t.c[s..t.i].iter().collect::<String>().parse::<u32>().unwrap_or(u32::MAX))
        };
        let lo = num(self);
        let hi = if self.peek(0) == Some(',') {
            self.i += 1;
            Some(num(self))
        } else {
            None
        };
        let close =
            if self.ere { self.peek(0) == Some('}') } else { self.peek(0) == Some('\\') && self.peek(1) == Some('}') };
        let invalid = !close || (lo.is_none() && hi.is_none());
        if invalid {
            if self.ere && self.strict {
                return Err("Invalid content of \\{\\}".into());
            }
            if self.ere {
                self.i = save;
                return Ok(None);
            }
            let unclosed = !self.c[self.i..].windows(2).any(|w| w == ['\\', '}']);
            return Err(if unclosed { "Unmatched \\{" } else { "Invalid content of \\{\\}" }.into());
        }
        self.i += if self.ere { 1 } else { 2 };
        let lo_v = lo.unwrap_or(0);
        let q = match hi {
            None => format!("{{{lo_v}}}"),
            Some(None) => format!("{{{lo_v},}}"),
            Some(Some(h)) => {
                if h < lo_v {
                    return Err("Invalid content of \\{\\}".into());
                }
                format!("{{{lo_v},{h}}}")
            }
        };
        if lo_v > DUP_MAX || matches!(hi, Some(Some(h)) if h > DUP_MAX) {
            return Err("Regular expression too big".into());
        }
        Ok(Some(q))
    }

    /// A backslash escape that is not a BRE/ERE operator.
    fn escape(&mut self, c: char, last: &mut Last, start: usize) -> Result<(), String> {
        if self.sed {
            if let Some(ch) = self.sed_escape(c) {
                self.out.push_str(&regex::escape(ch.encode_utf8(&mut [0; 4])));
                *last = Last::Atom(start);
                return Ok(());
            }
        }
        let s = match c {
            '1'..='9' => {
                let n = c as usize - '0' as usize;
                if n > self.closed_groups {
                    return Err("Invalid back reference".into());
                }
                self.backrefs = true;
                self.out.push('\\');
                self.out.push(c);
                *last = Last::Atom(start);
                return Ok(());
            }
            '<' => "\\b{start}",
            '>' => "\\b{end}",
            'b' => "\\b",
            'B' => "\\B",
            'w' => "\\w",
            'W' => "\\W",
            's' => "\\s",
            'S' => "\\S",
            '`' => "\\A",
            '\'' => "\\z",
            _ => {
                self.out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
                *last = Last::Atom(start);
                return Ok(());
            }
        };
        self.out.push_str(s);
        *last = if matches!(c, 'w' | 'W' | 's' | 'S') { Last::Atom(start) } else { Last::Start };
        Ok(())
    }

    /// sed's character escapes (`\n`, `\t`, `\dNNN`, `\oNNN`, `\xHH`, `\cX`),
    /// after the backslash and `c`; consumes any digits.
    fn sed_escape(&mut self, c: char) -> Option<char> {
        let num = |t: &mut Self, radix: u32, max: usize| -> Option<char> {
            let s = t.i;
            while t.i - s < max && t.peek(0).is_some_and(|d| d.is_digit(radix)) {
                t.i += 1;
            }
            let digits: String = t.c[s..t.i].iter().collect();
            u32::from_str_radix(&digits, radix).ok().and_then(|v| char::from_u32(v & 0xff))
        };
        match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'a' => Some('\x07'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            'r' => Some('\r'),
            'd' => num(self, 10, 3),
            'o' => num(self, 8, 3),
            'x' => num(self, 16, 2),
            'c' => {
                let x = self.peek(0)?;
                self.i += 1;
                char::from_u32((x.to_ascii_uppercase() as u32) ^ 0x40)
            }
            _ => None,
        }
    }

    /// A POSIX bracket expression (after `[`) as a Rust class.
    fn bracket(&mut self) -> Result<(), String> {
        const UNMATCHED: &str = "Unmatched [, [^, [:, [., or [=";
        let open = self.i - 1;
        let mut out = String::from("[");
        if self.peek(0) == Some('^') {
            out.push('^');
            self.i += 1;
        }
        let mut first = true;
        // The previous single character (a possible range start).
        let mut prev: Option<char> = None;
        loop {
            let Some(c) = self.peek(0) else {
                return Err(
                    if self.c.get(open + 1) == Some(&':') { UNMATCHED } else { "Invalid regular expression" }.into()
                );
            };
            self.i += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            if c == '[' && matches!(self.peek(0), Some(':' | '=' | '.')) {
                let kind = self.peek(0).unwrap_or(':');
                let body_start = self.i + 1;
                let mut j = body_start;
                while j + 1 < self.c.len() && !(self.c[j] == kind && self.c[j + 1] == ']') {
                    j += 1;
                }
                if j + 1 >= self.c.len() {
                    return Err(UNMATCHED.into());
                }
                let name: String = self.c[body_start..j].iter().collect();
                self.i = j + 2;
                if kind == ':' {
                    const CLASSES: [&str; 12] = [
                        "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph",
                        "cntrl", "xdigit",
                    ];
                    if !CLASSES.contains(&name.as_str()) {
                        return Err("Invalid character class name".into());
                    }
                    // Classes as in a UTF-8 locale (letters of every script).
                    out.push_str(crate::pattern::char_class(&name).unwrap_or_default());
                    prev = None;
                } else {
                    // `[=a=]` and `[.a.]`: in the C locale, just the character.
                    let mut it = name.chars();
                    match (it.next(), it.next()) {
                        (Some(ch), None) => {
                            push_class_char(&mut out, ch);
                            prev = Some(ch);
                        }
                        _ => return Err("Invalid collation character".into()),
                    }
                }
                continue;
            }
            if c == '-' && prev.is_some() && self.peek(0).is_some_and(|n| n != ']') {
                let lo = prev.unwrap_or('-');
                let mut hi = self.peek(0).unwrap_or('-');
                self.i += 1;
                if hi == '[' && self.peek(0) == Some('.') {
                    // `[.x.]` as a range end
                    let ch = self.peek(1).unwrap_or('.');
                    self.i += 3;
                    hi = ch;
                }
                if hi < lo {
                    return Err("Invalid range end".into());
                }
                out.push('-');
                push_class_char(&mut out, hi);
                prev = None;
                continue;
            }
            // sed reads `\n` and `\t` in brackets as newline and tab.
            let c = match (c, self.peek(0)) {
                ('\\', Some(e @ ('n' | 't'))) if self.sed => {
                    self.i += 1;
                    if e == 'n' {
                        '\n'
                    } else {
                        '\t'
                    }
                }
                _ => c,
            };
            push_class_char(&mut out, c);
            prev = Some(c);
        }
        out.push(']');
        if out == "[]" || out == "[^]" {
            return Err("Invalid regular expression".into());
        }
        // `[:space:]` written without the outer brackets is a GNU error.
        let body: String = self.c[open..self.i].iter().collect();
        if body.len() > 4 && body.starts_with("[:") && body.ends_with(":]") {
            let inner = &body[2..body.len() - 2];
            return Err(format!("character class syntax is [[:{inner}:]], not [:{inner}:]"));
        }
        self.out.push_str(&out);
        Ok(())
    }
}

/// One literal character inside a Rust class (escaping class metacharacters).
fn push_class_char(out: &mut String, c: char) {
    if c.is_ascii_punctuation() || c == ' ' {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::translate;

    fn t(p: &str, ere: bool) -> String {
        match translate(p, ere) {
            Ok(t) => t.source,
            Err(e) => format!("ERR {e}"),
        }
    }

    #[test]
    fn bre_and_ere() {
        assert_eq!(t("a\\(b\\)*c", false), "a(?:b)*c");
        assert_eq!(t("a(b)+", false), "a\\(b\\)\\+");
        assert_eq!(t("a(b)+", true), "a(?:b)+");
        assert_eq!(t("*a", false), "\\*a");
        assert_eq!(t("a^b$c$", false), "a\\^b\\$c$");
        assert_eq!(t("x\\{2,3\\}", false), "x{2,3}");
        assert_eq!(t("a{1", true), "a\\{1");
        assert_eq!(t("a+?", true), "(?:a+)?");
        assert_eq!(t("[]a-c[:digit:]^-]", false), "[\\]a-c[:digit:]\\^\\-]");
        assert_eq!(t("\\(a", false), "ERR Unmatched ( or \\(");
        assert_eq!(t("a\\1", false), "ERR Invalid back reference");
        assert_eq!(t("\\(a\\)x\\1", false), "(a)x\\1");
        assert_eq!(t("(a|b)\\1", true), "(a|b)\\1");
    }
}

/// Escape every regex metacharacter so `s` matches literally.
pub fn regex_escape(s: &str) -> String {
    regex::escape(s)
}
