//! `timeout DURATION COMMAND...`: run a registered utility (see `run_util`)
//! and stop it when the time is up (status 124). Signals do not exist here:
//! `-s` and `-k` are checked and accepted; `--preserve-status` reports what
//! the signal would have caused (128 + its number).

use super::util::{parse_duration, quote, quote_locale, Arg, Spec};
use super::run_util::{self, Exec, Ran};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::time::Duration;

pub struct Timeout;

const SPEC: Spec = Spec::new(
    "fk:s:v",
    &[
        ("foreground", Arg::No, "f"),
        ("kill-after", Arg::Yes, "k"),
        ("signal", Arg::Yes, "s"),
        ("verbose", Arg::No, "v"),
        ("preserve-status", Arg::No, "p"),
    ],
    "[OPTION] DURATION COMMAND [ARG]...",
)
.status(125)
.posix();

/// Signal number of `TERM`, `SIGKILL`, `9`.
fn signal(s: &str) -> Option<i32> {
    const NAMES: [&str; 15] = [
        "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM",
        "TERM",
    ];
    if let Ok(n) = s.parse::<i32>() {
        return (0..=64).contains(&n).then_some(n);
    }
    let name = s.strip_prefix("SIG").unwrap_or(s);
    NAMES.iter().position(|&n| n == name).map(|i| i as i32 + 1)
}

#[async_trait]
impl Utility for Timeout {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let (mut sig, mut preserve, mut verbose) = (15, false, false);
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            match o.id {
                "s" => match signal(v) {
                    Some(n) => sig = n,
                    None => {
                        return Err(UError::usage(125, format!("{}: invalid signal", quote_locale(v))));
                    }
                },
                "k" if parse_duration(v).is_none() => {
                    return Err(UError::usage(125, format!("invalid time interval {}", quote_locale(v))));
                }
                "p" => preserve = true,
                "v" => verbose = true,
                _ => {}
            }
        }
        if p.operands.len() < 2 {
            return Err(UError::usage(125, if p.operands.is_empty() { "missing operand".to_string() } else { String::new() }));
        }
        let Some(secs) = parse_duration(&p.operands[0]) else {
            return Err(UError::usage(125, format!("invalid time interval {}", quote_locale(&p.operands[0]))));
        };
        let argv = &p.operands[1..];
        let run = run_util::run(ctx, Exec::from_ctx(ctx, argv));
        let ran = match Duration::try_from_secs_f64(secs).ok().filter(|d| !d.is_zero()) {
            Some(d) => match tokio::time::timeout(d, run).await {
                Ok(r) => r?,
                Err(_) => {
                    if verbose {
                        ctx.err(format!("sending signal {} to command {}", sig_name(sig), quote(&argv[0]))).await?;
                    }
                    return Ok(if preserve { 128 + sig } else { 124 });
                }
            },
            None => run.await?,
        };
        match ran {
            Ran::Status(s) => Ok(s),
            Ran::NotFound => {
                ctx.err(format!("failed to run command {}: No such file or directory", quote(&argv[0]))).await?;
                Ok(127)
            }
        }
    }
}

fn sig_name(n: i32) -> String {
    match n {
        9 => "KILL".into(),
        15 => "TERM".into(),
        2 => "INT".into(),
        1 => "HUP".into(),
        n => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const TRY: &str = "Try 'timeout --help' for more information.\n";

    #[test]
    fn runs() {
        check(&["timeout", "0.1", "sleep", "5"], &[], "", "", "", 124);
        check(&["timeout", "--preserve-status", "0.1", "sleep", "5"], &[], "", "", "", 143);
        check(&["timeout", "-s", "KILL", "--preserve-status", "0.1", "sleep", "5"], &[], "", "", "", 137);
        check(&["timeout", "5", "echo", "hi"], &[], "", "hi\n", "", 0);
        check(&["timeout", "0", "false"], &[], "", "", "", 1);
        check(&["timeout", "-k", "1", "1m", "cat"], &[], "in", "in", "", 0);
        check(
            &["timeout", "1", "nosuch"],
            &[],
            "",
            "",
            "timeout: failed to run command 'nosuch': No such file or directory\n",
            127,
        );
    }

    #[test]
    fn errors() {
        check(&["timeout", "x", "sleep", "1"], &[], "", "", &format!("timeout: invalid time interval 'x'\n{TRY}"), 125);
        check(&["timeout", "1"], &[], "", "", TRY, 125);
        check(
            &["timeout", "-s", "FOO", "1", "true"],
            &[],
            "",
            "",
            &format!("timeout: 'FOO': invalid signal\n{TRY}"),
            125,
        );
        check(
            &["timeout", "-k", "x", "1", "true"],
            &[],
            "",
            "",
            &format!("timeout: invalid time interval 'x'\n{TRY}"),
            125,
        );
    }
}
