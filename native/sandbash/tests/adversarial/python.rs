//! See tests/adversarial.rs. Python bombs on CPython (the `cpython` feature):
//! loops in Python and in C that never return, memory that only grows,
//! recursion through Python, the parser and C, and output without end. Each
//! must end at the session's limit (the deadline, the memory budget, the
//! output limit) or with CPython's own error, in-process and in the CLI,
//! never with a crash of the host.

use crate::harness::{survives_as, Outcome, SIZES};
use sandbash::Limits;

const DEADLINE_MS: u64 = 1_500;
const BUDGET: u64 = 96 << 20;

fn limits() -> Limits {
    Limits { timeout_ms: crate::harness::TIMEOUT_MS, ..Limits::default() }
}

/// `prog` as a `python3 -c` argument (single-quoted for the shell), then its status.
fn script(prog: &str) -> String {
    format!("python3 -c '{}'; echo \"status $?\"", prog.replace('\'', "'\\''"))
}

fn survives(prog: &str, limits: Limits) -> Outcome {
    survives_as(&script(prog), limits, true)
}

#[track_caller]
fn stops_at(prog: &str, needle: &str, limits: Limits) {
    let o = survives(prog, limits);
    match &o.result {
        Err(e) => assert!(e.to_string().contains(needle), "{prog}: {e}"),
        Ok(_) => panic!("{prog}: finished ({}), expected an error with {needle:?}", o.describe()),
    }
}

/// The program ended with a Python exception named `error` (status 1),
/// raised by CPython inside the limits rather than by a crash.
#[track_caller]
fn raises(prog: &str, error: &str, limits: Limits) {
    let o = survives(prog, limits);
    let text = o.describe();
    assert!(text.contains(error), "{prog}: {text}");
    assert!(!text.contains("Fatal Python error"), "{prog}: {text}");
    assert_eq!(o.stdout(), "status 1\n", "{prog}: {text}");
}

#[test]
fn loops_in_python_and_in_c_end_at_the_deadline() {
    let deadline = Limits { timeout_ms: DEADLINE_MS, ..limits() };
    for prog in [
        "while True: pass",
        "def f():\n    while True: yield 1\nfor _ in f(): pass",
        // C loops compiled to wasm: the epoch check sits in every loop.
        "import re\nre.match(\"(a*)*b\", \"a\" * 40)",
        "sum(range(10**15))",
        "x = 7 ** 10**8",
        "import hashlib\nwhile True: hashlib.sha256(b\"x\" * 10**6).digest()",
        "import time\ntime.sleep(3600)",
        "try:\n    while True: pass\nexcept BaseException: pass\nwhile True: pass",
    ] {
        stops_at(prog, "timed out", deadline.clone());
    }
}

#[test]
fn memory_ends_at_the_budget() {
    let budget = Limits { max_memory_bytes: BUDGET, ..limits() };
    // Growth in steps of each size, generated here.
    for n in SIZES {
        raises(&format!("x = []\nwhile True: x.append(bytes({n}))"), "MemoryError", budget.clone());
        raises(
            &format!("x = {{}}\ni = 0\nwhile True:\n    x[i] = \"v\" * {n}\n    i += 1"),
            "MemoryError",
            budget.clone(),
        );
    }
    // One request far past the budget (and within wasm32's index range).
    for prog in ["bytearray(10**9)", "\"a\" * 10**9", "[0] * 10**8", "list(range(10**8))"] {
        raises(prog, "MemoryError", budget.clone());
    }
}

#[test]
fn recursion_ends_in_recursion_error() {
    for n in SIZES {
        // Nesting built at run time, then walked by C code.
        let nest = format!("x = []\nfor _ in range({n}): x = [x]\n");
        for walk in
            ["repr(x)", "import json\njson.dumps(x)", "import pickle\npickle.dumps(x)", "import copy\ncopy.deepcopy(x)"]
        {
            raises(&format!("{nest}{walk}"), "RecursionError", limits());
        }
        raises(&format!("import json\njson.loads(\"[\" * {n} + \"]\" * {n})"), "RecursionError", limits());
        // The parser's own bound.
        raises(&format!("eval(\"(\" * {n} + \")\" * {n})"), "Error", limits());
    }
    for prog in [
        "def f(n): return f(n + 1)\nf(0)",
        "import functools\n@functools.lru_cache\ndef f(n): return f(n + 1)\nf(0)",
        "class A:\n    def __init__(self, n): A(n + 1)\nA(0)",
        "class A:\n    def __repr__(self): return repr(self)\nrepr(A())",
        "import sys\nsys.setrecursionlimit(10**6)\ndef f(n): return f(n + 1)\nf(0)",
    ] {
        let o = survives(prog, Limits { max_memory_bytes: BUDGET, ..limits() });
        let text = o.describe();
        // Past a raised recursion limit CPython's frames grow until the
        // budget refuses (3.12.0 then reports MemoryError or SystemError) or
        // the guest's stack ends (CPython's own fatal error, as on Linux):
        // the guest's errors, never a crash of ours.
        assert!(
            ["RecursionError", "MemoryError", "SystemError", "Fatal Python error"].iter().any(|e| text.contains(e)),
            "{prog}: {text}"
        );
        assert_ne!(o.stdout(), "status 0\n", "{prog}: {text}");
    }
}

#[test]
fn output_ends_at_the_output_limit() {
    let small = Limits { max_output_bytes: 100_000, ..limits() };
    for prog in [
        "while True: print(\"x\" * 1000)",
        "import sys\nsys.stdout.write(\"x\" * 10**7)",
        "import os\nwhile True: os.write(1, b\"y\" * 65536)",
        "import sys\nwhile True: print(\"e\" * 1000, file=sys.stderr)",
    ] {
        stops_at(prog, "max_output_bytes", small.clone());
    }
}
