//! Shell state in a snapshot: mirror structs of the persistent parts of
//! [`ShellState`], and the checks that rebuild it from them.

use super::format::{Seq, Text};
use crate::state::{Case, Function, ShellState, Value, Var, Variables};
use crate::Limits;
use bincode::{Decode, Encode};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub struct StateM {
    /// Variable scopes, global first (only the global one at a command boundary).
    pub scopes: Seq<Seq<VarM>>,
    /// Empty when functions were excluded.
    pub funcs: Seq<FuncM>,
    pub positional: Seq<Text>,
    pub arg0: Text,
    pub cwd: Text,
    pub last_status: i32,
    /// Names of the options that are on (`set -o` and `shopt` names), then
    /// `!name` for those off that a fresh shell has on: names, not a struct
    /// of bools, so an option added later changes no layout.
    pub options: Seq<Text>,
    /// Condition name (`EXIT`, `ERR`, `INT`, ...) and action.
    pub traps: Seq<(Text, Text)>,
}

/// The file creation mask rides among the options as `umask=0077`, present
/// only when it is not the default: every version's layout holds it, and a
/// snapshot of a session that never ran `umask` is as it was.
const UMASK_ENTRY: &str = "umask=";

fn umask_entry(mask: u32) -> Option<Text> {
    (mask != crate::fs::umask::DEFAULT).then(|| text(&format!("{UMASK_ENTRY}{mask:04o}")))
}

#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub struct VarM {
    pub name: Text,
    /// `ATTR_*` bits.
    pub attrs: u8,
    pub value: ValueM,
}

pub const ATTR_EXPORTED: u8 = 1;
pub const ATTR_READONLY: u8 = 2;
pub const ATTR_INTEGER: u8 = 4;
pub const ATTR_LOWER: u8 = 8;
pub const ATTR_UPPER: u8 = 16;
pub const ATTR_NAMEREF: u8 = 32;
/// `declare -t`.
pub const ATTR_TRACE: u8 = 64;
/// An array declared without a value (`declare -a x`).
pub const ATTR_UNASSIGNED: u8 = 128;

#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub enum ValueM {
    /// Declared without a value (`local x`, `declare -i n`).
    Unset,
    Scalar(Text),
    Indexed(Seq<(i64, Text)>),
    Assoc(Seq<(Text, Text)>),
}

/// A function as its definition's text, parsed again on restore so the
/// format never depends on the parser's AST.
#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub struct FuncM {
    pub name: Text,
    pub source: Text,
}

fn text(s: &str) -> Text {
    Text(s.to_string())
}

/// The mirror of `sh`'s persistent state; maps are written sorted, so one
/// state always gives the same bytes.
pub fn capture(sh: &ShellState, with_funcs: bool) -> StateM {
    let scopes = sh
        .vars
        .scopes()
        .map(|scope| {
            let mut vars: Vec<(&str, &crate::state::Var)> = scope.collect();
            vars.sort_by(|a, b| a.0.cmp(b.0));
            vars.into_iter().map(|(n, v)| var_mirror(n, v)).collect()
        })
        .collect();
    let funcs = if with_funcs {
        let mut names: Vec<&String> = sh.funcs.keys().collect();
        names.sort();
        names
            .into_iter()
            .filter_map(|n| sh.funcs.get(n).map(|f| FuncM { name: text(n), source: text(&f.source) }))
            .collect()
    } else {
        Seq(Vec::new())
    };
    StateM {
        scopes,
        funcs,
        positional: sh.positional.iter().map(|s| text(s)).collect(),
        arg0: text(&sh.arg0),
        cwd: text(&sh.cwd),
        last_status: sh.last_status,
        options: sh.opts.to_saved().iter().map(|n| text(n)).chain(umask_entry(sh.umask)).collect(),
        traps: sh.traps.iter().map(|(k, v)| (text(k), text(v))).collect(),
    }
}

fn var_mirror(name: &str, v: &Var) -> VarM {
    let mut attrs = 0;
    for (on, bit) in [
        (v.exported, ATTR_EXPORTED),
        (v.readonly, ATTR_READONLY),
        (v.integer, ATTR_INTEGER),
        (v.nameref, ATTR_NAMEREF),
        (v.trace, ATTR_TRACE),
        (v.unassigned, ATTR_UNASSIGNED),
    ] {
        if on {
            attrs |= bit;
        }
    }
    match v.case {
        Some(Case::Lower) => attrs |= ATTR_LOWER,
        Some(Case::Upper) => attrs |= ATTR_UPPER,
        // `declare -c`: both bits.
        Some(Case::Capital) => attrs |= ATTR_LOWER | ATTR_UPPER,
        None => {}
    }
    let value = match &v.value {
        None => ValueM::Unset,
        Some(Value::Scalar(s)) => ValueM::Scalar(text(s)),
        Some(Value::Indexed(m)) => ValueM::Indexed(m.iter().map(|(i, s)| (*i, text(s))).collect()),
        Some(Value::Assoc(m)) => ValueM::Assoc(m.iter_inserted().map(|(k, s)| (text(k), text(s))).collect()),
    };
    VarM { name: text(name), attrs, value }
}

/// A new state: `base` (the target session's) with every persistent part
/// replaced by the snapshot's; with `keep_funcs` (the snapshot excluded
/// functions) `base`'s functions stay. `Err` says what is wrong.
pub fn rebuild(m: StateM, base: &ShellState, limits: &Limits, keep_funcs: bool) -> Result<ShellState, String> {
    let max = limits.max_string_bytes;
    let fits = |what: &str, s: &str| -> Result<(), String> {
        if s.len() as u64 > max {
            return Err(format!("{what} is {} bytes, more than max_string_bytes ({max})", s.len()));
        }
        Ok(())
    };
    if m.scopes.0.is_empty() {
        return Err("no variable scope".into());
    }
    let mut scopes = Vec::with_capacity(m.scopes.0.len());
    for scope in m.scopes.0 {
        let mut map = HashMap::with_capacity(scope.0.len());
        for v in scope.0 {
            let name = v.name.0;
            check_var_name(&name)?;
            let var = var_from(&name, v.attrs, v.value, &fits)?;
            if map.insert(name.clone(), var).is_some() {
                return Err(format!("variable {name} appears twice in one scope"));
            }
        }
        scopes.push(map);
    }
    let vars = Variables::from_scopes(scopes).ok_or("no variable scope")?;

    let funcs = if keep_funcs {
        base.funcs.clone()
    } else {
        let mut funcs = crate::state::Functions::with_capacity_and_hasher(m.funcs.0.len(), Default::default());
        for f in m.funcs.0 {
            let func = parse_function(&f.name.0, &f.source.0, limits)?;
            if funcs.insert(f.name.0.clone(), Arc::new(func)).is_some() {
                return Err(format!("function {} appears twice", f.name.0));
            }
        }
        Arc::new(funcs)
    };

    for p in &m.positional.0 {
        fits("a positional parameter", &p.0)?;
    }
    fits("$0", &m.arg0.0)?;
    let cwd = m.cwd.0;
    if !cwd.starts_with('/') || crate::fs::path::normalize(&cwd) != cwd {
        return Err(format!("cwd {cwd:?} is not an absolute normalized path"));
    }

    let mut opts = crate::state::Options::default();
    let mut umask = crate::fs::umask::DEFAULT;
    for name in &m.options.0 {
        if let Some(octal) = name.0.strip_prefix(UMASK_ENTRY) {
            umask = u32::from_str_radix(octal, 8)
                .ok()
                .filter(|m| *m <= 0o777)
                .ok_or_else(|| format!("umask {octal:?} is not an octal mask up to 777"))?;
            continue;
        }
        if !opts.apply_saved(&name.0) {
            return Err(format!("unknown option {:?}", name.0));
        }
    }

    let mut traps = BTreeMap::new();
    for (cond, action) in m.traps.0 {
        // Stored under the canonical name, as `trap` itself stores them.
        if crate::builtins::trap_condition(&cond.0).as_deref() != Some(cond.0.as_str()) {
            return Err(format!("unknown trap condition {:?}", cond.0));
        }
        fits("a trap action", &action.0)?;
        if traps.insert(cond.0.clone(), action.0).is_some() {
            return Err(format!("trap {} appears twice", cond.0));
        }
    }

    let mut sh = base.clone();
    sh.vars = vars;
    sh.funcs = funcs;
    sh.positional = Arc::new(m.positional.0.into_iter().map(|t| t.0).collect());
    sh.arg0 = m.arg0.0;
    sh.cwd = cwd;
    sh.last_status = m.last_status;
    sh.opts = opts;
    sh.set_umask(umask);
    sh.traps = Arc::new(traps);
    // What only lives while a script runs starts afresh, as at any command boundary.
    sh.line = 1;
    sh.func_depth = 0;
    sh.subshell_depth = 0;
    sh.in_condition = false;
    sh.subst_status = None;
    sh.in_source = false;
    sh.exec_fds = None;
    sh.loop_depth = 0;
    Ok(sh)
}

/// Names as an environment can hold them: a variable seeded through the
/// builder's `env` need not be a shell identifier, so only what no name can
/// contain is refused.
fn check_var_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains(['=', '\0']) {
        return Err(format!("bad variable name {name:?}"));
    }
    Ok(())
}

fn var_from(
    name: &str,
    attrs: u8,
    value: ValueM,
    fits: &dyn Fn(&str, &str) -> Result<(), String>,
) -> Result<Var, String> {
    // Every bit of `attrs` has a meaning (up to ATTR_UNASSIGNED): none is unknown.
    let case = match (attrs & ATTR_LOWER != 0, attrs & ATTR_UPPER != 0) {
        (true, true) => Some(Case::Capital),
        (true, false) => Some(Case::Lower),
        (false, true) => Some(Case::Upper),
        (false, false) => None,
    };
    let what = format!("variable {name}");
    let value = match value {
        ValueM::Unset => None,
        ValueM::Scalar(s) => {
            fits(&what, &s.0)?;
            Some(Value::Scalar(s.0))
        }
        ValueM::Indexed(items) => {
            let mut m = BTreeMap::new();
            for (i, s) in items.0 {
                fits(&what, &s.0)?;
                if m.insert(i, s.0).is_some() {
                    return Err(format!("{what}: repeated index {i}"));
                }
            }
            Some(Value::Indexed(m))
        }
        ValueM::Assoc(items) => {
            let mut m = crate::state::assoc::AssocMap::new();
            for (k, s) in items.0 {
                fits(&what, &k.0)?;
                fits(&what, &s.0)?;
                if m.insert(k.0.clone(), s.0).is_some() {
                    return Err(format!("{what}: repeated key {:?}", k.0));
                }
            }
            Some(Value::Assoc(m))
        }
    };
    Ok(Var {
        value,
        exported: attrs & ATTR_EXPORTED != 0,
        readonly: attrs & ATTR_READONLY != 0,
        integer: attrs & ATTR_INTEGER != 0,
        case,
        nameref: attrs & ATTR_NAMEREF != 0,
        trace: attrs & ATTR_TRACE != 0,
        unassigned: attrs & ATTR_UNASSIGNED != 0,
        ..Var::empty()
    })
}

/// Parse a function's text back; it must be one definition of `name` and nothing else.
fn parse_function(name: &str, source: &str, limits: &Limits) -> Result<Function, String> {
    if source.len() as u64 > limits.max_input_bytes {
        return Err(format!("function {name}: {} bytes, more than max_input_bytes", source.len()));
    }
    let parsed = crate::syntax::parse(source, limits.max_parser_depth as usize)
        .map_err(|e| format!("function {name} does not parse: {e}"))?;
    let def =
        single_definition(&parsed.program).ok_or_else(|| format!("function {name}: not one function definition"))?;
    if def.fname.value != name {
        return Err(format!("function {name}: the text defines {:?}", def.fname.value));
    }
    // The stored text stays what `declare -f` shows.
    // Where it was defined is not kept: it counts as defined by `-c` text.
    let file = "environment".into();
    Ok(Function {
        def: def.clone(),
        name: name.into(),
        source: source.to_string(),
        program: parsed.source,
        exported: false,
        readonly: false,
        file,
        line: 0,
    })
}

fn single_definition(p: &brush_parser::ast::Program) -> Option<&brush_parser::ast::FunctionDefinition> {
    use brush_parser::ast::Command;
    let [list] = p.complete_commands.as_slice() else { return None };
    let [item] = list.0.as_slice() else { return None };
    let and_or = &item.0;
    if !and_or.additional.is_empty() || and_or.first.bang || and_or.first.timed.is_some() {
        return None;
    }
    match and_or.first.seq.as_slice() {
        [Command::Function(def)] => Some(def),
        _ => None,
    }
}
