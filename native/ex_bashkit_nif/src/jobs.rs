//! Background jobs: a script started with `exec(..., background: true)` runs
//! on the runtime in its own copy of the session (as `( script ) &` would: it
//! shares the filesystem, its variable and cwd changes stay its own), and keeps
//! running across later execs. Its stdout and stderr go to files in the sandbox
//! (`/tmp/jobs/N.out`, `/tmp/jobs/N.err`) that scripts can `tail` and `grep`.
//!
//! The job task never holds the session resource, so a session whose handle is
//! garbage-collected is dropped, and its `Drop` cancels the jobs still running.

use crate::runtime;
use crate::session::Session;
use crate::terms::{self, err};
use futures_util::FutureExt;
use rustler::{Encoder, Env, LocalPid, OwnedEnv, ResourceArc, Term};
use sandbash::limits::{CancelToken, Stop};
use sandbash::{Error, ExecOptions};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

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
}

/// Bridge ids of jobs sit far above those of ordinary execs.
const JOB_EXEC_BASE: u64 = 1 << 62;
/// Where job output goes.
pub const JOB_DIR: &str = "/tmp/jobs";

#[derive(Clone, Debug)]
enum State {
    Running,
    Exited(i32),
    /// `terminate_job`: recorded as bash records a job killed by SIGTERM.
    Terminated,
    /// A limit, the timeout or a parse error ended it: the message and status.
    Failed(String, i32),
}

struct Job {
    name: String,
    started: f64,
    state: State,
    cancel: CancelToken,
    stop_requested: bool,
}

#[derive(Default)]
pub struct Jobs {
    inner: parking_lot::Mutex<(u64, BTreeMap<u64, Job>)>,
}

impl Jobs {
    /// Stop every running job (the session is going away).
    pub fn cancel_all(&self) {
        for j in self.inner.lock().1.values() {
            j.cancel.cancel();
        }
    }

    fn finish(&self, id: u64, outcome: &Result<Result<sandbash::ExecResult, Error>, String>) {
        let mut inner = self.inner.lock();
        let Some(job) = inner.1.get_mut(&id) else { return };
        job.state = match outcome {
            Ok(Ok(r)) => State::Exited(r.exit_code),
            Ok(Err(Error::Stopped { reason: Stop::Cancelled, .. })) if job.stop_requested => State::Terminated,
            Ok(Err(Error::Stopped { reason: reason @ Stop::Timeout(_), .. })) => State::Failed(reason.to_string(), 124),
            Ok(Err(Error::Parse(m))) => State::Failed(m.clone(), 2),
            Ok(Err(e)) => State::Failed(e.to_string(), 1),
            Err(m) => State::Failed(m.clone(), 1),
        };
    }
}

fn now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

pub fn paths(id: u64) -> (String, String) {
    (format!("{JOB_DIR}/{id}.out"), format!("{JOB_DIR}/{id}.err"))
}

/// Start `script` as background job `name`; `{:ok, id}`, or `{:error, message}`
/// when `max_jobs` are already running.
#[rustler::nif]
#[allow(clippy::too_many_arguments)]
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
    let cancel = CancelToken::default();
    let id = {
        let mut inner = session.jobs.inner.lock();
        let running = inner.1.values().filter(|j| matches!(j.state, State::Running)).count() as u64;
        if running >= max_jobs {
            return err(env, &format!("too many background jobs running (max_jobs: {max_jobs})"));
        }
        inner.0 += 1;
        let id = inner.0;
        inner.1.insert(
            id,
            Job { name, started: now(), state: State::Running, cancel: cancel.clone(), stop_requested: false },
        );
        id
    };
    let (out, errp) = paths(id);
    // The files exist before the caller hears of the job, so a script can tail
    // them at once. The in-memory fs completes at once; a mount may not, and
    // the job's own redirections create them anyway.
    let fs = session.fs.clone();
    let _ = async {
        let _ = fs.mkdir(JOB_DIR, true).await;
        let _ = fs.write(&out, b"").await;
        let _ = fs.write(&errp, b"").await;
    }
    .now_or_never();

    let original = String::from_utf8_lossy(script.as_slice()).into_owned();
    let script = format!("exec >{out} 2>{errp}; {original}");
    let exec_opts = ExecOptions {
        stdin: opts.stdin.as_slice().to_vec(),
        cancel,
        timeout_ms: opts.timeout_ms,
        history_line: Some(format!("{original} &")),
        exec_id: JOB_EXEC_BASE + id,
    };
    let (cwd, vars) = (opts.cwd.clone(), opts.env.clone());
    let broker: Option<LocalPid> = opts.broker;
    let bash = session.bash.clone();
    let jobs = session.jobs.clone();
    let bridge = session.bridge.clone();
    let fs = session.fs.clone();
    rt.spawn(async move {
        if let (Some(b), Some(pid)) = (&bridge, broker) {
            b.attach(JOB_EXEC_BASE + id, pid);
        }
        let run = async {
            let copy = bash.lock().await.ephemeral(cwd.as_deref(), &vars);
            match copy {
                Ok(mut b) => b.exec_with(&script, exec_opts).await,
                Err(e) => Err(e),
            }
        };
        let outcome = crate::guard::guarded(run).await;
        if let Ok(Err(e)) = &outcome {
            if !matches!(e, Error::Stopped { reason: Stop::Cancelled, .. }) {
                let _ = fs.append(&errp, format!("ex_bashkit: {e}\n").as_bytes()).await;
            }
        }
        jobs.finish(id, &outcome);
        if let Some(b) = &bridge {
            b.detach(JOB_EXEC_BASE + id);
        }
        if let Some(pid) = broker {
            let _ = OwnedEnv::new().send_and_clear(&pid, |e| ex_bashkit_stop().encode(e));
        }
    });
    (terms::ok(), id).encode(env)
}

/// `[%{id, name, status, exit_code (nil while running), started_at (Unix seconds),
/// stdout_path, stderr_path, error (nil unless a limit or a parse error ended it)}]`.
#[rustler::nif]
fn jobs_list(env: Env, session: ResourceArc<Session>) -> Term {
    let inner = session.jobs.inner.lock();
    let nil = rustler::types::atom::nil();
    let list: Vec<Term> = inner
        .1
        .iter()
        .map(|(id_, j)| {
            let (status_, code, error_) = match &j.state {
                State::Running => (running(), nil.encode(env), nil.encode(env)),
                State::Exited(c) => (exited(), c.encode(env), nil.encode(env)),
                State::Terminated => (terminated(), 143.encode(env), nil.encode(env)),
                State::Failed(m, c) => (failed(), c.encode(env), m.encode(env)),
            };
            let (out, errp) = paths(*id_);
            let keys = [id(), name(), status(), exit_code(), started_at(), stdout_path(), stderr_path(), error()];
            let values = [
                id_.encode(env),
                j.name.encode(env),
                status_.encode(env),
                code,
                j.started.encode(env),
                out.encode(env),
                errp.encode(env),
                error_,
            ];
            Term::map_from_arrays(env, &keys.map(|k| k.encode(env)), &values).unwrap_or_else(|_| nil.encode(env))
        })
        .collect();
    list.encode(env)
}

/// Stop job `id` (and everything it started); `:ok`, `:not_running` or `:not_found`.
#[rustler::nif]
fn job_terminate(session: ResourceArc<Session>, id: u64) -> rustler::Atom {
    let mut inner = session.jobs.inner.lock();
    match inner.1.get_mut(&id) {
        None => not_found(),
        Some(j) if !matches!(j.state, State::Running) => not_running(),
        Some(j) => {
            j.stop_requested = true;
            j.cancel.cancel();
            terms::ok()
        }
    }
}

pub fn new_table() -> Arc<Jobs> {
    Arc::new(Jobs::default())
}
