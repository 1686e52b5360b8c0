defmodule ExBashkit.Store.Disk do
  @moduledoc """
  The on-disk `ExBashkit.Store`: two files per session under `dir:` (default
  `ex_bashkit_sessions` in the system's temporary directory), named by a hash
  of the session's name.

      config :ex_bashkit, store: {ExBashkit.Store.Disk, dir: "/var/lib/app/sessions"}

    * `HASH.session` - the full record (the options and the last full
      snapshot), with its generation and a SHA-256 of its contents in a
      header. It is written to a temporary file in the same directory,
      flushed to disk (`fsync`) and renamed over the old one, so a reader
      sees the old record or the new one, never a mix.
    * `HASH.log` - the deltas written since that snapshot, appended one frame
      at a time and `fsync`ed before `append/4` returns. Each frame carries
      its generation, its length and a SHA-256 of its contents, at both ends.

  Reading back, a frame cut short at the end of the log (a write a crash
  interrupted: its call never returned, so nothing acknowledged is in it) is
  reported with `Logger.warning` and cut off the file; any other damage (a
  frame that does not check out with frames after it, a full record whose
  checksum fails) is reported with `Logger.error` and the record is not
  loaded (`get/2` answers `{:error, {:corrupt, why}}`). A log left from
  before the last full record (a crash between writing the record and
  clearing its log) is recognised by its generation and ignored.

  The files hold `:erlang.term_to_binary/1` of the record (read back with
  `:safe`: no new atoms) and sealed snapshots (HMAC), so a tampered file fails
  to restore rather than restoring something else.

  Erlang cannot `fsync` a directory, so a new full record's rename reaches the
  disk with the file system's next commit: a killed process or node never
  loses it, a power cut just after a compaction may bring back the record
  before it (with its log: nothing is lost but the compaction).
  """
  @behaviour ExBashkit.Store

  require Logger

  @base_magic "EXBS1\n"
  @log_magic "EXBL1\n"
  @frame_magic "EXBF"
  @frame_end "EXBE"
  # magic, generation, size, digest
  @frame_head 4 + 8 + 4 + 32
  # generation, size, end magic
  @frame_tail 8 + 4 + 4
  @log_head byte_size(@log_magic) + 8

  @impl true
  def put(%{name: name, generation: gen} = record, opts) do
    dir = dir(opts)
    File.mkdir_p!(dir)

    case newest(dir, name) do
      {:ok, held, _} when held >= gen ->
        {:error, :stale}

      _ ->
        {deltas, base} = Map.pop(record, :deltas, [])
        base_gen = gen - length(deltas)
        base = Map.put(base, :base_generation, base_gen)
        payload = :erlang.term_to_binary(base)
        header = @base_magic <> <<base_gen::64>> <> :crypto.hash(:sha256, payload)

        with :ok <- write_atomically(file(dir, name, ".session"), [header, payload]) do
          log = file(dir, name, ".log")

          if deltas == [] do
            # No log: the record stands alone (a stale one would be ignored anyway).
            _ = File.rm(log)
            :ok
          else
            frames = deltas |> Enum.with_index(base_gen + 1) |> Enum.map(&frame/1)
            write_atomically(log, [log_head(base_gen) | frames])
          end
        end
    end
  rescue
    e -> {:error, Exception.message(e)}
  end

  @impl true
  def append(name, gen, delta, opts) when is_integer(gen) and is_binary(delta) do
    dir = dir(opts)
    log = file(dir, name, ".log")

    case newest(dir, name) do
      {:ok, last, kind} when last == gen - 1 ->
        data =
          if kind == :log, do: frame({delta, gen}), else: [log_head(last), frame({delta, gen})]

        append_synced(log, data)

      {:ok, _, _} ->
        {:error, :stale}

      error ->
        error
    end
  end

  @impl true
  def get(name, opts) do
    dir = dir(opts)

    case read_base(file(dir, name, ".session")) do
      {:ok, %{name: ^name} = record} ->
        read_log(record, file(dir, name, ".log"))

      {:ok, _} ->
        :error

      :missing ->
        :error

      {:error, why} ->
        Logger.error("ex_bashkit: the stored session #{inspect(name)} is corrupt: #{why}")
        {:error, {:corrupt, why}}
    end
  end

  @impl true
  def delete(name, opts) do
    dir = dir(opts)
    File.rm(file(dir, name, ".session"))
    File.rm(file(dir, name, ".log"))
    :ok
  end

  @impl true
  def names(opts) do
    dir = dir(opts)

    case File.ls(dir) do
      {:ok, files} ->
        for f <- files,
            String.ends_with?(f, ".session"),
            {:ok, %{name: name}} <- [read_base(Path.join(dir, f))],
            do: name

      _ ->
        []
    end
  end

  # --- the full record ------------------------------------------------------

  defp read_base(path) do
    case File.read(path) do
      {:ok, <<@base_magic, _gen::64, digest::binary-32, payload::binary>>} ->
        if :crypto.hash(:sha256, payload) == digest,
          do: decode(payload),
          else: {:error, "#{Path.basename(path)}: checksum mismatch"}

      {:ok, <<@base_magic, _::binary>>} ->
        {:error, "#{Path.basename(path)}: truncated"}

      # Written before records had a header: the record alone.
      {:ok, payload} ->
        decode(payload)

      {:error, :enoent} ->
        :missing

      {:error, why} ->
        {:error, "#{Path.basename(path)}: #{:file.format_error(why)}"}
    end
  end

  defp decode(payload) do
    case :erlang.binary_to_term(payload, [:safe]) do
      %{name: _, snapshot: _} = r -> {:ok, r}
      _ -> {:error, "not a session record"}
    end
  rescue
    ArgumentError -> {:error, "not a session record"}
  end

  # The generation in a full record's header, without reading the record.
  defp base_generation(path) do
    with {:ok, fd} <- :file.open(path, [:read, :raw, :binary]) do
      try do
        case :file.read(fd, byte_size(@base_magic) + 8) do
          {:ok, <<@base_magic, gen::64>>} -> {:ok, gen}
          _ -> legacy_generation(path)
        end
      after
        :file.close(fd)
      end
    end
  end

  defp legacy_generation(path) do
    case read_base(path) do
      {:ok, r} -> {:ok, Map.get(r, :generation, 0)}
      _ -> :error
    end
  end

  # --- the log --------------------------------------------------------------

  defp log_head(base_gen), do: @log_magic <> <<base_gen::64>>

  defp frame({delta, gen}) do
    size = byte_size(delta)
    digest = :crypto.hash(:sha256, [<<gen::64>>, delta])
    [@frame_magic, <<gen::64, size::32>>, digest, delta, <<gen::64, size::32>>, @frame_end]
  end

  # The newest generation held, read from the headers and the log's last
  # frame (never the records themselves), and whether a log goes on from it.
  defp newest(dir, name) do
    log = file(dir, name, ".log")

    case base_generation(file(dir, name, ".session")) do
      {:ok, base} ->
        case log_state(log) do
          :none ->
            {:ok, base, :none}

          {:ok, ^base, last} ->
            {:ok, last, :log}

          {:ok, head, _} when head < base ->
            # Left from before the full record.
            _ = File.rm(log)
            {:ok, base, :none}

          {:ok, _, _} ->
            {:error, {:corrupt, "#{Path.basename(log)}: does not follow its record"}}

          {:error, _} = e ->
            e
        end

      _ ->
        {:error, :not_found}
    end
  end

  # `{:ok, the generation the log follows, its last frame's}` or `:none`.
  defp log_state(log) do
    case :file.open(log, [:read, :raw, :binary]) do
      {:ok, fd} ->
        try do
          {:ok, size} = :file.position(fd, :eof)

          case :file.pread(fd, 0, @log_head) do
            {:ok, <<@log_magic, head::64>>} when size == @log_head ->
              {:ok, head, head}

            {:ok, <<@log_magic, head::64>>} when size >= @log_head + @frame_head + @frame_tail ->
              case :file.pread(fd, size - @frame_tail, @frame_tail) do
                {:ok, <<gen::64, _::32, @frame_end>>} -> {:ok, head, gen}
                _ -> {:error, {:corrupt, "#{Path.basename(log)}: its last frame is damaged"}}
              end

            # A head cut short by a crash as the log was begun: nothing in it.
            _ when size < @log_head ->
              _ = File.rm(log)
              :none

            _ ->
              {:error, {:corrupt, "#{Path.basename(log)}: damaged"}}
          end
        after
          :file.close(fd)
        end

      {:error, :enoent} ->
        :none

      {:error, why} ->
        {:error, {:corrupt, "#{Path.basename(log)}: #{:file.format_error(why)}"}}
    end
  end

  defp read_log(record, log) do
    base_gen = Map.get(record, :base_generation, Map.get(record, :generation, 0))
    record = Map.merge(record, %{base_generation: base_gen, generation: base_gen, deltas: []})

    case File.read(log) do
      {:error, :enoent} ->
        {:ok, record}

      {:ok, <<@log_magic, ^base_gen::64, frames::binary>>} ->
        case frames(frames, base_gen, []) do
          {:ok, deltas} ->
            {:ok, %{record | deltas: deltas, generation: base_gen + length(deltas)}}

          {:torn, deltas, good} ->
            Logger.warning(
              "ex_bashkit: #{Path.basename(log)} ends with a torn frame (a write a crash cut " <>
                "short, never acknowledged); it is cut off after #{length(deltas)} good ones"
            )

            truncate(log, @log_head + good)
            {:ok, %{record | deltas: deltas, generation: base_gen + length(deltas)}}

          {:corrupt, why} ->
            Logger.error("ex_bashkit: #{Path.basename(log)} is corrupt: #{why}")
            {:error, {:corrupt, "#{Path.basename(log)}: #{why}"}}
        end

      {:ok, short} when byte_size(short) < @log_head ->
        # Its head cut short as it was begun: no frame was ever in it.
        _ = File.rm(log)
        {:ok, record}

      {:ok, <<@log_magic, old::64, _::binary>>} when old < base_gen ->
        # Left from before the full record (a crash before it was cleared).
        _ = File.rm(log)
        {:ok, record}

      {:ok, _} ->
        Logger.error("ex_bashkit: #{Path.basename(log)} does not belong to its record")
        {:error, {:corrupt, "#{Path.basename(log)}: does not follow its record"}}

      {:error, why} ->
        {:error, {:corrupt, "#{Path.basename(log)}: #{:file.format_error(why)}"}}
    end
  end

  # The frames after the log's head, each the generation after the one before.
  defp frames(bin, prev, acc, used \\ 0)

  defp frames(<<>>, _prev, acc, _used), do: {:ok, Enum.reverse(acc)}

  defp frames(
         <<@frame_magic, gen::64, size::32, digest::binary-32, delta::binary-size(size), gen2::64,
           size2::32, @frame_end, rest::binary>>,
         prev,
         acc,
         used
       ) do
    cond do
      gen != gen2 or size != size2 or :crypto.hash(:sha256, [<<gen::64>>, delta]) != digest ->
        if rest == <<>>, do: {:torn, Enum.reverse(acc), used}, else: {:corrupt, bad(gen, used)}

      gen != prev + 1 ->
        {:corrupt, "frame #{gen} follows #{prev}"}

      true ->
        frames(rest, gen, [delta | acc], used + @frame_head + size + @frame_tail)
    end
  end

  # Not one whole frame: cut short if nothing whole follows (the end of the
  # file fell inside it), else damage.
  defp frames(bin, _prev, acc, used) do
    if whole_frame_after?(bin),
      do: {:corrupt, bad(nil, used)},
      else: {:torn, Enum.reverse(acc), used}
  end

  defp whole_frame_after?(bin) do
    case :binary.match(bin, @frame_end) do
      {pos, _} -> pos + 4 < byte_size(bin)
      :nomatch -> false
    end
  end

  defp bad(gen, at), do: "a damaged frame #{gen || ""} at byte #{@log_head + at}"

  defp truncate(path, at) do
    with {:ok, fd} <- :file.open(path, [:read, :write, :raw, :binary]) do
      try do
        {:ok, _} = :file.position(fd, at)
        :ok = :file.truncate(fd)
        :file.sync(fd)
      after
        :file.close(fd)
      end
    end
  end

  # --- writing --------------------------------------------------------------

  defp write_atomically(path, data) do
    tmp = path <> ".#{System.unique_integer([:positive])}.tmp"

    try do
      {:ok, fd} = :file.open(tmp, [:write, :binary, :raw])

      try do
        :ok = :file.write(fd, data)
        :ok = :file.sync(fd)
      after
        :file.close(fd)
      end

      File.rename!(tmp, path)
      :ok
    rescue
      e ->
        File.rm(tmp)
        {:error, Exception.message(e)}
    end
  end

  defp append_synced(path, data) do
    case :file.open(path, [:append, :binary, :raw]) do
      {:ok, fd} ->
        try do
          with :ok <- :file.write(fd, data), do: :file.sync(fd)
        after
          :file.close(fd)
        end

      error ->
        error
    end
  end

  defp dir(opts), do: Keyword.get(opts, :dir, Path.join(System.tmp_dir!(), "ex_bashkit_sessions"))

  defp file(dir, name, ext) do
    hash =
      :crypto.hash(:sha256, :erlang.term_to_binary(name, [:deterministic]))
      |> Base.url_encode64(padding: false)

    Path.join(dir, hash <> ext)
  end
end
