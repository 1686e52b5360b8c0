defmodule ExBashkit.Session.Snapshot do
  @moduledoc """
  Sealing a session's state into bytes and restoring it, to persist a session
  or move it to another node. Also reachable as `ExBashkit.Session.snapshot/2`
  and `ExBashkit.Session.restore/3`.
  """

  alias ExBashkit.{Native, Session}

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
  @spec snapshot(Session.t(), keyword()) :: {:ok, binary()} | {:error, String.t()}
  def snapshot(%Session{ref: ref} = session, opts \\ []) do
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
  @spec restore(Session.t(), binary(), keyword()) :: {:ok, Session.t()} | {:error, String.t()}
  def restore(%Session{ref: ref} = session, bytes, opts \\ []) when is_binary(bytes) do
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

  defp session_key(%Session{config: config}), do: Map.get(config, :snapshot_key)

  defp key!(k) when is_binary(k) and byte_size(k) > 0, do: k

  defp key!(k),
    do: raise(ArgumentError, "option :key must be a non-empty binary, got: #{inspect(k)}")
end
