//! `true` and `false` as the coreutils binaries (for `env true`, `find -exec
//! false`): arguments are ignored except a lone `--help` or `--version`.

use super::{CommandContext, CommandResult};
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct True;
pub struct False;

async fn run(ctx: &CommandContext<'_>, status: i32) -> CommandResult {
    if ctx.args.len() == 1 {
        match ctx.args[0].as_str() {
            "--help" => {
                ctx.out(format!("Usage: {} [ignored command line arguments]\n", ctx.name).as_bytes()).await?;
                return Ok(status);
            }
            "--version" => {
                ctx.out(super::util::coreutils_version(ctx.name).as_bytes()).await?;
                return Ok(status);
            }
            _ => {}
        }
    }
    Ok(status)
}

#[async_trait]
impl Utility for True {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        Ok(run(ctx, 0).await?)
    }
}

#[async_trait]
impl Utility for False {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        Ok(run(ctx, 1).await?)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn statuses() {
        check(&["true", "--bogus"], &[], "", "", "", 0);
        check(&["false", "x"], &[], "", "", "", 1);
        check(&["false", "--version"], &[], "", "false (GNU coreutils) 9.1\nCopyright (C) 2022 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n\nWritten by Jim Meyering.\n", "", 1);
    }
}
