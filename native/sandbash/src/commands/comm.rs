//! `comm FILE1 FILE2`: lines only in one, only in the other, in both (sorted
//! input, byte order). Unsorted input is diagnosed as GNU does by default.

use super::util::{quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::cmp::Ordering;

pub struct Comm;

const SPEC: Spec = Spec::new(
    "123z",
    &[
        ("check-order", Arg::No, "check-order"),
        ("nocheck-order", Arg::No, "nocheck-order"),
        ("output-delimiter", Arg::Yes, "output-delimiter"),
        ("total", Arg::No, "total"),
        ("zero-terminated", Arg::No, "z"),
    ],
    "[OPTION]... FILE1 FILE2",
);

#[async_trait]
impl Utility for Comm {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        match p.operands.as_slice() {
            [] => return Err(UError::usage(1, "missing operand")),
            [one] => return Err(UError::usage(1, format!("missing operand after {}", quote_locale(one)))),
            [_, _, extra, ..] => return Err(UError::usage(1, format!("extra operand {}", quote_locale(extra)))),
            _ => {}
        }
        let show = [!p.has("1"), !p.has("2"), !p.has("3")];
        let sep = p.last("output-delimiter").unwrap_or("\t").as_bytes().to_vec();
        let eol = if p.has("z") { 0 } else { b'\n' };
        // None: default (diagnose once unpairable lines were seen); Some(true/false): forced.
        let check = if p.has("nocheck-order") { Some(false) } else { p.has("check-order").then_some(true) };
        // Both files are streamed a line at a time, merged as they come.
        let mut srcs = Vec::new();
        for f in &p.operands {
            match ctx.open_lines(f, eol).await {
                Ok(s) => srcs.push(s),
                Err(e) => return Err(UError::new(1, format!("{}: {e}", quotef(f)))),
            }
        }
        let mut cur: [Option<Vec<u8>>; 2] = [None, None];
        for k in 0..2 {
            cur[k] = srcs[k].next_text(ctx).await;
        }
        let mut prev: [Option<Vec<u8>>; 2] = [None, None];
        let (mut warned, mut unpairable, mut disorder) = ([false; 2], false, false);
        let mut counts = [0u64; 3];
        let mut out = Vec::new();
        while cur[0].is_some() || cur[1].is_some() {
            let ord = match (&cur[0], &cur[1]) {
                (Some(a), Some(b)) => a.cmp(b),
                (Some(_), None) => Ordering::Less,
                _ => Ordering::Greater,
            };
            let (col, advance): (usize, &[usize]) = match ord {
                Ordering::Less => (0, &[0]),
                Ordering::Greater => (1, &[1]),
                Ordering::Equal => (2, &[0, 1]),
            };
            unpairable |= col != 2;
            // Each line taken is checked against the one before it in its file.
            for &k in advance {
                if check.unwrap_or(unpairable) && !warned[k] && prev[k].is_some() && prev[k] > cur[k] {
                    ctx.out(&out).await?;
                    out.clear();
                    let msg = format!("file {} is not in sorted order", k + 1);
                    if check == Some(true) {
                        return Err(UError::new(1, msg));
                    }
                    ctx.err(msg).await?;
                    warned[k] = true;
                    disorder = true;
                }
            }
            counts[col] += 1;
            if show[col] {
                let tabs = show[..col].iter().filter(|&&s| s).count();
                for _ in 0..tabs {
                    out.extend_from_slice(&sep);
                }
                out.extend_from_slice(cur[col.min(1)].as_deref().unwrap_or_default());
                out.push(eol);
            }
            for &k in advance {
                prev[k] = cur[k].take();
                cur[k] = srcs[k].next_text(ctx).await;
            }
            if out.len() >= 64 * 1024 {
                ctx.out(&out).await?;
                out.clear();
                if !ctx.still_running() {
                    return Ok(1);
                }
            }
        }
        if p.has("total") {
            out.extend_from_slice(format!("{}\t{}\t{}\ttotal\n", counts[0], counts[1], counts[2]).as_bytes());
        }
        ctx.out(&out).await?;
        if disorder {
            return Err(UError::new(1, "input is not in sorted order"));
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const F: &[(&str, &str)] = &[("c1", "a\nc\nd\n"), ("c2", "b\nc\ne\n"), ("u", "b\na\n")];

    #[test]
    fn columns() {
        check(&["comm", "c1", "c2"], F, "", "a\n\tb\n\t\tc\nd\n\te\n", "", 0);
        check(&["comm", "-12", "c1", "c2"], F, "", "c\n", "", 0);
        check(&["comm", "-3", "--output-delimiter=:", "c1", "c2"], F, "", "a\n:b\nd\n:e\n", "", 0);
        check(&["comm", "-", "c2"], F, "a\nc\nd\n", "a\n\tb\n\t\tc\nd\n\te\n", "", 0);
    }

    #[test]
    fn errors() {
        check(
            &["comm", "u", "c2"],
            F,
            "",
            "\t\tb\na\n\tc\n\te\n",
            "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n",
            1,
        );
        check(
            &["comm", "c1"],
            F,
            "",
            "",
            "comm: missing operand after 'c1'\nTry 'comm --help' for more information.\n",
            1,
        );
        check(&["comm", "c1", "nope"], F, "", "", "comm: nope: No such file or directory\n", 1);
    }
}
