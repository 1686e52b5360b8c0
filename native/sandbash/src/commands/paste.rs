//! `paste`: join corresponding lines of files (`-d LIST`, `-s`, `-z`).
//! Several `-` operands take turns reading lines from the one stdin.

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Paste;

const SPEC: Spec = Spec::new(
    "d:sz",
    &[("delimiters", Arg::Yes, "d"), ("serial", Arg::No, "s"), ("zero-terminated", Arg::No, "z")],
    "[OPTION]... [FILE]...",
);

/// The `-d` list with its escapes decoded (`\0` is an empty delimiter).
fn delimiters(s: &str) -> Result<Vec<Vec<u8>>, ()> {
    let mut out = Vec::new();
    let mut it = s.bytes();
    while let Some(c) = it.next() {
        if c != b'\\' {
            out.push(vec![c]);
            continue;
        }
        out.push(match it.next().ok_or(())? {
            b'n' => vec![b'\n'],
            b't' => vec![b'\t'],
            b'b' => vec![8],
            b'f' => vec![12],
            b'r' => vec![b'\r'],
            b'v' => vec![11],
            b'0' => vec![],
            other => vec![other],
        });
    }
    Ok(out)
}

/// A line without its terminator (`None` at end of input).
#[async_trait]
impl Utility for Paste {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let delims = match delimiters(p.last("d").unwrap_or("\t")) {
            Ok(d) => d,
            Err(()) => {
                return Err(UError::new(1, "delimiter list ends with an unescaped backslash: \\"));
            }
        };
        let delim_at = |i: usize| -> &[u8] {
            if delims.is_empty() {
                &[]
            } else {
                &delims[i % delims.len()]
            }
        };
        let eol = if p.has("z") { 0 } else { b'\n' };
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut srcs = Vec::new();
        for f in &files {
            match ctx.open_lines(f, eol).await {
                Ok(s) => srcs.push(s),
                Err(e) => {
                    return Err(UError::new(1, format!("{}: {e}", quotef(f))));
                }
            }
        }
        let mut out = Vec::new();
        if p.has("s") {
            for src in &mut srcs {
                let mut i = 0;
                if let Some(first) = src.next_text(ctx).await {
                    out.extend_from_slice(&first);
                    while let Some(l) = src.next_text(ctx).await {
                        out.extend_from_slice(delim_at(i));
                        out.extend_from_slice(&l);
                        i += 1;
                    }
                }
                out.push(eol);
            }
            ctx.out(&out).await?;
            return Ok(0);
        }
        loop {
            if !ctx.still_running() {
                return Ok(1);
            }
            let mut line = Vec::new();
            let mut any = false;
            let n = srcs.len();
            for (i, src) in srcs.iter_mut().enumerate() {
                if let Some(l) = src.next_text(ctx).await {
                    any = true;
                    line.extend_from_slice(&l);
                }
                if i + 1 < n {
                    line.extend_from_slice(delim_at(i));
                }
            }
            if !any {
                break;
            }
            line.push(eol);
            out.extend_from_slice(&line);
            if out.len() >= 8192 {
                ctx.out(&out).await?;
                out.clear();
            }
        }
        ctx.out(&out).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const F: &[(&str, &str)] = &[("a", "1\n2\n3\n"), ("b", "x\ny")];

    #[test]
    fn joins() {
        check(&["paste", "a", "b"], F, "", "1\tx\n2\ty\n3\t\n", "", 0);
        check(&["paste", "-d,", "a", "b", "-"], F, "", "1,x,\n2,y,\n3,,\n", "", 0);
        check(&["paste", "-s", "a", "b"], F, "", "1\t2\t3\nx\ty\n", "", 0);
        check(&["paste", "-sd\\t,", "a"], F, "", "1\t2,3\n", "", 0);
        check(&["paste", "-d", "", "a", "b"], F, "", "1x\n2y\n3\n", "", 0);
        check(&["paste", "-", "-"], &[], "1\n2\n3\n", "1\t2\n3\t\n", "", 0);
        check(&["paste", "a", "nope"], F, "", "", "paste: nope: No such file or directory\n", 1);
    }
}
