//! `coproc [NAME] COMMAND`: COMMAND runs as a background job whose stdin and
//! stdout are bounded pipes held by the shell as two descriptors,
//! `${NAME[0]}` (read what it writes) and `${NAME[1]}` (write what it reads),
//! with its job's pid in `NAME_PID`. `wait` on it lets both go and unsets the
//! variables, as bash does when it reaps a coprocess. Like every job it ends
//! with the exec at the latest.

use super::{Fds, Res, Slot};
use crate::io;
use crate::state::{ShellState, Value};
use brush_parser::ast;
use std::collections::BTreeMap;
use std::sync::Arc;

/// bash moves each end of its two pipes to the highest free descriptor below
/// this, and keeps the first and the last of the four.
const FD_CEILING: i32 = 64;

pub async fn start(sh: &mut ShellState, cmd: &ast::CoprocessCommand, fds: &Fds) -> Res {
    let name = cmd.name.as_ref().map_or("COPROC", |w| w.value.as_str()).to_string();
    if !crate::builtins::valid_name(&name) {
        fds.shell_err(sh.loc(), &format!("`{name}': not a valid identifier")).await;
        return Ok(1);
    }
    // bash runs one coprocess at a time well, and says so when another starts.
    let running = sh.jobs.list.iter().rev().filter(|j| j.finished().is_none());
    if let Some((old, pid)) = running.filter_map(|j| Some((j.coproc.as_ref()?.0.clone(), j.pid))).next() {
        let msg = format!("warning: execute_coproc: coproc [{pid}:{old}] still exists");
        fds.shell_err(sh.loc(), &msg).await;
    }
    let current = sh.exec_fds.clone();
    let base = current.as_deref().unwrap_or(fds).clone();
    let Some((read_fd, write_fd)) = pick_fds(&base.extra) else {
        fds.shell_err(sh.loc(), "coproc: cannot make pipe for coprocess: Too many open files").await;
        return Ok(1);
    };
    let (to_job, job_stdin) = io::pipe();
    let (job_stdout, from_job) = io::pipe();
    let job_fds = Fds { stdin: job_stdin, stdout: job_stdout, ..base.clone() };
    let list = ast::AndOrList {
        first: ast::Pipeline { timed: None, bang: false, seq: vec![(*cmd.body).clone()] },
        additional: Vec::new(),
    };
    let text = format!("{} &", super::print_cmd::coproc_text(&sh.src, &name, &cmd.body));
    let index = super::jobs::spawn_job(sh, &list, job_fds, text).await?;
    let pid = match sh.jobs.list.get_mut(index) {
        Some(job) => {
            job.coproc = Some((name.clone(), read_fd, write_fd));
            job.pid
        }
        None => 0,
    };
    let mut extra = (*base.extra).clone();
    extra.insert(read_fd, Slot::In(from_job));
    extra.insert(write_fd, Slot::Out(to_job));
    sh.exec_fds = Some(Arc::new(Fds { extra: Arc::new(extra), ..base }));
    let fds_value = Value::Indexed([(0, read_fd.to_string()), (1, write_fd.to_string())].into_iter().collect());
    let set = sh.vars.set_value(&name, fds_value).and_then(|_| sh.set_var(&format!("{name}_PID"), pid.to_string()));
    if let Err(m) = set {
        fds.shell_err(sh.loc(), &m).await;
        return Ok(1);
    }
    Ok(0)
}

/// The shell's read and write descriptors for a new coprocess (63 and 60 when
/// nothing else is open up there, as in bash).
fn pick_fds(open: &BTreeMap<i32, Slot>) -> Option<(i32, i32)> {
    let mut taken: Vec<i32> = Vec::new();
    let mut next = || {
        let fd = (3..FD_CEILING).rev().find(|n| !open.contains_key(n) && !taken.contains(n))?;
        taken.push(fd);
        Some(fd)
    };
    let (read, _, _, write) = (next()?, next()?, next()?, next()?);
    Some((read, write))
}

/// After `wait` reaped a coprocess: close its descriptors and unset its variables.
pub fn reap(sh: &mut ShellState, name: &str, read_fd: i32, write_fd: i32) {
    if let Some(current) = sh.exec_fds.clone() {
        let mut extra = (*current.extra).clone();
        extra.remove(&read_fd);
        extra.remove(&write_fd);
        sh.exec_fds = Some(Arc::new(Fds { extra: Arc::new(extra), ..(*current).clone() }));
    }
    let _ = sh.vars.unset(name);
    let _ = sh.vars.unset(&format!("{name}_PID"));
}
