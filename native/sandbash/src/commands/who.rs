//! `who`: the sandbox keeps no login records (no utmp), so only the heading
//! (`-H`) and the `-q` count are ever printed, laid out as GNU who.c lays
//! them out for the options given.

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Who;

const SPEC: Spec = Spec::new(
    "abdlmpqrstuwHT",
    &[
        ("all", Arg::No, "a"),
        ("boot", Arg::No, "b"),
        ("count", Arg::No, "q"),
        ("dead", Arg::No, "d"),
        ("heading", Arg::No, "H"),
        ("login", Arg::No, "l"),
        ("lookup", Arg::No, "lookup"),
        ("message", Arg::No, "T"),
        ("mesg", Arg::No, "T"),
        ("process", Arg::No, "p"),
        ("runlevel", Arg::No, "r"),
        ("short", Arg::No, "s"),
        ("time", Arg::No, "t"),
        ("users", Arg::No, "u"),
        ("writable", Arg::No, "T"),
    ],
    "[OPTION]... [ FILE | ARG1 ARG2 ]",
);

/// GNU's print_heading: which columns show depends on the options.
fn heading(p: &super::util::Parsed) -> String {
    let (mut short, mut idle, mut mesg, mut exit) = (true, false, false, false);
    for o in &p.opts {
        match o.id {
            "a" => (short, idle, mesg, exit) = (false, true, true, true),
            "b" | "p" | "t" => short = false,
            "d" => (short, idle, exit) = (false, true, true),
            "l" | "u" | "r" => (short, idle) = (false, true),
            "s" => short = true,
            "T" | "w" => mesg = true,
            _ => {}
        }
    }
    let mut line = format!("{:<8}{} {:<12} {:<16}", "NAME", if mesg { "  " } else { "" }, "LINE", "TIME");
    if idle && !short {
        line.push_str(&format!(" {:<6}", "IDLE"));
    }
    if !short {
        line.push_str(&format!(" {:>10}", "PID"));
    }
    line.push_str(&format!(" {:<8}", "COMMENT"));
    if exit {
        line.push_str(&format!(" {:<12}", "EXIT"));
    }
    format!("{}\n", line.trim_end_matches(' '))
}

#[async_trait]
impl Utility for Who {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // One operand names a utmp file, two (`am i`) mean -m.
        let p = ctx.opts_at_most(&SPEC, 2).await?;
        if p.has("q") {
            ctx.out(b"\n# users=0\n").await?;
            return Ok(0);
        }
        if p.has("H") {
            ctx.out(heading(&p).as_bytes()).await?;
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn who() {
        check(&["who"], &[], "", "", "", 0);
        check(&["who", "am", "i"], &[], "", "", "", 0);
        check(&["who", "-q"], &[], "", "\n# users=0\n", "", 0);
        check(&["who", "-H"], &[], "", "NAME     LINE         TIME             COMMENT\n", "", 0);
        check(
            &["who", "-aH"],
            &[],
            "",
            "NAME       LINE         TIME             IDLE          PID COMMENT  EXIT\n",
            "",
            0,
        );
        check(&["who", "-b", "-H"], &[], "", "NAME     LINE         TIME                    PID COMMENT\n", "", 0);
        check(
            &["who", "-l", "-H"],
            &[],
            "",
            "NAME     LINE         TIME             IDLE          PID COMMENT\n",
            "",
            0,
        );
        check(&["who", "-T", "-H"], &[], "", "NAME       LINE         TIME             COMMENT\n", "", 0);
        check(
            &["who", "x", "y", "z"],
            &[],
            "",
            "",
            "who: extra operand 'z'\nTry 'who --help' for more information.\n",
            1,
        );
        check(&["who", "-z"], &[], "", "", "who: invalid option -- 'z'\nTry 'who --help' for more information.\n", 1);
    }
}
