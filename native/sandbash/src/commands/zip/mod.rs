//! `zip` (Info-ZIP 3.0): `zip [-r] [-q] [-j] [-D] [-0..-9] [-d] archive
//! files... [-x pattern...]`. Adds or replaces members (`  adding:` /
//! `updating:` lines with the saving), deletes with `-d`, and rewrites the
//! whole archive in the sandbox filesystem. Info-ZIP prints its warnings and
//! errors on stdout, and so do we.

pub(crate) mod unzip;
pub(crate) mod format;
pub use unzip::Unzip;

use crate::commands::date::parse::Zone;
use crate::commands::util::file_time::to_unix;
use format::{
    crc32, deflate, dos_datetime, local_record, new_member_entry, percent, read_central, Entry, NewMember, Writer,
    DEFLATED, STORED,
};
use crate::commands::{CommandContext, CommandResult};
use crate::commands::util::{UResult, Utility};
use crate::fs::{path, FileType};
use crate::io::IoError;
use crate::pattern::Pattern;
use async_trait::async_trait;
use std::time::SystemTime;

pub struct Zip;

const HELP: &str = "Copyright (c) 1990-2008 Info-ZIP - Type 'zip \"-L\"' for software license.
Zip 3.0 (July 5th 2008). Usage:
zip [-options] [-b path] [-t mmddyyyy] [-n suffixes] [zipfile list] [-xi list]
  The default action is to add or replace zipfile entries from list, which
  can include the special name - to compress standard input.
  If zipfile and list are omitted, zip compresses stdin to stdout.
  -f   freshen: only changed files  -u   update: only changed or new files
  -d   delete entries in zipfile    -m   move into zipfile (delete OS files)
  -r   recurse into directories     -j   junk (don't record) directory names
  -0   store only                   -l   convert LF to CR LF (-ll CR LF to LF)
  -1   compress faster              -9   compress better
  -q   quiet operation              -v   verbose operation/print version info
  -c   add one-line comments        -z   add zipfile comment
  -@   read names from stdin        -o   make zipfile as old as latest entry
  -x   exclude the following names  -i   include only the following names
  -F   fix zipfile (-FF try harder) -D   do not add directory entries
  -A   adjust self-extracting exe   -J   junk zipfile prefix (unzipsfx)
  -T   test zipfile integrity       -X   eXclude eXtra file attributes
  -y   store symbolic links as the link instead of the referenced file
  -e   encrypt                      -n   don't compress these suffixes
  -h2  show more help

";

const VERSION: &str = "Copyright (c) 1990-2008 Info-ZIP - Type 'zip \"-L\"' for software license.
This is Zip 3.0 (July 5th 2008), by Info-ZIP.
";

/// Info-ZIP's exit statuses.
const ZE_NONE: i32 = 12;
const ZE_FORM: i32 = 3;
const ZE_PARMS: i32 = 16;
const ZE_CREAT: i32 = 15;

#[derive(Default)]
struct Opts {
    recurse: bool,
    quiet: bool,
    junk: bool,
    no_dirs: bool,
    delete: bool,
    level: u32,
    excludes: Vec<Pattern>,
    archive: Option<String>,
    names: Vec<String>,
}

/// Long options zip knows, mapped to their short letter.
const LONG: &[(&str, char)] = &[
    ("recurse-paths", 'r'),
    ("quiet", 'q'),
    ("junk-paths", 'j'),
    ("no-dir-entries", 'D'),
    ("delete", 'd'),
    ("exclude", 'x'),
    ("help", 'h'),
    ("version", 'v'),
];

/// Parse zip's command line. `Err((message, status))` for a usage error;
/// `Ok(None)` when help or version was printed.
fn parse_args(args: &[String]) -> Result<Result<Opts, char>, String> {
    let mut o = Opts { level: 6, ..Opts::default() };
    let mut i = 0;
    let mut in_excludes = false;
    let mut only_operands = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_operands || a == "-" || !a.starts_with('-') {
            if in_excludes {
                o.excludes.push(Pattern::from_glob_text(a));
            } else if o.archive.is_none() {
                o.archive = Some(a.clone());
            } else {
                o.names.push(a.clone());
            }
            continue;
        }
        in_excludes = false;
        if a == "--" {
            only_operands = true;
            continue;
        }
        let letters: Vec<char> = if let Some(long) = a.strip_prefix("--") {
            match LONG.iter().find(|(n, _)| *n == long) {
                Some((_, c)) => vec![*c],
                None => return Err(format!("long option '{long}' not supported")),
            }
        } else {
            a[1..].chars().collect()
        };
        for c in letters {
            match c {
                'r' | 'R' => o.recurse = true,
                'q' => o.quiet = true,
                'j' => o.junk = true,
                'D' => o.no_dirs = true,
                'd' => o.delete = true,
                'h' => return Ok(Err('h')),
                'v' => return Ok(Err('v')),
                '0'..='9' => o.level = c.to_digit(10).unwrap_or(6),
                'x' => {
                    if args.get(i).is_none_or(|n| n.starts_with('-')) {
                        return Err("option 'x' (exclude files matching patterns) requires a value".into());
                    }
                    in_excludes = true;
                }
                c => return Err(format!("short option '{c}' not supported")),
            }
        }
    }
    Ok(Ok(o))
}

/// The archive's name as zip uses it: `.zip` appended when the last component has no dot.
fn archive_name(a: &str) -> String {
    if a == "-" || path::file_name(a).contains('.') {
        a.to_string()
    } else {
        format!("{a}.zip")
    }
}

/// The name a path is stored under: no leading `/` or `./`.
fn stored_name(p: &str) -> String {
    let mut s = p.trim_start_matches('/');
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.trim_start_matches('/');
    }
    // `zip -r x.zip .` stores the directory's contents under their own names.
    if s == "." {
        s = "";
    }
    s.to_string()
}

/// A file or directory to add, in the order zip adds them.
struct Item {
    name: String,
    /// Sandbox path (`None`: stdin).
    full: Option<String>,
    dir: bool,
}

async fn say(ctx: &CommandContext<'_>, s: &str) -> Result<(), IoError> {
    ctx.out(s.as_bytes()).await
}

#[async_trait]
impl Utility for Zip {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        if ctx.args.is_empty() {
            say(ctx, HELP).await?;
            return Ok(0);
        }
        let o = match parse_args(ctx.args) {
            Ok(Ok(o)) => o,
            Ok(Err('h')) => {
                say(ctx, HELP).await?;
                return Ok(0);
            }
            Ok(Err(_)) => {
                say(ctx, VERSION).await?;
                return Ok(0);
            }
            Err(m) => {
                say(ctx, &format!("\nzip error: Invalid command arguments ({m})\n")).await?;
                return Ok(ZE_PARMS);
            }
        };
        let Some(archive) = o.archive.as_deref().map(archive_name) else {
            say(ctx, HELP).await?;
            return Ok(0);
        };
        let full_archive = ctx.resolve(&archive);
        // The existing archive, if any.
        let (old_data, old) = match ctx.fs.metadata(&full_archive).await {
            Ok(m) if m.is_file() => {
                let d = ctx.fs.read(&full_archive).await.unwrap_or_default();
                match read_central(&d) {
                    Ok(es) => (d, es),
                    Err(_) => {
                        say(
                            ctx,
                            "\tzip warning: missing end signature--probably not a zip file (did you\n\
                             \tzip warning: remember to use binary mode when you transferred it?)\n\
                             \tzip warning: (if you are trying to read a damaged archive try -F)\n",
                        )
                        .await?;
                        say(ctx, &format!("\nzip error: Zip file structure invalid ({archive})\n")).await?;
                        return Ok(ZE_FORM);
                    }
                }
            }
            _ => (Vec::new(), Vec::new()),
        };
        if o.delete {
            return Ok(delete(ctx, &o, &archive, &full_archive, &old_data, old).await?);
        }
        let items = gather(ctx, &o).await?;
        if items.is_empty() {
            say(ctx, &format!("\nzip error: Nothing to do! ({archive})\n")).await?;
            return Ok(ZE_NONE);
        }
        let zone = Zone::from_tz(ctx.env.get("TZ").as_deref());
        // Existing members kept in place (replaced where re-added), new ones appended.
        let mut slots: Vec<(Entry, Option<(Vec<u8>, Entry)>)> = old.into_iter().map(|e| (e, None)).collect();
        let mut appended: Vec<(Vec<u8>, Entry)> = Vec::new();
        for it in &items {
            if !ctx.still_running() {
                return Ok(1);
            }
            let (data, mtime, mode) = match &it.full {
                None => {
                    let d = match ctx.read_stdin().await {
                        Ok(d) => d,
                        Err(_) => return Ok(1),
                    };
                    (d, to_unix(SystemTime::now()).0, 0o100600)
                }
                Some(full) => {
                    let m = match ctx.fs.metadata(full).await {
                        Ok(m) => m,
                        Err(e) => {
                            say(ctx, &format!("\tzip warning: could not open for reading: {}\n", it.name)).await?;
                            let _ = e;
                            continue;
                        }
                    };
                    let kind = if it.dir { 0o040000 } else { 0o100000 };
                    let data = if it.dir {
                        Vec::new()
                    } else {
                        match ctx.fs.read(full).await {
                            Ok(d) => d,
                            Err(e) => {
                                say(ctx, &format!("\tzip warning: could not open for reading: {}: {e}\n", it.name))
                                    .await?;
                                continue;
                            }
                        }
                    };
                    (data, to_unix(m.mtime).0, kind | (m.mode & 0o7777))
                }
            };
            let crc = crc32(&data);
            let packed = if o.level > 0 && !data.is_empty() { Some(deflate(&data, o.level)) } else { None };
            let (method, body, pct) = match packed {
                Some(p) if p.len() < data.len() => (DEFLATED, p, true),
                _ => (STORED, data.clone(), false),
            };
            let saved = if pct { percent(data.len() as u64, body.len() as u64) } else { 0 };
            let local = mtime + i64::from(zone.info(mtime).0);
            let member = NewMember {
                name: it.name.clone(),
                method,
                crc,
                usize: data.len() as u64,
                data: body,
                dos: dos_datetime(local),
                mtime,
                mode,
            };
            let built = new_member_entry(&member);
            let verb = if let Some(slot) = slots.iter_mut().find(|(e, _)| e.name == it.name) {
                slot.1 = Some(built);
                "updating"
            } else {
                appended.push(built);
                "  adding"
            };
            if !o.quiet {
                let how = if method == DEFLATED { "deflated" } else { "stored" };
                say(ctx, &format!("{verb}: {} ({how} {saved}%)\n", it.name)).await?;
            }
        }
        let mut w = Writer::default();
        for (e, new) in slots {
            match new {
                Some((rec, ne)) => w.push(&rec, ne),
                None => match local_record(&old_data, &e) {
                    Some(rec) => {
                        let rec = rec.to_vec();
                        w.push(&rec, e)
                    }
                    None => {
                        say(ctx, &format!("\nzip error: Zip file structure invalid ({archive})\n")).await?;
                        return Ok(ZE_FORM);
                    }
                },
            }
        }
        for (rec, e) in appended {
            w.push(&rec, e);
        }
        Ok(write_archive(ctx, &archive, &full_archive, w.finish()).await?)
    }
}

async fn write_archive(ctx: &CommandContext<'_>, archive: &str, full: &str, data: Vec<u8>) -> CommandResult {
    if let Err(e) = ctx.fs.write(full, &data).await {
        say(ctx, &format!("zip I/O error: {e}\n\nzip error: Could not create output file ({archive})\n")).await?;
        return Ok(ZE_CREAT);
    }
    Ok(0)
}

/// `zip -d`: drop the members matching the names (wildcards allowed).
async fn delete(
    ctx: &CommandContext<'_>,
    o: &Opts,
    archive: &str,
    full: &str,
    data: &[u8],
    old: Vec<Entry>,
) -> CommandResult {
    let pats: Vec<Pattern> = o.names.iter().map(|n| Pattern::from_glob_text(n)).collect();
    let mut hit = vec![false; pats.len()];
    let mut keep = Vec::new();
    let mut gone = Vec::new();
    for e in old {
        let mut matched = false;
        for (i, p) in pats.iter().enumerate() {
            if p.matches(&e.name, false) {
                hit[i] = true;
                matched = true;
            }
        }
        if matched {
            gone.push(e.name.clone());
        } else {
            keep.push(e);
        }
    }
    for (n, h) in o.names.iter().zip(&hit) {
        if !h {
            say(ctx, &format!("\tzip warning: name not matched: {n}\n")).await?;
        }
    }
    if gone.is_empty() {
        say(ctx, &format!("\nzip error: Nothing to do! ({archive})\n")).await?;
        return Ok(ZE_NONE);
    }
    if !o.quiet {
        for n in &gone {
            say(ctx, &format!("deleting: {n}\n")).await?;
        }
    }
    if keep.is_empty() {
        say(ctx, "\tzip warning: zip file empty\n").await?;
    }
    let mut w = Writer::default();
    for e in keep {
        let Some(rec) = local_record(data, &e).map(<[u8]>::to_vec) else {
            say(ctx, &format!("\nzip error: Zip file structure invalid ({archive})\n")).await?;
            return Ok(ZE_FORM);
        };
        w.push(&rec, e);
    }
    write_archive(ctx, archive, full, w.finish()).await
}

/// Everything the operands name, directories walked with `-r`, in zip's order.
async fn gather(ctx: &CommandContext<'_>, o: &Opts) -> Result<Vec<Item>, IoError> {
    let mut items: Vec<Item> = Vec::new();
    let max = usize::try_from(ctx.budget.limits.max_glob_results).unwrap_or(usize::MAX);
    let excluded = |name: &str| o.excludes.iter().any(|p| p.matches(name, false));
    for op in &o.names {
        if op == "-" {
            items.push(Item { name: "-".into(), full: None, dir: false });
            continue;
        }
        let full = ctx.resolve(op);
        let Ok(m) = ctx.fs.metadata(&full).await else {
            say(ctx, &format!("\tzip warning: name not matched: {op}\n")).await?;
            continue;
        };
        let base = stored_name(op.trim_end_matches('/'));
        if !m.is_dir() {
            let name = if o.junk { path::file_name(&base).to_string() } else { base };
            if !excluded(&name) {
                items.push(Item { name, full: Some(full), dir: false });
            }
            continue;
        }
        // A directory: its own entry, then (with -r) its tree, depth first in name order.
        let full_op = full.clone();
        let mut stack = vec![(full, base, true)];
        while let Some((node_full, name, is_dir)) = stack.pop() {
            if items.len() >= max || !ctx.still_running() {
                break;
            }
            if !is_dir {
                let name = if o.junk { path::file_name(&name).to_string() } else { name };
                if !excluded(&name) {
                    items.push(Item { name, full: Some(node_full), dir: false });
                }
                continue;
            }
            let dname = format!("{name}/");
            if !o.junk && !o.no_dirs && !name.is_empty() && !excluded(&dname) {
                items.push(Item { name: dname, full: Some(node_full.clone()), dir: true });
            }
            // A link to a directory is stored as that directory's entry, not walked (no cycles).
            let is_link = ctx.fs.symlink_metadata(&node_full).await.is_ok_and(|m| m.is_symlink());
            if !o.recurse || (is_link && node_full != full_op) {
                continue;
            }
            let mut entries = ctx.fs.read_dir(&node_full).await.unwrap_or_default();
            entries.sort_by(|a, b| b.name.cmp(&a.name));
            for e in entries {
                let child = path::join(&node_full, &e.name);
                let cname = if name.is_empty() { e.name.clone() } else { format!("{name}/{}", e.name) };
                let child_dir = match e.file_type {
                    FileType::Dir => true,
                    FileType::Symlink => ctx.fs.metadata(&child).await.is_ok_and(|m| m.is_dir()),
                    FileType::File => false,
                };
                stack.push((child, cname, child_dir));
            }
        }
    }
    // A name given twice is stored once.
    let mut seen = std::collections::HashSet::new();
    items.retain(|it| seen.insert(it.name.clone()));
    Ok(items)
}
