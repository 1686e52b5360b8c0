//! `echo` on plain operands (see [`super::plain_builtins::operand`]) to an
//! output that never waits (the exec's capture, a `$( )`, `/dev/null`):
//! written at once. It declines, having changed nothing, when an operand
//! may be an option (a leading `-`), `xpg_echo` is on, or the output is a
//! pipe, a file, or full.

use super::plain_builtins::operand;
use super::{begin_simple, simple, Ran};
use crate::interp::{Fds, Flow};
use crate::state::ShellState;
use brush_parser::ast::{self, CommandPrefixOrSuffixItem as Item};

/// Operands taken here, at most.
const MAX_OPERANDS: usize = 16;

pub fn echo(sh: &mut ShellState, c: &ast::SimpleCommand, fds: &Fds) -> Result<Option<Ran>, Flow> {
    if c.prefix.is_some() || sh.vars.has_refs() || sh.opts.xpg_echo || !sh.commands.runs_builtin(sh, "echo") {
        return Ok(None);
    }
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if items.len() > MAX_OPERANDS {
        return Ok(None);
    }
    let src = sh.src.clone();
    let mut out: Vec<u8> = Vec::new();
    let mut last = String::new();
    for (k, it) in items.iter().enumerate() {
        let Item::Word(w) = it else {
            return Ok(None);
        };
        let raw = src.word(w);
        let Some(v) = operand(sh, &raw) else {
            return Ok(None);
        };
        if k == 0 && v.starts_with('-') {
            return Ok(None);
        }
        if k > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(v.as_bytes());
        if k + 1 == items.len() {
            last = v.into_owned();
        }
    }
    out.push(b'\n');
    let data = crate::raw_bytes::encode_vec(out);
    let yield_due = sh.budget.tick_short_command()?;
    if fds.stdout.write_now(&data).is_none() {
        sh.budget.untick_command();
        return Ok(None);
    }
    begin_simple(sh, c);
    simple::set_last_arg(sh, if items.is_empty() { "echo".to_string() } else { last });
    Ok(Some(Ran { status: 0, yield_due }))
}
