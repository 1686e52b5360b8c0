//! `sync [-d|-f] [FILE]...`: writes are never cached in the sandbox, so this
//! only checks that each FILE can be opened, as GNU does.

use super::util::{quote, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Sync;

const SPEC: Spec = Spec::new("df", &[("data", Arg::No, "d"), ("file-system", Arg::No, "f")], "[OPTION] [FILE]...");

#[async_trait]
impl Utility for Sync {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.has("d") && p.has("f") {
            return Err(UError::new(1, "cannot specify both --data and --file-system"));
        }
        if p.has("d") && p.operands.is_empty() {
            return Err(UError::new(1, "--data needs at least one argument"));
        }
        let mut status = 0;
        for f in &p.operands {
            if let Err(e) = ctx.fs.metadata(&ctx.resolve(f)).await {
                ctx.err(format!("error opening {}: {e}", quote(f))).await?;
                status = 1;
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn sync() {
        check(&["sync"], &[], "", "", "", 0);
        check(&["sync", "-f"], &[], "", "", "", 0);
        check(&["sync", "a"], &[("a", "")], "", "", "", 0);
        check(
            &["sync", "-d", "a", "b"],
            &[("a", "")],
            "",
            "",
            "sync: error opening 'b': No such file or directory\n",
            1,
        );
        check(&["sync", "nofile"], &[], "", "", "sync: error opening 'nofile': No such file or directory\n", 1);
        check(&["sync", "-d"], &[], "", "", "sync: --data needs at least one argument\n", 1);
        check(&["sync", "-d", "-f", "a"], &[], "", "", "sync: cannot specify both --data and --file-system\n", 1);
    }
}
