//! `find` (GNU findutils 4.9): walk the start points and evaluate the
//! expression (`find_parse`) on every file. Unlike GNU, which visits entries
//! in directory order, entries are visited sorted by name (byte order): the
//! sandbox has no on-disk order, and sorted output is reproducible.
//! Warnings that GNU prints only when stdin is a terminal are not printed.

pub(crate) mod parse;
pub(crate) mod printf;

use parse::{Cmp, ExecSpec, Expr, PermKind, Program};
use printf::{ls_line, render, Info};
use crate::commands::run_util::{self, Exec, Ran};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FileType, Metadata};
use crate::io::{Input, IoError};
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::time::SystemTime;

pub struct Find;

/// Arguments (bytes) one `-exec ... +` command line collects before it runs.
const BATCH_BYTES: usize = 128 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Follow {
    Never,
    /// `-H`: start points only.
    Start,
    Always,
}

/// One file being looked at.
struct Node {
    /// As printed, the start point it came from, and the absolute sandbox path.
    path: String,
    start: String,
    full: String,
    depth: usize,
    /// Metadata as the walk sees it (the link itself unless following).
    meta: Metadata,
    prune: bool,
}

/// What changes while walking.
struct State {
    status: i32,
    quit: bool,
    /// Pending `-exec ... +` paths per batch id, with the directory of `-execdir`.
    batches: Vec<(Vec<String>, usize, String)>,
    follow: Follow,
    now: SystemTime,
    /// The start of tomorrow (local time), from which `-daystart` ages count.
    day_start: SystemTime,
    /// `-fprint` and kin's files (as given) and what was written to each
    /// and not yet sent.
    files: Vec<(String, Vec<u8>)>,
    /// `-samefile`'s files, looked up once: their identity (see [`identity`]).
    same_refs: HashMap<String, Option<(String, bool)>>,
}

/// Bytes an output file of `-fprint` and kin holds before they are sent.
const FILE_CHUNK: usize = 64 * 1024;

fn is_expr_start(a: &str) -> bool {
    (a.starts_with('-') && a.len() > 1) || a == "(" || a == "!" || a == ")" || a == ","
}

#[async_trait]
impl Utility for Find {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = ctx.args;
        let mut follow = Follow::Never;
        let mut i = 0;
        while let Some(a) = args.get(i) {
            match a.as_str() {
                "-H" => follow = Follow::Start,
                "-L" => follow = Follow::Always,
                "-P" => follow = Follow::Never,
                // Debugging and optimisation change nothing a script sees here.
                "-D" if args.get(i + 1).is_none() => {
                    ctx.err("Missing argument after the -D option.\nTry 'find --help' for more information.").await?;
                    return Ok(1);
                }
                "-D" => i += 1,
                o if o.starts_with("-O") && o[2..].bytes().all(|b| b.is_ascii_digit()) => {}
                "--" => {
                    i += 1;
                    break;
                }
                "--help" => {
                    ctx.out_help(b"Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]\n").await?;
                    return Ok(0);
                }
                "--version" => {
                    ctx.out(crate::commands::util::findutils_version("find").as_bytes()).await?;
                    return Ok(0);
                }
                _ => break,
            }
            i += 1;
        }
        let n_paths = args[i..].iter().take_while(|a| !is_expr_start(a)).count();
        let mut starts: Vec<String> = args[i..i + n_paths].to_vec();
        if starts.is_empty() {
            starts.push(".".into());
        }
        let expr_args = &args[i + n_paths..];
        let now = SystemTime::now();
        // `-newer FILE` and `-samefile FILE` need the filesystem: look the files up first.
        let mut times = HashMap::new();
        for w in expr_args.windows(2) {
            if w[0].starts_with("-newer") || matches!(w[0].as_str(), "-anewer" | "-cnewer" | "-samefile") {
                // A link that leads nowhere is still a file (GNU's -P reads the link).
                let full = ctx.resolve(&w[1]);
                let meta = match ctx.fs.metadata(&full).await {
                    Ok(m) => Ok(m),
                    Err(_) => ctx.fs.symlink_metadata(&full).await,
                };
                if let Ok(m) = meta {
                    times.insert(w[1].clone(), m.mtime);
                }
            }
        }
        let tz = ctx.env.get("TZ");
        let lookup = |f: &str| times.get(f).copied().ok_or_else(|| format!("{}: No such file or directory", q(f)));
        let prog = match parse::parse(expr_args, now, &ctx.sys.username, tz.as_deref(), &lookup) {
            Ok(p) => p,
            Err(m) => {
                return Err(UError::new(1, m));
            }
        };
        for w in &prog.warnings {
            ctx.err(w).await?;
        }
        // GNU opens (and empties) the output files while it parses.
        for f in &prog.files {
            if !matches!(f.as_str(), "/dev/stdout" | "/dev/stderr") {
                if let Err(e) = ctx.fs.write(&ctx.resolve(f), b"").await {
                    return Err(UError::new(1, format!("{}: {e}", q(f))));
                }
            }
        }
        let mut st = State {
            status: 0,
            quit: false,
            batches: vec![(vec![], 0, String::new()); prog.batches],
            follow,
            now,
            day_start: day_start(ctx, now),
            files: prog.files.iter().map(|f| (f.clone(), Vec::new())).collect(),
            same_refs: HashMap::new(),
        };
        for s in &starts {
            if st.quit || !ctx.still_running() {
                break;
            }
            if s.is_empty() {
                ctx.err("'': No such file or directory").await?;
                st.status = 1;
                continue;
            }
            let full = ctx.resolve(s);
            let node = (s.clone(), s.clone(), full);
            let mut ancestors = Vec::new();
            walk(ctx, &prog, &mut st, node, 0, &mut ancestors).await?;
        }
        let mut specs = Vec::new();
        collect_batches(&prog.expr, &mut specs);
        for spec in specs {
            flush(ctx, &mut st, spec).await?;
        }
        for i in 0..st.files.len() {
            send_file(ctx, &mut st, i).await?;
        }
        Ok(st.status)
    }
}

/// The start of tomorrow in the zone of `TZ`: where `-daystart` counts from.
fn day_start(ctx: &CommandContext<'_>, now: SystemTime) -> SystemTime {
    let (secs, _) = crate::commands::util::file_time::to_unix(now);
    let zone = crate::commands::date::parse::Zone::from_tz(ctx.env.get("TZ").as_deref());
    let tomorrow = secs + 86_400;
    let (offset, _) = zone.info(tomorrow);
    let start = tomorrow - (tomorrow + i64::from(offset)).rem_euclid(86_400);
    crate::commands::util::file_time::from_unix(start, 0)
}

/// Send what `-fprint` and kin wrote to output file `i` so far.
async fn send_file(ctx: &CommandContext<'_>, st: &mut State, i: usize) -> Result<(), IoError> {
    let Some((name, pending)) = st.files.get_mut(i) else { return Ok(()) };
    let data = std::mem::take(pending);
    if data.is_empty() {
        return Ok(());
    }
    match name.clone().as_str() {
        "/dev/stdout" => ctx.out(&data).await,
        "/dev/stderr" => ctx.stderr.write(&data).await,
        f => {
            if let Err(e) = ctx.fs.append(&ctx.resolve(f), &data).await {
                ctx.err(format!("{}: {e}", q(f))).await?;
                st.status = 1;
            }
            Ok(())
        }
    }
}

fn q(s: &str) -> String {
    crate::commands::util::quote_locale(s)
}

/// The `-exec ... +` specs of an expression.
fn collect_batches<'a>(e: &'a Expr, out: &mut Vec<&'a ExecSpec>) {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Comma(a, b) => {
            collect_batches(a, out);
            collect_batches(b, out);
        }
        Expr::Not(a) => collect_batches(a, out),
        Expr::Exec(s) if s.batch => out.push(s),
        _ => {}
    }
}

/// Visit one file and, for a directory, its entries (sorted by name).
fn walk<'a>(
    ctx: &'a CommandContext<'_>,
    prog: &'a Program,
    st: &'a mut State,
    (path, start, full): (String, String, String),
    depth: usize,
    ancestors: &'a mut Vec<(String, String)>,
) -> BoxFuture<'a, Result<(), IoError>> {
    Box::pin(async move {
        let follow = st.follow == Follow::Always || (st.follow == Follow::Start && depth == 0);
        let lmeta = match ctx.fs.symlink_metadata(&full).await {
            Ok(m) => m,
            Err(e) => {
                ctx.err(format!("{}: {e}", q(&path))).await?;
                st.status = 1;
                return Ok(());
            }
        };
        let meta = if follow && lmeta.is_symlink() { ctx.fs.metadata(&full).await.unwrap_or(lmeta) } else { lmeta };
        let mut canon = None;
        if meta.is_dir() && st.follow != Follow::Never {
            let c = ctx.fs.canonicalize(&full).await.unwrap_or_else(|_| full.clone());
            if let Some((_, first)) = ancestors.iter().find(|(a, _)| *a == c) {
                let msg = format!(
                    "File system loop detected; {} is part of the same file system loop as {}.",
                    q(&path),
                    q(first)
                );
                ctx.err(msg).await?;
                st.status = 1;
                return Ok(());
            }
            canon = Some(c);
        }
        let mut node = Node { path, start, full, depth, meta, prune: false };
        let visit_here = depth >= prog.mindepth;
        if visit_here && !prog.depth_first {
            eval(ctx, st, &prog.expr, &mut node).await?;
        }
        let descend = node.meta.is_dir()
            && (!node.prune || prog.depth_first)
            && prog.maxdepth.is_none_or(|m| depth < m)
            && !st.quit;
        if descend {
            match ctx.fs.read_dir(&node.full).await {
                Ok(entries) => {
                    if let Some(c) = &canon {
                        ancestors.push((c.clone(), node.path.clone()));
                    }
                    for e in entries {
                        if st.quit || !ctx.still_running() {
                            break;
                        }
                        let child = if node.path.ends_with('/') {
                            format!("{}{}", node.path, e.name)
                        } else {
                            format!("{}/{}", node.path, e.name)
                        };
                        let cfull = path::join(&node.full, &e.name);
                        walk(ctx, prog, st, (child, node.start.clone(), cfull), depth + 1, ancestors).await?;
                    }
                    if canon.is_some() {
                        ancestors.pop();
                    }
                }
                Err(e) => {
                    ctx.err(format!("{}: {e}", q(&node.path))).await?;
                    st.status = 1;
                }
            }
        }
        if visit_here && prog.depth_first && !st.quit {
            eval(ctx, st, &prog.expr, &mut node).await?;
        }
        Ok(())
    })
}

/// Links of a node: 2 plus subdirectories for a directory, else 1.
async fn nlink(ctx: &CommandContext<'_>, n: &Node) -> u64 {
    if n.meta.is_symlink() {
        return 1;
    }
    ctx.fs.link_count(&n.full).await.unwrap_or(1)
}

/// Run `f` with the printf/-ls view of a node.
async fn info_text(
    ctx: &CommandContext<'_>,
    st: &State,
    n: &Node,
    f: impl FnOnce(&Info<'_>, SystemTime) -> Vec<u8>,
) -> Vec<u8> {
    let link = if n.meta.is_symlink() { ctx.fs.read_link(&n.full).await.ok() } else { None };
    let target = ctx.fs.metadata(&n.full).await.ok().map(|m| m.file_type);
    let info = Info {
        path: &n.path,
        start: &n.start,
        depth: n.depth,
        meta: &n.meta,
        link: link.as_deref(),
        target,
        nlink: nlink(ctx, n).await,
        user: &ctx.sys.username,
    };
    f(&info, st.now)
}

fn eval<'a>(
    ctx: &'a CommandContext<'_>,
    st: &'a mut State,
    e: &'a Expr,
    n: &'a mut Node,
) -> BoxFuture<'a, Result<bool, IoError>> {
    Box::pin(async move {
        let m = &n.meta;
        Ok(match e {
            Expr::And(a, b) => eval(ctx, st, a, n).await? && !st.quit && eval(ctx, st, b, n).await?,
            Expr::Or(a, b) => eval(ctx, st, a, n).await? || (!st.quit && eval(ctx, st, b, n).await?),
            Expr::Comma(a, b) => {
                eval(ctx, st, a, n).await?;
                !st.quit && eval(ctx, st, b, n).await?
            }
            Expr::Not(a) => !eval(ctx, st, a, n).await?,
            Expr::Const(b) => *b,
            Expr::Name(re) => {
                let t = n.path.trim_end_matches('/');
                let base = if t.is_empty() { "/" } else { t.rsplit('/').next().unwrap_or(t) };
                re.is_match(base)
            }
            Expr::Path(re) => re.is_match(&n.path),
            Expr::Type(ts) => ts.contains(&m.file_type),
            Expr::XType(ts) => {
                let other = if st.follow == Follow::Always {
                    ctx.fs.symlink_metadata(&n.full).await.ok()
                } else {
                    ctx.fs.metadata(&n.full).await.ok()
                };
                ts.contains(&other.map_or(m.file_type, |o| o.file_type))
            }
            Expr::Size(cmp, num, unit) => cmp.test(m.size.div_ceil(*unit) as i64, *num),
            Expr::Age(cmp, num, unit, daystart) => {
                let (now, _) = crate::commands::util::file_time::to_unix(if *daystart { st.day_start } else { st.now });
                let (t, _) = crate::commands::util::file_time::to_unix(m.mtime);
                let age = (now - t).div_euclid(*unit);
                // GNU compares the exact age: `-mmin -1` is "less than 1 minute".
                match cmp {
                    Cmp::Lt => now - t < num * unit,
                    Cmp::Gt => age > *num,
                    Cmp::Eq => age == *num,
                }
            }
            Expr::Newer(t) => m.mtime > *t,
            Expr::Empty => match m.file_type {
                FileType::File => m.size == 0,
                FileType::Dir => ctx.fs.read_dir(&n.full).await.is_ok_and(|v| v.is_empty()),
                FileType::Symlink => false,
            },
            Expr::Perm(kind, want) => {
                let have = m.mode & 0o7777;
                match kind {
                    PermKind::Exact => have == *want,
                    PermKind::All => have & want == *want,
                    PermKind::Any => *want == 0 || have & want != 0,
                }
            }
            Expr::Owner(b) => *b,
            Expr::Access(mask) => ctx.fs.access(&n.full, mask >> 6).await.unwrap_or(false),
            Expr::Links(cmp, num) => cmp.test(nlink(ctx, n).await as i64, *num),
            Expr::SameFile(f) => {
                let follow = st.follow == Follow::Always;
                let a = identity(ctx, &n.full, follow).await;
                let b = match st.same_refs.get(f) {
                    Some(b) => b.clone(),
                    None => {
                        let b = identity(ctx, &ctx.resolve(f), follow || st.follow == Follow::Start).await;
                        st.same_refs.insert(f.clone(), b.clone());
                        b
                    }
                };
                match (a, b) {
                    (Some((x, false)), Some((y, false))) => ctx.fs.same_file(&x, &y).await.unwrap_or(false),
                    (Some(x), Some(y)) => x == y,
                    _ => false,
                }
            }
            Expr::Prune => {
                n.prune = true;
                true
            }
            Expr::Quit => {
                st.quit = true;
                true
            }
            Expr::LinkName(re) => {
                m.is_symlink() && ctx.fs.read_link(&n.full).await.is_ok_and(|t| re.is_match(&t))
            }
            Expr::Print(_) | Expr::Printf(_) | Expr::Ls => {
                let text = action_text(ctx, st, e, n).await;
                ctx.out(&text).await?;
                true
            }
            Expr::ToFile(i, action) => {
                let text = action_text(ctx, st, action, n).await;
                if let Some((_, pending)) = st.files.get_mut(*i) {
                    pending.extend_from_slice(&text);
                    if pending.len() >= FILE_CHUNK {
                        send_file(ctx, st, *i).await?;
                    }
                }
                true
            }
            Expr::Delete => delete(ctx, st, n).await?,
            Expr::Exec(spec) => exec(ctx, st, spec, n).await?,
        })
    })
}

/// What names a node for `-samefile`: its real path, and whether it is a
/// symlink (unless `follow`, a link is a file of its own, not its target).
async fn identity(ctx: &CommandContext<'_>, full: &str, follow: bool) -> Option<(String, bool)> {
    let link = !follow && ctx.fs.symlink_metadata(full).await.ok()?.is_symlink();
    if !link {
        return ctx.fs.canonicalize(full).await.ok().map(|c| (c, false));
    }
    let dir = ctx.fs.canonicalize(path::parent(full)).await.ok()?;
    Some((path::join(&dir, full.rsplit('/').next().unwrap_or("")), true))
}

/// The text `-print`, `-print0`, `-printf` or `-ls` writes for a node.
async fn action_text(ctx: &CommandContext<'_>, st: &State, e: &Expr, n: &Node) -> Vec<u8> {
    match e {
        Expr::Print(end) => {
            let mut line = n.path.as_bytes().to_vec();
            line.push(*end);
            line
        }
        Expr::Printf(pieces) => info_text(ctx, st, n, |i, _| render(pieces, i)).await,
        Expr::Ls => info_text(ctx, st, n, |i, now| ls_line(i, now).into_bytes()).await,
        _ => Vec::new(),
    }
}

async fn delete(ctx: &CommandContext<'_>, st: &mut State, n: &Node) -> Result<bool, IoError> {
    if n.path == "." {
        return Ok(true);
    }
    let r = if n.meta.is_dir() { ctx.fs.remove_dir(&n.full, false).await } else { ctx.fs.remove_file(&n.full).await };
    match r {
        Ok(()) => Ok(true),
        Err(e) => {
            ctx.err(format!("cannot delete {}: {e}", q(&n.path))).await?;
            st.status = 1;
            Ok(false)
        }
    }
}

/// `-execdir` runs in the file's directory with `./NAME` for `{}`.
fn dir_and_name(n: &Node) -> (String, String) {
    let dir = path::parent(&n.full).to_string();
    let name = n.full.rsplit('/').next().unwrap_or("");
    (dir, format!("./{}", if n.depth == 0 && n.path == "." { "." } else { name }))
}

async fn exec(ctx: &CommandContext<'_>, st: &mut State, spec: &ExecSpec, n: &Node) -> Result<bool, IoError> {
    let (dir, arg) = if spec.in_dir { dir_and_name(n) } else { (ctx.cwd.to_string(), n.path.clone()) };
    if spec.batch {
        let pending = &st.batches[spec.id];
        let full = pending.1 + arg.len() + 1 > BATCH_BYTES;
        if !pending.0.is_empty() && (full || (spec.in_dir && pending.2 != dir)) {
            flush(ctx, st, spec).await?;
        }
        let b = &mut st.batches[spec.id];
        b.1 += arg.len() + 1;
        b.0.push(arg);
        b.2 = dir;
        return Ok(true);
    }
    let argv: Vec<String> = spec.argv.iter().map(|a| a.replace("{}", &arg)).collect();
    if spec.ask {
        ctx.stderr.write(format!("< {} ... {} > ? ", argv[0], arg).as_bytes()).await?;
        let answer = ctx.stdin.read_until(b'\n', 4096).await.unwrap_or_default();
        if !matches!(answer.first(), Some(b'y' | b'Y')) {
            return Ok(false);
        }
    }
    let mut e = Exec::from_ctx(ctx, &argv);
    e.cwd = &dir;
    if spec.ask {
        e.stdin = Input::null();
    }
    match run_util::run(ctx, e).await? {
        Ran::Status(s) => Ok(s == 0),
        Ran::NotFound => {
            ctx.err(format!("{}: No such file or directory", q(&argv[0]))).await?;
            Ok(false)
        }
    }
}

/// Run a pending `-exec ... {} +` command line.
async fn flush(ctx: &CommandContext<'_>, st: &mut State, spec: &ExecSpec) -> Result<(), IoError> {
    let (paths, _, dir) = std::mem::take(&mut st.batches[spec.id]);
    if paths.is_empty() {
        return Ok(());
    }
    let mut argv = spec.argv[..spec.argv.len() - 1].to_vec();
    argv.extend(paths);
    let mut e = Exec::from_ctx(ctx, &argv);
    if spec.in_dir {
        e.cwd = &dir;
    }
    match run_util::run(ctx, e).await? {
        Ran::Status(0) => {}
        Ran::Status(_) => st.status = 1,
        Ran::NotFound => {
            ctx.err(format!("{}: No such file or directory", q(&argv[0]))).await?;
            st.status = 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::commands::util::file_util::testing::{check_on, fs_with};
    use crate::commands::util::testutil::{check, check_tree, run};

    /// Expected outputs are GNU find 4.9's on the same tree, put in sorted
    /// visiting order (GNU follows the directory's on-disk order).
    const FILES: &[(&str, &str)] =
        &[("a/b/c.txt", "hello\n"), ("a/x.log", ""), ("f.txt", "abc\n"), ("E.TXT", "x"), ("d/", "")];

    fn f(args: &[&str], out: &str) {
        let mut argv = vec!["find"];
        argv.extend_from_slice(args);
        check(&argv, FILES, "", out, "", 0);
    }

    #[test]
    fn walking() {
        f(&[], ".\n./E.TXT\n./a\n./a/b\n./a/b/c.txt\n./a/x.log\n./d\n./f.txt\n");
        f(&["a", "-type", "f"], "a/b/c.txt\na/x.log\n");
        f(&[".", "-type", "d"], ".\n./a\n./a/b\n./d\n");
        f(&[".", "-maxdepth", "1"], ".\n./E.TXT\n./a\n./d\n./f.txt\n");
        f(&[".", "-mindepth", "2"], "./a/b\n./a/b/c.txt\n./a/x.log\n");
        f(&["a", "-depth"], "a/b/c.txt\na/b\na/x.log\na\n");
        f(&["a", "d", "-print0"], "a\0a/b\0a/b/c.txt\0a/x.log\0d\0");
        f(&["./", "-maxdepth", "1", "-name", "d"], "./d\n");
        f(&["d/", "-printf", "%p|%f|%h\n"], "d/|d/|d\n");
    }

    #[test]
    fn tests() {
        f(&[".", "-name", "*.txt"], "./a/b/c.txt\n./f.txt\n");
        f(&[".", "-iname", "*.txt"], "./E.TXT\n./a/b/c.txt\n./f.txt\n");
        f(&[".", "-path", "./a/*"], "./a/b\n./a/b/c.txt\n./a/x.log\n");
        f(&[".", "-regex", r".*\.\(txt\|log\)"], "./a/b/c.txt\n./a/x.log\n./f.txt\n");
        f(
            &[".", "-regextype", "posix-extended", "-regex", ".*/[a-z]\\.(txt|log)"],
            "./a/b/c.txt\n./a/x.log\n./f.txt\n",
        );
        f(&[".", "-empty"], "./a/x.log\n./d\n");
        f(&[".", "-size", "-1"], "./a/x.log\n");
        f(&[".", "-size", "+0c", "-type", "f"], "./E.TXT\n./a/b/c.txt\n./f.txt\n");
        f(&[".", "-size", "6c"], "./a/b/c.txt\n");
        f(&[".", "-name", "a", "-prune", "-o", "-print"], ".\n./E.TXT\n./d\n./f.txt\n");
        f(&[".", "-not", "-name", "*.txt", "-type", "f"], "./E.TXT\n./a/x.log\n");
        f(&[".", "(", "-name", "*.log", "-o", "-name", "c*", ")", "-print"], "./a/b/c.txt\n./a/x.log\n");
        f(&[".", "-type", "f,d", "-name", "[ab]"], "./a\n./a/b\n");
        f(&[".", "-perm", "644", "-name", "f*"], "./f.txt\n");
        f(&[".", "-user", "sandbox", "-name", "E*"], "./E.TXT\n");
        f(&[".", "-mmin", "-5", "-name", "E*"], "./E.TXT\n");
        f(&[".", "-mtime", "+0", "-name", "E*"], "");
        f(&[".", "-newer", "f.txt", "-name", "nothing"], "");
        f(&[".", "-true", "-false", ",", "-name", "d"], "./d\n");
        f(&[".", "-name", "E*", "-quit", "-o", "-print"], ".\n");
        f(&[".", "-name", "E*", "-print", "-quit"], "./E.TXT\n");
    }

    #[test]
    fn actions() {
        f(&[".", "-name", "f.txt", "-printf", "%p %f %h %P %s %d %y %m\\n"], "./f.txt f.txt . f.txt 4 1 f 644\n");
        f(&[".", "-type", "f", "-name", "*.txt", "-exec", "cat", "{}", ";"], "hello\nabc\n");
        f(&[".", "-type", "f", "-exec", "echo", "{}", "+"], "./E.TXT ./a/b/c.txt ./a/x.log ./f.txt\n");
        f(&["a", "-type", "f", "-execdir", "echo", "{}", ";"], "./c.txt\n./x.log\n");
        f(&["a", "-exec", "echo", "x{}y", ";"], "xay\nxa/by\nxa/b/c.txty\nxa/x.logy\n");
        f(&[".", "-name", "f.txt", "-exec", "test", "-f", "{}", ";", "-print"], "./f.txt\n");
        f(&["d", "-printf", "%M %k %n %u\\t%Y\\c-never"], "drwxr-xr-x 4 2 sandbox\td");
        check_tree(
            &["find", ".", "-name", "*.txt", "-delete"],
            FILES,
            "",
            "",
            "",
            0,
            "E.TXT\tx\na/\na/b/\na/x.log\t\nd/\n",
        );
        check_tree(&["find", "a", "-delete"], FILES, "", "", "", 0, "E.TXT\tx\nd/\nf.txt\tabc\\n\n");
    }

    #[test]
    fn links() {
        let fs = fs_with(&[("d/f", "hi\n"), ("d/e/", "")], &[("l", "d/f"), ("d/e/up", ".."), ("br", "nowhere")]);
        let tree = "br -> nowhere\nd/\nd/e/\nd/e/up -> ..\nd/f\thi\\n\nl -> d/f\n";
        check_on(&fs, &["find", ".", "-type", "l"], "", "./br\n./d/e/up\n./l\n", "", 0, tree);
        check_on(
            &fs,
            &["find", "-L", ".", "-type", "l"],
            "",
            "./br\n",
            "find: File system loop detected; './d/e/up' is part of the same file system loop as './d'.\n",
            1,
            tree,
        );
        check_on(&fs, &["find", "l", "br", "-printf", "%y %Y %l\\n"], "", "l f d/f\nl N nowhere\n", "", 0, tree);
        check_on(&fs, &["find", "-H", "l", "-printf", "%y\\n"], "", "f\n", "", 0, tree);
        check_on(&fs, &["find", ".", "-xtype", "l"], "", "./br\n", "", 0, tree);
    }

    #[test]
    fn errors() {
        let e = |args: &[&str], err: &str| {
            let mut argv = vec!["find"];
            argv.extend_from_slice(args);
            let o = run(&argv, FILES, "");
            assert_eq!((o.err.as_str(), o.status), (err, 1), "{args:?}");
        };
        e(&[".", "-foo"], "find: unknown predicate `-foo'\n");
        e(&[".", "-name", "x", "y"], "find: paths must precede expression: `y'\n");
        e(&["nope"], "find: 'nope': No such file or directory\n");
        e(&[".", "-user", "nobodyx"], "find: 'nobodyx' is not the name of a known user\n");
        e(&[".", "-type", "q"], "find: Unknown argument to -type: q\n");
        e(&[".", "-maxdepth"], "find: missing argument to `-maxdepth'\n");
        e(&[".", "-maxdepth", "-1"], "find: Expected a positive decimal integer argument to -maxdepth, but got '-1'\n");
        e(
            &[".", "(", "-name", "x"],
            "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n",
        );
        e(&[".", "-name", "x", ")"], "find: you have too many ')'\n");
        e(&[".", "-exec", "echo"], "find: missing argument to `-exec'\n");
        e(&[".", "-size", "3q"], "find: invalid -size type `q'\n");
        e(&[".", "-mtime", "x"], "find: invalid argument `x' to `-mtime'\n");
        e(&[".", "-newer", "nope"], "find: 'nope': No such file or directory\n");
        e(&[".", "-perm", "999"], "find: invalid mode '999'\n");
        e(&[".", "-o"], "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n");
        e(&[".", "!"], "find: expected an expression after '!'\n");
        e(
            &[".", "-type", "f,"],
            "find: Last file type in list argument to -type is missing, i.e., list is ending on: ','\n",
        );
        e(
            &["a", "-exec", "echo", "{}x", "+"],
            "find: In '-exec ... {} +' the '{}' must appear by itself, but you specified '{}x'\n",
        );
        e(&[".", "-printf", "%"], "find: error: % at end of format string\n");
        e(&["f.txt", "-exec", "nosuch", "{}", "+"], "find: 'nosuch': No such file or directory\n");
        check(
            &["find", "f.txt", "-exec", "nosuch", "{}", ";"],
            FILES,
            "",
            "",
            "find: 'nosuch': No such file or directory\n",
            0,
        );
        check(&["find", "nope", "f.txt"], FILES, "", "f.txt\n", "find: 'nope': No such file or directory\n", 1);
        check(
            &["find", "f.txt", "-printf", "%Q\\q\\n"],
            FILES,
            "",
            "%Q\\q\n",
            "find: warning: unrecognized format directive `%Q'\nfind: warning: unrecognized escape `\\q'\n",
            0,
        );
    }
}
