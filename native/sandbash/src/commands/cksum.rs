//! `cksum [-a ALGO] [--untagged] [-z] [FILE]...` (GNU coreutils 9.1): the
//! POSIX CRC-32 with the byte count (`CRC SIZE NAME`) by default; `-a bsd`
//! and `-a sysv` are `sum -r`/`sum -s`, `-a md5|sha1|sha224|sha256|sha384|sha512`
//! print BSD-style tagged digests; `-c` verifies tagged lines (any digest
//! algorithm, or untagged ones too with `-a`), as md5sum's `-c` does.

use super::util::{bad_arg, quote, quotef, Arg, Spec};
use super::hashsum::{self, Algo};
use super::sum::{Bsd, SysV};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Cksum;

const SPEC: Spec = Spec::new(
    "a:zcw",
    &[
        ("algorithm", Arg::Yes, "a"),
        ("tag", Arg::No, "tag"),
        ("untagged", Arg::No, "untagged"),
        ("zero", Arg::No, "z"),
        ("check", Arg::No, "c"),
        ("warn", Arg::No, "w"),
        ("quiet", Arg::No, "quiet"),
        ("status", Arg::No, "status"),
        ("strict", Arg::No, "strict"),
        ("ignore-missing", Arg::No, "ignore-missing"),
    ],
    "[OPTION]... [FILE]...",
);

/// The CRC-32 table of polynomial 0x04C11DB7, most significant bit first.
const fn crc_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = (i as u32) << 24;
        let mut k = 0;
        while k < 8 {
            c = if c & 0x8000_0000 != 0 { (c << 1) ^ 0x04C1_1DB7 } else { c << 1 };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static CRC: [u32; 256] = crc_table();

/// POSIX cksum's CRC over the data, then the length's bytes, complemented.
#[derive(Default)]
pub struct PosixCrc {
    crc: u32,
    len: u64,
}

impl PosixCrc {
    pub fn update(&mut self, data: &[u8]) {
        for &b in data {
            self.crc = (self.crc << 8) ^ CRC[((self.crc >> 24) as u8 ^ b) as usize];
        }
        self.len += data.len() as u64;
    }
    pub fn finish(&self) -> u32 {
        let mut crc = self.crc;
        let mut n = self.len;
        while n > 0 {
            crc = (crc << 8) ^ CRC[((crc >> 24) as u8 ^ (n & 0xff) as u8) as usize];
            n >>= 8;
        }
        !crc
    }
}

const ALGOS: &[&str] = &["bsd", "sysv", "crc", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"];

#[async_trait]
impl Utility for Cksum {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let algo = p.last("a").unwrap_or("crc");
        let algo = match ALGOS.iter().filter(|a| a.starts_with(algo)).collect::<Vec<_>>().as_slice() {
            [one] if !algo.is_empty() => **one,
            _ => {
                let valid: Vec<String> = ALGOS.iter().chain(["blake2b", "sm3"].iter()).map(|a| quote(a)).collect();
                let valid: Vec<&str> = valid.iter().map(String::as_str).collect();
                return Err(UError::usage(1, bad_arg(algo, "algorithm", &valid)));
            }
        };
        let digest = match algo {
            "md5" => Some(Algo::Md5),
            "sha1" => Some(Algo::Sha1),
            "sha224" => Some(Algo::Sha224),
            "sha256" => Some(Algo::Sha256),
            "sha384" => Some(Algo::Sha384),
            "sha512" => Some(Algo::Sha512),
            _ => None,
        };
        let o = hashsum::CheckOpts {
            quiet: p.has("quiet"),
            status: p.has("status"),
            strict: p.has("strict"),
            warn: p.has("w"),
            ignore_missing: p.has("ignore-missing"),
        };
        let check = p.has("c");
        if !check {
            for (set, name) in [
                (o.ignore_missing, "ignore-missing"),
                (o.status, "status"),
                (o.warn, "warn"),
                (o.quiet, "quiet"),
                (o.strict, "strict"),
            ] {
                if set {
                    return Err(UError::usage(1, format!("the --{name} option is meaningful only when verifying checksums")));
                }
            }
        }
        if check {
            if p.has("a") && digest.is_none() {
                return Err(UError::new(1, "--check is not supported with --algorithm={bsd,sysv,crc}"));
            }
            let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
            let kind = digest.map_or("CRC", |d| d.tag());
            let mut ok = true;
            for f in &files {
                ok &= hashsum::check_file(ctx, digest, kind, f, &o).await?;
            }
            return Ok(i32::from(!ok));
        }
        // The last of --tag / --untagged wins.
        let untagged =
            p.opts.iter().rev().find(|o| o.id == "tag" || o.id == "untagged").is_some_and(|o| o.id == "untagged");
        let zero = p.has("z");
        let end = if zero { '\0' } else { '\n' };
        let named = !p.operands.is_empty();
        let files = if named { p.operands.clone() } else { vec!["-".to_string()] };
        let mut status = 0;
        for f in &files {
            if let Some(d) = digest {
                match hashsum::digest_file(ctx, d, f).await {
                    Ok(hex) => {
                        let line = hashsum::format_line(d, &hex, f, !untagged, false, zero);
                        ctx.out(line.as_bytes()).await?;
                    }
                    Err(e) => {
                        ctx.err(format!("{}: {e}", quotef(f))).await?;
                        status = 1;
                    }
                }
                continue;
            }
            let input = match ctx.open_input(f).await {
                Ok(i) => i,
                // GNU 9.1 reads a directory as empty.
                Err(e) if e == "Is a directory" => crate::io::Input::null(),
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                    continue;
                }
            };
            let (mut crc, mut bsd, mut sysv) = (PosixCrc::default(), Bsd::default(), SysV::default());
            while let Some(chunk) = input.read_chunk().await {
                match algo {
                    "bsd" => bsd.update(&chunk),
                    "sysv" => sysv.update(&chunk),
                    _ => crc.update(&chunk),
                }
                if !ctx.still_running() {
                    break;
                }
            }
            let mut line = match algo {
                "bsd" => bsd.line(),
                "sysv" => sysv.line(),
                _ => format!("{} {}", crc.finish(), crc.len),
            };
            if named {
                line.push(' ');
                line.push_str(f);
            }
            line.push(end);
            ctx.out(line.as_bytes()).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn crc() {
        let files = [("abc", "abc"), ("we ird", "x\ny\n")];
        check(&["cksum", "abc", "we ird"], &files, "", "1219131554 3 abc\n462184121 4 we ird\n", "", 0);
        check(&["cksum"], &files, "abc", "1219131554 3\n", "", 0);
        check(&["cksum", "-"], &files, "abc", "1219131554 3 -\n", "", 0);
        check(&["cksum"], &[], "", "4294967295 0\n", "", 0);
        check(&["cksum"], &[], &"x".repeat(100_000), "1627735810 100000\n", "", 0);
        check(&["cksum", "d"], &[("d/", "")], "", "4294967295 0 d\n", "", 0);
        check(
            &["cksum", "nofile", "abc"],
            &files,
            "",
            "1219131554 3 abc\n",
            "cksum: nofile: No such file or directory\n",
            1,
        );
    }

    const TAGS: &str = "MD5 (a) = 900150983cd24fb0d6963f7d28e17f72\n\
                        SHA256 (b c) = 2be3e1d5a7a7ee2cb6b4e2a3c4c6d7f3b8e4b35e8cfa14fb6cfcbc5d34bdb6d0\n\
                        SHA1 (a) = a9993e364706816aba3e25717850c26c9cd0d89d\ngarbage\n";

    #[test]
    fn checks() {
        let files =
            [("a", "abc"), ("b c", "x y"), ("tags", TAGS), ("untagged", "900150983cd24fb0d6963f7d28e17f72  a\n")];
        check(
            &["cksum", "-c", "tags"],
            &files,
            "",
            "a: OK\nb c: FAILED\na: OK\n",
            "cksum: WARNING: 1 line is improperly formatted\ncksum: WARNING: 1 computed checksum did NOT match\n",
            1,
        );
        check(
            &["cksum", "-a", "sha1", "-c", "-w", "tags"],
            &files,
            "",
            "a: OK\n",
            "cksum: tags: 1: improperly formatted SHA1 checksum line\n\
             cksum: tags: 2: improperly formatted SHA1 checksum line\n\
             cksum: tags: 4: improperly formatted SHA1 checksum line\n\
             cksum: WARNING: 3 lines are improperly formatted\n",
            0,
        );
        check(&["cksum", "-a", "md5", "-c", "untagged"], &files, "", "a: OK\n", "", 0);
        check(
            &["cksum", "-c", "untagged"],
            &files,
            "",
            "",
            "cksum: untagged: no properly formatted checksum lines found\n",
            1,
        );
        check(
            &["cksum", "-a", "crc", "-c", "tags"],
            &files,
            "",
            "",
            "cksum: --check is not supported with --algorithm={bsd,sysv,crc}\n",
            1,
        );
        check(
            &["cksum", "--quiet", "a"],
            &files,
            "",
            "",
            "cksum: the --quiet option is meaningful only when verifying checksums\nTry 'cksum --help' for more information.\n",
            1,
        );
    }

    #[test]
    fn algorithms() {
        let files = [("abc", "abc"), ("abc2", "abc")];
        check(&["cksum", "-a", "sysv", "abc"], &files, "", "294 1 abc\n", "", 0);
        check(&["cksum", "-a", "bsd"], &files, "abc", "16556     1\n", "", 0);
        check(&["cksum", "-a", "bsd", "abc", "abc2"], &files, "", "16556     1 abc\n16556     1 abc2\n", "", 0);
        check(&["cksum", "-a", "md5", "abc"], &files, "", "MD5 (abc) = 900150983cd24fb0d6963f7d28e17f72\n", "", 0);
        check(&["cksum", "-a", "md5"], &files, "abc", "MD5 (-) = 900150983cd24fb0d6963f7d28e17f72\n", "", 0);
        check(
            &["cksum", "-a", "sha256", "--untagged", "abc"],
            &files,
            "",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc\n",
            "",
            0,
        );
        check(
            &["cksum", "-a", "foo", "abc"],
            &files,
            "",
            "",
            "cksum: invalid argument 'foo' for '--algorithm'\nValid arguments are:\n  - 'bsd'\n  - 'sysv'\n  \
             - 'crc'\n  - 'md5'\n  - 'sha1'\n  - 'sha224'\n  - 'sha256'\n  - 'sha384'\n  - 'sha512'\n  \
             - 'blake2b'\n  - 'sm3'\nTry 'cksum --help' for more information.\n",
            1,
        );
    }
}
