//! Process substitution, `<(cmd)` and `>(cmd)`, without processes: a command
//! reads `<(cmd)` as a file `/dev/fd/N` holding cmd's whole output; what it
//! writes to `>(cmd)`'s file becomes cmd's stdin once it has finished. (bash
//! runs both sides at once; here they run one after the other, so a reader
//! that expects to interleave with the producer sees it all at once.)

use super::{Fds, Flow};
use crate::io::{CaptureBuf, Input, Output, OutputCounter};
use crate::limits::Budget;
use crate::state::ShellState;
use brush_parser::ast::{ProcessSubstitutionKind, SubshellCommand};

/// The substitutions of one command, cleaned up by [`finish`].
#[derive(Default)]
pub struct ProcSubs {
    paths: Vec<String>,
    writers: Vec<(String, SubshellCommand)>,
}

/// A free `/dev/fd/N`, counting down from 63 as bash does.
async fn free_path(sh: &ShellState) -> String {
    for n in (10..=63).rev() {
        let p = format!("/dev/fd/{n}");
        if sh.fs.symlink_metadata(&p).await.is_err() {
            return p;
        }
    }
    "/dev/fd/9".to_string()
}

/// Set up one substitution; the word it expands to is the returned path.
pub async fn open(
    sh: &mut ShellState,
    fds: &Fds,
    kind: &ProcessSubstitutionKind,
    cmd: &SubshellCommand,
    subs: &mut ProcSubs,
) -> Result<String, Flow> {
    let _ = sh.fs.mkdir("/dev/fd", true).await;
    let path = free_path(sh).await;
    let data = match kind {
        ProcessSubstitutionKind::Read => capture(sh, fds, cmd).await?,
        ProcessSubstitutionKind::Write => {
            subs.writers.push((path.clone(), cmd.clone()));
            Vec::new()
        }
    };
    if let Err(e) = sh.fs.write(&path, &data).await {
        fds.shell_err(sh.loc(), &format!("{path}: {e}")).await;
    }
    subs.paths.push(path.clone());
    Ok(path)
}

/// Run `cmd` in a subshell and return its whole stdout (bounded by `max_string_bytes`).
pub async fn capture(sh: &mut ShellState, fds: &Fds, cmd: &SubshellCommand) -> Result<Vec<u8>, Flow> {
    let counter = OutputCounter::new(sh.budget.limits.max_string_bytes);
    let buf = CaptureBuf::new(counter.clone());
    let sub_fds = Fds { stdout: Output::Capture(buf.clone()), ..fds.clone() };
    let saved = sh.last_status;
    let status = super::compound::subshell(sh, &cmd.list, &sub_fds).await?;
    sh.last_status = saved;
    sh.jobs.substitution_ended(status);
    if counter.exceeded() {
        let limit = sh.budget.limits.max_string_bytes;
        return Err(Flow::Stop(Budget::exceeded("max_string_bytes", limit, "process substitution output")));
    }
    Ok(buf.take())
}

impl ProcSubs {
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.writers.is_empty()
    }
}

/// After the command: feed each `>(cmd)` what was written for it, then
/// remove the files.
pub async fn finish(sh: &mut ShellState, fds: &Fds, subs: ProcSubs) -> Result<(), Flow> {
    let saved = sh.last_status;
    for (path, cmd) in &subs.writers {
        let data = sh.fs.read(path).await.unwrap_or_default();
        let sub_fds = Fds { stdin: Input::from_bytes(data), ..fds.clone() };
        let status = super::compound::subshell(sh, &cmd.list, &sub_fds).await?;
        sh.jobs.substitution_ended(status);
    }
    sh.last_status = saved;
    for p in &subs.paths {
        let _ = sh.fs.remove_file(p).await;
    }
    Ok(())
}
