//! The awk grammar (recursive descent over the token list) and its syntax tree.
//! Variable names are resolved here: globals to slots, function parameters to
//! frame slots, so the interpreter never looks names up.

mod expr;

use super::lexer::{Pos, SyntaxError, Tok, Token};
use std::collections::HashMap;

/// Slots of the special variables, interned first in this order.
pub const SPECIALS: &[&str] = &[
    "NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART", "RLENGTH", "CONVFMT", "OFMT",
    "ENVIRON", "ARGC", "ARGV", "RT",
];
pub const V_NF: usize = 0;
pub const V_NR: usize = 1;
pub const V_FNR: usize = 2;
pub const V_FS: usize = 3;
pub const V_OFS: usize = 4;
pub const V_ORS: usize = 5;
pub const V_RS: usize = 6;
pub const V_FILENAME: usize = 7;
pub const V_SUBSEP: usize = 8;
pub const V_RSTART: usize = 9;
pub const V_RLENGTH: usize = 10;
pub const V_CONVFMT: usize = 11;
pub const V_OFMT: usize = 12;
pub const V_ENVIRON: usize = 13;
pub const V_ARGC: usize = 14;
pub const V_ARGV: usize = 15;
pub const V_RT: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Global(usize),
    Local(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

#[derive(Debug)]
pub enum LValue {
    Var(Var),
    Field(Box<Expr>),
    Index(Var, Vec<Expr>),
}

#[derive(Debug)]
pub enum GetSrc {
    /// Plain `getline`: the main input.
    Main,
    File(Box<Expr>),
    Cmd(Box<Expr>),
}

#[derive(Debug)]
pub enum Expr {
    Num(f64),
    Str(String),
    /// A regex literal (index into `Program::regexes`); as a value, `$0 ~ /re/`.
    Regex(usize),
    Lv(LValue),
    Assign(LValue, Option<BinOp>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Match(bool, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    In(Vec<Expr>, Var),
    /// `++x`/`x--`: pre?, delta.
    IncDec(LValue, bool, f64),
    Call(usize, Vec<Expr>),
    Builtin(&'static str, Vec<Expr>),
    Getline(GetSrc, Option<LValue>),
    Group(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redir {
    File,
    Append,
    Pipe,
}

#[derive(Debug)]
pub enum Stmt {
    Expr(Expr),
    Print(Vec<Expr>, Option<(Redir, Expr)>),
    Printf(Vec<Expr>, Option<(Redir, Expr)>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    Do(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Box<Stmt>>, Box<Stmt>),
    ForIn(Var, Var, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    Delete(Var, Option<Vec<Expr>>),
    /// Source line of the statements that follow (for runtime messages).
    Line(usize, usize),
}

#[derive(Debug)]
pub enum Pattern {
    All,
    Expr(Expr),
    Range(Expr, Expr),
}

#[derive(Debug)]
pub struct Rule {
    pub pattern: Pattern,
    /// `None`: print the record.
    pub action: Option<Vec<Stmt>>,
}

#[derive(Debug, Default)]
pub struct Func {
    pub name: String,
    pub nparams: usize,
    pub body: Vec<Stmt>,
    pub defined: bool,
}

#[derive(Debug, Default)]
pub struct Program {
    pub begin: Vec<Vec<Stmt>>,
    pub end: Vec<Vec<Stmt>>,
    pub rules: Vec<Rule>,
    pub funcs: Vec<Func>,
    pub regexes: Vec<String>,
    pub globals: Vec<String>,
    /// Every user function call: function, argument count, where.
    pub calls: Vec<(usize, usize, Pos)>,
}

type PResult<T> = Result<T, SyntaxError>;

/// Deepest expression tree a program may have. Chains of binary operators
/// (`1+1+...`) and concatenations are built in loops, so the parser's own
/// nesting count never sees them; evaluating and dropping a tree recurses
/// once per level, and this many levels fit in an 8 MiB stack even in a
/// debug build (measured: about 5000 levels there).
pub const MAX_TREE_DEPTH: usize = 1000;

/// Argument counts of builtins, checked while parsing as gawk does.
const ARITY: &[(&str, usize, usize)] = &[
    ("length", 0, 1),
    ("substr", 2, 3),
    ("index", 2, 2),
    ("split", 2, 4),
    ("patsplit", 2, 4),
    ("sub", 2, 3),
    ("gsub", 2, 3),
    ("gensub", 3, 4),
    ("match", 2, 3),
    ("sin", 1, 1),
    ("cos", 1, 1),
    ("exp", 1, 1),
    ("log", 1, 1),
    ("sqrt", 1, 1),
    ("int", 1, 1),
    ("atan2", 2, 2),
    ("rand", 0, 0),
    ("srand", 0, 1),
    ("tolower", 1, 1),
    ("toupper", 1, 1),
    ("systime", 0, 0),
    ("strftime", 0, 3),
    ("mktime", 1, 2),
    ("close", 1, 2),
    ("fflush", 0, 1),
    ("system", 1, 1),
    ("lshift", 2, 2),
    ("rshift", 2, 2),
    ("compl", 1, 1),
    ("asort", 1, 3),
    ("asorti", 1, 3),
    ("isarray", 1, 1),
    ("typeof", 1, 2),
];

pub struct Parser<'t> {
    toks: &'t [Token],
    i: usize,
    prog: Program,
    gmap: HashMap<String, usize>,
    fmap: HashMap<String, usize>,
    locals: Option<Vec<String>>,
    depth: usize,
    max_depth: usize,
    /// Tree depth of the expression the last expression function returned.
    d: usize,
    /// In `print` arguments an unparenthesized `>` is a redirection.
    no_gt: bool,
    /// In a `for (init;...)` head `in` is not an operator.
    no_in: bool,
    /// Where the first call to each undefined function was (for gawk's error).
    pub call_pos: HashMap<usize, Pos>,
}

pub fn parse(toks: &[Token], max_depth: usize) -> PResult<(Program, HashMap<usize, Pos>)> {
    let mut p = Parser {
        toks,
        i: 0,
        prog: Program::default(),
        gmap: HashMap::new(),
        fmap: HashMap::new(),
        locals: None,
        depth: 0,
        max_depth,
        d: 0,
        no_gt: false,
        no_in: false,
        call_pos: HashMap::new(),
    };
    for s in SPECIALS {
        p.global(s);
    }
    p.program()?;
    Ok((p.prog, p.call_pos))
}

fn is_term(t: &Tok) -> bool {
    matches!(t, Tok::Semi | Tok::Newline | Tok::RBrace | Tok::Eof)
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.i).map_or(&Tok::Eof, |t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> &Tok {
        self.toks.get(self.i + k).map_or(&Tok::Eof, |t| &t.tok)
    }
    fn pos(&self) -> Pos {
        match self.toks.get(self.i) {
            Some(t) => t.pos,
            None => self.toks.last().map(|t| t.pos).unwrap_or_default(),
        }
    }
    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.i < self.toks.len() {
            self.i += 1;
        }
        t
    }
    fn err<T>(&self) -> PResult<T> {
        let msg = match self.peek() {
            Tok::Newline | Tok::Eof => "unexpected newline or end of string",
            _ => "syntax error",
        };
        let mut e = SyntaxError::new(self.pos(), msg);
        // gawk has already counted a real newline when it reports one.
        if *self.peek() == Tok::Newline && !matches!(self.peek_at(1), Tok::Eof) {
            e.line_after = true;
        }
        Err(e)
    }
    fn expect(&mut self, t: Tok) -> PResult<()> {
        if *self.peek() == t {
            self.i += 1;
            Ok(())
        } else {
            self.err()
        }
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn opt_nl(&mut self) {
        while *self.peek() == Tok::Newline {
            self.i += 1;
        }
    }
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        // The stack check: a small thread (or a debug build's frames) may
        // hold fewer levels than max_parser_depth.
        if self.depth > self.max_depth || crate::limits::stack_low() {
            return Err(SyntaxError::new(self.pos(), "program nested too deeply"));
        }
        Ok(())
    }

    /// The depth of a node over children at most `d` deep (see [`MAX_TREE_DEPTH`]).
    fn up(&self, d: usize) -> PResult<usize> {
        if d >= MAX_TREE_DEPTH {
            return Err(SyntaxError::new(self.pos(), "program nested too deeply"));
        }
        Ok(d + 1)
    }

    fn global(&mut self, name: &str) -> usize {
        if let Some(&i) = self.gmap.get(name) {
            return i;
        }
        let i = self.prog.globals.len();
        self.prog.globals.push(name.to_string());
        self.gmap.insert(name.to_string(), i);
        i
    }
    fn var(&mut self, name: &str) -> Var {
        if let Some(l) = &self.locals {
            if let Some(i) = l.iter().position(|n| n == name) {
                return Var::Local(i);
            }
        }
        Var::Global(self.global(name))
    }
    fn func(&mut self, name: &str) -> usize {
        if let Some(&i) = self.fmap.get(name) {
            return i;
        }
        let i = self.prog.funcs.len();
        self.prog.funcs.push(Func { name: name.to_string(), ..Func::default() });
        self.fmap.insert(name.to_string(), i);
        i
    }

    fn program(&mut self) -> PResult<()> {
        loop {
            while matches!(self.peek(), Tok::Newline | Tok::Semi) {
                self.i += 1;
            }
            match self.peek().clone() {
                Tok::Eof => return Ok(()),
                Tok::Begin => {
                    self.i += 1;
                    let b = self.block()?;
                    self.prog.begin.push(b);
                }
                Tok::End => {
                    self.i += 1;
                    let b = self.block()?;
                    self.prog.end.push(b);
                }
                Tok::Function => self.function()?,
                Tok::LBrace => {
                    let b = self.block()?;
                    self.prog.rules.push(Rule { pattern: Pattern::All, action: Some(b) });
                }
                _ => {
                    let a = self.expr()?;
                    let pattern = if self.eat(&Tok::Comma) {
                        self.opt_nl();
                        Pattern::Range(a, self.expr()?)
                    } else {
                        Pattern::Expr(a)
                    };
                    let action = if *self.peek() == Tok::LBrace { Some(self.block()?) } else { None };
                    if action.is_none() && !matches!(self.peek(), Tok::Newline | Tok::Semi | Tok::Eof) {
                        return self.err();
                    }
                    self.prog.rules.push(Rule { pattern, action });
                }
            }
        }
    }

    fn function(&mut self) -> PResult<()> {
        self.i += 1;
        let name = match self.next() {
            Tok::Name(n) | Tok::FuncName(n) => n,
            _ => {
                self.i -= 1;
                return self.err();
            }
        };
        self.expect(Tok::LParen)?;
        let mut params = Vec::new();
        self.opt_nl();
        if !self.eat(&Tok::RParen) {
            loop {
                self.opt_nl();
                match self.next() {
                    Tok::Name(n) => params.push(n),
                    _ => {
                        self.i -= 1;
                        return self.err();
                    }
                }
                self.opt_nl();
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma)?;
            }
        }
        let fi = self.func(&name);
        if self.prog.funcs[fi].defined {
            let pos = self.pos();
            return Err(SyntaxError::new(pos, format!("function name `{name}' previously defined")));
        }
        self.opt_nl();
        let n = params.len();
        self.locals = Some(params);
        let body = self.block()?;
        self.locals = None;
        let f = &mut self.prog.funcs[fi];
        f.nparams = n;
        f.body = body;
        f.defined = true;
        Ok(())
    }

    /// `{ statements }`
    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect(Tok::LBrace)?;
        self.enter()?;
        let mut v = Vec::new();
        let mut line = (usize::MAX, 0);
        loop {
            while matches!(self.peek(), Tok::Newline | Tok::Semi) {
                self.i += 1;
            }
            if self.eat(&Tok::RBrace) {
                break;
            }
            if *self.peek() == Tok::Eof {
                return self.err();
            }
            let p = self.pos();
            if (p.src, p.line) != line {
                line = (p.src, p.line);
                v.push(Stmt::Line(p.src, p.line));
            }
            v.push(self.stmt()?);
        }
        self.depth -= 1;
        Ok(v)
    }

    /// End of a simple statement: `;`, a newline, or before `}`.
    fn end_simple(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Semi | Tok::Newline => {
                self.i += 1;
                Ok(())
            }
            Tok::RBrace | Tok::Eof => Ok(()),
            _ => self.err(),
        }
    }

    /// A statement as the body of if/while/for (may be empty: `;`).
    fn body(&mut self) -> PResult<Stmt> {
        self.opt_nl();
        if self.eat(&Tok::Semi) {
            return Ok(Stmt::Block(Vec::new()));
        }
        self.stmt()
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let s = self.stmt_inner();
        self.depth -= 1;
        s
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        match self.peek().clone() {
            Tok::LBrace => Ok(Stmt::Block(self.block()?)),
            Tok::If => {
                self.i += 1;
                self.expect(Tok::LParen)?;
                let c = self.expr()?;
                self.expect(Tok::RParen)?;
                let then = self.body()?;
                // `else` may follow after newlines or a `;`.
                let save = self.i;
                while matches!(self.peek(), Tok::Newline | Tok::Semi) {
                    self.i += 1;
                }
                if self.eat(&Tok::Else) {
                    let e = self.body()?;
                    Ok(Stmt::If(c, Box::new(then), Some(Box::new(e))))
                } else {
                    self.i = save;
                    Ok(Stmt::If(c, Box::new(then), None))
                }
            }
            Tok::While => {
                self.i += 1;
                self.expect(Tok::LParen)?;
                let c = self.expr()?;
                self.expect(Tok::RParen)?;
                if self.eat(&Tok::Semi) {
                    return Ok(Stmt::While(c, Box::new(Stmt::Block(Vec::new()))));
                }
                let b = self.body()?;
                Ok(Stmt::While(c, Box::new(b)))
            }
            Tok::Do => {
                self.i += 1;
                let b = self.body()?;
                while matches!(self.peek(), Tok::Newline | Tok::Semi) {
                    self.i += 1;
                }
                self.expect(Tok::While)?;
                self.expect(Tok::LParen)?;
                let c = self.expr()?;
                self.expect(Tok::RParen)?;
                self.end_simple()?;
                Ok(Stmt::Do(Box::new(b), c))
            }
            Tok::For => {
                self.i += 1;
                self.expect(Tok::LParen)?;
                if let (Tok::Name(v), Tok::In, Tok::Name(a), Tok::RParen) =
                    (self.peek().clone(), self.peek_at(1).clone(), self.peek_at(2).clone(), self.peek_at(3).clone())
                {
                    self.i += 4;
                    let (v, a) = (self.var(&v), self.var(&a));
                    let b = self.body()?;
                    return Ok(Stmt::ForIn(v, a, Box::new(b)));
                }
                let init = if *self.peek() == Tok::Semi { None } else { Some(Box::new(self.simple_stmt()?)) };
                self.expect(Tok::Semi)?;
                self.opt_nl();
                let cond = if *self.peek() == Tok::Semi { None } else { Some(self.expr()?) };
                self.expect(Tok::Semi)?;
                self.opt_nl();
                let step = if *self.peek() == Tok::RParen { None } else { Some(Box::new(self.simple_stmt()?)) };
                self.expect(Tok::RParen)?;
                if self.eat(&Tok::Semi) {
                    return Ok(Stmt::For(init, cond, step, Box::new(Stmt::Block(Vec::new()))));
                }
                let b = self.body()?;
                Ok(Stmt::For(init, cond, step, Box::new(b)))
            }
            Tok::Semi => {
                self.i += 1;
                Ok(Stmt::Block(Vec::new()))
            }
            _ => {
                let s = self.simple_stmt()?;
                self.end_simple()?;
                Ok(s)
            }
        }
    }

    fn simple_stmt(&mut self) -> PResult<Stmt> {
        match self.peek().clone() {
            Tok::Print | Tok::Printf => {
                let is_printf = *self.peek() == Tok::Printf;
                self.i += 1;
                let args = self.print_args()?;
                if is_printf && args.is_empty() {
                    return self.err();
                }
                let redir = match self.peek() {
                    Tok::Gt => Some(Redir::File),
                    Tok::Append => Some(Redir::Append),
                    Tok::Pipe => Some(Redir::Pipe),
                    _ => None,
                };
                let redir = match redir {
                    Some(r) => {
                        self.i += 1;
                        let old = std::mem::replace(&mut self.no_gt, true);
                        let t = self.concat();
                        self.no_gt = old;
                        Some((r, t?))
                    }
                    None => None,
                };
                Ok(if is_printf { Stmt::Printf(args, redir) } else { Stmt::Print(args, redir) })
            }
            Tok::Next => {
                self.i += 1;
                Ok(Stmt::Next)
            }
            Tok::Nextfile => {
                self.i += 1;
                Ok(Stmt::NextFile)
            }
            Tok::Break => {
                self.i += 1;
                Ok(Stmt::Break)
            }
            Tok::Continue => {
                self.i += 1;
                Ok(Stmt::Continue)
            }
            Tok::Exit => {
                self.i += 1;
                let e = if is_term(self.peek()) { None } else { Some(self.expr()?) };
                Ok(Stmt::Exit(e))
            }
            Tok::Return => {
                self.i += 1;
                let e = if is_term(self.peek()) { None } else { Some(self.expr()?) };
                Ok(Stmt::Return(e))
            }
            Tok::Delete => {
                self.i += 1;
                let paren = self.eat(&Tok::LParen);
                let Tok::Name(n) = self.next() else {
                    self.i -= 1;
                    return self.err();
                };
                let v = self.var(&n);
                let subs = if self.eat(&Tok::LBracket) { Some(self.subscripts()?) } else { None };
                if paren {
                    self.expect(Tok::RParen)?;
                }
                Ok(Stmt::Delete(v, subs))
            }
            _ => Ok(Stmt::Expr(self.expr()?)),
        }
    }

    /// Arguments of print/printf: `(a, b)` or `a, b`, with `>` meaning redirection.
    fn print_args(&mut self) -> PResult<Vec<Expr>> {
        if is_term(self.peek()) || matches!(self.peek(), Tok::Gt | Tok::Append | Tok::Pipe) {
            return Ok(Vec::new());
        }
        if *self.peek() == Tok::LParen {
            let save = self.i;
            self.i += 1;
            let old = (self.no_gt, self.no_in);
            (self.no_gt, self.no_in) = (false, false);
            let list = self.expr_list(Tok::RParen);
            (self.no_gt, self.no_in) = old;
            if let Ok(list) = list {
                if is_term(self.peek()) || matches!(self.peek(), Tok::Gt | Tok::Append | Tok::Pipe) {
                    return Ok(list);
                }
            }
            self.i = save;
        }
        let old = std::mem::replace(&mut self.no_gt, true);
        let mut v = vec![self.expr()];
        while v.last().is_some_and(Result::is_ok) && self.eat(&Tok::Comma) {
            self.opt_nl();
            v.push(self.expr());
        }
        self.no_gt = old;
        v.into_iter().collect()
    }

    /// Comma-separated expressions up to `close` (consumed).
    /// Leaves in `self.d` the depth of the deepest one.
    fn expr_list(&mut self, close: Tok) -> PResult<Vec<Expr>> {
        let mut v = Vec::new();
        let mut d = 0;
        self.d = 0;
        self.opt_nl();
        if self.eat(&close) {
            return Ok(v);
        }
        loop {
            v.push(self.expr()?);
            d = d.max(self.d);
            self.d = d;
            self.opt_nl();
            if self.eat(&close) {
                return Ok(v);
            }
            self.expect(Tok::Comma)?;
            self.opt_nl();
        }
    }

    fn subscripts(&mut self) -> PResult<Vec<Expr>> {
        let old = (self.no_gt, self.no_in);
        (self.no_gt, self.no_in) = (false, false);
        let r = self.expr_list(Tok::RBracket);
        (self.no_gt, self.no_in) = old;
        let v = r?;
        if v.is_empty() {
            return self.err();
        }
        Ok(v)
    }

}
