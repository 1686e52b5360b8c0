//! `rm`: remove files and directories (`-r`, `-f`, `-d`, `-v`, `-i`, `-I`,
//! `--interactive`, `--[no-]preserve-root`). Prompts read answers from stdin.

use super::util::{quote, Arg, Spec};
use super::util::file_util::{ask, dir_part, is_dot_or_dotdot, type_name};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FsError};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Rm;

const SPEC: Spec = Spec::new(
    "dfiIrRv",
    &[
        ("dir", Arg::No, "d"),
        ("force", Arg::No, "f"),
        ("interactive", Arg::Optional, "interactive"),
        ("recursive", Arg::No, "r"),
        ("verbose", Arg::No, "v"),
        ("preserve-root", Arg::Optional, "preserve-root"),
        ("no-preserve-root", Arg::No, "no-preserve-root"),
        ("one-file-system", Arg::No, "one-file-system"),
    ],
    "[OPTION]... [FILE]...",
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prompt {
    Never,
    Once,
    Always,
}

struct Opts {
    force: bool,
    prompt: Prompt,
    recursive: bool,
    empty_dirs: bool,
    verbose: bool,
    preserve_root: bool,
}

#[async_trait]
impl Utility for Rm {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut o = Opts {
            force: false,
            prompt: Prompt::Never,
            recursive: false,
            empty_dirs: false,
            verbose: false,
            preserve_root: true,
        };
        // -f, -i and -I override each other in order, as in GNU.
        for opt in &p.opts {
            match opt.id {
                "f" => (o.force, o.prompt) = (true, Prompt::Never),
                "i" => (o.force, o.prompt) = (false, Prompt::Always),
                "I" => (o.force, o.prompt) = (false, Prompt::Once),
                "interactive" => match opt.val.as_deref() {
                    None | Some("always" | "yes") => (o.force, o.prompt) = (false, Prompt::Always),
                    Some("once") => (o.force, o.prompt) = (false, Prompt::Once),
                    Some("never" | "no" | "none") => o.prompt = Prompt::Never,
                    Some(v) => {
                        ctx.err(format!(
                            "invalid argument {} for '--interactive'\nValid arguments are:\n  - 'never', 'no', 'none'\n  - 'once'\n  - 'always', 'yes'",
                            quote(v)
                        ))
                        .await?;
                        return Err(UError::usage(1, ""));
                    }
                },
                "r" => o.recursive = true,
                "d" => o.empty_dirs = true,
                "v" => o.verbose = true,
                "preserve-root" => o.preserve_root = true,
                "no-preserve-root" => o.preserve_root = false,
                _ => {}
            }
        }
        if p.operands.is_empty() {
            if o.force {
                return Ok(0);
            }
            return Err(UError::usage(1, "missing operand"));
        }
        let n = p.operands.len();
        if o.prompt == Prompt::Once && (o.recursive || n > 3) {
            let plural = if n == 1 { "" } else { "s" };
            let how = if o.recursive { " recursively" } else { "" };
            if !ask(ctx, &format!("remove {n} argument{plural}{how}")).await? {
                return Ok(0);
            }
        }
        let mut status = 0;
        for op in &p.operands {
            if !remove_operand(ctx, &o, op).await? {
                status = 1;
            }
        }
        Ok(status)
    }
}

/// Remove one operand; false when something could not be removed.
async fn remove_operand(ctx: &CommandContext<'_>, o: &Opts, op: &str) -> Result<bool, IoError> {
    let cannot = |e: FsError| format!("cannot remove {}: {e}", quote(op));
    let full = ctx.resolve(op);
    // `x/..` names nothing when `x` is missing; a trailing slash follows a link.
    let lookup = if op.is_empty() {
        Err(FsError::NotFound)
    } else if is_dot_or_dotdot(op) {
        match ctx.fs.metadata(&ctx.resolve(dir_part(op))).await {
            Ok(m) if m.is_dir() => ctx.fs.metadata(&full).await,
            Ok(_) => Err(FsError::NotADirectory),
            Err(e) => Err(e),
        }
    } else if op.ends_with('/') {
        ctx.fs.metadata(&full).await
    } else {
        ctx.fs.symlink_metadata(&full).await
    };
    let meta = match lookup {
        Ok(m) if op.ends_with('/') && !m.is_dir() => {
            ctx.err(cannot(FsError::NotADirectory)).await?;
            return Ok(false);
        }
        Ok(m) => m,
        Err(FsError::NotFound) if o.force => return Ok(true),
        Err(e) => {
            ctx.err(cannot(e)).await?;
            return Ok(false);
        }
    };
    // Trailing slashes show as one (`d//` prints as `d/`).
    let shown = if op.ends_with("//") { format!("{}/", op.trim_end_matches('/')) } else { op.to_string() };
    if !meta.is_dir() {
        return remove_file(ctx, o, &full, &shown, type_name(&meta)).await;
    }
    if !o.recursive && !o.empty_dirs {
        ctx.err(cannot(FsError::IsADirectory)).await?;
        return Ok(false);
    }
    if is_dot_or_dotdot(op) {
        ctx.err(format!("refusing to remove '.' or '..' directory: skipping {}", quote(op))).await?;
        return Ok(false);
    }
    if o.recursive && o.preserve_root && full == "/" {
        let same = if op == "/" { String::new() } else { " (same as '/')".to_string() };
        ctx.err(format!("it is dangerous to operate recursively on {}{same}", quote(op))).await?;
        ctx.err("use --no-preserve-root to override this failsafe").await?;
        return Ok(false);
    }
    remove_tree(ctx, o, &full, &shown).await
}

async fn remove_file(ctx: &CommandContext<'_>, o: &Opts, full: &str, shown: &str, kind: &str) -> Result<bool, IoError> {
    if o.prompt == Prompt::Always && !ask(ctx, &format!("remove {kind} {}", quote(shown))).await? {
        return Ok(true);
    }
    match ctx.fs.remove_file(full).await {
        Ok(()) => {
            if o.verbose {
                ctx.out(format!("removed {}\n", quote(shown)).as_bytes()).await?;
            }
            Ok(true)
        }
        Err(e) => {
            ctx.err(format!("cannot remove {}: {e}", quote(shown))).await?;
            Ok(false)
        }
    }
}

/// One directory being emptied: its entries and how far we got.
struct Frame {
    full: String,
    shown: String,
    entries: Vec<crate::fs::DirEntry>,
    next: usize,
    failed: bool,
}

/// Remove a directory and (with -r) everything below it, depth first, without recursion.
async fn remove_tree(ctx: &CommandContext<'_>, o: &Opts, full: &str, shown: &str) -> Result<bool, IoError> {
    let mut ok = true;
    let Some(first) = open_dir(ctx, o, full, shown, &mut ok).await? else { return Ok(ok) };
    let mut stack = vec![first];
    while let Some(top) = stack.last_mut() {
        if !ctx.still_running() {
            return Ok(false);
        }
        if top.next < top.entries.len() {
            let e = top.entries[top.next].clone();
            top.next += 1;
            let child_full = path::join(&top.full, &e.name);
            let child_shown = format!("{}/{}", top.shown.trim_end_matches('/'), e.name);
            let meta = match ctx.fs.symlink_metadata(&child_full).await {
                Ok(m) => m,
                Err(err) => {
                    ctx.err(format!("cannot remove {}: {err}", quote(&child_shown))).await?;
                    top.failed = true;
                    ok = false;
                    continue;
                }
            };
            if meta.is_dir() {
                if let Some(f) = open_dir(ctx, o, &child_full, &child_shown, &mut ok).await? {
                    stack.push(f);
                } else {
                    top.failed = true;
                }
            } else if !remove_file(ctx, o, &child_full, &child_shown, type_name(&meta)).await? {
                top.failed = true;
                ok = false;
            }
            continue;
        }
        let Some(done) = stack.pop() else { break };
        if done.failed {
            if let Some(parent) = stack.last_mut() {
                parent.failed = true;
            }
            continue;
        }
        let kept = o.prompt == Prompt::Always && !ask(ctx, &format!("remove directory {}", quote(&done.shown))).await?;
        if kept {
            if let Some(parent) = stack.last_mut() {
                parent.failed = true;
            }
            continue;
        }
        match ctx.fs.remove_dir(&done.full, false).await {
            Ok(()) => {
                if o.verbose {
                    ctx.out(format!("removed directory {}\n", quote(&done.shown)).as_bytes()).await?;
                }
            }
            Err(e) => {
                ctx.err(format!("cannot remove {}: {e}", quote(&done.shown))).await?;
                ok = false;
                if let Some(parent) = stack.last_mut() {
                    parent.failed = true;
                }
            }
        }
    }
    Ok(ok)
}

/// Start on a directory: list it (only with -r), asking first under -i.
/// `None` means it is to be left alone (declined or unreadable).
async fn open_dir(
    ctx: &CommandContext<'_>,
    o: &Opts,
    full: &str,
    shown: &str,
    ok: &mut bool,
) -> Result<Option<Frame>, IoError> {
    let entries = match ctx.fs.read_dir(full).await {
        Ok(e) => e,
        Err(e) => {
            ctx.err(format!("cannot remove {}: {e}", quote(shown))).await?;
            *ok = false;
            return Ok(None);
        }
    };
    if !entries.is_empty() && !o.recursive {
        ctx.err(format!("cannot remove {}: {}", quote(shown), FsError::NotEmpty)).await?;
        *ok = false;
        return Ok(None);
    }
    if !entries.is_empty()
        && o.prompt == Prompt::Always
        && !ask(ctx, &format!("descend into directory {}", quote(shown))).await?
    {
        return Ok(None);
    }
    Ok(Some(Frame { full: full.to_string(), shown: shown.to_string(), entries, next: 0, failed: false }))
}

#[cfg(test)]
mod tests {
    use super::super::util::file_util::testing::{check_on, fs_with};
    use super::super::util::testutil::{check, check_tree};

    #[test]
    fn files_and_dirs() {
        check_tree(&["rm", "-v", "f"], &[("f", ""), ("g", "x")], "", "removed 'f'\n", "", 0, "g\tx\n");
        check_tree(&["rm", "d"], &[("d/", "")], "", "", "rm: cannot remove 'd': Is a directory\n", 1, "d/\n");
        check_tree(
            &["rm", "-rv", "d"],
            &[("d/e/g", "")],
            "",
            "removed 'd/e/g'\nremoved directory 'd/e'\nremoved directory 'd'\n",
            "",
            0,
            "",
        );
        check_tree(
            &["rm", "-rv", "d/"],
            &[("d/e/f", "")],
            "",
            "removed 'd/e/f'\nremoved directory 'd/e'\nremoved directory 'd/'\n",
            "",
            0,
            "",
        );
        check(&["rm", "-rv", "d//"], &[("d/e/", "")], "", "removed directory 'd/e'\nremoved directory 'd/'\n", "", 0);
        check(
            &["rm", "-rv", "./d"],
            &[("d/e/", "")],
            "",
            "removed directory './d/e'\nremoved directory './d'\n",
            "",
            0,
        );
        check_tree(&["rm", "-dv", "e"], &[("e/", "")], "", "removed directory 'e'\n", "", 0, "");
        check(&["rm", "-d", "e"], &[("e/x/", "")], "", "", "rm: cannot remove 'e': Directory not empty\n", 1);
        check(&["rm", "f/"], &[("f", "")], "", "", "rm: cannot remove 'f/': Not a directory\n", 1);
        check(&["rm", "-r", "f/"], &[("f", "")], "", "", "rm: cannot remove 'f/': Not a directory\n", 1);
        check(&["rm", "-f", "d"], &[("d/", "")], "", "", "rm: cannot remove 'd': Is a directory\n", 1);
        check(
            &["rm", "-rvf", "d", "nope"],
            &[("d/s/", "")],
            "",
            "removed directory 'd/s'\nremoved directory 'd'\n",
            "",
            0,
        );
    }

    #[test]
    fn symlinks_are_removed_not_followed() {
        let fs = fs_with(&[("d/x", "")], &[("ld", "d")]);
        check_on(&fs, &["rm", "-rv", "ld"], "", "removed 'ld'\n", "", 0, "d/\nd/x\t\n");
        let fs = fs_with(&[("e/x/", "")], &[("le", "e")]);
        check_on(
            &fs,
            &["rm", "-v", "le/"],
            "",
            "",
            "rm: cannot remove 'le/': Is a directory\n",
            1,
            "e/\ne/x/\nle -> e\n",
        );
        check_on(&fs, &["rm", "-v", "le"], "", "removed 'le'\n", "", 0, "e/\ne/x/\n");
    }

    #[test]
    fn missing_and_force() {
        check(&["rm", "nope"], &[], "", "", "rm: cannot remove 'nope': No such file or directory\n", 1);
        check(&["rm", "-f", "nope"], &[], "", "", "", 0);
        check(&["rm", "-d", "nope"], &[], "", "", "rm: cannot remove 'nope': No such file or directory\n", 1);
        check(&["rm", ""], &[], "", "", "rm: cannot remove '': No such file or directory\n", 1);
        check(&["rm", "-f", ""], &[], "", "", "", 0);
        check(&["rm"], &[], "", "", "rm: missing operand\nTry 'rm --help' for more information.\n", 1);
        check(&["rm", "-f"], &[], "", "", "", 0);
        check(&["rm", "-x"], &[], "", "", "rm: invalid option -- 'x'\nTry 'rm --help' for more information.\n", 1);
        check(
            &["rm", "-r", "--interactive=never", "nope"],
            &[],
            "",
            "",
            "rm: cannot remove 'nope': No such file or directory\n",
            1,
        );
        check(
            &["rm", "-r", "--interactive=bad", "x"],
            &[],
            "",
            "",
            "rm: invalid argument 'bad' for '--interactive'\nValid arguments are:\n  - 'never', 'no', 'none'\n  - 'once'\n  - 'always', 'yes'\nTry 'rm --help' for more information.\n",
            1,
        );
    }

    #[test]
    fn dot_and_root_are_refused() {
        check(&["rm", "."], &[], "", "", "rm: cannot remove '.': Is a directory\n", 1);
        check(&["rm", "-d", "."], &[], "", "", "rm: refusing to remove '.' or '..' directory: skipping '.'\n", 1);
        check(&["rm", "-r", "."], &[], "", "", "rm: refusing to remove '.' or '..' directory: skipping '.'\n", 1);
        check(&["rm", "-rf", ".."], &[], "", "", "rm: refusing to remove '.' or '..' directory: skipping '..'\n", 1);
        check(&["rm", "-rf", "./"], &[], "", "", "rm: refusing to remove '.' or '..' directory: skipping './'\n", 1);
        check(
            &["rm", "-r", "d/."],
            &[("d/s/", "")],
            "",
            "",
            "rm: refusing to remove '.' or '..' directory: skipping 'd/.'\n",
            1,
        );
        check(&["rm", "-r", "d/."], &[], "", "", "rm: cannot remove 'd/.': No such file or directory\n", 1);
        check(&["rm", "-rf", "x/.."], &[], "", "", "", 0);
        check(
            &["rm", "-rf", "x/.."],
            &[("x/", "")],
            "",
            "",
            "rm: refusing to remove '.' or '..' directory: skipping 'x/..'\n",
            1,
        );
        let danger =
            "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n";
        check(&["rm", "-rf", "/"], &[], "", "", danger, 1);
        check(&["rm", "--preserve-root=all", "-rf", "/"], &[], "", "", danger, 1);
        check(
            &["rm", "-r", "//"],
            &[],
            "",
            "",
            "rm: it is dangerous to operate recursively on '//' (same as '/')\nrm: use --no-preserve-root to override this failsafe\n",
            1,
        );
        check(&["rm", "-r", "/./"], &[], "", "", "rm: refusing to remove '.' or '..' directory: skipping '/./'\n", 1);
        check(&["rm", "--no-preserve-root", "-rf", "/nonexist"], &[], "", "", "", 0);
    }

    #[test]
    fn prompts() {
        check_tree(&["rm", "-i", "q"], &[("q", "")], "y\n", "", "rm: remove regular empty file 'q'? ", 0, "");
        check_tree(&["rm", "-i", "q"], &[("q", "")], "n\n", "", "rm: remove regular empty file 'q'? ", 0, "q\t\n");
        check_tree(&["rm", "-i", "q"], &[("q", "")], "", "", "rm: remove regular empty file 'q'? ", 0, "q\t\n");
        check(&["rm", "-i", "nz"], &[("nz", "x\n")], "n\n", "", "rm: remove regular file 'nz'? ", 0);
        check(&["rm", "-fi", "a"], &[("a", "")], "", "", "rm: remove regular empty file 'a'? ", 0);
        check_tree(&["rm", "-if", "a"], &[("a", "")], "", "", "", 0, "");
        check_tree(
            &["rm", "-ri", "d"],
            &[("d/s/", ""), ("d/f", "")],
            "y\ny\ny\ny\n",
            "",
            "rm: descend into directory 'd'? rm: remove regular empty file 'd/f'? rm: remove directory 'd/s'? rm: remove directory 'd'? ",
            0,
            "",
        );
        check(&["rm", "-di", "e"], &[("e/", "")], "y\n", "", "rm: remove directory 'e'? ", 0);
        check_tree(
            &["rm", "-I", "a", "b", "c", "g"],
            &[("a", ""), ("b", ""), ("c", ""), ("g", "")],
            "n\n",
            "",
            "rm: remove 4 arguments? ",
            0,
            "a\t\nb\t\nc\t\ng\t\n",
        );
        check_tree(&["rm", "-I", "-r", "z"], &[("z/", "")], "y\n", "", "rm: remove 1 argument recursively? ", 0, "");
        check(&["rm", "-v", "-I", "q"], &[("q", "")], "", "removed 'q'\n", "", 0);
    }
}
