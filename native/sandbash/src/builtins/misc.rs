//! Small builtins: `umask`, `hash`, `caller`.

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
