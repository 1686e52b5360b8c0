//! The session resource and the NIFs that create it, run scripts in it and
//! cancel them.
//!
//! `exec_start` runs a small script's first slice on the caller's thread and
//! returns `{:done, outcome}` when that finished it; otherwise the rest goes on
//! on the shared runtime, or parked while it waits for a callback (resumed by
//! the answer on the broker's scheduler: see `parked.rs`), and its outcome
//! arrives as `{tag, outcome}`. A session's tokio
//! mutex runs its execs one at a time without blocking any thread while waiting.
//! The caller is monitored while its exec runs: if it dies, the exec is cancelled.

use crate::bridge::Bridge;
use crate::options::{bridge, builder, ExecOpts, NewOpts};
use crate::parked::{ExecFuture, Job, Outcome, Parked};
use crate::runtime;
use crate::terms::{self, err};
use rustler::{Encoder, Env, LocalPid, Monitor, OwnedEnv, ResourceArc, Term};
use sandbash::fs::Fs;
use sandbash::limits::CancelToken;
use sandbash::session::jobs::Jobs;
use sandbash::session::markers::Markers;
use sandbash::{Bash, Error, ExecOptions, ExecResult};
use std::collections::HashMap;
use std::sync::Arc;

/// Largest script and stdin that may start on the caller's thread.
const INLINE_SCRIPT: usize = 16 * 1024;
const INLINE_STDIN: usize = 64 * 1024;

rustler::atoms! { done, watchdog }

/// An exec that has started and not yet finished.
struct Running {
    caller: LocalPid,
    cancel: CancelToken,
    monitor: Option<Monitor>,
}

/// `await_job/3` callers waiting for a job's end: the last waiter id, and how
/// to call off each wait.
pub type Waiters = (u64, HashMap<u64, tokio::sync::oneshot::Sender<()>>);

pub struct Session {
    pub bash: Arc<tokio::sync::Mutex<Bash>>,
    /// The session's filesystem, reachable without the lock (file API while a script runs).
    pub fs: Arc<dyn Fs>,
    /// Custom builtins and virtual-fs calls go through here (`None` without them).
    pub bridge: Option<Arc<Bridge>>,
    /// The in-memory filesystem itself (change tracking diffs its exports).
    pub mem: Arc<sandbash::fs::MemoryFs>,
    /// Every mount point of the tree this session sees (host and virtual).
    pub mount_points: Vec<String>,
    /// Baselines of `changes/2`.
    pub markers: parking_lot::Mutex<Markers>,
    /// The command history, readable without the lock (`None` when off).
    pub history: Option<sandbash::state::history::HistoryHandle>,
    /// The aliases, readable and changeable without the lock.
    pub aliases: sandbash::session::AliasesHandle,
    /// Background jobs; cancelled when the session is dropped.
    pub jobs: Arc<Jobs>,
    /// `await_job/3` callers waiting for a message, by waiter id.
    pub waiters: Arc<parking_lot::Mutex<Waiters>>,
    /// The checkpoint chain's base (`ExBashkit.Server`'s incremental checkpoints).
    pub checkpoints: parking_lot::Mutex<crate::checkpoint::Checkpoints>,
    running: parking_lot::Mutex<(u64, HashMap<u64, Running>)>,
    /// Set while an exec the watchdog answered for still holds its worker
    /// (the command it is stuck in): new execs are refused until it is free.
    stuck: Arc<parking_lot::Mutex<Option<String>>>,
}

#[rustler::resource_impl]
impl rustler::Resource for Session {
    /// A caller died: cancel the execs it started.
    fn down<'a>(&'a self, _env: Env<'a>, pid: LocalPid, _monitor: Monitor) {
        for r in self.running.lock().1.values().filter(|r| r.caller == pid) {
            r.cancel.cancel();
        }
    }
}

impl Drop for Session {
    /// The handle was garbage-collected: background jobs end with it.
    fn drop(&mut self) {
        self.jobs.cancel_all();
    }
}

// The mutexes are never observed half-updated across a caught panic: the
// interpreter restores its state on a panic, and the fs keeps its own invariants.
impl std::panic::RefUnwindSafe for Session {}

#[rustler::nif]
fn session_new<'a>(env: Env<'a>, opts: NewOpts<'a>) -> Term<'a> {
    // A shared workspace uses its source's filesystem, mounts and callback
    // bridge (so virtual-fs calls reach the same backends), minus refused mounts.
    let (bridge, mount_points) = match &opts.workspace {
        Some(src) => (src.bridge.clone(), src.mount_points.clone()),
        None => {
            let mut points: Vec<String> = opts.virtual_fs.clone();
            points.extend(opts.mounts.iter().map(|(vfs, _, _)| vfs.clone()));
            (bridge(&opts), points)
        }
    };
    let built = builder(&opts, bridge.as_ref()).and_then(|mut b| {
        if let Some(src) = &opts.workspace {
            if let Some(allowed) = &opts.allowed_mounts {
                if let Some(bad) = allowed.iter().find(|a| !src.mount_points.contains(a)) {
                    return Err(format!("allowed_mounts: {bad} is not a mount of the workspace"));
                }
            }
            let fs: Arc<dyn Fs> = match &opts.allowed_mounts {
                Some(allowed) => {
                    Arc::new(sandbash::fs::restricted::RestrictedFs::new(src.fs.clone(), &src.mount_points, allowed))
                }
                None => src.fs.clone(),
            };
            b = b.shared_fs(src.mem.clone(), fs);
        }
        b.build().map_err(|e| e.to_string())
    });
    match built {
        Ok(bash) => {
            let fs = bash.fs();
            let history = bash.history();
            let mem = bash.memory_fs().clone();
            let markers = parking_lot::Mutex::new(Markers::new(mem.export()));
            let aliases = bash.aliases_handle();
            let res = ResourceArc::new(Session {
                bash: Arc::new(tokio::sync::Mutex::new(bash)),
                fs,
                bridge,
                jobs: Jobs::new(),
                waiters: Default::default(),
                checkpoints: Default::default(),
                aliases,
                history,
                mem,
                markers,
                mount_points,
                running: parking_lot::Mutex::new((0, HashMap::new())),
                stuck: Default::default(),
            });
            (terms::ok(), res).encode(env)
        }
        Err(m) => err(env, &m),
    }
}

/// Start `script` in `session`; the outcome is sent to `pid` as `{tag, outcome}`
/// where outcome is `{:ok, {stdout, stderr, code}}`, or `{:error, message, partial}`
/// with `partial` the `{stdout, stderr, code}` printed before a stop (or `nil`).
#[rustler::nif]
fn exec_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    script: rustler::Binary<'a>,
    opts: ExecOpts<'a>,
    pid: LocalPid,
    tag: Term<'a>,
) -> Term<'a> {
    if let Err(m) = runtime::get() {
        return err(env, &m);
    }
    if let Some(cmd) = session.stuck.lock().as_ref() {
        return err(
            env,
            &format!(
                "session busy: its last exec was answered as stopped but its worker is still in {cmd}; \
                 try again once it has ended"
            ),
        );
    }
    // Scripts are text to the parser; stray non-UTF-8 bytes in the source become U+FFFD.
    let script = sandbash::raw_bytes::decode(script.as_slice());
    let cancel = CancelToken::default();
    let overrides = (opts.cwd.is_some() || !opts.env.is_empty()).then(|| (opts.cwd.clone(), opts.env.clone()));
    let id = {
        let mut running = session.running.lock();
        running.0 += 1;
        let id = running.0;
        running.1.insert(id, Running { caller: pid, cancel: cancel.clone(), monitor: None });
        id
    };
    // Small inputs may run their first slice here, on the caller's scheduler
    // (see `sandbash::limits::inline`): no thread to wake, no message back.
    let inline = overrides.is_none() && script.len() <= INLINE_SCRIPT && opts.stdin.len() <= INLINE_STDIN;
    // The watchdog answers for an exec whose worker is stuck past its
    // deadline (see `sandbash::limits::watchdog`): once it has, the exec's
    // own outcome is for nobody. Only once the exec runs on the runtime: a
    // first slice on the caller's thread is short by construction.
    let answered = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spawned = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let on_watchdog = {
        let (answered, spawned, stuck) = (answered.clone(), spawned.clone(), session.stuck.clone());
        let wenv = OwnedEnv::new();
        let wtag = wenv.save(tag);
        let wenv = parking_lot::Mutex::new(Some((wenv, wtag)));
        let f: sandbash::limits::watchdog::OnFire = Arc::new(move |fired: sandbash::limits::watchdog::Fired| {
            if !spawned.load(std::sync::atomic::Ordering::Acquire) {
                return;
            }
            let Some((mut wenv, wtag)) = wenv.lock().take() else { return };
            answered.store(true, std::sync::atomic::Ordering::Release);
            let command = fired.command.as_deref().unwrap_or("the shell").to_string();
            *stuck.lock() = Some(command.clone());
            let partial = ExecResult { stdout: fired.stdout, stderr: fired.stderr, exit_code: 1, queued_ms: 0 };
            let reason = fired.reason.to_string();
            // `{tag, {:watchdog, command, outcome}}`: the outcome as an
            // exec's own, and what it was stuck in (for telemetry).
            let _ = wenv.send_and_clear(&pid, |e| {
                let outcome = (terms::error(), reason.as_str(), terms::result(e, &partial)).encode(e);
                (wtag.load(e), (watchdog(), command.as_str(), outcome)).encode(e)
            });
        });
        f
    };
    let exec_opts = ExecOptions {
        stdin: opts.stdin.as_slice().to_vec(),
        cancel,
        timeout_ms: opts.timeout_ms,
        history_line: None,
        exec_id: id,
        output_files: None,
        on_watchdog: Some(on_watchdog),
        merge_stderr: false,
    };
    if let (Some(bridge), Some(broker)) = (&session.bridge, opts.broker) {
        bridge.attach(id, broker);
    }
    let res = session.clone();
    let run: ExecFuture = Box::pin(async move {
        let run = async {
            match overrides {
                // An ephemeral copy: nothing but file writes reaches the session,
                // so it need not wait for the session's other execs.
                Some((cwd, env)) => {
                    let copy = res.bash.lock().await.ephemeral(cwd.as_deref(), &env);
                    match copy {
                        Ok(mut b) => b.exec_with(&script, exec_opts).await,
                        Err(e) => Err(e),
                    }
                }
                None => res.bash.lock().await.exec_with(&script, exec_opts).await,
            }
        };
        crate::guard::guarded(run).await
    });
    let owned = OwnedEnv::new();
    let tag = owned.save(tag);
    let job = Box::new(ExecJob { run, session: session.clone(), id, pid, answered, spawned, tag: (owned, tag) });
    let parked = Parked::new(session.bridge.clone());
    if !inline {
        crate::parked::spawn(parked, job);
        monitor_caller(&session, env, id, &pid);
        return terms::ok().encode(env);
    }
    // The first slice, here; it may park waiting for a callback (see `parked.rs`).
    match crate::parked::drive(&parked, job, env) {
        Some((_job, outcome)) => {
            finish(&session, id, Some(env));
            (done(), reply(env, &outcome)).encode(env)
        }
        None => {
            monitor_caller(&session, env, id, &pid);
            terms::ok().encode(env)
        }
    }
}

/// The caller is monitored once its exec goes on past the NIF call: if it
/// dies, the exec is cancelled (an exec that already ended keeps no monitor).
fn monitor_caller(session: &ResourceArc<Session>, env: Env, id: u64, pid: &LocalPid) {
    let monitor = session.monitor(Some(env), pid);
    let mut running = session.running.lock();
    match (running.1.get_mut(&id), monitor) {
        (Some(r), m) => r.monitor = m,
        (None, Some(m)) => {
            drop(running);
            session.demonitor(Some(env), &m);
        }
        (None, None) => {}
    }
}

/// One exec as [`crate::parked`] drives it, with what it needs to tell its caller.
struct ExecJob {
    run: ExecFuture,
    session: ResourceArc<Session>,
    id: u64,
    pid: LocalPid,
    /// The watchdog answered for it (the caller was told, its outcome is for nobody).
    answered: Arc<std::sync::atomic::AtomicBool>,
    /// It went on on the runtime (the watchdog only answers for such an exec).
    spawned: Arc<std::sync::atomic::AtomicBool>,
    tag: (OwnedEnv, rustler::env::SavedTerm),
}

impl Job for ExecJob {
    fn future(&mut self) -> std::pin::Pin<&mut (dyn std::future::Future<Output = Outcome> + Send)> {
        self.run.as_mut()
    }

    fn on_runtime(&self) {
        self.spawned.store(true, std::sync::atomic::Ordering::Release);
    }

    fn tell_from_runtime(self: Box<Self>, outcome: Outcome) {
        let ExecJob { session, id, pid, answered, tag: (mut owned, tag), .. } = *self;
        finish(&session, id, None);
        if answered.load(std::sync::atomic::Ordering::Acquire) {
            // The watchdog told the caller; the session is free again.
            *session.stuck.lock() = None;
            return;
        }
        // The caller may be gone; then there is nobody to tell.
        let _ = owned.send_and_clear(&pid, |e| (tag.load(e), reply(e, &outcome)));
    }

    fn tell(self: Box<Self>, env: Env, outcome: Outcome) {
        finish(&self.session, self.id, Some(env));
        if self.answered.load(std::sync::atomic::Ordering::Acquire) {
            *self.session.stuck.lock() = None;
            return;
        }
        let (owned, tag) = &self.tag;
        let tag = owned.run(|e| tag.load(e).in_env(env));
        let _ = env.send(&self.pid, (tag, reply(env, &outcome)));
    }
}

/// The exec `id` is over: its callbacks and its caller's monitor go.
fn finish(session: &ResourceArc<Session>, id: u64, env: Option<Env>) {
    if let Some(bridge) = &session.bridge {
        bridge.detach(id);
    }
    if let Some(r) = session.running.lock().1.remove(&id) {
        if let Some(m) = r.monitor {
            session.demonitor(env, &m);
        }
    }
}

fn reply<'a>(e: Env<'a>, outcome: &Outcome) -> Term<'a> {
    let none = rustler::types::atom::nil().encode(e);
    match outcome {
        Ok(Ok(r)) => (terms::ok(), terms::result(e, r)).encode(e),
        Ok(Err(Error::Stopped { reason, partial })) => {
            (terms::error(), reason.to_string(), terms::result(e, partial)).encode(e)
        }
        // Not admitted (too many execs waiting, or the wait ran out): nothing ran.
        Ok(Err(Error::Overloaded(_))) => (terms::error(), terms::overloaded(), none).encode(e),
        Ok(Err(other)) => (terms::error(), other.to_string(), none).encode(e),
        Err(m) => (terms::error(), m.as_str(), none).encode(e),
    }
}

/// Cancel every exec of `session` that has started and not finished; returns how many.
#[rustler::nif]
fn cancel(session: ResourceArc<Session>) -> usize {
    let running = session.running.lock();
    for r in running.1.values() {
        r.cancel.cancel();
    }
    running.1.len()
}

/// Load and check the CPython runtime at `path` into the node's cache (see
/// `Session.new/1`): dirty, as the first load on a machine compiles it.
#[rustler::nif(schedule = "DirtyCpu")]
fn python_load(env: Env<'_>, path: String) -> Term<'_> {
    match std::panic::catch_unwind(|| sandbash::commands::python::load_runtime(&path)) {
        Ok(Ok(_)) => terms::ok().encode(env),
        Ok(Err(e)) => err(env, &e),
        Err(_) => err(env, "internal error while loading the python runtime"),
    }
}
