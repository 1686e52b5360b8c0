//! The per-session memory budget (`max_memory_bytes`).
//!
//! Every allocation in the process goes through [`CountingAlloc`], which puts a
//! small header in front of the block naming the account that was current on
//! that thread when it was made (0: none). The free credits that account,
//! whatever thread or scope it happens in, so the count is exact: a variable
//! kept across execs stays charged to its session, a captured stdout handed to
//! the caller is credited when the caller drops it.
//!
//! Which account is current is a thread-local set by the exec's scope (see
//! [`super::scope`]). Charges of the current account are batched per thread
//! ([`FLUSH`] bytes) so the hot path is a thread-local add; the budget is
//! compared at every [`Budget::check`](super::Budget::check) and before any
//! allocation whose size a script chooses ([`super::scope::reserve`]).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::LazyLock;

/// Accounts that can be alive at once; more sessions than this run untracked
/// (each still bounded by its other limits).
const SLOTS: usize = 1 << 20;
/// Bytes a thread may charge to its current account before publishing them.
const FLUSH: i64 = 64 * 1024;

/// Bytes held per account slot. Zeroed pages cost nothing until touched.
static USED: [AtomicI64; SLOTS] = [const { AtomicI64::new(0) }; SLOTS];
/// Each slot's generation, bumped when its account is dropped: a block that
/// outlived its account (and names an older generation) credits nobody.
static GEN: [AtomicU32; SLOTS] = [const { AtomicU32::new(0) }; SLOTS];

struct SlotTable {
    free: Vec<u32>,
    next: u32,
}

static TABLE: LazyLock<parking_lot::Mutex<SlotTable>> =
    LazyLock::new(|| parking_lot::Mutex::new(SlotTable { free: Vec::new(), next: 1 }));

thread_local! {
    /// The account charged for allocations made on this thread now (0: none).
    static CURRENT: Cell<u32> = const { Cell::new(0) };
    /// Its generation.
    static CURRENT_GEN: Cell<u32> = const { Cell::new(0) };
    /// Charges of `CURRENT` not yet added to its slot.
    static PENDING: Cell<i64> = const { Cell::new(0) };
}

/// One session's memory account. Dropping it frees its slot.
#[derive(Debug)]
pub struct MemAccount {
    slot: u32,
    limit: u64,
}

impl MemAccount {
    /// A new account with `limit` bytes (`u64::MAX`: unlimited, still counted).
    pub fn new(limit: u64) -> Self {
        let slot = {
            let mut t = TABLE.lock();
            match t.free.pop() {
                Some(s) => s,
                None if (t.next as usize) < SLOTS => {
                    t.next += 1;
                    t.next - 1
                }
                None => 0,
            }
        };
        MemAccount { slot, limit }
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes held now, as far as published (each thread may hold back up to [`FLUSH`]).
    pub fn used(&self) -> u64 {
        if self.slot == 0 {
            return 0;
        }
        let mut n = USED[self.slot as usize].load(Ordering::Relaxed);
        if CURRENT.with(Cell::get) == self.slot {
            n += PENDING.with(Cell::get);
        }
        n.max(0) as u64
    }

    /// Would holding `more` bytes on top of what is held pass the limit?
    pub fn would_exceed(&self, more: u64) -> bool {
        self.limit != u64::MAX && self.used().saturating_add(more) > self.limit
    }

    pub(crate) fn slot(&self) -> u32 {
        self.slot
    }
}

impl Drop for MemAccount {
    fn drop(&mut self) {
        if self.slot == 0 {
            return;
        }
        if CURRENT.with(Cell::get) == self.slot {
            CURRENT.with(|c| c.set(0));
            CURRENT_GEN.with(|g| g.set(0));
            PENDING.with(|p| p.set(0));
        }
        // Blocks still alive that name this slot belong to a generation that
        // ends here: when freed they credit nobody, not the slot's next owner.
        GEN[self.slot as usize].fetch_add(1, Ordering::SeqCst);
        USED[self.slot as usize].store(0, Ordering::Relaxed);
        TABLE.lock().free.push(self.slot);
    }
}

/// Make `slot` the account charged on this thread; returns the previous one.
pub(crate) fn switch_to(slot: u32) -> u32 {
    let prev = CURRENT.with(Cell::get);
    if prev != slot {
        publish();
        CURRENT.with(|c| c.set(slot));
        CURRENT_GEN.with(|g| g.set(GEN[slot as usize].load(Ordering::Relaxed)));
    }
    prev
}

/// Add this thread's held-back charges to the current account.
pub(crate) fn publish() {
    let slot = CURRENT.with(Cell::get);
    let p = PENDING.with(|p| p.replace(0));
    if slot != 0 && p != 0 {
        USED[slot as usize].fetch_add(p, Ordering::Relaxed);
    }
}

#[inline]
fn charge(slot: u32, gen: u32, delta: i64) {
    if slot == 0 || GEN[slot as usize].load(Ordering::Relaxed) != gen {
        return;
    }
    if CURRENT.with(Cell::get) == slot {
        let p = PENDING.with(|c| {
            let v = c.get() + delta;
            c.set(v);
            v
        });
        if !(-FLUSH..=FLUSH).contains(&p) {
            PENDING.with(|c| c.set(0));
            USED[slot as usize].fetch_add(p, Ordering::Relaxed);
        }
    } else {
        USED[slot as usize].fetch_add(delta, Ordering::Relaxed);
    }
}

/// mimalloc with an owner header on every block (see the module docs).
pub struct CountingAlloc;

/// Header bytes in front of a block of this alignment; the owner's slot is
/// stored in the 4 bytes just before the pointer handed out, its generation
/// in the 4 before those.
#[inline]
fn header(align: usize) -> usize {
    align.max(8)
}

#[inline]
unsafe fn base_layout(layout: Layout) -> Option<Layout> {
    let h = header(layout.align());
    Layout::from_size_align(layout.size().checked_add(h)?, layout.align().max(8)).ok()
}

static INNER: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe impl GlobalAlloc for CountingAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.alloc_with(layout, false)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.alloc_with(layout, true)
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let h = header(layout.align());
        let slot = ptr.sub(4).cast::<u32>().read();
        let gen = ptr.sub(8).cast::<u32>().read();
        charge(slot, gen, -(layout.size() as i64));
        // SAFETY: the block was allocated by `alloc_with` with this base layout.
        let base = base_layout(layout).unwrap_or(layout);
        INNER.dealloc(ptr.sub(h), base);
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let h = header(layout.align());
        let (Some(old_base), Some(new_total)) = (base_layout(layout), new_size.checked_add(h)) else {
            return std::ptr::null_mut();
        };
        let slot = ptr.sub(4).cast::<u32>().read();
        let gen = ptr.sub(8).cast::<u32>().read();
        let p = INNER.realloc(ptr.sub(h), old_base, new_total);
        if p.is_null() {
            return p;
        }
        charge(slot, gen, new_size as i64 - layout.size() as i64);
        p.add(h)
    }
}

impl CountingAlloc {
    #[inline]
    unsafe fn alloc_with(&self, layout: Layout, zeroed: bool) -> *mut u8 {
        let Some(base) = base_layout(layout) else {
            return std::ptr::null_mut();
        };
        let p = if zeroed { INNER.alloc_zeroed(base) } else { INNER.alloc(base) };
        if p.is_null() {
            return p;
        }
        let h = header(layout.align());
        let user = p.add(h);
        let slot = CURRENT.with(Cell::get);
        let gen = CURRENT_GEN.with(Cell::get);
        user.sub(4).cast::<u32>().write(slot);
        user.sub(8).cast::<u32>().write(gen);
        charge(slot, gen, layout.size() as i64);
        user
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_charged_to_the_current_account_and_credited_anywhere() {
        let acc = MemAccount::new(1 << 20);
        let prev = switch_to(acc.slot());
        let v: Vec<u8> = vec![1; 300_000];
        let big = acc.used();
        switch_to(prev);
        assert!(big >= 300_000, "{big}");
        assert!(acc.would_exceed(800_000));
        // Freed outside the scope, on another thread: still credited.
        std::thread::spawn(move || drop(v)).join().expect("join");
        assert!(acc.used() < 100_000, "{}", acc.used());
    }

    #[test]
    fn blocks_that_outlive_their_account_credit_nobody() {
        let old = MemAccount::new(u64::MAX);
        let slot = old.slot();
        let prev = switch_to(slot);
        let leftover: Vec<u8> = vec![1; 200_000];
        switch_to(prev);
        drop(old);
        // The slot may be handed out again; the leftover must not credit the new owner.
        let new = MemAccount::new(u64::MAX);
        let prev = switch_to(new.slot());
        let mine: Vec<u8> = vec![2; 100_000];
        publish();
        switch_to(prev);
        drop(leftover);
        assert!(new.used() >= 100_000, "{}", new.used());
        drop(mine);
    }

    #[test]
    fn growth_by_realloc_is_charged() {
        let acc = MemAccount::new(u64::MAX);
        let prev = switch_to(acc.slot());
        let mut s = String::new();
        for _ in 0..100_000 {
            s.push_str("abc");
        }
        publish();
        let held = acc.used();
        switch_to(prev);
        assert!(held >= 300_000, "{held}");
        drop(s);
        assert!(acc.used() < 64 * 1024, "{}", acc.used());
    }

    #[test]
    fn over_aligned_blocks_keep_their_alignment() {
        #[repr(align(64))]
        struct A([u8; 64]);
        let v: Vec<A> = (0..10).map(|_| A([0; 64])).collect();
        assert_eq!(v.as_ptr() as usize % 64, 0);
    }
}
