//! Word expansion: raw word text -> fields. The order is bash's: brace
//! expansion, then tilde, parameter, command and arithmetic substitution (left
//! to right), then field splitting of unquoted results, then pathname expansion,
//! with quote removal throughout (each character remembers whether it was quoted).

pub mod ansi_c;
pub mod arith;
pub mod brace;
mod comsub_ends;
pub mod glob;
mod heredoc_quotes;
pub mod param;
pub mod prompt;
pub mod split;

use crate::interp::{Fds, Flow};
use crate::state::ShellState;
use brush_parser::word::{self, WordPiece, WordPieceWithSource};
use futures_util::future::BoxFuture;
use std::borrow::Cow;

/// One run of expanded text.
#[derive(Clone, Debug)]
pub struct Seg {
    pub text: String,
    /// Came from quotes (or an escape): no splitting, no globbing.
    pub quoted: bool,
    /// Came from an unquoted expansion: subject to field splitting.
    pub split: bool,
}

/// Fields under construction; `"$@"` and `${a[@]}` start new ones.
#[derive(Default, Debug)]
pub struct Fields {
    pub done: Vec<Vec<Seg>>,
    pub cur: Vec<Seg>,
    /// A list expansion (`"$@"`) happened: an empty result then means no field.
    pub saw_list: bool,
    /// A context without word splitting (an assignment's value, a here-string,
    /// a `case` word): an unquoted `$*`/`${a[*]}` joins with IFS's first
    /// character there, as `"$*"` does.
    pub join_star: bool,
    /// Bytes in `cur`, held within `max_string_bytes` as parts are added.
    cur_bytes: u64,
}

/// The exec's `max_string_bytes` (unlimited outside an exec).
pub(crate) fn string_limit() -> u64 {
    crate::limits::scope::with_budget(|b| b.limits.max_string_bytes).unwrap_or(u64::MAX)
}

/// The error of a word or string grown past `max_string_bytes`.
pub(crate) fn too_long(limit: u64) -> crate::limits::Stop {
    crate::limits::Budget::exceeded("max_string_bytes", limit, "expansion size")
}

impl Fields {
    /// Add a part to the current field. A field longer than
    /// `max_string_bytes` stops the exec, before more parts pile up
    /// (`"$x$x$x..."`); a part that is large looks at the session's memory.
    fn push(&mut self, text: impl Into<String>, quoted: bool, split: bool) -> Result<(), crate::limits::Stop> {
        let text = text.into();
        let len = text.len() as u64;
        self.cur_bytes = self.cur_bytes.saturating_add(len);
        let limit = string_limit();
        if self.cur_bytes > limit {
            return Err(too_long(limit));
        }
        if len > 1 << 16 {
            crate::limits::reserve(0)?;
        } else {
            crate::limits::checkpoint()?;
        }
        self.cur.push(Seg { text, quoted, split });
        Ok(())
    }
    fn break_field(&mut self) {
        let f = std::mem::take(&mut self.cur);
        self.cur_bytes = 0;
        self.done.push(f);
    }
    fn finish(mut self) -> Vec<Vec<Seg>> {
        self.done.push(self.cur);
        self.done
    }
}

/// Print `bash: line N: msg` and end the shell with `status` (what bash does
/// for an expansion error in a non-interactive shell).
pub async fn fatal(loc: crate::state::Loc, fds: &Fds, msg: &str, status: i32) -> Flow {
    fds.shell_err(loc, msg).await;
    Flow::Exit(status)
}

/// Print `bash: line N: msg` and abandon the current top-level command with
/// status 1: the script goes on with its next line (bash's arithmetic and
/// indirection errors, and assignments to readonly variables).
pub async fn abort(loc: crate::state::Loc, fds: &Fds, msg: &str) -> Flow {
    fds.shell_err(loc, msg).await;
    Flow::Abort(1)
}

/// An error bash reports and, under `set -e`, exits on at once with status
/// 1, wherever it happens (a condition or a function too); otherwise it
/// abandons the line as [`abort`] does. An invalid indirect expansion is one.
pub async fn abort_or_exit(sh: &ShellState, fds: &Fds, msg: &str) -> Flow {
    fds.shell_err(sh.loc(), msg).await;
    if sh.opts.errexit {
        Flow::Exit(1)
    } else {
        Flow::Abort(1)
    }
}

/// The status bash exits with after a fatal expansion error (an unset
/// variable under `set -u`, `${x?}`, a bad substitution): 127 for a `-c`
/// script itself, 1 in a subshell, a script file or under `set -e`.
pub fn fatal_status(sh: &ShellState) -> i32 {
    // In the EXIT trap the shell leaves with the status it was leaving with.
    if let Some(s) = sh.trace.exit_status {
        return s;
    }
    // Under `set -e` bash leaves through errexit, with status 1.
    if sh.subshell_depth == sh.shell_base && !sh.script_file && !sh.opts.errexit {
        127
    } else {
        1
    }
}

fn parse_word(raw: &str) -> Result<Vec<WordPieceWithSource>, String> {
    parse_word_with(raw, &crate::syntax::options())
}

fn parse_word_with(raw: &str, opts: &brush_parser::ParserOptions) -> Result<Vec<WordPieceWithSource>, String> {
    crate::syntax::cost::admit_or_stop(crate::syntax::cost::of_word(raw))?;
    let parse = |text: &str| {
        let guarded = guard_tildes(text);
        let marked = mark_toggles(&guarded);
        word::parse(&marked, opts).map(|mut pieces| {
            if marked.contains(ALL_INDICES) {
                unmark_all_indices(&mut pieces);
            }
            pieces
        })
    };
    // A substitution the word reader ended too early (at a `case` pattern's
    // `)`, say) is read again up to where its body is a whole command.
    let complete = |body: &str| {
        let depth = crate::limits::Limits::default().max_parser_depth as usize;
        heredoc_quotes::closed(body) && crate::syntax::cache::program(body, depth, true).is_ok()
    };
    let reread = |raw: &str| {
        let h = comsub_ends::hide(raw, &complete)?;
        parse(&h).ok().or_else(|| heredoc_quotes::hide(&h).and_then(|q| parse(&q).ok()))
    };
    let first = parse(raw);
    if comsub_ends::suspect(raw) && first.as_ref().map_or(true, |p| cut_short(p, &complete)) {
        if let Some(p) = reread(raw) {
            return Ok(p);
        }
    }
    match first {
        Ok(p) => Ok(p),
        // brush-parser reads a `$( )` in a word as words, and a here-document
        // body in it with a lone `"` never closes: read again with those
        // quotes stood in for (put back before the substitution runs).
        Err(_) if raw.contains("<<") && raw.contains('"') => match heredoc_quotes::hide(raw) {
            Some(hidden) => parse(&hidden).map_err(|_| format!("{raw}: bad substitution")),
            None => Err(format!("{raw}: bad substitution")),
        },
        Err(_) => Err(format!("{raw}: bad substitution")),
    }
}

/// Whether a command substitution among `pieces` is no whole command, or
/// none was read at all (a `(` in a body makes the reader take `$(` as text).
fn cut_short(pieces: &[WordPieceWithSource], complete: &dyn Fn(&str) -> bool) -> bool {
    fn walk(pieces: &[WordPieceWithSource], complete: &dyn Fn(&str) -> bool, seen: &mut bool) -> bool {
        pieces.iter().any(|p| match &p.piece {
            WordPiece::CommandSubstitution(body) => {
                *seen = true;
                !complete(body)
            }
            WordPiece::DoubleQuotedSequence(v) | WordPiece::GettextDoubleQuotedSequence(v) => walk(v, complete, seen),
            _ => false,
        })
    }
    let mut seen = false;
    walk(pieces, complete, &mut seen) || !seen
}

/// Marks a case toggle's pattern (`${x~pat}`, `${x~~pat}`, bash's undocumented
/// operators, which brush-parser does not know) in `${x^pat}` form.
pub(crate) const TOGGLE: char = '\u{1}';

/// Marks `@`/`*` as the subscript of `${!a[@]OP}` (see `mark_toggles_in`).
pub(crate) const ALL_INDICES: char = '\u{3}';

/// The subscripts [`ALL_INDICES`] marked read back as `a[@]`/`a[*]`.
fn unmark_all_indices(pieces: &mut [WordPieceWithSource]) {
    use brush_parser::word::{Parameter, ParameterExpr as P, WordPiece};
    for p in pieces {
        match &mut p.piece {
            WordPiece::DoubleQuotedSequence(v) | WordPiece::GettextDoubleQuotedSequence(v) => unmark_all_indices(v),
            WordPiece::ParameterExpansion(
                P::Parameter { parameter, .. }
                | P::UseDefaultValues { parameter, .. }
                | P::AssignDefaultValues { parameter, .. }
                | P::IndicateErrorIfNullOrUnset { parameter, .. }
                | P::UseAlternativeValue { parameter, .. }
                | P::ParameterLength { parameter, .. }
                | P::RemoveSmallestSuffixPattern { parameter, .. }
                | P::RemoveLargestSuffixPattern { parameter, .. }
                | P::RemoveSmallestPrefixPattern { parameter, .. }
                | P::RemoveLargestPrefixPattern { parameter, .. }
                | P::Substring { parameter, .. }
                | P::Transform { parameter, .. }
                | P::UppercaseFirstChar { parameter, .. }
                | P::UppercasePattern { parameter, .. }
                | P::LowercaseFirstChar { parameter, .. }
                | P::LowercasePattern { parameter, .. }
                | P::ReplaceSubstring { parameter, .. },
            ) => {
                if let Parameter::NamedWithIndex { name, index } = parameter {
                    if let Some(all) = index.strip_prefix(ALL_INDICES) {
                        let concatenate = all == "*";
                        *parameter = Parameter::NamedWithAllIndices { name: std::mem::take(name), concatenate };
                    }
                }
            }
            _ => {}
        }
    }
}

/// `${x~pat}` and `${x~~pat}` rewritten as `${x^\u{1}pat}` and
/// `${x^^\u{1}pat}`, wherever they stand (nested in another operand too);
/// the evaluator toggles for a pattern that starts with [`TOGGLE`]. `${?~}`,
/// `${#~}` and `${-~}` stay: bash calls them bad substitutions.
fn mark_toggles(raw: &str) -> std::borrow::Cow<'_, str> {
    mark_toggles_in(raw, true)
}

/// [`mark_toggles`]; `quotes`: single quotes hide what they hold (not in a
/// here-document body).
fn mark_toggles_in(raw: &str, quotes: bool) -> std::borrow::Cow<'_, str> {
    if !raw.contains("${") || !(raw.contains('~') || raw.contains("${#") || raw.contains("${!")) {
        return std::borrow::Cow::Borrowed(raw);
    }
    let c: Vec<char> = raw.chars().collect();
    let mut out = String::with_capacity(raw.len() + 4);
    let mut single = false;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        out.push(ch);
        i += 1;
        match ch {
            '\\' if !single => {
                if let Some(&n) = c.get(i) {
                    out.push(n);
                    i += 1;
                }
            }
            '\'' if quotes => single = !single,
            '$' if !single && c.get(i) == Some(&'{') => {
                out.push('{');
                i += 1;
                // `${##pat}`, `${#%pat}`: `$#` with a pattern removed, which
                // brush-parser cannot read (with quotes in the pattern, not
                // even as the text `unparsed_expansion` reads); `${##}` is
                // the length of `$#` and `${#%}` a bad substitution.
                if c.get(i) == Some(&'#')
                    && matches!(c.get(i + 1), Some('#' | '%'))
                    && c.get(i + 2).is_some_and(|x| *x != '}')
                {
                    out.push_str(NARGS);
                    i += 1;
                    continue;
                }
                let mut j = i;
                if c.get(j) == Some(&'!') {
                    j += 1;
                }
                let name_start = j;
                if c.get(j).is_some_and(|x| x.is_ascii_alphabetic() || *x == '_') {
                    while c.get(j).is_some_and(|x| x.is_ascii_alphanumeric() || *x == '_') {
                        j += 1;
                    }
                    if c.get(j) == Some(&'[') {
                        match c[j..].iter().position(|&x| x == ']') {
                            Some(k) => j += k + 1,
                            None => continue,
                        }
                    }
                } else if c.get(j).is_some_and(|x| x.is_ascii_digit()) {
                    while c.get(j).is_some_and(|x| x.is_ascii_digit()) {
                        j += 1;
                    }
                } else if c.get(j).is_some_and(|x| matches!(x, '@' | '*' | '$' | '!' | '0')) {
                    j += 1;
                }
                // `${!a[@]OP}`: brush-parser reads `${!a[@]` as the key list
                // and fails on the operator; as `${!a[<mark>@]OP}` it reads a
                // subscript, turned back by `unmark_all_indices`.
                let all_indices = c[i..].first() == Some(&'!')
                    && j >= name_start + 4
                    && c[j - 3] == '['
                    && matches!(c[j - 2], '@' | '*')
                    && c[j - 1] == ']'
                    && c.get(j).is_some_and(|x| *x != '}');
                if all_indices {
                    out.extend(&c[i..j - 2]);
                    out.push(ALL_INDICES);
                    out.extend(&c[j - 2..j]);
                    i = j;
                }
                if j == name_start || c.get(j) != Some(&'~') {
                    continue;
                }
                if !all_indices {
                    out.extend(&c[i..j]);
                }
                let all = c.get(j + 1) == Some(&'~');
                out.push_str(if all { "^^" } else { "^" });
                out.push(TOGGLE);
                i = j + if all { 2 } else { 1 };
            }
            _ => {}
        }
    }
    std::borrow::Cow::Owned(out)
}

/// brush-parser panics on `~N`, `~+N` or `~-N` whose number overflows; bash
/// leaves such a word as written. Those tildes (unquoted, with 20 digits or
/// more) are escaped before parsing, which means the same.
fn guard_tildes(raw: &str) -> std::borrow::Cow<'_, str> {
    if !raw.contains('~') {
        return std::borrow::Cow::Borrowed(raw);
    }
    let b = raw.as_bytes();
    let mut at: Vec<usize> = Vec::new();
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if !single => i += 1,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'~' if !single && !double => {
                let mut j = i + 1;
                if matches!(b.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                let digits = b[j..].iter().take_while(|c| c.is_ascii_digit()).count();
                if digits >= 20 {
                    at.push(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    if at.is_empty() {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len() + at.len());
    let mut last = 0;
    for k in at {
        out.push_str(&raw[last..k]);
        out.push('\\');
        last = k;
    }
    out.push_str(&raw[last..]);
    std::borrow::Cow::Owned(out)
}

/// The pieces of a word (`assignment`: an assignment value, where `~` also
/// expands after `:`), from the parse cache when seen before.
fn word_pieces(raw: &str, assignment: bool) -> Result<Pieces, String> {
    crate::syntax::cache::word(raw, assignment, || {
        let pieces = if assignment {
            let opts = brush_parser::ParserOptions { tilde_expansion_after_colon: true, ..crate::syntax::options() };
            parse_word_with(raw, &opts)?
        } else {
            parse_word(raw)?
        };
        Ok(std::sync::Arc::new(pieces))
    })
}

type Pieces = crate::syntax::cache::Pieces;

/// Whether a parameter expansion piece was written with braces: `$1` is two
/// characters, `${1}` four.
fn raw_text_braced(p: &WordPieceWithSource) -> bool {
    match &p.piece {
        WordPiece::ParameterExpansion(brush_parser::word::ParameterExpr::Parameter {
            parameter: brush_parser::word::Parameter::Positional(n),
            ..
        }) => p.end_index.saturating_sub(p.start_index) != 1 + n.to_string().len(),
        _ => true,
    }
}

/// Expand words into argv: every expansion, splitting and globbing.
pub async fn expand_words(sh: &mut ShellState, fds: &Fds, words: &[&str]) -> Result<Vec<String>, Flow> {
    let mut out = Vec::new();
    for w in words {
        out.extend(expand_word(sh, fds, w).await?);
    }
    Ok(out)
}

/// A word no expansion changes: no quoting, parameter, command, arithmetic,
/// brace or tilde expansion, no glob or extglob character. Most words of a
/// script (`echo`, `-lt`, `1000`) are; they skip the word parser.
fn is_literal(raw: &str) -> bool {
    !raw.is_empty()
        && !raw
            .bytes()
            .any(|b| matches!(b, b'$' | b'`' | b'\\' | b'\'' | b'"' | b'*' | b'?' | b'{' | b'~' | b'(' | b')'))
        // A `[` with no `]` after it opens no bracket expression (the `[` command).
        && raw.find('[').is_none_or(|i| !raw[i..].contains(']'))
}

/// Expand one word into zero or more fields.
pub async fn expand_word(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<Vec<String>, Flow> {
    if is_literal(raw) {
        return Ok(vec![raw.to_string()]);
    }
    if let Some(fields) = lone_parameter(sh, raw) {
        return Ok(fields);
    }
    // Quoted text and parameters (`"%05d:%s"`, `"line $i"`): one field.
    if raw.starts_with(['\'', '"']) {
        if let Some(v) = crate::interp::fast::quoted_operand(sh, raw) {
            return Ok(vec![v.into_owned()]);
        }
    }
    // Apart, so that the futures of commands whose words are literal stay small.
    Box::pin(expand_word_slow(sh, fds, raw)).await
}

/// A word that is only `$name`, `${name}` or `$N`, bare or in double quotes,
/// whose value is a set string: its fields without the word parser, when
/// nothing in the value would split or glob (else `None`, and the general
/// path decides). The commonest argument of a loop's commands (`[ $i -lt`).
fn lone_parameter(sh: &ShellState, raw: &str) -> Option<Vec<String>> {
    let (text, quoted) = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => (inner, true),
        None => (raw, false),
    };
    if !text.starts_with('$') {
        return None;
    }
    // `$#` and `$?` (`[ $# -gt 0 ]` in every option loop): digits, split
    // only by an IFS that holds digits, which the check below sees.
    let counted = match text {
        "$#" => Some(sh.positional.len().to_string()),
        "$?" => Some(sh.last_status.to_string()),
        _ => None,
    };
    let value = match &counted {
        Some(c) => c.as_str(),
        None => crate::interp::fast::parameter(sh, text)?,
    };
    if quoted {
        return Some(vec![value.to_string()]);
    }
    // Unquoted: an empty value is no field; IFS characters split it; glob
    // characters (and a backslash, and extglob's parentheses) make a pattern.
    let ifs = match sh.vars.get("IFS").map(|v| v.value.as_ref()) {
        None => b" \t\n".as_slice(),
        Some(Some(crate::state::Value::Scalar(s))) => s.as_bytes(),
        Some(_) => return None,
    };
    let plain = |b: u8| {
        b.is_ascii()
            && !b.is_ascii_control()
            && !ifs.contains(&b)
            && !matches!(b, b'*' | b'?' | b'[' | b'\\' | b'(' | b')')
    };
    (!value.is_empty() && value.bytes().all(plain)).then(|| vec![value.to_string()])
}

async fn expand_word_slow(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<Vec<String>, Flow> {
    let max_items = sh.budget.limits.max_brace_items;
    let alternatives = if !sh.opts.braceexpand {
        vec![raw.to_string()]
    } else {
        // A sequence or list may make many words: not on a caller's thread.
        if raw.contains('{') && (raw.contains("..") || raw.contains(',')) {
            crate::limits::inline::leave_above(1, 0).await;
        }
        match brace::expand(raw, max_items) {
            Ok(a) => a,
            Err(stop) => return Err(Flow::Stop(stop)),
        }
    };
    let mut out = Vec::new();
    for alt in alternatives {
        // Each alternative may add a word as large as `max_string_bytes`
        // (`${x}{1..100000}`): the memory budget is looked at between them.
        crate::limits::reserve(0).map_err(Flow::Stop)?;
        let fields = expand_to_segs(sh, fds, &alt).await?;
        let ifs = sh.get_var("IFS");
        for field in fields {
            for parts in split::split_within(&sh.budget.limits, field, ifs.as_deref(), out.len())? {
                if let Some(pat) = glob::expand_field(sh, parts, &mut out).await.map_err(Flow::Stop)? {
                    // failglob: the whole command line is abandoned.
                    fds.shell_err(sh.loc(), &format!("no match: {pat}")).await;
                    return Err(if sh.opts.errexit { Flow::Exit(1) } else { Flow::Abort(1) });
                }
            }
        }
        if out.len() as u64 > sh.budget.limits.max_glob_results.max(max_items) {
            return Err(Flow::Stop(crate::limits::Budget::exceeded("max_brace_items", max_items, "word count")));
        }
    }
    Ok(out)
}

/// Expand without splitting or globbing (assignment values, redirect targets,
/// here-strings, `case` words): one string.
pub async fn expand_string(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<String, Flow> {
    if is_literal(raw) {
        return Ok(raw.to_string());
    }
    // `case $1 in`: a set parameter alone is its value (no splitting or
    // globbing here, quoted or not).
    let text = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
    if let Some(value) = crate::interp::fast::parameter(sh, text) {
        return Ok(value.to_string());
    }
    let pieces = match word_pieces(raw, false) {
        Ok(p) => p,
        Err(m) => return Err(fatal(sh.loc(), fds, &m, 1).await),
    };
    let mut f = Fields { join_star: true, ..Fields::default() };
    let r = expand_pieces(sh, fds, &pieces, false, &mut f).await;
    report_bad_subst(sh, fds, raw).await;
    r?;
    join_fields(f.finish())
}

/// Expand an assignment value: like [`expand_string`], but `~` also expands
/// after `:` (`PATH=~/bin:~/sbin`).
pub async fn expand_assignment_value(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<String, Flow> {
    if is_literal(raw) {
        return Ok(raw.to_string());
    }
    let pieces = match word_pieces(raw, true) {
        Ok(p) => p,
        Err(m) => return Err(fatal(sh.loc(), fds, &m, fatal_status(sh)).await),
    };
    let mut f = Fields { join_star: true, ..Fields::default() };
    let r = expand_pieces(sh, fds, &pieces, false, &mut f).await;
    report_bad_subst(sh, fds, raw).await;
    r?;
    join_fields(f.finish())
}

/// Expand as a pattern: `(text, quoted)` parts so quoted characters stay literal.
pub async fn expand_pattern(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<Vec<(String, bool)>, Flow> {
    if is_plain_pattern(raw) {
        return Ok(vec![(raw.to_string(), false)]);
    }
    Box::pin(expand_pattern_slow(sh, fds, raw)).await
}

/// A pattern word with nothing to expand or quote (`-*`, `*.txt`, `[0-9]*`,
/// `@(a|b)`): its text is the pattern, as the word parser would give it.
fn is_plain_pattern(raw: &str) -> bool {
    !raw.is_empty() && !raw.bytes().any(|b| matches!(b, b'$' | b'`' | b'\\' | b'\'' | b'"' | b'~' | b'<' | b'>'))
}

async fn expand_pattern_slow(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<Vec<(String, bool)>, Flow> {
    let fields = expand_to_segs(sh, fds, raw).await?;
    let mut parts = Vec::new();
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            parts.push((" ".to_string(), true));
        }
        parts.extend(f.into_iter().map(|s| (s.text, s.quoted)));
    }
    Ok(parts)
}

/// Expand a here-document body (only `$`, `` ` `` and `\` are special).
pub async fn expand_heredoc(sh: &mut ShellState, fds: &Fds, body: &str) -> Result<String, Flow> {
    let joined;
    let body = if body.contains("\\\n") {
        joined = join_continued_lines(body);
        joined.as_str()
    } else {
        body
    };
    crate::syntax::cost::admit(crate::syntax::cost::of_word(body)).map_err(Flow::Stop)?;
    let marked = mark_toggles_in(body, false);
    let pieces = match word::parse_heredoc(&marked, &crate::syntax::options()) {
        Ok(mut p) => {
            if marked.contains(ALL_INDICES) {
                unmark_all_indices(&mut p);
            }
            p
        }
        Err(_) => return Err(fatal(sh.loc(), fds, &format!("{body}: bad substitution"), fatal_status(sh)).await),
    };
    let mut f = Fields::default();
    let outer = std::mem::replace(&mut sh.in_heredoc, true);
    let r = expand_pieces(sh, fds, &pieces, true, &mut f).await;
    sh.in_heredoc = outer;
    if sh.bad_subst.take().is_some() {
        // A here-document's body is one double-quoted text: bash names it all.
        fds.shell_err(sh.loc(), &format!("{body}: bad substitution")).await;
    }
    r?;
    join_fields(f.finish())
}

/// A backslash-newline in an unquoted here-document is a line continuation:
/// both go (an escaped backslash, `\\\\`, stays with its newline).
fn join_continued_lines(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {}
            Some(n) => {
                out.push(c);
                out.push(n);
            }
            None => out.push(c),
        }
    }
    out
}

/// Join fields where no splitting happens: the breaks come only from `"$@"`
/// style lists, which bash joins with a space there (`"$*"` is joined earlier).
pub(crate) fn join_fields(fields: Vec<Vec<Seg>>) -> Result<String, Flow> {
    // The joined size first: `"${a[@]}"` of a huge array is refused unbuilt.
    let len = fields.iter().map(|f| f.iter().map(|s| s.text.len() as u64).sum::<u64>() + 1).sum::<u64>();
    let limit = string_limit();
    if len.saturating_sub(1) > limit {
        return Err(Flow::Stop(too_long(limit)));
    }
    let mut out = String::new();
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        for s in f {
            out.push_str(&s.text);
        }
    }
    Ok(out)
}

/// Expand one word (after brace expansion) into unsplit fields of segments.
pub async fn expand_to_segs(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<Vec<Vec<Seg>>, Flow> {
    let pieces = match word_pieces(raw, false) {
        Ok(p) => p,
        Err(m) => return Err(fatal(sh.loc(), fds, &m, 1).await),
    };
    let mut f = Fields::default();
    let r = expand_pieces(sh, fds, &pieces, false, &mut f).await;
    report_bad_subst(sh, fds, raw).await;
    r?;
    Ok(f.finish())
}

/// The text of an arithmetic expression expanded as bash expands it: as if
/// in double quotes, with the double quotes themselves removed. Single
/// quotes, `$'...'` and a backslash before an ordinary character stay in the
/// text (and make it a syntax error there, as in bash: `$(( '1' ))`).
pub async fn expand_arith_text(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<String, Flow> {
    let pieces = match word_pieces(raw, false) {
        Ok(p) => p,
        Err(m) => return Err(fatal(sh.loc(), fds, &m, 1).await),
    };
    let quotes =
        |p: &WordPieceWithSource| matches!(p.piece, WordPiece::SingleQuotedText(_) | WordPiece::AnsiCQuotedText(_));
    let kept;
    let pieces: &[WordPieceWithSource] = if pieces.iter().any(quotes) {
        let as_text =
            |p: &WordPieceWithSource, text: String| WordPieceWithSource { piece: WordPiece::Text(text), ..p.clone() };
        kept = pieces
            .iter()
            .map(|p| match &p.piece {
                WordPiece::SingleQuotedText(t) => as_text(p, format!("'{t}'")),
                WordPiece::AnsiCQuotedText(t) => as_text(p, format!("'{}'", ansi_c::decode(t))),
                _ => p.clone(),
            })
            .collect::<Vec<_>>();
        &kept
    } else {
        &pieces
    };
    let mut f = Fields::default();
    let r = expand_pieces(sh, fds, pieces, true, &mut f).await;
    report_bad_subst(sh, fds, raw).await;
    r?;
    Ok(f.finish().into_iter().flatten().map(|s| s.text).collect())
}

/// bash names a `${...}` it cannot read by the text it was expanding: the
/// double-quoted string around it, else the whole word (`a${x!}b`).
pub(super) async fn report_bad_subst(sh: &mut ShellState, fds: &Fds, raw: &str) {
    if let Some(body) = sh.bad_subst.take() {
        let text = bad_subst_context(raw, &body);
        // bash's parser has already made `$'...'` a single-quoted string.
        let whole_word = text.len() == raw.len();
        let text = if whole_word && text.contains("$'") {
            std::borrow::Cow::Owned(crate::interp::print_cmd::ansi_c_to_single(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        fds.shell_err(sh.loc(), &format!("{text}: bad substitution")).await;
    }
}

/// See [`report_bad_subst`]: the double-quoted text of `raw` that holds
/// `body`, or `raw` itself.
fn bad_subst_context<'a>(raw: &'a str, body: &'a str) -> &'a str {
    let Some(at) = raw.find(body) else { return body };
    let b = raw.as_bytes();
    let (mut i, mut open) = (0, None);
    while i < at {
        match (b[i], open) {
            (b'\\', _) => i += 1,
            (b'\'', None) => i += raw[i + 1..].find('\'').map_or(raw.len(), |j| j + 1),
            (b'"', None) => open = Some(i + 1),
            (b'"', Some(_)) => open = None,
            _ => {}
        }
        i += 1;
    }
    match open {
        Some(start) => {
            let mut j = at + body.len();
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            &raw[start..j.min(raw.len())]
        }
        None => raw,
    }
}

/// Expand parsed pieces into `out`. Boxed: it recurses through double quotes,
/// `${x:-word}` and command substitution.
pub fn expand_pieces<'a>(
    sh: &'a mut ShellState,
    fds: &'a Fds,
    pieces: &'a [WordPieceWithSource],
    quoted: bool,
    out: &'a mut Fields,
) -> BoxFuture<'a, Result<(), Flow>> {
    let f = async move {
        // Bytes of the next text piece already consumed by an expansion that
        // brush-parser left as text (see `unparsed_expansion`).
        let mut skip = 0usize;
        for (idx, p) in pieces.iter().enumerate() {
            match &p.piece {
                WordPiece::Text(t) => {
                    let t = &t[std::mem::take(&mut skip).min(t.len())..];
                    // brush-parser leaves a `${...}` it cannot read as the texts "$" and "{...".
                    if let Some(head) = t.strip_suffix('$') {
                        if let Some(WordPiece::Text(next)) = pieces.get(idx + 1).map(|p| &p.piece) {
                            if next.starts_with('{') {
                                let body = next.find('}').map_or(next.as_str(), |j| &next[..=j]);
                                if let Some(word) = unparsed_expansion(body) {
                                    out.push(head, quoted, false)?;
                                    Box::pin(expand_unparsed(sh, fds, &word, quoted, out)).await?;
                                    skip = body.len();
                                    continue;
                                }
                                // An unknown `@` transformation ends the shell (127 for
                                // `-c`); other text bash cannot read abandons the line.
                                // The word's caller names the text (`report_bad_subst`).
                                sh.bad_subst = Some(format!("${body}"));
                                return Err(if is_transform(body) {
                                    Flow::Exit(fatal_status(sh))
                                } else {
                                    Flow::Abort(1)
                                });
                            }
                        }
                    }
                    out.push(t, quoted, false)?
                }
                WordPiece::SingleQuotedText(t) => out.push(t.clone(), true, false)?,
                WordPiece::AnsiCQuotedText(t) => out.push(ansi_c::decode(t), true, false)?,
                WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    // An empty "" still makes a (quoted, empty) field, but an
                    // empty "$@" makes none.
                    let (done, cur) = (out.done.len(), out.cur.len());
                    let saw = std::mem::replace(&mut out.saw_list, false);
                    expand_pieces(sh, fds, inner, true, out).await?;
                    if out.done.len() == done && out.cur.len() == cur && !out.saw_list {
                        out.push("", true, false)?;
                    }
                    out.saw_list |= saw;
                }
                WordPiece::EscapeSequence(e) => {
                    let lit = if quoted {
                        // Inside double quotes only \$ \` \" \\ (and newline) lose the backslash.
                        match e.as_str() {
                            "\\$" | "\\`" | "\\\"" | "\\\\" => e[1..].to_string(),
                            "\\\n" => String::new(),
                            other => other.to_string(),
                        }
                    } else if e == "\\\n" {
                        String::new()
                    } else {
                        e.chars().skip(1).collect()
                    };
                    out.push(lit, true, false)?;
                }
                WordPiece::TildeExpansion(t) => {
                    let s = param::tilde(sh, t);
                    out.push(s, true, false)?;
                }
                WordPiece::ParameterExpansion(expr) => {
                    let bare = !raw_text_braced(p);
                    // Boxed, as the other expansions: inline, each made this
                    // future twice its size, and it is copied whole per word.
                    Box::pin(param::expand(sh, fds, expr, quoted, out, bare)).await?
                }
                WordPiece::CommandSubstitution(src) => {
                    let src = comsub_ends::restore(src);
                    let src = heredoc_quotes::restore(&src);
                    let src = if quoted { Cow::Owned(dq_comsub_text(&src).into_owned()) } else { src };
                    let s = Box::pin(crate::interp::command_substitution(sh, fds, &src)).await?;
                    out.push(s, quoted, !quoted)?;
                }
                WordPiece::BackquotedCommandSubstitution(src) => {
                    let src = unescape_backquoted(src, quoted && !sh.in_heredoc);
                    let s = Box::pin(crate::interp::command_substitution(sh, fds, &src)).await?;
                    out.push(s, quoted, !quoted)?;
                }
                WordPiece::ArithmeticExpression(e) => {
                    let v = Box::pin(arith::eval_text(sh, fds, &e.value)).await?;
                    out.push(v.to_string(), quoted, !quoted)?;
                }
            }
        }
        Ok(())
    };
    Box::pin(crate::interp::GrowStack(Box::pin(f)))
}

/// Name of the temporary variable that stands for `$#` in `${##pat}`.
pub(crate) const NARGS: &str = "__sandbash_nargs__";

/// A `${...}` that brush-parser cannot read but bash can, rewritten as one it
/// reads: `${x~}`/`${x~~pat}` (case toggle) as `${x^}`/`${x^^pat}` (expanded
/// by `expand_unparsed` with toggling), and `${##pat}`, `${#@Q}` (operators on
/// `$#`) on a temporary variable. `body` is `{...}`.
fn unparsed_expansion(body: &str) -> Option<String> {
    let inner = body.strip_prefix('{')?.strip_suffix('}')?;
    // `${!}` is `$!`.
    if inner == "!" {
        return Some("$!".into());
    }
    if let Some(rest) = inner.strip_prefix('#') {
        if (rest.starts_with('#') || rest.starts_with('@')) && rest.len() > 1 {
            return Some(format!("${{{NARGS}{rest}}}"));
        }
        return None;
    }
    // The parameter: a name (with a subscript), a number, or a special one.
    let name_end = if inner.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let n = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
        if inner[n..].starts_with('[') {
            n + inner[n..].find(']')? + 1
        } else {
            n
        }
    } else if inner.starts_with(|c: char| c.is_ascii_digit()) {
        inner.find(|c: char| !c.is_ascii_digit()).unwrap_or(inner.len())
    } else if inner.starts_with(['@', '*', '#', '?', '-', '$', '!', '0']) {
        1
    } else {
        return None;
    };
    let (param, op) = inner.split_at(name_end);
    // bash reads `${?~}`, `${#~~}` and `${-~}` as bad substitutions.
    if matches!(param, "?" | "#" | "-") {
        return None;
    }
    if let Some(pat) = op.strip_prefix("~~") {
        Some(format!("${{{param}^^{pat}}}\u{1}"))
    } else {
        op.strip_prefix('~').map(|pat| format!("${{{param}^{pat}}}\u{1}"))
    }
}

/// Expand a word from `unparsed_expansion`: a trailing `\u{1}` asks for the
/// case toggle; `$#` is bound to its temporary name around the expansion.
async fn expand_unparsed(
    sh: &mut ShellState,
    fds: &Fds,
    word: &str,
    quoted: bool,
    out: &mut Fields,
) -> Result<(), Flow> {
    let (word, toggle) = match word.strip_suffix('\u{1}') {
        Some(w) => (w, true),
        None => (word, false),
    };
    let pieces = parse_word(word).map_err(|_| Flow::Abort(1))?;
    let nargs = word.contains(NARGS);
    if nargs {
        let n = sh.positional.len().to_string();
        let _ = sh.set_var(NARGS, n);
    }
    let res = match pieces.first().map(|p| &p.piece) {
        Some(WordPiece::ParameterExpansion(
            brush_parser::word::ParameterExpr::UppercasePattern { parameter, indirect, pattern }
            | brush_parser::word::ParameterExpr::UppercaseFirstChar { parameter, indirect, pattern },
        )) if toggle && pieces.len() == 1 => {
            let all = word.contains("^^");
            param::case_modify(sh, fds, parameter, *indirect, pattern, None, all, quoted, out).await
        }
        _ => expand_pieces(sh, fds, &pieces, quoted, out).await,
    };
    if nargs {
        let _ = sh.vars.unset(NARGS);
    }
    res
}

/// Whether `{name@op}` (or `{name[sub]@op}`) names a transformation.
fn is_transform(body: &str) -> bool {
    let inner = body.trim_start_matches('{').trim_end_matches('}');
    // The `@` after a subscript, if any.
    let after_sub = inner.find(']').map_or(0, |i| i + 1);
    let Some(at) = inner[after_sub..].find('@').map(|i| i + after_sub) else { return false };
    let name = &inner[..at];
    let name = name.split_once('[').map_or(name, |(n, rest)| if rest.ends_with(']') { n } else { "" });
    crate::builtins::valid_name(name)
        || matches!(name, "@" | "*")
        || (!name.is_empty() && name.chars().all(|c| c.is_ascii_digit()))
}

/// The text of a `$( )` inside double quotes as bash reads it: a `$'...'` in a
/// `${...}` operand is decoded in place without its quotes (bash's reader
/// applies the double-quote rule for `${...}` to it), so its result is split
/// and globbed: `"$(echo ${x-$'a  b'})"` prints `a b`.
fn dq_comsub_text(src: &str) -> Cow<'_, str> {
    if !src.contains("$'") || !src.contains("${") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    // Depth of `${` open; where the text not yet copied starts.
    let (mut depth, mut from, mut i) = (0usize, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'$' if b.get(i + 1) == Some(&b'{') => {
                depth += 1;
                i += 1;
            }
            b'}' if depth > 0 => depth -= 1,
            b'$' if depth > 0 && b.get(i + 1) == Some(&b'\'') => {
                // The closing quote: the first one not escaped by a backslash.
                let mut j = i + 2;
                while j < b.len() && b[j] != b'\'' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j >= b.len() {
                    break;
                }
                out.push_str(&src[from..i]);
                out.push_str(&ansi_c::decode(&src[i + 2..j]));
                from = j + 1;
                i = j;
            }
            b'\'' if depth == 0 => match src[i + 1..].find('\'') {
                Some(k) => i += k + 1,
                None => break,
            },
            _ => {}
        }
        i += 1;
    }
    if from == 0 {
        return Cow::Borrowed(src);
    }
    out.push_str(&src[from..]);
    Cow::Owned(out)
}

/// Inside backquotes, `\\`, `` \` `` and `\$` stand for the bare character.
/// (Inside double quotes `\"` stands for `"` too.)
fn unescape_backquoted(s: &str, double_quoted: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if matches!(n, '\\' | '$' | '`') || (double_quoted && n == '"') {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}
