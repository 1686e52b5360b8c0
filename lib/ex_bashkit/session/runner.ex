defmodule ExBashkit.Session.Runner do
  @moduledoc false
  # Runs one exec: a small script may finish in the NIF call itself
  # (`{:done, outcome}`); otherwise it goes on on the NIF's runtime and its
  # result arrives as a message, and the caller serves the session's
  # callbacks meanwhile.

  alias ExBashkit.{Native, Result, Session}
  alias ExBashkit.Session.Dispatch

  def run(%Session{ref: ref, callbacks: nil}, script, native_opts, partial?) do
    tag = make_ref()

    case Native.exec_start(ref, script, native_opts, self(), tag) do
      :ok -> await(tag, partial?)
      {:done, outcome} -> outcome(outcome, partial?)
      {:error, message} -> {:error, message}
    end
  end

  # With callbacks, this process serves them while it waits (see `Dispatch`).
  def run(%Session{ref: ref, callbacks: cfg}, script, native_opts, partial?) do
    tag = make_ref()
    st = Dispatch.new(ref, cfg)

    case Native.exec_start(ref, script, %{native_opts | broker: self()}, self(), tag) do
      :ok ->
        {result, st} = serve(tag, partial?, st)
        Dispatch.stop(st)
        result

      done_or_error ->
        Dispatch.stop(st)

        case done_or_error do
          {:done, outcome} -> outcome(outcome, partial?)
          {:error, message} -> {:error, message}
        end
    end
  end

  # Await the outcome, serving the exec's callbacks meanwhile.
  defp serve(tag, partial?, %{busy: busy, guardian_mon: gmon} = st) do
    receive do
      {^tag, _} = message ->
        {outcome_message(message, partial?), st}

      {:ex_bashkit_call, _, _} = m ->
        serve(tag, partial?, Dispatch.handle(m, st))

      {:ex_bashkit_result, pid, _} = m when is_map_key(busy, pid) ->
        serve(tag, partial?, Dispatch.handle(m, st))

      {:DOWN, _, :process, _, _} = m when elem(m, 1) == gmon ->
        serve(tag, partial?, Dispatch.handle(m, st))

      {:DOWN, _, :process, pid, _} = m when is_map_key(busy, pid) ->
        serve(tag, partial?, Dispatch.handle(m, st))
    after
      Dispatch.wait(st) -> serve(tag, partial?, Dispatch.expire(st))
    end
  end

  # Whether this process (or the process that started it, for a Task) is a
  # callback worker of the session `ref`.
  def serving?(ref) do
    key = Dispatch.serving_key()

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
