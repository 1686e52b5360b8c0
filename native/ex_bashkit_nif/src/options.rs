//! `Session.new/1` options as the Elixir side normalized them. Validation and the
//! `ArgumentError`s naming an option happen in Elixir; here a value the interpreter
//! still refuses becomes `{:error, message}`.

use crate::bridge::Bridge;
use crate::callbacks::{BridgeBuiltins, BridgeFs};
use rustler::{Binary, LocalPid, NifMap};
use sandbash::commands::host::HostCommands;
use sandbash::fs::host::{check_policy, HostFs, HostMode};
use sandbash::fs::overlay::OverlayFs;
use sandbash::fs::{Fs, MemoryFs};
use sandbash::net::Policy;
use sandbash::{BashBuilder, CommandPolicy, FsLimits, Limits};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(NifMap)]
pub struct NewOpts<'a> {
    pub env: Vec<(String, String)>,
    pub cwd: String,
    pub username: String,
    pub hostname: String,
    pub files: Vec<(String, Binary<'a>)>,
    pub limits: Vec<(String, u64)>,
    /// Names of the custom builtins (the functions stay in Elixir).
    pub builtins: Vec<String>,
    /// Mount points of the `:virtual_fs` backends, in the broker's order.
    pub virtual_fs: Vec<String>,
    pub builtin_timeout_ms: u64,
    pub max_reply_bytes: u64,
    /// Host directories: `(vfs_path, host_path, "read_only" | "read_write" | "overlay")`.
    pub mounts: Vec<(String, String, String)>,
    /// `None`: the sensitive-path denylist applies; `Some`: only these prefixes may be mounted.
    pub allowed_mount_paths: Option<Vec<String>>,
    /// `nil`: no network; `:all` arrives as `allow_net_all`; else URL patterns.
    pub allow_net: Option<Vec<String>>,
    pub allow_net_all: bool,
    pub block_private_ips: bool,
    /// Record exec'd scripts in the history.
    pub history: bool,
    /// Share this session's filesystem (a workspace).
    pub workspace: Option<rustler::ResourceArc<crate::session::Session>>,
    /// With `workspace`: the only mounts this session may use (`None`: all).
    pub allowed_mounts: Option<Vec<String>>,
    /// Command names of the Python interpreter; empty: off.
    pub python: Vec<String>,
    /// The CPython runtime's path (`None`: Monty).
    pub python_runtime: Option<String>,
    /// `nil`: every command; `{"only" | "except", names}`: the restriction.
    pub commands: Option<(String, Vec<String>)>,
}

/// The callback bridge, when the session has builtins or virtual-fs mounts.
pub fn bridge(o: &NewOpts) -> Option<Arc<Bridge>> {
    (!o.builtins.is_empty() || !o.virtual_fs.is_empty()).then(|| Bridge::new(o.builtin_timeout_ms))
}

/// The builder the options describe.
pub fn builder(o: &NewOpts, bridge: Option<&Arc<Bridge>>) -> Result<BashBuilder, String> {
    let mut b = sandbash::Bash::builder().cwd(o.cwd.clone()).username(o.username.clone()).hostname(o.hostname.clone());
    for (k, v) in &o.env {
        b = b.env(k.clone(), v.clone());
    }
    for (path, content) in &o.files {
        b = b.file(path.clone(), content.as_slice().to_vec());
    }
    if let Some(br) = bridge {
        if !o.builtins.is_empty() {
            let handler = Arc::new(BridgeBuiltins(br.clone()));
            b = b.host_commands(HostCommands::new(o.builtins.clone(), handler, o.max_reply_bytes));
        }
        for (i, mount) in o.virtual_fs.iter().enumerate() {
            let index = u32::try_from(i).map_err(|_| "too many virtual_fs mounts".to_string())?;
            b = b.mount(mount.clone(), Arc::new(BridgeFs::new(br.clone(), index)));
        }
    }
    let policy = if o.allow_net_all {
        Policy::all()
    } else {
        match &o.allow_net {
            Some(patterns) => Policy::allow(patterns)?,
            None => Policy::none(),
        }
    };
    b = b.network(policy.with_private_ips(!o.block_private_ips)).history(o.history).expand_aliases(true);
    b = b.python(o.python.clone());
    if let (Some(path), false) = (&o.python_runtime, o.python.is_empty()) {
        b = b.python_runtime(path.clone());
    }
    b = b.commands(match &o.commands {
        None => CommandPolicy::All,
        Some((kind, names)) if kind == "only" => CommandPolicy::Only(names.iter().cloned().collect()),
        Some((kind, names)) if kind == "except" => CommandPolicy::Except(names.iter().cloned().collect()),
        Some((kind, _)) => return Err(format!("commands: unknown restriction {kind}")),
    });
    let (limits, fs_limits) = limits(&o.limits)?;
    for (vfs, host, mode) in &o.mounts {
        b = b.mount(vfs.clone(), host_mount(o, host, mode, &fs_limits)?);
    }
    Ok(b.limits(limits).fs_limits(fs_limits))
}

/// One `:mounts` entry's filesystem, after the mount policy let it through.
fn host_mount(o: &NewOpts, host: &str, mode: &str, fs_limits: &FsLimits) -> Result<Arc<dyn Fs>, String> {
    let allowed: Option<Vec<PathBuf>> = o.allowed_mount_paths.as_ref().map(|v| v.iter().map(PathBuf::from).collect());
    let root = check_policy(Path::new(host), allowed.as_deref())?;
    let deny = allowed.is_none();
    let open = |m| HostFs::open(&root, m, fs_limits.max_file_bytes, deny);
    Ok(match mode {
        "read_only" => Arc::new(open(HostMode::ReadOnly)?),
        "read_write" => Arc::new(open(HostMode::ReadWrite)?),
        "overlay" => {
            let lower: Arc<dyn Fs> = Arc::new(open(HostMode::ReadOnly)?);
            Arc::new(OverlayFs::new(lower, Arc::new(MemoryFs::new(fs_limits.clone()))))
        }
        other => return Err(format!("unknown mount mode {other}")),
    })
}

/// The interpreter's and the filesystem's limits, by the names of the `:limits` option.
fn limits(pairs: &[(String, u64)]) -> Result<(Limits, FsLimits), String> {
    let mut l = Limits::default();
    let mut f = FsLimits::default();
    for (k, v) in pairs {
        sandbash::limits::set_limit(&mut l, &mut f, k, *v)?;
    }
    Ok((l, f))
}

/// `Session.exec/3` options as the Elixir side normalized them.
#[derive(NifMap)]
pub struct ExecOpts<'a> {
    pub stdin: Binary<'a>,
    pub timeout_ms: Option<u64>,
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    /// The broker serving this exec's callbacks (sessions with callbacks only).
    pub broker: Option<LocalPid>,
}
