//! `ps`: the processes of this sandbox, which are the shell (pid `$$`), its
//! running background jobs (pid `$!`) and `ps` itself, in procps' default
//! layout (`-e`, `-A`, `-f`, `aux` change the columns, not the set).

use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Ps;

#[async_trait]
impl Utility for Ps {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut full = false;
        for a in ctx.args {
            match a.as_str() {
                "--help" => {
                    ctx.out(b"\nUsage:\n ps [options]\n").await?;
                    return Ok(0);
                }
                "--version" => {
                    ctx.out(b"ps from procps-ng 4.0.2\n").await?;
                    return Ok(0);
                }
                // Selections (everything is already shown) and full formats.
                _ if a.trim_start_matches('-').chars().all(|c| "eAaxfu".contains(c)) => {
                    full |= a.contains('f') || a.contains('u');
                }
                _ => {
                    ctx.stderr.write(b"error: unsupported option (BSD syntax)\n\nUsage:\n ps [options]\n").await?;
                    return Ok(1);
                }
            }
        }
        // (pid, command name, full command line)
        let mut procs: Vec<(u32, String, String)> = vec![(1, "bash".into(), "bash".into())];
        if let Some(sh) = ctx.shell {
            // A pipeline stage's shell still sees its parent's jobs.
            let all = sh.jobs.inherited.iter().chain(sh.jobs.list.iter());
            for j in all.filter(|j| j.finished().is_none()) {
                let line = j.text.trim_end_matches('&').trim().to_string();
                let name = line.split_whitespace().next().unwrap_or("bash").trim_start_matches('(').to_string();
                let name = if name.is_empty() { "bash".to_string() } else { name };
                procs.push((j.pid, name, line));
            }
        }
        let own = procs.iter().map(|p| p.0).max().unwrap_or(1) + 1;
        procs.push((
            own,
            "ps".into(),
            std::iter::once("ps".to_string()).chain(ctx.args.iter().cloned()).collect::<Vec<_>>().join(" "),
        ));
        let user = ctx.sys.username.clone();
        let mut out = if full {
            String::from("UID          PID    PPID  C STIME TTY          TIME CMD\n")
        } else {
            String::from("    PID TTY          TIME CMD\n")
        };
        for (pid, name, line) in procs {
            if full {
                let ppid = if pid == 1 { 0 } else { 1 };
                out.push_str(&format!("{user:<8} {pid:>7} {ppid:>7}  0 00:00 ?        00:00:00 {line}\n"));
            } else {
                out.push_str(&format!("{pid:>7} ?        00:00:00 {name}\n"));
            }
        }
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn the_shell_and_ps() {
        // Layout of procps-ng 4.0 `ps` (header and columns), outside a shell.
        check(
            &["ps"],
            &[],
            "",
            "    PID TTY          TIME CMD\n      1 ?        00:00:00 bash\n      2 ?        00:00:00 ps\n",
            "",
            0,
        );
    }
}
