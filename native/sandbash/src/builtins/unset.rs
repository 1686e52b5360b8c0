//! `unset [-v|-f] name...` (also `unset 'a[i]'`).

use super::fail;
use crate::interp::Fds;
use crate::state::{ShellState, Value};
use std::sync::Arc;

pub async fn unset(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    const USAGE: &str = "unset: usage: unset [-f] [-v] [-n] [name ...]";
    let mut funcs_only = false;
    let mut vars_only = false;
    let mut raw = false;
    let mut status = 0;
    // Options come first, as clusters (`-fn`); `--` ends them.
    let mut names = &argv[1..];
    while let Some(a) = names.first().filter(|a| a.len() > 1 && a.starts_with('-')) {
        names = &names[1..];
        if a == "--" {
            break;
        }
        for c in a[1..].chars() {
            match c {
                'f' => funcs_only = true,
                'v' => vars_only = true,
                'n' => raw = true,
                _ => return super::usage_error(sh, fds, &format!("unset: -{c}: invalid option"), USAGE).await,
            }
        }
    }
    if funcs_only && vars_only {
        return fail(sh.loc(), fds, "unset: cannot simultaneously unset a function and a variable", 1).await;
    }
    for a in names {
        if raw && !funcs_only {
            if sh.vars.get_raw(a).is_some_and(|v| v.readonly) {
                status = fail(sh.loc(), fds, &format!("unset: {a}: cannot unset: readonly variable"), 1).await;
                continue;
            }
            // `unset -n`: only a nameref itself goes; any other variable stays.
            if sh.vars.is_nameref(a) {
                if let Err(m) = sh.vars.unset_raw(a) {
                    status = fail(sh.loc(), fds, &format!("unset: {m}"), 1).await;
                }
            }
            continue;
        }
        // A nameref to an array element unsets that element.
        let resolved;
        let a = match sh.vars.has_refs() && !funcs_only && !a.contains('[') {
            true => match sh.vars.resolve(a) {
                crate::state::Resolved::Element(base, sub) => {
                    resolved = format!("{base}[{sub}]");
                    &resolved
                }
                _ => a,
            },
            false => a,
        };
        if (funcs_only || (!vars_only && sh.vars.get(a).is_none()))
            && sh.funcs.get(a.as_str()).is_some_and(|f| f.readonly)
        {
            status = fail(sh.loc(), fds, &format!("unset: {a}: cannot unset: readonly function"), 1).await;
            continue;
        }
        if funcs_only {
            Arc::make_mut(&mut sh.funcs).remove(a);
            continue;
        }
        if let Some((name, idx)) = crate::state::vars::split_subscript(a).filter(|(n, _)| super::valid_name(n)) {
            if sh.vars.get(name).is_some_and(|v| v.readonly) {
                status = fail(sh.loc(), fds, &format!("unset: {name}: cannot unset: readonly variable"), 1).await;
                continue;
            }
            // What kind of value it holds; elements are then removed in place
            // (copying the array made a loop of `unset 'a[i]'` quadratic).
            #[derive(PartialEq)]
            enum Kind {
                Indexed,
                Assoc,
                Scalar,
            }
            let kind = sh.vars.get(name).and_then(|v| v.value.as_ref()).map(|v| match v {
                Value::Indexed(_) => Kind::Indexed,
                Value::Assoc(_) => Kind::Assoc,
                Value::Scalar(_) => Kind::Scalar,
            });
            if (idx == "@" || idx == "*") && kind != Some(Kind::Assoc) {
                // Every element goes; the array stays, empty (an associative
                // array's `@` and `*` are keys like any other).
                match kind {
                    Some(Kind::Indexed) => {
                        let _ = sh.vars.set_value(name, Value::Indexed(Default::default()));
                    }
                    Some(Kind::Scalar) => {
                        let _ = sh.vars.unset(name);
                    }
                    _ => {}
                }
                continue;
            }
            match kind {
                Some(Kind::Indexed) => {
                    let i = match crate::expand::arith::eval_str(sh, idx, 0) {
                        Ok(i) => i,
                        Err(e) => {
                            status =
                                fail(sh.loc(), fds, &format!("unset: {}", crate::expand::arith::plain(&e)), 1).await;
                            continue;
                        }
                    };
                    let mut before_start = false;
                    if let Some(Value::Indexed(m)) = sh.vars.entry(name).value.as_mut() {
                        let i = if i < 0 { m.keys().next_back().map_or(0, |k| k + 1).saturating_add(i) } else { i };
                        before_start = i < 0;
                        m.remove(&i);
                    }
                    if before_start {
                        status = fail(sh.loc(), fds, &format!("unset: [{idx}]: bad array subscript"), 1).await;
                    }
                }
                Some(Kind::Assoc) => {
                    if let Some(Value::Assoc(m)) = sh.vars.entry(name).value.as_mut() {
                        m.remove(idx);
                    }
                }
                Some(Kind::Scalar) if idx == "0" => {
                    let _ = sh.vars.unset(name);
                }
                _ => {}
            }
            continue;
        }
        if !super::valid_name(a) {
            // Not a variable name: a function of that name may still go (`unset [`);
            // without `-v` nothing else happens, silently.
            if !vars_only {
                if sh.funcs.contains_key(a.as_str()) {
                    Arc::make_mut(&mut sh.funcs).remove(a.as_str());
                }
                continue;
            }
            status = fail(sh.loc(), fds, &format!("unset: `{a}': not a valid identifier"), 1).await;
            continue;
        }
        // SHELLOPTS and BASHOPTS are readonly, as bash's are.
        if sh.is_computed_readonly(a) {
            status = fail(sh.loc(), fds, &format!("unset: {a}: cannot unset: readonly variable"), 1).await;
            continue;
        }
        if a == "LINENO" && sh.vars.get_raw(a).is_none() && !sh.lineno_plain {
            sh.lineno_plain = true;
            continue;
        }
        // `unset SECONDS` ends its counting: a plain variable from then on.
        if a == "SECONDS" && sh.vars.get_raw(a).is_none() && !sh.seconds_plain() {
            sh.seconds.1 = i64::MIN;
            continue;
        }
        if sh.vars.get(a).is_some() || vars_only {
            if let Err(m) = sh.vars.unset(a) {
                status = fail(sh.loc(), fds, &format!("unset: {m}"), 1).await;
            }
        } else {
            Arc::make_mut(&mut sh.funcs).remove(a);
        }
    }
    status
}
