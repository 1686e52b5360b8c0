//! `expand`: tabs to spaces (`-t N` or a list of stops, `-i` leading only).

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Expand;

const SPEC: Spec =
    Spec::new("it:", &[("initial", Arg::No, "i"), ("tabs", Arg::Yes, "t")], "[OPTION]... [FILE]...").numbers();

/// Where tabs stop: every `n` columns, or at listed columns (then one space).
enum Stops {
    Every(usize),
    List(Vec<usize>),
}

impl Stops {
    /// Spaces a tab at `col` becomes.
    fn width(&self, col: usize) -> usize {
        match self {
            Stops::Every(n) => n - col % n,
            Stops::List(l) => l.iter().find(|&&s| s > col).map_or(1, |s| s - col),
        }
    }
}

/// Output handed on at a time.
const BLOCK: usize = 64 * 1024;

fn parse_stops(specs: &[String]) -> Result<Stops, String> {
    let mut list = Vec::new();
    for s in specs {
        for part in s.split([',', ' ']).filter(|p| !p.is_empty()) {
            let n: usize = part.parse().map_err(|_| {
                format!("tab size contains invalid character(s): {}", super::util::quote_locale(part))
            })?;
            if n == 0 {
                return Err("tab size cannot be 0".into());
            }
            if list.last().is_some_and(|&l| l >= n) {
                return Err("tab sizes must be ascending".into());
            }
            list.push(n);
        }
    }
    Ok(match list.as_slice() {
        [] => Stops::Every(8),
        [n] => Stops::Every(*n),
        _ => Stops::List(list),
    })
}

#[async_trait]
impl Utility for Expand {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // `-4` and `-4,8` are `-t 4` / `-t 4,8`.
        let args: Vec<String> = ctx
            .args
            .iter()
            .map(|a| {
                if a.len() > 1 && a.starts_with('-') && a.as_bytes()[1].is_ascii_digit() {
                    format!("-t{}", &a[1..])
                } else {
                    a.clone()
                }
            })
            .collect();
        let p = ctx.opts_of(&args, &SPEC).await?;
        let specs: Vec<String> = p.all("t").map(String::from).collect();
        let stops = match parse_stops(&specs) {
            Ok(s) => s,
            Err(m) => {
                return Err(UError::new(1, m));
            }
        };
        let initial = p.has("i");
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
                let mut out = String::with_capacity(text.len());
                let (mut col, mut leading) = (0usize, true);
                for c in text.chars() {
                    match c {
                        '\t' if !initial || leading => {
                            // A stop far out (`-t 1,9223372036854775807`) is that
                            // many blanks, handed on a block at a time until the
                            // output limit or the deadline ends them.
                            let mut w = stops.width(col);
                            col = col.saturating_add(w);
                            while w > 0 {
                                let n = w.min(BLOCK);
                                out.extend(std::iter::repeat_n(' ', n));
                                w -= n;
                                if out.len() >= BLOCK {
                                    ctx.out(out.as_bytes()).await?;
                                    out.clear();
                                    if !ctx.still_running() {
                                        return Ok(1);
                                    }
                                }
                            }
                        }
                        '\x08' => {
                            out.push(c);
                            col = col.saturating_sub(1);
                        }
                        '\n' => out.push(c),
                        _ => {
                            leading &= c == ' ' || c == '\t';
                            out.push(c);
                            col = col.saturating_add(1);
                        }
                    }
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
    fn expands() {
        check(&["expand"], &[], "a\tb\tc\n\tx\n", "a       b       c\n        x\n", "", 0);
        check(&["expand", "-t", "4,10"], &[], "a\tb\tc\n", "a   b     c\n", "", 0);
        check(&["expand", "-t", "3"], &[], "a\tb\tc\n", "a  b  c\n", "", 0);
        check(&["expand", "-i", "-t4"], &[], "  \ta\tb\n", "    a\tb\n", "", 0);
        check(&["expand", "-t", "0"], &[], "", "", "expand: tab size cannot be 0\n", 1);
        check(&["expand", "-t", "3,2"], &[], "", "", "expand: tab sizes must be ascending\n", 1);
    }
}
