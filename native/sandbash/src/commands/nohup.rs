//! `nohup COMMAND [ARG]...`: run a registered utility (see `run_util`).
//! Hangups do not exist in the sandbox and its streams are never a
//! terminal, so nothing is redirected to `nohup.out`, as GNU does for a
//! command whose output is not a terminal.

use super::util::{quote, Spec};
use super::run_util::{self, Exec, Ran};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Nohup;

const SPEC: Spec = Spec::new("", &[], "COMMAND [ARG]...\n  or:  nohup OPTION").status(125).posix();

#[async_trait]
impl Utility for Nohup {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let Some(name) = p.operands.first() else {
            return Err(UError::usage(125, "missing operand"));
        };
        match run_util::run(ctx, Exec::from_ctx(ctx, &p.operands)).await? {
            Ran::Status(s) => Ok(s),
            Ran::NotFound => {
                ctx.err(format!("failed to run command {}: No such file or directory", quote(name))).await?;
                Ok(127)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn nohup() {
        check(&["nohup", "echo", "hi"], &[], "", "hi\n", "", 0);
        check(&["nohup", "--", "cat"], &[], "in", "in", "", 0);
        check(&["nohup", "false"], &[], "", "", "", 1);
        let msg = "nohup: failed to run command 'nosuch': No such file or directory\n";
        check(&["nohup", "nosuch"], &[], "", "", msg, 127);
        check(&["nohup"], &[], "", "", "nohup: missing operand\nTry 'nohup --help' for more information.\n", 125);
        let msg = "nohup: invalid option -- 'x'\nTry 'nohup --help' for more information.\n";
        check(&["nohup", "-x"], &[], "", "", msg, 125);
    }
}
