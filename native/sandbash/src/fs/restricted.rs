//! A shared workspace's view: the same filesystem as another session, minus
//! the mounts it was not given. Any path under a refused mount fails with
//! `not allowed to access mount '/X'`, whatever reaches it (a command, a
//! redirect, a glob, `cp`/`mv`, a job, the file API), since all of them go
//! through the filesystem.

use super::{DirEntry, Fs, FsError, FsResult, Metadata};
use crate::io::Input;
use async_trait::async_trait;
use std::sync::Arc;
use std::time::SystemTime;

pub struct RestrictedFs {
    inner: Arc<dyn Fs>,
    /// Mount points this view may not touch.
    refused: Vec<String>,
}

impl RestrictedFs {
    /// `mounts`: every mount point of `inner`; `allowed`: those this view keeps.
    pub fn new(inner: Arc<dyn Fs>, mounts: &[String], allowed: &[String]) -> Self {
        let refused = mounts.iter().filter(|m| !allowed.contains(m)).cloned().collect();
        RestrictedFs { inner, refused }
    }

    fn check(&self, path: &str) -> FsResult<()> {
        for m in &self.refused {
            if path == m || path.strip_prefix(m.as_str()).is_some_and(|r| r.starts_with('/')) {
                return Err(FsError::MountNotAllowed(m.clone()));
            }
        }
        Ok(())
    }
}

#[async_trait]
impl Fs for RestrictedFs {
    async fn read(&self, p: &str) -> FsResult<Vec<u8>> {
        self.check(p)?;
        self.inner.read(p).await
    }
    async fn open(&self, p: &str) -> FsResult<Input> {
        self.check(p)?;
        self.inner.open(p).await
    }
    async fn write(&self, p: &str, data: &[u8]) -> FsResult<()> {
        self.check(p)?;
        self.inner.write(p, data).await
    }
    async fn append(&self, p: &str, data: &[u8]) -> FsResult<()> {
        self.check(p)?;
        self.inner.append(p, data).await
    }
    async fn metadata(&self, p: &str) -> FsResult<Metadata> {
        self.check(p)?;
        self.inner.metadata(p).await
    }
    async fn link_count(&self, p: &str) -> FsResult<u64> {
        self.check(p)?;
        self.inner.link_count(p).await
    }
    async fn set_symlink_mtime(&self, p: &str, mtime: SystemTime) -> FsResult<()> {
        self.check(p)?;
        self.inner.set_symlink_mtime(p, mtime).await
    }
    async fn access(&self, p: &str, want: u32) -> FsResult<bool> {
        self.check(p)?;
        self.inner.access(p, want).await
    }
    async fn symlink_metadata(&self, p: &str) -> FsResult<Metadata> {
        self.check(p)?;
        self.inner.symlink_metadata(p).await
    }
    async fn read_dir(&self, p: &str) -> FsResult<Vec<DirEntry>> {
        self.check(p)?;
        self.inner.read_dir(p).await
    }
    async fn mkdir(&self, p: &str, parents: bool) -> FsResult<()> {
        self.check(p)?;
        self.inner.mkdir(p, parents).await
    }
    async fn remove_file(&self, p: &str) -> FsResult<()> {
        self.check(p)?;
        self.inner.remove_file(p).await
    }
    async fn remove_dir(&self, p: &str, recursive: bool) -> FsResult<()> {
        self.check(p)?;
        // `rm -r /` must not reach into a refused mount through the root.
        if recursive {
            for m in &self.refused {
                if p == "/" || m.starts_with(&format!("{}/", p.trim_end_matches('/'))) {
                    return Err(FsError::MountNotAllowed(m.clone()));
                }
            }
        }
        self.inner.remove_dir(p, recursive).await
    }
    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        self.check(from)?;
        self.check(to)?;
        self.inner.rename(from, to).await
    }
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        self.check(link)?;
        self.inner.symlink(target, link).await
    }
    async fn read_link(&self, p: &str) -> FsResult<String> {
        self.check(p)?;
        self.inner.read_link(p).await
    }
    async fn set_mode(&self, p: &str, mode: u32) -> FsResult<()> {
        self.check(p)?;
        self.inner.set_mode(p, mode).await
    }
    async fn set_mtime(&self, p: &str, mtime: SystemTime) -> FsResult<()> {
        self.check(p)?;
        self.inner.set_mtime(p, mtime).await
    }
    async fn canonicalize(&self, p: &str) -> FsResult<String> {
        self.check(p)?;
        let real = self.inner.canonicalize(p).await?;
        // A symlink in the shared tree must not lead into a refused mount either.
        self.check(&real)?;
        Ok(real)
    }
    fn whole_operations(&self, p: &str) -> bool {
        self.check(p).is_ok() && self.inner.whole_operations(p)
    }
    fn defer_write(&self, p: &str, data: Vec<u8>, append: bool) {
        if self.check(p).is_ok() {
            self.inner.defer_write(p, data, append);
        }
    }
    async fn sync(&self) -> Vec<(String, FsError)> {
        self.inner.sync().await
    }
}
