//! `tar` (GNU tar 1.34 subset): `-c`/`-x`/`-t` with `-f FILE` (`-` is
//! stdin/stdout), `-z`, `-v`, `-C DIR`, `-p`, `-k`, `-O`, `--exclude`,
//! `--strip-components`, and old-style `tar czf x.tgz dir`. Archives are
//! written in GNU format (`././@LongLink` for long names, 10240-byte records)
//! and read in GNU, ustar and pax form; gzip input is recognised by its magic.

use super::util::{parse, quote, Arg, OptError, Spec};
use super::util::strftime::{format, When};
use super::date::parse::Zone;
use super::util::file_mode::mode_string;
use super::util::file_time::{from_unix, to_unix};
use super::gzip::codec::{compress, decompress};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::fs::{path, FileType};
use crate::io::IoError;
use crate::pattern::Pattern;
use async_trait::async_trait;
use std::collections::HashMap;

pub struct Tar;

const SPEC: Spec = Spec::new(
    "cxtruf:zvC:pkOT:hX:",
    &[
        ("create", Arg::No, "c"),
        ("append", Arg::No, "r"),
        ("update", Arg::No, "u"),
        ("dereference", Arg::No, "h"),
        ("exclude-from", Arg::Yes, "X"),
        ("extract", Arg::No, "x"),
        ("get", Arg::No, "x"),
        ("list", Arg::No, "t"),
        ("file", Arg::Yes, "f"),
        ("gzip", Arg::No, "z"),
        ("gunzip", Arg::No, "z"),
        ("ungzip", Arg::No, "z"),
        ("verbose", Arg::No, "v"),
        ("directory", Arg::Yes, "C"),
        ("preserve-permissions", Arg::No, "p"),
        ("same-permissions", Arg::No, "p"),
        ("keep-old-files", Arg::No, "k"),
        ("to-stdout", Arg::No, "O"),
        ("exclude", Arg::Yes, "exclude"),
        ("strip-components", Arg::Yes, "strip"),
        ("files-from", Arg::Yes, "T"),
        ("null", Arg::No, "null"),
        ("no-null", Arg::No, "no-null"),
        ("recursion", Arg::No, "recursion"),
        ("no-recursion", Arg::No, "no-recursion"),
    ],
    "[OPTION...] [FILE]...",
);

const TRY: &str = "Try 'tar --help' or 'tar --usage' for more information.\n";
const BLOCK: usize = 512;
const RECORD: usize = 20 * BLOCK;

/// One archive member.
#[derive(Clone, Debug)]
struct Member {
    name: String,
    kind: FileType,
    mode: u32,
    mtime: i64,
    size: u64,
    link: String,
    /// `1`: a hard link to `link`.
    hard: bool,
    user: String,
    group: String,
    data: Vec<u8>,
}

/// `tar x...`: the first argument's letters are options, and those taking a
/// value take the next arguments in turn.
fn old_style(args: &[String]) -> Vec<String> {
    let Some(first) = args.first().filter(|a| !a.is_empty() && !a.starts_with('-')) else {
        return args.to_vec();
    };
    let mut out = Vec::new();
    let mut rest = args[1..].iter();
    for c in first.chars() {
        out.push(format!("-{c}"));
        if "fC".contains(c) {
            if let Some(v) = rest.next() {
                out.push(v.clone());
            }
        }
    }
    out.extend(rest.cloned());
    out
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

fn octal(field: &mut [u8], v: u64) {
    let w = field.len() - 1;
    let s = format!("{v:0w$o}");
    let s = &s.as_bytes()[s.len().saturating_sub(w)..];
    field[..w].copy_from_slice(s);
    field[w] = 0;
}

fn put(field: &mut [u8], s: &[u8]) {
    let n = s.len().min(field.len());
    field[..n].copy_from_slice(&s[..n]);
}

/// A GNU-format header block.
fn header_block(name: &[u8], m: &Member, typeflag: u8, size: u64) -> [u8; BLOCK] {
    let mut h = [0u8; BLOCK];
    put(&mut h[0..100], name);
    octal(&mut h[100..108], u64::from(m.mode & 0o7777));
    octal(&mut h[108..116], 1000);
    octal(&mut h[116..124], 1000);
    octal(&mut h[124..136], size);
    octal(&mut h[136..148], m.mtime.max(0) as u64);
    h[156] = typeflag;
    put(&mut h[157..257], m.link.as_bytes());
    put(&mut h[257..265], b"ustar  \0");
    put(&mut h[265..297], m.user.as_bytes());
    put(&mut h[297..329], m.group.as_bytes());
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    h
}

fn pad(out: &mut Vec<u8>) {
    let r = out.len() % BLOCK;
    if r != 0 {
        out.resize(out.len() + BLOCK - r, 0);
    }
}

fn write_member(out: &mut Vec<u8>, m: &Member) {
    let typeflag = match m.kind {
        _ if m.hard => b'1',
        FileType::Dir => b'5',
        FileType::Symlink => b'2',
        FileType::File => b'0',
    };
    if m.link.len() > 100 {
        let ll = Member { mode: 0o644, mtime: 0, ..m.clone() };
        out.extend_from_slice(&header_block(
            b"././@LongLink",
            &Member { link: String::new(), ..ll },
            b'K',
            m.link.len() as u64 + 1,
        ));
        out.extend_from_slice(m.link.as_bytes());
        out.push(0);
        pad(out);
    }
    if m.name.len() > 100 {
        let ll = Member { mode: 0o644, mtime: 0, link: String::new(), ..m.clone() };
        out.extend_from_slice(&header_block(b"././@LongLink", &ll, b'L', m.name.len() as u64 + 1));
        out.extend_from_slice(m.name.as_bytes());
        out.push(0);
        pad(out);
    }
    let size = if m.kind == FileType::File && !m.hard { m.data.len() as u64 } else { 0 };
    out.extend_from_slice(&header_block(m.name.as_bytes(), m, typeflag, size));
    if m.kind == FileType::File && !m.hard {
        out.extend_from_slice(&m.data);
        pad(out);
    }
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

fn cstr(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}

fn num(b: &[u8]) -> u64 {
    if b.first().is_some_and(|&c| c & 0x80 != 0) {
        // GNU base-256 for big values.
        return b[1..].iter().fold(0u64, |a, &c| a.wrapping_shl(8) | u64::from(c));
    }
    let s = cstr(b);
    u64::from_str_radix(s.trim_matches(|c: char| c == ' ' || c == '\0'), 8).unwrap_or(0)
}

fn checksum_ok(h: &[u8]) -> bool {
    let want = num(&h[148..156]);
    let sum: u64 = h.iter().enumerate().map(|(i, &b)| if (148..156).contains(&i) { 32 } else { u64::from(b) }).sum();
    want == sum
}

/// Why reading stopped early.
enum ReadErr {
    NotTar,
    Eof,
}

/// Every member of an uncompressed archive.
/// Where the members of an archive end (its first zero block): `-r` and
/// `-u` write from there.
fn archive_end(data: &[u8]) -> usize {
    let mut pos = 0usize;
    while let Some(h) = data.get(pos..pos + BLOCK) {
        if h.iter().all(|&b| b == 0) {
            return pos;
        }
        let size = num(&h[124..136]) as usize;
        pos = pos.saturating_add(BLOCK).saturating_add(size.div_ceil(BLOCK).saturating_mul(BLOCK));
    }
    pos.min(data.len())
}

/// Files archived so far that a later name may lead to again: by real
/// path (a symlink followed by `-h` arrives at its target's), and those
/// with more than one name (hard links have a real path each).
#[derive(Default)]
struct Seen {
    by_path: HashMap<String, String>,
    linked: Vec<(String, String)>,
}

/// The name a file was first archived under when this is one more name of
/// it; else `None`, and the file is remembered when it may be met again.
async fn first_name(ctx: &CommandContext<'_>, seen: &mut Seen, full: &str, name: &str, dereference: bool) -> Option<String> {
    let canon = ctx.fs.canonicalize(full).await.ok()?;
    if let Some(first) = seen.by_path.get(&canon) {
        return Some(first.clone());
    }
    let links = ctx.fs.link_count(full).await.unwrap_or(1);
    if links > 1 {
        for (i, (f, n)) in seen.linked.iter().enumerate() {
            // Thousands of names of one file make this loop long: the deadline ends it.
            if i % 1024 == 1023 && !ctx.still_running() {
                return None;
            }
            if ctx.fs.same_file(f, full).await.unwrap_or(false) {
                return Some(n.clone());
            }
        }
        seen.linked.push((full.to_string(), name.to_string()));
    }
    if dereference || links > 1 {
        seen.by_path.insert(canon, name.to_string());
    }
    None
}

fn read_members(data: &[u8]) -> (Vec<Member>, Option<ReadErr>) {
    let mut out = Vec::new();
    let (mut pos, mut long_name, mut long_link) = (0usize, None::<String>, None::<String>);
    let mut pax: Vec<(String, String)> = Vec::new();
    loop {
        let Some(h) = data.get(pos..pos + BLOCK) else {
            return (
                out,
                (pos == 0 || pos < data.len()).then_some(if pos == 0 { ReadErr::NotTar } else { ReadErr::Eof }),
            );
        };
        if h.iter().all(|&b| b == 0) {
            return (out, None);
        }
        if !checksum_ok(h) {
            return (out, Some(ReadErr::NotTar));
        }
        let size = num(&h[124..136]) as usize;
        let body_start = pos + BLOCK;
        let Some(body) = data.get(body_start..body_start.saturating_add(size)) else {
            return (out, Some(ReadErr::Eof));
        };
        pos = body_start + size.div_ceil(BLOCK) * BLOCK;
        let typeflag = h[156];
        match typeflag {
            b'L' => {
                long_name = Some(cstr(body));
                continue;
            }
            b'K' => {
                long_link = Some(cstr(body));
                continue;
            }
            b'x' => {
                pax = parse_pax(body);
                continue;
            }
            b'g' => continue,
            _ => {}
        }
        let mut name = cstr(&h[0..100]);
        if &h[257..263] == b"ustar\0" && h[345] != 0 {
            name = format!("{}/{name}", cstr(&h[345..500]));
        }
        let mut link = cstr(&h[157..257]);
        let mut mtime = num(&h[136..148]) as i64;
        for (k, v) in pax.drain(..) {
            match k.as_str() {
                "path" => name = v,
                "linkpath" => link = v,
                "mtime" => mtime = v.split('.').next().and_then(|s| s.parse().ok()).unwrap_or(mtime),
                _ => {}
            }
        }
        if let Some(n) = long_name.take() {
            name = n;
        }
        if let Some(l) = long_link.take() {
            link = l;
        }
        let kind = match typeflag {
            b'5' => FileType::Dir,
            b'2' => FileType::Symlink,
            _ => FileType::File,
        };
        let user = cstr(&h[265..297]);
        let group = cstr(&h[297..329]);
        out.push(Member {
            name,
            kind,
            mode: num(&h[100..108]) as u32 & 0o7777,
            mtime,
            size: size as u64,
            link,
            hard: typeflag == b'1',
            user: if user.is_empty() { num(&h[108..116]).to_string() } else { user },
            group: if group.is_empty() { num(&h[116..124]).to_string() } else { group },
            data: if kind == FileType::File && typeflag != b'1' { body.to_vec() } else { Vec::new() },
        });
    }
}

/// pax extended header records: `LEN key=value\n`.
fn parse_pax(body: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::new();
    let mut rest: &str = &text;
    while let Some((len, _)) = rest.split_once(' ') {
        let Ok(n) = len.parse::<usize>() else { break };
        let Some(rec) = rest.get(..n) else { break };
        if let Some((k, v)) = rec[len.len() + 1..].trim_end_matches('\n').split_once('=') {
            out.push((k.to_string(), v.to_string()));
        }
        rest = &rest[n..];
    }
    out
}

// ---------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------

struct Opts {
    verbose: bool,
    gzip: bool,
    preserve: bool,
    keep: bool,
    to_stdout: bool,
    strip: usize,
    dir: String,
    excludes: Vec<Pattern>,
    /// `--no-recursion`: a directory is archived without what it holds.
    recurse: bool,
    /// `-h`: symlinks archived as the files they lead to.
    dereference: bool,
}

impl Opts {
    /// GNU's default exclusion matching: the pattern against the name or any
    /// tail of it that starts after a `/`.
    fn excluded(&self, name: &str) -> bool {
        if self.excludes.is_empty() {
            return false;
        }
        let name = name.trim_end_matches('/');
        let mut tails = vec![name];
        tails.extend(name.match_indices('/').map(|(i, _)| &name[i + 1..]));
        self.excludes.iter().any(|p| tails.iter().any(|t| p.matches(t, false)))
    }
}

/// Errors seen so far (the exit status is 2 and a closing line is printed).
struct Run {
    failed: bool,
    /// A file changed or went while it was archived: status 1, no closing line.
    changed: bool,
    stripped_slash: bool,
}

async fn tar_err(ctx: &CommandContext<'_>, msg: &str) -> Result<(), IoError> {
    ctx.stderr.write(format!("tar: {msg}\n").as_bytes()).await
}

#[async_trait]
impl Utility for Tar {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = old_style(ctx.args);
        let p = match parse(&args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out_help(b"Usage: tar [OPTION...] [FILE]...\nGNU 'tar' saves many files together into a single tape or disk archive,\nand can restore individual files from the archive.\n").await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(b"tar (GNU tar) 1.34\n").await?;
                return Ok(0);
            }
            // GNU tar exits with 64 (EX_USAGE) on an option it cannot parse.
            Err(e) => {
                ctx.stderr.write(format!("tar: {e}\n{TRY}").as_bytes()).await?;
                return Ok(64);
            }
        };
        let modes: Vec<&str> = p.opts.iter().map(|o| o.id).filter(|id| matches!(*id, "c" | "x" | "t" | "r" | "u")).collect();
        let mode = match modes.first() {
            None => {
                let m = "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options";
                ctx.stderr.write(format!("tar: {m}\n{TRY}").as_bytes()).await?;
                return Ok(2);
            }
            Some(m) if modes.iter().any(|x| x != m) => {
                let m = "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option";
                ctx.stderr.write(format!("tar: {m}\n{TRY}").as_bytes()).await?;
                return Ok(2);
            }
            Some(m) => *m,
        };
        let strip = match p.last("strip").map(str::parse::<usize>) {
            None => 0,
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                let v = p.last("strip").unwrap_or("");
                ctx.stderr.write(format!("tar: Invalid number of elements: {}\n{TRY}", quote(v)).as_bytes()).await?;
                return Ok(2);
            }
        };
        let mut o = Opts {
            verbose: p.has("v"),
            gzip: p.has("z"),
            preserve: p.has("p"),
            keep: p.has("k"),
            to_stdout: p.has("O"),
            strip,
            dir: ctx.resolve(p.last("C").unwrap_or(".")),
            excludes: p.all("exclude").map(Pattern::from_glob_text).collect(),
            dereference: p.has("h"),
            // The last of `--recursion` and `--no-recursion` wins.
            recurse: p.opts.iter().rev().find(|o| matches!(o.id, "recursion" | "no-recursion")).is_none_or(|o| o.id == "recursion"),
        };
        // `-X FILE`: exclusion patterns, one a line.
        for list in p.all("X") {
            match ctx.read_operand(list).await {
                Ok(d) => o.excludes.extend(
                    String::from_utf8_lossy(&d).lines().filter(|l| !l.is_empty()).map(Pattern::from_glob_text),
                ),
                Err(e) => {
                    tar_err(ctx, &format!("{list}: {e}")).await?;
                    tar_err(ctx, "Error is not recoverable: exiting now").await?;
                    return Ok(2);
                }
            }
        }
        // `-T FILE`: names, one a line (NUL-separated with `--null`), after the operands.
        let mut operands = p.operands.clone();
        let listed = p.has("T");
        let nul = p.opts.iter().rev().find(|o| matches!(o.id, "null" | "no-null")).is_some_and(|o| o.id == "null");
        for list in p.all("T") {
            let data = match ctx.read_operand(list).await {
                Ok(d) => d,
                Err(e) => {
                    tar_err(ctx, &format!("{list}: Cannot stat: {e}")).await?;
                    tar_err(ctx, "Error is not recoverable: exiting now").await?;
                    return Ok(2);
                }
            };
            let sep = if nul { b'\0' } else { b'\n' };
            for name in data.split(|&b| b == sep).filter(|n| !n.is_empty()) {
                operands.push(String::from_utf8_lossy(name).into_owned());
            }
        }
        let archive = p.last("f").unwrap_or("-").to_string();
        let mut run = Run { failed: false, changed: false, stripped_slash: false };
        let status = match mode {
            "c" => create(ctx, &o, &mut run, &archive, &operands, listed, None).await?,
            "r" | "u" => {
                if o.gzip || archive == "-" {
                    let m = if o.gzip { "Cannot update compressed archives" } else { "Options '-Aru' are incompatible with '-f -'" };
                    ctx.stderr.write(format!("tar: {m}\n{TRY}").as_bytes()).await?;
                    return Ok(2);
                }
                // The members so far stay; new ones go after the last.
                let old = ctx.fs.read(&ctx.resolve(&archive)).await.unwrap_or_default();
                let times: HashMap<String, i64> = if mode == "u" {
                    read_members(&old).0.into_iter().map(|m| (m.name, m.mtime)).collect()
                } else {
                    HashMap::new()
                };
                let mut base = old;
                base.truncate(archive_end(&base));
                let skip = (mode == "u").then_some(&times);
                create(ctx, &o, &mut run, &archive, &operands, true, Some((base, skip))).await?
            }
            _ => read(ctx, &o, &mut run, &archive, &operands, mode == "x").await?,
        };
        if status.is_some() {
            return Ok(2);
        }
        if run.failed {
            tar_err(ctx, "Exiting with failure status due to previous errors").await?;
            return Ok(2);
        }
        Ok(i32::from(run.changed))
    }
}

/// What `-r`/`-u` add to: the archive's bytes up to its end, and for `-u`
/// the times of the members it holds, by name.
type Appending<'a> = (Vec<u8>, Option<&'a HashMap<String, i64>>);

/// `-c`. `Some(_)` when tar stopped at once (the message was printed).
async fn create(
    ctx: &CommandContext<'_>,
    o: &Opts,
    run: &mut Run,
    archive: &str,
    ops: &[String],
    listed: bool,
    // `-r`/`-u`: the archive's members so far, and for `-u` their times.
    append: Option<Appending<'_>>,
) -> Result<Option<()>, IoError> {
    // Names from `-T` may be none: the archive is then empty.
    if ops.is_empty() && !listed {
        ctx.stderr.write(format!("tar: Cowardly refusing to create an empty archive\n{TRY}").as_bytes()).await?;
        return Ok(Some(()));
    }
    let to_stdout = archive == "-";
    let (mut out, update) = append.unwrap_or_default();
    // A later name of a file archived before is a hard link to the first.
    let mut seen = Seen::default();
    for op in ops {
        let mut name = op.trim_start_matches('/').to_string();
        if name.len() != op.len() && !run.stripped_slash {
            tar_err(ctx, "Removing leading `/' from member names").await?;
            run.stripped_slash = true;
        }
        // `-v` lists members under the name given, leading `/` included.
        let mut lead = &op[..op.len() - name.len()];
        if name.is_empty() {
            name = "/".into();
            lead = "";
        }
        let full = path::resolve(&o.dir, op);
        // Depth-first with a stack; children sorted by name.
        let mut stack = vec![(full, name, true)];
        while let Some((full, name, top)) = stack.pop() {
            if !ctx.still_running() {
                return Ok(Some(()));
            }
            if o.excluded(&name) {
                continue;
            }
            let meta = match ctx.fs.symlink_metadata(&full).await {
                Ok(m) => m,
                Err(e) => {
                    let what = if top { op.as_str() } else { name.as_str() };
                    tar_err(ctx, &format!("{what}: Cannot stat: {e}")).await?;
                    run.failed = true;
                    continue;
                }
            };
            let via_link = o.dereference && meta.is_symlink();
            let meta = if via_link {
                match ctx.fs.metadata(&full).await {
                    Ok(m) => m,
                    Err(_) => {
                        tar_err(ctx, &format!("{name}: File removed before we read it")).await?;
                        run.changed = true;
                        continue;
                    }
                }
            } else {
                meta
            };
            // `-u`: what the archive holds as new or newer stays as it is.
            if let Some(times) = update {
                let key = if meta.is_dir() { format!("{}/", name.trim_end_matches('/')) } else { name.clone() };
                if times.get(&key).is_some_and(|&t| meta.is_dir() || t >= to_unix(meta.mtime).0) {
                    if meta.is_dir() && o.recurse {
                        let mut entries = ctx.fs.read_dir(&full).await.unwrap_or_default();
                        entries.sort_by(|a, b| b.name.cmp(&a.name));
                        for e in entries {
                            stack.push((path::join(&full, &e.name), format!("{key}{}", e.name), false));
                        }
                    }
                    continue;
                }
            }
            let mut m = Member {
                name: name.clone(),
                kind: meta.file_type,
                mode: meta.mode,
                mtime: to_unix(meta.mtime).0,
                size: 0,
                link: String::new(),
                hard: false,
                user: ctx.sys.username.clone(),
                group: ctx.sys.username.clone(),
                data: Vec::new(),
            };
            let first = if meta.is_file() { first_name(ctx, &mut seen, &full, &name, o.dereference).await } else { None };
            match meta.file_type {
                FileType::Dir => {
                    if !m.name.ends_with('/') {
                        m.name.push('/');
                    }
                    let mut entries = if o.recurse { ctx.fs.read_dir(&full).await.unwrap_or_default() } else { Vec::new() };
                    entries.sort_by(|a, b| b.name.cmp(&a.name));
                    for e in entries {
                        stack.push((path::join(&full, &e.name), format!("{}{}", m.name, e.name), false));
                    }
                }
                FileType::Symlink => m.link = ctx.fs.read_link(&full).await.unwrap_or_default(),
                FileType::File if first.is_some() => {
                    m.hard = true;
                    m.link = first.unwrap_or_default();
                }
                FileType::File => match ctx.fs.read(&full).await {
                    Ok(d) => m.data = d,
                    Err(e) => {
                        tar_err(ctx, &format!("{name}: Cannot open: {e}")).await?;
                        run.failed = true;
                        continue;
                    }
                },
            }
            if o.verbose {
                let line = format!("{lead}{}\n", m.name);
                if to_stdout {
                    ctx.stderr.write(line.as_bytes()).await?;
                } else {
                    ctx.out(line.as_bytes()).await?;
                }
            }
            write_member(&mut out, &m);
        }
    }
    out.resize(out.len() + 2 * BLOCK, 0);
    out.resize(out.len().div_ceil(RECORD) * RECORD, 0);
    if o.gzip {
        out = compress(&out, 6, None, 0);
    }
    if to_stdout {
        ctx.out(&out).await?;
    } else if let Err(e) = ctx.fs.write(&path::resolve(ctx.cwd, archive), &out).await {
        tar_err(ctx, &format!("{archive}: Cannot open: {e}")).await?;
        tar_err(ctx, "Error is not recoverable: exiting now").await?;
        return Ok(Some(()));
    }
    Ok(None)
}

/// `-t` and `-x`.
async fn read(
    ctx: &CommandContext<'_>,
    o: &Opts,
    run: &mut Run,
    archive: &str,
    ops: &[String],
    extract: bool,
) -> Result<Option<()>, IoError> {
    let max = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX).saturating_mul(16);
    let data = if archive == "-" {
        ctx.read_stdin().await
    } else {
        ctx.fs.read(&ctx.resolve(archive)).await.map_err(|e| e.to_string())
    };
    let mut data = match data {
        Ok(d) => d,
        Err(e) => {
            tar_err(ctx, &format!("{archive}: Cannot open: {e}")).await?;
            tar_err(ctx, "Error is not recoverable: exiting now").await?;
            return Ok(Some(()));
        }
    };
    if data.starts_with(&[0x1f, 0x8b]) {
        data = match decompress(data, max) {
            Ok(d) => d,
            Err(e) => {
                ctx.stderr.write(format!("\ngzip: stdin: {e}\n").as_bytes()).await?;
                tar_err(ctx, "Child returned status 1").await?;
                tar_err(ctx, "Error is not recoverable: exiting now").await?;
                return Ok(Some(()));
            }
        };
    } else if o.gzip && !data.is_empty() {
        ctx.stderr.write(b"\ngzip: stdin: not in gzip format\n").await?;
        tar_err(ctx, "Child returned status 1").await?;
        tar_err(ctx, "Error is not recoverable: exiting now").await?;
        return Ok(Some(()));
    }
    let (members, err) = read_members(&data);
    if let Some(e) = err {
        let first = members.is_empty();
        match e {
            ReadErr::NotTar if first => {
                tar_err(ctx, "This does not look like a tar archive").await?;
                tar_err(ctx, "Exiting with failure status due to previous errors").await?;
                return Ok(Some(()));
            }
            ReadErr::NotTar => tar_err(ctx, "Skipping to next header").await?,
            ReadErr::Eof => tar_err(ctx, "Unexpected EOF in archive").await?,
        }
        run.failed = true;
    }
    let zone = Zone::from_tz(ctx.env.get("TZ").as_deref());
    let mut found = vec![false; ops.len()];
    let mut ugswidth = 19;
    let mut dirs: Vec<(String, Member)> = Vec::new();
    // Symlinks that could lead out of the directory (absolute, or with a
    // `..`): an empty file holds their place until every other member is out,
    // so no later member is written through them (GNU tar's delayed links;
    // `link/file` then fails with "Not a directory").
    let mut delayed: Vec<(String, String, Member)> = Vec::new();
    for m in &members {
        if !ctx.still_running() {
            return Ok(Some(()));
        }
        let base = m.name.trim_end_matches('/');
        if !ops.is_empty() {
            let hit = ops.iter().position(|op| {
                let op = op.trim_end_matches('/');
                base == op || base.starts_with(&format!("{op}/"))
            });
            match hit {
                Some(i) => found[i] = true,
                None => continue,
            }
        }
        if o.excluded(&m.name) {
            continue;
        }
        let mut name = m.name.clone();
        if name.starts_with('/') {
            name = name.trim_start_matches('/').to_string();
            if !run.stripped_slash {
                tar_err(ctx, "Removing leading `/' from member names").await?;
                run.stripped_slash = true;
            }
        }
        if o.strip > 0 {
            let parts: Vec<&str> = name.split('/').collect();
            if parts.len() <= o.strip || parts[o.strip..].iter().all(|p| p.is_empty()) {
                continue;
            }
            name = parts[o.strip..].join("/");
        }
        if !extract {
            let line = if o.verbose {
                let (offset, abbr) = zone.info(m.mtime);
                let date = format(b"%Y-%m-%d %H:%M", &When { secs: m.mtime, nanos: 0, offset, abbr: &abbr });
                let size = m.size.to_string();
                ugswidth = ugswidth.max(m.user.len() + m.group.len() + size.len() + 2);
                let w = ugswidth - m.user.len() - m.group.len() - 2;
                let kind = if m.hard { FileType::File } else { m.kind };
                let mut l = format!(
                    "{} {}/{} {size:>w$} {} {name}",
                    // A hard link shows as `h` where the type goes.
                    if m.hard { format!("h{}", &mode_string(kind, m.mode)[1..]) } else { mode_string(kind, m.mode) },
                    m.user,
                    m.group,
                    String::from_utf8_lossy(&date)
                );
                if m.kind == FileType::Symlink {
                    l.push_str(&format!(" -> {}", m.link));
                } else if m.hard {
                    l.push_str(&format!(" link to {}", m.link));
                }
                l
            } else {
                name.clone()
            };
            ctx.out(format!("{line}\n").as_bytes()).await?;
            continue;
        }
        if o.verbose {
            ctx.out(format!("{name}\n").as_bytes()).await?;
        }
        if name.split('/').any(|c| c == "..") {
            tar_err(ctx, &format!("{name}: Member name contains '..'")).await?;
            run.failed = true;
            continue;
        }
        if o.to_stdout {
            if m.kind == FileType::File {
                ctx.out(&m.data).await?;
            }
            continue;
        }
        let dest = path::resolve(&o.dir, &name);
        if m.kind == FileType::Symlink && unsafe_link(&m.link) {
            match placeholder(ctx, o, &dest).await {
                Ok(()) => delayed.push((dest, name, m.clone())),
                Err(e) => {
                    tar_err(ctx, &format!("{name}: {e}")).await?;
                    run.failed = true;
                }
            }
            continue;
        }
        if let Err(e) = extract_one(ctx, o, m, &dest, &members).await {
            tar_err(ctx, &format!("{name}: {e}")).await?;
            run.failed = true;
        } else if m.kind == FileType::Dir {
            dirs.push((dest, m.clone()));
        }
    }
    for (dest, name, m) in &delayed {
        // Only over the placeholder itself: a member that replaced it wins.
        let still = ctx.fs.symlink_metadata(dest).await.is_ok_and(|md| md.is_file() && md.size == 0);
        if !still {
            continue;
        }
        let _ = ctx.fs.remove_file(dest).await;
        if let Err(e) = ctx.fs.symlink(&m.link, dest).await {
            tar_err(ctx, &format!("{name}: Cannot create symlink to {}: {e}", quote(&m.link))).await?;
            run.failed = true;
        }
    }
    // Directory modes and times last, as their contents needed and changed them.
    for (dest, m) in dirs.iter().rev() {
        let _ = ctx.fs.set_mode(dest, if o.preserve { m.mode } else { m.mode & !0o022 }).await;
        let _ = ctx.fs.set_mtime(dest, from_unix(m.mtime, 0)).await;
    }
    for (op, hit) in ops.iter().zip(found) {
        if !hit {
            tar_err(ctx, &format!("{op}: Not found in archive")).await?;
            run.failed = true;
        }
    }
    Ok(None)
}

/// A symlink target that may point outside the extraction directory.
fn unsafe_link(target: &str) -> bool {
    target.starts_with('/') || target.split('/').any(|c| c == "..")
}

/// The empty file that holds a delayed symlink's place.
async fn placeholder(ctx: &CommandContext<'_>, o: &Opts, dest: &str) -> Result<(), String> {
    let _ = ctx.fs.mkdir(path::parent(dest), true).await;
    let existing = ctx.fs.symlink_metadata(dest).await.ok();
    if o.keep && existing.is_some() {
        return Err("Cannot open: File exists".into());
    }
    if existing.as_ref().is_some_and(|e| e.is_dir()) {
        return Err("Cannot open: Is a directory".into());
    }
    if existing.is_some() {
        let _ = ctx.fs.remove_file(dest).await;
    }
    ctx.fs.write(dest, b"").await.map_err(|e| format!("Cannot open: {e}"))
}

/// Create one member at `dest`; the error is the message after `name: `.
async fn extract_one(ctx: &CommandContext<'_>, o: &Opts, m: &Member, dest: &str, all: &[Member]) -> Result<(), String> {
    let mode = if o.preserve { m.mode } else { m.mode & !0o022 };
    let _ = ctx.fs.mkdir(path::parent(dest), true).await;
    let existing = ctx.fs.symlink_metadata(dest).await.ok();
    if o.keep && existing.is_some() && m.kind != FileType::Dir {
        return Err("Cannot open: File exists".into());
    }
    match m.kind {
        FileType::Dir => {
            if existing.as_ref().is_some_and(|e| !e.is_dir()) {
                let _ = ctx.fs.remove_file(dest).await;
            }
            if !existing.as_ref().is_some_and(|e| e.is_dir()) {
                ctx.fs.mkdir(dest, true).await.map_err(|e| format!("Cannot mkdir: {e}"))?;
            }
            // Its mode is set at the end (see `dirs`), as GNU does: a
            // directory the archive makes read-only still takes its members.
        }
        FileType::Symlink => {
            if existing.is_some() {
                let _ = ctx.fs.remove_file(dest).await;
            }
            ctx.fs
                .symlink(&m.link, dest)
                .await
                .map_err(|e| format!("Cannot create symlink to {}: {e}", quote(&m.link)))?;
        }
        FileType::File => {
            if existing.as_ref().is_some_and(|e| e.is_dir()) {
                return Err("Cannot open: Is a directory".into());
            }
            if existing.as_ref().is_some_and(|e| e.is_symlink()) {
                let _ = ctx.fs.remove_file(dest).await;
            }
            // A hard link becomes one when its target was extracted here.
            if m.hard && o.strip == 0 {
                let target = path::resolve(&o.dir, m.link.trim_start_matches('/'));
                if existing.is_some() {
                    let _ = ctx.fs.remove_file(dest).await;
                }
                if ctx.fs.hard_link(&target, dest).await.is_ok() {
                    return Ok(());
                }
            }
            let data = if m.hard {
                all.iter().find(|t| t.name == m.link && !t.hard).map(|t| t.data.clone()).unwrap_or_default()
            } else {
                m.data.clone()
            };
            ctx.fs.write(dest, &data).await.map_err(|e| format!("Cannot open: {e}"))?;
            let _ = ctx.fs.set_mode(dest, mode).await;
            let _ = ctx.fs.set_mtime(dest, from_unix(m.mtime, 0)).await;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{block_on, check, make_fs, run_full, run_raw, tree, Out};
    use crate::fs::Fs;
    use crate::limits::Limits;
    use std::sync::Arc;

    // Made by GNU tar 1.34 as root with TZ=UTC:
    //   mkdir -p d/sub; printf hello > d/a.txt; printf 'two\n' > d/sub/b; ln -s a.txt d/ln
    //   chmod 600 d/sub/b; touch -d '2026-11-22 10:00' (all); tar --sort=name -czf g.tgz d
    const G_TGZ: &[u8] = &[
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xed, 0xd6, 0x41, 0x0e, 0x82, 0x30, 0x10, 0x05,
        0xd0, 0xae, 0x3d, 0x45, 0x4f, 0x60, 0x3b, 0x96, 0x81, 0xf3, 0x60, 0x6a, 0xe2, 0x82, 0xd8, 0x04, 0x4a, 0xf4,
        0xf8, 0x96, 0xea, 0x42, 0x25, 0x41, 0x4d, 0x1c, 0x88, 0xe1, 0xbf, 0x4d, 0x09, 0x90, 0x74, 0xc8, 0x87, 0x19,
        0xbc, 0x51, 0xe2, 0x6c, 0x52, 0x31, 0xe7, 0x35, 0x79, 0x5d, 0xf3, 0x31, 0xb1, 0xb3, 0x96, 0x5d, 0x59, 0x14,
        0xc3, 0xf9, 0x2a, 0x51, 0x9a, 0xe5, 0x4b, 0x53, 0xaa, 0xef, 0x62, 0xdd, 0x6a, 0xad, 0xda, 0x10, 0xe2, 0xd4,
        0x7d, 0xef, 0xae, 0xff, 0x29, 0x6f, 0xea, 0x6d, 0xbc, 0xc8, 0x3e, 0xd9, 0x10, 0x70, 0x0a, 0x76, 0x22, 0x7f,
        0x7e, 0xce, 0x9f, 0xd2, 0xeb, 0xe2, 0x94, 0xb6, 0xa2, 0x55, 0xdd, 0xad, 0x3c, 0xff, 0xe3, 0xa1, 0x69, 0xc2,
        0xd2, 0x45, 0xc0, 0x62, 0xbc, 0x69, 0x4e, 0xd2, 0x7b, 0xe4, 0xfe, 0x9f, 0x1a, 0xfa, 0xc7, 0xfd, 0x9f, 0xc8,
        0x11, 0x29, 0xbd, 0x93, 0x6f, 0x4d, 0xab, 0xff, 0xfe, 0xbd, 0xe9, 0xfa, 0xbd, 0xf0, 0x3f, 0xc0, 0xd7, 0xf3,
        0x9f, 0x2c, 0x57, 0x16, 0xf3, 0x7f, 0x0e, 0xb7, 0xfc, 0xf7, 0xa2, 0x7b, 0xe4, 0xf9, 0x3f, 0xce, 0xfd, 0x21,
        0xff, 0x62, 0x34, 0xff, 0xa9, 0xc4, 0xfc, 0x9f, 0x43, 0x3c, 0x87, 0xcd, 0xd2, 0x35, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x6f, 0x5c, 0x01, 0xc6, 0xef, 0x86, 0x05, 0x00,
        0x28, 0x00, 0x00,
    ];
    // A file named 'n' x 120 holding "L": `tar --format=posix -czf` (pax) and `tar -czf` (GNU LongLink).
    const P_TGZ: &[u8] = &[
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xed, 0xd3, 0x4d, 0x0a, 0xc2, 0x30, 0x10, 0x86,
        0xe1, 0xac, 0x7b, 0x8a, 0x9e, 0xc0, 0x4e, 0x9c, 0xa4, 0x3f, 0x8b, 0xee, 0x5d, 0xb8, 0xf0, 0x0a, 0x41, 0x0b,
        0xba, 0xf0, 0x87, 0x5a, 0xc1, 0xe3, 0x1b, 0x10, 0x11, 0xba, 0xb0, 0x0b, 0xb1, 0x55, 0x79, 0x9f, 0x4d, 0x20,
        0x19, 0xc8, 0x24, 0xc3, 0x37, 0xcb, 0x56, 0xe1, 0xba, 0x68, 0xc2, 0xa6, 0x69, 0xcf, 0xd9, 0xe1, 0x33, 0x24,
        0xca, 0x9d, 0x33, 0x72, 0xd7, 0x5f, 0x65, 0x9e, 0x3b, 0x63, 0xbd, 0x8a, 0x78, 0x8d, 0x65, 0x71, 0x5f, 0x55,
        0x9c, 0x9a, 0xf4, 0x6a, 0x46, 0x70, 0x39, 0x77, 0xa1, 0x8d, 0xad, 0x8c, 0x71, 0xd7, 0x17, 0xb2, 0x2a, 0xe9,
        0x29, 0x74, 0xdb, 0xfa, 0x43, 0xb3, 0x1f, 0x94, 0xcc, 0x25, 0x0d, 0xdd, 0x6e, 0xdf, 0xd4, 0xb6, 0xa8, 0xbc,
        0x3a, 0x9b, 0x8b, 0x24, 0xb1, 0xa9, 0xf5, 0x73, 0xaf, 0xb2, 0xbe, 0xb0, 0x33, 0x29, 0x8b, 0xb2, 0xf4, 0xb6,
        0xd2, 0x64, 0xea, 0x3f, 0xfb, 0x27, 0x63, 0x8c, 0x78, 0x28, 0xff, 0x22, 0xb6, 0x97, 0xff, 0xdc, 0xa9, 0x37,
        0xe9, 0x28, 0x99, 0x7c, 0xe4, 0xbf, 0x3d, 0x1e, 0xbb, 0x57, 0x75, 0x43, 0xe7, 0xfd, 0xc7, 0xfd, 0x88, 0xe5,
        0xd4, 0x0d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x2d, 0x37, 0x56,
        0xb5, 0xf8, 0xa5, 0x00, 0x28, 0x00, 0x00,
    ];
    const L_TGZ: &[u8] = &[
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xed, 0xd4, 0x4b, 0x0a, 0xc2, 0x30, 0x10, 0x80,
        0xe1, 0x1c, 0x25, 0x27, 0x68, 0x67, 0x4c, 0x53, 0xb7, 0x1e, 0x20, 0x97, 0x70, 0x25, 0x22, 0x24, 0x50, 0xeb,
        0xfd, 0x1d, 0x2a, 0x08, 0xba, 0x68, 0x57, 0x49, 0x11, 0xff, 0x6f, 0x33, 0x61, 0x32, 0x8b, 0x3c, 0x98, 0xe9,
        0xfa, 0xae, 0x3f, 0xa5, 0x92, 0x2f, 0xe9, 0x9a, 0x6f, 0xae, 0x0e, 0x31, 0xe3, 0x30, 0x2c, 0xd1, 0x7c, 0x47,
        0xd1, 0xa3, 0xbe, 0xd7, 0x4b, 0x5e, 0x75, 0x94, 0x83, 0xf3, 0xa9, 0xd2, 0x79, 0x3e, 0x3c, 0xee, 0xf3, 0x79,
        0xf2, 0xde, 0x4d, 0xa5, 0xcc, 0x6b, 0x75, 0x5b, 0xfb, 0x3f, 0x2a, 0xef, 0x64, 0xef, 0x7b, 0xe3, 0xa5, 0xc5,
        0x5f, 0x6f, 0xf5, 0xbf, 0x4d, 0x00, 0xa7, 0x31, 0x88, 0xc4, 0x60, 0x65, 0x96, 0x0f, 0x51, 0x43, 0x74, 0x5e,
        0x5a, 0x3c, 0xc0, 0x9f, 0xf7, 0x7f, 0x93, 0x19, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x80, 0x6a, 0x9e, 0x11, 0x46, 0xb7, 0x8a, 0x00, 0x28, 0x00, 0x00,
    ];
    const LONG: &str = "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn";

    fn fs_with(files: &[(&str, &[u8])]) -> Arc<dyn Fs> {
        let fs = make_fs(&[]);
        block_on(async {
            for (n, d) in files {
                fs.write(&format!("/w/{n}"), d).await.expect("write");
            }
        });
        fs
    }

    fn go(fs: &Arc<dyn Fs>, argv: &[&str]) -> Out {
        run_full(fs, argv, b"", &[("TZ", "UTC")], Limits::default())
    }

    const G_LIST: &str = "drwxr-xr-x root/root         0 2026-11-22 10:00 d/\n\
        -rw-r--r-- root/root         5 2026-11-22 10:00 d/a.txt\n\
        lrwxrwxrwx root/root         0 2026-11-22 10:00 d/ln -> a.txt\n\
        drwxr-xr-x root/root         0 2026-11-22 10:00 d/sub/\n\
        -rw------- root/root         4 2026-11-22 10:00 d/sub/b\n";

    #[test]
    fn lists_gnu_archives() {
        let fs = fs_with(&[("g.tgz", G_TGZ), ("p.tgz", P_TGZ), ("l.tgz", L_TGZ)]);
        let o = go(&fs, &["tar", "-tvzf", "g.tgz"]);
        assert_eq!((o.out.as_str(), o.err.as_str(), o.status), (G_LIST, "", 0));
        assert_eq!(go(&fs, &["tar", "tf", "g.tgz"]).out, "d/\nd/a.txt\nd/ln\nd/sub/\nd/sub/b\n");
        assert_eq!(go(&fs, &["tar", "-tf", "g.tgz", "d/sub"]).out, "d/sub/\nd/sub/b\n");
        let long = format!("-rw-r--r-- root/root         1 2026-11-22 10:00 {LONG}\n");
        assert_eq!(go(&fs, &["tar", "-tvf", "p.tgz"]).out, long);
        assert_eq!(go(&fs, &["tar", "-tvf", "l.tgz"]).out, long);
        let o = run_full(&fs, &["tar", "-tz"], G_TGZ, &[], Limits::default());
        assert_eq!(o.out, "d/\nd/a.txt\nd/ln\nd/sub/\nd/sub/b\n");
    }

    #[test]
    fn extracts_gnu_archives() {
        let fs = fs_with(&[("g.tgz", G_TGZ), ("l.tgz", L_TGZ)]);
        let o = go(&fs, &["tar", "-xvzf", "g.tgz"]);
        assert_eq!((o.out.as_str(), o.err.as_str(), o.status), ("d/\nd/a.txt\nd/ln\nd/sub/\nd/sub/b\n", "", 0));
        let t = tree(&fs);
        assert!(t.contains("d/\nd/a.txt\thello\nd/ln -> a.txt\nd/sub/\nd/sub/b\ttwo\\n\n"), "{t}");
        let m = block_on(fs.metadata("/w/d/sub/b")).expect("meta");
        assert_eq!((m.mode, super::super::util::file_time::to_unix(m.mtime).0), (0o600, 1_795_341_600));
        let m = block_on(fs.metadata("/w/d")).expect("meta");
        assert_eq!(super::super::util::file_time::to_unix(m.mtime).0, 1_795_341_600);
        go(&fs, &["tar", "xf", "l.tgz", "-C", "d/sub"]);
        assert_eq!(block_on(fs.read(&format!("/w/d/sub/{LONG}"))).expect("read"), b"L");
        let o = go(&fs, &["tar", "-xOzf", "g.tgz", "d/a.txt"]);
        assert_eq!(o.out, "hello");
        let fs = fs_with(&[("g.tgz", G_TGZ)]);
        go(&fs, &["tar", "-xf", "g.tgz", "--strip-components=1", "--exclude=ln"]);
        assert_eq!(
            tree(&fs).lines().filter(|l| !l.starts_with("g.tgz")).collect::<Vec<_>>(),
            ["a.txt\thello", "sub/", "sub/b\ttwo\\n"]
        );
    }

    #[test]
    fn round_trip() {
        let fs = make_fs(&[("d/a.txt", "hello"), ("d/sub/b", "two\n"), ("x", "x")]);
        let o = go(&fs, &["tar", "-cvf", "a.tar", "d", "--exclude=x"]);
        assert_eq!((o.out.as_str(), o.status), ("d/\nd/a.txt\nd/sub/\nd/sub/b\n", 0));
        let tar = block_on(fs.read("/w/a.tar")).expect("read");
        assert_eq!(tar.len(), 10240);
        // GNU header fields: mode, uid, size, magic, owner name, checksum format.
        assert_eq!(&tar[512..519], b"d/a.txt");
        assert_eq!(&tar[512 + 100..512 + 108], b"0000644\0");
        assert_eq!(&tar[512 + 124..512 + 136], b"00000000005\0");
        assert_eq!(&tar[512 + 257..512 + 265], b"ustar  \0");
        assert_eq!(&tar[512 + 265..512 + 273], b"sandbox\0");
        assert_eq!(&tar[512 + 154..512 + 156], b"\0 ");
        let o = go(&fs, &["tar", "-tvf", "a.tar", "d/a.txt"]);
        assert!(o.out.starts_with("-rw-r--r-- sandbox/sandbox   5 "), "{}", o.out);
        let z = run_raw(&fs, &["tar", "czf", "-", "d/sub", "x"], b"", &[], Limits::default()).0;
        assert_eq!(&z[..3], &[0x1f, 0x8b, 8]);
        let fs2 = make_fs(&[]);
        let o = run_full(&fs2, &["tar", "-xzvf", "-"], &z, &[], Limits::default());
        assert_eq!((o.out.as_str(), o.status), ("d/sub/\nd/sub/b\nx\n", 0));
        assert_eq!(tree(&fs2), "d/\nd/sub/\nd/sub/b\ttwo\\n\nx\tx\n");
        let fs3 = fs_with(&[]);
        block_on(fs3.write(&format!("/w/{LONG}"), b"L")).expect("write");
        go(&fs3, &["tar", "-cf", "l.tar", LONG]);
        let o = go(&fs3, &["tar", "-tf", "l.tar"]);
        assert_eq!(o.out, format!("{LONG}\n"));
        // `-v` names members as given, before the leading `/` is removed (GNU tar 1.34).
        let o = go(&fs, &["tar", "-cvf", "b.tar", "/w/d/sub"]);
        let strip = "tar: Removing leading `/' from member names\n";
        assert_eq!((o.out.as_str(), o.err.as_str()), ("/w/d/sub/\n/w/d/sub/b\n", strip));
    }

    #[test]
    fn errors() {
        let try_ = "Try 'tar --help' or 'tar --usage' for more information.\n";
        let fail = "tar: Exiting with failure status due to previous errors\n";
        check(
            &["tar", "-cf", "b.tar", "a", "nope"],
            &[("a", "1")],
            "",
            "",
            &format!("tar: nope: Cannot stat: No such file or directory\n{fail}"),
            2,
        );
        check(
            &["tar", "-xf", "nope.tar"],
            &[],
            "",
            "",
            "tar: nope.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n",
            2,
        );
        check(
            &["tar", "-f", "a.tar"],
            &[],
            "",
            "",
            &format!("tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\n{try_}"),
            2,
        );
        check(
            &["tar", "-cf", "c.tar"],
            &[],
            "",
            "",
            &format!("tar: Cowardly refusing to create an empty archive\n{try_}"),
            2,
        );
        check(
            &["tar", "-tf", "bad.tar"],
            &[("bad.tar", "garbage\n")],
            "",
            "",
            &format!("tar: This does not look like a tar archive\n{fail}"),
            2,
        );
        check(
            &["tar", "-tf", "e.tar"],
            &[("e.tar", "")],
            "",
            "",
            &format!("tar: This does not look like a tar archive\n{fail}"),
            2,
        );
        check(&["tar", "-xzf", "bad.tar"], &[("bad.tar", "garbage\n")], "", "", "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n", 2);
        let fs = fs_with(&[("g.tgz", G_TGZ)]);
        let o = go(&fs, &["tar", "-tf", "g.tgz", "zz"]);
        assert_eq!((o.err.as_str(), o.status), (format!("tar: zz: Not found in archive\n{fail}").as_str(), 2));
        // bzip2 is not built in: `-j` is refused as GNU tar refuses an unknown option (64).
        check(&["tar", "-j"], &[], "", "", &format!("tar: invalid option -- 'j'\n{try_}"), 64);
    }
}
