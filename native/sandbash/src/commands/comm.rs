//! `comm FILE1 FILE2`: lines only in one, only in the other, in both (sorted
//! input, byte order). Unsorted input is diagnosed as GNU does by default.

use super::common::{quote_locale, quotef, Arg, Spec};
use super::{Command, CommandContext, CommandResult};
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
impl Command for Comm {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match ctx.parse_opts(&SPEC).await? {
            Ok(p) => p,
            Err(s) => return Ok(s),
        };
        match p.operands.as_slice() {
            [] => return usage(ctx, "missing operand").await,
            [one] => return usage(ctx, &format!("missing operand after {}", quote_locale(one))).await,
            [_, _, extra, ..] => return usage(ctx, &format!("extra operand {}", quote_locale(extra))).await,
            _ => {}
        }
        let show = [!p.has("1"), !p.has("2"), !p.has("3")];
        let sep = p.last("output-delimiter").unwrap_or("\t").as_bytes().to_vec();
        let eol = if p.has("z") { 0 } else { b'\n' };
        // None: default (diagnose once unpairable lines were seen); Some(true/false): forced.
        let check = if p.has("nocheck-order") { Some(false) } else { p.has("check-order").then_some(true) };
        let mut data = Vec::new();
        for f in &p.operands {
            match ctx.read_operand(f).await {
                Ok(d) => data.push(d),
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    return Ok(1);
                }
            }
        }
        let split = |d: &[u8]| -> Vec<Vec<u8>> {
            let mut v: Vec<Vec<u8>> = d.split(|&c| c == eol).map(<[u8]>::to_vec).collect();
            if v.last().is_some_and(Vec::is_empty) {
                v.pop();
            }
            v
        };
        let files = [split(&data[0]), split(&data[1])];
        let (mut idx, mut warned, mut unpairable, mut disorder) = ([0usize; 2], [false; 2], false, false);
        let mut counts = [0u64; 3];
        let mut out = Vec::new();
        while idx[0] < files[0].len() || idx[1] < files[1].len() {
            let ord = match (files[0].get(idx[0]), files[1].get(idx[1])) {
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
                let (i, f) = (idx[k], &files[k]);
                if check.unwrap_or(unpairable) && !warned[k] && i > 0 && f[i - 1] > f[i] {
                    ctx.out(&out).await?;
                    out.clear();
                    ctx.err(format!("file {} is not in sorted order", k + 1)).await?;
                    if check == Some(true) {
                        return Ok(1);
                    }
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
                out.extend_from_slice(&files[col.min(1)][idx[col.min(1)]]);
                out.push(eol);
            }
            for &k in advance {
                idx[k] += 1;
            }
        }
        if p.has("total") {
            out.extend_from_slice(format!("{}\t{}\t{}\ttotal\n", counts[0], counts[1], counts[2]).as_bytes());
        }
        ctx.out(&out).await?;
        if disorder {
            ctx.err("input is not in sorted order").await?;
            return Ok(1);
        }
        Ok(0)
    }
}

async fn usage(ctx: &CommandContext<'_>, msg: &str) -> CommandResult {
    ctx.usage_err(msg).await?;
    Ok(1)
}

#[cfg(test)]
mod tests {
    use crate::commands::testutil::check;

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
