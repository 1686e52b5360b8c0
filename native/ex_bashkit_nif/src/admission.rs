//! Node-wide admission control (`ExBashkit.configure_admission/1`): the
//! settings live in the interpreter crate, these NIFs only read and set them.

use sandbash::limits::admission;

/// Set the bounds (0 keeps a value); returns the settings now in force.
#[rustler::nif]
fn admission_configure(max_running: usize, max_queued: usize, queue_timeout_ms: u64) -> (usize, usize, u64, usize) {
    let a = admission::global();
    // Lowering `max_running` only counts; no runtime is needed for it.
    a.configure(max_running, max_queued, queue_timeout_ms);
    admission_state()
}

/// `(max_running, max_queued, queue_timeout_ms, waiting)`.
#[rustler::nif]
fn admission_info() -> (usize, usize, u64, usize) {
    admission_state()
}

fn admission_state() -> (usize, usize, u64, usize) {
    let a = admission::global();
    let (r, q, t) = a.settings();
    (r, q, t, a.waiting())
}
