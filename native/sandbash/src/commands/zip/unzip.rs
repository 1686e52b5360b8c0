//! `unzip` (Info-ZIP UnZip 6.00 as Debian ships it): extract (`-o`, `-n`,
//! `-j`, `-d DIR`, `-q`), `-l` list, `-p` to stdout, `-t` test, member names
//! and wildcards after the archive, `-x` exclusions. Members are inflated a
//! chunk at a time and checked against their declared size and the limits as
//! they grow (a zip bomb stops early); `..` components and absolute names are
//! stripped with Info-ZIP's warnings, so nothing lands outside the target.

use crate::commands::date::parse::Zone;
use crate::commands::util::file_time::from_unix;
use super::format::{dos_display, dos_to_local_secs, member_data, read_central, Entry, InflateError, Inflater};
use crate::commands::{CommandContext, CommandResult};
use crate::commands::util::{UResult, Utility};
use crate::fs::path;
use crate::io::IoError;
use crate::pattern::Pattern;
use async_trait::async_trait;

pub struct Unzip;

const USAGE: &str = "UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.

Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, except those in xlist, to exdir;
  file[.zip] may be a wildcard.  -Z => ZipInfo mode (\"unzip -Z\" for usage).

  -p  extract files to pipe, no messages     -l  list files (short format)
  -f  freshen existing files, create none    -t  test compressed archive data
  -u  update files, create if necessary      -z  display archive comment only
  -v  list verbosely/show version info       -T  timestamp archive to latest
  -x  exclude files that follow (in xlist)   -d  extract files into exdir
modifiers:
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -o  overwrite files WITHOUT prompting      -a  auto-convert any text files
  -j  junk paths (do not make directories)   -aa treat ALL files as text
  -U  use escapes for all non-ASCII Unicode  -UU ignore any Unicode fields
  -C  match filenames case-insensitively     -L  make (some) names lowercase
  -X  restore UID/GID info                   -V  retain VMS version numbers
  -K  keep setuid/setgid/tacky permissions   -M  pipe through \"more\" pager
See \"unzip -hh\" or unzip.txt for more help.  Examples:
  unzip data1 -x joe   => extract all files except joe from zipfile data1.zip
  unzip -p foo | more  => send contents of foo.zip via pipe into program more
  unzip -fo foo ReadMe => quietly replace existing ReadMe if archive file newer
";

const NO_END: &str = "  End-of-central-directory signature not found.  Either this file is not
  a zipfile, or it constitutes one disk of a multi-part archive.  In the
  latter case the central directory and zipfile comment will be found on
  the last disk(s) of this archive.
";

/// UnZip's exit statuses.
const PK_WARN: i32 = 1;
const PK_ERR: i32 = 2;
const PK_BADERR: i32 = 3;
const PK_NOZIP: i32 = 9;
const PK_PARAM: i32 = 10;
const PK_FIND: i32 = 11;

#[derive(Default)]
struct Opts {
    list: bool,
    pipe: bool,
    test: bool,
    overwrite: bool,
    never: bool,
    junk: bool,
    quiet: u8,
    exdir: Option<String>,
    archive: Option<String>,
    names: Vec<String>,
    excludes: Vec<String>,
}

/// UnZip's command line: option clusters anywhere, `-d DIR` (or `-dDIR`), and
/// everything after `-x` excluded until the next option.
fn parse_args(args: &[String]) -> Result<Result<Opts, ()>, String> {
    let mut o = Opts::default();
    let mut i = 0;
    let mut in_x = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a.len() > 1 && a.starts_with('-') {
            in_x = false;
            if a.starts_with("--") {
                // Info-ZIP has no long options of its own but `--help`/`--version`.
                return Ok(Err(()));
            }
            let body = &a[1..];
            for (k, c) in body.char_indices() {
                match c {
                    'l' => o.list = true,
                    'p' => o.pipe = true,
                    't' => o.test = true,
                    'o' => o.overwrite = true,
                    'n' => o.never = true,
                    'j' => o.junk = true,
                    'q' => o.quiet = o.quiet.saturating_add(1),
                    'h' => return Ok(Err(())),
                    'x' => in_x = true,
                    'd' => {
                        let rest = &body[k + 1..];
                        let dir = if !rest.is_empty() {
                            rest.to_string()
                        } else if let Some(v) = args.get(i).filter(|v| !v.starts_with('-')) {
                            i += 1;
                            v.clone()
                        } else {
                            return Err("error:  must specify directory to which to extract with -d option".into());
                        };
                        o.exdir = Some(dir);
                        break;
                    }
                    // Modifiers that change nothing in the sandbox.
                    'a' | 'C' | 'L' | 'U' | 'X' | 'K' | 'V' | 'M' | 'b' | 'D' => {}
                    _ => return Ok(Err(())),
                }
            }
            continue;
        }
        if in_x {
            o.excludes.push(a.clone());
        } else if o.archive.is_none() {
            o.archive = Some(a.clone());
        } else {
            o.names.push(a.clone());
        }
    }
    Ok(Ok(o))
}

async fn err(ctx: &CommandContext<'_>, s: &str) -> Result<(), IoError> {
    ctx.stderr.write(s.as_bytes()).await
}

/// The member name made safe to extract: no leading `/`, no `..` components
/// (with Info-ZIP's warnings, each with whether it goes to stdout).
fn safe_name(name: &str) -> (String, Vec<(String, bool)>) {
    let mut warnings = Vec::new();
    let mut n = name;
    if n.starts_with('/') {
        warnings.push((format!("warning:  stripped absolute path spec from {name}\n"), false));
        n = n.trim_start_matches('/');
    }
    let mut parts: Vec<&str> = Vec::new();
    let mut dotdot = false;
    for c in n.split('/') {
        match c {
            ".." => dotdot = true,
            "." => {}
            c => parts.push(c),
        }
    }
    if dotdot {
        warnings.push((format!("warning:  skipped \"../\" path component(s) in {name}\n"), true));
    }
    // Keep a directory's trailing slash.
    (parts.join("/"), warnings)
}

#[async_trait]
impl Utility for Unzip {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let o = match parse_args(ctx.args) {
            Ok(Ok(o)) => o,
            Ok(Err(())) => {
                ctx.out(USAGE.as_bytes()).await?;
                return Ok(0);
            }
            Err(m) => {
                err(ctx, &format!("{m}\n")).await?;
                return Ok(PK_PARAM);
            }
        };
        let Some(archive) = o.archive.clone() else {
            ctx.out(USAGE.as_bytes()).await?;
            return Ok(if ctx.args.is_empty() { 0 } else { PK_PARAM });
        };
        let mut data = None;
        for cand in [archive.clone(), format!("{archive}.zip"), format!("{archive}.ZIP")] {
            let full = ctx.resolve(&cand);
            if ctx.fs.metadata(&full).await.is_ok_and(|m| m.is_file()) {
                data = ctx.fs.read(&full).await.ok();
                break;
            }
        }
        let Some(data) = data else {
            let m = format!("unzip:  cannot find or open {archive}, {archive}.zip or {archive}.ZIP.\n");
            err(ctx, &m).await?;
            return Ok(PK_NOZIP);
        };
        let show = !o.pipe && (o.quiet == 0 || o.list);
        if show {
            ctx.out(format!("Archive:  {archive}\n").as_bytes()).await?;
        }
        let entries = match read_central(&data) {
            Ok(es) => es,
            Err(_) => {
                err(ctx, NO_END).await?;
                let m = format!(
                    "unzip:  cannot find zipfile directory in one of {archive} or\n        \
                     {archive}.zip, and cannot find {archive}.ZIP, period.\n"
                );
                err(ctx, &m).await?;
                return Ok(PK_NOZIP);
            }
        };
        if entries.is_empty() {
            err(ctx, &format!("warning [{archive}]:  zipfile is empty\n")).await?;
            return Ok(PK_WARN);
        }
        let pats: Vec<Pattern> = o.names.iter().map(|n| Pattern::from_glob_text(n)).collect();
        let xpats: Vec<Pattern> = o.excludes.iter().map(|n| Pattern::from_glob_text(n)).collect();
        let mut hit = vec![false; pats.len()];
        let mut chosen = Vec::new();
        for e in entries {
            let mut wanted = pats.is_empty();
            for (i, p) in pats.iter().enumerate() {
                if p.matches(&e.name, false) {
                    hit[i] = true;
                    wanted = true;
                }
            }
            if wanted && !xpats.iter().any(|p| p.matches(&e.name, false)) {
                chosen.push(e);
            }
        }
        let mut status = 0;
        if o.list {
            list(ctx, &chosen).await?;
        } else if o.test {
            status = test(ctx, &o, &archive, &data, &chosen).await?;
        } else {
            status = extract(ctx, &o, &data, &chosen).await?;
        }
        for (n, h) in o.names.iter().zip(&hit) {
            if !h {
                err(ctx, &format!("caution: filename not matched:  {n}\n")).await?;
                status = status.max(PK_FIND);
            }
        }
        Ok(status)
    }
}

async fn list(ctx: &CommandContext<'_>, es: &[Entry]) -> Result<(), IoError> {
    let mut s = String::from("  Length      Date    Time    Name\n---------  ---------- -----   ----\n");
    let mut total = 0u64;
    for e in es {
        total += e.usize;
        s.push_str(&format!("{:>9}  {}   {}\n", e.usize, dos_display(e.dos_time, e.dos_date), e.name));
    }
    let files = if es.len() == 1 { "file" } else { "files" };
    s.push_str(&format!(
        "---------                     -------\n{total:>9}                     {} {files}\n",
        es.len()
    ));
    ctx.out(s.as_bytes()).await
}

/// Why a member's data is bad, in UnZip's words.
enum Bad {
    Inflate,
    Crc(u32, u32),
    Method(u16),
    TooBig,
}

/// Expand one member, handing each chunk to `sink`; checks its size while it
/// grows (against both its declared size and `cap`) and its CRC at the end.
async fn expand<F>(data: &[u8], e: &Entry, cap: u64, mut sink: F) -> Result<Result<(), Bad>, IoError>
where
    F: AsyncSink,
{
    let Some(body) = member_data(data, e) else { return Ok(Err(Bad::Inflate)) };
    let mut inf = match Inflater::new(body, e.method) {
        Ok(i) => i,
        Err(InflateError::Unsupported(m)) => return Ok(Err(Bad::Method(m))),
        Err(InflateError::Corrupt) => return Ok(Err(Bad::Inflate)),
    };
    let limit = e.usize.min(cap);
    let mut got = 0u64;
    loop {
        match inf.next_chunk(64 * 1024) {
            Ok(Some(c)) => {
                got += c.len() as u64;
                if !crate::limits::scope::may_grow(c.len() as u64) {
                    return Ok(Err(Bad::TooBig));
                }
                if got > limit {
                    return Ok(Err(if got > e.usize { Bad::Inflate } else { Bad::TooBig }));
                }
                sink.take(c).await?;
            }
            Ok(None) => break,
            Err(_) => return Ok(Err(Bad::Inflate)),
        }
    }
    if got != e.usize {
        return Ok(Err(Bad::Inflate));
    }
    let crc = inf.crc.sum();
    if crc != e.crc {
        return Ok(Err(Bad::Crc(crc, e.crc)));
    }
    Ok(Ok(()))
}

/// Where expanded chunks go: stdout (`-p`), a buffer (extraction), nowhere (`-t`).
#[async_trait]
trait AsyncSink: Send {
    async fn take(&mut self, chunk: Vec<u8>) -> Result<(), IoError>;
}

struct ToStdout<'a>(&'a crate::io::Output);
#[async_trait]
impl AsyncSink for ToStdout<'_> {
    async fn take(&mut self, chunk: Vec<u8>) -> Result<(), IoError> {
        self.0.write(&chunk).await
    }
}

struct ToBuf<'a>(&'a mut Vec<u8>);
#[async_trait]
impl AsyncSink for ToBuf<'_> {
    async fn take(&mut self, chunk: Vec<u8>) -> Result<(), IoError> {
        self.0.extend_from_slice(&chunk);
        Ok(())
    }
}

struct Discard;
#[async_trait]
impl AsyncSink for Discard {
    async fn take(&mut self, _chunk: Vec<u8>) -> Result<(), IoError> {
        Ok(())
    }
}

/// The biggest member we expand: as much as tar lets an archive expand to.
fn cap(ctx: &CommandContext<'_>) -> u64 {
    ctx.budget.limits.max_string_bytes.saturating_mul(16)
}

/// Report a bad member after its `inflating:` line (which is left open, as UnZip does).
async fn report(ctx: &CommandContext<'_>, b: &Bad) -> Result<(), IoError> {
    let m = match b {
        Bad::Inflate => "\n  error:  invalid compressed data to inflate\n".to_string(),
        Bad::Crc(got, want) => format!(" bad CRC {got:08x}  (should be {want:08x})\n"),
        Bad::Method(m) => format!("\n   skipping: unsupported compression method {m}\n"),
        Bad::TooBig => "\nerror:  member is larger than the sandbox allows\n".to_string(),
    };
    err(ctx, &m).await
}

async fn test(ctx: &CommandContext<'_>, o: &Opts, archive: &str, data: &[u8], es: &[Entry]) -> CommandResult {
    let mut bad = 0;
    for e in es {
        if !ctx.still_running() {
            return Ok(PK_ERR);
        }
        if o.quiet == 0 {
            ctx.out(format!("    testing: {:<22}   ", e.name).as_bytes()).await?;
        }
        match expand(data, e, cap(ctx), Discard).await? {
            Ok(()) if o.quiet == 0 => ctx.out(b"OK\n").await?,
            Ok(()) => {}
            // `-t` reports on stdout, after the padding it already printed.
            Err(Bad::Crc(got, want)) => {
                bad += 1;
                ctx.out(format!("bad CRC {got:08x}  (should be {want:08x})\n").as_bytes()).await?;
            }
            Err(b) => {
                bad += 1;
                report(ctx, &b).await?;
            }
        }
    }
    if bad == 0 {
        if o.quiet < 2 {
            ctx.out(format!("No errors detected in compressed data of {archive}.\n").as_bytes()).await?;
        }
        Ok(0)
    } else {
        ctx.out(format!("At least one error was detected in {archive}.\n").as_bytes()).await?;
        Ok(PK_ERR)
    }
}

/// The answer to `replace NAME?`.
enum Answer {
    Yes,
    No,
    All,
    None,
}

async fn ask(ctx: &CommandContext<'_>, name: &str) -> Result<Answer, IoError> {
    loop {
        err(ctx, &format!("replace {name}? [y]es, [n]o, [A]ll, [N]one, [r]ename: ")).await?;
        let Some(line) = ctx.stdin.read_until(b'\n', 4096).await else {
            err(ctx, " NULL\n(EOF or read error, treating as \"[N]one\" ...)\n").await?;
            return Ok(Answer::None);
        };
        let l = String::from_utf8_lossy(&line);
        let l = l.trim_end_matches('\n');
        match l.chars().next() {
            Some('y' | 'Y') => return Ok(Answer::Yes),
            Some('n') => return Ok(Answer::No),
            Some('A') => return Ok(Answer::All),
            Some('N') => return Ok(Answer::None),
            _ => err(ctx, &format!("error:  invalid response [{l}]\n")).await?,
        }
    }
}

async fn extract(ctx: &CommandContext<'_>, o: &Opts, data: &[u8], es: &[Entry]) -> CommandResult {
    let mut status = 0;
    let base = match &o.exdir {
        Some(d) if !o.pipe => {
            let full = ctx.resolve(d);
            if !ctx.fs.metadata(&full).await.is_ok_and(|m| m.is_dir()) {
                if let Err(e) = ctx.fs.mkdir(&full, false).await {
                    err(ctx, &format!("checkdir:  cannot create extraction directory: {d}\n           {e}\n")).await?;
                    return Ok(PK_ERR);
                }
            }
            Some(d.clone())
        }
        _ => None,
    };
    let zone = Zone::from_tz(ctx.env.get("TZ").as_deref());
    // `-o` and `-n` both given: UnZip keeps `-n`.
    let (mut all, mut none) = (o.overwrite && !o.never, o.never);
    for e in es {
        if !ctx.still_running() {
            return Ok(PK_ERR);
        }
        if o.pipe {
            if e.is_dir() {
                continue;
            }
            match expand(data, e, cap(ctx), ToStdout(&ctx.stdout)).await? {
                Ok(()) => {}
                Err(b) => {
                    report(ctx, &b).await?;
                    status = status.max(PK_ERR);
                }
            }
            continue;
        }
        let (mut name, warnings) = safe_name(&e.name);
        for (w, on_stdout) in &warnings {
            // UnZip prints the `../` warning on stdout and the absolute-path one on stderr.
            if *on_stdout {
                ctx.out(w.as_bytes()).await?;
            } else {
                err(ctx, w).await?;
            }
            status = status.max(PK_WARN);
        }
        if o.junk {
            if e.is_dir() {
                continue;
            }
            name = path::file_name(&name).to_string();
        }
        if name.is_empty() {
            continue;
        }
        let shown = match &base {
            Some(b) => format!("{}/{name}", b.trim_end_matches('/')),
            None => name.clone(),
        };
        let full = ctx.resolve(&shown);
        if e.is_dir() {
            if ctx.fs.metadata(&full).await.is_ok_and(|m| m.is_dir()) {
                continue;
            }
            if o.quiet == 0 {
                ctx.out(format!("   creating: {}/\n", shown.trim_end_matches('/')).as_bytes()).await?;
            }
            if let Err(er) = ctx.fs.mkdir(&full, true).await {
                err(ctx, &format!("checkdir error:  cannot create {shown}\n                 {er}\n")).await?;
                status = status.max(PK_ERR);
            }
            continue;
        }
        if ctx.fs.symlink_metadata(&full).await.is_ok() {
            if none {
                continue;
            }
            if !all {
                match ask(ctx, &shown).await? {
                    Answer::Yes => {}
                    Answer::No => continue,
                    Answer::All => all = true,
                    Answer::None => {
                        none = true;
                        status = status.max(PK_WARN);
                        continue;
                    }
                }
            }
        }
        if o.quiet == 0 {
            let verb = if e.method == 0 { " extracting" } else { "  inflating" };
            ctx.out(format!("{verb}: {shown:<22}  ").as_bytes()).await?;
        }
        let _ = ctx.fs.mkdir(path::parent(&full), true).await;
        let mut buf = Vec::new();
        match expand(data, e, cap(ctx), ToBuf(&mut buf)).await? {
            Ok(()) => {
                if o.quiet == 0 {
                    ctx.out(b"\n").await?;
                }
            }
            Err(b) => {
                report(ctx, &b).await?;
                status = status.max(PK_ERR);
                if !matches!(b, Bad::Crc(..)) {
                    continue;
                }
            }
        }
        if let Err(er) = ctx.fs.write(&full, &buf).await {
            err(ctx, &format!("error:  cannot create {shown}\n        {er}\n")).await?;
            status = status.max(PK_BADERR);
            continue;
        }
        if let Some(m) = e.mode.filter(|m| m & 0o170000 == 0o100000) {
            let _ = ctx.fs.set_mode(&full, m & 0o7777).await;
        }
        let secs = match e.mtime {
            Some(t) => t,
            None => {
                let local = dos_to_local_secs(e.dos_time, e.dos_date);
                local - i64::from(zone.info(local).0)
            }
        };
        let _ = ctx.fs.set_mtime(&full, from_unix(secs, 0)).await;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    //! Fixtures in tests/fixtures/zip were made by Info-ZIP zip 3.0 (host.zip:
    //! `zip -X host.zip a.txt b.txt; zip -X -r host.zip d`, files dated
    //! 2024-01-02 03:04:05 UTC), Python's zipfile (evil.zip) and by flipping
    //! bytes of host.zip (corrupt.zip: one byte of b.txt's data; badcrc.zip:
    //! a.txt's CRC in both headers). Expected output is UnZip 6.00's, TZ=UTC.
    use crate::commands::util::testutil::{block_on, make_fs, run_full, tree};
    use crate::fs::Fs;
    use crate::limits::Limits;
    use std::sync::Arc;

    const HOST: &[u8] = include_bytes!("../../../tests/fixtures/zip/host.zip");
    const EVIL: &[u8] = include_bytes!("../../../tests/fixtures/zip/evil.zip");
    const CORRUPT: &[u8] = include_bytes!("../../../tests/fixtures/zip/corrupt.zip");
    const BADCRC: &[u8] = include_bytes!("../../../tests/fixtures/zip/badcrc.zip");

    fn fs_with(name: &str, data: &[u8]) -> Arc<dyn Fs> {
        let fs = make_fs(&[]);
        block_on(fs.write(&format!("/w/{name}"), data)).unwrap();
        fs
    }

    #[track_caller]
    fn check(fs: &Arc<dyn Fs>, argv: &[&str], out: &str, err: &str, status: i32) {
        let o = run_full(fs, argv, b"", &[], Limits::default());
        assert_eq!((o.out.as_str(), o.err.as_str(), o.status), (out, err, status), "{argv:?}");
    }

    const LISTING: &str = "Archive:  x.zip
  Length      Date    Time    Name
---------  ---------- -----   ----
        6  2024-01-02 03:04   a.txt
      692  2024-01-02 03:04   b.txt
        0  2024-01-02 03:04   d/
        0  2024-01-02 03:04   d/e/
        2  2024-01-02 03:04   d/e/f
---------                     -------
      700                     5 files
";

    #[test]
    fn extracts_and_lists_an_info_zip_archive() {
        let fs = fs_with("x.zip", HOST);
        check(&fs, &["unzip", "-l", "x.zip"], LISTING, "", 0);
        check(
            &fs,
            &["unzip", "x.zip"],
            "Archive:  x.zip\n extracting: a.txt                   \n  inflating: b.txt                   \n   creating: d/\n   creating: d/e/\n extracting: d/e/f                   \n",
            "",
            0,
        );
        let seq: String = (1..=200).map(|i| format!("{i}\n")).collect();
        let t = tree(&fs);
        assert!(t.starts_with("a.txt\thello\\n\nb.txt\t"), "{t}");
        assert!(t.contains("d/\nd/e/\nd/e/f\tx\\n\n"), "{t}");
        assert_eq!(block_on(fs.read("/w/b.txt")).unwrap(), seq.as_bytes());
        let m = block_on(fs.metadata("/w/a.txt")).unwrap();
        // `-X` left no extended timestamp: the DOS time, rounded up to 03:04:06 as UnZip sets it.
        assert_eq!(crate::commands::util::file_time::to_unix(m.mtime).0, 1_704_164_646);
        // Again: every file exists and stdin is empty, so UnZip's prompt gives up.
        check(
            &fs,
            &["unzip", "x.zip"],
            "Archive:  x.zip\n",
            "replace a.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as \"[N]one\" ...)\n",
            1,
        );
        check(&fs, &["unzip", "-n", "x.zip"], "Archive:  x.zip\n", "", 0);
        check(
            &fs,
            &["unzip", "-o", "x.zip"],
            "Archive:  x.zip\n extracting: a.txt                   \n  inflating: b.txt                   \n extracting: d/e/f                   \n",
            "",
            0,
        );
        check(&fs, &["unzip", "-q", "-o", "x.zip"], "", "", 0);
        check(&fs, &["unzip", "-p", "x.zip", "a.txt", "d/e/f"], "hello\nx\n", "", 0);
        check(
            &fs,
            &["unzip", "-l", "x.zip", "d/*"],
            "Archive:  x.zip\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n        0  2024-01-02 03:04   d/\n        0  2024-01-02 03:04   d/e/\n        2  2024-01-02 03:04   d/e/f\n---------                     -------\n        2                     3 files\n",
            "",
            0,
        );
        check(&fs, &["unzip", "x.zip", "nope"], "Archive:  x.zip\n", "caution: filename not matched:  nope\n", 11);
        check(
            &fs,
            &["unzip", "-d", "out", "x.zip", "a.txt"],
            "Archive:  x.zip\n extracting: out/a.txt               \n",
            "",
            0,
        );
        check(
            &fs,
            &["unzip", "-t", "x.zip"],
            "Archive:  x.zip\n    testing: a.txt                    OK\n    testing: b.txt                    OK\n    testing: d/                       OK\n    testing: d/e/                     OK\n    testing: d/e/f                    OK\nNo errors detected in compressed data of x.zip.\n",
            "",
            0,
        );
    }

    #[test]
    fn answers_the_replace_prompt_from_stdin() {
        let fs = fs_with("x.zip", HOST);
        check(&fs, &["unzip", "-q", "x.zip"], "", "", 0);
        let o = run_full(&fs, &["unzip", "x.zip", "a.txt", "b.txt"], b"y\nn\n", &[], Limits::default());
        assert_eq!(o.out, "Archive:  x.zip\n extracting: a.txt                   \n");
        assert_eq!(
            o.err,
            "replace a.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename: replace b.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename: "
        );
        assert_eq!(o.status, 0);
    }

    #[test]
    fn not_a_zip_and_missing() {
        let fs = fs_with("bad.zip", b"garbage");
        check(
            &fs,
            &["unzip", "bad.zip"],
            "Archive:  bad.zip\n",
            "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of bad.zip or\n        bad.zip.zip, and cannot find bad.zip.ZIP, period.\n",
            9,
        );
        check(
            &fs,
            &["unzip", "nope.zip"],
            "",
            "unzip:  cannot find or open nope.zip, nope.zip.zip or nope.zip.ZIP.\n",
            9,
        );
        check(&fs, &["unzip", "-d"], "", "error:  must specify directory to which to extract with -d option\n", 10);
        // Every truncation of a real archive is an error, never a panic.
        for n in 0..HOST.len() {
            let fs = fs_with("t.zip", &HOST[..n]);
            let o = run_full(&fs, &["unzip", "-o", "t.zip"], b"", &[], Limits::default());
            assert_ne!(o.status, 0, "truncated at {n}");
        }
    }

    #[test]
    fn unsafe_names_are_stripped() {
        let fs = fs_with("evil.zip", EVIL);
        check(
            &fs,
            &["unzip", "evil.zip"],
            "Archive:  evil.zip\nwarning:  skipped \"../\" path component(s) in ../evil.txt\n extracting: evil.txt                \n extracting: abs.txt                 \n extracting: ok.txt                  \nwarning:  skipped \"../\" path component(s) in a/../../up.txt\n extracting: a/up.txt                \n",
            "warning:  stripped absolute path spec from /abs.txt\n",
            1,
        );
        assert_eq!(
            tree(&fs).lines().filter(|l| !l.starts_with("evil.zip")).collect::<Vec<_>>().join("\n"),
            "a/\na/up.txt\tup\\n\nabs.txt\tabs\\n\nevil.txt\tbad\\n\nok.txt\tok\\n"
        );
        assert!(block_on(fs.metadata("/evil.txt")).is_err() && block_on(fs.metadata("/up.txt")).is_err());
    }

    #[test]
    fn bad_data_is_reported() {
        let fs = fs_with("c.zip", CORRUPT);
        check(
            &fs,
            &["unzip", "c.zip"],
            "Archive:  c.zip\n extracting: a.txt                   \n  inflating: b.txt                      creating: d/\n   creating: d/e/\n extracting: d/e/f                   \n",
            " bad CRC f5b533f7  (should be 3428ef98)\n",
            2,
        );
        check(
            &fs,
            &["unzip", "-t", "c.zip"],
            "Archive:  c.zip\n    testing: a.txt                    OK\n    testing: b.txt                    bad CRC f5b533f7  (should be 3428ef98)\n    testing: d/                       OK\n    testing: d/e/                     OK\n    testing: d/e/f                    OK\nAt least one error was detected in c.zip.\n",
            "",
            2,
        );
        let fs = fs_with("c.zip", BADCRC);
        check(
            &fs,
            &["unzip", "c.zip", "a.txt"],
            "Archive:  c.zip\n extracting: a.txt                   ",
            " bad CRC 363a3020  (should be 363a3021)\n",
            2,
        );
    }

    /// A member that inflates far past the limits stops while inflating.
    #[test]
    fn zip_bombs_stop_early() {
        use super::super::format::{crc32, deflate, new_member_entry, NewMember, Writer, DEFLATED};
        let zeros = vec![0u8; 4 << 20];
        let packed = deflate(&zeros, 9);
        let mut w = Writer::default();
        let (rec, e) = new_member_entry(&NewMember {
            name: "big".into(),
            method: DEFLATED,
            crc: crc32(&zeros),
            usize: zeros.len() as u64,
            data: packed.clone(),
            dos: (0, 0x21),
            mtime: 0,
            mode: 0o100644,
        });
        w.push(&rec, e);
        // A second member whose header lies about its size (claims 10 bytes).
        let (rec, e) = new_member_entry(&NewMember {
            name: "liar".into(),
            method: DEFLATED,
            crc: crc32(&zeros),
            usize: 10,
            data: packed,
            dos: (0, 0x21),
            mtime: 0,
            mode: 0o100644,
        });
        w.push(&rec, e);
        let fs = fs_with("b.zip", &w.finish());
        let limits = Limits { max_string_bytes: 1000, ..Limits::default() };
        let o = run_full(&fs, &["unzip", "-q", "b.zip"], b"", &[], limits);
        assert_eq!(o.status, 2);
        assert!(o.err.contains("invalid compressed data to inflate"), "{}", o.err);
        assert!(block_on(fs.metadata("/w/big")).is_err() && block_on(fs.metadata("/w/liar")).is_err());
    }
}
