//! Record reading for awk: a buffered reader over a stream (stdin or a
//! file, read chunk by chunk), split by RS (one character, paragraph mode or a
//! regex, as gawk does).

use crate::commands::CommandContext;
use regex::Regex;
use std::sync::Arc;

/// How records are separated.
#[derive(Clone, Debug)]
pub enum RsMode {
    /// A single character (`\n` by default).
    Char(String),
    /// `RS = ""`: records are separated by blank lines.
    Para,
    Regex(Arc<Regex>),
}

pub struct Reader {
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    input: crate::io::Input,
    /// The last record's buffer, handed back to hold the next one (one
    /// allocation less per record).
    spare: String,
}

/// A recycled record buffer larger than this is dropped rather than kept.
const SPARE_MAX: usize = 64 * 1024;

impl Reader {
    pub fn stream(input: crate::io::Input) -> Reader {
        Reader { buf: Vec::new(), pos: 0, eof: false, input, spare: String::new() }
    }

    /// Read more of the stream; false at end of input.
    async fn fill(&mut self, _ctx: &CommandContext<'_>) -> bool {
        if self.eof {
            return false;
        }
        if self.pos > 65536 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        match self.input.read_chunk().await {
            Some(c) => {
                self.buf.extend_from_slice(&c);
                true
            }
            _ => {
                self.eof = true;
                false
            }
        }
    }

    /// Take back a record's buffer that is no longer needed.
    pub fn recycle(&mut self, s: String) {
        if s.capacity() <= SPARE_MAX {
            self.spare = s;
        }
    }

    /// The record up to `end` and its terminator up to `next` (borrowed: it
    /// is mostly the same newline, which the caller need not copy again).
    fn take(&mut self, end: usize, next: usize) -> (String, &[u8]) {
        let bytes = self.buf.get(self.pos..end).unwrap_or_default();
        let rec = match std::str::from_utf8(bytes) {
            Ok(s) => {
                let mut rec = std::mem::take(&mut self.spare);
                rec.clear();
                rec.push_str(s);
                rec
            }
            Err(_) => String::from_utf8_lossy(bytes).into_owned(),
        };
        let rt = self.buf.get(end..next).unwrap_or_default();
        self.pos = next;
        (rec, rt)
    }

    /// The next record and its terminator (gawk's RT), or None at the end.
    pub async fn next_record(
        &mut self,
        mode: &RsMode,
        ctx: &CommandContext<'_>,
        max: usize,
    ) -> Option<(String, &[u8])> {
        loop {
            let rest = &self.buf[self.pos..];
            let too_big = rest.len() > max;
            match mode {
                RsMode::Char(c) => {
                    let sep = c.as_bytes();
                    if let Some(i) = find(rest, sep) {
                        let end = self.pos + i;
                        return Some(self.take(end, end + sep.len()));
                    }
                }
                RsMode::Para => {
                    let lead = rest.iter().take_while(|&&b| b == b'\n').count();
                    if lead == rest.len() && !self.eof {
                        if !self.fill(ctx).await {
                            return None;
                        }
                        continue;
                    }
                    self.pos += lead;
                    let rest = &self.buf[self.pos..];
                    if let Some(i) = find(rest, b"\n\n") {
                        let nl = rest[i..].iter().take_while(|&&b| b == b'\n').count();
                        if i + nl < rest.len() || self.eof {
                            let end = self.pos + i;
                            return Some(self.take(end, end + nl));
                        }
                    } else if self.eof && !rest.is_empty() {
                        let body = rest.len() - rest.iter().rev().take_while(|&&b| b == b'\n').count();
                        let end = self.pos + body;
                        let len = self.buf.len();
                        return Some(self.take(end, len));
                    }
                }
                RsMode::Regex(re) => {
                    let valid = match std::str::from_utf8(rest) {
                        Ok(s) => s.len(),
                        Err(e) => e.valid_up_to(),
                    };
                    let text = std::str::from_utf8(&rest[..valid]).unwrap_or("");
                    if let Some(m) = re.find_iter(text).find(|m| !m.is_empty()) {
                        // A match touching the end might grow with more input.
                        if m.end() < valid || self.eof {
                            let (s, e) = (self.pos + m.start(), self.pos + m.end());
                            return Some(self.take(s, e));
                        }
                    }
                }
            }
            let was_eof = self.eof;
            if !too_big && self.fill(ctx).await {
                continue;
            }
            // At the end (or too long): one more pass now that `eof` is known.
            if !was_eof && !too_big {
                continue;
            }
            {
                if self.pos >= self.buf.len() {
                    return None;
                }
                let len = self.buf.len();
                return Some(self.take(len, len));
            }
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    if let [b] = needle {
        return memchr::memchr(*b, hay);
    }
    memchr::memmem::find(hay, needle)
}
