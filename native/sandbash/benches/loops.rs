//! `cargo bench -p sandbash --bench loops`: CPU-bound shell loops and
//! function calls, each run as `bash -c` and as the `sandbash -c` CLI in the
//! same run; prints medians of wall time (process start included, for both)
//! and bash's time divided by ours. Both must print the same output.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 5;

fn cases() -> Vec<(&'static str, &'static str)> {
    vec![
        ("for ((;;)) x=$((x + i % 7)), 300k", "x=0; for ((i=0;i<300000;i++)); do x=$((x + i % 7)); done; echo $x"),
        ("for ((;;)) ((x += i % 7)), 300k", "x=0; for ((i=0;i<300000;i++)); do ((x += i % 7)); done; echo $x"),
        ("for ((;;)) s+=ab, 300k", "for ((i=0;i<300000;i++)); do s+=ab; done; echo ${#s}"),
        ("while (( )) ((i++)), 300k", "i=0; while (( i < 300000 )); do ((i++)); done; echo $i"),
        ("while [ ] i=$((i+1)), 100k", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo $i"),
        ("while [ ] && [ \"$i\" != ], 100k", "i=0; n=0; while [ \"$i\" != 100000 ]; do i=$((i+1)); [ -n \"$i\" ] && n=$((n+1)); done; echo $n"),
        ("function call f $i, 100k", "f() { x=$1; }; for ((i=0;i<100000;i++)); do f $i; done; echo $x"),
        ("function call f (body :), 300k", "f() { :; }; for ((i=0;i<300000;i++)); do f; done; echo $i"),
        ("recursion 3000 deep", "d() { [ $1 -lt 3000 ] && d $(( $1 + 1 )); }; d 0; echo $?"),
        (
            "fib 15 with $( )",
            "fib() { if (( $1 < 2 )); then echo $1; else echo $(( $(fib $(($1-1))) + $(fib $(($1-2))) )); fi; }; fib 15",
        ),
    ]
}

fn run(program: &str, script: &str) -> (Duration, Vec<u8>) {
    let t = Instant::now();
    let out = Command::new(program)
        .arg("-c")
        .arg(script)
        .env("SANDBASH_TIMEOUT_MS", "600000")
        .env("SANDBASH_MAX_COMMANDS", "1000000000")
        .env("SANDBASH_MAX_LOOP_ITERATIONS", "1000000000")
        .env("SANDBASH_MAX_TOTAL_LOOP_ITERATIONS", "1000000000")
        .env("SANDBASH_MAX_FUNCTION_DEPTH", "5000")
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    (t.elapsed(), out.stdout)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let ours = env!("CARGO_BIN_EXE_sandbash");
    println!("{:<36} {:>10} {:>10} {:>8}", "case (median of 5)", "bash", "sandbash", "ratio");
    let mut logs = 0.0;
    let all = cases();
    for (name, script) in &all {
        let mut tb = Vec::new();
        let mut ts = Vec::new();
        for _ in 0..RUNS {
            let (b, bout) = run("bash", script);
            let (s, sout) = run(ours, script);
            assert_eq!(String::from_utf8_lossy(&bout), String::from_utf8_lossy(&sout), "{name}: outputs differ");
            tb.push(b);
            ts.push(s);
        }
        let (b, s) = (median(tb), median(ts));
        let ratio = b.as_secs_f64() / s.as_secs_f64();
        logs += ratio.ln();
        println!("{name:<36} {:>8.3} s {:>8.3} s {:>7.2}x", b.as_secs_f64(), s.as_secs_f64(), ratio);
    }
    println!("geometric mean: {:.2}x faster than bash", (logs / all.len() as f64).exp());
}
