//! `bc`'s numbers: an integer scaled by 10^-scale, with GNU bc's rules for
//! the scale of each result (number.c): sums keep the larger scale, products
//! are cut to `min(a+b, max(scale, a, b))`, quotients to `scale`, and every
//! cut truncates. Also output in any `obase` and the `-l` math library,
//! computed with the same series and working scales as GNU's libmath.b.

use crate::commands::util::bignum::BigInt;
use std::cmp::Ordering;

#[derive(Clone, Debug, Default)]
pub struct Num {
    pub v: BigInt,
    pub s: usize,
}

impl Num {
    pub fn int(n: i64) -> Num {
        Num { v: BigInt::from_i64(n), s: 0 }
    }
    /// A decimal constant as written (`1.50` keeps scale 2); digits only.
    pub fn parse10(text: &str) -> Num {
        if !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Num::default();
        }
        let (ip, fp) = text.split_once('.').unwrap_or((text, ""));
        let mut digits = String::with_capacity(text.len());
        digits.push_str(ip);
        digits.push_str(fp);
        if digits.is_empty() {
            return Num::default();
        }
        Num { v: BigInt::from_digits(false, digits.as_bytes()), s: fp.len() }
    }
    pub fn is_zero(&self) -> bool {
        self.v.is_zero()
    }
    pub fn is_neg(&self) -> bool {
        self.v.is_neg()
    }
    pub fn neg(&self) -> Num {
        Num { v: self.v.neg(), s: self.s }
    }
    /// Rescale (extend with zeros or truncate).
    pub fn rescale(&self, s: usize) -> Num {
        let v = if s >= self.s { self.v.shl10(s - self.s) } else { self.v.shr10(self.s - s) };
        Num { v, s }
    }
    pub fn cmp(&self, o: &Num) -> Ordering {
        let s = self.s.max(o.s);
        self.rescale(s).v.cmp(&o.rescale(s).v)
    }
    pub fn trunc(&self) -> Num {
        self.rescale(0)
    }
    /// The integer part as an i64 (`None` when it does not fit).
    pub fn to_i64(&self) -> Option<i64> {
        self.trunc().v.to_i64()
    }
    /// Digits of the integer part (bc's n_len).
    pub fn int_len(&self) -> usize {
        let t = self.trunc();
        if t.is_zero() {
            1
        } else {
            t.v.digit_count()
        }
    }

    pub fn add(&self, o: &Num) -> Num {
        let s = self.s.max(o.s);
        Num { v: self.rescale(s).v.add(&o.rescale(s).v), s }
    }
    pub fn sub(&self, o: &Num) -> Num {
        self.add(&o.neg())
    }
    pub fn mul(&self, o: &Num, scale: usize) -> Num {
        let full = self.s + o.s;
        let ps = full.min(scale.max(self.s).max(o.s));
        Num { v: self.v.mul(&o.v), s: full }.rescale(ps)
    }
    /// `None` when dividing by zero.
    pub fn div(&self, o: &Num, scale: usize) -> Option<Num> {
        if o.is_zero() {
            return None;
        }
        let num = self.v.shl10(o.s + scale);
        let den = o.v.shl10(self.s);
        let (q, _) = num.divmod(&den)?;
        Some(Num { v: q, s: scale })
    }
    pub fn modulo(&self, o: &Num, scale: usize) -> Option<Num> {
        let rscale = self.s.max(o.s + scale);
        let t = self.div(o, scale)?;
        let t = t.mul(o, rscale);
        let r = self.sub(&t);
        Some(if r.s < rscale { r.rescale(rscale) } else { r })
    }
    /// `self ^ e` for an integer `e` (GNU's bc_raise, scale rules included).
    pub fn pow(&self, e: i64, scale: usize, ok: &mut dyn FnMut() -> bool) -> Option<Num> {
        if e == 0 {
            return Some(Num::int(1));
        }
        let neg = e < 0;
        let mut e = e.unsigned_abs();
        let rscale = if neg { scale } else { (self.s.saturating_mul(e as usize)).min(scale.max(self.s)) };
        let mut power = self.clone();
        let mut pwrscale = self.s;
        while e & 1 == 0 {
            pwrscale = pwrscale.saturating_mul(2);
            power = power.mul(&power, pwrscale);
            e >>= 1;
            if !ok() {
                return None;
            }
        }
        let mut temp = power.clone();
        let mut calcscale = pwrscale;
        e >>= 1;
        while e > 0 {
            pwrscale = pwrscale.saturating_mul(2);
            power = power.mul(&power, pwrscale);
            if e & 1 == 1 {
                calcscale = calcscale.saturating_add(pwrscale);
                temp = temp.mul(&power, calcscale);
            }
            e >>= 1;
            if !ok() {
                return None;
            }
        }
        if neg {
            Num::int(1).div(&temp, rscale)
        } else if temp.s > rscale {
            Some(temp.rescale(rscale))
        } else {
            Some(temp)
        }
    }
    /// Truncated square root of a non-negative number at `max(scale, s)`.
    pub fn sqrt(&self, scale: usize) -> Num {
        let rscale = scale.max(self.s);
        let v = self.v.shl10(2 * rscale - self.s).isqrt();
        Num { v, s: rscale }
    }
    /// bc's `length()`: significant digits.
    pub fn length(&self) -> usize {
        if self.trunc().is_zero() {
            self.s.max(1)
        } else {
            self.int_len() + self.s
        }
    }
}

/// Render `n` in `obase` as GNU bc's bc_out_num does (before line wrapping).
pub fn to_base(n: &Num, obase: u64) -> String {
    let mut out = String::new();
    if n.is_neg() {
        out.push('-');
    }
    if n.is_zero() {
        return "0".into();
    }
    let abs = Num { v: n.v.abs(), s: n.s };
    if obase == 10 {
        let d = abs.v.digits();
        let d = if d.len() <= abs.s { format!("{}{d}", "0".repeat(abs.s - d.len() + 1)) } else { d };
        let (ip, fp) = d.split_at(d.len() - abs.s);
        if ip != "0" {
            out.push_str(ip);
        }
        if abs.s > 0 {
            out.push('.');
            out.push_str(fp);
        }
        return out;
    }
    const REF: &[u8; 16] = b"0123456789ABCDEF";
    let width = (obase - 1).to_string().len();
    let digit = |d: u64, out: &mut String, space: bool| {
        if obase <= 16 {
            out.push(REF[d as usize] as char);
        } else {
            if space {
                out.push(' ');
            }
            out.push_str(&format!("{d:0width$}"));
        }
    };
    let int = abs.trunc();
    let mut frac = abs.sub(&int);
    let base = BigInt::from_i64(obase as i64);
    let mut stack = Vec::new();
    let mut iv = int.v;
    while !iv.is_zero() {
        let Some((q, r)) = iv.divmod(&base) else { break };
        stack.push(r.to_i64().unwrap_or(0) as u64);
        iv = q;
    }
    for &d in stack.iter().rev() {
        digit(d, &mut out, true);
    }
    if abs.s > 0 {
        out.push('.');
        let b = Num::int(obase as i64);
        let mut t = Num::int(1);
        let mut first = true;
        while t.int_len() <= abs.s {
            frac = frac.mul(&b, abs.s);
            let fd = frac.trunc();
            frac = frac.sub(&fd);
            digit(fd.to_i64().unwrap_or(0) as u64, &mut out, !first);
            first = false;
            t = t.mul(&b, 0);
        }
    }
    out
}

/// The `-l` library. Each function mirrors the working scales of GNU's
/// libmath.b so the last digits agree; `ok` is polled in every loop.
pub mod lib {
    use super::Num;

    fn c(s: &str) -> Num {
        Num::parse10(s)
    }
    fn div(a: &Num, b: &Num, scale: usize) -> Num {
        a.div(b, scale).unwrap_or_default()
    }
    fn scale_of(n: &Num) -> usize {
        n.to_i64().unwrap_or(0).max(0) as usize
    }

    pub fn e(x: &Num, scale: usize, ok: &mut dyn FnMut() -> bool) -> Num {
        let mut x = x.clone();
        let m = x.is_neg();
        if m {
            x = x.neg();
        }
        let z = scale;
        let n = Num::int(6 + z as i64).add(&c(".44").mul(&x, z));
        let mut sc = x.s + 1;
        let mut f = 0u64;
        let one = Num::int(1);
        while x.cmp(&one).is_gt() {
            f += 1;
            x = div(&x, &Num::int(2), sc);
            sc += 1;
            if !ok() {
                return Num::default();
            }
        }
        sc = scale_of(&n);
        let mut v = one.add(&x);
        let mut a = x.clone();
        let mut d = Num::int(1);
        let mut i = 2i64;
        loop {
            a = a.mul(&x, sc);
            d = d.mul(&Num::int(i), sc);
            let e = div(&a, &d, sc);
            if e.is_zero() || !ok() {
                for _ in 0..f {
                    v = v.mul(&v, sc);
                }
                return if m { div(&one, &v, z) } else { div(&v, &one, z) };
            }
            v = v.add(&e);
            i += 1;
        }
    }

    pub fn l(x: &Num, scale: usize, ok: &mut dyn FnMut() -> bool) -> Num {
        let mut x = x.clone();
        if x.is_neg() || x.is_zero() {
            let p = Num::int(10).pow(scale as i64, scale, ok).unwrap_or_default();
            return div(&Num::int(1).sub(&p), &Num::int(1), scale);
        }
        let z = scale;
        let sc = 6 + z;
        let mut f = Num::int(2);
        let two = Num::int(2);
        let half = c(".5");
        while x.cmp(&two).is_ge() && ok() {
            f = f.mul(&two, sc);
            x = x.sqrt(sc);
        }
        while x.cmp(&half).is_le() && ok() {
            f = f.mul(&two, sc);
            x = x.sqrt(sc);
        }
        let one = Num::int(1);
        let mut n = div(&x.sub(&one), &x.add(&one), sc);
        let mut v = n.clone();
        let m = n.mul(&n, sc);
        let mut i = 3i64;
        loop {
            n = n.mul(&m, sc);
            let e = div(&n, &Num::int(i), sc);
            if e.is_zero() || !ok() {
                v = f.mul(&v, sc);
                return div(&v, &one, z);
            }
            v = v.add(&e);
            i += 2;
        }
    }

    pub fn s(x: &Num, scale: usize, ok: &mut dyn FnMut() -> bool) -> Num {
        let z = scale;
        let mut sc = scale_of(&c("1.1").mul(&Num::int(z as i64), z).add(&Num::int(2)));
        let v = a(&Num::int(1), sc, ok);
        let mut x = x.clone();
        let m = x.is_neg();
        if m {
            x = x.neg();
        }
        sc = 0;
        let n = div(&div(&x, &v, sc).add(&Num::int(2)), &Num::int(4), sc);
        x = x.sub(&Num::int(4).mul(&n, sc).mul(&v, sc));
        if !n.modulo(&Num::int(2), sc).unwrap_or_default().is_zero() {
            x = x.neg();
        }
        sc = z + 2;
        let mut v = x.clone();
        let mut e = x.clone();
        let s = x.neg().mul(&x, sc);
        let mut i = 3i64;
        loop {
            e = e.mul(&div(&s, &Num::int(i * (i - 1)), sc), sc);
            if e.is_zero() || !ok() {
                let one = Num::int(1);
                return if m { div(&v.neg(), &one, z) } else { div(&v, &one, z) };
            }
            v = v.add(&e);
            i += 2;
        }
    }

    pub fn cos(x: &Num, scale: usize, ok: &mut dyn FnMut() -> bool) -> Num {
        let z = scale;
        let sc = scale_of(&Num::int(z as i64).mul(&c("1.2"), z));
        let shift = a(&Num::int(1), sc, ok).mul(&Num::int(2), sc);
        let v = s(&x.add(&shift), sc, ok);
        div(&v, &Num::int(1), z)
    }

    pub fn a(x: &Num, scale: usize, ok: &mut dyn FnMut() -> bool) -> Num {
        let mut x = x.clone();
        let mut m = Num::int(1);
        if x.is_neg() {
            m = Num::int(-1);
            x = x.neg();
        }
        let fifth = c(".2");
        let known = |t: [&str; 3]| -> Option<Num> {
            let k = if scale <= 25 {
                t[0]
            } else if scale <= 40 {
                t[1]
            } else if scale <= 60 {
                t[2]
            } else {
                return None;
            };
            Some(div(&c(k), &m, scale))
        };
        if x.cmp(&Num::int(1)).is_eq() {
            if let Some(r) = known([
                ".7853981633974483096156608",
                ".7853981633974483096156608458198757210492",
                ".785398163397448309615660845819875721049292349843776455243736",
            ]) {
                return r;
            }
        }
        if x.cmp(&fifth).is_eq() {
            if let Some(r) = known([
                ".1973955598498807583700497",
                ".1973955598498807583700497651947902934475",
                ".197395559849880758370049765194790293447585103787852101517688",
            ]) {
                return r;
            }
        }
        let z = scale;
        let mut av = Num::default();
        if x.cmp(&fifth).is_gt() {
            av = a(&fifth, z + 5, ok);
        }
        let sc = z + 3;
        let mut f = Num::default();
        let one = Num::int(1);
        while x.cmp(&fifth).is_gt() && ok() {
            f = f.add(&one);
            x = div(&x.sub(&fifth), &one.add(&x.mul(&fifth, sc)), sc);
        }
        let mut v = x.clone();
        let mut n = x.clone();
        let s = x.neg().mul(&x, sc);
        let mut i = 3i64;
        loop {
            n = n.mul(&s, sc);
            let e = div(&n, &Num::int(i), sc);
            if e.is_zero() || !ok() {
                return div(&f.mul(&av, z).add(&v), &m, z);
            }
            v = v.add(&e);
            i += 2;
        }
    }

    pub fn j(n: &Num, x: &Num, scale: usize, ok: &mut dyn FnMut() -> bool) -> Num {
        let z = scale;
        let mut n = div(n, &Num::int(1), 0);
        let mut m = false;
        if n.is_neg() {
            n = n.neg();
            m = !n.modulo(&Num::int(2), 0).unwrap_or_default().is_zero();
        }
        let nn = n.to_i64().unwrap_or(0);
        let mut f = Num::int(1);
        let mut i = 2i64;
        while i <= nn && ok() {
            f = f.mul(&Num::int(i), 0);
            i += 1;
        }
        let sc = scale_of(&c("1.5").mul(&Num::int(z as i64), 0));
        let xn = x.pow(nn, sc, ok).unwrap_or_default();
        let tn = Num::int(2).pow(nn, sc, ok).unwrap_or_default();
        f = div(&div(&xn, &tn, sc), &f, sc);
        let mut v = Num::int(1);
        let mut e = Num::int(1);
        let s = div(&x.neg().mul(x, sc), &Num::int(4), sc);
        let sc = scale_of(
            &c("1.5").mul(&Num::int(z as i64), sc).add(&Num::int(f.length() as i64)).sub(&Num::int(f.s as i64)),
        );
        let mut i = 1i64;
        loop {
            e = div(&div(&e.mul(&s, sc), &Num::int(i), sc), &Num::int(nn + i), sc);
            if e.is_zero() || !ok() {
                let one = Num::int(1);
                return if m { div(&f.neg().mul(&v, z), &one, z) } else { div(&f.mul(&v, z), &one, z) };
            }
            v = v.add(&e);
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(n: &Num) -> String {
        to_base(n, 10)
    }

    #[test]
    fn scale_rules() {
        let p = Num::parse10;
        assert_eq!(t(&p("1.5").mul(&p("1.25"), 0)), "1.87");
        assert_eq!(t(&p("1.55").mul(&p("1.55"), 1)), "2.40");
        assert_eq!(t(&p("7").modulo(&p("3"), 2).unwrap()), ".01");
        assert_eq!(t(&p("1.5").pow(3, 0, &mut || true).unwrap()), "3.3");
        assert_eq!(t(&p("2").sqrt(10)), "1.4142135623");
        assert_eq!(to_base(&p("12345.67"), 20), " 01 10 17 05.13 08");
        assert_eq!(to_base(&p("255.5").neg(), 16), "-FF.8");
    }
}
