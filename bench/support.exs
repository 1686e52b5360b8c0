# Shared by the bench scripts: `Code.require_file("support.exs", __DIR__)`.
defmodule BenchSupport do
  @doc "The median of `n` timed runs of `fun` (microseconds), after up to `warmups` untimed ones."
  def median(fun, n, warmups \\ 20) do
    for _ <- 1..min(n, warmups)//1, do: fun.()

    for(_ <- 1..n, do: elem(:timer.tc(fun), 0))
    |> Enum.sort()
    |> Enum.at(div(n, 2))
  end
end
