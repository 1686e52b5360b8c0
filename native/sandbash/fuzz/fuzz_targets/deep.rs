//! Deep and huge inputs built at run time: the fuzzer picks a construct, a
//! repetition count (up to 10^6) and a tail script; the construct's unit is
//! repeated that many times *inside the sandbox* (so the parser's depth check
//! never sees it) and handed to an evaluator. Nothing may crash, hang past the
//! timeout, or leave the session unusable.
//!
//!     cd native/sandbash/fuzz && cargo +nightly fuzz run deep -- -max_total_time=600

#![no_main]

use libfuzzer_sys::fuzz_target;
use sandbash::{Bash, Limits};
use std::sync::OnceLock;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime"))
}

/// `(unit repeated N times, how it is used)`: `$u` is the repeated text, `$v`
/// the closing text when the construct needs one.
const CONSTRUCTS: &[(&str, &str, &str)] = &[
    ("(", ")", "echo $(( ${u}1${v} ))"),
    ("-", "", "echo $(( ${u}1 ))"),
    ("!", "", "let \"x=${u}1\""),
    ("1?", ":1", "echo $(( ${u}1${v} ))"),
    ("a[", "]", "a=(1 2); echo $(( ${u}0${v} ))"),
    ("! ", "", "test $u 1; [ $u x ]"),
    ("( ", ") ", "test $u 1 $v; [ $u 1 $v ]"),
    ("( ", ") ", "expr $u 1 $v"),
    ("! ", "", "find / $u -name x"),
    ("@(", ")", "shopt -s extglob; [[ a == ${u}a${v} ]]; case a in ${u}a${v}) ;; esac"),
    ("!(", ")", "shopt -s extglob; [[ ab == ${u}a${v} ]]"),
    ("*", "", "x=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab; [[ $x == ${u}c ]]; y=${x//${u}c/}"),
    ("a", "", "y=${u//*b/}; y=${u%%*b}; y=${u##*a}; y=${u/#*b/}; y=${u//?/$u}"),
    ("{", "}", "eval \"echo ${u}a,b${v}\""),
    ("[", "]", "jq -n \"${u}1${v}\""),
    ("(", ")", "awk \"BEGIN { print ${u}1${v} }\""),
    ("(", ")", "echo \"${u}1${v}\" | bc"),
    ("{", "}", "echo x | sed -n \"${u}p${v}\""),
    ("\\(", "\\)", "echo aa | grep \"${u}a${v}\"; echo aa | sed \"s/${u}a${v}/b/\""),
    ("%", "", "printf \"$u\" 1 2 3"),
    ("$x", "", "x=abcdefghij; y=\"$u\"; z=(\"$u\" \"$u\")"),
];

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (construct, unit, close) = {
        let (u, v, s) = CONSTRUCTS[data[0] as usize % CONSTRUCTS.len()];
        (s, u, v)
    };
    // Up to 10^6 repetitions, most of them small.
    let n = match data[1] % 4 {
        0 => data[2] as usize,
        1 => data[2] as usize * 40,
        2 => data[2] as usize * 400,
        _ => data[2] as usize * 4000,
    };
    let tail = String::from_utf8_lossy(&data[3..]);
    let script = format!(
        "u=$(printf '%.0s{}' $(seq {n} 2>/dev/null)); v=$(printf '%.0s{}' $(seq {n} 2>/dev/null)); {construct}\n{tail}",
        unit.replace('%', "%%").replace('\\', "\\\\"),
        close.replace('%', "%%").replace('\\', "\\\\"),
    );
    let limits = Limits {
        timeout_ms: 500,
        max_memory_bytes: 256 * 1024 * 1024,
        max_commands: 5_000,
        max_loop_iterations: 1_000,
        ..Limits::default()
    };
    let Ok(mut bash) = Bash::builder().limits(limits).build() else {
        return;
    };
    let _ = runtime().block_on(bash.exec(&script));
    let r = runtime().block_on(bash.exec("echo ok")).expect("session usable");
    assert_eq!(r.stdout, b"ok\n");
});
