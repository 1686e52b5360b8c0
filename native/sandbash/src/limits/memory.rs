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
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering};
use std::sync::LazyLock;

/// Accounts that can be alive at once; more sessions than this run untracked
/// (each still bounded by its other limits).
const SLOTS: usize = 1 << 20;
/// Bytes a thread may charge to its current account before publishing them.
const FLUSH: i64 = 64 * 1024;
/// Blocks at least this big are charged to a foreign account at once.
const BIG: i64 = 4096;

/// Bytes held per account slot. Zeroed pages cost nothing until touched.
static USED: [AtomicI64; SLOTS] = [const { AtomicI64::new(0) }; SLOTS];
/// Each slot's generation, bumped when its account is dropped: a block that
/// outlived its account (and names an older generation) credits nobody.
static GEN: [AtomicU32; SLOTS] = [const { AtomicU32::new(0) }; SLOTS];

/// Each slot's budget, so a charge that passes it can make the thread's next
/// checkpoint look at the budget at once. Stored plus one (0: none), so the
/// table is zeroed memory, which costs nothing until touched.
static LIMIT: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
/// The most each slot's account held at once (as published), for the
/// property tests and benchmarks that bound a script's working set.
static PEAK: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
/// Bytes held by every live account together.
static TOTAL: AtomicI64 = AtomicI64::new(0);
/// What all accounts together may hold (see [`process_ceiling`]).
static CEILING: AtomicU64 = AtomicU64::new(u64::MAX);

/// Publish `delta` bytes to `slot`'s account; a charge that takes it past its
/// budget, or the process past its ceiling, arms the thread's next checkpoint.
#[inline]
fn add(slot: u32, delta: i64) {
    let n = USED[slot as usize].fetch_add(delta, Ordering::Relaxed).saturating_add(delta);
    let total = TOTAL.fetch_add(delta, Ordering::Relaxed).saturating_add(delta);
    if delta > 0 {
        PEAK[slot as usize].fetch_max(n.max(0) as u64, Ordering::Relaxed);
    }
    let limit = LIMIT[slot as usize].load(Ordering::Relaxed);
    if delta > 0 && ((limit != 0 && n.max(0) as u64 >= limit) || total.max(0) as u64 > CEILING.load(Ordering::Relaxed))
    {
        super::scope::arm_checkpoint();
    }
}

/// Set what all sessions together may hold: a reservation that would take
/// the process past it is refused, whatever the session's own budget says.
pub fn set_process_ceiling(bytes: u64) {
    CEILING_SET.call_once(|| {});
    CEILING.store(bytes, Ordering::Relaxed);
}

static CEILING_SET: std::sync::Once = std::sync::Once::new();

/// The ceiling now: set by [`set_process_ceiling`], or else derived once
/// from the limits the process runs under (an address-space rlimit, a
/// cgroup's memory limit): half of what is left of them when the first
/// account opens, as the allocator's own overhead and the runtime's stacks
/// and reservations need the rest. Without such a limit, none.
pub fn process_ceiling() -> u64 {
    CEILING_SET.call_once(|| CEILING.store(derived_ceiling(), Ordering::Relaxed));
    CEILING.load(Ordering::Relaxed)
}

/// Bytes held by every live account together.
pub fn process_used() -> u64 {
    TOTAL.load(Ordering::Relaxed).max(0) as u64
}

fn derived_ceiling() -> u64 {
    let mut room = u64::MAX;
    // `Max address space  N  N  bytes` (or `unlimited`).
    if let Ok(limits) = std::fs::read_to_string("/proc/self/limits") {
        let soft = limits.lines().find(|l| l.starts_with("Max address space")).and_then(|l| {
            l.trim_start_matches("Max address space").split_whitespace().next().and_then(|v| v.parse::<u64>().ok())
        });
        if let Some(limit) = soft {
            let size = std::fs::read_to_string("/proc/self/statm")
                .ok()
                .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()))
                .map_or(0, |pages| pages.saturating_mul(4096));
            room = room.min(limit.saturating_sub(size));
        }
    }
    let cgroup = |f: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{f}")).ok()?.trim().parse::<u64>().ok();
    if let (Some(max), current) = (cgroup("memory.max"), cgroup("memory.current")) {
        room = room.min(max.saturating_sub(current.unwrap_or(0)));
    }
    if room == u64::MAX {
        u64::MAX
    } else {
        room / 2
    }
}

struct SlotTable {
    free: Vec<u32>,
    next: u32,
}

static TABLE: LazyLock<parking_lot::Mutex<SlotTable>> =
    LazyLock::new(|| parking_lot::Mutex::new(SlotTable { free: Vec::new(), next: 1 }));

/// What a thread charges now: one thread-local, read once per allocation.
#[derive(Clone, Copy)]
struct Current {
    /// The account charged for allocations made on this thread (0: none).
    slot: u32,
    /// Its generation.
    gen: u32,
    /// Charges not yet added to the slot.
    pending: i64,
}

/// Credits (and reallocs) of blocks owned by an account that is not this
/// thread's current one, held back like [`Current::pending`]: freeing a
/// session's results or state outside its scope is common (the caller drops
/// the output, the snapshot of an exec is dropped after it), and an atomic
/// add per free costed more than the rest of the free.
#[derive(Clone, Copy)]
struct Other {
    slot: u32,
    gen: u32,
    pending: i64,
}

thread_local! {
    static CURRENT: Cell<Current> = const { Cell::new(Current { slot: 0, gen: 0, pending: 0 }) };
    static OTHER: Cell<Other> = const { Cell::new(Other { slot: 0, gen: 0, pending: 0 }) };
}

/// Publish the held-back charges of a foreign account, if it still lives.
#[inline]
fn flush_other(o: Other) {
    if o.slot != 0 && o.pending != 0 && GEN[o.slot as usize].load(Ordering::Relaxed) == o.gen {
        add(o.slot, o.pending);
    }
}

#[inline]
fn current() -> Current {
    CURRENT.with(Cell::get)
}

#[inline]
fn set_current(c: Current) {
    CURRENT.with(|cell| cell.set(c));
}

/// One session's memory account. Dropping it frees its slot.
#[derive(Debug)]
pub struct MemAccount {
    slot: u32,
    limit: u64,
}

extern "C" {
    // mimalloc's own setter (the `extended` bindings are not enabled).
    fn mi_option_set(option: i32, value: std::ffi::c_long);
}

/// mimalloc's `mi_option_purge_delay`.
const MI_OPTION_PURGE_DELAY: i32 = 15;
const PURGE_DELAY_MS: std::ffi::c_long = 100;

/// Freed memory goes back to the system after [`PURGE_DELAY_MS`] rather than
/// mimalloc's default second: a session stopped at its budget must not leave
/// the process holding its pages (peak RSS stays near the budgets, not twice
/// them). Not at once either: the next exec reuses the pages of the last one
/// (purging at once made sort/cut/uniq on 10 MB 10-20% slower, all in the
/// kernel zeroing the same pages again) -- except while some session holds
/// more than half its budget ([`press`]): then what it frees as it grows must
/// not linger (that kept 40-60 MB more resident under the memory bombs).
fn purge_promptly() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: a plain setter of an integer option, valid at any time.
    ONCE.call_once(|| unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) });
}

/// Set while purging is immediate (see [`purge_promptly`]).
static PRESSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A session is near its budget: freed pages go back at once.
fn press() {
    if !PRESSED.swap(true, Ordering::Relaxed) {
        // SAFETY: a plain setter of an integer option, valid at any time.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}

/// An exec ended well below its budget: back to the short delay (another
/// session near its own presses again at its next check).
pub(crate) fn relax() {
    if PRESSED.swap(false, Ordering::Relaxed) {
        // SAFETY: as in `press`.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }
}

impl MemAccount {
    /// A new account with `limit` bytes (`u64::MAX`: unlimited, still counted).
    pub fn new(limit: u64) -> Self {
        purge_promptly();
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
        LIMIT[slot as usize].store(if slot == 0 { 0 } else { limit.saturating_add(1) }, Ordering::Relaxed);
        PEAK[slot as usize].store(0, Ordering::Relaxed);
        process_ceiling();
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
        let c = current();
        if c.slot == self.slot {
            n += c.pending;
        }
        let o = OTHER.with(Cell::get);
        if o.slot == self.slot && GEN[o.slot as usize].load(Ordering::Relaxed) == o.gen {
            n += o.pending;
        }
        n.max(0) as u64
    }

    /// Would holding `more` bytes on top of what is held pass the limit?
    pub fn would_exceed(&self, more: u64) -> bool {
        if self.limit == u64::MAX {
            return false;
        }
        let used = self.used();
        if used > self.limit / 2 {
            press();
        }
        used.saturating_add(more) > self.limit
    }

    /// The most this account held at once since it opened or since
    /// [`reset_peak`](Self::reset_peak) (as far as published: each thread
    /// holds back up to 64 KiB).
    pub fn peak(&self) -> u64 {
        if self.slot == 0 {
            return 0;
        }
        publish();
        PEAK[self.slot as usize].load(Ordering::Relaxed).max(self.used())
    }

    /// Start measuring [`peak`](Self::peak) from what is held now.
    pub fn reset_peak(&self) {
        if self.slot != 0 {
            PEAK[self.slot as usize].store(self.used(), Ordering::Relaxed);
        }
    }

    /// Would `more` bytes take the process past its ceiling? A session that
    /// asks for nothing more is only stopped when it holds a large share
    /// (an eighth) of what all hold, so small sessions go on.
    pub fn would_pass_ceiling(&self, more: u64) -> bool {
        let ceiling = CEILING.load(Ordering::Relaxed);
        if ceiling == u64::MAX {
            return false;
        }
        let total = process_used();
        if more == 0 {
            return total > ceiling && self.used() > total / 8;
        }
        total.saturating_add(more) > ceiling
    }

    /// Called when an exec ends: purging goes back to its short delay if
    /// this session holds less than half its budget.
    pub fn exec_ended(&self) {
        if self.limit == u64::MAX || self.used() <= self.limit / 2 {
            relax();
        }
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
        if current().slot == self.slot {
            set_current(Current { slot: 0, gen: 0, pending: 0 });
        }
        // Blocks still alive that name this slot belong to a generation that
        // ends here: when freed they credit nobody, not the slot's next owner.
        GEN[self.slot as usize].fetch_add(1, Ordering::SeqCst);
        let held = USED[self.slot as usize].swap(0, Ordering::Relaxed);
        TOTAL.fetch_sub(held, Ordering::Relaxed);
        TABLE.lock().free.push(self.slot);
    }
}

/// The account charged on this thread now (0: none).
pub(crate) fn current_slot() -> u32 {
    current().slot
}

/// Make `slot` the account charged on this thread; returns the previous one.
pub(crate) fn switch_to(slot: u32) -> u32 {
    let prev = current().slot;
    if prev != slot {
        publish();
        set_current(Current { slot, gen: GEN[slot as usize].load(Ordering::Relaxed), pending: 0 });
    }
    prev
}

/// Add this thread's held-back charges to the current account.
pub(crate) fn publish() {
    let c = current();
    if c.slot != 0 && c.pending != 0 {
        add(c.slot, c.pending);
        set_current(Current { pending: 0, ..c });
    }
    let o = OTHER.with(Cell::get);
    if o.pending != 0 {
        flush_other(o);
        OTHER.with(|cell| cell.set(Other { pending: 0, ..o }));
    }
}

/// Charge `delta` bytes to the owner of a block (`slot`, `gen`). The current
/// account's charges stay thread-local until they pass [`FLUSH`]; another
/// account's go straight to its counter, if that account still lives.
#[inline(always)]
fn charge(slot: u32, gen: u32, delta: i64) {
    if slot == 0 {
        return;
    }
    let c = current();
    if owner_key(c.slot, c.gen) == owner_key(slot, gen) {
        let p = c.pending + delta;
        if (-FLUSH..=FLUSH).contains(&p) {
            set_current(Current { pending: p, ..c });
        } else {
            add(slot, p);
            set_current(Current { pending: 0, ..c });
        }
    } else {
        charge_other(slot, gen, delta);
    }
}

/// Slot and generation as one word (one compare, one header store).
#[inline(always)]
fn owner_key(slot: u32, gen: u32) -> u64 {
    u64::from(slot) | (u64::from(gen) << 32)
}

/// [`charge`] for a block of another account than the current one.
#[inline(never)]
fn charge_other(slot: u32, gen: u32, delta: i64) {
    // A big block goes straight to its account: the atomic is cheap beside
    // the free, and a thread that ends holds back only small change.
    if !(-BIG..=BIG).contains(&delta) {
        flush_other(Other { slot, gen, pending: delta });
        return;
    }
    OTHER.with(|cell| {
        let o = cell.get();
        if o.slot == slot && o.gen == gen {
            let p = o.pending + delta;
            if (-FLUSH..=FLUSH).contains(&p) {
                cell.set(Other { pending: p, ..o });
                return;
            }
            flush_other(Other { pending: p, ..o });
            cell.set(Other { pending: 0, ..o });
        } else {
            flush_other(o);
            cell.set(Other { slot, gen, pending: delta });
        }
    });
}

/// mimalloc with an owner header on every block (see the module docs).
pub struct CountingAlloc;

/// What a block of `size` bytes is charged: its size with the header, rounded
/// up to mimalloc's 16-byte granule. The requested size alone undercounts small
/// blocks several times (a one-byte string holds a 16-byte block): four million
/// one-character array elements were charged 200 MB and held 680 MB.
#[inline(always)]
fn charged(size: usize) -> i64 {
    (size.saturating_add(8 + 15) & !15) as i64
}

/// Header bytes in front of a block of this alignment; the owner's slot and
/// generation ([`owner_key`]) are the 8 bytes just before the pointer handed out.
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

/// Blocks whose alignment mimalloc's plain entry points always give (their
/// base size is at least 16 bytes, so it is 16-aligned).
const PLAIN_ALIGN: usize = 8;

// Never inlined into their callers: the header lies before the pointer the
// caller gets, and once the allocator's body is visible where the block is
// used, LLVM may treat the access at `ptr - 8` as out of the allocated object
// (undefined behaviour) -- inlining `alloc_with` everywhere made a release
// build compile `select`'s menu to an illegal instruction.
unsafe impl GlobalAlloc for CountingAlloc {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.alloc_with(layout, false)
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.alloc_with(layout, true)
    }

    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let h = header(layout.align());
        let key = ptr.sub(8).cast::<u64>().read();
        charge(key as u32, (key >> 32) as u32, -charged(layout.size()));
        if layout.align() <= PLAIN_ALIGN {
            libmimalloc_sys::mi_free(ptr.sub(h).cast());
            return;
        }
        // SAFETY: the block was allocated by `alloc_with` with this base layout.
        let base = base_layout(layout).unwrap_or(layout);
        INNER.dealloc(ptr.sub(h), base);
    }

    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let h = header(layout.align());
        let (Some(old_base), Some(new_total)) = (base_layout(layout), new_size.checked_add(h)) else {
            return std::ptr::null_mut();
        };
        let key = ptr.sub(8).cast::<u64>().read();
        let (slot, gen) = (key as u32, (key >> 32) as u32);
        let p = if layout.align() <= PLAIN_ALIGN {
            libmimalloc_sys::mi_realloc(ptr.sub(h).cast(), new_total).cast::<u8>()
        } else {
            INNER.realloc(ptr.sub(h), old_base, new_total)
        };
        if p.is_null() {
            return p;
        }
        charge(slot, gen, charged(new_size) - charged(layout.size()));
        p.add(h)
    }
}

impl CountingAlloc {
    #[inline(always)]
    unsafe fn alloc_with(&self, layout: Layout, zeroed: bool) -> *mut u8 {
        let p = if layout.align() <= PLAIN_ALIGN {
            // The common case, without building a Layout.
            let Some(total) = layout.size().checked_add(8) else {
                return std::ptr::null_mut();
            };
            if zeroed {
                libmimalloc_sys::mi_zalloc(total).cast::<u8>()
            } else {
                libmimalloc_sys::mi_malloc(total).cast::<u8>()
            }
        } else {
            let Some(base) = base_layout(layout) else {
                return std::ptr::null_mut();
            };
            if zeroed {
                INNER.alloc_zeroed(base)
            } else {
                INNER.alloc(base)
            }
        };
        if p.is_null() {
            return p;
        }
        let h = header(layout.align());
        let user = p.add(h);
        let c = current();
        user.sub(8).cast::<u64>().write(owner_key(c.slot, c.gen));
        if c.slot != 0 {
            let p = c.pending + charged(layout.size());
            if p <= FLUSH {
                set_current(Current { pending: p, ..c });
            } else {
                add(c.slot, p);
                set_current(Current { pending: 0, ..c });
            }
        }
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
    fn small_blocks_are_charged_what_they_hold() {
        let acc = MemAccount::new(u64::MAX);
        let prev = switch_to(acc.slot());
        let v: Vec<Box<u8>> = (0..10_000).map(|i| Box::new(i as u8)).collect();
        publish();
        let held = acc.used();
        switch_to(prev);
        // Each one-byte box holds a 16-byte block (header included).
        assert!(held >= 10_000 * 16 + 80_000, "{held}");
        drop(v);
    }

    #[test]
    fn the_process_ceiling_refuses_what_all_sessions_together_cannot_hold() {
        let a = MemAccount::new(u64::MAX);
        let prev = switch_to(a.slot());
        let v: Vec<u8> = vec![1; 4 << 20];
        publish();
        switch_to(prev);
        // Far above what the other tests running beside this one hold.
        let before = CEILING.swap(process_used() + (64 << 20), Ordering::Relaxed);
        assert!(a.would_pass_ceiling(128 << 20));
        assert!(!a.would_pass_ceiling(1000));
        CEILING.store(before, Ordering::Relaxed);
        assert!(!a.would_exceed(2 << 20));
        drop(v);
    }

    #[test]
    fn over_aligned_blocks_keep_their_alignment() {
        #[repr(align(64))]
        struct A([u8; 64]);
        let v: Vec<A> = (0..10).map(|_| A([0; 64])).collect();
        assert_eq!(v.as_ptr() as usize % 64, 0);
    }
}
