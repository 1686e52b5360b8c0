//! Utilities a script can run (cat, grep, sort, ...), one module each, behind the
//! [`Command`] trait, plus the [`Registry`] that maps names to them. Builtins that
//! change shell state (cd, export, read, ...) live in `crate::builtins` instead.

pub mod common;
#[cfg(test)]
pub(crate) mod testutil;

mod awk;
mod basename;
mod cat;
mod chmod;
mod comm;
mod cp;
mod dirname;
mod env;
mod expand;
mod file_mode;
mod file_time;
mod file_util;
mod fold;
mod grep;
mod grep_re;
mod grep_scan;
mod hostname;
mod ldouble;
mod ln;
mod ls;
mod mkdir;
mod mv;
mod nl;
mod paste;
mod printenv;
mod printf;
mod readlink;
mod rev;
mod rm;
mod rmdir;
mod sleep;
mod sort;
mod sort_cmp;
mod stat;
mod tac;
mod tee;
mod timefmt;
mod touch;
mod uniq;
mod wc;
mod whoami;

use crate::fs::Fs;
use crate::io::{Input, IoError, Output};
use crate::limits::Budget;
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// What a running command sees of the shell's variables.
pub trait EnvView: Send + Sync {
    /// A variable's value (exported or not).
    fn get(&self, name: &str) -> Option<String>;
    /// The exported variables, sorted by name (what `env` prints).
    fn exported(&self) -> Vec<(String, String)>;
}

/// Fixed facts about the sandbox's "machine".
#[derive(Clone, Debug)]
pub struct SysInfo {
    pub username: String,
    pub hostname: String,
}

/// Everything one command invocation gets.
pub struct CommandContext<'a> {
    /// The name it was invoked by (argv[0]).
    pub name: &'a str,
    /// The arguments after the name.
    pub args: &'a [String],
    pub stdin: Input,
    pub stdout: Output,
    pub stderr: Output,
    /// Absolute working directory.
    pub cwd: &'a str,
    pub env: &'a dyn EnvView,
    pub fs: &'a Arc<dyn Fs>,
    pub sys: &'a SysInfo,
    pub budget: &'a Budget,
    /// Script line of the command (for `bash: line N:` messages of builtins).
    pub line: usize,
}

/// The result of a command: its exit status, or an I/O failure that ends it
/// (a broken pipe becomes status 141; an output-limit error ends the exec).
pub type CommandResult = Result<i32, IoError>;

/// A utility. Implementations are stateless unit structs registered by name.
#[async_trait]
pub trait Command: Send + Sync {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult;
}

/// Name -> implementation.
#[derive(Clone, Default)]
pub struct Registry {
    map: HashMap<String, Arc<dyn Command>>,
}

impl Registry {
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Command>> {
        self.map.get(name)
    }
    pub fn insert(&mut self, name: impl Into<String>, cmd: Arc<dyn Command>) {
        self.map.insert(name.into(), cmd);
    }
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }
}

/// The built-in utilities, built once per process.
pub fn default_registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut r = Registry::default();
        let all: Vec<(&str, Arc<dyn Command>)> = vec![
            ("awk", Arc::new(awk::Awk)),
            ("gawk", Arc::new(awk::Awk)),
            ("basename", Arc::new(basename::Basename)),
            ("cat", Arc::new(cat::Cat)),
            ("sort", Arc::new(sort::Sort)),
            ("uniq", Arc::new(uniq::Uniq)),
            ("grep", Arc::new(grep::Grep)),
            ("env", Arc::new(env::Env)),
            ("printenv", Arc::new(printenv::Printenv)),
            ("whoami", Arc::new(whoami::Whoami)),
            ("hostname", Arc::new(hostname::Hostname)),
            ("sleep", Arc::new(sleep::Sleep)),
            ("dirname", Arc::new(dirname::Dirname)),
            ("chmod", Arc::new(chmod::Chmod)),
            ("cp", Arc::new(cp::Cp)),
            ("ln", Arc::new(ln::Ln)),
            ("ls", Arc::new(ls::Ls)),
            ("mkdir", Arc::new(mkdir::Mkdir)),
            ("mv", Arc::new(mv::Mv)),
            ("readlink", Arc::new(readlink::Readlink)),
            ("realpath", Arc::new(readlink::Realpath)),
            ("rm", Arc::new(rm::Rm)),
            ("rmdir", Arc::new(rmdir::Rmdir)),
            ("stat", Arc::new(stat::Stat)),
            ("touch", Arc::new(touch::Touch)),
            ("tee", Arc::new(tee::Tee)),
            ("rev", Arc::new(rev::Rev)),
            ("tac", Arc::new(tac::Tac)),
            ("paste", Arc::new(paste::Paste)),
            ("comm", Arc::new(comm::Comm)),
            ("fold", Arc::new(fold::Fold)),
            ("expand", Arc::new(expand::Expand)),
            ("nl", Arc::new(nl::Nl)),
            ("printf", Arc::new(printf::Printf)),
            ("wc", Arc::new(wc::Wc)),
        ];
        for (name, cmd) in all {
            r.insert(name, cmd);
        }
        r
    })
}
