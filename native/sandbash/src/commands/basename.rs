//! `basename NAME [SUFFIX]`, `basename -a|-s SUFFIX NAME...`: strip directory and suffix.

use super::util::{quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Basename;

const SPEC: Spec = Spec::new(
    "as:z",
    &[("multiple", Arg::No, "a"), ("suffix", Arg::Yes, "s"), ("zero", Arg::No, "z")],
    "NAME [SUFFIX]\n  or:  basename OPTION... NAME...",
);

/// The last component of `name` (POSIX basename), minus `suffix` unless that is all of it.
pub fn base_name(name: &str, suffix: Option<&str>) -> String {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { String::new() } else { "/".into() };
    }
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match suffix {
        Some(s) if !s.is_empty() && base != s && base.ends_with(s) => base[..base.len() - s.len()].to_string(),
        _ => base.to_string(),
    }
}

#[async_trait]
impl Utility for Basename {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let suffix = p.last("s").map(String::from);
        let multiple = p.has("a") || suffix.is_some();
        let end = if p.has("z") { '\0' } else { '\n' };
        let ops = &p.operands;
        if ops.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let mut out = String::new();
        if multiple {
            for n in ops {
                out.push_str(&base_name(n, suffix.as_deref()));
                out.push(end);
            }
        } else {
            if let Some(extra) = ops.get(2) {
                return Err(UError::usage(1, format!("extra operand {}", quote_locale(extra))));
            }
            out.push_str(&base_name(&ops[0], ops.get(1).map(String::as_str)));
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
    fn names_and_suffixes() {
        check(&["basename", "/a/b/"], &[], "", "b\n", "", 0);
        check(&["basename", "a/b.txt", ".txt"], &[], "", "b\n", "", 0);
        check(&["basename", ".txt", ".txt"], &[], "", ".txt\n", "", 0);
        check(&["basename", "-s", ".c", "a.c", "b.c"], &[], "", "a\nb\n", "", 0);
        check(&["basename", "-a", "x/y", "z/"], &[], "", "y\nz\n", "", 0);
        check(&["basename", "/"], &[], "", "/\n", "", 0);
        check(&["basename", "//"], &[], "", "/\n", "", 0);
        check(&["basename", ""], &[], "", "\n", "", 0);
        check(&["basename", "-z", "a/b"], &[], "", "b\0", "", 0);
    }

    #[test]
    fn errors() {
        let t = "Try 'basename --help' for more information.\n";
        check(&["basename"], &[], "", "", &format!("basename: missing operand\n{t}"), 1);
        check(&["basename", "a", "b", "c"], &[], "", "", &format!("basename: extra operand 'c'\n{t}"), 1);
    }
}
