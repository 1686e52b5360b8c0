//! `a= (1 2)`: bash reads `a=` as an assignment of the empty string and the
//! `(` after the blank as a token no command may take there, a syntax
//! error; brush-parser reads the whole as `a=(1 2)`.

use brush_parser::Token;

/// bash's error for the first `name= (` in `src`, when there is one.
pub fn error(src: &str) -> Option<String> {
    if !src.contains("= (") && !src.contains("=\t(") {
        return None;
    }
    let opts = super::options().tokenizer_options();
    let toks = brush_parser::uncached_tokenize_str(src, &opts).ok()?;
    let line = toks.windows(2).find_map(|w| match (&w[0], &w[1]) {
        (Token::Word(word, wl), Token::Operator(op, ol))
            if op == "(" && ol.start.index > wl.end.index && empty_assignment(word) =>
        {
            Some(ol.start.line)
        }
        _ => None,
    })?;
    let text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
    Some(format!("line {line}: syntax error near unexpected token `('\nbash: -c: line {line}: `{text}'"))
}

/// `name=` (or `name+=`) with nothing after the `=`.
fn empty_assignment(w: &str) -> bool {
    let Some(name) = w.strip_suffix('=') else { return false };
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
}
