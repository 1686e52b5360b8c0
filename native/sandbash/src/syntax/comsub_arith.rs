//! `((` inside `$( )`: brush-parser's tokenizer notes an arithmetic command
//! when it meets `((` and forgets it at the `))` that closes it, but inside a
//! command substitution that `)` is read as the substitution's own, so the
//! note outlives it and every here-document after it (`<<` there reads as a
//! shift) is lost until some later `))`. The tokenizer also forgets the note
//! at the end of any `$((...))`: right after such a command substitution an
//! expansion that is always empty and holds one, [`ARITH_RESET`], is added.
//! Only when a here-document follows; readers of a word's text drop it again
//! (see [`crate::state::source::Source::word`]).
//!
//! The same note is forgotten too early inside an arithmetic command: the
//! `))` of `(( ((1)) << 2 ))` ends it, and the shift after it starts a
//! here-document that swallows the script. There the inner `))` gets a blank
//! between its parentheses (the same arithmetic), when a `<<` follows in the
//! command.

use super::comsub_comments::{skip_single, word_start};
use std::borrow::Cow;

/// Empty wherever it stands (`$-` is never unset, its slice is empty) and
/// ends with an arithmetic expansion.
pub const ARITH_RESET: &str = "${-:0:$((0))}";

#[derive(Clone, Copy, PartialEq)]
enum Frame {
    /// `$(` (whether an arithmetic command is in it: `dirty`).
    Comsub,
    /// `(` of a subshell, a function body, a pattern or `<(`.
    Paren,
    /// `$((` or `((` (`true`: an arithmetic command), with the
    /// parentheses open inside it.
    Arith(usize, bool),
    /// `${`.
    Brace,
    /// `"`.
    Dquote,
}

/// `src` with [`ARITH_RESET`] after each command substitution that holds
/// `((`, when a here-document comes after it.
pub fn rewrite(src: &str) -> Cow<'_, str> {
    if !src.contains("((") || !src.contains("<<") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    // For each `Comsub` on the stack, innermost last: whether `((` is in it.
    let mut dirty: Vec<bool> = Vec::new();
    let mut inserts: Vec<usize> = Vec::new();
    // Where a blank goes inside an arithmetic command's inner `))`.
    let mut blanks: Vec<usize> = Vec::new();
    // For each arithmetic command open, innermost last: its inner `))`.
    let mut inner: Vec<Vec<usize>> = Vec::new();
    // Whether a here-document starts after the last insert point.
    let mut heredoc_after = false;
    // Delimiters (and `<<-`) of here-documents whose bodies start at the next newline.
    let mut pending: Vec<(String, bool)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if stack.len() > super::MAX_REWRITE_NESTING {
            return Cow::Borrowed(src);
        }
        let c = b[i];
        let top = stack.last().copied();
        let code = matches!(top, None | Some(Frame::Comsub | Frame::Paren));
        match c {
            b'`' => return Cow::Borrowed(src),
            b'\\' => {
                i += 2;
                continue;
            }
            b'$' if b.get(i + 1) == Some(&b'(') => {
                if b.get(i + 2) == Some(&b'(') {
                    stack.push(Frame::Arith(0, false));
                    i += 3;
                } else {
                    stack.push(Frame::Comsub);
                    dirty.push(false);
                    i += 2;
                }
                continue;
            }
            b'$' if b.get(i + 1) == Some(&b'{') => {
                stack.push(Frame::Brace);
                i += 2;
                continue;
            }
            _ => {}
        }
        match top {
            Some(Frame::Dquote) => {
                if c == b'"' {
                    stack.pop();
                }
                i += 1;
                continue;
            }
            Some(Frame::Brace) if c == b'}' => {
                stack.pop();
                i += 1;
                continue;
            }
            Some(Frame::Arith(depth, command)) => {
                match c {
                    b'(' => *stack.last_mut().expect("arith frame") = Frame::Arith(depth + 1, command),
                    b')' if depth > 0 => {
                        *stack.last_mut().expect("arith frame") = Frame::Arith(depth - 1, command);
                        if command && b.get(i + 1) == Some(&b')') {
                            if let Some(pairs) = inner.last_mut() {
                                pairs.push(i + 1);
                            }
                        }
                    }
                    b')' => {
                        stack.pop();
                        if command {
                            inner.pop();
                        }
                        if b.get(i + 1) == Some(&b')') {
                            i += 1;
                        }
                    }
                    b'<' if command && b.get(i + 1) == Some(&b'<') => {
                        if let Some(pairs) = inner.last_mut() {
                            blanks.append(pairs);
                        }
                    }
                    b'"' => stack.push(Frame::Dquote),
                    _ => {}
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        let in_dquote = stack.contains(&Frame::Dquote);
        match c {
            b'\'' if !in_dquote || code => match skip_single(b, i + 1, b.get(i.wrapping_sub(1)) == Some(&b'$')) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => return Cow::Borrowed(src),
            },
            b'"' => stack.push(Frame::Dquote),
            b'<' if code && b.get(i + 1) == Some(&b'<') && b.get(i + 2) != Some(&b'<') => {
                let Some((delim, strip, end)) = heredoc_word(src, i + 2) else { return Cow::Borrowed(src) };
                pending.push((delim, strip));
                heredoc_after |= !inserts.is_empty();
                i = end;
                continue;
            }
            b'\n' if code && !pending.is_empty() => {
                i = skip_bodies(src, i + 1, std::mem::take(&mut pending));
                continue;
            }
            b'(' if code && b.get(i + 1) == Some(&b'(') && word_start(b, i) => {
                if let Some(d) = dirty.last_mut() {
                    *d = true;
                }
                stack.push(Frame::Arith(0, true));
                inner.push(Vec::new());
                i += 1;
            }
            b'(' if code => stack.push(Frame::Paren),
            b')' if code => {
                let closed = stack.pop();
                if closed == Some(Frame::Comsub) && dirty.pop() == Some(true) {
                    inserts.push(i + 1);
                    heredoc_after = false;
                }
            }
            b'#' if code && word_start(b, i) => {
                i = src[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // Insert points after the last here-document need nothing.
    if !heredoc_after {
        inserts.pop();
    }
    if inserts.is_empty() && blanks.is_empty() {
        return Cow::Borrowed(src);
    }
    let mut all: Vec<(usize, &str)> = inserts.into_iter().map(|at| (at, ARITH_RESET)).collect();
    all.extend(blanks.into_iter().map(|at| (at, " ")));
    all.sort_unstable();
    let mut out = String::with_capacity(src.len() + all.len() * ARITH_RESET.len());
    let mut last = 0;
    for (at, text) in all {
        out.push_str(&src[last..at]);
        out.push_str(text);
        last = at;
    }
    out.push_str(&src[last..]);
    Cow::Owned(out)
}

/// The delimiter of a here-document whose operator ends before `from` (quotes
/// removed), whether it is `<<-`, and where the word ends.
pub(crate) fn heredoc_word(src: &str, mut from: usize) -> Option<(String, bool, usize)> {
    let b = src.as_bytes();
    let strip = b.get(from) == Some(&b'-');
    if strip {
        from += 1;
    }
    while matches!(b.get(from), Some(b' ' | b'\t')) {
        from += 1;
    }
    let mut delim = String::new();
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' => break,
            b'\'' | b'"' => {
                let q = b[i];
                let end = src[i + 1..].find(q as char)? + i + 1;
                delim.push_str(&src[i + 1..end]);
                i = end + 1;
            }
            b'\\' => {
                delim.push_str(src.get(i + 1..i + 2)?);
                i += 2;
            }
            _ => {
                let ch = src[i..].chars().next()?;
                delim.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    (!delim.is_empty()).then_some((delim, strip, i))
}

/// Past the bodies of `docs`, which start at `from`.
fn skip_bodies(src: &str, mut from: usize, docs: Vec<(String, bool)>) -> usize {
    for (delim, strip) in docs {
        while from < src.len() {
            let end = src[from..].find('\n').map_or(src.len(), |n| from + n);
            let line = &src[from..end];
            let line = if strip { line.trim_start_matches('\t') } else { line };
            from = (end + 1).min(src.len());
            if line == delim {
                break;
            }
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::{rewrite, ARITH_RESET};

    #[test]
    fn after_a_substitution_with_an_arithmetic_command() {
        let src = "x=$( (( 1 )) )\ncat <<EOF\na\nEOF\n";
        assert_eq!(rewrite(src), format!("x=$( (( 1 )) ){ARITH_RESET}\ncat <<EOF\na\nEOF\n"));
        let src = "x=\"$(for ((i=0;i<1;i++)); do :; done)\"; cat <<-'E'\n\ta\n\tE\n";
        assert!(rewrite(src).contains(&format!("done){ARITH_RESET}\"")));
    }

    #[test]
    fn nothing_when_no_here_document_follows() {
        for src in [
            "x=$( (( 1 )) )\necho a",
            "cat <<EOF\n$( (( 1 )) )\nEOF\n",
            "x=$(( 1 << 2 )); y=$(echo ((1)) )",
            "echo '$( (( 1 )) )' <<EOF\nEOF\n",
            "x=$(echo 1)\ncat <<EOF\nEOF\n",
        ] {
            assert_eq!(rewrite(src), src, "{src}");
        }
    }

    #[test]
    fn inner_parentheses_of_an_arithmetic_command_before_a_shift() {
        assert_eq!(rewrite("(( ((1)) << 2 ))\necho"), "(( ((1) ) << 2 ))\necho");
        assert_eq!(rewrite("(( ((1)) >> 2 )) <<E\nE\n"), "(( ((1)) >> 2 )) <<E\nE\n");
        assert_eq!(rewrite("x=$(( ((1)) << 2 ))"), "x=$(( ((1)) << 2 ))");
    }

    #[test]
    fn inner_and_outer_substitutions() {
        let src = "x=$(y=$( ((1)) ); echo) <<E\nE\n";
        assert_eq!(rewrite(src), format!("x=$(y=$( ((1)) ){ARITH_RESET}; echo) <<E\nE\n"));
    }
}
