//! `grep` (GNU grep 3.8): BRE/ERE/fixed/Perl-ish patterns over files, stdin
//! and (with `-r`) directory trees. Pattern syntax is translated in
//! `grep_re`; scanning and output live in `grep_scan`.

pub(crate) mod scan;
pub(crate) mod egrep;
pub use egrep::GrepAs;

use crate::commands::util::{Arg, OptError, Spec};
use crate::commands::util::regex_translate::translate;
use scan::{flush, scan, Lines, Matcher, Out, State};
use crate::commands::util::posix_regex::Backtracker;
use crate::commands::util::{UError, UResult, Utility};
use crate::commands::CommandContext;
use crate::fs::FileType;
use crate::pattern::Pattern;
use async_trait::async_trait;
use crate::commands::util::regex_cache;
use regex::bytes::RegexBuilder;

/// grep's compiled patterns, kept across calls and sessions.
static COMPILED: regex_cache::Cache<regex::bytes::Regex> = regex_cache::Cache::new();

pub struct Grep;

const SPEC: Spec = Spec::new(
    "0123456789A:B:C:D:EFGHIJLNPRTUVX:abcd:e:f:hiLlm:noqRrsuvwxyZz",
    &[
        ("extended-regexp", Arg::No, "E"),
        ("fixed-strings", Arg::No, "F"),
        ("basic-regexp", Arg::No, "G"),
        ("perl-regexp", Arg::No, "P"),
        ("regexp", Arg::Yes, "e"),
        ("file", Arg::Yes, "f"),
        ("ignore-case", Arg::No, "i"),
        ("no-ignore-case", Arg::No, "no-ignore-case"),
        ("word-regexp", Arg::No, "w"),
        ("line-regexp", Arg::No, "x"),
        ("null-data", Arg::No, "z"),
        ("no-messages", Arg::No, "s"),
        ("invert-match", Arg::No, "v"),
        ("max-count", Arg::Yes, "m"),
        ("byte-offset", Arg::No, "b"),
        ("line-number", Arg::No, "n"),
        ("no-line-number", Arg::No, "no-line-number"),
        ("line-buffered", Arg::No, "line-buffered"),
        ("with-filename", Arg::No, "H"),
        ("no-filename", Arg::No, "h"),
        ("label", Arg::Yes, "label"),
        ("only-matching", Arg::No, "o"),
        ("quiet", Arg::No, "q"),
        ("silent", Arg::No, "q"),
        ("binary-files", Arg::Yes, "binary-files"),
        ("text", Arg::No, "a"),
        ("directories", Arg::Yes, "d"),
        ("devices", Arg::Yes, "D"),
        ("recursive", Arg::No, "r"),
        ("dereference-recursive", Arg::No, "R"),
        ("include", Arg::Yes, "include"),
        ("exclude", Arg::Yes, "exclude"),
        ("exclude-from", Arg::Yes, "exclude-from"),
        ("exclude-dir", Arg::Yes, "exclude-dir"),
        ("files-without-match", Arg::No, "L"),
        ("files-with-matches", Arg::No, "l"),
        ("count", Arg::No, "c"),
        ("null", Arg::No, "Z"),
        ("before-context", Arg::Yes, "B"),
        ("after-context", Arg::Yes, "A"),
        ("context", Arg::Yes, "C"),
        ("group-separator", Arg::Yes, "group-separator"),
        ("no-group-separator", Arg::No, "no-group-separator"),
        ("color", Arg::Optional, "color"),
        ("colour", Arg::Optional, "color"),
        ("binary", Arg::No, "U"),
    ],
    "[OPTION]... PATTERNS [FILE]...",
)
.status(2);

/// Largest compiled pattern; a huge one is an error rather than a hang.
/// Directory nesting `-r` follows.
const MAX_DEPTH: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Basic,
    Extended,
    Fixed,
    Perl,
}

/// File selection for `-r` and `--include`/`--exclude`.
struct Walk {
    recursive: bool,
    deref: bool,
    skip_dirs: bool,
    include: Vec<Pattern>,
    exclude: Vec<Pattern>,
    exclude_dir: Vec<Pattern>,
    quiet_errors: bool,
}

impl Walk {
    fn file_excluded(&self, name: &str) -> bool {
        let base = name.rsplit('/').next().unwrap_or(name);
        let hit = |ps: &[Pattern]| ps.iter().any(|p| p.matches(base, false) || p.matches(name, false));
        hit(&self.exclude) || (!self.include.is_empty() && !hit(&self.include))
    }
    fn dir_excluded(&self, name: &str) -> bool {
        let base = name.trim_end_matches('/').rsplit('/').next().unwrap_or(name);
        self.exclude_dir.iter().any(|p| p.matches(base, false))
    }
}

/// A context count (`-A`, `-B`, `-C`, `-NUM`).
fn context_num(v: &str) -> Option<usize> {
    let v = v.trim_start();
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(v.bytes().fold(0usize, |a, d| a.saturating_mul(10).saturating_add(usize::from(d - b'0'))))
}

/// `grep --version` of GNU grep 3.8.
fn version() -> String {
    format!(
        "grep (GNU grep) 3.8\n{}\nWritten by Mike Haertel and others; see\n\
         <https://git.sv.gnu.org/cgit/grep.git/tree/AUTHORS>.\n",
        crate::commands::util::GNU_LICENSE_2022
    )
}

#[async_trait]
impl Utility for Grep {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = match crate::commands::util::parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out_help(format!("{USAGE}\n").as_bytes()).await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(version().as_bytes()).await?;
                return Ok(0);
            }
            Err(e) => return usage(ctx, &e.to_string()).await,
        };
        let mut syntax = Syntax::Basic;
        let (mut pats, mut have_pats) = (Vec::<String>::new(), false);
        let (mut icase, mut word, mut line_x) = (false, false, false);
        let mut o = Out {
            invert: false,
            count: false,
            files_with: false,
            files_without: false,
            quiet: false,
            only: false,
            line_num: false,
            byte_off: false,
            with_name: false,
            max: None,
            after: 0,
            before: 0,
            null_after_name: false,
            delim: b'\n',
            text: false,
            skip_binary: false,
            group_sep: Some("--".into()),
            color: false,
        };
        let mut name_opt: Option<bool> = None;
        let mut label = "(standard input)".to_string();
        let mut walk = Walk {
            recursive: false,
            deref: false,
            skip_dirs: false,
            include: vec![],
            exclude: vec![],
            exclude_dir: vec![],
            quiet_errors: false,
        };
        let (mut after, mut before, mut both) = (None, None, None::<usize>);
        let mut digits = (usize::MAX, String::new());
        for opt in &p.opts {
            let val = opt.val.as_deref().unwrap_or("");
            match opt.id {
                "E" => syntax = Syntax::Extended,
                "F" => syntax = Syntax::Fixed,
                "G" => syntax = Syntax::Basic,
                "P" => syntax = Syntax::Perl,
                "e" => {
                    pats.extend(val.split('\n').map(String::from));
                    have_pats = true;
                }
                "f" => {
                    let data = if val == "-" {
                        ctx.read_stdin().await
                    } else {
                        read_file(ctx, &ctx.resolve(val)).await.map_err(|e| e.to_string())
                    };
                    match data {
                        Ok(d) => {
                            let text = String::from_utf8_lossy(&d).into_owned();
                            let text = text.strip_suffix('\n').unwrap_or(&text);
                            if !d.is_empty() {
                                pats.extend(text.split('\n').map(String::from));
                            }
                            have_pats = true;
                        }
                        Err(e) => {
                            return Err(UError::new(2, format!("{val}: {e}")));
                        }
                    }
                }
                "i" | "y" => icase = true,
                "no-ignore-case" => icase = false,
                "w" => word = true,
                "x" => line_x = true,
                "z" => o.delim = 0,
                "s" => walk.quiet_errors = true,
                "v" => o.invert = true,
                "m" => match val.trim().parse::<i64>() {
                    Ok(n) => o.max = if n < 0 { None } else { Some(n as u64) },
                    Err(_) => {
                        return Err(UError::new(2, "invalid max count"));
                    }
                },
                "b" => o.byte_off = true,
                "n" => o.line_num = true,
                "no-line-number" => o.line_num = false,
                "H" => name_opt = Some(true),
                "h" => name_opt = Some(false),
                "label" => label = val.to_string(),
                "o" => o.only = true,
                "q" => o.quiet = true,
                "a" => o.text = true,
                "I" => o.skip_binary = true,
                "binary-files" => match val {
                    "binary" => (o.text, o.skip_binary) = (false, false),
                    "text" => o.text = true,
                    "without-match" => o.skip_binary = true,
                    _ => {
                        return Err(UError::new(2, "unknown binary-files type"));
                    }
                },
                "d" => match val {
                    "read" => walk.skip_dirs = false,
                    "skip" => walk.skip_dirs = true,
                    "recurse" => walk.recursive = true,
                    _ => {
                        let m = crate::commands::util::bad_arg(val, "directories", &["'read'", "'recurse'", "'skip'"]);
                        return Err(UError::usage(2, m));
                    }
                },
                "r" => walk.recursive = true,
                "R" => (walk.recursive, walk.deref) = (true, true),
                "include" => walk.include.push(Pattern::from_glob_text(val)),
                "exclude" => walk.exclude.push(Pattern::from_glob_text(val)),
                "exclude-dir" => walk.exclude_dir.push(Pattern::from_glob_text(val)),
                "exclude-from" => match ctx.fs.read(&ctx.resolve(val)).await {
                    Ok(d) => {
                        for l in String::from_utf8_lossy(&d).lines().filter(|l| !l.is_empty()) {
                            walk.exclude.push(Pattern::from_glob_text(l));
                        }
                    }
                    Err(e) => {
                        return Err(UError::new(2, format!("{val}: {e}")));
                    }
                },
                "L" => (o.files_without, o.files_with) = (true, false),
                "l" => (o.files_with, o.files_without) = (true, false),
                "c" => o.count = true,
                "Z" => o.null_after_name = true,
                "A" | "B" | "C" => {
                    let Some(n) = context_num(val) else {
                        return Err(UError::new(2, format!("{val}: invalid context length argument")));
                    };
                    match opt.id {
                        "A" => after = Some(n),
                        "B" => before = Some(n),
                        _ => both = Some(n),
                    }
                }
                "group-separator" => o.group_sep = Some(val.to_string()),
                "no-group-separator" => o.group_sep = None,
                "color" => {
                    o.color = match val {
                        "always" | "yes" | "force" => true,
                        // Output is never a terminal here, so `auto` means no color.
                        "" | "never" | "no" | "none" | "auto" | "tty" | "if-tty" => false,
                        _ => {
                            let valid =
                                ["'always', 'yes', 'force'", "'never', 'no', 'none'", "'auto', 'tty', 'if-tty'"];
                            return Err(UError::usage(2, crate::commands::util::bad_arg(val, "color", &valid)));
                        }
                    }
                }
                d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
                    // `-5` is `-C 5`; digits of one argument accumulate.
                    if digits.0 != opt.arg_index {
                        digits = (opt.arg_index, String::new());
                    }
                    digits.1.push_str(d);
                    both = context_num(&digits.1);
                }
                "T" | "U" | "u" | "line-buffered" | "D" => {}
                "V" => {
                    ctx.out(version().as_bytes()).await?;
                    return Ok(0);
                }
                other => {
                    return Err(UError::usage(2, format!("invalid option -- '{other}'")));
                }
            }
        }
        o.after = after.or(both).unwrap_or(0);
        o.before = before.or(both).unwrap_or(0);
        let mut operands = p.operands.clone();
        if !have_pats {
            if operands.is_empty() {
                return usage(ctx, "").await;
            }
            pats = operands.remove(0).split('\n').map(String::from).collect();
        }
        // BRE/ERE back-references (`\(ab\)\1`) need the backtracking engine too.
        let backref_sources = match syntax {
            Syntax::Basic | Syntax::Extended => {
                let all: Result<Vec<_>, _> = pats.iter().map(|p| translate(p, syntax == Syntax::Extended)).collect();
                match all {
                    Ok(ts) if ts.iter().any(|t| t.backrefs) => {
                        for w in ts.iter().flat_map(|t| t.warnings.iter()) {
                            ctx.err(format!("warning: {w}")).await?;
                        }
                        Some(ts.into_iter().map(|t| t.source).collect::<Vec<_>>())
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let backtracking = match &backref_sources {
            Some(srcs) => Some(srcs.clone()),
            None if syntax == Syntax::Perl && pats.iter().any(|p| perl_unsupported(p).is_some()) => Some(pats.clone()),
            None => None,
        };
        let fancy = if let Some(srcs) = backtracking {
            match build_backtracking(&srcs, icase, word, line_x, o.delim == 0, ctx.regex_limit()) {
                Ok(f) => Some(f),
                Err(e) => {
                    return Err(UError::new(2, e));
                }
            }
        } else {
            None
        };
        let regular = if fancy.is_some() { Vec::new() } else { pats.clone() };
        let (re, scan) = match build(&regular, syntax, icase, word, line_x, o.delim == 0, ctx.regex_limit()) {
            Ok((re, scan, warnings)) => {
                for w in warnings {
                    ctx.err(format!("warning: {w}")).await?;
                }
                (re, scan)
            }
            Err(e) => {
                return Err(UError::new(2, e));
            }
        };
        let matcher = Matcher { re, scan, fancy };
        let no_operands = operands.is_empty();
        if no_operands {
            operands.push(if walk.recursive { ".".into() } else { "-".into() });
        }
        o.with_name = name_opt.unwrap_or(operands.len() > 1 || walk.recursive && !is_single_file(ctx, &operands).await);
        if o.max == Some(0) {
            return Ok(1);
        }
        let mut st = State::default();
        let mut run = Run { o: &o, m: &matcher, walk: &walk, label: &label, matched: false, error: false };
        for f in &operands {
            let display = if no_operands && walk.recursive { None } else { Some(f.as_str()) };
            if run.operand(ctx, &mut st, f, display).await? && o.quiet {
                return Ok(0);
            }
        }
        flush(ctx, &mut st).await?;
        Ok(if run.error && !(o.quiet && run.matched) {
            2
        } else if run.matched {
            0
        } else {
            1
        })
    }
}

const USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...";

/// grep's usage errors carry its usage line before the `Try` line.
async fn usage(ctx: &CommandContext<'_>, msg: &str) -> UResult<i32> {
    let mut s = String::new();
    if !msg.is_empty() {
        s.push_str(&format!("grep: {msg}\n"));
    }
    s.push_str(&format!("{USAGE}\nTry 'grep --help' for more information.\n"));
    ctx.stderr.write(s.as_bytes()).await?;
    Ok(2)
}

/// Read a file; `/dev/null` is empty (`grep PAT file /dev/null` forces names).
async fn read_file(ctx: &CommandContext<'_>, path: &str) -> Result<Vec<u8>, crate::fs::FsError> {
    if path == "/dev/null" {
        return Ok(Vec::new());
    }
    ctx.fs.read(path).await
}

/// `grep -r PAT file`: a lone regular file shows no name.
async fn is_single_file(ctx: &CommandContext<'_>, ops: &[String]) -> bool {
    match ops {
        [one] if one != "-" => ctx.fs.metadata(&ctx.resolve(one)).await.is_ok_and(|m| !m.is_dir()),
        [one] => one == "-",
        _ => false,
    }
}

/// The line regex, its whole-buffer form, and translation warnings.
type Compiled = (Option<std::sync::Arc<regex::bytes::Regex>>, Option<std::sync::Arc<regex::bytes::Regex>>, Vec<&'static str>);

/// Compile the pattern list into one regex (`None` when the list is empty),
/// and its whole-buffer form for [`Matcher::scan`] when it has one.
fn build(
    pats: &[String],
    syntax: Syntax,
    icase: bool,
    word: bool,
    line_x: bool,
    null_data: bool,
    size_limit: usize,
) -> Result<Compiled, String> {
    if pats.is_empty() {
        return Ok((None, None, vec![]));
    }
    // The compile asks for its price; asked first, a list that cannot be
    // compiled is not copied (each pattern wrapped, then all joined) on the way.
    let len = pats.iter().map(|p| p.len().saturating_add(5)).fold(0usize, usize::saturating_add);
    regex_cache::admit_len(len).map_err(|_| "Regular expression too big".to_string())?;
    let mut warnings = Vec::new();
    let mut alts = Vec::with_capacity(pats.len());
    for p in pats {
        crate::limits::scope::checkpoint_work(p.len()).map_err(|stop| stop.to_string())?;
        let src = match syntax {
            Syntax::Fixed => regex::escape(p),
            Syntax::Perl => {
                if let Some(f) = perl_unsupported(p) {
                    return Err(format!("unsupported Perl regular expression feature: {f}"));
                }
                p.clone()
            }
            Syntax::Basic | Syntax::Extended => {
                let t = translate(p, syntax == Syntax::Extended)?;
                warnings.extend(t.warnings);
                t.source
            }
        };
        alts.push(format!("(?:{src})"));
    }
    let mut src = alts.join("|");
    if line_x {
        src = format!("^(?:{src})$");
    } else if word {
        src = format!("\\b{{start-half}}(?:{src})\\b{{end-half}}");
    }
    let builder = |multi: bool| {
        let flags = u32::from(icase) | u32::from(null_data) << 1 | u32::from(multi) << 2;
        let key = regex_cache::Key { source: src.clone(), flags, size_limit };
        COMPILED.get_or_build(key, |k| {
            let mut b = RegexBuilder::new(&k.source);
            b.case_insensitive(icase).dot_matches_new_line(null_data).size_limit(size_limit).dfa_size_limit(size_limit);
            if multi {
                b.multi_line(true).line_terminator(if null_data { 0 } else { b'\n' });
            }
            b.build()
        })
    };
    // Buffer anchors and Perl's inline flags would mean something else over
    // a whole buffer.
    let scan =
        (syntax != Syntax::Perl && !src.contains("\\A") && !src.contains("\\z")).then(|| builder(true).ok()).flatten();
    let re = builder(false).map_err(|e| match e {
        regex::Error::CompiledTooBig(_) => "Regular expression too big".to_string(),
        other => {
            let msg = other.to_string();
            let last = msg.lines().rev().find(|l| l.starts_with("error:")).unwrap_or("Invalid regular expression");
            last.trim_start_matches("error: ").to_string()
        }
    })?;
    Ok((Some(re), scan, warnings))
}

/// `grep -P` with features only a backtracking engine has (lookaround,
/// back-references, atomic groups), bounded by a step limit (see [`Backtracker`]).
fn build_backtracking(
    pats: &[String],
    icase: bool,
    word: bool,
    line_x: bool,
    null_data: bool,
    size_limit: usize,
) -> Result<Backtracker, String> {
    let alts: Vec<String> = pats.iter().map(|p| format!("(?:{p})")).collect();
    let mut src = alts.join("|");
    if line_x {
        src = format!("^(?:{src})$");
    } else if word {
        src = format!("(?<!\\w)(?:{src})(?!\\w)");
    }
    let flags = match (icase, null_data) {
        (true, true) => "(?is)",
        (true, false) => "(?i)",
        (false, true) => "(?s)",
        (false, false) => "",
    };
    Backtracker::new(&format!("{flags}{src}"), size_limit).map_err(|e| e.to_string())
}

/// PCRE features the `regex` crate lacks, named for the error message.
fn perl_unsupported(p: &str) -> Option<&'static str> {
    let feats = [
        ("(?=", "lookahead"),
        ("(?!", "lookahead"),
        ("(?<=", "lookbehind"),
        ("(?<!", "lookbehind"),
        ("(?>", "atomic groups"),
        ("\\K", "\\K"),
    ];
    if let Some((_, name)) = feats.iter().find(|(s, _)| p.contains(s)) {
        return Some(name);
    }
    let b = p.as_bytes();
    (b.windows(2).any(|w| w[0] == b'\\' && (b'1'..=b'9').contains(&w[1]))).then_some("back-references")
}

/// One run over all operands.
struct Run<'a> {
    o: &'a Out,
    m: &'a Matcher,
    walk: &'a Walk,
    label: &'a str,
    matched: bool,
    error: bool,
}

impl Run<'_> {
    /// Search one operand (`display`: its name in output; `None` for the
    /// implicit `.` of `grep -r`, whose entries are shown without `./`).
    /// Returns true once something matched.
    async fn operand(
        &mut self,
        ctx: &CommandContext<'_>,
        st: &mut State,
        f: &str,
        display: Option<&str>,
    ) -> Result<bool, crate::io::IoError> {
        if f == "-" {
            let lines = Lines::new(ctx.stdin.clone(), self.o.delim, true).await;
            return self.scan(ctx, st, self.label, lines).await;
        }
        let path = ctx.resolve(f);
        if path == "/dev/null" {
            return self.file(ctx, st, &path, f).await;
        }
        let meta = match ctx.fs.metadata(&path).await {
            Ok(m) => m,
            Err(e) => return self.fail(ctx, st, format!("{f}: {e}")).await,
        };
        if meta.is_dir() {
            if self.walk.recursive {
                if display.is_some() && self.walk.dir_excluded(f) && f != "." {
                    return Ok(false);
                }
                return self.tree(ctx, st, &path, display.map(String::from), 0).await;
            }
            if self.walk.skip_dirs {
                return Ok(false);
            }
            return self.fail(ctx, st, format!("{f}: Is a directory")).await;
        }
        if (self.walk.recursive || !self.walk.include.is_empty() || !self.walk.exclude.is_empty())
            && self.walk.file_excluded(f)
        {
            return Ok(false);
        }
        self.file(ctx, st, &path, f).await
    }

    async fn file(
        &mut self,
        ctx: &CommandContext<'_>,
        st: &mut State,
        path: &str,
        name: &str,
    ) -> Result<bool, crate::io::IoError> {
        // `/dev/null` is empty (`grep PAT file /dev/null` forces names).
        let opened = match crate::io::Input::device(path) {
            Some(dev) => Ok(dev),
            None => ctx.fs.open(path).await,
        };
        match opened {
            Ok(input) => self.scan(ctx, st, name, Lines::new(input, self.o.delim, false).await).await,
            Err(e) => self.fail(ctx, st, format!("{name}: {e}")).await,
        }
    }

    async fn scan(
        &mut self,
        ctx: &CommandContext<'_>,
        st: &mut State,
        name: &str,
        lines: Lines,
    ) -> Result<bool, crate::io::IoError> {
        let n = scan(ctx, self.o, self.m, st, name, lines).await?;
        if n > 0 {
            self.matched = true;
        }
        // A line that ran past the limit was taken as not matching: say so
        // (GNU grep -P's message), and the status is 2.
        if self.m.fancy.as_ref().is_some_and(Backtracker::take_exceeded) {
            self.fail(ctx, st, format!("{name}: exceeded PCRE's backtracking limit")).await?;
        }
        Ok(n > 0)
    }

    async fn fail(
        &mut self,
        ctx: &CommandContext<'_>,
        st: &mut State,
        msg: String,
    ) -> Result<bool, crate::io::IoError> {
        self.error = true;
        if !self.walk.quiet_errors {
            flush(ctx, st).await?;
            ctx.err(msg).await?;
        }
        Ok(false)
    }

    /// Walk a directory depth-first in name order (our `read_dir` is sorted,
    /// so output is deterministic where GNU follows on-disk order).
    async fn tree(
        &mut self,
        ctx: &CommandContext<'_>,
        st: &mut State,
        dir: &str,
        shown: Option<String>,
        depth: usize,
    ) -> Result<bool, crate::io::IoError> {
        // (directory path, its display name, its entries, next index, depth)
        let mut stack = Vec::new();
        let mut any = false;
        match ctx.fs.read_dir(dir).await {
            Ok(e) => stack.push((dir.to_string(), shown, e, 0usize, depth)),
            Err(e) => {
                self.fail(ctx, st, format!("{}: {e}", shown.as_deref().unwrap_or("."))).await?;
                return Ok(false);
            }
        }
        while let Some(top) = stack.last_mut() {
            if !ctx.still_running() {
                break;
            }
            let Some(e) = top.2.get(top.3).cloned() else {
                stack.pop();
                continue;
            };
            top.3 += 1;
            let (path, depth) = (crate::fs::path::join(&top.0, &e.name), top.4);
            let name = match &top.1 {
                Some(s) if s.ends_with('/') => format!("{s}{}", e.name),
                Some(s) => format!("{s}/{}", e.name),
                None => e.name.clone(),
            };
            let kind = match e.file_type {
                FileType::Symlink if !self.walk.deref => continue,
                FileType::Symlink => match ctx.fs.metadata(&path).await {
                    Ok(m) => m.file_type,
                    Err(err) => {
                        self.fail(ctx, st, format!("{name}: {err}")).await?;
                        continue;
                    }
                },
                t => t,
            };
            if kind == FileType::Dir {
                if depth + 1 < MAX_DEPTH && !self.walk.dir_excluded(&name) {
                    match ctx.fs.read_dir(&path).await {
                        Ok(entries) => stack.push((path, Some(name), entries, 0, depth + 1)),
                        Err(err) => {
                            self.fail(ctx, st, format!("{name}: {err}")).await?;
                        }
                    }
                }
                continue;
            }
            if self.walk.file_excluded(&name) {
                continue;
            }
            if self.file(ctx, st, &path, &name).await? {
                any = true;
                if self.o.quiet {
                    return Ok(true);
                }
            }
        }
        Ok(any)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const F: &[(&str, &str)] = &[("f", "foo\nbar\nfoobar\n")];
    const TREE: &[(&str, &str)] = &[("d/a.txt", "hit\n"), ("d/sub/b.log", "hit\n"), ("d/c.txt", "no\n")];
    const USAGE: &str = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

    /// The whole-buffer search that skips lines before the next match:
    /// anchors at every line, matches that would span lines (`\\s`, `\\W`
    /// take the newline), buffer anchors, `-x`, `-v -c`, `-z`.
    #[test]
    fn buffer_scan_matches_line_by_line() {
        let f = ("g.txt", "alpha beta\nbeta alpha\n\nfoo\nxfoo\nfoo bar foo\n  lead\ntrail  \nALPHA\nab\na\nb\nend");
        check(&["grep", "-c", "alpha.*beta", "g.txt"], &[f], "", "1\n", "", 0);
        check(&["grep", "-n", "foo$", "g.txt"], &[f], "", "4:foo\n5:xfoo\n6:foo bar foo\n", "", 0);
        check(&["grep", "-c", "^", "g.txt"], &[f], "", "13\n", "", 0);
        check(&["grep", "-x", "foo", "g.txt"], &[f], "", "foo\n", "", 0);
        check(&["grep", "-E", "a\\sb|a$", "g.txt"], &[f], "", "alpha beta\nbeta alpha\na\n", "", 0);
        check(&["grep", "-c", "-E", "\\W", "g.txt"], &[f], "", "5\n", "", 0);
        check(&["grep", "b\\'", "g.txt"], &[f], "", "ab\nb\n", "", 0);
        check(&["grep", "-v", "-c", "^$", "g.txt"], &[f], "", "12\n", "", 0);
        check(&["grep", "-z", "^foo"], &[], "x1\0foo\0bar\nfoo\0", "foo\0", "", 0);
    }

    #[test]
    fn basics() {
        check(&["grep", "foo", "f"], F, "", "foo\nfoobar\n", "", 0);
        check(&["grep", "-n", "foo", "f"], F, "", "1:foo\n3:foobar\n", "", 0);
        check(&["grep", "-c", "foo", "f"], F, "", "2\n", "", 0);
        check(&["grep", "-v", "foo", "f"], F, "", "bar\n", "", 0);
        check(&["grep", "-w", "foo", "f"], F, "", "foo\n", "", 0);
        check(&["grep", "-x", "foo", "f"], F, "", "foo\n", "", 0);
        check(&["grep", "-o", "o", "f"], F, "", "o\no\no\no\n", "", 0);
        check(&["grep", "-i", "FOO", "f"], F, "", "foo\nfoobar\n", "", 0);
        check(&["grep", "-l", "foo", "f", "f"], F, "", "f\nf\n", "", 0);
        check(&["grep", "-L", "foo", "f"], F, "", "", "", 0);
        check(&["grep", "-q", "foo", "f"], F, "", "", "", 0);
        check(&["grep", "zzz", "f"], F, "", "", "", 1);
        check(&["grep", "-h", "bar", "f", "f"], F, "", "bar\nfoobar\nbar\nfoobar\n", "", 0);
        check(&["grep", "-H", "bar", "f"], F, "", "f:bar\nf:foobar\n", "", 0);
        check(&["grep", "-e", "foo", "-e", "bar", "f"], F, "", "foo\nbar\nfoobar\n", "", 0);
        check(&["grep", "x"], &[], "x\ny", "x\n", "", 0);
        check(&["grep", "-c", "y", "-"], &[], "x\ny", "1\n", "", 0);
        check(&["grep", "-n", "--label=foo", "-H", "x"], &[], "x\ny\n", "foo:1:x\n", "", 0);
        check(&["grep", "-Z", "-l", "a", "f"], &[("f", "a\n")], "", "f\0", "", 0);
        check(&["grep", "-c", "a", "f", "/dev/null"], &[("f", "a\n")], "", "f:1\n/dev/null:0\n", "", 0);
        // -q wins over -c and -l: nothing is printed.
        check(&["grep", "-qc", "foo", "f"], F, "", "", "", 0);
        check(&["grep", "-lq", "foo", "f"], F, "", "", "", 0);
        let v = "grep (GNU grep) 3.8\nCopyright (C) 2022 Free Software Foundation, Inc.\n\
            License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
            This is free software: you are free to change and redistribute it.\n\
            There is NO WARRANTY, to the extent permitted by law.\n\n\
            Written by Mike Haertel and others; see\n<https://git.sv.gnu.org/cgit/grep.git/tree/AUTHORS>.\n";
        check(&["grep", "--version"], &[], "", v, "", 0);
        check(&["grep", "-V"], &[], "", v, "", 0);
    }

    #[test]
    fn perl_lookaround_and_backreferences() {
        // Expected output recorded from GNU grep 3.8 -P (PCRE2).
        let p1: &[(&str, &str)] = &[("p1", "foo123bar baz45bar\n")];
        let p2: &[(&str, &str)] = &[("p2", "abab\nabcd\nfoo\nfoobar\n")];
        check(&["grep", "-oP", "\\d+(?=bar)", "p1"], p1, "", "123\n45\n", "", 0);
        check(&["grep", "-P", "(ab)\\1", "p2"], p2, "", "abab\n", "", 0);
        check(&["grep", "-cP", "foo(?!bar)", "p2"], p2, "", "1\n", "", 0);
        check(&["grep", "-wP", "ab(?=ab)", "p2"], p2, "", "", "", 1);
        check(&["grep", "-xP", "(ab)\\1", "p2"], p2, "", "abab\n", "", 0);
    }

    #[test]
    fn syntax() {
        check(&["grep", "-E", "fo+|^b", "f"], F, "", "foo\nbar\nfoobar\n", "", 0);
        check(&["grep", "fo\\+\\|^b", "f"], F, "", "foo\nbar\nfoobar\n", "", 0);
        check(&["grep", "o\\{2\\}b", "f"], F, "", "foobar\n", "", 0);
        check(&["grep", "a+b"], &[], "a+b\naab\n", "a+b\n", "", 0);
        check(&["grep", "-E", "a+b"], &[], "a+b\naab\n", "aab\n", "", 0);
        check(&["grep", "-F", "a.b"], &[], "a.b\naxb\n", "a.b\n", "", 0);
        check(&["grep", "x(y)"], &[], "x(y)\nxy\n", "x(y)\n", "", 0);
        check(&["grep", "-c", "^[[:alpha:]]*$"], &[], "ab12\ncd\n3\n", "1\n", "", 0);
        check(&["grep", "*b"], &[], "*b\n", "*b\n", "", 0);
        check(&["grep", "a[]]b"], &[], "a]b\n", "a]b\n", "", 0);
        check(&["grep", "-o", "\\<wor"], &[], "hello world\n", "wor\n", "", 0);
        check(&["grep", "-ow", "the\\|cat"], &[], "the cat\n", "the\ncat\n", "", 0);
        check(&["grep", "-ob", "ab."], &[], "abc abd\n", "0:abc\n4:abd\n", "", 0);
        check(&["grep", "-oE", "[^=]+$"], &[], "key=value\n", "value\n", "", 0);
        check(&["grep", "-oP", "\\d+"], &[], "a1b22\n", "1\n22\n", "", 0);
        check(&["grep", "-E", "*a"], &[], "a\n", "a\n", "grep: warning: * at start of expression\n", 0);
    }

    #[test]
    fn context() {
        let n = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        check(&["grep", "-A1", "-e", "3", "-e", "7"], &[], n, "3\n4\n--\n7\n8\n", "", 0);
        check(&["grep", "-B2", "5"], &[], n, "3\n4\n5\n", "", 0);
        check(&["grep", "-C1", "-n", "[48]"], &[], n, "3-3\n4:4\n5-5\n--\n7-7\n8:8\n9-9\n", "", 0);
        check(&["grep", "-2", "5"], &[], n, "3\n4\n5\n6\n7\n", "", 0);
        check(&["grep", "-m2", "[0-9]"], &[], n, "1\n2\n", "", 0);
        check(&["grep", "-c", "-m3", "[0-9]"], &[], n, "3\n", "", 0);
        check(&["grep", "-n", "-m2", "-A2", "a"], &[], "a1\nb\na2\na3\nc\n", "1:a1\n2-b\n3:a2\n4-a3\n5-c\n", "", 0);
        let f = &[("f", "a\nb\nc\nd\na\n")];
        check(
            &["grep", "-n", "-C1", "a", "f", "-"],
            f,
            "a\nb\nc\nd\na\n",
            "f:1:a\nf-2-b\n--\nf-4-d\nf:5:a\n--\n(standard input):1:a\n(standard input)-2-b\n--\n(standard input)-4-d\n(standard input):5:a\n",
            "",
            0,
        );
    }

    #[test]
    fn recursive() {
        // GNU lists entries in on-disk order; ours is name order (same lines).
        check(&["grep", "-r", "hit", "d"], TREE, "", "d/a.txt:hit\nd/sub/b.log:hit\n", "", 0);
        check(&["grep", "-r", "hit", "d", "--include=*.txt"], TREE, "", "d/a.txt:hit\n", "", 0);
        check(&["grep", "-rl", "hit", "d", "--exclude-dir=sub"], TREE, "", "d/a.txt\n", "", 0);
        check(&["grep", "-rc", "hit", "d"], TREE, "", "d/a.txt:1\nd/c.txt:0\nd/sub/b.log:1\n", "", 0);
        check(&["grep", "-rL", "zzz", "d/"], TREE, "", "d/a.txt\nd/c.txt\nd/sub/b.log\n", "", 1);
        check(&["grep", "-r", "a", "f"], &[("f", "a\n")], "", "a\n", "", 0);
        check(&["grep", "hit", "d"], TREE, "", "", "grep: d: Is a directory\n", 2);
    }

    #[test]
    fn binary_and_errors() {
        let b = &[("bn", "x\0y\nz\n")];
        check(&["grep", "z", "bn"], b, "", "", "grep: bn: binary file matches\n", 0);
        check(&["grep", "-a", "z", "bn"], b, "", "z\n", "", 0);
        check(&["grep", "-c", "z", "bn"], b, "", "1\n", "", 0);
        check(&["grep", "foo", "f", "nope"], F, "", "f:foo\nf:foobar\n", "grep: nope: No such file or directory\n", 2);
        check(&["grep", "-s", "foo", "nope", "f"], F, "", "f:foo\nf:foobar\n", "", 2);
        check(&["grep", "-q", "foo", "nope", "f"], F, "", "", "grep: nope: No such file or directory\n", 0);
        check(&["grep", "-E", "("], &[], "", "", "grep: Unmatched ( or \\(\n", 2);
        check(&["grep", "a\\{1"], &[], "", "", "grep: Unmatched \\{\n", 2);
        check(&["grep", "[[:foo:]]"], &[], "", "", "grep: Invalid character class name\n", 2);
        check(&["grep", "[:space:]"], &[], "", "", "grep: character class syntax is [[:space:]], not [:space:]\n", 2);
        check(&["grep", "["], &[], "", "", "grep: Invalid regular expression\n", 2);
        check(&["grep", "a\\"], &[], "", "", "grep: Trailing backslash\n", 2);
        check(&["grep"], &[], "", "", USAGE, 2);
        check(&["grep", "-k", "x"], &[], "", "", &format!("grep: invalid option -- 'k'\n{USAGE}"), 2);
        check(&["grep", "-A", "x", "y"], &[], "", "", "grep: x: invalid context length argument\n", 2);
        check(&["grep", "-f", "/dev/null"], &[], "a\n", "", "", 1);
        check(&["grep", "-f", "p"], &[("p", "a\nb\n")], "a\nb\nc\n", "a\nb\n", "", 0);
    }

    #[test]
    fn color() {
        check(
            &["grep", "-n", "--color=always", "a"],
            &[],
            "a\nb\n",
            "\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ka\x1b[m\x1b[K\n",
            "",
            0,
        );
    }

    /// A line whose search ran past the backtracking limit: GNU grep -P's
    /// message, status 2 (its "no match" is not trusted).
    #[test]
    fn backtracking_limit_is_an_error() {
        let line = format!("{}\n", "a".repeat(2_000));
        let err = "grep: (standard input): exceeded PCRE's backtracking limit\n";
        check(&["grep", "-cE", "(a*)*\\1(a*)*\\2c"], &[], &line, "0\n", err, 2);
        check(&["grep", "-E", "(a)\\1c"], &[], "aac\n", "aac\n", "", 0);
    }
}
