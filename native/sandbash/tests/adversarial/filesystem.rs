//! See tests/adversarial.rs. The in-memory filesystem and descriptors:
//! writes through a read-write descriptor (`<>`), many hard links to one
//! file, and a GLOBIGNORE full of unclosed brackets.

#[allow(unused_imports)]
use super::harness::*;
use sandbash::Limits;

/// Loops as long as the sizes ask: the suite's timeout is the bound.
fn long_loops() -> Limits {
    Limits {
        max_loop_iterations: 2_000_000,
        max_total_loop_iterations: 2_000_000,
        max_commands: 10_000_000,
        ..limits()
    }
}

#[test]
fn writes_in_the_middle_of_a_read_write_descriptor() {
    // Each write before the end rewrites the file: the file's size times
    // the writes, so the larger sizes must meet the deadline, not hang.
    for n in SIZES.into_iter().take(3) {
        let script = format!(
            "head -c {n} /dev/zero | tr '\\0' a > f; exec 3<>f; read -r -n 1 c <&3\n\
             for ((i = 0; i < {n}; i++)); do printf Z >&3; done; exec 3>&-; wc -c < f; head -c 3 f; echo\n"
        );
        answer_or_limit(&script, long_loops(), &format!("{}\naZZ\n", n.max(n + 1)), &["timeout_ms", "max_"]);
    }
}

#[test]
fn appends_through_a_read_write_descriptor() {
    for n in SIZES {
        let script = format!("exec 3<>f; for ((i = 0; i < {n}; i++)); do printf ab >&3; done; exec 3>&-; wc -c < f\n");
        answer_or_limit(&script, long_loops(), &format!("{}\n", 2 * n), &["timeout_ms", "max_"]);
    }
}

#[test]
fn many_hard_links_to_one_file() {
    for n in SIZES.into_iter().take(3) {
        // Every write shows through each name; every rename moves one.
        let script = format!(
            "echo a > f; for ((i = 0; i < {n}; i++)); do ln f l$i; done\n\
             for ((i = 0; i < 50; i++)); do echo b >> f; mv l0 m; mv m l0; done\n\
             wc -l < l1; rm -f l*; wc -l < f\n"
        );
        answer_or_limit(&script, long_loops(), "51\n51\n", &["timeout_ms", "max_"]);
    }
}

#[test]
fn globignore_full_of_open_brackets() {
    for n in SIZES {
        // An unclosed `[` takes the rest of the setting (no split at the
        // `:`), found in one pass however many there are.
        let script = format!(
            "mkdir w; cd w; touch a b; GLOBIGNORE=$(head -c {n} /dev/zero | tr '\\0' '['):b*; echo *; \
             GLOBIGNORE=$(head -c {n} /dev/zero | tr '\\0' '[')a; echo *\n"
        );
        answer_or_limit(&script, limits(), "a b\na b\n", &["timeout_ms", "max_"]);
    }
}

/// Under a mask other than 022 every directory made is looked up first:
/// a path of 50,000 parts (built at run time) given to `mkdir -p`'s
/// one-call forms (`install -D`, `tar`'s parents) must be refused in time,
/// not walked part by part.
#[test]
fn a_very_deep_path_under_a_mask() {
    let script = "umask 077; p=$(printf 'a/%.0s' $(seq 50000)); echo x > f; install -D f \"$p/x\" 2>/dev/null; echo \"install=$?\"; mkdir -p \"$p\" 2>/dev/null; echo \"mkdir=$?\"\n";
    answer_or_limit(script, long_loops(), "install=1\nmkdir=1\n", &["timeout_ms", "max_"]);
}
