//! `Session.changes/2` and `mark/1`: the markers are
//! `sandbash::session::markers`; here their results become terms.

use crate::session::Session;
use crate::terms::{self, err};
use rustler::{Encoder, Env, ResourceArc, Term};
use sandbash::fs::changes::Changed;

rustler::atoms! {
    created,
    modified,
    deleted,
    path,
    size,
    sha256,
}

/// Remember the filesystem as it is now; returns the marker's id.
#[rustler::nif]
fn fs_mark(session: ResourceArc<Session>) -> u64 {
    let now = session.mem.export();
    session.markers.lock().mark(now)
}

fn changed<'a>(env: Env<'a>, list: &[Changed]) -> Term<'a> {
    list.iter()
        .map(|c| {
            let keys = [path().encode(env), size().encode(env), sha256().encode(env)];
            let values = [c.path.encode(env), c.size.encode(env), c.sha256.encode(env)];
            Term::map_from_arrays(env, &keys, &values).unwrap_or_else(|_| c.path.encode(env))
        })
        .collect::<Vec<Term>>()
        .encode(env)
}

/// `{:ok, %{created, modified, deleted}}` since `marker` (nil: since the previous
/// call, which then becomes the new baseline), under `prefix` (nil: everywhere).
#[rustler::nif(schedule = "DirtyCpu")]
fn fs_changes<'a>(
    env: Env<'a>,
    session: ResourceArc<Session>,
    marker: Option<u64>,
    prefix: Option<String>,
) -> Term<'a> {
    let now = session.mem.export();
    let c = match session.markers.lock().changes(marker, now, prefix.as_deref()) {
        Ok(c) => c,
        Err(m) => return err(env, &m),
    };
    let keys = [created().encode(env), modified().encode(env), deleted().encode(env)];
    let values = [changed(env, &c.created), changed(env, &c.modified), c.deleted.encode(env)];
    match Term::map_from_arrays(env, &keys, &values) {
        Ok(map) => (terms::ok(), map).encode(env),
        Err(_) => err(env, "cannot build the result"),
    }
}
