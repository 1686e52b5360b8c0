//! See tests/adversarial.rs. Utilities: jq, awk, dc, printf, python.

#[allow(unused_imports)]
use super::harness::*;
use sandbash::Limits;

#[test]
fn jq_recursion_that_builds_no_values_is_stopped() {
    refused("jq -n 'def f: [f]; f'", &["program recursion too deep"]);
}

#[test]
fn jq_closure_chains_stop_on_memory_or_time() {
    refused("jq -n 'def f(x): f([x]); f(1)'", &["memory limit exceeded", "timed out", "nesting"]);
    refused("jq -n 'def f(x): f(x+x); f(\"ab\")'", &["memory limit exceeded", "too large", "timed out"]);
}

#[test]
fn jq_big_values_are_refused() {
    refused("jq -n '[range(1e9)] | length'", &["too large", "memory limit exceeded", "timed out"]);
    refused("jq -n '\"x\" * 1e9 | length'", &["too large", "memory limit exceeded"]);
}

#[test]
fn jq_endless_output_stops_in_time() {
    refused("jq -n 'def f: ., f; last(f)'", &["timed out", "recursion too deep"]);
}

#[test]
fn jq_deeply_nested_programs_are_refused() {
    for n in SIZES {
        // Built at run time: the shell's own parser never sees the nesting.
        let gen = |s: &str| format!("$(printf '%{n}s' '' | sed 's/ /{s}/g')");
        let parens = format!("jq -n \"{}1{}\"", gen("("), gen(")"));
        if n <= 1000 {
            // Within jq's own nesting (the limit is 1000 levels).
            assert_eq!(survives(&parens).stdout(), "1\n");
            continue;
        }
        refused(&parens, &["nested too deeply"]);
        let defs = format!("jq -n \"{}1{}\"", gen("def f: "), gen(";1"));
        refused(&defs, &["nested too deeply"]);
    }
}

#[test]
fn jq_long_flat_programs_survive() {
    for n in [1_000, 10_000] {
        survives(&format!("jq -n '{}1'", rep("1 as $x | ", n)));
    }
}

#[test]
fn awk_runaway_recursion_and_arrays_stop() {
    refused("awk 'function f(n){return f(n+1)} BEGIN{f(1)}'", &["function call nesting too deep"]);
    refused("awk 'BEGIN{while(1) a[i++]=sprintf(\"%1000000d\",1)}'", &["memory limit exceeded", "timed out"]);
    for n in SIZES {
        let x = format!("$(printf '%{n}s' '' | tr ' ' '(')");
        refused(&format!("awk \"BEGIN{{print {x}1}}\""), &["nested too deeply"]);
    }
}

#[test]
fn dc_self_calling_macro_stops() {
    refused("echo '[dx]dx' | dc", &["max_total_loop_iterations", "max_function_depth", "timed out"]);
}

#[test]
fn printf_huge_width_is_refused() {
    refused("printf '%*d' 2000000000 1 | wc -c", &["output limit exceeded", "memory limit"]);
}

/// Python is off by default: an in-process run with it enabled.
fn run_python(script: &str) -> Result<sandbash::ExecResult, sandbash::Error> {
    let script = script.to_string();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            rt.block_on(async {
                let mut bash =
                    sandbash::Bash::builder().python(vec!["python3".into()]).limits(limits()).build().expect("build");
                bash.exec_with(&script, sandbash::ExecOptions::default()).await
            })
        })
        .expect("spawn")
        .join()
        .expect("the run panicked")
}

#[test]
fn python_growing_list_stops_on_memory() {
    let e = run_python("python3 -c 'l=[]\nwhile True: l.append(\"x\"*1000)'; echo after").unwrap_err();
    assert!(e.to_string().contains("memory limit exceeded"), "{e}");
    let e = run_python("python3 -c 'l=[0]\nwhile True: l=l+l' >/dev/null; echo after").unwrap_err();
    assert!(e.to_string().contains("memory limit exceeded") || e.to_string().contains("timed out"), "{e}");
}

#[test]
fn python_deep_recursion_is_a_recursion_error() {
    let r = run_python("python3 -c 'def f(): f()\nf()' 2>&1 | tail -1").expect("runs");
    assert_eq!(String::from_utf8_lossy(&r.stdout), "RecursionError: maximum recursion depth exceeded\n");
}

/// Operator chains are built in the parsers' loops, not by recursion: the
/// tree's depth is counted (a syntax error past 1000 levels), so evaluating
/// and dropping it never overflows the stack.
#[test]
fn awk_and_bc_long_operator_chains_are_refused() {
    // 999 operators: a tree of exactly 1000 levels, still run.
    for n in std::iter::once(999).chain(SIZES) {
        let chain = |s: &str| format!("$(printf '%{n}s' '' | sed 's/ /{s}/g')");
        for (op, body) in [("+", "1+"), ("concat", "x "), ("&&", "1\\&\\&"), ("f()", "f()+")] {
            let script = format!("awk \"function f(){{return 1}} BEGIN{{x=1; print {}1}}\"", chain(body));
            if n < 1000 {
                let o = survives(&script);
                let want = if op == "concat" {
                    "1".repeat(n + 1)
                } else if op == "&&" {
                    "1".into()
                } else {
                    (n + 1).to_string()
                };
                assert_eq!(o.stdout(), format!("{want}\n"), "{op} {n}");
                continue;
            }
            // Refused by the parser's depth, or, for the longest, before
            // it starts: its tokens would not fit the memory budget.
            refused(&script, &["nested too deeply", "max_memory_bytes"]);
        }
        let bc = format!("echo \"{}1\" | bc", chain("1+"));
        if n < 1000 {
            assert_eq!(survives(&bc).stdout(), format!("{}\n", n + 1));
        } else {
            refused(&bc, &["memory exhausted"]);
        }
    }
}

/// Back-references need the backtracking engine: each search is bounded (a
/// step limit that shrinks on long lines) and the budget is checked between
/// searches, so long lines and many lines end in time; a search past the
/// limit is reported (status 2 for grep, 4 for sed), never a silent no-match.
#[test]
fn grep_and_sed_back_references_stay_bounded() {
    for n in SIZES {
        let x = format!("x=$(head -c {n} /dev/zero | tr '\\0' a)");
        let o = survives(&format!("{x}; echo \"$x\" | grep -cE '(a*)*\\1(a*)*\\2b'; echo rc=$?"));
        assert!(o.stdout().ends_with("rc=2\n") || o.stdout().ends_with("rc=1\n"), "{n}: {}", o.stdout());
        survives(&format!("{x}; echo \"$x\" | sed -E 's/(a*)*\\1b//' | wc -c"));
        if n > 100_000 {
            continue;
        }
        // A match that exists is found.
        let o = survives(&format!("{x}; echo \"${{x}}b\" | grep -cE '(a)\\1b'"));
        assert_eq!(o.stdout(), "1\n", "{n}: {}", o.describe());
    }
    for n in [1_000, 100_000] {
        survives(&format!("yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | head -n {n} | grep -cE '(a|aa)*\\1c'"));
        survives(&format!("yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | head -n {n} | sed -E 's/(a|aa)*\\1c//' | wc -l"));
    }
}

/// A join of two groups of equal keys writes the product as it makes it: 20,000
/// lines joined with themselves are 4·10^8 lines, far past any budget held at
/// once (they were, until the allocator gave up).
#[test]
fn join_of_equal_keys_streams_its_product() {
    let l = Limits { timeout_ms: 2_000, ..limits() };
    let o = survives_with("yes a | head -n 20000 > /f; join /f /f | tail -n 1", l);
    assert!(o.describe().contains("timed out") || o.stdout() == "a\n", "{}", o.describe());
}

/// A regex compile cannot be interrupted, so it is priced first (memory and
/// time per byte of source): a list of a million patterns is refused at once
/// instead of compiling for half a minute past the deadline.
#[test]
fn pattern_lists_are_priced_before_they_are_compiled() {
    let l = Limits { timeout_ms: 2_000, ..limits() };
    let o = survives_with("seq 1000000 > /p; grep -c -f /p /p", l.clone());
    let text = o.describe();
    assert!(["memory limit exceeded", "timed out"].iter().any(|n| text.contains(n)), "{text}");
    // A list that fits is compiled and used.
    assert_eq!(survives_with("seq 1000 > /p; grep -c -f /p /p", l).stdout(), "1000\n");
}

/// diff's ways to make much output from little input stay bounded: wide
/// side-by-side lines (`-W` of 65,536 columns for each of 200,000 lines),
/// a group format that repeats its lines, a line format of a megabyte (each
/// gigabytes of output: they must stop on memory or time), and 5,000 nested
/// conditionals (past 32 levels they are written as text: it finishes).
#[test]
fn diff_outputs_that_amplify_are_bounded() {
    let l = Limits { timeout_ms: 2_000, ..limits() };
    let setup = "seq 200000 > /a; seq 2 200001 > /b";
    for run in [
        "diff -y -W 65536 /a /b | wc -c",
        "diff --unchanged-group-format=\"$(printf '%%=%.0s' {1..2000})\" /a /b | wc -c",
        "diff --line-format=\"$(head -c 1000000 /dev/zero | tr '\\0' x)%L\" /a /b | wc -c",
    ] {
        let o = survives_with(&format!("{setup}; {run}"), l.clone());
        let text = o.describe();
        assert!(["memory limit exceeded", "timed out"].iter().any(|n| text.contains(n)), "{run}: {text}");
    }
    let nested =
        "seq 100 > /a; seq 2 101 > /b; diff --old-group-format=\"$(printf '%%(1=1?%.0s' {1..5000})\" /a /b | wc -c";
    let o = survives(nested);
    assert!(o.describe().starts_with("exit 0"), "{}", o.describe());
}

/// diff -X with a long list and tar over thousands of names of one file:
/// the work per name grows with the list, and the deadline ends it.
#[test]
fn long_exclusion_lists_and_many_hard_links_end_in_time() {
    let l = Limits { timeout_ms: 2_000, ..limits() };
    survives_with("mkdir -p /d1 /d2; cd /d1; seq 3000 | xargs touch; cp -r /d1/. /d2; seq 200000 | sed 's/^/x/' > /ex; diff -r -X /ex /d1 /d2; echo $?", l.clone());
    survives_with("mkdir /h; cd /h; : > a; for i in $(seq 20000); do ln a h$i; done; tar cf /t.tar .; echo $?", l);
}

/// split --filter runs a command per piece, find -fprint writes per match:
/// both end at the deadline however many pieces or files there are.
#[test]
fn split_filters_and_find_output_files_end_in_time() {
    let l = Limits { timeout_ms: 2_000, ..limits() };
    survives_with("seq 1000000 > /n; split -l 1 --filter='cat >/dev/null' /n; echo done", l.clone());
    survives_with("mkdir -p /t; cd /t; for i in $(seq 3000); do : > f$i; done; while :; do find /t -fprint /o -fprintf /p '%p %s %t\\n'; done", l);
}

#[test]
fn mapfile_of_one_long_line_in_many_chunks_reads_it_once() {
    // A line of 4 MB through a pipe comes in many chunks: each chunk is
    // searched for the delimiter once, not the whole carried line again.
    let line = 4 << 20;
    let out =
        survives(&format!("head -c {line} /dev/zero | tr '\\0' x | {{ mapfile -t a; echo ${{#a[@]}} ${{#a[0]}}; }}"));
    assert_eq!(out.stdout(), format!("1 {line}\n"), "{}", out.describe());
}
