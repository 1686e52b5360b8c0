defmodule ExBashkit.DurabilityTest do
  # ExBashkit.Server with the disk store, broken on purpose on one node: what a
  # call acknowledged survives a kill of its server or supervisor; restarts go
  # forward only; checkpoints are deltas that cost what the call changed; torn
  # and corrupt records; idle hibernation; a crash-looping session next to 100
  # others; the flat error shapes. (Real nodes: fault_injection_test.exs.)
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Server, Store}

  @moduletag timeout: 300_000

  setup do
    dir = Path.join(System.tmp_dir!(), "ex_bashkit_durable_#{System.unique_integer([:positive])}")
    Application.put_env(:ex_bashkit, :store, {Store.Disk, dir: dir})

    on_exit(fn ->
      Application.delete_env(:ex_bashkit, :store)
      File.rm_rf(dir)
    end)

    %{dir: dir}
  end

  defp uniq(tag), do: "#{tag}-#{System.unique_integer([:positive])}"

  defp eventually(fun, tries \\ 1200) do
    case fun.() do
      v when v in [nil, false] and tries > 0 ->
        Process.sleep(10)
        eventually(fun, tries - 1)

      v ->
        v
    end
  end

  defp kill(pid) do
    ref = Process.monitor(pid)
    Process.exit(pid, :kill)
    assert_receive {:DOWN, ^ref, :process, ^pid, :killed}, 10_000
  end

  test "an acknowledged exec and file call survive a kill of the server", %{dir: dir} do
    name = uniq("kill")
    {:ok, pid} = Server.start(name, hibernate_after_ms: :infinity)
    assert {:ok, _} = Server.exec(name, "x=1; echo data > /f; f() { echo fn; }")
    assert :ok = Server.write_file(name, "/g", "api\n")
    kill(pid)

    assert Server.whereis(name) == nil

    assert {:ok, %Result{stdout: "1 data api fn\n"}} =
             Server.exec(name, "echo $x $(cat /f /g) $(f)")

    # The restart went on from the newest checkpoint and wrote nothing older.
    {:ok, r} = Store.get(name)
    assert r.generation >= 3
    assert length(r.deltas) >= 2
    assert [_] = Path.wildcard(Path.join(dir, "*.log"))
    pid2 = Server.whereis(name)
    kill(pid2)
    assert {:ok, %Result{stdout: "1\n"}} = Server.exec(name, "echo $x")
    Server.stop(name)
  end

  test "a kill of the servers' supervisor loses nothing acknowledged" do
    names = for i <- 1..5, do: uniq("sup#{i}")

    for n <- names do
      {:ok, _} = Server.start(n, hibernate_after_ms: :infinity)
      {:ok, _} = Server.exec(n, "v=#{n}; echo #{n} > /n")
    end

    sup = Process.whereis(ExBashkit.ServerSupervisor)
    kill(sup)
    assert eventually(fn -> Process.whereis(ExBashkit.ServerSupervisor) not in [nil, sup] end)

    for n <- names do
      assert {:ok, %Result{stdout: out}} = Server.exec(n, "echo $v; cat /n")
      assert out == "#{n}\n#{n}\n"
      Server.stop(n)
    end
  end

  test "generations only go up: an older or empty state is never written over a newer one" do
    name = uniq("gen")
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)
    {:ok, _} = Server.exec(name, "x=1")
    {:ok, _} = Server.exec(name, "x=2")
    {:ok, r} = Store.get(name)
    g = r.generation

    # What an old copy of the server, or a fresh start, would write.
    assert {:error, :stale} = Store.put(%{r | generation: g - 1, snapshot: nil, deltas: []})
    assert {:error, :stale} = Store.put(%{r | generation: g, snapshot: nil, deltas: []})
    assert {:error, :stale} = Store.append(name, g, "delta")
    assert {:error, :stale} = Store.append(name, g + 2, "delta")
    assert {:error, {:already_started, _}} = Server.start(name)
    assert {:ok, %Result{stdout: "2\n"}} = Server.exec(name, "echo $x")
    :ok = Server.hibernate(name)
    # Starting a stored name wakes it instead of starting it afresh.
    assert {:error, {:already_started, _}} = Server.start(name, files: %{"/other" => "x"})
    assert {:ok, %Result{stdout: "2\n"}} = Server.exec(name, "echo $x; ls /other 2>/dev/null")
    Server.stop(name)
  end

  test "a checkpoint costs what the exec changed, not the session's size" do
    name = uniq("cost")
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)

    {:ok, _} =
      Server.exec(
        name,
        "mkdir /big; for i in $(seq 8); do head -c 500000 /dev/urandom > /big/f$i; done"
      )

    {:ok, r} = Store.get(name)
    big = byte_size(r.snapshot || "") + Enum.sum(Enum.map(r.deltas, &byte_size/1))
    assert big > 4_000_000

    for i <- 1..5, do: {:ok, _} = Server.exec(name, "n=#{i}; echo #{i} > /small")
    {:ok, r2} = Store.get(name)
    new = Enum.drop(r2.deltas, length(r.deltas))
    assert length(new) == 5
    assert Enum.all?(new, &(byte_size(&1) < 4_000)), inspect(Enum.map(new, &byte_size/1))
    Server.stop(name)
  end

  test "deltas are compacted into a full snapshot now and then" do
    name = uniq("compact")
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)
    # Each call rewrites a 40 KB file: the deltas soon add up to the snapshot.
    for i <- 1..12, do: {:ok, _} = Server.exec(name, "head -c 40000 /dev/urandom > /f; i=#{i}")
    {:ok, r} = Store.get(name)
    assert r.base_generation > 1
    assert length(r.deltas) < 12
    assert {:ok, %Result{stdout: "12 40000\n"}} = Server.exec(name, "echo $i $(wc -c < /f)")
    Server.stop(name)
  end

  @tag :capture_log
  test "a torn last frame is cut off and reported; a damaged one before others is never loaded",
       %{dir: dir} do
    name = uniq("torn")
    {:ok, pid} = Server.start(name, hibernate_after_ms: :infinity)
    for i <- 1..3, do: {:ok, _} = Server.exec(name, "v=#{i}")
    kill(pid)
    [log] = Path.wildcard(Path.join(dir, "*.log"))
    good = File.read!(log)

    # A frame half written when the node died: its call never returned.
    File.write!(log, good <> binary_part(good, byte_size(good) - 100, 60))
    assert {:ok, %Result{stdout: "3\n"}} = Server.exec(name, "echo $v")
    kill(Server.whereis(name))
    # Cut off where it was torn; that exec's own checkpoint follows.
    assert <<^good::binary-size(byte_size(good)), "EXBF", _::binary>> = File.read!(log)
    good = File.read!(log)

    # A byte of an acknowledged frame, with frames after it: corrupt.
    at = 80
    <<a::binary-size(at), b, rest::binary>> = good
    File.write!(log, [a, Bitwise.bxor(b, 0xFF), rest])
    assert {:error, {:corrupt_record, why}} = Server.exec(name, "echo $v")
    assert why =~ ".log"
    assert Server.whereis(name) == nil
    Server.stop(name)
  end

  test "hibernating while calls and checkpoints are in flight: every call is answered, nothing lost" do
    name = uniq("busy-hibernate")
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)

    for round <- 1..5 do
      calls =
        for i <- 1..20 do
          Task.async(fn ->
            if rem(i, 2) == 0,
              do: Server.exec(name, "v#{i}=#{round}"),
              else: Server.write_file(name, "/f#{i}", "#{round}")
          end)
        end

      Process.sleep(round)
      assert :ok = Server.hibernate(name)
      results = Task.await_many(calls, 60_000)
      assert Enum.all?(results, &(match?({:ok, _}, &1) or &1 == :ok)), inspect(results)

      assert {:ok, %Result{stdout: out}} = Server.exec(name, "echo $v2 $v20 $(cat /f1 /f19)")

      assert out == "#{round} #{round} #{round}#{round}\n"
    end

    Server.stop(name)
  end

  test "interval mode answers before its checkpoint and writes it within the window" do
    name = uniq("interval")

    {:ok, _} =
      Server.start(name,
        durability: :interval,
        checkpoint_after_ms: 300,
        hibernate_after_ms: :infinity
      )

    {:ok, r0} = Store.get(name)
    {:ok, _} = Server.exec(name, "x=1")
    {:ok, r1} = Store.get(name)
    # Not yet written when the call returned...
    assert r1.generation == r0.generation
    # ...and written once the window passed.
    assert eventually(fn ->
             match?({:ok, %{generation: g}} when g > r0.generation, Store.get(name))
           end)

    kill(Server.whereis(name))
    assert {:ok, %Result{stdout: "1\n"}} = Server.exec(name, "echo $x")
    Server.stop(name)
  end

  test "idle hibernation counts from the last call, whatever the checkpoint interval" do
    for opts <- [[], [durability: :interval, checkpoint_after_ms: :infinity]] do
      name = uniq("idle")
      {:ok, pid} = Server.start(name, [hibernate_after_ms: 400] ++ opts)
      ref = Process.monitor(pid)
      {:ok, _} = Server.exec(name, "kept=yes")
      t0 = System.monotonic_time(:millisecond)
      # status/1 is no call: it does not keep the session awake.
      for _ <- 1..5 do
        assert {:live, _} = Server.status(name)
        Process.sleep(20)
      end

      assert_receive {:DOWN, ^ref, :process, ^pid, :normal}, 10_000
      waited = System.monotonic_time(:millisecond) - t0
      assert waited >= 350 and waited < 5_000, "hibernated after #{waited} ms"
      assert Server.status(name) == :stored
      assert {:ok, %Result{stdout: "yes\n"}} = Server.exec(name, "echo $kept")
      Server.stop(name)
    end

    # Calls keep it awake.
    name = uniq("busy")
    {:ok, pid} = Server.start(name, hibernate_after_ms: 1_000, files: %{"/f" => "x"})

    for _ <- 1..15 do
      assert {:ok, "x"} = Server.read_file(name, "/f")
      Process.sleep(100)
    end

    assert Server.whereis(name) == pid
    Server.stop(name)
  end

  defmodule Killer do
    @moduledoc false
    # A builtin that kills the server of the session running it.
    def builtin(name), do: fn _ -> Process.exit(Server.whereis(name), :kill) && {:ok, ""} end
  end

  test "a crash-looping session backs off and stops; 100 others are untouched" do
    others = for i <- 1..100, do: uniq("neighbour#{i}")

    pids =
      for n <- others do
        {:ok, pid} = Server.start(n, hibernate_after_ms: :infinity)
        {:ok, _} = Server.exec(n, "mine=#{n}")
        pid
      end

    sup = Process.whereis(ExBashkit.ServerSupervisor)
    bad = uniq("looper")

    {:ok, _} =
      Server.start(bad, builtins: %{"die" => Killer.builtin(bad)}, hibernate_after_ms: :infinity)

    {:ok, _} = Server.exec(bad, "before=1")

    results = for _ <- 1..8, do: Server.exec(bad, "die")
    assert Enum.all?(results, &match?({:error, _}, &1)), inspect(results)
    assert {:error, {:server_down, :killed}} = hd(results)
    assert {:error, {:crash_loop, :killed}} = List.last(results)
    assert {:error, {:crash_loop, :killed}} = Server.exec(bad, "echo $before")

    # The neighbours and their supervisor never noticed.
    assert Process.whereis(ExBashkit.ServerSupervisor) == sup

    for {n, pid} <- Enum.zip(others, pids) do
      assert Server.whereis(n) == pid
      assert {:ok, %Result{stdout: out}} = Server.exec(n, "echo $mine")
      assert out == n <> "\n"
      Server.stop(n)
    end

    # Stopping it forgets its crashes; its store record goes too.
    assert :ok = Server.stop(bad)
    assert Server.status(bad) == :unknown
  end

  test "error shapes: flat errors, raises on bad arguments, nil config means the default" do
    name = uniq("shapes")
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)
    assert_raise ArgumentError, ~r/script must be a binary/, fn -> Server.exec(name, :foo) end
    assert_raise ArgumentError, fn -> Server.exec(name, "true", bogus: 1) end
    assert_raise ArgumentError, fn -> Server.migrate(name, "node") end
    assert {:error, :not_found} = Server.exec(uniq("nobody"), "true")
    # The server is fine after the raises.
    assert {:ok, %Result{stdout: "ok\n"}} = Server.exec(name, "echo ok")
    Server.stop(name)

    for {k, v} <- [max_reply_bytes: nil, max_timeout_ms: nil, hibernate_after_ms: nil],
        do: Application.put_env(:ex_bashkit, k, v)

    try do
      s = ExBashkit.Session.new()
      assert {:ok, %Result{stdout: "1\n"}} = ExBashkit.Session.exec(s, "echo 1")
      {:ok, _} = Server.start(name)
      assert {:ok, _} = Server.exec(name, "true")
      Server.stop(name)
    after
      for k <- [:max_reply_bytes, :max_timeout_ms, :hibernate_after_ms],
          do: Application.delete_env(:ex_bashkit, k)
    end
  end
end
