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
}

pub async fn run(sh: &mut ShellState, name: &str, decl: Vec<DeclArg>, fds: &Fds) -> Result<i32, Flow> {
    let mut f = Flags::default();
    match name {
        "export" => f.export = Some(true),
        "readonly" => f.readonly = true,
        _ => {}
    }
    if name == "local" && !sh.vars.in_function() {
        return Ok(fail(sh.loc(), fds, "local: can only be used in a function", 1).await);
    }
    let mut operands: Vec<DeclArg> = Vec::new();
    let mut options_done = false;
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
                        'l' if on => f.case = Some(crate::state::Case::Lower),
                        'u' if on => f.case = Some(crate::state::Case::Upper),
                        'l' | 'u' | 't' | 'n' => {}
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
        return Ok(print_functions(sh, &operands, f.function_names, fds).await);
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
            match sh.vars.get(&n) {
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
        if local {
            sh.vars.declare_local(&var_name);
        } else {
            sh.vars.entry(&var_name);
        }
        {
            let v = sh.vars.entry(&var_name);
            if f.assoc && !matches!(v.value, Some(Value::Assoc(_))) {
                v.value = Some(Value::Assoc(BTreeMap::new()));
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
    if v.readonly {
        flags.push('r');
    }
    if v.exported {
        flags.push('x');
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
fn dquote(s: &str) -> String {
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
        let Some(v) = sh.vars.get(&n) else { continue };
        let show = match name {
            "export" => v.exported,
            "readonly" => v.readonly,
            _ => (!f.export.unwrap_or(false) || v.exported) && (!f.readonly || v.readonly),
        };
        if !show {
            continue;
        }
        if name == "declare" || name == "typeset" || name == "local" {
            if f.print || f.export.is_some() || f.readonly {
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

async fn print_functions(sh: &ShellState, operands: &[DeclArg], names_only: bool, fds: &Fds) -> i32 {
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
        if names_only {
            out.push_str(&format!("declare -f {n}\n"));
        } else if let Some(f) = sh.funcs.get(n) {
            out.push_str(&f.source);
            out.push('\n');
        }
    }
    let _ = fds.stdout.write(out.as_bytes()).await;
    status
}
