//! Copy-on-write over a read-only lower filesystem (the `:overlay` host mount
//! mode): the script sees the host directory and may change it, but every
//! change lands in an in-memory upper layer and the host is never written.
//!
//! A path is looked up in the upper layer first, then in the lower one unless
//! it or one of its ancestors was deleted (a "whiteout"). Writing a lower file
//! copies it up first; creating a path clears its whiteout.

use super::{path, DirEntry, FileType, Fs, FsError, FsResult, MemoryFs, Metadata};
use crate::io::Input;
use async_trait::async_trait;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::SystemTime;

/// Most nodes one copy-up of a directory tree may move.
const MAX_TREE_NODES: usize = 100_000;

pub struct OverlayFs {
    lower: Arc<dyn Fs>,
    upper: Arc<MemoryFs>,
    whiteouts: parking_lot::Mutex<BTreeSet<String>>,
}

impl OverlayFs {
    pub fn new(lower: Arc<dyn Fs>, upper: Arc<MemoryFs>) -> Self {
        OverlayFs { lower, upper, whiteouts: parking_lot::Mutex::new(BTreeSet::new()) }
    }

    /// Whether the lower layer's `p` shows through (no whiteout on it or above it).
    fn lower_visible(&self, p: &str) -> bool {
        let w = self.whiteouts.lock();
        if w.is_empty() {
            return true;
        }
        let mut at = p;
        loop {
            if w.contains(at) {
                return false;
            }
            if at == "/" {
                return true;
            }
            at = path::parent(at);
        }
    }

    async fn in_upper(&self, p: &str) -> bool {
        self.upper.symlink_metadata(p).await.is_ok()
    }

    /// Which layer answers for `p`: the upper one when it has `p`, else the lower one.
    async fn layer(&self, p: &str) -> FsResult<&dyn Fs> {
        if self.in_upper(p).await {
            return Ok(self.upper.as_ref());
        }
        if self.lower_visible(p) {
            return Ok(self.lower.as_ref());
        }
        Err(FsError::NotFound)
    }

    async fn merged_meta(&self, p: &str) -> FsResult<Metadata> {
        self.layer(p).await?.symlink_metadata(p).await
    }

    /// Make `dir` (which exists in the merged view) exist in the upper layer,
    /// with its ancestors, keeping the lower modes.
    async fn copy_up_dirs(&self, dir: &str) -> FsResult<()> {
        let mut chain = Vec::new();
        let mut at = dir;
        while !self.in_upper(at).await {
            chain.push(at.to_string());
            if at == "/" {
                break;
            }
            at = path::parent(at);
        }
        for d in chain.into_iter().rev() {
            let meta = self.merged_meta(&d).await?;
            if !meta.is_dir() {
                return Err(FsError::NotADirectory);
            }
            self.upper.mkdir(&d, true).await?;
            self.upper.set_mode(&d, meta.mode).await?;
        }
        Ok(())
    }

    /// Copy the node at `p` into the upper layer (a file with its bytes and
    /// mode, a symlink, or an empty directory), unless it is there already.
    async fn copy_up(&self, p: &str) -> FsResult<()> {
        if self.in_upper(p).await {
            return Ok(());
        }
        let meta = self.merged_meta(p).await?;
        self.copy_up_dirs(path::parent(p)).await?;
        match meta.file_type {
            FileType::Dir => self.upper.mkdir(p, false).await?,
            FileType::File => {
                let data = self.lower.read(p).await?;
                self.upper.write(p, &data).await?;
            }
            FileType::Symlink => {
                let target = self.lower.read_link(p).await?;
                self.upper.symlink(&target, p).await?;
                return Ok(());
            }
        }
        self.upper.set_mode(p, meta.mode).await?;
        self.upper.set_mtime(p, meta.mtime).await
    }

    /// The parent of a path being created must exist in the merged view; it is
    /// then made real in the upper layer.
    async fn prepare_create(&self, p: &str) -> FsResult<()> {
        let parent = path::parent(p);
        let meta = self.layer(parent).await?.metadata(parent).await?;
        if !meta.is_dir() {
            return Err(FsError::NotADirectory);
        }
        self.copy_up_dirs(parent).await
    }

    fn unwhiteout(&self, p: &str) {
        self.whiteouts.lock().remove(p);
    }

    /// Remove `p` from the merged view: from the upper layer, and hide the lower one.
    async fn erase(&self, p: &str) -> FsResult<()> {
        if self.in_upper(p).await {
            let meta = self.upper.symlink_metadata(p).await?;
            if meta.is_dir() {
                self.upper.remove_dir(p, true).await?;
            } else {
                self.upper.remove_file(p).await?;
            }
        }
        if self.lower.symlink_metadata(p).await.is_ok() {
            self.whiteouts.lock().insert(p.to_string());
        }
        Ok(())
    }

    /// Every node under `root` in the merged view, parents before children.
    async fn walk(&self, root: &str) -> FsResult<Vec<(String, Metadata)>> {
        let mut out = vec![(root.to_string(), self.merged_meta(root).await?)];
        let mut i = 0;
        while i < out.len() {
            if out.len() > MAX_TREE_NODES {
                return Err(FsError::NoSpace);
            }
            let (p, meta) = out[i].clone();
            i += 1;
            if meta.is_dir() {
                for e in self.read_dir(&p).await? {
                    let child = path::join(&p, &e.name);
                    let m = self.merged_meta(&child).await?;
                    out.push((child, m));
                }
            }
        }
        Ok(out)
    }
}

#[async_trait]
impl Fs for OverlayFs {
    async fn read(&self, p: &str) -> FsResult<Vec<u8>> {
        self.layer(p).await?.read(p).await
    }
    async fn open(&self, p: &str) -> FsResult<Input> {
        self.layer(p).await?.open(p).await
    }
    async fn write(&self, p: &str, data: &[u8]) -> FsResult<()> {
        if !self.in_upper(p).await {
            self.prepare_create(p).await?;
            if let Ok(m) = self.layer(p).await?.metadata(p).await {
                if m.is_dir() {
                    return Err(FsError::IsADirectory);
                }
            }
        }
        self.upper.write(p, data).await?;
        self.unwhiteout(p);
        Ok(())
    }
    async fn append(&self, p: &str, data: &[u8]) -> FsResult<()> {
        match self.merged_meta(p).await {
            Ok(_) => self.copy_up(p).await?,
            Err(FsError::NotFound) => self.prepare_create(p).await?,
            Err(e) => return Err(e),
        }
        self.upper.append(p, data).await?;
        self.unwhiteout(p);
        Ok(())
    }
    async fn metadata(&self, p: &str) -> FsResult<Metadata> {
        self.layer(p).await?.metadata(p).await
    }
    async fn symlink_metadata(&self, p: &str) -> FsResult<Metadata> {
        self.merged_meta(p).await
    }
    async fn read_dir(&self, p: &str) -> FsResult<Vec<DirEntry>> {
        let mut merged: BTreeMap<String, DirEntry> = BTreeMap::new();
        let mut found = false;
        if self.lower_visible(p) {
            if let Ok(v) = self.lower.read_dir(p).await {
                found = true;
                for e in v {
                    if self.lower_visible(&path::join(p, &e.name)) {
                        merged.insert(e.name.clone(), e);
                    }
                }
            }
        }
        if self.in_upper(p).await {
            found = true;
            for e in self.upper.read_dir(p).await? {
                merged.insert(e.name.clone(), e);
            }
        }
        if !found {
            // Not a directory, or not there: the layer that has it says which.
            self.layer(p).await?.read_dir(p).await?;
        }
        Ok(merged.into_values().collect())
    }
    async fn mkdir(&self, p: &str, parents: bool) -> FsResult<()> {
        if parents {
            let mut at = String::new();
            for part in p.split('/').filter(|c| !c.is_empty()) {
                at.push('/');
                at.push_str(part);
                match self.merged_meta(&at).await {
                    Ok(m) if m.is_dir() => continue,
                    Ok(_) => return Err(FsError::NotADirectory),
                    Err(_) => self.mkdir(&at, false).await?,
                }
            }
            return Ok(());
        }
        if self.merged_meta(p).await.is_ok() {
            return Err(FsError::AlreadyExists);
        }
        self.prepare_create(p).await?;
        self.upper.mkdir(p, false).await?;
        self.unwhiteout(p);
        // A directory made over a deleted one must not show the old children.
        if self.lower.symlink_metadata(p).await.is_ok() {
            for e in self.lower.read_dir(p).await.unwrap_or_default() {
                self.whiteouts.lock().insert(path::join(p, &e.name));
            }
        }
        Ok(())
    }
    async fn remove_file(&self, p: &str) -> FsResult<()> {
        if self.merged_meta(p).await?.is_dir() {
            return Err(FsError::IsADirectory);
        }
        self.erase(p).await
    }
    async fn remove_dir(&self, p: &str, recursive: bool) -> FsResult<()> {
        if !self.merged_meta(p).await?.is_dir() {
            return Err(FsError::NotADirectory);
        }
        if !recursive && !self.read_dir(p).await?.is_empty() {
            return Err(FsError::NotEmpty);
        }
        self.erase(p).await
    }
    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        let nodes = self.walk(from).await?;
        if let Ok(m) = self.merged_meta(to).await {
            if m.is_dir() != nodes[0].1.is_dir() {
                return Err(if m.is_dir() { FsError::IsADirectory } else { FsError::NotADirectory });
            }
            if m.is_dir() && !self.read_dir(to).await?.is_empty() {
                return Err(FsError::NotEmpty);
            }
            self.erase(to).await?;
        }
        self.prepare_create(to).await?;
        for (p, meta) in &nodes {
            let dest = format!("{to}{}", &p[from.len()..]);
            match meta.file_type {
                FileType::Dir => self.upper.mkdir(&dest, false).await?,
                FileType::File => {
                    let data = self.read(p).await?;
                    self.upper.write(&dest, &data).await?;
                }
                FileType::Symlink => {
                    let target = self.read_link(p).await?;
                    self.upper.symlink(&target, &dest).await?;
                    self.unwhiteout(&dest);
                    continue;
                }
            }
            self.upper.set_mode(&dest, meta.mode).await?;
            self.upper.set_mtime(&dest, meta.mtime).await?;
            self.unwhiteout(&dest);
        }
        self.erase(from).await
    }
    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        if self.merged_meta(link).await.is_ok() {
            return Err(FsError::AlreadyExists);
        }
        self.prepare_create(link).await?;
        self.upper.symlink(target, link).await?;
        self.unwhiteout(link);
        Ok(())
    }
    async fn read_link(&self, p: &str) -> FsResult<String> {
        self.layer(p).await?.read_link(p).await
    }
    async fn set_mode(&self, p: &str, mode: u32) -> FsResult<()> {
        self.copy_up(p).await?;
        self.upper.set_mode(p, mode).await
    }
    async fn set_mtime(&self, p: &str, mtime: SystemTime) -> FsResult<()> {
        self.copy_up(p).await?;
        self.upper.set_mtime(p, mtime).await
    }
    async fn canonicalize(&self, p: &str) -> FsResult<String> {
        self.layer(p).await?.canonicalize(p).await
    }
}
