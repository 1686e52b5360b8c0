defmodule ExBashkit.VirtualFs do
  @moduledoc """
  A filesystem served by your application, mounted into a session with the
  `:virtual_fs` option of `ExBashkit.Session.new/1`.

  While a script runs, every operation on a path under the mount point is
  answered by the backend: `cat /api/users/1.json` calls `read("/users/1.json", arg)`.
  Paths arrive rooted at the mount, absolute and normalized. Everything else
  (the in-memory filesystem, other mounts) is untouched, and the mount point
  shows up in listings of its parent directory.

  A backend is one of:

    * a module implementing this behaviour (`arg` is `nil`);
    * `{module, arg}`, where `arg` is passed to every callback;
    * a 1-arity function getting `%{op: op, path: path}` (plus `:data` for
      `:write`/`:append`, `:to` for `:rename`) and returning what the callback
      for `op` would. A function without a clause for an operation does not
      support it.

  Every callback is optional: a missing one answers `{:error, :enotsup}`.
  Without `stat/2`, the mount's root is a directory and every other path a
  file, so a backend that implements `read/2` alone still serves `cat`.

  ## Errors

  `{:error, errno}` becomes the C library's message in the command that hit
  it: `:enoent` (No such file or directory), `:eacces`/`:eperm` (Permission
  denied), `:enotdir`, `:eisdir`, `:eexist`, `:enotempty`, `:enotsup`
  (Operation not supported), `:erofs`, `:einval`, `:enospc`; any other atom is
  an I/O error.

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
      ...>   def read("/" <> name, greeting), do: {:ok, "\#{greeting}, \#{name}\\n"}
      ...>   @impl true
      ...>   def list("/", _), do: {:ok, [{"alice", :file}, {"bob", :file}]}
      ...>   @impl true
      ...>   def stat("/", _), do: {:ok, %{type: :dir}}
      ...>   def stat("/" <> _, _), do: {:ok, %{type: :file, size: 0}}
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

  @doc "The whole contents of the file at `path`."
  @callback read(path(), arg :: term()) :: {:ok, iodata()} | {:error, errno()}
  @doc "Create or truncate the file at `path` and write `data`."
  @callback write(path(), data :: binary(), arg :: term()) :: :ok | {:error, errno()}
  @doc "Append `data` to the file at `path`, creating it when missing."
  @callback append(path(), data :: binary(), arg :: term()) :: :ok | {:error, errno()}
  @doc "Create the directory `path` (its parent exists; `:eexist` if it is there)."
  @callback mkdir(path(), arg :: term()) :: :ok | {:error, errno()}
  @doc "Remove the file or empty directory at `path`."
  @callback remove(path(), arg :: term()) :: :ok | {:error, errno()}
  @doc "The entries of the directory `path`, in any order."
  @callback list(path(), arg :: term()) :: {:ok, [entry()]} | {:error, errno()}
  @doc "What `path` is."
  @callback stat(path(), arg :: term()) :: {:ok, stat()} | {:error, errno()}
  @doc "Move `path` to `to` (both inside this mount)."
  @callback rename(path(), to :: path(), arg :: term()) :: :ok | {:error, errno()}

  @optional_callbacks read: 2,
                      write: 3,
                      append: 3,
                      mkdir: 2,
                      remove: 2,
                      list: 2,
                      stat: 2,
                      rename: 3
end
