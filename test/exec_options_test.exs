defmodule ExBashkit.ExecOptionsTest do
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  @forever 10 ** 15
  @busy_limits [
    max_commands: @forever,
    max_loop_iterations: @forever,
    max_total_loop_iterations: @forever
  ]

  test "cwd and env overrides run in an ephemeral copy; file writes persist" do
    s = Session.new(files: %{"/data/x" => "1"})
    {:ok, _} = Session.exec(s, "v=session")

    assert {:ok, %Result{stdout: "/data\nsession over\n"}} =
             Session.exec(s, "pwd; echo $v $EXTRA; cd /; v=changed; echo w > /written",
               cwd: "/data",
               env: [EXTRA: "over"]
             )

    assert {:ok, %Result{stdout: "/\nsession unset\nw\n"}} =
             Session.exec(s, "pwd; echo $v ${EXTRA-unset}; cat /written")
  end

  test "a cwd override that does not exist is an error" do
    assert {:error, message} = Session.exec(Session.new(), "pwd", cwd: "/nope")
    assert message =~ "No such file or directory"
  end

  test "parallel calls with different overrides see only their own" do
    s = Session.new(files: %{"/a/f" => "", "/b/f" => ""})

    results =
      for i <- 1..20 do
        dir = if rem(i, 2) == 0, do: "/a", else: "/b"
        {dir, Task.async(fn -> Session.exec(s, "echo $PWD $N", cwd: dir, env: [N: i]) end)}
      end
      |> Enum.with_index(1)
      |> Enum.map(fn {{dir, t}, i} -> {dir, i, Task.await(t)} end)

    for {dir, i, r} <- results do
      expected = "#{dir} #{i}\n"
      assert {:ok, %Result{stdout: ^expected, stderr: "", exit_code: 0}} = r
    end
  end

  test "timeout_ms per call, with the partial output on request" do
    s = Session.new(limits: @busy_limits)
    assert {:error, message} = Session.exec(s, "while :; do :; done", timeout_ms: 50)
    assert message == "execution timed out after 50 ms (timeout_ms)"

    assert {:error, ^message, %Result{stdout: "before\n", exit_code: 1}} =
             Session.exec(s, "echo before; while :; do :; done", timeout_ms: 50, partial: true)

    assert {:ok, %Result{stdout: "still usable\n"}} = Session.exec(s, "echo still usable")
  end

  test "the session's timeout caps a larger per-call one" do
    s = Session.new(limits: [timeout_ms: 40] ++ @busy_limits)

    assert {:error, "execution timed out after 40 ms (timeout_ms)"} =
             Session.exec(s, "while :; do :; done", timeout_ms: 60_000)
  end

  test "cancel/1 from another process stops a running exec" do
    s = Session.new(limits: [timeout_ms: 20_000] ++ @busy_limits)
    {:ok, _} = Session.exec(s, "n=1")
    task = Task.async(fn -> Session.exec(s, "n=2; while :; do :; done") end)
    wait_until(fn -> Session.cancel(s) == 1 end)
    assert Task.await(task, 5_000) == {:error, "execution cancelled"}
    assert {:ok, %Result{stdout: "1\n"}} = Session.exec(s, "echo $n")
    assert Session.cancel(s) == 0
  end

  test "cancel/1 lands during a sleep" do
    s = Session.new()
    task = Task.async(fn -> Session.exec(s, "sleep 100") end)
    wait_until(fn -> Session.cancel(s) == 1 end)
    assert Task.await(task, 2_000) == {:error, "execution cancelled"}
  end

  test "a sleep past the timeout ends at the deadline with the partial output" do
    s = Session.new(limits: [timeout_ms: 100])

    assert {:error, "execution timed out after 100 ms (timeout_ms)", %Result{stdout: "before\n"}} =
             Session.exec(s, "echo before; sleep 100; echo after", partial: true)
  end

  test "an exec whose caller dies is cancelled" do
    s = Session.new(limits: [timeout_ms: 20_000] ++ @busy_limits)
    {pid, ref} = spawn_monitor(fn -> Session.exec(s, "while :; do :; done") end)
    Process.sleep(50)
    Process.exit(pid, :kill)
    assert_receive {:DOWN, ^ref, :process, ^pid, :killed}
    # Without the cancel this would wait for the 20 s timeout.
    task = Task.async(fn -> Session.exec(s, "echo next") end)
    assert {:ok, %Result{stdout: "next\n"}} = Task.await(task, 5_000)
  end

  test "bad exec options raise" do
    s = Session.new()
    assert_raise ArgumentError, ~r/:timeout_ms/, fn -> Session.exec(s, "true", timeout_ms: 0) end
    assert_raise ArgumentError, ~r/:partial/, fn -> Session.exec(s, "true", partial: 1) end
    assert_raise ArgumentError, ~r/:stdin/, fn -> Session.exec(s, "true", stdin: :x) end
    assert_raise ArgumentError, ~r/:env/, fn -> Session.exec(s, "true", env: [{"A B", "x"}]) end
  end

  defp wait_until(fun, tries \\ 500) do
    cond do
      fun.() -> :ok
      tries == 0 -> flunk("condition never held")
      true -> Process.sleep(2) && wait_until(fun, tries - 1)
    end
  end
end
