//! `shift [n]`.

use super::fail;
use crate::interp::Fds;
use crate::state::ShellState;
use std::sync::Arc;

pub async fn shift(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let n = match argv.get(1) {
        None => 1,
        Some(s) => match s.parse::<i64>() {
            Ok(n) if n >= 0 => n as usize,
            Ok(n) => return fail(sh.loc(), fds, &format!("shift: {n}: shift count out of range"), 1).await,
            Err(_) => return fail(sh.loc(), fds, &format!("shift: {s}: numeric argument required"), 1).await,
        },
    };
    if n > sh.positional.len() {
        if sh.opts.shift_verbose {
            let what = argv.get(1).map(|a| format!("{a}: ")).unwrap_or_default();
            return fail(sh.loc(), fds, &format!("shift: {what}shift count out of range"), 1).await;
        }
        return 1;
    }
    sh.positional = Arc::new(sh.positional[n..].to_vec());
    0
}
