defmodule ExBashkit.WorkspaceTest do
  # The agent-workspace features: background jobs, history, aliases and hooks.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  defp run(s, script) do
    {:ok, %Result{} = r} = Session.exec(s, script)
    {r.stdout, r.stderr, r.exit_code}
  end

  describe "background jobs" do
    test "a job runs across execs, streams into VFS files and keeps its exit code" do
      s = Session.new()

      {:ok, id} =
        Session.exec(s, "echo start; sleep 0.2; echo end; echo oops >&2; exit 3", background: true)

      # It is running while other execs go on, and its output is already there.
      assert [%{id: ^id, status: :running, exit_code: nil, stdout_path: out, stderr_path: err}] =
               Session.jobs(s)

      Process.sleep(50)
      assert run(s, "cat #{out}; echo x=$x") == {"start\nx=\n", "", 0}
      assert {:ok, %{status: :exited, exit_code: 3}} = Session.await_job(s, id)
      assert run(s, "cat #{out} #{err}") == {"start\nend\noops\n", "", 0}
      assert [%{name: "echo start; sleep 0.2; echo end; echo oops >&2; exit 3"}] = Session.jobs(s)
    end

    test "a job works on a copy of the shell state but shares the filesystem" do
      s = Session.new()
      {:ok, _} = Session.exec(s, "v=parent")
      {:ok, id} = Session.exec(s, "v=child; cd /tmp; echo $v > /shared.txt", background: true)
      {:ok, _} = Session.await_job(s, id)
      assert run(s, "echo $v; pwd; cat /shared.txt") == {"parent\n/\nchild\n", "", 0}
    end

    test "terminate_job stops it with status 143; unknown and finished jobs say so" do
      s = Session.new()

      {:ok, id} =
        Session.exec(s, "while :; do echo tick; sleep 0.01; done",
          background: true,
          name: "ticker"
        )

      Process.sleep(50)
      assert :ok = Session.terminate_job(s, id)

      assert {:ok, %{status: :terminated, exit_code: 143, name: "ticker"}} =
               Session.await_job(s, id)

      {"", "", 0} = run(s, "sleep 0.05")
      {ticks, "", 0} = run(s, "wc -l < /tmp/jobs/#{id}.out")
      # Nothing more is written after the stop.
      {"", "", 0} = run(s, "sleep 0.05")
      assert run(s, "wc -l < /tmp/jobs/#{id}.out") == {ticks, "", 0}
      assert Session.terminate_job(s, id) == {:error, :not_running}
      assert Session.terminate_job(s, 999) == {:error, :not_found}
    end

    test "jobs obey the limits and a per-session cap" do
      s = Session.new(max_jobs: 1, limits: [timeout_ms: 100])
      {:ok, id} = Session.exec(s, "sleep 5", background: true)
      assert {:error, msg} = Session.exec(s, "true", background: true)
      assert msg =~ "max_jobs: 1"

      assert {:ok, %{status: :failed, exit_code: 124, error: err}} = Session.await_job(s, id)
      assert err =~ "timeout_ms"
      assert {:ok, _} = Session.exec(s, "true", background: true)
    end

    test "custom builtins work inside a job, after the starting call returned" do
      s = Session.new(builtins: %{"greet" => fn %{args: [n]} -> {:ok, "hello #{n}\n"} end})
      {:ok, id} = Session.exec(s, "sleep 0.05; greet job", background: true)
      {:ok, %{exit_code: 0}} = Session.await_job(s, id)
      assert run(s, "cat /tmp/jobs/#{id}.out") == {"hello job\n", "", 0}
    end

    test "jobs end when their session is garbage-collected" do
      # `observer` shares the filesystem but not the session that runs the job.
      {observer, parent} = {nil, self()}

      spawn(fn ->
        s = Session.new()
        send(parent, {:observer, Session.new(workspace: s)})

        {:ok, _} =
          Session.exec(s, "while :; do echo t >> /tmp/ticks; sleep 0.01; done", background: true)

        # Leave only once the job has ticked (a busy machine may start it late).
        Enum.find(1..200, fn _ ->
          Process.sleep(10)
          match?({:ok, %{exit_code: 0}}, Session.exec(s, "test -s /tmp/ticks"))
        end)
      end)

      observer = receive(do: ({:observer, o} -> o), after: (2000 -> observer))
      Process.sleep(150)
      # The spawned process is gone; collect so the session resource is freed.
      :erlang.garbage_collect()
      Process.sleep(50)
      {:ok, %{stdout: n1}} = Session.exec(observer, "wc -l < /tmp/ticks")
      Process.sleep(100)
      {:ok, %{stdout: n2}} = Session.exec(observer, "wc -l < /tmp/ticks")
      assert String.to_integer(String.trim(n1)) > 0
      assert n1 == n2
    end

    test "await_job is told by message, times out without leaving one behind" do
      s = Session.new()
      {:ok, id} = Session.exec(s, "sleep 0.3; exit 4", background: true)
      assert Session.await_job(s, id, 20) == {:error, :timeout}
      # The abandoned wait sends nothing later.
      refute_receive _, 50
      started = System.monotonic_time(:millisecond)
      assert {:ok, %{status: :exited, exit_code: 4}} = Session.await_job(s, id, :infinity)
      # Woken by the job's end, not by a polling interval.
      assert System.monotonic_time(:millisecond) - started < 1_000
      assert {:ok, %{exit_code: 4}} = Session.await_job(s, id, 0)
      refute_receive _, 20
      assert Session.await_job(s, 12_345) == {:error, :not_found}
      assert Session.await_job(s, :nope) == {:error, :not_found}

      # Several waiters of one job all hear of it.
      {:ok, id} = Session.exec(s, "sleep 0.1", background: true)
      parent = self()
      for _ <- 1..3, do: spawn(fn -> send(parent, {:awaited, Session.await_job(s, id)}) end)

      for _ <- 1..3,
          do: assert_receive({:awaited, {:ok, %{status: :exited, exit_code: 0}}}, 2_000)
    end

    test "bad options are refused" do
      s = Session.new()

      assert_raise ArgumentError, ~r/:background/, fn ->
        Session.exec(s, "true", background: 1)
      end

      assert_raise ArgumentError, ~r/:name/, fn -> Session.exec(s, "true", name: "x") end
      assert_raise ArgumentError, ~r/max_jobs/, fn -> Session.new(max_jobs: -1) end
    end
  end

  describe "history and aliases" do
    test "every exec is recorded with its status, searchable, and listed by `history`" do
      s = Session.new()
      {:ok, _} = Session.exec(s, "echo a")
      {:ok, _} = Session.exec(s, "false")
      {:ok, _} = Session.exec(s, "echo b")

      assert Session.history(s, prefix: "echo") == [
               %{number: 1, command: "echo a", exit_code: 0},
               %{number: 3, command: "echo b", exit_code: 0}
             ]

      assert [%{command: "false", exit_code: 1}] = Session.history(s, contains: "fal")
      assert [%{number: 3}] = Session.history(s, limit: 1)
      assert run(s, "history 2") == {"    3  echo b\n    4  history 2\n", "", 0}
      :ok = Session.clear_history(s)
      assert Session.history(s) == []
    end

    test "history can be turned off, and stopped scripts have no status" do
      assert Session.history(tap(Session.new(history: false), &Session.exec(&1, "echo x"))) == []
      s = Session.new(limits: [max_loop_iterations: 3])
      {:error, _} = Session.exec(s, "while :; do :; done")
      assert [%{exit_code: nil}] = Session.history(s)
    end

    test "history survives a snapshot" do
      s = Session.new()
      {:ok, _} = Session.exec(s, "echo kept")
      t = Session.new()
      {:ok, bytes} = Session.snapshot(s)
      {:ok, _} = Session.restore(t, bytes)
      assert [%{command: "echo kept", exit_code: 0}] = Session.history(t)
    end

    test "aliases can be listed, set and removed, and expand in scripts" do
      s = Session.new()
      :ok = Session.put_alias(s, "greet", "echo hello")
      assert run(s, "greet world; alias") == {"hello world\nalias greet='echo hello'\n", "", 0}
      {:ok, _} = Session.exec(s, "alias ll='ls -l'")
      assert Session.aliases(s) == %{"greet" => "echo hello", "ll" => "ls -l"}
      :ok = Session.delete_alias(s, "greet")
      assert Session.aliases(s) == %{"ll" => "ls -l"}
      assert {:error, _} = Session.put_alias(s, "bad name", "x")
    end

    test "alias calls do not wait for a running exec" do
      s = Session.new()
      task = Task.async(fn -> Session.exec(s, "sleep 0.5; alias from_script='echo s'") end)
      Process.sleep(50)
      started = System.monotonic_time(:millisecond)
      :ok = Session.put_alias(s, "during", "echo during")
      assert Session.aliases(s) == %{"during" => "echo during"}
      assert System.monotonic_time(:millisecond) - started < 200
      {:ok, _} = Task.await(task)
      # The script's own alias and the one set meanwhile are both there.
      assert Session.aliases(s) == %{"during" => "echo during", "from_script" => "echo s"}
      assert run(s, "during; from_script") == {"during\ns\n", "", 0}
    end
  end

  describe "hooks" do
    test "before_exec may rewrite or refuse a script" do
      s =
        Session.new(
          before_exec: fn
            "rm " <> _ -> {:error, "no deleting"}
            "say " <> rest -> {:ok, "echo " <> rest}
            _ -> :ok
          end
        )

      assert run(s, "say hi") == {"hi\n", "", 0}
      assert Session.exec(s, "rm -rf /") == {:error, "script refused by before_exec: no deleting"}
      assert run(s, "echo as is") == {"as is\n", "", 0}
    end

    test "after_exec may inspect or replace the result" do
      s =
        Session.new(
          after_exec: fn
            {:ok, %Result{stdout: out} = r} ->
              {:ok, %{r | stdout: String.replace(out, "secret", "***")}}

            other ->
              other
          end
        )

      assert run(s, "echo my secret") == {"my ***\n", "", 0}
    end

    test "hooks are isolated and fail closed" do
      for hook <- [
            fn _ -> raise "boom" end,
            fn _ -> Process.exit(self(), :kill) end,
            fn _ -> :bad end
          ] do
        s = Session.new(before_exec: hook)
        assert {:error, msg} = Session.exec(s, "echo x")
        assert msg =~ "before_exec"
        s = Session.new(after_exec: hook)
        assert {:error, msg} = Session.exec(s, "echo x")
        assert msg =~ "after_exec"
      end

      s = Session.new(before_exec: fn _ -> Process.sleep(:infinity) end, builtin_timeout_ms: 50)
      assert {:error, "before_exec failed: timed out after 50 ms"} = Session.exec(s, "echo x")
      assert_raise ArgumentError, ~r/before_exec/, fn -> Session.new(before_exec: :nope) end
    end
  end

  describe "change tracking" do
    test "changes since the last call and since a marker, with hashes" do
      s = Session.new(files: %{"/w/keep" => "k", "/w/edit" => "old", "/w/gone" => "g"})
      # The baseline starts after the session was set up: seeded files are not changes.
      assert {:ok, %{created: [], modified: [], deleted: []}} = Session.changes(s)
      m = Session.mark(s)

      {:ok, _} =
        Session.exec(s, "echo new > /w/new; echo more >> /w/edit; rm /w/gone; echo k > /w/k2")

      {:ok, c} = Session.changes(s)
      assert Enum.map(c.created, & &1.path) == ["/w/k2", "/w/new"]
      assert [%{path: "/w/edit", size: 8, sha256: sha}] = c.modified
      assert sha == Base.encode16(:crypto.hash(:sha256, "oldmore\n"), case: :lower)
      assert c.deleted == ["/w/gone"]
      # The baseline moved: nothing since.
      assert {:ok, %{created: [], modified: [], deleted: []}} = Session.changes(s)
      # A marker still sees everything since it was taken, and a path filter applies.
      {:ok, since_m} = Session.changes(s, since: m, path: "/w/new")
      assert {Enum.map(since_m.created, & &1.path), since_m.deleted} == {["/w/new"], []}
      # Rewriting the same bytes is no change.
      {:ok, _} = Session.exec(s, "echo new > /w/new")
      assert {:ok, %{modified: []}} = Session.changes(s)
      assert {:error, _} = Session.changes(s, since: 999)
    end
  end

  describe "shared workspaces" do
    setup do
      root = Path.join(System.tmp_dir!(), "ex_bashkit_ws_#{System.unique_integer([:positive])}")
      File.mkdir_p!(Path.join(root, "data"))
      File.write!(Path.join(root, "data/d.txt"), "data\n")
      on_exit(fn -> File.rm_rf!(root) end)

      main =
        Session.new(
          mounts: [{"/data", Path.join(root, "data"), :read_only}],
          virtual_fs: %{"/api" => fn %{op: :read, path: p} -> {:ok, "api#{p}\n"} end},
          builtins: %{"kv" => fn _ -> {:ok, "kv\n"} end}
        )

      %{main: main}
    end

    test "sessions over one filesystem keep their own cwd, env and history", %{main: main} do
      other = Session.new(workspace: main)
      {:ok, _} = Session.exec(main, "cd /tmp; export WHO=main; echo shared > /tmp/f")

      assert run(other, "cat /tmp/f; pwd; echo ${WHO:-unset}; cat /api/x /data/d.txt; kv") ==
               {"shared\n/\nunset\napi/x\ndata\nkv\n", "", 0}

      assert [%{command: "cd /tmp; export WHO=main; echo shared > /tmp/f"}] =
               Session.history(main)

      assert [%{command: "cat /tmp/f" <> _}] = Session.history(other)
    end

    test "a session limited to some mounts is refused the others on every path", %{main: main} do
      agent = Session.new(workspace: main, allowed_mounts: ["/data"])
      assert run(agent, "cat /data/d.txt") == {"data\n", "", 0}

      script = """
      cat /api/x
      echo hi > /api/y
      cat < /api/z
      ls /api
      cp /api/a /tmp/
      v=$(cat /api/q)
      echo /api/* | cat
      true
      """

      {"/api/*\n", err, 0} = run(agent, script)
      lines = String.split(err, "\n", trim: true)
      assert length(lines) == 6
      assert Enum.all?(lines, &(&1 =~ "not allowed to access mount '/api'")), err

      {:ok, id} = Session.exec(agent, "cat /api/x", background: true)
      assert {:ok, %{exit_code: 1}} = Session.await_job(agent, id)
      assert {:error, msg} = Session.read_file(agent, "/api/x")
      assert msg =~ "not allowed to access mount '/api'"
      assert {"kv\n", "", 0} = run(agent, "kv")
    end

    test "workspace options are checked", %{main: main} do
      assert_raise ArgumentError, ~r/cannot be given with :workspace/, fn ->
        Session.new(workspace: main, builtins: %{"x" => fn _ -> {:ok, ""} end})
      end

      assert_raise ArgumentError, ~r/not a mount of the workspace/, fn ->
        Session.new(workspace: main, allowed_mounts: ["/nope"])
      end

      assert_raise ArgumentError, ~r/only applies with :workspace/, fn ->
        Session.new(allowed_mounts: ["/data"])
      end
    end
  end
end
