//! Utilities that start a program (xargs, find -exec, env, timeout) can start
//! `sh`/`bash` too: a child of the calling shell. Expected output from GNU bash 5.2
//! with findutils 4.9 and coreutils 9.1.

mod common;
use common::check;

#[test]
fn xargs_runs_sh_c_per_item() {
    check(r#"printf 'a\nb\n' | xargs -I{} sh -c 'echo item {}; echo $0'"#, "item a\nsh\nitem b\nsh\n", 0);
}

#[test]
fn find_exec_bash_with_positional_args() {
    check(
        r#"mkdir -p /t && touch /t/x /t/y && find /t -type f -exec bash -c 'echo found "$1"' _ {} \;"#,
        "found /t/x\nfound /t/y\n",
        0,
    );
}

#[test]
fn env_passes_exactly_its_environment() {
    check(r#"X=1 env bash -c 'echo "$X"'; env -i bash -c 'echo "[$X]"'"#, "1\n[]\n", 0);
}

#[test]
fn timeout_bash_returns_its_status() {
    check(r#"timeout 1 bash -c 'echo in; exit 3'; echo $?"#, "in\n3\n", 0);
}

#[test]
fn child_shell_does_not_change_the_caller() {
    check(r#"cd /; x=1; echo | xargs sh -c 'x=2; cd /tmp'; echo $x; pwd"#, "1\n/\n", 0);
}
