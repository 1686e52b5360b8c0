//! Helpers shared by the utilities: error messages, path resolution, reading
//! operands (files or stdin), and small option-parsing aids.

pub(crate) mod bignum;
pub(crate) mod file_mode;
pub(crate) mod file_time;
pub(crate) mod file_util;
pub(crate) mod ldouble;
pub(crate) mod lines;
pub(crate) mod net;
pub(crate) mod posix_regex;
pub(crate) mod regex_translate;
pub(crate) mod strftime;
#[cfg(test)]
pub(crate) mod testutil;

use crate::commands::CommandContext;
use crate::fs::path;
use crate::io::{Input, IoError};

impl CommandContext<'_> {
    /// Absolute sandbox path for an operand.
    pub fn resolve(&self, p: &str) -> String {
        path::resolve(self.cwd, p)
    }

    /// Print `name: msg` on stderr, as GNU utilities do.
    pub async fn err(&self, msg: impl AsRef<str>) -> Result<(), IoError> {
        let line = format!("{}: {}\n", self.name, msg.as_ref());
        self.stderr.write(line.as_bytes()).await
    }

    /// Print `bash: line N: name: msg` on stderr, as bash's own builtins do.
    pub async fn builtin_err(&self, msg: impl AsRef<str>) -> Result<(), IoError> {
        // The shell's name for errors (the script file, else `$0`).
        let who = self.shell.map_or_else(|| "bash".to_string(), |sh| sh.loc().who);
        let line = format!("{who}: line {}: {}: {}\n", self.line, self.name, msg.as_ref());
        self.stderr.write(line.as_bytes()).await
    }

    /// Write bytes to stdout.
    pub async fn out(&self, data: &[u8]) -> Result<(), IoError> {
        self.stdout.write(data).await
    }

    /// Open an operand as a stream: `-` and `/dev/stdin` are stdin, the
    /// character devices stream (`head -c 16 /dev/urandom`), files are read
    /// whole. The error is the C library wording.
    pub async fn open_input(&self, operand: &str) -> Result<Input, String> {
        if operand == "-" || operand == "/dev/stdin" {
            return Ok(self.stdin.clone());
        }
        let path = self.resolve(operand);
        if let Some(dev) = Input::device(&path) {
            return Ok(dev);
        }
        self.fs.open(&path).await.map_err(|e| e.to_string())
    }

    /// Read a whole operand: `-` is stdin, anything else a file. The error is
    /// the C library wording (`No such file or directory`). An endless device
    /// is read up to `max_string_bytes`, then stops the exec like `yes | sort`.
    pub async fn read_operand(&self, operand: &str) -> Result<Vec<u8>, String> {
        let path = self.resolve(operand);
        if let Some(dev) = Input::device(&path).filter(|_| path != "/dev/null") {
            let max = usize::try_from(self.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
            return dev.read_to_end(max).await.map_err(|_| {
                self.budget.input_exceeded();
                "input too large".to_string()
            });
        }
        if operand == "-" || path == "/dev/stdin" {
            let max = usize::try_from(self.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
            return self.stdin.read_to_end(max).await.map_err(|_| {
                // Ends the exec with the limit's name once the command returns.
                self.budget.input_exceeded();
                "input too large".to_string()
            });
        }
        self.fs.read(&self.resolve(operand)).await.map_err(|e| e.to_string())
    }

    /// Compiled-size cap for a regular expression (`max_regex_bytes`).
    pub fn regex_limit(&self) -> usize {
        usize::try_from(self.budget.limits.max_regex_bytes).unwrap_or(usize::MAX)
    }

    /// Check the deadline, cancellation and memory; long-running utilities
    /// call this in their loops.
    pub fn still_running(&self) -> bool {
        match self.budget.check() {
            Ok(()) => true,
            Err(stop) => {
                stop_exec(self.budget, stop);
                false
            }
        }
    }
}

/// A utility's loop was stopped by the exec's budget: the exec ends with
/// `stop` at its check after the command, even if what made it (memory held by
/// the utility) is gone by then.
pub fn stop_exec(budget: &crate::limits::Budget, stop: crate::limits::Stop) {
    budget.stop_from_job(stop);
}

/// [`crate::limits::checkpoint`] for a utility's inner loop: false (and the
/// exec ends, see [`stop_exec`]) when it must stop.
pub fn checkpoint_ok(budget: &crate::limits::Budget) -> bool {
    match crate::limits::checkpoint() {
        Ok(()) => true,
        Err(stop) => {
            stop_exec(budget, stop);
            false
        }
    }
}

/// Lines of one operand, streamed (so `yes | uniq | head -n1`-style
/// pipelines end and big files are never held whole). A file is read a
/// chunk at a time; stdin a line at a time, since other readers share it
/// (`paste - -` takes alternate lines).
pub enum LineSource {
    File(lines::LineReader),
    Stdin { input: Input, delim: u8, done: bool },
}

impl LineSource {
    /// The next line including its delimiter (the last line may lack it).
    /// After a line longer than `max_string_bytes` it ends (the exec fails
    /// with that limit), so an endless `/dev/zero` is not read forever.
    pub async fn next_line(&mut self, ctx: &CommandContext<'_>) -> Option<Vec<u8>> {
        match self {
            LineSource::File(r) => {
                if r.too_long {
                    return None;
                }
                let line = r.next_line().await.map(<[u8]>::to_vec);
                if r.too_long {
                    ctx.budget.input_exceeded();
                }
                line
            }
            LineSource::Stdin { input, delim, done } => {
                if *done {
                    return None;
                }
                let max = usize::try_from(ctx.budget.limits.max_string_bytes.max(1)).unwrap_or(usize::MAX);
                let line = input.read_until(*delim, max).await;
                if line.as_ref().is_some_and(|l| l.len() >= max && l.last() != Some(delim)) {
                    ctx.budget.input_exceeded();
                    *done = true;
                }
                line
            }
        }
    }
}

impl LineSource {
    /// The next line without its delimiter.
    pub async fn next_text(&mut self, ctx: &CommandContext<'_>) -> Option<Vec<u8>> {
        let delim = match self {
            LineSource::File(r) => r.delim(),
            LineSource::Stdin { delim, .. } => *delim,
        };
        let mut line = self.next_line(ctx).await?;
        if line.last() == Some(&delim) {
            line.pop();
        }
        Some(line)
    }
}

impl CommandContext<'_> {
    /// Open `operand` (`-` is stdin) for reading lines ended by `delim`. The
    /// error is the C library wording (`No such file or directory`).
    pub async fn open_lines(&self, operand: &str, delim: u8) -> Result<LineSource, String> {
        if operand == "-" || operand == "/dev/stdin" {
            return Ok(LineSource::Stdin { input: self.stdin.clone(), delim, done: false });
        }
        let input = self.open_input(operand).await?;
        Ok(LineSource::File(self.line_reader(input, delim)))
    }

    /// A line reader over `input`, its lines capped at `max_string_bytes`.
    pub fn line_reader(&self, input: Input, delim: u8) -> lines::LineReader {
        let max = usize::try_from(self.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
        lines::LineReader::new(input, delim, max)
    }
}

/// Split `data` into lines, each keeping its `\n` (the last may lack one).
pub fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split_inclusive(|&b| b == b'\n')
}

// ---------------------------------------------------------------------------
// Option parsing (GNU getopt_long style, shared by every utility)
// ---------------------------------------------------------------------------

/// Whether an option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    No,
    Yes,
    /// Long options only: `--color[=WHEN]`.
    Optional,
}

/// How a utility's options look. `short` is a getopt string (`"n:c:qv"`: a
/// letter followed by `:` takes a value); `long` maps `--name` to an id (a
/// short letter when there is one).
pub struct Spec {
    pub short: &'static str,
    pub long: &'static [(&'static str, Arg, &'static str)],
    /// Printed after `Usage: NAME ` by `--help`.
    pub usage: &'static str,
    /// Exit status of a usage error (1 for most, 2 for grep/sort/ls, 125 for env).
    pub bad_status: i32,
    /// Stop at the first operand (POSIX order) instead of GNU's permutation.
    pub stop_at_operand: bool,
    /// `-5`, `-.5` are operands (seq's negative numbers), not options.
    pub numbers_are_operands: bool,
}

impl Spec {
    pub const fn new(
        short: &'static str,
        long: &'static [(&'static str, Arg, &'static str)],
        usage: &'static str,
    ) -> Spec {
        Spec { short, long, usage, bad_status: 1, stop_at_operand: false, numbers_are_operands: false }
    }
    pub const fn status(mut self, s: i32) -> Spec {
        self.bad_status = s;
        self
    }
    pub const fn posix(mut self) -> Spec {
        self.stop_at_operand = true;
        self
    }
    pub const fn numbers(mut self) -> Spec {
        self.numbers_are_operands = true;
        self
    }

    /// The getopt entry of short option `c`: its id and whether it takes a value.
    fn short_opt(&self, c: char) -> Option<(&'static str, bool)> {
        let s = self.short;
        let i = s.find(c).filter(|_| c != ':')?;
        let id = &s[i..i + c.len_utf8()];
        Some((id, s[i + c.len_utf8()..].starts_with(':')))
    }
}

/// One option as given, in order.
#[derive(Clone, Debug)]
pub struct Opt {
    pub id: &'static str,
    pub val: Option<String>,
    /// Which argument it came from (grep's `-12` digits accumulate within one).
    pub arg_index: usize,
}

/// Options in command-line order, then operands.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub opts: Vec<Opt>,
    pub operands: Vec<String>,
}

impl Parsed {
    pub fn has(&self, id: &str) -> bool {
        self.opts.iter().any(|o| o.id == id)
    }
    /// The value of the last occurrence of `id`.
    pub fn last(&self, id: &str) -> Option<&str> {
        self.opts.iter().rev().find(|o| o.id == id).and_then(|o| o.val.as_deref())
    }
    /// The values of every occurrence of `id`.
    pub fn all<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.opts.iter().filter(move |o| o.id == id).filter_map(|o| o.val.as_deref())
    }
}

/// A usage error, worded as GNU getopt words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptError {
    Help,
    Version,
    Invalid(char),
    Missing(char),
    Unrecognized(String),
    LongMissing(String),
    LongNoArg(String),
    Ambiguous(String, Vec<&'static str>),
}

impl std::fmt::Display for OptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptError::Help | OptError::Version => Ok(()),
            OptError::Invalid(c) => write!(f, "invalid option -- '{c}'"),
            OptError::Missing(c) => write!(f, "option requires an argument -- '{c}'"),
            OptError::Unrecognized(s) => write!(f, "unrecognized option '{s}'"),
            OptError::LongMissing(s) => write!(f, "option '--{s}' requires an argument"),
            OptError::LongNoArg(s) => write!(f, "option '--{s}' doesn't allow an argument"),
            OptError::Ambiguous(s, names) => {
                write!(f, "option '{s}' is ambiguous; possibilities:")?;
                for n in names {
                    write!(f, " '--{n}'")?;
                }
                Ok(())
            }
        }
    }
}

/// The licence block GNU programs of 2022 print after their version line.
pub const GNU_LICENSE_2022: &str = "Copyright (C) 2022 Free Software Foundation, Inc.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n";

/// `NAME --version` of a GNU coreutils 9.1 utility, authors included.
pub fn coreutils_version(name: &str) -> String {
    // GNU prints its own name, not the path it was run by.
    let name = name.rsplit('/').next().unwrap_or(name);
    let mut text = format!("{name} (GNU coreutils) 9.1\n{GNU_LICENSE_2022}");
    if let Some(who) = crate::commands::UTILITIES.iter().find(|u| u.name == name).and_then(|u| u.authors) {
        text.push_str(&format!("\nWritten by {who}\n"));
    }
    text
}

/// `--help` and `--version` exist for every utility.
const STD_LONG: &[(&str, Arg, &str)] = &[("help", Arg::No, "help"), ("version", Arg::No, "version")];

/// Find a long option by exact name or unique prefix.
fn find_long(spec: &Spec, name: &str, whole: &str) -> Result<(&'static str, Arg, &'static str), OptError> {
    let all = || spec.long.iter().chain(STD_LONG.iter());
    if let Some(e) = all().find(|e| e.0 == name) {
        return Ok(*e);
    }
    let cands: Vec<&(&str, Arg, &str)> = all().filter(|e| e.0.starts_with(name)).collect();
    match cands.as_slice() {
        [] => Err(OptError::Unrecognized(whole.to_string())),
        [one] => Ok(**one),
        many if many.iter().all(|e| e.2 == many[0].2 && e.1 == many[0].1) => Ok(*many[0]),
        many => Err(OptError::Ambiguous(
            whole.split('=').next().unwrap_or(whole).to_string(),
            many.iter().map(|e| e.0).collect(),
        )),
    }
}

fn looks_numeric(a: &str) -> bool {
    let b = a.as_bytes();
    b.len() > 1 && b[0] == b'-' && (b[1].is_ascii_digit() || (b[1] == b'.' && b.get(2).is_some_and(u8::is_ascii_digit)))
}

/// Parse `args` the way GNU getopt_long does (clustered short flags, `-n5` and
/// `-n 5`, `--name=v` and `--name v`, unique prefixes, `--` ends options).
pub fn parse(args: &[String], spec: &Spec) -> Result<Parsed, OptError> {
    let mut p = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let idx = i;
        i += 1;
        if a == "--" {
            p.operands.extend(args[i..].iter().cloned());
            break;
        }
        if a.len() < 2 || !a.starts_with('-') || (spec.numbers_are_operands && looks_numeric(a)) {
            p.operands.push(a.clone());
            if spec.stop_at_operand {
                p.operands.extend(args[i..].iter().cloned());
                break;
            }
            continue;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let (lname, kind, id) = find_long(spec, name, a)?;
            let val = match (kind, inline) {
                (Arg::No, Some(_)) => return Err(OptError::LongNoArg(lname.to_string())),
                (Arg::No, None) => None,
                (Arg::Optional, v) => v,
                (Arg::Yes, Some(v)) => Some(v),
                (Arg::Yes, None) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        Some(v.clone())
                    }
                    None => return Err(OptError::LongMissing(lname.to_string())),
                },
            };
            match id {
                "help" if !spec.long.iter().any(|e| e.2 == "help") => return Err(OptError::Help),
                "version" if !spec.long.iter().any(|e| e.2 == "version") => return Err(OptError::Version),
                _ => {}
            }
            p.opts.push(Opt { id, val, arg_index: idx });
            continue;
        }
        let body = &a[1..];
        for (pos, c) in body.char_indices() {
            let Some((id, takes)) = spec.short_opt(c) else {
                return Err(OptError::Invalid(c));
            };
            if !takes {
                p.opts.push(Opt { id, val: None, arg_index: idx });
                continue;
            }
            let rest = &body[pos + c.len_utf8()..];
            let val = if !rest.is_empty() {
                rest.to_string()
            } else if let Some(v) = args.get(i) {
                i += 1;
                v.clone()
            } else {
                return Err(OptError::Missing(c));
            };
            p.opts.push(Opt { id, val: Some(val), arg_index: idx });
            break;
        }
    }
    Ok(p)
}

impl CommandContext<'_> {
    /// Parse this command's arguments. `Err(status)` means a message (usage
    /// error, `--help`, `--version`) was printed and the command should return it.
    pub async fn parse_opts(&self, spec: &Spec) -> Result<Result<Parsed, i32>, IoError> {
        self.parse_args(self.args, spec).await
    }

    /// [`parse_opts`](Self::parse_opts) for a command that takes at most `max`
    /// operands: one more is GNU's `extra operand 'x'` usage error.
    pub async fn parse_at_most(&self, spec: &Spec, max: usize) -> Result<Result<Parsed, i32>, IoError> {
        let p = match self.parse_opts(spec).await? {
            Ok(p) => p,
            Err(s) => return Ok(Err(s)),
        };
        if let Some(extra) = p.operands.get(max) {
            self.usage_err(format!("extra operand {}", quote_locale(extra))).await?;
            return Ok(Err(spec.bad_status));
        }
        Ok(Ok(p))
    }

    /// Like [`parse_opts`](Self::parse_opts) on arguments the command rewrote first.
    pub async fn parse_args(&self, args: &[String], spec: &Spec) -> Result<Result<Parsed, i32>, IoError> {
        match parse(args, spec) {
            Ok(p) => Ok(Ok(p)),
            Err(OptError::Help) => {
                self.out(format!("Usage: {} {}\n", self.name, spec.usage).as_bytes()).await?;
                Ok(Err(0))
            }
            Err(OptError::Version) => {
                self.out(coreutils_version(self.name).as_bytes()).await?;
                Ok(Err(0))
            }
            Err(e) => {
                self.usage_err(e.to_string()).await?;
                Ok(Err(spec.bad_status))
            }
        }
    }

    /// `name: msg` plus GNU's `Try 'name --help' for more information.`
    pub async fn usage_err(&self, msg: impl AsRef<str>) -> Result<(), IoError> {
        let m = msg.as_ref();
        let mut s = String::new();
        if !m.is_empty() {
            s = format!("{}: {}\n", self.name, m);
        }
        s.push_str(&format!("Try '{} --help' for more information.\n", self.name));
        self.stderr.write(s.as_bytes()).await
    }

    /// Stdin, bounded by the exec's limits.
    pub async fn read_stdin(&self) -> Result<Vec<u8>, String> {
        self.read_operand("-").await
    }
}

/// GNU argmatch's message for a bad option value (`--check=x`): `valid` lists
/// the accepted values, each already quoted (synonyms joined: `'quiet', 'silent'`).
/// Print it with [`CommandContext::usage_err`].
pub fn bad_arg(val: &str, opt: &str, valid: &[&str]) -> String {
    let mut s = format!(
        "invalid argument {} for {}\nValid arguments are:",
        quote_locale(val),
        quote_locale(&format!("--{opt}"))
    );
    for v in valid {
        s.push_str(&format!("\n  - {v}"));
    }
    s
}

// ---------------------------------------------------------------------------
// Quoting of names in messages (gnulib quotearg, shell-escape style)
// ---------------------------------------------------------------------------

fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.starts_with(['#', '~'])
        || s.chars().any(|c| c.is_control() || c.is_whitespace() || " !\"$&'()*;<=>?[\\^`|:".contains(c))
}

/// Quote `s` as GNU does for `'name'` in messages (always quoted): single
/// quotes, `'\''` for a quote, `$'\n'` for control characters; double quotes
/// when a single quote is the only special character.
pub fn quote(s: &str) -> String {
    if s.contains('\'') && !s.chars().any(|c| c.is_control() || "\"$`\\!".contains(c)) {
        return format!("\"{s}\"");
    }
    let mut out = String::new();
    let mut run = String::new();
    let mut open = false;
    for c in s.chars() {
        if c.is_control() {
            if open || !run.is_empty() || out.is_empty() {
                out.push('\'');
                out.push_str(&run);
                out.push('\'');
                run.clear();
            }
            out.push_str("$'");
            out.push_str(&ctrl_escape(c));
            out.push('\'');
            open = false;
        } else {
            open = true;
            if c == '\'' {
                run.push_str("'\\''");
            } else {
                run.push(c);
            }
        }
    }
    if open || out.is_empty() {
        out.push('\'');
        out.push_str(&run);
        out.push('\'');
    }
    out
}

tokio::task_local! {
    /// Whether the running utility's locale is UTF-8 (set per command by the
    /// interpreter from LC_ALL / LC_MESSAGES / LANG).
    static UTF8_LOCALE: bool;
}

/// Run `fut` (a utility) with the quoting style of the locale `env` names:
/// UTF-8 unless LC_ALL, LC_MESSAGES or LANG (the first one set) says
/// otherwise, e.g. `C` or `POSIX`. The sandbox's default locale is C.UTF-8.
pub async fn with_locale<F: std::future::Future>(env: &dyn crate::commands::EnvView, fut: F) -> F::Output {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|k| env.get(k).filter(|v| !v.is_empty()));
    let utf8 = match locale {
        None => true,
        Some(l) => {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        }
    };
    UTF8_LOCALE.scope(utf8, fut).await
}

/// Whether the running utility's locale is UTF-8 (C.UTF-8 unless the
/// environment names another; ASCII-only outside a utility, as in unit tests).
pub fn locale_is_utf8() -> bool {
    UTF8_LOCALE.try_with(|u| *u).unwrap_or(false)
}

/// GNU's `quote()`: the locale's quotation marks, `‘x’` in a UTF-8 locale
/// and `'x'` otherwise (file names in "cannot open" messages use [`quote`],
/// which is always ASCII, as GNU's `quoteaf` is).
pub fn quote_locale(s: &str) -> String {
    let utf8 = UTF8_LOCALE.try_with(|u| *u).unwrap_or(false);
    if utf8 && !s.chars().any(char::is_control) {
        format!("\u{2018}{s}\u{2019}")
    } else if utf8 {
        format!("\u{2018}{}\u{2019}", quote(s).trim_matches('\''))
    } else {
        quote(s)
    }
}

/// Quote `s` only when it needs it (GNU `quotef`, used for `wc: name: ...`).
pub fn quotef(s: &str) -> String {
    if needs_quotes(s) {
        quote(s)
    } else {
        s.to_string()
    }
}

fn ctrl_escape(c: char) -> String {
    match c {
        '\x07' => "\\a".into(),
        '\x08' => "\\b".into(),
        '\x0c' => "\\f".into(),
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        '\t' => "\\t".into(),
        '\x0b' => "\\v".into(),
        c => {
            let mut buf = [0u8; 4];
            c.encode_utf8(&mut buf).bytes().map(|b| format!("\\{b:03o}")).collect()
        }
    }
}

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

/// A count with GNU's multiplier suffixes (`b`=512, `k`/`K`/`KiB`=1024,
/// `kB`=1000, `M`/`MB`, `G`, ... `Y`); leading blanks and `+` are allowed as
/// strtoumax allows them. Values too large clamp to `u64::MAX`.
pub fn parse_size(s: &str) -> Option<u64> {
    parse_size_wide(s).map(|n| n.min(u128::from(u64::MAX)) as u64)
}

/// Like [`parse_size`], telling an invalid count (`Err(false)`) from one too
/// large for a u64 (`Err(true)`, GNU's "Value too large for defined data type").
pub fn parse_size_checked(s: &str) -> Result<u64, bool> {
    match parse_size_wide(s) {
        None => Err(false),
        Some(n) if n > u128::from(u64::MAX) => Err(true),
        Some(n) => Ok(n as u64),
    }
}

/// The count of [`parse_size`] before clamping (saturates a little past u64).
fn parse_size_wide(s: &str) -> Option<u128> {
    let s = s.trim_start_matches([' ', '\t', '\n']);
    let s = s.strip_prefix('+').unwrap_or(s);
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if digits_end == 0 {
        return None;
    }
    let (num, suffix) = s.split_at(digits_end);
    let cap = u128::from(u64::MAX) + 1;
    let n: u128 = num.bytes().fold(0u128, |acc, d| (acc * 10 + u128::from(d - b'0')).min(cap));
    let mut ch = suffix.chars();
    let mult: u128 = match ch.next() {
        None => 1,
        Some('b') if ch.as_str().is_empty() => 512,
        Some(letter) => {
            let pow = match letter {
                'k' | 'K' => 1,
                'm' | 'M' => 2,
                'G' => 3,
                'T' => 4,
                'P' => 5,
                'E' => 6,
                'Z' => 7,
                'Y' => 8,
                _ => return None,
            };
            let base: u128 = match ch.as_str() {
                "" | "iB" => 1024,
                "B" | "D" => 1000,
                _ => return None,
            };
            base.pow(pow)
        }
    };
    Some(n.saturating_mul(mult))
}

/// Escape every regex metacharacter so `s` matches literally.
pub fn regex_escape(s: &str) -> String {
    regex::escape(s)
}

/// A time interval as `sleep`/`timeout` take it: a non-negative number
/// (`1.5`, `1e1`, `inf`) with an optional `s`, `m`, `h` or `d` suffix; seconds.
pub fn parse_duration(s: &str) -> Option<f64> {
    let (num, mult) = match s.char_indices().last() {
        Some((i, 's')) => (&s[..i], 1.0),
        Some((i, 'm')) => (&s[..i], 60.0),
        Some((i, 'h')) => (&s[..i], 3600.0),
        Some((i, 'd')) => (&s[..i], 86400.0),
        _ => (s, 1.0),
    };
    if num.is_empty() || num == "+" || num == "-" || num.contains(char::is_whitespace) {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    (v >= 0.0 && !v.is_nan()).then_some(v * mult)
}

/// GNU's `-h` sizes (`4.0K`, `20K`, `1.5M`): powers of `base` (1024 or
/// 1000), rounded up, one decimal below 10.
pub fn human_size(n: u64, base: u64) -> String {
    let units = if base == 1024 { "KMGTPEZY" } else { "kMGTPEZY" };
    if n < base {
        return n.to_string();
    }
    let mut div = 1u128;
    for (k, unit) in units.chars().enumerate() {
        div *= u128::from(base);
        let n = u128::from(n);
        let tenths = (n * 10).div_ceil(div);
        if tenths < 100 {
            return format!("{}.{}{unit}", tenths / 10, tenths % 10);
        }
        let whole = n.div_ceil(div);
        if whole < u128::from(base) || k == units.len() - 1 {
            return format!("{whole}{unit}");
        }
    }
    n.to_string()
}

// ---------------------------------------------------------------------------
// Tab stops (`-t LIST` of expand-common.c, used by unexpand)
// ---------------------------------------------------------------------------

/// Tab stops: every `size` columns, or the `list` then (optionally) every
/// `extend` columns (`/N`) or `increment` past the last stop (`+N`).
#[derive(Clone, Debug, Default)]
pub struct TabStops {
    pub size: usize,
    pub list: Vec<usize>,
    pub extend: usize,
    pub increment: usize,
}

impl TabStops {
    /// Parse `-t` values (commas or blanks between numbers); GNU's messages on error.
    pub fn parse(specs: &[String]) -> Result<TabStops, String> {
        let mut t = TabStops::default();
        let all = specs.join(",");
        let parts: Vec<&str> = all.split([',', ' ', '\t']).filter(|p| !p.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            let (kind, digits) = match part.as_bytes()[0] {
                b'/' => ('/', &part[1..]),
                b'+' => ('+', &part[1..]),
                _ => (' ', *part),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                let bad = digits.chars().find(|c| !c.is_ascii_digit()).map_or(part.to_string(), |c| c.to_string());
                return Err(format!("tab size contains invalid character(s): {}", quote(&bad)));
            }
            let n = digits.parse::<usize>().map_err(|_| format!("tab stop is too large {}", quote(digits)))?;
            if kind != ' ' && i + 1 != parts.len() {
                return Err(format!("'{kind}' specifier only allowed with the last value"));
            }
            match kind {
                '/' => t.extend = n,
                '+' => t.increment = n,
                _ => {
                    if n == 0 {
                        return Err("tab size cannot be 0".into());
                    }
                    if t.list.last().is_some_and(|&l| l >= n) {
                        return Err("tab sizes must be ascending".into());
                    }
                    t.list.push(n);
                }
            }
        }
        if t.list.len() <= 1 && t.extend == 0 && t.increment == 0 {
            t.size = t.list.pop().unwrap_or(8);
        }
        Ok(t)
    }

    /// The next stop after `col` (`idx` remembers the place in the list);
    /// `None` past the last stop of a list.
    pub fn next(&self, col: usize, idx: &mut usize) -> Option<usize> {
        if self.size > 0 {
            return Some(col + self.size - col % self.size);
        }
        while *idx < self.list.len() {
            if col < self.list[*idx] {
                return Some(self.list[*idx]);
            }
            *idx += 1;
        }
        if self.extend > 0 {
            return Some(col + self.extend - col % self.extend);
        }
        if self.increment > 0 {
            let last = self.list.last().copied().unwrap_or(0);
            return Some(col + self.increment - (col - last) % self.increment);
        }
        None
    }
}
