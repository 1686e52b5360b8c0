//! `bash`/`sh` run inside the sandbox: `-c STRING [arg0 args]`, `FILE [args]`,
//! or a script on stdin, in a fresh child shell.

use super::fail;
use crate::fs::path;
use crate::interp::{run_child_script, Fds, Res};
use crate::state::ShellState;

pub async fn run(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let mut i = 1;
    let mut command: Option<String> = None;
    let mut flags: Vec<(char, bool)> = Vec::new();
    let mut named: Vec<(String, bool)> = Vec::new();
    while i < argv.len() {
        let a = &argv[i];
        if a == "--" {
            i += 1;
            break;
        }
        if !(a.starts_with('-') || a.starts_with('+')) || a.len() < 2 {
            break;
        }
        let on = a.starts_with('-');
        for c in a[1..].chars() {
            match c {
                'c' => {
                    i += 1;
                    match argv.get(i) {
                        Some(s) => command = Some(s.clone()),
                        None => {
                            return Ok(
                                fail(sh.loc(), fds, &format!("{}: -c: option requires an argument", argv[0]), 2).await
                            )
                        }
                    }
                }
                'o' => {
                    i += 1;
                    if let Some(n) = argv.get(i) {
                        named.push((n.clone(), on));
                    }
                }
                's' | 'l' | 'i' => {}
                other => flags.push((other, on)),
            }
        }
        i += 1;
    }
    let rest: Vec<String> = argv[i.min(argv.len())..].to_vec();
    let (src, arg0, args) = match command {
        Some(c) => {
            let arg0 = rest.first().cloned().unwrap_or_else(|| argv[0].clone());
            (c, arg0, rest.iter().skip(1).cloned().collect())
        }
        None => match rest.first() {
            Some(file) => {
                let p = path::resolve(&sh.cwd, file);
                match sh.fs.read(&p).await {
                    Ok(d) => (String::from_utf8_lossy(&d).into_owned(), file.clone(), rest[1..].to_vec()),
                    Err(e) => return Ok(fail(sh.loc(), fds, &format!("{file}: {e}"), 127).await),
                }
            }
            None => {
                let max = sh.budget.limits.max_input_bytes as usize;
                match fds.stdin.read_to_end(max).await {
                    Ok(d) => (String::from_utf8_lossy(&d).into_owned(), argv[0].clone(), Vec::new()),
                    Err(_) => return Ok(fail(sh.loc(), fds, "script on stdin too large", 1).await),
                }
            }
        },
    };
    // Options apply inside the child only.
    let mut opts = crate::state::Options::default();
    for (c, on) in flags {
        opts.set_flag(c, on);
    }
    for (n, on) in named {
        opts.set_named(&n, on);
    }
    run_child_script(sh, &src, arg0, args, opts, fds).await
}
