//! `tac`: print records in reverse order (`-s SEP`, `-b` separator before).

use super::util::{quote, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Tac;

const SPEC: Spec = Spec::new(
    "bs:",
    &[("before", Arg::No, "b"), ("separator", Arg::Yes, "s"), ("regex", Arg::No, "r")],
    "[OPTION]... [FILE]...",
);

/// `data`'s records in reverse order; each record keeps its separator on the
/// side `-b` chooses.
fn reverse(data: &[u8], sep: &[u8], before: bool) -> Vec<u8> {
    let mut cuts = Vec::new(); // start index of each separator
    let mut i = 0;
    while i + sep.len() <= data.len() {
        if &data[i..i + sep.len()] == sep {
            cuts.push(i);
            i += sep.len();
        } else {
            i += 1;
        }
    }
    let mut recs: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    for c in cuts {
        if before {
            if c > start || start == 0 {
                recs.push(&data[start..c]);
            }
            start = c;
        } else {
            recs.push(&data[start..c + sep.len()]);
            start = c + sep.len();
        }
    }
    if start < data.len() {
        recs.push(&data[start..]);
    }
    let mut out = Vec::with_capacity(data.len());
    for r in recs.iter().rev() {
        out.extend_from_slice(r);
    }
    out
}

#[async_trait]
impl Utility for Tac {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.has("r") {
            return Err(UError::new(1, "--regex is not supported"));
        }
        let sep = p.last("s").unwrap_or("\n").as_bytes().to_vec();
        if sep.is_empty() {
            return Err(UError::new(1, "separator cannot be empty"));
        }
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut status = 0;
        for f in &files {
            match ctx.read_operand(f).await {
                Ok(d) => ctx.out(&reverse(&d, &sep, p.has("b"))).await?,
                Err(e) if e == "Is a directory" => {
                    ctx.err(format!("{}: read error: Invalid argument", quotef(f))).await?;
                    status = 1;
                }
                Err(e) => {
                    ctx.err(format!("failed to open {} for reading: {e}", quote(f))).await?;
                    status = 1;
                }
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
        check(&["tac"], &[], "a\nb\nc\n", "c\nb\na\n", "", 0);
        check(&["tac"], &[], "a\nb", "ba\n", "", 0);
        check(&["tac", "-s,"], &[], "a,b,c,", "c,b,a,", "", 0);
        check(&["tac", "-s,"], &[], "a,b,c", "cb,a,", "", 0);
        check(&["tac", "-b", "-s,"], &[], "a,b,c,", ",,c,ba", "", 0);
        check(&["tac", "f", "-"], &[("f", "1\n2\n")], "x\ny\n", "2\n1\ny\nx\n", "", 0);
        check(&["tac", "nope"], &[], "", "", "tac: failed to open 'nope' for reading: No such file or directory\n", 1);
        check(&["tac", "d"], &[("d/", "")], "", "", "tac: d: read error: Invalid argument\n", 1);
    }
}
