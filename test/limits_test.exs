defmodule ExBashkit.LimitsTest do
  # Each limit: a script that passes it ends with {:error, message} naming the
  # limit and its value (or, for filesystem limits, with the failed command's
  # error naming it, as a full disk would), and the session stays usable.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  @stops [
    {[max_commands: 50], "for i in $(seq 100 2>/dev/null || echo {1..100}); do :; done",
     "max_commands: 50"},
    {[max_loop_iterations: 10], "i=0; while [ $i -lt 20 ]; do i=$((i+1)); done",
     "max_loop_iterations: 10"},
    {[max_total_loop_iterations: 30],
     "for a in 1 2 3 4 5 6; do for b in 1 2 3 4 5 6; do :; done; done",
     "max_total_loop_iterations: 30"},
    {[max_function_depth: 5], "f() { f; }; f", "max_function_depth: 5"},
    {[max_input_bytes: 10], "echo this script is longer than ten bytes", "max_input_bytes: 10"},
    {[timeout_ms: 30, max_commands: 10 ** 12, max_loop_iterations: 10 ** 12],
     "while :; do :; done", "timed out after 30 ms"},
    {[max_output_bytes: 100], "for i in {1..50}; do echo 0123456789; done",
     "max_output_bytes: 100"},
    {[max_string_bytes: 100], "x=a; for i in 1 2 3 4 5 6 7 8; do x=$x$x; done",
     "max_string_bytes: 100"},
    {[max_brace_items: 10], "echo {1..11}", "max_brace_items: 10"},
    {[max_pipeline_stages: 2], "echo a | cat | cat", "max_pipeline_stages: 2"},
    {[max_subshell_depth: 2], "(echo a; (echo b; (echo c)))", "max_subshell_depth: 2"},
    {[max_parser_depth: 3], "{ { { { echo deep; }; }; }; }", "max_parser_depth: 3"},
    {[max_memory_bytes: 8_000_000],
     "x=$(head -c 1000000 /dev/zero | tr '\\0' a); a=(); while :; do a+=(\"$x\"); done",
     "memory limit exceeded (max_memory_bytes: 8000000)"}
  ]

  for {{limits, script, needle}, i} <- Enum.with_index(@stops) do
    @tag limits: limits, script: script, needle: needle
    test "limit #{i}: #{inspect(limits)}", %{limits: limits, script: script, needle: needle} do
      s = Session.new(limits: limits)
      {:ok, _} = Session.exec(s, "kept=yes")
      assert {:error, message} = Session.exec(s, "kept=no; " <> script)
      assert message =~ needle
      assert {:ok, %Result{stdout: "yes\n"}} = Session.exec(s, "echo $kept")
    end
  end

  test "glob results past the limit" do
    files = for i <- 1..20, into: %{}, do: {"/d/f#{i}", ""}
    s = Session.new(files: files, limits: [max_glob_results: 5])
    assert {:error, message} = Session.exec(s, "echo /d/*")
    assert message =~ "max_glob_results: 5"
  end

  test "a regex past max_regex_bytes does not match (status 2, as an invalid one)" do
    s = Session.new(limits: [max_regex_bytes: 1000])

    assert {:ok, %Result{stdout: "2\n0\n"}} =
             Session.exec(s, "[[ x =~ (a|b){500} ]]; echo $?; [[ b =~ (a|b) ]]; echo $?")
  end

  test "grep and sed refuse a regex past max_regex_bytes" do
    s = Session.new(limits: [max_regex_bytes: 1000])

    assert {:ok, %Result{exit_code: 2, stderr: err}} =
             Session.exec(s, "echo ab | grep -E '(a|b){500}'")

    assert err =~ "too big"
    assert {:ok, %Result{stdout: "ab\n"}} = Session.exec(s, "echo ab | grep -E '(a|b)'")

    assert {:ok, %Result{exit_code: 1, stderr: err}} =
             Session.exec(s, "echo ab | sed -E 's/(a|b){500}/x/'")

    assert err =~ "too big"
  end

  describe "filesystem limits fail the write like a full disk, naming the limit" do
    test "bytes per file" do
      s = Session.new(limits: [max_file_bytes: 10])

      assert {:ok,
              %Result{
                stderr: "bash: line 1: echo: write error: File too large (max_file_bytes: 10)\n",
                exit_code: 1
              }} = Session.exec(s, "echo 0123456789abcdef > /f")

      assert {:error, "/g: File too large (max_file_bytes: 10)"} =
               Session.write_file(s, "/g", "0123456789abc")
    end

    test "total bytes" do
      s = Session.new(limits: [max_fs_bytes: 20])
      {:ok, _} = Session.exec(s, "echo 0123456789 > /a")
      assert {:ok, %Result{stderr: err}} = Session.exec(s, "echo 0123456789 > /b")
      assert err =~ "No space left on device (max_fs_bytes: 20)"
    end

    test "file count and path depth" do
      s = Session.new(limits: [max_files: 12])

      assert {:ok, %Result{stderr: err}} =
               Session.exec(s, "for i in 1 2 3 4 5 6 7 8 9; do : > /tmp/f$i; done")

      assert err =~ "No space left on device (max_files: 12)"
      s = Session.new(limits: [max_path_depth: 4])
      assert {:ok, %Result{stderr: err}} = Session.exec(s, "mkdir -p /tmp/a/b/c/d")
      assert err =~ "max_path_depth: 4"
    end
  end
end
