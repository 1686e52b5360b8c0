//! `link FILE1 FILE2`: the link(2) call. The sandbox filesystem has no hard
//! links, so (as with `ln`) the new name gets a copy of the file; a symlink
//! is linked as itself, as link(2) does.

use super::util::{quote, quote_locale, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;

pub struct Link;

const SPEC: Spec = Spec::new("", &[], "FILE1 FILE2\n  or:  link OPTION");

/// Make `to` a copy of `from`; the error is link(2)'s errno text.
async fn link(ctx: &CommandContext<'_>, from: &str, to: &str) -> Result<(), FsError> {
    let (src, dst) = (ctx.resolve(from), ctx.resolve(to));
    let meta = ctx.fs.symlink_metadata(&src).await?;
    if meta.is_dir() {
        return Err(FsError::PermissionDenied);
    }
    if ctx.fs.symlink_metadata(&dst).await.is_ok() {
        return Err(FsError::AlreadyExists);
    }
    if meta.is_symlink() {
        let target = ctx.fs.read_link(&src).await?;
        return ctx.fs.symlink(&target, &dst).await;
    }
    let data = ctx.fs.read(&src).await?;
    ctx.fs.write(&dst, &data).await?;
    ctx.fs.set_mode(&dst, meta.mode).await.ok();
    ctx.fs.set_mtime(&dst, meta.mtime).await.ok();
    Ok(())
}

#[async_trait]
impl Utility for Link {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let msg = match p.operands.as_slice() {
            [] => Some("missing operand".to_string()),
            [a] => Some(format!("missing operand after {}", quote_locale(a))),
            [_, _, extra, ..] => Some(format!("extra operand {}", quote_locale(extra))),
            _ => None,
        };
        if let Some(m) = msg {
            return Err(UError::usage(1, m));
        }
        let (from, to) = (&p.operands[0], &p.operands[1]);
        if let Err(e) = link(ctx, from, to).await {
            // link(2) on a directory is EPERM.
            let e = if e == FsError::PermissionDenied { "Operation not permitted".to_string() } else { e.to_string() };
            return Err(UError::new(1, format!("cannot create link {} to {}: {e}", quote(to), quote(from))));
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    #[test]
    fn links() {
        check_tree(&["link", "a", "b"], &[("a", "x")], "", "", "", 0, "a\tx\nb\tx\n");
        check(
            &["link", "a", "b"],
            &[("a", ""), ("b", "")],
            "",
            "",
            "link: cannot create link 'b' to 'a': File exists\n",
            1,
        );
        let msg = "link: cannot create link 'x' to 'nofile': No such file or directory\n";
        check(&["link", "nofile", "x"], &[], "", "", msg, 1);
        let msg = "link: cannot create link 'x' to 'd': Operation not permitted\n";
        check(&["link", "d", "x"], &[("d/", "")], "", "", msg, 1);
    }

    #[test]
    fn usage() {
        const TRY: &str = "Try 'link --help' for more information.\n";
        check(&["link"], &[], "", "", &format!("link: missing operand\n{TRY}"), 1);
        check(&["link", "a"], &[], "", "", &format!("link: missing operand after 'a'\n{TRY}"), 1);
        check(&["link", "a", "b", "c"], &[], "", "", &format!("link: extra operand 'c'\n{TRY}"), 1);
    }
}
