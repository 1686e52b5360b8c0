# What the agent-workspace features cost per call, beside a plain exec in the
# same run.
#
#   MIX_ENV=prod mix run bench/workspace.exs

alias ExBashkit.{Session, Tool}

Code.require_file("support.exs", __DIR__)

defmodule WsBench do
  defdelegate median(fun, n), to: BenchSupport
end

plain = Session.new(history: false)
with_history = Session.new()

hooks = Session.new(before_exec: fn _ -> :ok end, after_exec: fn _ -> :ok end, history: false)

files = for i <- 1..1000, into: %{}, do: {"/w/f#{i}", "data #{i}\n"}
tracked = Session.new(files: files)

base = WsBench.median(fn -> {:ok, _} = Session.exec(plain, "true") end, 2000)
hist = WsBench.median(fn -> {:ok, _} = Session.exec(with_history, "true") end, 2000)
hook = WsBench.median(fn -> {:ok, _} = Session.exec(hooks, "true") end, 2000)

tool =
  WsBench.median(
    fn -> {:ok, _} = Tool.run(plain, %{"name" => "bash", "input" => %{"script" => "true"}}) end,
    2000
  )

job =
  WsBench.median(
    fn ->
      {:ok, id} = Session.exec(plain, "true", background: true)
      {:ok, _} = Session.await_job(plain, id)
    end,
    300
  )

changes =
  WsBench.median(
    fn ->
      {:ok, _} = Session.exec(tracked, "for i in 1 2 3 4 5 6 7 8 9 10; do echo x >> /w/f$i; done")
      {:ok, _} = Session.changes(tracked)
    end,
    200
  )

changes_exec =
  WsBench.median(
    fn ->
      {:ok, _} = Session.exec(tracked, "for i in 1 2 3 4 5 6 7 8 9 10; do echo x >> /w/f$i; done")
    end,
    200
  )

IO.puts("""
exec "true" (history off, baseline)      #{base} µs
  with history on                        #{hist} µs  (+#{hist - base} µs)
  with before_exec + after_exec hooks    #{hook} µs  (+#{hook - base} µs)
  through ExBashkit.Tool.run             #{tool} µs  (+#{tool - base} µs)
background job start + await of "true"   #{job} µs
changes/2 over 1,000 files, 10 changed   #{changes - changes_exec} µs  (exec #{changes_exec} µs, both #{changes} µs)
""")
