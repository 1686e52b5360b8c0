//! `users`: the sandbox keeps no login records, so the list is empty; an
//! optional FILE operand (a utmp file) is accepted as GNU accepts it.

use super::util::Spec;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Users;

const SPEC: Spec = Spec::new("", &[], "[OPTION]... [FILE]");

#[async_trait]
impl Utility for Users {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        if let Err(s) = ctx.parse_at_most(&SPEC, 1).await? {
            return Ok(s);
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn users() {
        check(&["users"], &[], "", "", "", 0);
        check(&["users", "/var/run/utmp"], &[], "", "", "", 0);
        check(
            &["users", "x", "y"],
            &[],
            "",
            "",
            "users: extra operand 'y'\nTry 'users --help' for more information.\n",
            1,
        );
    }
}
