//! `find`'s expression language: options, tests and actions parsed into an
//! [`Expr`] tree with GNU's precedence (`( )` > `!` > `-a` > `-o` > `,`) and
//! GNU's error messages (returned as the text after `find: `).

use crate::commands::util::file_mode::ModeChange;
use super::printf::{parse_format, Piece};
use crate::commands::util::regex_translate;
use crate::fs::FileType;
use crate::pattern::Pattern;
use regex::{Regex, RegexBuilder};
use std::time::SystemTime;

/// `+N` (more than), `-N` (less than) or `N` (exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Eq,
    Gt,
}

impl Cmp {
    pub fn test(self, v: i64, n: i64) -> bool {
        match self {
            Cmp::Lt => v < n,
            Cmp::Eq => v == n,
            Cmp::Gt => v > n,
        }
    }
}

/// How `-perm` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermKind {
    Exact,
    /// `-MODE`: all these bits set.
    All,
    /// `/MODE`: any of these bits set.
    Any,
}

#[derive(Debug)]
pub enum Expr {
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Const(bool),
    /// `-name`/`-iname`: against the last component.
    Name(Regex),
    /// `-path`/`-wholename`/`-regex`: against the whole path as printed.
    Path(Regex),
    Type(Vec<FileType>),
    /// `-xtype`: the type after following a symlink (`-L`: without).
    XType(Vec<FileType>),
    /// Size rounded up to `unit` bytes.
    Size(Cmp, i64, u64),
    /// Age in units of `unit` seconds (86400 for -mtime, 60 for -mmin),
    /// from now or, after `-daystart`, from the start of tomorrow.
    Age(Cmp, i64, i64, bool),
    /// `-lname`/`-ilname`: against a symlink's target.
    LinkName(Regex),
    Newer(SystemTime),
    Empty,
    Perm(PermKind, u32),
    /// Owner tests: every file belongs to the one sandbox user.
    Owner(bool),
    /// `-readable`/`-writable`/`-executable`: a mask of the owner's bits.
    Access(u32),
    Links(Cmp, i64),
    SameFile(String),
    Prune,
    Quit,
    Print(u8),
    Printf(Vec<Piece>),
    Ls,
    /// `-fprint`, `-fprint0`, `-fprintf`, `-fls`: an action's text into
    /// the output file of this index (see [`Program::files`]).
    ToFile(usize, Box<Expr>),
    Delete,
    Exec(Box<ExecSpec>),
}

#[derive(Debug)]
pub struct ExecSpec {
    /// Index of this `-exec ... +` batch (unused for `;`).
    pub id: usize,
    pub argv: Vec<String>,
    pub batch: bool,
    pub in_dir: bool,
    pub ask: bool,
}

/// Global options and the expression.
#[derive(Debug)]
pub struct Program {
    pub expr: Expr,
    pub maxdepth: Option<usize>,
    pub mindepth: usize,
    pub depth_first: bool,
    pub batches: usize,
    /// Warnings to print before running (unknown printf directives).
    pub warnings: Vec<String>,
    /// The files `-fprint` and kin write, as given (each truncated before
    /// the walk, as GNU opens them while parsing).
    pub files: Vec<String>,
}

/// Which regex dialect `-regex` uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RegexType {
    Emacs,
    Basic,
    Extended,
}

struct Parser<'a> {
    args: &'a [String],
    pos: usize,
    prog: Program,
    regex_type: RegexType,
    has_action: bool,
    now: SystemTime,
    /// Resolves `-newer FILE` (it needs the filesystem): name -> mtime.
    newer: &'a dyn Fn(&str) -> Result<SystemTime, String>,
    user: &'a str,
    /// Parentheses open at the cursor.
    nest: usize,
    /// `-daystart` came before the cursor.
    daystart: bool,
    /// `TZ`, for dates in the expression.
    tz: Option<&'a str>,
}

/// Parentheses nested deeper than this are refused: the expression is
/// evaluated recursively for every file (GNU find has no limit, and crashes
/// somewhere past 100,000).
const MAX_NESTING: usize = 256;

const REGEX_TYPES: &str = "'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'";

/// Parse the expression after the paths. `newer` looks up a reference file's mtime.
pub fn parse<'a>(
    args: &'a [String],
    now: SystemTime,
    user: &'a str,
    tz: Option<&'a str>,
    newer: &'a dyn Fn(&str) -> Result<SystemTime, String>,
) -> Result<Program, String> {
    let prog = Program {
        expr: Expr::Const(true),
        maxdepth: None,
        mindepth: 0,
        depth_first: false,
        batches: 0,
        warnings: vec![],
        files: vec![],
    };
    let mut p = Parser {
        args,
        pos: 0,
        prog,
        regex_type: RegexType::Emacs,
        has_action: false,
        now,
        newer,
        user,
        nest: 0,
        daystart: false,
        tz,
    };
    let expr = if args.is_empty() { Expr::Const(true) } else { p.comma()? };
    if let Some(a) = p.args.get(p.pos) {
        return Err(if a == ")" {
            "you have too many ')'".into()
        } else {
            format!("paths must precede expression: `{a}'")
        });
    }
    let mut prog = p.prog;
    prog.expr = if p.has_action { expr } else { Expr::And(Box::new(expr), Box::new(Expr::Print(b'\n'))) };
    Ok(prog)
}

/// `items` joined by `join` into a balanced tree, in order. `-a`, `-o` and
/// `,` are associative (short-circuits included), so a long chain gets a tree
/// of logarithmic depth, which evaluation (once per file) and drop recurse.
fn balanced(items: Vec<Expr>, join: fn(Box<Expr>, Box<Expr>) -> Expr) -> Expr {
    crate::interp::test_parse::balanced_tree(items, join).unwrap_or(Expr::Const(true))
}

fn step() -> Result<(), String> {
    crate::limits::checkpoint().map_err(|s| s.to_string())
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.pos).map(String::as_str)
    }

    fn comma(&mut self) -> Result<Expr, String> {
        let mut items = vec![self.or()?];
        while self.peek() == Some(",") {
            step()?;
            self.pos += 1;
            self.need_operand(",")?;
            items.push(self.or()?);
        }
        Ok(balanced(items, Expr::Comma))
    }

    fn or(&mut self) -> Result<Expr, String> {
        let mut items = vec![self.and()?];
        while let Some(op @ ("-o" | "-or")) = self.peek() {
            step()?;
            let op = op.to_string();
            self.pos += 1;
            self.need_operand(&op)?;
            items.push(self.and()?);
        }
        Ok(balanced(items, Expr::Or))
    }

    /// A binary operator must be followed by an expression.
    fn need_operand(&self, op: &str) -> Result<(), String> {
        match self.peek() {
            None | Some(")" | "-o" | "-or" | "-a" | "-and" | ",") => {
                Err(format!("invalid expression; you have used a binary operator '{op}' with nothing after it."))
            }
            _ => Ok(()),
        }
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut items = vec![self.not()?];
        loop {
            step()?;
            match self.peek() {
                Some("-a" | "-and") => {
                    let op = self.args[self.pos].clone();
                    self.pos += 1;
                    self.need_operand(&op)?;
                }
                None | Some(")" | "-o" | "-or" | ",") => return Ok(balanced(items, Expr::And)),
                _ => {}
            }
            items.push(self.not()?);
        }
    }

    /// `! ! ... primary`: counted in a loop, not recursion.
    fn not(&mut self) -> Result<Expr, String> {
        let mut negate = false;
        while let Some(op @ ("!" | "-not")) = self.peek() {
            step()?;
            let op = op.to_string();
            self.pos += 1;
            if let None | Some(")" | "-o" | "-or" | "-a" | "-and" | ",") = self.peek() {
                return Err(format!("expected an expression after '{op}'"));
            }
            negate = !negate;
        }
        let e = self.primary()?;
        Ok(if negate { Expr::Not(Box::new(e)) } else { e })
    }

    fn arg(&mut self, pred: &str) -> Result<String, String> {
        let v = self.args.get(self.pos).cloned().ok_or_else(|| format!("missing argument to `{pred}'"))?;
        self.pos += 1;
        Ok(v)
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some(tok) = self.peek().map(str::to_string) else {
            return Err("invalid expression".into());
        };
        self.pos += 1;
        let t = tok.as_str();
        Ok(match t {
            "(" => {
                if matches!(self.peek(), None | Some(")")) {
                    return Err("invalid expression; empty parentheses are not allowed.".into());
                }
                self.nest += 1;
                if self.nest > MAX_NESTING || crate::limits::stack_low() {
                    return Err(format!("invalid expression; parentheses nested deeper than {MAX_NESTING} levels."));
                }
                let e = self.comma()?;
                if self.peek() != Some(")") {
                    return Err(
                        "invalid expression; I was expecting to find a ')' somewhere but did not see one.".into()
                    );
                }
                self.pos += 1;
                self.nest -= 1;
                e
            }
            "-a" | "-and" | "-o" | "-or" | "," => {
                return Err(format!(
                    "invalid expression; you have used a binary operator '{t}' with nothing before it."
                ))
            }
            ")" => return Err("invalid expression; you have too many ')'".into()),
            "-true" => Expr::Const(true),
            "-false" => Expr::Const(false),
            // Options: always true where they stand.
            "-depth" | "-d" => {
                self.prog.depth_first = true;
                Expr::Const(true)
            }
            "-maxdepth" | "-mindepth" => {
                let v = self.arg(t)?;
                let n = v
                    .parse::<usize>()
                    .ok()
                    .filter(|_| v.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| format!("Expected a positive decimal integer argument to {t}, but got '{v}'"))?;
                if t == "-maxdepth" {
                    self.prog.maxdepth = Some(n);
                } else {
                    self.prog.mindepth = n;
                }
                Expr::Const(true)
            }
            "-xdev"
            | "-mount"
            | "-noleaf"
            | "-ignore_readdir_race"
            | "-noignore_readdir_race"
            | "-nowarn"
            | "-warn"
            | "-follow" => Expr::Const(true),
            "-daystart" => {
                self.daystart = true;
                Expr::Const(true)
            }
            "-regextype" => {
                let v = self.arg(t)?;
                self.regex_type = match v.as_str() {
                    "findutils-default" | "emacs" => RegexType::Emacs,
                    "posix-basic" | "ed" | "grep" | "sed" | "posix-minimal-basic" => RegexType::Basic,
                    "posix-extended" | "posix-egrep" | "egrep" | "awk" | "posix-awk" | "gnu-awk" => RegexType::Extended,
                    _ => {
                        return Err(format!(
                            "Unknown regular expression type {}; valid types are {REGEX_TYPES}.",
                            q(&v)
                        ))
                    }
                };
                Expr::Const(true)
            }
            "-name" | "-iname" => {
                let v = self.arg(t)?;
                Expr::Name(glob(&v, t == "-iname")?)
            }
            "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                let v = self.arg(t)?;
                Expr::Path(glob(&v, t.starts_with("-i"))?)
            }
            "-regex" | "-iregex" => {
                let v = self.arg(t)?;
                Expr::Path(self.regex(&v, t == "-iregex")?)
            }
            "-type" | "-xtype" => {
                let v = self.arg(t)?;
                let types = types(&v, t)?;
                if t == "-type" {
                    Expr::Type(types)
                } else {
                    Expr::XType(types)
                }
            }
            "-size" => {
                let v = self.arg(t)?;
                let (cmp, rest) = sign(&v);
                let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
                let unit = match &rest[end..] {
                    "" | "b" => 512,
                    "c" => 1,
                    "w" => 2,
                    "k" => 1024,
                    "M" => 1 << 20,
                    "G" => 1 << 30,
                    s => return Err(format!("invalid -size type `{}'", s.chars().next().unwrap_or(' '))),
                };
                if end == 0 {
                    return Err(format!("invalid -size type `{v}'"));
                }
                let n = rest[..end].parse::<i64>().map_err(|_| format!("invalid argument `{v}' to `-size'"))?;
                Expr::Size(cmp, n, unit)
            }
            "-mtime" | "-atime" | "-ctime" | "-mmin" | "-amin" | "-cmin" => {
                let v = self.arg(t)?;
                let (cmp, rest) = sign(&v);
                let n = rest
                    .parse::<i64>()
                    .ok()
                    .filter(|_| !rest.starts_with(['+', '-']))
                    .ok_or_else(|| format!("invalid argument `{v}' to `{t}'"))?;
                Expr::Age(cmp, n, if t.ends_with("min") { 60 } else { 86_400 }, self.daystart)
            }
            // The sandbox keeps one time per file: access, change and
            // modification times are all it.
            "-newer" | "-anewer" | "-cnewer" => {
                let v = self.arg(t)?;
                Expr::Newer((self.newer)(&v)?)
            }
            _ if t.len() == 8 && t.starts_with("-newer") => {
                let (x, y) = (t.as_bytes()[6], t.as_bytes()[7]);
                if x == b'B' || y == b'B' {
                    return Err(format!(
                        "This system does not provide a way to find the birth time of a file.\nfind: invalid predicate `{t}'"
                    ));
                }
                if !matches!(x, b'a' | b'c' | b'm') || !matches!(y, b'a' | b'c' | b'm' | b't') {
                    return Err(format!("invalid predicate `{t}'"));
                }
                let v = self.arg(t)?;
                if y != b't' {
                    return Ok(Expr::Newer((self.newer)(&v)?));
                }
                let when = crate::commands::util::file_time::parse_date(&v, self.now, self.tz)
                    .ok_or_else(|| format!("I cannot figure out how to interpret {} as a date or time", crate::commands::util::quote_locale(&v)))?;
                Expr::Newer(when)
            }
            "-lname" | "-ilname" => {
                let v = self.arg(t)?;
                Expr::LinkName(glob(&v, t == "-ilname")?)
            }
            // No inodes here (stat shows 0), and the one time a file has makes
            // its access as old as its change.
            "-inum" | "-used" => {
                let v = self.arg(t)?;
                let (cmp, rest) = sign(&v);
                let n = rest.parse::<i64>().map_err(|_| format!("invalid argument `{v}' to `{t}'"))?;
                Expr::Const(cmp.test(0, n))
            }
            "-empty" => Expr::Empty,
            "-perm" => {
                let v = self.arg(t)?;
                let (kind, m) = match v.as_bytes().first() {
                    Some(b'-') => (PermKind::All, &v[1..]),
                    Some(b'/') => (PermKind::Any, &v[1..]),
                    _ => (PermKind::Exact, v.as_str()),
                };
                let mode = ModeChange::parse(m).ok_or_else(|| format!("invalid mode {}", q(&v)))?;
                Expr::Perm(kind, mode.apply_umask(0, false, 0))
            }
            "-user" | "-group" => {
                let v = self.arg(t)?;
                let mine = v == self.user || v == "1000";
                let known = mine || v == "root" || v == "0" || v.bytes().all(|b| b.is_ascii_digit());
                if !known {
                    let what = if t == "-user" { "user" } else { "group" };
                    return Err(format!("{} is not the name of a known {what}", q(&v)));
                }
                Expr::Owner(mine)
            }
            "-uid" | "-gid" => {
                let v = self.arg(t)?;
                let (cmp, rest) = sign(&v);
                let n = rest.parse::<i64>().map_err(|_| format!("invalid argument `{v}' to `{t}'"))?;
                Expr::Owner(cmp.test(1000, n))
            }
            "-nouser" | "-nogroup" => Expr::Owner(false),
            "-readable" => Expr::Access(0o400),
            "-writable" => Expr::Access(0o200),
            "-executable" => Expr::Access(0o100),
            "-links" => {
                let v = self.arg(t)?;
                let (cmp, rest) = sign(&v);
                let n = rest.parse::<i64>().map_err(|_| format!("invalid argument `{v}' to `{t}'"))?;
                Expr::Links(cmp, n)
            }
            "-samefile" => {
                let v = self.arg(t)?;
                // The file must be there when the expression is read.
                (self.newer)(&v)?;
                Expr::SameFile(v)
            }
            "-prune" => Expr::Prune,
            "-quit" => Expr::Quit,
            "-print" => self.action(Expr::Print(b'\n')),
            "-print0" => self.action(Expr::Print(0)),
            "-printf" => {
                let v = self.arg(t)?;
                let (pieces, warnings) = parse_format(&v)?;
                self.prog.warnings.extend(warnings);
                self.action(Expr::Printf(pieces))
            }
            "-ls" => self.action(Expr::Ls),
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                let file = self.arg(t)?;
                let inner = match t {
                    "-fprint" => Expr::Print(b'\n'),
                    "-fprint0" => Expr::Print(0),
                    "-fls" => Expr::Ls,
                    _ => {
                        let v = self.arg(t)?;
                        let (pieces, warnings) = parse_format(&v)?;
                        self.prog.warnings.extend(warnings);
                        Expr::Printf(pieces)
                    }
                };
                let at = match self.prog.files.iter().position(|f| *f == file) {
                    Some(at) => at,
                    None => {
                        self.prog.files.push(file);
                        self.prog.files.len() - 1
                    }
                };
                self.action(Expr::ToFile(at, Box::new(inner)))
            }
            "-delete" => {
                self.prog.depth_first = true;
                self.action(Expr::Delete)
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => self.exec(t)?,
            _ if t.starts_with('-') && t.len() > 1 => return Err(format!("unknown predicate `{t}'")),
            _ => return Err(format!("paths must precede expression: `{t}'")),
        })
    }

    fn action(&mut self, e: Expr) -> Expr {
        self.has_action = true;
        e
    }

    /// `-exec cmd args ;` or `-exec cmd args {} +` (`+` ends it only right after `{}`).
    fn exec(&mut self, t: &str) -> Result<Expr, String> {
        let start = self.pos;
        let ask = t.starts_with("-ok");
        let must_be_alone =
            |arg: &str| format!("In '{t} ... {{}} +' the '{{}}' must appear by itself, but you specified {}", q(arg));
        let batch = loop {
            let Some(a) = self.args.get(self.pos) else {
                return Err(format!("missing argument to `{t}'"));
            };
            let prev = self.pos.checked_sub(1).filter(|&i| i >= start).map(|i| self.args[i].as_str());
            if a == ";" {
                break false;
            }
            if a == "+" && !ask {
                match prev {
                    Some("{}") => break true,
                    Some(p) if p.contains("{}") => return Err(must_be_alone(p)),
                    _ => {}
                }
            }
            self.pos += 1;
        };
        let argv = self.args[start..self.pos].to_vec();
        self.pos += 1;
        if argv.is_empty() {
            return Err(format!("missing argument to `{t}'"));
        }
        if batch {
            if let Some(bad) = argv[..argv.len() - 1].iter().find(|x| x.contains("{}")) {
                return Err(must_be_alone(bad));
            }
        }
        let id = self.prog.batches;
        if batch {
            self.prog.batches += 1;
        }
        let spec = ExecSpec { id, argv, batch, in_dir: t.ends_with("dir"), ask };
        Ok(self.action(Expr::Exec(Box::new(spec))))
    }

    fn regex(&self, src: &str, nocase: bool) -> Result<Regex, String> {
        let body = match self.regex_type {
            RegexType::Emacs => emacs_to_rust(src),
            RegexType::Basic => regex_translate::translate(src, false)?.source,
            RegexType::Extended => regex_translate::translate(src, true)?.source,
        };
        crate::commands::util::regex_cache::admit(&body)?;
        RegexBuilder::new(&format!("^(?:{body})$"))
            .case_insensitive(nocase)
            .dot_matches_new_line(true)
            .size_limit(1 << 20)
            .build()
            .map_err(|_| format!("Invalid regular expression {}", q(src)))
    }
}

/// GNU quoting for messages (`'x'`).
fn q(s: &str) -> String {
    crate::commands::util::quote(s)
}

/// `+N`, `-N`, `N`.
fn sign(v: &str) -> (Cmp, &str) {
    match v.as_bytes().first() {
        Some(b'+') => (Cmp::Gt, &v[1..]),
        Some(b'-') => (Cmp::Lt, &v[1..]),
        _ => (Cmp::Eq, v),
    }
}

fn glob(pat: &str, nocase: bool) -> Result<Regex, String> {
    Pattern::from_glob_text(pat).compile(false, nocase).ok_or_else(|| format!("invalid pattern {}", q(pat)))
}

/// `-type f,d,l`.
fn types(v: &str, pred: &str) -> Result<Vec<FileType>, String> {
    if v.is_empty() {
        return Err(format!("Arguments to {pred} should contain at least one letter"));
    }
    if v.ends_with(',') {
        return Err(format!("Last file type in list argument to {pred} is missing, i.e., list is ending on: ','"));
    }
    let mut out = Vec::new();
    for part in v.split(',') {
        out.push(match part {
            "f" => FileType::File,
            "d" => FileType::Dir,
            "l" => FileType::Symlink,
            // Kinds the sandbox never has: match nothing.
            "b" | "c" | "p" | "s" | "D" => continue,
            _ if part.len() > 1 => {
                return Err(format!("Must separate multiple arguments to {pred} using: ','"));
            }
            _ => return Err(format!("Unknown argument to {pred}: {part}")),
        });
    }
    Ok(out)
}

/// GNU Emacs regex syntax (find's default) to the `regex` crate's: `\(`,
/// `\)`, `\|` group and alternate; bare `( ) | { }` are literal; `+ ? *`
/// repeat; no intervals and no character classes.
fn emacs_to_rust(src: &str) -> String {
    let mut out = String::new();
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('(') => out.push_str("(?:"),
                Some(')') => out.push(')'),
                Some('|') => out.push('|'),
                Some('w') => out.push_str("\\w"),
                Some('W') => out.push_str("\\W"),
                Some('b') => out.push_str("\\b"),
                Some('B') => out.push_str("\\B"),
                Some('<') => out.push_str("\\b"),
                Some('>') => out.push_str("\\b"),
                Some('`') => out.push_str("\\A"),
                Some('\'') => out.push_str("\\z"),
                Some(o) => out.push_str(&regex::escape(&o.to_string())),
                None => out.push_str("\\\\"),
            },
            '(' | ')' | '|' | '{' | '}' => out.push_str(&regex::escape(&c.to_string())),
            '[' => {
                // Copy a bracket expression; backslash is literal inside it.
                out.push('[');
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                let mut first = true;
                for b in chars.by_ref() {
                    if b == ']' && !first {
                        break;
                    }
                    first = false;
                    match b {
                        '\\' | '[' | '&' | '~' => {
                            out.push('\\');
                            out.push(b);
                        }
                        _ => out.push(b),
                    }
                }
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_args(args: &[&str]) -> Result<Program, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(&args, SystemTime::UNIX_EPOCH, "u", None, &|_| Err("no".into()))
    }

    fn depth(e: &Expr) -> usize {
        match e {
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Comma(a, b) => 1 + depth(a).max(depth(b)),
            Expr::Not(a) => 1 + depth(a),
            _ => 1,
        }
    }

    #[test]
    fn long_chains_are_shallow_and_deep_parentheses_refused() {
        let mut args = vec!["!"; 100_001];
        args.extend(["-name", "x"]);
        for _ in 0..50_000 {
            args.extend(["-o", "-name", "y", "-a", "-true", ",", "-false"]);
        }
        let p = parse_args(&args).map_err(|e| e.to_string());
        assert!(p.as_ref().is_ok_and(|p| depth(&p.expr) < 64), "{:?}", p.map(|p| depth(&p.expr)));
        let n = MAX_NESTING + 1;
        let mut args = vec!["("; n];
        args.push("-true");
        args.extend(std::iter::repeat_n(")", n));
        let e = parse_args(&args).err().unwrap_or_default();
        assert!(e.contains("nested deeper"), "{e}");
        // (A test thread has a small stack: a modest depth.)
        assert!(parse_args(&args[n - 100..args.len() - (n - 100)]).is_ok());
    }

    #[test]
    fn emacs() {
        assert_eq!(emacs_to_rust(r"\./\(f\|g\)"), r"\./(?:f|g)");
        assert_eq!(emacs_to_rust("a(b)"), r"a\(b\)");
        assert_eq!(emacs_to_rust(r"[\a]"), r"[\\a]");
    }
}
