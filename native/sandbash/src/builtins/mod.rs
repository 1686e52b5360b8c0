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
mod help;
mod history;
mod jobs;
mod let_;
pub mod mapfile;
mod misc;
pub(crate) mod read;
mod select;
mod set;
mod shift;
pub(crate) mod signals;
mod trap;
pub(crate) mod type_;
pub mod ulimit;
mod unset;

use crate::interp::simple::Assigned;
use crate::interp::{Fds, Flow, Res};
use crate::state::ShellState;
use futures_util::future::BoxFuture;

pub use eval::run_script_file;
pub(crate) use trap::canonical as trap_condition;

/// An argument of a declaration builtin (`export`, `local`, `declare`, ...).
#[derive(Debug, Clone)]
pub enum DeclArg {
    Plain(String),
    Assign(Assigned),
}

/// How bash treats a builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A POSIX special builtin (`enable -s`): its prefix assignments persist,
    /// and it is part of the language, so the `commands` restriction never
    /// applies to it.
    Special,
    /// Any other builtin.
    Regular,
    /// `bash`/`sh`: run in-process but shown as the program `/usr/bin/bash`.
    Program,
    /// Helpers the parser's rewrites call (`__select`): no script sees them.
    Internal,
}

/// One call of a builtin: its words, the `name=value` arguments of a
/// declaration builtin as assignments, and its descriptors.
pub struct Call<'a> {
    pub argv: &'a [String],
    pub decl: Vec<DeclArg>,
    pub fds: &'a Fds,
}

/// Every builtin has this signature: the exit status, or a [`Flow`] that
/// leaves the command (`exit`, `return`, a closed pipe, a limit).
pub type BuiltinFn = for<'a> fn(&'a mut ShellState, Call<'a>) -> BoxFuture<'a, Res>;

/// An entry of the builtin table.
pub struct Builtin {
    pub name: &'static str,
    pub kind: Kind,
    pub run: BuiltinFn,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Builtin({}, {:?})", self.name, self.kind)
    }
}

/// A table entry for a builtin `fn(sh, argv, fds)` returning a plain status
/// (`status`) or a [`Res`] (`res`).
macro_rules! entry {
    ($name:literal, $kind:ident, status $f:path) => {
        Builtin {
            name: $name,
            kind: Kind::$kind,
            run: {
                fn run<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
                    Box::pin(async move { Ok($f(sh, c.argv, c.fds).await) })
                }
                run
            },
        }
    };
    ($name:literal, $kind:ident, res $f:path) => {
        Builtin {
            name: $name,
            kind: Kind::$kind,
            run: {
                fn run<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
                    Box::pin($f(sh, c.argv, c.fds))
                }
                run
            },
        }
    };
    ($name:literal, $kind:ident, call $f:path) => {
        Builtin { name: $name, kind: Kind::$kind, run: $f }
    };
}

/// The builtins, sorted by name (looked up by binary search).
static TABLE: &[Builtin] = &[
    entry!(".", Special, res eval::source),
    entry!(":", Special, call ok),
    entry!("[", Regular, res crate::interp::cond::test_builtin),
    entry!("__select", Internal, res select::select),
    entry!("__stuck", Internal, call stuck),
    entry!("__syntax_error", Internal, call syntax_error),
    #[cfg(test)]
    entry!("__test_panic", Internal, call test_panic),
    entry!("alias", Regular, status alias::alias),
    entry!("bash", Program, res bash::run),
    entry!("bg", Regular, status jobs::no_job_control),
    entry!("bind", Regular, status history::bind),
    entry!("break", Special, res control::run),
    entry!("builtin", Regular, call builtin),
    entry!("caller", Regular, status misc::caller),
    entry!("cd", Regular, status cd::cd),
    entry!("command", Regular, res type_::command),
    entry!("compgen", Regular, status complete::compgen),
    entry!("complete", Regular, status complete::complete),
    entry!("compopt", Regular, status complete::compopt),
    entry!("continue", Special, res control::run),
    entry!("declare", Regular, call declaration),
    entry!("dirs", Regular, status dirstack::dirs),
    entry!("disown", Regular, status jobs::disown),
    entry!("echo", Regular, res echo::echo),
    entry!("enable", Regular, status enable::enable),
    entry!("eval", Special, res eval::eval),
    entry!("exec", Special, call exec),
    entry!("exit", Special, res control::run),
    entry!("export", Special, call declaration),
    entry!("false", Regular, call fail_status),
    entry!("fc", Regular, res history::fc),
    entry!("fg", Regular, status jobs::no_job_control),
    entry!("getopts", Regular, status getopts::getopts),
    entry!("hash", Regular, status misc::hash),
    entry!("help", Regular, status help::help),
    entry!("history", Regular, status history::history),
    entry!("jobs", Regular, status jobs::jobs),
    entry!("kill", Regular, res jobs::kill),
    entry!("let", Regular, res let_::run),
    entry!("local", Regular, call declaration),
    entry!("logout", Regular, status jobs::logout),
    entry!("mapfile", Regular, res mapfile::mapfile),
    entry!("popd", Regular, status dirstack::popd),
    entry!("printf", Regular, res echo::printf),
    entry!("pushd", Regular, status dirstack::pushd),
    entry!("pwd", Regular, status cd::pwd),
    entry!("read", Regular, res read::read),
    entry!("readarray", Regular, res mapfile::mapfile),
    entry!("readonly", Special, call declaration),
    entry!("return", Special, res control::run),
    entry!("set", Special, status set::set),
    entry!("sh", Program, res bash::run),
    entry!("shift", Special, res shift::shift),
    entry!("shopt", Regular, status set::shopt),
    entry!("source", Special, res eval::source),
    entry!("suspend", Regular, status jobs::suspend),
    entry!("test", Regular, res crate::interp::cond::test_builtin),
    entry!("times", Special, status jobs::times),
    entry!("trap", Special, status trap::trap),
    entry!("true", Regular, call ok),
    entry!("type", Regular, status type_::type_),
    entry!("typeset", Regular, call declaration),
    entry!("ulimit", Regular, status ulimit::ulimit),
    entry!("umask", Regular, status misc::umask),
    entry!("unalias", Regular, status alias::unalias),
    entry!("unset", Special, status unset::unset),
    entry!("wait", Regular, status jobs::wait),
];

/// The builtin `name` (internal ones included), enabled or not.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    // Compared inline: a memcmp call per step cost more than the compare.
    TABLE
        .binary_search_by(|b| crate::state::name_key::order(b.name.as_bytes(), name.as_bytes()))
        .ok()
        .map(|i| &TABLE[i])
}

/// Every builtin of the table.
pub fn all() -> &'static [Builtin] {
    TABLE
}

/// The builtins a script sees (`enable` lists them): internal ones and the
/// programs `bash`/`sh` left out.
pub fn public_names() -> Vec<&'static str> {
    TABLE.iter().filter(|b| matches!(b.kind, Kind::Special | Kind::Regular)).map(|b| b.name).collect()
}

/// Shell keywords (for `type`).
pub const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
    "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// `bash ARGS` / `sh ARGS` run as a program (from xargs, find -exec, env, timeout).
pub async fn run_shell_program(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    bash::run(sh, argv, fds).await
}

/// Whether `name` is a builtin, internal ones included (enabled or not).
/// One of bash's own builtins (`printf`, `test`, ... whichever of ours runs it).
pub fn is_bash_builtin(name: &str) -> bool {
    enable::all_builtins().contains(&name)
}

pub fn is_builtin(name: &str) -> bool {
    lookup(name).is_some()
}

/// A builtin a script can see (`type`, `command -v`, `builtin`, `compgen`):
/// the internal `__select` and `__syntax_error` (the parser's rewrites call
/// them) are not among them, as bash has no such names.
pub fn is_public_builtin(name: &str) -> bool {
    lookup(name).is_some_and(|b| b.kind != Kind::Internal)
}

/// Whether `name` is a POSIX special builtin.
pub fn is_special(name: &str) -> bool {
    lookup(name).is_some_and(|b| b.kind == Kind::Special)
}

/// Run builtin `argv[0]` (127 when there is none).
pub fn run<'a>(sh: &'a mut ShellState, argv: &'a [String], decl: Vec<DeclArg>, fds: &'a Fds) -> BoxFuture<'a, Res> {
    match lookup(&argv[0]) {
        Some(b) => run_builtin(sh, b, argv, decl, fds),
        None => Box::pin(async { Ok(127) }),
    }
}

/// Run builtin `b` with `argv` (`argv[0]` its name).
pub fn run_builtin<'a>(
    sh: &'a mut ShellState,
    b: &'static Builtin,
    argv: &'a [String],
    decl: Vec<DeclArg>,
    fds: &'a Fds,
) -> BoxFuture<'a, Res> {
    Box::pin(async move {
        // Builtins that take options answer `--help`; these few treat it as an operand.
        let takes_help =
            b.kind != Kind::Program && !matches!(b.name, ":" | "true" | "false" | "echo" | "test" | "[" | "__select");
        if takes_help && argv.get(1).map(String::as_str) == Some("--help") {
            if let Some(status) = help::dash_dash_help(b.name, fds).await {
                return Ok(status);
            }
        }
        (b.run)(sh, Call { argv, decl, fds }).await
    })
}

fn ok<'a>(_: &'a mut ShellState, _: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(async { Ok(0) })
}

fn fail_status<'a>(_: &'a mut ShellState, _: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(async { Ok(1) })
}

/// Lets the unit tests check that a panic stays inside `exec`.
#[cfg(test)]
fn test_panic<'a>(_: &'a mut ShellState, _: Call<'a>) -> BoxFuture<'a, Res> {
    panic!("test panic")
}

/// `__stuck MS`: hold the worker for MS milliseconds (at most a minute)
/// without looking at the clock, as a utility stuck in an algorithm would --
/// only when the process enabled test hooks (`limits::watchdog::enable_test_hooks`,
/// the CLI's `SANDBASH_TEST_HOOKS=1`): the watchdog's own tests. Otherwise
/// it is no command.
fn stuck<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(async move {
        if !crate::limits::watchdog::test_hooks() {
            let _ = c.fds.stderr.write_str(&format!("{}: {}: command not found\n", sh.arg0, c.argv[0])).await;
            return Ok(127);
        }
        let ms = c.argv.get(1).and_then(|a| a.parse::<u64>().ok()).unwrap_or(0).min(60_000);
        sh.budget.set_command("__stuck");
        std::thread::sleep(std::time::Duration::from_millis(ms));
        Ok(0)
    })
}

/// The syntax error after the commands that ran (see `syntax::with_runnable_prefix`);
/// when they defined aliases or set extglob, the rest of the script is read
/// again with them.
fn syntax_error<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(async move {
        if let Some((raw, ran)) = sh.unread.take() {
            let extglob = sh.opts.extglob && crate::syntax::reads_otherwise_with_extglob(raw.get(ran..).unwrap_or(""));
            if extglob || (sh.opts.expand_aliases && !sh.aliases.is_empty()) {
                return crate::interp::read_on(sh, raw, ran, c.fds).await;
            }
        }
        let msg = c.argv.get(1).map_or("", String::as_str);
        if !msg.is_empty() {
            let _ = c.fds.stderr.write_str(&format!("{msg}\n")).await;
        }
        // A malformed `[[ ]]` ends the script with the status it had; an
        // unclosed quote at the end, with it when it failed.
        Err(Flow::Exit(match c.argv.get(2).map(String::as_str) {
            Some("last") => sh.last_status,
            Some("nonzero") if sh.last_status != 0 => sh.last_status,
            Some("one") => 1,
            _ => 2,
        }))
    })
}

/// `export`, `local`, `declare`, `typeset`, `readonly`.
fn declaration<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(async move {
        // Reached through `command`/`builtin` (or made by an expansion):
        // the words themselves, as text.
        let decl = if c.decl.is_empty() { c.argv[1..].iter().cloned().map(DeclArg::Plain).collect() } else { c.decl };
        declare::run(sh, &c.argv[0], decl, c.fds).await
    })
}

/// `builtin [name [args]]`.
fn builtin<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(async move {
        if let Some(o) = unknown_option(c.argv, "") {
            let usage = "builtin: usage: builtin [shell-builtin [arg ...]]";
            return Ok(usage_error(sh, c.fds, &format!("builtin: -{o}: invalid option"), usage).await);
        }
        let skip = 1 + usize::from(c.argv.get(1).is_some_and(|a| a == "--"));
        match c.argv.get(skip) {
            None => Ok(0),
            Some(n) => match lookup(n).filter(|b| matches!(b.kind, Kind::Special | Kind::Regular)) {
                Some(b) => run_builtin(sh, b, &c.argv[skip..], Vec::new(), c.fds).await,
                None => Ok(fail(sh.loc(), c.fds, &format!("builtin: {n}: not a shell builtin"), 1).await),
            },
        }
    })
}

/// `exec [-cl] [-a name] [command [argument ...]]`: without a command the
/// redirections stay for the rest of the shell; with one, the command
/// replaces the shell.
fn exec<'a>(sh: &'a mut ShellState, c: Call<'a>) -> BoxFuture<'a, Res> {
    Box::pin(exec_inner(sh, c.argv, c.fds))
}

async fn exec_inner(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
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
                        let _ = fds.stderr.write_str(EXEC_USAGE).await;
                        return Ok(2);
                    }
                }
                c => {
                    fds.shell_err(sh.loc(), &format!("exec: -{c}: invalid option")).await;
                    let _ = fds.stderr.write_str(EXEC_USAGE).await;
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
    Err(Flow::Exit(status))
}

const EXEC_USAGE: &str = "exec: usage: exec [-cl] [-a name] [command [argument ...]] [redirection ...]\n";

/// Print `bash: line N: msg` (builtin errors) and return `status`.
pub async fn fail(loc: crate::state::Loc, fds: &Fds, msg: &str, status: i32) -> i32 {
    fds.shell_err(loc, msg).await;
    status
}

/// `NAME: too many arguments` from `shift`, `return`, `exit`, `break` or
/// `continue`: bash abandons what it is running (jump_to_top_level). A script
/// file goes on at its next line; a `-c` string ends there, status 1.
pub async fn too_many_arguments(sh: &ShellState, fds: &Fds, name: &str) -> Flow {
    fds.shell_err(sh.loc(), &format!("{name}: too many arguments")).await;
    if sh.script_file {
        Flow::Abort(1)
    } else {
        Flow::Exit(1)
    }
}

/// The first letter among `argv`'s leading options that is not in `allowed`
/// (as bash's internal getopt reads them: options end at `--`, `-` or the
/// first operand). For builtins whose options take no argument.
pub fn unknown_option(argv: &[String], allowed: &str) -> Option<char> {
    for a in argv.iter().skip(1) {
        if a == "--" || a == "-" || !a.starts_with('-') {
            return None;
        }
        if let Some(c) = a[1..].chars().find(|c| !allowed.contains(*c)) {
            return Some(c);
        }
    }
    None
}

/// Print `msg` and the builtin's usage line on stderr; status 2.
pub async fn usage_error(sh: &ShellState, fds: &Fds, msg: &str, usage: &str) -> i32 {
    fds.shell_err(sh.loc(), msg).await;
    let _ = fds.stderr.write_str(&format!("{usage}\n")).await;
    2
}

/// Is `s` a valid variable name?
pub fn valid_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch == '_' || ch.is_ascii_alphabetic())
        && c.all(|ch| ch == '_' || ch.is_ascii_alphanumeric())
}
