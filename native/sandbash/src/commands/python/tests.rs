//! Tests of `python`. Expected outputs were printed by CPython 3.11.7 on this
//! machine for the same program (files created in a scratch directory), except
//! where a comment says Monty differs: then only the lines both agree on are
//! checked (tracebacks carry Monty's `~` carets and source lines).

use crate::{Bash, Error, ExecOptions, ExecResult, Limits};

fn session() -> Bash {
    Bash::builder().python(vec!["python".into(), "python3".into()]).cwd("/w").build().expect("build")
}

fn run(script: &str) -> ExecResult {
    run_in(&mut session(), script)
}

fn run_in(bash: &mut Bash, script: &str) -> ExecResult {
    crate::commands::util::testutil::block_on(bash.exec(script)).expect("exec")
}

fn out(r: &ExecResult) -> String {
    String::from_utf8_lossy(&r.stdout).into_owned()
}

fn err(r: &ExecResult) -> String {
    String::from_utf8_lossy(&r.stderr).into_owned()
}

#[test]
fn off_by_default() {
    let mut bash = Bash::builder().build().expect("build");
    let r = run_in(&mut bash, "python -c 'print(1)'");
    assert_eq!(r.exit_code, 127);
    assert!(err(&r).contains("python: command not found"), "{}", err(&r));
}

#[test]
fn code_file_and_stdin_programs_with_argv() {
    let r = run("python -c 'import sys; print(sys.argv)' a b");
    assert_eq!((out(&r).as_str(), r.exit_code), ("['-c', 'a', 'b']\n", 0));
    let r = run("echo 'import sys; print(sys.argv)' | python3 - x");
    assert_eq!(out(&r), "['-', 'x']\n");
    let r = run("echo 'import sys; print(sys.argv)' | python3");
    assert_eq!(out(&r), "['']\n");
    let r = run("printf 'import sys\\nprint(sys.argv[1:], len(sys.argv))\\n' > p.py; python p.py 1 2");
    assert_eq!(out(&r), "['1', '2'] 3\n");
    let r = run("python - <<'EOF'\nfor i in range(3):\n    print(i * i)\nEOF");
    assert_eq!(out(&r), "0\n1\n4\n");
    let r = run("/usr/bin/python3 -c 'print(2 ** 100)'");
    assert_eq!(out(&r), "1267650600228229401496703205376\n");
}

#[test]
fn usage_errors() {
    let r = run("python nofile.py");
    assert_eq!(err(&r), "python: can't open file '/w/nofile.py': [Errno 2] No such file or directory\n");
    assert_eq!(r.exit_code, 2);
    let r = run("python -c");
    assert!(err(&r).starts_with("Argument expected for the -c option\n"), "{}", err(&r));
    assert_eq!(r.exit_code, 2);
    let r = run("python -z");
    assert!(err(&r).starts_with("Unknown option: -z\n"), "{}", err(&r));
    assert_eq!(r.exit_code, 2);
}

#[test]
fn language_features() {
    let prog = r#"
class A:
    def __init__(self, x): self.x = x
    def __repr__(self): return f"A({self.x})"
print(A(3), [A(1)])
print(sorted({3: 1, 1: 2}.items()), [x * x for x in range(5)], {k: v for k, v in zip('ab', (1, 2))})
print(f"{3.14159:.2f} {'x':>4}|{10:05d} {255:#x}")
a, *b = [1, 2, 3]; print(a, b)
try:
    {}["k"]
except KeyError as e:
    print("KeyError", e)
print("{} {name}".format(1, name="n"), "-".join(["a", "b"]), "abc"[::-1])
"#;
    let r = run(&format!("python3 - <<'EOF'\n{prog}\nEOF"));
    assert_eq!(
        out(&r),
        "A(3) [A(1)]\n[(1, 2), (3, 1)] [0, 1, 4, 9, 16] {'a': 1, 'b': 2}\n\
         3.14    x|00010 0xff\n1 [2, 3]\nKeyError 'k'\n1 n a-b cba\n"
    );
}

#[test]
fn stdlib_modules_monty_has() {
    let prog = r#"
import json, re, math, collections, functools, datetime, base64
print(json.dumps({"a": [1, 2, None], "b": True}, sort_keys=True), json.loads('{"x": 1.5}'))
print(re.findall(r"\d+", "a1b22c333"), re.sub(r"(\w)(\d)", r"\2\1", "a1 b2"))
print(math.sqrt(16), math.floor(2.7), math.gcd(12, 18))
print(collections.Counter("abracadabra").most_common(2))
print(functools.reduce(lambda a, b: a * b, range(1, 6)))
print(datetime.date(2024, 1, 31) + datetime.timedelta(days=1), base64.b64encode(b"hi"))
"#;
    let r = run(&format!("python3 - <<'EOF'\n{prog}\nEOF"));
    assert_eq!(
        out(&r),
        "{\"a\": [1, 2, null], \"b\": true} {'x': 1.5}\n['1', '22', '333'] 1a 2b\n4.0 2 6\n\
         [('a', 5), ('b', 2)]\n120\n2024-02-01 b'aGk='\n"
    );
}

#[test]
fn exceptions_give_a_traceback_and_status_1() {
    // CPython prints no source line for -c programs; Monty shows the line and `~` carets.
    let r = run("python -c '1/0'");
    assert_eq!(r.exit_code, 1);
    let e = err(&r);
    assert!(e.starts_with("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"), "{e}");
    assert!(e.ends_with("ZeroDivisionError: division by zero\n"), "{e}");
    let r = run("python -c 'import nosuch'");
    assert!(err(&r).ends_with("ModuleNotFoundError: No module named 'nosuch'\n"), "{}", err(&r));
    let r = run("python -c 'x = undefined_name'");
    assert!(err(&r).ends_with("NameError: name 'undefined_name' is not defined\n"), "{}", err(&r));
    assert_eq!(r.exit_code, 1);
}

#[test]
fn syntax_error_status_1() {
    // CPython says "'(' was never closed"; Monty "unexpected EOF while parsing".
    let r = run("python -c 'print(1'; echo st=$?");
    assert_eq!(out(&r), "st=1\n");
    assert!(err(&r).starts_with("  File \"<string>\", line 1\n    print(1\n"), "{}", err(&r));
    assert!(err(&r).contains("SyntaxError: "), "{}", err(&r));
}

#[test]
fn sys_exit_and_system_exit() {
    let r = run("python -c 'import sys; sys.exit(3)'; echo st=$?");
    assert_eq!(out(&r), "st=3\n");
    let r = run("python -c 'import sys; sys.exit(\"msg\")'; echo st=$?");
    assert_eq!((out(&r).as_str(), err(&r).as_str()), ("st=1\n", "msg\n"));
    let r = run("python -c 'raise SystemExit(\"bye\")'; echo st=$?");
    assert_eq!((out(&r).as_str(), err(&r).as_str()), ("st=1\n", "bye\n"));
    let prog = "from sys import exit\ntry:\n    exit(4)\nexcept SystemExit:\n    print(\"caught\")\nexit(0)";
    let r = run(&format!("python -c '{prog}'; echo st=$?"));
    assert_eq!(out(&r), "caught\nst=0\n");
    let r = run("python -c 'import sys; sys.exit()'; echo st=$?");
    assert_eq!(out(&r), "st=0\n");
}

#[test]
fn streams_are_the_command_pipes() {
    let prog = "import sys\nprint(input())\nsys.stdout.write(sys.stdin.read().upper())\nsys.stderr.write(\"err\\n\")";
    let r = run(&format!("printf 'a\\nb\\nc\\n' | python -c '{prog}' 2>e; cat e"));
    assert_eq!(out(&r), "a\nB\nC\nerr\n");
    // Monty has no EOFError: the exception type differs, the message is CPython's.
    let r = run("python -c 'input()' </dev/null");
    assert!(err(&r).ends_with(": EOF when reading a line\n"), "{}", err(&r));
    let r = run("python -c 'for i in range(100000): print(i)' 2>e | head -2; echo ${PIPESTATUS[@]}; tail -1 e");
    assert_eq!(out(&r), "0\n1\n1 0\nBrokenPipeError: [Errno 32] Broken pipe\n");
}

#[test]
fn environment_is_the_exported_variables() {
    let prog = "import os\nprint(os.environ[\"FOO\"], os.getenv(\"BAR\", \"unset\"), os.getenv(\"HOME\"))";
    let r = run(&format!("export FOO=foo; BAR=notexported; python -c '{prog}'"));
    assert_eq!(out(&r), "foo unset /home/sandbox\n");
    let r = run(&format!("BAR=bar FOO=x python -c '{prog}'"));
    assert_eq!(out(&r), "x bar /home/sandbox\n");
}

#[test]
fn files_live_in_the_sandbox_relative_to_cwd() {
    let prog = r#"
with open("out.txt", "w") as f:
    f.write("l1\nl2\n")
print(open("out.txt").readlines())
from pathlib import Path
p = Path("sub")
p.mkdir()
(p / "x.txt").write_text("hello")
print((p / "x.txt").read_text(), p.is_dir(), Path("nope").exists())
print(sorted(str(c) for c in Path(".").iterdir()))
with open("out.txt", "a") as f:
    f.write("l3\n")
"#;
    let r = run(&format!("mkdir -p /w/d && cd /w/d && python3 -c '{prog}' && cat /w/d/out.txt /w/d/sub/x.txt"));
    assert_eq!(out(&r), "['l1\\n', 'l2\\n']\nhello True False\n['out.txt', 'sub']\nl1\nl2\nl3\nhello", "{}", err(&r));
    let r = run("python -c 'open(\"nope.txt\")'");
    assert!(err(&r).ends_with("FileNotFoundError: [Errno 2] No such file or directory: 'nope.txt'\n"), "{}", err(&r));
    // The host's files are not reachable.
    let r = run("python -c 'print(open(\"/etc/hostname\").read())'");
    assert!(err(&r).ends_with("FileNotFoundError: [Errno 2] No such file or directory: '/etc/hostname'\n"));
}

#[test]
fn recursion_is_bounded() {
    let r = run("python -c 'def f(n): return f(n+1)\nf(0)'");
    assert_eq!(r.exit_code, 1);
    // CPython says 996 more times: its limit counts the module frame differently.
    assert!(err(&r).ends_with("RecursionError: maximum recursion depth exceeded\n"), "{}", err(&r));
    // CPython: "SyntaxError: too many nested parentheses" (Monty words it its own way).
    let deep = format!("print({}1{})", "(".repeat(5000), ")".repeat(5000));
    let unary = format!("print({}1)", "-".repeat(100_000));
    let sum = format!("print(1{})", "+1".repeat(100_000));
    let nested = format!("x = {}1{}", "[".repeat(5000), "]".repeat(5000));
    let mut bash = Bash::builder()
        .python(vec!["python".into()])
        .file("/deep.py", deep)
        .file("/unary.py", unary)
        .file("/sum.py", sum)
        .file("/nested.py", nested)
        .build()
        .expect("build");
    for f in ["deep", "unary", "sum", "nested"] {
        let r = run_in(&mut bash, &format!("python /{f}.py"));
        assert_eq!(r.exit_code, 1, "{f}");
        assert!(err(&r).contains("Error"), "{f}: {}", err(&r));
    }
}

#[test]
fn big_allocations_are_refused() {
    let r = run("python -c 'x = \"a\" * 10**10'");
    assert_eq!(r.exit_code, 1);
    assert!(err(&r).contains("MemoryError"), "{}", err(&r));
}

#[test]
fn timeout_stops_a_busy_program() {
    let mut bash = session();
    let opts = ExecOptions { timeout_ms: Some(300), ..Default::default() };
    let t = std::time::Instant::now();
    let e =
        crate::commands::util::testutil::block_on(bash.exec_with("python -c 'while True: pass'", opts)).unwrap_err();
    assert!(matches!(e, Error::Stopped { .. }), "{e:?}");
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    let limits = Limits { timeout_ms: 300, ..Limits::default() };
    let mut bash = Bash::builder().python(vec!["python".into()]).limits(limits).build().expect("build");
    let prog = "while True:\n    try:\n        x = 1\n    except BaseException:\n        pass";
    let e = crate::commands::util::testutil::block_on(bash.exec(&format!("python -c '{prog}'"))).unwrap_err();
    assert!(matches!(e, Error::Stopped { .. }), "{e:?}");
}

#[test]
fn type_and_which_find_it_when_enabled() {
    let r = run("type python3; which python; command -v python3");
    assert_eq!(out(&r), "python3 is /usr/bin/python3\n/usr/bin/python\n/usr/bin/python3\n");
    let mut bash = Bash::builder().build().expect("build");
    let r = run_in(&mut bash, "which python; echo $?");
    assert_eq!(out(&r), "1\n");
}

#[test]
fn runs_under_xargs_and_env() {
    let r = run("echo 5 | xargs python -c 'import sys; print(int(sys.argv[1]) * 2)'");
    assert_eq!(out(&r), "10\n");
    let r = run("env X=1 python3 -c 'import os; print(os.environ[\"X\"])'");
    assert_eq!(out(&r), "1\n");
}

#[test]
fn cancel_and_output_limit_stop_the_program() {
    let mut bash = session();
    let cancel = crate::limits::CancelToken::default();
    let opts = ExecOptions { cancel: cancel.clone(), ..Default::default() };
    let t = std::time::Instant::now();
    let e = crate::commands::util::testutil::block_on(async {
        let trigger = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            trigger.cancel();
        });
        bash.exec_with("python -c 'print(\"started\")\nwhile True: pass'", opts).await
    })
    .unwrap_err();
    match e {
        Error::Stopped { reason: crate::limits::Stop::Cancelled, partial } => assert_eq!(partial.stdout, b"started\n"),
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    // The session still works afterwards.
    assert_eq!(run_in(&mut bash, "python -c 'print(7)'").stdout, b"7\n");

    let limits = Limits { max_output_bytes: 1000, ..Limits::default() };
    let mut bash = Bash::builder().python(vec!["python".into()]).limits(limits).build().expect("build");
    let e =
        crate::commands::util::testutil::block_on(bash.exec("python -c 'while True: print(\"x\" * 100)'")).unwrap_err();
    assert!(e.to_string().contains("max_output_bytes"), "{e}");
}
