#!/usr/bin/env python3
"""Record real bash's behaviour for each case of a topic and write the Rust test file.

usage (from anywhere):  python3 native/sandbash/tests/record/record.py [--check] [TOPIC...]
    TOPIC is a file name here without `.py` (expansion, quoting, ...); none = all.
    Writes native/sandbash/tests/TOPIC.rs. Needs GNU bash 5.2 on PATH, and C.UTF-8.
    --check writes nothing: it re-runs bash for each topic and fails (exit 1, with a
    diff) when the recorded .rs differs from what bash prints today, or is missing.

A topic file calls group(title), t(name, script[, stdin=bytes]) (stdout + status),
e(name, script) (stdout + stderr + status) and p(name, script) (parse error); t and e
take ignore="why" for a case recorded but not yet passing (#[ignore = "why"]), and
tools(...) puts more real utilities on PATH for the topic; as_user(uid) runs the topic's
bash as that uid (needs root), so permission bits hold as they do for the sandbox user.
bash runs as `bash -c SCRIPT` with env HOME=/home/sandbox LC_ALL=C.UTF-8 TZ=UTC and a
PATH holding only cat, bash, sh, yes, head, sleep and mkdir, in an empty /tmp/sbtest, with empty stdin.
"""
import atexit, difflib, os, shutil, subprocess, sys, re, tempfile

CWD = "/tmp/sbtest"
HERE = os.path.dirname(os.path.abspath(__file__))
BIN = tempfile.mkdtemp(prefix="sandbash-record-bin-")
atexit.register(shutil.rmtree, BIN, True)
for _tool in ["cat", "bash", "yes", "head", "sleep", "mkdir"]:
    os.symlink(shutil.which(_tool), os.path.join(BIN, _tool))
os.symlink(shutil.which("bash"), os.path.join(BIN, "sh"))

# Tools whose expectations are GNU's although Debian may install another under the name.
GNU_NAMES = {"awk": "gawk"}

class MissingTool(Exception):
    """A utility the topic needs is not installed on this machine."""

cases = []  # (kind, name, script, extra)
_extra_tools = []  # links tools() added for the current topic

def tools(*names):
    """Put more real utilities on PATH for the cases of the current topic."""
    for n in names:
        link = os.path.join(BIN, n)
        if not os.path.lexists(link):
            real = GNU_NAMES.get(n, n)
            path = shutil.which(real)
            if path is None:
                raise MissingTool(real)
            os.symlink(path, link)
            _extra_tools.append(link)

def group(title):
    cases.append(("group", title, None, {}))

def t(name, script, stdin=None, ignore=None):
    cases.append(("t", name, script, {"stdin": stdin, "ignore": ignore}))

def e(name, script, ignore=None):
    cases.append(("e", name, script, {"ignore": ignore}))

def p(name, script):
    cases.append(("p", name, script, {}))

# The uid bash runs as for the current topic (None: whoever runs this).
_user = [None]

def as_user(uid):
    """Run the current topic's bash as this (non-root) uid, as the sandbox user
    is: permission bits then hold. Needs root."""
    _user[0] = uid

def run_bash(script, stdin):
    shutil.rmtree(CWD, ignore_errors=True)
    os.makedirs(CWD)
    env = {"HOME": "/home/sandbox", "PATH": BIN, "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    uid = _user[0]
    become = None
    if uid is not None:
        os.chmod(BIN, 0o755)
        os.chown(CWD, uid, uid)
        def become():
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
    r = subprocess.run(["bash", "-c", script], cwd=CWD, env=env,
                       input=stdin if stdin is not None else b"",
                       capture_output=True, timeout=20, preexec_fn=become)
    return r.stdout, r.stderr, r.returncode

def rust_str(b):
    """A Rust literal for bytes: "..." when UTF-8, else b"..."."""
    try:
        s = b.decode("utf-8")
        out = []
        for ch in s:
            o = ord(ch)
            if ch == "\\": out.append("\\\\")
            elif ch == '"': out.append('\\"')
            elif ch == "\n": out.append("\\n")
            elif ch == "\t": out.append("\\t")
            elif ch == "\r": out.append("\\r")
            elif o < 0x20 or o == 0x7f: out.append("\\u{%x}" % o)
            else: out.append(ch)
        return '"' + "".join(out) + '"'
    except UnicodeDecodeError:
        out = []
        for c in b:
            if c == 0x5c: out.append("\\\\")
            elif c == 0x22: out.append('\\"')
            elif c == 0x0a: out.append("\\n")
            elif c == 0x09: out.append("\\t")
            elif 0x20 <= c < 0x7f: out.append(chr(c))
            else: out.append("\\x%02x" % c)
        return 'b"' + "".join(out) + '"'

def rust_raw(s):
    n = 1
    while ('"' + "#" * n) in s:
        n += 1
    h = "#" * n
    return "r" + h + '"' + s + '"' + h

def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    topics = args or sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and f != "record.py")
    drifted = []
    for topic in topics:
        cases.clear()
        _user[0] = None
        while _extra_tools:
            os.remove(_extra_tools.pop())
        out = os.path.join(HERE, "..", topic + ".rs")
        try:
            text = record(os.path.join(HERE, topic + ".py"), out)
        except MissingTool as m:
            print(f"{topic}: cannot record, {m} is not installed", file=sys.stderr)
            drifted.append(topic + " (missing " + str(m) + ")")
            continue
        if not check:
            open(out, "w").write(text)
            continue
        old = open(out).read() if os.path.exists(out) else ""
        if normalize(old) != normalize(text):
            drifted.append(topic)
            diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(),
                                             "tests/" + topic + ".rs (recorded)",
                                             "tests/" + topic + ".rs (bash now)", lineterm=""))
            print("\n".join(diff[:200]) + ("\n... (%d more diff lines)" % (len(diff) - 200) if len(diff) > 200 else ""))
    if check:
        if drifted:
            print("drift in %d topic(s): %s" % (len(drifted), " ".join(drifted)), file=sys.stderr)
            sys.exit(1)
        print("no drift in %d topic(s)" % len(topics), file=sys.stderr)
    elif drifted:
        sys.exit("not recorded: " + " ".join(drifted))

def normalize(text):
    """The tokens of a test file without whitespace, comments and trailing commas, so
    that only a change of a script, an expectation, a name or an attribute counts
    as drift, not how rustfmt (or a person) wrapped a long call."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        m = re.match(r'r(#*)"', text[i:i + 40]) if c == "r" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if m:
            end = text.index('"' + m.group(1), i + len(m.group(0))) + 1 + len(m.group(1))
            out.append(text[i:end]); i = end
        elif c == '"' or (c == "b" and text[i + 1:i + 2] == '"' and not (text[i - 1].isalnum() or text[i - 1] == "_")):
            j = i + (2 if c == "b" else 1)
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1]); i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif c.isspace():
            i += 1
        else:
            out.append(c); i += 1
    return re.sub(r",\)", ")", "".join(out))

def rustfmt(text):
    """The text as `cargo fmt` leaves it (the repository's rustfmt.toml), so a check
    compares with the committed file and a recording needs no separate fmt run."""
    root = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
    r = subprocess.run(["rustfmt", "--edition", "2021", "--emit", "stdout",
                        "--config-path", os.path.join(root, "rustfmt.toml")],
                       input=text.encode(), capture_output=True)
    if r.returncode != 0:
        sys.exit("rustfmt failed: " + r.stderr.decode())
    return r.stdout.decode()

def record(spec, out):
    """The text of the test file for the topic file `spec` (written to `out` by main)."""
    src = open(spec).read()
    header = re.match(r'^"""(.*?)"""', src, re.S)
    exec(compile(src, spec, "exec"), globals())
    names = set()
    lines = ["//! " + l if l else "//!" for l in (header.group(1).strip().splitlines() if header else [])]
    lines += ["//!", "//! Generated by tests/record/record.py from tests/record/" + os.path.basename(spec) + ": every expected", "//! value is what GNU bash 5.2 printed (see tests/common/mod.rs). Edit the topic file and re-record.", "",
              "mod common;", "use common::*;", ""]
    for kind, name, script, extra in cases:
        if kind == "group":
            lines += ([] if lines[-1] == "" else [""]) + ["// " + "-" * 70, "// " + name, "// " + "-" * 70, ""]
            continue
        assert name not in names, name
        names.add(name)
        stdin = extra.get("stdin")
        if isinstance(stdin, str): stdin = stdin.encode()
        so, se, rc = run_bash(script, stdin)
        lines.append("#[test]")
        if extra.get("ignore"):
            lines.append(f"#[ignore = {rust_str(extra['ignore'].encode())}]")
        lines.append(f"fn {name}() {{")
        if kind == "p":
            assert rc == 2, (name, rc, se)
            first = se.decode().splitlines()[0]
            m = re.search(r"line \d+: (.*)$", first)
            assert m, first
            lines.append(f"    check_parse_error({rust_raw(script)}, {rust_str(m.group(1).encode())});")
        elif kind == "e":
            lines.append(f"    check_err({rust_raw(script)}, {rust_str(so)}, {rust_str(se)}, {rc});")
        elif stdin is not None:
            lines.append(f"    check_stdin({rust_raw(script)}, {rust_str(stdin)}, {rust_str(so)}, {rc});")
        else:
            if se and kind == "t":
                print(f"note: {name} wrote stderr: {se!r}", file=sys.stderr)
            lines.append(f"    check({rust_raw(script)}, {rust_str(so)}, {rc});")
        lines.append("}")
        lines.append("")
    print(f"{os.path.normpath(out)}: {len(names)} tests", file=sys.stderr)
    return rustfmt("\n".join(lines).rstrip() + "\n")

main()
