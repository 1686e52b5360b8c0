//! `jq` (1.7): JSON processor, on the jaq interpreter. Options and files are
//! handled here; the program runs on a worker thread (`jq_run`) that asks for
//! input as it needs it and hands back output, so `yes '{}' | jq . | head`
//! streams and a runaway program is stopped by the exec's time limit.

pub(crate) mod funs;
pub(crate) mod json;
pub(crate) mod regex;
pub(crate) mod run;
pub(crate) mod val;

use json::{Fmt};
use run::{worker, Ahead, GuardSpec, InMsg, JVal, Job, Msg};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub struct Jq;

const VERSION: &str = "jq-1.7.1\n";

const USAGE: &str = "jq - commandline JSON processor [version 1.7.1]

Usage:\tjq [options] <jq filter> [file...]
\tjq [options] --args <jq filter> [strings...]
\tjq [options] --jsonargs <jq filter> [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

The simplest filter is ., which copies jq's input to its output
unmodified except for formatting. For more advanced filters see
the jq(1) manpage (\"man jq\") and/or https://jqlang.github.io/jq/.

Example:

\t$ echo '{\"foo\": 0}' | jq .
\t{
\t  \"foo\": 0
\t}

Command options:
  -n, --null-input          use `null` as the single input value;
  -R, --raw-input           read each line as string instead of JSON;
  -s, --slurp               read all inputs into an array and use it as
                            the single input value;
  -c, --compact-output      compact instead of pretty-printed output;
  -r, --raw-output          output strings without escapes and quotes;
      --raw-output0         implies -r and output NUL after each output;
  -j, --join-output         implies -r and output without newline after
                            each output;
  -a, --ascii-output        output strings by only ASCII characters
                            using escape sequences;
  -S, --sort-keys           sort keys of each object on output;
  -C, --color-output        colorize JSON output;
  -M, --monochrome-output   disable colored output;
      --tab                 use tabs for indentation;
      --indent n            use n spaces for indentation (max 7 spaces);
      --unbuffered          flush output stream after each output;
      --stream              parse the input value in streaming fashion;
      --stream-errors       implies --stream and report parse error as
                            an array;
      --seq                 parse input/output as application/json-seq;
  -f, --from-file file      load filter from the file;
  -L directory              search modules from the directory;
      --arg name value      set $name to the string value;
      --argjson name value  set $name to the JSON value;
      --slurpfile name file set $name to an array of JSON values read
                            from the file;
      --rawfile name file   set $name to string contents of file;
      --args                consume remaining arguments as positional
                            string values;
      --jsonargs            consume remaining arguments as positional
                            JSON values;
  -e, --exit-status         set exit status code based on the output;
  -V, --version             show the version;
  --build-configuration     show jq's build configuration;
  -h, --help                show the help;
  --                        terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
";

/// What the command line asked for.
#[derive(Default)]
struct Opts {
    fmt: Fmt,
    raw_out: bool,
    join: bool,
    nul_sep: bool,
    null_input: bool,
    slurp: bool,
    raw_in: bool,
    exit_status: bool,
    stream: bool,
    /// `--unbuffered`: each output is written at once (a coprocess's reader sees it).
    unbuffered: bool,
    from_file: bool,
    filter: Option<String>,
    files: Vec<String>,
    vars: Vec<(String, JVal)>,
    named: Vec<(String, JVal)>,
    positional: Vec<JVal>,
}

enum ArgMode {
    Files,
    Strings,
    Json,
}

/// Usage errors end with jq's hint and status 2.
fn usage_err(msg: &str) -> String {
    format!(
        "jq: {msg}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n"
    )
}

enum Early {
    Status(i32),
}

async fn parse_args(ctx: &CommandContext<'_>) -> Result<Opts, Early> {
    let args = ctx.args;
    let mut o = Opts { fmt: Fmt::default(), ..Opts::default() };
    let mut mode = ArgMode::Files;
    let mut i = 0;
    let mut opts_done = false;
    let need = |i: usize, n: usize, what: &str| -> Result<(), String> {
        if i + n >= args.len() {
            Err(format!(
                "{what} takes {} parameter{}",
                if n == 1 { "one" } else { "two" },
                if n == 1 { "" } else { "s" }
            ))
        } else {
            Ok(())
        }
    };
    macro_rules! fail {
        ($msg:expr) => {{
            let _ = ctx.stderr.write(usage_err(&$msg).as_bytes()).await;
            return Err(Early::Status(2));
        }};
    }
    while i < args.len() {
        let a = args[i].as_str();
        // jq: an option is `-` then a letter or `-` (so `-1` and `-"a"` are filters).
        let b = a.as_bytes();
        let is_opt = b.len() > 1 && b[0] == b'-' && (b[1] == b'-' || b[1].is_ascii_alphabetic());
        let positional = opts_done || !is_opt;
        if positional {
            if o.filter.is_none() {
                o.filter = Some(a.to_string());
            } else {
                match mode {
                    ArgMode::Files => o.files.push(a.to_string()),
                    ArgMode::Strings => o.positional.push(JVal::Str(a.to_string())),
                    ArgMode::Json => {
                        if json::parse_one(a).is_err() {
                            fail!(format!("Invalid JSON text passed to --jsonargs"));
                        }
                        o.positional.push(JVal::Json(a.to_string()))
                    }
                }
            }
            i += 1;
            continue;
        }
        if a == "--" {
            opts_done = true;
            i += 1;
            continue;
        }
        if let Some(long) = a.strip_prefix("--") {
            match long {
                "null-input" => o.null_input = true,
                "raw-input" => o.raw_in = true,
                "slurp" => o.slurp = true,
                "compact-output" => {
                    o.fmt.indent = 0;
                    o.fmt.tab = false
                }
                "raw-output" => o.raw_out = true,
                "raw-output0" => {
                    o.raw_out = true;
                    o.nul_sep = true
                }
                "join-output" => {
                    o.raw_out = true;
                    o.join = true
                }
                "ascii-output" => o.fmt.ascii = true,
                "sort-keys" => o.fmt.sort_keys = true,
                "color-output" | "monochrome-output" => {}
                "unbuffered" => o.unbuffered = true,
                "tab" => {
                    o.fmt.tab = true;
                    o.fmt.indent = 2
                }
                "exit-status" => o.exit_status = true,
                "from-file" => o.from_file = true,
                "args" => mode = ArgMode::Strings,
                "jsonargs" => mode = ArgMode::Json,
                "indent" => {
                    if let Err(e) = need(i, 1, "--indent") {
                        fail!(e);
                    }
                    let n: i64 = match args[i + 1].parse() {
                        Ok(n) => n,
                        Err(_) => fail!(format!("--indent takes a number")),
                    };
                    if !(-1..=7).contains(&n) {
                        fail!(format!("--indent takes a number between -1 and 7"));
                    }
                    o.fmt.indent = n.max(0) as usize;
                    o.fmt.tab = false;
                    i += 1;
                }
                "arg" | "argjson" | "slurpfile" | "rawfile" => {
                    if let Err(e) = need(i, 2, &format!("--{long}")) {
                        fail!(e);
                    }
                    let (name, val) = (args[i + 1].clone(), args[i + 2].clone());
                    let v = match long {
                        "arg" => JVal::Str(val),
                        "argjson" => {
                            if json::parse_one(&val).is_err() {
                                fail!(format!("invalid JSON text passed to --argjson"));
                            }
                            JVal::Json(val)
                        }
                        _ => match ctx.fs.read(&ctx.resolve(&val)).await {
                            Ok(data) if long == "rawfile" => JVal::Str(String::from_utf8_lossy(&data).into_owned()),
                            Ok(data) => match json::parse_all(&data).map(|_| ()) {
                                Ok(()) => JVal::JsonArr(data),
                                Err(e) => {
                                    let m = format!("jq: Bad JSON in --{long} {name} {val}: {e}\n");
                                    let _ = ctx.stderr.write(m.as_bytes()).await;
                                    return Err(Early::Status(2));
                                }
                            },
                            Err(e) => {
                                let m = format!("jq: Bad JSON in --{long} {name} {val}: Could not open {val}: {e}\n");
                                let _ = ctx.stderr.write(m.as_bytes()).await;
                                return Err(Early::Status(2));
                            }
                        },
                    };
                    o.vars.push((name.clone(), v.clone()));
                    o.named.push((name, v));
                    i += 2;
                }
                "help" => {
                    let _ = ctx.out(USAGE.as_bytes()).await;
                    return Err(Early::Status(0));
                }
                "version" => {
                    let _ = ctx.out(VERSION.as_bytes()).await;
                    return Err(Early::Status(0));
                }
                "build-configuration" => {
                    let _ = ctx.out(b"sandbox\n").await;
                    return Err(Early::Status(0));
                }
                "stream" => o.stream = true,
                "seq" | "stream-errors" => fail!(format!("--{long} is not supported in this sandbox")),
                _ => fail!(format!("Unknown option {a}")),
            }
            i += 1;
            continue;
        }
        // Short options, possibly several in one argument (`-rc`).
        let mut takes_next = 0;
        for c in a[1..].chars() {
            match c {
                'n' => o.null_input = true,
                'R' => o.raw_in = true,
                's' => o.slurp = true,
                // -c, --tab and --indent: the last one given counts, as in jq.
                'c' => {
                    o.fmt.indent = 0;
                    o.fmt.tab = false
                }
                'r' => o.raw_out = true,
                'j' => {
                    o.raw_out = true;
                    o.join = true
                }
                'a' => o.fmt.ascii = true,
                'S' => o.fmt.sort_keys = true,
                'C' | 'M' => {}
                'e' => o.exit_status = true,
                'f' => o.from_file = true,
                'L' => takes_next = 1,
                'h' => {
                    let _ = ctx.out(USAGE.as_bytes()).await;
                    return Err(Early::Status(0));
                }
                'V' => {
                    let _ = ctx.out(VERSION.as_bytes()).await;
                    return Err(Early::Status(0));
                }
                _ => fail!(format!("Unknown option {a}")),
            }
        }
        i += 1 + takes_next;
    }
    Ok(o)
}

/// Sets the worker's stop flag when the command ends or is dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Where input comes from, served a chunk at a time to the run.
struct Sources {
    files: Vec<String>,
    next: usize,
    /// Reading stdin (no file operands).
    stdin: bool,
    started: bool,
    open_error: bool,
    /// The file operand being read, a chunk at a time.
    cur: Option<crate::io::Input>,
    /// Read ahead for an inline run that gave way: served first.
    ahead: std::collections::VecDeque<Ahead>,
}

/// Input read ahead for an inline run, at most (see `run::inline`): larger
/// inputs stream to a worker as it reads them.
const INLINE_INPUT: usize = 64 * 1024;

/// How long an inline run may take before it gives way to a worker, which
/// leaves the interpreter's thread free for other work meanwhile.
const INLINE_TIME: std::time::Duration = std::time::Duration::from_millis(1);

impl Sources {
    /// The next input, with the message of each file that did not open on its way.
    async fn next(&mut self, ctx: &CommandContext<'_>) -> Result<Ahead, crate::io::IoError> {
        match self.ahead.pop_front() {
            Some(a) => Ok(a),
            None => self.read_one(ctx).await,
        }
    }

    /// One input read now, with the messages written on its way.
    async fn read_one(&mut self, ctx: &CommandContext<'_>) -> Result<Ahead, crate::io::IoError> {
        let mut errors = Vec::new();
        let msg = self.read(ctx, &mut errors).await?;
        Ok(Ahead { errors, msg })
    }

    /// Read ahead, up to [`INLINE_INPUT`] bytes or the end; true at the end.
    async fn read_ahead(&mut self, ctx: &CommandContext<'_>) -> Result<bool, crate::io::IoError> {
        let mut bytes = 0;
        while bytes < INLINE_INPUT {
            let a = self.read_one(ctx).await?;
            let end = matches!(a.msg, InMsg::Eof);
            if let InMsg::Chunk(_, b) = &a.msg {
                bytes += b.len();
            }
            self.ahead.push_back(a);
            if end {
                return Ok(true);
            }
        }
        Ok(false)
    }

    async fn read(&mut self, ctx: &CommandContext<'_>, errors: &mut Vec<u8>) -> Result<InMsg, crate::io::IoError> {
        if self.stdin {
            let first = !self.started;
            self.started = true;
            return Ok(match ctx.stdin.read_chunk().await {
                Some(b) => InMsg::Chunk(first.then_some(None), b.to_vec()),
                None => InMsg::Eof,
            });
        }
        if let Some(input) = &self.cur {
            if let Some(b) = input.read_chunk().await {
                return Ok(InMsg::Chunk(None, b.to_vec()));
            }
            self.cur = None;
        }
        while self.next < self.files.len() {
            let f = self.files[self.next].clone();
            self.next += 1;
            match ctx.open_input(&f).await {
                Ok(input) => {
                    // The first chunk carries the file's name; the rest follow it.
                    let first = input.read_chunk().await.map(|b| b.to_vec()).unwrap_or_default();
                    self.cur = Some(input);
                    return Ok(InMsg::Chunk(Some(Some(f)), first));
                }
                Err(e) => {
                    self.open_error = true;
                    errors.extend_from_slice(format!("jq: error: Could not open file {f}: {e}\n").as_bytes());
                }
            }
        }
        Ok(InMsg::Eof)
    }
}

#[async_trait]
impl Utility for Jq {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut o = match parse_args(ctx).await {
            Ok(o) => o,
            Err(Early::Status(s)) => return Ok(s),
        };
        // jq 1.7 runs `.` when no filter is given and output is not a terminal.
        let filter = o.filter.take().unwrap_or_else(|| ".".to_string());
        let program = if o.from_file {
            match ctx.fs.read(&ctx.resolve(&filter)).await {
                Ok(d) => {
                    // With -f the first operand is the program file, the rest inputs.
                    String::from_utf8_lossy(&d).into_owned()
                }
                Err(e) => {
                    return Err(UError::new(2, format!("error: Could not open {filter}: {e}")));
                }
            }
        } else {
            filter
        };
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_guard = StopOnDrop(stop.clone());
        let max_len = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX).max(1024);
        // Only `$ENV` and `env` read it: most programs never build it.
        let env = if program.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"env")) {
            ctx.env.exported()
        } else {
            Vec::new()
        };
        let job = Job {
            program,
            fmt: o.fmt.clone(),
            raw_out: o.raw_out,
            join: o.join,
            nul_sep: o.nul_sep,
            null_input: o.null_input,
            slurp: o.slurp,
            raw_in: o.raw_in,
            exit_status: o.exit_status,
            stream: o.stream,
            unbuffered: o.unbuffered,
            vars: o.vars,
            named: o.named,
            positional: o.positional,
            env,
            guard: GuardSpec {
                deadline: ctx.budget.remaining().map(|d| std::time::Instant::now() + d),
                cancel: ctx.budget.cancel_token().clone(),
                stop: stop.clone(),
                max_len,
                budget: crate::limits::scope::current(),
            },
        };
        let mut src = Sources {
            stdin: o.files.is_empty(),
            files: o.files,
            next: 0,
            started: false,
            open_error: false,
            cur: None,
            ahead: Default::default(),
        };
        // A big stack: jaq's evaluator recurses (the guard lets it use
        // `EVAL_STACK`), and dropping what a program built recurses too: a
        // chain of closures (`def f(x): f([x])`) takes about its own size in
        // stack to drop in a release build, more in a debug one (the guard
        // stops a program at a share of the budget that leaves room for it,
        // see `val::heap_cap`). Untouched stack costs no memory.
        let mem = usize::try_from(ctx.budget.limits.max_memory_bytes).unwrap_or(usize::MAX).min(4 << 30);
        // Debug builds' frames are several times larger (measured: a 2x
        // reserve overflowed dropping a closure chain at the budget).
        let per_byte = if cfg!(debug_assertions) { 8 } else { 2 };
        let stack = val::EVAL_STACK + (16 << 20) + mem.saturating_mul(per_byte);
        // Most runs are small: run them here, saving two thread hand-offs
        // per input chunk (tens to hundreds of microseconds on an idle
        // machine). With -n the input is not read unless the program asks;
        // with --unbuffered each output must reach its reader as it comes.
        let complete = !o.null_input && !o.unbuffered && src.read_ahead(ctx).await?;
        if (complete || o.null_input) && !o.unbuffered {
            let input = src.ahead.iter().cloned().collect();
            let until = std::time::Instant::now() + INLINE_TIME;
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                stacker::grow(stack, || run::inline(&job, input, complete, until))
            }));
            if let Ok(Some(msgs)) = ran {
                let mut status = 0;
                for m in msgs {
                    match m {
                        Msg::Out(b) => ctx.out(&b).await?,
                        Msg::Err(b) => ctx.stderr.write(&b).await?,
                        Msg::Done(s) => status = s,
                        Msg::NeedInput => {}
                    }
                }
                return Ok(if status == 0 && src.open_error { 2 } else { status });
            }
        }
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Msg>(4);
        let (in_tx, in_rx) = std::sync::mpsc::channel::<InMsg>();
        let spawned = run_on_worker(stack, Box::new(move || worker(job, tx, in_rx)));
        if spawned.is_err() {
            return Err(UError::new(2, "error: cannot start"));
        }
        let mut status = 0;
        while let Some(msg) = rx.recv().await {
            match msg {
                Msg::Out(b) => ctx.out(&b).await?,
                Msg::Err(b) => ctx.stderr.write(&b).await?,
                Msg::NeedInput => {
                    let a = src.next(ctx).await?;
                    if !a.errors.is_empty() {
                        ctx.stderr.write(&a.errors).await?;
                    }
                    if in_tx.send(a.msg).is_err() {
                        break;
                    }
                }
                Msg::Done(s) => status = s,
            }
        }
        if status == 0 && src.open_error {
            status = 2;
        }
        Ok(status)
    }
}

/// A run handed to a worker thread.
type WorkerJob = Box<dyn FnOnce() + Send>;

/// Idle jq worker threads, each waiting for its next run. A run on a warm
/// thread skips starting one: its allocator's pages are mapped already (a new
/// thread faulted in fresh pages for every run) and its compiled programs are
/// cached (see `run::compile_cached`).
static IDLE: parking_lot::Mutex<Vec<std::sync::mpsc::Sender<WorkerJob>>> = parking_lot::const_mutex(Vec::new());

/// Idle workers kept at most; more finish after their run.
const IDLE_WORKERS: usize = 4;

/// The stack of a pooled worker: what a run under the default memory budget
/// asks for (see `run`). A run that needs more gets a thread of its own.
const POOL_STACK: usize = val::EVAL_STACK
    + (16 << 20)
    + (crate::limits::DEFAULT_MAX_MEMORY_BYTES as usize) * if cfg!(debug_assertions) { 8 } else { 2 };

/// A worker whose run went this deep into its stack ends instead of waiting
/// for the next (its touched stack would otherwise stay resident).
const DEEP_STACK: usize = 8 << 20;

/// Run `job` on a jq worker thread with at least `stack` bytes of stack.
fn run_on_worker(stack: usize, job: WorkerJob) -> std::io::Result<()> {
    if stack > POOL_STACK {
        return std::thread::Builder::new().name("jq".into()).stack_size(stack).spawn(job).map(|_| ());
    }
    let mut job = job;
    loop {
        let Some(tx) = IDLE.lock().pop() else { break };
        match tx.send(job) {
            Ok(()) => return Ok(()),
            // That worker has ended: try the next.
            Err(e) => job = e.0,
        }
    }
    let (tx, rx) = std::sync::mpsc::channel::<WorkerJob>();
    let own = tx.clone();
    let _ = tx.send(job);
    std::thread::Builder::new()
        .name("jq".into())
        .stack_size(POOL_STACK)
        .spawn(move || {
            let top = stacker::remaining_stack().unwrap_or(0);
            while let Ok(job) = rx.recv() {
                job();
                if top.saturating_sub(val::lowest_stack_left()) > DEEP_STACK {
                    break;
                }
                let mut idle = IDLE.lock();
                if idle.len() >= IDLE_WORKERS {
                    break;
                }
                idle.push(own.clone());
            }
        })
        .map(|_| ())
}

#[cfg(test)]
mod tests;
