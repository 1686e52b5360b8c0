//! Parameter expansion: `$x`, `${x...}` with every operator brush-parser knows,
//! special parameters, positional parameters and arrays.

mod ops;
pub use ops::*;

use super::{abort, arith, expand_pattern, expand_pieces, expand_string, fatal, fatal_status, Fields};
use crate::interp::{Fds, Flow};
use crate::limits::{Budget, Stop};
use crate::pattern::{Pattern, Searcher};
use crate::state::{ShellState, Value, Var};
use brush_parser::word::{
    Parameter, ParameterExpr, ParameterTestType, ParameterTransformOp, SpecialParameter, SubstringMatchKind, TildeExpr,
};
use std::sync::atomic::{AtomicU64, Ordering};

/// A looked-up parameter.
#[derive(Clone, Debug)]
enum PV {
    Unset,
    Str(String),
    /// `$@`, `$*`, `${a[@]}`, `${a[*]}`: elements, and whether `*` (joined) was used.
    List(Vec<String>, bool),
}

impl PV {
    fn is_unset_for(&self, t: &ParameterTestType) -> bool {
        match (self, t) {
            (PV::Unset, _) => true,
            (PV::Str(s), ParameterTestType::UnsetOrNull) => s.is_empty(),
            (PV::List(v, _), ParameterTestType::UnsetOrNull) => v.is_empty() || (v.len() == 1 && v[0].is_empty()),
            (PV::List(v, _), ParameterTestType::Unset) => v.is_empty(),
            _ => false,
        }
    }
    fn map(self, f: impl Fn(&str) -> String) -> PV {
        match self {
            PV::Unset => PV::Unset,
            PV::Str(s) => PV::Str(f(&s)),
            PV::List(v, c) => PV::List(v.iter().map(|s| f(s)).collect(), c),
        }
    }
    /// [`map`](Self::map) with a function that can stop the exec.
    fn try_map(self, mut f: impl FnMut(&str) -> Result<String, Stop>) -> Result<PV, Stop> {
        Ok(match self {
            PV::Unset => PV::Unset,
            PV::Str(s) => PV::Str(f(&s)?),
            PV::List(v, c) => PV::List(v.iter().map(|s| f(s)).collect::<Result<_, _>>()?, c),
        })
    }
}

fn ifs_sep(sh: &ShellState) -> String {
    match sh.get_var("IFS") {
        None => " ".into(),
        Some(s) => s.chars().next().map(String::from).unwrap_or_default(),
    }
}

/// `~`, `~user`, `~+`, `~-`.
pub fn tilde(sh: &ShellState, t: &TildeExpr) -> String {
    match t {
        TildeExpr::Home => sh.get_var("HOME").unwrap_or_default(),
        TildeExpr::UserHome(u) => {
            if *u == sh.sys.username {
                format!("/home/{u}")
            } else if u == "root" {
                "/root".into()
            } else {
                format!("~{u}")
            }
        }
        TildeExpr::WorkingDir => sh.cwd.clone(),
        TildeExpr::OldWorkingDir => sh.get_var("OLDPWD").unwrap_or_else(|| "~-".into()),
        // `~N`/`~+N` and `~-N`: an entry of `dirs`, counted from its top
        // or its bottom; past its end, the text as written.
        TildeExpr::NthDirFromTopOfDirStack { n, plus_used } => {
            let all = crate::builtins::dirstack::entries(sh);
            match all.get(*n) {
                Some(d) => d.clone(),
                None => format!("~{}{n}", if *plus_used { "+" } else { "" }),
            }
        }
        TildeExpr::NthDirFromBottomOfDirStack { n } => {
            let all = crate::builtins::dirstack::entries(sh);
            match all.len().checked_sub(n + 1).and_then(|i| all.get(i)) {
                Some(d) => d.clone(),
                None => format!("~-{n}"),
            }
        }
    }
}

fn param_name(p: &Parameter) -> String {
    match p {
        Parameter::Positional(n) => n.to_string(),
        Parameter::Special(s) => s.to_string(),
        Parameter::Named(n) => n.clone(),
        Parameter::NamedWithIndex { name, index } => format!("{name}[{index}]"),
        Parameter::NamedWithAllIndices { name, concatenate } => {
            format!("{name}[{}]", if *concatenate { '*' } else { '@' })
        }
    }
}

static RANDOM_STATE: AtomicU64 = AtomicU64::new(0x2545_F491_4F6C_DD1D);

pub(crate) fn next_random() -> u64 {
    // xorshift; RANDOM only needs to look random, not be secure.
    let mut x = RANDOM_STATE.load(Ordering::Relaxed);
    if x == 0x2545_F491_4F6C_DD1D {
        x ^= std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    RANDOM_STATE.store(x, Ordering::Relaxed);
    x
}

fn epoch() -> std::time::Duration {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default()
}

/// The variables [`dynamic_var`] and [`array_value`] compute: bash lists
/// them among the set ones (`compgen -v`, `${!prefix*}`).
const DYNAMIC_NAMES: [&str; 15] = [
    "BASH",
    "BASHOPTS",
    "BASHPID",
    "BASH_ALIASES",
    "BASH_ARGV0",
    "BASH_COMMAND",
    "BASH_SUBSHELL",
    "DIRSTACK",
    "EPOCHREALTIME",
    "EPOCHSECONDS",
    "LINENO",
    "RANDOM",
    "SECONDS",
    "SHELLOPTS",
    "SRANDOM",
];

/// The names of the set variables, sorted: those with a value (namerefs
/// not followed) and the computed ones.
pub(crate) fn set_names(sh: &ShellState) -> Vec<String> {
    let mut names: Vec<String> = sh
        .vars
        .names()
        .into_iter()
        .filter(|n| sh.vars.get_raw(n).is_some_and(|v| v.value.is_some() && !v.unassigned))
        .collect();
    names.extend(DYNAMIC_NAMES.iter().filter(|d| sh.vars.get_raw(d).is_none()).map(|d| d.to_string()));
    names.sort();
    names.dedup();
    names
}

/// A variable bash computes, as `declare -p` shows it: `-i` for the counters,
/// `DIRSTACK` an array, `BASH_ALIASES` an associative one. `None` for a
/// name that is not one (or was unset, or is a plain variable now).
pub(crate) fn dynamic_as_var(sh: &ShellState, name: &str) -> Option<Var> {
    if !DYNAMIC_NAMES.contains(&name) || sh.vars.get_raw(name).is_some() || matches!(name, "SHELLOPTS" | "BASHOPTS") {
        return None;
    }
    let value = match name {
        "DIRSTACK" | "BASH_ALIASES" => array_value(sh, name)?,
        _ => Value::Scalar(dynamic_var(sh, name)?),
    };
    let integer = matches!(name, "BASHPID" | "RANDOM" | "SECONDS" | "SRANDOM");
    Some(Var { value: Some(value), integer, ..Var::empty() })
}

/// Whether `name` is a computed variable that is set (`[[ -v RANDOM ]]`),
/// without computing it (a read of `RANDOM` moves its generator).
pub(crate) fn dynamic_is_set(sh: &ShellState, name: &str) -> bool {
    let not_set = match name {
        // Plain variables once unset.
        "SECONDS" => sh.seconds_plain(),
        "LINENO" => sh.lineno_plain,
        // An associative array is set by its key "0", which no alias has.
        "BASH_ALIASES" => true,
        _ => false,
    };
    !not_set && DYNAMIC_NAMES.contains(&name) && sh.vars.get_raw(name).is_none()
}

/// Variables bash computes on every read.
pub(crate) fn dynamic_var(sh: &ShellState, name: &str) -> Option<String> {
    Some(match name {
        "RANDOM" => sh.random.next().map_or_else(|| next_random() % 32768, u64::from).to_string(),
        // 32 random bits, as bash's SRANDOM.
        "SRANDOM" => (next_random() >> 32).to_string(),
        "EPOCHSECONDS" => epoch().as_secs().to_string(),
        "EPOCHREALTIME" => {
            let d = epoch();
            format!("{}.{:06}", d.as_secs(), d.subsec_micros())
        }
        "LINENO" if sh.lineno_plain => return None,
        "LINENO" => sh.line.to_string(),
        "SECONDS" if sh.seconds_plain() => return None,
        "SECONDS" => (sh.seconds.1.saturating_add(sh.seconds.0.elapsed().as_secs() as i64)).to_string(),
        "BASHPID" => "1".into(),
        "BASH" => "/bin/bash".into(),
        "BASH_ARGV0" => sh.arg0.clone(),
        "DIRSTACK" => sh.cwd.clone(),
        "BASH_COMMAND" => sh.bash_command(),
        "SHELLOPTS" => sh.opts.shellopts(),
        "BASHOPTS" => sh.opts.bashopts(),
        "BASH_SUBSHELL" => sh.subshell_depth.saturating_sub(sh.shell_base).to_string(),
        // `$#` under the name a `${##pat}` is rewritten to (see `mark_toggles`).
        super::NARGS => sh.positional.len().to_string(),
        _ => return None,
    })
}

/// The value of an array parameter: DIRSTACK is computed from the stack.
/// `f` of the value of array `name`, borrowed (`DIRSTACK` is built).
fn with_array<R>(sh: &ShellState, name: &str, f: impl FnOnce(Option<&Value>) -> R) -> R {
    if matches!(name, "DIRSTACK" | "BASH_ALIASES") && sh.vars.get_raw(name).is_none() {
        return f(array_value(sh, name).as_ref());
    }
    f(sh.vars.get_set(name).and_then(|v| v.value.as_ref()))
}

fn array_value(sh: &ShellState, name: &str) -> Option<Value> {
    if name == "DIRSTACK" && sh.vars.get_raw(name).is_none() {
        let all = crate::builtins::dirstack::entries(sh);
        return Some(Value::Indexed(all.into_iter().enumerate().map(|(i, d)| (i as i64, d)).collect()));
    }
    // The aliases defined, as an associative array.
    if name == "BASH_ALIASES" && sh.vars.get_raw(name).is_none() {
        return Some(Value::Assoc(sh.aliases.iter().map(|(k, v)| (k.clone(), v.clone())).collect()));
    }
    sh.vars.get_set(name).and_then(|v| v.value.clone())
}

/// Evaluate an index for an indexed array (arithmetic; negative counts from
/// the end). Unlike `$(( ))`, an error here ends the shell with status 1.
async fn array_index(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<i64, Flow> {
    match arith::eval_checked(sh, fds, raw).await? {
        Ok(v) => Ok(v),
        Err(m) => {
            arith::report(sh, fds, "", &m).await?;
            Err(Flow::Exit(1))
        }
    }
}

/// A substring offset or length: arithmetic whose errors bash prefixes with
/// the parameter (`x: 1/0: division by 0 ...`), abandoning the line.
async fn substring_number(sh: &mut ShellState, fds: &Fds, pname: &str, raw: &str) -> Result<i64, Flow> {
    match arith::eval_checked(sh, fds, raw).await? {
        Ok(v) => Ok(v),
        Err(m) => {
            arith::report(sh, fds, &format!("{pname}: "), &m).await?;
            Err(Flow::Abort(1))
        }
    }
}

/// The word of `${x?word}` as bash's message shows it: expanded with `$?`
/// already 1, the results of expansions split, the fields joined by spaces.
async fn error_word(sh: &mut ShellState, fds: &Fds, raw: &str) -> Result<String, Flow> {
    sh.last_status = 1;
    let fields = super::expand_to_segs(sh, fds, raw).await?;
    let ifs = sh.get_var("IFS");
    let mut words: Vec<String> = Vec::new();
    for field in fields {
        for parts in super::split::split_within(&sh.budget.limits, field, ifs.as_deref(), words.len())? {
            words.push(parts.iter().map(|s| s.0.as_str()).collect());
        }
    }
    Ok(words.join(" "))
}

/// bash's warning for a negative index before the start of an array (the
/// expansion goes on, empty; under `set -e` the shell exits with status 1).
async fn bad_subscript(sh: &ShellState, fds: &Fds, name: &str) -> Result<(), Flow> {
    fds.shell_err(sh.loc(), &format!("{name}: bad array subscript")).await;
    if sh.opts.errexit {
        return Err(Flow::Exit(1));
    }
    Ok(())
}

/// Look a parameter up.
async fn lookup(sh: &mut ShellState, fds: &Fds, p: &Parameter) -> Result<PV, Flow> {
    Ok(match p {
        Parameter::Positional(n) => match sh.positional.get((*n as usize).wrapping_sub(1)) {
            Some(v) if *n > 0 => PV::Str(v.clone()),
            _ if *n == 0 => PV::Str(sh.arg0.clone()),
            _ => PV::Unset,
        },
        Parameter::Special(s) => match s {
            SpecialParameter::AllPositionalParameters { concatenate } => PV::List(sh.positional.to_vec(), *concatenate),
            SpecialParameter::PositionalParameterCount => PV::Str(sh.positional.len().to_string()),
            SpecialParameter::LastExitStatus => PV::Str(sh.last_status.to_string()),
            SpecialParameter::CurrentOptionFlags => PV::Str(sh.opts.flags()),
            SpecialParameter::ProcessId => PV::Str("1".into()),
            SpecialParameter::LastBackgroundProcessId => match sh.jobs.last_pid {
                Some(p) => PV::Str(p.to_string()),
                None => PV::Unset,
            },
            SpecialParameter::ShellName => PV::Str(sh.arg0.clone()),
        },
        Parameter::Named(name) if sh.vars.has_refs() && sh.vars.is_nameref(name) => match sh.vars.resolve(name) {
            crate::state::Resolved::Element(base, index) => {
                let p = match index.as_str() {
                    "@" | "*" => Parameter::NamedWithAllIndices { name: base, concatenate: index == "*" },
                    _ => Parameter::NamedWithIndex { name: base, index },
                };
                return Box::pin(lookup(sh, fds, &p)).await;
            }
            crate::state::Resolved::Circular(n) => {
                fds.shell_err(sh.loc(), &format!("warning: {n}: circular name reference")).await;
                PV::Unset
            }
            crate::state::Resolved::Name(target, _) => match sh.vars.get_set(name).and_then(|v| v.value.as_ref()) {
                Some(val) => val.as_scalar().map_or(PV::Unset, PV::Str),
                // A reference to `RANDOM`, `LINENO`, ...: the live value.
                None => {
                    let target = target.into_owned();
                    dynamic_var(sh, &target).map_or(PV::Unset, PV::Str)
                }
            },
        },
        Parameter::Named(name) => match sh.vars.get_set(name) {
            Some(v) => match &v.value {
                Some(val) => val.as_scalar().map_or(PV::Unset, PV::Str),
                None => PV::Unset,
            },
            None => dynamic_var(sh, name).map_or(PV::Unset, PV::Str),
        },
        Parameter::NamedWithIndex { name, index } => {
            // The subscript is evaluated first, then the element is looked up
            // in place (copying the array for each access made loops over a
            // large array quadratic).
            match with_array(sh, name, |v| matches!(v, Some(Value::Assoc(_)))) {
                true => {
                    let key = expand_string(sh, fds, index).await?;
                    with_array(sh, name, |v| match v {
                        Some(Value::Assoc(m)) => m.get(&key).cloned(),
                        _ => None,
                    })
                    .map_or(PV::Unset, PV::Str)
                }
                false => {
                    let i = array_index(sh, fds, index).await?;
                    let (found, bad) = with_array(sh, name, |v| match v {
                        Some(Value::Indexed(m)) => {
                            let len = m.keys().next_back().map_or(0, |k| k + 1);
                            let at = if i < 0 { i + len } else { i };
                            (m.get(&at).cloned(), at < 0)
                        }
                        // A scalar is element 0; a negative index is bad (bash warns).
                        Some(Value::Scalar(s)) => ((i == 0).then(|| s.clone()), i < 0),
                        _ => (None, i < 0),
                    });
                    if bad {
                        bad_subscript(sh, fds, name).await?;
                    }
                    found.map_or(PV::Unset, PV::Str)
                }
            }
        }
        Parameter::NamedWithAllIndices { name, concatenate } => match array_value(sh, name) {
            Some(Value::Indexed(m)) => PV::List(m.into_values().collect(), *concatenate),
            Some(Value::Assoc(m)) => PV::List(m.into_values(), *concatenate),
            Some(Value::Scalar(s)) => PV::List(vec![s], *concatenate),
            None => PV::List(Vec::new(), *concatenate),
        },
    })
}

/// `${n:=v}` and `${n[i]:=v}` store as `n=v` (`n[i]=v`) does: attributes
/// apply (`-i` evaluates, `-u` raises); a readonly variable abandons the line.
async fn assign_default(
    sh: &mut ShellState,
    fds: &Fds,
    name: &str,
    index: Option<String>,
    val: String,
) -> Result<(), Flow> {
    use crate::interp::simple::{store, Assigned, AssignedValue, StoreError};
    let a = Assigned { name: name.to_string(), index, value: AssignedValue::Scalar(val), append: false };
    match store(sh, a) {
        Ok(()) => Ok(()),
        Err(StoreError::Msg(m)) => {
            fds.shell_err(sh.loc(), &m).await;
            Err(Flow::Abort(1))
        }
        Err(e) => {
            e.report(sh, fds, "").await?;
            Err(Flow::Abort(1))
        }
    }
}

/// The keys of array `name` (`${!a[@]}`); a scalar has key 0.
fn array_keys(sh: &ShellState, name: &str) -> Vec<String> {
    match array_value(sh, name) {
        Some(Value::Indexed(m)) => m.keys().map(|k| k.to_string()).collect(),
        Some(Value::Assoc(m)) => m.keys().cloned().collect(),
        Some(Value::Scalar(_)) => vec!["0".to_string()],
        None => Vec::new(),
    }
}

/// Resolve `${!x}`: the value of x names the parameter to expand.
async fn lookup_indirect(sh: &mut ShellState, fds: &Fds, p: &Parameter) -> Result<PV, Flow> {
    // `${!ref}` of a nameref is the name it refers to, at the end of a chain.
    if let Parameter::Named(n) = p {
        if let Some(v) = sh.vars.get_raw(n).filter(|v| v.nameref && sh.vars.has_refs()) {
            if let Some(Value::Scalar(t)) = &v.value {
                if !t.is_empty() {
                    let end = match sh.vars.resolve(n) {
                        crate::state::Resolved::Name(f, _) => f.into_owned(),
                        crate::state::Resolved::Element(b, i) => format!("{b}[{i}]"),
                        crate::state::Resolved::Circular(_) => t.clone(),
                    };
                    return Ok(PV::Str(end));
                }
            }
        }
    }
    let target = match lookup(sh, fds, p).await? {
        PV::Str(s) => s,
        // `${!a[@]-x}`: the elements joined name the parameter; none is unset.
        // (An unset array is an error, as any unset name is.)
        PV::List(l, _) if matches!(p, Parameter::NamedWithAllIndices { name, .. } if sh.vars.get(name).is_some()) => {
            if l.is_empty() {
                return Ok(PV::Unset);
            }
            l.join(" ")
        }
        // `${!@}` and `${!*}`: the parameters joined (with a space, with
        // IFS's first character) name the target; none refer to nothing.
        PV::List(l, star) if matches!(p, Parameter::Special(SpecialParameter::AllPositionalParameters { .. })) => {
            if l.is_empty() {
                return Ok(PV::Unset);
            }
            l.join(if star { ifs_sep(sh) } else { " ".to_string() }.as_str())
        }
        // An unset positional parameter refers to nothing (`${!1}` is empty).
        PV::Unset if matches!(p, Parameter::Positional(_)) => return Ok(PV::Unset),
        // A variable declared without a value refers to nothing either.
        PV::Unset if matches!(p, Parameter::Named(n) if sh.vars.get(n).is_some()) => return Ok(PV::Unset),
        _ => {
            let msg = format!("{}: invalid indirect expansion", param_name(p));
            return Err(super::abort_or_exit(sh, fds, &msg).await);
        }
    };
    // Digits name a positional parameter (`010` is `$10`).
    if !target.is_empty() && target.bytes().all(|b| b.is_ascii_digit()) {
        let n = target.trim_start_matches('0').parse::<u32>().unwrap_or(if target.len() > 9 { u32::MAX } else { 0 });
        return lookup(sh, fds, &Parameter::Positional(n)).await;
    }
    match brush_parser::word::parse_parameter(&target, &crate::syntax::options()) {
        Ok(tp) => lookup(sh, fds, &tp).await,
        Err(_) => Err(super::abort_or_exit(sh, fds, &format!("{target}: invalid variable name")).await),
    }
}

async fn get(sh: &mut ShellState, fds: &Fds, p: &Parameter, indirect: bool) -> Result<PV, Flow> {
    let v = if indirect { lookup_indirect(sh, fds, p).await? } else { lookup(sh, fds, p).await? };
    // What an operator may then work on is small on a caller's thread.
    if crate::limits::inline::active() {
        let n = match &v {
            PV::Unset => 0,
            PV::Str(s) => s.len(),
            PV::List(l, _) => l.iter().map(|s| s.len() + 1).sum(),
        };
        crate::limits::inline::leave_above(n, crate::limits::inline::BYTES).await;
    }
    Ok(v)
}

/// `set -u` and the length of an array that is unset (or only declared):
/// bash leaves with 1 here, not the 127 of `$x`.
async fn length_unbound(sh: &ShellState, fds: &Fds, name: &str) -> Flow {
    fatal(sh.loc(), fds, &format!("{name}: unbound variable"), 1).await
}

/// `set -u`: an unset parameter other than `$@`/`$*` is fatal.
/// `bare`: the parameter was written without braces (`$1`: bash names it
/// `$1`; inside braces, with an operator or not, `1`). Only a plain
/// expansion is taken for bare: `${1}` is rare.
async fn check_nounset(
    sh: &ShellState,
    fds: &Fds,
    p: &Parameter,
    indirect: bool,
    v: &PV,
    bare: bool,
) -> Result<(), Flow> {
    if sh.opts.nounset
        && matches!(v, PV::Unset)
        && !matches!(p, Parameter::Special(SpecialParameter::AllPositionalParameters { .. }))
        // A reference to an unset element is not an error in bash.
        && !is_element_ref(sh, p)
    {
        let name = match p {
            Parameter::Positional(n) if !indirect && bare => format!("${n}"),
            other if indirect => format!("!{}", param_name(other)),
            other => param_name(other),
        };
        return Err(fatal(sh.loc(), fds, &format!("{name}: unbound variable"), fatal_status(sh)).await);
    }
    Ok(())
}

/// A nameref to an array element (`declare -n r='a[1]'`).
fn is_element_ref(sh: &ShellState, p: &Parameter) -> bool {
    match p {
        Parameter::Named(n) if sh.vars.has_refs() && sh.vars.is_nameref(n) => {
            matches!(sh.vars.resolve(n), crate::state::Resolved::Element(..))
        }
        _ => false,
    }
}

/// Push a value into the fields being built.
fn emit(sh: &ShellState, out: &mut Fields, v: PV, quoted: bool) -> Result<(), Flow> {
    match v {
        PV::Unset => {}
        PV::Str(s) => out.push(s, quoted, !quoted)?,
        PV::List(items, concat) => {
            if (quoted || out.join_star) && concat {
                // `"$*"`: the joined size is checked before joining.
                let sep = ifs_sep(sh);
                let len = items.iter().map(|s| (s.len() + sep.len()) as u64).sum::<u64>();
                let limit = super::string_limit();
                if len.saturating_sub(sep.len() as u64) > limit {
                    return Err(Flow::Stop(super::too_long(limit)));
                }
                out.push(items.join(&sep), quoted, !quoted)?;
                return Ok(());
            }
            out.saw_list = true;
            // Unquoted, bash joins the elements with IFS's first character
            // and splits the result: with a separator that is not blank, an
            // empty element is an empty field (`IFS=:; set -- "" 1; $*`).
            let sep = if quoted || out.join_star { String::new() } else { ifs_sep(sh) };
            let delimit = sep.chars().next().is_some_and(|c| !matches!(c, ' ' | '\t' | '\n'));
            for (i, it) in items.into_iter().enumerate() {
                if i > 0 {
                    if delimit {
                        out.push(sep.clone(), false, true)?;
                    } else {
                        out.break_field();
                    }
                }
                out.push(it, quoted, !quoted)?;
            }
        }
    }
    Ok(())
}

/// Expand a `${...}` (or `$x`) into `out`.
/// `bare`: written without braces (`$1`, which `set -u` names `$1`; `${1}` it names `1`).
pub async fn expand(
    sh: &mut ShellState,
    fds: &Fds,
    expr: &ParameterExpr,
    quoted: bool,
    out: &mut Fields,
    bare: bool,
) -> Result<(), Flow> {
    use ParameterExpr as P;
    if let Some(op) = hash_with_lone_operator(expr) {
        sh.bad_subst = Some(format!("${{#{op}}}"));
        return Err(Flow::Abort(1));
    }
    match expr {
        P::Parameter { parameter, indirect } => {
            let v = get(sh, fds, parameter, *indirect).await?;
            check_nounset(sh, fds, parameter, *indirect, &v, bare).await?;
            emit(sh, out, v, quoted)?;
        }
        P::UseDefaultValues { parameter, indirect, test_type, default_value } => {
            // `${#-}` is the length of `$-`, not `$#` with an empty `-` operand.
            if !*indirect
                && matches!(parameter, Parameter::Special(SpecialParameter::PositionalParameterCount))
                && matches!(test_type, ParameterTestType::Unset)
                && default_value.as_deref().is_none_or(str::is_empty)
            {
                out.push(sh.opts.flags().chars().count().to_string(), quoted, !quoted)?;
                return Ok(());
            }
            let v = get(sh, fds, parameter, *indirect).await?;
            if v.is_unset_for(test_type) {
                expand_raw_into(sh, fds, default_value.as_deref().unwrap_or(""), quoted, out).await?;
            } else {
                emit(sh, out, v, quoted)?;
            }
        }
        P::AssignDefaultValues { parameter, indirect, test_type, default_value } => {
            let v = get(sh, fds, parameter, *indirect).await?;
            if v.is_unset_for(test_type) {
                let raw = default_value.as_deref().unwrap_or("");
                let val = if quoted {
                    let mut f = Fields::default();
                    expand_raw_into(sh, fds, raw, true, &mut f).await?;
                    super::join_fields(f.finish())?
                } else {
                    expand_string(sh, fds, raw).await?
                };
                // `${!r:=v}` assigns the variable r names, which must be a
                // plain name.
                let target = if *indirect {
                    let t = match lookup(sh, fds, parameter).await? {
                        PV::Str(t) => t,
                        PV::List(l, _) => l.join(" "),
                        PV::Unset => String::new(),
                    };
                    if !crate::builtins::valid_name(&t) {
                        return Err(super::abort_or_exit(sh, fds, &format!("{t}: invalid variable name")).await);
                    }
                    Some(Parameter::Named(t))
                } else {
                    None
                };
                let val = match target.as_ref().unwrap_or(parameter) {
                    Parameter::Named(n) => {
                        assign_default(sh, fds, n, None, val).await?;
                        sh.get_var(n).unwrap_or_default()
                    }
                    p @ Parameter::NamedWithIndex { name, index } => {
                        // An associative array takes the key as a word, an
                        // indexed one (or a scalar, which becomes element 0)
                        // as arithmetic.
                        let assoc = matches!(sh.vars.get(name).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_)));
                        let i = if assoc {
                            expand_string(sh, fds, index).await?
                        } else {
                            super::expand_arith_text(sh, fds, index).await?
                        };
                        assign_default(sh, fds, name, Some(i), val).await?;
                        match lookup(sh, fds, p).await? {
                            PV::Str(s) => s,
                            _ => String::new(),
                        }
                    }
                    other => {
                        // It abandons the command line (bash leaves only in POSIX mode).
                        let msg = format!("${}: cannot assign in this way", param_name(other));
                        return Err(super::abort_or_exit(sh, fds, &msg).await);
                    }
                };
                out.push(val, quoted, !quoted)?;
            } else {
                emit(sh, out, v, quoted)?;
            }
        }
        P::IndicateErrorIfNullOrUnset { parameter, indirect, test_type, error_message } => {
            // `${#?}` is the length of `$?`, not `$#` with an empty `?` operand.
            if !*indirect
                && matches!(parameter, Parameter::Special(SpecialParameter::PositionalParameterCount))
                && matches!(test_type, ParameterTestType::Unset)
                && error_message.as_deref().is_none_or(str::is_empty)
            {
                out.push(sh.last_status.to_string().chars().count().to_string(), quoted, !quoted)?;
                return Ok(());
            }
            let v = get(sh, fds, parameter, *indirect).await?;
            if v.is_unset_for(test_type) {
                let msg = match error_message.as_deref() {
                    Some(m) if !m.is_empty() => error_word(sh, fds, m).await?,
                    _ if matches!(test_type, ParameterTestType::UnsetOrNull) => "parameter null or not set".into(),
                    _ => "parameter not set".into(),
                };
                return Err(fatal(sh.loc(), fds, &format!("{}: {msg}", param_name(parameter)), fatal_status(sh)).await);
            }
            emit(sh, out, v, quoted)?;
        }
        P::UseAlternativeValue { parameter, indirect, test_type, alternative_value } => {
            let v = get(sh, fds, parameter, *indirect).await?;
            if !v.is_unset_for(test_type) {
                expand_raw_into(sh, fds, alternative_value.as_deref().unwrap_or(""), quoted, out).await?;
            } else if is_at_list(parameter) {
                // Like an empty "$@", an unused "${@+x}" or "${a[@]:+x}" makes no word.
                out.saw_list = true;
            }
        }
        P::ParameterLength { parameter, indirect } => {
            if !*indirect && is_element_ref(sh, parameter) {
                // bash measures the variable named `a[1]` itself: there is none.
                out.push("0", quoted, !quoted)?;
                return Ok(());
            }
            // Declared and never assigned (`declare -a a`) is unset here too.
            let declared_only = |sh: &ShellState, name: &str| sh.vars.get(name).is_some_and(|v| v.unassigned);
            if let (false, Parameter::NamedWithAllIndices { name, .. } | Parameter::NamedWithIndex { name, .. }) =
                (*indirect, parameter)
            {
                if declared_only(sh, name) {
                    if sh.opts.nounset {
                        return Err(length_unbound(sh, fds, name).await);
                    }
                    out.push("0", quoted, !quoted)?;
                    return Ok(());
                }
            }
            if let (false, Parameter::NamedWithIndex { name, index }) = (*indirect, parameter) {
                // An element of an array that does not exist is 0 long, with no
                // complaint about a negative index; under `set -u` the array
                // is what is unbound. A missing element of a set array is no error.
                if with_array(sh, name, |v| v.is_none()) {
                    if sh.opts.nounset {
                        return Err(length_unbound(sh, fds, name).await);
                    }
                    array_index(sh, fds, index).await?;
                    out.push("0", quoted, !quoted)?;
                    return Ok(());
                }
            }
            if let (false, Parameter::NamedWithAllIndices { name, .. }) = (*indirect, parameter) {
                // Counted in place: `i < ${#a[@]}` is evaluated on every turn of a loop.
                let n = with_array(sh, name, |v| match v {
                    Some(Value::Indexed(m)) => Some(m.len()),
                    Some(Value::Assoc(m)) => Some(m.len()),
                    Some(Value::Scalar(_)) => Some(1),
                    None => None,
                });
                match n {
                    Some(n) => {
                        out.push(n.to_string(), quoted, !quoted)?;
                        return Ok(());
                    }
                    // Unlike `"${a[@]}"`, its length is no exception to `set -u`.
                    None if sh.opts.nounset
                        && sh.vars.get(name).is_none()
                        && !name.chars().all(|c| c.is_ascii_digit()) =>
                    {
                        return Err(length_unbound(sh, fds, name).await);
                    }
                    None => {}
                }
            }
            let v = get(sh, fds, parameter, *indirect).await?;
            if !matches!(parameter, Parameter::NamedWithIndex { .. }) {
                check_nounset(sh, fds, parameter, *indirect, &v, false).await?;
            }
            let n = match v {
                PV::Unset => 0,
                // Bytes in a C locale, characters otherwise.
                PV::Str(s) if sh.single_byte_locale() => crate::raw_bytes::encode(&s).len(),
                PV::Str(s) => s.chars().count(),
                PV::List(items, _) => items.len(),
            };
            out.push(n.to_string(), quoted, !quoted)?;
        }
        P::RemoveSmallestSuffixPattern { parameter, indirect, pattern }
        | P::RemoveLargestSuffixPattern { parameter, indirect, pattern }
        | P::RemoveSmallestPrefixPattern { parameter, indirect, pattern }
        | P::RemoveLargestPrefixPattern { parameter, indirect, pattern } => {
            let v = get(sh, fds, parameter, *indirect).await?;
            check_nounset(sh, fds, parameter, *indirect, &v, false).await?;
            // Nor is a pattern to remove from an empty or unset value.
            if no_elements(&v) || matches!(&v, PV::Unset) || matches!(&v, PV::Str(s) if s.is_empty()) {
                return emit(sh, out, v, quoted);
            }
            let parts = expand_pattern(sh, fds, pattern.as_deref().unwrap_or("")).await?;
            let pat = Pattern::from_parts(&parts);
            let extglob = sh.opts.extglob;
            let (suffix, largest) = match expr {
                P::RemoveSmallestSuffixPattern { .. } => (true, false),
                P::RemoveLargestSuffixPattern { .. } => (true, true),
                P::RemoveSmallestPrefixPattern { .. } => (false, false),
                _ => (false, true),
            };
            let mut scanner = pat.searcher(extglob, false);
            let v = v.try_map(|s| remove_affix(s, scanner.as_mut(), suffix, largest))?;
            emit(sh, out, v, quoted)?;
        }
        P::Substring { parameter, indirect, offset, length } => {
            let v = get(sh, fds, parameter, *indirect).await?;
            check_nounset(sh, fds, parameter, *indirect, &v, false).await?;
            // An unset parameter (an empty array) expands to nothing without
            // evaluating the offset and length; `$@` evaluates them.
            let nothing = match (&v, parameter) {
                (PV::Unset, _) => true,
                (PV::List(items, _), Parameter::NamedWithAllIndices { .. }) => items.is_empty(),
                _ => false,
            };
            if nothing {
                emit(sh, out, v, quoted)?;
                return Ok(());
            }
            let pname = param_name(parameter);
            let off = substring_number(sh, fds, &pname, &offset.value).await?;
            let len = match length {
                Some(l) => Some(substring_number(sh, fds, &pname, &l.value).await?),
                None => None,
            };
            let is_positional =
                matches!(parameter, Parameter::Special(SpecialParameter::AllPositionalParameters { .. }));
            let v = match v {
                PV::Unset => PV::Unset,
                PV::Str(s) => {
                    let chars: Vec<char> = s.chars().collect();
                    match slice_range(chars.len(), off, len) {
                        Some((a, b)) => PV::Str(chars[a..b].iter().collect()),
                        None => {
                            if len.is_some_and(|l| l < 0) && off <= chars.len() as i64 {
                                return Err(abort(
                                    sh.loc(),
                                    fds,
                                    &format!("{}: substring expression < 0", len.unwrap_or(0)),
                                )
                                .await);
                            }
                            PV::Str(String::new())
                        }
                    }
                }
                PV::List(items, c) => {
                    // ${@:0} includes $0.
                    let mut all = items;
                    if is_positional {
                        all.insert(0, sh.arg0.clone());
                    }
                    // Unlike a string's, a list's length may not be negative.
                    let len_ok = len.is_none_or(|l| l >= 0);
                    // An indexed array's offset is an index: the slice starts
                    // at the first element at or past it (sparse arrays).
                    let keys: Option<Vec<i64>> = match parameter {
                        Parameter::NamedWithAllIndices { name, .. } if !*indirect => {
                            match sh.vars.get(name).and_then(|v| v.value.as_ref()) {
                                Some(Value::Indexed(m)) if m.len() == all.len() => Some(m.keys().copied().collect()),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    let range = match &keys {
                        Some(keys) => {
                            let base = if off < 0 { keys.last().map_or(0, |m| m + 1).saturating_add(off) } else { off };
                            (base >= 0).then(|| {
                                let a = keys.partition_point(|&k| k < base);
                                let b = len.map_or(keys.len(), |l| a.saturating_add(l.max(0) as usize).min(keys.len()));
                                (a, b)
                            })
                        }
                        None => slice_range(all.len(), off, len),
                    };
                    match range.filter(|_| len_ok) {
                        Some((a, b)) => PV::List(all[a..b].to_vec(), c),
                        None => {
                            // An array's offset past its last index is an
                            // empty slice, whatever the length.
                            let starts_inside = match &keys {
                                Some(keys) => {
                                    let end = keys.last().map_or(0, |m| m + 1);
                                    let base = if off < 0 { end.saturating_add(off) } else { off };
                                    (0..end).contains(&base)
                                }
                                None => slice_range(all.len(), off, None).is_some(),
                            };
                            if !len_ok && starts_inside {
                                return Err(abort(
                                    sh.loc(),
                                    fds,
                                    &format!("{}: substring expression < 0", len.unwrap_or(0)),
                                )
                                .await);
                            }
                            PV::List(Vec::new(), c)
                        }
                    }
                }
            };
            emit(sh, out, v, quoted)?;
        }
        P::Transform { parameter, indirect, op } => {
            let v = get(sh, fds, parameter, *indirect).await?;
            // `${!ref@a}`: the attributes of the variable ref names.
            // The value may hold a subscript (`r='a[0]'`: the attributes of
            // `a`); an empty or unset one names nothing, which has none.
            let mut names_nothing = false;
            let target = match parameter {
                Parameter::Named(n) if *indirect && sh.vars.is_nameref(n) => None,
                _ if *indirect => {
                    let t = match lookup(sh, fds, parameter).await? {
                        PV::Str(t) => t,
                        PV::List(l, _) => l.join(" "),
                        PV::Unset => String::new(),
                    };
                    let p = brush_parser::word::parse_parameter(&t, &crate::syntax::options()).ok();
                    names_nothing = p.is_none();
                    p
                }
                _ => None,
            };
            let parameter = target.as_ref().unwrap_or(parameter);
            // An element's `@A`/`@a` speak of its array; a nameref's of its target.
            let name = match parameter {
                Parameter::NamedWithIndex { name, .. } | Parameter::NamedWithAllIndices { name, .. } => name.clone(),
                Parameter::Named(n) if sh.vars.has_refs() => match sh.vars.resolve(n) {
                    crate::state::Resolved::Name(t, _) => t.into_owned(),
                    _ => n.clone(),
                },
                _ => param_name(parameter),
            };
            let attrs = match parameter {
                _ if names_nothing => None,
                Parameter::Named(n)
                | Parameter::NamedWithIndex { name: n, .. }
                | Parameter::NamedWithAllIndices { name: n, .. } => sh.vars.get(n).map(|var| {
                    let mut a = String::new();
                    match &var.value {
                        Some(Value::Indexed(_)) => a.push('a'),
                        Some(Value::Assoc(_)) => a.push('A'),
                        _ => {}
                    }
                    if var.integer {
                        a.push('i');
                    }
                    if var.readonly {
                        a.push('r');
                    }
                    if var.trace {
                        a.push('t');
                    }
                    if var.exported {
                        a.push('x');
                    }
                    // bash's order: the case attributes come last.
                    match var.case {
                        Some(crate::state::Case::Capital) => a.push('c'),
                        Some(crate::state::Case::Lower) => a.push('l'),
                        Some(crate::state::Case::Upper) => a.push('u'),
                        None => {}
                    }
                    a
                }),
                _ => None,
            };
            if matches!(v, PV::Unset) && sh.opts.nounset && !is_at_list(parameter) {
                // `${1@P}` names the parameter without its `$`.
                let name = if *indirect { format!("!{}", param_name(parameter)) } else { param_name(parameter) };
                return Err(fatal(sh.loc(), fds, &format!("{name}: unbound variable"), fatal_status(sh)).await);
            }
            // `@A` of `$@`/`$*` is the `set --` that makes them; of another
            // special or positional parameter, nothing.
            if matches!(op, ParameterTransformOp::ToAssignmentLogic) && !*indirect {
                match parameter {
                    Parameter::Special(SpecialParameter::AllPositionalParameters { .. }) => {
                        if !sh.positional.is_empty() {
                            let mut words = vec!["set".to_string(), "--".to_string()];
                            words.extend(sh.positional.iter().map(|a| quote(a)));
                            // `"${@@A}"` is bash's word list; `"${*@A}"` one word.
                            let v =
                                if is_at_list(parameter) { PV::List(words, false) } else { PV::Str(words.join(" ")) };
                            emit(sh, out, v, quoted)?;
                        }
                        return Ok(());
                    }
                    Parameter::Special(_) | Parameter::Positional(_) => return Ok(()),
                    Parameter::Named(n) if n == super::NARGS => return Ok(()),
                    _ => {}
                }
            }
            if matches!(v, PV::Unset) && !matches!(op, ParameterTransformOp::ToAttributeFlags) {
                // An array without element 0, or a name declared with
                // attributes and no value: `${a@A}` still declares it.
                if let (ParameterTransformOp::ToAssignmentLogic, Parameter::Named(n)) = (op, parameter) {
                    let has_flags = attrs.as_deref().is_some_and(|f| !f.is_empty());
                    if let Some(var) = sh.vars.get(n).filter(|v| {
                        matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))) || (v.value.is_none() && has_flags)
                    }) {
                        let flags = attrs.clone().unwrap_or_default();
                        let _ = var;
                        emit(sh, out, declare_words(format!("declare -{flags} {name}"), parameter), quoted)?;
                        return Ok(());
                    }
                }
                if let (ParameterTransformOp::ToAssignmentLogic, Parameter::NamedWithAllIndices { .. }) =
                    (op, parameter)
                {
                    if let Some(var) =
                        sh.vars.get(&name).filter(|v| matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))))
                    {
                        let _ = var;
                        let flags = attrs.clone().unwrap_or_default();
                        emit(sh, out, declare_words(format!("declare -{flags} {name}"), parameter), quoted)?;
                    }
                }
                return Ok(());
            }
            // `${a[@]@A}` and `${a[@]@K}` describe a whole array.
            if let Parameter::NamedWithAllIndices { name: arr, .. } = parameter {
                let whole =
                    sh.vars.get_set(arr).filter(|v| matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))));
                if let Some(var) = whole {
                    let v = match op {
                        ParameterTransformOp::ToAssignmentLogic => {
                            Some(declare_words(crate::builtins::declare::describe(arr, var), parameter))
                        }
                        ParameterTransformOp::PossiblyQuoteWithArraysExpanded { separate_words } => {
                            // `@K`: one word of `key "value"` pairs (an associative
                            // array's with a trailing blank, as bash has it); `@k`:
                            // keys and values as separate words.
                            let dq = |v: &String| {
                                if *separate_words {
                                    v.clone()
                                } else {
                                    crate::builtins::declare::dquote(v)
                                }
                            };
                            let (pairs, assoc): (Vec<(String, String)>, bool) = match &var.value {
                                Some(Value::Indexed(m)) => {
                                    (m.iter().map(|(k, v)| (k.to_string(), dq(v))).collect(), false)
                                }
                                // `@K` quotes the keys as `declare -p` does.
                                Some(Value::Assoc(m)) => (
                                    m.iter()
                                        .map(|(k, v)| {
                                            let k = if *separate_words {
                                                k.clone()
                                            } else {
                                                crate::builtins::declare::key_quote(k)
                                            };
                                            (k, dq(v))
                                        })
                                        .collect(),
                                    true,
                                ),
                                _ => (Vec::new(), false),
                            };
                            // An empty array's `"${m[@]@K}"` is no word at all.
                            let pairs_empty = pairs.is_empty();
                            let words = pairs.into_iter().flat_map(|(k, v)| [k, v]);
                            Some(if *separate_words || (pairs_empty && is_at_list(parameter)) {
                                PV::List(words.collect(), false)
                            } else {
                                let mut joined = words.collect::<Vec<_>>().join(" ");
                                if assoc && !joined.is_empty() {
                                    joined.push(' ');
                                }
                                PV::Str(joined)
                            })
                        }
                        _ => None,
                    };
                    if let Some(v) = v {
                        emit(sh, out, v, quoted)?;
                        return Ok(());
                    }
                }
            }
            let v = match op {
                ParameterTransformOp::Quoted => v.map(quote_reusable),
                ParameterTransformOp::ExpandEscapeSequences => {
                    v.map(|s| crate::raw_bytes::decode_vec(super::ansi_c::decode_bytes(s, false)))
                }
                ParameterTransformOp::ToUpperCase => v.map(|s| s.to_uppercase()),
                ParameterTransformOp::ToLowerCase => v.map(|s| s.to_lowercase()),
                ParameterTransformOp::CapitalizeInitial => v.map(upper_first),
                // `@P`: prompt escapes, then `$`, `$( )` and `$(( ))` in the result.
                // A value can name itself (`x='${x@P}'`): each level counts as an eval.
                ParameterTransformOp::PromptExpand => {
                    crate::interp::enter_eval(sh)?;
                    let r = prompt_expand(sh, fds, v).await;
                    sh.eval_depth -= 1;
                    r?
                }
                ParameterTransformOp::ToAssignmentLogic => {
                    let flags = attrs.clone().unwrap_or_default();
                    v.map(|s| {
                        if flags.is_empty() {
                            format!("{name}={}", quote_reusable(s))
                        } else {
                            format!("declare -{flags} {name}={}", quote_reusable(s))
                        }
                    })
                }
                // One word per element of a list (`"${a[@]@a}"`).
                // None for a variable without attributes; an array only
                // declared has its flags once.
                ParameterTransformOp::ToAttributeFlags => {
                    let a = attrs.unwrap_or_default();
                    match v {
                        PV::List(items, c) => {
                            let declared_only = items.is_empty() && sh.vars.get(&name).is_some_and(|v| v.unassigned);
                            let n = match (a.is_empty(), declared_only) {
                                (true, _) => 0,
                                (false, true) => 1,
                                (false, false) => items.len(),
                            };
                            PV::List(vec![a; n], c)
                        }
                        _ => PV::Str(a),
                    }
                }
                ParameterTransformOp::PossiblyQuoteWithArraysExpanded { .. } => v.map(quote_reusable),
            };
            emit(sh, out, v, quoted)?;
        }
        P::UppercaseFirstChar { parameter, indirect, pattern }
        | P::UppercasePattern { parameter, indirect, pattern }
        | P::LowercaseFirstChar { parameter, indirect, pattern }
        | P::LowercasePattern { parameter, indirect, pattern } => {
            let (upper, all) = match expr {
                P::UppercaseFirstChar { .. } => (true, false),
                P::UppercasePattern { .. } => (true, true),
                P::LowercaseFirstChar { .. } => (false, false),
                _ => (false, true),
            };
            // bash reads `${?^}`, `${#,,}` and `${-^^}` as bad substitutions.
            if let (false, Parameter::Special(sp)) = (*indirect, parameter) {
                if let Some(name) = match sp {
                    SpecialParameter::LastExitStatus => Some('?'),
                    SpecialParameter::PositionalParameterCount => Some('#'),
                    SpecialParameter::CurrentOptionFlags => Some('-'),
                    _ => None,
                } {
                    let op = match (upper, all) {
                        (true, false) => "^",
                        (true, true) => "^^",
                        (false, false) => ",",
                        (false, true) => ",,",
                    };
                    sh.bad_subst = Some(format!("${{{name}{op}{}}}", pattern.as_deref().unwrap_or("")));
                    return Err(Flow::Abort(1));
                }
            }
            // `${x~pat}` / `${x~~pat}` come as this with a marked pattern.
            match pattern.as_deref().and_then(|p| p.strip_prefix(super::TOGGLE)) {
                Some(rest) => {
                    let rest = (!rest.is_empty()).then(|| rest.to_string());
                    case_modify(sh, fds, parameter, *indirect, &rest, None, all, quoted, out).await?;
                }
                None => case_modify(sh, fds, parameter, *indirect, pattern, Some(upper), all, quoted, out).await?,
            }
        }
        P::ReplaceSubstring { parameter, indirect, pattern, replacement, match_kind } => {
            // After `${x//`, bash takes the next character into the pattern
            // even when it is a `/`: `${x///}` and `${x////}` remove every
            // `/`, `${x////-}` replaces each with `-` (brush-parser reads an
            // empty pattern there).
            let (fixed_pattern, fixed_replacement);
            let (pattern, replacement) = match (match_kind, pattern.as_str(), replacement.as_deref()) {
                (SubstringMatchKind::Anywhere, "", Some(r)) => {
                    let b: Vec<char> = r.chars().collect();
                    let mut k = 0;
                    while k < b.len() && b[k] != '/' {
                        k += if b[k] == '\\' { 2 } else { 1 };
                    }
                    let head: String = b[..k.min(b.len())].iter().collect();
                    fixed_pattern = format!("/{head}");
                    fixed_replacement = (k < b.len()).then(|| b[k + 1..].iter().collect::<String>());
                    (&fixed_pattern, &fixed_replacement)
                }
                _ => (pattern, replacement),
            };
            let v = get(sh, fds, parameter, *indirect).await?;
            check_nounset(sh, fds, parameter, *indirect, &v, false).await?;
            if no_elements(&v) {
                return emit(sh, out, v, quoted);
            }
            let pat = Pattern::from_parts(&expand_pattern(sh, fds, pattern).await?);
            let rep = match replacement {
                // patsub_replacement: an unquoted `&` stands for the match.
                Some(r) if sh.opts.patsub_replacement => Replacement::from_parts(&expand_pattern(sh, fds, r).await?),
                Some(r) => Replacement::literal(expand_string(sh, fds, r).await?),
                None => Replacement::literal(String::new()),
            };
            let mut scanner = pat.searcher(sh.opts.extglob, sh.opts.nocasematch);
            let limit = sh.budget.limits.max_string_bytes;
            let v = v.try_map(|s| replace(s, scanner.as_mut(), &rep, match_kind, limit))?;
            emit(sh, out, v, quoted)?;
        }
        P::VariableNames { prefix, concatenate } => {
            let names: Vec<String> = set_names(sh).into_iter().filter(|n| n.starts_with(prefix.as_str())).collect();
            // With a null IFS bash 5.2 joins the unquoted `*` forms into one
            // word: names with nothing between, keys with a space.
            if *concatenate && !quoted && sh.get_var("IFS").is_some_and(|i| i.is_empty()) {
                out.push(names.concat(), false, true)?;
                return Ok(());
            }
            emit(sh, out, PV::List(names, *concatenate), quoted)?;
        }
        P::MemberKeys { variable_name, concatenate } => {
            let keys = array_keys(sh, variable_name);
            if *concatenate && !quoted && sh.get_var("IFS").is_some_and(|i| i.is_empty()) {
                out.push(keys.join(" "), false, true)?;
                return Ok(());
            }
            emit(sh, out, PV::List(keys, *concatenate), quoted)?;
        }
    }
    Ok(())
}

/// A list (`$@`, `${a[@]}`) without elements: bash expands the operand of a
/// pattern operator on it only when there is something to apply it to.
fn no_elements(v: &PV) -> bool {
    matches!(v, PV::List(items, _) if items.is_empty())
}

/// `$@` or `${name[@]}`: a list that expands to separate words even when quoted.
/// `${#%}`, `${#+}`, `${#=}`, `${#/}` and `${#:}`: bash reads `${#` and one
/// operator character as a length it cannot take (a bad substitution), where
/// `${#-}`, `${#?}` and `${#%%}` are fine.
fn hash_with_lone_operator(expr: &ParameterExpr) -> Option<&'static str> {
    use ParameterExpr as P;
    let hash = |p: &Parameter, indirect: bool| {
        !indirect && matches!(p, Parameter::Special(SpecialParameter::PositionalParameterCount))
    };
    let empty = |w: &Option<String>| w.as_deref().is_none_or(str::is_empty);
    match expr {
        P::RemoveSmallestSuffixPattern { parameter, indirect, pattern }
            if hash(parameter, *indirect) && empty(pattern) =>
        {
            Some("%")
        }
        P::UseAlternativeValue { parameter, indirect, test_type: ParameterTestType::Unset, alternative_value }
            if hash(parameter, *indirect) && empty(alternative_value) =>
        {
            Some("+")
        }
        P::AssignDefaultValues { parameter, indirect, test_type: ParameterTestType::Unset, default_value }
            if hash(parameter, *indirect) && empty(default_value) =>
        {
            Some("=")
        }
        P::ReplaceSubstring {
            parameter,
            indirect,
            pattern,
            replacement: None,
            match_kind: SubstringMatchKind::FirstOccurrence,
        } if hash(parameter, *indirect) && pattern.is_empty() => Some("/"),
        P::Substring { parameter, indirect, offset, length: None }
            if hash(parameter, *indirect) && offset.value.is_empty() =>
        {
            Some(":")
        }
        _ => None,
    }
}

/// `declare -a a=(...)` as `${a[@]@A}` gives it: bash's words `declare`,
/// the flags and the rest; `${a[*]@A}` keeps it one word.
fn declare_words(text: String, p: &Parameter) -> PV {
    if !is_at_list(p) {
        return PV::Str(text);
    }
    let mut parts = text.splitn(3, ' ');
    PV::List(parts.by_ref().map(str::to_string).collect(), false)
}

fn is_at_list(p: &Parameter) -> bool {
    matches!(
        p,
        Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate: false })
            | Parameter::NamedWithAllIndices { concatenate: false, .. }
    )
}

/// `${x^}`, `${x^^pat}`, `${x,}`, `${x,,pat}` and bash's undocumented
/// `${x~}`/`${x~~pat}`: change the case of the first (or every) character
/// that matches `pat` (any character without one). `upper` is `None` to
/// toggle.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn case_modify(
    sh: &mut ShellState,
    fds: &Fds,
    parameter: &Parameter,
    indirect: bool,
    pattern: &Option<String>,
    upper: Option<bool>,
    all: bool,
    quoted: bool,
    out: &mut Fields,
) -> Result<(), Flow> {
    let v = get(sh, fds, parameter, indirect).await?;
    check_nounset(sh, fds, parameter, indirect, &v, false).await?;
    if no_elements(&v) {
        return emit(sh, out, v, quoted);
    }
    let pat = match pattern.as_deref() {
        Some(p) if !p.is_empty() => Some(Pattern::from_parts(&expand_pattern(sh, fds, p).await?)),
        _ => None,
    };
    let extglob = sh.opts.extglob;
    // Compiled once, then tried on each character.
    let mut matcher = match &pat {
        Some(p) => match p.matcher(extglob, false) {
            Some(m) => Some(m),
            // A pattern that cannot be compiled matches nothing.
            None => return emit(sh, out, v, quoted),
        },
        None => None,
    };
    let v = v.try_map(|s| {
        let mut res = String::with_capacity(s.len());
        let mut buf = [0u8; 4];
        for (i, c) in s.chars().enumerate() {
            crate::limits::checkpoint()?;
            let applies = (all || i == 0)
                && match matcher.as_mut() {
                    Some(m) => m.is_match(c.encode_utf8(&mut buf))?,
                    None => true,
                };
            // `~` (toggle) flips each character's case.
            let up = upper.unwrap_or(!c.is_uppercase());
            if applies && up {
                res.extend(c.to_uppercase());
            } else if applies {
                res.extend(c.to_lowercase());
            } else {
                res.push(c);
            }
        }
        Ok(res)
    })?;
    emit(sh, out, v, quoted)?;
    Ok(())
}

/// Expand raw word text (a default/alternative value) into `out` in the same
/// quoting context, so `${x:-"a b"}` keeps its quotes.
async fn expand_raw_into(
    sh: &mut ShellState,
    fds: &Fds,
    raw: &str,
    quoted: bool,
    out: &mut Fields,
) -> Result<(), Flow> {
    let written = raw;
    let dq;
    let raw = if quoted {
        // In a here-document `$'` is two plain characters.
        dq = if sh.in_heredoc && raw.contains("$'") { dq_operand(&plain_ansi_quotes(raw)) } else { dq_operand(raw) };
        dq.as_str()
    } else {
        raw
    };
    let pieces = match super::word_pieces(raw, false) {
        Ok(p) => p,
        Err(m) => return Err(fatal(sh.loc(), fds, &m, fatal_status(sh)).await),
    };
    let (done, cur) = (out.done.len(), out.cur.len());
    let r = expand_pieces(sh, fds, &pieces, quoted, out).await;
    // bash names the operand it was expanding (the innermost word).
    super::report_bad_subst(sh, fds, written).await;
    r?;
    if quoted {
        // A quoted operand is a word even when it expands an empty list:
        // `set -- "${u-$@}"` with no arguments sets one empty argument.
        out.push(String::new(), true, false)?;
    }
    if !quoted {
        // In an unquoted `${x:-a b}` the literal text is split too.
        let mark = |s: &mut super::Seg| {
            if !s.quoted {
                s.split = true;
            }
        };
        if out.done.len() == done {
            out.cur[cur..].iter_mut().for_each(mark);
        } else {
            out.done[done][cur..].iter_mut().for_each(mark);
            out.done[done + 1..].iter_mut().flatten().for_each(mark);
            out.cur.iter_mut().for_each(mark);
        }
    }
    Ok(())
}

/// `\c` with `c` not special inside double quotes, as `c`.
fn drop_plain_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some(&n) if !matches!(n, '$' | '`' | '"' | '\\' | '\n') => continue,
                Some(&n) => {
                    out.push(c);
                    out.push(n);
                    chars.next();
                    continue;
                }
                None => {}
            }
        }
        out.push(c);
    }
    out
}

/// The operand of `${x:-word}`, `${x:+word}`, `${x:=word}` or `${x:?word}`
/// inside double quotes, rewritten as the same word outside them: there bash
/// keeps single quotes literally (`"${x:-'a b'}"` is `'a b'`), a leading `~`
/// is not expanded and `\}` is a `}`; double quotes, `$'...'` and nested
/// expansions keep their meaning. The result is expanded as quoted text.
/// `raw` with each `$'` outside `$( )` escaped (`\$'`): a here-document's
/// operand text, where it is not a quote.
fn plain_ansi_quotes(raw: &str) -> String {
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len() + 4);
    let mut depth = 0usize;
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'$' if b.get(i + 1) == Some(&b'(') => {
                depth += 1;
                i += 1;
            }
            b')' if depth > 0 => depth -= 1,
            b'$' if depth == 0 && b.get(i + 1) == Some(&b'\'') => {
                out.push_str(&raw[last..i]);
                out.push('\\');
                last = i;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&raw[last..]);
    out
}

pub(crate) fn dq_operand(raw: &str) -> String {
    let b: Vec<char> = raw.chars().collect();
    let mut out = String::with_capacity(raw.len() + 8);
    let mut i = 0;
    // Copy a balanced `$(...)`/`${...}`/`$((...))` starting at `b[i]` (the `$`).
    fn balanced(b: &[char], mut i: usize, out: &mut String) -> usize {
        let (open, close) = if b[i + 1] == '(' { ('(', ')') } else { ('{', '}') };
        let mut depth = 0usize;
        while i < b.len() {
            let c = b[i];
            out.push(c);
            match c {
                '\\' if i + 1 < b.len() => {
                    out.push(b[i + 1]);
                    i += 1;
                }
                '\'' if open == '(' => {
                    i += 1;
                    while i < b.len() && b[i] != '\'' {
                        out.push(b[i]);
                        i += 1;
                    }
                    if i < b.len() {
                        out.push('\'');
                    }
                }
                c if c == open => depth += 1,
                c if c == close => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        i
    }
    while i < b.len() {
        let c = b[i];
        match c {
            '\\' if i + 1 < b.len() => {
                if b[i + 1] == '}' {
                    out.push('}');
                } else {
                    out.push('\\');
                    out.push(b[i + 1]);
                }
                i += 2;
            }
            '\'' => {
                out.push_str("\"'\"");
                i += 1;
            }
            '~' if i == 0 => {
                out.push_str("\"~\"");
                i += 1;
            }
            '$' if i + 1 < b.len() && b[i + 1] == '\'' && !closes(&b, i + 2, '\'') => {
                out.push_str("\\$");
                i += 1;
            }
            '"' | '`' => {
                out.push(c);
                let from = out.len();
                let end = copy_quoted(&b, i + 1, c, &mut out);
                // Inside the outer quotes, inner ones make a backslash before
                // an ordinary character an escape again (`"${v:+"\x"}"` is `x`).
                let seg = &out[from..];
                let backquote = seg.match_indices('`').any(|(k, _)| !seg[..k].ends_with('\\'));
                if c == '"' && !seg.contains("$(") && !backquote {
                    let inner = drop_plain_escapes(seg);
                    out.truncate(from);
                    out.push_str(&inner);
                }
                // A `"` left open runs to the end of the operand (`"${x:-'"'}"`
                // is `''`: the single quotes are literal, the `"` opens a string).
                if c == '"' && !closes(&b, i + 1, c) {
                    out.push('"');
                }
                i = end;
            }
            // `$'...'` is decoded; a `$'` never closed is a `$` and a `'`.
            '$' if i + 1 < b.len() && b[i + 1] == '\'' && closes(&b, i + 2, '\'') => {
                out.push_str("$'");
                i = copy_quoted(&b, i + 2, '\'', &mut out);
            }
            '$' if i + 1 < b.len() && matches!(b[i + 1], '(' | '{') => i = balanced(&b, i, &mut out),
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Copy a quoted run from `i` to its closing `close` (included when there),
/// backslash escapes kept as written; returns where the copy stopped.
/// Whether a quoted text starting at `b[i]` has its closing `close`.
fn closes(b: &[char], mut i: usize, close: char) -> bool {
    while i < b.len() && b[i] != close {
        i += if b[i] == '\\' { 2 } else { 1 };
    }
    i < b.len()
}

fn copy_quoted(b: &[char], mut i: usize, close: char, out: &mut String) -> usize {
    while i < b.len() && b[i] != close {
        if b[i] == '\\' && i + 1 < b.len() {
            out.push(b[i]);
            i += 1;
        }
        out.push(b[i]);
        i += 1;
    }
    if i < b.len() {
        out.push(close);
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests;
