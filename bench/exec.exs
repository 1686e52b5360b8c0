# Medians of ExBashkit beside the same scripts run by a spawned `bash -c`.
#
#   MIX_ENV=prod mix run bench/exec.exs
#
# Ratios are ExBashkit time / bash time, measured in the same run.

alias ExBashkit.Session

Code.require_file("support.exs", __DIR__)

defmodule Bench do
  defdelegate median(fun, n), to: BenchSupport

  def bash(script) do
    {_, 0} = System.cmd("bash", ["-c", script])
  end

  def fmt(us) when us >= 1000, do: :io_lib.format("~.2f ms", [us / 1000]) |> to_string()
  def fmt(us), do: "#{us} µs"
end

loop = "i=0; s=0; while [ $i -lt 1000 ]; do i=$((i+1)); s=$((s+i)); done; echo $s"
{:ok, %{stdout: "500500\n"}} = ExBashkit.exec(loop)

session = Session.new()

rows = [
  {"Session.new()", fn -> Session.new() end, fn -> Bench.bash("true") end, 2000},
  {"exec \"echo hi\"", fn -> {:ok, _} = Session.exec(session, "echo hi") end,
   fn -> Bench.bash("echo hi") end, 2000},
  {"1,000-iteration loop", fn -> {:ok, _} = Session.exec(session, loop) end,
   fn -> Bench.bash(loop) end, 200}
]

IO.puts(
  String.pad_trailing("case", 24) <>
    String.pad_leading("ExBashkit", 12) <> String.pad_leading("bash -c", 12) <> "   ratio"
)

for {name, ours, theirs, n} <- rows do
  a = Bench.median(ours, n)
  b = Bench.median(theirs, min(n, 300))

  IO.puts(
    String.pad_trailing(name, 24) <>
      String.pad_leading(Bench.fmt(a), 12) <>
      String.pad_leading(Bench.fmt(b), 12) <>
      "   " <> :erlang.float_to_binary(a / max(b, 1), decimals: 3)
  )
end

IO.puts("\n(Session.new() is compared with spawning `bash -c true`: starting a fresh shell.)")
