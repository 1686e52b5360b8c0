defmodule ExBashkit.CallbacksTest do
  # Custom builtins and virtual-fs backends: where they run, and every failure
  # class of ../shared/research/failure_classes.md ("Callback bridge" and
  # "Virtual filesystems"), each with a test that fails without its guard.
  use ExUnit.Case, async: true

  alias ExBashkit.{Native, Result, Session}

  defp run(session, script, opts \\ []) do
    {:ok, %Result{} = r} = Session.exec(session, script, opts)
    {r.stdout, r.stderr, r.exit_code}
  end

  defp builtins(map, opts \\ []), do: Session.new([builtins: map] ++ opts)

  # Two execs of one session at once (ephemeral copies with `cwd:`), each
  # with a background job calling a builtin: every call must be served by the
  # broker of the exec that made it, never by the other's.
  test "each callback reaches the broker of the exec that made it" do
    test_pid = self()

    tag = fn %{args: [who]} ->
      {:parent, broker} = Process.info(self(), :parent)
      send(test_pid, {:served, who, broker})
      {:ok, ""}
    end

    s = builtins(%{"tag" => tag})

    script = fn who ->
      "for i in 1 2 3 4 5 6; do tag #{who}; sleep 0.03; done & tag #{who}; wait"
    end

    tasks =
      for who <- ["A", "B", "C"] do
        Task.async(fn -> Session.exec(s, script.(who), cwd: "/") end)
      end

    for t <- tasks, do: assert({:ok, %Result{exit_code: 0, stderr: ""}} = Task.await(t, 60_000))

    served =
      for _ <- 1..21 do
        receive do
          {:served, who, broker} -> {who, broker}
        after
          10_000 -> flunk("a callback was not served")
        end
      end

    by_exec = Enum.group_by(served, &elem(&1, 0), &elem(&1, 1))
    brokers = for who <- ["A", "B", "C"], do: by_exec[who] |> Enum.uniq()
    assert Enum.all?(brokers, &(length(&1) == 1)), inspect(by_exec)
    assert brokers |> List.flatten() |> Enum.uniq() |> length() == 3
  end

  describe "custom builtins run wherever a command runs" do
    setup do
      upper = fn
        %{args: [], stdin: stdin} -> {:ok, String.upcase(stdin)}
        %{args: args} -> {:ok, String.upcase(Enum.join(args, " ")) <> "\n"}
      end

      %{s: builtins(%{"upper" => upper, "ctx" => &{:ok, "#{&1.cwd} #{&1.env["WHO"]}\n"}})}
    end

    test "pipelines, substitutions, loops, functions, redirects, xargs", %{s: s} do
      script = """
      echo abc | upper | tr B x
      v=$(upper hi); echo "[$v]"
      for w in a b; do upper $w; done
      f() { upper "$@"; }; f x y
      upper <<< here
      upper z > /tmp/o; cat /tmp/o
      printf 'p\\nq\\n' | xargs -n1 upper
      """

      assert run(s, script) == {"AxC\n[HI]\nA\nB\nX Y\nHERE\nZ\nP\nQ\n", "", 0}
    end

    test "they get the cwd and exported variables; functions shadow them", %{s: s} do
      assert run(s, "cd /tmp; WHO=me ctx; NOT=x ctx") == {"/tmp me\n/tmp \n", "", 0}

      assert run(s, "upper() { echo fn; }; upper x; unset -f upper; upper y") ==
               {"fn\nY\n", "", 0}

      assert run(s, "type -t upper") == {"builtin\n", "", 0}
    end

    test "return shapes: {:ok, _}, {:error, _}, %Result{} and a bad value" do
      s =
        builtins(%{
          "ok" => fn _ -> {:ok, ["a", ?b, "\n"]} end,
          "err" => fn _ -> {:error, "bad\n"} end,
          "res" => fn _ -> %Result{stdout: "o\n", stderr: "e\n", exit_code: 7} end,
          "huge_code" => fn _ -> %Result{stdout: "", stderr: "", exit_code: 300} end,
          "neg_code" => fn _ -> %Result{stdout: "", stderr: "", exit_code: -1} end,
          "bad_code" => fn _ -> %Result{stdout: "", stderr: "", exit_code: :x} end,
          "nonsense" => fn _ -> :what end,
          "not_iodata" => fn _ -> {:ok, [:atom]} end
        })

      assert run(s, "ok; echo $?; err; echo $?; res; echo $?") ==
               {"ab\n0\n1\no\n7\n", "bad\ne\n", 0}

      assert run(s, "huge_code; echo $?; neg_code; echo $?") == {"44\n255\n", "", 0}

      {out, err, 0} = run(s, "bad_code; echo $?; nonsense; echo $?; not_iodata; echo $?")
      assert out == "1\n1\n1\n"
      assert err =~ "bad_code: invalid return value from builtin"
      assert err =~ "nonsense: invalid return value from builtin: :what"
      assert err =~ "not_iodata: raised ArgumentError"
    end
  end

  describe "failure isolation" do
    test "a raise, an exit or a kill fails only that command; the caller and its links live" do
      linked = spawn_link(fn -> Process.sleep(:infinity) end)

      s =
        builtins(%{
          "boom" => fn _ -> raise "nope" end,
          "quit" => fn _ -> exit(:bye) end,
          "die" => fn _ -> Process.exit(self(), :kill) end,
          "throws" => fn _ -> throw(:ball) end
        })

      {out, err, 0} = run(s, "boom; echo $?; quit; echo $?; die; echo $?; throws; echo $?")
      assert out == "1\n1\n1\n1\n"

      assert err ==
               "boom: raised RuntimeError: nope\nquit: exited: :bye\n" <>
                 "die: callback process exited: :killed\nthrows: threw: :ball\n"

      assert Process.alive?(linked)
      assert run(s, "echo still usable") == {"still usable\n", "", 0}
    end

    test "a timed-out builtin is killed at the deadline and lands no side effect later" do
      test_pid = self()

      s =
        builtins(
          %{
            "slow" => fn _ ->
              Process.sleep(300)
              send(test_pid, :late_side_effect)
              {:ok, "late\n"}
            end
          },
          builtin_timeout_ms: 50
        )

      assert run(s, "slow; echo $?; sleep 0.5") == {"124\n", "slow: timed out after 50 ms\n", 0}
      refute_received :late_side_effect
      Process.sleep(400)
      refute_received :late_side_effect
    end

    test "a timeout or cancel mid-call leaves no pending reply and no worker behind" do
      test_pid = self()

      s =
        Session.new(
          builtins: %{
            "hang" => fn _ ->
              [guardian] = Process.info(self(), :links) |> elem(1)
              send(test_pid, {:worker, self(), guardian})
              Process.sleep(:infinity)
            end
          },
          limits: [timeout_ms: 100]
        )

      assert {:error, msg} = Session.exec(s, "hang")
      assert msg =~ "timeout"
      assert_received {:worker, worker, _}
      assert Native.bridge_pending(s.ref) == 0
      Process.sleep(20)
      refute Process.alive?(worker)

      # A caller's workers and their guardian end with it.
      task = Task.async(fn -> Session.exec(s, "hang", timeout_ms: 10_000) end)
      assert_receive {:worker, worker2, guardian2}, 2000
      assert Session.cancel(s) == 1
      assert {:error, "execution cancelled"} = Task.await(task)
      assert Native.bridge_pending(s.ref) == 0
      Process.sleep(20)
      refute Process.alive?(worker2)
      refute Process.alive?(guardian2)
    end

    test "an oversized reply fails the command; a bad cap fails closed at new/1" do
      s = builtins(%{"big" => fn _ -> {:ok, :binary.copy("x", 2000)} end}, max_reply_bytes: 1000)

      assert run(s, "big; echo $?") ==
               {"1\n", "big: reply too large (2000 bytes, max_reply_bytes: 1000)\n", 0}

      s = builtins(%{"fits" => fn _ -> {:ok, :binary.copy("x", 1000)} end}, max_reply_bytes: 1000)
      assert {out, "", 0} = run(s, "fits | wc -c")
      assert out == "1000\n"

      for bad <- [nil, "16", -1, 1.5, :infinity] do
        assert_raise ArgumentError, ~r/max_reply_bytes/, fn ->
          Session.new(builtins: %{"x" => fn _ -> {:ok, ""} end}, max_reply_bytes: bad)
        end
      end
    end

    test "diagnostics from a failing callback are truncated" do
      s = builtins(%{"loud" => fn _ -> raise String.duplicate("e", 1_000_000) end})
      {"", err, 1} = run(s, "loud")
      assert byte_size(err) < 1200
      assert err =~ ~r/^loud: raised RuntimeError: e+\.\.\.\n$/
    end

    test "stdin beyond the cap fails the command before the callback runs" do
      test_pid = self()

      s =
        builtins(%{"eat" => fn _ -> send(test_pid, :called) && {:ok, ""} end}, max_reply_bytes: 10)

      assert run(s, "head -c 100 /dev/zero | eat; echo $?") ==
               {"1\n", "eat: standard input too large (max_reply_bytes: 10)\n", 0}

      refute_received :called
    end

    test "exec on the same session from a callback is an error, not a deadlock" do
      test_pid = self()
      other = Session.new()

      s =
        builtins(%{
          "reenter" => fn _ -> {:ok, ""} end,
          "reenter_task" => fn _ -> {:ok, ""} end,
          "other" => fn _ ->
            {:ok, %Result{stdout: out}} = Session.exec(other, "echo from other")
            {:ok, out}
          end
        })

      # A function cannot close over the session it is given to: add it after.
      cbs = s.callbacks.builtins

      cbs =
        Map.put(cbs, "reenter", fn _ ->
          send(test_pid, {:same, Session.exec(s, "echo no")}) && {:ok, ""}
        end)

      cbs =
        Map.put(cbs, "reenter_task", fn _ ->
          r = Task.await(Task.async(fn -> Session.exec(s, "echo no") end))
          send(test_pid, {:task, r}) && {:ok, ""}
        end)

      s = %{s | callbacks: %{s.callbacks | builtins: cbs}}
      assert run(s, "reenter; reenter_task; other") == {"from other\n", "", 0}
      assert_received {:same, {:error, msg}}
      assert msg =~ "callback of the same session"
      assert_received {:task, {:error, ^msg}}
    end

    test "back-calls do not block each other" do
      # `wait_for_read` only returns once the virtual-fs read in the same
      # pipeline has happened: serialized back-calls would time out here.
      {:ok, gate} = Agent.start_link(fn -> nil end)

      s =
        Session.new(
          builtins: %{
            "wait_for_read" => fn _ ->
              wait = fn wait ->
                if Agent.get(gate, & &1), do: :ok, else: Process.sleep(5) && wait.(wait)
              end

              wait.(wait)
              {:ok, "saw read\n"}
            end
          },
          virtual_fs: %{
            "/v" => fn
              %{op: :read} ->
                Agent.update(gate, fn _ -> true end)
                {:ok, "data\n"}

              _ ->
                {:error, :enotsup}
            end
          },
          builtin_timeout_ms: 2000
        )

      assert run(s, "wait_for_read | cat /v/f -") == {"data\nsaw read\n", "", 0}
    end
  end

  describe "virtual filesystems" do
    defmodule MapFs do
      @moduledoc false
      @behaviour ExBashkit.VirtualFs
      # A tree kept in an Agent: %{path => binary | :dir}.

      @impl true
      def read(agent, p) do
        case Agent.get(agent, &Map.get(&1, p)) do
          nil -> {:error, :enoent}
          :dir -> {:error, :eisdir}
          data -> {:ok, data}
        end
      end

      @impl true
      def write(agent, p, data), do: Agent.update(agent, &Map.put(&1, p, data))

      @impl true
      def append(agent, p, data),
        do: Agent.update(agent, &Map.update(&1, p, data, fn old -> old <> data end))

      @impl true
      def mkdir(agent, p, false) do
        Agent.get_and_update(agent, fn m ->
          if Map.has_key?(m, p), do: {{:error, :eexist}, m}, else: {:ok, Map.put(m, p, :dir)}
        end)
      end

      # Recursive: left to the session, which then creates one level at a time.
      def mkdir(_agent, _p, true), do: {:error, "Operation not supported"}

      @impl true
      def remove(agent, p, recursive) do
        Agent.get_and_update(agent, fn m ->
          cond do
            not Map.has_key?(m, p) ->
              {{:error, "ENOENT"}, m}

            recursive ->
              {:ok, Map.reject(m, fn {k, _} -> k == p or String.starts_with?(k, p <> "/") end)}

            true ->
              {:ok, Map.delete(m, p)}
          end
        end)
      end

      @impl true
      def list(agent, dir) do
        prefix = if dir == "/", do: "/", else: dir <> "/"

        Agent.get(agent, fn m ->
          for {p, v} <- m,
              p != dir,
              String.starts_with?(p, prefix),
              not String.contains?(String.replace_prefix(p, prefix, ""), "/") do
            {String.replace_prefix(p, prefix, ""), if(v == :dir, do: :dir, else: :file)}
          end
        end)
        |> then(&{:ok, &1})
      end

      @impl true
      def stat(agent, p) do
        case Agent.get(agent, &Map.get(&1, p)) do
          nil -> {:error, :enoent}
          :dir -> {:ok, %{type: :dir}}
          data -> {:ok, %{type: :file, size: byte_size(data), mtime: 86_400}}
        end
      end
    end

    setup do
      {:ok, agent} = Agent.start_link(fn -> %{"/" => :dir, "/a.txt" => "alpha\n"} end)
      %{agent: agent, s: Session.new(virtual_fs: %{"/mnt/store" => {MapFs, agent}})}
    end

    test "reads, writes, appends, mkdir, listing, stat, rm and globbing", %{s: s, agent: agent} do
      script = """
      cat /mnt/store/a.txt
      echo one > /mnt/store/b.txt; echo two >> /mnt/store/b.txt
      mkdir /mnt/store/d && echo x > /mnt/store/d/x
      ls /mnt/store; ls /mnt
      wc -c < /mnt/store/b.txt
      cd /mnt/store && echo *.txt
      rm b.txt; ls
      [ -d d ] && [ -f a.txt ] && echo types-ok
      """

      assert run(s, script) ==
               {"alpha\na.txt\nb.txt\nd\nstore\n8\na.txt b.txt\na.txt\nd\ntypes-ok\n", "", 0}

      assert Agent.get(agent, &Map.get(&1, "/d/x")) == "x\n"
    end

    test "mkdir -p and rm -r work through non-recursive calls", %{s: s, agent: agent} do
      assert run(
               s,
               "mkdir -p /mnt/store/p/q/r && echo x > /mnt/store/p/q/r/f; rm -r /mnt/store/p; ls /mnt/store"
             ) ==
               {"a.txt\n", "", 0}

      assert Agent.get(agent, &Map.keys/1) |> Enum.sort() == ["/", "/a.txt"]
    end

    test "CPython reads, writes, lists and walks a virtual-fs mount", %{agent: agent} do
      s =
        Session.new(
          virtual_fs: %{"/mnt/store" => {MapFs, agent}},
          python: true,
          cwd: "/mnt/store"
        )

      py = """
      import os, pathlib
      print(open("a.txt").read(), end="")
      with open("/mnt/store/out.csv", "w") as f:
          f.write("x,1\\ny,2\\n")
      with open("out.csv", "a") as f:
          f.write("z,3\\n")
      os.mkdir("sub")
      pathlib.Path("sub/n.txt").write_text("n\\n")
      print(sorted(os.listdir(".")), os.getcwd())
      print(sum(int(l.split(",")[1]) for l in open("out.csv")))
      print([(d, sorted(fs)) for d, _, fs in sorted(os.walk("/mnt/store"))])
      print(os.path.getsize("out.csv"), os.path.isdir("sub"), os.path.exists("nope"))
      os.remove("sub/n.txt")
      try:
          open("nope")
      except FileNotFoundError as e:
          print("missing:", e.filename)
      """

      {out, err, 0} = run(s, "python3 - <<'EOF'\n#{py}EOF\ncat out.csv; ls sub | wc -l")
      assert err == ""

      assert out ==
               "alpha\n" <>
                 "['a.txt', 'out.csv', 'sub'] /mnt/store\n" <>
                 "6\n" <>
                 "[('/mnt/store', ['a.txt', 'out.csv']), ('/mnt/store/sub', ['n.txt'])]\n" <>
                 "12 True False\n" <>
                 "missing: nope\n" <>
                 "x,1\ny,2\nz,3\n0\n"

      assert Agent.get(agent, &Map.get(&1, "/out.csv")) == "x,1\ny,2\nz,3\n"
      assert Agent.get(agent, &Map.get(&1, "/sub")) == :dir
    end

    test "a dispatch function gets :recursive, and errors may be text" do
      parent = self()

      fs = fn
        %{op: :mkdir, path: p, recursive: r} ->
          send(parent, {:mkdir, p, r})
          :ok

        %{op: :remove, path: p, recursive: r} ->
          send(parent, {:remove, p, r})
          {:error, "Directory not empty"}

        %{op: :stat, path: p} when p in ["/", "/a"] ->
          {:ok, %{type: :dir}}

        %{op: :stat} ->
          {:error, :enoent}

        %{op: :read} ->
          {:error, "backend offline"}
      end

      s = Session.new(virtual_fs: %{"/v" => fs}, python: [runtime: :monty])
      # Monty's pathlib mkdir(parents=True) asks for the whole path at once.
      py = "import pathlib; pathlib.Path('/v/a/b').mkdir(parents=True)"
      {_, err, _} = run(s, "mkdir /v/c; python3 -c \"#{py}\"; rmdir /v/a; cat /v/f")
      assert_received {:mkdir, "/c", false}
      assert_received {:mkdir, "/a/b", true}
      assert_received {:remove, "/a", false}
      assert err =~ "Directory not empty"
      assert err =~ "cat: /v/f: Input/output error"
    end

    test "errno atoms become the usual messages", %{s: s} do
      {_, err, 0} = run(s, "cat /mnt/store/nope; mkdir /mnt/store/a.txt; cat /mnt/store; true")

      assert err ==
               "cat: /mnt/store/nope: No such file or directory\n" <>
                 "mkdir: cannot create directory ‘/mnt/store/a.txt’: File exists\n" <>
                 "cat: /mnt/store: Is a directory\n"
    end

    test "a backend that raises, times out or answers nonsense fails that operation only" do
      fs = fn
        %{op: :read, path: "/raise"} -> raise "broken"
        %{op: :read, path: "/slow"} -> Process.sleep(1000)
        %{op: :read, path: "/nonsense"} -> :nonsense
        %{op: :read} -> {:ok, "fine\n"}
        _ -> {:error, :enotsup}
      end

      s = Session.new(virtual_fs: %{"/v" => fs}, builtin_timeout_ms: 50)
      {out, err, 0} = run(s, "cat /v/raise; cat /v/slow; cat /v/nonsense; cat /v/ok; true")
      assert out == "fine\n"

      assert err ==
               "cat: /v/raise: Input/output error\ncat: /v/slow: Input/output error\n" <>
                 "cat: /v/nonsense: Input/output error\n"
    end

    test "listings with bad names are refused whole" do
      for bad <- ["", ".", "..", "a/b", "a\0b", <<255>>, {"ok", :socket}, 42] do
        fs = fn
          %{op: :list} -> {:ok, ["fine", bad]}
          %{op: :stat, path: "/"} -> {:ok, %{type: :dir}}
          _ -> {:error, :enotsup}
        end

        s = Session.new(virtual_fs: %{"/v" => fs})
        {out, err, code} = run(s, "ls /v")

        assert {out, err, code} ==
                 {"", "ls: cannot open directory '/v': Input/output error\n", 2},
               "entry #{inspect(bad)}"
      end
    end

    test "an endless tree is bounded by the path depth limit" do
      fs = fn
        %{op: :list} -> {:ok, [{"deeper", :dir}]}
        %{op: :stat} -> {:ok, %{type: :dir}}
        _ -> {:error, :enotsup}
      end

      s = Session.new(virtual_fs: %{"/v" => fs}, limits: [max_path_depth: 20])
      {out, err, code} = run(s, "find /v | wc -l; ls -R /v | wc -l")
      assert code == 0
      # find lists /v and 19 levels below it; ls -R ends at the same depth.
      assert String.split(out) == ["20", "58"]
      assert err =~ "File name too long (max_path_depth: 20)"
    end

    test "bad mount points and backends are refused at new/1" do
      for p <- ["/", "relative", "/a/../b", "/a//b", "/a/", "/a/./b", ""] do
        assert_raise ArgumentError, ~r/virtual_fs/, fn ->
          Session.new(virtual_fs: %{p => fn _ -> {:error, :enotsup} end})
        end
      end

      for backend <- [nil, "x", NoSuchModule, {NoSuchModule, 1}, fn -> :ok end] do
        assert_raise ArgumentError, ~r/virtual_fs/, fn ->
          Session.new(virtual_fs: %{"/v" => backend})
        end
      end

      assert_raise ArgumentError, ~r/mounted twice/, fn ->
        Session.new(virtual_fs: [{"/v", MapFs}, {"/v", MapFs}])
      end
    end

    test "the file API does not reach a virtual mount", %{s: s} do
      assert {:error, msg} = Session.read_file(s, "/mnt/store/a.txt")
      assert msg =~ "Operation not supported"
    end
  end

  describe "options" do
    test "builtin names and functions are validated" do
      for {name, fun} <- [
            {"if", fn _ -> :ok end},
            {"a b", fn _ -> :ok end},
            {"a/b", fn _ -> :ok end},
            {"", fn _ -> :ok end},
            {"x", fn -> :ok end},
            {"x", :not_a_fun}
          ] do
        assert_raise ArgumentError, ~r/:builtins/, fn -> Session.new(builtins: %{name => fun}) end
      end

      for bad <- [0, -5, nil, "1"] do
        assert_raise ArgumentError, ~r/builtin_timeout_ms/, fn ->
          Session.new(builtin_timeout_ms: bad)
        end
      end
    end
  end
end
