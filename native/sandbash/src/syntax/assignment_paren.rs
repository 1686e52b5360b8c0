//! An assignment word followed by a `(` token, a syntax error in bash that
//! brush-parser reads otherwise:
//! - `a= (1 2)`: bash reads `a=` as an assignment of the empty string and the
//!   `(` after the blank as a token no command may take there; brush-parser
//!   reads the whole as `a=(1 2)`.
//! - `a=b() { ...; }`: an assignment is no function name (with or without a
//!   blank before the `()`); brush-parser defines a function named `a=b`.
//!   (`function a=b { ...; }` is a definition in bash too, and stays one.)

use brush_parser::Token;

/// bash's error for the first such `(` in `src`, when there is one.
pub fn error(src: &str) -> Option<String> {
    if !src.contains("= (") && !src.contains("=\t(") && !assignment_before_parens(src.as_bytes()) {
        return None;
    }
    let opts = super::options().tokenizer_options();
    let toks = brush_parser::uncached_tokenize_str(src, &opts).ok()?;
    let is_op = |t: Option<&Token>, s: &str| matches!(t, Some(Token::Operator(o, _)) if o == s);
    let line = toks.iter().enumerate().find_map(|(i, t)| {
        let (Token::Word(word, wl), Some(Token::Operator(op, ol))) = (t, toks.get(i + 1)) else { return None };
        if op != "(" {
            return None;
        }
        let blank_list = ol.start.index > wl.end.index && empty_assignment(word);
        // `f=()` with no blank is an empty array's assignment.
        let array = word.ends_with('=') && ol.start.index == wl.end.index;
        let definition = is_op(toks.get(i + 2), ")")
            && assignment(word)
            && !array
            && !matches!(i.checked_sub(1).and_then(|p| toks.get(p)), Some(Token::Word(w, _)) if w == "function");
        (blank_list || definition).then_some(ol.start.line)
    })?;
    let text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
    Some(format!("line {line}: syntax error near unexpected token `('\nbash: -c: line {line}: `{text}'"))
}

/// Whether some `()` (blanks allowed inside and before it) follows a word
/// holding an `=`: the cheap look that spares most texts the tokenizing.
fn assignment_before_parens(b: &[u8]) -> bool {
    let blank = |c: u8| c == b' ' || c == b'\t';
    let meta = |c: u8| blank(c) || b"\n;&|<>()".contains(&c);
    (0..b.len()).filter(|&i| b[i] == b'(').any(|i| {
        let mut j = i + 1;
        while j < b.len() && blank(b[j]) {
            j += 1;
        }
        if b.get(j) != Some(&b')') {
            return false;
        }
        let mut k = i;
        while k > 0 && blank(b[k - 1]) {
            k -= 1;
        }
        let end = k;
        while k > 0 && !meta(b[k - 1]) {
            k -= 1;
        }
        b[k..end].contains(&b'=')
    })
}

/// `name=` (or `name+=`) with nothing after the `=`.
fn empty_assignment(w: &str) -> bool {
    w.ends_with('=') && assignment(w)
}

/// `name=...` or `name+=...`: a word bash reads as an assignment.
fn assignment(w: &str) -> bool {
    let Some((name, _)) = w.split_once('=') else { return false };
    let name = name.strip_suffix('+').unwrap_or(name);
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_blank_between_an_empty_assignment_and_a_list() {
        assert!(error("a= (1 2); echo $a").is_some_and(|e| e.starts_with("line 1: syntax error")));
        assert!(error("x=1\nb+= (x)").is_some_and(|e| e.starts_with("line 2:")));
        assert_eq!(error("a=(1 2)"), None);
        assert_eq!(error("echo 'a= (1)'"), None);
        assert_eq!(error("f() { a= ; }"), None);
    }

    #[test]
    fn an_assignment_is_no_function_name() {
        assert!(error("a=b() { :; }").is_some_and(|e| e.starts_with("line 1: syntax error near unexpected token `('")));
        assert!(error("echo 1\nx+=y () { :; }").is_some_and(|e| e.starts_with("line 2:")));
        assert_eq!(error("function a=b() { :; }"), None);
        assert_eq!(error("f() { a=1; }; g () { :; }"), None);
        assert_eq!(error("echo 'a=b()'; =x() { :; }"), None);
        assert_eq!(error("x=$(f); y=`g`; (( a=b*(2) ))"), None);
    }
}
