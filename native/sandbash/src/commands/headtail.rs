//! What `head` and `tail` share: count parsing, `==> f <==` headers, and
//! opening operands with their GNU error wording.

use super::common::{parse_size_checked, quote, quote_locale};
use super::CommandContext;
use crate::fs::FsError;
use crate::io::IoError;

/// Parse a line or byte count (GNU suffixes allowed); the error is the
/// message after `NAME: `.
pub fn count(s: &str, lines: bool) -> Result<u64, String> {
    let what = if lines { "lines" } else { "bytes" };
    match parse_size_checked(s) {
        Ok(n) => Ok(n),
        Err(false) => Err(format!("invalid number of {what}: {}", quote_locale(s))),
        Err(true) => {
            Err(format!("invalid number of {what}: {}: Value too large for defined data type", quote_locale(s)))
        }
    }
}

/// Prints the `==> name <==` headers, a blank line before all but the first.
pub struct Headers {
    pub on: bool,
    first: bool,
}

impl Headers {
    /// Headers show with several operands, or always with `-v`, never with `-q`.
    pub fn new(verbose: Option<bool>, operands: usize) -> Headers {
        Headers { on: verbose.unwrap_or(operands > 1), first: true }
    }
    pub async fn show(&mut self, ctx: &CommandContext<'_>, name: &str) -> Result<(), IoError> {
        if !self.on {
            return Ok(());
        }
        let shown = if name == "-" { "standard input" } else { name };
        let sep = if self.first { "" } else { "\n" };
        self.first = false;
        ctx.out(format!("{sep}==> {shown} <==\n").as_bytes()).await
    }
}

/// The last of `-q`/`-v` given (`Some(true)` = always show headers).
pub fn verbosity(p: &super::common::Parsed) -> Option<bool> {
    p.opts.iter().rev().find_map(|o| match o.id {
        "q" => Some(false),
        "v" => Some(true),
        _ => None,
    })
}

/// Read a whole file operand (not stdin). A missing file is reported as
/// "cannot open" before any header; a directory as "error reading" after it.
pub enum Opened {
    Data(Vec<u8>),
    /// Could not open: nothing printed for it, not even a header.
    OpenFailed,
    /// Opened but unreadable (a directory): header, then the error.
    ReadFailed(FsError),
}

pub async fn open(ctx: &CommandContext<'_>, name: &str) -> Result<Opened, IoError> {
    match ctx.fs.read(&ctx.resolve(name)).await {
        Ok(d) => Ok(Opened::Data(d)),
        Err(FsError::IsADirectory) => Ok(Opened::ReadFailed(FsError::IsADirectory)),
        Err(e) => {
            ctx.err(format!("cannot open {} for reading: {e}", quote(name))).await?;
            Ok(Opened::OpenFailed)
        }
    }
}

/// `error reading 'name': ...`
pub async fn read_error(ctx: &CommandContext<'_>, name: &str, e: impl std::fmt::Display) -> Result<(), IoError> {
    let shown = if name == "-" { "standard input" } else { name };
    ctx.err(format!("error reading {}: {e}", quote(shown))).await
}

/// Start offsets of each line (terminated by `delim`, the last maybe not).
pub fn line_starts(data: &[u8], delim: u8) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(data.iter().enumerate().filter(|(_, &b)| b == delim).map(|(i, _)| i + 1).filter(|&i| i < data.len()));
    if data.is_empty() {
        v.clear();
    }
    v
}
