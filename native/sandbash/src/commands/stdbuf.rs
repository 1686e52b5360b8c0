//! `stdbuf -i|-o|-e MODE COMMAND [ARG]...`: run a registered utility (see
//! `run_util`). Sandbox streams have no stdio buffers to change, so the
//! modes are only checked, with GNU's messages.

use super::util::{parse_size, quote_locale, Arg, Spec};
use super::run_util::{self, Exec, Ran};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Stdbuf;

const SPEC: Spec = Spec::new(
    "i:o:e:",
    &[("input", Arg::Yes, "i"), ("output", Arg::Yes, "o"), ("error", Arg::Yes, "e")],
    "OPTION... COMMAND",
)
.status(125)
.posix();

#[async_trait]
impl Utility for Stdbuf {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        for o in &p.opts {
            let mode = o.val.as_deref().unwrap_or("");
            if mode == "L" {
                if o.id == "i" {
                    return Err(UError::usage(125, "line buffering stdin is meaningless"));
                }
            } else if parse_size(mode).is_none() {
                return Err(UError::new(125, format!("invalid mode {}", quote_locale(mode))));
            }
        }
        let Some(name) = p.operands.first() else {
            return Err(UError::usage(125, "missing operand"));
        };
        if p.opts.is_empty() {
            return Err(UError::usage(125, "you must specify a buffering mode option"));
        }
        match run_util::run(ctx, Exec::from_ctx(ctx, &p.operands)).await? {
            Ran::Status(s) => Ok(s),
            Ran::NotFound => {
                ctx.err(format!("failed to run command {}: No such file or directory", quote_locale(name))).await?;
                Ok(127)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const TRY: &str = "Try 'stdbuf --help' for more information.\n";

    #[test]
    fn runs() {
        check(&["stdbuf", "-oL", "echo", "hi"], &[], "", "hi\n", "", 0);
        check(&["stdbuf", "-i0", "-e0", "-o1M", "cat"], &[], "x", "x", "", 0);
        check(&["stdbuf", "-o", "L", "false"], &[], "", "", "", 1);
        let msg = "stdbuf: failed to run command 'nosuch': No such file or directory\n";
        check(&["stdbuf", "-oL", "nosuch"], &[], "", "", msg, 127);
    }

    #[test]
    fn errors() {
        check(&["stdbuf"], &[], "", "", &format!("stdbuf: missing operand\n{TRY}"), 125);
        let msg = format!("stdbuf: you must specify a buffering mode option\n{TRY}");
        check(&["stdbuf", "echo", "hi"], &[], "", "", &msg, 125);
        check(&["stdbuf", "-oX", "echo"], &[], "", "", "stdbuf: invalid mode 'X'\n", 125);
        let msg = format!("stdbuf: line buffering stdin is meaningless\n{TRY}");
        check(&["stdbuf", "-iL", "cat"], &[], "", "", &msg, 125);
        check(&["stdbuf", "-x"], &[], "", "", &format!("stdbuf: invalid option -- 'x'\n{TRY}"), 125);
    }
}
