//! The gzip format (RFC 1952) over flate2's raw deflate, shared by `gzip` and
//! `tar -z`: an encoder fed a chunk at a time, and a decoder over an in-memory
//! input that yields its output in bounded chunks (so a small archive that
//! inflates hugely is never held whole) and checks each member's CRC and size.

use flate2::{Compress, Compression, Crc, Decompress, FlushCompress, FlushDecompress, Status};

/// Output chunk size of both directions.
const CHUNK: usize = 64 * 1024;
/// Input given to the compressor at once (see [`Encoder::run`]).
const INPUT_SLICE: usize = 256 * 1024;

pub struct Encoder {
    comp: Compress,
    crc: Crc,
    out: Vec<u8>,
}

impl Encoder {
    /// A member with `name` (none for stdin or `-n`) and `mtime` in its header.
    pub fn new(level: u32, name: Option<&[u8]>, mtime: u32) -> Encoder {
        let xfl = match level {
            9 => 2,
            1 => 4,
            _ => 0,
        };
        let mut out = vec![0x1f, 0x8b, 8, if name.is_some() { 8 } else { 0 }];
        out.extend_from_slice(&mtime.to_le_bytes());
        out.extend_from_slice(&[xfl, 3]);
        if let Some(n) = name {
            out.extend(n.iter().copied().filter(|&b| b != 0));
            out.push(0);
        }
        Encoder { comp: Compress::new(Compression::new(level.clamp(1, 9)), false), crc: Crc::new(), out }
    }

    /// Length of the header written so far (only meaningful before any `feed`).
    pub fn header_len(&self) -> usize {
        self.out.len()
    }

    /// Run the compressor until `data` is taken in (and, for `Finish`, the stream ended).
    /// Input is handed over a slice at a time, with a look at the deadline
    /// between slices: compressible data would otherwise go in one call.
    fn run(&mut self, mut data: &[u8], flush: FlushCompress) {
        loop {
            // A slice is milliseconds of work: look at the clock each time.
            if crate::limits::scope::check_now().is_err() {
                break;
            }
            if self.out.capacity() - self.out.len() < 1024 {
                self.out.reserve(CHUNK);
            }
            let before = (self.comp.total_in(), self.comp.total_out());
            let piece = &data[..data.len().min(INPUT_SLICE)];
            let step = if piece.len() == data.len() { flush } else { FlushCompress::None };
            let st = self.comp.compress_vec(piece, &mut self.out, step);
            let used = (self.comp.total_in() - before.0) as usize;
            let made = self.comp.total_out() - before.1;
            data = &data[used..];
            let finishing = matches!(flush, FlushCompress::Finish);
            match st {
                Err(_) | Ok(Status::StreamEnd) => break,
                _ if !finishing && data.is_empty() => break,
                _ if used == 0 && made == 0 && self.out.capacity() > self.out.len() => break,
                _ => {}
            }
        }
    }

    /// Compress `data`; returns the bytes ready so far.
    pub fn feed(&mut self, data: &[u8]) -> Vec<u8> {
        self.crc.update(data);
        self.run(data, FlushCompress::None);
        std::mem::take(&mut self.out)
    }

    /// The rest of the stream and the trailer.
    pub fn finish(mut self) -> Vec<u8> {
        self.run(&[], FlushCompress::Finish);
        let mut out = self.out;
        out.extend_from_slice(&self.crc.sum().to_le_bytes());
        out.extend_from_slice(&self.crc.amount().to_le_bytes());
        out
    }
}

/// Compress a whole buffer.
pub fn compress(data: &[u8], level: u32, name: Option<&[u8]>, mtime: u32) -> Vec<u8> {
    let mut e = Encoder::new(level, name, mtime);
    let mut out = e.feed(data);
    out.extend(e.finish());
    out
}

/// Why decompression stopped (gzip's wording).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GzError {
    NotGzip,
    Eof,
    Crc,
    Length,
    Corrupt,
}

impl std::fmt::Display for GzError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GzError::NotGzip => "not in gzip format",
            GzError::Eof => "unexpected end of file",
            GzError::Crc => "invalid compressed data--crc error",
            GzError::Length => "invalid compressed data--length error",
            GzError::Corrupt => "invalid compressed data--format violated",
        })
    }
}

/// A member's header.
#[derive(Debug, Clone, Default)]
pub struct Header {
    /// Bytes up to the deflate data.
    pub len: usize,
}

/// Parse a member header at the start of `d`.
pub fn header(d: &[u8]) -> Result<Header, GzError> {
    if d.len() < 2 || d[0] != 0x1f || d[1] != 0x8b {
        return Err(GzError::NotGzip);
    }
    if d.len() < 10 {
        return Err(GzError::Eof);
    }
    if d[2] != 8 {
        return Err(GzError::NotGzip);
    }
    let flags = d[3];
    let mut p = 10;
    if flags & 4 != 0 {
        let n = usize::from(*d.get(p).ok_or(GzError::Eof)?) | usize::from(*d.get(p + 1).ok_or(GzError::Eof)?) << 8;
        p += 2 + n;
    }
    let zstr = |p: &mut usize| -> Result<(), GzError> {
        let rest = d.get(*p..).ok_or(GzError::Eof)?;
        *p += rest.iter().position(|&b| b == 0).ok_or(GzError::Eof)? + 1;
        Ok(())
    };
    // The name and the comment are skipped: `gunzip` names its output after the input.
    for bit in [8, 16] {
        if flags & bit != 0 {
            zstr(&mut p)?;
        }
    }
    if flags & 2 != 0 {
        p += 2;
    }
    if p > d.len() {
        return Err(GzError::Eof);
    }
    Ok(Header { len: p })
}

/// Decompresses every member of `data`, a chunk per call.
pub struct Decoder {
    data: Vec<u8>,
    pos: usize,
    inflate: Option<Decompress>,
    crc: Crc,
    members: usize,
    /// Bytes after the last member that are not another member.
    pub trailing_garbage: bool,
}

impl Decoder {
    pub fn new(data: Vec<u8>) -> Decoder {
        Decoder { data, pos: 0, inflate: None, crc: Crc::new(), members: 0, trailing_garbage: false }
    }

    /// The next piece of output; `Ok(None)` at the end.
    pub fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, GzError> {
        loop {
            if self.inflate.is_none() {
                let rest = &self.data[self.pos..];
                if self.members > 0 && (rest.is_empty() || !rest.starts_with(&[0x1f, 0x8b])) {
                    self.trailing_garbage = !rest.is_empty();
                    self.pos = self.data.len();
                    return Ok(None);
                }
                if rest.is_empty() {
                    return Err(GzError::Eof);
                }
                let h = header(rest)?;
                self.pos += h.len;
                self.inflate = Some(Decompress::new(false));
                self.crc = Crc::new();
            }
            let Some(d) = self.inflate.as_mut() else { return Ok(None) };
            let mut out = Vec::with_capacity(CHUNK);
            let before = (d.total_in(), d.total_out());
            let st = d.decompress_vec(&self.data[self.pos..], &mut out, FlushDecompress::None);
            let st = st.map_err(|_| GzError::Corrupt)?;
            let used = (d.total_in() - before.0) as usize;
            self.pos += used;
            self.crc.update(&out);
            if st == Status::StreamEnd {
                let t = self.data.get(self.pos..self.pos + 8).ok_or(GzError::Eof)?;
                let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
                if crc != self.crc.sum() {
                    return Err(GzError::Crc);
                }
                if size != self.crc.amount() {
                    return Err(GzError::Length);
                }
                self.pos += 8;
                self.inflate = None;
                self.members += 1;
            } else if used == 0 && out.is_empty() {
                return Err(GzError::Eof);
            }
            if !out.is_empty() {
                return Ok(Some(out));
            }
        }
    }
}

/// Decompress a whole buffer, at most `max` bytes of output.
pub fn decompress(data: Vec<u8>, max: usize) -> Result<Vec<u8>, GzError> {
    let mut d = Decoder::new(data);
    let mut out = Vec::new();
    while let Some(c) = d.next_chunk()? {
        // The session's memory budget bounds what a small bomb may inflate to.
        if out.len() + c.len() > max || !crate::limits::scope::extend_within_budget(&mut out, &c) {
            return Err(GzError::Length);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_header() {
        let z = compress(b"hello\n", 6, Some(b"a"), 0x6593_7d25);
        // Header bytes as GNU gzip 1.12 wrote them for `a` (mtime 2024-01-02 03:04:05).
        assert_eq!(&z[..12], &[0x1f, 0x8b, 8, 8, 0x25, 0x7d, 0x93, 0x65, 0, 3, b'a', 0]);
        assert_eq!(decompress(z.clone(), 100).unwrap(), b"hello\n");
        let mut two = z.clone();
        two.extend_from_slice(&z);
        assert_eq!(decompress(two, 100).unwrap(), b"hello\nhello\n");
        let mut bad = z.clone();
        let n = bad.len();
        bad[n - 8] ^= 1;
        assert_eq!(decompress(bad, 100), Err(GzError::Crc));
        assert_eq!(decompress(z[..20].to_vec(), 100), Err(GzError::Eof));
        assert_eq!(decompress(b"zz\n".to_vec(), 100), Err(GzError::NotGzip));
        let big = vec![b'x'; 300_000];
        assert_eq!(decompress(compress(&big, 9, None, 0), 1 << 20).unwrap(), big);
    }
}
