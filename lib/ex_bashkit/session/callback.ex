defmodule ExBashkit.Session.Callback do
  @moduledoc false
  # Runs one application callback (a custom builtin or a virtual-fs operation)
  # inside a broker's worker process and turns whatever it returns, raises or
  # throws into one of the few reply shapes `Native.callback_reply/3` decodes:
  #
  #   {:done, stdout, stderr, status}          a builtin
  #   {:data, bin} | :ok | {:stat, type, size, mode, mtime} | {:entries, [{name, type}]}
  #   {:errno, atom} | {:failed, message}      a virtual-fs operation
  #
  # Sizes are checked with `IO.iodata_length/1` before anything is flattened,
  # so an oversized reply is refused without building it.

  alias ExBashkit.Result

  # Longest diagnostic (an exception message, an inspected bad value) passed on.
  @max_diag 1024
  # Most entries one directory listing may hold.
  @max_entries 100_000

  @doc false
  def run({:builtin, name, args, stdin, env, cwd}, cfg) do
    case Map.fetch(cfg.builtins, name) do
      {:ok, fun} ->
        call = %{args: args, stdin: stdin, env: env, cwd: cwd}

        guarded(fn -> builtin_reply(name, fun.(call), cfg.max_reply) end, fn why ->
          builtin_failure(name, why)
        end)

      :error ->
        {:done, "", "#{name}: not a custom builtin\n", 127}
    end
  end

  def run({:fs, index, :stat, path, extra}, cfg) do
    spec = elem(cfg.mounts, index)

    guarded(
      fn ->
        case dispatch(spec, :stat, path, extra) do
          # No stat: what it is, from what read and list say.
          {:error, :enotsup} -> derived_stat(spec, path)
          other -> fs_reply(:stat, other, cfg.max_reply)
        end
      end,
      fn why -> {:failed, why} end
    )
  end

  def run({:fs, index, op, path, extra}, cfg) do
    spec = elem(cfg.mounts, index)

    guarded(fn -> fs_reply(op, dispatch(spec, op, path, extra), cfg.max_reply) end, fn why ->
      {:failed, why}
    end)
  end

  @doc "What the broker answers for a call whose worker died without answering."
  def failure({:builtin, name, _, _, _, _}, why), do: builtin_failure(name, why)
  def failure({:fs, _, _, _, _}, why), do: {:failed, why}

  @doc "What the broker answers for a call it stopped at the deadline."
  def timeout({:builtin, name, _, _, _, _}, ms),
    do: {:done, "", "#{name}: timed out after #{ms} ms\n", 124}

  def timeout({:fs, _, _, _, _}, ms), do: {:failed, "timed out after #{ms} ms"}

  defp builtin_failure(name, why), do: {:done, "", "#{name}: #{why}\n", 1}

  defp guarded(fun, on_failure) do
    fun.()
  rescue
    e -> on_failure.("raised " <> clip(safe_message(e)))
  catch
    :exit, reason -> on_failure.("exited: " <> diag(reason))
    :throw, value -> on_failure.("threw: " <> diag(value))
  end

  defp safe_message(e) do
    inspect(e.__struct__) <> ": " <> Exception.message(e)
  rescue
    _ -> inspect(e.__struct__)
  end

  defp builtin_reply(name, result, max) do
    case result do
      {:ok, out} ->
        with :ok <- fits(name, [out], max), do: {:done, flat(out), "", 0}

      {:error, err} ->
        with :ok <- fits(name, [err], max), do: {:done, "", flat(err), 1}

      %Result{stdout: out, stderr: err, exit_code: code} when is_integer(code) ->
        with :ok <- fits(name, [out, err], max),
             do: {:done, flat(out), flat(err), Bitwise.band(code, 255)}

      other ->
        {:done, "", "#{name}: invalid return value from builtin: #{diag(other)}\n", 1}
    end
  end

  # Both streams together must fit the cap; anything that is not iodata is a
  # contract violation (`iodata_length` raises, which `guarded` reports).
  defp fits(name, parts, max) do
    size = Enum.reduce(parts, 0, fn p, acc -> acc + iodata_length!(p) end)

    if size <= max,
      do: :ok,
      else: {:done, "", "#{name}: reply too large (#{size} bytes, max_reply_bytes: #{max})\n", 1}
  end

  defp iodata_length!(p) do
    IO.iodata_length(p)
  rescue
    ArgumentError -> raise ArgumentError, "reply is not iodata: #{diag(p)}"
  end

  defp flat(io), do: IO.iodata_to_binary(io)

  # --- virtual filesystems --------------------------------------------------

  # A backend without `stat`: a path it can read is a file of that size, one
  # it can list is a directory, and one it can do neither with is not there
  # (so `test -f`, `test -e` and `cat` work with `read` alone).
  defp derived_stat(spec, path) do
    case dispatch(spec, :read, path, nil) do
      {:ok, data} ->
        {:stat, :file, iodata_length!(data), 0o644, 0}

      {:error, errno} when errno in [:enoent, :eisdir, :enotsup] ->
        case dispatch(spec, :list, path, nil) do
          {:ok, entries} when is_list(entries) -> {:stat, :dir, 0, 0o755, 0}
          {:error, :enotsup} when errno == :enotsup -> {:errno, :enotsup}
          _ -> if errno == :eisdir, do: {:stat, :dir, 0, 0o755, 0}, else: {:errno, :enoent}
        end

      other ->
        fs_reply(:stat, other, 0)
    end
  end

  defp dispatch(fun, op, path, extra) when is_function(fun, 1) do
    request =
      case op do
        op when op in [:write, :append] -> %{op: op, path: path, data: extra}
        op when op in [:mkdir, :remove] -> %{op: op, path: path, recursive: extra == true}
        :rename -> %{op: op, path: path, to: extra}
        _ -> %{op: op, path: path}
      end

    try do
      fun.(request)
    rescue
      # A dispatcher without a clause for this operation does not support it.
      e in FunctionClauseError ->
        info = Function.info(fun)

        if e.module == info[:module] and e.function == info[:name],
          do: {:error, :enotsup},
          else: reraise(e, __STACKTRACE__)
    end
  end

  defp dispatch({mod, arg}, op, path, extra), do: call_module(mod, op, path, extra, arg)

  defp dispatch(mod, op, path, extra) when is_atom(mod),
    do: call_module(mod, op, path, extra, nil)

  # The behaviour's callbacks take the backend's `arg` first.
  defp call_module(mod, op, path, extra, arg) do
    args =
      case op do
        op when op in [:write, :append, :rename] -> [arg, path, extra]
        op when op in [:mkdir, :remove] -> [arg, path, extra == true]
        _ -> [arg, path]
      end

    if function_exported?(mod, op, length(args)),
      do: apply(mod, op, args),
      else: {:error, :enotsup}
  end

  @errnos ~w(enoent eacces eperm enotdir eisdir eexist enotempty enotsup erofs einval enospc)a
  @messages %{
    "no such file or directory" => :enoent,
    "permission denied" => :eacces,
    "operation not permitted" => :eperm,
    "not a directory" => :enotdir,
    "is a directory" => :eisdir,
    "file exists" => :eexist,
    "directory not empty" => :enotempty,
    "operation not supported" => :enotsup,
    "read-only file system" => :erofs,
    "invalid argument" => :einval,
    "no space left on device" => :enospc
  }

  # An error given as text: an errno's name or its C library message, else I/O.
  defp errno_of_text(text) do
    t = text |> String.trim() |> String.downcase()

    case Enum.find(@errnos, &(Atom.to_string(&1) == t)) do
      nil ->
        case Map.fetch(@messages, t) do
          {:ok, errno} -> {:errno, errno}
          :error -> {:failed, clip(text)}
        end

      errno ->
        {:errno, errno}
    end
  end

  defp fs_reply(op, result, max) do
    case {op, result} do
      {_, {:error, errno}} when is_atom(errno) ->
        {:errno, errno}

      {_, {:error, text}} when is_binary(text) ->
        errno_of_text(text)

      {:read, {:ok, data}} ->
        size = iodata_length!(data)

        if size <= max,
          do: {:data, flat(data)},
          else: {:failed, "reply too large (#{size} bytes, max_reply_bytes: #{max})"}

      {op, :ok} when op in [:write, :append, :mkdir, :remove, :rename] ->
        :ok

      {:list, {:ok, entries}} when is_list(entries) ->
        listing(entries, max)

      {:stat, {:ok, %{type: type} = st}} when type in [:file, :dir] ->
        stat(type, st)

      _ ->
        {:failed, "invalid return value from virtual_fs #{op}: #{diag(result)}"}
    end
  end

  defp listing(entries, max) do
    Enum.reduce_while(entries, {[], 0, 0}, fn entry, {acc, n, bytes} ->
      case entry(entry) do
        {:ok, {name, _} = e} when n < @max_entries and bytes + byte_size(name) <= max ->
          {:cont, {[e | acc], n + 1, bytes + byte_size(name)}}

        {:ok, _} ->
          {:halt, {:failed, "listing too large"}}

        {:error, why} ->
          {:halt, {:failed, why}}
      end
    end)
    |> case do
      {:failed, _} = f -> f
      {acc, _, _} -> {:entries, Enum.reverse(acc)}
    end
  end

  # One listing entry: `{name, :file | :dir}` or a bare name (a file). A name
  # that is empty, `.`/`..`, holds `/` or NUL, or is not UTF-8 would let a walk
  # loop forever or escape the directory, so the whole listing is refused.
  defp entry(name) when is_binary(name), do: entry({name, :file})

  defp entry({name, type}) when is_binary(name) and type in [:file, :dir] do
    if name in ["", ".", ".."] or not String.valid?(name) or
         String.contains?(name, ["/", <<0>>]),
       do: {:error, "invalid entry name in listing: #{diag(name)}"},
       else: {:ok, {name, type}}
  end

  defp entry(other), do: {:error, "invalid listing entry: #{diag(other)}"}

  defp stat(type, st) do
    size = Map.get(st, :size, 0)
    mode = Map.get(st, :mode, if(type == :dir, do: 0o755, else: 0o644))
    mtime = mtime(Map.get(st, :mtime, 0))

    if is_integer(size) and size >= 0 and is_integer(mode) and mode in 0..0o7777 and
         is_integer(mtime),
       do: {:stat, type, size, mode, mtime},
       else: {:failed, "invalid stat: #{diag(st)}"}
  end

  defp mtime(%DateTime{} = t), do: DateTime.to_unix(t)
  defp mtime(t) when is_integer(t) and abs(t) < 1_000_000_000_000, do: t
  defp mtime(_), do: nil

  defp diag(term), do: clip(inspect(term, limit: 20, printable_limit: 200))

  defp clip(s) when byte_size(s) <= @max_diag, do: s
  defp clip(s), do: binary_part(s, 0, @max_diag) <> "..."
end
