//! The error path of the utilities (uucore's `UResult`): a utility written as a
//! [`Utility`] returns its exit status or a [`UError`] carrying the status and
//! the message, and the one [`Command`] implementation below prints the message
//! with the utility's name (`cut: f: No such file or directory`). Option parsing
//! ([`CommandContext::opts`]) returns it too, so `?` ends the command on a usage
//! error, `--help` or `--version` with what GNU prints and its status.

use super::{coreutils_version, parse, quote_locale, OptError, Parsed, Spec};
use crate::commands::{Command, CommandContext, CommandResult};
use crate::io::IoError;
use async_trait::async_trait;

/// Why a utility stops early.
#[derive(Debug)]
pub enum UError {
    /// Print `NAME: msg` on stderr and exit with `status`.
    Msg { status: i32, msg: String },
    /// Print `NAME: msg` (when `msg` is not empty) and GNU's `Try 'NAME --help'
    /// for more information.` on stderr, and exit with `status`.
    Usage { status: i32, msg: String },
    /// Exit with `status`; whatever had to be said was said (`--help`).
    Exit(i32),
    /// Writing failed (a closed pipe, the output limit): the command ends as
    /// an `IoError` always ends it (status 141, or the exec stops).
    Io(IoError),
}

/// What a [`Utility`] returns.
pub type UResult<T> = Result<T, UError>;

impl UError {
    /// `NAME: msg`, exit `status`.
    pub fn new(status: i32, msg: impl Into<String>) -> UError {
        UError::Msg { status, msg: msg.into() }
    }

    /// `NAME: msg` and the `Try ... --help` line, exit `status`.
    pub fn usage(status: i32, msg: impl Into<String>) -> UError {
        UError::Usage { status, msg: msg.into() }
    }

    /// `NAME: OPERAND: REASON` (the C library's words for a failed open or read), exit 1.
    pub fn file(operand: &str, reason: impl std::fmt::Display) -> UError {
        UError::new(1, format!("{operand}: {reason}"))
    }
}

impl From<IoError> for UError {
    fn from(e: IoError) -> UError {
        UError::Io(e)
    }
}

/// A utility that reports failures as a [`UError`]; it is a [`Command`] through
/// the implementation below, which prints the message.
#[async_trait]
pub trait Utility: Send + Sync {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32>;
}

#[async_trait]
impl<T: Utility> Command for T {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        match self.main(ctx).await {
            Ok(status) => Ok(status),
            Err(e) => ctx.report(e).await,
        }
    }
}

impl CommandContext<'_> {
    /// Print `e` as GNU does, with this utility's name, and give its exit status
    /// (the one place a [`UError`] becomes text).
    pub async fn report(&self, e: UError) -> CommandResult {
        match e {
            UError::Msg { status, msg } => {
                self.err(msg).await?;
                Ok(status)
            }
            UError::Usage { status, msg } => {
                self.usage_err(msg).await?;
                Ok(status)
            }
            UError::Exit(status) => Ok(status),
            UError::Io(e) => Err(e),
        }
    }

    /// Parse this command's arguments: a usage error, `--help` and `--version`
    /// come back as the [`UError`] that ends the command with GNU's output.
    pub async fn opts(&self, spec: &Spec) -> UResult<Parsed> {
        self.opts_of(self.args, spec).await
    }

    /// [`opts`](Self::opts) for a command that takes at most `max` operands: one
    /// more is GNU's `extra operand 'x'` usage error.
    pub async fn opts_at_most(&self, spec: &Spec, max: usize) -> UResult<Parsed> {
        let p = self.opts(spec).await?;
        match p.operands.get(max) {
            Some(extra) => Err(UError::usage(spec.bad_status, format!("extra operand {}", quote_locale(extra)))),
            None => Ok(p),
        }
    }

    /// [`opts`](Self::opts) over other arguments than the command's own.
    pub async fn opts_of(&self, args: &[String], spec: &Spec) -> UResult<Parsed> {
        match parse(args, spec) {
            Ok(p) => Ok(p),
            Err(OptError::Help) => {
                let text = super::help::gnu_help(self.name)
                    .unwrap_or_else(|| format!("Usage: {} {}\n", self.name, spec.usage));
                self.out(text.as_bytes()).await?;
                Err(UError::Exit(0))
            }
            Err(OptError::Version) => {
                self.out(coreutils_version(self.name).as_bytes()).await?;
                Err(UError::Exit(0))
            }
            Err(e) => Err(UError::usage(spec.bad_status, e.to_string())),
        }
    }
}
