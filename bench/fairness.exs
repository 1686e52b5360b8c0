# Fair sharing under load, through the NIF as a busy Phoenix node would see it.
#
#   MIX_ENV=prod mix run bench/fairness.exs
#
# 1. Latency of `echo hi` in its own session while 2 x cores CPU-bound scripts
#    run (p50 / p99 over 300 calls), beside the same with nothing else running.
# 2. A burst of 1,000 CPU-heavy execs at once: how many timed out, whether they
#    finished in the order they were submitted, and the wall time of the burst
#    against the ideal (one script's time x 1,000 / cores).
# 3. 10,000 sessions running `sleep 0.1` at once: the wall time (target: < 2 s).

alias ExBashkit.Session

defmodule Fair do
  def pct(list, p),
    do: list |> Enum.sort() |> Enum.at(min(length(list) - 1, trunc(length(list) * p)))

  def ms(us), do: :io_lib.format("~.1f ms", [us / 1000]) |> to_string()

  def echo_latencies(n) do
    s = Session.new()

    for _ <- 1..n do
      {us, {:ok, _}} = :timer.tc(fn -> Session.exec(s, "echo hi") end)
      Process.sleep(2)
      us
    end
  end
end

cores = System.schedulers_online()
busy_count = 2 * cores
busy = "while :; do :; done"

limits = [
  timeout_ms: 60_000,
  max_commands: 10 ** 12,
  max_loop_iterations: 10 ** 12,
  max_total_loop_iterations: 10 ** 12
]

idle = Fair.echo_latencies(300)

hogs =
  for _ <- 1..busy_count do
    s = Session.new(limits: limits)
    {s, Task.async(fn -> Session.exec(s, busy) end)}
  end

Process.sleep(200)
loaded = Fair.echo_latencies(300)
for {s, t} <- hogs, do: Session.cancel(s) && Task.await(t, 60_000)

IO.puts("1. `echo hi` latency, #{busy_count} CPU-bound scripts on #{cores} cores")
IO.puts("   idle:   p50 #{Fair.ms(Fair.pct(idle, 0.5))}  p99 #{Fair.ms(Fair.pct(idle, 0.99))}")

IO.puts(
  "   loaded: p50 #{Fair.ms(Fair.pct(loaded, 0.5))}  p99 #{Fair.ms(Fair.pct(loaded, 0.99))}  (target p99 < 50 ms)"
)

# 2. The burst: each script runs ~10 ms of arithmetic, under the 20 ms
#    quantum after which a running script lets a waiting one take its turn.
heavy = "s=0; for ((i=0;i<5000;i++)); do s=$((s+i)); done; echo $s"
{one_us, {:ok, _}} = :timer.tc(fn -> Session.exec(Session.new(limits: limits), heavy) end)
n = 1_000
parent = self()
t0 = System.monotonic_time(:microsecond)

for i <- 1..n do
  spawn(fn ->
    s = Session.new(limits: Keyword.put(limits, :timeout_ms, 5_000))
    {us, r} = :timer.tc(fn -> Session.exec(s, heavy) end)
    send(parent, {:done, i, us, System.monotonic_time(:microsecond) - t0, r})
  end)
end

results = for _ <- 1..n, do: receive(do: ({:done, i, us, at, r} -> {i, us, at, r}))
wall = System.monotonic_time(:microsecond) - t0
timeouts = Enum.count(results, fn {_, _, _, r} -> match?({:error, m} when is_binary(m), r) end)
overloaded = Enum.count(results, fn {_, _, _, r} -> r == {:error, :overloaded} end)
order = results |> Enum.sort_by(&elem(&1, 2)) |> Enum.map(&elem(&1, 0))
# Spawn order is submission order; count how far completions stray from it.
inversions = order |> Enum.chunk_every(2, 1, :discard) |> Enum.count(fn [a, b] -> a > b end)

IO.puts("2. burst of #{n} CPU-heavy execs (one alone: #{Fair.ms(one_us)})")

IO.puts(
  "   wall #{Fair.ms(wall)} (ideal #{Fair.ms(one_us * n / cores)}), errors #{timeouts}, overloaded #{overloaded}"
)

IO.puts(
  "   completions out of spawn order: #{inversions} of #{n - 1} neighbours (processes race to exec)"
)

for {_, _, _, {:error, m}} <- results |> Enum.uniq_by(fn {_, _, _, r} -> r end),
    do: IO.puts("   error: #{inspect(m)}")

# 3. 10,000 sleepers.
sessions = for _ <- 1..10_000, do: Session.new()

{us, _} =
  :timer.tc(fn ->
    sessions
    |> Enum.map(fn s -> Task.async(fn -> {:ok, _} = Session.exec(s, "sleep 0.1") end) end)
    |> Enum.each(&Task.await(&1, 60_000))
  end)

IO.puts("3. 10,000 sessions running `sleep 0.1` at once: #{Fair.ms(us)} (target < 2 s)")
