defmodule ExBashkit.Server do
  @moduledoc """
  A session as an OTP citizen: a GenServer under the application's supervisor
  that owns one `ExBashkit.Session`, reachable by name from any node of the
  cluster, sealed into an `ExBashkit.Store` when idle and woken on the next
  call, movable to another node, and restarted elsewhere when its node dies.

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
  Calls to a name nobody knows return `{:error, :not_found}`.

  ## Names

  A name is any term. It is registered in the node's `Registry`
  (`ExBashkit.Registry`) and in a `:pg` group (scope `ExBashkit.PG`) that
  every node of the cluster sees. Two nodes waking the same name at once is
  settled by a cluster-wide lock (`:global.trans/2`), so one server wins.

  ## Hibernation

  After `:hibernate_after_ms` without a call (default 15 minutes;
  `:infinity` never), with no call in flight and no background job running,
  the server seals its session with `ExBashkit.Session.snapshot/2` (HMAC with
  `:snapshot_key`, or a key derived from the node's cookie, which every node
  of a cluster shares) into the store and stops: an idle session then costs
  the size of its snapshot in the store and no process. The next call wakes
  it transparently. `hibernate/1` does it at once. Between hibernations the
  server checkpoints too: `:checkpoint_after_ms` (default 5 s) after the last
  call that could change it, it writes a fresh record, so failover loses at
  most that much.

  ## Migration and failover

  `migrate(name, node)` moves a live session: calls in flight finish first,
  calls arriving meanwhile wait and then follow it, and the session continues
  on `node` from a snapshot taken after the last of them. When a node dies,
  the next call to a name that lived there starts it on the calling node from
  the store's last record (with `ExBashkit.Store.Disk` on storage the nodes
  share; the memory store's records die with their node). A call that was in
  flight on the dead node fails with `{:error, {:nodedown, node}}`.

  **Background jobs do not survive a move**, a hibernation or a failover: a
  snapshot holds the session's state and files, not running scripts. The
  session's options (builtins, hooks, virtual filesystems) travel as terms,
  so functions in them must be defined in modules loaded on every node
  (anonymous functions of a module work; functions typed into a shell do
  not). `:workspace` cannot be used with a server.

  ## Options

  `start/2` takes every option of `ExBashkit.Session.new/1` plus:

    * `:hibernate_after_ms` - idle time before hibernating (default from
      `config :ex_bashkit, :hibernate_after_ms`, else 900_000), or `:infinity`.
    * `:checkpoint_after_ms` - idle time before a checkpoint (default 5_000),
      or `:infinity`.
  """
  use GenServer, restart: :transient

  alias ExBashkit.{Session, Store}

  @registry ExBashkit.Registry
  @scope ExBashkit.PG
  @supervisor ExBashkit.ServerSupervisor
  @server_keys [:hibernate_after_ms, :checkpoint_after_ms]

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
  another). `{:error, {:already_started, pid}}` if it is live (or hibernated:
  it is woken then).
  """
  @spec start(Store.name(), keyword()) :: {:ok, pid()} | {:error, term()}
  def start(name, opts \\ []) do
    {node, opts} = Keyword.pop(opts, :node, node())
    {server, session} = Keyword.split(opts, @server_keys)

    if Keyword.has_key?(session, :workspace),
      do: raise(ArgumentError, "option :workspace cannot be used with ExBashkit.Server")

    # Validate here, where the caller gets the ArgumentError (the NIF's own
    # checks, such as a mount's host path, surface as {:error, _} from init).
    _ = ExBashkit.Session.Options.normalize(session)

    case whereis(name) || wake(name) do
      pid when is_pid(pid) ->
        {:error, {:already_started, pid}}

      nil ->
        record = %{
          name: name,
          snapshot: nil,
          options: session,
          server: server,
          saved_at: Store.stamp()
        }

        :global.trans({{__MODULE__, name}, self()}, fn ->
          case whereis(name) do
            nil -> start_from(node, record)
            pid -> {:error, {:already_started, pid}}
          end
        end)
    end
  end

  @doc "Stop the session called `name` and forget it (its store record too)."
  @spec stop(Store.name()) :: :ok | {:error, :not_found}
  def stop(name) do
    case whereis(name) do
      nil ->
        case Store.get(name) do
          {:ok, _} -> Store.delete(name)
          :error -> {:error, :not_found}
        end

      pid ->
        safe_call(pid, :stop, fn -> stop(name) end)
    end
  end

  @doc "Seal the session called `name` into the store now and stop its server."
  @spec hibernate(Store.name()) :: :ok | {:error, term()}
  def hibernate(name) do
    case whereis(name) do
      nil -> if match?({:ok, _}, Store.get(name)), do: :ok, else: {:error, :not_found}
      pid -> safe_call(pid, :hibernate, fn -> hibernate(name) end)
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
      nil -> {:error, :not_found}
      pid when node(pid) == node -> {:ok, pid}
      pid -> safe_call(pid, {:migrate, node}, fn -> migrate(name, node) end)
    end
  end

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
      nil ->
        {:error, :not_found}

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
      reply -> reply
    end
  catch
    :exit, {reason, _} when reason in [:noproc, :normal, :shutdown] ->
      retry.()

    :exit, {{:shutdown, _}, _} ->
      retry.()

    :exit, {{:nodedown, n}, _} ->
      if msg_is_api?(msg), do: {:error, {:nodedown, n}}, else: retry.()
  end

  defp msg_is_api?({:api, _, _}), do: true
  defp msg_is_api?(_), do: false

  # Start `name` from its store record, on this node, unless a server is live.
  defp wake(name) do
    :global.trans({{__MODULE__, name}, self()}, fn ->
      case whereis(name) do
        nil ->
          case Store.get(name) do
            {:ok, record} ->
              case start_from(node(), record) do
                {:ok, pid} -> pid
                {:error, {:already_started, pid}} -> pid
                _ -> nil
              end

            :error ->
              nil
          end

        pid ->
          pid
      end
    end)
  end

  defp start_from(node, record) do
    spec = {__MODULE__, record}

    if node == node(),
      do: DynamicSupervisor.start_child(@supervisor, spec),
      else: :erpc.call(node, DynamicSupervisor, :start_child, [@supervisor, spec], 60_000)
  end

  @doc false
  def start_link(record),
    do: GenServer.start_link(__MODULE__, record, name: {:via, Registry, {@registry, record.name}})

  # --- server -------------------------------------------------------------

  @impl true
  def init(%{options: options} = record) do
    Session.new(options)
  rescue
    e in ArgumentError -> {:stop, {:bad_options, Exception.message(e)}}
  else
    session -> init_with(session, record)
  end

  defp init_with(session, %{name: name, options: options, server: server} = record) do
    key = snapshot_key(options)

    restored =
      case record.snapshot do
        nil -> :ok
        bytes -> Session.restore(session, bytes, key: key)
      end

    with {:ok, _} <- ok(restored) do
      :ok = :pg.join(@scope, {__MODULE__, name}, self())

      st = %{
        name: name,
        session: session,
        options: options,
        server: server,
        key: key,
        workers: %{},
        waiting: [],
        migrating: nil,
        dirty: record.snapshot == nil,
        timer: nil,
        hibernate_after: setting(server, :hibernate_after_ms, 900_000),
        checkpoint_after: Keyword.get(server, :checkpoint_after_ms, 5_000)
      }

      # The record this server started from is the store's newest now.
      if record.snapshot == nil, do: Store.put(%{record | saved_at: Store.stamp()})
      {:ok, idle(st)}
    else
      {:error, why} -> {:stop, {:restore_failed, why}}
    end
  end

  defp ok(:ok), do: {:ok, nil}
  defp ok({:ok, _} = v), do: v
  defp ok({:error, _} = e), do: e

  @impl true
  def handle_call(msg, from, %{migrating: m} = st) when m != nil and msg != :stop do
    {:noreply, %{st | waiting: [{msg, from} | st.waiting]}}
  end

  def handle_call({:api, fun, args}, from, st) when fun in @async do
    st = busy(st)
    session = st.session

    {pid, mref} =
      spawn_monitor(fn -> exit({:ex_bashkit_reply, apply(Session, fun, [session | args])}) end)

    dirty = st.dirty or fun in @mutating
    {:noreply, %{st | workers: Map.put(st.workers, pid, {mref, from}), dirty: dirty}}
  end

  def handle_call({:api, fun, args}, _from, st) do
    st = busy(st)

    reply =
      try do
        {:ok, apply(Session, fun, [st.session | args])}
      rescue
        e -> {:raise, e, __STACKTRACE__}
      end

    st = %{st | dirty: st.dirty or fun in @mutating}

    case reply do
      {:ok, r} -> {:reply, r, idle(st)}
      {:raise, e, _} -> {:reply, {:error, {:raised, e}}, idle(st)}
    end
  end

  def handle_call(:stop, _from, st) do
    Store.delete(st.name)
    {:stop, :normal, :ok, st}
  end

  def handle_call(:hibernate, from, st) do
    if st.workers == %{} do
      case seal(st) do
        :ok ->
          leave(st)
          {:stop, :normal, :ok, st}

        error ->
          {:reply, error, idle(st)}
      end
    else
      # Once the calls in flight are done.
      {:noreply, %{st | migrating: {:hibernate, from}}}
    end
  end

  def handle_call({:migrate, node}, from, st) do
    maybe_move(%{st | migrating: {node, from}})
  end

  @impl true
  def handle_info({:DOWN, _mref, :process, pid, reason}, st) when is_map_key(st.workers, pid) do
    {{_mref, from}, workers} = Map.pop(st.workers, pid)

    reply =
      case reason do
        {:ex_bashkit_reply, r} -> r
        other -> {:error, {:crashed, other}}
      end

    GenServer.reply(from, reply)
    st = %{st | workers: workers}

    case st.migrating do
      nil -> {:noreply, idle(st)}
      _ -> maybe_move(st)
    end
  end

  def handle_info(:checkpoint, st) do
    cond do
      st.workers != %{} ->
        {:noreply, st}

      st.dirty ->
        {:noreply, schedule(%{st | dirty: seal(st) != :ok}, st.hibernate_after, :hibernate)}

      true ->
        {:noreply, schedule(st, st.hibernate_after, :hibernate)}
    end
  end

  def handle_info(:hibernate, st) do
    if st.workers == %{} and not jobs_running?(st) do
      case seal(st) do
        :ok -> {:stop, :normal, st}
        _ -> {:noreply, idle(st)}
      end
    else
      {:noreply, idle(st)}
    end
  end

  def handle_info(_, st), do: {:noreply, st}

  # Calls in flight done: hibernate or move, then pass the calls that waited on.
  defp maybe_move(%{workers: w} = st) when w != %{}, do: {:noreply, st}

  defp maybe_move(%{migrating: {:hibernate, from}} = st) do
    case seal(st) do
      :ok ->
        leave(st)
        GenServer.reply(from, :ok)
        # They wake it again.
        for {_msg, f} <- Enum.reverse(st.waiting), do: GenServer.reply(f, :ex_bashkit_retry)
        {:stop, :normal, st}

      error ->
        GenServer.reply(from, error)
        redeliver(%{st | migrating: nil})
    end
  end

  defp maybe_move(%{migrating: {node, from}} = st) do
    # Under the name's cluster-wide lock, so no caller wakes a second copy
    # from the store between leaving here and joining there.
    :global.trans({{__MODULE__, st.name}, self()}, fn -> move(st, node, from) end)
  end

  defp move(st, node, from) do
    with {:ok, bytes} <- Session.snapshot(st.session, key: st.key),
         record = %{
           name: st.name,
           snapshot: bytes,
           options: st.options,
           server: st.server,
           saved_at: Store.stamp()
         },
         :ok <- leave(st),
         {:ok, pid} <- start_remote(node, record) do
      Store.put(record)
      GenServer.reply(from, {:ok, pid})
      for {_msg, f} <- Enum.reverse(st.waiting), do: GenServer.reply(f, {:ex_bashkit_moved, pid})
      {:stop, :normal, st}
    else
      error ->
        :pg.join(@scope, {__MODULE__, st.name}, self())
        GenServer.reply(from, {:error, error})
        redeliver(%{st | migrating: nil})
    end
  end

  defp start_remote(node, record) do
    case :erpc.call(
           node,
           DynamicSupervisor,
           :start_child,
           [@supervisor, {__MODULE__, record}],
           60_000
         ) do
      {:ok, pid} -> {:ok, pid}
      other -> other
    end
  catch
    kind, reason -> {:error, {kind, reason}}
  end

  # While moving, this node's name must not resolve here any more.
  defp leave(st) do
    :pg.leave(@scope, {__MODULE__, st.name}, self())
    Registry.unregister(@registry, st.name)
    :ok
  end

  # The move failed: the calls that waited resolve the name again (here).
  defp redeliver(st) do
    for {_msg, f} <- st.waiting, do: GenServer.reply(f, :ex_bashkit_retry)
    {:noreply, idle(%{st | waiting: []})}
  end

  defp seal(st) do
    with {:ok, bytes} <- Session.snapshot(st.session, key: st.key) do
      Store.put(%{
        name: st.name,
        snapshot: bytes,
        options: st.options,
        server: st.server,
        saved_at: Store.stamp()
      })
    end
  end

  defp jobs_running?(st), do: Enum.any?(Session.jobs(st.session), &(&1.status == :running))

  defp busy(st) do
    if st.timer, do: Process.cancel_timer(st.timer)
    %{st | timer: nil}
  end

  # Arm the next idle step: a checkpoint when something changed, else hibernation.
  defp idle(%{workers: w} = st) when w != %{}, do: st

  defp idle(st) do
    st = busy(st)

    if st.dirty,
      do: schedule(st, st.checkpoint_after, :checkpoint),
      else: schedule(st, st.hibernate_after, :hibernate)
  end

  defp schedule(st, :infinity, _), do: st

  defp schedule(st, ms, msg) do
    if st.timer, do: Process.cancel_timer(st.timer)
    %{st | timer: Process.send_after(self(), msg, ms)}
  end

  defp setting(server, key, default) do
    Keyword.get_lazy(server, key, fn -> Map.get(ExBashkit.Config.get().server, key, default) end)
  end

  # The key sealing this session's snapshots: its own, the application's, or
  # one derived from the cookie (shared by the nodes of a cluster).
  defp snapshot_key(options) do
    Keyword.get(options, :snapshot_key) ||
      Keyword.get(ExBashkit.Config.get().defaults, :snapshot_key) ||
      :crypto.hash(:sha256, "ex_bashkit snapshot key:" <> Atom.to_string(Node.get_cookie()))
  end
end
