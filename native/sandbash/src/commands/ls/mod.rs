//! `ls`: list directory contents as GNU ls does when stdout is not a terminal
//! (one name per line unless `-C`/`-x`/`-m`), names in C-locale byte order.
//! Block counts assume ext4-like 4 KiB allocation (a host-dependent detail);
//! owner and group are the sandbox user.

pub(crate) mod quote;

use crate::commands::util::quote::{quote, quote_locale};
use crate::commands::util::{human_size as human, Arg, Spec};
use crate::commands::util::file_mode::mode_string;
use crate::commands::util::file_time::{custom_date, full_date, ls_date, tm, to_unix};
use quote::{Quoting, STYLES};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FileType, FsError, Metadata};
use crate::io::IoError;
use crate::pattern::Pattern;
use async_trait::async_trait;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::time::SystemTime;

pub struct Ls;

const SPEC: Spec = Spec::new(
    "aAbcCdfFgGhHI:klLmnNopqQrRsStuUvw:xX1",
    &[
        ("all", Arg::No, "a"),
        ("almost-all", Arg::No, "A"),
        ("classify", Arg::Optional, "F"),
        ("color", Arg::Optional, "color"),
        ("dereference", Arg::No, "L"),
        ("dereference-command-line", Arg::No, "H"),
        ("directory", Arg::No, "d"),
        ("file-type", Arg::No, "file-type"),
        ("format", Arg::Yes, "format"),
        ("full-time", Arg::No, "full-time"),
        ("group-directories-first", Arg::No, "group-directories-first"),
        ("hide", Arg::Yes, "hide"),
        ("human-readable", Arg::No, "h"),
        ("ignore", Arg::Yes, "I"),
        ("indicator-style", Arg::Yes, "indicator-style"),
        ("literal", Arg::No, "N"),
        ("no-group", Arg::No, "G"),
        ("numeric-uid-gid", Arg::No, "n"),
        ("quote-name", Arg::No, "Q"),
        ("quoting-style", Arg::Yes, "quoting-style"),
        ("escape", Arg::No, "b"),
        ("hide-control-chars", Arg::No, "q"),
        ("show-control-chars", Arg::No, "show-control-chars"),
        ("recursive", Arg::No, "R"),
        ("reverse", Arg::No, "r"),
        ("si", Arg::No, "si"),
        ("size", Arg::No, "s"),
        ("sort", Arg::Yes, "sort"),
        ("time", Arg::Yes, "time"),
        ("time-style", Arg::Yes, "time-style"),
        ("width", Arg::Yes, "w"),
    ],
    "[OPTION]... [FILE]...",
)
.status(2);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Name,
    Size,
    Time,
    Ext,
    Version,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    OnePerLine,
    Long,
    Columns,
    Across,
    Commas,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Indicator {
    None,
    Slash,
    FileType,
    Classify,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hidden {
    Skip,
    Almost,
    All,
}

struct Opts {
    hidden: Hidden,
    layout: Layout,
    sort: Sort,
    reverse: bool,
    dirs_first: bool,
    recursive: bool,
    list_dirs: bool,
    indicator: Indicator,
    /// Human sizes with this base (1024 for -h, 1000 for --si).
    human: Option<u64>,
    blocks: bool,
    owner: bool,
    group: bool,
    numeric: bool,
    deref_all: bool,
    deref_cmdline: bool,
    time_style: String,
    quoting: Quoting,
    /// `-q`: control characters as `?`.
    hide_control: bool,
    ignore: Vec<Pattern>,
    hide: Vec<Pattern>,
    /// Line width for -C, -x and -m.
    width: usize,
}

/// One name to show, with what `-l` and the sorts need.
struct Entry {
    name: String,
    full: String,
    meta: Metadata,
    /// A symlink's target text and, when it resolves, the target's metadata.
    link: Option<(String, Option<Metadata>)>,
    nlink: usize,
}

#[async_trait]
impl Utility for Ls {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let o = options(ctx, &p).await?;
        let mut status = 0;
        let implicit = p.operands.is_empty();
        let ops: Vec<String> = if implicit { vec![".".into()] } else { p.operands.clone() };
        let (mut files, mut dirs) = (Vec::new(), Vec::new());
        for op in &ops {
            match operand_entry(ctx, &o, op).await {
                // A working directory removed since: the directory itself is
                // still open to `ls` (as to GNU ls), and empty.
                Err(crate::fs::FsError::NotFound) if implicit => {}
                Ok(e) if e.meta.is_dir() && !o.list_dirs => dirs.push(e),
                Ok(e) => files.push(e),
                Err(e) => {
                    ctx.err(format!("cannot access {}: {e}", quote(op))).await?;
                    status = 2;
                }
            }
        }
        sort_entries(&o, &mut files);
        sort_entries(&o, &mut dirs);
        let mut printed = false;
        if !files.is_empty() {
            print_entries(ctx, &o, &files, false).await?;
            printed = true;
        }
        let headers = ops.len() > 1 || o.recursive;
        // Directories still to list, next one last (`-R` pushes subdirectories).
        let mut queue: Vec<(String, String)> = dirs.into_iter().rev().map(|e| (e.name, e.full)).collect();
        while let Some((name, full)) = queue.pop() {
            if !ctx.still_running() {
                return Ok(2);
            }
            if printed {
                ctx.out(b"\n").await?;
            }
            if headers {
                ctx.out(format!("{name}:\n").as_bytes()).await?;
            }
            printed = true;
            let entries = match list_dir(ctx, &o, &full).await {
                Ok(e) => e,
                Err(e) => {
                    ctx.err(format!("cannot open directory {}: {e}", quote(&name))).await?;
                    status = 2;
                    continue;
                }
            };
            print_entries(ctx, &o, &entries, true).await?;
            if o.recursive {
                let subdirs = entries.iter().filter(|e| e.meta.is_dir() && e.name != "." && e.name != "..");
                let sub: Vec<(String, String)> =
                    subdirs.map(|e| (path::join(&name, &e.name), e.full.clone())).collect();
                queue.extend(sub.into_iter().rev());
            }
        }
        Ok(status)
    }
}

async fn options(ctx: &CommandContext<'_>, p: &crate::commands::util::Parsed) -> UResult<Opts> {
    let mut o = Opts {
        hidden: Hidden::Skip,
        layout: Layout::OnePerLine,
        sort: Sort::Name,
        reverse: false,
        dirs_first: false,
        recursive: false,
        list_dirs: false,
        indicator: Indicator::None,
        human: None,
        blocks: false,
        owner: true,
        group: true,
        numeric: false,
        deref_all: false,
        deref_cmdline: false,
        time_style: "locale".into(),
        quoting: ctx.env.get("QUOTING_STYLE").as_deref().and_then(Quoting::parse).unwrap_or(Quoting::Literal),
        hide_control: false,
        ignore: Vec::new(),
        hide: Vec::new(),
        width: 80,
    };
    let bad = |what: &str, v: &str, valid: &str| {
        format!(
            "invalid argument {} for {}\nValid arguments are:\n{valid}",
            quote_locale(v),
            quote_locale(&format!("--{what}"))
        )
    };
    for opt in &p.opts {
        let v = opt.val.as_deref().unwrap_or("");
        match opt.id {
            "a" => o.hidden = Hidden::All,
            "A" => o.hidden = Hidden::Almost,
            "f" => (o.hidden, o.sort) = (Hidden::All, Sort::None),
            "l" => o.layout = Layout::Long,
            "g" => (o.layout, o.owner) = (Layout::Long, false),
            "o" => (o.layout, o.group) = (Layout::Long, false),
            "n" => (o.layout, o.numeric) = (Layout::Long, true),
            "G" => o.group = false,
            "1" => o.layout = Layout::OnePerLine,
            "C" => o.layout = Layout::Columns,
            "x" => o.layout = Layout::Across,
            "m" => o.layout = Layout::Commas,
            "format" => {
                o.layout = match v {
                    "long" | "verbose" => Layout::Long,
                    "single-column" => Layout::OnePerLine,
                    "vertical" => Layout::Columns,
                    "across" | "horizontal" => Layout::Across,
                    "commas" => Layout::Commas,
                    _ => {
                        let valid = "  - 'verbose', 'long'\n  - 'commas'\n  - 'horizontal', 'across'\n  - 'vertical'\n  - 'single-column'";
                        return Err(UError::usage(2, bad("format", v, valid)));
                    }
                }
            }
            "full-time" => (o.layout, o.time_style) = (Layout::Long, "full-iso".into()),
            "time-style" => o.time_style = v.trim_start_matches("posix-").to_string(),
            "S" => o.sort = Sort::Size,
            "t" => o.sort = Sort::Time,
            "X" => o.sort = Sort::Ext,
            "v" => o.sort = Sort::Version,
            "U" => o.sort = Sort::None,
            "sort" => {
                o.sort = match v {
                    "none" => Sort::None,
                    "size" => Sort::Size,
                    "time" => Sort::Time,
                    "extension" => Sort::Ext,
                    "version" => Sort::Version,
                    "name" => Sort::Name,
                    _ => {
                        let valid = "  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'";
                        return Err(UError::usage(2, bad("sort", v, valid)));
                    }
                }
            }
            "r" => o.reverse = true,
            "R" => o.recursive = true,
            "d" => o.list_dirs = true,
            "group-directories-first" => o.dirs_first = true,
            "p" => o.indicator = Indicator::Slash,
            "file-type" => o.indicator = Indicator::FileType,
            "F" => {
                o.indicator = match v {
                    "" | "always" | "yes" | "force" => Indicator::Classify,
                    // Output is never a terminal here.
                    "auto" | "tty" | "if-tty" | "never" | "no" | "none" => Indicator::None,
                    _ => {
                        let valid =
                            "  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'";
                        return Err(UError::usage(2, bad("classify", v, valid)));
                    }
                }
            }
            "indicator-style" => {
                o.indicator = match v {
                    "none" => Indicator::None,
                    "slash" => Indicator::Slash,
                    "file-type" => Indicator::FileType,
                    "classify" => Indicator::Classify,
                    _ => {
                        let valid = "  - 'none'\n  - 'slash'\n  - 'file-type'\n  - 'classify'";
                        return Err(UError::usage(2, bad("indicator-style", v, valid)));
                    }
                }
            }
            "h" => o.human = Some(1024),
            "si" => o.human = Some(1000),
            "s" => o.blocks = true,
            "L" => o.deref_all = true,
            "H" => o.deref_cmdline = true,
            "Q" => o.quoting = Quoting::C,
            "N" => o.quoting = Quoting::Literal,
            "b" => o.quoting = Quoting::Escape,
            "q" => o.hide_control = true,
            "show-control-chars" => o.hide_control = false,
            "quoting-style" => match Quoting::parse(v) {
                Some(q) => o.quoting = q,
                None => {
                    let valid: Vec<String> = STYLES.iter().map(|w| format!("  - {}", quote_locale(w))).collect();
                    return Err(UError::usage(2, bad("quoting-style", v, &valid.join("\n"))));
                }
            },
            "I" => o.ignore.push(Pattern::from_glob_text(v)),
            "hide" => o.hide.push(Pattern::from_glob_text(v)),
            "w" => match v.parse::<usize>() {
                Ok(w) => o.width = if w == 0 { usize::MAX } else { w },
                Err(_) => {
                    return Err(UError::new(2, format!("invalid line width: {}", quote_locale(v))));
                }
            },
            // -c/-u (ctime/atime), -k, -q, -b, --color: there is only one time, and
            // output is never a terminal.
            _ => {}
        }
    }
    if !matches!(o.time_style.as_str(), "locale" | "full-iso" | "long-iso" | "iso") && !o.time_style.starts_with('+') {
        let valid = "  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format";
        return Err(UError::usage(
            2,
            format!(
                "invalid argument {} for {}\nValid arguments are:\n{valid}",
                quote_locale(&o.time_style),
                quote_locale("time style")
            ),
        ));
    }
    Ok(o)
}

/// Look up one command-line operand. Symlinks to directories are followed
/// unless `-d`, `-l` or `-F` ask about the link itself (GNU's default).
async fn operand_entry(ctx: &CommandContext<'_>, o: &Opts, op: &str) -> Result<Entry, FsError> {
    if op.is_empty() {
        return Err(FsError::NotFound);
    }
    let full = ctx.resolve(op);
    let lmeta = ctx.fs.symlink_metadata(&full).await?;
    let follow_any = o.deref_all || o.deref_cmdline;
    let follow_dirs = !(o.list_dirs || o.layout == Layout::Long || o.indicator == Indicator::Classify);
    let mut meta = lmeta.clone();
    if lmeta.is_symlink() || op.ends_with('/') {
        match ctx.fs.metadata(&full).await {
            Ok(m) if op.ends_with('/') && !m.is_dir() => return Err(FsError::NotADirectory),
            Ok(m) if follow_any || op.ends_with('/') || (follow_dirs && m.is_dir()) => meta = m,
            Ok(_) => {}
            Err(e) if follow_any || op.ends_with('/') => return Err(e),
            Err(_) => {}
        }
    }
    entry(ctx, op.to_string(), full, meta).await
}

async fn entry(ctx: &CommandContext<'_>, name: String, full: String, meta: Metadata) -> Result<Entry, FsError> {
    let link = if meta.is_symlink() {
        let target = ctx.fs.read_link(&full).await?;
        Some((target, ctx.fs.metadata(&full).await.ok()))
    } else {
        None
    };
    let nlink = if meta.is_symlink() { 1 } else { ctx.fs.link_count(&full).await.unwrap_or(1) as usize };
    Ok(Entry { name, full, meta, link, nlink })
}

/// A directory's entries as shown (hidden ones filtered, `.`/`..` with -a), sorted.
async fn list_dir(ctx: &CommandContext<'_>, o: &Opts, full: &str) -> Result<Vec<Entry>, FsError> {
    let mut names: Vec<String> = Vec::new();
    let mut types: HashMap<String, FileType> = HashMap::new();
    if o.hidden == Hidden::All {
        names.push(".".into());
        names.push("..".into());
    }
    for e in ctx.fs.read_dir(full).await? {
        let hidden = e.name.starts_with('.');
        if hidden && o.hidden == Hidden::Skip {
            continue;
        }
        if o.ignore.iter().any(|p| p.matches(&e.name, false))
            || (o.hidden == Hidden::Skip && o.hide.iter().any(|p| p.matches(&e.name, false)))
        {
            continue;
        }
        types.insert(e.name.clone(), e.file_type);
        names.push(e.name);
    }
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        if !ctx.still_running() {
            break;
        }
        let child = match name.as_str() {
            "." => full.to_string(),
            ".." => path::parent(full).to_string(),
            n => path::join(full, n),
        };
        let meta = if o.deref_all { ctx.fs.metadata(&child).await } else { Err(FsError::NotFound) };
        let meta = match meta {
            Ok(m) => m,
            Err(_) => match ctx.fs.symlink_metadata(&child).await {
                Ok(m) => m,
                // A directory that may be read but not searched still shows
                // its names, as the listing gives their types.
                Err(FsError::PermissionDenied) if o.layout != Layout::Long => Metadata {
                    file_type: types.get(&name).copied().unwrap_or(FileType::File),
                    size: 0,
                    mode: 0,
                    mtime: std::time::UNIX_EPOCH,
                },
                Err(_) => continue,
            },
        };
        if let Ok(e) = entry(ctx, name, child, meta).await {
            out.push(e);
        }
    }
    sort_entries(o, &mut out);
    Ok(out)
}

fn sort_entries(o: &Opts, v: &mut [Entry]) {
    if o.sort != Sort::None {
        v.sort_by(|a, b| {
            let by = match o.sort {
                Sort::Size => b.meta.size.cmp(&a.meta.size),
                Sort::Time => b.meta.mtime.cmp(&a.meta.mtime),
                Sort::Ext => extension(&a.name).cmp(extension(&b.name)),
                Sort::Version => version_cmp(&a.name, &b.name),
                _ => Ordering::Equal,
            };
            by.then_with(|| a.name.as_bytes().cmp(b.name.as_bytes()))
        });
        if o.reverse {
            v.reverse();
        }
    }
    if o.dirs_first {
        v.sort_by_key(|e| !is_dirish(e));
    }
}

fn is_dirish(e: &Entry) -> bool {
    e.meta.is_dir() || e.link.as_ref().is_some_and(|(_, m)| m.as_ref().is_some_and(Metadata::is_dir))
}

fn extension(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[i..],
        _ => "",
    }
}

/// Natural order: digit runs compare as numbers (a simplified `filevercmp`).
fn version_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].is_ascii_digit() && b[j].is_ascii_digit() {
            let si = i;
            while i < a.len() && a[i].is_ascii_digit() {
                i += 1;
            }
            let sj = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let (x, y) = (trim_zeros(&a[si..i]), trim_zeros(&b[sj..j]));
            let c = x.len().cmp(&y.len()).then_with(|| x.cmp(y));
            if c != Ordering::Equal {
                return c;
            }
        } else {
            if a[i] != b[j] {
                return a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
        }
    }
    (a.len() - i).cmp(&(b.len() - j))
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let n = d.iter().take_while(|&&c| c == b'0').count();
    &d[n..]
}

/// Allocated size in 1 KiB blocks (4 KiB allocation units; symlinks take none).
fn blocks_k(m: &Metadata) -> u64 {
    match m.file_type {
        FileType::Symlink => 0,
        _ => m.size.div_ceil(4096) * 4,
    }
}

fn indicator(o: &Opts, m: &Metadata) -> &'static str {
    match (o.indicator, m.file_type) {
        (Indicator::None, _) => "",
        (_, FileType::Dir) => "/",
        (Indicator::Slash, _) => "",
        (_, FileType::Symlink) => "@",
        (Indicator::Classify, FileType::File) if m.mode & 0o111 != 0 => "*",
        _ => "",
    }
}

fn shown_name(o: &Opts, name: &str) -> String {
    o.quoting.show(name, o.hide_control)
}

/// A name as shown in a listing where `pad` says some name got quotes:
/// the others get a space so the names line up (GNU's alignment).
fn aligned_name(o: &Opts, name: &str, pad: bool) -> String {
    let shown = shown_name(o, name);
    if pad && !shown.starts_with(['\'', '"']) {
        format!(" {shown}")
    } else {
        shown
    }
}

async fn print_entries(ctx: &CommandContext<'_>, o: &Opts, v: &[Entry], is_dir_listing: bool) -> Result<(), IoError> {
    let size_text = |e: &Entry| match o.human {
        Some(b) => human(e.meta.size, b),
        None => e.meta.size.to_string(),
    };
    let block_text = |e: &Entry| match o.human {
        Some(b) => human(blocks_k(&e.meta) * 1024, b),
        None => blocks_k(&e.meta).to_string(),
    };
    let mut out = String::new();
    if is_dir_listing && (o.layout == Layout::Long || o.blocks) {
        let total: u64 = v.iter().map(|e| blocks_k(&e.meta)).sum();
        let t = match o.human {
            Some(b) => human(total * 1024, b),
            None => total.to_string(),
        };
        out.push_str(&format!("total {t}\n"));
    }
    let bw = v.iter().map(|e| block_text(e).len()).max().unwrap_or(0);
    let multi = matches!(o.layout, Layout::Long | Layout::Columns | Layout::Across);
    let pad = multi && o.quoting.aligns() && v.iter().any(|e| shown_name(o, &e.name).starts_with(['\'', '"']));
    if o.layout != Layout::Long {
        let names: Vec<String> = v
            .iter()
            .map(|e| {
                let prefix = if o.blocks { format!("{:>bw$} ", block_text(e)) } else { String::new() };
                format!("{prefix}{}{}", aligned_name(o, &e.name, pad), indicator(o, &e.meta))
            })
            .collect();
        match o.layout {
            Layout::Columns | Layout::Across => columns(&mut out, &names, o.layout == Layout::Columns, o.width),
            Layout::Commas => commas(&mut out, &names, o.width),
            _ => names.iter().for_each(|n| {
                out.push_str(n);
                out.push('\n');
            }),
        }
        return ctx.out(out.as_bytes()).await;
    }
    let user = if o.numeric { "1000".to_string() } else { ctx.sys.username.clone() };
    let lw = v.iter().map(|e| e.nlink.to_string().len()).max().unwrap_or(0);
    let sw = v.iter().map(|e| size_text(e).len()).max().unwrap_or(0);
    let now = SystemTime::now();
    for e in v {
        if o.blocks {
            out.push_str(&format!("{:>bw$} ", block_text(e)));
        }
        out.push_str(&format!("{} {:>lw$} ", mode_string(e.meta.file_type, e.meta.mode), e.nlink));
        if o.owner {
            out.push_str(&format!("{user} "));
        }
        if o.group {
            out.push_str(&format!("{user} "));
        }
        let date = match o.time_style.as_str() {
            "full-iso" => full_date(e.meta.mtime),
            "long-iso" | "iso" => iso_date(&o.time_style, e.meta.mtime, now),
            s if s.starts_with('+') => custom_date(&s[1..], e.meta.mtime, now),
            _ => ls_date(e.meta.mtime, now),
        };
        out.push_str(&format!("{:>sw$} {date} {}", size_text(e), aligned_name(o, &e.name, pad)));
        match &e.link {
            Some((target, tm)) => {
                out.push_str(" -> ");
                out.push_str(&shown_name(o, target));
                if let (Some(m), Indicator::Classify | Indicator::FileType) = (tm, o.indicator) {
                    out.push_str(indicator(o, m));
                }
            }
            None => out.push_str(indicator(o, &e.meta)),
        }
        out.push('\n');
    }
    ctx.out(out.as_bytes()).await
}

/// `--time-style=long-iso` (`2020-01-02 03:04`) and `iso` (`01-02 03:04`
/// when recent, else `2020-01-02 `).
fn iso_date(style: &str, t: SystemTime, now: SystemTime) -> String {
    let x = tm(to_unix(t).0);
    let (s, n) = (to_unix(t).0, to_unix(now).0);
    let recent = s > n - 31_556_952 / 2 && s <= n;
    match (style, recent) {
        ("iso", true) => format!("{:02}-{:02} {:02}:{:02}", x.mon, x.day, x.hour, x.min),
        ("iso", false) => format!("{}-{:02}-{:02} ", x.year, x.mon, x.day),
        _ => format!("{}-{:02}-{:02} {:02}:{:02}", x.year, x.mon, x.day, x.hour, x.min),
    }
}

/// `-m`: names separated by `, `, wrapped before 80 columns.
fn commas(out: &mut String, names: &[String], width: usize) {
    let mut pos = 0;
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            if pos + n.len() + 2 < width {
                pos += 2;
                out.push_str(", ");
            } else {
                pos = 0;
                out.push_str(",\n");
            }
        }
        out.push_str(n);
        pos += n.len();
    }
    if !names.is_empty() {
        out.push('\n');
    }
}

/// `-C` (down columns) and `-x` (across) for an 80-column line, padded with
/// tabs as GNU does.
fn columns(out: &mut String, names: &[String], vertical: bool, width: usize) {
    let n = names.len();
    if n == 0 {
        return;
    }
    let lens: Vec<usize> = names.iter().map(|s| s.chars().count()).collect();
    // GNU's calculate_columns: every column starts 3 wide; keep the most
    // columns whose widths (name + 2, none after the last) stay under the width.
    let mut best: Vec<usize> = vec![0];
    for cols in 1..=n.min((width / 3).max(1)) {
        let rows = n.div_ceil(cols);
        let mut widths = vec![3usize; cols];
        for (f, &len) in lens.iter().enumerate() {
            let idx = if vertical { f / rows } else { f % cols };
            let real = len + if idx == cols - 1 { 0 } else { 2 };
            widths[idx] = widths[idx].max(real);
        }
        if cols == 1 || widths.iter().sum::<usize>() < width {
            best = widths;
        }
    }
    let cols = best.len();
    let rows = n.div_ceil(cols);
    let indent = |out: &mut String, mut from: usize, to: usize| {
        while from < to {
            if to / 8 > (from + 1) / 8 {
                out.push('\t');
                from += 8 - from % 8;
            } else {
                out.push(' ');
                from += 1;
            }
        }
    };
    if vertical {
        for row in 0..rows {
            let (mut f, mut col, mut pos) = (row, 0, 0);
            loop {
                out.push_str(&names[f]);
                let w = best[col];
                col += 1;
                f += rows;
                if f >= n {
                    break;
                }
                indent(out, pos + lens[f - rows], pos + w);
                pos += w;
            }
            out.push('\n');
        }
    } else {
        let mut pos = 0;
        out.push_str(&names[0]);
        for f in 1..n {
            let col = f % cols;
            if col == 0 {
                out.push('\n');
                pos = 0;
            } else {
                let w = best[col - 1];
                indent(out, pos + lens[f - 1], pos + w);
                pos += w;
            }
            out.push_str(&names[f]);
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::file_time::from_unix;
    use crate::commands::util::file_util::testing::{check_on, fs_with};
    use crate::commands::util::testutil::{block_on, check};
    use crate::fs::Fs;
    use std::sync::Arc;

    // Expected outputs are GNU ls 9.1 (LC_ALL=C, TZ=UTC) on the same tree, with
    // its owner `root` written as the sandbox user.

    /// d/{f,sub/}, e/, big (5000 bytes, 2020-01-02 03:04:05), B, Z, a_, .hidden;
    /// every other mtime is @1000000 (Jan 12 1970).
    fn tree() -> Arc<dyn Fs> {
        let big = "x".repeat(5000);
        let fs = fs_with(
            &[
                ("d/f", "hello\n"),
                ("d/sub/", ""),
                ("e/", ""),
                ("big", &big),
                ("B", ""),
                ("Z", ""),
                ("a_", ""),
                (".hidden", ""),
            ],
            &[],
        );
        for p in ["d/f", "d/sub", "d", "e", "B", "Z", "a_", ".hidden"] {
            block_on(fs.set_mtime(&format!("/w/{p}"), from_unix(1_000_000, 0))).expect("mtime");
        }
        block_on(fs.set_mtime("/w/big", from_unix(1_577_934_245, 0))).expect("mtime");
        fs
    }

    #[track_caller]
    fn ls(args: &[&str], out: &str) {
        let fs = tree();
        let before = crate::commands::util::testutil::tree(&fs);
        let mut argv = vec!["ls"];
        argv.extend_from_slice(args);
        check_on(&fs, &argv, "", out, "", 0, &before);
    }

    #[test]
    fn names() {
        ls(&[], "B\nZ\na_\nbig\nd\ne\n");
        ls(&["-a"], ".\n..\n.hidden\nB\nZ\na_\nbig\nd\ne\n");
        ls(&["-A"], ".hidden\nB\nZ\na_\nbig\nd\ne\n");
        ls(&["-r"], "e\nd\nbig\na_\nZ\nB\n");
        ls(&["-S"], "big\nd\ne\nB\nZ\na_\n");
        ls(&["-t"], "big\nB\nZ\na_\nd\ne\n");
        ls(&["-p"], "B\nZ\na_\nbig\nd/\ne/\n");
        ls(&["-1", "d"], "f\nsub\n");
        ls(&["-p", "d"], "f\nsub/\n");
        ls(&["-Q"], "\"B\"\n\"Z\"\n\"a_\"\n\"big\"\n\"d\"\n\"e\"\n");
        ls(&["-I", "a*"], "B\nZ\nbig\nd\ne\n");
        ls(&["-d", "d", "e"], "d\ne\n");
        ls(&["d/"], "f\nsub\n");
        ls(&["--color=never", "--group-directories-first"], "d\ne\nB\nZ\na_\nbig\n");
    }

    #[test]
    fn several_operands_and_recursion() {
        ls(&["d", "e"], "d:\nf\nsub\n\ne:\n");
        ls(&["big", "d"], "big\n\nd:\nf\nsub\n");
        ls(&["-R"], ".:\nB\nZ\na_\nbig\nd\ne\n\n./d:\nf\nsub\n\n./d/sub:\n\n./e:\n");
        ls(&["-R", "d"], "d:\nf\nsub\n\nd/sub:\n");
        let fs = tree();
        let o = crate::commands::util::testutil::run_full(&fs, &["ls", "nope", "big", "d"], b"", &[], Default::default());
        assert_eq!(
            (o.out.as_str(), o.err.as_str(), o.status),
            ("big\n\nd:\nf\nsub\n", "ls: cannot access 'nope': No such file or directory\n", 2)
        );
    }

    #[test]
    fn long_format() {
        ls(
            &["-lS"],
            "total 16\n\
             -rw-r--r-- 1 sandbox sandbox 5000 Jan  2  2020 big\n\
             drwxr-xr-x 3 sandbox sandbox 4096 Jan 12  1970 d\n\
             drwxr-xr-x 2 sandbox sandbox 4096 Jan 12  1970 e\n\
             -rw-r--r-- 1 sandbox sandbox    0 Jan 12  1970 B\n\
             -rw-r--r-- 1 sandbox sandbox    0 Jan 12  1970 Z\n\
             -rw-r--r-- 1 sandbox sandbox    0 Jan 12  1970 a_\n",
        );
        ls(&["-la", "d/sub"], "total 8\ndrwxr-xr-x 2 sandbox sandbox 4096 Jan 12  1970 .\ndrwxr-xr-x 3 sandbox sandbox 4096 Jan 12  1970 ..\n");
        ls(&["-lA", "d"], "total 8\n-rw-r--r-- 1 sandbox sandbox    6 Jan 12  1970 f\ndrwxr-xr-x 2 sandbox sandbox 4096 Jan 12  1970 sub\n");
        ls(
            &["-lh"],
            "total 16K\n\
             -rw-r--r-- 1 sandbox sandbox    0 Jan 12  1970 B\n\
             -rw-r--r-- 1 sandbox sandbox    0 Jan 12  1970 Z\n\
             -rw-r--r-- 1 sandbox sandbox    0 Jan 12  1970 a_\n\
             -rw-r--r-- 1 sandbox sandbox 4.9K Jan  2  2020 big\n\
             drwxr-xr-x 3 sandbox sandbox 4.0K Jan 12  1970 d\n\
             drwxr-xr-x 2 sandbox sandbox 4.0K Jan 12  1970 e\n",
        );
        ls(&["-ld", "d"], "drwxr-xr-x 3 sandbox sandbox 4096 Jan 12  1970 d\n");
        ls(&["-go", "big"], "-rw-r--r-- 1 5000 Jan  2  2020 big\n");
        ls(&["--full-time", "d"], "total 8\n-rw-r--r-- 1 sandbox sandbox    6 1970-01-12 13:46:40.000000000 +0000 f\ndrwxr-xr-x 2 sandbox sandbox 4096 1970-01-12 13:46:40.000000000 +0000 sub\n");
        ls(&["-l", "--time-style=long-iso", "d"], "total 8\n-rw-r--r-- 1 sandbox sandbox    6 1970-01-12 13:46 f\ndrwxr-xr-x 2 sandbox sandbox 4096 1970-01-12 13:46 sub\n");
        ls(&["-l", "--time-style=iso", "big"], "-rw-r--r-- 1 sandbox sandbox 5000 2020-01-02  big\n");
        ls(&["-s"], "total 16\n0 B\n0 Z\n0 a_\n8 big\n4 d\n4 e\n");
        ls(&["-sh"], "total 16K\n   0 B\n   0 Z\n   0 a_\n8.0K big\n4.0K d\n4.0K e\n");
    }

    #[test]
    fn symlinks_and_classify() {
        let fs = fs_with(
            &[("big", "abc"), ("d/sub/", ""), ("small", "x")],
            &[("lnk", "big"), ("ld", "d"), ("dang", "nowhere")],
        );
        block_on(fs.set_mode("/w/small", 0o755)).expect("mode");
        for p in ["big", "d", "d/sub", "small"] {
            block_on(fs.set_mtime(&format!("/w/{p}"), from_unix(1_000_000, 0))).ok();
        }
        let t = crate::commands::util::testutil::tree(&fs);
        check_on(&fs, &["ls", "-F"], "", "big\nd/\ndang@\nld@\nlnk@\nsmall*\n", "", 0, &t);
        check_on(&fs, &["ls", "ld"], "", "sub\n", "", 0, &t);
        check_on(&fs, &["ls", "-F", "ld"], "", "ld@\n", "", 0, &t);
        check_on(&fs, &["ls", "-d", "ld"], "", "ld\n", "", 0, &t);
        // A link's own mtime is its creation time (the fs cannot change it): mask it.
        let masked = |argv: &[&str]| {
            let o = crate::commands::util::testutil::run_full(&fs, argv, b"", &[], Default::default());
            let re = regex::Regex::new(r"[A-Z][a-z]{2} [ 0-9]{2} (\d\d:\d\d| \d{4})").expect("regex");
            (re.replace_all(&o.out, "DATE").into_owned(), o.err, o.status)
        };
        assert_eq!(
            masked(&["ls", "-l", "dang", "ld"]),
            (
                "lrwxrwxrwx 1 sandbox sandbox 7 DATE dang -> nowhere\nlrwxrwxrwx 1 sandbox sandbox 1 DATE ld -> d\n"
                    .into(),
                String::new(),
                0
            )
        );
        assert_eq!(
            masked(&["ls", "-lF", "ld", "small"]),
            (
                "lrwxrwxrwx 1 sandbox sandbox 1 DATE ld -> d/\n-rwxr-xr-x 1 sandbox sandbox 1 DATE small*\n".into(),
                String::new(),
                0
            )
        );
        check_on(
            &fs,
            &["ls", "-L", "-l", "ld", "dang"],
            "",
            "ld:\ntotal 4\ndrwxr-xr-x 2 sandbox sandbox 4096 Jan 12  1970 sub\n",
            "ls: cannot access 'dang': No such file or directory\n",
            2,
            &t,
        );
    }

    #[test]
    fn sorts_and_layouts() {
        let files = [("B", ""), ("Z", ""), ("a_", ""), ("big", ""), ("d/", ""), ("e/", "")];
        check(&["ls", "-C"], &files, "", "B  Z  a_  big  d  e\n", "", 0);
        check(&["ls", "-x"], &files, "", "B  Z  a_  big  d  e\n", "", 0);
        check(&["ls", "-m"], &files, "", "B, Z, a_, big, d, e\n", "", 0);
        check(&["ls", "-w", "20", "-C"], &files, "", "B  a_\td\nZ  big\te\n", "", 0);
        let files = [("B", ""), ("f10", ""), ("f9", ""), ("f1", "")];
        check(&["ls", "-v"], &files, "", "B\nf1\nf9\nf10\n", "", 0);
        let files = [("B", ""), ("a.txt", ""), ("b.c", ""), ("c.txt", "")];
        check(&["ls", "-X"], &files, "", "B\nb.c\na.txt\nc.txt\n", "", 0);
    }

    #[test]
    fn errors() {
        check(&["ls", "nope"], &[], "", "", "ls: cannot access 'nope': No such file or directory\n", 2);
        check(&["ls", "big/"], &[("big", "")], "", "", "ls: cannot access 'big/': Not a directory\n", 2);
        check(
            &["ls", "-x", "--bogus"],
            &[],
            "",
            "",
            "ls: unrecognized option '--bogus'\nTry 'ls --help' for more information.\n",
            2,
        );
        check(&["ls", "-y"], &[], "", "", "ls: invalid option -- 'y'\nTry 'ls --help' for more information.\n", 2);
        check(&["ls", "--sort=bogus"], &[], "", "", "ls: invalid argument 'bogus' for '--sort'\nValid arguments are:\n  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'\nTry 'ls --help' for more information.\n", 2);
    }
}
