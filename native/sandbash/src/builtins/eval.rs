//! `eval`, `source`/`.`, and running a script file by its path.

use super::fail;
use crate::fs::path;
use crate::interp::{run_child_script, run_string, Fds, Flow, Res};
use crate::state::ShellState;
use std::sync::Arc;

pub async fn eval(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    // bash's no_options: `--` ends the options; any other word starting
    // with `-` (not `-` alone) is an invalid option.
    let mut args = &argv[1..];
    if let Some(first) = args.first() {
        if first == "--" {
            args = &args[1..];
        } else if let Some(opt) = first.strip_prefix('-').and_then(|o| o.chars().next()) {
            let msg = format!("eval: -{opt}: invalid option\neval: usage: eval [arg ...]");
            return Ok(fail(sh.loc(), fds, &msg, 2).await);
        }
    }
    let src = args.join(" ");
    if src.trim().is_empty() {
        return Ok(0);
    }
    // An expansion error abandons the evaluated text only (bash's DISCARD
    // stops at `parse_and_execute`): eval fails, the caller goes on.
    match run_string(sh, &src, fds, "eval").await {
        Err(Flow::Abort(n)) => Ok(n),
        other => other,
    }
}

/// The file `source name` reads: a name without a slash is looked up in
/// PATH first (`shopt sourcepath`, on by default), then in the directory.
async fn source_path(sh: &ShellState, file: &str) -> String {
    let here = path::resolve(&sh.cwd, file);
    if file.contains('/') || sh.opts.get("sourcepath", crate::state::options::Kind::Shopt) != Some(true) {
        return here;
    }
    let search = sh.get_var("PATH").unwrap_or_default();
    for dir in search.split(':').filter(|d| !d.is_empty()).take(256) {
        let p = path::resolve(&sh.cwd, &format!("{dir}/{file}"));
        if sh.fs.metadata(&p).await.is_ok_and(|m| m.is_file()) {
            return p;
        }
    }
    here
}

pub async fn source(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let name = &argv[0];
    let usage = format!("{name}: usage: {name} filename [arguments]");
    if let Some(c) = super::unknown_option(argv, "") {
        return Ok(super::usage_error(sh, fds, &format!("{name}: -{c}: invalid option"), &usage).await);
    }
    // `source -- file args`: the options end there.
    let owned;
    let argv = if argv.get(1).is_some_and(|a| a == "--") {
        owned = [&argv[..1], &argv[2..]].concat();
        &owned[..]
    } else {
        argv
    };
    let Some(file) = argv.get(1) else {
        return Ok(super::usage_error(sh, fds, &format!("{name}: filename argument required"), &usage).await);
    };
    let p = source_path(sh, file).await;
    let read = if matches!(p.as_str(), "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0") {
        // The script comes from this command's standard input (`. /dev/stdin <<EOF`).
        let max = sh.budget.limits.max_input_bytes as usize;
        match fds.stdin.read_to_end(max).await {
            Ok(d) => Ok(d),
            Err(_) => {
                let limit = max as u64;
                return Err(Flow::Stop(crate::limits::Budget::exceeded("max_input_bytes", limit, "sourced input")));
            }
        }
    } else {
        sh.fs.read(&p).await
    };
    let src = match read {
        Ok(d) => crate::raw_bytes::decode_vec(d),
        Err(e) => {
            let status = fail(sh.loc(), fds, &format!("{file}: {e}"), 1).await;
            // A special builtin's error ends a POSIX-mode shell.
            if sh.opts.get("posix", crate::state::options::Kind::Set) == Some(true) {
                return Err(Flow::Exit(status));
            }
            return Ok(status);
        }
    };
    let saved_args =
        if argv.len() > 2 { Some(std::mem::replace(&mut sh.positional, Arc::new(argv[2..].to_vec()))) } else { None };
    let was_set = std::mem::replace(&mut sh.args_set_at_top, false);
    let was_source = std::mem::replace(&mut sh.in_source, true);
    sh.push_source(file.as_str());
    // A frame named `source`; its BASH_ARGV entry is the file name, or the
    // arguments under `extdebug`.
    let args = if argv.len() > 2 { sh.opts.extdebug.then(|| argv[2..].to_vec()) } else { Some(vec![file.clone()]) };
    let args = args.map(Arc::new);
    let stack = sh.call_stack();
    stack.args_init |= args.is_some();
    stack.args.push(args);
    sh.push_frame("source");
    let r = match run_string(sh, &src, fds, file).await {
        // As in eval: the sourced text is abandoned, not the caller's line.
        Err(Flow::Abort(n)) => Ok(n),
        other => other,
    };
    // The RETURN trap runs when the file is done.
    let r = match r {
        Err(Flow::Stop(s)) => Err(Flow::Stop(s)),
        Err(Flow::Exit(n)) => Err(Flow::Exit(n)),
        other if sh.traps.get("RETURN").is_some_and(|a| !a.is_empty()) => {
            let t = crate::interp::simple::run_trap(sh, "RETURN", fds).await;
            t.map(|_| ()).and(other)
        }
        other => other,
    };
    sh.call_stack().args.pop();
    // The caller goes on at the line of the call.
    if let Some(l) = sh.pop_frame() {
        sh.line = l;
    }
    sh.pop_source();
    sh.in_source = was_source;
    // bash restores the caller's parameters unless `set` changed them
    // outside any function while the file ran.
    let kept = sh.args_set_at_top && sh.func_depth == 0;
    if let Some(a) = saved_args.filter(|_| !kept) {
        sh.positional = a;
    }
    sh.args_set_at_top |= was_set;
    match r {
        Err(Flow::Return(n)) => Ok(n),
        other => other,
    }
}

/// `./script.sh args`: run a file of the sandbox as a bash script.
pub async fn run_script_file(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let name = &argv[0];
    let p = path::resolve(&sh.cwd, name);
    let meta = match sh.fs.metadata(&p).await {
        Ok(m) => m,
        Err(e) => return Ok(fail(sh.loc(), fds, &format!("{name}: {e}"), 127).await),
    };
    if meta.is_dir() {
        return Ok(fail(sh.loc(), fds, &format!("{name}: Is a directory"), 126).await);
    }
    if meta.mode & 0o111 == 0 {
        return Ok(fail(sh.loc(), fds, &format!("{name}: Permission denied"), 126).await);
    }
    let src = match sh.fs.read(&p).await {
        Ok(d) => crate::raw_bytes::decode_vec(d),
        Err(e) => return Ok(fail(sh.loc(), fds, &format!("{name}: {e}"), 126).await),
    };
    let mut opts = crate::state::Options::default();
    opts.input = None;
    run_child_script(sh, &src, name.clone(), argv[1..].to_vec(), opts, Some(name), fds).await
}
