//! awk's expression grammar, by precedence from assignment down to primaries (depth-bounded).

use super::*;

impl Parser<'_> {
    pub fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assignment();
        self.depth -= 1;
        r
    }

    pub(super) fn assignment(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match self.peek() {
            Tok::Assign => None,
            Tok::AddAssign => Some(BinOp::Add),
            Tok::SubAssign => Some(BinOp::Sub),
            Tok::MulAssign => Some(BinOp::Mul),
            Tok::DivAssign => Some(BinOp::Div),
            Tok::ModAssign => Some(BinOp::Mod),
            Tok::PowAssign => Some(BinOp::Pow),
            _ => return Ok(lhs),
        };
        let Expr::Lv(lv) = lhs else { return self.err() };
        let dl = self.d;
        self.i += 1;
        self.opt_nl();
        let rhs = self.expr()?;
        self.d = self.up(dl.max(self.d))?;
        Ok(Expr::Assign(lv, op, Box::new(rhs)))
    }

    pub(super) fn ternary(&mut self) -> PResult<Expr> {
        let c = self.or()?;
        if !self.eat(&Tok::Question) {
            return Ok(c);
        }
        let dc = self.d;
        self.opt_nl();
        let a = self.expr()?;
        let da = self.d;
        self.opt_nl();
        self.expect(Tok::Colon)?;
        self.opt_nl();
        let b = self.expr()?;
        self.d = self.up(dc.max(da).max(self.d))?;
        Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)))
    }

    pub(super) fn or(&mut self) -> PResult<Expr> {
        let mut a = self.and()?;
        let mut d = self.d;
        while self.eat(&Tok::Or) {
            self.opt_nl();
            let b = self.and()?;
            d = self.up(d.max(self.d))?;
            a = Expr::Or(Box::new(a), Box::new(b));
        }
        self.d = d;
        Ok(a)
    }

    pub(super) fn and(&mut self) -> PResult<Expr> {
        let mut a = self.in_()?;
        let mut d = self.d;
        while self.eat(&Tok::And) {
            self.opt_nl();
            let b = self.in_()?;
            d = self.up(d.max(self.d))?;
            a = Expr::And(Box::new(a), Box::new(b));
        }
        self.d = d;
        Ok(a)
    }

    pub(super) fn in_(&mut self) -> PResult<Expr> {
        let mut a = self.matching()?;
        while !self.no_in && *self.peek() == Tok::In {
            self.i += 1;
            let Tok::Name(n) = self.next() else {
                self.i -= 1;
                return self.err();
            };
            let v = self.var(&n);
            self.d = self.up(self.d)?;
            a = Expr::In(vec![a], v);
        }
        Ok(a)
    }

    pub(super) fn matching(&mut self) -> PResult<Expr> {
        let mut a = self.comparison()?;
        let mut d = self.d;
        loop {
            let neg = match self.peek() {
                Tok::Tilde => false,
                Tok::NoMatch => true,
                _ => {
                    self.d = d;
                    return Ok(a);
                }
            };
            self.i += 1;
            let b = self.comparison()?;
            d = self.up(d.max(self.d))?;
            a = Expr::Match(neg, Box::new(a), Box::new(b));
        }
    }

    pub(super) fn comparison(&mut self) -> PResult<Expr> {
        let a = self.pipe_getline()?;
        let da = self.d;
        let op = match self.peek() {
            Tok::Lt => CmpOp::Lt,
            Tok::Le => CmpOp::Le,
            Tok::Eq => CmpOp::Eq,
            Tok::Ne => CmpOp::Ne,
            Tok::Ge => CmpOp::Ge,
            Tok::Gt if !self.no_gt => CmpOp::Gt,
            _ => return Ok(a),
        };
        self.i += 1;
        let b = self.pipe_getline()?;
        self.d = self.up(da.max(self.d))?;
        Ok(Expr::Cmp(op, Box::new(a), Box::new(b)))
    }

    /// `cmd | getline [var]` binds looser than concatenation.
    pub(super) fn pipe_getline(&mut self) -> PResult<Expr> {
        let mut a = self.concat()?;
        let mut d = self.d;
        while *self.peek() == Tok::Pipe && *self.peek_at(1) == Tok::Getline {
            self.i += 2;
            self.d = 0;
            let lv = self.opt_lvalue()?;
            d = self.up(d.max(self.d))?;
            a = Expr::Getline(GetSrc::Cmd(Box::new(a)), lv);
        }
        self.d = d;
        Ok(a)
    }

    pub(super) fn concat(&mut self) -> PResult<Expr> {
        let mut a = self.additive()?;
        let mut d = self.d;
        loop {
            let starts = match self.peek() {
                Tok::Num(_)
                | Tok::Str(_)
                | Tok::Regex(_)
                | Tok::Name(_)
                | Tok::FuncName(_)
                | Tok::Builtin(_)
                | Tok::Dollar
                | Tok::Not
                | Tok::LParen
                | Tok::Minus
                | Tok::Plus
                | Tok::Incr
                | Tok::Decr => true,
                Tok::In => false,
                _ => false,
            };
            // `a -1` subtracts: unary signs never start a concatenated operand here.
            if !starts || matches!(self.peek(), Tok::Minus | Tok::Plus | Tok::Not) {
                self.d = d;
                return Ok(a);
            }
            let b = self.additive()?;
            d = self.up(d.max(self.d))?;
            a = Expr::Concat(Box::new(a), Box::new(b));
        }
    }

    pub(super) fn additive(&mut self) -> PResult<Expr> {
        let mut a = self.multiplicative()?;
        let mut d = self.d;
        loop {
            let op = match self.peek() {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                _ => {
                    self.d = d;
                    return Ok(a);
                }
            };
            self.i += 1;
            let b = self.multiplicative()?;
            d = self.up(d.max(self.d))?;
            a = Expr::Bin(op, Box::new(a), Box::new(b));
        }
    }

    pub(super) fn multiplicative(&mut self) -> PResult<Expr> {
        let mut a = self.unary()?;
        let mut d = self.d;
        loop {
            let op = match self.peek() {
                Tok::Star => BinOp::Mul,
                Tok::Slash => BinOp::Div,
                Tok::Percent => BinOp::Mod,
                _ => {
                    self.d = d;
                    return Ok(a);
                }
            };
            let pos = self.pos();
            self.i += 1;
            let b = self.unary()?;
            // gawk folds constant operands and reports a zero divisor while parsing.
            if let (Expr::Num(_), Expr::Num(d), BinOp::Div | BinOp::Mod) = (&a, &b, op) {
                if *d == 0.0 {
                    let msg = if op == BinOp::Mod {
                        "division by zero attempted in `%'"
                    } else {
                        "division by zero attempted"
                    };
                    return Err(SyntaxError { pos, msg: msg.into(), plain: true, line_after: false });
                }
            }
            d = self.up(d.max(self.d))?;
            a = Expr::Bin(op, Box::new(a), Box::new(b));
        }
    }

    pub(super) fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = match self.peek() {
            Tok::Not => {
                self.i += 1;
                self.unary_over(Expr::Not)
            }
            Tok::Minus => {
                self.i += 1;
                self.unary_over(Expr::Neg)
            }
            Tok::Plus => {
                self.i += 1;
                self.unary_over(Expr::Plus)
            }
            _ => self.power(),
        };
        self.depth -= 1;
        r
    }

    /// `op` over the next unary operand.
    pub(super) fn unary_over(&mut self, op: fn(Box<Expr>) -> Expr) -> PResult<Expr> {
        let e = self.unary()?;
        self.d = self.up(self.d)?;
        Ok(op(Box::new(e)))
    }

    pub(super) fn power(&mut self) -> PResult<Expr> {
        let base = self.postfix()?;
        if !self.eat(&Tok::Caret) {
            return Ok(base);
        }
        let db = self.d;
        // Right associative, and `2^-1` is allowed. `2^2^...` recurses here.
        self.enter()?;
        let exp = match self.peek() {
            Tok::Minus | Tok::Plus | Tok::Not => self.unary(),
            _ => self.power(),
        };
        self.depth -= 1;
        let exp = exp?;
        self.d = self.up(db.max(self.d))?;
        Ok(Expr::Bin(BinOp::Pow, Box::new(base), Box::new(exp)))
    }

    pub(super) fn postfix(&mut self) -> PResult<Expr> {
        let e = self.primary()?;
        match e {
            Expr::Lv(lv) => {
                let d = match self.peek() {
                    Tok::Incr => 1.0,
                    Tok::Decr => -1.0,
                    _ => return Ok(Expr::Lv(lv)),
                };
                self.i += 1;
                self.d = self.up(self.d)?;
                Ok(Expr::IncDec(lv, false, d))
            }
            e => Ok(e),
        }
    }

    pub(super) fn opt_lvalue(&mut self) -> PResult<Option<LValue>> {
        match self.peek() {
            Tok::Name(_) | Tok::Dollar => match self.primary()? {
                Expr::Lv(lv) => Ok(Some(lv)),
                _ => self.err(),
            },
            _ => Ok(None),
        }
    }

    pub(super) fn primary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.primary_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn primary_inner(&mut self) -> PResult<Expr> {
        let pos = self.pos();
        // Leaves; a node over children sets its own depth below.
        self.d = 1;
        match self.next() {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Regex(r) => {
                self.prog.regexes.push(r);
                Ok(Expr::Regex(self.prog.regexes.len() - 1))
            }
            Tok::Dollar => {
                let e = match self.peek() {
                    Tok::Incr | Tok::Decr | Tok::Minus | Tok::Plus | Tok::Not => self.unary()?,
                    _ => self.primary()?,
                };
                self.d = self.up(self.d)?;
                Ok(Expr::Lv(LValue::Field(Box::new(e))))
            }
            Tok::Incr | Tok::Decr => {
                let d = if self.toks[self.i - 1].tok == Tok::Incr { 1.0 } else { -1.0 };
                match self.primary()? {
                    Expr::Lv(lv) => {
                        self.d = self.up(self.d)?;
                        Ok(Expr::IncDec(lv, true, d))
                    }
                    _ => {
                        self.i -= 1;
                        self.err()
                    }
                }
            }
            Tok::Not => self.unary_over(Expr::Not),
            Tok::Minus => self.unary_over(Expr::Neg),
            Tok::Plus => self.unary_over(Expr::Plus),
            Tok::LParen => {
                let old = (self.no_gt, self.no_in);
                (self.no_gt, self.no_in) = (false, false);
                let list = self.expr_list(Tok::RParen);
                (self.no_gt, self.no_in) = old;
                let mut list = list?;
                self.d = self.up(self.d)?;
                if list.len() == 1 {
                    return Ok(Expr::Group(Box::new(list.remove(0))));
                }
                if list.is_empty() || *self.peek() != Tok::In {
                    return self.err();
                }
                self.i += 1;
                let Tok::Name(n) = self.next() else {
                    self.i -= 1;
                    return self.err();
                };
                let v = self.var(&n);
                Ok(Expr::In(list, v))
            }
            Tok::Name(n) => {
                let v = self.var(&n);
                if self.eat(&Tok::LBracket) {
                    let subs = self.subscripts()?;
                    self.d = self.up(self.d)?;
                    Ok(Expr::Lv(LValue::Index(v, subs)))
                } else {
                    Ok(Expr::Lv(LValue::Var(v)))
                }
            }
            Tok::FuncName(n) => {
                self.expect(Tok::LParen)?;
                let args = self.call_args()?;
                self.d = self.up(self.d)?;
                let f = self.func(&n);
                self.call_pos.entry(f).or_insert(pos);
                self.prog.calls.push((f, args.len(), pos));
                Ok(Expr::Call(f, args))
            }
            Tok::Builtin(name) => {
                if *self.peek() != Tok::LParen {
                    if name == "length" {
                        return Ok(Expr::Builtin(name, Vec::new()));
                    }
                    return self.err();
                }
                self.i += 1;
                let args = self.call_args()?;
                self.d = self.up(self.d)?;
                if let Some(&(_, lo, hi)) = ARITY.iter().find(|a| a.0 == name) {
                    if args.len() < lo || args.len() > hi {
                        let close = self.toks[self.i - 1].pos;
                        let msg = format!("{} is invalid as number of arguments for {name}", args.len());
                        return Err(SyntaxError::new(close, msg));
                    }
                }
                Ok(Expr::Builtin(name, args))
            }
            Tok::Getline => {
                let lv = self.opt_lvalue()?;
                let dl = self.d;
                if self.eat(&Tok::Lt) {
                    let f = self.primary()?;
                    self.d = self.up(dl.max(self.d))?;
                    return Ok(Expr::Getline(GetSrc::File(Box::new(f)), lv));
                }
                self.d = self.up(dl)?;
                Ok(Expr::Getline(GetSrc::Main, lv))
            }
            _ => {
                self.i -= 1;
                self.err()
            }
        }
    }

    pub(super) fn call_args(&mut self) -> PResult<Vec<Expr>> {
        let old = (self.no_gt, self.no_in);
        (self.no_gt, self.no_in) = (false, false);
        let r = self.expr_list(Tok::RParen);
        (self.no_gt, self.no_in) = old;
        r
    }
}
