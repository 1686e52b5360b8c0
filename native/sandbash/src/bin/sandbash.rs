//! `sandbash`: run a script in a fresh sandbox and mirror its output and status.
//!
//! ```text
//! sandbash -c SCRIPT [ARG0 [ARGS...]]
//! sandbash FILE [ARGS...]        (FILE is read from the host: it is the script, not sandbox data)
//! sandbash < script.sh
//! sandbash --help                (usage, settings and every limit with its default)
//! ```
//! The script's stdin is this process's stdin when the script comes from `-c` or a file.
//! No network unless `SANDBASH_ALLOW_NET` lists URL patterns (comma-separated) or
//! says `all`; private addresses stay blocked unless `SANDBASH_ALLOW_PRIVATE_IPS=1`.
//! `python`/`python3` only with `SANDBASH_PYTHON=1` (Monty) or
//! `SANDBASH_PYTHON_WASM=/path/python-3.12.0.wasm` (CPython, in builds with
//! the `cpython` feature).
//! Every limit can be set as `SANDBASH_<LIMIT>` in capitals, for example
//! `SANDBASH_TIMEOUT_MS=600000` or `SANDBASH_MAX_MEMORY_BYTES=1073741824`
//! (the names of the Elixir `:limits` option; see `sandbash::limits::LIMIT_NAMES`).
//! The script starts in a new, empty sandbox directory with the path of the directory
//! `sandbash` runs in (as `bash -c` starts where it is run; no host file is visible), or in
//! `SANDBASH_CWD=/dir` when that is set.
//! `SANDBASH_REPORT_PEAK_RSS=1` prints this process's peak resident memory to
//! stderr at the end (`sandbash: peak rss N KiB`), for the memory benchmarks.

use std::io::{IsTerminal, Read, Write};

fn main() {
    // Bytes that are not UTF-8 are kept, as bash keeps them (see `raw_bytes`).
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| sandbash::raw_bytes::decode(std::os::unix::ffi::OsStrExt::as_bytes(a.as_os_str())))
        .collect();
    if matches!(args.first().map(String::as_str), Some("--help" | "-h")) {
        print!("{}", usage());
        std::process::exit(0);
    }
    let (script, arg0, rest, stdin, is_file) = match parse_args(&args) {
        Ok(v) => v,
        Err(m) => {
            eprintln!("sandbash: {m}");
            eprint!("{}", usage());
            std::process::exit(2);
        }
    };
    if std::env::var("SANDBASH_TEST_HOOKS").is_ok_and(|v| v == "1") {
        sandbash::limits::watchdog::enable_test_hooks();
    }
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("sandbash: cannot start the runtime: {e}");
            std::process::exit(1);
        }
    };
    let code = runtime.block_on(async {
        let policy = match network_policy() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("sandbash: {e}");
                return 2;
            }
        };
        let (limits, fs_limits) = match limits_from_env() {
            Ok(l) => l,
            Err(e) => {
                eprintln!("sandbash: {e}");
                return 2;
            }
        };
        // As `bash -c` (not interactive): no history.
        let mut builder = sandbash::Bash::builder().limits(limits).fs_limits(fs_limits).history(false);
        if let Some(dir) = start_dir() {
            builder = builder.cwd(dir);
        }
        if is_file {
            // A script on stdin has no file name (`BASH_SOURCE` stays empty).
            let name = if args.is_empty() { String::new() } else { arg0.clone() };
            builder = builder.script_file(name);
        }
        if let Some(wasm) = std::env::var_os("SANDBASH_PYTHON_WASM") {
            builder = builder.python_runtime(wasm.to_string_lossy().into_owned());
        }
        let mut bash = match builder.args(arg0, rest).network(policy).python(python_names()).build() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("sandbash: {e}");
                return 1;
            }
        };
        // A worker stuck past the deadline: answer as the exec would have, and end.
        let on_watchdog: sandbash::limits::watchdog::OnFire = std::sync::Arc::new(|f| {
            let _ = std::io::stdout().write_all(&f.stdout);
            let _ = std::io::stdout().flush();
            let _ = std::io::stderr().write_all(&f.stderr);
            let within = f.command.map(|c| format!(" (stuck in {c})")).unwrap_or_default();
            eprintln!("sandbash: {}{within}", f.reason);
            std::process::exit(1);
        });
        let opts = sandbash::ExecOptions {
            stdin,
            on_watchdog: Some(on_watchdog),
            merge_stderr: same_output_file(),
            ..Default::default()
        };
        match bash.exec_with(&script, opts).await {
            Ok(r) => {
                let _ = std::io::stdout().write_all(&r.stdout);
                let _ = std::io::stderr().write_all(&r.stderr);
                r.exit_code
            }
            Err(sandbash::Error::Stopped { reason, partial }) => {
                let _ = std::io::stdout().write_all(&partial.stdout);
                let _ = std::io::stderr().write_all(&partial.stderr);
                eprintln!("sandbash: {reason}");
                1
            }
            Err(sandbash::Error::Parse(m)) => {
                eprintln!("{m}");
                // bash's status for an array assignment left open (nothing ran).
                let err = m.split_once(": -c: ").map_or(m.as_str(), |(_, e)| e);
                match sandbash::syntax::eof_in_pair(err, &script) {
                    Some(sandbash::syntax::EofInPair::One) => 1,
                    _ => 2,
                }
            }
            Err(e) => {
                eprintln!("sandbash: {e}");
                1
            }
        }
    });
    let _ = std::io::stdout().flush();
    if std::env::var("SANDBASH_REPORT_PEAK_RSS").is_ok_and(|v| v == "1") {
        eprintln!("sandbash: peak rss {} KiB", peak_rss_kib().unwrap_or(0));
    }
    std::process::exit(code);
}

/// Whether this process's stdout and stderr are one file (`2>&1`, a terminal):
/// the script's two streams are then captured as one, so they interleave as
/// bash's do instead of stdout coming whole before stderr.
fn same_output_file() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let meta = |fd: std::os::fd::BorrowedFd<'_>| {
        fd.try_clone_to_owned().ok().and_then(|o| std::fs::File::from(o).metadata().ok())
    };
    match (meta(std::io::stdout().as_fd()), meta(std::io::stderr().as_fd())) {
        (Some(a), Some(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The sandbox directory the script starts in: `SANDBASH_CWD`, else one with
/// the path of this process's directory (as `bash -c` starts where it is run),
/// created empty: only its name comes from the host, never its files.
fn start_dir() -> Option<String> {
    if let Ok(dir) = std::env::var("SANDBASH_CWD") {
        return Some(dir);
    }
    let here = std::env::current_dir().ok()?;
    here.to_str().filter(|p| p.starts_with('/')).map(str::to_string)
}

/// What `sandbash --help` prints: the forms, the settings from the environment
/// and every limit as `SANDBASH_<LIMIT>` with its default.
fn usage() -> String {
    let mut u = String::from(
        "usage: sandbash -c SCRIPT [ARG0 [ARGS...]] | sandbash FILE [ARGS...] | sandbash < FILE | sandbash --help\n\
         Runs the script in a fresh sandbox (in-memory filesystem, no host processes) and\n\
         exits with its status.\n\n\
         Environment:\n\
         \x20 SANDBASH_ALLOW_NET=PATTERNS|all  URL patterns (comma-separated) the network may reach\n\
         \x20 SANDBASH_ALLOW_PRIVATE_IPS=1     allow private and reserved addresses\n\
         \x20 SANDBASH_PYTHON=1                provide python and python3 (Monty)\n\
         \x20 SANDBASH_PYTHON_WASM=FILE        provide them as CPython 3.12, from this WASI build\n\
         \x20 SANDBASH_CWD=/dir                start in that (new, empty) directory [the path of the\n\
         \x20                                  current directory, created empty in the sandbox]\n\
         \x20 SANDBASH_REPORT_PEAK_RSS=1       print this process's peak memory at the end\n\
         \x20 SANDBASH_TEST_HOOKS=1            enable the `__stuck MS` builtin (a worker stuck\n\
         \x20                                  outside every check, for the watchdog's tests)\n\n\
         Limits, each SANDBASH_<LIMIT>=N (a whole number; default in brackets):\n",
    );
    let (l, f) = (sandbash::Limits::default(), sandbash::FsLimits::default());
    for name in sandbash::limits::LIMIT_NAMES {
        let var = format!("SANDBASH_{}", name.to_uppercase());
        let default = sandbash::limits::get_limit(&l, &f, name).map(|v| v.to_string()).unwrap_or_default();
        u.push_str(&format!("  {var:<36} [{default}]\n"));
    }
    u
}

/// `VmHWM` of this process (Linux), in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn network_policy() -> Result<sandbash::net::Policy, String> {
    let private = std::env::var("SANDBASH_ALLOW_PRIVATE_IPS").is_ok_and(|v| v == "1");
    let policy = match std::env::var("SANDBASH_ALLOW_NET") {
        Ok(v) if v == "all" => sandbash::net::Policy::all(),
        Ok(v) => sandbash::net::Policy::allow(&v.split(',').map(str::to_string).collect::<Vec<_>>())?,
        Err(_) => sandbash::net::Policy::none(),
    };
    Ok(policy.with_private_ips(private))
}

/// `SANDBASH_<LIMIT>` variables over the default limits.
fn limits_from_env() -> Result<(sandbash::Limits, sandbash::FsLimits), String> {
    let mut l = sandbash::Limits::default();
    let mut f = sandbash::FsLimits::default();
    for name in sandbash::limits::LIMIT_NAMES {
        let var = format!("SANDBASH_{}", name.to_uppercase());
        if let Ok(v) = std::env::var(&var) {
            let n = v.trim().parse::<u64>().map_err(|_| format!("{var}: not a whole number: {v:?}"))?;
            sandbash::limits::set_limit(&mut l, &mut f, name, n)?;
        }
    }
    Ok((l, f))
}

/// The script, `$0`, the arguments, stdin, and whether the script is a file
/// (run as `bash FILE` runs one, not as `bash -c`).
type Parsed = (String, String, Vec<String>, Vec<u8>, bool);

fn read_stdin() -> Vec<u8> {
    let mut buf = Vec::new();
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        let _ = stdin.lock().read_to_end(&mut buf);
    }
    buf
}

fn parse_args(args: &[String]) -> Result<Parsed, String> {
    match args.first().map(String::as_str) {
        Some("-c") => {
            let script = args.get(1).ok_or("-c: option requires an argument")?.clone();
            let arg0 = args.get(2).cloned().unwrap_or_else(|| "bash".into());
            let rest = args.iter().skip(3).cloned().collect();
            Ok((script, arg0, rest, read_stdin(), false))
        }
        Some(file) => {
            let data = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
            let script = sandbash::raw_bytes::decode_vec(data);
            Ok((script, file.to_string(), args[1..].to_vec(), read_stdin(), true))
        }
        None => {
            let data = read_stdin();
            let script = sandbash::raw_bytes::decode_vec(data);
            Ok((script, "bash".into(), Vec::new(), Vec::new(), true))
        }
    }
}

/// `python` and `python3` when `SANDBASH_PYTHON=1` or a CPython runtime is named.
fn python_names() -> Vec<String> {
    match std::env::var("SANDBASH_PYTHON") {
        Ok(v) if v == "1" => vec!["python".to_string(), "python3".to_string()],
        _ if std::env::var_os("SANDBASH_PYTHON_WASM").is_some() => vec!["python".to_string(), "python3".to_string()],
        _ => Vec::new(),
    }
}
