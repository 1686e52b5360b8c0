//! `callback_reply/3`: the broker hands a callback's answer back to the waiting
//! script. The broker already normalized and size-checked it; this decodes the
//! few shapes it sends and checks them again, so a malformed term becomes a
//! failed command, never a panic:
//!
//!   {:done, stdout, stderr, status}     a builtin's result
//!   {:data, binary} | :ok               read / write, append, mkdir, remove, rename
//!   {:stat, :file | :dir, size, mode, mtime_seconds}
//!   {:entries, [{name, :file | :dir}]}
//!   {:errno, atom} | {:failed, message}

use crate::bridge::Reply;
use crate::session::Session;
use rustler::{Atom, Binary, Decoder, Env, ResourceArc, Term};
use sandbash::fs::{DirEntry, FileType, FsError, Metadata};
use std::time::{Duration, SystemTime};

rustler::atoms! {
    ok,
    stale,
    done,
    data,
    stat,
    entries,
    errno,
    failed,
    file,
    dir,
    enoent,
    eacces,
    eperm,
    enotdir,
    eisdir,
    eexist,
    enotempty,
    enotsup,
    erofs,
    einval,
    enospc,
    eio,
}

#[rustler::nif]
fn callback_reply<'a>(env: Env<'a>, session: ResourceArc<Session>, id: u64, reply: Term<'a>) -> Atom {
    let Some(bridge) = session.bridge.as_ref() else {
        return stale();
    };
    let decoded = decode(reply).unwrap_or_else(|| Reply::Failed("malformed reply".into()));
    // An exec parked for this answer goes on here, in this call.
    if crate::parked::answer(bridge, env, id, decoded) {
        ok()
    } else {
        stale()
    }
}

fn decode(t: Term) -> Option<Reply> {
    if let Ok(a) = t.decode::<Atom>() {
        return (a == ok()).then_some(Reply::Ok);
    }
    let items = rustler::types::tuple::get_tuple(t).ok()?;
    let tag: Atom = items.first()?.decode().ok()?;
    let arg = |i: usize| items.get(i).copied();
    if tag == done() && items.len() == 4 {
        let status: i64 = arg(3)?.decode().ok()?;
        return Some(Reply::Done(bytes(arg(1)?)?, bytes(arg(2)?)?, (status & 0xff) as i32));
    }
    if tag == data() && items.len() == 2 {
        return Some(Reply::Data(bytes(arg(1)?)?));
    }
    if tag == stat() && items.len() == 5 {
        let file_type = kind(arg(1)?)?;
        let size: u64 = arg(2)?.decode().ok()?;
        let mode: u32 = arg(3)?.decode().ok()?;
        let secs: i64 = arg(4)?.decode().ok()?;
        let mtime = if secs >= 0 {
            SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(secs.unsigned_abs()))?
        } else {
            SystemTime::UNIX_EPOCH.checked_sub(Duration::from_secs(secs.unsigned_abs()))?
        };
        return Some(Reply::Stat(Metadata { file_type, size, mode: mode & 0o7777, mtime }));
    }
    if tag == entries() && items.len() == 2 {
        let list: Vec<(Term, Term)> = arg(1)?.decode().ok()?;
        let mut out = Vec::with_capacity(list.len());
        for (name, k) in list {
            let name = String::from_utf8(bytes(name)?).ok()?;
            if !valid_name(&name) {
                return Some(Reply::Failed(format!("invalid entry name {name:?}")));
            }
            out.push(DirEntry { name, file_type: kind(k)? });
        }
        return Some(Reply::Entries(out));
    }
    if tag == errno() && items.len() == 2 {
        return Some(Reply::Errno(fs_error(arg(1)?.decode().ok()?)));
    }
    if tag == failed() && items.len() == 2 {
        return Some(Reply::Failed(String::from_utf8_lossy(&bytes(arg(1)?)?).into_owned()));
    }
    None
}

/// A listing entry must name one node of that directory: a walk over `..` or
/// `a/b` would never end.
fn valid_name(n: &str) -> bool {
    !n.is_empty() && n != "." && n != ".." && !n.contains('/') && !n.contains('\0')
}

fn bytes(t: Term) -> Option<Vec<u8>> {
    Binary::decode(t).ok().map(|b| b.as_slice().to_vec())
}

fn kind(t: Term) -> Option<FileType> {
    let a: Atom = t.decode().ok()?;
    if a == file() {
        Some(FileType::File)
    } else if a == dir() {
        Some(FileType::Dir)
    } else {
        None
    }
}

fn fs_error(a: Atom) -> FsError {
    let table = [
        (enoent(), FsError::NotFound),
        (eacces(), FsError::PermissionDenied),
        (eperm(), FsError::PermissionDenied),
        (enotdir(), FsError::NotADirectory),
        (eisdir(), FsError::IsADirectory),
        (eexist(), FsError::AlreadyExists),
        (enotempty(), FsError::NotEmpty),
        (enotsup(), FsError::NotSupported),
        (erofs(), FsError::ReadOnly),
        (einval(), FsError::InvalidArgument),
        (enospc(), FsError::NoSpace),
    ];
    table.into_iter().find(|(k, _)| *k == a).map(|(_, e)| e).unwrap_or(FsError::Io)
}

/// Calls waiting for a broker's answer (tests check that none is left behind).
#[rustler::nif]
fn bridge_pending(session: ResourceArc<Session>) -> usize {
    session.bridge.as_ref().map_or(0, |b| b.pending_count())
}

/// Answers that resumed a parked exec in the answering call, without a
/// runtime thread (tests check that the short round trip is the one taken).
#[rustler::nif]
fn bridge_resumed(session: ResourceArc<Session>) -> u64 {
    session.bridge.as_ref().map_or(0, |b| b.resumed_count())
}
