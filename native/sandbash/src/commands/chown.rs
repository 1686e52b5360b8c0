//! `chown` and `chgrp`: every file belongs to the sandbox user, so the only
//! owners accepted are that user/group (by name), numeric ids, and `root`
//! (refused as for any unprivileged user). Nothing is recorded.

use super::util::{quote, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Chown;
pub struct Chgrp;

const SPEC: Spec = Spec::new(
    "cfhvRHLP",
    &[
        ("changes", Arg::No, "c"),
        ("silent", Arg::No, "f"),
        ("quiet", Arg::No, "f"),
        ("no-dereference", Arg::No, "h"),
        ("verbose", Arg::No, "v"),
        ("recursive", Arg::No, "R"),
        ("dereference", Arg::No, "deref"),
        ("reference", Arg::Yes, "reference"),
        ("from", Arg::Yes, "from"),
        ("preserve-root", Arg::No, "pr"),
        ("no-preserve-root", Arg::No, "npr"),
    ],
    "[OPTION]... [OWNER][:[GROUP]] FILE...",
);

/// `Some(true)`: the sandbox's own id; `Some(false)`: root (not permitted);
/// `None`: unknown.
fn known(name: &str, me: &str) -> Option<bool> {
    if name.is_empty() || name == me || name.bytes().all(|b| b.is_ascii_digit()) && name != "0" {
        Some(true)
    } else if name == "root" || name == "0" {
        Some(false)
    } else {
        None
    }
}

async fn run(ctx: &CommandContext<'_>, group_only: bool) -> UResult<i32> {
    let p = ctx.opts(&SPEC).await?;
    let reference = p.last("reference").is_some();
    let (spec, files) = match (reference, p.operands.split_first()) {
        (true, _) => (None, p.operands.as_slice()),
        (false, Some((s, rest))) if !rest.is_empty() => (Some(s.as_str()), rest),
        (false, Some((s, _))) => {
            return Err(UError::usage(1, format!("missing operand after {}", quote_locale(s))));
        }
        (false, None) => {
            return Err(UError::usage(1, "missing operand"));
        }
    };
    if reference && files.is_empty() {
        return Err(UError::usage(1, "missing operand"));
    }
    let me = ctx.sys.username.as_str();
    let mut permitted = true;
    if let Some(s) = spec {
        let (user, group) = if group_only {
            ("", Some(s))
        } else {
            match s.split_once([':', '.']) {
                Some((u, g)) => (u, Some(g)),
                None => (s, None),
            }
        };
        let u = known(user, me);
        let g = group.map(|g| known(g, me));
        if u.is_none() {
            return Err(UError::new(1, format!("invalid user: {}", quote_locale(s))));
        }
        if g == Some(None) {
            return Err(UError::new(1, format!("invalid group: {}", quote_locale(s))));
        }
        permitted = u == Some(true) && g.flatten() != Some(false);
    }
    let mut status = 0;
    for f in files {
        if let Err(e) = ctx.fs.symlink_metadata(&ctx.resolve(f)).await {
            if !p.has("f") {
                ctx.err(format!("cannot access {}: {e}", quote(f))).await?;
            }
            status = 1;
        } else if !permitted {
            if !p.has("f") {
                let what = if group_only { "group" } else { "ownership" };
                ctx.err(format!("changing {what} of {}: Operation not permitted", quote(f))).await?;
            }
            status = 1;
        }
    }
    Ok(status)
}

#[async_trait]
impl Utility for Chown {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        run(ctx, false).await
    }
}

#[async_trait]
impl Utility for Chgrp {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        run(ctx, true).await
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn owners() {
        let f = &[("a", "")];
        check(&["chown", "sandbox", "a"], f, "", "", "", 0);
        check(&["chown", "-R", "sandbox:sandbox", "a"], f, "", "", "", 0);
        check(&["chown", "1000:1000", "a"], f, "", "", "", 0);
        check(&["chgrp", "sandbox", "a"], f, "", "", "", 0);
        check(&["chown", "nobodyz", "a"], f, "", "", "chown: invalid user: 'nobodyz'\n", 1);
        check(&["chown", "root:nogroupz", "a"], f, "", "", "chown: invalid group: 'root:nogroupz'\n", 1);
        check(
            &["chown", "1000:1000", "nope"],
            f,
            "",
            "",
            "chown: cannot access 'nope': No such file or directory\n",
            1,
        );
        check(&["chgrp", "nogroupz", "a"], f, "", "", "chgrp: invalid group: 'nogroupz'\n", 1);
        check(&["chown", "root", "a"], f, "", "", "chown: changing ownership of 'a': Operation not permitted\n", 1);
        check(&["chown"], f, "", "", "chown: missing operand\nTry 'chown --help' for more information.\n", 1);
        check(
            &["chown", "x"],
            f,
            "",
            "",
            "chown: missing operand after 'x'\nTry 'chown --help' for more information.\n",
            1,
        );
    }
}
