//! `type` and `command`.

use super::KEYWORDS;
use crate::interp::{Fds, Res};
use crate::state::ShellState;
use crate::table::Resolved;

enum Kind {
    Alias(String),
    Keyword,
    Function(String),
    Builtin,
    File(String),
}

/// `type -P`: where a `PATH` search finds `name` (restricted names are not found).
async fn path_hits(sh: &ShellState, name: &str, all: bool) -> Vec<String> {
    if !sh.commands.allowed(name) {
        return Vec::new();
    }
    let hits = sh.commands.path_search(sh, name, all).await;
    hits.into_iter()
        .filter_map(|r| match r {
            Resolved::Utility(_, p) | Resolved::File(p) => Some(p),
            _ => None,
        })
        .collect()
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
    let found = if all {
        sh.commands.resolve_all(sh, name, skip_functions).await
    } else if !kinds.is_empty() {
        Vec::new()
    } else {
        match sh.commands.resolve_with(sh, name, skip_functions).await {
            // The parser's internal helpers are no commands to a script.
            Resolved::Builtin(b) if b.kind == super::Kind::Internal => Vec::new(),
            r => vec![r],
        }
    };
    for r in found {
        kinds.push(match r {
            Resolved::Function(f) => Kind::Function(f.printed()),
            Resolved::SpecialBuiltin(_) | Resolved::Builtin(_) | Resolved::AppBuiltin => Kind::Builtin,
            // A name with a slash must be an executable file; a PATH search
            // falls back to a file without the x bit, as bash's does.
            Resolved::File(p) if name.contains('/') && !is_executable(sh, &p).await => continue,
            Resolved::Utility(_, p) | Resolved::File(p) => Kind::File(p),
            Resolved::NotFound | Resolved::NotAllowed => continue,
        });
    }
    if !all {
        kinds.truncate(1);
    }
    kinds
}

async fn is_executable(sh: &ShellState, p: &str) -> bool {
    let p = crate::fs::path::resolve(&sh.cwd, p);
    sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file() && m.mode & 0o111 != 0)
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
                // What came before goes out first, as bash's stdout is flushed.
                let _ = fds.stdout.write_str(&std::mem::take(&mut out)).await;
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
    let _ = fds.stdout.write_str(&out).await;
    status
}

pub async fn command(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    if let Some(c) = super::unknown_option(argv, "pVv") {
        let usage = "command: usage: command [-pVv] command [arg ...]";
        return Ok(super::usage_error(sh, fds, &format!("command: -{c}: invalid option"), usage).await);
    }
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
                        let _ = fds.stdout.write_str(&std::mem::take(&mut out)).await;
                        fds.shell_err(sh.loc(), &format!("command: {name}: not found")).await;
                    }
                }
            }
        }
        let _ = fds.stdout.write_str(&out).await;
        return Ok(status);
    }
    // `command NAME args`: skip functions.
    let name = rest[0].as_str();
    let r = match sh.commands.resolve_with(sh, name, true).await {
        Resolved::Builtin(b) if b.kind == super::Kind::Internal => Resolved::NotFound,
        r => r,
    };
    Box::pin(crate::interp::simple::run_resolved(sh, name, r, rest.to_vec(), Vec::new(), fds)).await
}
