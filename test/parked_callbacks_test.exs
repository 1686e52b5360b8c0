defmodule ExBashkit.ParkedCallbacksTest do
  # A callback made in an exec's slice on the caller's scheduler parks the
  # exec there: the broker's answer resumes it in `callback_reply/3`, with no
  # runtime thread to wake. Anything else that must make it go on (its
  # deadline, a cancel, the death of its caller or broker, a long stretch of
  # work) moves it to the runtime. These tests hold both halves: the short
  # round trip is the one taken, and no process death strands a session.
  use ExUnit.Case, async: true

  alias ExBashkit.{Native, Result, Session}

  defp run(session, script, opts \\ []) do
    {:ok, %Result{} = r} = Session.exec(session, script, opts)
    {r.stdout, r.stderr, r.exit_code}
  end

  defp upcase(%{args: args}), do: {:ok, String.upcase(Enum.join(args, " ")) <> "\n"}

  test "a short script's callbacks are answered without a runtime thread" do
    s = Session.new(builtins: %{"up" => &upcase/1})
    # The VM's first exec sets up what every later one shares (its slice
    # may run out on that); a warm one fits.
    run(s, "up warm; for w in a b; do up $w; done")
    before = Native.bridge_resumed(s.ref)
    assert run(s, "for w in a b c; do up $w; done; x=$(up d); echo $x") == {"A\nB\nC\nD\n", "", 0}
    assert Native.bridge_resumed(s.ref) - before == 4
  end

  test "an exec that went on on the runtime gets its later answers the short way too" do
    s = Session.new(builtins: %{"up" => &upcase/1})
    run(s, "up warm")
    # Each `seq` leaves the caller's thread (a utility); the call after it
    # parks the exec on the runtime and its answer resumes it on the BEAM.
    before = Native.bridge_resumed(s.ref)

    assert run(s, "for i in 1 2 3; do seq $i $i; up x$i; done") ==
             {"1\nX1\n2\nX2\n3\nX3\n", "", 0}

    assert Native.bridge_resumed(s.ref) - before == 3
    # A script too long to start on the caller's thread at all.
    long = String.duplicate(": padding\n", 2000) <> "up a; up b"
    before = Native.bridge_resumed(s.ref)
    assert run(s, long) == {"A\nB\n", "", 0}
    assert Native.bridge_resumed(s.ref) - before == 2
  end

  test "concurrent calls of one slice (a pipeline) and virtual-fs writes all land" do
    {:ok, store} = Agent.start_link(fn -> %{} end)

    vfs = fn
      %{op: :write, path: p, data: d} ->
        Agent.update(store, &Map.put(&1, p, d))

      %{op: :append, path: p, data: d} ->
        Agent.update(store, &Map.update(&1, p, d, fn o -> o <> d end))

      %{op: :stat, path: "/"} ->
        {:ok, %{type: :dir}}

      %{op: :stat, path: p} ->
        stat(Agent.get(store, &Map.get(&1, p)))

      _ ->
        {:error, :enotsup}
    end

    s =
      Session.new(
        builtins: %{"up" => &upcase/1, "twice" => fn %{stdin: i} -> {:ok, i <> i} end},
        virtual_fs: %{"/v" => vfs}
      )

    script = "for i in 1 2 3; do up x$i | twice; done > /v/out; echo y >> /v/out; up done"
    assert run(s, script) == {"DONE\n", "", 0}
    assert Agent.get(store, & &1) == %{"/out" => "X1\nX1\nX2\nX2\nX3\nX3\ny\n"}
  end

  # Many calls in flight from one slice: a pipeline of builtin stages built
  # at run time, each waiting at once.
  test "a long pipeline of builtins parks every stage and leaves nothing pending" do
    n = 100 + :rand.uniform(100)

    s =
      Session.new(builtins: %{"up" => &upcase/1, "cnt" => fn %{stdin: i} -> {:ok, i <> "x"} end})

    script = "up a | " <> String.duplicate("cnt | ", n) <> "cnt"
    assert run(s, script) == {"A\n" <> String.duplicate("x", n + 1), "", 0}
    assert Native.bridge_pending(s.ref) == 0
  end

  test "the exec's deadline ends a parked exec while its callback still runs" do
    test_pid = self()

    s =
      Session.new(
        builtins: %{
          "slow" => fn _ ->
            send(test_pid, :started)
            Process.sleep(3000)
            send(test_pid, :finished)
            {:ok, ""}
          end
        },
        builtin_timeout_ms: 10_000
      )

    assert {:error, msg} = Session.exec(s, "x=1; slow", timeout_ms: 200)
    assert msg =~ "timeout"
    assert_received :started
    refute_received :finished
    # Rolled back, and the session free at once.
    assert run(s, "echo ${x-unset}") == {"unset\n", "", 0}
  end

  test "a caller's idle workers serve its later calls and execs; a dead one is replaced" do
    test_pid = self()
    other = Session.new()

    s =
      Session.new(
        builtins: %{
          "who" => fn _ ->
            send(test_pid, {:who, self()})
            # Another session's exec is allowed from a reused worker, its own is not.
            {:ok, %Result{stdout: out}} = Session.exec(other, "echo ok")
            {:ok, out}
          end,
          "bad" => fn _ -> raise "boom" end
        }
      )

    assert run(s, "who; bad; who") ==
             {"ok\nok\n", "bad: raised RuntimeError: boom\n", 0}

    assert_received {:who, w1}
    assert_received {:who, ^w1}
    assert run(s, "who") == {"ok\n", "", 0}
    assert_received {:who, ^w1}

    # Killed while idle, between execs: the next call gets a new worker.
    ref = Process.monitor(w1)
    Process.exit(w1, :kill)
    assert_receive {:DOWN, ^ref, :process, _, :killed}, 5000
    assert run(s, "who") == {"ok\n", "", 0}
    assert_received {:who, w2}
    assert w2 != w1
    assert Native.bridge_pending(s.ref) == 0
    # Nothing of the callbacks' machinery is left in the caller's mailbox.
    refute_received _
  end

  test "a broker killed mid-call is replaced at once: that call fails, the next ones are served" do
    test_pid = self()

    s =
      Session.new(
        builtins: %{
          "die" => fn _ ->
            send(test_pid, {:worker, self()})
            [broker] = Process.info(self(), :links) |> elem(1)
            Process.exit(broker, :kill)
            Process.sleep(:infinity)
          end,
          "up" => &upcase/1
        },
        builtin_timeout_ms: 60_000
      )

    assert run(s, "up a; die; echo $?; up b") ==
             {"A\n1\nB\n", "die: callback process exited: its broker died\n", 0}

    assert Native.bridge_pending(s.ref) == 0
    # The dead broker's worker went with it.
    assert_received {:worker, worker}
    wref = Process.monitor(worker)
    assert_receive {:DOWN, ^wref, :process, _, _}, 5000
  end

  # Kill the caller, the broker or the worker at a random moment of a script
  # that makes many calls: the session must answer the next exec, roll back
  # what a dead caller's exec did, and keep no call waiting.
  test "killing any process at a random point strands no session" do
    test_pid = self()
    seed = :rand.uniform(1_000_000)
    :rand.seed(:exsss, {seed, seed, seed})

    s =
      Session.new(
        builtins: %{
          "step" => fn %{args: [i]} ->
            [broker] = Process.info(self(), :links) |> elem(1)
            send(test_pid, {:step, i, self(), broker})
            {:ok, ""}
          end
        },
        builtin_timeout_ms: 200,
        limits: [max_commands: 1_000_000]
      )

    Enum.reduce(1..12, "none", fn round, kept ->
      victim = Enum.random([:caller, :broker, :worker])
      at = Integer.to_string(:rand.uniform(20))
      flush()

      caller =
        spawn(fn ->
          send(
            test_pid,
            {:result, Session.exec(s, "v=#{round}; for i in {1..40}; do step $i; done")}
          )
        end)

      receive do
        {:step, ^at, worker, broker} ->
          case victim do
            :caller -> Process.exit(caller, :kill)
            :broker -> Process.exit(broker, :kill)
            :worker -> Process.exit(worker, :kill)
          end
      after
        10_000 -> flunk("round #{round} (seed #{seed}): no step #{at}")
      end

      # A caller that lived gets its answer. A dead caller's exec is
      # cancelled and undone, unless it ended first (its broker went with the
      # caller, so its last calls fail fast): it is whole either way.
      if victim != :caller, do: assert_receive({:result, {:ok, %Result{}}}, 15_000)
      assert {:ok, %Result{stdout: out}} = Session.exec(s, "echo ${v-none}", timeout_ms: 15_000)
      allowed = if victim == :caller, do: [kept, "#{round}"], else: ["#{round}"]
      out = String.trim_trailing(out, "\n")
      assert out in allowed, "round #{round} (seed #{seed}, #{victim} at step #{at}): #{out}"
      assert Native.bridge_pending(s.ref) == 0
      out
    end)
  end

  defp stat(nil), do: {:error, :enoent}
  defp stat(data), do: {:ok, %{type: :file, size: byte_size(data)}}

  defp flush do
    receive do
      {:step, _, _, _} -> flush()
      {:result, _} -> flush()
    after
      0 -> :ok
    end
  end
end
