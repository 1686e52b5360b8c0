//! The imports of `wasi_snapshot_preview1`, each a thin adapter from the
//! guest's integers to a method of [`Host`]: pointers become checked offsets
//! into its memory, the answer becomes the errno it returns.

use super::abi;
use super::host::{guest_path, in_pycache, put, put_u32, put_u64, range, Fd, Host, Os, Res, Stop, MODULE, ROOT_FD};
use wasmtime::{Caller, Linker};

/// Run `f` on the guest's memory and the host, and turn its answer into the
/// errno the guest gets (a stop also ends the guest, at the caller's trap).
fn call<O: Os>(c: &mut Caller<'_, Host<O>>, f: impl FnOnce(&mut [u8], &mut Host<O>) -> Res) -> wasmtime::Result<i32> {
    let Some(mem) = c.data().memory else { return Ok(i32::from(abi::FAULT)) };
    let (m, h) = mem.data_and_store_mut(c);
    let r = f(m, h);
    if let Some(stop) = h.stop.take() {
        return Err(wasmtime::Error::new(stop));
    }
    Ok(i32::from(r.err().unwrap_or(abi::SUCCESS)))
}

fn u(v: i32) -> u32 {
    v as u32
}

/// Define every function of `wasi_snapshot_preview1` in `linker`.
pub fn add_to_linker<O: Os + Send + 'static>(linker: &mut Linker<Host<O>>) -> wasmtime::Result<()> {
    type C<'a, O> = Caller<'a, Host<O>>;
    linker.func_wrap(MODULE, "args_sizes_get", |mut c: C<'_, O>, n: i32, s: i32| {
        call(&mut c, |m, h| Host::<O>::sizes(&h.args, m, u(n), u(s)))
    })?;
    linker.func_wrap(MODULE, "args_get", |mut c: C<'_, O>, p: i32, b: i32| {
        call(&mut c, |m, h| Host::<O>::strings(&h.args, m, u(p), u(b)))
    })?;
    linker.func_wrap(MODULE, "environ_sizes_get", |mut c: C<'_, O>, n: i32, s: i32| {
        call(&mut c, |m, h| Host::<O>::sizes(&h.env, m, u(n), u(s)))
    })?;
    linker.func_wrap(MODULE, "environ_get", |mut c: C<'_, O>, p: i32, b: i32| {
        call(&mut c, |m, h| Host::<O>::strings(&h.env, m, u(p), u(b)))
    })?;
    linker.func_wrap(MODULE, "clock_res_get", |mut c: C<'_, O>, _id: i32, out: i32| {
        call(&mut c, |m, _| put_u64(m, u(out), 1_000))
    })?;
    linker.func_wrap(MODULE, "clock_time_get", |mut c: C<'_, O>, id: i32, _prec: i64, out: i32| {
        call(&mut c, |m, h| put_u64(m, u(out), h.now_ns(u(id))))
    })?;
    linker.func_wrap(MODULE, "fd_advise", |mut c: C<'_, O>, fd: i32, _o: i64, _l: i64, _a: i32| {
        call(&mut c, |_, h| h.fd(u(fd)).map(|_| ()))
    })?;
    linker.func_wrap(MODULE, "fd_allocate", |mut c: C<'_, O>, fd: i32, off: i64, len: i64| {
        call(&mut c, |_, h| {
            let end = (off as u64).checked_add(len as u64).ok_or(abi::FBIG)?;
            let size = h.file(u(fd))?.data.len() as u64;
            if end > size {
                h.fd_filestat_set_size(u(fd), end)?;
            }
            Ok(())
        })
    })?;
    linker.func_wrap(MODULE, "fd_close", |mut c: C<'_, O>, fd: i32| call(&mut c, |_, h| h.fd_close(u(fd))))?;
    linker.func_wrap(MODULE, "fd_datasync", |mut c: C<'_, O>, fd: i32| call(&mut c, |_, h| h.sync(u(fd))))?;
    linker.func_wrap(MODULE, "fd_sync", |mut c: C<'_, O>, fd: i32| call(&mut c, |_, h| h.sync(u(fd))))?;
    linker.func_wrap(MODULE, "fd_fdstat_get", |mut c: C<'_, O>, fd: i32, out: i32| {
        call(&mut c, |m, h| h.fd_fdstat_get(m, u(fd), u(out)))
    })?;
    linker.func_wrap(MODULE, "fd_fdstat_set_flags", |mut c: C<'_, O>, fd: i32, flags: i32| {
        call(&mut c, |_, h| h.fd_fdstat_set_flags(u(fd), flags as u16))
    })?;
    linker.func_wrap(MODULE, "fd_filestat_get", |mut c: C<'_, O>, fd: i32, out: i32| {
        call(&mut c, |m, h| h.fd_filestat_get(m, u(fd), u(out)))
    })?;
    linker.func_wrap(MODULE, "fd_filestat_set_size", |mut c: C<'_, O>, fd: i32, size: i64| {
        call(&mut c, |_, h| h.fd_filestat_set_size(u(fd), size as u64))
    })?;
    linker.func_wrap(MODULE, "fd_filestat_set_times", |mut c: C<'_, O>, fd: i32, _a: i64, mt: i64, fl: i32| {
        call(&mut c, |_, h| {
            let path = match h.fd(u(fd))? {
                Fd::File(f) => f.path.clone(),
                Fd::Dir { path, .. } => path.clone(),
                _ => return Ok(()),
            };
            h.set_times(&path, mt as u64, fl as u16)
        })
    })?;
    linker.func_wrap(MODULE, "fd_pread", |mut c: C<'_, O>, fd: i32, iovs: i32, n: i32, off: i64, out: i32| {
        call(&mut c, |m, h| h.fd_read(m, u(fd), u(iovs), u(n), u(out), Some(off as u64)))
    })?;
    linker.func_wrap(MODULE, "fd_pwrite", |mut c: C<'_, O>, fd: i32, iovs: i32, n: i32, off: i64, out: i32| {
        call(&mut c, |m, h| h.fd_write(m, u(fd), u(iovs), u(n), u(out), Some(off as u64)))
    })?;
    linker.func_wrap(MODULE, "fd_read", |mut c: C<'_, O>, fd: i32, iovs: i32, n: i32, out: i32| {
        call(&mut c, |m, h| h.fd_read(m, u(fd), u(iovs), u(n), u(out), None))
    })?;
    linker.func_wrap(MODULE, "fd_write", |mut c: C<'_, O>, fd: i32, iovs: i32, n: i32, out: i32| {
        call(&mut c, |m, h| h.fd_write(m, u(fd), u(iovs), u(n), u(out), None))
    })?;
    linker.func_wrap(MODULE, "fd_prestat_get", |mut c: C<'_, O>, fd: i32, out: i32| {
        call(&mut c, |m, _| {
            if u(fd) != ROOT_FD {
                return Err(abi::BADF);
            }
            put_u32(m, u(out), 0)?;
            put_u32(m, u(out) + 4, 1)
        })
    })?;
    linker.func_wrap(MODULE, "fd_prestat_dir_name", |mut c: C<'_, O>, fd: i32, p: i32, len: i32| {
        call(&mut c, |m, _| {
            if u(fd) != ROOT_FD {
                return Err(abi::BADF);
            }
            if u(len) < 1 {
                return Err(abi::NAMETOOLONG);
            }
            put(m, u(p), b"/")
        })
    })?;
    linker.func_wrap(MODULE, "fd_readdir", |mut c: C<'_, O>, fd: i32, buf: i32, len: i32, cookie: i64, out: i32| {
        call(&mut c, |m, h| h.fd_readdir(m, u(fd), u(buf), u(len), cookie as u64, u(out)))
    })?;
    linker.func_wrap(MODULE, "fd_seek", |mut c: C<'_, O>, fd: i32, off: i64, whence: i32, out: i32| {
        call(&mut c, |m, h| h.fd_seek(m, u(fd), off, whence as u8, u(out)))
    })?;
    linker.func_wrap(MODULE, "fd_tell", |mut c: C<'_, O>, fd: i32, out: i32| {
        call(&mut c, |m, h| {
            let pos = h.file(u(fd))?.pos;
            put_u64(m, u(out), pos)
        })
    })?;
    linker.func_wrap(MODULE, "path_create_directory", |mut c: C<'_, O>, fd: i32, p: i32, l: i32| {
        call(&mut c, |m, h| {
            let path = h.resolve(u(fd), &guest_path(m, u(p), u(l))?)?;
            if in_pycache(&path) || path == super::host::PYCACHE {
                return Ok(());
            }
            h.flush_all()?;
            h.os.mkdir(&path)
        })
    })?;
    linker.func_wrap(MODULE, "path_filestat_get", |mut c: C<'_, O>, fd: i32, fl: i32, p: i32, l: i32, out: i32| {
        call(&mut c, |m, h| {
            let path = h.resolve(u(fd), &guest_path(m, u(p), u(l))?)?;
            let s = h.stat_path(&path, u(fl) & abi::LOOKUP_SYMLINK_FOLLOW != 0)?;
            put(m, u(out), &s.bytes())
        })
    })?;
    linker.func_wrap(
        MODULE,
        "path_filestat_set_times",
        |mut c: C<'_, O>, fd: i32, _fl: i32, p: i32, l: i32, _a: i64, mt: i64, fst: i32| {
            call(&mut c, |m, h| {
                let path = h.resolve(u(fd), &guest_path(m, u(p), u(l))?)?;
                h.set_times(&path, mt as u64, fst as u16)
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "path_link",
        |mut c: C<'_, O>, ofd: i32, _fl: i32, op: i32, ol: i32, nfd: i32, np: i32, nl: i32| {
            call(&mut c, |m, h| {
                let from = h.resolve(u(ofd), &guest_path(m, u(op), u(ol))?)?;
                let to = h.resolve(u(nfd), &guest_path(m, u(np), u(nl))?)?;
                h.flush_all()?;
                h.os.link(&from, &to)
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "path_open",
        |mut c: C<'_, O>, fd: i32, dfl: i32, p: i32, l: i32, of: i32, rb: i64, _ri: i64, ff: i32, out: i32| {
            call(&mut c, |m, h| {
                let path = guest_path(m, u(p), u(l))?;
                let follow = u(dfl) & abi::LOOKUP_SYMLINK_FOLLOW != 0;
                h.path_open(m, u(fd), follow, path, of as u16, rb as u64, ff as u16, u(out))
            })
        },
    )?;
    linker.func_wrap(
        MODULE,
        "path_readlink",
        |mut c: C<'_, O>, fd: i32, p: i32, l: i32, buf: i32, len: i32, out: i32| {
            call(&mut c, |m, h| {
                let path = h.resolve(u(fd), &guest_path(m, u(p), u(l))?)?;
                h.flush_all()?;
                let target = h.os.readlink(&path)?;
                let n = target.len().min(u(len) as usize);
                put(m, u(buf), &target.as_bytes()[..n])?;
                put_u32(m, u(out), n as u32)
            })
        },
    )?;
    linker.func_wrap(MODULE, "path_remove_directory", |mut c: C<'_, O>, fd: i32, p: i32, l: i32| {
        call(&mut c, |m, h| {
            let path = h.resolve(u(fd), &guest_path(m, u(p), u(l))?)?;
            h.flush_all()?;
            h.os.rmdir(&path)
        })
    })?;
    linker.func_wrap(
        MODULE,
        "path_rename",
        |mut c: C<'_, O>, ofd: i32, op: i32, ol: i32, nfd: i32, np: i32, nl: i32| {
            call(&mut c, |m, h| {
                let from = h.resolve(u(ofd), &guest_path(m, u(op), u(ol))?)?;
                let to = h.resolve(u(nfd), &guest_path(m, u(np), u(nl))?)?;
                if in_pycache(&from) || in_pycache(&to) {
                    return if in_pycache(&from) && in_pycache(&to) {
                        h.pycache_move(&from, Some(&to))
                    } else {
                        Err(abi::XDEV)
                    };
                }
                h.flush_all()?;
                h.os.rename(&from, &to)?;
                // Descriptors open on the old name now write to the new one.
                for f in h.fds.iter_mut().flatten() {
                    if let Fd::File(f) = f {
                        if f.path == from {
                            f.path.clone_from(&to);
                        }
                    }
                }
                Ok(())
            })
        },
    )?;
    linker.func_wrap(MODULE, "path_symlink", |mut c: C<'_, O>, op: i32, ol: i32, fd: i32, np: i32, nl: i32| {
        call(&mut c, |m, h| {
            let target = guest_path(m, u(op), u(ol))?;
            let link = h.resolve(u(fd), &guest_path(m, u(np), u(nl))?)?;
            h.flush_all()?;
            h.os.symlink(&target, &link)
        })
    })?;
    linker.func_wrap(MODULE, "path_unlink_file", |mut c: C<'_, O>, fd: i32, p: i32, l: i32| {
        call(&mut c, |m, h| {
            let path = h.resolve(u(fd), &guest_path(m, u(p), u(l))?)?;
            if in_pycache(&path) {
                return h.pycache_move(&path, None);
            }
            h.flush_all()?;
            h.os.unlink(&path)
        })
    })?;
    linker.func_wrap(MODULE, "poll_oneoff", |mut c: C<'_, O>, s: i32, e: i32, n: i32, out: i32| {
        call(&mut c, |m, h| h.poll_oneoff(m, u(s), u(e), u(n), u(out)))
    })?;
    linker.func_wrap(MODULE, "proc_exit", |mut c: C<'_, O>, code: i32| -> wasmtime::Result<()> {
        let _ = c.data_mut().flush_all();
        Err(wasmtime::Error::new(Stop::Exit(code)))
    })?;
    linker.func_wrap(MODULE, "sched_yield", |_c: C<'_, O>| -> i32 { 0 })?;
    linker.func_wrap(MODULE, "random_get", |mut c: C<'_, O>, buf: i32, len: i32| {
        call(&mut c, |m, h| {
            let r = range(m, u(buf), u(len) as usize)?;
            for chunk in m[r].chunks_mut(8) {
                let v = h.random().to_le_bytes();
                chunk.copy_from_slice(&v[..chunk.len()]);
            }
            Ok(())
        })
    })?;
    for name in ["sock_accept", "sock_recv", "sock_send", "sock_shutdown"] {
        linker.func_new(MODULE, name, sock_type(name, linker.engine()), |_c, _args, results| {
            results[0] = wasmtime::Val::I32(i32::from(abi::NOTSUP));
            Ok(())
        })?;
    }
    Ok(())
}

/// The signatures of the socket calls, which all fail: the network is closed.
fn sock_type(name: &str, engine: &wasmtime::Engine) -> wasmtime::FuncType {
    use wasmtime::ValType::I32;
    let params = match name {
        "sock_accept" => vec![I32, I32, I32],
        "sock_recv" => vec![I32, I32, I32, I32, I32, I32],
        "sock_send" => vec![I32, I32, I32, I32, I32],
        _ => vec![I32, I32],
    };
    wasmtime::FuncType::new(engine, params, [I32])
}
