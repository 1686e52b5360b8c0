//! The interpreter's hooks implemented over the [`Bridge`]: custom builtins
//! (`:builtins`) as a [`HostHandler`], and each `:virtual_fs` mount as an [`Fs`].
//! Requests are `{:builtin, name, args, stdin, env, cwd}` and
//! `{:fs, mount_index, op, path, extra}`.

use crate::bridge::{Bridge, Reply};
use crate::terms::bin;
use async_trait::async_trait;
use rustler::{Encoder, Env, Term};
use sandbash::commands::host::{HostCall, HostHandler, HostReply};
use sandbash::fs::{DirEntry, FileType, Fs, FsError, FsResult, Metadata};
use std::sync::Arc;
use std::time::SystemTime;

rustler::atoms! {
    builtin,
    fs,
    read,
    write,
    append,
    mkdir,
    remove,
    list,
    stat,
    rename,
    nil,
}

/// Custom builtins: every call goes to the application's function of that name.
pub struct BridgeBuiltins(pub Arc<Bridge>);

#[async_trait]
impl HostHandler for BridgeBuiltins {
    async fn call(&self, call: HostCall) -> HostReply {
        let HostCall { name, args, stdin, env, cwd } = call;
        let request = request_fn(|e| {
            let args: Vec<Term> = args.iter().map(|a| a.encode(e)).collect();
            let env_map =
                Term::map_from_pairs(e, &env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>())
                    .unwrap_or_else(|_| rustler::types::map::map_new(e));
            (builtin(), name.as_str(), args, bin(e, &stdin), env_map, cwd.as_str()).encode(e)
        });
        match self.0.call(request).await {
            Ok(Reply::Done(stdout, stderr, status)) => HostReply { stdout, stderr, status },
            Ok(Reply::Failed(m)) => failed(&name, &m),
            Ok(other) => failed(&name, &format!("unexpected reply {other:?}")),
            Err(m) => failed(&name, &m),
        }
    }
}

/// Pins a closure to the higher-ranked signature `Bridge::call` wants (closure
/// annotations alone do not make it `for<'a>`).
fn request_fn<F: for<'a> FnOnce(Env<'a>) -> Term<'a>>(f: F) -> F {
    f
}

fn failed(name: &str, msg: &str) -> HostReply {
    HostReply { stderr: format!("{name}: {msg}\n").into_bytes(), status: 1, ..Default::default() }
}

/// One `:virtual_fs` mount. Paths arrive rooted at the mount.
///
/// A backend may keep whole files only (ex_bashkit's contract): a
/// redirection hands it its output in one `write` (`>`) or `append` (`>>`)
/// when it is closed ([`Fs::whole_operations`]), `mkdir -p` is one recursive
/// call, an `append` it does not support is a read and a `write`, and its
/// root is a directory without asking it.
pub struct BridgeFs {
    pub bridge: Arc<Bridge>,
    pub mount: u32,
    /// Writes of redirections dropped before their close, sent before the
    /// next operation (in order) or at the exec's end.
    deferred: parking_lot::Mutex<Vec<(String, Vec<u8>, bool)>>,
    /// Deferred writes that failed, reported at [`Fs::sync`].
    failed: parking_lot::Mutex<Vec<(String, FsError)>>,
    /// The types of entries the backend listed: what a backend that cannot
    /// `stat` (nor `read` or `list` the entry) has said about them.
    listed: parking_lot::Mutex<std::collections::HashMap<String, FileType>>,
}

/// Most listed entry types remembered at once.
const MAX_LISTED: usize = 10_000;

impl BridgeFs {
    pub fn new(bridge: Arc<Bridge>, mount: u32) -> Self {
        BridgeFs { bridge, mount, deferred: Default::default(), failed: Default::default(), listed: Default::default() }
    }
}

/// What an operation carries besides its path.
enum Extra<'d> {
    None,
    Data(&'d [u8]),
    Path(&'d str),
    /// `recursive` of `mkdir -p` / `rm -r`.
    Flag(bool),
}

impl BridgeFs {
    async fn op(&self, op: rustler::Atom, path: &str, extra: Extra<'_>) -> FsResult<Reply> {
        let mount = self.mount;
        let request = request_fn(move |e| {
            let extra = match extra {
                Extra::None => nil().encode(e),
                Extra::Data(d) => bin(e, d),
                Extra::Path(p) => p.encode(e),
                Extra::Flag(b) => b.encode(e),
            };
            (fs(), mount, op, path, extra).encode(e)
        });
        match self.bridge.call(request).await {
            Ok(Reply::Errno(err)) => Err(err),
            Ok(Reply::Failed(_)) => Err(FsError::Io),
            Ok(r) => Ok(r),
            Err(_) if !crate::runtime::on_runtime_thread() => Err(FsError::NotSupported),
            Err(_) => Err(FsError::Io),
        }
    }

    async fn done(&self, op: rustler::Atom, path: &str, extra: Extra<'_>) -> FsResult<()> {
        match self.op(op, path, extra).await? {
            Reply::Ok => Ok(()),
            _ => Err(FsError::Io),
        }
    }

    /// Send the deferred writes, oldest first, before any other operation.
    async fn flush(&self) {
        loop {
            let pending = std::mem::take(&mut *self.deferred.lock());
            if pending.is_empty() {
                return;
            }
            for (path, data, append) in pending {
                let r =
                    if append { self.append_whole(&path, &data).await } else { self.write_whole(&path, &data).await };
                if let Err(e) = r {
                    self.failed.lock().push((path, e));
                }
            }
        }
    }

    async fn write_whole(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.done(write(), path, Extra::Data(data)).await
    }

    /// `append`, or for a backend without it, the file read and written again.
    async fn append_whole(&self, path: &str, data: &[u8]) -> FsResult<()> {
        match self.done(append(), path, Extra::Data(data)).await {
            Err(FsError::NotSupported) => {}
            r => return r,
        }
        let mut whole = match self.op(read(), path, Extra::None).await {
            Ok(Reply::Data(d)) => d,
            Ok(_) => return Err(FsError::Io),
            Err(FsError::NotFound) => Vec::new(),
            Err(e) => return Err(e),
        };
        whole.extend_from_slice(data);
        self.write_whole(path, &whole).await
    }

    /// Metadata. The mount's root is a directory without asking the backend;
    /// one without `stat` has it derived from `read` and `list` on the
    /// Elixir side (`ExBashkit.Session.Callback`).
    async fn stat(&self, path: &str) -> FsResult<Metadata> {
        if path == "/" {
            return Ok(Metadata { file_type: FileType::Dir, size: 0, mode: 0o755, mtime: SystemTime::UNIX_EPOCH });
        }
        self.flush().await;
        match self.op(stat(), path, Extra::None).await {
            Ok(Reply::Stat(m)) => Ok(m),
            Ok(_) => Err(FsError::Io),
            Err(FsError::NotSupported) => match self.listed.lock().get(path) {
                Some(&file_type) => {
                    let mode = if file_type == FileType::Dir { 0o755 } else { 0o644 };
                    Ok(Metadata { file_type, size: 0, mode, mtime: SystemTime::UNIX_EPOCH })
                }
                None => Err(FsError::NotSupported),
            },
            Err(e) => Err(e),
        }
    }

    async fn list(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        self.flush().await;
        match self.op(list(), path, Extra::None).await? {
            Reply::Entries(mut v) => {
                v.sort_by(|a, b| a.name.cmp(&b.name));
                let mut listed = self.listed.lock();
                if listed.len() + v.len() > MAX_LISTED {
                    listed.clear();
                }
                for e in v.iter().take(MAX_LISTED) {
                    let child = if path == "/" { format!("/{}", e.name) } else { format!("{path}/{}", e.name) };
                    listed.insert(child, e.file_type);
                }
                Ok(v)
            }
            _ => Err(FsError::Io),
        }
    }

    /// `rm -r`: children first, depth-first with an explicit stack (the mount's
    /// depth limit bounds the paths, the entry count bounds the walk).
    async fn remove_tree(&self, root: &str) -> FsResult<()> {
        const MAX_ENTRIES: usize = 1_000_000;
        let mut order = vec![root.to_string()];
        let mut i = 0;
        while i < order.len() {
            if order.len() > MAX_ENTRIES {
                return Err(FsError::NoSpace);
            }
            let dir = order[i].clone();
            i += 1;
            for e in self.list(&dir).await? {
                let child = if dir == "/" { format!("/{}", e.name) } else { format!("{dir}/{}", e.name) };
                if e.file_type == FileType::Dir {
                    order.push(child);
                } else {
                    self.done(remove(), &child, Extra::Flag(false)).await?;
                }
            }
        }
        for dir in order.iter().rev() {
            self.done(remove(), dir, Extra::Flag(false)).await?;
        }
        Ok(())
    }
}

#[async_trait]
impl Fs for BridgeFs {
    async fn read(&self, path: &str) -> FsResult<Vec<u8>> {
        self.flush().await;
        match self.op(read(), path, Extra::None).await? {
            Reply::Data(d) => Ok(d),
            _ => Err(FsError::Io),
        }
    }
    async fn write(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.flush().await;
        self.write_whole(path, data).await
    }
    async fn append(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.flush().await;
        self.append_whole(path, data).await
    }
    async fn metadata(&self, path: &str) -> FsResult<Metadata> {
        self.stat(path).await
    }
    async fn symlink_metadata(&self, path: &str) -> FsResult<Metadata> {
        self.stat(path).await
    }
    async fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        self.list(path).await
    }
    async fn mkdir(&self, path: &str, parents: bool) -> FsResult<()> {
        self.flush().await;
        if path == "/" {
            return if parents { Ok(()) } else { Err(FsError::AlreadyExists) };
        }
        if !parents {
            return self.done(mkdir(), path, Extra::Flag(false)).await;
        }
        // `mkdir -p` goes to the backend as one recursive call; one that does
        // not support it gets each missing ancestor, an existing directory being fine.
        match self.done(mkdir(), path, Extra::Flag(true)).await {
            Err(FsError::NotSupported) => {}
            r => return r,
        }
        let mut at = String::new();
        for part in path.split('/').filter(|p| !p.is_empty()) {
            at.push('/');
            at.push_str(part);
            match self.done(mkdir(), &at, Extra::Flag(false)).await {
                Ok(()) => {}
                Err(FsError::AlreadyExists) if self.stat(&at).await?.is_dir() => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
    async fn remove_file(&self, path: &str) -> FsResult<()> {
        self.flush().await;
        self.done(remove(), path, Extra::Flag(false)).await
    }
    async fn remove_dir(&self, path: &str, recursive: bool) -> FsResult<()> {
        self.flush().await;
        if recursive {
            // One recursive call; a backend without it gets the tree walked.
            return match self.done(remove(), path, Extra::Flag(true)).await {
                Err(FsError::NotSupported) => self.remove_tree(path).await,
                r => r,
            };
        }
        self.done(remove(), path, Extra::Flag(false)).await
    }
    async fn rename(&self, from: &str, to: &str) -> FsResult<()> {
        self.flush().await;
        self.done(rename(), from, Extra::Path(to)).await
    }
    async fn symlink(&self, _target: &str, _link: &str) -> FsResult<()> {
        Err(FsError::NotSupported)
    }
    async fn read_link(&self, path: &str) -> FsResult<String> {
        self.stat(path).await?;
        Err(FsError::InvalidArgument)
    }
    async fn set_mode(&self, _path: &str, _mode: u32) -> FsResult<()> {
        Err(FsError::NotSupported)
    }
    async fn set_mtime(&self, path: &str, _mtime: SystemTime) -> FsResult<()> {
        // Times belong to the backend; `touch` of an existing path succeeds.
        self.stat(path).await.map(|_| ())
    }
    async fn canonicalize(&self, path: &str) -> FsResult<String> {
        self.stat(path).await.map(|_| path.to_string())
    }
    fn whole_operations(&self, _path: &str) -> bool {
        true
    }
    fn defer_write(&self, path: &str, data: Vec<u8>, append: bool) {
        self.deferred.lock().push((path.to_string(), data, append));
    }
    async fn sync(&self) -> Vec<(String, FsError)> {
        self.flush().await;
        std::mem::take(&mut *self.failed.lock())
    }
}
