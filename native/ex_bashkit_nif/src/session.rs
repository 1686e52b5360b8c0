//! The session resource and the NIFs that create it and run scripts in it.
//!
//! `exec_start` returns at once: the script runs as a task on the shared runtime
//! and its outcome arrives at the caller as `{ref, outcome}`. A session's tokio
//! mutex runs its execs one at a time without blocking any thread while waiting.

use crate::options::{builder, NewOpts};
use crate::runtime;
use crate::terms::{self, bin, err};
use rustler::{Binary, Encoder, Env, LocalPid, OwnedEnv, ResourceArc, Term};
use sandbash::fs::Fs;
use sandbash::{Bash, Error, ExecOptions};
use std::sync::Arc;

pub struct Session {
    pub bash: Arc<tokio::sync::Mutex<Bash>>,
    /// The session's filesystem, reachable without the lock (file API while a script runs).
    pub fs: Arc<dyn Fs>,
}

#[rustler::resource_impl]
impl rustler::Resource for Session {}

// The mutexes are never observed half-updated across a caught panic: the
// interpreter restores or replaces its state, and the fs keeps its own invariants.
impl std::panic::RefUnwindSafe for Session {}

#[rustler::nif]
fn session_new<'a>(env: Env<'a>, opts: NewOpts<'a>) -> Term<'a> {
    let built = builder(&opts).and_then(|b| b.build().map_err(|e| e.to_string()));
    match built {
        Ok(bash) => {
            let fs = bash.fs();
            let res = ResourceArc::new(Session { bash: Arc::new(tokio::sync::Mutex::new(bash)), fs });
            (terms::ok(), res).encode(env)
        }
        Err(m) => err(env, &m),
    }
}

/// Start `script` in `session`; the outcome is sent to `pid` as `{tag, outcome}`
/// where outcome is `{:ok, {stdout, stderr, code}}`, or `{:error, message, partial}`.
#[rustler::nif]
fn exec_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    script: Binary<'a>,
    stdin: Binary<'a>,
    pid: LocalPid,
    tag: Term<'a>,
) -> Term<'a> {
    let rt = match runtime::get() {
        Ok(rt) => rt,
        Err(m) => return err(env, &m),
    };
    // Scripts are text to the parser; stray non-UTF-8 bytes in the source become U+FFFD.
    let script = String::from_utf8_lossy(script.as_slice()).into_owned();
    let opts = ExecOptions { stdin: stdin.as_slice().to_vec(), ..Default::default() };
    let mut owned = OwnedEnv::new();
    let tag = owned.save(tag);
    let bash = session.bash.clone();
    rt.spawn(async move {
        let run = async move {
            let mut guard = bash.lock_owned().await;
            guard.exec_with(&script, opts).await
        };
        let outcome = crate::guard::guarded(run).await;
        // The caller may be gone; then there is nobody to tell.
        let _ = owned.send_and_clear(&pid, |e| {
            let tag = tag.load(e);
            let reply = match &outcome {
                Ok(Ok(r)) => (terms::ok(), terms::result(e, r)).encode(e),
                Ok(Err(Error::Stopped { reason, partial })) => {
                    (terms::error(), reason.to_string(), terms::result(e, partial)).encode(e)
                }
                Ok(Err(other)) => (terms::error(), other.to_string(), bin(e, b"")).encode(e),
                Err(m) => (terms::error(), m.as_str(), bin(e, b"")).encode(e),
            };
            (tag, reply)
        });
    });
    terms::ok().encode(env)
}
