//! `whoami`: the sandbox's user name.

use super::util::Spec;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Whoami;

const SPEC: Spec = Spec::new("", &[], "[OPTION]...");

#[async_trait]
impl Utility for Whoami {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        if let Err(s) = ctx.parse_at_most(&SPEC, 0).await? {
            return Ok(s);
        }
        ctx.out(format!("{}\n", ctx.sys.username).as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

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
