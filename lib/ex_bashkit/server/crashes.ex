defmodule ExBashkit.Server.Crashes do
  @moduledoc false
  # The crash history of this node's servers, so a session that keeps crashing
  # backs off and then stops on its own, without a supervisor's restart
  # intensity being spent on it (servers are `:temporary`: no supervisor
  # restarts them; the next call wakes a crashed one from its newest
  # checkpoint, as it would a hibernated one).
  #
  # Every server is monitored from its `init`. An abnormal exit is recorded;
  # a wake within the backoff after the n-th crash of the last minute waits
  # (100 ms, doubling per crash, at most 5 s); after 5 crashes in a minute
  # calls answer `{:error, {:crash_loop, reason}}` until the oldest of them
  # is a minute old.
  use GenServer

  @table __MODULE__
  @window_ms 60_000
  @max_crashes 5
  @base_ms 100
  @max_wait_ms 5_000

  def max_crashes, do: @max_crashes

  def start_link(_), do: GenServer.start_link(__MODULE__, nil, name: __MODULE__)

  @doc false
  # Watch `pid`, the server of `name` (a call: the monitor is set before the
  # server goes on, so no crash goes unseen).
  def watch(name, pid) do
    GenServer.call(__MODULE__, {:watch, name, pid})
  catch
    :exit, _ -> :ok
  end

  @doc false
  # Whether `name` may be woken now: `:ok`, `{:wait, ms}` or `{:crash_loop, reason}`.
  def check(name) do
    now = now()

    case lookup(name) do
      [] ->
        :ok

      [{_, times, reason}] ->
        case Enum.filter(times, &(now - &1 < @window_ms)) do
          [] ->
            :ok

          recent when length(recent) >= @max_crashes ->
            {:crash_loop, reason}

          [last | _] = recent ->
            wait = min(@base_ms * Integer.pow(2, length(recent) - 1), @max_wait_ms)
            if now - last >= wait, do: :ok, else: {:wait, wait - (now - last)}
        end
    end
  end

  @doc false
  def forget(name) do
    if :ets.whereis(@table) != :undefined, do: :ets.delete(@table, name)
    :ok
  end

  defp lookup(name) do
    if :ets.whereis(@table) != :undefined, do: :ets.lookup(@table, name), else: []
  end

  defp now, do: System.monotonic_time(:millisecond)

  @impl true
  def init(nil) do
    :ets.new(@table, [:named_table, :public, :set, read_concurrency: true])
    {:ok, %{}}
  end

  @impl true
  def handle_call({:watch, name, pid}, _from, watched) do
    ref = Process.monitor(pid)
    {:reply, :ok, Map.put(watched, ref, name)}
  end

  @impl true
  def handle_info({:DOWN, ref, :process, _pid, reason}, watched) do
    {name, watched} = Map.pop(watched, ref)

    if name != nil and not clean?(reason) do
      now = now()

      times =
        case :ets.lookup(@table, name) do
          [{_, t, _}] -> Enum.filter(t, &(now - &1 < @window_ms))
          [] -> []
        end

      :ets.insert(@table, {name, Enum.take([now | times], @max_crashes), reason})
    end

    {:noreply, watched}
  end

  def handle_info(_, watched), do: {:noreply, watched}

  defp clean?(reason), do: reason in [:normal, :shutdown] or match?({:shutdown, _}, reason)
end
