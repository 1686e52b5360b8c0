//! `nl`: number lines (`-b a|t|n|pBRE`, `-n ln|rn|rz`, `-w`, `-s`, `-v`, `-i`).
//! Page sections (`\:\:\:` delimiter lines) are not interpreted.

use super::util::{quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use regex::bytes::Regex;

pub struct Nl;

const SPEC: Spec = Spec::new(
    "b:d:f:h:i:l:n:ps:v:w:",
    &[
        ("body-numbering", Arg::Yes, "b"),
        ("section-delimiter", Arg::Yes, "d"),
        ("footer-numbering", Arg::Yes, "f"),
        ("header-numbering", Arg::Yes, "h"),
        ("line-increment", Arg::Yes, "i"),
        ("join-blank-lines", Arg::Yes, "l"),
        ("number-format", Arg::Yes, "n"),
        ("no-renumber", Arg::No, "p"),
        ("number-separator", Arg::Yes, "s"),
        ("starting-line-number", Arg::Yes, "v"),
        ("number-width", Arg::Yes, "w"),
    ],
    "[OPTION]... [FILE]...",
);

/// Which lines get numbers.
enum Style {
    All,
    NonEmpty,
    None,
    Matching(Regex),
}

fn style(s: &str) -> Option<Style> {
    Some(match s {
        "a" => Style::All,
        "t" => Style::NonEmpty,
        "n" => Style::None,
        _ => {
            let bre = s.strip_prefix('p')?;
            let t = super::util::regex_translate::translate(bre, false).ok()?;
            super::util::regex_cache::admit(&t.source).ok()?;
            Style::Matching(Regex::new(&t.source).ok()?)
        }
    })
}

#[async_trait]
impl Utility for Nl {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let body = match style(p.last("b").unwrap_or("t")) {
            Some(s) => s,
            None => {
                let v = p.last("b").unwrap_or_default();
                return Err(UError::usage(1, format!("invalid body numbering style: {}", quote_locale(v))));
            }
        };
        let format = p.last("n").unwrap_or("rn");
        if !matches!(format, "ln" | "rn" | "rz") {
            return Err(UError::usage(1, format!("invalid line numbering format: {}", quote_locale(format))));
        }
        let mut nums = [
            ("w", 6i64, "line number field width"),
            ("v", 1, "starting line number"),
            ("i", 1, "line number increment"),
        ];
        for (id, val, what) in nums.iter_mut() {
            if let Some(v) = p.last(id) {
                match v.parse::<i64>() {
                    Ok(n) if !(*id == "w" && n <= 0) => *val = n,
                    _ => {
                        return Err(UError::new(1, format!("invalid {what}: {}", quote_locale(v))));
                    }
                }
            }
        }
        let [(_, width, _), (_, mut num, _), (_, incr, _)] = nums;
        let width = width as usize;
        let sep = p.last("s").unwrap_or("\t").as_bytes().to_vec();
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
            let mut out = Vec::new();
            while let Some(line) = src.next_line(ctx).await {
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                let numbered = match &body {
                    Style::All => true,
                    Style::NonEmpty => !text.is_empty(),
                    Style::None => false,
                    Style::Matching(re) => re.is_match(text),
                };
                if numbered {
                    use crate::commands::util::pad;
                    let n = match format {
                        "ln" => pad::left(&num.to_string(), width),
                        "rz" if num < 0 => format!("-{}", pad::right(&(-num).to_string(), width.saturating_sub(1), '0')),
                        "rz" => pad::right(&num.to_string(), width, '0'),
                        _ => pad::right(&num.to_string(), width, ' '),
                    };
                    out.extend_from_slice(n.as_bytes());
                    out.extend_from_slice(&sep);
                    num += incr;
                } else {
                    out.extend(std::iter::repeat_n(b' ', crate::commands::util::pad::room(width.saturating_add(sep.len()), 0)));
                }
                // GNU ends a last line that lacks one with a newline.
                out.extend_from_slice(text);
                out.push(b'\n');
                if out.len() >= 8192 {
                    ctx.out(&out).await?;
                    out.clear();
                }
            }
            ctx.out(&out).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn numbers() {
        check(&["nl"], &[], "a\n\nb\n", "     1\ta\n       \n     2\tb\n", "", 0);
        check(&["nl", "-ba", "-n", "rz", "-w3", "-s:"], &[], "a\n\nb\n", "001:a\n002:\n003:b\n", "", 0);
        check(&["nl", "-n", "ln"], &[], "a\n", "1     \ta\n", "", 0);
        check(&["nl", "-bp^c"], &[], "ab\ncd\n\n", "       ab\n     1\tcd\n       \n", "", 0);
        check(&["nl", "-v", "5", "-i", "2", "-s", "|"], &[], "a\nb\n", "     5|a\n     7|b\n", "", 0);
        // GNU ends an unterminated last line.
        check(&["nl"], &[], "a\nb", "     1\ta\n     2\tb\n", "", 0);
    }

    #[test]
    fn errors() {
        let t = "Try 'nl --help' for more information.\n";
        check(&["nl", "-b", "x"], &[], "", "", &format!("nl: invalid body numbering style: 'x'\n{t}"), 1);
        check(&["nl", "-n", "x"], &[], "", "", &format!("nl: invalid line numbering format: 'x'\n{t}"), 1);
        check(&["nl", "-w", "x"], &[], "", "", "nl: invalid line number field width: 'x'\n", 1);
        check(&["nl", "nope"], &[], "", "", "nl: nope: No such file or directory\n", 1);
    }
}
