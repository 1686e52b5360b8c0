defmodule ExBashkit.AddressLimitTest do
  # A node under an address-space limit (as a container's memory limit
  # imposes): memory bombs, parse bombs and huge allocations a script asks
  # for must end as errors of their exec, never as an allocation failure
  # that aborts the VM (SIGABRT) or a crash (SIGSEGV). The bombs run in a
  # second BEAM started under `ulimit -v`, with the NIF loaded; this test
  # checks that it exits normally and that every exec answered.
  use ExUnit.Case, async: true

  @moduletag timeout: 600_000

  # Scripts that each ask for far more than the budget, in different ways.
  @bombs [
    # Text built at run time handed to the parser (eval, source, bash -c).
    ~S"s=a; for i in {1..22}; do s=\"$s;$s\"; done; eval \"$s\"",
    ~S"s=a; for i in {1..22}; do s=\"$s;$s\"; done; bash -c \"$s\"",
    ~S"s='{ :;'; for i in {1..20}; do s=\"$s$s\"; done; eval \"$s }\"",
    # Values that double until they pass the budget.
    ~S"x=aaaaaaaa; while :; do x=$x$x; done",
    ~S"a=(x); while :; do a+=(\"${a[@]}\"); done",
    # Sizes a script chooses, given to utilities.
    ~S"printf '%9223372036854775807d' 1",
    ~S"seq -f '%9223372036854775807g' 1",
    ~S"head -c 9223372036854775807 /dev/zero > /f",
    ~S"dd if=/dev/zero of=/f bs=1G count=100",
    ~S"shuf -i 1-4000000000 > /f",
    ~S"yes | sort",
    ~S"expand -t 1,9223372036854775807 <<< $'a\tb' > /f",
    ~S"awk 'BEGIN { while (1) s = s s \"xxxxxxxx\" }'"
  ]

  @budget 64 * 1024 * 1024
  # The VM reserves 1 GB for literals at start, which a small address-space
  # limit refuses: a node run under such a limit is started with less.
  @erl_flags "+MIscs 128"

  test "a node under an address-space limit survives every bomb" do
    ebin = Path.join(Mix.Project.build_path(), "lib/ex_bashkit/ebin")
    priv = Path.join(Mix.Project.build_path(), "lib/ex_bashkit/priv")
    assert File.dir?(ebin) and File.dir?(priv)
    scripts = Enum.map(@bombs, &Base.encode64/1) |> Enum.join(",")

    code = """
    Code.prepend_path(#{inspect(ebin)})
    {:ok, _} = Application.ensure_all_started(:ex_bashkit)
    for s <- String.split(#{inspect(scripts)}, ",") do
      script = Base.decode64!(s)
      session = ExBashkit.Session.new(limits: [max_memory_bytes: #{@budget}, timeout_ms: 20_000])
      r = ExBashkit.Session.exec(session, script)
      IO.puts("answered " <> inspect(elem(r, 0)) <> " " <> inspect(r, limit: 3, printable_limit: 120))
      {:ok, %{stdout: "alive\\n"}} = ExBashkit.Session.exec(session, "echo alive")
    end
    IO.puts("all answered")
    """

    # The VM's own reservations (code, schedulers' stacks, the NIF's runtime
    # threads, the allocators' arenas) need their room; the bombs ask for
    # far more than room and budget together.
    limit_kb = vm_size_kb() + div(2 * @budget + 512 * 1024 * 1024, 1024)

    {out, status} =
      System.cmd("bash", ["-c", "ulimit -v #{limit_kb}; exec elixir -e \"$0\"", code],
        stderr_to_stdout: true,
        env: [{"ERL_FLAGS", @erl_flags}]
      )

    assert status == 0,
           "exit #{status} (134 is SIGABRT, 139 SIGSEGV) under ulimit -v #{limit_kb}:\n#{out}"

    assert out =~ "all answered", out
    assert length(Regex.scan(~r/^answered /m, out)) == length(@bombs), out
  end

  # What a fresh VM with the NIF loaded holds of address space, in KiB.
  defp vm_size_kb do
    code = """
    Code.prepend_path(#{inspect(Path.join(Mix.Project.build_path(), "lib/ex_bashkit/ebin"))})
    {:ok, _} = Application.ensure_all_started(:ex_bashkit)
    ExBashkit.Session.exec(ExBashkit.Session.new(), "echo warm")
    IO.puts("VMSIZE " <> hd(Regex.run(~r/VmSize:\\s+(\\d+)/, File.read!("/proc/self/status"), capture: :all_but_first)))
    """

    {out, 0} = System.cmd("elixir", ["-e", code], env: [{"ERL_FLAGS", @erl_flags}])
    [_, kb] = Regex.run(~r/VMSIZE (\d+)/, out)
    String.to_integer(kb)
  end
end
