//! `hexdump` (util-linux 2.38) with its built-in formats: the default
//! (16-bit hex words), `-C` (canonical hex+ASCII), `-b`, `-c`, `-d`, `-o`,
//! `-x`, and `-e FORMAT` / `-f FILE` (in `hexdump_fmt`); `-n` length, `-s`
//! skip, `-v` (no `*` for repeated lines). Lines are
//! laid out as util-linux does: no blank after a line's last unit, missing
//! units at the end of input shown as blanks of the same width.

pub(crate) mod format;

use crate::commands::util::{parse_size, quotef, Spec};
use format::Program;
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Hexdump;

const SPEC: Spec = Spec::new(
    "bcCdoxn:s:ve:f:V",
    &[
        ("length", crate::commands::util::Arg::Yes, "n"),
        ("skip", crate::commands::util::Arg::Yes, "s"),
        ("no-squeezing", crate::commands::util::Arg::No, "v"),
        ("canonical", crate::commands::util::Arg::No, "C"),
        ("one-byte-octal", crate::commands::util::Arg::No, "b"),
        ("one-byte-char", crate::commands::util::Arg::No, "c"),
        ("two-bytes-decimal", crate::commands::util::Arg::No, "d"),
        ("two-bytes-octal", crate::commands::util::Arg::No, "o"),
        ("two-bytes-hex", crate::commands::util::Arg::No, "x"),
        ("format", crate::commands::util::Arg::Yes, "e"),
        ("format-file", crate::commands::util::Arg::Yes, "f"),
        ("version", crate::commands::util::Arg::No, "V"),
    ],
    "[options] <file>...",
);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fmt {
    Default,
    Canonical,
    Octal1,
    Char,
    Dec2,
    Oct2,
    Hex2,
}

impl Fmt {
    /// Bytes per unit.
    fn size(self) -> usize {
        match self {
            Fmt::Default | Fmt::Dec2 | Fmt::Oct2 | Fmt::Hex2 => 2,
            _ => 1,
        }
    }
    fn addr(self, off: u64) -> String {
        if self == Fmt::Canonical {
            format!("{off:08x}")
        } else {
            format!("{off:07x}")
        }
    }
    /// One unit; `bytes` may be short at end of input (missing bytes are 0).
    fn unit(self, bytes: &[u8]) -> String {
        let v = u16::from(bytes[0]) | (u16::from(*bytes.get(1).unwrap_or(&0)) << 8);
        match self {
            Fmt::Default => format!("{v:04x}"),
            Fmt::Canonical => format!("{:02x}", bytes[0]),
            Fmt::Octal1 => format!("{:03o}", bytes[0]),
            Fmt::Char => match bytes[0] {
                0 => " \\0".into(),
                7 => " \\a".into(),
                8 => " \\b".into(),
                12 => " \\f".into(),
                10 => " \\n".into(),
                13 => " \\r".into(),
                9 => " \\t".into(),
                11 => " \\v".into(),
                c @ 32..=126 => format!("  {}", c as char),
                c => format!("{c:03o}"),
            },
            Fmt::Dec2 => format!("  {v:05}"),
            Fmt::Oct2 => format!(" {v:06o}"),
            Fmt::Hex2 => format!("   {v:04x}"),
        }
    }
    fn unit_width(self) -> usize {
        match self {
            Fmt::Default => 4,
            Fmt::Canonical => 2,
            Fmt::Octal1 | Fmt::Char => 3,
            _ => 7,
        }
    }

    /// The line for `block` (16 bytes or fewer at the end) at `off`.
    fn line(self, off: u64, block: &[u8], out: &mut Vec<u8>) {
        let mut s = self.addr(off);
        s.push_str(if self == Fmt::Canonical { "  " } else { " " });
        let units = 16 / self.size();
        for u in 0..units {
            if u > 0 {
                s.push(' ');
                if self == Fmt::Canonical && u == 8 {
                    s.push(' ');
                }
            }
            let start = u * self.size();
            if start < block.len() {
                s.push_str(&self.unit(&block[start..block.len().min(start + self.size())]));
            } else {
                s.extend(std::iter::repeat_n(' ', self.unit_width()));
            }
        }
        if self == Fmt::Canonical {
            s.push_str("  |");
            s.extend(block.iter().map(|&c| if (32..127).contains(&c) { c as char } else { '.' }));
            s.push('|');
        }
        s.push('\n');
        out.extend_from_slice(s.as_bytes());
    }
}

#[async_trait]
impl Utility for Hexdump {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.has("V") {
            ctx.out(b"hexdump from util-linux 2.38.1\n").await?;
            return Ok(0);
        }
        let mut fmts = Vec::new();
        let mut program = Program::default();
        let (mut length, mut skip) = (None, 0u64);
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            match o.id {
                "b" => fmts.push(Fmt::Octal1),
                "c" => fmts.push(Fmt::Char),
                "C" => fmts.push(Fmt::Canonical),
                "d" => fmts.push(Fmt::Dec2),
                "o" => fmts.push(Fmt::Oct2),
                "x" => fmts.push(Fmt::Hex2),
                "n" | "s" => match parse_size(v) {
                    Some(n) if o.id == "n" => length = Some(n),
                    Some(n) => skip = n,
                    None => {
                        let what = if o.id == "n" { "length" } else { "offset" };
                        return Err(UError::new(1, format!("failed to parse {what}: '{v}': Invalid argument")));
                    }
                },
                "e" | "f" => {
                    let text = if o.id == "e" {
                        v.to_string()
                    } else {
                        match ctx.read_operand(v).await {
                            Ok(d) => String::from_utf8_lossy(&d).into_owned(),
                            Err(e) => {
                                return Err(UError::new(1, format!("{}: {e}", quotef(v))));
                            }
                        }
                    };
                    let lines: Vec<&str> = if o.id == "e" { vec![text.as_str()] } else { text.lines().collect() };
                    for line in lines {
                        if o.id == "f" && (line.trim().is_empty() || line.trim_start().starts_with('#')) {
                            continue;
                        }
                        if let Err(m) = program.add(line) {
                            return Err(UError::new(1, m));
                        }
                    }
                }
                _ => {}
            }
        }
        let custom = !program.strings.is_empty();
        program.finish();
        if fmts.is_empty() && !custom {
            fmts.push(Fmt::Default);
        }
        // A block is 16 bytes for the built-in formats, else what -e reads.
        let bs = if custom { program.block } else { 16 };
        if bs == 0 {
            return Ok(0);
        }
        let emit = |off: u64, block: &[u8], out: &mut Vec<u8>| {
            if custom {
                program.render(block, off, out);
            } else {
                for fm in &fmts {
                    fm.line(off, block, out);
                }
            }
        };
        let squeeze = !p.has("v");
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let (mut failed, mut opened) = (0usize, 0usize);
        let mut to_skip = skip;
        let mut left = length;
        // Skipped bytes count in the offsets; standard input is "seeked", so
        // a skip past its end still moves the final offset.
        let mut off = 0u64;
        let mut block: Vec<u8> = Vec::with_capacity(bs);
        let mut prev: Option<Vec<u8>> = None;
        let mut starred = false;
        let mut out = Vec::new();
        let mut dumped = 0u64;
        for f in &files {
            if left == Some(0) {
                break;
            }
            let input = match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    failed += 1;
                    continue;
                }
            };
            opened += 1;
            while let Some(chunk) = input.read_chunk().await {
                let mut data: &[u8] = &chunk;
                if to_skip > 0 {
                    let n = (to_skip as usize).min(data.len());
                    data = &data[n..];
                    to_skip -= n as u64;
                    off += n as u64;
                }
                if let Some(l) = left.as_mut() {
                    let n = (*l as usize).min(data.len());
                    data = &data[..n];
                    *l -= n as u64;
                }
                dumped += data.len() as u64;
                while !data.is_empty() {
                    let take = (bs - block.len()).min(data.len());
                    block.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    if block.len() == bs {
                        if squeeze && prev.as_ref() == Some(&block) {
                            if !starred {
                                out.extend_from_slice(b"*\n");
                                starred = true;
                            }
                        } else {
                            starred = false;
                            emit(off, &block, &mut out);
                        }
                        off += bs as u64;
                        prev = Some(std::mem::take(&mut block));
                    }
                }
                if out.len() >= 64 * 1024 {
                    ctx.out(&std::mem::take(&mut out)).await?;
                }
                if left == Some(0) || !ctx.still_running() {
                    break;
                }
            }
        }
        if !block.is_empty() {
            emit(off, &block, &mut out);
            off += block.len() as u64;
        }
        if p.operands.is_empty() {
            off += to_skip;
        }
        let _ = dumped;
        if off > 0 && !custom {
            // util-linux takes the last format's address style.
            out.extend_from_slice(fmts[fmts.len() - 1].addr(off).as_bytes());
            out.push(b'\n');
        }
        ctx.out(&out).await?;
        if opened == 0 && failed > 0 {
            return Err(UError::new(1, "all input file arguments failed"));
        }
        Ok(i32::from(failed > 0))
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const DATA: &str = "hello world\nthis\tis\0\x01\x7fé end";

    fn hd(args: &[&str], out: &str) {
        let mut argv = vec!["hexdump"];
        argv.extend_from_slice(args);
        argv.push("o.bin");
        check(&argv, &[("o.bin", DATA)], "", out, "", 0);
    }

    #[test]
    fn formats() {
        hd(
            &[],
            "0000000 6568 6c6c 206f 6f77 6c72 0a64 6874 7369\n0000010 6909 0073 7f01 a9c3 6520 646e          \n000001c\n",
        );
        hd(
            &["-C"],
            "00000000  68 65 6c 6c 6f 20 77 6f  72 6c 64 0a 74 68 69 73  |hello world.this|\n\
             00000010  09 69 73 00 01 7f c3 a9  20 65 6e 64              |.is..... end|\n0000001c\n",
        );
        hd(&["-C", "-n", "5"], "00000000  68 65 6c 6c 6f                                    |hello|\n00000005\n");
        hd(
            &["-C", "-s", "3", "-n", "20"],
            "00000003  6c 6f 20 77 6f 72 6c 64  0a 74 68 69 73 09 69 73  |lo world.this.is|\n\
             00000013  00 01 7f c3                                       |....|\n00000017\n",
        );
        hd(
            &["-c", "-n", "20"],
            "0000000   h   e   l   l   o       w   o   r   l   d  \\n   t   h   i   s\n\
             0000010  \\t   i   s  \\0                                                \n0000014\n",
        );
        hd(&["-b", "-n", "5"], "0000000 150 145 154 154 157                                            \n0000005\n");
        hd(&["-d", "-n", "6"], "0000000   25960   27756   08303                                        \n0000006\n");
        hd(&["-o", "-n", "6"], "0000000  062550  066154  020157                                        \n0000006\n");
        hd(&["-x", "-n", "7"], "0000000    6568    6c6c    206f    0077                                \n0000007\n");
        hd(&["-s", "100"], "000001c\n");
        hd(&["-s", "27"], "000001b 0064                                   \n000001c\n");
        hd(&["-C", "-x", "-n", "2"], "00000000  68 65                                             |he|\n0000000    6568                                                        \n0000002\n");
        check(&["hexdump", "-s", "10"], &[], "", "000000a\n", "", 0);
        check(&["hexdump", "-s", "10", "em"], &[("em", "")], "", "", "", 0);
    }

    #[test]
    fn squeeze_and_errors() {
        let z = "\0".repeat(64);
        check(
            &["hexdump", "-C"],
            &[],
            &z,
            "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000040\n",
            "",
            0,
        );
        check(&["hexdump"], &[], &z, "0000000 0000 0000 0000 0000 0000 0000 0000 0000\n*\n0000040\n", "", 0);
        check(
            &["hexdump", "-C"],
            &[],
            "abcdefghijklmnopabcdefghijklmnopabcdefghijklmnopq",
            "00000000  61 62 63 64 65 66 67 68  69 6a 6b 6c 6d 6e 6f 70  |abcdefghijklmnop|\n*\n\
             00000030  71                                                |q|\n00000031\n",
            "",
            0,
        );
        check(&["hexdump"], &[], "abc", "0000000 6261 0063                              \n0000003\n", "", 0);
        check(&["hexdump", "-C"], &[], "", "", "", 0);
        check(
            &["hexdump", "nofile"],
            &[],
            "",
            "",
            "hexdump: nofile: No such file or directory\nhexdump: all input file arguments failed\n",
            1,
        );
        check(&["hexdump", "-n", "x"], &[], "", "", "hexdump: failed to parse length: 'x': Invalid argument\n", 1);
    }

    fn hd_e(args: &[&str], out: &str) {
        let mut argv = vec!["hexdump"];
        argv.extend_from_slice(args);
        argv.push("o.bin");
        check(&argv, &[("o.bin", DATA)], "", out, "", 0);
    }

    #[test]
    fn custom_formats() {
        hd_e(
            &["-e", "16/1 \"%02x \" \"\\n\""],
            "68 65 6c 6c 6f 20 77 6f 72 6c 64 0a 74 68 69 73\n09 69 73 00 01 7f c3 a9 20 65 6e 64            \n",
        );
        hd_e(&["-e", "\"%07.7_ax \" 16/1 \"%02x \" \"\\n\""], "0000000 68 65 6c 6c 6f 20 77 6f 72 6c 64 0a 74 68 69 73\n0000010 09 69 73 00 01 7f c3 a9 20 65 6e 64            \n");
        hd_e(&["-e", "\"%_ad: \" 8/1 \"%3u\" \"\\n\""], "0: 104101108108111 32119111\n8: 114108100 10116104105115\n16:   9105115  0  1127195169\n24:  32101110100            \n");
        hd_e(
            &["-e", "4/4 \"%08x \" \"\\n\""],
            "6c6c6568 6f77206f 0a646c72 73696874\n00736909 a9c37f01 646e6520         \n",
        );
        hd_e(&["-e", "16/1 \"%_p\" \"\\n\""], "hello world.this\n.is..... end\n");
        hd_e(&["-e", "\"%_p\""], "hel*\no world.this.is..... end");
        hd_e(&["-e", "8/1 \"%_c\""], "hello world\\nthis\\tis\\0001177303251 end");
        hd_e(
            &["-e", "4/1 \"%_u \"  \"\\n\""],
            "h e l l\no   w o\nr l d lf\nt h i s\nht i s nul\nsoh del c3 a9\n  e n d\n",
        );
        hd_e(&["-e", "4/1 \"%d,\" \"\\n\""], "104,101,108,108,\n111,32,119,111,\n114,108,100,10,\n116,104,105,115,\n9,105,115,0,\n1,127,-61,-87,\n32,101,110,100,\n");
        hd_e(&["-e", "2/8 \"%g \" \"\\n\""], "8.76578e+228 8.88254e+247\n-1.66027e-107 8.32479e-315\n");
        hd_e(
            &["-e", "1/4 \"%e\\n\""],
            "1.143141e+27\n7.648201e+28\n1.099820e-32\n1.849249e+31\n1.059876e-38\n-8.681771e-14\n1.759045e+22\n",
        );
        hd_e(&["-e", "/1 \"%02X\""], "68656C*\n6F20776F726C640A7468697309697300017FC3A920656E64");
        hd_e(&["-e", "4/1 \"%-4x|\" \"\\n\""], "68  |65  |6c  |6c  |\n6f  |20  |77  |6f  |\n72  |6c  |64  |a   |\n74  |68  |69  |73  |\n9   |69  |73  |0   |\n1   |7f  |c3  |a9  |\n20  |65  |6e  |64  |\n");
        hd_e(&["-e", "2 \"%6.2f \" \"\\n\""], "8765776478827896752415861891805381786472929822085132587311968511214977167546386789061289717849697443741620521757807089201431832352601508478441114935690737474610033398673881254958673203179880650089811189288308205968706663415283712.00 88825422587620463258328082807166109820266466526870425208404511121911388298396505759186953329132542757744721879107415126627081506577499492529996001772610492209340138817767754892319493144474388714738977215806309617051353026465856386590539568985931776.00\n -0.00   0.00\n");
    }

    #[test]
    fn custom_blocks() {
        check(&["hexdump", "-e", "\"%_p\""], &[], "abbbbcd", "ab*\ncd", "", 0);
        check(&["hexdump", "-v", "-e", "\"%_p\""], &[], "abbbbcd", "abbbbcd", "", 0);
        // The shorter string's last unit repeats to fill the block.
        let out = "61626364\na\nb\nc\nd656667  \ne\nf\ng\n";
        check(&["hexdump", "-e", "4/1 \"%02x\" \"\\n\"", "-e", "\"%_p\\n\""], &[], "abcdefg", out, "", 0);
        check(&["hexdump", "-f", "fmt"], &[("fmt", "# comment\n4/1 \"%02x\" \"\\n\"\n")], "abcd", "61626364\n", "", 0);
    }

    #[test]
    fn custom_errors() {
        let e = "hexdump: %s requires a precision or a byte count\n";
        check(&["hexdump", "-e", "\"%s\\n\""], &[], "x", "", e, 1);
        let e = "hexdump: bad byte count for conversion character d\n";
        check(&["hexdump", "-e", "1/3 \"%d\""], &[], "x", "", e, 1);
        check(&["hexdump", "-e", "\"%y\""], &[], "x", "", "hexdump: bad conversion character %y\n", 1);
    }
}
