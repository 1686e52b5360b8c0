//! See tests/adversarial.rs. The last line: a worker stuck in something that
//! never looks at the clock (`__stuck`, a test hook standing in for such an
//! algorithm) is answered for once its exec is past its deadline or its
//! cancel, and the session is as it was before that exec.

use sandbash::limits::watchdog::{self, Fired, GRACE};
use sandbash::limits::CancelToken;
use sandbash::{Bash, Error, ExecOptions, Limits};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Far longer than the answer takes (the deadline and the grace); the tests
/// tell the watchdog's answer from the worker's own by what each says.
const STUCK_MS: u64 = 3_000;
const GENEROUS: Duration = Duration::from_secs(10);

fn on_fire() -> (watchdog::OnFire, mpsc::Receiver<(Fired, Instant)>) {
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let f: watchdog::OnFire = Arc::new(move |f| {
        let _ = tx.lock().map(|t| t.send((f, Instant::now())));
    });
    (f, rx)
}

/// Run `script` in a session on a thread of its own; the caller waits for
/// the watchdog, not for the thread.
fn start(
    bash: Bash,
    script: &str,
    opts: ExecOptions,
) -> std::thread::JoinHandle<(Bash, Result<sandbash::ExecResult, Error>)> {
    let script = script.to_string();
    std::thread::spawn(move || {
        let mut bash = bash;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let r = rt.block_on(bash.exec_with(&script, opts));
        (bash, r)
    })
}

#[test]
fn a_stuck_worker_is_answered_for_at_its_deadline() {
    watchdog::enable_test_hooks();
    let limits = Limits { timeout_ms: 200, ..Limits::default() };
    let mut bash = Bash::builder().limits(limits).build().expect("build");
    futures_util::FutureExt::now_or_never(bash.exec("kept=1")).expect("ready").expect("exec");
    let (f, rx) = on_fire();
    let started = Instant::now();
    let run = start(
        bash,
        &format!("kept=2; echo partial; __stuck {STUCK_MS}; echo never"),
        ExecOptions { on_watchdog: Some(f), ..ExecOptions::default() },
    );
    let (fired, at) = rx.recv_timeout(GENEROUS).expect("the watchdog answered");
    assert!(at - started >= Duration::from_millis(200) + GRACE, "not before the deadline and the grace");
    assert_eq!(fired.reason.to_string(), "execution timed out after 200 ms (timeout_ms)");
    assert_eq!(fired.command.as_deref(), Some("__stuck"));
    assert_eq!(fired.stdout, b"partial\n");
    // The worker comes back later; its exec ends with the same stop, undone.
    let (mut bash, r) = run.join().expect("join");
    assert!(matches!(r, Err(Error::Stopped { .. })), "{r:?}");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let after = rt.block_on(bash.exec("echo $kept")).expect("usable");
    assert_eq!(after.stdout, b"1\n");
}

#[test]
fn a_stuck_worker_is_answered_for_after_a_cancel() {
    watchdog::enable_test_hooks();
    let bash = Bash::builder().build().expect("build");
    let (f, rx) = on_fire();
    let cancel = CancelToken::default();
    let opts = ExecOptions { on_watchdog: Some(f), cancel: cancel.clone(), ..ExecOptions::default() };
    let run = start(bash, &format!("__stuck {STUCK_MS}"), opts);
    std::thread::sleep(Duration::from_millis(100));
    cancel.cancel();
    let cancelled = Instant::now();
    let (fired, at) = rx.recv_timeout(GENEROUS).expect("the watchdog answered");
    assert_eq!(fired.reason.to_string(), "execution cancelled");
    assert!(at - cancelled >= GRACE);
    drop(run);
}

#[test]
fn the_cli_answers_for_a_stuck_worker() {
    let started = Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandbash"))
        .env("SANDBASH_TEST_HOOKS", "1")
        .env("SANDBASH_TIMEOUT_MS", "200")
        .args(["-c", &format!("echo partial; __stuck {STUCK_MS}; echo never")])
        .output()
        .expect("run");
    assert!(started.elapsed() < GENEROUS, "{:?}", started.elapsed());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"partial\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err, "sandbash: execution timed out after 200 ms (timeout_ms) (stuck in __stuck)\n");
}

#[test]
fn without_test_hooks_the_stand_in_is_no_command() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandbash"))
        .args(["-c", "__stuck 100000; echo $?"])
        .output()
        .expect("run");
    assert_eq!(out.stdout, b"127\n");
}
