defmodule ExBashkit.PythonTest do
  # The `:python` option end to end. Expected outputs were printed by CPython
  # 3.11 for the same programs; inside the sandbox they run on CPython 3.12
  # (WASI), or on Monty where a test says so.
  use ExUnit.Case, async: true

  alias ExBashkit.Session

  defp run(session, script) do
    {:ok, r} = Session.exec(session, script)
    r
  end

  test "off by default" do
    r = run(Session.new(), "python3 -c 'print(1)'")
    assert r.exit_code == 127
    assert r.stderr =~ "python3: command not found"
  end

  test "python: true gives python and python3" do
    s = Session.new(python: true)
    assert run(s, "python -c 'print(1 + 1)'").stdout == "2\n"

    r = run(s, "python3 -c 'import sys; print(sys.argv)' a b")
    assert r.stdout == "['-c', 'a', 'b']\n"
    assert r.exit_code == 0
  end

  test "other names" do
    s = Session.new(python: [name: "py"])
    assert run(s, "py -c 'print(3)'").stdout == "3\n"
    assert run(s, "python -c 'print(3)'").exit_code == 127

    s = Session.new(python: [names: ["python", "pyth"]])
    assert run(s, "pyth -c 'print(4)'; python -c 'print(5)'").stdout == "4\n5\n"
    assert run(s, "python3 -c 1").exit_code == 127
  end

  test "bad values raise" do
    assert_raise ArgumentError, ~r/option :python must be a boolean/, fn ->
      Session.new(python: [other: 1])
    end

    assert_raise ArgumentError, ~r/not a valid command name/, fn ->
      Session.new(python: [name: "a/b"])
    end

    assert_raise ArgumentError, ~r/shell keyword/, fn ->
      Session.new(python: [names: ["if"]])
    end
  end

  test "files, stdin, environment and exit status" do
    s = Session.new(python: true, env: [{"GREETING", "hi"}], cwd: "/work")

    script = ~S"""
    printf 'b\na\n' > in.txt
    python3 - out.txt <<'EOF'
    import os, sys
    lines = sorted(open("in.txt").readlines())
    with open(sys.argv[1], "w") as f:
        f.write("".join(lines))
    print(os.environ["GREETING"], len(lines))
    sys.exit(3)
    EOF
    echo "status $?"
    cat /work/out.txt
    """

    r = run(s, script)
    assert r.stdout == "hi 2\nstatus 3\na\nb\n"

    r = run(s, "echo hello | python3 -c 'import sys; print(sys.stdin.read().upper(), end=\"\")'")
    assert r.stdout == "HELLO\n"
  end

  test "an uncaught exception prints a traceback and exits 1" do
    r = run(Session.new(python: true), "python3 -c '1/0'")
    assert r.exit_code == 1
    assert r.stderr =~ ~r/\ATraceback \(most recent call last\):\n/
    assert String.ends_with?(r.stderr, "ZeroDivisionError: division by zero\n")
  end

  test "the exec's timeout stops a busy program" do
    s = Session.new(python: true, limits: [timeout_ms: 300])
    assert {:error, msg} = Session.exec(s, "python3 -c 'while True: pass'")
    assert msg =~ "timed out"
  end

  test "snapshot and restore keep working with python on (python state is not part of it)" do
    s = Session.new(python: true)

    assert run(s, "python3 -c 'open(\"/tmp/p.txt\", \"w\").write(\"from py\")'; x=kept").exit_code ==
             0

    {:ok, bytes} = Session.snapshot(s)
    t = Session.new(python: true)
    {:ok, ^t} = Session.restore(t, bytes)

    assert run(
             t,
             "cat /tmp/p.txt; echo; echo $x; python3 -c 'print(len(open(\"/tmp/p.txt\").read()))'"
           ).stdout ==
             "from py\nkept\n7\n"
  end

  test "programs Monty cannot run: classes, generators, % formatting, csv, argparse" do
    s = Session.new(python: true, cwd: "/work")

    script = ~S"""
    printf 'name,n\nann,3\nbob,5\n' > data.csv
    python3 - --top 1 data.csv <<'EOF'
    import argparse, csv, sys
    class Row:
        def __init__(self, d):
            self.name, self.n = d["name"], int(d["n"])
    class Big(Row):
        @property
        def label(self):
            return "%-5s|%3d" % (self.name, self.n)
    def rows(path):
        with open(path, newline="") as f:
            for d in csv.DictReader(f):
                yield Big(d)
    p = argparse.ArgumentParser()
    p.add_argument("--top", type=int)
    p.add_argument("file")
    a = p.parse_args()
    for r in sorted(rows(a.file), key=lambda r: -r.n)[: a.top]:
        print(r.label)
    print("done", file=sys.stderr)
    EOF
    python3 -c 'import json; json.dump({"k": [1, 2]}, open("o.json", "w"))'; cat o.json
    """

    r = run(s, script)
    assert {r.stdout, r.stderr, r.exit_code} == {"bob  |  5\n{\"k\": [1, 2]}", "done\n", 0}
  end

  test "runtime: :monty keeps the lighter interpreter" do
    s = Session.new(python: [runtime: :monty])
    assert run(s, "python3 -V").stdout == "Python 3.14.0\n"
    assert run(Session.new(python: true), "python3 -V").stdout == "Python 3.12.0\n"
  end

  test "a missing or wrong runtime fails at Session.new" do
    assert_raise ArgumentError, ~r/python runtime not found at \/nonexistent\/python.wasm/, fn ->
      Session.new(python: [runtime: "/nonexistent/python.wasm"])
    end

    path =
      Path.join(System.tmp_dir!(), "ex_bashkit_bad_#{System.unique_integer([:positive])}.wasm")

    File.write!(path, "\0asm\x01\0\0\0")

    assert_raise ArgumentError,
                 ~r/has SHA-256 .*, expected #{ExBashkit.Python.Runtime.sha256()}/,
                 fn ->
                   Session.new(python: [runtime: path])
                 end

    File.rm!(path)
    assert ExBashkit.Python.Runtime.verify() == :ok
  end

  test "memory and cancel bound a program" do
    s = Session.new(python: true, limits: [max_memory_bytes: 96 * 1024 * 1024])
    r = run(s, "python3 -c 'x = []\nwhile True: x.append(\"y\" * 10**6)'; echo \"status $?\"")
    assert String.ends_with?(r.stderr, "MemoryError\n")
    assert r.stdout == "status 1\n"

    s = Session.new(python: true)
    task = Task.async(fn -> Session.exec(s, "python3 -c 'while True: pass'") end)
    Process.sleep(300)
    Session.cancel(s)
    assert {:error, msg} = Task.await(task, 10_000)
    assert msg =~ "cancelled"
  end
end
