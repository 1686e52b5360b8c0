//! A shell's file creation mask (`umask`) applied where files and
//! directories are made: the backends create them as a 022 mask would
//! (0644 and 0755), and a shell whose mask differs sees its filesystem
//! through this view, which gives each node it creates `0666 & !mask` or
//! `0777 & !mask`. One view for every way in (redirections, utilities,
//! `mkdir -p`'s parents), so no creating command can forget the mask.

use super::{path, DirEntry, Fs, FsError, FsResult, Metadata};
use crate::io::Input;
use async_trait::async_trait;
use std::sync::Arc;
use std::time::SystemTime;

/// The mask the backends create with.
pub const DEFAULT: u32 = 0o022;

pub struct UmaskFs {
    inner: Arc<dyn Fs>,
    mask: u32,
}

impl UmaskFs {
    pub fn new(inner: Arc<dyn Fs>, mask: u32) -> Self {
        UmaskFs { inner, mask: mask & 0o777 }
    }

    async fn missing(&self, p: &str) -> bool {
        matches!(self.inner.symlink_metadata(p).await, Err(FsError::NotFound))
    }

    /// A file `p` just made gets the mask's bits (a backend that keeps no
    /// modes keeps its own).
    async fn made_file(&self, p: &str) {
        let _ = self.inner.set_mode(p, 0o666 & !self.mask).await;
    }

    /// The missing directories among `p` and (with `parents`) its ancestors,
    /// outermost first. At most `MAX_WALK` of them: each look costs the
    /// path's length, and a path deeper than that is one no backend makes
    /// (the memory filesystem stops at 128 parts).
    async fn missing_dirs(&self, p: &str, parents: bool) -> Vec<String> {
        const MAX_WALK: usize = 256;
        let mut out = Vec::new();
        let mut cur = p.to_string();
        while cur != "/" && out.len() < MAX_WALK && self.missing(&cur).await {
            out.push(cur.clone());
            if !parents {
                break;
            }
            cur = path::parent(&cur).to_string();
        }
        out.reverse();
        out
    }
}

#[async_trait]
impl Fs for UmaskFs {
    async fn read(&self, p: &str) -> FsResult<Vec<u8>> {
        self.inner.read(p).await
    }
    async fn open(&self, p: &str) -> FsResult<Input> {
        self.inner.open(p).await
    }
    async fn write(&self, p: &str, data: &[u8]) -> FsResult<()> {
        let new = self.missing(p).await;
        self.inner.write(p, data).await?;
        if new {
            self.made_file(p).await;
        }
        Ok(())
    }
    async fn append(&self, p: &str, data: &[u8]) -> FsResult<()> {
        let new = self.missing(p).await;
        self.inner.append(p, data).await?;
        if new {
            self.made_file(p).await;
        }
        Ok(())
    }
    async fn metadata(&self, p: &str) -> FsResult<Metadata> {
        self.inner.metadata(p).await
    }
    async fn symlink_metadata(&self, p: &str) -> FsResult<Metadata> {
        self.inner.symlink_metadata(p).await
    }
    async fn read_dir(&self, p: &str) -> FsResult<Vec<DirEntry>> {
        self.inner.read_dir(p).await
    }
    async fn mkdir(&self, p: &str, parents: bool) -> FsResult<()> {
        let made = self.missing_dirs(p, parents).await;
        self.inner.mkdir(p, parents).await?;
        let last = made.len().saturating_sub(1);
        for (i, d) in made.iter().enumerate() {
            // Parents made on the way keep u+wx, as GNU `mkdir -p` makes them.
            let keep = if i < last { 0o300 } else { 0 };
            let _ = self.inner.set_mode(d, (0o777 & !self.mask) | keep).await;
        }
        Ok(())
    }
    async fn remove_file(&self, p: &str) -> FsResult<()> {
        self.inner.remove_file(p).await
    }
    async fn remove_dir(&self, p: &str, recursive: bool) -> FsResult<()> {
        self.inner.remove_dir(p, recursive).await
    }
    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        self.inner.rename(from, to).await
    }
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        self.inner.symlink(target, link).await
    }
    async fn read_link(&self, p: &str) -> FsResult<String> {
        self.inner.read_link(p).await
    }
    async fn access(&self, p: &str, want: u32) -> FsResult<bool> {
        self.inner.access(p, want).await
    }
    async fn set_mode(&self, p: &str, mode: u32) -> FsResult<()> {
        self.inner.set_mode(p, mode).await
    }
    async fn set_mtime(&self, p: &str, mtime: SystemTime) -> FsResult<()> {
        self.inner.set_mtime(p, mtime).await
    }
    async fn link_count(&self, p: &str) -> FsResult<u64> {
        self.inner.link_count(p).await
    }
    async fn set_symlink_mtime(&self, p: &str, mtime: SystemTime) -> FsResult<()> {
        self.inner.set_symlink_mtime(p, mtime).await
    }
    async fn canonicalize(&self, p: &str) -> FsResult<String> {
        self.inner.canonicalize(p).await
    }
    async fn hard_link(&self, target: &str, link: &str) -> FsResult<()> {
        self.inner.hard_link(target, link).await
    }
    async fn same_file(&self, a: &str, b: &str) -> FsResult<bool> {
        self.inner.same_file(a, b).await
    }
    fn whole_operations(&self, p: &str) -> bool {
        self.inner.whole_operations(p)
    }
    fn defer_write(&self, p: &str, data: Vec<u8>, append: bool) {
        self.inner.defer_write(p, data, append)
    }
    async fn sync(&self) -> Vec<(String, FsError)> {
        self.inner.sync().await
    }
    fn umask(&self) -> u32 {
        self.mask
    }
}
