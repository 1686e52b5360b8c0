# How long a cancel takes to land: from Session.cancel/1 to the exec's return,
# in a busy loop and in a sleep. MIX_ENV=prod mix run bench/cancel.exs
alias ExBashkit.Session

forever = 10 ** 15
limits = [max_commands: forever, max_loop_iterations: forever, max_total_loop_iterations: forever]

measure = fn script ->
  for _ <- 1..50 do
    s = Session.new(limits: limits)
    parent = self()

    spawn(fn ->
      send(parent, {:done, Session.exec(s, script), System.monotonic_time(:microsecond)})
    end)

    Process.sleep(5)
    t0 = System.monotonic_time(:microsecond)
    1 = Session.cancel(s)

    receive do
      {:done, {:error, "execution cancelled"}, t1} -> t1 - t0
    end
  end
  |> Enum.sort()
end

for {name, script} <- [{"busy loop", "while :; do :; done"}, {"sleep 100", "sleep 100"}] do
  ts = measure.(script)

  IO.puts(
    "#{String.pad_trailing(name, 12)} median #{Enum.at(ts, 25)} µs, max #{List.last(ts)} µs (50 runs)"
  )
end
