//! bc's syntax tree and its recursive-descent parser (depth-bounded).

use super::*;

#[derive(Clone, Debug)]
pub(super) enum LVal {
    Var(String),
    Elem(String, Box<Expr>),
    Scale,
    Ibase,
    Obase,
    Last,
}

#[derive(Clone, Debug)]
pub(super) enum CallArg {
    Val(Expr),
    Array(String),
}

#[derive(Clone, Debug)]
pub(super) enum Expr {
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
pub(super) enum PItem {
    Str(String),
    Val(Expr),
}

#[derive(Clone, Debug)]
pub(super) enum Stmt {
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
pub(super) struct Func {
    pub(super) params: Vec<(String, bool)>,
    pub(super) autos: Vec<(String, bool)>,
    pub(super) body: Vec<Stmt>,
}

/// Why parsing stopped.
pub(super) enum PErr {
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
pub(super) const MAX_TREE_DEPTH: usize = 1000;

pub(super) type PRes<T> = Result<T, PErr>;

pub(super) const KEYWORDS: &[&str] = &[
    "if", "else", "while", "for", "break", "continue", "return", "define", "auto", "quit", "halt", "print", "length",
    "sqrt", "scale", "ibase", "obase", "last", "read", "limits", "warranty",
];

pub(super) struct Parser<'a> {
    pub(super) toks: &'a [Tok],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) max_depth: usize,
    /// Tree depth of the expression the last expression function returned.
    pub(super) d: usize,
    /// Enclosing loops and whether inside a function (for `break`/`return`).
    pub(super) loops: usize,
    pub(super) in_func: bool,
    /// Errors GNU reports without a syntax error (`Break outside a for/while`):
    /// line and message; the line is not run.
    pub(super) soft: Vec<(usize, String)>,
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> &T {
        &self.toks[self.pos.min(self.toks.len() - 1)].t
    }
    pub(super) fn bump(&mut self) -> T {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    pub(super) fn err<X>(&self) -> PRes<X> {
        let tok = &self.toks[self.pos.min(self.toks.len() - 1)];
        if tok.t == T::Name("quit".into()) {
            return Err(PErr::Quit);
        }
        // The lexer has counted the newline it just read.
        let line = if tok.t == T::Nl { tok.line + 1 } else { tok.line };
        Err(PErr::Syntax(line))
    }
    pub(super) fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), T::Op(o) if *o == op)
    }
    pub(super) fn is_name(&self, n: &str) -> bool {
        matches!(self.peek(), T::Name(x) if x == n)
    }
    pub(super) fn expect(&mut self, op: &str) -> PRes<()> {
        if self.is_op(op) {
            self.bump();
            Ok(())
        } else {
            self.err()
        }
    }
    pub(super) fn skip_nl(&mut self) {
        while *self.peek() == T::Nl {
            self.bump();
        }
    }
    pub(super) fn enter(&mut self) -> PRes<()> {
        self.depth += 1;
        // The stack check: a small thread (or a debug build's frames) may
        // hold fewer levels than max_parser_depth.
        if self.depth > self.max_depth || crate::limits::stack_low() {
            return self.exhausted();
        }
        Ok(())
    }
    pub(super) fn exhausted<X>(&self) -> PRes<X> {
        let tok = &self.toks[self.pos.min(self.toks.len() - 1)];
        Err(PErr::Exhausted(tok.line))
    }
    /// The depth of a node over children at most `d` deep (see [`MAX_TREE_DEPTH`]).
    pub(super) fn up(&mut self, d: usize) -> PRes<()> {
        if d >= MAX_TREE_DEPTH {
            return self.exhausted();
        }
        self.d = d + 1;
        Ok(())
    }

    /// One statement; `None` for an empty one.
    pub(super) fn stmt(&mut self, funcs: &mut HashMap<String, Arc<Func>>) -> PRes<Option<Stmt>> {
        self.enter()?;
        let r = self.stmt_inner(funcs);
        self.depth -= 1;
        r
    }

    pub(super) fn stmt_inner(&mut self, funcs: &mut HashMap<String, Arc<Func>>) -> PRes<Option<Stmt>> {
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
