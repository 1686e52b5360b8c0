//! Memory bombs: a session's total holding is bounded by `max_memory_bytes`,
//! whatever holds it (variables, arrays, files, history, words being built),
//! and the session keeps its state from before the stopped call.

use super::harness::*;
use sandbash::{Bash, Error, ExecOptions, Limits};

/// A small budget, so the bombs go off quickly even in a debug build; loops
/// and commands are unlimited so only memory (or time) can stop them.
fn budget(bytes: u64) -> Limits {
    Limits {
        max_memory_bytes: bytes,
        timeout_ms: 30_000,
        max_commands: u64::MAX,
        max_loop_iterations: u64::MAX,
        max_total_loop_iterations: u64::MAX,
        ..Limits::default()
    }
}

const BUDGET: u64 = 16 * 1024 * 1024;
const NEEDLE: &str = "memory limit exceeded (max_memory_bytes: 16777216)";

/// A value of `n` bytes, built at run time.
fn value(n: usize) -> String {
    format!("x=$(head -c {n} /dev/zero | tr '\\0' a)")
}

#[test]
fn many_variables_of_every_size() {
    for n in SIZES {
        let count = 3 * BUDGET as usize / n;
        let script = format!("{}; for ((i=0;i<{count};i++)); do printf -v v$i %s \"$x\"; done; echo done", value(n));
        stops_with_limits(&script, NEEDLE, budget(BUDGET));
    }
}

#[test]
fn a_growing_indexed_array() {
    for n in SIZES {
        let script = format!("{}; a=(); while :; do a+=(\"$x\"); done", value(n));
        stops_with_limits(&script, NEEDLE, budget(BUDGET));
    }
}

#[test]
fn a_growing_associative_array() {
    for n in [1_000, 100_000] {
        let script = format!("{}; declare -A m; i=0; while :; do m[k$i]=$x; i=$((i+1)); done", value(n));
        stops_with_limits(&script, NEEDLE, budget(BUDGET));
    }
}

#[test]
fn files_in_the_memory_filesystem() {
    for n in [10_000, 1_000_000] {
        let script = format!("{}; i=0; while :; do echo \"$x\" > /tmp/f$i; i=$((i+1)); done", value(n));
        stops_with_limits(&script, NEEDLE, budget(BUDGET));
    }
}

#[test]
fn a_string_doubled_by_appending() {
    // Each value stays under max_string_bytes; the copies kept do not.
    let script = "x=a; while ((${#x} < 1000000)); do x+=$x; done; i=0; while :; do y[i++]=$x; done";
    stops_with_limits(script, NEEDLE, budget(BUDGET));
}

#[test]
fn one_quoted_word_of_many_copies_stops_at_the_string_limit() {
    // Assigned, the quoted word takes the assignment's fast path: it must
    // stop at max_string_bytes (10 MB) like every other word, not build all
    // sixty copies first (600 MB for x of 10 MB) and refuse the result.
    let script = format!("{}; y=\"{}\"; echo unreached", value(1_000_000), "$x".repeat(60));
    stops_with_limits(&script, "expansion size limit exceeded (max_string_bytes: 10485760)", budget(BUDGET));
}

#[test]
fn function_bodies() {
    let script = format!("{}; i=0; while :; do eval \"f$i() {{ echo $x; }}\"; i=$((i+1)); done", value(100_000));
    stops_with_limits(&script, NEEDLE, budget(BUDGET));
}

#[test]
fn a_stopped_call_leaves_the_state_it_found_and_frees_what_it_took() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut bash = Bash::builder().limits(budget(BUDGET)).build().expect("build");
        bash.exec(&format!("{}; keep=$x", value(1_000_000))).await.expect("setup");
        for _ in 0..5 {
            let err = bash.exec("keep=changed; a=(); while :; do a+=(\"$x\"); done").await.expect_err("bomb");
            assert!(err.to_string().contains(NEEDLE), "{err}");
            // What the stopped calls built was freed: the same session can do
            // it again, and its state is the one from before.
            let r = bash.exec("echo ${#keep} ${keep:0:3}").await.expect("after");
            assert_eq!(r.stdout, b"1000000 aaa\n");
        }
    });
}

#[test]
fn what_a_session_keeps_between_calls_counts() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut bash = Bash::builder().limits(budget(BUDGET)).build().expect("build");
        bash.exec(&value(2_000_000)).await.expect("setup");
        let mut kept = 0;
        let err = loop {
            match bash.exec(&format!("k{kept}=$x")).await {
                Ok(_) => kept += 1,
                Err(e) => break e,
            }
            assert!(kept < 100, "16 MiB holds fewer than 100 copies of 2 MB");
        };
        assert!(matches!(err, Error::Stopped { .. }) && err.to_string().contains(NEEDLE), "{err}");
        assert!((5..=8).contains(&kept), "kept {kept} copies of 2 MB in 16 MiB");
        // Freeing makes room again.
        bash.exec("unset k0 k1 k2").await.expect("unset");
        bash.exec("k_again=$x").await.expect("room again");
    });
}

#[test]
fn history_holds_a_bounded_number_of_bytes() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut bash = Bash::builder().limits(budget(4 * BUDGET)).build().expect("build");
        // 40 scripts of 1 MB each: 40 MB of history if all were kept.
        let script = format!(": {}", "b".repeat(1_000_000));
        for _ in 0..40 {
            bash.exec_with(&script, ExecOptions::default()).await.expect("a big script is fine");
        }
        let r = bash.exec("history | wc -l").await.expect("history");
        let lines: usize = String::from_utf8_lossy(&r.stdout).trim().parse().expect("count");
        assert!((2..40).contains(&lines), "{lines} entries kept");
    });
}

#[test]
fn the_budget_is_per_session() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut a = Bash::builder().limits(budget(BUDGET)).build().expect("build");
        let mut b = Bash::builder().limits(budget(BUDGET)).build().expect("build");
        a.exec(&format!("{}; k1=$x; k2=$x; k3=$x", value(3_000_000))).await.expect("a holds 12 MB");
        b.exec(&format!("{}; k1=$x; k2=$x; k3=$x", value(3_000_000))).await.expect("so can b");
        drop(a);
        b.exec("echo ok").await.expect("b alone");
    });
}

#[test]
fn a_big_json_document_is_stopped_while_jq_parses_it() {
    // A file of a sixth of the budget whose values take several times their
    // text: it must be stopped while it is read, not once it is all built
    // (`empty` does too little work after the parse to look at the budget;
    // before the fix this finished, the process at 7 times the budget).
    let n = BUDGET as usize / 6 / 14;
    let script = format!("{{ echo '['; seq {n} | sed 's/.*/{{\"k\":&}},/'; echo '1]'; }} > /tmp/d; jq empty /tmp/d");
    stops_with_limits(&script, NEEDLE, budget(BUDGET));
}

/// Work that keeps nothing holds nothing: a function call unsets and sets the
/// call-stack arrays each time, and an exec's rollback journal once recorded
/// every such change (165 bytes a call, 8 MB for these calls, twice the
/// budget). The bound is memory, not time: a debug build on a busy machine
/// gets minutes.
#[test]
fn calls_and_resets_in_one_exec_hold_no_more_as_they_repeat() {
    let script = "f() { :; }; for ((i=0;i<50000;i++)); do f; unset y; y=$i; done; echo $y";
    let o = run_in_process(script, Limits { timeout_ms: 300_000, ..budget(4 * 1024 * 1024) });
    assert_eq!(o.stdout(), "49999\n", "{}", o.describe());
}
