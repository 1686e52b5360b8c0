//! The directory stack: `pushd`, `popd`, `dirs` (and the DIRSTACK array).
//! The stack is the current directory followed by `ShellState::dirstack`.

use super::cd::chdir;
use super::fail;
use crate::interp::Fds;
use crate::state::ShellState;
use std::sync::Arc;

const DIRS_USAGE: &str = "dirs: usage: dirs [-clpv] [+N] [-N]";
const PUSHD_USAGE: &str = "pushd: usage: pushd [-n] [+N | -N | dir]";
const POPD_USAGE: &str = "popd: usage: popd [-n] [+N | -N]";

/// The whole stack, top (the current directory) first.
pub fn entries(sh: &ShellState) -> Vec<String> {
    let mut v = Vec::with_capacity(sh.dirstack.len() + 1);
    v.push(sh.cwd.clone());
    v.extend(sh.dirstack.iter().cloned());
    v
}

/// `+N` / `-N`: (from the left?, N); `None` when not of that form.
fn stack_index(arg: &str) -> Option<(bool, usize)> {
    let (left, digits) = match arg.as_bytes().first()? {
        b'+' => (true, &arg[1..]),
        b'-' => (false, &arg[1..]),
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((left, digits.parse().unwrap_or(usize::MAX)))
}

/// Position in the whole stack of `+N`/`-N`, or bash's message.
fn position(sh: &ShellState, left: bool, n: usize, shown: &str) -> Result<usize, String> {
    let len = sh.dirstack.len() + 1;
    if n >= len {
        return Err(if sh.dirstack.is_empty() {
            "directory stack empty".to_string()
        } else {
            format!("{shown}: directory stack index out of range")
        });
    }
    Ok(if left { n } else { len - 1 - n })
}

/// A directory as `dirs` shows it: `~` for HOME unless `long`.
fn show(sh: &ShellState, d: &str, long: bool) -> String {
    if !long {
        if let Some(home) = sh.get_var("HOME").filter(|h| !h.is_empty() && h != "/") {
            if d == home {
                return "~".into();
            }
            if let Some(rest) = d.strip_prefix(home.as_str()).filter(|r| r.starts_with('/')) {
                return format!("~{rest}");
            }
        }
    }
    d.to_string()
}

async fn print_line(sh: &ShellState, fds: &Fds) {
    let line: Vec<String> = entries(sh).iter().map(|d| show(sh, d, false)).collect();
    let _ = fds.stdout.write_str(&format!("{}\n", line.join(" "))).await;
}

pub async fn dirs(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut long, mut per_line, mut numbered) = (false, false, false);
    let mut which: Option<(bool, usize, String)> = None;
    for a in &argv[1..] {
        match a.as_str() {
            "-c" => {
                sh.dirstack = Arc::new(Vec::new());
                return 0;
            }
            "-l" => long = true,
            "-p" => per_line = true,
            "-v" => (per_line, numbered) = (true, true),
            "--" => {}
            s => match stack_index(s) {
                Some((left, n)) => which = Some((left, n, s[1..].to_string())),
                None if s.starts_with('-') || s.starts_with('+') => {
                    return super::usage_error(sh, fds, &format!("dirs: {s}: invalid number"), DIRS_USAGE).await;
                }
                None => return super::usage_error(sh, fds, &format!("dirs: {s}: invalid option"), DIRS_USAGE).await,
            },
        }
    }
    let all = entries(sh);
    if let Some((left, n, shown)) = which {
        return match position(sh, left, n, &shown) {
            Ok(i) => {
                let _ = fds.stdout.write_str(&format!("{}\n", show(sh, &all[i], long))).await;
                0
            }
            Err(m) => fail(sh.loc(), fds, &format!("dirs: {m}"), 1).await,
        };
    }
    let mut out = String::new();
    for (i, d) in all.iter().enumerate() {
        let d = show(sh, d, long);
        if numbered {
            out.push_str(&format!("{i:2}  {d}\n"));
        } else if per_line {
            out.push_str(&format!("{d}\n"));
        } else {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&d);
        }
    }
    if !per_line {
        out.push('\n');
    }
    let _ = fds.stdout.write_str(&out).await;
    0
}

pub async fn pushd(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut no_cd = false;
    let mut operands: Vec<&str> = Vec::new();
    let mut opts_done = false;
    for a in &argv[1..] {
        match a.as_str() {
            "-n" if !opts_done => no_cd = true,
            "--" if !opts_done => opts_done = true,
            s if !opts_done && s.len() > 1 && s.starts_with('-') && stack_index(s).is_none() => {
                return super::usage_error(sh, fds, &format!("pushd: {s}: invalid number"), PUSHD_USAGE).await;
            }
            s => operands.push(s),
        }
    }
    if operands.len() > 1 {
        return fail(sh.loc(), fds, "pushd: too many arguments", 1).await;
    }
    match operands.first().copied() {
        None => {
            if sh.dirstack.is_empty() {
                return fail(sh.loc(), fds, "pushd: no other directory", 1).await;
            }
            if !no_cd {
                let next = sh.dirstack[0].clone();
                let old = sh.cwd.clone();
                if let Err(m) = chdir(sh, &next).await {
                    return fail(sh.loc(), fds, &format!("pushd: {m}"), 1).await;
                }
                Arc::make_mut(&mut sh.dirstack)[0] = old;
            }
        }
        Some(s) if stack_index(s).is_some() && !opts_done => {
            let (left, n) = stack_index(s).unwrap_or((true, 0));
            let i = match position(sh, left, n, s) {
                Ok(i) => i,
                Err(m) => return fail(sh.loc(), fds, &format!("pushd: {m}"), 1).await,
            };
            let mut all = entries(sh);
            all.rotate_left(i);
            let target = all.remove(0);
            if !no_cd {
                if let Err(m) = chdir(sh, &target).await {
                    return fail(sh.loc(), fds, &format!("pushd: {m}"), 1).await;
                }
            }
            sh.dirstack = Arc::new(all);
        }
        Some(dir) => {
            if no_cd {
                Arc::make_mut(&mut sh.dirstack).insert(0, dir.to_string());
            } else {
                let target = match dir {
                    "-" => sh.get_var("OLDPWD").unwrap_or_default(),
                    d => d.to_string(),
                };
                let old = sh.cwd.clone();
                if let Err(m) = chdir(sh, &target).await {
                    return fail(sh.loc(), fds, &format!("pushd: {m}"), 1).await;
                }
                Arc::make_mut(&mut sh.dirstack).insert(0, old);
            }
        }
    }
    print_line(sh, fds).await;
    0
}

pub async fn popd(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let mut no_cd = false;
    let mut which: Option<(bool, usize, String)> = None;
    for a in &argv[1..] {
        match a.as_str() {
            "-n" => no_cd = true,
            "--" => {}
            s => match stack_index(s) {
                Some((left, n)) => which = Some((left, n, s.to_string())),
                None if s.starts_with('-') || s.starts_with('+') => {
                    return super::usage_error(sh, fds, &format!("popd: {s}: invalid number"), POPD_USAGE).await;
                }
                None => return super::usage_error(sh, fds, &format!("popd: {s}: invalid argument"), POPD_USAGE).await,
            },
        }
    }
    if sh.dirstack.is_empty() {
        return fail(sh.loc(), fds, "popd: directory stack empty", 1).await;
    }
    let i = match which {
        None => 0,
        Some((left, n, shown)) => match position(sh, left, n, &shown) {
            Ok(i) => i,
            Err(m) => return fail(sh.loc(), fds, &format!("popd: {m}"), 1).await,
        },
    };
    if i == 0 && !no_cd {
        let next = sh.dirstack[0].clone();
        if let Err(m) = chdir(sh, &next).await {
            return fail(sh.loc(), fds, &format!("popd: {m}"), 1).await;
        }
        Arc::make_mut(&mut sh.dirstack).remove(0);
    } else {
        Arc::make_mut(&mut sh.dirstack).remove(i.max(1) - 1);
    }
    print_line(sh, fds).await;
    0
}
