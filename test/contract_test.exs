defmodule ExBashkit.ContractTest do
  # Details of the public contract: partial results, application config
  # (defaults and an operator's ceilings), and what new/1 refuses.
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Session}

  defp with_config(pairs, fun) do
    old = Application.get_all_env(:ex_bashkit)
    for {k, v} <- pairs, do: Application.put_env(:ex_bashkit, k, v)

    try do
      fun.()
    after
      for {k, _} <- pairs, do: Application.delete_env(:ex_bashkit, k)
      for {k, v} <- old, do: Application.put_env(:ex_bashkit, k, v)
    end
  end

  test "a partial Result builds and a builtin may return it" do
    assert %Result{stdout: "x", stderr: "", exit_code: 0} = %Result{stdout: "x"}

    s = Session.new(builtins: %{"part" => fn _ -> %Result{stderr: "only err\n"} end})

    assert {:ok, %Result{stdout: "", stderr: "only err\n", exit_code: 0}} =
             Session.exec(s, "part")
  end

  describe "application config" do
    test "defaults apply to every session and per-session options override them" do
      with_config([limits: [max_commands: 20, max_loop_iterations: 3], username: "agent"], fn ->
        s = Session.new()
        assert {:ok, %Result{stdout: "agent\n"}} = Session.exec(s, "whoami")
        assert {:error, msg} = Session.exec(s, "for i in 1 2 3 4 5; do :; done")
        assert msg =~ "max_loop_iterations"

        # Limits merge key by key: this session raises one and keeps the other.
        s = Session.new(limits: [max_loop_iterations: 100], username: "me")

        assert {:ok, %Result{stdout: "me\n"}} =
                 Session.exec(s, "for i in 1 2 3 4 5; do :; done; whoami")

        assert {:error, msg} = Session.exec(s, "for i in $(seq 30); do :; done")
        assert msg =~ "max_commands"
      end)
    end

    test "an operator's ceiling caps what a session asks for and what it leaves unset" do
      with_config([max_timeout_ms: 200, max_limits: [max_commands: 3]], fn ->
        for s <- [Session.new(), Session.new(limits: [timeout_ms: 60_000])] do
          assert {:error, msg} = Session.exec(s, "sleep 5")
          assert msg =~ "200"
        end

        s = Session.new(limits: [max_commands: 1_000_000])
        assert {:error, msg} = Session.exec(s, "true; true; true; true; true")
        assert msg =~ "max_commands: 3"
      end)
    end

    test "a bad config value raises with the key's name" do
      for {k, v} <- [
            limits: [nope: 1],
            limits: [timeout_ms: -1],
            builtin_timeout_ms: 0,
            max_reply_bytes: :lots,
            max_timeout_ms: 0,
            max_limits: [timeout_ms: "x"],
            hibernate_after_ms: -1,
            no_such_key: 1
          ] do
        with_config([{k, v}], fn ->
          e = assert_raise ArgumentError, fn -> Session.new() end
          assert e.message =~ "config :ex_bashkit, #{inspect(k)}"
        end)
      end
    end
  end

  describe "new/1 raises ArgumentError" do
    test "for a sensitive host path mounted without an allowlist entry" do
      assert_raise ArgumentError, ~r/refused/, fn ->
        Session.new(mounts: [{"/d", "/etc", :read_only}])
      end
    end

    test "for a vfs path that is not normalized" do
      for p <- ["/a/../b", "/a//b", "/a/", "rel"] do
        assert_raise ArgumentError, ~r/normalized/, fn ->
          Session.new(virtual_fs: %{p => fn _ -> {:error, :enotsup} end})
        end

        assert_raise ArgumentError, ~r/normalized/, fn ->
          Session.new(mounts: [{p, System.tmp_dir!(), :read_only}])
        end
      end
    end

    test "for a builtin name that is not a string" do
      for name <- [:kv, 42, ~c"kv"] do
        assert_raise ArgumentError, ~r/must be a string/, fn ->
          Session.new(builtins: [{name, fn _ -> {:ok, ""} end}])
        end
      end
    end

    test "for a :builtin_timeout_ms above what receive ... after accepts" do
      assert Session.new(builtin_timeout_ms: 4_294_967_295)

      assert_raise ArgumentError, ~r/builtin_timeout_ms must be at most 4294967295/, fn ->
        Session.new(builtin_timeout_ms: 4_294_967_296)
      end
    end
  end

  test "the option type names every option new/1 takes" do
    {:ok, types} = Code.Typespec.fetch_types(Session)

    {:type, {:option, {:type, _, :union, alts}, []}} =
      Enum.find(types, &match?({:type, {:option, _, _}}, &1))

    in_type = for {:type, _, :tuple, [{:atom, _, key}, _]} <- alts, do: key
    assert Enum.sort(in_type) == Enum.sort(ExBashkit.Session.Options.keys())
  end

  test "the functions of every concept are reachable from ExBashkit.Session" do
    s = Session.new()
    assert :ok = Session.write_file(s, "/a", "1")
    assert {:ok, "1"} = Session.read_file(s, "/a")
    assert {:ok, "1"} = ExBashkit.Session.Files.read_file(s, "/a")
    assert is_integer(Session.mark(s))
    assert [] = Session.jobs(s)
    assert [] = Session.history(s)
    assert {:ok, bytes} = Session.snapshot(s)
    assert {:ok, _} = Session.restore(Session.new(), bytes)
  end
end
