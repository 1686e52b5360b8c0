//! `hostname`: the sandbox's host name (`-s` short, `-f` full); it cannot be set.

use super::util::{Arg, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Hostname;

const SPEC: Spec =
    Spec::new("sf", &[("short", Arg::No, "s"), ("fqdn", Arg::No, "f"), ("long", Arg::No, "f")], "[-s|-f]").status(255);

#[async_trait]
impl Command for Hostname {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        if !p.operands.is_empty() {
            ctx.err("you must be root to change the host name").await?;
            return Ok(1);
        }
        let name = &ctx.sys.hostname;
        let shown = match p.opts.last().map(|o| o.id) {
            Some("s") => name.split('.').next().unwrap_or(name),
            _ => name,
        };
        ctx.out(format!("{shown}\n").as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn name() {
        check(&["hostname"], &[], "", "bashkit-sandbox\n", "", 0);
        check(&["hostname", "-s"], &[], "", "bashkit-sandbox\n", "", 0);
    }
}
