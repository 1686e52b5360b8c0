//! `yes`: print its arguments (or `y`) forever, until the reader goes away
//! (broken pipe), the output limit is hit, or the exec's time runs out.

use super::util::Spec;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Yes;

const SPEC: Spec = Spec::new("", &[], "[STRING]...\n  or:  yes OPTION");

/// Bytes per write: big writes keep the per-line overhead negligible.
const CHUNK: usize = 16 * 1024;

#[async_trait]
impl Utility for Yes {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut line = if p.operands.is_empty() { "y".to_string() } else { p.operands.join(" ") };
        line.push('\n');
        let mut buf = Vec::with_capacity(CHUNK + line.len());
        while buf.len() < CHUNK {
            buf.extend_from_slice(line.as_bytes());
        }
        while ctx.still_running() {
            ctx.out(&buf).await?;
            // Let other tasks (the reader of our pipe, a canceller) run.
            tokio::task::yield_now().await;
        }
        Ok(1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{block_on, check, TestEnv, CWD};
    use super::super::{default_registry, CommandContext, SysInfo};
    use crate::io::{pipe, Input, Output};
    use crate::limits::{Budget, CancelToken, Limits};

    /// Run `yes ARGS` into a pipe, read `n` bytes, close the pipe: yes must
    /// end with a broken pipe.
    fn read_then_close(args: &[&str], n: usize) -> (Vec<u8>, bool) {
        let fs = super::super::util::testutil::make_fs(&[]);
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let env = TestEnv(Vec::new());
        let sys = SysInfo { username: "u".into(), hostname: "h".into(), net: Default::default(), python: Vec::new(), python_runtime: None };
        let budget = Budget::new(Limits::default(), CancelToken::default());
        let (w, r) = pipe();
        block_on(async {
            let mut ctx = CommandContext {
                name: "yes",
                args: &args,
                stdin: Input::null(),
                stdout: w,
                stderr: Output::Null,
                cwd: CWD,
                env: &env,
                fs: &fs,
                sys: &sys,
                budget: &budget,
                line: 1,
                shell: None,
            };
            let cmd = default_registry().get("yes").cloned().expect("registered");
            let reader = async move {
                let got = r.read_exact_upto(n).await;
                drop(r);
                got
            };
            let (res, got) = tokio::join!(cmd.run(&mut ctx), reader);
            (got, res == Err(crate::io::IoError::BrokenPipe))
        })
    }

    #[test]
    fn repeats_until_the_pipe_closes() {
        assert_eq!(read_then_close(&[], 6), (b"y\ny\ny\n".to_vec(), true));
        assert_eq!(read_then_close(&["a", "b"], 8), (b"a b\na b\n".to_vec(), true));
        assert_eq!(read_then_close(&["--", "-n"], 6), (b"-n\n-n\n".to_vec(), true));
    }

    #[test]
    fn usage_errors() {
        check(&["yes", "-x"], &[], "", "", "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n", 1);
        check(
            &["yes", "--x"],
            &[],
            "",
            "",
            "yes: unrecognized option '--x'\nTry 'yes --help' for more information.\n",
            1,
        );
    }
}
