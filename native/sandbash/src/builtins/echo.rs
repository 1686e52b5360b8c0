//! `echo` and `printf`.

use crate::interp::simple::{run_utility, store, Assigned, AssignedValue};
use crate::interp::{Fds, Res};
use crate::io::{CaptureBuf, Output, OutputCounter};
use crate::state::ShellState;

/// `echo [-neE] args`: options only while every letter is one of n, e, E.
/// `xpg_echo` turns escapes on by default.
pub async fn echo(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let xpg_echo = sh.opts.xpg_echo;
    let (mut newline, mut escapes) = (true, xpg_echo);
    let mut i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E')) {
            for c in a[1..].chars() {
                match c {
                    'n' => newline = false,
                    'e' => escapes = true,
                    _ => escapes = false,
                }
            }
            i += 1;
        } else {
            break;
        }
    }
    let mut out: Vec<u8> = Vec::new();
    for (k, a) in argv[i..].iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        if escapes {
            // \c ends all output, newline included.
            if let Some(pos) = stop_escape(a) {
                out.extend(crate::expand::ansi_c::decode_bytes(&a[..pos], true));
                newline = false;
                return write(sh, fds, out, newline).await;
            }
            out.extend(crate::expand::ansi_c::decode_bytes(a, true));
        } else {
            out.extend_from_slice(a.as_bytes());
        }
    }
    write(sh, fds, out, newline).await
}

/// Where a `\c` escape stands (not the `c` after an escaped backslash).
fn stop_escape(a: &str) -> Option<usize> {
    let b = a.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'c' {
                return Some(i);
            }
            i += 1;
        }
        i += 1;
    }
    None
}

/// A closed pipe ends the stage, as SIGPIPE would (status 141).
/// The position for a write error is looked up only when one happens.
async fn write(sh: &ShellState, fds: &Fds, mut data: Vec<u8>, newline: bool) -> Res {
    if newline {
        data.push(b'\n');
    }
    let data = crate::raw_bytes::encode_vec(data);
    match fds.stdout.write(&data).await {
        Ok(()) => Ok(0),
        Err(crate::io::IoError::BrokenPipe) => Err(crate::interp::Flow::Exit(141)),
        Err(e) => {
            fds.shell_err(sh.loc(), &format!("echo: write error: {e}")).await;
            Ok(1)
        }
    }
}

/// `printf [-v var] format args`: the formatting itself is the `printf` utility's;
/// with `-v` its output is captured into the variable.
/// `printf -v`'s text made here when nothing can go wrong on the way (no
/// option-like format, no time conversion, no bad argument, within the
/// string limit): running the utility for it, with a captured stdout, was
/// most of what a `printf -v` in a loop cost. `None`: the utility runs.
fn format_plainly(sh: &ShellState, args: &[String]) -> Option<(Vec<u8>, i32)> {
    let (fmt, rest) = args.split_first()?;
    if fmt.starts_with('-') || fmt.contains("%(") {
        return None;
    }
    let max_out = usize::try_from(sh.budget.limits.max_string_bytes).unwrap_or(usize::MAX);
    let r = crate::commands::format_printf(&crate::raw_bytes::encode(fmt), rest, 0, None, max_out);
    (r.errors.is_empty() && !r.overflow && r.out.len() <= max_out).then_some((r.out, r.status))
}

pub async fn printf(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    // A field as wide as a number in the format or the arguments: a large one
    // is not built on a caller's thread.
    if crate::limits::inline::active() {
        let widest = argv[1..].iter().flat_map(|a| a.split(|c: char| !c.is_ascii_digit())).map(str::len).max();
        crate::limits::inline::leave_above(widest.unwrap_or(0), 4).await;
    }
    let Some(cmd) = crate::commands::default_registry().get("printf").cloned() else {
        fds.shell_err(sh.loc(), "printf: not available").await;
        return Ok(127);
    };
    // `-v var` or `-vvar`, then an optional `--`.
    let (var, rest) = match argv.get(1).map(String::as_str) {
        Some("-v") => match argv.get(2) {
            Some(v) => (v.clone(), 3),
            None => {
                fds.shell_err(sh.loc(), "printf: -v: option requires an argument").await;
                let _ = fds.stderr.write(b"printf: usage: printf [-v var] format [arguments]\n").await;
                return Ok(2);
            }
        },
        Some(a) if a.starts_with("-v") => (a[2..].to_string(), 2),
        _ => return run_utility(sh, cmd.as_ref(), argv, fds).await,
    };
    let rest = if argv.get(rest).is_some_and(|a| a == "--") { rest + 1 } else { rest };
    // The name is checked before anything is formatted (status 2, as a usage error).
    let well_formed = match var.split_once('[') {
        Some((n, i)) => crate::builtins::valid_name(n) && i.ends_with(']'),
        None => crate::builtins::valid_name(&var),
    };
    if !well_formed {
        fds.shell_err(sh.loc(), &format!("printf: `{var}': not a valid identifier")).await;
        return Ok(2);
    }
    let (mut bytes, status) = match format_plainly(sh, &argv[rest..]) {
        Some(made) => made,
        None => {
            let counter = OutputCounter::new(sh.budget.limits.max_string_bytes);
            let buf = CaptureBuf::new(counter);
            let sub = Fds { stdout: Output::Capture(buf.clone()), ..fds.clone() };
            let mut args = vec![argv[0].clone()];
            args.extend(argv[rest..].iter().cloned());
            let status = run_utility(sh, cmd.as_ref(), &args, &sub).await?;
            // With no format, a usage error: the variable is left alone.
            if args.len() < 2 {
                return Ok(status);
            }
            (buf.take(), status)
        }
    };
    // A variable's value is a C string in bash: it ends at the first NUL
    // (`printf -v v 'a\0b'` or `%c` of an empty argument).
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    let value = crate::raw_bytes::decode_vec(bytes);
    let (name, index) = match var.split_once('[') {
        Some((n, i)) => (n.to_string(), Some(i.trim_end_matches(']').to_string())),
        None => (var.clone(), None),
    };
    if let Err(e) = store(sh, Assigned { name, index, value: AssignedValue::Scalar(value), append: false }) {
        // bash names no builtin for a readonly variable.
        let readonly = matches!(&e, crate::interp::simple::StoreError::Msg(m) if m.ends_with(": readonly variable"));
        e.report(sh, fds, if readonly { "" } else { "printf: " }).await?;
        return Ok(1);
    }
    Ok(status)
}
