//! `declare`/`typeset`, `local`, `export` and `readonly`: attributes and values.

use super::{fail, valid_name, DeclArg};
use crate::interp::simple::{store, Assigned, AssignedValue};
use crate::interp::{Fds, Flow};
use crate::state::{Case, ShellState, Value, Var};
use std::collections::BTreeMap;

/// Attribute bits of `declare -aAilnrtuxc`.
mod bit {
    pub const A: u16 = 1; // -a
    pub const AA: u16 = 2; // -A
    pub const I: u16 = 4;
    pub const X: u16 = 8;
    pub const R: u16 = 16;
    pub const N: u16 = 32;
    pub const L: u16 = 64;
    pub const U: u16 = 128;
    pub const C: u16 = 256;
    pub const T: u16 = 512;
    pub const CASE: u16 = L | U | C;
}

#[derive(Default, Clone)]
struct Flags {
    /// Attributes to give (`-x`) and to take away (`+x`).
    on: u16,
    off: u16,
    global: bool,
    print: bool,
    functions: bool,
    function_names: bool,
}

impl Flags {
    fn has(&self, b: u16) -> bool {
        self.on & b != 0
    }

    /// The case attribute given (`-l`, `-u`, `-c`), if any.
    fn case(&self) -> Option<Case> {
        if self.has(bit::L) {
            Some(Case::Lower)
        } else if self.has(bit::U) {
            Some(Case::Upper)
        } else if self.has(bit::C) {
            Some(Case::Capital)
        } else {
            None
        }
    }
}

/// A variable's attributes as bits.
fn var_bits(v: &Var) -> u16 {
    let mut b = 0;
    match &v.value {
        Some(Value::Indexed(_)) => b |= bit::A,
        Some(Value::Assoc(_)) => b |= bit::AA,
        _ => {}
    }
    for (on, x) in
        [(v.integer, bit::I), (v.exported, bit::X), (v.readonly, bit::R), (v.nameref, bit::N), (v.trace, bit::T)]
    {
        if on {
            b |= x;
        }
    }
    match v.case {
        Some(Case::Lower) => b |= bit::L,
        Some(Case::Upper) => b |= bit::U,
        Some(Case::Capital) => b |= bit::C,
        None => {}
    }
    b
}

/// One operand after parsing: `name`, `name[sub]`, with `=value` / `+=value`.
struct Operand {
    /// What error messages show.
    shown: String,
    name: String,
    index: Option<String>,
    value: Option<AssignedValue>,
    append: bool,
    /// The value came as text that may be `(...)` (re-read as a list for arrays).
    text_value: bool,
}

/// Split `name[sub]=value` / `name+=value` (a word given to `declare`
/// as text: quoted, or made by an expansion). `None` without `=`.
fn split_assignment(s: &str) -> (String, Option<String>, bool, Option<String>) {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'=' if depth == 0 => {
                let (name, append) = match s[..i].strip_suffix('+') {
                    Some(n) => (n, true),
                    None => (&s[..i], false),
                };
                let (base, sub) = match crate::state::vars::split_subscript(name) {
                    Some((b, sub)) if name.ends_with(']') => (b.to_string(), Some(sub.to_string())),
                    _ => (name.to_string(), None),
                };
                return (base, sub, append, Some(s[i + 1..].to_string()));
            }
            _ => {}
        }
        i += 1;
    }
    match crate::state::vars::split_subscript(s) {
        Some((b, sub)) if s.ends_with(']') => (b.to_string(), Some(sub.to_string()), false, None),
        _ => (s.to_string(), None, false, None),
    }
}

/// `(a b [k]=v)` given as text: the list, its words expanded as in an
/// assignment written so. `None` when it does not read as one.
async fn compound_from_text(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<Option<AssignedValue>, Flow> {
    if !(text.starts_with('(') && text.ends_with(')')) {
        return Ok(None);
    }
    let script = format!("__v={text}");
    let depth = sh.budget.limits.max_parser_depth as usize;
    let Ok(parsed) = crate::syntax::parse(&script, depth) else { return Ok(None) };
    let assignment = parsed.program.complete_commands.first().and_then(|c| c.0.first()).and_then(|item| {
        match item.0.first.seq.first() {
            Some(brush_parser::ast::Command::Simple(sc)) if sc.word_or_name.is_none() => {
                match sc.prefix.as_ref().map(|p| p.0.as_slice()) {
                    Some([brush_parser::ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _)]) => Some(a.clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    });
    let Some(a) = assignment else { return Ok(None) };
    if !matches!(a.value, brush_parser::ast::AssignmentValue::Array(_)) {
        return Ok(None);
    }
    let saved = std::mem::replace(&mut sh.src, parsed.source);
    let r = crate::interp::simple::expand_assignment(sh, fds, &a).await;
    sh.src = saved;
    Ok(Some(r?.value))
}

pub async fn run(sh: &mut ShellState, name: &str, decl: Vec<DeclArg>, fds: &Fds) -> Result<i32, Flow> {
    let mut f = Flags::default();
    match name {
        "export" => f.on |= bit::X,
        "readonly" => f.on |= bit::R,
        _ => {}
    }
    if name == "local" && !sh.vars.in_function() {
        // bash still performs the compound array assignments (`local a=(x y)`),
        // as global ones, before refusing.
        let arrays: Vec<DeclArg> = decl
            .into_iter()
            .filter(|a| match a {
                DeclArg::Plain(p) => p.starts_with('-') || p.starts_with('+'),
                DeclArg::Assign(a) => matches!(a.value, AssignedValue::Array(_)),
            })
            .collect();
        if arrays.iter().any(|a| matches!(a, DeclArg::Assign(_))) {
            Box::pin(run(sh, "declare", arrays, fds)).await?;
        }
        return Ok(fail(sh.loc(), fds, "local: can only be used in a function", 1).await);
    }
    let mut operands: Vec<DeclArg> = Vec::new();
    let mut options_done = false;
    // `local -`: the function's changes to `set` options end with it.
    let decl: Vec<DeclArg> = if name == "local" {
        let (dash, rest): (Vec<DeclArg>, Vec<DeclArg>) =
            decl.into_iter().partition(|a| matches!(a, DeclArg::Plain(p) if p == "-"));
        if !dash.is_empty() && sh.local_opts.is_none() {
            sh.local_opts = Some(Box::new(sh.opts.clone()));
        }
        if !dash.is_empty() && rest.is_empty() {
            return Ok(0);
        }
        rest
    } else {
        decl
    };
    for a in decl {
        match &a {
            DeclArg::Plain(s) if !options_done && (s.starts_with('-') || s.starts_with('+')) && s.len() > 1 => {
                if s == "--" {
                    options_done = true;
                    continue;
                }
                let on = s.starts_with('-');
                // `export` and `readonly` take fewer letters than `declare`.
                let allowed = match name {
                    "export" => "afnp",
                    "readonly" => "aAfnp",
                    _ => "aAcfFgiIlnprtux",
                };
                if let Some(c) = s[1..].chars().find(|c| !allowed.contains(*c)) {
                    let usage = match name {
                        "export" => "export: usage: export [-fn] [name[=value] ...] or export -p",
                        "readonly" => "readonly: usage: readonly [-aAf] [name[=value] ...] or readonly -p",
                        "local" => "local: usage: local [option] name[=value] ...",
                        "typeset" => "typeset: usage: typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
                        _ => "declare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
                    };
                    return Ok(super::usage_error(sh, fds, &format!("{name}: -{c}: invalid option"), usage).await);
                }
                for c in s[1..].chars() {
                    let b = match c {
                        'a' => bit::A,
                        'A' => bit::AA,
                        'i' => bit::I,
                        'x' => bit::X,
                        'r' => bit::R,
                        'n' if name == "export" => {
                            f.off |= bit::X;
                            f.on &= !bit::X;
                            continue;
                        }
                        'n' => bit::N,
                        'l' => bit::L,
                        'u' => bit::U,
                        'c' => bit::C,
                        't' => bit::T,
                        'g' => {
                            f.global = on;
                            continue;
                        }
                        'p' => {
                            f.print = true;
                            continue;
                        }
                        'f' => {
                            f.functions = true;
                            continue;
                        }
                        'F' => {
                            f.function_names = true;
                            continue;
                        }
                        // `-I` (a local inherits the outer attributes): accepted.
                        'I' => continue,
                        _ => {
                            let usage = format!("{name}: -{c}: invalid option");
                            return Ok(fail(sh.loc(), fds, &usage, 2).await);
                        }
                    };
                    if on {
                        f.on |= b;
                    } else {
                        f.off |= b;
                    }
                }
            }
            _ => {
                options_done = true;
                operands.push(a);
            }
        }
    }
    // An array attribute wins over `-n` (`declare -na r=x` makes an array).
    if f.has(bit::A | bit::AA) {
        f.on &= !bit::N;
    }
    // Two case attributes at once cancel out (`declare -lu`: neither).
    if (f.on & bit::CASE).count_ones() > 1 {
        f.off |= f.on & bit::CASE;
        f.on &= !bit::CASE;
    }

    if f.functions || f.function_names {
        let export = if f.has(bit::X) {
            Some(true)
        } else if f.off & bit::X != 0 {
            Some(false)
        } else {
            None
        };
        if let (Some(on), false) = (export, operands.is_empty()) {
            return Ok(export_functions(sh, name, &operands, on, fds).await);
        }
        if name == "readonly" && !operands.is_empty() {
            return Ok(readonly_functions(sh, &operands, fds).await);
        }
        let only_exported = export == Some(true) && name != "readonly";
        return Ok(print_functions(sh, &operands, f.function_names, f.print, only_exported, fds).await);
    }
    if operands.is_empty() {
        print_vars(sh, name, &f, fds).await;
        return Ok(0);
    }
    // `export -p NAME` and `readonly -p NAME` give the attribute (the
    // `-p` counts only without names); `local -p` shows only locals.
    if f.print && !matches!(name, "export" | "readonly") {
        let mut status = 0;
        let locals = if name == "local" { Some(sh.vars.local_names()) } else { None };
        for op in &operands {
            let n = match op {
                DeclArg::Plain(s) => s.clone(),
                DeclArg::Assign(a) => assigned_text(a),
            };
            let visible = locals.as_ref().is_none_or(|l| l.contains(&n));
            let dynamic = || crate::expand::param::dynamic_as_var(sh, &n).map(std::borrow::Cow::Owned);
            match sh.listed_var(&n).or_else(dynamic).filter(|_| visible) {
                Some(v) if valid_name(&n) => {
                    let line = describe(&n, &v);
                    let _ = fds.stdout.write_str(&format!("{line}\n")).await;
                }
                _ => {
                    status = fail(sh.loc(), fds, &format!("{name}: {n}: not found"), 1).await;
                }
            }
        }
        return Ok(status);
    }

    let local = (name == "local" || ((name == "declare" || name == "typeset") && sh.vars.in_function())) && !f.global;
    let mut status = 0;
    for op in operands {
        let op = match op {
            DeclArg::Plain(s) => {
                let (n, sub, append, value) = split_assignment(&s);
                Operand {
                    shown: s.clone(),
                    name: n,
                    index: sub,
                    append,
                    text_value: value.is_some(),
                    value: value.map(AssignedValue::Scalar),
                }
            }
            DeclArg::Assign(a) => Operand {
                shown: match &a.value {
                    AssignedValue::Scalar(_) => assigned_text(&a),
                    AssignedValue::Array(_) => a.name.clone(),
                },
                text_value: matches!(a.value, AssignedValue::Scalar(_)),
                name: a.name,
                index: a.index,
                value: Some(a.value),
                append: a.append,
            },
        };
        if valid_name(&op.name) && op.index.as_deref() == Some("") && op.value.is_some() {
            status = fail(sh.loc(), fds, &format!("{}[]: bad array subscript", op.name), 1).await;
            continue;
        }
        if !valid_name(&op.name) || op.index.as_deref() == Some("") {
            status = fail(sh.loc(), fds, &format!("{name}: `{}': not a valid identifier", op.shown), 1).await;
            continue;
        }
        // `export`/`readonly` take no subscript.
        if op.index.is_some() && (name == "export" || name == "readonly") {
            let bad = format!("{}[{}]", op.name, op.index.as_deref().unwrap_or(""));
            status = fail(sh.loc(), fds, &format!("{name}: `{bad}': not a valid identifier"), 1).await;
            continue;
        }
        if f.has(bit::N) {
            let assigned = op.value.map(|value| Assigned { name: op.name.clone(), index: None, value, append: false });
            status = status.max(declare_nameref(sh, name, &op.name, assigned, local, &f, fds).await?);
            continue;
        }
        let hidden = if f.global && sh.vars.in_function() { Some(sh.vars.hide_locals()) } else { None };
        let r = declare_one(sh, name, op, local, &f, fds).await;
        if let Some(h) = hidden {
            sh.vars.restore_locals(h);
        }
        status = status.max(r?);
    }
    Ok(status)
}

/// `name=value` as the word showed it (expanded).
fn assigned_text(a: &Assigned) -> String {
    let sub = a.index.as_ref().map(|i| format!("[{i}]")).unwrap_or_default();
    let op = if a.append { "+=" } else { "=" };
    match &a.value {
        AssignedValue::Scalar(v) => format!("{}{sub}{op}{v}", a.name),
        AssignedValue::Array(_) => a.name.clone(),
    }
}

/// Attributes and value of one operand. The status (1 after an error).
async fn declare_one(
    sh: &mut ShellState,
    cmd: &str,
    op: Operand,
    local: bool,
    f: &Flags,
    fds: &Fds,
) -> Result<i32, Flow> {
    let var_name = op.name.clone();
    // `readonly -a`/`-A` make no array of a name without a value, and
    // convert no array of the other kind: only `-r` is given then.
    let readonly_flags;
    let f = match (cmd, f.has(bit::A | bit::AA)) {
        ("readonly", true) => {
            let cur = sh.vars.get(&var_name).map_or(0, var_bits);
            let other_kind = (f.has(bit::AA) && cur & bit::A != 0) || (!f.has(bit::AA) && cur & bit::AA != 0);
            let mut g = f.clone();
            if op.value.is_none() || other_kind {
                g.on &= !(bit::A | bit::AA);
            }
            readonly_flags = g;
            &readonly_flags
        }
        _ => f,
    };
    // `export`/`readonly` of a reference to an array element store the value
    // through it, then refuse the attribute: bash looks the attribute's
    // name up as `arr[1]`, no identifier (and still returns 0).
    if matches!(cmd, "export" | "readonly") && op.index.is_none() && sh.vars.has_refs() {
        if let crate::state::Resolved::Element(base, sub) = sh.vars.resolve(&var_name) {
            if let Some(value) = op.value {
                let a = Assigned { name: var_name.clone(), index: None, value, append: op.append };
                if let Err(e) = store(sh, a) {
                    e.report(sh, fds, &format!("{cmd}: ")).await?;
                    return Ok(1);
                }
            }
            fail(sh.loc(), fds, &format!("{cmd}: `{base}[{sub}]': not a valid identifier"), 1).await;
            return Ok(0);
        }
    }
    if f.off & bit::N != 0 && sh.vars.is_nameref(&var_name) {
        sh.vars.entry_raw(&var_name).nameref = false;
    }
    let is_local = local && sh.vars.local_names().contains(&var_name);
    // bash makes no local copy of a readonly global (a caller's readonly
    // local it does shadow).
    // SHELLOPTS and BASHOPTS: readonly already; a value (or a local) is
    // refused, attributes alone change nothing.
    if sh.is_computed_readonly(&var_name) && op.value.is_none() && !local {
        return Ok(0);
    }
    if (local && !is_local && sh.vars.in_function() && sh.vars.global_readonly(&var_name))
        || sh.is_computed_readonly(&var_name)
    {
        return Ok(fail(sh.loc(), fds, &format!("{cmd}: {var_name}: readonly variable"), 1).await);
    }
    if local && !is_local && sh.vars.computed(&var_name) {
        // bash makes no local of a name it keeps itself (`noassign`).
        let msg = format!("{cmd}: {var_name}: variable may not be assigned value");
        return Ok(fail(sh.loc(), fds, &msg, 1).await);
    }
    if op.value.is_some() && sh.vars.computed(&var_name) {
        // Refused without a message, as an assignment to one is.
        return Ok(1);
    }
    let existing = if local { is_local.then(|| sh.vars.get_raw(&var_name)).flatten() } else { sh.vars.get(&var_name) };
    let old_bits = existing.map_or(0, var_bits);
    let was_array = old_bits & (bit::A | bit::AA) != 0;
    let was_unassigned = existing.is_none_or(|v| v.value.is_none() || v.unassigned);
    // `+a`/`+A` never make an array a scalar.
    if f.off & (bit::A | bit::AA) != 0 && was_array {
        let msg = format!("{cmd}: {var_name}: cannot destroy array variables in this way");
        return Ok(fail(sh.loc(), fds, &msg, 1).await);
    }
    // With a value to assign, the error abandons the command line.
    let conversion = if f.has(bit::A) && !f.has(bit::AA) && old_bits & bit::AA != 0 {
        Some("associative to indexed")
    } else if f.has(bit::AA) && old_bits & bit::A != 0 {
        Some("indexed to associative")
    } else {
        None
    };
    if let Some(what) = conversion {
        let msg = format!("{var_name}: cannot convert {what} array");
        if op.value.is_some() {
            return Err(crate::expand::abort_or_exit(sh, fds, &msg).await);
        }
        return Ok(fail(sh.loc(), fds, &format!("{cmd}: {msg}"), 1).await);
    }
    if f.off & bit::R != 0 && old_bits & bit::R != 0 {
        return Ok(fail(sh.loc(), fds, &format!("{cmd}: {var_name}: readonly variable"), 1).await);
    }
    // A value given as text reads as a list when the variable is (or becomes) an array.
    let mut value = op.value;
    let mut index = op.index;
    let wants_array = f.has(bit::A | bit::AA) || was_array;
    if op.text_value && wants_array {
        if let Some(AssignedValue::Scalar(t)) = &value {
            if let Some(list) = compound_from_text(sh, fds, &t.clone()).await? {
                value = Some(list);
                // `declare -a 'n[0]=(9 8)'` assigns the whole array.
                index = None;
            }
        }
    }
    if local {
        sh.vars.declare_local(&var_name);
    } else {
        sh.vars.entry(&var_name);
    }
    {
        let v = sh.vars.entry(&var_name);
        if f.has(bit::AA) && !matches!(v.value, Some(Value::Assoc(_))) {
            let old = v.value.take();
            let mut m = crate::state::assoc::AssocMap::new();
            if let Some(Value::Scalar(s)) = old {
                m.insert("0".to_string(), s);
            }
            v.value = Some(Value::Assoc(m));
        } else if f.has(bit::A) && !matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))) {
            let old = v.value.take();
            let mut m = BTreeMap::new();
            if let Some(Value::Scalar(s)) = old {
                m.insert(0, s);
            }
            v.value = Some(Value::Indexed(m));
        }
        if f.has(bit::I) {
            v.integer = true;
        } else if f.off & bit::I != 0 {
            v.integer = false;
        }
        if f.has(bit::T) {
            v.trace = true;
        } else if f.off & bit::T != 0 {
            v.trace = false;
        }
        if let Some(c) = f.case() {
            v.case = Some(c);
        } else if f.off & bit::CASE != 0 {
            v.case = None;
        }
        if f.has(bit::X) {
            v.exported = true;
        } else if f.off & bit::X != 0 {
            v.exported = false;
        }
    }
    let mut status = 0;
    let assigns = value.is_some();
    if let Some(value) = value {
        // The subscript of `declare 'a[$i]=v'` is expanded here (once).
        let index = match index {
            Some(i) if op.text_value || matches!(value, AssignedValue::Scalar(_)) && !i.is_empty() => {
                Some(crate::expand::expand_string(sh, fds, &i).await?)
            }
            other => other,
        };
        let a = Assigned { name: var_name.clone(), index, value, append: op.append };
        let stored = store(sh, a);
        // declare reads its list again from quoted words: they show quoted.
        for w in sh.arith_warnings.iter_mut() {
            if let Some(head) = w.strip_suffix(crate::interp::simple::UNKEYED_WARNING) {
                if let Some((name, word)) = head.split_once(": ") {
                    *w = format!("{name}: '{word}'{}", crate::interp::simple::UNKEYED_WARNING);
                }
            }
        }
        crate::expand::arith::flush_warnings(sh, fds).await;
        if let Err(e) = stored {
            // `export`/`readonly` assign as the shell does: its message
            // for a readonly variable has no builtin's name.
            let bare = matches!(cmd, "export" | "readonly")
                && matches!(&e, crate::interp::simple::StoreError::Msg(m) if m.ends_with(": readonly variable"));
            let prefix = if bare { String::new() } else { format!("{cmd}: ") };
            e.report(sh, fds, &prefix).await?;
            return Ok(1);
        }
    } else if let Some(i) = index {
        // `declare a[5]` makes `a` an array, without elements.
        let _ = i;
        let v = sh.vars.entry(&var_name);
        if !matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))) {
            let old = v.value.take();
            let mut m = BTreeMap::new();
            if let Some(Value::Scalar(s)) = old {
                m.insert(0, s);
            }
            v.value = Some(Value::Indexed(m));
        }
    }
    if f.has(bit::R) {
        sh.vars.entry(&var_name).readonly = true;
    }
    if !assigns && was_unassigned {
        // `declare -a x` (also `declare x[5]`): an array without a value yet.
        let v = sh.vars.entry(&var_name);
        v.unassigned = match &v.value {
            Some(Value::Indexed(m)) => m.is_empty(),
            Some(Value::Assoc(m)) => m.is_empty(),
            _ => false,
        };
    }
    if f.has(bit::A) && f.has(bit::AA) {
        let msg = format!("{cmd}: {var_name}: cannot convert associative to indexed array");
        status = fail(sh.loc(), fds, &msg, 1).await;
    }
    Ok(status)
}

/// `declare -n name[=target]` (also `local -n`): the variable itself gets the
/// attribute and the target name as its value.
async fn declare_nameref(
    sh: &mut ShellState,
    cmd: &str,
    var_name: &str,
    assigned: Option<Assigned>,
    local: bool,
    f: &Flags,
    fds: &Fds,
) -> Result<i32, Flow> {
    let target = match assigned.map(|a| a.value) {
        Some(AssignedValue::Scalar(t)) => Some(t),
        Some(AssignedValue::Array(_)) => {
            let msg = format!("{cmd}: {var_name}: reference variable cannot be an array");
            return Ok(fail(sh.loc(), fds, &msg, 1).await);
        }
        None => None,
    };
    // Without a value, the variable's own value becomes the target: it must
    // name a variable too (else it keeps its value, without the attribute).
    let existing = match (&target, local) {
        (None, false) => sh.vars.get_raw(var_name).and_then(|v| v.value.as_ref()).and_then(|v| match v {
            Value::Scalar(s) if !s.is_empty() && !sh.vars.is_nameref(var_name) => Some(s.clone()),
            _ => None,
        }),
        _ => None,
    };
    if let Some(t) = target.as_ref().or(existing.as_ref()) {
        let base = crate::state::vars::split_subscript(t).map_or(t.as_str(), |(b, _)| b);
        if !valid_name(base) {
            let msg = format!("{cmd}: `{t}': invalid variable name for name reference");
            return Ok(fail(sh.loc(), fds, &msg, 1).await);
        }
        if t == var_name {
            if !local || !sh.vars.in_function() {
                let msg = format!("{cmd}: {var_name}: nameref variable self references not allowed");
                return Ok(fail(sh.loc(), fds, &msg, 1).await);
            }
            fds.shell_err(sh.loc(), &format!("{cmd}: warning: {var_name}: circular name reference")).await;
        }
    }
    if target.is_some() && sh.vars.get_raw(var_name).is_some_and(|v| v.readonly) {
        return Ok(fail(sh.loc(), fds, &format!("{cmd}: {var_name}: readonly variable"), 1).await);
    }
    // With `-i` the name would be evaluated as a number, never a valid
    // target: bash 5.2 refuses the assignment without a message.
    if target.is_some() && f.has(bit::I) {
        return Ok(1);
    }
    // The other attributes are the reference's own: `-u` upper-cases the
    // name it holds, as any assignment to it.
    let case = f.case();
    let target = target.map(|t| match case {
        Some(c) => c.apply(t),
        None => t,
    });
    sh.vars.note_nameref();
    let v = if local { sh.vars.declare_local(var_name) } else { sh.vars.entry_raw(var_name) };
    v.nameref = true;
    match target {
        Some(t) => v.value = Some(Value::Scalar(t)),
        None => {
            if !matches!(v.value, None | Some(Value::Scalar(_))) {
                v.value = None;
            }
        }
    }
    if f.has(bit::X) {
        v.exported = true;
    } else if f.off & bit::X != 0 {
        v.exported = false;
    }
    if f.has(bit::R) {
        v.readonly = true;
    }
    if f.has(bit::I) {
        v.integer = true;
    }
    if f.has(bit::T) {
        v.trace = true;
    }
    if case.is_some() {
        v.case = case;
    }
    Ok(0)
}

/// The attribute letters of `declare -p`, in bash's order.
fn attr_letters(v: &Var) -> String {
    let b = var_bits(v);
    let mut flags = String::new();
    for (x, c) in [
        (bit::A, 'a'),
        (bit::AA, 'A'),
        (bit::I, 'i'),
        (bit::N, 'n'),
        (bit::R, 'r'),
        (bit::T, 't'),
        (bit::X, 'x'),
        (bit::C, 'c'),
        (bit::L, 'l'),
        (bit::U, 'u'),
    ] {
        if b & x != 0 {
            flags.push(c);
        }
    }
    if flags.is_empty() {
        flags.push('-');
    }
    flags
}

/// `declare -p NAME` text for one variable.
pub fn describe(name: &str, v: &Var) -> String {
    let flags = attr_letters(v);
    match &v.value {
        None => format!("declare -{flags} {name}"),
        Some(_) if v.unassigned => format!("declare -{flags} {name}"),
        Some(Value::Scalar(s)) => format!("declare -{flags} {name}={}", dquote(s)),
        Some(other) => format!("declare -{flags} {name}={}", array_text(other)),
    }
}

/// `([0]="a" [1]="b")` / `([k]="v" )`: an array's value as `declare -p` and `set` show it.
pub fn array_text(v: &Value) -> String {
    match v {
        Value::Indexed(m) => {
            let items: Vec<String> = m.iter().map(|(k, v)| format!("[{k}]={}", dquote(v))).collect();
            format!("({})", items.join(" "))
        }
        Value::Assoc(m) => {
            let items: String = m.iter().map(|(k, v)| format!("[{}]={} ", key_quote(k), dquote(v))).collect();
            format!("({items})")
        }
        Value::Scalar(s) => dquote(s),
    }
}

/// An associative key as bash shows it: bare, double-quoted when it holds
/// a shell metacharacter, `$'...'` with control characters.
pub fn key_quote(k: &str) -> String {
    if k.chars().any(crate::raw_bytes::wants_ansi_quotes) {
        return crate::expand::param::quote_if_needed(k);
    }
    let meta = k.char_indices().any(|(i, c)| {
        matches!(
            c,
            ' ' | '\t'
                | '\n'
                | '\''
                | '"'
                | '\\'
                | '|'
                | '&'
                | ';'
                | '('
                | ')'
                | '<'
                | '>'
                | '!'
                | '{'
                | '}'
                | '*'
                | '['
                | '?'
                | ']'
                | '^'
                | '$'
                | '`'
        ) || (c == '~' && (i == 0 || k[..i].ends_with(['=', ':'])))
            || (c == '#' && i == 0)
    });
    if meta {
        dquote(k)
    } else {
        k.to_string()
    }
}

/// Double-quote for `declare -p`.
pub(crate) fn dquote(s: &str) -> String {
    if s.chars().any(crate::raw_bytes::wants_ansi_quotes) {
        return crate::expand::param::quote_if_needed(s);
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// One line of the bare `declare`/`set` listing: `name=value` (arrays as lists).
pub fn set_style(name: &str, v: &Var) -> Option<String> {
    if v.unassigned {
        return None;
    }
    match v.value.as_ref()? {
        Value::Scalar(s) => Some(format!("{name}={}", crate::expand::param::quote_if_needed(s))),
        other => Some(format!("{name}={}", array_text(other))),
    }
}

async fn print_vars(sh: &ShellState, name: &str, f: &Flags, fds: &Fds) {
    let mut out = String::new();
    // `local` lists the running function's own variables.
    let names = if name == "local" { sh.vars.local_names() } else { sh.listed_names() };
    let filter = f.on;
    let declaring = matches!(name, "declare" | "typeset" | "local");
    for n in names {
        let Some(v) = sh.listed_var(&n) else { continue };
        let v = v.as_ref();
        let bits = var_bits(v);
        // An array attribute in the filter is required; of the others, any will do.
        let (kind, rest) = (filter & (bit::A | bit::AA), filter & !(bit::A | bit::AA));
        if (kind != 0 && bits & kind == 0) || (rest != 0 && bits & rest == 0) {
            continue;
        }
        if declaring && filter == 0 && !f.print && name != "local" {
            // The bare listing: as `set` shows them; declared-only names are left out.
            if let Some(line) = set_style(&n, v) {
                out.push_str(&line);
                out.push('\n');
            }
            continue;
        }
        out.push_str(&describe(&n, v));
        out.push('\n');
    }
    if declaring && filter == 0 && !f.print && name != "local" {
        // Then the functions, as `declare -f` prints them.
        let mut names: Vec<&String> = sh.funcs.keys().collect();
        names.sort();
        for func in names.into_iter().filter_map(|n| sh.funcs.get(n)) {
            out.push_str(&func.printed());
            out.push('\n');
        }
    }
    let _ = fds.stdout.write_str(&out).await;
}

/// `readonly -f NAME`: each must be a function.
async fn readonly_functions(sh: &mut ShellState, operands: &[DeclArg], fds: &Fds) -> i32 {
    let mut status = 0;
    for o in operands {
        let n = match o {
            DeclArg::Plain(s) => s.as_str(),
            DeclArg::Assign(a) => a.name.as_str(),
        };
        match sh.funcs.get(n) {
            Some(func) => {
                let changed = crate::state::Function { readonly: true, ..crate::state::Function::clone(func) };
                std::sync::Arc::make_mut(&mut sh.funcs).insert(n.to_string(), std::sync::Arc::new(changed));
            }
            None => status = fail(sh.loc(), fds, &format!("readonly: {n}: not a function"), 1).await,
        }
    }
    status
}

/// `export -f NAME` / `declare -fx NAME` (`-n`/`+x`: no longer exported).
async fn export_functions(sh: &mut ShellState, cmd: &str, operands: &[DeclArg], on: bool, fds: &Fds) -> i32 {
    let mut status = 0;
    for o in operands {
        let n = match o {
            DeclArg::Plain(s) => s.as_str(),
            DeclArg::Assign(a) => a.name.as_str(),
        };
        let Some(func) = sh.funcs.get(n) else {
            status = fail(sh.loc(), fds, &format!("{cmd}: {n}: not a function"), 1).await;
            continue;
        };
        if func.exported != on {
            let changed = crate::state::Function { exported: on, ..crate::state::Function::clone(func) };
            std::sync::Arc::make_mut(&mut sh.funcs).insert(n.to_string(), std::sync::Arc::new(changed));
        }
    }
    status
}

async fn print_functions(
    sh: &ShellState,
    operands: &[DeclArg],
    names_only: bool,
    print: bool,
    only_exported: bool,
    fds: &Fds,
) -> i32 {
    let wanted: Vec<String> = operands
        .iter()
        .map(|o| match o {
            DeclArg::Plain(s) => s.clone(),
            DeclArg::Assign(a) => a.name.clone(),
        })
        .collect();
    // Named ones in the order named, all of them sorted.
    let names: Vec<&String> = if wanted.is_empty() {
        let mut all: Vec<&String> = sh.funcs.keys().collect();
        all.sort();
        all
    } else {
        wanted.iter().filter(|w| sh.funcs.contains_key(*w)).collect()
    };
    let mut out = String::new();
    let status = if wanted.iter().all(|w| sh.funcs.contains_key(w)) { 0 } else { 1 };
    for n in names {
        let exported = sh.funcs.get(n).is_some_and(|f| f.exported);
        if only_exported && !exported {
            continue;
        }
        let attrs = if exported { "-fx" } else { "-f" };
        if names_only && !wanted.is_empty() && !print {
            // `declare -F NAME` shows just the name (with `extdebug`, where
            // it was defined too); the bare listing is declarative.
            match sh.funcs.get(n) {
                Some(f) if sh.opts.extdebug => out.push_str(&format!("{n} {} {}\n", f.line, f.file)),
                _ => out.push_str(&format!("{n}\n")),
            }
        } else if names_only {
            out.push_str(&format!("declare {attrs} {n}\n"));
        } else if let Some(f) = sh.funcs.get(n) {
            out.push_str(&f.printed());
            out.push('\n');
            // The whole listing says which are exported, as `declare` would set them.
            if exported && wanted.is_empty() {
                out.push_str(&format!("declare -fx {n}\n"));
            }
        }
    }
    let _ = fds.stdout.write_str(&out).await;
    status
}
