//! `case` inside `$( )`: brush-parser finds the end of a command substitution
//! by counting parentheses, so the `)` after a case pattern (`$(case $x in
//! a) ...;; esac)`) closes it early and the script fails to parse. bash reads
//! the case for what it is. Patterns inside a command substitution get the
//! optional opening parenthesis bash also accepts (`(a) ...;;`), which keeps
//! the count balanced and means the same.

use super::quoted_mask;
use std::borrow::Cow;

/// What a level of nesting is.
#[derive(Clone, Copy, PartialEq)]
enum Frame {
    /// `$(` (a process substitution's case fails to parse either way).
    Comsub,
    /// Any other `(`.
    Paren,
    /// A `case` before its `in`.
    CaseHead,
    /// A `case` where a pattern (or `esac`) comes next.
    CasePattern,
    /// Inside a pattern, with the extglob parentheses open in it.
    InPattern(usize),
    /// A case branch's commands.
    CaseBody,
}

fn is_meta(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>')
}

/// Whether a word after `before` is at the start of a command.
fn at_command(before: &str) -> bool {
    let before = before.trim_end_matches([' ', '\t']);
    before.is_empty()
        || before.ends_with([';', '&', '|', '(', '\n', '{'])
        || ["do", "then", "else", "elif", "!", "in"].iter().any(|k| {
            before.ends_with(k)
                && before[..before.len() - k.len()]
                    .chars()
                    .last()
                    .is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_')
        })
}

/// Insert `(` before every case pattern inside a command substitution.
pub fn rewrite(src: &str) -> Cow<'_, str> {
    if !src.contains("case") || !src.contains("$(") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mask = quoted_mask(src);
    let mut stack: Vec<Frame> = Vec::new();
    let mut inserts: Vec<usize> = Vec::new();
    // Where the commands after the last pattern's `)` begin.
    let mut body_start = usize::MAX;
    // `Comsub` frames on the stack (a count: looking through a deep stack at
    // every pattern would be quadratic).
    let mut comsubs = 0usize;
    let word_at = |i: usize, w: &str| {
        b[i..].starts_with(w.as_bytes())
            && (i == 0 || is_meta(b[i - 1]))
            && b.get(i + w.len()).is_none_or(|&c| is_meta(c))
            && (i..i + w.len()).all(|k| !mask[k])
    };
    let mut i = 0;
    while i < b.len() {
        // Nesting this deep fails to parse anyway (`max_parser_depth`):
        // leave the text as it is rather than keep a frame per parenthesis.
        if stack.len() > super::MAX_REWRITE_NESTING {
            return Cow::Borrowed(src);
        }
        let c = b[i];
        // Where a pattern (or `esac`) is due, anything but blanks and
        // comments starts it, a quoted character too (`"$x" | 'a')`).
        if stack.last() == Some(&Frame::CasePattern) && (mask[i] || !matches!(c, b' ' | b'\t' | b'\n' | b'#')) {
            stack.pop();
            if word_at(i, "esac") {
                i += 4;
                continue;
            }
            stack.push(Frame::InPattern(0));
            if c == b'(' && !mask[i] {
                i += 1;
                continue;
            }
            if comsubs > 0 {
                inserts.push(i);
            }
            continue;
        }
        if mask[i] {
            i += 1;
            continue;
        }
        let top = stack.last().copied();
        // A comment runs to the end of its line.
        if c == b'#' && (i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'\n' | b';')) {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        match top {
            Some(Frame::CasePattern) => {
                i += 1;
                continue;
            }
            Some(Frame::InPattern(depth)) => {
                match c {
                    b'(' => *stack.last_mut().expect("top") = Frame::InPattern(depth + 1),
                    b')' if depth > 0 => *stack.last_mut().expect("top") = Frame::InPattern(depth - 1),
                    b')' => {
                        *stack.last_mut().expect("top") = Frame::CaseBody;
                        body_start = i + 1;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            Some(Frame::CaseHead) if word_at(i, "in") => {
                *stack.last_mut().expect("top") = Frame::CasePattern;
                i += 2;
                continue;
            }
            Some(Frame::CaseBody) if c == b';' && b.get(i + 1) == Some(&b';') => {
                *stack.last_mut().expect("top") = Frame::CasePattern;
                i += if b.get(i + 2) == Some(&b'&') { 3 } else { 2 };
                continue;
            }
            Some(Frame::CaseBody) if c == b';' && b.get(i + 1) == Some(&b'&') => {
                *stack.last_mut().expect("top") = Frame::CasePattern;
                i += 2;
                continue;
            }
            Some(Frame::CaseBody) if word_at(i, "esac") => {
                stack.pop();
                i += 4;
                continue;
            }
            _ => {}
        }
        // (Only at an ASCII `case` is `i` sure to fall between characters.)
        if word_at(i, "case")
            && (at_command(&src[..i]) || body_start <= i && b[body_start..i].iter().all(u8::is_ascii_whitespace))
        {
            stack.push(Frame::CaseHead);
            i += 4;
            continue;
        }
        match c {
            b'(' if i > 0 && b[i - 1] == b'$' && b.get(i + 1) != Some(&b'(') => {
                stack.push(Frame::Comsub);
                comsubs += 1;
            }
            b'(' => stack.push(Frame::Paren),
            b')' => {
                // Close the innermost parenthesis (a case left open inside
                // it is a syntax error the parser will report).
                while let Some(f) = stack.pop() {
                    if f == Frame::Comsub {
                        comsubs -= 1;
                    }
                    if matches!(f, Frame::Comsub | Frame::Paren) {
                        break;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if inserts.is_empty() {
        return Cow::Borrowed(src);
    }
    let mut out = String::with_capacity(src.len() + inserts.len());
    let mut last = 0;
    for at in inserts {
        out.push_str(&src[last..at]);
        out.push('(');
        last = at;
    }
    out.push_str(&src[last..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn patterns_inside_a_command_substitution_get_their_parenthesis() {
        assert_eq!(rewrite("r=$(case a in *) echo x;; esac)"), "r=$(case a in (*) echo x;; esac)");
        assert_eq!(
            rewrite("r=$(\ncase $(echo) in\na|b) x;;\n(c) y;&\n@(d|e)) z;;&\nesac\n)"),
            "r=$(\ncase $(echo) in\n(a|b) x;;\n(c) y;&\n(@(d|e)) z;;&\nesac\n)"
        );
        assert_eq!(
            rewrite("r=$(case x in\n\\* | ?) a;&\n\"$b\" | 'q') b;;\n# note\n$x) c;;\nesac)"),
            "r=$(case x in\n(\\* | ?) a;&\n(\"$b\" | 'q') b;;\n# note\n($x) c;;\nesac)"
        );
        assert_eq!(
            rewrite("x=$(case a in a) case b in b) echo;; esac;; esac)"),
            "x=$(case a in (a) case b in (b) echo;; esac;; esac)"
        );
    }

    #[test]
    fn multibyte_text_is_walked_safely() {
        assert_eq!(rewrite("x=$(case é in é) echo ä;; esac) ä"), "x=$(case é in (é) echo ä;; esac) ä");
        for s in ["case '' in\n$b) printf '<%s>' ä \"$(printf '%s,' \"${a:1}\")\"; echo ;&\nesac", "ä $(é) case"] {
            assert_eq!(rewrite(s), s, "{s}");
        }
    }

    #[test]
    fn deep_nesting_keeps_no_frame_per_parenthesis() {
        // Built here: 200,000 nested `$(` before a case.
        let n = 200_000;
        let src = format!("{}case x in a) :;; esac{}", "$(".repeat(n), ")".repeat(n));
        assert_eq!(rewrite(&src), src);
    }

    #[test]
    fn any_text_is_walked_without_panicking() {
        // Random texts over the characters the scanner cares about.
        let parts = [
            "case", " in ", "esac", "$(", "(", ")", ";;", ";&", ";;&", "'", "\"", "\\", "ä", "é", "#", "\n", " ", "|",
            "x",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..(seed % 24) {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                s.push_str(parts[(seed >> 33) as usize % parts.len()]);
            }
            let out = rewrite(&s);
            // Only `(` is ever added.
            assert_eq!(out.replace('(', ""), s.replace('(', ""), "{s:?}");
        }
    }

    #[test]
    fn other_text_is_left_alone() {
        for s in [
            "case a in a) echo;; esac",
            "echo $(echo case in a)",
            "echo 'case a in a) ;; esac' $(echo)",
            "f() { case $1 in a) echo $(date);; esac; }",
            "# $(case a in\necho x",
        ] {
            assert_eq!(rewrite(s), s, "{s}");
        }
    }
}
