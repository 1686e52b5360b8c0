//! `whoami`: the sandbox's user name.

use super::common::{quote_locale, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Whoami;

const SPEC: Spec = Spec::new("", &[], "[OPTION]...");

#[async_trait]
impl Command for Whoami {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        if let Some(extra) = p.operands.first() {
            ctx.usage_err(format!("extra operand {}", quote_locale(extra))).await?;
            return Ok(1);
        }
        ctx.out(format!("{}\n", ctx.sys.username).as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testutil::check;

    #[test]
    fn user() {
        check(&["whoami"], &[], "", "sandbox\n", "", 0);
        check(
            &["whoami", "x"],
            &[],
            "",
            "",
            "whoami: extra operand 'x'\nTry 'whoami --help' for more information.\n",
            1,
        );
    }
}
