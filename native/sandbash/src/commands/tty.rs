//! `tty`: a script's stdin is never a terminal here.

use super::util::{quote_locale, Arg, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Tty;

const SPEC: Spec = Spec::new("s", &[("silent", Arg::No, "s"), ("quiet", Arg::No, "s")], "[OPTION]...");

#[async_trait]
impl Command for Tty {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(_) => return Ok(2),
        };
        if let Some(extra) = p.operands.first() {
            ctx.usage_err(format!("extra operand {}", quote_locale(extra))).await?;
            return Ok(2);
        }
        if !p.has("s") {
            ctx.out(b"not a tty\n").await?;
        }
        Ok(1)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn tty() {
        check(&["tty"], &[], "", "not a tty\n", "", 1);
        check(&["tty", "-s"], &[], "", "", "", 1);
        check(&["tty", "-x"], &[], "", "", "tty: invalid option -- 'x'\nTry 'tty --help' for more information.\n", 2);
    }
}
