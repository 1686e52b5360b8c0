//! `dirname NAME...`: strip the last component of each name.

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Dirname;

const SPEC: Spec = Spec::new("z", &[("zero", Arg::No, "z")], "[OPTION] NAME...");

/// POSIX dirname: `a/b/` -> `a`, `a` -> `.`, `/` -> `/`.
pub fn dir_name(name: &str) -> String {
    let t = name.trim_end_matches('/');
    if t.is_empty() {
        return if name.starts_with('/') { "/".into() } else { ".".into() };
    }
    match t.rfind('/') {
        None => ".".into(),
        Some(i) => {
            let d = t[..i].trim_end_matches('/');
            if d.is_empty() {
                "/".into()
            } else {
                d.to_string()
            }
        }
    }
}

#[async_trait]
impl Utility for Dirname {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let end = if p.has("z") { '\0' } else { '\n' };
        let mut out = String::new();
        for n in &p.operands {
            out.push_str(&dir_name(n));
            out.push(end);
        }
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn names() {
        check(
            &["dirname", "/a/b/", "a", "/", "//", "a/", "", "a//b//c///", "/a"],
            &[],
            "",
            "/a\n.\n/\n/\n.\n.\na//b\n/\n",
            "",
            0,
        );
        check(&["dirname", "-z", "a/b"], &[], "", "a\0", "", 0);
        check(&["dirname"], &[], "", "", "dirname: missing operand\nTry 'dirname --help' for more information.\n", 1);
    }
}
