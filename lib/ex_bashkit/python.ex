defmodule ExBashkit.Python do
  @moduledoc """
  Python inside the sandbox, enabled with `ExBashkit.Session.new(python: true)`.

  With `:python`, scripts can run Python programs: `python -c CODE [args]`,
  `python FILE [args]` (a file of the sandbox) or a program on stdin
  (`python - <<EOF`). They run on [Monty](https://github.com/pydantic/monty),
  a Python interpreter written in Rust that runs in-process; there is no
  CPython and no way out to the host:

      iex> session = ExBashkit.Session.new(python: true)
      iex> py = "import sys; a, b = open(sys.argv[1]).read().split(); print(int(a) * int(b))"
      iex> {:ok, r} = ExBashkit.Session.exec(session, "echo '3 4' > /tmp/nums; python3 -c '\#{py}' /tmp/nums")
      iex> r.stdout
      "12\\n"

  What works: the language core (functions, closures, decorators, plain
  classes, comprehensions, f-strings, `try`/`with`, `async`), the modules
  `json`, `re`, `math`, `datetime`, `collections`, `itertools` (partly),
  `functools`, `dataclasses`, `base64`, `typing`, `pathlib` and `os` (environ,
  getenv, listdir, file operations). `sys.argv`, `sys.exit(n)`,
  `sys.stdin`/`sys.stdout`/`sys.stderr` (`read`, `readline`, `readlines`,
  `write`), `input()` and `print()` use the command's arguments and pipes;
  `os.environ` holds the shell's exported variables; `open()` and `pathlib`
  read and write the session's filesystem, relative to the shell's directory.
  An uncaught exception prints a traceback on stderr and exits with status 1,
  as does a syntax error.

  What does not (Monty 0.0.23): class inheritance (so no custom exception
  classes), `property`/`staticmethod`/`classmethod`, generators (`yield`),
  `match`, `del`, `print(file=...)`, `"%" % args` formatting, `eval`/`exec`,
  `bytearray`, `callable`, `globals`, iterating a file or `sys.stdin` line by
  line (use `readlines()`), `EOFError` (`input()` at end of input raises
  `Exception`), `collections.OrderedDict`, `itertools.product`/`permutations`,
  and the modules Monty lacks (`random`, `time`, `string`, `io`, `csv`,
  `hashlib`, `argparse`, `textwrap`, `subprocess`, `socket`, ...: they raise
  `ModuleNotFoundError`). Tracebacks follow CPython's layout but show the
  source line with `~` markers, and some messages are worded differently. Programs are bounded by the exec's `timeout_ms` and
  `cancel/1`, a recursion depth of 1000, and single allocations larger than
  16 x `max_string_bytes` are refused with `MemoryError`; memory grown step by
  step is bounded only by the time limit.
  """
end
