defmodule ExBashkit.ServerTest do
  # ExBashkit.Server on one node: names, the whole Session API, hibernation
  # into both stores and waking, stop, and telemetry. (Peer nodes: cluster_test.exs.)
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Server, Store}

  defp uniq(tag), do: "#{tag}-#{System.unique_integer([:positive])}"

  # Poll `fun` until it returns a truthy value (a loaded machine may be slow).
  defp eventually(fun, tries \\ 600) do
    case fun.() do
      v when v in [nil, false] and tries > 0 ->
        Process.sleep(25)
        eventually(fun, tries - 1)

      v ->
        v
    end
  end

  defp with_config(pairs, fun) do
    for {k, v} <- pairs, do: Application.put_env(:ex_bashkit, k, v)

    try do
      fun.()
    after
      for {k, _} <- pairs, do: Application.delete_env(:ex_bashkit, k)
    end
  end

  test "a named session keeps its state and offers the whole Session API" do
    name = uniq("api")

    assert {:ok, pid} =
             Server.start(name, files: %{"/in" => "x\n"}, hibernate_after_ms: :infinity)

    assert {:error, {:already_started, ^pid}} = Server.start(name)
    assert Server.whereis(name) == pid
    assert Server.status(name) == {:live, node()}

    assert {:ok, %Result{}} = Server.exec(name, "n=41; cd /tmp")
    assert {:ok, %Result{stdout: "42 /tmp\n"}} = Server.exec(name, "echo $((n+1)) $PWD")
    assert {:ok, %Result{stdout: "in\n"}} = Server.exec(name, "cat", stdin: "in\n")
    assert :ok = Server.write_file(name, "/a/b.txt", "hello")
    assert {:ok, "hello"} = Server.read_file(name, "/a/b.txt")
    assert {:ok, [{"b.txt", :file}]} = Server.list_dir(name, "/a")
    assert :ok = Server.mkdir(name, "/c/d", parents: true)
    assert :ok = Server.rename(name, "/a/b.txt", "/a/c.txt")
    assert {:ok, %{type: :file, size: 5}} = Server.stat(name, "/a/c.txt")
    assert :ok = Server.remove(name, "/c", recursive: true)
    assert [%{command: "n=41; cd /tmp"} | _] = Server.history(name)
    assert :ok = Server.put_alias(name, "ll", "ls -l")
    assert %{"ll" => "ls -l"} = Server.aliases(name)
    assert :ok = Server.delete_alias(name, "ll")
    marker = Server.mark(name)
    assert {:ok, _} = Server.exec(name, "echo y > /new")
    assert {:ok, %{created: [%{path: "/new"}]}} = Server.changes(name, since: marker)
    assert {:ok, id} = Server.exec(name, "echo bg", background: true)
    assert {:ok, %{status: :exited}} = Server.await_job(name, id, 30_000)
    assert [%{id: ^id}] = Server.jobs(name)
    assert {:error, :not_running} = Server.terminate_job(name, id)
    assert {:ok, bytes} = Server.snapshot(name)
    assert {:ok, _} = Server.exec(name, "n=0")
    assert {:ok, ^name} = Server.restore(name, bytes)
    assert {:ok, %Result{stdout: "41\n"}} = Server.exec(name, "echo $n")
    assert :ok = Server.clear_history(name)
    assert :ok = Server.stop(name)
    assert Server.status(name) == :unknown
    assert {:error, :not_found} = Server.exec(name, "true")
  end

  test "bad options: {:error, _} naming the option, before anything starts or is stored" do
    dir = Path.join(System.tmp_dir!(), uniq("ex_bashkit_store"))

    with_config([store: {Store.Disk, dir: dir}], fn ->
      cases = [
        {[nope: 1], :nope, "unknown option"},
        {[hibernate_after_ms: -5], :hibernate_after_ms, "non-negative integer"},
        {[checkpoint_after_ms: "x"], :checkpoint_after_ms, "positive integer"},
        {[durability: :eventually], :durability, ":sync or :interval"},
        {[limits: [max_commands: -1]], :limits, "max_commands"},
        {[mounts: [{"/d", "/etc", :read_only}]], :mounts, "refused"},
        {[workspace: :x], :workspace, "cannot be used"},
        {[node: "b"], :node, "node name"}
      ]

      for {opts, key, text} <- cases do
        name = uniq("bad")
        assert {:error, {:invalid_option, ^key, msg}} = Server.start(name, opts)
        assert msg =~ text
        assert Server.status(name) == :unknown
      end

      # Nothing was stored, nothing is running.
      assert File.ls(dir) in [{:ok, []}, {:error, :enoent}]
    end)
  end

  test "cancel reaches a running exec" do
    name = uniq("cancel")
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)
    task = Task.async(fn -> Server.exec(name, "sleep 100") end)
    assert eventually(fn -> Server.cancel(name) > 0 end)
    assert {:error, "execution cancelled"} = Task.await(task, 60_000)
    assert {:ok, %Result{stdout: "alive\n"}} = Server.exec(name, "echo alive")
    Server.stop(name)
  end

  test "an idle session hibernates into the store and the next call wakes it" do
    name = uniq("idle")
    {:ok, pid} = Server.start(name, hibernate_after_ms: 100, checkpoint_after_ms: 50)
    ref = Process.monitor(pid)
    {:ok, _} = Server.exec(name, "greeting=hello; echo data > /f; f() { echo fn; }")
    assert_receive {:DOWN, ^ref, :process, ^pid, :normal}, 60_000
    assert Server.status(name) == :stored
    assert {:ok, %{snapshot: bytes}} = Store.get(name)
    assert is_binary(bytes)

    assert {:ok, %Result{stdout: "hello data fn\n"}} =
             Server.exec(name, "echo $greeting $(cat /f) $(f)")

    assert {:live, _} = Server.status(name)
    Server.stop(name)
  end

  test "hibernate/1 seals at once; the disk store writes one file per session, atomically" do
    dir = Path.join(System.tmp_dir!(), uniq("ex_bashkit_store"))

    with_config([store: {Store.Disk, dir: dir}], fn ->
      name = {:chat, uniq("disk")}
      {:ok, pid} = Server.start(name, hibernate_after_ms: :infinity, limits: [max_commands: 100])
      {:ok, _} = Server.exec(name, "x=1")
      assert :ok = Server.hibernate(name)
      refute Process.alive?(pid)
      assert [file] = File.ls!(dir)
      assert String.ends_with?(file, ".session")
      assert Store.Disk.names(dir: dir) == [name]
      # The session's options came back with it.
      assert {:error, msg} = Server.exec(name, "for i in $(seq 200); do :; done")
      assert msg =~ "max_commands"
      assert {:ok, %Result{stdout: "1\n"}} = Server.exec(name, "echo $x")
      assert :ok = Server.stop(name)
      assert File.ls!(dir) == []
    end)
  end

  @tag :capture_log
  test "a tampered record is reported and never loaded" do
    dir = Path.join(System.tmp_dir!(), uniq("ex_bashkit_store"))

    with_config([store: {Store.Disk, dir: dir}], fn ->
      name = uniq("tamper")
      {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)
      {:ok, _} = Server.exec(name, "x=1")
      :ok = Server.hibernate(name)
      [file] = Path.wildcard(Path.join(dir, "*.session"))
      bin = File.read!(file)
      # One byte of the snapshot flipped: the record's checksum no longer holds.
      at = byte_size(bin) - 40
      <<head::binary-size(at), b, rest::binary>> = bin
      File.write!(file, [head, Bitwise.bxor(b, 1), rest])
      assert {:error, {:corrupt_record, why}} = Server.exec(name, "echo $x")
      assert why =~ "checksum"
      assert Server.whereis(name) == nil
      Server.stop(name)
    end)
  end

  test "the application checks its config and starts its tree" do
    assert Process.whereis(ExBashkit.Registry)
    assert Process.whereis(ExBashkit.ServerSupervisor)
    assert Process.whereis(ExBashkit.Store.Memory)

    with_config([hibernate_after_ms: :soon], fn ->
      assert_raise ArgumentError, ~r/config :ex_bashkit, :hibernate_after_ms/, fn ->
        Server.start(uniq("bad"))
      end
    end)
  end

  describe "telemetry" do
    test "exec events, decided at run time" do
      unless Code.ensure_loaded?(:telemetry) do
        # A stand-in for the package (not a dependency of this project).
        Code.compile_string("""
        defmodule :telemetry do
          def execute(event, measurements, meta) do
            case Process.whereis(:ex_bashkit_telemetry_sink) do
              nil -> :ok
              pid -> send(pid, {:event, event, measurements, meta})
            end
          end
        end
        """)
      end

      assert ExBashkit.Telemetry.refresh()
      Process.register(self(), :ex_bashkit_telemetry_sink)
      s = ExBashkit.Session.new(limits: [max_commands: 5])
      {:ok, _} = ExBashkit.Session.exec(s, "echo hi; exit 3")
      assert_receive {:event, [:ex_bashkit, :exec, :start], %{system_time: _}, %{session: ^s}}
      assert_receive {:event, [:ex_bashkit, :exec, :stop], %{duration: d, bytes_out: 3}, meta}
      assert d >= 0
      assert %{session: ^s, exit_status: 3, limit: nil, result: :ok} = meta

      {:error, _} = ExBashkit.Session.exec(s, "for i in $(seq 20); do :; done")

      assert_receive {:event, [:ex_bashkit, :exec, :stop], _,
                      %{session: ^s, limit: :max_commands, result: :error}}

      assert_raise ArgumentError, fn -> ExBashkit.Session.exec(s, "true", bogus: 1) end

      assert_receive {:event, [:ex_bashkit, :exec, :exception], %{duration: _},
                      %{session: ^s, kind: :error}}

      # A background job's end.
      {:ok, id} = ExBashkit.Session.exec(s, "sleep 0.1; exit 4", background: true)

      assert_receive {:event, [:ex_bashkit, :job, :stop], %{duration: d},
                      %{job: %{id: ^id}, status: :exited, exit_status: 4}},
                     10_000

      assert d > 0

      # A server's checkpoints.
      name = uniq("telemetry")
      {:ok, _} = Server.start(name, hibernate_after_ms: :infinity)
      {:ok, _} = Server.exec(name, "x=1")

      assert_receive {:event, [:ex_bashkit, :checkpoint, :stop], %{bytes: b1},
                      %{name: ^name, kind: :full}}

      {:ok, _} = Server.exec(name, "x=2")

      assert_receive {:event, [:ex_bashkit, :checkpoint, :stop], %{bytes: b2},
                      %{name: ^name, kind: :delta}}

      assert b2 < b1
      Server.stop(name)

      Process.unregister(:ex_bashkit_telemetry_sink)
    end
  end
end
