//! `shuf [-n N] [-r] [-z] [-o FILE] [--random-source=FILE] [FILE | -e ARG... | -i LO-HI]`
//! (GNU coreutils). Random numbers come from gnulib's randint over a byte
//! source, so a `--random-source` file gives GNU's exact output; without one
//! the bytes come from the interpreter's generator (the one behind $RANDOM).
//! Standard input with `-n` is sampled through a reservoir as GNU does.

use super::util::{quote, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::collections::HashMap;

pub struct Shuf;

const SPEC: Spec = Spec::new(
    "ei:n:o:rz",
    &[
        ("echo", Arg::No, "e"),
        ("input-range", Arg::Yes, "i"),
        ("head-count", Arg::Yes, "n"),
        ("output", Arg::Yes, "o"),
        ("random-source", Arg::Yes, "random-source"),
        ("repeat", Arg::No, "r"),
        ("zero-terminated", Arg::No, "z"),
    ],
    "[OPTION]... [FILE]\n  or:  shuf -e [OPTION]... [ARG]...\n  or:  shuf -i LO-HI [OPTION]...",
);

/// Where random bytes come from.
enum Bytes {
    /// `--random-source`: a file or a device such as /dev/urandom, streamed.
    File {
        input: crate::io::Input,
        name: String,
    },
    Rng,
}

/// gnulib's randint_source: leftover randomness carried between draws.
struct RandInt {
    src: Bytes,
    randnum: u64,
    randmax: u64,
}

/// The random source ran out (GNU: `NAME: end of file`).
struct Eof(String);

impl RandInt {
    async fn read(&mut self, n: usize) -> Result<Vec<u8>, Eof> {
        match &mut self.src {
            Bytes::File { input, name } => {
                let b = input.read_exact_upto(n).await;
                if b.len() < n {
                    return Err(Eof(name.clone()));
                }
                Ok(b)
            }
            Bytes::Rng => Ok((0..n).map(|_| (crate::expand::param::next_random() >> 24) as u8).collect()),
        }
    }

    /// A uniform number in `0..=genmax` (gnulib randint_genmax).
    async fn genmax(&mut self, genmax: u64) -> Result<u64, Eof> {
        let mut randnum = self.randnum;
        let mut randmax = self.randmax;
        let choices = genmax.wrapping_add(1);
        loop {
            if randmax < genmax {
                let mut i = 0;
                let mut rmax = randmax;
                loop {
                    rmax = (rmax << 8).wrapping_add(255);
                    i += 1;
                    if rmax >= genmax {
                        break;
                    }
                }
                let buf = self.read(i).await?;
                let mut k = 0;
                loop {
                    randnum = (randnum << 8).wrapping_add(u64::from(buf[k]));
                    randmax = (randmax << 8).wrapping_add(255);
                    k += 1;
                    if randmax >= genmax {
                        break;
                    }
                }
            }
            if randmax == genmax {
                self.randnum = 0;
                self.randmax = 0;
                return Ok(randnum);
            }
            let excess = randmax - genmax;
            let unusable = excess % choices;
            let last_usable = randmax - unusable;
            let reduced = randnum % choices;
            if randnum <= last_usable {
                self.randnum = randnum / choices;
                self.randmax = excess / choices;
                return Ok(reduced);
            }
            randnum = reduced;
            randmax = unusable.wrapping_sub(1);
        }
    }

    async fn choose(&mut self, n: u64) -> Result<u64, Eof> {
        self.genmax(n - 1).await
    }

    /// gnulib randperm_new: the first `h` of a random permutation of `0..n`
    /// (a map stands in for the array when `n` is large).
    async fn perm(&mut self, h: u64, n: u64) -> Result<Vec<u64>, Eof> {
        let mut p = Perm::new(n);
        let mut out = Vec::new();
        for _ in 0..h {
            out.push(p.next(self).await?);
        }
        Ok(out)
    }
}

/// A random permutation of `0..n` drawn one item at a time (gnulib's
/// randperm_new, sparse): its memory grows with the items drawn, not with `n`.
struct Perm {
    v: HashMap<u64, u64>,
    i: u64,
    n: u64,
}

impl Perm {
    fn new(n: u64) -> Self {
        Perm { v: HashMap::new(), i: 0, n }
    }

    async fn next(&mut self, rng: &mut RandInt) -> Result<u64, Eof> {
        let (i, n) = (self.i, self.n);
        self.i += 1;
        let j = i + rng.choose(n - i).await?;
        let vi = *self.v.get(&i).unwrap_or(&i);
        let vj = *self.v.get(&j).unwrap_or(&j);
        self.v.remove(&i);
        if j != i {
            self.v.insert(j, vi);
        }
        Ok(vj)
    }
}

/// `LO-HI`: both unsigned, `HI >= LO - 1`.
fn parse_range(s: &str) -> Option<(u64, u64)> {
    let (lo, hi) = s.split_once('-')?;
    let num = |t: &str| -> Option<u64> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    (hi.checked_add(1)? >= lo).then_some((lo, hi))
}

#[async_trait]
impl Utility for Shuf {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let echo = p.has("e");
        let range = p.last("i");
        if echo && range.is_some() {
            return Err(UError::usage(1, "cannot combine -e and -i options"));
        }
        let repeat = p.has("r");
        let eol = if p.has("z") { b'\0' } else { b'\n' };
        let mut head: u64 = u64::MAX;
        for n in p.all("n") {
            match n.parse::<u64>() {
                Ok(v) => head = head.min(v),
                Err(_) => {
                    return Err(UError::new(1, format!("invalid line count: {}", quote(n))));
                }
            }
        }
        let src = match p.last("random-source") {
            None => Bytes::Rng,
            Some(f) => match ctx.open_input(f).await {
                Ok(input) => Bytes::File { input, name: f.to_string() },
                Err(e) => {
                    return Err(UError::new(1, format!("{}: {e}", quotef(f))));
                }
            },
        };
        let mut rng = RandInt { src, randnum: 0, randmax: 0 };

        // The items: lines, arguments, or a number range.
        let mut lines: Vec<Vec<u8>> = Vec::new();
        let mut lo_hi = None;
        let mut reservoir = false;
        let n_items: u64;
        if let Some(r) = range {
            let Some((lo, hi)) = parse_range(r) else {
                return Err(UError::new(1, format!("invalid input range: {}", quote(r))));
            };
            if !p.operands.is_empty() {
                return Err(UError::usage(1, format!("extra operand {}", quote(&p.operands[0]))));
            }
            lo_hi = Some(lo);
            n_items = hi + 1 - lo;
        } else if echo {
            lines = p.operands.iter().map(|a| a.as_bytes().to_vec()).collect();
            n_items = lines.len() as u64;
        } else {
            if p.operands.len() > 1 {
                return Err(UError::usage(1, format!("extra operand {}", quote(&p.operands[1]))));
            }
            let file = p.operands.first().map_or("-", String::as_str);
            // GNU samples a pipe (unknown size) through a reservoir.
            reservoir = file == "-" && head != u64::MAX && !repeat && ctx.stdin.is_pipe().await;
            let mut src = match ctx.open_lines(file, eol).await {
                Ok(s) => s,
                Err(e) => {
                    return Err(UError::new(1, format!("{}: {e}", quotef(file))));
                }
            };
            if reservoir {
                match sample(ctx, &mut src, head, &mut rng).await {
                    Ok(l) => lines = l,
                    Err(Eof(name)) => {
                        return Err(UError::new(1, format!("{}: end of file", quote(&name))));
                    }
                }
            } else {
                while let Some(l) = src.next_text(ctx).await {
                    lines.push(l);
                    if !ctx.still_running() {
                        break;
                    }
                }
            }
            n_items = lines.len() as u64;
        }
        if !repeat {
            // Every item takes two bytes or more: past the output limit is moot.
            head = head.min(n_items).min(ctx.budget.limits.max_output_bytes / 2 + 1);
        }
        let max_out = ctx.budget.limits.max_output_bytes;
        // Written as it is drawn, a block at a time: `shuf -i 1-4000000000 |
        // head -1` ends with its reader; into `-o FILE`, kept whole.
        let to_file = p.last("o");
        let mut out = Vec::new();
        let mut sent = 0u64;
        let mut draws = 0u64;
        let mut perm = Perm::new(n_items);
        let mut k = 0u64;
        let ended: Result<(), Eof> = loop {
            if out.len() >= BLOCK && to_file.is_none() {
                ctx.out(&out).await?;
                sent += out.len() as u64;
                out.clear();
            }
            draws += 1;
            if draws.is_multiple_of(256) && !ctx.still_running() {
                return Ok(1);
            }
            let j = if repeat {
                if k >= head || sent + out.len() as u64 > max_out {
                    break Ok(());
                }
                if n_items == 0 {
                    break Err(Eof(String::new()));
                }
                match rng.choose(n_items).await {
                    Ok(j) => j,
                    Err(e) => break Err(e),
                }
            } else if k >= head.min(n_items) {
                break Ok(());
            } else if reservoir {
                // Already sampled and permuted.
                k
            } else {
                match perm.next(&mut rng).await {
                    Ok(j) => j,
                    Err(e) => break Err(e),
                }
            };
            k += 1;
            match lo_hi {
                Some(lo) => out.extend_from_slice((lo + j).to_string().as_bytes()),
                None => out.extend_from_slice(&lines[j as usize]),
            }
            out.push(eol);
        };
        match ended {
            Err(Eof(name)) if name.is_empty() => return Err(UError::new(1, "no lines to repeat")),
            Err(Eof(name)) => return Err(UError::new(1, format!("{}: end of file", quote(&name)))),
            Ok(()) => {}
        }
        if let Some(f) = to_file {
            if let Err(e) = ctx.fs.write(&ctx.resolve(f), &out).await {
                return Err(UError::new(1, format!("{}: {e}", quotef(f))));
            }
            return Ok(0);
        }
        ctx.out(&out).await?;
        Ok(0)
    }
}

/// Output handed on at a time.
const BLOCK: usize = 64 * 1024;

/// GNU's reservoir sampling of stdin: keep `k` lines, each later line
/// replacing a random one with falling probability (one draw per line read,
/// plus one at end of input).
async fn sample(
    ctx: &CommandContext<'_>,
    src: &mut super::util::LineSource,
    k: u64,
    rng: &mut RandInt,
) -> Result<Vec<Vec<u8>>, Eof> {
    let mut rsrv: Vec<Vec<u8>> = Vec::new();
    let mut n: u64 = 0;
    let mut more = true;
    while n < k {
        match src.next_text(ctx).await {
            Some(l) => {
                rsrv.push(l);
                n += 1;
            }
            None => {
                more = false;
                break;
            }
        }
    }
    // Every later line replaces a random one of the reservoir with chance k/n.
    while more {
        let j = rng.choose(n + 1).await?;
        let Some(l) = src.next_text(ctx).await else { break };
        if j < k {
            rsrv[j as usize] = l;
        }
        n += 1;
        more = ctx.still_running();
    }
    // The reservoir is then permuted like any input.
    let h = rsrv.len() as u64;
    let perm = rng.perm(h, h).await?;
    Ok(perm.into_iter().map(|i| rsrv[i as usize].clone()).collect())
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const RS: &str =
        "the quick brown fox jumps over the lazy dog 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const TEN: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";

    fn files() -> Vec<(&'static str, &'static str)> {
        vec![("rs", RS), ("ten", TEN)]
    }

    fn lines(s: &str) -> String {
        s.split(' ').map(|w| format!("{w}\n")).collect()
    }

    #[test]
    fn deterministic_with_random_source() {
        check(&["shuf", "--random-source=rs", "ten"], &files(), "", &lines("7 4 3 1 10 2 5 8 9 6"), "", 0);
        check(&["shuf", "--random-source=rs", "-n", "3", "ten"], &files(), "", &lines("7 4 3"), "", 0);
        // Standard input from a file is read whole (`shuf -n 3 < ten`).
        check(&["shuf", "--random-source=rs", "-n", "3"], &files(), TEN, &lines("7 4 3"), "", 0);
        check(&["shuf", "--random-source=rs", "-e", "a", "b", "c", "d", "e"], &files(), "", &lines("b e a c d"), "", 0);
        check(&["shuf", "--random-source=rs", "-i", "1-20", "-n", "5"], &files(), "", &lines("17 18 3 7 4"), "", 0);
        check(
            &["shuf", "--random-source=rs", "-r", "-n", "6", "-e", "x", "y", "z"],
            &files(),
            "",
            &lines("z z x y y z"),
            "",
            0,
        );
        check(&["shuf", "--random-source=rs", "-i", "5-7", "-r", "-n", "4"], &files(), "", &lines("7 7 5 6"), "", 0);
        check(&["shuf", "--random-source=rs", "-i", "1-1000", "-n", "3"], &files(), "", &lines("801 534 829"), "", 0);
        check(&["shuf", "--random-source=rs"], &files(), "a\nb", "a\nb\n", "", 0);
    }

    #[test]
    fn unseeded_is_a_permutation() {
        let got = crate::commands::util::testutil::run(&["shuf", "-i", "1-50"], &[], "");
        let mut nums: Vec<u32> = got.out.lines().map(|l| l.parse().unwrap()).collect();
        nums.sort();
        assert_eq!(nums, (1..=50).collect::<Vec<_>>());
    }

    #[test]
    fn errors() {
        check(
            &["shuf", "--random-source=empty", "-e", "a", "b"],
            &[("empty", "")],
            "",
            "",
            "shuf: 'empty': end of file\n",
            1,
        );
        check(&["shuf", "-i", "5-1"], &[], "", "", "shuf: invalid input range: '5-1'\n", 1);
        check(&["shuf", "-i", "x"], &[], "", "", "shuf: invalid input range: 'x'\n", 1);
        check(&["shuf", "-n", "x", "-e", "a"], &[], "", "", "shuf: invalid line count: 'x'\n", 1);
        check(
            &["shuf", "-e", "-i", "1-2", "a"],
            &[],
            "",
            "",
            "shuf: cannot combine -e and -i options\nTry 'shuf --help' for more information.\n",
            1,
        );
        check(
            &["shuf", "ten", "ten"],
            &files(),
            "",
            "",
            "shuf: extra operand 'ten'\nTry 'shuf --help' for more information.\n",
            1,
        );
        check(
            &["shuf", "--random-source=nofile", "-e", "a"],
            &[],
            "",
            "",
            "shuf: nofile: No such file or directory\n",
            1,
        );
        check(&["shuf", "-r", "-e"], &[], "", "", "shuf: no lines to repeat\n", 1);
        check(&["shuf", "-n", "0", "-e", "a", "b"], &[], "", "", "", 0);
        check(&["shuf", "-i", "3-2"], &[], "", "", "", 0);
    }
}
