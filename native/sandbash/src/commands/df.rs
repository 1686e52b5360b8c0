//! `df`: the sandbox is one filesystem, `sandbox` mounted on `/`, 1 GiB and
//! reported empty (the in-memory store's use is not exposed). Operands must
//! exist; each shows the same line.

use super::util::{human_size, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Df;

const SIZE_K: u64 = 1 << 20;

const SPEC: Spec = Spec::new(
    "ahHkPTilx:t:B:",
    &[
        ("all", Arg::No, "a"),
        ("human-readable", Arg::No, "h"),
        ("si", Arg::No, "H"),
        ("portability", Arg::No, "P"),
        ("print-type", Arg::No, "T"),
        ("inodes", Arg::No, "i"),
        ("local", Arg::No, "l"),
        ("block-size", Arg::Yes, "B"),
        ("type", Arg::Yes, "t"),
        ("exclude-type", Arg::Yes, "x"),
        ("total", Arg::No, "total"),
        ("output", Arg::Optional, "output"),
    ],
    "[OPTION]... [FILE]...",
);

/// GNU df's minimum column widths, by header.
fn min_width(head: &str) -> usize {
    match head {
        "Filesystem" => 14,
        "Use%" | "Capacity" | "IUse%" | "Type" => 4,
        _ => 5,
    }
}

/// Columns laid out as GNU does: the first and last left-aligned, the rest
/// right-aligned to the widest cell (never below GNU's minimum widths).
fn table(rows: &[Vec<String>]) -> String {
    let n = rows[0].len();
    let width = |c: usize| rows.iter().map(|r| r[c].len()).max().unwrap_or(0).max(min_width(&rows[0][c]));
    let mut out = String::new();
    for r in rows {
        let mut cells = Vec::new();
        for (c, cell) in r.iter().enumerate() {
            cells.push(if c == 0 {
                format!("{cell:<w$}", w = width(0))
            } else if c == n - 1 {
                cell.clone()
            } else {
                format!("{cell:>w$}", w = width(c))
            });
        }
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

#[async_trait]
impl Utility for Df {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut status = 0;
        let mut lines = 0;
        for f in &p.operands {
            match ctx.fs.metadata(&ctx.resolve(f)).await {
                Ok(_) => lines += 1,
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                }
            }
        }
        if p.operands.is_empty() {
            lines = 1;
        }
        if lines == 0 {
            return Ok(1);
        }
        let human = p.opts.iter().rev().find(|o| matches!(o.id, "h" | "H" | "k" | "B")).map(|o| o.id);
        let typed = p.has("T");
        let mut head: Vec<String> = vec!["Filesystem".into()];
        if typed {
            head.push("Type".into());
        }
        let (size, used, avail) = match human {
            Some("h") => (human_size(SIZE_K * 1024, 1024), "0".to_string(), human_size(SIZE_K * 1024, 1024)),
            Some("H") => (human_size(SIZE_K * 1024, 1000), "0".to_string(), human_size(SIZE_K * 1024, 1000)),
            _ => (SIZE_K.to_string(), "0".to_string(), SIZE_K.to_string()),
        };
        if p.has("i") {
            head.extend(["Inodes", "IUsed", "IFree", "IUse%"].map(String::from));
        } else if human.is_some_and(|h| h == "h" || h == "H") {
            head.extend(["Size", "Used", "Avail", "Use%"].map(String::from));
        } else if p.has("P") {
            head.extend(["1024-blocks", "Used", "Available", "Capacity"].map(String::from));
        } else {
            head.extend(["1K-blocks", "Used", "Available", "Use%"].map(String::from));
        }
        head.push("Mounted on".into());
        let mut row: Vec<String> = vec!["sandbox".into()];
        if typed {
            row.push("tmpfs".into());
        }
        if p.has("i") {
            row.extend(["262144", "0", "262144", "0%"].map(String::from));
        } else {
            row.extend([size, used, avail, "0%".into()]);
        }
        row.push("/".into());
        let mut rows = vec![head];
        rows.extend(std::iter::repeat_n(row, lines));
        ctx.out(table(&rows).as_bytes()).await?;
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn df() {
        // Layout as GNU df lays out such a line.
        check(
            &["df"],
            &[],
            "",
            "Filesystem     1K-blocks  Used Available Use% Mounted on\nsandbox          1048576     0   1048576   0% /\n",
            "",
            0,
        );
        check(
            &["df", "-h", "."],
            &[],
            "",
            "Filesystem      Size  Used Avail Use% Mounted on\nsandbox         1.0G     0  1.0G   0% /\n",
            "",
            0,
        );
        check(
            &["df", "-P"],
            &[],
            "",
            "Filesystem     1024-blocks  Used Available Capacity Mounted on\nsandbox            1048576     0   1048576       0% /\n",
            "",
            0,
        );
        check(&["df", "nope"], &[], "", "", "df: nope: No such file or directory\n", 1);
    }
}
