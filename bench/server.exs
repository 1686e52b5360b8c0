# ExBashkit.Server: wake latency, migration time, memory of idle sessions.
#
#   MIX_ENV=prod mix run bench/server.exs            (N=10000 by default)
#   N=2000 MIX_ENV=prod mix run bench/server.exs     (a quicker run)
#
# 1. Wake latency: a call to a live server vs a call that wakes a hibernated
#    one (memory store and disk store), median and p99 over 300 sessions.
# 2. Migration: a session holding a 10 MB filesystem moved to another node
#    and back (a :peer node on this machine), median of 5 round trips.
# 3. Memory of N idle sessions, each in a fresh :peer node so numbers do not
#    mix: N live servers vs N hibernated (sealed into the memory store), as
#    the node's RSS and the BEAM's own count (processes + ETS).

alias ExBashkit.Server

n = String.to_integer(System.get_env("N", "10000"))

unless Node.alive?() do
  System.cmd("epmd", ["-daemon"])
  {:ok, _} = :net_kernel.start([:"bench@127.0.0.1", :longnames])
end

start_peer = fn name ->
  args =
    Enum.flat_map(:code.get_path(), &[~c"-pa", &1]) ++
      [~c"-setcookie", Atom.to_charlist(Node.get_cookie())]

  {:ok, peer, node} = :peer.start(%{name: name, host: ~c"127.0.0.1", args: args})
  {:ok, _} = :erpc.call(node, Application, :ensure_all_started, [:ex_bashkit])
  {node, peer}
end

pct = fn list, p ->
  sorted = Enum.sort(list)
  Enum.at(sorted, min(length(sorted) - 1, round(p / 100 * (length(sorted) - 1))))
end

ms = fn us -> :erlang.float_to_binary(us / 1000, decimals: 2) <> " ms" end
mib = fn bytes -> :erlang.float_to_binary(bytes / 1_048_576, decimals: 1) <> " MiB" end

# --- 1. wake latency ---------------------------------------------------------

wake = fn label, store ->
  if store,
    do: Application.put_env(:ex_bashkit, :store, store),
    else: Application.delete_env(:ex_bashkit, :store)

  names = for i <- 1..300, do: "wake-#{label}-#{i}"

  for name <- names do
    {:ok, _} = Server.start(name, hibernate_after_ms: :infinity, checkpoint_after_ms: :infinity)
    {:ok, _} = Server.exec(name, "x=#{name}; seq 100 > /f; f() { echo hi; }")
  end

  live =
    for name <- names, do: elem(:timer.tc(fn -> {:ok, _} = Server.exec(name, "echo $x") end), 0)

  for name <- names, do: :ok = Server.hibernate(name)

  woken =
    for name <- names, do: elem(:timer.tc(fn -> {:ok, _} = Server.exec(name, "echo $x") end), 0)

  for name <- names, do: Server.stop(name)

  IO.puts(
    "#{String.pad_trailing(label, 8)} live call #{ms.(pct.(live, 50))} (p99 #{ms.(pct.(live, 99))}); " <>
      "waking call #{ms.(pct.(woken, 50))} (p99 #{ms.(pct.(woken, 99))})"
  )
end

IO.puts("== wake latency (300 sessions, a call `echo $x`)")
wake.("memory", nil)
dir = Path.join(System.tmp_dir!(), "ex_bashkit_bench_store")
File.rm_rf!(dir)
wake.("disk", {ExBashkit.Store.Disk, dir: dir})
Application.delete_env(:ex_bashkit, :store)
File.rm_rf!(dir)

# --- 2. migration of a 10 MB session -----------------------------------------

IO.puts("== migration of a session with a 10 MB filesystem")
{other, other_peer} = start_peer.(:bench_other)
{:ok, _} = Server.start("big", hibernate_after_ms: :infinity, checkpoint_after_ms: :infinity)
# 10 files of 1 MiB of varied bytes (not a run of zeros).
{:ok, _} =
  Server.exec(
    "big",
    "for i in 0 1 2 3 4 5 6 7 8 9; do seq 1 200000 | head -c 1048576 > /data/f$i 2>/dev/null || { mkdir -p /data; seq 1 200000 | head -c 1048576 > /data/f$i; }; done; du -sb /data"
  )

{:ok, snap} = Server.snapshot("big")
IO.puts("snapshot size #{mib.(byte_size(snap))}")

times =
  for _ <- 1..5 do
    {t1, {:ok, _}} = :timer.tc(fn -> Server.migrate("big", other) end)
    {:ok, %{stdout: "10485760\n"}} = Server.exec("big", "cat /data/* | wc -c")
    {t2, {:ok, _}} = :timer.tc(fn -> Server.migrate("big", node()) end)
    [t1, t2]
  end
  |> List.flatten()

IO.puts(
  "migrate (one way, incl. snapshot, transfer, restore): median #{ms.(pct.(times, 50))}, max #{ms.(Enum.max(times))}"
)

Server.stop("big")
:peer.stop(other_peer)

# --- 3. memory of n idle sessions --------------------------------------------

IO.puts("== memory of #{n} idle sessions (each a shell with x=1 and a 4-byte file)")

# Code run on the peer (functions of this script do not exist there).
measure_code = """
:erlang.garbage_collect()
for p <- Process.list(), do: :erlang.garbage_collect(p)
# Freed native memory goes back to the OS after the allocator's purge delay.
Process.sleep(3_000)
[_, rss] = Regex.run(~r/VmRSS:\\s+(\\d+) kB/, File.read!("/proc/self/status"))
%{rss: String.to_integer(rss) * 1024, beam: :erlang.memory(:total), ets: :erlang.memory(:ets)}
"""

measure = fn node ->
  {v, _} = :erpc.call(node, Code, :eval_string, [measure_code], 600_000)
  v
end

fill_code = """
for i <- 1..n do
  name = "idle-\#{i}"
  {:ok, _} = ExBashkit.Server.start(name, hibernate_after_ms: :infinity, checkpoint_after_ms: :infinity)
  {:ok, _} = ExBashkit.Server.exec(name, "x=1; echo hi > /f")
  if hibernate?, do: :ok = ExBashkit.Server.hibernate(name)
end
"""

run = fn label, hibernate? ->
  {node, peer} = start_peer.(:"bench_mem_#{label}")
  before = measure.(node)

  {t, _} =
    :timer.tc(fn ->
      :erpc.call(node, Code, :eval_string, [fill_code, [n: n, hibernate?: hibernate?]], 3_600_000)
    end)

  after_ = measure.(node)
  live = :erpc.call(node, DynamicSupervisor, :count_children, [ExBashkit.ServerSupervisor])

  IO.puts(
    "#{String.pad_trailing(label, 11)} RSS +#{mib.(after_.rss - before.rss)} " <>
      "(#{div(after_.rss - before.rss, n)} B/session), BEAM +#{mib.(after_.beam - before.beam)} " <>
      "(ETS +#{mib.(after_.ets - before.ets)}), live servers #{live.active}, set up in #{div(t, 1_000_000)} s"
  )

  # A hibernated session wakes from this node's store.
  if hibernate? do
    {:ok, %{stdout: "1\n"}} = :erpc.call(node, Server, :exec, ["idle-#{n}", "echo $x"])
  end

  :peer.stop(peer)
end

run.("live", false)
run.("hibernated", true)
