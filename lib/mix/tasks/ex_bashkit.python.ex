defmodule Mix.Tasks.ExBashkit.Python do
  @shortdoc "Fetches and verifies the CPython WASI runtime for python: true"
  @moduledoc """
  Downloads the CPython 3.12 WASI runtime `python: true` runs (see
  `ExBashkit.Python.Runtime`), checks it against its pinned SHA-256 and
  writes it to `priv/python/` of `:ex_bashkit`, or to the directory given:

      mix ex_bashkit.python
      mix ex_bashkit.python /opt/app/python

  Nothing is downloaded when a verified copy is already there.
  """
  use Mix.Task

  @impl true
  def run(args) do
    result =
      case args do
        [] -> ExBashkit.Python.Runtime.fetch()
        [dir] -> ExBashkit.Python.Runtime.fetch(dir)
        _ -> Mix.raise("usage: mix ex_bashkit.python [DIR]")
      end

    case result do
      {:ok, path} -> Mix.shell().info("CPython runtime: #{path}")
      {:error, reason} -> Mix.raise("cannot fetch the CPython runtime: " <> reason)
    end
  end
end
