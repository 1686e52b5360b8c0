# Sessions across a cluster: `mix run examples/cluster.exs`
#
# Starts two more nodes on this machine (:peer), then: a named session lives
# on one node and is called from another, hibernates into the disk store and
# wakes on the next call, migrates, and survives the death of its node.

alias ExBashkit.Server

unless Node.alive?() do
  System.cmd("epmd", ["-daemon"])

  # epmd may take a moment to listen after -daemon returns.
  Enum.reduce_while(1..100, nil, fn _, _ ->
    case :net_kernel.start([:"main@127.0.0.1", :longnames]) do
      {:ok, _} -> {:halt, :ok}
      _ -> Process.sleep(50) && {:cont, nil}
    end
  end)
end

dir = Path.join(System.tmp_dir!(), "ex_bashkit_cluster_example")
File.rm_rf!(dir)
store = {ExBashkit.Store.Disk, dir: dir}
Application.put_env(:ex_bashkit, :store, store)

start_peer = fn name ->
  args =
    Enum.flat_map(:code.get_path(), &[~c"-pa", &1]) ++
      [~c"-setcookie", Atom.to_charlist(Node.get_cookie())]

  {:ok, peer, node} = :peer.start(%{name: name, host: ~c"127.0.0.1", args: args})
  {:ok, _} = :erpc.call(node, Application, :ensure_all_started, [:ex_bashkit])
  :ok = :erpc.call(node, Application, :put_env, [:ex_bashkit, :store, store])
  {node, peer}
end

{b, _peer_b} = start_peer.(:b)
{c, peer_c} = start_peer.(:c)
say = fn label, value -> IO.puts(String.pad_trailing(label, 44) <> inspect(value)) end

# 1. Start a session on node b; call it from here and from c.
# Every call that changes it is checkpointed before it returns (durability: :sync).
{:ok, pid} = Server.start("agent-1", node: b)
say.("started on", node(pid))
{:ok, _} = Server.exec("agent-1", "echo 'step 1' > /notes; count=1")

{:ok, r} =
  :erpc.call(c, Server, :exec, ["agent-1", "count=$((count+1)); cat /notes; echo $count"])

say.("called from c, ran on b:", r.stdout)

# 2. Hibernate (idle sessions do it after :hibernate_after_ms); the next call wakes it.
:ok = Server.hibernate("agent-1")
say.("after hibernate", Server.status("agent-1"))
{t, {:ok, r}} = :timer.tc(fn -> Server.exec("agent-1", "echo $count") end)
say.("woken by a call in #{div(t, 1000)} ms, count =", r.stdout)
say.("now lives on", Server.status("agent-1"))

# 3. Migrate to c: calls in flight finish first, later calls follow.
{:ok, pid} = Server.migrate("agent-1", c)
say.("migrated to", node(pid))
{:ok, _} = Server.exec("agent-1", "echo 'step 3' >> /notes")

# 4. Kill c: the next call restarts the session from the disk store's newest
# checkpoint; the append above returned, so it is there.
:peer.stop(peer_c)
{:ok, r} = Server.exec("agent-1", "cat /notes")
say.("after c died, from the disk store:", r.stdout)
say.("now lives on", Server.status("agent-1"))
IO.puts("(background jobs never move: a snapshot holds state and files, not running scripts)")
Server.stop("agent-1")
