//! History and aliases from Elixir (`Session.history/2`, `aliases/1`,
//! `put_alias/3`, `delete_alias/2`). Both are read and changed through
//! handles held outside the session's exec lock, so none of these calls waits
//! for a running script: an alias set while one runs reaches the shell when
//! its next exec starts (see `sandbash::session::AliasesHandle`).

use crate::session::Session;
use crate::terms::{self, err};
use rustler::{Encoder, Env, ResourceArc, Term};

/// `[{number, line, status | nil}]`, oldest first.
#[rustler::nif]
fn history_list(env: Env, session: ResourceArc<Session>) -> Term {
    let Some(h) = session.history.as_ref() else {
        return Vec::<Term>::new().encode(env);
    };
    let h = h.lock();
    let nil = rustler::types::atom::nil().encode(env);
    h.entries()
        .map(|e| (e.number, e.line.as_str(), e.status.map_or(nil, |s| s.encode(env))).encode(env))
        .collect::<Vec<Term>>()
        .encode(env)
}

#[rustler::nif]
fn history_clear(session: ResourceArc<Session>) -> rustler::Atom {
    if let Some(h) = session.history.as_ref() {
        h.lock().clear();
    }
    terms::ok()
}

#[rustler::nif]
fn aliases_list(env: Env, session: ResourceArc<Session>) -> Term {
    session.aliases.list().encode(env)
}

/// Define (`value` a string) or remove (`value` nil) an alias.
#[rustler::nif]
fn alias_set(env: Env, session: ResourceArc<Session>, name: String, value: Option<String>) -> Term {
    match session.aliases.set(&name, value.as_deref()) {
        Ok(()) => terms::ok().encode(env),
        Err(m) => err(env, &m),
    }
}
