//! `tee [-a] FILE...`: copy stdin to stdout and to each file, chunk by chunk.

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Tee;

const SPEC: Spec = Spec::new(
    "aip",
    &[("append", Arg::No, "a"), ("ignore-interrupts", Arg::No, "i"), ("output-error", Arg::Optional, "p")],
    "[OPTION]... [FILE]...",
);

#[async_trait]
impl Utility for Tee {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let append = p.has("a");
        let mut status = 0;
        // Files that opened; `-` is a file named "-" for tee.
        let mut files = Vec::new();
        for f in &p.operands {
            let path = ctx.resolve(f);
            let opened = if append { ctx.fs.append(&path, b"").await } else { ctx.fs.write(&path, b"").await };
            match opened {
                Ok(()) => files.push((f.clone(), path)),
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                }
            }
        }
        while let Some(chunk) = ctx.stdin.read_chunk().await {
            if !ctx.still_running() {
                return Ok(1);
            }
            ctx.out(&chunk).await?;
            let mut i = 0;
            while i < files.len() {
                if let Err(e) = ctx.fs.append(&files[i].1, &chunk).await {
                    ctx.err(format!("{}: {e}", quotef(&files[i].0))).await?;
                    status = 1;
                    files.remove(i);
                } else {
                    i += 1;
                }
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check_tree;

    #[test]
    fn copies() {
        check_tree(&["tee", "a", "b"], &[], "x\ny", "x\ny", "", 0, "a\tx\\ny\nb\tx\\ny\n");
        check_tree(&["tee", "-a", "a"], &[("a", "old\n")], "new\n", "new\n", "", 0, "a\told\\nnew\\n\n");
        check_tree(&["tee"], &[], "x\n", "x\n", "", 0, "");
        check_tree(
            &["tee", "/nope/x", "a"],
            &[],
            "x\n",
            "x\n",
            "tee: /nope/x: No such file or directory\n",
            1,
            "a\tx\\n\n",
        );
        check_tree(
            &["tee", "-x"],
            &[],
            "",
            "",
            "tee: invalid option -- 'x'\nTry 'tee --help' for more information.\n",
            1,
            "",
        );
    }
}
