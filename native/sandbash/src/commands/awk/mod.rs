//! `awk` (GNU awk 5.2 compatible): options `-F fs`, `-v var=val`, `-f file`,
//! `-e text`, `--`; BEGIN/END, patterns and ranges, fields, arrays, user
//! functions, getline from files, print/printf with file redirections, and
//! the POSIX and common gawk builtins. Running commands (`cmd | getline`,
//! `print | "cmd"`, `system()`) is not possible in the sandbox and is a fatal
//! error. `for (k in a)` visits keys in insertion order (gawk's order is
//! unspecified). Regexes use the `regex` crate, leftmost-first rather than
//! POSIX leftmost-longest for alternations.

mod builtins;
mod format;
mod interp;
mod io;
mod lexer;
mod parser;
mod regex;
mod value;

use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;
use interp::{Cell, Ctl, Interp};
use lexer::{Source, Tok, Token};
use parser::{Stmt, Var, V_ARGC, V_ARGV, V_ENVIRON};
use value::Value;

pub struct Awk;

const USAGE: &str = include_str!("usage.txt");

/// `name=value` with a valid variable name: an assignment operand.
pub fn split_assignment(arg: &str) -> Option<(&str, &str)> {
    let (name, val) = arg.split_once('=')?;
    let mut c = name.chars();
    let first = c.next()?;
    if !(first.is_ascii_alphabetic() || first == '_') || !c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_') {
        return None;
    }
    Some((name, val))
}

/// Escape sequences in `-v` values and assignment operands, as in strings.
pub fn unescape(s: &str) -> String {
    let mut out: Vec<u8> = Vec::new();
    let push = |out: &mut Vec<u8>, c: char| out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            push(&mut out, c);
            continue;
        }
        match it.next() {
            None => push(&mut out, '\\'),
            Some('n') => push(&mut out, '\n'),
            Some('t') => push(&mut out, '\t'),
            Some('r') => push(&mut out, '\r'),
            Some('a') => push(&mut out, '\x07'),
            Some('b') => push(&mut out, '\x08'),
            Some('f') => push(&mut out, '\x0c'),
            Some('v') => push(&mut out, '\x0b'),
            Some(d @ '0'..='7') => {
                let mut v = d as u32 - '0' as u32;
                for _ in 0..2 {
                    match it.peek() {
                        Some(&e @ '0'..='7') => {
                            v = v * 8 + (e as u32 - '0' as u32);
                            it.next();
                        }
                        _ => break,
                    }
                }
                out.push(v as u8);
            }
            Some(o) => push(&mut out, o),
        }
    }
    bytes_to_string(out)
}

/// Bytes as an awk string: UTF-8 where they form it; a stray byte (an
/// escape like `\351` alone) stands for the Latin-1 character of its value.
pub(crate) fn bytes_to_string(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let bytes = e.into_bytes();
            let mut out = String::with_capacity(bytes.len());
            let mut rest = &bytes[..];
            while !rest.is_empty() {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        out.push_str(s);
                        break;
                    }
                    Err(e) => {
                        let good = e.valid_up_to();
                        out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                        out.push(char::from(rest[good]));
                        rest = &rest[good + 1..];
                    }
                }
            }
            out
        }
    }
}

/// What the command line asked for.
#[derive(Default)]
struct Args {
    fs: Option<String>,
    assigns: Vec<String>,
    progfiles: Vec<String>,
    sources: Vec<String>,
    operands: Vec<String>,
}

enum ArgsErr {
    /// Print this on stderr and exit with the status.
    Msg(String, i32),
    /// `--help`/`--version` text for stdout.
    Out(String),
}

fn parse_args(args: &[String], name: &str) -> Result<Args, ArgsErr> {
    let usage_err = |msg: String| ArgsErr::Msg(format!("{msg}{USAGE}"), 1);
    let mut a = Args::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            i -= 1;
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (key, inline) = match long.split_once('=') {
                Some((k, v)) => (k, Some(v.to_string())),
                None => (long, None),
            };
            let takes = ["field-separator", "assign", "file", "source"];
            let full = takes
                .iter()
                .chain(
                    ["help", "version", "posix", "traditional", "sandbox", "re-interval", "characters-as-bytes"].iter(),
                )
                .find(|n| n.starts_with(key) && !key.is_empty());
            let Some(&full) = full else {
                // gawk prints only its usage for an option it does not know.
                return Err(usage_err(String::new()));
            };
            let val = if takes.contains(&full) {
                match inline.or_else(|| {
                    i += 1;
                    args.get(i - 1).cloned()
                }) {
                    Some(v) => Some(v),
                    None => return Err(usage_err(format!("{name}: option '--{full}' requires an argument\n"))),
                }
            } else {
                None
            };
            match (full, val) {
                ("field-separator", Some(v)) => a.fs = Some(v),
                ("assign", Some(v)) => a.assigns.push(v),
                ("file", Some(v)) => a.progfiles.push(v),
                ("source", Some(v)) => a.sources.push(v),
                ("help", _) => return Err(ArgsErr::Out(USAGE.to_string())),
                ("version", _) => return Err(ArgsErr::Out(version())),
                _ => {}
            }
            continue;
        }
        let body: Vec<char> = arg[1..].chars().collect();
        let mut k = 0;
        while k < body.len() {
            let c = body[k];
            k += 1;
            match c {
                'F' | 'v' | 'f' | 'e' => {
                    let val = if k < body.len() {
                        let v: String = body[k..].iter().collect();
                        k = body.len();
                        v
                    } else if let Some(v) = args.get(i) {
                        i += 1;
                        v.clone()
                    } else {
                        return Err(usage_err(format!("{name}: option requires an argument -- {c}\n")));
                    };
                    match c {
                        'F' => a.fs = Some(val),
                        'v' => a.assigns.push(val),
                        'f' => a.progfiles.push(val),
                        _ => a.sources.push(val),
                    }
                }
                'h' => return Err(ArgsErr::Out(USAGE.to_string())),
                'V' => return Err(ArgsErr::Out(version())),
                'P' | 'c' | 'S' | 'r' | 'b' | 'N' | 's' | 'O' => {}
                _ => return Err(usage_err(String::new())),
            }
        }
    }
    a.operands = args[i..].to_vec();
    Ok(a)
}

fn version() -> String {
    // gawk's own text as Debian builds it (with MPFR and persistent memory).
    "GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)\n\
Copyright (C) 1989, 1991-2022 Free Software Foundation.\n\
\n\
This program is free software; you can redistribute it and/or modify\n\
it under the terms of the GNU General Public License as published by\n\
the Free Software Foundation; either version 3 of the License, or\n\
(at your option) any later version.\n\
\n\
This program is distributed in the hope that it will be useful,\n\
but WITHOUT ANY WARRANTY; without even the implied warranty of\n\
MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the\n\
GNU General Public License for more details.\n\
\n\
You should have received a copy of the GNU General Public License\n\
along with this program. If not, see http://www.gnu.org/licenses/.\n"
        .to_string()
}

/// `-F` values get escape processing (`-F '\t'` is a tab).
fn field_sep(v: &str) -> String {
    unescape(v)
}

#[async_trait]
impl Command for Awk {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let name = "awk".to_string();
        let mut a = match parse_args(ctx.args, &name) {
            Ok(a) => a,
            Err(ArgsErr::Out(s)) => {
                // Run as gawk, gawk's own text names gawk (its usage lines and examples).
                let s = match ctx.name.rsplit('/').next() {
                    Some("gawk") if s == USAGE => crate::commands::util::help::gnu_help(ctx.name).unwrap_or(s),
                    _ => s,
                };
                ctx.out(s.as_bytes()).await?;
                return Ok(0);
            }
            Err(ArgsErr::Msg(m, st)) => {
                ctx.stderr.write(m.as_bytes()).await?;
                return Ok(st);
            }
        };
        // Program sources: -f files and -e texts, else the first operand.
        let mut sources: Vec<Source> = Vec::new();
        for f in &a.progfiles {
            let read = if f == "/dev/null" { Ok(Vec::new()) } else { ctx.fs.read(&ctx.resolve(f)).await };
            match read {
                Ok(d) => sources.push(Source { name: f.clone(), text: String::from_utf8_lossy(&d).into_owned() }),
                Err(e) => {
                    let m = format!("{name}: fatal: cannot open source file `{f}' for reading: {e}\n");
                    ctx.stderr.write(m.as_bytes()).await?;
                    return Ok(2);
                }
            }
        }
        for s in &a.sources {
            sources.push(Source { name: "cmd. line".into(), text: s.clone() });
        }
        if sources.is_empty() {
            if a.operands.is_empty() {
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(1);
            }
            let text = a.operands.remove(0);
            sources.push(Source { name: "cmd. line".into(), text });
        }
        // Assignments given with -v must have the var=value form.
        for v in &a.assigns {
            if split_assignment(v).is_none() {
                let m = format!("{name}: `{v}' argument to `-v' not in `var=value' form\n\n{USAGE}");
                ctx.stderr.write(m.as_bytes()).await?;
                return Ok(1);
            }
        }

        // The program's tokens and tree hold up to about 80 bytes per byte of
        // its text (`f()+f()+...`): asked of the budget before they are built.
        let text_bytes: usize = sources.iter().map(|s| s.text.len()).sum();
        if let Err(stop) = ctx.budget.reserve((text_bytes as u64).saturating_mul(80)) {
            crate::commands::util::operands::stop_exec(ctx.budget, stop);
            return Ok(2);
        }
        let mut toks: Vec<Token> = Vec::new();
        let mut warns = Vec::new();
        for (i, s) in sources.iter().enumerate() {
            if let Err(e) = lexer::lex(i, &s.text, &mut toks, &mut warns) {
                ctx.stderr.write(lexer::format_error(&name, &sources, &e).as_bytes()).await?;
                return Ok(1);
            }
        }
        let end = toks.last().map(|t| t.pos).unwrap_or_default();
        toks.push(Token { tok: Tok::Eof, pos: end });
        for (p, w) in &warns {
            let m = format!("{name}: {}:{}: warning: {w}\n", sources[p.src].name, p.line);
            ctx.stderr.write(m.as_bytes()).await?;
        }
        let (prog, call_pos) = match parser::parse(&toks, ctx.budget.limits.max_parser_depth as usize) {
            Ok(p) => p,
            Err(e) => {
                ctx.stderr.write(lexer::format_error(&name, &sources, &e).as_bytes()).await?;
                return Ok(1);
            }
        };
        for (f, pos) in &call_pos {
            if !prog.funcs[*f].defined {
                let m = format!(
                    "{name}: {}:{}: fatal: function `{}' not defined\n",
                    sources[pos.src].name, pos.line, prog.funcs[*f].name
                );
                ctx.stderr.write(m.as_bytes()).await?;
                return Ok(2);
            }
        }
        for (f, n, pos) in &prog.calls {
            if prog.funcs[*f].defined && *n > prog.funcs[*f].nparams {
                let m = format!(
                    "{name}: {}:{}: warning: function `{}' called with more arguments than declared\n",
                    sources[pos.src].name, pos.line, prog.funcs[*f].name
                );
                ctx.stderr.write(m.as_bytes()).await?;
            }
        }
        let src_names: Vec<String> = sources.iter().map(|s| s.name.clone()).collect();
        let mut it = Interp::new(&prog, ctx, name.clone(), src_names);
        let limit = ctx.budget.limits.max_regex_bytes as usize;
        for r in &prog.regexes {
            match regex::compile(r, limit) {
                Ok(re) => it.lit_re.push(re),
                Err(e) => {
                    let m = format!("{name}: cmd. line:1: fatal: invalid regexp: {e}: /{r}/\n");
                    ctx.stderr.write(m.as_bytes()).await?;
                    return Ok(2);
                }
            }
        }
        let result = run_program(&mut it, &a, ctx).await;
        let flushed = it.flush_all().await;
        let status = match result.and(flushed) {
            Ok(()) => it.exit_code,
            Err(Ctl::Fatal(m)) => {
                let _ = it.flush_all().await;
                let loc = it.location();
                ctx.stderr.write(format!("{name}: {loc}fatal: {m}\n").as_bytes()).await?;
                2
            }
            Err(Ctl::FatalBare(m)) => {
                let _ = it.flush_all().await;
                // Once rules have run gawk names the last source line.
                let loc = if it.records_read() { it.src_location() } else { String::new() };
                ctx.stderr.write(format!("{name}: {loc}fatal: {m}\n").as_bytes()).await?;
                2
            }
            Err(Ctl::Io(e)) => return Err(e),
            Err(_) => 2,
        };
        Ok(status)
    }
}

/// BEGIN, the records of the main input, END.
async fn run_program<'p>(it: &mut Interp<'p, '_, '_>, a: &Args, ctx: &CommandContext<'_>) -> Result<(), Ctl> {
    let prog = it.prog;
    // ENVIRON, ARGV, ARGC, then -F and -v.
    if let Cell::Arr(env) = it.globals[V_ENVIRON] {
        for (k, v) in ctx.env.exported() {
            it.arrays[env].set(k, Value::from_input(v));
        }
    }
    if let Cell::Arr(argv) = it.globals[V_ARGV] {
        it.arrays[argv].set("0".into(), Value::Str("awk".into()));
        for (i, o) in a.operands.iter().enumerate() {
            it.arrays[argv].set((i + 1).to_string(), Value::from_input(o.clone()));
        }
    }
    it.globals[V_ARGC] = Cell::Val(Value::Num((a.operands.len() + 1) as f64));
    if let Some(fs) = &a.fs {
        it.set_var(Var::Global(parser::V_FS), Value::Str(field_sep(fs)))?;
    }
    for v in &a.assigns {
        if let Some((n, val)) = split_assignment(v) {
            if let Some(g) = prog.globals.iter().position(|x| x == n) {
                it.set_var(Var::Global(g), Value::from_input(unescape(val)))?;
            }
        }
    }

    let mut exiting = false;
    for b in &prog.begin {
        match it.exec_block(b).await {
            Ok(()) => {}
            Err(Ctl::Exit) => {
                exiting = true;
                break;
            }
            Err(Ctl::Next | Ctl::NextFile | Ctl::Break | Ctl::Continue | Ctl::Return(_)) => {}
            Err(e) => return Err(e),
        }
    }
    if !exiting && (!prog.rules.is_empty() || !prog.end.is_empty()) {
        'records: while let Some(rec) = it.next_main().await? {
            it.tick()?;
            let spent = it.set_record(rec);
            it.recycle_record(spent);
            for (ri, rule) in prog.rules.iter().enumerate() {
                let hit = match &rule.pattern {
                    parser::Pattern::All => Ok(true),
                    parser::Pattern::Expr(e) => it.cond(e).await,
                    parser::Pattern::Range(p1, p2) => {
                        if it.range_active[ri] {
                            match it.cond(p2).await {
                                Ok(end) => {
                                    it.range_active[ri] = !end;
                                    Ok(true)
                                }
                                Err(e) => Err(e),
                            }
                        } else {
                            match it.cond(p1).await {
                                Ok(true) => match it.cond(p2).await {
                                    Ok(end) => {
                                        it.range_active[ri] = !end;
                                        Ok(true)
                                    }
                                    Err(e) => Err(e),
                                },
                                other => other,
                            }
                        }
                    }
                };
                let r = match hit {
                    Ok(false) => Ok(()),
                    Ok(true) => match &rule.action {
                        Some(body) => it.exec_block(body).await,
                        None => it.exec_block(std::slice::from_ref(print_record())).await,
                    },
                    Err(e) => Err(e),
                };
                match r {
                    Ok(()) | Err(Ctl::Break | Ctl::Continue | Ctl::Return(_)) => {}
                    Err(Ctl::Next) => continue 'records,
                    Err(Ctl::NextFile) => {
                        it.skip_file();
                        continue 'records;
                    }
                    Err(Ctl::Exit) => break 'records,
                    Err(e) => return Err(e),
                }
            }
        }
    }
    for b in &prog.end {
        match it.exec_block(b).await {
            Ok(()) => {}
            Err(Ctl::Exit) => break,
            Err(Ctl::Next | Ctl::NextFile | Ctl::Break | Ctl::Continue | Ctl::Return(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The action of a pattern without one: `print`.
fn print_record() -> &'static Stmt {
    static PRINT: std::sync::OnceLock<Stmt> = std::sync::OnceLock::new();
    PRINT.get_or_init(|| Stmt::Print(Vec::new(), None))
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_stream;
