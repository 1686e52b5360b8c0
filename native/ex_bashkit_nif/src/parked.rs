//! Execs that wait for a callback on the BEAM side instead of on a runtime thread.
//!
//! Every exec is driven here, not as a plain tokio task. A script that calls a
//! custom builtin or a virtual-fs operation does not wait for the answer on a
//! thread: its requests go to the broker when the poll that made them ends,
//! and the future is parked. The NIF that hands the broker's answer back
//! (`callback_reply/3`) polls it again right there, on the broker's scheduler,
//! for one slice (see `sandbash::limits::inline`). A round trip then wakes no
//! thread at all: the caller, the broker and the worker are processes that the
//! same scheduler runs in turn (a parked runtime thread takes tens of
//! microseconds to wake, the whole call a few).
//!
//! Anything else that must make the exec go on (a `leave` inside a slice, a
//! timer such as the exec's deadline or the call's own timeout, a cancel, the
//! caller's death, a lock or pipe it waits on) wakes the parked future's
//! waker, which polls it on the runtime until it ends or parks again. So a
//! parked exec is never stranded, whatever happens to the broker, and one that
//! moved to the runtime (for a utility, say) still gets its later answers the
//! short way.

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

/// An exec that may park: its future, and how its caller is told.
pub trait Job: Send + 'static {
    fn future(&mut self) -> Pin<&mut (dyn Future<Output = Outcome> + Send)>;
    /// It is about to be polled on the runtime (the first time or again).
    fn on_runtime(&self);
    /// The exec ended on a runtime thread: tell its caller from there.
    fn tell_from_runtime(self: Box<Self>, outcome: Outcome);
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
    /// Where its calls go (`None`: a session without callbacks).
    bridge: Option<Arc<Bridge>>,
}

/// What a poll leaves (see [`Parked::settle`]).
enum After {
    Ended(Box<dyn Job>, Outcome),
    Parked,
    Again(Box<dyn Job>),
}

enum State {
    /// Waiting; nobody polls it until a wake or an answer.
    Idle(Box<dyn Job>),
    /// Being polled, or about to be (`woken`: poll again rather than park).
    Polling { woken: bool },
    /// Finished.
    Gone,
}

impl Parked {
    /// The parked state of an exec about to be polled for the first time.
    pub fn new(bridge: Option<Arc<Bridge>>) -> Arc<Self> {
        Arc::new(Parked { state: parking_lot::Mutex::new(State::Polling { woken: false }), bridge })
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

    /// Where a poll of `job` leaves it: ended, parked (Idle), or to be polled
    /// again (`polled` is `None`: too little stack here to poll at all).
    fn settle(&self, job: Box<dyn Job>, polled: std::thread::Result<Option<Poll<Outcome>>>) -> After {
        let mut st = self.state.lock();
        let woken = !matches!(*st, State::Polling { woken: false });
        let (next, after) = match polled {
            Ok(Some(Poll::Ready(outcome))) => (State::Gone, After::Ended(job, outcome)),
            // The guard inside catches a script's panic; this is the glue's.
            Err(_) => (State::Gone, After::Ended(job, Err(PANICKED.into()))),
            Ok(Some(Poll::Pending)) if !woken => (State::Idle(job), After::Parked),
            // Woken during the poll, or not polled.
            Ok(_) => (State::Polling { woken: false }, After::Again(job)),
        };
        *st = next;
        after
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
                if let State::Idle(job) = std::mem::replace(&mut *st, State::Polling { woken: false }) {
                    drop(st);
                    spawn(self.clone(), job);
                }
            }
        }
    }
}

/// Poll `job` for a slice here, in a NIF call of `env`'s process (the parked
/// state `parked` is `Polling`). Returns the outcome when it ended; otherwise
/// it is parked waiting (its calls sent now to their brokers), or polled on
/// the runtime.
pub fn drive(parked: &Arc<Parked>, mut job: Box<dyn Job>, env: Env) -> Option<(Box<dyn Job>, Outcome)> {
    let (polled, calls) = match crate::runtime::get() {
        Ok(rt) => {
            let _rt = rt.enter();
            let waker = Waker::from(parked.clone());
            collect(parked, || sandbash::limits::inline::poll_slice(job.future(), SLICE, &waker))
        }
        Err(m) => (Ok(Some(Poll::Ready(Err(m)))), Vec::new()),
    };
    let ended = match parked.settle(job, polled) {
        After::Ended(job, outcome) => Some((job, outcome)),
        After::Parked => None,
        After::Again(job) => {
            spawn(parked.clone(), job);
            None
        }
    };
    // Sent once the exec is parked (or gone on): an answer on another
    // scheduler then finds it ready to resume.
    for call in calls {
        send(parked, call, |broker, call| {
            let msg = call.env.run(|e| (ex_bashkit_call(), call.id, call.request.load(e)).encode(e).in_env(env));
            env.send(broker, msg).is_ok()
        });
    }
    ended
}

const SLICE: std::time::Duration = sandbash::limits::inline::SLICE;
const PANICKED: &str = "internal error: the exec panicked";

/// Run `poll` collecting the calls it makes (when the exec has callbacks).
fn collect<R>(parked: &Parked, poll: impl FnOnce() -> R) -> (std::thread::Result<R>, Vec<Call>) {
    CALLS.with(|c| *c.borrow_mut() = parked.bridge.as_ref().map(|_| Vec::new()));
    let polled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(poll));
    (polled, CALLS.with(|c| c.borrow_mut().take()).unwrap_or_default())
}

/// Poll `job` on the runtime until it ends or parks (the state is `Polling`).
pub fn spawn(parked: Arc<Parked>, job: Box<dyn Job>) {
    let Ok(rt) = crate::runtime::get() else {
        // No runtime was ever built: then no exec started either.
        return;
    };
    job.on_runtime();
    let mut slot = Some(job);
    rt.spawn(std::future::poll_fn(move |cx| {
        let Some(mut job) = slot.take() else { return Poll::Ready(()) };
        parked.clear_wakes();
        let waker = Waker::from(parked.clone());
        let (polled, calls) = collect(&parked, || Some(job.future().poll(&mut std::task::Context::from_waker(&waker))));
        let (ended, again) = match parked.settle(job, polled) {
            After::Ended(job, outcome) => (Some((job, outcome)), false),
            After::Parked => (None, false),
            // Woken while polled: poll again, taking turns with other tasks.
            After::Again(job) => {
                slot = Some(job);
                (None, true)
            }
        };
        for call in calls {
            send(&parked, call, |broker, mut call| {
                let (id, request) = (call.id, call.request);
                call.env.send_and_clear(broker, |e| (ex_bashkit_call(), id, request.load(e))).is_ok()
            });
        }
        if let Some((job, outcome)) = ended {
            job.tell_from_runtime(outcome);
        }
        if again {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Poll::Ready(())
    }));
}

/// Send a request to its broker with `deliver`; its answer resumes `parked`.
fn send(parked: &Arc<Parked>, call: Call, deliver: impl FnOnce(&LocalPid, Call) -> bool) {
    let Some(bridge) = &parked.bridge else { return };
    let (id, broker) = (call.id, call.broker);
    bridge.park(id, parked.clone());
    if !deliver(&broker, call) {
        // The answer wakes the exec, and the call ends with it.
        bridge.unpark(id);
        bridge.deliver(id, crate::bridge::Reply::Failed("the callback broker is gone".into()));
    }
}

/// The broker's answer `reply` to call `id`, in a NIF call of `env`'s
/// process: a parked exec goes on here; any other gets it where it waits.
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
    if let Some((job, outcome)) = drive(&parked, job, env) {
        job.tell(env, outcome);
    }
    delivered
}
