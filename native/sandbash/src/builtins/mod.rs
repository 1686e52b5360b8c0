//! Shell builtins: the commands that read or change the shell's own state
//! (cd, export, read, set, ...), one module per family. Their errors read
//! `bash: NAME: message`, as bash's do.

mod alias;
mod bash;
mod cd;
pub mod complete;
mod control;
pub(crate) mod declare;
pub mod dirstack;
mod echo;
mod enable;
mod eval;
mod getopts;
mod history;
mod jobs;
mod let_;
pub mod mapfile;
mod misc;
mod read;
mod select;
mod set;
mod shift;
mod trap;
pub(crate) mod type_;
mod unset;

use crate::interp::simple::Assigned;
use crate::interp::{Fds, Res};
use crate::state::ShellState;

pub use eval::run_script_file;
pub(crate) use trap::canonical as trap_condition;

/// An argument of a declaration builtin (`export`, `local`, `declare`, ...).
#[derive(Debug, Clone)]
pub enum DeclArg {
    Plain(String),
    Assign(Assigned),
}

const NAMES: &[&str] = &[
    ":",
    "true",
    "false",
    "echo",
    "printf",
    "cd",
    "pwd",
    "export",
    "unset",
    "set",
    "shift",
    "local",
    "declare",
    "typeset",
    "readonly",
    "return",
    "exit",
    "break",
    "continue",
    "read",
    "test",
    "[",
    "eval",
    "source",
    ".",
    "shopt",
    "let",
    "type",
    "command",
    "bash",
    "sh",
    "trap",
    "builtin",
    "exec",
    "getopts",
    "alias",
    "unalias",
    "pushd",
    "popd",
    "dirs",
    "mapfile",
    "readarray",
    "umask",
    "hash",
    "history",
    "enable",
    "help",
    "caller",
    "compgen",
    "complete",
    "compopt",
    "wait",
    "jobs",
    "kill",
    "__select",
    "__syntax_error",
];

/// The builtins a script sees (`enable` lists them): internal ones left out.
pub fn public_names() -> Vec<&'static str> {
    let mut v: Vec<&str> =
        NAMES.iter().copied().filter(|n| !n.starts_with("__") && !matches!(*n, "bash" | "sh")).collect();
    v.sort_unstable();
    v
}

/// Internal marker: a builtin's write hit a closed pipe (ends the stage like SIGPIPE).
const SIGPIPE: i32 = -141;

/// Shell keywords (for `type`).
pub const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
    "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// `bash ARGS` / `sh ARGS` run as a program (from xargs, find -exec, env, timeout).
pub async fn run_shell_program(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    bash::run(sh, argv, fds).await
}

/// One of bash's own builtins (`printf`, `test`, ... whichever of ours runs it).
pub fn is_bash_builtin(name: &str) -> bool {
    enable::all_builtins().contains(&name)
}

pub fn is_builtin(name: &str) -> bool {
    NAMES.contains(&name) || (cfg!(test) && name == "__test_panic")
}

/// A builtin a script can see (`type`, `command -v`, `builtin`, `compgen`):
/// the internal `__select` and `__syntax_error` (the parser's rewrites call
/// them) are not among them, as bash has no such names.
pub fn is_public_builtin(name: &str) -> bool {
    is_builtin(name) && !name.starts_with("__")
}

/// Run builtin `argv[0]`.
pub fn run<'a>(
    sh: &'a mut ShellState,
    argv: &'a [String],
    decl: Vec<DeclArg>,
    fds: &'a Fds,
) -> futures_util::future::BoxFuture<'a, Res> {
    Box::pin(run_inner(sh, argv, decl, fds))
}

async fn run_inner(sh: &mut ShellState, argv: &[String], decl: Vec<DeclArg>, fds: &Fds) -> Res {
    let name = argv[0].as_str();
    // Builtins that take options answer `--help`; these few treat it as an operand.
    let takes_help = !matches!(name, ":" | "true" | "false" | "echo" | "test" | "[" | "bash" | "sh" | "__select");
    if takes_help && argv.get(1).map(String::as_str) == Some("--help") {
        if let Some(status) = misc::dash_dash_help(name, fds).await {
            return Ok(status);
        }
    }
    let status = match name {
        // Lets the unit tests check that a panic stays inside `exec`.
        #[cfg(test)]
        "__test_panic" => panic!("test panic"),
        ":" | "true" => 0,
        "false" => 1,
        "echo" => match echo::echo(sh.loc(), argv, fds, sh.opts.xpg_echo).await {
            SIGPIPE => return Err(crate::interp::Flow::Exit(141)),
            s => s,
        },
        "printf" => return echo::printf(sh, argv, fds).await,
        "cd" => cd::cd(sh, argv, fds).await,
        "pwd" => cd::pwd(sh, argv, fds).await,
        "export" | "local" | "declare" | "typeset" | "readonly" => {
            // Reached through `command`/`builtin` (or made by an expansion):
            // the words themselves, as text.
            let decl = if decl.is_empty() { argv[1..].iter().cloned().map(DeclArg::Plain).collect() } else { decl };
            declare::run(sh, name, decl, fds).await?
        }
        "unset" => unset::unset(sh, argv, fds).await,
        "set" => set::set(sh, argv, fds).await,
        "shopt" => set::shopt(sh, argv, fds).await,
        "shift" => shift::shift(sh, argv, fds).await,
        "getopts" => getopts::getopts(sh, argv, fds).await,
        "__select" => select::select(sh, argv, fds).await?,
        "__syntax_error" => {
            // The syntax error after the commands that ran (see `syntax::with_runnable_prefix`).
            let msg = argv.get(1).map_or("", String::as_str);
            let _ = fds.stderr.write(format!("{msg}\n").as_bytes()).await;
            return Err(crate::interp::Flow::Exit(2));
        }
        "return" | "exit" | "break" | "continue" => return control::run(sh, argv, fds).await,
        "read" => read::read(sh, argv, fds).await?,
        "test" | "[" => crate::interp::cond::test_builtin(sh, argv, fds).await?,
        "eval" => return eval::eval(sh, argv, fds).await,
        "source" | "." => return eval::source(sh, argv, fds).await,
        "let" => let_::run(sh, argv, fds).await?,
        "type" => type_::type_(sh, argv, fds).await,
        "command" => return type_::command(sh, argv, fds).await,
        "bash" | "sh" => return bash::run(sh, argv, fds).await,
        "trap" => trap::trap(sh, argv, fds).await,
        "wait" => jobs::wait(sh, argv, fds).await,
        "jobs" => jobs::jobs(sh, argv, fds).await,
        "kill" => return jobs::kill(sh, argv, fds).await,
        "alias" => alias::alias(sh, argv, fds).await,
        "pushd" => dirstack::pushd(sh, argv, fds).await,
        "umask" => misc::umask(sh, argv, fds).await,
        "hash" => misc::hash(sh, argv, fds).await,
        "history" => history::history(sh, argv, fds).await,
        "enable" => enable::enable(sh, argv, fds).await,
        "help" => misc::help(sh, argv, fds).await,
        "caller" => misc::caller(sh, argv, fds).await,
        "compgen" => complete::compgen(sh, argv, fds).await,
        "complete" => complete::complete(sh, argv, fds).await,
        "compopt" => complete::compopt(sh, argv, fds).await,
        "mapfile" | "readarray" => mapfile::mapfile(sh, argv, fds).await?,
        "popd" => dirstack::popd(sh, argv, fds).await,
        "dirs" => dirstack::dirs(sh, argv, fds).await,
        "unalias" => alias::unalias(sh, argv, fds).await,
        "exec" => {
            // Without a command the redirections stay for the rest of the shell;
            // with one, the command replaces the shell.
            // `exec [-cl] [-a name] [command [argument ...]]`.
            let mut i = 1;
            let (mut clear, mut login, mut name) = (false, false, None::<String>);
            while let Some(a) = argv.get(i).filter(|a| a.starts_with('-') && a.len() > 1) {
                i += 1;
                if a == "--" {
                    break;
                }
                let mut chars = a[1..].chars();
                while let Some(c) = chars.next() {
                    match c {
                        'c' => clear = true,
                        'l' => login = true,
                        'a' => {
                            let rest: String = chars.by_ref().collect();
                            if !rest.is_empty() {
                                name = Some(rest);
                            } else if let Some(n) = argv.get(i) {
                                name = Some(n.clone());
                                i += 1;
                            } else {
                                fds.shell_err(sh.loc(), "exec: -a: option requires an argument").await;
                                let _ = fds.stderr.write(EXEC_USAGE.as_bytes()).await;
                                return Ok(2);
                            }
                        }
                        c => {
                            fds.shell_err(sh.loc(), &format!("exec: -{c}: invalid option")).await;
                            let _ = fds.stderr.write(EXEC_USAGE.as_bytes()).await;
                            return Ok(2);
                        }
                    }
                }
            }
            if i >= argv.len() {
                sh.exec_fds = Some(std::sync::Arc::new(fds.clone()));
                return Ok(0);
            }
            let mut args = argv[i..].to_vec();
            let cmd = args[0].clone();
            // `-a NAME` (and `-l`'s dash) reach a nested bash as its `$0`.
            let name = match name {
                Some(n) if login => Some(format!("-{n}")),
                Some(n) => Some(n),
                None if login => Some(format!("-{cmd}")),
                None => None,
            };
            let base = cmd.rsplit('/').next().unwrap_or(&cmd);
            if let Some(n) = name.filter(|_| matches!(base, "bash" | "sh")) {
                if args.len() == 3 && args[1] == "-c" {
                    args.push(n);
                }
            }
            // `-c`: the command gets an empty environment.
            if clear {
                for (k, _) in sh.vars.exported() {
                    sh.vars.entry(&k).exported = false;
                }
            }
            let status = Box::pin(crate::interp::simple::dispatch(sh, &cmd, args, Vec::new(), fds)).await?;
            return Err(crate::interp::Flow::Exit(status));
        }
        "builtin" => match argv.get(1) {
            None => 0,
            Some(n) if is_public_builtin(n) => return run(sh, &argv[1..], Vec::new(), fds).await,
            Some(n) => fail(sh.loc(), fds, &format!("builtin: {n}: not a shell builtin"), 1).await,
        },
        _ => 127,
    };
    Ok(status)
}

const EXEC_USAGE: &str = "exec: usage: exec [-cl] [-a name] [command [argument ...]] [redirection ...]\n";

/// Print `bash: line N: msg` (builtin errors) and return `status`.
pub async fn fail(loc: crate::state::Loc, fds: &Fds, msg: &str, status: i32) -> i32 {
    fds.shell_err(loc, msg).await;
    status
}

/// Is `s` a valid variable name?
pub fn valid_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch == '_' || ch.is_ascii_alphabetic())
        && c.all(|ch| ch == '_' || ch.is_ascii_alphanumeric())
}
