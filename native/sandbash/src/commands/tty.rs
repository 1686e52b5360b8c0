//! `tty`: a script's stdin is never a terminal here.

use super::util::{quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Tty;

const SPEC: Spec = Spec::new("s", &[("silent", Arg::No, "s"), ("quiet", Arg::No, "s")], "[OPTION]...");

#[async_trait]
impl Utility for Tty {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(_) => return Ok(2),
        };
        if let Some(extra) = p.operands.first() {
            return Err(UError::usage(2, format!("extra operand {}", quote_locale(extra))));
        }
        if !p.has("s") {
            ctx.out(b"not a tty\n").await?;
        }
        Ok(1)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn tty() {
        check(&["tty"], &[], "", "not a tty\n", "", 1);
        check(&["tty", "-s"], &[], "", "", "", 1);
        check(&["tty", "-x"], &[], "", "", "tty: invalid option -- 'x'\nTry 'tty --help' for more information.\n", 2);
    }
}
