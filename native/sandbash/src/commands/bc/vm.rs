//! bc's interpreter: the machine that runs statements on arbitrary-precision numbers, with the budget checked in every loop.

use super::*;

/// Why execution of a line stopped early.
pub(super) enum Flow {
    Break,
    Continue,
    Return(Num),
    /// A runtime error (message already printed) or the budget ran out.
    Abort,
    Halt,
}

pub(super) type XRes<T> = Result<T, Flow>;

pub(super) type Array = HashMap<u64, Num>;

/// Most digits a bc number may have here.
pub(super) const MAX_DIGITS: usize = 200_000;

/// Largest array index (BC_DIM_MAX).
pub(super) const DIM_MAX: u64 = 16_777_215;

pub(super) struct Machine<'c, 'x> {
    pub(super) ctx: &'c CommandContext<'x>,
    pub(super) vars: HashMap<String, Num>,
    pub(super) arrays: HashMap<String, Array>,
    pub(super) funcs: HashMap<String, Arc<Func>>,
    pub(super) scale: usize,
    pub(super) ibase: u64,
    pub(super) obase: u64,
    pub(super) last: Num,
    pub(super) out: Vec<u8>,
    /// Output and messages not yet written, in the order they came.
    pub(super) pending: Vec<(bool, Vec<u8>)>,
    pub(super) col: usize,
    pub(super) line_size: usize,
    /// Names of the functions being run (for error messages).
    pub(super) frames: Vec<String>,
    /// Operations evaluated in this line (stands in for GNU's code address).
    pub(super) adr: usize,
    pub(super) steps: u64,
    pub(super) max_digits: usize,
    pub(super) stopped: bool,
    /// `-l`: s, c, a, l, e and j are defined.
    pub(super) mathlib: bool,
}

impl Machine<'_, '_> {
    pub(super) fn ok(&mut self) -> bool {
        self.steps += 1;
        if self.steps & 255 == 0 && !self.ctx.still_running() {
            self.stopped = true;
        }
        !self.stopped
    }

    /// One turn of a `while`/`for`: counted against the exec's total loop
    /// budget like the shell's own loops; past it, bc stops with the reason.
    pub(super) fn loop_turn(&mut self) -> XRes<()> {
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

    pub(super) fn where_(&self) -> String {
        let f = self.frames.last().map_or("(main)".to_string(), |s| s.clone());
        format!("(func={f}, adr={})", self.adr)
    }
    pub(super) fn rt_error(&mut self, msg: &str) -> Flow {
        let m = format!("Runtime error {}: {msg}\n", self.where_());
        self.note_err(m.as_bytes());
        Flow::Abort
    }
    pub(super) fn rt_warn(&mut self, msg: &str) {
        let m = format!("Runtime warning {}: {msg}\n", self.where_());
        self.note_err(m.as_bytes());
    }

    /// bc's out_char: wrap lines at `line_size - 1` columns with `\`.
    pub(super) fn out_char(&mut self, c: u8) {
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
    pub(super) fn out_str(&mut self, s: &[u8]) {
        for &c in s {
            self.out_char(c);
        }
    }
    pub(super) fn out_num(&mut self, n: &Num) {
        let s = to_base(n, self.obase);
        self.out_str(s.as_bytes());
    }

    /// A constant in the current `ibase` (GNU's push_constant rules).
    pub(super) fn constant(&self, text: &str) -> Num {
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

    pub(super) fn check_size(&mut self, n: &Num) -> XRes<()> {
        self.check_digits(n.v.digit_count())
    }

    /// Refuse an operation whose result would pass MAX_DIGITS, before doing it.
    pub(super) fn check_digits(&mut self, digits: usize) -> XRes<()> {
        if digits > self.max_digits {
            return Err(self.rt_error("number too large"));
        }
        Ok(())
    }

    pub(super) fn index(&mut self, name: &str, e: &Expr) -> XRes<u64> {
        let v = self.eval(e)?;
        self.check_index(name, &v)
    }

    /// An array subscript in range, or GNU's runtime error.
    pub(super) fn check_index(&mut self, name: &str, v: &Num) -> XRes<u64> {
        match v.to_i64() {
            Some(i) if (0..=DIM_MAX as i64).contains(&i) => Ok(i as u64),
            _ => Err(self.rt_error(&format!("Array {name} subscript out of bounds."))),
        }
    }

    pub(super) fn load(&mut self, lv: &LVal) -> XRes<Num> {
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

    pub(super) fn store(&mut self, lv: &LVal, v: Num) -> XRes<()> {
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

    pub(super) fn binop(&mut self, op: &str, a: &Num, b: &Num) -> XRes<Num> {
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
    pub(super) fn const_code_len(text: &str) -> usize {
        if text == "0" || text == "1" {
            return 1;
        }
        let t = text.trim_start_matches('0');
        (if t.is_empty() { 1 } else { t.len() }) + 2
    }

    /// The byte code size of `e` (what `eval` adds to `adr` when every part runs).
    pub(super) fn expr_len(e: &Expr) -> usize {
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
    pub(super) fn stmt_len(s: &Stmt) -> usize {
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
    pub(super) fn eval(&mut self, e: &Expr) -> XRes<Num> {
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

    pub(super) fn call(&mut self, name: &str, args: &[CallArg]) -> XRes<Num> {
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
    pub(super) fn builtin_lib(&mut self, name: &str, args: &[CallArg]) -> XRes<Option<Num>> {
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

    pub(super) fn block(&mut self, body: &[Stmt]) -> XRes<()> {
        for s in body {
            self.exec(s)?;
        }
        Ok(())
    }

    pub(super) fn exec(&mut self, s: &Stmt) -> XRes<()> {
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
    pub(super) fn note_err(&mut self, msg: &[u8]) {
        if !self.out.is_empty() {
            let o = std::mem::take(&mut self.out);
            self.pending.push((false, o));
        }
        self.pending.push((true, msg.to_vec()));
    }

    pub(super) async fn flush(&mut self) -> Result<(), crate::io::IoError> {
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
pub(super) async fn run_source(m: &mut Machine<'_, '_>, src: &[u8], label: &str) -> Result<bool, crate::io::IoError> {
    let (toks, illegal) = match lex(src) {
        Ok(lexed) => lexed,
        Err(stop) => {
            crate::commands::util::operands::stop_exec(m.ctx.budget, stop);
            return Ok(false);
        }
    };
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
            // A line of millions of them is reported as it goes.
            if m.pending.len() >= 4096 {
                m.flush().await?;
            }
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
