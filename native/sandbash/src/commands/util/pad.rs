//! Fields padded to a width a script chose (`nl -w`, `numfmt --padding`,
//! `printf '%*d'`, `%.*f`, `{0001..3}`, `%10000000Y`): built within the budget.
//!
//! `format!("{x:>width$}")` panics past a width of 65,535 and builds whatever
//! it is asked below that; here a field wider than `max_string_bytes` stops
//! the exec with that limit, and a wide one is asked of the memory budget
//! first. On a refusal the field comes out unpadded and the exec stops at its
//! next check (as [`crate::limits::scope::may_grow`] does).

use crate::limits::{scope, Budget};

/// Fields up to this wide are built without asking.
const SMALL: usize = 64 * 1024;

/// How many fill characters a field of `width` may get around `len`
/// characters of text: all it needs, or 0 when the exec must stop.
pub fn room(width: usize, len: usize) -> usize {
    let fill = width.saturating_sub(len);
    if fill <= SMALL {
        return fill;
    }
    let limit = scope::with_budget(|b| b.limits.max_string_bytes).unwrap_or(10 << 20);
    if fill as u64 > limit {
        scope::stop_exec(Budget::exceeded("max_string_bytes", limit, "field width"));
        return 0;
    }
    if scope::may_grow(fill as u64) {
        fill
    } else {
        0
    }
}

/// `s` right-aligned in `width` characters of `fill` (`{s:>width$}`).
pub fn right(s: &str, width: usize, fill: char) -> String {
    let n = room(width, s.chars().count());
    let mut out = String::with_capacity(s.len() + n);
    out.extend(std::iter::repeat_n(fill, n));
    out.push_str(s);
    out
}

/// `s` left-aligned in `width` characters (`{s:<width$}`).
pub fn left(s: &str, width: usize) -> String {
    let n = room(width, s.chars().count());
    let mut out = String::with_capacity(s.len() + n);
    out.push_str(s);
    out.extend(std::iter::repeat_n(' ', n));
    out
}

/// `x` with `prec` digits after the point (`{x:.prec$}`), for any `prec`:
/// past the digits an f64 can have, the rest are zeros.
pub fn fixed(x: f64, prec: usize) -> String {
    // An f64's decimal expansion ends within 1,074 digits after the point.
    const EXACT: usize = 1100;
    let p = prec.min(EXACT);
    let mut s = format!("{x:.p$}");
    if prec > p && x.is_finite() {
        let n = room(prec, p);
        s.extend(std::iter::repeat_n('0', n));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_as_format_makes_them_and_wider() {
        assert_eq!(right("7", 3, '0'), format!("{:0>3}", 7));
        assert_eq!(left("ab", 4), "ab  ");
        assert_eq!(fixed(1.5, 3), "1.500");
        assert_eq!(fixed(0.1, 1200).len(), 1202);
        assert!(fixed(0.1, 1200).ends_with("000"));
        // Outside an exec nothing refuses; a width past format's own limit works.
        assert_eq!(right("x", 70_000, ' ').len(), 70_000);
    }

    #[test]
    fn a_width_past_the_string_limit_stops_the_exec() {
        use crate::limits::{CancelToken, Limits};
        let budget = Budget::new(Limits { max_string_bytes: 1 << 20, ..Limits::default() }, CancelToken::default());
        let _g = scope::enter(&budget);
        assert_eq!(right("x", usize::MAX, ' '), "x");
        assert!(budget.check().unwrap_err().to_string().contains("max_string_bytes"));
    }
}
