//! `enable`: list the builtins, or turn some off (`enable -n NAME`) so that a
//! utility of the same name runs instead, and back on (`enable NAME`).

use super::public_names;
use crate::interp::Fds;
use crate::state::ShellState;
use std::sync::Arc;

/// Every builtin name a script sees, sorted (bash's and ours).
pub fn all_builtins() -> Vec<&'static str> {
    let mut list: Vec<&'static str> = public_names();
    list.extend(BASH_BUILTINS.iter().copied());
    list.sort_unstable();
    list.dedup();
    list
}

/// bash 5.2's builtins, as `enable -a` lists them (some only answer here
/// with a message, as a shell without job control or line editing does).
const BASH_BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// POSIX special builtins (`enable -s`).
const SPECIAL: &[&str] = &[
    ".", ":", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "source",
    "times", "trap", "unset",
];

pub async fn enable(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut off = false;
    let mut all = false;
    let mut special = false;
    let mut names: Vec<&str> = Vec::new();
    for a in &argv[1..] {
        match a.as_str() {
            "-n" => off = true,
            "-a" => all = true,
            "-p" => {}
            "-s" => special = true,
            s if s.starts_with('-') && s.len() > 1 && names.is_empty() => {
                let c = s.chars().nth(1).unwrap_or('-');
                fds.shell_err(sh.loc(), &format!("enable: -{c}: invalid option")).await;
                let _ = fds.stderr.write(b"enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\n").await;
                return 2;
            }
            s => names.push(s),
        }
    }
    if names.is_empty() {
        // `enable`/`-p`: the enabled ones; `-n`: the disabled ones; `-a`: all, marked.
        let mut out = String::new();
        let mut list: Vec<&str> = public_names();
        let extra: Vec<&str> = BASH_BUILTINS.iter().copied().filter(|n| !list.contains(n)).collect();
        list.extend(extra);
        list.sort_unstable();
        list.dedup();
        for n in list {
            if special && !SPECIAL.contains(&n) {
                continue;
            }
            let disabled = sh.disabled.contains(n);
            if all || disabled == off {
                out.push_str(if disabled { "enable -n " } else { "enable " });
                out.push_str(n);
                out.push('\n');
            }
        }
        return if fds.stdout.write_str(&out).await.is_ok() { 0 } else { 1 };
    }
    let mut status = 0;
    let known = public_names();
    for n in names {
        if !known.contains(&n) {
            fds.shell_err(sh.loc(), &format!("enable: {n}: not a shell builtin")).await;
            status = 1;
            continue;
        }
        let set = Arc::make_mut(&mut sh.disabled);
        if off {
            set.insert(n.to_string());
        } else {
            set.remove(n);
        }
    }
    status
}
