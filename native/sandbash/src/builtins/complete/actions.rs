//! What each completion action lists (`-A alias/builtin/command/file/...`):
//! the sandbox's names, commands found on `PATH`, files, and bash's fixed
//! tables of signals, help topics and readline bindings.

use super::*;

/// The matches of one action.
pub(super) async fn action_matches(sh: &ShellState, action: &str, word: &str) -> Vec<String> {
    let starts = |v: Vec<String>| -> Vec<String> { v.into_iter().filter(|n| n.starts_with(word)).collect() };
    let strs =
        |v: &[&str]| -> Vec<String> { v.iter().filter(|n| n.starts_with(word)).map(|s| s.to_string()).collect() };
    match action {
        "alias" => starts(sh.aliases.keys().cloned().collect()),
        "arrayvar" => starts(
            sh.vars
                .names()
                .into_iter()
                .filter(|n| {
                    sh.vars
                        .get_raw(n)
                        .is_some_and(|v| !v.unassigned && matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))))
                })
                .collect(),
        ),
        "binding" => strs(BINDINGS),
        "builtin" => strs(&builtins(sh, None)),
        "enabled" => strs(&builtins(sh, Some(true))),
        "disabled" => strs(&builtins(sh, Some(false))),
        "command" => commands(sh, word).await,
        "directory" => files(sh, word, true).await,
        "file" => files(sh, word, false).await,
        "export" => starts(sh.vars.exported().into_iter().map(|(k, _)| k).collect()),
        "function" => {
            let mut v: Vec<String> = sh.funcs.keys().cloned().collect();
            v.sort();
            starts(v)
        }
        "group" | "user" => {
            let mut v = vec!["root".to_string()];
            if sh.sys.username != "root" {
                v.push(sh.sys.username.clone());
            }
            starts(v)
        }
        "helptopic" => strs(HELP_TOPICS),
        "hostname" => starts(vec!["localhost".to_string(), sh.sys.hostname.clone()]),
        "keyword" => strs(crate::builtins::KEYWORDS),
        "setopt" => strs(&sh.opts.named().into_iter().map(|(n, _)| n).collect::<Vec<_>>()),
        "shopt" => strs(&crate::state::options::SHOPT_NAMES),
        "signal" => strs(SIGNALS),
        "variable" => starts(crate::expand::param::set_names(sh)),
        // No jobs are left between commands, no services or hosts file in the sandbox.
        _ => Vec::new(),
    }
}

/// bash's builtins (`Some(true)`: the enabled ones, `Some(false)`: the disabled).
pub(super) fn builtins(sh: &ShellState, enabled: Option<bool>) -> Vec<&'static str> {
    crate::builtins::enable::all_builtins()
        .into_iter()
        .filter(|n| enabled.is_none_or(|e| sh.disabled.contains(*n) != e))
        .collect()
}

/// `-c`: what a command word could complete to (command_word_completion_function):
/// aliases, keywords, functions, enabled builtins, then the commands in each
/// `PATH` directory; a word with a `/` completes to executable files.
pub(super) async fn commands(sh: &ShellState, word: &str) -> Vec<String> {
    if word.contains('/') {
        let mut out = Vec::new();
        for f in files(sh, word, false).await {
            let p = crate::fs::path::resolve(&sh.cwd, &tilde(sh, &f));
            if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_dir() || m.mode & 0o111 != 0) {
                out.push(f);
            }
        }
        return out;
    }
    let mut out: Vec<String> = sh.aliases.keys().filter(|n| n.starts_with(word)).cloned().collect();
    out.extend(crate::builtins::KEYWORDS.iter().filter(|n| n.starts_with(word)).map(|s| s.to_string()));
    let mut f: Vec<String> = sh.funcs.keys().filter(|n| n.starts_with(word)).cloned().collect();
    f.sort();
    out.extend(f);
    out.extend(builtins(sh, Some(true)).into_iter().filter(|n| n.starts_with(word)).map(str::to_string));
    out.extend(path_commands(sh, word).await);
    out
}

/// The commands found in the directories of `PATH`, directory by directory:
/// executable files, and the sandbox's utilities in `/usr/bin` and `/bin`
/// (where a real system keeps them). The one place that lists commands by
/// path, to switch over to the command table's listing.
pub(super) async fn path_commands(sh: &ShellState, word: &str) -> Vec<String> {
    let path = sh.get_var("PATH").unwrap_or_default();
    let mut out = Vec::new();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = crate::fs::path::resolve(&sh.cwd, dir);
        let mut names: Vec<String> = Vec::new();
        if matches!(full.as_str(), "/usr/bin" | "/bin") {
            names.extend(
                crate::commands::default_registry().names().filter(|n| n.starts_with(word)).map(str::to_string),
            );
            names.extend(sh.sys.python.iter().filter(|n| n.starts_with(word)).cloned());
        }
        if let Ok(entries) = sh.fs.read_dir(&full).await {
            for e in entries {
                if !e.name.starts_with(word) || names.contains(&e.name) {
                    continue;
                }
                let p = format!("{}/{}", full.trim_end_matches('/'), e.name);
                if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file() && m.mode & 0o111 != 0) {
                    names.push(e.name);
                }
            }
        }
        names.retain(|n| sh.commands.allowed(n));
        names.sort();
        out.extend(names);
    }
    // The application's commands, where a session's command table has them.
    if let Some(h) = sh.commands.app_builtins() {
        let mut app: Vec<String> = h.names().filter(|n| n.starts_with(word)).map(str::to_string).collect();
        app.retain(|n| sh.commands.allowed(n));
        app.sort();
        out.extend(app);
    }
    out
}

/// `~` / `~/x` as the file system sees it.
pub(super) fn tilde(sh: &ShellState, w: &str) -> String {
    match w.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            format!("{}{rest}", sh.get_var("HOME").unwrap_or_default())
        }
        _ => w.to_string(),
    }
}

/// Filename completion (readline's, with match-hidden-files on): the entries
/// of the word's directory that start with its last component, written with
/// the word's own directory part; `dirs` keeps directories only.
pub(super) async fn files(sh: &ShellState, word: &str, dirs: bool) -> Vec<String> {
    let (dir_part, base) = match word.rfind('/') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let dir = if dir_part.is_empty() { ".".to_string() } else { tilde(sh, dir_part) };
    let full = crate::fs::path::resolve(&sh.cwd, &dir);
    let Ok(entries) = sh.fs.read_dir(&full).await else { return Vec::new() };
    let mut names: Vec<String> = entries.into_iter().map(|e| e.name).collect();
    if !base.is_empty() {
        names.push(".".into());
        names.push("..".into());
    }
    names.sort();
    names.dedup();
    let mut out = Vec::new();
    for n in names {
        if !n.starts_with(base) {
            continue;
        }
        if dirs {
            let p = format!("{}/{n}", full.trim_end_matches('/'));
            if !sh.fs.metadata(&p).await.is_ok_and(|m| m.is_dir()) {
                continue;
            }
        }
        out.push(format!("{dir_part}{n}"));
    }
    out
}

/// `compgen -A signal` on Linux (bash 5.2's list).
pub(super) const SIGNALS: &[&str] = &[
    "EXIT",
    "SIGHUP",
    "SIGINT",
    "SIGQUIT",
    "SIGILL",
    "SIGTRAP",
    "SIGABRT",
    "SIGBUS",
    "SIGFPE",
    "SIGKILL",
    "SIGUSR1",
    "SIGSEGV",
    "SIGUSR2",
    "SIGPIPE",
    "SIGALRM",
    "SIGTERM",
    "SIGSTKFLT",
    "SIGCHLD",
    "SIGCONT",
    "SIGSTOP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGVTALRM",
    "SIGPROF",
    "SIGWINCH",
    "SIGIO",
    "SIGPWR",
    "SIGSYS",
    "SIGRTMIN",
    "SIGRTMIN+1",
    "SIGRTMIN+2",
    "SIGRTMIN+3",
    "SIGRTMIN+4",
    "SIGRTMIN+5",
    "SIGRTMIN+6",
    "SIGRTMIN+7",
    "SIGRTMIN+8",
    "SIGRTMIN+9",
    "SIGRTMIN+10",
    "SIGRTMIN+11",
    "SIGRTMIN+12",
    "SIGRTMIN+13",
    "SIGRTMIN+14",
    "SIGRTMIN+15",
    "SIGRTMAX-14",
    "SIGRTMAX-13",
    "SIGRTMAX-12",
    "SIGRTMAX-11",
    "SIGRTMAX-10",
    "SIGRTMAX-9",
    "SIGRTMAX-8",
    "SIGRTMAX-7",
    "SIGRTMAX-6",
    "SIGRTMAX-5",
    "SIGRTMAX-4",
    "SIGRTMAX-3",
    "SIGRTMAX-2",
    "SIGRTMAX-1",
    "SIGRTMAX",
    "DEBUG",
    "ERR",
    "RETURN",
];

/// `compgen -A helptopic`: bash 5.2's help topics, in its order.
pub(super) const HELP_TOPICS: &[&str] = &[
    "%",
    "(( ... ))",
    ".",
    ":",
    "[",
    "[[ ... ]]",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "case",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "coproc",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "for",
    "for ((",
    "function",
    "getopts",
    "hash",
    "help",
    "history",
    "if",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "select",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "time",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "until",
    "variables",
    "wait",
    "while",
    "{ ... }",
];

/// `compgen -A binding`: readline's command names (bash 5.2, in its order).
pub(super) const BINDINGS: &[&str] = &[
    "abort",
    "accept-line",
    "arrow-key-prefix",
    "backward-byte",
    "backward-char",
    "backward-delete-char",
    "backward-kill-line",
    "backward-kill-word",
    "backward-word",
    "beginning-of-history",
    "beginning-of-line",
    "bracketed-paste-begin",
    "call-last-kbd-macro",
    "capitalize-word",
    "character-search",
    "character-search-backward",
    "clear-display",
    "clear-screen",
    "complete",
    "copy-backward-word",
    "copy-forward-word",
    "copy-region-as-kill",
    "delete-char",
    "delete-char-or-list",
    "delete-horizontal-space",
    "digit-argument",
    "do-lowercase-version",
    "downcase-word",
    "dump-functions",
    "dump-macros",
    "dump-variables",
    "emacs-editing-mode",
    "end-kbd-macro",
    "end-of-history",
    "end-of-line",
    "exchange-point-and-mark",
    "fetch-history",
    "forward-backward-delete-char",
    "forward-byte",
    "forward-char",
    "forward-search-history",
    "forward-word",
    "history-search-backward",
    "history-search-forward",
    "history-substring-search-backward",
    "history-substring-search-forward",
    "insert-comment",
    "insert-completions",
    "kill-line",
    "kill-region",
    "kill-whole-line",
    "kill-word",
    "menu-complete",
    "menu-complete-backward",
    "next-history",
    "next-screen-line",
    "non-incremental-forward-search-history",
    "non-incremental-forward-search-history-again",
    "non-incremental-reverse-search-history",
    "non-incremental-reverse-search-history-again",
    "old-menu-complete",
    "operate-and-get-next",
    "overwrite-mode",
    "possible-completions",
    "previous-history",
    "previous-screen-line",
    "print-last-kbd-macro",
    "quoted-insert",
    "re-read-init-file",
    "redraw-current-line",
    "reverse-search-history",
    "revert-line",
    "self-insert",
    "set-mark",
    "skip-csi-sequence",
    "start-kbd-macro",
    "tab-insert",
    "tilde-expand",
    "transpose-chars",
    "transpose-words",
    "tty-status",
    "undo",
    "universal-argument",
    "unix-filename-rubout",
    "unix-line-discard",
    "unix-word-rubout",
    "upcase-word",
    "vi-append-eol",
    "vi-append-mode",
    "vi-arg-digit",
    "vi-bWord",
    "vi-back-to-indent",
    "vi-backward-bigword",
    "vi-backward-word",
    "vi-bword",
    "vi-change-case",
    "vi-change-char",
    "vi-change-to",
    "vi-char-search",
    "vi-column",
    "vi-complete",
    "vi-delete",
    "vi-delete-to",
    "vi-eWord",
    "vi-editing-mode",
    "vi-end-bigword",
    "vi-end-word",
    "vi-eof-maybe",
    "vi-eword",
    "vi-fWord",
    "vi-fetch-history",
    "vi-first-print",
    "vi-forward-bigword",
    "vi-forward-word",
    "vi-fword",
    "vi-goto-mark",
    "vi-insert-beg",
    "vi-insertion-mode",
    "vi-match",
    "vi-movement-mode",
    "vi-next-word",
    "vi-overstrike",
    "vi-overstrike-delete",
    "vi-prev-word",
    "vi-put",
    "vi-redo",
    "vi-replace",
    "vi-rubout",
    "vi-search",
    "vi-search-again",
    "vi-set-mark",
    "vi-subst",
    "vi-tilde-expand",
    "vi-undo",
    "vi-unix-word-rubout",
    "vi-yank-arg",
    "vi-yank-pop",
    "vi-yank-to",
    "yank",
    "yank-last-arg",
    "yank-nth-arg",
    "yank-pop",
];
