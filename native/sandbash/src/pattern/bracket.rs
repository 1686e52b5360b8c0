//! Bracket expressions of shell patterns (`[abc]`, `[!a-z]`, `[[:alpha:]]`,
//! `[[=a=]]`, `[[.period.]]`), read as bash's `BRACKMATCH` reads them and
//! written as one regex class.

/// Characters a bracket expression may span. Each `[` of a pattern looks for
/// its `]`: without a bound, a value of many `[` and no `]` costs the square of
/// its length (50 KB took 3 s). Longer ones are a literal `[`, as a `[` that
/// is never closed is.
const MAX_BRACKET: usize = 256;

thread_local! {
    /// The last [`next_close`] answer: the pattern (its address and length),
    /// where the search started, and the `]` it found.
    static NEXT_CLOSE: std::cell::Cell<(usize, usize, usize, Option<usize>)> = const { std::cell::Cell::new((0, 0, 0, None)) };
}

/// Start a scan of another pattern: the remembered answer is for nobody
/// (called where each scan of a pattern begins, so an answer about one
/// pattern never serves another that came to lie at the same address).
pub(super) fn forget_closes() {
    NEXT_CLOSE.with(|cell| cell.set((0, 0, 0, None)));
}

/// The first unquoted `]` of `c` at or after `from`. The callers ask about
/// each `[` of a pattern from left to right, so the answer of the last
/// question usually serves (a million `[` without a `]` are one scan, not a
/// scan each).
fn next_close(c: &[(char, bool)], from: usize) -> Option<usize> {
    let key = (c.as_ptr() as usize, c.len());
    let (p, n, lo, hit) = NEXT_CLOSE.with(std::cell::Cell::get);
    if (p, n) == key && from >= lo && hit.is_none_or(|h| from <= h) {
        return hit;
    }
    let found = c.get(from..).and_then(|rest| rest.iter().position(|&(ch, q)| ch == ']' && !q)).map(|k| from + k);
    NEXT_CLOSE.with(|cell| cell.set((key.0, key.1, from, found)));
    found
}

/// Translate a bracket expression starting at `c[start] == '['`.
/// One item of a bracket expression.
enum Item {
    Char(char),
    Range(char, char),
    Class(&'static str),
}

/// The character a collating symbol (`[.x.]`) names: a single character,
/// or one of POSIX's names for the portable characters (bash's table);
/// letters and digits name themselves. `None` for any other name: it
/// matches nothing.
fn collating_symbol(name: &[char]) -> Option<char> {
    if let [ch] = name {
        return Some(*ch);
    }
    let name: String = name.iter().collect();
    Some(match name.as_str() {
        "NUL" => '\0',
        "SOH" => '\u{1}',
        "STX" => '\u{2}',
        "ETX" => '\u{3}',
        "EOT" => '\u{4}',
        "ENQ" => '\u{5}',
        "ACK" => '\u{6}',
        "alert" => '\u{7}',
        "backspace" => '\u{8}',
        "tab" => '\t',
        "newline" => '\n',
        "vertical-tab" => '\u{b}',
        "form-feed" => '\u{c}',
        "carriage-return" => '\r',
        "SO" => '\u{e}',
        "SI" => '\u{f}',
        "DLE" => '\u{10}',
        "DC1" => '\u{11}',
        "DC2" => '\u{12}',
        "DC3" => '\u{13}',
        "DC4" => '\u{14}',
        "NAK" => '\u{15}',
        "SYN" => '\u{16}',
        "ETB" => '\u{17}',
        "CAN" => '\u{18}',
        "EM" => '\u{19}',
        "SUB" => '\u{1a}',
        "ESC" => '\u{1b}',
        "IS4" => '\u{1c}',
        "IS3" => '\u{1d}',
        "IS2" => '\u{1e}',
        "IS1" => '\u{1f}',
        "space" => ' ',
        "exclamation-mark" => '!',
        "quotation-mark" => '"',
        "number-sign" => '#',
        "dollar-sign" => '$',
        "percent-sign" => '%',
        "ampersand" => '&',
        "apostrophe" => '\'',
        "left-parenthesis" => '(',
        "right-parenthesis" => ')',
        "asterisk" => '*',
        "plus-sign" => '+',
        "comma" => ',',
        "hyphen" | "minus" | "dash" => '-',
        "period" => '.',
        "slash" | "solidus" => '/',
        "zero" => '0',
        "one" => '1',
        "two" => '2',
        "three" => '3',
        "four" => '4',
        "five" => '5',
        "six" => '6',
        "seven" => '7',
        "eight" => '8',
        "nine" => '9',
        "colon" => ':',
        "semicolon" => ';',
        "less-than-sign" => '<',
        "equals-sign" => '=',
        "greater-than-sign" => '>',
        "question-mark" => '?',
        "commercial-at" => '@',
        "left-square-bracket" => '[',
        "backslash" | "reverse-solidus" => '\\',
        "right-square-bracket" => ']',
        "circumflex" | "circumflex-accent" => '^',
        "underscore" => '_',
        "grave-accent" => '`',
        "left-brace" | "left-curly-bracket" => '{',
        "vertical-line" => '|',
        "right-brace" | "right-curly-bracket" => '}',
        "tilde" => '~',
        "DEL" => '\u{7f}',
        _ => return None,
    })
}

/// Where the name of `[.name.]`, `[:name:]` (`mark` is `.` or `:`) starting
/// at `c[at] == '['` ends: the index of its closing `mark`.
fn delimited(c: &[(char, bool)], at: usize, mark: char) -> Option<usize> {
    (at + 2..c.len().saturating_sub(1)).find(|&k| c[k].0 == mark && c[k + 1].0 == ']')
}

/// A range's end point at `c[*i]`: a character, an escaped one, or a
/// collating symbol (`Some(None)` when the symbol names nothing). `None` when
/// the expression ends unclosed.
fn end_point(c: &[(char, bool)], i: &mut usize) -> Option<Option<char>> {
    let &(ch, q) = c.get(*i)?;
    if !q && ch == '[' && c.get(*i + 1).is_some_and(|x| x.0 == '.') {
        let close = delimited(c, *i, '.')?;
        let name: Vec<char> = c[*i + 2..close].iter().map(|x| x.0).collect();
        *i = close + 2;
        return Some(collating_symbol(&name));
    }
    if !q && ch == '\\' {
        let &(next, _) = c.get(*i + 1)?;
        *i += 2;
        return Some(Some(next));
    }
    *i += 1;
    Some(Some(ch))
}

/// Read the bracket expression starting at `c[start] == '['` into its items
/// (`None` when it is not closed, so the `[` is literal). An item that can
/// match nothing (an unknown class or collating symbol, a range whose end
/// comes before its start) is left out, as bash's matcher never matches it.
fn items(c: &[(char, bool)], start: usize) -> Option<(bool, Vec<Item>, usize)> {
    let mut i = start + 1;
    let negated = matches!(c.get(i), Some(&('!', false)) | Some(&('^', false)));
    if negated {
        i += 1;
    }
    let first = i;
    let mut items = Vec::new();
    let mut after_equivalence = false;
    loop {
        let &(ch, q) = c.get(i)?;
        if ch == ']' && !q && i > first {
            // bash reads the `]` right after a `[=c=]` that did not match as
            // one more character, and the expression then runs out without
            // closing: a negated one matches nothing (`[![=a=]]`).
            if negated && after_equivalence && !c[i + 1..].contains(&(']', false)) {
                items.clear();
                return Some((false, items, i + 1));
            }
            return Some((negated, items, i + 1));
        }
        after_equivalence = false;
        let opens = |mark: char| !q && ch == '[' && c.get(i + 1).is_some_and(|x| x.0 == mark);
        // [=c=]: one character, which is its own class here (bash compares
        // the characters); it cannot start a range.
        if opens('=') && c.get(i + 3).is_some_and(|x| x.0 == '=') && c.get(i + 4).is_some_and(|x| x.0 == ']') {
            items.push(Item::Char(c[i + 2].0));
            i += 5;
            after_equivalence = true;
            continue;
        }
        // [:name:]: a class, nothing when the name is unknown; no range.
        // Without its `:]` the `[` is dropped and the `:` read on.
        if opens(':') {
            match delimited(c, i, ':') {
                Some(close) => {
                    let name: String = c[i + 2..close].iter().map(|x| x.0).collect();
                    items.extend(char_class(&name).map(Item::Class));
                    i = close + 2;
                }
                None => i += 1,
            }
            continue;
        }
        let low = end_point(c, &mut i)?;
        // `-` makes a range unless it ends the expression; a quoted one is
        // a character.
        let dash = c.get(i) == Some(&('-', false)) && c.get(i + 1).is_some_and(|&(n, nq)| n != ']' || nq);
        if !dash {
            items.extend(low.map(Item::Char));
            continue;
        }
        i += 1;
        let high = end_point(c, &mut i)?;
        if let (Some(low), Some(high)) = (low, high) {
            if low <= high {
                items.push(Item::Range(low, high));
            }
        }
    }
}

/// Translate a bracket expression starting at `c[start] == '['` into a regex
/// class; `None` when it is not closed (the `[` is then literal).
pub(super) fn bracket(c: &[(char, bool)], start: usize) -> Option<(String, usize)> {
    // Most `[` of a long run without `]` end here, before any text is built.
    if next_close(c, start + 2).is_none_or(|at| at >= start.saturating_add(MAX_BRACKET)) {
        return None;
    }
    let c = &c[..c.len().min(start.saturating_add(MAX_BRACKET))];
    let (negated, items, end) = items(c, start)?;
    if items.is_empty() {
        // Nothing can match: no character, or any character when negated.
        let any = r"[\x{0}-\x{10FFFF}]";
        return Some((if negated { any.to_string() } else { format!("[^{}]", &any[1..any.len() - 1]) }, end));
    }
    let mut out = String::from(if negated { "[^" } else { "[" });
    for item in items {
        match item {
            Item::Char(ch) => push_class_lit(&mut out, ch),
            Item::Range(low, high) => {
                push_class_lit(&mut out, low);
                out.push('-');
                push_class_lit(&mut out, high);
            }
            Item::Class(class) => out.push_str(class),
        }
    }
    out.push(']');
    Some((out, end))
}

/// A character class as bash matches it in a UTF-8 locale (glibc's
/// `iswalpha` and kin: letters of every script are `alpha`, while `digit`
/// and `xdigit` stay ASCII), as an item of a regex class.
pub(crate) fn char_class(name: &str) -> Option<&'static str> {
    Some(match name {
        // glibc counts the digits of other scripts as letters.
        "alpha" => r"[\p{Alphabetic}\p{Nd}--0-9]",
        "upper" => r"\p{Uppercase}",
        "lower" => r"\p{Lowercase}",
        "alnum" => r"\p{Alphabetic}\p{Nd}",
        "word" => r"\p{Alphabetic}\p{Nd}_",
        "punct" => r"\p{P}\p{S}",
        "print" => r"[^\p{Cc}]",
        "graph" => r"[^\p{Cc}\p{Z}\s]",
        "cntrl" => r"\p{Cc}",
        "digit" => "[:digit:]",
        "space" => "[:space:]",
        "blank" => "[:blank:]",
        "xdigit" => "[:xdigit:]",
        _ => return None,
    })
}

fn push_class_lit(out: &mut String, ch: char) {
    if matches!(ch, '[' | ']' | '\\' | '^' | '-' | '&' | '~') {
        out.push('\\');
    }
    out.push(ch);
}
