//! Small builtins: `umask`, `hash`, `help`, `caller`.

use super::fail;
use crate::interp::Fds;
use crate::state::{ShellState, Value};
use crate::table::Resolved;

async fn usage(sh: &ShellState, fds: &Fds, msg: &str, usage: &str, status: i32) -> i32 {
    fds.shell_err(sh.loc(), msg).await;
    let _ = fds.stderr.write_str(&format!("{usage}\n")).await;
    status
}

async fn out(fds: &Fds, s: &str) {
    let _ = fds.stdout.write_str(s).await;
}

/// `u=rwx,g=rx,o=rx` for the permissions a mask leaves.
fn symbolic(mask: u32) -> String {
    let perms = !mask & 0o777;
    let part = |shift: u32| {
        let p = (perms >> shift) & 7;
        let mut s = String::new();
        for (bit, c) in [(4, 'r'), (2, 'w'), (1, 'x')] {
            if p & bit != 0 {
                s.push(c);
            }
        }
        s
    };
    format!("u={},g={},o={}", part(6), part(3), part(0))
}

/// Apply a symbolic mode (`u=rwx,g+w,a-x`) to a mask; `Err` is bash's message.
fn apply_symbolic(mask: u32, mode: &str) -> Result<u32, String> {
    let mut perms = !mask & 0o777;
    for clause in mode.split(',') {
        let mut chars = clause.chars().peekable();
        let mut who = 0u32;
        while let Some(&c) = chars.peek() {
            match c {
                'u' => who |= 0o700,
                'g' => who |= 0o070,
                'o' => who |= 0o007,
                'a' => who |= 0o777,
                _ => break,
            }
            chars.next();
        }
        if who == 0 {
            who = 0o777;
        }
        let op = match chars.next() {
            Some(c @ ('+' | '-' | '=')) => c,
            Some(c) => return Err(format!("`{c}': invalid symbolic mode operator")),
            None => return Err(format!("`{}': invalid symbolic mode operator", clause.chars().last().unwrap_or(' '))),
        };
        let mut bits = 0u32;
        for c in chars {
            bits |= match c {
                'r' => 0o444,
                'w' => 0o222,
                'x' => 0o111,
                _ => return Err(format!("`{c}': invalid symbolic mode character")),
            };
        }
        let bits = bits & who;
        match op {
            '+' => perms |= bits,
            '-' => perms &= !bits,
            _ => perms = (perms & !who) | bits,
        }
    }
    Ok(!perms & 0o777)
}

pub async fn umask(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut sym, mut print) = (false, false);
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        match a.as_str() {
            "-S" => sym = true,
            "-p" => print = true,
            "-pS" | "-Sp" => (sym, print) = (true, true),
            "--" => {
                i += 1;
                break;
            }
            s if s.starts_with('-') && s.len() > 1 => {
                let c = s.chars().find(|&c| !matches!(c, '-' | 'p' | 'S')).unwrap_or('-');
                return usage(
                    sh,
                    fds,
                    &format!("umask: -{c}: invalid option"),
                    "umask: usage: umask [-p] [-S] [mode]",
                    2,
                )
                .await;
            }
            _ => break,
        }
        i += 1;
    }
    match argv.get(i) {
        None => {
            let shown = if sym { symbolic(sh.umask) } else { format!("{:04o}", sh.umask) };
            let line =
                if print { format!("umask {}{shown}\n", if sym { "-S " } else { "" }) } else { format!("{shown}\n") };
            out(fds, &line).await;
            0
        }
        Some(m) if m.starts_with(|c: char| c.is_ascii_digit()) => match u32::from_str_radix(m, 8) {
            Ok(v) if v <= 0o777 => {
                sh.set_umask(v);
                0
            }
            _ => fail(sh.loc(), fds, &format!("umask: {m}: octal number out of range"), 1).await,
        },
        Some(m) => match apply_symbolic(sh.umask, m) {
            Ok(v) => {
                sh.set_umask(v);
                if sym {
                    out(fds, &format!("{}\n", symbolic(v))).await;
                }
                0
            }
            Err(e) => fail(sh.loc(), fds, &format!("umask: {e}"), 1).await,
        },
    }
}

/// `hash`: there is no PATH search to remember, so the table stays empty.
pub async fn hash(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut status = 0;
    let mut names = 0;
    let mut terse = false;
    for a in &argv[1..] {
        match a.as_str() {
            "-r" | "-d" | "-l" => {}
            "-t" => terse = true,
            s if s.starts_with('-') && s.len() > 1 => {
                let c = s.chars().nth(1).unwrap_or('-');
                return usage(
                    sh,
                    fds,
                    &format!("hash: -{c}: invalid option"),
                    "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]",
                    2,
                )
                .await;
            }
            name => {
                names += 1;
                match sh.commands.resolve(sh, name).await {
                    // Functions and builtins are not remembered.
                    Resolved::Function(_)
                    | Resolved::SpecialBuiltin(_)
                    | Resolved::Builtin(_)
                    | Resolved::AppBuiltin => {}
                    Resolved::Utility(_, p) | Resolved::File(p) => {
                        if terse {
                            out(fds, &format!("{p}\n")).await;
                        }
                    }
                    Resolved::NotFound | Resolved::NotAllowed => {
                        status = fail(sh.loc(), fds, &format!("hash: {name}: not found"), 1).await;
                    }
                }
            }
        }
    }
    if names == 0 && argv.len() == 1 {
        out(fds, "hash: hash table empty\n").await;
    }
    status
}

/// `caller [N]`: the line, function and file a frame was called from (bash's
/// caller.def: `BASH_LINENO[N] FUNCNAME[N+1] BASH_SOURCE[N+1]`).
pub async fn caller(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let frames = sh.frames();
    let sources: Vec<String> = match sh.vars.get("BASH_SOURCE").and_then(|v| v.value.clone()) {
        Some(Value::Indexed(m)) => m.into_values().collect(),
        _ => Vec::new(),
    };
    if frames.is_empty() {
        return 1;
    }
    match argv.get(1) {
        None => {
            let file = sources.get(1).map_or("NULL", String::as_str);
            out(fds, &format!("{} {file}\n", frames[0].1)).await;
            0
        }
        Some(n) => {
            if n.len() > 1 && n.starts_with('-') && n != "--" {
                return usage(sh, fds, &format!("caller: {n}: invalid option"), "caller: usage: caller [expr]", 2)
                    .await;
            }
            let Ok(frame) = n.parse::<usize>() else {
                return usage(sh, fds, &format!("caller: {n}: invalid number"), "caller: usage: caller [expr]", 2)
                    .await;
            };
            match (frames.get(frame), frames.get(frame + 1), sources.get(frame + 1)) {
                (Some((_, line)), Some((f, _)), Some(file)) => {
                    out(fds, &format!("{line} {f} {file}\n")).await;
                    0
                }
                _ => 1,
            }
        }
    }
}

/// `NAME: synopsis` and `NAME - description` of the builtins (bash's text).
const HELP: &[(&str, &str, &str)] = &[
    (":", ":: :", ": - Null command."),
    ("true", "true: true", "true - Return a successful result."),
    ("false", "false: false", "false - Return an unsuccessful result."),
    ("echo", "echo: echo [-neE] [arg ...]", "echo - Write arguments to the standard output."),
    ("printf", "printf: printf [-v var] format [arguments]", "printf - Formats and prints ARGUMENTS under control of the FORMAT."),
    ("cd", "cd: cd [-L|[-P [-e]] [-@]] [dir]", "cd - Change the shell working directory."),
    ("pwd", "pwd: pwd [-LP]", "pwd - Print the name of the current working directory."),
    ("export", "export: export [-fn] [name[=value] ...] or export -p", "export - Set export attribute for shell variables."),
    ("unset", "unset: unset [-f] [-v] [-n] [name ...]", "unset - Unset values and attributes of shell variables and functions."),
    ("set", "set: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", "set - Set or unset values of shell options and positional parameters."),
    ("shift", "shift: shift [n]", "shift - Shift positional parameters."),
    ("local", "local: local [option] name[=value] ...", "local - Define local variables."),
    ("declare", "declare: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]", "declare - Set variable values and attributes."),
    ("typeset", "typeset: typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]", "typeset - Set variable values and attributes."),
    ("readonly", "readonly: readonly [-aAf] [name[=value] ...] or readonly -p", "readonly - Mark shell variables as unchangeable."),
    ("return", "return: return [n]", "return - Return from a shell function."),
    ("exit", "exit: exit [n]", "exit - Exit the shell."),
    ("break", "break: break [n]", "break - Exit for, while, or until loops."),
    ("continue", "continue: continue [n]", "continue - Resume for, while, or until loops."),
    ("read", "read: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]", "read - Read a line from the standard input and split it into fields."),
    ("test", "test: test [expr]", "test - Evaluate conditional expression."),
    ("[", "[: [ arg... ]", "[ - Evaluate conditional expression."),
    ("eval", "eval: eval [arg ...]", "eval - Execute arguments as a shell command."),
    ("source", "source: source filename [arguments]", "source - Execute commands from a file in the current shell."),
    (".", ".: . filename [arguments]", ". - Execute commands from a file in the current shell."),
    ("shopt", "shopt: shopt [-pqsu] [-o] [optname ...]", "shopt - Set and unset shell options."),
    ("let", "let: let arg [arg ...]", "let - Evaluate arithmetic expressions."),
    ("type", "type: type [-afptP] name [name ...]", "type - Display information about command type."),
    ("command", "command: command [-pVv] command [arg ...]", "command - Execute a simple command or display information about commands."),
    ("trap", "trap: trap [-lp] [[arg] signal_spec ...]", "trap - Trap signals and other events."),
    ("builtin", "builtin: builtin [shell-builtin [arg ...]]", "builtin - Execute shell builtins."),
    ("exec", "exec: exec [-cl] [-a name] [command [argument ...]] [redirection ...]", "exec - Replace the shell with the given command."),
    ("getopts", "getopts: getopts optstring name [arg ...]", "getopts - Parse option arguments."),
    ("alias", "alias: alias [-p] [name[=value] ... ]", "alias - Define or display aliases."),
    ("unalias", "unalias: unalias [-a] name [name ...]", "unalias - Remove each NAME from the list of defined aliases."),
    ("pushd", "pushd: pushd [-n] [+N | -N | dir]", "pushd - Add directories to stack."),
    ("popd", "popd: popd [-n] [+N | -N]", "popd - Remove directories from stack."),
    ("dirs", "dirs: dirs [-clpv] [+N] [-N]", "dirs - Display directory stack."),
    ("mapfile", "mapfile: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]", "mapfile - Read lines from the standard input into an indexed array variable."),
    ("readarray", "readarray: readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]", "readarray - Read lines from a file into an array variable."),
    ("umask", "umask: umask [-p] [-S] [mode]", "umask - Display or set file mode mask."),
    ("ulimit", "ulimit: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]", "ulimit - Modify shell resource limits."),
    ("fc", "fc: fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]", "fc - Display or execute commands from the history list."),
    (
        "bind",
        "bind: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
        "bind - Set Readline key bindings and variables.",
    ),
    ("hash", "hash: hash [-lr] [-p pathname] [-dt] [name ...]", "hash - Remember or display program locations."),
    (
        "history",
        "history: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]",
        "history - Display or manipulate the history list.",
    ),
    ("help", "help: help [-dms] [pattern ...]", "help - Display information about builtin commands."),
    ("caller", "caller: caller [expr]", "caller - Return the context of the current subroutine call."),
    ("bg", "bg: bg [job_spec ...]", "bg - Move jobs to the background."),
    ("complete", "complete: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]", "complete - Specify how arguments are to be completed by Readline."),
    ("compopt", "compopt: compopt [-o|+o option] [-DEI] [name ...]", "compopt - Modify or display completion options."),
    ("disown", "disown: disown [-h] [-ar] [jobspec ... | pid ...]", "disown - Remove jobs from current shell."),
    ("enable", "enable: enable [-a] [-dnps] [-f filename] [name ...]", "enable - Enable and disable shell builtins."),
    ("fg", "fg: fg [job_spec]", "fg - Move job to the foreground."),
    ("jobs", "jobs: jobs [-lnprs] [jobspec ...] or jobs -x command [args]", "jobs - Display status of jobs."),
    ("kill", "kill: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]", "kill - Send a signal to a job."),
    ("logout", "logout: logout [n]", "logout - Exit a login shell."),
    ("suspend", "suspend: suspend [-f]", "suspend - Suspend shell execution."),
    ("times", "times: times", "times - Display process times."),
    ("wait", "wait: wait [-fn] [-p var] [id ...]", "wait - Wait for job completion and return exit status."),
    ("compgen", "compgen: compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]", "compgen - Display possible completions depending on the options."),
];

pub async fn help(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut short, mut synopsis) = (false, false);
    let mut patterns: Vec<&str> = Vec::new();
    for a in &argv[1..] {
        match a.as_str() {
            "-d" if patterns.is_empty() => short = true,
            "-s" if patterns.is_empty() => synopsis = true,
            "-m" if patterns.is_empty() => {}
            s if s.starts_with('-') && s.len() > 1 && patterns.is_empty() => {
                let c = s.chars().nth(1).unwrap_or('-');
                return usage(
                    sh,
                    fds,
                    &format!("help: -{c}: invalid option"),
                    "help: usage: help [-dms] [pattern ...]",
                    2,
                )
                .await;
            }
            s => patterns.push(s),
        }
    }
    if patterns.is_empty() {
        let mut s = String::from("GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\nThese shell commands are defined internally.  Type `help' to see this list.\nType `help name' to find out more about the function `name'.\n\n");
        let mut names: Vec<&str> = HELP.iter().map(|h| h.1).collect();
        names.sort();
        for n in names {
            s.push_str(n);
            s.push('\n');
        }
        out(fds, &s).await;
        return 0;
    }
    let mut status = 0;
    let is_glob = |p: &str| crate::pattern::Pattern::from_glob_text(p).is_glob_pattern(true);
    if is_glob(patterns[0]) {
        let which = if patterns.len() > 1 { "keywords" } else { "keyword" };
        out(fds, &format!("Shell commands matching {which} `{}'\n\n", patterns.join(", "))).await;
    }
    for p in patterns {
        // As bash: the name itself or the pattern's matches, else the names it begins.
        let pat = crate::pattern::Pattern::from_parts(&[(p.to_string(), false)]);
        let mut hits: Vec<_> = HELP.iter().filter(|(n, _, _)| *n == p || pat.matches(n, true)).collect();
        if hits.is_empty() {
            hits = HELP.iter().filter(|(n, _, _)| n.starts_with(p)).collect();
        }
        hits.sort_by_key(|h| h.0);
        if hits.is_empty() {
            let msg = format!("help: no help topics match `{p}'.  Try `help help' or `man -k {p}' or `info {p}'.");
            status = fail(sh.loc(), fds, &msg, 1).await;
            continue;
        }
        let mut s = String::new();
        for (_, syn, desc) in hits {
            if short {
                s.push_str(desc);
            } else if synopsis {
                s.push_str(syn);
            } else {
                let text = desc.split_once(" - ").map_or(*desc, |(_, d)| d);
                s.push_str(&format!("{syn}\n    {text}"));
            }
            s.push('\n');
        }
        out(fds, &s).await;
    }
    status
}

/// `NAME --help` for a builtin that takes options: its synopsis and summary,
/// status 2, as bash prints `help NAME` then. `None` when it has no entry.
pub async fn dash_dash_help(name: &str, fds: &Fds) -> Option<i32> {
    let (_, syn, desc) = HELP.iter().find(|h| h.0 == name)?;
    let text = desc.split_once(" - ").map_or(*desc, |(_, d)| d);
    out(fds, &format!("{syn}\n    {text}\n")).await;
    Some(2)
}
