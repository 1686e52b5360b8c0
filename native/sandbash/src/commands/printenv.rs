//! `printenv`: print all exported variables, or the values of the named ones
//! (status 1 when one is missing).

use super::util::{Arg, Spec};
use super::env::format_env;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Printenv;

const SPEC: Spec = Spec::new("0", &[("null", Arg::No, "0")], "[OPTION]... [VARIABLE]...").status(2);

#[async_trait]
impl Utility for Printenv {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let nul = p.has("0");
        let vars = ctx.env.exported();
        if p.operands.is_empty() {
            ctx.out(&format_env(&vars, nul)).await?;
            return Ok(0);
        }
        let mut out = Vec::new();
        let mut missing = false;
        for name in &p.operands {
            // Only exported variables are in a program's environment.
            match vars.iter().find(|(k, _)| k == name).filter(|_| !name.contains('=')) {
                Some((_, v)) => {
                    out.extend_from_slice(v.as_bytes());
                    out.push(if nul { 0 } else { b'\n' });
                }
                None => missing = true,
            }
        }
        ctx.out(&out).await?;
        Ok(i32::from(missing))
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{make_fs, run_full};
    use crate::limits::Limits;

    fn run(argv: &[&str]) -> (String, i32) {
        let fs = make_fs(&[]);
        let o = run_full(&fs, argv, b"", &[("A", "1"), ("HOME", "/root")], Limits::default());
        (o.out + &o.err, o.status)
    }

    #[test]
    fn values() {
        assert_eq!(run(&["printenv", "HOME", "NOPE"]), ("/root\n".into(), 1));
        assert_eq!(run(&["printenv"]), ("A=1\nHOME=/root\n".into(), 0));
        assert_eq!(
            run(&["printenv", "-x"]),
            ("printenv: invalid option -- 'x'\nTry 'printenv --help' for more information.\n".into(), 2)
        );
    }
}
