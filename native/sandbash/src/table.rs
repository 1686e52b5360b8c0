//! The command table of a session: every name a script can run, and the one
//! lookup ([`CommandTable::resolve`]) that execution, `type`, `command -v/-V`,
//! `hash`, `compgen -c`, `which` and the utilities that run others (`env`,
//! `xargs`, `find -exec`, `timeout`) share.
//!
//! The order is bash's: functions, then builtins (the application's commands
//! come first among them), then a `PATH` search, where the utilities live in
//! `/usr/bin` and `/bin` and an executable file of the sandbox in an earlier
//! directory (`/usr/local/bin/ls`) shadows them. A `PATH` without those
//! directories finds no utility (`PATH=/x ls`: command not found), as in bash.
//!
//! What a session may run can be restricted ([`CommandPolicy`]): `only` these
//! names, or all `except` these. The restriction covers programs, that is
//! utilities, python, the application's builtins, `bash`/`sh` and scripts on
//! `PATH`, by the name they are run by (`/usr/bin/curl` counts as `curl`). It
//! never covers shell builtins (`cd`, `echo`, `read`, ...: they only touch the
//! shell's own state, which every script has anyway; special builtins such as
//! `exit`, `set` or `eval` are part of the language) nor functions (made of
//! commands that are checked one by one); naming a builtin that is not also a
//! program is refused when the session is built. A restricted name is as
//! absent: `bash: line 1: NAME: command not found`, status 127, and `type`,
//! `command -v`, `hash`, `which` and `compgen -c` do not show it. A script
//! run by path (`./job.sh`) runs, and each command in it is checked.

use crate::builtins::{self, Builtin, Kind};
use crate::commands::host::HostCommands;
use crate::commands::{default_registry, python_command, Command, SysInfo};
use crate::state::{Function, ShellState};
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

/// Which programs a session may run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CommandPolicy {
    /// Every command (the default).
    #[default]
    All,
    /// Only these programs.
    Only(BTreeSet<String>),
    /// Every program but these.
    Except(BTreeSet<String>),
}

impl CommandPolicy {
    /// Whether the program `name` may run.
    pub fn allows(&self, name: &str) -> bool {
        match self {
            CommandPolicy::All => true,
            CommandPolicy::Only(s) => s.contains(name),
            CommandPolicy::Except(s) => !s.contains(name),
        }
    }

    fn names(&self) -> Option<&BTreeSet<String>> {
        match self {
            CommandPolicy::All => None,
            CommandPolicy::Only(s) | CommandPolicy::Except(s) => Some(s),
        }
    }
}

/// Something that runs as a program: a registered utility (python included)
/// or the in-process `bash`/`sh`.
#[derive(Clone)]
pub enum Program {
    Command(Arc<dyn Command>),
    Shell(&'static Builtin),
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Program::Command(_) => f.write_str("Command"),
            Program::Shell(b) => write!(f, "Shell({})", b.name),
        }
    }
}

/// What a command name runs.
#[derive(Clone)]
pub enum Resolved {
    Function(Arc<Function>),
    /// A POSIX special builtin (`exit`, `set`, `export`, ...).
    SpecialBuiltin(&'static Builtin),
    Builtin(&'static Builtin),
    /// A command the embedding application answers.
    AppBuiltin,
    /// A utility, found at this path (`/usr/bin/NAME`).
    Utility(Program, String),
    /// A file of the sandbox: an executable on `PATH`, a name with a slash, or
    /// (when nothing else matched) a non-executable file on `PATH` (running it
    /// says `Permission denied`).
    File(String),
    NotFound,
    /// Restricted by the session's [`CommandPolicy`]; shown as not found.
    NotAllowed,
}

impl std::fmt::Debug for Resolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Resolved::Function(_) => f.write_str("Function"),
            Resolved::SpecialBuiltin(b) => write!(f, "SpecialBuiltin({})", b.name),
            Resolved::Builtin(b) => write!(f, "Builtin({})", b.name),
            Resolved::AppBuiltin => f.write_str("AppBuiltin"),
            Resolved::Utility(p, path) => write!(f, "Utility({p:?}, {path})"),
            Resolved::File(p) => write!(f, "File({p})"),
            Resolved::NotFound => f.write_str("NotFound"),
            Resolved::NotAllowed => f.write_str("NotAllowed"),
        }
    }
}

impl Resolved {
    /// Found and allowed.
    pub fn is_found(&self) -> bool {
        !matches!(self, Resolved::NotFound | Resolved::NotAllowed)
    }
}

/// Where the utilities live.
const UTILITY_DIRS: &[&str] = &["/usr/bin", "/bin", "/usr/local/bin", "/sbin", "/usr/sbin"];

/// The per-session table, built by [`crate::BashBuilder`].
#[derive(Clone, Default)]
pub struct CommandTable {
    host: Option<Arc<HostCommands>>,
    policy: CommandPolicy,
}

impl std::fmt::Debug for CommandTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandTable").field("policy", &self.policy).finish_non_exhaustive()
    }
}

impl CommandTable {
    /// A table with the application's commands and a policy. `Err` names a
    /// policy entry that is not a command name, or a builtin (those are never
    /// restricted; see the module doc).
    pub fn new(host: Option<HostCommands>, policy: CommandPolicy) -> Result<Self, String> {
        for n in policy.names().into_iter().flatten() {
            if n.is_empty() || n.contains(['/', '=', '\0', ' ', '\t', '\n']) {
                return Err(format!("commands: {n:?} is not a command name"));
            }
            let program = default_registry().get(n).is_some()
                || host.as_ref().is_some_and(|h| h.has(n))
                || matches!(n.as_str(), "bash" | "sh");
            if !program && builtins::lookup(n).is_some_and(|b| matches!(b.kind, Kind::Special | Kind::Regular)) {
                return Err(format!(
                    "commands: {n} is a shell builtin; builtins are part of the shell and cannot be restricted"
                ));
            }
        }
        Ok(CommandTable { host: host.map(Arc::new), policy })
    }

    /// The table of a session built without options (no application commands, no restriction).
    pub fn default_ref() -> &'static CommandTable {
        static T: OnceLock<CommandTable> = OnceLock::new();
        T.get_or_init(CommandTable::default)
    }

    pub fn policy(&self) -> &CommandPolicy {
        &self.policy
    }

    /// The application's commands, if any.
    pub fn app_builtins(&self) -> Option<&Arc<HostCommands>> {
        self.host.as_ref()
    }

    /// Whether the program `name` may run.
    pub fn allowed(&self, name: &str) -> bool {
        self.policy.allows(name)
    }

    /// The program a bare name names, allowed or not: a utility, python, or `bash`/`sh`.
    pub fn program(sys: &SysInfo, name: &str) -> Option<Program> {
        if let Some(c) = default_registry().get(name) {
            return Some(Program::Command(c.clone()));
        }
        if let Some(c) = python_command(sys, name) {
            return Some(Program::Command(c));
        }
        builtins::lookup(name).filter(|b| b.kind == Kind::Program).map(Program::Shell)
    }

    /// An enabled builtin a script may call by name (internal ones included:
    /// the parser's rewrites call them).
    fn builtin(sh: &ShellState, name: &str) -> Option<&'static Builtin> {
        builtins::lookup(name).filter(|b| b.kind != Kind::Program && !sh.disabled.contains(name))
    }

    /// Whether `name` runs the shell's own builtin: no function or
    /// application command of that name, and not disabled (what a fast
    /// path must know before it runs the builtin's work itself).
    pub fn runs_builtin(&self, sh: &ShellState, name: &str) -> bool {
        (sh.funcs.is_empty() || !sh.funcs.contains_key(name))
            && !self.host.as_ref().is_some_and(|h| h.has(name))
            && Self::builtin(sh, name).is_some()
    }

    /// What `name` runs (see the module doc for the order).
    pub async fn resolve(&self, sh: &ShellState, name: &str) -> Resolved {
        self.resolve_with(sh, name, false).await
    }

    /// [`resolve`](Self::resolve), skipping functions when `skip_functions`
    /// (`command NAME`, `type -f`).
    pub async fn resolve_with(&self, sh: &ShellState, name: &str, skip_functions: bool) -> Resolved {
        if !skip_functions {
            if let Some(f) = sh.funcs.get(name) {
                return Resolved::Function(f.clone());
            }
        }
        if self.host.as_ref().is_some_and(|h| h.has(name)) {
            return if self.allowed(name) { Resolved::AppBuiltin } else { Resolved::NotAllowed };
        }
        if let Some(b) = Self::builtin(sh, name) {
            return match b.kind {
                Kind::Special => Resolved::SpecialBuiltin(b),
                _ => Resolved::Builtin(b),
            };
        }
        self.resolve_path(sh, name).await
    }

    /// The program part of the lookup: a name with a slash, or a `PATH` search.
    async fn resolve_path(&self, sh: &ShellState, name: &str) -> Resolved {
        if let Some((dir, base)) = name.rsplit_once('/') {
            // `/bin/ls` and `/usr/bin/env` name the utility itself.
            if UTILITY_DIRS.contains(&dir) {
                if let Some(p) = Self::program(&sh.sys, base) {
                    return if self.allowed(base) {
                        Resolved::Utility(p, name.to_string())
                    } else {
                        Resolved::NotAllowed
                    };
                }
            }
            return Resolved::File(name.to_string());
        }
        if !self.allowed(name) {
            return Resolved::NotAllowed;
        }
        let mut hits = self.path_search(sh, name, false).await;
        if hits.is_empty() {
            // A file there without the x bit still answers (`Permission denied`, 126).
            if let Some(f) = path_file(sh, name).await {
                return Resolved::File(f);
            }
            return Resolved::NotFound;
        }
        hits.swap_remove(0)
    }

    /// Where `name` is found on `PATH` (only the first unless `all`): the
    /// utilities in `/usr/bin` and `/bin` (or `/usr/bin/NAME` when `PATH`
    /// leaves them out) and executable files of the sandbox. Ignores the policy.
    pub async fn path_search(&self, sh: &ShellState, name: &str, all: bool) -> Vec<Resolved> {
        let program = Self::program(&sh.sys, name);
        let path = sh.get_var("PATH").unwrap_or_default();
        let mut hits = Vec::new();
        for dir in path.split(':') {
            let dir = if dir.is_empty() { "." } else { dir };
            let full = format!("{}/{name}", dir.trim_end_matches('/'));
            match &program {
                Some(p) if matches!(dir, "/usr/bin" | "/bin") => hits.push(Resolved::Utility(p.clone(), full)),
                _ => {
                    let p = crate::fs::path::resolve(&sh.cwd, &full);
                    if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file() && m.mode & 0o111 != 0) {
                        hits.push(Resolved::File(full));
                    }
                }
            }
            if !all && !hits.is_empty() {
                break;
            }
        }
        hits
    }

    /// Everything `name` could run, in order (`type -a`): the function, the
    /// builtin, every `PATH` hit; nothing restricted or internal.
    pub async fn resolve_all(&self, sh: &ShellState, name: &str, skip_functions: bool) -> Vec<Resolved> {
        let mut out = Vec::new();
        if !skip_functions {
            if let Some(f) = sh.funcs.get(name) {
                out.push(Resolved::Function(f.clone()));
            }
        }
        if self.host.as_ref().is_some_and(|h| h.has(name)) && self.allowed(name) {
            out.push(Resolved::AppBuiltin);
        }
        match Self::builtin(sh, name) {
            Some(b) if b.kind == Kind::Special => out.push(Resolved::SpecialBuiltin(b)),
            Some(b) if b.kind == Kind::Regular => out.push(Resolved::Builtin(b)),
            _ => {}
        }
        if self.allowed(name) && !name.contains('/') {
            out.extend(self.path_search(sh, name, true).await);
        }
        out
    }

    /// What a utility may run (`env`, `xargs`, `find -exec`, `timeout`,
    /// `which`): the application's commands and programs, never functions or
    /// builtins (they are not programs). A file with a slash is a script.
    pub async fn resolve_program(&self, shell: Option<&ShellState>, sys: &SysInfo, name: &str) -> Resolved {
        if self.host.as_ref().is_some_and(|h| h.has(name)) {
            return if self.allowed(name) { Resolved::AppBuiltin } else { Resolved::NotAllowed };
        }
        match shell {
            Some(sh) => self.resolve_path(sh, name).await,
            None => {
                let base = name.rsplit('/').next().unwrap_or(name);
                match Self::program(sys, base) {
                    Some(_) if !self.allowed(base) => Resolved::NotAllowed,
                    Some(p) => Resolved::Utility(p, format!("/usr/bin/{base}")),
                    None => Resolved::NotFound,
                }
            }
        }
    }

    /// Every name a script may run, sorted: enabled builtins, functions, the
    /// application's commands, utilities (python and `bash`/`sh` included)
    /// and executables in the `PATH` directories, restricted ones left out
    /// (`compgen -c` adds aliases and keywords).
    pub async fn names(&self, sh: &ShellState) -> Vec<String> {
        let mut set: BTreeSet<String> = BTreeSet::new();
        for b in builtins::all() {
            if matches!(b.kind, Kind::Special | Kind::Regular) && !sh.disabled.contains(b.name) {
                set.insert(b.name.to_string());
            }
        }
        set.extend(sh.funcs.keys().cloned());
        let mut programs: Vec<String> = default_registry().names().map(str::to_string).collect();
        programs.extend(sh.sys.python.iter().cloned());
        programs.extend(["bash".to_string(), "sh".to_string()]);
        if let Some(h) = &self.host {
            programs.extend(h.names().map(str::to_string));
        }
        let path = sh.get_var("PATH").unwrap_or_default();
        for dir in path.split(':') {
            let dir = if dir.is_empty() { "." } else { dir };
            let d = crate::fs::path::resolve(&sh.cwd, dir);
            let Ok(entries) = sh.fs.read_dir(&d).await else { continue };
            for e in entries {
                if crate::limits::checkpoint().is_err() {
                    break;
                }
                let p = crate::fs::path::resolve(&d, &e.name);
                if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file() && m.mode & 0o111 != 0) {
                    programs.push(e.name);
                }
            }
        }
        set.extend(programs.into_iter().filter(|n| self.allowed(n)));
        set.into_iter().collect()
    }
}

/// The first regular file named `name` on `PATH`, executable or not.
async fn path_file(sh: &ShellState, name: &str) -> Option<String> {
    let path = sh.get_var("PATH").unwrap_or_default();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = format!("{}/{name}", dir.trim_end_matches('/'));
        let p = crate::fs::path::resolve(&sh.cwd, &full);
        if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file()) {
            return Some(full);
        }
    }
    None
}

/// `which NAME` for the utility: the path a program runs from, if found and allowed.
pub async fn which(ctx: &crate::commands::CommandContext<'_>, name: &str) -> Option<String> {
    if name.contains('/') {
        let m = ctx.fs.metadata(&ctx.resolve(name)).await;
        return m.is_ok_and(|m| m.is_file() && m.mode & 0o111 != 0).then(|| name.to_string());
    }
    match ctx.shell {
        Some(sh) if sh.commands.allowed(name) => {
            match sh.commands.path_search(sh, name, false).await.into_iter().next() {
                Some(Resolved::Utility(_, p) | Resolved::File(p)) => Some(p),
                _ => None,
            }
        }
        Some(_) => None,
        None => CommandTable::program(ctx.sys, name).map(|_| format!("/usr/bin/{name}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bash;

    fn names(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_builtin_table_is_sorted_and_unique() {
        let all = builtins::all();
        assert!(all.windows(2).all(|w| w[0].name < w[1].name), "TABLE must stay sorted by name");
        assert!(builtins::lookup("cd").is_some_and(|b| b.kind == Kind::Regular));
        assert!(builtins::lookup("export").is_some_and(|b| b.kind == Kind::Special));
        assert!(builtins::lookup("nope").is_none());
    }

    #[tokio::test]
    async fn resolve_follows_bash_order() {
        let mut bash = Bash::builder().python(vec!["python3".into()]).build().expect("build");
        bash.exec(
            "f() { :; }; mkdir -p /usr/local/bin; printf '#!/bin/bash\\necho mine\\n' > /usr/local/bin/tool; chmod +x /usr/local/bin/tool",
        )
        .await
        .expect("exec");
        let sh = bash.state();
        let t = sh.commands.clone();
        assert!(matches!(t.resolve(sh, "f").await, Resolved::Function(_)));
        assert!(matches!(t.resolve(sh, "cd").await, Resolved::Builtin(b) if b.name == "cd"));
        assert!(matches!(t.resolve(sh, "exit").await, Resolved::SpecialBuiltin(_)));
        assert!(matches!(t.resolve(sh, "ls").await, Resolved::Utility(_, p) if p == "/usr/bin/ls"));
        assert!(matches!(t.resolve(sh, "/bin/ls").await, Resolved::Utility(_, p) if p == "/bin/ls"));
        assert!(matches!(t.resolve(sh, "python3").await, Resolved::Utility(..)));
        assert!(matches!(t.resolve(sh, "bash").await, Resolved::Utility(Program::Shell(_), _)));
        assert_eq!(format!("{:?}", t.resolve(sh, "tool").await), "File(/usr/local/bin/tool)");
        assert!(matches!(t.resolve(sh, "nope").await, Resolved::NotFound));
        assert!(matches!(t.resolve(sh, "__select").await, Resolved::Builtin(_)));
        let names = t.names(sh).await;
        for n in ["cd", "f", "ls", "python3", "bash", "tool"] {
            assert!(names.iter().any(|x| x == n), "{n} missing from names()");
        }
        assert!(!names.iter().any(|n| n.starts_with("__")));
    }

    #[tokio::test]
    async fn a_script_on_path_shadows_a_utility() {
        let mut bash = Bash::builder().build().expect("build");
        let r = bash
            .exec("mkdir -p /usr/local/bin; printf 'echo my ls\\n' > /usr/local/bin/ls; chmod +x /usr/local/bin/ls; ls; type ls; PATH=/usr/bin; ls /usr/local")
            .await
            .expect("exec");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "my ls\nls is /usr/local/bin/ls\nbin\n");
    }

    #[tokio::test]
    async fn the_policy_hides_and_refuses() {
        let mut bash = Bash::builder()
            .commands(CommandPolicy::Except(names(&["curl", "python3"])))
            .python(vec!["python3".into()])
            .build()
            .expect("build");
        let sh = bash.state();
        assert!(matches!(sh.commands.resolve(sh, "curl").await, Resolved::NotAllowed));
        assert!(matches!(sh.commands.resolve(sh, "/usr/bin/curl").await, Resolved::NotAllowed));
        assert!(matches!(sh.commands.resolve(sh, "grep").await, Resolved::Utility(..)));
        let r = bash
            .exec("curl x; echo $?; type curl; command -v curl || echo none; compgen -c | grep -cx 'curl\\|python3'; env curl; echo $?; echo ok")
            .await
            .expect("exec");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "127\nnone\n0\n127\nok\n");
        assert_eq!(
            String::from_utf8_lossy(&r.stderr),
            "bash: line 1: curl: command not found\nbash: line 1: type: curl: not found\nenv: 'curl': No such file or directory\n"
        );

        let mut only = Bash::builder().commands(CommandPolicy::Only(names(&["cat"]))).build().expect("build");
        let r = only.exec("echo hi | cat; cd /tmp; pwd; grep x /dev/null; echo $?").await.expect("exec");
        assert_eq!(String::from_utf8_lossy(&r.stdout), "hi\n/tmp\n127\n");
    }

    #[test]
    fn builtins_cannot_be_restricted() {
        let e = Bash::builder().commands(CommandPolicy::Except(names(&["cd"]))).build().err().expect("refused");
        assert!(e.to_string().contains("cd is a shell builtin"), "{e}");
        let e = Bash::builder().commands(CommandPolicy::Only(names(&["a/b"]))).build().err().expect("refused");
        assert!(e.to_string().contains("not a command name"), "{e}");
        // `echo` is a program too (`env echo`), so it may be named.
        assert!(Bash::builder().commands(CommandPolicy::Except(names(&["echo"]))).build().is_ok());
    }
}
