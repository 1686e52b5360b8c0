//! `basename` (`-a`, `-s SUFFIX`, `-z`) and `dirname` (`-z`): GNU's purely
//! textual path splitting.

use super::common::{quote, Arg, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Basename;
pub struct Dirname;

const BASENAME: Spec = Spec::new(
    "as:z",
    &[("multiple", Arg::No, "a"), ("suffix", Arg::Yes, "s"), ("zero", Arg::No, "z")],
    "NAME [SUFFIX]\n  or:  basename OPTION... NAME...",
);
const DIRNAME: Spec = Spec::new("z", &[("zero", Arg::No, "z")], "[OPTION] NAME...");

/// The last component, trailing slashes ignored; `/` for all-slash names.
fn base(name: &str, suffix: Option<&str>) -> String {
    let t = name.trim_end_matches('/');
    if t.is_empty() {
        return if name.is_empty() { String::new() } else { "/".into() };
    }
    let b = t.rsplit('/').next().unwrap_or(t);
    match suffix {
        Some(s) if !s.is_empty() && b.len() > s.len() && b.ends_with(s) => b[..b.len() - s.len()].to_string(),
        _ => b.to_string(),
    }
}

/// Everything before the last component, or `.`/`/`.
fn dir(name: &str) -> String {
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
impl Command for Basename {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&BASENAME).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        let end = if p.has("z") { "\0" } else { "\n" };
        if p.operands.is_empty() {
            ctx.usage_err("missing operand").await?;
            return Ok(1);
        }
        let multiple = p.has("a") || p.has("s");
        let (names, suffix): (&[String], Option<&str>) = if multiple {
            (&p.operands, p.last("s"))
        } else {
            match p.operands.len() {
                1 => (&p.operands[..1], None),
                2 => (&p.operands[..1], Some(p.operands[1].as_str())),
                _ => {
                    ctx.usage_err(format!("extra operand {}", quote(&p.operands[2]))).await?;
                    return Ok(1);
                }
            }
        };
        let mut out = String::new();
        for n in names {
            out.push_str(&base(n, suffix));
            out.push_str(end);
        }
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[async_trait]
impl Command for Dirname {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&DIRNAME).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        if p.operands.is_empty() {
            ctx.usage_err("missing operand").await?;
            return Ok(1);
        }
        let end = if p.has("z") { "\0" } else { "\n" };
        let out: String = p.operands.iter().map(|n| format!("{}{end}", dir(n))).collect();
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::check;

    #[test]
    fn basename() {
        check(&["basename", "/a/b.txt", ".txt"], &[], "", "b\n", "", 0);
        check(&["basename", "-s", ".txt", "a.txt", "b.txt"], &[], "", "a\nb\n", "", 0);
        check(&["basename", "-a", "x/y", "z/w"], &[], "", "y\nw\n", "", 0);
        check(&["basename", "/"], &[], "", "/\n", "", 0);
        check(&["basename", "a/b/"], &[], "", "b\n", "", 0);
        check(&["basename", ".txt", ".txt"], &[], "", ".txt\n", "", 0);
        check(&["basename", "-z", "a"], &[], "", "a\0", "", 0);
        check(
            &["basename"],
            &[],
            "",
            "",
            "basename: missing operand\nTry 'basename --help' for more information.\n",
            1,
        );
        check(
            &["basename", "a", "b", "c"],
            &[],
            "",
            "",
            "basename: extra operand 'c'\nTry 'basename --help' for more information.\n",
            1,
        );
    }

    #[test]
    fn dirname() {
        check(&["dirname", "a/b", "c", "/x", "//y", "a/", "."], &[], "", "a\n.\n/\n/\n.\n.\n", "", 0);
        check(&["dirname", "/a/b//c//"], &[], "", "/a/b\n", "", 0);
        check(&["dirname"], &[], "", "", "dirname: missing operand\nTry 'dirname --help' for more information.\n", 1);
    }
}
