//! `exit`, `return`, `break`, `continue`.

use crate::interp::{Fds, Flow, Res};
use crate::state::ShellState;

pub async fn run(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let name = argv[0].as_str();
    // A leading `--` ends the options (`exit -- 5`).
    let argv = if argv.get(1).is_some_and(|a| a == "--") { &argv[1..] } else { argv };
    let arg = argv.get(1);
    match name {
        "exit" | "return" => {
            let status = match arg {
                None => sh.last_status,
                Some(s) => match s.trim().parse::<i64>() {
                    Ok(n) => (n & 255) as i32,
                    Err(_) => {
                        fds.shell_err(sh.loc(), &format!("{name}: {s}: numeric argument required")).await;
                        if name == "exit" {
                            return Err(Flow::Exit(2));
                        }
                        2
                    }
                },
            };
            if argv.len() > 2 {
                return Err(super::too_many_arguments(sh, fds, name).await);
            }
            if name == "exit" {
                return Err(Flow::Exit(status));
            }
            if sh.func_depth == 0 && !sh.in_source {
                fds.shell_err(sh.loc(), "return: can only `return' from a function or sourced script").await;
                return Ok(2);
            }
            Err(Flow::Return(status))
        }
        _ => {
            // break.def: the loop level is checked first, then the count.
            if sh.loop_depth == 0 {
                fds.shell_err(sh.loc(), &format!("{name}: only meaningful in a `for', `while', or `until' loop")).await;
                return Ok(0);
            }
            let n = match arg {
                None => 1,
                Some(s) => match s.trim().parse::<i64>() {
                    Ok(n) if n >= 1 => n.min(i64::from(u32::MAX)) as u32,
                    Ok(_) => {
                        // Every enclosing loop is left, with status 1.
                        fds.shell_err(sh.loc(), &format!("{name}: {s}: loop count out of range")).await;
                        sh.last_status = 1;
                        // The builtin failed: `set -e` ends the shell here
                        // (bash runs no ERR trap, as the loops are already left).
                        if sh.opts.errexit && !sh.in_condition {
                            return Err(Flow::Exit(1));
                        }
                        return Err(Flow::Break(sh.loop_depth as u32));
                    }
                    Err(_) => {
                        // A bad count ends the shell (jump_to_top_level), with 128.
                        fds.shell_err(sh.loc(), &format!("{name}: {s}: numeric argument required")).await;
                        return Err(Flow::Exit(128));
                    }
                },
            };
            if argv.len() > 2 {
                return Err(super::too_many_arguments(sh, fds, name).await);
            }
            sh.last_status = 0;
            // `break 5` inside two loops leaves both.
            let n = n.min(sh.loop_depth as u32);
            if name == "break" {
                Err(Flow::Break(n))
            } else {
                Err(Flow::Continue(n))
            }
        }
    }
}
