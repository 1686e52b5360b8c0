//! `cat`: concatenate files. `-n`/`-b` number lines, `-s` squeezes blank lines,
//! `-E`/`-T`/`-v` (and `-A`, `-e`, `-t`) show ends, tabs and nonprinting bytes in
//! GNU's `^X`/`M-x` notation. Input is processed a chunk at a time, and the
//! line state carries across files as in GNU cat.

use super::util::{quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Cat;

const SPEC: Spec = Spec::new(
    "AbeEnstTuv",
    &[
        ("show-all", Arg::No, "A"),
        ("number-nonblank", Arg::No, "b"),
        ("show-ends", Arg::No, "E"),
        ("number", Arg::No, "n"),
        ("squeeze-blank", Arg::No, "s"),
        ("show-tabs", Arg::No, "T"),
        ("show-nonprinting", Arg::No, "v"),
    ],
    "[OPTION]... [FILE]...",
);

/// The options, and the line state that continues from one file to the next.
#[derive(Default)]
struct State {
    number: bool,
    nonblank: bool,
    ends: bool,
    squeeze: bool,
    tabs: bool,
    nonprinting: bool,
    line: u64,
    at_start: bool,
    /// Empty lines seen in a row.
    blanks: u32,
}

impl State {
    fn plain(&self) -> bool {
        !(self.number || self.nonblank || self.ends || self.squeeze || self.tabs || self.nonprinting)
    }

    fn put_number(&mut self, out: &mut Vec<u8>) {
        self.line += 1;
        out.extend_from_slice(format!("{:>6}\t", self.line).as_bytes());
    }

    /// Transform one chunk.
    fn chunk(&mut self, data: &[u8], out: &mut Vec<u8>) {
        for &c in data {
            if c == b'\n' {
                if self.at_start {
                    self.blanks += 1;
                    if self.squeeze && self.blanks >= 2 {
                        continue;
                    }
                    if self.number && !self.nonblank {
                        self.put_number(out);
                    }
                }
                if self.ends {
                    out.push(b'$');
                }
                out.push(b'\n');
                self.at_start = true;
                continue;
            }
            if self.at_start {
                if self.number || self.nonblank {
                    self.put_number(out);
                }
                self.at_start = false;
                self.blanks = 0;
            }
            self.byte(c, out);
        }
    }

    fn byte(&self, c: u8, out: &mut Vec<u8>) {
        if c == b'\t' {
            out.extend_from_slice(if self.tabs { b"^I" } else { b"\t" });
        } else if !self.nonprinting {
            out.push(c);
        } else {
            let low = if c >= 128 {
                out.extend_from_slice(b"M-");
                c - 128
            } else {
                c
            };
            match low {
                0..=31 => out.extend_from_slice(&[b'^', low + 64]),
                127 => out.extend_from_slice(b"^?"),
                _ => out.push(low),
            }
        }
    }
}

/// Write `data` through the state (or as it is).
/// GNU cat will not copy a nonempty file to itself (`cat f >> f`, `cat < f
/// >> f` would only fill the disk).
async fn copies_to_itself(ctx: &CommandContext<'_>, path: &str) -> bool {
    ctx.stdout.file_path() == Some(path) && ctx.fs.metadata(path).await.is_ok_and(|m| !m.is_dir() && m.size > 0)
}

async fn emit(ctx: &CommandContext<'_>, st: &mut State, data: &[u8]) -> Result<(), IoError> {
    if st.plain() {
        return ctx.out(data).await;
    }
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 16);
    st.chunk(data, &mut out);
    ctx.out(&out).await
}

#[async_trait]
impl Utility for Cat {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut st = State { at_start: true, ..State::default() };
        for o in &p.opts {
            match o.id {
                "A" => (st.nonprinting, st.ends, st.tabs) = (true, true, true),
                "b" => st.nonblank = true,
                "e" => (st.nonprinting, st.ends) = (true, true),
                "E" => st.ends = true,
                "n" => st.number = true,
                "s" => st.squeeze = true,
                "t" => (st.nonprinting, st.tabs) = (true, true),
                "T" => st.tabs = true,
                "v" => st.nonprinting = true,
                _ => {}
            }
        }
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands };
        let mut status = 0;
        for f in &files {
            // stdin and devices (`/dev/zero`) are streamed a chunk at a time, never held whole.
            let streamed = f == "-" || crate::io::Input::device(&ctx.resolve(f)).is_some();
            if f == "-" {
                if let Some(path) = ctx.stdin.file_path().map(str::to_string) {
                    if copies_to_itself(ctx, &path).await {
                        ctx.err("-: input file is output file").await?;
                        status = 1;
                        continue;
                    }
                }
            }
            if streamed {
                let input = ctx.open_input(f).await.unwrap_or_else(|_| crate::io::Input::null());
                while let Some(chunk) = input.read_chunk().await {
                    emit(ctx, &mut st, &chunk).await?;
                    if !ctx.still_running() {
                        return Ok(1);
                    }
                }
                continue;
            }
            let path = ctx.resolve(f);
            if copies_to_itself(ctx, &path).await {
                ctx.err(format!("{}: input file is output file", quotef(f))).await?;
                status = 1;
                continue;
            }
            match ctx.fs.open(&path).await {
                Ok(input) => {
                    while let Some(chunk) = input.read_chunk().await {
                        for piece in chunk.chunks(64 * 1024) {
                            emit(ctx, &mut st, piece).await?;
                        }
                        if !ctx.still_running() {
                            return Ok(1);
                        }
                    }
                }
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                }
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    const F: &str = "a\tb\x01\x7f\n\n\n\nc\u{e9}\n";
    const G: &str = "\n\nx";

    fn files() -> Vec<(&'static str, &'static str)> {
        vec![("f", F), ("g", G), ("d/", "")]
    }

    #[test]
    fn plain_and_stdin() {
        check(&["cat", "f", "g"], &files(), "", &format!("{F}{G}"), "", 0);
        check(&["cat"], &[], "in\n", "in\n", "", 0);
        check(&["cat", "-", "g", "-"], &files(), "in", "in\n\nx", "", 0);
        check(&["cat"], &[], "", "", "", 0);
    }

    // Expected outputs from GNU cat 9.1 on the same bytes (é is \xc3\xa9).
    #[test]
    fn show_options() {
        let fs = files();
        check(&["cat", "-A", "f", "g"], &fs, "", "a^Ib^A^?$\n$\n$\n$\ncM-CM-)$\n$\n$\nx", "", 0);
        check(&["cat", "-e", "f", "g"], &fs, "", "a\tb^A^?$\n$\n$\n$\ncM-CM-)$\n$\n$\nx", "", 0);
        check(&["cat", "-E", "f"], &fs, "", "a\tb\x01\x7f$\n$\n$\n$\nc\u{e9}$\n", "", 0);
        check(&["cat", "-t", "f"], &fs, "", "a^Ib^A^?\n\n\n\ncM-CM-)\n", "", 0);
        check(&["cat", "-T", "f"], &fs, "", "a^Ib\x01\x7f\n\n\n\nc\u{e9}\n", "", 0);
        check(&["cat", "-v", "f"], &fs, "", "a\tb^A^?\n\n\n\ncM-CM-)\n", "", 0);
        check(&["cat", "--show-all"], &[], "\u{80}\u{9f}", "M-BM-^@M-BM-^_", "", 0);
    }

    #[test]
    fn numbering_and_squeeze() {
        let fs = files();
        check(&["cat", "-s", "f", "g"], &fs, "", "a\tb\x01\x7f\n\nc\u{e9}\n\nx", "", 0);
        check(
            &["cat", "-n", "f", "g"],
            &fs,
            "",
            "     1\ta\tb\x01\x7f\n     2\t\n     3\t\n     4\t\n     5\tc\u{e9}\n     6\t\n     7\t\n     8\tx",
            "",
            0,
        );
        let b = "     1\ta\tb\x01\x7f\n\n\n\n     2\tc\u{e9}\n\n\n     3\tx";
        check(&["cat", "-b", "f", "g"], &fs, "", b, "", 0);
        check(&["cat", "-bn", "f", "g"], &fs, "", b, "", 0);
        check(
            &["cat", "-sn", "f", "g"],
            &fs,
            "",
            "     1\ta\tb\x01\x7f\n     2\t\n     3\tc\u{e9}\n     4\t\n     5\tx",
            "",
            0,
        );
        check(&["cat", "-sb", "f", "g"], &fs, "", "     1\ta\tb\x01\x7f\n\n     2\tc\u{e9}\n\n     3\tx", "", 0);
        // A line without newline continues into the next file.
        check(
            &["cat", "-nA", "-", "f"],
            &fs,
            G,
            "     1\t$\n     2\t$\n     3\txa^Ib^A^?$\n     4\t$\n     5\t$\n     6\t$\n     7\tcM-CM-)$\n",
            "",
            0,
        );
    }

    #[test]
    fn errors() {
        check(
            &["cat", "f", "nope", "d", "g"],
            &files(),
            "",
            &format!("{F}{G}"),
            "cat: nope: No such file or directory\ncat: d: Is a directory\n",
            1,
        );
        check(&["cat", "-z"], &[], "", "", "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n", 1);
        check(&["cat", "-u", "f"], &files(), "", F, "", 0);
    }
}
