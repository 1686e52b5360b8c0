//! Budgets every exec runs under: command fuel, loop iterations, recursion depth,
//! a wall-clock deadline and cancellation. Checks are counter bumps, not locks.

pub mod admission;
pub mod inline;
pub mod memory;
pub mod scope;
pub mod watchdog;

pub use memory::MemAccount;
pub use scope::{checkpoint, reserve, stack_low};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Configurable limits. `u64::MAX` means unlimited.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_commands: u64,
    pub max_loop_iterations: u64,
    pub max_total_loop_iterations: u64,
    pub max_function_depth: u64,
    pub max_input_bytes: u64,
    pub timeout_ms: u64,
    /// stdout + stderr bytes one exec may produce.
    pub max_output_bytes: u64,
    /// Bytes one variable or expanded word may hold.
    pub max_string_bytes: u64,
    /// Nesting of `$( )`, `( )` and pipelines inside each other.
    pub max_subshell_depth: u64,
    /// Nesting depth of the script's syntax (braces, ifs, loops, substitutions).
    pub max_parser_depth: u64,
    /// Words one brace expansion may produce.
    pub max_brace_items: u64,
    /// Paths one glob may produce.
    pub max_glob_results: u64,
    /// Commands in one pipeline.
    pub max_pipeline_stages: u64,
    /// Compiled size of one regular expression (grep, sed, `[[ =~ ]]`, ...).
    pub max_regex_bytes: u64,
    /// Bytes one HTTP response body may hold (curl, wget, http).
    pub max_response_bytes: u64,
    /// Bytes a session may hold in all: variables, functions, files of the
    /// in-memory filesystem, words being built, pipe buffers and the working
    /// sets of utilities. Counted by the allocator (see [`memory`]).
    pub max_memory_bytes: u64,
}

/// Default of [`Limits::max_memory_bytes`].
pub const DEFAULT_MAX_MEMORY_BYTES: u64 = 256 * 1024 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_commands: 10_000,
            max_loop_iterations: 10_000,
            max_total_loop_iterations: 1_000_000,
            max_function_depth: 100,
            max_input_bytes: 10_000_000,
            timeout_ms: 30_000,
            max_output_bytes: 10 * 1024 * 1024,
            max_string_bytes: 10 * 1024 * 1024,
            max_subshell_depth: 64,
            max_parser_depth: 200,
            max_brace_items: 100_000,
            max_glob_results: 100_000,
            max_pipeline_stages: 256,
            max_regex_bytes: 10 * 1024 * 1024,
            max_response_bytes: 10 * 1024 * 1024,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
        }
    }
}

/// Set the interpreter's or the filesystem's limit called `name` (the names
/// of the Elixir `:limits` option and of the CLI's `SANDBASH_<NAME>` variables).
pub fn set_limit(l: &mut Limits, f: &mut crate::fs::memory::FsLimits, name: &str, v: u64) -> Result<(), String> {
    match name {
        "max_output_bytes" => l.max_output_bytes = v,
        "max_string_bytes" => l.max_string_bytes = v,
        "max_subshell_depth" => l.max_subshell_depth = v,
        "max_parser_depth" => l.max_parser_depth = v,
        "max_brace_items" => l.max_brace_items = v,
        "max_glob_results" => l.max_glob_results = v,
        "max_pipeline_stages" => l.max_pipeline_stages = v,
        "max_regex_bytes" => l.max_regex_bytes = v,
        "max_response_bytes" => l.max_response_bytes = v,
        "max_memory_bytes" => l.max_memory_bytes = v,
        "max_file_bytes" => f.max_file_bytes = v,
        "max_fs_bytes" => f.max_total_bytes = v,
        "max_files" => f.max_files = v,
        "max_path_depth" => f.max_path_depth = usize::try_from(v).unwrap_or(usize::MAX),
        "max_commands" => l.max_commands = v,
        "max_loop_iterations" => l.max_loop_iterations = v,
        "max_total_loop_iterations" => l.max_total_loop_iterations = v,
        "max_function_depth" => l.max_function_depth = v,
        "max_input_bytes" => l.max_input_bytes = v,
        "timeout_ms" => l.timeout_ms = v,
        other => return Err(format!("unknown limit {other}")),
    }
    Ok(())
}

/// The current value of the limit called `name` (see [`set_limit`]).
pub fn get_limit(l: &Limits, f: &crate::fs::memory::FsLimits, name: &str) -> Option<u64> {
    Some(match name {
        "max_output_bytes" => l.max_output_bytes,
        "max_string_bytes" => l.max_string_bytes,
        "max_subshell_depth" => l.max_subshell_depth,
        "max_parser_depth" => l.max_parser_depth,
        "max_brace_items" => l.max_brace_items,
        "max_glob_results" => l.max_glob_results,
        "max_pipeline_stages" => l.max_pipeline_stages,
        "max_regex_bytes" => l.max_regex_bytes,
        "max_response_bytes" => l.max_response_bytes,
        "max_memory_bytes" => l.max_memory_bytes,
        "max_file_bytes" => f.max_file_bytes,
        "max_fs_bytes" => f.max_total_bytes,
        "max_files" => f.max_files,
        "max_path_depth" => u64::try_from(f.max_path_depth).unwrap_or(u64::MAX),
        "max_commands" => l.max_commands,
        "max_loop_iterations" => l.max_loop_iterations,
        "max_total_loop_iterations" => l.max_total_loop_iterations,
        "max_function_depth" => l.max_function_depth,
        "max_input_bytes" => l.max_input_bytes,
        "timeout_ms" => l.timeout_ms,
        _ => return None,
    })
}

/// Every name [`set_limit`] takes.
pub const LIMIT_NAMES: [&str; 20] = [
    "max_commands",
    "max_loop_iterations",
    "max_total_loop_iterations",
    "max_function_depth",
    "max_input_bytes",
    "timeout_ms",
    "max_output_bytes",
    "max_string_bytes",
    "max_subshell_depth",
    "max_parser_depth",
    "max_brace_items",
    "max_glob_results",
    "max_pipeline_stages",
    "max_regex_bytes",
    "max_response_bytes",
    "max_memory_bytes",
    "max_file_bytes",
    "max_fs_bytes",
    "max_files",
    "max_path_depth",
];

/// Why an exec was stopped; turned into the exec's `Err`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Limit(String),
    Timeout(u64),
    Cancelled,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Limit(m) => f.write_str(m),
            Stop::Timeout(ms) => write!(f, "execution timed out after {ms} ms (timeout_ms)"),
            Stop::Cancelled => f.write_str("execution cancelled"),
        }
    }
}

/// Cancels a running exec from anywhere. Loops see the flag at their next
/// turn; a script waiting on something is woken through the notifier.
#[derive(Clone, Default)]
pub struct CancelToken(Arc<CancelInner>);

#[derive(Default)]
struct CancelInner {
    flag: AtomicBool,
    wake: tokio::sync::Notify,
}

impl CancelToken {
    pub fn cancel(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
        self.0.wake.notify_waiters();
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed)
    }
    /// Completes once [`cancel`](Self::cancel) was called.
    pub async fn cancelled(&self) {
        loop {
            let woken = self.0.wake.notified();
            tokio::pin!(woken);
            // Register before looking at the flag, so a cancel in between is not lost.
            woken.as_mut().enable();
            if self.is_cancelled() {
                return;
            }
            woken.await;
        }
    }
}

/// Commands between two yields to the runtime, at most.
pub const YIELD_EVERY: u64 = 64;
/// [`Budget::poll_turn`] looks at the clock once in this many turns.
const POLL_EVERY: u32 = 16;

thread_local! {
    /// Turns counted by [`Budget::poll_turn`] on this thread.
    static POLLS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}
/// Work between two yields to the runtime, at most (checked at each command).
pub const YIELD_AFTER: Duration = Duration::from_micros(500);
/// Work between two turns at most, however much resuming costs (see
/// [`Budget::quantum`]).
const MAX_QUANTUM: Duration = Duration::from_millis(20);
/// How long an exec keeps its admission slot while others wait for one: a
/// script shorter than this runs start to finish (a burst completes in
/// order), a longer one takes turns with the waiting ones.
pub const QUANTUM: Duration = Duration::from_millis(20);

/// The running counters of one exec (shared by its pipeline stages and subshells).
pub struct Budget {
    pub limits: Limits,
    commands: AtomicU64,
    total_loops: AtomicU64,
    deadline: Option<Instant>,
    cancel: CancelToken,
    /// The exec's stdout+stderr counter: once over its limit, every check stops
    /// the script (a builtin's failed write alone would not).
    output: std::sync::OnceLock<Arc<crate::io::OutputCounter>>,
    /// Set when a utility had to read more than `max_string_bytes` at once
    /// (`yes | sort`): the next check stops the script.
    input_over: AtomicBool,
    /// Background jobs of this exec, cancelled when it ends.
    tasks: parking_lot::Mutex<Vec<tokio::task::AbortHandle>>,
    /// A background job hit a limit: the exec stops with this reason.
    job_stop: parking_lot::Mutex<Option<Stop>>,
    job_stopped: AtomicBool,
    /// The session's memory account, compared at every check.
    memory: std::sync::OnceLock<Arc<MemAccount>>,
    /// Who started this exec, as the embedder numbers them (see
    /// [`ExecOptions::exec_id`](crate::ExecOptions)): a callback made while it
    /// runs (its background jobs included) goes to that exec's own broker.
    exec_id: AtomicU64,
    /// The admission slot this exec runs in (given back while it idles).
    slot: parking_lot::Mutex<Option<admission::Slot>>,
    /// When the exec started, and when it last let its runtime thread go.
    started: Instant,
    yielded_at_ns: AtomicU64,
    /// What the last resume after a yield cost (ns): see [`Budget::resumed`].
    resume_ns: AtomicU64,
    /// When the exec last got its slot (ns since `started`).
    slot_since_ns: AtomicU64,
    /// Time spent queued for a slot after admission (taking turns, or after an
    /// idle wait): it does not count against the timeout.
    queued_ns: AtomicU64,
    /// When the current wait for a slot began (ns since `started`, plus one; 0: none).
    queued_since_ns: AtomicU64,
    /// The command the exec is in, as far as it says (see [`watchdog`]).
    command: parking_lot::Mutex<Option<Arc<str>>>,
}

impl Budget {
    pub fn new(limits: Limits, cancel: CancelToken) -> Arc<Self> {
        let started = Instant::now();
        let deadline = started.checked_add(Duration::from_millis(limits.timeout_ms));
        Arc::new(Budget {
            limits,
            commands: AtomicU64::new(0),
            total_loops: AtomicU64::new(0),
            deadline,
            cancel,
            output: std::sync::OnceLock::new(),
            input_over: AtomicBool::new(false),
            tasks: Default::default(),
            job_stop: Default::default(),
            job_stopped: AtomicBool::new(false),
            memory: std::sync::OnceLock::new(),
            exec_id: AtomicU64::new(0),
            slot: parking_lot::Mutex::new(None),
            started,
            yielded_at_ns: AtomicU64::new(0),
            resume_ns: AtomicU64::new(0),
            slot_since_ns: AtomicU64::new(0),
            queued_ns: AtomicU64::new(0),
            queued_since_ns: AtomicU64::new(0),
            command: parking_lot::Mutex::new(None),
        })
    }

    /// The exec now runs `name` (a utility, a parse): what the watchdog
    /// names if it has to answer for the exec.
    pub fn set_command(&self, name: &str) {
        let mut c = self.command.lock();
        if c.as_deref() != Some(name) {
            *c = Some(Arc::from(name));
        }
    }

    /// The command the exec last said it runs.
    pub fn command(&self) -> Option<Arc<str>> {
        self.command.lock().clone()
    }

    /// A utility's whole-input read went past `max_string_bytes`.
    pub fn input_exceeded(&self) {
        self.input_over.store(true, Ordering::Relaxed);
    }

    /// Watch the exec's output counter (see [`check`](Self::check)).
    pub fn watch_output(&self, counter: Arc<crate::io::OutputCounter>) {
        let _ = self.output.set(counter);
    }

    /// Charge this exec's allocations to `account` (see [`scope::enter`]).
    pub fn set_memory(&self, account: Arc<MemAccount>) {
        let _ = self.memory.set(account);
    }

    /// The session's memory account, if it has one.
    pub fn memory(&self) -> Option<&MemAccount> {
        self.memory.get().map(|a| &**a)
    }

    /// The exec holds `slot` while it runs.
    /// The slot the exec was admitted with, held from its start (the clock
    /// read of [`Budget::new`] serves as the time it was taken).
    pub fn hold_first_slot(&self, slot: admission::Slot) {
        *self.slot.lock() = Some(slot);
    }

    pub fn hold_slot(&self, slot: admission::Slot) {
        *self.slot.lock() = Some(slot);
        self.slot_since_ns.store(self.started.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    /// Has this exec held its slot for a whole [`QUANTUM`] while others wait?
    /// Then it should [`requeue`](Self::requeue) at its next yield.
    pub fn should_requeue(&self) -> bool {
        let held = self.started.elapsed().as_nanos() as u64 - self.slot_since_ns.load(Ordering::Relaxed);
        held >= QUANTUM.as_nanos() as u64 && admission::global().waiting() > 0 && self.slot.lock().is_some()
    }

    /// Give the slot to the next waiter and queue for it again (round robin
    /// among runnable execs: a long script cannot keep short ones out).
    pub async fn requeue(&self) {
        let held = self.slot.lock().take();
        if held.is_none() {
            return;
        }
        drop(held);
        if let Some(s) = self.queued(admission::global().readmit()).await {
            self.hold_slot(s);
        }
    }

    /// Wait for a slot again: the time it takes is not the script's, so the
    /// deadline moves with it (while it lasts, too: see [`deadline`](Self::deadline)).
    async fn queued<F: std::future::Future>(&self, wait: F) -> F::Output {
        let since = self.started.elapsed().as_nanos() as u64 + 1;
        self.queued_since_ns.store(since, Ordering::Relaxed);
        let out = wait.await;
        let now = self.started.elapsed().as_nanos() as u64 + 1;
        self.queued_ns.fetch_add(now.saturating_sub(since), Ordering::Relaxed);
        self.queued_since_ns.store(0, Ordering::Relaxed);
        out
    }

    /// Time spent queued for a slot after admission (taking turns, after idling).
    pub fn queued_time(&self) -> Duration {
        Duration::from_nanos(self.queued_ns.load(Ordering::Relaxed))
    }

    /// The deadline now: moved by the time spent queued for a slot after
    /// admission, including a wait still going on.
    pub fn deadline(&self) -> Option<Instant> {
        let mut q = self.queued_ns.load(Ordering::Relaxed);
        let since = self.queued_since_ns.load(Ordering::Relaxed);
        if since != 0 {
            q += (self.started.elapsed().as_nanos() as u64 + 1).saturating_sub(since);
        }
        self.deadline.and_then(|d| d.checked_add(Duration::from_nanos(q)))
    }

    /// The exec is over: give its slot back (the session keeps its last
    /// budget until the next exec, but not the slot).
    pub fn release_slot(&self) {
        drop(self.slot.lock().take());
    }

    /// Wait for `f` without holding an admission slot (a sleep, an application
    /// callback): a runnable exec may use it meanwhile. Afterwards the exec
    /// queues for a slot again, behind those already waiting.
    pub async fn idle<F: std::future::Future>(&self, f: F) -> F::Output {
        let held = self.slot.lock().take();
        let had = held.is_some();
        drop(held);
        let out = f.await;
        if had {
            if let Some(s) = self.queued(admission::global().readmit()).await {
                let mut slot = self.slot.lock();
                if slot.is_none() {
                    *slot = Some(s);
                    drop(slot);
                    self.slot_since_ns.store(self.started.elapsed().as_nanos() as u64, Ordering::Relaxed);
                }
            }
        }
        out
    }

    /// The embedder's number for this exec (0: none given).
    pub fn exec_id(&self) -> u64 {
        self.exec_id.load(Ordering::Relaxed)
    }

    pub fn set_exec_id(&self, id: u64) {
        self.exec_id.store(id, Ordering::Relaxed);
    }

    /// The error of a session past its memory budget.
    pub fn memory_exceeded(&self) -> Stop {
        let limit = self.memory().map_or(self.limits.max_memory_bytes, MemAccount::limit);
        Stop::Limit(format!("memory limit exceeded (max_memory_bytes: {limit})"))
    }

    /// `Err` if `bytes` more would not fit in the memory budget, or would
    /// take the process past its ceiling (see [`memory::process_ceiling`]).
    pub fn reserve(&self, bytes: u64) -> Result<(), Stop> {
        match self.memory() {
            Some(m) if m.would_exceed(bytes) => Err(self.memory_exceeded()),
            Some(m) if m.would_pass_ceiling(bytes) => Err(Stop::Limit(format!(
                "memory limit exceeded (the process's memory ceiling: {} bytes, held by all sessions)",
                memory::process_ceiling()
            ))),
            _ => Ok(()),
        }
    }

    /// Track a background job's task (see [`end_jobs`](Self::end_jobs)).
    pub fn add_task(&self, task: tokio::task::AbortHandle) {
        let mut tasks = self.tasks.lock();
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
    }

    /// A background job was stopped by a limit: so is the exec, at its next check.
    pub fn stop_from_job(&self, reason: Stop) {
        self.job_stop.lock().get_or_insert(reason);
        self.job_stopped.store(true, Ordering::Relaxed);
    }

    /// Why a background job stopped the exec, if one did.
    pub fn job_stop(&self) -> Option<Stop> {
        self.job_stop.lock().clone()
    }

    /// The exec is over: let jobs that can finish at once do so (`echo hi &`
    /// as the last command), then cancel the rest.
    pub async fn end_jobs(&self) {
        for _ in 0..32 {
            if self.tasks.lock().iter().all(|t| t.is_finished()) {
                break;
            }
            tokio::task::yield_now().await;
        }
        for t in self.tasks.lock().drain(..) {
            t.abort();
        }
    }

    /// Time and cancellation, checked at every command and loop turn.
    pub fn check(&self) -> Result<(), Stop> {
        self.check_at().map(|_| ())
    }

    /// [`check`](Self::check), returning the nanoseconds since the exec began
    /// (one clock read serves the deadline and the yield policy).
    fn check_at(&self) -> Result<u64, Stop> {
        let now = Instant::now();
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        if self.job_stopped.load(Ordering::Relaxed) {
            if let Some(s) = self.job_stop.lock().clone() {
                return Err(s);
            }
        }
        if let Some(d) = self.deadline() {
            if now >= d {
                return Err(Stop::Timeout(self.limits.timeout_ms));
            }
        }
        if self.input_over.load(Ordering::Relaxed) {
            return Err(Budget::exceeded("max_string_bytes", self.limits.max_string_bytes, "input size"));
        }
        if let Some(c) = self.output.get() {
            if c.exceeded() {
                return Err(Budget::exceeded("max_output_bytes", c.limit(), "output"));
            }
        }
        self.reserve(0)?;
        Ok(now.saturating_duration_since(self.started).as_nanos() as u64)
    }

    /// Time left before the deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline().map(|d| d.saturating_duration_since(Instant::now()))
    }

    pub fn cancel_token(&self) -> &CancelToken {
        &self.cancel
    }

    /// One more command. `Ok(true)` once [`YIELD_AFTER`] of work has passed
    /// since the last yield (or every [`YIELD_EVERY`] commands): time for the
    /// caller to yield, so a busy script cannot hold a runtime thread and a
    /// short exec of another session gets its turn quickly.
    pub fn tick_command(&self) -> Result<bool, Stop> {
        let n = self.count_command()?;
        self.turn_after(n)
    }

    /// Count one more command; `Err` past `max_commands`.
    fn count_command(&self) -> Result<u64, Stop> {
        let n = self.commands.fetch_add(1, Ordering::Relaxed) + 1;
        if n > self.limits.max_commands {
            return Err(Stop::Limit(format!(
                "maximum command count exceeded (max_commands: {})",
                self.limits.max_commands
            )));
        }
        Ok(n)
    }

    /// After command `n`: the deadline and the other stops, and whether the
    /// runtime is owed a turn.
    fn turn_after(&self, n: u64) -> Result<bool, Stop> {
        let now = self.check_at()?;
        let last = self.yielded_at_ns.load(Ordering::Relaxed);
        let quantum = self.quantum();
        let by_count = quantum == YIELD_AFTER.as_nanos() as u64 && n.is_multiple_of(YIELD_EVERY);
        if now.saturating_sub(last) >= quantum || by_count {
            self.yielded_at_ns.store(now, Ordering::Relaxed);
            return Ok(true);
        }
        Ok(false)
    }

    /// Work between two turns (ns): [`YIELD_AFTER`], or four times what the
    /// last resume cost when that is more (so resuming stays a fifth of the
    /// time), up to [`MAX_QUANTUM`] (so other tasks still get their turns).
    fn quantum(&self) -> u64 {
        let resume = self.resume_ns.load(Ordering::Relaxed).saturating_mul(4);
        resume.clamp(YIELD_AFTER.as_nanos() as u64, MAX_QUANTUM.as_nanos() as u64)
    }

    /// One more command that runs in well under a microsecond and never
    /// waits (`interp/fast.rs`): counted as [`tick_command`](Self::tick_command)
    /// counts, with the clock read once in [`POLL_EVERY`] such commands.
    pub fn tick_short_command(&self) -> Result<bool, Stop> {
        let n = self.count_command()?;
        if !n.is_multiple_of(u64::from(POLL_EVERY)) {
            return Ok(false);
        }
        self.turn_after(n)
    }

    /// The exec has its turn back: the next is owed after a quantum of work
    /// from now (see [`Budget::quantum`]), set by what this resume cost,
    /// from the poll of the exec's future down to here. Resuming polls down
    /// the whole chain of futures (a deep recursion's, on fresh stack
    /// segments): counted as work, it made every command at a depth of
    /// thousands yield again.
    pub fn resumed(&self) {
        let at = Instant::now();
        let cost = scope::polled_at().map_or(0, |p| at.saturating_duration_since(p).as_nanos() as u64);
        self.resume_ns.store(cost, Ordering::Relaxed);
        self.yielded_at_ns.store(at.saturating_duration_since(self.started).as_nanos() as u64, Ordering::Relaxed);
    }

    /// A turn of a loop, or a command not counted as one: `Err` when the
    /// exec must stop (deadline, cancel, a limit), `Ok(true)` when the
    /// runtime is owed a turn, as [`tick_command`](Self::tick_command) says.
    pub fn poll_turn(&self) -> Result<bool, Stop> {
        // A turn is short (microseconds): the clock is read every few.
        let n = POLLS.with(|c| {
            let n = c.get().wrapping_add(1);
            c.set(n);
            n
        });
        if !n.is_multiple_of(POLL_EVERY) {
            return Ok(false);
        }
        let now = self.check_at()?;
        let last = self.yielded_at_ns.load(Ordering::Relaxed);
        if now.saturating_sub(last) >= self.quantum() {
            self.yielded_at_ns.store(now, Ordering::Relaxed);
            return Ok(true);
        }
        Ok(false)
    }

    /// Take back the command [`tick_command`](Self::tick_command) just
    /// counted, when the command is handed on to run the general way.
    pub fn untick_command(&self) {
        self.commands.fetch_sub(1, Ordering::Relaxed);
    }

    /// One more turn of a loop that has run `this_loop` turns so far.
    pub fn tick_loop(&self, this_loop: u64) -> Result<(), Stop> {
        if this_loop > self.limits.max_loop_iterations {
            return Err(Stop::Limit(format!(
                "maximum loop iterations exceeded (max_loop_iterations: {})",
                self.limits.max_loop_iterations
            )));
        }
        let n = self.total_loops.fetch_add(1, Ordering::Relaxed) + 1;
        if n > self.limits.max_total_loop_iterations {
            return Err(Stop::Limit(format!(
                "maximum total loop iterations exceeded (max_total_loop_iterations: {})",
                self.limits.max_total_loop_iterations
            )));
        }
        // A turn is short (its commands look at the clock themselves): every
        // fourth one is enough for the deadline and the memory.
        if this_loop.is_multiple_of(4) {
            return self.check();
        }
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        Ok(())
    }

    /// A named size limit was passed.
    pub fn exceeded(name: &str, value: u64, what: &str) -> Stop {
        Stop::Limit(format!("{what} limit exceeded ({name}: {value})"))
    }
}
