//! Helpers shared by rm, cp, mv and ls: interactive prompts and how a node's
//! type is named in messages.

use crate::commands::CommandContext;
use crate::fs::{FileType, Metadata};
use crate::io::IoError;

/// Print `NAME: question? ` on stderr and read one answer line from stdin:
/// yes when it starts with `y`/`Y` (GNU's `yesno`); end of input is no.
pub async fn ask(ctx: &CommandContext<'_>, question: &str) -> Result<bool, IoError> {
    ctx.stderr.write(format!("{}: {question}? ", ctx.name).as_bytes()).await?;
    let line = ctx.stdin.read_until(b'\n', 4096).await.unwrap_or_default();
    Ok(matches!(line.first(), Some(b'y' | b'Y')))
}

/// `regular empty file`, `regular file`, `directory`, `symbolic link`, as in
/// GNU's prompts and `stat -c %F`.
pub fn type_name(m: &Metadata) -> &'static str {
    match m.file_type {
        FileType::File if m.size == 0 => "regular empty file",
        FileType::File => "regular file",
        FileType::Dir => "directory",
        FileType::Symlink => "symbolic link",
    }
}

/// An operand's last component is `.` or `..` (trailing slashes ignored).
pub fn is_dot_or_dotdot(op: &str) -> bool {
    let t = op.trim_end_matches('/');
    let last = t.rsplit('/').next().unwrap_or(t);
    !t.is_empty() && (last == "." || last == "..")
}

/// The text before an operand's last component (`x/` for `x/..`), or `.`.
pub fn dir_part(op: &str) -> &str {
    let t = op.trim_end_matches('/');
    match t.rfind('/') {
        Some(0) => "/",
        Some(i) => &t[..i],
        None => ".",
    }
}

/// Test helpers: a sandbox holding symlinks too, and runs against it.
#[cfg(test)]
pub mod testing {
    use super::super::testutil::{block_on, make_fs, run_full, tree};
    use crate::fs::Fs;
    use std::sync::Arc;

    /// `files` as in `testutil::make_fs`, plus `(link, target)` symlinks under `/w`.
    pub fn fs_with(files: &[(&str, &str)], links: &[(&str, &str)]) -> Arc<dyn Fs> {
        let fs = make_fs(files);
        for (link, target) in links {
            block_on(fs.symlink(target, &format!("/w/{link}"))).expect("symlink");
        }
        fs
    }

    /// Run on `fs` and compare output, errors, status and the tree afterwards.
    #[track_caller]
    pub fn check_on(fs: &Arc<dyn Fs>, argv: &[&str], stdin: &str, out: &str, err: &str, status: i32, tree_after: &str) {
        let o = run_full(fs, argv, stdin.as_bytes(), &[], Default::default());
        assert_eq!((o.out.as_str(), o.err.as_str(), o.status), (out, err, status), "argv: {argv:?}");
        assert_eq!(tree(fs), tree_after, "tree after {argv:?}");
    }
}
