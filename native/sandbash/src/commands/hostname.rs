//! `hostname`: the sandbox's host name (`-s` short, `-f` full); it cannot be set.

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Hostname;

const SPEC: Spec =
    Spec::new("sf", &[("short", Arg::No, "s"), ("fqdn", Arg::No, "f"), ("long", Arg::No, "f")], "[-s|-f]").status(255);

#[async_trait]
impl Utility for Hostname {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if !p.operands.is_empty() {
            return Err(UError::new(1, "you must be root to change the host name"));
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
