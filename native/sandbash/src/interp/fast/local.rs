//! `local name=value ...` inside a function, run at once when every operand
//! is a bare name or `name=value` with a value that needs no word machinery
//! (a literal, quoted text, one parameter), and no name is one whose `local`
//! does more than make a plain variable: an existing local with attributes,
//! a readonly or shell-computed name, an upper-case name (the shell's own
//! variables are all upper case: IFS, OPTIND, SECONDS, ...). Recursive
//! functions run `local` on every call; the general path expands each word
//! and parses declare's options for it.

use super::{begin_simple, simple, Ran};
use crate::interp::Flow;
use crate::state::{ShellState, Value};
use brush_parser::ast::{self, CommandPrefixOrSuffixItem as Item};
use std::borrow::Cow;

/// Operands taken here, at most.
const MAX_OPERANDS: usize = 8;

pub fn local(sh: &mut ShellState, c: &ast::SimpleCommand) -> Result<Option<Ran>, Flow> {
    if c.prefix.is_some() || !sh.vars.in_function() || sh.vars.has_refs() || sh.opts.allexport {
        return Ok(None);
    }
    if !sh.commands.runs_builtin(sh, "local") {
        return Ok(None);
    }
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if items.is_empty() || items.len() > MAX_OPERANDS {
        return Ok(None);
    }
    let src = sh.src.clone();
    let limit = sh.budget.limits.max_string_bytes;
    let mut ops: Vec<(&str, Option<Cow<str>>)> = Vec::with_capacity(items.len());
    for it in items {
        let w = match it {
            Item::Word(w) | Item::AssignmentWord(_, w) => w,
            _ => return Ok(None),
        };
        let raw = match src.word(w) {
            Cow::Borrowed(r) => r,
            Cow::Owned(_) => return Ok(None),
        };
        let (name, value) = match raw.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (raw, None),
        };
        if !plain_name(name) || !fresh_or_plain(sh, name) {
            return Ok(None);
        }
        // An assignment's value is neither split nor globbed.
        let value = match value {
            None => None,
            Some("") => Some(Cow::Borrowed("")),
            Some(v) => match super::unsplit_word(sh, v) {
                Some(x) => Some(Cow::Owned(x.into_owned())),
                None => return Ok(None),
            },
        };
        if value.as_ref().is_some_and(|v| v.len() as u64 > limit) {
            return Ok(None);
        }
        ops.push((name, value));
    }
    let yield_due = sh.budget.tick_short_command()?;
    begin_simple(sh, c);
    let n = ops.len();
    for (i, (name, value)) in ops.into_iter().enumerate() {
        if i + 1 == n {
            // `$_` is the last operand as written out (never a name made
            // local here: those start lower case).
            match &value {
                Some(v) => simple::set_last_arg_parts(sh, &[name, "=", v]),
                None => simple::set_last_arg_parts(sh, &[name]),
            }
        }
        let var = sh.vars.declare_local(name);
        if let Some(v) = value {
            // Checked above: a plain variable takes any value as it is.
            var.value = Some(Value::Scalar(v.into_owned()));
        }
    }
    Ok(Some(Ran { status: 0, yield_due }))
}

/// A name `local` makes a plain variable of: lower case first, then word
/// characters (never `_` alone).
fn plain_name(name: &str) -> bool {
    let b = name.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_lowercase()) && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Whether `local name` makes or keeps a plain scalar: no local of that
/// name yet (and no readonly global or computed array), or a local without
/// attributes holding a scalar or nothing.
fn fresh_or_plain(sh: &ShellState, name: &str) -> bool {
    if sh.vars.is_local_here(name) {
        return sh.vars.get_raw(name).is_some_and(|v| {
            !(v.readonly || v.integer || v.nameref || v.trace || v.case.is_some())
                && matches!(v.value, None | Some(Value::Scalar(_)))
        });
    }
    !sh.vars.global_readonly(name) && !sh.vars.computed(name)
}
