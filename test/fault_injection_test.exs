defmodule ExBashkit.FaultInjectionTest do
  # A model-based fault-injection test of ExBashkit.Server on real nodes (this
  # one and two `:peer` nodes) sharing one disk store: random sequences of
  # exec, file API calls, hibernation, migration, kills of a server, kills of
  # a whole node (halted, no cleanup) and restarts of the application on a
  # node, with a check after every step that every acknowledged change is
  # there.
  #
  # The model holds, for each variable and file of each session, the values
  # it may have: one after an acknowledged call; the old and the new ones
  # after a call whose outcome is unknown (it failed because its server or
  # node died, say). A check reads every key with an exec (which is itself
  # acknowledged, and so durable) and must find one of the values allowed;
  # what it finds is what the key holds from then on.
  #
  #   FAULT_STEPS=20000 FAULT_SEED=1234 mix test test/fault_injection_test.exs
  #
  # The seed fixes the sequence of steps; timing (which call a kill catches in
  # flight) still varies from run to run.
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Server, Store, TestNodes}

  @moduletag timeout: :infinity
  @sessions 3
  @keys 4
  # Weights of the steps.
  @ops [
    exec: 40,
    file_api: 12,
    hibernate: 6,
    migrate: 8,
    kill_server: 8,
    kill_node: 1,
    restart_app: 1
  ]

  setup_all do
    TestNodes.ensure_distributed()
    dir = Path.join(System.tmp_dir!(), "ex_bashkit_faults_#{System.unique_integer([:positive])}")
    store = {Store.Disk, dir: dir}
    Application.put_env(:ex_bashkit, :store, store)
    on_exit(fn -> File.rm_rf(dir) end)
    on_exit(fn -> Application.delete_env(:ex_bashkit, :store) end)
    %{store: store}
  end

  test "every acknowledged change survives random kills of servers and nodes", %{store: store} do
    steps = String.to_integer(System.get_env("FAULT_STEPS", "1500"))

    seed =
      String.to_integer(System.get_env("FAULT_SEED", Integer.to_string(:rand.uniform(1_000_000))))

    IO.puts(
      "\nfault injection: #{steps} steps, seed #{seed} (FAULT_SEED=#{seed} to run it again)"
    )

    :rand.seed(:exsss, {seed, seed * 7 + 1, seed * 13 + 2})
    # A peer's controller is linked to this process; a halted node must not take it down.
    Process.flag(:trap_exit, true)

    peers = for tag <- ["x", "y"], into: %{}, do: TestNodes.start_peer(tag, store: store)
    names = for i <- 1..@sessions, do: "faulty-#{seed}-#{i}"

    for n <- names,
        do: {:ok, _} = Server.start(n, hibernate_after_ms: :infinity, durability: :sync)

    model = Map.new(names, &{&1, %{}})
    world = %{peers: peers, model: model, names: names, store: store, stats: %{}, step: 0}

    world =
      Enum.reduce(1..steps, world, fn i, w ->
        w = %{w | step: i}
        forget_crashes(w)
        op = pick(@ops)
        w = step(op, w)
        w = check_all(w)
        %{w | stats: Map.update(w.stats, op, 1, &(&1 + 1))}
      end)

    IO.puts("fault injection: done, steps by kind #{inspect(world.stats)}")
    for n <- names, do: Server.stop(n)
    for {_node, peer} <- world.peers, do: TestNodes.stop_peer(peer)
  end

  # --- steps ----------------------------------------------------------------

  defp step(:exec, w) do
    name = Enum.random(w.names)
    changes = for _ <- 1..Enum.random(1..3), do: change(w.step)
    script = Enum.map_join(changes, "; ", &script/1)
    outcome = if ok?(call(w, :exec, [name, script])), do: :acked, else: :unknown
    update(w, name, changes, outcome)
  end

  defp step(:file_api, w) do
    name = Enum.random(w.names)
    k = Enum.random(1..@keys)
    token = "a#{w.step}"

    case Enum.random([:write, :remove]) do
      :write ->
        r = call(w, :write_file, [name, "/d/f#{k}", token <> "\n"])
        update(w, name, [{:write, k, token}], outcome(r))

      :remove ->
        r = call(w, :remove, [name, "/d/f#{k}"])
        update(w, name, [{:rm, k}], outcome(r))
    end
  end

  defp step(:hibernate, w) do
    _ = call(w, :hibernate, [Enum.random(w.names)])
    w
  end

  defp step(:migrate, w) do
    _ = call(w, :migrate, [Enum.random(w.names), Enum.random(nodes(w))])
    w
  end

  defp step(:kill_server, w) do
    name = Enum.random(w.names)

    case Server.whereis(name) do
      nil -> :ok
      pid -> :erpc.call(node(pid), Process, :exit, [pid, :kill])
    end

    w
  catch
    _, _ -> w
  end

  defp step(:kill_node, w) do
    {dead, _peer} = Enum.random(w.peers)
    # Halted: no cleanup, as a kill of its OS process.
    :erpc.cast(dead, :erlang, :halt, [137, [flush: false]])
    wait_until(fn -> dead not in Node.list() end)
    flush_exits()
    {node, peer} = TestNodes.start_peer("r#{w.step}", store: w.store)
    %{w | peers: w.peers |> Map.delete(dead) |> Map.put(node, peer)}
  end

  defp step(:restart_app, w) do
    node = Enum.random(Map.keys(w.peers))
    :ok = :erpc.call(node, Application, :stop, [:ex_bashkit], 60_000)
    {:ok, _} = :erpc.call(node, Application, :ensure_all_started, [:ex_bashkit], 60_000)
    w
  end

  # --- the model --------------------------------------------------------------

  defp change(step) do
    k = Enum.random(1..@keys)
    token = "t#{step}x#{:rand.uniform(99)}"

    Enum.random([
      {:set, k, token},
      {:set, k, token},
      {:unset, k},
      {:write, k, token},
      {:append, k, token},
      {:rm, k}
    ])
  end

  defp script({:set, k, t}), do: "v#{k}=#{t}"
  defp script({:unset, k}), do: "unset v#{k}"
  defp script({:write, k, t}), do: "mkdir -p /d; echo #{t} > /d/f#{k}"
  defp script({:append, k, t}), do: "mkdir -p /d; echo #{t} >> /d/f#{k}"
  defp script({:rm, k}), do: "rm -f /d/f#{k}"

  defp key({op, k, _}) when op in [:set], do: {:var, k}
  defp key({:unset, k}), do: {:var, k}
  defp key({_, k, _}), do: {:file, k}
  defp key({:rm, k}), do: {:file, k}

  defp apply_change({:set, _, t}, _old), do: t
  defp apply_change({:unset, _}, _old), do: :absent
  defp apply_change({:write, _, t}, _old), do: t <> ","
  defp apply_change({:append, _, t}, :absent), do: t <> ","
  defp apply_change({:append, _, t}, old), do: old <> t <> ","
  defp apply_change({:rm, _}, _old), do: :absent

  # The values each key may hold after `changes` (applied in order).
  defp update(w, _name, _changes, :refused), do: w

  defp update(w, name, changes, outcome) do
    m =
      Enum.reduce(changes, w.model[name], fn c, m ->
        k = key(c)

        case Map.get(m, k, [:absent]) do
          :any ->
            m

          old ->
            new = Enum.uniq(Enum.map(old, &apply_change(c, &1)))
            may = if outcome == :acked, do: new, else: Enum.uniq(old ++ new)
            # Unknown outcomes pile up: past a bound, anything goes until the next check.
            Map.put(m, k, if(length(may) > 64, do: :any, else: may))
        end
      end)

    %{w | model: Map.put(w.model, name, m)}
  end

  @check """
  for k in 1 2 3 4; do n=v$k; if [ -n "${!n+x}" ]; then echo "var $k ${!n}"; fi; done
  for k in 1 2 3 4; do if [ -f /d/f$k ]; then echo "file $k $(tr '\\n' , < /d/f$k)"; fi; done
  """

  # Read every key of every session (from a random node) and hold it to the model.
  defp check_all(w) do
    Enum.reduce(w.names, w, fn name, w ->
      case call(w, :exec, [name, @check]) do
        {:ok, %Result{stdout: out}} ->
          seen = parse(out)
          m = w.model[name]

          for kind <- [:var, :file], k <- 1..@keys do
            actual = Map.get(seen, {kind, k}, :absent)

            case Map.get(m, {kind, k}, [:absent]) do
              :any ->
                :ok

              allowed ->
                assert actual in allowed,
                       "step #{w.step}: session #{name} #{kind} #{k} is #{inspect(actual)}, " <>
                         "the acknowledged calls allow only #{inspect(allowed)}"
            end
          end

          # What the check saw is durable now (the check was acknowledged).
          %{w | model: Map.put(w.model, name, seen_model(seen))}

        _ ->
          w
      end
    end)
  end

  defp seen_model(seen) do
    for kind <- [:var, :file],
        k <- 1..@keys,
        into: %{},
        do: {{kind, k}, [Map.get(seen, {kind, k}, :absent)]}
  end

  defp parse(out) do
    for line <- String.split(out, "\n", trim: true), into: %{} do
      case String.split(line, " ", parts: 3) do
        ["var", k, v] -> {{:var, String.to_integer(k)}, v}
        ["file", k, v] -> {{:file, String.to_integer(k)}, v}
      end
    end
  end

  # --- plumbing -------------------------------------------------------------

  defp nodes(w), do: [node() | Map.keys(w.peers)]

  # A call from a random node; a node that died under it is an unknown outcome.
  defp call(w, fun, args) do
    node = Enum.random(nodes(w))

    if node == node(),
      do: apply(Server, fun, args),
      else: :erpc.call(node, Server, fun, args, 120_000)
  catch
    kind, reason -> {:error, {:call_failed, kind, reason}}
  end

  defp ok?({:ok, _}), do: true
  defp ok?(_), do: false

  # A file call: done, refused by the session (it ran: nothing changed), or unknown.
  defp outcome(:ok), do: :acked
  defp outcome({:error, msg}) when is_binary(msg), do: :refused
  defp outcome(_), do: :unknown

  # The backoff of crash loops has tests of its own; here servers are killed
  # far more often than any real one crashes.
  defp forget_crashes(w) do
    for n <- nodes(w), name <- w.names do
      try do
        :erpc.call(n, ExBashkit.Server.Crashes, :forget, [name], 10_000)
      catch
        _, _ -> :ok
      end
    end
  end

  defp pick(weights) do
    total = weights |> Keyword.values() |> Enum.sum()
    r = :rand.uniform(total)

    Enum.reduce_while(weights, r, fn {op, wt}, left ->
      if left <= wt, do: {:halt, op}, else: {:cont, left - wt}
    end)
  end

  defp wait_until(fun, tries \\ 2000) do
    cond do
      fun.() -> :ok
      tries == 0 -> flunk("timed out waiting")
      true -> Process.sleep(5) && wait_until(fun, tries - 1)
    end
  end

  defp flush_exits do
    receive do
      {:EXIT, _, _} -> flush_exits()
    after
      0 -> :ok
    end
  end
end
