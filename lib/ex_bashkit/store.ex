defmodule ExBashkit.Store do
  @moduledoc """
  Where `ExBashkit.Server` keeps its sessions' checkpoints: per session name, a
  full snapshot and the incremental records (deltas) written after it, with
  what the session needs to start again (its options).

  Two stores come built in:

    * `ExBashkit.Store.Memory` (the default) - an ETS table on each node; a
      lookup also asks the connected nodes and takes the newest record, so a
      session hibernated on one node wakes on another while that node lives.
      Its records survive a crash of a server, not of their node.
    * `ExBashkit.Store.Disk` - files in a directory (`dir:` option): a full
      record written atomically (a temporary file, `fsync`, `rename`) and an
      append-only log of deltas, each `fsync`ed before the call that made it
      returns. A torn or corrupt record is detected by its checksum, reported
      in the log, and never loaded. With a directory every node sees (or one
      per machine), it survives the death of a node.

  Choose one with `config :ex_bashkit, store: {ExBashkit.Store.Disk, dir: "/var/lib/app/sessions"}`.

  ## Records and generations

  A record is a map: `:name`, `:options` (the `ExBashkit.Session.new/1`
  options), `:server` (the server's own options), `:generation` (the number of
  the newest checkpoint in it), `:snapshot` (the full snapshot, sealed, or
  `nil` for a session never checkpointed, started from its options),
  `:base_generation` (the generation of that full snapshot), `:deltas` (the
  sealed deltas after it, oldest first, generations `base_generation + 1` up
  to `generation`) and `:saved_at` (a timestamp).

  Generations only go up: a store refuses (`{:error, :stale}`) a `put/2` whose
  generation is not above the one it holds and an `append/4` that does not
  follow its newest record, so an older or empty state is never written over
  a newer one, whoever tries (a server that lost its node's connection and
  still runs, say). The deltas are also chained by their seals: each names the
  record it follows, and restoring checks every link.

  A store of your own implements `put/2`, `get/2`, `delete/2`, `names/1` and,
  to get incremental checkpoints, `append/4` (without it every checkpoint is a
  full `put/2`).
  """

  @type name :: term()
  @type record :: %{
          required(:name) => name(),
          required(:options) => keyword(),
          required(:server) => keyword(),
          required(:generation) => non_neg_integer(),
          required(:snapshot) => binary() | nil,
          optional(:base_generation) => non_neg_integer(),
          optional(:deltas) => [binary()],
          optional(:saved_at) => integer()
        }

  @doc """
  Save `record` (a full snapshot and its deltas, usually none) under its name,
  replacing what was there. `{:error, :stale}` if the store holds a
  generation as high or higher.
  """
  @callback put(record(), opts :: keyword()) :: :ok | {:error, term()}
  @doc """
  Add the delta of `generation` to the record of `name`: durable when this
  returns `:ok`. `{:error, :stale}` unless the newest generation held is
  `generation - 1`.
  """
  @callback append(name(), generation :: pos_integer(), delta :: binary(), opts :: keyword()) ::
              :ok | {:error, term()}
  @doc "The newest record of `name`; `{:error, reason}` when what is stored is corrupt."
  @callback get(name(), opts :: keyword()) :: {:ok, record()} | :error | {:error, term()}
  @doc "Forget `name`."
  @callback delete(name(), opts :: keyword()) :: :ok
  @doc "The names the store holds."
  @callback names(opts :: keyword()) :: [name()]

  @optional_callbacks append: 4

  @doc false
  def configured do
    case ExBashkit.Config.get().server do
      %{store: {mod, opts}} -> {mod, opts}
      _ -> {ExBashkit.Store.Memory, []}
    end
  end

  @doc false
  def put(record),
    do:
      with_store(fn mod, opts ->
        mod.put(Map.merge(%{deltas: [], saved_at: stamp()}, record), opts)
      end)

  @doc false
  # `{:error, :unsupported}` for a store without `append/4`.
  def append(name, generation, delta) do
    with_store(fn mod, opts ->
      if function_exported?(mod, :append, 4),
        do: mod.append(name, generation, delta, opts),
        else: {:error, :unsupported}
    end)
  end

  @doc false
  # Whether the configured store takes deltas.
  def appends? do
    {mod, _} = configured()
    Code.ensure_loaded(mod)
    function_exported?(mod, :append, 4)
  end

  @doc false
  def get(name) do
    with_store(fn mod, opts ->
      case mod.get(name, opts) do
        {:ok, r} -> {:ok, normalize(r)}
        other -> other
      end
    end)
  end

  @doc false
  def delete(name), do: with_store(fn mod, opts -> mod.delete(name, opts) end)

  # Records written before generations existed hold one full snapshot.
  defp normalize(r) do
    gen = Map.get(r, :generation, 0)

    r
    |> Map.put(:generation, gen)
    |> Map.put_new(:base_generation, gen)
    |> Map.put_new(:deltas, [])
    |> Map.put_new(:saved_at, 0)
  end

  defp with_store(fun) do
    {mod, opts} = configured()
    Code.ensure_loaded(mod)
    fun.(mod, opts)
  end

  @doc false
  # A timestamp for ordering records of one generation (newer than any saved
  # before, on any node whose clock is sane).
  def stamp,
    do: System.os_time(:microsecond) * 1000 + rem(System.unique_integer([:positive]), 1000)
end
