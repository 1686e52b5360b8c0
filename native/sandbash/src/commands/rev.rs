//! `rev` (util-linux): reverse the characters of each line. UTF-8 sequences
//! stay whole; other bytes are reversed one by one.

use super::util::Spec;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Rev;

const SPEC: Spec = Spec::new("", &[], "[options] [file ...]");

/// Reverse one line's characters (without its newline).
fn reverse(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    for chunk in line.utf8_chunks().collect::<Vec<_>>().into_iter().rev() {
        out.extend(chunk.invalid().iter().rev());
        for c in chunk.valid().chars().rev() {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }
    out
}

#[async_trait]
impl Utility for Rev {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut status = 0;
        for f in &files {
            let mut src = match ctx.open_lines(f, b'\n').await {
                Ok(s) => s,
                Err(e) if e == "Is a directory" => {
                    ctx.err(format!("{f}: 0: {e}")).await?;
                    status = 1;
                    continue;
                }
                Err(e) => {
                    ctx.err(format!("cannot open {f}: {e}")).await?;
                    status = 1;
                    continue;
                }
            };
            while let Some(line) = src.next_line(ctx).await {
                let (body, nl) = match line.strip_suffix(b"\n") {
                    Some(b) => (b, true),
                    None => (&line[..], false),
                };
                let mut out = reverse(body);
                if nl {
                    out.push(b'\n');
                }
                ctx.out(&out).await?;
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn reverses() {
        check(&["rev"], &[], "abc\nxy", "cba\nyx", "", 0);
        check(&["rev", "f", "-"], &[("f", "héllo\n")], "12\n", "olléh\n21\n", "", 0);
        check(&["rev", "nope"], &[], "", "", "rev: cannot open nope: No such file or directory\n", 1);
        check(&["rev", "d"], &[("d/", "")], "", "", "rev: d: 0: Is a directory\n", 1);
    }
}
