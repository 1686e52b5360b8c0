//! `users`: the sandbox keeps no login records, so the list is empty; an
//! optional FILE operand (a utmp file) is accepted as GNU accepts it.

use super::common::{quote_locale, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Users;

const SPEC: Spec = Spec::new("", &[], "[OPTION]... [FILE]");

#[async_trait]
impl Command for Users {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        if let Some(extra) = p.operands.get(1) {
            ctx.usage_err(format!("extra operand {}", quote_locale(extra))).await?;
            return Ok(1);
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testutil::check;

    #[test]
    fn users() {
        check(&["users"], &[], "", "", "", 0);
        check(&["users", "/var/run/utmp"], &[], "", "", "", 0);
        check(
            &["users", "x", "y"],
            &[],
            "",
            "",
            "users: extra operand 'y'\nTry 'users --help' for more information.\n",
            1,
        );
    }
}
