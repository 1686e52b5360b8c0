//! The encoder/decoder shared by `base64` and `base32` (GNU basenc.c with
//! gnulib's base64/base32 codecs): wrapped encoding, and decoding in 4- or
//! 8-character groups where newlines are skipped, `-i` drops every byte
//! outside the alphabet, and a bad group ends with the bytes decoded so far
//! followed by `invalid input`.

use super::common::{quote, Arg, Spec};
use super::{CommandContext, CommandResult};

const SPEC: Spec = Spec::new(
    "diw:",
    &[("decode", Arg::No, "d"), ("ignore-garbage", Arg::No, "i"), ("wrap", Arg::Yes, "w")],
    "[OPTION]... [FILE]",
);

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Which encoding a command speaks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Base {
    B64,
    B32,
}

impl Base {
    /// Input bytes per encoded group, and characters per group.
    fn sizes(self) -> (usize, usize) {
        match self {
            Base::B64 => (3, 4),
            Base::B32 => (5, 8),
        }
    }

    /// The 6- or 5-bit value of an alphabet character.
    fn value(self, c: u8) -> Option<u8> {
        let alpha: &[u8] = match self {
            Base::B64 => B64,
            Base::B32 => B32,
        };
        alpha.iter().position(|&a| a == c).map(|i| i as u8)
    }

    /// Encode whole groups of `data` (and a padded last group when `last`).
    pub fn encode(self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(data.len() * 2);
        match self {
            Base::B64 => {
                for g in data.chunks(3) {
                    let b = [g[0], *g.get(1).unwrap_or(&0), *g.get(2).unwrap_or(&0)];
                    let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
                    for k in 0..4 {
                        if k <= g.len() {
                            out.push(B64[((n >> (18 - 6 * k)) & 63) as usize]);
                        } else {
                            out.push(b'=');
                        }
                    }
                }
            }
            Base::B32 => {
                for g in data.chunks(5) {
                    let mut n = 0u64;
                    for k in 0..5 {
                        n = (n << 8) | u64::from(*g.get(k).unwrap_or(&0));
                    }
                    // Characters that carry bits of the group's bytes.
                    let used = [0, 2, 4, 5, 7, 8][g.len()];
                    for k in 0..8 {
                        if k < used {
                            out.push(B32[((n >> (35 - 5 * k)) & 31) as usize]);
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
            Base::B64 => {
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
            Base::B32 => {
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
            if c == b'\n' || (self.ignore_garbage && c != b'=' && self.base.value(c).is_none()) {
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
pub async fn run(ctx: &mut CommandContext<'_>, base: Base) -> CommandResult {
    let p = match ctx.parse_opts(&SPEC).await? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let decode = p.has("d");
    let wrap = match p.last("w") {
        None => 76usize,
        Some(w) => match w.parse::<u64>() {
            Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
            Err(_) => {
                ctx.err(format!("invalid wrap size: {}", quote(w))).await?;
                return Ok(1);
            }
        },
    };
    if p.operands.len() > 1 {
        ctx.usage_err(format!("extra operand {}", quote(&p.operands[1]))).await?;
        return Ok(1);
    }
    let file = p.operands.first().map_or("-", String::as_str);
    let input = match ctx.open_input(file).await {
        Ok(i) => i,
        Err(e) if e == "Is a directory" => {
            ctx.err(format!("read error: {e}")).await?;
            return Ok(1);
        }
        Err(e) => {
            ctx.err(format!("{file}: {e}")).await?;
            return Ok(1);
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
                    ctx.err("invalid input").await?;
                    return Ok(1);
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
        let whole = if eof { pending.len() } else { pending.len() / in_group * in_group };
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
