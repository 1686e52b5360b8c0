defmodule ExBashkit.Server do
  @moduledoc """
  A session as an OTP citizen: a GenServer under the application's supervisor
  that owns one `ExBashkit.Session`, reachable by name from any node of the
  cluster, checkpointed into an `ExBashkit.Store` as it changes, sealed there
  and stopped when idle, woken on the next call, movable to another node, and
  started again from its newest checkpoint after a crash or the death of its
  node.

      {:ok, _pid} = ExBashkit.Server.start("chat-42", files: %{"/notes" => "hi\\n"})
      {:ok, r} = ExBashkit.Server.exec("chat-42", "cat /notes")   # from any node

  Every function of `ExBashkit.Session` is here with a name in place of the
  session: `exec/3`, `cancel/1`, the file API (`read_file/2`, `write_file/3`,
  `list_dir/2`, `mkdir/3`, `remove/3`, `rename/3`, `stat/2`), `jobs/1`,
  `terminate_job/2`, `await_job/3`, `history/2`, `clear_history/1`,
  `aliases/1`, `put_alias/3`, `delete_alias/2`, `mark/1`, `changes/2`,
  `snapshot/2` and `restore/3` (which returns `{:ok, name}`). A call runs on
  the node where the session lives; a name that is live nowhere but has a
  record in the store is woken (started from it) on the calling node first.
  Bad arguments raise in the caller, as they do with `ExBashkit.Session`;
  everything else that goes wrong is one flat `{:error, reason}`
  (`{:error, :not_found}` for a name nobody knows).

  ## Durability

  **With `ExBashkit.Store.Disk`, once a call that changes the session (`exec/3`,
  the file API, `restore/3`, aliases, `clear_history/1`) has returned, a kill of
  any process (the server, its supervisor, the whole node) never loses what
  that call did** (`durability: :sync`, the default). The server writes a
  checkpoint before it replies, and the next call after a crash starts the
  session again from the newest one.

  A checkpoint costs in proportion to what the call changed, not to the
  session's size: it is a delta (the files, variables and functions that
  changed since the last checkpoint, with the small parts of the shell state)
  appended to the session's log and `fsync`ed; every so often (when the deltas
  add up to the size of the last full snapshot and to at least 64 KiB, or to
  1,000 records) a full snapshot is written instead and the log starts again.
  A checkpoint is taken between execs (it waits for the session's lock), so a
  file API call made while a long exec runs answers once that exec has ended. `bench/server.exs`
  measures what an exec pays for it. Calls that change nothing (reads,
  `status/1`, `jobs/1`, ...) pay nothing; every exec counts as a change (it
  adds to the history).

  `durability: :interval` replies at once and checkpoints at most
  `:checkpoint_after_ms` (default 1,000) after a change: a crash then loses
  the changes of at most that window (plus the time a checkpoint takes), in
  exchange for calls that do not wait for the disk. Hibernation, `hibernate/1`
  and a migration always checkpoint first, in either mode.

  What survives is the session's state and files. **Background jobs do not
  survive** a crash, a move, a hibernation or a failover (a snapshot holds no
  running scripts), and their effects are in a checkpoint only once a later
  call (or the hibernation) has taken one.

  Restarts only go forward: every checkpoint has a generation number, a store
  refuses to write a generation that is not newer than the one it holds, and
  each delta names the record it follows (by its seal), so an older or empty
  state is never written over a newer one. A torn record (a write a crash cut
  short, which was never acknowledged) is cut off and reported; a corrupt one
  is reported and never loaded: calls answer `{:error, {:corrupt_record, why}}`.

  With `ExBashkit.Store.Memory` (the default), checkpoints survive a crash of
  the server or its supervisor, not of the node.

  ## Faults

  Servers are not restarted by their supervisor (they are `:temporary`): a
  crashed one is started again by the next call to its name, from its newest
  checkpoint. A session that keeps crashing backs off: a wake after its n-th
  crash within a minute waits 100 ms × 2^(n-1) (at most 5 s), and after 5
  crashes within a minute its calls answer `{:error, {:crash_loop, reason}}`
  until the oldest of them is a minute old. No supervisor's restart intensity
  is spent on any of this, so no session can take its neighbours down. A call
  in flight when its server dies answers `{:error, {:server_down, reason}}`
  (its effects are durable only if it had returned).

  ## Names

  A name is any term. It is registered in the node's `Registry`
  (`ExBashkit.Registry`) and in a `:pg` group (scope `ExBashkit.PG`) that
  every node of the cluster sees. Two nodes waking the same name at once is
  settled by a cluster-wide lock (`:global.trans/2`), so one server wins.

  ## Hibernation

  After `:hibernate_after_ms` without a call (default 15 minutes; `:infinity`
  never), counted from the last call's arrival or reply (`status/1` and
  `whereis/1` do not count), with no call in flight and no background job
  running, the server checkpoints its session (if anything changed) and stops:
  an idle session then costs its store record and no process. The next call
  wakes it transparently. `hibernate/1` does it at once. Snapshots are sealed
  with HMAC under `:snapshot_key`, or a key derived from the node's cookie,
  which every node of a cluster shares.

  ## Migration and failover

  `migrate(name, node)` moves a live session: calls in flight finish first,
  calls arriving meanwhile wait and then follow it, and the session continues
  on `node` from a full snapshot taken after the last of them (handed over
  directly, so the nodes need not share a store). When a node dies, the next
  call to a name that lived there starts it on the calling node from the
  store's newest checkpoint (with `ExBashkit.Store.Disk` on storage the nodes
  share; the memory store's records die with their node). A call that was in
  flight on the dead node fails with `{:error, {:nodedown, node}}`.

  The session's options (builtins, hooks, virtual filesystems) travel as
  terms, so functions in them must be defined in modules loaded on every node
  (anonymous functions of a module work; functions typed into a shell do
  not). `:workspace` cannot be used with a server.

  ## Options

  `start/2` takes every option of `ExBashkit.Session.new/1` plus the ones
  below (defaults from `config :ex_bashkit, ...` of the same name, else as
  given; `nil` means the default). Every option is checked before anything
  starts or is stored: a bad one is `{:error, {:invalid_option, key, message}}`.

    * `:durability` - `:sync` (default) or `:interval` (see "Durability").
    * `:checkpoint_after_ms` - with `durability: :interval`, the longest a
      change waits for its checkpoint (default 1_000), or `:infinity` (only at
      hibernation and migration).
    * `:hibernate_after_ms` - idle time before hibernating (default 900_000),
      or `:infinity`.
    * `:node` - the node to start on (default this one).

  ## Telemetry

  Besides the events of `ExBashkit.Telemetry`, each checkpoint sends
  `[:ex_bashkit, :checkpoint, :stop]` with `%{duration, bytes}` and
  `%{name, kind: :full | :delta, generation}`.
  """
  use GenServer, restart: :temporary

  require Logger

  alias ExBashkit.{Session, Store}
  alias ExBashkit.Server.{Checkpoint, Crashes, Options}

  @registry ExBashkit.Registry
  @scope ExBashkit.PG
  @supervisor ExBashkit.ServerSupervisor

  # Calls that run in a worker so the server keeps answering meanwhile
  # (`cancel/1` must reach a running exec); the rest run in the server.
  @async [:exec, :snapshot, :restore, :await_job]
  # Calls after which a checkpoint is due.
  @mutating [
    :exec,
    :write_file,
    :mkdir,
    :remove,
    :rename,
    :restore,
    :clear_history,
    :put_alias,
    :delete_alias
  ]
  # A full snapshot instead of a delta once this many deltas follow the last one.
  @max_deltas 1_000

  @api [
    exec: 3,
    cancel: 1,
    read_file: 2,
    write_file: 3,
    list_dir: 2,
    mkdir: 3,
    remove: 3,
    rename: 3,
    stat: 2,
    jobs: 1,
    terminate_job: 2,
    await_job: 3,
    history: 2,
    clear_history: 1,
    aliases: 1,
    put_alias: 3,
    delete_alias: 2,
    mark: 1,
    changes: 2,
    snapshot: 2,
    restore: 3
  ]

  @defaults [
    exec: [[]],
    mkdir: [[]],
    remove: [[]],
    await_job: [5_000],
    history: [[]],
    changes: [[]],
    snapshot: [[]],
    restore: [[]]
  ]

  for {fun, arity} <- @api do
    args = Macro.generate_arguments(arity - 1, __MODULE__)

    case Keyword.get(@defaults, fun) do
      nil ->
        @doc "`ExBashkit.Session.#{fun}/#{arity}` on the session called `name`."
        def unquote(fun)(name, unquote_splicing(args)),
          do: call(name, {unquote(fun), unquote(args)})

      [default] ->
        {firsts, [last]} = Enum.split(args, -1)
        @doc "`ExBashkit.Session.#{fun}/#{arity}` on the session called `name`."
        def unquote(fun)(
              name,
              unquote_splicing(firsts),
              unquote(last) \\ unquote(Macro.escape(default))
            ),
            do: call(name, {unquote(fun), unquote(args)})
    end
  end

  # --- lifecycle ----------------------------------------------------------

  @doc """
  Start a supervised session called `name` on this node (or `node: n` for
  another). `{:error, {:already_started, pid}}` if it is live (or stored: it
  is woken then); `{:error, {:invalid_option, key, message}}` for a bad
  option, before anything is started or stored.
  """
  @spec start(Store.name(), keyword()) :: {:ok, pid()} | {:error, term()}
  def start(name, opts \\ []) do
    {node, opts} = if is_list(opts), do: Keyword.pop(opts, :node, node()), else: {node(), opts}

    with :ok <- check_node(node),
         {:ok, server, session} <- Options.validate(opts) do
      case whereis(name) || wake(name) do
        pid when is_pid(pid) ->
          {:error, {:already_started, pid}}

        {:error, :not_found} ->
          record = %{
            name: name,
            generation: 0,
            snapshot: nil,
            deltas: [],
            options: session,
            server: server
          }

          Crashes.forget(name)

          :global.trans({{__MODULE__, name}, self()}, fn ->
            case registered_anywhere(name) do
              nil -> start_from(node, %{name: name, passed: record})
              pid -> {:error, {:already_started, pid}}
            end
          end)

        {:error, _} = error ->
          error
      end
    end
  end

  defp check_node(node) when is_atom(node), do: :ok

  defp check_node(node),
    do: {:error, {:invalid_option, :node, "must be a node name (an atom), got: #{inspect(node)}"}}

  @doc "Stop the session called `name` and forget it (its store record too)."
  @spec stop(Store.name()) :: :ok | {:error, :not_found}
  def stop(name) do
    Crashes.forget(name)

    case whereis(name) do
      nil ->
        case Store.get(name) do
          :error -> {:error, :not_found}
          _ -> Store.delete(name)
        end

      pid ->
        safe_call(pid, :stop, fn -> stop(name) end)
    end
  end

  @doc "Checkpoint the session called `name` into the store now and stop its server."
  @spec hibernate(Store.name()) :: :ok | {:error, term()}
  def hibernate(name) do
    case whereis(name) do
      nil ->
        case Store.get(name) do
          {:ok, _} -> :ok
          :error -> {:error, :not_found}
          {:error, _} = e -> e
        end

      pid ->
        safe_call(pid, :hibernate, fn -> hibernate(name) end)
    end
  end

  @doc """
  Move the live session called `name` to `node`. Calls in flight finish
  first; calls that arrive meanwhile run on `node` afterwards. Background
  jobs do not move. Returns the new pid.
  """
  @spec migrate(Store.name(), node()) :: {:ok, pid()} | {:error, term()}
  def migrate(name, node) when is_atom(node) do
    case whereis(name) || wake(name) do
      {:error, _} = e -> e
      pid when node(pid) == node -> {:ok, pid}
      pid -> safe_call(pid, {:migrate, node}, fn -> migrate(name, node) end)
    end
  end

  def migrate(_name, node),
    do: raise(ArgumentError, "node must be an atom, got: #{inspect(node)}")

  @doc "The pid serving `name`, on this node or another, or `nil` (hibernated or unknown)."
  @spec whereis(Store.name()) :: pid() | nil
  def whereis(name) do
    case Registry.lookup(@registry, name) do
      [{pid, _}] ->
        if Process.alive?(pid), do: pid, else: remote(name)

      [] ->
        remote(name)
    end
  end

  defp remote(name) do
    # A member on a node this one is no longer connected to is stale (`:pg`
    # drops it a moment later): a call to it could not run, so it is not live.
    connected = Node.list(:connected)

    live = fn pid ->
      if node(pid) == node(), do: Process.alive?(pid), else: node(pid) in connected
    end

    case Enum.filter(:pg.get_members(@scope, {__MODULE__, name}), live) do
      [] -> nil
      pids -> Enum.min_by(pids, &(node(&1) != node()))
    end
  end

  @doc "Whether `name` is live (`:live`, with its node), hibernated (`:stored`) or unknown."
  @spec status(Store.name()) :: {:live, node()} | :stored | :unknown
  def status(name) do
    case whereis(name) do
      nil -> if match?({:ok, _}, Store.get(name)), do: :stored, else: :unknown
      pid -> {:live, node(pid)}
    end
  end

  # --- calls --------------------------------------------------------------

  defp call(name, {fun, args}, attempts \\ 4) do
    case whereis(name) || wake(name) do
      {:error, _} = e ->
        e

      pid ->
        safe_call(pid, {:api, fun, args}, fn ->
          if attempts > 1 do
            # The server was stopping (hibernating, moving): let its name go.
            Process.sleep(20 * (5 - attempts))
            call(name, {fun, args}, attempts - 1)
          else
            {:error, :unavailable}
          end
        end)
    end
    |> case do
      {:ok, %Session{}} when fun == :restore -> {:ok, name}
      other -> other
    end
  end

  # Follow a moved session; retry (resolve the name again) when the server
  # went away before taking the call.
  defp safe_call(pid, msg, retry) do
    case GenServer.call(pid, msg, :infinity) do
      {:ex_bashkit_moved, new} -> safe_call(new, msg, retry)
      :ex_bashkit_retry -> retry.()
      {:ex_bashkit_raise, e, stacktrace} -> reraise(e, stacktrace)
      reply -> reply
    end
  catch
    # Gone before it took the call (it stops with :normal only after
    # answering every call it took): the call goes to whoever serves the name now.
    :exit, {reason, _} when reason in [:noproc, :normal] ->
      retry.()

    :exit, {{:nodedown, n}, _} ->
      if msg_is_api?(msg), do: {:error, {:nodedown, n}}, else: retry.()

    # The server died while it had the call (a crash, a kill): the call's
    # effects are not acknowledged; the next call starts it again.
    :exit, {reason, _} ->
      if msg_is_api?(msg), do: {:error, {:server_down, reason}}, else: retry.()
  end

  defp msg_is_api?({:api, _, _}), do: true
  defp msg_is_api?(_), do: false

  # Start `name` from its newest stored checkpoint, on this node, unless a
  # server is live: its pid, or `{:error, reason}`.
  defp wake(name) do
    case Crashes.check(name) do
      :ok -> wake_now(name)
      {:wait, ms} -> Process.sleep(ms) && wake_now(name)
      {:crash_loop, reason} -> {:error, {:crash_loop, reason}}
    end
  end

  defp wake_now(name) do
    :global.trans({{__MODULE__, name}, self()}, fn ->
      with nil <- registered_anywhere(name),
           {:ok, record} <- stored(name),
           {:ok, pid} <- start_from(node(), %{name: name, stored: record, passed: nil}) do
        pid
      else
        pid when is_pid(pid) -> pid
        {:error, {:already_started, pid}} -> pid
        {:error, _} = e -> e
      end
    end)
  end

  # Under the name's lock: a server that registered on any node, asked of
  # each node's Registry (`:pg` may not have told this node of it yet, and
  # waking a second copy would only have it refused by the store).
  defp registered_anywhere(name) do
    case whereis(name) do
      nil ->
        Node.list()
        |> :erpc.multicall(Registry, :lookup, [@registry, name], 5_000)
        |> Enum.find_value(fn
          {:ok, [{pid, _}]} -> pid
          _ -> nil
        end)

      pid ->
        pid
    end
  end

  defp stored(name) do
    case Store.get(name) do
      {:ok, record} -> {:ok, record}
      :error -> {:error, :not_found}
      {:error, {:corrupt, why}} -> {:error, {:corrupt_record, why}}
      {:error, why} -> {:error, why}
    end
  end

  defp start_from(node, args) do
    spec = {__MODULE__, args}

    result =
      if node == node(),
        do: DynamicSupervisor.start_child(@supervisor, spec),
        else: :erpc.call(node, DynamicSupervisor, :start_child, [@supervisor, spec], 60_000)

    case result do
      {:ok, pid} -> {:ok, pid}
      {:error, {:already_started, _}} = e -> e
      {:error, reason} -> {:error, unwrap(reason)}
      other -> {:error, other}
    end
  catch
    :error, {:erpc, reason} -> {:error, reason}
    kind, reason -> {:error, {kind, reason}}
  end

  # What init stopped with: the reason itself.
  defp unwrap({:shutdown, reason}), do: reason
  defp unwrap(reason), do: reason

  @doc false
  def start_link(args),
    do: GenServer.start_link(__MODULE__, args, name: {:via, Registry, {@registry, args.name}})

  # --- server -------------------------------------------------------------

  @impl true
  def init(%{name: name} = args) do
    stored =
      case args[:stored] do
        nil -> stored(name)
        record -> {:ok, record}
      end

    with {:ok, record, write?} <- choose(args.passed, stored),
         {:ok, session} <- build(record),
         key = snapshot_key(record.options),
         :ok <- restore_record(session, record, key),
         :ok <- if(write?, do: put_start(record), else: :ok) do
      :ok = :pg.join(@scope, {__MODULE__, name}, self())
      # Watched from here: a start that fails is an error for its caller, not a crash.
      Crashes.watch(name, self())
      server = Options.complete(record.server)

      st = %{
        name: name,
        session: session,
        options: record.options,
        server: server,
        key: key,
        generation: record.generation,
        # Whether the session holds the base of the stored chain (deltas can follow).
        chained: record.snapshot != nil,
        full_bytes: byte_size(record.snapshot || ""),
        delta_bytes: Enum.reduce(record.deltas, 0, &(byte_size(&1) + &2)),
        deltas: length(record.deltas),
        full_due: false,
        durability: server[:durability],
        checkpoint_after: server[:checkpoint_after_ms],
        hibernate_after: server[:hibernate_after_ms],
        workers: %{},
        ckpt: nil,
        held: [],
        dirty: false,
        jobs_started: false,
        ckpt_timer: nil,
        idle_timer: nil,
        last_call: now(),
        migrating: nil,
        waiting: []
      }

      {:ok, arm_idle(st)}
    else
      {:error, reason} -> {:stop, reason}
    end
  end

  # Which record to start from: the store's newest, or the one handed over
  # (a fresh start, a migration) when it is newer; and whether it must be written.
  defp choose(passed, stored) do
    case {passed, stored} do
      {nil, {:ok, r}} -> {:ok, r, false}
      {nil, {:error, _} = e} -> e
      {p, {:ok, r}} when r.generation >= p.generation -> {:ok, r, false}
      {p, _} -> {:ok, Map.merge(%{deltas: [], base_generation: p.generation}, p), true}
    end
  end

  defp build(record) do
    {:ok, Session.new(record.options)}
  rescue
    e in ArgumentError -> {:error, {:invalid_option, :options, e.message}}
  end

  defp restore_record(_session, %{snapshot: nil, deltas: []}, _key), do: :ok

  defp restore_record(_session, %{snapshot: nil}, _key),
    do: {:error, {:corrupt_record, "deltas without the snapshot they follow"}}

  defp restore_record(session, record, key) do
    case Checkpoint.restore(session, record.snapshot, record.deltas, key) do
      :ok -> :ok
      {:error, why} -> {:error, {:restore_failed, why}}
    end
  end

  defp put_start(record) do
    case Store.put(record) do
      :ok -> :ok
      {:error, why} -> {:error, {:store_failed, why}}
    end
  end

  @impl true
  def handle_call(msg, from, %{migrating: m} = st) when m != nil and msg != :stop do
    {:noreply, %{st | waiting: [{msg, from} | st.waiting]}}
  end

  def handle_call({:api, fun, args}, from, st) when fun in @async do
    st = touch(st)
    session = st.session

    {pid, mref} =
      spawn_monitor(fn ->
        exit({:ex_bashkit_reply, guarded(fn -> apply(Session, fun, [session | args]) end)})
      end)

    {:noreply, %{st | workers: Map.put(st.workers, pid, {mref, from, fun, args})}}
  end

  def handle_call({:api, fun, args}, from, st) do
    st = touch(st)
    reply = guarded(fn -> apply(Session, fun, [st.session | args]) end)
    {:noreply, completed(st, from, fun, args, reply)}
  end

  def handle_call(:stop, _from, st) do
    # A checkpoint in flight must not write the record back after it is gone.
    with %{pid: pid, mref: mref} <- st.ckpt do
      Process.exit(pid, :kill)
      receive(do: ({:DOWN, ^mref, :process, _, _} -> :ok))
    end

    for {from, reply} <- st.held ++ ((st.ckpt && st.ckpt.waiters) || []),
        do: GenServer.reply(from, reply)

    for {pid, {_, from, _, _}} <- st.workers do
      Process.exit(pid, :kill)
      GenServer.reply(from, {:error, :stopped})
    end

    Store.delete(st.name)
    {:stop, :normal, :ok, %{st | held: [], ckpt: nil}}
  end

  def handle_call(:hibernate, from, st) do
    maybe_move(%{st | migrating: {:hibernate, from}})
  end

  def handle_call({:migrate, node}, from, st) do
    maybe_move(%{st | migrating: {:move, node, from}})
  end

  # A bad argument raises in the caller, as with a Session.
  defp guarded(fun) do
    fun.()
  rescue
    e -> {:ex_bashkit_raise, e, __STACKTRACE__}
  end

  # A call is done: a change is held for the checkpoint that covers it (sync),
  # or answered at once with a checkpoint scheduled (interval).
  defp completed(st, from, fun, args, reply) do
    st = %{st | jobs_started: st.jobs_started or background?(fun, args, reply)}

    cond do
      fun not in @mutating or match?({:ex_bashkit_raise, _, _}, reply) ->
        GenServer.reply(from, reply)
        st

      st.durability == :sync ->
        checkpoint(%{st | dirty: true, held: [{from, reply} | st.held]})

      true ->
        GenServer.reply(from, reply)
        schedule_checkpoint(%{st | dirty: true})
    end
    |> touch()
  end

  defp background?(:exec, [_, opts], {:ok, id}) when is_integer(id) and is_list(opts), do: true
  defp background?(_, _, _), do: false

  @impl true
  def handle_info({:DOWN, _mref, :process, pid, reason}, st) when is_map_key(st.workers, pid) do
    {{_mref, from, fun, args}, workers} = Map.pop(st.workers, pid)

    reply =
      case reason do
        {:ex_bashkit_reply, r} -> r
        other -> {:error, {:crashed, other}}
      end

    st = completed(%{st | workers: workers}, from, fun, args, reply)
    after_work(st)
  end

  def handle_info({:DOWN, _mref, :process, pid, reason}, %{ckpt: %{pid: pid}} = st) do
    %{waiters: waiters} = st.ckpt
    st = %{st | ckpt: nil}

    case reason do
      {:ex_bashkit_checkpoint, {:ok, done}} ->
        for {from, reply} <- Enum.reverse(waiters), do: GenServer.reply(from, reply)

        {bytes, deltas} =
          if done.kind == :full, do: {0, 0}, else: {st.delta_bytes + done.bytes, st.deltas + 1}

        st = %{
          st
          | generation: done.generation,
            chained: true,
            full_due: false,
            delta_bytes: bytes,
            deltas: deltas,
            full_bytes: if(done.kind == :full, do: done.bytes, else: st.full_bytes)
        }

        after_work(touch(st))

      other ->
        why =
          case other do
            {:ex_bashkit_checkpoint, {:error, why}} -> why
            crash -> {:crashed, crash}
          end

        Logger.warning(
          "ex_bashkit: checkpoint of session #{inspect(st.name)} failed: #{inspect(why)}"
        )

        for {from, _} <- waiters, do: GenServer.reply(from, {:error, {:checkpoint_failed, why}})
        # What may have been written is skipped over: the next one is full and newer.
        st = %{st | dirty: true, full_due: true, generation: st.generation + 1}

        cond do
          why == :stale ->
            # Someone else writes this session's checkpoints now: this copy is
            # stale. Every call it took is answered before it stops.
            for {from, _} <- st.held,
                do: GenServer.reply(from, {:error, {:checkpoint_failed, :stale}})

            for {pid, {_, from, _, _}} <- st.workers do
              Process.exit(pid, :kill)
              GenServer.reply(from, {:error, {:checkpoint_failed, :stale}})
            end

            leave(st)
            {:stop, :normal, %{st | held: [], workers: %{}}}

          st.migrating != nil ->
            # A hibernation or move needs its checkpoint: it fails, the session stays.
            case st.migrating do
              {:hibernate, nil} -> :ok
              {_, from} -> GenServer.reply(from, {:error, {:checkpoint_failed, why}})
              {_, _, from} -> GenServer.reply(from, {:error, {:checkpoint_failed, why}})
            end

            redeliver(%{st | migrating: nil})

          true ->
            after_work(st)
        end
    end
  end

  def handle_info(:checkpoint, st) do
    st = %{st | ckpt_timer: nil}
    {:noreply, if(st.dirty, do: checkpoint(st, true), else: st)}
  end

  def handle_info(:idle, st) do
    st = %{st | idle_timer: nil}
    idle_for = now() - st.last_call

    cond do
      busy?(st) ->
        {:noreply, st}

      idle_for < st.hibernate_after ->
        {:noreply,
         %{st | idle_timer: Process.send_after(self(), :idle, st.hibernate_after - idle_for)}}

      jobs_running?(st) ->
        {:noreply, arm_idle(touch(st))}

      true ->
        maybe_move(%{st | migrating: {:hibernate, nil}})
    end
  end

  def handle_info(_, st), do: {:noreply, st}

  # After a call or a checkpoint: a move waiting for quiet, the next checkpoint.
  defp after_work(st) do
    case st.migrating do
      nil when st.durability == :interval and st.dirty -> {:noreply, schedule_checkpoint(st)}
      nil -> {:noreply, checkpoint(st)}
      _ -> maybe_move(st)
    end
  end

  defp busy?(st), do: st.workers != %{} or st.ckpt != nil or st.held != []

  # --- checkpoints --------------------------------------------------------

  # Start a checkpoint when one is owed (replies held, or `force` and
  # something changed) and none is in flight; it covers every held reply.
  defp checkpoint(st, force \\ false) do
    cond do
      st.ckpt != nil -> st
      st.held == [] and not (force and st.dirty) -> st
      true -> start_checkpoint(st)
    end
  end

  defp start_checkpoint(st) do
    job = %{
      name: st.name,
      key: st.key,
      generation: st.generation,
      full?: full_due?(st),
      options: st.options,
      server: st.server
    }

    session = st.session

    {pid, mref} =
      spawn_monitor(fn -> exit({:ex_bashkit_checkpoint, Checkpoint.take(session, job)}) end)

    %{st | ckpt: %{pid: pid, mref: mref, waiters: st.held}, held: [], dirty: false}
  end

  # A full snapshot when there is no chain yet, after a failure, or when the
  # deltas add up to as much as the last full one (or are very many).
  defp full_due?(st) do
    not st.chained or st.full_due or st.deltas >= @max_deltas or
      (st.delta_bytes >= st.full_bytes and st.delta_bytes >= 64 * 1024)
  end

  defp schedule_checkpoint(%{ckpt_timer: nil, checkpoint_after: ms} = st) when is_integer(ms),
    do: %{st | ckpt_timer: Process.send_after(self(), :checkpoint, ms)}

  defp schedule_checkpoint(st), do: st

  # --- hibernation and moves ----------------------------------------------

  # Once calls and checkpoints in flight are done: checkpoint what changed
  # since the last one, then hibernate or move.
  defp maybe_move(st) do
    cond do
      st.workers != %{} or st.ckpt != nil ->
        {:noreply, st}

      # Replies held for a checkpoint get it first.
      st.held != [] ->
        {:noreply, start_checkpoint(st)}

      # A move takes a full snapshot of its own.
      match?({:move, _, _}, st.migrating) ->
        do_move(st)

      st.dirty or st.jobs_started ->
        {:noreply, start_checkpoint(%{st | jobs_started: false})}

      true ->
        do_move(st)
    end
  end

  defp do_move(%{migrating: {:hibernate, from}} = st) do
    leave(st)
    if from, do: GenServer.reply(from, :ok)
    # They wake it again.
    for {_msg, f} <- Enum.reverse(st.waiting), do: GenServer.reply(f, :ex_bashkit_retry)
    {:stop, :normal, st}
  end

  defp do_move(%{migrating: {:move, node, from}} = st) do
    # Under the name's cluster-wide lock, so no caller wakes a second copy
    # from the store between leaving here and joining there.
    :global.trans({{__MODULE__, st.name}, self()}, fn -> move(st, node, from) end)
  end

  defp move(st, node, from) do
    # A full snapshot, handed over: the nodes need not share a store.
    job = %{
      name: st.name,
      key: st.key,
      generation: st.generation,
      full?: true,
      options: st.options,
      server: st.server
    }

    with {:ok, %{snapshot: bytes, generation: gen}} <- Checkpoint.take(st.session, job),
         record = %{
           name: st.name,
           generation: gen,
           snapshot: bytes,
           deltas: [],
           options: st.options,
           server: st.server
         },
         :ok <- leave(st),
         {:ok, pid} <- start_from(node, %{name: st.name, passed: record}) do
      GenServer.reply(from, {:ok, pid})
      for {_msg, f} <- Enum.reverse(st.waiting), do: GenServer.reply(f, {:ex_bashkit_moved, pid})
      {:stop, :normal, st}
    else
      error ->
        :pg.join(@scope, {__MODULE__, st.name}, self())
        Registry.register(@registry, st.name, nil)
        GenServer.reply(from, flat(error))
        redeliver(%{st | migrating: nil, full_due: true, generation: st.generation + 1})
    end
  end

  defp flat({:error, reason}), do: {:error, reason}
  defp flat(other), do: {:error, other}

  # While moving, this node's name must not resolve here any more.
  defp leave(st) do
    :pg.leave(@scope, {__MODULE__, st.name}, self())
    Registry.unregister(@registry, st.name)
    :ok
  end

  # The move failed: the calls that waited resolve the name again (here).
  defp redeliver(st) do
    for {_msg, f} <- st.waiting, do: GenServer.reply(f, :ex_bashkit_retry)
    {:noreply, arm_idle(%{st | waiting: []})}
  end

  defp jobs_running?(st), do: Enum.any?(Session.jobs(st.session), &(&1.status == :running))

  # --- idleness -----------------------------------------------------------

  # A call arrived or was answered: idleness counts from now.
  defp touch(st), do: arm_idle(%{st | last_call: now()})

  defp arm_idle(%{idle_timer: nil, hibernate_after: ms} = st) when is_integer(ms),
    do: %{st | idle_timer: Process.send_after(self(), :idle, ms)}

  defp arm_idle(st), do: st

  defp now, do: System.monotonic_time(:millisecond)

  # The key sealing this session's snapshots: its own, the application's, or
  # one derived from the cookie (shared by the nodes of a cluster).
  defp snapshot_key(options) do
    Keyword.get(options, :snapshot_key) ||
      Keyword.get(ExBashkit.Config.get().defaults, :snapshot_key) ||
      :crypto.hash(:sha256, "ex_bashkit snapshot key:" <> Atom.to_string(Node.get_cookie()))
  end
end
