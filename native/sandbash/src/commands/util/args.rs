//! Option parsing as GNU getopt_long does it, shared by every utility.

use super::*;
use crate::commands::CommandContext;
use crate::io::IoError;
/// Whether an option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    No,
    Yes,
    /// Only written in the same argument: `--color[=WHEN]`, `-i[R]` (`i::`).
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

    /// The getopt entry of short option `c`: its id and whether it takes a
    /// value (`n:`), or one only when it is written in the same argument (`i::`).
    fn short_opt(&self, c: char) -> Option<(&'static str, Arg)> {
        let s = self.short;
        let i = s.find(c).filter(|_| c != ':')?;
        let id = &s[i..i + c.len_utf8()];
        let after = &s[i + c.len_utf8()..];
        Some((
            id,
            if after.starts_with("::") {
                Arg::Optional
            } else if after.starts_with(':') {
                Arg::Yes
            } else {
                Arg::No
            },
        ))
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
            let rest = &body[pos + c.len_utf8()..];
            match takes {
                Arg::No => {
                    p.opts.push(Opt { id, val: None, arg_index: idx });
                    continue;
                }
                Arg::Optional => {
                    p.opts.push(Opt { id, val: (!rest.is_empty()).then(|| rest.to_string()), arg_index: idx });
                    break;
                }
                Arg::Yes => {}
            }
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
        match self.opts_at_most(spec, max).await {
            Ok(p) => Ok(Ok(p)),
            Err(e) => self.report(e).await.map(Err),
        }
    }

    /// Like [`parse_opts`](Self::parse_opts) on arguments the command rewrote first.
    pub async fn parse_args(&self, args: &[String], spec: &Spec) -> Result<Result<Parsed, i32>, IoError> {
        match self.opts_of(args, spec).await {
            Ok(p) => Ok(Ok(p)),
            Err(e) => self.report(e).await.map(Err),
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
