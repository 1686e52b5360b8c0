//! Linux's signals as bash names them, for `kill -l`, `trap -l` and the
//! conditions `trap` and `kill -s` take.

/// Signals 1 to 31, without `SIG`.
const NAMES: [&str; 31] = [
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM",
    "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO",
    "PWR", "SYS",
];
const RTMIN: u32 = 34;
const RTMAX: u32 = 64;

/// The name of signal `n` without `SIG` (`TERM`, `RTMIN+3`, `RTMAX-1`);
/// `None` for 0, 32, 33 and past 64.
pub fn name(n: u32) -> Option<String> {
    Some(match n {
        1..=31 => NAMES[n as usize - 1].to_string(),
        RTMIN => "RTMIN".to_string(),
        RTMAX => "RTMAX".to_string(),
        35..=49 => format!("RTMIN+{}", n - RTMIN),
        50..=63 => format!("RTMAX-{}", RTMAX - n),
        _ => return None,
    })
}

/// The number of the signal named `TERM`, `SIGTERM`, `term` or `RTMIN+2`
/// (no number: see [`number`]).
pub fn by_name(spec: &str) -> Option<u32> {
    let up = spec.to_ascii_uppercase();
    let s = up.strip_prefix("SIG").unwrap_or(&up);
    if let Some(i) = NAMES.iter().position(|n| *n == s) {
        return Some(i as u32 + 1);
    }
    // bash's bounds: RTMIN+0..=30, RTMAX-0..=14.
    let offset = |t: &str, max: u32| t.parse::<u32>().ok().filter(|k| *k <= max);
    match s {
        "RTMIN" => Some(RTMIN),
        "RTMAX" => Some(RTMAX),
        _ => {
            if let Some(k) = s.strip_prefix("RTMIN+").and_then(|t| offset(t, RTMAX - RTMIN)) {
                Some(RTMIN + k)
            } else {
                s.strip_prefix("RTMAX-").and_then(|t| offset(t, 14)).map(|k| RTMAX - k)
            }
        }
    }
}

/// The number of a signal given by name or as a number from 0 to 64.
pub fn number(spec: &str) -> Option<u32> {
    match spec.parse::<u32>() {
        Ok(n) => (n <= RTMAX).then_some(n),
        Err(_) => by_name(spec),
    }
}

/// `kill -l` / `trap -l`: `N) SIGNAME` entries, five to a line, as bash
/// prints them (a tab after each entry but the fifth of a line).
pub fn table() -> String {
    let mut out = String::new();
    let mut k = 0;
    for n in 1..=RTMAX {
        let Some(name) = name(n) else { continue };
        out.push_str(&format!("{n:2}) SIG{name}"));
        k += 1;
        out.push(if k % 5 == 0 { '\n' } else { '\t' });
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_round_trip() {
        for n in (1..=31).chain(34..=64) {
            let name = name(n).unwrap_or_default();
            assert_eq!(number(&name), Some(n), "{name}");
            assert_eq!(number(&format!("sig{name}")), Some(n), "{name}");
        }
        assert_eq!(name(32), None);
        assert_eq!(number("RTMIN+16"), Some(50));
        assert_eq!(number("RTMAX-15"), None);
        assert_eq!(number("65"), None);
        assert_eq!(number("CLD"), None);
    }
}
