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

  Every callback is optional: a missing one answers `{:error, :enotsup}`.
  Without `stat/2`, the mount's root is a directory and every other path a
  file, so a backend that implements `read/2` alone still serves `cat`.
  `recursive` is `true` when the session asks for a whole tree in one call
  (Python's `Path.mkdir(parents=True)`, say); a backend that answers that
  with `:enotsup` gets one non-recursive call per directory or entry instead.
  `mkdir -p` and `rm -r` walk the tree themselves, one non-recursive call per
  level, so their messages are GNU's.

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
end
