defmodule ExBashkit.ClusterTest do
  # ExBashkit.Server across three real nodes (this one and two :peer nodes):
  # start on one, call from another, hibernate and wake elsewhere, migrate
  # with a call in flight, and recover from the disk store when a node dies.
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Server}

  @moduletag timeout: 300_000

  setup_all do
    ExBashkit.TestNodes.ensure_distributed()

    dir = Path.join(System.tmp_dir!(), "ex_bashkit_cluster_#{System.unique_integer([:positive])}")
    {b, peer_b} = start_peer("b")
    {c, peer_c} = start_peer("c")
    true = :erpc.call(b, Node, :connect, [c])

    on_exit(fn ->
      for p <- [peer_b, peer_c],
          do:
            (try do
               :peer.stop(p)
             catch
               _, _ -> :ok
             end)

      File.rm_rf(dir)
    end)

    %{b: b, c: c, dir: dir}
  end

  defp start_peer(tag) do
    args =
      Enum.flat_map(:code.get_path(), &[~c"-pa", &1]) ++
        [~c"-setcookie", Atom.to_charlist(Node.get_cookie())]

    name = :"ex_bashkit_#{tag}_#{System.unique_integer([:positive])}"
    {:ok, peer, node} = :peer.start(%{name: name, host: ~c"127.0.0.1", args: args})
    {:ok, _} = :erpc.call(node, Application, :ensure_all_started, [:ex_bashkit])
    {node, peer}
  end

  defp on(node, fun, args), do: :erpc.call(node, Server, fun, args, 120_000)

  defp eventually(fun, tries \\ 1200) do
    case fun.() do
      v when v in [nil, false] and tries > 0 ->
        Process.sleep(25)
        eventually(fun, tries - 1)

      v ->
        v
    end
  end

  defp seen_within(fun, ms) do
    cond do
      fun.() -> true
      ms <= 0 -> false
      true -> Process.sleep(20) && seen_within(fun, ms - 20)
    end
  end

  defp uniq(tag), do: "#{tag}-#{System.unique_integer([:positive])}"

  test "start on one node, call from another: the call runs where the session lives",
       %{b: b, c: c} do
    name = uniq("remote")
    assert {:ok, pid} = Server.start(name, node: b, hibernate_after_ms: :infinity)
    assert node(pid) == b
    assert {:ok, _} = Server.exec(name, "x=from_a; echo a > /a")
    # C finds it through :pg and runs the call on B.
    assert eventually(fn -> on(c, :whereis, [name]) == pid end)
    assert {:ok, %Result{stdout: "from_a a\n"}} = on(c, :exec, [name, "echo $x $(cat /a)"])
    assert {:live, ^b} = on(c, :status, [name])
    assert :ok = Server.stop(name)
  end

  test "hibernate on one node, wake on another", %{b: b, c: c} do
    name = uniq("sleepy")
    {:ok, _} = Server.start(name, node: b, hibernate_after_ms: :infinity)
    {:ok, _} = Server.exec(name, "count=7; echo kept > /k")
    assert :ok = Server.hibernate(name)
    assert eventually(fn -> Server.status(name) == :stored end)

    # C wakes it (from B's memory store) and it now lives on C.
    assert {:ok, %Result{stdout: "7 kept\n"}} = on(c, :exec, [name, "echo $count $(cat /k)"])
    assert {:live, ^c} = Server.status(name)
    assert :ok = Server.stop(name)
  end

  test "migrate to a node that is not there: one flat error, the session stays", %{b: b} do
    name = uniq("nowhere")
    {:ok, pid} = Server.start(name, node: b, hibernate_after_ms: :infinity)
    {:ok, _} = Server.exec(name, "kept=1")
    assert {:error, :noconnection} = Server.migrate(name, :"nobody@127.0.0.1")
    # A peer another test killed can make `global` drop this node's link to
    # b for a moment (its overlapping-partition guard): the session is still
    # the same process once the link is back.
    Node.connect(b)
    assert seen_within(fn -> Server.whereis(name) == pid end, 5_000)
    assert {:ok, %Result{stdout: "1\n"}} = Server.exec(name, "echo $kept")
    assert :ok = Server.stop(name)
  end

  test "migrate: the call in flight finishes, later calls follow", %{b: b, c: c} do
    name = uniq("mover")
    {:ok, pid} = Server.start(name, node: b, hibernate_after_ms: :infinity)
    {:ok, _} = Server.exec(name, "v=1; head -c 100000 /dev/zero > /big")

    slow = Task.async(fn -> Server.exec(name, "sleep 1; v=2; echo slow done") end)
    Process.sleep(200)
    assert {:ok, new} = Server.migrate(name, c)
    assert node(new) == c
    assert eventually(fn -> not :erpc.call(b, Process, :alive?, [pid]) end)
    assert {:ok, %Result{stdout: "slow done\n"}} = Task.await(slow, 120_000)

    # The move waited for it: its change travelled.
    assert {:ok, %Result{stdout: "2 100000\n"}} = Server.exec(name, "echo $v $(wc -c < /big)")
    assert eventually(fn -> Server.whereis(name) == new end)
    assert {:live, ^c} = on(b, :status, [name])
    assert :ok = Server.stop(name)
  end

  test "a node dies: the next call restarts the session from the disk store", %{
    b: b,
    c: c,
    dir: dir
  } do
    # A third peer, to kill.
    {d, peer_d} = start_peer("d")
    store = {ExBashkit.Store.Disk, dir: dir}

    for n <- [node(), b, c, d],
        do: :ok = :erpc.call(n, Application, :put_env, [:ex_bashkit, :store, store])

    try do
      name = uniq("survivor")

      {:ok, pid} =
        Server.start(name, node: d, hibernate_after_ms: :infinity, checkpoint_after_ms: 20)

      assert node(pid) == d
      {:ok, _} = Server.exec(name, "state=checkpointed; echo saved > /s")

      # Wait for the checkpoint to reach the disk.
      assert eventually(fn ->
               match?({:ok, %{snapshot: s}} when is_binary(s), ExBashkit.Store.get(name))
             end)

      ref = Process.monitor(pid)
      :peer.stop(peer_d)
      assert_receive {:DOWN, ^ref, :process, ^pid, _}, 60_000
      # B learns of the death on its own connection: until it has, a call from
      # B could still be in flight to D (and fail with :nodedown, as documented).
      assert eventually(fn -> d not in :erpc.call(b, Node, :list, [:connected]) end)

      # From B: the session comes back on B from its last record.
      assert {:ok, %Result{stdout: "checkpointed saved\n"}} =
               on(b, :exec, [name, "echo $state $(cat /s)"])

      assert {:live, ^b} = Server.status(name)
      assert :ok = Server.stop(name)
    after
      for n <- [node(), b, c], do: :erpc.call(n, Application, :delete_env, [:ex_bashkit, :store])
    end
  end
end
