//! brush-parser glue: parse a script safely (bounded size and nesting, deep
//! inputs on a big-stack thread) and word parse errors as bash does.

use crate::state::source::Source;
use brush_parser::{ast, ParseError, Parser, ParserOptions, Token};
use std::borrow::Cow;
use std::sync::Arc;

mod assignment_paren;
pub mod cache;
pub mod comsub_arith;
mod comsub_case;
mod comsub_comments;
pub mod cond;
pub mod cost;
mod extglob_off;
pub mod split;

/// Nesting past which the rewrites before parsing (`comsub_case`,
/// `comsub_comments`) leave the text alone: it is far deeper than the
/// parser accepts, and each level would cost the rewrite a frame.
const MAX_REWRITE_NESTING: usize = 4096;

/// Nesting below which parsing runs on the caller's stack (brush-parser
/// overflows a 2 MiB stack somewhere past 300 levels).
const INLINE_DEPTH: usize = 40;
/// Stack for parsing deeper scripts; it is virtual memory, touched only as used.
const PARSER_STACK: usize = 256 * 1024 * 1024;

/// Parser options for bash mode.
pub fn options() -> ParserOptions {
    ParserOptions { enable_extended_globbing: true, ..ParserOptions::default() }
}

/// A rough upper bound of the syntactic nesting of `src`: brackets of every
/// kind plus compound keywords. Cheap and conservative (quotes are ignored).
///
/// Inside `[[ ]]` (up to its `]]` or the end of the line), every `&&`, `||`
/// and `!` counts as a level too: the test's tree is as deep as its operators
/// (`[[ a && a && ... ]]` is a chain), and it is evaluated and dropped recursively.
pub fn nesting_depth(src: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let bytes = src.as_bytes();
    let mut i = 0;
    // Operators of the `[[ ]]` being read, if any.
    let mut test_ops: Option<usize> = None;
    while i < bytes.len() {
        let blank_before = i == 0 || bytes[i - 1].is_ascii_whitespace();
        if bytes[i..].starts_with(b"[[") && blank_before {
            test_ops = Some(0);
        } else if bytes[i..].starts_with(b"]]") || bytes[i] == b'\n' {
            test_ops = None;
        } else if let Some(n) = test_ops.as_mut() {
            let bang = bytes[i] == b'!' && blank_before && bytes.get(i + 1).is_none_or(u8::is_ascii_whitespace);
            if bytes[i..].starts_with(b"&&") || bytes[i..].starts_with(b"||") || bang {
                *n += 1;
                max = max.max(depth + *n);
                i += if bang { 1 } else { 2 };
                continue;
            }
        }
        match bytes[i] {
            b'(' | b'{' | b'[' | b'`' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            c if c.is_ascii_alphabetic() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                match &src[start..i] {
                    "if" | "while" | "until" | "for" | "case" | "select" => {
                        depth += 1;
                        max = max.max(depth);
                    }
                    "fi" | "done" | "esac" => depth = depth.saturating_sub(1),
                    _ => {}
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    max
}

/// More `(` than `)` past this, and the parse is refused before it starts.
const MAX_UNCLOSED_PARENS: usize = 12;

/// How many more `(` than `)` the script has, outside quotes and comments.
fn unclosed_parens(src: &str) -> usize {
    let (mut open, mut close) = (0usize, 0usize);
    let mut quote: Option<u8> = None;
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match (quote, c) {
            (Some(b'\''), b'\'') | (Some(b'"'), b'"') => quote = None,
            (Some(b'"'), b'\\') | (None, b'\\') => i += 1,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(c),
            (None, b'#') if i == 0 || bytes[i - 1].is_ascii_whitespace() => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            (None, b'(') => open += 1,
            (None, b')') => close += 1,
            _ => {}
        }
        i += 1;
    }
    open.saturating_sub(close)
}

/// A parsed program and the text it was parsed from (after [`prepare`]).
pub struct Parsed {
    pub program: ast::Program,
    pub source: Arc<Source>,
}

/// Parse a whole script as bash reads it with `extglob` as given: off, an
/// extglob pattern outside `[[ ]]` is a syntax error (the first error in the
/// text wins).
pub fn parse_as(src: &str, max_depth: usize, extglob: bool) -> Result<Parsed, String> {
    let parsed = parse_tokens(src, max_depth, extglob).map_err(|m| with_extglob_error(m, src, extglob))?;
    match extglob_off::error(src) {
        Some(e) if !extglob => Err(e),
        _ => Ok(parsed),
    }
}

/// The first of a parse error and the one extglob off adds (when it is off).
pub fn with_extglob_error(m: String, src: &str, extglob: bool) -> String {
    let Some(line) = error_line(&m).filter(|_| !extglob) else { return m };
    match extglob_off::error(src) {
        Some(e) if error_line(&e).is_some_and(|k| k <= line) => e,
        _ => m,
    }
}

/// Whether `src` is read otherwise once extglob is on: the commands before
/// its error ran `shopt -s extglob`, the rest is read again.
pub fn reads_otherwise_with_extglob(src: &str) -> bool {
    extglob_off::error(src).is_some()
}

/// Parse a whole script. `Err` is bash's message (without the `bash: ` prefix).
/// Its cost is asked of the exec's budget first ([`cost`]).
pub fn parse(src: &str, max_depth: usize) -> Result<Parsed, String> {
    parse_tokens(src, max_depth, true)
}

/// [`parse`] of a text read with `extglob` as given: the tokenizer reads
/// extglob patterns as words unless [`tokens_differ_without_extglob`] says
/// the text needs it not to (decided after the budget admitted the text).
fn parse_tokens(src: &str, max_depth: usize, extglob: bool) -> Result<Parsed, String> {
    precheck(src, max_depth)?;
    cost::admit_or_stop(cost::of_program(src))?;
    let tokens = !tokens_differ_without_extglob(src, extglob);
    parse_in(src, max_depth, true, tokens).map_err(|f| f.msg)
}

/// Whether `src`, read with extglob off (`extglob` false), holds no pattern
/// bash refuses but text the extglob tokenizer reads as one: `f+() { ...; }`
/// defines `f+`, `!(false)` negates a subshell. Such a text is parsed with
/// extglob off (and not cached: it is rare).
pub fn tokens_differ_without_extglob(src: &str, extglob: bool) -> bool {
    !extglob && extglob_off::reads_without_extglob(src)
}

/// What refuses a text before any parse, in one cheap pass each: nesting past
/// `max_parser_depth`, more here-documents than bash reads for a command.
fn precheck(src: &str, max_depth: usize) -> Result<(), String> {
    let depth = nesting_depth(src);
    if depth > max_depth {
        return Err(format!("script nesting too deep: {depth} levels (max_parser_depth: {max_depth})"));
    }
    match split::heredoc_count_error(src) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// How a parse of a run of commands cut from a longer text ended (see [`split`]).
pub enum RunParse {
    Parsed(Parsed),
    /// Something is open at the run's end: a longer run must be read.
    Incomplete,
    /// A syntax error inside the run (bash's message, lines of the run).
    Error(String),
}

/// Parse `src`, a run of whole commands from the start of a longer text,
/// with `extglob` as given: nothing open at its end is closed by it (as the
/// end of a text closes a here-document), and an error on its last line may
/// be the cut's, not the text's: both are [`RunParse::Incomplete`].
pub fn parse_run(src: &str, max_depth: usize, extglob: bool) -> RunParse {
    if let Err(m) = precheck(src, max_depth).and_then(|()| cost::admit_or_stop(cost::of_program(src))) {
        return RunParse::Error(m);
    }
    let tokens = !tokens_differ_without_extglob(src, extglob);
    let failure = match parse_in(src, max_depth, false, tokens) {
        Ok(parsed) => match extglob_off::error(src) {
            Some(e) if !extglob => Failure { msg: e, incomplete: false },
            _ => return RunParse::Parsed(parsed),
        },
        Err(f) => Failure { msg: with_extglob_error(f.msg, src, extglob), ..f },
    };
    let last_line = src.trim_end_matches('\n').matches('\n').count() + 1;
    match error_line(&failure.msg) {
        Some(line) if !failure.incomplete && line < last_line => RunParse::Error(failure.msg),
        // A limit's refusal is no syntax error: reading on cannot help.
        None if !failure.incomplete => RunParse::Error(failure.msg),
        _ => RunParse::Incomplete,
    }
}

/// A parse that failed: bash's message, and whether more text could mend it.
struct Failure {
    msg: String,
    incomplete: bool,
}

impl From<String> for Failure {
    fn from(msg: String) -> Self {
        Failure { msg, incomplete: false }
    }
}

/// [`parse`] without asking the budget; `at_end`: the text is the end of the
/// script (an open here-document or a last backslash ends there, as in bash).
/// `extglob`: how words are tokenized (see [`tokens_differ_without_extglob`]).
fn parse_in(src: &str, max_depth: usize, at_end: bool, extglob: bool) -> Result<Parsed, Failure> {
    if unclosed_parens(src) > MAX_UNCLOSED_PARENS {
        // brush-parser backtracks exponentially over unclosed parentheses in
        // arithmetic (`(( ((((((...`); the script cannot parse anyway.
        let line = src.lines().count().max(1);
        let msg = format!("line {line}: unexpected EOF while looking for matching `)'");
        return Err(Failure { msg, incomplete: !at_end });
    }
    if let Some(e) = assignment_paren::error(src) {
        return Err(e.into());
    }
    let mut text = prepare(src);
    // A lone backslash at the very end is a literal `\` to bash (`echo \`);
    // brush-parser calls it an unterminated escape.
    if text.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1 {
        if !at_end {
            return Err(Failure { msg: "line 1: unexpected end of run".into(), incomplete: true });
        }
        text = Cow::Owned(format!("{text}\\"));
    }
    // `[[ ]]` as bash reads it: its errors, and newlines brush-parser refuses.
    match cond::check(&text) {
        Ok(None) => {}
        Ok(Some(escaped)) => text = Cow::Owned(escaped),
        Err(e) => {
            // The parser's error wins when it comes first in the text.
            return Err(match parse_text(&text, max_depth, extglob) {
                Err(f) if error_line(&f.msg).is_some_and(|l| l < e.line) => f,
                _ => e.text().into(),
            });
        }
    }
    let (program, eof_heredocs) = match parse_text(&text, max_depth, extglob) {
        Ok(p) => (p, Vec::new()),
        // bash takes the end of the text as the end of a here-document it
        // was reading (with a warning): read it so, with the delimiter lines added.
        Err(f) => match unterminated_heredocs(&f.msg) {
            Some(_) if !at_end => return Err(Failure { incomplete: true, ..f }),
            // bash reads at most 16 here-documents for one command (more is
            // an error there too), and brush-parser's second read of a text
            // with many open ones grows with their square.
            Some(open) if open.len() <= MAX_OPEN_HEREDOCS => {
                let ended = text.lines().count();
                let mut closed = text.into_owned();
                if !closed.ends_with('\n') {
                    closed.push('\n');
                }
                for (_, tag) in &open {
                    closed.push_str(tag);
                    closed.push('\n');
                }
                let program = parse_text(&closed, max_depth, extglob).map_err(|_| f.msg.clone())?;
                text = Cow::Owned(closed);
                (program, open.into_iter().map(|(line, tag)| (ended, line, tag)).collect())
            }
            _ => return Err(Failure { msg: shown_line_from(f.msg, src), ..f }),
        },
    };
    let mut source = Source::new(&text);
    source.eof_heredocs = eof_heredocs;
    Ok(Parsed { program, source: Arc::new(source) })
}

/// A syntax error's second line quotes the script's own line, not the text
/// [`prepare`] made of it (`for ((;;))` is read as `for ((; ;))`).
fn shown_line_from(m: String, src: &str) -> String {
    let marker = "\nbash: -c: line ";
    let Some(at) = m.find(marker) else { return m };
    let rest = &m[at + marker.len()..];
    let Some((n, quoted)) = rest.split_once(": `") else { return m };
    let (Ok(line), true) = (n.parse::<usize>(), quoted.ends_with('\'')) else { return m };
    match src.lines().nth(line.saturating_sub(1)) {
        Some(orig) if orig != &quoted[..quoted.len() - 1] => format!("{}{marker}{line}: `{orig}'", &m[..at]),
        _ => m,
    }
}

/// Here-documents bash reads for one command (its HEREDOC_MAX).
const MAX_OPEN_HEREDOCS: usize = 16;

/// The here-documents brush-parser found unterminated at the end of the
/// text (`... tag(s) [A, B] found at: [1,8, 1,17]`): each one's line and
/// delimiter without quotes.
fn unterminated_heredocs(m: &str) -> Option<Vec<(usize, String)>> {
    let rest = m.split_once("unterminated here document sequence; tag(s) [")?.1;
    let (tags, at) = rest.split_once("] found at: [")?;
    let at = at.strip_suffix(']').unwrap_or(at);
    let lines: Vec<usize> = at.split(", ").filter_map(|p| p.split(',').next()?.parse().ok()).collect();
    let tags: Vec<&str> = tags.split(", ").collect();
    if tags.len() != lines.len() || tags.is_empty() {
        return None;
    }
    let unquoted = |t: &str| t.chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect::<String>();
    Some(lines.into_iter().zip(tags).map(|(l, t)| (l, unquoted(t))).collect())
}

/// Most prefixes tried by [`with_runnable_prefix`].
const MAX_PREFIX_TRIES: usize = 64;

/// bash reads and runs a script one complete command at a time, so the
/// commands before a syntax error run. For a script whose parse failed with
/// `err` (bash's message without the `bash: ` prefix, `line N: ...`), parse
/// the longest run of whole lines before line N that parses, followed by
/// `__syntax_error MESSAGE` (when `shown` is given), which prints it and
/// leaves the shell with status 2. `None` when no command comes before the error.
pub fn with_runnable_prefix(src: &str, err: &str, shown: Option<&str>, max_depth: usize) -> Option<Parsed> {
    let (parsed, len) = runnable_prefix(src, err, max_depth)?;
    let Some(shown) = shown else { return Some(parsed) };
    let prefix = &src[..len];
    let sep = if prefix.ends_with('\n') { "" } else { "\n" };
    let how = match eof_in_pair(err, src) {
        Some(EofInPair::LastIfFailed) => " nonzero",
        Some(EofInPair::One) => " one",
        None => "",
    };
    let text = format!("{prefix}{sep}__syntax_error {}{how}\n", crate::expand::param::quote(shown));
    parse(&text, max_depth).ok()
}

/// How bash ends a script whose error is only an unclosed quote or bracket
/// at its end: as at end of input, not with a syntax error's status.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum EofInPair {
    /// The last command's status when it failed, else 2.
    LastIfFailed,
    /// 1: an array assignment's `(` never closed.
    One,
}

/// See [`EofInPair`]. (An unclosed `$( )` is a nested script's syntax
/// error, named past the last line: none of these.)
pub fn eof_in_pair(err: &str, src: &str) -> Option<EofInPair> {
    let line = error_line(err)?;
    if !err.contains("unexpected EOF while looking for matching") || err.contains("syntax error") {
        return None;
    }
    if line > src.lines().count() {
        return None;
    }
    Some(if open_array_assignment(src) == Some(line) { EofInPair::One } else { EofInPair::LastIfFailed })
}

/// The outermost `$(` or `$((` never closed: whether it is a command
/// substitution, and the line it opens on.
fn open_dollar_paren(src: &str) -> Option<(bool, usize)> {
    let mask = quoted_mask(src);
    let b = src.as_bytes();
    // (is a command substitution, line) of each open `$(`/`$((`/`(`.
    let mut open: Vec<Option<(bool, usize)>> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' {
            line += 1;
        }
        if !mask[i] {
            if b[i] == b'$' && b.get(i + 1) == Some(&b'(') {
                let arith = b.get(i + 2) == Some(&b'(');
                open.push(Some((!arith, line)));
                if arith {
                    // Its inner `(`: `))` closes both.
                    open.push(None);
                }
                i += if arith { 3 } else { 2 };
                continue;
            }
            match b[i] {
                b'(' => open.push(None),
                b')' => {
                    open.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    open.into_iter().flatten().next()
}

/// The line of the first array assignment whose `(` is never closed
/// (`a=(x`), which bash reports as an unclosed pair. One pass: each `(` is
/// kept with whether it opens an array until its `)`.
fn open_array_assignment(src: &str) -> Option<usize> {
    let mask = quoted_mask(src);
    let b = src.as_bytes();
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut line = 1;
    for i in 0..b.len() {
        if b[i] == b'\n' {
            line += 1;
        }
        if mask[i] {
            continue;
        }
        match b[i] {
            b'(' => open.push(opens_array(b, &mask, i).then_some(line)),
            b')' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.into_iter().flatten().next()
}

/// Whether the `(` at `i` follows `name=` or `name+=` at the start of a word.
fn opens_array(b: &[u8], mask: &[bool], i: usize) -> bool {
    if i == 0 || b[i - 1] != b'=' || mask[i - 1] {
        return false;
    }
    let mut j = i - 1;
    if j > 0 && b[j - 1] == b'+' {
        j -= 1;
    }
    let end = j;
    while j > 0 && (b[j - 1].is_ascii_alphanumeric() || b[j - 1] == b'_') {
        j -= 1;
    }
    let starts_word = j == 0 || matches!(b[j - 1], b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(');
    j < end && starts_word && !b[j].is_ascii_digit()
}

/// The longest run of whole lines before the error's line that parses, and
/// its length in bytes (see [`with_runnable_prefix`]).
pub fn runnable_prefix(src: &str, err: &str, max_depth: usize) -> Option<(Parsed, usize)> {
    let line: usize = err.strip_prefix("line ")?.split(':').next()?.parse().ok()?;
    let lines: Vec<&str> = src.split_inclusive('\n').collect();
    let last = line.checked_sub(1)?.min(lines.len());
    for k in (1..=last).rev().take(MAX_PREFIX_TRIES) {
        let prefix: String = lines[..k].concat();
        if prefix.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
            return None;
        }
        // A line continued onto the next is no end of a command.
        let continued =
            prefix.strip_suffix('\n').is_some_and(|p| p.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1);
        if continued {
            continue;
        }
        if let Ok(parsed) = parse(&prefix, max_depth) {
            return Some((parsed, prefix.len()));
        }
    }
    None
}

/// The line a parse error names (`line N: ...`).
fn error_line(m: &str) -> Option<usize> {
    m.strip_prefix("line ")?.split(':').next()?.parse().ok()
}

/// Work around brush-parser gaps by rewriting the text: `select` (which
/// brush cannot parse) becomes a `while` over the `__select` builtin, and
/// `for ((;;))` (whose `;;` brush reads as a case terminator) is split.
fn prepare(src: &str) -> Cow<'_, str> {
    let src = comsub_comments::blank(src);
    let src = match rewrite_subscript_blanks(&src) {
        Cow::Borrowed(_) => src,
        Cow::Owned(s) => Cow::Owned(s),
    };
    let src = match comsub_arith::rewrite(&src) {
        Cow::Borrowed(_) => src,
        Cow::Owned(s) => Cow::Owned(s),
    };
    let src = match comsub_case::rewrite(&src) {
        Cow::Borrowed(_) => src,
        Cow::Owned(s) => Cow::Owned(s),
    };
    let r = match rewrite_select(&src) {
        Cow::Borrowed(_) => rewrite_arith_for(&src).into_owned(),
        Cow::Owned(s) => rewrite_arith_for(&s).into_owned(),
    };
    if r == *src {
        src
    } else {
        Cow::Owned(r)
    }
}

/// Stand-ins for a blank inside a subscript (see [`rewrite_subscript_blanks`]):
/// Unicode noncharacters, which no text means as itself, escaped so that
/// the parser reads each as a piece of its own (`a[ i[1] ]=x`: a name
/// with a subscript must start a piece to be read as one).
pub const SUBSCRIPT_SPACE: &str = "\\\u{FDD0}";
pub const SUBSCRIPT_TAB: &str = "\\\u{FDD1}";

/// A subscript's text with its blanks back (see [`rewrite_subscript_blanks`]).
pub fn unmark_subscript_blanks(s: &str) -> Cow<'_, str> {
    if s.contains(['\u{FDD0}', '\u{FDD1}']) {
        Cow::Owned(s.replace(SUBSCRIPT_SPACE, " ").replace(SUBSCRIPT_TAB, "\t"))
    } else {
        Cow::Borrowed(s)
    }
}

/// A word's text without what the rewrites before parsing added to it
/// ([`unmark_subscript_blanks`], [`comsub_arith::ARITH_RESET`]).
pub fn word_as_written(s: &str) -> Cow<'_, str> {
    let s = unmark_subscript_blanks(s);
    if s.contains(comsub_arith::ARITH_RESET) {
        Cow::Owned(s.replace(comsub_arith::ARITH_RESET, ""))
    } else {
        s
    }
}

/// bash reads `a[1 + 1]=x` (an assignment at the start of a command) and
/// `([k 1]=v)` (a key in a compound assignment) as one word: the blanks
/// inside the subscript become [`SUBSCRIPT_SPACE`] and [`SUBSCRIPT_TAB`] here
/// so the parser keeps the word whole; who reads the word's text puts them
/// back (an escape would change the subscript's meaning: it is arithmetic
/// text, where a backslash stays).
fn rewrite_subscript_blanks(src: &str) -> Cow<'_, str> {
    if !src.contains("]=") && !src.contains("]+=") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mask = quoted_mask(src);
    let mut out: Option<String> = None;
    let mut last = 0;
    // Depth of `=(` lists being read (keys of compound assignments).
    let mut compound: Vec<usize> = Vec::new();
    let mut parens = 0usize;
    let mut i = 0;
    while i < b.len() {
        if mask[i] {
            i += 1;
            continue;
        }
        match b[i] {
            b'(' => {
                parens += 1;
                if i > 0 && b[i - 1] == b'=' {
                    compound.push(parens);
                }
            }
            b')' => {
                if compound.last() == Some(&parens) {
                    compound.pop();
                }
                parens = parens.saturating_sub(1);
            }
            b'[' => {
                // The word's start: a name before `[` (or nothing, in a list).
                let mut s = i;
                while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
                    s -= 1;
                }
                let named = s < i && !b[s].is_ascii_digit();
                let before = src[..s].trim_end_matches([' ', '\t']);
                let at_command = before.is_empty()
                    || before.ends_with([';', '&', '|', '(', '{', '\n'])
                    || ["do", "then", "else", "elif", "!"].iter().any(|k| {
                        before.ends_with(k)
                            && before[..before.len() - k.len()]
                                .chars()
                                .last()
                                .is_none_or(|c| c.is_whitespace() || c == ';')
                    });
                let in_list =
                    !compound.is_empty() && s == i && (before.ends_with('(') || src[..s].ends_with([' ', '\t', '\n']));
                if (named && at_command && compound.is_empty()) || in_list {
                    // Find the matching `]` on this line.
                    let mut depth = 0usize;
                    let mut j = i;
                    let mut blank = false;
                    let mut end = None;
                    while j < b.len() && b[j] != b'\n' {
                        if !mask[j] {
                            match b[j] {
                                b'[' => depth += 1,
                                b']' => {
                                    depth -= 1;
                                    if depth == 0 {
                                        end = Some(j);
                                        break;
                                    }
                                }
                                b' ' | b'\t' => blank = true,
                                b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => break,
                                _ => {}
                            }
                        }
                        j += 1;
                    }
                    if let Some(e) = end {
                        let rest = &src[e + 1..];
                        if blank && (rest.starts_with('=') || rest.starts_with("+=")) {
                            let o = out.get_or_insert_with(String::new);
                            o.push_str(&src[last..i]);
                            for (k, c) in src[i..e].char_indices() {
                                match c {
                                    ' ' if !mask[i + k] => o.push_str(SUBSCRIPT_SPACE),
                                    '\t' if !mask[i + k] => o.push_str(SUBSCRIPT_TAB),
                                    c => o.push(c),
                                }
                            }
                            last = e;
                            i = e;
                            continue;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    match out {
        Some(mut o) => {
            o.push_str(&src[last..]);
            Cow::Owned(o)
        }
        None => Cow::Borrowed(src),
    }
}

/// Which bytes of `src` are inside quotes (or escaped), so rewrites leave them alone.
fn quoted_mask(src: &str) -> Vec<bool> {
    let b = src.as_bytes();
    let mut mask = vec![false; b.len()];
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match (quote, c) {
            (Some(q), c) if c == q => {
                mask[i] = true;
                quote = None;
            }
            (Some(b'"'), b'\\') | (None, b'\\') => {
                mask[i] = true;
                if i + 1 < b.len() {
                    mask[i + 1] = true;
                }
                i += 1;
            }
            (Some(_), _) => mask[i] = true,
            (None, b'\'' | b'"') => {
                mask[i] = true;
                quote = Some(c);
            }
            _ => {}
        }
        i += 1;
    }
    mask
}

/// `select NAME [in WORDS]; do` -> `while __select NAME -- WORDS; do`
/// (`"$@"` when there is no `in`).
fn rewrite_select(src: &str) -> Cow<'_, str> {
    if !src.contains("select") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mask = quoted_mask(src);
    let mut out = String::new();
    let mut last = 0;
    let mut i = 0;
    while let Some(pos) = src[i..].find("select") {
        let start = i + pos;
        i = start + 6;
        if mask[start] || b.get(i).is_some_and(|c| !(*c == b' ' || *c == b'\t')) {
            continue;
        }
        // Command position: after a separator, or after a keyword that starts a list.
        let before = src[..start].trim_end_matches([' ', '\t']);
        let at_command = before.is_empty()
            || before.ends_with([';', '&', '|', '(', '\n', '{'])
            || ["do", "then", "else", "elif", "!"].iter().any(|k| {
                before.ends_with(k)
                    && before[..before.len() - k.len()]
                        .chars()
                        .last()
                        .is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_')
            });
        if !at_command {
            continue;
        }
        // The header runs to the first unquoted `;` or newline.
        let Some(end) = (i..b.len()).find(|&k| !mask[k] && (b[k] == b';' || b[k] == b'\n')) else { break };
        let header = src[i..end].trim();
        let (name, words) = match header.split_once(char::is_whitespace) {
            Some((n, rest)) => match rest.trim_start().strip_prefix("in") {
                Some(w) if w.is_empty() || w.starts_with(char::is_whitespace) => (n, w.trim().to_string()),
                _ => continue,
            },
            None => (header, "\"$@\"".to_string()),
        };
        out.push_str(&src[last..start]);
        out.push_str(&format!("while __select {name} -- {words}"));
        last = end;
        i = end;
    }
    if last == 0 {
        return Cow::Borrowed(src);
    }
    out.push_str(&src[last..]);
    Cow::Owned(out)
}

/// `for ((;;))`: split the `;;` inside arithmetic `for` headers.
fn rewrite_arith_for(src: &str) -> Cow<'_, str> {
    if !src.contains(";;") || !src.contains("((") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    // Quoted text (`echo 'for ((;;))'`) is not a loop.
    let quoted = quoted_mask(src);
    let mut out = String::with_capacity(src.len() + 8);
    let mut i = 0;
    let mut last = 0;
    while let Some(pos) = src[i..].find("for") {
        let start = i + pos;
        i = start + 3;
        let before_ok =
            !quoted[start] && (start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_'));
        let mut j = i;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if !before_ok || !src[j..].starts_with("((") {
            continue;
        }
        let Some(close) = src[j..].find("))") else { break };
        let header = &src[j..j + close];
        if header.contains(";;") {
            out.push_str(&src[last..j]);
            out.push_str(&header.replace(";;", "; ;"));
            last = j + close;
        }
        i = j + close;
    }
    if last == 0 {
        return Cow::Borrowed(src);
    }
    out.push_str(&src[last..]);
    Cow::Owned(out)
}

fn parse_text(src: &str, max_depth: usize, extglob: bool) -> Result<ast::Program, Failure> {
    let opts = ParserOptions { enable_extended_globbing: extglob, ..options() };
    let depth = nesting_depth(src);
    if depth > max_depth {
        return Err(format!("script nesting too deep: {depth} levels (max_parser_depth: {max_depth})").into());
    }
    // A caller's thread (a first slice) has less stack than the runtime's.
    let inline_depth = if crate::limits::inline::active() { INLINE_DEPTH / 5 } else { INLINE_DEPTH };
    let result = if depth <= inline_depth {
        // brush-parser unwraps some conversions (a file descriptor number past
        // i32, found by fuzzing): a panic there is this script's error, not ours.
        let parse = std::panic::AssertUnwindSafe(|| Parser::new(src.as_bytes(), &opts).parse_program());
        match std::panic::catch_unwind(parse) {
            Ok(r) => r,
            Err(_) => return Err(String::from("syntax error: the parser could not read this script").into()),
        }
    } else {
        let owned = src.to_owned();
        // The parse's memory is the exec's, on its own thread too.
        let scope = crate::limits::scope::Carried::here();
        let handle =
            std::thread::Builder::new().name("sandbash-parse".into()).stack_size(PARSER_STACK).spawn(move || {
                let _in = scope.enter();
                Parser::new(owned.as_bytes(), &opts).parse_program()
            });
        match handle {
            Ok(h) => match h.join() {
                Ok(r) => r,
                Err(_) => return Err(String::from("internal error: the parser panicked").into()),
            },
            Err(e) => return Err(format!("internal error: cannot start the parser: {e}").into()),
        }
    };
    result.map_err(|e| {
        let incomplete = match &e {
            ParseError::ParsingAtEndOfInput => true,
            ParseError::Tokenizing { inner, .. } => inner.is_incomplete(),
            ParseError::ParsingNear(_) => false,
        };
        Failure { msg: message(src, &e), incomplete }
    })
}

/// bash's wording for a parse error.
fn message(src: &str, err: &ParseError) -> String {
    match err {
        ParseError::ParsingNear(pos) if unexpected_token(src).is_some_and(|(_, l)| l <= pos.line) => {
            let (tok, line) = unexpected_token(src).unwrap_or_default();
            let line_text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
            format!("line {line}: syntax error near unexpected token `{tok}'\nbash: -c: line {line}: `{line_text}'")
        }
        ParseError::ParsingNear(pos) => {
            let tok = brush_parser::uncached_tokenize_str(src, &options().tokenizer_options())
                .ok()
                .and_then(|toks| toks.into_iter().find(|t| t.location().start.index == pos.index));
            let text = match tok {
                Some(Token::Operator(op, _)) if op == "\n" => "newline".to_owned(),
                Some(t) => t.to_str().to_owned(),
                None => "EOF".to_owned(),
            };
            let line_text = src.lines().nth(pos.line.saturating_sub(1)).unwrap_or("");
            format!(
                "line {}: syntax error near unexpected token `{text}'\nbash: -c: line {}: `{line_text}'",
                pos.line, pos.line
            )
        }
        ParseError::ParsingAtEndOfInput => match unexpected_token(src) {
            Some((tok, line)) => {
                let line_text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
                format!("line {line}: syntax error near unexpected token `{tok}'\nbash: -c: line {line}: `{line_text}'")
            }
            None => match open_array_assignment(src) {
                Some(line) => format!("line {line}: unexpected EOF while looking for matching `)'"),
                None => format!("line {}: syntax error: unexpected end of file", src.lines().count() + 1),
            },
        },
        ParseError::Tokenizing { inner, position } => {
            use brush_parser::TokenizerError as T;
            // A syntax error before the quote that never closes is the one
            // bash meets first (`echo a (b) '`).
            if let T::UnterminatedSingleQuote(p)
            | T::UnterminatedAnsiCQuote(p)
            | T::UnterminatedDoubleQuote(p)
            | T::UnterminatedBackquote(p) = inner
            {
                let before: String = src.chars().take(p.index).collect();
                if let Some((tok, line)) = unexpected_token(&before).filter(|(t, _)| t != "newline") {
                    let line_text = src.lines().nth(line.saturating_sub(1)).unwrap_or("");
                    return format!(
                        "line {line}: syntax error near unexpected token `{tok}'\nbash: -c: line {line}: `{line_text}'"
                    );
                }
            }
            // An unterminated quote is reported on the line it opened on.
            let line = match inner {
                T::UnterminatedSingleQuote(p)
                | T::UnterminatedAnsiCQuote(p)
                | T::UnterminatedDoubleQuote(p)
                | T::UnterminatedBackquote(p) => p.line,
                // bash reads a `$( )` as a nested script: its end of file is
                // past the last line. An arithmetic one is named where it opened.
                T::UnterminatedCommandSubstitution | T::UnterminatedExpansion => match open_dollar_paren(src) {
                    Some((true, _)) => src.lines().count() + 1,
                    Some((false, line)) => line,
                    None => position.as_ref().map_or(1, |p| p.line),
                },
                // An extglob pattern, on the line it opened on.
                T::UnterminatedExtendedGlob(_) => extglob_off::open_pattern_line(src),
                _ => position.as_ref().map_or(1, |p| p.line),
            };
            let what = match inner {
                T::UnterminatedSingleQuote(_) | T::UnterminatedAnsiCQuote(_) => {
                    "unexpected EOF while looking for matching `''".to_string()
                }
                T::UnterminatedDoubleQuote(_) => "unexpected EOF while looking for matching `\"'".to_string(),
                T::UnterminatedBackquote(_) => "unexpected EOF while looking for matching ``'".to_string(),
                T::UnterminatedCommandSubstitution | T::UnterminatedExpansion => {
                    "unexpected EOF while looking for matching `)'".to_string()
                }
                T::UnterminatedVariable => "unexpected EOF while looking for matching `}'".to_string(),
                T::UnterminatedExtendedGlob(_) => "unexpected EOF while looking for matching `)'".to_string(),
                other => other.to_string(),
            };
            format!("line {line}: {what}")
        }
    }
}

/// Where a compound command's reserved words stand.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    /// `if`/`elif`/`while`/`until` condition; `then` or `do` may follow once it has a command.
    Cond,
    /// `for`/`select` header words; `do` follows.
    Header,
    /// `then`/`else`/`do` body (or a `{ }` group).
    Body,
}

struct Frame {
    closer: &'static str,
    part: Part,
    has_cmd: bool,
}

/// brush-parser names a later token than bash for some errors (`if then fi`,
/// a stray `fi`, `echo >`). Scan the tokens as bash's grammar sees reserved
/// words and redirections, and return the first token bash would refuse.
fn line_of(t: &Token) -> usize {
    t.location().start.line
}

fn unexpected_token(src: &str) -> Option<(String, usize)> {
    let toks = brush_parser::uncached_tokenize_str(src, &options().tokenizer_options()).ok()?;
    let mut stack: Vec<Frame> = Vec::new();
    let mut command_start = true;
    let mut after_redirect = false;
    let name_of = |t: &Token| match t {
        Token::Operator(op, _) if op == "\n" => "newline".to_string(),
        t => t.to_str().to_string(),
    };
    let mut in_array = false;
    let mut prev_assign = false;
    // The word before was a command's first (a function's name when `(` follows).
    let mut prev_command_word = false;
    // Inside a function definition's `()`.
    let mut fn_parens = false;
    // Right after a compound command's end: only reserved words, redirections
    // and operators may follow.
    let mut after_compound = false;
    // Inside `(( ))`: its depth of parentheses (the expression is not read).
    let mut arith = 0usize;
    // The first word of the simple command being read.
    let mut first_word: Option<&str> = None;
    for (i, t) in toks.iter().enumerate() {
        let text = t.to_str();
        let was_command_word = std::mem::replace(&mut prev_command_word, false);
        let was_after_compound = std::mem::replace(&mut after_compound, false);
        let is_op = |s: &str| !matches!(t, Token::Word(..)) && text == s;
        if arith > 0 {
            if is_op("(") {
                arith += 1;
            } else if is_op(")") {
                arith -= 1;
                if arith == 0 {
                    after_compound = true;
                }
            }
            continue;
        }
        if fn_parens && !is_op(")") {
            return Some((name_of(t), line_of(t)));
        }
        if was_after_compound && matches!(t, Token::Word(..)) {
            let next_redirect = toks.get(i + 1).is_some_and(|n| {
                !matches!(n, Token::Word(..))
                    && matches!(
                        n.to_str(),
                        ">" | "<" | ">>" | ">|" | "<>" | ">&" | "<&" | "&>" | "&>>" | "<<<" | "<<" | "<<-"
                    )
            });
            let reserved = matches!(text, "fi" | "done" | "}" | "esac" | "then" | "else" | "elif" | "do");
            if !next_redirect && !reserved {
                return Some((text.to_string(), line_of(t)));
            }
            command_start = reserved;
        }
        let line = t.location().start.line;
        let is_word = matches!(t, Token::Word(..));
        // `a=(x y)`: the list is words, not a subshell.
        if in_array {
            in_array = text != ")";
            continue;
        }
        if !is_word && text == "(" && prev_assign {
            in_array = true;
            continue;
        }
        prev_assign = is_word && text.ends_with('=');
        if after_redirect {
            if !is_word {
                return Some((name_of(t), line));
            }
            after_redirect = false;
            continue;
        }
        if !is_word && matches!(text, ">" | "<" | ">>" | ">|" | "<>" | ">&" | "<&" | "&>" | "&>>" | "<<<") {
            after_redirect = true;
            continue;
        }
        if stack.last().is_some_and(|f| f.closer == "esac") {
            // Patterns inside case are not commands; stay conservative there.
            if is_word && text == "esac" {
                stack.pop();
            }
            continue;
        }
        if is_word && command_start {
            let opened = match text {
                "if" | "while" | "until" => Some((if text == "if" { "fi" } else { "done" }, Part::Cond)),
                "for" | "select" => Some(("done", Part::Header)),
                "case" => Some(("esac", Part::Header)),
                "{" => Some(("}", Part::Body)),
                _ => None,
            };
            if stack.last().is_some_and(|f| f.part == Part::Header && f.closer == "done") && text != "do" {
                return Some((text.to_string(), line));
            }
            if let Some(f) = stack.last_mut() {
                if opened.is_some() || !matches!(text, "then" | "else" | "elif" | "do" | "fi" | "done" | "}") {
                    f.has_cmd = true;
                }
            }
            if let Some((closer, part)) = opened {
                stack.push(Frame { closer, part, has_cmd: false });
                command_start = part != Part::Header;
                continue;
            }
            let top = stack.last().map(|f| (f.closer, f.part, f.has_cmd));
            let ok = match (text, top) {
                ("then", Some(("fi", Part::Cond, true))) => true,
                ("else" | "elif", Some(("fi", Part::Body, true))) => true,
                ("do", Some(("done", Part::Cond, true))) | ("do", Some(("done", Part::Header, _))) => true,
                ("fi" | "done" | "}", Some((c, Part::Body, true))) => c == text,
                ("then" | "else" | "elif" | "do" | "fi" | "done" | "}" | "esac", _) => false,
                // `function name ...`: left to the parser.
                ("function", _) => return None,
                _ => {
                    command_start = matches!(text, "!" | "time");
                    prev_command_word = !command_start;
                    first_word = Some(text);
                    continue;
                }
            };
            if !ok {
                return Some((text.to_string(), line));
            }
            match text {
                "fi" | "done" | "}" => {
                    stack.pop();
                    command_start = false;
                    after_compound = true;
                }
                "elif" => {
                    if let Some(f) = stack.last_mut() {
                        (f.part, f.has_cmd) = (Part::Cond, false);
                    }
                }
                _ => {
                    if let Some(f) = stack.last_mut() {
                        (f.part, f.has_cmd) = (Part::Body, false);
                    }
                }
            }
            if text != "fi" && text != "done" && text != "}" {
                command_start = true;
            }
            continue;
        }
        if !is_word && text == "(" {
            let next_is_paren = toks.get(i + 1).is_some_and(|n| !matches!(n, Token::Word(..)) && n.to_str() == "(");
            if was_command_word && !next_is_paren && !first_word.is_some_and(|w| w.contains('=')) {
                // `name ()`: the body follows the `)`.
                fn_parens = true;
                continue;
            }
            if command_start {
                if let Some(f) = stack.last_mut() {
                    f.has_cmd = true;
                }
                if next_is_paren {
                    arith = 1;
                    command_start = false;
                } else {
                    stack.push(Frame { closer: ")", part: Part::Body, has_cmd: false });
                }
                continue;
            }
            // `for ((...))`: the expression is not read.
            if next_is_paren && stack.last().is_some_and(|f| f.part == Part::Header && f.closer == "done") {
                arith = 1;
                continue;
            }
            // After a command's arguments (`echo a (b)`) bash names the `(`;
            // inside `[[ ]]` or after `coproc` it is grouping.
            if !command_start && first_word.is_some_and(|w| !matches!(w, "[[" | "coproc" | "function")) {
                return Some(("(".to_string(), line));
            }
            // Anything else: left to the parser.
            return None;
        }
        if !is_word && text == ")" {
            if std::mem::take(&mut fn_parens) {
                command_start = true;
                continue;
            }
            match stack.last() {
                Some(f) if f.closer == ")" && f.has_cmd => {
                    stack.pop();
                    command_start = false;
                    after_compound = true;
                    continue;
                }
                Some(f) if f.closer == ")" => return Some((")".to_string(), line)),
                _ => return None,
            }
        }
        if fn_parens {
            return None;
        }
        if is_word {
            command_start = false;
            continue;
        }
        if command_start && matches!(text, ";" | "&" | "&&" | "||" | "|" | "|&" | ";;") {
            return Some((text.to_string(), line));
        }
        let top_header = stack.last().is_some_and(|f| f.part == Part::Header);
        command_start = matches!(text, ";" | "\n" | "&&" | "||" | "|" | "&" | "|&") || (top_header && text == ";");
        if top_header && matches!(text, ";" | "\n") {
            command_start = true;
        }
    }
    // The end of a `-c` string is a newline to bash: `f (` names it.
    if after_redirect || fn_parens {
        return Some(("newline".to_string(), src.lines().count().max(1)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let deep = "{ ".repeat(5000) + &"}".repeat(5000);
        assert!(parse(&deep, 200).err().unwrap_or_default().contains("max_parser_depth"));
        let ok = "{ ".repeat(150) + "true;" + &" }".repeat(150);
        assert!(parse(&ok, 200).is_ok());
    }

    #[test]
    fn arithmetic_for_with_empty_parts() {
        assert_eq!(prepare("for ((;;)); do break; done"), "for ((; ;)); do break; done");
        assert_eq!(prepare("case x in a) :;; esac"), "case x in a) :;; esac");
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(
            parse("echo a; fi", 200).err().unwrap_or_default(),
            "line 1: syntax error near unexpected token `fi'\nbash: -c: line 1: `echo a; fi'"
        );
    }
}
