defmodule ExBashkit.Store.Memory do
  @moduledoc """
  The in-memory `ExBashkit.Store`: an ETS table on each node, owned by the
  application. `get/2` looks here and on every connected node and returns the
  newest record (the highest generation), so a session hibernated on node A
  wakes when node B calls it. Records survive a crash of their server but die
  with their node; use `ExBashkit.Store.Disk` for that.
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
  def put(%{name: name, generation: gen} = record, _opts) do
    # Writes of one name come from its one server: a check, then the write.
    case local_get(name) do
      {:ok, %{generation: held}} when held >= gen ->
        {:error, :stale}

      _ ->
        deltas = Map.get(record, :deltas, [])
        record = Map.merge(record, %{deltas: deltas, base_generation: gen - length(deltas)})
        :ets.insert(@table, {name, %{record | deltas: Enum.reverse(deltas)}})
        # Older copies elsewhere (where the session lived before) would only be stale.
        for n <- Node.list(), do: :erpc.cast(n, __MODULE__, :drop_older, [name, gen])
        :ok
    end
  end

  @impl ExBashkit.Store
  def append(name, gen, delta, _opts) do
    case :ets.lookup(@table, name) do
      [{_, %{generation: held} = r}] when held == gen - 1 ->
        # Deltas are kept newest first in the table (a cons, not a copy).
        :ets.insert(@table, {name, %{r | generation: gen, deltas: [delta | r.deltas]}})
        :ok

      [_] ->
        {:error, :stale}

      [] ->
        # The session woke here from another node's record: it moves here.
        case get(name, []) do
          {:ok, %{generation: held} = r} when held == gen - 1 ->
            :ets.insert(
              @table,
              {name, %{r | generation: gen, deltas: [delta | Enum.reverse(r.deltas)]}}
            )

            for n <- Node.list(), do: :erpc.cast(n, __MODULE__, :drop_older, [name, gen])
            :ok

          {:ok, _} ->
            {:error, :stale}

          :error ->
            {:error, :not_found}
        end
    end
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
      records -> {:ok, Enum.max_by(records, &{Map.get(&1, :generation, 0), &1.saved_at})}
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
  # This node's record of `name`, deltas oldest first.
  def local_get(name) do
    case :ets.whereis(@table) != :undefined and :ets.lookup(@table, name) do
      [{_, record}] -> {:ok, Map.update(record, :deltas, [], &Enum.reverse/1)}
      _ -> :error
    end
  end

  @doc false
  def drop_older(name, generation) do
    case :ets.whereis(@table) != :undefined and :ets.lookup(@table, name) do
      [{_, %{generation: g}}] when g < generation -> :ets.delete(@table, name)
      _ -> :ok
    end
  end
end
