//! The callback bridge: while a script runs, a custom builtin or a virtual-fs
//! operation becomes a message `{:ex_bashkit_call, id, request}` to the exec's
//! broker: the process that serves its callbacks (the caller of a foreground
//! exec, a job's own broker; see `ExBashkit.Session.Dispatch`), which runs the
//! application's function in a worker and hands the answer back through
//! `callback_reply/3`.
//!
//! Nothing here can hang a script: a call waits at most the callback timeout
//! plus a grace period (the broker answers timeouts itself; the grace covers a
//! broker that is gone), and a wait dropped by a cancel or a limit removes its
//! entry from the pending table (see [`Pending`]).

use crate::parked::{self, Parked};
use crate::runtime;
use rustler::{Encoder, Env, LocalPid, OwnedEnv, Term};
use sandbash::fs::{DirEntry, FsError, Metadata};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

rustler::atoms! {
    ex_bashkit_call,
}

/// A broker's answer, decoded (see `reply.rs` for the terms).
#[derive(Debug)]
pub enum Reply {
    /// A builtin's stdout, stderr and status.
    Done(Vec<u8>, Vec<u8>, i32),
    Data(Vec<u8>),
    Ok,
    Stat(Metadata),
    Entries(Vec<DirEntry>),
    Errno(FsError),
    /// The callback failed (raised, exited, timed out, answered nonsense).
    Failed(String),
}

/// How long a call may wait beyond the callback timeout before the bridge gives
/// up on the broker.
const GRACE: Duration = Duration::from_secs(5);

/// How long a call may spin for its answer before it parks. A parked runtime
/// thread takes tens of microseconds to wake on an idle machine, more than a
/// quick callback's whole round trip through the BEAM (~15 µs); see
/// [`Bridge::spin_for`] for when it spins at all.
const SPIN: Duration = Duration::from_micros(40);

pub struct Bridge {
    /// Brokers of the running execs, by exec id; a call goes to the newest.
    brokers: parking_lot::Mutex<Vec<(u64, LocalPid)>>,
    /// Calls waiting for an answer.
    pending: parking_lot::Mutex<HashMap<u64, oneshot::Sender<Reply>>>,
    /// Calls whose exec parked to wait for them (see `parked.rs`), by call id.
    parked: parking_lot::Mutex<HashMap<u64, Arc<Parked>>>,
    /// Answers that resumed their parked exec in the answering call (for tests).
    resumed: AtomicU64,
    next_id: AtomicU64,
    wait: Duration,
}

/// Removes a call's entry when its wait ends for any reason (reply, timeout, or
/// the future being dropped by a cancel), so the table never keeps stale ids.
struct Pending<'a> {
    bridge: &'a Bridge,
    id: u64,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.bridge.pending.lock().remove(&self.id);
        self.bridge.parked.lock().remove(&self.id);
    }
}

impl Bridge {
    pub fn new(callback_timeout_ms: u64) -> Arc<Self> {
        Arc::new(Bridge {
            brokers: parking_lot::Mutex::new(Vec::new()),
            pending: parking_lot::Mutex::new(HashMap::new()),
            parked: parking_lot::Mutex::new(HashMap::new()),
            resumed: AtomicU64::new(0),
            next_id: AtomicU64::new(1),
            wait: Duration::from_millis(callback_timeout_ms).saturating_add(GRACE),
        })
    }

    /// The exec `exec_id` is served by `broker` until [`Bridge::detach`].
    pub fn attach(&self, exec_id: u64, broker: LocalPid) {
        self.brokers.lock().push((exec_id, broker));
    }

    pub fn detach(&self, exec_id: u64) {
        self.brokers.lock().retain(|(id, _)| *id != exec_id);
    }

    /// Calls waiting for an answer (for tests of the cleanup).
    pub fn pending_count(&self) -> usize {
        self.pending.lock().len()
    }

    /// Send a request built by `request` and wait for its answer.
    pub async fn call<F>(&self, request: F) -> Result<Reply, String>
    where
        F: for<'a> FnOnce(Env<'a>) -> Term<'a>,
    {
        // In a slice on a BEAM thread that may park, the request is sent when
        // the slice ends and the exec waits there (see `parked.rs`); any other
        // slice on the caller's thread goes on from the runtime.
        let park = parked::collecting();
        if !park {
            sandbash::limits::inline::leave().await;
        }
        // `send_and_clear` panics on a BEAM thread; the file API runs there, and
        // virtual-fs paths are only served while a script runs anyway.
        if !park && !runtime::on_runtime_thread() {
            return Err("only available while a script runs".into());
        }
        // The broker of the exec this call is made for (read before any await:
        // the scope is the polling thread's), never another exec's.
        let exec_id = sandbash::limits::scope::current_exec_id();
        let budget = sandbash::limits::scope::current();
        let broker = self.brokers.lock().iter().find(|(id, _)| *id == exec_id).map(|(_, pid)| *pid);
        let Some(broker) = broker else {
            return Err("only available while a script runs".into());
        };
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending.lock().insert(id, tx);
        let _guard = Pending { bridge: self, id };
        let sent_at = Instant::now();
        if park {
            let env = OwnedEnv::new();
            let request = env.run(|e| env.save(request(e)));
            parked::push(parked::Call { id, broker, env, request });
        } else {
            let sent = OwnedEnv::new().send_and_clear(&broker, |env| (ex_bashkit_call(), id, request(env)).encode(env));
            if sent.is_err() {
                return Err("the callback broker is gone".into());
            }
        }
        let mut rx = rx;
        if !park && self.spin_for() {
            let until = sent_at + SPIN;
            loop {
                match rx.try_recv() {
                    Ok(reply) => return Ok(reply),
                    Err(oneshot::error::TryRecvError::Closed) => return Err("the callback broker is gone".into()),
                    Err(oneshot::error::TryRecvError::Empty) => {}
                }
                if Instant::now() >= until {
                    break;
                }
                // Yielding, not spinning: on a loaded machine the thread
                // that will answer may need this core.
                std::thread::yield_now();
            }
        }
        // Waiting on the application holds no admission slot.
        let wait = tokio::time::timeout(self.wait, rx);
        let answer = match &budget {
            Some(b) => b.idle(wait).await,
            None => wait.await,
        };
        match answer {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(_)) => Err("the callback broker is gone".into()),
            Err(_) => Err("the callback broker did not answer".into()),
        }
    }

    /// Whether a call may wait for its answer by yielding: only while the
    /// runtime has a thread for every task alive, so the wait holds up no
    /// other script (and yielding gives the core to any thread that wants it).
    /// A slow callback costs the [`SPIN`] once per call, against a wait of
    /// its own that is far longer.
    fn spin_for(&self) -> bool {
        tokio::runtime::Handle::try_current().is_ok_and(|h| {
            let m = h.metrics();
            m.num_alive_tasks() <= m.num_workers()
        })
    }

    /// The call `id` is answered by resuming `parked`.
    pub fn park(&self, id: u64, parked: Arc<Parked>) {
        self.parked.lock().insert(id, parked);
    }

    /// The parked exec waiting for call `id`, if any.
    pub fn unpark(&self, id: u64) -> Option<Arc<Parked>> {
        self.parked.lock().remove(&id)
    }

    /// An answer resumes its parked exec where it arrived.
    pub fn count_resume(&self) {
        self.resumed.fetch_add(1, Ordering::Relaxed);
    }

    /// How many answers resumed their exec where they arrived.
    pub fn resumed_count(&self) -> u64 {
        self.resumed.load(Ordering::Relaxed)
    }

    /// Hand `reply` to the call `id`; false when nobody waits for it any more.
    pub fn deliver(&self, id: u64, reply: Reply) -> bool {
        match self.pending.lock().remove(&id) {
            Some(tx) => tx.send(reply).is_ok(),
            None => false,
        }
    }
}
