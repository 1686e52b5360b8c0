//! Shell state that persists across commands and execs: variables, functions,
//! options, positional parameters, cwd. Forking (for `( )`, `$( )`, pipeline
//! stages) is a clone; the maps inside are `Arc`-shared until written.

pub mod assoc;
pub mod call_stack;
pub mod history;
pub mod hot;
pub mod name_key;
pub mod options;
pub mod random;
pub mod shell_vars;
pub mod source;
pub mod trace;
pub mod vars;

use crate::commands::{EnvView, SysInfo};
use crate::fs::Fs;
use crate::limits::Budget;
use brush_parser::ast;
use std::collections::HashMap;

/// The shell's functions by name (foldhash: every command name is looked up here first).
pub type Functions = HashMap<String, Arc<Function>, foldhash::fast::RandomState>;
use std::sync::Arc;

pub use options::Options;
pub use vars::{Case, Resolved, Value, Var, Variables};

/// A shell function: its body, its own text, and the program text its AST
/// locations refer to.
#[derive(Clone)]
pub struct Function {
    pub def: ast::FunctionDefinition,
    /// Its name, as each call's frame holds it (`FUNCNAME`): shared, not
    /// copied per call.
    pub name: Arc<str>,
    pub source: String,
    pub program: Arc<source::Source>,
    /// `export -f`: child `bash` processes get it too.
    pub exported: bool,
    /// `readonly -f`: it cannot be redefined or unset.
    pub readonly: bool,
    /// The file it was defined in, its `${BASH_SOURCE[0]}` while it runs
    /// ("environment" for one defined by `-c` text or inherited).
    pub file: Arc<str>,
    /// The line it was defined on in that file (`declare -F` under
    /// `extdebug`); 0 for one inherited from a parent shell.
    pub line: usize,
}

impl Function {
    /// The definition as bash prints it (`declare -f`, `type`): re-printed
    /// from the parse tree, not the text as written.
    pub fn printed(&self) -> String {
        crate::interp::print_cmd::function_text(&self.program, &self.def.fname.value, &self.def.body)
    }
}

/// The state of one shell.
#[derive(Clone)]
pub struct ShellState {
    pub vars: Variables,
    pub funcs: Arc<Functions>,
    /// `$1 ...`
    pub positional: Arc<Vec<String>>,
    /// `$0`
    pub arg0: String,
    pub cwd: String,
    pub last_status: i32,
    pub opts: Options,
    pub fs: Arc<dyn Fs>,
    pub sys: Arc<SysInfo>,
    /// The command history (`None` when it is turned off).
    pub history: Option<history::HistoryHandle>,
    /// Everything a name can run (the application's commands and the
    /// session's restriction among it); see [`crate::table`].
    pub commands: Arc<crate::table::CommandTable>,
    /// Current script line, for messages.
    pub line: usize,
    /// Depth of function calls.
    pub func_depth: u64,
    /// Depth of strings run inside each other (`eval`, `source`, trap actions,
    /// `bash` scripts, `${x@P}`): bounded by `max_function_depth` too, as each
    /// level recurses natively like a call.
    pub eval_depth: u64,
    /// Depth of `( )`, `$( )` and pipeline forks.
    pub subshell_depth: u64,
    /// `subshell_depth` at this shell's top level (a child `bash` starts a new one).
    pub shell_base: u64,
    /// Running a condition (`if`, `while`, `&&`, `!`): `set -e` does not apply.
    pub in_condition: bool,
    /// The function call that just returned set the ERR trap, which was
    /// not set when it started: bash does not run it for that call's status.
    pub err_trap_new_in_call: bool,
    /// The options as the running function found them, after its `local -`:
    /// they come back when it returns.
    pub local_opts: Option<Box<Options>>,
    /// Status of the last command substitution of the current command, if any
    /// (the status of an assignment-only command).
    pub subst_status: Option<i32>,
    /// A `${...}` bash cannot read, met while expanding a word: its message
    /// names the whole text being expanded, which the word's caller knows
    /// (see `expand::report_bad_subst`).
    pub bad_subst: Option<String>,
    /// Expanding a here-document's body: `$'...'` in a `${...}` operand is
    /// plain text there (bash decodes it only inside double quotes).
    pub in_heredoc: bool,
    /// Inside `source`/`.`: `return` is allowed.
    pub in_source: bool,
    /// `set` gave new positional parameters outside every function: a
    /// `source` with arguments then keeps them instead of restoring its
    /// caller's (bash's `ARGS_SETBLTIN`).
    pub args_set_at_top: bool,
    /// Running a script file (`bash file`, `./file`) rather than `-c` text:
    /// bash's fatal expansion errors then exit with 1, not 127.
    pub script_file: bool,
    /// Descriptors installed by `exec` redirections (no command), used by the
    /// rest of the enclosing list.
    pub exec_fds: Option<Arc<crate::interp::Fds>>,
    /// Loops currently running (for `break N`/`continue N`).
    pub loop_depth: usize,
    /// `trap` actions by condition name (`EXIT`, `ERR`, `INT`, ...).
    pub traps: Arc<std::collections::BTreeMap<String, String>>,
    /// Traps of the parent shell a subshell still lists (not runs) until it sets one.
    pub shown_traps: Arc<std::collections::BTreeMap<String, String>>,
    /// The running exec's budget (replaced at each exec).
    pub budget: Arc<Budget>,
    /// Source text of the program being run (function definitions keep a slice of it).
    pub src: Arc<source::Source>,
    /// `alias` definitions.
    pub aliases: Arc<std::collections::BTreeMap<String, String>>,
    /// Background jobs and `$!`.
    pub jobs: crate::interp::jobs::Jobs,
    /// `pushd`/`popd` stack below the current directory, top first.
    pub dirstack: Arc<Vec<String>>,
    /// The rest of the call stack and what traps see (see [`trace`]).
    pub trace: trace::Trace,
    /// The file creation mask (`umask`); set it with [`ShellState::set_umask`].
    pub umask: u32,
    /// The filesystem without the mask's view, while `fs` is one (a mask other than 022).
    pub fs_unmasked: Option<Arc<dyn Fs>>,
    /// `ulimit`'s values once a script changed one (see `builtins::ulimit`).
    pub ulimits: Option<Box<crate::builtins::ulimit::Values>>,
    /// Nesting of `$( )` (for `set -x`'s repeated PS4 character).
    pub subst_depth: usize,
    /// Builtins turned off with `enable -n` (a utility of that name runs instead).
    pub disabled: Arc<std::collections::BTreeSet<String>>,
    /// `complete`'s specifications, by command name.
    pub completions: Arc<crate::builtins::complete::CompSpecs>,
    /// `getopts`' place inside a cluster like `-abc`: (the OPTIND it belongs to, char index).
    pub getopts_pos: (usize, usize),
    /// The `select` loop whose menu is on screen: (its line, loop depth).
    pub select_menu: Option<(usize, usize)>,
    /// The last `__select` met end of input (the loop then ends with status 1).
    pub select_eof: bool,
    /// Warnings arithmetic met while evaluating (`a: bad array subscript`),
    /// printed by the caller (the evaluator cannot write).
    pub arith_warnings: Vec<String>,
    /// `RANDOM`'s generator once a script seeded it.
    pub random: Arc<random::SeededRandom>,
    /// `SECONDS` counts from this instant, plus the value last assigned.
    pub seconds: (std::time::Instant, i64),
    /// `unset LINENO` made it a plain variable (assignments to it are
    /// otherwise ignored: the line number is the shell's).
    pub lineno_plain: bool,
    /// The text after an exec's syntax error, from the line the commands that
    /// ran before it ended at (the script, a byte offset): read on there once
    /// aliases are defined (see `interp::reader`).
    pub unread: Option<(Arc<str>, usize)>,
    /// The last compound command did not run: its redirections failed (its
    /// failure is its own then, for the ERR trap and `set -e`).
    pub compound_unrun: bool,
    /// The simple command this shell would run without forking (see
    /// `interp::nofork`), by address; 0 for none.
    pub nofork: usize,
    /// The simple command running now is that one.
    pub nofork_now: bool,
}

/// Where an error happened, for bash's message prefix.
#[derive(Clone, Debug)]
pub struct Loc {
    pub line: usize,
    /// The name bash puts first: the file the running code comes from
    /// (`${BASH_SOURCE[0]}`: a script, a sourced file, "environment" for a
    /// function defined by `-c` text), else `$0`.
    pub who: String,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: line {}", self.who, self.line)
    }
}

/// Variables bash computes that its listings (`declare -p`, `set`,
/// `readonly -p`) show as readonly strings.
const LISTED_COMPUTED: [&str; 2] = ["BASHOPTS", "SHELLOPTS"];

impl ShellState {
    /// `umask MASK`: files and directories made from now on get its bits.
    pub fn set_umask(&mut self, mask: u32) {
        self.umask = mask;
        let base = self.fs_unmasked.take().unwrap_or_else(|| self.fs.clone());
        if mask == crate::fs::umask::DEFAULT {
            self.fs = base;
        } else {
            self.fs_unmasked = Some(base.clone());
            self.fs = Arc::new(crate::fs::umask::UmaskFs::new(base, mask));
        }
    }

    /// The names `declare -p` and `set` list: the variables, and the
    /// computed ones bash lists with them.
    pub fn listed_names(&self) -> Vec<String> {
        let mut names = self.vars.names();
        for n in LISTED_COMPUTED {
            if let Err(at) = names.binary_search_by(|x| x.as_str().cmp(n)) {
                names.insert(at, n.to_string());
            }
        }
        names
    }

    /// SHELLOPTS or BASHOPTS (while no variable of that name exists): it
    /// cannot be assigned or unset.
    pub fn is_computed_readonly(&self, name: &str) -> bool {
        LISTED_COMPUTED.contains(&name) && self.vars.get_raw(name).is_none()
    }

    /// A variable as the listings show it (see [`ShellState::listed_names`]).
    pub fn listed_var(&self, name: &str) -> Option<std::borrow::Cow<'_, vars::Var>> {
        if let Some(v) = self.vars.get_raw(name) {
            return Some(std::borrow::Cow::Borrowed(v));
        }
        let value = match name {
            "SHELLOPTS" => self.opts.shellopts(),
            "BASHOPTS" => self.opts.bashopts(),
            _ => return None,
        };
        Some(std::borrow::Cow::Owned(vars::Var {
            value: Some(Value::Scalar(value)),
            readonly: true,
            ..vars::Var::empty()
        }))
    }

    /// A sourced or executed file starts: it becomes `${BASH_SOURCE[0]}`.
    pub fn push_source(&mut self, file: impl Into<Arc<str>>) {
        let file = file.into();
        self.call_stack().sources.push(file);
    }

    /// The file from [`push_source`](Self::push_source) is done.
    pub fn pop_source(&mut self) {
        self.call_stack().sources.pop();
    }

    /// The current position for error messages.
    pub fn loc(&self) -> Loc {
        Loc { line: self.line, who: self.source_name().unwrap_or_else(|| self.arg0.clone()) }
    }

    /// `${BASH_SOURCE[0]}` when set and not empty.
    pub fn source_name(&self) -> Option<String> {
        if let Some(top) = self.vars.computed_source() {
            return top.filter(|s| !s.is_empty()).map(str::to_string);
        }
        match self.vars.get("BASH_SOURCE").and_then(|v| v.value.as_ref()) {
            Some(Value::Indexed(m)) => m.values().next().filter(|s| !s.is_empty()).cloned(),
            _ => None,
        }
    }

    /// `set -x`'s prefix: PS4 with its first character repeated once more for
    /// each level of command substitution, as bash marks indirection.
    pub fn xtrace_prefix(&self) -> String {
        let ps4 = self.get_var("PS4").unwrap_or_else(|| "+ ".into());
        match ps4.chars().next() {
            Some(c) if self.subst_depth > 0 => {
                let extra: String = std::iter::repeat_n(c, self.subst_depth.min(64)).collect();
                format!("{extra}{ps4}")
            }
            _ => ps4,
        }
    }

    /// A variable's string value (`$name`); arrays give element 0.
    pub fn get_var(&self, name: &str) -> Option<String> {
        if self.vars.has_refs() {
            if let vars::Resolved::Element(base, sub) = self.vars.resolve(name) {
                return match self.vars.get(&base)?.value.as_ref()? {
                    Value::Assoc(m) => m.get(&sub).cloned(),
                    Value::Indexed(m) => m.get(&sub.trim().parse().ok()?).cloned(),
                    Value::Scalar(s) => (sub.trim() == "0").then(|| s.clone()),
                };
            }
        }
        self.vars.get(name).and_then(|v| v.value.as_ref()?.as_scalar())
    }

    /// Whether the locale's characters are single bytes (LC_ALL, else
    /// LC_CTYPE, else LANG names one that is not UTF-8, such as C or POSIX).
    /// With none of them set the sandbox is C.UTF-8.
    pub fn single_byte_locale(&self) -> bool {
        let named = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|n| self.get_var(n).filter(|v| !v.is_empty()));
        named.is_some_and(|l| {
            let l = l.to_ascii_lowercase();
            !(l.contains("utf-8") || l.contains("utf8"))
        })
    }

    /// Whether `unset SECONDS` made it a plain variable.
    pub fn seconds_plain(&self) -> bool {
        self.seconds.1 == i64::MIN
    }

    /// Set a scalar, honouring readonly. `Err` holds bash's message.
    pub fn set_var(&mut self, name: &str, value: String) -> Result<(), String> {
        // Assigning `RANDOM` seeds its generator (it stays dynamic).
        if name == "RANDOM" && self.vars.get_raw(name).is_none() {
            self.random.seed(&value);
            return Ok(());
        }
        // Assigning `BASH_ARGV0` sets `$0` (it stays dynamic).
        if name == "BASH_ARGV0" && self.vars.get_raw(name).is_none() {
            self.arg0 = value;
            return Ok(());
        }
        // `BASH_ALIASES` is the alias table: its key "0" is the alias set.
        if name == "BASH_ALIASES" && self.vars.get_raw(name).is_none() {
            std::sync::Arc::make_mut(&mut self.aliases).insert("0".to_string(), value);
            return Ok(());
        }
        if name == "LINENO" && !self.lineno_plain && self.vars.get_raw(name).is_none() {
            return Ok(());
        }
        // Assigning `SECONDS` sets where it counts from (it stays dynamic).
        if name == "SECONDS" && self.vars.get_raw(name).is_none() && !self.seconds_plain() {
            self.seconds = (std::time::Instant::now(), value.trim().parse().unwrap_or(0));
            return Ok(());
        }
        if self.is_computed_readonly(name) {
            return Err(format!("{name}: readonly variable"));
        }
        // Assigning OPTIND starts getopts over (mid-cluster too).
        if name == "OPTIND" {
            self.getopts_pos = (0, 0);
        }
        self.vars.set_scalar(name, value)?;
        if self.opts.allexport {
            self.vars.entry(name).exported = true;
        }
        Ok(())
    }
}

impl EnvView for ShellState {
    fn get(&self, name: &str) -> Option<String> {
        self.get_var(name)
    }
    fn exported(&self) -> Vec<(String, String)> {
        self.vars.exported()
    }
}
