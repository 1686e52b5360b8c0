defmodule ExBashkit.AdversarialTest do
  # Scripts written to crash the node (deep native recursion on data built at
  # run time), freeze it (work that never looks at the clock) or exhaust it
  # (memory), run through Session.exec in this VM: a crash of the NIF takes
  # the whole test run down, as it would take down a node. Inputs are built
  # at run time at sizes from 10^3 to 10^6. Time bounds are generous (a debug
  # build on a busy machine); `cargo bench -p sandbash --bench adversarial`
  # measures the real overshoot.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  @sizes [1_000, 10_000, 100_000, 1_000_000]
  @timeout 2_000
  @bound 20_000

  defp session(limits \\ []) do
    Session.new(limits: Keyword.merge([timeout_ms: @timeout], limits))
  end

  # Runs `script`; it must return within the bound, and the session must
  # answer afterwards.
  defp survives(s, script) do
    {micros, result} = :timer.tc(fn -> Session.exec(s, script) end)
    elapsed = div(micros, 1000)
    assert elapsed < @bound, "took #{elapsed} ms: #{String.slice(script, 0, 120)}"
    assert {:ok, %Result{stdout: "alive\n"}} = Session.exec(s, "echo alive")
    result
  end

  # Sets `var` to `unit` repeated n times, built by doubling inside the
  # sandbox (a brace range past 100,000 items would be refused before the
  # evaluator under test sees anything).
  defp repeat(var, n, unit) do
    len = n * String.length(unit)

    "#{var}=#{inspect_sh(unit)}; while ((${##{var}} < #{len})); do #{var}=$#{var}$#{var}; done; #{var}=${#{var}:0:#{len}}"
  end

  defp inspect_sh(text), do: "'" <> String.replace(text, "'", "'\\''") <> "'"

  for n <- @sizes do
    @n n
    test "deep arithmetic built at run time (#{n})" do
      s = session()
      script = "#{repeat("o", @n, "(")}; #{repeat("c", @n, ")")}; x=${o}1$c; echo $((x))"
      result = survives(s, script)
      if @n < 1_024, do: assert({:ok, %Result{stdout: "1\n"}} = result)
      if @n > 1_024, do: assert(result != {:ok, %Result{stdout: "1\n", stderr: "", exit_code: 0}})
    end

    test "test and [ with a deep expression built at run time (#{n})" do
      s = session()
      survives(s, "#{repeat("u", @n, "! ")}; a=( $u ); test \"${a[@]}\" 1; echo $?")
      survives(s, "#{repeat("u", @n, "( ")}; set -f; a=( $u ); [ \"${a[@]}\" ]; echo $?")
    end

    test "expr and find with deep parentheses (#{n})" do
      s = session()
      survives(s, "#{repeat("u", @n, "( ")}; set -f; a=( $u ); expr \"${a[@]}\" 1")
      survives(s, "#{repeat("u", @n, "! ")}; a=( $u ); find / \"${a[@]}\" -name x")
    end

    test "pattern operators on long strings (#{n})" do
      s = session()
      x = "x=$(head -c #{@n} /dev/zero | tr '\\0' a)"

      for op <- ["${x//*b/}", "${x%%*b}", "${x##*b}", "${x/#*b/}", "${x//a/b}"] do
        survives(s, "#{x}; y=#{op}; echo ${#y}")
      end

      survives(s, "#{x}; [[ $x == *b*c ]]; echo $?")
      survives(s, "#{x}; case $x in *b*c) echo m;; esac")
    end

    test "nested extglob built at run time (#{n})" do
      s = session()

      script = "#{repeat("o", @n, "@(")}; #{repeat("c", @n, ")")}; p=${o}a$c"
      survives(s, "shopt -s extglob; #{script}; [[ a == $p ]]; echo $?")
    end
  end

  for n <- @sizes do
    @n n
    test "awk, bc and jq with deep or long expressions built at run time (#{n})" do
      s = session()
      survives(s, "#{repeat("u", @n, "1+")}; awk \"BEGIN { print ${u}1 }\"")
      survives(s, "#{repeat("u", @n, "1+")}; echo \"${u}1\" | bc")

      survives(
        s,
        "#{repeat("o", @n, "(")}; #{repeat("c", @n, ")")}; awk \"BEGIN { print ${o}1$c }\""
      )

      survives(s, "#{repeat("o", @n, "[")}; #{repeat("c", @n, "]")}; jq -n \"${o}1$c\"")
      survives(s, "#{repeat("u", @n, "a")}; echo \"$u\" | grep -E '(a*)*\\1b'")
    end
  end

  test "jq recursion and growth" do
    s = session()
    survives(s, "jq -n 'def f: [f]; f'")
    survives(s, "jq -n 'def f(x): f([x]); f(1)'")
    survives(s, "jq -n '[range(1e9)] | length'")
  end

  test "memory bombs stop at the budget and keep the state" do
    s = session(max_memory_bytes: 32_000_000, max_loop_iterations: 10 ** 9)
    {:ok, _} = Session.exec(s, "kept=yes")
    x = "x=$(head -c 1000000 /dev/zero | tr '\\0' a)"

    for bomb <- [
          "y=${x//?/$x}",
          "y=\"#{String.duplicate("$x", 60)}\"",
          "for i in $(seq 200); do printf -v v$i %s \"$x\"; done",
          "declare -A m; for ((i=0;i<9000;i++)); do m[k$i]=$x; done"
        ] do
      assert {:error, message} = survives(s, "kept=no; #{x}; #{bomb}")
      assert message =~ ~r/max_memory_bytes: 32000000|max_string_bytes/
      assert {:ok, %Result{stdout: "yes\n"}} = Session.exec(s, "echo $kept")
    end
  end
end
