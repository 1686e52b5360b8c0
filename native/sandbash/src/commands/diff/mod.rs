//! `diff`: compare files line by line (GNU diffutils 3.8): normal, unified
//! and context output, `-q`, `-r` over directories, and the whitespace/case
//! options. Matching lines are found by `diff_seq` (GNU's algorithm).

mod formats;
mod side;
pub(crate) mod seq;

use crate::commands::util::{parse, quotef, Arg, OptError, Spec};
use seq::{diff, Change};
use crate::commands::util::file_time::full_date;
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FileType};
use crate::io::IoError;
use async_trait::async_trait;
use std::borrow::Cow;
use std::collections::HashMap;

pub struct Diff;

const SPEC: Spec = Spec::new(
    "qsuU:cC:rNiwbBZEaTpdtD:eI:x:X:yW:",
    &[
        ("brief", Arg::No, "q"),
        ("report-identical-files", Arg::No, "s"),
        ("unified", Arg::Optional, "unified"),
        ("context", Arg::Optional, "context"),
        ("recursive", Arg::No, "r"),
        ("new-file", Arg::No, "N"),
        ("ignore-case", Arg::No, "i"),
        ("ignore-all-space", Arg::No, "w"),
        ("ignore-space-change", Arg::No, "b"),
        ("ignore-blank-lines", Arg::No, "B"),
        ("ignore-trailing-space", Arg::No, "Z"),
        ("ignore-tab-expansion", Arg::No, "E"),
        ("strip-trailing-cr", Arg::No, "strip-trailing-cr"),
        ("text", Arg::No, "a"),
        ("label", Arg::Yes, "label"),
        ("normal", Arg::No, "normal"),
        ("minimal", Arg::No, "d"),
        ("color", Arg::Optional, "color"),
        ("initial-tab", Arg::No, "T"),
        ("show-c-function", Arg::No, "p"),
        ("expand-tabs", Arg::No, "t"),
        ("ifdef", Arg::Yes, "D"),
        ("ed", Arg::No, "e"),
        ("side-by-side", Arg::No, "y"),
        ("width", Arg::Yes, "W"),
        ("left-column", Arg::No, "left-column"),
        ("suppress-common-lines", Arg::No, "suppress-common-lines"),
        ("ignore-matching-lines", Arg::Yes, "I"),
        ("exclude", Arg::Yes, "x"),
        ("exclude-from", Arg::Yes, "X"),
        ("unidirectional-new-file", Arg::No, "unidirectional-new-file"),
        ("line-format", Arg::Yes, "line-format"),
        ("old-line-format", Arg::Yes, "old-line-format"),
        ("new-line-format", Arg::Yes, "new-line-format"),
        ("unchanged-line-format", Arg::Yes, "unchanged-line-format"),
        ("old-group-format", Arg::Yes, "old-group-format"),
        ("new-group-format", Arg::Yes, "new-group-format"),
        ("changed-group-format", Arg::Yes, "changed-group-format"),
        ("unchanged-group-format", Arg::Yes, "unchanged-group-format"),
    ],
    "[OPTION]... FILES",
)
.status(2);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Normal,
    Unified(usize),
    Context(usize),
    /// Through line and group formats (`-D`, `--*-format`).
    Formats,
    /// `-e`: an ed script that makes the second file of the first.
    Ed,
    /// `-y`: side by side.
    Side,
}

struct Opts {
    format: Format,
    formats: formats::Formats,
    brief: bool,
    report_same: bool,
    recursive: bool,
    new_file: bool,
    /// `--unidirectional-new-file`: a missing first file is empty.
    new_first: bool,
    /// `-I RE`: changes whose every line matches one of these are not shown.
    ignore_lines: Vec<regex::bytes::Regex>,
    /// `-x`/`-X`: names in directories not compared.
    excludes: Vec<crate::pattern::Pattern>,
    /// `-W`: the width of `-y`'s lines.
    width: usize,
    /// `-y`'s `-t`, `--left-column`, `--suppress-common-lines`.
    side: (bool, bool, bool),
    icase: bool,
    all_space: bool,
    space_change: bool,
    trailing_space: bool,
    blank_lines: bool,
    strip_cr: bool,
    text: bool,
    /// `-d`: a shortest diff even when it is costly to find.
    minimal: bool,
    labels: Vec<String>,
    /// The options as given, for the `diff -r a/f b/f` headers.
    switches: String,
}

/// One side of a comparison: its name as printed and its contents.
struct Side {
    name: String,
    data: Vec<u8>,
    /// Header date (`2026-11-22 10:00:00.000000000 +0000`).
    date: String,
}

#[async_trait]
impl Utility for Diff {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = match parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out_help(b"Usage: diff [OPTION]... FILES\nCompare FILES line by line.\n").await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(crate::commands::util::DIFF_VERSION.as_bytes()).await?;
                return Ok(0);
            }
            Err(e) => {
                ctx.err(e.to_string()).await?;
                return Err(UError::new(2, "Try 'diff --help' for more information."));
            }
        };
        let mut o = Opts {
            format: Format::Normal,
            formats: Default::default(),
            brief: false,
            report_same: false,
            recursive: false,
            new_file: false,
            new_first: false,
            ignore_lines: Vec::new(),
            excludes: Vec::new(),
            width: 130,
            side: (false, false, false),
            icase: false,
            all_space: false,
            space_change: false,
            trailing_space: false,
            blank_lines: false,
            strip_cr: false,
            text: false,
            minimal: false,
            labels: Vec::new(),
            switches: String::new(),
        };
        // The output style an option chose first; another one conflicts.
        let mut style: Option<std::mem::Discriminant<Format>> = None;
        for opt in &p.opts {
            let v = opt.val.as_deref();
            let lines = |v: Option<&str>, dflt: usize| -> Result<usize, String> {
                match v {
                    None => Ok(dflt),
                    Some(s) => s.parse().map_err(|_| format!("invalid context length '{s}'")),
                }
            };
            let fmt = match opt.id {
                "u" => Some(lines(None, 3).map(Format::Unified)),
                "U" | "unified" => Some(lines(v, 3).map(Format::Unified)),
                "c" => Some(lines(None, 3).map(Format::Context)),
                "C" | "context" => Some(lines(v, 3).map(Format::Context)),
                "normal" => Some(Ok(Format::Normal)),
                "e" => Some(Ok(Format::Ed)),
                "y" => Some(Ok(Format::Side)),
                _ if opt.id == "D" || opt.id.ends_with("-format") => Some(set_format(&mut o.formats, opt.id, v)),
                _ => None,
            };
            if let Some(Ok(f)) = &fmt {
                if style.is_some_and(|s| s != std::mem::discriminant(f)) {
                    ctx.err("conflicting output style options").await?;
                    return Err(UError::new(2, "Try 'diff --help' for more information."));
                }
                style = Some(std::mem::discriminant(f));
            }
            match fmt {
                Some(Ok(f)) => o.format = f,
                Some(Err(m)) => {
                    ctx.err(m).await?;
                    return Err(UError::new(2, "Try 'diff --help' for more information."));
                }
                None => {}
            }
            match opt.id {
                "q" => o.brief = true,
                "s" => o.report_same = true,
                "r" => o.recursive = true,
                "N" => o.new_file = true,
                "unidirectional-new-file" => o.new_first = true,
                "W" => match v.unwrap_or_default().parse::<usize>() {
                    Ok(w) if w > 0 => o.width = w.min(1 << 16),
                    _ => {
                        ctx.err(format!("invalid width '{}'", v.unwrap_or_default())).await?;
                        return Err(UError::new(2, "Try 'diff --help' for more information."));
                    }
                },
                "x" => o.excludes.push(crate::pattern::Pattern::from_glob_text(v.unwrap_or_default())),
                "X" => {
                    let list = v.unwrap_or_default();
                    match ctx.read_operand(list).await {
                        Ok(d) => o.excludes.extend(
                            String::from_utf8_lossy(&d)
                                .lines()
                                .filter(|l| !l.is_empty())
                                .map(crate::pattern::Pattern::from_glob_text),
                        ),
                        Err(e) => {
                            ctx.err(format!("{list}: {e}")).await?;
                            return Ok(2);
                        }
                    }
                }
                "I" => {
                    let re = v.unwrap_or_default();
                    let compiled = crate::commands::util::regex_translate::translate(re, false)
                        .map_err(|e| e.to_string())
                        .and_then(|t| {
                            crate::commands::util::regex_cache::admit(&t.source).map_err(|e| e.to_string())?;
                            regex::bytes::RegexBuilder::new(&t.source)
                                .size_limit(1 << 20)
                                .build()
                                .map_err(|_| "Invalid regular expression".to_string())
                        });
                    match compiled {
                        Ok(r) => o.ignore_lines.push(r),
                        Err(e) => {
                            ctx.err(format!("{re}: {e}")).await?;
                            return Ok(2);
                        }
                    }
                }
                "i" => o.icase = true,
                "w" => o.all_space = true,
                "b" => o.space_change = true,
                "Z" => o.trailing_space = true,
                "B" => o.blank_lines = true,
                "strip-trailing-cr" => o.strip_cr = true,
                "a" => o.text = true,
                "d" => o.minimal = true,
                "label" => o.labels.push(v.unwrap_or_default().to_string()),
                _ => {}
            }
        }
        o.side = (p.has("t"), p.has("left-column"), p.has("suppress-common-lines"));
        let ops = &p.operands;
        if ops.len() != 2 {
            let msg = match ops.len() {
                0 => "missing operand after 'diff'".to_string(),
                1 => format!("missing operand after {}", crate::commands::util::quote(&ops[0])),
                _ => format!("extra operand {}", crate::commands::util::quote(&ops[2])),
            };
            ctx.err(msg).await?;
            return Err(UError::new(2, "Try 'diff --help' for more information."));
        }
        // The switches as given: every argument but the two operands.
        let mut args: Vec<&String> = ctx.args.iter().collect();
        for op in ops.iter().rev() {
            if let Some(i) = args.iter().rposition(|a| *a == op) {
                args.remove(i);
            }
        }
        o.switches = args.iter().filter(|a| a.as_str() != "--").map(|a| quotef(a)).collect::<Vec<_>>().join(" ");
        let mut d = Differ { ctx, o, status: 0 };
        d.top(&ops[0], &ops[1]).await?;
        Ok(d.status)
    }
}

struct Differ<'c, 'a> {
    ctx: &'c CommandContext<'a>,
    o: Opts,
    status: i32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Missing,
    File,
    Dir,
    Stdin,
}

impl Differ<'_, '_> {
    fn bump(&mut self, s: i32) {
        self.status = self.status.max(s);
    }

    async fn kind(&self, name: &str) -> Kind {
        if name == "-" {
            return Kind::Stdin;
        }
        match self.ctx.fs.metadata(&self.ctx.resolve(name)).await {
            Ok(m) if m.file_type == FileType::Dir => Kind::Dir,
            Ok(_) => Kind::File,
            Err(_) => Kind::Missing,
        }
    }

    /// The two operands: a file and a directory compare the file with the
    /// same-named entry of the directory.
    async fn top(&mut self, a: &str, b: &str) -> Result<(), IoError> {
        let (ka, kb) = (self.kind(a).await, self.kind(b).await);
        match (ka, kb) {
            (Kind::Dir, Kind::Dir) => self.dirs(a, b).await,
            (Kind::Dir, Kind::File | Kind::Stdin) if b != "-" => {
                let a2 = join(a, path::file_name(b));
                self.files(&a2, b, false).await
            }
            (Kind::File | Kind::Stdin, Kind::Dir) if a != "-" => {
                let b2 = join(b, path::file_name(a));
                self.files(a, &b2, false).await
            }
            _ => self.files(a, b, false).await,
        }
    }

    async fn read_side(&mut self, name: &str, absent_ok: bool) -> Result<Option<Side>, IoError> {
        let ctx = self.ctx;
        if name == "-" {
            let data = ctx.read_stdin().await.unwrap_or_default();
            let date = full_date(std::time::SystemTime::now());
            return Ok(Some(Side { name: name.into(), data, date }));
        }
        let p = ctx.resolve(name);
        let meta = ctx.fs.metadata(&p).await;
        match (meta, ctx.fs.read(&p).await) {
            (Ok(m), Ok(data)) => Ok(Some(Side { name: name.into(), data, date: full_date(m.mtime) })),
            (_, Err(e)) => {
                if absent_ok {
                    let date = full_date(std::time::UNIX_EPOCH);
                    return Ok(Some(Side { name: name.into(), data: Vec::new(), date }));
                }
                ctx.err(format!("{name}: {e}")).await?;
                self.bump(2);
                Ok(None)
            }
            (Err(e), _) => {
                ctx.err(format!("{name}: {e}")).await?;
                self.bump(2);
                Ok(None)
            }
        }
    }

    /// Compare two files; `in_dir`: print the `diff ... a b` header first.
    async fn files(&mut self, a: &str, b: &str, in_dir: bool) -> Result<(), IoError> {
        let (Some(sa), Some(sb)) = (self.read_side(a, self.o.new_file || self.o.new_first).await?, self.read_side(b, self.o.new_file).await?) else {
            return Ok(());
        };
        // Formats and -y write the files whole, alike or not.
        if sa.data == sb.data && !matches!(self.o.format, Format::Formats | Format::Side) {
            if self.o.report_same {
                self.ctx.out(format!("Files {a} and {b} are identical\n").as_bytes()).await?;
            }
            return Ok(());
        }
        let binary = !self.o.text && (sa.data.contains(&0) || sb.data.contains(&0));
        if self.o.brief || binary {
            let what = if binary && !self.o.brief { "Binary files" } else { "Files" };
            self.ctx.out(format!("{what} {a} and {b} differ\n").as_bytes()).await?;
            self.bump(1);
            return Ok(());
        }
        // The line tables, their numbers and the map of distinct lines are
        // asked of the budget and made at their size: grown by doubling, the
        // map's last growth alone passed the budget before a check saw it.
        let (na, nb) = (crate::commands::util::lines(&sa.data).count(), crate::commands::util::lines(&sb.data).count());
        if let Err(stop) = crate::limits::scope::reserve((na + nb) as u64 * LINE_BYTES) {
            crate::limits::scope::stop_exec(stop);
            return Ok(());
        }
        let mut la: Vec<&[u8]> = Vec::with_capacity(na);
        la.extend(crate::commands::util::lines(&sa.data));
        let mut lb: Vec<&[u8]> = Vec::with_capacity(nb);
        lb.extend(crate::commands::util::lines(&sb.data));
        // Each distinct line (as the options compare it) gets a number; the
        // deadline is looked at every few thousand lines.
        let mut ids = HashMap::with_capacity_and_hasher(na + nb, Default::default());
        let key = |l| self.key(l);
        let going = || self.ctx.still_running();
        let ia = number(&la, &mut ids, &key, &going);
        let ib = number(&lb, &mut ids, &key, &going);
        let (Some(ia), Some(ib)) = (ia, ib) else { return Ok(()) };
        let ctx = self.ctx;
        let horizon = match self.o.format {
            Format::Normal | Format::Formats | Format::Ed | Format::Side => 0,
            Format::Unified(n) | Format::Context(n) => n,
        };
        let mut changes = diff(&ia, &ib, horizon, self.o.minimal, &mut || ctx.still_running());
        if self.o.blank_lines {
            let blank = |l: &[u8]| l.iter().all(u8::is_ascii_whitespace);
            changes
                .retain(|c| !(la[c.a.0..c.a.1].iter().all(|l| blank(l)) && lb[c.b.0..c.b.1].iter().all(|l| blank(l))));
        }
        if !self.o.ignore_lines.is_empty() {
            let res = &self.o.ignore_lines;
            let ignored = |l: &[u8]| {
                let l = l.strip_suffix(b"\n").unwrap_or(l);
                res.iter().any(|r| r.is_match(l))
            };
            changes.retain(|c| !(la[c.a.0..c.a.1].iter().all(|l| ignored(l)) && lb[c.b.0..c.b.1].iter().all(|l| ignored(l))));
        }
        // Formats and -y write the files whole, alike or not.
        let whole = matches!(self.o.format, Format::Formats | Format::Side);
        if changes.is_empty() && !whole {
            if self.o.report_same {
                self.ctx.out(format!("Files {a} and {b} are identical\n").as_bytes()).await?;
            }
            return Ok(());
        }
        if !changes.is_empty() {
            self.bump(1);
        }
        let mut out = Vec::new();
        if in_dir && !changes.is_empty() {
            let sw = if self.o.switches.is_empty() { String::new() } else { format!("{} ", self.o.switches) };
            out.extend(format!("diff {sw}{} {}\n", quotef(a), quotef(b)).bytes());
        }
        if self.o.format == Format::Formats {
            self.ctx.out(&out).await?;
            return self.through_formats(&la, &lb, &changes).await;
        }
        let (ha, hb) = (self.header(&sa, 0), self.header(&sb, 1));
        match self.o.format {
            Format::Normal | Format::Formats => normal(&mut out, &la, &lb, &changes),
            Format::Ed => ed(&mut out, &lb, &changes),
            Format::Side => {
                let p = &self.o.side;
                let ctx = self.ctx;
                side::Layout::new(self.o.width, p.0, p.1, p.2).write(&mut out, &la, &lb, &changes, &mut || {
                    ctx.still_running()
                });
            }
            Format::Unified(n) => {
                out.extend(format!("--- {ha}\n+++ {hb}\n").bytes());
                unified(&mut out, &la, &lb, &changes, n);
            }
            Format::Context(n) => {
                out.extend(format!("*** {ha}\n--- {hb}\n").bytes());
                context(&mut out, &la, &lb, &changes, n);
            }
        }
        self.ctx.out(&out).await
    }

    /// Both files written through the line and group formats, sent on
    /// group by group.
    async fn through_formats(&self, la: &[&[u8]], lb: &[&[u8]], changes: &[Change]) -> Result<(), IoError> {
        let mut w = formats::Writer::new(&self.o.formats, la, lb);
        let ctx = self.ctx;
        let mut going = || ctx.still_running();
        for g in formats::stretches(changes, la.len(), lb.len()) {
            let done = w.group(&g, &mut going);
            self.ctx.out(&w.take()).await?;
            if done.is_err() {
                break;
            }
        }
        Ok(())
    }

    fn header(&self, s: &Side, i: usize) -> String {
        match self.o.labels.get(i) {
            Some(l) => l.clone(),
            None => format!("{}\t{}", s.name, s.date),
        }
    }

    /// What a line is compared as, after the ignore options.
    fn key<'l>(&self, l: &'l [u8]) -> Cow<'l, [u8]> {
        let o = &self.o;
        if !(o.strip_cr || o.icase || o.all_space || o.space_change || o.trailing_space) {
            return Cow::Borrowed(l);
        }
        let mut k: Vec<u8> = l.to_vec();
        let nl = k.last() == Some(&b'\n');
        if nl {
            k.pop();
        }
        if o.strip_cr && k.last() == Some(&b'\r') {
            k.pop();
        }
        if o.icase {
            k.make_ascii_lowercase();
        }
        let ws = |b: &u8| b.is_ascii_whitespace();
        if o.all_space {
            k.retain(|b| !ws(b));
        } else if o.space_change {
            let mut n = Vec::with_capacity(k.len());
            let mut in_ws = false;
            for &b in &k {
                if ws(&b) {
                    in_ws = true;
                } else {
                    if in_ws {
                        n.push(b' ');
                    }
                    in_ws = false;
                    n.push(b);
                }
            }
            k = n;
        } else if o.trailing_space {
            while k.last().is_some_and(ws) {
                k.pop();
            }
        }
        if nl || o.all_space || o.space_change {
            k.push(b'\n');
        }
        Cow::Owned(k)
    }

    async fn dirs(&mut self, a: &str, b: &str) -> Result<(), IoError> {
        let ctx = self.ctx;
        let list = |d: &str| {
            let p = ctx.resolve(d);
            async move { ctx.fs.read_dir(&p).await.map(|v| v.into_iter().map(|e| e.name).collect::<Vec<_>>()) }
        };
        let (ea, eb) = match (list(a).await, list(b).await) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) => {
                ctx.err(format!("{a}: {e}")).await?;
                self.bump(2);
                return Ok(());
            }
            (_, Err(e)) => {
                ctx.err(format!("{b}: {e}")).await?;
                self.bump(2);
                return Ok(());
            }
        };
        let mut names: Vec<&String> = ea.iter().chain(eb.iter()).collect();
        names.sort();
        names.dedup();
        for n in names {
            if !ctx.still_running() {
                self.bump(2);
                return Ok(());
            }
            // `-x`/`-X`, asked name by name (a long list costs each name, between deadline checks).
            if self.o.excludes.iter().any(|p| p.matches(n, false)) {
                continue;
            }
            let (pa, pb) = (join(a, n), join(b, n));
            let (ka, kb) = (self.kind(&pa).await, self.kind(&pb).await);
            match (ka, kb) {
                (Kind::Missing, _) | (_, Kind::Missing)
                    if !((self.o.new_file || (self.o.new_first && ka == Kind::Missing)) && ka != Kind::Dir && kb != Kind::Dir) =>
                {
                    let dir = if ka == Kind::Missing { b } else { a };
                    ctx.out(format!("Only in {dir}: {n}\n").as_bytes()).await?;
                    self.bump(1);
                }
                (Kind::Dir, Kind::Dir) => {
                    if self.o.recursive {
                        Box::pin(self.dirs(&pa, &pb)).await?;
                    } else {
                        ctx.out(format!("Common subdirectories: {pa} and {pb}\n").as_bytes()).await?;
                    }
                }
                (Kind::Dir, _) | (_, Kind::Dir) => {
                    let desc = |k: Kind| if k == Kind::Dir { "directory" } else { "regular file" };
                    let msg = format!("File {pa} is a {} while file {pb} is a {}\n", desc(ka), desc(kb));
                    ctx.out(msg.as_bytes()).await?;
                    self.bump(1);
                }
                _ => self.files(&pa, &pb, true).await?,
            }
        }
        Ok(())
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// A line or group format option: the formats it sets, or GNU's complaint
/// when it sets one to another value than before.
fn set_format(f: &mut formats::Formats, id: &str, v: Option<&str>) -> Result<Format, String> {
    use formats::Which;
    let v = v.unwrap_or_default();
    let conflict = |name: &str, value: &str| format!("conflicting {name} option value '{value}'");
    if id == "D" {
        return match f.set_ifdef(v) {
            Ok(()) => Ok(Format::Formats),
            Err(_) => Err(conflict("-D", &format!("#ifndef {v}\n%<#endif /* ! {v} */\n"))),
        };
    }
    let which: &[Which] = match id {
        "line-format" => &[Which::OldLine, Which::NewLine, Which::UnchangedLine],
        "old-line-format" => &[Which::OldLine],
        "new-line-format" => &[Which::NewLine],
        "unchanged-line-format" => &[Which::UnchangedLine],
        "old-group-format" => &[Which::OldGroup],
        "new-group-format" => &[Which::NewGroup],
        "changed-group-format" => &[Which::ChangedGroup],
        _ => &[Which::UnchangedGroup],
    };
    for w in which {
        f.set(*w, v.as_bytes()).map_err(|()| conflict(&format!("--{id}"), v))?;
    }
    Ok(Format::Formats)
}

/// A line with its prefix; a last line without newline gets GNU's marker.
fn put(out: &mut Vec<u8>, prefix: &str, line: &[u8]) {
    out.extend_from_slice(prefix.as_bytes());
    out.extend_from_slice(line);
    if line.last() != Some(&b'\n') {
        out.extend_from_slice(b"\n\\ No newline at end of file\n");
    }
}

/// `3`, `3,5` (1-based, inclusive); an empty range names the line before it.
fn range(start: usize, end: usize) -> String {
    if end <= start + 1 {
        if end == start {
            start.to_string()
        } else {
            end.to_string()
        }
    } else {
        format!("{},{}", start + 1, end)
    }
}

/// `-e`: ed commands from the last change to the first, so that line
/// numbers hold as they run. A line that is a lone `.` is written as `..`
/// and put right by `s/.//`, as GNU does.
fn ed(out: &mut Vec<u8>, b: &[&[u8]], changes: &[Change]) {
    for c in changes.iter().rev() {
        let (da, db) = (c.a.1 > c.a.0, c.b.1 > c.b.0);
        let op = match (da, db) {
            (true, true) => 'c',
            (true, false) => 'd',
            _ => 'a',
        };
        let at = if da { range(c.a.0, c.a.1) } else { c.a.0.to_string() };
        out.extend(format!("{at}{op}\n").bytes());
        if !db {
            continue;
        }
        let mut inserting = true;
        for l in &b[c.b.0..c.b.1] {
            if !inserting {
                out.extend_from_slice(b"a\n");
                inserting = true;
            }
            if *l == b".\n" || *l == b"." {
                out.extend_from_slice(b"..\n.\ns/.//\n");
                inserting = false;
            } else {
                out.extend_from_slice(l);
                if l.last() != Some(&b'\n') {
                    out.push(b'\n');
                }
            }
        }
        if inserting {
            out.extend_from_slice(b".\n");
        }
    }
}

fn normal(out: &mut Vec<u8>, a: &[&[u8]], b: &[&[u8]], changes: &[Change]) {
    for c in changes {
        let (da, db) = (c.a.1 > c.a.0, c.b.1 > c.b.0);
        let op = match (da, db) {
            (true, true) => 'c',
            (true, false) => 'd',
            _ => 'a',
        };
        out.extend(format!("{}{op}{}\n", range(c.a.0, c.a.1), range(c.b.0, c.b.1)).bytes());
        for l in &a[c.a.0..c.a.1] {
            put(out, "< ", l);
        }
        if da && db {
            out.extend_from_slice(b"---\n");
        }
        for l in &b[c.b.0..c.b.1] {
            put(out, "> ", l);
        }
    }
}

/// Changes grouped into hunks that share context, with each hunk's bounds.
/// A hunk: its changes and the line ranges it covers in each file.
type Hunk<'a> = (&'a [Change], (usize, usize), (usize, usize));

fn hunks(changes: &[Change], na: usize, nb: usize, ctx: usize) -> Vec<Hunk<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < changes.len() {
        let mut j = i + 1;
        while j < changes.len() && changes[j].a.0 - changes[j - 1].a.1 <= 2 * ctx {
            j += 1;
        }
        let (first, last) = (changes[i], changes[j - 1]);
        let pre = ctx.min(first.a.0).min(first.b.0);
        let post = ctx.min(na - last.a.1).min(nb - last.b.1);
        out.push((&changes[i..j], (first.a.0 - pre, last.a.1 + post), (first.b.0 - pre, last.b.1 + post)));
        i = j;
    }
    out
}

fn unified(out: &mut Vec<u8>, a: &[&[u8]], b: &[&[u8]], changes: &[Change], ctx: usize) {
    let r = |s: usize, e: usize| match e - s {
        0 => format!("{s},0"),
        1 => format!("{}", s + 1),
        n => format!("{},{n}", s + 1),
    };
    for (group, ra, rb) in hunks(changes, a.len(), b.len(), ctx) {
        out.extend(format!("@@ -{} +{} @@\n", r(ra.0, ra.1), r(rb.0, rb.1)).bytes());
        let mut i = ra.0;
        for c in group {
            for l in &a[i..c.a.0] {
                put(out, " ", l);
            }
            for l in &a[c.a.0..c.a.1] {
                put(out, "-", l);
            }
            for l in &b[c.b.0..c.b.1] {
                put(out, "+", l);
            }
            i = c.a.1;
        }
        for l in &a[i..ra.1] {
            put(out, " ", l);
        }
    }
}

fn context(out: &mut Vec<u8>, a: &[&[u8]], b: &[&[u8]], changes: &[Change], ctx: usize) {
    for (group, ra, rb) in hunks(changes, a.len(), b.len(), ctx) {
        out.extend_from_slice(b"***************\n");
        out.extend(format!("*** {} ****\n", range(ra.0, ra.1)).bytes());
        let side = |out: &mut Vec<u8>, lines: &[&[u8]], r: (usize, usize), pick: &dyn Fn(&Change) -> (usize, usize)| {
            let mut i = r.0;
            for c in group {
                let (s, e) = pick(c);
                for l in &lines[i..s] {
                    put(out, "  ", l);
                }
                let mark = if c.a.1 > c.a.0 && c.b.1 > c.b.0 {
                    "! "
                } else if pick(c) == c.a {
                    "- "
                } else {
                    "+ "
                };
                for l in &lines[s..e] {
                    put(out, mark, l);
                }
                i = e;
            }
            for l in &lines[i..r.1] {
                put(out, "  ", l);
            }
        };
        if group.iter().any(|c| c.a.1 > c.a.0) {
            side(out, a, ra, &|c: &Change| c.a);
        }
        out.extend(format!("--- {} ----\n", range(rb.0, rb.1)).bytes());
        if group.iter().any(|c| c.b.1 > c.b.0) {
            side(out, b, rb, &|c: &Change| c.b);
        }
    }
}

/// The number of each line, as the options compare them: equal keys, one
/// number. The deadline is looked at every few thousand lines (`None`: stop).
/// Per line of either file: its slice (16), its number (8) and its share of
/// the map of distinct lines (a key and a number, at hashbrown's load, ~40).
const LINE_BYTES: u64 = 64;

fn number<'a>(
    lines: &[&'a [u8]],
    ids: &mut HashMap<Cow<'a, [u8]>, usize, foldhash::fast::RandomState>,
    key: &dyn Fn(&'a [u8]) -> Cow<'a, [u8]>,
    going: &dyn Fn() -> bool,
) -> Option<Vec<usize>> {
    let mut out = Vec::with_capacity(lines.len());
    for (i, &l) in lines.iter().enumerate() {
        if i % 4096 == 4095 && !going() {
            return None;
        }
        let n = ids.len();
        out.push(*ids.entry(key(l)).or_insert(n));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::commands::util::file_time::from_unix;
    use crate::commands::util::testutil::{block_on, make_fs, run_full, Out};
    use crate::limits::Limits;

    /// Like `check`, with every given file's mtime set to 2026-11-22 10:00:00
    /// UTC (the real tool's files were `touch -d`'d to it).
    #[track_caller]
    fn check_t(argv: &[&str], files: &[(&str, &str)], stdin: &str, out: &str, err: &str, status: i32) {
        let fs = make_fs(files);
        block_on(async {
            for (name, _) in files {
                let p = crate::fs::path::resolve("/w", name);
                fs.set_mtime(&p, from_unix(1_795_341_600, 0)).await.expect("set_mtime");
            }
        });
        let got = run_full(&fs, argv, stdin.as_bytes(), &[], Limits::default());
        assert_eq!(got, Out { out: out.into(), err: err.into(), status }, "argv: {argv:?}");
    }

    #[test]
    fn formats() {
        check_t(
            &["diff", "a", "b"],
            &[("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), ("b", "1\n2\nX\n4\n5\n6\n7\n8\n10\n11\n")],
            "",
            "3c3\n< 3\n---\n> X\n9d8\n< 9\n10a10\n> 11\n",
            "",
            1,
        );
        check_t(&["diff", "-u", "a", "b"], &[("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), ("b", "1\n2\nX\n4\n5\n6\n7\n8\n10\n11\n")], "", "--- a\t2026-11-22 10:00:00.000000000 +0000\n+++ b\t2026-11-22 10:00:00.000000000 +0000\n@@ -1,10 +1,10 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n 7\n 8\n-9\n 10\n+11\n", "", 1);
        check_t(&["diff", "-c", "a", "b"], &[("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), ("b", "1\n2\nX\n4\n5\n6\n7\n8\n10\n11\n")], "", "*** a\t2026-11-22 10:00:00.000000000 +0000\n--- b\t2026-11-22 10:00:00.000000000 +0000\n***************\n*** 1,10 ****\n  1\n  2\n! 3\n  4\n  5\n  6\n  7\n  8\n- 9\n  10\n--- 1,10 ----\n  1\n  2\n! X\n  4\n  5\n  6\n  7\n  8\n  10\n+ 11\n", "", 1);
        check_t(&["diff", "-U1", "a", "b"], &[("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), ("b", "1\n2\nX\n4\n5\n6\n7\n8\n10\n11\n")], "", "--- a\t2026-11-22 10:00:00.000000000 +0000\n+++ b\t2026-11-22 10:00:00.000000000 +0000\n@@ -2,3 +2,3 @@\n 2\n-3\n+X\n 4\n@@ -8,3 +8,3 @@\n 8\n-9\n 10\n+11\n", "", 1);
        check_t(&["diff", "-U", "0", "a", "b"], &[("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), ("b", "1\n2\nX\n4\n5\n6\n7\n8\n10\n11\n")], "", "--- a\t2026-11-22 10:00:00.000000000 +0000\n+++ b\t2026-11-22 10:00:00.000000000 +0000\n@@ -3 +3 @@\n-3\n+X\n@@ -9 +8,0 @@\n-9\n@@ -10,0 +10 @@\n+11\n", "", 1);
        check_t(&["diff", "-C1", "a", "b"], &[("a", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), ("b", "1\n2\nX\n4\n5\n6\n7\n8\n10\n11\n")], "", "*** a\t2026-11-22 10:00:00.000000000 +0000\n--- b\t2026-11-22 10:00:00.000000000 +0000\n***************\n*** 2,4 ****\n  2\n! 3\n  4\n--- 2,4 ----\n  2\n! X\n  4\n***************\n*** 8,10 ****\n  8\n- 9\n  10\n--- 8,10 ----\n  8\n  10\n+ 11\n", "", 1);
        check_t(&["diff", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "0a1\n> x\n2a4\n> c\n", "", 1);
        check_t(&["diff", "q", "p"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "1d0\n< x\n4d2\n< c\n", "", 1);
        check_t(&["diff", "-c", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "*** p\t2026-11-22 10:00:00.000000000 +0000\n--- q\t2026-11-22 10:00:00.000000000 +0000\n***************\n*** 1,2 ****\n--- 1,4 ----\n+ x\n  a\n  b\n+ c\n", "", 1);
        check_t(&["diff", "-c", "q", "p"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "*** q\t2026-11-22 10:00:00.000000000 +0000\n--- p\t2026-11-22 10:00:00.000000000 +0000\n***************\n*** 1,4 ****\n- x\n  a\n  b\n- c\n--- 1,2 ----\n", "", 1);
        check_t(&["diff", "-u", "q", "p"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "--- q\t2026-11-22 10:00:00.000000000 +0000\n+++ p\t2026-11-22 10:00:00.000000000 +0000\n@@ -1,4 +1,2 @@\n-x\n a\n b\n-c\n", "", 1);
        check_t(&["diff", "--unified=0", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "--- p\t2026-11-22 10:00:00.000000000 +0000\n+++ q\t2026-11-22 10:00:00.000000000 +0000\n@@ -0,0 +1 @@\n+x\n@@ -2,0 +4 @@\n+c\n", "", 1);
        check_t(
            &["diff", "r1", "r2"],
            &[("r1", "a\nb\nc\na\nb\nc\nc\n"), ("r2", "a\nb\na\nb\nc\nc\nc\n")],
            "",
            "3d2\n< c\n5a5\n> c\n",
            "",
            1,
        );
        check_t(&["diff", "-U1", "r1", "r2"], &[("r1", "a\nb\nc\na\nb\nc\nc\n"), ("r2", "a\nb\na\nb\nc\nc\nc\n")], "", "--- r1\t2026-11-22 10:00:00.000000000 +0000\n+++ r2\t2026-11-22 10:00:00.000000000 +0000\n@@ -2,3 +2,2 @@\n b\n-c\n a\n@@ -6,2 +5,3 @@\n c\n+c\n c\n", "", 1);
        check_t(&["diff", "-U2", "r1", "r2"], &[("r1", "a\nb\nc\na\nb\nc\nc\n"), ("r2", "a\nb\na\nb\nc\nc\nc\n")], "", "--- r1\t2026-11-22 10:00:00.000000000 +0000\n+++ r2\t2026-11-22 10:00:00.000000000 +0000\n@@ -1,7 +1,7 @@\n a\n b\n-c\n a\n b\n c\n c\n+c\n", "", 1);
        check_t(
            &["diff", "-u", "--label", "L1", "--label", "L2", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "--- L1\n+++ L2\n@@ -1,2 +1,4 @@\n+x\n a\n b\n+c\n",
            "",
            1,
        );
        check_t(
            &["diff", "n1", "n2"],
            &[("n1", "a"), ("n2", "a\n")],
            "",
            "1c1\n< a\n\\ No newline at end of file\n---\n> a\n",
            "",
            1,
        );
        check_t(&["diff", "-u", "n1", "n2"], &[("n1", "a"), ("n2", "a\n")], "", "--- n1\t2026-11-22 10:00:00.000000000 +0000\n+++ n2\t2026-11-22 10:00:00.000000000 +0000\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n", "", 1);
        check_t(&["diff", "-c", "n2", "n1"], &[("n1", "a"), ("n2", "a\n")], "", "*** n2\t2026-11-22 10:00:00.000000000 +0000\n--- n1\t2026-11-22 10:00:00.000000000 +0000\n***************\n*** 1 ****\n! a\n--- 1 ----\n! a\n\\ No newline at end of file\n", "", 1);
        check_t(&["diff", "-u", "e", "p"], &[("e", ""), ("p", "a\nb\n")], "", "--- e\t2026-11-22 10:00:00.000000000 +0000\n+++ p\t2026-11-22 10:00:00.000000000 +0000\n@@ -0,0 +1,2 @@\n+a\n+b\n", "", 1);
        check_t(&["diff", "-c", "p", "e"], &[("e", ""), ("p", "a\nb\n")], "", "*** p\t2026-11-22 10:00:00.000000000 +0000\n--- e\t2026-11-22 10:00:00.000000000 +0000\n***************\n*** 1,2 ****\n- a\n- b\n--- 0 ----\n", "", 1);
        check_t(&["diff", "p", "-"], &[("p", "a\nb\n")], "a\nc\n", "2c2\n< b\n---\n> c\n", "", 1);
    }

    #[test]
    fn options() {
        check_t(&["diff", "p", "p"], &[("p", "a\nb\n")], "", "", "", 0);
        check_t(&["diff", "-s", "p", "p"], &[("p", "a\nb\n")], "", "Files p and p are identical\n", "", 0);
        check_t(
            &["diff", "-q", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "Files p and q differ\n",
            "",
            1,
        );
        check_t(
            &["diff", "--brief", "-s", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "Files p and q differ\n",
            "",
            1,
        );
        check_t(
            &["diff", "bin", "p"],
            &[("bin", "a\0"), ("p", "a\nb\n")],
            "",
            "Binary files bin and p differ\n",
            "",
            1,
        );
        check_t(&["diff", "-q", "bin", "p"], &[("bin", "a\0"), ("p", "a\nb\n")], "", "Files bin and p differ\n", "", 1);
        check_t(&["diff", "x", "y"], &[("x", "a\n\nb\n"), ("y", "a\nb\n\n")], "", "2d1\n< \n3a3\n> \n", "", 1);
        check_t(&["diff", "-B", "x", "y"], &[("x", "a\n\nb\n"), ("y", "a\nb\n\n")], "", "", "", 0);
        check_t(
            &["diff", "-i", "x", "y"],
            &[("x", "Hello World\n"), ("y", "hello   world \n")],
            "",
            "1c1\n< Hello World\n---\n> hello   world \n",
            "",
            1,
        );
        check_t(&["diff", "-iw", "x", "y"], &[("x", "Hello World\n"), ("y", "hello   world \n")], "", "", "", 0);
        check_t(&["diff", "-ib", "x", "y"], &[("x", "Hello World\n"), ("y", "hello   world \n")], "", "", "", 0);
        check_t(
            &["diff", "-b", "x", "z"],
            &[("x", "a b\n"), ("z", " a  b\n")],
            "",
            "1c1\n< a b\n---\n>  a  b\n",
            "",
            1,
        );
        check_t(&["diff", "-w", "x", "z"], &[("x", "a b\n"), ("z", " ab\n")], "", "", "", 0);
        check_t(&["diff", "--strip-trailing-cr", "cr", "nocr"], &[("cr", "a\r\n"), ("nocr", "a\n")], "", "", "", 0);
        check_t(&["diff", "-N", "p", "nope"], &[("p", "a\nb\n")], "", "1,2d0\n< a\n< b\n", "", 1);
        check_t(&["diff", "p", "nope"], &[("p", "a\nb\n")], "", "", "diff: nope: No such file or directory\n", 2);
        check_t(
            &["diff", "-k", "p", "p"],
            &[("p", "a\nb\n")],
            "",
            "",
            "diff: invalid option -- 'k'\ndiff: Try 'diff --help' for more information.\n",
            2,
        );
        check_t(
            &["diff", "p"],
            &[("p", "a\nb\n")],
            "",
            "",
            "diff: missing operand after 'p'\ndiff: Try 'diff --help' for more information.\n",
            2,
        );
        check_t(
            &["diff"],
            &[],
            "",
            "",
            "diff: missing operand after 'diff'\ndiff: Try 'diff --help' for more information.\n",
            2,
        );
        check_t(
            &["diff", "p", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "",
            "diff: extra operand 'q'\ndiff: Try 'diff --help' for more information.\n",
            2,
        );
        check_t(
            &["diff", "-U", "x", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "",
            "diff: invalid context length 'x'\ndiff: Try 'diff --help' for more information.\n",
            2,
        );
    }

    #[test]
    fn directories() {
        check_t(
            &["diff", "d1", "d2"],
            &[
                ("d1/f", "x\n"),
                ("d2/f", "y\n"),
                ("d1/only", "o\n"),
                ("d2/sub/p", "p\n"),
                ("d1/sub/", ""),
                ("d1/s", "same\n"),
                ("d2/s", "same\n"),
            ],
            "",
            "diff d1/f d2/f\n1c1\n< x\n---\n> y\nOnly in d1: only\nCommon subdirectories: d1/sub and d2/sub\n",
            "",
            1,
        );
        check_t(
            &["diff", "-r", "d1", "d2"],
            &[
                ("d1/f", "x\n"),
                ("d2/f", "y\n"),
                ("d1/only", "o\n"),
                ("d2/sub/p", "p\n"),
                ("d1/sub/", ""),
                ("d1/s", "same\n"),
                ("d2/s", "same\n"),
            ],
            "",
            "diff -r d1/f d2/f\n1c1\n< x\n---\n> y\nOnly in d1: only\nOnly in d2/sub: p\n",
            "",
            1,
        );
        check_t(&["diff", "-ru", "d1", "d2"], &[("d1/f", "x\n"), ("d2/f", "y\n"), ("d1/only", "o\n"), ("d2/sub/p", "p\n"), ("d1/sub/", ""), ("d1/s", "same\n"), ("d2/s", "same\n")], "", "diff -ru d1/f d2/f\n--- d1/f\t2026-11-22 10:00:00.000000000 +0000\n+++ d2/f\t2026-11-22 10:00:00.000000000 +0000\n@@ -1 +1 @@\n-x\n+y\nOnly in d1: only\nOnly in d2/sub: p\n", "", 1);
        check_t(&["diff", "-r", "-u", "d1", "d2"], &[("d1/f", "x\n"), ("d2/f", "y\n"), ("d1/only", "o\n"), ("d2/sub/p", "p\n"), ("d1/sub/", ""), ("d1/s", "same\n"), ("d2/s", "same\n")], "", "diff -r -u d1/f d2/f\n--- d1/f\t2026-11-22 10:00:00.000000000 +0000\n+++ d2/f\t2026-11-22 10:00:00.000000000 +0000\n@@ -1 +1 @@\n-x\n+y\nOnly in d1: only\nOnly in d2/sub: p\n", "", 1);
        check_t(&["diff", "--unified=1", "-r", "d1", "d2"], &[("d1/f", "x\n"), ("d2/f", "y\n"), ("d1/only", "o\n"), ("d2/sub/p", "p\n"), ("d1/sub/", ""), ("d1/s", "same\n"), ("d2/s", "same\n")], "", "diff '--unified=1' -r d1/f d2/f\n--- d1/f\t2026-11-22 10:00:00.000000000 +0000\n+++ d2/f\t2026-11-22 10:00:00.000000000 +0000\n@@ -1 +1 @@\n-x\n+y\nOnly in d1: only\nOnly in d2/sub: p\n", "", 1);
        check_t(
            &["diff", "-rq", "d1", "d2"],
            &[
                ("d1/f", "x\n"),
                ("d2/f", "y\n"),
                ("d1/only", "o\n"),
                ("d2/sub/p", "p\n"),
                ("d1/sub/", ""),
                ("d1/s", "same\n"),
                ("d2/s", "same\n"),
            ],
            "",
            "Files d1/f and d2/f differ\nOnly in d1: only\nOnly in d2/sub: p\n",
            "",
            1,
        );
        check_t(&["diff", "-rN", "d1", "d2"], &[("d1/f", "x\n"), ("d2/f", "y\n"), ("d1/only", "o\n"), ("d2/sub/p", "p\n"), ("d1/sub/", ""), ("d1/s", "same\n"), ("d2/s", "same\n")], "", "diff -rN d1/f d2/f\n1c1\n< x\n---\n> y\ndiff -rN d1/only d2/only\n1d0\n< o\ndiff -rN d1/sub/p d2/sub/p\n0a1\n> p\n", "", 1);
        check_t(
            &["diff", "-r", "d1", "d2"],
            &[("d1/f", "x\n"), ("d2/f/", "")],
            "",
            "File d1/f is a regular file while file d2/f is a directory\n",
            "",
            1,
        );
        check_t(
            &["diff", "a", "dd"],
            &[("a", "a\n"), ("dd/", "")],
            "",
            "",
            "diff: dd/a: No such file or directory\n",
            2,
        );
        check_t(&["diff", "a", "dd"], &[("a", "a\n"), ("dd/a", "b\n")], "", "1c1\n< a\n---\n> b\n", "", 1);
        check_t(&["diff", "dd/", "a"], &[("a", "a\n"), ("dd/a", "b\n")], "", "1c1\n< b\n---\n> a\n", "", 1);
        check_t(
            &["diff", "-s", "dd", "a"],
            &[("a", "a\n"), ("dd/a", "a\n")],
            "",
            "Files dd/a and a are identical\n",
            "",
            0,
        );
    }
}
