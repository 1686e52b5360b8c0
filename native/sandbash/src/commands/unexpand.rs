//! `unexpand`: blanks to tabs (leading blanks only, unless `-a` or `-t`),
//! following GNU unexpand.c's pending-blank logic byte for byte.

use super::util::{quotef, Arg, Spec, TabStops};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Unexpand;

const SPEC: Spec = Spec::new(
    "at:",
    &[("all", Arg::No, "a"), ("first-only", Arg::No, "first-only"), ("tabs", Arg::Yes, "t")],
    "[OPTION]... [FILE]...",
);

/// Convert one line (with its newline, if any).
fn line(data: &[u8], tabs: &TabStops, all: bool, out: &mut Vec<u8>) {
    let (mut column, mut idx, mut convert, mut prev_blank, mut one_before) = (0usize, 0usize, true, true, false);
    let mut pending: Vec<u8> = Vec::new();
    let mut bytes = data.iter().copied().map(Some).collect::<Vec<_>>();
    if data.last() != Some(&b'\n') {
        bytes.push(None); // end of input without a newline
    }
    for item in bytes {
        let mut c = item.unwrap_or(0);
        if convert {
            let blank = item.is_some() && (c == b' ' || c == b'\t');
            if blank {
                let next = tabs.next(column, &mut idx);
                match next {
                    None => convert = false,
                    Some(next) => {
                        if c == b'\t' {
                            column = next;
                            if !pending.is_empty() {
                                pending[0] = b'\t';
                            }
                        } else {
                            column += 1;
                            if !(prev_blank && column == next) {
                                if column == next {
                                    one_before = true;
                                }
                                pending.push(c);
                                prev_blank = true;
                                continue;
                            }
                            c = b'\t';
                            if pending.is_empty() {
                                pending.push(c);
                            } else {
                                pending[0] = c;
                            }
                        }
                        pending.truncate(usize::from(one_before));
                    }
                }
            } else if item == Some(b'\x08') {
                column = column.saturating_sub(1);
                idx = idx.saturating_sub(1);
            } else {
                column += 1;
            }
            if !pending.is_empty() {
                if pending.len() > 1 && one_before {
                    pending[0] = b'\t';
                }
                out.append(&mut pending);
                one_before = false;
            }
            prev_blank = blank;
            convert &= all || blank;
        }
        if item.is_some() {
            out.push(c);
        }
    }
}

#[async_trait]
impl Utility for Unexpand {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // `-4` is `-t 4` without implying `-a`.
        let mut legacy = Vec::new();
        let args: Vec<String> = ctx
            .args
            .iter()
            .filter(|a| {
                let digits =
                    a.len() > 1 && a.starts_with('-') && a[1..].bytes().all(|b| b.is_ascii_digit() || b == b',');
                if digits {
                    legacy.push(a[1..].to_string());
                }
                !digits
            })
            .cloned()
            .collect();
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut specs = legacy;
        specs.extend(p.all("t").map(String::from));
        let tabs = match TabStops::parse(&specs) {
            Ok(t) => t,
            Err(m) => {
                return Err(UError::new(1, m));
            }
        };
        let all = (p.has("a") || p.has("t")) && !p.has("first-only");
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut status = 0;
        for f in &files {
            let mut src = match ctx.open_lines(f, b'\n').await {
                Ok(s) => s,
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                    continue;
                }
            };
            while let Some(l) = src.next_line(ctx).await {
                let mut out = Vec::with_capacity(l.len());
                line(&l, &tabs, all, &mut out);
                ctx.out(&out).await?;
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    const F: &str = "        a       b  c\n    x\n \ty\n                 z\n  \n";

    #[test]
    fn modes() {
        // From GNU unexpand 9.1 on the same file.
        let f = [("f", F)];
        check(&["unexpand", "f"], &f, "", "\ta       b  c\n    x\n\ty\n\t\t z\n  \n", "", 0);
        check(&["unexpand", "-a", "f"], &f, "", "\ta\tb  c\n    x\n\ty\n\t\t z\n  \n", "", 0);
        check(&["unexpand", "--first-only", "f"], &f, "", "\ta       b  c\n    x\n\ty\n\t\t z\n  \n", "", 0);
        check(&["unexpand", "-t4", "f"], &f, "", "\t\ta\t\tb  c\n\tx\n\ty\n\t\t\t\t z\n  \n", "", 0);
        check(
            &["unexpand", "-t", "4", "--first-only", "f"],
            &f,
            "",
            "\t\ta       b  c\n\tx\n\ty\n\t\t\t\t z\n  \n",
            "",
            0,
        );
        check(&["unexpand", "-t2,6", "f"], &f, "", "\t\t  a       b  c\n\t  x\n\ty\n\t\t           z\n\t\n", "", 0);
        check(&["unexpand", "-3", "f"], &f, "", "\t\t  a       b  c\n\t x\n\ty\n\t\t\t\t\t  z\n  \n", "", 0);
        check(&["unexpand", "-t", "4,/8", "f"], &f, "", "\t\ta\tb  c\n\tx\n\ty\n\t\t\t z\n  \n", "", 0);
        check(&["unexpand", "-t", "2,+4", "f"], &f, "", "\t\t  a\t\t  b\t c\n\t  x\n\ty\n\t\t\t\t   z\n\t\n", "", 0);
        check(&["unexpand", "-t2"], &[], "   ", "\t ", "", 0);
    }

    #[test]
    fn errors() {
        check(&["unexpand", "-t", "0"], &[], "", "", "unexpand: tab size cannot be 0\n", 1);
        check(&["unexpand", "-t", "4,2"], &[], "", "", "unexpand: tab sizes must be ascending\n", 1);
        check(&["unexpand", "-t", "a"], &[], "", "", "unexpand: tab size contains invalid character(s): 'a'\n", 1);
        check(&["unexpand", "nope"], &[], "", "", "unexpand: nope: No such file or directory\n", 1);
        check(
            &["unexpand", "-x"],
            &[],
            "",
            "",
            "unexpand: invalid option -- 'x'\nTry 'unexpand --help' for more information.\n",
            1,
        );
    }
}
