//! `cargo bench -p sandbash --bench python`: the cost of one `python -c
//! 'print(1)'` through the interpreter (Monty on its own thread) against
//! starting the host's real `python3` for the same program, as a ratio
//! (`BENCH_PYTHON=/path/to/python3` picks the host binary, e.g. past a pyenv shim).

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
