//! An exec's first slice on the caller's thread (`limits::inline`), as the NIF
//! runs it on a BEAM scheduler: a thread with a 1 MiB stack. Whatever the
//! script, the slice must not overflow that stack, and the exec must end as it
//! ends when it runs wholly on the runtime.

use sandbash::limits::inline::{poll_first_slice_within, SLICE};
use sandbash::{Bash, ExecResult};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::sync::Mutex;

/// A BEAM scheduler's stack (`+sss` 128 kilowords).
const STACK: usize = 1 << 20;
/// Long enough that only the other reasons to leave remain, even in a debug build.
const LONG: Duration = Duration::from_secs(30);

type Exec = Pin<Box<dyn Future<Output = (Vec<u8>, Vec<u8>, i32)> + Send>>;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
        .expect("runtime")
}

fn exec(bash: &Arc<Mutex<Bash>>, script: &str) -> Exec {
    let (bash, script) = (bash.clone(), script.to_string());
    Box::pin(async move {
        match bash.lock().await.exec(&script).await {
            Ok(ExecResult { stdout, stderr, exit_code, .. }) => (stdout, stderr, exit_code),
            Err(e) => (Vec::new(), e.to_string().into_bytes(), -1),
        }
    })
}

/// Run `script` with a first slice of `slice` on a 1 MiB thread; the result,
/// and whether the slice finished it.
fn sliced(script: &str, slice: Duration) -> ((Vec<u8>, Vec<u8>, i32), bool) {
    let rt = Arc::new(runtime());
    let bash = Arc::new(Mutex::new(Bash::builder().build().expect("session")));
    let mut fut = exec(&bash, script);
    let handle = rt.handle().clone();
    let first = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let _in = handle.enter();
            let r = poll_first_slice_within(fut.as_mut(), slice);
            (r, fut)
        })
        .expect("thread")
        .join()
        .expect("the slice's thread survived");
    match first {
        (Some(Poll::Ready(out)), _) => (out, true),
        (_, rest) => (rt.block_on(async move { rt_spawned(rest).await }), false),
    }
}

async fn rt_spawned(rest: Exec) -> (Vec<u8>, Vec<u8>, i32) {
    tokio::spawn(rest).await.expect("the rest ran on the runtime")
}

/// The same script wholly on the runtime.
fn plain(script: &str) -> (Vec<u8>, Vec<u8>, i32) {
    let rt = runtime();
    let bash = Arc::new(Mutex::new(Bash::builder().build().expect("session")));
    rt.block_on(async { tokio::spawn(exec(&bash, script)).await.expect("exec") })
}

fn same_as_plain(script: &str, slice: Duration) -> bool {
    let (out, finished) = sliced(script, slice);
    let want = plain(script);
    assert_eq!(
        (String::from_utf8_lossy(&out.0), String::from_utf8_lossy(&out.1), out.2),
        (String::from_utf8_lossy(&want.0), String::from_utf8_lossy(&want.1), want.2),
        "{script}"
    );
    finished
}

#[test]
fn a_short_script_ends_in_its_first_slice() {
    let script = "x=1; echo hi $((x + 1)); f() { echo f$1; }; f 2";
    let (out, finished) = sliced(script, LONG);
    assert!(finished);
    assert_eq!(out, (b"hi 2\nf2\n".to_vec(), Vec::new(), 0));
}

#[test]
fn utilities_run_on_the_runtime() {
    assert!(!same_as_plain("printf 'b\\na\\n' | sort; echo x > /tmp/f; cat /tmp/f", LONG));
    assert!(!same_as_plain("mapfile -t a < <(echo 1; echo 2); echo ${#a[@]}", LONG));
}

#[test]
fn a_long_loop_leaves_when_its_slice_is_spent() {
    assert!(!same_as_plain("s=0; for ((i=0; i<20000; i++)); do s=$((s + i)); done; echo $s", SLICE));
    assert!(!same_as_plain("i=0; while ((i < 20000)); do ((i++)); done; echo $i", SLICE));
}

#[test]
fn large_data_is_not_worked_on_in_the_slice() {
    assert!(!same_as_plain("x=$(printf '%*s' 300000 ''); echo ${#x}", LONG));
    assert!(!same_as_plain("echo {1..20000} | wc -c", LONG));
    assert!(!same_as_plain("eval \"$(printf 'y=1;%.0s' {1..30000})\"; echo $y", LONG));
}

#[test]
fn deep_scripts_do_not_overflow_the_callers_stack() {
    // Function recursion, `$( )` nesting, eval nesting, deep arithmetic and a
    // deeply nested parse: each moves to the runtime before the stack runs out.
    same_as_plain("f() { local n=$1; (( n > 0 )) && f $((n - 1)); echo -n .; }; f 2000 | wc -c", LONG);
    same_as_plain("f() { (( $1 > 0 )) && echo $(f $(($1 - 1))) || echo end; }; f 60", LONG);
    same_as_plain("e='echo in'; for i in $(seq 40); do e=\"eval '${e//\\'/\\'\\\\\\'\\'}'\"; done; eval \"$e\"", LONG);
    let open = "(".repeat(400);
    let close = ")".repeat(400);
    same_as_plain(&format!("echo $(( {open}1{close} ))"), LONG);
    same_as_plain(&format!("echo $(( {open}1{close} + {open}2{close} ))"), LONG);
    same_as_plain("a=1; for i in {1..300}; do a=\"($a)\"; done; echo $((a))", LONG);
    let nested: String = (0..60).map(|_| "( ").collect::<String>() + "echo deep" + &" )".repeat(60);
    same_as_plain(&nested, LONG);
    let ifs: String = (0..30).map(|_| "if true; then ").collect::<String>() + "echo if" + &"; fi".repeat(30);
    same_as_plain(&ifs, LONG);
    same_as_plain("[[ a && a && a && a && a && a && a && a && a && a && a && a ]] && echo yes", LONG);
}

#[test]
fn errors_and_exit_statuses_are_those_of_the_plain_run() {
    same_as_plain("echo out; echo err >&2; exit 3", LONG);
    same_as_plain("set -e; false; echo never", LONG);
    same_as_plain("echo $((1/0)); echo after", LONG);
    same_as_plain("unset x; echo ${x?gone}; echo after", LONG);
    same_as_plain("f() { return 4; }; f; echo $?", LONG);
}
