//! Other filesystems mounted into the session's tree (the Elixir `:virtual_fs`
//! option, later host directories). A path under a mount point goes to that
//! mount's backend, rooted at the mount (`/api/users/1` reaches the backend as
//! `/users/1`); every other path goes to the root filesystem, which also holds
//! the mount points themselves as directories so listings of their parents show them.

use super::{DirEntry, Fs, FsError, FsLimit, FsResult, Metadata};
use async_trait::async_trait;
use std::sync::Arc;
use std::time::SystemTime;

struct Mount {
    prefix: String,
    fs: Arc<dyn Fs>,
}

/// The root filesystem plus its mounts.
pub struct MountFs {
    root: Arc<dyn Fs>,
    /// Longest prefix first, so nested mounts win over their parents.
    mounts: Vec<Mount>,
    /// A backend's tree may be endless; paths into it are bounded like any other.
    max_path_depth: usize,
}

/// Where a path leads: the backend and the path it sees there.
struct Route<'a> {
    fs: &'a Arc<dyn Fs>,
    inner: String,
    /// Index of the mount, `None` for the root filesystem.
    mount: Option<usize>,
}

impl MountFs {
    /// `mounts` pairs normalized absolute mount points (not `/`) with their backends.
    pub fn new(root: Arc<dyn Fs>, mounts: Vec<(String, Arc<dyn Fs>)>, max_path_depth: usize) -> Self {
        let mut mounts: Vec<Mount> = mounts.into_iter().map(|(prefix, fs)| Mount { prefix, fs }).collect();
        mounts.sort_by_key(|m| std::cmp::Reverse(m.prefix.len()));
        MountFs { root, mounts, max_path_depth }
    }

    fn route(&self, path: &str) -> FsResult<Route<'_>> {
        for (i, m) in self.mounts.iter().enumerate() {
            let inner = if path == m.prefix {
                "/".to_string()
            } else if path.starts_with(&m.prefix) && path.as_bytes().get(m.prefix.len()) == Some(&b'/') {
                path[m.prefix.len()..].to_string()
            } else {
                continue;
            };
            if path.split('/').filter(|c| !c.is_empty()).count() > self.max_path_depth {
                return Err(FsError::Limit(FsLimit::PathDepth, self.max_path_depth as u64));
            }
            return Ok(Route { fs: &m.fs, inner, mount: Some(i) });
        }
        Ok(Route { fs: &self.root, inner: path.to_string(), mount: None })
    }

    /// A backend's answer path (from `canonicalize`) back in the session's tree.
    fn outer(&self, mount: Option<usize>, inner: String) -> String {
        match mount.and_then(|i| self.mounts.get(i)) {
            Some(m) if inner == "/" => m.prefix.clone(),
            Some(m) => format!("{}{inner}", m.prefix),
            None => inner,
        }
    }
}

#[async_trait]
impl Fs for MountFs {
    async fn read(&self, path: &str) -> FsResult<Vec<u8>> {
        let r = self.route(path)?;
        r.fs.read(&r.inner).await
    }
    async fn open(&self, path: &str) -> FsResult<crate::io::Input> {
        let r = self.route(path)?;
        r.fs.open(&r.inner).await
    }
    async fn write(&self, path: &str, data: &[u8]) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.write(&r.inner, data).await
    }
    async fn append(&self, path: &str, data: &[u8]) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.append(&r.inner, data).await
    }
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        let r = self.route(path)?;
        r.fs.metadata(&r.inner).await
    }
    async fn link_count(&self, path: &str) -> FsResult<u64> {
        let r = self.route(path)?;
        r.fs.link_count(&r.inner).await
    }
    async fn set_symlink_mtime(&self, path: &str, mtime: SystemTime) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.set_symlink_mtime(&r.inner, mtime).await
    }
    async fn access(&self, path: &str, want: u32) -> FsResult<bool> {
        let r = self.route(path)?;
        r.fs.access(&r.inner, want).await
    }
    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        let r = self.route(path)?;
        r.fs.symlink_metadata(&r.inner).await
    }
    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let r = self.route(path)?;
        r.fs.read_dir(&r.inner).await
    }
    async fn mkdir(&self, path: &str, parents: bool) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.mkdir(&r.inner, parents).await
    }
    async fn remove_file(&self, path: &str) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.remove_file(&r.inner).await
    }
    async fn remove_dir(&self, path: &str, recursive: bool) -> FsResult<()> {
        let r = self.route(path)?;
        if r.inner == "/" && r.mount.is_some() {
            // A mount point stays as long as the session does.
            return Err(FsError::PermissionDenied);
        }
        r.fs.remove_dir(&r.inner, recursive).await
    }
    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        let a = self.route(from)?;
        let b = self.route(to)?;
        if a.mount == b.mount {
            return a.fs.rename(&a.inner, &b.inner).await;
        }
        // Across filesystems a file is copied and then removed, as `mv` does on EXDEV.
        if !a.fs.symlink_metadata(&a.inner).await?.is_file() {
            return Err(FsError::NotSupported);
        }
        let data = a.fs.read(&a.inner).await?;
        b.fs.write(&b.inner, &data).await?;
        a.fs.remove_file(&a.inner).await
    }
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        let r = self.route(link)?;
        r.fs.symlink(target, &r.inner).await
    }
    async fn read_link(&self, path: &str) -> FsResult<String> {
        let r = self.route(path)?;
        r.fs.read_link(&r.inner).await
    }
    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.set_mode(&r.inner, mode).await
    }
    async fn set_mtime(&self, path: &str, mtime: SystemTime) -> FsResult<()> {
        let r = self.route(path)?;
        r.fs.set_mtime(&r.inner, mtime).await
    }
    async fn canonicalize(&self, path: &str) -> FsResult<String> {
        let r = self.route(path)?;
        let inner = r.fs.canonicalize(&r.inner).await?;
        Ok(self.outer(r.mount, inner))
    }
    async fn hard_link(&self, target: &str, link: &str) -> FsResult<()> {
        let (a, b) = (self.route(target)?, self.route(link)?);
        if a.mount != b.mount {
            // No hard link across filesystems (EXDEV).
            return Err(FsError::NotSupported);
        }
        a.fs.hard_link(&a.inner, &b.inner).await
    }
    async fn same_file(&self, x: &str, y: &str) -> FsResult<bool> {
        let (a, b) = (self.route(x)?, self.route(y)?);
        if a.mount != b.mount {
            return Ok(false);
        }
        a.fs.same_file(&a.inner, &b.inner).await
    }
    fn whole_operations(&self, path: &str) -> bool {
        self.route(path).is_ok_and(|r| r.fs.whole_operations(&r.inner))
    }
    fn defer_write(&self, path: &str, data: Vec<u8>, append: bool) {
        if let Ok(r) = self.route(path) {
            r.fs.defer_write(&r.inner, data, append);
        }
    }
    async fn sync(&self) -> Vec<(String, FsError)> {
        let mut failed = self.root.sync().await;
        for (i, m) in self.mounts.iter().enumerate() {
            for (p, e) in m.fs.sync().await {
                failed.push((self.outer(Some(i), p), e));
            }
        }
        failed
    }
}
