//! The interpreter: walks brush-parser's AST. Lists and pipelines live here;
//! simple commands, compound commands, redirects and conditionals have their
//! own modules.

pub mod alias;
mod compound;
pub mod cond;
mod coproc;
pub(crate) mod fast;
pub mod nofork;
pub use coproc::reap as reap_coproc;
pub mod jobs;
pub mod print_cmd;
pub mod procsub;
pub(crate) mod reader;
mod redirect;
pub mod simple;
mod stack;
pub(crate) mod test_parse;
mod timing;

pub use stack::GrowStack;

use crate::expand;
use crate::io::{self, CaptureBuf, Input, Output, OutputCounter};
use crate::limits::{Budget, Stop};
use crate::state::source::Source;
use crate::state::{Function, ShellState};
use brush_parser::ast::{self, SourceLocation};
use futures_util::future::BoxFuture;
use std::sync::Arc;

/// The standard streams of a command.
#[derive(Clone)]
pub struct Fds {
    pub stdin: Input,
    pub stdout: Output,
    pub stderr: Output,
    /// Descriptors 3 and up (`exec 3>file`, `4<&0`).
    pub extra: Arc<std::collections::BTreeMap<i32, Slot>>,
}

/// An open descriptor above 2.
#[derive(Clone)]
pub enum Slot {
    In(Input),
    Out(Output),
    /// Opened with `<>`: both ends of one file.
    Both(Input, Output),
}

impl Slot {
    /// The end to read from, when it has one.
    pub fn input(&self) -> Option<&Input> {
        match self {
            Slot::In(i) | Slot::Both(i, _) => Some(i),
            Slot::Out(_) => None,
        }
    }

    /// The end to write to, when it has one.
    pub fn output(&self) -> Option<&Output> {
        match self {
            Slot::Out(o) | Slot::Both(_, o) => Some(o),
            Slot::In(_) => None,
        }
    }
}

impl Fds {
    /// Standard streams with no other descriptors open.
    pub fn new(stdin: Input, stdout: Output, stderr: Output) -> Self {
        Fds { stdin, stdout, stderr, extra: Default::default() }
    }

    /// Print `bash: line N: msg` on stderr (a shell-level error message).
    pub async fn shell_err(&self, loc: crate::state::Loc, msg: &str) {
        let _ = self.stderr.write(&crate::raw_bytes::encode_vec(format!("{loc}: {msg}\n").into_bytes())).await;
    }
}

/// Non-local control flow; `Ok(status)` is the normal case.
#[derive(Debug)]
pub enum Flow {
    Break(u32),
    Continue(u32),
    Return(i32),
    /// `exit`, `set -e`, or a fatal expansion error: leave the (sub)shell.
    Exit(i32),
    /// A limit, the timeout or a cancellation: end the whole exec.
    Stop(Stop),
    /// An error that abandons the current top-level command (`failglob`'s
    /// "no match"): the script goes on with the next one, status as given.
    Abort(i32),
}

impl From<Stop> for Flow {
    fn from(s: Stop) -> Self {
        Flow::Stop(s)
    }
}

pub type Res = Result<i32, Flow>;

/// Run a parsed script in `sh`.
/// Before a `-c` text's last command (`execs`: it runs as if `exec`ed, see
/// `nofork`) or a script's: bash's warnings for the here-documents the end
/// of the text closed (printed as bash reads that command, before it runs).
async fn at_last_command(sh: &mut ShellState, last: &ast::CompoundList, execs: bool, fds: &Fds) {
    if execs {
        sh.nofork = nofork::target(last);
    }
    if sh.src.eof_heredocs.is_empty() {
        return;
    }
    let src = sh.src.clone();
    let who = sh.loc().who;
    for (ended, line, tag) in &src.eof_heredocs {
        let msg = format!(
            "{who}: line {}: warning: here-document at line {} delimited by end-of-file (wanted `{tag}')\n",
            src.line(*ended),
            src.line(*line)
        );
        let _ = fds.stderr.write_str(&msg).await;
    }
}

/// Run a parsed script in `sh`, then its EXIT trap.
pub async fn run_program(sh: &mut ShellState, program: &ast::Program, fds: &Fds) -> Result<i32, Stop> {
    let status = run_program_body(sh, program, fds).await?;
    run_exit_trap(sh, fds, status).await
}

async fn run_program_body(sh: &mut ShellState, program: &ast::Program, fds: &Fds) -> Result<i32, Stop> {
    sh.nofork = 0;
    for i in 0..program.complete_commands.len() {
        if i + 1 == program.complete_commands.len() {
            at_last_command(sh, &program.complete_commands[i], !sh.script_file, fds).await;
        }
        if let Some(r) =
            reader::wants(sh, program, i).then(|| reader::Reader::at_command(sh, program, i, None)).flatten()
        {
            return match reader::run_top(sh, r, fds).await {
                Ok(n) => Ok(n),
                Err(Flow::Exit(n)) => {
                    sh.last_status = n;
                    Ok(n)
                }
                Err(Flow::Stop(s)) => Err(s),
                Err(_) => Ok(sh.last_status),
            };
        }
        match run_list(sh, &program.complete_commands[i], fds).await {
            Ok(_) => {}
            Err(Flow::Exit(n)) => {
                sh.last_status = n;
                return Ok(n);
            }
            Err(Flow::Stop(s)) => return Err(s),
            // break/continue/return outside their context: bash ignores them here.
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => {}
            // A subshell (`$( )`) ends with the abandoned command; the shell
            // itself goes on with its next top-level command.
            Err(Flow::Abort(n)) if sh.subshell_depth > sh.shell_base => {
                sh.last_status = n;
                return Ok(n);
            }
            Err(Flow::Abort(n)) => {
                sh.last_status = n;
                shift_after_abort(sh, program, i);
            }
            Err(Flow::Return(n)) => sh.last_status = n,
        }
    }
    Ok(sh.last_status)
}

/// A top-level command was abandoned (an expansion error): bash's parser
/// goes on counting lines from the line of the error, so every later line
/// moves by the error's distance from the command's last line.
fn shift_after_abort(sh: &mut ShellState, program: &ast::Program, i: usize) {
    let Some(start) = program.complete_commands[i].location().map(|l| l.start) else { return };
    // The command's text runs to the next command (here-document bodies
    // included, which its location does not cover; brush-parser's `if` even
    // ends at its `if`), less the blank and comment lines before that.
    let next = program.complete_commands.get(i + 1).and_then(|c| c.location()).map(|l| l.start.index);
    let end = next.unwrap_or(usize::MAX).min(sh.src.char_len());
    let Some(text) = sh.src.slice(start.index, end) else { return };
    let mut body = text.trim_end();
    while let Some((before, last)) = body.rsplit_once('\n') {
        if !last.trim_start().starts_with('#') {
            break;
        }
        body = before.trim_end();
    }
    let last_line = start.line + body.matches('\n').count();
    let by = sh.line as i64 - sh.src.line(last_line) as i64;
    if by != 0 {
        sh.src = Arc::new((*sh.src).clone().with_shift(by));
    }
}

/// The shell is exiting with `status`: run (and clear) its EXIT trap. An `exit`
/// inside the trap replaces the status.
pub async fn run_exit_trap(sh: &mut ShellState, fds: &Fds, status: i32) -> Result<i32, Stop> {
    let Some(action) = Arc::make_mut(&mut sh.traps).remove("EXIT") else {
        return Ok(status);
    };
    sh.last_status = status;
    sh.trace.in_trap += 1;
    let outer = sh.trace.exit_status.replace(status);
    let r = run_string(sh, &action, fds, "trap").await;
    sh.trace.exit_status = outer;
    sh.trace.in_trap -= 1;
    match r {
        Ok(_) | Err(Flow::Break(_)) | Err(Flow::Continue(_)) | Err(Flow::Return(_)) | Err(Flow::Abort(_)) => Ok(status),
        Err(Flow::Exit(n)) => Ok(n),
        Err(Flow::Stop(s)) => Err(s),
    }
}

/// A fork for `( )`, `$( )` or a pipeline stage: traps other than ignored ones
/// are reset, as in bash.
pub fn fork(sh: &ShellState) -> ShellState {
    let mut sub = sh.clone();
    sub.exec_fds = None;
    // bash reseeds `RANDOM` in a subshell: its numbers are not the parent's.
    sub.random = Default::default();
    sub.trace.exit_status = None;
    sub.jobs = sh.jobs.for_subshell();
    if !sub.traps.is_empty() {
        let mut shown = (*sub.shown_traps).clone();
        shown.extend(sub.traps.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k.clone(), v.clone())));
        sub.shown_traps = Arc::new(shown);
        // `set -E` keeps the ERR trap, `set -T` the DEBUG and RETURN traps.
        let (err, func) = (sh.opts.errtrace, sh.opts.functrace);
        Arc::make_mut(&mut sub.traps)
            .retain(|k, v| v.is_empty() || (err && k == "ERR") || (func && (k == "DEBUG" || k == "RETURN")));
    }
    sub
}

/// The rest of a top-level script after a syntax error, read again now that
/// aliases are defined (from `__syntax_error`, see `reader`).
/// Run a long script read a run of commands at a time (see
/// [`reader::WHOLE`]), then its EXIT trap, as [`run_program`] runs a parsed one.
pub async fn run_text(sh: &mut ShellState, reader: reader::Reader, fds: &Fds) -> Result<i32, Stop> {
    sh.nofork = 0;
    let status = match reader::run_top(sh, reader, fds).await {
        Ok(n) => n,
        Err(Flow::Exit(n)) => {
            sh.last_status = n;
            n
        }
        Err(Flow::Stop(s)) => return Err(s),
        Err(_) => sh.last_status,
    };
    run_exit_trap(sh, fds, status).await
}

pub async fn read_on(sh: &mut ShellState, raw: Arc<str>, ran: usize, fds: &Fds) -> Res {
    reader::run_top(sh, reader::Reader::at_offset(raw, ran, 0), fds).await
}

/// Run a list (`a; b & c`).
///
/// Its leading commands that the fast paths finish without waiting on
/// anything run at the call, and a list made only of those (a loop body
/// such as `x=$((x + i))`) needs no boxed future: boxing one copied the
/// whole, large, state machine on every turn of a loop.
pub fn run_list<'a>(sh: &'a mut ShellState, list: &'a ast::CompoundList, fds: &'a Fds) -> ListRun<'a> {
    let mut status = sh.last_status;
    for (done, ast::CompoundListItem(and_or, sep)) in list.0.iter().enumerate() {
        if sh.opts.noexec || matches!(sep, ast::SeparatorOperator::Async) {
            return ListRun::Boxed(Box::pin(run_items(sh, &list.0[done..], fds, Start::Fresh)));
        }
        // `exec >file` changed this shell's descriptors for what follows.
        let current = sh.exec_fds.clone();
        let Some(cmd) = lone_command(and_or) else {
            match and_or_now(sh, and_or, current.as_deref().unwrap_or(fds)) {
                AndOrNow::Done(s) => {
                    status = s;
                    continue;
                }
                AndOrNow::Failed(e) => return ListRun::Ready(Some(Err(e))),
                AndOrNow::Declined => {
                    return ListRun::Boxed(Box::pin(run_items(sh, &list.0[done..], fds, Start::Fresh)))
                }
                AndOrNow::Rest(rest) => {
                    return ListRun::Boxed(Box::pin(async move {
                        let current = sh.exec_fds.clone();
                        and_or_rest(sh, and_or, current.as_deref().unwrap_or(fds), rest).await?;
                        run_items(sh, &list.0[done + 1..], fds, Start::Fresh).await
                    }))
                }
            }
        };
        match fast::try_command(sh, cmd, current.as_deref().unwrap_or(fds)) {
            Err(e) => return ListRun::Ready(Some(Err(e))),
            Ok(None) => return ListRun::Boxed(Box::pin(run_items(sh, &list.0[done..], fds, Start::Declined))),
            Ok(Some(ran)) => match finish_fast_now(sh, &ran) {
                Some(s) => status = s,
                // Its status needs `set -e`, or a turn is due: the rest waits.
                None => return ListRun::Boxed(Box::pin(run_items(sh, &list.0[done + 1..], fds, Start::Finish(ran)))),
            },
        }
    }
    ListRun::Ready(Some(Ok(status)))
}

/// A list's run: finished at the call, or the rest of it to wait on.
pub enum ListRun<'a> {
    Ready(Option<Res>),
    Boxed(BoxFuture<'a, Res>),
}

impl std::future::Future for ListRun<'_> {
    type Output = Res;
    fn poll(self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Res> {
        match self.get_mut() {
            // Polled once only, as every future is: awaited at the call.
            ListRun::Ready(r) => std::task::Poll::Ready(r.take().unwrap_or(Ok(0))),
            ListRun::Boxed(f) => f.as_mut().poll(cx),
        }
    }
}

/// Where [`run_items`] starts.
enum Start {
    Fresh,
    /// The first item is a lone command the fast paths declined.
    Declined,
    /// A fast command ran before the items, and its finish is left to do.
    Finish(fast::Ran),
}

/// The items of a list from the first one [`run_list`] did not finish.
async fn run_items(sh: &mut ShellState, items: &[ast::CompoundListItem], fds: &Fds, start: Start) -> Res {
    let mut status = sh.last_status;
    let mut declined = false;
    match start {
        Start::Fresh => {}
        Start::Declined => declined = true,
        Start::Finish(ran) => status = finish_fast(sh, fds, ran).await?,
    }
    for ast::CompoundListItem(and_or, sep) in items {
        let offer = !std::mem::take(&mut declined);
        if sh.opts.noexec {
            // `set -n`: commands are read, never run (nothing can turn it off).
            break;
        }
        // `exec >file` changed this shell's descriptors for what follows.
        let current = sh.exec_fds.clone();
        let fds = current.as_deref().unwrap_or(fds);
        status = if matches!(sep, ast::SeparatorOperator::Async) {
            let s = Box::pin(jobs::spawn(sh, and_or, fds)).await?;
            sh.last_status = s;
            s
        } else if let Some(ran) =
            lone_command(and_or).filter(|_| offer).map(|c| fast::try_command(sh, c, fds)).transpose()?.flatten()
        {
            finish_fast(sh, fds, ran).await?
        } else if let Some((c, (f, args))) =
            lone_simple(and_or).and_then(|c| Some((c, fast::call::function_call(sh, c)?)))
        {
            let s = fast::call::run(sh, c, f, args, fds).await?;
            finish_fast(sh, fds, fast::Ran { status: s, yield_due: false }).await?
        } else if let Some(c) = lone_compound(sh, &and_or.first).filter(|_| and_or.additional.is_empty()) {
            run_lone_compound(sh, c, fds).await?
        } else if let Some(c) = lone_other(sh, and_or) {
            run_lone_other(sh, c, fds).await?
        } else {
            // Boxed apart, as the largest arm: this future is boxed for
            // every list, and copied whole when it is.
            Box::pin(run_and_or(sh, and_or, fds)).await?
        };
    }
    Ok(status)
}

/// The command of a list item that is one command alone (no `&&`, `|`, `!`, `time`).
fn lone_command(and_or: &ast::AndOrList) -> Option<&ast::Command> {
    let p = &and_or.first;
    match &p.seq[..] {
        [cmd] if and_or.additional.is_empty() && p.timed.is_none() && !p.bang => Some(cmd),
        _ => None,
    }
}

/// The compound command of a pipeline that is a group, `if`, loop or
/// `case` alone, without redirections, when it can start at once.
fn lone_compound<'a>(sh: &ShellState, p: &'a ast::Pipeline) -> Option<&'a ast::CompoundCommand> {
    match lone_other_in(sh, p)? {
        ast::Command::Compound(c, None)
            if !matches!(c, ast::CompoundCommand::Subshell(_) | ast::CompoundCommand::Arithmetic(_)) =>
        {
            Some(c)
        }
        _ => None,
    }
}

/// [`run_lone_other`] for [`lone_compound`]'s command, with one future fewer.
async fn run_lone_compound(sh: &mut ShellState, c: &ast::CompoundCommand, fds: &Fds) -> Res {
    sh.compound_unrun = false;
    let status = stack::GrowStack(Box::pin(compound::run(sh, c, fds))).await?;
    sh.last_status = status;
    if std::mem::take(&mut sh.compound_unrun) {
        return check_errexit(sh, fds, status).await;
    }
    Ok(status)
}

/// The command of a list item or and-or pipeline that is one command other
/// than a simple command alone (a group, `if`, loop, `case`, `[[ ]]`, a
/// subshell, a definition), when it can start at once.
fn lone_other<'a>(sh: &ShellState, and_or: &'a ast::AndOrList) -> Option<&'a ast::Command> {
    lone_other_in(sh, &and_or.first).filter(|_| and_or.additional.is_empty())
}

/// [`lone_other`] for one pipeline.
fn lone_other_in<'a>(sh: &ShellState, p: &'a ast::Pipeline) -> Option<&'a ast::Command> {
    match (&p.seq[..], &p.timed, p.bang) {
        ([cmd], None, false) if !matches!(cmd, ast::Command::Simple(_)) => {
            (!crate::limits::inline::slice_spent(&sh.budget)).then_some(cmd)
        }
        _ => None,
    }
}

/// What the and-or list, pipeline and command layers around
/// [`lone_other`]'s command do, without their futures: in a loop body
/// (`case`, `if`, `[[ ]] && { }`), building, boxing and copying those was a
/// large part of each turn. Mirrors `run_pipeline_untimed` and
/// `run_pipeline_stages` for one command.
fn run_lone_other<'a>(sh: &'a mut ShellState, cmd: &'a ast::Command, fds: &'a Fds) -> BoxFuture<'a, Res> {
    // Built as `run_command` is (a boxed block): the recursion through a
    // `case` arm's group needs a future type that is named `Send`.
    Box::pin(async move {
        sh.compound_unrun = false;
        let status = stack::GrowStack(Box::pin(run_other_command(sh, cmd, fds))).await?;
        match cmd {
            ast::Command::Compound(c, _) => {
                let own = matches!(c, ast::CompoundCommand::Subshell(_) | ast::CompoundCommand::Arithmetic(_));
                if own {
                    set_pipestatus_one(sh, status);
                }
                sh.last_status = status;
                // A compound reports its own failures through its commands.
                if !std::mem::take(&mut sh.compound_unrun) && !own {
                    return Ok(status);
                }
            }
            ast::Command::Function(_) => sh.last_status = status,
            _ => {
                set_pipestatus_one(sh, status);
                sh.last_status = status;
            }
        }
        check_errexit(sh, fds, status).await
    })
}

/// The simple command of a list item that is one simple command alone.
fn lone_simple(and_or: &ast::AndOrList) -> Option<&ast::SimpleCommand> {
    match lone_command(and_or)? {
        ast::Command::Simple(c) => Some(c),
        _ => None,
    }
}

/// [`finish_fast`] when it has nothing to wait on: a status that `set -e`
/// and the ERR trap ignore, and no turn due (`None`, nothing done, otherwise).
fn finish_fast_now(sh: &mut ShellState, ran: &fast::Ran) -> Option<i32> {
    if ran.yield_due || (ran.status != 0 && !sh.in_condition) {
        return None;
    }
    set_pipestatus_one(sh, ran.status);
    sh.last_status = ran.status;
    // As `check_errexit` does for a status it ignores.
    sh.err_trap_new_in_call = false;
    Some(ran.status)
}

/// What the pipeline around a command run by [`fast`] would have done after it.
async fn finish_fast(sh: &mut ShellState, fds: &Fds, ran: fast::Ran) -> Res {
    set_pipestatus_one(sh, ran.status);
    sh.last_status = ran.status;
    let status = check_errexit(sh, fds, ran.status).await?;
    if ran.yield_due {
        simple::take_turn(sh).await;
    }
    Ok(status)
}

/// Run `a && b || c`. Only the last pipeline is outside a condition for `set -e`.
async fn run_and_or(sh: &mut ShellState, list: &ast::AndOrList, fds: &Fds) -> Res {
    let cond_before = sh.in_condition;
    let r = run_and_or_inner(sh, list, fds, cond_before).await;
    sh.in_condition = cond_before;
    r
}

async fn run_and_or_inner(sh: &mut ShellState, list: &ast::AndOrList, fds: &Fds, cond_before: bool) -> Res {
    let n = list.additional.len();
    sh.in_condition = cond_before || n > 0;
    // A lone command was offered to `fast` already (see `run_list`).
    let status = if n > 0 {
        run_pipeline_or_fast(sh, &list.first, fds).await?
    } else {
        run_pipeline(sh, &list.first, fds).await?
    };
    and_or_from(sh, list, fds, cond_before, 0, status).await
}

/// The pipelines of an and-or list after the `&&`/`||` numbered `from`,
/// the one before having given `status`.
async fn and_or_from(
    sh: &mut ShellState,
    list: &ast::AndOrList,
    fds: &Fds,
    cond_before: bool,
    from: usize,
    mut status: i32,
) -> Res {
    let n = list.additional.len();
    for (i, next) in list.additional.iter().enumerate().skip(from) {
        if let Some(p) = taken(next, status) {
            sh.in_condition = cond_before || i + 1 < n;
            status = run_pipeline_or_fast(sh, p, fds).await?;
        }
    }
    Ok(status)
}

/// The pipeline after `&&` or `||`, when the status before it runs it.
fn taken(next: &ast::AndOr, status: i32) -> Option<&ast::Pipeline> {
    match next {
        ast::AndOr::And(p) if status == 0 => Some(p),
        ast::AndOr::Or(p) if status != 0 => Some(p),
        _ => None,
    }
}

/// How far [`and_or_now`] ran an and-or list.
enum AndOrNow {
    /// All of it, with this status.
    Done(i32),
    Failed(Flow),
    /// Nothing: its first command is not one the fast paths run.
    Declined,
    /// Up to a point [`and_or_rest`] goes on from.
    Rest(AndOrRest),
}

/// Where an and-or list run at the call stopped.
struct AndOrRest {
    /// The first `&&`/`||` not run yet.
    next: usize,
    status: i32,
    /// The command before it ran, and its finish waits (`set -e`, a turn).
    pending: Option<fast::Ran>,
    cond_before: bool,
}

/// `[ -n "$x" ] && n=$((n + 1))`, `[ $n -le 0 ] && return`: an and-or list
/// of plain commands run at the call as long as the fast paths run each,
/// as [`run_and_or`] would run it (each command's place in the condition,
/// the statuses), without its futures.
fn and_or_now(sh: &mut ShellState, list: &ast::AndOrList, fds: &Fds) -> AndOrNow {
    fn one(p: &ast::Pipeline) -> Option<&ast::Command> {
        match (&p.seq[..], &p.timed, p.bang) {
            ([c], None, false) => Some(c),
            _ => None,
        }
    }
    let Some(first) = one(&list.first).filter(|_| !list.additional.is_empty()) else {
        return AndOrNow::Declined;
    };
    let cond_before = sh.in_condition;
    let n = list.additional.len();
    sh.in_condition = true;
    let ran = match fast::try_command(sh, first, fds) {
        Ok(Some(ran)) => ran,
        other => {
            sh.in_condition = cond_before;
            return match other {
                Err(e) => AndOrNow::Failed(e),
                _ => AndOrNow::Declined,
            };
        }
    };
    let Some(mut status) = finish_fast_now(sh, &ran) else {
        return AndOrNow::Rest(AndOrRest { next: 0, status: ran.status, pending: Some(ran), cond_before });
    };
    for (i, next) in list.additional.iter().enumerate() {
        let Some(p) = taken(next, status) else {
            continue;
        };
        sh.in_condition = cond_before || i + 1 < n;
        let declined = AndOrNow::Rest(AndOrRest { next: i, status, pending: None, cond_before });
        let Some(cmd) = one(p) else { return declined };
        match fast::try_command(sh, cmd, fds) {
            Err(e) => {
                sh.in_condition = cond_before;
                return AndOrNow::Failed(e);
            }
            Ok(None) => return declined,
            Ok(Some(ran)) => match finish_fast_now(sh, &ran) {
                Some(s) => status = s,
                None => {
                    let next = i + 1;
                    return AndOrNow::Rest(AndOrRest { next, status: ran.status, pending: Some(ran), cond_before });
                }
            },
        }
    }
    sh.in_condition = cond_before;
    AndOrNow::Done(status)
}

/// The rest of an and-or list [`and_or_now`] began.
async fn and_or_rest(sh: &mut ShellState, list: &ast::AndOrList, fds: &Fds, rest: AndOrRest) -> Res {
    let cond_before = rest.cond_before;
    let r = async {
        let status = match rest.pending {
            Some(ran) => finish_fast(sh, fds, ran).await?,
            None => rest.status,
        };
        and_or_from(sh, list, fds, cond_before, rest.next, status).await
    }
    .await;
    sh.in_condition = cond_before;
    r
}

/// Run pipeline `p` of an and-or list, at once when it is one command that
/// [`fast`] runs (`[ -n "$x" ] && n=$((n + 1))`).
async fn run_pipeline_or_fast(sh: &mut ShellState, p: &ast::Pipeline, fds: &Fds) -> Res {
    if let ([cmd], None, false) = (p.seq.as_slice(), &p.timed, p.bang) {
        if let Some(ran) = fast::try_command(sh, cmd, fds)? {
            return finish_fast(sh, fds, ran).await;
        }
    }
    if let Some(cmd) = lone_other_in(sh, p) {
        return run_lone_other(sh, cmd, fds).await;
    }
    run_pipeline(sh, p, fds).await
}

/// A command failed outside a condition: run the ERR trap, then leave the shell
/// under `set -e`.
async fn check_errexit(sh: &mut ShellState, fds: &Fds, status: i32) -> Res {
    let new_in_call = std::mem::take(&mut sh.err_trap_new_in_call);
    if status == 0 || sh.in_condition {
        return Ok(status);
    }
    // Functions run without it unless `set -E` (see `call_function`).
    // The action runs as any commands do: under `set -e` a failure in it
    // ends the shell (the trap itself is off while it runs).
    if !new_in_call && sh.traps.get("ERR").is_some_and(|a| !a.is_empty()) {
        // Boxed: inline, the trap's future made every list's future large.
        let r = Box::pin(simple::run_trap(sh, "ERR", fds)).await;
        sh.last_status = status;
        r?;
    }
    if sh.opts.errexit {
        return Err(Flow::Exit(status));
    }
    Ok(status)
}

/// Run `[time [-p]] [!] a | b | c`.
async fn run_pipeline(sh: &mut ShellState, p: &ast::Pipeline, fds: &Fds) -> Res {
    let Some(timed) = &p.timed else {
        return run_pipeline_untimed(sh, p, fds).await;
    };
    let start = std::time::Instant::now();
    let r = run_pipeline_untimed(sh, p, fds).await;
    let posix = matches!(timed, ast::PipelineTimed::TimedWithPosixOutput(_));
    if let Some(text) = timing::report(sh.get_var("TIMEFORMAT").as_deref(), posix, start.elapsed()) {
        let _ = fds.stderr.write_str(&text).await;
    }
    r
}

async fn run_pipeline_untimed(sh: &mut ShellState, p: &ast::Pipeline, fds: &Fds) -> Res {
    sh.compound_unrun = false;
    let cond_before = sh.in_condition;
    if p.bang {
        sh.in_condition = true;
    }
    let result = run_pipeline_stages(sh, p, fds).await;
    sh.in_condition = cond_before;
    let status = result?;
    if p.bang {
        let s = i32::from(status == 0);
        sh.last_status = s;
        return Ok(s);
    }
    sh.last_status = status;
    // A group, loop, `if` or `case` reports its own failure through the
    // command inside it that failed: bash runs neither the ERR trap nor
    // `set -e` again for the compound (a failing `a && b` inside one stays
    // a condition).
    if let [ast::Command::Compound(c, _)] = p.seq.as_slice() {
        let unrun = std::mem::take(&mut sh.compound_unrun);
        if !unrun && !matches!(c, ast::CompoundCommand::Subshell(_) | ast::CompoundCommand::Arithmetic(_)) {
            return Ok(status);
        }
    }
    check_errexit(sh, fds, status).await
}

async fn run_pipeline_stages(sh: &mut ShellState, p: &ast::Pipeline, fds: &Fds) -> Res {
    if p.seq.len() <= 1 {
        let status = match p.seq.first() {
            Some(cmd) => run_command(sh, cmd, fds).await?,
            None => 0,
        };
        // A compound command (other than `( )` and `(( ))`) and a function
        // definition leave what the commands in them set.
        let own = match p.seq.first() {
            Some(ast::Command::Compound(c, _)) => {
                matches!(c, ast::CompoundCommand::Subshell(_) | ast::CompoundCommand::Arithmetic(_))
            }
            Some(ast::Command::Function(_)) => false,
            _ => true,
        };
        if own {
            set_pipestatus_one(sh, status);
        }
        return Ok(status);
    }
    let limit = sh.budget.limits.max_pipeline_stages;
    if p.seq.len() as u64 > limit {
        return Err(Flow::Stop(Budget::exceeded("max_pipeline_stages", limit, "pipeline length")));
    }
    enter_subshell(sh)?;
    // Each stage runs in its own fork of the shell, connected by bounded pipes,
    // all polled concurrently so producers and consumers interleave.
    let n = p.seq.len();
    let mut stage_fds = Vec::with_capacity(n);
    let mut next_in = fds.stdin.clone();
    for i in 0..n {
        let (out, inp) = if i + 1 < n {
            let (w, r) = io::pipe();
            (w, Some(r))
        } else {
            (fds.stdout.clone(), None)
        };
        stage_fds.push(Fds { stdin: next_in.clone(), stdout: out, ..fds.clone() });
        if let Some(r) = inp {
            next_in = r;
        }
    }
    drop(next_in);
    // `shopt -s lastpipe`: the last stage runs in this shell, not a fork.
    let lastpipe = sh.opts.lastpipe;
    let forks = if lastpipe { n - 1 } else { n };
    // bash runs the DEBUG trap for a simple command before forking it: in
    // this shell, its output not in the pipe.
    let debug = simple::debug_set(sh) && sh.trace.in_trap == 0;
    if debug {
        for cmd in p.seq.iter().take(forks) {
            if let ast::Command::Simple(c) = cmd {
                let text = print_cmd::simple_text(&sh.src, c);
                if let Some(l) = c.location() {
                    sh.line = sh.src.line(l.start.line);
                }
                simple::debug_trap(sh, fds, text).await?;
            }
        }
    }
    let mut states: Vec<ShellState> = p
        .seq
        .iter()
        .take(forks)
        .map(|cmd| {
            let mut st = fork(sh);
            if debug && matches!(cmd, ast::Command::Simple(_)) {
                Arc::make_mut(&mut st.traps).remove("DEBUG");
            }
            // A compound stage runs as bash's subshells do, outside the
            // loops around it; a simple `break` stage just ends its process.
            if matches!(cmd, ast::Command::Compound(..)) {
                st.loop_depth = 0;
            }
            st
        })
        .collect();
    sh.subshell_depth -= 1;
    let mut stage_fds = stage_fds;
    let last_fds = if lastpipe { stage_fds.pop() } else { None };
    // The ERR trap as the stages' own processes keep it (see below).
    let err_action = sh.traps.get("ERR").filter(|a| !a.is_empty()).cloned();
    let err_action = &err_action;
    let futures = states.iter_mut().zip(p.seq.iter()).zip(stage_fds).enumerate().map(|(i, ((st, cmd), f))| {
        Box::pin(async move {
            let r = run_command(st, cmd, &f).await;
            // A `( list )` ending the pipeline that fails runs the ERR trap
            // in its own process too (then the pipeline's runs it again).
            let subshell_last =
                i + 1 == n && matches!(cmd, ast::Command::Compound(ast::CompoundCommand::Subshell(_), _));
            let r = match (r, err_action) {
                (Ok(s), Some(action)) if s != 0 && subshell_last && !st.in_condition => {
                    Arc::make_mut(&mut st.traps).insert("ERR".into(), action.clone());
                    match simple::run_trap(st, "ERR", &f).await {
                        Err(Flow::Stop(stop)) => Err(Flow::Stop(stop)),
                        _ => Ok(s),
                    }
                }
                (r, _) => r,
            };
            let r = match r {
                Ok(s) => Ok(s),
                Err(Flow::Exit(s)) | Err(Flow::Return(s)) | Err(Flow::Abort(s)) => Ok(s),
                Err(Flow::Break(_)) | Err(Flow::Continue(_)) => Ok(0),
                Err(Flow::Stop(s)) => Err(s),
            };
            // The stage is a subshell: an EXIT trap it set runs as it ends.
            let r = match r {
                Ok(s) => run_exit_trap(st, &f, s).await,
                e => e,
            };
            drop(f);
            r
        })
    });
    let last_cmd = p.seq.last();
    let in_shell = async {
        match (last_fds, last_cmd) {
            (Some(f), Some(cmd)) => {
                let r = run_command(sh, cmd, &f).await;
                drop(f);
                Some(r)
            }
            _ => None,
        }
    };
    let (results, last) = futures_util::future::join(futures_util::future::join_all(futures), in_shell).await;
    let mut statuses = Vec::with_capacity(n);
    for r in results {
        statuses.push(r?);
    }
    if let Some(r) = last {
        // `exit`, `return`, `break` in the last stage act on this shell.
        let s = r?;
        statuses.push(s);
    }
    // What the stages ran is what an ERR trap here sees: the last one's line and command.
    if !sh.traps.is_empty() && !lastpipe {
        if let Some(ast::Command::Simple(c)) = p.seq.last() {
            if let Some(l) = c.location() {
                sh.line = sh.src.line(l.start.line);
            }
            if sh.trace.in_trap == 0 {
                sh.trace.command = Some(print_cmd::simple_text(&sh.src, c));
            }
        }
    }
    let status =
        if sh.opts.pipefail { statuses.iter().rev().find(|&&s| s != 0).copied().unwrap_or(0) } else { statuses[n - 1] };
    let pipestatus = statuses.iter().enumerate().map(|(i, s)| (i as i64, s.to_string())).collect();
    set_pipestatus(sh, crate::state::Value::Indexed(pipestatus));
    Ok(status)
}

/// The shell sets PIPESTATUS even when a script made it readonly.
fn set_pipestatus(sh: &mut ShellState, value: crate::state::Value) {
    sh.vars.entry("PIPESTATUS").value = Some(value);
}

/// `PIPESTATUS=(status)` after a one-command pipeline, unless it already is
/// that (most commands of a loop leave it as it was).
fn set_pipestatus_one(sh: &mut ShellState, status: i32) {
    use crate::state::Value;
    let mut digits = itoa::Buffer::new();
    let text = digits.format(status);
    if let Some(crate::state::Var { value: Some(Value::Indexed(m)), .. }) = sh.vars.get("PIPESTATUS") {
        if m.len() == 1 && m.get(&0).is_some_and(|s| s == text) && !sh.vars.has_refs() {
            return;
        }
    }
    // Rewritten in place when it is already one element (a loop's commands
    // alternate between statuses): no new map per command.
    let v = sh.vars.entry("PIPESTATUS");
    if let Some(Value::Indexed(m)) = &mut v.value {
        if let (1, Some(s)) = (m.len(), m.get_mut(&0)) {
            s.clear();
            s.push_str(text);
            return;
        }
    }
    v.value = Some(Value::Indexed([(0, text.to_string())].into_iter().collect()));
}

/// A word's exact source text (see `state::source`).
pub fn raw_word(sh: &ShellState, w: &ast::Word) -> String {
    sh.src.word(w).into_owned()
}

/// Count one more level of subshell nesting.
fn enter_subshell(sh: &mut ShellState) -> Result<(), Flow> {
    let limit = sh.budget.limits.max_subshell_depth;
    if sh.subshell_depth >= limit {
        return Err(Flow::Stop(Budget::exceeded("max_subshell_depth", limit, "subshell nesting")));
    }
    sh.subshell_depth += 1;
    Ok(())
}

/// Run one command of any kind.
pub fn run_command<'a>(sh: &'a mut ShellState, cmd: &'a ast::Command, fds: &'a Fds) -> BoxFuture<'a, Res> {
    // A simple command's future boxed as it is: awaited inside another
    // future it would be copied in whole, into a state twice its size.
    if let ast::Command::Simple(s) = cmd {
        if !crate::limits::inline::slice_spent(&sh.budget) {
            return Box::pin(stack::GrowStack(Box::pin(simple::run(sh, s, fds))));
        }
    }
    let f = async move {
        crate::limits::inline::at_command(&sh.budget).await;
        match cmd {
            ast::Command::Simple(s) => simple::run(sh, s, fds).await,
            // The rest apart: this future is made for every command, and
            // copied as large as its largest arm.
            _ => Box::pin(run_other_command(sh, cmd, fds)).await,
        }
    };
    Box::pin(stack::GrowStack(Box::pin(f)))
}

/// A command that is not a simple command.
async fn run_other_command(sh: &mut ShellState, cmd: &ast::Command, fds: &Fds) -> Res {
    match cmd {
        ast::Command::Simple(s) => simple::run(sh, s, fds).await,
        ast::Command::Compound(c, redirs) => match redirs {
            Some(r) => {
                // bash has read the whole command, here-documents included:
                // errors of its redirections name the line it ended on.
                if let Some(end) = redirect::end_line(c, &r.0) {
                    sh.line = sh.src.line(end);
                }
                let applied = match redirect::apply(sh, &r.0, fds).await {
                    // A subshell makes its redirections in its child: an
                    // expansion error there fails the subshell only.
                    Err(Flow::Exit(s) | Flow::Abort(s)) if matches!(c, ast::CompoundCommand::Subshell(_)) => {
                        sh.last_status = s;
                        return Ok(s);
                    }
                    other => other?,
                };
                let Some(inner) = applied else {
                    sh.compound_unrun = true;
                    return Ok(1);
                };
                // Redirections of a compound command end with it, `exec` inside included.
                let saved = sh.exec_fds.take();
                let r = compound::run(sh, c, &inner).await;
                sh.exec_fds = saved;
                if redirect::close_files(sh, fds, &inner).await {
                    r
                } else {
                    r.map(|s| s.max(1))
                }
            }
            None => compound::run(sh, c, fds).await,
        },
        ast::Command::Function(def) => {
            let name = &def.fname.value;
            if sh.opts.get("posix", crate::state::options::Kind::Set) == Some(true) {
                // POSIX mode: a function needs a valid name, not a special
                // builtin's; a non-interactive shell ends (status 2).
                let msg = if !crate::builtins::valid_name(name) {
                    Some(format!("`{name}': not a valid identifier"))
                } else {
                    crate::builtins::is_special(name).then(|| format!("`{name}': is a special builtin"))
                };
                if let Some(msg) = msg {
                    fds.shell_err(sh.loc(), &msg).await;
                    return Err(Flow::Exit(2));
                }
            }
            // A name with an expansion or a quote in it is refused when the
            // definition runs (bash's `check_identifier`: W_HASDOLLAR, W_QUOTED).
            if name.contains(['$', '`', '\'', '"', '\\']) {
                if let Some(l) = &def.fname.loc {
                    sh.line = sh.src.line(l.start.line);
                }
                fds.shell_err(sh.loc(), &format!("`{name}': not a valid identifier")).await;
                return Ok(1);
            }
            if sh.funcs.get(name).is_some_and(|f| f.readonly) {
                fds.shell_err(sh.loc(), &format!("{name}: readonly function")).await;
                return Ok(1);
            }
            define_function(sh, def);
            Ok(0)
        }
        ast::Command::ExtendedTest(t, redirs) => {
            // bash has read the whole `[[ ]]` when it runs it: its line
            // (`LINENO`, messages) is the one it ends on.
            if let Some(loc) = t.location() {
                sh.line = sh.src.line(loc.end.line);
            }
            if simple::before_command(sh, fds, |sh| print_cmd::one_command_text(&sh.src, cmd)).await? {
                return Ok(sh.last_status);
            }
            let fds = match redirs {
                Some(r) => match redirect::apply(sh, &r.0, fds).await? {
                    Some(f) => f,
                    None => return Ok(1),
                },
                None => fds.clone(),
            };
            cond::extended_test(sh, &t.expr, &fds).await
        }
    }
}

fn define_function(sh: &mut ShellState, def: &ast::FunctionDefinition) {
    let source = function_source(&sh.src, def);
    let name = def.fname.value.clone();
    let program = sh.src.clone();
    // A redefinition keeps the export attribute, as in bash.
    let exported = sh.funcs.get(&name).is_some_and(|f| f.exported);
    let file: Arc<str> = sh.source_name().unwrap_or_else(|| "environment".into()).into();
    let line = def.location().map_or(sh.line, |l| program.line(l.start.line));
    let f = Function {
        def: def.clone(),
        name: name.as_str().into(),
        source,
        program,
        exported,
        readonly: false,
        file,
        line,
    };
    Arc::make_mut(&mut sh.funcs).insert(name, Arc::new(f));
}

/// The text of a function definition, complete enough to parse back into the
/// same function (snapshots store functions as text). brush-parser's span
/// starts at the name and ends at the body, so a leading `function` keyword is
/// taken from the text before it and the body's redirections (which carry no
/// location) are written back from the AST.
pub fn function_source(src: &crate::state::source::Source, def: &ast::FunctionDefinition) -> String {
    let Some(loc) = def.location() else { return String::new() };
    let (mut a, b) = (loc.start.index, loc.end.index);
    let before = a.min(64);
    if let Some(w) = src.slice(a - before, a) {
        let trimmed = w.trim_end_matches([' ', '\t']);
        if let Some(head) = trimmed.strip_suffix("function") {
            if (head.is_empty() && before == a) || head.ends_with(|c: char| c.is_whitespace() || ";&|(){}".contains(c))
            {
                a -= w.chars().count() - head.chars().count();
            }
        }
    }
    let mut text = src.slice(a, b).unwrap_or_default().to_string();
    if let Some(redirs) = &def.body.1 {
        for r in &redirs.0 {
            text.push(' ');
            text.push_str(&r.to_string());
        }
    }
    text
}

/// Call a shell function with arguments.
pub async fn call_function(
    sh: &mut ShellState,
    name: &str,
    func: Arc<Function>,
    args: Arc<Vec<String>>,
    fds: &Fds,
) -> Res {
    // One change of the frames (each change drops the arrays computed from
    // them): BASH_SOURCE gets the file the function was defined in,
    // FUNCNAME and BASH_LINENO the frame, and BASH_ARGV the arguments, which
    // count there only under `extdebug`.
    let extdebug = sh.opts.extdebug;
    let line = sh.line;
    sh.func_depth += 1;
    let stack = sh.call_stack();
    stack.sources.push(func.file.clone());
    stack.args.push(extdebug.then(|| args.clone()));
    stack.args_init |= extdebug;
    stack.lines.push(line);
    stack.names.push(if *func.name == *name { func.name.clone() } else { name.into() });
    sh.func_depth -= 1;
    // A function not traced (`set -T`) runs without the DEBUG and RETURN
    // traps, and without ERR unless `set -E`; they come back when it returns,
    // unless it set its own.
    let traced = sh.opts.functrace;
    let err_before = !sh.traps.is_empty() && sh.traps.get("ERR").is_some_and(|a| !a.is_empty());
    let mut stashed: Vec<(&str, String)> = Vec::new();
    if !sh.traps.is_empty() {
        let untraced: &[&str] = match (traced, sh.opts.errtrace) {
            (true, true) => &[],
            (true, false) => &["ERR"],
            (false, true) => &["DEBUG", "RETURN"],
            (false, false) => &["DEBUG", "RETURN", "ERR"],
        };
        for t in untraced {
            if sh.traps.get(*t).is_some_and(|a| !a.is_empty()) {
                if let Some(a) = Arc::make_mut(&mut sh.traps).remove(*t) {
                    stashed.push((t, a));
                }
            }
        }
    }
    // A traced function runs the DEBUG trap as it starts, at its own line.
    let mut r = Ok(0);
    let mut skip = false;
    if traced && sh.trace.in_trap == 0 && simple::debug_set(sh) {
        let line = sh.line;
        if let Some(l) = func.def.location() {
            sh.line = func.program.line(l.start.line);
        }
        sh.func_depth += 1;
        let text = sh.bash_command();
        // Boxed, as the traps below: a call's future is copied whole.
        match Box::pin(simple::debug_trap(sh, fds, text)).await {
            Ok(s) => skip = s,
            Err(Flow::Return(n)) => {
                skip = true;
                r = Ok(n);
            }
            Err(e) => {
                skip = true;
                r = Err(e);
            }
        }
        sh.func_depth -= 1;
        sh.line = line;
    }
    if !skip {
        r = call_function_inner(sh, func, args, fds).await;
    }
    for (t, a) in stashed {
        if !sh.traps.contains_key(t) {
            Arc::make_mut(&mut sh.traps).insert(t.to_string(), a);
        }
    }
    sh.err_trap_new_in_call = !err_before && !sh.traps.is_empty() && sh.traps.get("ERR").is_some_and(|a| !a.is_empty());
    let stack = sh.call_stack();
    stack.args.pop();
    stack.names.pop();
    let called_at = stack.lines.pop();
    stack.sources.pop();
    // The caller goes on at the line of the call.
    if let Some(l) = called_at {
        sh.line = l;
    }
    r
}

async fn call_function_inner(sh: &mut ShellState, func: Arc<Function>, args: Arc<Vec<String>>, fds: &Fds) -> Res {
    let limit = sh.budget.limits.max_function_depth;
    if sh.func_depth >= limit {
        return Err(Flow::Stop(Budget::exceeded("max_function_depth", limit, "function depth")));
    }
    sh.func_depth += 1;
    let saved_args = std::mem::replace(&mut sh.positional, args);
    sh.vars.push_scope();
    let body = &func.def.body;
    // Descriptors of the function's own redirections, when it has some.
    let redirected;
    let fds = match &body.1 {
        Some(r) => match Box::pin(redirect::apply(sh, &r.0, fds)).await {
            Ok(Some(f)) => {
                redirected = f;
                &redirected
            }
            Ok(None) => {
                sh.vars.pop_scope();
                sh.positional = saved_args;
                sh.func_depth -= 1;
                return Ok(1);
            }
            Err(e) => {
                sh.vars.pop_scope();
                sh.positional = saved_args;
                sh.func_depth -= 1;
                return Err(e);
            }
        },
        None => fds,
    };
    let saved_src = std::mem::replace(&mut sh.src, func.program.clone());
    let saved_loops = std::mem::replace(&mut sh.loop_depth, 0);
    let outer_local_opts = sh.local_opts.take();
    let r = compound::run(sh, &body.0, fds).await;
    // The RETURN trap runs as the function returns, still inside it.
    let r = match r {
        Err(Flow::Stop(s)) => Err(Flow::Stop(s)),
        Err(Flow::Exit(n)) => Err(Flow::Exit(n)),
        // An expansion error abandons the command: bash jumps back to the top
        // level without running the RETURN trap.
        Err(Flow::Abort(n)) => Err(Flow::Abort(n)),
        other if !sh.traps.is_empty() && sh.traps.get("RETURN").is_some_and(|a| !a.is_empty()) => {
            // `$?` there is the status before `return`.
            let t = Box::pin(simple::run_trap(sh, "RETURN", fds)).await;
            t.map(|_| ()).and(other)
        }
        other => other,
    };
    if let Some(opts) = std::mem::replace(&mut sh.local_opts, outer_local_opts) {
        sh.opts = *opts;
    }
    sh.loop_depth = saved_loops;
    sh.src = saved_src;
    sh.vars.pop_scope();
    sh.positional = saved_args;
    sh.func_depth -= 1;
    match r {
        Err(Flow::Return(n)) => {
            sh.last_status = n;
            Ok(n)
        }
        other => other,
    }
}

/// `$(...)`: run `src` in a fork of the shell and return its stdout with
/// trailing newlines removed.
pub async fn command_substitution(sh: &mut ShellState, fds: &Fds, src: &str) -> Result<String, Flow> {
    // bash runs the text it printed back from the parsed command: its first
    // line is the first with a command, on the line of the command around it.
    let src = skip_empty_lines(src);
    if src.len() > reader::WHOLE {
        return long_command_substitution(sh, fds, src).await;
    }
    let crate::syntax::cache::CachedProgram { program, source, .. } =
        match crate::syntax::cache::program(src, sh.budget.limits.max_parser_depth as usize, sh.opts.extglob) {
            Ok(p) => p,
            Err(m) => {
                // As bash reports a backquoted command it parses as it runs
                // it: no line of its own, the text's lines counted from the
                // line of the command around it.
                let who = sh.loc().who;
                let m = shift_lines(&m, sh.line.saturating_sub(1));
                let text = m.replace("\nbash: -c: ", &format!("\n{who}: command substitution: "));
                let _ = fds.stderr.write_str(&format!("{who}: command substitution: {text}\n")).await;
                sh.last_status = 2;
                sh.subst_status = Some(2);
                return Ok(String::new());
            }
        };
    if let Some(target) = read_only_redirect(&program) {
        // `$(< file)`: the file's contents, without running a command.
        let name = expand::expand_string(sh, fds, &target).await?;
        let p = crate::fs::path::resolve(&sh.cwd, &name);
        return match sh.fs.read(&p).await {
            Ok(mut bytes) => {
                drop_nul_bytes(sh, fds, &mut bytes).await;
                while bytes.last() == Some(&b'\n') {
                    bytes.pop();
                }
                sh.last_status = 0;
                sh.subst_status = Some(0);
                Ok(crate::raw_bytes::decode_vec(bytes))
            }
            Err(e) => {
                fds.shell_err(sh.loc(), &format!("{name}: {e}")).await;
                sh.last_status = 1;
                sh.subst_status = Some(1);
                Ok(String::new())
            }
        };
    }
    let mut sub = fork(sh);
    // `set -x` marks each level of `$( )` with one more PS4 character.
    sub.subst_depth += 1;
    // Outside POSIX mode bash clears `set -e` in `$( )` unless inherit_errexit.
    if !sh.opts.inherit_errexit {
        sub.opts.errexit = false;
    }
    enter_subshell(&mut sub)?;
    sub.src = rebase(source, sh.line.saturating_sub(1));
    let counter = OutputCounter::new(sh.budget.limits.max_string_bytes);
    let buf = CaptureBuf::new(counter.clone());
    let sub_fds = Fds { stdout: Output::Capture(buf.clone()), ..fds.clone() };
    let status = match run_program(&mut sub, &program, &sub_fds).await {
        Ok(s) => s,
        Err(stop) => return Err(Flow::Stop(stop)),
    };
    if counter.exceeded() {
        let limit = sh.budget.limits.max_string_bytes;
        return Err(Flow::Stop(Budget::exceeded("max_string_bytes", limit, "command substitution output")));
    }
    sh.last_status = status;
    sh.subst_status = Some(status);
    let mut bytes = buf.take();
    drop_nul_bytes(sh, fds, &mut bytes).await;
    while bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    Ok(crate::raw_bytes::decode_vec(bytes))
}

/// [`command_substitution`] of a long text, read a run of commands at a time.
async fn long_command_substitution(sh: &mut ShellState, fds: &Fds, src: &str) -> Result<String, Flow> {
    let mut sub = fork(sh);
    sub.subst_depth += 1;
    if !sh.opts.inherit_errexit {
        sub.opts.errexit = false;
    }
    enter_subshell(&mut sub)?;
    let counter = OutputCounter::new(sh.budget.limits.max_string_bytes);
    let buf = CaptureBuf::new(counter.clone());
    let sub_fds = Fds { stdout: Output::Capture(buf.clone()), ..fds.clone() };
    let reader = reader::Reader::at_offset(Arc::from(src), 0, sh.line.saturating_sub(1));
    let status = match reader::run_top(&mut sub, reader, &sub_fds).await {
        Ok(n) | Err(Flow::Exit(n)) => n,
        Err(Flow::Stop(s)) => return Err(Flow::Stop(s)),
        Err(_) => sub.last_status,
    };
    let status = run_exit_trap(&mut sub, &sub_fds, status).await.map_err(Flow::Stop)?;
    if counter.exceeded() {
        let limit = sh.budget.limits.max_string_bytes;
        return Err(Flow::Stop(Budget::exceeded("max_string_bytes", limit, "command substitution output")));
    }
    sh.last_status = status;
    sh.subst_status = Some(status);
    let mut bytes = buf.take();
    drop_nul_bytes(sh, fds, &mut bytes).await;
    while bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    Ok(crate::raw_bytes::decode_vec(bytes))
}

/// `src` from its first line that holds more than blanks or a comment.
fn skip_empty_lines(src: &str) -> &str {
    let mut rest = src;
    while let Some((line, after)) = rest.split_once('\n') {
        let t = line.trim_start();
        if !t.is_empty() && !t.starts_with('#') {
            break;
        }
        rest = after;
    }
    rest
}

/// bash drops NUL bytes from a command substitution's output, with a warning.
async fn drop_nul_bytes(sh: &ShellState, fds: &Fds, bytes: &mut Vec<u8>) {
    if bytes.contains(&0) {
        bytes.retain(|&b| b != 0);
        fds.shell_err(sh.loc(), "warning: command substitution: ignored null byte in input").await;
    }
}

/// The target word of a program that is only `< file`.
fn read_only_redirect(program: &ast::Program) -> Option<String> {
    let [cc] = program.complete_commands.as_slice() else {
        return None;
    };
    let [ast::CompoundListItem(and_or, _)] = cc.0.as_slice() else {
        return None;
    };
    if !and_or.additional.is_empty() || and_or.first.seq.len() != 1 || and_or.first.bang {
        return None;
    }
    let ast::Command::Simple(cmd) = &and_or.first.seq[0] else {
        return None;
    };
    if cmd.word_or_name.is_some() || cmd.suffix.is_some() {
        return None;
    }
    let items = &cmd.prefix.as_ref()?.0;
    match items.as_slice() {
        [ast::CommandPrefixOrSuffixItem::IoRedirect(ast::IoRedirect::File(
            None | Some(0),
            ast::IoFileRedirectKind::Read,
            ast::IoFileRedirectTarget::Filename(w),
        ))] => Some(w.value.clone()),
        _ => None,
    }
}

/// `source` reporting lines after `base` (text parsed inside a script line).
fn rebase(source: Arc<Source>, base: usize) -> Arc<Source> {
    if base == 0 {
        return source;
    }
    Arc::new(Arc::unwrap_or_clone(source).with_line_base(base))
}

/// Parse and run `src` in this shell (for `eval` and `source`); control flow
/// propagates to the caller. A parse error prints bash's message, status 2.
/// `eval` text counts its lines after the line of the `eval` command.
pub async fn run_string(sh: &mut ShellState, src: &str, fds: &Fds, what: &str) -> Res {
    enter_eval(sh)?;
    let r = run_string_inner(sh, src, fds, what, what == "eval").await;
    sh.eval_depth -= 1;
    r
}

/// [`run_string`] for a trap's action run before or after a command: its lines
/// count from the current line, as `eval`'s do.
pub async fn run_trap_string(sh: &mut ShellState, src: &str, fds: &Fds) -> Res {
    enter_eval(sh)?;
    let r = run_string_inner(sh, src, fds, "trap", true).await;
    sh.eval_depth -= 1;
    r
}

/// One more string run inside another (see [`ShellState::eval_depth`]); the
/// caller decrements `eval_depth` when done.
pub fn enter_eval(sh: &mut ShellState) -> Result<(), Flow> {
    let limit = sh.budget.limits.max_function_depth;
    if sh.eval_depth >= limit {
        return Err(Flow::Stop(Budget::exceeded("max_function_depth", limit, "eval nesting")));
    }
    sh.eval_depth += 1;
    Ok(())
}

async fn run_string_inner(sh: &mut ShellState, src: &str, fds: &Fds, what: &str, relative: bool) -> Res {
    crate::limits::inline::leave_above(src.len(), crate::limits::inline::BYTES).await;
    let depth = sh.budget.limits.max_parser_depth as usize;
    // `eval` text's first line is the line of the `eval` itself, for its
    // syntax errors as for `LINENO` (taken before its commands move it).
    let base = if relative { sh.line.saturating_sub(1) } else { 0 };
    if src.len() > reader::WHOLE {
        // A long text is read a run of commands at a time.
        let r = reader::Reader::at_offset(Arc::from(src), 0, base);
        return reader::run_string(sh, r, fds, what, base).await;
    }
    // After a syntax error, the commands before it still run.
    let mut error_after = None;
    // From the parse cache: a loop's `eval` runs the same text again and again.
    let (program, source) = match crate::syntax::cache::program(src, depth, sh.opts.extglob) {
        Ok(p) => (p.program, p.source),
        Err(m) => match crate::syntax::runnable_prefix(src, &m, depth) {
            Some((p, ran)) => {
                error_after = Some((m, ran));
                (Arc::new(p.program), p.source)
            }
            // A reserved word may come from an alias (`alias myif=if`).
            None if sh.opts.expand_aliases && !sh.aliases.is_empty() => {
                let r = reader::Reader::at_offset(Arc::from(src), 0, base);
                return reader::run_string(sh, r, fds, what, base).await;
            }
            None => return Ok(syntax_error_status(sh, fds, what, &m, base, src).await),
        },
    };
    let source = if relative { rebase(source, base) } else { source };
    let saved_src = std::mem::replace(&mut sh.src, source);
    let mut status = 0;
    let mut result = Ok(0);
    for i in 0..program.complete_commands.len() {
        if reader::wants(sh, &program, i) {
            // Aliases change what the rest says: it is read command by
            // command (from the whole text, past a syntax error too).
            if let Some(r) = reader::Reader::at_command(sh, &program, i, Some(Arc::from(src))) {
                let r = reader::run_string(sh, r, fds, what, base).await;
                sh.src = saved_src;
                return r;
            }
        }
        if i + 1 == program.complete_commands.len() {
            // A nested `bash -c` string's last command too.
            let execs = what == "bash" && !sh.script_file;
            at_last_command(sh, &program.complete_commands[i], execs, fds).await;
        }
        let r = run_list(sh, &program.complete_commands[i], fds).await;
        match string_step(sh, r, what, &program, i) {
            Ok(s) => status = s,
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    if let (Some((m, ran)), Ok(_)) = (error_after, &result) {
        // Once the commands before the error define aliases, the rest is
        // read again with them (`alias myif=if` on an earlier line); so
        // too once they set extglob.
        let extglob = sh.opts.extglob && crate::syntax::reads_otherwise_with_extglob(src.get(ran..).unwrap_or(""));
        if extglob || (sh.opts.expand_aliases && !sh.aliases.is_empty()) {
            let r = reader::Reader::at_offset(Arc::from(src), ran, sh.src.line_base);
            sh.src = saved_src;
            return reader::run_string(sh, r, fds, what, base).await;
        }
        sh.src = saved_src;
        return Ok(syntax_error_status(sh, fds, what, &m, base, src).await);
    }
    sh.src = saved_src;
    result.map(|_| status)
}

/// A syntax error in text run by `eval` (`bash: eval: line 2: ...`),
/// `source` (`file: line 1: ...`) or a nested bash (`script.sh: line 1: `,
/// `bash: -c: line 1: `), both lines of it named as bash names them.
/// One command's outcome in a string run inside the shell: its status, or
/// the flow that ends the string. A script file (`bash file`) goes on after
/// an abandoned command.
fn string_step(sh: &mut ShellState, r: Res, what: &str, program: &ast::Program, i: usize) -> Res {
    match r {
        Err(Flow::Abort(s)) if what == "bash" && sh.subshell_depth == sh.shell_base => {
            sh.last_status = s;
            shift_after_abort(sh, program, i);
            Ok(s)
        }
        other => other,
    }
}

/// Report a syntax error in a string run inside the shell; the status it
/// leaves. A malformed `[[ ]]` (`syntax::cond`) prints only its own message
/// (none for `[[ ]]`), and a script file ends with the status it had.
async fn syntax_error_status(sh: &ShellState, fds: &Fds, what: &str, m: &str, base: usize, src: &str) -> i32 {
    match crate::syntax::cond::message(m) {
        None => {
            report_syntax_error(sh, fds, what, m, base).await;
            match crate::syntax::eof_in_pair(m, src) {
                _ if what != "bash" => 2,
                Some(crate::syntax::EofInPair::LastIfFailed) if sh.last_status != 0 => sh.last_status,
                Some(crate::syntax::EofInPair::One) => 1,
                _ => 2,
            }
        }
        Some(msg) => {
            if !msg.is_empty() {
                report_syntax_error(sh, fds, what, m, base).await;
            }
            if what == "bash" {
                sh.last_status
            } else {
                2
            }
        }
    }
}

async fn report_syntax_error(sh: &ShellState, fds: &Fds, what: &str, m: &str, base: usize) {
    let shifted;
    let m = if what == "eval" && base > 0 {
        shifted = shift_lines(m, base);
        &shifted
    } else {
        m
    };
    let prefix = match what {
        "eval" => format!("{}: eval: ", sh.loc().who),
        // A nested bash: its script file's name, or `$0: -c: ` for `bash -c`.
        "bash" if sh.script_file => format!("{}: ", sh.loc().who),
        "bash" => format!("{}: -c: ", sh.arg0),
        "trap" => {
            fds.shell_err(sh.loc(), &format!("{what}: {m}")).await;
            return;
        }
        file => format!("{file}: "),
    };
    let text = m.replace("\nbash: -c: ", &format!("\n{prefix}"));
    let _ = fds.stderr.write_str(&format!("{prefix}{text}\n")).await;
}

/// A parser message with each `line N:` it names moved down by `by` lines.
fn shift_lines(m: &str, by: usize) -> String {
    let shift = |seg: &str| -> String {
        let at = if seg.starts_with("line ") { Some(0) } else { seg.find(": line ").map(|i| i + 2) };
        let Some(at) = at else {
            return seg.to_string();
        };
        let digits = &seg[at + 5..];
        let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
        match digits[..end].parse::<usize>() {
            Ok(n) => format!("{}line {}{}", &seg[..at], n.saturating_add(by), &digits[end..]),
            Err(_) => seg.to_string(),
        }
    };
    m.split('\n').map(shift).collect::<Vec<_>>().join("\n")
}

/// Run a script as a separate bash would: a fork of the shell keeping only
/// exported variables, with its own `$0` and positional parameters.
pub async fn run_child_script(
    sh: &ShellState,
    src: &str,
    arg0: String,
    args: Vec<String>,
    opts: crate::state::Options,
    file: Option<&str>,
    fds: &Fds,
) -> Res {
    let mut child = sh.clone();
    enter_subshell(&mut child)?;
    child.shell_base = child.subshell_depth;
    child.vars = crate::state::Variables::default();
    for (k, v) in sh.vars.exported() {
        let var = child.vars.entry(&k);
        var.value = Some(crate::state::Value::Scalar(v));
        var.exported = true;
    }
    for k in ["IFS", "PS4", "OPTIND", "OPTERR"] {
        if let Some(v) = sh.get_var(k) {
            let _ = child.set_var(k, v);
        }
    }
    crate::state::shell_vars::install(&mut child.vars);
    // One level deeper than the exported one; the parent lowered it first
    // when this is its last command (an implicit `exec`).
    if let Some(w) = crate::state::shell_vars::set_level(&mut child.vars, sh.vars.get("SHLVL"), sh.nofork_now) {
        let _ = fds.stderr.write_str(&format!("bash: {w}\n")).await;
    }
    child.nofork_now = false;
    // Only exported functions reach a separate bash (through its environment in bash).
    let exported: crate::state::Functions = sh
        .funcs
        .iter()
        .filter(|(_, f)| f.exported)
        .map(|(k, f)| (k.clone(), Arc::new(Function { file: "environment".into(), line: 0, ..Function::clone(f) })))
        .collect();
    child.funcs = Arc::new(exported);
    child.opts = opts;
    child.func_depth = 0;
    child.in_source = false;
    child.script_file = file.is_some();
    child.arg0 = arg0;
    child.positional = Arc::new(args);
    child.last_status = 0;
    child.traps = Default::default();
    child.shown_traps = Default::default();
    child.aliases = Default::default();
    child.dirstack = Default::default();
    child.jobs = Default::default();
    child.trace = Default::default();
    if let Some(f) = file {
        child.push_source(f);
    }
    child.call_stack().args = vec![Some(child.positional.clone())];
    let status = match run_string(&mut child, src, fds, "bash").await {
        Ok(s) => s,
        Err(Flow::Exit(s)) | Err(Flow::Return(s)) | Err(Flow::Abort(s)) => s,
        Err(Flow::Break(_)) | Err(Flow::Continue(_)) => child.last_status,
        Err(stop) => return Err(stop),
    };
    Ok(run_exit_trap(&mut child, fds, status).await?)
}
