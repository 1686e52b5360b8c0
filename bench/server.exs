# ExBashkit.Server: the cost of durable checkpoints, wake latency, migration
# time, memory of idle sessions.
#
#   MIX_ENV=prod mix run bench/server.exs            (N=10000 by default)
#   N=2000 MIX_ENV=prod mix run bench/server.exs     (a quicker run)
#   ONLY=checkpoint MIX_ENV=prod mix run bench/server.exs   (one section:
#     checkpoint, wake, migration or memory)
#
# 0. Checkpoints: the latency of an exec that changes a variable and a small
#    file, in sessions holding a 10 KB and a 10 MB filesystem, with the disk
#    store: a bare Session (the baseline), a server that does not checkpoint
#    on the call path (durability: :interval, checkpoint_after_ms: :infinity),
#    a server with durability: :sync (a delta appended and fsynced before each
#    reply), the interval mode (checkpoint_after_ms: 1_000), and what a full
#    snapshot written per exec would cost instead of a delta. Medians and p99
#    of R calls, and each median as a ratio to the baseline's in this run.
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
only = System.get_env("ONLY")
run? = fn section -> only in [nil, "", section] end

unless Node.alive?() do
  System.cmd("epmd", ["-daemon"])

  # epmd may take a moment to listen after -daemon returns.
  Enum.reduce_while(1..100, nil, fn _, _ ->
    case :net_kernel.start([:"bench@127.0.0.1", :longnames]) do
      {:ok, _} -> {:halt, :ok}
      _ -> Process.sleep(50) && {:cont, nil}
    end
  end)
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

# --- 0. checkpoint cost -----------------------------------------------------

checkpoints = fn ->
  dir = Path.join(System.tmp_dir!(), "ex_bashkit_bench_ckpt")
  File.rm_rf!(dir)
  Application.put_env(:ex_bashkit, :store, {ExBashkit.Store.Disk, dir: dir})
  script = "n=$((n+1)); echo $n > /counter"

  IO.puts(
    "== checkpoint cost (disk store in #{dir}; an exec `#{script}`; median and p99 of R calls)"
  )

  for {label, files, file_bytes, r} <- [{"10 KB", 10, 1024, 400}, {"10 MB", 10, 1_048_576, 150}] do
    fill =
      "mkdir -p /data; for i in $(seq #{files}); do head -c #{file_bytes} /dev/urandom > /data/f$i; done"

    time_calls = fn call ->
      for _ <- 1..r, do: elem(:timer.tc(fn -> {:ok, _} = call.() end), 0)
    end

    # The baseline: a session with no server, no store.
    s = ExBashkit.Session.new(limits: [max_memory_bytes: 512_000_000])
    {:ok, _} = ExBashkit.Session.exec(s, fill)
    base = time_calls.(fn -> ExBashkit.Session.exec(s, script) end)

    server = fn tag, opts ->
      name = "ckpt-#{label}-#{tag}"
      {:ok, _} = Server.start(name, [hibernate_after_ms: :infinity] ++ opts)
      {:ok, _} = Server.exec(name, fill)
      {:ok, _} = Server.exec(name, script)
      times = time_calls.(fn -> Server.exec(name, script) end)
      {:ok, rec} = ExBashkit.Store.get(name)
      deltas = rec.deltas

      avg =
        if deltas == [],
          do: 0,
          else: div(Enum.sum(Enum.map(deltas, &byte_size/1)), length(deltas))

      Server.stop(name)
      {times, avg, byte_size(rec.snapshot || "")}
    end

    {none, _, _} = server.("none", durability: :interval, checkpoint_after_ms: :infinity)
    {sync, delta_avg, full_size} = server.("sync", durability: :sync)
    {interval, _, _} = server.("interval", durability: :interval, checkpoint_after_ms: 1_000)

    # What sealing and writing a full snapshot after every exec costs.
    key = :crypto.strong_rand_bytes(32)
    name = "ckpt-#{label}-full"

    full =
      for i <- 1..r do
        elem(
          :timer.tc(fn ->
            {:ok, _} = ExBashkit.Session.exec(s, script)
            {:ok, bytes} = ExBashkit.Session.snapshot(s, key: key)

            :ok =
              ExBashkit.Store.put(%{
                name: name,
                generation: i,
                snapshot: bytes,
                options: [],
                server: []
              })
          end),
          0
        )
      end

    ExBashkit.Store.delete(name)

    # The floor under any durable write: 400 bytes appended to a file and fsynced.
    floor_file = Path.join(dir, "floor")

    floor =
      for _ <- 1..r do
        elem(
          :timer.tc(fn ->
            {:ok, fd} = :file.open(floor_file, [:append, :raw, :binary])
            :ok = :file.write(fd, :binary.copy("x", 400))
            :ok = :file.sync(fd)
            :file.close(fd)
          end),
          0
        )
      end

    b = pct.(base, 50)

    row = fn what, times ->
      m = pct.(times, 50)

      IO.puts(
        "  #{String.pad_trailing(label, 6)} #{String.pad_trailing(what, 44)} #{String.pad_leading(ms.(m), 9)} " <>
          "(p99 #{ms.(pct.(times, 99))})  #{:erlang.float_to_binary(m / b, decimals: 2)}x baseline"
      )
    end

    IO.puts("  #{label}: full snapshot #{full_size} bytes, average delta #{delta_avg} bytes")
    row.("baseline: Session.exec, no server", base)
    row.("server, no checkpoint on the call path", none)
    row.("server, durability: :sync (delta + fsync)", sync)
    row.("server, durability: :interval (1 s)", interval)
    row.("exec + full snapshot + fsync per exec", full)
    row.("floor: append 400 bytes + fsync (no exec)", floor)

    IO.puts(
      "  #{String.pad_trailing(label, 6)} :sync costs #{:erlang.float_to_binary(pct.(sync, 50) / pct.(floor, 50), decimals: 2)}x the fsync floor; " <>
        ":interval saves #{ms.(pct.(sync, 50) - pct.(interval, 50))} a call"
    )
  end

  Application.delete_env(:ex_bashkit, :store)
  File.rm_rf!(dir)
end

if run?.("checkpoint"), do: checkpoints.()

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

if run?.("wake") do
  IO.puts("== wake latency (300 sessions, a call `echo $x`)")
  wake.("memory", nil)
  dir = Path.join(System.tmp_dir!(), "ex_bashkit_bench_store")
  File.rm_rf!(dir)
  wake.("disk", {ExBashkit.Store.Disk, dir: dir})
  Application.delete_env(:ex_bashkit, :store)
  File.rm_rf!(dir)
end

# --- 2. migration of a 10 MB session -----------------------------------------

if run?.("migration") do
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
end

# --- 3. memory of n idle sessions --------------------------------------------

if run?.("memory") do
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
        :erpc.call(
          node,
          Code,
          :eval_string,
          [fill_code, [n: n, hibernate?: hibernate?]],
          3_600_000
        )
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
end
