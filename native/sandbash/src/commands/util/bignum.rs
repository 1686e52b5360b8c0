//! Arbitrary-precision signed integers for `expr` (GNU's is GMP-backed) and
//! `bc` (whose numbers are these scaled by a power of ten). Magnitudes are
//! little-endian limbs in base 10^9, so decimal I/O is cheap.

use std::cmp::Ordering;

const BASE: u64 = 1_000_000_000;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BigInt {
    neg: bool,
    /// Little-endian base-10^9 limbs without high zero limbs (zero is empty).
    mag: Vec<u32>,
}

fn trim(v: &mut Vec<u32>) {
    while v.last() == Some(&0) {
        v.pop();
    }
}

fn cmp_mag(a: &[u32], b: &[u32]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn add_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u64;
    for i in 0..a.len().max(b.len()) {
        let s = u64::from(*a.get(i).unwrap_or(&0)) + u64::from(*b.get(i).unwrap_or(&0)) + carry;
        out.push((s % BASE) as u32);
        carry = s / BASE;
    }
    if carry > 0 {
        out.push(carry as u32);
    }
    out
}

/// `a - b` for `a >= b`.
fn sub_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i64;
    for (i, &x) in a.iter().enumerate() {
        let mut d = i64::from(x) - i64::from(*b.get(i).unwrap_or(&0)) - borrow;
        borrow = 0;
        if d < 0 {
            d += BASE as i64;
            borrow = 1;
        }
        out.push(d as u32);
    }
    trim(&mut out);
    out
}

/// One more row of a long product or quotient: false once the exec must
/// stop (the number is then cut short, and the exec ends before it is used).
fn go_on(work: usize) -> bool {
    match crate::limits::scope::checkpoint_work(work) {
        Ok(()) => true,
        Err(stop) => {
            crate::limits::scope::stop_exec(stop);
            false
        }
    }
}

fn mul_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut acc = vec![0u64; a.len() + b.len() + 1];
    for (i, &x) in a.iter().enumerate() {
        if !go_on(b.len()) {
            break;
        }
        let mut carry = 0u64;
        for (j, &y) in b.iter().enumerate() {
            let t = acc[i + j] + u64::from(x) * u64::from(y) + carry;
            acc[i + j] = t % BASE;
            carry = t / BASE;
        }
        let mut k = i + b.len();
        while carry > 0 {
            let t = acc[k] + carry;
            acc[k] = t % BASE;
            carry = t / BASE;
            k += 1;
        }
    }
    let mut out: Vec<u32> = acc.into_iter().map(|d| d as u32).collect();
    trim(&mut out);
    out
}

fn mul_small(a: &[u32], m: u32) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + 1);
    let mut carry = 0u64;
    for &x in a {
        let t = u64::from(x) * u64::from(m) + carry;
        out.push((t % BASE) as u32);
        carry = t / BASE;
    }
    if carry > 0 {
        out.push(carry as u32);
    }
    trim(&mut out);
    out
}

/// Quotient and remainder of magnitudes (schoolbook, one limb at a time,
/// each quotient limb found by binary search).
fn divmod_mag(a: &[u32], b: &[u32]) -> (Vec<u32>, Vec<u32>) {
    if cmp_mag(a, b) == Ordering::Less {
        return (Vec::new(), a.to_vec());
    }
    if b.len() == 1 {
        let d = u64::from(b[0]);
        let mut q = vec![0u32; a.len()];
        let mut r = 0u64;
        for i in (0..a.len()).rev() {
            let cur = r * BASE + u64::from(a[i]);
            q[i] = (cur / d) as u32;
            r = cur % d;
        }
        trim(&mut q);
        let mut r = vec![r as u32];
        trim(&mut r);
        return (q, r);
    }
    let mut q = vec![0u32; a.len()];
    let mut rem: Vec<u32> = Vec::new();
    for i in (0..a.len()).rev() {
        if !go_on(b.len() * 4) {
            break;
        }
        rem.insert(0, a[i]);
        trim(&mut rem);
        if cmp_mag(&rem, b) == Ordering::Less {
            continue;
        }
        // Estimate from the top limbs (3 of the remainder over 2 of the
        // divisor is off by a little at most), then correct.
        let n = b.len();
        let at = |v: &[u32], k: usize| u128::from(*v.get(k).unwrap_or(&0));
        let base = u128::from(BASE);
        let r = at(&rem, n) * base * base + at(&rem, n - 1) * base + at(&rem, n - 2);
        let d = at(b, n - 1) * base + at(b, n - 2);
        let mut lo = (r / d).min(base - 1) as u64;
        let mut prod = mul_small(b, lo as u32);
        while cmp_mag(&prod, &rem) == Ordering::Greater {
            lo -= 1;
            prod = sub_mag(&prod, b);
        }
        let mut left = sub_mag(&rem, &prod);
        while cmp_mag(&left, b) != Ordering::Less {
            lo += 1;
            left = sub_mag(&left, b);
        }
        q[i] = lo as u32;
        rem = left;
    }
    trim(&mut q);
    (q, rem)
}

impl BigInt {
    pub fn zero() -> BigInt {
        BigInt::default()
    }

    pub fn from_i64(n: i64) -> BigInt {
        let mut mag = Vec::new();
        let mut m = n.unsigned_abs();
        while m > 0 {
            mag.push((m % BASE) as u32);
            m /= BASE;
        }
        BigInt { neg: n < 0, mag }
    }

    /// Parse `-?[0-9]+` (the caller validates the shape).
    pub fn parse_decimal(s: &str) -> Option<BigInt> {
        let (neg, digits) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(BigInt::from_digits(neg, digits.as_bytes()))
    }

    /// From ASCII decimal digits (most significant first).
    pub fn from_digits(neg: bool, digits: &[u8]) -> BigInt {
        let mut mag = Vec::with_capacity(digits.len() / 9 + 1);
        let mut end = digits.len();
        while end > 0 {
            let start = end.saturating_sub(9);
            let limb = digits[start..end].iter().fold(0u32, |a, &d| a * 10 + u32::from(d - b'0'));
            mag.push(limb);
            end = start;
        }
        trim(&mut mag);
        let neg = neg && !mag.is_empty();
        BigInt { neg, mag }
    }

    pub fn is_zero(&self) -> bool {
        self.mag.is_empty()
    }
    pub fn is_neg(&self) -> bool {
        self.neg
    }

    fn make(neg: bool, mag: Vec<u32>) -> BigInt {
        let neg = neg && !mag.is_empty();
        BigInt { neg, mag }
    }

    pub fn neg(&self) -> BigInt {
        BigInt::make(!self.neg, self.mag.clone())
    }
    pub fn abs(&self) -> BigInt {
        BigInt::make(false, self.mag.clone())
    }

    pub fn add(&self, o: &BigInt) -> BigInt {
        if self.neg == o.neg {
            return BigInt::make(self.neg, add_mag(&self.mag, &o.mag));
        }
        match cmp_mag(&self.mag, &o.mag) {
            Ordering::Less => BigInt::make(o.neg, sub_mag(&o.mag, &self.mag)),
            _ => BigInt::make(self.neg, sub_mag(&self.mag, &o.mag)),
        }
    }
    pub fn sub(&self, o: &BigInt) -> BigInt {
        self.add(&o.neg())
    }
    pub fn mul(&self, o: &BigInt) -> BigInt {
        BigInt::make(self.neg != o.neg, mul_mag(&self.mag, &o.mag))
    }
    /// Truncating division and the remainder with the dividend's sign (C's).
    pub fn divmod(&self, o: &BigInt) -> Option<(BigInt, BigInt)> {
        if o.is_zero() {
            return None;
        }
        let (q, r) = divmod_mag(&self.mag, &o.mag);
        Some((BigInt::make(self.neg != o.neg, q), BigInt::make(self.neg, r)))
    }

    /// Multiply by 10^n.
    pub fn shl10(&self, n: usize) -> BigInt {
        if self.is_zero() || n == 0 {
            return self.clone();
        }
        let mut mag = vec![0u32; n / 9];
        mag.extend(mul_small(&self.mag, 10u32.pow((n % 9) as u32)));
        BigInt::make(self.neg, mag)
    }
    /// Divide by 10^n, truncating toward zero.
    pub fn shr10(&self, n: usize) -> BigInt {
        if n == 0 {
            return self.clone();
        }
        let limbs = n / 9;
        if limbs >= self.mag.len() {
            return BigInt::zero();
        }
        let rest = BigInt { neg: false, mag: self.mag[limbs..].to_vec() };
        let d = BigInt::from_i64(10i64.pow((n % 9) as u32));
        let q = rest.divmod(&d).map(|x| x.0).unwrap_or_default();
        BigInt::make(self.neg, q.mag)
    }

    pub fn cmp(&self, o: &BigInt) -> Ordering {
        match (self.neg, o.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => cmp_mag(&self.mag, &o.mag),
            (true, true) => cmp_mag(&o.mag, &self.mag),
        }
    }

    /// The value as an i64 if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        if self.mag.len() > 3 {
            return None;
        }
        let m = self.mag.iter().rev().fold(0u128, |a, &l| a * u128::from(BASE) + u128::from(l));
        let v = i128::try_from(m).ok()?;
        i64::try_from(if self.neg { -v } else { v }).ok()
    }

    /// Decimal digits of the magnitude, most significant first ("0" for zero).
    pub fn digits(&self) -> String {
        let Some((top, rest)) = self.mag.split_last() else {
            return "0".into();
        };
        let mut s = top.to_string();
        for l in rest.iter().rev() {
            s.push_str(&format!("{l:09}"));
        }
        s
    }

    /// Number of decimal digits of the magnitude (1 for zero).
    pub fn digit_count(&self) -> usize {
        match self.mag.last() {
            None => 1,
            Some(top) => (self.mag.len() - 1) * 9 + top.to_string().len(),
        }
    }

    /// Floor of the square root of a non-negative value (Newton's method).
    pub fn isqrt(&self) -> BigInt {
        if self.is_zero() || self.neg {
            return BigInt::zero();
        }
        // Start above the root: 10^ceil(digits/2).
        let mut x = BigInt::from_i64(1).shl10(self.digit_count().div_ceil(2));
        loop {
            if !go_on(1) {
                return x;
            }
            let Some((q, _)) = self.divmod(&x) else { return x };
            let y = x.add(&q).divmod(&BigInt::from_i64(2)).map(|p| p.0).unwrap_or_default();
            if y.cmp(&x) != Ordering::Less {
                return x;
            }
            x = y;
        }
    }
}

impl std::fmt::Display for BigInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        f.write_str(&self.digits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> BigInt {
        BigInt::parse_decimal(s).unwrap()
    }

    #[test]
    fn arithmetic() {
        assert_eq!(b("99999999999999999999").add(&b("1")).to_string(), "100000000000000000000");
        assert_eq!(b("9223372036854775807").mul(&b("3")).to_string(), "27670116110564327421");
        let (q, r) = b("-7").divmod(&b("2")).unwrap();
        assert_eq!((q.to_string(), r.to_string()), ("-3".into(), "-1".into()));
        let (q, r) = b("123456789012345678901234567890").divmod(&b("987654321987654321")).unwrap();
        assert_eq!((q.to_string(), r.to_string()), ("124999998748".into(), "432099904777777782".into()));
        assert_eq!(b("0").sub(&b("0")).to_string(), "0");
        assert_eq!(b("-00").to_string(), "0");
        assert_eq!(b("2").shl10(20).to_string(), "200000000000000000000");
        assert_eq!(b("-123456789123").shr10(10).to_string(), "-12");
        assert_eq!(b("200000000000000000000").isqrt().to_string(), "14142135623");
    }
}
