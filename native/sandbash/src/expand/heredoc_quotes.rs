//! A here-document inside `$( )` may hold a lone `"` (`$(cat <<EOF` then a
//! line `a"b`): bash reads the body as text, but brush-parser's word reader
//! reads the substitution as words and finds a quote that never closes. Such
//! a word is read again with the body's `"` stood in for by a noncharacter,
//! and the substitution's text gets them back before it is parsed and run.

use std::borrow::Cow;

/// Stands for a `"` of a here-document body.
const STAND_IN: char = '\u{FDD3}';

/// `raw` with every `"` of the here-document bodies in it stood in for;
/// `None` when there is none (or the text already holds the stand-in).
pub fn hide(raw: &str) -> Option<String> {
    if raw.contains(STAND_IN) {
        return None;
    }
    let mut out = String::with_capacity(raw.len());
    // Delimiters of the here-documents opened on the current line, then
    // those whose bodies are being read (`true`: `<<-`, tabs stripped).
    let mut opened: Vec<(String, bool)> = Vec::new();
    let mut bodies: std::collections::VecDeque<(String, bool)> = Default::default();
    let mut changed = false;
    for line in raw.split_inclusive('\n') {
        if let Some((delim, tabs)) = bodies.front() {
            let text = line.strip_suffix('\n').unwrap_or(line);
            let text = if *tabs { text.trim_start_matches('\t') } else { text };
            if text == delim {
                bodies.pop_front();
                out.push_str(line);
            } else {
                changed |= line.contains('"');
                out.extend(line.chars().map(|c| if c == '"' { STAND_IN } else { c }));
            }
            continue;
        }
        opened.extend(operators(line));
        out.push_str(line);
        if line.ends_with('\n') {
            bodies.extend(opened.drain(..));
        }
    }
    changed.then_some(out)
}

/// Whether every here-document `text` opens ends in it (its delimiter line
/// is there).
pub fn closed(text: &str) -> bool {
    !text.contains("<<") || scan(text).1
}

/// The byte ranges of the here-document bodies (delimiter lines included)
/// in `text`, in one pass over its lines.
pub fn body_ranges(text: &str) -> Vec<(usize, usize)> {
    if !text.contains("<<") {
        return Vec::new();
    }
    scan(text).0
}

/// Body ranges, and whether every here-document opened was closed.
fn scan(text: &str) -> (Vec<(usize, usize)>, bool) {
    let mut opened: Vec<(String, bool)> = Vec::new();
    let mut bodies: std::collections::VecDeque<(String, bool)> = Default::default();
    let mut ranges = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if let Some((delim, tabs)) = bodies.front() {
            ranges.push((start, at));
            let l = line.strip_suffix('\n').unwrap_or(line);
            let l = if *tabs { l.trim_start_matches('\t') } else { l };
            if l == delim {
                bodies.pop_front();
            }
            continue;
        }
        opened.extend(operators(line));
        if line.ends_with('\n') {
            bodies.extend(opened.drain(..));
        }
    }
    (ranges, opened.is_empty() && bodies.is_empty())
}

/// The text of a command substitution with its stand-ins put back.
pub fn restore(s: &str) -> Cow<'_, str> {
    if s.contains(STAND_IN) {
        Cow::Owned(s.replace(STAND_IN, "\""))
    } else {
        Cow::Borrowed(s)
    }
}

/// The here-documents a line opens: each `<<` (not `<<<`) and its delimiter
/// without quotes.
fn operators(line: &str) -> Vec<(String, bool)> {
    let b = line.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] != b'<' || b[i + 1] != b'<' {
            i += 1;
            continue;
        }
        if b.get(i + 2) == Some(&b'<') {
            i += 3;
            continue;
        }
        match crate::syntax::comsub_arith::heredoc_word(line, i + 2) {
            Some((delim, tabs, end)) => {
                found.push((delim, tabs));
                i = end.max(i + 2);
            }
            None => i += 2,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_quotes_are_stood_in_for_and_put_back() {
        let raw = "$(cat <<\"EOF\"\na\"b\nEOF\necho \"x\")";
        let hidden = hide(raw).expect("a quote in a body");
        assert_eq!(hidden, "$(cat <<\"EOF\"\na\u{FDD3}b\nEOF\necho \"x\")");
        assert_eq!(restore(&hidden), raw);
    }

    #[test]
    fn tabs_and_several_documents() {
        let raw = "$(cat <<-A <<B\n\t\"\n\tA\n\"\nB\n)";
        assert_eq!(hide(raw).as_deref(), Some("$(cat <<-A <<B\n\t\u{FDD3}\n\tA\n\u{FDD3}\nB\n)"));
        assert_eq!(hide("$(cat <<< \"x\")"), None);
    }
}
