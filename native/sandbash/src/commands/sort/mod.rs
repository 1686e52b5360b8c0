//! `sort`: sort lines of text files (GNU coreutils 9.1, C locale byte order).
//! Keys and comparisons live in `sort_cmp`; this file parses options, reads
//! the input, and writes, checks (`-c`/`-C`) or deduplicates (`-u`).

pub(crate) mod cmp;

use crate::commands::util::{bad_arg, quote, quote_locale, quotef, Arg, Spec};
use cmp::{Key, NumKey};
use crate::commands::util::{UError, UResult, Utility};
use crate::commands::CommandContext;
use async_trait::async_trait;
use std::cmp::Ordering;

pub struct Sort;

const SPEC: Spec = Spec::new(
    "bcCdfghik:Mmno:rRsS:t:T:uVy:z",
    &[
        ("ignore-leading-blanks", Arg::No, "b"),
        ("check", Arg::Optional, "check"),
        ("dictionary-order", Arg::No, "d"),
        ("ignore-case", Arg::No, "f"),
        ("general-numeric-sort", Arg::No, "g"),
        ("human-numeric-sort", Arg::No, "h"),
        ("ignore-nonprinting", Arg::No, "i"),
        ("key", Arg::Yes, "k"),
        ("month-sort", Arg::No, "M"),
        ("merge", Arg::No, "m"),
        ("numeric-sort", Arg::No, "n"),
        ("output", Arg::Yes, "o"),
        ("reverse", Arg::No, "r"),
        ("random-sort", Arg::No, "R"),
        ("random-source", Arg::Yes, "random-source"),
        ("sort", Arg::Yes, "sort"),
        ("stable", Arg::No, "s"),
        ("buffer-size", Arg::Yes, "S"),
        ("field-separator", Arg::Yes, "t"),
        ("temporary-directory", Arg::Yes, "T"),
        ("unique", Arg::No, "u"),
        ("version-sort", Arg::No, "V"),
        ("zero-terminated", Arg::No, "z"),
        ("parallel", Arg::Yes, "parallel"),
        ("batch-size", Arg::Yes, "batch-size"),
        ("compress-program", Arg::Yes, "compress-program"),
    ],
    "[OPTION]... [FILE]...",
)
.status(2);

/// Output handed to stdout at a time.
const OUT_BLOCK: usize = 64 * 1024;

/// Everything that decides the order.
struct Order {
    keys: Vec<Key>,
    tab: Option<u8>,
    reverse: bool,
    unique: bool,
    stable: bool,
    seed: u64,
}

/// A line with its first key extracted (and for a plain `-n` key, parsed)
/// once before sorting, not in every comparison.
struct Entry<'a> {
    line: &'a [u8],
    key: &'a [u8],
    num: Option<NumKey<'a>>,
    /// The line's first 8 bytes (zero-padded, big-endian): unequal heads
    /// order the lines as their bytes do, without reading the line.
    head: u64,
}

impl Order {
    /// GNU `compare`: keys in turn, then (unless -s/-u) the whole line bytewise.
    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        self.compare_from(0, a, b)
    }

    fn entry<'a>(&self, line: &'a [u8]) -> Entry<'a> {
        let mut h = [0u8; 8];
        let n = line.len().min(8);
        h[..n].copy_from_slice(&line[..n]);
        let head = u64::from_be_bytes(h);
        let Some(k) = self.keys.first() else { return Entry { line, key: line, num: None, head } };
        let key = k.extract(line, self.tab);
        let num = (k.numeric && !k.random).then(|| NumKey::parse(key));
        Entry { line, key, num, head }
    }

    /// `compare` with the first key already extracted.
    fn compare_entries(&self, a: &Entry<'_>, b: &Entry<'_>) -> Ordering {
        if let Some(k) = self.keys.first() {
            let d = match (&a.num, &b.num) {
                (Some(x), Some(y)) => x.cmp(y),
                _ => k.compare(a.key, b.key, self.seed),
            };
            if d != Ordering::Equal {
                return if k.reverse { d.reverse() } else { d };
            }
            if self.keys.len() > 1 {
                return self.compare_from(1, a.line, b.line);
            }
            if self.unique || self.stable {
                return Ordering::Equal;
            }
        }
        let d = a.head.cmp(&b.head).then_with(|| a.line.cmp(b.line));
        if self.reverse {
            d.reverse()
        } else {
            d
        }
    }

    /// `compare` from key `first` on.
    fn compare_from(&self, first: usize, a: &[u8], b: &[u8]) -> Ordering {
        if !self.keys.is_empty() {
            for k in self.keys.iter().skip(first) {
                let d = k.compare(k.extract(a, self.tab), k.extract(b, self.tab), self.seed);
                if d != Ordering::Equal {
                    return if k.reverse { d.reverse() } else { d };
                }
            }
            if self.unique || self.stable {
                return Ordering::Equal;
            }
        }
        let d = a.cmp(b);
        if self.reverse {
            d.reverse()
        } else {
            d
        }
    }
}

/// A usage-level failure: message, then status 2.
type Fail = String;

/// Parse a `-k` KEYDEF (`F[.C][OPTS][,F[.C][OPTS]]`).
fn parse_key(spec: &str) -> Result<Key, Fail> {
    let mut key = Key::default();
    let bad = |what: &str| format!("{what}: invalid field specification {}", quote_locale(spec));
    let (n, s) = count(spec, "invalid number at field start")?;
    if n == 0 {
        return Err(bad("field number is zero"));
    }
    key.sword = n - 1;
    let mut s = s;
    if let Some(rest) = s.strip_prefix('.') {
        let (c, r) = count(rest, "invalid number after '.'")?;
        if c == 0 {
            return Err(bad("character offset is zero"));
        }
        key.schar = c - 1;
        s = r;
    }
    s = key.set_ordering(s, true, false);
    if let Some(rest) = s.strip_prefix(',') {
        let (e, r) = count(rest, "invalid number after ','")?;
        if e == 0 {
            return Err(bad("field number is zero"));
        }
        key.eword = Some(e - 1);
        s = r;
        if let Some(rest) = s.strip_prefix('.') {
            let (c, r) = count(rest, "invalid number after '.'")?;
            key.echar = c;
            s = r;
        }
        s = key.set_ordering(s, false, true);
    }
    if !s.is_empty() {
        return Err(bad("stray character in field spec"));
    }
    Ok(key)
}

/// Leading decimal count (saturating) and the rest.
fn count<'a>(s: &'a str, what: &str) -> Result<(usize, &'a str), Fail> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return Err(format!("{what}: invalid count at start of {}", quote_locale(s)));
    }
    let n = s[..end].bytes().fold(0usize, |a, d| a.saturating_mul(10).saturating_add(usize::from(d - b'0')));
    Ok((n, &s[end..]))
}

const SORT_WORDS: &[(&str, char)] = &[
    ("general-numeric", 'g'),
    ("human-numeric", 'h'),
    ("month", 'M'),
    ("numeric", 'n'),
    ("random", 'R'),
    ("version", 'V'),
];

/// How `-c` reports.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    No,
    Diagnose,
    Quiet,
}

#[async_trait]
impl Utility for Sort {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut gkey = Key::default();
        let mut keys = Vec::new();
        let (mut tab, mut output, mut check) = (None::<u8>, None::<String>, Check::No);
        let (mut unique, mut stable, mut zero) = (false, false, false);
        for o in &p.opts {
            let val = o.val.as_deref().unwrap_or("");
            match o.id {
                "k" => match parse_key(val) {
                    Ok(k) => keys.push(k),
                    Err(m) => return Err(fail(m)),
                },
                "t" => {
                    let t = match val.as_bytes() {
                        [] => return Err(fail("empty tab")),
                        [c] => *c,
                        b"\\0" => 0,
                        _ => return Err(fail(format!("multi-character tab {}", quote(val)))),
                    };
                    if tab.is_some_and(|old| old != t) {
                        return Err(fail("incompatible tabs"));
                    }
                    tab = Some(t);
                }
                "o" => {
                    if output.as_deref().is_some_and(|old| old != val) {
                        return Err(fail("multiple output files specified"));
                    }
                    output = Some(val.to_string());
                }
                "c" => check = Check::Diagnose,
                "C" => check = Check::Quiet,
                "check" => {
                    check = match val {
                        "" | "diagnose-first" => Check::Diagnose,
                        "quiet" | "silent" => Check::Quiet,
                        _ => {
                            let m = bad_arg(val, "check", &["'quiet', 'silent'", "'diagnose-first'"]);
                            return Err(UError::usage(2, m));
                        }
                    }
                }
                "sort" => match SORT_WORDS.iter().find(|w| w.0 == val) {
                    Some(w) => {
                        gkey.set_ordering(&w.1.to_string(), true, true);
                    }
                    None => {
                        let valid: Vec<String> = SORT_WORDS.iter().map(|w| quote(w.0)).collect();
                        let valid: Vec<&str> = valid.iter().map(String::as_str).collect();
                        return Err(UError::usage(2, bad_arg(val, "sort", &valid)));
                    }
                },
                "u" => unique = true,
                "s" => stable = true,
                "z" => zero = true,
                // Merging sorted inputs gives the same result as sorting them.
                "m" | "S" | "T" | "y" | "parallel" | "batch-size" | "compress-program" | "random-source" => {}
                letter => {
                    gkey.set_ordering(letter, true, true);
                }
            }
        }
        if keys.is_empty() {
            if !gkey.has_no_options() {
                keys.push(gkey.clone());
            }
        } else {
            for k in keys.iter_mut().filter(|k| k.has_no_options()) {
                k.inherit(&gkey);
            }
        }
        if let Some(opts) = keys.iter().find_map(Key::incompatible) {
            return Err(fail(format!("options '-{opts}' are incompatible")));
        }
        let mut files = p.operands.clone();
        if files.is_empty() {
            files.push("-".into());
        }
        if check != Check::No {
            if let Some(extra) = files.get(1) {
                return Err(fail(format!("extra operand {} not allowed with -c", quote_locale(extra))));
            }
            if output.is_some() {
                let c = if check == Check::Quiet { 'C' } else { 'c' };
                return Err(fail(format!("options '-{c}o' are incompatible")));
            }
        }
        let seed = {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u8(0);
            h.finish()
        };
        let order = Order { keys, tab, reverse: gkey.reverse, unique, stable, seed };
        let delim = if zero { 0 } else { b'\n' };

        // Read every input before writing anything (so `sort -o f f` works).
        // One input is used as read, not copied: every fresh buffer of a big
        // sort costs its pages' zeroing in the kernel (the largest single
        // cost of sorting 10 MB).
        let mut data = Vec::new();
        for f in &files {
            match ctx.read_operand(f).await {
                Ok(d) => {
                    if data.is_empty() {
                        data = d;
                    } else {
                        let grown = (data.len() + d.len() + 1) as u64;
                        if let Err(stop) = crate::limits::scope::reserve(grown) {
                            crate::limits::scope::stop_exec(stop);
                            return Ok(2);
                        }
                        data.reserve_exact(d.len() + 1);
                        data.extend_from_slice(&d);
                    }
                    if data.last().is_some_and(|&c| c != delim) {
                        data.push(delim);
                    }
                }
                Err(e) => {
                    let what = if e == "Is a directory" { "read failed" } else { "cannot read" };
                    return Err(fail(format!("{what}: {}: {e}", quotef(f))));
                }
            }
        }
        // Every piece but the empty one after the last delimiter.
        let lines = || data.strip_suffix(&[delim]).map(|d| d.split(move |&c| c == delim)).into_iter().flatten();

        if check != Check::No {
            let lines: Vec<&[u8]> = lines().collect();
            for i in 1..lines.len() {
                let d = order.compare(lines[i - 1], lines[i]);
                if d == Ordering::Greater || (unique && d == Ordering::Equal) {
                    if check == Check::Diagnose {
                        let mut m = format!("sort: {}:{}: disorder: ", quotef(&files[0]), i + 1).into_bytes();
                        m.extend_from_slice(lines[i]);
                        m.push(b'\n');
                        ctx.stderr.write(&m).await?;
                    }
                    return Ok(1);
                }
            }
            return Ok(0);
        }

        // The entries (and a stable sort's buffer of half as many) are asked
        // of the budget and made at their size: built by doubling, the last
        // growth alone would pass it before any check could see it.
        let count = lines().count();
        let stable_buf = if order.keys.is_empty() || !(order.unique || order.stable) { 0 } else { count / 2 };
        let need = (count + stable_buf) as u64 * std::mem::size_of::<Entry<'_>>() as u64;
        if let Err(stop) = crate::limits::scope::reserve(need) {
            crate::limits::scope::stop_exec(stop);
            return Ok(2);
        }
        let mut entries: Vec<Entry<'_>> = Vec::with_capacity(count);
        entries.extend(lines().map(|l| order.entry(l)));
        // Comparisons look at the deadline; once the exec must stop, every pair
        // compares equal and the sort finishes at once.
        let mut stopped = false;
        let mut turns = 0u32;
        let mut cmp = |a: &Entry<'_>, b: &Entry<'_>| {
            if stopped {
                return Ordering::Equal;
            }
            // The turn counter every 64 comparisons (a full check every
            // 65,536): a comparison is a few nanoseconds.
            turns = turns.wrapping_add(1);
            if turns.is_multiple_of(64) {
                if let Err(stop) = crate::limits::checkpoint() {
                    crate::limits::scope::stop_exec(stop);
                    stopped = true;
                    return Ordering::Equal;
                }
            }
            order.compare_entries(a, b)
        };
        if order.keys.is_empty() || !(order.unique || order.stable) {
            // The whole-line last resort leaves only identical lines equal.
            entries.sort_unstable_by(&mut cmp);
        } else {
            entries.sort_by(&mut cmp);
        }
        if stopped || !ctx.still_running() {
            return Ok(2);
        }
        // `-o FILE` is written whole; stdout gets the output in blocks.
        let to_file = output.as_deref().filter(|o| *o != "-");
        let mut out = Vec::with_capacity(if to_file.is_some() { data.len() } else { OUT_BLOCK + 4096 });
        let mut prev: Option<&[u8]> = None;
        for l in entries.iter().map(|e| e.line) {
            if unique && prev.is_some_and(|p| order.compare(p, l) == Ordering::Equal) {
                continue;
            }
            out.extend_from_slice(l);
            out.push(delim);
            prev = Some(l);
            if to_file.is_none() && out.len() >= OUT_BLOCK {
                ctx.out(&out).await?;
                out.clear();
            }
        }
        match to_file {
            Some(o) => {
                if let Err(e) = ctx.fs.write(&ctx.resolve(o), &out).await {
                    return Err(fail(format!("open failed: {}: {e}", quotef(o))));
                }
            }
            None => ctx.out(&out).await?,
        }
        Ok(0)
    }
}

/// `sort: msg`, status 2.
fn fail(msg: impl Into<String>) -> UError {
    UError::new(2, msg)
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    const NUMS: &str = "10\n9\n-1\n2.5\nabc\n0\n";

    #[test]
    fn plain_and_reverse() {
        check(&["sort"], &[], "b\nB\na\n\nA b\n", "\nA b\nB\na\nb\n", "", 0);
        check(&["sort", "-r"], &[], "b\nB\na\n", "b\na\nB\n", "", 0);
        check(&["sort", "f"], &[("f", "b\na")], "", "a\nb\n", "", 0);
        check(&["sort", "f", "-", "g"], &[("f", "z\n"), ("g", "m")], "a\n", "a\nm\nz\n", "", 0);
        check(&["sort"], &[], "", "", "", 0);
    }

    #[test]
    fn numeric() {
        check(&["sort", "-n"], &[], NUMS, "-1\n0\nabc\n2.5\n9\n10\n", "", 0);
        check(&["sort", "-nr"], &[], NUMS, "10\n9\n2.5\nabc\n0\n-1\n", "", 0);
        check(&["sort", "-g"], &[], "1e3\n-inf\nx\n5\nnan\n", "x\nnan\n-inf\n5\n1e3\n", "", 0);
        check(&["sort", "-g"], &[], "1e2\n3\n-2\n0x10\n.5\n", "-2\n.5\n3\n0x10\n1e2\n", "", 0);
        check(&["sort", "-h"], &[], "1G\n10K\n2M\n5\n-1K\n", "-1K\n5\n10K\n2M\n1G\n", "", 0);
        check(&["sort", "-nu"], &[], "1\n01\n2\n1.0\n", "1\n2\n", "", 0);
    }

    #[test]
    fn keys() {
        let f = "b 2 x\na 10 y\nc 2 a\n";
        check(&["sort", "-k2,2n"], &[], f, "b 2 x\nc 2 a\na 10 y\n", "", 0);
        check(&["sort", "-k2n", "-k3r"], &[], f, "b 2 x\nc 2 a\na 10 y\n", "", 0);
        check(&["sort", "-k3nr"], &[], "a b 1\nc d 3\ne f 2\n", "c d 3\ne f 2\na b 1\n", "", 0);
        check(&["sort", "-t:", "-k2"], &[], "x:b\ny:a\nz:c\n", "y:a\nx:b\nz:c\n", "", 0);
        check(&["sort", "-t", ",", "-k2,2", "-k1,1r"], &[], "a,1\nb,1\nc,0\n", "c,0\nb,1\na,1\n", "", 0);
        check(&["sort", "-k1.2,1.3"], &[], "axc\nbab\ncaa\n", "caa\nbab\naxc\n", "", 0);
        check(&["sort", "-k2b"], &[], "a   z\nb y\n", "b y\na   z\n", "", 0);
        check(&["sort", "-k2"], &[], "a   z\nb y\n", "a   z\nb y\n", "", 0);
        check(&["sort", "-b", "-k2"], &[], "a   z\nb y\n", "b y\na   z\n", "", 0);
        check(&["sort", "-s", "-k1,1"], &[], "a 2\nb 1\na 1\n", "a 2\na 1\nb 1\n", "", 0);
        check(&["sort", "-k1,1"], &[], "a 2\nb 1\na 1\n", "a 1\na 2\nb 1\n", "", 0);
    }

    /// A numeric first key parsed once: ties (`-0`/`0`/`0.0`, `-1.5`/`-1.50`,
    /// no number at all) fall to later keys, the whole line, or input order.
    #[test]
    fn numeric_key_ties() {
        let f = "3 b -0\n1 a 0\n2 c -1.50\n10 a 1.5\nx y\n\n-2 z 007\n2 c -1.5\n1 a 0.0\n";
        let sorted = "2 c -1.5\n2 c -1.50\n\n1 a 0\n1 a 0.0\n3 b -0\nx y\n10 a 1.5\n-2 z 007\n";
        check(&["sort", "-n", "-k3,3"], &[], f, sorted, "", 0);
        let stable = "2 c -1.50\n2 c -1.5\n3 b -0\n1 a 0\nx y\n\n1 a 0.0\n10 a 1.5\n-2 z 007\n";
        check(&["sort", "-s", "-n", "-k3,3"], &[], f, stable, "", 0);
        check(&["sort", "-u", "-n", "-k3,3"], &[], f, "2 c -1.50\n3 b -0\n10 a 1.5\n-2 z 007\n", "", 0);
        let second = "2 c -1.5\n2 c -1.50\nx y\n3 b -0\n1 a 0\n1 a 0.0\n\n10 a 1.5\n-2 z 007\n";
        check(&["sort", "-n", "-k3,3", "-k1,1r"], &[], f, second, "", 0);
        let rev = "-2 z 007\n10 a 1.5\n\n1 a 0\n1 a 0.0\n3 b -0\nx y\n2 c -1.5\n2 c -1.50\n";
        check(&["sort", "-k3,3nr"], &[], f, rev, "", 0);
    }

    /// Numbers past the 8 fraction digits / 19 integer digits the packed
    /// comparison holds (GNU `sort -n -s` order).
    #[test]
    fn numeric_long_digits() {
        let f = "1.000000002\n-1.000000001\n1.000000001\n12345678901234567890\n12345678901234567891\n-1.000000002\n0.00000001\n0.000000009\n1.0000000010\n-0.000000000\n";
        let sorted = "-1.000000002\n-1.000000001\n-0.000000000\n0.000000009\n0.00000001\n1.000000001\n1.0000000010\n1.000000002\n12345678901234567890\n12345678901234567891\n";
        check(&["sort", "-n", "-s"], &[], f, sorted, "", 0);
    }

    #[test]
    fn unique_fold_dict() {
        check(&["sort", "-u"], &[], "b\na\nb\na\n", "a\nb\n", "", 0);
        check(&["sort", "-f"], &[], "b\nB\na\nA\n", "A\na\nB\nb\n", "", 0);
        check(&["sort", "-fu"], &[], "b\nB\na\nA\n", "a\nb\n", "", 0);
        check(&["sort", "-d"], &[], "_b\na\n-c\n", "a\n_b\n-c\n", "", 0);
        check(&["sort", "-M"], &[], "Mar\nfeb\nxyz\nJAN\n", "xyz\nJAN\nfeb\nMar\n", "", 0);
        check(&["sort", "-V"], &[], "a10\na2\na1.10\na1.2\n", "a1.2\na1.10\na2\na10\n", "", 0);
    }

    #[test]
    fn check_mode() {
        check(&["sort", "-c"], &[], "a\nc\nb\n", "", "sort: -:3: disorder: b\n", 1);
        check(&["sort", "-c"], &[("f", "b\na\n")], "", "", "", 0);
        check(&["sort", "-c", "f"], &[("f", "b\na\n")], "", "", "sort: f:2: disorder: a\n", 1);
        check(&["sort", "-C"], &[], "b\na\n", "", "", 1);
        check(&["sort", "-cu"], &[], "1\n1\n", "", "sort: -:2: disorder: 1\n", 1);
        check(&["sort", "-c", "f", "f"], &[], "", "", "sort: extra operand 'f' not allowed with -c\n", 2);
    }

    #[test]
    fn zero_and_output() {
        check(&["sort", "-z"], &[], "b\0a\0c", "a\0b\0c\0", "", 0);
        check_tree(&["sort", "-o", "f", "f"], &[("f", "b\na\n")], "", "", "", 0, "f\ta\\nb\\n\n");
        check(&["sort", "-o", "/nope/x"], &[], "a\n", "", "sort: open failed: /nope/x: No such file or directory\n", 2);
    }

    #[test]
    fn errors() {
        check(
            &["sort", "f", "nope"],
            &[("f", "a\n")],
            "",
            "",
            "sort: cannot read: nope: No such file or directory\n",
            2,
        );
        check(&["sort", "d"], &[("d/", "")], "", "", "sort: read failed: d: Is a directory\n", 2);
        let e = |m: &str| format!("sort: {m}\n");
        check(&["sort", "-k", "x"], &[], "", "", &e("invalid number at field start: invalid count at start of 'x'"), 2);
        check(&["sort", "-k0"], &[], "", "", &e("field number is zero: invalid field specification '0'"), 2);
        check(&["sort", "-k1.0"], &[], "", "", &e("character offset is zero: invalid field specification '1.0'"), 2);
        check(&["sort", "-k1x"], &[], "", "", &e("stray character in field spec: invalid field specification '1x'"), 2);
        check(&["sort", "-k1,x"], &[], "", "", &e("invalid number after ',': invalid count at start of 'x'"), 2);
        check(&["sort", "-t", "ab"], &[], "", "", &e("multi-character tab 'ab'"), 2);
        check(&["sort", "-n", "-g"], &[], "", "", &e("options '-gn' are incompatible"), 2);
        check(
            &["sort", "-Q"],
            &[],
            "",
            "",
            "sort: invalid option -- 'Q'\nTry 'sort --help' for more information.\n",
            2,
        );
        check(
            &["sort", "--check=x"],
            &[],
            "",
            "",
            "sort: invalid argument 'x' for '--check'\nValid arguments are:\n  - 'quiet', 'silent'\n  - 'diagnose-first'\nTry 'sort --help' for more information.\n",
            2,
        );
    }
}
