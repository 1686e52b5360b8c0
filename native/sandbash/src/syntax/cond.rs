//! `[[ ... ]]` read as bash's parser reads it (parse.y: `cond_expr`,
//! `cond_term`), before brush-parser sees the script.
//!
//! bash parses a conditional statically, word by word: an operator must be
//! written as one (`x='=='; [[ a $x b ]]` is an error), newlines may stand
//! before a term and after a complete one, and a malformed conditional is
//! reported with its own messages (`conditional binary operator expected`).
//! Such an error is not an ordinary syntax error: bash prints only that
//! message, and a script ends there with the status it had (`eval` and `.`
//! return 2).
//!
//! [`check`] finds each `[[` in command position, reads its tokens with
//! bash's grammar, and returns the first error, or the text with the
//! newlines brush-parser would refuse inside a conditional (after `(` or
//! `!`, before `)`) escaped as line continuations, which keeps every line
//! number.

use brush_parser::Token;

/// Nesting of `(` and `!` followed; deeper conditionals are left to the
/// parser's own depth limit.
const MAX_DEPTH: usize = 256;

/// A conditional that bash refuses: its line and bash's message (which may
/// be two lines, the second `bash: -c: line N: ...`, or empty: `[[ ]]`
/// fails silently).
#[derive(Debug, PartialEq)]
pub struct CondError {
    pub line: usize,
    pub message: String,
}

impl CondError {
    /// As a parse error string: `line N: MESSAGE`.
    pub fn text(&self) -> String {
        format!("line {}: {}", self.line, self.message)
    }
}

/// The message part of a parse error that came from a conditional, `Some("")`
/// for a silent one; `None` for any other syntax error.
pub fn message(err: &str) -> Option<&str> {
    let first = err.split('\n').next()?;
    let rest = first.strip_prefix("line ")?;
    let (n, msg) = rest.split_once(": ").unwrap_or((rest.trim_end_matches(':'), ""));
    n.parse::<usize>().ok()?;
    let cond = msg.is_empty()
        || msg.ends_with("conditional binary operator expected")
        || msg.contains("to conditional unary operator")
        || msg.contains("to conditional binary operator")
        || msg.ends_with("in conditional command")
        || msg == "expected `)'"
        || (msg.starts_with("unexpected token `") && msg.ends_with("', expected `)'"))
        || msg.starts_with("syntax error in conditional expression");
    cond.then_some(msg)
}

/// A token of a conditional: a word (as written) or an operator, with its
/// line and char index.
#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    word: bool,
    line: usize,
    index: usize,
    /// Char index just past the token.
    end: usize,
}

impl Tok<'_> {
    fn is_op(&self, op: &str) -> bool {
        !self.word && self.text == op
    }
    fn is_end(&self) -> bool {
        self.word && self.text == "]]"
    }
}

/// How bash names a token in a message (`error_token_from_token`): operators
/// and reserved words by their text, a newline as `newline`; a plain word
/// has no name.
fn name(t: Option<&Tok>) -> Option<String> {
    match t {
        None => Some("end of file".into()),
        Some(t) if !t.word => Some(if t.text == "\n" { "newline".into() } else { t.text.to_string() }),
        Some(t) if t.text == "]]" || t.text == "[[" => Some(t.text.to_string()),
        Some(_) => None,
    }
}

fn unary_op(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 2 && b[0] == b'-' && b"abcdefghknoprstuvwxzGLNOSR".contains(&b[1])
}

fn binary_op(w: &str) -> bool {
    matches!(w, "=" | "==" | "!=" | "<" | ">" | "-nt" | "-ot" | "-ef" | "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge")
}

/// Operators that end a command (and its redirections).
fn ends_command(op: &str) -> bool {
    matches!(op, ";" | "\n" | "&" | "&&" | "||" | "|" | "|&" | ")" | ";;" | ";&" | ";;&")
}

/// Words that leave the next word in command position.
fn opens_command(w: &str) -> bool {
    matches!(w, "if" | "then" | "else" | "elif" | "do" | "while" | "until" | "!" | "{" | "time")
}

/// Check every conditional of `src`. `Ok(None)`: nothing to change;
/// `Ok(Some(text))`: the text with newlines escaped inside conditionals.
pub fn check(src: &str) -> Result<Option<String>, CondError> {
    if !src.contains("[[") {
        return Ok(None);
    }
    let opts = super::options().tokenizer_options();
    // A text the tokenizer refuses (an open quote) is the parser's to report.
    let Ok(tokens) = brush_parser::uncached_tokenize_str(src, &opts) else { return Ok(None) };
    let toks: Vec<Tok> = tokens
        .iter()
        .map(|t| match t {
            Token::Word(w, l) => {
                Tok { text: w, word: true, line: l.start.line, index: l.start.index, end: l.end.index }
            }
            Token::Operator(o, l) => {
                Tok { text: o, word: false, line: l.start.line, index: l.start.index, end: l.end.index }
            }
        })
        .collect();
    let chars: Vec<char> = src.chars().collect();
    // Text to insert before char indices: escapes of newlines, and braces
    // around a function body that is a conditional (`f() [[ ... ]]`, which
    // brush-parser refuses; bash runs and prints it as `{ [[ ... ]]; }`).
    let mut inserts: Vec<(usize, &str)> = Vec::new();
    let mut cmd_start = true;
    // The next word is a function's body.
    let mut body_next = false;
    // After `function`: its name, then the body in command position.
    let mut fn_name = false;
    // Open `case` commands: a `)` there ends a pattern.
    let mut cases = 0usize;
    // Assignment words began the command: a reserved word after them is an
    // ordinary word (`FOO=bar [[ x ]]` runs a command named `[[`).
    let mut after_assignments = false;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        if t.word && (cmd_start || after_assignments) && is_assignment_word(t.text) {
            after_assignments = true;
            cmd_start = false;
            i += 1;
            continue;
        }
        if std::mem::take(&mut after_assignments) && t.word && t.text == "[[" {
            inserts.push((t.index, "\\"));
            i += 1;
            continue;
        }
        if !t.word {
            // `name ()` is followed by the function's body.
            let fn_parens = t.text == ")" && i > 0 && toks[i - 1].is_op("(");
            let pattern_end = t.text == ")" && cases > 0;
            body_next = fn_parens;
            cmd_start = fn_parens
                || pattern_end
                || matches!(t.text, ";" | "\n" | "&" | "&&" | "||" | "|" | "|&" | "(" | ";;" | ";&" | ";;&");
            fn_name = false;
            i += 1;
            continue;
        }
        let is_body = std::mem::take(&mut body_next);
        if std::mem::take(&mut fn_name) {
            cmd_start = true;
            body_next = true;
            i += 1;
            continue;
        }
        match t.text {
            "case" if cmd_start => cases += 1,
            "esac" => cases = cases.saturating_sub(1),
            _ => {}
        }
        if cmd_start && t.text == "function" {
            fn_name = true;
            cmd_start = false;
            i += 1;
            continue;
        }
        if cmd_start && t.text == "[[" {
            let mut p = Reader {
                toks: &toks,
                at: i + 1,
                chars: &chars,
                newlines: Vec::new(),
                line: t.line,
                too_deep: false,
                quoted: Vec::new(),
            };
            let r = p.command();
            if p.too_deep {
                return Ok(None);
            }
            r?;
            inserts.extend(p.newlines.iter().map(|&n| (n, " \\")));
            inserts.extend(p.quoted.iter().flat_map(|&(a, b)| [(a, "'"), (b, "'")]));
            i = p.at;
            if is_body {
                // The body's redirections stay with it, inside the braces.
                let mut end = toks[i - 1].end;
                while let Some(r) = toks.get(i).filter(|r| r.word || !ends_command(r.text)) {
                    end = r.end;
                    i += 1;
                }
                inserts.push((t.index, "{ "));
                inserts.push((end, "; }"));
            }
            cmd_start = false;
            continue;
        }
        cmd_start = cmd_start && opens_command(t.text);
        i += 1;
    }
    if inserts.is_empty() {
        return Ok(None);
    }
    // A newline is escaped with a blank first: a continuation right after a
    // word would join that word with the next line's.
    inserts.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(src.len() + 3 * inserts.len());
    let mut next = inserts.iter().peekable();
    for (ci, c) in chars.iter().enumerate() {
        while let Some((_, s)) = next.next_if(|e| e.0 == ci) {
            out.push_str(s);
        }
        out.push(*c);
    }
    for (_, s) in next {
        out.push_str(s);
    }
    Ok(Some(out))
}

/// `name=...`, `name+=...` or `name[...]=...`: a word bash reads as an
/// assignment before a command's name.
fn is_assignment_word(w: &str) -> bool {
    let name_len = w.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
    if name_len == 0 || w.as_bytes()[0].is_ascii_digit() {
        return false;
    }
    let rest = &w[name_len..];
    let rest = match rest.strip_prefix('[') {
        Some(sub) => match sub.find("]") {
            Some(e) => &sub[e + 1..],
            None => return false,
        },
        None => rest,
    };
    rest.starts_with('=') || rest.starts_with("+=")
}

/// bash's `cond_expr` over the tokens after a `[[`.
struct Reader<'t, 'a> {
    toks: &'t [Tok<'a>],
    at: usize,
    chars: &'t [char],
    /// Char indices of the newlines read inside the conditional.
    newlines: Vec<usize>,
    /// The line of the `[[`.
    line: usize,
    /// Nested past [`MAX_DEPTH`]: not judged here.
    too_deep: bool,
    /// Char ranges of operands to quote for brush-parser.
    quoted: Vec<(usize, usize)>,
}

/// A term that failed: bash has printed its message already (`COND_ERROR`).
struct Failed;

impl<'a> Reader<'_, 'a> {
    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.at).copied()
    }

    fn read(&mut self) -> Option<Tok<'a>> {
        let t = self.peek();
        self.at += 1;
        t
    }

    /// `cond_skip_newlines`: the next token that is not a newline.
    fn skip_newlines(&mut self) -> Option<Tok<'a>> {
        while let Some(t) = self.peek() {
            if !t.is_op("\n") {
                return Some(t);
            }
            self.newlines.push(t.index);
            self.at += 1;
        }
        None
    }

    fn line_of(&self, t: Option<Tok>) -> usize {
        t.map_or_else(|| self.toks.last().map_or(self.line, |l| l.line), |t| t.line)
    }

    /// The whole conditional, up to and with its `]]`.
    fn command(&mut self) -> Result<(), CondError> {
        let mut errors = Vec::new();
        let r = self.expr(&mut errors, 0);
        if self.too_deep {
            return Ok(());
        }
        if r.is_ok() {
            // `parse_cond_command`'s caller: the expression must end at `]]`.
            match self.peek() {
                Some(t) if t.is_end() => {
                    self.at += 1;
                    return Ok(());
                }
                // The end of the text: an ordinary syntax error (status 2).
                None => {
                    return Err(CondError { line: self.line, message: "unexpected EOF while looking for `]]'".into() })
                }
                t => errors.push((
                    self.line,
                    match name(t.as_ref()) {
                        Some(n) => format!("syntax error in conditional expression: unexpected token `{n}'"),
                        None => "syntax error in conditional expression".into(),
                    },
                )),
            }
        }
        if errors.is_empty() && r.is_ok() {
            return Ok(());
        }
        let line = errors.first().map_or(self.line, |e| e.0);
        let mut message = String::new();
        for (k, (l, m)) in errors.iter().enumerate() {
            if k > 0 {
                message.push_str(&format!("\nbash: -c: line {l}: "));
            }
            message.push_str(m);
        }
        Err(CondError { line, message })
    }

    /// `cond_or` / `cond_and`, as loops (a long `a && b && ...` is no deeper).
    fn expr(&mut self, errors: &mut Vec<(usize, String)>, depth: usize) -> Result<(), Failed> {
        loop {
            self.term(errors, depth)?;
            match self.peek() {
                Some(t) if t.is_op("&&") || t.is_op("||") => self.at += 1,
                _ => return Ok(()),
            }
        }
    }

    /// `cond_term`; after it the next token is the one bash's `cond_token` holds.
    fn term(&mut self, errors: &mut Vec<(usize, String)>, depth: usize) -> Result<(), Failed> {
        if depth > MAX_DEPTH {
            // Far deeper than any script means: the parser's limit decides.
            self.too_deep = true;
            self.at = self.toks.len();
            return Err(Failed);
        }
        let tok = self.skip_newlines();
        let start_line = self.line_of(tok);
        let Some(t) = tok else {
            errors.push((start_line, "unexpected token `end of file' in conditional command".into()));
            return Err(Failed);
        };
        self.at += 1;
        if t.is_end() {
            // `[[ ]]`, `[[ ! ]]`: an error bash does not describe.
            return Err(Failed);
        }
        if t.is_op("(") {
            let inner = self.expr(errors, depth + 1);
            let close = self.peek();
            if inner.is_err() || !close.is_some_and(|c| c.is_op(")")) {
                let m = match close.filter(|_| inner.is_ok()).as_ref().and_then(|c| name(Some(c))) {
                    Some(n) => format!("unexpected token `{n}', expected `)'"),
                    None if inner.is_ok() && close.is_none() => "unexpected token `end of file', expected `)'".into(),
                    None => "expected `)'".into(),
                };
                errors.push((start_line, m));
                return Err(Failed);
            }
            self.at += 1;
            self.skip_newlines();
            return Ok(());
        }
        if t.word && t.text == "!" {
            return self.term(errors, depth + 1);
        }
        if t.word && unary_op(t.text) {
            let arg = self.read();
            match arg {
                // An operand spelled like a binary operator (`[[ -n == ]]`)
                // is a word to bash; brush-parser needs it quoted.
                Some(a) if a.word && !a.is_end() && (binary_op(a.text) || a.text == "=~") => {
                    self.quoted.push((a.index, a.end));
                }
                Some(a) if a.word && !a.is_end() => {}
                a => {
                    let m = match name(a.as_ref()) {
                        Some(n) => format!("unexpected argument `{n}' to conditional unary operator"),
                        None => "unexpected argument to conditional unary operator".into(),
                    };
                    errors.push((self.line_of(a), m));
                    return Err(Failed);
                }
            }
            self.skip_newlines();
            return Ok(());
        }
        if t.word {
            // The left operand; then the operator, as written.
            let op = self.peek();
            let regex = match op {
                Some(o) if o.word && (binary_op(o.text) || o.text == "=~") => o.text == "=~",
                Some(o) if o.is_op("<") || o.is_op(">") => false,
                // `[[ x ]]` is `[[ -n x ]]`, also before `&&`, `||`, `)`.
                Some(o) if o.is_end() || o.is_op("&&") || o.is_op("||") || o.is_op(")") => return Ok(()),
                o => {
                    let m = match name(o.as_ref()) {
                        Some(n) => format!("unexpected token `{n}', conditional binary operator expected"),
                        None => "conditional binary operator expected".into(),
                    };
                    errors.push((self.line_of(o), m));
                    return Err(Failed);
                }
            };
            self.at += 1;
            let rhs = self.peek();
            let is_word = rhs.is_some_and(|r| (r.word && !r.is_end()) || (regex && r.is_op("(")));
            if !is_word {
                let m = match name(rhs.as_ref()) {
                    Some(n) => format!("unexpected argument `{n}' to conditional binary operator"),
                    None => "unexpected argument to conditional binary operator".into(),
                };
                errors.push((self.line_of(rhs), m));
                return Err(Failed);
            }
            match rhs {
                Some(r) if regex => self.skip_regex(r.index),
                _ => self.at += 1,
            }
            self.skip_newlines();
            return Ok(());
        }
        // An operator where a term begins.
        errors.push((
            t.line,
            format!("unexpected token `{}' in conditional command", name(Some(&t)).unwrap_or_default()),
        ));
        Err(Failed)
    }

    /// The right side of `=~` is one word to bash even with `(` and `|` in
    /// it (the tokenizer split it): skip the tokens it covers.
    fn skip_regex(&mut self, start: usize) {
        let end = regex_word_end(self.chars, start);
        while self.peek().is_some_and(|t| t.index < end) {
            self.at += 1;
        }
    }
}

/// Where the regex word starting at char `i` ends: at a blank, newline or
/// shell operator outside quotes and parentheses.
fn regex_word_end(c: &[char], mut i: usize) -> usize {
    let mut parens = 0usize;
    while i < c.len() {
        match c[i] {
            '\\' => i += 1,
            '\'' => {
                i += 1;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
            }
            '"' => {
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            '(' => parens += 1,
            ')' if parens > 0 => parens -= 1,
            ' ' | '\t' | '\n' | ';' | '&' | '<' | '>' | ')' if parens == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    c.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        check(s).err().map(|e| e.text()).unwrap_or_default()
    }

    #[test]
    fn valid_conditionals_pass_and_newlines_are_escaped() {
        assert_eq!(check("[[ a = b ]] && echo"), Ok(None));
        assert_eq!(check("[[ $x =~ ^(a|b)$ && -n $y ]]"), Ok(None));
        assert_eq!(check("[[ x == @(a|b) || ! -f y ]]"), Ok(None));
        assert_eq!(check("echo [[ a b ]]"), Ok(None));
        assert_eq!(check("[[ (\na = a ) ]]").unwrap().as_deref(), Some("[[ ( \\\na = a ) ]]"));
        assert_eq!(check("[[ -n a\n]]").unwrap().as_deref(), Some("[[ -n a \\\n]]"));
        assert!(check("f() { [[ a b ]]; }").is_err());
        assert!(check("function f { [[ a b ]]; }").is_err());
        assert!(check("function f() [[ a b ]]").is_err());
        assert!(check("case x in x) [[ a b ]];; esac").is_err());
        assert_eq!(check("f() [[ -n $1 ]]").unwrap().as_deref(), Some("f() { [[ -n $1 ]]; }"));
        assert_eq!(
            check("f() [[ -n $1 ]] 2>/dev/null; f x").unwrap().as_deref(),
            Some("f() { [[ -n $1 ]] 2>/dev/null; }; f x")
        );
        assert_eq!(check("function g [[ a ]]\ng").unwrap().as_deref(), Some("function g { [[ a ]]; }\ng"));
        assert!(check("case x in (x) [[ a b ]];; esac").is_err());
        assert_eq!(
            check("[[ a\n&& b ]]").map(|_| ()),
            Err(CondError {
                line: 1,
                message: "unexpected token `newline', conditional binary operator expected".into()
            })
        );
    }

    #[test]
    fn bash_messages() {
        assert_eq!(err("[[ a b ]]"), "line 1: conditional binary operator expected");
        assert_eq!(err("[[ -f < ]]"), "line 1: unexpected argument `<' to conditional unary operator");
        assert_eq!(err("[[ && ]]"), "line 1: unexpected token `&&' in conditional command");
        assert_eq!(err("[[ a = ]]"), "line 1: unexpected argument `]]' to conditional binary operator");
        assert_eq!(err("[[ ( a = b ]]"), "line 1: unexpected token `]]', expected `)'");
        assert_eq!(err("[[ a = b ) ]]"), "line 1: syntax error in conditional expression: unexpected token `)'");
        assert_eq!(err("[[ ]]"), "line 1: ");
        assert_eq!(
            err("[[ ( a\n) ]]"),
            "line 1: unexpected token `newline', conditional binary operator expected\nbash: -c: line 1: expected `)'"
        );
        assert_eq!(
            message("line 3: conditional binary operator expected"),
            Some("conditional binary operator expected")
        );
        assert_eq!(message("line 3: "), Some(""));
        assert_eq!(message("line 3: syntax error near unexpected token `fi'"), None);
    }

    #[test]
    fn deep_nesting_is_not_followed() {
        let deep = format!("[[ {} a {} ]]", "( ".repeat(100_000), ") ".repeat(100_000));
        assert_eq!(check(&deep), Ok(None));
        let chain = format!("[[ a{} ]]", " && a".repeat(100_000));
        assert_eq!(check(&chain), Ok(None));
        let bangs = format!("[[ {} a ]]", "! ".repeat(100_000));
        assert_eq!(check(&bangs), Ok(None));
    }
}
