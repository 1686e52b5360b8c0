//! `xxd` (vim's, 2022-01-14): hex dump (`-c -g -l -s -o -d -u -e -b -a`),
//! plain (`-p`), C include (`-i -n -C`) and reverse (`-r`, `-r -p`), with
//! xxd's own option parser (`-c8`, `-cols 8`, strtol numbers such as `0x10`)
//! and its line layout (the text column is fixed; partial lines are padded).

use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::{Input, IoError};
use async_trait::async_trait;

pub struct Xxd;

const USAGE: &str = "Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: \"xxd 2022-01-14 by Juergen Weigert et al.\".
";

/// Widest line `-c` allows.
const COLS_MAX: i64 = 256;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Normal,
    Bits,
    Little,
    Plain,
    Include,
}

struct Opts {
    kind: Kind,
    autoskip: bool,
    upper: bool,
    capitalize: bool,
    decimal: bool,
    revert: bool,
    cols: i64,
    cols_given: bool,
    group: i64,
    length: i64,
    seek: i64,
    neg_seek: bool,
    display_off: i64,
    name: Option<String>,
    /// `-v`: print the version (xxd stops parsing there).
    version: bool,
}

/// C's `strtol(s, NULL, 0)`: optional sign, `0x` hex, `0` octal, else
/// decimal; stops at the first bad character (0 when none).
fn strtol(s: &str) -> i64 {
    let s = s.trim_start();
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (16, h)
    } else if s.starts_with('0') {
        (8, s)
    } else {
        (10, s)
    };
    let mut v: i64 = 0;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else { break };
        v = v.saturating_mul(i64::from(radix)).saturating_add(i64::from(d));
    }
    if neg {
        -v
    } else {
        v
    }
}

/// xxd's argument loop; `Err(())` means print the usage (exit 1).
fn parse(args: &[String]) -> Result<(Opts, Vec<String>), ()> {
    let mut o = Opts {
        kind: Kind::Normal,
        autoskip: false,
        upper: false,
        capitalize: false,
        decimal: false,
        revert: false,
        cols: 0,
        cols_given: false,
        group: -1,
        length: -1,
        seek: 0,
        neg_seek: false,
        display_off: 0,
        name: None,
        version: false,
    };
    let mut i = 0;
    // Takes the value glued to the option (`-c8`) unless it is the rest of the
    // long name (`-cols`), else the next argument.
    let value = |i: &mut usize, pp: &str, long_rest: &str| -> Result<String, ()> {
        let rest = &pp[2..];
        if !rest.is_empty() && !long_rest.starts_with(rest) {
            Ok(rest.to_string())
        } else {
            *i += 1;
            args.get(*i).cloned().ok_or(())
        }
    };
    while i < args.len() {
        let a = &args[i];
        let pp: &str = if a.starts_with("--") && a.len() > 2 { &a[1..] } else { a };
        let two = pp.get(..2).unwrap_or(pp);
        match two {
            "-a" => o.autoskip = !o.autoskip,
            "-b" => o.kind = Kind::Bits,
            "-e" => o.kind = Kind::Little,
            "-u" => o.upper = true,
            "-p" => o.kind = Kind::Plain,
            "-i" => o.kind = Kind::Include,
            "-C" => o.capitalize = true,
            "-d" => o.decimal = true,
            "-r" => o.revert = true,
            "-E" => {}
            "-h" => return Err(()),
            "-v" => {
                o.version = true;
                return Ok((o, Vec::new()));
            }
            "-c" if pp[2..].starts_with("apitalize") && pp.len() > 2 => o.capitalize = true,
            "-c" => {
                o.cols = strtol(&value(&mut i, pp, "ols")?);
                o.cols_given = true;
            }
            "-g" => o.group = strtol(&value(&mut i, pp, "roupsize")?),
            "-o" => o.display_off = strtol(&value(&mut i, pp, "ffset")?),
            "-l" => o.length = strtol(&value(&mut i, pp, "en")?),
            "-n" => o.name = Some(value(&mut i, pp, "ame")?),
            "-s" => {
                let rest = &pp[2..];
                let v = if !rest.is_empty() && !"kip".starts_with(rest) && !"eek".starts_with(rest) {
                    rest.to_string()
                } else {
                    i += 1;
                    args.get(i).cloned().ok_or(())?
                };
                let v = v.strip_prefix('+').unwrap_or(&v);
                o.neg_seek = v.starts_with('-');
                o.seek = strtol(v.strip_prefix('-').unwrap_or(v));
            }
            _ if pp == "--" => {
                i += 1;
                break;
            }
            _ if pp.len() > 1 && pp.starts_with('-') => return Err(()),
            _ => break,
        }
        i += 1;
    }
    let rest: Vec<String> = args[i.min(args.len())..].to_vec();
    if rest.len() > 2 {
        return Err(());
    }
    Ok((o, rest))
}

/// Bytes of the input, honouring `-s` and `-l`, a chunk at a time.
struct Reader {
    input: Input,
    /// Bytes still to skip before dumping.
    skip: u64,
    /// Bytes still to dump (`None`: all).
    left: Option<u64>,
    /// Input already in memory (after a seek from the end).
    buffered: Option<Vec<u8>>,
}

impl Reader {
    /// The next chunk; empty when all of it was skipped (the caller checks
    /// the deadline between chunks).
    async fn next(&mut self) -> Option<Vec<u8>> {
        if self.left == Some(0) {
            return None;
        }
        let mut chunk = match self.buffered.take() {
            Some(b) => b,
            None => self.input.read_chunk().await?.to_vec(),
        };
        if self.skip > 0 {
            let n = (self.skip as usize).min(chunk.len());
            chunk.drain(..n);
            self.skip -= n as u64;
        }
        if let Some(left) = self.left.as_mut() {
            if chunk.len() as u64 > *left {
                chunk.truncate(*left as usize);
            }
            *left -= chunk.len() as u64;
        }
        Some(chunk)
    }
}

/// Output buffered into large writes.
struct Out<'a, 'b> {
    ctx: &'a CommandContext<'b>,
    buf: Vec<u8>,
}

impl Out<'_, '_> {
    async fn push(&mut self, b: &[u8]) -> Result<(), IoError> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= 64 * 1024 {
            self.flush().await?;
        }
        Ok(())
    }
    async fn flush(&mut self) -> Result<(), IoError> {
        if !self.buf.is_empty() {
            let b = std::mem::take(&mut self.buf);
            self.ctx.out(&b).await?;
        }
        Ok(())
    }
}

/// xxd's `xxdline`: with `-a`, runs of all-zero lines become one `*`.
struct Skipper {
    zero_seen: u32,
    held: Vec<u8>,
}

impl Skipper {
    /// `nz`: the line has a non-zero byte (1), is all zeros (0), or end (-1).
    fn line(&mut self, l: &[u8], nz: i32, out: &mut Vec<u8>) {
        if nz == 0 && self.zero_seen == 1 {
            self.held = l.to_vec();
        }
        let seen_before = self.zero_seen;
        if nz == 0 {
            self.zero_seen += 1;
        }
        if nz != 0 || seen_before == 0 {
            if nz != 0 {
                if nz < 0 {
                    self.zero_seen = self.zero_seen.saturating_sub(1);
                }
                if self.zero_seen == 2 {
                    out.extend_from_slice(&self.held);
                }
                if self.zero_seen > 2 {
                    out.extend_from_slice(b"*\n");
                }
            }
            if nz >= 0 || self.zero_seen > 0 {
                out.extend_from_slice(l);
            }
            if nz != 0 {
                self.zero_seen = 0;
            }
        }
    }
}

fn c_name(name: &str, capitalize: bool) -> String {
    let mut s = String::new();
    if name.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        s.push_str("__");
    }
    for c in name.bytes() {
        s.push(if c.is_ascii_alphanumeric() {
            if capitalize {
                c.to_ascii_uppercase() as char
            } else {
                c as char
            }
        } else {
            '_'
        });
    }
    s
}

fn hex_digit(c: u8) -> i32 {
    match c {
        b'0'..=b'9' => i32::from(c - b'0'),
        b'a'..=b'f' => i32::from(c - b'a' + 10),
        b'A'..=b'F' => i32::from(c - b'A' + 10),
        _ => -1,
    }
}

/// xxd's `huntype`: turn a dump back into bytes. `Err` is the exit status
/// after "cannot seek backwards".
async fn revert(ctx: &CommandContext<'_>, input: &Input, cols: i64, plain: bool, base: i64) -> UResult<i32> {
    let mut out = Out { ctx, buf: Vec::new() };
    let (mut n1, mut n2, mut n3): (i32, i32, i32);
    n1 = -1;
    n2 = 0;
    let mut ign_garb = true;
    let mut p = cols;
    let (mut have_off, mut want_off): (i64, i64) = (0, 0);
    let mut skip_line = false;
    while let Some(chunk) = input.read_chunk().await {
        if !ctx.still_running() {
            break;
        }
        for &c in chunk.iter() {
            if skip_line {
                if c != b'\n' {
                    continue;
                }
                skip_line = false;
            } else {
                if c == b'\r' {
                    continue;
                }
                if plain && (c == b' ' || c == b'\n' || c == b'\t') {
                    continue;
                }
                n3 = n2;
                n2 = n1;
                n1 = hex_digit(c);
                if n1 == -1 && ign_garb {
                    if c == b'\n' {
                        // Falls through to the end-of-line reset below.
                    } else {
                        continue;
                    }
                } else {
                    ign_garb = false;
                    if !plain && p >= cols {
                        if n1 < 0 {
                            p = 0;
                            continue;
                        }
                        want_off = (want_off << 4) | i64::from(n1);
                        continue;
                    }
                    if base + want_off != have_off {
                        if base + want_off < have_off {
                            out.flush().await?;
                            return Err(UError::new(5, "Sorry, cannot seek backwards."));
                        }
                        // Output is a stream: fill the gap with zeros.
                        let gap = (base + want_off - have_off) as u64;
                        let max = ctx.budget.limits.max_output_bytes;
                        for _ in 0..gap.min(max) {
                            out.push(&[0]).await?;
                        }
                        have_off = base + want_off;
                    }
                    if n2 >= 0 && n1 >= 0 {
                        out.push(&[((n2 << 4) | n1) as u8]).await?;
                        have_off += 1;
                        want_off += 1;
                        n1 = -1;
                        if !plain {
                            p += 1;
                            if p >= cols && c != b'\n' {
                                skip_line = true;
                                continue;
                            }
                        }
                    } else if n1 < 0 && n2 < 0 && n3 < 0 && c != b'\n' {
                        skip_line = true;
                        continue;
                    }
                }
                if c != b'\n' {
                    continue;
                }
            }
            // End of a line.
            if !plain {
                want_off = 0;
            }
            p = cols;
            ign_garb = true;
        }
    }
    out.flush().await?;
    Ok(0)
}

#[async_trait]
impl Utility for Xxd {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let Ok((mut o, files)) = parse(ctx.args) else {
            ctx.stderr.write(USAGE.as_bytes()).await?;
            return Ok(1);
        };
        if o.version {
            ctx.stderr.write(b"xxd 2022-01-14 by Juergen Weigert et al.\n").await?;
            return Ok(0);
        }
        // `-c 0` means one endless line with -p, the default otherwise.
        if o.cols == 0 && !(o.kind == Kind::Plain && o.cols_given) {
            o.cols = match o.kind {
                Kind::Plain => 30,
                Kind::Include => 12,
                Kind::Bits => 6,
                _ => 16,
            };
        }
        if o.group < 0 {
            o.group = match o.kind {
                Kind::Bits => 1,
                Kind::Normal => 2,
                Kind::Little => 4,
                _ => 0,
            };
        }
        if (o.kind == Kind::Plain && o.cols < 0) || (o.kind != Kind::Plain && !(1..=COLS_MAX).contains(&o.cols)) {
            return Err(UError::new(1, format!("invalid number of columns (max. {COLS_MAX}).")));
        }
        if o.group < 1 || o.group > o.cols {
            o.group = o.cols;
        } else if o.kind == Kind::Little && (o.group & (o.group - 1)) != 0 {
            return Err(UError::new(1, "number of octets per group must be a power of 2 with -e."));
        }
        let infile = files.first().filter(|f| *f != "-").cloned();
        let input = match &infile {
            None => ctx.stdin.clone(),
            Some(f) => match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) if e == "Is a directory" => {
                    return Err(UError::new(2, e));
                }
                Err(e) => {
                    return Err(UError::new(2, format!("{f}: {e}")));
                }
            },
        };
        let outfile = files.get(1).filter(|f| *f != "-").cloned();
        // With an output file, the dump is built in memory and written at the end.
        let mut sub_out = None;
        let saved_stdout = ctx.stdout.clone();
        if outfile.is_some() {
            let counter = crate::io::OutputCounter::new(ctx.budget.limits.max_output_bytes);
            let cap = crate::io::CaptureBuf::new(counter);
            ctx.stdout = crate::io::Output::Capture(cap.clone());
            sub_out = Some(cap);
        }
        let status = if o.revert {
            if !matches!(o.kind, Kind::Normal | Kind::Plain) {
                ctx.err("Sorry, cannot revert this type of hexdump").await?;
                ctx.stdout = saved_stdout;
                return Ok(255);
            }
            let base = if o.neg_seek { -o.seek } else { o.seek };
            match revert(ctx, &input, o.cols, o.kind == Kind::Plain, base).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 }
        } else {
            match dump(ctx, &o, input, infile.as_deref()).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 }
        };
        ctx.stdout = saved_stdout;
        if let (Some(f), Some(cap)) = (outfile, sub_out) {
            let path = ctx.resolve(&f);
            if let Err(e) = ctx.fs.write(&path, &cap.take()).await {
                return Err(UError::new(3, format!("{f}: {e}")));
            }
        }
        Ok(status)
    }
}

async fn dump(ctx: &CommandContext<'_>, o: &Opts, input: Input, infile: Option<&str>) -> UResult<i32> {
    let mut seek = o.seek.max(0) as u64;
    let mut buffered = None;
    if o.neg_seek {
        // From the end: the input has to be read whole.
        let max = usize::try_from(ctx.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
        let all = match input.read_to_end(max).await {
            Ok(a) => a,
            Err(_) => {
                ctx.budget.input_exceeded();
                return Ok(1);
            }
        };
        let Some(start) = (all.len() as u64).checked_sub(o.seek.max(0) as u64) else {
            return Err(UError::new(4, "Sorry, cannot seek."));
        };
        seek = start;
        buffered = Some(all);
    }
    let mut rd = Reader { input, skip: seek, left: if o.length < 0 { None } else { Some(o.length as u64) }, buffered };
    let mut out = Out { ctx, buf: Vec::new() };
    let hexx: &[u8; 16] = if o.upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    let cols = o.cols as usize;
    match o.kind {
        Kind::Plain => {
            let mut p = cols;
            while let Some(chunk) = rd.next().await {
                for &e in &chunk {
                    out.push(&[hexx[usize::from(e >> 4)], hexx[usize::from(e & 15)]]).await?;
                    if cols > 0 {
                        p -= 1;
                        if p == 0 {
                            out.push(b"\n").await?;
                            p = cols;
                        }
                    }
                }
                if !ctx.still_running() {
                    break;
                }
            }
            if p < cols || cols == 0 {
                out.push(b"\n").await?;
            }
        }
        Kind::Include => {
            let var = infile.map(|f| c_name(o.name.as_deref().unwrap_or(f), o.capitalize));
            if let Some(v) = &var {
                out.push(format!("unsigned char {v}[] = {{\n").as_bytes()).await?;
            }
            let mut p = 0usize;
            while let Some(chunk) = rd.next().await {
                for &c in &chunk {
                    let sep = if !p.is_multiple_of(cols) {
                        ", "
                    } else if p == 0 {
                        "  "
                    } else {
                        ",\n  "
                    };
                    let item = if o.upper { format!("{sep}0X{c:02X}") } else { format!("{sep}0x{c:02x}") };
                    out.push(item.as_bytes()).await?;
                    p += 1;
                }
                if !ctx.still_running() {
                    break;
                }
            }
            if p > 0 {
                out.push(b"\n").await?;
            }
            if let Some(v) = &var {
                let len = if o.capitalize { "LEN" } else { "len" };
                out.push(format!("}};\nunsigned int {v}_{len} = {p};\n").as_bytes()).await?;
            }
        }
        _ => {
            let bits = o.kind == Kind::Bits;
            let group = o.group as usize;
            let grplen = if bits { 8 * group + 1 } else { 2 * group + 1 };
            let ascii_col_base = 3 + (grplen * cols - 1) / group;
            let mut line: Vec<u8> = Vec::new();
            let mut addrlen = 0usize;
            let (mut p, mut n, mut nonzero) = (0usize, 0u64, false);
            let mut c = 0usize;
            let mut skip = Skipper { zero_seen: 0, held: Vec::new() };
            let mut pending = Vec::new();
            let start = seek;
            while let Some(chunk) = rd.next().await {
                for &e in &chunk {
                    if p == 0 {
                        let off = (n + start).wrapping_add(o.display_off as u64);
                        let addr = if o.decimal { format!("{off:08}:") } else { format!("{off:08x}:") };
                        addrlen = addr.len();
                        line.clear();
                        line.extend_from_slice(addr.as_bytes());
                        line.resize(addrlen + ascii_col_base + cols + 2, b' ');
                    }
                    let x = if o.kind == Kind::Little { p ^ (group - 1) } else { p };
                    c = addrlen + 1 + (grplen * x) / group;
                    if bits {
                        for i in (0..8).rev() {
                            line[c] = if e & (1 << i) != 0 { b'1' } else { b'0' };
                            c += 1;
                        }
                    } else {
                        line[c] = hexx[usize::from(e >> 4)];
                        line[c + 1] = hexx[usize::from(e & 15)];
                    }
                    nonzero |= e != 0;
                    c = addrlen + ascii_col_base + p;
                    line[c] = if (32..127).contains(&e) { e } else { b'.' };
                    c += 1;
                    n += 1;
                    p += 1;
                    if p == cols {
                        line.truncate(c);
                        line.push(b'\n');
                        let nz = if o.autoskip { i32::from(nonzero) } else { 1 };
                        skip.line(&line, nz, &mut pending);
                        out.push(&pending).await?;
                        pending.clear();
                        nonzero = false;
                        p = 0;
                    }
                }
                if !ctx.still_running() {
                    break;
                }
            }
            if p > 0 {
                line.truncate(c);
                line.push(b'\n');
                skip.line(&line, 1, &mut pending);
            } else if o.autoskip {
                skip.line(&line, -1, &mut pending);
            }
            out.push(&pending).await?;
        }
    }
    out.flush().await?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, make_fs, run_raw};
    use crate::limits::Limits;

    const DATA: &str = "hello world\nthis is a test of xxd output\0\x01\u{7f}";

    fn files() -> Vec<(&'static str, &'static str)> {
        vec![("x.bin", DATA)]
    }

    #[test]
    fn dumps() {
        check(
            &["xxd", "x.bin"],
            &files(),
            "",
            "00000000: 6865 6c6c 6f20 776f 726c 640a 7468 6973  hello world.this\n\
             00000010: 2069 7320 6120 7465 7374 206f 6620 7878   is a test of xx\n\
             00000020: 6420 6f75 7470 7574 0001 7f              d output...\n",
            "",
            0,
        );
        check(
            &["xxd", "-u", "-g", "4", "-l", "20"],
            &[],
            DATA,
            "00000000: 68656C6C 6F20776F 726C640A 74686973  hello world.this\n\
             00000010: 20697320                              is \n",
            "",
            0,
        );
        check(
            &["xxd", "-c", "8", "-g", "1", "-l", "11", "x.bin"],
            &files(),
            "",
            "00000000: 68 65 6c 6c 6f 20 77 6f  hello wo\n00000008: 72 6c 64                 rld\n",
            "",
            0,
        );
        check(
            &["xxd", "-l", "5", "x.bin"],
            &files(),
            "",
            "00000000: 6865 6c6c 6f                             hello\n",
            "",
            0,
        );
        check(
            &["xxd", "-s", "3", "-l", "10", "x.bin"],
            &files(),
            "",
            "00000003: 6c6f 2077 6f72 6c64 0a74                 lo world.t\n",
            "",
            0,
        );
        check(
            &["xxd", "-s", "-4", "x.bin"],
            &files(),
            "",
            "00000027: 7400 017f                                t...\n",
            "",
            0,
        );
        check(
            &["xxd", "-g", "0", "-l", "8", "x.bin"],
            &files(),
            "",
            "00000000: 68656c6c6f20776f                  hello wo\n",
            "",
            0,
        );
        check(
            &["xxd", "-c", "5", "-l", "12", "x.bin"],
            &files(),
            "",
            "00000000: 6865 6c6c 6f  hello\n00000005: 2077 6f72 6c   worl\n0000000a: 640a          d.\n",
            "",
            0,
        );
        check(
            &["xxd", "-c", "0x8", "-l", "010", "x.bin"],
            &files(),
            "",
            "00000000: 6865 6c6c 6f20 776f  hello wo\n",
            "",
            0,
        );
        check(
            &["xxd", "-b", "-c", "2", "-l", "3", "x.bin"],
            &files(),
            "",
            "00000000: 01101000 01100101  he\n00000002: 01101100           l\n",
            "",
            0,
        );
        check(
            &["xxd", "-e", "-l", "10", "x.bin"],
            &files(),
            "",
            "00000000: 6c6c6568 6f77206f     6c72           hello worl\n",
            "",
            0,
        );
        check(
            &["xxd", "-d", "-o", "16", "-l", "20", "x.bin"],
            &files(),
            "",
            "00000016: 6865 6c6c 6f20 776f 726c 640a 7468 6973  hello world.this\n\
             00000032: 2069 7320                                 is \n",
            "",
            0,
        );
        check(&["xxd"], &[], "", "", "", 0);
    }

    #[test]
    fn autoskip() {
        let z = format!("{}x", "\0".repeat(64));
        check(
            &["xxd", "-a", "-c", "8"],
            &[],
            &z,
            "00000000: 0000 0000 0000 0000  ........\n*\n00000040: 78                   x\n",
            "",
            0,
        );
    }

    #[test]
    fn plain_and_include() {
        check(
            &["xxd", "-p", "x.bin"],
            &files(),
            "",
            "68656c6c6f20776f726c640a7468697320697320612074657374206f6620\n787864206f757470757400017f\n",
            "",
            0,
        );
        check(&["xxd", "-p", "-c", "4", "-l", "8"], &[], DATA, "68656c6c\n6f20776f\n", "", 0);
        check(&["xxd", "-u", "-p", "-l", "5"], &[], DATA, "68656C6C6F\n", "", 0);
        check(
            &["xxd", "-p", "-c", "0", "-l", "40"],
            &[],
            DATA,
            "68656c6c6f20776f726c640a7468697320697320612074657374206f6620787864206f7574707574\n",
            "",
            0,
        );
        check(&["xxd", "-p", "-c", "0"], &[], "", "\n", "", 0);
        check(
            &["xxd", "-i", "-l", "2", "9x-y.bin"],
            &[("9x-y.bin", DATA)],
            "",
            "unsigned char __9x_y_bin[] = {\n  0x68, 0x65\n};\nunsigned int __9x_y_bin_len = 2;\n",
            "",
            0,
        );
        check(
            &["xxd", "-i", "-l", "14"],
            &[],
            DATA,
            "  0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64, 0x0a,\n  0x74, 0x68\n",
            "",
            0,
        );
        check(
            &["xxd", "-i", "-u", "-l", "3", "x.bin"],
            &files(),
            "",
            "unsigned char x_bin[] = {\n  0X68, 0X65, 0X6C\n};\nunsigned int x_bin_len = 3;\n",
            "",
            0,
        );
        check(
            &["xxd", "-i", "-C", "empty"],
            &[("empty", "")],
            "",
            "unsigned char EMPTY[] = {\n};\nunsigned int EMPTY_LEN = 0;\n",
            "",
            0,
        );
        check(&["xxd", "-i"], &[], "", "", "", 0);
    }

    #[test]
    fn reverts() {
        check(&["xxd", "-r", "-p"], &[], "68656c\n6c6f\n", "hello", "", 0);
        check(&["xxd", "-r", "-p"], &[], "zz 61 6 2 gg\n6364\n", "abcd", "", 0);
        let fs = make_fs(&[]);
        let dump = b"00000000: 6865 6c6c 6f20 776f 726c 640a 7468 6973  hello world.this\n\
                     00000010: 2069 7320 6120 7465 7374 206f 6620 7878   is a test of xx\n\
                     00000020: 6420 6f75 7470 7574 0001 ff              d output...\n";
        let (out, _, st) = run_raw(&fs, &["xxd", "-r"], dump, &[], Limits::default());
        assert_eq!((out, st), (b"hello world\nthis is a test of xxd output\0\x01\xff".to_vec(), 0));
        // Two blanks end the hex part of a short line.
        let (out, _, _) = run_raw(&fs, &["xxd", "-r"], b"00000000: 6162 6364 6566  abdefe\n", &[], Limits::default());
        assert_eq!(out, b"abcdef");
        let (out, err, st) = run_raw(&fs, &["xxd", "-r"], b"0000004: 4142\n0000002: 43\n", &[], Limits::default());
        assert_eq!((out, err, st), (b"\0\0\0\0AB".to_vec(), b"xxd: Sorry, cannot seek backwards.\n".to_vec(), 5));
    }

    #[test]
    fn errors() {
        check(&["xxd", "nofile"], &[], "", "", "xxd: nofile: No such file or directory\n", 2);
        check(&["xxd", "d"], &[("d/", "")], "", "", "xxd: Is a directory\n", 2);
        check(&["xxd", "-c", "300"], &[], "", "", "xxd: invalid number of columns (max. 256).\n", 1);
        let got = crate::commands::util::testutil::run(&["xxd", "-q"], &[], "");
        assert_eq!(got.status, 1);
        assert!(got.err.starts_with("Usage:\n       xxd [options] [infile [outfile]]\n"));
    }
}
