//! `kill` as util-linux's binary. The sandbox has no processes a script could
//! name, so every PID is `No such process`; signal names are still checked.

use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Kill;

const SIGNALS: [&str; 31] = [
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM",
    "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "POLL",
    "PWR", "SYS",
];

const USAGE: &str = "\nUsage:\n kill [options] <pid> [...]\n\nOptions:\n <pid> [...]            send signal to every <pid> listed\n -<signal>, -s, --signal <signal>\n                        specify the <signal> to be sent\n -q, --queue <value>    integer value to be sent with the signal\n -l, --list=[<signal>]  list all signal names, or convert one to a name\n -L, --table            list all signal names in a nice table\n\n -h, --help     display this help and exit\n -V, --version  output version information and exit\n\nFor more details see kill(1).\n";

/// Signal number of a name (`TERM`, `SIGTERM`) or number.
fn signal(s: &str) -> Option<usize> {
    if let Ok(n) = s.parse::<usize>() {
        return (n <= 64).then_some(n);
    }
    let name = s.strip_prefix("SIG").unwrap_or(s);
    SIGNALS.iter().position(|&n| n.eq_ignore_ascii_case(name)).map(|i| i + 1)
}

#[async_trait]
impl Utility for Kill {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = ctx.args;
        let mut i = 0;
        match args.first().map(String::as_str) {
            None => {
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(1);
            }
            Some("-h" | "--help") => {
                ctx.out(USAGE.as_bytes()).await?;
                return Ok(0);
            }
            Some("-l" | "--list") => {
                let Some(s) = args.get(1) else {
                    let mut out = SIGNALS[..16].join(" ");
                    out.push('\n');
                    out.push_str(&SIGNALS[16..].join(" "));
                    out.push('\n');
                    ctx.out(out.as_bytes()).await?;
                    return Ok(0);
                };
                let line = match signal(s) {
                    Some(n) if s.bytes().all(|b| b.is_ascii_digit()) && (1..=31).contains(&n) => {
                        format!("{}\n", SIGNALS[n - 1])
                    }
                    Some(n) if !s.bytes().all(|b| b.is_ascii_digit()) => format!("{n}\n"),
                    _ => return Err(UError::new(1, format!("unknown signal: {s}"))),
                };
                ctx.out(line.as_bytes()).await?;
                return Ok(0);
            }
            Some("-s" | "--signal") => {
                if args.get(1).and_then(|s| signal(s)).is_none() {
                    return Err(UError::new(1, format!("unknown signal: {}", args.get(1).map_or("", String::as_str))));
                }
                i = 2;
            }
            Some(a) if a.starts_with('-') && a != "--" && a.len() > 1 => {
                if signal(&a[1..]).is_none() {
                    ctx.err(format!("invalid argument {}", &a[1..2])).await?;
                    ctx.stderr.write(USAGE.as_bytes()).await?;
                    return Ok(1);
                }
                i = 1;
            }
            _ => {}
        }
        if args.get(i).map(String::as_str) == Some("--") {
            i += 1;
        }
        let mut status = 0;
        for a in &args[i..] {
            status = 1;
            if a.parse::<i64>().is_ok() {
                ctx.err(format!("({a}): No such process")).await?;
            } else {
                ctx.err(format!("failed to parse argument: '{a}'")).await?;
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn kill() {
        check(&["kill", "123"], &[], "", "", "kill: (123): No such process\n", 1);
        check(
            &["kill", "-9", "123", "99"],
            &[],
            "",
            "",
            "kill: (123): No such process\nkill: (99): No such process\n",
            1,
        );
        check(&["kill", "-TERM", "5"], &[], "", "", "kill: (5): No such process\n", 1);
        check(&["kill", "abc"], &[], "", "", "kill: failed to parse argument: 'abc'\n", 1);
        check(&["kill", "-l", "9"], &[], "", "KILL\n", "", 0);
        check(&["kill", "-l", "SIGTERM"], &[], "", "15\n", "", 0);
        let o = crate::commands::util::testutil::run(&["kill", "-l"], &[], "");
        assert!(o.out.starts_with("HUP INT QUIT"));
        let o = crate::commands::util::testutil::run(&["kill", "-FOO", "1"], &[], "");
        assert!(o.err.starts_with("kill: invalid argument F\n\nUsage:\n"));
        assert_eq!(o.status, 1);
    }
}
