//! The whole command table against generated inputs at full sizes (the
//! property test `tests/adversarial/table.rs` runs them small): for every
//! command, the worst time past the timeout and the most memory past the
//! budget over all its shapes and sizes, and any panic or unusable session.
//!
//! ```sh
//! cargo bench -p sandbash --bench table                 # sizes 10^3, 10^5, 10^6
//! cargo bench -p sandbash --bench table -- --sizes 1000 --filter sort --verbose
//! ```

#[path = "../tests/table/gen.rs"]
mod gen;

use std::time::Duration;

const TIMEOUT_MS: u64 = 2000;
const BUDGET: u64 = 256 << 20;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let sizes: Vec<usize> = arg("--sizes")
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 100_000, 1_000_000]);
    let filter = arg("--filter");
    // `--verbose`: a line for every script, with its time and peak.
    let verbose = args.iter().any(|a| a == "--verbose");
    gen::count_panics();
    println!("timeout {TIMEOUT_MS} ms, budget {} MiB, sizes {sizes:?}", BUDGET >> 20);
    println!(
        "{:<16} {:>5} {:>10} {:>12} {:>12} {:>12} {:>7}",
        "command", "runs", "worst ms", "past timeout", "peak MiB", "past budget", "faults"
    );
    let mut worst_over = (0i64, String::new());
    let mut worst_mem = (0i64, String::new());
    let mut faults = Vec::new();
    for n in &sizes {
        let files = gen::files(*n);
        for name in gen::all_names() {
            if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
                continue;
            }
            let (mut runs, mut worst, mut over, mut peak, mut past, mut bad) = (0, Duration::ZERO, 0i64, 0u64, 0i64, 0);
            for script in gen::scripts(&name, *n) {
                let before = gen::PANICS.load(std::sync::atomic::Ordering::SeqCst);
                let r = gen::run(&script, &files, gen::limits(TIMEOUT_MS, BUDGET));
                runs += 1;
                worst = worst.max(r.elapsed);
                let o = r.elapsed.as_millis() as i64 - TIMEOUT_MS as i64;
                over = over.max(o);
                peak = peak.max(r.peak);
                let p = r.peak as i64 - BUDGET as i64;
                past = past.max(p);
                let shown = format!("{name} n={n}: {}", r.script.lines().skip(2).collect::<Vec<_>>().join("; "));
                if verbose {
                    println!(
                        "  {:>6} ms {:>8.1} MiB {:?}  {shown}",
                        r.elapsed.as_millis(),
                        r.peak as f64 / (1 << 20) as f64,
                        r.outcome
                    );
                }
                if o > worst_over.0 {
                    worst_over = (o, shown.clone());
                }
                if p > worst_mem.0 {
                    worst_mem = (p, shown.clone());
                }
                if gen::PANICS.load(std::sync::atomic::Ordering::SeqCst) != before || !r.usable {
                    bad += 1;
                    faults.push(format!("{shown}: {:?} usable={}", r.outcome, r.usable));
                }
            }
            println!(
                "{:<16} {:>5} {:>10} {:>12} {:>12.1} {:>12} {:>7}",
                format!("{name}@{n}"),
                runs,
                worst.as_millis(),
                over.max(0),
                peak as f64 / (1 << 20) as f64,
                past.max(0),
                bad
            );
        }
    }
    println!("\nworst time past the timeout: {} ms ({})", worst_over.0, worst_over.1);
    println!("most memory past the budget: {} bytes ({})", worst_mem.0, worst_mem.1);
    println!("faults: {}", faults.len());
    for f in &faults {
        println!("  {f}");
    }
}
