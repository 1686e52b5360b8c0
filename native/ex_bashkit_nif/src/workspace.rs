//! History and aliases from Elixir (`Session.history/2`, `aliases/1`,
//! `put_alias/3`, `delete_alias/2`). History is read without the session's
//! lock; aliases are part of the shell state, so those calls wait for a
//! running exec to finish (on a dirty scheduler, never a normal one).

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

#[rustler::nif(schedule = "DirtyIo")]
fn aliases_list(env: Env, session: ResourceArc<Session>) -> Term {
    match crate::runtime::get() {
        Ok(rt) => rt.block_on(session.bash.lock()).aliases().encode(env),
        Err(m) => err(env, &m),
    }
}

/// Define (`value` a string) or remove (`value` nil) an alias.
#[rustler::nif(schedule = "DirtyIo")]
fn alias_set(env: Env, session: ResourceArc<Session>, name: String, value: Option<String>) -> Term {
    let rt = match crate::runtime::get() {
        Ok(rt) => rt,
        Err(m) => return err(env, &m),
    };
    match rt.block_on(session.bash.lock()).set_alias(&name, value.as_deref()) {
        Ok(()) => terms::ok().encode(env),
        Err(e) => err(env, &e.to_string()),
    }
}
