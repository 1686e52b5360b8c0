//! `python` / `python3` (when the session enables them): Python programs run by
//! pydantic's Monty, a sandboxed interpreter of a Python subset with its own
//! bytecode VM — no CPython, no host access. `-c CODE`, `FILE` (from the
//! sandbox filesystem) or the program on stdin; `sys.argv`, `os.environ` from
//! the exported variables, `open()`/`pathlib` on the session's filesystem
//! (relative to the shell's cwd), `print`/`sys.stdout`/`sys.stderr`/`input()`/
//! `sys.stdin` on the command's pipes. See `python_vm` for the VM thread and
//! `python_os` for the file operations.
//!
//! Measured against CPython 3.11 (see `python_tests` and the Elixir
//! `Session` docs): Monty 0.0.23 lacks class inheritance, property/static/
//! class methods, generators, `match`, `del`, `%` formatting, `eval`/`exec`,
//! `print(file=)`, line iteration of files, `EOFError`, and many modules
//! (random, time, string, io, csv, hashlib, argparse, subprocess, socket...).
//! Memory: without Monty's counting allocator only single large allocations
//! are refused up front; step-by-step growth is bounded by the time limit.

#[cfg(feature = "cpython")]
pub mod cpython;
pub(crate) mod os;
#[cfg(test)]
mod tests;
pub(crate) mod vm;

use crate::commands::util::{UError, UResult, Utility};
use crate::commands::CommandContext;
use crate::io::IoError;
use async_trait::async_trait;
use monty_types::ExcType;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use vm::{Job, Outcome, Req};

pub struct Python;

/// A loaded CPython runtime (see `cpython`); uninhabited in builds without
/// the `cpython` feature, where only Monty runs.
#[cfg(feature = "cpython")]
pub use cpython::Runtime;
#[cfg(not(feature = "cpython"))]
#[derive(Debug)]
pub enum Runtime {}

/// Load the CPython runtime at `path` (see `cpython::runtime::load`).
pub fn load_runtime(path: &str) -> Result<Arc<Runtime>, String> {
    #[cfg(feature = "cpython")]
    return cpython::runtime::load(path);
    #[cfg(not(feature = "cpython"))]
    return Err(format!("python runtime {path}: this build has no CPython (sandbash's `cpython` feature, which the Elixir NIF leaves out when built with EX_BASHKIT_CPYTHON=0)"));
}

/// The interpreter for `python`: CPython when the session has a runtime, else Monty.
pub fn command(runtime: Option<&Arc<Runtime>>) -> Arc<dyn crate::commands::Command> {
    match runtime {
        #[cfg(feature = "cpython")]
        Some(rt) => Arc::new(cpython::CPython(rt.clone())),
        #[cfg(not(feature = "cpython"))]
        Some(rt) => match **rt {},
        None => Arc::new(Python),
    }
}

/// Native stack of the VM thread: Monty's parser and compiler recurse (bounded
/// by its nesting limit), so do `repr`/`==` of nested values (bounded by the
/// recursion limit); this leaves a wide margin under both.
const VM_STACK: usize = 64 * 1024 * 1024;

/// Which version `-V` reports: the language level Monty implements.
const VERSION: &str = "Python 3.14.0";

const USAGE: &str = "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n";

/// Sets the stop flag when the command's future ends or is dropped (a
/// stopped exec drops it), so a still-running VM thread interrupts itself.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

enum Program {
    Code(String),
    File(String),
    Stdin,
}

#[async_trait]
impl Utility for Python {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = ctx.args;
        let mut i = 0;
        let mut program = None;
        while i < args.len() {
            let a = args[i].as_str();
            if a == "-" || !a.starts_with('-') {
                break;
            }
            i += 1;
            match a {
                "-V" | "--version" => {
                    ctx.out(format!("{VERSION}\n").as_bytes()).await?;
                    return Ok(0);
                }
                "-h" | "--help" | "-?" => {
                    let help = format!(
                        "{USAGE}Runs a Python program on Monty (a sandboxed subset of Python 3).\n\
                         -c cmd : program passed in as string\n\
                         file   : program read from a file of the sandbox\n\
                         -      : program read from stdin (default)\n"
                    );
                    ctx.out(help.as_bytes()).await?;
                    return Ok(0);
                }
                "--" => break,
                "-m" => {
                    let m = args.get(i).cloned().unwrap_or_default();
                    return Err(UError::new(1, format!("No module named {m}")));
                }
                _ if a.starts_with("-c") => {
                    let code = if a.len() > 2 {
                        a[2..].to_string()
                    } else if let Some(c) = args.get(i) {
                        i += 1;
                        c.clone()
                    } else {
                        let msg = format!(
                            "Argument expected for the -c option\n{USAGE}Try `python -h' for more information.\n"
                        );
                        ctx.stderr.write(msg.as_bytes()).await?;
                        return Ok(2);
                    };
                    program = Some(Program::Code(code));
                    break;
                }
                // Flags that change nothing here (unbuffered, no bytecode files, isolation...).
                _ if a[1..].chars().all(|c| "uBEsSIOqd".contains(c)) => {}
                _ => {
                    let msg = format!("Unknown option: {a}\n{USAGE}Try `python -h' for more information.\n");
                    ctx.stderr.write(msg.as_bytes()).await?;
                    return Ok(2);
                }
            }
        }
        let (program, mut argv) = match program {
            Some(p) => (p, vec!["-c".to_string()]),
            None => match args.get(i) {
                Some(f) if f == "-" => {
                    i += 1;
                    (Program::Stdin, vec!["-".to_string()])
                }
                Some(f) => {
                    i += 1;
                    (Program::File(f.clone()), vec![f.clone()])
                }
                None => (Program::Stdin, vec![String::new()]),
            },
        };
        argv.extend(args[i..].iter().cloned());
        let (code, script) = match program {
            Program::Code(c) => (c, "<string>".to_string()),
            Program::File(f) => {
                let path = ctx.resolve(&f);
                match ctx.fs.metadata(&path).await {
                    Ok(m) if m.is_dir() => {
                        return Err(UError::new(1, format!("can't find '__main__' module in '{path}'")));
                    }
                    _ => {}
                }
                match ctx.fs.read(&path).await {
                    Ok(data) => (String::from_utf8_lossy(&data).into_owned(), f),
                    Err(e) => {
                        let errno = python_os_errno(&e);
                        return Err(UError::new(2, format!("can't open file '{path}': [Errno {errno}] {e}")));
                    }
                }
            }
            Program::Stdin => {
                let max = usize::try_from(ctx.budget.limits.max_input_bytes).unwrap_or(usize::MAX);
                match ctx.stdin.read_to_end(max).await {
                    Ok(data) => (String::from_utf8_lossy(&data).into_owned(), "<stdin>".to_string()),
                    Err(_) => {
                        return Err(UError::new(
                            1,
                            format!("program on standard input too large (max_input_bytes: {max})"),
                        ));
                    }
                }
            }
        };
        Ok(run_program(ctx, code, script, argv).await?)
    }
}

fn python_os_errno(e: &crate::fs::FsError) -> i32 {
    os::errno(e)
}

/// Run the program on a VM thread and serve its requests until it ends.
async fn run_program(ctx: &mut CommandContext<'_>, code: String, script: String, argv: Vec<String>) -> UResult<i32> {
    let code = vm::rewrite_sys_imports(&code);
    let limits = &ctx.budget.limits;
    let job = Job {
        code,
        script,
        argv,
        max_duration: ctx.budget.remaining(),
        max_memory: usize::try_from(limits.max_string_bytes.saturating_mul(16)).unwrap_or(usize::MAX),
        budget: crate::limits::scope::current(),
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Req>(16);
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<Outcome>();
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let thread_stop = stop.clone();
    let spawned = std::thread::Builder::new().name("sandbash-python".into()).stack_size(VM_STACK).spawn(move || {
        let outcome = vm::run(job, tx, thread_stop);
        let _ = done_tx.send(outcome);
    });
    if spawned.is_err() {
        return Err(UError::new(1, "cannot start the interpreter thread"));
    }
    let env = ctx.env.exported();
    let mut io_err: Option<IoError> = None;
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    let outcome = loop {
        tokio::select! {
            req = rx.recv() => match req {
                Some(Req::Out(to_err, data)) => {
                    let w = if to_err { ctx.stderr.write(&data).await } else { ctx.stdout.write(&data).await };
                    if let Err(e) = w {
                        // A closed pipe or the output limit: the program is interrupted.
                        stop.store(true, Ordering::Relaxed);
                        io_err.get_or_insert(e);
                        rx.close();
                    }
                }
                Some(Req::Os(call, reply)) => {
                    let r = os::serve(ctx, &env, call).await;
                    let _ = reply.send(r);
                }
                Some(Req::Stdin(how, reply)) => {
                    let max = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
                    let data = match how {
                        None => match ctx.stdin.read_to_end(max).await {
                            Ok(d) => Some(d),
                            Err(_) => {
                                ctx.budget.input_exceeded();
                                None
                            }
                        },
                        Some(delim) => ctx.stdin.read_until(delim, max).await,
                    };
                    let _ = reply.send(data);
                }
                // The thread dropped its sender: it has finished.
                None => break done_rx.await.unwrap_or(Outcome::Gone),
            },
            _ = tick.tick() => {
                // `still_running` records the reason, so the exec ends with
                // it even once the program's memory is freed.
                if !ctx.still_running() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    match io_err {
        // CPython ignores SIGPIPE and dies of the BrokenPipeError instead.
        Some(IoError::BrokenPipe) => {
            ctx.stderr.write(b"BrokenPipeError: [Errno 32] Broken pipe\n").await?;
            return Ok(1);
        }
        Some(e) => return Err(e.into()),
        None => {}
    }
    match outcome {
        Outcome::Ok => Ok(0),
        Outcome::Gone => Ok(130),
        Outcome::Panic(m) => {
            ctx.err(format!("internal error in the interpreter: {m}")).await?;
            Ok(1)
        }
        Outcome::Exc(e, code) => {
            if e.exc_type() == ExcType::SystemExit {
                if let Some(c) = code {
                    return Ok(c);
                }
                return match e.message() {
                    None | Some("None") => Ok(0),
                    Some(m) => match m.parse::<i64>() {
                        Ok(n) => Ok((n & 0xff) as i32),
                        Err(_) => {
                            ctx.stderr.write(format!("{m}\n").as_bytes()).await?;
                            Ok(1)
                        }
                    },
                };
            }
            if e.exc_type() == ExcType::KeyboardInterrupt && stop.load(Ordering::Relaxed) {
                return Ok(130);
            }
            ctx.stderr.write(traceback_text(&e).as_bytes()).await?;
            Ok(1)
        }
    }
}

/// The traceback as CPython prints it, as far as Monty's report allows: a
/// SyntaxError has no "Traceback" header and points with `^`.
fn traceback_text(e: &monty_types::MontyException) -> String {
    let text = format!("{e}\n");
    if e.exc_type() != ExcType::SyntaxError {
        return text;
    }
    let text = text.strip_prefix("Traceback (most recent call last):\n").unwrap_or(&text);
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            if !t.is_empty() && t.chars().all(|c| c == '~') {
                format!("{}{}\n", &l[..l.len() - t.len()], "^".repeat(t.len()))
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}
