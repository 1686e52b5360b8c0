//! Node-wide admission control: at most `max_running` execs are runnable at
//! once, the rest wait in FIFO order, and past `max_queued` waiting a new exec
//! is refused at once (overloaded). An exec's timeout starts when it is
//! admitted, so a burst finishes in order, each script in about its own run
//! time, instead of all of them sharing the CPU round-robin and timing out
//! together.
//!
//! A slot is held only while a script can use the CPU: `sleep`, a wait on an
//! application callback and similar waits give it back ([`Budget::idle`]) and
//! queue again for one afterwards, so thousands of sleeping sessions do not
//! keep runnable ones out.
//!
//! [`Budget::idle`]: super::Budget::idle

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::LazyLock;
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, SemaphorePermit};

/// The node's admission settings and counters.
pub struct Admission {
    slots: Semaphore,
    max_running: AtomicUsize,
    max_queued: AtomicUsize,
    queue_timeout_ms: AtomicU64,
    waiting: AtomicUsize,
    /// Slots to retire as they come back (after `max_running` was lowered).
    owed: AtomicUsize,
}

/// A held slot; dropping it lets the next waiter in.
pub struct Slot {
    permit: Option<SemaphorePermit<'static>>,
    owner: &'static Admission,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let owed = &self.owner.owed;
        if owed.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok() {
            if let Some(p) = self.permit.take() {
                p.forget();
            }
        }
    }
}

/// Why an exec was not admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// More than `max_queued` execs were already waiting.
    QueueFull,
    /// It waited `queue_timeout_ms` without getting a slot.
    Waited(u64),
}

/// Defaults: as many runnable execs as cores, 10,000 waiting, 60 s of wait.
fn default_running() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).max(2)
}
const DEFAULT_MAX_QUEUED: usize = 10_000;
const DEFAULT_QUEUE_TIMEOUT_MS: u64 = 60_000;

static ADMISSION: LazyLock<Admission> =
    LazyLock::new(|| Admission::new(default_running(), DEFAULT_MAX_QUEUED, DEFAULT_QUEUE_TIMEOUT_MS));

/// The process's admission control.
pub fn global() -> &'static Admission {
    &ADMISSION
}

impl Admission {
    /// Bounds of their own (the process uses [`global`]).
    pub fn new(max_running: usize, max_queued: usize, queue_timeout_ms: u64) -> Self {
        Admission {
            slots: Semaphore::new(max_running),
            max_running: AtomicUsize::new(max_running),
            max_queued: AtomicUsize::new(max_queued),
            queue_timeout_ms: AtomicU64::new(queue_timeout_ms),
            waiting: AtomicUsize::new(0),
            owed: AtomicUsize::new(0),
        }
    }

    /// Change the bounds (0 keeps a value as it is). Shrinking takes effect as
    /// running execs give their slots back.
    pub fn configure(&'static self, max_running: usize, max_queued: usize, queue_timeout_ms: u64) {
        if max_running > 0 {
            let old = self.max_running.swap(max_running, Ordering::SeqCst);
            if max_running > old {
                self.slots.add_permits(max_running - old);
            } else if old > max_running {
                let owed = old - max_running;
                let retired = self.slots.forget_permits(owed);
                // Slots held now are retired as they come back.
                self.owed.fetch_add(owed - retired, Ordering::SeqCst);
            }
        }
        if max_queued > 0 {
            self.max_queued.store(max_queued, Ordering::SeqCst);
        }
        if queue_timeout_ms > 0 {
            self.queue_timeout_ms.store(queue_timeout_ms, Ordering::SeqCst);
        }
    }

    /// (max_running, max_queued, queue_timeout_ms).
    pub fn settings(&self) -> (usize, usize, u64) {
        (
            self.max_running.load(Ordering::Relaxed),
            self.max_queued.load(Ordering::Relaxed),
            self.queue_timeout_ms.load(Ordering::Relaxed),
        )
    }

    /// Execs waiting for a slot now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Wait for a slot (FIFO), within the queue bounds.
    pub async fn admit(&'static self) -> Result<(Slot, Duration), Refused> {
        if let Ok(p) = self.slots.try_acquire() {
            return Ok((Slot { permit: Some(p), owner: self }, Duration::ZERO));
        }
        let start = Instant::now();
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_queued.load(Ordering::Relaxed) {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(Refused::QueueFull);
        }
        let _waiting = Waiting(&self.waiting);
        let limit = Duration::from_millis(self.queue_timeout_ms.load(Ordering::Relaxed));
        match tokio::time::timeout(limit, self.slots.acquire()).await {
            Ok(Ok(p)) => Ok((Slot { permit: Some(p), owner: self }, start.elapsed())),
            // The semaphore is never closed.
            Ok(Err(_)) => Err(Refused::QueueFull),
            Err(_) => Err(Refused::Waited(limit.as_millis() as u64)),
        }
    }

    /// A slot again after an idle wait: no queue bound (the exec was admitted).
    pub async fn readmit(&'static self) -> Option<Slot> {
        self.slots.acquire().await.ok().map(|p| Slot { permit: Some(p), owner: self })
    }
}

struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(running: usize, queued: usize, wait_ms: u64) -> &'static Admission {
        Box::leak(Box::new(Admission::new(running, queued, wait_ms)))
    }

    #[tokio::test]
    async fn waiters_are_let_in_first_come_first_served() {
        let a = fresh(1, 100, 60_000);
        let (first, waited) = a.admit().await.expect("free slot");
        assert_eq!(waited, Duration::ZERO);
        let order = std::sync::Arc::new(parking_lot::Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..5 {
            let order = order.clone();
            tasks.push(tokio::spawn(async move {
                let (slot, _) = a.admit().await.expect("admitted");
                order.lock().push(i);
                drop(slot);
            }));
            // Each waiter is queued before the next one arrives.
            while a.waiting() < i + 1 {
                tokio::task::yield_now().await;
            }
        }
        drop(first);
        for t in tasks {
            t.await.expect("task");
        }
        assert_eq!(*order.lock(), vec![0, 1, 2, 3, 4]);
    }

    #[tokio::test]
    async fn past_the_queue_bound_an_exec_is_refused_at_once() {
        let a = fresh(1, 1, 60_000);
        let _held = a.admit().await.expect("free slot");
        let queued = tokio::spawn(async move { a.admit().await.map(|_| ()) });
        while a.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        assert_eq!(a.admit().await.err(), Some(Refused::QueueFull));
        queued.abort();
    }

    #[tokio::test]
    async fn the_wait_is_bounded() {
        let a = fresh(1, 10, 30);
        let _held = a.admit().await.expect("free slot");
        assert_eq!(a.admit().await.err(), Some(Refused::Waited(30)));
        assert_eq!(a.waiting(), 0);
    }

    #[tokio::test]
    async fn lowering_the_bound_retires_slots_as_they_come_back() {
        let a = fresh(3, 10, 50);
        let (s1, _) = a.admit().await.expect("1");
        let (s2, _) = a.admit().await.expect("2");
        a.configure(1, 0, 0);
        // One slot was free and is retired now; the two held are owed.
        drop(s1);
        drop(s2);
        let (_one, _) = a.admit().await.expect("the one left");
        assert_eq!(a.admit().await.err(), Some(Refused::Waited(50)));
    }
}
