//! brush-parser's word reader ends a `$( )` at the first `)` its counting of
//! parentheses leaves unmatched: a `case` pattern (`b)`), or a `)` in a
//! here-document body or a comment, ends it early, where bash reads the body
//! as commands. Such a word is read again with the parentheses of each
//! substitution stood in for, up to the first `)` after which the body is a
//! complete command; the substitution's text gets them back before it runs.

use std::borrow::Cow;

const OPEN: char = '\u{FDD4}';
const CLOSE: char = '\u{FDD5}';

/// Bytes parsed for one word at most: each candidate end costs a parse of
/// the body up to it (a word past this is read as the word reader read it).
const MAX_PARSED_BYTES: usize = 2 << 20;

/// Whether `raw` may hold a substitution the word reader ends too early.
pub fn suspect(raw: &str) -> bool {
    raw.contains("$(") && (raw.contains("case") || raw.contains("<<") || raw.contains('#'))
}

/// `raw` with the parentheses inside each `$( )` stood in for, its end found
/// by `complete` (the body is a whole command); `None` when nothing changed.
pub fn hide(raw: &str, complete: &dyn Fn(&str) -> bool) -> Option<String> {
    if raw.contains([OPEN, CLOSE]) {
        return None;
    }
    // A `)` in a here-document body is never the end: not tried.
    let bodies = super::heredoc_quotes::body_ranges(raw);
    let in_body = |j: usize| {
        let k = bodies.partition_point(|&(_, end)| end <= j);
        bodies.get(k).is_some_and(|&(start, _)| start <= j)
    };
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let (mut i, mut last) = (0, 0);
    let (mut single, mut double) = (false, false);
    let mut parsed = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if !single => i += 1,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'$' if !single && b.get(i + 1) == Some(&b'(') && b.get(i + 2) != Some(&b'(') => {
                let start = i + 2;
                let mut end = None;
                for j in (start..b.len()).filter(|&j| b[j] == b')' && !in_body(j)) {
                    parsed += j - start + 1;
                    if parsed > MAX_PARSED_BYTES {
                        return None;
                    }
                    if complete(&raw[start..j]) {
                        end = Some(j);
                        break;
                    }
                }
                let j = end?;
                out.push_str(&raw[last..start]);
                out.extend(raw[start..j].chars().map(|c| match c {
                    '(' => OPEN,
                    ')' => CLOSE,
                    c => c,
                }));
                last = j;
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if last == 0 {
        return None;
    }
    out.push_str(&raw[last..]);
    Some(out)
}

/// The text of a command substitution with its parentheses put back.
pub fn restore(s: &str) -> Cow<'_, str> {
    if s.contains([OPEN, CLOSE]) {
        Cow::Owned(
            s.chars()
                .map(|c| {
                    if c == OPEN {
                        '('
                    } else if c == CLOSE {
                        ')'
                    } else {
                        c
                    }
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balanced_case(s: &str) -> bool {
        // A stand-in for the parser: a `case` body is whole once `esac` ends it.
        !s.contains("case") || s.trim_end().ends_with("esac")
    }

    #[test]
    fn a_case_pattern_does_not_end_the_substitution() {
        let raw = "\"$(case b in b) echo B;; esac)\" x";
        let hidden = hide(raw, &balanced_case).expect("found its end");
        assert_eq!(hidden, "\"$(case b in b\u{FDD5} echo B;; esac)\" x");
        assert_eq!(restore(&hidden[3..hidden.len() - 4]), "case b in b) echo B;; esac");
    }

    #[test]
    fn single_quotes_hide_and_an_endless_body_gives_up() {
        assert_eq!(hide("'$(case b in b)'", &balanced_case), None);
        assert_eq!(hide("$(case b in b) x", &balanced_case), None);
    }
}
