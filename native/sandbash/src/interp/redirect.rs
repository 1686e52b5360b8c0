//! Redirections: `< > >> <> >| &> n>&m n<&m n>&-`, here-documents and here-strings.
//! `/dev/null`, `/dev/stdin`, `/dev/stdout` and `/dev/stderr` are understood
//! without a filesystem entry.

use super::{Fds, Flow, Slot};
use crate::expand;
use crate::fs::path;
use crate::io::{FileSink, Input, Output};
use crate::state::ShellState;
use brush_parser::ast::{IoFileRedirectKind as K, IoFileRedirectTarget as T, IoRedirect};
use std::sync::Arc;

/// One open descriptor.
enum Fd {
    In(Input),
    Out(Output),
    Both(Input, Output),
}

/// Apply redirects in order; `Ok(None)` after printing an error (status 1).
pub async fn apply(sh: &mut ShellState, redirs: &[IoRedirect], fds: &Fds) -> Result<Option<Fds>, Flow> {
    let mut fds = fds.clone();
    for r in redirs {
        if !apply_one(sh, r, &mut fds).await? {
            return Ok(None);
        }
    }
    Ok(Some(fds))
}

/// Close the files of a whole-operation backend that `applied` opened for a
/// command and `outer` (the descriptors around it) does not hold: each gets
/// what was written to it in one call (see [`FileSink::whole`]). False after
/// printing an error for one that failed.
pub async fn close_files(sh: &ShellState, outer: &Fds, applied: &Fds) -> bool {
    fn sink(o: &Output) -> Option<&Arc<FileSink>> {
        match o {
            Output::File(s) if s.is_whole() => Some(s),
            _ => None,
        }
    }
    // The common case, checked without building anything: no such file.
    let extra_whole = applied.extra.values().any(|s| matches!(s, Slot::Out(o) | Slot::Both(_, o) if sink(o).is_some()));
    if sink(&applied.stdout).is_none() && sink(&applied.stderr).is_none() && !extra_whole {
        return true;
    }
    let outputs = |f: &Fds| {
        let extra: Vec<Output> = f
            .extra
            .values()
            .filter_map(|s| match s {
                Slot::Out(o) | Slot::Both(_, o) => Some(o.clone()),
                Slot::In(_) => None,
            })
            .collect();
        [f.stdout.clone(), f.stderr.clone()].into_iter().chain(extra).collect::<Vec<Output>>()
    };
    let (inner, around) = (outputs(applied), outputs(outer));
    let mut ok = true;
    for (i, o) in inner.iter().enumerate() {
        let Some(s) = sink(o) else { continue };
        let held = around.iter().filter_map(sink).any(|a| Arc::ptr_eq(a, s));
        // One file on two descriptors (`>f 2>&1`) is closed once.
        let seen = inner[..i].iter().filter_map(sink).any(|a| Arc::ptr_eq(a, s));
        if held || seen {
            continue;
        }
        if let Err(e) = s.close().await {
            outer.shell_err(sh.loc(), &format!("{}: {e}", s.path)).await;
            ok = false;
        }
    }
    ok
}

/// The line a compound command with redirections `redirs` ends on: its last
/// redirection's, or past a here-document's body, its delimiter's.
pub fn end_line(cmd: &brush_parser::ast::CompoundCommand, redirs: &[IoRedirect]) -> Option<usize> {
    use brush_parser::ast::SourceLocation;
    let mut end = cmd.location().map(|l| l.end.line)?;
    for r in redirs {
        let line = match r {
            // A subshell expands its here-documents in the child, on its first line.
            IoRedirect::HereDocument(..) if matches!(cmd, brush_parser::ast::CompoundCommand::Subshell(_)) => None,
            // The body's span ends past its delimiter, at the start of the next line.
            IoRedirect::HereDocument(_, doc) => {
                doc.doc.loc.as_ref().map(|l| if l.end.column <= 1 { l.end.line.saturating_sub(1) } else { l.end.line })
            }
            other => other.location().map(|l| l.end.line),
        };
        end = end.max(line.unwrap_or(0));
    }
    Some(end)
}

/// Highest descriptor number a script may use.
const MAX_FD: i32 = 1023;

fn set(fds: &mut Fds, n: i32, fd: Fd) {
    match (n, fd) {
        (0, Fd::In(i) | Fd::Both(i, _)) => fds.stdin = i,
        (1, Fd::Both(_, o)) => fds.stdout = o,
        (2, Fd::Both(_, o)) => fds.stderr = o,
        (0, Fd::Out(_)) => fds.stdin = Input::null(),
        (1, Fd::Out(o)) => fds.stdout = o,
        (2, Fd::Out(o)) => fds.stderr = o,
        (1, Fd::In(_)) => fds.stdout = Output::Closed,
        (2, Fd::In(_)) => fds.stderr = Output::Closed,
        (n, fd) => {
            let slot = match fd {
                Fd::In(i) => Slot::In(i),
                Fd::Out(o) => Slot::Out(o),
                Fd::Both(i, o) => Slot::Both(i, o),
            };
            Arc::make_mut(&mut fds.extra).insert(n, slot);
        }
    }
}

/// Close descriptor `n`.
fn close(fds: &mut Fds, n: i32) {
    match n {
        0 => fds.stdin = Input::null(),
        1 => fds.stdout = Output::Closed,
        2 => fds.stderr = Output::Closed,
        n => {
            Arc::make_mut(&mut fds.extra).remove(&n);
        }
    }
}

async fn apply_one(sh: &mut ShellState, r: &IoRedirect, fds: &mut Fds) -> Result<bool, Flow> {
    match r {
        IoRedirect::File(fd, kind, target) => {
            let default_fd = if matches!(kind, K::Read | K::ReadAndWrite | K::DuplicateInput) { 0 } else { 1 };
            let n = fd.unwrap_or(default_fd);
            match target {
                T::Filename(w) => {
                    // Split and globbed as a word: it must give exactly one.
                    let raw = super::raw_word(sh, w);
                    let mut fields = expand::expand_word(sh, fds, &raw).await?;
                    if fields.len() != 1 {
                        fds.shell_err(sh.loc(), &format!("{raw}: ambiguous redirect")).await;
                        return Ok(false);
                    }
                    let name = fields.pop().unwrap_or_default();
                    match open(sh, fds, &name, kind).await {
                        Some(f) => set(fds, n, f),
                        None => return Ok(false),
                    }
                }
                T::Fd(m) => {
                    dup(fds, n, *m);
                }
                T::Duplicate(w) => {
                    let word = expand::expand_string(sh, fds, &super::raw_word(sh, w)).await?;
                    if word == "-" {
                        close(fds, n);
                    } else {
                        let src = word.strip_suffix('-').unwrap_or(&word);
                        let moving = src.len() < word.len();
                        match src.parse::<i32>() {
                            Ok(m) if (0..=MAX_FD).contains(&m) => {
                                if !dup(fds, n, m) {
                                    fds.shell_err(sh.loc(), &format!("{src}: Bad file descriptor")).await;
                                    return Ok(false);
                                }
                                if moving && m != n {
                                    close(fds, m);
                                }
                            }
                            Ok(_) => {
                                fds.shell_err(sh.loc(), &format!("{src}: Bad file descriptor")).await;
                                return Ok(false);
                            }
                            Err(_) if default_fd == 1 && fd.is_none() => {
                                // `>&file` means `&>file`.
                                match open(sh, fds, &word, &K::Write).await {
                                    Some(Fd::Out(o)) => {
                                        fds.stdout = o.clone();
                                        fds.stderr = o;
                                    }
                                    _ => return Ok(false),
                                }
                            }
                            Err(_) => {
                                fds.shell_err(sh.loc(), &format!("{word}: ambiguous redirect")).await;
                                return Ok(false);
                            }
                        }
                    }
                }
                T::ProcessSubstitution(brush_parser::ast::ProcessSubstitutionKind::Read, sub)
                    if matches!(kind, K::Read) =>
                {
                    // `< <(cmd)`: read cmd's output directly, no file needed.
                    let data = super::procsub::capture(sh, fds, sub).await?;
                    set(fds, fd.unwrap_or(0), Fd::In(Input::from_bytes(data)));
                }
                T::ProcessSubstitution(brush_parser::ast::ProcessSubstitutionKind::Write, sub)
                    if matches!(kind, K::Write | K::Append | K::Clobber)
                        && tokio::runtime::Handle::try_current().is_ok() =>
                {
                    // `> >(cmd)`: cmd reads what is written through a pipe,
                    // running alongside like a background job.
                    let (w, r) = crate::io::pipe();
                    super::jobs::spawn_reader(sh, sub, r, fds)?;
                    set(fds, n, Fd::Out(w));
                }
                T::ProcessSubstitution(..) => {
                    fds.shell_err(
                        sh.loc(),
                        "process substitution as a redirect target is only supported as `< <(cmd)'",
                    )
                    .await;
                    return Ok(false);
                }
            }
        }
        IoRedirect::HereDocument(fd, doc) => {
            let body = if doc.requires_expansion {
                // An expansion error in the body is the shell's own error
                // unless the command is a program (see `simple::redirect_error`).
                expand::expand_heredoc(sh, fds, &doc.doc.value).await?
            } else {
                doc.doc.value.clone()
            };
            set(fds, fd.unwrap_or(0), Fd::In(Input::from_bytes(crate::raw_bytes::encode_vec(body.into_bytes()))));
        }
        IoRedirect::HereString(fd, w) => {
            let mut s = expand::expand_string(sh, fds, &super::raw_word(sh, w)).await?;
            let limit = sh.budget.limits.max_string_bytes;
            if s.len() as u64 > limit {
                return Err(Flow::Stop(crate::limits::Budget::exceeded("max_string_bytes", limit, "here-string size")));
            }
            s.push('\n');
            set(fds, fd.unwrap_or(0), Fd::In(Input::from_bytes(crate::raw_bytes::encode_vec(s.into_bytes()))));
        }
        IoRedirect::OutputAndError(w, append) => {
            let name = expand::expand_string(sh, fds, &super::raw_word(sh, w)).await?;
            let kind = if *append { K::Append } else { K::Write };
            match open(sh, fds, &name, &kind).await {
                Some(Fd::Out(o)) => {
                    fds.stdout = o.clone();
                    fds.stderr = o;
                }
                _ => return Ok(false),
            }
        }
    }
    Ok(true)
}

/// `n>&m`: make n a copy of m; `false` when m is not open.
fn dup(fds: &mut Fds, n: i32, m: i32) -> bool {
    let src = match m {
        0 => Fd::In(fds.stdin.clone()),
        1 => Fd::Out(fds.stdout.clone()),
        2 => Fd::Out(fds.stderr.clone()),
        m => match fds.extra.get(&m) {
            Some(Slot::In(i)) => Fd::In(i.clone()),
            Some(Slot::Out(o)) => Fd::Out(o.clone()),
            Some(Slot::Both(i, o)) => Fd::Both(i.clone(), o.clone()),
            None => return false,
        },
    };
    set(fds, n, src);
    true
}

/// Open a file for a redirect; prints bash's message and gives `None` on failure.
async fn open(sh: &ShellState, fds: &Fds, name: &str, kind: &K) -> Option<Fd> {
    match name {
        "/dev/null" => {
            return Some(if matches!(kind, K::Read) { Fd::In(Input::null()) } else { Fd::Out(Output::Null) });
        }
        "/dev/stdout" => return Some(Fd::Out(fds.stdout.clone())),
        "/dev/stderr" => return Some(Fd::Out(fds.stderr.clone())),
        "/dev/stdin" => return Some(Fd::In(fds.stdin.clone())),
        "/dev/zero" | "/dev/urandom" | "/dev/random" => {
            // Reads stream the device; writes vanish, as on Linux.
            return match kind {
                K::Read => Input::device(name).map(Fd::In),
                _ => Some(Fd::Out(Output::Null)),
            };
        }
        "" => {
            fds.shell_err(sh.loc(), ": No such file or directory").await;
            return None;
        }
        _ => {}
    }
    let p = path::resolve(&sh.cwd, name);
    let fs = &sh.fs;
    let result = match kind {
        // A directory opens for reading (as open(2) allows); reading it
        // fails (EISDIR), which its reader reports.
        K::Read => match fs.open(&p).await {
            Err(crate::fs::FsError::IsADirectory) => Ok(Fd::In(Input::directory())),
            other => other.map(|i| Fd::In(i.opened_from(&p))),
        },
        K::ReadAndWrite => {
            let exists = match fs.metadata(&p).await {
                Ok(m) if m.is_dir() => Err(crate::fs::FsError::IsADirectory),
                // `<>` opens for both: the file must grant both.
                Ok(_) if !(fs.access(&p, 4).await.unwrap_or(true) && fs.access(&p, 2).await.unwrap_or(true)) => {
                    Err(crate::fs::FsError::PermissionDenied)
                }
                Ok(_) => Ok(()),
                Err(crate::fs::FsError::NotFound) => fs.write(&p, b"").await,
                Err(e) => Err(e),
            };
            exists.map(|_| {
                let (i, o) = crate::io::RwFile::open(fs.clone(), p.clone());
                Fd::Both(i, o)
            })
        }
        K::Write | K::Clobber | K::DuplicateOutput => {
            if sh.opts.noclobber && matches!(kind, K::Write) && fs.metadata(&p).await.is_ok_and(|m| m.is_file()) {
                fds.shell_err(sh.loc(), &format!("{name}: cannot overwrite existing file")).await;
                return None;
            }
            // A backend of whole files gets the output in one `write` at close.
            if fs.whole_operations(&p) {
                return Some(Fd::Out(Output::File(Arc::new(FileSink::whole(fs.clone(), p, false)))));
            }
            fs.write(&p, b"").await.map(|_| Fd::Out(Output::File(Arc::new(FileSink::new(fs.clone(), p.clone())))))
        }
        K::Append if fs.whole_operations(&p) => {
            return Some(Fd::Out(Output::File(Arc::new(FileSink::whole(fs.clone(), p, true)))));
        }
        K::Append => {
            fs.append(&p, b"").await.map(|_| Fd::Out(Output::File(Arc::new(FileSink::new(fs.clone(), p.clone())))))
        }
        K::DuplicateInput => fs.read(&p).await.map(|d| Fd::In(Input::from_bytes(d))),
    };
    match result {
        Ok(f) => Some(f),
        Err(e) => {
            fds.shell_err(sh.loc(), &format!("{name}: {e}")).await;
            None
        }
    }
}
