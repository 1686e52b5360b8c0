//! `cp`: copy files and directory trees. Supports `-r/-R`, `-a`, `-p`,
//! `--preserve`, `-P/-d/-L/-H`, `-n`, `-i`, `-f`, `-u`, `-v`, `-b`, `-s`,
//! `-t`, `-T`, `--parents`, `--remove-destination`. `-l` (hard link) copies,
//! since the sandbox filesystem has no hard links.

use super::util::{quote, quote_locale, quotef, Arg, Spec};
use super::util::file_util::ask;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FsError, Metadata};
use crate::io::IoError;
use async_trait::async_trait;
use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;

pub struct Cp;

const SPEC: Spec = Spec::new(
    "abdfHilLnPpRrsS:t:TuvxZ",
    &[
        ("archive", Arg::No, "a"),
        ("backup", Arg::Optional, "b"),
        ("dereference", Arg::No, "L"),
        ("force", Arg::No, "f"),
        ("interactive", Arg::No, "i"),
        ("link", Arg::No, "l"),
        ("no-clobber", Arg::No, "n"),
        ("no-dereference", Arg::No, "P"),
        ("no-preserve", Arg::Yes, "no-preserve"),
        ("no-target-directory", Arg::No, "T"),
        ("one-file-system", Arg::No, "x"),
        ("parents", Arg::No, "parents"),
        ("preserve", Arg::Optional, "preserve"),
        ("recursive", Arg::No, "r"),
        ("reflink", Arg::Optional, "reflink"),
        ("remove-destination", Arg::No, "remove-destination"),
        ("sparse", Arg::Yes, "sparse"),
        ("strip-trailing-slashes", Arg::No, "strip-trailing-slashes"),
        ("suffix", Arg::Yes, "S"),
        ("symbolic-link", Arg::No, "s"),
        ("target-directory", Arg::Yes, "t"),
        ("update", Arg::Optional, "u"),
        ("verbose", Arg::No, "v"),
        ("context", Arg::Optional, "Z"),
    ],
    "[OPTION]... [-T] SOURCE DEST",
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Deref {
    Never,
    CommandLine,
    Always,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Clobber {
    Yes,
    No,
    Ask,
}

struct Opts {
    recursive: bool,
    deref: Deref,
    keep_mode: bool,
    keep_time: bool,
    clobber: Clobber,
    update: bool,
    verbose: bool,
    backup: Option<String>,
    symbolic: bool,
    remove_first: bool,
    force: bool,
}

/// One run's state: options, top-level names for messages, and the
/// directories this run created (copying one of them would never end).
struct Run<'c, 'a> {
    ctx: &'c CommandContext<'a>,
    o: Opts,
    created: HashSet<String>,
    top_src: String,
    top_dst: String,
}

type Step<'f> = Pin<Box<dyn Future<Output = Result<bool, IoError>> + Send + 'f>>;

#[async_trait]
impl Utility for Cp {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut o = Opts {
            recursive: false,
            deref: Deref::Always,
            keep_mode: false,
            keep_time: false,
            clobber: Clobber::Yes,
            update: false,
            verbose: p.has("v"),
            backup: None,
            symbolic: p.has("s"),
            remove_first: p.has("remove-destination"),
            force: p.has("f"),
        };
        let mut deref_given = false;
        for opt in &p.opts {
            match opt.id {
                "a" => {
                    (o.recursive, o.deref, o.keep_mode, o.keep_time) = (true, Deref::Never, true, true);
                    deref_given = true;
                }
                "r" | "R" => o.recursive = true,
                "d" | "P" => (o.deref, deref_given) = (Deref::Never, true),
                "L" => (o.deref, deref_given) = (Deref::Always, true),
                "H" => (o.deref, deref_given) = (Deref::CommandLine, true),
                "p" => (o.keep_mode, o.keep_time) = (true, true),
                "f" => o.clobber = Clobber::Yes,
                "i" => o.clobber = Clobber::Ask,
                "n" => o.clobber = Clobber::No,
                "u" => o.update = true,
                "b" | "S" => o.backup = Some(String::new()),
                "preserve" | "no-preserve" => {
                    let on = opt.id == "preserve";
                    for item in opt.val.as_deref().unwrap_or("mode,ownership,timestamps").split(',') {
                        match item {
                            "mode" => o.keep_mode = on,
                            "timestamps" => o.keep_time = on,
                            "all" => (o.keep_mode, o.keep_time) = (on, on),
                            "ownership" | "links" | "context" | "xattr" => {}
                            _ => {
                                ctx.err(format!(
                                    "invalid argument {} for '--{}'\nValid arguments are:\n  - 'mode'\n  - 'timestamps'\n  - 'ownership'\n  - 'links'\n  - 'context'\n  - 'xattr'\n  - 'all'",
                                    quote(item),
                                    opt.id
                                ))
                                .await?;
                                return Err(UError::usage(1, ""));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if o.backup.is_some() {
            let suffix = p.last("S").map(String::from).or_else(|| ctx.env.get("SIMPLE_BACKUP_SUFFIX"));
            o.backup = Some(suffix.unwrap_or_else(|| "~".to_string()));
        }
        if o.recursive && !deref_given {
            o.deref = Deref::Never;
        }
        let Some(plan) = plan_targets(ctx, &p.operands, p.last("t"), p.has("T"), p.has("parents"), true).await? else {
            return Ok(1);
        };
        let mut run = Run { ctx, o, created: HashSet::new(), top_src: String::new(), top_dst: String::new() };
        let mut ok = true;
        for (src, dst) in plan {
            if !ctx.still_running() {
                return Ok(1);
            }
            if p.has("parents") && !make_parents(&run, &src, &dst).await? {
                ok = false;
                continue;
            }
            run.top_src = src.clone();
            run.top_dst = dst.clone();
            ok &= run.copy(&src, &dst, true).await?;
        }
        Ok(if ok { 0 } else { 1 })
    }
}

/// Pair each source with its destination name, or print why not (`None`).
pub(super) async fn plan_targets(
    ctx: &CommandContext<'_>,
    ops: &[String],
    target_dir: Option<&str>,
    no_target_dir: bool,
    parents: bool,
    follow_last: bool,
) -> Result<Option<Vec<(String, String)>>, IoError> {
    if ops.is_empty() {
        ctx.usage_err("missing file operand").await?;
        return Ok(None);
    }
    let into = |dir: &str, srcs: &[String]| -> Vec<(String, String)> {
        srcs.iter()
            .map(|s| {
                let name = if parents { s.trim_end_matches('/') } else { base_name(s) };
                let d = dir.trim_end_matches('/');
                (s.clone(), if d.is_empty() { format!("/{name}") } else { format!("{d}/{name}") })
            })
            .collect()
    };
    if let Some(t) = target_dir {
        match ctx.fs.metadata(&ctx.resolve(t)).await {
            Ok(m) if m.is_dir() => return Ok(Some(into(t, ops))),
            Ok(_) => ctx.err(format!("target directory {}: {}", quote(t), FsError::NotADirectory)).await?,
            Err(e) => ctx.err(format!("target directory {}: {e}", quote(t))).await?,
        }
        return Ok(None);
    }
    if ops.len() == 1 {
        ctx.usage_err(format!("missing destination file operand after {}", quote(&ops[0]))).await?;
        return Ok(None);
    }
    let (srcs, last) = ops.split_at(ops.len() - 1);
    let last = &last[0];
    if no_target_dir {
        if ops.len() > 2 {
            ctx.usage_err(format!("extra operand {}", quote_locale(&ops[2]))).await?;
            return Ok(None);
        }
        return Ok(Some(vec![(ops[0].clone(), last.clone())]));
    }
    let meta = if follow_last {
        ctx.fs.metadata(&ctx.resolve(last)).await
    } else {
        ctx.fs.symlink_metadata(&ctx.resolve(last)).await
    };
    if meta.as_ref().is_ok_and(Metadata::is_dir) {
        return Ok(Some(into(last, srcs)));
    }
    if parents {
        ctx.usage_err("with --parents, the destination must be a directory").await?;
        return Ok(None);
    }
    if ops.len() > 2 {
        let e = meta.err().unwrap_or(FsError::NotADirectory);
        ctx.err(format!("target {}: {e}", quote(last))).await?;
        return Ok(None);
    }
    Ok(Some(vec![(ops[0].clone(), last.clone())]))
}

/// The last component of an operand, trailing slashes ignored.
pub(super) fn base_name(s: &str) -> &str {
    let t = s.trim_end_matches('/');
    if t.is_empty() {
        return if s.is_empty() { "" } else { "/" };
    }
    t.rsplit('/').next().unwrap_or(t)
}

/// `--parents`: create the source's directories under the target (`d -> t/d`).
async fn make_parents(run: &Run<'_, '_>, src: &str, dst: &str) -> Result<bool, IoError> {
    let ctx = run.ctx;
    let rel = src.trim_end_matches('/');
    let root_len = dst.len() - rel.len();
    for (i, _) in rel.match_indices('/').filter(|&(i, _)| i > 0) {
        let (s, d) = (&rel[..i], &dst[..root_len + i]);
        let full = ctx.resolve(d);
        if ctx.fs.metadata(&full).await.is_ok_and(|m| m.is_dir()) {
            continue;
        }
        if let Err(e) = ctx.fs.mkdir(&full, false).await {
            ctx.err(format!("cannot make directory {}: {e}", quote(d))).await?;
            return Ok(false);
        }
        if run.o.verbose {
            ctx.out(format!("{s} -> {d}\n").as_bytes()).await?;
        }
    }
    Ok(true)
}

impl Run<'_, '_> {
    /// Copy `src` to `dst` (names as shown in messages); false on any failure.
    fn copy<'f>(&'f mut self, src: &'f str, dst: &'f str, top: bool) -> Step<'f> {
        Box::pin(async move {
            let ctx = self.ctx;
            let (src_full, dst_full) = (ctx.resolve(src), ctx.resolve(dst));
            let follow = match self.o.deref {
                Deref::Always => true,
                Deref::CommandLine => top,
                Deref::Never => false,
            };
            let stat = if follow || src.ends_with('/') {
                ctx.fs.metadata(&src_full).await
            } else {
                ctx.fs.symlink_metadata(&src_full).await
            };
            let sm = match stat {
                Ok(m) => m,
                Err(e) => return self.fail(format!("cannot stat {}: {e}", quote(src))).await,
            };
            if sm.is_dir() {
                return self.copy_dir(src, dst, &src_full, &dst_full, &sm).await;
            }
            self.copy_leaf(src, dst, &src_full, &dst_full, &sm).await
        })
    }

    async fn fail(&self, msg: String) -> Result<bool, IoError> {
        self.ctx.err(msg).await?;
        Ok(false)
    }

    async fn copy_dir(
        &mut self,
        src: &str,
        dst: &str,
        src_full: &str,
        dst_full: &str,
        sm: &Metadata,
    ) -> Result<bool, IoError> {
        let ctx = self.ctx;
        if !self.o.recursive {
            return self.fail(format!("-r not specified; omitting directory {}", quote(src))).await;
        }
        let real = ctx.fs.canonicalize(src_full).await.unwrap_or_else(|_| src_full.to_string());
        if self.created.contains(&real) {
            let msg =
                format!("cannot copy a directory, {}, into itself, {}", quote(&self.top_src), quote(&self.top_dst));
            return self.fail(msg).await;
        }
        let made = match ctx.fs.metadata(dst_full).await {
            Ok(m) if m.is_dir() => false,
            Ok(_) => {
                let msg = format!("cannot overwrite non-directory {} with directory {}", quote(dst), quote(src));
                return self.fail(msg).await;
            }
            Err(_) => {
                if let Err(e) = ctx.fs.mkdir(dst_full, false).await {
                    return self.fail(format!("cannot create directory {}: {e}", quote(dst))).await;
                }
                let real_dst = ctx.fs.canonicalize(dst_full).await.unwrap_or_else(|_| dst_full.to_string());
                self.created.insert(real_dst);
                if self.o.verbose {
                    ctx.out(format!("{} -> {}\n", quote(src), quote(dst)).as_bytes()).await?;
                }
                true
            }
        };
        let entries = match ctx.fs.read_dir(src_full).await {
            Ok(e) => e,
            Err(e) => return self.fail(format!("cannot access {}: {e}", quote(src))).await,
        };
        let mut ok = true;
        for e in entries {
            if !ctx.still_running() {
                return Ok(false);
            }
            let s = format!("{}/{}", src.trim_end_matches('/'), e.name);
            let d = format!("{}/{}", dst.trim_end_matches('/'), e.name);
            ok &= self.copy(&s, &d, false).await?;
        }
        if made || self.o.keep_mode {
            let mode = if self.o.keep_mode { sm.mode } else { sm.mode & !ctx.fs.umask() };
            ctx.fs.set_mode(dst_full, mode).await.ok();
        }
        if self.o.keep_time {
            ctx.fs.set_mtime(dst_full, sm.mtime).await.ok();
        }
        Ok(ok)
    }

    /// Copy a file, or a symlink as a link.
    async fn copy_leaf(
        &mut self,
        src: &str,
        dst: &str,
        src_full: &str,
        dst_full: &str,
        sm: &Metadata,
    ) -> Result<bool, IoError> {
        let ctx = self.ctx;
        let mut note = String::new();
        if dst.ends_with('/') {
            return self.fail(format!("cannot create regular file {}: {}", quote(dst), FsError::NotADirectory)).await;
        }
        let existing = ctx.fs.symlink_metadata(dst_full).await.ok();
        if let Some(lm) = &existing {
            let dm = if lm.is_symlink() { ctx.fs.metadata(dst_full).await.ok() } else { Some(lm.clone()) };
            if dm.as_ref().is_some_and(Metadata::is_dir) {
                return self.fail(format!("cannot overwrite directory {} with non-directory", quote(dst))).await;
            }
            let same = match (ctx.fs.canonicalize(src_full).await, ctx.fs.canonicalize(dst_full).await) {
                (Ok(a), Ok(b)) => a == b && !self.o.symbolic && !(sm.is_symlink() && lm.is_symlink()),
                _ => false,
            };
            if same {
                return self.fail(format!("{} and {} are the same file", quote(src), quote(dst))).await;
            }
            match self.o.clobber {
                Clobber::No => return Ok(true),
                Clobber::Ask if !ask(ctx, &format!("overwrite {}", quote(dst))).await? => return Ok(true),
                _ => {}
            }
            if self.o.update && dm.as_ref().is_some_and(|d| d.mtime >= sm.mtime) {
                return Ok(true);
            }
            if let Some(suffix) = &self.o.backup {
                let b = format!("{dst}{suffix}");
                if let Err(e) = ctx.fs.rename(dst_full, &ctx.resolve(&b)).await {
                    return self.fail(format!("cannot backup {}: {e}", quote(dst))).await;
                }
                note = format!(" (backup: {})", quote(&b));
            } else if dm.is_none() && !sm.is_symlink() && !self.o.symbolic && !self.o.remove_first {
                return self.fail(format!("not writing through dangling symlink {}", quote(dst))).await;
            } else if self.o.remove_first || sm.is_symlink() || (self.o.symbolic && self.o.force) {
                if let Err(e) = ctx.fs.remove_file(dst_full).await {
                    return self.fail(format!("cannot remove {}: {e}", quote(dst))).await;
                }
                if self.o.verbose {
                    ctx.out(format!("removed {}\n", quote(dst)).as_bytes()).await?;
                }
            }
        }
        if self.o.symbolic || sm.is_symlink() {
            let target = if self.o.symbolic {
                if !src.starts_with('/') && dst.contains('/') && path::parent(dst_full) != ctx.cwd {
                    let msg = format!("{}: can make relative symbolic links only in current directory", quotef(dst));
                    return self.fail(msg).await;
                }
                src.to_string()
            } else {
                match ctx.fs.read_link(src_full).await {
                    Ok(t) => t,
                    Err(e) => return self.fail(format!("cannot read symbolic link {}: {e}", quote(src))).await,
                }
            };
            if let Err(e) = ctx.fs.symlink(&target, dst_full).await {
                let msg = format!("cannot create symbolic link {} to {}: {e}", quote(dst), quote(&target));
                return self.fail(msg).await;
            }
        } else {
            let data = match ctx.fs.read(src_full).await {
                Ok(d) => d,
                Err(e) => return self.fail(format!("cannot open {} for reading: {e}", quote(src))).await,
            };
            let mut fresh = existing.is_none() || !note.is_empty() || self.o.remove_first;
            let mut written = ctx.fs.write(dst_full, &data).await;
            // `-f`: a destination that cannot be opened is removed and made anew.
            if self.o.force && existing.is_some() && written.as_ref().is_err_and(|e| *e == FsError::PermissionDenied) {
                if let Err(e) = ctx.fs.remove_file(dst_full).await {
                    return self.fail(format!("cannot remove {}: {e}", quote(dst))).await;
                }
                written = ctx.fs.write(dst_full, &data).await;
                fresh = true;
            }
            if let Err(e) = written {
                let msg = match e {
                    FsError::NoSpace | FsError::Limit(..) => format!("error writing {}: {e}", quote(dst)),
                    _ => format!("cannot create regular file {}: {e}", quote(dst)),
                };
                return self.fail(msg).await;
            }
            if fresh || self.o.keep_mode {
                let mode = if self.o.keep_mode { sm.mode } else { sm.mode & !ctx.fs.umask() };
                ctx.fs.set_mode(dst_full, mode).await.ok();
            }
            if self.o.keep_time {
                ctx.fs.set_mtime(dst_full, sm.mtime).await.ok();
            }
        }
        if self.o.verbose {
            ctx.out(format!("{} -> {}{note}\n", quote(src), quote(dst)).as_bytes()).await?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::file_time::{from_unix, to_unix};
    use super::super::util::file_util::testing::{check_on, fs_with};
    use super::super::util::testutil::{block_on, check, check_tree, make_fs, run_full};

    #[test]
    fn files() {
        check_tree(&["cp", "-v", "a", "c"], &[("a", "A\n")], "", "'a' -> 'c'\n", "", 0, "a\tA\\n\nc\tA\\n\n");
        check_tree(
            &["cp", "a", "b", "dir/"],
            &[("a", "A"), ("b", "B"), ("dir/", "")],
            "",
            "",
            "",
            0,
            "a\tA\nb\tB\ndir/\ndir/a\tA\ndir/b\tB\n",
        );
        check(&["cp", "-v", "a", "d//"], &[("a", ""), ("d/", "")], "", "'a' -> 'd/a'\n", "", 0);
        check(&["cp", "-v", "d/../a", "d"], &[("a", ""), ("d/", "")], "", "'d/../a' -> 'd/a'\n", "", 0);
        check(
            &["cp", "-t", "dir", "a", "b", "-v"],
            &[("a", ""), ("b", ""), ("dir/", "")],
            "",
            "'a' -> 'dir/a'\n'b' -> 'dir/b'\n",
            "",
            0,
        );
        check_tree(&["cp", "a", "b"], &[("a", "new"), ("b", "old")], "", "", "", 0, "a\tnew\nb\tnew\n");
    }

    #[test]
    fn errors() {
        check(&["cp", "d", "e"], &[("d/", "")], "", "", "cp: -r not specified; omitting directory 'd'\n", 1);
        check(&["cp", "x", "y"], &[], "", "", "cp: cannot stat 'x': No such file or directory\n", 1);
        check(
            &["cp", "a", "b", "c"],
            &[("a", ""), ("b", ""), ("c", "")],
            "",
            "",
            "cp: target 'c': Not a directory\n",
            1,
        );
        check(
            &["cp", "a", "b", "nodir/"],
            &[("a", ""), ("b", "")],
            "",
            "",
            "cp: target 'nodir/': No such file or directory\n",
            1,
        );
        check(&["cp", "a", "a"], &[("a", "")], "", "", "cp: 'a' and 'a' are the same file\n", 1);
        check(&["cp", "a", "./a"], &[("a", "")], "", "", "cp: 'a' and './a' are the same file\n", 1);
        check(&["cp"], &[], "", "", "cp: missing file operand\nTry 'cp --help' for more information.\n", 1);
        check(&["cp", "-x"], &[], "", "", "cp: missing file operand\nTry 'cp --help' for more information.\n", 1);
        check(
            &["cp", "a"],
            &[],
            "",
            "",
            "cp: missing destination file operand after 'a'\nTry 'cp --help' for more information.\n",
            1,
        );
        check(&["cp", "-t", "nope", "a"], &[], "", "", "cp: target directory 'nope': No such file or directory\n", 1);
        check(
            &["cp", "-t", "a", "b"],
            &[("a", ""), ("b", "")],
            "",
            "",
            "cp: target directory 'a': Not a directory\n",
            1,
        );
        check(
            &["cp", "a", "-t"],
            &[],
            "",
            "",
            "cp: option requires an argument -- 't'\nTry 'cp --help' for more information.\n",
            1,
        );
        check(
            &["cp", "-T", "a", "b", "c"],
            &[],
            "",
            "",
            "cp: extra operand 'c'\nTry 'cp --help' for more information.\n",
            1,
        );
        check(
            &["cp", "a", "nodir/"],
            &[("a", "")],
            "",
            "",
            "cp: cannot create regular file 'nodir/': Not a directory\n",
            1,
        );
        check(
            &["cp", "a", "x/y"],
            &[("a", "")],
            "",
            "",
            "cp: cannot create regular file 'x/y': No such file or directory\n",
            1,
        );
        check(&["cp", "d", "a"], &[("a", ""), ("d/", "")], "", "", "cp: -r not specified; omitting directory 'd'\n", 1);
        check(
            &["cp", "-r", "d", "a"],
            &[("a", ""), ("d/", "")],
            "",
            "",
            "cp: cannot overwrite non-directory 'a' with directory 'd'\n",
            1,
        );
        check(
            &["cp", "-r", "d", "e"],
            &[("e/d", ""), ("d/", "")],
            "",
            "",
            "cp: cannot overwrite non-directory 'e/d' with directory 'd'\n",
            1,
        );
        check(
            &["cp", "a", "g"],
            &[("a", ""), ("g/a/", "")],
            "",
            "",
            "cp: cannot overwrite directory 'g/a' with non-directory\n",
            1,
        );
        check(
            &["cp", "-T", "a", "d"],
            &[("a", ""), ("d/", "")],
            "",
            "",
            "cp: cannot overwrite directory 'd' with non-directory\n",
            1,
        );
        check(
            &["cp", "-r", "--parents", "pd/q", "a/"],
            &[("a", ""), ("pd/q/", "")],
            "",
            "",
            "cp: with --parents, the destination must be a directory\nTry 'cp --help' for more information.\n",
            1,
        );
        check(
            &["cp", "--preserve=bogus", "a", "z"],
            &[("a", "")],
            "",
            "",
            "cp: invalid argument 'bogus' for '--preserve'\nValid arguments are:\n  - 'mode'\n  - 'timestamps'\n  - 'ownership'\n  - 'links'\n  - 'context'\n  - 'xattr'\n  - 'all'\nTry 'cp --help' for more information.\n",
            1,
        );
    }

    #[test]
    fn recursive() {
        check_tree(
            &["cp", "-rv", "d", "e"],
            &[("d/f", "x")],
            "",
            "'d' -> 'e'\n'd/f' -> 'e/f'\n",
            "",
            0,
            "d/\nd/f\tx\ne/\ne/f\tx\n",
        );
        check_tree(
            &["cp", "-rv", "d", "d/sub"],
            &[("d/f", "")],
            "",
            "'d' -> 'd/sub'\n'd/f' -> 'd/sub/f'\n",
            "cp: cannot copy a directory, 'd', into itself, 'd/sub'\n",
            1,
            "d/\nd/f\t\nd/sub/\nd/sub/f\t\n",
        );
        check_tree(
            &["cp", "-rv", "d", "d"],
            &[("d/f", ""), ("d/sub/f", "")],
            "",
            "'d' -> 'd/d'\n'd/f' -> 'd/d/f'\n'd/sub' -> 'd/d/sub'\n'd/sub/f' -> 'd/d/sub/f'\n",
            "cp: cannot copy a directory, 'd', into itself, 'd/d'\n",
            1,
            "d/\nd/d/\nd/d/f\t\nd/d/sub/\nd/d/sub/f\t\nd/f\t\nd/sub/\nd/sub/f\t\n",
        );
        check(
            &["cp", "-r", "d/", "d/"],
            &[("d/", "")],
            "",
            "",
            "cp: cannot copy a directory, 'd/', into itself, 'd/d'\n",
            1,
        );
        // Into an existing directory only the new nodes are reported.
        check(&["cp", "-rv", "d", "dir"], &[("d/f", ""), ("dir/d/", "")], "", "'d/f' -> 'dir/d/f'\n", "", 0);
        check_tree(
            &["cp", "-rT", "d", "t2"],
            &[("d/f", ""), ("t2/g", "")],
            "",
            "",
            "",
            0,
            "d/\nd/f\t\nt2/\nt2/f\t\nt2/g\t\n",
        );
        check(
            &["cp", "-rv", "d/", "f/"],
            &[("d/a", ""), ("d/d/a", "")],
            "",
            "'d/' -> 'f/'\n'd/a' -> 'f/a'\n'd/d' -> 'f/d'\n'd/d/a' -> 'f/d/a'\n",
            "",
            0,
        );
        check_tree(
            &["cp", "-rv", "--parents", "pd/q", "t"],
            &[("pd/q/", ""), ("t/", "")],
            "",
            "pd -> t/pd\n'pd/q' -> 't/pd/q'\n",
            "",
            0,
            "pd/\npd/q/\nt/\nt/pd/\nt/pd/q/\n",
        );
    }

    #[test]
    fn symlinks() {
        let fs = fs_with(&[("a", "A")], &[("la", "a"), ("dl", "nowhere")]);
        check_on(&fs, &["cp", "la", "x1"], "", "", "", 0, "a\tA\ndl -> nowhere\nla -> a\nx1\tA\n");
        let fs = fs_with(&[("a", "A")], &[("la", "a")]);
        check_on(&fs, &["cp", "-r", "la", "x2"], "", "", "", 0, "a\tA\nla -> a\nx2 -> a\n");
        let fs = fs_with(&[("a", "A")], &[("la", "a")]);
        check_on(&fs, &["cp", "-a", "la", "x4"], "", "", "", 0, "a\tA\nla -> a\nx4 -> a\n");
        let fs = fs_with(&[("a", "A"), ("b", "B")], &[("la", "a")]);
        check_on(&fs, &["cp", "-Pv", "la", "b"], "", "removed 'b'\n'la' -> 'b'\n", "", 0, "a\tA\nb -> a\nla -> a\n");
        let fs = fs_with(&[], &[("dl", "nowhere")]);
        check_on(
            &fs,
            &["cp", "dl", "x5"],
            "",
            "",
            "cp: cannot stat 'dl': No such file or directory\n",
            1,
            "dl -> nowhere\n",
        );
        check_on(&fs, &["cp", "-r", "dl", "x6"], "", "", "", 0, "dl -> nowhere\nx6 -> nowhere\n");
        let fs = fs_with(&[("a", "A")], &[("dl", "nowhere")]);
        check_on(
            &fs,
            &["cp", "a", "dl"],
            "",
            "",
            "cp: not writing through dangling symlink 'dl'\n",
            1,
            "a\tA\ndl -> nowhere\n",
        );
        let fs = fs_with(&[("a", "A"), ("d/", "")], &[]);
        check_on(&fs, &["cp", "-s", "a", "sx"], "", "", "", 0, "a\tA\nd/\nsx -> a\n");
        check_on(
            &fs,
            &["cp", "-s", "a", "sx"],
            "",
            "",
            "cp: cannot create symbolic link 'sx' to 'a': File exists\n",
            1,
            "a\tA\nd/\nsx -> a\n",
        );
        check_on(&fs, &["cp", "-sf", "a", "sx"], "", "", "", 0, "a\tA\nd/\nsx -> a\n");
        check_on(
            &fs,
            &["cp", "-sv", "a", "d/"],
            "",
            "",
            "cp: d/a: can make relative symbolic links only in current directory\n",
            1,
            "a\tA\nd/\nsx -> a\n",
        );
    }

    #[test]
    fn clobbering_and_backups() {
        check_tree(&["cp", "-n", "a", "b"], &[("a", "A"), ("b", "B")], "", "", "", 0, "a\tA\nb\tB\n");
        check_tree(&["cp", "-vn", "a", "b"], &[("a", "A"), ("b", "B")], "", "", "", 0, "a\tA\nb\tB\n");
        check_tree(
            &["cp", "-i", "a", "b"],
            &[("a", "A"), ("b", "B")],
            "",
            "",
            "cp: overwrite 'b'? ",
            0,
            "a\tA\nb\tB\n",
        );
        check_tree(
            &["cp", "-i", "a", "b"],
            &[("a", "A"), ("b", "B")],
            "y\n",
            "",
            "cp: overwrite 'b'? ",
            0,
            "a\tA\nb\tA\n",
        );
        check_tree(
            &["cp", "-vb", "a", "b"],
            &[("a", "A"), ("b", "B")],
            "",
            "'a' -> 'b' (backup: 'b~')\n",
            "",
            0,
            "a\tA\nb\tA\nb~\tB\n",
        );
        check(
            &["cp", "--remove-destination", "-v", "a", "c"],
            &[("a", ""), ("c", "")],
            "",
            "removed 'c'\n'a' -> 'c'\n",
            "",
            0,
        );
        check(&["cp", "-lv", "c", "lc"], &[("c", "C")], "", "'c' -> 'lc'\n", "", 0);
    }

    #[test]
    fn preserves_with_p_and_a() {
        let fs = make_fs(&[("a", "A"), ("d/f", "")]);
        block_on(fs.set_mode("/w/a", 0o700)).expect("mode");
        block_on(fs.set_mtime("/w/a", from_unix(100, 0))).expect("mtime");
        block_on(fs.set_mtime("/w/d", from_unix(200, 0))).expect("mtime");
        for args in
            [&["cp", "a", "p1"][..], &["cp", "-p", "a", "p2"], &["cp", "-a", "a", "p3"], &["cp", "-a", "d", "p4"]]
        {
            assert_eq!(run_full(&fs, args, b"", &[], Default::default()).status, 0);
        }
        let meta = |p: &str| block_on(fs.metadata(&format!("/w/{p}"))).expect("exists");
        assert_eq!(meta("p1").mode, 0o700);
        assert_ne!(to_unix(meta("p1").mtime).0, 100);
        assert_eq!((meta("p2").mode, to_unix(meta("p2").mtime).0), (0o700, 100));
        assert_eq!((meta("p3").mode, to_unix(meta("p3").mtime).0), (0o700, 100));
        assert_eq!(to_unix(meta("p4").mtime).0, 200);
        // -u skips a destination that is not older.
        let o = run_full(&fs, &["cp", "-uv", "a", "p1"], b"", &[], Default::default());
        assert_eq!((o.out.as_str(), o.status), ("", 0));
    }
}
