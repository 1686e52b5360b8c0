//! The session's file API (`read_file`, `write_file`, ...). Paths are resolved
//! from `/`, independent of the script's cwd, and go straight to the session's
//! filesystem without its exec lock, so they also work while a script runs.

use crate::session::Session;
use crate::terms::{self, bin, err};
use rustler::{Binary, Encoder, Env, ResourceArc, Term};
use sandbash::fs::{path, FileType, FsError};
use std::future::Future;

/// Drive one filesystem call to completion. The in-memory fs never waits; a
/// backend that does (host mounts, Elixir backends) gets the shared runtime's timers.
/// Run a file call of the application: not held to the sandbox user's
/// permissions (the future runs on this thread).
fn run<F: Future>(f: F) -> Result<F::Output, String> {
    let rt = crate::runtime::get()?;
    Ok(sandbash::fs::permissions::as_application(|| rt.block_on(f)))
}

fn abs(p: &str) -> String {
    path::resolve("/", p)
}

fn kind(t: FileType) -> rustler::Atom {
    match t {
        FileType::File => terms::file(),
        FileType::Dir => terms::dir(),
        FileType::Symlink => terms::symlink(),
    }
}

/// `{:error, "PATH: reason"}` for a failed call, `f(value)` for a good one.
fn reply<'a, T>(
    env: Env<'a>,
    p: &str,
    r: Result<Result<T, FsError>, String>,
    f: impl FnOnce(T) -> Term<'a>,
) -> Term<'a> {
    match r {
        Ok(Ok(v)) => f(v),
        Ok(Err(e)) => err(env, &format!("{p}: {e}")),
        Err(m) => err(env, &m),
    }
}

#[rustler::nif(schedule = "DirtyIo")]
fn read_file<'a>(env: Env<'a>, s: ResourceArc<Session>, p: String) -> Term<'a> {
    let p = abs(&p);
    let r = run(s.fs.read(&p));
    reply(env, &p, r, |data| (terms::ok(), bin(env, &data)).encode(env))
}

/// Write `data`, creating missing parent directories first.
#[rustler::nif(schedule = "DirtyIo")]
fn write_file<'a>(env: Env<'a>, s: ResourceArc<Session>, p: String, data: Binary<'a>) -> Term<'a> {
    let p = abs(&p);
    let r = run(async {
        let parent = path::parent(&p);
        if s.fs.metadata(parent).await.is_err() {
            s.fs.mkdir(parent, true).await?;
        }
        s.fs.write(&p, data.as_slice()).await
    });
    reply(env, &p, r, |()| terms::ok().encode(env))
}

#[rustler::nif]
fn list_dir<'a>(env: Env<'a>, s: ResourceArc<Session>, p: String) -> Term<'a> {
    let p = abs(&p);
    let r = run(s.fs.read_dir(&p));
    reply(env, &p, r, |mut entries| {
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let list: Vec<(String, rustler::Atom)> = entries.into_iter().map(|e| (e.name, kind(e.file_type))).collect();
        (terms::ok(), list).encode(env)
    })
}

#[rustler::nif]
fn mkdir<'a>(env: Env<'a>, s: ResourceArc<Session>, p: String, parents: bool) -> Term<'a> {
    let p = abs(&p);
    let r = run(s.fs.mkdir(&p, parents));
    reply(env, &p, r, |()| terms::ok().encode(env))
}

/// Remove a file, symlink or (empty, or with `recursive`) directory.
#[rustler::nif(schedule = "DirtyIo")]
fn remove<'a>(env: Env<'a>, s: ResourceArc<Session>, p: String, recursive: bool) -> Term<'a> {
    let p = abs(&p);
    let r = run(async {
        if s.fs.symlink_metadata(&p).await?.is_dir() {
            s.fs.remove_dir(&p, recursive).await
        } else {
            s.fs.remove_file(&p).await
        }
    });
    reply(env, &p, r, |()| terms::ok().encode(env))
}

#[rustler::nif]
fn rename<'a>(env: Env<'a>, s: ResourceArc<Session>, from: String, to: String) -> Term<'a> {
    let (from, to) = (abs(&from), abs(&to));
    let r = run(s.fs.rename(&from, &to));
    reply(env, &from, r, |()| terms::ok().encode(env))
}

/// `{:ok, %{type: kind, size: bytes}}` of the path itself (a symlink is reported as one).
#[rustler::nif]
fn stat<'a>(env: Env<'a>, s: ResourceArc<Session>, p: String) -> Term<'a> {
    let p = abs(&p);
    let r = run(s.fs.symlink_metadata(&p));
    reply(env, &p, r, |m| {
        let map = rustler::Term::map_new(env);
        let map = map
            .map_put(terms::r#type(), kind(m.file_type))
            .and_then(|m2| m2.map_put(terms::size(), m.size))
            .unwrap_or(map);
        (terms::ok(), map).encode(env)
    })
}
