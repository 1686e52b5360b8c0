//! `pr` (GNU coreutils 9.1), the default single-column page layout: 66-line
//! pages of a 5-line header (date, centred file name, `Page N`), 56 text lines
//! and a 5-line blank trailer, a form feed in the text starting a new page;
//! `-h HEADER`, `-l LINES` and `-t` (no header or trailer) as the only options.

use super::util::{quote_locale, Arg, Spec};
use super::util::strftime::{format, When};
use super::date::parse::Zone;
use super::util::file_time::to_unix;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;
use std::time::SystemTime;

pub struct Pr;

const SPEC: Spec = Spec::new(
    "h:l:t",
    &[("header", Arg::Yes, "h"), ("length", Arg::Yes, "l"), ("omit-header", Arg::No, "t")],
    "[OPTION]... [FILE]...",
);

/// Width of the header line (`-w` is not supported).
const WIDTH: usize = 72;

struct Layout {
    /// Lines of text per page.
    body: usize,
    headers: bool,
}

/// `date  name  Page N` spread over 72 columns as GNU does (at least one space each side).
fn header_line(date: &str, name: &str, page: u64) -> String {
    let page = format!("Page {page}");
    let free = WIDTH.saturating_sub(date.chars().count() + name.chars().count() + page.len());
    let lhs = (free / 2).max(1);
    let rhs = (free - free / 2).max(1);
    format!("{date}{}{name}{}{page}", " ".repeat(lhs), " ".repeat(rhs))
}

async fn paginate(ctx: &CommandContext<'_>, data: &[u8], date: &str, name: &str, l: &Layout) -> Result<(), IoError> {
    if data.is_empty() {
        return Ok(());
    }
    // Pages: each a list of lines (a form feed ends a page early).
    let mut pages: Vec<Vec<&[u8]>> = vec![Vec::new()];
    // Pages that a form feed ended (with -t the form feed itself is printed).
    let mut fed: Vec<usize> = Vec::new();
    for line in data.split_inclusive(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let parts: Vec<&[u8]> = line.split(|&b| b == b'\x0c').collect();
        let last = parts.len() - 1;
        for (k, part) in parts.into_iter().enumerate() {
            if k > 0 {
                fed.push(pages.len() - 1);
                pages.push(Vec::new());
            }
            // `text\f` ends the page after `text`, with nothing left for the next.
            if part.is_empty() && k > 0 && k == last {
                continue;
            }
            if pages.last().is_some_and(|p| p.len() >= l.body) {
                pages.push(Vec::new());
            }
            if let Some(p) = pages.last_mut() {
                p.push(part);
            }
        }
    }
    if pages.last().is_some_and(Vec::is_empty) && pages.len() > 1 {
        pages.pop();
    }
    let count = pages.len();
    for (i, page) in pages.into_iter().enumerate() {
        if !ctx.still_running() {
            return Ok(());
        }
        let mut out = Vec::new();
        if l.headers {
            out.extend_from_slice(b"\n\n");
            out.extend_from_slice(header_line(date, name, i as u64 + 1).as_bytes());
            out.extend_from_slice(b"\n\n\n");
        }
        let used = page.len();
        for line in page {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
        // Without headers pages are not filled: a form feed is passed on instead.
        if l.headers {
            out.extend(std::iter::repeat_n(b'\n', l.body.saturating_sub(used) + 5));
        } else if fed.contains(&i) && i + 1 < count {
            out.push(b'\x0c');
        }
        ctx.out(&out).await?;
    }
    Ok(())
}

#[async_trait]
impl Utility for Pr {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut length = 66usize;
        if let Some(v) = p.last("l") {
            match v.parse::<usize>() {
                Ok(n) if n > 0 && n < 1 << 20 => length = n,
                _ => {
                    return Err(UError::new(1, format!("'-l PAGE_LENGTH' invalid number of lines: {}", quote_locale(v))));
                }
            }
        }
        let headers = !p.has("t") && length > 10;
        let layout = Layout { body: if headers { length - 10 } else { length }, headers };
        let zone = Zone::from_tz(ctx.env.get("TZ").as_deref());
        let stamp = |secs: i64| {
            let (offset, abbr) = zone.info(secs);
            let w = When { secs, nanos: 0, offset, abbr: &abbr };
            String::from_utf8_lossy(&format(b"%Y-%m-%d %H:%M", &w)).into_owned()
        };
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut status = 0;
        for f in &files {
            let (data, secs) = if f == "-" {
                match ctx.read_stdin().await {
                    Ok(d) => (d, to_unix(SystemTime::now()).0),
                    Err(e) => {
                        ctx.err(format!("-: {e}")).await?;
                        status = 1;
                        continue;
                    }
                }
            } else {
                let full = ctx.resolve(f);
                match ctx.fs.read(&full).await {
                    Ok(d) => {
                        let m = ctx.fs.metadata(&full).await.map(|m| m.mtime).unwrap_or(SystemTime::UNIX_EPOCH);
                        (d, to_unix(m).0)
                    }
                    Err(e) => {
                        ctx.err(format!("{f}: {e}")).await?;
                        status = 1;
                        continue;
                    }
                }
            };
            let name = match p.last("h") {
                Some(h) => h.to_string(),
                None if f == "-" => String::new(),
                None => f.clone(),
            };
            paginate(ctx, &data, &stamp(secs), &name, &layout).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::header_line;
    use crate::commands::util::testutil::{block_on, make_fs, run_full};
    use crate::limits::Limits;

    #[test]
    fn header_spacing() {
        // GNU pr 9.1 (TZ=UTC) for a file `s` dated 2024-01-02 03:04:05, and for stdin.
        assert_eq!(
            header_line("2024-01-02 03:04", "s", 1),
            "2024-01-02 03:04                        s                         Page 1"
        );
        assert_eq!(
            header_line("2026-11-24 22:04", "", 1),
            "2026-11-24 22:04                                                  Page 1"
        );
    }

    #[test]
    fn pages() {
        let fs = make_fs(&[("s", "1\n2\n3\n"), ("l", &(1..=60).map(|i| format!("{i}\n")).collect::<String>())]);
        let t = crate::commands::util::file_time::from_unix(1_704_164_645, 0);
        block_on(async {
            fs.set_mtime("/w/s", t).await.unwrap();
            fs.set_mtime("/w/l", t).await.unwrap();
        });
        let o = run_full(&fs, &["pr", "s"], b"", &[], Limits::default());
        let head = "\n\n2024-01-02 03:04                        s                         Page 1\n\n\n1\n2\n3\n";
        assert_eq!(o.out, format!("{head}{}", "\n".repeat(58)));
        let o = run_full(&fs, &["pr", "l"], b"", &[], Limits::default());
        assert_eq!(o.out.lines().count(), 132);
        assert_eq!(
            o.out.lines().nth(68),
            Some("2024-01-02 03:04                        l                         Page 2")
        );
        assert_eq!(o.out.lines().nth(71), Some("57"));
        let o = run_full(&fs, &["pr", "-t", "s", "nope"], b"", &[], Limits::default());
        assert_eq!(
            (o.out.as_str(), o.err.as_str(), o.status),
            ("1\n2\n3\n", "pr: nope: No such file or directory\n", 1)
        );
        let o = run_full(&fs, &["pr", "-l", "12", "l"], b"", &[], Limits::default());
        assert_eq!(
            o.out.lines().take(8).collect::<Vec<_>>().join("|"),
            "||2024-01-02 03:04                        l                         Page 1|||1|2|"
        );
        let o = run_full(&fs, &["pr"], b"a\x0cb\n", &[], Limits::default());
        assert_eq!(o.out.lines().count(), 132);
    }
}
