//! Scripts written to hang, crash or exhaust the host. Each must end with an
//! error naming what stopped it, and leave the session usable with the state
//! it had before.

use sandbash::{Bash, Error, Limits};

fn session() -> Bash {
    let limits = Limits { timeout_ms: 10_000, ..Limits::default() };
    Bash::builder().limits(limits).build().expect("build")
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime").block_on(f)
}

/// Run `script` after setting `keep=1`; expect an error containing `needle`,
/// then check that the session still works and kept `keep`.
#[track_caller]
fn stops(script: &str, needle: &str) {
    run(async {
        let mut bash = session();
        bash.exec("keep=1").await.expect("setup");
        let err = bash.exec(&format!("keep=2; {script}")).await.expect_err(script);
        assert!(err.to_string().contains(needle), "{script}: {err}");
        if let Error::Stopped { .. } = err {
            let r = bash.exec("echo $keep").await.expect("after");
            assert_eq!(r.stdout, b"1\n", "{script}: state after the stop");
        }
        let r = bash.exec("echo alive").await.expect("alive");
        assert_eq!(r.stdout, b"alive\n");
    })
}

#[test]
fn busy_loop() {
    stops("while :; do :; done", "max_commands: 10000");
}

#[test]
fn loop_iterations() {
    stops("while :; do continue 2>/dev/null; done", "max_");
}

#[test]
fn endless_recursion() {
    stops("f(){ f; }; f", "max_function_depth: 100");
}

#[test]
fn fork_bomb() {
    // The jobs multiply while the script still runs: a limit stops them all
    // (the command count, or the timeout on a very slow machine).
    run(async {
        let mut bash = session();
        bash.exec("keep=1").await.expect("setup");
        let err = bash.exec("keep=2; :(){ :|:& };:; while :; do sleep 0.01; done").await.expect_err("bomb");
        let msg = err.to_string();
        assert!(msg.contains("max_commands") || msg.contains("timed out"), "{msg}");
        let r = bash.exec("echo $keep").await.expect("after");
        assert_eq!(r.stdout, b"1\n");
    })
}

#[test]
fn fork_bomb_left_behind_is_cancelled() {
    // As in bash the script itself ends at once; its jobs end with the exec.
    run(async {
        let mut bash = session();
        let start = std::time::Instant::now();
        let _ = bash.exec(":(){ :|:& };:").await;
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
        let r = bash.exec("echo alive").await.expect("alive");
        assert_eq!(r.stdout, b"alive\n");
    })
}

#[test]
fn coprocesses_left_running_end_with_the_exec() {
    // A coprocess nobody reads fills its bounded pipe and waits; one nobody
    // writes to waits for input. Neither keeps the exec (or the session) busy.
    run(async {
        let mut bash = session();
        let start = std::time::Instant::now();
        let r = bash.exec("coproc yes; coproc B { cat; }; sleep 0.1; echo started").await.expect("exec");
        assert_eq!(r.stdout, b"started\n");
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
        let r = bash.exec("echo alive").await.expect("alive");
        assert_eq!(r.stdout, b"alive\n");
    })
}

#[test]
fn huge_brace_expansion() {
    stops("echo {1..100000000}", "max_brace_items: 100000");
}

#[test]
fn doubling_string() {
    stops("x=a; while :; do x=$x$x; done", "max_string_bytes");
}

#[test]
fn deep_command_substitution() {
    let script = format!("{}echo{}", "$(".repeat(10_000), ")".repeat(10_000));
    stops(&script, "max_parser_depth");
}

#[test]
fn megabyte_of_braces() {
    stops(&"{".repeat(1_000_000), "max_parser_depth");
}

#[test]
fn nested_array_subscripts() {
    let nest = |n: usize| format!("{}0{}", "a[".repeat(n), "]".repeat(n));
    let script = format!("{}=1; echo $(( {} ))", nest(30), nest(30));
    run(async {
        let mut bash = session();
        // As bash 5.2 prints (the nested subscripts parse in linear time).
        let r = bash.exec(&script).await.expect("runs");
        assert_eq!((r.stdout, r.exit_code), (b"0\n".to_vec(), 0));
    });
}

#[test]
fn script_larger_than_input_limit() {
    run(async {
        let mut bash =
            Bash::builder().limits(Limits { max_input_bytes: 100, ..Limits::default() }).build().expect("build");
        let err = bash.exec(&"echo x; ".repeat(50)).await.expect_err("too big");
        assert!(err.to_string().contains("max_input_bytes: 100"), "{err}");
    });
}

#[test]
fn output_flood() {
    let limits = Limits { max_output_bytes: 1000, ..Limits::default() };
    run(async {
        let mut bash = Bash::builder().limits(limits).build().expect("build");
        let err = bash.exec("while :; do echo aaaaaaaaaaaaaaaaaaaa; done").await.expect_err("flood");
        assert!(err.to_string().contains("max_output_bytes: 1000"), "{err}");
    });
}

#[test]
fn whole_input_past_the_string_limit() {
    let limits = Limits { max_string_bytes: 1000, ..Limits::default() };
    run(async {
        let mut bash = Bash::builder().limits(limits).file("/big", vec![b'x'; 5000]).build().expect("build");
        let err = bash.exec("cat /big | sort").await.expect_err("too big");
        assert!(err.to_string().contains("max_string_bytes: 1000"), "{err}");
        let r = bash.exec("cat /big | wc -c").await.expect("streams");
        assert_eq!(r.stdout, b"5000\n");
    });
}

#[test]
fn endless_device() {
    stops("cat /dev/zero", "limit exceeded");
}

#[test]
fn giant_printf_width() {
    stops("printf '%*s' 2000000000 x", "max_output_bytes");
}

#[test]
fn giant_here_string() {
    stops(r#"x=$(printf '%09000000d' 0); cat <<< "$x$x$x$x$x$x$x$x$x$x" | wc -c"#, "max_string_bytes");
}

#[test]
fn unclosed_arithmetic_parens() {
    // brush-parser's backtracking doubles per unclosed `(`; refused before parsing.
    let script = format!("(( {}1", "(".repeat(40));
    run(async {
        let err = session().exec(&script).await.expect_err("does not parse");
        assert!(
            matches!(&err, Error::Parse(m) if m.contains("unexpected EOF while looking for matching `)'")),
            "{err}"
        );
    });
}

#[test]
fn yes_into_sort() {
    stops("yes | sort", "max_string_bytes");
}

#[test]
fn catastrophic_backtracking_regex() {
    // A backtracking engine takes exponential time here; ours is linear.
    run(async {
        let mut bash = session();
        let script =
            format!("echo {}b | grep -cP '^(a+)+$'; echo {}b | grep -cE '^(a|aa)+$'", "a".repeat(40), "a".repeat(40));
        let r = bash.exec(&script).await.expect("runs");
        assert_eq!(r.stdout, b"0\n0\n");
    });
}

/// Loops of `(( ))` and assignments run without building command futures
/// (`interp/fast.rs`): with the counts lifted, the deadline still stops them.
#[test]
fn fast_path_loops_meet_the_deadline() {
    for script in [
        "for ((;;)); do ((x++)); done",
        "while ((1)); do ((x++)); done",
        "for ((i=0;;i++)); do x=$((i % 7)); done",
        "until ((0)); do s=a; done",
    ] {
        run(async {
            let limits = Limits {
                timeout_ms: 300,
                max_commands: u64::MAX,
                max_loop_iterations: u64::MAX,
                max_total_loop_iterations: u64::MAX,
                ..Limits::default()
            };
            let mut bash = Bash::builder().limits(limits).build().expect("build");
            let err = bash.exec(script).await.expect_err(script);
            assert!(err.to_string().contains("timeout_ms"), "{script}: {err}");
        })
    }
}

/// Each abandoned top-level command moves the later line numbers, as bash's
/// parser does; working that out reads the command's own text, not the
/// whole script, so a large script of failing commands stays cheap.
#[test]
fn many_abandoned_commands_in_a_large_script() {
    let script = format!("#{}\n{}echo $LINENO", "x".repeat(2_000_000), "for i in 1; do\n: ${!x}\ndone\n".repeat(2000));
    run(async {
        let mut bash = session();
        let r = bash.exec(&script).await.expect("runs");
        // bash 5.2 prints 4002: line 6002, moved up one line per abandoned loop.
        assert_eq!(String::from_utf8_lossy(&r.stdout), "4002\n");
    })
}

#[test]
fn alias_changes_before_a_large_rest_meet_the_deadline() {
    // Every `alias` reads the rest of the script again (interp/reader.rs):
    // here 3,000 readings of 2 MB. The deadline is met between commands.
    let script = format!(
        "shopt -s expand_aliases\nalias a=:\na\n{}#{}\n",
        (0..3000).map(|i| format!("alias b{i}=:\n")).collect::<String>(),
        "x".repeat(2_000_000)
    );
    stops(&script, "timed out");
}
