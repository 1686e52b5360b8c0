defmodule ExBashkit.Store.Memory do
  @moduledoc """
  The in-memory `ExBashkit.Store`: an ETS table on each node, owned by the
  application. `get/2` looks here and on every connected node and returns the
  newest record, so a session hibernated on node A wakes when node B calls
  it. Records die with their node; use `ExBashkit.Store.Disk` for failover.
  """
  @behaviour ExBashkit.Store
  use GenServer

  @table __MODULE__

  @doc false
  def start_link(_), do: GenServer.start_link(__MODULE__, nil, name: __MODULE__)

  @impl GenServer
  def init(nil) do
    :ets.new(@table, [:named_table, :public, :set, read_concurrency: true])
    {:ok, nil}
  end

  @impl ExBashkit.Store
  def put(%{name: name} = record, _opts) do
    :ets.insert(@table, {name, record})
    # Older copies elsewhere (where the session lived before) would only be stale.
    for n <- Node.list(), do: :erpc.cast(n, __MODULE__, :drop_older, [name, record.saved_at])
    :ok
  end

  @impl ExBashkit.Store
  def get(name, _opts) do
    remote =
      Node.list()
      |> :erpc.multicall(__MODULE__, :local_get, [name], 5_000)
      |> Enum.flat_map(fn
        {:ok, {:ok, r}} -> [r]
        _ -> []
      end)

    local =
      case local_get(name) do
        {:ok, r} -> [r]
        :error -> []
      end

    case local ++ remote do
      [] -> :error
      records -> {:ok, Enum.max_by(records, & &1.saved_at)}
    end
  end

  @impl ExBashkit.Store
  def delete(name, _opts) do
    :ets.delete(@table, name)
    for n <- Node.list(), do: :erpc.cast(n, :ets, :delete, [@table, name])
    :ok
  end

  @impl ExBashkit.Store
  def names(_opts), do: :ets.select(@table, [{{:"$1", :_}, [], [:"$1"]}])

  @doc false
  def local_get(name) do
    case :ets.whereis(@table) != :undefined and :ets.lookup(@table, name) do
      [{_, record}] -> {:ok, record}
      _ -> :error
    end
  end

  @doc false
  def drop_older(name, saved_at) do
    case local_get(name) do
      {:ok, %{saved_at: t}} when t < saved_at -> :ets.delete(@table, name)
      _ -> :ok
    end
  end
end
