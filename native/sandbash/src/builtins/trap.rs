//! `trap [-lp] [[action] condition...]`. EXIT runs when the (sub)shell ends,
//! ERR after a failing command (see `interp`); a signal trap runs when the
//! shell signals itself (`kill -USR1 $$`, see `jobs::kill`), the only sender
//! there is in the sandbox.

use super::fail;
use crate::interp::Fds;
use crate::state::ShellState;
use std::sync::Arc;

/// Canonical name of a condition: `EXIT`, `ERR`, `DEBUG`, `RETURN` or a signal without `SIG`.
pub(crate) fn canonical(spec: &str) -> Option<String> {
    let up = spec.to_ascii_uppercase();
    let name = up.strip_prefix("SIG").unwrap_or(&up);
    if matches!(name, "EXIT" | "ERR" | "DEBUG" | "RETURN") {
        return Some(name.to_string());
    }
    if name == "0" {
        return Some("EXIT".into());
    }
    super::signals::name(super::signals::number(name)?)
}

/// The number of a signal given as `TERM`, `SIGTERM` or `15`.
pub(crate) fn signal_number(spec: &str) -> Option<u32> {
    super::signals::number(spec)
}

/// bash lists EXIT first, then signals by number, then DEBUG, ERR and RETURN.
fn order(name: &str) -> u32 {
    match name {
        "EXIT" => 0,
        "DEBUG" => 100,
        "ERR" => 101,
        "RETURN" => 102,
        _ => super::signals::by_name(name).map_or(99, |n| n),
    }
}

/// How `trap -p` names a condition.
fn display(name: &str) -> String {
    if matches!(name, "EXIT" | "ERR" | "DEBUG" | "RETURN") {
        name.to_string()
    } else {
        format!("SIG{name}")
    }
}

pub async fn trap(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    const USAGE: &str = "trap: usage: trap [-lp] [[arg] signal_spec ...]";
    let mut args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
    // Options up to `--` or the first operand (`trap -1` is a bad option,
    // `trap -- -1` an action without a signal).
    let (mut list, mut print) = (false, false);
    while let Some(a) = args.first().copied() {
        if a == "--" {
            args.remove(0);
            break;
        }
        if a.len() < 2 || !a.starts_with('-') {
            break;
        }
        for c in a[1..].chars() {
            match c {
                'l' => list = true,
                'p' => print = true,
                _ => return fail(sh.loc(), fds, &format!("trap: -{c}: invalid option\n{USAGE}"), 2).await,
            }
        }
        args.remove(0);
    }
    if list {
        let _ = fds.stdout.write_str(&super::signals::table()).await;
        return 0;
    }
    if args.is_empty() || print {
        // A subshell still lists the traps it inherited until it sets one.
        let mut all = (*sh.shown_traps).clone();
        all.extend(sh.traps.iter().map(|(k, v)| (k.clone(), v.clone())));
        let line =
            |name: &str, action: &str| format!("trap -- {} {}\n", crate::expand::param::quote(action), display(name));
        let mut out = String::new();
        if !args.is_empty() {
            // Named conditions print in the order given.
            let mut status = 0;
            for a in &args {
                match canonical(a) {
                    Some(name) => {
                        if let Some(action) = all.get(&name) {
                            out.push_str(&line(&name, action));
                        }
                    }
                    None => {
                        let _ = fds.stdout.write_str(&std::mem::take(&mut out)).await;
                        status = fail(sh.loc(), fds, &format!("trap: {a}: invalid signal specification"), 1).await;
                    }
                }
            }
            let _ = fds.stdout.write_str(&out).await;
            return status;
        } else {
            let mut names: Vec<&String> = all.keys().collect();
            names.sort_by_key(|n| order(n));
            for name in names {
                out.push_str(&line(name, &all[name]));
            }
        }
        let _ = fds.stdout.write_str(&out).await;
        return 0;
    }
    // One operand that names no condition is an action without any.
    if args.len() == 1 && args[0] != "-" && canonical(args[0]).is_none() {
        let _ = fds.stderr.write_str(&format!("{USAGE}\n")).await;
        return 2;
    }
    // `trap N...` with an unsigned number first resets those conditions.
    let (action, conds): (Option<&str>, &[&str]) = if args.len() == 1 || args[0] == "-" {
        (None, if args[0] == "-" { &args[1..] } else { &args[..] })
    } else if canonical(args[0]).is_some() && args[0].chars().all(|c| c.is_ascii_digit()) {
        (None, &args[..])
    } else {
        (Some(args[0]), &args[1..])
    };
    let mut status = 0;
    if !sh.shown_traps.is_empty() {
        sh.shown_traps = Default::default();
    }
    for c in conds {
        match canonical(c) {
            Some(name) => {
                let traps = Arc::make_mut(&mut sh.traps);
                match action {
                    Some(a) => {
                        traps.insert(name, a.to_string());
                    }
                    None => {
                        traps.remove(&name);
                    }
                }
            }
            None => status = fail(sh.loc(), fds, &format!("trap: {c}: invalid signal specification"), 1).await,
        }
    }
    status
}
