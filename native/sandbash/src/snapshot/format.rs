//! The envelope of a snapshot, and the length-prefixed building blocks its body
//! is made of.
//!
//! ```text
//! "EXBK" | version: u16 LE | flags: u8 | body (bincode 2, standard config) | tag: 32 bytes
//! ```
//! The tag covers everything before it: SHA-256 when unkeyed, HMAC-SHA256 with
//! the caller's key when keyed. A checkpoint delta (see [`super::delta`]) has
//! the same envelope with the magic `"EXBD"` and versions of its own
//! ([`DELTA`]), so neither kind of record is ever taken for the other.
//!
//! bincode 2's own size limit is a compile-time constant and its `Vec`/`String`
//! decoders allocate a claimed length before reading it, so a forged length
//! could ask for any amount of memory. The body therefore never uses bincode's
//! containers: [`Text`], [`Blob`] and [`Seq`] check every length against the
//! bytes left in the input before allocating, which bounds every allocation by
//! the input size.

use crate::Error;
use bincode::de::read::Reader;
use bincode::de::{BorrowDecoder, Decode, Decoder};
use bincode::enc::write::{SizeWriter, Writer};
use bincode::enc::{Encode, Encoder};
use bincode::error::{DecodeError, EncodeError};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use std::sync::Arc;

pub const MAGIC: &[u8; 4] = b"EXBK";
/// The version this build writes and the newest it reads.
pub const VERSION: u16 = 4;
/// The oldest version this build still reads (1 lacks aliases and the directory
/// stack, 2 the history, 3 the builtins turned off with `enable -n`).
pub const OLDEST_VERSION: u16 = 1;
/// Magic, version, flags.
pub const HEADER_LEN: usize = 7;
pub const TAG_LEN: usize = 32;

/// The tag is an HMAC with the caller's key.
pub const FLAG_KEYED: u8 = 1;
/// The body holds no filesystem.
pub const FLAG_NO_FS: u8 = 2;
/// The body holds no functions.
pub const FLAG_NO_FUNCS: u8 = 4;
const KNOWN_FLAGS: u8 = FLAG_KEYED | FLAG_NO_FS | FLAG_NO_FUNCS;

type HmacSha256 = Hmac<Sha256>;

/// One kind of sealed record: its magic bytes, the versions this build
/// writes and reads, and its name in messages.
#[derive(Clone, Copy, Debug)]
pub struct Envelope {
    pub magic: &'static [u8; 4],
    pub version: u16,
    pub oldest: u16,
    pub what: &'static str,
}

/// A full snapshot.
pub const SNAPSHOT: Envelope = Envelope { magic: MAGIC, version: VERSION, oldest: OLDEST_VERSION, what: "snapshot" };
/// An incremental checkpoint record (see [`super::delta`]).
pub const DELTA: Envelope = Envelope { magic: b"EXBD", version: 1, oldest: 1, what: "checkpoint delta" };

/// The tag that ends sealed bytes (a delta names its parent by it).
pub fn tag_of(bytes: &[u8]) -> Option<[u8; TAG_LEN]> {
    let start = bytes.len().checked_sub(TAG_LEN)?;
    bytes[start..].try_into().ok()
}

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

fn invalid(what: impl std::fmt::Display) -> Error {
    Error::InvalidInput(format!("invalid snapshot: {what}"))
}

/// Refuse an empty key: it would make an HMAC anyone can forge.
pub fn check_key(key: Option<&[u8]>) -> Result<(), Error> {
    match key {
        Some([]) => Err(Error::InvalidInput("snapshot key must not be empty".into())),
        _ => Ok(()),
    }
}

fn tag(data: &[u8], key: Option<&[u8]>) -> Result<[u8; TAG_LEN], Error> {
    match key {
        None => Ok(Sha256::digest(data).into()),
        Some(k) => {
            let mut mac = keyed(k)?;
            mac.update(data);
            Ok(mac.finalize().into_bytes().into())
        }
    }
}

fn keyed(key: &[u8]) -> Result<HmacSha256, Error> {
    // HMAC takes keys of any length; the error exists only in the trait's signature.
    HmacSha256::new_from_slice(key).map_err(|e| Error::InvalidInput(format!("snapshot key: {e}")))
}

/// Header, encoded body and tag.
pub fn seal<T: Encode>(flags: u8, body: &T, key: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    seal_as(SNAPSHOT, flags, body, key)
}

/// [`seal`] as a record of kind `kind`.
pub fn seal_as<T: Encode>(kind: Envelope, flags: u8, body: &T, key: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    check_key(key)?;
    let flags = if key.is_some() { flags | FLAG_KEYED } else { flags & !FLAG_KEYED };
    let encode_err = |e: EncodeError| Error::Internal(format!("snapshot encoding failed: {e}"));
    // A sizing pass first, so a body of many megabytes is written into one allocation.
    let mut sizer = SizeWriter::default();
    bincode::encode_into_writer(body, &mut sizer, config()).map_err(encode_err)?;
    let mut out = Vec::with_capacity(HEADER_LEN + sizer.bytes_written + TAG_LEN);
    out.extend_from_slice(kind.magic);
    out.extend_from_slice(&kind.version.to_le_bytes());
    out.push(flags);
    bincode::encode_into_writer(body, VecSink(&mut out), config()).map_err(encode_err)?;
    let t = tag(&out, key)?;
    out.extend_from_slice(&t);
    Ok(out)
}

struct VecSink<'a>(&'a mut Vec<u8>);

impl Writer for VecSink<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

/// A snapshot whose envelope checked out.
pub struct Opened<'a> {
    pub version: u16,
    pub flags: u8,
    pub body: &'a [u8],
}

/// Check magic, version, flags and tag, in that order (so a snapshot of another
/// version or keying says so rather than failing its tag).
pub fn open<'a>(bytes: &'a [u8], key: Option<&[u8]>) -> Result<Opened<'a>, Error> {
    open_as(SNAPSHOT, bytes, key)
}

/// [`open`] for a record of kind `kind`.
pub fn open_as<'a>(kind: Envelope, bytes: &'a [u8], key: Option<&[u8]>) -> Result<Opened<'a>, Error> {
    check_key(key)?;
    let what = kind.what;
    if bytes.len() < 4 || &bytes[..4] != kind.magic {
        return Err(invalid(format!("not a {what} (bad magic bytes)")));
    }
    if bytes.len() < HEADER_LEN + TAG_LEN {
        return Err(invalid(format!("truncated ({} bytes)", bytes.len())));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if !(kind.oldest..=kind.version).contains(&version) {
        return Err(Error::InvalidInput(format!(
            "{what} version {version} is not supported (this build reads version {})",
            kind.version
        )));
    }
    let flags = bytes[6];
    if flags & !KNOWN_FLAGS != 0 {
        return Err(invalid(format!("unknown flags {flags:#04x}")));
    }
    let (data, given) = bytes.split_at(bytes.len() - TAG_LEN);
    match (flags & FLAG_KEYED != 0, key) {
        (true, None) => return Err(Error::InvalidInput(format!("{what} is keyed: a key is required"))),
        (false, Some(_)) => {
            return Err(Error::InvalidInput(format!("{what} is not keyed: restore it without a key")));
        }
        (true, Some(k)) => {
            let mut mac = keyed(k)?;
            mac.update(data);
            // Constant time, so the comparison leaks nothing about the right tag.
            mac.verify_slice(given).map_err(|_| invalid("tag mismatch (wrong key, or the bytes were altered)"))?;
        }
        (false, None) => {
            let want: [u8; TAG_LEN] = Sha256::digest(data).into();
            if !ct_eq(&want, given) {
                return Err(invalid("checksum mismatch (the bytes were altered or truncated)"));
            }
        }
    }
    Ok(Opened { version, flags, body: &data[HEADER_LEN..] })
}

fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Decode a body that must fill `body` exactly.
pub fn decode<T: Decode<()>>(body: &[u8]) -> Result<T, Error> {
    let (value, used) = bincode::decode_from_slice::<T, _>(body, config()).map_err(invalid)?;
    if used != body.len() {
        return Err(invalid(format!("{} bytes after the body", body.len() - used)));
    }
    Ok(value)
}

/// A length that the rest of the input can hold: every element of a
/// [`Seq`] and every byte of a [`Blob`] or [`Text`] takes at least one byte,
/// so a larger length is a lie and is refused before anything is allocated.
fn decode_len<D: Decoder>(d: &mut D) -> Result<usize, DecodeError> {
    let n = u64::decode(d)?;
    let n = usize::try_from(n).map_err(|_| DecodeError::OutsideUsizeRange(n))?;
    if d.reader().peek_read(n).is_none() {
        return Err(DecodeError::Other("length past the end of the input"));
    }
    Ok(n)
}

fn encode_len<E: Encoder>(e: &mut E, n: usize) -> Result<(), EncodeError> {
    (n as u64).encode(e)
}

fn read_bytes<D: Decoder>(d: &mut D) -> Result<Vec<u8>, DecodeError> {
    let n = decode_len(d)?;
    let bytes = match d.reader().peek_read(n) {
        Some(b) => b.to_vec(),
        None => return Err(DecodeError::Other("length past the end of the input")),
    };
    d.reader().consume(n);
    Ok(bytes)
}

/// Raw bytes (file contents), shared with the filesystem rather than copied.
#[derive(Clone, Debug, PartialEq)]
pub struct Blob(pub Arc<Vec<u8>>);

impl Encode for Blob {
    fn encode<E: Encoder>(&self, e: &mut E) -> Result<(), EncodeError> {
        encode_len(e, self.0.len())?;
        e.writer().write(&self.0)
    }
}

impl<C> Decode<C> for Blob {
    fn decode<D: Decoder<Context = C>>(d: &mut D) -> Result<Self, DecodeError> {
        Ok(Blob(Arc::new(read_bytes(d)?)))
    }
}

/// UTF-8 text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Text(pub String);

impl Encode for Text {
    fn encode<E: Encoder>(&self, e: &mut E) -> Result<(), EncodeError> {
        encode_len(e, self.0.len())?;
        e.writer().write(self.0.as_bytes())
    }
}

impl<C> Decode<C> for Text {
    fn decode<D: Decoder<Context = C>>(d: &mut D) -> Result<Self, DecodeError> {
        let bytes = read_bytes(d)?;
        String::from_utf8(bytes).map(Text).map_err(|e| DecodeError::Utf8 { inner: e.utf8_error() })
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text(s.to_string())
    }
}

/// A sequence. Every element type used in one encodes to at least one byte
/// (see [`decode_len`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Seq<T>(pub Vec<T>);

impl<T: Encode> Encode for Seq<T> {
    fn encode<E: Encoder>(&self, e: &mut E) -> Result<(), EncodeError> {
        encode_len(e, self.0.len())?;
        self.0.iter().try_for_each(|x| x.encode(e))
    }
}

impl<C, T: Decode<C>> Decode<C> for Seq<T> {
    fn decode<D: Decoder<Context = C>>(d: &mut D) -> Result<Self, DecodeError> {
        let n = decode_len(d)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::decode(d)?);
        }
        Ok(Seq(v))
    }
}

impl<T> Default for Seq<T> {
    fn default() -> Self {
        Seq(Vec::new())
    }
}

impl<T> FromIterator<T> for Seq<T> {
    fn from_iter<I: IntoIterator<Item = T>>(it: I) -> Self {
        Seq(it.into_iter().collect())
    }
}

// The derives of the body's structs implement `BorrowDecode` through their
// fields'; these own their data, so borrowing decodes as owning does.
macro_rules! borrow_as_owned {
    ($($t:ty),*) => {$(
        impl<'de, C> bincode::BorrowDecode<'de, C> for $t {
            fn borrow_decode<D: BorrowDecoder<'de, Context = C>>(d: &mut D) -> Result<Self, DecodeError> {
                Decode::decode(d)
            }
        }
    )*};
}
borrow_as_owned!(Blob, Text);

impl<'de, C, T: Decode<C>> bincode::BorrowDecode<'de, C> for Seq<T> {
    fn borrow_decode<D: BorrowDecoder<'de, Context = C>>(d: &mut D) -> Result<Self, DecodeError> {
        Decode::decode(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(bincode::Encode, bincode::Decode, Debug, PartialEq)]
    struct Sample {
        name: Text,
        data: Blob,
        list: Seq<(i64, Text)>,
    }

    fn sample() -> Sample {
        Sample {
            name: "héllo".into(),
            data: Blob(Arc::new(vec![0, 255, 10])),
            list: Seq(vec![(-3, "a".into()), (7, "".into())]),
        }
    }

    #[test]
    fn seal_and_open_round_trip() {
        let bytes = seal(FLAG_NO_FS, &sample(), None).expect("seal");
        assert_eq!(&bytes[..4], b"EXBK");
        let o = open(&bytes, None).expect("open");
        assert_eq!(o.flags, FLAG_NO_FS);
        assert_eq!(decode::<Sample>(o.body).expect("decode"), sample());
        let keyed = seal(0, &sample(), Some(b"k")).expect("seal");
        assert_eq!(open(&keyed, Some(b"k")).expect("open").flags, FLAG_KEYED);
    }

    #[test]
    fn a_forged_length_allocates_nothing() {
        // A Blob claiming u64::MAX-ish bytes, then a Seq claiming 2^40 elements.
        for claim in [u64::MAX, 1 << 40, 5] {
            let mut body = Vec::new();
            bincode::encode_into_writer(claim, VecSink(&mut body), config()).expect("encode");
            body.extend_from_slice(b"abc");
            assert!(decode::<Blob>(&body).is_err());
            assert!(decode::<Seq<Text>>(&body).is_err());
        }
    }

    #[test]
    fn trailing_bytes_are_refused() {
        let mut body = Vec::new();
        bincode::encode_into_writer(Text("x".into()), VecSink(&mut body), config()).expect("encode");
        body.push(0);
        assert!(decode::<Text>(&body).unwrap_err().to_string().contains("after the body"));
    }
}
