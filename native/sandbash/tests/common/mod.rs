//! Shared harness of the language tests.
//!
//! Every expected value in these tests was recorded from GNU bash 5.2 by
//! `tests/record/record.py`, which runs each case as
//! `env -i HOME=/home/sandbox LC_ALL=C.UTF-8 TZ=UTC PATH=<dir with only cat, bash, sh, yes, head, sleep, mkdir> bash -c SCRIPT`
//! in an empty directory `/tmp/sbtest` with empty stdin (unless a case gives one).
//! The sandbox is set up to match: its cwd is `/tmp/sbtest` (created empty),
//! `HOME` is `/home/sandbox`, `$0` is `bash`.
//!
//! To add or change a case, edit the topic file in `tests/record/` and run
//! `python3 native/sandbash/tests/record/record.py [TOPIC]`; never write an
//! expected value by hand or from what sandbash prints.
#![allow(dead_code)]

use sandbash::{Bash, Error, ExecOptions, ExecResult};
use std::sync::mpsc;
use std::time::Duration;

/// The directory a case starts in (the same path bash ran in).
pub const CWD: &str = "/tmp/sbtest";

/// A case that hangs is a failure, not a stuck test run. Generous: this catches
/// hangs, not slowness (a debug build on two busy cores runs the big-file cases
/// for tens of seconds).
const WATCHDOG: Duration = Duration::from_secs(300);

/// Run `script` in a fresh sandbox, with `stdin`, on a current-thread runtime
/// inside a watchdog thread.
pub fn run_with_stdin(script: &str, stdin: &[u8]) -> Result<ExecResult, Error> {
    let (tx, rx) = mpsc::channel();
    let script_owned = script.to_string();
    let stdin = stdin.to_vec();
    std::thread::Builder::new()
        .stack_size(16 * 1024 * 1024)
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime");
            let res = rt.block_on(async {
                // The exec's own timeout well above a debug build's pace on a
                // loaded machine (the watchdog is there for hangs).
                let limits = sandbash::Limits { timeout_ms: 240_000, ..Default::default() };
                let mut bash = Bash::builder().cwd(CWD).limits(limits).history(false).build().expect("build sandbox");
                bash.exec_with(&script_owned, ExecOptions { stdin, ..Default::default() }).await
            });
            let _ = tx.send(res);
        })
        .expect("spawn");
    match rx.recv_timeout(WATCHDOG) {
        Ok(r) => r,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("script did not finish within {WATCHDOG:?}:\n{script}")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("interpreter panicked on:\n{script}"),
    }
}

pub fn run(script: &str) -> Result<ExecResult, Error> {
    run_with_stdin(script, b"")
}

/// Printable form of bytes for failure messages: UTF-8 text as a quoted
/// string, every byte that is not UTF-8 as `\xNN`.
pub fn show(b: &[u8]) -> String {
    let mut s = String::from("\"");
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            s.extend(c.escape_debug());
        }
        for byte in chunk.invalid() {
            s.push_str(&format!("\\x{byte:02x}"));
        }
    }
    s.push('"');
    s
}

fn ok_result(script: &str, res: Result<ExecResult, Error>) -> ExecResult {
    match res {
        Ok(r) => r,
        Err(e) => panic!("script failed to run: {e:?}\n--- script ---\n{script}"),
    }
}

fn compare(script: &str, r: &ExecResult, stdout: &[u8], stderr: Option<&[u8]>, status: i32) {
    let mut problems = Vec::new();
    if r.stdout != stdout {
        problems.push(format!("stdout:   got {}\n          want {}", show(&r.stdout), show(stdout)));
    }
    if let Some(e) = stderr {
        if r.stderr != e {
            problems.push(format!("stderr:   got {}\n          want {}", show(&r.stderr), show(e)));
        }
    }
    if r.exit_code != status {
        problems.push(format!("status:   got {}\n          want {}", r.exit_code, status));
    }
    if !problems.is_empty() {
        panic!(
            "\n--- script ---\n{script}\n--- mismatch ---\n{}\n(stderr was {})\n",
            problems.join("\n"),
            show(&r.stderr)
        );
    }
}

/// stdout and exit status must be exactly bash's.
pub fn check(script: &str, stdout: impl AsRef<[u8]>, status: i32) {
    let r = ok_result(script, run(script));
    compare(script, &r, stdout.as_ref(), None, status);
}

/// As [`check`], with bytes on stdin.
pub fn check_stdin(script: &str, stdin: impl AsRef<[u8]>, stdout: impl AsRef<[u8]>, status: i32) {
    let r = ok_result(script, run_with_stdin(script, stdin.as_ref()));
    compare(script, &r, stdout.as_ref(), None, status);
}

/// stdout, stderr and exit status must be exactly bash's.
pub fn check_err(script: &str, stdout: impl AsRef<[u8]>, stderr: impl AsRef<[u8]>, status: i32) {
    let r = ok_result(script, run(script));
    compare(script, &r, stdout.as_ref(), Some(stderr.as_ref()), status);
}

/// The script must not parse: `Err(Error::Parse(msg))` where `msg` contains
/// `expected` (bash's wording, e.g. ``syntax error near unexpected token `fi'``).
pub fn check_parse_error(script: &str, expected: &str) {
    match run(script) {
        Err(Error::Parse(msg)) => assert!(
            msg.contains(expected),
            "\n--- script ---\n{script}\n--- parse error ---\ngot  {msg:?}\nwant it to contain {expected:?}\n"
        ),
        Err(e) => panic!("\n--- script ---\n{script}\nwant a parse error containing {expected:?}, got {e:?}"),
        Ok(r) => panic!(
            "\n--- script ---\n{script}\nwant a parse error containing {expected:?}, but it ran: status {}, stdout {}, stderr {}",
            r.exit_code,
            show(&r.stdout),
            show(&r.stderr)
        ),
    }
}
