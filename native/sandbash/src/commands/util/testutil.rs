//! Test harness shared by the utilities' unit tests: run one command in a fresh
//! in-memory sandbox (cwd `/w`) and collect stdout, stderr and status.
//!
//! Expected values in the tests were printed by the real GNU tools (coreutils
//! 9.1, grep 3.8, bash 5.2 for printf) run with `LC_ALL=C TZ=UTC` in an empty
//! directory holding the same files, never copied from what our code prints.

use crate::commands::{default_registry, CommandContext, EnvView, SysInfo};
use crate::fs::{Fs, MemoryFs};
use crate::io::{CaptureBuf, Input, Output, OutputCounter};
use crate::limits::{Budget, CancelToken, Limits};
use std::sync::Arc;

/// The working directory of every test run.
pub const CWD: &str = "/w";

pub struct TestEnv(pub Vec<(String, String)>);

impl EnvView for TestEnv {
    fn get(&self, name: &str) -> Option<String> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }
    fn exported(&self) -> Vec<(String, String)> {
        self.0.clone()
    }
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Out {
    pub out: String,
    pub err: String,
    pub status: i32,
}

/// A fresh filesystem with `/w` and `files` under it (relative to `/w`; a
/// name ending in `/` is a directory).
pub fn make_fs(files: &[(&str, &str)]) -> Arc<dyn Fs> {
    let fs: Arc<dyn Fs> = Arc::new(MemoryFs::default());
    block_on(async {
        fs.mkdir(CWD, true).await.expect("mkdir /w");
        for (name, content) in files {
            let p = crate::fs::path::resolve(CWD, name);
            if name.ends_with('/') {
                fs.mkdir(&p, true).await.expect("mkdir");
            } else {
                fs.mkdir(crate::fs::path::parent(&p), true).await.expect("mkdir parent");
                fs.write(&p, content.as_bytes()).await.expect("write");
            }
        }
    });
    fs
}

/// Run `argv` on `fs` with `stdin` and `env`, limited by `limits`.
pub fn run_full(fs: &Arc<dyn Fs>, argv: &[&str], stdin: &[u8], env: &[(&str, &str)], limits: Limits) -> Out {
    let (out, err, status) = run_raw(fs, argv, stdin, env, limits);
    let s = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    Out { out: s(out), err: s(err), status }
}

/// Like [`run_full`], with stdout and stderr as bytes (for binary output).
pub fn run_raw(
    fs: &Arc<dyn Fs>,
    argv: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    limits: Limits,
) -> (Vec<u8>, Vec<u8>, i32) {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    let env = TestEnv(env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect());
    let sys = SysInfo {
        username: "sandbox".into(),
        hostname: "bashkit-sandbox".into(),
        net: Default::default(),
        python: Vec::new(),
        python_runtime: None,
    };
    let budget = Budget::new(limits, CancelToken::default());
    let counter = OutputCounter::new(budget.limits.max_output_bytes);
    let (out, err) = (CaptureBuf::new(counter.clone()), CaptureBuf::new(counter));
    let cmd = default_registry().get(&argv[0]).cloned().expect("command registered");
    let status = block_on(async {
        let mut ctx = CommandContext {
            name: &argv[0],
            args: &argv[1..],
            stdin: Input::from_bytes(stdin.to_vec()),
            stdout: Output::Capture(out.clone()),
            stderr: Output::Capture(err.clone()),
            cwd: CWD,
            env: &env,
            fs,
            sys: &sys,
            budget: &budget,
            line: 1,
            shell: None,
        };
        match cmd.run(&mut ctx).await {
            Ok(s) => s,
            Err(crate::io::IoError::BrokenPipe) => 141,
            Err(e) => panic!("command ended with {e}"),
        }
    });
    (out.take(), err.take(), status)
}

/// Run `argv` with `files` in `/w` and `stdin`.
pub fn run(argv: &[&str], files: &[(&str, &str)], stdin: &str) -> Out {
    let fs = make_fs(files);
    run_full(&fs, argv, stdin.as_bytes(), &[], Limits::default())
}

/// Run and compare with what GNU printed.
#[track_caller]
pub fn check(argv: &[&str], files: &[(&str, &str)], stdin: &str, out: &str, err: &str, status: i32) {
    let got = run(argv, files, stdin);
    let want = Out { out: out.into(), err: err.into(), status };
    assert_eq!(got, want, "argv: {argv:?}");
}

/// Run, compare, and compare the tree under `/w` afterwards (see [`tree`]).
#[track_caller]
pub fn check_tree(
    argv: &[&str],
    files: &[(&str, &str)],
    stdin: &str,
    out: &str,
    err: &str,
    status: i32,
    tree_after: &str,
) {
    let fs = make_fs(files);
    let got = run_full(&fs, argv, stdin.as_bytes(), &[], Limits::default());
    let want = Out { out: out.into(), err: err.into(), status };
    assert_eq!(got, want, "argv: {argv:?}");
    assert_eq!(tree(&fs), tree_after, "tree after {argv:?}");
}

/// Every node under `/w`, sorted, one per line: `dir/`, `link -> target`,
/// `file\tcontent` (newlines in content shown as `\n`).
pub fn tree(fs: &Arc<dyn Fs>) -> String {
    block_on(async {
        let mut out = String::new();
        let mut stack = vec![CWD.to_string()];
        let mut all = Vec::new();
        while let Some(dir) = stack.pop() {
            for e in fs.read_dir(&dir).await.expect("read_dir") {
                let p = crate::fs::path::join(&dir, &e.name);
                all.push((p.clone(), e.file_type));
                if e.file_type == crate::fs::FileType::Dir {
                    stack.push(p);
                }
            }
        }
        all.sort();
        for (p, t) in all {
            let rel = &p[CWD.len() + 1..];
            match t {
                crate::fs::FileType::Dir => out.push_str(&format!("{rel}/\n")),
                crate::fs::FileType::Symlink => {
                    out.push_str(&format!("{rel} -> {}\n", fs.read_link(&p).await.expect("readlink")))
                }
                crate::fs::FileType::File => {
                    let data = fs.read(&p).await.expect("read");
                    let text = String::from_utf8_lossy(&data).replace('\n', "\\n");
                    out.push_str(&format!("{rel}\t{text}\n"));
                }
            }
        }
        out
    })
}

/// Run a future to completion on a fresh current-thread runtime.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime").block_on(f)
}
