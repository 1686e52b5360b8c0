defmodule ExBashkit.VirtualFs do
  @moduledoc """
  A filesystem served by your application, mounted into a session with the
  `:virtual_fs` option of `ExBashkit.Session.new/1`.

  While a script runs, every operation on a path under the mount point is
  answered by the backend: `cat /api/users/1.json` calls `read(arg, "/users/1.json")`.
  Paths arrive rooted at the mount, absolute and normalized. Everything else
  (the in-memory filesystem, other mounts) is untouched, and the mount point
  shows up in listings of its parent directory.

  A backend is one of:

    * a module implementing this behaviour (`arg` is `nil`);
    * `{module, arg}`, where `arg` comes first in every callback:
      `read(arg, path)`, `write(arg, path, data)`, `append(arg, path, data)`,
      `mkdir(arg, path, recursive)`, `remove(arg, path, recursive)`,
      `list(arg, path)`, `stat(arg, path)` and, optionally,
      `rename(arg, from, to)` (the callbacks of ex_bashkit, so backends written
      for it work unchanged);
    * a 1-arity function getting `%{op: op, path: path}` (plus `:data` for
      `:write`/`:append`, `:recursive` for `:mkdir`/`:remove`, `:to` for
      `:rename`) and returning what the callback for `op` would. A function
      without a clause for an operation does not support it.

  ## Implementing a backend

      defmodule KvFs do
        use ExBashkit.VirtualFs

        @impl true
        def read(store, "/" <> key) do
          case Agent.get(store, &Map.get(&1, key)) do
            nil -> {:error, :enoent}
            value -> {:ok, value}
          end
        end

        @impl true
        def write(store, "/" <> key, data), do: Agent.update(store, &Map.put(&1, key, data))

        @impl true
        def list(store, "/"), do: {:ok, Agent.get(store, &Map.keys/1)}
      end

  `use ExBashkit.VirtualFs` declares the behaviour and gives every callback a
  default, so a backend implements only what it supports: `read`, `write`,
  `append`, `mkdir`, `remove`, `list` and `rename` answer `{:error, :enotsup}`,
  and `stat` is derived from `read/2` (a path it reads is a file of that
  size). Override any of them. A module that does not `use` it may leave any
  callback out: a missing one answers `{:error, :enotsup}` as well.

  ## What the shell asks the backend

  | Script | Callback |
  |--------|----------|
  | `cat f`, `source f`, `$(<f)`, `grep x f` | `read` |
  | `cmd > f` | one `write(path, everything cmd wrote)` when `cmd` ends |
  | `cmd >> f` | one `append(path, everything cmd wrote)` when `cmd` ends |
  | `ls d`, globs | `list` |
  | `mkdir d`, `mkdir -p a/b` | `mkdir(path, false)`, `mkdir(path, true)` |
  | `rm f`, `rm -r d` | `remove(path, false)`, `remove(path, true)` |
  | `mv a b` (both in the mount) | `rename` |
  | `test -e f`, `[ -f f ]`, `ls -l` | `stat` |

  A redirection's output is held until the command (or the `{ }` group,
  loop or function body the redirection is on) ends, then handed over in one
  call, so a backend that keeps whole files never sees a partial one; a
  failed `write` is reported there (`bash: /m/f: Operation not supported`,
  status 1). Output to a descriptor that stays open (`exec >/m/log`) is
  handed over when the exec ends. Tools that write as they go (`tee`, `awk`'s
  `print > f`) call `write(path, "")` and then `append` for each chunk; for a
  backend without `append`, each one becomes a `read` and a `write` of the
  whole file.

  The mount's root is a directory without asking the backend. A backend
  without `stat` (or whose `stat` answers `:enotsup`) has it derived: a path
  `read` returns is a file of that size, one `list` returns is a directory,
  anything else is not there; so `read` alone gives working `cat`,
  `test -f` and `test -e`. `mkdir -p` is one recursive call; a backend that
  answers it with `:enotsup` gets one non-recursive call per missing level
  instead (and `rm -r` one per entry).

  ## Errors

  `{:error, errno}` becomes the C library's message in the command that hit
  it: `:enoent` (No such file or directory), `:eacces`/`:eperm` (Permission
  denied), `:enotdir`, `:eisdir`, `:eexist`, `:enotempty`, `:enotsup`
  (Operation not supported), `:erofs`, `:einval`, `:enospc`; any other atom is
  an I/O error. An error may also be a string: an errno's name (`"enoent"`,
  `"ENOENT"`) or its message (`"No such file or directory"`) counts as that
  errno, any other text is an I/O error.

  A callback runs like a custom builtin: in a process of its own, for at most
  `:builtin_timeout_ms` (then it is killed), with its reply capped at
  `:max_reply_bytes`. A raise, an exit, a timeout, an oversized or malformed
  reply fails that one operation with `Input/output error`; the session and
  the caller are unaffected. A listing with an entry named `""`, `"."`,
  `".."`, or holding `/` or NUL, or not UTF-8, is refused whole. Paths deeper
  than the `:max_path_depth` limit never reach the backend, so an endless
  generated tree cannot trap `find` or `ls -R`. Like builtins, a callback must
  not call `ExBashkit.Session.exec/3` on the session it serves.

  `ExBashkit.Session.read_file/2` and the rest of the file API do not reach
  virtual mounts: they return `{:error, _}` for paths under one.

  ## Example

      iex> defmodule Docs do
      ...>   @behaviour ExBashkit.VirtualFs
      ...>   @impl true
      ...>   def read(greeting, "/" <> name), do: {:ok, "\#{greeting}, \#{name}\\n"}
      ...>   @impl true
      ...>   def list(_, "/"), do: {:ok, [{"alice", :file}, "bob"]}
      ...>   @impl true
      ...>   def stat(_, "/"), do: {:ok, %{type: :dir}}
      ...>   def stat(_, "/" <> _), do: {:ok, %{type: :file, size: 0}}
      ...> end
      iex> session = ExBashkit.Session.new(virtual_fs: %{"/hello" => {Docs, "hi"}})
      iex> {:ok, result} = ExBashkit.Session.exec(session, "ls /hello; cat /hello/bob")
      iex> result.stdout
      "alice\\nbob\\nhi, bob\\n"
  """

  @typedoc "A path inside the mount: absolute and normalized, `/` is the mount point."
  @type path :: String.t()

  @typedoc "Why an operation failed."
  @type errno ::
          :enoent
          | :eacces
          | :eperm
          | :enotdir
          | :eisdir
          | :eexist
          | :enotempty
          | :enotsup
          | :erofs
          | :einval
          | :enospc
          | atom()

  @typedoc """
  What `stat/2` tells: `:type` is required; `:size` (bytes, default 0), `:mode`
  (permission bits, default `0o644` for files and `0o755` for directories) and
  `:mtime` (Unix seconds or a `DateTime`, default the epoch) are optional.
  """
  @type stat :: %{
          required(:type) => :file | :dir,
          optional(:size) => non_neg_integer(),
          optional(:mode) => non_neg_integer(),
          optional(:mtime) => integer() | DateTime.t()
        }

  @typedoc "A directory entry: `{name, type}`, or a bare name for a file."
  @type entry :: {String.t(), :file | :dir} | String.t()

  @typedoc "Why an operation failed: an errno atom or a message."
  @type error :: errno() | String.t()

  @doc "The whole contents of the file at `path`."
  @callback read(arg :: term(), path()) :: {:ok, iodata()} | {:error, error()}
  @doc "Create or truncate the file at `path` and write `data`."
  @callback write(arg :: term(), path(), data :: binary()) :: :ok | {:error, error()}
  @doc "Append `data` to the file at `path`, creating it when missing."
  @callback append(arg :: term(), path(), data :: binary()) :: :ok | {:error, error()}
  @doc """
  Create the directory `path`. Not `recursive`: its parent exists and
  `:eexist` if `path` is there. `recursive` (`mkdir -p`): create missing
  parents too, and succeed if it is a directory already.
  """
  @callback mkdir(arg :: term(), path(), recursive :: boolean()) :: :ok | {:error, error()}
  @doc """
  Remove the file or directory at `path`: an empty directory only unless
  `recursive` (`rm -r`), which removes it with everything below.
  """
  @callback remove(arg :: term(), path(), recursive :: boolean()) :: :ok | {:error, error()}
  @doc "The entries of the directory `path`, in any order: names (files) or `{name, type}`."
  @callback list(arg :: term(), path()) :: {:ok, [entry()]} | {:error, error()}
  @doc "What `path` is."
  @callback stat(arg :: term(), path()) :: {:ok, stat()} | {:error, error()}
  @doc "Move `from` to `to` (both inside this mount). Optional."
  @callback rename(arg :: term(), from :: path(), to :: path()) :: :ok | {:error, error()}

  @optional_callbacks read: 2,
                      write: 3,
                      append: 3,
                      mkdir: 3,
                      remove: 3,
                      list: 2,
                      stat: 2,
                      rename: 3

  @doc """
  Declare the behaviour with a default for every callback: `{:error, :enotsup}`,
  and `stat/2` derived from `read/2`. Override what the backend supports.
  """
  defmacro __using__(_opts) do
    quote do
      @behaviour ExBashkit.VirtualFs

      @impl ExBashkit.VirtualFs
      def read(_arg, _path), do: {:error, :enotsup}
      @impl ExBashkit.VirtualFs
      def write(_arg, _path, _data), do: {:error, :enotsup}
      @impl ExBashkit.VirtualFs
      def append(_arg, _path, _data), do: {:error, :enotsup}
      @impl ExBashkit.VirtualFs
      def mkdir(_arg, _path, _recursive), do: {:error, :enotsup}
      @impl ExBashkit.VirtualFs
      def remove(_arg, _path, _recursive), do: {:error, :enotsup}
      @impl ExBashkit.VirtualFs
      def list(_arg, _path), do: {:error, :enotsup}
      @impl ExBashkit.VirtualFs
      def rename(_arg, _from, _to), do: {:error, :enotsup}

      # What a path is, from reading it (a backend with `read` alone gets
      # `cat`, `test -f` and `stat` for its files); override to avoid the read.
      @impl ExBashkit.VirtualFs
      def stat(arg, path) do
        with {:ok, content} <- read(arg, path) do
          {:ok, %{type: :file, size: IO.iodata_length(content)}}
        end
      end

      defoverridable read: 2,
                     write: 3,
                     append: 3,
                     mkdir: 3,
                     remove: 3,
                     list: 2,
                     rename: 3,
                     stat: 2
    end
  end
end
