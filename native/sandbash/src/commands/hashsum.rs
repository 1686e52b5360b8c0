//! `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum`,
//! `b2sum` (BLAKE2b, `-l BITS`) (GNU coreutils md5sum.c): print digests (`-b`/`-t`, `--tag`, `-z`) or
//! verify them (`-c` with `--quiet`, `--status`, `--strict`, `-w`,
//! `--ignore-missing`), with GNU's escaping of odd file names and its
//! WARNING summary. Files stream through the hasher a chunk at a time.

use super::util::{quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;
use blake2::digest::VariableOutput;
use blake2::Blake2bVar;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

/// One of the digest utilities; the registry holds one per name.
pub struct HashSum(pub Algo);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Algo {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    /// BLAKE2b with this many bytes of digest (64 by default, `-l` bits / 8).
    Blake2b(usize),
}

impl Algo {
    /// The name in `--tag` lines and messages.
    pub(super) fn tag(self) -> &'static str {
        match self {
            Algo::Md5 => "MD5",
            Algo::Sha1 => "SHA1",
            Algo::Sha224 => "SHA224",
            Algo::Sha256 => "SHA256",
            Algo::Sha384 => "SHA384",
            Algo::Sha512 => "SHA512",
            Algo::Blake2b(_) => "BLAKE2b",
        }
    }
    /// The tag as printed: `BLAKE2b-256` for a shortened BLAKE2b.
    fn full_tag(self) -> String {
        match self {
            Algo::Blake2b(n) if n != 64 => format!("BLAKE2b-{}", n * 8),
            a => a.tag().to_string(),
        }
    }
    fn hex_len(self) -> usize {
        match self {
            Algo::Md5 => 32,
            Algo::Sha1 => 40,
            Algo::Sha224 => 56,
            Algo::Sha256 => 64,
            Algo::Sha384 => 96,
            Algo::Sha512 => 128,
            Algo::Blake2b(n) => n * 2,
        }
    }
    fn hasher(self) -> Hasher {
        match self {
            Algo::Md5 => Hasher::Md5(Md5::new()),
            Algo::Sha1 => Hasher::Sha1(Sha1::new()),
            Algo::Sha224 => Hasher::Sha224(Sha224::new()),
            Algo::Sha256 => Hasher::Sha256(Sha256::new()),
            Algo::Sha384 => Hasher::Sha384(Sha384::new()),
            Algo::Sha512 => Hasher::Sha512(Sha512::new()),
            // b2sum lets only 1..=64 bytes through, so the fallback never runs.
            Algo::Blake2b(n) => match Blake2bVar::new(n.clamp(1, 64)) {
                Ok(h) => Hasher::Blake2b(h),
                Err(_) => Hasher::Sha512(Sha512::new()),
            },
        }
    }
}

enum Hasher {
    Md5(Md5),
    Sha1(Sha1),
    Sha224(Sha224),
    Sha256(Sha256),
    Sha384(Sha384),
    Sha512(Sha512),
    Blake2b(Blake2bVar),
}

impl Hasher {
    fn update(&mut self, d: &[u8]) {
        match self {
            Hasher::Md5(h) => h.update(d),
            Hasher::Sha1(h) => h.update(d),
            Hasher::Sha224(h) => h.update(d),
            Hasher::Sha256(h) => h.update(d),
            Hasher::Sha384(h) => h.update(d),
            Hasher::Sha512(h) => h.update(d),
            Hasher::Blake2b(h) => blake2::digest::Update::update(h, d),
        }
    }
    fn hex(self) -> String {
        let bytes: Vec<u8> = match self {
            Hasher::Md5(h) => h.finalize().to_vec(),
            Hasher::Sha1(h) => h.finalize().to_vec(),
            Hasher::Sha224(h) => h.finalize().to_vec(),
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha384(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
            Hasher::Blake2b(h) => {
                let mut out = vec![0u8; h.output_size()];
                // The buffer has exactly the output size, so this cannot fail.
                let _ = h.finalize_variable(&mut out);
                out
            }
        };
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

const SPEC: Spec = Spec::new(
    "bctwz",
    &[
        ("binary", Arg::No, "b"),
        ("check", Arg::No, "c"),
        ("ignore-missing", Arg::No, "ignore-missing"),
        ("quiet", Arg::No, "quiet"),
        ("status", Arg::No, "status"),
        ("strict", Arg::No, "strict"),
        ("tag", Arg::No, "tag"),
        ("text", Arg::No, "t"),
        ("warn", Arg::No, "w"),
        ("zero", Arg::No, "z"),
    ],
    "[OPTION]... [FILE]...",
);

/// b2sum's options: md5sum's and `-l BITS`.
const B2_SPEC: Spec = Spec::new(
    "bctwzl:",
    &[
        ("binary", Arg::No, "b"),
        ("check", Arg::No, "c"),
        ("ignore-missing", Arg::No, "ignore-missing"),
        ("length", Arg::Yes, "l"),
        ("quiet", Arg::No, "quiet"),
        ("status", Arg::No, "status"),
        ("strict", Arg::No, "strict"),
        ("tag", Arg::No, "tag"),
        ("text", Arg::No, "t"),
        ("warn", Arg::No, "w"),
        ("zero", Arg::No, "z"),
    ],
    "[OPTION]... [FILE]...",
);

/// b2sum's `-l BITS`: the digest bytes, or GNU's message lines.
fn blake2_length(v: &str) -> Result<usize, Vec<String>> {
    let invalid = format!("invalid length: {}", quote_locale(v));
    let bits: u64 = v.parse().map_err(|_| vec![invalid.clone()])?;
    if !bits.is_multiple_of(8) {
        return Err(vec![invalid, "length is not a multiple of 8".to_string()]);
    }
    if bits > 512 {
        return Err(vec![invalid, format!("maximum digest length for {} is 512 bits", quote_locale("BLAKE2b"))]);
    }
    Ok(if bits == 0 { 64 } else { (bits / 8) as usize })
}

/// Hash one operand a chunk at a time; `Err` is the C library's message.
pub(super) async fn digest_file(ctx: &CommandContext<'_>, algo: Algo, name: &str) -> Result<String, String> {
    let input = ctx.open_input(name).await?;
    let mut h = algo.hasher();
    while let Some(chunk) = input.read_chunk().await {
        h.update(&chunk);
        if !ctx.still_running() {
            break;
        }
    }
    Ok(h.hex())
}

/// One output line: `HEX  NAME` (`*NAME` in binary mode) or `ALGO (NAME) = HEX`
/// with `tag`, with a leading `\\` when the name had to be escaped.
pub(super) fn format_line(algo: Algo, hex: &str, f: &str, tag: bool, binary: bool, zero: bool) -> String {
    let escape = !zero && f.contains(['\\', '\n', '\r']);
    let name = if escape { escape_name(f) } else { f.to_string() };
    let mut line = String::new();
    if escape {
        line.push('\\');
    }
    if tag {
        line.push_str(&format!("{} ({name}) = {hex}", algo.full_tag()));
    } else {
        let mark = if binary { '*' } else { ' ' };
        line.push_str(&format!("{hex} {mark}{name}"));
    }
    line.push(if zero { '\0' } else { '\n' });
    line
}

/// GNU's escaping of a name holding `\`, newline or carriage return.
fn escape_name(name: &str) -> String {
    name.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r")
}

/// Undo [`escape_name`]; `None` for any other escape (an invalid line).
fn unescape_name(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' => {
                i += 1;
                out.push(match s.get(i)? {
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b'\\' => b'\\',
                    _ => return None,
                });
            }
            0 => return None,
            c => out.push(c),
        }
        i += 1;
    }
    Some(out)
}

fn is_white(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// State of the line parser across a check file: whether lines are in the
/// `HEX NAME` form with one space (`Some(true)`), GNU's standard form (`Some(false)`).
struct LineParser {
    /// `None` (cksum without `-a`): tagged lines name their algorithm.
    algo: Option<Algo>,
    bsd_reversed: Option<bool>,
}

const ALL: [Algo; 6] = [Algo::Md5, Algo::Sha1, Algo::Sha224, Algo::Sha256, Algo::Sha384, Algo::Sha512];

impl LineParser {
    /// GNU's split_3: the hex digest and file name of a check line.
    fn split<'a>(&mut self, s: &'a [u8]) -> Option<(&'a [u8], Vec<u8>, Algo)> {
        let mut i = s.iter().take_while(|&&c| is_white(c)).count();
        let escaped = s.get(i) == Some(&b'\\');
        if escaped {
            i += 1;
        }
        let tagged = match self.algo {
            Some(a) => s[i..].starts_with(a.tag().as_bytes()).then_some(a),
            None => ALL.into_iter().find(|a| {
                let t = a.tag().as_bytes();
                s[i..].starts_with(t) && matches!(s.get(i + t.len()), Some(b' ' | b'('))
            }),
        };
        if let Some(mut algo) = tagged {
            i += algo.tag().len();
            if let (Algo::Blake2b(_), Some(b'-')) = (algo, s.get(i)) {
                // `BLAKE2b-256 (name) = ...`: the length is part of the tag.
                let digits = s[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                let bits: usize = std::str::from_utf8(&s[i + 1..i + 1 + digits]).ok()?.parse().ok()?;
                if bits == 0 || !bits.is_multiple_of(8) || bits > 512 {
                    return None;
                }
                algo = Algo::Blake2b(bits / 8);
                i += 1 + digits;
            } else if let Algo::Blake2b(_) = algo {
                algo = Algo::Blake2b(64);
            }
            if s.get(i) == Some(&b' ') {
                i += 1;
            }
            if s.get(i) != Some(&b'(') {
                return None;
            }
            let rest = &s[i + 1..];
            let close = rest.iter().rposition(|&c| c == b')')?;
            let name = if escaped { unescape_name(&rest[..close])? } else { rest[..close].to_vec() };
            let mut j = close + 1;
            while rest.get(j).is_some_and(|&c| is_white(c)) {
                j += 1;
            }
            if rest.get(j) != Some(&b'=') {
                return None;
            }
            j += 1;
            while rest.get(j).is_some_and(|&c| is_white(c)) {
                j += 1;
            }
            return Some((&rest[j..], name, algo));
        }
        let mut algo = self.algo?;
        if let Algo::Blake2b(_) = algo {
            // Untagged BLAKE2b lines say their length by the digest's.
            let n = s[i..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if n == 0 || n % 2 != 0 || n > 128 {
                return None;
            }
            algo = Algo::Blake2b(n / 2);
        }
        let hex_len = algo.hex_len();
        if s.len() - i < hex_len + 2 {
            return None;
        }
        let hex = &s[i..i + hex_len];
        i += hex_len;
        if !is_white(s[i]) {
            return None;
        }
        i += 1;
        if s.len() - i == 1 || (s[i] != b' ' && s[i] != b'*') {
            // `HEX NAME` with one space: only if every line so far is so.
            if self.bsd_reversed == Some(false) {
                return None;
            }
            self.bsd_reversed = Some(true);
        } else if self.bsd_reversed != Some(true) {
            self.bsd_reversed = Some(false);
            i += 1;
        }
        let name = if escaped { unescape_name(&s[i..])? } else { s[i..].to_vec() };
        Some((hex, name, algo))
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("WARNING: {n} {}", if n == 1 { one } else { many })
}

pub(super) struct CheckOpts {
    pub quiet: bool,
    pub status: bool,
    pub strict: bool,
    pub warn: bool,
    pub ignore_missing: bool,
}

/// Verify the sums listed in `checkfile`; whether all was well.
/// `algo` is `None` for `cksum -c` without `-a` (tagged lines only); `kind`
/// names the checksum in `-w` warnings.
pub(super) async fn check_file(
    ctx: &CommandContext<'_>,
    algo: Option<Algo>,
    kind: &str,
    checkfile: &str,
    o: &CheckOpts,
) -> Result<bool, IoError> {
    let is_stdin = checkfile == "-";
    let shown = if is_stdin { quotef("standard input") } else { quotef(checkfile) };
    let mut src = match ctx.open_lines(checkfile, b'\n').await {
        Ok(s) => s,
        Err(e) => {
            ctx.err(format!("{}: {e}", quotef(checkfile))).await?;
            return Ok(false);
        }
    };
    let mut parser = LineParser { algo, bsd_reversed: None };
    let mut kind = kind.to_string();
    let (mut misformatted, mut unreadable, mut mismatched) = (0u64, 0u64, 0u64);
    let (mut properly_formatted, mut matched) = (false, false);
    let mut line_no = 0u64;
    while let Some(raw) = src.next_line(ctx).await {
        if !ctx.still_running() {
            break;
        }
        line_no += 1;
        if raw.first() == Some(&b'#') {
            continue;
        }
        let mut line = &raw[..];
        if line.last() == Some(&b'\n') {
            line = &line[..line.len() - 1];
        }
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        if line.is_empty() {
            continue;
        }
        let parsed = parser.split(line).filter(|(hex, name, a)| {
            !(is_stdin && name == b"-") && hex.len() == a.hex_len() && hex.iter().all(u8::is_ascii_hexdigit)
        });
        if let (None, Some((_, _, a))) = (algo, &parsed) {
            // cksum names the last algorithm it recognised in warnings.
            kind = a.tag().to_string();
        }
        let Some((hex, name, line_algo)) = parsed else {
            misformatted += 1;
            if o.warn {
                ctx.err(format!("{shown}: {line_no}: improperly formatted {kind} checksum line")).await?;
            }
            continue;
        };
        properly_formatted = true;
        let name = String::from_utf8_lossy(&name).into_owned();
        let shown_name = if name.contains('\n') { format!("\\{}", escape_name(&name)) } else { name.clone() };
        match digest_file(ctx, line_algo, &name).await {
            Err(e) => {
                if o.ignore_missing && e == "No such file or directory" {
                    continue;
                }
                ctx.err(format!("{}: {e}", quotef(&name))).await?;
                unreadable += 1;
                if !o.status {
                    ctx.out(format!("{shown_name}: FAILED open or read\n").as_bytes()).await?;
                }
            }
            Ok(got) => {
                let ok = got.as_bytes().eq_ignore_ascii_case(hex);
                if ok {
                    matched = true;
                } else {
                    mismatched += 1;
                }
                if !o.status && (!ok || !o.quiet) {
                    let word = if ok { "OK" } else { "FAILED" };
                    ctx.out(format!("{shown_name}: {word}\n").as_bytes()).await?;
                }
            }
        }
    }
    if !properly_formatted {
        ctx.err(format!("{shown}: no properly formatted checksum lines found")).await?;
    } else if !o.status {
        if misformatted > 0 {
            ctx.err(plural(misformatted, "line is improperly formatted", "lines are improperly formatted")).await?;
        }
        if unreadable > 0 {
            ctx.err(plural(unreadable, "listed file could not be read", "listed files could not be read")).await?;
        }
        if mismatched > 0 {
            ctx.err(plural(mismatched, "computed checksum did NOT match", "computed checksums did NOT match")).await?;
        }
        if o.ignore_missing && !matched {
            ctx.err(format!("{shown}: no file was verified")).await?;
        }
    }
    Ok(properly_formatted
        && mismatched == 0
        && unreadable == 0
        && (!o.strict || misformatted == 0)
        && (!o.ignore_missing || matched))
}

#[async_trait]
impl Utility for HashSum {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut algo = self.0;
        let spec = if let Algo::Blake2b(_) = algo { &B2_SPEC } else { &SPEC };
        let p = ctx.opts(spec).await?;
        if let Some(v) = p.last("l") {
            match blake2_length(v) {
                Ok(n) => algo = Algo::Blake2b(n),
                Err(lines) => {
                    for l in lines {
                        ctx.err(l).await?;
                    }
                    return Ok(1);
                }
            }
        }
        // GNU: `--tag` implies binary mode; the last of -b/-t/--tag wins.
        let mut binary: Option<bool> = None;
        let mut tag = false;
        for o in &p.opts {
            match o.id {
                "b" => binary = Some(true),
                "t" => binary = Some(false),
                "tag" => {
                    tag = true;
                    binary = Some(true);
                }
                _ => {}
            }
        }
        let check = p.has("c");
        let o = CheckOpts {
            quiet: p.has("quiet"),
            status: p.has("status"),
            strict: p.has("strict"),
            warn: p.has("w"),
            ignore_missing: p.has("ignore-missing"),
        };
        let zero = p.has("z");
        let misuse = if tag && binary == Some(false) {
            Some("--tag does not support --text mode")
        } else if zero && check {
            Some("the --zero option is not supported when verifying checksums")
        } else if tag && check {
            Some("the --tag option is meaningless when verifying checksums")
        } else if binary.is_some() && check {
            Some("the --binary and --text options are meaningless when verifying checksums")
        } else if o.ignore_missing && !check {
            Some("the --ignore-missing option is meaningful only when verifying checksums")
        } else if o.status && !check {
            Some("the --status option is meaningful only when verifying checksums")
        } else if o.warn && !check {
            Some("the --warn option is meaningful only when verifying checksums")
        } else if o.quiet && !check {
            Some("the --quiet option is meaningful only when verifying checksums")
        } else if o.strict && !check {
            Some("the --strict option is meaningful only when verifying checksums")
        } else {
            None
        };
        if let Some(m) = misuse {
            return Err(UError::usage(1, m));
        }
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut ok = true;
        for f in &files {
            if check {
                ok &= check_file(ctx, Some(algo), algo.tag(), f, &o).await?;
                continue;
            }
            let hex = match digest_file(ctx, algo, f).await {
                Ok(h) => h,
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    ok = false;
                    continue;
                }
            };
            let line = format_line(algo, &hex, f, tag, binary == Some(true), zero);
            ctx.out(line.as_bytes()).await?;
        }
        Ok(if ok { 0 } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const MD5_ABC: &str = "900150983cd24fb0d6963f7d28e17f72";

    #[test]
    fn prints_digests() {
        let files = [("abc", "abc")];
        check(
            &["sha256sum", "abc", "-"],
            &files,
            "abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc\n\
             ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n",
            "",
            0,
        );
        check(&["md5sum", "--tag", "abc"], &files, "", &format!("MD5 (abc) = {MD5_ABC}\n"), "", 0);
        check(&["md5sum", "-b", "abc"], &files, "", &format!("{MD5_ABC} *abc\n"), "", 0);
        check(&["md5sum", "-t", "abc"], &files, "", &format!("{MD5_ABC}  abc\n"), "", 0);
        check(&["md5sum", "-z", "abc"], &files, "", &format!("{MD5_ABC}  abc\0"), "", 0);
        check(&["md5sum", "--tag"], &[], "abc", &format!("MD5 (-) = {MD5_ABC}\n"), "", 0);
        check(
            &["sha1sum", "we ird"],
            &[("we ird", "x\ny\n")],
            "",
            "a08bad768ec43befe49b97938f4318c450d1f7c4  we ird\n",
            "",
            0,
        );
        check(
            &["sha1sum", "back\\slash", "n\nl"],
            &[("back\\slash", "a\\b"), ("n\nl", "nl\n")],
            "",
            "\\d0dcc0f2ef30287cf9d258ab5c4cee98aeecaa36  back\\\\slash\n\
             \\0468c7f30407141db815d4e72b3f8b7958556f09  n\\nl\n",
            "",
            0,
        );
        check(
            &["md5sum", "--tag", "back\\slash"],
            &[("back\\slash", "a\\b")],
            "",
            "\\MD5 (back\\\\slash) = 2b28f46e64b4e84814aa8dc22ab1c36d\n",
            "",
            0,
        );
        check(&["sha224sum"], &[], "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7  -\n", "", 0);
        check(
            &["sha384sum"],
            &[],
            "abc",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7  -\n",
            "",
            0,
        );
        check(
            &["sha512sum"],
            &[],
            "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f  -\n",
            "",
            0,
        );
        check(
            &["md5sum", "nofile", "abc"],
            &files,
            "",
            &format!("{MD5_ABC}  abc\n"),
            "md5sum: nofile: No such file or directory\n",
            1,
        );
        check(&["sha256sum", "d"], &[("d/", "")], "", "", "sha256sum: d: Is a directory\n", 1);
    }

    const SUMS2: &str = "900150983cd24fb0d6963f7d28e17f72  abc\n\
                         c3e59e2ee0a36dde03ef9c9a2cd0ad50  we ird\n\
                         garbage line\n\
                         d41d8cd98f00b204e9800998ecf8427e  abc2\n\
                         d41d8cd98f00b204e9800998ecf8427e  missing\n";

    #[test]
    fn checks() {
        let files = [("abc", "abc"), ("abc2", "abc"), ("we ird", "x\ny\n"), ("sums2", SUMS2)];
        let warn = "md5sum: missing: No such file or directory\n\
                    md5sum: WARNING: 1 line is improperly formatted\n\
                    md5sum: WARNING: 1 listed file could not be read\n\
                    md5sum: WARNING: 2 computed checksums did NOT match\n";
        check(
            &["md5sum", "-c", "sums2"],
            &files,
            "",
            "abc: OK\nwe ird: FAILED\nabc2: FAILED\nmissing: FAILED open or read\n",
            warn,
            1,
        );
        check(
            &["md5sum", "--quiet", "-c", "sums2"],
            &files,
            "",
            "we ird: FAILED\nabc2: FAILED\nmissing: FAILED open or read\n",
            warn,
            1,
        );
        check(
            &["md5sum", "--status", "-c", "sums2"],
            &files,
            "",
            "",
            "md5sum: missing: No such file or directory\n",
            1,
        );
        check(
            &["md5sum", "-c", "-w", "sums2"],
            &files,
            "",
            "abc: OK\nwe ird: FAILED\nabc2: FAILED\nmissing: FAILED open or read\n",
            &format!("md5sum: sums2: 3: improperly formatted MD5 checksum line\n{warn}"),
            1,
        );
        check(
            &["md5sum", "-c"],
            &files,
            &format!("{MD5_ABC}  abc\n900150983CD24FB0D6963F7D28E17F72 *abc2\nMD5 (abc) = {MD5_ABC}\r\n# x\n\n"),
            "abc: OK\nabc2: OK\nabc: OK\n",
            "",
            0,
        );
        check(
            &["md5sum", "-c"],
            &files,
            "# comment\n\n",
            "",
            "md5sum: 'standard input': no properly formatted checksum lines found\n",
            1,
        );
        check(
            &["md5sum", "-c", "--ignore-missing"],
            &files,
            "d41d8cd98f00b204e9800998ecf8427e  missing\n",
            "",
            "md5sum: 'standard input': no file was verified\n",
            1,
        );
        check(
            &["md5sum", "-c"],
            &[("n\nl", "nl\n")],
            "\\48c531beed9a4e20c3ab1684c79d8f4b  n\\nl\n",
            "\\n\\nl: OK\n",
            "",
            0,
        );
        check(&["md5sum", "-c", "nofile"], &[], "", "", "md5sum: nofile: No such file or directory\n", 1);
    }

    #[test]
    fn misuse() {
        let e = |m: &str| format!("md5sum: {m}\nTry 'md5sum --help' for more information.\n");
        check(&["md5sum", "--tag", "-t"], &[], "", "", &e("--tag does not support --text mode"), 1);
        check(
            &["md5sum", "--quiet"],
            &[],
            "",
            "",
            &e("the --quiet option is meaningful only when verifying checksums"),
            1,
        );
        check(
            &["md5sum", "-c", "-b"],
            &[],
            "",
            "",
            &e("the --binary and --text options are meaningless when verifying checksums"),
            1,
        );
        check(
            &["md5sum", "-z", "-c"],
            &[],
            "",
            "",
            &e("the --zero option is not supported when verifying checksums"),
            1,
        );
    }

    const B2_HI: &str = "7ea59e7a000ec003846b6607dfd5f9217b681dc1a81b0789b464c3995105d93083f7f0a86fca01a1bed27e9f9303ae58d01746e3b20443480bea56198e65bfc5";
    const B2_256_HI: &str = "de9543b2ae1b2b87434a730727db17f5ac8b8c020b84a5cb8c5fbcc1423443ba";

    #[test]
    fn b2sum() {
        let files = [("hi.txt", "hi\n")];
        check(&["b2sum", "hi.txt"], &files, "", &format!("{B2_HI}  hi.txt\n"), "", 0);
        check(&["b2sum"], &[], "hi\n", &format!("{B2_HI}  -\n"), "", 0);
        check(&["b2sum", "-l", "256", "hi.txt"], &files, "", &format!("{B2_256_HI}  hi.txt\n"), "", 0);
        check(&["b2sum", "-l", "0", "hi.txt"], &files, "", &format!("{B2_HI}  hi.txt\n"), "", 0);
        check(&["b2sum", "-l", "8", "hi.txt"], &files, "", "2c  hi.txt\n", "", 0);
        check(&["b2sum", "--tag", "hi.txt"], &files, "", &format!("BLAKE2b (hi.txt) = {B2_HI}\n"), "", 0);
        let out = format!("BLAKE2b-256 (hi.txt) = {B2_256_HI}\n");
        check(&["b2sum", "--tag", "-l", "256", "hi.txt"], &files, "", &out, "", 0);
        let empty = "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce";
        check(&["b2sum", "--tag", "-"], &[], "", &format!("BLAKE2b (-) = {empty}\n"), "", 0);
    }

    #[test]
    fn b2sum_check() {
        let sums = format!(
            "{B2_256_HI}  hi.txt\n{B2_HI}  hi.txt\nBLAKE2b-256 (hi.txt) = {B2_256_HI}\nBLAKE2b (hi.txt) = {B2_HI}\n"
        );
        let files = [("hi.txt", "hi\n"), ("sums", sums.as_str())];
        let ok4 = "hi.txt: OK\nhi.txt: OK\nhi.txt: OK\nhi.txt: OK\n";
        check(&["b2sum", "-c", "sums"], &files, "", ok4, "", 0);
        // -l does not restrict what -c accepts.
        check(&["b2sum", "-l", "128", "-c", "sums"], &files, "", ok4, "", 0);
        let bad = format!("{B2_256_HI}  hi.txt\n").replace("de95", "de96");
        let files = [("hi.txt", "hi\n"), ("sums", bad.as_str())];
        let err = "b2sum: WARNING: 1 computed checksum did NOT match\n";
        check(&["b2sum", "-c", "sums"], &files, "", "hi.txt: FAILED\n", err, 1);
    }

    #[test]
    fn b2sum_lengths() {
        let e = "b2sum: invalid length: 'x'\n";
        check(&["b2sum", "-l", "x", "f"], &[], "", "", e, 1);
        let e = "b2sum: invalid length: '513'\nb2sum: length is not a multiple of 8\n";
        check(&["b2sum", "-l", "513", "f"], &[], "", "", e, 1);
        let e = "b2sum: invalid length: '520'\nb2sum: maximum digest length for 'BLAKE2b' is 512 bits\n";
        check(&["b2sum", "-l", "520", "f"], &[], "", "", e, 1);
        let e = "md5sum: invalid option -- 'l'\nTry 'md5sum --help' for more information.\n";
        check(&["md5sum", "-l", "8"], &[], "", "", e, 1);
    }
}
