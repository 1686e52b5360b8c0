//! Running one adversarial script in-process and through the CLI.
#![allow(dead_code)]

use sandbash::{Bash, Error, ExecOptions, ExecResult, Limits};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Input sizes each generator is tried at.
pub const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// The stack of the in-process runs: half of what the NIF's runtime threads
/// get, so a recursion that is bounded by stack checks shows it here first.
const STACK: usize = 8 * 1024 * 1024;

/// The timeout given to each run. A run must end within it plus [`SLACK`].
/// Generous too: the 10^6 cases of a debug build on a busy machine take
/// seconds, and must reach their own answer or limit, not this timeout.
pub const TIMEOUT_MS: u64 = 10_000;
/// Generous: a debug build on two busy cores.
pub const SLACK: Duration = Duration::from_secs(15);

/// How one run ended.
#[derive(Debug)]
pub struct Outcome {
    pub result: Result<ExecResult, Error>,
    pub elapsed: Duration,
}

impl Outcome {
    pub fn stdout(&self) -> String {
        match &self.result {
            Ok(r) => String::from_utf8_lossy(&r.stdout).into_owned(),
            Err(Error::Stopped { partial, .. }) => String::from_utf8_lossy(&partial.stdout).into_owned(),
            Err(_) => String::new(),
        }
    }

    /// The error text, or the exit status and stderr of a finished script.
    pub fn describe(&self) -> String {
        match &self.result {
            Ok(r) => format!("exit {} stderr {:?}", r.exit_code, String::from_utf8_lossy(&r.stderr)),
            Err(e) => format!("error: {e}"),
        }
    }
}

/// The limits of an adversarial run: defaults, with the suite's timeout.
pub fn limits() -> Limits {
    Limits { timeout_ms: TIMEOUT_MS, ..Limits::default() }
}

/// The CPython runtime `scripts/fetch_python` puts in `priv/python/`; the
/// python cases run with it as `python3`.
pub const PYTHON_WASM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../priv/python/python-3.12.0.wasm");

/// Run `script` in a fresh session with `limits`, on a thread of its own.
pub fn run_in_process(script: &str, limits: Limits) -> Outcome {
    run_in_process_as(script, limits, false)
}

/// As [`run_in_process`], with `python3` on CPython when `python`.
pub fn run_in_process_as(script: &str, limits: Limits, python: bool) -> Outcome {
    let script = script.to_string();
    let start = Instant::now();
    let handle = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            rt.block_on(async {
                let mut builder = Bash::builder().limits(limits);
                if python {
                    builder = builder.python(vec!["python3".into()]).python_runtime(PYTHON_WASM);
                }
                let mut bash = builder.build().expect("build");
                bash.exec_with(&script, ExecOptions::default()).await
            })
        })
        .expect("spawn");
    let result = handle.join().expect("the run panicked");
    Outcome { result, elapsed: start.elapsed() }
}

/// What the CLI did with a script.
#[derive(Debug)]
pub struct CliOutcome {
    /// `None` when it died of a signal (a crash).
    pub status: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

/// Run `script` through the `sandbash` CLI (its stdin empty), with
/// `SANDBASH_TIMEOUT_MS` set to the suite's timeout.
pub fn run_cli(script: &str) -> CliOutcome {
    run_cli_with(script, &limits())
}

/// Run `script` through the CLI with `limits` (as `SANDBASH_<LIMIT>` variables).
pub fn run_cli_with(script: &str, l: &Limits) -> CliOutcome {
    run_cli_as(script, l, false)
}

/// As [`run_cli_with`], with `python3` on CPython when `python`.
pub fn run_cli_as(script: &str, l: &Limits, python: bool) -> CliOutcome {
    let start = Instant::now();
    let named = [
        ("TIMEOUT_MS", l.timeout_ms),
        ("MAX_COMMANDS", l.max_commands),
        ("MAX_LOOP_ITERATIONS", l.max_loop_iterations),
        ("MAX_TOTAL_LOOP_ITERATIONS", l.max_total_loop_iterations),
        ("MAX_FUNCTION_DEPTH", l.max_function_depth),
        ("MAX_STRING_BYTES", l.max_string_bytes),
        ("MAX_OUTPUT_BYTES", l.max_output_bytes),
        ("MAX_MEMORY_BYTES", l.max_memory_bytes),
    ];
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sandbash"));
    for (k, v) in named {
        cmd.env(format!("SANDBASH_{k}"), v.to_string());
    }
    if python {
        cmd.env("SANDBASH_PYTHON_WASM", PYTHON_WASM);
    }
    let out = cmd.arg("-c").arg(script).stdin(Stdio::null()).output().expect("run sandbash");
    CliOutcome { status: out.status.code(), stdout: out.stdout, stderr: out.stderr, elapsed: start.elapsed() }
}

/// The script must end in time and not crash, both in-process and in the CLI;
/// returns the in-process outcome for further checks.
#[track_caller]
pub fn survives(script: &str) -> Outcome {
    survives_with(script, limits())
}

#[track_caller]
pub fn survives_with(script: &str, limits: Limits) -> Outcome {
    survives_as(script, limits, false)
}

/// As [`survives_with`], with `python3` on CPython when `python`.
#[track_caller]
pub fn survives_as(script: &str, limits: Limits, python: bool) -> Outcome {
    let bound = Duration::from_millis(limits.timeout_ms) + SLACK;
    let cli_limits = limits.clone();
    let o = run_in_process_as(script, limits, python);
    let shown = shorten(script);
    assert!(o.elapsed < bound, "{shown}: took {:?} in-process ({})", o.elapsed, o.describe());
    let c = run_cli_as(script, &cli_limits, python);
    assert!(
        c.status.is_some(),
        "{shown}: the CLI died of a signal; stderr: {}",
        String::from_utf8_lossy(&c.stderr[..c.stderr.len().min(2000)])
    );
    assert!(c.elapsed < bound, "{shown}: took {:?} in the CLI", c.elapsed);
    o
}

/// The script must stop with an error containing `needle` (in-process), and
/// the CLI must say the same on stderr.
#[track_caller]
pub fn stops_with(script: &str, needle: &str) {
    stops_with_limits(script, needle, limits());
}

#[track_caller]
pub fn stops_with_limits(script: &str, needle: &str, limits: Limits) {
    let o = survives_with(script, limits);
    let shown = shorten(script);
    match &o.result {
        Err(e) => assert!(e.to_string().contains(needle), "{shown}: {e}"),
        Ok(_) => panic!("{shown}: finished ({}), expected an error with {needle:?}", o.describe()),
    }
}

/// Either a clean error naming one of `needles`, or a normal finish (a
/// status and a message from the script's own command) whose stderr or status
/// shows the refusal. Returns the outcome.
#[track_caller]
pub fn refused(script: &str, needles: &[&str]) -> Outcome {
    let o = survives(script);
    let text = o.describe();
    assert!(needles.iter().any(|n| text.contains(n)), "{}: {text}", shorten(script));
    o
}

/// A script for error messages: long generated scripts are cut.
pub fn shorten(s: &str) -> String {
    if s.len() <= 200 {
        s.to_string()
    } else {
        format!("{}...({} bytes)", &s[..s.char_indices().nth(200).map_or(s.len(), |(i, _)| i)], s.len())
    }
}

/// `s` repeated `n` times.
pub fn rep(s: &str, n: usize) -> String {
    s.repeat(n)
}

/// The script printed `want`, or stopped on one of `limits`.
#[track_caller]
pub fn answer_or_limit(script: &str, limits: Limits, want: &str, names: &[&str]) {
    let o = survives_with(script, limits);
    match &o.result {
        Ok(_) => assert_eq!(o.stdout(), want, "{}", shorten(script)),
        Err(e) => {
            let e = e.to_string();
            assert!(names.iter().any(|l| e.contains(l)), "{}: {e}", shorten(script));
        }
    }
}
