//! `help` and `NAME --help`: bash's own texts for every builtin and keyword,
//! recorded from GNU bash 5.2 by `scripts/record_builtin_help` into
//! `help_texts.txt`, laid out as bash's `help.def` lays them out.

use crate::interp::Fds;
use crate::state::ShellState;
use std::sync::OnceLock;

/// `help '*'` of GNU bash 5.2.15: each topic a line `NAME: SYNOPSIS` and its
/// long text, every line of it indented by four spaces, in bash's order.
const TEXT: &str = include_str!("help_texts.txt");

/// `GNU bash, version ...` as `help` prints it (`show_shell_version`).
const VERSION: &str = "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)";
const COPYRIGHT: &str = "Copyright (C) 2022 Free Software Foundation, Inc.";
const LICENSE: &str = "License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>";

const USAGE: &str = "help: usage: help [-dms] [pattern ...]";

/// One help topic.
struct Topic {
    name: &'static str,
    synopsis: &'static str,
    /// The long text, its lines indented and each ending in a newline.
    doc: &'static str,
}

impl Topic {
    /// The first line of the long text, unindented (`help -d`'s description).
    fn summary(&self) -> &'static str {
        self.doc.lines().next().map_or("", |l| l.strip_prefix("    ").unwrap_or(l))
    }
}

fn topics() -> &'static [Topic] {
    static TOPICS: OnceLock<Vec<Topic>> = OnceLock::new();
    TOPICS.get_or_init(|| {
        let mut out: Vec<Topic> = Vec::new();
        let mut at = 0;
        // A line that is neither indented nor empty starts a topic.
        let starts: Vec<usize> = TEXT
            .split_inclusive('\n')
            .map(|l| {
                let s = at;
                at += l.len();
                (s, l)
            })
            .filter(|(_, l)| !l.starts_with(' ') && l.trim_end() != "")
            .map(|(s, _)| s)
            .collect();
        for (k, &s) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(TEXT.len());
            let entry = &TEXT[s..end];
            let (head, doc) = entry.split_once('\n').unwrap_or((entry, ""));
            let (name, synopsis) = head.split_once(": ").unwrap_or((head, ""));
            out.push(Topic { name, synopsis, doc });
        }
        out
    })
}

async fn out(fds: &Fds, s: &str) {
    let _ = fds.stdout.write_str(s).await;
}

/// `help [-dms] [pattern ...]`.
pub async fn help(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (mut short, mut man, mut synopsis) = (false, false, false);
    let mut rest = &argv[1..];
    while let Some(a) = rest.first() {
        if a == "--" {
            rest = &rest[1..];
            break;
        }
        if !a.starts_with('-') || a.len() < 2 {
            break;
        }
        for c in a[1..].chars() {
            match c {
                'd' => short = true,
                'm' => man = true,
                's' => synopsis = true,
                _ => return super::usage_error(sh, fds, &format!("help: -{c}: invalid option"), USAGE).await,
            }
        }
        rest = &rest[1..];
    }
    if rest.is_empty() {
        out(fds, &listing(sh)).await;
        return 0;
    }
    let mut text = String::new();
    let is_glob = |p: &str| crate::pattern::Pattern::from_glob_text(p).is_glob_pattern(true);
    if is_glob(&rest[0]) {
        let which = if rest.len() > 1 { "keywords" } else { "keyword" };
        text.push_str(&format!("Shell commands matching {which} `{}'\n\n", rest.join(", ")));
    }
    let mut found = false;
    for p in rest {
        // As bash: the names equal to or matching the pattern, else those it begins.
        let pat = crate::pattern::Pattern::from_parts(&[(p.to_string(), false)]);
        let mut hits: Vec<&Topic> = topics().iter().filter(|t| t.name == p || pat.matches(t.name, true)).collect();
        if hits.is_empty() {
            hits = topics().iter().filter(|t| t.name.starts_with(p.as_str())).collect();
        }
        found |= !hits.is_empty();
        for t in hits {
            if short {
                text.push_str(&format!("{} - {}\n", t.name, t.summary()));
            } else if man {
                text.push_str(&manpage(t));
            } else {
                text.push_str(&format!("{}: {}\n", t.name, t.synopsis));
                if !synopsis {
                    text.push_str(t.doc);
                }
            }
        }
    }
    out(fds, &text).await;
    if !found {
        let p = rest.last().map_or("", String::as_str);
        let msg = format!("help: no help topics match `{p}'.  Try `help help' or `man -k {p}' or `info {p}'.");
        return super::fail(sh.loc(), fds, &msg, 1).await;
    }
    0
}

/// `help -m NAME`: the topic as a manual page.
fn manpage(t: &Topic) -> String {
    format!(
        "NAME\n    {} - {}\n\nSYNOPSIS\n    {}\n\nDESCRIPTION\n{}\nSEE ALSO\n    bash(1)\n\nIMPLEMENTATION\n    {VERSION}\n    {COPYRIGHT}\n    {LICENSE}\n\n",
        t.name,
        t.summary(),
        t.synopsis,
        t.doc
    )
}

/// `help` alone: the header and every synopsis in two columns of half the
/// terminal's width (`COLUMNS`, else 80), cut with a `>`, a `*` before those
/// `enable -n` turned off (bash's `wdispcolumn`, for a UTF-8 locale).
fn listing(sh: &ShellState) -> String {
    let mut s = format!(
        "{VERSION}\nThese shell commands are defined internally.  Type `help' to see this list.\n\
Type `help name' to find out more about the function `name'.\n\
Use `info bash' to find out more about the shell in general.\n\
Use `man -k' or `info' to find out more about commands not in this list.\n\n\
A star (*) next to a name means that the command is disabled.\n\n"
    );
    let columns = sh.get_var("COLUMNS").and_then(|c| c.trim().parse::<i64>().ok()).filter(|w| *w > 0).unwrap_or(80);
    let mut width = (columns / 2).min(128) as usize;
    if width <= 3 {
        width = 40;
    }
    let all = topics();
    let height = all.len().div_ceil(2);
    let mark = |t: &Topic| if sh.disabled.contains(t.name) { '*' } else { ' ' };
    for i in 0..height {
        let first = &all[i];
        let (shown, cols) = column(first.synopsis, width, false);
        s.push(mark(first));
        s.push_str(&shown);
        let Some(second) = all.get(i + height).filter(|_| (i << 1) < all.len()) else {
            s.push('\n');
            continue;
        };
        s.push_str(&" ".repeat(width.saturating_sub(cols)));
        s.push(mark(second));
        s.push_str(&column(second.synopsis, width, true).0);
        s.push('\n');
    }
    s
}

/// A synopsis as one column shows it, and the columns it takes with its
/// mark: at most `width - 2` characters, the last of those shown replaced by
/// `>` when it is cut (one sooner in the `second` column).
fn column(text: &str, width: usize, second: bool) -> (String, usize) {
    let chars: Vec<char> = text.chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).collect();
    let shown = chars.len().min(width.saturating_sub(2));
    let cols = shown + 1;
    if cols + 2 < width {
        return (chars.iter().collect(), cols);
    }
    let keep = if second { shown.saturating_sub(2) } else { shown.saturating_sub(1) };
    let mut s: String = chars[..keep].iter().collect();
    s.push('>');
    (s, cols)
}

/// `NAME --help`: the topic's synopsis and long text, status 2, as bash
/// prints it. `None` when there is no topic of that name.
pub async fn dash_dash_help(name: &str, fds: &Fds) -> Option<i32> {
    let t = topics().iter().find(|t| t.name == name)?;
    out(fds, &format!("{}: {}\n{}", t.name, t.synopsis, t.doc)).await;
    Some(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_has_a_synopsis_and_a_text() {
        assert_eq!(topics().len(), 76);
        for t in topics() {
            assert!(!t.name.is_empty() && !t.synopsis.is_empty() && !t.summary().is_empty(), "{}", t.name);
        }
        assert!(topics().iter().any(|t| t.name == "{ ... }" && t.synopsis == "{ COMMANDS ; }"));
        assert!(topics().iter().any(|t| t.name == ":" && t.synopsis == ":"));
    }

    #[test]
    fn columns_cut_as_bash_cuts_them() {
        let long = "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]";
        assert_eq!(column(long, 40, true).0, "history [-c] [-d offset] [n] or hist>");
        assert_eq!(column("job_spec [&]", 40, false), ("job_spec [&]".to_string(), 13));
    }
}
