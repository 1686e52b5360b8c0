//! A small `strftime` for UTC (the sandbox's only zone), C locale, used by
//! `printf '%(fmt)T'`.

/// Broken-down UTC time.
#[derive(Clone, Copy, Debug)]
pub struct Tm {
    pub year: i64,
    pub month: u32, // 1..=12
    pub day: u32,   // 1..=31
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
    pub wday: u32, // 0 = Sunday
    pub yday: u32, // 0-based
}

/// Days since 1970-01-01 to (year, month, day) (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

impl Tm {
    pub fn from_epoch(secs: i64) -> Tm {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        const CUM: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
        let yday = CUM[(month - 1) as usize] + day - 1 + u32::from(month > 2 && is_leap(year));
        Tm {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            min: (rem / 60 % 60) as u32,
            sec: (rem % 60) as u32,
            wday: (days + 4).rem_euclid(7) as u32,
            yday,
        }
    }

    /// ISO 8601 week-based year and week number.
    pub fn iso_week(&self) -> (i64, u32) {
        let wday = (self.wday + 6) % 7; // Monday = 0
        let yday = i64::from(self.yday);
        let mut year = self.year;
        let mut week = (yday - i64::from(wday) + 10) / 7;
        if week < 1 {
            year -= 1;
            let prev_days = if is_leap(year) { 366 } else { 365 };
            week = (yday + prev_days - i64::from(wday) + 10) / 7;
        } else {
            let days = if is_leap(year) { 366 } else { 365 };
            if week == 53 && yday - i64::from(wday) + 3 >= days {
                year += 1;
                week = 1;
            }
        }
        (year, week as u32)
    }
}

const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Format `t` (seconds since the epoch) with `fmt`; unknown conversions are
/// copied as they are, like glibc does.
pub fn strftime(fmt: &[u8], secs: i64) -> Vec<u8> {
    let t = Tm::from_epoch(secs);
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' || i + 1 >= fmt.len() {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let c = fmt[i + 1];
        i += 2;
        let s = conv(&t, secs, c);
        match s {
            Some(s) => out.extend_from_slice(s.as_bytes()),
            None => {
                out.push(b'%');
                out.push(c);
            }
        }
    }
    out
}

fn conv(t: &Tm, secs: i64, c: u8) -> Option<String> {
    let h12 = if t.hour.is_multiple_of(12) { 12 } else { t.hour % 12 };
    let day = DAYS[t.wday as usize % 7];
    let month = MONTHS[(t.month as usize + 11) % 12];
    Some(match c {
        b'a' => day[..3].to_string(),
        b'A' => day.to_string(),
        b'b' | b'h' => month[..3].to_string(),
        b'B' => month.to_string(),
        b'c' => {
            format!("{} {} {:>2} {:02}:{:02}:{:02} {}", &day[..3], &month[..3], t.day, t.hour, t.min, t.sec, t.year)
        }
        b'C' => format!("{:02}", t.year.div_euclid(100)),
        b'd' => format!("{:02}", t.day),
        b'D' | b'x' => format!("{:02}/{:02}/{:02}", t.month, t.day, t.year.rem_euclid(100)),
        b'e' => format!("{:>2}", t.day),
        b'F' => format!("{}-{:02}-{:02}", t.year, t.month, t.day),
        b'G' => t.iso_week().0.to_string(),
        b'g' => format!("{:02}", t.iso_week().0.rem_euclid(100)),
        b'H' => format!("{:02}", t.hour),
        b'I' => format!("{h12:02}"),
        b'j' => format!("{:03}", t.yday + 1),
        b'k' => format!("{:>2}", t.hour),
        b'l' => format!("{h12:>2}"),
        b'm' => format!("{:02}", t.month),
        b'M' => format!("{:02}", t.min),
        b'n' => "\n".into(),
        b'p' => if t.hour < 12 { "AM" } else { "PM" }.into(),
        b'P' => if t.hour < 12 { "am" } else { "pm" }.into(),
        b'r' => format!("{h12:02}:{:02}:{:02} {}", t.min, t.sec, if t.hour < 12 { "AM" } else { "PM" }),
        b'R' => format!("{:02}:{:02}", t.hour, t.min),
        b's' => secs.to_string(),
        b'S' => format!("{:02}", t.sec),
        b't' => "\t".into(),
        b'T' | b'X' => format!("{:02}:{:02}:{:02}", t.hour, t.min, t.sec),
        b'u' => (if t.wday == 0 { 7 } else { t.wday }).to_string(),
        b'U' => format!("{:02}", (t.yday + 7 - t.wday) / 7),
        b'V' => format!("{:02}", t.iso_week().1),
        b'w' => t.wday.to_string(),
        b'W' => format!("{:02}", (t.yday + 7 - (t.wday + 6) % 7) / 7),
        b'y' => format!("{:02}", t.year.rem_euclid(100)),
        b'Y' => t.year.to_string(),
        b'z' => "+0000".into(),
        b'Z' => "UTC".into(),
        b'%' => "%".into(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_glibc_in_utc() {
        // From bash: printf '%(...)T' 1700000000 with TZ=UTC.
        let s = strftime(b"%Y-%m-%d %H:%M:%S %j %a %A %b %B %e %p %Z %z %s", 1_700_000_000);
        assert_eq!(s, b"2023-11-14 22:13:20 318 Tue Tuesday Nov November 14 PM UTC +0000 1700000000");
        let s = strftime(b"%c | %x | %X | %U %V %W %G %g %P %r %E %q", 1_700_000_000);
        assert_eq!(s, b"Tue Nov 14 22:13:20 2023 | 11/14/23 | 22:13:20 | 46 46 46 2023 23 pm 10:13:20 PM %E %q");
        assert_eq!(strftime(b"%F %T", 0), b"1970-01-01 00:00:00");
    }
}
