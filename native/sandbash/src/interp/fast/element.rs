//! `name[sub]=value` alone, on an existing array, when the subscript and
//! the value need no word machinery: the subscript is literal text,
//! `$name`, `${name}` and `$(( expr ))` without side effects, one after
//! another (`m[k$((i % 100))]`, `a[$i]`, `a[n+1]`); the value is what a
//! plain assignment takes here (see `value_source`). What is stored, and
//! every check on it, is `simple::store`'s: only the expansion is done here.

use super::{begin_simple, evaluate, literal, simple, value_source, Ran};
use crate::interp::simple::{store, Assigned, AssignedValue};
use crate::interp::Flow;
use crate::state::{ShellState, Value};
use brush_parser::ast;

/// Longest subscript taken here (an expanded key is no longer than this
/// plus the values it reads).
const MAX_SUBSCRIPT: usize = 256;

pub fn element(
    sh: &mut ShellState,
    c: &ast::SimpleCommand,
    a: &ast::Assignment,
    name: &str,
    sub: &str,
) -> Result<Option<Ran>, Flow> {
    if a.append || sub.len() > MAX_SUBSCRIPT || sh.vars.computed(name) || sh.is_computed_readonly(name) {
        return Ok(None);
    }
    let assoc = match sh.vars.get(name) {
        Some(v) if v.readonly || v.integer || v.nameref || v.case.is_some() => return Ok(None),
        Some(v) => match &v.value {
            Some(Value::Assoc(_)) => true,
            Some(Value::Indexed(_)) => false,
            _ => return Ok(None),
        },
        None => return Ok(None),
    };
    // The value's text as written, checked against the parsed subscript.
    let src = sh.src.clone();
    let Some(whole) = src.slice(a.loc.start.index, a.loc.end.index) else {
        return Ok(None);
    };
    let Some(text) = whole.strip_prefix(name).and_then(|r| r.strip_prefix('[')?.strip_prefix(sub)?.strip_prefix("]="))
    else {
        return Ok(None);
    };
    if text.contains('\\') {
        return Ok(None);
    }
    let Some(source) = value_source(sh, text) else {
        return Ok(None);
    };
    // The subscript first, as bash expands it; nothing it does changes state.
    let Some(expanded) = subscript(sh, sub) else {
        return Ok(None);
    };
    let index = if assoc {
        // An empty key (and `@`, `*`) is an error the general path reports.
        if expanded.is_empty() || expanded == "@" || expanded == "*" {
            return Ok(None);
        }
        expanded
    } else {
        if !super::no_side_effects(&expanded) {
            return Ok(None);
        }
        match crate::expand::arith::try_unexpanded(sh, &expanded) {
            Some(i) if i >= 0 => i.to_string(),
            _ => return Ok(None),
        }
    };
    let yield_due = sh.budget.tick_short_command()?;
    let Some(value) = evaluate(sh, source) else {
        sh.budget.untick_command();
        return Ok(None);
    };
    let limit = sh.budget.limits.max_string_bytes;
    if value.len() as u64 > limit {
        return Err(Flow::Stop(crate::limits::Budget::exceeded("max_string_bytes", limit, "variable size")));
    }
    begin_simple(sh, c);
    let assigned =
        Assigned { name: name.to_string(), index: Some(index), value: AssignedValue::Scalar(value), append: false };
    // Ruled out above: a readonly, computed or integer array, a bad subscript.
    if store(sh, assigned).is_err() {
        return Err(Flow::Abort(1));
    }
    simple::set_last_arg(sh, String::new());
    Ok(Some(Ran { status: 0, yield_due }))
}

/// The subscript's text with its parameters and arithmetic expanded, when
/// it is only literal text, `$name`, `${name}`, `$N` and side-effect-free
/// `$(( ))`.
fn subscript(sh: &mut ShellState, text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("$((") {
            let end = arith_end(r)?;
            let inner = &r[..end];
            if crate::expand::arith::needs_quote_removal(inner) || !super::no_side_effects(inner) {
                return None;
            }
            out.push_str(&crate::expand::arith::try_unexpanded(sh, inner)?.to_string());
            rest = &r[end + 2..];
        } else if let Some(r) = rest.strip_prefix("${") {
            let end = r.find('}')?;
            out.push_str(super::set_scalar(sh, &r[..end])?);
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix('$') {
            // `$1` is one digit (`$10` is `${1}0`); a name runs on.
            let n = match r.as_bytes().first() {
                Some(d) if d.is_ascii_digit() => 1,
                _ => r.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count(),
            };
            if n == 0 {
                return None;
            }
            out.push_str(super::set_scalar(sh, &r[..n])?);
            rest = &r[n..];
        } else {
            let n = rest.find('$').unwrap_or(rest.len());
            if !literal(&rest[..n]) {
                return None;
            }
            out.push_str(&rest[..n]);
            rest = &rest[n..];
        }
    }
    Some(out)
}

/// Where the `))` that closes a `$((` ends its text (`r` starts after it).
fn arith_end(r: &str) -> Option<usize> {
    let b = r.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b')' => return (b.get(i + 1) == Some(&b')')).then_some(i),
            _ => {}
        }
    }
    None
}
