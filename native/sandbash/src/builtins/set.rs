//! `set` (options and positional parameters) and `shopt`.

use super::fail;
use crate::interp::Fds;
use crate::state::{ShellState, Value};
use std::sync::Arc;

pub async fn set(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    if argv.len() == 1 {
        let mut out = String::new();
        for n in sh.vars.names() {
            let Some(v) = sh.vars.get(&n) else { continue };
            match &v.value {
                Some(Value::Scalar(s)) => out.push_str(&format!("{n}={}\n", crate::expand::param::quote_if_needed(s))),
                Some(Value::Indexed(m)) => {
                    let items: Vec<String> =
                        m.iter().map(|(k, v)| format!("[{k}]={}", crate::expand::param::quote(v))).collect();
                    out.push_str(&format!("{n}=({})\n", items.join(" ")));
                }
                Some(Value::Assoc(m)) => {
                    let items: String =
                        m.iter().map(|(k, v)| format!("[{k}]={} ", crate::expand::param::quote(v))).collect();
                    out.push_str(&format!("{n}=({items})\n"));
                }
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
        let _ = fds.stdout.write(out.as_bytes()).await;
        return 0;
    }
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--" {
            sh.positional = Arc::new(argv[i + 1..].to_vec());
            return 0;
        }
        if a == "-" {
            sh.opts.xtrace = false;
            if i + 1 < argv.len() {
                sh.positional = Arc::new(argv[i + 1..].to_vec());
            }
            return 0;
        }
        let on = a.starts_with('-');
        if !(a.starts_with('-') || a.starts_with('+')) || a.len() < 2 {
            sh.positional = Arc::new(argv[i..].to_vec());
            return 0;
        }
        for c in a[1..].chars() {
            if c == 'o' {
                i += 1;
                match argv.get(i) {
                    Some(name) => {
                        if !sh.opts.set_named(name, on)
                            && !matches!(
                                name.as_str(),
                                "posix"
                                    | "braceexpand"
                                    | "hashall"
                                    | "interactive-comments"
                                    | "monitor"
                                    | "emacs"
                                    | "vi"
                                    | "history"
                                    | "histexpand"
                                    | "functrace"
                                    | "keyword"
                                    | "onecmd"
                                    | "physical"
                                    | "privileged"
                                    | "verbose"
                                    | "notify"
                                    | "noexec"
                                    | "ignoreeof"
                            )
                        {
                            return fail(sh.loc(), fds, &format!("set: {name}: invalid option name"), 1).await;
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
                        let _ = fds.stdout.write(out.as_bytes()).await;
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

pub async fn shopt(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut mode: Option<bool> = None;
    let mut quiet = false;
    let mut reusable = false;
    let mut names = Vec::new();
    for a in &argv[1..] {
        match a.as_str() {
            "-s" => mode = Some(true),
            "-u" => mode = Some(false),
            "-q" => quiet = true,
            "-p" => reusable = true,
            "-o" => {}
            _ => names.push(a.clone()),
        }
    }
    let mut status = 0;
    for n in &names {
        match sh.opts.shopt_mut(n) {
            Some(v) => match mode {
                Some(on) => *v = on,
                None => {
                    let on = *v;
                    if !on {
                        status = 1;
                    }
                    if reusable {
                        let _ =
                            fds.stdout.write(format!("shopt {} {n}\n", if on { "-s" } else { "-u" }).as_bytes()).await;
                    } else if !quiet {
                        let _ =
                            fds.stdout.write(format!("{n:<15}\t{}\n", if on { "on" } else { "off" }).as_bytes()).await;
                    }
                }
            },
            None => {
                status = fail(sh.loc(), fds, &format!("shopt: {n}: invalid shell option name"), 1).await;
            }
        }
    }
    status
}
