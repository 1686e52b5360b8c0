//! The one `strftime`: GNU's (gnulib's nstrftime, C locale), as `date +FORMAT`
//! runs it: flags `_ - 0 + ^ #`, field widths, `E`/`O` modifiers, `%:z`-style
//! offsets and `%N`. Malformed conversions are copied as written, padded to their
//! width. [`strftime`] is the UTC shorthand that `printf '%(fmt)T'`, awk's
//! `strftime`, `find -printf`, `ls -l`, `uptime` and the prompt's `\D{}` use.

use super::file_time::is_leap;

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

impl Tm {
    pub fn from_epoch(secs: i64) -> Tm {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (year, month, day) = super::file_time::civil_from_days(days);
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

/// A moment as `date` shows it.
pub struct When<'a> {
    pub secs: i64,
    pub nanos: u32,
    /// Seconds east of UTC.
    pub offset: i32,
    /// The zone abbreviation (`%Z`).
    pub abbr: &'a str,
}

/// Widths past this are clamped so `%999999999d` cannot exhaust memory.
const MAX_WIDTH: usize = 1 << 16;

/// Format `w` with `fmt`.
pub fn format(fmt: &[u8], w: &When) -> Vec<u8> {
    let t = Tm::from_epoch(w.secs.saturating_add(i64::from(w.offset)));
    let mut out = Vec::new();
    format_into(&mut out, fmt, w, &t, false);
    out
}

/// One conversion's flags.
#[derive(Clone, Copy)]
struct Flags {
    pad: u8,
    width: Option<usize>,
    upper: bool,
    swap: bool,
}

fn format_into(out: &mut Vec<u8>, fmt: &[u8], w: &When, t: &Tm, glibc: bool) {
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut f = Flags { pad: 0, width: None, upper: false, swap: false };
        while let Some(&c) = fmt.get(i) {
            match c {
                b'_' | b'-' | b'0' | b'+' => f.pad = c,
                b'^' => f.upper = true,
                b'#' => f.swap = true,
                _ => break,
            }
            i += 1;
        }
        while let Some(&c) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
            f.width = Some((f.width.unwrap_or(0) * 10 + usize::from(c - b'0')).min(MAX_WIDTH));
            i += 1;
        }
        let modifier = match fmt.get(i) {
            Some(&c @ (b'E' | b'O')) => {
                i += 1;
                c
            }
            _ => 0,
        };
        let mut colons = 0;
        while fmt.get(i) == Some(&b':') {
            colons += 1;
            i += 1;
        }
        let Some(&c) = fmt.get(i) else {
            text(out, &fmt[start..], f.pad, f.width);
            break;
        };
        i += 1;
        let seq = &fmt[start..i];
        let ok = modifier_ok(c, modifier) && (colons == 0 || (c == b'z' && colons <= 3));
        if !ok || (glibc && c == b'q') || !conv(out, c, colons, seq, f, w, t) {
            text(out, seq, f.pad, f.width);
        }
    }
}

/// Which conversions take `%E`/`%O` (the rest print as written).
fn modifier_ok(c: u8, m: u8) -> bool {
    match m {
        b'E' => b"cCxXyYzZnt".contains(&c),
        b'O' => b"deHIklmMSuUVwWyzZntbBh".contains(&c),
        _ => true,
    }
}

/// Pad `s` to `width` (zeros for the `0`/`+` flags, else spaces; none for `-`).
fn text(out: &mut Vec<u8>, s: &[u8], pad: u8, width: Option<usize>) {
    let w = if pad == b'-' { 0 } else { width.unwrap_or(0) };
    let fill = if pad == b'0' || pad == b'+' { b'0' } else { b' ' };
    out.extend(std::iter::repeat_n(fill, w.saturating_sub(s.len())));
    out.extend_from_slice(s);
}

/// gnulib's `do_number_sign_and_padding`: `digits` is the magnitude (with any
/// colons), `sign` the sign to show, `min` the default width.
fn number(out: &mut Vec<u8>, digits: &[u8], sign: Option<u8>, pad: u8, width: Option<usize>, min: usize) {
    let pad = if pad == 0 { b'0' } else { pad };
    let mut width = width.unwrap_or(min) as isize;
    let shortage = width - isize::from(sign.is_some()) - digits.len() as isize;
    let padding = if pad == b'-' || shortage <= 0 { 0 } else { shortage };
    if let Some(s) = sign {
        if pad == b'_' {
            out.extend(std::iter::repeat_n(b' ', padding as usize));
            width -= padding;
        }
        out.push(s);
        width -= 1;
    }
    text(out, digits, pad, Some(width.max(0) as usize));
}

/// A plain (possibly negative) number with `min` digits by default.
fn num(out: &mut Vec<u8>, v: i64, min: usize, pad: u8, width: Option<usize>) {
    let sign = (v < 0).then_some(b'-');
    number(out, v.unsigned_abs().to_string().as_bytes(), sign, pad, width, min);
}

/// A year-like number: the `+` flag shows a sign when it is wider than `min` digits.
fn yearish(out: &mut Vec<u8>, v: i64, min: usize, pad: u8, width: Option<usize>) {
    let limit: u64 = if min == 2 { 99 } else { 9999 };
    let plus = pad == b'+' && (limit < v.unsigned_abs() || width.is_some_and(|w| min < w));
    let sign = if v < 0 { Some(b'-') } else { plus.then_some(b'+') };
    number(out, v.unsigned_abs().to_string().as_bytes(), sign, pad, width, min);
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

/// Output one conversion; `false` when `c` is not one.
fn conv(out: &mut Vec<u8>, c: u8, colons: usize, seq: &[u8], f: Flags, w: &When, t: &Tm) -> bool {
    let (pad, width) = (f.pad, f.width);
    let h12 = if t.hour.is_multiple_of(12) { 12 } else { t.hour % 12 };
    let day = DAYS[t.wday as usize % 7];
    let month = MONTHS[(t.month as usize + 11) % 12];
    // Case rules of gnulib: `#` uppercases names, lowercases %p and %Z.
    let (mut up, mut low) = (f.upper, false);
    let name = |s: &str, up: bool, low: bool| {
        if low {
            s.to_ascii_lowercase()
        } else if up {
            s.to_ascii_uppercase()
        } else {
            s.to_string()
        }
    };
    let sub = |out: &mut Vec<u8>, sf: &[u8]| {
        let mut tmp = Vec::new();
        format_into(&mut tmp, sf, w, t, false);
        if f.upper {
            tmp.make_ascii_uppercase();
        }
        text(out, &tmp, pad, width);
    };
    let space = |p: u8| if p == 0 { b'_' } else { p };
    match c {
        b'a' | b'A' | b'b' | b'B' | b'h' => {
            up |= f.swap;
            let s = match c {
                b'a' => &day[..3],
                b'A' => day,
                b'B' => month,
                _ => &month[..3],
            };
            text(out, name(s, up, low).as_bytes(), pad, width);
        }
        b'p' | b'P' => {
            if f.swap || c == b'P' {
                (up, low) = (false, true);
            }
            text(out, name(if t.hour < 12 { "AM" } else { "PM" }, up, low).as_bytes(), pad, width);
        }
        b'Z' => {
            if f.swap {
                (up, low) = (false, true);
            }
            text(out, name(w.abbr, up, low).as_bytes(), pad, width);
        }
        b'c' => sub(out, b"%a %b %e %H:%M:%S %Y"),
        b'D' | b'x' => sub(out, b"%m/%d/%y"),
        b'r' => sub(out, b"%I:%M:%S %p"),
        b'R' => sub(out, b"%H:%M"),
        b'T' | b'X' => sub(out, b"%H:%M:%S"),
        b'F' => {
            // The width applies to the year: `%12F` is `%06Y-%m-%d`.
            let (ypad, yw) = match width {
                None if pad == 0 => (b'+', 4),
                _ => (pad, width.unwrap_or(0).saturating_sub(6)),
            };
            yearish(out, t.year, 4, ypad, Some(yw));
            out.extend_from_slice(format!("-{:02}-{:02}", t.month, t.day).as_bytes());
        }
        b'C' => yearish(out, t.year.div_euclid(100), 2, pad, width),
        b'y' => yearish(out, t.year.rem_euclid(100), 2, pad, width),
        b'Y' => yearish(out, t.year, 4, pad, width),
        b'G' => yearish(out, t.iso_week().0, 4, pad, width),
        b'g' => yearish(out, t.iso_week().0.rem_euclid(100), 2, pad, width),
        b'd' => num(out, i64::from(t.day), 2, pad, width),
        b'e' => num(out, i64::from(t.day), 2, space(pad), width),
        b'H' => num(out, i64::from(t.hour), 2, pad, width),
        b'I' => num(out, i64::from(h12), 2, pad, width),
        b'k' => num(out, i64::from(t.hour), 2, space(pad), width),
        b'l' => num(out, i64::from(h12), 2, space(pad), width),
        b'j' => num(out, i64::from(t.yday) + 1, 3, pad, width),
        b'm' => num(out, i64::from(t.month), 2, pad, width),
        b'M' => num(out, i64::from(t.min), 2, pad, width),
        b'S' => num(out, i64::from(t.sec), 2, pad, width),
        b'q' => num(out, i64::from((t.month - 1) / 3 + 1), 1, pad, width),
        b'u' => num(out, i64::from(if t.wday == 0 { 7 } else { t.wday }), 1, pad, width),
        b'w' => num(out, i64::from(t.wday), 1, pad, width),
        b'U' => num(out, i64::from((t.yday + 7 - t.wday) / 7), 2, pad, width),
        b'W' => num(out, i64::from((t.yday + 7 - (t.wday + 6) % 7) / 7), 2, pad, width),
        b'V' => num(out, i64::from(t.iso_week().1), 2, pad, width),
        b's' => num(out, w.secs, 1, pad, width),
        b'N' => nanos(out, w.nanos, pad, width),
        b'z' => offset(out, w.offset, colons, pad, width),
        b'n' => text(out, b"\n", pad, width),
        b't' => text(out, b"\t", pad, width),
        b'%' if seq.len() == 2 => out.push(b'%'),
        b'%' => {
            // gnulib pads a flagged `%%` one wider than the sequence it copies.
            let w = if pad == b'-' { 0 } else { width.unwrap_or(0) };
            let fill = if pad == b'0' || pad == b'+' { b'0' } else { b' ' };
            out.extend(std::iter::repeat_n(fill, (w + 1).saturating_sub(seq.len())));
            out.extend_from_slice(seq);
        }
        _ => return false,
    }
    true
}

/// `%N`: the width is a precision (digits from the left); trailing zeros are
/// trimmed and padding goes on the right.
fn nanos(out: &mut Vec<u8>, ns: u32, pad: u8, width: Option<usize>) {
    let explicit = width.filter(|&w| w > 0);
    let w = explicit.unwrap_or(9);
    let (mut n, mut ndigs) = (ns % 1_000_000_000, 9usize);
    while w < ndigs || (1 < ndigs && n % 10 == 0) {
        ndigs -= 1;
        n /= 10;
    }
    out.extend_from_slice(format!("{n:0ndigs$}").as_bytes());
    let pad = if pad == 0 || (pad == b'-' && explicit.is_none()) { b'0' } else { pad };
    if pad != b'-' {
        let fill = if pad == b'_' { b' ' } else { b'0' };
        out.extend(std::iter::repeat_n(fill, w.saturating_sub(ndigs)));
    }
}

/// `%z`, `%:z`, `%::z`, `%:::z`.
fn offset(out: &mut Vec<u8>, off: i32, colons: usize, pad: u8, width: Option<usize>) {
    let a = off.unsigned_abs();
    let (h, m, s) = (a / 3600, a / 60 % 60, a % 60);
    let colons = match colons {
        3 if s != 0 => 2,
        3 if m != 0 => 1,
        c => c,
    };
    // (default width, value, where colons go: bit k set = colon before digit k from the right)
    let (min, mut v, mut mask) = match colons {
        0 => (5, h * 100 + m, 0u32),
        1 => (6, h * 100 + m, 0o4),
        2 => (9, h * 10_000 + m * 100 + s, 0o24),
        _ => (3, h, 0),
    };
    let mut digits = Vec::new();
    loop {
        if mask & 1 != 0 {
            digits.push(b':');
        }
        mask >>= 1;
        digits.push(b'0' + (v % 10) as u8);
        v /= 10;
        if v == 0 && mask == 0 {
            break;
        }
    }
    digits.reverse();
    number(out, &digits, Some(if off < 0 { b'-' } else { b'+' }), pad, width, min);
}

/// [`strftime`] at `w`'s offset and zone name (bash's `%(fmt)T` under `TZ`).
pub fn strftime_at(fmt: &[u8], w: &When) -> Vec<u8> {
    let t = Tm::from_epoch(w.secs.saturating_add(i64::from(w.offset)));
    let mut out = Vec::new();
    format_into(&mut out, fmt, w, &t, true);
    out
}

/// Format `secs` (seconds since the epoch, UTC, the sandbox's only zone) with `fmt`
/// as glibc's strftime does (bash's `printf '%(fmt)T'`, gawk): gnulib's `%q`
/// (quarter), a `date` extension, is not a conversion there.
pub fn strftime(fmt: &[u8], secs: i64) -> Vec<u8> {
    let w = When { secs, nanos: 0, offset: 0, abbr: "UTC" };
    let mut out = Vec::new();
    format_into(&mut out, fmt, &w, &Tm::from_epoch(secs), true);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, secs: i64, nanos: u32, offset: i32, abbr: &str) -> String {
        String::from_utf8_lossy(&format(fmt.as_bytes(), &When { secs, nanos, offset, abbr })).into_owned()
    }

    // Expectations from `LC_ALL=C TZ=UTC date -d 2024-03-05T07:08:09.012345678Z +FMT`.
    const T: i64 = 1_709_622_489;

    #[test]
    fn every_conversion() {
        assert_eq!(
            f("%a|%A|%b|%B|%c|%C|%d|%D|%e|%F|%g|%G|%h|%H|%I|%j|%k|%l|%m|%M|%n|%N|%p|%P|%q|%r|%R|%s|%S|%t|%T|%u|%U|%V|%w|%W|%x|%X|%y|%Y|%z|%:z|%::z|%:::z|%Z|%%", T, 12_345_678, 0, "UTC"),
            "Tue|Tuesday|Mar|March|Tue Mar  5 07:08:09 2024|20|05|03/05/24| 5|2024-03-05|24|2024|Mar|07|07|065| 7| 7|03|08|\n|012345678|AM|am|1|07:08:09 AM|07:08|1709622489|09|\t|07:08:09|2|09|10|2|10|03/05/24|07:08:09|24|2024|+0000|+00:00|+00:00:00|+00|UTC|%"
        );
    }

    #[test]
    fn flags_and_widths() {
        assert_eq!(
            f("%-d|%_d|%0e|%-e|%^a|%#a|%^B|%#p|%^p|%#P|%^P|%#Z|%^Z|%10a|%010a|%-10a|%_10a|%5d|%_5d|%-5d|%3N|%6N|%-N|%12N|%_3N|%10s|%_10s|%-j|%_j|%5Y|%_5Y|%05Y|%+5Y|%+Y|%10F|%_10F|%-F|%20c|%^c|%#c|%Q|%E|%Ey|%Od|%Ez|%:d|%5:z|%_10z|%-z|%010z|%Oz", T, 12_345_678, 0, "UTC"),
            "5| 5|05|5|TUE|TUE|MARCH|am|AM|am|am|utc|UTC|       Tue|0000000Tue|Tue|       Tue|00005|    5|5|012|012345|012345678|012345678000|012|1709622489|1709622489|65| 65|02024| 2024|02024|+2024|2024|2024-03-05|2024-03-05|2024-03-05|Tue Mar  5 07:08:09 2024|TUE MAR  5 07:08:09 2024|Tue Mar  5 07:08:09 2024|%Q|%E|24|05|+0000|%:d|+0:00|        +0|+0|+000000000|+0000"
        );
        assert_eq!(
            f("%12F|%_12F|%-12F|%012F|%12T|%_12T|%12D|%^12a|%-N|%_N|%5N|%_12N|%12R|%12r|%12x|%+12F|%3%|%12c|%_30c|%5Z|%12h", T, 500_000_000, 0, "UTC"),
            "002024-03-05|  2024-03-05|2024-03-05|002024-03-05|    07:08:09|    07:08:09|    03/05/24|         TUE|500000000|5        |50000|5           |       07:08| 07:08:09 AM|    03/05/24|+02024-03-05| %3%|Tue Mar  5 07:08:09 2024|      Tue Mar  5 07:08:09 2024|  UTC|         Mar"
        );
        assert_eq!(
            f("%5Q|%-5Q|%_5%|%05%|%:%|%^5q|%E|%::::z|%:Z|%EF|%OY|%012T|%^5p|%_4j|%-4j|%_4m|%-H%-M|%_S", T, 0, 0, "UTC"),
            "  %5Q|%-5Q|  %_5%|00%05%|%:%|00001|%E|%::::z|%:Z|%EF|%OY|000007:08:09|   AM|  65|65|   3|78| 9"
        );
        assert_eq!(f("%5", T, 0, 0, "UTC"), "   %5");
        assert_eq!(f("%-N|%-3N|%_3N|%1N", T, 12_000_000, 0, "UTC"), "012000000|012|012|0");
        assert_eq!(f("%s %_5s %05s %Y", -1, 0, 0, "UTC"), "-1    -1 -0001 1969");
    }

    #[test]
    fn offsets() {
        // TZ=America/New_York and TZ=Asia/Kolkata.
        assert_eq!(f("%z %:z %::z %:::z %Z %#Z", T, 0, -18_000, "EST"), "-0500 -05:00 -05:00:00 -05 EST est");
        assert_eq!(f("%z %:z %::z %:::z %Z", T, 0, 19_800, "IST"), "+0530 +05:30 +05:30:00 +05:30 IST");
    }

    // The simple UTC strftime that printf, awk, find, uptime and the prompt used
    // before there was one implementation: every conversion it knew prints the same.
    mod before {
        use super::super::Tm;
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
        fn old_strftime(fmt: &[u8], secs: i64) -> Vec<u8> {
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
                    format!(
                        "{} {} {:>2} {:02}:{:02}:{:02} {}",
                        &day[..3],
                        &month[..3],
                        t.day,
                        t.hour,
                        t.min,
                        t.sec,
                        t.year
                    )
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

        pub fn strftime(fmt: &[u8], secs: i64) -> Vec<u8> {
            old_strftime(fmt, secs)
        }
    }

    #[test]
    fn same_as_the_old_utc_strftime() {
        let convs = b"aAbhBcCdDxeFGgHIjklmMnpPrRsStTXuUVwWyYzZ%";
        let mut secs: i64 = -2_208_988_800; // 1900-01-01
        while secs < 4_102_444_800 {
            // 2100-01-01
            for &c in convs.iter() {
                let f = [b'%', c];
                assert_eq!(strftime(&f, secs), before::strftime(&f, secs), "%{} at {secs}", c as char);
            }
            let f = b"%Y-%m-%d %H:%M:%S %j %a %A %b %B %e %p %Z %z %s|%c|%x|%X|%U %V %W %G %g %P %r %E %q";
            assert_eq!(strftime(f, secs), before::strftime(f, secs), "at {secs}");
            secs += 7_654_321;
        }
    }

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
