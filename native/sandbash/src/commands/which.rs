//! `which` (debianutils): registered utilities live in `/usr/bin`; shell
//! builtins that real systems also ship as programs (echo, test, ...) are
//! registered too, so they are found; `cd` and friends are not.

use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Which;

#[async_trait]
impl Utility for Which {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut names = Vec::new();
        let mut opts_done = false;
        for a in ctx.args {
            if !opts_done && a.starts_with('-') && a.len() > 1 {
                if a == "--" {
                    opts_done = true;
                    continue;
                }
                if a[1..].chars().all(|c| c == 'a') {
                    continue;
                }
                let bad = a[1..].chars().find(|&c| c != 'a').unwrap_or('-');
                ctx.stderr
                    .write(format!("Illegal option -{bad}\nUsage: /usr/bin/which [-a] args\n").as_bytes())
                    .await?;
                return Ok(2);
            }
            opts_done = true;
            names.push(a);
        }
        if names.is_empty() {
            return Ok(1);
        }
        let mut status = 0;
        for n in names {
            // A PATH search through the session's command table.
            let found = crate::table::which(ctx, n).await;
            match found {
                Some(p) => ctx.out(format!("{p}\n").as_bytes()).await?,
                None => status = 1,
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn which() {
        check(&["which", "ls", "cd"], &[], "", "/usr/bin/ls\n", "", 1);
        check(&["which", "-a", "echo", "["], &[], "", "/usr/bin/echo\n/usr/bin/[\n", "", 0);
        check(&["which"], &[], "", "", "", 1);
        check(&["which", "-x"], &[], "", "", "Illegal option -x\nUsage: /usr/bin/which [-a] args\n", 2);
        check(&["which", "./f"], &[("f", "")], "", "", "", 1);
    }
}
