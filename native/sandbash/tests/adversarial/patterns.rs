//! See tests/adversarial.rs. Shell patterns and word expansion: `${x#p}`,
//! `${x/p/r}`, `[[ == ]]`, `case`, extglob `!(...)` and nested groups on long
//! strings; replacement and concatenation bombs; nested brace expansion.

#[allow(unused_imports)]
use super::harness::*;

/// A script prefix setting `x` to `n` letters `a`.
fn a_times(n: usize) -> String {
    format!("x=$(head -c {n} /dev/zero | tr '\\0' a)\n")
}

/// The script printed `want`, or (for sizes where bash itself would take
/// minutes) stopped with an error naming one of `limits`.
#[track_caller]
fn answer_or_limit(script: &str, want: &str, limits: &[&str]) {
    let o = survives(script);
    match &o.result {
        Ok(_) => assert_eq!(o.stdout(), want, "{}", shorten(script)),
        Err(e) => {
            let e = e.to_string();
            assert!(limits.iter().any(|l| e.contains(l)), "{}: {e}", shorten(script));
        }
    }
}

#[test]
fn prefix_and_suffix_removal_on_long_strings() {
    for n in SIZES {
        let script = a_times(n)
            + "y=${x//*b/}; echo ${#y}\n\
               y=${x%%*b}; echo ${#y}\n\
               y=${x##*a}; echo ${#y}\n\
               y=${x/#*b/}; echo ${#y}\n\
               y=${x#*a}; echo ${#y}\n\
               y=${x%a*}; echo ${#y}\n\
               y=${x%%a*}; echo ${#y}\n\
               y=${x/%b*/}; echo ${#y}\n";
        let want = format!("{n}\n{n}\n0\n{n}\n{m}\n{m}\n0\n{n}\n", m = n - 1);
        let o = survives(&script);
        assert_eq!(o.stdout(), want, "size {n}: {}", o.describe());
    }
}

/// Text patterns are searched as bytes up to 64 bytes long: every
/// overlapping occurrence of the longest one in a run of its own letter
/// costs its length per position, bounded and checked against the deadline.
#[test]
fn longest_text_patterns_on_long_runs_of_their_letter() {
    for n in SIZES {
        let script = a_times(n)
            + "p=$(head -c 64 /dev/zero | tr '\\0' a); q=${p}a\n\
               y=${x//$p/b}; echo ${#y}\n\
               y=${x//\"$q\"/b}; echo ${#y}\n\
               y=${x/%$p/}; echo ${#y}\n\
               y=${x#$p}; echo ${#y}\n";
        let want = format!("{}\n{}\n{}\n{}\n", n / 64 + n % 64, n / 65 + n % 65, n - 64, n - 64);
        answer_or_limit(&script, &want, &["timeout", "max_"]);
    }
}

#[test]
fn replacement_on_long_strings() {
    for n in SIZES {
        let script = a_times(n)
            + "y=${x//a/bc}; echo ${#y}\n\
               y=${x/a/b}; echo ${y:0:2}\n\
               y=${x//?(b)/-}; echo ${#y}\n\
               y=${x^^[a]}; echo ${y:0:3} ${#y}\n\
               y=${x,,}; echo ${#y}\n";
        let want = format!("{}\nba\n{}\nAAA {n}\n{n}\n", 2 * n, 2 * n);
        let o = survives(&("shopt -s extglob\n".to_string() + &script));
        assert_eq!(o.stdout(), want, "size {n}: {}", o.describe());
    }
}

#[test]
fn whole_matches_on_long_strings() {
    for n in SIZES {
        let script = a_times(n)
            + "[[ $x == *b ]]; echo $?\n\
               [[ $x == *a ]]; echo $?\n\
               [[ $x == +(a) ]]; echo $?\n\
               case $x in *b) echo b;; *a) echo a;; esac\n\
               case $x in *a*a*a*b) echo b;; *) echo none;; esac\n";
        let o = survives(&script);
        assert_eq!(o.stdout(), "1\n0\n0\na\nnone\n", "size {n}: {}", o.describe());
    }
}

#[test]
fn negation_on_long_strings() {
    for n in SIZES {
        // Each of these is linear: the scans inside `!(...)` end early.
        let script = "shopt -s extglob\n".to_string()
            + &a_times(n)
            + "[[ $x == !(*b) ]]; echo $?\n\
               [[ $x.txt == !(*.c).txt ]]; echo $?\n\
               [[ $x.txt == !(*.txt) ]]; echo $?\n\
               case $x in !(a*)) echo no;; *) echo yes;; esac\n";
        let o = survives(&script);
        assert_eq!(o.stdout(), "0\n0\n1\nyes\n", "size {n}: {}", o.describe());
        // Quadratic (`!(*)` fails from every position): the answer where it
        // is quick, else the deadline.
        let script = "shopt -s extglob\n".to_string() + &a_times(n) + "[[ $x == !(*)a ]]; echo $?\n";
        answer_or_limit(&script, "1\n", &["timed out"]);
    }
}

#[test]
fn deeply_nested_extglob_groups() {
    // (10^6 groups would pass max_brace_items in the generator itself.)
    for n in [1_000usize, 10_000, 100_000] {
        // Built at run time, past what the parser sees. Too deep to compile:
        // the pattern matches nothing (bash would match, slowly).
        let script = format!(
            "shopt -s extglob\n\
             p=$(printf '@(%.0s' {{1..{n}}})a$(printf ')%.0s' {{1..{n}}})\n\
             [[ a == $p ]]; echo $?\n\
             case a in $p) echo m;; *) echo none;; esac\n\
             x=aaa; echo ${{x//$p/b}} ${{x#$p}}\n"
        );
        let o = refused(&script, &["exit 0", "timed out"]);
        if o.result.is_ok() {
            assert_eq!(o.stdout(), "1\nnone\naaa aaa\n", "size {n}");
        }
    }
    // Shallow nesting still matches.
    let o = survives(
        "shopt -s extglob\np=$(printf '@(%.0s' {1..20})a$(printf ')%.0s' {1..20}); [[ a == $p ]]; echo $?; x=aaa; echo ${x//$p/b}",
    );
    assert_eq!(o.stdout(), "0\nbbb\n", "{}", o.describe());
}

#[test]
fn replacement_memory_bomb_stops_at_the_string_limit() {
    for n in [1_000usize, 100_000, 1_000_000] {
        let script = a_times(n) + "y=${x//?/$x}; echo ${#y}\n";
        if n * n <= 10 * 1024 * 1024 {
            let o = survives(&script);
            assert_eq!(o.stdout(), format!("{}\n", n * n), "{}", o.describe());
        } else {
            stops_with(&script, "max_string_bytes");
        }
    }
    stops_with(&(a_times(1_000_000) + "y=${x//a/&&&&&&&&&&&&&&&&&&&&}\n"), "max_string_bytes");
    stops_with(
        &(a_times(1_000_000) + "shopt -s patsub_replacement; y=${x//a/&&&&&&&&&&&&&&&&&&&&}\n"),
        "max_string_bytes",
    );
}

#[test]
fn concatenation_bomb_stops_at_the_string_limit() {
    let many = "$x".repeat(60);
    stops_with(&(a_times(1_000_000) + &format!("y=\"{many}\"; echo ${{#y}}\n")), "max_string_bytes");
    stops_with(&(a_times(1_000_000) + &format!("echo \"{many}\" | wc -c\n")), "max_string_bytes");
    // Nested defaults and `"${a[*]}"` of a large array.
    stops_with(
        &(a_times(1_000_000)
            + "y=\"${u:-$x${u:-$x${u:-$x${u:-$x${u:-$x${u:-$x${u:-$x${u:-$x${u:-$x${u:-$x$x}}}}}}}}}}\"\n"),
        "max_string_bytes",
    );
    stops_with(
        &(a_times(100_000) + "a=(); for i in {1..200}; do a+=(\"$x\"); done; y=\"${a[*]}\"; echo ${#y}\n"),
        "max_string_bytes",
    );
    // Many words each as large as allowed: the memory budget (a small one, so
    // a debug build on a busy machine meets it long before the timeout).
    let o = survives_with(
        &(a_times(2_000_000) + "echo ${x}{1..200} | wc -c\n"),
        sandbash::Limits { max_memory_bytes: 64 << 20, ..limits() },
    );
    let text = o.describe();
    assert!(text.contains("max_memory_bytes") || text.contains("max_string_bytes"), "{text}");
}

#[test]
fn nested_brace_expansion_built_at_run_time() {
    // (10^6 would pass max_brace_items in the generator itself.)
    for n in [1_000usize, 10_000, 100_000] {
        let script = format!("eval \"echo $(printf '{{a,%.0s' {{1..{n}}})x$(printf '}}%.0s' {{1..{n}}})\" | wc -w\n");
        // bash prints n+1 words; here eval's parser finds the text nested
        // too deep (a clean error and status), or the expansion's stack
        // check does.
        let o = refused(&script, &["nesting too deep", "nested too deeply", "timed out"]);
        assert!(o.stdout() == "0\n" || o.stdout().is_empty(), "{}", o.stdout());
        let script = format!("eval \"echo $(printf '{{a,b}}%.0s' {{1..{n}}})\" | wc -w\n");
        refused(
            &script,
            &["max_brace_items", "max_memory_bytes", "nested too deeply", "nesting too deep", "timed out"],
        );
    }
}

#[test]
fn brace_groups_inside_double_quoted_substitutions_are_not_split() {
    let o = survives(
        "echo \"$(printf '{a,')x$(printf '}')\"; eval \"echo $(printf '{a,%.0s' {1..2})x$(printf '}%.0s' {1..2})\"",
    );
    assert_eq!(o.stdout(), "{a,x}\na a x\n", "{}", o.describe());
}

#[test]
fn globstar_over_a_deep_tree() {
    let o = survives(
        "mkdir t && cd t && mkdir -p $(printf 'd/%.0s' {1..40}); touch d/d/d/f.txt; shopt -s globstar; n=0; for p in **; do n=$((n+1)); done; echo $n; echo **/*.txt",
    );
    assert_eq!(o.stdout(), "41\nd/d/d/f.txt\n", "{}", o.describe());
}

/// A value of many `[` and no `]`: each `[` looks for its `]` only so far
/// (the square of the length before), in globbing, `case` and `[[ == ]]`.
#[test]
fn many_unclosed_brackets() {
    for n in SIZES {
        let script = format!("x=$(head -c {n} /dev/zero | tr '\\0' '[')\n")
            + "echo $x | wc -c; case a in $x) echo case;; esac; [[ a == $x ]] || echo cond\n";
        answer_or_limit(&script, &format!("{}\ncond\n", n + 1), &["max_", "timeout_ms"]);
    }
}

/// Many extglob openers read with extglob off (`extglob_off` tokenizes the
/// text once, and finds where the last one opened with one stack pass).
#[test]
fn many_extglob_openers_with_extglob_off() {
    for n in SIZES {
        let script = format!("s=$(yes '@(' | head -n {n} | tr -d '\\n')\n")
            + "eval \"echo $s\" 2>/dev/null; echo \"a=$?\"; eval \"echo x$s)\" 2>/dev/null; echo \"b=$?\"\n";
        answer_or_limit(&script, "a=2\nb=2\n", &["max_", "timeout_ms"]);
    }
}

/// A `$( )` of many here-documents, each with a lone `"`, in a double-quoted
/// word (read again with the quotes stood in for: one pass over the lines).
#[test]
fn many_heredocs_with_quotes_in_a_substitution() {
    for n in SIZES {
        let n = n / 8;
        let script =
            format!("b=$(yes 'cat <<E\n\"\nE' | head -n {})\n", 3 * n) + "eval \"r=\\\"\\$($b\n)\\\"\"; echo ${#r}\n";
        answer_or_limit(&script, &format!("{}\n", 2 * n - 1), &["max_", "timeout_ms"]);
    }
}

/// A double-quoted `$( )` whose here-document holds many `)` lines: the end
/// is found past them (body lines are never tried as the end; one pass).
#[test]
fn many_parens_in_a_heredoc_in_a_quoted_substitution() {
    for n in SIZES {
        let n = n / 8;
        let script = format!("b=$(yes ')' | head -n {n})\n") + "eval \"r=\\\"\\$(cat <<E\n$b\nE\n)\\\"\"; echo ${#r}\n";
        answer_or_limit(&script, &format!("{}\n", 2 * n - 1), &["max_", "timeout_ms"]);
    }
}

/// A negation replaced in a long value: each piece is tried with the
/// negation matcher (quadratic in the value at worst), under the deadline.
#[test]
fn negation_replacement_on_long_values() {
    // 10^5 already meets the deadline; 10^6 would only take as long again.
    for n in SIZES.into_iter().take(3) {
        let script = format!("x=$(head -c {n} /dev/zero | tr '\\0' a)\n")
            + "shopt -s extglob; y=${x//!(b)/-}; echo ${#y}; z=${x%%!(a)}; echo ${#z}\n";
        answer_or_limit(&script, "1\n0\n", &["max_", "timeout_ms"]);
    }
}

/// Bracket expressions built at run time from their POSIX parts, many to a
/// pattern: each `[` reads at most a bounded window, so a pattern of 100,000
/// of them is read in time whether its parts close (`[[=a=]]`, `[[.-.]]`) or
/// never do (`[[.`, `[[:`, `[[=`); its automaton is within the budget or
/// refused by it.
#[test]
fn many_posix_bracket_parts() {
    for part in ["[[=a=]]", "[[.-.]-z]", "[[:alpha:][.period.]]", "[[.", "[[:", "[[=", "[[.a.]-"] {
        let script = format!(
            "p=$(printf '{}%.0s' {{1..100000}}); x=$(printf 'a%.0s' {{1..1000}}); case $x in $p) echo hit;; *) echo miss;; esac; echo ${{#x}}; [[ $x == *$p* ]]; echo $?",
            part.replace('%', "%%")
        );
        let o = survives(&script);
        // Read in time, or refused cleanly (the class of a letter in every
        // script makes a large automaton: the memory budget says no).
        let text = o.describe();
        assert!(["exit 0", "timed out", "memory limit exceeded"].iter().any(|n| text.contains(n)), "{part}: {text}");
    }
}

#[test]
fn many_definitions_read_without_extglob() {
    // Each `fN+()` makes the text one the extglob-off reading scans and the
    // parse reads again without extglob: both must stay linear in the text.
    for n in [1_000usize, 50_000] {
        let script = format!(
            "s=''; for ((i=0; i<{n}; i++)); do s+=\"f$i+() {{ :; }}; \"; done; s+='f7+; echo ok'; eval \"$s\"\n"
        );
        answer_or_limit(&script, "ok\n", &["timeout", "max_"]);
    }
}
