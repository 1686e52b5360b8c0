//! `wait [-n] [id...]` and `jobs [-lpr] [jobspec...]` over the shell's
//! background jobs (see `interp::jobs`).

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
        }
        return 0;
    }
    let mut status = 0;
    for a in args {
        status = match sh.jobs.find(a).cloned() {
            Some(j) => j.wait().await,
            None if a.starts_with('%') => fail(sh.loc(), fds, &format!("wait: {a}: no such job"), 127).await,
            None if a.parse::<u32>().is_ok() => {
                fail(sh.loc(), fds, &format!("wait: pid {a} is not a child of this shell"), 127).await
            }
            None => fail(sh.loc(), fds, &format!("wait: `{a}': not a pid or valid job spec"), 2).await,
        };
    }
    status
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
        let pid = if long { format!(" {}", j.pid) } else { " ".to_string() };
        out.push_str(&format!("[{}]{mark}{pid} {:<24}{}\n", j.id, "Running", j.text));
    }
    let _ = fds.stdout.write(out.as_bytes()).await;
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
