//! `snapshot` and `restore`: like `exec`, they run as a task on the shared
//! runtime (they wait for the session's running exec, never pinning a
//! scheduler) and answer with a `{tag, reply}` message.

use crate::runtime;
use crate::session::Session;
use crate::terms::{self, bin, err};
use rustler::{Binary, Encoder, Env, LocalPid, OwnedEnv, ResourceArc, Term};
use sandbash::SnapshotOptions;

/// Send `{tag, reply}` to `pid` once `work` (run under the session's lock) ends.
pub(crate) fn spawn_locked<'a, T, W, R>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    pid: LocalPid,
    tag: Term<'a>,
    work: W,
    reply: R,
) -> Term<'a>
where
    T: Send + 'static,
    W: FnOnce(&mut sandbash::Bash) -> T + Send + 'static,
    R: for<'b> FnOnce(Env<'b>, T) -> Term<'b> + Send + 'static,
{
    let rt = match runtime::get() {
        Ok(rt) => rt,
        Err(m) => return err(env, &m),
    };
    let mut owned = OwnedEnv::new();
    let tag = owned.save(tag);
    rt.spawn(async move {
        let outcome = crate::guard::guarded(async {
            let mut bash = session.bash.lock().await;
            work(&mut bash)
        })
        .await;
        let _ = owned.send_and_clear(&pid, |e| {
            let msg = match outcome {
                Ok(v) => reply(e, v),
                Err(m) => err(e, &m),
            };
            (tag.load(e), msg)
        });
    });
    terms::ok().encode(env)
}

/// Capture the session's state: replies `{:ok, bytes}` or `{:error, message}`.
#[rustler::nif]
fn snapshot_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    key: Option<Binary<'a>>,
    exclude_filesystem: bool,
    exclude_functions: bool,
    pid: LocalPid,
    tag: Term<'a>,
) -> Term<'a> {
    let opts = SnapshotOptions { key: key.map(|k| k.as_slice().to_vec()), exclude_filesystem, exclude_functions };
    spawn_locked(
        env,
        session,
        pid,
        tag,
        move |bash| bash.snapshot(&opts).map_err(|e| e.to_string()),
        |e, r| match r {
            Ok(bytes) => (terms::ok(), bin(e, &bytes)).encode(e),
            Err(m) => err(e, &m),
        },
    )
}

/// Replace the session's state with a snapshot's: replies `:ok` or `{:error, message}`
/// (the session untouched).
#[rustler::nif]
fn restore_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    bytes: Binary<'a>,
    key: Option<Binary<'a>>,
    pid: LocalPid,
    tag: Term<'a>,
) -> Term<'a> {
    let bytes = bytes.as_slice().to_vec();
    let key = key.map(|k| k.as_slice().to_vec());
    spawn_locked(
        env,
        session,
        pid,
        tag,
        move |bash| bash.restore(&bytes, key.as_deref()).map_err(|e| e.to_string()),
        |e, r| match r {
            Ok(()) => terms::ok().encode(e),
            Err(m) => err(e, &m),
        },
    )
}
