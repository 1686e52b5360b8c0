//! `logname`: the sandbox user (scripts run as if logged in).

use super::util::Spec;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Logname;

const SPEC: Spec = Spec::new("", &[], "[OPTION]");

#[async_trait]
impl Utility for Logname {
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
    fn logname() {
        check(&["logname"], &[], "", "sandbox\n", "", 0);
        check(
            &["logname", "x"],
            &[],
            "",
            "",
            "logname: extra operand 'x'\nTry 'logname --help' for more information.\n",
            1,
        );
    }
}
