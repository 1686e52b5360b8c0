//! `NAME --help` for builtins: bash prints the builtin's help (synopsis and
//! summary first) and returns 2; `echo`, `true` and `test` take it as an operand.
//! Expected first lines and statuses recorded from GNU bash 5.2.

mod common;
use common::*;

#[test]
fn builtins_answer_dash_dash_help() {
    for (script, first_two) in [
        ("cd --help", "cd: cd [-L|[-P [-e]] [-@]] [dir]\n    Change the shell working directory.\n"),
        ("printf --help", "printf: printf [-v var] format [arguments]\n    Formats and prints ARGUMENTS under control of the FORMAT.\n"),
        (
            "read --help",
            "read: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n    Read a line from the standard input and split it into fields.\n",
        ),
        ("export --help", "export: export [-fn] [name[=value] ...] or export -p\n    Set export attribute for shell variables.\n"),
        ("exit --help", "exit: exit [n]\n    Exit the shell.\n"),
    ] {
        let r = run_with_stdin(&format!("{script} | head -2; exit ${{PIPESTATUS[0]}}"), b"").expect("exec");
        assert_eq!(String::from_utf8_lossy(&r.stdout), first_two, "{script}");
        assert_eq!(r.exit_code, 2, "{script}");
    }
    let r = run_with_stdin("echo --help; true --help; test --help && echo t", b"").expect("exec");
    assert_eq!(String::from_utf8_lossy(&r.stdout), "--help\nt\n");
}
