# CPython in the sandbox (python: true) beside the host's python3 for the same
# programs, medians of several runs, plus what loading the runtime costs.
#
#   MIX_ENV=prod mix run bench/python.exs      (BENCH_PYTHON=/path/python3 picks the host's)
#
# Ratios are sandbox time / host time, measured in the same run.

alias ExBashkit.Session

Code.require_file("support.exs", __DIR__)

defmodule PyBench do
  # One warm-up: a run of the csv case takes seconds.
  def median(fun, n), do: BenchSupport.median(fun, n, 1)

  def ms(us), do: :io_lib.format("~.1f ms", [us / 1000]) |> to_string()
end

# The interpreter itself, not a launcher script in front of it (pyenv's shim).
host =
  System.get_env("BENCH_PYTHON") ||
    System.cmd(System.find_executable("python3"), ["-c", "import sys; print(sys.executable)"])
    |> elem(0)
    |> String.trim()

{load_us, _} =
  :timer.tc(fn -> :ok = ExBashkit.Native.python_load(ExBashkit.Python.Runtime.default_path()) end)

IO.puts("loading the runtime (first session of this VM): #{PyBench.ms(load_us)}")

dir = Path.join(System.tmp_dir!(), "ex_bashkit_pybench_#{System.os_time()}")
File.mkdir_p!(dir)
csv = for i <- 0..459_999, into: "", do: "#{i},name#{i},#{rem(i, 97)}.5\n"
File.write!(Path.join(dir, "data.csv"), csv)
s = Session.new(python: true, cwd: "/w", files: %{"/w/data.csv" => csv})

imports =
  "import json, re, csv, hashlib, datetime, collections, itertools, functools, pathlib, argparse, textwrap, statistics, dataclasses"

sum = "import csv; print(sum(float(r[2]) for r in csv.reader(open('data.csv'))))"

IO.puts("host: #{host}; data.csv: #{Float.round(byte_size(csv) / 1_000_000, 1)} MB")

for {name, prog, n} <- [
      {"print(1)", "print(1)", 20},
      {"13 imports", imports, 10},
      {"10 MB csv sum", sum, 5}
    ] do
  {:ok, %{exit_code: 0, stdout: out}} = Session.exec(s, "python3 -c \"#{prog}\"")
  {^out, 0} = System.cmd(host, ["-c", prog], cd: dir)

  inside =
    PyBench.median(
      fn -> {:ok, %{exit_code: 0}} = Session.exec(s, "python3 -c \"#{prog}\"") end,
      n
    )

  outside = PyBench.median(fn -> {_, 0} = System.cmd(host, ["-c", prog], cd: dir) end, n)

  IO.puts(
    String.pad_trailing(name, 14) <>
      " sandbox #{PyBench.ms(inside)}  host #{PyBench.ms(outside)}  ratio #{Float.round(inside / outside, 2)}"
  )
end

File.rm_rf!(dir)

# The deadline: how long past the exec's timeout a busy program (a loop in
# Python, a loop in C) takes to come back.
for {name, prog} <- [{"python loop", "while True: pass"}, {"C loop", "sum(range(10**15))"}] do
  overshoot =
    PyBench.median(
      fn ->
        {:error, "execution timed out" <> _} =
          Session.exec(s, "python3 -c '#{prog}'", timeout_ms: 500)
      end,
      5
    ) - 500_000

  IO.puts(String.pad_trailing("past deadline", 14) <> " #{name}: #{PyBench.ms(overshoot)}")
end
