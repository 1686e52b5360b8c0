//! `unlink FILE`: the unlink(2) call (a file or a symlink, never a directory).

use super::util::{quote, quote_locale, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;

pub struct Unlink;

const SPEC: Spec = Spec::new("", &[], "FILE\n  or:  unlink OPTION");

#[async_trait]
impl Utility for Unlink {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let msg = match p.operands.as_slice() {
            [] => Some("missing operand".to_string()),
            [_, extra, ..] => Some(format!("extra operand {}", quote_locale(extra))),
            _ => None,
        };
        if let Some(m) = msg {
            return Err(UError::usage(1, m));
        }
        let name = &p.operands[0];
        let path = ctx.resolve(name);
        let res = match ctx.fs.symlink_metadata(&path).await {
            Ok(m) if m.is_dir() => Err(FsError::IsADirectory),
            Ok(_) => ctx.fs.remove_file(&path).await,
            Err(e) => Err(e),
        };
        if let Err(e) = res {
            return Err(UError::new(1, format!("cannot unlink {}: {e}", quote(name))));
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    #[test]
    fn unlinks() {
        check_tree(&["unlink", "a"], &[("a", "x"), ("b", "y")], "", "", "", 0, "b\ty\n");
        check(&["unlink", "nofile"], &[], "", "", "unlink: cannot unlink 'nofile': No such file or directory\n", 1);
        check(&["unlink", "."], &[], "", "", "unlink: cannot unlink '.': Is a directory\n", 1);
        check(&["unlink", "d"], &[("d/", "")], "", "", "unlink: cannot unlink 'd': Is a directory\n", 1);
        const TRY: &str = "Try 'unlink --help' for more information.\n";
        check(&["unlink"], &[], "", "", &format!("unlink: missing operand\n{TRY}"), 1);
        check(&["unlink", "a", "b"], &[], "", "", &format!("unlink: extra operand 'b'\n{TRY}"), 1);
    }
}
