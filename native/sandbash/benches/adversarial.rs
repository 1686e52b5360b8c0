//! `cargo bench -p sandbash --bench adversarial`: what an attacker's script
//! costs the process.
//!
//! - Memory: each bomb runs in the `sandbash` CLI with the default limits
//!   (`max_memory_bytes` 256 MiB); the peak RSS of the process is reported
//!   beside that of `echo hi` (the baseline) and the budget.
//! - Time: each freezing script runs in-process on a 2-worker runtime (as in
//!   the NIF) with `timeout_ms` 1000; the overshoot past the timeout is
//!   reported (target: under 100 ms). Then the same scripts are cancelled
//!   300 ms in; the time from the cancel to the return is reported (target:
//!   under 100 ms).
//!
//! `ADVERSARIAL_ONLY=memory|time` runs one half.

use sandbash::limits::{CancelToken, DEFAULT_MAX_MEMORY_BYTES};
use sandbash::{Bash, ExecOptions, Limits};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A value of `n` bytes built at run time.
fn value(n: usize) -> String {
    format!("x=$(head -c {n} /dev/zero | tr '\\0' a)")
}

fn memory_bombs() -> Vec<(&'static str, String)> {
    vec![
        ("baseline: echo hi", "echo hi".into()),
        ("${x//?/$x}, x of 1 MB", format!("{}; y=${{x//?/$x}}", value(1_000_000))),
        ("one word of sixty $x, x of 10 MB", format!("{}; y=\"{}\"", value(10_000_000), "$x".repeat(60))),
        (
            "200 variables of 10 MB",
            format!("{}; for i in $(seq 200); do printf -v v$i %s \"$x\"; done", value(10_000_000)),
        ),
        (
            "9,000 associative values of 5 MB",
            format!("{}; declare -A m; for ((i=0;i<9000;i++)); do m[k$i]=$x; done", value(5_000_000)),
        ),
        ("an array grown by 1 MB a turn", format!("{}; a=(); while :; do a+=(\"$x\"); done", value(1_000_000))),
        (
            "files of 10 MB in /tmp",
            format!("{}; for i in $(seq 100); do echo \"$x\" > /tmp/f$i; done", value(10_000_000)),
        ),
        ("jq: def f(x): f([x]); f(1)", "jq -n 'def f(x): f([x]); f(1)'".into()),
        ("jq: [range(1e9)]", "jq -n '[range(1e9)] | length'".into()),
        ("awk: a big array", "awk 'BEGIN { for (i = 0; ; i++) a[i] = sprintf(\"%1000s\", i) }'".into()),
        ("awk: a doubling string", "awk 'BEGIN { s = \"x\"; while (1) s = s s }'".into()),
        (
            "sort of a big stream",
            "yes 0123456789012345678901234567890123456789 | head -c 300000000 | sort | tail -1".into(),
        ),
        ("printf width of 2 GB", "printf '%*d' 2000000000 1 | wc -c".into()),
        ("seq into a variable", "x=$(seq 100000000)".into()),
    ]
}

fn freezing_scripts() -> Vec<(&'static str, String)> {
    let long = |n: usize| format!("x=$(head -c {n} /dev/zero | tr '\\0' a)");
    vec![
        ("busy loop", "while :; do :; done".into()),
        ("${x//*b/}, x of 100 kB", format!("{}; y=${{x//*b/}}", long(100_000))),
        ("${x%%*b}, x of 1 MB", format!("{}; y=${{x%%*b}}", long(1_000_000))),
        ("${x/#*b/}, x of 1 MB", format!("{}; y=${{x/#*b/}}", long(1_000_000))),
        ("[[ == *b*c ]], x of 1 MB", format!("{}; [[ $x == *b*c ]]", long(1_000_000))),
        ("extglob !(b)*c, x of 100 kB", format!("shopt -s extglob; {}; [[ $x == !(b)*c ]]", long(100_000))),
        ("awk: endless loop", "awk 'BEGIN { while (1) ; }'".into()),
        ("sed: endless branch", "echo x | sed ':a; ba'".into()),
        ("jq: endless recursion", "jq -n 'def f: f; f'".into()),
        ("jq: last(range(1e12))", "jq -n 'last(range(1e12))'".into()),
        ("dc: a macro calling itself", "dc -e '[dx]dx'".into()),
        ("bc: endless loop", "echo 'while (1) { }' | bc".into()),
        ("grep -E back-references", format!("{}; echo \"$x\" | grep -E '(a*)*\\1b'", long(100_000))),
        ("sort of 10^6 lines", "seq 1000000 | sort -r | sort -n | tail -1".into()),
        ("python: endless loop", "python3 -c 'while True: pass'".into()),
    ]
}

fn peak_rss(script: &str) -> (u64, Duration, String) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_sandbash"))
        .arg("-c")
        .arg(script)
        .env("SANDBASH_REPORT_PEAK_RSS", "1")
        .env("SANDBASH_TIMEOUT_MS", "60000")
        .env("SANDBASH_MAX_COMMANDS", "100000000")
        .env("SANDBASH_MAX_LOOP_ITERATIONS", "100000000")
        .env("SANDBASH_MAX_TOTAL_LOOP_ITERATIONS", "100000000")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run sandbash");
    let elapsed = t.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    let kib = err
        .lines()
        .find_map(|l| l.strip_prefix("sandbash: peak rss ")?.strip_suffix(" KiB")?.parse().ok())
        .unwrap_or(0);
    let why = match out.status.code() {
        None => "CRASHED (signal)".to_string(),
        Some(_) => err
            .lines()
            .filter(|l| !l.starts_with("sandbash: peak rss"))
            .last()
            .unwrap_or("finished")
            .chars()
            .take(70)
            .collect(),
    };
    (kib, elapsed, why)
}

fn memory() {
    let budget_mib = DEFAULT_MAX_MEMORY_BYTES as f64 / 1048576.0;
    println!("memory bombs, default limits (max_memory_bytes {budget_mib:.0} MiB); peak RSS of the CLI process");
    let mut base = 0.0;
    let mut worst: f64 = 0.0;
    for (name, script) in memory_bombs() {
        let (kib, t, why) = peak_rss(&script);
        let mib = kib as f64 / 1024.0;
        if base == 0.0 {
            base = mib;
        }
        worst = worst.max(mib);
        println!("  {name:<36} {mib:>8.1} MiB  {:>5.2}x budget  {:>6.2} s  {why}", mib / budget_mib, t.as_secs_f64());
    }
    println!("  worst peak {worst:.1} MiB = budget + {:.1} MiB (baseline process {base:.1} MiB)", worst - budget_mib);
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout_ms,
        max_commands: u64::MAX,
        max_loop_iterations: u64::MAX,
        max_total_loop_iterations: u64::MAX,
        ..Limits::default()
    }
}

fn time() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
        .expect("runtime");
    const TIMEOUT: u64 = 1000;
    println!("freezing scripts, timeout_ms {TIMEOUT}, in-process on 2 runtime workers");
    let mut worst_timeout = Duration::ZERO;
    let mut worst_cancel = Duration::ZERO;
    for (name, script) in freezing_scripts() {
        let (over, outcome) = rt.block_on(async {
            let mut bash =
                Bash::builder().limits(limits(TIMEOUT)).python(vec!["python3".into()]).build().expect("build");
            let t = Instant::now();
            let r = bash.exec(&script).await;
            (t.elapsed().saturating_sub(Duration::from_millis(TIMEOUT)), r)
        });
        let why = match outcome {
            Ok(r) => format!("finished, exit {}", r.exit_code),
            Err(e) => e.to_string(),
        };
        let cancel = rt.block_on(async {
            let mut bash =
                Bash::builder().limits(limits(60_000)).python(vec!["python3".into()]).build().expect("build");
            let token = CancelToken::default();
            let trigger = token.clone();
            let fired = std::sync::Arc::new(parking_lot::Mutex::new(None::<Instant>));
            let fired2 = fired.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                *fired2.lock() = Some(Instant::now());
                trigger.cancel();
            });
            let _ = bash.exec_with(&script, ExecOptions { cancel: token, ..Default::default() }).await;
            let at = *fired.lock();
            at.map(|f| f.elapsed())
        });
        worst_timeout = worst_timeout.max(over);
        let cancel_txt = match cancel {
            Some(c) => {
                worst_cancel = worst_cancel.max(c);
                format!("{:>7.1} ms", c.as_secs_f64() * 1e3)
            }
            None => "  (ended before the cancel)".to_string(),
        };
        println!(
            "  {name:<32} overshoot {:>7.1} ms   cancel lands in {cancel_txt}   {}",
            over.as_secs_f64() * 1e3,
            why.chars().take(60).collect::<String>()
        );
    }
    println!(
        "  worst timeout overshoot {:.1} ms, worst cancel {:.1} ms (target 100 ms each)",
        worst_timeout.as_secs_f64() * 1e3,
        worst_cancel.as_secs_f64() * 1e3
    );
}

fn main() {
    let only = std::env::var("ADVERSARIAL_ONLY").unwrap_or_default();
    if only != "time" {
        memory();
    }
    if only != "memory" {
        time();
    }
}
