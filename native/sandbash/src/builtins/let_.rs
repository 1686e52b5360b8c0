//! `let EXPR...`: status 0 when the last value is non-zero.

use crate::expand::arith;
use crate::interp::{Fds, Flow};
use crate::state::ShellState;

pub async fn run(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Result<i32, Flow> {
    // A leading `--` is skipped (bash's let takes no other option).
    let args = match argv.get(1) {
        Some(a) if a == "--" => &argv[2..],
        _ => argv.get(1..).unwrap_or_default(),
    };
    if args.is_empty() {
        fds.shell_err(sh.loc(), "let: expression expected").await;
        return Ok(1);
    }
    let mut last = 0;
    for a in args {
        let r = arith::eval_or_stop(sh, a)?;
        arith::flush_warnings(sh, fds).await;
        match r {
            Ok(v) => last = v,
            Err(m) => {
                arith::report(sh, fds, "let: ", &m).await?;
                return Ok(1);
            }
        }
    }
    Ok(i32::from(last == 0))
}
