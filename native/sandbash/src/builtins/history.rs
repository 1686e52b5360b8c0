//! `history`: the session's exec'd scripts, numbered (`history`, `history N`,
//! `history -c`, `history -d N`). Each exec is one entry, as one line typed at
//! an interactive prompt would be; with history turned off it lists nothing.

use crate::interp::Fds;
use crate::state::ShellState;

pub async fn history(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let Some(h) = sh.history.clone() else { return 0 };
    let args = &argv[1..];
    match args.first().map(String::as_str) {
        Some("-c") => {
            h.lock().clear();
            0
        }
        Some("-d") => {
            let n = args.get(1).and_then(|a| a.parse::<u64>().ok());
            match n {
                Some(n) if h.lock().delete(n) => 0,
                _ => {
                    let shown = args.get(1).map(String::as_str).unwrap_or("");
                    fds.shell_err(sh.loc(), &format!("history: {shown}: history position out of range")).await;
                    1
                }
            }
        }
        Some(a) if a.starts_with('-') && a.len() > 1 => {
            fds.shell_err(sh.loc(), &format!("history: {a}: invalid option")).await;
            let _ = fds.stderr.write(b"history: usage: history [-c] [-d offset] [n]\n").await;
            2
        }
        count => {
            let n = match count.map(str::parse::<usize>) {
                None => usize::MAX,
                Some(Ok(n)) => n,
                Some(Err(_)) => {
                    let shown = count.unwrap_or("");
                    fds.shell_err(sh.loc(), &format!("history: {shown}: numeric argument required")).await;
                    return 1;
                }
            };
            let text: String = {
                let h = h.lock();
                let skip = h.entries().len().saturating_sub(n);
                h.entries().skip(skip).map(|e| format!("{:>5}  {}\n", e.number, e.line)).collect()
            };
            match fds.stdout.write_str(&text).await {
                Ok(()) => 0,
                Err(_) => 1,
            }
        }
    }
}
