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
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Case {
    name: String,
    category: String,
    script: String,
}

/// A Rust string literal at `s[i..]`: `"..."` with escapes or `r#"..."#`.
/// Returns the value and the index after it.
fn string_literal(s: &[u8], mut i: usize) -> Result<(String, usize), String> {
    if s.get(i) == Some(&b'r') {
        i += 1;
        let mut hashes = 0;
        while s.get(i) == Some(&b'#') {
            hashes += 1;
            i += 1;
        }
        if s.get(i) != Some(&b'"') {
            return Err(format!("raw string without a quote at byte {i}"));
        }
        i += 1;
        let mut close = vec![b'"'];
        close.extend(std::iter::repeat_n(b'#', hashes));
        let start = i;
        while i + close.len() <= s.len() {
            if s[i..].starts_with(&close) {
                let v = String::from_utf8_lossy(&s[start..i]).into_owned();
                return Ok((v, i + close.len()));
            }
            i += 1;
        }
        return Err("unterminated raw string".into());
    }
    if s.get(i) != Some(&b'"') {
        return Err(format!("expected a string literal at byte {i}"));
    }
    i += 1;
    let mut out = Vec::new();
    while i < s.len() {
        match s[i] {
            b'"' => return Ok((String::from_utf8_lossy(&out).into_owned(), i + 1)),
            b'\\' => {
                let c = *s.get(i + 1).ok_or("escape at the end")?;
                i += 2;
                match c {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'0' => out.push(0),
                    b'\\' | b'"' | b'\'' => out.push(c),
                    b'\n' => {
                        while i < s.len() && s[i].is_ascii_whitespace() {
                            i += 1;
                        }
                    }
                    b'x' => {
                        let h = std::str::from_utf8(s.get(i..i + 2).ok_or("short \\x")?).map_err(|e| e.to_string())?;
                        out.push(u8::from_str_radix(h, 16).map_err(|e| e.to_string())?);
                        i += 2;
                    }
                    b'u' => {
                        let end = s[i..].iter().position(|&b| b == b'}').ok_or("bad \\u")? + i;
                        let h = std::str::from_utf8(&s[i + 1..end]).map_err(|e| e.to_string())?;
                        let ch =
                            char::from_u32(u32::from_str_radix(h, 16).map_err(|e| e.to_string())?).ok_or("bad \\u")?;
                        out.extend_from_slice(ch.to_string().as_bytes());
                        i = end + 1;
                    }
                    other => return Err(format!("unknown escape \\{}", other as char)),
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Err("unterminated string".into())
}

fn skip_ws_comma(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b',') {
        i += 1;
    }
    // Comments between arguments (`"true", // ...`).
    if s[i..].starts_with(b"//") {
        while i < s.len() && s[i] != b'\n' {
            i += 1;
        }
        return skip_ws_comma(s, i);
    }
    i
}

fn load_cases(path: &str) -> Result<Vec<Case>, String> {
    let text = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let s = &text[..];
    let pat = b"BenchCase::new(";
    let mut cases = Vec::new();
    let mut i = 0;
    while let Some(p) = s[i..].windows(pat.len()).position(|w| w == pat) {
        i += p + pat.len();
        let j = skip_ws_comma(s, i);
        let (name, j) = string_literal(s, j)?;
        let j = skip_ws_comma(s, j);
        let cat = b"Category::";
        if !s[j..].starts_with(cat) {
            return Err(format!("{name}: no Category"));
        }
        let k = j + cat.len();
        let end = k + s[k..].iter().position(|b| !b.is_ascii_alphanumeric() && *b != b'_').unwrap_or(0);
        let category = String::from_utf8_lossy(&s[k..end]).to_lowercase();
        let j = skip_ws_comma(s, end);
        let (_desc, j) = string_literal(s, j)?;
        let j = skip_ws_comma(s, j);
        let (script, j) = string_literal(s, j)?;
        cases.push(Case { name, category, script });
        i = j;
    }
    Ok(cases)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn geomean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

fn run_sandbash(rt: &tokio::runtime::Runtime, script: &str) -> (Vec<u8>, i32) {
    let mut bash = Bash::builder().build().expect("build");
    match rt.block_on(bash.exec(script)) {
        Ok(r) => (r.stdout, r.exit_code),
        Err(e) => (format!("<error: {e}>").into_bytes(), -1),
    }
}

fn run_bash(bash: &str, dir: &std::path::Path, script: &str) -> (Vec<u8>, i32) {
    let out = Command::new(bash)
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("spawn bash");
    (out.stdout, out.status.code().unwrap_or(-1))
}

fn fmt_us(d: f64) -> String {
    if d >= 1000.0 {
        format!("{:.2} ms", d / 1000.0)
    } else {
        format!("{d:.1} µs")
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
