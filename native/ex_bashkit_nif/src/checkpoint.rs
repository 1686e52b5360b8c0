//! Checkpoints of `ExBashkit.Server`: a full snapshot that starts a chain,
//! deltas on top of it (what changed since the last record, see
//! `sandbash::snapshot::delta`), and restoring a chain. The session keeps
//! the base of the chain's last record written; a new record becomes the
//! base only once the caller has stored it (`checkpoint_commit/1`), so a
//! write that failed is never skipped by the next delta.

use crate::session::Session;
use crate::snapshot::spawn_locked;
use crate::terms::{self, bin, err};
use rustler::{Binary, Encoder, Env, LocalPid, ResourceArc, Term};
use sandbash::snapshot::delta::Base;

rustler::atoms! { full, delta }

/// The chain's base and the record waiting to be committed.
#[derive(Default)]
pub struct Checkpoints {
    base: Option<Base>,
    pending: Option<Base>,
}

/// Seal a checkpoint: `{:ok, {:delta, bytes}}` against the committed base,
/// or `{:ok, {:full, bytes}}` when `full` is asked for or there is no base.
/// Either is pending until `checkpoint_commit/1`.
#[rustler::nif]
fn checkpoint_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    key: Option<Binary<'a>>,
    full_asked: bool,
    pid: LocalPid,
    tag: Term<'a>,
) -> Term<'a> {
    let key = key.map(|k| k.as_slice().to_vec());
    let res = session.clone();
    spawn_locked(
        env,
        session,
        pid,
        tag,
        move |bash| {
            let mut c = res.checkpoints.lock();
            let sealed = match (&c.base, full_asked) {
                (Some(base), false) => bash.checkpoint_delta(base, key.as_deref()).map(|(b, n)| (false, b, n)),
                _ => bash.checkpoint_full(key.as_deref()).map(|(b, n)| (true, b, n)),
            };
            match sealed {
                Ok((is_full, bytes, next)) => {
                    c.pending = Some(next);
                    Ok((is_full, bytes))
                }
                Err(e) => Err(e.to_string()),
            }
        },
        |e, r| match r {
            Ok((is_full, bytes)) => {
                let kind = if is_full { full() } else { delta() };
                (terms::ok(), (kind, bin(e, &bytes))).encode(e)
            }
            Err(m) => err(e, &m),
        },
    )
}

/// The pending checkpoint was stored: deltas are taken against it from now on.
#[rustler::nif]
fn checkpoint_commit(env: Env, session: ResourceArc<Session>) -> Term {
    let mut c = session.checkpoints.lock();
    match c.pending.take() {
        Some(b) => {
            c.base = Some(b);
            terms::ok().encode(env)
        }
        None => err(env, "no checkpoint is waiting to be committed"),
    }
}

/// Replace the session's state with the chain `full` + `deltas` (oldest
/// first), checked whole first; its last record becomes the base. Replies
/// `:ok` or `{:error, message}` (the session untouched).
#[rustler::nif]
fn restore_chain_start<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    full_bytes: Binary<'a>,
    deltas: Vec<Binary<'a>>,
    key: Option<Binary<'a>>,
    pid: LocalPid,
    tag: Term<'a>,
) -> Term<'a> {
    let full_bytes = full_bytes.as_slice().to_vec();
    let deltas: Vec<Vec<u8>> = deltas.iter().map(|d| d.as_slice().to_vec()).collect();
    let key = key.map(|k| k.as_slice().to_vec());
    let res = session.clone();
    spawn_locked(
        env,
        session,
        pid,
        tag,
        move |bash| {
            let refs: Vec<&[u8]> = deltas.iter().map(|d| d.as_slice()).collect();
            match bash.restore_chain(&full_bytes, &refs, key.as_deref()) {
                Ok(base) => {
                    let mut c = res.checkpoints.lock();
                    c.base = Some(base);
                    c.pending = None;
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            }
        },
        |e, r: Result<(), String>| match r {
            Ok(()) => terms::ok().encode(e),
            Err(m) => err(e, &m),
        },
    )
}
