//! `python` / `python3` as real CPython 3.12: the WASI build of CPython run by
//! wasmtime, with every system call it makes answered by our own WASI host
//! (`host`, `imports`) from the session: its filesystem (mounts and
//! virtual-fs backends included, relative to the shell's cwd), the command's
//! stdin, stdout and stderr, the exported variables. Nothing of the machine
//! is reachable and sockets fail. Options, `-c`, `-m MODULE`, a file or the
//! program on stdin are CPython's own.
//!
//! Bounds: the guest's linear memory is allocated through the counting
//! allocator and refused past the session's budget (CPython then raises
//! `MemoryError`); a node-wide ticker moves the engine's epoch every 10 ms
//! and a running program stops at the next one once the exec must end
//! (deadline, cancel, output limit, the command dropped); wasm's call depth
//! is capped, and CPython's recursion limit raises `RecursionError` first.
//!
//! Known differences from CPython on Linux: inside the program errno values
//! are WASI's (`errno.ENOENT` is 44; uncaught tracebacks show Linux's
//! numbers); `os.stat` has no permission bits; no `subprocess`, threads or
//! sockets; `-E`, `-I` and `-S` skip the start-up hook, so the program then
//! starts in `/`.

mod abi;
mod host;
mod imports;
mod memory;
pub mod runtime;
mod session_os;
mod stack;
#[cfg(test)]
mod tests;

use crate::commands::util::{UError, UResult, Utility};
use crate::commands::CommandContext;
use async_trait::async_trait;
use host::{Host, Stop};
pub use runtime::Runtime;
use session_os::{Req, Server, SessionOs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasmtime::{Store, UpdateDeadline};

/// The interpreter under the session's names.
pub struct CPython(pub Arc<Runtime>);

/// Native stack of the guest's thread: compiled wasm runs on it, at most
/// [`runtime::MAX_WASM_STACK`] deep, plus our host calls. Only the pages
/// touched are ever committed.
const GUEST_STACK: usize = runtime::MAX_WASM_STACK + (8 << 20);
/// Where the start-up hook lives (a directory only the guest sees).
pub(super) const HOOK_DIR: &str = "/.sandbash/python";

/// `sitecustomize`, which CPython imports at start-up: it moves to the
/// shell's cwd (WASI programs start in `/`), gives back the variables the
/// hook used, and shows Linux's errno numbers in uncaught tracebacks.
const SITE: &str = r#"import os as _os, sys as _sys
_os.chdir(_os.environ.pop('SANDBASH_CWD', '/'))
_p = _os.environ.pop('SANDBASH_PYTHONPATH', None)
if _p is None:
    _os.environ.pop('PYTHONPATH', None)
else:
    _os.environ['PYTHONPATH'] = _p
_os.environ.pop('PYTHONPYCACHEPREFIX', None)
_sys.executable = _os.environ.pop('SANDBASH_EXECUTABLE', _sys.executable)
_a = _os.environ.pop('SANDBASH_ARGV0', None)
if _a is not None and _sys.argv:
    _sys.argv[0] = _a
try:
    _sys.path.remove('/.sandbash/python')
except ValueError:
    pass
_LINUX = {1: 7, 2: 13, 3: 98, 4: 99, 5: 97, 6: 11, 7: 114, 8: 9, 9: 74, 10: 16, 11: 125, 12: 10, 13: 103,
          14: 111, 15: 104, 16: 35, 17: 89, 18: 33, 19: 122, 20: 17, 21: 14, 22: 27, 23: 113, 24: 43,
          25: 84, 26: 115, 27: 4, 28: 22, 29: 5, 30: 106, 31: 21, 32: 40, 33: 24, 34: 31, 35: 90, 36: 72,
          37: 36, 38: 100, 39: 102, 40: 101, 41: 23, 42: 105, 43: 19, 44: 2, 45: 8, 46: 37, 47: 67, 48: 12,
          49: 42, 50: 92, 51: 28, 52: 38, 53: 107, 54: 20, 55: 39, 56: 131, 57: 88, 58: 95, 59: 25, 60: 6,
          61: 75, 62: 130, 63: 1, 64: 32, 65: 71, 66: 93, 67: 91, 68: 34, 69: 30, 70: 29, 71: 3, 72: 116,
          73: 110, 74: 26, 75: 18}
def _hook(t, v, tb, _show=_sys.excepthook):
    if not isinstance(v, OSError) or not isinstance(v.errno, int):
        return _show(t, v, tb)
    import traceback
    text = ''.join(traceback.format_exception(t, v, tb))
    old = '[Errno %d]' % v.errno
    _sys.stderr.write(text.replace(old, '[Errno %d]' % _LINUX.get(v.errno, v.errno)))
_sys.excepthook = _hook
def _unraisable(u, _show=_sys.unraisablehook):
    v = u.exc_value
    if not isinstance(v, OSError) or not isinstance(v.errno, int):
        return _show(u)
    import io
    err, _sys.stderr = _sys.stderr, io.StringIO()
    try:
        _show(u)
        text = _sys.stderr.getvalue()
    finally:
        _sys.stderr = err
    _sys.stderr.write(text.replace('[Errno %d]' % v.errno, '[Errno %d]' % _LINUX.get(v.errno, v.errno)))
_sys.unraisablehook = _unraisable
del _p, _a
"#;

/// Sets the stop flag when the command's future ends or is dropped (a
/// stopped exec drops it), so the program stops at the next tick.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// How the guest ended.
enum Outcome {
    Exit(i32),
    /// Its output could not be written (see the server's `io_err`).
    Output,
    Stopped,
    /// It could not start (no memory for it, say).
    Start(String),
    /// A trap: a wasm stack overflow, or a fault in the interpreter.
    Trap {
        overflow: bool,
        what: String,
    },
}

#[async_trait]
impl Utility for CPython {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut argv = vec![ctx.name.to_string()];
        argv.extend(ctx.args.iter().cloned());
        let mut env = ctx.env.exported();
        // CPython makes a script's path absolute before the hook moves it to
        // the shell's cwd: it gets the absolute path, and the hook gives
        // `sys.argv[0]` back as it was written.
        if let Some(i) = script_index(ctx.args) {
            let given = ctx.args[i].clone();
            let path = ctx.resolve(&given);
            if let Err(e) = ctx.fs.metadata(&path).await {
                let errno = crate::commands::python::os::errno(&e);
                let msg = format!("{}: can't open file '{path}': [Errno {errno}] {e}\n", ctx.name);
                ctx.stderr.write(msg.as_bytes()).await?;
                return Ok(2);
            }
            argv[i + 1] = path;
            env.push(("SANDBASH_ARGV0".into(), given));
        }
        let user_path = env.iter().position(|(k, _)| k == "PYTHONPATH").map(|i| env.remove(i).1);
        env.retain(|(k, _)| !k.starts_with("SANDBASH_") && k != "PYTHONPYCACHEPREFIX");
        env.push(("PYTHONPATH".into(), user_path.as_ref().map_or(HOOK_DIR.to_string(), |p| format!("{HOOK_DIR}:{p}"))));
        if let Some(p) = user_path {
            env.push(("SANDBASH_PYTHONPATH".into(), p));
        }
        env.push(("SANDBASH_CWD".into(), ctx.cwd.to_string()));
        let base = ctx.name.rsplit('/').next().unwrap_or("python3");
        env.push(("SANDBASH_EXECUTABLE".into(), format!("/usr/bin/{base}")));
        env.push(("PYTHONPYCACHEPREFIX".into(), host::PYCACHE.into()));
        let synthetic = vec![(format!("{HOOK_DIR}/sitecustomize.py"), SITE.as_bytes().to_vec())];

        let stop = Arc::new(AtomicBool::new(false));
        let _guard = StopOnDrop(stop.clone());
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Req>(1);
        let os = SessionOs {
            tx,
            stop: stop.clone(),
            runtime: self.0.clone(),
            max_file_bytes: ctx.budget.limits.max_string_bytes,
        };
        let host = Host::new(os, argv, env, synthetic);
        let rt = self.0.clone();
        let budget = crate::limits::scope::current();
        let ticking = runtime::Ticking::start().map_err(|e| UError::new(1, e))?;
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<Outcome>();
        let spawned =
            std::thread::Builder::new().name("sandbash-cpython".into()).stack_size(GUEST_STACK).spawn(move || {
                let _scope = budget.as_ref().map(crate::limits::scope::enter);
                let _ticking = ticking;
                let _ = done_tx.send(run_guest(&rt, host));
            });
        if spawned.is_err() {
            return Err(UError::new(1, "cannot start the interpreter thread"));
        }
        let mut server = Server { io_err: None };
        let mut tick = tokio::time::interval(runtime::TICK);
        let outcome = loop {
            tokio::select! {
                req = rx.recv() => match req {
                    Some((call, reply)) => {
                        let answer = server.serve(ctx, call).await;
                        let _ = reply.send(answer);
                    }
                    // The guest dropped its end: it has finished.
                    None => break done_rx.await.unwrap_or(Outcome::Stopped),
                },
                _ = tick.tick() => {
                    if !ctx.still_running() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        if let Some(e) = server.io_err {
            return Err(e.into());
        }
        match outcome {
            Outcome::Exit(c) => Ok(c & 0xff),
            Outcome::Output | Outcome::Stopped => Ok(130),
            Outcome::Start(e) => Err(UError::new(1, format!("cannot start the interpreter: {e}"))),
            Outcome::Trap { overflow: true, .. } => {
                ctx.stderr.write(b"Fatal Python error: Segmentation fault (stack overflow)\n").await?;
                Ok(139)
            }
            Outcome::Trap { what, .. } => {
                ctx.stderr.write(format!("Fatal Python error: Aborted ({what})\n").as_bytes()).await?;
                Ok(134)
            }
        }
    }
}

/// Where the script's path is among CPython's arguments, if a script runs
/// (not `-c`, `-m` or stdin): the first operand after the options.
fn script_index(args: &[String]) -> Option<usize> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--" {
            return args.get(i + 1).filter(|f| *f != "-").map(|_| i + 1);
        }
        if a == "-" {
            return None;
        }
        if !a.starts_with('-') {
            return Some(i);
        }
        if let Some(long) = a.strip_prefix("--") {
            // The one long option with a separate argument.
            i += if long == "check-hash-based-pycs" { 2 } else { 1 };
            continue;
        }
        for (j, c) in a[1..].char_indices() {
            match c {
                'c' | 'm' => return None,
                // The rest of the word, or the next one, is the option's argument.
                'W' | 'X' => {
                    if j + 1 == a.len() - 1 {
                        i += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// Instantiate CPython and run its `_start` to the end.
fn run_guest(rt: &Runtime, host: Host<SessionOs>) -> Outcome {
    let stop = host.os.stop.clone();
    let mut store = Store::new(rt.engine(), host);
    store.limiter(|h| h);
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(|cx| {
        if cx.data().os.stop.load(Ordering::Relaxed) {
            return Err(wasmtime::Error::new(Stop::Stopped));
        }
        Ok(UpdateDeadline::Continue(1))
    });
    let instance = match rt.pre.instantiate(&mut store) {
        Ok(i) => i,
        Err(e) => return Outcome::Start(start_error(&e)),
    };
    let Some(memory) = instance.get_memory(&mut store, "memory") else {
        return Outcome::Start("the module exports no memory".into());
    };
    store.data_mut().set_memory(memory);
    let start = match instance.get_typed_func::<(), ()>(&mut store, "_start") {
        Ok(f) => f,
        Err(e) => return Outcome::Start(e.to_string()),
    };
    let ended = start.call(&mut store, ());
    let _ = store.data_mut().flush_all();
    match ended {
        Ok(()) => Outcome::Exit(0),
        Err(e) => match e.downcast_ref::<Stop>() {
            Some(Stop::Exit(c)) => Outcome::Exit(*c),
            Some(Stop::Output(_)) => Outcome::Output,
            Some(Stop::Stopped) => Outcome::Stopped,
            None if stop.load(Ordering::Relaxed) => Outcome::Stopped,
            None => {
                let overflow = e.downcast_ref::<wasmtime::Trap>() == Some(&wasmtime::Trap::StackOverflow);
                let what = e.downcast_ref::<wasmtime::Trap>().map_or_else(|| format!("{e:#}"), |t| t.to_string());
                Outcome::Trap { overflow, what }
            }
        },
    }
}

/// Why instantiation failed, in the session's words when it was the budget.
fn start_error(e: &wasmtime::Error) -> String {
    let text = format!("{e:#}");
    if text.contains("limit") || text.contains("memory") {
        let limit = crate::limits::scope::with_budget(|b| b.memory_exceeded().to_string());
        return limit.unwrap_or(text);
    }
    text
}
