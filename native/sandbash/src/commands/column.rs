//! `column` (util-linux 2.38): fill columns (`-x` rows first) to a width
//! (`-c`, default 80) with tabs, or `-t` tables split on blanks (runs merged)
//! or on `-s` characters (each one splits), joined by `-o` (two spaces),
//! `-R` right-aligning columns and `-N` naming them.

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Column;

const SPEC: Spec = Spec::new(
    "ts:o:c:xR:N:",
    &[
        ("table", Arg::No, "t"),
        ("separator", Arg::Yes, "s"),
        ("output-separator", Arg::Yes, "o"),
        ("output-width", Arg::Yes, "c"),
        ("fillrows", Arg::No, "x"),
        ("table-right", Arg::Yes, "R"),
        ("table-columns", Arg::Yes, "N"),
    ],
    "[options] [<file>...]",
);

const TAB: usize = 8;

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Fill mode: items down the columns (or across with `-x`), tab-separated.
fn fill(items: &[&str], term: usize, across: bool) -> String {
    let max = items.iter().map(|s| width(s)).max().unwrap_or(0);
    let maxlen = (max + TAB) & !(TAB - 1);
    let cols = (term / maxlen).max(1);
    let mut out = String::new();
    let tabs = |out: &mut String, chcnt: &mut usize, endcol: usize| loop {
        let next = (*chcnt + TAB) & !(TAB - 1);
        if next > endcol {
            break;
        }
        out.push('\t');
        *chcnt = next;
    };
    if across {
        let (mut col, mut chcnt, mut endcol) = (0, 0, maxlen);
        for it in items {
            out.push_str(it);
            chcnt += width(it);
            col += 1;
            if col == cols {
                (col, chcnt, endcol) = (0, 0, maxlen);
                out.push('\n');
            } else {
                tabs(&mut out, &mut chcnt, endcol);
                endcol += maxlen;
            }
        }
        if col > 0 {
            out.push('\n');
        }
        return out;
    }
    let rows = items.len().div_ceil(cols);
    for row in 0..rows {
        let (mut chcnt, mut endcol) = (0, maxlen);
        let mut base = row;
        while base < items.len() {
            out.push_str(items[base]);
            chcnt += width(items[base]);
            if base + rows >= items.len() {
                break;
            }
            tabs(&mut out, &mut chcnt, endcol);
            endcol += maxlen;
            base += rows;
        }
        out.push('\n');
    }
    out
}

/// Table mode.
fn table(rows: &[Vec<&str>], sep: &str, right: &[usize]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; n];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(width(c));
        }
    }
    let mut out = String::new();
    for r in rows {
        for (i, w) in widths.iter().enumerate() {
            let cell = r.get(i).copied().unwrap_or("");
            let pad = " ".repeat(w - width(cell));
            let last = i + 1 == n;
            if right.contains(&i) {
                out.push_str(&pad);
                out.push_str(cell);
            } else {
                out.push_str(cell);
                if !last {
                    out.push_str(&pad);
                }
            }
            if !last {
                out.push_str(sep);
            }
        }
        out.push('\n');
    }
    out
}

#[async_trait]
impl Utility for Column {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let term = match p.last("c") {
            None => ctx.env.get("COLUMNS").and_then(|c| c.parse().ok()).unwrap_or(80),
            Some(v) => match v.parse::<usize>() {
                Ok(n) => n,
                Err(_) => {
                    return Err(UError::new(1, format!("invalid columns argument: '{v}'")));
                }
            },
        };
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut text = Vec::new();
        for f in &files {
            match ctx.read_operand(f).await {
                Ok(d) => {
                    text.extend_from_slice(&d);
                    if !d.is_empty() && d.last() != Some(&b'\n') {
                        text.push(b'\n');
                    }
                }
                Err(e) => {
                    return Err(UError::new(1, format!("{}: {e}", quotef(f))));
                }
            }
        }
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();

        let out = if p.has("t") {
            let seps = p.last("s");
            // Cells borrow from the text. The rows' vector is asked of the
            // budget and made at its size (no doubling past it); the rows
            // themselves are counted by the checkpoint in each turn.
            if let Err(stop) = crate::limits::scope::reserve(lines.len() as u64 * 24) {
                crate::commands::util::operands::stop_exec(ctx.budget, stop);
                return Ok(1);
            }
            let mut rows: Vec<Vec<&str>> = Vec::with_capacity(lines.len() + 1);
            if let Some(names) = p.last("N") {
                rows.push(names.split(',').collect());
            }
            for l in &lines {
                if !crate::commands::util::operands::checkpoint_ok(ctx.budget) {
                    return Ok(1);
                }
                rows.push(match seps {
                    Some(s) => l.split(|c| s.contains(c)).collect(),
                    None => l.split([' ', '\t']).filter(|c| !c.is_empty()).collect(),
                });
            }
            let right: Vec<usize> = p
                .last("R")
                .map(|r| {
                    r.split(',')
                        .filter_map(|n| n.trim().parse::<usize>().ok())
                        .filter(|&n| n > 0)
                        .map(|n| n - 1)
                        .collect()
                })
                .unwrap_or_default();
            table(&rows, p.last("o").unwrap_or("  "), &right)
        } else {
            fill(&lines, term, p.has("x"))
        };
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    fn nums() -> String {
        (1..=30).map(|i| format!("{i}ab\n")).collect()
    }

    const T: &str = "a b c\nlong1 x\n\nfoo  bar   baz qux\n";

    // Expected outputs from util-linux column 2.38.1.
    #[test]
    fn fill() {
        let n = nums();
        let f = [("n", n.as_str())];
        check(
            &["column", "n"],
            &f,
            "",
            "1ab\t4ab\t7ab\t10ab\t13ab\t16ab\t19ab\t22ab\t25ab\t28ab\n2ab\t5ab\t8ab\t11ab\t14ab\t17ab\t20ab\t23ab\t26ab\t29ab\n3ab\t6ab\t9ab\t12ab\t15ab\t18ab\t21ab\t24ab\t27ab\t30ab\n",
            "",
            0,
        );
        check(
            &["column", "-c", "40", "n"],
            &f,
            "",
            "1ab\t7ab\t13ab\t19ab\t25ab\n2ab\t8ab\t14ab\t20ab\t26ab\n3ab\t9ab\t15ab\t21ab\t27ab\n4ab\t10ab\t16ab\t22ab\t28ab\n5ab\t11ab\t17ab\t23ab\t29ab\n6ab\t12ab\t18ab\t24ab\t30ab\n",
            "",
            0,
        );
        check(
            &["column", "-x", "-c", "40", "n"],
            &f,
            "",
            "1ab\t2ab\t3ab\t4ab\t5ab\n6ab\t7ab\t8ab\t9ab\t10ab\n11ab\t12ab\t13ab\t14ab\t15ab\n16ab\t17ab\t18ab\t19ab\t20ab\n21ab\t22ab\t23ab\t24ab\t25ab\n26ab\t27ab\t28ab\t29ab\t30ab\n",
            "",
            0,
        );
        check(&["column"], &[], "x\n\ny\n", "x\ty\n", "", 0);
        check(&["column", "-x"], &[], "", "", "", 0);
    }

    #[test]
    fn tables() {
        let f = [("t", T), ("csv", "a,b,,c\n1,,2\n")];
        check(&["column", "-t", "t"], &f, "", "a      b    c    \nlong1  x         \nfoo    bar  baz  qux\n", "", 0);
        check(&["column", "-t", "-o", "|", "t"], &f, "", "a    |b  |c  |\nlong1|x  |   |\nfoo  |bar|baz|qux\n", "", 0);
        check(
            &["column", "-t", "-s", " ", "t"],
            &f,
            "",
            "a      b  c             \nlong1  x                \nfoo       bar      baz  qux\n",
            "",
            0,
        );
        check(&["column", "-t", "-s,", "csv"], &f, "", "a  b     c\n1     2  \n", "", 0);
        check(&["column", "-t", "-s,", "-o", " | ", "csv"], &f, "", "a | b |   | c\n1 |   | 2 | \n", "", 0);
        check(
            &["column", "-t", "-R", "2", "t"],
            &f,
            "",
            "a        b  c    \nlong1    x       \nfoo    bar  baz  qux\n",
            "",
            0,
        );
        check(
            &["column", "-t", "-N", "A,B,C", "t"],
            &f,
            "",
            "A      B    C    \na      b    c    \nlong1  x         \nfoo    bar  baz  qux\n",
            "",
            0,
        );
        check(&["column", "-t"], &[], "\u{e9}\tb\n", "\u{e9}  b\n", "", 0);
        check(&["column", "-t"], &[], "", "", "", 0);
        check(&["column", "nope"], &[], "", "", "column: nope: No such file or directory\n", 1);
    }
}
