//! `bash`/`sh` run inside the sandbox: `-c STRING [arg0 args]`, `FILE [args]`,
//! or a script on stdin, in a fresh child shell.

use super::fail;
use crate::fs::path;
use crate::fs::FsError;
use crate::interp::{run_child_script, Fds, Res};
use crate::state::options::{Kind, Options};
use crate::state::ShellState;

/// `bash --help` of GNU bash 5.2.15.
const HELP: &str = include_str!("bash_help.txt");
/// `bash --version` of GNU bash 5.2.15.
const VERSION: &str = "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n\
Copyright (C) 2022 Free Software Foundation, Inc.\n\
License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>\n\n\
This is free software; you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n";
/// An invalid option: bash's message and the usage part of `--help`, status 2.
async fn bad_option(fds: &Fds, what: &str) -> Res {
    let usage: String =
        HELP.lines().skip(1).take_while(|l| !l.starts_with("Type ")).map(|l| format!("{l}\n")).collect();
    let _ = fds.stderr.write_str(&format!("bash: {what}: invalid option\n{usage}")).await;
    Ok(2)
}

pub async fn run(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let mut i = 1;
    // `-c`: the first argument after the options is the command string.
    let mut want_command = false;
    // `-s`: commands come from stdin, every operand is a positional parameter.
    let mut want_stdin = false;
    let mut flags: Vec<(char, bool)> = Vec::new();
    let mut named: Vec<(String, bool)> = Vec::new();
    let mut shopts: Vec<(String, bool)> = Vec::new();
    let mut noexec = false;
    // GNU long options come first.
    while let Some(a) = argv.get(i).filter(|a| a.starts_with("--") && a.len() > 2) {
        match a.as_str() {
            "--help" => {
                let _ = fds.stdout.write_str(HELP).await;
                return Ok(0);
            }
            "--version" => {
                let _ = fds.stdout.write_str(VERSION).await;
                return Ok(0);
            }
            "--login" | "--noediting" | "--noprofile" | "--norc" | "--posix" | "--restricted" | "--verbose"
            | "--debug" | "--debugger" => {}
            "--init-file" | "--rcfile" => i += 1,
            other => return bad_option(fds, other).await,
        }
        i += 1;
    }
    while i < argv.len() {
        let a = &argv[i];
        if a == "--" || a == "-" {
            i += 1;
            break;
        }
        if !(a.starts_with('-') || a.starts_with('+')) || a.len() < 2 {
            break;
        }
        let on = a.starts_with('-');
        for c in a[1..].chars() {
            match c {
                'c' => want_command = true,
                'o' | 'O' => {
                    i += 1;
                    if let Some(n) = argv.get(i) {
                        if c == 'o' {
                            if !Options::exists(n, Kind::Set) {
                                let msg = format!("bash: line 0: {}: {n}: invalid option name\n", argv[0]);
                                let _ = fds.stderr.write_str(&msg).await;
                                return Ok(2);
                            }
                            named.push((n.clone(), on));
                        } else {
                            shopts.push((n.clone(), on));
                        }
                    }
                }
                'n' => noexec = on,
                's' => want_stdin = on,
                'l' | 'i' | 'r' | 'D' => {}
                other if "abefhkmptuvxBCEHPT".contains(other) => flags.push((other, on)),
                other => return bad_option(fds, &format!("{}{other}", if on { '-' } else { '+' })).await,
            }
        }
        i += 1;
    }
    let mut rest: Vec<String> = argv[i.min(argv.len())..].to_vec();
    let command = match want_command {
        true if rest.is_empty() => {
            // The child's own message: no line of the parent's.
            let _ = fds.stderr.write_str(&format!("{}: -c: option requires an argument\n", argv[0])).await;
            return Ok(2);
        }
        true => Some(rest.remove(0)),
        false => None,
    };
    let script_file = if command.is_none() && !want_stdin { rest.first().cloned() } else { None };
    // `$-` ends in c for a string, s for standard input, nothing for a file.
    let input = match (&command, &script_file) {
        (Some(_), _) => Some('c'),
        (None, Some(_)) => None,
        (None, None) => Some('s'),
    };
    let (src, arg0, args) = match command {
        Some(c) => {
            let arg0 = rest.first().cloned().unwrap_or_else(|| argv[0].clone());
            (c, arg0, rest.iter().skip(1).cloned().collect())
        }
        None => match rest.first().filter(|_| !want_stdin) {
            Some(file) => {
                let p = path::resolve(&sh.cwd, file);
                match sh.fs.read(&p).await {
                    Ok(d) => (crate::raw_bytes::decode_vec(d), file.clone(), rest[1..].to_vec()),
                    Err(e) => {
                        // A new shell's own error: no line, the shell's name
                        // first (a directory's name, as bash's $0 has become).
                        let (who, status) = match e {
                            FsError::NotFound => (argv[0].as_str(), 127),
                            FsError::IsADirectory => (file.as_str(), 126),
                            _ => (argv[0].as_str(), 126),
                        };
                        let _ = fds.stderr.write_str(&format!("{who}: {file}: {e}\n")).await;
                        return Ok(status);
                    }
                }
            }
            None => {
                let max = sh.budget.limits.max_input_bytes as usize;
                match fds.stdin.read_to_end(max).await {
                    Ok(d) => (crate::raw_bytes::decode_vec(d), argv[0].clone(), rest.clone()),
                    Err(_) => return Ok(fail(sh.loc(), fds, "script on stdin too large", 1).await),
                }
            }
        },
    };
    if noexec {
        // `-n`: read the script for syntax errors only.
        return match crate::syntax::parse(&src, sh.budget.limits.max_parser_depth as usize) {
            Ok(_) => Ok(0),
            Err(m) => {
                let _ = fds.stderr.write_str(&format!("bash: -c: {m}\n")).await;
                Ok(2)
            }
        };
    }
    // Options apply inside the child only.
    let mut opts = Options::default();
    opts.input = input;
    for (c, on) in flags {
        opts.set_flag(c, on);
    }
    for (n, on) in named {
        opts.set_named(&n, on);
    }
    for (n, on) in shopts {
        if !opts.set(&n, Kind::Shopt, on) {
            let _ = fds.stderr.write_str(&format!("bash: line 0: {n}: invalid shell option name\n")).await;
            return Ok(2);
        }
    }
    run_child_script(sh, &src, arg0, args, opts, script_file.as_deref(), fds).await
}
