//! `cargo bench -p sandbash --bench utils`: the text and data utilities on
//! generated 10 MB inputs, inside sandbash (in-process, the file in the
//! sandbox) beside the GNU tools (and jq) on the same data on this machine, in
//! the same run. Prints the medians and their ratio (sandbash / GNU).
//! The awk baseline is gawk when installed (GNU is the reference; the host's
//! plain `awk` may be mawk), with mawk as an extra column when present.
//! `BENCH_FILTER=sed` runs only the cases whose name contains it (for a
//! profiler); `BENCH_HOST=0` skips the host tools.

use sandbash::{Bash, Limits};
use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

const TARGET_BYTES: usize = 10 * 1024 * 1024;
const RUNS: usize = 5;

/// Deterministic lines like `000123 alpha 4711 beta-17 0.318 key=v42`.
fn text_input() -> String {
    let words = ["alpha", "beta", "gamma", "delta", "omega", "sigma"];
    let mut s = String::with_capacity(TARGET_BYTES + 100);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut i = 0u64;
    while s.len() < TARGET_BYTES {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let w = words[(x % 6) as usize];
        let v = words[((x >> 8) % 6) as usize];
        let _ = writeln!(
            s,
            "{i:06} {w} {} {v}-{} 0.{:03} key=v{}",
            x % 10_000,
            (x >> 16) % 100,
            (x >> 24) % 1000,
            (x >> 32) % 50
        );
        i += 1;
    }
    s
}

/// JSON lines like `{"n":12,"name":"alpha","tags":["x","y"],"score":0.5}`.
fn json_input() -> String {
    let mut s = String::with_capacity(TARGET_BYTES + 100);
    let mut i = 0u64;
    while s.len() < TARGET_BYTES {
        let _ = writeln!(
            s,
            "{{\"n\":{i},\"name\":\"item{}\",\"tags\":[\"t{}\",\"u{}\"],\"score\":{}.{}}}",
            i % 977,
            i % 7,
            i % 3,
            i % 100,
            i % 10
        );
        i += 1;
    }
    s
}

fn host_has(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().map(|o| o.status.success()).unwrap_or(false)
}

/// Times `cmd` under the host's bash `RUNS` times; the median.
fn time_host(name: &str, cmd: &str) -> Duration {
    let mut v = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let out = Command::new("bash").arg("-c").arg(cmd).env("LC_ALL", "C.UTF-8").output().expect("host");
        v.push(t.elapsed());
        assert!(out.status.success() || name.starts_with("grep"), "{name}: host tool failed: {cmd}");
    }
    median(v)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let dir = std::env::temp_dir().join(format!("sandbash-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let text = text_input();
    let mut sorted_lines: Vec<&str> = text.lines().map(|l| &l[7..]).collect();
    sorted_lines.sort_unstable();
    let sorted = sorted_lines.join("\n") + "\n";
    let json = json_input();
    for (name, data) in [("text", &text), ("sorted", &sorted), ("json", &json)] {
        std::fs::write(dir.join(name), data).expect("write input");
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let limits =
        Limits { max_output_bytes: 1 << 30, max_string_bytes: 1 << 30, timeout_ms: 600_000, ..Limits::default() };
    let mut bash = Bash::builder()
        .limits(limits)
        .file("/d/text", text.clone())
        .file("/d/sorted", sorted.clone())
        .file("/d/json", json.clone())
        .build()
        .expect("build");
    let has_jq = rt.block_on(bash.exec("type -t jq")).map(|r| r.exit_code == 0).unwrap_or(false);

    // (name, command with {} for the input directory). Output goes to a file
    // in both worlds, so the terminal is never the bottleneck.
    let mut cases: Vec<(&str, &str)> = vec![
        ("grep", "grep -c 'alpha.*beta' {}/text"),
        ("grep -i -v", "grep -iv 'OMEGA' {}/text | wc -l"),
        ("sed s///g", "sed 's/alpha/ALPHA/g; s/key=/k:/' {}/text > {}/out"),
        ("awk sum", "awk '{s += $3} END {print s}' {}/text"),
        ("awk fields", "awk -F' ' '$2 == \"gamma\" {n++; t += $5} END {print n, t}' {}/text"),
        ("sort", "sort {}/text > {}/out"),
        ("sort -n -k3", "sort -n -k3,3 {}/text > {}/out"),
        ("uniq -c", "uniq -c {}/sorted > {}/out"),
        ("wc", "wc {}/text"),
        ("cut", "cut -d' ' -f2,4 {}/text > {}/out"),
    ];
    if has_jq {
        cases.push(("jq select", "jq -c 'select(.n % 7 == 0) | {name, score}' {}/json > {}/out"));
        cases.push(("jq -r field", "jq -r '.name' {}/json > {}/out"));
    }
    let gawk = host_has("gawk");
    let mawk = host_has("mawk");
    println!("awk baseline: {}", if gawk { "gawk (GNU awk)" } else { "host awk (gawk not installed)" });
    if has_jq {
        let v = Command::new("jq").arg("--version").output().map(|o| o.stdout).unwrap_or_default();
        println!("jq baseline: {}", String::from_utf8_lossy(&v).trim());
    }
    println!("{:<14} {:>12} {:>12} {:>8} {:>12}", "tool", "sandbash", "GNU", "ratio", "mawk");
    let host_dir = dir.display().to_string();
    let filter = std::env::var("BENCH_FILTER").unwrap_or_default();
    let run_host = std::env::var("BENCH_HOST").map(|v| v != "0").unwrap_or(true);
    for (name, cmd) in cases.iter().filter(|(name, _)| name.contains(filter.as_str())) {
        let ours_cmd = cmd.replace("{}", "/d");
        let host_cmd = cmd.replace("{}", &host_dir);
        let is_awk = cmd.starts_with("awk ");
        let gnu_cmd = if is_awk && gawk { format!("g{host_cmd}") } else { host_cmd.clone() };
        let mut ours = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            let r = rt.block_on(bash.exec(&ours_cmd)).expect("exec");
            ours.push(t.elapsed());
            assert!(r.stderr.is_empty(), "{name}: {}", String::from_utf8_lossy(&r.stderr));
        }
        let o = median(ours);
        if !run_host {
            println!("{name:<14} {:>9.1} ms", o.as_secs_f64() * 1e3);
            continue;
        }
        let g = time_host(name, &gnu_cmd);
        let extra = if is_awk && mawk {
            format!("{:>9.1} ms", time_host(name, &format!("m{host_cmd}")).as_secs_f64() * 1e3)
        } else {
            String::new()
        };
        println!(
            "{name:<14} {:>9.1} ms {:>9.1} ms {:>7.2}x {extra:>12}",
            o.as_secs_f64() * 1e3,
            g.as_secs_f64() * 1e3,
            o.as_secs_f64() / g.as_secs_f64()
        );
    }
    if !has_jq {
        println!("(jq is not a sandbash command in this build: skipped)");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
