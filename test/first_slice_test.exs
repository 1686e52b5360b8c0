defmodule ExBashkit.FirstSliceTest do
  # A small script's first slice runs in the NIF call, on the caller's
  # scheduler (no thread to wake: `exec` of `echo hi` costs microseconds);
  # anything long, deep or large leaves for the runtime, so the scheduler is
  # never held. `Native.exec_start/5` returns `{:done, outcome}` when the slice
  # finished the script, `:ok` when the rest runs on the runtime.
  use ExUnit.Case, async: true

  alias ExBashkit.{Native, Result, Session}
  alias ExBashkit.Session.Options

  defp start(s, script) do
    {opts, _, _} = Options.exec_opts([])
    tag = make_ref()

    case Native.exec_start(s.ref, script, opts, self(), tag) do
      {:done, outcome} ->
        {:done, outcome}

      :ok ->
        receive do
          {^tag, outcome} -> {:runtime, outcome}
        after
          30_000 -> flunk("no result for #{script}")
        end
    end
  end

  @limits [
    max_commands: 1_000_000,
    max_loop_iterations: 1_000_000,
    max_function_depth: 1_000,
    timeout_ms: 20_000
  ]

  test "work that could hold the scheduler always goes on on the runtime" do
    s = Session.new(limits: @limits)

    for {script, out} <- [
          {"s=0; for ((i=0; i<100000; i++)); do s=$((s+i)); done; echo $s", "4999950000\n"},
          {"printf 'b\\na\\n' | sort", "a\nb\n"},
          {"echo {1..5000} | wc -w", "5000\n"},
          {"mapfile -t a <<< $'x\\ny'; echo ${#a[@]}", "2\n"},
          {"x=$(printf '%*s' 200000 ''); echo ${#x}", "200000\n"}
        ] do
      assert {:runtime, {:ok, {^out, "", 0, _}}} = start(s, script), script
    end
  end

  test "deep scripts leave before the scheduler's stack runs out" do
    s = Session.new(limits: @limits)
    open = String.duplicate("(", 150)
    close = String.duplicate(")", 150)
    subshells = String.duplicate("( :; ", 60) <> "echo deep" <> String.duplicate(" )", 60)

    for {script, out} <- [
          {"f() { (( $1 > 0 )) && f $(($1 - 1)); }; f 900; echo done", "done\n"},
          {"f() { (( $1 > 0 )) && echo $(f $(($1 - 1))) || echo end; }; f 50", "end\n"},
          {"echo $(( #{open}7#{close} ))", "7\n"},
          {"a=1; for i in {1..300}; do a=\"($a)\"; done; echo $((a))", "1\n"},
          {subshells, "deep\n"}
        ] do
      assert {_, {:ok, {^out, "", 0, _}}} = start(s, script), script
    end

    assert {:ok, %Result{stdout: "alive\n"}} = Session.exec(s, "echo alive")
  end

  test "a script finished in the slice leaves the session as one run on the runtime" do
    s = Session.new(limits: @limits)
    assert {:ok, %Result{stdout: "1\n"}} = Session.exec(s, "x=1; f() { echo $x; }; f")
    # The state it set is there for the next exec, whichever way that one runs.
    assert {:ok, %Result{stdout: "1\n"}} = Session.exec(s, "sort <<< $x")
    assert {:ok, %Result{stdout: "2\n", exit_code: 3}} = Session.exec(s, "echo $((x+1)); exit 3")

    assert {:error, "execution timed out after 50 ms (timeout_ms)"} =
             Session.exec(s, "while :; do :; done", timeout_ms: 50)

    assert {:ok, %Result{stdout: "1\n"}} = Session.exec(s, "f")
  end
end
