//! Commands the embedding application answers (the Elixir `:builtins` option):
//! the interpreter hands the call to a [`HostHandler`] and prints its reply.
//! They run wherever a command can (pipelines, `$( )`, loops, `xargs`, `env`)
//! and come before shell builtins and utilities, after functions, as a command
//! on `PATH` would come after a function of the same name.

use super::{CommandContext, CommandResult};
use async_trait::async_trait;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One call of a host command.
#[derive(Clone, Debug)]
pub struct HostCall {
    pub name: String,
    pub args: Vec<String>,
    /// Everything the command's standard input held (at most `max_stdin_bytes`).
    pub stdin: Vec<u8>,
    /// The exported variables.
    pub env: Vec<(String, String)>,
    pub cwd: String,
}

/// What a host command printed and its exit status.
#[derive(Clone, Debug, Default)]
pub struct HostReply {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: i32,
}

/// Answers host-command calls. It must come back on its own (time out itself):
/// the interpreter waits for it, though a cancelled or timed-out exec drops the wait.
#[async_trait]
pub trait HostHandler: Send + Sync {
    async fn call(&self, call: HostCall) -> HostReply;
}

/// The host commands of a session: their names and who answers them.
#[derive(Clone)]
pub struct HostCommands {
    names: BTreeSet<String>,
    handler: Arc<dyn HostHandler>,
    max_stdin_bytes: usize,
}

impl HostCommands {
    pub fn new(names: impl IntoIterator<Item = String>, handler: Arc<dyn HostHandler>, max_stdin_bytes: u64) -> Self {
        HostCommands {
            names: names.into_iter().collect(),
            handler,
            max_stdin_bytes: usize::try_from(max_stdin_bytes).unwrap_or(usize::MAX),
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// Run `ctx.name` through the handler. Standard input is read whole first
    /// (the handler gets it as one value), bounded by the bridge's size cap.
    pub async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let stdin = match ctx.stdin.read_to_end(self.max_stdin_bytes).await {
            Ok(data) => data,
            Err(max) => {
                let msg = format!("{}: standard input too large (max_reply_bytes: {max})\n", ctx.name);
                ctx.stderr.write(msg.as_bytes()).await?;
                return Ok(1);
            }
        };
        // A large input is copied again into the request: not on a caller's thread.
        crate::limits::inline::leave_above(stdin.len(), crate::limits::inline::BYTES).await;
        let call = HostCall {
            name: ctx.name.to_string(),
            args: ctx.args.to_vec(),
            stdin,
            env: ctx.env.exported(),
            cwd: ctx.cwd.to_string(),
        };
        let reply = self.handler.call(call).await;
        ctx.stdout.write(&reply.stdout).await?;
        ctx.stderr.write(&reply.stderr).await?;
        Ok(reply.status & 0xff)
    }
}
