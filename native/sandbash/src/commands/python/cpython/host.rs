//! The WASI preview 1 host that CPython runs against: every call the guest
//! makes (`fd_read`, `path_open`, `clock_time_get`, ...) is answered here, from
//! an [`Os`] that serves the session's filesystem and the command's streams.
//! Nothing of the host machine is reachable: there is one preopened directory,
//! `/`, and it is the session's root.
//!
//! Files are held whole while open: opening one reads it from the [`Os`],
//! reads and writes work on the copy, and a written copy goes back when it is
//! closed or synced, and before any operation by path (so `open`, `stat`,
//! `listdir` and `rename` always see what the program wrote). Every buffer is
//! bounded: a file by `max_file_bytes`, a call's vectors by [`MAX_IOVECS`].

use super::abi::{self, Errno};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use wasmtime::Memory;

/// The module name of WASI preview 1's imports.
pub(super) const MODULE: &str = "wasi_snapshot_preview1";
/// The most I/O vectors one call may pass (POSIX's `IOV_MAX`).
const MAX_IOVECS: u32 = 1024;
/// The most one read of stdin asks for at once.
const STDIN_CHUNK: usize = 64 * 1024;
/// The most subscriptions one `poll_oneoff` may pass.
const MAX_SUBSCRIPTIONS: u32 = 4096;
/// The longest path the guest may pass.
const MAX_PATH: u32 = 4096;
/// The most descriptors open at once (`ulimit -n` of a default Linux session).
const MAX_FDS: usize = 1024;
/// Where CPython writes its bytecode cache (`PYTHONPYCACHEPREFIX`): a tree
/// of the host's, not the session's. What it writes there for the standard
/// library (under [`STDLIB`]) and for our hook is kept for the node's later runs, so a module
/// is compiled once per node; anything else is dropped at the run's end, so
/// no session ever reads bytecode another session's source produced.
pub const PYCACHE: &str = "/.sandbash/pycache";
/// The standard library's directory inside the runtime (its own files).
const STDLIB: &str = "/usr/local/lib/python3.12/";
/// The only preopened directory's descriptor (0..=2 are the streams).
pub(super) const ROOT_FD: u32 = 3;

/// What a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
}

/// What the host needs to know of a node.
#[derive(Clone, Copy, Debug)]
pub struct Stat {
    pub kind: Kind,
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: u64,
    pub nlink: u64,
}

/// The services behind the host: the command's streams and the session's
/// filesystem, by absolute path. Each call blocks the guest until answered.
pub trait Os {
    /// Bytes for stdout (`false`) or stderr (`true`).
    fn write_out(&mut self, to_err: bool, data: &[u8]) -> Result<(), Errno>;
    /// Up to `max` bytes of stdin; empty at its end.
    fn read_in(&mut self, max: usize) -> Result<Vec<u8>, Errno>;
    fn stat(&mut self, path: &str, follow: bool) -> Result<Stat, Errno>;
    fn read(&mut self, path: &str) -> Result<Vec<u8>, Errno>;
    /// Replace the file's contents (creating it).
    fn write(&mut self, path: &str, data: &[u8]) -> Result<(), Errno>;
    fn list(&mut self, path: &str) -> Result<Vec<(String, Kind)>, Errno>;
    fn mkdir(&mut self, path: &str) -> Result<(), Errno>;
    fn rmdir(&mut self, path: &str) -> Result<(), Errno>;
    fn unlink(&mut self, path: &str) -> Result<(), Errno>;
    fn rename(&mut self, from: &str, to: &str) -> Result<(), Errno>;
    fn symlink(&mut self, target: &str, link: &str) -> Result<(), Errno>;
    fn link(&mut self, from: &str, to: &str) -> Result<(), Errno>;
    fn readlink(&mut self, path: &str) -> Result<String, Errno>;
    /// Set the modification time (`None`: now).
    fn set_mtime(&mut self, path: &str, mtime_ns: Option<u64>) -> Result<(), Errno>;
    /// Wait `d`; `false` if the call was stopped meanwhile.
    fn sleep(&mut self, d: Duration) -> bool;
    /// The largest file the program may make.
    fn max_file_bytes(&self) -> u64;
    /// May the linear memory grow from `current` to `desired` bytes?
    fn memory_growing(&mut self, current: usize, desired: usize) -> bool;
    /// A compiled module of the standard library CPython wrote earlier (in
    /// any session: the standard library is the same for all).
    fn cached(&mut self, path: &str) -> Option<std::sync::Arc<[u8]>>;
    /// Keep a compiled module of the standard library for later runs.
    fn cache(&mut self, path: &str, data: Vec<u8>);
}

/// Why the guest stopped before its end.
#[derive(Debug)]
pub enum Stop {
    /// `proc_exit(status)`.
    Exit(i32),
    /// The output could not be written (closed pipe, output limit); the reason
    /// is the errno the write got.
    Output(Errno),
    /// The exec was stopped (deadline, cancel, budget).
    Stopped,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Exit(c) => write!(f, "exit {c}"),
            Stop::Output(e) => write!(f, "output failed (errno {e})"),
            Stop::Stopped => f.write_str("stopped"),
        }
    }
}

impl std::error::Error for Stop {}

pub(super) struct OpenFile {
    pub(super) path: String,
    pub(super) data: Vec<u8>,
    pub(super) pos: u64,
    pub(super) rights: u64,
    pub(super) flags: u16,
    pub(super) dirty: bool,
}

pub(super) enum Fd {
    Stdin,
    Stdout,
    Stderr,
    Dir { path: String, entries: Vec<(String, u8)> },
    File(OpenFile),
}

/// The guest's view of the machine during one run.
pub struct Host<O: Os> {
    pub os: O,
    pub(super) args: Vec<Vec<u8>>,
    pub(super) env: Vec<Vec<u8>>,
    pub(super) fds: Vec<Option<Fd>>,
    pub(super) memory: Option<Memory>,
    /// Files only the guest sees, by absolute path (the start-up hook).
    synthetic: Vec<(String, Vec<u8>)>,
    pub stop: Option<Stop>,
    /// Files written under [`PYCACHE`] this run (CPython's bytecode cache).
    scratch: Vec<(String, Vec<u8>)>,
    started: Instant,
    rng: u64,
    /// Stdout's and stderr's pipe was found closed.
    broken: [bool; 2],
}

impl<O: Os> Host<O> {
    pub fn new(os: O, args: Vec<String>, env: Vec<(String, String)>, synthetic: Vec<(String, Vec<u8>)>) -> Self {
        let nul = |s: String| {
            let mut b = s.into_bytes();
            b.retain(|&c| c != 0);
            b.push(0);
            b
        };
        let root = Fd::Dir { path: "/".to_string(), entries: Vec::new() };
        let seed = {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
            h.finish() | 1
        };
        Host {
            os,
            args: args.into_iter().map(nul).collect(),
            env: env.into_iter().map(|(k, v)| nul(format!("{k}={v}"))).collect(),
            fds: vec![Some(Fd::Stdin), Some(Fd::Stdout), Some(Fd::Stderr), Some(root)],
            memory: None,
            synthetic,
            stop: None,
            scratch: Vec::new(),
            started: Instant::now(),
            rng: seed,
            broken: [false; 2],
        }
    }

    /// The instance's exported memory, which every call reads and writes.
    pub fn set_memory(&mut self, m: Memory) {
        self.memory = Some(m);
    }

    /// Write back every file the program changed and has not closed (at its end).
    pub fn flush_all(&mut self) -> Result<(), Errno> {
        let mut first = Ok(());
        for i in 0..self.fds.len() {
            if let Some(Fd::File(f)) = &mut self.fds[i] {
                if f.dirty {
                    f.dirty = false;
                    let (path, data) = (f.path.clone(), f.data.clone());
                    let r = self.store(&path, data);
                    if first.is_ok() {
                        first = r;
                    }
                }
            }
        }
        first
    }

    /// Write a file's contents back: to the session, or to the run's scratch
    /// when it is under [`PYCACHE`].
    pub(super) fn store(&mut self, path: &str, data: Vec<u8>) -> Res {
        if !in_pycache(path) {
            return self.os.write(path, &data);
        }
        match self.scratch.iter_mut().find(|(p, _)| p == path) {
            Some(e) => e.1 = data,
            None => self.scratch.push((path.to_string(), data)),
        }
        Ok(())
    }

    /// The contents of a file under [`PYCACHE`], if there is one.
    fn pycache_file(&mut self, path: &str) -> Option<Vec<u8>> {
        if let Some((_, d)) = self.scratch.iter().find(|(p, _)| p == path) {
            return Some(d.clone());
        }
        self.os.cached(path).map(|d| d.to_vec())
    }

    /// A rename or removal under [`PYCACHE`]; a compiled module of the
    /// standard library that reaches its final name is kept for the node.
    pub(super) fn pycache_move(&mut self, from: &str, to: Option<&str>) -> Res {
        let at = self.scratch.iter().position(|(p, _)| p == from).ok_or(abi::NOENT)?;
        let (_, data) = self.scratch.swap_remove(at);
        if let Some(to) = to {
            if to.strip_prefix(PYCACHE).is_some_and(node_wide) && to.ends_with(".pyc") {
                self.os.cache(to, data.clone());
            }
            self.scratch.retain(|(p, _)| p != to);
            self.scratch.push((to.to_string(), data));
        }
        Ok(())
    }

    pub(super) fn fd(&mut self, fd: u32) -> Result<&mut Fd, Errno> {
        self.fds.get_mut(fd as usize).and_then(Option::as_mut).ok_or(abi::BADF)
    }

    pub(super) fn file(&mut self, fd: u32) -> Result<&mut OpenFile, Errno> {
        match self.fd(fd)? {
            Fd::File(f) => Ok(f),
            Fd::Dir { .. } => Err(abi::ISDIR),
            _ => Err(abi::SPIPE),
        }
    }

    pub(super) fn new_fd(&mut self, fd: Fd) -> Result<u32, Errno> {
        if let Some(i) = self.fds.iter().position(Option::is_none) {
            self.fds[i] = Some(fd);
            return Ok(i as u32);
        }
        if self.fds.len() >= MAX_FDS {
            return Err(abi::MFILE);
        }
        self.fds.push(Some(fd));
        Ok(self.fds.len() as u32 - 1)
    }

    /// The absolute path `rel` names from directory `dirfd`.
    pub(super) fn resolve(&mut self, dirfd: u32, rel: &str) -> Result<String, Errno> {
        let base = match self.fd(dirfd)? {
            Fd::Dir { path, .. } => path.clone(),
            _ => return Err(abi::NOTDIR),
        };
        Ok(join(&base, rel))
    }

    pub(super) fn synthetic(&self, path: &str) -> Option<&[u8]> {
        self.synthetic.iter().find(|(p, _)| p == path).map(|(_, d)| d.as_slice())
    }

    pub(super) fn synthetic_dir(&self, path: &str) -> bool {
        self.synthetic.iter().any(|(p, _)| p.rsplit_once('/').is_some_and(|(d, _)| d == path))
    }

    pub(super) fn stat_path(&mut self, path: &str, follow: bool) -> Result<abi::FileStat, Errno> {
        // Files only the guest sees: the hook's, and the bytecode cache's.
        let own = |filetype, nlink, size| abi::FileStat {
            dev: 1,
            ino: ino(path),
            filetype,
            nlink,
            size,
            ..Default::default()
        };
        if let Some(d) = self.synthetic(path) {
            return Ok(own(abi::FILETYPE_REGULAR_FILE, 1, d.len() as u64));
        }
        if self.synthetic_dir(path) || path == PYCACHE {
            return Ok(own(abi::FILETYPE_DIRECTORY, 2, 0));
        }
        if in_pycache(path) {
            let d = self.pycache_file(path).ok_or(abi::NOENT)?;
            return Ok(own(abi::FILETYPE_REGULAR_FILE, 1, d.len() as u64));
        }
        self.flush_all()?;
        let s = self.os.stat(path, follow)?;
        Ok(filestat(path, &s))
    }

    pub(super) fn random(&mut self) -> u64 {
        // splitmix64: the guest seeds its own generators from these bytes.
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(super) fn now_ns(&self, clock: u32) -> u64 {
        if clock == abi::CLOCK_REALTIME {
            SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
        } else {
            // Monotonic and CPU clocks: time since the run started, offset
            // so that no reading is zero.
            self.started.elapsed().as_nanos() as u64 + 1_000_000_000
        }
    }
}

/// Is the compiled form of the source at `path` the same for every session?
/// The runtime's own library, and our start-up hook (constant text, served
/// with a fixed size and mtime): compiling the hook took 16 ms of each start.
fn node_wide(path: &str) -> bool {
    path.starts_with(STDLIB) || path.strip_prefix(super::HOOK_DIR).is_some_and(|r| r.starts_with('/'))
}

/// Is `path` inside the bytecode cache's tree?
pub(super) fn in_pycache(path: &str) -> bool {
    path.strip_prefix(PYCACHE).is_some_and(|r| r.starts_with('/'))
}

impl<O: Os + Send> wasmtime::ResourceLimiter for Host<O> {
    fn memory_growing(&mut self, current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        Ok(self.os.memory_growing(current, desired))
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _max: Option<usize>) -> wasmtime::Result<bool> {
        // CPython's function table is fixed at start-up; a million entries is
        // far past anything it asks.
        Ok(desired <= 1 << 20)
    }
}

/// `base` joined with `rel`, with `.` and `..` taken out (never above `/`).
pub fn join(base: &str, rel: &str) -> String {
    let mut parts: Vec<&str> =
        if rel.starts_with('/') { Vec::new() } else { base.split('/').filter(|p| !p.is_empty()).collect() };
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// A stable inode number for a path (WASI needs one; `samefile` compares them).
fn ino(path: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h | 1
}

fn filetype(k: Kind) -> u8 {
    match k {
        Kind::File => abi::FILETYPE_REGULAR_FILE,
        Kind::Dir => abi::FILETYPE_DIRECTORY,
        Kind::Symlink => abi::FILETYPE_SYMBOLIC_LINK,
    }
}

fn filestat(path: &str, s: &Stat) -> abi::FileStat {
    abi::FileStat {
        dev: 1,
        ino: ino(path),
        filetype: filetype(s.kind),
        nlink: s.nlink,
        size: s.size,
        atim: s.mtime_ns,
        mtim: s.mtime_ns,
        ctim: s.mtime_ns,
    }
}

// Guest memory, every access checked.

pub(super) fn range(m: &[u8], ptr: u32, len: usize) -> Result<std::ops::Range<usize>, Errno> {
    let start = ptr as usize;
    let end = start.checked_add(len).ok_or(abi::FAULT)?;
    if end > m.len() {
        return Err(abi::FAULT);
    }
    Ok(start..end)
}

pub(super) fn put(m: &mut [u8], ptr: u32, bytes: &[u8]) -> Result<(), Errno> {
    let r = range(m, ptr, bytes.len())?;
    m[r].copy_from_slice(bytes);
    Ok(())
}

pub(super) fn put_u32(m: &mut [u8], ptr: u32, v: u32) -> Result<(), Errno> {
    put(m, ptr, &v.to_le_bytes())
}

pub(super) fn put_u64(m: &mut [u8], ptr: u32, v: u64) -> Result<(), Errno> {
    put(m, ptr, &v.to_le_bytes())
}

fn get_u32(m: &[u8], ptr: u32) -> Result<u32, Errno> {
    let r = range(m, ptr, 4)?;
    let mut b = [0u8; 4];
    b.copy_from_slice(&m[r]);
    Ok(u32::from_le_bytes(b))
}

fn get_u64(m: &[u8], ptr: u32) -> Result<u64, Errno> {
    let r = range(m, ptr, 8)?;
    let mut b = [0u8; 8];
    b.copy_from_slice(&m[r]);
    Ok(u64::from_le_bytes(b))
}

/// The `(buf, len)` pairs of an iovec array.
fn iovecs(m: &[u8], ptr: u32, n: u32) -> Result<Vec<(u32, u32)>, Errno> {
    if n > MAX_IOVECS {
        return Err(abi::INVAL);
    }
    let mut v = Vec::with_capacity(n as usize);
    for i in 0..n {
        let at = ptr.checked_add(i * 8).ok_or(abi::FAULT)?;
        let (buf, len) = (get_u32(m, at)?, get_u32(m, at + 4)?);
        range(m, buf, len as usize)?;
        v.push((buf, len));
    }
    Ok(v)
}

/// The bytes of an iovec array, gathered.
fn gather(m: &[u8], iov: &[(u32, u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(buf, len) in iov {
        out.extend_from_slice(&m[buf as usize..buf as usize + len as usize]);
    }
    out
}

/// `data` scattered over an iovec array; how many bytes went.
fn scatter(m: &mut [u8], iov: &[(u32, u32)], data: &[u8]) -> usize {
    let mut done = 0;
    for &(buf, len) in iov {
        let n = (len as usize).min(data.len() - done);
        m[buf as usize..buf as usize + n].copy_from_slice(&data[done..done + n]);
        done += n;
        if done == data.len() {
            break;
        }
    }
    done
}

pub(super) fn guest_path(m: &[u8], ptr: u32, len: u32) -> Result<String, Errno> {
    if len > MAX_PATH {
        return Err(abi::NAMETOOLONG);
    }
    let r = range(m, ptr, len as usize)?;
    String::from_utf8(m[r].to_vec()).map_err(|_| abi::ILSEQ)
}

fn iov_total(iov: &[(u32, u32)]) -> usize {
    iov.iter().map(|&(_, l)| l as usize).sum()
}

// The calls. Each takes the guest's memory and the host apart (the split that
// `Memory::data_and_store_mut` gives) and answers an errno.

pub(super) type Res = Result<(), Errno>;

impl<O: Os> Host<O> {
    pub(super) fn sizes(list: &[Vec<u8>], m: &mut [u8], count: u32, size: u32) -> Res {
        put_u32(m, count, list.len() as u32)?;
        put_u32(m, size, list.iter().map(Vec::len).sum::<usize>() as u32)
    }

    pub(super) fn strings(list: &[Vec<u8>], m: &mut [u8], ptrs: u32, buf: u32) -> Res {
        let mut at = buf;
        for (i, s) in list.iter().enumerate() {
            put_u32(m, ptrs + 4 * i as u32, at)?;
            put(m, at, s)?;
            at += s.len() as u32;
        }
        Ok(())
    }

    pub(super) fn fd_write(
        &mut self,
        m: &mut [u8],
        fd: u32,
        iovs: u32,
        n: u32,
        out: u32,
        at: Option<u64>,
    ) -> Result<(), Errno> {
        let iov = iovecs(m, iovs, n)?;
        let data = gather(m, &iov);
        let written = match self.fd(fd)? {
            Fd::Stdout | Fd::Stderr if at.is_some() => return Err(abi::SPIPE),
            Fd::Stdout => self.stream_write(false, &data)?,
            Fd::Stderr => self.stream_write(true, &data)?,
            Fd::Stdin => return Err(abi::BADF),
            Fd::Dir { .. } => return Err(abi::ISDIR),
            Fd::File(_) => {
                let max = self.os.max_file_bytes();
                let f = self.file(fd)?;
                if f.rights & abi::RIGHT_FD_WRITE == 0 {
                    return Err(abi::BADF);
                }
                let pos = match at {
                    Some(p) => p,
                    None if f.flags & abi::FDFLAG_APPEND != 0 => f.data.len() as u64,
                    None => f.pos,
                };
                let end = pos.checked_add(data.len() as u64).ok_or(abi::FBIG)?;
                if end > max {
                    return Err(abi::FBIG);
                }
                let (pos, end) = (pos as usize, end as usize);
                if f.data.len() < end {
                    f.data.resize(end, 0);
                }
                f.data[pos..end].copy_from_slice(&data);
                f.dirty = true;
                if at.is_none() {
                    f.pos = end as u64;
                }
                data.len()
            }
        };
        put_u32(m, out, written as u32)
    }

    /// Write to stdout or stderr. A closed pipe is the program's to handle
    /// (EPIPE: BrokenPipeError), once: later writes to it are dropped, so the
    /// flush at exit does not fail again and the status is 1, as CPython
    /// gives on Linux. Any other failure (the output limit) ends the program.
    fn stream_write(&mut self, to_err: bool, data: &[u8]) -> Result<usize, Errno> {
        if self.broken[usize::from(to_err)] {
            return Ok(data.len());
        }
        self.os.write_out(to_err, data).inspect_err(|&e| {
            if e == abi::PIPE {
                self.broken[usize::from(to_err)] = true;
            } else {
                self.stop = Some(Stop::Output(e));
            }
        })?;
        Ok(data.len())
    }

    pub(super) fn fd_read(&mut self, m: &mut [u8], fd: u32, iovs: u32, n: u32, out: u32, at: Option<u64>) -> Res {
        let iov = iovecs(m, iovs, n)?;
        let want = iov_total(&iov);
        let got = match self.fd(fd)? {
            Fd::Stdin if at.is_some() => return Err(abi::SPIPE),
            Fd::Stdin => {
                if want == 0 {
                    0
                } else {
                    let data = self.os.read_in(want.min(STDIN_CHUNK))?;
                    scatter(m, &iov, &data)
                }
            }
            Fd::Stdout | Fd::Stderr => return Err(abi::BADF),
            Fd::Dir { .. } => return Err(abi::ISDIR),
            Fd::File(f) => {
                if f.rights & abi::RIGHT_FD_READ == 0 {
                    return Err(abi::BADF);
                }
                let pos = at.unwrap_or(f.pos).min(f.data.len() as u64) as usize;
                let n = scatter(m, &iov, &f.data[pos..]);
                if at.is_none() {
                    f.pos = (pos + n) as u64;
                }
                n
            }
        };
        put_u32(m, out, got as u32)
    }

    pub(super) fn fd_seek(&mut self, m: &mut [u8], fd: u32, offset: i64, whence: u8, out: u32) -> Res {
        let f = self.file(fd)?;
        let base = match whence {
            abi::WHENCE_SET => 0i128,
            abi::WHENCE_CUR => i128::from(f.pos),
            abi::WHENCE_END => f.data.len() as i128,
            _ => return Err(abi::INVAL),
        };
        let new = base + i128::from(offset);
        if new < 0 || new > i128::from(i64::MAX) {
            return Err(abi::INVAL);
        }
        f.pos = new as u64;
        put_u64(m, out, f.pos)
    }

    pub(super) fn fd_close(&mut self, fd: u32) -> Res {
        if fd == ROOT_FD {
            return Err(abi::NOTSUP);
        }
        let slot = self.fds.get_mut(fd as usize).ok_or(abi::BADF)?;
        match slot.take() {
            None => Err(abi::BADF),
            Some(Fd::File(f)) if f.dirty => self.store(&f.path, f.data),
            Some(_) => Ok(()),
        }
    }

    pub(super) fn fd_fdstat_get(&mut self, m: &mut [u8], fd: u32, out: u32) -> Res {
        // The streams are character devices with seek rights: wasi-libc's
        // `isatty` then says no, as for the pipes and files they are here.
        let stream = abi::RIGHT_FD_SEEK | abi::RIGHT_FD_TELL;
        let b = match self.fd(fd)? {
            Fd::Stdin => abi::fdstat_bytes(abi::FILETYPE_CHARACTER_DEVICE, 0, abi::RIGHT_FD_READ | stream, 0),
            Fd::Stdout | Fd::Stderr => {
                abi::fdstat_bytes(abi::FILETYPE_CHARACTER_DEVICE, 0, abi::RIGHT_FD_WRITE | stream, 0)
            }
            Fd::Dir { .. } => abi::fdstat_bytes(abi::FILETYPE_DIRECTORY, 0, abi::RIGHTS_ALL, abi::RIGHTS_ALL),
            Fd::File(f) => abi::fdstat_bytes(abi::FILETYPE_REGULAR_FILE, f.flags, f.rights, 0),
        };
        put(m, out, &b)
    }

    pub(super) fn fd_fdstat_set_flags(&mut self, fd: u32, flags: u16) -> Res {
        match self.fd(fd)? {
            Fd::File(f) => {
                f.flags = flags;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    pub(super) fn fd_filestat_get(&mut self, m: &mut [u8], fd: u32, out: u32) -> Res {
        let s = match self.fd(fd)? {
            Fd::Stdin | Fd::Stdout | Fd::Stderr => abi::FileStat {
                dev: 0,
                ino: u64::from(fd) + 1,
                filetype: abi::FILETYPE_CHARACTER_DEVICE,
                nlink: 1,
                ..Default::default()
            },
            Fd::Dir { path, .. } => {
                let path = path.clone();
                self.stat_path(&path, true)?
            }
            Fd::File(f) => {
                let (path, size) = (f.path.clone(), f.data.len() as u64);
                let mut s = match self.synthetic(&path) {
                    Some(_) => self.stat_path(&path, true)?,
                    None => self.os.stat(&path, true).map(|s| filestat(&path, &s)).unwrap_or(abi::FileStat {
                        dev: 1,
                        ino: ino(&path),
                        filetype: abi::FILETYPE_REGULAR_FILE,
                        nlink: 0,
                        ..Default::default()
                    }),
                };
                s.size = size;
                s
            }
        };
        put(m, out, &s.bytes())
    }

    pub(super) fn fd_filestat_set_size(&mut self, fd: u32, size: u64) -> Res {
        let max = self.os.max_file_bytes();
        let f = self.file(fd)?;
        if f.rights & abi::RIGHT_FD_WRITE == 0 {
            return Err(abi::BADF);
        }
        if size > max {
            return Err(abi::FBIG);
        }
        f.data.resize(size as usize, 0);
        f.dirty = true;
        Ok(())
    }

    pub(super) fn sync(&mut self, fd: u32) -> Res {
        if let Fd::File(f) = self.fd(fd)? {
            if f.dirty {
                f.dirty = false;
                let (path, data) = (f.path.clone(), f.data.clone());
                return self.store(&path, data);
            }
        }
        Ok(())
    }

    pub(super) fn set_times(&mut self, path: &str, mtim: u64, flags: u16) -> Res {
        self.flush_all()?;
        if flags & abi::FST_MTIM_NOW != 0 {
            self.os.set_mtime(path, None)
        } else if flags & abi::FST_MTIM != 0 {
            self.os.set_mtime(path, Some(mtim))
        } else if flags & (abi::FST_ATIM | abi::FST_ATIM_NOW) != 0 {
            // Access times are not kept: the node must exist, nothing changes.
            self.os.stat(path, true).map(|_| ())
        } else {
            Ok(())
        }
    }

    pub(super) fn fd_readdir(&mut self, m: &mut [u8], fd: u32, buf: u32, len: u32, cookie: u64, out: u32) -> Res {
        let fresh = cookie == 0;
        let path = match self.fd(fd)? {
            Fd::Dir { path, .. } => path.clone(),
            _ => return Err(abi::NOTDIR),
        };
        if fresh {
            self.flush_all()?;
            let mut entries =
                vec![(".".to_string(), abi::FILETYPE_DIRECTORY), ("..".to_string(), abi::FILETYPE_DIRECTORY)];
            let listed = if self.synthetic_dir(&path) {
                let prefix = format!("{path}/");
                Ok(self
                    .synthetic
                    .iter()
                    .filter_map(|(p, _)| p.strip_prefix(&prefix))
                    .map(|n| (n.to_string(), Kind::File))
                    .collect())
            } else {
                self.os.list(&path)
            };
            entries.extend(listed?.into_iter().map(|(n, k)| (n, filetype(k))));
            if let Fd::Dir { entries: e, .. } = self.fd(fd)? {
                *e = entries;
            }
        }
        let Fd::Dir { entries, path } = self.fd(fd)? else { return Err(abi::NOTDIR) };
        let r = range(m, buf, len as usize)?;
        let mut at = r.start;
        for (i, (name, ft)) in entries.iter().enumerate().skip(cookie.min(usize::MAX as u64) as usize) {
            if at >= r.end {
                break;
            }
            let head = abi::dirent_bytes(i as u64 + 1, ino(&join(path, name)), name.len() as u32, *ft);
            // The last entry may be cut short: wasi-libc reads a full buffer as
            // "more to come" and asks again from its cookie.
            for chunk in [&head[..], name.as_bytes()] {
                let n = chunk.len().min(r.end - at);
                m[at..at + n].copy_from_slice(&chunk[..n]);
                at += n;
            }
        }
        put_u32(m, out, (at - r.start) as u32)
    }

    // Mirrors WASI's `path_open` argument list one to one, so the import
    // table stays a plain forwarder.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn path_open(
        &mut self,
        m: &mut [u8],
        dirfd: u32,
        follow: bool,
        path: String,
        oflags: u16,
        rights: u64,
        fdflags: u16,
        out: u32,
    ) -> Res {
        let _ = follow;
        let path = self.resolve(dirfd, &path)?;
        let want_dir = oflags & abi::O_DIRECTORY != 0;
        if let Some(d) = self.synthetic(&path) {
            let f = OpenFile {
                path,
                data: d.to_vec(),
                pos: 0,
                rights: rights & !abi::RIGHT_FD_WRITE,
                flags: 0,
                dirty: false,
            };
            let fd = self.new_fd(Fd::File(f))?;
            return put_u32(m, out, fd);
        }
        if in_pycache(&path) {
            let data = match self.pycache_file(&path) {
                Some(_) if oflags & abi::O_EXCL != 0 => return Err(abi::EXIST),
                Some(d) if oflags & abi::O_TRUNC == 0 => d,
                None if oflags & abi::O_CREAT == 0 => return Err(abi::NOENT),
                _ => Vec::new(),
            };
            let dirty = data.is_empty();
            let f = OpenFile { path, data, pos: 0, rights, flags: fdflags, dirty };
            let fd = self.new_fd(Fd::File(f))?;
            return put_u32(m, out, fd);
        }
        self.flush_all()?;
        let found = match self.stat_path(&path, true) {
            Ok(s) => Some(s.filetype),
            Err(abi::NOENT) => None,
            Err(e) => return Err(e),
        };
        let fd = match found {
            Some(_) if oflags & abi::O_CREAT != 0 && oflags & abi::O_EXCL != 0 => return Err(abi::EXIST),
            Some(abi::FILETYPE_DIRECTORY) => {
                if rights & abi::RIGHT_FD_WRITE != 0 && !want_dir || oflags & abi::O_TRUNC != 0 {
                    return Err(abi::ISDIR);
                }
                Fd::Dir { path, entries: Vec::new() }
            }
            Some(_) if want_dir => return Err(abi::NOTDIR),
            None if want_dir || oflags & abi::O_CREAT == 0 => return Err(abi::NOENT),
            found => {
                let data = if found.is_none() || oflags & abi::O_TRUNC != 0 {
                    // Made (or emptied) at once, so it exists for the next open.
                    self.os.write(&path, &[])?;
                    Vec::new()
                } else {
                    self.os.read(&path)?
                };
                Fd::File(OpenFile { path, data, pos: 0, rights, flags: fdflags, dirty: false })
            }
        };
        let fd = self.new_fd(fd)?;
        put_u32(m, out, fd)
    }

    pub(super) fn poll_oneoff(&mut self, m: &mut [u8], subs: u32, events: u32, n: u32, out: u32) -> Res {
        if n == 0 || n > MAX_SUBSCRIPTIONS {
            return Err(abi::INVAL);
        }
        let mut wait: Option<u64> = None;
        let mut ready = Vec::new();
        let mut clocks = Vec::new();
        for i in 0..n {
            let at = subs + i * abi::SUBSCRIPTION_SIZE as u32;
            let userdata = get_u64(m, at)?;
            let r = range(m, at + 8, 1)?;
            let tag = m[r.start];
            if tag == abi::EVENTTYPE_CLOCK {
                let clock = get_u32(m, at + 16)?;
                let timeout = get_u64(m, at + 24)?;
                let r = range(m, at + 40, 2)?;
                let flags = u16::from_le_bytes([m[r.start], m[r.start + 1]]);
                let rel = if flags & abi::SUBCLOCK_ABSTIME != 0 {
                    timeout.saturating_sub(self.now_ns(clock))
                } else {
                    timeout
                };
                wait = Some(wait.map_or(rel, |w| w.min(rel)));
                clocks.push((userdata, rel));
            } else {
                // Descriptors are always ready: reads and writes never wait
                // for another party here.
                ready.push((userdata, tag));
            }
        }
        let mut count = 0u32;
        let mut event = |m: &mut [u8], userdata: u64, tag: u8, nbytes: u64| -> Res {
            let at = events + count * abi::EVENT_SIZE as u32;
            let mut b = [0u8; abi::EVENT_SIZE];
            b[0..8].copy_from_slice(&userdata.to_le_bytes());
            b[10] = tag;
            b[16..24].copy_from_slice(&nbytes.to_le_bytes());
            put(m, at, &b)?;
            count += 1;
            Ok(())
        };
        if ready.is_empty() {
            let w = wait.unwrap_or(0);
            if !self.os.sleep(Duration::from_nanos(w)) {
                self.stop = Some(Stop::Stopped);
                return Err(abi::INTR);
            }
            for (u, rel) in clocks {
                if rel <= w {
                    event(m, u, abi::EVENTTYPE_CLOCK, 0)?;
                }
            }
        } else {
            for (u, tag) in ready {
                event(m, u, tag, 1)?;
            }
        }
        put_u32(m, out, count)
    }
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn paths_join_without_leaving_the_root() {
        assert_eq!(join("/", "a/b"), "/a/b");
        assert_eq!(join("/a/b", "../c/./d"), "/a/c/d");
        assert_eq!(join("/a", "../../.."), "/");
        assert_eq!(join("/a", "/x//y/"), "/x/y");
        assert_eq!(join("/", ""), "/");
    }
}
