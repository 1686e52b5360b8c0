defmodule ExBashkit.Server.Checkpoint do
  @moduledoc false
  # One checkpoint of a server's session, taken in a worker process: sealed by
  # the NIF (a delta against the chain's last record, or a full snapshot that
  # starts a new chain), written to the store, and only then committed as the
  # base of the next delta. Also: restoring a stored chain into a session.

  alias ExBashkit.{Native, Session, Store, Telemetry}

  @doc false
  # `{:ok, %{kind: :full | :delta, generation: g, bytes: n, snapshot: full_bytes | nil}}`
  # or `{:error, reason}`.
  def take(%Session{ref: ref}, job) do
    started = System.monotonic_time()
    next = job.generation + 1
    full? = job.full? or not Store.appends?()

    with {:ok, {kind, bytes}} <- seal(ref, job.key, full?),
         :ok <- store(kind, bytes, next, job),
         :ok <- Native.checkpoint_commit(ref) do
      Telemetry.event(
        [:ex_bashkit, :checkpoint, :stop],
        %{duration: System.monotonic_time() - started, bytes: byte_size(bytes)},
        %{name: job.name, kind: kind, generation: next}
      )

      snapshot = if kind == :full, do: bytes
      {:ok, %{kind: kind, generation: next, bytes: byte_size(bytes), snapshot: snapshot}}
    else
      {:error, :unsupported} -> take_full(ref, job)
      {:error, _} = e -> e
      other -> {:error, other}
    end
  end

  defp take_full(ref, job), do: take(%Session{ref: ref}, %{job | full?: true})

  defp seal(ref, key, full?) do
    tag = make_ref()

    case Native.checkpoint_start(ref, key, full?, self(), tag) do
      :ok -> receive(do: ({^tag, reply} -> reply))
      {:error, _} = e -> e
    end
  end

  defp store(:delta, bytes, next, job), do: Store.append(job.name, next, bytes)

  defp store(:full, bytes, next, job) do
    Store.put(%{
      name: job.name,
      options: job.options,
      server: job.server,
      generation: next,
      snapshot: bytes,
      deltas: []
    })
  end

  @doc false
  # Replace `session`'s state with the stored chain; it becomes the base of
  # the next delta.
  def restore(%Session{ref: ref}, full, deltas, key) do
    tag = make_ref()

    case Native.restore_chain_start(ref, full, deltas, key, self(), tag) do
      :ok -> receive(do: ({^tag, reply} -> reply))
      {:error, _} = e -> e
    end
  end
end
