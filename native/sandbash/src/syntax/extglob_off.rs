//! With `extglob` off, bash's reader ends a word at a `(`: `echo @(a)` and
//! `case x in +(a)) ...` are syntax errors, read before any of the line runs
//! (`shopt -s extglob; echo @(a)` on one line fails as a whole). brush-parser
//! always reads extglob patterns, so the script is checked apart: the first
//! unquoted `?(`, `*(`, `+(`, `@(` or `!(` outside `[[ ]]` (where bash reads
//! them whatever the option) and outside arithmetic.

use brush_parser::Token;

/// The error bash gives for `src` read with extglob off, in the form of
/// [`super::parse`]'s messages (`line N: syntax error near unexpected token `('`
/// and the line quoted); `None` when it reads as it does with extglob on.
pub fn error(src: &str) -> Option<String> {
    error_at(src, first_pattern_line(src)?)
}

fn error_at(src: &str, line: usize) -> Option<String> {
    let text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
    Some(format!("line {line}: syntax error near unexpected token `('\nbash: -c: line {line}: `{text}'"))
}

/// [`error`] and [`reads_without_extglob`] of `src`, in one look.
pub fn reading(src: &str) -> (Option<String>, bool) {
    let s = scan(src);
    (s.refused.and_then(|l| error_at(src, l)), s.refused.is_none() && s.reads_without && !s.reads_with)
}

/// The line of the last `(` left open that starts an extglob pattern (the
/// one the tokenizer found unterminated), 1 when none is.
pub fn open_pattern_line(src: &str) -> usize {
    let b = src.as_bytes();
    // Lines of the parentheses still open, and whether each starts a pattern.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut line = 1;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'\n' => line += 1,
            b'(' => open.push((line, i > 0 && matches!(b[i - 1], b'?' | b'*' | b'+' | b'@' | b'!'))),
            b')' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.iter().rev().find(|(_, pattern)| *pattern).map_or(1, |(l, _)| *l)
}

/// Whether the text holds an extglob opener anywhere (most scripts do not:
/// they skip the tokenizing).
fn may_hold_pattern(src: &str) -> bool {
    src.as_bytes().windows(2).any(|w| w[1] == b'(' && matches!(w[0], b'?' | b'*' | b'+' | b'@' | b'!'))
}

/// Words after which a `!` starts a pipeline (`!(false)` negates a subshell).
fn starts_command(prev: Option<&Token>) -> bool {
    match prev {
        None => true,
        Some(Token::Word(w, _)) => {
            matches!(w.as_str(), "then" | "do" | "else" | "elif" | "if" | "while" | "until" | "{" | "!" | "time")
        }
        Some(_) => true,
    }
}

/// The line of the first extglob pattern bash would refuse.
fn first_pattern_line(src: &str) -> Option<usize> {
    scan(src).refused
}

/// What a text holds that the extglob tokenizer reads otherwise than bash
/// does with extglob off.
#[derive(Default)]
struct Scan {
    /// The line of the first pattern bash refuses.
    refused: Option<usize>,
    /// A `NAME+()` definition or a `!(` subshell, which only a tokenizer
    /// without extglob reads as bash does.
    reads_without: bool,
    /// A pattern inside `[[ ]]`, which only a tokenizer with extglob reads.
    reads_with: bool,
}

/// Whether `src` (with extglob off) holds no pattern bash refuses and a
/// construct only a tokenizer without extglob reads right, and none that
/// needs one with it: then it is parsed without extglob.
pub fn reads_without_extglob(src: &str) -> bool {
    let s = scan(src);
    s.refused.is_none() && s.reads_without && !s.reads_with
}

fn scan(src: &str) -> Scan {
    let mut found = Scan::default();
    if !may_hold_pattern(src) {
        return found;
    }
    let opts =
        brush_parser::TokenizerOptions { enable_extended_globbing: false, ..super::options().tokenizer_options() };
    // A text the tokenizer refuses gets its error from the parse.
    let Ok(toks) = brush_parser::uncached_tokenize_str(src, &opts) else { return found };
    let is_op = |t: &Token, s: &str| matches!(t, Token::Operator(o, _) if o == s);
    // A word with an extglob character last and a `(` right after it.
    let opener = |i: usize| match (&toks[i], toks.get(i + 1)) {
        (Token::Word(w, loc), Some(n)) => {
            is_op(n, "(")
                && n.location().start.index == loc.end.index
                && w.chars().last().is_some_and(|c| matches!(c, '?' | '*' | '+' | '@' | '!'))
        }
        _ => false,
    };
    // Inside `[[ ]]`; inside `(( ))` or `for (( ))`, its parenthesis depth.
    let (mut cond, mut arith) = (false, 0usize);
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        if arith > 0 {
            if is_op(t, "(") {
                arith += 1;
            } else if is_op(t, ")") {
                arith -= 1;
            }
            continue;
        }
        match t {
            Token::Word(w, _) if cond => {
                cond = w != "]]";
                found.reads_with |= cond && opener(i);
            }
            Token::Word(w, _) if w == "[[" => cond = true,
            Token::Operator(o, loc)
                if o == "("
                // `((`: arithmetic (a subshell in a subshell is written `( (`).
                && next.is_some_and(|n| is_op(n, "(") && n.location().start.index == loc.end.index) =>
            {
                arith = 1;
            }
            Token::Word(w, loc) => {
                if !opener(i) {
                    continue;
                }
                // `\@(` is a quoted `@` followed by a `(`: the `(` is still
                // refused, but as any `(` after a word is (that error comes
                // from the parse).
                let escapes = w[..w.len() - 1].bytes().rev().take_while(|&b| b == b'\\').count();
                if escapes % 2 == 1 {
                    continue;
                }
                // `name+() { ...; }` defines a function: a name with more
                // than the pattern character, where a command starts (or
                // after `function`).
                let prev = i.checked_sub(1).and_then(|p| toks.get(p));
                let defines =
                    (w.len() > 1 && starts_command(prev)) || matches!(prev, Some(Token::Word(p, _)) if p == "function");
                if defines && toks.get(i + 2).is_some_and(|n| is_op(n, ")")) {
                    found.reads_without = true;
                    continue;
                }
                if w == "!" && starts_command(i.checked_sub(1).and_then(|p| toks.get(p))) {
                    found.reads_without = true;
                    continue;
                }
                if found.refused.is_none() {
                    found.refused = Some(loc.start.line);
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::first_pattern_line as at;

    #[test]
    fn only_definitions_and_subshells_read_without_extglob() {
        use super::reads_without_extglob as without;
        assert!(without("f+() { :; }; f+"));
        assert!(without("!(false); echo $?"));
        // A pattern in `[[ ]]` needs the extglob tokenizer; one outside is refused.
        assert!(!without("f+() { :; }; [[ x == @(x) ]]"));
        assert!(!without("f+() { :; }; echo @(x)"));
        assert!(!without("[[ a == +(a) ]]"));
        assert!(!without("echo plain"));
        // A pattern with an empty list is no definition.
        assert!(!without("echo !()"));
        assert!(!without("echo x+()"));
        assert!(without("function g*() { :; }"));
    }

    #[test]
    fn patterns_are_found_where_bash_reads_words() {
        assert_eq!(at("echo @(a|b)"), Some(1));
        assert_eq!(at("echo a\necho x+(y)z"), Some(2));
        assert_eq!(at("case x in ?(a)) :;; esac"), Some(1));
        assert_eq!(at("echo !(a)"), Some(1));
    }

    #[test]
    fn other_parentheses_are_left_alone() {
        for s in [
            "[[ x == @(a|b) ]]",
            "(( y = 2*(3+1) ))",
            "for ((i=0; i<2*(1); i++)); do :; done",
            "echo $(( 2*(3) ))",
            "echo \"@(a)\" '+(b)' \\@\\(c\\)",
            "echo ${x:-@(a)}",
            "!(false)",
            "if !(false); then :; fi",
            "f+() { :; }",
            "a=(1 2)",
            "echo *.txt (",
        ] {
            assert_eq!(at(s), None, "{s}");
        }
    }
}
