//! `Session.changes/2` and `mark/1`: what the scripts changed in the in-memory
//! filesystem since a marker, or since the previous `changes/2` call. A marker
//! is an export of the filesystem (paths and shared file data, no copies);
//! the diff hashes only the files that changed.

use crate::session::Session;
use crate::terms::{self, err};
use rustler::{Encoder, Env, ResourceArc, Term};
use sandbash::fs::changes::{diff, Changed};
use sandbash::fs::memory::MemoryTree;
use std::collections::BTreeMap;

rustler::atoms! {
    created,
    modified,
    deleted,
    path,
    size,
    sha256,
}

/// Markers kept per session; the oldest is dropped past this.
const MAX_MARKERS: usize = 32;

pub struct Markers {
    /// What the previous `changes/2` without a marker compared against.
    pub last: MemoryTree,
    next: u64,
    saved: BTreeMap<u64, MemoryTree>,
}

impl Markers {
    pub fn new(now: MemoryTree) -> parking_lot::Mutex<Self> {
        parking_lot::Mutex::new(Markers { last: now, next: 1, saved: BTreeMap::new() })
    }
}

/// Remember the filesystem as it is now; returns the marker's id.
#[rustler::nif]
fn fs_mark(session: ResourceArc<Session>) -> u64 {
    let now = session.mem.export();
    let mut m = session.markers.lock();
    let id = m.next;
    m.next += 1;
    m.saved.insert(id, now);
    while m.saved.len() > MAX_MARKERS {
        m.saved.pop_first();
    }
    id
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
    let c = {
        let mut m = session.markers.lock();
        match marker {
            Some(id) => match m.saved.get(&id) {
                Some(before) => diff(before, &now, prefix.as_deref()),
                None => return err(env, &format!("unknown marker {id} (markers are kept for the last {MAX_MARKERS})")),
            },
            None => {
                let c = diff(&m.last, &now, prefix.as_deref());
                m.last = now;
                c
            }
        }
    };
    let keys = [created().encode(env), modified().encode(env), deleted().encode(env)];
    let values = [changed(env, &c.created), changed(env, &c.modified), c.deleted.encode(env)];
    match Term::map_from_arrays(env, &keys, &values) {
        Ok(map) => (terms::ok(), map).encode(env),
        Err(_) => err(env, "cannot build the result"),
    }
}
