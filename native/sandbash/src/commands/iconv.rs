//! `iconv` (glibc 2.36, C.UTF-8 locale): convert between UTF-8, ASCII,
//! ISO-8859-1, CP1252, UTF-16 and UTF-32 (BOM forms and LE/BE), with
//! `//TRANSLIT` approximations, `//IGNORE` and `-c` skipping, `-l`. Output
//! converted before an error is written, as glibc does.

use super::util::{Arg, OptError, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Iconv;

const SPEC: Spec = Spec::new(
    "f:t:lco:s",
    &[
        ("from-code", Arg::Yes, "f"),
        ("to-code", Arg::Yes, "t"),
        ("list", Arg::No, "l"),
        ("output", Arg::Yes, "o"),
        ("silent", Arg::No, "s"),
    ],
    "[OPTION...] [FILE...]",
);

const TRY: &str = "Try `iconv --help' or `iconv --usage' for more information.\n";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Enc {
    Utf8,
    Ascii,
    Latin1,
    Cp1252,
    /// UTF-16/UTF-32: `bom` means "write one, and detect one on input".
    Utf16 {
        le: bool,
        bom: bool,
    },
    Utf32 {
        le: bool,
        bom: bool,
    },
}

/// The names `-l` shows, one per encoding family.
const NAMES: &[&str] = &[
    "ANSI_X3.4-1968",
    "ASCII",
    "CP1252",
    "ISO-8859-1",
    "ISO_8859-1",
    "LATIN1",
    "US-ASCII",
    "UTF-16",
    "UTF-16BE",
    "UTF-16LE",
    "UTF-32",
    "UTF-32BE",
    "UTF-32LE",
    "UTF-8",
    "UTF8",
    "WINDOWS-1252",
];

/// An encoding name and its `//TRANSLIT` / `//IGNORE` suffixes.
fn lookup(name: &str) -> Option<(Enc, bool, bool)> {
    let mut parts = name.split("//");
    let base = parts.next().unwrap_or("");
    let (mut translit, mut ignore) = (false, false);
    for s in parts {
        for flag in s.split(',') {
            match flag.to_ascii_uppercase().as_str() {
                "TRANSLIT" => translit = true,
                "IGNORE" => ignore = true,
                _ => {}
            }
        }
    }
    let key: String = base.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).collect::<String>().to_ascii_uppercase();
    let enc = match key.as_str() {
        "" | "UTF8" => Enc::Utf8,
        "ASCII" | "USASCII" | "ANSIX3.41968" | "646" => Enc::Ascii,
        "LATIN1" | "ISO88591" | "ISO885911987" | "L1" | "IBM819" | "CP819" => Enc::Latin1,
        "CP1252" | "WINDOWS1252" | "MSANSI" => Enc::Cp1252,
        "UTF16" => Enc::Utf16 { le: true, bom: true },
        "UTF16LE" => Enc::Utf16 { le: true, bom: false },
        "UTF16BE" => Enc::Utf16 { le: false, bom: false },
        "UTF32" => Enc::Utf32 { le: true, bom: true },
        "UTF32LE" => Enc::Utf32 { le: true, bom: false },
        "UTF32BE" => Enc::Utf32 { le: false, bom: false },
        _ => return None,
    };
    Some((enc, translit, ignore))
}

/// CP1252's 0x80-0x9F (0 where the code page has a hole).
const CP1252: [u16; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, 0,
    0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

/// Why decoding stopped at a byte.
enum DecErr {
    Illegal,
    Incomplete,
}

/// Decode one character at the start of `d`: the character and its length.
fn decode(enc: Enc, d: &[u8]) -> Result<(char, usize), DecErr> {
    let unit = |n: usize, le: bool| unit_at(d, n, le);
    match enc {
        Enc::Utf8 => {
            let n = match d[0] {
                0..=0x7f => 1,
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => return Err(DecErr::Illegal),
            };
            if d.len() < n {
                return match std::str::from_utf8(d) {
                    Err(e) if e.error_len().is_none() => Err(DecErr::Incomplete),
                    _ => Err(DecErr::Illegal),
                };
            }
            let s = std::str::from_utf8(&d[..n]).map_err(|_| DecErr::Illegal)?;
            s.chars().next().map(|c| (c, n)).ok_or(DecErr::Illegal)
        }
        Enc::Ascii if d[0] < 0x80 => Ok((char::from(d[0]), 1)),
        Enc::Ascii => Err(DecErr::Illegal),
        Enc::Latin1 => Ok((char::from(d[0]), 1)),
        Enc::Cp1252 => match d[0] {
            b @ 0x80..=0x9f => match CP1252[usize::from(b - 0x80)] {
                0 => Err(DecErr::Illegal),
                u => char::from_u32(u32::from(u)).map(|c| (c, 1)).ok_or(DecErr::Illegal),
            },
            b => Ok((char::from(b), 1)),
        },
        Enc::Utf16 { le, .. } => {
            let u = unit(2, le).ok_or(DecErr::Incomplete)?;
            if (0xd800..0xdc00).contains(&u) {
                let lo = d.get(2..).map(|r| unit_at(r, 2, le)).ok_or(DecErr::Incomplete)?.ok_or(DecErr::Incomplete)?;
                if !(0xdc00..0xe000).contains(&lo) {
                    return Err(DecErr::Illegal);
                }
                let c = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                return char::from_u32(c).map(|c| (c, 4)).ok_or(DecErr::Illegal);
            }
            char::from_u32(u).map(|c| (c, 2)).ok_or(DecErr::Illegal)
        }
        Enc::Utf32 { le, .. } => {
            let u = unit(4, le).ok_or(DecErr::Incomplete)?;
            char::from_u32(u).map(|c| (c, 4)).ok_or(DecErr::Illegal)
        }
    }
}

/// An `n`-byte code unit at the start of `d`.
fn unit_at(d: &[u8], n: usize, le: bool) -> Option<u32> {
    let b = d.get(..n)?;
    Some(if le {
        b.iter().rev().fold(0u32, |a, &x| a << 8 | u32::from(x))
    } else {
        b.iter().fold(0u32, |a, &x| a << 8 | u32::from(x))
    })
}

/// Append `c` encoded; `false` when the target cannot hold it.
fn encode(enc: Enc, c: char, out: &mut Vec<u8>) -> bool {
    let u = u32::from(c);
    match enc {
        Enc::Utf8 => {
            let mut b = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
        }
        Enc::Ascii if u < 0x80 => out.push(u as u8),
        Enc::Latin1 if u < 0x100 => out.push(u as u8),
        Enc::Cp1252 if u < 0x80 || (0xa0..0x100).contains(&u) => out.push(u as u8),
        Enc::Cp1252 => match CP1252.iter().position(|&x| x != 0 && u32::from(x) == u) {
            Some(i) => out.push(0x80 + i as u8),
            None => return false,
        },
        Enc::Utf16 { le, .. } => {
            let mut b = [0u16; 2];
            for w in c.encode_utf16(&mut b) {
                out.extend_from_slice(&if le { w.to_le_bytes() } else { w.to_be_bytes() });
            }
        }
        Enc::Utf32 { le, .. } => out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() }),
        _ => return false,
    }
    true
}

/// glibc's C.UTF-8 transliterations for characters the target lacks.
fn translit(c: char) -> &'static str {
    const LATIN: [&str; 64] = [
        "A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I", "D", "N", "O", "O", "O", "O",
        "O", "x", "O", "U", "U", "U", "U", "Y", "TH", "ss", "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e",
        "e", "i", "i", "i", "i", "d", "n", "o", "o", "o", "o", "o", "?", "o", "u", "u", "u", "u", "y", "th", "y",
    ];
    match c {
        '\u{c0}'..='\u{ff}' => LATIN[(u32::from(c) - 0xc0) as usize],
        '\u{a0}' => " ",
        '\u{a9}' => "(C)",
        '\u{ae}' => "(R)",
        '\u{ab}' => "<<",
        '\u{bb}' => ">>",
        '\u{bc}' => " 1/4 ",
        '\u{bd}' => " 1/2 ",
        '\u{be}' => " 3/4 ",
        '\u{2018}' | '\u{2019}' | '\u{201a}' => "'",
        '\u{201c}' | '\u{201d}' | '\u{201e}' => "\"",
        '\u{2013}' => "-",
        '\u{2014}' => "--",
        '\u{2026}' => "...",
        '\u{20ac}' => "EUR",
        '\u{2122}' => "(TM)",
        '\u{152}' => "OE",
        '\u{153}' => "oe",
        _ => "?",
    }
}

#[async_trait]
impl Utility for Iconv {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = match super::util::parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out(b"Usage: iconv [OPTION...] [FILE...]\nConvert encoding of given files from one encoding to another.\n").await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(b"iconv (Debian GLIBC 2.36-9+deb12u14) 2.36\n").await?;
                return Ok(0);
            }
            Err(e) => {
                ctx.stderr.write(format!("iconv: {e}\n{TRY}").as_bytes()).await?;
                return Ok(64);
            }
        };
        if p.has("l") {
            let list: String = NAMES.iter().map(|n| format!("{n}//\n")).collect();
            ctx.out(list.as_bytes()).await?;
            return Ok(0);
        }
        let from = lookup(p.last("f").unwrap_or("UTF-8"));
        let to = lookup(p.last("t").unwrap_or("UTF-8"));
        let (Some((from, _, _)), Some((to, translit_on, ignore))) = (from, to) else {
            return Err(UError::new(1, "failed to start conversion processing: No such file or directory"));
        };
        let skip = p.has("c");
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut out = Vec::new();
        let mut status = 0;
        // `-o FILE` collects everything and writes it at the end.
        let to_file = p.last("o").map(|f| ctx.resolve(f));
        if matches!(to, Enc::Utf16 { bom: true, .. } | Enc::Utf32 { bom: true, .. }) {
            encode(to, '\u{feff}', &mut out);
        }
        for f in &files {
            let input = match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) => {
                    ctx.err(format!("cannot open input file `{f}': {e}")).await?;
                    status = 1;
                    continue;
                }
            };
            // The input is converted a chunk at a time: `data` holds what is
            // not converted yet (a character cut by a chunk's end waits for
            // the next), `base` how many bytes came before it.
            let mut data: Vec<u8> = Vec::new();
            let (mut base, mut eof, mut bom_checked) = (0u64, false, false);
            let mut from = from;
            let mut i = 0;
            let mut failed: Option<String> = None;
            let mut ignored = false;
            'input: loop {
                if !eof {
                    match input.read_chunk().await {
                        Some(c) => {
                            data.drain(..i);
                            base += i as u64;
                            i = 0;
                            data.extend_from_slice(&c);
                        }
                        None => eof = true,
                    }
                    // The BOM check wants the first four bytes (or all there are).
                    if !bom_checked && data.len() < 4 && !eof {
                        continue;
                    }
                }
                if !bom_checked {
                    bom_checked = true;
                    // A BOM picks the byte order of UTF-16/UTF-32 input.
                    match from {
                        Enc::Utf16 { bom: true, .. } if data.starts_with(&[0xfe, 0xff]) => {
                            (from, i) = (Enc::Utf16 { le: false, bom: true }, 2)
                        }
                        Enc::Utf16 { bom: true, .. } if data.starts_with(&[0xff, 0xfe]) => i = 2,
                        Enc::Utf32 { bom: true, .. } if data.starts_with(&[0, 0, 0xfe, 0xff]) => {
                            (from, i) = (Enc::Utf32 { le: false, bom: true }, 4)
                        }
                        Enc::Utf32 { bom: true, .. } if data.starts_with(&[0xff, 0xfe, 0, 0]) => i = 4,
                        _ => {}
                    }
                }
                while i < data.len() {
                    match decode(from, &data[i..]) {
                        Ok((c, n)) => {
                            if !encode(to, c, &mut out) {
                                if translit_on {
                                    for t in translit(c).chars() {
                                        encode(to, t, &mut out);
                                    }
                                } else if skip || ignore {
                                    ignored = true;
                                } else {
                                    failed = Some(format!("illegal input sequence at position {}", base + i as u64));
                                    break 'input;
                                }
                            }
                            i += n;
                        }
                        Err(DecErr::Illegal) if skip || ignore => {
                            ignored = true;
                            i += 1;
                        }
                        Err(DecErr::Illegal) => {
                            failed = Some(format!("illegal input sequence at position {}", base + i as u64));
                            break 'input;
                        }
                        // The rest of the character is in the next chunk.
                        Err(DecErr::Incomplete) if !eof => break,
                        Err(DecErr::Incomplete) => {
                            failed = Some("incomplete character or shift sequence at end of buffer".into());
                            break 'input;
                        }
                    }
                }
                if to_file.is_none() && !out.is_empty() {
                    ctx.out(&out).await?;
                    out.clear();
                }
                if eof {
                    break;
                }
                if !ctx.still_running() {
                    return Ok(1);
                }
            }
            let total = base + data.len() as u64;
            if failed.is_none() && ignored && ignore && !skip {
                failed = Some(format!("illegal input sequence at position {total}"));
            }
            if to_file.is_none() {
                ctx.out(&out).await?;
                out.clear();
            }
            if let Some(m) = failed {
                ctx.err(m).await?;
                status = 1;
                break;
            }
        }
        if let Some(path) = to_file {
            if let Err(e) = ctx.fs.write(&path, &out).await {
                return Err(UError::new(1, format!("cannot open output file: {e}")));
            }
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{block_on, make_fs, run_raw};
    use crate::limits::Limits;

    const U: &[u8] = b"caf\xc3\xa9 \xe2\x82\xac x\n";

    fn go(argv: &[&str], stdin: &[u8]) -> (Vec<u8>, String, i32) {
        let fs = make_fs(&[]);
        block_on(fs.write("/w/u", U)).expect("write");
        block_on(fs.write("/w/l", b"a\xe9b\n")).expect("write");
        let (o, e, s) = run_raw(&fs, argv, stdin, &[], Limits::default());
        (o, String::from_utf8_lossy(&e).into_owned(), s)
    }

    // Expected outputs from glibc 2.36 iconv under LC_ALL=C.UTF-8.
    #[test]
    fn conversions() {
        let e = |s: &str| s.to_string();
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "LATIN1", "u"], b""),
            (b"caf\xe9 ".to_vec(), e("iconv: illegal input sequence at position 6\n"), 1)
        );
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "ASCII", "u"], b""),
            (b"caf".to_vec(), e("iconv: illegal input sequence at position 3\n"), 1)
        );
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "ASCII//TRANSLIT", "u"], b""),
            (b"cafe EUR x\n".to_vec(), e(""), 0)
        );
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "ASCII//IGNORE", "u"], b""),
            (b"caf  x\n".to_vec(), e("iconv: illegal input sequence at position 12\n"), 1)
        );
        assert_eq!(go(&["iconv", "-c", "-f", "UTF-8", "-t", "ASCII", "u"], b""), (b"caf  x\n".to_vec(), e(""), 0));
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "UTF-16", "u"], b"").0,
            b"\xff\xfec\0a\0f\0\xe9\0 \0\xac\x20 \0x\0\n\0"
        );
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "UTF-16BE", "u"], b"").0,
            b"\0c\0a\0f\0\xe9\0 \x20\xac\0 \0x\0\n"
        );
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "UTF-16LE", "u"], b"").0,
            b"c\0a\0f\0\xe9\0 \0\xac\x20 \0x\0\n\0"
        );
        assert_eq!(go(&["iconv", "-f", "LATIN1", "-t", "UTF-8", "l"], b""), (b"a\xc3\xa9b\n".to_vec(), e(""), 0));
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "l"], b""),
            (b"a".to_vec(), e("iconv: illegal input sequence at position 1\n"), 1)
        );
        assert_eq!(go(&["iconv", "-f", "utf8", "-t", "latin1", "u"], b"").2, 1);
        assert_eq!(go(&["iconv", "-f", "UTF-8", "-t", "ISO-8859-1//TRANSLIT", "u"], b"").0, b"caf\xe9 EUR x\n");
        assert_eq!(go(&["iconv", "-f", "UTF-8", "-t", "CP1252", "u"], b"").0, b"caf\xe9 \x80 x\n");
        assert_eq!(go(&["iconv", "-f", "UTF-16", "-t", "UTF-8"], b"\xff\xfea\x00").0, b"a");
        assert_eq!(go(&["iconv", "-f", "UTF-16", "-t", "UTF-8"], b"a\x00b\x00").0, b"ab");
        assert_eq!(go(&["iconv", "-f", "UTF-8", "-t", "UTF-32"], b"ab").0, b"\xff\xfe\0\0a\0\0\0b\0\0\0");
        assert_eq!(go(&["iconv", "-c", "-f", "UTF-8", "-t", "LATIN1"], b"a\xffb").0, b"ab");
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "LATIN1//IGNORE"], b"a\xffb\n"),
            (b"ab\n".to_vec(), e("iconv: illegal input sequence at position 4\n"), 1)
        );
        let t = "\u{2018}q\u{2019} \u{201c}d\u{201d} \u{2013} \u{2014} \u{2026} \u{df} \u{e6} \u{c6} \u{f8} \u{c5} \u{f1} \u{fc} \u{c7} \u{a9} \u{ae} \u{b0} \u{bd} \u{4e2d} \u{d7} \u{ab}\u{bb} \u{2122} \u{a0}|\n";
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "ASCII//TRANSLIT"], t.as_bytes()).0,
            b"'q' \"d\" - -- ... ss ae AE o A n u C (C) (R) ?  1/2  ? x <<>> (TM)  |\n"
        );
    }

    #[test]
    fn errors() {
        let e = |s: &str| s.to_string();
        let unsupported = e("iconv: failed to start conversion processing: No such file or directory\n");
        assert_eq!(go(&["iconv", "-f", "FOO", "-t", "UTF-8", "u"], b""), (vec![], unsupported.clone(), 1));
        assert_eq!(go(&["iconv", "-f", "UTF-8", "-t", "BAR", "u"], b""), (vec![], unsupported, 1));
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "LATIN1", "nope"], b""),
            (vec![], e("iconv: cannot open input file `nope': No such file or directory\n"), 1)
        );
        assert_eq!(
            go(&["iconv", "-f", "UTF-8", "-t", "LATIN1"], b"ab\xc3"),
            (b"ab".to_vec(), e("iconv: incomplete character or shift sequence at end of buffer\n"), 1)
        );
        assert_eq!(
            go(&["iconv", "-x"], b""),
            (
                vec![],
                e("iconv: invalid option -- 'x'\nTry `iconv --help' or `iconv --usage' for more information.\n"),
                64
            )
        );
        assert!(String::from_utf8_lossy(&go(&["iconv", "-l"], b"").0).contains("UTF-8//\n"));
    }
}
