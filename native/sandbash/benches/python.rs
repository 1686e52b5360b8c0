//! `cargo bench -p sandbash --bench python`: the cost of one `python -c
//! 'print(1)'` through the interpreter (Monty on its own thread) against
//! starting the host's real `python3` for the same program, as a ratio
//! (`BENCH_PYTHON=/path/to/python3` picks the host binary, e.g. past a pyenv shim).
//! With `--features cpython` and the runtime fetched (`scripts/fetch_python`)
//! it also times CPython in the sandbox: `print(1)`, a program importing a
//! dozen modules, and summing a column of a 10 MB csv, each beside the host's
//! `python3` for the same program.

use sandbash::Bash;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime");
    let mut bash = Bash::builder().python(vec!["python".into()]).build().expect("build");
    let mut inside = Vec::new();
    for _ in 0..500 {
        let t = Instant::now();
        let r = rt.block_on(bash.exec("python -c 'print(1)'")).expect("exec");
        assert_eq!(r.stdout, b"1\n");
        inside.push(t.elapsed());
    }
    let mut echo = Vec::new();
    for _ in 0..500 {
        let t = Instant::now();
        std::hint::black_box(rt.block_on(bash.exec("echo 1")).expect("exec"));
        echo.push(t.elapsed());
    }
    let inside = median(inside);
    let echo = median(echo);
    println!(
        "python -c 'print(1)' in sandbash  {:>10.1} µs (echo 1: {:.1} µs)",
        inside.as_secs_f64() * 1e6,
        echo.as_secs_f64() * 1e6
    );
    let python = std::env::var("BENCH_PYTHON").unwrap_or_else(|_| "python3".into());
    #[cfg(feature = "cpython")]
    cpython(&rt, &python);
    let mut host = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        match std::process::Command::new(&python).args(["-c", "print(1)"]).output() {
            Ok(o) => assert_eq!(o.stdout, b"1\n"),
            Err(e) => {
                println!("no host python3 to compare with: {e}");
                return;
            }
        }
        host.push(t.elapsed());
    }
    let host = median(host);
    println!("{python} -c 'print(1)' on the host  {:>10.1} µs", host.as_secs_f64() * 1e6);
    println!(
        "ratio sandbash / host: {:.4} (host is {:.0}x slower)",
        inside.as_secs_f64() / host.as_secs_f64(),
        host.as_secs_f64() / inside.as_secs_f64()
    );
}

/// Median wall time of `n` runs of `f`.
fn time(n: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..n)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

#[cfg(feature = "cpython")]
fn cpython(rt: &tokio::runtime::Runtime, host_python: &str) {
    let wasm = concat!(env!("CARGO_MANIFEST_DIR"), "/../../priv/python/python-3.12.0.wasm");
    let t = Instant::now();
    let built = Bash::builder().python(vec!["python3".into()]).python_runtime(wasm).cwd("/w").build();
    let Ok(mut bash) = built else {
        println!("cpython: no runtime at {wasm} (scripts/fetch_python)");
        return;
    };
    println!("cpython: loading the runtime took {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let csv: String = (0..400_000).map(|i| format!("{i},name{i},{}.5\n", i % 97)).collect();
    let dir = std::env::temp_dir().join(format!("sandbash-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("data.csv"), &csv).expect("csv");
    rt.block_on(bash.exec(&format!("cat > data.csv <<'EOF'\n{csv}EOF"))).expect("exec");
    let imports = "import json, re, csv, hashlib, datetime, collections, itertools, functools, pathlib, argparse, textwrap, statistics, dataclasses";
    let sum = "import csv\nprint(sum(float(r[2]) for r in csv.reader(open('data.csv'))))";
    for (name, prog, runs) in [("print(1)", "print(1)", 20), ("13 imports", imports, 10), ("10 MB csv sum", sum, 5)] {
        let script = format!("python3 -c \"{prog}\"");
        let first = Instant::now();
        rt.block_on(bash.exec(&script)).expect("exec");
        let first = first.elapsed();
        let inside = time(runs, || {
            let r = rt.block_on(bash.exec(&script)).expect("exec");
            assert_eq!(r.exit_code, 0, "{}", String::from_utf8_lossy(&r.stderr));
        });
        let host = time(runs, || {
            let o =
                std::process::Command::new(host_python).args(["-c", prog]).current_dir(&dir).output().expect("python3");
            assert!(o.status.success());
        });
        println!(
            "cpython {name:<14} sandbox {:>8.1} ms (first {:>8.1} ms)  host {:>8.1} ms  ratio {:.2}",
            inside.as_secs_f64() * 1e3,
            first.as_secs_f64() * 1e3,
            host.as_secs_f64() * 1e3,
            inside.as_secs_f64() / host.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
