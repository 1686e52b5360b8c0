//! Background jobs (`Session.exec(..., background: true)`, `jobs/1`,
//! `terminate_job/2`, `await_job/3`): the job manager is
//! `sandbash::session::jobs`; here its values become terms, the job's future
//! is spawned on the runtime with its callback broker attached, and a waiter
//! is told by message when a job ends.

use crate::runtime;
use crate::session::Session;
use crate::terms::{self, err};
use rustler::{Encoder, Env, LocalPid, OwnedEnv, ResourceArc, Term};
use sandbash::session::jobs::{JobInfo, JobRequest, JobState, Terminate, JOB_EXEC_BASE};

rustler::atoms! {
    running,
    exited,
    terminated,
    failed,
    not_found,
    not_running,
    ex_bashkit_stop,
    id,
    name,
    status,
    exit_code,
    started_at,
    stdout_path,
    stderr_path,
    error,
    done,
    waiting,
    sent,
}

/// Start `script` as background job `name`; `{:ok, id}`, or `{:error, message}`
/// when `max_jobs` are already running.
#[rustler::nif]
fn job_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    script: rustler::Binary<'a>,
    opts: crate::options::ExecOpts<'a>,
    name: String,
    max_jobs: u64,
) -> Term<'a> {
    let rt = match runtime::get() {
        Ok(rt) => rt,
        Err(m) => return err(env, &m),
    };
    let req = JobRequest {
        script: sandbash::raw_bytes::decode(script.as_slice()),
        name,
        stdin: opts.stdin.as_slice().to_vec(),
        timeout_ms: opts.timeout_ms,
        cwd: opts.cwd.clone(),
        env: opts.env.clone(),
        max_jobs,
    };
    let (id, run) = match session.jobs.start(session.bash.clone(), session.fs.clone(), req) {
        Ok(started) => started,
        Err(m) => return err(env, &m),
    };
    let broker: Option<LocalPid> = opts.broker;
    let bridge = session.bridge.clone();
    rt.spawn(async move {
        if let (Some(b), Some(pid)) = (&bridge, broker) {
            b.attach(JOB_EXEC_BASE + id, pid);
        }
        run.await;
        if let Some(b) = &bridge {
            b.detach(JOB_EXEC_BASE + id);
        }
        if let Some(pid) = broker {
            let _ = OwnedEnv::new().send_and_clear(&pid, |e| ex_bashkit_stop().encode(e));
        }
    });
    (terms::ok(), id).encode(env)
}

/// `%{id, name, status, exit_code (nil while running), started_at (Unix seconds),
/// stdout_path, stderr_path, error (nil unless a limit or a parse error ended it)}`.
fn job_term<'a>(env: Env<'a>, j: &JobInfo) -> Term<'a> {
    let nil = rustler::types::atom::nil();
    let (status_, error_) = match &j.state {
        JobState::Running => (running(), nil.encode(env)),
        JobState::Exited(_) => (exited(), nil.encode(env)),
        JobState::Terminated => (terminated(), nil.encode(env)),
        JobState::Failed { message, .. } => (failed(), message.encode(env)),
    };
    let code = match j.state.exit_code() {
        Some(c) => c.encode(env),
        None => nil.encode(env),
    };
    let keys = [id(), name(), status(), exit_code(), started_at(), stdout_path(), stderr_path(), error()];
    let values = [
        j.id.encode(env),
        j.name.encode(env),
        status_.encode(env),
        code,
        j.started_at.encode(env),
        j.stdout_path.encode(env),
        j.stderr_path.encode(env),
        error_,
    ];
    Term::map_from_arrays(env, &keys.map(|k| k.encode(env)), &values).unwrap_or_else(|_| nil.encode(env))
}

/// The jobs, oldest first (see [`job_term`]).
#[rustler::nif]
fn jobs_list(env: Env, session: ResourceArc<Session>) -> Term {
    session.jobs.list().iter().map(|j| job_term(env, j)).collect::<Vec<Term>>().encode(env)
}

/// Stop job `id` (and everything it started); `:ok`, `:not_running` or `:not_found`.
#[rustler::nif]
fn job_terminate(session: ResourceArc<Session>, id: u64) -> rustler::Atom {
    match session.jobs.terminate(id) {
        Terminate::Stopping => terms::ok(),
        Terminate::NotRunning => not_running(),
        Terminate::NotFound => not_found(),
    }
}

/// Wait for job `id` by message: `{:done, job}` when it has ended already,
/// `:not_found`, or `{:waiting, waiter}`: `{tag, job}` is sent to `pid` when
/// it ends, unless `job_await_cancel(session, waiter)` came first.
#[rustler::nif]
fn job_await<'a>(env: Env<'a>, session: ResourceArc<Session>, id: u64, pid: LocalPid, tag: Term<'a>) -> Term<'a> {
    let rt = match runtime::get() {
        Ok(rt) => rt,
        Err(m) => return err(env, &m),
    };
    let Some(mut rx) = session.jobs.watch(id) else { return not_found().encode(env) };
    if !rx.borrow().is_running() {
        return match session.jobs.get(id) {
            Some(j) => (done(), job_term(env, &j)).encode(env),
            None => not_found().encode(env),
        };
    }
    let (cancel_tx, cancel_rx) = tokio::sync::oneshot::channel::<()>();
    let waiter = {
        let mut w = session.waiters.lock();
        w.0 += 1;
        let n = w.0;
        w.1.insert(n, cancel_tx);
        n
    };
    let mut owned = OwnedEnv::new();
    let tag = owned.save(tag);
    let (jobs, waiters) = (session.jobs.clone(), session.waiters.clone());
    rt.spawn(async move {
        tokio::select! {
            _ = rx.wait_for(|s| !s.is_running()) => {}
            // Cancelled (the caller gave up), or the session dropped the waiter.
            _ = cancel_rx => return,
        }
        // Whoever removes the waiter decides: here, the message is sent.
        if waiters.lock().1.remove(&waiter).is_none() {
            return;
        }
        if let Some(j) = jobs.get(id) {
            let _ = owned.send_and_clear(&pid, |e| (tag.load(e), job_term(e, &j)).encode(e));
        }
    });
    (waiting(), waiter).encode(env)
}

/// Give up waiting: `:ok` (no message will come) or `:sent` (the message is
/// on its way or arrived: receive it).
#[rustler::nif]
fn job_await_cancel(session: ResourceArc<Session>, waiter: u64) -> rustler::Atom {
    match session.waiters.lock().1.remove(&waiter) {
        Some(tx) => {
            let _ = tx.send(());
            terms::ok()
        }
        None => sent(),
    }
}
