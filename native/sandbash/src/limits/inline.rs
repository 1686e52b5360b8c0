//! An exec's first slice, run on the caller's own thread.
//!
//! Handing a short script to a runtime thread costs more than running it: the
//! parked thread must be woken, and its answer must wake the caller again (tens
//! of microseconds on an idle machine, more on a busy one, against 3 µs for
//! `echo hi`). So an embedder may poll the exec once on its own thread with
//! [`poll_first_slice`]; whatever is not done in that slice continues on the
//! runtime, from where it stopped.
//!
//! The caller's thread may be one that must never be held long or overflow (a
//! BEAM scheduler), so inside the slice the interpreter leaves (returns
//! `Pending`, to be spawned and resumed on the runtime) before anything that
//! could be long or deep:
//!
//! - at every command once [`SLICE`] has passed or the session holds more than
//!   [`MEMORY`] (the data a later command could work on is then small);
//! - before every utility and python command (their inner loops do not come
//!   back to the interpreter); an embedder's command is called inside the
//!   slice (its input copied first, leaving when large), so its handler must
//!   not block: it leaves itself or waits without holding the thread (the
//!   NIF's bridge parks the exec on the caller's side);
//! - before a brace expansion, `mapfile`, a large `printf` field, a parameter
//!   whose value is large, or a parse of large text;
//! - when the stack left is below [`STACK_FLOOR`] (a poll nests deeper than
//!   the caller's stack may hold; runtime threads have room to grow).

use super::Budget;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

/// Work done on the caller's thread before the rest moves to the runtime.
pub const SLICE: Duration = Duration::from_micros(200);
/// Bytes a session may hold for its commands to run on the caller's thread
/// (its files, and the data a builtin could read whole, stay small).
pub const MEMORY: u64 = 8 << 20;
/// Stack the caller's thread must have left for a slice to start there.
pub const STACK_NEEDED: usize = 640 * 1024;
/// Below this much stack, a nested poll leaves for the runtime instead of
/// going deeper (the frames between two polls of a command stay well under it).
pub const STACK_FLOOR: usize = 384 * 1024;
/// A value, or text for `eval` or `source`, above which the step leaves.
pub const BYTES: usize = 64 * 1024;

thread_local! {
    /// When this thread's slice ends, while it runs one.
    static SLICE_END: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Poll `fut` once on this thread, as its first slice. `None` when this thread
/// has too little stack for it (nothing was polled). On `Pending` the future
/// has been woken and must be spawned on the runtime, which resumes it; the
/// caller must be inside the runtime's context (`Runtime::enter`).
pub fn poll_first_slice<F: Future + ?Sized>(fut: Pin<&mut F>) -> Option<Poll<F::Output>> {
    poll_first_slice_within(fut, SLICE)
}

/// [`poll_first_slice`] with a slice of `slice` (tests make it long, so only
/// the other reasons to leave are left).
pub fn poll_first_slice_within<F: Future + ?Sized>(fut: Pin<&mut F>, slice: Duration) -> Option<Poll<F::Output>> {
    poll_slice(fut, slice, Waker::noop())
}

/// Poll `fut` for one slice on this thread with `waker`: an embedder that
/// parks the future between slices (waiting on the caller's side for a
/// callback's answer) is told by `waker` when it must go on elsewhere (a
/// [`leave`], a timer, a cancel). `None` when this thread has too little stack.
pub fn poll_slice<F: Future + ?Sized>(fut: Pin<&mut F>, slice: Duration, waker: &Waker) -> Option<Poll<F::Output>> {
    if stacker::remaining_stack().is_none_or(|r| r < STACK_NEEDED) {
        return None;
    }
    let prev = SLICE_END.with(|s| s.replace(Some(Instant::now() + slice)));
    let r = fut.poll(&mut Context::from_waker(waker));
    SLICE_END.with(|s| s.set(prev));
    Some(r)
}

/// Whether this thread is running a first slice.
pub fn active() -> bool {
    SLICE_END.with(Cell::get).is_some()
}

/// Leave the caller's thread now, if on it; the rest runs on the runtime.
pub fn leave() -> Leave {
    Leave(false)
}

/// Leave before a step of `n` items or bytes when `n` passes `limit`.
pub async fn leave_above(n: usize, limit: usize) {
    if n > limit && active() {
        leave().await;
    }
}

/// At a command: leave once the slice is spent or the session holds much.
pub async fn at_command(budget: &Budget) {
    if slice_spent(budget) {
        leave().await;
    }
}

/// On a caller's thread, whether the next command must leave it.
pub fn slice_spent(budget: &Budget) -> bool {
    let Some(end) = SLICE_END.with(Cell::get) else {
        return false;
    };
    Instant::now() >= end || budget.memory().is_some_and(|m| m.used() > MEMORY)
}

/// Whether a poll nested this deep must leave rather than go on (see [`STACK_FLOOR`]).
pub fn stack_too_low() -> bool {
    active() && stacker::remaining_stack().is_none_or(|r| r < STACK_FLOOR)
}

/// `Pending` once when on the caller's thread (waking itself, so it is polled
/// again once spawned); `Ready` on the runtime.
pub struct Leave(bool);

impl Future for Leave {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 || !active() {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_runs_until_the_first_leave_and_the_rest_finishes_elsewhere() {
        let steps = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let s = steps.clone();
        let mut fut = Box::pin(async move {
            s.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            leave().await;
            s.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            7
        });
        // A test thread has a big stack; a slice starts there.
        assert!(matches!(poll_first_slice(fut.as_mut()), Some(Poll::Pending)));
        assert_eq!(steps.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert!(!active(), "the slice ended with the poll");
        // Off the slice, `leave` is ready at once.
        let out = futures_util::FutureExt::now_or_never(fut);
        assert_eq!(out, Some(7));
        assert_eq!(steps.load(std::sync::atomic::Ordering::SeqCst), 2);
    }

    #[test]
    fn without_a_slice_nothing_leaves() {
        let out = futures_util::FutureExt::now_or_never(async {
            leave().await;
            leave_above(1 << 30, 1).await;
            1
        });
        assert_eq!(out, Some(1));
    }
}
