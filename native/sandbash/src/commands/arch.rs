//! `arch`: the machine name, as `uname -m` reports it.

use super::util::Spec;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Arch;

const SPEC: Spec = Spec::new("", &[], "[OPTION]...");

#[async_trait]
impl Utility for Arch {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        if let Err(s) = ctx.parse_at_most(&SPEC, 0).await? {
            return Ok(s);
        }
        ctx.out(format!("{}\n", super::uname::MACHINE).as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn arch() {
        check(&["arch"], &[], "", "x86_64\n", "", 0);
        check(&["arch", "x"], &[], "", "", "arch: extra operand 'x'\nTry 'arch --help' for more information.\n", 1);
    }
}
