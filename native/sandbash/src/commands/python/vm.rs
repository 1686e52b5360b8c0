//! The Monty side of `python`: runs the program on its own thread and turns
//! every pause of the VM (file and stream operations, `input()`, `sys.exit`)
//! into a request the async side ([`super`]) answers.
//!
//! Monty is synchronous and the sandbox's filesystem and pipes are async, so
//! the VM runs on a dedicated thread (with a large stack: the parser, the
//! compiler and `repr` of nested values recurse natively) and blocks on a reply
//! channel at each pause; Monty's `start`/`resume` API suspends at every OS call,
//! so no operation is prefetched or deferred.

use monty::{MontyRun, RunProgress};
use monty_types::{
    CompileOptions, DictPairs, ExcType, ExtFunctionResult, MontyClassInstance, MontyClassType, MontyException,
    MontyObject, MontyUuid, NameLookupResult, OsFunctionCall, PrintWriter, PrintWriterCallback, ResourceLimits,
    ResourceTracker,
};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc as smpsc, Arc};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The name the rewritten `import sys` statements bind from (see [`rewrite_sys_imports`]).
pub const SYS_NAME: &str = "__sandbash_sys__";

const SYS_ID: MontyUuid = MontyUuid::from_u128(1);
const STDIN_ID: MontyUuid = MontyUuid::from_u128(2);
const STDOUT_ID: MontyUuid = MontyUuid::from_u128(3);
const STDERR_ID: MontyUuid = MontyUuid::from_u128(4);

/// Output is sent on when this much is buffered (and at every pause).
const FLUSH_BYTES: usize = 8192;
/// A program computing in silence still gets its output out this often.
const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// What the VM thread asks of the async side.
pub enum Req {
    /// Bytes for stdout (`false`) or stderr (`true`); no reply.
    Out(bool, Vec<u8>),
    /// A filesystem / environment operation.
    Os(OsFunctionCall, smpsc::SyncSender<ExtFunctionResult>),
    /// Read from stdin: `None` = all of it, `Some(b'\n')` = one line.
    Stdin(Option<u8>, smpsc::SyncSender<Option<Vec<u8>>>),
}

/// How the program ended.
pub enum Outcome {
    Ok,
    /// An uncaught exception (SyntaxError included) and, for `sys.exit(n)`, the status asked for.
    Exc(MontyException, Option<i32>),
    /// The async side went away (stopped exec, broken pipe).
    Gone,
    /// Monty panicked (a bug of the interpreter); caught at the thread boundary.
    Panic(String),
}

/// Everything the VM thread needs, owned.
pub struct Job {
    pub code: String,
    pub script: String,
    pub argv: Vec<String>,
    pub max_duration: Option<Duration>,
    pub max_memory: usize,
    /// The exec's budget: the VM thread charges its allocations to it and the
    /// program stops when the session is over its memory budget.
    pub budget: Option<Arc<crate::limits::Budget>>,
}

/// Buffers `print()` output and sends it on; `poll_flush` is also where a
/// stopped exec (timeout, cancel, closed pipe) interrupts a busy program.
struct Writer {
    tx: mpsc::Sender<Req>,
    stop: Arc<AtomicBool>,
    buf: Vec<u8>,
    last: Instant,
}

impl Writer {
    fn flush(&mut self) -> Result<(), MontyException> {
        self.last = Instant::now();
        if self.buf.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.buf);
        self.tx.blocking_send(Req::Out(false, data)).map_err(|_| interrupted())
    }
    fn stopped(&self) -> Result<(), MontyException> {
        if self.stop.load(Ordering::Relaxed) {
            Err(interrupted())
        } else {
            Ok(())
        }
    }
}

/// Raised into the program when the exec stops: a BaseException, so
/// `except Exception` does not swallow it.
fn interrupted() -> MontyException {
    MontyException::new(ExcType::KeyboardInterrupt, None)
}

impl PrintWriterCallback for Writer {
    fn stdout_write(&mut self, output: Cow<'_, str>) -> Result<(), MontyException> {
        self.buf.extend_from_slice(output.as_bytes());
        if self.buf.len() >= FLUSH_BYTES {
            self.flush()?;
        }
        Ok(())
    }
    fn stdout_push(&mut self, end: char) -> Result<(), MontyException> {
        let mut b = [0u8; 4];
        self.stdout_write(Cow::Borrowed(end.encode_utf8(&mut b)))
    }
    fn poll_flush(&mut self) -> Result<(), MontyException> {
        self.stopped()?;
        // Every 255 instructions: the exec's deadline, cancel and memory. A
        // stop is recorded for the exec (it ends with that reason) and
        // interrupts the program.
        if let Err(stop) = crate::limits::scope::check_now() {
            crate::limits::scope::with_budget(|b| b.stop_from_job(stop));
            return Err(interrupted());
        }
        if !self.buf.is_empty() && self.last.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }
}

fn host_class(name: &str, id: MontyUuid, attrs: Vec<(MontyObject, MontyObject)>) -> MontyObject {
    MontyObject::ClassInstance(Box::new(MontyClassInstance {
        class_type: MontyClassType {
            name: name.to_string(),
            id: MontyUuid::from_u128(u128::from_be_bytes(*id.as_bytes()) + 100),
            host_defined: true,
            is_dataclass: false,
            attrs: DictPairs::from(Vec::new()),
        },
        instance_id: id,
        attrs: DictPairs::from(attrs),
    }))
}

/// The `sys` the program sees: argv, the streams wired to the command's pipes, `exit`.
fn sys_object(argv: &[String]) -> MontyObject {
    let s = |v: &str| MontyObject::String(v.to_string());
    let argv = MontyObject::List(argv.iter().map(|a| s(a)).collect());
    host_class(
        "module",
        SYS_ID,
        vec![
            (s("argv"), argv),
            (s("platform"), s("linux")),
            (s("version"), s("3.14.0 (Monty)")),
            (s("maxsize"), MontyObject::Int(i64::MAX)),
            (s("byteorder"), s("little")),
            (s("executable"), s("/usr/bin/python3")),
            (s("stdin"), host_class("TextIOWrapper", STDIN_ID, vec![(s("name"), s("<stdin>"))])),
            (s("stdout"), host_class("TextIOWrapper", STDOUT_ID, vec![(s("name"), s("<stdout>"))])),
            (s("stderr"), host_class("TextIOWrapper", STDERR_ID, vec![(s("name"), s("<stderr>"))])),
        ],
    )
}

/// `import sys` binds Monty's own `sys`, which has no argv, exit or usable
/// streams; plain `import sys [as x]` and `from sys import a[, b as c]` lines
/// are rewritten (on the same line, so tracebacks keep their line numbers)
/// to bind the host-answered object instead. The rewrite is by line, not by
/// syntax tree: a line of a multi-line string reading exactly like such an
/// import would be rewritten too.
pub fn rewrite_sys_imports(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let indent_len = body.len() - body.trim_start().len();
        let (indent, rest) = body.split_at(indent_len);
        // The first statement of the line (`import sys; print(sys.argv)`).
        let (stmt, tail) = match rest.find(';') {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        match rewrite_import(stmt.trim_end()) {
            Some(r) => {
                out.push_str(indent);
                out.push_str(&r);
                out.push_str(tail);
                out.push_str(nl);
            }
            None => out.push_str(line),
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f == '_' || f.is_alphabetic()) && c.all(|ch| ch == '_' || ch.is_alphanumeric())
}

fn rewrite_import(stmt: &str) -> Option<String> {
    if let Some(names) = stmt.strip_prefix("import ") {
        let mut parts = Vec::new();
        let mut any = false;
        for item in names.split(',') {
            let words: Vec<&str> = item.split_whitespace().collect();
            let (module, bind) = match words.as_slice() {
                [m] => (*m, *m),
                [m, "as", b] => (*m, *b),
                _ => return None,
            };
            if !module.split('.').all(is_ident) || !is_ident(bind) {
                return None;
            }
            if module == "sys" {
                any = true;
                parts.push(format!("{bind} = {SYS_NAME}"));
            } else if module == bind {
                parts.push(format!("import {module}"));
            } else {
                parts.push(format!("import {module} as {bind}"));
            }
        }
        return any.then(|| parts.join("; "));
    }
    let names = stmt.strip_prefix("from sys import ")?;
    let names = names.trim().trim_start_matches('(').trim_end_matches(')');
    let mut parts = Vec::new();
    for item in names.split(',') {
        let words: Vec<&str> = item.split_whitespace().collect();
        let (name, bind) = match words.as_slice() {
            [n] => (*n, *n),
            [n, "as", b] => (*n, *b),
            _ => return None,
        };
        if !is_ident(name) || !is_ident(bind) {
            return None;
        }
        parts.push(format!("{bind} = {SYS_NAME}.{name}"));
    }
    Some(parts.join("; "))
}

/// Run the job to its end on the current thread (the caller gives it a big stack).
pub fn run(job: Job, tx: mpsc::Sender<Req>, stop: Arc<AtomicBool>) -> Outcome {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_inner(job, tx, stop)));
    match r {
        Ok(o) => o,
        Err(p) => Outcome::Panic(
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into()),
        ),
    }
}

fn run_inner(job: Job, tx: mpsc::Sender<Req>, stop: Arc<AtomicBool>) -> Outcome {
    let _scope = job.budget.as_ref().map(crate::limits::scope::enter);
    let runner = match MontyRun::new(job.code, &job.script, Vec::new(), CompileOptions::default()) {
        Ok(r) => r,
        Err(e) => return Outcome::Exc(e, None),
    };
    let limits = ResourceLimits {
        max_duration: job.max_duration,
        // Without Monty's allocator this bounds single large results
        // (`'a' * 10**10`), checked before they are allocated.
        max_memory: Some(job.max_memory),
        ..ResourceLimits::default()
    };
    let mut w = Writer { tx: tx.clone(), stop: stop.clone(), buf: Vec::new(), last: Instant::now() };
    let sys = sys_object(&job.argv);
    // The status `sys.exit(n)` asked for, kept beside the SystemExit it raises.
    let mut exit_code: Option<i32> = None;
    let mut progress = runner.start(Vec::new(), ResourceTracker::new(limits), PrintWriter::Callback(&mut w));
    loop {
        let p = match progress {
            Ok(p) => p,
            Err(e) => {
                if w.flush().is_err() || stop.load(Ordering::Relaxed) {
                    return Outcome::Gone;
                }
                return Outcome::Exc(e, exit_code);
            }
        };
        if w.flush().is_err() {
            return Outcome::Gone;
        }
        progress = match p {
            RunProgress::Complete(_) => return Outcome::Ok,
            RunProgress::OsCall(call) => {
                let f = call.function_call.clone();
                let (rtx, rrx) = smpsc::sync_channel(1);
                if tx.blocking_send(Req::Os(f, rtx)).is_err() {
                    return Outcome::Gone;
                }
                let Ok(r) = rrx.recv() else { return Outcome::Gone };
                call.resume(r, PrintWriter::Callback(&mut w))
            }
            RunProgress::NameLookup(l) => {
                let full = qualified(l.object_id(), &l.name);
                let r = match full.as_str() {
                    SYS_NAME => NameLookupResult::Value(sys.clone()),
                    // Methods taken as values (`from sys import exit`, `w = sys.stdout.write`).
                    "input"
                    | "sys.exit"
                    | "sys.stdout.write"
                    | "sys.stdout.flush"
                    | "sys.stderr.write"
                    | "sys.stderr.flush"
                    | "sys.stdin.read"
                    | "sys.stdin.readline"
                    | "sys.stdin.readlines" => {
                        NameLookupResult::Value(MontyObject::Function { name: full, docstring: None })
                    }
                    _ => NameLookupResult::Undefined,
                };
                l.resume(r, PrintWriter::Callback(&mut w))
            }
            RunProgress::FunctionCall(call) => {
                let full = qualified(call.object_id, &call.function_name);
                let r = match call_host(&full, &call.args, &tx, &mut exit_code) {
                    Some(r) => r,
                    None => return Outcome::Gone,
                };
                call.resume(r, PrintWriter::Callback(&mut w))
            }
            RunProgress::ResolveFutures(f) => {
                let exc = MontyException::new(
                    ExcType::RuntimeError,
                    Some("awaiting host futures is not supported in this environment".into()),
                );
                f.abort(exc, PrintWriter::Callback(&mut w))
            }
        };
    }
}

/// `sys.stdout.write` for method `write` of the stdout object, the name itself without an object.
fn qualified(object: Option<MontyUuid>, name: &str) -> String {
    let prefix = match object.map(|o| u128::from_be_bytes(*o.as_bytes())) {
        None => return name.to_string(),
        Some(1) => "sys",
        Some(2) => "sys.stdin",
        Some(3) => "sys.stdout",
        Some(4) => "sys.stderr",
        Some(_) => "?",
    };
    format!("{prefix}.{name}")
}

fn text_arg(args: &[MontyObject], i: usize, what: &str) -> Result<String, MontyException> {
    match args.get(i) {
        Some(MontyObject::String(s)) => Ok(s.clone()),
        Some(other) => Err(MontyException::new(
            ExcType::TypeError,
            Some(format!("{what} argument must be str, not {}", other.type_name())),
        )),
        None => {
            Err(MontyException::new(ExcType::TypeError, Some(format!("{what} takes exactly one argument (0 given)"))))
        }
    }
}

/// Answer a call of a host function: `input()` and the methods of `sys` and
/// its streams. `None` when the async side is gone.
fn call_host(
    name: &str,
    args: &[MontyObject],
    tx: &mpsc::Sender<Req>,
    exit_code: &mut Option<i32>,
) -> Option<ExtFunctionResult> {
    let err = |t: ExcType, m: String| Some(ExtFunctionResult::Error(MontyException::new(t, Some(m))));
    let read = |how: Option<u8>| -> Option<Option<Vec<u8>>> {
        let (rtx, rrx) = smpsc::sync_channel(1);
        tx.blocking_send(Req::Stdin(how, rtx)).ok()?;
        rrx.recv().ok()
    };
    let decode = |b: Vec<u8>| match String::from_utf8(b) {
        Ok(s) => ExtFunctionResult::Return(MontyObject::String(s)),
        Err(e) => ExtFunctionResult::Error(MontyException::new(
            ExcType::UnicodeDecodeError,
            Some(format!("'utf-8' codec can't decode byte 0x{:02x}", e.as_bytes()[e.utf8_error().valid_up_to()])),
        )),
    };
    match name {
        "input" => {
            if let Some(MontyObject::String(prompt)) = args.first() {
                tx.blocking_send(Req::Out(false, prompt.clone().into_bytes())).ok()?;
            }
            match read(Some(b'\n'))? {
                // Monty has no EOFError; `except Exception` still catches this.
                None => err(ExcType::Exception, "EOF when reading a line".into()),
                Some(mut line) => {
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    Some(decode(line))
                }
            }
        }
        "sys.exit" => {
            let (code, msg) = match args.first() {
                None | Some(MontyObject::None) => (0, None),
                Some(MontyObject::Int(n)) => ((*n & 0xff) as i32, Some(n.to_string())),
                Some(MontyObject::Bool(b)) => (i32::from(*b), Some(i32::from(*b).to_string())),
                // A message: printed on stderr, status 1 (see `python::run_program`).
                Some(other) => {
                    let text = match other {
                        MontyObject::String(t) => t.clone(),
                        o => o.to_string(),
                    };
                    return Some(ExtFunctionResult::Error(MontyException::new(ExcType::SystemExit, Some(text))));
                }
            };
            *exit_code = Some(code);
            Some(ExtFunctionResult::Error(MontyException::new(ExcType::SystemExit, msg)))
        }
        "sys.stdout.write" | "sys.stderr.write" => {
            let text = match text_arg(args, 0, "write()") {
                Ok(t) => t,
                Err(e) => return Some(ExtFunctionResult::Error(e)),
            };
            let n = text.chars().count() as i64;
            tx.blocking_send(Req::Out(name == "sys.stderr.write", text.into_bytes())).ok()?;
            Some(ExtFunctionResult::Return(MontyObject::Int(n)))
        }
        "sys.stdout.flush" | "sys.stderr.flush" => Some(ExtFunctionResult::Return(MontyObject::None)),
        "sys.stdin.read" => Some(decode(read(None)?.unwrap_or_default())),
        "sys.stdin.readline" => Some(decode(read(Some(b'\n'))?.unwrap_or_default())),
        "sys.stdin.readlines" => {
            let all = match decode(read(None)?.unwrap_or_default()) {
                ExtFunctionResult::Return(MontyObject::String(s)) => s,
                other => return Some(other),
            };
            let lines = all.split_inclusive('\n').map(|l| MontyObject::String(l.to_string())).collect();
            Some(ExtFunctionResult::Return(MontyObject::List(lines)))
        }
        _ => match name.rsplit_once('.') {
            Some((obj, attr)) => err(ExcType::AttributeError, format!("'{obj}' object has no attribute '{attr}'")),
            None => Some(ExtFunctionResult::NotFound(name.to_string())),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sys_imports_are_rewritten_in_place() {
        let src = "import sys; print(1)\nimport sys\n  import os, sys as s\nfrom sys import argv, exit as e\nimport json\nx = 'import sys'\n";
        let want = "sys = __sandbash_sys__; print(1)\nsys = __sandbash_sys__\n  import os; s = __sandbash_sys__\n\
                    argv = __sandbash_sys__.argv; e = __sandbash_sys__.exit\nimport json\nx = 'import sys'\n";
        assert_eq!(rewrite_sys_imports(src), want);
    }
}
