//! `arch`: the machine name, as `uname -m` reports it.

use super::common::{quote_locale, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Arch;

const SPEC: Spec = Spec::new("", &[], "[OPTION]...");

#[async_trait]
impl Command for Arch {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        if let Some(extra) = p.operands.first() {
            ctx.usage_err(format!("extra operand {}", quote_locale(extra))).await?;
            return Ok(1);
        }
        ctx.out(format!("{}\n", super::uname::MACHINE).as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testutil::check;

    #[test]
    fn arch() {
        check(&["arch"], &[], "", "x86_64\n", "", 0);
        check(&["arch", "x"], &[], "", "", "arch: extra operand 'x'\nTry 'arch --help' for more information.\n", 1);
    }
}
