defmodule ExBashkit.Telemetry do
  @moduledoc """
  `:telemetry` events of `ExBashkit.Session.exec/3` (and so of every server
  and `ExBashkit.exec/1`), sent when the host application has `:telemetry`
  loaded. ExBashkit does not depend on it at compile time: whether it is there
  is decided at run time (when the application starts, or by `refresh/0`).

    * `[:ex_bashkit, :exec, :start]` - measurements `%{system_time, monotonic_time}`;
      metadata `%{session: session, script_bytes: n, background: boolean}`.
    * `[:ex_bashkit, :exec, :stop]` - measurements `%{duration, bytes_out,
      queued_ms}` (`duration` in native time units; `bytes_out` is stdout +
      stderr); metadata adds `:exit_status` (`nil` when the script did not
      finish), `:result` (`:ok` or `:error`), `:limit` (the limit that stopped
      it, such as `:timeout_ms` or `:max_memory_bytes`, `:cancelled`, or `nil`)
      and `:error` (the message, or `nil`).
    * `[:ex_bashkit, :exec, :exception]` - measurements `%{duration}`;
      metadata adds `:kind`, `:reason` and `:stacktrace` (an exec that raised,
      for example on a bad option).
    * `[:ex_bashkit, :exec, :watchdog]` - measurements `%{system_time}`;
      metadata `%{command: name, error: message}`: an exec past its deadline
      (or its cancel) by 90 ms whose worker was stuck in `command` was
      answered as stopped by the watchdog; the session refuses new execs
      until the worker is free.

  Background jobs (`exec(session, script, background: true)`) and servers send:

    * `[:ex_bashkit, :job, :stop]` - when a background job ends: measurements
      `%{duration}` (native time units, from its start); metadata `%{job: job,
      status: :exited | :terminated | :failed, exit_status, error}` where `job`
      is the map `ExBashkit.Session.jobs/1` lists.
    * `[:ex_bashkit, :checkpoint, :stop]` - when an `ExBashkit.Server` has
      written a checkpoint: measurements `%{duration, bytes}`; metadata
      `%{name, kind: :full | :delta, generation}`.

  Attach as usual: `:telemetry.attach_many("log", [[:ex_bashkit, :exec, :stop]], &handle/4, nil)`.
  """

  @key {__MODULE__, :enabled}

  @doc "Whether events are sent (`:telemetry` is loaded)."
  @spec enabled?() :: boolean()
  def enabled? do
    case :persistent_term.get(@key, nil) do
      nil -> refresh()
      v -> v
    end
  end

  @doc "Look again for `:telemetry` (after loading it late, say)."
  @spec refresh() :: boolean()
  def refresh do
    v = Code.ensure_loaded?(:telemetry) and function_exported?(:telemetry, :execute, 3)
    :persistent_term.put(@key, v)
    v
  end

  @limits ExBashkit.Session.Options.limit_keys()
  @limit_names Map.new(@limits, &{Atom.to_string(&1), &1})

  @doc false
  # Run `fun` (an exec) between :start and :stop (or :exception) events.
  def span(meta, fun) do
    if enabled?(), do: do_span(meta, fun), else: fun.()
  end

  defp do_span(meta, fun) do
    start = System.monotonic_time()

    emit(
      [:ex_bashkit, :exec, :start],
      %{system_time: System.system_time(), monotonic_time: start},
      meta
    )

    try do
      result = fun.()
      duration = System.monotonic_time() - start
      {measure, more} = describe(result)

      emit(
        [:ex_bashkit, :exec, :stop],
        Map.put(measure, :duration, duration),
        Map.merge(meta, more)
      )

      result
    catch
      kind, reason ->
        emit(
          [:ex_bashkit, :exec, :exception],
          %{duration: System.monotonic_time() - start},
          Map.merge(meta, %{kind: kind, reason: reason, stacktrace: __STACKTRACE__})
        )

        :erlang.raise(kind, reason, __STACKTRACE__)
    end
  end

  @doc false
  # The watchdog answered for an exec stuck in `command`.
  def watchdog(command, message) do
    event(
      [:ex_bashkit, :exec, :watchdog],
      %{system_time: System.system_time()},
      %{command: command, error: message}
    )
  end

  @doc false
  # Send one event, when `:telemetry` is there.
  def event(event, measurements, meta) do
    if enabled?(), do: emit(event, measurements, meta)
    :ok
  end

  defp emit(event, measurements, meta) do
    # credo:disable-for-next-line
    apply(:telemetry, :execute, [event, measurements, meta])
  rescue
    _ -> :ok
  end

  defp describe({:ok, %ExBashkit.Result{} = r}),
    do:
      {%{bytes_out: byte_size(r.stdout) + byte_size(r.stderr), queued_ms: r.queued_ms},
       %{result: :ok, exit_status: r.exit_code, limit: nil, error: nil}}

  defp describe({:ok, id}) when is_integer(id),
    do:
      {%{bytes_out: 0, queued_ms: 0},
       %{result: :ok, exit_status: nil, limit: nil, error: nil, job: id}}

  defp describe({:error, msg, %ExBashkit.Result{} = r}),
    do:
      {%{bytes_out: byte_size(r.stdout) + byte_size(r.stderr), queued_ms: r.queued_ms},
       %{result: :error, exit_status: nil, limit: limit(msg), error: msg}}

  defp describe({:error, msg}),
    do:
      {%{bytes_out: 0, queued_ms: 0},
       %{result: :error, exit_status: nil, limit: limit(msg), error: msg}}

  defp describe(_),
    do:
      {%{bytes_out: 0, queued_ms: 0}, %{result: :error, exit_status: nil, limit: nil, error: nil}}

  @doc false
  def limit(msg) when is_binary(msg) do
    cond do
      msg =~ "cancelled" ->
        :cancelled

      msg =~ "timed out" or msg =~ "timeout" ->
        :timeout_ms

      true ->
        Regex.scan(~r/[a-z_]+/, msg)
        |> Enum.find_value(fn [w] -> Map.get(@limit_names, w) end)
    end
  end

  def limit(:overloaded), do: :overloaded
  def limit(_), do: nil
end
