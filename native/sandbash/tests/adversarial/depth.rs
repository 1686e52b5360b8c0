//! See tests/adversarial.rs. The shell's own recursive evaluators and
//! nesting: arithmetic, `test`/`[`/`[[ ]]`, `expr`, `find`, and strings run
//! inside each other (`eval`, `source`, traps, `${x@P}`).

#[allow(unused_imports)]
use super::harness::*;
use sandbash::Limits;

/// Shell code setting `var` to `unit` repeated `n` times, built at run time
/// by doubling (no brace expansion, no loop of `n` turns).
fn repeated(var: &str, unit: &str, n: usize) -> String {
    let len = n * unit.len();
    format!("{var}='{unit}'; while ((${{#{var}}} < {len})); do {var}=${var}${var}; done; {var}=${{{var}:0:{len}}}; ")
}

/// The in-process run finished, and its stderr/stdout, status.
fn finished(o: &Outcome) -> (String, String, i32) {
    match &o.result {
        Ok(r) => (
            String::from_utf8_lossy(&r.stdout).into_owned(),
            String::from_utf8_lossy(&r.stderr).into_owned(),
            r.exit_code,
        ),
        Err(e) => panic!("expected a finished script, got {e}"),
    }
}

const TOO_DEEP: &str = "expression recursion level exceeded";

#[test]
fn arithmetic_deep_parentheses() {
    for n in SIZES {
        let script =
            format!("{}{}x=${{o}}1${{c}}; echo $((x)); echo after", repeated("o", "(", n), repeated("c", ")", n));
        let o = survives(&script);
        let (out, err, _) = finished(&o);
        if n < 1024 && out == "1\nafter\n" {
            // Under bash's limit; a debug build's frames may exhaust the
            // stack first, which gives the same error (next branch).
        } else {
            // bash's message; the line is abandoned, as for any arithmetic error.
            assert!(err.contains(TOO_DEEP), "{n}: {err:.300}");
            assert!(err.ends_with(")\")\n"), "{n}: {}", &err[err.len().saturating_sub(100)..]);
        }
        let let_script = format!("{}{}x=${{o}}1${{c}}; let y=x; echo $?", repeated("o", "(", n), repeated("c", ")", n));
        let o = survives(&let_script);
        let (out, err, _) = finished(&o);
        assert!(out == "1\n" && err.contains(TOO_DEEP) || n < 1024 && out == "0\n", "{n}: {out} {err:.200}");
    }
}

#[test]
fn arithmetic_long_unary_chains_are_not_nesting() {
    for n in SIZES {
        for op in ["-", "!", "~"] {
            // An even number of each gives back the operand.
            let script = format!("{}x=${{m}}1; echo $((x))", repeated("m", &format!("{op}{op}"), n / 2));
            let o = survives(&script);
            let (out, err, _) = finished(&o);
            assert_eq!(out, "1\n", "{op} x {n}: {err:.200}");
        }
    }
}

#[test]
fn arithmetic_nested_ternaries_and_assignments() {
    for n in SIZES {
        let t = format!("{}{}x=${{a}}1${{b}}; echo $((x))", repeated("a", "1?", n), repeated("b", ":0", n));
        let (out, err, _) = finished(&survives(&t));
        if n < 1024 {
            assert_eq!(out, "1\n");
        } else {
            assert!(err.contains(TOO_DEEP), "{n}: {err:.200}");
        }
        let a = format!("{}x=${{a}}7; echo $((x)) $v", repeated("a", "v=", n));
        let (out, err, _) = finished(&survives(&a));
        if n < 1024 {
            assert_eq!(out, "7 7\n");
        } else {
            assert!(err.contains(TOO_DEEP), "{n}: {err:.200}");
        }
    }
}

#[test]
fn arithmetic_nested_subscripts_are_linear() {
    for n in SIZES {
        let s = format!("a=(1 0); {}{}x=${{o}}1${{c}}; echo $((x))", repeated("o", "a[", n), repeated("c", "]", n));
        let (out, err, _) = finished(&survives(&s));
        // a[1] is 0, a[0] is 1: even nesting gives 1 (a debug build may
        // run out of stack before bash's limit: the same error).
        if n < 1024 && out == "1\n" {
        } else {
            assert!(err.contains(TOO_DEEP), "{n}: {err:.200}");
        }
    }
    // brush-parser took seconds on six levels.
    let (out, _, _) = finished(&survives("a=(1 0); echo $((a[a[a[a[a[a[a[a[a[a[1]]]]]]]]]]))"));
    assert_eq!(out, "1\n");
}

#[test]
fn arithmetic_many_terms_checkpoint() {
    for n in SIZES {
        let s = format!("{}x=1${{t}}; echo $((x))", repeated("t", "+1", n));
        let o = survives(&s);
        // A debug build may not finish 10^6 terms within the timeout: then a
        // clean stop.
        if !matches!(&o.result, Err(e) if e.to_string().contains("timed out")) {
            assert_eq!(finished(&o).0, format!("{}\n", n + 1));
        }
    }
}

#[test]
fn arithmetic_variable_recursion_is_bashs() {
    // bash: x+1: expression recursion level exceeded (error token is "x+1")
    let (out, err, status) = finished(&survives("x='x+1'; echo $((x)); echo no"));
    assert_eq!(out, "");
    assert_eq!(err, "bash: line 1: x+1: expression recursion level exceeded (error token is \"x+1\")\n");
    assert_eq!(status, 1);
    let (_, err, _) = finished(&survives("x='(x)+1'; let y=x"));
    assert_eq!(err, "bash: line 1: let: (x)+1: expression recursion level exceeded (error token is \"x)+1\")\n");
    // A chain of 1024 references: the 1024th level is the last bash
    // evaluates (exact in a release build; a debug build's frames may exhaust
    // the stack first, with the same message at a shallower level).
    let chain = "i=1; while ((i <= N)); do printf -v v$i %s v$((i+1)); ((i++)); done; ";
    let ok = format!("{}v1023=5; echo $((v1))", chain.replace('N', "1022"));
    let (out, err, _) = finished(&survives_with(&ok, big()));
    assert!(out == "5\n" || err.contains(TOO_DEEP), "{out} {err:.200}");
    let over = format!("{}v1024=5; echo $((v1))", chain.replace('N', "1023"));
    let (_, err, _) = finished(&survives_with(&over, big()));
    assert!(err.starts_with("bash: line 1: v") && err.contains(TOO_DEEP), "{err:.200}");
    if out == "5\n" {
        assert_eq!(err, "bash: line 1: v1024: expression recursion level exceeded (error token is \"v1024\")\n");
    }
    // Exponential work through variables: stopped by the clock, not a crash.
    let expo = "x0=1; i=1; while ((i < 60)); do printf -v x$i %s \"x$((i-1))+x$((i-1))\"; ((i++)); done; echo $((x59))";
    stops_with(expo, "timed out");
}

fn big() -> sandbash::Limits {
    sandbash::Limits { max_commands: 100_000, max_loop_iterations: 100_000, ..limits() }
}

#[test]
fn test_builtin_long_and_deep_arguments() {
    for n in [1_000, 10_000, 99_999] {
        let bangs = format!("{}a=( $b ); ", repeated("b", "! ", n));
        for (cmd, close) in [("test", ""), ("[", " ]")] {
            let s = format!("{bangs}{cmd} \"${{a[@]}}\" 1{close}; echo $?");
            let (out, err, _) = finished(&survives(&s));
            assert_eq!(out, if n % 2 == 1 { "1\n" } else { "0\n" }, "{cmd} {n}: {err:.200}");
        }
        // The utility shares the parser.
        let s = format!("{bangs}/usr/bin/test \"${{a[@]}}\" 1; echo $?");
        let (out, _, _) = finished(&survives(&s));
        assert_eq!(out, if n % 2 == 1 { "1\n" } else { "0\n" }, "/usr/bin/test {n}");
        let chain = format!("{}a=( 1 $b ); test \"${{a[@]}}\"; echo $?", repeated("b", "-a 1 -o '' ", n / 4));
        assert_eq!(finished(&survives(&chain)).0, "0\n");
        let parens = format!(
            "{}{}a=( $o 1 $c ); test \"${{a[@]}}\"; echo $?",
            repeated("o", "( ", n / 2),
            repeated("c", ") ", n / 2)
        );
        let (out, err, _) = finished(&survives(&parens));
        if n / 2 <= 1024 {
            assert_eq!(out, "0\n", "{err:.200}");
        } else {
            assert_eq!(out, "2\n");
            assert!(err.contains("test: expression nested too deeply"), "{err:.200}");
        }
    }
    // More words than one expansion may make: a limit, not a crash.
    refused(&format!("{}a=( $b ); test \"${{a[@]}}\" 1", repeated("b", "! ", 1_000_000)), &["max_brace_items"]);
}

#[test]
fn extended_test_chains_are_parser_depth() {
    for n in SIZES {
        for op in ["&&", "||"] {
            let s = format!("{}eval \"[[ ${{t}} a ]]\"; echo $?", repeated("t", &format!("a {op} "), n));
            refused(&s, &["max_parser_depth"]);
        }
        let s = format!("{}eval \"[[ ${{t}} a ]]\"; echo $?", repeated("t", "! ", n));
        refused(&s, &["max_parser_depth"]);
    }
    let (out, _, _) = finished(&survives("[[ a && ! ! b || '' ]] && [[ ! '' ]]; echo $?"));
    assert_eq!(out, "0\n");
}

#[test]
fn find_long_and_deep_expressions() {
    for n in [1_000, 10_000, 99_999] {
        let s = format!("{}a=( $b ); find /tmp \"${{a[@]}}\" -name nothing; echo $?", repeated("b", "! ", n));
        let (out, err, _) = finished(&survives(&s));
        assert_eq!(out, if n % 2 == 1 { "/tmp\n0\n" } else { "0\n" }, "{n}: {err:.200}");
        let s =
            format!("{}a=( $b ); find /tmp -true \"${{a[@]}}\"; echo $?", repeated("b", "-a -true -o -false ", n / 4));
        assert_eq!(finished(&survives(&s)).0, "/tmp\n0\n");
        let s = format!(
            "{}{}a=( $o -true $c ); find /tmp \"${{a[@]}}\"; echo $?",
            repeated("o", "( ", n / 2),
            repeated("c", ") ", n / 2)
        );
        let (out, err, _) = finished(&survives(&s));
        assert_eq!(out, "1\n", "{err:.200}");
        assert!(err.contains("parentheses nested deeper than 256 levels"), "{err:.200}");
    }
}

#[test]
fn expr_deep_nesting() {
    for n in [1_000, 10_000, 99_999] {
        let s = format!(
            "{}{}a=( $o 1 $c ); expr \"${{a[@]}}\"; echo $?",
            repeated("o", "( ", n / 2),
            repeated("c", ") ", n / 2)
        );
        let (out, err, _) = finished(&survives(&s));
        if n / 2 < 1024 {
            assert_eq!(out, "1\n0\n");
        } else {
            assert_eq!(out, "2\n");
            assert!(err.contains("expr: expression nested too deeply"), "{err:.200}");
        }
        let s = format!("{}a=( 1 $b ); expr \"${{a[@]}}\"; echo $?", repeated("b", "+ 1 ", n / 2));
        assert_eq!(finished(&survives(&s)).0, format!("{}\n0\n", n / 2 + 1));
    }
}

#[test]
fn strings_run_inside_each_other_are_counted() {
    for s in [
        r#"s='eval "$s"'; eval "$s""#,
        r#"f(){ eval "$1"; }; s='f "$s"'; eval "$s""#,
        "echo 'source /tmp/s.sh' > /tmp/s.sh; source /tmp/s.sh",
        r#"trap 'kill -USR1 $$' USR1; kill -USR1 $$"#,
        r#"x='<${x@P}>'; echo "${x@P}""#,
    ] {
        // A generous timeout: a hundred nested evals in a debug build on a
        // busy machine must reach the depth limit first.
        stops_with_limits(s, "max_function_depth", Limits { timeout_ms: 30_000, ..limits() });
    }
    stops_with("echo 'bash /tmp/b.sh' > /tmp/b.sh; bash /tmp/b.sh", "max_subshell_depth");
    stops_with("f(){ f; }; f", "max_function_depth");
    // Nameref chains and cycles stop at bash's limit of 8 hops.
    let (out, err, _) = finished(&survives("declare -n a=b; declare -n b=a; echo \"[$a]\""));
    assert_eq!(out, "[]\n");
    assert!(err.contains("circular name reference"), "{err}");
}

/// Here-documents left open at the end of a text are closed by adding their
/// delimiter lines and parsing once more: one more parse, however many.
#[test]
fn many_here_documents_left_open() {
    for n in SIZES {
        let script = format!("{}eval \": $h\"; echo \"after $?\"", repeated("h", " <<A", n));
        // The point is the bound: the eval ends (bash refuses past 16
        // here-documents) and the script goes on, or the parser's message
        // naming every one of them meets the output limit.
        match &survives(&script).result {
            Ok(r) => assert!(String::from_utf8_lossy(&r.stdout).starts_with("after "), "{n}"),
            Err(e) => assert!(e.to_string().contains("max_output_bytes"), "{n}: {e}"),
        }
    }
}

/// `( ( … echo hi … ) )` built at run time: brush-parser reads each `( (`
/// as arithmetic, and each level is read again as it runs, so the depth is
/// bounded as the parser's is, one level at a time.
#[test]
fn nested_subshells_written_like_arithmetic() {
    for n in SIZES {
        let script =
            format!("{}{}eval \"${{o}}echo hi${{c}}\"; echo \"st=$?\"", repeated("o", "( ", n), repeated("c", " )", n));
        let o = survives(&script);
        match &o.result {
            Ok(r) => {
                let out = String::from_utf8_lossy(&r.stdout);
                assert!(out == "hi\nst=0\n" || out.starts_with("st="), "{n}: {out:.200}");
            }
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("max_") || e.contains("timeout_ms"), "{n}: {e}");
            }
        }
    }
}

/// Recursion through the fast call path (`f $1`, `[ ] && d ...`) with the
/// depth limit raised far past the default: each level is a call the shell
/// makes without the general path, and the native stack must still hold.
/// It stops on a limit (depth, memory or the deadline).
#[test]
fn deep_recursion_through_fast_calls() {
    let l = Limits { max_function_depth: 2_000, ..limits() };
    for s in ["f(){ f $1; }; f x", "d(){ [ $1 -lt 100000 ] && d $(( $1 + 1 )); }; d 0"] {
        let text = survives_with(s, l.clone()).describe();
        assert!(
            ["max_function_depth", "max_memory_bytes", "timeout_ms"].iter().any(|n| text.contains(n)),
            "{s}: {text}"
        );
    }
}

#[test]
fn and_or_chains_built_at_run_time_meet_the_limits() {
    // The fast path runs an and-or list's plain commands one after another
    // at the call: a chain of any length is still counted, charged (its text
    // is parsed inside the budget) and stopped at the deadline.
    for n in SIZES {
        let script = format!("s=$(yes 'true &&' | head -n {n} | tr '\\n' ' '); eval \"$s [ 1 = 1 ] && echo ok\"\n");
        answer_or_limit(&script, limits(), "ok\n", &["timeout_ms", "max_"]);
    }
    // A loop that never ends, of and-or lists the fast path runs whole.
    stops_with("while true && [ 1 = 1 ] && :; do [ -n x ] && i=$((i+1)) || break; done", "max_");
}
