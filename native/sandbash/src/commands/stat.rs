//! `stat`: `-c/--format`, `--printf`, `-L`, `-t` and the default report. The
//! sandbox keeps one time per node (mtime, also shown as access/change time),
//! no inodes or devices (shown as 0), and one owner (uid 1000).

use super::util::{quote, quotef, Arg, Spec};
use super::util::file_mode::mode_string;
use super::util::file_time::{full_date, to_unix};
use super::util::file_util::type_name;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{FileType, Metadata};
use async_trait::async_trait;

pub struct Stat;

const SPEC: Spec = Spec::new(
    "c:fLt",
    &[
        ("dereference", Arg::No, "L"),
        ("file-system", Arg::No, "f"),
        ("format", Arg::Yes, "c"),
        ("printf", Arg::Yes, "printf"),
        ("terse", Arg::No, "t"),
        ("cached", Arg::Yes, "cached"),
    ],
    "[OPTION]... FILE...",
);

const DEFAULT: &str = "  File: %\u{1}\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: 0,0\tInode: %-11i Links: %h\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n";
const TERSE: &str = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";

#[async_trait]
impl Utility for Stat {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let (format, escapes) = match (p.last("printf"), p.last("c")) {
            (Some(f), _) => (f.to_string(), true),
            (None, Some(f)) => (format!("{f}\n"), false),
            (None, None) if p.has("t") => (TERSE.to_string(), false),
            _ => (DEFAULT.to_string(), false),
        };
        let mut status = 0;
        for op in &p.operands {
            let full = ctx.resolve(op);
            let meta = if p.has("L") { ctx.fs.metadata(&full).await } else { ctx.fs.symlink_metadata(&full).await };
            let m = match meta {
                Ok(m) if !op.is_empty() => m,
                Ok(_) => {
                    ctx.err(format!("cannot statx {}: No such file or directory", quote(op))).await?;
                    status = 1;
                    continue;
                }
                Err(e) => {
                    ctx.err(format!("cannot statx {}: {e}", quote(op))).await?;
                    status = 1;
                    continue;
                }
            };
            let target = if m.is_symlink() { ctx.fs.read_link(&full).await.ok() } else { None };
            let mut out = String::new();
            render(&mut out, &format, escapes, op, &m, target.as_deref(), &ctx.sys.username);
            ctx.out(out.as_bytes()).await?;
        }
        Ok(status)
    }
}

/// Expand one format for one file (`%-10s`-style flags and widths allowed).
fn render(out: &mut String, f: &str, escapes: bool, name: &str, m: &Metadata, target: Option<&str>, user: &str) {
    let chars: Vec<char> = f.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c == '\\' && escapes {
            let (s, used) = escape(&chars[i..]);
            out.push_str(&s);
            i += used;
            continue;
        }
        if c != '%' {
            out.push(c);
            continue;
        }
        let start = i;
        while i < chars.len() && "-0123456789.#+ '".contains(chars[i]) {
            i += 1;
        }
        let spec: String = chars[start..i].iter().collect();
        let Some(&d) = chars.get(i) else {
            out.push('%');
            out.push_str(&spec);
            break;
        };
        i += 1;
        if d == '%' {
            out.push('%');
            continue;
        }
        let field = directive(d, name, m, target, user);
        out.push_str(&pad(&spec, &field));
    }
}

fn directive(d: char, name: &str, m: &Metadata, target: Option<&str>, user: &str) -> String {
    let (secs, _) = to_unix(m.mtime);
    let blocks = if m.file_type == FileType::Symlink { 0 } else { m.size.div_ceil(4096) * 8 };
    let type_bits = match m.file_type {
        FileType::File => 0o100000,
        FileType::Dir => 0o040000,
        FileType::Symlink => 0o120000,
    };
    match d {
        'n' => name.to_string(),
        // The default report quotes only names that need it.
        '\u{1}' => match target {
            Some(t) => format!("{} -> {}", quotef(name), quotef(t)),
            None => quotef(name),
        },
        'N' => match target {
            Some(t) => format!("{} -> {}", quote(name), quote(t)),
            None => quote(name),
        },
        's' => m.size.to_string(),
        'b' => blocks.to_string(),
        'B' => "512".into(),
        'o' => "4096".into(),
        'F' => type_name(m).to_string(),
        'a' => format!("{:o}", m.mode & 0o7777),
        'A' => mode_string(m.file_type, m.mode),
        'f' => format!("{:x}", type_bits | (m.mode & 0o7777)),
        'h' => if m.is_dir() { "2" } else { "1" }.into(),
        'U' | 'G' => user.to_string(),
        'u' | 'g' => "1000".into(),
        'i' | 'd' | 'D' | 't' | 'T' | 'W' => "0".into(),
        'X' | 'Y' | 'Z' => secs.to_string(),
        'x' | 'y' | 'z' => full_date(m.mtime),
        'w' => "-".into(),
        'm' => "/".into(),
        _ => "?".into(),
    }
}

/// Apply printf-style flags, width and precision to a field.
fn pad(spec: &str, field: &str) -> String {
    let left = spec.contains('-');
    let zero = spec.starts_with('0') && !left;
    let spec = spec.trim_start_matches(['-', '0', '#', '+', ' ', '\'']);
    let (w, prec) = spec.split_once('.').unwrap_or((spec, ""));
    let mut s: String = match prec.parse::<usize>() {
        Ok(p) if !prec.is_empty() => field.chars().take(p).collect(),
        _ => field.to_string(),
    };
    let width: usize = w.parse().unwrap_or(0).min(4096);
    let len = s.chars().count();
    if len < width {
        let fill = width - len;
        s = if left {
            format!("{s}{}", " ".repeat(fill))
        } else if zero {
            format!("{}{s}", "0".repeat(fill))
        } else {
            format!("{}{s}", " ".repeat(fill))
        };
    }
    s
}

/// A `--printf` backslash escape; returns the text and characters consumed.
fn escape(rest: &[char]) -> (String, usize) {
    match rest.first() {
        Some('n') => ("\n".into(), 1),
        Some('t') => ("\t".into(), 1),
        Some('\\') => ("\\".into(), 1),
        Some('"') => ("\"".into(), 1),
        Some('a') => ("\x07".into(), 1),
        Some('r') => ("\r".into(), 1),
        Some('0'..='7') => {
            let digits: String = rest.iter().take(3).take_while(|c| ('0'..='7').contains(*c)).collect();
            let v = u32::from_str_radix(&digits, 8).unwrap_or(0);
            (char::from_u32(v).map(String::from).unwrap_or_default(), digits.len())
        }
        Some(c) => (format!("\\{c}"), 1),
        None => ("\\".into(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::file_time::from_unix;
    use super::super::util::file_util::testing::{check_on, fs_with};
    use super::super::util::testutil::{block_on, check};

    #[test]
    fn formats() {
        // GNU stat 9.1 on the same files (owner root shown as the sandbox user, uid 1000).
        let fs = fs_with(&[("f", "hi\n")], &[("l", "f")]);
        block_on(fs.set_mtime("/w/f", from_unix(1_000_000, 0))).expect("mtime");
        let t = super::super::util::testutil::tree(&fs);
        check_on(
            &fs,
            &["stat", "-c", "%n %s %F %a %A %U %Y %y %h %b %B %o %N %%", "f"],
            "",
            "f 3 regular file 644 -rw-r--r-- sandbox 1000000 1970-01-12 13:46:40.000000000 +0000 1 8 512 4096 'f' %\n",
            "",
            0,
            &t,
        );
        check_on(
            &fs,
            &["stat", "-c", "%n %s %F %a %A %N", "l"],
            "",
            "l 1 symbolic link 777 lrwxrwxrwx 'l' -> 'f'\n",
            "",
            0,
            &t,
        );
        check_on(&fs, &["stat", "-L", "-c", "%F %N", "l"], "", "regular file 'l'\n", "", 0, &t);
        check_on(&fs, &["stat", "--printf=%n\\n", "f"], "", "f\n", "", 0, &t);
        check_on(&fs, &["stat", "-c", "[%5s|%-4n|%03a]", "f"], "", "[    3|f   |644]\n", "", 0, &t);
        check(&["stat", "-c", "%F %a %s", "d"], &[("d/", "")], "", "directory 755 4096\n", "", 0);
        let o = super::super::util::testutil::run_full(&fs, &["stat", "f"], b"", &[], Default::default());
        let first: Vec<&str> = o.out.lines().take(2).collect();
        assert_eq!(first, ["  File: f", "  Size: 3         \tBlocks: 8          IO Block: 4096   regular file"]);
    }

    #[test]
    fn errors() {
        check(&["stat", "nope"], &[], "", "", "stat: cannot statx 'nope': No such file or directory\n", 1);
        check(&["stat"], &[], "", "", "stat: missing operand\nTry 'stat --help' for more information.\n", 1);
    }
}
