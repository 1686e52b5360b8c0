//! `nproc`: the sandbox reports a fixed 4 processors (the host's count is
//! not exposed); `--all` the same, `--ignore=N` subtracts (never below 1).

use super::util::{quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Nproc;

/// The processor count scripts see.
pub const NPROC: u64 = 4;

const SPEC: Spec = Spec::new("", &[("all", Arg::No, "all"), ("ignore", Arg::Yes, "ignore")], "[OPTION]...");

#[async_trait]
impl Utility for Nproc {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts_at_most(&SPEC, 0).await?;
        let mut ignore = 0;
        if let Some(v) = p.last("ignore") {
            match v.parse::<u64>() {
                Ok(n) => ignore = n,
                Err(_) => {
                    return Err(UError::new(1, format!("invalid number: {}", quote_locale(v))));
                }
            }
        }
        ctx.out(format!("{}\n", NPROC.saturating_sub(ignore).max(1)).as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn nproc() {
        check(&["nproc"], &[], "", "4\n", "", 0);
        check(&["nproc", "--all"], &[], "", "4\n", "", 0);
        check(&["nproc", "--ignore=1"], &[], "", "3\n", "", 0);
        check(&["nproc", "--ignore=99"], &[], "", "1\n", "", 0);
        check(&["nproc", "x"], &[], "", "", "nproc: extra operand 'x'\nTry 'nproc --help' for more information.\n", 1);
    }
}
