defmodule ExBashkit.Python do
  @moduledoc """
  Python inside the sandbox, enabled with `ExBashkit.Session.new(python: true)`.

  Scripts then run `python` and `python3` on real CPython 3.12.0: its WASI
  build (see `ExBashkit.Python.Runtime` for getting it), run by wasmtime in
  the NIF, with every system call answered from the session:

      iex> session = ExBashkit.Session.new(python: true)
      iex> py = "import sys; a, b = open(sys.argv[1]).read().split(); print(int(a) * int(b))"
      iex> {:ok, r} = ExBashkit.Session.exec(session, "echo '3 4' > /tmp/nums; python3 -c '\#{py}' /tmp/nums")
      iex> r.stdout
      "12\\n"

  `python -c CODE`, `python FILE` (a file of the sandbox), `python -m MODULE`
  and a program on stdin or in a here-document behave as in CPython, with its
  whole pure-Python standard library. `open()`, `os`, `pathlib`, `shutil` and
  `glob` work on the session's filesystem (mounts and `:virtual_fs` backends
  included) from the shell's directory; files Python writes are there for the
  next command. `sys.argv`, `os.environ` (the exported variables), stdin,
  stdout, stderr and the exit status are the command's; an uncaught exception
  prints CPython's traceback on stderr and exits with status 1.

  Bounds: the exec's `timeout_ms` and `cancel/1` stop a running program
  within 10 ms; its memory is charged to `max_memory_bytes` (past it CPython
  raises `MemoryError`); output counts against `max_output_bytes`; deep
  recursion raises `RecursionError`. Each call starts a fresh interpreter
  (state does not persist between calls; files do).

  Options:

    * `python: true` - `python` and `python3`, CPython from
      `ExBashkit.Python.Runtime.default_path/0`;
    * `python: [names: ["py"], runtime: "/path/python-3.12.0.wasm"]` - other
      names, your own copy of the runtime (checked against its SHA-256 when the
      session is created: a missing or different file raises there);
    * `python: [runtime: :monty]` - [Monty](https://github.com/pydantic/monty)
      instead: a Python subset written in Rust, no runtime file, microseconds
      to start, but no class inheritance, generators, `match`, `%`
      formatting or modules such as csv, argparse and hashlib.

  Differences from CPython on Linux: nothing of the host is reachable, so
  `subprocess`, `socket` and threads fail; inside the program errno values
  are WASI's (`errno.ENOENT` is 44; an uncaught `OSError` shows Linux's
  number); `os.stat` reports no permission bits; `sys.platform` is `"wasi"`;
  the flags `-E`, `-I` and `-S` skip the start-up hook, so such a program
  starts in `/` instead of the shell's directory. A call costs a few tens of
  milliseconds (the interpreter's start-up); the first session on a machine
  compiles the runtime (about 30 s, then cached on disk beside it).
  """
end
