//! `type` and `command`.

use super::{is_public_builtin, KEYWORDS};
use crate::commands::default_registry;
use crate::interp::{Fds, Res};
use crate::state::ShellState;

enum Kind {
    Alias(String),
    Keyword,
    Function(String),
    Builtin,
    File(String),
}

fn classify(sh: &ShellState, name: &str, skip_functions: bool) -> Option<Kind> {
    if sh.opts.expand_aliases {
        if let Some(v) = sh.aliases.get(name) {
            return Some(Kind::Alias(v.clone()));
        }
    }
    if KEYWORDS.contains(&name) {
        return Some(Kind::Keyword);
    }
    if !skip_functions {
        if let Some(f) = sh.funcs.get(name) {
            return Some(Kind::Function(f.printed()));
        }
    }
    let host = sh.host.as_ref().is_some_and(|h| h.has(name));
    let enabled = is_public_builtin(name) && !sh.disabled.contains(name);
    if host || (enabled && !matches!(name, "bash" | "sh")) {
        return Some(Kind::Builtin);
    }
    if default_registry().get(name).is_some()
        || matches!(name, "bash" | "sh")
        || crate::commands::python_command(&sh.sys, name).is_some()
    {
        return Some(Kind::File(format!("/usr/bin/{name}")));
    }
    None
}

pub async fn type_(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut terse = false;
    let mut path_only = false;
    let mut status = 0;
    let mut out = String::new();
    for a in &argv[1..] {
        match a.as_str() {
            "-t" => terse = true,
            "-p" | "-P" => path_only = true,
            "-a" | "-f" => {}
            name => match classify(sh, name, false) {
                Some(k) => {
                    let line = match (k, terse) {
                        (Kind::Alias(_), true) => "alias".to_string(),
                        (Kind::Keyword, true) => "keyword".to_string(),
                        (Kind::Function(_), true) => "function".to_string(),
                        (Kind::Builtin, true) => "builtin".to_string(),
                        (Kind::File(_), true) => "file".to_string(),
                        (Kind::File(p), _) if path_only => p,
                        (_, _) if path_only => continue,
                        (Kind::Alias(v), _) => format!("{name} is aliased to `{v}'"),
                        (Kind::Keyword, _) => format!("{name} is a shell keyword"),
                        (Kind::Function(src), _) => format!("{name} is a function\n{src}"),
                        (Kind::Builtin, _) => format!("{name} is a shell builtin"),
                        (Kind::File(p), _) => format!("{name} is {p}"),
                    };
                    out.push_str(&line);
                    out.push('\n');
                }
                None => {
                    status = 1;
                    if !terse && !path_only {
                        fds.shell_err(sh.loc(), &format!("type: {name}: not found")).await;
                    }
                }
            },
        }
    }
    let _ = fds.stdout.write(out.as_bytes()).await;
    status
}

pub async fn command(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let mut i = 1;
    let (mut describe, mut verbose) = (false, false);
    while i < argv.len() && argv[i].starts_with('-') && argv[i].len() > 1 {
        for c in argv[i][1..].chars() {
            match c {
                'v' => describe = true,
                'V' => verbose = true,
                _ => {}
            }
        }
        i += 1;
    }
    let rest = &argv[i..];
    if rest.is_empty() {
        return Ok(0);
    }
    if describe || verbose {
        let mut status = 0;
        let mut out = String::new();
        for name in rest {
            match classify(sh, name, false) {
                Some(Kind::File(p)) => {
                    out.push_str(&if verbose { format!("{name} is {p}\n") } else { format!("{p}\n") })
                }
                Some(Kind::Alias(v)) if verbose => out.push_str(&format!("{name} is aliased to `{v}'\n")),
                Some(Kind::Alias(v)) => out.push_str(&format!("alias {name}={}\n", crate::interp::alias::quote(&v))),
                Some(Kind::Function(src)) if verbose => out.push_str(&format!("{name} is a function\n{src}\n")),
                Some(Kind::Builtin) if verbose => out.push_str(&format!("{name} is a shell builtin\n")),
                Some(Kind::Keyword) if verbose => out.push_str(&format!("{name} is a shell keyword\n")),
                Some(_) => out.push_str(&format!("{name}\n")),
                None => {
                    status = 1;
                    if verbose {
                        fds.shell_err(sh.loc(), &format!("command: {name}: not found")).await;
                    }
                }
            }
        }
        let _ = fds.stdout.write(out.as_bytes()).await;
        return Ok(status);
    }
    // `command NAME args`: skip functions.
    let name = rest[0].as_str();
    if is_public_builtin(name) {
        return super::run(sh, rest, Vec::new(), fds).await;
    }
    if let Some(cmd) = default_registry().get(name).cloned() {
        return crate::interp::simple::run_utility(sh, cmd.as_ref(), rest, fds).await;
    }
    fds.shell_err(sh.loc(), &format!("{name}: command not found")).await;
    Ok(127)
}
