//! The one tokio runtime every session's scripts run on. Its worker threads are
//! not BEAM threads, so a script that waits (sleep, a pipe, later a callback)
//! holds no scheduler, and results are sent from there with `send_and_clear`.

use std::cell::Cell;
use std::sync::OnceLock;
use tokio::runtime::Runtime;

/// Worker stack size: deep but legitimate scripts recurse in the interpreter;
/// beyond this the interpreter grows its own stack segments.
const STACK_BYTES: usize = 16 * 1024 * 1024;

static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();

thread_local! {
    static ON_RUNTIME_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Whether this thread is one of the runtime's own (never a BEAM scheduler), so
/// `OwnedEnv::send_and_clear` may be called here. `block_on` from a NIF does not count.
pub fn on_runtime_thread() -> bool {
    ON_RUNTIME_THREAD.with(Cell::get)
}

/// The shared runtime, built on first use.
pub fn get() -> Result<&'static Runtime, String> {
    RUNTIME
        .get_or_init(|| {
            let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).clamp(2, 64);
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(threads)
                .thread_name("ex_bashkit")
                .thread_stack_size(STACK_BYTES)
                .on_thread_start(|| ON_RUNTIME_THREAD.with(|f| f.set(true)))
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the interpreter runtime: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}
