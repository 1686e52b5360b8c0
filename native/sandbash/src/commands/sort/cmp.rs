//! Key extraction and comparisons of GNU `sort` in the C locale: fields, `-n`,
//! `-g`, `-h`, `-M`, `-V` (gnulib `filevercmp`, also usable by `ls -v`), and
//! text compared bytewise with `-f`/`-d`/`-i`.

use std::cmp::Ordering;

/// What `-d` / `-i` drop from a key before comparing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ignore {
    #[default]
    None,
    /// `-d`: keep only blanks and alphanumerics.
    NonDictionary,
    /// `-i`: keep only printable characters.
    NonPrinting,
}

/// One `-k` key (or the global options when there is no `-k`). Field and
/// character numbers are 0-based; `eword == None` means "to end of line".
#[derive(Clone, Debug, Default)]
pub struct Key {
    pub sword: usize,
    pub schar: usize,
    pub eword: Option<usize>,
    pub echar: usize,
    pub skip_sblanks: bool,
    pub skip_eblanks: bool,
    pub ignore: Ignore,
    pub fold: bool,
    pub numeric: bool,
    pub general: bool,
    pub human: bool,
    pub month: bool,
    pub version: bool,
    pub random: bool,
    pub reverse: bool,
}

impl Key {
    /// True when no ordering option was given for this key (it then inherits the global ones).
    pub fn has_no_options(&self) -> bool {
        !(self.skip_sblanks
            || self.skip_eblanks
            || self.ignore != Ignore::None
            || self.fold
            || self.numeric
            || self.general
            || self.human
            || self.month
            || self.version
            || self.random
            || self.reverse)
    }

    /// Copy the ordering options of `g` (the global options).
    pub fn inherit(&mut self, g: &Key) {
        self.skip_sblanks = g.skip_sblanks;
        self.skip_eblanks = g.skip_eblanks;
        self.ignore = g.ignore;
        self.fold = g.fold;
        self.numeric = g.numeric;
        self.general = g.general;
        self.human = g.human;
        self.month = g.month;
        self.version = g.version;
        self.random = g.random;
        self.reverse = g.reverse;
    }

    /// Apply ordering letters (`bdfghiMnRrV`) from the start of `s`; returns the rest.
    /// `start`/`end` tell which end of the key a `b` applies to.
    pub fn set_ordering<'a>(&mut self, s: &'a str, start: bool, end: bool) -> &'a str {
        for (i, c) in s.char_indices() {
            match c {
                'b' => {
                    self.skip_sblanks |= start;
                    self.skip_eblanks |= end;
                }
                'd' => self.ignore = Ignore::NonDictionary,
                'f' => self.fold = true,
                'g' => self.general = true,
                'h' => self.human = true,
                'i' => {
                    if self.ignore == Ignore::None {
                        self.ignore = Ignore::NonPrinting
                    }
                }
                'M' => self.month = true,
                'n' => self.numeric = true,
                'R' => self.random = true,
                'r' => self.reverse = true,
                'V' => self.version = true,
                _ => return &s[i..],
            }
        }
        ""
    }

    /// The option letters as GNU lists them in "options '-gn' are incompatible",
    /// or `None` when the key's options can be combined.
    pub fn incompatible(&self) -> Option<String> {
        let n = [
            self.numeric,
            self.general,
            self.human,
            self.month,
            self.version | self.random | (self.ignore != Ignore::None),
        ]
        .iter()
        .filter(|&&b| b)
        .count();
        if n < 2 {
            return None;
        }
        let mut s = String::new();
        let flags = [
            (self.skip_sblanks || self.skip_eblanks, 'b'),
            (self.ignore == Ignore::NonDictionary, 'd'),
            (self.fold, 'f'),
            (self.general, 'g'),
            (self.human, 'h'),
            (self.ignore == Ignore::NonPrinting, 'i'),
            (self.month, 'M'),
            (self.numeric, 'n'),
            (self.random, 'R'),
            (self.reverse, 'r'),
            (self.version, 'V'),
        ];
        for (on, c) in flags {
            if on {
                s.push(c);
            }
        }
        Some(s)
    }

    /// The key's bytes within `line` (GNU `begfield`/`limfield`).
    pub fn extract<'a>(&self, line: &'a [u8], tab: Option<u8>) -> &'a [u8] {
        let beg = self.begfield(line, tab);
        let lim = match self.eword {
            Some(_) => self.limfield(line, tab),
            None => line.len(),
        };
        if lim <= beg {
            &line[beg..beg]
        } else {
            &line[beg..lim]
        }
    }

    fn begfield(&self, line: &[u8], tab: Option<u8>) -> usize {
        let lim = line.len();
        let mut p = skip_fields(line, 0, self.sword, tab);
        if self.skip_sblanks {
            while p < lim && is_blank(line[p]) {
                p += 1;
            }
        }
        p.saturating_add(self.schar).min(lim)
    }

    fn limfield(&self, line: &[u8], tab: Option<u8>) -> usize {
        let lim = line.len();
        let mut eword = self.eword.unwrap_or(usize::MAX);
        if self.echar == 0 {
            eword = eword.saturating_add(1);
        }
        let mut p = 0;
        match tab {
            Some(t) => {
                while p < lim && eword > 0 {
                    eword -= 1;
                    while p < lim && line[p] != t {
                        p += 1;
                    }
                    if p < lim && (eword > 0 || self.echar > 0) {
                        p += 1;
                    }
                }
            }
            None => p = skip_fields(line, 0, eword, None),
        }
        if self.echar != 0 {
            if self.skip_eblanks {
                while p < lim && is_blank(line[p]) {
                    p += 1;
                }
            }
            p = p.saturating_add(self.echar).min(lim);
        }
        p
    }

    /// Compare two keys' texts with this key's ordering (without `r`).
    pub fn compare(&self, a: &[u8], b: &[u8], seed: u64) -> Ordering {
        if self.random {
            let (ha, hb) = (hash(a, seed), hash(b, seed));
            if ha != hb {
                return ha.cmp(&hb);
            }
        }
        if self.numeric {
            numcompare(a, b)
        } else if self.general {
            general_compare(a, b)
        } else if self.human {
            human_compare(a, b)
        } else if self.month {
            month(a).cmp(&month(b))
        } else if self.version {
            filevercmp(a, b)
        } else if self.ignore == Ignore::None && !self.fold {
            a.cmp(b)
        } else {
            let keep = |c: &u8| match self.ignore {
                Ignore::None => true,
                Ignore::NonDictionary => c.is_ascii_alphanumeric() || is_blank(*c),
                Ignore::NonPrinting => (0x20..0x7f).contains(c),
            };
            let tr = |c: &u8| if self.fold { c.to_ascii_uppercase() } else { *c };
            a.iter().filter(|c| keep(c)).map(tr).cmp(b.iter().filter(|c| keep(c)).map(tr))
        }
    }
}

/// Skip `n` fields from `p`. Without a tab a field is blanks then non-blanks.
fn skip_fields(line: &[u8], mut p: usize, mut n: usize, tab: Option<u8>) -> usize {
    let lim = line.len();
    while p < lim && n > 0 {
        n -= 1;
        match tab {
            Some(t) => {
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim {
                    p += 1;
                }
            }
            None => {
                while p < lim && is_blank(line[p]) {
                    p += 1;
                }
                while p < lim && !is_blank(line[p]) {
                    p += 1;
                }
            }
        }
    }
    p
}

/// Blanks in the C locale (newline counts, for `-z` input).
pub fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n')
}

fn hash(s: &[u8], seed: u64) -> u64 {
    // FNV-1a, salted: only needs to scatter keys, not be secure.
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for &c in s {
        h ^= u64::from(c);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A number as `-n` reads it: sign, integer digits without leading zeros,
/// fraction digits without trailing zeros.
fn parse_num(s: &[u8]) -> (bool, &[u8], &[u8]) {
    let mut i = 0;
    while i < s.len() && is_blank(s[i]) {
        i += 1;
    }
    let neg = s.get(i) == Some(&b'-');
    if neg {
        i += 1;
    }
    let start = i;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    let mut int = &s[start..i];
    while int.first() == Some(&b'0') {
        int = &int[1..];
    }
    let mut frac: &[u8] = &[];
    if s.get(i) == Some(&b'.') {
        let fs = i + 1;
        let mut j = fs;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
        }
        frac = &s[fs..j];
        while frac.last() == Some(&b'0') {
            frac = &frac[..frac.len() - 1];
        }
    }
    (neg, int, frac)
}

/// A key's leading decimal number as `-n` compares it: parsed once, so
/// sorting need not parse it in every comparison.
#[derive(Clone, Copy)]
pub struct NumKey<'a> {
    /// Negative and not zero (`-0` sorts as `0`).
    neg: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// The value in units of 1e-8, fraction truncated, signed; when both
    /// sides have one and they differ, it orders them without reading the
    /// digits again (which lie all over the input: cache misses).
    scaled: Option<i128>,
    /// `scaled` is the whole value (no fraction digits were cut).
    exact: bool,
}

impl<'a> NumKey<'a> {
    pub fn parse(s: &'a [u8]) -> NumKey<'a> {
        let (neg, int, frac) = parse_num(s);
        let neg = neg && !(int.is_empty() && frac.is_empty());
        let digits = |d: &[u8]| d.iter().fold(0i128, |n, c| n * 10 + i128::from(c - b'0'));
        let scaled = (int.len() <= 19).then(|| {
            let f8 = frac.get(..8).unwrap_or(frac);
            let m = digits(int) * 100_000_000 + digits(f8) * 10i128.pow(8 - f8.len() as u32);
            if neg {
                -m
            } else {
                m
            }
        });
        NumKey { neg, int, frac, scaled, exact: frac.len() <= 8 }
    }

    /// Exact comparison (any length).
    pub fn cmp(&self, o: &NumKey<'_>) -> Ordering {
        if let (Some(a), Some(b)) = (self.scaled, o.scaled) {
            // Truncated values that differ differ the same way in full.
            if a != b || (self.exact && o.exact) {
                return a.cmp(&b);
            }
        }
        if self.neg != o.neg {
            return if self.neg { Ordering::Less } else { Ordering::Greater };
        }
        let mag =
            self.int.len().cmp(&o.int.len()).then_with(|| self.int.cmp(o.int)).then_with(|| self.frac.cmp(o.frac));
        if self.neg {
            mag.reverse()
        } else {
            mag
        }
    }
}

/// `-n`: compare leading decimal numbers exactly (any length).
pub fn numcompare(a: &[u8], b: &[u8]) -> Ordering {
    NumKey::parse(a).cmp(&NumKey::parse(b))
}

/// `-h`: the unit suffix (K, M, G, ...) first, then the number.
fn human_compare(a: &[u8], b: &[u8]) -> Ordering {
    unit_order(a).cmp(&unit_order(b)).then_with(|| numcompare(a, b))
}

fn unit_order(s: &[u8]) -> i32 {
    let mut i = 0;
    while i < s.len() && is_blank(s[i]) {
        i += 1;
    }
    let neg = s.get(i) == Some(&b'-');
    if neg {
        i += 1;
    }
    let mut nonzero = false;
    while i < s.len() && s[i].is_ascii_digit() {
        nonzero |= s[i] != b'0';
        i += 1;
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            nonzero |= s[i] != b'0';
            i += 1;
        }
    }
    let order = match s.get(i) {
        Some(b'K' | b'k') => 1,
        Some(b'M') => 2,
        Some(b'G') => 3,
        Some(b'T') => 4,
        Some(b'P') => 5,
        Some(b'E') => 6,
        Some(b'Z') => 7,
        Some(b'Y') => 8,
        Some(b'R') => 9,
        Some(b'Q') => 10,
        _ => 0,
    };
    if !nonzero {
        0
    } else if neg {
        -order
    } else {
        order
    }
}

/// `-M`: 0 for an unknown month, 1..12 for JAN..DEC (case-insensitive prefix).
fn month(s: &[u8]) -> u8 {
    const NAMES: [&[u8]; 12] =
        [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"];
    let mut i = 0;
    while i < s.len() && is_blank(s[i]) {
        i += 1;
    }
    let s = &s[i..];
    if s.len() < 3 {
        return 0;
    }
    let head = [s[0].to_ascii_uppercase(), s[1].to_ascii_uppercase(), s[2].to_ascii_uppercase()];
    NAMES.iter().position(|n| *n == head).map_or(0, |p| p as u8 + 1)
}

/// The longest prefix strtod would convert, as a number (`None`: no conversion).
fn strtod(s: &[u8]) -> Option<f64> {
    let mut i = 0;
    while i < s.len() && (is_blank(s[i]) || matches!(s[i], b'\r' | b'\x0b' | b'\x0c')) {
        i += 1;
    }
    let start = i;
    if matches!(s.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let rest = &s[i..];
    let lower: Vec<u8> = rest.iter().take(8).map(u8::to_ascii_lowercase).collect();
    let neg = s.get(start) == Some(&b'-');
    if lower.starts_with(b"inf") {
        return Some(if neg { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    if lower.starts_with(b"nan") {
        return Some(f64::NAN);
    }
    if lower.starts_with(b"0x") {
        if let Some(v) = hex_float(&s[i + 2..]) {
            return Some(if neg { -v } else { v });
        }
    }
    let mut digits = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if s.get(j).is_some_and(u8::is_ascii_digit) {
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    std::str::from_utf8(&s[start..i]).ok()?.parse::<f64>().ok()
}

/// The value of a C hex float body (after `0x`): `h[.h][p[+-]d]`.
fn hex_float(s: &[u8]) -> Option<f64> {
    let (mut v, mut digits, mut scale, mut i) = (0f64, 0, 0i32, 0);
    let mut frac = false;
    while let Some(&c) = s.get(i) {
        if c == b'.' && !frac {
            frac = true;
        } else if let Some(d) = (c as char).to_digit(16) {
            v = v * 16.0 + f64::from(d);
            digits += 1;
            if frac {
                scale -= 4;
            }
        } else {
            break;
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    if matches!(s.get(i), Some(b'p' | b'P')) {
        let mut j = i + 1;
        let eneg = s.get(j) == Some(&b'-');
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let mut e = 0i32;
        let mut any = false;
        while let Some(d) = s.get(j).filter(|c| c.is_ascii_digit()) {
            e = e.saturating_mul(10).saturating_add(i32::from(d - b'0'));
            any = true;
            j += 1;
        }
        if any {
            scale = scale.saturating_add(if eneg { -e } else { e });
        }
    }
    Some(v * 2f64.powi(scale))
}

/// `-g`: non-numbers first, then NaN, then numbers in order.
fn general_compare(a: &[u8], b: &[u8]) -> Ordering {
    match (strtod(a), strtod(b)) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Less,
        (_, None) => Ordering::Greater,
        (Some(x), Some(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        },
    }
}

// ---------------------------------------------------------------------------
// gnulib filevercmp (version sort)
// ---------------------------------------------------------------------------

/// Length of `s` without its file suffix: the longest `(\.[A-Za-z~][A-Za-z0-9~]*)*$`.
fn file_prefixlen(s: &[u8]) -> usize {
    let n = s.len();
    let mut prefixlen = 0;
    let mut i = 0;
    loop {
        if i == n {
            return prefixlen;
        }
        i += 1;
        prefixlen = i;
        while i + 1 < n && s[i] == b'.' && (s[i + 1].is_ascii_alphabetic() || s[i + 1] == b'~') {
            i += 2;
            while i < n && (s[i].is_ascii_alphanumeric() || s[i] == b'~') {
                i += 1;
            }
        }
    }
}

fn order(s: &[u8], pos: usize) -> i32 {
    match s.get(pos) {
        None => -1,
        Some(c) if c.is_ascii_digit() => 0,
        Some(c) if c.is_ascii_alphabetic() => i32::from(*c),
        Some(b'~') => -2,
        Some(c) => i32::from(*c) + 256,
    }
}

fn verrevcmp(s1: &[u8], s2: &[u8]) -> i32 {
    let (mut p1, mut p2) = (0, 0);
    let digit = |s: &[u8], p: usize| s.get(p).is_some_and(u8::is_ascii_digit);
    while p1 < s1.len() || p2 < s2.len() {
        let mut first_diff = 0;
        while (p1 < s1.len() && !digit(s1, p1)) || (p2 < s2.len() && !digit(s2, p2)) {
            let (c1, c2) = (order(s1, p1), order(s2, p2));
            if c1 != c2 {
                return c1 - c2;
            }
            p1 += 1;
            p2 += 1;
        }
        while s1.get(p1) == Some(&b'0') {
            p1 += 1;
        }
        while s2.get(p2) == Some(&b'0') {
            p2 += 1;
        }
        while digit(s1, p1) && digit(s2, p2) {
            if first_diff == 0 {
                first_diff = i32::from(s1[p1]) - i32::from(s2[p2]);
            }
            p1 += 1;
            p2 += 1;
        }
        if digit(s1, p1) {
            return 1;
        }
        if digit(s2, p2) {
            return -1;
        }
        if first_diff != 0 {
            return first_diff;
        }
    }
    0
}

/// Version order of two names (`sort -V`, `ls -v`).
pub fn filevercmp(a: &[u8], b: &[u8]) -> Ordering {
    let r = filevercmp_int(a, b);
    r.cmp(&0)
}

fn filevercmp_int(a: &[u8], b: &[u8]) -> i32 {
    if a.is_empty() {
        return -i32::from(!b.is_empty());
    }
    if b.is_empty() {
        return 1;
    }
    if a[0] == b'.' {
        if b[0] != b'.' {
            return -1;
        }
        let (adot, bdot) = (a.len() == 1, b.len() == 1);
        if adot {
            return -i32::from(!bdot);
        }
        if bdot {
            return 1;
        }
        let adotdot = a[1] == b'.' && a.len() == 2;
        let bdotdot = b[1] == b'.' && b.len() == 2;
        if adotdot {
            return -i32::from(!bdotdot);
        }
        if bdotdot {
            return 1;
        }
    } else if b[0] == b'.' {
        return 1;
    }
    let (ap, bp) = (file_prefixlen(a), file_prefixlen(b));
    let one_pass_only = ap == a.len() && bp == b.len();
    let r = verrevcmp(&a[..ap], &b[..bp]);
    if r != 0 || one_pass_only {
        r
    } else {
        verrevcmp(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        let mut v: Vec<&[u8]> = vec![b"a10", b"a9", b"a1.2", b"a1.10", b"a", b".x", b"a1~rc"];
        v.sort_by(|a, b| filevercmp(a, b));
        assert_eq!(v, vec![&b".x"[..], b"a", b"a1~rc", b"a1.2", b"a1.10", b"a9", b"a10"]);
    }

    #[test]
    fn numbers() {
        assert_eq!(numcompare(b"-0", b"0"), Ordering::Equal);
        assert_eq!(numcompare(b"-1", b"-2"), Ordering::Greater);
        assert_eq!(numcompare(b" 10", b"9.99"), Ordering::Greater);
        assert_eq!(numcompare(b"1.50", b"1.5"), Ordering::Equal);
    }
}
