//! Running another program from inside a utility (env, xargs, find -exec,
//! timeout): registered utilities, the application's commands, `bash`/`sh` and
//! script files of the sandbox, as the session's command table finds them.
//! Shell builtins and functions are not programs, as with the real tools.
//! `/usr/bin/sort` runs `sort`.

use super::{default_registry, Command, CommandContext, EnvView};
use crate::io::{Input, IoError, Output};
use crate::table::{Program, Resolved};
use std::sync::Arc;

/// What to run and with which streams; built from the caller's context with
/// [`Exec::from_ctx`] and adjusted field by field.
pub struct Exec<'a> {
    pub argv: &'a [String],
    pub stdin: Input,
    pub stdout: Output,
    pub stderr: Output,
    pub env: &'a dyn EnvView,
    pub cwd: &'a str,
}

impl<'a> Exec<'a> {
    /// `argv` with the caller's streams, environment and directory.
    pub fn from_ctx(ctx: &'a CommandContext<'_>, argv: &'a [String]) -> Exec<'a> {
        Exec {
            argv,
            stdin: ctx.stdin.clone(),
            stdout: ctx.stdout.clone(),
            stderr: ctx.stderr.clone(),
            env: ctx.env,
            cwd: ctx.cwd,
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    Status(i32),
    /// No utility of that name (the caller words the message: env, xargs, find
    /// and timeout each say it differently); conventionally status 127.
    NotFound,
}

/// The utility `name` names (its last path component), if registered.
pub fn lookup(name: &str) -> Option<Arc<dyn Command>> {
    let base = name.rsplit('/').next().unwrap_or(name);
    default_registry().get(base).cloned()
}

/// Run `e.argv` as a program, found as the session's command table finds
/// programs (`crate::table::CommandTable::resolve_program`: the application's
/// commands, utilities, scripts on PATH, restricted names not at all). Each
/// run counts as a command against the exec's budget; past it, the run is
/// refused with status 126 (the exec then stops).
pub async fn run(ctx: &CommandContext<'_>, e: Exec<'_>) -> Result<Ran, IoError> {
    let Some((name, args)) = e.argv.split_first() else {
        return Ok(Ran::Status(0));
    };
    let table = ctx.shell.map_or(crate::table::CommandTable::default_ref(), |s| &*s.commands);
    let found = table.resolve_program(ctx.shell, ctx.sys, name).await;
    let cmd = match found {
        Resolved::Utility(Program::Command(c), _) => Some(c),
        Resolved::AppBuiltin => None,
        Resolved::Utility(Program::Shell(_), _) => match ctx.shell {
            Some(shell) => return run_shell(ctx, shell, e, false).await,
            None => return Ok(Ran::NotFound),
        },
        // A script of the sandbox runs in a child shell; a missing file is not found.
        Resolved::File(p) => match ctx.shell {
            Some(shell) if ctx.fs.metadata(&ctx.resolve(&p)).await.is_ok_and(|m| m.is_file()) => {
                let argv: Vec<String> = std::iter::once(p).chain(args.iter().cloned()).collect();
                return run_shell(ctx, shell, Exec { argv: &argv, ..e }, true).await;
            }
            _ => return Ok(Ran::NotFound),
        },
        _ => return Ok(Ran::NotFound),
    };
    if ctx.budget.tick_command().is_err() {
        return Ok(Ran::Status(126));
    }
    let base = name.rsplit('/').next().unwrap_or(name);
    let mut sub = CommandContext {
        name: base,
        args,
        stdin: e.stdin,
        stdout: e.stdout,
        stderr: e.stderr,
        cwd: e.cwd,
        env: e.env,
        fs: ctx.fs,
        sys: ctx.sys,
        budget: ctx.budget,
        line: ctx.line,
        shell: ctx.shell,
    };
    // `Command::run` returns a boxed future, so utilities running utilities
    // (env xargs find ...) need no further boxing.
    match (cmd, table.app_builtins()) {
        (Some(c), _) => Ok(Ran::Status(c.run(&mut sub).await?)),
        (None, Some(h)) => Ok(Ran::Status(h.run(&mut sub).await?)),
        (None, None) => Ok(Ran::NotFound),
    }
}

/// `bash`/`sh` as a program: a child of the calling shell that sees the
/// environment, directory and streams this run was given.
/// With `script`, `e.argv[0]` is a script file of the sandbox that the child runs.
async fn run_shell(
    ctx: &CommandContext<'_>,
    shell: &crate::state::ShellState,
    e: Exec<'_>,
    script: bool,
) -> Result<Ran, IoError> {
    if ctx.budget.tick_command().is_err() {
        return Ok(Ran::Status(126));
    }
    let mut child = shell.clone();
    child.cwd = e.cwd.to_string();
    // Exactly the environment given (env -i, NAME=v), as a new process would get.
    for name in child.vars.names() {
        if child.vars.get(&name).is_some_and(|v| v.exported) {
            child.vars.entry(&name).exported = false;
        }
    }
    for (k, v) in e.env.exported() {
        let var = child.vars.entry(&k);
        var.value = Some(crate::state::Value::Scalar(v));
        var.exported = true;
    }
    let fds = crate::interp::Fds::new(e.stdin, e.stdout, e.stderr);
    let ran = if script {
        crate::builtins::run_script_file(&mut child, e.argv, &fds).await
    } else {
        crate::builtins::run_shell_program(&mut child, e.argv, &fds).await
    };
    let status = match ran {
        Ok(s) => s,
        Err(crate::interp::Flow::Exit(s)) => s,
        // A limit or a stop: the shared budget makes the caller's next check end the exec.
        Err(_) => 1,
    };
    Ok(Ran::Status(status))
}
