//! A function called with arguments that need no word machinery (`f $i`,
//! `f "$x" 3`, `f "$@"`, `f $((n - 1))`): the arguments are taken as they are and the call
//! skips the general simple-command path (pipeline, word expansion, lookup),
//! which is most of what a call in a tight loop costs. Everything else the
//! general path does around a call is done the same way here.

use super::{plain_builtins::operand, plain_builtins::splits, simple};
use crate::interp::{stack, Fds, Res};
use crate::state::{Function, ShellState};
use brush_parser::ast::{self, CommandPrefixOrSuffixItem as Item};
use std::sync::Arc;

/// Arguments taken here, at most; a longer call runs the general way.
const MAX_ARGS: usize = 16;

/// The function `c` calls and its arguments, when it is such a call.
pub fn function_call(sh: &mut ShellState, c: &ast::SimpleCommand) -> Option<(Arc<Function>, Vec<String>)> {
    if !sh.traps.is_empty() || sh.opts.xtrace || c.prefix.is_some() || sh.vars.has_refs() {
        return None;
    }
    let name = &c.word_or_name.as_ref()?.value;
    // A name written plainly (`%1` is `fg %1` to bash, before any lookup).
    if name.starts_with('%') || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.:".contains(&b)) {
        return None;
    }
    let f = sh.funcs.get(name.as_str())?.clone();
    if crate::limits::inline::slice_spent(&sh.budget) {
        return None;
    }
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if items.len() > MAX_ARGS {
        return None;
    }
    let src = sh.src.clone();
    let mut args = Vec::with_capacity(items.len());
    for it in items {
        let Item::Word(w) = it else {
            return None;
        };
        let raw = src.word(w);
        if raw == "\"$@\"" {
            args.extend(sh.positional.iter().cloned());
            continue;
        }
        match operand(sh, &raw) {
            Some(v) => args.push(v.into_owned()),
            None => args.push(arithmetic(sh, &raw)?),
        }
    }
    Some((f, args))
}

/// `$(( expr ))` whose evaluation changes nothing (so declining at a later
/// argument, and evaluating it again the general way, is safe), giving one
/// field: digits and a sign, unless IFS splits those.
fn arithmetic(sh: &mut ShellState, raw: &str) -> Option<String> {
    let inner = raw.strip_prefix("$((")?.strip_suffix("))")?;
    // One pass: no assignment, call, quote, brace or subscript, no ++ or --.
    let b = inner.as_bytes();
    if b.iter().any(|c| b"=()`\\'\"{}[]".contains(c)) || b.windows(2).any(|w| w == b"++" || w == b"--") {
        return None;
    }
    let v = crate::expand::arith::try_unexpanded(sh, inner)?.to_string();
    (!splits(sh, &v)).then_some(v)
}

/// Run the call [`function_call`] found, as the general path would.
pub async fn run(sh: &mut ShellState, c: &ast::SimpleCommand, f: Arc<Function>, args: Vec<String>, fds: &Fds) -> Res {
    let name = c.word_or_name.as_ref().map_or("", |w| w.value.as_str());
    sh.compound_unrun = false;
    crate::limits::inline::at_command(&sh.budget).await;
    simple::mark_nofork(sh, c);
    super::begin_simple(sh, c);
    // Counted as a short command (the clock read once in a few): the
    // body's own commands meet the deadline as they run.
    if sh.budget.tick_short_command()? {
        simple::take_turn(sh).await;
    }
    // Shared with the call, which keeps its own `$@` (the last one is `$_` after).
    let args = Arc::new(args);
    // As `run_command` does: a deep recursion grows the stack, not past it.
    let r = stack::GrowStack(Box::pin(crate::interp::call_function(sh, name, f, args.clone(), fds))).await;
    simple::set_last_arg_str(sh, args.last().map_or(name, String::as_str));
    r
}
