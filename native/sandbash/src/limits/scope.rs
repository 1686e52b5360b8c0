//! The exec a thread is working for, so code far from the interpreter (a
//! pattern matcher, a utility's inner loop, an evaluator's recursion) can stop
//! in time without a budget passed down to it:
//!
//! - [`checkpoint`]: cheap enough for every turn of an inner loop; every
//!   [`CHECK_EVERY`] calls it looks at the deadline, cancellation and memory;
//! - [`stack_low`]: true when a recursion must stop before it overflows the
//!   native stack (which in a NIF would kill the whole node);
//! - [`reserve`]: before allocating a size the script chose.
//!
//! The exec's future is wrapped in [`Scoped`], which installs its budget and
//! memory account on whatever thread polls it; threads of their own (jq,
//! python) call [`enter`] for their whole run.

use super::memory::{self, MemAccount};
use super::{Budget, Stop};
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// Inner-loop turns between two looks at the clock (a few microseconds of work).
pub const CHECK_EVERY: u32 = 1024;

/// Stack that must be left for a recursion to go one level deeper. Generous:
/// the frames between two checks (regex compilation, a utility's evaluator)
/// can be large.
pub const STACK_RED_ZONE: usize = 256 * 1024;

thread_local! {
    static BUDGET: Cell<*const Budget> = const { Cell::new(std::ptr::null()) };
    static TURNS: Cell<u32> = const { Cell::new(0) };
    /// When this thread last began to poll an exec's future ([`Scoped`]).
    static POLLED_AT: Cell<Option<std::time::Instant>> = const { Cell::new(None) };
}

/// When this thread last began to poll an exec's future.
pub fn polled_at() -> Option<std::time::Instant> {
    POLLED_AT.with(Cell::get)
}

/// Restores the previous scope when dropped.
pub struct ScopeGuard {
    prev_budget: *const Budget,
    prev_slot: u32,
}

impl Drop for ScopeGuard {
    fn drop(&mut self) {
        BUDGET.with(|b| b.set(self.prev_budget));
        memory::switch_to(self.prev_slot);
    }
}

/// Work on this thread is for `budget` (and its memory account) until the guard drops.
/// The budget must outlive the guard.
pub fn enter(budget: &Arc<Budget>) -> ScopeGuard {
    let prev_budget = BUDGET.with(|b| b.replace(Arc::as_ptr(budget)));
    let slot = budget.memory().map_or(0, MemAccount::slot);
    ScopeGuard { prev_budget, prev_slot: memory::switch_to(slot) }
}

/// The budget this thread works for, as an `Arc` a thread of its own (jq,
/// python) can [`enter`] for its whole run, even past the command's future.
pub fn current() -> Option<Arc<Budget>> {
    let p = BUDGET.with(Cell::get);
    if p.is_null() {
        return None;
    }
    // SAFETY: every pointer stored in BUDGET comes from `Arc::as_ptr` of an
    // `Arc<Budget>` that a live `ScopeGuard` borrows (see `enter`), so the
    // allocation is alive; taking one more strong count keeps it so.
    unsafe {
        Arc::increment_strong_count(p);
        Some(Arc::from_raw(p))
    }
}

/// Allocations on this thread are charged to `account` until the guard drops
/// (building a session: its initial files belong to it).
pub fn enter_account(account: &MemAccount) -> ScopeGuard {
    let prev_budget = BUDGET.with(Cell::get);
    ScopeGuard { prev_budget, prev_slot: memory::switch_to(account.slot()) }
}

/// Run `f` with what it allocates charged to no session: a node-wide cache
/// filled during one session's exec serves them all and outlives it.
pub fn uncharged<R>(f: impl FnOnce() -> R) -> R {
    struct Back(u32);
    impl Drop for Back {
        fn drop(&mut self) {
            memory::switch_to(self.0);
        }
    }
    let _back = Back(memory::switch_to(0));
    f()
}

/// This thread's scope (budget and memory account), to be entered on a
/// thread of its own (a deep parse): what it allocates stays charged.
pub struct Carried {
    budget: Option<Arc<Budget>>,
    slot: u32,
}

impl Carried {
    pub fn here() -> Self {
        Carried { budget: current(), slot: memory::current_slot() }
    }

    /// Enter it on this thread until the guard drops.
    pub fn enter(&self) -> ScopeGuard {
        let prev_budget = BUDGET.with(|b| b.replace(self.budget.as_ref().map_or(std::ptr::null(), Arc::as_ptr)));
        ScopeGuard { prev_budget, prev_slot: memory::switch_to(self.slot) }
    }
}

/// Runs `f` with the current budget, if this thread works for an exec.
pub fn with_budget<R>(f: impl FnOnce(&Budget) -> R) -> Option<R> {
    let p = BUDGET.with(Cell::get);
    // SAFETY: the pointer is set only while a `ScopeGuard` borrowing a live
    // `Arc<Budget>` exists on this thread, and cleared when it drops.
    unsafe { p.as_ref() }.map(f)
}

/// The embedder's number of the exec this thread works for (0: none, or no exec).
pub fn current_exec_id() -> u64 {
    with_budget(Budget::exec_id).unwrap_or(0)
}

/// Make this thread's next [`checkpoint`] look at the budget (the allocator
/// saw an account pass its budget).
#[inline]
pub(crate) fn arm_checkpoint() {
    let _ = TURNS.try_with(|t| t.set(CHECK_EVERY - 1));
}

/// One turn of an inner loop. `Err` when the exec must stop (deadline,
/// cancel, memory or another limit); outside an exec always `Ok`.
#[inline]
pub fn checkpoint() -> Result<(), Stop> {
    let n = TURNS.with(|t| {
        let n = t.get().wrapping_add(1);
        t.set(n);
        n
    });
    if !n.is_multiple_of(CHECK_EVERY) {
        return Ok(());
    }
    check_now()
}

/// [`checkpoint`] for a turn that does `units` turns' worth of work (a row
/// of a long multiplication: one unit per limb), so a heavy loop looks at
/// the clock as often in time as a light one.
#[inline]
pub fn checkpoint_work(units: usize) -> Result<(), Stop> {
    let units = u32::try_from(units).unwrap_or(u32::MAX).max(1);
    let crossed = TURNS.with(|t| {
        let before = t.get();
        let after = before.wrapping_add(units);
        t.set(after);
        after < before || before / CHECK_EVERY != after / CHECK_EVERY
    });
    if crossed {
        check_now()
    } else {
        Ok(())
    }
}

/// Look at the budget now (see [`checkpoint`]).
#[cold]
pub fn check_now() -> Result<(), Stop> {
    with_budget(Budget::check).unwrap_or(Ok(()))
}

/// Is the native stack nearly used up? A recursion checks this before going
/// deeper and fails cleanly instead.
#[inline]
pub fn stack_low() -> bool {
    stacker::remaining_stack().is_some_and(|r| r < STACK_RED_ZONE)
}

/// Stop the exec this thread works for (at its next check) with `stop`: for
/// sync code that cannot return a `Stop` through its callers.
pub fn stop_exec(stop: Stop) {
    with_budget(|b| b.stop_from_job(stop));
    // Every loop on this thread sees it at its next checkpoint, not in a
    // thousand turns.
    arm_checkpoint();
}

/// [`reserve`] and [`checkpoint`] for a sync loop that builds output: false
/// (and the exec stops, see [`stop_exec`]) when it must end.
pub fn may_grow(bytes: u64) -> bool {
    match reserve(bytes).and_then(|()| checkpoint()) {
        Ok(()) => true,
        Err(stop) => {
            stop_exec(stop);
            false
        }
    }
}

/// `out.extend_from_slice(add)` within the memory budget: a growing `Vec`
/// doubles its capacity, and while it moves, the old and the new buffer are
/// both held, so the new capacity is reserved before it is allocated. False
/// (nothing added, the exec stops) when the budget cannot hold it.
pub fn extend_within_budget(out: &mut Vec<u8>, add: &[u8]) -> bool {
    let need = out.len().saturating_add(add.len());
    if need > out.capacity() {
        let new_cap = need.max(out.capacity().saturating_mul(2));
        if !may_grow(new_cap as u64) {
            return false;
        }
        out.reserve_exact(new_cap - out.len());
    } else if !may_grow(0) {
        return false;
    }
    out.extend_from_slice(add);
    true
}

/// Before allocating `bytes` whose number the script chose: `Err` if the
/// session's memory budget cannot hold them.
pub fn reserve(bytes: u64) -> Result<(), Stop> {
    with_budget(|b| b.reserve(bytes)).unwrap_or(Ok(()))
}

/// Before pushing onto `v`: `Err` if a full buffer's doubling would not fit.
/// The allocator counts a vector's growth only once it happened, and the
/// new buffer (twice the old, beside it) is the one allocation too big for
/// the next checkpoint to catch in time.
#[inline]
pub fn before_push<T>(v: &Vec<T>) -> Result<(), Stop> {
    if v.len() == v.capacity() && v.capacity() >= 4096 {
        reserve((v.capacity() as u64).saturating_mul(2 * std::mem::size_of::<T>() as u64))
    } else {
        Ok(())
    }
}

/// A future that runs under a budget's scope on every poll.
pub struct Scoped<F> {
    budget: Arc<Budget>,
    fut: std::mem::ManuallyDrop<Pin<Box<F>>>,
}

impl<F: Future> Scoped<F> {
    pub fn new(budget: Arc<Budget>, fut: F) -> Self {
        Scoped { budget, fut: std::mem::ManuallyDrop::new(Box::pin(fut)) }
    }
}

impl<F> Drop for Scoped<F> {
    fn drop(&mut self) {
        // What the future frees as it is dropped is credited in its own
        // scope (a thread-local sum), not one foreign credit per block.
        let _g = enter(&self.budget);
        // SAFETY: dropped once, here; `fut` is not used after.
        unsafe { std::mem::ManuallyDrop::drop(&mut self.fut) }
    }
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        let _g = enter(&this.budget);
        POLLED_AT.with(|p| p.set(Some(std::time::Instant::now())));
        this.fut.as_mut().poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{CancelToken, Limits};

    #[test]
    fn checkpoint_sees_cancellation_within_a_bounded_number_of_turns() {
        let cancel = CancelToken::default();
        let budget = Budget::new(Limits::default(), cancel.clone());
        let _g = enter(&budget);
        assert!(checkpoint().is_ok());
        cancel.cancel();
        let stopped = (0..=CHECK_EVERY).find(|_| checkpoint().is_err());
        assert!(stopped.is_some());
        assert_eq!(check_now(), Err(Stop::Cancelled));
    }

    #[test]
    fn outside_an_exec_nothing_stops() {
        assert!(check_now().is_ok());
        assert!(reserve(u64::MAX).is_ok());
    }

    #[test]
    fn a_full_vector_asks_before_it_doubles() {
        let budget = Budget::new(Limits { max_memory_bytes: 1 << 20, ..Limits::default() }, CancelToken::default());
        budget.set_memory(Arc::new(MemAccount::new(1 << 20)));
        let _g = enter(&budget);
        // 64 K of u64 (512 KiB) would double to 1 MiB beside the old buffer.
        let mut v: Vec<u64> = Vec::with_capacity(1 << 16);
        v.resize(v.capacity() - 1, 0);
        assert!(before_push(&v).is_ok(), "room left: no growth to ask for");
        v.push(0);
        assert!(before_push(&v).is_err(), "a doubling past the budget is refused");
        // Small vectors grow without asking (the checkpoints catch them).
        let small: Vec<u64> = vec![0; 64];
        assert!(before_push(&small).is_ok());
    }

    #[test]
    fn reserve_refuses_what_the_budget_cannot_hold() {
        let budget = Budget::new(Limits { max_memory_bytes: 1 << 20, ..Limits::default() }, CancelToken::default());
        budget.set_memory(Arc::new(MemAccount::new(1 << 20)));
        let _g = enter(&budget);
        assert!(reserve(1000).is_ok());
        let e = reserve(2 << 20).unwrap_err();
        assert_eq!(e.to_string(), "memory limit exceeded (max_memory_bytes: 1048576)");
    }
}
