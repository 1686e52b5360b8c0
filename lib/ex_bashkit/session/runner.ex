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
  def run(%Session{ref: ref, callbacks: cfg}, script, native_opts, partial?) do
    broker = Broker.start(ref, cfg)
    tag = make_ref()

    try do
      case Native.exec_start(ref, script, %{native_opts | broker: broker}, self(), tag) do
        :ok -> await(tag, partial?)
        {:done, outcome} -> outcome(outcome, partial?)
        {:error, message} -> {:error, message}
      end
    after
      Broker.stop(broker)
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
      # The watchdog answered: the worker is stuck in `command`.
      {^tag, {:watchdog, command, {:error, message, _} = outcome}} ->
        ExBashkit.Telemetry.watchdog(command, message)
        outcome(outcome, partial?)

      {^tag, outcome} ->
        outcome(outcome, partial?)
    end
  end

  defp outcome({:ok, {stdout, stderr, code, queued}}, _partial?),
    do: {:ok, %Result{stdout: stdout, stderr: stderr, exit_code: code, queued_ms: queued}}

  defp outcome({:error, message, {stdout, stderr, code, queued}}, true),
    do:
      {:error, message,
       %Result{stdout: stdout, stderr: stderr, exit_code: code, queued_ms: queued}}

  defp outcome({:error, message, _}, _partial?), do: {:error, message}
end
