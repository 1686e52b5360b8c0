//! `less` and `more` with no terminal behave like `cat` (as the real ones do
//! when output is not a terminal): options are ignored; `more` puts a
//! `::::` header before each file when given several. Their wording for a
//! missing file differs, and neither fails for it.

use super::{CommandContext, CommandResult};
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Less;
pub struct More;

async fn page(ctx: &CommandContext<'_>, more: bool) -> CommandResult {
    let files: Vec<&String> =
        ctx.args.iter().filter(|a| !(a.starts_with('-') || a.starts_with('+')) || *a == "-").collect();
    if files.is_empty() {
        while let Some(chunk) = ctx.stdin.read_chunk().await {
            ctx.out(&chunk).await?;
        }
        return Ok(0);
    }
    for f in &files {
        match ctx.read_operand(f).await {
            Ok(data) => {
                if more && files.len() > 1 {
                    ctx.out(format!("::::::::::::::\n{f}\n::::::::::::::\n").as_bytes()).await?;
                }
                ctx.out(&data).await?;
            }
            // less (not on a terminal) reports on stdout.
            Err(e) if !more => ctx.out(format!("{f}: {e}\n").as_bytes()).await?,
            Err(e) => ctx.err(format!("cannot open {f}: {e}")).await?,
        }
    }
    Ok(0)
}

#[async_trait]
impl Utility for Less {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        Ok(page(ctx, false).await?)
    }
}

#[async_trait]
impl Utility for More {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        Ok(page(ctx, true).await?)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn pagers() {
        check(&["less", "-R", "f", "nofile"], &[("f", "x\n")], "", "x\nnofile: No such file or directory\n", "", 0);
        check(
            &["more", "f", "f"],
            &[("f", "x\n")],
            "",
            "::::::::::::::\nf\n::::::::::::::\nx\n::::::::::::::\nf\n::::::::::::::\nx\n",
            "",
            0,
        );
        check(&["more", "nofile"], &[], "", "", "more: cannot open nofile: No such file or directory\n", 0);
        check(&["less"], &[], "a\n", "a\n", "", 0);
    }
}
