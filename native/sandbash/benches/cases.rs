//! `cargo bench -p sandbash --bench cases -- PATH [OPTIONS]`: bashkit's benchmark
//! cases, read at run time from PATH (bashkit's `crates/bashkit-bench/src/cases.rs`,
//! or the copy in the project's shared bench folder), each run in-process with a
//! fresh session per run (as bashkit's own bench does) and as a spawned `bash -c`.
//!
//! Prints, per case, the median of the timed runs of both and their ratio
//! (bash / sandbash: above 1 means sandbash is faster), then per category and
//! overall the geometric mean of the medians and of the ratios, and whether
//! sandbash's stdout and status equal bash's.
//!
//! Options: `--runs N` (timed runs per case, default 50), `--warmup N` (default 5),
//! `--filter TEXT` (only cases whose name contains TEXT), `--no-bash` (sandbash only),
//! `--bash PATH` (the bash to compare with, default `bash`).
//!
//! The case file is parsed, not compiled: every `BenchCase::new(NAME, Category::X,
//! DESCRIPTION, SCRIPT)` call, with Rust string literals (plain or raw).

use sandbash::Bash;
use std::collections::BTreeMap;
use std::time::Instant;

#[path = "support/case_file.rs"]
mod case_file;
use case_file::{fmt_us, geomean, load_cases, median, run_bash, Case};

fn run_sandbash(rt: &tokio::runtime::Runtime, script: &str) -> (Vec<u8>, i32) {
    let mut bash = Bash::builder().build().expect("build");
    match rt.block_on(bash.exec(script)) {
        Ok(r) => (r.stdout, r.exit_code),
        Err(e) => (format!("<error: {e}>").into_bytes(), -1),
    }
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut path = None;
    let mut runs = 50usize;
    let mut warmup = 5usize;
    let mut filter = String::new();
    let mut with_bash = true;
    let mut bash_bin = "bash".to_string();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).expect("--runs N"),
            "--warmup" => warmup = args.next().and_then(|v| v.parse().ok()).expect("--warmup N"),
            "--filter" => filter = args.next().expect("--filter TEXT"),
            "--no-bash" => with_bash = false,
            "--bash" => bash_bin = args.next().expect("--bash PATH"),
            _ => path = Some(a),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: cargo bench -p sandbash --bench cases -- PATH/cases.rs [--runs N] [--warmup N] [--filter TEXT] [--no-bash] [--bash PATH]");
        std::process::exit(2);
    };
    let cases = match load_cases(&path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cases: {e}");
            std::process::exit(2);
        }
    };
    let cases: Vec<Case> = cases.into_iter().filter(|c| c.name.contains(&filter)).collect();
    let dir = std::env::temp_dir().join(format!("sandbash-cases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    println!(
        "{} cases from {path}, {runs} timed runs each after {warmup} warm-up runs, a fresh session per run",
        cases.len()
    );
    println!("{:<28} {:<10} {:>11} {:>11} {:>8}  same", "case", "category", "sandbash", "bash -c", "ratio");
    let mut by_cat: BTreeMap<String, (Vec<f64>, Vec<f64>, Vec<f64>)> = BTreeMap::new();
    let mut all = (Vec::new(), Vec::new(), Vec::new());
    let mut same_count = 0;
    for case in &cases {
        for _ in 0..warmup {
            std::hint::black_box(run_sandbash(&rt, &case.script));
        }
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            let mut bash = Bash::builder().build().expect("build");
            let r = rt.block_on(bash.exec(&case.script));
            drop(bash);
            times.push(t.elapsed());
            std::hint::black_box(r.ok());
        }
        let ours = median(times).as_secs_f64() * 1e6;
        let (mut theirs, mut same) = (f64::NAN, "-");
        if with_bash {
            let expect = run_bash(&bash_bin, &dir, &case.script);
            let got = run_sandbash(&rt, &case.script);
            same = if expect == got { "yes" } else { "NO" };
            if expect == got {
                same_count += 1;
            }
            let mut times = Vec::with_capacity(runs);
            for _ in 0..runs {
                let t = Instant::now();
                std::hint::black_box(run_bash(&bash_bin, &dir, &case.script));
                times.push(t.elapsed());
            }
            theirs = median(times).as_secs_f64() * 1e6;
        }
        let ratio = theirs / ours;
        println!(
            "{:<28} {:<10} {:>11} {:>11} {:>7.1}x  {same}",
            case.name,
            case.category,
            fmt_us(ours),
            if with_bash { fmt_us(theirs) } else { "-".into() },
            ratio
        );
        let e = by_cat.entry(case.category.clone()).or_default();
        e.0.push(ours);
        all.0.push(ours);
        if with_bash {
            e.1.push(theirs);
            e.2.push(ratio);
            all.1.push(theirs);
            all.2.push(ratio);
        }
    }
    println!();
    println!("geometric means of the medians");
    println!("{:<12} {:>5} {:>11} {:>11} {:>8}", "category", "cases", "sandbash", "bash -c", "ratio");
    for (cat, (o, t, r)) in &by_cat {
        println!("{cat:<12} {:>5} {:>11} {:>11} {:>7.1}x", o.len(), fmt_us(geomean(o)), fmt_us(geomean(t)), geomean(r));
    }
    println!(
        "{:<12} {:>5} {:>11} {:>11} {:>7.1}x",
        "all",
        all.0.len(),
        fmt_us(geomean(&all.0)),
        fmt_us(geomean(&all.1)),
        geomean(&all.2)
    );
    if with_bash {
        println!("stdout and status equal to bash: {same_count}/{}", cases.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
