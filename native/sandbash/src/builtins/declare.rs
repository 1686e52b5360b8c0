//! `declare`/`typeset`, `local`, `export` and `readonly`: attributes and values.

use super::{fail, valid_name, DeclArg};
use crate::interp::simple::{store, Assigned, AssignedValue};
use crate::interp::{Fds, Flow};
use crate::state::{ShellState, Value, Var};
use std::collections::BTreeMap;

#[derive(Default)]
struct Flags {
    indexed: bool,
    assoc: bool,
    integer: bool,
    export: Option<bool>,
    readonly: bool,
    global: bool,
    print: bool,
    functions: bool,
    function_names: bool,
    case: Option<crate::state::Case>,
    /// `-n` / `+n`
    nameref: Option<bool>,
}

pub async fn run(sh: &mut ShellState, name: &str, decl: Vec<DeclArg>, fds: &Fds) -> Result<i32, Flow> {
    let mut f = Flags::default();
    match name {
        "export" => f.export = Some(true),
        "readonly" => f.readonly = true,
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
                for c in s[1..].chars() {
                    match c {
                        'a' => f.indexed = on,
                        'A' => f.assoc = on,
                        'i' => f.integer = on,
                        'x' => f.export = Some(on),
                        'r' => f.readonly = on,
                        'g' => f.global = on,
                        'p' => f.print = true,
                        'f' => f.functions = true,
                        'F' => f.function_names = true,
                        'n' if name == "export" => f.export = Some(false),
                        'n' => f.nameref = Some(on),
                        'l' if on => f.case = Some(crate::state::Case::Lower),
                        'u' if on => f.case = Some(crate::state::Case::Upper),
                        'l' | 'u' | 't' => {}
                        _ => {
                            let usage = format!("{name}: -{c}: invalid option");
                            return Ok(fail(sh.loc(), fds, &usage, 2).await);
                        }
                    }
                }
            }
            _ => {
                options_done = true;
                operands.push(a);
            }
        }
    }

    if f.functions || f.function_names {
        if let (Some(on), false) = (f.export, operands.is_empty()) {
            return Ok(export_functions(sh, name, &operands, on, fds).await);
        }
        let only_exported = f.export == Some(true);
        return Ok(print_functions(sh, &operands, f.function_names, only_exported, fds).await);
    }
    if operands.is_empty() {
        print_vars(sh, name, &f, fds).await;
        return Ok(0);
    }
    if f.print {
        let mut status = 0;
        for op in &operands {
            let n = match op {
                DeclArg::Plain(s) => s.clone(),
                DeclArg::Assign(a) => a.name.clone(),
            };
            match sh.vars.get_raw(&n) {
                Some(v) => {
                    let line = describe(&n, v);
                    let _ = fds.stdout.write(format!("{line}\n").as_bytes()).await;
                }
                None => {
                    status = fail(sh.loc(), fds, &format!("{name}: {n}: not found"), 1).await;
                }
            }
        }
        return Ok(status);
    }

    let local = (name == "local" || ((name == "declare" || name == "typeset") && sh.vars.in_function())) && !f.global;
    let mut status = 0;
    for op in operands {
        let shown = match &op {
            DeclArg::Plain(s) => s.clone(),
            DeclArg::Assign(a) => match &a.value {
                AssignedValue::Scalar(v) => format!("{}={v}", a.name),
                AssignedValue::Array(_) => a.name.clone(),
            },
        };
        let (var_name, assigned) = match op {
            DeclArg::Plain(s) => {
                let n = s.split_once('=').map_or(s.as_str(), |(n, _)| n).to_string();
                let value = s.split_once('=').map(|(_, v)| v.to_string());
                let a = value.map(|v| Assigned {
                    name: n.clone(),
                    index: None,
                    value: AssignedValue::Scalar(v),
                    append: false,
                });
                (n, a)
            }
            DeclArg::Assign(a) => (a.name.clone(), Some(a)),
        };
        if !valid_name(&var_name) {
            status = fail(sh.loc(), fds, &format!("{name}: `{shown}': not a valid identifier"), 1).await;
            continue;
        }
        if f.nameref == Some(true) {
            match declare_nameref(sh, name, &var_name, assigned, local, &f, fds).await {
                Ok(s) => status = status.max(s),
                Err(e) => return Err(e),
            }
            continue;
        }
        if f.nameref == Some(false) && sh.vars.is_nameref(&var_name) {
            sh.vars.entry_raw(&var_name).nameref = false;
        }
        if local {
            sh.vars.declare_local(&var_name);
        } else {
            sh.vars.entry(&var_name);
        }
        {
            let v = sh.vars.entry(&var_name);
            if f.assoc && !matches!(v.value, Some(Value::Assoc(_))) {
                v.value = Some(Value::Assoc(crate::state::assoc::AssocMap::new()));
            } else if f.indexed && !matches!(v.value, Some(Value::Indexed(_))) {
                let old = v.value.take();
                let mut m = BTreeMap::new();
                if let Some(Value::Scalar(s)) = old {
                    m.insert(0, s);
                }
                v.value = Some(Value::Indexed(m));
            }
            if f.integer {
                v.integer = true;
            }
            if let Some(c) = f.case {
                v.case = Some(c);
                if let Some(Value::Scalar(s)) = v.value.take() {
                    v.value = Some(Value::Scalar(c.apply(s)));
                }
            }
        }
        if let Some(a) = assigned {
            if let Err(e) = store(sh, a) {
                e.report(sh, fds, &format!("{name}: ")).await?;
                status = 1;
                continue;
            }
        }
        let v = sh.vars.entry(&var_name);
        if let Some(x) = f.export {
            v.exported = x;
        }
        if f.readonly {
            v.readonly = true;
        }
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
    if let Some(t) = &target {
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
    if let Some(x) = f.export {
        v.exported = x;
    }
    if f.readonly {
        v.readonly = true;
    }
    Ok(0)
}

/// `declare -p NAME` text for one variable.
pub fn describe(name: &str, v: &Var) -> String {
    let mut flags = String::new();
    match &v.value {
        Some(Value::Indexed(_)) => flags.push('a'),
        Some(Value::Assoc(_)) => flags.push('A'),
        _ => {}
    }
    if v.integer {
        flags.push('i');
    }
    if v.nameref {
        flags.push('n');
    }
    if v.readonly {
        flags.push('r');
    }
    if v.exported {
        flags.push('x');
    }
    match v.case {
        Some(crate::state::Case::Lower) => flags.push('l'),
        Some(crate::state::Case::Upper) => flags.push('u'),
        None => {}
    }
    if flags.is_empty() {
        flags.push('-');
    }
    match &v.value {
        None => format!("declare -{flags} {name}"),
        Some(Value::Scalar(s)) => format!("declare -{flags} {name}={}", dquote(s)),
        Some(Value::Indexed(m)) => {
            let items: Vec<String> = m.iter().map(|(k, v)| format!("[{k}]={}", dquote(v))).collect();
            format!("declare -{flags} {name}=({})", items.join(" "))
        }
        Some(Value::Assoc(m)) => {
            let items: String = m.iter().map(|(k, v)| format!("[{k}]={} ", dquote(v))).collect();
            format!("declare -{flags} {name}=({items})")
        }
    }
}

/// Double-quote for `declare -p`.
pub(crate) fn dquote(s: &str) -> String {
    if s.chars().any(|c| c.is_control()) {
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

async fn print_vars(sh: &ShellState, name: &str, f: &Flags, fds: &Fds) {
    let mut out = String::new();
    for n in sh.vars.names() {
        let Some(v) = sh.vars.get_raw(&n) else { continue };
        let show = match name {
            "export" => v.exported,
            "readonly" => v.readonly,
            _ => {
                (!f.export.unwrap_or(false) || v.exported)
                    && (!f.readonly || v.readonly)
                    && (f.nameref != Some(true) || v.nameref)
            }
        };
        if !show {
            continue;
        }
        if name == "declare" || name == "typeset" || name == "local" {
            if f.print || f.export.is_some() || f.readonly || f.nameref.is_some() {
                out.push_str(&describe(&n, v));
            } else {
                match &v.value {
                    Some(Value::Scalar(s)) => {
                        out.push_str(&format!("{n}={}", crate::expand::param::quote_if_needed(s)))
                    }
                    None => continue,
                    _ => out.push_str(&describe(&n, v)),
                }
            }
        } else {
            out.push_str(&describe(&n, v));
        }
        out.push('\n');
    }
    let _ = fds.stdout.write(out.as_bytes()).await;
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
    let mut names: Vec<&String> = sh.funcs.keys().collect();
    names.sort();
    let mut out = String::new();
    let mut status = 0;
    for w in &wanted {
        if !sh.funcs.contains_key(w) {
            status = 1;
        }
    }
    for n in names {
        if !wanted.is_empty() && !wanted.contains(n) {
            continue;
        }
        let exported = sh.funcs.get(n).is_some_and(|f| f.exported);
        if only_exported && !exported {
            continue;
        }
        let attrs = if exported { "-fx" } else { "-f" };
        if names_only && !wanted.is_empty() {
            // `declare -F NAME` shows just the name; the bare listing is declarative.
            out.push_str(&format!("{n}\n"));
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
    let _ = fds.stdout.write(out.as_bytes()).await;
    status
}
