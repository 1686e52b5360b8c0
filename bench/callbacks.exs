# Cost of the callback bridge: 10,000 custom-builtin calls in one script, and
# `cat` over a virtual-fs file, beside the same work done by a shell function /
# an in-memory file in the same run (the baseline), and beside bash running
# `/bin/true` 10,000 times (what an external command costs a real shell).
#
#   MIX_ENV=prod mix run bench/callbacks.exs

alias ExBashkit.Session

defmodule CallbackBench do
  def time(fun, runs) do
    fun.()

    for(_ <- 1..runs, do: elem(:timer.tc(fun), 0))
    |> Enum.sort()
    |> Enum.at(div(runs, 2))
  end

  def per_call(us, n), do: (:io_lib.format("~.2f", [us / n]) |> to_string()) <> " µs"
end

n = 10_000
limits = [max_commands: 100_000, max_loop_iterations: 100_000]
loop = fn cmd -> "for ((i=0; i<#{n}; i++)); do #{cmd}; done" end

loop10 = "for i in 1 2 3 4 5 6 7 8 9 10; do noop; done"

mib = :binary.copy("x", 1_048_576)

s =
  Session.new(
    builtins: %{"noop" => fn _ -> {:ok, ""} end, "echo1" => fn %{args: [a]} -> {:ok, a} end},
    virtual_fs: %{"/v" => fn %{op: :read} -> {:ok, mib} end},
    files: %{"/m/file" => mib},
    limits: limits
  )

builtin = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, loop.("noop")) end, 5)
builtin_out = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, loop.("echo1 $i")) end, 5)

function =
  CallbackBench.time(fn -> {:ok, _} = Session.exec(s, "f() { :; }; " <> loop.("f")) end, 5)

# The two short shapes an application really sends: one call per exec and
# ten per exec, beside `exec(s, "true")` (the floor an exec costs anyway).
one_exec = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, "noop") end, 2001)
ten_exec = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, loop10) end, 2001)
true_exec = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, "true") end, 2001)

# The same with one scheduler online: a call hands work to a worker process,
# and an idle second scheduler woken to run it (and spinning after) slows
# both down on a small VM; this shows how much of the cost is that.
online = :erlang.system_info(:schedulers_online)
:erlang.system_flag(:schedulers_online, 1)
one_exec_s1 = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, "noop") end, 2001)
ten_exec_s1 = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, loop10) end, 2001)
:erlang.system_flag(:schedulers_online, online)

bash_true =
  CallbackBench.time(fn -> {_, 0} = System.cmd("bash", ["-c", loop.("/bin/true")]) end, 3)

vfs = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, "cat /v/file > /dev/null") end, 50)
mem = CallbackBench.time(fn -> {:ok, _} = Session.exec(s, "cat /m/file > /dev/null") end, 50)

IO.puts("""
#{n} calls in one script (median of runs):
  custom builtin, no output     #{div(builtin, 1000)} ms  (#{CallbackBench.per_call(builtin, n)} per call)
  custom builtin, echoing arg   #{div(builtin_out, 1000)} ms  (#{CallbackBench.per_call(builtin_out, n)} per call)
  shell function (baseline)     #{div(function, 1000)} ms  (#{CallbackBench.per_call(function, n)} per call)
  bash running /bin/true        #{div(bash_true, 1000)} ms  (#{CallbackBench.per_call(bash_true, n)} per call)
  builtin / bash+/bin/true      #{Float.round(builtin / bash_true, 3)}
short execs (median of 2001 runs):
  exec(s, "noop")               #{one_exec} µs  (exec(s, "true"): #{true_exec} µs)
  ten noop calls in one exec    #{ten_exec} µs  (#{CallbackBench.per_call(ten_exec, 10)} per call)
  the same, 1 scheduler online  #{one_exec_s1} µs, ten: #{CallbackBench.per_call(ten_exec_s1, 10)} per call (#{online} online above)
cat of a 1 MiB file:
  virtual fs                    #{vfs} µs
  in-memory fs (baseline)       #{mem} µs
  ratio                         #{Float.round(vfs / mem, 2)}
""")
