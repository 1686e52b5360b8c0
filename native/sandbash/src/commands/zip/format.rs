//! The ZIP container (PKWARE APPNOTE), the part `zip` and `unzip` need: reading
//! the central directory of an in-memory archive, writing local headers and the
//! central directory as Info-ZIP 3.0 does (Unix host, an extended-timestamp
//! field), stored and deflated members, DOS dates. Every offset read from an
//! archive is checked, so a corrupt one gives an error, never a panic.

use crate::commands::util::file_time::{civil_from_days, days_from_civil};
use flate2::{Compress, Compression, Crc, Decompress, FlushCompress, FlushDecompress, Status};

pub const STORED: u16 = 0;
pub const DEFLATED: u16 = 8;

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
/// Info-ZIP 3.0 on Unix: "made by" host 3, version 3.0.
const MADE_BY: u16 = 0x031e;
/// The extended-timestamp extra field ("UT").
const EXT_TIME: u16 = 0x5455;

/// One member as the central directory describes it.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub method: u16,
    pub flags: u16,
    pub dos_time: u16,
    pub dos_date: u16,
    pub crc: u32,
    pub csize: u64,
    pub usize: u64,
    /// Unix permission bits (with the file-type bits) when made on Unix.
    pub mode: Option<u32>,
    /// Unix mtime from the extended-timestamp field, if present.
    pub mtime: Option<i64>,
    /// Where the local header starts.
    pub local_offset: u64,
    /// The member's raw header fields for rewriting the archive (`zip` adding to one).
    pub central_extra: Vec<u8>,
    pub version_made: u16,
    pub version_needed: u16,
    pub external_attr: u32,
}

impl Entry {
    pub fn is_dir(&self) -> bool {
        self.name.ends_with('/')
    }
}

/// Why an archive cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZipError {
    /// No end-of-central-directory record.
    NoEnd,
    /// The central directory is cut short or malformed.
    BadCentral,
}

fn u16_at(d: &[u8], p: usize) -> Option<u16> {
    Some(u16::from_le_bytes(d.get(p..p + 2)?.try_into().ok()?))
}

fn u32_at(d: &[u8], p: usize) -> Option<u32> {
    Some(u32::from_le_bytes(d.get(p..p + 4)?.try_into().ok()?))
}

/// Find the end record (scanning back over a comment of up to 64 KiB).
fn find_end(d: &[u8]) -> Option<usize> {
    if d.len() < 22 {
        return None;
    }
    let lowest = d.len().saturating_sub(22 + 0xffff);
    (lowest..=d.len() - 22).rev().find(|&p| u32_at(d, p) == Some(END_SIG))
}

/// The members of an archive, in central-directory order.
pub fn read_central(d: &[u8]) -> Result<Vec<Entry>, ZipError> {
    let end = find_end(d).ok_or(ZipError::NoEnd)?;
    let count = usize::from(u16_at(d, end + 10).ok_or(ZipError::NoEnd)?);
    let mut p = u32_at(d, end + 16).ok_or(ZipError::NoEnd)? as usize;
    let mut out = Vec::with_capacity(count.min(4096));
    for _ in 0..count {
        if u32_at(d, p) != Some(CENTRAL_SIG) {
            return Err(ZipError::BadCentral);
        }
        let f = |o: usize| u16_at(d, p + o).ok_or(ZipError::BadCentral);
        let g = |o: usize| u32_at(d, p + o).ok_or(ZipError::BadCentral);
        let (name_len, extra_len, comment_len) = (usize::from(f(28)?), usize::from(f(30)?), usize::from(f(32)?));
        let name_start = p + 46;
        let name = d.get(name_start..name_start + name_len).ok_or(ZipError::BadCentral)?;
        let extra = d.get(name_start + name_len..name_start + name_len + extra_len).ok_or(ZipError::BadCentral)?;
        let made = f(4)?;
        let attr = g(38)?;
        out.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            version_made: made,
            version_needed: f(6)?,
            flags: f(8)?,
            method: f(10)?,
            dos_time: f(12)?,
            dos_date: f(14)?,
            crc: g(16)?,
            csize: u64::from(g(20)?),
            usize: u64::from(g(24)?),
            mode: (made >> 8 == 3).then_some(attr >> 16).filter(|&m| m != 0),
            external_attr: attr,
            mtime: ext_mtime(extra),
            local_offset: u64::from(g(42)?),
            central_extra: extra.to_vec(),
        });
        p = name_start + name_len + extra_len + comment_len;
    }
    Ok(out)
}

/// The mtime in an extended-timestamp extra field.
fn ext_mtime(mut extra: &[u8]) -> Option<i64> {
    while extra.len() >= 4 {
        let id = u16_at(extra, 0)?;
        let len = usize::from(u16_at(extra, 2)?);
        let body = extra.get(4..4 + len)?;
        if id == EXT_TIME && body.first().is_some_and(|f| f & 1 != 0) {
            return Some(i64::from(u32_at(body, 1)? as i32));
        }
        extra = &extra[(4 + len).min(extra.len())..];
    }
    None
}

/// The compressed bytes of `e` (after its local header).
pub fn member_data<'a>(d: &'a [u8], e: &Entry) -> Option<&'a [u8]> {
    let p = usize::try_from(e.local_offset).ok()?;
    if u32_at(d, p)? != LOCAL_SIG {
        return None;
    }
    let start = p + 30 + usize::from(u16_at(d, p + 26)?) + usize::from(u16_at(d, p + 28)?);
    d.get(start..start.checked_add(usize::try_from(e.csize).ok()?)?)
}

/// The whole local record of `e` (header and data), for copying it into a new archive.
pub fn local_record<'a>(d: &'a [u8], e: &Entry) -> Option<&'a [u8]> {
    let p = usize::try_from(e.local_offset).ok()?;
    let data = member_data(d, e)?;
    let end = data.as_ptr() as usize - d.as_ptr() as usize + data.len();
    // A data descriptor (flag bit 3) follows the data: signature optional.
    let desc = if e.flags & 8 != 0 {
        if u32_at(d, end) == Some(0x0807_4b50) {
            16
        } else {
            12
        }
    } else {
        0
    };
    d.get(p..end + desc)
}

/// Inflates a member a bounded chunk at a time, so a small member that claims
/// or expands to a huge size is caught while it inflates.
pub struct Inflater<'a> {
    data: &'a [u8],
    pos: usize,
    z: Option<Decompress>,
    pub crc: Crc,
    done: bool,
}

/// A member's data could not be expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InflateError {
    Corrupt,
    Unsupported(u16),
}

impl<'a> Inflater<'a> {
    pub fn new(data: &'a [u8], method: u16) -> Result<Inflater<'a>, InflateError> {
        let z = match method {
            STORED => None,
            DEFLATED => Some(Decompress::new(false)),
            m => return Err(InflateError::Unsupported(m)),
        };
        Ok(Inflater { data, pos: 0, z, crc: Crc::new(), done: false })
    }

    /// The next piece of output (at most `max` bytes); `Ok(None)` at the end.
    pub fn next_chunk(&mut self, max: usize) -> Result<Option<Vec<u8>>, InflateError> {
        if self.done {
            return Ok(None);
        }
        let max = max.clamp(1, 64 * 1024);
        let Some(z) = self.z.as_mut() else {
            let rest = &self.data[self.pos..];
            if rest.is_empty() {
                self.done = true;
                return Ok(None);
            }
            let n = rest.len().min(max);
            self.pos += n;
            self.crc.update(&rest[..n]);
            return Ok(Some(rest[..n].to_vec()));
        };
        let mut out = Vec::with_capacity(max);
        let before = (z.total_in(), z.total_out());
        let st = z.decompress_vec(&self.data[self.pos..], &mut out, FlushDecompress::None);
        let st = st.map_err(|_| InflateError::Corrupt)?;
        self.pos += (z.total_in() - before.0) as usize;
        self.crc.update(&out);
        if st == Status::StreamEnd {
            self.done = true;
        } else if out.is_empty() && z.total_out() == before.1 {
            // No progress: the input ended before the stream did.
            return Err(InflateError::Corrupt);
        }
        Ok(Some(out))
    }
}

/// Raw deflate of a whole buffer at `level` (1-9).
pub fn deflate(data: &[u8], level: u32) -> Vec<u8> {
    let mut c = Compress::new(Compression::new(level.clamp(1, 9)), false);
    let mut out = Vec::with_capacity(data.len() / 2 + 64);
    let mut input = data;
    loop {
        if out.capacity() - out.len() < 1024 {
            out.reserve(64 * 1024);
        }
        let before = c.total_in();
        let st = c.compress_vec(input, &mut out, FlushCompress::Finish);
        input = &input[(c.total_in() - before) as usize..];
        if !matches!(st, Ok(Status::Ok) | Ok(Status::BufError)) {
            break;
        }
    }
    out
}

pub fn crc32(data: &[u8]) -> u32 {
    let mut c = Crc::new();
    c.update(data);
    c.sum()
}

/// DOS date and time of a Unix time already shifted to local time.
pub fn dos_datetime(local_secs: i64) -> (u16, u16) {
    // Info-ZIP rounds odd seconds up (DOS times have 2-second steps).
    let local_secs = local_secs + (local_secs & 1);
    let days = local_secs.div_euclid(86_400);
    let s = local_secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    if y < 1980 {
        return (0, (1 << 5) | 1);
    }
    let y = (y - 1980).min(127) as u16;
    let time = ((s / 3600) as u16) << 11 | (((s % 3600) / 60) as u16) << 5 | ((s % 60) / 2) as u16;
    (time, y << 9 | (m as u16) << 5 | d as u16)
}

/// `YYYY-MM-DD HH:MM` of a DOS date and time (as unzip -l prints it).
pub fn dos_display(time: u16, date: u16) -> String {
    let (y, m, d) = (1980 + (date >> 9), (date >> 5) & 15, date & 31);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", time >> 11, (time >> 5) & 63)
}

/// The local time a DOS date and time name, as Unix seconds (for setting mtimes
/// when no extended timestamp is present).
pub fn dos_to_local_secs(time: u16, date: u16) -> i64 {
    let (y, m, d) = (1980 + i64::from(date >> 9), u32::from((date >> 5) & 15).max(1), u32::from(date & 31).max(1));
    days_from_civil(y, m, d) * 86_400
        + i64::from(time >> 11) * 3600
        + i64::from((time >> 5) & 63) * 60
        + i64::from(time & 31) * 2
}

/// A member to write: its name, metadata and already-compressed data.
pub struct NewMember {
    pub name: String,
    pub method: u16,
    pub crc: u32,
    pub usize: u64,
    pub data: Vec<u8>,
    pub dos: (u16, u16),
    pub mtime: i64,
    pub mode: u32,
}

fn ext_time_field(mtime: i64) -> Vec<u8> {
    let mut v = Vec::with_capacity(9);
    v.extend_from_slice(&EXT_TIME.to_le_bytes());
    v.extend_from_slice(&5u16.to_le_bytes());
    v.push(1);
    v.extend_from_slice(&(mtime.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32).to_le_bytes());
    v
}

/// The local record of a new member, and its central-directory entry (whose
/// offset is patched in by [`Writer`]).
pub fn new_member_entry(m: &NewMember) -> (Vec<u8>, Entry) {
    let needed: u16 = if m.method == DEFLATED { 20 } else { 10 };
    let extra = ext_time_field(m.mtime);
    let mut h = Vec::with_capacity(30 + m.name.len() + extra.len() + m.data.len());
    h.extend_from_slice(&LOCAL_SIG.to_le_bytes());
    h.extend_from_slice(&needed.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes());
    h.extend_from_slice(&m.method.to_le_bytes());
    h.extend_from_slice(&m.dos.0.to_le_bytes());
    h.extend_from_slice(&m.dos.1.to_le_bytes());
    h.extend_from_slice(&m.crc.to_le_bytes());
    h.extend_from_slice(&(m.data.len() as u32).to_le_bytes());
    h.extend_from_slice(&(m.usize as u32).to_le_bytes());
    h.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
    h.extend_from_slice(&(extra.len() as u16).to_le_bytes());
    h.extend_from_slice(m.name.as_bytes());
    h.extend_from_slice(&extra);
    h.extend_from_slice(&m.data);
    let dir = m.name.ends_with('/');
    let e = Entry {
        name: m.name.clone(),
        method: m.method,
        flags: 0,
        dos_time: m.dos.0,
        dos_date: m.dos.1,
        crc: m.crc,
        csize: m.data.len() as u64,
        usize: m.usize,
        mode: Some(m.mode),
        mtime: Some(m.mtime),
        local_offset: 0,
        central_extra: extra,
        version_made: MADE_BY,
        version_needed: needed,
        external_attr: (m.mode << 16) | if dir { 0x10 } else { 0 },
    };
    (h, e)
}

/// Builds an archive: local records appended in order, then the central directory.
#[derive(Default)]
pub struct Writer {
    pub out: Vec<u8>,
    entries: Vec<Entry>,
}

impl Writer {
    /// Append a local record already laid out (copied or new) with its entry.
    pub fn push(&mut self, record: &[u8], mut e: Entry) {
        e.local_offset = self.out.len() as u64;
        self.out.extend_from_slice(record);
        self.entries.push(e);
    }

    /// The central directory and end record; the finished archive.
    pub fn finish(mut self) -> Vec<u8> {
        let start = self.out.len();
        for e in &self.entries {
            let o = &mut self.out;
            o.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
            o.extend_from_slice(&e.version_made.to_le_bytes());
            o.extend_from_slice(&e.version_needed.to_le_bytes());
            o.extend_from_slice(&e.flags.to_le_bytes());
            o.extend_from_slice(&e.method.to_le_bytes());
            o.extend_from_slice(&e.dos_time.to_le_bytes());
            o.extend_from_slice(&e.dos_date.to_le_bytes());
            o.extend_from_slice(&e.crc.to_le_bytes());
            o.extend_from_slice(&(e.csize as u32).to_le_bytes());
            o.extend_from_slice(&(e.usize as u32).to_le_bytes());
            o.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
            o.extend_from_slice(&(e.central_extra.len() as u16).to_le_bytes());
            o.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
            o.extend_from_slice(&e.external_attr.to_le_bytes());
            o.extend_from_slice(&(e.local_offset as u32).to_le_bytes());
            o.extend_from_slice(e.name.as_bytes());
            o.extend_from_slice(&e.central_extra);
        }
        let size = self.out.len() - start;
        let n = self.entries.len().min(0xffff) as u16;
        let o = &mut self.out;
        o.extend_from_slice(&END_SIG.to_le_bytes());
        o.extend_from_slice(&[0; 4]);
        o.extend_from_slice(&n.to_le_bytes());
        o.extend_from_slice(&n.to_le_bytes());
        o.extend_from_slice(&(size as u32).to_le_bytes());
        o.extend_from_slice(&(start as u32).to_le_bytes());
        o.extend_from_slice(&0u16.to_le_bytes());
        self.out
    }
}

/// Info-ZIP's `percent()`: the share saved, rounded, integers only.
pub fn percent(n: u64, m: u64) -> i64 {
    let (mut n, mut m) = (n, m);
    if n > 0xff_ffff {
        n = (n + 0x80) >> 8;
        m = (m + 0x80) >> 8;
    }
    if n > m {
        (200 * (n - m) as u128 / n as u128).div_ceil(2) as i64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dos_times_and_percent() {
        // 2024-01-02 03:04:05 as Info-ZIP wrote it (time 0x1883, date 0x5822).
        let t = days_from_civil(2024, 1, 2) * 86_400 + 3 * 3600 + 4 * 60 + 5;
        assert_eq!(dos_datetime(t), (0x1883, 0x5822));
        assert_eq!(dos_display(0x1882, 0x5822), "2024-01-02 03:04");
        assert_eq!(percent(692, 331), 52);
        assert_eq!(percent(692, 325), 53);
        assert_eq!(percent(6, 6), 0);
        assert_eq!(percent(0, 0), 0);
    }

    #[test]
    fn garbage_is_an_error() {
        assert_eq!(read_central(b"garbage").unwrap_err(), ZipError::NoEnd);
        let mut w = Writer::default();
        let (rec, e) = new_member_entry(&NewMember {
            name: "a".into(),
            method: STORED,
            crc: crc32(b"hi"),
            usize: 2,
            data: b"hi".to_vec(),
            dos: (0, 0x21),
            mtime: 0,
            mode: 0o100644,
        });
        w.push(&rec, e);
        let z = w.finish();
        let es = read_central(&z).unwrap();
        assert_eq!(member_data(&z, &es[0]), Some(&b"hi"[..]));
        // Every truncation fails cleanly.
        for n in 0..z.len() {
            if let Ok(es) = read_central(&z[..n]) {
                for e in &es {
                    let _ = member_data(&z[..n], e);
                }
            }
        }
    }
}
