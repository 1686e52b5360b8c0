//! `bc [-lqsw] [FILE]...` (GNU bc 1.07): arbitrary-precision calculator.
//! The input is run a line at a time as GNU does (a syntax error skips the
//! rest of its line, a runtime error stops its line). Numbers, scales and
//! `obase` output are in `bc_num`; lines of output wrap at BC_LINE_LENGTH
//! (70) with a backslash. Loops poll the exec's budget, calls are bounded by
//! `max_function_depth`, and results bigger than `max_string_bytes` stop.

pub(crate) mod num;

use num::{lib, to_base, Num};
use crate::commands::util::{Arg, Spec};
use crate::commands::{Command, CommandContext, CommandResult};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Arc;

pub struct Bc;

const SPEC: Spec = Spec::new(
    "lqswiv",
    &[
        ("mathlib", Arg::No, "l"),
        ("quiet", Arg::No, "q"),
        ("standard", Arg::No, "s"),
        ("warn", Arg::No, "w"),
        ("interactive", Arg::No, "i"),
        ("version", Arg::No, "v"),
    ],
    "[options] [file ...]",
);

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum T {
    Num(String),
    Name(String),
    Str(String),
    Op(&'static str),
    Nl,
    Eof,
}

#[derive(Clone, Debug)]
struct Tok {
    t: T,
    line: usize,
}

const OPS: &[&str] = &[
    "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||", "+", "-", "*", "/", "%", "^",
    "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ";",
];

fn is_digit(c: u8) -> bool {
    c.is_ascii_digit() || c.is_ascii_uppercase()
}

/// A character the lexer dropped: the number of tokens before it, its line
/// and itself (GNU reports `illegal character` and skips the line).
type Illegal = (usize, usize, char);

fn lex(src: &[u8]) -> (Vec<Tok>, Vec<Illegal>) {
    let mut toks = Vec::new();
    let mut bad = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < src.len() {
        let c = src[i];
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\\' if src.get(i + 1) == Some(&b'\n') => {
                i += 2;
                line += 1;
            }
            b'\n' => {
                toks.push(Tok { t: T::Nl, line });
                line += 1;
                i += 1;
            }
            b'#' => {
                while i < src.len() && src[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < src.len() && !(src[i] == b'*' && src.get(i + 1) == Some(&b'/')) {
                    if src[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            b'"' => {
                let start_line = line;
                let start = i + 1;
                i += 1;
                while i < src.len() && src[i] != b'"' {
                    if src[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if i >= src.len() {
                    // Unterminated: the quote is dropped, the rest lexed again.
                    bad.push((toks.len(), start_line, '"'));
                    i = start;
                    line = start_line;
                    continue;
                }
                let s = String::from_utf8_lossy(&src[start..i]).into_owned();
                toks.push(Tok { t: T::Str(s), line: start_line });
                i += 1;
            }
            _ if is_digit(c) || (c == b'.' && src.get(i + 1).is_some_and(|&d| is_digit(d))) => {
                let mut s = String::new();
                let mut dot = false;
                while i < src.len() {
                    let d = src[i];
                    if is_digit(d) {
                        s.push(d as char);
                    } else if d == b'.' && !dot {
                        dot = true;
                        s.push('.');
                    } else if d == b'\\' && src.get(i + 1) == Some(&b'\n') {
                        i += 1;
                        line += 1;
                    } else {
                        break;
                    }
                    i += 1;
                }
                toks.push(Tok { t: T::Num(s), line });
            }
            b'.' => {
                toks.push(Tok { t: T::Name("last".into()), line });
                i += 1;
            }
            b'a'..=b'z' => {
                let start = i;
                while i < src.len() && (src[i].is_ascii_lowercase() || src[i].is_ascii_digit() || src[i] == b'_') {
                    i += 1;
                }
                toks.push(Tok { t: T::Name(String::from_utf8_lossy(&src[start..i]).into_owned()), line });
            }
            _ => {
                let op = OPS.iter().find(|op| src[i..].starts_with(op.as_bytes()));
                match op {
                    Some(op) => {
                        toks.push(Tok { t: T::Op(op), line });
                        i += op.len();
                    }
                    None => {
                        let ch = String::from_utf8_lossy(&src[i..(i + 1).min(src.len())]).chars().next().unwrap_or('?');
                        bad.push((toks.len(), line, ch));
                        i += 1;
                    }
                }
            }
        }
    }
    toks.push(Tok { t: T::Eof, line });
    (toks, bad)
}

// ---------------------------------------------------------------------------
// Syntax tree and parser
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum LVal {
    Var(String),
    Elem(String, Box<Expr>),
    Scale,
    Ibase,
    Obase,
    Last,
}

#[derive(Clone, Debug)]
enum CallArg {
    Val(Expr),
    Array(String),
}

#[derive(Clone, Debug)]
enum Expr {
    Const(String),
    Load(LVal),
    Group(Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Assign(LVal, Option<&'static str>, Box<Expr>),
    Pre(LVal, bool),
    Post(LVal, bool),
    Length(Box<Expr>),
    Sqrt(Box<Expr>),
    ScaleOf(Box<Expr>),
    Call(String, Vec<CallArg>),
    Read,
}

#[derive(Clone, Debug)]
enum PItem {
    Str(String),
    Val(Expr),
}

#[derive(Clone, Debug)]
enum Stmt {
    Expr(Expr),
    Str(String),
    Print(Vec<PItem>),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    For(Option<Expr>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Halt,
}

#[derive(Debug)]
struct Func {
    params: Vec<(String, bool)>,
    autos: Vec<(String, bool)>,
    body: Vec<Stmt>,
}

/// Why parsing stopped.
enum PErr {
    /// A syntax error, reported with this line number.
    Syntax(usize),
    /// `quit` was read: stop at once.
    Quit,
    /// The line had errors already reported: do not run it.
    Skip,
    /// The program nests deeper than the parser takes (GNU's bison stack:
    /// `memory exhausted` on this line, and bc stops reading).
    Exhausted(usize),
}

/// Deepest expression tree a program may have. Chains of binary operators
/// (`1+1+...`) are built in loops, so the parser's nesting count never sees
/// them; evaluating, sizing and dropping a tree recurses once per level, and
/// this many levels fit in an 8 MiB stack even in a debug build.
const MAX_TREE_DEPTH: usize = 1000;

type PRes<T> = Result<T, PErr>;

const KEYWORDS: &[&str] = &[
    "if", "else", "while", "for", "break", "continue", "return", "define", "auto", "quit", "halt", "print", "length",
    "sqrt", "scale", "ibase", "obase", "last", "read", "limits", "warranty",
];

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    depth: usize,
    max_depth: usize,
    /// Tree depth of the expression the last expression function returned.
    d: usize,
    /// Enclosing loops and whether inside a function (for `break`/`return`).
    loops: usize,
    in_func: bool,
    /// Errors GNU reports without a syntax error (`Break outside a for/while`):
    /// line and message; the line is not run.
    soft: Vec<(usize, String)>,
}

impl Parser<'_> {
    fn peek(&self) -> &T {
        &self.toks[self.pos.min(self.toks.len() - 1)].t
    }
    fn bump(&mut self) -> T {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn err<X>(&self) -> PRes<X> {
        let tok = &self.toks[self.pos.min(self.toks.len() - 1)];
        if tok.t == T::Name("quit".into()) {
            return Err(PErr::Quit);
        }
        // The lexer has counted the newline it just read.
        let line = if tok.t == T::Nl { tok.line + 1 } else { tok.line };
        Err(PErr::Syntax(line))
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), T::Op(o) if *o == op)
    }
    fn is_name(&self, n: &str) -> bool {
        matches!(self.peek(), T::Name(x) if x == n)
    }
    fn expect(&mut self, op: &str) -> PRes<()> {
        if self.is_op(op) {
            self.bump();
            Ok(())
        } else {
            self.err()
        }
    }
    fn skip_nl(&mut self) {
        while *self.peek() == T::Nl {
            self.bump();
        }
    }
    fn enter(&mut self) -> PRes<()> {
        self.depth += 1;
        // The stack check: a small thread (or a debug build's frames) may
        // hold fewer levels than max_parser_depth.
        if self.depth > self.max_depth || crate::limits::stack_low() {
            return self.exhausted();
        }
        Ok(())
    }
    fn exhausted<X>(&self) -> PRes<X> {
        let tok = &self.toks[self.pos.min(self.toks.len() - 1)];
        Err(PErr::Exhausted(tok.line))
    }
    /// The depth of a node over children at most `d` deep (see [`MAX_TREE_DEPTH`]).
    fn up(&mut self, d: usize) -> PRes<()> {
        if d >= MAX_TREE_DEPTH {
            return self.exhausted();
        }
        self.d = d + 1;
        Ok(())
    }

    /// One statement; `None` for an empty one.
    fn stmt(&mut self, funcs: &mut HashMap<String, Arc<Func>>) -> PRes<Option<Stmt>> {
        self.enter()?;
        let r = self.stmt_inner(funcs);
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self, funcs: &mut HashMap<String, Arc<Func>>) -> PRes<Option<Stmt>> {
        match self.peek().clone() {
            T::Nl | T::Eof => Ok(None),
            T::Op(";") | T::Op("}") => Ok(None),
            T::Str(s) => {
                self.bump();
                Ok(Some(Stmt::Str(s)))
            }
            T::Op("{") => {
                self.bump();
                let body = self.stmt_list(funcs)?;
                self.expect("}")?;
                Ok(Some(Stmt::Block(body)))
            }
            T::Name(n) if n == "quit" => Err(PErr::Quit),
            T::Name(n) if n == "if" => {
                self.bump();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                self.skip_nl();
                let then = self.stmt(funcs)?.unwrap_or(Stmt::Block(Vec::new()));
                let els = if self.is_name("else") {
                    self.bump();
                    self.skip_nl();
                    Some(Box::new(self.stmt(funcs)?.unwrap_or(Stmt::Block(Vec::new()))))
                } else {
                    None
                };
                Ok(Some(Stmt::If(c, Box::new(then), els)))
            }
            T::Name(n) if n == "while" => {
                self.bump();
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                self.skip_nl();
                self.loops += 1;
                let body = self.stmt(funcs);
                self.loops -= 1;
                let body = body?.unwrap_or(Stmt::Block(Vec::new()));
                Ok(Some(Stmt::While(c, Box::new(body))))
            }
            T::Name(n) if n == "for" => {
                self.bump();
                self.expect("(")?;
                let a = if self.is_op(";") { None } else { Some(self.expr()?) };
                self.expect(";")?;
                let b = if self.is_op(";") { None } else { Some(self.expr()?) };
                self.expect(";")?;
                let c = if self.is_op(")") { None } else { Some(self.expr()?) };
                self.expect(")")?;
                self.skip_nl();
                self.loops += 1;
                let body = self.stmt(funcs);
                self.loops -= 1;
                let body = body?.unwrap_or(Stmt::Block(Vec::new()));
                Ok(Some(Stmt::For(a, b, c, Box::new(body))))
            }
            T::Name(n) if n == "break" || n == "continue" => {
                let line = self.toks[self.pos].line;
                self.bump();
                if self.loops == 0 {
                    let m = if n == "break" { "Break outside a for/while" } else { "Continue outside a for" };
                    self.soft.push((line, m.into()));
                }
                Ok(Some(if n == "break" { Stmt::Break } else { Stmt::Continue }))
            }
            T::Name(n) if n == "limits" => {
                self.bump();
                Ok(Some(Stmt::Str(LIMITS.into())))
            }
            T::Name(n) if n == "halt" => {
                self.bump();
                Ok(Some(Stmt::Halt))
            }
            T::Name(n) if n == "return" => {
                self.bump();
                let r = if matches!(self.peek(), T::Nl | T::Eof | T::Op(";") | T::Op("}")) {
                    Stmt::Return(None)
                } else if self.is_op("(") && matches!(self.toks.get(self.pos + 1).map(|t| &t.t), Some(T::Op(")"))) {
                    self.bump();
                    self.bump();
                    Stmt::Return(None)
                } else {
                    Stmt::Return(Some(self.expr()?))
                };
                if !self.in_func {
                    // Reported at the token after the statement, as GNU does.
                    let tok = &self.toks[self.pos.min(self.toks.len() - 1)];
                    let line = if tok.t == T::Nl { tok.line + 1 } else { tok.line };
                    self.soft.push((line, "Return outside of a function.".into()));
                }
                Ok(Some(r))
            }
            T::Name(n) if n == "print" => {
                self.bump();
                let mut items = Vec::new();
                loop {
                    if let T::Str(s) = self.peek().clone() {
                        self.bump();
                        items.push(PItem::Str(s));
                    } else {
                        items.push(PItem::Val(self.expr()?));
                    }
                    if !self.is_op(",") {
                        break;
                    }
                    self.bump();
                }
                Ok(Some(Stmt::Print(items)))
            }
            T::Name(n) if n == "define" => {
                self.bump();
                self.define(funcs)?;
                Ok(None)
            }
            _ => Ok(Some(Stmt::Expr(self.expr()?))),
        }
    }

    /// Statements up to a `}` (not consumed), separated by `;` or newlines.
    fn stmt_list(&mut self, funcs: &mut HashMap<String, Arc<Func>>) -> PRes<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            self.skip_nl();
            if self.is_op("}") {
                return Ok(out);
            }
            if *self.peek() == T::Eof {
                return self.err();
            }
            if let Some(s) = self.stmt(funcs)? {
                out.push(s);
            }
            match self.peek() {
                T::Op(";") | T::Nl => {
                    self.bump();
                }
                T::Op("}") => {}
                _ => return self.err(),
            }
        }
    }

    fn name_list(&mut self) -> PRes<Vec<(String, bool)>> {
        let mut out = Vec::new();
        loop {
            let T::Name(n) = self.peek().clone() else { return self.err() };
            if KEYWORDS.contains(&n.as_str()) {
                return self.err();
            }
            self.bump();
            let arr = if self.is_op("[") {
                self.bump();
                self.expect("]")?;
                true
            } else {
                false
            };
            out.push((n, arr));
            if !self.is_op(",") {
                return Ok(out);
            }
            self.bump();
        }
    }

    fn define(&mut self, funcs: &mut HashMap<String, Arc<Func>>) -> PRes<()> {
        let T::Name(name) = self.peek().clone() else { return self.err() };
        self.bump();
        self.expect("(")?;
        let params = if self.is_op(")") { Vec::new() } else { self.name_list()? };
        self.expect(")")?;
        self.skip_nl();
        self.expect("{")?;
        self.skip_nl();
        let mut autos = Vec::new();
        if self.is_name("auto") {
            self.bump();
            autos = self.name_list()?;
            match self.peek() {
                T::Op(";") | T::Nl => {
                    self.bump();
                }
                _ => return self.err(),
            }
        }
        let (outer_loops, outer_func) = (self.loops, self.in_func);
        self.loops = 0;
        self.in_func = true;
        let body = self.stmt_list(funcs);
        self.loops = outer_loops;
        self.in_func = outer_func;
        let body = body?;
        self.expect("}")?;
        funcs.insert(name, Arc::new(Func { params, autos, body }));
        Ok(())
    }

    fn expr(&mut self) -> PRes<Expr> {
        self.enter()?;
        let r = self.or();
        self.depth -= 1;
        r
    }

    fn or(&mut self) -> PRes<Expr> {
        let mut l = self.and()?;
        let mut d = self.d;
        while self.is_op("||") {
            self.bump();
            let r = self.and()?;
            self.up(d.max(self.d))?;
            d = self.d;
            l = Expr::Or(Box::new(l), Box::new(r));
        }
        self.d = d;
        Ok(l)
    }
    fn and(&mut self) -> PRes<Expr> {
        let mut l = self.not()?;
        let mut d = self.d;
        while self.is_op("&&") {
            self.bump();
            let r = self.not()?;
            self.up(d.max(self.d))?;
            d = self.d;
            l = Expr::And(Box::new(l), Box::new(r));
        }
        self.d = d;
        Ok(l)
    }
    fn not(&mut self) -> PRes<Expr> {
        if self.is_op("!") {
            self.bump();
            self.enter()?;
            let e = self.not();
            self.depth -= 1;
            let e = e?;
            self.up(self.d)?;
            return Ok(Expr::Not(Box::new(e)));
        }
        self.rel()
    }
    fn rel(&mut self) -> PRes<Expr> {
        let mut l = self.assign()?;
        let mut d = self.d;
        loop {
            let op = match self.peek() {
                T::Op(o @ ("<" | "<=" | ">" | ">=" | "==" | "!=")) => *o,
                _ => {
                    self.d = d;
                    return Ok(l);
                }
            };
            self.bump();
            let r = self.assign()?;
            self.up(d.max(self.d))?;
            d = self.d;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }
    fn assign(&mut self) -> PRes<Expr> {
        let l = self.add()?;
        let op = match self.peek() {
            T::Op("=") => None,
            T::Op(o @ ("+=" | "-=" | "*=" | "/=" | "%=" | "^=")) => Some(&o[..1]),
            _ => return Ok(l),
        };
        let Expr::Load(lv) = l else { return self.err() };
        let dl = self.d;
        self.bump();
        self.enter()?;
        let r = self.assign();
        self.depth -= 1;
        let r = r?;
        self.up(dl.max(self.d))?;
        let op = op.map(|o| OPS.iter().copied().find(|x| *x == o).unwrap_or("+"));
        Ok(Expr::Assign(lv, op, Box::new(r)))
    }
    fn add(&mut self) -> PRes<Expr> {
        let mut l = self.mul()?;
        let mut d = self.d;
        loop {
            let op = match self.peek() {
                T::Op(o @ ("+" | "-")) => *o,
                _ => {
                    self.d = d;
                    return Ok(l);
                }
            };
            self.bump();
            let r = self.mul()?;
            self.up(d.max(self.d))?;
            d = self.d;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }
    fn mul(&mut self) -> PRes<Expr> {
        let mut l = self.pow()?;
        let mut d = self.d;
        loop {
            let op = match self.peek() {
                T::Op(o @ ("*" | "/" | "%")) => *o,
                _ => {
                    self.d = d;
                    return Ok(l);
                }
            };
            self.bump();
            let r = self.pow()?;
            self.up(d.max(self.d))?;
            d = self.d;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
        }
    }
    fn pow(&mut self) -> PRes<Expr> {
        let l = self.unary()?;
        if self.is_op("^") {
            let dl = self.d;
            self.bump();
            self.enter()?;
            let r = self.pow();
            self.depth -= 1;
            let r = r?;
            self.up(dl.max(self.d))?;
            return Ok(Expr::Bin("^", Box::new(l), Box::new(r)));
        }
        Ok(l)
    }
    fn unary(&mut self) -> PRes<Expr> {
        if self.is_op("-") {
            self.bump();
            self.enter()?;
            let e = self.unary();
            self.depth -= 1;
            let e = e?;
            self.up(self.d)?;
            return Ok(Expr::Neg(Box::new(e)));
        }
        if self.is_op("!") {
            return self.not();
        }
        if self.is_op("++") || self.is_op("--") {
            let inc = self.is_op("++");
            self.bump();
            if !matches!(self.peek(), T::Name(_)) {
                return self.err();
            }
            let Expr::Load(lv) = self.primary()? else { return self.err() };
            self.up(self.d)?;
            return Ok(Expr::Pre(lv, inc));
        }
        let p = self.primary()?;
        if let Expr::Load(lv) = &p {
            if self.is_op("++") || self.is_op("--") {
                let inc = self.is_op("++");
                self.bump();
                self.up(self.d)?;
                return Ok(Expr::Post(lv.clone(), inc));
            }
        }
        Ok(p)
    }
    fn primary(&mut self) -> PRes<Expr> {
        // Leaves; a node over children sets its own depth below.
        self.d = 1;
        match self.bump() {
            T::Num(s) => Ok(Expr::Const(s)),
            T::Op("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                self.up(self.d)?;
                Ok(match e {
                    Expr::Assign(..) => Expr::Group(Box::new(e)),
                    e => e,
                })
            }
            T::Name(n) => match n.as_str() {
                "scale" if self.is_op("(") => {
                    self.bump();
                    let e = self.expr()?;
                    self.expect(")")?;
                    self.up(self.d)?;
                    Ok(Expr::ScaleOf(Box::new(e)))
                }
                "length" | "sqrt" => {
                    self.expect("(")?;
                    let e = Box::new(self.expr()?);
                    self.expect(")")?;
                    self.up(self.d)?;
                    Ok(if n == "length" { Expr::Length(e) } else { Expr::Sqrt(e) })
                }
                "read" => {
                    self.expect("(")?;
                    self.expect(")")?;
                    Ok(Expr::Read)
                }
                "scale" => Ok(Expr::Load(LVal::Scale)),
                "ibase" => Ok(Expr::Load(LVal::Ibase)),
                "obase" => Ok(Expr::Load(LVal::Obase)),
                "last" => Ok(Expr::Load(LVal::Last)),
                "quit" => Err(PErr::Quit),
                k if KEYWORDS.contains(&k) => {
                    self.pos -= 1;
                    self.err()
                }
                _ => {
                    if self.is_op("[") {
                        self.bump();
                        let i = self.expr()?;
                        self.expect("]")?;
                        self.up(self.d)?;
                        return Ok(Expr::Load(LVal::Elem(n, Box::new(i))));
                    }
                    if self.is_op("(") {
                        self.bump();
                        let mut args = Vec::new();
                        let mut d = 0;
                        if !self.is_op(")") {
                            loop {
                                let arr = matches!(self.peek(), T::Name(_))
                                    && matches!(self.toks.get(self.pos + 1).map(|t| &t.t), Some(T::Op("[")))
                                    && matches!(self.toks.get(self.pos + 2).map(|t| &t.t), Some(T::Op("]")));
                                if arr {
                                    let T::Name(a) = self.bump() else { return self.err() };
                                    self.bump();
                                    self.bump();
                                    args.push(CallArg::Array(a));
                                } else {
                                    args.push(CallArg::Val(self.expr()?));
                                    d = d.max(self.d);
                                }
                                if !self.is_op(",") {
                                    break;
                                }
                                self.bump();
                            }
                        }
                        self.expect(")")?;
                        self.up(d)?;
                        return Ok(Expr::Call(n, args));
                    }
                    Ok(Expr::Load(LVal::Var(n)))
                }
            },
            _ => {
                self.pos -= 1;
                self.err()
            }
        }
    }
}

/// What `limits` prints (GNU bc 1.07.1 on 64-bit Linux).
const LIMITS: &str = "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\n\
                      BC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n";

// ---------------------------------------------------------------------------
// Interpreter
// ---------------------------------------------------------------------------

/// Why execution of a line stopped early.
enum Flow {
    Break,
    Continue,
    Return(Num),
    /// A runtime error (message already printed) or the budget ran out.
    Abort,
    Halt,
}

type XRes<T> = Result<T, Flow>;

type Array = HashMap<u64, Num>;

/// Most digits a bc number may have here.
const MAX_DIGITS: usize = 200_000;

/// Largest array index (BC_DIM_MAX).
const DIM_MAX: u64 = 16_777_215;

struct Machine<'c, 'x> {
    ctx: &'c CommandContext<'x>,
    vars: HashMap<String, Num>,
    arrays: HashMap<String, Array>,
    funcs: HashMap<String, Arc<Func>>,
    scale: usize,
    ibase: u64,
    obase: u64,
    last: Num,
    out: Vec<u8>,
    /// Output and messages not yet written, in the order they came.
    pending: Vec<(bool, Vec<u8>)>,
    col: usize,
    line_size: usize,
    /// Names of the functions being run (for error messages).
    frames: Vec<String>,
    /// Operations evaluated in this line (stands in for GNU's code address).
    adr: usize,
    steps: u64,
    max_digits: usize,
    stopped: bool,
    /// `-l`: s, c, a, l, e and j are defined.
    mathlib: bool,
}

impl Machine<'_, '_> {
    fn ok(&mut self) -> bool {
        self.steps += 1;
        if self.steps & 255 == 0 && !self.ctx.still_running() {
            self.stopped = true;
        }
        !self.stopped
    }

    /// One turn of a `while`/`for`: counted against the exec's total loop
    /// budget like the shell's own loops; past it, bc stops with the reason.
    fn loop_turn(&mut self) -> XRes<()> {
        if self.stopped {
            return Err(Flow::Abort);
        }
        if let Err(stop) = self.ctx.budget.tick_loop(0) {
            self.stopped = true;
            let m = format!("bc: {stop}\n");
            self.note_err(m.as_bytes());
            return Err(Flow::Abort);
        }
        Ok(())
    }

    fn where_(&self) -> String {
        let f = self.frames.last().map_or("(main)".to_string(), |s| s.clone());
        format!("(func={f}, adr={})", self.adr)
    }
    fn rt_error(&mut self, msg: &str) -> Flow {
        let m = format!("Runtime error {}: {msg}\n", self.where_());
        self.note_err(m.as_bytes());
        Flow::Abort
    }
    fn rt_warn(&mut self, msg: &str) {
        let m = format!("Runtime warning {}: {msg}\n", self.where_());
        self.note_err(m.as_bytes());
    }

    /// bc's out_char: wrap lines at `line_size - 1` columns with `\`.
    fn out_char(&mut self, c: u8) {
        if c == b'\n' {
            self.col = 0;
            self.out.push(b'\n');
            return;
        }
        self.col += 1;
        if self.line_size > 0 && self.col == self.line_size - 1 {
            self.out.extend_from_slice(b"\\\n");
            self.col = 1;
        }
        self.out.push(c);
    }
    fn out_str(&mut self, s: &[u8]) {
        for &c in s {
            self.out_char(c);
        }
    }
    fn out_num(&mut self, n: &Num) {
        let s = to_base(n, self.obase);
        self.out_str(s.as_bytes());
    }

    /// A constant in the current `ibase` (GNU's push_constant rules).
    fn constant(&self, text: &str) -> Num {
        if self.ibase == 10 && text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Num::parse10(text);
        }
        let base = self.ibase as i64;
        let val = |c: char| c.to_digit(36).unwrap_or(0) as i64;
        let (ip, fp) = text.split_once('.').unwrap_or((text, ""));
        let mut build = Num::default();
        let ichars: Vec<char> = ip.chars().collect();
        for &c in &ichars {
            let mut d = val(c);
            // A lone digit keeps its value; in longer numbers digits clamp.
            if ichars.len() > 1 && d >= base {
                d = base - 1;
            }
            build = build.mul(&Num::int(base), 0).add(&Num::int(d));
        }
        if !fp.is_empty() || text.contains('.') {
            let mut result = Num::default();
            let mut divisor = Num::int(1);
            let mut digits = 0;
            for c in fp.chars() {
                let d = val(c).min(base - 1);
                result = result.mul(&Num::int(base), 0).add(&Num::int(d));
                divisor = divisor.mul(&Num::int(base), 0);
                digits += 1;
            }
            let frac = result.div(&divisor, digits).unwrap_or_default();
            build = build.add(&frac);
        }
        build
    }

    fn check_size(&mut self, n: &Num) -> XRes<()> {
        self.check_digits(n.v.digit_count())
    }

    /// Refuse an operation whose result would pass MAX_DIGITS, before doing it.
    fn check_digits(&mut self, digits: usize) -> XRes<()> {
        if digits > self.max_digits {
            return Err(self.rt_error("number too large"));
        }
        Ok(())
    }

    fn index(&mut self, name: &str, e: &Expr) -> XRes<u64> {
        let v = self.eval(e)?;
        self.check_index(name, &v)
    }

    /// An array subscript in range, or GNU's runtime error.
    fn check_index(&mut self, name: &str, v: &Num) -> XRes<u64> {
        match v.to_i64() {
            Some(i) if (0..=DIM_MAX as i64).contains(&i) => Ok(i as u64),
            _ => Err(self.rt_error(&format!("Array {name} subscript out of bounds."))),
        }
    }

    fn load(&mut self, lv: &LVal) -> XRes<Num> {
        Ok(match lv {
            LVal::Var(n) => self.vars.get(n).cloned().unwrap_or_default(),
            LVal::Elem(n, i) => {
                let i = self.index(n, i)?;
                self.arrays.get(n).and_then(|a| a.get(&i)).cloned().unwrap_or_default()
            }
            LVal::Scale => Num::int(self.scale as i64),
            LVal::Ibase => Num::int(self.ibase as i64),
            LVal::Obase => Num::int(self.obase as i64),
            LVal::Last => self.last.clone(),
        })
    }

    fn store(&mut self, lv: &LVal, v: Num) -> XRes<()> {
        match lv {
            LVal::Var(n) => {
                self.vars.insert(n.clone(), v);
            }
            LVal::Elem(n, i) => {
                let i = self.index(n, i)?;
                self.arrays.entry(n.clone()).or_default().insert(i, v);
            }
            LVal::Scale => {
                let mut sc = v.to_i64().unwrap_or(i64::MAX);
                if sc < 0 {
                    self.rt_warn("negative scale, set to 0");
                    sc = 0;
                }
                self.scale = (sc as usize).min(self.max_digits);
            }
            LVal::Ibase => {
                let b = v.to_i64().unwrap_or(i64::MAX);
                self.ibase = if b < 2 {
                    self.rt_warn("ibase too small, set to 2");
                    2
                } else if b > 36 {
                    self.rt_warn("ibase too large, set to 36");
                    36
                } else {
                    b as u64
                };
            }
            LVal::Obase => {
                let b = v.to_i64().unwrap_or(i64::MAX);
                self.obase = if b < 2 {
                    self.rt_warn("obase too small, set to 2");
                    2
                } else if b > 2_147_483_647 {
                    self.rt_warn("obase too large, set to 2147483647");
                    2_147_483_647
                } else {
                    b as u64
                };
            }
            LVal::Last => self.last = v,
        }
        Ok(())
    }

    fn binop(&mut self, op: &str, a: &Num, b: &Num) -> XRes<Num> {
        match op {
            "*" => self.check_digits(a.v.digit_count() + b.v.digit_count())?,
            "/" | "%" => self.check_digits(a.v.digit_count() + b.s + self.scale)?,
            _ => {}
        }
        let r = match op {
            "+" => a.add(b),
            "-" => a.sub(b),
            "*" => a.mul(b, self.scale),
            "/" => match a.div(b, self.scale) {
                Some(r) => r,
                None => return Err(self.rt_error("Divide by zero")),
            },
            "%" => match a.modulo(b, self.scale) {
                Some(r) => r,
                None => return Err(self.rt_error("Modulo by zero")),
            },
            "^" => {
                if b.s > 0 && !b.sub(&b.trunc()).is_zero() {
                    self.rt_warn("non-zero scale in exponent");
                }
                let Some(e) = b.to_i64() else {
                    return Err(self.rt_error("exponent too large in raise"));
                };
                // Refuse results that could not fit the string limit.
                // Digits of the result (|a| < 1 or = 1 stays small).
                let digits = (a.v.digit_count() as u128) * u128::from(e.unsigned_abs());
                let small = a.trunc().is_zero() || a.v.abs() == Num::int(1).rescale(a.s).v;
                if digits > self.max_digits as u128 && !small {
                    return Err(self.rt_error("exponent too large in raise"));
                }
                let scale = self.scale;
                let mut stop = false;
                let r = {
                    let ctx = self.ctx;
                    let mut n = 0u32;
                    a.pow(e, scale, &mut || {
                        n += 1;
                        if n & 63 == 0 && !ctx.still_running() {
                            stop = true;
                        }
                        !stop
                    })
                };
                match r {
                    Some(r) => r,
                    None if stop => {
                        self.stopped = true;
                        return Err(Flow::Abort);
                    }
                    None => return Err(self.rt_error("Divide by zero")),
                }
            }
            _ => {
                let ord = a.cmp(b);
                let t = match op {
                    "<" => ord.is_lt(),
                    "<=" => ord.is_le(),
                    ">" => ord.is_gt(),
                    ">=" => ord.is_ge(),
                    "==" => ord.is_eq(),
                    _ => ord.is_ne(),
                };
                Num::int(i64::from(t))
            }
        };
        self.check_size(&r)?;
        Ok(r)
    }

    /// GNU bc's byte code size of a constant (`adr` in runtime messages):
    /// `0` and `1` have opcodes of their own, others are `K<digits>:` with
    /// the leading zeros the scanner drops.
    fn const_code_len(text: &str) -> usize {
        if text == "0" || text == "1" {
            return 1;
        }
        let t = text.trim_start_matches('0');
        (if t.is_empty() { 1 } else { t.len() }) + 2
    }

    /// The byte code size of `e` (what `eval` adds to `adr` when every part runs).
    fn expr_len(e: &Expr) -> usize {
        let idx = |lv: &LVal| if let LVal::Elem(_, i) = lv { Self::expr_len(i) } else { 0 };
        match e {
            Expr::Const(s) => Self::const_code_len(s),
            Expr::Load(lv) => idx(lv) + 2,
            Expr::Group(e) => Self::expr_len(e),
            Expr::Neg(e) | Expr::Not(e) => Self::expr_len(e) + 1,
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Bin(_, a, b) => Self::expr_len(a) + Self::expr_len(b) + 1,
            Expr::Assign(lv, op, r) => idx(lv) + if op.is_some() { 3 } else { 0 } + Self::expr_len(r) + 2,
            Expr::Pre(lv, _) | Expr::Post(lv, _) => idx(lv) + 4,
            Expr::Length(e) | Expr::Sqrt(e) | Expr::ScaleOf(e) => Self::expr_len(e) + 2,
            Expr::Call(_, args) => {
                args.iter().map(|a| if let CallArg::Val(e) = a { Self::expr_len(e) } else { 0 }).sum::<usize>() + 3
            }
            Expr::Read => 2,
        }
    }

    /// The byte code size of a statement: conditions jump with 3-byte
    /// instructions, loops jump back, `for` jumps around its step.
    fn stmt_len(s: &Stmt) -> usize {
        let opt = |e: &Option<Expr>, none: usize| e.as_ref().map_or(none, |e| Self::expr_len(e) + 1);
        match s {
            Stmt::Expr(e) => Self::expr_len(e) + 1,
            Stmt::Str(t) => t.len() + 2,
            Stmt::Print(items) => items
                .iter()
                .map(|i| match i {
                    PItem::Str(t) => t.len() + 2,
                    PItem::Val(e) => Self::expr_len(e) + 1,
                })
                .sum(),
            Stmt::Block(b) => b.iter().map(Self::stmt_len).sum(),
            Stmt::If(c, t, e) => {
                Self::expr_len(c) + 3 + Self::stmt_len(t) + e.as_ref().map_or(0, |e| 3 + Self::stmt_len(e))
            }
            Stmt::While(c, b) => Self::expr_len(c) + 3 + Self::stmt_len(b) + 3,
            Stmt::For(a, c, st, b) => {
                let cond = c.as_ref().map_or(1, Self::expr_len);
                opt(a, 0) + cond + 6 + opt(st, 0) + 3 + Self::stmt_len(b) + 3
            }
            Stmt::Break | Stmt::Continue => 3,
            Stmt::Return(e) => e.as_ref().map_or(1, Self::expr_len) + 1,
            Stmt::Halt => 1,
        }
    }

    /// Evaluate `e`. `adr` grows by each operation's byte code size (GNU's
    /// code layout: operands first, then the operator), so runtime messages
    /// name the same address as GNU's.
    fn eval(&mut self, e: &Expr) -> XRes<Num> {
        if !self.ok() {
            return Err(Flow::Abort);
        }
        // Trees are at most MAX_TREE_DEPTH deep, but function calls nest
        // evaluations (at most max_function_depth): when the stack runs low,
        // go on on a fresh segment.
        if crate::limits::stack_low() {
            return stacker::grow(4 << 20, || self.eval(e));
        }
        match e {
            Expr::Const(s) => {
                self.adr += Self::const_code_len(s);
                Ok(self.constant(s))
            }
            Expr::Load(lv) => {
                let v = self.load(lv)?;
                self.adr += 2;
                Ok(v)
            }
            Expr::Group(e) => self.eval(e),
            Expr::Neg(e) => {
                let v = self.eval(e)?;
                self.adr += 1;
                Ok(v.neg())
            }
            Expr::Not(e) => {
                let v = self.eval(e)?;
                self.adr += 1;
                Ok(Num::int(i64::from(v.is_zero())))
            }
            Expr::And(a, b) => {
                let t = !self.eval(a)?.is_zero() && !self.eval(b)?.is_zero();
                self.adr += 1;
                Ok(Num::int(i64::from(t)))
            }
            Expr::Or(a, b) => {
                let t = !self.eval(a)?.is_zero() || !self.eval(b)?.is_zero();
                self.adr += 1;
                Ok(Num::int(i64::from(t)))
            }
            Expr::Bin(op, a, b) => {
                let a = self.eval(a)?;
                let b = self.eval(b)?;
                self.adr += 1;
                self.binop(op, &a, &b)
            }
            Expr::Assign(lv, op, r) => {
                // An element's index runs first, once (GNU's code order).
                // (Its range is checked at the store, as GNU does.)
                let elem = match lv {
                    LVal::Elem(n, ie) => Some((n, self.eval(ie)?)),
                    _ => None,
                };
                if op.is_some() {
                    // The old value is loaded before the right side runs.
                    self.adr += 2;
                }
                let rv = self.eval(r)?;
                let v = match op {
                    None => rv,
                    Some(op) => {
                        let cur = match &elem {
                            Some((n, iv)) => {
                                let i = self.check_index(n, iv)?;
                                self.arrays.get(*n).and_then(|a| a.get(&i)).cloned().unwrap_or_default()
                            }
                            None => self.load(lv)?,
                        };
                        self.adr += 1;
                        self.binop(op, &cur, &rv)?
                    }
                };
                self.adr += 2;
                match elem {
                    Some((n, iv)) => {
                        let i = self.check_index(n, &iv)?;
                        self.arrays.entry(n.clone()).or_default().insert(i, v.clone());
                    }
                    None => self.store(lv, v.clone())?,
                }
                Ok(v)
            }
            Expr::Pre(lv, inc) | Expr::Post(lv, inc) => {
                self.adr += 4;
                let cur = self.load(lv)?;
                let next = if *inc { cur.add(&Num::int(1)) } else { cur.sub(&Num::int(1)) };
                self.store(lv, next.clone())?;
                Ok(if matches!(e, Expr::Pre(..)) { next } else { cur })
            }
            Expr::Length(e) => {
                let v = self.eval(e)?;
                self.adr += 2;
                Ok(Num::int(v.length() as i64))
            }
            Expr::ScaleOf(e) => {
                let v = self.eval(e)?;
                self.adr += 2;
                Ok(Num::int(v.s as i64))
            }
            Expr::Sqrt(e) => {
                let v = self.eval(e)?;
                self.adr += 2;
                if v.is_neg() {
                    return Err(self.rt_error("Square root of a negative number"));
                }
                let r = v.sqrt(self.scale);
                self.check_size(&r)?;
                Ok(r)
            }
            Expr::Read => Ok(Num::default()),
            Expr::Call(name, args) => self.call(name, args),
        }
    }

    fn call(&mut self, name: &str, args: &[CallArg]) -> XRes<Num> {
        let Some(f) = self.funcs.get(name).cloned() else {
            if let Some(r) = self.builtin_lib(name, args)? {
                return Ok(r);
            }
            return Err(self.rt_error(&format!("Function {name} not defined.")));
        };
        if f.params.len() != args.len() {
            return Err(self.rt_error("Parameter number mismatch"));
        }
        if self.frames.len() as u64 >= self.ctx.budget.limits.max_function_depth {
            return Err(self.rt_error("function call nesting too deep"));
        }
        // Evaluate the arguments before any parameter shadows a name.
        let mut vals: Vec<Result<Num, Array>> = Vec::new();
        for ((_, is_arr), a) in f.params.iter().zip(args) {
            match (is_arr, a) {
                (false, CallArg::Val(e)) => vals.push(Ok(self.eval(e)?)),
                (true, CallArg::Array(n)) => vals.push(Err(self.arrays.get(n).cloned().unwrap_or_default())),
                (true, _) => {
                    self.rt_error(&format!("Parameter type mismatch parameter {}.", f.params[vals.len()].0));
                    return Err(self.rt_error("Parameter number mismatch"));
                }
                (false, _) => {
                    self.rt_error("Parameter type mismatch, parameter (null).");
                    return Err(self.rt_error("Parameter number mismatch"));
                }
            }
        }
        // Dynamic scoping: save what the names held, restore on return.
        let mut saved_vars = Vec::new();
        let mut saved_arrays = Vec::new();
        for ((n, is_arr), v) in f.params.iter().zip(vals) {
            match v {
                Ok(num) => saved_vars.push((n.clone(), self.vars.insert(n.clone(), num))),
                Err(arr) => {
                    let _ = is_arr;
                    saved_arrays.push((n.clone(), self.arrays.insert(n.clone(), arr)))
                }
            }
        }
        for (n, is_arr) in &f.autos {
            if *is_arr {
                saved_arrays.push((n.clone(), self.arrays.insert(n.clone(), Array::new())));
            } else {
                saved_vars.push((n.clone(), self.vars.insert(n.clone(), Num::default())));
            }
        }
        self.frames.push(name.to_string());
        // A function's code has addresses of its own.
        let caller_adr = std::mem::replace(&mut self.adr, 0);
        let r = self.block(&f.body);
        self.adr = caller_adr + 3;
        self.frames.pop();
        for (n, old) in saved_vars.into_iter().rev() {
            match old {
                Some(v) => self.vars.insert(n, v),
                None => self.vars.remove(&n),
            };
        }
        for (n, old) in saved_arrays.into_iter().rev() {
            match old {
                Some(v) => self.arrays.insert(n, v),
                None => self.arrays.remove(&n),
            };
        }
        match r {
            Ok(()) | Err(Flow::Break) | Err(Flow::Continue) => Ok(Num::default()),
            Err(Flow::Return(v)) => Ok(v),
            Err(f) => Err(f),
        }
    }

    /// The `-l` functions, when loaded and not redefined by the script.
    fn builtin_lib(&mut self, name: &str, args: &[CallArg]) -> XRes<Option<Num>> {
        if !self.mathlib || !["s", "c", "a", "l", "e", "j"].contains(&name) {
            return Ok(None);
        }
        let want = if name == "j" { 2 } else { 1 };
        if args.len() != want {
            return Err(self.rt_error("Parameter number mismatch"));
        }
        let mut vals = Vec::new();
        for a in args {
            match a {
                CallArg::Val(e) => vals.push(self.eval(e)?),
                CallArg::Array(_) => return Err(self.rt_error("Parameter type mismatch")),
            }
        }
        let scale = self.scale;
        let ctx = self.ctx;
        let mut n = 0u32;
        let mut stop = false;
        let mut ok = || {
            n += 1;
            if n & 63 == 0 && !ctx.still_running() {
                stop = true;
            }
            !stop
        };
        let r = match name {
            "s" => lib::s(&vals[0], scale, &mut ok),
            "c" => lib::cos(&vals[0], scale, &mut ok),
            "a" => lib::a(&vals[0], scale, &mut ok),
            "l" => lib::l(&vals[0], scale, &mut ok),
            "e" => lib::e(&vals[0], scale, &mut ok),
            _ => lib::j(&vals[0], &vals[1], scale, &mut ok),
        };
        if stop {
            self.stopped = true;
            return Err(Flow::Abort);
        }
        Ok(Some(r))
    }

    fn block(&mut self, body: &[Stmt]) -> XRes<()> {
        for s in body {
            self.exec(s)?;
        }
        Ok(())
    }

    fn exec(&mut self, s: &Stmt) -> XRes<()> {
        match s {
            Stmt::Expr(e) => {
                let v = self.eval(e)?;
                // `p` (pop) after an assignment, `W` (write) otherwise.
                self.adr += 1;
                if !matches!(e, Expr::Assign(..)) {
                    self.out_num(&v);
                    self.out_char(b'\n');
                    self.last = v;
                }
            }
            Stmt::Str(t) => {
                self.out_str(t.as_bytes());
                self.adr += t.len() + 2;
            }
            Stmt::Print(items) => {
                for it in items {
                    match it {
                        PItem::Str(s) => {
                            self.adr += s.len() + 2;
                            let mut chars = s.bytes();
                            while let Some(c) = chars.next() {
                                if c != b'\\' {
                                    self.out_char(c);
                                    continue;
                                }
                                match chars.next() {
                                    Some(b'a') => self.out_char(7),
                                    Some(b'b') => self.out_char(8),
                                    Some(b'f') => self.out_char(12),
                                    Some(b'n') => self.out_char(b'\n'),
                                    Some(b'r') => self.out_char(b'\r'),
                                    Some(b'q') => self.out_char(b'"'),
                                    Some(b't') => self.out_char(b'\t'),
                                    Some(b'\\') => self.out_char(b'\\'),
                                    Some(_) | None => {}
                                }
                            }
                        }
                        PItem::Val(e) => {
                            let v = self.eval(e)?;
                            self.adr += 1;
                            self.out_num(&v);
                            self.last = v;
                        }
                    }
                }
            }
            Stmt::Block(b) => self.block(b)?,
            // `adr` follows GNU's code layout: each part of a conditional or a
            // loop sits at a fixed address, however often it runs.
            Stmt::If(c, t, e) => {
                let start = self.adr;
                let cond = !self.eval(c)?.is_zero();
                self.adr += 3;
                if cond {
                    self.exec(t)?;
                } else if let Some(e) = e {
                    self.adr = start + Self::expr_len(c) + 3 + Self::stmt_len(t) + 3;
                    self.exec(e)?;
                }
                self.adr = start + Self::stmt_len(s);
            }
            Stmt::While(c, body) => {
                let start = self.adr;
                loop {
                    self.loop_turn()?;
                    self.adr = start;
                    let stop = self.eval(c)?.is_zero();
                    self.adr += 3;
                    if stop {
                        break;
                    }
                    match self.exec(body) {
                        Ok(()) | Err(Flow::Continue) => {}
                        Err(Flow::Break) => break,
                        Err(f) => return Err(f),
                    }
                }
                self.adr = start + Self::stmt_len(s);
            }
            Stmt::For(a, c, step, body) => {
                let start = self.adr;
                if let Some(a) = a {
                    self.eval(a)?;
                    self.adr += 1;
                }
                let cond_at = self.adr;
                let cond_len = c.as_ref().map_or(1, Self::expr_len);
                let step_at = cond_at + cond_len + 6;
                let body_at = step_at + step.as_ref().map_or(0, |e| Self::expr_len(e) + 1) + 3;
                loop {
                    self.loop_turn()?;
                    self.adr = cond_at;
                    if let Some(c) = c {
                        if self.eval(c)?.is_zero() {
                            break;
                        }
                    }
                    self.adr = body_at;
                    match self.exec(body) {
                        Ok(()) | Err(Flow::Continue) => {}
                        Err(Flow::Break) => break,
                        Err(f) => return Err(f),
                    }
                    if let Some(st) = step {
                        self.adr = step_at;
                        self.eval(st)?;
                    }
                }
                self.adr = start + Self::stmt_len(s);
            }
            Stmt::Break => return Err(Flow::Break),
            Stmt::Continue => return Err(Flow::Continue),
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Num::default(),
                };
                return Err(Flow::Return(v));
            }
            Stmt::Halt => return Err(Flow::Halt),
        }
        Ok(())
    }

    /// A message for stderr, kept in order after the output before it.
    fn note_err(&mut self, msg: &[u8]) {
        if !self.out.is_empty() {
            let o = std::mem::take(&mut self.out);
            self.pending.push((false, o));
        }
        self.pending.push((true, msg.to_vec()));
    }

    async fn flush(&mut self) -> Result<(), crate::io::IoError> {
        for (is_err, bytes) in std::mem::take(&mut self.pending) {
            if is_err {
                self.ctx.stderr.write(&bytes).await?;
            } else {
                self.ctx.out(&bytes).await?;
            }
        }
        if !self.out.is_empty() {
            let o = std::mem::take(&mut self.out);
            self.ctx.out(&o).await?;
        }
        Ok(())
    }
}

/// Run one source (a file or stdin); `Ok(false)` when `quit`/`halt` ended bc.
async fn run_source(m: &mut Machine<'_, '_>, src: &[u8], label: &str) -> Result<bool, crate::io::IoError> {
    let (toks, illegal) = lex(src);
    let mut illegal = illegal.into_iter().peekable();
    let max_depth = usize::try_from(m.ctx.budget.limits.max_parser_depth).unwrap_or(200);
    let mut p = Parser { toks: &toks, pos: 0, depth: 0, max_depth, d: 0, loops: 0, in_func: false, soft: Vec::new() };
    loop {
        if *p.peek() == T::Eof {
            return Ok(true);
        }
        // One input line: statements up to a newline outside braces.
        let mut funcs = std::mem::take(&mut m.funcs);
        let mut line: Vec<Stmt> = Vec::new();
        let res: PRes<()> = (|| loop {
            if let Some(s) = p.stmt(&mut funcs)? {
                line.push(s);
            }
            match p.peek() {
                T::Op(";") => {
                    p.bump();
                }
                T::Nl => {
                    p.bump();
                    return Ok(());
                }
                T::Eof => return Ok(()),
                _ => return p.err(),
            }
        })();
        m.funcs = funcs;
        // Characters the lexer dropped in this line: reported, and the line
        // is not run.
        let mut line_bad = false;
        while let Some(&(at, n, c)) = illegal.peek() {
            if at > p.pos {
                break;
            }
            m.note_err(format!("{label} {n}: illegal character: {c}\n").as_bytes());
            line_bad = true;
            illegal.next();
        }
        for (n, msg) in p.soft.drain(..) {
            m.note_err(format!("{label} {n}: {msg}\n").as_bytes());
            line_bad = true;
        }
        let res = if line_bad && res.is_ok() { Err(PErr::Skip) } else { res };
        match res {
            Err(PErr::Skip) => {}
            Err(PErr::Quit) => return Ok(false),
            Err(PErr::Exhausted(n)) => {
                m.note_err(format!("{label} {n}: memory exhausted\n").as_bytes());
                m.flush().await?;
                return Ok(false);
            }
            Err(PErr::Syntax(n)) => {
                m.note_err(format!("{label} {n}: syntax error\n").as_bytes());
                // Skip to the end of the line.
                while !matches!(p.peek(), T::Nl | T::Eof) {
                    p.bump();
                }
                p.bump();
                p.depth = 0;
                while let Some(&(at, n, c)) = illegal.peek() {
                    if at > p.pos {
                        break;
                    }
                    m.note_err(format!("{label} {n}: illegal character: {c}\n").as_bytes());
                    illegal.next();
                }
            }
            Ok(()) => {
                m.adr = 0;
                for s in &line {
                    match m.exec(s) {
                        Ok(()) => {}
                        Err(Flow::Halt) => {
                            m.flush().await?;
                            return Ok(false);
                        }
                        Err(_) => break,
                    }
                }
            }
        }
        m.flush().await?;
        if m.stopped {
            return Ok(false);
        }
    }
}

#[async_trait]
impl Command for Bc {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        if p.has("v") {
            ctx.out(b"bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n").await?;
            return Ok(0);
        }
        let line_size = match ctx.env.get("BC_LINE_LENGTH").and_then(|v| v.trim().parse::<i64>().ok()) {
            Some(0) => 0,
            Some(n) if n >= 3 => n as usize,
            _ => 70,
        };
        // Schoolbook arithmetic is quadratic: keep numbers where a product
        // takes well under a second.
        let max_digits = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX).min(MAX_DIGITS);
        let mut m = Machine {
            ctx,
            vars: HashMap::new(),
            arrays: HashMap::new(),
            funcs: HashMap::new(),
            scale: 0,
            ibase: 10,
            obase: 10,
            last: Num::default(),
            out: Vec::new(),
            pending: Vec::new(),
            col: 0,
            line_size,
            frames: Vec::new(),
            adr: 0,
            steps: 0,
            max_digits,
            stopped: false,
            mathlib: false,
        };
        if p.has("l") {
            m.scale = 20;
            m.mathlib = true;
        }
        for f in &p.operands {
            let src = match ctx.read_operand(f).await {
                Ok(s) => s,
                Err(e) => {
                    ctx.err(format!("File {f} is unavailable.")).await?;
                    let _ = e;
                    return Ok(1);
                }
            };
            if !run_source(&mut m, &src, f).await? {
                return Ok(i32::from(m.stopped));
            }
        }
        let src = match ctx.read_stdin().await {
            Ok(s) => s,
            Err(_) => return Ok(1),
        };
        run_source(&mut m, &src, "(standard_in)").await?;
        // A budget stop is not bc's own success.
        Ok(i32::from(m.stopped))
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    fn bc(script: &str, out: &str) {
        check(&["bc"], &[], script, out, "", 0);
    }

    /// A tree deeper than MAX_TREE_DEPTH (`1+1+...` is built in a loop) ends
    /// bc as GNU's parser stack does: `memory exhausted`, nothing more read.
    #[test]
    fn long_operator_chains_are_bounded() {
        let within = format!("{}1\n", "1+".repeat(super::MAX_TREE_DEPTH - 1));
        bc(&within, &format!("{}\n", super::MAX_TREE_DEPTH));
        for chain in ["1+", "1*", "1&&", "1<", "a=", "2^", "- ", "!", "("] {
            let script = format!("{}1\n2+2\n", chain.repeat(100_000));
            check(&["bc"], &[], &script, "", "(standard_in) 1: memory exhausted\n", 0);
        }
    }
    fn bcl(script: &str, out: &str) {
        check(&["bc", "-l"], &[], script, out, "", 0);
    }

    #[test]
    fn arithmetic_and_scale() {
        bc(
            "2^300\n",
            "20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n",
        );
        bc("0.00\n", "0\n");
        bc("-0.5\n", "-.5\n");
        bc("1.50\n", "1.50\n");
        bc("scale=3; 1/3\n", ".333\n");
        bc("10/3\n", "3\n");
        bc("1.5*1.25\n", "1.87\n");
        bc("scale=1; 1.55*1.55\n", "2.40\n");
        bc("7%3\n", "1\n");
        bc("scale=2; 7%3\n", ".01\n");
        bc("-7%3\n", "-1\n");
        bc("2^-2\n", "0\n");
        bc("scale=5; 2^-2\n", ".25000\n");
        bc("1.5^3\n", "3.3\n");
        bc("sqrt(2)\n", "1\n");
        bc("scale=10; sqrt(2)\n", "1.4142135623\n");
        bc("-2^2\n", "4\n");
        bc("length(123.45); length(0); length(0.001); scale(1.230)\n", "5\n1\n3\n3\n");
        bc("length(0.0); length(0.10); length(10.0); length(000.5); length(-12)\n", "1\n2\n3\n1\n2\n");
        bc("scale=2; 1/3; last; .\n", ".33\n.33\n.33\n");
    }

    #[test]
    fn bases() {
        bc("obase=16; 255; -255.5; 0.5\n", "FF\n-FF.8\n.8\n");
        bc("obase=2; 10\n", "1010\n");
        bc("obase=20; 12345.67\n", " 01 10 17 05.13 08\n");
        bc("ibase=16; FF; A\n", "255\n10\n");
        bc("ibase=2; A; 12; 1.1\n", "10\n3\n1.5\n");
        bc("ibase=16; 1.8; .F\n", "1.5\n.9\n");
        bc("obase=16; 10.25\n", "A.40\n");
    }

    #[test]
    fn statements() {
        bc("x=5; x++; x; ++x; x--; x\n", "5\n6\n7\n7\n6\n");
        bc("a = 3 < 4; a\n", "1\n3\n");
        bc("3 < 4 && 2 > 1\n", "1\n");
        bc("!0\n", "1\n");
        bc("if (1 > 0) 5 else 6\n", "5\n");
        bc("i=0; while (i < 3) { i; i += 1 }\n", "0\n1\n2\n");
        bc("for (i=0; i<3; i++) i\n", "0\n1\n2\n");
        bc("define f(x) { return (x*2) }; f(4)\n", "8\n");
        bc("define f(x) { auto y; y = x; return y^2 }\nf(3)\n", "9\n");
        bc("define f() { 5 }; f()\n", "5\n0\n");
        bc("define f(x) { if (x) return 1; }; f(0)\n", "0\n");
        bc("a[3]=5; a[3]; a[1]\n", "5\n0\n");
        bc("define f(a[]) { return a[0] }; b[0]=7; f(b[])\n", "7\n");
        bc("\"hello\\n\"\n", "hello\\n");
        bc("print 1, \" \", 2, \"\\n\"\n", "1 2\n");
        bc("print \"a\\tb\\q\\\\c\\n\"\n", "a\tb\"\\c\n");
        bc("5; quit\n", "");
        bc("5\nquit\n", "5\n");
        bc("halt; 5\n", "");
        bc("x\n", "0\n");
    }

    #[test]
    fn errors() {
        check(&["bc"], &[], "foo bar\n", "", "(standard_in) 1: syntax error\n", 0);
        check(&["bc"], &[], "1 +\n", "", "(standard_in) 2: syntax error\n", 0);
        check(&["bc"], &[], "if (0) 1\nelse 2\n", "", "(standard_in) 2: syntax error\n", 0);
        check(&["bc"], &[], "1/0\n", "", "Runtime error (func=(main), adr=3): Divide by zero\n", 0);
        let got = crate::commands::util::testutil::run(&["bc"], &[], "sqrt(-1); 2\n3\n");
        assert_eq!(got.out, "3\n");
        assert!(got.err.ends_with("Square root of a negative number\n"));
    }

    #[test]
    fn placement_errors_and_illegal_characters() {
        check(&["bc"], &[], "1 @ + 2\n", "", "(standard_in) 1: illegal character: @\n", 0);
        check(&["bc"], &[], "1 $ 2\n", "", "(standard_in) 1: illegal character: $\n(standard_in) 1: syntax error\n", 0);
        check(&["bc"], &[], "break; 5\n", "", "(standard_in) 1: Break outside a for/while\n", 0);
        check(&["bc"], &[], "return; 5\n6\n", "6\n", "(standard_in) 1: Return outside of a function.\n", 0);
        check(
            &["bc"],
            &[],
            "\"abc\" 1 @\n",
            "",
            "(standard_in) 1: syntax error\n(standard_in) 1: illegal character: @\n",
            0,
        );
        bc("ibase=16; G; Z; 1G\n", "16\n35\n31\n");
        bc(
            "limits\n",
            "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\n\
             BC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n",
        );
    }

    #[test]
    fn loops_count_against_the_budget() {
        let fs = crate::commands::util::testutil::make_fs(&[]);
        let limits = crate::limits::Limits { max_total_loop_iterations: 100, ..Default::default() };
        let got = crate::commands::util::testutil::run_full(&fs, &["bc"], b"1\nwhile (1) {}\n2\n", &[], limits);
        assert_eq!(got.out, "1\n");
        assert_eq!(got.err, "bc: maximum total loop iterations exceeded (max_total_loop_iterations: 100)\n");
        assert_eq!(got.status, 1);
    }

    #[test]
    fn mathlib() {
        bcl("scale\n", "20\n");
        bcl("s(1)\n", ".84147098480789650665\n");
        bcl(
            "c(1); a(1); l(2); e(1); j(1,2)\n",
            ".54030230586813971740\n.78539816339744830961\n.69314718055994530941\n2.71828182845904523536\n.57672480775687338720\n",
        );
        bcl("e(100)\n", "26881171418161354484126255515800135873611118.77374192241519160861\n");
    }

    #[test]
    fn runtime_message_addresses() {
        // GNU's byte code addresses: constants `K..:` (leading zeros dropped),
        // `0`/`1` one byte, loads and stores two, operators one.
        let w = |adr: u32| format!("Runtime warning (func=(main), adr={adr}): non-zero scale in exponent\n");
        check(&["bc"], &[], "10/0\n", "", "Runtime error (func=(main), adr=6): Divide by zero\n", 0);
        check(&["bc"], &[], "2^0.5\n", "1\n", &w(8), 0);
        check(&["bc"], &[], "22^0.5\n", "1\n", &w(9), 0);
        check(&["bc"], &[], "x=1;y=2^0.5\n", "", &w(12), 0);
        check(&["bc"], &[], "a[1]=2^0.5\n", "", &w(9), 0);
        let e = "Runtime error (func=(main), adr=5): Array a subscript out of bounds.\n";
        check(&["bc"], &[], "a[-1] = 1\n", "", e, 0);
        check(&["bc"], &[], "x+2^0.5\n", "1\n", &w(10), 0);
        check(&["bc"], &[], "x=5; x+=2^0.5; x\n", "6\n", &w(16), 0);
        check(&["bc"], &[], "-2^0.5\n", "1\n", &w(9), 0);
        let e = "Runtime error (func=(main), adr=4): Square root of a negative number\n";
        check(&["bc"], &[], "sqrt(-1)\n", "", e, 0);
        check(&["bc"], &[], "length(1/0)\n", "", "Runtime error (func=(main), adr=3): Divide by zero\n", 0);
        let e = "Runtime warning (func=f, adr=7): non-zero scale in exponent\n";
        check(&["bc"], &[], "define f(x) { return x^0.5; }\nf(2)\n", "1\n", e, 0);
    }

    #[test]
    fn runtime_message_addresses_in_loops() {
        let w = |adr: u32| format!("Runtime warning (func=(main), adr={adr}): non-zero scale in exponent\n");
        check(&["bc"], &[], "for (i=0;i<3;i++) 2^0.5\n", "1\n1\n1\n", &w(32).repeat(3), 0);
        check(&["bc"], &[], "for (i=0;i<1;i++) 2^0.5\n", "1\n", &w(30), 0);
        check(&["bc"], &[], "for (;;) { 2^0.5; break; }\n", "1\n", &w(18), 0);
        check(&["bc"], &[], "while (i<1) { i=1; 2^0.5 }\n", "1\n", &w(19), 0);
        check(&["bc"], &[], "while (1) { 2^0.5; break; }\n", "1\n", &w(12), 0);
        check(&["bc"], &[], "if (1) 2^0.5\n", "1\n", &w(12), 0);
        check(&["bc"], &[], "if (0) 1 else 2^0.5\n", "1\n", &w(17), 0);
        check(&["bc"], &[], "i=0; while (i<1) { i=1; 2^0.5 }\n", "1\n", &w(23), 0);
        check(&["bc"], &[], "for (i=0;i<3;i++) { i; 2^0.5 }\n", "0\n1\n1\n1\n2\n1\n", &w(35).repeat(3), 0);
    }

    #[test]
    fn reads_dev_stdin() {
        check(&["bc", "/dev/stdin"], &[], "1+2\n", "3\n", "", 0);
    }
}
