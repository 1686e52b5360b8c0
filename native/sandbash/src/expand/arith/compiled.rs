//! Loop arithmetic compiled once: `i<300000`, `i++`, `x + i % 7` are parsed
//! into a small tree the first time a thread meets the text, and evaluated
//! from the tree afterwards (the evaluator in `arith.rs` re-reads the text on
//! every turn, as bash's expr.c does).
//!
//! Only a plain subset compiles: decimal numbers, names without subscripts,
//! the operators of bash's grammar, and at most one assignment. Evaluation
//! gives up (`None`, and the full evaluator runs instead) on anything the
//! subset does not decide alone: a variable that is not a plain decimal
//! scalar, dynamic, or unset under `set -u` or with an upper-case name; division by 0; a negative exponent; a failed
//! assignment. The one assignment is held back until the end, so giving up
//! never leaves a side effect behind and the full evaluator starts afresh.
//!
//! Parameters written in the text (`$1`, `$n`, `${n}`, `$#`, `$?`) compile
//! too, as operands: bash expands them before it parses, so a value that is
//! a plain non-negative decimal reads as that number wherever it stands
//! (`$1 * 2` with `1+1` in `$1` is `1+1 * 2`: any other value gives up).
//! They read the values from before the expression runs, as expansion does.

use crate::state::name_key::NameKey;
use crate::state::{ShellState, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Longer texts are not compiled (they are rare in loops, and this bounds
/// the parser's recursion and the cache's memory).
const MAX_TEXT: usize = 200;
/// Parenthesis and operator nesting the parser follows before giving up.
const MAX_NEST: usize = 40;
/// Texts kept per thread; the cache starts over when it is full.
const MAX_ENTRIES: usize = 512;

thread_local! {
    /// Text to its tree, or `None` for a text outside the subset.
    static CACHE: RefCell<hashbrown::HashMap<Box<str>, Option<Rc<Compiled>>, foldhash::fast::RandomState>> =
        RefCell::new(hashbrown::HashMap::default());
}

/// Evaluate `text` from its compiled tree; `None` when the full evaluator
/// must decide (nothing has been changed then).
/// Text `expanded` already is read as it stands: a `$` in it is an error
/// (`$(( \$x ))`), for the full evaluator to report.
pub(super) fn try_eval(sh: &mut ShellState, text: &str, expanded: bool) -> Option<i64> {
    if text.len() > MAX_TEXT || sh.vars.has_refs() || expanded && text.contains('$') {
        return None;
    }
    let compiled = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(hit) = c.get(&NameKey(text)) {
            return hit.clone();
        }
        if c.len() >= MAX_ENTRIES {
            c.clear();
        }
        let made = compile(text).map(Rc::new);
        c.insert(text.into(), made.clone());
        made
    })?;
    let mut ev = Eval { sh, names: &compiled.names, params: &compiled.params, pending: None };
    let v = ev.eval(&compiled.root)?;
    if let Some((slot, value)) = ev.pending {
        sh_set(ev.sh, &compiled.names[slot], value)?;
    }
    Some(v)
}

fn sh_set(sh: &mut ShellState, name: &str, value: i64) -> Option<()> {
    sh.set_var(name, value.to_string()).ok()
}

#[derive(Debug)]
struct Compiled {
    names: Vec<String>,
    /// The parameters the text expands (see [`Node::Param`]).
    params: Vec<String>,
    root: Node,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bin {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    Pow,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Un {
    Not,
    BitNot,
    Neg,
    Plus,
}

#[derive(Debug)]
enum Node {
    Num(i64),
    Var(usize),
    /// `$name`, `$N`, `$#`, `$?`: a parameter expanded into the text.
    Param(usize),
    Unary(Un, Box<Node>),
    Bin(Bin, Box<Node>, Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Cond(Box<Node>, Box<Node>, Box<Node>),
    /// `x = e` (no operator) or `x op= e`.
    Assign(Option<Bin>, usize, Box<Node>),
    /// `++x` / `--x`: the new value.
    PreStep(usize, i64),
    /// `x++` / `x--`: the old value.
    PostStep(usize, i64),
    Comma(Box<Node>, Box<Node>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Num(i64),
    /// A name: its range in the text.
    Name(usize, usize),
    /// A parameter after `$` (without braces): its range in the text.
    Param(usize, usize),
    Op(Op),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Bin(Bin),
    AndAnd,
    OrOr,
    Not,
    BitNot,
    Assign,
    CompoundAssign(Bin),
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    LParen,
    RParen,
    Ques,
    Colon,
    Comma,
}

/// Split `text` into tokens as bash's readtok would, or `None` for anything
/// outside the subset (the full evaluator then reads it, errors included).
fn tokens(text: &str) -> Option<Vec<Tok>> {
    let b = text.as_bytes();
    let mut out: Vec<Tok> = Vec::new();
    let mut i = 0;
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\n');
    while i < b.len() {
        let c = b[i];
        if blank(c) {
            i += 1;
            continue;
        }
        if c == b'$' {
            let (start, end, next) = param_at(b, i + 1)?;
            out.push(Tok::Param(start, end));
            i = next;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if b.get(i) == Some(&b'[') {
                return None;
            }
            out.push(Tok::Name(start, i));
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'#' | b'@' | b'_')) {
                i += 1;
            }
            let digits = &text[start..i];
            // Octal, hex and `base#` numbers are left to the full evaluator.
            if !digits.bytes().all(|d| d.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0')) {
                return None;
            }
            out.push(Tok::Num(digits.parse().ok()?));
            continue;
        }
        let c1 = b.get(i + 1).copied().unwrap_or(0);
        let c2 = b.get(i + 2).copied().unwrap_or(0);
        let after_name = matches!(out.last(), Some(Tok::Name(..)));
        let (op, len) = match (c, c1) {
            (b'=', b'=') => (Op::Bin(Bin::Eq), 2),
            (b'!', b'=') => (Op::Bin(Bin::Ne), 2),
            (b'>', b'=') => (Op::Bin(Bin::Ge), 2),
            (b'<', b'=') => (Op::Bin(Bin::Le), 2),
            (b'<', b'<') if c2 == b'=' => (Op::CompoundAssign(Bin::Shl), 3),
            (b'>', b'>') if c2 == b'=' => (Op::CompoundAssign(Bin::Shr), 3),
            (b'<', b'<') => (Op::Bin(Bin::Shl), 2),
            (b'>', b'>') => (Op::Bin(Bin::Shr), 2),
            (b'&', b'&') => (Op::AndAnd, 2),
            (b'|', b'|') => (Op::OrOr, 2),
            (b'*', b'*') => (Op::Bin(Bin::Pow), 2),
            (b'+', b'+') | (b'-', b'-') => {
                let inc = c == b'+';
                if after_name {
                    (if inc { Op::PostInc } else { Op::PostDec }, 2)
                } else {
                    let mut j = i + 2;
                    while j < b.len() && blank(b[j]) {
                        j += 1;
                    }
                    // `--` before anything but a name is two minus signs
                    // in bash (with its own errors after a number): left
                    // to the full evaluator.
                    if !b.get(j).is_some_and(|d| d.is_ascii_alphabetic() || *d == b'_') {
                        return None;
                    }
                    (if inc { Op::PreInc } else { Op::PreDec }, 2)
                }
            }
            (b'*' | b'/' | b'%' | b'+' | b'-' | b'&' | b'^' | b'|', b'=') => (Op::CompoundAssign(bin_of(c)?), 2),
            (b'=', _) => (Op::Assign, 1),
            (b'>', _) => (Op::Bin(Bin::Gt), 1),
            (b'<', _) => (Op::Bin(Bin::Lt), 1),
            (b'*' | b'/' | b'%' | b'+' | b'-' | b'&' | b'^' | b'|', _) => (Op::Bin(bin_of(c)?), 1),
            (b'!', _) => (Op::Not, 1),
            (b'~', _) => (Op::BitNot, 1),
            (b'(', _) => (Op::LParen, 1),
            (b')', _) => (Op::RParen, 1),
            (b'?', _) => (Op::Ques, 1),
            (b':', _) => (Op::Colon, 1),
            (b',', _) => (Op::Comma, 1),
            _ => return None,
        };
        out.push(Tok::Op(op));
        i += len;
    }
    Some(out)
}

/// The parameter named after a `$` at `i`: `$1`, `$name`, `${name}`, `${12}`,
/// `$#`, `$?` as (start, end, where the text goes on); `None` for any other
/// expansion (`${#x}`, `${x:-1}`, `$(...)`, `$_`, `$0`).
fn param_at(b: &[u8], i: usize) -> Option<(usize, usize, usize)> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let &c = b.get(i)?;
    let (start, end, next) = match c {
        b'#' | b'?' => (i, i + 1, i + 1),
        b'1'..=b'9' => (i, i + 1, i + 1),
        b'{' => {
            let mut j = i + 1;
            while j < b.len() && word(b[j]) {
                j += 1;
            }
            if b.get(j) != Some(&b'}') {
                return None;
            }
            (i + 1, j, j + 1)
        }
        c if c.is_ascii_alphabetic() || c == b'_' => {
            let mut j = i;
            while j < b.len() && word(b[j]) {
                j += 1;
            }
            (i, j, j)
        }
        _ => return None,
    };
    let name = &b[start..end];
    let digits = name.iter().all(u8::is_ascii_digit);
    let ok = match name {
        [] | b"_" | [b'0', ..] => false,
        [b'#' | b'?'] => true,
        _ if digits => true,
        [f, ..] => !f.is_ascii_digit(),
    };
    ok.then_some((start, end, next))
}

fn bin_of(c: u8) -> Option<Bin> {
    Some(match c {
        b'*' => Bin::Mul,
        b'/' => Bin::Div,
        b'%' => Bin::Mod,
        b'+' => Bin::Add,
        b'-' => Bin::Sub,
        b'&' => Bin::BitAnd,
        b'^' => Bin::BitXor,
        b'|' => Bin::BitOr,
        _ => return None,
    })
}

fn compile(text: &str) -> Option<Compiled> {
    let toks = tokens(text)?;
    if toks.is_empty() {
        return None;
    }
    let mut p = Parser { text, toks: &toks, at: 0, names: Vec::new(), params: Vec::new(), nest: 0, assigns: 0 };
    let root = p.comma()?;
    // Bash's order of evaluation is kept by the tree; more than one
    // assignment would need more than one held-back write. A skipped
    // operand of `&&`, `||` or `?:` is still computed by bash (only its
    // variables and assignments are not), and `**` fails there too: the
    // tree skips it, so the two are not compiled together.
    let pow = toks.contains(&Tok::Op(Op::Bin(Bin::Pow)));
    let short = toks.iter().any(|t| matches!(t, Tok::Op(Op::AndAnd | Op::OrOr | Op::Ques)));
    if p.at != toks.len() || p.assigns > 1 || (pow && short) {
        return None;
    }
    Some(Compiled { names: p.names, params: p.params, root })
}

/// Recursive descent over bash's precedence levels (expr.c), lowest first.
struct Parser<'a> {
    text: &'a str,
    toks: &'a [Tok],
    at: usize,
    names: Vec<String>,
    params: Vec<String>,
    nest: usize,
    assigns: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.at).copied()
    }

    fn eat(&mut self, op: Op) -> bool {
        if self.peek() == Some(Tok::Op(op)) {
            self.at += 1;
            return true;
        }
        false
    }

    fn name(&mut self, start: usize, end: usize) -> usize {
        let n = &self.text[start..end];
        match self.names.iter().position(|x| x == n) {
            Some(i) => i,
            None => {
                self.names.push(n.to_string());
                self.names.len() - 1
            }
        }
    }

    fn deeper(&mut self) -> Option<()> {
        self.nest += 1;
        (self.nest <= MAX_NEST).then_some(())
    }

    fn comma(&mut self) -> Option<Node> {
        self.deeper()?;
        let mut v = self.assign()?;
        while self.eat(Op::Comma) {
            v = Node::Comma(Box::new(v), Box::new(self.assign()?));
        }
        self.nest -= 1;
        Some(v)
    }

    fn assign(&mut self) -> Option<Node> {
        let start = self.at;
        let lhs = self.cond()?;
        let op = match self.peek() {
            Some(Tok::Op(Op::Assign)) => None,
            Some(Tok::Op(Op::CompoundAssign(b))) => Some(b),
            _ => return Some(lhs),
        };
        // Only a bare name (one token) can be assigned.
        let (Node::Var(slot), true) = (&lhs, self.at == start + 1) else {
            return None;
        };
        let slot = *slot;
        self.at += 1;
        self.assigns += 1;
        self.deeper()?;
        let rhs = self.assign()?;
        self.nest -= 1;
        Some(Node::Assign(op, slot, Box::new(rhs)))
    }

    fn cond(&mut self) -> Option<Node> {
        let c = self.lor()?;
        if !self.eat(Op::Ques) {
            return Some(c);
        }
        self.deeper()?;
        let a = self.comma()?;
        if !self.eat(Op::Colon) {
            return None;
        }
        let b = self.cond()?;
        self.nest -= 1;
        Some(Node::Cond(Box::new(c), Box::new(a), Box::new(b)))
    }

    fn lor(&mut self) -> Option<Node> {
        let mut v = self.land()?;
        while self.eat(Op::OrOr) {
            v = Node::Or(Box::new(v), Box::new(self.land()?));
        }
        Some(v)
    }

    fn land(&mut self) -> Option<Node> {
        let mut v = self.binary(0)?;
        while self.eat(Op::AndAnd) {
            v = Node::And(Box::new(v), Box::new(self.binary(0)?));
        }
        Some(v)
    }

    /// The left-associative levels from `|` down to `* / %`.
    fn binary(&mut self, level: usize) -> Option<Node> {
        const LEVELS: &[&[Bin]] = &[
            &[Bin::BitOr],
            &[Bin::BitXor],
            &[Bin::BitAnd],
            &[Bin::Eq, Bin::Ne],
            &[Bin::Lt, Bin::Le, Bin::Gt, Bin::Ge],
            &[Bin::Shl, Bin::Shr],
            &[Bin::Add, Bin::Sub],
            &[Bin::Mul, Bin::Div, Bin::Mod],
        ];
        let Some(ops) = LEVELS.get(level) else {
            return self.power();
        };
        let mut v = self.binary(level + 1)?;
        while let Some(Tok::Op(Op::Bin(b))) = self.peek() {
            if !ops.contains(&b) {
                break;
            }
            self.at += 1;
            v = Node::Bin(b, Box::new(v), Box::new(self.binary(level + 1)?));
        }
        Some(v)
    }

    fn power(&mut self) -> Option<Node> {
        let v = self.unary()?;
        if !self.eat(Op::Bin(Bin::Pow)) {
            return Some(v);
        }
        self.deeper()?;
        let w = self.power()?;
        self.nest -= 1;
        Some(Node::Bin(Bin::Pow, Box::new(v), Box::new(w)))
    }

    fn unary(&mut self) -> Option<Node> {
        let op = match self.peek() {
            Some(Tok::Op(Op::Not)) => Un::Not,
            Some(Tok::Op(Op::BitNot)) => Un::BitNot,
            Some(Tok::Op(Op::Bin(Bin::Sub))) => Un::Neg,
            Some(Tok::Op(Op::Bin(Bin::Add))) => Un::Plus,
            _ => return self.primary(),
        };
        self.at += 1;
        self.deeper()?;
        let v = self.unary()?;
        self.nest -= 1;
        Some(Node::Unary(op, Box::new(v)))
    }

    fn primary(&mut self) -> Option<Node> {
        let t = self.peek()?;
        self.at += 1;
        match t {
            Tok::Num(n) => Some(Node::Num(n)),
            Tok::Param(s, e) => {
                let n = &self.text[s..e];
                let slot = match self.params.iter().position(|x| x == n) {
                    Some(i) => i,
                    None => {
                        self.params.push(n.to_string());
                        self.params.len() - 1
                    }
                };
                Some(Node::Param(slot))
            }
            Tok::Name(s, e) => {
                let slot = self.name(s, e);
                let step = match self.peek() {
                    Some(Tok::Op(Op::PostInc)) => 1,
                    Some(Tok::Op(Op::PostDec)) => -1,
                    _ => return Some(Node::Var(slot)),
                };
                self.at += 1;
                self.assigns += 1;
                Some(Node::PostStep(slot, step))
            }
            Tok::Op(op @ (Op::PreInc | Op::PreDec)) => {
                let Some(Tok::Name(s, e)) = self.peek() else {
                    return None;
                };
                self.at += 1;
                // `++x++` and the like: bash's own errors.
                if matches!(self.peek(), Some(Tok::Op(Op::PostInc | Op::PostDec))) {
                    return None;
                }
                self.assigns += 1;
                let slot = self.name(s, e);
                Some(Node::PreStep(slot, if op == Op::PreInc { 1 } else { -1 }))
            }
            Tok::Op(Op::LParen) => {
                let v = self.comma()?;
                self.eat(Op::RParen).then_some(v)
            }
            Tok::Op(_) => None,
        }
    }
}

struct Eval<'a, 'n> {
    sh: &'a mut ShellState,
    names: &'n [String],
    params: &'n [String],
    /// The assignment made so far, not yet stored.
    pending: Option<(usize, i64)>,
}

impl Eval<'_, '_> {
    /// A variable's value as the full evaluator's own fast path reads it: a
    /// scalar holding a plain decimal number (or blank: 0).
    fn read(&self, slot: usize) -> Option<i64> {
        if let Some((s, v)) = self.pending {
            if s == slot {
                return Some(v);
            }
        }
        let name = self.names[slot].as_str();
        let Some(value) = self.sh.vars.get(name).and_then(|v| v.value.as_ref()) else {
            // Unset reads as 0, but for `set -u` and the shell's own
            // variables (all upper case), which may be computed on reading.
            let plain = name.as_bytes()[0].is_ascii_lowercase() && !self.sh.opts.nounset;
            return plain.then_some(0);
        };
        match value {
            Value::Scalar(v) => {
                let t = trim_blanks(v);
                if t.is_empty() {
                    return Some(0);
                }
                super::plain_decimal(t)
            }
            _ => None,
        }
    }

    /// A parameter's value as the text it expands to, when that reads as one
    /// number wherever it stands: digits without a leading zero (a sign
    /// could join an operator before it; blanks around are harmless).
    fn param(&self, slot: usize) -> Option<i64> {
        let name = self.params[slot].as_str();
        let owned;
        let text: &str = match name {
            "#" => {
                owned = self.sh.positional.len().to_string();
                &owned
            }
            "?" => {
                owned = self.sh.last_status.to_string();
                &owned
            }
            _ if name.as_bytes()[0].is_ascii_digit() => {
                let n: usize = name.parse().ok()?;
                self.sh.positional.get(n.checked_sub(1)?)?
            }
            _ => {
                if self.sh.vars.computed(name) {
                    return None;
                }
                match self.sh.vars.get_set(name)?.value.as_ref()? {
                    Value::Scalar(v) => v,
                    _ => return None,
                }
            }
        };
        let t = trim_blanks(text);
        if t.is_empty() || !t.bytes().all(|d| d.is_ascii_digit()) || (t.len() > 1 && t.starts_with('0')) {
            return None;
        }
        t.parse().ok()
    }

    fn eval(&mut self, n: &Node) -> Option<i64> {
        Some(match n {
            Node::Num(v) => *v,
            Node::Var(s) => self.read(*s)?,
            Node::Param(s) => self.param(*s)?,
            Node::Unary(op, a) => {
                let v = self.eval(a)?;
                match op {
                    Un::Not => i64::from(v == 0),
                    Un::BitNot => !v,
                    Un::Neg => v.wrapping_neg(),
                    Un::Plus => v,
                }
            }
            Node::Bin(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                binop(*op, x, y)?
            }
            Node::And(a, b) => i64::from(self.eval(a)? != 0 && self.eval(b)? != 0),
            Node::Or(a, b) => i64::from(self.eval(a)? != 0 || self.eval(b)? != 0),
            Node::Cond(c, a, b) => {
                if self.eval(c)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Node::Assign(op, s, rhs) => {
                // `x op= e` reads `x` before `e` is evaluated; `x = e` never reads it.
                let old = match op {
                    Some(_) => Some(self.read(*s)?),
                    None => None,
                };
                let v = self.eval(rhs)?;
                let v = match (op, old) {
                    (Some(op), Some(old)) => binop(*op, old, v)?,
                    _ => v,
                };
                self.pending = Some((*s, v));
                v
            }
            Node::PreStep(s, d) => {
                let v = self.read(*s)?.wrapping_add(*d);
                self.pending = Some((*s, v));
                v
            }
            Node::PostStep(s, d) => {
                let v = self.read(*s)?;
                self.pending = Some((*s, v.wrapping_add(*d)));
                v
            }
            Node::Comma(a, b) => {
                self.eval(a)?;
                self.eval(b)?
            }
        })
    }
}

/// A binary operator on wrapping i64, as `arith.rs` computes it; `None` for
/// its errors (division by 0, a negative exponent) and for the `MIN / -1`
/// corner, all left to the full evaluator.
fn binop(op: Bin, x: i64, y: i64) -> Option<i64> {
    Some(match op {
        Bin::Mul => x.wrapping_mul(y),
        Bin::Div | Bin::Mod if y == 0 || (x == i64::MIN && y == -1) => return None,
        Bin::Div => x / y,
        Bin::Mod => x % y,
        Bin::Add => x.wrapping_add(y),
        Bin::Sub => x.wrapping_sub(y),
        Bin::Shl => x.wrapping_shl((y & 63) as u32),
        Bin::Shr => x.wrapping_shr((y & 63) as u32),
        Bin::Lt => i64::from(x < y),
        Bin::Le => i64::from(x <= y),
        Bin::Gt => i64::from(x > y),
        Bin::Ge => i64::from(x >= y),
        Bin::Eq => i64::from(x == y),
        Bin::Ne => i64::from(x != y),
        Bin::BitAnd => x & y,
        Bin::BitXor => x ^ y,
        Bin::BitOr => x | y,
        Bin::Pow if y < 0 => return None,
        Bin::Pow if y == 0 => 1,
        Bin::Pow => super::ipow(x, y),
    })
}

/// `v` without the blanks around it (space, tab, newline), as the full
/// evaluator reads a variable; most values have none, checked first.
fn trim_blanks(v: &str) -> &str {
    let blank = |c: &u8| matches!(c, b' ' | b'\t' | b'\n');
    match (v.as_bytes().first(), v.as_bytes().last()) {
        (Some(f), Some(l)) if blank(f) || blank(l) => v.trim_matches([' ', '\t', '\n']),
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_compiles_and_the_rest_does_not() {
        for t in [
            "i<300000",
            "i++",
            "x + i % 7",
            "x+=i%7",
            "a ? b : c",
            "-2**2",
            "(x=5)+x",
            "--x",
            "$1 * 2",
            "${x}+$#",
            "i<$n",
            "$?",
        ] {
            assert!(compile(t).is_some(), "{t}");
        }
        for t in [
            "0 && 2**-1",
            "a ? 2**x : 1",
            "a[1]",
            "010",
            "0x1f",
            "2#101",
            "1--1",
            "x++ ++",
            "a=1, b=2",
            "(x)=1",
            "a ? b : c = 1",
            "x $ y",
            "",
            "1 ? 2",
            "((1)",
            "$0",
            "$_ + 1",
            "${#x}",
            "${x:-1}",
            "$(1)",
            "$@",
            "$x++",
            "$x = 1",
            "$1$2",
            "${1}0",
            "$x[0]",
        ] {
            assert!(compile(t).is_none(), "{t}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        let t = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert!(compile(&t).is_none());
        let t = "-".repeat(150) + "1";
        assert!(compile(&t).is_none());
    }

    #[test]
    fn plain_decimals_read_as_rust_parses_them() {
        use super::super::plain_decimal;
        for t in ["0", "-0", "+0", "7", "-7", "+7", "123456", "9223372036854775807", "-9223372036854775808"] {
            assert_eq!(plain_decimal(t), t.parse::<i64>().ok(), "{t}");
        }
        for t in ["", "-", "+", "07", "-07", "1a", "1 ", "--1", "9223372036854775808", "-9223372036854775809"] {
            assert_eq!(plain_decimal(t), None, "{t}");
        }
        assert_eq!(trim_blanks(" \t12\n"), "12");
        assert_eq!(trim_blanks("12"), "12");
        assert_eq!(trim_blanks(""), "");
    }
}
