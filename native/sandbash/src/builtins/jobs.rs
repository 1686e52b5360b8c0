//! `wait [-n] [id...]`, `jobs [-lpr] [jobspec...]` and `disown` over the
//! shell's background jobs (see `interp::jobs`), and the job-control builtins
//! a shell without job control answers (`fg`, `bg`, `suspend`), with `times`
//! and `logout`.

use super::fail;
use crate::interp::jobs::Job;
use crate::interp::Fds;
use crate::state::ShellState;

pub async fn wait(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut args = &argv[1..];
    let mut any = false;
    while let Some(a) = args.first() {
        match a.as_str() {
            "--" => {
                args = &args[1..];
                break;
            }
            "-n" => any = true,
            "-f" => {}
            s if s.starts_with('-') && s.len() > 1 => {
                fail(sh.loc(), fds, &format!("wait: {s}: invalid option"), 2).await;
                let _ = fds.stderr.write(b"wait: usage: wait [-fn] [-p var] [id ...]\n").await;
                return 2;
            }
            _ => break,
        }
        args = &args[1..];
    }
    if any {
        // A job that ended since the last foreground command is the next
        // one, however quickly it ended (bash sees it dead, not notified).
        if args.is_empty() {
            if let Some(j) = sh.jobs.take_unnotified() {
                reap(sh, &j);
                return j.finished().unwrap_or(0);
            }
        }
        // The next of the running jobs (or of those named) to finish.
        let pool: Vec<Job> = if args.is_empty() {
            sh.jobs.running().into_iter().cloned().collect()
        } else {
            args.iter().filter_map(|a| sh.jobs.find(a)).filter(|j| j.finished().is_none()).cloned().collect()
        };
        if pool.is_empty() {
            return 127;
        }
        let waits = pool.iter().map(|j| Box::pin(j.wait()));
        let (status, _, _) = futures_util::future::select_all(waits).await;
        return status;
    }
    if args.is_empty() {
        let all: Vec<Job> = sh.jobs.list.drain(..).collect();
        for j in &all {
            j.wait().await;
            reap(sh, j);
        }
        return 0;
    }
    let mut status = 0;
    for a in args {
        if let Some(s) = sh.jobs.reap_substitution(a).await {
            status = s;
            continue;
        }
        status = match sh.jobs.find(a).cloned() {
            Some(j) => {
                let status = j.wait().await;
                reap(sh, &j);
                status
            }
            None if a.starts_with('%') => fail(sh.loc(), fds, &format!("wait: {a}: no such job"), 127).await,
            None if a.parse::<u32>().is_ok() => {
                fail(sh.loc(), fds, &format!("wait: pid {a} is not a child of this shell"), 127).await
            }
            None => fail(sh.loc(), fds, &format!("wait: `{a}': not a pid or valid job spec"), 1).await,
        };
    }
    status
}

/// A coprocess that `wait` saw end lets go of its descriptors and variables.
fn reap(sh: &mut ShellState, job: &Job) {
    if let Some((name, r, w)) = &job.coproc {
        crate::interp::reap_coproc(sh, name, *r, *w);
    }
}

pub async fn jobs(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut pids_only, mut long) = (false, false);
    let mut specs = Vec::new();
    for a in &argv[1..] {
        match a.as_str() {
            "-p" => pids_only = true,
            "-l" => long = true,
            "-r" | "-n" => {}
            // Jobs never stop here.
            "-s" => return 0,
            s if s.starts_with('-') && s.len() > 1 => {
                fail(sh.loc(), fds, &format!("jobs: {s}: invalid option"), 2).await;
                let _ = fds.stderr.write(b"jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n").await;
                return 2;
            }
            s => specs.push(s.to_string()),
        }
    }
    // A non-interactive shell forgets finished jobs without listing them.
    let mut running: Vec<Job> = sh.jobs.inherited.iter().filter(|j| j.finished().is_none()).cloned().collect();
    running.extend(sh.jobs.running().into_iter().cloned());
    let current = running.last().map(|j| j.id);
    let previous = running.iter().rev().nth(1).map(|j| j.id);
    let mut status = 0;
    let mut chosen: Vec<&Job> = Vec::new();
    if specs.is_empty() {
        chosen.extend(running.iter());
    } else {
        for s in &specs {
            let pid = spec_pid(&running, s);
            match running.iter().find(|j| Some(j.pid) == pid) {
                Some(j) => chosen.push(j),
                None => status = fail(sh.loc(), fds, &format!("jobs: {s}: no such job"), 1).await,
            }
        }
    }
    let mut out = String::new();
    for j in chosen {
        if pids_only {
            out.push_str(&format!("{}\n", j.pid));
            continue;
        }
        let mark = if Some(j.id) == current {
            '+'
        } else if Some(j.id) == previous {
            '-'
        } else {
            ' '
        };
        let pid = if long { format!(" {:>5}", j.pid) } else { " ".to_string() };
        out.push_str(&format!("[{}]{mark}{pid} {:<24}{}\n", j.id, "Running", j.text));
    }
    let _ = fds.stdout.write_str(&out).await;
    status
}

/// The pid a job spec names among `running` (start order).
fn spec_pid(running: &[Job], spec: &str) -> Option<u32> {
    let js = spec.strip_prefix('%')?;
    match js {
        "" | "%" | "+" => running.last().map(|j| j.pid),
        "-" => running.iter().rev().nth(1).or(running.last()).map(|j| j.pid),
        n => running.iter().find(|j| n.parse() == Ok(j.id)).map(|j| j.pid),
    }
}

/// `kill [-s SIG | -n NUM | -SIG] pid|jobspec...`: ends background jobs; other
/// pids name no process of the sandbox. `-l`/`-L` are the `kill` utility's.
/// `kill -l [sigspec...]`: the table, or each number's name and each name's
/// number (an exit status past 128 names its signal, as `$?` of a killed job).
async fn list_signals(sh: &ShellState, args: &[String], fds: &Fds) -> i32 {
    let args = if args.first().is_some_and(|a| a == "--") { &args[1..] } else { args };
    if args.is_empty() {
        let _ = fds.stdout.write_str(&super::signals::table()).await;
        return 0;
    }
    let mut status = 0;
    for a in args {
        let line = match a.parse::<u32>() {
            Ok(0) => Some("EXIT".to_string()),
            Ok(n) if n > 128 => super::signals::name(n - 128),
            // 32 and 33 (glibc's own): nothing, as bash.
            Ok(32 | 33) => Some(String::new()),
            Ok(n) => super::signals::name(n),
            Err(_) if a.eq_ignore_ascii_case("EXIT") || a.eq_ignore_ascii_case("SIGEXIT") => Some("0".to_string()),
            Err(_) => super::signals::by_name(a).map(|n| n.to_string()),
        };
        match line {
            Some(l) if l.is_empty() => {}
            Some(l) => {
                let _ = fds.stdout.write_str(&format!("{l}\n")).await;
            }
            None => status = fail(sh.loc(), fds, &format!("kill: {a}: invalid signal specification"), 1).await,
        }
    }
    status
}

pub async fn kill(sh: &mut ShellState, argv: &[String], fds: &Fds) -> crate::interp::Res {
    const USAGE: &str =
        "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n";
    let mut args = &argv[1..];
    let mut sig = 15;
    if let Some(a) = args.first() {
        if matches!(a.as_str(), "-l" | "-L") {
            return Ok(list_signals(sh, &args[1..], fds).await);
        }
        if matches!(a.as_str(), "--list" | "--table" | "--help") {
            return match crate::commands::default_registry().get("kill") {
                Some(cmd) => crate::interp::simple::run_utility(sh, cmd.as_ref(), argv, fds).await,
                None => Ok(1),
            };
        }
        let spec = match a.as_str() {
            "-s" | "-n" => {
                let Some(s) = args.get(1).cloned() else {
                    return Ok(fail(sh.loc(), fds, &format!("kill: {a}: option requires an argument"), 1).await);
                };
                args = &args[1..];
                Some(s)
            }
            "--" => None,
            s if s.starts_with('-') && s.len() > 1 => Some(s[1..].to_string()),
            _ => None,
        };
        if a.starts_with('-') {
            args = args.get(1..).unwrap_or_default();
        }
        if let Some(spec) = spec {
            match super::trap::signal_number(&spec) {
                Some(n) => sig = n,
                None => return Ok(fail(sh.loc(), fds, &format!("kill: {spec}: invalid signal specification"), 1).await),
            }
        }
    }
    if args.is_empty() {
        let _ = fds.stderr.write_str(USAGE).await;
        return Ok(2);
    }
    let mut status = 0;
    let mut to_self = false;
    for a in args {
        // `$$` (and BASHPID): the shell signals itself.
        if a == SHELL_PID {
            to_self = true;
            continue;
        }
        match sh.jobs.find(a).cloned() {
            // Background jobs of a non-interactive shell ignore SIGINT and SIGQUIT.
            Some(_) if sig == 2 || sig == 3 => {}
            Some(j) if j.kill(sig) => {
                // bash reports jobs ended by most signals (not TERM) when it reaps them.
                let what = match sig {
                    1 => "Hangup",
                    9 => "Killed",
                    10 => "User defined signal 1",
                    12 => "User defined signal 2",
                    14 => "Alarm clock",
                    _ => "",
                };
                if !what.is_empty() {
                    let msg = format!("{:>5} {what:<24}{}", j.pid, j.text.trim_end_matches(" &"));
                    fds.shell_err(sh.loc(), &msg).await;
                }
            }
            _ if a.starts_with('%') => status = fail(sh.loc(), fds, &format!("kill: {a}: no such job"), 1).await,
            _ if a.parse::<i64>().is_ok() => {
                status = fail(sh.loc(), fds, &format!("kill: ({a}) - No such process"), 1).await
            }
            _ => {
                let msg = format!("kill: {a}: arguments must be process or job IDs");
                status = fail(sh.loc(), fds, &msg, 1).await
            }
        }
    }
    if to_self && sig != 0 {
        signal_self(sh, fds, sig).await?;
    }
    Ok(status)
}

/// `$$` and BASHPID inside the sandbox.
const SHELL_PID: &str = "1";

/// A signal the shell sent itself: its trap runs, an ignored one does
/// nothing, and otherwise the default action applies (most signals end the
/// shell with 128+N; CHLD, CONT, URG, WINCH and the stop signals do not).
async fn signal_self(sh: &mut ShellState, fds: &Fds, sig: u32) -> Result<(), crate::interp::Flow> {
    let action = super::trap::canonical(&sig.to_string()).and_then(|n| sh.traps.get(&n).cloned());
    match action {
        Some(a) if sig != 9 => {
            if !a.is_empty() {
                let saved = sh.last_status;
                crate::interp::run_string(sh, &a, fds, "trap").await?;
                sh.last_status = saved;
            }
            Ok(())
        }
        _ if matches!(sig, 17..=23 | 28) => Ok(()),
        _ => Err(crate::interp::Flow::Exit(128 + sig as i32)),
    }
}

/// `fg`, `bg` (and a command named `%job`, which bash runs as `fg %job`): a
/// shell without job control cannot move jobs, whatever the arguments.
pub async fn no_job_control(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    fail(sh.loc(), fds, &format!("{}: no job control", argv[0]), 1).await
}

/// `suspend`: a shell without job control cannot stop itself.
pub async fn suspend(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    if let Some(c) = super::unknown_option(argv, "f") {
        return super::usage_error(sh, fds, &format!("suspend: -{c}: invalid option"), "suspend: usage: suspend [-f]")
            .await;
    }
    fail(sh.loc(), fds, "suspend: cannot suspend: no job control", 1).await
}

/// `disown [-ahr] [jobspec ...]`: the jobs leave the table (they go on
/// running); with no job named, the current one.
pub async fn disown(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut args = &argv[1..];
    let (mut all, mut running_only) = (false, false);
    while let Some(a) = args.first().filter(|a| a.starts_with('-') && a.len() > 1) {
        if a == "--" {
            args = &args[1..];
            break;
        }
        for c in a[1..].chars() {
            match c {
                'a' => all = true,
                'r' => running_only = true,
                'h' => {}
                _ => {
                    fail(sh.loc(), fds, &format!("disown: -{c}: invalid option"), 2).await;
                    let _ = fds.stderr.write(b"disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n").await;
                    return 2;
                }
            }
        }
        args = &args[1..];
    }
    if all {
        sh.jobs.list.retain(|j| running_only && j.finished().is_some());
        return 0;
    }
    let specs: Vec<String> = if args.is_empty() { vec!["%+".into()] } else { args.to_vec() };
    let mut status = 0;
    for spec in &specs {
        let found = sh.jobs.find(spec).map(|j| (j.id, j.pid));
        match found {
            Some((id, pid)) => sh.jobs.list.retain(|j| !(j.id == id && j.pid == pid)),
            None => {
                let shown = if args.is_empty() { "current" } else { spec.as_str() };
                status = fail(sh.loc(), fds, &format!("disown: {shown}: no such job"), 1).await;
            }
        }
    }
    status
}

/// `times`: the shell's and its children's user and system time; nothing
/// here runs as a process of its own, so all four are zero.
pub async fn times(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    if let Some(c) = super::unknown_option(argv, "") {
        return super::usage_error(sh, fds, &format!("times: -{c}: invalid option"), "times: usage: times").await;
    }
    let _ = fds.stdout.write(b"0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n").await;
    0
}

/// `logout`: only a login shell may; a script is not one.
pub async fn logout(sh: &mut ShellState, _argv: &[String], fds: &Fds) -> i32 {
    fail(sh.loc(), fds, "logout: not login shell: use `exit'", 1).await
}
