//! Byte streams between commands: bounded pipes, shared stdin readers and
//! output sinks (captured buffers, pipes, files). Everything is bytes.

use crate::fs::{Fs, FsError};
use bytes::Bytes;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Chunks a pipe holds before its writer waits (each chunk is one write).
const PIPE_CAPACITY: usize = 16;
/// Largest chunk a single pipe write carries; bigger writes are split so a pipe
/// holds at most `PIPE_CAPACITY * PIPE_CHUNK` bytes.
const PIPE_CHUNK: usize = 64 * 1024;

/// Why a write failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IoError {
    /// The reading end is gone (SIGPIPE): the writer should stop, status 141.
    BrokenPipe,
    /// The exec's output cap was hit; the exec ends with an error.
    OutputLimit(u64),
    /// Writing to a file failed.
    Fs(FsError),
    /// The descriptor is closed.
    BadFd,
}

/// A turn of a reader or writer worth `units` light turns: false once the
/// exec this thread works for must stop (it then stops at its next check).
fn keep_going(units: usize) -> bool {
    match crate::limits::scope::checkpoint_work(units) {
        Ok(()) => true,
        Err(stop) => {
            crate::limits::scope::stop_exec(stop);
            false
        }
    }
}

impl std::fmt::Display for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IoError::BrokenPipe => f.write_str("Broken pipe"),
            IoError::OutputLimit(n) => write!(f, "output limit of {n} bytes exceeded"),
            IoError::Fs(e) => write!(f, "{e}"),
            IoError::BadFd => f.write_str("Bad file descriptor"),
        }
    }
}

/// A bounded in-memory pipe.
pub fn pipe() -> (Output, Input) {
    let (tx, rx) = mpsc::channel(PIPE_CAPACITY);
    (Output::Pipe(tx), Input::from_source(Source::Pipe(rx)))
}

/// A capture buffer with a byte cap shared by all buffers of one exec.
pub struct CaptureBuf {
    data: Mutex<Vec<u8>>,
    counter: Arc<OutputCounter>,
}

/// Counts bytes written to an exec's stdout and stderr together.
pub struct OutputCounter {
    used: AtomicU64,
    limit: u64,
    exceeded: AtomicBool,
}

impl OutputCounter {
    pub fn new(limit: u64) -> Arc<Self> {
        Arc::new(OutputCounter { used: AtomicU64::new(0), limit, exceeded: AtomicBool::new(false) })
    }
    pub fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }
    pub fn limit(&self) -> u64 {
        self.limit
    }
}

impl CaptureBuf {
    pub fn new(counter: Arc<OutputCounter>) -> Arc<Self> {
        Arc::new(CaptureBuf { data: Mutex::new(Vec::new()), counter })
    }
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.data.lock())
    }
    pub fn len(&self) -> usize {
        self.data.lock().len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a file descriptor writes to.
#[derive(Clone)]
pub enum Output {
    /// Discards everything (`/dev/null`).
    Null,
    /// A closed descriptor (`>&-`): writes fail.
    Closed,
    /// Collected in memory (the exec's stdout/stderr, `$( )`).
    Capture(Arc<CaptureBuf>),
    /// The writing end of a pipe.
    Pipe(mpsc::Sender<Bytes>),
    /// Appends to a file in the sandbox filesystem (truncated when opened with `>`).
    File(Arc<FileSink>),
    /// A file opened with `<>`: writes land at the offset its reading end
    /// shares (see [`RwFile`]).
    ReadWrite(Arc<RwFile>, Input),
}

/// A file opened for reading and writing (`n<>file`): one offset for both
/// ends, as a descriptor of the kernel's has. Reads take the rest of the
/// file from it; a write goes where reading stopped (bytes a reader took but
/// put back do not count as read), overwriting, and moves it past itself.
pub struct RwFile {
    pub fs: Arc<dyn Fs>,
    pub path: String,
    offset: AtomicU64,
}

impl RwFile {
    /// Both ends of `path` (which exists), at offset 0.
    pub fn open(fs: Arc<dyn Fs>, path: String) -> (Input, Output) {
        let f = Arc::new(RwFile { fs, path, offset: AtomicU64::new(0) });
        let input = Input::from_source(Source::ReadWrite(f.clone()));
        (input.clone(), Output::ReadWrite(f, input))
    }

    /// The rest of the file from the offset, which moves to its end.
    async fn read_rest(&self) -> Option<Bytes> {
        let at = self.offset.load(Ordering::Relaxed) as usize;
        // At the end: no copy of the file to find that out.
        if at as u64 >= self.fs.metadata(&self.path).await.ok()?.size {
            return None;
        }
        let data = crate::fs::permissions::through_open(self.fs.read(&self.path)).await.ok()?;
        if at >= data.len() {
            return None;
        }
        self.offset.store(data.len() as u64, Ordering::Relaxed);
        Some(Bytes::from(data).slice(at..))
    }

    async fn write(&self, input: &Input, data: &[u8]) -> Result<(), IoError> {
        let unread = std::mem::take(&mut input.0.lock().await.pending).len() as u64;
        let at = self.offset.load(Ordering::Relaxed).saturating_sub(unread);
        let size = self.fs.metadata(&self.path).await.map_err(IoError::Fs)?.size;
        if at >= size {
            // The common case (after reading it all, or a new file): no copy.
            crate::fs::permissions::through_open(self.fs.append(&self.path, data)).await.map_err(IoError::Fs)?;
        } else {
            let mut whole =
                crate::fs::permissions::through_open(self.fs.read(&self.path)).await.map_err(IoError::Fs)?;
            let (from, to) = (at as usize, at as usize + data.len());
            if whole.len() < to {
                whole.resize(to, 0);
            }
            whole[from..to].copy_from_slice(data);
            crate::fs::permissions::through_open(self.fs.write(&self.path, &whole)).await.map_err(IoError::Fs)?;
        }
        self.offset.store(at + data.len() as u64, Ordering::Relaxed);
        Ok(())
    }
}

/// A file opened for writing.
pub struct FileSink {
    pub fs: Arc<dyn Fs>,
    pub path: String,
    /// For a backend that takes whole operations ([`Fs::whole_operations`]):
    /// what was written since the file was opened (or last handed on), owed
    /// to the backend in one call when the descriptor is closed.
    owed: Option<Mutex<Owed>>,
}

struct Owed {
    data: Vec<u8>,
    /// Hand it on with `append` (`>>`, or after a first hand-over), else `write`.
    append: bool,
    /// Whether a call is owed (opening with `>` owes one even with no data).
    due: bool,
}

impl FileSink {
    /// A file each write appends to at once (opened, and truncated for `>`, already).
    pub fn new(fs: Arc<dyn Fs>, path: String) -> Self {
        FileSink { fs, path, owed: None }
    }

    /// A file of a whole-operation backend, opened with `>` (or `>>` when
    /// `append`): nothing reaches the backend until [`FileSink::close`], which
    /// hands it everything written in one `write` (one `append`).
    pub fn whole(fs: Arc<dyn Fs>, path: String, append: bool) -> Self {
        FileSink { fs, path, owed: Some(Mutex::new(Owed { data: Vec::new(), append, due: true })) }
    }

    /// Whether it holds writes for [`FileSink::close`] (see [`FileSink::whole`]).
    pub fn is_whole(&self) -> bool {
        self.owed.is_some()
    }

    /// Hand what is owed to the backend; a sink that streams owes nothing.
    /// Later writes (a descriptor `exec` keeps open) are owed again, as appends.
    pub async fn close(&self) -> Result<(), FsError> {
        let Some(owed) = &self.owed else { return Ok(()) };
        let (data, append) = {
            let mut o = owed.lock();
            if !o.due {
                return Ok(());
            }
            o.due = false;
            (std::mem::take(&mut o.data), std::mem::replace(&mut o.append, true))
        };
        let through = crate::fs::permissions::through_open;
        if append {
            through(self.fs.append(&self.path, &data)).await
        } else {
            through(self.fs.write(&self.path, &data)).await
        }
    }

    async fn write(&self, data: &[u8]) -> Result<(), IoError> {
        let Some(owed) = &self.owed else {
            return crate::fs::permissions::through_open(self.fs.append(&self.path, data)).await.map_err(IoError::Fs);
        };
        let mut o = owed.lock();
        if !crate::limits::scope::extend_within_budget(&mut o.data, data) {
            return Err(IoError::Fs(FsError::NoSpace));
        }
        o.due = true;
        Ok(())
    }
}

impl Drop for FileSink {
    /// Dropped without [`FileSink::close`]: the backend keeps the owed call
    /// and makes it before its next operation (see [`Fs::defer_write`]).
    fn drop(&mut self) {
        if let Some(owed) = &mut self.owed {
            let o = owed.get_mut();
            if o.due {
                self.fs.defer_write(&self.path, std::mem::take(&mut o.data), o.append);
            }
        }
    }
}

impl Output {
    /// The sandbox file this output writes to, if it is one (`> f`, `>> f`, `<> f`).
    pub fn file_path(&self) -> Option<&str> {
        match self {
            Output::File(sink) => Some(&sink.path),
            Output::ReadWrite(f, _) => Some(&f.path),
            _ => None,
        }
    }

    /// Write all of `data`.
    pub async fn write(&self, data: &[u8]) -> Result<(), IoError> {
        if data.is_empty() {
            return Ok(());
        }
        // Every writer of every utility looks at the deadline here: once the
        // exec must stop, it meets a closed pipe and ends as on SIGPIPE.
        if !keep_going(data.len() / 256) {
            return Err(IoError::BrokenPipe);
        }
        match self {
            Output::Null => Ok(()),
            Output::Closed => Err(IoError::BadFd),
            Output::Capture(buf) => {
                let c = &buf.counter;
                let used = c.used.fetch_add(data.len() as u64, Ordering::Relaxed) + data.len() as u64;
                if used > c.limit {
                    c.exceeded.store(true, Ordering::Relaxed);
                    return Err(IoError::OutputLimit(c.limit));
                }
                buf.data.lock().extend_from_slice(data);
                Ok(())
            }
            Output::Pipe(tx) => {
                for chunk in data.chunks(PIPE_CHUNK) {
                    tx.send(Bytes::copy_from_slice(chunk)).await.map_err(|_| IoError::BrokenPipe)?;
                }
                Ok(())
            }
            Output::File(sink) => sink.write(data).await,
            Output::ReadWrite(f, input) => f.write(input, data).await,
        }
    }

    /// Write a shell string: a byte that is not UTF-8 goes out as that byte
    /// (see [`crate::raw_bytes`]).
    /// [`Output::write`] for an output that never waits: `data` whole, at
    /// once, or `None` (nothing written) for one that may wait, or would fail
    /// (its error is for the general path to report).
    pub fn write_now(&self, data: &[u8]) -> Option<()> {
        match self {
            Output::Null => Some(()),
            Output::Capture(buf) => {
                let c = &buf.counter;
                let n = data.len() as u64;
                c.used
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |u| u.checked_add(n).filter(|&t| t <= c.limit))
                    .ok()?;
                buf.data.lock().extend_from_slice(data);
                Some(())
            }
            _ => None,
        }
    }

    pub async fn write_str(&self, s: &str) -> Result<(), IoError> {
        self.write(&crate::raw_bytes::encode(s)).await
    }
}

/// Where a reader's bytes come from.
pub enum Source {
    Empty,
    Pipe(mpsc::Receiver<Bytes>),
    /// `/dev/zero`: zeros forever.
    Zero,
    /// `/dev/urandom`: pseudo-random bytes forever (xorshift; not for secrets).
    Random(u64),
    /// A file's contents, handed out a chunk at a time without copying, so a
    /// reader that stops early (`head`, `grep -m1`) touches only what it read.
    Slices(Bytes),
    /// The reading end of a `<>` descriptor.
    ReadWrite(Arc<RwFile>),
    /// A directory opened for reading: a read finds nothing and is an
    /// error (EISDIR), noted for whoever reports it.
    Directory(Arc<AtomicBool>),
}

/// Bytes one read of an endless device yields.
const DEVICE_CHUNK: usize = 64 * 1024;
/// Bytes one read of a file held in memory yields.
const FILE_CHUNK: usize = 64 * 1024;

impl Source {
    /// The next chunk from the source itself (ignoring pending bytes).
    async fn next(&mut self) -> Option<Bytes> {
        match self {
            Source::Empty => None,
            Source::Pipe(rx) => rx.recv().await,
            Source::Zero => Some(Bytes::from(vec![0u8; DEVICE_CHUNK])),
            Source::Random(state) => {
                let mut out = Vec::with_capacity(DEVICE_CHUNK);
                while out.len() < DEVICE_CHUNK {
                    *state ^= *state << 13;
                    *state ^= *state >> 7;
                    *state ^= *state << 17;
                    out.extend_from_slice(&state.to_le_bytes());
                }
                Some(Bytes::from(out))
            }
            Source::Slices(rest) if rest.is_empty() => None,
            Source::Slices(rest) => Some(rest.split_to(rest.len().min(FILE_CHUNK))),
            Source::ReadWrite(f) => f.read_rest().await,
            Source::Directory(failed) => {
                failed.store(true, Ordering::Relaxed);
                None
            }
        }
    }
}

struct InputState {
    source: Source,
    /// Bytes read from the source but not consumed yet.
    pending: Bytes,
}

/// A readable stream, shared by every command that reads the same fd (so `read`
/// in a loop consumes a line at a time and the next command continues after it).
/// The last field names the sandbox file a `< f` redirection opened.
#[derive(Clone)]
pub struct Input(Arc<tokio::sync::Mutex<InputState>>, Option<Arc<AtomicBool>>, Option<Arc<str>>);

impl Input {
    fn from_source(source: Source) -> Self {
        Input(Arc::new(tokio::sync::Mutex::new(InputState { source, pending: Bytes::new() })), None, None)
    }
    /// A directory opened for reading (see [`Source::Directory`]).
    pub fn directory() -> Self {
        let failed = Arc::new(AtomicBool::new(false));
        let mut input = Self::from_source(Source::Directory(failed.clone()));
        // Kept outside the lock too: asked after every command that read
        // stdin, where taking the lock would cost each of them.
        input.1 = Some(failed);
        input
    }

    /// This input as opened from the sandbox file at `path` (`< f`).
    pub fn opened_from(mut self, path: &str) -> Self {
        self.2 = Some(path.into());
        self
    }

    /// The sandbox file a redirection opened this input from, if it was one
    /// (GNU cat refuses `cat < f >> f`).
    pub fn file_path(&self) -> Option<&str> {
        self.2.as_deref()
    }

    /// Whether a read of this directory failed since last asked.
    pub fn read_failed(&self) -> bool {
        self.1.as_ref().is_some_and(|f| f.swap(false, Ordering::Relaxed))
    }

    /// An input at end of file.
    pub fn null() -> Self {
        Self::from_source(Source::Empty)
    }
    /// The endless character devices a script may read: `/dev/zero`,
    /// `/dev/urandom` and `/dev/random`; `/dev/null` is at end of file.
    pub fn device(path: &str) -> Option<Self> {
        let source = match path {
            "/dev/null" => Source::Empty,
            "/dev/zero" | "/dev/full" => Source::Zero,
            "/dev/urandom" | "/dev/random" => {
                let seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0x9e37_79b9_7f4a_7c15, |d| d.as_nanos() as u64);
                Source::Random(seed | 1)
            }
            _ => return None,
        };
        Some(Self::from_source(source))
    }

    /// An input fed by a channel (a file streamed by a backend); end of file
    /// when the sender is dropped.
    pub fn from_receiver(rx: mpsc::Receiver<Bytes>) -> Self {
        Input::from_source(Source::Pipe(rx))
    }

    /// Whether the bytes come through a pipe (GNU tools that look at the
    /// input's size, such as `shuf -n`, treat a pipe as unknown size). A host
    /// file streamed from a mount counts as a pipe here.
    pub async fn is_pipe(&self) -> bool {
        matches!(self.0.lock().await.source, Source::Pipe(_))
    }

    /// An input that yields `data` and then end of file.
    pub fn from_bytes(data: impl Into<Bytes>) -> Self {
        Input(Arc::new(tokio::sync::Mutex::new(InputState { source: Source::Empty, pending: data.into() })), None, None)
    }

    /// A file's contents as a stream of chunks (shared, not copied).
    pub fn from_file(data: Bytes) -> Self {
        Self::from_source(Source::Slices(data))
    }

    /// Put bytes a reader took but did not use back in front of the stream,
    /// so the next reader of a shared stdin starts where this one stopped.
    pub async fn unread(&self, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        let mut st = self.0.lock().await;
        let mut joined = Vec::with_capacity(data.len() + st.pending.len());
        joined.extend_from_slice(data);
        joined.extend_from_slice(&st.pending);
        st.pending = Bytes::from(joined);
    }

    /// The next chunk, or `None` at end of file -- or once the exec must
    /// stop (every reader of every utility looks at the deadline here).
    pub async fn read_chunk(&self) -> Option<Bytes> {
        if !keep_going(1) {
            return None;
        }
        let mut st = self.0.lock().await;
        if !st.pending.is_empty() {
            return Some(std::mem::take(&mut st.pending));
        }
        st.source.next().await
    }

    /// A whole line (up to and including `delim`, at most `max` bytes) when
    /// it is there to take without waiting and `take` accepts it (bytes
    /// already read, or the next chunk of a file in memory); `None` having
    /// consumed nothing otherwise: a loop's `read` of a file decides here.
    pub fn try_read_line(&self, delim: u8, max: usize, take: impl FnOnce(&[u8]) -> bool) -> Option<Vec<u8>> {
        let mut st = self.0.try_lock().ok()?;
        if st.pending.is_empty() {
            if let Source::Slices(rest) = &mut st.source {
                let chunk = rest.split_to(rest.len().min(FILE_CHUNK));
                st.pending = chunk;
            }
        }
        let end = memchr(delim, &st.pending)? + 1;
        if end > max || !take(&st.pending[..end]) {
            return None;
        }
        Some(st.pending.split_to(end).to_vec())
    }

    /// Read up to and including `delim`; `None` at end of file with nothing read.
    /// Stops after `max` bytes so one endless line cannot exhaust memory.
    pub async fn read_until(&self, delim: u8, max: usize) -> Option<Vec<u8>> {
        let mut st = self.0.lock().await;
        let mut out = Vec::new();
        loop {
            if st.pending.is_empty() {
                let next = st.source.next().await;
                match next {
                    Some(b) => st.pending = b,
                    None => return if out.is_empty() { None } else { Some(out) },
                }
            }
            let room = max.saturating_sub(out.len()).max(1);
            let take = match memchr(delim, &st.pending) {
                Some(i) if i < room => i + 1,
                _ => st.pending.len().min(room),
            };
            let chunk = st.pending.split_to(take);
            out.extend_from_slice(&chunk);
            if out.last() == Some(&delim) || out.len() >= max {
                return Some(out);
            }
        }
    }

    /// Read exactly up to `n` bytes (fewer at end of file).
    pub async fn read_exact_upto(&self, n: usize) -> Vec<u8> {
        let mut st = self.0.lock().await;
        let mut out = Vec::new();
        while out.len() < n {
            if st.pending.is_empty() {
                let next = st.source.next().await;
                match next {
                    Some(b) => st.pending = b,
                    None => break,
                }
            }
            let take = (n - out.len()).min(st.pending.len());
            out.extend_from_slice(&st.pending.split_to(take));
        }
        out
    }

    /// Everything up to end of file, at most `max` bytes (`Err` past that).
    pub async fn read_to_end(&self, max: usize) -> Result<Vec<u8>, usize> {
        let mut out = Vec::new();
        while let Some(chunk) = self.read_chunk().await {
            if out.len() + chunk.len() > max {
                return Err(max);
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn pipe_stops_writer_when_reader_is_gone() {
        let (w, r) = pipe();
        w.write(b"a\nb").await.unwrap();
        assert_eq!(r.read_until(b'\n', 100).await.unwrap(), b"a\n");
        drop(r);
        let mut res = Ok(());
        for _ in 0..100 {
            res = w.write(b"x").await;
            if res.is_err() {
                break;
            }
        }
        assert_eq!(res, Err(IoError::BrokenPipe));
    }

    #[tokio::test]
    async fn shared_input_resumes_after_a_line() {
        let i = Input::from_bytes(&b"one\ntwo\nthree"[..]);
        assert_eq!(i.read_until(b'\n', 100).await.unwrap(), b"one\n");
        let j = i.clone();
        assert_eq!(j.read_to_end(100).await.unwrap(), b"two\nthree");
        assert!(i.read_chunk().await.is_none());
    }
}
