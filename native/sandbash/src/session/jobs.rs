//! Background jobs: a script started as a job runs in its own copy of the
//! session (as `( script ) &` would: it shares the filesystem, its variable
//! and cwd changes stay its own), and keeps running across later execs. Its
//! stdout and stderr go to files in the sandbox (`/tmp/jobs/N.out`,
//! `/tmp/jobs/N.err`) that scripts can `tail` and `grep`.
//!
//! [`Jobs::start`] hands back the job's future for the embedder to spawn on
//! its runtime; completion is a channel ([`Jobs::watch`]), so a waiter is told
//! when the job ends instead of polling. The future never holds the table
//! itself strongly... it holds an `Arc` of it, and the table's owner cancels
//! the jobs still running when it goes away ([`Jobs::cancel_all`]).

use crate::fs::Fs;
use crate::limits::{CancelToken, Stop};
use crate::{Bash, Error, ExecOptions, ExecResult};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// Exec ids of jobs sit far above those of ordinary execs.
pub const JOB_EXEC_BASE: u64 = 1 << 62;
/// Where job output goes.
pub const JOB_DIR: &str = "/tmp/jobs";

/// Where a job stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobState {
    Running,
    Exited(i32),
    /// Stopped by [`Jobs::terminate`]: recorded as bash records a job killed
    /// by SIGTERM (status 143).
    Terminated,
    /// A limit, the timeout, a parse error or a bug ended it: the message and status.
    Failed {
        message: String,
        status: i32,
    },
}

impl JobState {
    /// The exit status (`None` while running).
    pub fn exit_code(&self) -> Option<i32> {
        match self {
            JobState::Running => None,
            JobState::Exited(c) => Some(*c),
            JobState::Terminated => Some(143),
            JobState::Failed { status, .. } => Some(*status),
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self, JobState::Running)
    }
}

/// A job as [`Jobs::list`] shows it.
#[derive(Clone, Debug)]
pub struct JobInfo {
    pub id: u64,
    pub name: String,
    /// Unix seconds.
    pub started_at: f64,
    pub state: JobState,
    pub stdout_path: String,
    pub stderr_path: String,
}

/// What to start.
#[derive(Clone, Debug, Default)]
pub struct JobRequest {
    pub script: String,
    pub name: String,
    pub stdin: Vec<u8>,
    pub timeout_ms: Option<u64>,
    /// Run in this directory / with these exported variables (the job's copy only).
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    /// Refuse the job when this many are running.
    pub max_jobs: u64,
}

/// The answer of [`Jobs::terminate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminate {
    Stopping,
    NotRunning,
    NotFound,
}

struct Job {
    name: String,
    started: f64,
    state: watch::Sender<JobState>,
    cancel: CancelToken,
    stop_requested: bool,
}

/// The background jobs of a session.
#[derive(Default)]
pub struct Jobs {
    inner: parking_lot::Mutex<(u64, BTreeMap<u64, Job>)>,
}

/// The files job `id` writes.
pub fn paths(id: u64) -> (String, String) {
    (format!("{JOB_DIR}/{id}.out"), format!("{JOB_DIR}/{id}.err"))
}

fn now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

impl Jobs {
    pub fn new() -> Arc<Self> {
        Arc::new(Jobs::default())
    }

    /// Register job `req` in the session `bash` (whose filesystem is `fs`) and
    /// return its id and the future that runs it, for the caller to spawn.
    /// `Err` when `max_jobs` are running. The output files exist on return.
    pub fn start(
        self: &Arc<Self>,
        bash: Arc<tokio::sync::Mutex<Bash>>,
        fs: Arc<dyn Fs>,
        req: JobRequest,
    ) -> Result<(u64, BoxFuture<'static, ()>), String> {
        let cancel = CancelToken::default();
        let id = {
            let mut inner = self.inner.lock();
            let running = inner.1.values().filter(|j| j.state.borrow().is_running()).count() as u64;
            if running >= req.max_jobs {
                return Err(format!("too many background jobs running (max_jobs: {})", req.max_jobs));
            }
            inner.0 += 1;
            let id = inner.0;
            let (state, _) = watch::channel(JobState::Running);
            inner.1.insert(
                id,
                Job { name: req.name.clone(), started: now(), state, cancel: cancel.clone(), stop_requested: false },
            );
            id
        };
        let (out, err) = paths(id);
        // The files exist before the caller hears of the job, so a script can
        // tail them at once. The in-memory fs completes at once; a mount may
        // not, and the job's output opens them anyway.
        let _ = async {
            let _ = fs.mkdir(JOB_DIR, true).await;
            let _ = fs.write(&out, b"").await;
            let _ = fs.write(&err, b"").await;
        }
        .now_or_never();
        let opts = ExecOptions {
            stdin: req.stdin,
            cancel,
            timeout_ms: req.timeout_ms,
            history_line: Some(format!("{} &", req.script)),
            exec_id: JOB_EXEC_BASE + id,
            output_files: Some((out, err.clone())),
            on_watchdog: None,
            merge_stderr: false,
        };
        let jobs = self.clone();
        let run = async move {
            let exec = async {
                let copy = bash.lock().await.ephemeral(req.cwd.as_deref(), &req.env);
                match copy {
                    Ok(mut b) => b.exec_with(&req.script, opts).await,
                    Err(e) => Err(e),
                }
            };
            let outcome = std::panic::AssertUnwindSafe(exec)
                .catch_unwind()
                .await
                .map_err(|p| format!("internal error: {}", crate::panic_text(p.as_ref())));
            match &outcome {
                Ok(Err(Error::Stopped { reason: Stop::Cancelled, .. })) => {}
                Ok(Err(e)) => {
                    let _ = fs.append(&err, format!("ex_bashkit: {e}\n").as_bytes()).await;
                }
                Err(m) => {
                    let _ = fs.append(&err, format!("ex_bashkit: {m}\n").as_bytes()).await;
                }
                Ok(Ok(_)) => {}
            }
            jobs.finish(id, &outcome);
        };
        Ok((id, Box::pin(run)))
    }

    fn finish(&self, id: u64, outcome: &Result<Result<ExecResult, Error>, String>) {
        let inner = self.inner.lock();
        let Some(job) = inner.1.get(&id) else { return };
        let state = match outcome {
            Ok(Ok(r)) => JobState::Exited(r.exit_code),
            Ok(Err(Error::Stopped { reason: Stop::Cancelled, .. })) if job.stop_requested => JobState::Terminated,
            Ok(Err(Error::Stopped { reason: reason @ Stop::Timeout(_), .. })) => {
                JobState::Failed { message: reason.to_string(), status: 124 }
            }
            Ok(Err(Error::Parse(m))) => JobState::Failed { message: m.clone(), status: 2 },
            Ok(Err(e)) => JobState::Failed { message: e.to_string(), status: 1 },
            Err(m) => JobState::Failed { message: m.clone(), status: 1 },
        };
        job.state.send_replace(state);
    }

    fn info(id: u64, j: &Job) -> JobInfo {
        let (stdout_path, stderr_path) = paths(id);
        JobInfo {
            id,
            name: j.name.clone(),
            started_at: j.started,
            state: j.state.borrow().clone(),
            stdout_path,
            stderr_path,
        }
    }

    /// Every job, oldest first; a finished one keeps its status.
    pub fn list(&self) -> Vec<JobInfo> {
        self.inner.lock().1.iter().map(|(id, j)| Self::info(*id, j)).collect()
    }

    /// Job `id`, if there is one.
    pub fn get(&self, id: u64) -> Option<JobInfo> {
        self.inner.lock().1.get(&id).map(|j| Self::info(id, j))
    }

    /// The job's state as a channel: it changes once, when the job ends.
    pub fn watch(&self, id: u64) -> Option<watch::Receiver<JobState>> {
        self.inner.lock().1.get(&id).map(|j| j.state.subscribe())
    }

    /// Wait until job `id` is no longer running; `None` when there is no such job.
    pub async fn wait(&self, id: u64) -> Option<JobInfo> {
        let mut rx = self.watch(id)?;
        let _ = rx.wait_for(|s| !s.is_running()).await;
        self.get(id)
    }

    /// Stop job `id` (and everything it started).
    pub fn terminate(&self, id: u64) -> Terminate {
        let mut inner = self.inner.lock();
        match inner.1.get_mut(&id) {
            None => Terminate::NotFound,
            Some(j) if !j.state.borrow().is_running() => Terminate::NotRunning,
            Some(j) => {
                j.stop_requested = true;
                j.cancel.cancel();
                Terminate::Stopping
            }
        }
    }

    /// Stop every running job (the session is going away).
    pub fn cancel_all(&self) {
        for j in self.inner.lock().1.values() {
            j.cancel.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_job_runs_writes_its_files_and_reports_by_channel() {
        let bash = Bash::builder().build().expect("build");
        let fs = bash.fs();
        let bash = Arc::new(tokio::sync::Mutex::new(bash));
        let jobs = Jobs::new();
        let req = JobRequest {
            script: "echo out; echo err >&2; exit 3".into(),
            name: "j".into(),
            max_jobs: 1,
            ..Default::default()
        };
        let (id, run) = jobs.start(bash.clone(), fs.clone(), req.clone()).expect("start");
        // One at a time: the second is refused while the first runs.
        assert!(jobs.start(bash.clone(), fs.clone(), req).is_err());
        assert!(jobs.get(id).expect("job").state.is_running());
        tokio::spawn(run);
        let info = jobs.wait(id).await.expect("job");
        assert_eq!(info.state, JobState::Exited(3));
        assert_eq!(fs.read(&info.stdout_path).await.expect("out"), b"out\n");
        assert_eq!(fs.read(&info.stderr_path).await.expect("err"), b"err\n");
        // The session's history shows the job.
        let r = bash.lock().await.exec("history").await.expect("exec");
        assert!(String::from_utf8_lossy(&r.stdout).contains("exit 3 &"));
    }

    #[tokio::test]
    async fn terminate_and_failures() {
        let bash = Bash::builder().build().expect("build");
        let fs = bash.fs();
        let bash = Arc::new(tokio::sync::Mutex::new(bash));
        let jobs = Jobs::new();
        let sleepy = JobRequest { script: "sleep 30".into(), max_jobs: 4, ..Default::default() };
        let (id, run) = jobs.start(bash.clone(), fs.clone(), sleepy).expect("start");
        tokio::spawn(run);
        assert_eq!(jobs.terminate(id), Terminate::Stopping);
        assert_eq!(jobs.wait(id).await.expect("job").state, JobState::Terminated);
        assert_eq!(jobs.terminate(id), Terminate::NotRunning);
        assert_eq!(jobs.terminate(99), Terminate::NotFound);
        let bad = JobRequest { script: "if".into(), max_jobs: 4, ..Default::default() };
        let (id, run) = jobs.start(bash, fs.clone(), bad).expect("start");
        tokio::spawn(run);
        let info = jobs.wait(id).await.expect("job");
        assert!(matches!(&info.state, JobState::Failed { status: 2, .. }), "{:?}", info.state);
        let err = fs.read(&info.stderr_path).await.expect("err");
        assert!(
            String::from_utf8_lossy(&err).starts_with("ex_bashkit: bash: -c:"),
            "{}",
            String::from_utf8_lossy(&err)
        );
    }
}
