//! `alias` and `unalias`. Expansion itself is `interp::alias`.

use super::fail;
use crate::interp::alias::quote;
use crate::interp::Fds;
use crate::state::ShellState;
use std::sync::Arc;

/// Characters an alias name cannot hold.
fn valid_alias_name(n: &str) -> bool {
    !n.is_empty() && !n.chars().any(|c| " \t\n|&;()<>'\"\\`$/=".contains(c))
}

pub async fn alias(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    const USAGE: &str = "alias: usage: alias [-p] [name[=value] ... ]";
    let mut args = &argv[1..];
    let mut print_all = args.is_empty();
    while let Some(a) = args.first() {
        match a.as_str() {
            "--" => {
                args = &args[1..];
                break;
            }
            "-p" => print_all = true,
            s if s.starts_with('-') && s.len() > 1 => {
                let c = s.chars().nth(1).unwrap_or('-');
                let c = if c == 'p' { s.chars().find(|&c| c != '-' && c != 'p').unwrap_or(c) } else { c };
                return super::usage_error(sh, fds, &format!("alias: -{c}: invalid option"), USAGE).await;
            }
            _ => break,
        }
        args = &args[1..];
    }
    let mut out = String::new();
    if print_all {
        for (k, v) in sh.aliases.iter() {
            out.push_str(&format!("alias {k}={}\n", quote(v)));
        }
    }
    let mut status = 0;
    for a in args {
        match a.find('=') {
            Some(eq) if eq > 0 => {
                let (name, value) = (&a[..eq], &a[eq + 1..]);
                if !valid_alias_name(name) {
                    status = fail(sh.loc(), fds, &format!("alias: `{name}': invalid alias name"), 1).await;
                    continue;
                }
                Arc::make_mut(&mut sh.aliases).insert(name.to_string(), value.to_string());
            }
            _ => match sh.aliases.get(a.as_str()) {
                Some(v) => out.push_str(&format!("alias {a}={}\n", quote(v))),
                None => {
                    let _ = fds.stdout.write_str(&out).await;
                    out.clear();
                    status = fail(sh.loc(), fds, &format!("alias: {a}: not found"), 1).await;
                }
            },
        }
    }
    let _ = fds.stdout.write_str(&out).await;
    status
}

pub async fn unalias(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    const USAGE: &str = "unalias: usage: unalias [-a] name [name ...]";
    let mut args = &argv[1..];
    let mut all = false;
    while let Some(a) = args.first() {
        match a.as_str() {
            "--" => {
                args = &args[1..];
                break;
            }
            "-a" => all = true,
            s if s.starts_with('-') && s.len() > 1 => {
                let c = s.chars().find(|&c| c != '-' && c != 'a').unwrap_or('-');
                return super::usage_error(sh, fds, &format!("unalias: -{c}: invalid option"), USAGE).await;
            }
            _ => break,
        }
        args = &args[1..];
    }
    if all {
        Arc::make_mut(&mut sh.aliases).clear();
        return 0;
    }
    if args.is_empty() {
        let _ = fds.stderr.write_str(&format!("{USAGE}\n")).await;
        return 2;
    }
    let mut status = 0;
    for a in args {
        if Arc::make_mut(&mut sh.aliases).remove(a.as_str()).is_none() {
            status = fail(sh.loc(), fds, &format!("unalias: {a}: not found"), 1).await;
        }
    }
    status
}
