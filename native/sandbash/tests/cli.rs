//! The `sandbash` binary: every limit from `SANDBASH_<LIMIT>`, and `--help`
//! naming them all.

use std::os::unix::ffi::OsStrExt;
use std::process::Command;

fn run(env: &[(&str, &str)], script: &str) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sandbash"));
    cmd.arg("-c").arg(script);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run sandbash");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn help_lists_every_limit_with_its_default() {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbash")).arg("--help").output().expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for name in sandbash::limits::LIMIT_NAMES {
        let var = format!("SANDBASH_{}", name.to_uppercase());
        assert!(text.contains(&var), "--help does not name {var}");
    }
    assert!(text.contains("SANDBASH_MAX_LOOP_ITERATIONS"));
    assert!(text.contains("[10000]"), "defaults are shown");
}

#[test]
fn loop_limit_from_the_environment() {
    let script = "for ((i=0;i<20000;i++)); do :; done; echo $i";
    let (out, err, code) = run(&[], script);
    assert_eq!(code, 1, "the default stops it: {out} {err}");
    assert!(err.contains("max_loop_iterations"), "{err}");
    let raised = [("SANDBASH_MAX_LOOP_ITERATIONS", "1000000"), ("SANDBASH_MAX_COMMANDS", "1000000")];
    let (out, _, code) = run(&raised, script);
    assert_eq!((out.as_str(), code), ("20000\n", 0));
}

#[test]
fn every_limit_is_read() {
    // Each limit set to a value that the script then runs into.
    let cases: &[(&str, &str, &str)] = &[
        ("SANDBASH_MAX_COMMANDS", "5", "for i in 1 2 3 4 5 6 7 8; do true; done"),
        // Only the clock can stop it (a busy loop may meet max_commands first).
        ("SANDBASH_TIMEOUT_MS", "50", "sleep 1"),
        ("SANDBASH_MAX_OUTPUT_BYTES", "100", "for i in $(seq 100); do echo hello; done"),
        ("SANDBASH_MAX_FUNCTION_DEPTH", "5", "f() { (( $1 > 0 )) && f $(( $1 - 1 )); }; f 20"),
        ("SANDBASH_MAX_STRING_BYTES", "1000", "x=a; for i in 1 2 3 4 5 6 7 8 9 10 11; do x=$x$x; done; echo ${#x}"),
        ("SANDBASH_MAX_MEMORY_BYTES", "2000000", "x=$(seq 1000000); echo ${#x}"),
        ("SANDBASH_MAX_PIPELINE_STAGES", "2", "echo a | cat | cat"),
        ("SANDBASH_MAX_SUBSHELL_DEPTH", "2", "echo $(echo $(echo $(echo deep)))"),
        ("SANDBASH_MAX_BRACE_ITEMS", "10", "echo {1..100}"),
    ];
    for (var, v, script) in cases {
        let (out, err, code) = run(&[(var, v)], script);
        let limit = var.trim_start_matches("SANDBASH_").to_lowercase();
        assert!(code != 0 && (err.contains(&limit) || err.contains("timed out")), "{var}={v}: {out:?} {err:?} {code}");
        let (_, err, _) = run(&[], script);
        assert!(!err.contains(&limit), "{var}: the default does not stop {script:?}: {err}");
    }
}

#[test]
fn fs_limits_from_the_environment() {
    let (_, err, code) = run(&[("SANDBASH_MAX_FILES", "3")], "for i in 1 2 3 4 5 6; do echo > /f$i; done");
    assert_ne!(code, 0, "{err}");
    let (out, err, code) = run(&[("SANDBASH_MAX_FILE_BYTES", "10")], "printf '%020d' 0 > /f; echo $?");
    assert!(out.trim() != "0" || code != 0, "{out} {err}");
}

#[test]
fn a_bad_value_is_an_error() {
    let (_, err, code) = run(&[("SANDBASH_TIMEOUT_MS", "soon")], "echo hi");
    assert_eq!(code, 2);
    assert!(err.contains("SANDBASH_TIMEOUT_MS"), "{err}");
}

/// As `bash -c` (recorded from bash 5.2): an unclosed quote alone is a
/// syntax error (2), an array assignment left open ends with status 1.
#[test]
fn status_of_a_script_that_does_not_parse() {
    let (_, err, code) = run(&[], "echo \"");
    assert_eq!((err.as_str(), code), ("bash: -c: line 1: unexpected EOF while looking for matching `\"'\n", 2));
    let (_, err, code) = run(&[], "a=(1 \"(\" 2");
    assert_eq!((err.as_str(), code), ("bash: -c: line 1: unexpected EOF while looking for matching `)'\n", 1));
}

/// Bytes that are not UTF-8 in the script's text come out unchanged.
#[test]
fn script_bytes_that_are_not_utf8() {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbash"))
        .arg("-c")
        .arg(std::ffi::OsStr::from_bytes(b"x='a\xffb'; printf %s \"$x\"; echo \" ${#x}\""))
        .output()
        .expect("run sandbash");
    assert_eq!(out.stdout, b"a\xffb 3\n");
}

/// `sandbash FILE` runs the file as `bash FILE` does (recorded from bash 5.2):
/// messages name the file, `BASH_SOURCE` and `FUNCNAME` have their `main`
/// frame, and `${x?}` exits with status 1 rather than `bash -c`'s 127.
#[test]
fn a_script_file_runs_as_bash_runs_one() {
    let dir = std::env::temp_dir().join(format!("sandbash-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("s.sh");
    std::fs::write(
        &file,
        "echo $0 \"${BASH_SOURCE[@]}\" \"${FUNCNAME[@]}\"\nf() { echo \"${FUNCNAME[@]}\"; }; f\nif then\n",
    )
    .expect("write");
    let name = file.to_string_lossy().into_owned();
    let out = Command::new(env!("CARGO_BIN_EXE_sandbash")).arg(&name).output().expect("run sandbash");
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{name} {name}\nf main\n"));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("{name}: line 3: syntax error near unexpected token `then'\n{name}: line 3: `if then'\n")
    );
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(&file, "echo ${x?unset}\necho after\n").expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_sandbash")).arg(&name).output().expect("run sandbash");
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{name}: line 1: x: unset\n"));
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A script on stdin: `bash: line N:` messages, status 1 for `${x?}`.
#[test]
fn a_script_on_stdin() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandbash"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn sandbash");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(b"echo hi\nif then\n").expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.stdout, b"hi\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "bash: line 2: syntax error near unexpected token `then'\nbash: line 2: `if then'\n"
    );
    assert_eq!(out.status.code(), Some(2));
}

/// stdout and stderr of one process as one pipe (as `2>&1` makes them).
fn run_merged(program: &str, script: &str) -> Vec<u8> {
    let (reader, writer) = std::io::pipe().expect("pipe");
    let mut child = Command::new(program)
        .arg("-c")
        .arg(script)
        .stdout(writer.try_clone().expect("clone"))
        .stderr(writer)
        .spawn()
        .expect("spawn");
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut &reader, &mut out).expect("read");
    child.wait().expect("wait");
    out
}

#[test]
fn one_file_for_both_streams_keeps_their_order() {
    let script = "echo a; cd /nonexistent; echo b; echo e >&2; return; printf c; ls /nope";
    let got = run_merged(env!("CARGO_BIN_EXE_sandbash"), script);
    let text = String::from_utf8_lossy(&got);
    let want = "a\nbash: line 1: cd: /nonexistent: No such file or directory\nb\ne\n\
                bash: line 1: return: can only `return' from a function or sourced script\n\
                cls: cannot access '/nope': No such file or directory\n";
    assert_eq!(text, want);
    // Two pipes: each stream whole on its own.
    let (out, err, _) = run(&[], script);
    assert_eq!(out, "a\nb\nc");
    assert!(err.starts_with("bash: line 1: cd:") && err.contains("e\nbash: line 1: return"), "{err}");
}
