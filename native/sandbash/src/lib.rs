//! sandbash: a sandboxed bash interpreter. Scripts run in-process on an async
//! runtime against a virtual filesystem; nothing reaches the host.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let mut bash = sandbash::Bash::builder().build().unwrap();
//! let r = bash.exec("x=world; echo hello $x").await.unwrap();
//! assert_eq!(r.stdout, b"hello world\n");
//! # });
//! ```

pub mod builtins;
pub mod commands;
pub mod expand;
pub mod fs;
pub mod interp;
pub mod io;
pub mod limits;
pub mod net;
pub mod pattern;
pub mod raw_bytes;
pub mod session;
pub mod snapshot;
pub mod state;
pub mod syntax;
pub mod table;

/// mimalloc for every allocation of the interpreter and its tools (they
/// allocate per line and per JSON value; about 10-20% faster than glibc's),
/// with each block charged to the session that made it (`max_memory_bytes`).
#[global_allocator]
static ALLOC: limits::memory::CountingAlloc = limits::memory::CountingAlloc;

use commands::SysInfo;
use fs::{Fs, MemoryFs};
use futures_util::FutureExt;
use io::{CaptureBuf, Input, Output, OutputCounter};
use limits::{Budget, CancelToken, MemAccount, Stop};
use state::{ShellState, Variables};
use std::sync::Arc;

pub use fs::memory::FsLimits;
pub use limits::Limits;
pub use snapshot::SnapshotOptions;
pub use table::{CommandPolicy, CommandTable, Resolved};

/// What a finished script produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecResult {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub exit_code: i32,
    /// Milliseconds the exec waited for an admission slot, before it started
    /// and while taking turns with others (not counted against its timeout).
    pub queued_ms: u64,
}

/// Why an exec did not produce a normal result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The script does not parse (bash's message, e.g. ``bash: -c: line 1: syntax error near unexpected token `fi'``).
    Parse(String),
    /// A limit, the timeout or a cancellation stopped the script. `partial`
    /// holds what it printed before that.
    Stopped { reason: Stop, partial: ExecResult },
    /// A bad argument from the caller (not from the script).
    InvalidInput(String),
    /// A bug in the interpreter (a caught panic); the session was rolled back.
    Internal(String),
    /// Not admitted: too many execs waiting for a slot, or the wait for one
    /// took `queue_timeout_ms` (see [`limits::admission`]). Nothing ran.
    Overloaded(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Parse(m) | Error::InvalidInput(m) | Error::Overloaded(m) => f.write_str(m),
            Error::Internal(m) => write!(f, "internal error: {m}"),
            Error::Stopped { reason, .. } => write!(f, "{reason}"),
        }
    }
}

impl std::error::Error for Error {}

/// Options of a new [`Bash`].
#[derive(Clone)]
pub struct BashBuilder {
    env: Vec<(String, String)>,
    cwd: String,
    username: String,
    hostname: String,
    limits: Limits,
    fs_limits: FsLimits,
    files: Vec<(String, Vec<u8>)>,
    arg0: String,
    args: Vec<String>,
    host: Option<commands::host::HostCommands>,
    mounts: Vec<(String, Arc<dyn Fs>)>,
    net: net::Policy,
    history: bool,
    expand_aliases: bool,
    shared: Option<(Arc<MemoryFs>, Arc<dyn Fs>)>,
    python: Vec<String>,
    python_runtime: Option<String>,
    commands: table::CommandPolicy,
    script_file: Option<String>,
}

impl Default for BashBuilder {
    fn default() -> Self {
        BashBuilder {
            env: Vec::new(),
            cwd: "/".into(),
            username: "sandbox".into(),
            hostname: "bashkit-sandbox".into(),
            limits: Limits::default(),
            fs_limits: FsLimits::default(),
            files: Vec::new(),
            arg0: "bash".into(),
            args: Vec::new(),
            host: None,
            mounts: Vec::new(),
            net: net::Policy::none(),
            history: true,
            expand_aliases: false,
            shared: None,
            python: Vec::new(),
            python_runtime: None,
            commands: table::CommandPolicy::All,
            script_file: None,
        }
    }
}

impl BashBuilder {
    /// Pre-set an exported variable.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
    /// Starting directory (created if missing).
    pub fn cwd(mut self, cwd: impl Into<String>) -> Self {
        self.cwd = cwd.into();
        self
    }
    /// The sandbox user's name (`whoami`, `$USER`, `/home/NAME`). Any name
    /// but `root` is uid 1000, held to the permission bits of its files
    /// (see [`fs::permissions`]); `root` is uid 0, with `/root` as its home,
    /// and is not.
    pub fn username(mut self, u: impl Into<String>) -> Self {
        self.username = u.into();
        self
    }
    pub fn hostname(mut self, h: impl Into<String>) -> Self {
        self.hostname = h.into();
        self
    }
    pub fn limits(mut self, l: Limits) -> Self {
        self.limits = l;
        self
    }
    pub fn fs_limits(mut self, l: FsLimits) -> Self {
        self.fs_limits = l;
        self
    }
    /// Seed a file (parents are created).
    pub fn file(mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.into(), content.into()));
        self
    }
    /// `$0` and `$1...` of the scripts.
    pub fn args(mut self, arg0: impl Into<String>, args: Vec<String>) -> Self {
        self.arg0 = arg0.into();
        self.args = args;
        self
    }

    /// Run execs as `bash FILE` runs a script file rather than as `bash -c`:
    /// messages name the file (`file: line 2: ...`), `BASH_SOURCE` and
    /// `FUNCNAME` have their `main` frame, an expansion error such as
    /// `${x?}` exits with status 1. An empty name is a script read from stdin.
    pub fn script_file(mut self, name: impl Into<String>) -> Self {
        self.script_file = Some(name.into());
        self
    }

    /// Commands the embedding application answers (looked up after functions).
    pub fn host_commands(mut self, host: commands::host::HostCommands) -> Self {
        self.host = Some(host);
        self
    }
    /// Work on another session's filesystem (a shared workspace): `mem` is its
    /// in-memory fs and `fs` what this session sees of the whole tree.
    pub fn shared_fs(mut self, mem: Arc<MemoryFs>, fs: Arc<dyn Fs>) -> Self {
        self.shared = Some((mem, fs));
        self
    }
    /// Start with `shopt -s expand_aliases`, as an interactive shell (off, as `bash -c`).
    pub fn expand_aliases(mut self, on: bool) -> Self {
        self.expand_aliases = on;
        self
    }
    /// Record every exec'd script in the history (on by default).
    pub fn history(mut self, on: bool) -> Self {
        self.history = on;
        self
    }
    /// Who curl, wget and http may reach (nobody unless set).
    pub fn network(mut self, policy: net::Policy) -> Self {
        self.net = policy;
        self
    }
    /// Enable the Python interpreter under these command names, e.g.
    /// `["python", "python3"]`. Off (no names) by default. It is Monty unless
    /// [`python_runtime`](Self::python_runtime) names CPython's.
    pub fn python(mut self, names: Vec<String>) -> Self {
        self.python = names;
        self
    }
    /// Run `python` on real CPython 3.12: the WASI build at `path` (checked
    /// against its pinned SHA-256 when the session is built; see
    /// `commands::python::cpython`). Needs the `cpython` feature.
    pub fn python_runtime(mut self, path: impl Into<String>) -> Self {
        self.python_runtime = Some(path.into());
        self
    }
    /// Which programs scripts may run (all by default); see [`table`] for what
    /// the restriction covers. A name the policy cannot hold (a builtin, a
    /// word with a slash) makes [`build`](Self::build) fail.
    pub fn commands(mut self, policy: table::CommandPolicy) -> Self {
        self.commands = policy;
        self
    }
    /// Mount `fs` at `path` (absolute, normalized, not `/`); its directory is created.
    pub fn mount(mut self, path: impl Into<String>, fs: Arc<dyn Fs>) -> Self {
        self.mounts.push((path.into(), fs));
        self
    }

    /// Build the session. `Err` when a seeded file cannot be written or the cwd is bad.
    pub fn build(self) -> Result<Bash, Error> {
        let commands =
            Arc::new(table::CommandTable::new(self.host.clone(), self.commands.clone()).map_err(Error::InvalidInput)?);
        // Loaded (and checked) here, so a missing or wrong runtime fails the
        // build, not the first call.
        let python_runtime = match &self.python_runtime {
            Some(path) => Some(commands::python::load_runtime(path).map_err(Error::InvalidInput)?),
            None => None,
        };
        let account = Arc::new(MemAccount::new(self.limits.max_memory_bytes));
        // What the session starts with (its files, variables) is its own.
        let _scope = limits::scope::enter_account(&account);
        let shared = self.shared.clone();
        let home = if self.username == "root" { "/root".to_string() } else { format!("/home/{}", self.username) };
        let cwd = fs::path::normalize(&self.cwd);
        let dirs = ["/tmp", "/home", home.as_str(), "/bin", "/usr/bin", "/dev", cwd.as_str()];
        let mem = match &shared {
            Some((m, _)) => m.clone(),
            None => {
                let dirs: Vec<String> = dirs.iter().map(|d| fs::path::normalize(d)).collect();
                Arc::new(MemoryFs::with_dirs(self.fs_limits.clone(), &dirs))
            }
        };
        // The memory fs never suspends, so its futures complete on first poll.
        let setup = async {
            if shared.is_some() {
                for d in dirs {
                    mem.mkdir(d, true).await.map_err(|e| format!("cannot create {d}: {e}"))?;
                }
            }
            for (p, _) in &self.mounts {
                if fs::path::normalize(p) != *p || p == "/" {
                    return Err(format!("bad mount point {p:?}: it must be an absolute, normalized path other than /"));
                }
                mem.mkdir(p, true).await.map_err(|e| format!("cannot create mount point {p}: {e}"))?;
            }
            if shared.is_some() {
                mem.add_devices();
            }
            for (p, data) in &self.files {
                let p = fs::path::normalize(&format!("/{p}"));
                mem.mkdir(fs::path::parent(&p), true).await.map_err(|e| format!("cannot write {p}: {e}"))?;
                mem.write(&p, data).await.map_err(|e| format!("cannot write {p}: {e}"))?;
            }
            Ok::<(), String>(())
        };
        match setup.now_or_never() {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(Error::InvalidInput(e)),
            None => return Err(Error::InvalidInput("filesystem setup did not complete".into())),
        }
        if shared.is_none() {
            // Only root goes where the permission bits say no.
            mem.set_user_checks(self.username != "root");
        }
        if account.would_exceed(0) {
            return Err(Error::InvalidInput(format!(
                "the initial files take more than max_memory_bytes ({})",
                account.limit()
            )));
        }
        let vars = initial_vars(&VarsFrom {
            home: &home,
            username: &self.username,
            hostname: &self.hostname,
            cwd: &cwd,
            env: &self.env,
            arg0: &self.arg0,
        });
        let mut opts = state::Options::default();
        opts.expand_aliases = self.expand_aliases;
        let fs: Arc<dyn Fs> = if let Some((_, fs)) = shared {
            fs
        } else if self.mounts.is_empty() {
            mem.clone()
        } else {
            Arc::new(fs::mount::MountFs::new(mem.clone(), self.mounts, self.fs_limits.max_path_depth))
        };
        let state = ShellState {
            vars,
            funcs: Default::default(),
            positional: Arc::new(self.args),
            arg0: self.arg0,
            cwd,
            last_status: 0,
            opts,
            fs,
            sys: Arc::new(SysInfo {
                username: self.username,
                hostname: self.hostname,
                net: self.net,
                python: self.python,
                python_runtime,
            }),
            commands,
            history: self.history.then(|| state::history::History::new(HISTORY_MAX)),
            line: 1,
            func_depth: 0,
            eval_depth: 0,
            subshell_depth: 0,
            shell_base: 0,
            in_condition: false,
            err_trap_new_in_call: false,
            local_opts: None,
            subst_status: None,
            bad_subst: None,
            in_heredoc: false,
            in_source: false,
            args_set_at_top: false,
            script_file: false,
            exec_fds: None,
            loop_depth: 0,
            traps: Default::default(),
            shown_traps: Default::default(),
            budget: Budget::new(self.limits.clone(), CancelToken::default()),
            src: Arc::new(state::source::Source::default()),
            getopts_pos: (0, 0),
            select_menu: None,
            select_eof: false,
            arith_warnings: Vec::new(),
            random: Default::default(),
            seconds: (std::time::Instant::now(), 0),
            lineno_plain: false,
            unread: None,
            compound_unrun: false,
            nofork: 0,
            nofork_now: false,
            aliases: Default::default(),
            dirstack: Default::default(),
            jobs: Default::default(),
            trace: Default::default(),
            umask: 0o022,
            fs_unmasked: None,
            ulimits: None,
            disabled: Default::default(),
            completions: Default::default(),
            subst_depth: 0,
        };
        let mut state = state;
        if let Some(file) = &self.script_file {
            state.script_file = true;
            state.opts.input = if file.is_empty() { Some('s') } else { None };
            // An empty name: the script comes from stdin (`bash < file`).
            if !file.is_empty() {
                state.push_source(file.as_str());
            }
        }
        state.init_args();
        let aliases = session::AliasesHandle::default();
        aliases.publish(&state.aliases);
        Ok(Bash { state, mem, limits: self.limits, account, aliases })
    }
}

/// What a new session's variables are made from.
struct VarsFrom<'a> {
    home: &'a str,
    username: &'a str,
    hostname: &'a str,
    cwd: &'a str,
    env: &'a [(String, String)],
    arg0: &'a str,
}

impl VarsFrom<'_> {
    fn names(&self) -> [&str; 5] {
        [self.home, self.username, self.hostname, self.cwd, self.arg0]
    }
}

/// The variables a new session starts with, for these settings. Sessions built
/// alike share them (each variable is copied when first changed): building
/// them was a fifth of a new session's time.
fn initial_vars(from: &VarsFrom) -> Variables {
    type Key = ([String; 5], Vec<(String, String)>);
    static TEMPLATE: parking_lot::Mutex<Option<(Key, Variables)>> = parking_lot::Mutex::new(None);
    let mut last = TEMPLATE.lock();
    if let Some(((names, env), vars)) = &*last {
        if names.iter().zip(from.names()).all(|(a, b)| a == b) && env.as_slice() == from.env {
            return vars.clone();
        }
    }
    let vars = fresh_vars(from);
    *last = Some(((from.names().map(str::to_string), from.env.to_vec()), vars.clone()));
    vars
}

fn fresh_vars(from: &VarsFrom) -> Variables {
    let VarsFrom { home, username, hostname, cwd, env, arg0 } = *from;
    let mut vars = Variables::default();
    // Every global a new shell sets (HOME, IFS, SHLVL, BASH_VERSINFO, ...).
    vars.reserve_globals(16 + state::shell_vars::count() + env.len());
    let defaults = [
        ("HOME", home.to_string()),
        ("PATH", "/usr/local/bin:/usr/bin:/bin".to_string()),
        ("USER", username.to_string()),
        ("LOGNAME", username.to_string()),
        ("HOSTNAME", hostname.to_string()),
        ("SHELL", "/bin/bash".to_string()),
        ("PWD", cwd.to_string()),
    ];
    for (k, v) in defaults {
        let var = vars.entry(k);
        var.value = Some(state::Value::Scalar(v));
        var.exported = k != "HOSTNAME";
    }
    for (k, v) in env {
        let var = vars.entry(k);
        var.value = Some(state::Value::Scalar(v.clone()));
        var.exported = true;
    }
    state::shell_vars::install(&mut vars);
    if username == "root" {
        state::shell_vars::make_root(&mut vars);
    }
    // One level above the environment's, as bash starts.
    let from_env = vars.get("SHLVL").cloned();
    state::shell_vars::set_level(&mut vars, from_env.as_ref(), false);
    for (k, v) in [("IFS", " \t\n"), ("OPTERR", "1"), ("OPTIND", "1"), ("PS4", "+ ")] {
        vars.entry(k).value = Some(state::Value::Scalar(v.to_string()));
    }
    // bash starts with OLDPWD exported but without a value: the first `cd` exports it.
    if vars.get("OLDPWD").is_none() {
        vars.entry("OLDPWD").exported = true;
    }
    // What `init_args` would set in each session's own table.
    if vars.get_raw("COMP_WORDBREAKS").is_none() {
        let _ = vars.set_scalar("COMP_WORDBREAKS", " \t\n\"'@><=;|&(:".to_string());
    }
    if vars.get_raw("_").is_none() {
        let _ = vars.set_scalar("_", arg0.to_string());
    }
    vars
}

/// History entries kept (bash's default HISTSIZE is 500; agents run more).
const HISTORY_MAX: usize = 10_000;

/// Per-call options of [`Bash::exec_with`].
#[derive(Clone, Default)]
pub struct ExecOptions {
    /// Bytes the script reads on stdin.
    pub stdin: Vec<u8>,
    /// Lets another task stop the exec.
    pub cancel: CancelToken,
    /// A tighter wall-clock limit for this call (the session's still caps it).
    pub timeout_ms: Option<u64>,
    /// What the history records for this call, instead of the script itself.
    pub history_line: Option<String>,
    /// The embedder's number for this exec, readable from anything it runs
    /// (`limits::scope::current_exec_id`): callbacks find their exec's broker by it.
    pub exec_id: u64,
    /// Append stdout and stderr to these files of the sandbox instead of
    /// returning them (a background job's output files).
    pub output_files: Option<(String, String)>,
    /// Called from the watchdog's thread when the exec is past its deadline
    /// (or its cancel) by [`limits::watchdog::GRACE`] and has not ended: its
    /// worker is stuck. The embedder answers its caller from there; the
    /// exec's own result comes when the worker is free, and is then the same stop.
    pub on_watchdog: Option<limits::watchdog::OnFire>,
    /// Capture stderr into stdout, in the order written (the embedder's two
    /// streams are one file, as `2>&1` makes them): the result's stderr is empty.
    pub merge_stderr: bool,
}

/// A session: shell state plus its filesystem, kept across execs.
pub struct Bash {
    state: ShellState,
    mem: Arc<MemoryFs>,
    limits: Limits,
    /// Everything this session holds is charged here (`max_memory_bytes`).
    account: Arc<MemAccount>,
    /// The aliases as readers outside a running exec see them.
    aliases: session::AliasesHandle,
}

impl Bash {
    pub fn builder() -> BashBuilder {
        BashBuilder::default()
    }

    /// The session's filesystem (usable while a script runs).
    pub fn fs(&self) -> Arc<dyn Fs> {
        self.state.fs.clone()
    }

    /// The history, readable while a script runs (`None` when turned off).
    pub fn history(&self) -> Option<state::history::HistoryHandle> {
        self.state.history.clone()
    }

    /// The aliases, by name.
    pub fn aliases(&self) -> Vec<(String, String)> {
        self.aliases.list()
    }

    /// The aliases, readable and changeable while a script runs (see
    /// [`session::AliasesHandle`]): hold it outside the lock that serializes execs.
    pub fn aliases_handle(&self) -> session::AliasesHandle {
        self.aliases.clone()
    }

    /// Define (`Some`) or remove (`None`) an alias; `Err` for a name bash refuses.
    pub fn set_alias(&mut self, name: &str, value: Option<&str>) -> Result<(), Error> {
        self.aliases.set(name, value).map_err(Error::InvalidInput)?;
        self.aliases.take_pending(&mut self.state.aliases);
        Ok(())
    }

    /// The shell state (the tests of the command table look into it).
    #[cfg(test)]
    pub(crate) fn state(&self) -> &ShellState {
        &self.state
    }

    /// The in-memory filesystem itself.
    pub fn memory_fs(&self) -> &Arc<MemoryFs> {
        &self.mem
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The session's memory account (what `max_memory_bytes` bounds): what
    /// it holds, and the most it held (`peak`).
    pub fn memory_account(&self) -> &MemAccount {
        &self.account
    }

    /// Bytes this session holds now (what `max_memory_bytes` bounds).
    pub fn memory_used(&self) -> u64 {
        self.account.used()
    }

    /// How a syntax error in an exec's text starts: `bash: -c: ` as for
    /// `bash -c`, `file: ` for a script file.
    fn syntax_error_prefix(&self) -> String {
        if self.state.script_file {
            format!("{}: ", self.state.arg0)
        } else {
            format!("{}: -c: ", self.state.arg0)
        }
    }

    /// How an exec's script is run: parsed whole (from the cache when seen
    /// before), or, when long, read a run of commands at a time as it runs
    /// (its parse memory is then a run's). Called inside the exec's scope.
    fn plan(&mut self, script: &str) -> Result<Plan, Error> {
        if script.len() > interp::reader::WHOLE {
            let mut reader = interp::reader::Reader::at_offset(Arc::from(script), 0, 0);
            if let Err(m) = reader.prime(&self.state) {
                let who = self.syntax_error_prefix();
                return Err(Error::Parse(format!("{who}{}", m.replace("\nbash: -c: ", &format!("\n{who}")))));
            }
            return Ok(Plan::Text(reader));
        }
        let depth = self.limits.max_parser_depth as usize;
        let parsed = match syntax::cache::program(script, depth, self.state.opts.extglob) {
            Ok(p) => (p.program, p.source),
            // A malformed `[[ ]]`: bash prints its message and ends the
            // script with the status it had, after the lines before it.
            Err(m) if syntax::cond::message(&m).is_some() => {
                let who = self.syntax_error_prefix();
                let shown = match syntax::cond::message(&m) {
                    Some("") => String::new(),
                    _ => format!("{who}{}", m.replace("\nbash: -c: ", &format!("\n{who}"))),
                };
                let ran = syntax::runnable_prefix(script, &m, depth).map_or(0, |(_, n)| n);
                let prefix = &script[..ran];
                let sep = if prefix.is_empty() || prefix.ends_with('\n') { "" } else { "\n" };
                let text = format!("{prefix}{sep}__syntax_error {} last\n", expand::param::quote(&shown));
                self.state.unread = Some((Arc::from(script), ran));
                owned(syntax::parse(&text, depth).map_err(Error::Parse)?)
            }
            Err(m) => {
                let who = self.syntax_error_prefix();
                let shown = format!("{who}{}", m.replace("\nbash: -c: ", &format!("\n{who}")));
                match syntax::with_runnable_prefix(script, &m, Some(&shown), depth) {
                    // The commands before the error run first, as in bash;
                    // once they define aliases, the rest is read again.
                    Some(p) => {
                        let ran = syntax::runnable_prefix(script, &m, depth).map_or(script.len(), |(_, n)| n);
                        self.state.unread = Some((Arc::from(script), ran));
                        owned(p)
                    }
                    // With the session's aliases the text may parse
                    // (`alias myif=if` in an earlier exec): read it with them.
                    None if self.state.opts.expand_aliases && !self.state.aliases.is_empty() => {
                        let text = format!("__syntax_error {}\n", expand::param::quote(&shown));
                        self.state.unread = Some((Arc::from(script), 0));
                        owned(syntax::parse(&text, depth).map_err(Error::Parse)?)
                    }
                    None => return Err(Error::Parse(shown)),
                }
            }
        };
        Ok(Plan::Program(parsed.0, parsed.1))
    }

    /// Run a script; state changes persist.
    pub async fn exec(&mut self, script: &str) -> Result<ExecResult, Error> {
        self.exec_with(script, ExecOptions::default()).await
    }

    /// An independent copy of this session's shell state (variables, cwd,
    /// functions) sharing its filesystem, as a subshell would: what a script
    /// does to the copy's state never reaches this session, its file writes do.
    /// `cwd` must name an existing directory; `env` entries are exported.
    pub fn ephemeral(&self, cwd: Option<&str>, env: &[(String, String)]) -> Result<Bash, Error> {
        let mut state = self.state.clone();
        if let Some(dir) = cwd {
            let p = fs::path::resolve(&state.cwd, dir);
            match state.fs.metadata(&p).now_or_never() {
                Some(Ok(m)) if m.is_dir() => {}
                Some(Ok(_)) => return Err(Error::InvalidInput(format!("cwd {dir}: Not a directory"))),
                Some(Err(e)) => return Err(Error::InvalidInput(format!("cwd {dir}: {e}"))),
                None => return Err(Error::InvalidInput(format!("cwd {dir}: filesystem busy"))),
            }
            state.vars.entry("PWD").value = Some(state::Value::Scalar(p.clone()));
            state.cwd = p;
        }
        for (k, v) in env {
            if state.vars.get(k).is_some_and(|var| var.readonly) {
                return Err(Error::InvalidInput(format!("env {k}: readonly variable")));
            }
            let var = state.vars.entry(k);
            var.value = Some(state::Value::Scalar(v.clone()));
            var.exported = true;
        }
        // The copy starts from the aliases with every change made so far, and
        // has a handle of its own (it never takes the session's pending changes).
        state.aliases = self.aliases.view();
        let aliases = session::AliasesHandle::default();
        aliases.publish(&state.aliases);
        Ok(Bash { state, mem: self.mem.clone(), limits: self.limits.clone(), account: self.account.clone(), aliases })
    }

    /// Run a script with stdin, a cancel token and an optional tighter timeout.
    pub async fn exec_with(&mut self, script: &str, opts: ExecOptions) -> Result<ExecResult, Error> {
        if script.len() as u64 > self.limits.max_input_bytes {
            return Err(Error::Stopped {
                reason: Stop::Limit(format!(
                    "script is {} bytes, larger than the input limit (max_input_bytes: {})",
                    script.len(),
                    self.limits.max_input_bytes
                )),
                partial: ExecResult::default(),
            });
        }
        self.state.unread = None;
        // The history line belongs to the session's memory too (no await in
        // this block: the scope is this thread's).
        let (hist, hist_no) = {
            let _scope = limits::scope::enter_account(&self.account);
            let hist = self.state.history.clone();
            let hist_no = hist.as_ref().map(|h| h.lock().push(opts.history_line.as_deref().unwrap_or(script)));
            (hist, hist_no)
        };
        // Admission: the timeout counts from here, once a slot is held; the
        // parse is part of the exec (its memory, its deadline).
        let admitted = tokio::select! {
            a = limits::admission::global().admit() => a,
            () = opts.cancel.cancelled() => {
                return Err(Error::Stopped { reason: Stop::Cancelled, partial: ExecResult::default() })
            }
        };
        let (slot, waited) = match admitted {
            Ok((slot, waited)) => (slot, waited),
            Err(limits::admission::Refused::QueueFull) => {
                return Err(Error::Overloaded("overloaded: too many scripts waiting to run (max_queued)".into()))
            }
            Err(limits::admission::Refused::Waited(ms)) => {
                return Err(Error::Overloaded(format!(
                    "overloaded: no slot to run in after waiting {ms} ms (queue_timeout_ms)"
                )))
            }
        };
        let mut limits = self.limits.clone();
        if let Some(t) = opts.timeout_ms {
            limits.timeout_ms = limits.timeout_ms.min(t.max(1));
        }
        let cancel = opts.cancel.clone();
        let budget = Budget::new(limits, opts.cancel);
        budget.set_memory(self.account.clone());
        budget.set_exec_id(opts.exec_id);
        budget.hold_first_slot(slot);
        let counter = OutputCounter::new(self.limits.max_output_bytes);
        budget.watch_output(counter.clone());
        let out = CaptureBuf::new(counter.clone());
        let err = CaptureBuf::new(counter.clone());
        // From here the watchdog answers for the exec if its worker gets stuck.
        let watch = limits::watchdog::watch(budget.clone(), Some((out.clone(), err.clone())), opts.on_watchdog.clone());
        // On a caller's thread (a first slice), a text that takes long to
        // parse is parsed on the runtime.
        if script.len() > PARSE_ON_CALLER && !syntax::cache::holds(script) {
            limits::inline::leave().await;
        }
        let parsed = {
            let _scope = limits::scope::enter(&budget);
            let plan = self.plan(script);
            match (plan, budget.job_stop()) {
                // The parse was refused (its memory or its time).
                (_, Some(reason)) => return Err(Error::Stopped { reason, partial: ExecResult::default() }),
                (Ok(p), None) => p,
                (Err(e), None) => return Err(e),
            }
        };
        let stdin = if opts.stdin.is_empty() { Input::null() } else { Input::from_bytes(opts.stdin) };
        let (stdout, stderr) = match &opts.output_files {
            Some((o, e)) => {
                let file =
                    |path: &str| Output::File(Arc::new(io::FileSink::new(self.state.fs.clone(), path.to_string())));
                (file(o), file(e))
            }
            None if opts.merge_stderr => (Output::Capture(out.clone()), Output::Capture(out.clone())),
            None => (Output::Capture(out.clone()), Output::Capture(err.clone())),
        };
        let fds = interp::Fds::new(stdin, stdout, stderr);
        // Alias changes made from outside since the last exec reach the shell now.
        self.aliases.take_pending(&mut self.state.aliases);
        // The state to roll back to on a stop; the variables keep a journal
        // of what the exec changes instead of a copy of every one.
        let vars = std::mem::take(&mut self.state.vars);
        let saved = self.state.clone();
        self.state.vars = vars;
        self.state.vars.begin_journal();
        if !self.state.script_file {
            // As `bash -c SCRIPT` sets it (charged to the session, as the script's variables are).
            let _scope = limits::scope::enter_account(&self.account);
            let _ = self.state.vars.set_scalar("BASH_EXECUTION_STRING", script.to_string());
        }
        // Descriptors set by `exec` belong to one exec (its capture buffers end with it).
        self.state.exec_fds = None;
        let timeout_ms = budget.limits.timeout_ms;
        let deadline = budget.deadline();
        let outcome = {
            self.state.budget = budget;
            let scope = self.state.budget.clone();
            let state = &mut self.state;
            let fds = &fds;
            let body = async move {
                match parsed {
                    Plan::Program(program, source) => {
                        state.src = source;
                        interp::run_program(state, &program, fds).await
                    }
                    Plan::Text(reader) => interp::run_text(state, reader, fds).await,
                }
            };
            let watched = scope.clone();
            let run = limits::scope::Scoped::new(scope, std::panic::AssertUnwindSafe(body).catch_unwind());
            // Every loop checks the budget; this backstop also ends a script that
            // waits on something that never comes, at the deadline or a cancel.
            // The deadline moves while the script waits for its turn in the
            // admission queue: sleep to it again until it has really passed.
            let expire = async move {
                if deadline.is_none() {
                    std::future::pending::<()>().await;
                }
                while let Some(d) = watched.deadline() {
                    let now = std::time::Instant::now();
                    if now >= d + std::time::Duration::from_millis(5) {
                        break;
                    }
                    tokio::time::sleep(d + std::time::Duration::from_millis(5) - now).await;
                }
            };
            tokio::select! {
                // The script first: one that ends at its first poll never
                // sets a timer (most execs are that short).
                biased;
                r = run => r,
                () = expire => Ok(Err(Stop::Timeout(timeout_ms))),
                () = cancel.cancelled() => Ok(Err(Stop::Cancelled)),
            }
        };
        // Jobs started in the background end with the exec; descriptors kept
        // by `exec` are closed first, so a `>(cmd)` reading them sees the end.
        self.state.exec_fds = None;
        self.state.budget.end_jobs().await;
        // Writes a whole-file backend is still owed (output to a descriptor
        // dropped without its close) reach it before the exec answers.
        let unsent = limits::scope::Scoped::new(self.state.budget.clone(), self.state.fs.sync()).await;
        for (path, e) in unsent {
            let _ = Output::Capture(err.clone()).write(format!("bash: {path}: {e}\n").as_bytes()).await;
        }
        self.state.budget.release_slot();
        self.state.jobs = Default::default();
        // The watchdog answered for it: whatever the script did is undone.
        let outcome = match outcome {
            Ok(Ok(_)) if watch.fired() => {
                let cancelled = self.state.budget.cancel_token().is_cancelled();
                Ok(Err(if cancelled { Stop::Cancelled } else { Stop::Timeout(timeout_ms) }))
            }
            o => o,
        };
        drop(watch);
        // A job stopped by a limit (a fork bomb) stops the exec, even after the script's end.
        let outcome = match (outcome, self.state.budget.job_stop()) {
            (Ok(Ok(_)), Some(stop)) => Ok(Err(stop)),
            // What the script left behind must fit the budget too.
            (Ok(Ok(_)), None) if self.account.would_exceed(0) => Ok(Err(self.state.budget.memory_exceeded())),
            (o, _) => o,
        };
        self.account.exec_ended();
        let queued_ms = (waited + self.state.budget.queued_time()).as_millis() as u64;
        let partial = |code| ExecResult { stdout: out.take(), stderr: err.take(), exit_code: code, queued_ms };
        let aliases = self.aliases.clone();
        if let (Some(h), Some(n), Ok(Ok(code))) = (&hist, hist_no, &outcome) {
            h.lock().set_status(n, *code);
        }
        match outcome {
            Ok(Ok(code)) => {
                // The snapshot is freed in the session's own scope: its
                // credits are a thread-local sum, not one atomic per block.
                let _scope = limits::scope::enter_account(&self.account);
                drop(saved);
                self.state.vars.end_journal();
                aliases.publish(&self.state.aliases);
                Ok(partial(code))
            }
            Err(panic) => {
                // A bug must not leave the session half-updated.
                self.roll_back(saved);
                Err(Error::Internal(panic_text(panic.as_ref())))
            }
            Ok(Err(reason)) => {
                // A stopped script leaves the session as it was before this exec.
                self.roll_back(saved);
                Err(Error::Stopped { reason, partial: partial(1) })
            }
        }
    }
}

impl Bash {
    /// Put the session back as it was before an exec: `saved` holds all but
    /// the variables, which undo their journal.
    fn roll_back(&mut self, saved: ShellState) {
        let mut vars = std::mem::take(&mut self.state.vars);
        vars.roll_back();
        self.state = saved;
        self.state.vars = vars;
        self.aliases.publish(&self.state.aliases);
    }
}

/// A panic payload as text.
pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>(_: &T) {}

    #[test]
    fn exec_future_is_send() {
        let mut bash = Bash::builder().build().expect("build");
        let fut = bash.exec("echo hi");
        assert_send(&fut);
    }

    #[tokio::test]
    async fn state_persists_and_stop_rolls_back() {
        let mut bash =
            Bash::builder().limits(Limits { max_loop_iterations: 5, ..Limits::default() }).build().expect("build");
        bash.exec("x=1; cd /tmp").await.expect("exec");
        let err = bash.exec("x=2; while :; do :; done").await.unwrap_err();
        assert!(err.to_string().contains("max_loop_iterations: 5"), "{err}");
        let r = bash.exec("echo $x; pwd").await.expect("exec");
        assert_eq!(r.stdout, b"1\n/tmp\n");
    }

    #[tokio::test]
    async fn a_stop_rolls_back_every_kind_of_variable_change() {
        let mut bash =
            Bash::builder().limits(Limits { max_loop_iterations: 5, ..Limits::default() }).build().expect("build");
        bash.exec("a=1; b=(x y); declare -A m=([k]=v); gone=here; declare -i n=3").await.expect("exec");
        let stop = "a=2; b+=(z); b[0]=w; m[k]=changed; unset gone; new=1; n+=4; declare -r a; \
                    f() { local a=9; g=1; while :; do :; done; }; f";
        let err = bash.exec(stop).await.unwrap_err();
        assert!(err.to_string().contains("max_loop_iterations"), "{err}");
        let r =
            bash.exec("echo $a ${b[@]} ${m[k]} $gone ${new-unset} ${g-unset} $n; a=5; echo $a").await.expect("exec");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "1 x y v here unset unset 3\n5\n");
        // Changes of an exec that ends well stay, and a later stop keeps them.
        bash.exec("a=7; unset b").await.expect("exec");
        bash.exec("a=8; b=1; while :; do :; done").await.unwrap_err();
        let r = bash.exec("echo $a ${b-unset}").await.expect("exec");
        assert_eq!(r.stdout, b"7 unset\n");
    }

    #[tokio::test]
    async fn a_panic_is_an_error_and_rolls_back() {
        let mut bash = Bash::builder().build().expect("build");
        bash.exec("x=1").await.expect("exec");
        let err = bash.exec("x=2; __test_panic").await.unwrap_err();
        assert_eq!(err, Error::Internal("test panic".into()));
        let r = bash.exec("echo $x").await.expect("exec");
        assert_eq!(r.stdout, b"1\n");
    }

    fn unbounded() -> Limits {
        Limits {
            max_commands: u64::MAX,
            max_loop_iterations: u64::MAX,
            max_total_loop_iterations: u64::MAX,
            ..Limits::default()
        }
    }

    #[tokio::test]
    async fn ephemeral_copy_keeps_state_apart_and_shares_files() {
        let mut bash = Bash::builder().build().expect("build");
        bash.exec("x=1; mkdir -p /d 2>/dev/null || :").await.expect("exec");
        let env = vec![("Y".to_string(), "why".to_string())];
        let mut copy = bash.ephemeral(Some("/tmp"), &env).expect("ephemeral");
        let r = copy.exec("echo $x $Y $PWD; x=2; cd /; echo hi > /tmp/f").await.expect("exec");
        assert_eq!(r.stdout, b"1 why /tmp\n");
        let r = bash.exec("echo $x ${Y-unset} $PWD; cat /tmp/f").await.expect("exec");
        assert_eq!(r.stdout, b"1 unset /\nhi\n");
        assert!(
            matches!(bash.ephemeral(Some("/nope"), &[]), Err(Error::InvalidInput(m)) if m.contains("No such file"))
        );
    }

    #[tokio::test]
    async fn per_call_timeout_and_cancel_stop_a_busy_loop() {
        let mut bash = Bash::builder().limits(unbounded()).build().expect("build");
        let opts = ExecOptions { timeout_ms: Some(30), ..Default::default() };
        let err = bash.exec_with("while :; do :; done", opts).await.unwrap_err();
        assert!(matches!(err, Error::Stopped { reason: Stop::Timeout(30), .. }), "{err:?}");

        let cancel = CancelToken::default();
        let opts = ExecOptions { cancel: cancel.clone(), ..Default::default() };
        let trigger = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            trigger.cancel();
        });
        let err = bash.exec_with("echo started; while :; do :; done", opts).await.unwrap_err();
        match err {
            Error::Stopped { reason: Stop::Cancelled, partial } => assert_eq!(partial.stdout, b"started\n"),
            other => panic!("{other:?}"),
        }
        assert_eq!(bash.exec("echo ok").await.expect("exec").stdout, b"ok\n");
    }

    #[tokio::test]
    async fn background_jobs_end_with_the_exec() {
        let mut bash = Bash::builder().build().expect("build");
        let start = std::time::Instant::now();
        let r = bash.exec("sleep 30 & echo started $?; echo quick &").await.expect("exec");
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
        assert_eq!(r.stdout, b"started 0\nquick\n");
        // The next exec has no jobs left.
        let r = bash.exec("jobs; wait; echo $?").await.expect("exec");
        assert_eq!(r.stdout, b"0\n");
    }

    #[tokio::test]
    async fn a_limit_hit_in_a_background_job_stops_the_exec() {
        let limits = Limits { max_loop_iterations: 50, ..Limits::default() };
        let mut bash = Bash::builder().limits(limits).build().expect("build");
        let err = bash.exec("while :; do :; done & wait; echo not reached").await.unwrap_err();
        assert!(err.to_string().contains("max_loop_iterations: 50"), "{err}");
    }
}

/// Forget the parses this thread keeps for every session (scripts, `$( )`
/// texts, words): the next exec on it parses its text again. For benchmarks
/// that measure parsing too; nothing else needs it.
pub fn clear_parse_caches() {
    syntax::cache::clear();
}

/// A parse made for one exec (a syntax error's runnable prefix), shaped as a cached one.
/// How an exec's script runs (see [`Bash::plan`]).
enum Plan {
    Program(Arc<brush_parser::ast::Program>, Arc<state::source::Source>),
    Text(interp::reader::Reader),
}

/// Scripts longer than this are parsed on the runtime, not on a caller's thread.
const PARSE_ON_CALLER: usize = 4096;

fn owned(p: syntax::Parsed) -> (Arc<brush_parser::ast::Program>, Arc<state::source::Source>) {
    (Arc::new(p.program), p.source)
}
