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

      iex> {:ok, result} = ExBashkit.exec("echo out; echo err >&2; exit 3")
      iex> {result.stdout, result.stderr, result.exit_code}
      {"out\\n", "err\\n", 3}

      iex> {:error, message} = ExBashkit.exec("if true; then")
      iex> message =~ "syntax error"
      true
  """
  @spec exec(String.t()) :: {:ok, Result.t()} | {:error, String.t()}
  def exec(script) when is_binary(script), do: Session.exec(Session.new(), script)
  def exec(script), do: raise(ArgumentError, "script must be a binary, got: #{inspect(script)}")

  @doc """
  Set node-wide admission control; returns the settings now in force.

  Scripts of every session share the interpreter's runtime. At most
  `:max_running` execs are runnable at once (default: the number of cores);
  the others wait in the order they came, and an exec's `timeout_ms` counts
  from when it starts running. A script that sleeps or waits on a callback
  gives its slot back meanwhile. Past `:max_queued` waiting execs (default
  10,000), or after waiting `:queue_timeout_ms` (default 60,000), `exec`
  returns `{:error, :overloaded}` without running anything.

      iex> %{max_running: n} = ExBashkit.configure_admission([])
      iex> n >= 1
      true
  """
  @spec configure_admission(keyword()) :: %{
          max_running: pos_integer(),
          max_queued: pos_integer(),
          queue_timeout_ms: pos_integer(),
          waiting: non_neg_integer()
        }
  def configure_admission(opts) when is_list(opts) do
    get = fn key ->
      case Keyword.get(opts, key, 0) do
        v when is_integer(v) and v >= 0 and v <= 4_294_967_295 ->
          v

        v ->
          raise ArgumentError,
                "option #{inspect(key)} must be a positive integer, got: #{inspect(v)}"
      end
    end

    for {k, _} <- opts, k not in [:max_running, :max_queued, :queue_timeout_ms] do
      raise ArgumentError, "unknown option #{inspect(k)} for ExBashkit.configure_admission/1"
    end

    ExBashkit.Native.admission_configure(
      get.(:max_running),
      get.(:max_queued),
      get.(:queue_timeout_ms)
    )
    |> admission_map()
  end

  @doc "The admission settings in force and how many execs wait now."
  @spec admission() :: map()
  def admission, do: ExBashkit.Native.admission_info() |> admission_map()

  defp admission_map({r, q, t, w}),
    do: %{max_running: r, max_queued: q, queue_timeout_ms: t, waiting: w}
end
