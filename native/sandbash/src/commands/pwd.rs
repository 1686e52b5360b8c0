//! `pwd` as the coreutils binary: `-P` (the default, symlinks resolved) or
//! `-L` (`$PWD` when it is absolute, free of `.`/`..` and names this directory).

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Pwd;

const SPEC: Spec = Spec::new("LP", &[("logical", Arg::No, "L"), ("physical", Arg::No, "P")], "[OPTION]...");

#[async_trait]
impl Utility for Pwd {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if !p.operands.is_empty() {
            ctx.err("ignoring non-option arguments").await?;
        }
        let logical = p.opts.last().is_some_and(|o| o.id == "L");
        let physical = ctx.fs.canonicalize(ctx.cwd).await.unwrap_or_else(|_| ctx.cwd.to_string());
        let mut dir = physical.clone();
        if logical {
            if let Some(env_pwd) = ctx.env.get("PWD") {
                let clean = env_pwd.starts_with('/') && !env_pwd.split('/').any(|c| c == "." || c == "..");
                if clean && ctx.fs.canonicalize(&env_pwd).await.is_ok_and(|c| c == physical) {
                    dir = env_pwd;
                }
            }
        }
        ctx.out(format!("{dir}\n").as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::file_util::testing::fs_with;
    use crate::commands::util::testutil::{check, run_full};

    #[test]
    fn pwd() {
        check(&["pwd"], &[], "", "/w\n", "", 0);
        check(&["pwd", "x"], &[], "", "/w\n", "pwd: ignoring non-option arguments\n", 0);
        check(&["pwd", "-x"], &[], "", "", "pwd: invalid option -- 'x'\nTry 'pwd --help' for more information.\n", 1);
    }

    #[test]
    fn logical() {
        let fs = fs_with(&[("d/", "")], &[("l", "/w/d")]);
        let o = run_full(&fs, &["env", "-C", "l", "pwd", "-L"], b"", &[("PWD", "/w/l")], Default::default());
        assert_eq!(o.out, "/w/l\n");
        let o = run_full(&fs, &["pwd", "-L"], b"", &[("PWD", "/w/./")], Default::default());
        assert_eq!(o.out, "/w\n");
    }
}
