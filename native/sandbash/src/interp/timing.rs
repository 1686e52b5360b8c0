//! The `time` keyword: report a pipeline's elapsed time on the shell's stderr
//! in `TIMEFORMAT`'s format. The sandbox does not measure CPU time per
//! script, so user and system times read as zero.

use std::time::Duration;

/// bash's format when `TIMEFORMAT` is unset.
const DEFAULT_FORMAT: &str = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS";
/// `time -p`.
const POSIX_FORMAT: &str = "real %2R\nuser %2U\nsys %2S";

/// The report for `real` elapsed time; `None` when `TIMEFORMAT` is empty.
pub fn report(timeformat: Option<&str>, posix: bool, real: Duration) -> Option<String> {
    let fmt = if posix { POSIX_FORMAT } else { timeformat.unwrap_or(DEFAULT_FORMAT) };
    if fmt.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut prec = 3usize;
        let mut long = false;
        let mut spec = String::from("%");
        if let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
            prec = (d as usize).min(3);
            spec.push(chars.next().unwrap_or('0'));
        }
        if chars.peek() == Some(&'l') {
            long = true;
            spec.push('l');
            chars.next();
        }
        let secs = match chars.next() {
            Some('%') if spec == "%" => {
                out.push('%');
                continue;
            }
            Some('R') => real.as_secs_f64(),
            Some('U') | Some('S') => 0.0,
            Some('P') => {
                // CPU share of the elapsed time.
                out.push_str(&format!("{:.*}", prec.min(2), 0.0));
                continue;
            }
            Some(other) => {
                spec.push(other);
                out.push_str(&spec);
                continue;
            }
            None => {
                out.push_str(&spec);
                break;
            }
        };
        out.push_str(&seconds(secs, prec, long));
    }
    out.push('\n');
    Some(out)
}

/// `secs` with `prec` decimals (truncated, as bash does); `long` is `MmS.FFFs`.
fn seconds(secs: f64, prec: usize, long: bool) -> String {
    let scale = 10u64.pow(prec as u32);
    let units = (secs * scale as f64) as u64;
    let (whole, frac) = (units / scale, units % scale);
    let (mins, s) = if long { (whole / 60, whole % 60) } else { (0, whole) };
    let mut t = if long { format!("{mins}m{s}") } else { s.to_string() };
    if prec > 0 {
        t.push_str(&format!(".{frac:0prec$}"));
    }
    if long {
        t.push('s');
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    // Formats checked against bash 5.2 (`TIMEFORMAT=... ; time sleep 0.1`).
    #[test]
    fn formats() {
        let d = Duration::from_millis(104);
        assert_eq!(report(None, false, d).as_deref(), Some("\nreal\t0m0.104s\nuser\t0m0.000s\nsys\t0m0.000s\n"));
        assert_eq!(report(None, true, d).as_deref(), Some("real 0.10\nuser 0.00\nsys 0.00\n"));
        assert_eq!(
            report(Some("%R|%U|%3lR|%0R|%lR|%%|%P"), false, d).as_deref(),
            Some("0.104|0.000|0m0.104s|0|0m0.104s|%|0.00\n")
        );
        assert_eq!(report(Some(""), false, d), None);
        assert_eq!(report(Some("%lR"), false, Duration::from_millis(61_500)).as_deref(), Some("1m1.500s\n"));
    }
}
