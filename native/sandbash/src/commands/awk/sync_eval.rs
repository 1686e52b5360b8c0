//! Expressions that never wait (no getline, function calls, builtins or
//! dynamic regexes: the per-record work of most programs) evaluated without a
//! boxed future per node, and `$n` read as a number without making a value.
//! The semantics live in the helpers `eval` uses too (`assign_loc`,
//! `cmp_value`, `concat`, ...); this only walks the tree synchronously.

use super::*;

/// Whether `eval_sync` can evaluate `e`: decided by its shape alone, so a
/// caller picks a path before anything is evaluated.
pub(super) fn is_sync(e: &Expr) -> bool {
    match e {
        Expr::Num(_) | Expr::Str(_) | Expr::Regex(_) => true,
        Expr::Lv(lv) | Expr::IncDec(lv, ..) => lv_sync(lv),
        Expr::Assign(lv, _, r) => lv_sync(lv) && is_sync(r),
        Expr::Cond(a, b, c) => is_sync(a) && is_sync(b) && is_sync(c),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) | Expr::Concat(a, b) => {
            is_sync(a) && is_sync(b)
        }
        Expr::Not(a) | Expr::Neg(a) | Expr::Plus(a) | Expr::Group(a) => is_sync(a),
        Expr::In(subs, _) => subs.iter().all(is_sync),
        Expr::Match(..) | Expr::Call(..) | Expr::Builtin(..) | Expr::Getline(..) => false,
    }
}

fn lv_sync(lv: &LValue) -> bool {
    match lv {
        LValue::Var(_) => true,
        LValue::Field(e) => is_sync(e),
        LValue::Index(_, subs) => subs.iter().all(is_sync),
    }
}

fn truth(b: bool) -> Value {
    Value::Num(f64::from(u8::from(b)))
}

impl<'p> Interp<'p, '_, '_> {
    /// `eval` for an expression `is_sync` accepted.
    pub(super) fn eval_sync(&mut self, e: &'p Expr) -> R<Value> {
        if crate::limits::stack_low() {
            // Deep calls (whose bodies run on stacks `GrowStack` keeps only
            // 256 KiB deep) or a deep tree in a debug build: go on on a
            // fresh segment. Trees are at most MAX_TREE_DEPTH deep and calls
            // max_function_depth, so the segments stay bounded.
            return stacker::grow(4 << 20, || self.eval_sync(e));
        }
        Ok(match e {
            Expr::Num(n) => Value::Num(*n),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Regex(i) => self.record_matches(*i),
            Expr::Group(g) => self.eval_sync(g)?,
            Expr::Lv(lv) => {
                let l = self.resolve_sync(lv)?;
                self.load(&l)?
            }
            Expr::Assign(lv, op, rhs) => {
                // `x op= e` uses e's number only.
                let r = if op.is_some() { Value::Num(self.num_sync(rhs)?) } else { self.eval_sync(rhs)? };
                let l = self.resolve_sync(lv)?;
                self.assign_loc(&l, *op, r)?
            }
            Expr::Cond(c, a, b) => {
                if self.eval_sync(c)?.truthy() {
                    self.eval_sync(a)?
                } else {
                    self.eval_sync(b)?
                }
            }
            Expr::And(a, b) => truth(self.eval_sync(a)?.truthy() && self.eval_sync(b)?.truthy()),
            Expr::Or(a, b) => truth(self.eval_sync(a)?.truthy() || self.eval_sync(b)?.truthy()),
            Expr::Not(a) => truth(!self.eval_sync(a)?.truthy()),
            Expr::Neg(a) => Value::Num(-self.num_sync(a)?),
            Expr::Plus(a) => Value::Num(self.num_sync(a)?),
            Expr::Bin(op, a, b) => {
                let x = self.num_sync(a)?;
                let y = self.num_sync(b)?;
                Value::Num(self.arith(*op, x, y, false)?)
            }
            Expr::Cmp(op, a, b) => {
                if let (Expr::Lv(LValue::Field(i)), Expr::Str(lit)) = (&**a, &**b) {
                    // A string constant makes it a string comparison of the
                    // field's text: no value made of either.
                    let v = self.eval_sync(i)?;
                    let i = self.field_index(&v)?;
                    if let Some(o) = self.field_cmp_str(i, lit) {
                        return Ok(truth(cmp_holds(*op, o)));
                    }
                    let x = self.get_field(i);
                    return Ok(cmp_value(*op, &x, &Value::Str(lit.clone()), &self.convfmt));
                }
                let x = self.eval_sync(a)?;
                let y = self.eval_sync(b)?;
                cmp_value(*op, &x, &y, &self.convfmt)
            }
            Expr::Concat(a, b) => {
                let x = self.eval_sync(a)?;
                let y = self.eval_sync(b)?;
                self.concat(x, &y)?
            }
            Expr::In(subs, arr) => {
                let k = self.subscript_sync(subs)?;
                let id = self.array_id(*arr)?;
                truth(self.arrays[id].contains(&k))
            }
            Expr::IncDec(lv, pre, d) => {
                let l = self.resolve_sync(lv)?;
                self.incdec(&l, *pre, *d)?
            }
            Expr::Match(..) | Expr::Call(..) | Expr::Builtin(..) | Expr::Getline(..) => {
                return fatal("internal error: not a synchronous expression")
            }
        })
    }

    /// The number `e` evaluates to; a field is converted from its text
    /// directly (its numeric value is the text's numeric prefix either way).
    fn num_sync(&mut self, e: &'p Expr) -> R<f64> {
        match e {
            Expr::Lv(LValue::Field(i)) => {
                let v = self.eval_sync(i)?;
                let i = self.field_index(&v)?;
                Ok(self.field_num(i))
            }
            Expr::Group(g) => self.num_sync(g),
            e => Ok(self.eval_sync(e)?.num()),
        }
    }

    fn resolve_sync(&mut self, lv: &'p LValue) -> R<Loc> {
        Ok(match lv {
            LValue::Var(v) => Loc::Var(*v),
            LValue::Field(e) => {
                let v = self.eval_sync(e)?;
                Loc::Field(self.field_index(&v)?)
            }
            LValue::Index(v, subs) => {
                let id = self.array_id(*v)?;
                let k = self.subscript_sync(subs)?;
                Loc::Elem(id, k)
            }
        })
    }

    fn subscript_sync(&mut self, subs: &'p [Expr]) -> R<String> {
        if let [e] = subs {
            return Ok(self.eval_sync(e)?.str(&self.convfmt));
        }
        let mut k = String::new();
        for (i, e) in subs.iter().enumerate() {
            if i > 0 {
                k.push_str(&self.subsep);
            }
            let v = self.eval_sync(e)?;
            k.push_str(&v.str(&self.convfmt));
        }
        Ok(k)
    }

    /// `print e1, e2` to stdout when every argument is synchronous: appends
    /// the line to the output buffer (the caller flushes it when large).
    pub(super) fn print_sync(&mut self, args: &'p [Expr]) -> R<()> {
        let mut out = std::mem::take(&mut self.line_buf);
        out.clear();
        if args.is_empty() {
            out.push_str(self.record());
        }
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(&self.ofs);
            }
            let v = self.eval_sync(a);
            match v {
                Ok(v) => self.push_printed(&mut out, v),
                Err(e) => {
                    self.line_buf = out;
                    return Err(e);
                }
            }
        }
        out.push_str(&self.ors);
        self.out_buf.extend_from_slice(out.as_bytes());
        self.line_buf = out;
        Ok(())
    }
}
