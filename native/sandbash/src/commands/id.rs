//! `id`: the sandbox has one user and group (uid/gid 1000, named after the
//! sandbox user) plus `root`, which exists but owns nothing.

use super::util::{quote, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Id;

const SPEC: Spec = Spec::new(
    "ugGnrza",
    &[
        ("user", Arg::No, "u"),
        ("group", Arg::No, "g"),
        ("groups", Arg::No, "G"),
        ("name", Arg::No, "n"),
        ("real", Arg::No, "r"),
        ("zero", Arg::No, "z"),
        ("context", Arg::No, "Z"),
    ],
    "[OPTION]... [USER]...",
);

#[async_trait]
impl Utility for Id {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let me = ctx.sys.username.clone();
        let users: Vec<Option<String>> = if p.operands.is_empty() {
            vec![Some(me.clone())]
        } else {
            p.operands.iter().map(|u| Some(u.clone())).collect()
        };
        let choices = ["u", "g", "G"].iter().filter(|c| p.has(c)).count();
        if choices > 1 {
            return Err(UError::new(1, "cannot print \"only\" of more than one choice"));
        }
        if choices == 0 && (p.has("n") || p.has("r")) {
            return Err(UError::new(1, "cannot print only names or real IDs in default format"));
        }
        let (names, end) = (p.has("n"), if p.has("z") { '\0' } else { '\n' });
        let mut status = 0;
        for u in users.into_iter().flatten() {
            let (id, name) = if u == "root" || u == "0" {
                (0, "root".to_string())
            } else if u == me || u == "1000" {
                (1000, me.clone())
            } else {
                ctx.err(format!("{}: no such user", quote(&u))).await?;
                status = 1;
                continue;
            };
            let shown = if names { name.clone() } else { id.to_string() };
            let line = if choices == 1 {
                format!("{shown}{end}")
            } else {
                format!("uid={id}({name}) gid={id}({name}) groups={id}({name})\n")
            };
            ctx.out(line.as_bytes()).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn id() {
        check(&["id"], &[], "", "uid=1000(sandbox) gid=1000(sandbox) groups=1000(sandbox)\n", "", 0);
        check(&["id", "-u"], &[], "", "1000\n", "", 0);
        check(&["id", "-un"], &[], "", "sandbox\n", "", 0);
        check(&["id", "-G"], &[], "", "1000\n", "", 0);
        check(&["id", "-g", "-n"], &[], "", "sandbox\n", "", 0);
        check(&["id", "root"], &[], "", "uid=0(root) gid=0(root) groups=0(root)\n", "", 0);
        check(&["id", "-u", "root"], &[], "", "0\n", "", 0);
        check(&["id", "nobodyz"], &[], "", "", "id: 'nobodyz': no such user\n", 1);
        let msg = "id: cannot print only names or real IDs in default format\n";
        check(&["id", "-n"], &[], "", "", msg, 1);
        let msg = "id: cannot print \"only\" of more than one choice\n";
        check(&["id", "-ugn"], &[], "", "", msg, 1);
    }
}
