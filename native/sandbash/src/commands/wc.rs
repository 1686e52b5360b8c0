//! `wc`: newline, word, character, byte counts and longest line (-l -w -m -c -L),
//! with GNU's column width rule and a `total` line for several files.

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::fs::FileType;
use async_trait::async_trait;

pub struct Wc;

const SPEC: Spec = Spec::new(
    "clLmw",
    &[
        ("bytes", Arg::No, "c"),
        ("chars", Arg::No, "m"),
        ("lines", Arg::No, "l"),
        ("max-line-length", Arg::No, "L"),
        ("words", Arg::No, "w"),
    ],
    "[OPTION]... [FILE]...",
);

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    max_len: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.lines += o.lines;
        self.words += o.words;
        self.chars += o.chars;
        self.bytes += o.bytes;
        self.max_len = self.max_len.max(o.max_len);
    }
}

/// Streaming counter with GNU wc's rules in a UTF-8 locale: a word is a run
/// of printable non-space characters, control characters and invalid bytes
/// neither start nor end one, and `-L` is in display columns.
#[derive(Default)]
struct Counter {
    c: Counts,
    in_word: bool,
    col: u64,
    /// An incomplete UTF-8 sequence at the end of the last chunk.
    pending: Vec<u8>,
    /// Only lines and bytes are shown: count newlines, decode nothing.
    lines_only: bool,
}

impl Counter {
    fn new(show: &[bool; 5]) -> Counter {
        Counter { lines_only: !(show[1] || show[2] || show[4]), ..Counter::default() }
    }

    fn feed(&mut self, data: &[u8]) {
        self.c.bytes += data.len() as u64;
        if self.lines_only {
            self.c.lines += memchr::memchr_iter(b'\n', data).count() as u64;
            return;
        }
        let mut buf = std::mem::take(&mut self.pending);
        buf.extend_from_slice(data);
        let mut s = &buf[..];
        loop {
            match std::str::from_utf8(s) {
                Ok(v) => {
                    self.chars(v);
                    break;
                }
                Err(e) => {
                    let (good, rest) = s.split_at(e.valid_up_to());
                    self.chars(std::str::from_utf8(good).unwrap_or_default());
                    match e.error_len() {
                        Some(n) => s = &rest[n..],
                        None => {
                            self.pending = rest.to_vec();
                            break;
                        }
                    }
                }
            }
        }
    }

    fn chars(&mut self, s: &str) {
        for ch in s.chars() {
            self.c.chars += 1;
            match ch {
                '\n' | '\r' | '\x0c' => {
                    self.c.lines += u64::from(ch == '\n');
                    self.c.max_len = self.c.max_len.max(self.col);
                    self.col = 0;
                    self.in_word = false;
                }
                '\t' => {
                    self.col += 8 - self.col % 8;
                    self.in_word = false;
                }
                ' ' => {
                    self.col += 1;
                    self.in_word = false;
                }
                '\x0b' => self.in_word = false,
                c if c.is_control() => {}
                c => {
                    self.col += width(c);
                    if c.is_whitespace() || c == '\u{a0}' || c == '\u{2007}' || c == '\u{202f}' {
                        self.in_word = false;
                    } else if !self.in_word {
                        self.in_word = true;
                        self.c.words += 1;
                    }
                }
            }
        }
    }

    fn finish(mut self) -> Counts {
        self.c.max_len = self.c.max_len.max(self.col);
        self.c
    }
}

/// Display columns of a printable character (wcwidth, roughly: combining
/// marks 0, East Asian wide and emoji 2).
fn width(c: char) -> u64 {
    match u32::from(c) {
        0x300..=0x36f | 0x483..=0x489 | 0x591..=0x5bd | 0x200b..=0x200f | 0x20d0..=0x20ff | 0xfe00..=0xfe0f => 0,
        0x1100..=0x115f
        | 0x2e80..=0x303e
        | 0x3041..=0x33ff
        | 0x3400..=0x4dbf
        | 0x4e00..=0x9fff
        | 0xa000..=0xa4cf
        | 0xac00..=0xd7a3
        | 0xf900..=0xfaff
        | 0xfe30..=0xfe4f
        | 0xff00..=0xff60
        | 0xffe0..=0xffe6
        | 0x1f300..=0x1f64f
        | 0x1f900..=0x1f9ff
        | 0x20000..=0x3fffd => 2,
        _ => 1,
    }
}

#[async_trait]
impl Utility for Wc {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut show = [p.has("l"), p.has("w"), p.has("m"), p.has("c"), p.has("L")];
        if !show.iter().any(|&b| b) {
            show = [true, true, false, true, false];
        }
        let selected = show.iter().filter(|&&b| b).count();
        let named = !p.operands.is_empty();
        let files: Vec<String> = if named { p.operands.clone() } else { vec!["-".into()] };

        // GNU sizes the columns before counting: from the regular files'
        // sizes, at least 7 wide when stdin or a directory is involved.
        let mut width = 1;
        if !(files.len() == 1 && selected == 1) {
            let mut min = 1;
            let mut total = 0u64;
            for (i, f) in files.iter().enumerate() {
                if f == "-" {
                    min = 7;
                    continue;
                }
                match ctx.fs.metadata(&ctx.resolve(f)).await {
                    Ok(m) if m.file_type == FileType::File && !f.is_empty() => total += m.size,
                    Ok(_) if !f.is_empty() => min = 7,
                    _ if i == 0 => {
                        min = 1;
                        total = 0;
                        break;
                    }
                    _ => {}
                }
            }
            width = total.to_string().len().max(min);
        }
        let line = |c: &Counts, name: Option<&str>| {
            let vals = [c.lines, c.words, c.chars, c.bytes, c.max_len];
            let cols: Vec<String> =
                vals.iter().zip(show).filter(|(_, on)| *on).map(|(v, _)| format!("{v:>width$}")).collect();
            let mut s = cols.join(" ");
            if let Some(n) = name {
                s.push(' ');
                s.push_str(n);
            }
            s.push('\n');
            s
        };

        let mut status = 0;
        let mut total = Counts::default();
        for f in &files {
            let counts = if f.is_empty() {
                ctx.err("invalid zero-length file name").await?;
                status = 1;
                continue;
            } else {
                // Files and stdin alike are counted a chunk at a time.
                let input = if f == "-" { Ok(ctx.stdin.clone()) } else { ctx.open_input(f).await };
                match input {
                    Ok(input) => {
                        let mut k = Counter::new(&show);
                        while let Some(chunk) = input.read_chunk().await {
                            k.feed(&chunk);
                            if !ctx.still_running() {
                                break;
                            }
                        }
                        k.finish()
                    }
                    Err(e) => {
                        ctx.err(format!("{}: {e}", quotef(f))).await?;
                        status = 1;
                        // A directory still gets its (zero) line.
                        if e != crate::fs::FsError::IsADirectory.to_string() {
                            continue;
                        }
                        Counts::default()
                    }
                }
            };
            total.add(&counts);
            ctx.out(line(&counts, named.then_some(f.as_str())).as_bytes()).await?;
        }
        if files.len() > 1 {
            ctx.out(line(&total, Some("total")).as_bytes()).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    const F: (&str, &str) = ("f", "a b\nc\n");
    const G: (&str, &str) = ("g", "hello world\nfoo");

    #[test]
    fn counts_and_widths() {
        check(&["wc", "f"], &[F], "", "2 3 6 f\n", "", 0);
        check(&["wc", "-l", "f"], &[F], "", "2 f\n", "", 0);
        check(&["wc", "--lines", "f"], &[F], "", "2 f\n", "", 0);
        check(&["wc", "f", "g"], &[F, G], "", " 2  3  6 f\n 1  3 15 g\n 3  6 21 total\n", "", 0);
        check(&["wc", "-l", "f", "g"], &[F, G], "", " 2 f\n 1 g\n 3 total\n", "", 0);
        check(&["wc", "-lwmcL", "f"], &[F], "", "2 3 6 6 3 f\n", "", 0);
        check(&["wc", "-L", "f", "g"], &[F, G], "", " 3 f\n11 g\n11 total\n", "", 0);
        check(&["wc", "e"], &[("e", "")], "", "0 0 0 e\n", "", 0);
    }

    /// `-l`/`-c` alone count newlines without decoding (invalid and cut
    /// UTF-8 included); with `-w` the decoding path runs.
    #[test]
    fn lines_bytes_without_decoding() {
        use super::super::util::testutil::{make_fs, run_full};
        let fs = make_fs(&[]);
        let input = b"a\xff\nb\n\xe2\x82";
        let run = |argv: &[&str]| run_full(&fs, argv, input, &[], crate::limits::Limits::default()).out;
        assert_eq!(run(&["wc", "-lc"]), "      2       7\n");
        assert_eq!(run(&["wc", "-l"]), "2\n");
        assert_eq!(run(&["wc", "-lw"]), "      2       2\n");
    }

    #[test]
    fn stdin() {
        check(&["wc"], &[], "x\n", "      1       1       2\n", "", 0);
        check(&["wc", "-l"], &[], "x\n", "1\n", "", 0);
        check(
            &["wc", "f", "-"],
            &[F],
            "x\n",
            "      2       3       6 f\n      1       1       2 -\n      3       4       8 total\n",
            "",
            0,
        );
        check(&["wc", "-L"], &[], "a\tb\rccc\n", "9\n", "", 0);
        check(&["wc", "-m", "-c", "-w"], &[], "héllo wörld\n", "      2      12      14\n", "", 0);
        check(&["wc", "-w"], &[], "\x01a\u{80} b\n", "2\n", "", 0);
        check(&["wc", "-l"], &[], "no newline", "0\n", "", 0);
    }

    #[test]
    fn errors() {
        let nope = "wc: nope: No such file or directory\n";
        check(&["wc", "nope", "f"], &[F], "", "2 3 6 f\n2 3 6 total\n", nope, 1);
        check(&["wc", "f", "nope"], &[F], "", "2 3 6 f\n2 3 6 total\n", nope, 1);
        check(&["wc", "d"], &[("d/", "")], "", "      0       0       0 d\n", "wc: d: Is a directory\n", 1);
        check(
            &["wc", "-l", "d", "f"],
            &[("d/", ""), F],
            "",
            "      0 d\n      2 f\n      2 total\n",
            "wc: d: Is a directory\n",
            1,
        );
        check(&["wc", "-x"], &[], "", "", "wc: invalid option -- 'x'\nTry 'wc --help' for more information.\n", 1);
        check(&["wc", ""], &[], "", "", "wc: invalid zero-length file name\n", 1);
    }
}
