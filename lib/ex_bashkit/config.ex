defmodule ExBashkit.Config do
  @moduledoc """
  Application-wide settings, read from `config :ex_bashkit, ...` each time a
  session is created.

  **Defaults** for `ExBashkit.Session.new/1`: any of `:limits`,
  `:builtin_timeout_ms`, `:max_reply_bytes`, `:max_jobs`, `:history`,
  `:block_private_ips`, `:allow_net`, `:username`, `:hostname`, `:python` and
  `:snapshot_key`. A session's own option overrides the default; `:limits`
  merges key by key (a session's `limits: [max_commands: 10]` keeps the
  configured `timeout_ms`).

  **Ceilings** an operator sets and no session may exceed, whatever it asks
  for (a larger value is lowered to the ceiling, and a limit the session leaves
  unset gets the ceiling when it is below the interpreter's default):

    * `:max_timeout_ms` - caps the `:timeout_ms` limit (and with it every
      exec's `:timeout_ms` option, which the session's limit caps).
    * `:max_limits` - a keyword list capping any limit, e.g.
      `[max_memory_bytes: 64_000_000, max_output_bytes: 1_000_000]`.
    * `:max_builtin_timeout_ms` - caps `:builtin_timeout_ms`.

  **Servers** (`ExBashkit.Server`): `:hibernate_after_ms` (idle time before a
  named session is sealed into its store; `:infinity` never), `:durability`
  (`:sync` or `:interval`), `:checkpoint_after_ms` (the interval mode's
  window) and `:store` (`{module, opts}` of an `ExBashkit.Store`, default the
  in-memory store). See `ExBashkit.Server`.

      # config/runtime.exs
      config :ex_bashkit,
        limits: [timeout_ms: 5_000, max_commands: 50_000],
        builtin_timeout_ms: 2_000,
        max_timeout_ms: 60_000,
        max_limits: [max_memory_bytes: 128_000_000]

  A bad value raises `ArgumentError` naming the key (`config :ex_bashkit,
  :limits: ...`), at application start and at the next `new/1`. `nil` for any
  key means its default, as if it were not set.
  """

  alias ExBashkit.Session.Options

  @ceilings [:max_timeout_ms, :max_limits, :max_builtin_timeout_ms]
  @server [:hibernate_after_ms, :checkpoint_after_ms, :durability, :store]

  @doc "The validated settings: session defaults and ceilings."
  @spec get() :: %{defaults: keyword(), ceilings: map(), server: map()}
  def get, do: validate(Application.get_all_env(:ex_bashkit))

  @doc false
  def validate(env) do
    Enum.reduce(
      env,
      %{defaults: [], ceilings: %{limits: [], builtin_timeout_ms: nil}, server: %{}},
      fn
        {key, value}, acc -> put(acc, key, value)
      end
    )
  end

  defp put(acc, key, value) do
    cond do
      # `nil` is the default (as if the key were not set).
      value == nil and key in (Options.configurable() ++ @ceilings ++ @server) ->
        acc

      key in Options.configurable() ->
        wrap(key, fn -> Options.check!(key, value) end)
        %{acc | defaults: acc.defaults ++ [{key, value}]}

      key in @ceilings ->
        ceiling(acc, key, value)

      key in @server ->
        %{acc | server: Map.put(acc.server, key, server!(key, value))}

      true ->
        raise ArgumentError,
              "config :ex_bashkit, #{inspect(key)}: unknown key (known: " <>
                Enum.map_join(Options.configurable() ++ @ceilings ++ @server, ", ", &inspect/1) <>
                ")"
    end
  end

  defp wrap(key, fun) do
    fun.()
  rescue
    e in ArgumentError ->
      reraise ArgumentError,
              "config :ex_bashkit, #{inspect(key)}: " <> e.message,
              __STACKTRACE__
  end

  defp ceiling(acc, :max_timeout_ms, v) when is_integer(v) and v >= 1,
    do:
      put_in(
        acc.ceilings.limits,
        Keyword.update(acc.ceilings.limits, :timeout_ms, v, &min(&1, v))
      )

  defp ceiling(acc, :max_builtin_timeout_ms, v) when is_integer(v) and v >= 1,
    do: put_in(acc.ceilings.builtin_timeout_ms, v)

  defp ceiling(acc, :max_limits, v) when is_list(v) do
    known = Map.keys(Options.limit_defaults())

    caps =
      for pair <- v do
        case pair do
          {k, n} when is_integer(n) and n >= 0 ->
            if k in known,
              do: {k, n},
              else:
                raise(
                  ArgumentError,
                  "config :ex_bashkit, :max_limits: unknown limit #{inspect(k)}"
                )

          other ->
            raise ArgumentError,
                  "config :ex_bashkit, :max_limits: entries must be {limit, non-negative integer}, got: #{inspect(other)}"
        end
      end

    # :max_timeout_ms and max_limits[:timeout_ms] together: the lower wins.
    merged =
      Enum.reduce(caps, acc.ceilings.limits, fn {k, n}, l ->
        Keyword.update(l, k, n, &min(&1, n))
      end)

    put_in(acc.ceilings.limits, merged)
  end

  defp ceiling(_acc, key, v),
    do:
      raise(
        ArgumentError,
        "config :ex_bashkit, #{inspect(key)}: must be a positive integer#{if key == :max_limits, do: " keyword list", else: ""}, got: #{inspect(v)}"
      )

  defp server!(:hibernate_after_ms, v) when (is_integer(v) and v >= 0) or v == :infinity, do: v
  defp server!(:checkpoint_after_ms, v) when (is_integer(v) and v >= 1) or v == :infinity, do: v
  defp server!(:durability, v) when v in [:sync, :interval], do: v
  defp server!(:store, {mod, opts} = v) when is_atom(mod) and is_list(opts), do: v
  defp server!(:store, mod) when is_atom(mod) and not is_nil(mod), do: {mod, []}

  defp server!(key, v),
    do:
      raise(
        ArgumentError,
        "config :ex_bashkit, #{inspect(key)}: " <>
          case key do
            :store -> "must be a module or {module, opts}"
            :durability -> "must be :sync or :interval"
            :checkpoint_after_ms -> "must be a positive integer or :infinity"
            _ -> "must be a non-negative integer or :infinity"
          end <> ", got: #{inspect(v)}"
      )
end
