//! `nice [-n N] [COMMAND [ARG]...]`: run a registered utility (see
//! `run_util`) at a niceness that a nested `nice` reports. The sandbox user
//! is not root, so a negative adjustment fails with GNU's warning and the
//! command runs at the current niceness.

use super::util::{quote_locale, Arg, Spec};
use super::run_util::{self, Exec, Ran};
use super::{CommandContext, EnvView};
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Nice;

const SPEC: Spec = Spec::new("n:", &[("adjustment", Arg::Yes, "n")], "[OPTION] [COMMAND [ARG]...]").status(125).posix();

/// Where the niceness travels to the utilities `nice` runs: a name no shell
/// variable can have, so it never shows in `env` or a child's variables.
const NICE_KEY: &str = "\0niceness";

/// The caller's environment plus the niceness of the command being run.
struct Niced<'a> {
    base: &'a dyn EnvView,
    level: i64,
}

impl EnvView for Niced<'_> {
    fn get(&self, name: &str) -> Option<String> {
        if name == NICE_KEY {
            return Some(self.level.to_string());
        }
        self.base.get(name)
    }
    fn exported(&self) -> Vec<(String, String)> {
        self.base.exported()
    }
}

/// An adjustment as strtol reads it (`5`, `+5`, `-5`), clamped to what
/// setpriority could ever apply.
fn parse_adjustment(s: &str) -> Option<i64> {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.bytes().fold(0i64, |a, d| a.saturating_mul(10).saturating_add(i64::from(d - b'0')).min(1000));
    Some(if neg { -n } else { n })
}

#[async_trait]
impl Utility for Nice {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // `-N`, `--N`, `-+N`: the old adjustment syntax, before getopt sees them.
        let mut args = ctx.args;
        let mut given: Option<String> = None;
        while let Some(a) = args.first() {
            let b = a.as_bytes();
            let legacy = b.len() > 1
                && b[0] == b'-'
                && (b[1].is_ascii_digit() || (matches!(b[1], b'+' | b'-') && b.get(2).is_some_and(u8::is_ascii_digit)));
            if !legacy {
                break;
            }
            given = Some(a[1..].to_string());
            args = &args[1..];
        }
        let p = ctx.opts_of(args, &SPEC).await?;
        if let Some(v) = p.last("n") {
            given = Some(v.to_string());
        }
        let current = ctx.env.get(NICE_KEY).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
        let adjustment = match &given {
            None => 10,
            Some(v) => match parse_adjustment(v) {
                Some(n) => n,
                None => {
                    return Err(UError::new(125, format!("invalid adjustment {}", quote_locale(v))));
                }
            },
        };
        if p.operands.is_empty() {
            if given.is_some() {
                return Err(UError::usage(125, "a command must be given with an adjustment"));
            }
            ctx.out(format!("{current}\n").as_bytes()).await?;
            return Ok(0);
        }
        let mut level = (current + adjustment).clamp(-20, 19);
        if level < current {
            ctx.err("cannot set niceness: Permission denied").await?;
            level = current;
        }
        let env = Niced { base: ctx.env, level };
        let mut e = Exec::from_ctx(ctx, &p.operands);
        e.env = &env;
        match run_util::run(ctx, e).await? {
            Ran::Status(s) => Ok(s),
            Ran::NotFound => {
                ctx.err(format!("{}: No such file or directory", quote_locale(&p.operands[0]))).await?;
                Ok(127)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn niceness() {
        check(&["nice"], &[], "", "0\n", "", 0);
        check(&["nice", "nice"], &[], "", "10\n", "", 0);
        check(&["nice", "-n", "5", "nice"], &[], "", "5\n", "", 0);
        check(&["nice", "-5", "nice"], &[], "", "5\n", "", 0);
        check(&["nice", "--adjustment=3", "nice"], &[], "", "3\n", "", 0);
        check(&["nice", "-n", "3", "-n", "4", "nice"], &[], "", "4\n", "", 0);
        check(&["nice", "-n", "50", "nice"], &[], "", "19\n", "", 0);
        check(&["nice", "-n", "5", "nice", "-n", "3", "nice"], &[], "", "8\n", "", 0);
        // As a user other than root (GNU run as nobody).
        check(&["nice", "-n", "-5", "nice"], &[], "", "0\n", "nice: cannot set niceness: Permission denied\n", 0);
        check(&["nice", "echo", "hi"], &[], "", "hi\n", "", 0);
    }

    #[test]
    fn errors() {
        let msg = "nice: a command must be given with an adjustment\nTry 'nice --help' for more information.\n";
        check(&["nice", "-n", "5"], &[], "", "", msg, 125);
        check(&["nice", "-n", "x", "echo"], &[], "", "", "nice: invalid adjustment 'x'\n", 125);
        check(&["nice", "nosuch"], &[], "", "", "nice: 'nosuch': No such file or directory\n", 127);
        check(&["nice", "--", "-n"], &[], "", "", "nice: '-n': No such file or directory\n", 127);
    }
}
