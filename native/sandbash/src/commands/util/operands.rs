//! What every utility does with its context: resolve paths, print `name: msg`,
//! open and read operands (files, stdin, devices), stream lines, stop on the budget.

use crate::commands::CommandContext;
use crate::fs::path;
use crate::io::{Input, IoError};

impl CommandContext<'_> {
    /// Absolute sandbox path for an operand.
    pub fn resolve(&self, p: &str) -> String {
        path::resolve(self.cwd, p)
    }

    /// Print `name: msg` on stderr, as GNU utilities do.
    pub async fn err(&self, msg: impl AsRef<str>) -> Result<(), IoError> {
        let line = format!("{}: {}\n", self.name, msg.as_ref());
        self.stderr.write(line.as_bytes()).await
    }

    /// Print `bash: line N: name: msg` on stderr, as bash's own builtins do.
    pub async fn builtin_err(&self, msg: impl AsRef<str>) -> Result<(), IoError> {
        // The shell's name for errors (the script file, else `$0`).
        let who = self.shell.map_or_else(|| "bash".to_string(), |sh| sh.loc().who);
        let line = format!("{who}: line {}: {}: {}\n", self.line, self.name, msg.as_ref());
        self.stderr.write(line.as_bytes()).await
    }

    /// Write bytes to stdout.
    pub async fn out(&self, data: &[u8]) -> Result<(), IoError> {
        self.stdout.write(data).await
    }

    /// Open an operand as a stream: `-` and `/dev/stdin` are stdin, the
    /// character devices stream (`head -c 16 /dev/urandom`), files are read
    /// whole. The error is the C library wording.
    pub async fn open_input(&self, operand: &str) -> Result<Input, String> {
        if operand == "-" || operand == "/dev/stdin" {
            return Ok(self.stdin.clone());
        }
        let path = self.resolve(operand);
        if let Some(dev) = Input::device(&path) {
            return Ok(dev);
        }
        self.fs.open(&path).await.map_err(|e| e.to_string())
    }

    /// Read a whole operand: `-` is stdin, anything else a file. The error is
    /// the C library wording (`No such file or directory`). An endless device
    /// is read up to `max_string_bytes`, then stops the exec like `yes | sort`.
    pub async fn read_operand(&self, operand: &str) -> Result<Vec<u8>, String> {
        let path = self.resolve(operand);
        if let Some(dev) = Input::device(&path).filter(|_| path != "/dev/null") {
            let max = usize::try_from(self.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
            return dev.read_to_end(max).await.map_err(|_| {
                self.budget.input_exceeded();
                "input too large".to_string()
            });
        }
        if operand == "-" || path == "/dev/stdin" {
            let max = usize::try_from(self.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
            return self.stdin.read_to_end(max).await.map_err(|_| {
                // Ends the exec with the limit's name once the command returns.
                self.budget.input_exceeded();
                "input too large".to_string()
            });
        }
        self.fs.read(&self.resolve(operand)).await.map_err(|e| e.to_string())
    }

    /// Compiled-size cap for a regular expression (`max_regex_bytes`).
    pub fn regex_limit(&self) -> usize {
        usize::try_from(self.budget.limits.max_regex_bytes).unwrap_or(usize::MAX)
    }

    /// Check the deadline, cancellation and memory; long-running utilities
    /// call this in their loops.
    pub fn still_running(&self) -> bool {
        match self.budget.check() {
            Ok(()) => true,
            Err(stop) => {
                stop_exec(self.budget, stop);
                false
            }
        }
    }
}

/// A utility's loop was stopped by the exec's budget: the exec ends with
/// `stop` at its check after the command, even if what made it (memory held by
/// the utility) is gone by then.
pub fn stop_exec(budget: &crate::limits::Budget, stop: crate::limits::Stop) {
    budget.stop_from_job(stop);
}

/// [`crate::limits::checkpoint`] for a utility's inner loop: false (and the
/// exec ends, see [`stop_exec`]) when it must stop.
pub fn checkpoint_ok(budget: &crate::limits::Budget) -> bool {
    match crate::limits::checkpoint() {
        Ok(()) => true,
        Err(stop) => {
            stop_exec(budget, stop);
            false
        }
    }
}

/// Lines of one operand, streamed (so `yes | uniq | head -n1`-style
/// pipelines end and big files are never held whole). A file is read a
/// chunk at a time; stdin a line at a time, since other readers share it
/// (`paste - -` takes alternate lines).
pub enum LineSource {
    File(super::lines::LineReader),
    Stdin { input: Input, delim: u8, done: bool },
}

impl LineSource {
    /// The next line including its delimiter (the last line may lack it).
    /// After a line longer than `max_string_bytes` it ends (the exec fails
    /// with that limit), so an endless `/dev/zero` is not read forever.
    pub async fn next_line(&mut self, ctx: &CommandContext<'_>) -> Option<Vec<u8>> {
        match self {
            LineSource::File(r) => {
                if r.too_long {
                    return None;
                }
                let line = r.next_line().await.map(<[u8]>::to_vec);
                if r.too_long {
                    ctx.budget.input_exceeded();
                }
                line
            }
            LineSource::Stdin { input, delim, done } => {
                if *done {
                    return None;
                }
                let max = usize::try_from(ctx.budget.limits.max_string_bytes.max(1)).unwrap_or(usize::MAX);
                let line = input.read_until(*delim, max).await;
                if line.as_ref().is_some_and(|l| l.len() >= max && l.last() != Some(delim)) {
                    ctx.budget.input_exceeded();
                    *done = true;
                }
                line
            }
        }
    }
}

impl LineSource {
    /// The next line without its delimiter.
    pub async fn next_text(&mut self, ctx: &CommandContext<'_>) -> Option<Vec<u8>> {
        let delim = match self {
            LineSource::File(r) => r.delim(),
            LineSource::Stdin { delim, .. } => *delim,
        };
        let mut line = self.next_line(ctx).await?;
        if line.last() == Some(&delim) {
            line.pop();
        }
        Some(line)
    }
}

impl CommandContext<'_> {
    /// Open `operand` (`-` is stdin) for reading lines ended by `delim`. The
    /// error is the C library wording (`No such file or directory`).
    pub async fn open_lines(&self, operand: &str, delim: u8) -> Result<LineSource, String> {
        if operand == "-" || operand == "/dev/stdin" {
            return Ok(LineSource::Stdin { input: self.stdin.clone(), delim, done: false });
        }
        let input = self.open_input(operand).await?;
        Ok(LineSource::File(self.line_reader(input, delim)))
    }

    /// A line reader over `input`, its lines capped at `max_string_bytes`.
    pub fn line_reader(&self, input: Input, delim: u8) -> super::lines::LineReader {
        let max = usize::try_from(self.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
        super::lines::LineReader::new(input, delim, max)
    }
}

/// Split `data` into lines, each keeping its `\n` (the last may lack one).
pub fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split_inclusive(|&b| b == b'\n')
}
