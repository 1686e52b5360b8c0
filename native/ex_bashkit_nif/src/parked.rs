//! Execs that wait for a callback on the BEAM side instead of on a runtime thread.
//!
//! A script that calls a custom builtin or a virtual-fs operation during its
//! slice on the caller's thread (see `sandbash::limits::inline`) does not move
//! to the runtime to wait: its requests go to the broker from the NIF call
//! itself, the future is parked here, and the NIF that hands the broker's
//! answer back (`callback_reply/3`) polls it again, on the broker's scheduler.
//! A round trip then wakes no thread at all: the caller, the broker and the
//! worker are processes that the same scheduler runs in turn (a parked runtime
//! thread takes tens of microseconds to wake, the whole call a few).
//!
//! Anything else that must make the exec go on (a `leave` inside a slice, a
//! timer such as the exec's deadline or the call's own timeout, a cancel, the
//! caller's death) wakes the parked future's waker, which moves it to the
//! runtime: from there it goes on exactly as an exec that never parked. So a
//! parked exec is never stranded, whatever happens to the broker.

use crate::bridge::Bridge;
use rustler::env::SavedTerm;
use rustler::{Encoder, Env, LocalPid, OwnedEnv};
use sandbash::{Error, ExecResult};
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, Wake, Waker};

rustler::atoms! { ex_bashkit_call }

/// What an exec ends with: the interpreter's result, or the glue's own error.
pub type Outcome = Result<Result<ExecResult, Error>, String>;

/// An exec's whole run, as the NIF polls it.
pub type ExecFuture = Pin<Box<dyn Future<Output = Outcome> + Send>>;

/// An exec that may park: its future, and where it goes from here.
pub trait Job: Send + 'static {
    fn future(&mut self) -> Pin<&mut (dyn Future<Output = Outcome> + Send)>;
    /// Go on on the runtime; the outcome is sent to the caller from there.
    fn spawn(self: Box<Self>);
    /// The exec ended in a NIF call of `env`'s process: tell its caller.
    fn tell(self: Box<Self>, env: Env, outcome: Outcome);
}

/// A callback request made during a slice, sent when the slice ends.
pub struct Call {
    pub id: u64,
    pub broker: LocalPid,
    pub env: OwnedEnv,
    pub request: SavedTerm,
}

thread_local! {
    /// The requests made during this thread's slice, while a slice that may
    /// park runs (`None` otherwise: calls then wait on the runtime).
    static CALLS: RefCell<Option<Vec<Call>>> = const { RefCell::new(None) };
}

/// Whether a call made now may park its exec (it is made in a slice of [`drive`]).
pub fn collecting() -> bool {
    CALLS.with(|c| c.borrow().is_some())
}

/// Queue `call` to be sent when the slice ends.
pub fn push(call: Call) {
    CALLS.with(|c| {
        if let Some(calls) = c.borrow_mut().as_mut() {
            calls.push(call);
        }
    });
}

/// A parked exec, shared by its waker and the calls it waits for.
pub struct Parked {
    state: parking_lot::Mutex<State>,
}

enum State {
    /// Waiting for an answer; nobody polls it.
    Idle(Box<dyn Job>),
    /// Being polled (`woken`: it must go on after this poll, not park).
    Polling { woken: bool },
    /// Finished, or moved to the runtime.
    Gone,
}

impl Parked {
    /// A parked state for an exec whose first slice is about to run.
    pub fn new() -> Arc<Self> {
        Arc::new(Parked { state: parking_lot::Mutex::new(State::Polling { woken: false }) })
    }

    /// Take the job to poll it here, when it is parked (`None` once it has
    /// moved to the runtime or ended). Wakes until the poll starts are moot.
    fn take(&self) -> Option<Box<dyn Job>> {
        let mut st = self.state.lock();
        match std::mem::replace(&mut *st, State::Polling { woken: false }) {
            State::Idle(job) => Some(job),
            other => {
                *st = other;
                None
            }
        }
    }

    fn clear_wakes(&self) {
        if let State::Polling { woken } = &mut *self.state.lock() {
            *woken = false;
        }
    }
}

impl Wake for Parked {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let mut st = self.state.lock();
        match &mut *st {
            State::Polling { woken } => *woken = true,
            State::Gone => {}
            State::Idle(_) => {
                if let State::Idle(job) = std::mem::replace(&mut *st, State::Gone) {
                    drop(st);
                    job.spawn();
                }
            }
        }
    }
}

/// Poll `job` for a slice here, in a NIF call of `env`'s process (the parked
/// state `parked` is `Polling`). Returns the outcome when it ended; otherwise
/// it is parked waiting for the calls it made (sent now to their brokers), or
/// on the runtime.
pub fn drive(
    parked: &Arc<Parked>,
    mut job: Box<dyn Job>,
    env: Env,
    bridge: Option<&Bridge>,
) -> Option<(Box<dyn Job>, Outcome)> {
    let (polled, calls) = match crate::runtime::get() {
        Ok(rt) => {
            let _rt = rt.enter();
            let waker = Waker::from(parked.clone());
            CALLS.with(|c| *c.borrow_mut() = bridge.map(|_| Vec::new()));
            let polled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sandbash::limits::inline::poll_slice(job.future(), sandbash::limits::inline::SLICE, &waker)
            }));
            (polled, CALLS.with(|c| c.borrow_mut().take()).unwrap_or_default())
        }
        Err(m) => (Ok(Some(Poll::Ready(Err(m)))), Vec::new()),
    };
    // What the poll leaves: the outcome, a parked exec, or one to move on.
    let (ended, spawn) = {
        let mut st = parked.state.lock();
        let woken = !matches!(*st, State::Polling { woken: false });
        let (next, ended, spawn) = match polled {
            Ok(Some(Poll::Ready(outcome))) => (State::Gone, Some((job, outcome)), None),
            // The guard inside catches a script's panic; this is the glue's.
            Err(_) => (State::Gone, Some((job, Err("internal error: the exec panicked".into()))), None),
            Ok(Some(Poll::Pending)) if !woken => (State::Idle(job), None, None),
            // Woken during the poll, or too little stack here to poll at all.
            Ok(_) => (State::Gone, None, Some(job)),
        };
        *st = next;
        (ended, spawn)
    };
    if let Some(job) = spawn {
        job.spawn();
    }
    // Sent once the exec is parked (or gone on): an answer on another
    // scheduler then finds it ready to resume.
    if let Some(bridge) = bridge {
        for call in calls {
            send(bridge, parked, env, call);
        }
    }
    ended
}

/// Send a request of the slice to its broker; its answer resumes `parked`.
fn send(bridge: &Bridge, parked: &Arc<Parked>, env: Env, call: Call) {
    let Call { id, broker, env: owned, request } = call;
    bridge.park(id, parked.clone());
    let msg = owned.run(|e| (ex_bashkit_call(), id, request.load(e)).encode(e).in_env(env));
    if env.send(&broker, msg).is_err() {
        // Its wake moves the exec to the runtime, where the call ends.
        bridge.deliver(id, crate::bridge::Reply::Failed("the callback broker is gone".into()));
    }
}

/// The broker's answer `reply` to call `id`, in a NIF call of `env`'s
/// process: a parked exec goes on here; any other waits on the runtime.
pub fn answer(bridge: &Bridge, env: Env, id: u64, reply: crate::bridge::Reply) -> bool {
    let Some(parked) = bridge.unpark(id) else {
        return bridge.deliver(id, reply);
    };
    let Some(job) = parked.take() else {
        return bridge.deliver(id, reply);
    };
    bridge.count_resume();
    let delivered = bridge.deliver(id, reply);
    parked.clear_wakes();
    if let Some((job, outcome)) = drive(&parked, job, env, Some(bridge)) {
        job.tell(env, outcome);
    }
    delivered
}
