//! Alias expansion (`shopt -s expand_aliases`). bash expands aliases as it
//! reads each command, so an alias applies from the next complete command (the
//! next line) on. Here the text of each complete command is scanned for words
//! in command position that name an alias; when one does, the command is
//! re-parsed with the aliases substituted.

use crate::state::source::Source;
use crate::state::ShellState;
use brush_parser::ast::{self, SourceLocation};
use brush_parser::Token;
use std::collections::BTreeMap;

/// How deep alias values may nest in each other (bash stops at a loop; this
/// also bounds pathological chains).
const MAX_DEPTH: usize = 64;

/// Whether alias expansion changes complete command `i` of `program` (the
/// script is then read command by command from there, see `interp::reader`).
pub fn changes(sh: &ShellState, program: &ast::Program, i: usize) -> bool {
    if !sh.opts.expand_aliases || sh.aliases.is_empty() {
        return false;
    }
    let Some(from) = command_start(&sh.src, program, i) else { return false };
    let end = command_start(&sh.src, program, i + 1).unwrap_or_else(|| sh.src.char_len());
    sh.src.slice(from, end).is_some_and(|text| expand_text(text, &sh.aliases, &mut Walk::new()).is_some())
}

/// Where complete command `i` starts (char index), its `function` keyword included.
pub fn command_start(src: &Source, program: &ast::Program, i: usize) -> Option<usize> {
    let start = program.complete_commands.get(i)?.location()?.start.index;
    Some(with_function_keyword(src, start))
}

/// brush-parser starts a `function name ...` definition at its name: the
/// start (char index) of the command at `start` with the keyword.
pub fn with_function_keyword(src: &Source, start: usize) -> usize {
    // The keyword and its blanks sit within a few chars before the name.
    let from = start.saturating_sub(32);
    let Some(before) = src.slice(from, start) else { return start };
    let Some(rest) = before.trim_end_matches([' ', '\t']).strip_suffix("function") else { return start };
    let bounded = match rest.chars().last() {
        None => from == 0,
        Some(c) => matches!(c, ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | '{'),
    };
    if bounded {
        from + rest.chars().count()
    } else {
        start
    }
}

/// Where the scanner is in bash's grammar.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    /// After `case`: the subject word.
    Subject,
    /// After the subject: `in`.
    In,
    /// Reading patterns up to `)`.
    Pattern,
    /// In an arm's commands.
    Body,
}

/// Reserved words after which a command starts.
fn opens_command(w: &str) -> bool {
    matches!(w, "if" | "then" | "else" | "elif" | "do" | "while" | "until" | "!" | "time" | "{")
}

/// Whether the word after an alias value is in command position: the value
/// is empty or ends with a word that opens a command or a list operator.
fn ends_open(value: &str) -> bool {
    let v = value.trim_end_matches([' ', '\t']);
    if v.is_empty() || v.ends_with([';', '|', '&', '(', '\n']) {
        return true;
    }
    let last = v.rsplit([' ', '\t', ';', '|', '&', '(', '\n']).next().unwrap_or("");
    opens_command(last)
}

/// `NAME=...`, `NAME+=...`, `NAME[...]=...`
fn is_assignment(w: &str) -> bool {
    let Some(eq) = w.find('=') else { return false };
    let name = w[..eq].strip_suffix('+').unwrap_or(&w[..eq]);
    let name = match name.split_once('[') {
        Some((n, rest)) if rest.ends_with(']') => n,
        Some(_) => return false,
        None => name,
    };
    crate::builtins::valid_name(name)
}

/// Bytes one expansion of a text's aliases may make outside an exec (inside
/// one, `max_string_bytes`): bash expands them lazily, as it reads, but here
/// a text is expanded whole, and aliases whose values name other aliases
/// several times would grow it exponentially.
const MAX_EXPANSION: u64 = 10 << 20;

/// An expansion in progress.
struct Walk {
    /// The aliases being expanded (an alias is not expanded inside its own value).
    active: Vec<String>,
    /// Bytes the values substituted so far may still grow to.
    room: u64,
    limit: u64,
}

impl Walk {
    fn new() -> Self {
        let limit = crate::limits::scope::with_budget(|b| b.limits.max_string_bytes).unwrap_or(MAX_EXPANSION);
        Walk { active: Vec::new(), room: limit, limit }
    }
}

/// `text` with the aliases of its command words substituted; `None` when
/// nothing changes.
fn expand_text(text: &str, aliases: &BTreeMap<String, String>, walk: &mut Walk) -> Option<String> {
    expand_edits(text, aliases, walk).map(|(out, _)| out)
}

/// One substitution: bytes `raw` of the text became bytes `out` of the result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edit {
    pub raw: (usize, usize),
    pub out: (usize, usize),
}

/// [`expand_text`] of a whole text, with where each substitution went (for
/// [`raw_offset`]); `None` when nothing changes.
pub fn expand_mapped(text: &str, aliases: &BTreeMap<String, String>) -> Option<(String, Vec<Edit>)> {
    expand_edits(text, aliases, &mut Walk::new())
}

/// The byte of the original text that byte `out` of an expansion stands
/// for: inside a substituted value, the end of the word it replaced.
pub fn raw_offset(edits: &[Edit], out: usize) -> usize {
    let mut delta: isize = 0;
    for e in edits {
        if out < e.out.1 {
            if out <= e.out.0 {
                break;
            }
            return e.raw.1;
        }
        delta = e.raw.1 as isize - e.out.1 as isize;
    }
    out.saturating_add_signed(delta)
}

fn expand_edits(text: &str, aliases: &BTreeMap<String, String>, walk: &mut Walk) -> Option<(String, Vec<Edit>)> {
    if walk.active.len() > MAX_DEPTH {
        return None;
    }
    crate::syntax::cost::admit_or_stop(crate::syntax::cost::of_program(text)).ok()?;
    let toks = brush_parser::uncached_tokenize_str(text, &crate::syntax::options().tokenizer_options()).ok()?;
    // Replacements as (start char, end char, text).
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut cmd_start = true;
    let mut check_next = false;
    let mut after_redirect = false;
    let mut header = false;
    let mut skip_name = false;
    // A function's header: after `name` in command position or `function
    // name`, its `()` ends with the body's first word in command position.
    let mut fn_name = false;
    let mut fn_parens = false;
    let mut cases: Vec<Case> = Vec::new();
    for t in &toks {
        let was_fn_name = std::mem::take(&mut fn_name);
        match t {
            Token::Operator(op, _) => {
                let op = op.as_str();
                check_next = false;
                if was_fn_name && op == "(" {
                    fn_parens = true;
                    continue;
                }
                if std::mem::take(&mut fn_parens) && op == ")" {
                    cmd_start = true;
                    continue;
                }
                if matches!(op, "<" | ">" | ">>" | "<<" | "<<-" | "<<<" | ">&" | "<&" | "<>" | ">|" | "&>" | "&>>") {
                    after_redirect = true;
                    continue;
                }
                match cases.last().copied() {
                    Some(Case::Pattern) if op == ")" => {
                        *cases.last_mut().unwrap_or(&mut Case::Body) = Case::Body;
                        cmd_start = true;
                        continue;
                    }
                    Some(Case::Pattern) => continue,
                    Some(Case::Body) if matches!(op, ";;" | ";&" | ";;&") => {
                        *cases.last_mut().unwrap_or(&mut Case::Body) = Case::Pattern;
                        cmd_start = false;
                        continue;
                    }
                    _ => {}
                }
                if header && matches!(op, ";" | "\n") {
                    continue;
                }
                cmd_start = matches!(op, ";" | "\n" | "&" | "&&" | "||" | "|" | "|&" | "(" | ";;");
            }
            Token::Word(w, loc) => {
                if after_redirect {
                    after_redirect = false;
                    continue;
                }
                if skip_name {
                    // `function name`: the body (or `()`) follows.
                    skip_name = false;
                    fn_name = true;
                    cmd_start = true;
                    continue;
                }
                match cases.last().copied() {
                    Some(Case::Subject) => {
                        *cases.last_mut().unwrap_or(&mut Case::Body) = Case::In;
                        continue;
                    }
                    Some(Case::In) => {
                        *cases.last_mut().unwrap_or(&mut Case::Body) = Case::Pattern;
                        continue;
                    }
                    Some(Case::Pattern) => {
                        if w == "esac" {
                            cases.pop();
                            cmd_start = false;
                        }
                        continue;
                    }
                    _ => {}
                }
                if header {
                    if w == "do" {
                        header = false;
                        cmd_start = true;
                    }
                    continue;
                }
                if !(cmd_start || check_next) {
                    continue;
                }
                let was_cmd_start = cmd_start;
                check_next = false;
                if was_cmd_start {
                    match w.as_str() {
                        "for" | "select" => {
                            header = true;
                            cmd_start = false;
                            continue;
                        }
                        "case" => {
                            cases.push(Case::Subject);
                            cmd_start = false;
                            continue;
                        }
                        "esac" => {
                            cases.pop();
                            cmd_start = false;
                            continue;
                        }
                        "function" => {
                            skip_name = true;
                            cmd_start = false;
                            continue;
                        }
                        "fi" | "done" | "}" => {
                            cmd_start = false;
                            continue;
                        }
                        w if opens_command(w) => continue,
                        w if is_assignment(w) => continue,
                        _ => {}
                    }
                }
                cmd_start = false;
                let Some(value) = aliases.get(w.as_str()) else {
                    fn_name = was_cmd_start;
                    continue;
                };
                if walk.active.iter().any(|a| a == w) {
                    continue;
                }
                walk.active.push(w.clone());
                let inner = expand_text(value, aliases, walk).unwrap_or_else(|| value.clone());
                walk.active.pop();
                let Some(room) = walk.room.checked_sub(inner.len() as u64) else {
                    let stop = crate::limits::Budget::exceeded("max_string_bytes", walk.limit, "alias expansion");
                    crate::limits::scope::stop_exec(stop);
                    return None;
                };
                walk.room = room;
                check_next = value.ends_with([' ', '\t']);
                // A value ending in a reserved word or an operator (`if`,
                // `{`, `a |`) leaves the next word in command position.
                cmd_start = ends_open(value);
                edits.push((loc.start.index, loc.end.index, inner));
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|e| e.0);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte = |ci: usize| chars.get(ci).map_or(text.len(), |(b, _)| *b);
    let mut out = String::with_capacity(text.len() + 16);
    let mut map = Vec::with_capacity(edits.len());
    let mut at = 0;
    for (s, e, rep) in edits {
        let (bs, be) = (byte(s), byte(e));
        if bs < at {
            continue;
        }
        out.push_str(&text[at..bs]);
        let os = out.len();
        out.push_str(&rep);
        map.push(Edit { raw: (bs, be), out: (os, out.len()) });
        at = be;
    }
    out.push_str(&text[at..]);
    Some((out, map))
}

/// Quote an alias value as `alias` prints it.
pub fn quote(v: &str) -> String {
    format!("'{}'", v.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(text: &str, defs: &[(&str, &str)]) -> Option<String> {
        let m: BTreeMap<String, String> = defs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        expand_text(text, &m, &mut Walk::new())
    }

    #[test]
    fn command_words_only() {
        let d = [("e", "echo")];
        assert_eq!(exp("e e; x=1 e 'e' | e\n", &d).as_deref(), Some("echo e; x=1 echo 'e' | echo\n"));
        assert_eq!(exp("for e in e; do e; done", &d).as_deref(), Some("for e in e; do echo; done"));
        assert_eq!(exp("case e in e) e;; esac", &d).as_deref(), Some("case e in e) echo;; esac"));
        assert_eq!(exp("echo e \"e\" >e", &d), None);
    }

    #[test]
    fn a_value_ending_open_leaves_a_command_position() {
        let d = [("myif", "if"), ("t", "true"), ("p", "echo a |"), ("e", "echo")];
        assert_eq!(exp("myif t; then e; fi", &d).as_deref(), Some("if true; then echo; fi"));
        assert_eq!(exp("p e", &d).as_deref(), Some("echo a | echo"));
        assert_eq!(exp("e t", &d).as_deref(), Some("echo t"));
    }

    #[test]
    fn function_bodies_are_command_positions() {
        let d = [("e", "echo")];
        assert_eq!(exp("f() { e x; }", &d).as_deref(), Some("f() { echo x; }"));
        assert_eq!(exp("f ( ) ( e x )", &d).as_deref(), Some("f ( ) ( echo x )"));
        assert_eq!(exp("function g { e x; }", &d).as_deref(), Some("function g { echo x; }"));
        assert_eq!(exp("function g() { e x; }", &d).as_deref(), Some("function g() { echo x; }"));
        assert_eq!(exp("f()\n{\n e x\n}", &d).as_deref(), Some("f()\n{\n echo x\n}"));
        // Not a header: `{` as an argument, `e` after it an argument too.
        assert_eq!(exp("echo { e", &d), None);
    }

    #[test]
    fn recursion_stops_at_self_and_trailing_blank_expands_next() {
        let d = [("a", "b x"), ("b", "a y"), ("c", "echo ")];
        assert_eq!(exp("a", &d).as_deref(), Some("a y x"));
        assert_eq!(exp("c a", &d).as_deref(), Some("echo  a y x"));
    }
}
