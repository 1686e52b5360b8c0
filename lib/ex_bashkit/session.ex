defmodule ExBashkit.Session do
  @moduledoc """
  A persistent, stateful sandbox.

  Unlike `ExBashkit.exec/1`, which runs each script in a fresh interpreter, a
  session is a long-lived interpreter whose state carries across calls:
  environment variables, the current working directory, the in-memory virtual
  filesystem and shell functions all persist from one `exec/2` to the next,
  exactly as in an interactive shell.

  The handle wraps an opaque resource. Hold it for as long as you want the
  state to live; it is reclaimed when it is garbage-collected. A session
  serializes its own calls: concurrent `exec/2` calls on the same session run
  one at a time. Separate sessions run in parallel.

  Scripts run on a tokio runtime inside the NIF, never on a BEAM scheduler:
  `exec/2` starts the script and waits for a message with its result, so a
  long or sleeping script pins no scheduler thread.

  ## Example

      iex> session = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(session, "export COUNT=1")
      iex> {:ok, result} = ExBashkit.Session.exec(session, "echo $COUNT")
      iex> result.stdout
      "1\\n"

  ## Options

  `new/1` accepts options that seed the session's initial state:

    * `:env` - a map or keyword list of environment variables to pre-set (they
      are exported). Keys and values are stringified
      (`env: %{"LANG" => "C"}` or `env: [LANG: "C"]`).
    * `:cwd` - the starting working directory (default `/`); it is created.
    * `:username` - the virtual username reported by `whoami` (default `"sandbox"`).
    * `:hostname` - the virtual hostname reported by `hostname` (default `"bashkit-sandbox"`).
    * `:files` - a map (or keyword list) of `path => content` to seed into the
      virtual filesystem before the first call, creating parent directories as
      needed. Content is any `t:iodata/0`.
    * `:limits` - a keyword list or map of resource limits (see below).
    * `:builtins` - a map of `name => fun` registering Elixir-defined commands
      a script can run (see "Custom builtins" below).
    * `:builtin_timeout_ms` - how long one custom-builtin or virtual-fs
      back-call may run before it is killed (positive integer, default 30,000).
    * `:max_reply_bytes` - the most bytes one back-call may hand over each way:
      a builtin's stdout + stderr, a file read, a listing, and the stdin a
      builtin receives (non-negative integer, default 16 MiB).
    * `:virtual_fs` - a map of `mount_path => backend` mounting Elixir-backed
      filesystems (see "Virtual filesystem backends" below).

    * `:mounts` - a list of `{vfs_path, host_path, mode}` mapping real host
      directories into the sandbox (see "Host mounts" below).
    * `:allowed_mount_paths` - host paths that may be mounted even though they
      fall under a location refused by default (see below).

    * `:allow_net` - a list of URL patterns the `curl`, `wget` and `http`
      commands may reach, or `:all` (see "Network access" below). Omitted, the
      network is unreachable.
    * `:block_private_ips` - whether requests resolving to private or reserved
      addresses are blocked (default `true`).

    * `:python` - enable a `python` command (see "Python" below): `true` for
      `python` and `python3`, `[name: "py"]` or `[names: ["python", "py"]]`
      for other names. Off by default (`python` is then `command not found`).

  A malformed option raises `ArgumentError` naming it. Defaults for every
  session, and ceilings no session may exceed, come from the application's
  config (`config :ex_bashkit, limits: [...], max_timeout_ms: ...`; see
  `ExBashkit.Config`).

  ## Python

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

  ## Network access

  By default a session cannot reach the network at all: `curl`, `wget` and
  `http` fail. Grant access with `:allow_net`, an allowlist of URL patterns:

      ExBashkit.Session.new(allow_net: ["https://api.example.com", "https://cdn.example.com/assets"])

  The allowlist is default-deny: only requests whose scheme, host, port and
  path prefix match a pattern are permitted, and a refused request opens no
  connection. Matching is literal (no DNS at match time), and redirects are
  never followed (`curl -L` says so on stderr), so a response cannot bounce a
  script to an unlisted host. `allow_net: :all` lifts the allowlist. A
  pattern without `http://` or `https://` raises `ArgumentError`.

  Independently, a request whose host resolves to a private or reserved
  address (loopback, 10/8, 172.16/12, 192.168/16, link-local, CGNAT, ULA,
  multicast, unspecified, IPv4-mapped IPv6 forms of those, ...) is blocked,
  even when the URL is allowed; the connection then goes to the very address
  that was checked, so DNS rebinding cannot swap it. Set
  `block_private_ips: false` to reach such an address on purpose (a localhost
  dev server), knowing the SSRF exposure. TLS is verified against bundled
  roots (`curl -k` is refused); response bodies are capped by the
  `:max_response_bytes` limit, and every request ends with the exec's deadline
  or `cancel/1`.

  ## Host mounts

  By default nothing on the real host is reachable. `:mounts` maps a host
  directory into the sandbox's filesystem, in one of three modes:

    * `:read_only` - scripts read host files; writes fail with
      `Read-only file system`.
    * `:read_write` - scripts read and change the real host files (use a
      dedicated directory).
    * `:overlay` - scripts see the host directory and may change it, but every
      change stays in the session's memory: the host is never written.

  ExBashkit enforces the isolation itself: every path is resolved by the
  kernel beneath the mounted directory (`openat2` with `RESOLVE_BENEATH`), so
  `..` and symlinks (absolute or relative, planted on the host or created by a
  script, or swapped in while a command runs) that would leave it fail with
  `Permission denied`. Hard-linked files, fifos, sockets and devices are
  refused, and symlinks a script creates must point inside the mount. Host
  files stream: `head -c 10` of a huge file reads one chunk.

  Sensitive locations are refused by default: `/` (which holds them all),
  `/etc`, `/proc`, `/sys`, `/dev`, `/home`, `/Users`, `/private`, `/root`,
  `/boot`, `/run`, and paths holding `.ssh`, `.aws`, `.gnupg`, `.kube`,
  `.docker`, `.azure`, `.config/gcloud`, `.netrc` and similar credential
  files; such names are also hidden and refused inside a mount. To mount one
  deliberately, list a covering prefix in `:allowed_mount_paths`. This is a
  switch, not additive: once set, the denylist is off and the allowlist is the
  only gate, so every mount's host path must sit under an allowed prefix.

  A misconfigured mount raises from `new/1`: an unknown mode, a missing or
  non-directory host path, a refused host path, or a `vfs_path` that is not a
  normalized absolute path (`/a/../b`, `/a//b`, `/a/`).

      iex> dir = Path.join(System.tmp_dir!(), "ex_bashkit_doc_mount")
      iex> File.mkdir_p!(dir)
      iex> File.write!(Path.join(dir, "in.txt"), "from host\\n")
      iex> session = ExBashkit.Session.new(mounts: [{"/data", dir, :overlay}])
      iex> {:ok, r} = ExBashkit.Session.exec(session, "echo changed >> /data/in.txt; cat /data/in.txt")
      iex> r.stdout
      "from host\\nchanged\\n"
      iex> File.read!(Path.join(dir, "in.txt"))
      "from host\\n"

  ## Custom builtins

  `:builtins` registers commands answered by your application: a script line
  `name args...` calls the function, which computes the command's output. This
  is how a sandbox reaches capabilities you control (a database query, a
  key/value lookup, an approval prompt) without real process or network access.

      iex> store = %{"answer" => "42"}
      iex> session =
      ...>   ExBashkit.Session.new(
      ...>     builtins: %{
      ...>       "kv_get" => fn call ->
      ...>         case Map.fetch(store, hd(call.args)) do
      ...>           {:ok, value} -> {:ok, value <> "\\n"}
      ...>           :error -> {:error, "no such key\\n"}
      ...>         end
      ...>       end
      ...>     }
      ...>   )
      iex> {:ok, %ExBashkit.Result{stdout: "42\\n"}} =
      ...>   ExBashkit.Session.exec(session, "total=$(kv_get answer); echo $total")
      iex> {:ok, result} = ExBashkit.Session.exec(session, "kv_get nope || echo missing")
      iex> {result.stdout, result.stderr}
      {"missing\\n", "no such key\\n"}

  Each builtin is a 1-arity function receiving one map:

    * `:args` - the command's arguments (a list of strings), excluding the name.
    * `:stdin` - everything on the command's standard input (`""` if none).
    * `:env` - the exported variables (`%{String.t => String.t}`).
    * `:cwd` - the script's working directory.

  It returns `{:ok, iodata}` (stdout, exit code 0), `{:error, iodata}`
  (stderr, exit code 1) or a `%ExBashkit.Result{}` (full control; the exit
  code is taken modulo 256, as a shell does). A builtin works anywhere a command
  does: in pipelines, `$( )`, loops, functions, with redirects, under `xargs`
  or `env`. Shell functions of the same name come first; keywords (`if`,
  `while`, ...) cannot be builtin names.

  Robustness: each call runs in a fresh process spawned by a short-lived
  broker that serves the `exec/3`, never in the caller. A builtin that raises,
  exits (even `Process.exit(self(), :kill)`), returns anything else, or replies
  with more than `:max_reply_bytes` fails only that command (exit 1, with the
  reason on stderr); one that runs past `:builtin_timeout_ms` is killed at the
  deadline and the command fails with exit 124, so it cannot act later. The
  caller and the session are unaffected. Builtins must not rely on the
  caller's process dictionary or `self()`, and must not call `exec/3` on the
  session they serve: that returns `{:error, _}` at once (driving another
  session is fine).

  ## Virtual filesystem backends

  `:virtual_fs` mounts an Elixir-backed filesystem at a path: a script's reads
  and writes under it are served by your application (see `ExBashkit.VirtualFs`
  for the callbacks, the errors and the failure model, which is that of custom
  builtins).

      iex> session =
      ...>   ExBashkit.Session.new(
      ...>     virtual_fs: %{
      ...>       "/api" => fn
      ...>         %{op: :read, path: path} -> {:ok, ~s({"path":"\#{path}"}\\n)}
      ...>         _ -> {:error, :enotsup}
      ...>       end
      ...>     }
      ...>   )
      iex> {:ok, %ExBashkit.Result{stdout: out}} =
      ...>   ExBashkit.Session.exec(session, "cat /api/users/1.json")
      iex> out
      ~s({"path":"/users/1.json"}\\n)

  ## Background jobs

  `exec(session, script, background: true)` starts the script as a job and
  returns `{:ok, job_id}` at once. The job runs in a copy of the session (its
  variable and `cd` changes stay its own, as in `( script ) &`), shares the
  filesystem, keeps running across later calls, and writes its stdout and
  stderr to `/tmp/jobs/ID.out` and `/tmp/jobs/ID.err`, which scripts can
  `tail` or `grep` while it runs. `jobs/1` lists the jobs with their status,
  exit code, start time and output paths; `terminate_job/2` stops one (exit
  code 143, as for SIGTERM); `await_job/3` waits for one. Jobs obey the
  session's limits (including `:timeout_ms`), at most `:max_jobs` (default 16)
  run at once, and they end when the session is garbage-collected.

      iex> s = ExBashkit.Session.new()
      iex> {:ok, id} = ExBashkit.Session.exec(s, "echo working; exit 3", background: true)
      iex> {:ok, job} = ExBashkit.Session.await_job(s, id)
      iex> {job.status, job.exit_code}
      {:exited, 3}
      iex> ExBashkit.Session.read_file(s, job.stdout_path)
      {:ok, "working\\n"}

  ## Hooks

  `:before_exec` gets each script and returns `:ok`, `{:ok, new_script}` or
  `{:error, reason}` (the call then returns `{:error, "script refused by
  before_exec: " <> reason}`); `:after_exec` gets what `exec/3` would return
  and returns `:ok` or a replacement of the same shape. They run isolated like
  custom builtins, within `:builtin_timeout_ms`, and fail closed: a hook that
  raises, exits, times out or answers anything else turns the call into an error.

      iex> s = ExBashkit.Session.new(before_exec: fn script -> {:ok, "set -u; " <> script} end)
      iex> {:ok, r} = ExBashkit.Session.exec(s, "echo $nope")
      iex> {r.exit_code, r.stderr}
      {127, "bash: line 1: nope: unbound variable\\n"}

  ## Shared workspaces

  `new(workspace: other)` makes a session over `other`'s filesystem (its
  in-memory files, host mounts, virtual filesystems and custom builtins), with
  its own cwd, variables, history and jobs. `allowed_mounts:` restricts it to
  some of the mounts: any path under another mount fails with
  `not allowed to access mount '/X'`, whatever reaches it (commands,
  redirects, globs, `cp`/`mv`, `$( )`, pipelines, jobs, the file API).

      iex> main = ExBashkit.Session.new(virtual_fs: %{"/secrets" => fn _ -> {:ok, "k"} end})
      iex> {:ok, _} = ExBashkit.Session.exec(main, "echo shared > /tmp/note")
      iex> helper = ExBashkit.Session.new(workspace: main, allowed_mounts: [])
      iex> {:ok, r} = ExBashkit.Session.exec(helper, "cat /tmp/note /secrets/key")
      iex> {r.stdout, r.stderr}
      {"shared\\n", "cat: /secrets/key: not allowed to access mount '/secrets'\\n"}

  ## Virtual filesystem

  A session's in-memory filesystem is shared between scripts and the host. Use
  `write_file/3` to place files (e.g. inputs) and `read_file/2` to pull files
  back out (e.g. results a script produced) without going through a script:

      iex> session = ExBashkit.Session.new(files: %{"/in.txt" => "data\\n"})
      iex> {:ok, _} = ExBashkit.Session.exec(session, "wc -l < /in.txt > /out.txt")
      iex> ExBashkit.Session.read_file(session, "/out.txt")
      {:ok, "1\\n"}

  File contents are bytes: non-UTF-8 data round-trips unchanged.

  ## Resource limits

  `:limits` bounds what one `exec/2` may do. Each key is optional:

    * `:max_commands` - commands a script may run (default 10,000).
    * `:max_loop_iterations` - iterations of any single loop (default 10,000).
    * `:max_total_loop_iterations` - iterations across all loops (default 1,000,000).
    * `:max_function_depth` - function recursion depth (default 100).
    * `:max_input_bytes` - maximum script size in bytes (default 10,000,000).
    * `:timeout_ms` - wall-clock timeout in milliseconds (default 30,000; at least 1).

  And the limits an untrusted script also needs:

    * `:max_output_bytes` - stdout + stderr bytes one exec may produce (default 10 MiB).
    * `:max_string_bytes` - bytes one variable, word or `$( )` result may hold (default 10 MiB).
    * `:max_file_bytes` - bytes one file may hold (default 100 MiB).
    * `:max_fs_bytes` - bytes all files together may hold (default 500 MiB).
    * `:max_files` - number of files, directories and links (default 100,000).
    * `:max_path_depth` - components in one path (default 128).
    * `:max_brace_items` - words one brace expansion may produce (default 100,000).
    * `:max_glob_results` - paths one glob may produce (default 100,000).
    * `:max_regex_bytes` - compiled size of one regular expression (default 10 MiB).
    * `:max_response_bytes` - bytes of one HTTP response body (default 10 MiB).
    * `:max_pipeline_stages` - commands in one pipeline (default 256).
    * `:max_subshell_depth` - nesting of `$( )`, `( )` and pipelines (default 64).
    * `:max_parser_depth` - syntactic nesting of the script (default 200).
    * `:max_memory_bytes` - bytes the session may hold in all (default 256 MiB):
      variables, arrays, functions, history, the in-memory filesystem, words
      being built, captured output, pipe buffers and the working sets of
      utilities (awk arrays, jq values, sort, python). Every allocation the
      interpreter makes is charged to the session that made it and credited
      when freed, so what a session keeps between calls counts too. Past it,
      `exec/2` returns `{:error, "memory limit exceeded (max_memory_bytes: N)"}`
      and the session keeps its state from before the call.

  Beyond these, input an attacker builds at run time is bounded too. Every
  recursive evaluator stops at a depth limit and before the native stack runs
  out (at least 256 KiB must remain): arithmetic at bash's 1,024 levels
  ("expression recursion level exceeded"), `test`/`[` and `expr` parentheses at
  1,024, `find` at 256, `[[ ]]` operators and script nesting at
  `:max_parser_depth`, extglob groups at 200 (deeper patterns match nothing),
  awk, bc and jq expressions at 1,000, and `eval`/`source`/traps/`${x@P}`
  nesting at `:max_function_depth`. Pattern matching (`${x//p/r}`, `${x%%p}`,
  `case`, `[[ == ]]`, globs, extglob) runs on automata, so its worst case is
  quadratic, not exponential, and every inner loop looks at the deadline and
  the memory budget.

  Counts are non-negative integers; a value past the platform maximum means
  unlimited; unknown keys raise `ArgumentError`. A script that exceeds a limit
  makes `exec/2` return `{:error, message}` naming the limit and its value; the
  session keeps the state it had before that call and stays usable.
  """

  import Bitwise, only: [<<<: 2]

  alias ExBashkit.{Native, Result}
  alias ExBashkit.Session.{Broker, Hooks, Options}

  @u64_max 18_446_744_073_709_551_615

  @enforce_keys [:ref]
  defstruct [
    :ref,
    callbacks: nil,
    config: %{max_jobs: 16, before_exec: nil, after_exec: nil, snapshot_key: nil}
  ]

  @opaque t :: %__MODULE__{ref: reference(), callbacks: map() | nil, config: map()}

  @typedoc "A filesystem entry's kind, as reported by `stat/2` and `list_dir/2`."
  @type fs_type :: :file | :dir | :symlink

  @typedoc "A resource-limit key accepted by the `:limits` option."
  @type limit_key ::
          :max_commands
          | :max_loop_iterations
          | :max_total_loop_iterations
          | :max_function_depth
          | :max_input_bytes
          | :timeout_ms
          | :max_output_bytes
          | :max_string_bytes
          | :max_file_bytes
          | :max_fs_bytes
          | :max_files
          | :max_path_depth
          | :max_brace_items
          | :max_glob_results
          | :max_regex_bytes
          | :max_response_bytes
          | :max_pipeline_stages
          | :max_subshell_depth
          | :max_parser_depth
          | :max_memory_bytes

  @type option ::
          {:env, %{optional(String.t() | atom()) => String.t()} | keyword()}
          | {:cwd, Path.t()}
          | {:username, String.t()}
          | {:hostname, String.t()}
          | {:files, %{optional(Path.t()) => iodata()} | [{Path.t(), iodata()}]}
          | {:limits,
             %{optional(limit_key()) => non_neg_integer()} | [{limit_key(), non_neg_integer()}]}
          | {:builtins, %{optional(String.t()) => (map() -> term())}}
          | {:builtin_timeout_ms, pos_integer()}
          | {:max_reply_bytes, non_neg_integer()}
          | {:virtual_fs, %{optional(Path.t()) => virtual_fs_spec()}}
          | {:mounts, [{Path.t(), Path.t(), mount_mode()}]}
          | {:allowed_mount_paths, [Path.t()]}
          | {:allow_net, [String.t()] | :all}
          | {:block_private_ips, boolean()}
          | {:python, boolean() | [name: String.t()] | [names: [String.t()]]}
          | {:snapshot_key, binary()}

  @typedoc "Access mode for a host directory mount."
  @type mount_mode :: :read_only | :read_write | :overlay

  @typedoc """
  A virtual-filesystem backend for one mount: a 1-arity function, a module
  implementing `ExBashkit.VirtualFs`, or `{module, arg}`.
  """
  @type virtual_fs_spec :: (map() -> term()) | module() | {module(), term()}

  @doc """
  Create a new persistent session, optionally seeding its initial state.

  See the module doc for the supported `opts`. Raises `ArgumentError` for a
  malformed option or a `:files` entry that cannot be written.
  """
  @spec new([option()] | map()) :: t()
  def new(opts \\ []) do
    {normalized, callbacks, config} = Options.normalize(opts)

    case Native.session_new(normalized) do
      {:ok, ref} -> %__MODULE__{ref: ref, callbacks: callbacks, config: config}
      {:error, message} -> raise ArgumentError, "cannot create session: " <> message
    end
  end

  @doc """
  Execute `script` against `session`, mutating it in place.

  Any env/cwd/filesystem/function changes the script makes persist for the next
  call. Returns `{:ok, %ExBashkit.Result{}}` when the script ran (a non-zero
  `exit_code` is still `{:ok, ...}`, just like a real shell), or
  `{:error, message}` if the script could not be parsed (bash's wording, naming
  the token and line) or a limit stopped it. As with `bash -c`, commands that
  come before a syntax error run first; the call then returns `{:ok, result}`
  with bash's message on stderr and exit code 2. `{:error, :overloaded}` means
  the node's admission control did not let the script run at all (see
  `ExBashkit.configure_admission/1`); the session is untouched.

  Options:

    * `:stdin` - iodata the script reads on its standard input (default none).
    * `:timeout_ms` - a tighter wall-clock limit for this call (positive
      integer; the session's `:timeout_ms` still caps it).
    * `:cwd`, `:env` - run the call in an ephemeral copy of the session with
      this working directory (it must exist) and these extra exported
      variables, like `(cd DIR; VAR=x script)`: nothing the call does to the
      cwd, variables or functions reaches the session, while its file writes
      do. Such calls do not wait for each other.
    * `:partial` - when `true`, a script stopped by a limit, the timeout or
      `cancel/1` returns `{:error, message, %ExBashkit.Result{}}` holding what
      it printed before it was stopped (`exit_code` is 1), instead of
      `{:error, message}`.

  If the calling process dies, its running exec is cancelled.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(session, "cd /tmp")
      iex> {:ok, result} = ExBashkit.Session.exec(session, "pwd")
      iex> result.stdout
      "/tmp\\n"
  """
  @spec exec(t(), String.t(), keyword()) ::
          {:ok, Result.t()}
          | {:error, String.t() | :overloaded}
          | {:error, String.t(), Result.t()}
  def exec(session, script, opts \\ [])

  def exec(%__MODULE__{ref: ref} = session, script, opts)
      when is_binary(script) and is_list(opts) do
    {native_opts, partial?, background} = exec_opts(opts)

    cond do
      serving?(ref) ->
        {:error,
         "exec called from a callback of the same session: the session is busy running " <>
           "the script that made the call (use another session)"}

      true ->
        with {:ok, script} <- Hooks.before_exec(session.config, script) do
          case background do
            nil -> Hooks.after_exec(session.config, run(session, script, native_opts, partial?))
            name -> start_job(session, script, native_opts, name)
          end
        end
    end
  end

  def exec(%__MODULE__{}, script, opts) when is_list(opts),
    do: raise(ArgumentError, "script must be a binary, got: #{inspect(script)}")

  def exec(session, _script, _opts),
    do: raise(ArgumentError, "not a session: #{inspect(session)}")

  defp exec_opts(opts) do
    base = %{stdin: "", timeout_ms: nil, cwd: nil, env: [], broker: nil}
    background = opts[:background] == true
    name = opts[:name]

    cond do
      not is_boolean(Keyword.get(opts, :background, false)) ->
        raise ArgumentError,
              "option :background must be a boolean, got: #{inspect(opts[:background])}"

      name != nil and not background ->
        raise ArgumentError, "option :name only applies with background: true"

      name != nil and not is_binary(name) ->
        raise ArgumentError, "option :name must be a string, got: #{inspect(name)}"

      true ->
        :ok
    end

    opts = Keyword.drop(opts, [:background, :name])

    {native, partial?} = native_exec_opts(opts, base)
    {native, partial?, if(background, do: name || :default)}
  end

  defp native_exec_opts(opts, base) do
    Enum.reduce(opts, {base, false}, fn
      {:stdin, data}, {acc, p} ->
        {%{acc | stdin: iodata!(:stdin, data)}, p}

      {:timeout_ms, t}, {acc, p} when is_integer(t) and t >= 1 ->
        {%{acc | timeout_ms: min(t, @u64_max)}, p}

      {:timeout_ms, t}, _ ->
        raise ArgumentError, "option :timeout_ms must be a positive integer, got: #{inspect(t)}"

      {:cwd, dir}, {acc, p} ->
        {%{acc | cwd: Options.text!(:cwd, dir)}, p}

      {:env, env}, {acc, p} ->
        {%{acc | env: Options.env!(env)}, p}

      {:partial, b}, {acc, _} when is_boolean(b) ->
        {acc, b}

      {:partial, b}, _ ->
        raise ArgumentError, "option :partial must be a boolean, got: #{inspect(b)}"

      {key, _}, _ ->
        raise ArgumentError, "unknown option #{inspect(key)} for ExBashkit.Session.exec/3"

      other, _ ->
        raise ArgumentError, "exec options must be a keyword list, got: #{inspect(other)}"
    end)
  end

  # A background job: a broker of its own serves its callbacks until the job
  # ends (the interpreter stops it then), whoever started it.
  defp start_job(%__MODULE__{ref: ref} = session, script, native_opts, name) do
    name = if name == :default, do: default_job_name(script), else: name

    broker = if session.callbacks, do: Broker.start(ref, session.callbacks, owner: nil)

    case Native.job_start(
           ref,
           script,
           %{native_opts | broker: broker},
           name,
           session.config.max_jobs
         ) do
      {:ok, id} ->
        {:ok, id}

      {:error, message} ->
        if broker, do: Broker.stop(broker)
        {:error, message}
    end
  end

  defp default_job_name(script) do
    line = script |> String.split("\n", parts: 2) |> hd() |> String.trim()
    if byte_size(line) > 60, do: binary_part(line, 0, 57) <> "...", else: line
  end

  defp run(%__MODULE__{ref: ref, callbacks: nil}, script, native_opts, partial?) do
    tag = make_ref()

    case Native.exec_start(ref, script, native_opts, self(), tag) do
      :ok -> await(tag, partial?)
      {:error, message} -> {:error, message}
    end
  end

  # With callbacks, a broker serves them for the length of this call.
  defp run(%__MODULE__{ref: ref, callbacks: cfg}, script, native_opts, partial?) do
    broker = Broker.start(ref, cfg)
    tag = make_ref()

    try do
      case Native.exec_start(ref, script, %{native_opts | broker: broker}, self(), tag) do
        :ok -> await(tag, partial?)
        {:error, message} -> {:error, message}
      end
    after
      Broker.stop(broker)
    end
  end

  # Whether this process (or the process that started it, for a Task) is a
  # callback worker of the session `ref`.
  defp serving?(ref) do
    key = Broker.serving_key()

    Process.get(key) == ref or
      Enum.any?(Process.get(:"$callers", []), fn pid ->
        case is_pid(pid) and Process.info(pid, :dictionary) do
          {:dictionary, dict} -> List.keyfind(dict, key, 0) == {key, ref}
          _ -> false
        end
      end)
  end

  defp iodata!(key, data) do
    IO.iodata_to_binary(data)
  rescue
    ArgumentError ->
      reraise ArgumentError,
              "option #{inspect(key)} must be iodata, got: #{inspect(data)}",
              __STACKTRACE__
  end

  # The script runs on the NIF's runtime; its outcome arrives as a message.
  defp await(tag, partial?) do
    receive do
      {^tag, {:ok, {stdout, stderr, code, queued}}} ->
        {:ok, %Result{stdout: stdout, stderr: stderr, exit_code: code, queued_ms: queued}}

      {^tag, {:error, message, {stdout, stderr, code, queued}}} when partial? ->
        {:error, message,
         %Result{stdout: stdout, stderr: stderr, exit_code: code, queued_ms: queued}}

      {^tag, {:error, message, _}} ->
        {:error, message}
    end
  end

  @doc """
  Cancel the session's running exec (and any queued behind it).

  Each cancelled `exec/3` returns `{:error, "execution cancelled"}` within
  milliseconds, even in a busy loop or a `sleep`, and the session keeps the
  state it had before that call. Returns how many execs were cancelled.
  """
  @spec cancel(t()) :: non_neg_integer()
  def cancel(%__MODULE__{ref: ref}), do: Native.cancel(ref)

  @typedoc "One entry of the command history."
  @type history_entry :: %{number: pos_integer(), command: String.t(), exit_code: integer() | nil}

  @doc """
  The session's command history: every script given to `exec/3` (a background
  job's with a trailing ` &`), oldest first, with its exit code (`nil` when a
  limit, the timeout or a cancel stopped it). It is what the `history`
  builtin lists. Empty when the session was created with `history: false`.

  Options: `:prefix` and `:contains` keep the entries whose command starts
  with / contains the string; `:limit` keeps the newest N of those.

      iex> s = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(s, "echo one")
      iex> {:ok, _} = ExBashkit.Session.exec(s, "ls /nope")
      iex> ExBashkit.Session.history(s, contains: "nope")
      [%{number: 2, command: "ls /nope", exit_code: 2}]
  """
  @spec history(t(), keyword()) :: [history_entry()]
  def history(%__MODULE__{ref: ref}, opts \\ []) do
    prefix = Keyword.get(opts, :prefix)
    contains = Keyword.get(opts, :contains)

    entries =
      for {n, line, code} <- Native.history_list(ref),
          prefix == nil or String.starts_with?(line, prefix),
          contains == nil or String.contains?(line, contains),
          do: %{number: n, command: line, exit_code: code}

    case Keyword.get(opts, :limit) do
      nil ->
        entries

      n when is_integer(n) and n >= 0 ->
        Enum.take(entries, -n)

      bad ->
        raise ArgumentError, "option :limit must be a non-negative integer, got: #{inspect(bad)}"
    end
  end

  @doc "Forget the command history (as `history -c`)."
  @spec clear_history(t()) :: :ok
  def clear_history(%__MODULE__{ref: ref}), do: Native.history_clear(ref)

  @doc """
  The session's aliases, as `%{name => value}`. Aliases apply to later
  scripts (`shopt -s expand_aliases` is on in sessions, as in an interactive shell).
  """
  @spec aliases(t()) :: %{String.t() => String.t()}
  def aliases(%__MODULE__{ref: ref}), do: Map.new(Native.aliases_list(ref))

  @doc """
  Define or replace alias `name`, as `alias name='value'` would.

      iex> s = ExBashkit.Session.new()
      iex> :ok = ExBashkit.Session.put_alias(s, "ll", "ls -l")
      iex> ExBashkit.Session.aliases(s)
      %{"ll" => "ls -l"}
  """
  @spec put_alias(t(), String.t(), String.t()) :: :ok | {:error, String.t()}
  def put_alias(%__MODULE__{ref: ref}, name, value) when is_binary(name) and is_binary(value),
    do: Native.alias_set(ref, name, value)

  @doc "Remove alias `name` (nothing happens if there is none)."
  @spec delete_alias(t(), String.t()) :: :ok | {:error, String.t()}
  def delete_alias(%__MODULE__{ref: ref}, name) when is_binary(name),
    do: Native.alias_set(ref, name, nil)

  @typedoc "A file `changes/2` reports: its path, size and lowercase hex SHA-256."
  @type changed_file :: %{path: String.t(), size: non_neg_integer(), sha256: String.t()}

  @doc """
  Remember the in-memory filesystem as it is now, for `changes(session, since: marker)`.
  The last 32 markers are kept.
  """
  @spec mark(t()) :: pos_integer()
  def mark(%__MODULE__{ref: ref}), do: Native.fs_mark(ref)

  @doc """
  The regular files created, modified and deleted in the session's in-memory
  filesystem since `:since` (a `mark/1` marker), or, without it, since the
  previous `changes/2` call without one (or since the session began); that
  call then becomes the new baseline. Created and modified files carry their
  size and SHA-256, so an application can sync the sandbox to its own store by
  copying only those. `:path` keeps the changes at or under a path.

  A file rewritten with the same bytes is not a change. Host mounts and
  virtual filesystems are not tracked (their data lives elsewhere already).

      iex> s = ExBashkit.Session.new(files: %{"/work/a.txt" => "a"})
      iex> {:ok, _} = ExBashkit.Session.changes(s)
      iex> {:ok, _} = ExBashkit.Session.exec(s, "echo abc > /work/b.txt; rm /work/a.txt; echo x > /tmp/x")
      iex> {:ok, c} = ExBashkit.Session.changes(s, path: "/work")
      iex> c.created
      [%{path: "/work/b.txt", size: 4, sha256: "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb"}]
      iex> {c.modified, c.deleted}
      {[], ["/work/a.txt"]}
  """
  @spec changes(t(), keyword()) ::
          {:ok, %{created: [changed_file()], modified: [changed_file()], deleted: [String.t()]}}
          | {:error, String.t()}
  def changes(%__MODULE__{ref: ref}, opts \\ []) do
    since = Keyword.get(opts, :since)
    path = Keyword.get(opts, :path)

    unless since == nil or (is_integer(since) and since > 0),
      do:
        raise(ArgumentError, "option :since must be a marker from mark/1, got: #{inspect(since)}")

    unless path == nil or is_binary(path),
      do: raise(ArgumentError, "option :path must be a string, got: #{inspect(path)}")

    Native.fs_changes(ref, since, path && fs_path(path))
  end

  @typedoc "A background job, as `jobs/1` lists it."
  @type job :: %{
          id: pos_integer(),
          name: String.t(),
          status: :running | :exited | :terminated | :failed,
          exit_code: integer() | nil,
          started_at: DateTime.t(),
          stdout_path: String.t(),
          stderr_path: String.t(),
          error: String.t() | nil
        }

  @doc """
  The session's background jobs (see "Background jobs" in the module doc),
  oldest first. A finished job keeps its status and exit code.
  """
  @spec jobs(t()) :: [job()]
  def jobs(%__MODULE__{ref: ref}) do
    for j <- Native.jobs_list(ref) do
      %{j | started_at: DateTime.from_unix!(round(j.started_at * 1_000_000), :microsecond)}
    end
  end

  @doc """
  Stop background job `id` and everything it started. Its status becomes
  `:terminated` with exit code 143, as bash records a job killed by SIGTERM.
  """
  @spec terminate_job(t(), pos_integer()) :: :ok | {:error, :not_found | :not_running}
  def terminate_job(%__MODULE__{ref: ref}, id) when is_integer(id) do
    case Native.job_terminate(ref, id) do
      :ok -> :ok
      other -> {:error, other}
    end
  end

  @doc """
  Wait until background job `id` is no longer running, at most `timeout` ms.
  """
  @spec await_job(t(), pos_integer(), timeout()) :: {:ok, job()} | {:error, :timeout | :not_found}
  def await_job(%__MODULE__{} = session, id, timeout \\ 5_000) do
    deadline =
      System.monotonic_time(:millisecond) + if(timeout == :infinity, do: 1 <<< 62, else: timeout)

    poll_job(session, id, deadline, 1)
  end

  defp poll_job(session, id, deadline, pause) do
    case Enum.find(jobs(session), &(&1.id == id)) do
      nil ->
        {:error, :not_found}

      %{status: :running} ->
        if System.monotonic_time(:millisecond) >= deadline do
          {:error, :timeout}
        else
          Process.sleep(pause)
          poll_job(session, id, deadline, min(pause * 2, 50))
        end

      job ->
        {:ok, job}
    end
  end

  @doc """
  Capture the session's interpreter state as a binary you can persist and later
  reload with `restore/3`.

  The snapshot carries shell state (variables of every kind with their
  attributes, exported or not, cwd, positional parameters, options, traps and,
  unless excluded, functions as source text) and the in-memory filesystem
  contents (files, directories, symlinks, modes, mtimes). It is taken at a
  command boundary: it waits for a running `exec/3` to finish.

  It does not carry session configuration (limits, username, hostname): to
  resume, build a session with the same options and `restore/3` the bytes into
  it.

  Returns `{:ok, binary}` or `{:error, message}`.

  ## Options

    * `:key` - a binary secret. Produces an HMAC-SHA256-sealed snapshot for
      crossing a trust boundary; restore must supply the same key, and a wrong
      key or tampered bytes are rejected. Without a key a SHA-256 tag detects
      accidental corruption only. An empty key raises `ArgumentError`. A
      session built with `:snapshot_key` seals with that key by default.
    * `:exclude_filesystem` - when `true`, capture shell state only. Default `false`.
    * `:exclude_functions` - when `true`, skip shell functions. Default `false`.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> {:ok, %ExBashkit.Result{}} = ExBashkit.Session.exec(session, "x=42")
      iex> {:ok, bytes} = ExBashkit.Session.snapshot(session)
      iex> is_binary(bytes)
      true
  """
  @spec snapshot(t(), keyword()) :: {:ok, binary()} | {:error, String.t()}
  def snapshot(%__MODULE__{ref: ref} = session, opts \\ []) do
    session_key = session_key(session)

    {key, exclude_fs, exclude_funcs} =
      Enum.reduce(opts, {session_key, false, false}, fn
        {:key, k}, {_, fs, fns} ->
          {key!(k), fs, fns}

        {:exclude_filesystem, b}, {k, _, fns} when is_boolean(b) ->
          {k, b, fns}

        {:exclude_functions, b}, {k, fs, _} when is_boolean(b) ->
          {k, fs, b}

        {opt, v}, _ when opt in [:exclude_filesystem, :exclude_functions] ->
          raise ArgumentError, "option #{inspect(opt)} must be a boolean, got: #{inspect(v)}"

        {opt, _}, _ ->
          raise ArgumentError, "unknown option #{inspect(opt)} for ExBashkit.Session.snapshot/2"

        other, _ ->
          raise ArgumentError, "options must be a keyword list, got: #{inspect(other)}"
      end)

    tag = make_ref()

    if session_key != nil and key != session_key do
      raise ArgumentError,
            "this session seals snapshots with its :snapshot_key; no other :key applies"
    end

    case Native.snapshot_start(ref, key, exclude_fs, exclude_funcs, self(), tag) do
      :ok -> receive(do: ({^tag, reply} -> reply))
      {:error, message} -> {:error, message}
    end
  end

  @doc """
  Restore previously captured state (from `snapshot/2`) into this session,
  returning `{:ok, session}` or `{:error, message}`.

  Restore overwrites the session's shell state and in-memory filesystem
  contents (unless the snapshot excluded the filesystem) while keeping the
  configuration the session was built with (limits, username, hostname).

  The whole snapshot is validated (tag, version, structure, every function's
  source, sizes against this session's limits) before anything changes, so a
  malformed, truncated, tampered, oversized or wrong-key snapshot returns
  `{:error, _}` and leaves the session untouched and usable. Keyed and plain
  snapshots each refuse the other.

  ## Options

    * `:key` - the binary secret the snapshot was taken with. A session built
      with `:snapshot_key` uses that key and refuses any snapshot not sealed
      with it (plain bytes included), so re-sealing keyed bytes with the
      public tag cannot get them in.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> {:ok, %ExBashkit.Result{}} = ExBashkit.Session.exec(session, "x=42")
      iex> {:ok, bytes} = ExBashkit.Session.snapshot(session)
      iex> fresh = ExBashkit.Session.new()
      iex> {:ok, fresh} = ExBashkit.Session.restore(fresh, bytes)
      iex> {:ok, result} = ExBashkit.Session.exec(fresh, "echo $x")
      iex> result.stdout
      "42\\n"
  """
  @spec restore(t(), binary(), keyword()) :: {:ok, t()} | {:error, String.t()}
  def restore(%__MODULE__{ref: ref} = session, bytes, opts \\ []) when is_binary(bytes) do
    session_key = session_key(session)

    key =
      Enum.reduce(opts, session_key, fn
        {:key, k}, _ ->
          key!(k)

        {opt, _}, _ ->
          raise ArgumentError, "unknown option #{inspect(opt)} for ExBashkit.Session.restore/3"

        other, _ ->
          raise ArgumentError, "options must be a keyword list, got: #{inspect(other)}"
      end)

    # A session with its own key takes only snapshots sealed with it: bytes
    # re-sealed with the public tag (or another key) are refused.
    if session_key != nil and key != session_key do
      raise ArgumentError, "this session restores only snapshots sealed with its :snapshot_key"
    end

    tag = make_ref()

    case Native.restore_start(ref, bytes, key, self(), tag) do
      :ok ->
        receive do
          {^tag, :ok} -> {:ok, session}
          {^tag, {:error, message}} -> {:error, message}
        end

      {:error, message} ->
        {:error, message}
    end
  end

  defp session_key(%__MODULE__{config: config}), do: Map.get(config, :snapshot_key)

  defp key!(k) when is_binary(k) and byte_size(k) > 0, do: k

  defp key!(k),
    do: raise(ArgumentError, "option :key must be a non-empty binary, got: #{inspect(k)}")

  @doc """
  Read the contents of `path` from the session's virtual filesystem.

  Returns `{:ok, binary}`, including for files a script wrote, or
  `{:error, message}` if the file does not exist or cannot be read. The result
  is a raw binary, so it round-trips arbitrary (including non-UTF-8) content.
  `path` is resolved from the filesystem root, independent of the session's
  working directory.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(session, "echo result > /out.txt")
      iex> ExBashkit.Session.read_file(session, "/out.txt")
      {:ok, "result\\n"}
  """
  @spec read_file(t(), Path.t()) :: {:ok, binary()} | {:error, String.t()}
  def read_file(%__MODULE__{ref: ref}, path), do: Native.read_file(ref, fs_path(path))

  @doc """
  Write `content` (any `t:iodata/0`) to `path` in the session's virtual
  filesystem, creating parent directories as needed.

  Returns `:ok`, or `{:error, message}` if the write was rejected. The file is
  immediately visible to subsequent `exec/2` calls and to `read_file/2`. A
  relative path like `"out.txt"` is treated as `"/out.txt"`.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> ExBashkit.Session.write_file(session, "/etc/motd", "welcome\\n")
      :ok
      iex> {:ok, result} = ExBashkit.Session.exec(session, "cat /etc/motd")
      iex> result.stdout
      "welcome\\n"
  """
  @spec write_file(t(), Path.t(), iodata()) :: :ok | {:error, String.t()}
  def write_file(%__MODULE__{ref: ref}, path, content) do
    data =
      try do
        IO.iodata_to_binary(content)
      rescue
        ArgumentError -> raise ArgumentError, "content must be iodata, got: #{inspect(content)}"
      end

    Native.write_file(ref, fs_path(path), data)
  end

  @doc """
  List the entries of directory `path` in the session's filesystem.

  `{:ok, [{name, :file | :dir | :symlink}]}` sorted by name (names are the
  immediate children, not full paths), or `{:error, message}` if `path` is not
  a readable directory.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(session, "mkdir /d; echo x > /d/a.txt")
      iex> ExBashkit.Session.list_dir(session, "/d")
      {:ok, [{"a.txt", :file}]}
  """
  @spec list_dir(t(), Path.t()) :: {:ok, [{String.t(), fs_type()}]} | {:error, String.t()}
  def list_dir(%__MODULE__{ref: ref}, path), do: Native.list_dir(ref, fs_path(path))

  @doc """
  Create directory `path` in the session's filesystem.

  Returns `:ok` or `{:error, message}`. With `parents: true` it creates any
  missing parent directories (like `mkdir -p`) and succeeds if the directory
  already exists; without it, a missing parent is an error.

  ## Options

    * `:parents` - create missing parents (default `false`).
  """
  @spec mkdir(t(), Path.t(), keyword()) :: :ok | {:error, String.t()}
  def mkdir(%__MODULE__{ref: ref}, path, opts \\ []) do
    Native.mkdir(ref, fs_path(path), flag(opts, :parents, "mkdir/3"))
  end

  @doc """
  Remove `path` from the session's filesystem.

  Returns `:ok` or `{:error, message}`. Removing a non-empty directory requires
  `recursive: true`.

  ## Options

    * `:recursive` - remove a directory and its contents (default `false`).
  """
  @spec remove(t(), Path.t(), keyword()) :: :ok | {:error, String.t()}
  def remove(%__MODULE__{ref: ref}, path, opts \\ []) do
    Native.remove(ref, fs_path(path), flag(opts, :recursive, "remove/3"))
  end

  @doc """
  Rename/move `from` to `to` within the session's filesystem.

  Returns `:ok` or `{:error, message}`.
  """
  @spec rename(t(), Path.t(), Path.t()) :: :ok | {:error, String.t()}
  def rename(%__MODULE__{ref: ref}, from, to), do: Native.rename(ref, fs_path(from), fs_path(to))

  @doc """
  Return metadata for `path` in the session's filesystem.

  `{:ok, %{type: :file | :dir | :symlink, size: non_neg_integer()}}`, or
  `{:error, message}` if the path does not exist. It does not wait for a
  running script.

  ## Examples

      iex> session = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(session, "printf 12345 > /f")
      iex> ExBashkit.Session.stat(session, "/f")
      {:ok, %{type: :file, size: 5}}
  """
  @spec stat(t(), Path.t()) ::
          {:ok, %{type: fs_type(), size: non_neg_integer()}} | {:error, String.t()}
  def stat(%__MODULE__{ref: ref}, path), do: Native.stat(ref, fs_path(path))

  defp fs_path(path) when is_binary(path) do
    if String.valid?(path) and not String.contains?(path, "\0"),
      do: path,
      else: raise(ArgumentError, "path must be UTF-8 text without NUL, got: #{inspect(path)}")
  end

  defp fs_path(path) when is_list(path), do: fs_path(List.to_string(path))
  defp fs_path(path), do: raise(ArgumentError, "path must be a string, got: #{inspect(path)}")

  defp flag(opts, key, fun) do
    Enum.reduce(opts, false, fn
      {^key, v}, _ when is_boolean(v) ->
        v

      {^key, v}, _ ->
        raise ArgumentError, "option #{inspect(key)} must be a boolean, got: #{inspect(v)}"

      {k, _}, _ ->
        raise ArgumentError, "unknown option #{inspect(k)} for ExBashkit.Session.#{fun}"

      other, _ ->
        raise ArgumentError, "options must be a keyword list, got: #{inspect(other)}"
    end)
  end

  defimpl Inspect do
    def inspect(_session, _opts), do: "#ExBashkit.Session<>"
  end
end
