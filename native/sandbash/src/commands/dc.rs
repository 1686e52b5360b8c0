//! `dc` (GNU bc 1.07.1's dc 1.4.1), the common subset: numbers in `i` base
//! (`_` for negative), `+ - * / % ~ ^ | v` at precision `k`, `p n f P a`,
//! `c d r R z Z X`, registers (`s l S L`, arrays `: ;`), strings and macros
//! (`[...]`, `x`, `<r >r =r !<r !>r !=r`, `q`, `Q`, `?`), bases (`i o I O K`)
//! and `#` comments. Numbers are bc's (`bc_num`), printed in any `o` base
//! and wrapped at DC_LINE_LENGTH (70) with a backslash.
//!
//! Macros run on an explicit frame stack (a macro called last in its caller
//! replaces it, as GNU's tail calls do), bounded by `max_function_depth`;
//! every macro run counts as a loop turn of the exec's budget.

use super::bc::num::{to_base, Num};
use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Arc;

pub struct Dc;

const SPEC: Spec = Spec::new(
    "e:f:hV",
    &[("expression", Arg::Yes, "e"), ("file", Arg::Yes, "f"), ("help", Arg::No, "h"), ("version", Arg::No, "V")],
    "[OPTION] [file ...]",
);

const HELP: &str = "Usage: dc [OPTION] [file ...]\n\
\x20 -e, --expression=EXPR    evaluate expression\n\
\x20 -f, --file=FILE          evaluate contents of file\n\
\x20 -h, --help               display this help and exit\n\
\x20 -V, --version            output version information and exit\n\n\
Email bug reports to:  bug-dc@gnu.org .\n";

const VERSION: &str = "dc (GNU bc 1.07.1) 1.4.1\n\n\
Copyright 1994, 1997, 1998, 2000, 2001, 2003-2006, 2008, 2010, 2012-2017 Free Software Foundation, Inc.\n\
This is free software; see the source for copying conditions.  There is NO\n\
warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR\n\
PURPOSE, to the extent permitted by law.\n";

/// Digits a number may have: schoolbook arithmetic is quadratic (as in bc).
const MAX_DIGITS: usize = 200_000;

#[derive(Clone)]
enum Val {
    N(Num),
    S(Arc<[u8]>),
}

/// A string being executed and the place in it.
struct Frame {
    code: Arc<[u8]>,
    pos: usize,
}

/// How running one input ended.
#[derive(PartialEq, Eq)]
enum End {
    Done,
    /// `q` at the top: dc exits.
    Quit,
    /// A limit or the deadline: dc stops with status 1.
    Stopped,
}

struct Machine<'a, 'c> {
    ctx: &'a CommandContext<'c>,
    stack: Vec<Val>,
    regs: HashMap<u8, Vec<Val>>,
    arrays: HashMap<u8, HashMap<u64, Val>>,
    k: usize,
    ibase: u32,
    obase: u64,
    out: Vec<u8>,
    col: usize,
    line_size: usize,
    max_digits: usize,
}

fn is_num_start(c: u8) -> bool {
    c.is_ascii_digit() || (b'A'..=b'F').contains(&c) || c == b'.' || c == b'_'
}

impl Machine<'_, '_> {
    async fn err(&mut self, msg: &str) -> Result<(), IoError> {
        self.flush().await?;
        self.ctx.err(msg).await
    }

    async fn flush(&mut self) -> Result<(), IoError> {
        if !self.out.is_empty() {
            let out = std::mem::take(&mut self.out);
            self.ctx.out(&out).await?;
        }
        Ok(())
    }

    /// Numbers wrap after `line_size - 1` digits with a `\` (one column
    /// later than bc does).
    fn out_num(&mut self, n: &Num) {
        for c in to_base(n, self.obase).bytes() {
            self.col += 1;
            if self.line_size > 0 && self.col == self.line_size {
                self.out.extend_from_slice(b"\\\n");
                self.col = 1;
            }
            self.out.push(c);
        }
    }

    fn newline(&mut self) {
        self.out.push(b'\n');
        self.col = 0;
    }

    fn print(&mut self, v: &Val, nl: bool) {
        match v {
            Val::N(n) => self.out_num(n),
            Val::S(s) => self.out.extend_from_slice(s),
        }
        if nl {
            self.newline();
        }
    }

    /// A number at the start of `code` in the input base: its value and length.
    fn number(&self, code: &[u8]) -> (Num, usize) {
        let mut i = 0;
        let neg = code.first() == Some(&b'_');
        if neg {
            i += 1;
        }
        let start = i;
        let mut dot = None;
        while let Some(&c) = code.get(i) {
            if c == b'.' && dot.is_none() {
                dot = Some(i);
            } else if !(c.is_ascii_digit() || (b'A'..=b'F').contains(&c)) {
                break;
            }
            i += 1;
        }
        let text = &code[start..i];
        let digit = |c: u8| i64::from(if c.is_ascii_digit() { c - b'0' } else { c - b'A' + 10 });
        let (ip, fp) = match dot {
            Some(d) => (&code[start..d], &code[d + 1..i]),
            None => (text, &b""[..]),
        };
        let n = if self.ibase == 10 && text.iter().all(|c| c.is_ascii_digit() || *c == b'.') {
            Num::parse10(&String::from_utf8_lossy(text))
        } else {
            let base = Num::int(i64::from(self.ibase));
            let mut v = Num::default();
            for &c in ip {
                v = v.mul(&base, 0).add(&Num::int(digit(c)));
            }
            if !fp.is_empty() {
                let (mut f, mut den) = (Num::default(), Num::int(1));
                for &c in fp {
                    f = f.mul(&base, 0).add(&Num::int(digit(c)));
                    den = den.mul(&base, 0);
                }
                v = v.add(&f.div(&den, fp.len()).unwrap_or_default());
            }
            v
        };
        (if neg { n.neg() } else { n }, i)
    }

    fn pop_num(&mut self) -> Option<Num> {
        match self.stack.last() {
            Some(Val::N(_)) => match self.stack.pop() {
                Some(Val::N(n)) => Some(n),
                _ => None,
            },
            _ => None,
        }
    }

    /// Pop two numbers for a binary operator; `Err` is the message (the
    /// stack is left as it was).
    fn pop2(&mut self) -> Result<(Num, Num), &'static str> {
        let n = self.stack.len();
        if n < 2 {
            return Err("stack empty");
        }
        match (&self.stack[n - 2], &self.stack[n - 1]) {
            (Val::N(a), Val::N(b)) => {
                let r = (a.clone(), b.clone());
                self.stack.truncate(n - 2);
                Ok(r)
            }
            _ => Err("non-numeric value"),
        }
    }

    fn too_big(&self, n: &Num) -> bool {
        n.v.digit_count() > self.max_digits
    }

    /// One binary arithmetic command. The result(s) or GNU's message; on
    /// error the operands go back on the stack.
    async fn binary(&mut self, op: u8) -> Result<bool, IoError> {
        let (a, b) = match self.pop2() {
            Ok(p) => p,
            Err(m) => {
                self.err(m).await?;
                return Ok(true);
            }
        };
        let k = self.k;
        let res: Result<Vec<Num>, &str> = match op {
            b'+' => Ok(vec![a.add(&b)]),
            b'-' => Ok(vec![a.sub(&b)]),
            b'*' => {
                if a.v.digit_count() + b.v.digit_count() > self.max_digits {
                    Err("number too large")
                } else {
                    Ok(vec![a.mul(&b, k)])
                }
            }
            b'/' => a.div(&b, k).map(|q| vec![q]).ok_or("divide by zero"),
            b'%' => a.modulo(&b, k).map(|r| vec![r]).ok_or("remainder by zero"),
            b'~' => match (a.div(&b, k), a.modulo(&b, k)) {
                (Some(q), Some(r)) => Ok(vec![q, r]),
                _ => Err("divide by zero"),
            },
            _ => {
                if b.s > 0 {
                    self.flush().await?;
                    self.ctx.stderr.write(b"Runtime warning: non-zero scale in exponent\n").await?;
                }
                let e = b.to_i64();
                let digits = (a.int_len() as u128).saturating_mul(u128::from(e.map_or(u64::MAX, i64::unsigned_abs)));
                match e {
                    None => Err("exponent too large"),
                    Some(_)
                        if a.trunc().v.abs().cmp(&Num::int(1).v) == std::cmp::Ordering::Greater
                            && digits > self.max_digits as u128 =>
                    {
                        Err("number too large")
                    }
                    Some(e) => {
                        let ctx = self.ctx;
                        let mut ok = || ctx.still_running();
                        a.pow(e, k, &mut ok).map(|p| vec![p]).ok_or("interrupted")
                    }
                }
            }
        };
        match res {
            Ok(vals) if vals.iter().any(|v| self.too_big(v)) => {
                self.stack.push(Val::N(a));
                self.stack.push(Val::N(b));
                self.err("number too large").await?;
            }
            Ok(vals) => self.stack.extend(vals.into_iter().map(Val::N)),
            Err(m) => {
                self.stack.push(Val::N(a));
                self.stack.push(Val::N(b));
                self.err(m).await?;
            }
        }
        Ok(true)
    }

    /// `a b c |`: a^b mod c by squaring.
    async fn modexp(&mut self) -> Result<(), IoError> {
        if self.stack.len() < 3 {
            return self.err("stack empty").await;
        }
        let (Some(c), Some(b), Some(a)) = (self.pop_num(), self.pop_num(), self.pop_num()) else {
            return self.err("non-numeric value").await;
        };
        if c.trunc().is_zero() {
            return self.err("remainder by zero").await;
        }
        let (mut base, modulus) = (a.trunc(), c.trunc());
        let mut e = b.trunc();
        let two = Num::int(2);
        let mut r = Num::int(1);
        base = base.modulo(&modulus, 0).unwrap_or_default();
        while !e.is_zero() && !e.is_neg() {
            if !self.ctx.still_running() {
                break;
            }
            if !e.modulo(&two, 0).unwrap_or_default().is_zero() {
                r = r.mul(&base, 0).modulo(&modulus, 0).unwrap_or_default();
            }
            base = base.mul(&base, 0).modulo(&modulus, 0).unwrap_or_default();
            e = e.div(&two, 0).unwrap_or_default();
        }
        self.stack.push(Val::N(r));
        Ok(())
    }

    /// Run `code` as a top-level input.
    async fn run(&mut self, code: Arc<[u8]>) -> Result<End, IoError> {
        let mut frames = vec![Frame { code, pos: 0 }];
        let mut steps = 0u64;
        while let Some(f) = frames.last_mut() {
            let Some(&c) = f.code.get(f.pos) else {
                frames.pop();
                continue;
            };
            f.pos += 1;
            steps += 1;
            if steps.is_multiple_of(4096) {
                if !self.ctx.still_running() {
                    return Ok(End::Stopped);
                }
                self.flush().await?;
            }
            // The byte after a register command names the register.
            let needs_reg = matches!(c, b's' | b'l' | b'S' | b'L' | b':' | b';' | b'<' | b'>' | b'=');
            let reg = if needs_reg {
                match f.code.get(f.pos) {
                    Some(&r) => {
                        f.pos += 1;
                        r
                    }
                    None => {
                        self.err("unexpected EOS").await?;
                        continue;
                    }
                }
            } else {
                0
            };
            let mut call: Option<Arc<[u8]>> = None;
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'#' => {
                    let rest = &f.code[f.pos..];
                    f.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                }
                c if is_num_start(c) => {
                    let start = f.pos - 1;
                    let (n, len) = self.number(&f.code[start..]);
                    f.pos = start + len;
                    self.stack.push(Val::N(n));
                }
                b'[' => {
                    let rest = &f.code[f.pos..];
                    let mut depth = 1usize;
                    let mut end = rest.len();
                    for (i, &b) in rest.iter().enumerate() {
                        match b {
                            b'[' => depth += 1,
                            b']' => {
                                depth -= 1;
                                if depth == 0 {
                                    end = i;
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    let s: Arc<[u8]> = Arc::from(&rest[..end]);
                    f.pos += (end + 1).min(rest.len());
                    self.stack.push(Val::S(s));
                }
                b'+' | b'-' | b'*' | b'/' | b'%' | b'~' | b'^' => {
                    self.binary(c).await?;
                }
                b'|' => self.modexp().await?,
                b'v' => match self.stack.pop() {
                    None => self.err("stack empty").await?,
                    Some(Val::S(s)) => {
                        self.stack.push(Val::S(s));
                        self.err("non-numeric value").await?;
                    }
                    Some(Val::N(n)) if n.is_neg() => self.err("square root of negative number").await?,
                    Some(Val::N(n)) => {
                        let r = n.sqrt(self.k);
                        self.stack.push(Val::N(r));
                    }
                },
                b'p' | b'n' | b'P' | b'd' | b'x' | b'a' | b'Z' | b'X' | b'k' | b'i' | b'o' | b's' | b'S' | b':'
                | b';' | b'<' | b'>' | b'=' | b'r'
                    if self.stack.is_empty()
                        || (matches!(c, b'r' | b':' | b'<' | b'>' | b'=') && self.stack.len() < 2) =>
                {
                    self.err("stack empty").await?;
                }
                b'p' => {
                    if let Some(v) = self.stack.last().cloned() {
                        self.print(&v, true);
                    }
                }
                b'n' => {
                    if let Some(v) = self.stack.pop() {
                        self.print(&v, false);
                    }
                }
                b'P' => match self.stack.pop() {
                    Some(Val::S(s)) => self.out.extend_from_slice(&s),
                    Some(Val::N(n)) => {
                        // The integer part as base-256 bytes, most significant first.
                        let mut v = n.trunc().v.abs();
                        let b256 = Num::int(256).v;
                        let mut bytes = Vec::new();
                        while let Some((q, r)) = v.divmod(&b256) {
                            bytes.push(r.to_i64().unwrap_or(0) as u8);
                            v = q;
                            if v.is_zero() {
                                break;
                            }
                        }
                        bytes.reverse();
                        self.out.extend_from_slice(&bytes);
                    }
                    None => {}
                },
                b'f' => {
                    let all: Vec<Val> = self.stack.iter().rev().cloned().collect();
                    for v in &all {
                        self.print(v, true);
                    }
                }
                b'c' => self.stack.clear(),
                b'd' => {
                    if let Some(v) = self.stack.last().cloned() {
                        self.stack.push(v);
                    }
                }
                b'r' => {
                    let n = self.stack.len();
                    self.stack.swap(n - 1, n - 2);
                }
                b'z' => {
                    let n = self.stack.len() as i64;
                    self.stack.push(Val::N(Num::int(n)));
                }
                b'Z' | b'X' => {
                    let v = self.stack.pop();
                    let n = match (c, v) {
                        (b'Z', Some(Val::N(n))) => n.length(),
                        (b'Z', Some(Val::S(s))) => s.len(),
                        (_, Some(Val::N(n))) => n.s,
                        _ => 0,
                    };
                    self.stack.push(Val::N(Num::int(n as i64)));
                }
                b'a' => {
                    let s: Arc<[u8]> = match self.stack.pop() {
                        Some(Val::N(n)) => {
                            let b =
                                n.trunc().v.abs().divmod(&Num::int(256).v).map_or(0, |(_, r)| r.to_i64().unwrap_or(0));
                            Arc::from(&[b as u8][..])
                        }
                        Some(Val::S(s)) => Arc::from(s.get(..1).unwrap_or(&[])),
                        None => Arc::from(&b""[..]),
                    };
                    self.stack.push(Val::S(s));
                }
                b'k' | b'i' | b'o' => {
                    let v = self.pop_num();
                    let n = v.as_ref().and_then(Num::to_i64);
                    match (c, n) {
                        (b'k', Some(n)) if n >= 0 => self.k = usize::try_from(n).unwrap_or(0).min(self.max_digits),
                        (b'k', _) => self.err("scale must be a nonnegative number").await?,
                        (b'i', Some(n)) if (2..=16).contains(&n) => self.ibase = n as u32,
                        (b'i', _) => self.err("input base must be a number between 2 and 16 (inclusive)").await?,
                        (_, Some(n)) if n > 1 => self.obase = n as u64,
                        _ => self.err("output base must be a number greater than 1").await?,
                    }
                }
                b'R' => match self.pop_num().and_then(|n| n.to_i64()) {
                    // Rotate the top |n| items: the n-th comes to the top, or
                    // (n < 0) the top goes down to the n-th place.
                    Some(n) => {
                        let k = usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX).min(self.stack.len());
                        let start = self.stack.len() - k;
                        if k > 1 && n > 0 {
                            self.stack[start..].rotate_left(1);
                        } else if k > 1 {
                            self.stack[start..].rotate_right(1);
                        }
                    }
                    None => self.err("stack empty").await?,
                },
                b'K' => self.stack.push(Val::N(Num::int(self.k as i64))),
                b'I' => self.stack.push(Val::N(Num::int(i64::from(self.ibase)))),
                b'O' => self.stack.push(Val::N(Num::int(self.obase as i64))),
                b's' => {
                    if let Some(v) = self.stack.pop() {
                        let r = self.regs.entry(reg).or_default();
                        r.pop();
                        r.push(v);
                    }
                }
                b'S' => {
                    if let Some(v) = self.stack.pop() {
                        self.regs.entry(reg).or_default().push(v);
                    }
                }
                b'l' => {
                    let v = self.regs.get(&reg).and_then(|r| r.last().cloned()).unwrap_or(Val::N(Num::default()));
                    self.stack.push(v);
                }
                b'L' => match self.regs.get_mut(&reg).and_then(Vec::pop) {
                    Some(v) => self.stack.push(v),
                    None => {
                        let msg = format!("stack register '{}' ({reg:04o}) is empty", reg as char);
                        self.err(&msg).await?;
                    }
                },
                b':' => {
                    let idx = self.pop_num().and_then(|n| n.to_i64());
                    let val = self.stack.pop();
                    match (idx, val) {
                        (Some(i), Some(v)) if (0..=2048).contains(&i) => {
                            self.arrays.entry(reg).or_default().insert(i as u64, v);
                        }
                        _ => self.err("array index must be a nonnegative integer").await?,
                    }
                }
                b';' => {
                    let idx = self.pop_num().and_then(|n| n.to_i64());
                    match idx {
                        Some(i) if i >= 0 => {
                            let v = self.arrays.get(&reg).and_then(|a| a.get(&(i as u64)).cloned());
                            self.stack.push(v.unwrap_or(Val::N(Num::default())));
                        }
                        _ => self.err("array index must be a nonnegative integer").await?,
                    }
                }
                b'<' | b'>' | b'=' => {
                    if let Ok((second, top)) = self.pop2() {
                        let ord = top.cmp(&second);
                        let yes = match c {
                            b'<' => ord.is_lt(),
                            b'>' => ord.is_gt(),
                            _ => ord.is_eq(),
                        };
                        if yes {
                            call = self.macro_of(reg);
                        }
                    } else {
                        self.stack.truncate(self.stack.len().saturating_sub(2));
                        self.err("non-numeric value").await?;
                    }
                }
                b'!' => {
                    let op = f.code.get(f.pos).copied();
                    match op {
                        Some(op @ (b'<' | b'>' | b'=')) => {
                            let Some(&reg) = f.code.get(f.pos + 1) else {
                                f.pos += 1;
                                self.err("unexpected EOS").await?;
                                continue;
                            };
                            f.pos += 2;
                            if self.stack.len() < 2 {
                                self.err("stack empty").await?;
                            } else if let Ok((second, top)) = self.pop2() {
                                let ord = top.cmp(&second);
                                let yes = match op {
                                    b'<' => !ord.is_lt(),
                                    b'>' => !ord.is_gt(),
                                    _ => !ord.is_eq(),
                                };
                                if yes {
                                    call = self.macro_of(reg);
                                }
                            } else {
                                self.stack.truncate(self.stack.len().saturating_sub(2));
                                self.err("non-numeric value").await?;
                            }
                        }
                        _ => {
                            // `!command` would run a shell command: there is no host shell.
                            let rest = &f.code[f.pos..];
                            f.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                            self.err("shell commands (!) are not available in the sandbox").await?;
                        }
                    }
                }
                b'x' => match self.stack.pop() {
                    Some(Val::S(s)) => call = Some(s),
                    Some(v) => self.stack.push(v),
                    None => {}
                },
                b'?' => {
                    self.flush().await?;
                    let max = usize::try_from(self.ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
                    let line = self.ctx.stdin.read_until(b'\n', max).await.unwrap_or_default();
                    call = Some(Arc::from(line));
                }
                b'q' => {
                    if frames.len() <= 2 {
                        return Ok(End::Quit);
                    }
                    frames.truncate(frames.len() - 2);
                    continue;
                }
                b'Q' => {
                    match self.pop_num().and_then(|n| n.to_i64()) {
                        Some(n) if n > 0 => {
                            let n = usize::try_from(n).unwrap_or(usize::MAX);
                            frames.truncate(frames.len().saturating_sub(n));
                        }
                        _ => self.err("Q command requires a number >= 1").await?,
                    }
                    continue;
                }
                other => {
                    // GNU prints the prefix on stderr and the rest on stdout.
                    self.flush().await?;
                    self.ctx.stderr.write(b"dc: ").await?;
                    let msg = format!("'{}' ({other:04o}) unimplemented\n", other as char);
                    self.out.extend_from_slice(msg.as_bytes());
                }
            }
            if let Some(code) = call {
                if let Err(stop) = self.ctx.budget.tick_loop(0) {
                    self.err(&stop.to_string()).await?;
                    return Ok(End::Stopped);
                }
                // A macro called last in a macro replaces it (GNU's tail call).
                let tail = frames.len() > 1 && frames.last().is_some_and(|f| f.pos >= f.code.len());
                if tail {
                    frames.pop();
                }
                if frames.len() as u64 >= self.ctx.budget.limits.max_function_depth {
                    self.err("macro nesting too deep (max_function_depth)").await?;
                    return Ok(End::Stopped);
                }
                frames.push(Frame { code, pos: 0 });
            }
            if self.out.len() > 1 << 16 {
                self.flush().await?;
            }
        }
        Ok(End::Done)
    }

    /// The string in register `r` to run as a macro (a number runs nothing).
    fn macro_of(&self, r: u8) -> Option<Arc<[u8]>> {
        match self.regs.get(&r).and_then(|v| v.last()) {
            Some(Val::S(s)) => Some(s.clone()),
            _ => None,
        }
    }
}

#[async_trait]
impl Utility for Dc {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.has("h") {
            ctx.out(HELP.as_bytes()).await?;
            return Ok(0);
        }
        if p.has("V") {
            ctx.out(VERSION.as_bytes()).await?;
            return Ok(0);
        }
        let line_size = match ctx.env.get("DC_LINE_LENGTH").and_then(|v| v.trim().parse::<i64>().ok()) {
            Some(0) => 0,
            Some(n) if n > 1 => n as usize,
            _ => 70,
        };
        let max_digits = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX).min(MAX_DIGITS);
        let mut m = Machine {
            ctx,
            stack: Vec::new(),
            regs: HashMap::new(),
            arrays: HashMap::new(),
            k: 0,
            ibase: 10,
            obase: 10,
            out: Vec::new(),
            col: 0,
            line_size,
            max_digits,
        };
        // -e and -f in order, then FILE operands; stdin only when none was given.
        let mut inputs: Vec<Result<Arc<[u8]>, String>> = Vec::new();
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            match o.id {
                "e" => inputs.push(Ok(Arc::from(v.as_bytes()))),
                "f" => inputs.push(ctx.read_operand(v).await.map(Arc::from).map_err(|_| v.to_string())),
                _ => {}
            }
        }
        for f in &p.operands {
            inputs.push(ctx.read_operand(f).await.map(Arc::from).map_err(|_| f.to_string()));
        }
        if inputs.is_empty() {
            inputs.push(ctx.read_stdin().await.map(Arc::from).map_err(|_| "-".to_string()));
        }
        let mut status = 0;
        for input in inputs {
            let end = match input {
                Ok(code) => m.run(code).await?,
                Err(name) => {
                    m.err(&format!("Could not open file {name}")).await?;
                    End::Done
                }
            };
            match end {
                End::Done => {}
                End::Quit => break,
                End::Stopped => {
                    status = 1;
                    break;
                }
            }
        }
        m.flush().await?;
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    fn dc(expr: &str, out: &str, err: &str) {
        check(&["dc", "-e", expr], &[], "", out, err, 0);
    }

    #[test]
    fn arithmetic() {
        dc("1 2 + p", "3\n", "");
        dc(".5 p 0.5 p _5 p -5 p", ".5\n.5\n-5\n5\n", "");
        dc("10 3 / p 2 k 10 3 / p", "3\n3.33\n", "");
        dc("2 k 1 3 / 3 * p", ".99\n", "");
        dc("2 10 ^ p 2 _1 ^ p", "1024\n0\n", "");
        dc("2 v p 2 k 2 v p 4 v p", "1\n1.41\n2.00\n", "");
        dc("10 3 % p 10 3 ~ f", "1\n1\n3\n1\n", "");
        dc("1 _2 * p 3 4 - p", "-2\n-1\n", "");
        dc("1.5 2 ^ p", "2.2\n", "");
        dc("2 k 1.5 3 ^ p", "3.37\n", "");
        dc("1 k 2 _3 ^ p", ".1\n", "");
        dc("2 k 7 _2 / p 7 _2 % p", "-3.50\n0\n", "");
        dc("10 k 2 v p", "1.4142135623\n", "");
        dc("2 3 4 |p", "0\n", "");
        dc("3 5 7 |p", "5\n", "");
        dc("1.2.3 f", ".3\n1.2\n", "");
        dc("3 _ p", "0\n", "");
        dc("2.5 1.5 ^ p", "2.5\n", "Runtime warning: non-zero scale in exponent\n");
    }

    #[test]
    fn output() {
        dc("2 100 ^ p", "1267650600228229401496703205376\n", "");
        dc(
            "2 300 ^ p",
            "203703597633448608626844568840937816105146839366593625063614044935438\\\n1299763336706183397376\n",
            "",
        );
        dc("16 o 255 p 2 o 5 p", "FF\n101\n", "");
        dc("16 o 1.5 p", "1.8\n", "");
        dc("16 i FF p A p 2 i 102 p", "255\n10\n6\n", "");
        dc("[abc]p [abc]n 10 P", "abc\nabc\n", "");
        dc("65 P 10 P", "A\n", "");
        dc("256 P 2.5 P", "\u{1}\0\u{2}", "");
        dc("1 2 3 f c f", "3\n2\n1\n", "");
        dc("3.14 X p 3.14 Z p [abc] Z p", "2\n3\n3\n", "");
        dc("z p 1 z p", "0\n2\n", "");
        dc("K p I p O p", "0\n10\n10\n", "");
        dc("3 a p", "\u{3}\n", "");
        dc("1 2 3 4 5 3 R f", "3\n5\n4\n2\n1\n", "");
        dc("1 2 3 4 5 _3 R f", "4\n3\n5\n2\n1\n", "");
        dc("1 2 3 R f", "1\n2\n", "");
    }

    #[test]
    fn registers_and_macros() {
        dc("1 sa la la + p", "2\n", "");
        dc("1 Sa 2 Sa La p La p La p", "2\n1\n1\n", "dc: stack register 'a' (0141) is empty\n");
        dc("la p", "0\n", "");
        dc("1 5 :a 1 ;a p 5 ;a p", "0\n1\n", "");
        dc("[1 p]x 5 x p", "1\n5\n", "");
        dc("5 [d p 1 - d 0 <a]sa lax", "5\n4\n3\n2\n1\n", "");
        dc("[t]sa 1 2 <a [ok]p", "ok\n", "");
        dc("[[yes]p]sa 2 1 <a 1 2 >a 1 1 =a 1 2 !=a 1 2 !<a 2 1 !<a", "yes\nyes\nyes\nyes\nyes\n", "");
        dc("1 [2 p q 3 p]x 4 p", "2\n", "");
        dc("[[2 p q 3 p]x 4 p]x 5 p", "2\n5\n", "");
        dc("[[1 p 2 Q 9 p]x 8 p]x 7 p", "1\n7\n", "");
        dc("q 5 p", "", "");
        dc("1 2 # comment\np", "2\n", "");
        // A long tail-recursive loop runs in constant depth.
        dc("0 [1 + d 5000 >a]sa lax p", "5000\n", "");
    }

    #[test]
    fn errors() {
        dc("p", "", "dc: stack empty\n");
        dc("+ p", "", "dc: stack empty\ndc: stack empty\n");
        dc("1 0 / p", "0\n", "dc: divide by zero\n");
        dc("1 0 % p", "0\n", "dc: remainder by zero\n");
        dc("_1 v p", "", "dc: square root of negative number\ndc: stack empty\n");
        dc("[a]sa [b] la + p", "a\n", "dc: non-numeric value\n");
        dc("_1 k", "", "dc: scale must be a nonnegative number\n");
        dc("20 i p", "", "dc: input base must be a number between 2 and 16 (inclusive)\ndc: stack empty\n");
        dc("1 o", "", "dc: output base must be a number greater than 1\n");
        dc("e p", "'e' (0145) unimplemented\n", "dc: dc: stack empty\n");
        dc("[yes]sa 2 1 <a", "'y' (0171) unimplemented\n'e' (0145) unimplemented\n", "dc: dc: dc: unexpected EOS\n");
        check(&["dc", "nofile"], &[], "", "", "dc: Could not open file nofile\n", 0);
    }

    #[test]
    fn inputs() {
        check(&["dc"], &[], "1 2 + p\n", "3\n", "", 0);
        check(&["dc", "-e", "7 p"], &[], "1 2 + p\n", "7\n", "", 0);
        check(&["dc", "-f", "f", "-e", "4 p"], &[("f", "3 p\n")], "", "3\n4\n", "", 0);
        check(&["dc", "-e", "[foo", "-e", "p"], &[], "", "foo\n", "", 0);
        check(&["dc", "-e", "? p"], &[], "6 7 *\n", "42\n", "", 0);
    }
}
