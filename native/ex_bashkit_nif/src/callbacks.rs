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
pub struct BridgeFs {
    pub bridge: Arc<Bridge>,
    pub mount: u32,
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

    /// Metadata; a backend without `stat` shows its root as a directory and
    /// every other path as a file (so `cat /mnt/x` works with `read` alone).
    async fn stat(&self, path: &str) -> FsResult<Metadata> {
        match self.op(stat(), path, Extra::None).await {
            Ok(Reply::Stat(m)) => Ok(m),
            Ok(_) => Err(FsError::Io),
            Err(FsError::NotSupported) => Ok(Metadata {
                file_type: if path == "/" { FileType::Dir } else { FileType::File },
                size: 0,
                mode: if path == "/" { 0o755 } else { 0o644 },
                mtime: SystemTime::UNIX_EPOCH,
            }),
            Err(e) => Err(e),
        }
    }

    async fn list(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        match self.op(list(), path, Extra::None).await? {
            Reply::Entries(mut v) => {
                v.sort_by(|a, b| a.name.cmp(&b.name));
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
        match self.op(read(), path, Extra::None).await? {
            Reply::Data(d) => Ok(d),
            _ => Err(FsError::Io),
        }
    }
    async fn write(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.done(write(), path, Extra::Data(data)).await
    }
    async fn append(&self, path: &str, data: &[u8]) -> FsResult<()> {
        self.done(append(), path, Extra::Data(data)).await
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
        self.done(remove(), path, Extra::Flag(false)).await
    }
    async fn remove_dir(&self, path: &str, recursive: bool) -> FsResult<()> {
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
}
