//! `watch` (procps-ng 4.0.2). It redraws a terminal screen, and scripts here
//! have no terminal: like the real one without `TERM`, it stops at once with
//! `Error opening terminal: unknown.` Options are still checked.

use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Watch;

const USAGE: &str = "\nUsage:\n watch [options] command\n\nOptions:\n  -b, --beep             beep if command has a non-zero exit\n  -c, --color            interpret ANSI color and style sequences\n  -d, --differences[=<permanent>]\n                         highlight changes between updates\n  -e, --errexit          exit if command has a non-zero exit\n  -g, --chgexit          exit when output from command changes\n  -q, --equexit <cycles>\n                         exit when output from command does not change\n  -n, --interval <secs>  seconds to wait between updates\n  -p, --precise          attempt run command in precise intervals\n  -t, --no-title         turn off header\n  -w, --no-wrap          turn off line wrapping\n  -x, --exec             pass command to exec instead of \"sh -c\"\n\n -h, --help     display this help and exit\n -v, --version  output version information and exit\n\nFor more details see watch(1).\n";

#[async_trait]
impl Utility for Watch {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = ctx.args;
        let mut i = 0;
        // Options end at the first operand (the command).
        while let Some(a) = args.get(i) {
            match a.as_str() {
                "-h" | "--help" => {
                    ctx.out(USAGE.as_bytes()).await?;
                    return Ok(0);
                }
                "-v" | "--version" => {
                    ctx.out(b"watch from procps-ng 4.0.2\n").await?;
                    return Ok(0);
                }
                "-n" | "--interval" | "-q" | "--equexit" => i += 1,
                "--" => {
                    i += 1;
                    break;
                }
                s if s.starts_with("--") => {}
                s if s.starts_with('-') && s.len() > 1 => {
                    // A cluster: `-n` may carry its value (`-n5`).
                    if s[1..].contains(['n', 'q']) && s.ends_with(['n', 'q']) {
                        i += 1;
                    }
                }
                _ => break,
            }
            i += 1;
        }
        if i >= args.len() {
            ctx.stderr.write(USAGE.as_bytes()).await?;
            return Ok(1);
        }
        ctx.stderr.write(b"Error opening terminal: unknown.\n").await?;
        Ok(1)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    // Values from procps-ng watch 4.0.2 run without TERM.
    #[test]
    fn no_terminal() {
        check(&["watch", "echo", "hi"], &[], "", "", "Error opening terminal: unknown.\n", 1);
        check(&["watch", "-n", "5", "echo", "t"], &[], "", "", "Error opening terminal: unknown.\n", 1);
        check(&["watch", "--version"], &[], "", "watch from procps-ng 4.0.2\n", "", 0);
        check(&["watch"], &[], "", "", super::USAGE, 1);
        check(&["watch", "-x"], &[], "", "", super::USAGE, 1);
    }
}
