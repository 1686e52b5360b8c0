//! jq arithmetic on values: + - * / % and their errors.

use super::*;

// ---------------------------------------------------------------------------
// Arithmetic
// ---------------------------------------------------------------------------

pub(super) type ValR = Result<Val, Error<Val>>;

pub(super) fn binop_err(l: &Val, r: &Val, what: &str) -> ValR {
    Val::err(format!("{} and {} {what}", l.describe(), r.describe()))
}

impl std::ops::Add for Val {
    type Output = ValR;
    fn add(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (Val::Null, x) | (x, Val::Null) => Ok(x),
            (a, b) if a.is_num() && b.is_num() => Ok(Val::Num(a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0))),
            (Val::Str(a), Val::Str(b)) => {
                check_len(a.len() + b.len(), "string");
                Ok(Val::string(format!("{a}{b}")))
            }
            (a @ Val::Arr(_), b @ Val::Arr(_)) => {
                let mut l = a.into_items().unwrap_or_default();
                let r = b.into_items().unwrap_or_default();
                check_len(l.len() + r.len(), "array");
                l.extend(r);
                Ok(Val::arr(l))
            }
            (a @ Val::Obj(_), b @ Val::Obj(_)) => {
                let mut l = a.into_map().unwrap_or_default();
                for (k, v) in b.into_map().unwrap_or_default() {
                    l.insert(k, v);
                }
                Ok(Val::obj(l))
            }
            (a, b) => binop_err(&a, &b, "cannot be added"),
        }
    }
}

impl std::ops::Sub for Val {
    type Output = ValR;
    fn sub(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => Ok(Val::Num(a.as_f64().unwrap_or(0.0) - b.as_f64().unwrap_or(0.0))),
            (a @ Val::Arr(_), Val::Arr(b)) => {
                let mut l = a.into_items().unwrap_or_default();
                l.retain(|x| !b.items.contains(x));
                Ok(Val::arr(l))
            }
            (a, b) => binop_err(&a, &b, "cannot be subtracted"),
        }
    }
}

pub(super) fn deep_merge(mut l: Map, r: Map) -> Map {
    for (k, v) in r {
        let merged = match (l.get(&k), &v) {
            (Some(Val::Obj(_)), Val::Obj(_)) => {
                let old = l.get(&k).cloned().and_then(Val::into_map).unwrap_or_default();
                Val::obj(deep_merge(old, v.into_map().unwrap_or_default()))
            }
            _ => v,
        };
        l.insert(k, merged);
    }
    l
}

pub(super) fn repeat_str(s: &str, n: f64) -> ValR {
    // jq 1.7: a count below 1 (after truncation) gives "" for (0, 1), null below.
    if n.is_nan() || n < 0.0 {
        return Ok(Val::Null);
    }
    let times = n as usize;
    check_len(s.len().saturating_mul(times), "string");
    Ok(Val::string(s.repeat(times)))
}

impl std::ops::Mul for Val {
    type Output = ValR;
    fn mul(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => Ok(Val::Num(a.as_f64().unwrap_or(0.0) * b.as_f64().unwrap_or(0.0))),
            (Val::Str(s), n) | (n, Val::Str(s)) if n.is_num() => repeat_str(&s, n.as_f64().unwrap_or(0.0)),
            (a @ Val::Obj(_), b @ Val::Obj(_)) => {
                Ok(Val::obj(deep_merge(a.into_map().unwrap_or_default(), b.into_map().unwrap_or_default())))
            }
            (a, b) => binop_err(&a, &b, "cannot be multiplied"),
        }
    }
}

impl std::ops::Div for Val {
    type Output = ValR;
    fn div(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => {
                let d = b.as_f64().unwrap_or(0.0);
                if d == 0.0 {
                    return binop_err(&a, &b, "cannot be divided because the divisor is zero");
                }
                Ok(Val::Num(a.as_f64().unwrap_or(0.0) / d))
            }
            (Val::Str(a), Val::Str(b)) => Ok(split_str(&a, &b)),
            (a, b) => binop_err(&a, &b, "cannot be divided"),
        }
    }
}

/// `"a,b" / ","`: jq's split on a literal separator.
pub fn split_str(s: &str, sep: &str) -> Val {
    if s.is_empty() {
        return Val::arr(Vec::new());
    }
    if sep.is_empty() {
        // jq 1.7 splits into characters... as bytes; characters are the useful reading.
        return Val::arr(s.chars().map(|c| Val::string(c.to_string())).collect());
    }
    Val::arr(s.split(sep).map(Val::str).collect())
}

impl std::ops::Rem for Val {
    type Output = ValR;
    fn rem(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => {
                let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
                // jq 1.7 truncates both operands to integers.
                let (xi, yi) = (x as i64, y as i64);
                if yi == 0 {
                    return binop_err(&a, &b, "cannot be divided (remainder) because the divisor is zero");
                }
                if x.is_nan() || y.is_nan() {
                    return Ok(Val::Num(f64::NAN));
                }
                Ok(Val::Num(xi.wrapping_rem(yi.wrapping_abs()) as f64))
            }
            (a, b) => binop_err(&a, &b, "cannot be divided"),
        }
    }
}

impl std::ops::Neg for Val {
    type Output = ValR;
    fn neg(self) -> ValR {
        tick();
        match self.as_f64() {
            Some(f) => Ok(Val::Num(-f)),
            None => Val::err(format!("{} cannot be negated", self.describe())),
        }
    }
}
