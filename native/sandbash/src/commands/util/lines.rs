//! Lines of a stream, read a chunk at a time: a tool holds one chunk and the
//! line it is in, never the whole file, so `grep x huge.log` runs in the
//! memory of its longest line. Lines are handed out as borrowed slices.

use crate::io::Input;

pub struct LineReader {
    input: Input,
    /// A window of the stream: consumed bytes before `pos`, then unread ones.
    buf: Vec<u8>,
    pos: usize,
    delim: u8,
    eof: bool,
    /// Longest line kept (`max_string_bytes`); a longer one is cut there.
    max: usize,
    /// A line ran past `max`: the caller ends the exec with that limit.
    pub too_long: bool,
    /// Where `line_ready` found the next delimiter.
    found: Option<usize>,
}

impl LineReader {
    pub fn new(input: Input, delim: u8, max: usize) -> LineReader {
        LineReader { input, buf: Vec::new(), pos: 0, delim, eof: false, max: max.max(1), too_long: false, found: None }
    }

    /// The byte that ends a line.
    pub fn delim(&self) -> u8 {
        self.delim
    }

    /// Whether the next line is already buffered, so `next_line` will not
    /// wait: a tool batching its output flushes it before it would wait, and
    /// a slow producer's lines still come out one by one.
    pub fn line_ready(&mut self) -> bool {
        if self.eof || self.found.is_some() {
            return true;
        }
        self.found = memchr::memchr(self.delim, &self.buf[self.pos..]).map(|i| self.pos + i);
        self.found.is_some()
    }

    /// The next line with its delimiter (the last line may lack one).
    pub async fn next_line(&mut self) -> Option<&[u8]> {
        // Every line loop of every utility looks at the deadline here.
        if let Err(stop) = crate::limits::checkpoint() {
            crate::limits::scope::stop_exec(stop);
            return None;
        }
        let mut scan_from = self.pos;
        if let Some(at) = self.found.take() {
            scan_from = at;
        }
        loop {
            if let Some(i) = memchr::memchr(self.delim, &self.buf[scan_from..]) {
                let (start, mut end) = (self.pos, scan_from + i + 1);
                if end - start > self.max {
                    self.too_long = true;
                    end = start + self.max;
                }
                self.pos = end;
                return Some(&self.buf[start..end]);
            }
            if self.eof {
                if self.pos < self.buf.len() {
                    let start = self.pos;
                    self.pos = self.buf.len();
                    return Some(&self.buf[start..]);
                }
                return None;
            }
            self.buf.drain(..self.pos);
            self.pos = 0;
            scan_from = self.buf.len();
            if self.buf.len() >= self.max {
                // Hand out what fits as a line; what follows comes as more lines.
                self.too_long = true;
                let n = self.max;
                self.pos = n;
                return Some(&self.buf[..n]);
            }
            match self.input.read_chunk().await {
                Some(chunk) => self.buf.extend_from_slice(&chunk),
                None => self.eof = true,
            }
        }
    }

    /// Stop reading: bytes taken from a regular file but not used go back to
    /// it, so the next command on a shared stdin continues after the last
    /// line used (as GNU tools leave a seekable stdin); a pipe cannot take
    /// them back.
    pub async fn finish(self) {
        if !self.input.is_pipe().await {
            self.input.unread(&self.buf[self.pos..]).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(r: &mut LineReader) -> Vec<Vec<u8>> {
        let mut v = Vec::new();
        while let Some(l) = r.next_line().await {
            v.push(l.to_vec());
        }
        v
    }

    #[tokio::test]
    async fn lines_across_chunks() {
        let data: Vec<u8> = (0..200_000).map(|i| if i % 7 == 6 { b'\n' } else { b'a' + (i % 7) as u8 }).collect();
        let mut r = LineReader::new(Input::from_file(bytes::Bytes::from(data.clone())), b'\n', 1 << 20);
        let got = all(&mut r).await;
        assert_eq!(got.concat(), data);
        assert!(got.iter().all(|l| l == b"abcdef\n" || !l.ends_with(b"\n")));
        assert!(!r.too_long);
    }

    #[tokio::test]
    async fn last_line_without_delimiter_and_empty_input() {
        let mut r = LineReader::new(Input::from_bytes(&b"x\0y"[..]), 0, 100);
        assert_eq!(all(&mut r).await, vec![b"x\0".to_vec(), b"y".to_vec()]);
        let mut e = LineReader::new(Input::null(), b'\n', 100);
        assert!(e.next_line().await.is_none());
    }

    #[tokio::test]
    async fn line_ready_says_when_a_read_would_wait() {
        let (w, input) = crate::io::pipe();
        let mut r = LineReader::new(input, b'\n', 100);
        w.write(b"a\nb").await.unwrap();
        assert!(!r.line_ready());
        assert_eq!(r.next_line().await, Some(&b"a\n"[..]));
        assert!(!r.line_ready());
        w.write(b"c\n").await.unwrap();
        drop(w);
        assert_eq!(r.next_line().await, Some(&b"bc\n"[..]));
        assert!(!r.line_ready());
        assert_eq!(r.next_line().await, None);
        assert!(r.line_ready());
    }

    #[tokio::test]
    async fn overlong_line_is_cut_and_flagged() {
        let mut r = LineReader::new(Input::from_bytes(&b"abcdefgh\nz\n"[..]), b'\n', 5);
        assert_eq!(all(&mut r).await, vec![b"abcde".to_vec(), b"fgh\n".to_vec(), b"z\n".to_vec()]);
        assert!(r.too_long);
    }

    #[tokio::test]
    async fn finish_gives_back_the_unread_rest() {
        let input = Input::from_file(bytes::Bytes::from_static(b"one\ntwo\nthree\n"));
        let mut r = LineReader::new(input.clone(), b'\n', 100);
        assert_eq!(r.next_line().await, Some(&b"one\n"[..]));
        r.finish().await;
        assert_eq!(input.read_to_end(100).await.unwrap(), b"two\nthree\n");
    }
}
