//! `uname`: a fixed Linux machine named after the sandbox's hostname.
//! Processor and platform are `unknown`, as on Debian (and left out of `-a`).

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Uname;

const RELEASE: &str = "6.1.0-sandbox";
const VERSION: &str = "#1 SMP PREEMPT_DYNAMIC";
/// The machine (hardware) name, shared with `arch`.
pub const MACHINE: &str = "x86_64";

const SPEC: Spec = Spec::new(
    "asnrvmpio",
    &[
        ("all", Arg::No, "a"),
        ("kernel-name", Arg::No, "s"),
        ("nodename", Arg::No, "n"),
        ("kernel-release", Arg::No, "r"),
        ("kernel-version", Arg::No, "v"),
        ("machine", Arg::No, "m"),
        ("processor", Arg::No, "p"),
        ("hardware-platform", Arg::No, "i"),
        ("operating-system", Arg::No, "o"),
    ],
    "[OPTION]...",
);

#[async_trait]
impl Utility for Uname {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts_at_most(&SPEC, 0).await?;
        let all = p.has("a");
        let host = ctx.sys.hostname.as_str();
        let fields = [
            ("s", "Linux"),
            ("n", host),
            ("r", RELEASE),
            ("v", VERSION),
            ("m", MACHINE),
            ("p", "unknown"),
            ("i", "unknown"),
            ("o", "GNU/Linux"),
        ];
        let none = p.opts.is_empty();
        let shown: Vec<&str> = fields
            .iter()
            .filter(|(id, v)| (none && *id == "s") || p.has(id) || (all && *v != "unknown"))
            .map(|(_, v)| *v)
            .collect();
        ctx.out(format!("{}\n", shown.join(" ")).as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn uname() {
        check(&["uname"], &[], "", "Linux\n", "", 0);
        check(
            &["uname", "-a"],
            &[],
            "",
            "Linux bashkit-sandbox 6.1.0-sandbox #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\n",
            "",
            0,
        );
        check(
            &["uname", "-snrvmpio"],
            &[],
            "",
            "Linux bashkit-sandbox 6.1.0-sandbox #1 SMP PREEMPT_DYNAMIC x86_64 unknown unknown GNU/Linux\n",
            "",
            0,
        );
        check(&["uname", "-mr"], &[], "", "6.1.0-sandbox x86_64\n", "", 0);
        check(&["uname", "-p"], &[], "", "unknown\n", "", 0);
        check(
            &["uname", "-x"],
            &[],
            "",
            "",
            "uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n",
            1,
        );
    }
}
