//! `cargo bench -p sandbash`: medians of in-process execs (no BEAM), to see
//! the interpreter's own cost apart from the NIF's messaging.

use sandbash::Bash;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime");
    let cases: &[(&str, &str, usize)] = &[
        ("new session", "", 2000),
        ("echo hi", "echo hi", 5000),
        ("1,000-iteration loop", "i=0; s=0; while [ $i -lt 1000 ]; do i=$((i+1)); s=$((s+i)); done", 50),
        ("pipeline of 3", "echo a b c | cat | cat", 2000),
        ("function calls x100", "f() { x=$1; }; for i in $(seq 100 2>/dev/null || echo 1 2 3); do f $i; done", 500),
    ];
    for (name, script, n) in cases {
        let mut bash = Bash::builder().build().expect("build");
        let mut times = Vec::with_capacity(*n);
        for _ in 0..*n {
            let t = Instant::now();
            if script.is_empty() {
                let b = Bash::builder().build().expect("build");
                std::hint::black_box(b);
            } else {
                let r = rt.block_on(bash.exec(script)).expect("exec");
                std::hint::black_box(r);
            }
            times.push(t.elapsed());
        }
        println!("{name:<24} {:>10.1} µs", median(times).as_secs_f64() * 1e6);
    }
}
