//! Comments inside `$( )`: brush-parser reads a command substitution's text
//! without knowing comments, so a quote or a parenthesis in one (`$( # it's
//! here`) swallows the rest of the script. bash skips comments there as
//! anywhere. Their text is blanked (each byte a space, newlines kept, so
//! every offset and line number stays where it was).
//!
//! Blanking a comment is harmless wherever it is; what must never happen is
//! taking something else for one. So the scan tracks quotes, `${ }` and
//! arithmetic (where `#` is not a comment), and gives up, changing nothing,
//! at what it does not follow: here-documents and backquotes.

use std::borrow::Cow;

#[derive(Clone, Copy, PartialEq)]
enum Frame {
    /// `$(`: its comments are blanked.
    Comsub,
    /// `(` of a subshell, a function body or a pattern.
    Paren,
    /// `$((` or `((`, with the parentheses open inside it.
    Arith(usize),
    /// `${`.
    Brace,
    /// `"`.
    Dquote,
}

/// `src` with the comments inside command substitutions blanked.
pub fn blank(src: &str) -> Cow<'_, str> {
    if !src.contains("$(") || !src.contains('#') {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        // Nesting this deep fails to parse anyway: changing nothing is safe.
        if stack.len() > super::MAX_REWRITE_NESTING {
            return Cow::Borrowed(src);
        }
        let c = b[i];
        let top = stack.last().copied();
        let code = matches!(top, None | Some(Frame::Comsub | Frame::Paren));
        // What every context shares: escapes, substitutions, backquotes.
        match c {
            b'`' => return Cow::Borrowed(src),
            b'\\' => {
                i += 2;
                continue;
            }
            b'$' if b.get(i + 1) == Some(&b'(') => {
                if b.get(i + 2) == Some(&b'(') {
                    stack.push(Frame::Arith(0));
                    i += 3;
                } else {
                    stack.push(Frame::Comsub);
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
            Some(Frame::Arith(depth)) => {
                match c {
                    b'(' => *stack.last_mut().expect("arith frame") = Frame::Arith(depth + 1),
                    b')' if depth > 0 => *stack.last_mut().expect("arith frame") = Frame::Arith(depth - 1),
                    b')' => {
                        stack.pop();
                        if b.get(i + 1) == Some(&b')') {
                            i += 1;
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
        // Code, or inside `${ }` (quotes there are quotes outside "...").
        let in_dquote = stack.contains(&Frame::Dquote);
        match c {
            b'\'' if !in_dquote || code => match skip_single(b, i + 1, b.get(i.wrapping_sub(1)) == Some(&b'$')) {
                Some(end) => i = end,
                None => return Cow::Borrowed(src),
            },
            b'"' => stack.push(Frame::Dquote),
            b'<' if code && b.get(i + 1) == Some(&b'<') && b.get(i + 2) != Some(&b'<') => {
                return Cow::Borrowed(src);
            }
            b'(' if code && b.get(i + 1) == Some(&b'(') && word_start(b, i) => {
                stack.push(Frame::Arith(0));
                i += 1;
            }
            b'(' if code => stack.push(Frame::Paren),
            b')' if code => {
                stack.pop();
            }
            b'#' if code && word_start(b, i) => {
                let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
                if stack.contains(&Frame::Comsub) {
                    spans.push((i, end));
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if spans.is_empty() {
        return Cow::Borrowed(src);
    }
    let mut out = b.to_vec();
    for (s, e) in spans {
        out[s..e].fill(b' ');
    }
    // Whole characters were replaced by ASCII spaces.
    Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| src.to_string()))
}

/// Whether the `#` or `((` at `i` begins a word.
pub(super) fn word_start(b: &[u8], i: usize) -> bool {
    i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>')
}

/// Past the `'` closing a quote whose text starts at `from` (`$'...'` takes
/// backslash escapes); `None` when it never closes.
pub(super) fn skip_single(b: &[u8], from: usize, ansi: bool) -> Option<usize> {
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' if ansi => j += 2,
            b'\'' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::blank;

    #[test]
    fn comments_inside_substitutions_are_blanked_in_place() {
        let src = "x=$( # it's (here)\necho hi)\n# top's\n";
        let out = blank(src);
        let blanks = " ".repeat(" # it's (here)".len());
        assert_eq!(out, format!("x=$({blanks}\necho hi)\n# top's\n"));
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn what_is_not_a_comment_stays() {
        for src in [
            "echo $(echo a#b ${#x} $# '#' \"#\" $((16#ff)))",
            "echo \"$(echo \" # no\")\"",
            "x=$(cat <<E\n# it's\nE\n)",
            "x=`echo # it's`; y=$(a)",
            "x=$(echo ${x:- #a})",
            "x=$( (( 1 # 2 )) )",
            "a=$(b); echo it's 'here # no'",
        ] {
            assert_eq!(blank(src), src, "{src}");
        }
    }

    #[test]
    fn deep_nesting_keeps_no_frame_per_parenthesis() {
        // Built here: 200,000 nested `$(`, each a frame, with a comment inside.
        let n = 200_000;
        let src = format!("{}# it's\n{}", "$(".repeat(n), ")".repeat(n));
        assert_eq!(blank(&src), src);
    }

    #[test]
    fn multibyte_comments_stay_valid_text() {
        let out = blank("x=$( # é's\necho)");
        assert_eq!(out, format!("x=$({}\necho)", " ".repeat(" # \u{e9}'s".len())));
        assert!(blank("$(\u{e9}#").len() >= 3);
    }
}
