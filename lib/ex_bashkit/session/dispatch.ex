defmodule ExBashkit.Session.Dispatch do
  @moduledoc false
  # Serves an exec's callbacks from whichever process receives its requests:
  # the exec's caller while it waits for the result (a foreground exec), or a
  # job's broker (see `Broker`). The interpreter sends `{:ex_bashkit_call, id,
  # request}`; each call runs in a worker (so callbacks never block each other
  # or the dispatcher), is killed at its deadline, and is answered through
  # `Native.callback_reply/3`, which resumes the exec in this process.
  #
  # Why it is built so (each saves microseconds of a call that costs about
  # twenty): the caller serves, so a request and its answer travel between
  # processes of one scheduler with no broker to wake in between; workers
  # are kept, idle, in the dispatching process (its dictionary) between calls
  # and between execs, and so is their guardian, so a call spawns and links
  # nothing (a spawn or a link wakes another scheduler to handle it, which
  # doubled the cost of a one-call exec); and deadlines are the `after` of
  # the dispatcher's receive, not a timer per call.
  #
  # A worker is monitored (while it serves an exec), not linked, by the
  # dispatcher: a callback that dies takes only its worker down, and its call
  # fails. Each worker links itself to the dispatcher's guardian, which traps
  # exits and kills them all when the dispatcher dies, so no callback outlives
  # its caller; at the end of an exec the workers still running are killed,
  # and a few idle ones are kept. A guardian killed from outside takes its
  # workers with it: their calls fail at once ("its broker died") and the
  # next call starts a new guardian.
  #
  # An idle worker holds nothing of a session (each call brings its request,
  # the session's callbacks and its ref). What a callback leaves in its
  # process (dictionary, mailbox) may be seen by a later callback that runs
  # in the same worker.

  alias ExBashkit.Native
  alias ExBashkit.Session.Callback

  # A worker's process-dictionary key naming the session it serves, so an
  # `exec/3` on that same session from inside a callback is refused.
  @serving :"$ex_bashkit_callback_of"

  # Where the dispatching process keeps its guardian and idle workers.
  @pool :"$ex_bashkit_callback_workers"
  # Idle workers kept for the next exec, at most.
  @keep 4
  # A worker whose heap grew past this many words collects it after its call.
  @big_heap 100_000

  # busy: worker pid => {call id, request, monitor, deadline (ms), guardian}
  # idle: [{pid, monitor}] waiting for a call of this exec
  defstruct [:ref, :cfg, :guardian, :guardian_mon, busy: %{}, idle: []]

  def serving_key, do: @serving

  @doc "A dispatcher for one exec, with the idle workers this process kept."
  def new(ref, cfg) do
    case Process.get(@pool) do
      {guardian, idle} ->
        if Process.alive?(guardian),
          do: %__MODULE__{ref: ref, cfg: cfg, guardian: guardian, idle: idle},
          else: %__MODULE__{ref: ref, cfg: cfg}

      nil ->
        %__MODULE__{ref: ref, cfg: cfg}
    end
  end

  @doc "Handle a request, a worker's result or end, or the guardian's end."
  def handle({:ex_bashkit_call, id, request}, st) do
    {{pid, mon}, st} = take_worker(st)
    send(pid, {:ex_bashkit_run, self(), request, st.cfg, st.ref})
    deadline = now() + st.cfg.timeout
    %{st | busy: Map.put(st.busy, pid, {id, request, mon, deadline, st.guardian})}
  end

  def handle({:ex_bashkit_result, pid, reply}, st) do
    case Map.pop(st.busy, pid) do
      {nil, _} ->
        st

      {{id, _, mon, _, guardian}, busy} ->
        Native.callback_reply(st.ref, id, reply)
        # Back to the pool, unless it links to a guardian that has ended.
        idle = if guardian == st.guardian, do: [{pid, mon} | st.idle], else: st.idle
        %{st | busy: busy, idle: idle}
    end
  end

  # The guardian died (its workers with it): the next call starts another.
  def handle({:DOWN, mon, :process, _, _}, %{guardian_mon: mon} = st) do
    Process.demonitor(mon, [:flush])
    for {_, m} <- st.idle, do: Process.demonitor(m, [:flush])
    %{st | guardian: nil, guardian_mon: nil, idle: []}
  end

  # A worker ended; after its result, if it sent one (signals from one process
  # arrive in order), and then there is nothing to answer.
  def handle({:DOWN, _, :process, pid, reason}, st) do
    case Map.pop(st.busy, pid) do
      {nil, _} ->
        %{st | idle: List.keydelete(st.idle, pid, 0)}

      {{id, request, _, _, guardian}, busy} ->
        why = if Process.alive?(guardian), do: inspect(reason), else: "its broker died"
        reply = Callback.failure(request, "callback process exited: " <> why)
        Native.callback_reply(st.ref, id, reply)
        %{st | busy: busy}
    end
  end

  def handle(_other, st), do: st

  @doc "How long the dispatcher may wait for a message before a call's deadline."
  def wait(%{busy: busy}) when map_size(busy) == 0, do: :infinity

  def wait(%{busy: busy}) do
    first = busy |> Map.values() |> Enum.map(&elem(&1, 3)) |> Enum.min()
    max(first - now(), 0)
  end

  @doc "Kill the workers whose call is past its deadline and answer their calls."
  def expire(st) do
    t = now()

    Enum.reduce(st.busy, st, fn
      {pid, {id, request, mon, deadline, _}}, st when deadline <= t ->
        Process.demonitor(mon, [:flush])
        Process.exit(pid, :kill)
        Native.callback_reply(st.ref, id, Callback.timeout(request, st.cfg.timeout))
        %{st | busy: Map.delete(st.busy, pid)}

      _, st ->
        st
    end)
  end

  @doc """
  The exec is over: kill the workers still running (their calls are
  forgotten), keep a few idle ones for the next exec, and drop any request
  or result still on its way to this process.
  """
  def stop(st) do
    for {pid, {_, _, mon, _, _}} <- st.busy do
      Process.demonitor(mon, [:flush])
      Process.exit(pid, :kill)
    end

    # Unwatched between execs: a worker that dies meanwhile is found dead
    # when it is next taken, and sends this process nothing.
    idle =
      for w <- st.idle do
        with {pid, mon} <- w do
          Process.demonitor(mon, [:flush])
          pid
        end
      end

    {kept, extra} = Enum.split(idle, @keep)
    for pid <- extra, do: Process.exit(pid, :kill)
    if st.guardian_mon, do: Process.demonitor(st.guardian_mon, [:flush])

    if st.guardian,
      do: Process.put(@pool, {st.guardian, kept}),
      else: Process.delete(@pool)

    drain(Map.new(st.busy))
  end

  defp drain(busy) do
    receive do
      {:ex_bashkit_call, _, _} -> drain(busy)
      {:ex_bashkit_result, pid, _} when is_map_key(busy, pid) -> drain(busy)
    after
      0 -> :ok
    end
  end

  # An idle worker of this exec, or one kept from an earlier exec (watched
  # again, and only if it and its guardian live), or a new one.
  defp take_worker(%{idle: [{_, _} = w | rest]} = st), do: {w, %{st | idle: rest}}

  defp take_worker(%{idle: [pid | rest]} = st) when is_pid(pid) do
    st = watch_guardian(%{st | idle: rest})

    if Process.alive?(pid),
      do: {{pid, Process.monitor(pid)}, st},
      else: take_worker(st)
  end

  defp take_worker(st) do
    st = watch_guardian(st)
    guardian = st.guardian

    {pid, mon} =
      spawn_monitor(fn ->
        Process.link(guardian)
        work()
      end)

    {{pid, mon}, st}
  end

  defp work do
    receive do
      {:ex_bashkit_run, dispatcher, request, cfg, ref} ->
        Process.put(@serving, ref)
        reply = Callback.run(request, cfg)
        Process.delete(@serving)
        send(dispatcher, {:ex_bashkit_result, self(), reply})

        case Process.info(self(), :total_heap_size) do
          {:total_heap_size, words} when words > @big_heap -> :erlang.garbage_collect()
          _ -> :ok
        end

        work()
    end
  end

  # The guardian is watched for the length of an exec; a dead one is
  # replaced (its end may not have been handled yet).
  defp watch_guardian(%{guardian_mon: mon} = st) when mon != nil do
    if Process.alive?(st.guardian),
      do: st,
      else: watch_guardian(handle({:DOWN, mon, :process, st.guardian, :noproc}, st))
  end

  defp watch_guardian(%{guardian: g} = st) when is_pid(g),
    do: %{st | guardian_mon: Process.monitor(g)}

  defp watch_guardian(st) do
    owner = self()
    {pid, mon} = spawn_monitor(fn -> guard(Process.monitor(owner)) end)
    %{st | guardian: pid, guardian_mon: mon}
  end

  defp guard(owner_mon) do
    Process.flag(:trap_exit, true)
    guard_loop(owner_mon)
  end

  # When the owner dies, every worker linked to the guardian is killed (even
  # one that traps exits); the guardian's abnormal end also reaches one that
  # linked a moment ago.
  defp guard_loop(owner_mon) do
    receive do
      {:DOWN, ^owner_mon, :process, _, _} ->
        {:links, pids} = Process.info(self(), :links)
        for pid <- pids, do: Process.exit(pid, :kill)
        exit(:shutdown)

      {:EXIT, _, _} ->
        guard_loop(owner_mon)
    end
  end

  defp now, do: System.monotonic_time(:millisecond)
end
