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
      Any name but `"root"` is uid 1000 and meets the permission bits of its
      files as a non-root user does (`chmod 000 f; cat f` fails); `"root"` is
      uid 0 with home `/root` and is not held to them. The file API
      (`read_file/2` and kin) is never held to them.
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

    * `:python` - enable a `python` command (see `ExBashkit.Python`): `true` for
      `python` and `python3` on CPython 3.12; a keyword list for other names
      (`name: "py"` or `names: ["python", "py"]`) and the runtime (`runtime:`
      a path to the CPython WASI file, `:cpython` for the default one, or
      `:monty`). Off by default (`python` is then `command not found`).

    * `:commands` - which programs scripts may run: `[only: ["cat", "grep"]]`
      or `[except: ["curl", "wget"]]` (default: all). See "Restricting
      commands" below.

    * `:max_jobs` - background jobs that may run at once (default 16; see
      `ExBashkit.Session.Jobs`).
    * `:before_exec`, `:after_exec` - hooks around every `exec/3` (see "Hooks").
    * `:history` - keep the command history (default `true`).
    * `:snapshot_key` - seal every snapshot with this key and restore only
      snapshots sealed with it (see `ExBashkit.Session.Snapshot`).
    * `:workspace`, `:allowed_mounts` - share another session's filesystem,
      restricted to some of its mounts (see "Shared workspaces").

  A malformed option raises `ArgumentError` naming it. Defaults for every
  session, and ceilings no session may exceed, come from the application's
  config (`config :ex_bashkit, limits: [...], max_timeout_ms: ...`; see
  `ExBashkit.Config`).


  ## Restricting commands

  `commands: [only: names]` lets scripts run only the programs named;
  `commands: [except: names]` every program but those. Programs are the
  utilities (`grep`, `curl`, ...), `python`, the custom builtins of
  `:builtins`, `bash`/`sh` and scripts on `PATH`, matched by the name they are
  run by (`/usr/bin/curl` counts as `curl`, and so do `env curl`, `xargs curl`,
  `find -exec curl`). A restricted name behaves as a missing one: the script
  gets bash's `bash: line 1: curl: command not found` and status 127, and
  `type`, `command -v`, `hash`, `which` and `compgen -c` do not list it.

  Shell builtins (`cd`, `echo`, `printf`, `read`, `test`, ...) cannot be
  restricted: they only read and change the shell's own state, which every
  script has anyway, and the special builtins (`exit`, `set`, `eval`,
  `export`, ...) are part of the language. Naming one raises
  `ArgumentError`, except for the builtins that are programs too (`echo`,
  `printf`, `test`, `[`, `pwd`, `kill`, `true`, `false`: restricting them
  affects `env echo`, `xargs echo` and the like). Functions are not
  restricted either: each command in them is checked. A script run by path
  (`./job.sh`) runs, and each command in it is checked.

      iex> s = ExBashkit.Session.new(commands: [except: ["curl"]])
      iex> {:ok, r} = ExBashkit.Session.exec(s, "curl -s https://example.com; echo $?; type curl")
      iex> {r.stdout, r.stderr}
      {"127\\n", "bash: line 1: curl: command not found\\nbash: line 1: type: curl: not found\\n"}

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

  Robustness: each call runs in a worker process, never in the caller (the
  caller only hands the call over and passes the answer back, while it waits
  for `exec/3`). A builtin that raises,
  exits (even `Process.exit(self(), :kill)`), returns anything else, or replies
  with more than `:max_reply_bytes` fails only that command (exit 1, with the
  reason on stderr); one that runs past `:builtin_timeout_ms` is killed at the
  deadline and the command fails with exit 124, so it cannot act later.
  Workers are kept between calls and execs of one caller, and each is linked
  to a guardian process that kills them all when the caller dies; should the
  guardian itself be killed, the calls then running fail at once and a new
  one serves the rest of the exec. The caller and the session are
  unaffected. A worker serves one call at a time, so what a builtin leaves in
  its own process (dictionary, mailbox) may be seen by a later builtin: do not
  rely on either. Builtins must not rely on the
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

  `exec(session, script, background: true)` starts the script as a job; see
  `ExBashkit.Session.Jobs`.

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

  The in-memory filesystem is shared between scripts and the host: see
  `ExBashkit.Session.Files`.

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

  alias ExBashkit.{Native, Result}
  alias ExBashkit.Session.{Changes, Files, History, Hooks, Jobs, Options, Runner, Snapshot}

  @enforce_keys [:ref]
  defstruct [
    :ref,
    callbacks: nil,
    config: %{max_jobs: 16, before_exec: nil, after_exec: nil, snapshot_key: nil}
  ]

  @opaque t :: %__MODULE__{ref: reference(), callbacks: map() | nil, config: map()}

  @typedoc "A filesystem entry's kind, as reported by `stat/2` and `list_dir/2`."
  @type fs_type :: Files.fs_type()

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

  @typedoc "An option of `new/1` (each is described in the module doc)."
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
          | {:python,
             boolean()
             | [name: String.t(), names: [String.t()], runtime: :cpython | :monty | Path.t()]}
          | {:snapshot_key, binary()}
          | {:max_jobs, non_neg_integer()}
          | {:before_exec, (String.t() -> :ok | {:ok, String.t()} | {:error, term()})}
          | {:after_exec, (term() -> :ok | term())}
          | {:history, boolean()}
          | {:workspace, t()}
          | {:allowed_mounts, [Path.t()]}
          | {:commands, [only: [String.t()]] | [except: [String.t()]]}

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
    load_python(normalized)

    case Native.session_new(normalized) do
      {:ok, ref} -> %__MODULE__{ref: ref, callbacks: callbacks, config: config}
      {:error, message} -> raise ArgumentError, "cannot create session: " <> message
    end
  end

  # Load (and check) the CPython runtime on a dirty scheduler: the first load
  # on a machine compiles it, which takes tens of seconds; later ones find it
  # in the node's cache at once.
  defp load_python(%{python: [_ | _], python_runtime: path}) when is_binary(path) do
    case Native.python_load(path) do
      :ok -> :ok
      {:error, message} -> raise ArgumentError, "cannot create session: " <> message
    end
  end

  defp load_python(_), do: :ok

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
  `ExBashkit.configure_admission/1`); the session is untouched. Parsing
  happens inside the call, after admission, under the same budget and
  deadline: a script (or an `eval`/`source` text) whose parse would pass
  `:max_memory_bytes` is `{:error, message}` naming the limit. Should a worker
  be stuck past its deadline, a watchdog answers the call as timed out 90 ms
  later (telemetry `[:ex_bashkit, :exec, :watchdog]`), and the session answers
  `{:error, "session busy: ..."}` until the worker is free.

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

  If the calling process dies, its running exec is cancelled. Each call
  sends `[:ex_bashkit, :exec, ...]` telemetry events when the application has
  `:telemetry` loaded (see `ExBashkit.Telemetry`).

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
    meta = %{
      session: session,
      script_bytes: byte_size(script),
      background: opts[:background] == true
    }

    ExBashkit.Telemetry.span(meta, fn ->
      {native_opts, partial?, background} = Options.exec_opts(opts)

      cond do
        Runner.serving?(ref) ->
          {:error,
           "exec called from a callback of the same session: the session is busy running " <>
             "the script that made the call (use another session)"}

        true ->
          with {:ok, script} <- Hooks.before_exec(session.config, script) do
            case background do
              nil ->
                Hooks.after_exec(
                  session.config,
                  Runner.run(session, script, native_opts, partial?)
                )

              name ->
                Jobs.start(session, script, native_opts, name)
            end
          end
      end
    end)
  end

  def exec(%__MODULE__{}, script, opts) when is_list(opts),
    do: raise(ArgumentError, "script must be a binary, got: #{inspect(script)}")

  def exec(session, _script, _opts),
    do: raise(ArgumentError, "not a session: #{inspect(session)}")

  @doc """
  Cancel the session's running exec (and any queued behind it).

  Each cancelled `exec/3` returns `{:error, "execution cancelled"}` within
  milliseconds, even in a busy loop or a `sleep`, and the session keeps the
  state it had before that call. Returns how many execs were cancelled.
  """
  @spec cancel(t()) :: non_neg_integer()
  def cancel(%__MODULE__{ref: ref}), do: Native.cancel(ref)

  # The rest of the API lives in a module per concept; these names keep working.

  @doc "See `ExBashkit.Session.Files.read_file/2`."
  defdelegate read_file(session, path), to: Files
  @doc "See `ExBashkit.Session.Files.write_file/3`."
  defdelegate write_file(session, path, content), to: Files
  @doc "See `ExBashkit.Session.Files.list_dir/2`."
  defdelegate list_dir(session, path), to: Files
  @doc "See `ExBashkit.Session.Files.mkdir/3`."
  defdelegate mkdir(session, path, opts \\ []), to: Files
  @doc "See `ExBashkit.Session.Files.remove/3`."
  defdelegate remove(session, path, opts \\ []), to: Files
  @doc "See `ExBashkit.Session.Files.rename/3`."
  defdelegate rename(session, from, to), to: Files
  @doc "See `ExBashkit.Session.Files.stat/2`."
  defdelegate stat(session, path), to: Files

  @doc "See `ExBashkit.Session.Jobs.jobs/1`."
  defdelegate jobs(session), to: Jobs
  @doc "See `ExBashkit.Session.Jobs.terminate_job/2`."
  defdelegate terminate_job(session, id), to: Jobs
  @doc "See `ExBashkit.Session.Jobs.await_job/3`."
  defdelegate await_job(session, id, timeout \\ 5_000), to: Jobs

  @doc "See `ExBashkit.Session.History.history/2`."
  defdelegate history(session, opts \\ []), to: History
  @doc "See `ExBashkit.Session.History.clear_history/1`."
  defdelegate clear_history(session), to: History
  @doc "See `ExBashkit.Session.History.aliases/1`."
  defdelegate aliases(session), to: History
  @doc "See `ExBashkit.Session.History.put_alias/3`."
  defdelegate put_alias(session, name, value), to: History
  @doc "See `ExBashkit.Session.History.delete_alias/2`."
  defdelegate delete_alias(session, name), to: History

  @doc "See `ExBashkit.Session.Changes.mark/1`."
  defdelegate mark(session), to: Changes
  @doc "See `ExBashkit.Session.Changes.changes/2`."
  defdelegate changes(session, opts \\ []), to: Changes

  @doc "See `ExBashkit.Session.Snapshot.snapshot/2`."
  defdelegate snapshot(session, opts \\ []), to: Snapshot
  @doc "See `ExBashkit.Session.Snapshot.restore/3`."
  defdelegate restore(session, bytes, opts \\ []), to: Snapshot

  defimpl Inspect do
    def inspect(_session, _opts), do: "#ExBashkit.Session<>"
  end
end
