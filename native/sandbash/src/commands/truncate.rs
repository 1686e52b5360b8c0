//! `truncate`: set file sizes (`-s [+-<>/%]N`, `-r FILE`, `-c`). Growing
//! pads with zero bytes; sizes are capped so a script cannot ask the
//! in-memory filesystem for gigabytes.

use super::util::{parse_size, quote, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Truncate;

const SPEC: Spec = Spec::new(
    "cor:s:",
    &[("no-create", Arg::No, "c"), ("io-blocks", Arg::No, "o"), ("reference", Arg::Yes, "r"), ("size", Arg::Yes, "s")],
    "OPTION... FILE...",
);

#[derive(Clone, Copy)]
enum Op {
    Set,
    Extend,
    Reduce,
    AtMost,
    AtLeast,
    RoundDown,
    RoundUp,
}

fn apply(op: Op, n: u64, old: u64) -> u64 {
    match op {
        Op::Set => n,
        Op::Extend => old.saturating_add(n),
        Op::Reduce => old.saturating_sub(n),
        Op::AtMost => old.min(n),
        Op::AtLeast => old.max(n),
        Op::RoundDown => old / n * n,
        Op::RoundUp => old.div_ceil(n).saturating_mul(n),
    }
}

#[async_trait]
impl Utility for Truncate {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut size = None;
        if let Some(s) = p.last("s") {
            let (op, rest) = match s.chars().next() {
                Some('+') => (Op::Extend, &s[1..]),
                Some('-') => (Op::Reduce, &s[1..]),
                Some('<') => (Op::AtMost, &s[1..]),
                Some('>') => (Op::AtLeast, &s[1..]),
                Some('/') => (Op::RoundDown, &s[1..]),
                Some('%') => (Op::RoundUp, &s[1..]),
                _ => (Op::Set, s),
            };
            let n = match parse_size(rest) {
                Some(n) if !rest.ends_with('b') => n,
                _ => {
                    return Err(UError::new(1, format!("Invalid number: {}", quote(s))));
                }
            };
            if n == 0 && matches!(op, Op::RoundDown | Op::RoundUp) {
                return Err(UError::new(1, "division by zero"));
            }
            size = Some((op, n));
        }
        let reference = match p.last("r") {
            Some(r) => match ctx.fs.metadata(&ctx.resolve(r)).await {
                Ok(m) => Some(m.size),
                Err(e) => {
                    return Err(UError::new(1, format!("cannot stat {}: {e}", quote(r))));
                }
            },
            None => None,
        };
        if size.is_none() && reference.is_none() {
            return Err(UError::usage(1, "you must specify either '--size' or '--reference'"));
        }
        if reference.is_some() && size.is_some_and(|(op, _)| matches!(op, Op::Set)) {
            return Err(UError::usage(1, "you must specify a relative '--size' with '--reference'"));
        }
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing file operand"));
        }
        let cap = ctx.budget.limits.max_string_bytes.max(1 << 20) * 10;
        let mut status = 0;
        for f in &p.operands {
            let full = ctx.resolve(f);
            let old = match ctx.fs.metadata(&full).await {
                Ok(m) if m.is_dir() => {
                    ctx.err(format!("cannot open {} for writing: Is a directory", quote(f))).await?;
                    status = 1;
                    continue;
                }
                Ok(_) => Some(ctx.fs.read(&full).await.unwrap_or_default()),
                Err(_) if p.has("c") => continue,
                Err(_) => None,
            };
            let old_len = old.as_ref().map_or(0, |d| d.len() as u64);
            let new_len = match (size, reference) {
                (Some((op, n)), Some(r)) => apply(op, n, r),
                (Some((op, n)), None) => apply(op, n, old_len),
                (None, Some(r)) => r,
                (None, None) => old_len,
            };
            if new_len > cap {
                ctx.err(format!("failed to truncate {} at {new_len} bytes: File too large", quote(f))).await?;
                status = 1;
                continue;
            }
            let mut data = old.unwrap_or_default();
            data.resize(new_len as usize, 0);
            if let Err(e) = ctx.fs.write(&full, &data).await {
                ctx.err(format!("cannot open {} for writing: {e}", quote(f))).await?;
                status = 1;
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    #[test]
    fn sizes() {
        check_tree(&["truncate", "-s", "5", "f"], &[], "", "", "", 0, "f\t\0\0\0\0\0\n");
        check_tree(&["truncate", "-c", "-s", "5", "g"], &[], "", "", "", 0, "");
        check_tree(&["truncate", "-s", "-2", "h"], &[("h", "hello")], "", "", "", 0, "h\thel\n");
        check_tree(&["truncate", "-s", "+2", "h"], &[("h", "hel")], "", "", "", 0, "h\thel\0\0\n");
        check_tree(&["truncate", "-s", "%4", "h"], &[("h", "hello")], "", "", "", 0, "h\thello\0\0\0\n");
        check_tree(&["truncate", "-s", "<2", "h"], &[("h", "hello")], "", "", "", 0, "h\the\n");
        check_tree(&["truncate", "-s", "/2", "h"], &[("h", "hello")], "", "", "", 0, "h\thell\n");
        check_tree(&["truncate", "-r", "h", "f"], &[("h", "hi"), ("f", "abcd")], "", "", "", 0, "f\tab\nh\thi\n");
        check_tree(
            &["truncate", "-r", "h", "-s", "+1", "f"],
            &[("h", "hi"), ("f", "")],
            "",
            "",
            "",
            0,
            "f\t\0\0\0\nh\thi\n",
        );
    }

    #[test]
    fn errors() {
        let t = "Try 'truncate --help' for more information.\n";
        check(
            &["truncate", "f"],
            &[],
            "",
            "",
            &format!("truncate: you must specify either '--size' or '--reference'\n{t}"),
            1,
        );
        check(
            &["truncate", "-s", "3", "nodir/x"],
            &[],
            "",
            "",
            "truncate: cannot open 'nodir/x' for writing: No such file or directory\n",
            1,
        );
        check(&["truncate", "-s", "x", "h"], &[], "", "", "truncate: Invalid number: 'x'\n", 1);
        check(
            &["truncate", "-s", "1", "-r", "h", "f"],
            &[("h", "")],
            "",
            "",
            &format!("truncate: you must specify a relative '--size' with '--reference'\n{t}"),
            1,
        );
        check(&["truncate", "-s", "1"], &[], "", "", &format!("truncate: missing file operand\n{t}"), 1);
    }
}
