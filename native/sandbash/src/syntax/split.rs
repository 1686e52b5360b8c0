//! Where a long text can be cut into runs of whole commands, and how many
//! tokens it holds (what its parse will cost, see [`super::cost`]).
//!
//! bash reads a script one complete command at a time and runs it before it
//! reads the next, so its parse memory follows the largest command, not the
//! whole text. brush-parser reads a whole text at once (and holds several
//! hundred bytes per token), so a long text is handed to it in runs of whole
//! commands (`interp::reader`): this scanner finds the places where a command
//! ends at the top level (a newline, or a lone `;`/`&`, outside quotes,
//! brackets, compound commands and here-document bodies).
//!
//! The scanner only proposes: a cut it gets wrong leaves a run that does not
//! parse on its own (a prefix of a text that is open at its end never parses
//! as complete), and the reader then takes a longer run. So it may be wrong,
//! and it is cheap: one pass, no allocation but its stack of open brackets
//! (bounded by [`MAX_OPEN`]: past it, no cut is proposed).

/// What is open at the scanner's position.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Open {
    /// `(`, `$(`, `<(`, an array's `=(`: commands inside.
    Paren,
    /// `${`.
    Brace,
    /// `$((` or `((`: arithmetic, where `<<` is a shift.
    Arith,
    /// A `(` inside arithmetic.
    ArithParen,
    Backquote,
    Double,
    /// A compound command, closed by the word given.
    Keyword(&'static str),
}

/// Nesting past which the scanner stops proposing cuts (the parser refuses
/// such text anyway: `max_parser_depth`).
const MAX_OPEN: usize = 4096;

/// The scan of a text: cut candidates and tokens.
pub struct Scan {
    /// End (exclusive) of the first run of whole commands at least `min`
    /// bytes long, or the text's length.
    pub cut: usize,
    /// Tokens (words and operators) outside quotes and here-document bodies
    /// up to `cut`: what the parse of that run costs.
    pub tokens: usize,
    /// The line where more than [`MAX_HEREDOCS`] here-documents were open
    /// at once (bash refuses such a command), if any.
    pub too_many_heredocs: Option<usize>,
}

/// Here-documents bash reads for one command (its HEREDOC_MAX).
pub const MAX_HEREDOCS: usize = 16;

/// Count the tokens of the whole text (for the cost of parsing it at once).
pub fn tokens(text: &str) -> usize {
    scan(text, usize::MAX).tokens
}

/// bash's error for a command with more than [`MAX_HEREDOCS`] here-documents.
pub fn heredoc_count_error(text: &str) -> Option<String> {
    let line = scan(text, usize::MAX).too_many_heredocs?;
    Some(format!("line {line}: maximum here-document count exceeded"))
}

/// The first cut at or after `min` bytes (see [`Scan`]). A newline ends a
/// run; a line longer than `min` is cut at a lone `;` or `&` too.
pub fn scan(text: &str, min: usize) -> Scan {
    let b = text.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    let mut pending: Vec<(Vec<u8>, bool)> = Vec::new();
    let mut tokens = 0usize;
    // At the start of a word (after a blank, an operator, a newline).
    let mut word_start = true;
    // Where a command starts (reserved words count only there).
    let mut command_pos = true;
    // A line that goes on (after `|`, `&&`, `||`, `f()`).
    let mut goes_on = false;
    // The first lone `;`/`&` cut after `min` on a long line.
    let mut semi_cut: Option<(usize, usize)> = None;
    let mut too_many_heredocs = None;
    let mut line = 1usize;
    let mut i = 0;
    let top = |stack: &Vec<Open>| stack.last().copied();
    while i < b.len() {
        if let Some((at, t)) = semi_cut.filter(|&(at, _)| i >= at.saturating_add(min)) {
            // The line runs on as long again: cut it at its first chance.
            return Scan { cut: at, tokens: t, too_many_heredocs: None };
        }
        if stack.len() > MAX_OPEN {
            return Scan { cut: b.len(), tokens: tokens.saturating_add(b.len() - i), too_many_heredocs };
        }
        let c = b[i];
        match top(&stack) {
            Some(Open::Double) => {
                match c {
                    b'\\' => i += 1,
                    b'"' => {
                        stack.pop();
                    }
                    b'`' => stack.push(Open::Backquote),
                    b'$' => i = dollar(b, i, &mut stack, &mut tokens),
                    _ => {}
                }
                i += 1;
                continue;
            }
            Some(Open::Backquote) => {
                match c {
                    b'\\' => i += 1,
                    b'`' => {
                        stack.pop();
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            Some(Open::Brace) => {
                match c {
                    b'\\' => i += 1,
                    b'}' => {
                        stack.pop();
                    }
                    b'\'' => i = skip_single(b, i),
                    b'"' => stack.push(Open::Double),
                    b'`' => stack.push(Open::Backquote),
                    b'$' => i = dollar(b, i, &mut stack, &mut tokens),
                    _ => {}
                }
                i += 1;
                continue;
            }
            Some(Open::Arith | Open::ArithParen) => {
                match c {
                    b'(' => stack.push(Open::ArithParen),
                    b')' if top(&stack) == Some(Open::ArithParen) => {
                        stack.pop();
                    }
                    b')' if b.get(i + 1) == Some(&b')') => {
                        stack.pop();
                        i += 1;
                    }
                    b'\\' => i += 1,
                    b'\'' => i = skip_single(b, i),
                    b'"' => stack.push(Open::Double),
                    b'`' => stack.push(Open::Backquote),
                    b'$' => i = dollar(b, i, &mut stack, &mut tokens),
                    _ => {}
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        // A context of commands: the top level, `( )`, a compound command.
        match c {
            b' ' | b'\t' => {
                word_start = true;
                i += 1;
            }
            b'\n' => {
                tokens += 1;
                i += 1;
                if pending.len() > MAX_HEREDOCS && too_many_heredocs.is_none() {
                    too_many_heredocs = Some(line);
                }
                line += 1;
                if !pending.is_empty() {
                    let from = i;
                    i = skip_bodies(b, i, &mut pending);
                    line += b[from..i].iter().filter(|&&c| c == b'\n').count();
                }
                word_start = true;
                command_pos = true;
                if stack.is_empty() && !goes_on && pending.is_empty() && i >= min {
                    return Scan { cut: i, tokens, too_many_heredocs };
                }
                if let Some((at, t)) = semi_cut {
                    // The line was long: cut it where it first could be.
                    return Scan { cut: at, tokens: t, too_many_heredocs: None };
                }
            }
            b'#' if word_start => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' => {
                tokens += 1;
                word_start = true;
                let next = b.get(i + 1).copied();
                match c {
                    b'(' => {
                        if next == Some(b'(') && command_pos {
                            stack.push(Open::Arith);
                            i += 2;
                            continue;
                        }
                        // `f()` goes on to its body, maybe on the next line.
                        let mut j = i + 1;
                        while j < b.len() && matches!(b[j], b' ' | b'\t') {
                            j += 1;
                        }
                        if b.get(j) == Some(&b')') {
                            goes_on = true;
                            i = j + 1;
                            continue;
                        }
                        stack.push(Open::Paren);
                        command_pos = true;
                        goes_on = false;
                        i += 1;
                    }
                    b')' => {
                        if top(&stack) == Some(Open::Paren) {
                            stack.pop();
                        }
                        // In `case`, `)` ends a pattern: commands follow.
                        command_pos = top(&stack) == Some(Open::Keyword("esac"));
                        goes_on = false;
                        i += 1;
                    }
                    b'<' if next == Some(b'<') && b.get(i + 2) != Some(&b'<') => {
                        tokens += 1;
                        i = heredoc_word(b, i + 2, &mut pending);
                        command_pos = false;
                    }
                    b'<' | b'>' => {
                        // `<(`/`>(`: commands inside.
                        if next == Some(b'(') {
                            stack.push(Open::Paren);
                            command_pos = true;
                            i += 2;
                        } else {
                            // The rest of the operator: `>>`, `>&`, `>|`, `<>`, `<<<`.
                            i += 1;
                            while i < b.len() && matches!(b[i], b'<' | b'>' | b'&' | b'|') {
                                i += 1;
                            }
                        }
                        goes_on = false;
                    }
                    _ => {
                        // `;`, `&`, `|`, and their doubles.
                        let double = next == Some(c) || (c == b'|' && next == Some(b'&'));
                        let pair = double || (c == b';' && next == Some(b'&')) || (c == b'&' && next == Some(b'>'));
                        let lone = !pair;
                        goes_on = matches!(c, b'|') || (c == b'&' && next == Some(b'&'));
                        i += if double || !lone { 2 } else { 1 };
                        // After `;;` (and `;&`, `;;&`) a `case` pattern follows.
                        command_pos = !(c == b';' && matches!(next, Some(b';' | b'&')));
                        if lone && c != b'|' && stack.is_empty() && pending.is_empty() && semi_cut.is_none() && i >= min
                        {
                            semi_cut = Some((i, tokens));
                        }
                    }
                }
            }
            _ => {
                // A word: reserved words where a command starts.
                if word_start {
                    tokens += 1;
                    let end = word_end(b, i);
                    let w = std::str::from_utf8(&b[i..end]).unwrap_or("");
                    word_start = false;
                    goes_on = false;
                    if command_pos {
                        if let Some(closer) = opener(w) {
                            stack.push(Open::Keyword(closer));
                            command_pos = closer != "done" || w == "while" || w == "until";
                            if w == "case" {
                                command_pos = false;
                            }
                            i = end;
                            continue;
                        }
                        if top(&stack) == Some(Open::Keyword(closer_of(w))) && is_closer(w) {
                            stack.pop();
                            command_pos = false;
                            i = end;
                            continue;
                        }
                        command_pos = matches!(w, "then" | "do" | "else" | "elif" | "!" | "time" | "in");
                        if w.contains('=') && !w.starts_with('=') {
                            // An assignment: a command may follow it.
                            command_pos = true;
                        }
                    } else if w == "do" || w == "in" {
                        // `for x in a b; do`, `case x in`.
                        command_pos = w == "do";
                    } else if is_closer(w) && w == "esac" && top(&stack) == Some(Open::Keyword("esac")) {
                        stack.pop();
                    }
                }
                match c {
                    b'\\' => i += 2,
                    b'\'' => i = skip_single(b, i) + 1,
                    b'"' => {
                        stack.push(Open::Double);
                        i += 1;
                    }
                    b'`' => {
                        stack.push(Open::Backquote);
                        i += 1;
                    }
                    b'$' => i = dollar(b, i, &mut stack, &mut tokens) + 1,
                    _ => i += 1,
                }
            }
        }
    }
    if pending.len() > MAX_HEREDOCS && too_many_heredocs.is_none() {
        too_many_heredocs = Some(line);
    }
    Scan { cut: b.len(), tokens, too_many_heredocs }
}

/// Reserved words that open a compound command, and the word that closes it.
fn opener(w: &str) -> Option<&'static str> {
    Some(match w {
        "if" => "fi",
        "case" => "esac",
        "for" | "while" | "until" | "select" => "done",
        "{" => "}",
        "[[" => "]]",
        _ => return None,
    })
}

fn is_closer(w: &str) -> bool {
    matches!(w, "fi" | "esac" | "done" | "}" | "]]")
}

fn closer_of(w: &str) -> &'static str {
    match w {
        "fi" => "fi",
        "esac" => "esac",
        "done" => "done",
        "}" => "}",
        "]]" => "]]",
        _ => "",
    }
}

/// Where the word starting at `i` ends, for telling reserved words (a
/// blank or an operator ends it). A word with quotes or expansions is no
/// reserved word: it ends at once (its first byte), so nothing matches.
fn word_end(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < b.len() && !matches!(b[j], b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>') {
        if matches!(b[j], b'\'' | b'"' | b'\\' | b'$' | b'`') {
            return i;
        }
        j += 1;
    }
    j
}

/// Past a single-quoted string starting at `i`: the index of its closing quote.
fn skip_single(b: &[u8], i: usize) -> usize {
    match memchr::memchr(b'\'', &b[i + 1..]) {
        Some(k) => i + 1 + k,
        None => b.len(),
    }
}

/// A `$` at `i`: what it opens. Returns the index of its last byte read.
fn dollar(b: &[u8], i: usize, stack: &mut Vec<Open>, tokens: &mut usize) -> usize {
    match (b.get(i + 1), b.get(i + 2)) {
        (Some(b'('), Some(b'(')) => {
            stack.push(Open::Arith);
            i + 2
        }
        (Some(b'('), _) => {
            *tokens += 1;
            stack.push(Open::Paren);
            i + 1
        }
        (Some(b'{'), _) => {
            stack.push(Open::Brace);
            i + 1
        }
        (Some(b'\''), _) => {
            // `$'...'`: backslashes escape, a quote ends it.
            let mut j = i + 2;
            while j < b.len() && b[j] != b'\'' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            j.min(b.len())
        }
        _ => i,
    }
}

/// After `<<` at `i`: the delimiter word (quotes taken off), pending until
/// the end of the line. Returns where the word ends.
fn heredoc_word(b: &[u8], mut i: usize, pending: &mut Vec<(Vec<u8>, bool)>) -> usize {
    let strip = b.get(i) == Some(&b'-');
    if strip {
        i += 1;
    }
    while i < b.len() && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    let mut word = Vec::new();
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None => match c {
                b'\'' | b'"' => quote = Some(c),
                b'\\' => {
                    if let Some(&n) = b.get(i + 1) {
                        word.push(n);
                    }
                    i += 1;
                }
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' => break,
                _ => word.push(c),
            },
        }
        i += 1;
    }
    if !word.is_empty() && pending.len() <= MAX_HEREDOCS {
        pending.push((word, strip));
    }
    i
}

/// Past the bodies of the pending here-documents, from the start of the
/// line at `i`; what is left pending was never closed.
fn skip_bodies(b: &[u8], mut i: usize, pending: &mut Vec<(Vec<u8>, bool)>) -> usize {
    while !pending.is_empty() && i < b.len() {
        let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
        let mut line = &b[i..end];
        let (word, strip) = &pending[0];
        if *strip {
            while line.first() == Some(&b'\t') {
                line = &line[1..];
            }
        }
        if line == word.as_slice() {
            pending.remove(0);
        }
        i = (end + 1).min(b.len());
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let s = scan(rest, 1);
            out.push(&rest[..s.cut]);
            rest = &rest[s.cut..];
        }
        out
    }

    #[test]
    fn lines_are_cut_where_commands_end() {
        assert_eq!(cuts("a\nb c\n"), ["a\n", "b c\n"]);
        assert_eq!(cuts("if a\nthen b\nfi\nc\n"), ["if a\nthen b\nfi\n", "c\n"]);
        assert_eq!(cuts("for i in a\ndo b\ndone\nc"), ["for i in a\ndo b\ndone\n", "c"]);
        assert_eq!(cuts("echo 'a\nb'\nc\n"), ["echo 'a\nb'\n", "c\n"]);
        assert_eq!(cuts("echo \"$(a\nb)\"\nc\n"), ["echo \"$(a\nb)\"\n", "c\n"]);
        assert_eq!(cuts("a |\nb\nc\n"), ["a |\nb\n", "c\n"]);
        assert_eq!(cuts("a \\\nb\nc\n"), ["a \\\nb\n", "c\n"]);
        assert_eq!(cuts("f()\n{ a\n}\nc\n"), ["f()\n{ a\n}\n", "c\n"]);
        assert_eq!(cuts("case x in\na) b;;\nesac\nc\n"), ["case x in\na) b;;\nesac\n", "c\n"]);
        assert_eq!(cuts("# it's\na\n"), ["# it's\n", "a\n"]);
        assert_eq!(cuts("x=$((1<<2))\na\n"), ["x=$((1<<2))\n", "a\n"]);
    }

    #[test]
    fn here_document_bodies_stay_with_their_command() {
        assert_eq!(cuts("cat <<E\nx; y\nE\nb\n"), ["cat <<E\nx; y\nE\n", "b\n"]);
        assert_eq!(cuts("cat <<-'E' <<F\n\tx\n\tE\ny\nF\nb\n"), ["cat <<-'E' <<F\n\tx\n\tE\ny\nF\n", "b\n"]);
        // Never closed: the rest is its body.
        assert_eq!(cuts("cat <<E\nx\ny\n"), ["cat <<E\nx\ny\n"]);
    }

    #[test]
    fn a_long_line_is_cut_at_a_lone_separator() {
        assert_eq!(cuts("a; b & c && d;; e"), ["a;", " b &", " c && d;; e"]);
        assert_eq!(cuts("{ a; b; }; c"), ["{ a; b; };", " c"]);
        assert_eq!(cuts("a 2>&1; b"), ["a 2>&1;", " b"]);
    }

    #[test]
    fn tokens_are_counted_outside_quotes_and_bodies() {
        assert_eq!(tokens("a;a;a"), 5);
        assert_eq!(tokens("echo 'a b c d'"), 2);
        assert_eq!(tokens("cat <<E\na b c d e f\nE\n"), 4);
    }
}
