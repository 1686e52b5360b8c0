//! Commands that finish without waiting on anything, run at once: `(( ))`,
//! `name=value` whose arithmetic compiles (see `expand::arith::compiled`)
//! or whose value is plain text, `:`, `true`, `false`, `[ ]` and `test`
//! on plain operands ([`plain_builtins`]), and `echo` of them ([`echo`]). The general path builds and boxes a future
//! for every command, which is most of what a tight loop costs.
//!
//! Each case does exactly what the general path would do for it, and
//! declines (`Ok(None)`, having changed nothing) whenever something could
//! differ: traps, `set -x`, namerefs, a readonly or integer variable, text
//! that needs expanding, an arithmetic error to report.

pub mod call;
mod echo;
mod element;
mod local;
mod plain_builtins;
mod read;

use super::{simple, Fds, Flow};
use crate::state::ShellState;
use brush_parser::ast::{self, AssignmentName, AssignmentValue, CommandPrefixOrSuffixItem as Item};

/// What ran: its status, and whether the runtime is owed a turn.
pub struct Ran {
    pub status: i32,
    pub yield_due: bool,
}

/// Run `cmd` here if it is one of the fast cases.
pub fn try_command(sh: &mut ShellState, cmd: &ast::Command, fds: &Fds) -> Result<Option<Ran>, Flow> {
    if !sh.traps.is_empty() || sh.opts.xtrace || crate::limits::inline::slice_spent(&sh.budget) {
        return Ok(None);
    }
    match cmd {
        ast::Command::Simple(c) => match &c.word_or_name {
            Some(w) if w.value == "echo" => echo::echo(sh, c, fds),
            Some(w) if w.value == "local" => local::local(sh, c),
            Some(w) if w.value == "read" => read::read(sh, c, fds),
            Some(_) => plain_builtins::builtin(sh, c),
            None => assignment(sh, c),
        },
        ast::Command::Compound(ast::CompoundCommand::Arithmetic(a), None) => arithmetic_turn(sh, a),
        ast::Command::ExtendedTest(t, None) => extended_test(sh, t),
        _ => Ok(None),
    }
}

/// `[[ ]]` that `cond::try_plain` decides; like `(( ))`, not a counted
/// command, but a turn is owed now and then.
fn extended_test(sh: &mut ShellState, t: &ast::ExtendedTestExprCommand) -> Result<Option<Ran>, Flow> {
    let Some(status) = crate::interp::cond::try_plain(sh, &t.expr)? else {
        return Ok(None);
    };
    // Its line is the one it ends on, as the general path sets it.
    if let Some(loc) = ast::SourceLocation::location(t) {
        sh.line = sh.src.line(loc.end.line);
    }
    sh.last_status = status;
    Ok(Some(Ran { status, yield_due: sh.budget.poll_turn()? }))
}

/// `(( expr ))` with text that needs no expansion.
fn arithmetic(sh: &mut ShellState, a: &ast::ArithmeticCommand) -> Option<Ran> {
    let src = sh.src.clone();
    let text = src.slice(a.loc.start.index, a.loc.end.index)?.strip_prefix("((")?.strip_suffix("))")?;
    let v = crate::expand::arith::try_unexpanded(sh, text)?;
    sh.line = sh.src.line(a.loc.end.line);
    let status = i32::from(v == 0);
    sh.last_status = status;
    Some(Ran { status, yield_due: false })
}

/// `(( ))` is not a counted command, but a loop of nothing else must still
/// meet the deadline and give the runtime its turns.
fn arithmetic_turn(sh: &mut ShellState, a: &ast::ArithmeticCommand) -> Result<Option<Ran>, Flow> {
    let Some(mut ran) = arithmetic(sh, a) else {
        return Ok(None);
    };
    ran.yield_due = sh.budget.poll_turn()?;
    Ok(Some(ran))
}

/// `name=value` alone: a literal value, or `$(( expr ))`.
fn assignment(sh: &mut ShellState, c: &ast::SimpleCommand) -> Result<Option<Ran>, Flow> {
    if c.word_or_name.is_some() || c.suffix.is_some() || sh.vars.has_refs() {
        return Ok(None);
    }
    let [Item::AssignmentWord(a, _)] = c.prefix.as_ref().map_or(&[][..], |p| &p.0[..]) else {
        return Ok(None);
    };
    let name = match (&a.name, &a.value) {
        (AssignmentName::VariableName(name), AssignmentValue::Scalar(_)) => name,
        (AssignmentName::ArrayElementName(name, sub), AssignmentValue::Scalar(_)) => {
            return element::element(sh, c, a, name, sub)
        }
        _ => return Ok(None),
    };
    let src = sh.src.clone();
    let Some(text) = value_text(&src, a, name) else {
        return Ok(None);
    };
    let limit = sh.budget.limits.max_string_bytes;
    // What would make the store fail (its message is printed by the general
    // path) or store it otherwise than `set_var` and an append in place do.
    if sh.is_computed_readonly(name) || sh.vars.computed(name) {
        return Ok(None);
    }
    let current_len = match sh.vars.get(name) {
        Some(v) if v.readonly || v.integer => return Ok(None),
        Some(v) if a.append && v.case.is_some() => return Ok(None),
        Some(v) => match &v.value {
            Some(crate::state::Value::Scalar(s)) => s.len(),
            None => 0,
            Some(_) if a.append => return Ok(None),
            Some(_) => 0,
        },
        None => 0,
    };
    let Some(source) = value_source(sh, text) else {
        return Ok(None);
    };
    // Counted before anything is evaluated, as the general path does; taken
    // back when the arithmetic is not decided here.
    let yield_due = sh.budget.tick_short_command()?;
    let Some(value) = evaluate(sh, source) else {
        sh.budget.untick_command();
        return Ok(None);
    };
    let grown = if a.append { current_len + value.len() } else { value.len() };
    if grown as u64 > limit {
        // The arithmetic ran: the general path cannot start over. A value
        // of digits is never near the limit; a literal is not evaluated.
        return Err(Flow::Stop(crate::limits::Budget::exceeded("max_string_bytes", limit, "variable size")));
    }
    begin_simple(sh, c);
    // As `simple::store` does for these cases: an append grows the string
    // in place; `set_var` applies a case attribute and `set -a`.
    if a.append && current_len > 0 {
        let allexport = sh.opts.allexport;
        let var = sh.vars.entry(name);
        if let Some(crate::state::Value::Scalar(cur)) = &mut var.value {
            cur.push_str(&value);
        }
        if allexport {
            var.exported = true;
        }
    } else if sh.set_var(name, value).is_err() {
        // Ruled out above (readonly).
        return Err(Flow::Abort(1));
    }
    simple::set_last_arg(sh, String::new());
    Ok(Some(Ran { status: 0, yield_due }))
}

/// Where the value text of an assignment comes from, when it needs no
/// word machinery (`None` declines).
fn value_source<'t>(sh: &mut ShellState, text: &'t str) -> Option<Value<'t>> {
    Some(match text.strip_prefix("$((").and_then(|t| t.strip_suffix("))")) {
        Some(inner) if !crate::expand::arith::needs_quote_removal(inner) && balanced(inner) => Value::Arith(inner),
        Some(_) => return None,
        None if literal(text) => Value::Text(text),
        None if text == "$#" => Value::Owned(sh.positional.len().to_string()),
        None if text == "$?" => Value::Owned(sh.last_status.to_string()),
        // Quoted text, or a quoted parameter.
        None if text.starts_with(['\'', '"']) => Value::Owned(plain_builtins::operand(sh, text)?.into_owned()),
        None => match parameter(sh, text) {
            Some(v) => Value::Owned(v.to_string()),
            None => Value::Owned(parameter_op(sh, text).or_else(|| parameter_slice(sh, text))?),
        },
    })
}

/// The value [`value_source`] found; `None` when its arithmetic is not
/// decided here.
fn evaluate(sh: &mut ShellState, source: Value) -> Option<String> {
    Some(match source {
        Value::Arith(inner) => crate::expand::arith::try_unexpanded(sh, inner)?.to_string(),
        Value::Text(t) => t.to_string(),
        Value::Owned(v) => v,
    })
}

/// What the general path records as simple command `c` starts (see
/// `simple::run_with`): its line, the span `BASH_COMMAND` is printed from
/// (not while a trap runs), and no command substitution's status yet.
fn begin_simple(sh: &mut ShellState, c: &ast::SimpleCommand) {
    if let Some(line) = simple::command_line(c) {
        sh.line = sh.src.line(line);
    }
    if sh.trace.in_trap == 0 {
        sh.trace.command = None;
        if let Some(sp) = simple::span(c) {
            sh.trace.span = sp;
        }
    }
    sh.subst_status = None;
}

/// Where an assignment's value comes from.
enum Value<'a> {
    /// `$(( expr ))`: the arithmetic inside.
    Arith(&'a str),
    /// Literal text.
    Text(&'a str),
    /// A parameter's value.
    Owned(String),
}

/// The value of `$N`, `${N}`, `$name` or `${name}` when that is all the text
/// and the parameter is set to a string (a variable's own value: a dynamic
/// one like `RANDOM` is computed only when no variable holds it).
pub(crate) fn parameter<'s>(sh: &'s ShellState, text: &str) -> Option<&'s str> {
    let inner = text.strip_prefix('$')?;
    let name = match inner.strip_prefix('{') {
        Some(braced) => braced.strip_suffix('}')?,
        None if inner.len() > 1 && inner.starts_with(|c: char| c.is_ascii_digit()) => return None,
        None => inner,
    };
    set_scalar(sh, name)
}

/// The value of `name` (a name or a positional number) when it is a set scalar.
fn set_scalar<'s>(sh: &'s ShellState, name: &str) -> Option<&'s str> {
    if !name.is_empty() && name.bytes().all(|c| c.is_ascii_digit()) {
        let n: usize = name.parse().ok()?;
        return sh.positional.get(n.checked_sub(1)?).map(String::as_str);
    }
    if name == "_" || !crate::builtins::valid_name(name) {
        return None;
    }
    match sh.vars.get_set(name)?.value.as_ref()? {
        crate::state::Value::Scalar(s) => Some(s),
        _ => None,
    }
}

/// The one field of a quoted word (`'...'`, `"text $x ${y#*/}"`) when it
/// needs no word machinery.
pub(crate) fn quoted_operand<'s>(sh: &'s ShellState, raw: &'s str) -> Option<std::borrow::Cow<'s, str>> {
    raw.starts_with(['\'', '"']).then(|| plain_builtins::operand(sh, raw)).flatten()
}

/// The text of a word that is neither split nor globbed (`case WORD in`)
/// when it needs no word machinery: a literal, quoted text, one parameter.
pub(crate) fn unsplit_word<'s>(sh: &'s ShellState, raw: &'s str) -> Option<std::borrow::Cow<'s, str>> {
    use std::borrow::Cow;
    if raw.starts_with(['\'', '"']) {
        return plain_builtins::operand(sh, raw);
    }
    if !raw.is_empty() && literal(raw) {
        return Some(Cow::Borrowed(raw));
    }
    if let Some(v) = parameter(sh, raw) {
        return Some(Cow::Borrowed(v));
    }
    parameter_op(sh, raw).map(Cow::Owned)
}

/// `${#name}` or `${name#pat}` (`##`, `%`, `%%`) of a set scalar, with a
/// pattern written plainly (nothing to expand or quote in it): what a loop
/// takes apart paths and names with. `None` declines to the general path.
pub(crate) fn parameter_op(sh: &ShellState, text: &str) -> Option<String> {
    let inner = text.strip_prefix("${")?.strip_suffix('}')?;
    if let Some(name) = inner.strip_prefix('#') {
        let v = set_scalar(sh, name)?;
        return Some(
            if sh.single_byte_locale() { crate::raw_bytes::encode(v).len() } else { v.chars().count() }.to_string(),
        );
    }
    let at = inner.find(['#', '%'])?;
    let (name, op) = inner.split_at(at);
    let v = set_scalar(sh, name)?;
    let suffix = op.starts_with('%');
    let (largest, pat) = match op[1..].strip_prefix(&op[..1]) {
        Some(p) => (true, p),
        None => (false, &op[1..]),
    };
    // What the pattern's own expansion would change (or could, under extglob).
    if pat.contains(['$', '`', '\'', '"', '\\', '~', '{', '}']) || sh.opts.extglob && pat.contains(['(', ')', '|']) {
        return None;
    }
    if v.is_empty() {
        return Some(String::new());
    }
    let pattern = crate::pattern::Pattern::from_glob_text(pat);
    let mut searcher = pattern.searcher(sh.opts.extglob, false);
    crate::expand::param::remove_affix(v, searcher.as_mut(), suffix, largest).ok()
}

/// `${name:off}` or `${name:off:len}` of a set scalar, with offset and
/// length that compile as arithmetic without assignments (evaluating them
/// changes nothing, so declining after is safe); `None` declines.
fn parameter_slice(sh: &mut ShellState, text: &str) -> Option<String> {
    let inner = text.strip_prefix("${")?.strip_suffix('}')?;
    let (name, rest) = inner.split_once(':')?;
    let mut nums = rest.split(':');
    let (off, len) = (nums.next()?, nums.next());
    let side_effect =
        |t: &str| t.is_empty() || t.contains(['=', '?', '{', '}', ':']) || t.contains("++") || t.contains("--");
    if nums.next().is_some()
        || off.starts_with(['-', '=', '+', '?'])
        || side_effect(off)
        || len.is_some_and(side_effect)
    {
        return None;
    }
    // Without assignments the offsets change nothing: evaluated first, the
    // value is looked up once.
    let off = crate::expand::arith::try_unexpanded(sh, off)?;
    let len = match len {
        Some(l) => Some(crate::expand::arith::try_unexpanded(sh, l)?),
        None => None,
    };
    let v = set_scalar(sh, name)?;
    let (a, b) = crate::expand::param::slice_range(v.chars().count(), off, len)?;
    Some(v.chars().skip(a).take(b - a).collect())
}

/// The text after `=` as written, when it has no line continuation.
fn value_text<'s>(src: &'s crate::state::source::Source, a: &ast::Assignment, name: &str) -> Option<&'s str> {
    let whole = src.slice(a.loc.start.index, a.loc.end.index)?;
    let rest = whole.strip_prefix(name)?;
    let text = if a.append { rest.strip_prefix("+=")? } else { rest.strip_prefix('=')? };
    (!text.contains('\\')).then_some(text)
}

/// Text that expands to itself in an assignment: no expansions, quotes,
/// tilde, globs or braces.
fn literal(text: &str) -> bool {
    text.bytes().all(|c| c.is_ascii_alphanumeric() || b"_-./,+@%:=".contains(&c))
}

/// Arithmetic text whose evaluation assigns nothing (no `=`, `++`, `--`):
/// evaluating it before declining changes nothing.
fn no_side_effects(t: &str) -> bool {
    !t.contains('=') && !t.contains("++") && !t.contains("--")
}

/// Parentheses that close in order, so `$((` ... `))` is one arithmetic
/// expansion.
fn balanced(text: &str) -> bool {
    let mut depth = 0usize;
    for c in text.bytes() {
        match c {
            b'(' => depth += 1,
            b')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}
