//! What `head` and `tail` share: count parsing, `==> f <==` headers, and
//! opening operands with their GNU error wording.

pub(crate) mod head;
pub(crate) mod tail;
pub use head::Head;
pub use tail::Tail;

use crate::commands::util::{parse_size_checked, quote, quote_locale};
use crate::commands::CommandContext;
use crate::fs::FsError;
use crate::io::{Input, IoError};

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
pub fn verbosity(p: &crate::commands::util::Parsed) -> Option<bool> {
    p.opts.iter().rev().find_map(|o| match o.id {
        "q" => Some(false),
        "v" => Some(true),
        _ => None,
    })
}

/// Open a file operand (not stdin) as a stream. A missing file is reported
/// as "cannot open" before any header; a directory as "error reading" after it.
pub enum Opened {
    Stream(Input),
    /// Could not open: nothing printed for it, not even a header.
    OpenFailed,
    /// Opened but unreadable (a directory): header, then the error.
    ReadFailed(FsError),
}

pub async fn open(ctx: &CommandContext<'_>, name: &str) -> Result<Opened, IoError> {
    let path = ctx.resolve(name);
    let opened = match Input::device(&path) {
        Some(dev) => Ok(dev),
        None => ctx.fs.open(&path).await,
    };
    match opened {
        Ok(i) => Ok(Opened::Stream(i)),
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

/// Where the last `n` lines (or bytes) of `data` begin; a last line
/// without its delimiter counts as a line.
pub fn last_start(data: &[u8], lines: bool, n: u64, delim: u8) -> usize {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if !lines {
        return data.len().saturating_sub(n);
    }
    if n == 0 {
        return data.len();
    }
    let body = data.strip_suffix(&[delim]).unwrap_or(data);
    memchr::memrchr_iter(delim, body).nth(n - 1).map_or(0, |i| i + 1)
}

/// Buffered bytes past which `read_keeping_last` drops what cannot be
/// among the last lines any more.
const TRIM_AT: usize = 1 << 20;

/// Read `input` to its end holding only what may still be among its last
/// `n` lines (or bytes), so `tail` of a huge file needs the memory of its
/// answer, not of the file. What falls out is printed when `print_dropped`
/// (`head -n -N`). Returns the rest; the caller finds the last `n` in it.
/// More than `max_string_bytes` held at once ends the exec with that limit.
pub async fn read_keeping_last(
    ctx: &CommandContext<'_>,
    input: &Input,
    lines: bool,
    n: u64,
    delim: u8,
    print_dropped: bool,
) -> Result<Vec<u8>, IoError> {
    let max = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
    let mut buf = Vec::new();
    let mut limit = TRIM_AT;
    while let Some(chunk) = input.read_chunk().await {
        buf.extend_from_slice(&chunk);
        if buf.len() > limit {
            let start = last_start(&buf, lines, n, delim);
            if print_dropped {
                ctx.out(&buf[..start]).await?;
            }
            buf.drain(..start);
            limit = TRIM_AT.max(buf.len().saturating_mul(2));
            if buf.len() > max {
                ctx.budget.input_exceeded();
                break;
            }
        }
        if !ctx.still_running() {
            break;
        }
    }
    Ok(buf)
}
