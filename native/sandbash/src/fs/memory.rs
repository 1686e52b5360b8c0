//! The in-memory filesystem: a flat map from real (symlink-free) paths to nodes.
//! File contents are `Arc<Vec<u8>>` so reads are cheap clones and forks share data.

use super::path::{file_name, join, parent};
use super::permissions::{self, READ, SEARCH, WRITE};
use super::{DirEntry, FileType, Fs, FsError, FsLimit, FsResult, Metadata};
use async_trait::async_trait;
use parking_lot::RwLock;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::SystemTime;

/// Most symlinks followed while resolving one path (Linux's MAXSYMLINKS).
const MAX_SYMLINK_HOPS: usize = 40;

/// What a node is, with its contents.
#[derive(Clone, Debug)]
pub enum Kind {
    File(Arc<Vec<u8>>),
    Dir,
    /// The target, as given.
    Symlink(String),
}

/// A file's shared contents as the owner of a `Bytes` view.
struct SharedBytes(Arc<Vec<u8>>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        self.0.as_slice()
    }
}

/// One file, directory or symlink.
#[derive(Clone, Debug)]
pub struct Node {
    pub kind: Kind,
    /// Permission bits (at most 0o7777).
    pub mode: u32,
    pub mtime: SystemTime,
}

impl Node {
    fn file_type(&self) -> FileType {
        match self.kind {
            Kind::File(_) => FileType::File,
            Kind::Dir => FileType::Dir,
            Kind::Symlink(_) => FileType::Symlink,
        }
    }
    fn metadata(&self) -> Metadata {
        let size = match &self.kind {
            Kind::File(d) => d.len() as u64,
            Kind::Dir => 4096,
            Kind::Symlink(t) => t.len() as u64,
        };
        Metadata { file_type: self.file_type(), size, mode: self.mode, mtime: self.mtime }
    }
}

/// Size limits of a [`MemoryFs`].
#[derive(Clone, Debug)]
pub struct FsLimits {
    pub max_file_bytes: u64,
    pub max_total_bytes: u64,
    pub max_files: u64,
    pub max_path_depth: usize,
}

impl Default for FsLimits {
    fn default() -> Self {
        FsLimits {
            max_file_bytes: 100 * 1024 * 1024,
            max_total_bytes: 500 * 1024 * 1024,
            max_files: 100_000,
            max_path_depth: 128,
        }
    }
}

struct Inner {
    /// Shared, until the first change, with the sessions built from the
    /// same directories (see [`MemoryFs::with_dirs`]).
    nodes: Arc<BTreeMap<String, Node>>,
    total_bytes: u64,
    /// Names that share one file (`ln`); a snapshot keeps them as copies.
    links: super::hard_links::Links,
    /// Whether the sandbox user's permissions are checked (see [`permissions`]).
    user_checks: bool,
}

impl Inner {
    /// The nodes, to change: copied first while shared.
    fn nodes_mut(&mut self) -> &mut BTreeMap<String, Node> {
        Arc::make_mut(&mut self.nodes)
    }

    /// Whether this call is the sandbox user's and is checked.
    fn checking(&self) -> bool {
        self.user_checks && !permissions::is_application() && !permissions::is_through_open()
    }

    /// `Ok` when the caller may have `want` on `node`.
    fn allow(&self, node: &Node, want: u32) -> FsResult<()> {
        if self.checking() {
            permissions::allow(node.mode, want)
        } else {
            Ok(())
        }
    }

    /// `Ok` when the caller may add or remove the name `real` (resolved):
    /// its directory must be writable.
    fn may_change_name(&self, real: &str) -> FsResult<()> {
        match self.nodes.get(parent(real)) {
            Some(dir) => self.allow(dir, WRITE),
            None => Ok(()),
        }
    }

    /// `Ok` when the caller may write the file at `real`, or create it there.
    fn may_write(&self, real: &str) -> FsResult<()> {
        match self.nodes.get(real) {
            Some(node @ Node { kind: Kind::File(_), .. }) => self.allow(node, WRITE),
            Some(_) => Ok(()),
            None => self.may_change_name(real),
        }
    }
}

/// The directories of the last [`MemoryFs::with_dirs`] and their nodes:
/// the sessions an application builds alike share one tree until each first
/// changes a file (building it was a quarter of a new session's time).
static TEMPLATE: parking_lot::Mutex<Option<(Vec<String>, SharedNodes)>> = parking_lot::Mutex::new(None);

/// A tree of nodes that filesystems share until one changes.
type SharedNodes = Arc<BTreeMap<String, Node>>;

/// These directories (absolute, normalized paths; their parents too) and
/// the [`DEVICES`] under `/dev` when it is one of them, built without path
/// lookups and with one clock read.
fn dir_nodes(dirs: &[String]) -> BTreeMap<String, Node> {
    let now = SystemTime::now();
    let mut nodes = BTreeMap::new();
    let dir = || Node { kind: Kind::Dir, mode: 0o755, mtime: now };
    nodes.insert("/".to_string(), dir());
    for d in dirs {
        let ends = d.match_indices('/').map(|(i, _)| i).filter(|&i| i > 0).chain([d.len()]);
        for i in ends {
            if i > 1 && !nodes.contains_key(&d[..i]) {
                nodes.insert(d[..i].to_string(), dir());
            }
        }
    }
    // As on Linux: anyone may create files in /tmp, only owners remove them.
    if let Some(tmp) = nodes.get_mut("/tmp") {
        tmp.mode = 0o1777;
    }
    if nodes.contains_key("/dev") {
        for dev in DEVICES {
            nodes.insert((*dev).to_string(), Node { kind: Kind::File(Arc::new(Vec::new())), mode: 0o666, mtime: now });
        }
    }
    nodes
}

/// An in-memory filesystem, safe to share between tasks.
pub struct MemoryFs {
    inner: RwLock<Inner>,
    limits: FsLimits,
}

impl Default for MemoryFs {
    fn default() -> Self {
        Self::new(FsLimits::default())
    }
}

impl MemoryFs {
    /// An empty filesystem holding only `/`.
    pub fn new(limits: FsLimits) -> Self {
        let mut nodes = BTreeMap::new();
        nodes.insert("/".to_string(), Node { kind: Kind::Dir, mode: 0o755, mtime: SystemTime::now() });
        MemoryFs {
            inner: RwLock::new(Inner {
                nodes: Arc::new(nodes),
                total_bytes: 0,
                links: Default::default(),
                user_checks: false,
            }),
            limits,
        }
    }

    /// A new filesystem holding these directories and devices (see
    /// [`dir_nodes`]): what a session starts with.
    pub fn with_dirs(limits: FsLimits, dirs: &[String]) -> Self {
        let nodes = {
            let mut last = TEMPLATE.lock();
            match &*last {
                Some((d, nodes)) if d == dirs => nodes.clone(),
                _ => {
                    let nodes = Arc::new(dir_nodes(dirs));
                    *last = Some((dirs.to_vec(), nodes.clone()));
                    nodes
                }
            }
        };
        MemoryFs {
            inner: RwLock::new(Inner { nodes, total_bytes: 0, links: Default::default(), user_checks: false }),
            limits,
        }
    }

    /// Bytes currently stored in files.
    /// Create the [`DEVICES`] (empty, mode 0666) under an existing `/dev`.
    pub fn add_devices(&self) {
        let mut inner = self.inner.write();
        for dev in DEVICES {
            let node = Node { kind: Kind::File(Arc::new(Vec::new())), mode: 0o666, mtime: SystemTime::now() };
            inner.nodes_mut().insert((*dev).to_string(), node);
        }
    }

    /// Check the sandbox user's permissions from now on (a session whose
    /// user is not root), or stop checking them.
    pub fn set_user_checks(&self, on: bool) {
        self.inner.write().user_checks = on;
    }

    pub fn total_bytes(&self) -> u64 {
        self.inner.read().total_bytes
    }

    pub fn limits(&self) -> &FsLimits {
        &self.limits
    }

    /// A copy of every node, taken at one instant (file data is shared, not copied).
    pub fn export(&self) -> MemoryTree {
        MemoryTree { nodes: (*self.inner.read().nodes).clone() }
    }

    /// Replace every node with `tree`'s, at once. The tree is checked against
    /// this filesystem's limits first; on `Err` nothing changed. The same
    /// `MemoryFs` stays in place, so whoever holds an `Arc` to it sees the new contents.
    pub fn replace_contents(&self, tree: MemoryTree) -> Result<(), String> {
        let total_bytes = tree.check(&self.limits)?;
        let mut inner = self.inner.write();
        inner.nodes = Arc::new(tree.nodes);
        inner.total_bytes = total_bytes;
        inner.links = Default::default();
        Ok(())
    }
}

/// The whole contents of a [`MemoryFs`], apart from it: real (symlink-free,
/// normalized, absolute) paths to nodes. See [`MemoryFs::export`].
#[derive(Clone, Debug, Default)]
pub struct MemoryTree {
    pub nodes: BTreeMap<String, Node>,
}

impl MemoryTree {
    /// Check that a [`MemoryFs`] with `limits` could hold this tree as it is:
    /// `/` is a directory, every path is absolute and normalized and its parent
    /// is a directory, modes fit 0o7777, and counts and sizes are within the
    /// limits. `Ok` holds the bytes stored in files.
    pub fn check(&self, limits: &FsLimits) -> Result<u64, String> {
        if !matches!(self.nodes.get("/"), Some(Node { kind: Kind::Dir, .. })) {
            return Err("/ is not a directory".into());
        }
        if self.nodes.len() as u64 > limits.max_files {
            return Err(format!("{} files, more than max_files ({})", self.nodes.len(), limits.max_files));
        }
        let mut total: u64 = 0;
        for (path, node) in &self.nodes {
            if !path.starts_with('/') || super::path::normalize(path) != *path || path.contains('\0') {
                return Err(format!("{path:?} is not an absolute normalized path"));
            }
            // The same measure `creatable` applies to new nodes.
            if path.split('/').count() > limits.max_path_depth {
                return Err(format!("{path} is deeper than max_path_depth ({})", limits.max_path_depth));
            }
            if path != "/" && !matches!(self.nodes.get(parent(path)), Some(Node { kind: Kind::Dir, .. })) {
                return Err(format!("{path}: parent is not a directory"));
            }
            if node.mode > 0o7777 {
                return Err(format!("{path}: mode {:o} is not permission bits", node.mode));
            }
            if let Kind::File(d) = &node.kind {
                let len = d.len() as u64;
                if len > limits.max_file_bytes {
                    return Err(format!("{path}: {len} bytes, more than max_file_bytes ({})", limits.max_file_bytes));
                }
                total = total.saturating_add(len);
                if total > limits.max_total_bytes {
                    return Err(format!("files hold more than max_total_bytes ({})", limits.max_total_bytes));
                }
            }
        }
        Ok(total)
    }
}

impl Inner {
    /// Resolve `path` to the real key of the node it names. With `follow_last`,
    /// a final symlink is followed too. The node itself need not exist, but its
    /// parent must (else NotFound / NotADirectory).
    fn resolve(&self, path: &str, follow_last: bool) -> FsResult<String> {
        // Asked once: every component of a path is searched by the same caller.
        let check = self.checking();
        let mut hops = 0;
        let mut pending: Vec<String> = path.split('/').filter(|c| !c.is_empty()).rev().map(String::from).collect();
        let mut cur = String::from("/");
        while let Some(comp) = pending.pop() {
            if comp == "." {
                continue;
            }
            if comp == ".." {
                cur = parent(&cur).to_string();
                continue;
            }
            match self.nodes.get(&cur) {
                Some(dir @ Node { kind: Kind::Dir, .. }) if check => permissions::allow(dir.mode, SEARCH)?,
                Some(Node { kind: Kind::Dir, .. }) => {}
                Some(_) => return Err(FsError::NotADirectory),
                None => return Err(FsError::NotFound),
            }
            let next = join(&cur, &comp);
            let is_last = pending.is_empty();
            match self.nodes.get(&next) {
                Some(Node { kind: Kind::Symlink(target), .. }) if !is_last || follow_last => {
                    hops += 1;
                    if hops > MAX_SYMLINK_HOPS {
                        return Err(FsError::TooManyLinks);
                    }
                    if target.starts_with('/') {
                        cur = "/".to_string();
                    }
                    for c in target.split('/').filter(|c| !c.is_empty()).rev() {
                        pending.push(c.to_string());
                    }
                }
                _ => cur = next,
            }
        }
        Ok(cur)
    }

    fn get(&self, path: &str, follow: bool) -> FsResult<(&Node, String)> {
        let real = self.resolve(path, follow)?;
        self.nodes.get(&real).map(|n| (n, real)).ok_or(FsError::NotFound)
    }

    /// Real key for a node to be created at `path`; its parent must be a directory.
    fn creatable(&self, path: &str, limits: &FsLimits) -> FsResult<String> {
        let real = self.resolve(path, true)?;
        if real.split('/').count() > limits.max_path_depth {
            return Err(FsError::Limit(FsLimit::PathDepth, limits.max_path_depth as u64));
        }
        match self.nodes.get(parent(&real)) {
            Some(Node { kind: Kind::Dir, .. }) => Ok(real),
            Some(_) => Err(FsError::NotADirectory),
            None => Err(FsError::NotFound),
        }
    }

    fn children<'a>(&'a self, dir: &str) -> impl Iterator<Item = (&'a String, &'a Node)> + 'a {
        let prefix = if dir == "/" { "/".to_string() } else { format!("{dir}/") };
        self.nodes
            .range(prefix.clone()..)
            .take_while({
                let prefix = prefix.clone();
                move |(k, _)| k.starts_with(&prefix)
            })
            .filter(move |(k, _)| k.len() > prefix.len() && !k[prefix.len()..].contains('/'))
    }

    fn descendants_keys(&self, dir: &str) -> Vec<String> {
        let prefix = if dir == "/" { "/".to_string() } else { format!("{dir}/") };
        self.nodes
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter(|(k, _)| k.as_str() != "/")
            .map(|(k, _)| k.clone())
            .collect()
    }

    fn put_file(&mut self, real: String, data: Vec<u8>, limits: &FsLimits) -> FsResult<()> {
        if data.len() as u64 > limits.max_file_bytes {
            return Err(FsError::Limit(FsLimit::FileBytes, limits.max_file_bytes));
        }
        let (old_size, mode, exists) = match self.nodes.get(&real) {
            Some(Node { kind: Kind::File(d), mode, .. }) => (d.len() as u64, *mode, true),
            Some(Node { kind: Kind::Dir, .. }) => return Err(FsError::IsADirectory),
            Some(_) => return Err(FsError::InvalidArgument),
            None => (0, 0o644, false),
        };
        let new_total = self.total_bytes - old_size + data.len() as u64;
        if new_total > limits.max_total_bytes {
            return Err(FsError::Limit(FsLimit::TotalBytes, limits.max_total_bytes));
        }
        if !exists && self.nodes.len() as u64 >= limits.max_files {
            return Err(FsError::Limit(FsLimit::Files, limits.max_files));
        }
        self.total_bytes = new_total;
        self.nodes_mut()
            .insert(real.clone(), Node { kind: Kind::File(Arc::new(data)), mode, mtime: SystemTime::now() });
        self.mirror(&real);
        Ok(())
    }

    /// The other names of the file at `real` take its node again (after a
    /// change): one shared buffer, its mode and time.
    fn mirror(&mut self, real: &str) {
        let Some(group) = self.links.group(real) else { return };
        if let Some(node) = self.nodes.get(real).cloned() {
            // In place: no key built or hashed anew for each name.
            for o in group.iter().filter(|n| *n != real) {
                if let Some(slot) = Arc::make_mut(&mut self.nodes).get_mut(o) {
                    *slot = node.clone();
                }
            }
        }
    }

    fn check_count(&self, limits: &FsLimits) -> FsResult<()> {
        if self.nodes.len() as u64 >= limits.max_files {
            Err(FsError::Limit(FsLimit::Files, limits.max_files))
        } else {
            Ok(())
        }
    }
}

/// The character devices every sandbox has (created empty by `Bash::builder`):
/// what is written to them vanishes; readers stream them through `Input::device`.
/// `/dev/full` reads as zeros and refuses every write (ENOSPC).
pub const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random"];

fn is_device(path: &str) -> bool {
    DEVICES.contains(&path)
}

#[async_trait]
impl Fs for MemoryFs {
    async fn read(&self, path: &str) -> FsResult<Vec<u8>> {
        let inner = self.inner.read();
        let node = inner.get(path, true)?.0;
        inner.allow(node, READ)?;
        match node {
            Node { kind: Kind::File(d), .. } => Ok(d.as_ref().clone()),
            Node { kind: Kind::Dir, .. } => Err(FsError::IsADirectory),
            _ => Err(FsError::InvalidArgument),
        }
    }

    /// Streams the stored contents without copying them.
    async fn open(&self, path: &str) -> FsResult<crate::io::Input> {
        let inner = self.inner.read();
        let node = inner.get(path, true)?.0;
        inner.allow(node, READ)?;
        match node {
            Node { kind: Kind::File(d), .. } => {
                Ok(crate::io::Input::from_file(bytes::Bytes::from_owner(SharedBytes(d.clone()))))
            }
            Node { kind: Kind::Dir, .. } => Err(FsError::IsADirectory),
            _ => Err(FsError::InvalidArgument),
        }
    }

    async fn write(&self, path: &str, data: &[u8]) -> FsResult<()> {
        if is_device(path) {
            return if path == "/dev/full" && !data.is_empty() { Err(FsError::NoSpace) } else { Ok(()) };
        }
        let mut inner = self.inner.write();
        let real = inner.creatable(path, &self.limits)?;
        inner.may_write(&real)?;
        inner.put_file(real, data.to_vec(), &self.limits)
    }

    async fn append(&self, path: &str, data: &[u8]) -> FsResult<()> {
        if is_device(path) {
            return if path == "/dev/full" && !data.is_empty() { Err(FsError::NoSpace) } else { Ok(()) };
        }
        let mut inner = self.inner.write();
        let real = inner.creatable(path, &self.limits)?;
        inner.may_write(&real)?;
        let mut content = match inner.nodes_mut().get_mut(&real) {
            Some(Node { kind: Kind::File(d), .. }) => {
                // Take the buffer out so a single owner appends in place.
                std::mem::take(Arc::make_mut(d))
            }
            Some(Node { kind: Kind::Dir, .. }) => return Err(FsError::IsADirectory),
            Some(_) => return Err(FsError::InvalidArgument),
            None => Vec::new(),
        };
        let old_len = content.len() as u64;
        let over = if old_len + data.len() as u64 > self.limits.max_file_bytes {
            Some(FsError::Limit(FsLimit::FileBytes, self.limits.max_file_bytes))
        } else if inner.total_bytes + data.len() as u64 > self.limits.max_total_bytes {
            Some(FsError::Limit(FsLimit::TotalBytes, self.limits.max_total_bytes))
        } else {
            None
        };
        if let Some(e) = over {
            if let Some(Node { kind: Kind::File(d), .. }) = inner.nodes_mut().get_mut(&real) {
                *Arc::make_mut(d) = content;
            }
            return Err(e);
        }
        // A growing file doubles its buffer: the new one is asked of the
        // session's budget before it is allocated (both are held while it moves).
        if !crate::limits::scope::extend_within_budget(&mut content, data) {
            if let Some(Node { kind: Kind::File(d), .. }) = inner.nodes_mut().get_mut(&real) {
                *Arc::make_mut(d) = content;
            }
            return Err(FsError::NoSpace);
        }
        // put_file accounts sizes from the stored (now empty) buffer.
        inner.total_bytes -= old_len;
        if let Some(Node { kind: Kind::File(d), .. }) = inner.nodes_mut().get_mut(&real) {
            *d = Arc::new(Vec::new());
        }
        inner.put_file(real, content, &self.limits)
    }

    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        Ok(self.inner.read().get(path, true)?.0.metadata())
    }

    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        Ok(self.inner.read().get(path, false)?.0.metadata())
    }

    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        let inner = self.inner.read();
        let (node, real) = inner.get(path, true)?;
        if !matches!(node.kind, Kind::Dir) {
            return Err(FsError::NotADirectory);
        }
        inner.allow(node, READ)?;
        Ok(inner
            .children(&real)
            .map(|(k, n)| DirEntry { name: file_name(k).to_string(), file_type: n.file_type() })
            .collect())
    }

    async fn mkdir(&self, path: &str, parents: bool) -> FsResult<()> {
        let mut inner = self.inner.write();
        if parents {
            let mut cur = String::new();
            for comp in path.split('/').filter(|c| !c.is_empty()) {
                cur.push('/');
                cur.push_str(comp);
                let real = inner.resolve(&cur, true)?;
                match inner.nodes.get(&real) {
                    Some(Node { kind: Kind::Dir, .. }) => {}
                    Some(_) => return Err(FsError::AlreadyExists),
                    None => {
                        let real = inner.creatable(&cur, &self.limits)?;
                        inner.may_change_name(&real)?;
                        inner.check_count(&self.limits)?;
                        inner.nodes_mut().insert(real, Node { kind: Kind::Dir, mode: 0o755, mtime: SystemTime::now() });
                    }
                }
            }
            return Ok(());
        }
        let real = inner.resolve(path, false)?;
        if inner.nodes.contains_key(&real) {
            return Err(FsError::AlreadyExists);
        }
        let real = inner.creatable(path, &self.limits)?;
        inner.may_change_name(&real)?;
        inner.check_count(&self.limits)?;
        inner.nodes_mut().insert(real, Node { kind: Kind::Dir, mode: 0o755, mtime: SystemTime::now() });
        Ok(())
    }

    async fn remove_file(&self, path: &str) -> FsResult<()> {
        let mut inner = self.inner.write();
        let real = inner.resolve(path, false)?;
        match inner.nodes.get(&real) {
            None => Err(FsError::NotFound),
            Some(Node { kind: Kind::Dir, .. }) => Err(FsError::IsADirectory),
            Some(_) if inner.may_change_name(&real).is_err() => Err(FsError::PermissionDenied),
            Some(n) => {
                let len = if let Kind::File(d) = &n.kind { d.len() as u64 } else { 0 };
                // Bytes another name still holds stay counted.
                if !inner.links.forget(&real) {
                    inner.total_bytes -= len;
                }
                inner.nodes_mut().remove(&real);
                Ok(())
            }
        }
    }

    async fn remove_dir(&self, path: &str, recursive: bool) -> FsResult<()> {
        let mut inner = self.inner.write();
        let real = inner.resolve(path, false)?;
        match inner.nodes.get(&real) {
            None => return Err(FsError::NotFound),
            Some(Node { kind: Kind::Dir, .. }) => {}
            Some(_) => return Err(FsError::NotADirectory),
        }
        if real == "/" {
            return Err(FsError::PermissionDenied);
        }
        inner.may_change_name(&real)?;
        let desc = inner.descendants_keys(&real);
        if !desc.is_empty() && !recursive {
            return Err(FsError::NotEmpty);
        }
        // Emptying a directory takes listing, searching and changing it.
        for k in &desc {
            if let Some(dir) = inner.nodes.get(parent(k)) {
                inner.allow(dir, READ | WRITE | SEARCH)?;
            }
        }
        for k in desc {
            if let Some(Node { kind: Kind::File(d), .. }) = inner.nodes_mut().remove(&k) {
                if !inner.links.forget(&k) {
                    inner.total_bytes -= d.len() as u64;
                }
            }
        }
        inner.nodes_mut().remove(&real);
        Ok(())
    }

    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        let mut inner = self.inner.write();
        let src = inner.resolve(from, false)?;
        let src_node = inner.nodes.get(&src).cloned().ok_or(FsError::NotFound)?;
        let dst = inner.creatable(to, &self.limits)?;
        if src == dst {
            return Ok(());
        }
        inner.may_change_name(&src)?;
        inner.may_change_name(&dst)?;
        let src_is_dir = matches!(src_node.kind, Kind::Dir);
        if src_is_dir && (dst.starts_with(&format!("{src}/")) || src == "/") {
            return Err(FsError::InvalidArgument);
        }
        match inner.nodes.get(&dst) {
            Some(Node { kind: Kind::Dir, .. }) if !src_is_dir => return Err(FsError::IsADirectory),
            // An empty directory may be replaced by a directory; a full one may not.
            Some(Node { kind: Kind::Dir, .. }) if !inner.descendants_keys(&dst).is_empty() => {
                return Err(FsError::NotEmpty);
            }
            Some(Node { kind: Kind::Dir, .. }) => {}
            Some(_) if src_is_dir => return Err(FsError::NotADirectory),
            Some(Node { kind: Kind::File(d), .. }) => {
                let len = d.len() as u64;
                if !inner.links.forget(&dst) {
                    inner.total_bytes -= len;
                }
            }
            _ => {}
        }
        inner.links.rename(&src, &dst);
        let moved: Vec<String> = if src_is_dir { inner.descendants_keys(&src) } else { Vec::new() };
        inner.nodes_mut().remove(&src);
        inner.nodes_mut().insert(dst.clone(), src_node);
        for k in moved {
            if let Some(n) = inner.nodes_mut().remove(&k) {
                let new_key = format!("{dst}{}", &k[src.len()..]);
                inner.nodes_mut().insert(new_key, n);
            }
        }
        Ok(())
    }

    async fn symlink(&self, target: &str, link: &str) -> FsResult<()> {
        let mut inner = self.inner.write();
        let real = inner.resolve(link, false)?;
        if inner.nodes.contains_key(&real) {
            return Err(FsError::AlreadyExists);
        }
        if !matches!(inner.nodes.get(parent(&real)), Some(Node { kind: Kind::Dir, .. })) {
            return Err(FsError::NotFound);
        }
        inner.may_change_name(&real)?;
        inner.check_count(&self.limits)?;
        inner
            .nodes_mut()
            .insert(real, Node { kind: Kind::Symlink(target.to_string()), mode: 0o777, mtime: SystemTime::now() });
        Ok(())
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        match &self.inner.read().get(path, false)?.0.kind {
            Kind::Symlink(t) => Ok(t.clone()),
            _ => Err(FsError::InvalidArgument),
        }
    }

    async fn access(&self, path: &str, want: u32) -> FsResult<bool> {
        let inner = self.inner.read();
        let node = inner.get(path, true)?.0;
        Ok(if inner.checking() {
            node.mode & (want << 6) != 0
        } else {
            // Root may read and write anything, and run what anyone may.
            want & 1 == 0 || matches!(node.kind, Kind::Dir) || node.mode & 0o111 != 0
        })
    }

    async fn set_mode(&self, path: &str, mode: u32) -> FsResult<()> {
        let mut inner = self.inner.write();
        let real = inner.resolve(path, true)?;
        let node = inner.nodes_mut().get_mut(&real).ok_or(FsError::NotFound)?;
        node.mode = mode & 0o7777;
        inner.mirror(&real);
        Ok(())
    }

    async fn set_mtime(&self, path: &str, mtime: SystemTime) -> FsResult<()> {
        let mut inner = self.inner.write();
        let real = inner.resolve(path, true)?;
        let node = inner.nodes_mut().get_mut(&real).ok_or(FsError::NotFound)?;
        node.mtime = mtime;
        inner.mirror(&real);
        Ok(())
    }

    async fn link_count(&self, path: &str) -> FsResult<u64> {
        let inner = self.inner.read();
        let (node, real) = inner.get(path, true)?;
        Ok(match node.kind {
            Kind::Dir => 2 + inner.children(&real).filter(|(_, n)| matches!(n.kind, Kind::Dir)).count() as u64,
            _ => inner.links.group(&real).map_or(1, |g| g.len() as u64),
        })
    }

    async fn set_symlink_mtime(&self, path: &str, mtime: SystemTime) -> FsResult<()> {
        let mut inner = self.inner.write();
        let real = inner.resolve(path, false)?;
        let node = inner.nodes_mut().get_mut(&real).ok_or(FsError::NotFound)?;
        node.mtime = mtime;
        Ok(())
    }

    async fn canonicalize(&self, path: &str) -> FsResult<String> {
        let inner = self.inner.read();
        let real = inner.resolve(path, true)?;
        if inner.nodes.contains_key(&real) {
            Ok(real)
        } else {
            Err(FsError::NotFound)
        }
    }

    async fn hard_link(&self, target: &str, link: &str) -> FsResult<()> {
        let mut inner = self.inner.write();
        let (node, real) = inner.get(target, true)?;
        let node = match node.kind {
            Kind::File(_) => node.clone(),
            Kind::Dir => return Err(FsError::IsADirectory),
            Kind::Symlink(_) => return Err(FsError::InvalidArgument),
        };
        if inner.resolve(link, false).is_ok_and(|l| inner.nodes.contains_key(&l)) {
            return Err(FsError::AlreadyExists);
        }
        let at = inner.creatable(link, &self.limits)?;
        inner.may_change_name(&at)?;
        inner.check_count(&self.limits)?;
        inner.nodes_mut().insert(at.clone(), node);
        inner.links.link(&real, &at);
        Ok(())
    }

    async fn same_file(&self, a: &str, b: &str) -> FsResult<bool> {
        let inner = self.inner.read();
        let (x, y) = (inner.resolve(a, true)?, inner.resolve(b, true)?);
        if !inner.nodes.contains_key(&x) || !inner.nodes.contains_key(&y) {
            return Err(FsError::NotFound);
        }
        Ok(x == y || inner.links.same(&x, &y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
    }

    #[test]
    fn filesystems_built_alike_share_nothing_a_change_can_reach() {
        block(async {
            let dirs = vec!["/tmp".to_string(), "/home/user".to_string(), "/dev".to_string()];
            let a = MemoryFs::with_dirs(FsLimits::default(), &dirs);
            let b = MemoryFs::with_dirs(FsLimits::default(), &dirs);
            a.write("/tmp/f", b"one").await.unwrap();
            a.mkdir("/home/user/d", false).await.unwrap();
            a.set_mode("/tmp", 0o700).await.unwrap();
            a.remove_dir("/home/user", true).await.unwrap();
            assert!(b.read("/tmp/f").await.is_err());
            assert!(b.metadata("/home/user").await.is_ok());
            assert!(b.metadata("/home/user/d").await.is_err());
            assert_eq!(b.metadata("/tmp").await.unwrap().mode & 0o7777, 0o1777);
            let c = MemoryFs::with_dirs(FsLimits::default(), &dirs);
            assert!(c.read("/tmp/f").await.is_err() && c.metadata("/home/user").await.is_ok());
            b.write("/dev/null", b"x").await.unwrap();
            assert_eq!(c.read("/dev/null").await.unwrap(), b"");
        });
    }

    #[test]
    fn hard_links_share_a_file_and_count_its_bytes_once() {
        block(async {
            let fs = MemoryFs::default();
            fs.write("/a", b"abc").await.unwrap();
            fs.hard_link("/a", "/b").await.unwrap();
            assert_eq!(fs.hard_link("/a", "/b").await, Err(FsError::AlreadyExists));
            assert_eq!(fs.total_bytes(), 3);
            fs.append("/b", b"de").await.unwrap();
            assert_eq!(fs.read("/a").await.unwrap(), b"abcde");
            assert_eq!(fs.total_bytes(), 5);
            assert!(fs.same_file("/a", "/b").await.unwrap());
            fs.write("/c", b"x").await.unwrap();
            // Replacing a linked name by a rename keeps the other's bytes.
            fs.rename("/c", "/a").await.unwrap();
            assert_eq!(fs.read("/b").await.unwrap(), b"abcde");
            assert!(!fs.same_file("/a", "/b").await.unwrap());
            assert_eq!(fs.total_bytes(), 6);
            fs.remove_file("/b").await.unwrap();
            assert_eq!(fs.total_bytes(), 1);
        })
    }

    #[test]
    fn files_dirs_and_symlinks() {
        block(async {
            let fs = MemoryFs::default();
            fs.mkdir("/a/b", true).await.unwrap();
            fs.write("/a/b/f", b"hi").await.unwrap();
            fs.append("/a/b/f", b"\xff").await.unwrap();
            assert_eq!(fs.read("/a/b/f").await.unwrap(), b"hi\xff");
            assert_eq!(fs.total_bytes(), 3);
            fs.symlink("b", "/a/l").await.unwrap();
            assert_eq!(fs.read("/a/l/f").await.unwrap(), b"hi\xff");
            assert!(fs.symlink_metadata("/a/l").await.unwrap().is_symlink());
            assert!(fs.metadata("/a/l").await.unwrap().is_dir());
            let names: Vec<_> = fs.read_dir("/a").await.unwrap().into_iter().map(|e| e.name).collect();
            assert_eq!(names, ["b", "l"]);
            assert_eq!(fs.remove_dir("/a", false).await, Err(FsError::NotEmpty));
            fs.rename("/a/b", "/c").await.unwrap();
            assert_eq!(fs.read("/c/f").await.unwrap(), b"hi\xff");
            assert_eq!(fs.read("/a/l/f").await, Err(FsError::NotFound));
            fs.remove_dir("/c", true).await.unwrap();
            assert_eq!(fs.total_bytes(), 0);
            assert_eq!(fs.write("/nope/x", b"").await, Err(FsError::NotFound));
            fs.symlink("/loop", "/loop").await.unwrap();
            assert_eq!(fs.read("/loop").await, Err(FsError::TooManyLinks));
        });
    }

    #[test]
    fn limits_are_enforced() {
        block(async {
            let fs = MemoryFs::new(FsLimits { max_file_bytes: 4, max_total_bytes: 6, max_files: 4, max_path_depth: 8 });
            assert_eq!(fs.write("/a", b"12345").await, Err(FsError::Limit(FsLimit::FileBytes, 4)));
            fs.write("/a", b"1234").await.unwrap();
            assert_eq!(fs.write("/b", b"123").await, Err(FsError::Limit(FsLimit::TotalBytes, 6)));
            assert_eq!(fs.append("/a", b"5").await, Err(FsError::Limit(FsLimit::FileBytes, 4)));
            assert_eq!(fs.read("/a").await.unwrap(), b"1234");
            fs.mkdir("/d", false).await.unwrap();
            fs.write("/e", b"").await.unwrap();
            // The root, /a, /d and /e: a fifth node is one too many.
            assert_eq!(fs.write("/f", b"").await, Err(FsError::Limit(FsLimit::Files, 4)));
            let roomy = MemoryFs::new(FsLimits { max_path_depth: 8, ..FsLimits::default() });
            let deep = "/x".repeat(9);
            assert_eq!(roomy.mkdir(&deep, true).await, Err(FsError::Limit(FsLimit::PathDepth, 8)));
            assert_eq!(FsError::Limit(FsLimit::FileBytes, 4).to_string(), "File too large (max_file_bytes: 4)");
        });
    }

    #[test]
    fn export_and_replace_contents() {
        block(async {
            let fs = MemoryFs::new(FsLimits { max_file_bytes: 4, max_total_bytes: 6, max_files: 5, max_path_depth: 8 });
            fs.mkdir("/d", false).await.unwrap();
            fs.write("/d/f", b"1234").await.unwrap();
            fs.symlink("d/f", "/l").await.unwrap();
            let tree = fs.export();
            assert_eq!(tree.check(fs.limits()), Ok(4));
            fs.remove_dir("/d", true).await.unwrap();
            fs.replace_contents(tree.clone()).unwrap();
            assert_eq!(fs.read("/l").await.unwrap(), b"1234");
            assert_eq!(fs.total_bytes(), 4);

            let refused = |t: &MemoryTree| fs.replace_contents(t.clone()).unwrap_err();
            let file =
                |n: usize| Node { kind: Kind::File(Arc::new(vec![0; n])), mode: 0o644, mtime: SystemTime::now() };
            let mut t = tree.clone();
            t.nodes.insert("/x/y".into(), file(1));
            assert!(refused(&t).contains("parent"), "{}", refused(&t));
            let mut t = tree.clone();
            t.nodes.insert("/d/../e".into(), file(1));
            assert!(refused(&t).contains("normalized"));
            let mut t = tree.clone();
            t.nodes.insert("/d/big".into(), file(5));
            assert!(refused(&t).contains("max_file_bytes"));
            let mut t = tree.clone();
            t.nodes.insert("/d/g".into(), file(3));
            assert!(refused(&t).contains("max_total_bytes"));
            let mut t = tree.clone();
            t.nodes.insert("/a".into(), file(0));
            t.nodes.insert("/b".into(), file(0));
            assert!(refused(&t).contains("max_files"));
            let mut t = tree.clone();
            t.nodes.remove("/");
            assert!(refused(&t).contains("/ is not"));
            // Nothing refused changed the filesystem.
            assert_eq!(fs.read("/d/f").await.unwrap(), b"1234");
            assert_eq!(fs.export().nodes.len(), 4);
        });
    }
}
