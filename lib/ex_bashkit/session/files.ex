defmodule ExBashkit.Session.Files do
  @moduledoc """
  The file API of a session: read, write, list, create, remove, rename and
  stat paths of its filesystem from the host, without going through a script.
  Each function is also reachable as `ExBashkit.Session.read_file/2` and so on.

  A session's in-memory filesystem is shared between scripts and the host. Use
  `write_file/3` to place files (e.g. inputs) and `read_file/2` to pull files
  back out (e.g. results a script produced) without going through a script:

      iex> session = ExBashkit.Session.new(files: %{"/in.txt" => "data\\n"})
      iex> {:ok, _} = ExBashkit.Session.exec(session, "wc -l < /in.txt > /out.txt")
      iex> ExBashkit.Session.read_file(session, "/out.txt")
      {:ok, "1\\n"}

  File contents are bytes: non-UTF-8 data round-trips unchanged.
  """

  alias ExBashkit.{Native, Session}

  @typedoc "A filesystem entry's kind, as reported by `stat/2` and `list_dir/2`."
  @type fs_type :: :file | :dir | :symlink

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
  @spec read_file(Session.t(), Path.t()) :: {:ok, binary()} | {:error, String.t()}
  def read_file(%Session{ref: ref}, path), do: Native.read_file(ref, fs_path(path))

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
  @spec write_file(Session.t(), Path.t(), iodata()) :: :ok | {:error, String.t()}
  def write_file(%Session{ref: ref}, path, content) do
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
  @spec list_dir(Session.t(), Path.t()) :: {:ok, [{String.t(), fs_type()}]} | {:error, String.t()}
  def list_dir(%Session{ref: ref}, path), do: Native.list_dir(ref, fs_path(path))

  @doc """
  Create directory `path` in the session's filesystem.

  Returns `:ok` or `{:error, message}`. With `parents: true` it creates any
  missing parent directories (like `mkdir -p`) and succeeds if the directory
  already exists; without it, a missing parent is an error.

  ## Options

    * `:parents` - create missing parents (default `false`).
  """
  @spec mkdir(Session.t(), Path.t(), keyword()) :: :ok | {:error, String.t()}
  def mkdir(%Session{ref: ref}, path, opts \\ []) do
    Native.mkdir(ref, fs_path(path), flag(opts, :parents, "mkdir/3"))
  end

  @doc """
  Remove `path` from the session's filesystem.

  Returns `:ok` or `{:error, message}`. Removing a non-empty directory requires
  `recursive: true`.

  ## Options

    * `:recursive` - remove a directory and its contents (default `false`).
  """
  @spec remove(Session.t(), Path.t(), keyword()) :: :ok | {:error, String.t()}
  def remove(%Session{ref: ref}, path, opts \\ []) do
    Native.remove(ref, fs_path(path), flag(opts, :recursive, "remove/3"))
  end

  @doc """
  Rename/move `from` to `to` within the session's filesystem.

  Returns `:ok` or `{:error, message}`.
  """
  @spec rename(Session.t(), Path.t(), Path.t()) :: :ok | {:error, String.t()}
  def rename(%Session{ref: ref}, from, to), do: Native.rename(ref, fs_path(from), fs_path(to))

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
  @spec stat(Session.t(), Path.t()) ::
          {:ok, %{type: fs_type(), size: non_neg_integer()}} | {:error, String.t()}
  def stat(%Session{ref: ref}, path), do: Native.stat(ref, fs_path(path))

  @doc false
  def fs_path(path) when is_binary(path) do
    if String.valid?(path) and not String.contains?(path, "\0"),
      do: path,
      else: raise(ArgumentError, "path must be UTF-8 text without NUL, got: #{inspect(path)}")
  end

  def fs_path(path) when is_list(path), do: fs_path(List.to_string(path))
  def fs_path(path), do: raise(ArgumentError, "path must be a string, got: #{inspect(path)}")

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
end
