//! `ulimit [-SHacdefilmnpqrstuvxR] [limit]`: the session's resource limits as
//! a Linux shell shows them. Nothing here reaches the host; the values are a
//! typical container's, kept per shell (a subshell's changes stay in it),
//! and the sandbox's own budgets are what really bound a script.

use super::fail;
use crate::interp::Fds;
use crate::state::ShellState;

const UNLIMITED: u64 = u64::MAX;
const USAGE: &str = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n";

/// One limit: its option letter, description and unit, its soft and hard
/// defaults, and whether it can be changed.
struct Limit(char, &'static str, Option<&'static str>, u64, u64, bool);

/// Every limit, in `ulimit -a`'s order.
const LIMITS: [Limit; 17] = [
    Limit('R', "real-time non-blocking time", Some("microseconds"), UNLIMITED, UNLIMITED, true),
    Limit('c', "core file size", Some("blocks"), 0, UNLIMITED, true),
    Limit('d', "data seg size", Some("kbytes"), UNLIMITED, UNLIMITED, true),
    Limit('e', "scheduling priority", None, 0, 0, true),
    Limit('f', "file size", Some("blocks"), UNLIMITED, UNLIMITED, true),
    Limit('i', "pending signals", None, 63704, 63704, true),
    Limit('l', "max locked memory", Some("kbytes"), 8192, 8192, true),
    Limit('m', "max memory size", Some("kbytes"), UNLIMITED, UNLIMITED, true),
    Limit('n', "open files", None, 1024, 1048576, true),
    Limit('p', "pipe size", Some("512 bytes"), 8, 8, false),
    Limit('q', "POSIX message queues", Some("bytes"), 819200, 819200, true),
    Limit('r', "real-time priority", None, 0, 0, true),
    Limit('s', "stack size", Some("kbytes"), 8192, UNLIMITED, true),
    Limit('t', "cpu time", Some("seconds"), UNLIMITED, UNLIMITED, true),
    Limit('u', "max user processes", None, 63704, 63704, true),
    Limit('v', "virtual memory", Some("kbytes"), UNLIMITED, UNLIMITED, true),
    Limit('x', "file locks", None, UNLIMITED, UNLIMITED, true),
];

/// A session's limits once `ulimit` changed one: (soft, hard) in the order of
/// [`LIMITS`]. Until then the defaults hold and nothing is stored.
pub type Values = [(u64, u64); 17];

fn values(sh: &ShellState) -> Values {
    match &sh.ulimits {
        Some(v) => **v,
        None => LIMITS.each_ref().map(|l| (l.3, l.4)),
    }
}

fn show(v: u64) -> String {
    if v == UNLIMITED {
        "unlimited".to_string()
    } else {
        v.to_string()
    }
}

/// `ulimit -a`'s line for limit `i`.
fn labelled(i: usize, value: u64) -> String {
    let Limit(opt, desc, unit, ..) = LIMITS[i];
    let unit = match unit {
        Some(u) => format!("({u}, -{opt}) "),
        None => format!("(-{opt}) "),
    };
    format!("{desc:<20} {unit:>20}{}\n", show(value))
}

pub async fn ulimit(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut soft, mut hard, mut all) = (false, false, false);
    let mut chosen: Vec<usize> = Vec::new();
    let mut value: Option<&str> = None;
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--" {
            i += 1;
            break;
        }
        let Some(opts) = a.strip_prefix('-').filter(|o| !o.is_empty()) else { break };
        for c in opts.chars() {
            match c {
                'S' => soft = true,
                'H' => hard = true,
                'a' => all = true,
                c => match LIMITS.iter().position(|l| l.0 == c) {
                    Some(k) => chosen.push(k),
                    None => {
                        fail(sh.loc(), fds, &format!("ulimit: -{c}: invalid option"), 2).await;
                        let _ = fds.stderr.write_str(USAGE).await;
                        return 2;
                    }
                },
            }
        }
        i += 1;
    }
    if let Some(v) = argv.get(i) {
        value = Some(v);
    }
    let current = values(sh);
    let pick = |k: usize| if hard && !soft { current[k].1 } else { current[k].0 };
    if all {
        let out: String = (0..LIMITS.len()).map(|k| labelled(k, pick(k))).collect();
        let _ = fds.stdout.write_str(&out).await;
        return 0;
    }
    if chosen.is_empty() {
        chosen.push(4); // -f
    }
    let Some(value) = value else {
        let out: String = if chosen.len() == 1 {
            format!("{}\n", show(pick(chosen[0])))
        } else {
            chosen.iter().map(|&k| labelled(k, pick(k))).collect()
        };
        let _ = fds.stdout.write_str(&out).await;
        return 0;
    };
    let mut next = current;
    let mut status = 0;
    for &k in &chosen {
        let (s, h) = current[k];
        let n = match value {
            "unlimited" => UNLIMITED,
            "soft" => s,
            "hard" => h,
            v => match v.parse::<u64>() {
                Ok(n) => n,
                Err(_) => return fail(sh.loc(), fds, &format!("ulimit: {v}: invalid number"), 1).await,
            },
        };
        // Without -S or -H both change; a soft limit stays at most the hard
        // one, and a hard one is never raised (no one here is root).
        let (ns, nh) = match (soft, hard) {
            (true, false) => (n, h),
            (false, true) => (s, n),
            _ => (n, n),
        };
        let error = if !LIMITS[k].5 || ns > nh {
            Some("Invalid argument")
        } else if nh > h {
            Some("Operation not permitted")
        } else {
            None
        };
        match error {
            Some(e) => {
                let what = LIMITS[k].1;
                status = fail(sh.loc(), fds, &format!("ulimit: {what}: cannot modify limit: {e}"), 1).await;
            }
            None => next[k] = (ns, nh),
        }
    }
    if next != current {
        sh.ulimits = Some(Box::new(next));
    }
    status
}
