//! `select NAME in WORDS; do ...; done`, which the parser cannot read, is
//! rewritten (see `syntax::rewrite_select`) into `while __select NAME -- WORDS`.
//! Each call shows the menu (when it is new or the answer was empty), prompts
//! with PS3 on stderr, reads a line into REPLY and sets NAME to the chosen word.

use crate::interp::{Fds, Flow};
use crate::state::ShellState;

/// One turn of a select loop: 0 with NAME and REPLY set, 1 at end of input.
pub async fn select(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Result<i32, Flow> {
    let Some(name) = argv.get(1).cloned() else { return Ok(2) };
    let words: Vec<String> = argv.iter().skip(3).cloned().collect();
    let here = (sh.line, sh.loop_depth);
    let mut show_menu = sh.select_menu != Some(here);
    loop {
        if words.is_empty() {
            return Ok(1);
        }
        if show_menu {
            let width = words.len().to_string().len();
            let menu: String = words.iter().enumerate().map(|(i, w)| format!("{:>width$}) {w}\n", i + 1)).collect();
            let _ = fds.stderr.write_str(&menu).await;
            sh.select_menu = Some(here);
        }
        let ps3 = sh.get_var("PS3").unwrap_or_else(|| "#? ".to_string());
        let _ = fds.stderr.write_str(&ps3).await;
        let max = usize::try_from(sh.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
        let Some(line) = fds.stdin.read_until(b'\n', max).await else {
            // End of input: bash ends the line and the loop.
            let _ = fds.stdout.write(b"\n").await;
            sh.select_menu = None;
            sh.select_eof = true;
            return Ok(1);
        };
        let reply = crate::raw_bytes::decode_vec(line).trim_end_matches('\n').to_string();
        let _ = sh.set_var("REPLY", reply.clone());
        if reply.is_empty() {
            show_menu = true;
            continue;
        }
        let chosen = reply.trim().parse::<usize>().ok().filter(|n| (1..=words.len()).contains(n));
        let value = chosen.map(|n| words[n - 1].clone()).unwrap_or_default();
        if let Err(m) = sh.set_var(&name, value) {
            fds.shell_err(sh.loc(), &m).await;
            return Ok(1);
        }
        return Ok(0);
    }
}
