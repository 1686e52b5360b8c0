defmodule ExBashkit.Session.Runner do
  @moduledoc false
  # Runs one exec: a small script may finish in the NIF call itself
  # (`{:done, outcome}`); otherwise it goes on on the NIF's runtime and its
  # result arrives as a message, with a broker serving the session's
  # callbacks meanwhile.

  alias ExBashkit.{Native, Result, Session}
  alias ExBashkit.Session.Broker

  def run(%Session{ref: ref, callbacks: nil}, script, native_opts, partial?) do
    tag = make_ref()

    case Native.exec_start(ref, script, native_opts, self(), tag) do
      :ok -> await(tag, partial?)
      {:done, outcome} -> outcome(outcome, partial?)
      {:error, message} -> {:error, message}
    end
  end

  # With callbacks, a broker serves them for the length of this call.
  # If the broker dies meanwhile (someone killed it), a new one takes over at
  # once and the calls it had not answered fail now, not at their timeout.
  def run(%Session{ref: ref, callbacks: cfg}, script, native_opts, partial?) do
    broker = Broker.start(ref, cfg)
    tag = make_ref()
    watch = {ref, cfg, broker, Process.monitor(broker)}

    started =
      try do
        Native.exec_start(ref, script, %{native_opts | broker: broker}, self(), tag)
      rescue
        e ->
          Broker.stop(broker)
          reraise e, __STACKTRACE__
      end

    case started do
      :ok ->
        {result, {_, _, last, mref}} = serve(tag, partial?, watch)
        Process.demonitor(mref, [:flush])
        Broker.stop(last)
        result

      done_or_error ->
        Process.demonitor(elem(watch, 3), [:flush])
        Broker.stop(broker)

        case done_or_error do
          {:done, outcome} -> outcome(outcome, partial?)
          {:error, message} -> {:error, message}
        end
    end
  end

  # Await the outcome, replacing the broker if it dies; returns the result and
  # the broker serving at the end.
  defp serve(tag, partial?, {ref, cfg, broker, mref} = watch) do
    receive do
      {:DOWN, ^mref, :process, _, _} ->
        new = Broker.start(ref, cfg)
        watch = {ref, cfg, new, Process.monitor(new)}
        Native.broker_replaced(ref, broker, new)
        serve(tag, partial?, watch)

      {^tag, _} = message ->
        {outcome_message(message, partial?), watch}
    end
  end

  # Whether this process (or the process that started it, for a Task) is a
  # callback worker of the session `ref`.
  def serving?(ref) do
    key = Broker.serving_key()

    Process.get(key) == ref or
      Enum.any?(Process.get(:"$callers", []), fn pid ->
        case is_pid(pid) and Process.info(pid, :dictionary) do
          {:dictionary, dict} -> List.keyfind(dict, key, 0) == {key, ref}
          _ -> false
        end
      end)
  end

  # The script runs on the NIF's runtime; its outcome arrives as a message.
  defp await(tag, partial?) do
    receive do
      {^tag, _} = message -> outcome_message(message, partial?)
    end
  end

  # The watchdog answered: the worker is stuck in `command`.
  defp outcome_message({_, {:watchdog, command, {:error, message, _} = outcome}}, partial?) do
    ExBashkit.Telemetry.watchdog(command, message)
    outcome(outcome, partial?)
  end

  defp outcome_message({_, outcome}, partial?), do: outcome(outcome, partial?)

  defp outcome({:ok, {stdout, stderr, code, queued}}, _partial?),
    do: {:ok, %Result{stdout: stdout, stderr: stderr, exit_code: code, queued_ms: queued}}

  defp outcome({:error, message, {stdout, stderr, code, queued}}, true),
    do:
      {:error, message,
       %Result{stdout: stdout, stderr: stderr, exit_code: code, queued_ms: queued}}

  defp outcome({:error, message, _}, _partial?), do: {:error, message}
end
