//! `strings` (GNU binutils 2.40): printable runs of at least `-n` bytes
//! (default 4) in each file, scanned whole (`-a` is the default), with
//! `-t d|o|x`/`-o` offsets, `-f` file names, `-w` all whitespace, `-e s|S`
//! 7- or 8-bit characters and `-s` separators.

use super::util::{Arg, OptError, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Strings;

const SPEC: Spec = Spec::new(
    "adfhn:ot:we:s:vV0123456789",
    &[
        ("all", Arg::No, "a"),
        ("data", Arg::No, "d"),
        ("print-file-name", Arg::No, "f"),
        ("bytes", Arg::Yes, "n"),
        ("radix", Arg::Yes, "t"),
        ("include-all-whitespace", Arg::No, "w"),
        ("encoding", Arg::Yes, "e"),
        ("output-separator", Arg::Yes, "s"),
        ("help", Arg::No, "h"),
        ("version", Arg::No, "V"),
    ],
    "[option(s)] [file(s)]",
);

const USAGE: &str = "Usage: strings [option(s)] [file(s)]\n Display printable strings in [file(s)] (stdin by default)\n The options are:\n  -a - --all                Scan the entire file, not just the data section [default]\n  -d --data                 Only scan the data sections in the file\n  -f --print-file-name      Print the name of the file before each string\n  -n <number>               Locate & print any sequence of at least <number>\n    --bytes=<number>         displayable characters.  (The default is 4).\n  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16\n  -w --include-all-whitespace Include all whitespace as valid string characters\n  -o                        An alias for --radix=o\n  -T --target=<BFDNAME>     Specify the binary file format\n  -e --encoding={s,S,b,l,B,L} Select character size and endianness:\n                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit\n  --unicode={default|show|invalid|hex|escape|highlight}\n  -U {d|s|i|x|e|h}          Specify how to treat UTF-8 encoded unicode characters\n  -s --output-separator=<string> String used to separate strings in output.\n  @<file>                   Read options from <file>\n  -h --help                 Display this information\n  -v -V --version           Print the program's version number\nstrings: supported targets: elf64-x86-64 elf32-i386 elf32-iamcu elf32-x86-64 pei-i386 pe-x86-64 pei-x86-64 elf64-little elf64-big elf32-little elf32-big pe-bigobj-x86-64 pe-i386 pdb srec symbolsrec verilog tekhex binary ihex plugin\n";

struct Opts {
    min: usize,
    radix: Option<u8>,
    names: bool,
    all_space: bool,
    eight_bit: bool,
    sep: Vec<u8>,
}

impl Opts {
    fn printable(&self, c: u8) -> bool {
        (0x20..0x7f).contains(&c)
            || c == b'\t'
            || (self.all_space && matches!(c, b'\n' | b'\r' | b'\x0b' | b'\x0c'))
            || (self.eight_bit && c > 127)
    }

    /// The `name: ` and offset that start a run at `start`.
    fn header(&self, name: &str, start: u64, out: &mut Vec<u8>) {
        if self.names {
            out.extend_from_slice(format!("{name}: ").as_bytes());
        }
        match self.radix {
            Some(b'd') => out.extend_from_slice(format!("{start:7} ").as_bytes()),
            Some(b'o') => out.extend_from_slice(format!("{start:7o} ").as_bytes()),
            Some(b'x') => out.extend_from_slice(format!("{start:7x} ").as_bytes()),
            _ => {}
        }
    }
}

/// A scan across chunks: a run shorter than the minimum is held; once it
/// is long enough it is printed and the rest of it streams straight out.
#[derive(Default)]
struct Scan {
    run: Vec<u8>,
    start: u64,
    pos: u64,
    printing: bool,
}

impl Scan {
    fn feed(&mut self, o: &Opts, name: &str, chunk: &[u8], out: &mut Vec<u8>) {
        for &c in chunk {
            if !o.printable(c) {
                self.end(o, out);
            } else if self.printing {
                out.push(c);
            } else {
                if self.run.is_empty() {
                    self.start = self.pos;
                }
                self.run.push(c);
                if self.run.len() >= o.min {
                    o.header(name, self.start, out);
                    out.append(&mut self.run);
                    self.printing = true;
                }
            }
            self.pos += 1;
        }
    }

    fn end(&mut self, o: &Opts, out: &mut Vec<u8>) {
        if self.printing {
            out.extend_from_slice(&o.sep);
            self.printing = false;
        }
        self.run.clear();
    }
}

#[async_trait]
impl Utility for Strings {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let usage = |_: &CommandContext<'_>, msg: Option<String>| {
            let mut s = msg.map(|m| format!("strings: {m}\n")).unwrap_or_default();
            s.push_str(USAGE);
            s
        };
        let p = match super::util::parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out_help(USAGE.as_bytes()).await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(b"GNU strings (GNU Binutils for Debian) 2.40\n").await?;
                return Ok(0);
            }
            Err(e) => {
                ctx.stderr.write(usage(ctx, Some(e.to_string())).as_bytes()).await?;
                return Ok(1);
            }
        };
        let mut o = Opts { min: 4, radix: None, names: false, all_space: false, eight_bit: false, sep: b"\n".to_vec() };
        let mut digits: Option<String> = None;
        let mut last_digit_arg = None;
        for op in &p.opts {
            let v = op.val.as_deref().unwrap_or("");
            match op.id {
                "h" => {
                    ctx.out_help(USAGE.as_bytes()).await?;
                    return Ok(0);
                }
                "V" | "v" => {
                    ctx.out(b"GNU strings (GNU Binutils for Debian) 2.40\n").await?;
                    return Ok(0);
                }
                "n" => digits = Some(v.to_string()),
                "f" => o.names = true,
                "w" => o.all_space = true,
                "o" => o.radix = Some(b'o'),
                "t" => match v {
                    "d" | "o" | "x" => o.radix = Some(v.as_bytes()[0]),
                    _ => {
                        ctx.stderr.write(usage(ctx, None).as_bytes()).await?;
                        return Ok(1);
                    }
                },
                "e" => match v {
                    "s" => o.eight_bit = false,
                    "S" => o.eight_bit = true,
                    _ => {
                        ctx.stderr.write(usage(ctx, None).as_bytes()).await?;
                        return Ok(1);
                    }
                },
                "s" => o.sep = v.as_bytes().to_vec(),
                d if d.as_bytes()[0].is_ascii_digit() => {
                    // `-12`: digits accumulate within one argument.
                    let prev = digits.take().filter(|_| last_digit_arg == Some(op.arg_index)).unwrap_or_default();
                    digits = Some(format!("{prev}{d}"));
                    last_digit_arg = Some(op.arg_index);
                }
                _ => {}
            }
        }
        if let Some(d) = digits {
            match d.parse::<usize>() {
                Ok(0) => {
                    return Err(UError::new(1, "invalid minimum string length 0"));
                }
                Ok(n) => o.min = n,
                Err(_) => {
                    return Err(UError::new(1, format!("invalid integer argument {d}")));
                }
            }
        }
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut status = 0;
        for f in &files {
            if f != "-" {
                match ctx.fs.metadata(&ctx.resolve(f)).await {
                    Ok(m) if m.is_dir() => {
                        ctx.err(format!("Warning: '{f}' is a directory")).await?;
                        status = 1;
                        continue;
                    }
                    Ok(_) => {}
                    Err(_) => {
                        ctx.err(format!("'{f}': No such file")).await?;
                        status = 1;
                        continue;
                    }
                }
            }
            let input = match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) => {
                    ctx.err(format!("'{f}': {e}")).await?;
                    status = 1;
                    continue;
                }
            };
            let name = if f == "-" { "{standard input}" } else { f.as_str() };
            let mut out = Vec::new();
            let mut scan = Scan::default();
            while let Some(chunk) = input.read_chunk().await {
                scan.feed(&o, name, &chunk, &mut out);
                ctx.out(&out).await?;
                out.clear();
                // A run held back by a huge `-n` is bounded like any string.
                if scan.run.len() as u64 > ctx.budget.limits.max_string_bytes {
                    ctx.budget.input_exceeded();
                    break;
                }
                if !ctx.still_running() {
                    break;
                }
            }
            scan.end(&o, &mut out);
            ctx.out(&out).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::{block_on, make_fs, run_full};
    use crate::limits::Limits;

    const B: &[u8] = b"ab\x00hello world\x01\tline\x80\xc3\xa9more text here\nnext line\x00xyz";

    fn go(argv: &[&str]) -> (String, String, i32) {
        let fs = make_fs(&[("d/", "")]);
        block_on(fs.write("/w/b", B)).expect("write");
        let o = run_full(&fs, argv, b"abcd", &[], Limits::default());
        (o.out, o.err, o.status)
    }

    // Expected outputs from GNU strings 2.40 on the same bytes.
    #[test]
    fn scans() {
        assert_eq!(go(&["strings", "b"]).0, "hello world\n\tline\nmore text here\nnext line\n");
        assert_eq!(
            go(&["strings", "-n", "2", "-t", "x", "b"]).0,
            "      0 ab\n      3 hello world\n      f \tline\n     17 more text here\n     26 next line\n     30 xyz\n"
        );
        assert_eq!(
            go(&["strings", "-t", "d", "b"]).0,
            "      3 hello world\n     15 \tline\n     23 more text here\n     38 next line\n"
        );
        assert_eq!(
            go(&["strings", "-o", "b"]).0,
            "      3 hello world\n     17 \tline\n     27 more text here\n     46 next line\n"
        );
        assert_eq!(go(&["strings", "-f", "b"]).0, "b: hello world\nb: \tline\nb: more text here\nb: next line\n");
        assert_eq!(
            go(&["strings", "-e", "S", "b"]).0,
            String::from_utf8_lossy(b"hello world\n\tline\x80\xc3\xa9more text here\nnext line\n")
        );
        assert_eq!(go(&["strings", "-w", "b"]).0, "hello world\n\tline\nmore text here\nnext line\n");
        assert_eq!(go(&["strings", "-2", "b"]).0, go(&["strings", "-n", "2", "b"]).0);
        assert_eq!(go(&["strings"]).0, "abcd\n");
        assert_eq!(go(&["strings", "-s", "|", "b"]).0, "hello world|\tline|more text here|next line|");
    }

    #[test]
    fn errors() {
        assert_eq!(
            go(&["strings", "-n", "0", "b"]),
            ("".into(), "strings: invalid minimum string length 0\n".into(), 1)
        );
        assert_eq!(go(&["strings", "-n", "x", "b"]), ("".into(), "strings: invalid integer argument x\n".into(), 1));
        assert_eq!(go(&["strings", "nope"]), ("".into(), "strings: 'nope': No such file\n".into(), 1));
        assert_eq!(go(&["strings", "d"]), ("".into(), "strings: Warning: 'd' is a directory\n".into(), 1));
        let (out, err, st) = go(&["strings", "-z"]);
        assert_eq!((out.as_str(), st), ("", 1));
        assert!(err.starts_with("strings: invalid option -- 'z'\nUsage: strings [option(s)] [file(s)]\n"));
        let (_, err, st) = go(&["strings", "-t", "q", "b"]);
        assert!(err.starts_with("Usage: strings") && st == 1);
    }
}
