//! sandbash against bashkit 0.20.2, in one process on one allocator (sandbash's
//! counting mimalloc), on bashkit's 96 bench cases: each run gets a fresh
//! interpreter, as bashkit's own bench does. Prints per case the median of
//! each and bashkit / sandbash (above 1: sandbash is faster), the geometric
//! means per category and overall, the six jq cases apart, whether each
//! engine's stdout and status equal `bash -c`'s, and the cost of a session
//! (creation, `echo hi` on a live one, resident memory per idle session).
//!
//! Usage: `cargo run --release --manifest-path native/bench_bashkit/Cargo.toml --
//! PATH/bashkit_cases.rs [--runs N] [--warmup N] [--filter TEXT] [--only sandbash|bashkit] [--cold] [--tails] [--live N]`
//! (`--only` times one engine, for a profiler; the other's column shows NaN;
//! `--cold`: sandbash forgets its cached parses before each run, so every
//! run parses its script as the first one does; `--tails` also prints each
//! case's 99th percentile;
//! `--live N` only runs `echo hi` N times on one live session, for a profiler).

#[path = "../../sandbash/benches/support/case_file.rs"]
mod case_file;

use case_file::{fmt_us, geomean, load_cases, median, run_bash, Case};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

type Rt = tokio::runtime::Runtime;

fn ours(rt: &Rt, script: &str, cold: bool) -> (Vec<u8>, i32) {
    if cold {
        sandbash::clear_parse_caches();
    }
    let mut b = sandbash::Bash::builder().build().expect("sandbash session");
    match rt.block_on(b.exec(script)) {
        Ok(r) => (r.stdout, r.exit_code),
        Err(e) => (format!("<error: {e}>").into_bytes(), -1),
    }
}

fn theirs(rt: &Rt, script: &str) -> (Vec<u8>, i32) {
    let mut b = bashkit::Bash::new();
    match rt.block_on(b.exec(script)) {
        Ok(r) => (r.stdout.into_bytes(), r.exit_code),
        Err(e) => (format!("<error: {e}>").into_bytes(), -1),
    }
}

/// Median and 99th percentile wall time (µs) of `runs` calls of `f`, after
/// `warmup` untimed ones.
fn time(runs: usize, warmup: usize, mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..warmup {
        f();
    }
    let mut v: Vec<Duration> = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        f();
        v.push(t.elapsed());
    }
    v.sort();
    let p99 = v.get((v.len() * 99 / 100).min(v.len().saturating_sub(1))).copied().unwrap_or_default();
    (median(v).as_secs_f64() * 1e6, p99.as_secs_f64() * 1e6)
}

/// Resident set size in bytes (Linux).
fn rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    s.split_whitespace().nth(1).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0) * 4096
}

/// Resident bytes per idle session: `n` sessions made and kept, each having
/// run `echo hi` once.
fn per_session<T>(n: usize, mut make: impl FnMut() -> T) -> f64 {
    let before = rss();
    let kept: Vec<T> = (0..n).map(|_| make()).collect();
    let after = rss();
    drop(kept);
    after.saturating_sub(before) as f64 / n as f64
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut path, mut runs, mut warmup, mut filter) = (None, 50usize, 5usize, String::new());
    let mut only = String::new();
    let mut live = 0usize;
    let mut cold = false;
    let mut tails = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).expect("--runs N"),
            "--warmup" => warmup = args.next().and_then(|v| v.parse().ok()).expect("--warmup N"),
            "--filter" => filter = args.next().expect("--filter TEXT"),
            "--only" => only = args.next().expect("--only sandbash|bashkit"),
            "--cold" => cold = true,
            "--tails" => tails = true,
            "--live" => live = args.next().and_then(|v| v.parse().ok()).expect("--live N"),
            _ => path = Some(a),
        }
    }
    if live > 0 {
        // For a profiler: only `echo hi` on one live session, `live` times.
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let mut sb = sandbash::Bash::builder().build().expect("session");
        for _ in 0..live {
            std::hint::black_box(rt.block_on(sb.exec("echo hi")).ok());
        }
        return;
    }
    let Some(path) = path else {
        eprintln!("usage: bench_bashkit PATH/bashkit_cases.rs [--runs N] [--warmup N] [--filter TEXT] [--only sandbash|bashkit] [--cold] [--tails] [--live N]");
        std::process::exit(2);
    };
    let cases: Vec<Case> = match load_cases(&path) {
        Ok(c) => c.into_iter().filter(|c| c.name.contains(&filter)).collect(),
        Err(e) => {
            eprintln!("cases: {e}");
            std::process::exit(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("bench-bashkit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");

    println!("{} cases, {runs} timed runs each after {warmup} warm-up runs, a fresh interpreter per run", cases.len());
    println!(
        "{:<28} {:<10} {:>11} {:>11} {:>8}  same as bash (sandbash, bashkit)",
        "case", "category", "sandbash", "bashkit", "ratio"
    );
    let mut by_cat: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let (mut same_ours, mut same_theirs) = (0, 0);
    for case in &cases {
        let expect = run_bash("bash", &dir, &case.script);
        let a = ours(&rt, &case.script, cold) == expect;
        let b = theirs(&rt, &case.script) == expect;
        same_ours += a as usize;
        same_theirs += b as usize;
        // Alternate the engines case by case so neither runs on a warmer machine.
        let (o, o99) = if only == "bashkit" {
            (f64::NAN, f64::NAN)
        } else {
            time(runs, warmup, || {
                std::hint::black_box(ours(&rt, &case.script, cold));
            })
        };
        let (t, t99) = if only == "sandbash" {
            (f64::NAN, f64::NAN)
        } else {
            time(runs, warmup, || {
                std::hint::black_box(theirs(&rt, &case.script));
            })
        };
        let yn = |x: bool| if x { "yes" } else { "NO" };
        println!(
            "{:<28} {:<10} {:>11} {:>11} {:>7.2}x  {} {}",
            case.name,
            case.category,
            fmt_us(o),
            fmt_us(t),
            t / o,
            yn(a),
            yn(b)
        );
        if tails {
            println!("{:<28} {:<10} {:>11} {:>11}  (99th percentile)", "", "", fmt_us(o99), fmt_us(t99));
        }
        by_cat.entry(case.category.clone()).or_default().push((o, t));
        if case.script.contains("jq") {
            by_cat.entry("(uses jq)".into()).or_default().push((o, t));
        }
    }
    println!();
    println!("geometric means of the medians");
    println!("{:<12} {:>5} {:>11} {:>11} {:>8}", "category", "cases", "sandbash", "bashkit", "ratio");
    let mut all = Vec::new();
    for (cat, v) in &by_cat {
        if !cat.starts_with('(') {
            all.extend(v.iter().copied());
        }
    }
    for (cat, v) in by_cat.iter().chain(std::iter::once((&"all".to_string(), &all))) {
        let o: Vec<f64> = v.iter().map(|x| x.0).collect();
        let t: Vec<f64> = v.iter().map(|x| x.1).collect();
        let r: Vec<f64> = v.iter().map(|x| x.1 / x.0).collect();
        println!(
            "{cat:<12} {:>5} {:>11} {:>11} {:>7.2}x",
            v.len(),
            fmt_us(geomean(&o)),
            fmt_us(geomean(&t)),
            geomean(&r)
        );
    }
    println!("stdout and status equal to bash: sandbash {same_ours}/{n}, bashkit {same_theirs}/{n}", n = cases.len());

    if !only.is_empty() {
        return;
    }
    println!();
    println!("a session                      sandbash     bashkit");
    let (o, _) = time(2000, 100, || {
        std::hint::black_box(sandbash::Bash::builder().build().expect("session"));
    });
    let (t, _) = time(2000, 100, || {
        std::hint::black_box(bashkit::Bash::new());
    });
    println!("new session                 {:>11} {:>11}", fmt_us(o), fmt_us(t));
    let mut sb = sandbash::Bash::builder().build().expect("session");
    let mut bk = bashkit::Bash::new();
    let (o, _) = time(5000, 200, || {
        std::hint::black_box(rt.block_on(sb.exec("echo hi")).ok());
    });
    let (t, _) = time(5000, 200, || {
        std::hint::black_box(rt.block_on(bk.exec("echo hi")).ok());
    });
    println!("echo hi, live session       {:>11} {:>11}", fmt_us(o), fmt_us(t));
    let o = per_session(10_000, || {
        let mut b = sandbash::Bash::builder().build().expect("session");
        let _ = rt.block_on(b.exec("echo hi"));
        b
    });
    let t = per_session(10_000, || {
        let mut b = bashkit::Bash::new();
        let _ = rt.block_on(b.exec("echo hi"));
        b
    });
    println!("resident per idle session   {:>8.1} KB {:>8.1} KB", o / 1024.0, t / 1024.0);
    let _ = std::fs::remove_dir_all(&dir);
}
