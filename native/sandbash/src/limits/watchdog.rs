//! The last line: an exec past its deadline (or its cancel) by [`GRACE`] is
//! answered as stopped even when the worker running it is stuck in some
//! computation that does not look at the clock.
//!
//! Every exec registers its budget here for as long as it runs ([`watch`]).
//! One thread for the whole process looks at them: when one is late, it gives
//! the exec's admission slot back (others may run) and calls the exec's
//! [`OnFire`] with the reason, the command it is in and what it printed so
//! far; the embedder answers its caller from there. The exec itself goes on
//! until its worker comes back, then ends with that same stop, and its result
//! is for nobody (see [`Watch::fired`]).

use super::{Budget, Stop};
use crate::io::CaptureBuf;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

/// How late an exec may be before the watchdog answers for it. The exec's
/// own timer answers at the deadline; this is for a worker that cannot.
pub const GRACE: Duration = Duration::from_millis(90);
/// The longest the watchdog sleeps while execs run (a deadline can move
/// while an exec waits for its turn, and a cancel can come at any time).
const TICK: Duration = Duration::from_millis(10);
/// Ticks without a watch before the thread sleeps until the next one.
const IDLE_TICKS: u32 = 100;

static TEST_HOOKS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Let scripts run `__stuck MS`, which holds its worker without looking at
/// the clock (for tests of the watchdog; never in production).
pub fn enable_test_hooks() {
    TEST_HOOKS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`enable_test_hooks`] was called.
pub fn test_hooks() -> bool {
    TEST_HOOKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// What the watchdog tells the embedder.
pub struct Fired {
    pub reason: Stop,
    /// The command the exec was in (a utility's name, `parse`, ...), if known.
    pub command: Option<Arc<str>>,
    /// stdout and stderr so far (for `partial: true`).
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Called once, on the watchdog's thread, when the exec is answered for.
pub type OnFire = Arc<dyn Fn(Fired) + Send + Sync>;

struct Entry {
    budget: Arc<Budget>,
    outputs: Option<(Arc<CaptureBuf>, Arc<CaptureBuf>)>,
    on_fire: Option<OnFire>,
    /// When the watchdog first saw the exec cancelled.
    cancelled_at: Option<Instant>,
    fired: Arc<std::sync::atomic::AtomicBool>,
}

struct Table {
    entries: Vec<Option<Entry>>,
    free: Vec<usize>,
    live: usize,
    /// The thread waits without a timeout (nothing watched for a while): a
    /// new watch must wake it. While it ticks, a watch costs no wake-up (a
    /// wake-up per exec was a third of a small exec's time).
    asleep: bool,
}

struct Dog {
    table: parking_lot::Mutex<Table>,
    wake: parking_lot::Condvar,
}

static DOG: LazyLock<Dog> = LazyLock::new(|| {
    let dog = Dog {
        table: parking_lot::Mutex::new(Table { entries: Vec::new(), free: Vec::new(), live: 0, asleep: false }),
        wake: parking_lot::Condvar::new(),
    };
    // Without the thread nothing is answered late; the exec still ends itself.
    let _ = std::thread::Builder::new().name("sandbash-watchdog".into()).stack_size(256 * 1024).spawn(run);
    dog
});

/// An exec being watched; dropping it ends the watch.
pub struct Watch {
    index: usize,
    fired: Arc<std::sync::atomic::AtomicBool>,
}

impl Watch {
    /// Whether the watchdog answered for this exec (its result is then for nobody).
    pub fn fired(&self) -> bool {
        self.fired.load(std::sync::atomic::Ordering::Acquire)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut t = DOG.table.lock();
        if let Some(slot) = t.entries.get_mut(self.index) {
            if slot.take().is_some() {
                t.live -= 1;
                t.free.push(self.index);
            }
        }
    }
}

/// Watch the exec running under `budget` until the guard drops.
pub fn watch(
    budget: Arc<Budget>,
    outputs: Option<(Arc<CaptureBuf>, Arc<CaptureBuf>)>,
    on_fire: Option<OnFire>,
) -> Watch {
    let fired = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let entry = Entry { budget, outputs, on_fire, cancelled_at: None, fired: fired.clone() };
    let mut t = DOG.table.lock();
    let index = match t.free.pop() {
        Some(i) => {
            t.entries[i] = Some(entry);
            i
        }
        None => {
            t.entries.push(Some(entry));
            t.entries.len() - 1
        }
    };
    t.live += 1;
    let wake = std::mem::take(&mut t.asleep);
    drop(t);
    if wake {
        DOG.wake.notify_one();
    }
    Watch { index, fired }
}

fn run() {
    let dog = &*DOG;
    let mut t = dog.table.lock();
    let mut idle_ticks = 0u32;
    loop {
        if t.live == 0 {
            // Ticking on through a second of quiet, then asleep until a watch.
            idle_ticks += 1;
            if idle_ticks > IDLE_TICKS {
                t.asleep = true;
                dog.wake.wait(&mut t);
                idle_ticks = 0;
            } else {
                dog.wake.wait_for(&mut t, TICK);
            }
            continue;
        }
        idle_ticks = 0;
        let now = Instant::now();
        let mut due: Vec<(OnFire, Fired)> = Vec::new();
        for e in t.entries.iter_mut().flatten() {
            if e.fired.load(std::sync::atomic::Ordering::Relaxed) {
                continue;
            }
            let reason = late(e, now);
            let Some(reason) = reason else { continue };
            e.fired.store(true, std::sync::atomic::Ordering::Release);
            // Others may run in the slot the stuck exec holds.
            e.budget.release_slot();
            let (stdout, stderr) = e.outputs.as_ref().map_or((Vec::new(), Vec::new()), |(o, r)| (o.take(), r.take()));
            let command = e.budget.command();
            if let Some(f) = e.on_fire.take() {
                due.push((f, Fired { reason, command, stdout, stderr }));
            }
        }
        if !due.is_empty() {
            // The callbacks run without the table (they may start or end watches).
            drop(t);
            for (f, fired) in due {
                f(fired);
            }
            t = dog.table.lock();
            continue;
        }
        dog.wake.wait_for(&mut t, TICK);
    }
}

/// Why `e` is to be answered for now, if it is late.
fn late(e: &mut Entry, now: Instant) -> Option<Stop> {
    if e.budget.cancel_token().is_cancelled() {
        let at = *e.cancelled_at.get_or_insert(now);
        if now >= at + GRACE {
            return Some(Stop::Cancelled);
        }
    }
    let deadline = e.budget.deadline()?;
    (now >= deadline + GRACE).then(|| Stop::Timeout(e.budget.limits.timeout_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{CancelToken, Limits};

    #[test]
    fn a_stuck_exec_is_answered_for_and_its_slot_given_back() {
        let budget = Budget::new(Limits { timeout_ms: 50, ..Limits::default() }, CancelToken::default());
        budget.set_command("diff");
        let (tx, rx) = std::sync::mpsc::channel();
        let w = watch(budget, None, Some(Arc::new(move |f: Fired| drop(tx.send((f.reason, f.command))))));
        // The "worker" never looks at the clock; the watchdog answers.
        let (reason, command) = rx.recv_timeout(Duration::from_secs(30)).expect("answered");
        assert_eq!(reason, Stop::Timeout(50));
        assert_eq!(command.as_deref(), Some("diff"));
        assert!(w.fired());
    }

    #[test]
    fn a_cancelled_exec_is_answered_for_after_the_grace() {
        let cancel = CancelToken::default();
        let budget = Budget::new(Limits { timeout_ms: 600_000, ..Limits::default() }, cancel.clone());
        let (tx, rx) = std::sync::mpsc::channel();
        let w = watch(budget, None, Some(Arc::new(move |f: Fired| drop(tx.send(f.reason)))));
        assert!(rx.recv_timeout(GRACE * 3).is_err(), "nothing to answer yet");
        cancel.cancel();
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(Stop::Cancelled));
        drop(w);
    }

    #[test]
    fn a_watch_wakes_the_thread_once_it_sleeps() {
        // Let the thread fall asleep (other tests' watches may delay it).
        let started = Instant::now();
        let _ = LazyLock::force(&DOG);
        while !DOG.table.lock().asleep && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(TICK * 10);
        }
        let budget = Budget::new(Limits { timeout_ms: 20, ..Limits::default() }, CancelToken::default());
        let (tx, rx) = std::sync::mpsc::channel();
        let w = watch(budget, None, Some(Arc::new(move |f: Fired| drop(tx.send(f.reason)))));
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(Stop::Timeout(20)));
        drop(w);
    }
}
