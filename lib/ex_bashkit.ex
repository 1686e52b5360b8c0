defmodule ExBashkit do
  @moduledoc """
  A sandboxed, virtual bash for Elixir.

  Hand it a script nobody trusts (most often one an LLM agent wrote) and get
  back stdout, stderr and the exit status, as GNU bash would give them. The
  script runs in our own interpreter against an in-memory filesystem: no fork,
  no exec, no host files or network.

  `exec/1` runs one script in a fresh sandbox; `ExBashkit.Session` keeps state
  (variables, cwd, functions, files) across calls.

      iex> {:ok, result} = ExBashkit.exec("x=world; echo hello $x")
      iex> result.stdout
      "hello world\\n"
  """

  alias ExBashkit.{Result, Session}

  @doc """
  Run `script` in a fresh sandbox with default options.

  Returns `{:ok, %ExBashkit.Result{}}` (whatever the exit status) or
  `{:error, message}` when the script does not parse or a limit stopped it.

      iex> ExBashkit.exec("echo out; echo err >&2; exit 3")
      {:ok, %ExBashkit.Result{stdout: "out\\n", stderr: "err\\n", exit_code: 3}}

      iex> {:error, message} = ExBashkit.exec("if true; then")
      iex> message =~ "syntax error"
      true
  """
  @spec exec(String.t()) :: {:ok, Result.t()} | {:error, String.t()}
  def exec(script) when is_binary(script), do: Session.exec(Session.new(), script)
  def exec(script), do: raise(ArgumentError, "script must be a binary, got: #{inspect(script)}")
end
