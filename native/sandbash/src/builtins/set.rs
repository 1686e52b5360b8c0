//! `set` (options and positional parameters) and `shopt`.

use super::fail;
use crate::interp::Fds;
use crate::state::options::Kind;
use crate::state::{ShellState, Value};
use std::sync::Arc;

pub async fn set(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    if argv.len() == 1 {
        let mut out = String::new();
        for n in sh.listed_names() {
            // A nameref shows what it refers to, as bash's `set` does.
            let Some(v) = sh.vars.get(&n).map(std::borrow::Cow::Borrowed).or_else(|| sh.listed_var(&n)) else {
                continue;
            };
            match &v.value {
                // An empty value shows as nothing (`c=`).
                Some(Value::Scalar(s)) if s.is_empty() => out.push_str(&format!("{n}=\n")),
                Some(Value::Scalar(s)) => out.push_str(&format!("{n}={}\n", crate::expand::param::quote_if_needed(s))),
                Some(array) => out.push_str(&format!("{n}={}\n", super::declare::array_text(array))),
                None => {}
            }
        }
        // Then the functions, as `declare -f` prints them.
        let mut names: Vec<&String> = sh.funcs.keys().collect();
        names.sort();
        for f in names.into_iter().filter_map(|n| sh.funcs.get(n)) {
            out.push_str(&f.printed());
            out.push('\n');
        }
        let _ = fds.stdout.write_str(&out).await;
        return 0;
    }
    // Every option letter is checked before any is applied (`set -uz`
    // changes nothing).
    for a in argv[1..].iter().take_while(|a| !matches!(a.as_str(), "--" | "-")) {
        if !(a.starts_with('-') || a.starts_with('+')) {
            break;
        }
        let on = a.starts_with('-');
        if let Some(c) = a[1..].chars().find(|&c| c != 'o' && !sh.opts.is_flag(c)) {
            let sign = if on { '-' } else { '+' };
            let msg = format!("set: {sign}{c}: invalid option\nset: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]");
            return fail(sh.loc(), fds, &msg, 2).await;
        }
    }
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--" {
            set_positional(sh, argv[i + 1..].to_vec());
            return 0;
        }
        // A lone `-` ends the options and turns off -x and -v; a lone `+`
        // is an option word with no letters.
        if a == "-" {
            sh.opts.xtrace = false;
            sh.opts.set_flag('v', false);
            if i + 1 < argv.len() {
                set_positional(sh, argv[i + 1..].to_vec());
            }
            return 0;
        }
        if a == "+" {
            i += 1;
            continue;
        }
        let on = a.starts_with('-');
        if !(a.starts_with('-') || a.starts_with('+')) || a.len() < 2 {
            set_positional(sh, argv[i..].to_vec());
            return 0;
        }
        for c in a[1..].chars() {
            if c == 'o' {
                i += 1;
                match argv.get(i) {
                    Some(name) => {
                        if !sh.opts.set_named(name, on) {
                            return fail(sh.loc(), fds, &format!("set: {name}: invalid option name"), 2).await;
                        }
                    }
                    None => {
                        let mut out = String::new();
                        for (n, v) in sh.opts.named() {
                            if on {
                                out.push_str(&format!("{n:<15}\t{}\n", if v { "on" } else { "off" }));
                            } else {
                                out.push_str(&format!("set {}o {n}\n", if v { '-' } else { '+' }));
                            }
                        }
                        let _ = fds.stdout.write_str(&out).await;
                        return 0;
                    }
                }
            } else if !sh.opts.set_flag(c, on) {
                return fail(sh.loc(), fds, &format!("set: {}{c}: invalid option\nset: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", if on { '-' } else { '+' }), 2).await;
            }
        }
        i += 1;
    }
    0
}

/// `shopt [-pqsu] [-o] [optname ...]`.
pub async fn shopt(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut mode: Option<bool> = None;
    let mut quiet = false;
    let mut reusable = false;
    let mut kind = Kind::Shopt;
    let mut i = 1;
    while let Some(a) = argv.get(i).filter(|a| a.len() > 1 && a.starts_with('-')) {
        i += 1;
        if a == "--" {
            break;
        }
        for c in a[1..].chars() {
            match c {
                's' => mode = Some(true),
                'u' => mode = Some(false),
                'q' => quiet = true,
                'p' => reusable = true,
                'o' => kind = Kind::Set,
                _ => {
                    let msg = format!("shopt: -{c}: invalid option\nshopt: usage: shopt [-pqsu] [-o] [optname ...]");
                    return fail(sh.loc(), fds, &msg, 2).await;
                }
            }
        }
    }
    let names = &argv[i.min(argv.len())..];
    let unknown = |n: &str| match kind {
        Kind::Set => format!("shopt: {n}: invalid option name"),
        Kind::Shopt => format!("shopt: {n}: invalid shell option name"),
    };
    let line = |n: &str, on: bool| {
        if reusable {
            match kind {
                Kind::Set => format!("set {}o {n}\n", if on { '-' } else { '+' }),
                Kind::Shopt => format!("shopt {} {n}\n", if on { "-s" } else { "-u" }),
            }
        } else {
            format!("{n:<15}\t{}\n", if on { "on" } else { "off" })
        }
    };
    let mut out = String::new();
    let mut status = 0;
    if names.is_empty() {
        // A listing: every option, or those `-s`/`-u` selects.
        let all = if kind == Kind::Set { sh.opts.named() } else { sh.opts.shopts() };
        for (n, on) in all {
            if mode.is_none_or(|m| m == on) {
                out.push_str(&line(n, on));
            }
        }
    } else {
        for n in names {
            match (mode, sh.opts.get(n, kind)) {
                (_, None) => {
                    // In order with the lines before it, as bash prints them.
                    if !quiet && !out.is_empty() {
                        let _ = fds.stdout.write_str(&std::mem::take(&mut out)).await;
                    }
                    fail(sh.loc(), fds, &unknown(n), 1).await;
                    // bash's quirk: setting or unsetting an unknown `-o` name
                    // is an error without a failing status.
                    if !(kind == Kind::Set && mode.is_some()) {
                        status = 1;
                    }
                }
                (Some(on), Some(_)) => {
                    let ok = if kind == Kind::Set { sh.opts.set_named(n, on) } else { sh.opts.set(n, kind, on) };
                    debug_assert!(ok);
                }
                (None, Some(on)) => {
                    if !on {
                        status = 1;
                    }
                    if !quiet {
                        out.push_str(&line(n, on));
                    }
                }
            }
        }
    }
    if !quiet && !out.is_empty() {
        let _ = fds.stdout.write_str(&out).await;
    }
    status
}

/// New positional parameters from `set` (see [`ShellState::args_set_at_top`]).
fn set_positional(sh: &mut ShellState, args: Vec<String>) {
    sh.positional = Arc::new(args);
    if sh.func_depth == 0 {
        sh.args_set_at_top = true;
    }
}
