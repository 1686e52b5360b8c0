//! `date -d STRING`: the common forms of gnulib's parse_datetime (ISO dates and
//! times with zones, `@EPOCH`, month names, weekdays, `N units ago`, `next
//! monday`, `tomorrow`, ...), and the time zones (`TZ`) they are read in.
//! Like gnulib, items come in any order; a second date, time or zone is an error.

use crate::commands::util::file_time::{civil_from_days, days_from_civil};
use jiff::tz::TimeZone;

/// A time zone from `TZ`: the bundled database, a POSIX rule, or (like glibc
/// for a name it cannot find) UTC under the name's leading letters.
pub struct Zone {
    tz: TimeZone,
    abbr: Option<String>,
}

impl Zone {
    pub fn from_tz(tz: Option<&str>) -> Zone {
        let name = tz.unwrap_or("");
        let name = name.strip_prefix(':').unwrap_or(name);
        if name.is_empty() {
            return Zone { tz: TimeZone::UTC, abbr: None };
        }
        if let Ok(tz) = TimeZone::get(name).or_else(|_| TimeZone::posix(name)) {
            return Zone { tz, abbr: None };
        }
        let letters: String = name.chars().take_while(char::is_ascii_alphabetic).collect();
        let abbr = if letters.len() >= 3 { letters } else { "UTC".into() };
        Zone { tz: TimeZone::UTC, abbr: Some(abbr) }
    }

    pub fn utc() -> Zone {
        Zone { tz: TimeZone::UTC, abbr: None }
    }

    /// Offset east of UTC and abbreviation at `secs`.
    pub fn info(&self, secs: i64) -> (i32, String) {
        let Ok(ts) = jiff::Timestamp::from_second(secs) else {
            return (0, "UTC".into());
        };
        let info = self.tz.to_offset_info(ts);
        let abbr = self.abbr.clone().unwrap_or_else(|| info.abbreviation().to_string());
        (info.offset().seconds(), abbr)
    }

    /// The instant of a local date and time (GNU mktime picks the earlier of
    /// an ambiguous pair, and moves a time in a gap forward).
    fn to_secs(&self, days: i64, sod: i64) -> Option<i64> {
        let (y, m, d) = civil_from_days(days);
        let dt = jiff::civil::DateTime::new(
            i16::try_from(y).ok()?,
            m as i8,
            d as i8,
            (sod / 3600) as i8,
            (sod / 60 % 60) as i8,
            (sod % 60) as i8,
            0,
        )
        .ok()?;
        Some(self.tz.to_ambiguous_timestamp(dt).compatible().ok()?.as_second())
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A number: value, digit count, sign (`+`/`-` given), fraction in nanoseconds.
    Num {
        v: i64,
        digits: usize,
        sign: Option<i64>,
        frac: Option<u32>,
    },
    Word(String),
    Punct(char),
}

fn lex(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == b'+' || c == b'-' {
            let mut sign = None;
            if c == b'+' || c == b'-' {
                sign = Some(if c == b'-' { -1 } else { 1 });
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                if !b.get(i).is_some_and(u8::is_ascii_digit) {
                    continue; // a lone sign is skipped, as gnulib does
                }
            }
            let st = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let digits = i - st;
            let v = s[st..i].bytes().try_fold(0i64, |a, d| a.checked_mul(10)?.checked_add(i64::from(d - b'0')))?;
            let mut frac = None;
            if matches!(b.get(i), Some(b'.' | b',')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                let fs = i + 1;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let mut ns = 0u32;
                for k in 0..9 {
                    ns = ns * 10 + b.get(fs + k).filter(|_| fs + k < i).map_or(0, |d| u32::from(d - b'0'));
                }
                frac = Some(ns);
            }
            toks.push(Tok::Num { v, digits, sign, frac });
        } else if c.is_ascii_alphabetic() {
            let st = i;
            while i < b.len() && (b[i].is_ascii_alphabetic() || b[i] == b'.') {
                i += 1;
            }
            toks.push(Tok::Word(s[st..i].to_ascii_lowercase()));
        } else if c == b'(' {
            // Comments, possibly nested.
            let mut depth = 0;
            while i < b.len() {
                depth += match b[i] {
                    b'(' => 1,
                    b')' => -1,
                    _ => 0,
                };
                i += 1;
                if depth == 0 {
                    break;
                }
            }
        } else {
            toks.push(Tok::Punct(char::from(c)));
            i += 1;
            if !c.is_ascii() {
                return None;
            }
        }
    }
    Some(toks)
}

/// What a word means.
#[derive(Clone, Copy, Debug, PartialEq)]
enum W {
    Month(u32),
    Day(i64),
    /// A relative unit: months (year = 12) or seconds.
    Months(i64),
    Secs(i64),
    /// tomorrow/yesterday/today/now: days.
    RelDay(i64),
    Ordinal(i64),
    Ago(i64),
    Zone(i64),
    /// A zone that is already daylight time (`EDT`) or the `DST` word.
    Dst,
    Am,
    Pm,
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const DAYS: [(&str, i64); 11] = [
    ("sunday", 0),
    ("monday", 1),
    ("tuesday", 2),
    ("tues", 2),
    ("wednesday", 3),
    ("wednes", 3),
    ("thursday", 4),
    ("thur", 4),
    ("thurs", 4),
    ("friday", 5),
    ("saturday", 6),
];
const H: i64 = 3600;
const ZONES: &[(&str, i64)] = &[
    ("gmt", 0),
    ("ut", 0),
    ("utc", 0),
    ("wet", 0),
    ("west", H),
    ("bst", H),
    ("art", -3 * H),
    ("brt", -3 * H),
    ("brst", -2 * H),
    ("nst", -3 * H - 1800),
    ("ndt", -2 * H - 1800),
    ("ast", -4 * H),
    ("adt", -3 * H),
    ("clt", -4 * H),
    ("clst", -3 * H),
    ("est", -5 * H),
    ("edt", -4 * H),
    ("cst", -6 * H),
    ("cdt", -5 * H),
    ("mst", -7 * H),
    ("mdt", -6 * H),
    ("pst", -8 * H),
    ("pdt", -7 * H),
    ("akst", -9 * H),
    ("akdt", -8 * H),
    ("hst", -10 * H),
    ("hast", -10 * H),
    ("hadt", -9 * H),
    ("sst", -11 * H),
    ("wat", H),
    ("cet", H),
    ("cest", 2 * H),
    ("met", H),
    ("mez", H),
    ("mest", 2 * H),
    ("mesz", 2 * H),
    ("eet", 2 * H),
    ("eest", 3 * H),
    ("cat", 2 * H),
    ("sast", 2 * H),
    ("eat", 3 * H),
    ("msk", 3 * H),
    ("msd", 4 * H),
    ("ist", 5 * H + 1800),
    ("sgt", 8 * H),
    ("kst", 9 * H),
    ("jst", 9 * H),
    ("gst", 10 * H),
    ("nzst", 12 * H),
    ("nzdt", 13 * H),
];
const ORDINALS: [&str; 13] = [
    "this", "next", "", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth",
];

/// gnulib's `lookup_word`, in its order.
fn lookup(w: &str) -> Option<W> {
    match w {
        "am" | "a.m." => return Some(W::Am),
        "pm" | "p.m." => return Some(W::Pm),
        _ => {}
    }
    let abbrev = w.len() == 3 || (w.len() == 4 && w.ends_with('.'));
    let matches = |name: &str| if abbrev { name.starts_with(&w[..3]) } else { name == w };
    if let Some(i) = MONTHS.iter().position(|m| matches(m)).or((w == "sept").then_some(8)) {
        return Some(W::Month(i as u32 + 1));
    }
    if let Some(d) = DAYS.iter().find(|d| matches(d.0)) {
        return Some(W::Day(d.1));
    }
    if let Some(z) = ZONES.iter().find(|z| z.0 == w) {
        return Some(W::Zone(z.1));
    }
    if w == "dst" {
        return Some(W::Dst);
    }
    let unit = |u: &str| match u {
        "year" => Some(W::Months(12)),
        "month" => Some(W::Months(1)),
        "fortnight" => Some(W::Secs(14 * 86_400)),
        "week" => Some(W::Secs(7 * 86_400)),
        "day" => Some(W::Secs(86_400)),
        "hour" => Some(W::Secs(3600)),
        "minute" | "min" => Some(W::Secs(60)),
        "second" | "sec" => Some(W::Secs(1)),
        _ => None,
    };
    if let Some(u) = unit(w).or_else(|| w.strip_suffix('s').and_then(unit)) {
        return Some(u);
    }
    match w {
        "tomorrow" => return Some(W::RelDay(1)),
        "yesterday" => return Some(W::RelDay(-1)),
        "today" | "now" => return Some(W::RelDay(0)),
        "last" => return Some(W::Ordinal(-1)),
        "first" => return Some(W::Ordinal(1)),
        "ago" => return Some(W::Ago(-1)),
        "hence" => return Some(W::Ago(1)),
        _ => {}
    }
    if let Some(i) = ORDINALS.iter().position(|o| !o.is_empty() && *o == w) {
        return Some(W::Ordinal(i as i64));
    }
    // Military zones: A-I = +1..+9, K-M = +10..+12, N-Y = -1..-12, Z = UTC.
    if let [c] = w.as_bytes() {
        let h = match c {
            b'a'..=b'i' => i64::from(c - b'a') + 1,
            b'k'..=b'm' => i64::from(c - b'k') + 10,
            b'n'..=b'y' => -(i64::from(c - b'n') + 1),
            b'z' => 0,
            _ => return None,
        };
        return Some(W::Zone(h * H));
    }
    if w.contains('.') {
        return lookup(&w.replace('.', ""));
    }
    None
}

/// What the items said.
#[derive(Default, Debug)]
struct Items {
    date: Option<(Option<i64>, i64, i64)>,
    year_digits: usize,
    time: Option<(i64, i64, i64, u32)>,
    zone: Option<i64>,
    day: Option<(i64, i64)>,
    rel_months: i64,
    rel_days: i64,
    rel_secs: i64,
    rel_ns: i64,
    rels: bool,
    dates: u32,
    times: u32,
    zones: u32,
    days: u32,
}

fn year_of(v: i64, digits: usize) -> i64 {
    if digits == 2 {
        v + if v < 69 { 2000 } else { 1900 }
    } else {
        v
    }
}

/// A parser over the tokens; each method consumes one grammar item.
struct P {
    t: Vec<Tok>,
    i: usize,
    it: Items,
}

impl P {
    fn peek(&self, k: usize) -> Option<&Tok> {
        self.t.get(self.i + k)
    }
    fn word(&self, k: usize) -> Option<W> {
        match self.peek(k) {
            Some(Tok::Word(w)) => lookup(w),
            _ => None,
        }
    }
    fn unum(&self, k: usize) -> Option<(i64, usize)> {
        match self.peek(k) {
            Some(Tok::Num { v, digits, sign: None, frac: None }) => Some((*v, *digits)),
            _ => None,
        }
    }
    fn snum(&self, k: usize) -> Option<(i64, usize)> {
        match self.peek(k) {
            Some(Tok::Num { v, digits, sign: Some(s), frac: None }) => Some((v * s, *digits)),
            _ => None,
        }
    }
    fn punct(&self, k: usize, c: char) -> bool {
        self.peek(k) == Some(&Tok::Punct(c))
    }

    fn set_date(&mut self, y: Option<(i64, usize)>, m: i64, d: i64) {
        self.it.dates += 1;
        if let Some((_, digits)) = y {
            self.it.year_digits = digits;
        }
        self.it.date = Some((y.map(|(v, d)| year_of(v, d)), m, d));
    }

    /// A signed zone offset after a time or zone word: `+05:00`, `-0500`, `+5`.
    fn offset(&mut self) -> Option<i64> {
        let (v, digits) = self.snum(0)?;
        self.i += 1;
        let (h, m) = if self.punct(0, ':') {
            let (mm, _) = self.unum(1)?;
            self.i += 2;
            (v, if v < 0 { -mm } else { mm })
        } else if digits <= 2 {
            (v, 0)
        } else {
            (v / 100, v % 100)
        };
        if h.abs() > 24 || m.abs() > 59 {
            return None;
        }
        Some(h * 3600 + m * 60)
    }

    fn zone(&mut self, off: i64) {
        self.it.zones += 1;
        self.it.zone = Some(off);
    }

    /// A time starting at an unsigned number followed by `:` or a meridian.
    fn time(&mut self) -> Option<()> {
        let (h, _) = self.unum(0)?;
        let (mut m, mut s, mut ns) = (0, 0, 0);
        if self.punct(1, ':') {
            m = self.unum(2)?.0;
            self.i += 3;
            if self.punct(0, ':') {
                match self.peek(1) {
                    Some(Tok::Num { v, sign: None, frac, .. }) => {
                        (s, ns) = (*v, frac.unwrap_or(0));
                        self.i += 2;
                    }
                    _ => return None,
                }
            }
        } else {
            self.i += 1;
        }
        let h = match self.word(0) {
            Some(W::Am) | Some(W::Pm) => {
                let pm = self.word(0) == Some(W::Pm);
                self.i += 1;
                if !(1..=12).contains(&h) {
                    return None;
                }
                h % 12 + if pm { 12 } else { 0 }
            }
            _ => {
                if self.snum(0).is_some() {
                    let off = self.offset()?;
                    self.zone(off);
                }
                h
            }
        };
        if h > 23 || m > 59 || s > 59 {
            return None;
        }
        self.it.times += 1;
        self.it.time = Some((h, m, s, ns));
        Some(())
    }

    /// A relative item whose multiplier is `n` and unit is the word at 0.
    /// `frac` is a signed fraction of a second (only for seconds).
    fn rel(&mut self, n: i64, frac: i64) -> Option<()> {
        let mut mul = 1;
        let unit = self.word(0)?;
        self.i += 1;
        if let Some(W::Ago(a)) = self.word(0) {
            mul = a;
            self.i += 1;
        }
        let n = n.checked_mul(mul)?;
        match unit {
            W::Months(k) => self.it.rel_months = self.it.rel_months.checked_add(n.checked_mul(k)?)?,
            W::Secs(86_400) => self.it.rel_days = self.it.rel_days.checked_add(n)?,
            W::Secs(k) if k % 86_400 == 0 => {
                self.it.rel_days = self.it.rel_days.checked_add(n.checked_mul(k / 86_400)?)?
            }
            W::Secs(k) => {
                self.it.rel_secs = self.it.rel_secs.checked_add(n.checked_mul(k)?)?;
                if k == 1 {
                    self.it.rel_ns += frac * mul;
                }
            }
            _ => return None,
        }
        self.it.rels = true;
        Some(())
    }

    fn is_unit(w: Option<W>) -> bool {
        matches!(w, Some(W::Months(_) | W::Secs(_)))
    }

    /// One item; `None` on a syntax error.
    fn item(&mut self) -> Option<()> {
        let tok = self.peek(0)?.clone();
        match tok {
            Tok::Punct(_) => None,
            Tok::Word(w) => {
                let kind = lookup(&w);
                if w == "t" && self.it.dates > 0 && self.unum(1).is_some() && self.it.times == 0 {
                    self.i += 1;
                    return self.time();
                }
                match kind? {
                    W::Month(m) => {
                        self.i += 1;
                        if let (Some((d, _)), Some((y, yd))) = (self.snum(0), self.snum(1)) {
                            self.i += 2;
                            self.set_date(Some((-y, yd)), m.into(), -d);
                        } else if let Some((d, _)) = self.unum(0) {
                            self.i += 1;
                            if self.punct(0, ',') && self.unum(1).is_some() {
                                let y = self.unum(1);
                                self.i += 2;
                                self.set_date(y, m.into(), d);
                            } else {
                                self.set_date(None, m.into(), d);
                            }
                        } else {
                            self.set_date(None, m.into(), 1);
                        }
                        Some(())
                    }
                    W::Day(d) => {
                        self.i += 1;
                        if self.punct(0, ',') {
                            self.i += 1;
                        }
                        self.it.days += 1;
                        self.it.day = Some((0, d));
                        Some(())
                    }
                    W::Ordinal(n) => {
                        self.i += 1;
                        if let Some(W::Day(d)) = self.word(0) {
                            self.i += 1;
                            self.it.days += 1;
                            self.it.day = Some((n, d));
                            Some(())
                        } else {
                            self.rel(n, 0)
                        }
                    }
                    W::Months(_) | W::Secs(_) => self.rel(1, 0),
                    W::RelDay(n) => {
                        self.i += 1;
                        self.it.rel_days += n;
                        self.it.rels = true;
                        Some(())
                    }
                    W::Zone(off) => {
                        self.i += 1;
                        let mut off = off;
                        if self.word(0) == Some(W::Dst) {
                            self.i += 1;
                            off += 3600;
                        } else if self.snum(0).is_some() && !Self::is_unit(self.word(1)) {
                            off += self.offset()?;
                        }
                        self.zone(off);
                        Some(())
                    }
                    W::Ago(_) | W::Dst | W::Am | W::Pm => None,
                }
            }
            Tok::Num { v, digits, sign, frac } => {
                if Self::is_unit(self.word(1)) {
                    self.i += 1;
                    let s = sign.unwrap_or(1);
                    if frac.is_some() && !matches!(self.word(0), Some(W::Secs(1))) {
                        return None;
                    }
                    return self.rel(v * s, i64::from(frac.unwrap_or(0)) * s);
                }
                if frac.is_some() {
                    return None;
                }
                if sign.is_some() {
                    return None;
                }
                // ISO 8601 date: Y-M-D.
                if let (Some((m, _)), Some((d, _))) = (self.snum(1), self.snum(2)) {
                    if m < 0 && d < 0 {
                        self.i += 3;
                        self.set_date(Some((v, digits)), -m, -d);
                        return Some(());
                    }
                }
                if self.punct(1, ':') || matches!(self.word(1), Some(W::Am | W::Pm)) {
                    return self.time();
                }
                if self.punct(1, '/') {
                    let (b, _) = self.unum(2)?;
                    if self.punct(3, '/') {
                        let (c, cd) = self.unum(4)?;
                        self.i += 5;
                        if digits >= 4 {
                            self.set_date(Some((v, digits)), b, c);
                        } else {
                            self.set_date(Some((c, cd)), v, b);
                        }
                    } else {
                        self.i += 3;
                        self.set_date(None, v, b);
                    }
                    return Some(());
                }
                if let Some(W::Month(m)) = self.word(1) {
                    self.i += 2;
                    let y = if let Some((y, yd)) = self.snum(0) {
                        self.i += 1;
                        Some((-y, yd))
                    } else if let Some(y) = self.unum(0) {
                        self.i += 1;
                        Some(y)
                    } else {
                        None
                    };
                    self.set_date(y, m.into(), v);
                    return Some(());
                }
                if let Some(W::Day(d)) = self.word(1) {
                    self.i += 2;
                    self.it.days += 1;
                    self.it.day = Some((v, d));
                    return Some(());
                }
                self.i += 1;
                self.number(v, digits);
                Some(())
            }
        }
    }

    /// A lone number: a year after a date, a YYYYMMDD date, or an HHMM time.
    fn number(&mut self, v: i64, digits: usize) {
        let it = &mut self.it;
        if it.dates > 0 && it.year_digits == 0 && !it.rels && (it.times > 0 || digits > 2) {
            if let Some(d) = it.date.as_mut() {
                if d.0.is_none() {
                    d.0 = Some(year_of(v, digits));
                    it.year_digits = digits;
                    return;
                }
            }
        }
        if digits > 4 {
            it.dates += 1;
            it.year_digits = digits - 4;
            it.date = Some((Some(year_of(v / 10_000, digits - 4)), v / 100 % 100, v % 100));
        } else {
            it.times += 1;
            let (h, m) = if digits <= 2 { (v, 0) } else { (v / 100, v % 100) };
            it.time = Some((h, m, 0, 0));
        }
    }
}

/// Parse `s` relative to `now` (seconds, nanoseconds) in `zone`.
pub fn parse(s: &str, now: (i64, u32), zone: &Zone) -> Option<(i64, u32)> {
    let mut s = s.trim();
    // `TZ="Europe/Paris" 2024-01-01`: read the rest in that zone.
    let own_zone;
    let mut zone = zone;
    if let Some(rest) = s.strip_prefix("TZ=\"") {
        let end = rest.find('"')?;
        own_zone = Zone::from_tz(Some(&rest[..end]));
        zone = &own_zone;
        s = &rest[end + 1..];
    }
    if let Some(rest) = s.trim_start().strip_prefix('@') {
        let toks = lex(rest)?;
        return match toks.as_slice() {
            [Tok::Num { v, sign, frac, .. }] => {
                let neg = *sign == Some(-1);
                let ns = frac.unwrap_or(0);
                let secs = if neg { -v } else { *v };
                // -1.5 is 1.5 seconds before the epoch.
                Some(if neg && ns > 0 { (secs - 1, 1_000_000_000 - ns) } else { (secs, ns) })
            }
            _ => None,
        };
    }
    let mut p = P { t: lex(s)?, i: 0, it: Items::default() };
    while p.i < p.t.len() {
        p.item()?;
    }
    let it = p.it;
    if it.dates > 1 || it.times > 1 || it.zones > 1 || it.days > 1 {
        return None;
    }
    // The current local date and time the items start from.
    let (off, _) = zone.info(now.0);
    let local = now.0 + i64::from(off);
    let (ny, nm, nd) = civil_from_days(local.div_euclid(86_400));
    let now_sod = local.rem_euclid(86_400);
    let (y, m, d) = match it.date {
        Some((y, m, d)) => (y.unwrap_or(ny), m, d),
        None => (ny, i64::from(nm), i64::from(nd)),
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let mut days = days_from_civil(y, m as u32, 1) + d - 1;
    if civil_from_days(days).2 as i64 != d {
        return None; // Feb 30
    }
    let (sod, mut ns) = match it.time {
        Some((h, mi, s, ns)) => (h * 3600 + mi * 60 + s, i64::from(ns)),
        None if it.rels && it.dates == 0 && it.days == 0 => (now_sod, i64::from(now.1)),
        None => (0, 0),
    };
    if let (Some((ord, wd)), 0) = (it.day, it.dates) {
        let cur = (days + 4).rem_euclid(7);
        days += (wd - cur + 7) % 7 + 7 * (ord - i64::from(0 < ord && cur != wd));
    }
    if it.rel_months != 0 {
        let (cy, cm, cd) = civil_from_days(days);
        let total = cy * 12 + i64::from(cm) - 1 + it.rel_months;
        days = days_from_civil(total.div_euclid(12), (total.rem_euclid(12) + 1) as u32, 1) + i64::from(cd) - 1;
    }
    days = days.checked_add(it.rel_days)?;
    let mut secs = match it.zone {
        Some(z) => days.checked_mul(86_400)? + sod - z,
        None => zone.to_secs(days, sod)?,
    };
    secs = secs.checked_add(it.rel_secs)?;
    ns += it.rel_ns;
    secs += ns.div_euclid(1_000_000_000);
    ns = ns.rem_euclid(1_000_000_000);
    Some((secs, ns as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `date -d` results printed by GNU date 9.1 with TZ=UTC on Sun 2026-11-22 23:38:07 UTC.
    const NOW: (i64, u32) = (1_795_390_687, 965_406_438);

    fn p(s: &str) -> Option<String> {
        let (secs, ns) = parse(s, NOW, &Zone::utc())?;
        let w = crate::commands::util::strftime::When { secs, nanos: ns, offset: 0, abbr: "UTC" };
        Some(String::from_utf8_lossy(&crate::commands::util::strftime::format(b"%F %T.%N", &w)).into_owned())
    }

    #[test]
    fn forms() {
        let cases = [
            ("", "2026-11-22 00:00:00.000000000"),
            ("now", "2026-11-22 23:38:07.965406438"),
            ("x", "2026-11-22 11:00:00.000000000"),
            ("2024-01-15 + 3 days", "2024-01-18 00:00:00.000000000"),
            ("Jan 15 2024", "2024-01-15 00:00:00.000000000"),
            ("15 Jan 2024", "2024-01-15 00:00:00.000000000"),
            ("next monday", "2026-11-23 00:00:00.000000000"),
            ("last friday", "2026-11-20 00:00:00.000000000"),
            ("2024-01-15T10:30:00Z", "2024-01-15 10:30:00.000000000"),
            ("2024-01-15T10:30:00+05:00", "2024-01-15 05:30:00.000000000"),
            ("2024-01-15 10:30 EST", "2024-01-15 15:30:00.000000000"),
            ("@1700000000.5", "2023-11-14 22:13:20.500000000"),
            ("1 month ago", "2026-10-22 23:38:07.965406438"),
            ("2024-01-31 +1 month", "2024-03-02 00:00:00.000000000"),
            ("20240115", "2024-01-15 00:00:00.000000000"),
            ("10am", "2026-11-22 10:00:00.000000000"),
            ("3pm tomorrow", "2026-11-23 15:00:00.000000000"),
            ("12:30:45.123", "2026-11-22 12:30:45.123000000"),
            ("fortnight ago", "2026-11-08 23:38:07.965406438"),
            ("2 weeks", "2026-12-06 23:38:07.965406438"),
            ("sunday", "2026-11-22 00:00:00.000000000"),
            ("this thursday", "2026-11-26 00:00:00.000000000"),
            ("TZ=\"America/New_York\" 2024-07-01 12:00", "2024-07-01 16:00:00.000000000"),
            ("Mon, 15 Jan 2024 10:00:00 +0000", "2024-01-15 10:00:00.000000000"),
            ("Sun Nov 22 23:00:00 UTC 2026", "2026-11-22 23:00:00.000000000"),
            ("2024-01-15 10:30:00 -0500", "2024-01-15 15:30:00.000000000"),
            ("UTC+3", "2026-11-21 21:00:00.000000000"),
            ("2024-01-15 UTC-5", "2024-01-15 05:00:00.000000000"),
            ("1/2/3", "0003-01-02 00:00:00.000000000"),
            ("01/02/2024", "2024-01-02 00:00:00.000000000"),
            ("17-Jun-1992", "1992-06-17 00:00:00.000000000"),
            ("Jun-17-1992", "1992-06-17 00:00:00.000000000"),
            ("June 17, 1992", "1992-06-17 00:00:00.000000000"),
            ("2024/01/15", "2024-01-15 00:00:00.000000000"),
            ("tuesday 10:00", "2026-11-24 10:00:00.000000000"),
            ("next week", "2026-11-29 23:38:07.965406438"),
            ("last month", "2026-10-22 23:38:07.965406438"),
            ("this week", "2026-11-22 23:38:07.965406438"),
            ("monday next week", "2026-11-30 00:00:00.000000000"),
            ("today 13:00", "2026-11-22 13:00:00.000000000"),
            ("1 day ago 10:00", "2026-11-21 10:00:00.000000000"),
            ("12am", "2026-11-22 00:00:00.000000000"),
            ("12pm", "2026-11-22 12:00:00.000000000"),
            ("10:00:00.123456789123", "2026-11-22 10:00:00.123456789"),
            ("1200", "2026-11-22 12:00:00.000000000"),
            ("2024-01-15 1200", "2024-01-15 12:00:00.000000000"),
            ("10:00 +2 hours", "2026-11-22 09:00:00.000000000"),
            ("@ 5", "1970-01-01 00:00:05.000000000"),
            ("tomorrow tomorrow", "2026-11-24 23:38:07.965406438"),
            ("10 a.m.", "2026-11-22 10:00:00.000000000"),
            ("3 days hence", "2026-11-25 23:38:07.965406438"),
            ("first monday", "2026-11-23 00:00:00.000000000"),
            ("2 years 3 months ago", "2028-08-22 23:38:07.965406438"),
            ("15 January", "2026-01-15 00:00:00.000000000"),
            ("2 mins", "2026-11-22 23:40:07.965406438"),
            ("-1 week", "2026-11-15 23:38:07.965406438"),
            ("sept 5", "2026-09-05 00:00:00.000000000"),
            ("wednes", "2026-11-25 00:00:00.000000000"),
            ("thurs", "2026-11-26 00:00:00.000000000"),
        ];
        for (s, want) in cases {
            assert_eq!(p(s).as_deref(), Some(want), "{s:?}");
        }
    }

    #[test]
    fn invalid() {
        for s in [
            "midnight",
            "noon",
            "2024-02-30",
            "25:00",
            "12:60",
            "3 mondays",
            "0am",
            "13pm",
            "24:00",
            "2024-01-15 23:59:60",
            "@1.2.3",
            "2024-01-15 2024-01-16",
            "10:00 11:00",
            "a.m.",
            "hence",
            "Jan 2024",
            "2024 Jan 15",
            "foo",
        ] {
            assert_eq!(p(s), None, "{s:?}");
        }
    }
}
