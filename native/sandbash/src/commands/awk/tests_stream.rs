//! awk against endless input and endless programs: it must stream, stop
//! early, and end at the exec's deadline.

use crate::commands::util::testutil::{block_on, make_fs, run_full, TestEnv, CWD};
use crate::commands::{default_registry, CommandContext, SysInfo};
use crate::io::{pipe, CaptureBuf, IoError, Output, OutputCounter};
use crate::limits::{Budget, CancelToken, Limits};

/// Run awk with stdin fed `y\n` forever and stdout to `out` (a capture when None).
fn run_endless(args: &[&str], out: Option<Output>) -> (Result<i32, IoError>, String) {
    let fs = make_fs(&[]);
    let env = TestEnv(Vec::new());
    let sys = SysInfo { username: "u".into(), hostname: "h".into(), net: Default::default(), python: Vec::new(), python_runtime: None };
    let budget = Budget::new(Limits { timeout_ms: 5_000, ..Limits::default() }, CancelToken::default());
    let counter = OutputCounter::new(budget.limits.max_output_bytes);
    let cap = CaptureBuf::new(counter.clone());
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let r = block_on(async {
        let (w, r) = pipe();
        let feeder = tokio::spawn(async move { while w.write(b"y\n").await.is_ok() {} });
        let mut ctx = CommandContext {
            name: "awk",
            args: &args,
            stdin: r,
            stdout: out.unwrap_or(Output::Capture(cap.clone())),
            stderr: Output::Capture(CaptureBuf::new(counter)),
            cwd: CWD,
            env: &env,
            fs: &fs,
            sys: &sys,
            budget: &budget,
            line: 1,
            shell: None,
        };
        let cmd = default_registry().get("awk").cloned().expect("awk registered");
        let res = cmd.run(&mut ctx).await;
        drop(ctx);
        let _ = feeder.await;
        res
    });
    (r, String::from_utf8_lossy(&cap.take()).into_owned())
}

#[test]
fn exit_stops_reading_endless_input() {
    let (r, out) = run_endless(&["{print; if (NR == 3) exit}"], None);
    assert_eq!(r, Ok(0));
    assert_eq!(out, "y\ny\ny\n");
}

#[test]
fn closed_stdout_ends_with_broken_pipe() {
    block_on(async {});
    let (w, r) = pipe();
    drop(r);
    let (res, _) = run_endless(&["{print}"], Some(w));
    assert_eq!(res, Err(IoError::BrokenPipe));
}

#[test]
fn endless_loop_ends_at_deadline() {
    let fs = make_fs(&[]);
    let limits = Limits { timeout_ms: 300, ..Limits::default() };
    let started = std::time::Instant::now();
    let got = run_full(&fs, &["awk", "BEGIN { while (1) {} }"], b"", &[], limits);
    assert_ne!(got.status, 0);
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn environ_from_exported_variables() {
    let fs = make_fs(&[]);
    let got = run_full(&fs, &["awk", "BEGIN { print ENVIRON[\"FOO\"] }"], b"", &[("FOO", "bar")], Limits::default());
    assert_eq!((got.out.as_str(), got.status), ("bar\n", 0));
}

#[test]
fn recursion_is_bounded() {
    let fs = make_fs(&[]);
    let got = run_full(&fs, &["awk", "function f(n) { return f(n + 1) } BEGIN { f(1) }"], b"", &[], Limits::default());
    assert_eq!(got.status, 2);
    assert!(got.err.contains("fatal: function call nesting too deep"), "{}", got.err);
}

/// Chains built in the parser's loops (`1+1+...`, concatenations, `&&`)
/// count towards the tree's depth: a program deeper than MAX_TREE_DEPTH is a
/// syntax error, one just within it runs.
#[test]
fn long_operator_chains_are_bounded() {
    use super::parser::MAX_TREE_DEPTH;
    let fs = make_fs(&[]);
    let within = format!("BEGIN {{ print {}1 }}", "1+".repeat(MAX_TREE_DEPTH - 1));
    let got = run_full(&fs, &["awk", &within], b"", &[], Limits::default());
    assert_eq!((got.out.as_str(), got.status), (format!("{MAX_TREE_DEPTH}\n").as_str(), 0), "{}", got.err);
    for chain in ["1+", "x ", "1&&", "x~", "a=", "1?1:", "2^", "-"] {
        let prog = format!("BEGIN {{ print {}1 }}", chain.repeat(100_000));
        let got = run_full(&fs, &["awk", &prog], b"", &[], Limits::default());
        assert_eq!(got.status, 1, "{chain}: {}", got.err);
        assert!(got.err.contains("program nested too deeply"), "{chain}: {}", got.err);
    }
}
