//! `basenc` and the encoder/decoder it shares with `base64` and `base32`
//! (GNU basenc.c with gnulib's base64/base32 codecs): wrapped encoding, and
//! decoding in groups (4 characters for base64, 8 for base32 and base2, 2
//! for base16, 5 for z85) where newlines are skipped, `-i` drops every byte
//! outside the alphabet, and a bad group ends with the bytes decoded so far
//! followed by `invalid input`.

use super::util::{quote, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

const SPEC: Spec = Spec::new(
    "diw:",
    &[("decode", Arg::No, "d"), ("ignore-garbage", Arg::No, "i"), ("wrap", Arg::Yes, "w")],
    "[OPTION]... [FILE]",
);

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B32_HEX: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
const B16: &[u8; 16] = b"0123456789ABCDEF";
const Z85: &[u8; 85] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/// Which encoding a command speaks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Base {
    B64,
    B64Url,
    B32,
    B32Hex,
    B16,
    /// Bit strings, most or least significant bit first.
    B2Msb,
    B2Lsb,
    Z85,
}

impl Base {
    /// Input bytes per encoded group, and characters per group.
    fn sizes(self) -> (usize, usize) {
        match self {
            Base::B64 | Base::B64Url => (3, 4),
            Base::B32 | Base::B32Hex => (5, 8),
            Base::B16 => (1, 2),
            Base::B2Msb | Base::B2Lsb => (1, 8),
            Base::Z85 => (4, 5),
        }
    }

    fn alphabet(self) -> &'static [u8] {
        match self {
            Base::B64 => B64,
            Base::B64Url => B64_URL,
            Base::B32 => B32,
            Base::B32Hex => B32_HEX,
            Base::B16 => B16,
            Base::B2Msb | Base::B2Lsb => b"01",
            Base::Z85 => Z85,
        }
    }

    /// Whether `=` pads the last group.
    fn pads(self) -> bool {
        matches!(self, Base::B64 | Base::B64Url | Base::B32 | Base::B32Hex)
    }

    /// The value of an alphabet character.
    fn value(self, c: u8) -> Option<u8> {
        self.alphabet().iter().position(|&a| a == c).map(|i| i as u8)
    }

    /// Encode whole groups of `data` (and a padded last group when `last`).
    pub fn encode(self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(data.len() * 2);
        match self {
            Base::B16 => {
                for &b in data {
                    out.push(B16[usize::from(b >> 4)]);
                    out.push(B16[usize::from(b & 15)]);
                }
            }
            Base::B2Msb | Base::B2Lsb => {
                for &b in data {
                    for k in 0..8 {
                        let bit = if self == Base::B2Msb { (b >> (7 - k)) & 1 } else { (b >> k) & 1 };
                        out.push(b'0' + bit);
                    }
                }
            }
            Base::Z85 => {
                // Whole 4-byte groups only: the caller rejects a ragged end.
                for g in data.chunks_exact(4) {
                    let mut n = u32::from_be_bytes([g[0], g[1], g[2], g[3]]);
                    let mut chars = [0u8; 5];
                    for c in chars.iter_mut().rev() {
                        *c = Z85[(n % 85) as usize];
                        n /= 85;
                    }
                    out.extend_from_slice(&chars);
                }
            }
            Base::B64 | Base::B64Url => {
                let alpha = self.alphabet();
                for g in data.chunks(3) {
                    let b = [g[0], *g.get(1).unwrap_or(&0), *g.get(2).unwrap_or(&0)];
                    let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
                    for k in 0..4 {
                        if k <= g.len() {
                            out.push(alpha[((n >> (18 - 6 * k)) & 63) as usize]);
                        } else {
                            out.push(b'=');
                        }
                    }
                }
            }
            Base::B32 | Base::B32Hex => {
                let alpha = self.alphabet();
                for g in data.chunks(5) {
                    let mut n = 0u64;
                    for k in 0..5 {
                        n = (n << 8) | u64::from(*g.get(k).unwrap_or(&0));
                    }
                    // Characters that carry bits of the group's bytes.
                    let used = [0, 2, 4, 5, 7, 8][g.len()];
                    for k in 0..8 {
                        if k < used {
                            out.push(alpha[((n >> (35 - 5 * k)) & 31) as usize]);
                        } else {
                            out.push(b'=');
                        }
                    }
                }
            }
        }
        out
    }

    /// Decode one group of `g.len()` characters (fewer than a full group only
    /// at end of input), as gnulib's decode_4/decode_8: the bytes it yields
    /// and whether the group was valid (an invalid one still yields a prefix).
    pub fn decode_group(self, g: &[u8], out: &mut Vec<u8>) -> bool {
        match self {
            Base::B16 => {
                let (Some(hi), Some(lo)) =
                    (g.first().and_then(|&c| self.value(c)), g.get(1).and_then(|&c| self.value(c)))
                else {
                    return false;
                };
                out.push((hi << 4) | lo);
                true
            }
            Base::B2Msb | Base::B2Lsb => {
                if g.len() < 8 {
                    return false;
                }
                let mut b = 0u8;
                for (k, &c) in g.iter().enumerate() {
                    let Some(bit) = self.value(c) else { return false };
                    b |= if self == Base::B2Msb { bit << (7 - k) } else { bit << k };
                }
                out.push(b);
                true
            }
            Base::Z85 => {
                if g.len() < 5 {
                    return false;
                }
                let mut n = 0u64;
                for &c in g {
                    let Some(v) = self.value(c) else { return false };
                    n = n * 85 + u64::from(v);
                }
                let Ok(n) = u32::try_from(n) else { return false };
                out.extend_from_slice(&n.to_be_bytes());
                true
            }
            Base::B64 | Base::B64Url => {
                let v = |i: usize| g.get(i).and_then(|&c| self.value(c));
                let (Some(a), Some(b)) = (v(0), v(1)) else { return false };
                out.push((a << 2) | (b >> 4));
                if g.len() == 2 {
                    return false;
                }
                if g[2] == b'=' {
                    return g.len() == 4 && g[3] == b'=';
                }
                let Some(c) = v(2) else { return false };
                out.push((b << 4) | (c >> 2));
                if g.len() == 3 {
                    return false;
                }
                if g[3] == b'=' {
                    return g.len() == 4;
                }
                let Some(d) = v(3) else { return false };
                out.push((c << 6) | d);
                true
            }
            Base::B32 | Base::B32Hex => {
                if g.len() < 8 {
                    return false;
                }
                let v = |i: usize| self.value(g[i]);
                let (Some(a), Some(b)) = (v(0), v(1)) else { return false };
                out.push((a << 3) | (b >> 2));
                let pad_from = |i: usize| g[i..].iter().all(|&c| c == b'=');
                if g[2] == b'=' {
                    return pad_from(3);
                }
                let (Some(c), Some(d)) = (v(2), v(3)) else { return false };
                out.push((b << 6) | (c << 1) | (d >> 4));
                if g[4] == b'=' {
                    return pad_from(5);
                }
                let Some(e) = v(4) else { return false };
                out.push((d << 4) | (e >> 1));
                if g[5] == b'=' {
                    return pad_from(6);
                }
                let (Some(f), Some(h)) = (v(5), v(6)) else { return false };
                out.push((e << 7) | (f << 2) | (h >> 3));
                if g[7] == b'=' {
                    return true;
                }
                let Some(i) = v(7) else { return false };
                out.push((h << 5) | i);
                true
            }
        }
    }
}

/// Streaming decoder: feed chunks, then `finish`. `Err(bytes)` carries the
/// output decoded before the invalid group.
pub struct Decoder {
    base: Base,
    ignore_garbage: bool,
    group: Vec<u8>,
}

impl Decoder {
    pub fn new(base: Base, ignore_garbage: bool) -> Decoder {
        Decoder { base, ignore_garbage, group: Vec::new() }
    }

    pub fn feed(&mut self, data: &[u8]) -> Result<Vec<u8>, Vec<u8>> {
        let n = self.base.sizes().1;
        let mut out = Vec::with_capacity(data.len());
        for &c in data {
            let pad = c == b'=' && self.base.pads();
            if c == b'\n' || (self.ignore_garbage && !pad && self.base.value(c).is_none()) {
                continue;
            }
            self.group.push(c);
            if self.group.len() == n {
                let ok = self.base.decode_group(&self.group, &mut out);
                self.group.clear();
                if !ok {
                    return Err(out);
                }
            }
        }
        Ok(out)
    }

    pub fn finish(&mut self) -> Result<Vec<u8>, Vec<u8>> {
        let mut out = Vec::new();
        if self.group.is_empty() {
            return Ok(out);
        }
        let g = std::mem::take(&mut self.group);
        // A short last group is never valid, but may yield a prefix.
        self.base.decode_group(&g, &mut out);
        Err(out)
    }
}

/// `base64`/`base32` main.
pub async fn run(ctx: &mut CommandContext<'_>, base: Base) -> UResult<i32> {
    let p = ctx.opts(&SPEC).await?;
    codec(ctx, base, &p).await
}

const BASENC_SPEC: Spec = Spec::new(
    "diw:",
    &[
        ("base64", Arg::No, "base64"),
        ("base64url", Arg::No, "base64url"),
        ("base32", Arg::No, "base32"),
        ("base32hex", Arg::No, "base32hex"),
        ("base16", Arg::No, "base16"),
        ("base2msbf", Arg::No, "base2msbf"),
        ("base2lsbf", Arg::No, "base2lsbf"),
        ("z85", Arg::No, "z85"),
        ("decode", Arg::No, "d"),
        ("ignore-garbage", Arg::No, "i"),
        ("wrap", Arg::Yes, "w"),
    ],
    "[OPTION]... [FILE]",
);

/// `basenc --ENCODING [-d] [-i] [-w COLS] [FILE]`.
pub struct Basenc;

#[async_trait]
impl Utility for Basenc {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&BASENC_SPEC).await?;
        // The last encoding named wins.
        let base = p.opts.iter().rev().find_map(|o| match o.id {
            "base64" => Some(Base::B64),
            "base64url" => Some(Base::B64Url),
            "base32" => Some(Base::B32),
            "base32hex" => Some(Base::B32Hex),
            "base16" => Some(Base::B16),
            "base2msbf" => Some(Base::B2Msb),
            "base2lsbf" => Some(Base::B2Lsb),
            "z85" => Some(Base::Z85),
            _ => None,
        });
        let Some(base) = base else {
            return Err(UError::usage(1, "missing encoding type"));
        };
        Ok(codec(ctx, base, &p).await?)
    }
}

/// GNU's encoding block: z85 rejects a block whose length is not a multiple of 4.
const Z85_BLOCK: usize = 30720;

/// Encode or decode FILE (or stdin) as the parsed options say.
async fn codec(ctx: &CommandContext<'_>, base: Base, p: &super::util::Parsed) -> UResult<i32> {
    let decode = p.has("d");
    let wrap = match p.last("w") {
        None => 76usize,
        Some(w) => match w.parse::<u64>() {
            Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
            Err(_) => {
                return Err(UError::new(1, format!("invalid wrap size: {}", quote(w))));
            }
        },
    };
    if p.operands.len() > 1 {
        return Err(UError::usage(1, format!("extra operand {}", quote(&p.operands[1]))));
    }
    let file = p.operands.first().map_or("-", String::as_str);
    let input = match ctx.open_input(file).await {
        Ok(i) => i,
        Err(e) if e == "Is a directory" => {
            return Err(UError::new(1, format!("read error: {e}")));
        }
        Err(e) => {
            return Err(UError::new(1, format!("{file}: {e}")));
        }
    };
    if decode {
        let mut dec = Decoder::new(base, p.has("i"));
        loop {
            let chunk = input.read_chunk().await;
            let res = match &chunk {
                Some(c) => dec.feed(c),
                None => dec.finish(),
            };
            match res {
                Ok(out) => ctx.out(&out).await?,
                Err(out) => {
                    ctx.out(&out).await?;
                    return Err(UError::new(1, "invalid input"));
                }
            }
            if chunk.is_none() || !ctx.still_running() {
                return Ok(0);
            }
        }
    }
    let (in_group, _) = base.sizes();
    let mut pending: Vec<u8> = Vec::new();
    // Column of the next encoded character, for wrapping.
    let mut col = 0usize;
    let mut wrote = false;
    loop {
        let chunk = input.read_chunk().await;
        let eof = chunk.is_none();
        if let Some(c) = chunk {
            pending.extend_from_slice(&c);
        }
        let whole = match base {
            Base::Z85 if !eof && pending.len() < Z85_BLOCK => 0,
            Base::Z85 if !eof => pending.len() / Z85_BLOCK * Z85_BLOCK,
            Base::Z85 if !pending.len().is_multiple_of(4) => {
                return Err(UError::new(1, "invalid input (length must be multiple of 4 characters)"));
            }
            _ if eof => pending.len(),
            _ => pending.len() / in_group * in_group,
        };
        let enc = base.encode(&pending[..whole]);
        pending.drain(..whole);
        let mut out = Vec::with_capacity(enc.len() + enc.len() / wrap.max(1) + 1);
        for &c in &enc {
            if wrap > 0 && col == wrap {
                out.push(b'\n');
                col = 0;
            }
            out.push(c);
            col += 1;
            wrote = true;
        }
        if eof && wrap > 0 && wrote {
            out.push(b'\n');
        }
        ctx.out(&out).await?;
        if eof || !ctx.still_running() {
            return Ok(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups() {
        assert_eq!(Base::B64.encode(b"abcd"), b"YWJjZA==");
        assert_eq!(Base::B32.encode(b"abcd"), b"MFRGGZA=");
        let mut d = Decoder::new(Base::B64, false);
        assert_eq!(d.feed(b"YW\nJj").unwrap(), b"abc");
    }
}

#[cfg(test)]
mod basenc_tests {
    use crate::commands::util::testutil::{check, make_fs, run_raw};
    use crate::limits::Limits;

    #[test]
    fn encodes() {
        check(&["basenc", "--base64url"], &[], "hello?>", "aGVsbG8_Pg==\n", "", 0);
        check(&["basenc", "--base32hex"], &[], "hello", "D1IMOR3F\n", "", 0);
        check(&["basenc", "--base32hex", "-w", "4"], &[], "hello", "D1IM\nOR3F\n", "", 0);
        check(&["basenc", "--base16"], &[], "hello", "68656C6C6F\n", "", 0);
        check(&["basenc", "--base2msbf"], &[], "hi", "0110100001101001\n", "", 0);
        check(&["basenc", "--base2lsbf"], &[], "hi", "0001011010010110\n", "", 0);
        check(&["basenc", "-w", "4", "--base2msbf"], &[], "hi", "0110\n1000\n0110\n1001\n", "", 0);
        check(&["basenc", "--z85"], &[], "hello123", "xK#0@z.T16\n", "", 0);
        check(&["basenc", "--z85", "-w", "3"], &[], "abcd", "vpA\n.S\n", "", 0);
        check(&["basenc", "--base64", "--base16"], &[], "hi", "6869\n", "", 0);
        let long = "hello world hello world hello world hello world";
        let out = "68656C6C6F20776F726C642068656C6C6F20776F726C642068656C6C6F20776F726C64206865\n6C6C6F20776F726C64\n";
        check(&["basenc", "--base16"], &[], long, out, "", 0);
    }

    #[test]
    fn decodes() {
        check(&["basenc", "-d", "--base64"], &[], "aGk=\n", "hi", "", 0);
        check(&["basenc", "-d", "--base64url"], &[], "aGk_\n", "hi?", "", 0);
        check(&["basenc", "-d", "--base16"], &[], "6869\n", "hi", "", 0);
        check(&["basenc", "-d", "--base16", "-i"], &[], "6869\n", "hi", "", 0);
        check(&["basenc", "-d", "--base2msbf"], &[], "0110100001101001\n", "hi", "", 0);
        check(&["basenc", "-d", "--z85"], &[], "xK#0@zY<mx\n", "hello wo", "", 0);
        check(&["basenc", "-d", "--z85", "-i"], &[], "xK#0@ zY<mx\n", "hello wo", "", 0);
        let fs = make_fs(&[]);
        let (out, _, st) = run_raw(&fs, &["basenc", "-d", "--z85"], b"%nSc0\n", &[], Limits::default());
        assert_eq!((out, st), (vec![255; 4], 0));
    }

    #[test]
    fn errors() {
        check(&["basenc", "-d", "--base16"], &[], "6g69\n", "", "basenc: invalid input\n", 1);
        check(&["basenc", "-d", "--base16"], &[], "6a6B\n", "", "basenc: invalid input\n", 1);
        check(&["basenc", "-d", "--base16"], &[], "686\n", "h", "basenc: invalid input\n", 1);
        check(&["basenc", "-d", "--z85"], &[], "xK#0@zY<m\n", "hell", "basenc: invalid input\n", 1);
        check(&["basenc", "-d", "--z85"], &[], "#####\n", "", "basenc: invalid input\n", 1);
        check(&["basenc", "-d", "--base2msbf"], &[], "ab=\n", "", "basenc: invalid input\n", 1);
        let msg = "basenc: invalid input (length must be multiple of 4 characters)\n";
        check(&["basenc", "--z85"], &[], "hello12", "", msg, 1);
        let msg = "basenc: missing encoding type\nTry 'basenc --help' for more information.\n";
        check(&["basenc"], &[], "hi", "", msg, 1);
    }
}
