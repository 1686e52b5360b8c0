defmodule ExBashkit.Server.Options do
  @moduledoc false
  # Every option of `ExBashkit.Server.start/2`, checked before anything starts
  # or is stored: the server's own (here) and the session's (by building a
  # throwaway session, so the NIF's refusals, such as a refused host mount,
  # are caught too). A bad one is `{:error, {:invalid_option, key, message}}`.

  alias ExBashkit.Session

  @max_timer_ms 4_294_967_295
  @server_keys [:hibernate_after_ms, :checkpoint_after_ms, :durability]
  @defaults [hibernate_after_ms: 900_000, checkpoint_after_ms: 1_000, durability: :sync]

  def server_keys, do: @server_keys

  @doc false
  # `{:ok, server_options, session_options}` (server options complete, with
  # their defaults) or `{:error, {:invalid_option, key, message}}`.
  def validate(opts) do
    with {:ok, opts} <- keyword(opts),
         {server, session} = Keyword.split(opts, @server_keys),
         {:ok, server} <- server(server),
         :ok <- no_workspace(session),
         :ok <- each_alone(session),
         :ok <- together(session) do
      {:ok, server, session}
    end
  end

  @doc false
  # The server options of a stored record, with defaults for what it lacks
  # (records written by an older version); never fails.
  def complete(server) do
    case server(server) do
      {:ok, s} -> s
      {:error, _} -> Keyword.merge(@defaults, configured())
    end
  end

  defp keyword(opts) when is_list(opts) do
    if Enum.all?(opts, &match?({k, _} when is_atom(k), &1)),
      do: {:ok, opts},
      else:
        {:error,
         {:invalid_option, :options, "options must be a keyword list, got: #{inspect(opts)}"}}
  end

  defp keyword(opts) when is_map(opts), do: keyword(Map.to_list(opts))

  defp keyword(opts),
    do:
      {:error,
       {:invalid_option, :options, "options must be a keyword list, got: #{inspect(opts)}"}}

  # The application's config, then the defaults, fill what is not given; `nil` means the default.
  defp server(given) do
    base = Keyword.merge(@defaults, configured())

    Enum.reduce_while(@server_keys, {:ok, []}, fn key, {:ok, acc} ->
      value =
        case Keyword.get(given, key) do
          nil -> Keyword.fetch!(base, key)
          v -> v
        end

      case check(key, value) do
        :ok -> {:cont, {:ok, [{key, value} | acc]}}
        {:error, msg} -> {:halt, {:error, {:invalid_option, key, msg}}}
      end
    end)
  end

  defp configured do
    server = ExBashkit.Config.get().server
    for k <- @server_keys, Map.has_key?(server, k), do: {k, Map.fetch!(server, k)}
  end

  defp check(:hibernate_after_ms, :infinity), do: :ok
  defp check(:hibernate_after_ms, v) when is_integer(v) and v >= 0 and v <= @max_timer_ms, do: :ok

  defp check(:hibernate_after_ms, v),
    do:
      {:error,
       "must be a non-negative integer (at most #{@max_timer_ms}) or :infinity, got: #{inspect(v)}"}

  defp check(:checkpoint_after_ms, :infinity), do: :ok

  defp check(:checkpoint_after_ms, v) when is_integer(v) and v >= 1 and v <= @max_timer_ms,
    do: :ok

  defp check(:checkpoint_after_ms, v),
    do:
      {:error,
       "must be a positive integer (at most #{@max_timer_ms}) or :infinity, got: #{inspect(v)}"}

  defp check(:durability, v) when v in [:sync, :interval], do: :ok
  defp check(:durability, v), do: {:error, "must be :sync or :interval, got: #{inspect(v)}"}

  defp no_workspace(session) do
    if Keyword.has_key?(session, :workspace),
      do: {:error, {:invalid_option, :workspace, "cannot be used with ExBashkit.Server"}},
      else: :ok
  end

  # Each option alone first, so the error names the one that is wrong.
  defp each_alone(session) do
    Enum.reduce_while(session, :ok, fn {key, value}, :ok ->
      case try_normalize([{key, value}]) do
        :ok -> {:cont, :ok}
        {:error, msg} -> {:halt, {:error, {:invalid_option, key, msg}}}
      end
    end)
  end

  defp try_normalize(opts) do
    _ = Session.Options.normalize(opts)
    :ok
  rescue
    e in ArgumentError -> {:error, e.message}
  end

  # Then all of them, in a real (throwaway) session: what only the interpreter
  # checks (mounts, files against the limits) and what options say together.
  defp together(session) do
    _ = Session.new(session)
    :ok
  rescue
    e in ArgumentError ->
      key =
        Enum.find_value(session, :options, fn {k, v} ->
          if build_fails?([{k, v}]), do: k
        end)

      {:error, {:invalid_option, key, e.message}}
  end

  defp build_fails?(opts) do
    _ = Session.new(opts)
    false
  rescue
    ArgumentError -> true
  end
end
