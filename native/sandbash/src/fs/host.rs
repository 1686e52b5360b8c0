//! A real host directory mounted into the sandbox (the Elixir `:mounts` option).
//!
//! Every path is resolved by the kernel beneath the mount's root directory
//! descriptor (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`): `..`
//! and symlinks, absolute or relative, that would leave the root fail with
//! `EXDEV`, and because resolution and use happen in one call on descriptors,
//! a symlink swapped in between a check and a use cannot redirect it. Operations
//! on a last component (unlink, mkdir, rename, readlink, lstat) run on the
//! parent's descriptor with a single name, so they never follow it. Special
//! files (fifos, sockets, devices) are hidden and refused, and a regular file
//! with more than one hard link is refused, since its other names may lie
//! outside the mount.

use super::{DirEntry, FileType, Fs, FsError, FsLimit, FsResult, Metadata};
use crate::io::Input;
use async_trait::async_trait;
use bytes::Bytes;
use rustix::fs::{AtFlags, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What a script may do to the mounted directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostMode {
    ReadOnly,
    ReadWrite,
}

/// Names whose paths hold credentials; refused inside mounts unless the
/// application took the denylist off (`:allowed_mount_paths`).
pub const SENSITIVE_NAMES: &[&str] = &[
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".docker",
    ".azure",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".npmrc",
    ".pypirc",
];

/// Host directories refused as (or above) a mount unless allowlisted.
pub const SENSITIVE_ROOTS: &[&str] =
    &["/etc", "/proc", "/sys", "/dev", "/home", "/Users", "/private", "/root", "/boot", "/run", "/var/run"];

/// Whether the host path `p` (canonical) is sensitive: under a sensitive root, or
/// containing a credential directory (`.ssh`, `.config/gcloud`, ...).
pub fn is_sensitive(p: &Path) -> bool {
    let s = p.to_string_lossy();
    if s == "/" {
        return true;
    }
    if SENSITIVE_ROOTS.iter().any(|r| s == *r || s.starts_with(&format!("{r}/"))) {
        return true;
    }
    sensitive_components(&s)
}

fn sensitive_components(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    parts.iter().any(|c| SENSITIVE_NAMES.contains(c)) || parts.windows(2).any(|w| w == [".config", "gcloud"])
}

/// Chunk size of streamed reads, and how many chunks may wait in the pipe.
const CHUNK: usize = 64 * 1024;
const CHUNKS_IN_FLIGHT: usize = 4;
/// Lookups retried after EAGAIN (a concurrent rename) before giving up.
const MAX_RETRIES: u32 = 64;
/// Most entries one directory listing may hold.
const MAX_ENTRIES: usize = 1_000_000;

pub struct HostFs {
    root: OwnedFd,
    /// The root's canonical host path, to map `/proc/self/fd` answers back.
    root_path: PathBuf,
    mode: HostMode,
    max_file_bytes: u64,
    /// Refuse credential paths inside the mount (the denylist is on).
    deny_sensitive: bool,
}

fn errno(e: Errno) -> FsError {
    match e {
        Errno::NOENT => FsError::NotFound,
        Errno::NOTDIR => FsError::NotADirectory,
        Errno::ISDIR => FsError::IsADirectory,
        Errno::EXIST => FsError::AlreadyExists,
        Errno::NOTEMPTY => FsError::NotEmpty,
        // EXDEV: the path tried to leave the mount.
        // ENXIO: a socket or device, which the sandbox never opens.
        Errno::ACCESS | Errno::PERM | Errno::XDEV | Errno::NXIO => FsError::PermissionDenied,
        Errno::ROFS => FsError::ReadOnly,
        Errno::LOOP => FsError::TooManyLinks,
        Errno::NAMETOOLONG => FsError::NameTooLong,
        Errno::NOSPC | Errno::DQUOT => FsError::NoSpace,
        Errno::INVAL => FsError::InvalidArgument,
        Errno::OPNOTSUPP => FsError::NotSupported,
        _ => FsError::Io,
    }
}

fn io_err(e: std::io::Error) -> FsError {
    e.raw_os_error().map(|n| errno(Errno::from_raw_os_error(n))).unwrap_or(FsError::Io)
}

fn kind(mode: u32) -> Option<FileType> {
    match rustix::fs::FileType::from_raw_mode(mode) {
        rustix::fs::FileType::RegularFile => Some(FileType::File),
        rustix::fs::FileType::Directory => Some(FileType::Dir),
        rustix::fs::FileType::Symlink => Some(FileType::Symlink),
        _ => None,
    }
}

fn metadata(st: &rustix::fs::Stat) -> FsResult<Metadata> {
    let file_type = kind(st.st_mode).ok_or(FsError::PermissionDenied)?;
    let secs = st.st_mtime;
    let nanos = u32::try_from(st.st_mtime_nsec).unwrap_or(0).min(999_999_999);
    let mtime = if secs >= 0 {
        SystemTime::UNIX_EPOCH + Duration::new(secs.unsigned_abs(), nanos)
    } else {
        SystemTime::UNIX_EPOCH - Duration::from_secs(secs.unsigned_abs())
    };
    Ok(Metadata { file_type, size: u64::try_from(st.st_size).unwrap_or(0), mode: st.st_mode & 0o7777, mtime })
}

/// `/a/b` (a mount-inner path) as the relative path the kernel resolves.
fn rel(path: &str) -> &str {
    match path.trim_start_matches('/') {
        "" => ".",
        r => r,
    }
}

/// `(parent, name)` of a mount-inner path other than `/`.
fn split(path: &str) -> FsResult<(&str, &str)> {
    match path.rsplit_once('/') {
        // The mount's root has no parent here: it cannot be unlinked or renamed.
        Some((_, "")) | None => Err(FsError::PermissionDenied),
        Some(("", name)) => Ok(("/", name)),
        Some((parent, name)) => Ok((parent, name)),
    }
}

impl HostFs {
    /// Open `host_dir` as a mount root. `Err` names why: missing, not a
    /// directory, or no `openat2` (Linux before 5.6), which mounts cannot do without.
    pub fn open(host_dir: &Path, mode: HostMode, max_file_bytes: u64, deny_sensitive: bool) -> Result<Self, String> {
        let shown = host_dir.display();
        let root_path = std::fs::canonicalize(host_dir).map_err(|e| format!("host path {shown}: {e}"))?;
        let meta = std::fs::metadata(&root_path).map_err(|e| format!("host path {shown}: {e}"))?;
        if !meta.is_dir() {
            return Err(format!("host path {shown} is not a directory"));
        }
        let root = rustix::fs::open(&root_path, OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())
            .map_err(|e| format!("host path {shown}: {e}"))?;
        let fs = HostFs { root, root_path, mode, max_file_bytes, deny_sensitive };
        fs.resolve(".", OFlags::PATH | OFlags::DIRECTORY).map_err(|e| {
            format!("host path {shown}: cannot resolve paths safely here ({e}; host mounts need openat2, Linux 5.6 or later)")
        })?;
        Ok(fs)
    }

    /// Open `path` (mount-inner) beneath the root, following symlinks that stay inside.
    fn resolve(&self, path: &str, flags: OFlags) -> FsResult<OwnedFd> {
        self.resolve_mode(path, flags, Mode::empty())
    }

    fn resolve_mode(&self, path: &str, flags: OFlags, mode: Mode) -> FsResult<OwnedFd> {
        if self.deny_sensitive && sensitive_components(path) {
            return Err(FsError::PermissionDenied);
        }
        // openat2 refuses O_PATH with any flag but these; other opens must not
        // block on a fifo or take a terminal.
        let flags = if flags.contains(OFlags::PATH) {
            flags | OFlags::CLOEXEC
        } else {
            flags | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK
        };
        // With `..` in a path, the kernel answers EAGAIN when a rename anywhere
        // raced the lookup; it asks the caller to try again.
        let mut tries = 0;
        loop {
            let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(&self.root, rel(path), flags, mode, resolve) {
                Err(Errno::AGAIN) if tries < MAX_RETRIES => tries += 1,
                r => return r.map_err(errno),
            }
        }
    }

    /// The parent directory's descriptor and the last name, for operations
    /// that must not follow the last component.
    fn parent(&self, path: &str) -> FsResult<(OwnedFd, String)> {
        let (parent, name) = split(path)?;
        if self.deny_sensitive && SENSITIVE_NAMES.contains(&name) {
            return Err(FsError::PermissionDenied);
        }
        Ok((self.resolve(parent, OFlags::PATH | OFlags::DIRECTORY)?, name.to_string()))
    }

    fn writable(&self) -> FsResult<()> {
        match self.mode {
            HostMode::ReadWrite => Ok(()),
            HostMode::ReadOnly => Err(FsError::ReadOnly),
        }
    }

    /// An open regular file we may use: not special, not hard-linked elsewhere.
    fn check_file(fd: &OwnedFd) -> FsResult<rustix::fs::Stat> {
        let st = rustix::fs::fstat(fd).map_err(errno)?;
        match kind(st.st_mode) {
            Some(FileType::File) if st.st_nlink > 1 => Err(FsError::PermissionDenied),
            Some(FileType::File) => Ok(st),
            Some(FileType::Dir) => Err(FsError::IsADirectory),
            _ => Err(FsError::PermissionDenied),
        }
    }

    fn open_file(&self, path: &str) -> FsResult<(std::fs::File, u64)> {
        let fd = self.resolve(path, OFlags::RDONLY)?;
        let st = Self::check_file(&fd)?;
        Ok((std::fs::File::from(fd), u64::try_from(st.st_size).unwrap_or(0)))
    }

    fn write_file(&self, path: &str, data: &[u8], append: bool) -> FsResult<()> {
        self.writable()?;
        if data.len() as u64 > self.max_file_bytes {
            return Err(FsError::Limit(FsLimit::FileBytes, self.max_file_bytes));
        }
        let mut flags = OFlags::WRONLY | OFlags::CREATE;
        if append {
            flags |= OFlags::APPEND;
        }
        let fd = self.resolve_mode(path, flags, Mode::from_raw_mode(0o644))?;
        // Checked before truncating, so a hard-linked file is left as it was.
        let st = Self::check_file(&fd)?;
        if append && u64::try_from(st.st_size).unwrap_or(0).saturating_add(data.len() as u64) > self.max_file_bytes {
            return Err(FsError::Limit(FsLimit::FileBytes, self.max_file_bytes));
        }
        if !append {
            rustix::fs::ftruncate(&fd, 0).map_err(errno)?;
        }
        std::fs::File::from(fd).write_all(data).map_err(io_err)
    }

    fn list(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let fd = self.resolve(path, OFlags::RDONLY | OFlags::DIRECTORY)?;
        let dir = rustix::fs::Dir::read_from(&fd).map_err(errno)?;
        let mut out = Vec::new();
        for e in dir {
            let e = e.map_err(errno)?;
            let Ok(name) = e.file_name().to_str() else { continue };
            if name == "." || name == ".." || (self.deny_sensitive && SENSITIVE_NAMES.contains(&name)) {
                continue;
            }
            let file_type = match e.file_type() {
                rustix::fs::FileType::RegularFile => FileType::File,
                rustix::fs::FileType::Directory => FileType::Dir,
                rustix::fs::FileType::Symlink => FileType::Symlink,
                rustix::fs::FileType::Unknown => {
                    match rustix::fs::statat(&fd, name, AtFlags::SYMLINK_NOFOLLOW).ok().and_then(|st| kind(st.st_mode))
                    {
                        Some(t) => t,
                        None => continue,
                    }
                }
                // Fifos, sockets and devices are not part of the sandbox.
                _ => continue,
            };
            if out.len() >= MAX_ENTRIES {
                return Err(FsError::NoSpace);
            }
            out.push(DirEntry { name: name.to_string(), file_type });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn remove_tree(&self, path: &str) -> FsResult<()> {
        // Depth-first with an explicit stack: directories are removed after
        // their contents; the walk works on descriptors, never following links.
        let mut stack = vec![(path.to_string(), false)];
        let mut steps = 0usize;
        while let Some((p, visited)) = stack.pop() {
            steps += 1;
            if steps > MAX_ENTRIES {
                return Err(FsError::NoSpace);
            }
            let (pfd, name) = self.parent(&p)?;
            let st = rustix::fs::statat(&pfd, name.as_str(), AtFlags::SYMLINK_NOFOLLOW).map_err(errno)?;
            if kind(st.st_mode) != Some(FileType::Dir) {
                rustix::fs::unlinkat(&pfd, name.as_str(), AtFlags::empty()).map_err(errno)?;
            } else if visited {
                rustix::fs::unlinkat(&pfd, name.as_str(), AtFlags::REMOVEDIR).map_err(errno)?;
            } else {
                stack.push((p.clone(), true));
                for e in self.list(&p)? {
                    stack.push((format!("{p}/{}", e.name), false));
                }
            }
        }
        Ok(())
    }

    /// Whether a symlink at `link` pointing to `target` would stay inside the
    /// mount when read lexically: the host may follow it later without our guards.
    fn target_stays_inside(link: &str, target: &str) -> bool {
        if target.starts_with('/') {
            return false;
        }
        let mut depth: Vec<&str> = link.split('/').filter(|c| !c.is_empty()).collect();
        depth.pop();
        for c in target.split('/') {
            match c {
                "" | "." => {}
                ".." => {
                    if depth.pop().is_none() {
                        return false;
                    }
                }
                c => depth.push(c),
            }
        }
        true
    }
}

#[async_trait]
impl Fs for HostFs {
    async fn read(&self, path: &str) -> FsResult<Vec<u8>> {
        let (file, size) = self.open_file(path)?;
        if size > self.max_file_bytes {
            return Err(FsError::Limit(FsLimit::FileBytes, self.max_file_bytes));
        }
        let mut out = Vec::new();
        file.take(self.max_file_bytes.saturating_add(1)).read_to_end(&mut out).map_err(io_err)?;
        if out.len() as u64 > self.max_file_bytes {
            return Err(FsError::Limit(FsLimit::FileBytes, self.max_file_bytes));
        }
        Ok(out)
    }

    /// Streams the file in chunks from a blocking thread: `head -c 10` of a
    /// huge file reads a few chunks, and a reader that stops stops the thread.
    async fn open(&self, path: &str) -> FsResult<Input> {
        let (mut file, _) = self.open_file(path)?;
        let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(CHUNKS_IN_FLIGHT);
        tokio::task::spawn_blocking(move || {
            let mut buf = vec![0u8; CHUNK];
            loop {
                match file.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.blocking_send(Bytes::copy_from_slice(&buf[..n])).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Input::from_receiver(rx))
    }

    async fn write(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.write_file(path, data, false)
    }
    async fn append(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.write_file(path, data, true)
    }
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        let fd = self.resolve(path, OFlags::PATH)?;
        metadata(&rustix::fs::fstat(&fd).map_err(errno)?)
    }
    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        if path == "/" {
            return metadata(&rustix::fs::fstat(&self.root).map_err(errno)?);
        }
        let (pfd, name) = self.parent(path)?;
        metadata(&rustix::fs::statat(&pfd, name.as_str(), AtFlags::SYMLINK_NOFOLLOW).map_err(errno)?)
    }
    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        self.list(path)
    }
    async fn mkdir(&self, path: &str, parents: bool) -> FsResult<()> {
        if path == "/" {
            return if parents { Ok(()) } else { Err(FsError::AlreadyExists) };
        }
        self.writable()?;
        if !parents {
            let (pfd, name) = self.parent(path)?;
            return rustix::fs::mkdirat(&pfd, name.as_str(), Mode::from_raw_mode(0o755)).map_err(errno);
        }
        let mut at = String::new();
        for part in path.split('/').filter(|p| !p.is_empty()) {
            at.push('/');
            at.push_str(part);
            let (pfd, name) = self.parent(&at)?;
            match rustix::fs::mkdirat(&pfd, name.as_str(), Mode::from_raw_mode(0o755)) {
                Ok(()) => {}
                Err(Errno::EXIST) if self.resolve(&at, OFlags::PATH | OFlags::DIRECTORY).is_ok() => {}
                Err(e) => return Err(errno(e)),
            }
        }
        Ok(())
    }
    async fn remove_file(&self, path: &str) -> FsResult<()> {
        self.writable()?;
        let (pfd, name) = self.parent(path)?;
        rustix::fs::unlinkat(&pfd, name.as_str(), AtFlags::empty()).map_err(errno)
    }
    async fn remove_dir(&self, path: &str, recursive: bool) -> FsResult<()> {
        self.writable()?;
        if path == "/" {
            return Err(FsError::PermissionDenied);
        }
        if recursive {
            return self.remove_tree(path);
        }
        let (pfd, name) = self.parent(path)?;
        rustix::fs::unlinkat(&pfd, name.as_str(), AtFlags::REMOVEDIR).map_err(errno)
    }
    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        self.writable()?;
        let (a, an) = self.parent(from)?;
        let (b, bn) = self.parent(to)?;
        rustix::fs::renameat(&a, an.as_str(), &b, bn.as_str()).map_err(errno)
    }
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        self.writable()?;
        if !Self::target_stays_inside(link, target) {
            return Err(FsError::PermissionDenied);
        }
        let (pfd, name) = self.parent(link)?;
        rustix::fs::symlinkat(target, &pfd, name.as_str()).map_err(errno)
    }
    async fn read_link(&self, path: &str) -> FsResult<String> {
        let (pfd, name) = self.parent(path)?;
        let t = rustix::fs::readlinkat(&pfd, name.as_str(), Vec::new()).map_err(errno)?;
        Ok(t.to_string_lossy().into_owned())
    }
    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        self.writable()?;
        let fd = self.resolve(path, OFlags::RDONLY)?;
        let st = rustix::fs::fstat(&fd).map_err(errno)?;
        match kind(st.st_mode) {
            Some(FileType::File) if st.st_nlink > 1 => return Err(FsError::PermissionDenied),
            Some(FileType::File | FileType::Dir) => {}
            _ => return Err(FsError::PermissionDenied),
        }
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode & 0o7777)).map_err(errno)
    }
    async fn set_mtime(&self, path: &str, mtime: SystemTime) -> FsResult<()> {
        self.writable()?;
        let fd = self.resolve(path, OFlags::RDONLY)?;
        let st = rustix::fs::fstat(&fd).map_err(errno)?;
        if !matches!(kind(st.st_mode), Some(FileType::File | FileType::Dir)) {
            return Err(FsError::PermissionDenied);
        }
        let d = mtime.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
        let t = rustix::fs::Timespec { tv_sec: d.as_secs() as i64, tv_nsec: i64::from(d.subsec_nanos()) as _ };
        let omit = rustix::fs::Timespec { tv_sec: 0, tv_nsec: rustix::fs::UTIME_OMIT as _ };
        rustix::fs::futimens(&fd, &rustix::fs::Timestamps { last_access: omit, last_modification: t }).map_err(errno)
    }
    async fn canonicalize(&self, path: &str) -> FsResult<String> {
        // The kernel resolved it beneath the root; ask it where that is.
        let fd = self.resolve(path, OFlags::PATH)?;
        let link = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&fd.as_fd()));
        let host = std::fs::read_link(link).map_err(io_err)?;
        let inner = host.strip_prefix(&self.root_path).map_err(|_| FsError::PermissionDenied)?;
        let s = inner.to_str().ok_or(FsError::InvalidArgument)?;
        Ok(if s.is_empty() { "/".to_string() } else { format!("/{s}") })
    }
}

/// Check a mount's host path against the mount policy and return it
/// canonicalized. Without `allowed`, sensitive locations (and `/`, which holds
/// them all) are refused; with it, the denylist is off and the path must sit
/// under one of the allowed prefixes, exactly as the seed words the switch.
pub fn check_policy(host: &Path, allowed: Option<&[PathBuf]>) -> Result<PathBuf, String> {
    let shown = host.display();
    let canon = std::fs::canonicalize(host).map_err(|e| format!("host path {shown}: {e}"))?;
    if !canon.is_dir() {
        return Err(format!("host path {shown} is not a directory"));
    }
    match allowed {
        None if is_sensitive(&canon) => Err(format!(
            "host path {shown} is refused: it is (or holds) a sensitive location; \
             list a covering prefix in :allowed_mount_paths to mount it deliberately"
        )),
        None => Ok(canon),
        Some(list) => {
            let ok = list.iter().any(|a| {
                let a = std::fs::canonicalize(a).unwrap_or_else(|_| a.clone());
                canon.starts_with(&a)
            });
            if ok {
                Ok(canon)
            } else {
                Err(format!("host path {shown} is not under any of :allowed_mount_paths"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_paths() {
        for p in ["/", "/etc", "/etc/ssl", "/proc/1", "/home/me", "/tmp/x/.ssh", "/srv/.config/gcloud", "/a/.aws/b"] {
            assert!(is_sensitive(Path::new(p)), "{p}");
        }
        for p in ["/tmp", "/srv/app/data", "/tmp/.config/other", "/etcetera"] {
            assert!(!is_sensitive(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn symlink_targets_that_leave_are_spotted() {
        assert!(HostFs::target_stays_inside("/a/l", "b/c"));
        assert!(HostFs::target_stays_inside("/a/l", "../x"));
        assert!(!HostFs::target_stays_inside("/a/l", "../../x"));
        assert!(!HostFs::target_stays_inside("/l", "/etc/passwd"));
        assert!(!HostFs::target_stays_inside("/l", ".."));
    }
}
