//! CPython in the sandbox against CPython on the host: each program runs in
//! both, from the same files and stdin, and must give the same stdout,
//! stderr and status. The programs are the kind agents write, by class. The
//! host's `python3` must be 3.11 or newer (the programs avoid what changed
//! from 3.11 to 3.12); the runtime is the one `scripts/fetch_python` puts in
//! `priv/python/`.

use crate::{Bash, ExecResult, Limits};
use std::io::Write;
use std::process::{Command, Stdio};

fn runtime_path() -> String {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/../../priv/python/python-3.12.0.wasm");
    assert!(std::path::Path::new(p).exists(), "the CPython runtime is missing at {p}: run scripts/fetch_python");
    p.to_string()
}

fn session_with(limits: Limits) -> Bash {
    Bash::builder()
        .python(vec!["python".into(), "python3".into()])
        .python_runtime(runtime_path())
        .cwd("/work")
        .env("HOME", "/home/sandbox")
        .limits(limits)
        .build()
        .expect("build")
}

fn session() -> Bash {
    session_with(Limits::default())
}

fn exec(bash: &mut Bash, script: &str) -> ExecResult {
    crate::commands::util::testutil::block_on(bash.exec(script)).expect("exec")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A program with its files (relative to the working directory), stdin and arguments.
struct Case {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    stdin: &'static str,
    args: &'static [&'static str],
    program: &'static str,
}

const fn case(name: &'static str, program: &'static str) -> Case {
    Case { name, files: &[], stdin: "", args: &[], program }
}

/// Run `prog.py` with the host's CPython in a scratch directory.
fn host_python(c: &Case) -> (String, String, i32) {
    let dir = std::env::temp_dir().join(format!("sandbash-cpython-{}-{}", std::process::id(), c.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    for (p, data) in c.files {
        std::fs::write(dir.join(p), data).expect("file");
    }
    std::fs::write(dir.join("prog.py"), c.program).expect("prog");
    let mut child = Command::new("python3")
        .arg("prog.py")
        .args(c.args)
        .current_dir(&dir)
        .env_clear()
        .env("HOME", "/home/sandbox")
        .env("GREETING", "hello")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the host needs python3 (3.11 or newer) for these tests");
    child.stdin.take().expect("stdin").write_all(c.stdin.as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("python3");
    let mut result = (text(&out.stdout), text(&out.stderr), out.status.code().unwrap_or(-1));
    // Tracebacks name the script by its absolute path.
    result.1 = result.1.replace(&format!("{}/", dir.display()), "/work/");
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn sandbox_python(bash: &mut Bash, c: &Case) -> (String, String, i32) {
    let mut script = String::new();
    for (p, data) in c.files.iter().chain([&("prog.py", c.program)]) {
        script.push_str(&format!("cat > {p} <<'__EOF__'\n{data}__EOF__\n"));
    }
    script.push_str("export GREETING=hello\n");
    let args: Vec<String> = c.args.iter().map(|a| format!("'{a}'")).collect();
    script.push_str(&format!("python3 prog.py {} <<'__EOF__'\n{}__EOF__\n", args.join(" "), c.stdin));
    let r = exec(bash, &script);
    (text(&r.stdout), text(&r.stderr), r.exit_code)
}

fn compare(cases: &[Case]) {
    let mut bash = session();
    for c in cases {
        assert!(c.stdin.is_empty() || c.stdin.ends_with('\n'), "{}: stdin ends with a newline", c.name);
        for (_, d) in c.files {
            assert!(d.ends_with('\n'), "{}: files end with a newline", c.name);
        }
        let want = host_python(c);
        let got = sandbox_python(&mut bash, c);
        assert_eq!(got, want, "{}: sandbox (left) vs host CPython (right)", c.name);
    }
}

#[test]
fn classes_exceptions_and_tracebacks() {
    compare(&[
        case(
            "inheritance",
            r#"class Shape:
    def __init__(self, name):
        self.name = name
    def area(self):
        raise NotImplementedError
    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"
class Rect(Shape):
    def __init__(self, w, h):
        super().__init__("rect")
        self.w, self.h = w, h
    def area(self):
        return self.w * self.h
    @property
    def square(self):
        return self.w == self.h
    @staticmethod
    def unit():
        return Rect(1, 1)
    @classmethod
    def of(cls, n):
        return cls(n, n)
shapes = [Rect(2, 3), Rect.unit(), Rect.of(4)]
for s in sorted(shapes, key=lambda s: s.area()):
    print(s, s.area(), s.square)
try:
    Shape("x").area()
except NotImplementedError as e:
    print("abstract", type(e).__name__)
"#,
        ),
        case(
            "custom_exceptions",
            r#"class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, key):
        super().__init__(f"missing key: {key}")
        self.key = key
def get(d, k):
    if k not in d:
        raise NotFound(k)
    return d[k]
try:
    get({}, "x")
except AppError as e:
    print("caught", e, e.key)
finally:
    print("finally")
try:
    try:
        1 / 0
    except ZeroDivisionError as e:
        raise ValueError("bad") from e
except ValueError as e:
    print(repr(e), repr(e.__cause__))
raise NotFound("y")
"#,
        ),
        case("exit_codes", "import sys\nprint('before')\nsys.exit(3)\n"),
        case("exit_message", "import sys\nsys.exit('fatal: no input')\n"),
        case("syntax_error", "print('a'\n"),
        case("uncaught_os_error", "open('missing.txt')\n"),
    ]);
}

#[test]
fn generators_comprehensions_and_formatting() {
    compare(&[
        case(
            "generators",
            r#"def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
def take(n, it):
    for i, x in enumerate(it):
        if i >= n:
            return
        yield x
print(list(take(10, fib())))
gen = (x * x for x in range(5))
print(sum(gen), next(iter([7])))
def chain(*its):
    for it in its:
        yield from it
print(list(chain("ab", [1, 2])))
squares = {x: x ** 2 for x in range(4)}
evens = {x for x in range(10) if x % 2 == 0}
matrix = [[i * j for j in range(3)] for i in range(3)]
print(squares, sorted(evens), matrix)
match squares:
    case {0: 0, 1: one}:
        print("matched", one)
"#,
        ),
        case(
            "formatting",
            r#"name, n, x = "disk", 42, 3.14159
print("%s has %d items (%.2f%%)" % (name, n, x))
print("%-8s|%5d|%08.3f|%x|%o|%e" % (name, n, x, 255, 8, 12345.678))
print("%(a)s-%(b)s" % {"a": 1, "b": 2})
print("{} {:>6} {:<6}| {:^7} {:+d}".format(name, n, n, "mid", n))
print("{0:.3f} {1:,} {2:b} {3!r}".format(x, 1234567, 10, name))
print(f"{name=} {n:05d} {x:.1e} {n:#x} {1e6:,.0f} {'t':*^9}")
print(f"{3.0:g} {0.1 + 0.2!r} {[1, 2]!s} {True:d}")
print(str(1/3), repr(2.5), format(1234.5, "_.2f"), round(2.675, 2))
print("a,b,,c".split(","), " x ".strip(), "-".join("abc"), "Title Case".swapcase())
print("tab\tsep".expandtabs(4), "abc".center(9, "."), "42".zfill(5))
"#,
        ),
    ]);
}

#[test]
fn standard_library_modules() {
    compare(&[
        Case {
            name: "csv_json",
            files: &[("data.csv", "name,dept,salary\nann,eng,120\nbob,ops,90\ncid,eng,100\n")],
            stdin: "",
            args: &[],
            program: r#"import csv, json, io
from collections import defaultdict, Counter, OrderedDict, namedtuple, deque
with open("data.csv", newline="") as f:
    rows = list(csv.DictReader(f))
by = defaultdict(list)
for r in rows:
    by[r["dept"]].append(int(r["salary"]))
print(json.dumps({k: sum(v) for k, v in sorted(by.items())}, indent=2, sort_keys=True))
print(Counter(r["dept"] for r in rows).most_common(1))
P = namedtuple("P", "x y")
print(P(1, 2), list(OrderedDict(a=1).items()), deque([1, 2, 3], maxlen=2))
out = io.StringIO()
w = csv.writer(out)
w.writerow(["a", "b,c", 'd"e'])
print(out.getvalue(), end="")
print(json.loads('{"a": [1, 2.5, null, true]}'))
"#,
        },
        case(
            "re_datetime_functools_itertools",
            r#"import re, datetime, functools, itertools, math, operator
log = "2024-01-05 ERROR disk full\n2024-01-06 INFO ok\n2024-01-07 ERROR cpu hot\n"
errs = re.findall(r"^(\d{4}-\d\d-\d\d) ERROR (.*)$", log, re.M)
print(errs, re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home you@work"))
m = re.match(r"(?P<y>\d+)-(?P<m>\d+)", "2024-03")
print(m.group("y"), m.groupdict(), re.split(r"[,;]\s*", "a, b;c"))
d = datetime.date(2024, 2, 28) + datetime.timedelta(days=2)
print(d, d.isoformat(), d.strftime("%A %d %B %Y"), d.weekday())
t = datetime.datetime(2024, 1, 1, 12, 30) - datetime.datetime(2023, 12, 31)
print(t, t.total_seconds(), datetime.datetime.strptime("05/01/24", "%d/%m/%y"))
@functools.lru_cache(maxsize=None)
def f(n):
    return n if n < 2 else f(n - 1) + f(n - 2)
print(f(80), functools.reduce(operator.mul, range(1, 10)), math.gcd(12, 18), math.isqrt(99))
print(list(itertools.product("ab", repeat=2)), list(itertools.permutations([1, 2, 3], 2))[:3])
print([(k, len(list(g))) for k, g in itertools.groupby("aabccc")], list(itertools.accumulate([1, 2, 3])))
print(list(itertools.chain.from_iterable([[1], [2, 3]])), list(itertools.islice(itertools.count(5), 3)))
"#,
        ),
        case(
            "hashlib_base64_statistics_textwrap_dataclasses",
            r#"import hashlib, base64, statistics, textwrap, dataclasses, string, random, struct, uuid, decimal, fractions
print(hashlib.sha256(b"abc").hexdigest(), hashlib.md5(b"").hexdigest()[:8])
print(base64.b64encode(b"hello world"), base64.b64decode("aGk="), base64.urlsafe_b64encode(b"\xff\xfe"))
data = [2, 4, 4, 4, 5, 5, 7, 9]
print(statistics.mean(data), statistics.median(data), statistics.pstdev(data), statistics.mode(data))
print(textwrap.fill("The quick brown fox jumps over the lazy dog " * 2, width=30))
print(textwrap.dedent("    a\n      b\n"), end="")
@dataclasses.dataclass(order=True)
class Item:
    name: str
    qty: int = 0
    tags: list = dataclasses.field(default_factory=list)
print(Item("x", 2), sorted([Item("b"), Item("a", 5)]), dataclasses.asdict(Item("z")))
print(string.ascii_lowercase[:5], struct.pack("<HI", 1, 2), decimal.Decimal("0.1") + decimal.Decimal("0.2"))
random.seed(7)
print(fractions.Fraction(3, 6), len(str(uuid.UUID(int=5))), random.randint(1, 100) > 0)
"#,
        ),
        Case {
            name: "argparse",
            files: &[],
            stdin: "",
            args: &["-n", "3", "--verbose", "in.txt"],
            program: r#"import argparse
p = argparse.ArgumentParser(prog="tool", description="demo")
p.add_argument("path")
p.add_argument("-n", type=int, default=1)
p.add_argument("--verbose", action="store_true")
a = p.parse_args()
print(a.path, a.n, a.verbose, vars(a))
p.parse_args(["--bogus"])
"#,
        },
    ]);
}

#[test]
fn files_stdin_and_the_filesystem() {
    compare(&[
        Case {
            name: "stdin_lines",
            files: &[],
            stdin: "alpha 3\nbeta 5\n\ngamma 1\n",
            args: &[],
            program: r#"import sys
total = 0
for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    total += int(parts[1])
    print(parts[0].upper(), file=sys.stderr)
print("total", total)
"#,
        },
        Case {
            name: "stdin_read_and_input",
            files: &[],
            stdin: "first\nrest one\nrest two\n",
            args: &[],
            program: "import sys\nprint(repr(input()))\nprint(sys.stdin.read().splitlines())\n",
        },
        Case {
            name: "files_and_dirs",
            files: &[("notes.txt", "one\ntwo\nthree\n")],
            stdin: "",
            args: &[],
            program: r#"import os, pathlib, shutil, glob, tempfile
with open("notes.txt") as f:
    for n, line in enumerate(f, 1):
        print(n, line.rstrip())
os.makedirs("out/sub", exist_ok=True)
pathlib.Path("out/sub/a.txt").write_text("A\n")
with open("out/b.txt", "w") as f:
    f.write("B\n")
with open("out/b.txt", "a") as f:
    print("more", file=f)
for root, dirs, files in sorted(os.walk("out")):
    print(root, sorted(dirs), sorted(files))
print(sorted(glob.glob("out/**/*.txt", recursive=True)))
print(sorted(p.name for p in pathlib.Path(".").iterdir()))
p = pathlib.Path("out/b.txt")
print(p.read_text().splitlines(), p.suffix, p.stem, p.exists(), p.stat().st_size)
os.rename("out/b.txt", "out/c.txt")
shutil.copy("out/c.txt", "out/d.txt")
os.remove("out/c.txt")
print(sorted(os.listdir("out")), os.path.isdir("out/sub"), os.path.getsize("out/d.txt"))
print(os.getcwd() == os.path.abspath("."), os.path.isabs(os.getcwd()))
print(os.environ["GREETING"], os.environ.get("NOPE", "-"), os.path.expanduser("~"))
try:
    os.rmdir("out")
except OSError as e:
    print(type(e).__name__)
with open("result.json", "w") as f:
    f.write('{"ok": true}\n')
"#,
        },
    ]);
}

#[test]
fn the_shell_reads_what_python_wrote_and_pipes_stream() {
    let mut bash = session();
    let r = exec(
        &mut bash,
        "python3 -c 'open(\"report.txt\", \"w\").write(\"a\\nb\\n\")'; cat report.txt; wc -l < report.txt\n\
         seq 5 | python3 -c 'import sys; print(sum(int(l) for l in sys.stdin))'\n\
         python3 -c 'for i in range(100000): print(i)' | head -n 2\n\
         echo \"status ${PIPESTATUS[*]}\"\n\
         printf 'x = 6 * 7\\nprint(x)\\n' | python3\n\
         python3 - a b <<'EOF'\nimport sys; print(sys.argv)\nEOF\n\
         python3 -c 'import sys; print(sys.argv)' x y\n\
         python3 -V; python3 -c 'import sys; print(sys.version_info[:2], sys.platform)'\n\
         cd /tmp && python3 -c 'import os; print(os.getcwd())'\n",
    );
    assert_eq!(
        text(&r.stdout),
        "a\nb\n2\n15\n0\n1\nstatus 1 0\n42\n['-', 'a', 'b']\n['-c', 'x', 'y']\nPython 3.12.0\n(3, 12) wasi\n/tmp\n"
    );
    // The head closing the pipe ends python with CPython's BrokenPipeError.
    assert_eq!(
        text(&r.stderr),
        "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nBrokenPipeError: [Errno 32] Broken pipe\n"
    );
}

#[test]
fn python_m_runs_standard_modules() {
    let mut bash = session();
    let r = exec(
        &mut bash,
        "echo '{\"b\": 1, \"a\": [1, 2]}' | python3 -m json.tool --sort-keys\n\
         printf hello | python3 -m base64\n\
         python3 -m nosuchmodule; echo $?\n",
    );
    assert_eq!(text(&r.stdout), "{\n    \"a\": [\n        1,\n        2\n    ],\n    \"b\": 1\n}\naGVsbG8=\n1\n");
    assert_eq!(text(&r.stderr), "/usr/bin/python3: No module named nosuchmodule\n");
}

#[test]
fn nothing_of_the_host_is_reachable() {
    let mut bash = session();
    let r = exec(
        &mut bash,
        "python3 -c '\nimport os\nprint(sorted(os.listdir(\"/\")))\nprint(os.path.exists(\"/etc/passwd\"), os.path.exists(\"/proc/self\"))\n\
         import socket\ntry:\n    socket.create_connection((\"127.0.0.1\", 80))\nexcept Exception as e:\n    print(\"no network\")\n\
         import subprocess\ntry:\n    subprocess.run([\"ls\"])\nexcept Exception as e:\n    print(\"no processes\")\n'",
    );
    let out = text(&r.stdout);
    assert!(
        out.starts_with("['bin', 'dev', 'home', 'tmp', 'usr', 'work']\nFalse False\n"),
        "{out}\n{}",
        text(&r.stderr)
    );
    assert!(out.contains("no network\n") && out.contains("no processes\n"), "{out}\n{}", text(&r.stderr));
}

#[test]
fn a_missing_or_wrong_runtime_fails_the_build() {
    let b = Bash::builder().python(vec!["python3".into()]).python_runtime("/nonexistent/python.wasm").build();
    let e = b.err().expect("refused").to_string();
    assert!(e.contains("python runtime not found at /nonexistent/python.wasm"), "{e}");
    let bad = std::env::temp_dir().join(format!("sandbash-bad-{}.wasm", std::process::id()));
    std::fs::write(&bad, b"\0asm\x01\0\0\0").expect("write");
    let e = Bash::builder().python_runtime(bad.display().to_string()).build().err().expect("refused").to_string();
    assert!(e.contains("has SHA-256") && e.contains(super::runtime::PINNED_SHA256), "{e}");
    let _ = std::fs::remove_file(bad);
}

#[test]
fn bombs_end_at_the_limits() {
    // A loop past the deadline: stopped at the next tick.
    let mut bash = session_with(Limits { timeout_ms: 1500, ..Limits::default() });
    let r = crate::commands::util::testutil::block_on(bash.exec("python3 -c 'while True: pass'; echo after"));
    assert!(matches!(r, Err(crate::Error::Stopped { reason: crate::limits::Stop::Timeout(_), .. })), "{r:?}");
    // Memory: refused past the budget, CPython raises MemoryError.
    let mut bash = session_with(Limits { max_memory_bytes: 96 << 20, ..Limits::default() });
    let r = exec(&mut bash, "python3 -c 'x = []\nwhile True: x.append(\"y\" * 1000000)'; echo \"status $?\"");
    assert!(text(&r.stderr).ends_with("MemoryError\n"), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "status 1\n");
    // Recursion and more bombs: tests/adversarial/python.rs.
    // Output: the exec's output limit.
    let mut bash = session_with(Limits { max_output_bytes: 100_000, ..Limits::default() });
    let r = crate::commands::util::testutil::block_on(bash.exec("python3 -c 'while True: print(\"x\" * 1000)'"));
    assert!(
        matches!(r, Err(crate::Error::Stopped { reason: crate::limits::Stop::Limit(ref m), .. }) if m.contains("max_output_bytes")),
        "{r:?}"
    );
}
