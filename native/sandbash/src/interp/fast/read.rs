//! `read [-r] [name ...]` of a line that is there to take without waiting
//! (a file redirected into a `while read` loop): the line is split and
//! assigned as the builtin does (`builtins::read`'s own functions), when
//! every name is a plain variable the assignment cannot refuse. Anything
//! else (other options, end of input, a line ending in a backslash, a
//! pipe still to fill) declines before the input is touched.

use super::{begin_simple, simple, Ran};
use crate::builtins::read::{fields_for, line_chars, text};
use crate::interp::{Fds, Flow};
use crate::state::{ShellState, Value};
use brush_parser::ast::{self, CommandPrefixOrSuffixItem as Item};

/// Names taken here, at most.
const MAX_NAMES: usize = 8;

pub fn read(sh: &mut ShellState, c: &ast::SimpleCommand, fds: &Fds) -> Result<Option<Ran>, Flow> {
    if c.prefix.is_some() || sh.vars.has_refs() || sh.opts.allexport || !sh.commands.runs_builtin(sh, "read") {
        return Ok(None);
    }
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if items.len() > MAX_NAMES + 1 {
        return Ok(None);
    }
    let src = sh.src.clone();
    let mut raw = false;
    let mut names: Vec<&str> = Vec::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        let Item::Word(w) = it else {
            return Ok(None);
        };
        let std::borrow::Cow::Borrowed(word) = src.word(w) else {
            return Ok(None);
        };
        if i == 0 && word == "-r" {
            raw = true;
        } else if plain_target(sh, word) {
            names.push(word);
        } else {
            return Ok(None);
        }
    }
    let max = sh.budget.limits.max_string_bytes as usize;
    // A line ending in a backslash continues on the next one (without -r).
    let Some(mut line) = fds.stdin.try_read_line(b'\n', max, |l| raw || !l.ends_with(b"\\\n")) else {
        return Ok(None);
    };
    line.pop();
    let mut chars = Vec::new();
    line_chars(&crate::raw_bytes::decode_vec(line), raw, &mut chars);
    let yield_due = sh.budget.tick_short_command()?;
    begin_simple(sh, c);
    if names.is_empty() {
        set(sh, "REPLY", text(&chars));
    } else {
        let ifs = sh.get_var("IFS").unwrap_or_else(|| " \t\n".into());
        for (name, v) in names.iter().zip(fields_for(names.len(), &chars, &ifs)) {
            set(sh, name, v);
        }
    }
    let last = match (names.last(), raw) {
        (Some(n), _) => n.to_string(),
        (None, true) => "-r".to_string(),
        (None, false) => "read".to_string(),
    };
    simple::set_last_arg(sh, last);
    Ok(Some(Ran { status: 0, yield_due }))
}

/// A name `read` assigns as a plain string: lower case or `REPLY`, no
/// attributes, not an array, not computed by the shell.
fn plain_target(sh: &ShellState, name: &str) -> bool {
    let b = name.as_bytes();
    let lower = matches!(b.first(), Some(c) if c.is_ascii_lowercase())
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    if !(lower || name == "REPLY") || sh.vars.computed(name) || sh.is_computed_readonly(name) {
        return false;
    }
    match sh.vars.get(name) {
        None => true,
        Some(v) => {
            !(v.readonly || v.integer || v.nameref || v.case.is_some() || v.exported)
                && matches!(v.value, None | Some(Value::Scalar(_)))
        }
    }
}

/// Store a value checked by [`plain_target`].
fn set(sh: &mut ShellState, name: &str, v: String) {
    sh.vars.entry(name).value = Some(Value::Scalar(v));
}
