defmodule ExBashkit.AdmissionTest do
  # Node-wide admission control. Not async: it changes settings every session
  # shares, so it runs alone and puts them back.
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Session}

  @busy [
    timeout_ms: 30_000,
    max_commands: 10 ** 12,
    max_loop_iterations: 10 ** 12,
    max_total_loop_iterations: 10 ** 12
  ]

  setup do
    before = ExBashkit.admission()

    on_exit(fn ->
      ExBashkit.configure_admission(
        max_running: before.max_running,
        max_queued: before.max_queued,
        queue_timeout_ms: before.queue_timeout_ms
      )
    end)

    :ok
  end

  # One command that never ends by itself: a utility's own loop keeps its slot
  # (turns are taken between commands), so the queue stays as the test set it.
  defp busy_until_cancelled do
    s = Session.new(limits: @busy)
    task = Task.async(fn -> Session.exec(s, "awk 'BEGIN { while (1) ; }'") end)
    {s, task}
  end

  defp wait_until(fun, tries \\ 500) do
    cond do
      fun.() -> :ok
      tries == 0 -> flunk("condition never held")
      true -> Process.sleep(10) && wait_until(fun, tries - 1)
    end
  end

  test "past the queue bound an exec is refused at once, and nothing runs" do
    ExBashkit.configure_admission(max_running: 1, max_queued: 1)
    {hog, hog_task} = busy_until_cancelled()
    wait_until(fn -> ExBashkit.admission().waiting == 0 end)
    Process.sleep(50)

    queued = Session.new()
    queued_task = Task.async(fn -> Session.exec(queued, "echo ran > /f; echo queued") end)
    wait_until(fn -> ExBashkit.admission().waiting == 1 end)

    refused = Session.new()
    assert Session.exec(refused, "echo ran > /f") == {:error, :overloaded}
    assert {:error, _} = Session.read_file(refused, "/f")

    Session.cancel(hog)
    assert {:error, "execution cancelled"} = Task.await(hog_task)
    assert {:ok, %Result{stdout: "queued\n"}} = Task.await(queued_task)
  end

  test "the timeout counts from when a script starts running" do
    ExBashkit.configure_admission(max_running: 1)
    {hog, hog_task} = busy_until_cancelled()
    Process.sleep(50)
    # Queued for longer than its own timeout, then it runs in full.
    waiting =
      Task.async(fn -> Session.exec(Session.new(limits: [timeout_ms: 300]), "echo done") end)

    Process.sleep(600)
    Session.cancel(hog)
    Task.await(hog_task)
    assert {:ok, %Result{stdout: "done\n", queued_ms: queued}} = Task.await(waiting)
    # The wait is reported, and it was longer than the script's own timeout.
    assert queued >= 300
  end

  test "a sleeping script does not hold a slot" do
    ExBashkit.configure_admission(max_running: 1)
    # One runnable slot: 40 sleepers of 0.3 s in a row would take 12 s.
    {us, results} =
      :timer.tc(fn ->
        for _ <- 1..40 do
          Task.async(fn -> Session.exec(Session.new(), "sleep 0.3; echo up") end)
        end
        |> Enum.map(&Task.await(&1, 60_000))
      end)

    assert Enum.all?(results, &match?({:ok, %Result{stdout: "up\n"}}, &1))
    assert us < 8_000_000, "took #{div(us, 1000)} ms"
  end

  test "bad settings raise" do
    assert_raise ArgumentError, ~r/max_running/, fn ->
      ExBashkit.configure_admission(max_running: -1)
    end

    assert_raise ArgumentError, ~r/unknown option/, fn ->
      ExBashkit.configure_admission(bogus: 1)
    end
  end
end
