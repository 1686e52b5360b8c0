//! The [`Os`] CPython's host runs on: every call goes over a channel to the
//! command's future, which answers it from the session's filesystem and the
//! command's streams ([`serve`]), so mounts, virtual-fs backends, the output
//! limit and pipes behave as for any other utility. The guest thread blocks
//! until the answer comes; sleeping and memory growth are answered on it.

use super::abi::{self, Errno};
use super::host::{Kind, Os, Stat};
use super::runtime::Runtime;
use crate::commands::CommandContext;
use crate::fs::{FileType, FsError};
use crate::io::IoError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One request of the guest.
pub enum Call {
    Out(bool, Vec<u8>),
    In(usize),
    Stat(String, bool),
    Read(String),
    Write(String, Vec<u8>),
    List(String),
    Mkdir(String),
    Rmdir(String),
    Unlink(String),
    Rename(String, String),
    Symlink(String, String),
    Link(String, String),
    Readlink(String),
    SetMtime(String, Option<u64>),
}

/// Its answer.
pub enum Answer {
    Done(Result<(), Errno>),
    Stat(Result<Stat, Errno>),
    Bytes(Result<Vec<u8>, Errno>),
    List(Result<Vec<(String, Kind)>, Errno>),
    Text(Result<String, Errno>),
}

pub type Req = (Call, std::sync::mpsc::SyncSender<Answer>);

/// The guest thread's end of the channel.
pub struct SessionOs {
    pub tx: tokio::sync::mpsc::Sender<Req>,
    /// Set when the exec must stop (deadline, cancel, the command dropped).
    pub stop: Arc<AtomicBool>,
    pub runtime: Arc<Runtime>,
    pub max_file_bytes: u64,
}

impl SessionOs {
    /// Ask the command's future; `None` once it stopped listening.
    fn ask(&mut self, call: Call) -> Option<Answer> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        if self.tx.blocking_send((call, tx)).is_err() {
            self.stop.store(true, Ordering::Relaxed);
            return None;
        }
        let a = rx.recv().ok();
        if a.is_none() {
            self.stop.store(true, Ordering::Relaxed);
        }
        a
    }

    fn done(&mut self, call: Call) -> Result<(), Errno> {
        match self.ask(call) {
            Some(Answer::Done(r)) => r,
            _ => Err(abi::INTR),
        }
    }

    fn bytes(&mut self, call: Call) -> Result<Vec<u8>, Errno> {
        match self.ask(call) {
            Some(Answer::Bytes(r)) => r,
            _ => Err(abi::INTR),
        }
    }
}

impl Os for SessionOs {
    fn write_out(&mut self, to_err: bool, data: &[u8]) -> Result<(), Errno> {
        self.done(Call::Out(to_err, data.to_vec()))
    }

    fn read_in(&mut self, max: usize) -> Result<Vec<u8>, Errno> {
        self.bytes(Call::In(max))
    }

    fn stat(&mut self, path: &str, follow: bool) -> Result<Stat, Errno> {
        match self.ask(Call::Stat(path.to_string(), follow)) {
            Some(Answer::Stat(r)) => r,
            _ => Err(abi::INTR),
        }
    }

    fn read(&mut self, path: &str) -> Result<Vec<u8>, Errno> {
        self.bytes(Call::Read(path.to_string()))
    }

    fn write(&mut self, path: &str, data: &[u8]) -> Result<(), Errno> {
        self.done(Call::Write(path.to_string(), data.to_vec()))
    }

    fn list(&mut self, path: &str) -> Result<Vec<(String, Kind)>, Errno> {
        match self.ask(Call::List(path.to_string())) {
            Some(Answer::List(r)) => r,
            _ => Err(abi::INTR),
        }
    }

    fn mkdir(&mut self, path: &str) -> Result<(), Errno> {
        self.done(Call::Mkdir(path.to_string()))
    }

    fn rmdir(&mut self, path: &str) -> Result<(), Errno> {
        self.done(Call::Rmdir(path.to_string()))
    }

    fn unlink(&mut self, path: &str) -> Result<(), Errno> {
        self.done(Call::Unlink(path.to_string()))
    }

    fn rename(&mut self, from: &str, to: &str) -> Result<(), Errno> {
        self.done(Call::Rename(from.to_string(), to.to_string()))
    }

    fn symlink(&mut self, target: &str, link: &str) -> Result<(), Errno> {
        self.done(Call::Symlink(target.to_string(), link.to_string()))
    }

    fn link(&mut self, from: &str, to: &str) -> Result<(), Errno> {
        self.done(Call::Link(from.to_string(), to.to_string()))
    }

    fn readlink(&mut self, path: &str) -> Result<String, Errno> {
        match self.ask(Call::Readlink(path.to_string())) {
            Some(Answer::Text(r)) => r,
            _ => Err(abi::INTR),
        }
    }

    fn set_mtime(&mut self, path: &str, mtime_ns: Option<u64>) -> Result<(), Errno> {
        self.done(Call::SetMtime(path.to_string(), mtime_ns))
    }

    fn sleep(&mut self, d: Duration) -> bool {
        // In slices, so a stop is seen within 10 ms.
        let end = std::time::Instant::now() + d.min(Duration::from_secs(1 << 32));
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let left = end.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return true;
            }
            std::thread::sleep(left.min(Duration::from_millis(10)));
        }
    }

    fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes
    }

    fn memory_growing(&mut self, current: usize, desired: usize) -> bool {
        // Refused past the budget (CPython raises MemoryError, as under a
        // Linux memory limit); `CountedMemory` reserves the moving block.
        crate::limits::scope::reserve(desired.saturating_sub(current) as u64).is_ok()
    }

    fn cached(&mut self, path: &str) -> Option<Arc<[u8]>> {
        self.runtime.pyc(path)
    }

    fn cache(&mut self, path: &str, data: Vec<u8>) {
        self.runtime.keep_pyc(path, data);
    }
}

/// The WASI errno of a filesystem error.
pub fn errno(e: &FsError) -> Errno {
    match e {
        FsError::NotFound => abi::NOENT,
        FsError::PermissionDenied | FsError::MountNotAllowed(_) => abi::ACCES,
        FsError::AlreadyExists => abi::EXIST,
        FsError::NotADirectory => abi::NOTDIR,
        FsError::IsADirectory => abi::ISDIR,
        FsError::InvalidArgument => abi::INVAL,
        FsError::NoSpace | FsError::Limit(..) => abi::NOSPC,
        FsError::ReadOnly => abi::ROFS,
        FsError::NameTooLong => abi::NAMETOOLONG,
        FsError::NotEmpty => abi::NOTEMPTY,
        FsError::TooManyLinks => abi::LOOP,
        FsError::NotSupported => abi::NOTSUP,
        FsError::Io => abi::IO,
    }
}

fn ns(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
}

fn kind(t: FileType) -> Kind {
    match t {
        FileType::File => Kind::File,
        FileType::Dir => Kind::Dir,
        FileType::Symlink => Kind::Symlink,
    }
}

/// What the command's future keeps while it serves the guest.
pub struct Server {
    /// The first output error that ends the program (the output limit).
    pub io_err: Option<IoError>,
}

impl Server {
    /// Answer one request.
    pub async fn serve(&mut self, ctx: &CommandContext<'_>, call: Call) -> Answer {
        let fs = ctx.fs;
        let e = |r: Result<(), FsError>| Answer::Done(r.map_err(|e| errno(&e)));
        match call {
            Call::Out(to_err, data) => {
                if self.io_err.is_some() {
                    return Answer::Done(Err(abi::NOSPC));
                }
                let w = if to_err { ctx.stderr.write(&data).await } else { ctx.stdout.write(&data).await };
                Answer::Done(w.map_err(|err| match err {
                    // CPython ignores SIGPIPE: the program sees EPIPE and
                    // raises BrokenPipeError itself.
                    IoError::BrokenPipe => abi::PIPE,
                    err => {
                        self.io_err = Some(err);
                        abi::NOSPC
                    }
                }))
            }
            Call::In(max) => Answer::Bytes(Ok(match ctx.stdin.read_chunk().await {
                None => Vec::new(),
                Some(chunk) if chunk.len() <= max => chunk.to_vec(),
                Some(chunk) => {
                    ctx.stdin.unread(&chunk[max..]).await;
                    chunk[..max].to_vec()
                }
            })),
            Call::Stat(p, follow) => {
                let m = if follow { fs.metadata(&p).await } else { fs.symlink_metadata(&p).await };
                Answer::Stat(match m {
                    Ok(m) => {
                        let nlink = if m.is_dir() { 2 } else { 1 };
                        Ok(Stat { kind: kind(m.file_type), size: m.size, mtime_ns: ns(m.mtime), nlink })
                    }
                    Err(err) => Err(errno(&err)),
                })
            }
            Call::Read(p) => Answer::Bytes(fs.read(&p).await.map_err(|e| errno(&e))),
            Call::Write(p, data) => e(fs.write(&p, &data).await),
            Call::List(p) => Answer::List(
                fs.read_dir(&p)
                    .await
                    .map(|v| v.into_iter().map(|d| (d.name, kind(d.file_type))).collect())
                    .map_err(|e| errno(&e)),
            ),
            Call::Mkdir(p) => {
                if fs.symlink_metadata(&p).await.is_ok() {
                    return Answer::Done(Err(abi::EXIST));
                }
                e(fs.mkdir(&p, false).await)
            }
            Call::Rmdir(p) => e(fs.remove_dir(&p, false).await),
            Call::Unlink(p) => match fs.symlink_metadata(&p).await {
                Ok(m) if m.is_dir() => Answer::Done(Err(abi::ISDIR)),
                _ => e(fs.remove_file(&p).await),
            },
            Call::Rename(a, b) => e(fs.rename(&a, &b).await),
            Call::Symlink(target, link) => e(fs.symlink(&target, &link).await),
            Call::Link(a, b) => e(fs.hard_link(&a, &b).await),
            Call::Readlink(p) => Answer::Text(fs.read_link(&p).await.map_err(|e| errno(&e))),
            Call::SetMtime(p, t) => {
                let t = t.map_or_else(SystemTime::now, |n| UNIX_EPOCH + Duration::from_nanos(n));
                e(fs.set_mtime(&p, t).await)
            }
        }
    }
}
