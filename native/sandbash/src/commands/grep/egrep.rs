//! `egrep` and `fgrep`: Debian's grep 3.8 ships them as `exec grep -E "$@"`
//! (and `-F`) scripts without the upstream "obsolescent" warning, so they
//! run grep itself (messages say `grep:`, `--version` is grep's).

use crate::commands::run_util::{self, Exec, Ran};
use crate::commands::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

/// The grep option each name stands for: `-E` or `-F`.
pub struct GrepAs(pub &'static str);

#[async_trait]
impl Utility for GrepAs {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut argv = Vec::with_capacity(ctx.args.len() + 2);
        argv.push("grep".to_string());
        argv.push(self.0.to_string());
        argv.extend(ctx.args.iter().cloned());
        match run_util::run(ctx, Exec::from_ctx(ctx, &argv)).await? {
            Ran::Status(s) => Ok(s),
            Ran::NotFound => Ok(127),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn egrep_fgrep() {
        check(&["egrep", "a|x"], &[], "abc\nxyz\nq\n", "abc\nxyz\n", "", 0);
        check(&["fgrep", "a|x"], &[], "abc\na|x\n", "a|x\n", "", 0);
        check(&["fgrep", "-c", "."], &[], "a.b\nab\n", "1\n", "", 0);
        check(
            &["egrep", "-x"],
            &[],
            "",
            "",
            "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
            2,
        );
        check(&["egrep", "q", "nofile"], &[], "", "", "grep: nofile: No such file or directory\n", 2);
    }
}
