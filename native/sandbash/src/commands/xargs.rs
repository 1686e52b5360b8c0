//! `xargs` (GNU findutils 4.9): build command lines from input items and run
//! them as registered utilities (see `run_util`), one after another (`-P` is
//! accepted; output is what a sequential run prints). Input is read as it is
//! needed, so `yes | xargs -n1 echo | head -n1` ends. Commands get an empty
//! stdin, as GNU gives them /dev/null.

use super::util::{quote, quotef, Arg, Spec};
use super::run_util::{self, Exec, Ran};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::{Input, IoError};
use async_trait::async_trait;

pub struct Xargs;

const SPEC: Spec = Spec::new(
    "0a:d:E:e::I:i::L:l::n:prs:tP:xo",
    &[
        ("null", Arg::No, "0"),
        ("arg-file", Arg::Yes, "a"),
        ("delimiter", Arg::Yes, "d"),
        ("eof", Arg::Optional, "e"),
        ("replace", Arg::Optional, "i"),
        ("max-lines", Arg::Optional, "l"),
        ("max-args", Arg::Yes, "n"),
        ("interactive", Arg::No, "p"),
        ("no-run-if-empty", Arg::No, "r"),
        ("max-chars", Arg::Yes, "s"),
        ("verbose", Arg::No, "t"),
        ("max-procs", Arg::Yes, "P"),
        ("exit", Arg::No, "x"),
        ("open-tty", Arg::No, "o"),
        ("process-slot-var", Arg::Yes, "slot"),
    ],
    "[OPTION]... COMMAND [INITIAL-ARGS]...",
)
.posix();

/// Bytes of arguments one command line may hold (GNU's default -s).
const MAX_CHARS: usize = 128 * 1024;
/// Longest single input item.
const MAX_ITEM: usize = 1 << 20;

/// Where items come from: stdin, read as needed, or a whole `-a` file.
struct Reader {
    input: Input,
    buf: Vec<u8>,
    pos: usize,
}

impl Reader {
    async fn byte(&mut self) -> Option<u8> {
        while self.pos >= self.buf.len() {
            self.buf = self.input.read_chunk().await?.to_vec();
            self.pos = 0;
        }
        self.pos += 1;
        Some(self.buf[self.pos - 1])
    }
}

/// How items are split.
struct Split {
    /// `-0`/`-d`: this byte ends an item, no quoting.
    delim: Option<u8>,
    /// `-I`: a whole line (leading blanks dropped) is one item.
    whole_lines: bool,
    eof_str: Option<String>,
}

/// The items of one input line (or one delimited item), and whether the
/// line ended in a blank (which makes `-L` count it with the next line).
enum Line {
    Items(Vec<Vec<u8>>, bool),
    End,
    /// An unmatched quote (`single` or `double`), after the line's earlier items.
    BadQuote(Vec<Vec<u8>>, &'static str),
}

/// Read up to `delim` (not included); `None` at end of input.
async fn read_to(r: &mut Reader, delim: u8) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut any = false;
    while let Some(b) = r.byte().await {
        any = true;
        if b == delim {
            return Some(out);
        }
        if out.len() < MAX_ITEM {
            out.push(b);
        }
    }
    any.then_some(out)
}

async fn next_line(r: &mut Reader, s: &Split) -> Line {
    if let Some(d) = s.delim {
        return match read_to(r, d).await {
            Some(item) => Line::Items(vec![item], false),
            None => Line::End,
        };
    }
    let Some(raw) = read_to(r, b'\n').await else {
        return Line::End;
    };
    let mut items = Vec::new();
    let mut item = Vec::new();
    let (mut started, mut quote, mut i) = (false, None::<u8>, 0);
    while i < raw.len() {
        let b = raw[i];
        i += 1;
        if let Some(q) = quote {
            if b == q {
                quote = None;
            } else {
                item.push(b);
            }
            continue;
        }
        match b {
            b' ' | b'\t' if !s.whole_lines || !started => {
                if started {
                    items.push(std::mem::take(&mut item));
                    started = false;
                }
            }
            b'\'' | b'"' => {
                started = true;
                quote = Some(b);
            }
            b'\\' => {
                started = true;
                if let Some(&n) = raw.get(i) {
                    item.push(n);
                    i += 1;
                }
            }
            _ => {
                started = true;
                item.push(b);
            }
        }
    }
    if let Some(q) = quote {
        return Line::BadQuote(items, if q == b'\'' { "single" } else { "double" });
    }
    if started {
        items.push(item);
    }
    let trailing_blank = !s.whole_lines && raw.last().is_some_and(|&b| b == b' ' || b == b'\t');
    Line::Items(items, trailing_blank)
}

/// GNU's warning when a later option undoes an earlier one.
async fn exclusive(ctx: &CommandContext<'_>, option: &str, offending: &str) -> Result<(), crate::io::IoError> {
    ctx.err(format!("warning: options {offending} and {option} are mutually exclusive, ignoring previous {offending} value"))
        .await
}

/// `-d`'s argument: one character or an escape (`\n`, `\t`, `\0`, `\x41`, `\101`).
fn delimiter(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    match b {
        [c] => Some(*c),
        [b'\\', rest @ ..] => match rest {
            [b'a'] => Some(7),
            [b'b'] => Some(8),
            [b'f'] => Some(12),
            [b'n'] => Some(b'\n'),
            [b'r'] => Some(b'\r'),
            [b't'] => Some(b'\t'),
            [b'v'] => Some(11),
            [b'\\'] => Some(b'\\'),
            [b'x', h @ ..] if !h.is_empty() => u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok(),
            o if !o.is_empty() && o.iter().all(|c| (b'0'..=b'7').contains(c)) => {
                u8::from_str_radix(std::str::from_utf8(o).ok()?, 8).ok()
            }
            _ => None,
        },
        _ => None,
    }
}

/// Settings that shape each command line.
struct Plan {
    cmd: Vec<String>,
    replace: Option<String>,
    max_args: Option<usize>,
    max_lines: Option<usize>,
    max_chars: usize,
    trace: bool,
    /// `--process-slot-var NAME`: set in each command's environment to its slot.
    slot_var: Option<String>,
    /// `-P N`: slots (0: as many as there are commands).
    procs: u64,
}

/// Why running stopped early.
enum Stop {
    /// Exit now with this status.
    Exit(i32),
}

struct Run {
    failed: bool,
    /// Commands started so far.
    started: u64,
}

impl Run {
    /// Run one command line; `Err(Stop)` ends xargs.
    async fn exec(
        &mut self,
        ctx: &CommandContext<'_>,
        plan: &Plan,
        argv: Vec<String>,
    ) -> Result<Result<(), Stop>, IoError> {
        if plan.trace {
            let line: Vec<String> = argv.iter().map(|a| quotef(a)).collect();
            ctx.stderr.write(format!("{}\n", line.join(" ")).as_bytes()).await?;
        }
        // Commands run one at a time here, each ending before the next
        // starts; GNU's -P N runs N at once, and a quick command frees its
        // slot for the one after next: slots in turn, as GNU gives them.
        let slot = if plan.procs == 0 { self.started } else { self.started % plan.procs };
        self.started += 1;
        let overlay = plan.slot_var.as_ref().map(|name| super::env::Overlay {
            base: ctx.env,
            clear: false,
            unset: Vec::new(),
            set: vec![(name.clone(), slot.to_string())],
        });
        let mut e = Exec::from_ctx(ctx, &argv);
        if let Some(o) = &overlay {
            e.env = o;
        }
        e.stdin = Input::null();
        match run_util::run(ctx, e).await? {
            Ran::NotFound => {
                ctx.err(format!("{}: No such file or directory", argv[0])).await?;
                Ok(Err(Stop::Exit(127)))
            }
            Ran::Status(0) => Ok(Ok(())),
            Ran::Status(255) => {
                ctx.err(format!("{}: exited with status 255; aborting", argv[0])).await?;
                Ok(Err(Stop::Exit(124)))
            }
            Ran::Status(126) if !ctx.still_running() => Ok(Err(Stop::Exit(126))),
            Ran::Status(_) => {
                self.failed = true;
                Ok(Ok(()))
            }
        }
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn bad_number(v: &str, opt: char, min: u64) -> UError {
    match v.parse::<u64>() {
        Ok(n) if n < min => UError::usage(1, format!("value {v} for -{opt} option should be >= {min}")),
        _ => UError::usage(1, format!("invalid number \"{v}\" for -{opt} option")),
    }
}

/// `-i`, `-l`, `-e` take their optional value attached (`-i{}`): spell them
/// as the long options so the shared parser sees an optional argument.
fn rewrite_optional(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = args.iter();
    for a in rest.by_ref() {
        let long = match a.get(..2) {
            Some("-i") => Some("--replace"),
            Some("-l") => Some("--max-lines"),
            Some("-e") => Some("--eof"),
            _ => None,
        };
        match long {
            Some(l) if a.len() > 2 => out.push(format!("{l}={}", &a[2..])),
            Some("--replace") => out.push("--replace={}".into()),
            Some(l) => out.push(l.to_string()),
            None => {
                out.push(a.clone());
                if a == "--" || !a.starts_with('-') {
                    break;
                }
            }
        }
    }
    out.extend(rest.cloned());
    out
}

#[async_trait]
impl Utility for Xargs {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = rewrite_optional(ctx.args);
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut split = Split { delim: None, whole_lines: false, eof_str: None };
        let mut plan = Plan {
            cmd: vec![],
            replace: None,
            max_args: None,
            max_lines: None,
            max_chars: MAX_CHARS,
            trace: false,
            slot_var: None,
            procs: 1,
        };
        let (mut no_empty, mut file) = (false, None);
        for o in &p.opts {
            let v = o.val.clone().unwrap_or_default();
            match o.id {
                "0" => split.delim = Some(0),
                "d" => match delimiter(&v) {
                    Some(d) => split.delim = Some(d),
                    None => {
                        return Err(UError::new(1, format!("Invalid input delimiter specification {v}: the delimiter must be either a single character or an escape sequence starting with \\.")));
                    }
                },
                "a" => file = Some(v),
                "E" | "e" => split.eof_str = (!v.is_empty()).then_some(v),
                // The last of -I/-i, -L/-l and -n wins, as GNU warns.
                "I" | "i" => {
                    if plan.max_args.take().is_some() {
                        exclusive(ctx, "--replace/-I/-i", "--max-args").await?;
                    }
                    if plan.max_lines.take().is_some() {
                        exclusive(ctx, "--replace/-I/-i", "--max-lines").await?;
                    }
                    plan.replace = Some(o.val.clone().unwrap_or_else(|| "{}".into()));
                }
                "L" | "l" => {
                    let v = o.val.clone().unwrap_or_else(|| "1".into());
                    let n = match v.parse::<usize>() {
                        Ok(n) if n >= 1 => n,
                        _ => return Err(bad_number(&v, 'L', 1)),
                    };
                    let name = if o.id == "L" { "-L" } else { "--max-lines/-l" };
                    if plan.max_args.take().is_some() {
                        exclusive(ctx, name, "--max-args").await?;
                    }
                    if plan.replace.take().is_some() {
                        exclusive(ctx, name, "--replace").await?;
                    }
                    plan.max_lines = Some(n);
                }
                "n" => match v.parse::<usize>() {
                    Ok(n) if n >= 1 => {
                        if plan.max_lines.take().is_some() {
                            exclusive(ctx, "--max-args/-n", "--max-lines").await?;
                        }
                        // `-n 1` is what -I means anyway: no warning, -I stays.
                        if plan.replace.is_some() && n == 1 {
                            continue;
                        }
                        if plan.replace.take().is_some() {
                            exclusive(ctx, "--max-args/-n", "--replace").await?;
                        }
                        plan.max_args = Some(n);
                    }
                    _ => return Err(bad_number(&v, 'n', 1)),
                },
                "s" => match v.parse::<usize>() {
                    Ok(n) if n >= 1 => plan.max_chars = n.min(MAX_CHARS),
                    _ => return Err(bad_number(&v, 's', 1)),
                },
                "P" => match v.parse::<u64>() {
                    Ok(n) => plan.procs = n,
                    Err(_) => return Err(bad_number(&v, 'P', 0)),
                },
                "r" => no_empty = true,
                "t" | "p" => plan.trace = true,
                "slot" => plan.slot_var = Some(v.to_string()),
                _ => {}
            }
        }
        if plan.replace.is_some() {
            plan.max_lines = Some(1);
        }
        split.whole_lines = plan.replace.is_some() && split.delim.is_none();
        plan.cmd = if p.operands.is_empty() { vec!["echo".into()] } else { p.operands.clone() };
        let input = match &file {
            Some(f) => match ctx.read_operand(f).await {
                Ok(d) => Input::from_bytes(d),
                Err(e) => {
                    return Err(UError::new(1, format!("Cannot open input file {}: {e}", quote(f))));
                }
            },
            None => ctx.stdin.clone(),
        };
        let mut reader = Reader { input, buf: Vec::new(), pos: 0 };
        let mut run = Run { failed: false, started: 0 };
        match drive(ctx, &plan, &split, &mut reader, &mut run, no_empty).await? {
            Err(Stop::Exit(s)) => Ok(s),
            Ok(()) => Ok(if run.failed { 123 } else { 0 }),
        }
    }
}

/// Read items and run command lines until input ends.
async fn drive(
    ctx: &CommandContext<'_>,
    plan: &Plan,
    split: &Split,
    r: &mut Reader,
    run: &mut Run,
    no_empty: bool,
) -> Result<Result<(), Stop>, IoError> {
    let base: usize = plan.cmd.iter().map(|a| a.len() + 1).sum();
    let (mut pending, mut lines, mut size, mut ran) = (Vec::<String>::new(), 0usize, base, false);
    let mut bad_quote = None;
    let mut done = false;
    while !done {
        if !ctx.still_running() {
            break;
        }
        let (items, continues) = match next_line(r, split).await {
            Line::End => break,
            Line::Items(items, cont) => (items, cont),
            Line::BadQuote(items, kind) => {
                bad_quote = Some(kind);
                done = true;
                (items, false)
            }
        };
        if items.is_empty() {
            continue;
        }
        for item in items {
            let item = text(&item);
            if split.eof_str.as_deref() == Some(item.as_str()) {
                done = true;
                break;
            }
            if let Some(rep) = &plan.replace {
                let argv: Vec<String> = plan.cmd.iter().map(|a| a.replace(rep.as_str(), &item)).collect();
                ran = true;
                if let Err(s) = run.exec(ctx, plan, argv).await? {
                    return Ok(Err(s));
                }
                continue;
            }
            if !pending.is_empty() && size + item.len() + 1 > plan.max_chars {
                let argv = [plan.cmd.clone(), std::mem::take(&mut pending)].concat();
                (ran, size, lines) = (true, base, 0);
                if let Err(s) = run.exec(ctx, plan, argv).await? {
                    return Ok(Err(s));
                }
            }
            size += item.len() + 1;
            pending.push(item);
            if plan.max_args.is_some_and(|n| pending.len() >= n) {
                let argv = [plan.cmd.clone(), std::mem::take(&mut pending)].concat();
                (ran, size, lines) = (true, base, 0);
                if let Err(s) = run.exec(ctx, plan, argv).await? {
                    return Ok(Err(s));
                }
            }
        }
        if !continues && !pending.is_empty() {
            lines += 1;
            if plan.max_lines.is_some_and(|n| lines >= n) {
                let argv = [plan.cmd.clone(), std::mem::take(&mut pending)].concat();
                (ran, size, lines) = (true, base, 0);
                if let Err(s) = run.exec(ctx, plan, argv).await? {
                    return Ok(Err(s));
                }
            }
        }
    }
    if !pending.is_empty() || (!ran && !no_empty && plan.replace.is_none() && bad_quote.is_none()) {
        let argv = [plan.cmd.clone(), pending].concat();
        if let Err(s) = run.exec(ctx, plan, argv).await? {
            return Ok(Err(s));
        }
    }
    if let Some(kind) = bad_quote {
        ctx.err(format!("unmatched {kind} quote; by default quotes are special to xargs unless you use the -0 option"))
            .await?;
        return Ok(Err(Stop::Exit(1)));
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    fn x(args: &[&str], stdin: &str, out: &str, err: &str, status: i32) {
        let mut argv = vec!["xargs"];
        argv.extend_from_slice(args);
        check(&argv, &[("f", "p q\n")], stdin, out, err, status);
    }

    #[test]
    fn process_slot_var() {
        // GNU xargs 4.9: one command at a time is slot 0.
        x(&["--process-slot-var=S", "-I{}", "printenv", "S"], "x\ny\n", "0\n0\n", "", 0);
        x(&["--process-slot-var", "S", "-P3", "-I{}", "printenv", "S"], "x\n", "0\n", "", 0);
        // -P N: N slots in turn.
        x(&["--process-slot-var=S", "-P2", "-I{}", "printenv", "S"], "a\nb\nc\nd\n", "0\n1\n0\n1\n", "", 0);
    }

    #[test]
    fn splitting() {
        x(&["-t", "echo"], "a b\nc \"d e\" f\\ g\n\n h\n", "a b c d e f g h\n", "echo a b c 'd e' 'f g' h\n", 0);
        x(&["-n1", "echo", "x"], "a b\nc\n", "x a\nx b\nx c\n", "", 0);
        x(&[], "x y\n", "x y\n", "", 0);
        x(&["echo"], "", "\n", "", 0);
        x(&["echo"], "  \n", "\n", "", 0);
        x(&["-r", "echo"], "", "", "", 0);
        x(&["-0", "-n1", "echo"], "a\0b c\0", "a\nb c\n", "", 0);
        x(&["-0", "echo"], "a\0\0b\0", "a  b\n", "", 0);
        x(&["-0", "echo"], "x\ty\n", "x\ty\n\n", "", 0);
        x(&["-d:", "echo"], "a:b:c\n", "a b c\n\n", "", 0);
        x(&["-d", "\\n", "echo"], "a b\nc\n", "a b c\n", "", 0);
        x(&["-L1", "echo"], "a b\nc\n\nd\n", "a b\nc\nd\n", "", 0);
        x(&["-L1", "echo"], "a b \nc\nd\n", "a b c\nd\n", "", 0);
        x(&["-E", "END", "echo"], "a\nb\nEND\nc\n", "a b\n", "", 0);
        x(&["-a", "f", "echo"], "", "p q\n", "", 0);
        x(&["-n2", "-P", "4", "-s", "100", "echo"], "1 2 3", "1 2\n3\n", "", 0);
    }

    #[test]
    fn replace() {
        x(&["-I{}", "echo", "[{}]"], "  one two\nthree\n", "[one two]\n[three]\n", "", 0);
        x(&["-I", "X", "echo", "X", "X", "-X-"], "a\n", "a a -a-\n", "", 0);
        x(&["-i", "echo", "<{}>"], "x\n", "<x>\n", "", 0);
        x(&["-I", "X", "echo", "X"], "\n\n", "", "", 0);
        x(&["-I{}", "test", "-f", "{}"], "f\n", "", "", 0);
    }

    #[test]
    fn statuses() {
        x(&["false"], "1\n", "", "", 123);
        x(&["nosuch"], "a\n", "", "xargs: nosuch: No such file or directory\n", 127);
        let uq = "unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n";
        x(&["echo"], "a 'b", "a\n", &format!("xargs: {uq}"), 1);
        x(&["-n1", "echo"], "a\nb 'c\nd\n", "a\nb\n", &format!("xargs: {uq}"), 1);
        x(
            &["echo"],
            "a \"b\nc\"",
            "a\n",
            "xargs: unmatched double quote; by default quotes are special to xargs unless you use the -0 option\n",
            1,
        );
        x(
            &["-n", "0"],
            "a",
            "",
            "xargs: value 0 for -n option should be >= 1\nTry 'xargs --help' for more information.\n",
            1,
        );
        x(
            &["-n", "x"],
            "a",
            "",
            "xargs: invalid number \"x\" for -n option\nTry 'xargs --help' for more information.\n",
            1,
        );
        x(&["--foo"], "a", "", "xargs: unrecognized option '--foo'\nTry 'xargs --help' for more information.\n", 1);
        x(&["-a", "nope"], "", "", "xargs: Cannot open input file 'nope': No such file or directory\n", 1);
        x(&["-d", "ab"], "", "", "xargs: Invalid input delimiter specification ab: the delimiter must be either a single character or an escape sequence starting with \\.\n", 1);
    }
}
