//! `factor [NUMBER]...` (GNU coreutils): prime factors of numbers up to
//! 2^128 - 1 (GNU's limit without GMP), by trial division, Miller-Rabin
//! and Pollard-Brent rho; the work is bounded by the exec's deadline.

use super::util::{quote_locale, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Factor;

const SPEC: Spec = Spec::new("", &[], "[NUMBER]...\n  or:  factor OPTION");

/// `a * b mod m` without overflow.
fn mul_mod(a: u128, b: u128, m: u128) -> u128 {
    if m <= u128::from(u64::MAX) {
        return (a % m) * (b % m) % m;
    }
    // Double-and-add: m needs more than 64 bits, so the product would not fit.
    let (mut a, mut b, mut r) = (a % m, b % m, 0u128);
    while b > 0 {
        if b & 1 == 1 {
            r = add_mod(r, a, m);
        }
        a = add_mod(a, a, m);
        b >>= 1;
    }
    r
}

fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    if a >= m - b {
        a - (m - b)
    } else {
        a + b
    }
}

fn pow_mod(mut b: u128, mut e: u128, m: u128) -> u128 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, b, m);
        }
        b = mul_mod(b, b, m);
        e >>= 1;
    }
    r
}

const SMALL_PRIMES: [u128; 24] =
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89];

/// Miller-Rabin with the first 24 primes as bases: exact below 3.3e24, and
/// beyond that wrong with a probability no script will meet.
fn is_prime(n: u128) -> bool {
    if n < 2 {
        return false;
    }
    for p in SMALL_PRIMES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for a in SMALL_PRIMES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A non-trivial factor of the odd composite `n` (Brent's variant of rho),
/// or `None` when `running` says time is up.
fn rho(n: u128, running: &dyn Fn() -> bool) -> Option<u128> {
    for c in 1u128.. {
        let f = |x: u128| add_mod(mul_mod(x, x, n), c % n, n);
        let (mut y, mut r, mut q, m) = (2u128, 1u64, 1u128, 128u64);
        let (mut g, mut x, mut ys) = (1u128, 0u128, 0u128);
        while g == 1 {
            x = y;
            for _ in 0..r {
                y = f(y);
            }
            let mut k = 0;
            while k < r && g == 1 {
                if !running() {
                    return None;
                }
                ys = y;
                for _ in 0..m.min(r - k) {
                    y = f(y);
                    q = mul_mod(q, x.abs_diff(y), n);
                }
                g = gcd(q, n);
                k += m;
            }
            r = r.saturating_mul(2);
        }
        if g == n {
            // The batch overshot: step one at a time from its start.
            loop {
                ys = f(ys);
                g = gcd(x.abs_diff(ys), n);
                if g > 1 {
                    break;
                }
            }
        }
        if g != n {
            return Some(g);
        }
    }
    None
}

/// The prime factors of `n`, ascending; `None` if time ran out.
fn factorize(mut n: u128, running: &dyn Fn() -> bool) -> Option<Vec<u128>> {
    let mut out = Vec::new();
    if n < 2 {
        return Some(out);
    }
    for p in SMALL_PRIMES {
        while n.is_multiple_of(p) {
            out.push(p);
            n /= p;
        }
    }
    let mut d = 97u128;
    while d < 10_000 && d * d <= n {
        while n.is_multiple_of(d) {
            out.push(d);
            n /= d;
        }
        d += 2;
    }
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if m == 1 {
            continue;
        }
        if is_prime(m) {
            out.push(m);
            continue;
        }
        let f = rho(m, running)?;
        stack.push(f);
        stack.push(m / f);
    }
    out.sort_unstable();
    Some(out)
}

/// A number as GNU takes it: leading blanks and one `+`, then decimal digits.
enum Parsed {
    Num(u128),
    TooLarge,
    Invalid,
}

fn parse_number(s: &str) -> Parsed {
    let t = s.trim_start_matches([' ', '\t', '\n']);
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Parsed::Invalid;
    }
    match t.parse::<u128>() {
        Ok(n) => Parsed::Num(n),
        Err(_) => Parsed::TooLarge,
    }
}

/// Print `N: p p ...` for one token; whether it was a valid number.
async fn factor_one(ctx: &CommandContext<'_>, tok: &str) -> Result<bool, crate::io::IoError> {
    match parse_number(tok) {
        Parsed::Invalid => {
            ctx.err(format!("{} is not a valid positive integer", quote_locale(tok))).await?;
            Ok(false)
        }
        Parsed::TooLarge => {
            ctx.err(format!("{} is too large", quote_locale(tok))).await?;
            Ok(false)
        }
        Parsed::Num(n) => {
            let running = || ctx.still_running();
            let Some(fs) = factorize(n, &running) else { return Ok(false) };
            let mut line = format!("{n}:");
            for f in fs {
                line.push_str(&format!(" {f}"));
            }
            line.push('\n');
            ctx.out(line.as_bytes()).await?;
            Ok(true)
        }
    }
}

#[async_trait]
impl Utility for Factor {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut ok = true;
        if !p.operands.is_empty() {
            for tok in &p.operands {
                ok &= factor_one(ctx, tok).await?;
            }
            return Ok(if ok { 0 } else { 1 });
        }
        let Ok(mut src) = ctx.open_lines("-", b'\n').await else { return Ok(1) };
        while let Some(line) = src.next_line(ctx).await {
            let text = String::from_utf8_lossy(&line).into_owned();
            for tok in text.split_ascii_whitespace() {
                ok &= factor_one(ctx, tok).await?;
            }
            if !ctx.still_running() {
                break;
            }
        }
        Ok(if ok { 0 } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn factors() {
        check(&["factor", "12", "1", "0", "97"], &[], "", "12: 2 2 3\n1:\n0:\n97: 97\n", "", 0);
        check(&["factor"], &[], "12 13\n", "12: 2 2 3\n13: 13\n", "", 0);
        check(&["factor", " 12", "+12", "0012"], &[], "", "12: 2 2 3\n12: 2 2 3\n12: 2 2 3\n", "", 0);
        check(&["factor", "18446744073709551617"], &[], "", "18446744073709551617: 274177 67280421310721\n", "", 0);
        check(
            &["factor", "340282366920938463463374607431768211455"],
            &[],
            "",
            "340282366920938463463374607431768211455: 3 5 17 257 641 65537 274177 6700417 67280421310721\n",
            "",
            0,
        );
        check(
            &["factor", "170141183460469231731687303715884105727"],
            &[],
            "",
            "170141183460469231731687303715884105727: 170141183460469231731687303715884105727\n",
            "",
            0,
        );
        check(&["factor", "1000000016000000063"], &[], "", "1000000016000000063: 1000000007 1000000009\n", "", 0);
    }

    #[test]
    fn errors() {
        check(&["factor", "x"], &[], "", "", "factor: 'x' is not a valid positive integer\n", 1);
        check(&["factor"], &[], "12 x 5\n", "12: 2 2 3\n5: 5\n", "factor: 'x' is not a valid positive integer\n", 1);
        check(&["factor", "12 3"], &[], "", "", "factor: '12 3' is not a valid positive integer\n", 1);
        check(&["factor", "1.5"], &[], "", "", "factor: '1.5' is not a valid positive integer\n", 1);
        check(
            &["factor", "-1"],
            &[],
            "",
            "",
            "factor: invalid option -- '1'\nTry 'factor --help' for more information.\n",
            1,
        );
    }
}
