//! The OS calls of a `python` program (`open()`, `pathlib`, `os.*`) served on
//! the session's filesystem and the shell's exported variables. Relative
//! paths resolve against the shell's cwd; errors are raised as the
//! `OSError` subclasses CPython raises, with its `[Errno N] text: 'path'` wording.

use crate::commands::CommandContext;
use crate::fs::{FileType, FsError};
use monty_types::{
    dir_stat, file_stat, symlink_stat, DictPairs, ExcType, ExtFunctionResult, FileMode, MontyException,
    MontyFileHandle, MontyObject, OsFunctionCall, StringRepr,
};
use std::time::UNIX_EPOCH;

/// The errno CPython shows for a filesystem error.
pub fn errno(e: &FsError) -> i32 {
    match e {
        FsError::NotFound => 2,
        FsError::PermissionDenied | FsError::MountNotAllowed(_) => 13,
        FsError::AlreadyExists => 17,
        FsError::NotADirectory => 20,
        FsError::IsADirectory => 21,
        FsError::InvalidArgument => 22,
        FsError::NoSpace | FsError::Limit(..) => 28,
        FsError::ReadOnly => 30,
        FsError::NameTooLong => 36,
        FsError::NotEmpty => 39,
        FsError::TooManyLinks => 40,
        FsError::NotSupported => 95,
        FsError::Io => 5,
    }
}

fn os_error(e: &FsError, path: &str) -> ExtFunctionResult {
    let t = match e {
        FsError::NotFound => ExcType::FileNotFoundError,
        FsError::PermissionDenied | FsError::ReadOnly | FsError::MountNotAllowed(_) => ExcType::PermissionError,
        FsError::AlreadyExists => ExcType::FileExistsError,
        FsError::NotADirectory => ExcType::NotADirectoryError,
        FsError::IsADirectory => ExcType::IsADirectoryError,
        _ => ExcType::OSError,
    };
    let msg = format!("[Errno {}] {e}: {}", errno(e), StringRepr(path));
    ExtFunctionResult::Error(MontyException::new(t, Some(msg)))
}

fn ok(v: MontyObject) -> ExtFunctionResult {
    ExtFunctionResult::Return(v)
}

fn mtime(m: &crate::fs::Metadata) -> f64 {
    m.mtime.duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0)
}

/// Serve one OS call.
pub async fn serve(ctx: &CommandContext<'_>, env: &[(String, String)], call: OsFunctionCall) -> ExtFunctionResult {
    let fs = ctx.fs;
    let abs = |p: &str| ctx.resolve(p);
    match call {
        OsFunctionCall::Exists(p) => ok(MontyObject::Bool(fs.metadata(&abs(&p)).await.is_ok())),
        OsFunctionCall::IsFile(p) => ok(MontyObject::Bool(fs.metadata(&abs(&p)).await.is_ok_and(|m| m.is_file()))),
        OsFunctionCall::IsDir(p) => ok(MontyObject::Bool(fs.metadata(&abs(&p)).await.is_ok_and(|m| m.is_dir()))),
        OsFunctionCall::IsSymlink(p) => {
            ok(MontyObject::Bool(fs.symlink_metadata(&abs(&p)).await.is_ok_and(|m| m.is_symlink())))
        }
        OsFunctionCall::ReadText(p) => match fs.read(&abs(&p)).await {
            Ok(data) => match String::from_utf8(data) {
                Ok(s) => ok(MontyObject::String(s)),
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let msg = format!(
                        "'utf-8' codec can't decode byte 0x{:02x} in position {at}: invalid start byte",
                        e.as_bytes()[at]
                    );
                    ExtFunctionResult::Error(MontyException::new(ExcType::UnicodeDecodeError, Some(msg)))
                }
            },
            Err(e) => os_error(&e, &p),
        },
        OsFunctionCall::ReadBytes(p) => match fs.read(&abs(&p)).await {
            Ok(data) => ok(MontyObject::Bytes(data)),
            Err(e) => os_error(&e, &p),
        },
        OsFunctionCall::Stat(p) => match fs.metadata(&abs(&p)).await {
            Ok(m) => ok(match m.file_type {
                FileType::Dir => dir_stat(i64::from(m.mode), mtime(&m)),
                FileType::Symlink => symlink_stat(i64::from(m.mode), mtime(&m)),
                FileType::File => file_stat(i64::from(m.mode), i64::try_from(m.size).unwrap_or(i64::MAX), mtime(&m)),
            }),
            Err(e) => os_error(&e, &p),
        },
        OsFunctionCall::Iterdir(p) => match fs.read_dir(&abs(&p)).await {
            Ok(entries) => {
                let base = p.trim_end_matches('/');
                let items = entries
                    .into_iter()
                    .map(|e| {
                        let child = if base.is_empty() || base == "." { e.name } else { format!("{base}/{}", e.name) };
                        MontyObject::Path(child)
                    })
                    .collect();
                ok(MontyObject::List(items))
            }
            Err(e) => os_error(&e, &p),
        },
        OsFunctionCall::Resolve(p) => match fs.canonicalize(&abs(&p)).await {
            Ok(c) => ok(MontyObject::Path(c)),
            // Like CPython's non-strict resolve: a missing path resolves lexically.
            Err(_) => ok(MontyObject::Path(abs(&p))),
        },
        OsFunctionCall::Absolute(p) => ok(MontyObject::Path(abs(&p))),
        OsFunctionCall::WriteText(a) => {
            let n = a.data.chars().count();
            write_result(fs.write(&abs(&a.path), a.data.as_bytes()).await, &a.path, n)
        }
        OsFunctionCall::AppendText(a) => {
            let n = a.data.chars().count();
            write_result(fs.append(&abs(&a.path), a.data.as_bytes()).await, &a.path, n)
        }
        OsFunctionCall::WriteBytes(a) => write_result(fs.write(&abs(&a.path), &a.data).await, &a.path, a.data.len()),
        OsFunctionCall::AppendBytes(a) => write_result(fs.append(&abs(&a.path), &a.data).await, &a.path, a.data.len()),
        OsFunctionCall::Open(a) => {
            let path = abs(&a.path);
            let r = match a.mode {
                FileMode::Read(_) | FileMode::ReadUpdate(_) => match fs.metadata(&path).await {
                    Ok(m) if m.is_dir() => Err(FsError::IsADirectory),
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                },
                FileMode::Write(_) | FileMode::WriteUpdate(_) => fs.write(&path, b"").await,
                FileMode::Append(_) | FileMode::AppendUpdate(_) => fs.append(&path, b"").await,
            };
            match r {
                Ok(()) => {
                    ok(MontyObject::FileHandle(MontyFileHandle { path: a.path.to_string(), mode: a.mode, position: 0 }))
                }
                Err(e) => os_error(&e, &a.path),
            }
        }
        OsFunctionCall::Mkdir(a) => {
            let path = abs(&a.path);
            if let Ok(m) = fs.metadata(&path).await {
                if a.exist_ok && m.is_dir() {
                    return ok(MontyObject::None);
                }
                return os_error(&FsError::AlreadyExists, &a.path);
            }
            match fs.mkdir(&path, a.parents).await {
                Ok(()) => ok(MontyObject::None),
                Err(e) => os_error(&e, &a.path),
            }
        }
        OsFunctionCall::Unlink(p) => match fs.symlink_metadata(&abs(&p)).await {
            Ok(m) if m.is_dir() => os_error(&FsError::IsADirectory, &p),
            _ => match fs.remove_file(&abs(&p)).await {
                Ok(()) => ok(MontyObject::None),
                Err(e) => os_error(&e, &p),
            },
        },
        OsFunctionCall::Rmdir(p) => match fs.remove_dir(&abs(&p), false).await {
            Ok(()) => ok(MontyObject::None),
            Err(e) => os_error(&e, &p),
        },
        OsFunctionCall::Rename(a) => match fs.rename(&abs(&a.src), &abs(&a.dst)).await {
            Ok(()) => ok(MontyObject::Path(a.dst.to_string())),
            Err(e) => os_error(&e, &a.src),
        },
        OsFunctionCall::Getenv(a) => match env.iter().find(|(k, _)| *k == a.key) {
            Some((_, v)) => ok(MontyObject::String(v.clone())),
            None => ok(a.default),
        },
        OsFunctionCall::GetEnviron => ok(MontyObject::Dict(DictPairs::from(
            env.iter()
                .map(|(k, v)| (MontyObject::String(k.clone()), MontyObject::String(v.clone())))
                .collect::<Vec<_>>(),
        ))),
        other @ (OsFunctionCall::DateToday | OsFunctionCall::DateTimeNow(_)) => {
            ExtFunctionResult::Error(other.on_no_handler())
        }
    }
}

fn write_result(r: Result<(), FsError>, path: &str, n: usize) -> ExtFunctionResult {
    match r {
        Ok(()) => ok(MontyObject::Int(i64::try_from(n).unwrap_or(i64::MAX))),
        Err(e) => os_error(&e, path),
    }
}
