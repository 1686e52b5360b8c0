//! `groups [USER]...`: the sandbox user belongs to its own group only; `root`
//! exists too (see `id`).

use super::util::{quote_locale, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Groups;

const SPEC: Spec = Spec::new("", &[], "[OPTION]... [USERNAME]...");

#[async_trait]
impl Utility for Groups {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let me = ctx.sys.username.as_str();
        if p.operands.is_empty() {
            ctx.out(format!("{me}\n").as_bytes()).await?;
            return Ok(0);
        }
        let mut status = 0;
        for u in &p.operands {
            // Each user is the only member of its own group.
            let group = if u == me || u == "root" { Some(u.as_str()) } else { None };
            match group {
                Some(g) => ctx.out(format!("{u} : {g}\n").as_bytes()).await?,
                None => {
                    ctx.err(format!("{}: no such user", quote_locale(u))).await?;
                    status = 1;
                }
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn groups() {
        check(&["groups"], &[], "", "sandbox\n", "", 0);
        check(&["groups", "root", "sandbox"], &[], "", "root : root\nsandbox : sandbox\n", "", 0);
        check(&["groups", "nosuchu"], &[], "", "", "groups: 'nosuchu': no such user\n", 1);
    }
}
