//! `file` (file 5.44): a small magic table — empty, directory, symlinks,
//! scripts (`#!`), JSON, text (ASCII / UTF-8, CRLF, no line terminators,
//! escape sequences), PNG, JPEG, GIF, PDF, gzip, zip, ELF — else `data`.

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::fs::FileType;
use async_trait::async_trait;

pub struct File;

const SPEC: Spec = Spec::new(
    "bihLF:",
    &[
        ("brief", Arg::No, "b"),
        ("mime", Arg::No, "i"),
        ("mime-type", Arg::No, "mt"),
        ("mime-encoding", Arg::No, "me"),
        ("no-dereference", Arg::No, "h"),
        ("dereference", Arg::No, "L"),
        ("separator", Arg::Yes, "F"),
    ],
    "[OPTION...] [FILE...]",
);

/// A description and its MIME type.
type Kind = (String, &'static str);

fn be32(d: &[u8], i: usize) -> u32 {
    d.get(i..i + 4).map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn le16(d: &[u8], i: usize) -> u16 {
    d.get(i..i + 2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
}

fn binary(d: &[u8]) -> Option<Kind> {
    if d.starts_with(b"\x89PNG\r\n\x1a\n") {
        let color = match d.get(25) {
            Some(0) => "grayscale",
            Some(2) => "/color RGB",
            Some(3) => "colormap",
            Some(4) => "gray+alpha",
            _ => "/color RGBA",
        };
        let sep = if color.starts_with('/') { "" } else { " " };
        let lace = if d.get(28) == Some(&1) { "interlaced" } else { "non-interlaced" };
        let depth = d.get(24).copied().unwrap_or(8);
        let s = format!("PNG image data, {} x {}, {depth}-bit{sep}{color}, {lace}", be32(d, 16), be32(d, 20));
        return Some((s, "image/png"));
    }
    if d.starts_with(b"\xff\xd8\xff") {
        return Some(("JPEG image data".into(), "image/jpeg"));
    }
    if d.starts_with(b"GIF87a") || d.starts_with(b"GIF89a") {
        let v = String::from_utf8_lossy(&d[3..6]).into_owned();
        return Some((format!("GIF image data, version {v}, {} x {}", le16(d, 6), le16(d, 8)), "image/gif"));
    }
    if d.starts_with(b"%PDF-") {
        let v: String = d[5..].iter().take_while(|b| b.is_ascii_digit() || **b == b'.').map(|&b| b as char).collect();
        return Some((format!("PDF document, version {v}"), "application/pdf"));
    }
    if d.starts_with(b"\x1f\x8b") {
        let mut s = "gzip compressed data".to_string();
        if d.get(3).is_some_and(|f| f & 8 != 0) {
            let name: Vec<u8> = d.get(10..).unwrap_or(&[]).iter().take_while(|&&b| b != 0).copied().collect();
            s.push_str(&format!(", was \"{}\"", String::from_utf8_lossy(&name)));
        }
        if d.get(9) == Some(&3) {
            s.push_str(", from Unix");
        }
        if d.len() >= 18 {
            let n = &d[d.len() - 4..];
            s.push_str(&format!(", original size modulo 2^32 {}", u32::from_le_bytes([n[0], n[1], n[2], n[3]])));
        }
        return Some((s, "application/gzip"));
    }
    if d.starts_with(b"PK\x03\x04") && d.len() >= 30 {
        let v = le16(d, 4);
        let method = match le16(d, 8) {
            0 => "store",
            8 => "deflate",
            _ => "other",
        };
        let s = format!("Zip archive data, at least v{}.{} to extract, compression method={method}", v / 10, v % 10);
        return Some((s, "application/zip"));
    }
    if d.starts_with(b"\x7fELF") {
        let bits = if d.get(4) == Some(&2) { "64" } else { "32" };
        let order = if d.get(5) == Some(&2) { "MSB" } else { "LSB" };
        let kind = match le16(d, 16) {
            1 => " relocatable",
            2 => " executable",
            3 => " shared object",
            4 => " core file",
            _ => "",
        };
        return Some((format!("ELF {bits}-bit {order}{kind}"), "application/x-executable"));
    }
    None
}

/// A strict JSON check (objects or arrays at the top, as file's magic wants).
fn is_json(d: &[u8]) -> bool {
    fn ws(d: &[u8], i: &mut usize) {
        while d.get(*i).is_some_and(|b| b" \t\r\n".contains(b)) {
            *i += 1;
        }
    }
    fn value(d: &[u8], i: &mut usize, depth: usize) -> bool {
        ws(d, i);
        if depth > 256 {
            return false;
        }
        match d.get(*i) {
            Some(b'{') | Some(b'[') => {
                let close = if d[*i] == b'{' { b'}' } else { b']' };
                let obj = close == b'}';
                *i += 1;
                ws(d, i);
                if d.get(*i) == Some(&close) {
                    *i += 1;
                    return true;
                }
                loop {
                    if obj {
                        ws(d, i);
                        if d.get(*i) != Some(&b'"') || !value(d, i, depth + 1) {
                            return false;
                        }
                        ws(d, i);
                        if d.get(*i) != Some(&b':') {
                            return false;
                        }
                        *i += 1;
                    }
                    if !value(d, i, depth + 1) {
                        return false;
                    }
                    ws(d, i);
                    match d.get(*i) {
                        Some(b',') => *i += 1,
                        Some(c) if *c == close => {
                            *i += 1;
                            return true;
                        }
                        _ => return false,
                    }
                }
            }
            Some(b'"') => {
                *i += 1;
                while let Some(&c) = d.get(*i) {
                    *i += 1;
                    match c {
                        b'\\' => *i += 1,
                        b'"' => return true,
                        _ => {}
                    }
                }
                false
            }
            Some(_) => {
                let start = *i;
                while d.get(*i).is_some_and(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b)) {
                    *i += 1;
                }
                let tok = &d[start..*i];
                matches!(tok, b"true" | b"false" | b"null")
                    || (!tok.is_empty() && std::str::from_utf8(tok).is_ok_and(|t| t.parse::<f64>().is_ok()))
            }
            None => false,
        }
    }
    let mut i = 0;
    ws(d, &mut i);
    if !matches!(d.get(i), Some(b'{' | b'[')) {
        return false;
    }
    let ok = value(d, &mut i, 0);
    ws(d, &mut i);
    ok && i == d.len()
}

fn text(d: &[u8]) -> Option<Kind> {
    let printable = |b: u8| b >= 0x20 && b != 0x7f || b"\t\n\r\x0c\x1b\x08".contains(&b);
    let ascii = d.iter().all(|&b| b < 0x80 && printable(b));
    let utf8 = !ascii && std::str::from_utf8(d).is_ok() && d.iter().all(|&b| b >= 0x80 || printable(b));
    if !ascii && !utf8 {
        return None;
    }
    let base = if ascii { "ASCII text" } else { "Unicode text, UTF-8 text" };
    if d.starts_with(b"#!") {
        let line = d.split(|&b| b == b'\n').next().unwrap_or(b"");
        let line = String::from_utf8_lossy(&line[2..]).trim().to_string();
        let mut words = line.split_whitespace();
        let mut interp = words.next().unwrap_or("").to_string();
        if interp.ends_with("/env") {
            interp = words.next().unwrap_or("").to_string();
        }
        let name = interp.rsplit('/').next().unwrap_or("");
        let what = match name {
            "bash" => "Bourne-Again shell script".to_string(),
            "sh" | "dash" => "POSIX shell script".to_string(),
            "zsh" => "Paul Falstad's zsh script".to_string(),
            n if n.starts_with("python") => "Python script".to_string(),
            "perl" => return Some(("Perl script text executable".into(), "text/x-perl")),
            "node" => "Node.js script".to_string(),
            "ruby" => "Ruby script".to_string(),
            _ => format!("a {interp} script"),
        };
        let mime = if what.contains("shell") { "text/x-shellscript" } else { "text/x-script" };
        return Some((format!("{what}, {base} executable"), mime));
    }
    if is_json(d) {
        return Some(("JSON text data".into(), "application/json"));
    }
    let mut s = base.to_string();
    let mut extra = Vec::new();
    if d.windows(2).any(|w| w == b"\r\n") {
        extra.push("CRLF line terminators");
    } else if !d.contains(&b'\n') {
        extra.push("no line terminators");
    }
    if d.contains(&0x1b) {
        extra.push("escape sequences");
    }
    if !extra.is_empty() {
        s.push_str(", with ");
        s.push_str(&extra.join(", "));
    }
    Some((s, "text/plain"))
}

/// Charset for `--mime`: text gets its encoding, everything else `binary`.
fn charset(d: &[u8], mime: &str) -> &'static str {
    if mime.starts_with("text/") || mime == "application/json" {
        if d.is_ascii() {
            "us-ascii"
        } else {
            "utf-8"
        }
    } else {
        "binary"
    }
}

#[async_trait]
impl Utility for File {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.is_empty() {
            ctx.stderr.write(b"Usage: file [-bcdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n").await?;
            return Ok(1);
        }
        let (brief, follow) = (p.has("b"), p.has("L"));
        let mode = if p.has("mt") {
            1
        } else if p.has("me") {
            2
        } else if p.has("i") {
            3
        } else {
            0
        };
        let sep = p.last("F").unwrap_or(":");
        let width = p.operands.iter().map(|f| f.chars().count()).max().unwrap_or(0);
        for f in &p.operands {
            let full = ctx.resolve(f);
            let meta = if follow { ctx.fs.metadata(&full).await } else { ctx.fs.symlink_metadata(&full).await };
            let (desc, mime, cs): (String, &str, &str) = match meta {
                Err(e) => (format!("cannot open `{f}' ({e})"), "cannot open", ""),
                Ok(m) if m.file_type == FileType::Dir => ("directory".into(), "inode/directory", "binary"),
                Ok(m) if m.file_type == FileType::Symlink => {
                    let target = ctx.fs.read_link(&full).await.unwrap_or_default();
                    let broken = ctx.fs.metadata(&full).await.is_err();
                    let d = if broken {
                        format!("broken symbolic link to {target}")
                    } else {
                        format!("symbolic link to {target}")
                    };
                    (d, "inode/symlink", "binary")
                }
                Ok(_) => {
                    let data = ctx.fs.read(&full).await.unwrap_or_default();
                    if data.is_empty() {
                        ("empty".into(), "inode/x-empty", "binary")
                    } else {
                        let (d, m) = binary(&data)
                            .or_else(|| text(&data))
                            .unwrap_or(("data".into(), "application/octet-stream"));
                        let cs = charset(&data, m);
                        (d, m, cs)
                    }
                }
            };
            let shown = match mode {
                _ if mime == "cannot open" => desc,
                1 => mime.to_string(),
                2 => cs.to_string(),
                3 => format!("{mime}; charset={cs}"),
                _ => desc,
            };
            let line = if brief {
                format!("{shown}\n")
            } else {
                let pad = " ".repeat(width - f.chars().count());
                format!("{f}{sep}{pad} {shown}\n")
            };
            ctx.out(line.as_bytes()).await?;
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::file_util::testing::check_on;
    use crate::commands::util::file_util::testing::fs_with;
    use crate::commands::util::testutil::check;

    #[test]
    fn kinds() {
        // Outputs of file 5.44 on the same contents.
        let files = &[
            ("ascii", "hello\n"),
            ("crlf", "a\r\nb\r\n"),
            ("empty", ""),
            ("esc", "x\x1by\n"),
            ("j.json", "{\"a\": 1}\n"),
            ("nonl", "no newline"),
            ("py", "#!/usr/bin/env python3\nprint()\n"),
            ("sh", "#!/bin/bash\necho\n"),
            ("utf", "caf\u{e9}\n"),
            ("dir/", ""),
        ];
        let fs = fs_with(files, &[("link", "ascii"), ("broken", "nowhere")]);
        let o = crate::commands::util::testutil::run_full(
            &fs,
            &["file", "ascii", "broken", "crlf", "dir", "empty", "esc", "j.json", "link", "nonl", "py", "sh", "utf"],
            b"",
            &[],
            Default::default(),
        );
        assert_eq!(
            o.out,
            "ascii:  ASCII text\n\
             broken: broken symbolic link to nowhere\n\
             crlf:   ASCII text, with CRLF line terminators\n\
             dir:    directory\n\
             empty:  empty\n\
             esc:    ASCII text, with escape sequences\n\
             j.json: JSON text data\n\
             link:   symbolic link to ascii\n\
             nonl:   ASCII text, with no line terminators\n\
             py:     Python script, ASCII text executable\n\
             sh:     Bourne-Again shell script, ASCII text executable\n\
             utf:    Unicode text, UTF-8 text\n"
        );
        let tree = crate::commands::util::testutil::tree(&fs);
        check_on(&fs, &["file", "-b", "ascii"], "", "ASCII text\n", "", 0, &tree);
        check_on(
            &fs,
            &["file", "-i", "ascii", "utf", "empty", "dir"],
            "",
            "ascii: text/plain; charset=us-ascii\nutf:   text/plain; charset=utf-8\nempty: inode/x-empty; charset=binary\ndir:   inode/directory; charset=binary\n",
            "",
            0,
            &tree,
        );
        check_on(&fs, &["file", "--mime-type", "ascii"], "", "ascii: text/plain\n", "", 0, &tree);
        check_on(&fs, &["file", "-L", "link"], "", "link: ASCII text\n", "", 0, &tree);
    }

    #[test]
    fn magic() {
        check(&["file", "g"], &[("g", "GIF89a\x10\0\x10\0")], "", "g: GIF image data, version 89a, 16 x 16\n", "", 0);
        check(&["file", "d"], &[("d", "%PDF-1.4\n")], "", "d: PDF document, version 1.4\n", "", 0);
        check(&["file", "a", "b", "c"], &[("a", "#!/bin/sh\n"), ("b", "#!/usr/bin/perl\n"), ("c", "#!/usr/bin/foo\n")], "",
            "a: POSIX shell script, ASCII text executable\nb: Perl script text executable\nc: a /usr/bin/foo script, ASCII text executable\n", "", 0);
        check(
            &["file", "d", "e"],
            &[("d", "[1,2]\n"), ("e", "{bad\n")],
            "",
            "d: JSON text data\ne: ASCII text\n",
            "",
            0,
        );
        check(&["file", "nope"], &[], "", "nope: cannot open `nope' (No such file or directory)\n", "", 0);
    }
}
