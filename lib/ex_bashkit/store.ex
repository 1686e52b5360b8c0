defmodule ExBashkit.Store do
  @moduledoc """
  Where `ExBashkit.Server` keeps sealed sessions: the snapshot a server takes
  when it hibernates or checkpoints, with what it needs to start again (the
  session's options). One record per session name; a newer record replaces
  the older.

  Two stores come built in:

    * `ExBashkit.Store.Memory` (the default) - an ETS table on each node; a
      lookup also asks the connected nodes and takes the newest record, so a
      session hibernated on one node wakes on another while that node lives.
    * `ExBashkit.Store.Disk` - one file per session in a directory
      (`dir:` option), written atomically (a temporary file, `fsync`, then
      `rename`), so a crash never leaves half a record. With a directory
      every node sees (or one per machine, as in tests), it survives a node's
      death: failover restarts the session from its last record.

  Choose one with `config :ex_bashkit, store: {ExBashkit.Store.Disk, dir: "/var/lib/app/sessions"}`.

  A record is a map: `:name`, `:snapshot` (sealed bytes, or `nil` for a
  session never checkpointed), `:options` (the `ExBashkit.Session.new/1`
  options), `:server` (the server's own options) and `:saved_at` (a
  strictly increasing integer across the cluster's clocks, for picking the
  newest).
  """

  @type name :: term()
  @type record :: %{
          name: name(),
          snapshot: binary() | nil,
          options: keyword(),
          server: keyword(),
          saved_at: integer()
        }

  @doc "Save `record` under its name, replacing any older one."
  @callback put(record(), opts :: keyword()) :: :ok | {:error, term()}
  @doc "The newest record of `name`."
  @callback get(name(), opts :: keyword()) :: {:ok, record()} | :error
  @doc "Forget `name`."
  @callback delete(name(), opts :: keyword()) :: :ok
  @doc "The names the store holds."
  @callback names(opts :: keyword()) :: [name()]

  @doc false
  def configured do
    case ExBashkit.Config.get().server do
      %{store: {mod, opts}} -> {mod, opts}
      _ -> {ExBashkit.Store.Memory, []}
    end
  end

  @doc false
  def put(record), do: with_store(fn mod, opts -> mod.put(record, opts) end)
  @doc false
  def get(name), do: with_store(fn mod, opts -> mod.get(name, opts) end)
  @doc false
  def delete(name), do: with_store(fn mod, opts -> mod.delete(name, opts) end)

  defp with_store(fun) do
    {mod, opts} = configured()
    fun.(mod, opts)
  end

  @doc false
  # Newer than any record saved before, on any node whose clock is sane.
  def stamp,
    do: System.os_time(:microsecond) * 1000 + rem(System.unique_integer([:positive]), 1000)
end
