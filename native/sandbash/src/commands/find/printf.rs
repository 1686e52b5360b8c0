//! `find -printf` formats and the `-ls` line. Only mtime exists in the
//! sandbox, so `%a`/`%c` (and `%A`/`%C`) show it too; inodes are 0, the
//! owner is the sandbox user.

use crate::commands::util::file_mode::mode_string;
use crate::commands::util::file_time::{ls_date, to_unix};
use crate::commands::util::strftime::strftime;
use crate::fs::{FileType, Metadata};
use std::time::SystemTime;

/// One piece of a compiled format.
#[derive(Debug, Clone)]
pub enum Piece {
    Lit(Vec<u8>),
    /// `\c`: stop printing (this file's output ends here).
    Stop,
    /// `%[flags][width][.prec]X`, with the `%TX` time letter in `time`.
    Dir {
        flags: String,
        width: usize,
        prec: Option<usize>,
        kind: char,
        time: Option<char>,
    },
}

/// What a directive can show about one file.
pub struct Info<'a> {
    /// The path as printed, and the start point it was found under.
    pub path: &'a str,
    pub start: &'a str,
    pub depth: usize,
    pub meta: &'a Metadata,
    /// Target of a symlink.
    pub link: Option<&'a str>,
    /// Type after following symlinks; `None` when broken.
    pub target: Option<FileType>,
    pub nlink: u64,
    pub user: &'a str,
}

/// Compile a format; the warnings are GNU's for unknown escapes/directives.
pub fn parse_format(f: &str) -> Result<(Vec<Piece>, Vec<String>), String> {
    let b = f.as_bytes();
    let (mut out, mut warn, mut lit) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        if c == b'\\' && i < b.len() {
            let e = b[i];
            i += 1;
            match e {
                b'a' => lit.push(7),
                b'b' => lit.push(8),
                b'f' => lit.push(12),
                b'n' => lit.push(b'\n'),
                b'r' => lit.push(b'\r'),
                b't' => lit.push(b'\t'),
                b'v' => lit.push(11),
                b'\\' => lit.push(b'\\'),
                b'c' => {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                    out.push(Piece::Stop);
                }
                b'0'..=b'7' => {
                    let mut v = u32::from(e - b'0');
                    let mut n = 1;
                    while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                        v = v * 8 + u32::from(b[i] - b'0');
                        i += 1;
                        n += 1;
                    }
                    lit.push(v as u8);
                }
                _ => {
                    warn.push(format!("warning: unrecognized escape `\\{}'", e as char));
                    lit.extend_from_slice(&[b'\\', e]);
                }
            }
            continue;
        }
        if c != b'%' {
            lit.push(c);
            continue;
        }
        let start = i - 1;
        let fl_end = i + b[i..].iter().take_while(|c| b"-+ #0".contains(c)).count();
        let flags = f[i..fl_end].to_string();
        i = fl_end;
        let w_end = i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let width = f[i..w_end].parse().unwrap_or(0usize).min(4096);
        i = w_end;
        let mut prec = None;
        if b.get(i) == Some(&b'.') {
            let p_end = i + 1 + b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            prec = Some(f[i + 1..p_end].parse().unwrap_or(0usize).min(4096));
            i = p_end;
        }
        let Some(&k) = b.get(i) else {
            return Err("error: % at end of format string".into());
        };
        i += 1;
        let kind = k as char;
        if kind == '%' {
            lit.push(b'%');
            continue;
        }
        let mut time = None;
        if matches!(kind, 'A' | 'C' | 'T') {
            match b.get(i) {
                Some(&t) => {
                    time = Some(t as char);
                    i += 1;
                }
                None => return Err(format!("error: missing time directive after %{kind}")),
            }
        } else if !"pfhHPsmMdyYlugUGkbtacinDS".contains(kind) {
            warn.push(format!("warning: unrecognized format directive `%{kind}'"));
            lit.extend_from_slice(&b[start..i]);
            continue;
        }
        out.push(Piece::Lit(std::mem::take(&mut lit)));
        out.push(Piece::Dir { flags, width, prec, kind, time });
    }
    out.push(Piece::Lit(lit));
    out.retain(|p| !matches!(p, Piece::Lit(l) if l.is_empty()));
    Ok((out, warn))
}

/// Render a format for one file.
pub fn render(pieces: &[Piece], info: &Info<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    for p in pieces {
        match p {
            Piece::Lit(l) => out.extend_from_slice(l),
            Piece::Stop => break,
            Piece::Dir { flags, width, prec, kind, time } => {
                let mut v = directive(*kind, *time, flags, info);
                if let Some(pr) = prec {
                    v = v.chars().take(*pr).collect();
                }
                let pad = width.saturating_sub(v.chars().count());
                if flags.contains('-') {
                    v.push_str(&" ".repeat(pad));
                } else {
                    v.insert_str(0, &" ".repeat(pad));
                }
                out.extend_from_slice(v.as_bytes());
            }
        }
    }
    out
}

fn type_letter(t: Option<FileType>) -> &'static str {
    match t {
        Some(FileType::File) => "f",
        Some(FileType::Dir) => "d",
        Some(FileType::Symlink) => "l",
        None => "N",
    }
}

/// Allocated 1 KiB blocks: 4 KiB units, symlinks take none (as ext4 shows).
pub fn blocks_k(m: &Metadata) -> u64 {
    match m.file_type {
        FileType::Symlink => 0,
        _ => m.size.div_ceil(4096) * 4,
    }
}

/// GNU find's 10-digit fractions (nanoseconds and a trailing 0).
fn time_text(t: SystemTime, k: char) -> String {
    let (secs, ns) = to_unix(t);
    let frac = format!("{ns:09}0");
    match k {
        '@' => format!("{secs}.{frac}"),
        'S' => format!("{}.{frac}", String::from_utf8_lossy(&strftime(b"%S", secs))),
        'T' => format!("{}.{frac}", String::from_utf8_lossy(&strftime(b"%H:%M:%S", secs))),
        '+' => format!("{}.{frac}", String::from_utf8_lossy(&strftime(b"%Y-%m-%d+%H:%M:%S", secs))),
        _ => String::from_utf8_lossy(&strftime(&[b'%', k as u8], secs)).into_owned(),
    }
}

fn directive(kind: char, time: Option<char>, flags: &str, i: &Info<'_>) -> String {
    let m = i.meta;
    match kind {
        'p' => i.path.to_string(),
        // GNU splits at the last `/` even when it ends the path (`d/`: `d/` and `d`).
        'f' => match i.path.rfind('/') {
            Some(n) if n + 1 < i.path.len() => i.path[n + 1..].to_string(),
            _ => i.path.to_string(),
        },
        'h' => match i.path.rfind('/') {
            Some(0) => "/".into(),
            Some(n) => i.path[..n].to_string(),
            None => ".".into(),
        },
        'H' => i.start.to_string(),
        'P' => {
            let rest = i.path.strip_prefix(i.start).unwrap_or(i.path);
            rest.trim_start_matches('/').to_string()
        }
        's' => m.size.to_string(),
        'm' if flags.contains('#') => format!("{:#o}", m.mode & 0o7777).replace("0o", "0"),
        'm' => format!("{:o}", m.mode & 0o7777),
        'M' => mode_string(m.file_type, m.mode),
        'd' => i.depth.to_string(),
        'y' => type_letter(Some(m.file_type)).into(),
        'Y' if m.is_symlink() => type_letter(i.target).into(),
        'Y' => type_letter(Some(m.file_type)).into(),
        'l' => i.link.unwrap_or("").to_string(),
        'u' | 'g' => i.user.to_string(),
        'U' | 'G' => "1000".into(),
        'k' => blocks_k(m).to_string(),
        'b' => (blocks_k(m) * 2).to_string(),
        'n' => i.nlink.to_string(),
        'i' | 'D' => "0".into(),
        'S' => "1".into(),
        't' | 'a' | 'c' => {
            let (secs, ns) = to_unix(m.mtime);
            let d = strftime(b"%a %b %e %H:%M:%S", secs);
            format!("{}.{ns:09}0 {}", String::from_utf8_lossy(&d), String::from_utf8_lossy(&strftime(b"%Y", secs)))
        }
        _ => time_text(m.mtime, time.unwrap_or('@')),
    }
}

/// The `-ls` line (`ls -dils` style).
pub fn ls_line(i: &Info<'_>, now: SystemTime) -> String {
    let m = i.meta;
    let mut s = format!(
        "{:>9} {:>6} {} {:>3} {:<8} {:<8} {:>8} {} {}",
        0,
        blocks_k(m),
        mode_string(m.file_type, m.mode),
        i.nlink,
        i.user,
        i.user,
        m.size,
        ls_date(m.mtime, now),
        i.path
    );
    if let Some(l) = i.link {
        s.push_str(" -> ");
        s.push_str(l);
    }
    s.push('\n');
    s
}
