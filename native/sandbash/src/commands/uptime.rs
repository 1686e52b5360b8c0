//! `uptime` (procps): the sandbox "booted" one hour, 23 minutes ago, has one
//! user and no load. The clock is the real one (UTC).

use super::util::file_time::to_unix;
use super::util::strftime::strftime;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;
use std::time::SystemTime;

pub struct Uptime;

/// Seconds since the pretend boot.
const UP: i64 = 3600 + 23 * 60;

const USAGE: &str = "\nUsage:\n uptime [options]\n\nOptions:\n -p, --pretty   show uptime in pretty format\n -h, --help     display this help and exit\n -s, --since    system up since\n -V, --version  output version information and exit\n\nFor more details see uptime(1).\n";

#[async_trait]
impl Utility for Uptime {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let (now, _) = to_unix(SystemTime::now());
        let text = |f: &[u8], t: i64| String::from_utf8_lossy(&strftime(f, t)).into_owned();
        let out = match ctx.args.first().map(String::as_str) {
            None => format!(
                " {} up  {}:{:02},  1 user,  load average: 0.00, 0.00, 0.00\n",
                text(b"%H:%M:%S", now),
                UP / 3600,
                UP / 60 % 60
            ),
            Some("-p" | "--pretty") => format!("up {} hour, {} minutes\n", UP / 3600, UP / 60 % 60),
            Some("-s" | "--since") => format!("{}\n", text(b"%Y-%m-%d %H:%M:%S", now - UP)),
            Some("-h" | "--help") => USAGE.to_string(),
            Some("-V" | "--version") => "uptime from procps-ng 4.0.2\n".to_string(),
            Some(a) => {
                let msg = match a.strip_prefix("--") {
                    Some(_) => format!("unrecognized option '{a}'"),
                    None => format!("invalid option -- '{}'", a.chars().nth(1).unwrap_or('-')),
                };
                ctx.err(msg).await?;
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(1);
            }
        };
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::run;

    #[test]
    fn uptime() {
        let o = run(&["uptime"], &[], "");
        assert!(o.out.ends_with(" up  1:23,  1 user,  load average: 0.00, 0.00, 0.00\n"), "{o:?}");
        assert_eq!(run(&["uptime", "-p"], &[], "").out, "up 1 hour, 23 minutes\n");
        let o = run(&["uptime", "-x"], &[], "");
        assert!(o.err.starts_with("uptime: invalid option -- 'x'\n\nUsage:\n uptime [options]\n"));
        assert_eq!(o.status, 1);
    }
}
