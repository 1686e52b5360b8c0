//! Timestamps for the file utilities: calendar arithmetic (the sandbox runs in
//! UTC), `touch -d`/`-t` parsing and the `ls -l`/`stat` formats.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number: (year, month 1-12, day 1-31).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { yoe + era * 400 + 1 } else { yoe + era * 400 }, m, d)
}

/// A leap year of the proleptic Gregorian calendar.
pub fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Seconds and nanoseconds since the epoch (negative before 1970).
pub fn to_unix(t: SystemTime) -> (i64, u32) {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
        Err(e) => {
            let d = e.duration();
            let (s, n) = (d.as_secs() as i64, d.subsec_nanos());
            if n == 0 {
                (-s, 0)
            } else {
                (-s - 1, 1_000_000_000 - n)
            }
        }
    }
}

pub fn from_unix(secs: i64, nanos: u32) -> SystemTime {
    if secs >= 0 {
        UNIX_EPOCH + Duration::new(secs as u64, nanos)
    } else {
        UNIX_EPOCH - Duration::from_secs(secs.unsigned_abs()) + Duration::from_nanos(u64::from(nanos))
    }
}

/// Broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tm {
    pub year: i64,
    pub mon: u32,
    pub day: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
}

pub fn tm(secs: i64) -> Tm {
    let (year, mon, day) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400) as u32;
    Tm { year, mon, day, hour: s / 3600, min: s / 60 % 60, sec: s % 60 }
}

/// Seconds since the epoch of a broken-down time; `None` when a field is out of range.
fn from_tm(t: Tm) -> Option<i64> {
    if !(1..=12).contains(&t.mon) || t.day < 1 || t.day > days_in_month(t.year, t.mon) {
        return None;
    }
    if t.hour > 23 || t.min > 59 || t.sec > 60 {
        return None;
    }
    let days = days_from_civil(t.year, t.mon, t.day);
    Some(days * 86_400 + i64::from(t.hour * 3600 + t.min * 60 + t.sec))
}

/// `ls -l`'s date: `Nov 22 10:00` within the last six months, else `Nov 22  2020`.
pub fn ls_date(t: SystemTime, now: SystemTime) -> String {
    let fmt: &[u8] = if recent(t, now) { b"%b %e %H:%M" } else { b"%b %e  %Y" };
    String::from_utf8_lossy(&super::strftime::strftime(fmt, to_unix(t).0)).into_owned()
}

/// GNU's test for a recent time: within half of an average Gregorian year
/// before now, and not in the future.
fn recent(t: SystemTime, now: SystemTime) -> bool {
    let ((s, _), (n, _)) = (to_unix(t), to_unix(now));
    s > n - 31_556_952 / 2 && s <= n
}

/// `ls --time-style=+FORMAT`: strftime's FORMAT, or `+OLD\nRECENT` with a
/// second format for recent times.
pub fn custom_date(format: &str, t: SystemTime, now: SystemTime) -> String {
    let fmt = match format.split_once('\n') {
        Some((_, new)) if recent(t, now) => new,
        Some((old, _)) => old,
        None => format,
    };
    String::from_utf8_lossy(&super::strftime::strftime(fmt.as_bytes(), to_unix(t).0)).into_owned()
}

/// `stat`'s `%y`: `2020-01-02 03:04:05.000000000 +0000`.
pub fn full_date(t: SystemTime) -> String {
    let (s, ns) = to_unix(t);
    let x = tm(s);
    format!("{}-{:02}-{:02} {:02}:{:02}:{:02}.{ns:09} +0000", x.year, x.mon, x.day, x.hour, x.min, x.sec)
}

/// `touch -t [[CC]YY]MMDDhhmm[.ss]`.
pub fn parse_stamp(s: &str, now: SystemTime) -> Option<SystemTime> {
    let (main, sec) = match s.split_once('.') {
        Some((m, ss)) if ss.len() == 2 && ss.bytes().all(|b| b.is_ascii_digit()) => (m, ss.parse::<u32>().ok()?),
        Some(_) => return None,
        None => (s, 0),
    };
    if !main.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |a: usize, b: usize| main[a..b].parse::<u32>().ok();
    let (year, rest) = match main.len() {
        8 => (tm(to_unix(now).0).year, 0),
        10 => {
            let yy = i64::from(num(0, 2)?);
            (if yy < 69 { 2000 + yy } else { 1900 + yy }, 2)
        }
        12 => (i64::from(num(0, 4)?), 4),
        _ => return None,
    };
    let t = Tm {
        year,
        mon: num(rest, rest + 2)?,
        day: num(rest + 2, rest + 4)?,
        hour: num(rest + 4, rest + 6)?,
        min: num(rest + 6, rest + 8)?,
        sec,
    };
    Some(from_unix(from_tm(t)?, 0))
}

/// A date as `date -d` reads it (`touch -d`, `find -newermt`): the one
/// parser of GNU's date syntax, in the zone `TZ` names.
pub fn parse_date(s: &str, now: SystemTime, tz: Option<&str>) -> Option<SystemTime> {
    let zone = crate::commands::date::parse::Zone::from_tz(tz);
    crate::commands::date::parse::parse(s, to_unix(now), &zone).map(|(secs, nanos)| from_unix(secs, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Option<(i64, u32)> {
        parse_date(s, from_unix(1_700_000_000, 0), Some("UTC")).map(to_unix)
    }

    #[test]
    fn dates() {
        // Epoch values from GNU `touch -d STR f; stat -c %Y f` with TZ=UTC.
        assert_eq!(at("@0"), Some((0, 0)));
        assert_eq!(at("2020-01-02 03:04:05"), Some((1_577_934_245, 0)));
        assert_eq!(at("2020-01-02"), Some((1_577_923_200, 0)));
        assert_eq!(at("2020-01-02T03:04:05Z"), Some((1_577_934_245, 0)));
        assert_eq!(at("2020-01-02 03:04:05 +0100"), Some((1_577_930_645, 0)));
        assert_eq!(at("2020-01-02 03:04:05.5"), Some((1_577_934_245, 500_000_000)));
        assert_eq!(at("@1600000000.25"), Some((1_600_000_000, 250_000_000)));
        assert_eq!(at("1 day ago"), Some((1_700_000_000 - 86_400, 0)));
        assert_eq!(at("yesterday"), Some((1_700_000_000 - 86_400, 0)));
        assert_eq!(at("2 hours ago"), Some((1_700_000_000 - 7200, 0)));
        assert_eq!(at("nonsense"), None);
        assert_eq!(at("2020-13-01"), None);
        let now = from_unix(1_700_000_000, 0);
        assert_eq!(parse_stamp("202001020304.05", now).map(to_unix), Some((1_577_934_245, 0)));
        assert_eq!(parse_stamp("2001020304", now).map(to_unix), Some((1_577_934_240, 0)));
        assert_eq!(parse_stamp("bad", now), None);
        assert_eq!(ls_date(from_unix(1_577_934_245, 0), now), "Jan  2  2020");
        assert_eq!(ls_date(from_unix(1_699_999_000, 0), now), "Nov 14 21:56");
        assert_eq!(full_date(from_unix(1_577_934_245, 5)), "2020-01-02 03:04:05.000000005 +0000");
        assert_eq!(civil_from_days(days_from_civil(1969, 12, 31)), (1969, 12, 31));
    }
}
