//! Numbers with units: sizes with GNU multiplier suffixes, durations, `-h` sizes.

/// A count with GNU's multiplier suffixes (`b`=512, `k`/`K`/`KiB`=1024,
/// `kB`=1000, `M`/`MB`, `G`, ... `Y`); leading blanks and `+` are allowed as
/// strtoumax allows them. Values too large clamp to `u64::MAX`.
pub fn parse_size(s: &str) -> Option<u64> {
    parse_size_wide(s).map(|n| n.min(u128::from(u64::MAX)) as u64)
}

/// Like [`parse_size`], telling an invalid count (`Err(false)`) from one too
/// large for a u64 (`Err(true)`, GNU's "Value too large for defined data type").
pub fn parse_size_checked(s: &str) -> Result<u64, bool> {
    match parse_size_wide(s) {
        None => Err(false),
        Some(n) if n > u128::from(u64::MAX) => Err(true),
        Some(n) => Ok(n as u64),
    }
}

/// The count of [`parse_size`] before clamping (saturates a little past u64).
fn parse_size_wide(s: &str) -> Option<u128> {
    let s = s.trim_start_matches([' ', '\t', '\n']);
    let s = s.strip_prefix('+').unwrap_or(s);
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if digits_end == 0 {
        return None;
    }
    let (num, suffix) = s.split_at(digits_end);
    let cap = u128::from(u64::MAX) + 1;
    let n: u128 = num.bytes().fold(0u128, |acc, d| (acc * 10 + u128::from(d - b'0')).min(cap));
    let mut ch = suffix.chars();
    let mult: u128 = match ch.next() {
        None => 1,
        Some('b') if ch.as_str().is_empty() => 512,
        Some(letter) => {
            let pow = match letter {
                'k' | 'K' => 1,
                'm' | 'M' => 2,
                'G' => 3,
                'T' => 4,
                'P' => 5,
                'E' => 6,
                'Z' => 7,
                'Y' => 8,
                _ => return None,
            };
            let base: u128 = match ch.as_str() {
                "" | "iB" => 1024,
                "B" | "D" => 1000,
                _ => return None,
            };
            base.pow(pow)
        }
    };
    Some(n.saturating_mul(mult))
}

/// A time interval as `sleep`/`timeout` take it: a non-negative number
/// (`1.5`, `1e1`, `inf`) with an optional `s`, `m`, `h` or `d` suffix; seconds.
pub fn parse_duration(s: &str) -> Option<f64> {
    let (num, mult) = match s.char_indices().last() {
        Some((i, 's')) => (&s[..i], 1.0),
        Some((i, 'm')) => (&s[..i], 60.0),
        Some((i, 'h')) => (&s[..i], 3600.0),
        Some((i, 'd')) => (&s[..i], 86400.0),
        _ => (s, 1.0),
    };
    if num.is_empty() || num == "+" || num == "-" || num.contains(char::is_whitespace) {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    (v >= 0.0 && !v.is_nan()).then_some(v * mult)
}

/// GNU's `-h` sizes (`4.0K`, `20K`, `1.5M`): powers of `base` (1024 or
/// 1000), rounded up, one decimal below 10.
pub fn human_size(n: u64, base: u64) -> String {
    let units = if base == 1024 { "KMGTPEZY" } else { "kMGTPEZY" };
    if n < base {
        return n.to_string();
    }
    let mut div = 1u128;
    for (k, unit) in units.chars().enumerate() {
        div *= u128::from(base);
        let n = u128::from(n);
        let tenths = (n * 10).div_ceil(div);
        if tenths < 100 {
            return format!("{}.{}{unit}", tenths / 10, tenths % 10);
        }
        let whole = n.div_ceil(div);
        if whole < u128::from(base) || k == units.len() - 1 {
            return format!("{whole}{unit}");
        }
    }
    n.to_string()
}
