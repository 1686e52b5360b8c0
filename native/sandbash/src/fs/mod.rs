//! The filesystem a script sees. Everything goes through the [`Fs`] trait so that
//! later backends (host mounts, Elixir-provided filesystems) plug in beside the
//! in-memory one. Paths given to an `Fs` are absolute and normalized (see [`path`]).

pub mod changes;
#[cfg(target_os = "linux")]
mod hard_links;
pub mod host;
pub mod memory;
pub mod mount;
pub mod overlay;
pub mod path;
pub mod permissions;
pub mod restricted;
pub mod umask;

use async_trait::async_trait;
use std::fmt;
use std::time::SystemTime;

pub use memory::MemoryFs;

/// What kind of node a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileType {
    File,
    Dir,
    Symlink,
}

/// Metadata of one node.
#[derive(Clone, Debug)]
pub struct Metadata {
    pub file_type: FileType,
    pub size: u64,
    /// Permission bits (e.g. 0o644).
    pub mode: u32,
    pub mtime: SystemTime,
}

impl Metadata {
    pub fn is_dir(&self) -> bool {
        self.file_type == FileType::Dir
    }
    pub fn is_file(&self) -> bool {
        self.file_type == FileType::File
    }
    pub fn is_symlink(&self) -> bool {
        self.file_type == FileType::Symlink
    }
}

/// One entry of a directory listing.
#[derive(Clone, Debug)]
pub struct DirEntry {
    pub name: String,
    pub file_type: FileType,
}

/// Why a filesystem operation failed. `Display` gives the C library's wording
/// (`No such file or directory`), which is what GNU tools print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsError {
    NotFound,
    NotADirectory,
    IsADirectory,
    AlreadyExists,
    NotEmpty,
    PermissionDenied,
    ReadOnly,
    InvalidArgument,
    TooManyLinks,
    /// Out of space (a backend that has no room).
    NoSpace,
    /// A configured limit was hit: its option name and value. Shown as the C
    /// library's text for the nearest real error plus the limit, so a script's
    /// author sees both what failed and why.
    Limit(FsLimit, u64),
    NameTooLong,
    NotSupported,
    /// The backend failed (an application callback raised or timed out).
    Io,
    /// A shared workspace's session may not use this mount (its prefix).
    MountNotAllowed(String),
}

/// Which filesystem limit an operation hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FsLimit {
    FileBytes,
    TotalBytes,
    Files,
    PathDepth,
}

impl FsLimit {
    /// The `:limits` option that sets it.
    pub fn option(self) -> &'static str {
        match self {
            FsLimit::FileBytes => "max_file_bytes",
            FsLimit::TotalBytes => "max_fs_bytes",
            FsLimit::Files => "max_files",
            FsLimit::PathDepth => "max_path_depth",
        }
    }
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let FsError::Limit(which, value) = self {
            let text = match which {
                FsLimit::FileBytes => "File too large",
                FsLimit::TotalBytes | FsLimit::Files => "No space left on device",
                FsLimit::PathDepth => "File name too long",
            };
            return write!(f, "{text} ({}: {value})", which.option());
        }
        if let FsError::MountNotAllowed(m) = self {
            return write!(f, "not allowed to access mount '{m}'");
        }
        f.write_str(match self {
            FsError::Limit(..) => "limit exceeded",
            FsError::MountNotAllowed(_) => "not allowed to access mount",
            FsError::NotFound => "No such file or directory",
            FsError::NotADirectory => "Not a directory",
            FsError::IsADirectory => "Is a directory",
            FsError::AlreadyExists => "File exists",
            FsError::NotEmpty => "Directory not empty",
            FsError::PermissionDenied => "Permission denied",
            FsError::ReadOnly => "Read-only file system",
            FsError::InvalidArgument => "Invalid argument",
            FsError::TooManyLinks => "Too many levels of symbolic links",
            FsError::NoSpace => "No space left on device",
            FsError::NameTooLong => "File name too long",
            FsError::NotSupported => "Operation not supported",
            FsError::Io => "Input/output error",
        })
    }
}

impl std::error::Error for FsError {}

pub type FsResult<T> = Result<T, FsError>;

/// A filesystem. Paths are absolute and normalized; implementations resolve
/// symlinks themselves (all but the last component for the `*_nofollow` calls).
#[async_trait]
pub trait Fs: Send + Sync {
    /// Whole contents of a file (following symlinks).
    async fn read(&self, path: &str) -> FsResult<Vec<u8>>;
    /// A file as a stream. Backends whose files can be large (host mounts)
    /// stream them; the default reads the file whole.
    async fn open(&self, path: &str) -> FsResult<crate::io::Input> {
        self.read(path).await.map(crate::io::Input::from_bytes)
    }
    /// Create or truncate a file, then write `data`.
    async fn write(&self, path: &str, data: &[u8]) -> FsResult<()>;
    /// Append to a file, creating it when missing.
    async fn append(&self, path: &str, data: &[u8]) -> FsResult<()>;
    /// Metadata, following a final symlink.
    async fn metadata(&self, path: &str) -> FsResult<Metadata>;
    /// Metadata of the node itself (a final symlink is not followed).
    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata>;
    /// Entries of a directory, sorted by name.
    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>>;
    /// Create a directory; with `parents`, create missing parents and accept an existing dir.
    async fn mkdir(&self, path: &str, parents: bool) -> FsResult<()>;
    /// Remove a file or symlink (not a directory).
    async fn remove_file(&self, path: &str) -> FsResult<()>;
    /// Remove a directory; it must be empty unless `recursive`.
    async fn remove_dir(&self, path: &str, recursive: bool) -> FsResult<()>;
    /// Move a node; replaces an existing file at `to`.
    async fn rename(&self, from: &str, to: &str) -> FsResult<()>;
    /// Create a symlink at `link` pointing to `target` (stored as given).
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()>;
    /// The target of a symlink, as stored.
    async fn read_link(&self, path: &str) -> FsResult<String>;
    /// Whether the sandbox user may read (`4`), write (`2`) or search and
    /// run (`1`) the node at `path` (`test -r`, `cd`); `Err` when it cannot
    /// be reached. The default grants what any of the node's owner, group or
    /// other bits grant: backends whose files are not the user's own.
    async fn access(&self, path: &str, want: u32) -> FsResult<bool> {
        let m = self.metadata(path).await?;
        Ok(m.mode & (want << 6 | want << 3 | want) != 0)
    }
    /// Change permission bits.
    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()>;
    /// Change the modification time; creates nothing.
    async fn set_mtime(&self, path: &str, mtime: SystemTime) -> FsResult<()>;
    /// How many names the node at `path` has, a final symlink followed
    /// (`ls -l`, `find -links`): a directory's is 2 plus its subdirectories.
    async fn link_count(&self, path: &str) -> FsResult<u64> {
        let m = self.metadata(path).await?;
        if !m.is_dir() {
            return Ok(1);
        }
        let subdirs = self.read_dir(path).await.map(|es| es.iter().filter(|e| e.file_type == FileType::Dir).count());
        Ok(2 + subdirs.unwrap_or(0) as u64)
    }
    /// Change a symlink's own modification time (`touch -h`); a backend
    /// that keeps no times of links leaves it.
    async fn set_symlink_mtime(&self, _path: &str, _mtime: SystemTime) -> FsResult<()> {
        Err(FsError::NotSupported)
    }
    /// Resolve every symlink in `path`; the result names an existing node.
    async fn canonicalize(&self, path: &str) -> FsResult<String>;
    /// Give the file at `target` a second name, `link` (which must not
    /// exist). A backend without hard links makes `link` a copy.
    async fn hard_link(&self, target: &str, link: &str) -> FsResult<()> {
        let data = self.read(target).await?;
        let meta = self.metadata(target).await?;
        self.write(link, &data).await?;
        self.set_mode(link, meta.mode).await.ok();
        self.set_mtime(link, meta.mtime).await.ok();
        Ok(())
    }
    /// Whether two paths name the same file (`test a -ef b`).
    async fn same_file(&self, a: &str, b: &str) -> FsResult<bool> {
        Ok(self.canonicalize(a).await? == self.canonicalize(b).await?)
    }
    /// Whether `path` is served by an application's backend (a `:virtual_fs`
    /// mount), where every call is a round trip and a backend may keep whole
    /// files only: callers then hand it whole operations (a redirection's
    /// output in one `write` when it is closed, `mkdir -p` as one call)
    /// rather than steps.
    fn whole_operations(&self, _path: &str) -> bool {
        false
    }
    /// A whole-operation write a redirection still owed when its descriptor
    /// went away without being closed (see [`crate::io::FileSink`]): the
    /// backend keeps it and sends it before its next operation, or at
    /// [`Fs::sync`], so it is never lost and never overtaken.
    fn defer_write(&self, _path: &str, _data: Vec<u8>, _append: bool) {}
    /// Send every write [`Fs::defer_write`] left owed (at the end of an exec);
    /// the failures, by path.
    async fn sync(&self) -> Vec<(String, FsError)> {
        Vec::new()
    }
    /// The creation mask the files made through this view get (see
    /// [`umask::UmaskFs`]): what `cp` and `chmod +w` apply.
    fn umask(&self) -> u32 {
        umask::DEFAULT
    }
}
