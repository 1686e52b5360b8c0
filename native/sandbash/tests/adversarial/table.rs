//! See tests/adversarial.rs. The whole command table against generated
//! inputs (`tests/table/gen.rs`) at small sizes: every run ends within its
//! timeout plus a slack, holds no more than its budget plus a constant, never
//! panics, and leaves the session usable. `cargo bench -p sandbash --bench
//! table` runs the same at full sizes and prints the worst overshoots.

#[path = "../table/gen.rs"]
mod gen;

use std::time::Duration;

/// Lines (and kilobytes, roughly) of the generated inputs.
const N: usize = 1000;
const TIMEOUT_MS: u64 = 1000;
/// Generous: a debug build on two busy cores (the bench gives the real overshoot).
const SLACK: Duration = Duration::from_secs(10);
const BUDGET: u64 = 32 << 20;
/// What a run may hold past its budget: the last blocks allocated before the
/// check that stops it.
const OVER: u64 = 16 << 20;
/// The table is split in this many tests, run in parallel.
const PARTS: usize = 6;

#[test]
fn every_command_has_shapes_of_its_own_or_is_listed_as_generic() {
    let missing: Vec<String> = gen::all_names()
        .into_iter()
        .filter(|n| !gen::OWN.iter().any(|(c, _)| c == n) && !gen::GENERIC_ONLY.contains(&n.as_str()))
        .collect();
    assert!(missing.is_empty(), "commands with no entry in tests/table/gen.rs: {missing:?}");
}

fn part(k: usize) {
    gen::count_panics();
    let files = gen::files(N);
    let names: Vec<String> =
        gen::all_names().into_iter().enumerate().filter(|(i, _)| i % PARTS == k).map(|(_, n)| n).collect();
    let mut failures = Vec::new();
    for name in &names {
        for script in gen::scripts(name, N) {
            let before = gen::PANICS.load(std::sync::atomic::Ordering::SeqCst);
            let r = gen::run(&script, &files, gen::limits(TIMEOUT_MS, BUDGET));
            let shown = script.lines().skip(2).collect::<Vec<_>>().join("; ");
            if r.elapsed > Duration::from_millis(TIMEOUT_MS) + SLACK {
                failures.push(format!("{shown}: took {:?}", r.elapsed));
            }
            if r.peak > BUDGET + OVER {
                failures.push(format!("{shown}: held {} bytes (budget {BUDGET})", r.peak));
            }
            if gen::PANICS.load(std::sync::atomic::Ordering::SeqCst) != before {
                failures.push(format!("{shown}: panicked ({:?})", r.outcome));
            }
            if !r.usable {
                failures.push(format!("{shown}: the session was not usable after it ({:?})", r.outcome));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn table_part_0() {
    part(0)
}
#[test]
fn table_part_1() {
    part(1)
}
#[test]
fn table_part_2() {
    part(2)
}
#[test]
fn table_part_3() {
    part(3)
}
#[test]
fn table_part_4() {
    part(4)
}
#[test]
fn table_part_5() {
    part(5)
}
