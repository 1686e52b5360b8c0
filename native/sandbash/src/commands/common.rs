//! Helpers shared by the utilities: error messages, path resolution, reading
//! operands (files or stdin), and small option-parsing aids.

use super::CommandContext;
use crate::fs::path;
use crate::io::IoError;

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
        let line = format!(
            "bash: line {}: {}: {}\n",
            self.line,
            self.name,
            msg.as_ref()
        );
        self.stderr.write(line.as_bytes()).await
    }

    /// Write bytes to stdout.
    pub async fn out(&self, data: &[u8]) -> Result<(), IoError> {
        self.stdout.write(data).await
    }

    /// Read a whole operand: `-` is stdin, anything else a file. The error is
    /// the C library wording (`No such file or directory`).
    pub async fn read_operand(&self, operand: &str) -> Result<Vec<u8>, String> {
        if operand == "-" {
            let max = self
                .budget
                .limits
                .max_string_bytes
                .max(self.budget.limits.max_output_bytes) as usize;
            return self
                .stdin
                .read_to_end(max)
                .await
                .map_err(|_| "input too large".to_string());
        }
        self.fs
            .read(&self.resolve(operand))
            .await
            .map_err(|e| e.to_string())
    }

    /// Check the deadline and cancellation; long-running utilities call this in their loops.
    pub fn still_running(&self) -> bool {
        self.budget.check().is_ok()
    }
}

/// Split `data` into lines, each keeping its `\n` (the last may lack one).
pub fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split_inclusive(|&b| b == b'\n')
}
