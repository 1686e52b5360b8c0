//! `shift [n]`.

use super::fail;
use crate::interp::{Fds, Res};
use crate::state::ShellState;
use std::sync::Arc;

pub async fn shift(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    // `--` ends the options, as for every builtin that takes none.
    let args = match argv.get(1).map(String::as_str) {
        Some("--") => &argv[2..],
        _ => &argv[1..],
    };
    if args.len() > 1 {
        return Err(super::too_many_arguments(sh, fds, "shift").await);
    }
    let n = match args.first() {
        None => 1,
        Some(s) => match s.parse::<i64>() {
            Ok(n) if n >= 0 => n as usize,
            // Range errors name the first word as written, `--` included (as bash does).
            Ok(_) => return Ok(fail(sh.loc(), fds, &format!("shift: {}: shift count out of range", argv[1]), 1).await),
            Err(_) => return Ok(fail(sh.loc(), fds, &format!("shift: {s}: numeric argument required"), 1).await),
        },
    };
    if n > sh.positional.len() {
        if sh.opts.shift_verbose {
            let what = argv.get(1).map(|a| format!("{a}: ")).unwrap_or_default();
            return Ok(fail(sh.loc(), fds, &format!("shift: {what}shift count out of range"), 1).await);
        }
        return Ok(1);
    }
    sh.positional = Arc::new(sh.positional[n..].to_vec());
    Ok(0)
}
