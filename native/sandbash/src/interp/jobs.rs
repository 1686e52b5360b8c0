//! Background jobs (`cmd &`): each runs in a fork of the shell as a task on
//! the runtime, concurrently with the script. Jobs share the exec's budget
//! (limits, deadline, cancellation) and never outlive it: when the exec ends,
//! unfinished jobs are cancelled (bash would leave them running, with their
//! output going nowhere).

use super::{enter_subshell, fork, run_and_or, run_exit_trap, Fds, Flow};
use crate::io::Input;
use crate::state::ShellState;
use brush_parser::ast;
use std::sync::atomic::{AtomicU32, Ordering};
use tokio::sync::watch;

/// Jobs kept per shell; the oldest finished ones are forgotten past this.
const MAX_JOBS: usize = 1024;

/// Fake process ids of background jobs (`$!`): unique within the process.
static NEXT_PID: AtomicU32 = AtomicU32::new(2000);

/// One background job of a shell.
#[derive(Clone)]
pub struct Job {
    /// Job number (`%N`).
    pub id: usize,
    pub pid: u32,
    /// The command as `jobs` shows it.
    pub text: String,
    /// `Some(status)` once finished.
    pub status: watch::Receiver<Option<i32>>,
    /// Ends the job early (`kill`): its status, then the task is cancelled.
    ender: Option<(std::sync::Arc<watch::Sender<Option<i32>>>, tokio::task::AbortHandle)>,
    /// A coprocess: its variable's name and the shell's two descriptors, let
    /// go when `wait` reaps it.
    pub coproc: Option<(String, i32, i32)>,
    /// Seen ended by the shell after a foreground command (bash's
    /// notification): `wait -n` no longer reports it.
    pub notified: bool,
}

impl Job {
    /// `kill -SIG`: the job ends with status 128+SIG. `false` when it cannot be stopped.
    pub fn kill(&self, sig: u32) -> bool {
        let Some((tx, task)) = &self.ender else { return false };
        if self.finished().is_none() {
            let _ = tx.send(Some(128 + sig as i32));
            task.abort();
        }
        true
    }

    pub fn finished(&self) -> Option<i32> {
        *self.status.borrow()
    }

    /// Wait for the job to end and return its status.
    pub async fn wait(&self) -> i32 {
        let mut rx = self.status.clone();
        let status = match rx.wait_for(Option::is_some).await {
            Ok(v) => v.unwrap_or(0),
            // The task was dropped (cancelled): as if killed by SIGTERM.
            Err(_) => 143,
        };
        status
    }
}

/// The jobs a shell started (a subshell starts with none).
#[derive(Clone, Default)]
pub struct Jobs {
    pub list: Vec<Job>,
    /// `$!`
    pub last_pid: Option<u32>,
    /// The parent's jobs, which a subshell's `jobs` still lists (it cannot wait for them).
    pub inherited: Vec<Job>,
    /// Process substitutions that ran (they run to the end before the
    /// command): `$!` names the last, and `wait PID` gives its status once.
    pub substitutions: Vec<(u32, watch::Receiver<Option<i32>>)>,
}

/// Process substitutions `wait` can still be asked about (bash keeps them as
/// dead children, bounded here).
const MAX_SUBSTITUTIONS: usize = 64;

impl Jobs {
    /// The jobs of a subshell of this shell.
    pub fn for_subshell(&self) -> Jobs {
        let mut inherited = self.inherited.clone();
        inherited.extend(self.list.iter().cloned());
        Jobs { list: Vec::new(), last_pid: self.last_pid, inherited, substitutions: Vec::new() }
    }

    /// A process substitution ended with `status`: it becomes `$!`.
    pub fn substitution_ended(&mut self, status: i32) {
        self.substitution_started(watch::channel(Some(status)).1);
    }

    /// A process substitution runs beside the command (`> >(cmd)`): it
    /// becomes `$!`, its status comes through `status`.
    pub fn substitution_started(&mut self, status: watch::Receiver<Option<i32>>) {
        let pid = NEXT_PID.fetch_add(1, Ordering::Relaxed);
        if self.substitutions.len() >= MAX_SUBSTITUTIONS {
            self.substitutions.remove(0);
        }
        self.substitutions.push((pid, status));
        self.last_pid = Some(pid);
    }

    /// `wait PID` of a process substitution: its status once it ends, once.
    pub async fn reap_substitution(&mut self, pid: &str) -> Option<i32> {
        let pid: u32 = pid.parse().ok()?;
        let i = self.substitutions.iter().position(|(p, _)| *p == pid)?;
        let mut rx = self.substitutions.remove(i).1;
        // A task dropped before it ended (cancelled): as if killed by SIGTERM.
        Some(rx.wait_for(Option::is_some).await.map_or(143, |v| v.unwrap_or(0)))
    }

    /// Jobs still running, in start order.
    /// A foreground command ended: the jobs that ended before it count as
    /// notified, as bash cleans up dead jobs when it waits for a child.
    pub fn notify_dead(&mut self) {
        for j in self.list.iter_mut().filter(|j| !j.notified) {
            j.notified = j.finished().is_some();
        }
    }

    /// The first job that ended and was not notified yet, taken off the list.
    pub fn take_unnotified(&mut self) -> Option<Job> {
        let i = self.list.iter().position(|j| !j.notified && j.finished().is_some())?;
        Some(self.list.remove(i))
    }

    pub fn running(&self) -> Vec<&Job> {
        self.list.iter().filter(|j| j.finished().is_none()).collect()
    }

    /// A job by pid or job spec (`%N`, `%%`, `%+`, `%-`).
    pub fn find(&self, spec: &str) -> Option<&Job> {
        if let Some(js) = spec.strip_prefix('%') {
            let running = self.running();
            return match js {
                "" | "%" | "+" => running.last().copied(),
                "-" => running.iter().rev().nth(1).or(running.last()).copied(),
                // Numbers are reused once jobs end: the latest one holds it.
                n => n.parse::<usize>().ok().and_then(|n| self.list.iter().rev().find(|j| j.id == n)),
            };
        }
        let pid: u32 = spec.parse().ok()?;
        self.list.iter().find(|j| j.pid == pid)
    }
}

/// Start `list` in the background; the `&` command's own status is 0.
pub async fn spawn(sh: &mut ShellState, list: &ast::AndOrList, fds: &Fds) -> Result<i32, Flow> {
    // Without job control, a background command reads from /dev/null.
    let bg_fds = Fds { stdin: Input::null(), ..fds.clone() };
    let text = format!("{} &", super::print_cmd::command_text(&sh.src, list));
    spawn_job(sh, list, bg_fds, text).await?;
    Ok(0)
}

/// Start `list` as a job reading and writing `bg_fds`, shown by `jobs` as
/// `text`; returns its job entry's index in `sh.jobs.list`.
pub async fn spawn_job(sh: &mut ShellState, list: &ast::AndOrList, bg_fds: Fds, text: String) -> Result<usize, Flow> {
    let mut sub = fork(sh);
    enter_subshell(&mut sub)?;
    sub.jobs = sh.jobs.for_subshell();
    let list = list.clone();
    let (tx, rx) = watch::channel(None);
    let tx = std::sync::Arc::new(tx);
    let job_tx = tx.clone();
    let budget = sh.budget.clone();
    let job = async move {
        sub.nofork = super::nofork::target_and_or(&list);
        let status = match run_and_or(&mut sub, &list, &bg_fds).await {
            Ok(s) | Err(Flow::Exit(s)) | Err(Flow::Return(s)) | Err(Flow::Abort(s)) => s,
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => sub.last_status,
            Err(Flow::Stop(s)) => {
                // A limit hit in a job stops the whole exec.
                budget.stop_from_job(s);
                1
            }
        };
        let status = match run_exit_trap(&mut sub, &bg_fds, status).await {
            Ok(s) => s,
            Err(s) => {
                budget.stop_from_job(s);
                status
            }
        };
        // A `kill` may have set the status already.
        let _ = tx.send_if_modified(|v| v.is_none() && v.replace(status).is_none());
    };
    let ender = match tokio::runtime::Handle::try_current() {
        Ok(rt) => {
            let task = rt.spawn(crate::limits::scope::Scoped::new(sh.budget.clone(), job));
            sh.budget.add_task(task.abort_handle());
            Some((job_tx, task.abort_handle()))
        }
        // No runtime to run it on (a foreign executor): run it in place.
        Err(_) => {
            job.await;
            None
        }
    };
    let pid = NEXT_PID.fetch_add(1, Ordering::Relaxed);
    let jobs = &mut sh.jobs;
    // Job numbers restart once no job is left running.
    let id = jobs.list.iter().filter(|j| j.finished().is_none()).map(|j| j.id).max().unwrap_or(0) + 1;
    if jobs.list.len() >= MAX_JOBS {
        if let Some(i) = jobs.list.iter().position(|j| j.finished().is_some()) {
            jobs.list.remove(i);
        }
    }
    jobs.list.push(Job { id, pid, text, status: rx, ender, coproc: None, notified: false });
    jobs.last_pid = Some(pid);
    Ok(jobs.list.len() - 1)
}

/// Start `>(cmd)` reading `input` (the other end of the redirected descriptor)
/// as a task of the exec, like a background job without a job number.
pub fn spawn_reader(sh: &mut ShellState, cmd: &ast::SubshellCommand, input: Input, fds: &Fds) -> Result<(), Flow> {
    let mut sub = fork(sh);
    enter_subshell(&mut sub)?;
    let sub_fds = Fds { stdin: input, ..fds.clone() };
    let list = cmd.list.clone();
    let budget = sh.budget.clone();
    let (tx, rx) = watch::channel(None);
    sh.jobs.substitution_started(rx);
    let job = async move {
        let status = match super::run_list(&mut sub, &list, &sub_fds).await {
            Ok(s) | Err(Flow::Exit(s)) | Err(Flow::Return(s)) | Err(Flow::Abort(s)) => s,
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => sub.last_status,
            Err(Flow::Stop(s)) => {
                budget.stop_from_job(s);
                1
            }
        };
        let status = match run_exit_trap(&mut sub, &sub_fds, status).await {
            Ok(s) => s,
            Err(s) => {
                budget.stop_from_job(s);
                status
            }
        };
        let _ = tx.send(Some(status));
    };
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        let task = rt.spawn(crate::limits::scope::Scoped::new(sh.budget.clone(), job));
        sh.budget.add_task(task.abort_handle());
    }
    Ok(())
}
