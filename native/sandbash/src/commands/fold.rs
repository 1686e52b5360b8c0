//! `fold`: wrap lines at a width (`-w`, `-s` at blanks, `-b` counting bytes).
//! Columns follow GNU: a tab advances to the next multiple of 8, backspace
//! goes back one, carriage return resets. Characters (not bytes) are the unit
//! unless `-b`, so UTF-8 is never split.

use super::util::{quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Fold;

const SPEC: Spec = Spec::new(
    "bsw:",
    &[("bytes", Arg::No, "b"), ("spaces", Arg::No, "s"), ("width", Arg::Yes, "w")],
    "[OPTION]... [FILE]...",
)
.numbers();

fn advance(col: usize, c: &str, bytes: bool) -> usize {
    if bytes {
        return col + c.len();
    }
    match c {
        "\x08" => col.saturating_sub(1),
        "\r" => 0,
        "\t" => col + 8 - col % 8,
        _ => col + 1,
    }
}

/// Fold one line's body (no newline) into `out`. The segment not yet output
/// is `line[start..i]`, kept as offsets: a line of megabytes costs no more
/// than its output.
fn fold_line(line: &str, width: usize, spaces: bool, bytes: bool, out: &mut String) {
    let width_of = |seg: &str| seg.split_inclusive(|_| true).fold(0, |a, u| advance(a, u, bytes));
    let (mut start, mut i, mut col) = (0, 0, 0);
    while let Some(ch) = line[i..].chars().next() {
        let c = &line[i..i + ch.len_utf8()];
        let next = advance(col, c, bytes);
        if next > width {
            if spaces {
                if let Some(b) = line[start..i].rfind([' ', '\t']) {
                    let cut = start + b + 1;
                    out.push_str(&line[start..cut]);
                    out.push('\n');
                    start = cut;
                    col = width_of(&line[start..i]);
                    continue;
                }
            }
            if start == i {
                col = next;
                i += c.len();
                continue;
            }
            out.push_str(&line[start..i]);
            out.push('\n');
            start = i;
            col = 0;
            continue;
        }
        col = next;
        i += c.len();
    }
    out.push_str(&line[start..]);
}

#[async_trait]
impl Utility for Fold {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // `-5` is `-w 5` (obsolete form).
        let args: Vec<String> = ctx
            .args
            .iter()
            .map(|a| {
                if a.len() > 1 && a.starts_with('-') && a[1..].bytes().all(|b| b.is_ascii_digit()) {
                    format!("-w{}", &a[1..])
                } else {
                    a.clone()
                }
            })
            .collect();
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut width = 80;
        if let Some(w) = p.last("w") {
            match w.parse::<usize>() {
                Ok(0) => {
                    ctx.err(format!("invalid number of columns: {}: Numerical result out of range", quote_locale(w)))
                        .await?;
                    return Ok(1);
                }
                Ok(n) => width = n,
                Err(_) => {
                    return Err(UError::new(1, format!("invalid number of columns: {}", quote_locale(w))));
                }
            }
        }
        let (spaces, bytes) = (p.has("s"), p.has("b"));
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
            while let Some(line) = src.next_line(ctx).await {
                let text = String::from_utf8_lossy(&line);
                let (body, nl) = match text.strip_suffix('\n') {
                    Some(b) => (b, true),
                    None => (&text[..], false),
                };
                let mut out = String::new();
                fold_line(body, width, spaces, bytes, &mut out);
                if nl {
                    out.push('\n');
                }
                ctx.out(out.as_bytes()).await?;
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn wraps() {
        let s = "abcdefghij klm nopq\n";
        check(&["fold", "-w", "5"], &[], s, "abcde\nfghij\n klm \nnopq\n", "", 0);
        check(&["fold", "-sw", "7"], &[], s, "abcdefg\nhij \nklm \nnopq\n", "", 0);
        check(&["fold", "-w", "10"], &[], "a\tbcdefghij\n", "a\tbc\ndefghij\n", "", 0);
        check(&["fold", "-w2"], &[], "abc", "ab\nc", "", 0);
        check(&["fold", "-3"], &[], "abcd\n", "abc\nd\n", "", 0);
        // Tabs, backspace and carriage return with -s, as GNU fold 9 breaks them.
        let s = "ab\tcd ef gh\x08ij klmnop qrs\n";
        check(&["fold", "-sw", "6"], &[], s, "ab\n\t\ncd ef \ngh\x08ij \nklmnop\n qrs\n", "", 0);
        let s = "aaaa bb\rcc dddddd eeeeeeeeeeeeee f\n";
        let want = "aaaa \nbb\rcc \nddddd\nd \neeeee\neeeee\neeee \nf\n";
        check(&["fold", "-sw", "5"], &[], s, want, "", 0);
    }

    #[test]
    fn errors() {
        check(&["fold", "-w", "x"], &[], "", "", "fold: invalid number of columns: 'x'\n", 1);
        check(
            &["fold", "-w", "0"],
            &[],
            "",
            "",
            "fold: invalid number of columns: '0': Numerical result out of range\n",
            1,
        );
        check(&["fold", "nope"], &[], "", "", "fold: nope: No such file or directory\n", 1);
    }
}
