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

/// Where `name` is found on PATH: executable files of the sandbox's
/// filesystem, and the utilities, which live in `/usr/bin` and `/bin`.
pub async fn path_hits(sh: &ShellState, name: &str, all: bool) -> Vec<String> {
    let utility = default_registry().get(name).is_some()
        || matches!(name, "bash" | "sh")
        || crate::commands::python_command(&sh.sys, name).is_some();
    let path = sh.get_var("PATH").unwrap_or_default();
    let mut hits = Vec::new();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = format!("{}/{name}", dir.trim_end_matches('/'));
        let found = if utility && matches!(dir, "/usr/bin" | "/bin") {
            true
        } else {
            let p = crate::fs::path::resolve(&sh.cwd, &full);
            sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file() && m.mode & 0o111 != 0)
        };
        if found {
            hits.push(full);
            if !all {
                break;
            }
        }
    }
    if hits.is_empty() && utility {
        // A utility is always found, even when PATH leaves its directory out.
        hits.push(format!("/usr/bin/{name}"));
    }
    hits
}

/// The first regular file named `name` on PATH, executable or not.
pub async fn path_file(sh: &ShellState, name: &str) -> Option<String> {
    let path = sh.get_var("PATH").unwrap_or_default();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = format!("{}/{name}", dir.trim_end_matches('/'));
        let p = crate::fs::path::resolve(&sh.cwd, &full);
        if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file()) {
            return Some(full);
        }
    }
    None
}

/// Everything `name` could run, in bash's order of precedence (only the
/// first unless `all`). `skip_functions` for `type -f` and `command`.
async fn classify_all(sh: &ShellState, name: &str, skip_functions: bool, all: bool) -> Vec<Kind> {
    let mut kinds = Vec::new();
    if sh.opts.expand_aliases {
        if let Some(v) = sh.aliases.get(name) {
            kinds.push(Kind::Alias(v.clone()));
        }
    }
    if KEYWORDS.contains(&name) {
        kinds.push(Kind::Keyword);
    }
    if !skip_functions {
        if let Some(f) = sh.funcs.get(name) {
            kinds.push(Kind::Function(f.printed()));
        }
    }
    let host = sh.host.as_ref().is_some_and(|h| h.has(name));
    let enabled = is_public_builtin(name) && !sh.disabled.contains(name);
    if host || (enabled && !matches!(name, "bash" | "sh")) {
        kinds.push(Kind::Builtin);
    }
    if all || kinds.is_empty() {
        kinds.extend(path_hits(sh, name, all).await.into_iter().map(Kind::File));
    }
    if !all {
        kinds.truncate(1);
    }
    kinds
}

async fn classify(sh: &ShellState, name: &str, skip_functions: bool) -> Option<Kind> {
    classify_all(sh, name, skip_functions, false).await.into_iter().next()
}

/// `type [-afptP] name ...`.
pub async fn type_(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut terse, mut path, mut force_path, mut all, mut no_funcs) = (false, false, false, false, false);
    let mut i = 1;
    while let Some(a) = argv.get(i).filter(|a| a.len() > 1 && a.starts_with('-')) {
        i += 1;
        if a == "--" {
            break;
        }
        for c in a[1..].chars() {
            match c {
                't' => terse = true,
                'p' => path = true,
                'P' => force_path = true,
                'a' => all = true,
                'f' => no_funcs = true,
                _ => {
                    let msg = format!("type: -{c}: invalid option\ntype: usage: type [-afptP] name [name ...]");
                    return super::fail(sh.loc(), fds, &msg, 2).await;
                }
            }
        }
    }
    let mut status = 0;
    let mut out = String::new();
    for name in &argv[i.min(argv.len())..] {
        if force_path {
            // `-P`: a PATH search whatever else the name is.
            let hits = path_hits(sh, name, all).await;
            if hits.is_empty() {
                status = 1;
            }
            for h in hits {
                out.push_str(&format!("{h}\n"));
            }
            continue;
        }
        let kinds = classify_all(sh, name, no_funcs, all).await;
        if kinds.is_empty() {
            status = 1;
            if !terse && !path {
                fds.shell_err(sh.loc(), &format!("type: {name}: not found")).await;
            }
            continue;
        }
        for k in kinds {
            let line = match (k, terse) {
                (Kind::Alias(_), true) => "alias".to_string(),
                (Kind::Keyword, true) => "keyword".to_string(),
                (Kind::Function(_), true) => "function".to_string(),
                (Kind::Builtin, true) => "builtin".to_string(),
                (Kind::File(_), true) => "file".to_string(),
                (Kind::File(p), _) if path => p,
                (_, _) if path => continue,
                (Kind::Alias(v), _) => format!("{name} is aliased to `{v}'"),
                (Kind::Keyword, _) => format!("{name} is a shell keyword"),
                (Kind::Function(src), _) => format!("{name} is a function\n{src}"),
                (Kind::Builtin, _) => format!("{name} is a shell builtin"),
                (Kind::File(p), _) => format!("{name} is {p}"),
            };
            out.push_str(&line);
            out.push('\n');
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
        // Success when any name was found.
        let mut status = 1;
        let mut out = String::new();
        for name in rest {
            let kind = classify(sh, name, false).await;
            if kind.is_some() {
                status = 0;
            }
            match kind {
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
