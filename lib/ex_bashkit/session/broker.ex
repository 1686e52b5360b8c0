defmodule ExBashkit.Session.Broker do
  @moduledoc false
  # The short-lived process that serves one exec's callbacks. The interpreter
  # sends it `{:ex_bashkit_call, id, request}`; it runs each call in a worker
  # of its own (so callbacks never block each other), kills a worker at the
  # deadline, and answers through `Native.callback_reply/3`. It is not linked
  # to the exec's caller: a callback that dies takes only its worker down. It
  # monitors the caller and ends, killing its workers, when the caller dies or
  # the exec returns. Its workers are linked to it (it traps their exits), so
  # a broker killed from outside takes its workers with it.

  alias ExBashkit.Native
  alias ExBashkit.Session.Callback

  # A worker's process-dictionary key naming the session it serves, so an
  # `exec/3` on that same session from inside a callback is refused.
  @serving :"$ex_bashkit_callback_of"

  @doc false
  def serving_key, do: @serving

  @doc false
  def start(session_ref, cfg, opts \\ []) do
    caller = Keyword.get(opts, :owner, self())
    spawn(fn -> init(session_ref, cfg, caller) end)
  end

  @doc false
  def stop(broker), do: send(broker, :ex_bashkit_stop)

  # A background job's broker has no owner: the interpreter stops it when the job ends.
  defp init(ref, cfg, nil) do
    Process.flag(:trap_exit, true)
    loop(%{ref: ref, cfg: cfg, caller: nil, workers: %{}})
  end

  defp init(ref, cfg, caller) do
    Process.flag(:trap_exit, true)
    loop(%{ref: ref, cfg: cfg, caller: Process.monitor(caller), workers: %{}})
  end

  defp loop(st) do
    receive do
      {:ex_bashkit_call, id, request} ->
        loop(start_worker(st, id, request))

      {:ex_bashkit_result, pid, reply} ->
        loop(finish(st, pid, fn _request -> reply end))

      {:ex_bashkit_deadline, pid} ->
        if Map.has_key?(st.workers, pid), do: Process.exit(pid, :kill)
        loop(finish(st, pid, &Callback.timeout(&1, st.cfg.timeout)))

      {:DOWN, mref, :process, _, _} when mref == st.caller ->
        shutdown(st)

      # A worker ended; after its result, if it sent one (signals from one
      # process arrive in order), and then `finish` finds nothing to answer.
      {:EXIT, pid, reason} ->
        loop(
          finish(st, pid, &Callback.failure(&1, "callback process exited: #{inspect(reason)}"))
        )

      :ex_bashkit_stop ->
        shutdown(st)
    end
  end

  defp start_worker(st, id, request) do
    broker = self()
    %{ref: ref, cfg: cfg} = st

    pid =
      spawn_link(fn ->
        Process.put(@serving, ref)
        send(broker, {:ex_bashkit_result, self(), Callback.run(request, cfg)})
      end)

    timer = Process.send_after(self(), {:ex_bashkit_deadline, pid}, cfg.timeout)
    %{st | workers: Map.put(st.workers, pid, {id, timer, request})}
  end

  # Answer the call `pid` was serving (once: later messages about it find nothing).
  defp finish(st, pid, reply_for) do
    case Map.pop(st.workers, pid) do
      {nil, _} ->
        st

      {{id, timer, request}, workers} ->
        Process.cancel_timer(timer, async: true, info: false)
        Native.callback_reply(st.ref, id, reply_for.(request))
        %{st | workers: workers}
    end
  end

  defp shutdown(st) do
    for {pid, _} <- st.workers, do: Process.exit(pid, :kill)
    :ok
  end
end
