defmodule ExBashkit.Session.Jobs do
  @moduledoc """
  Background jobs of a session. Each function is also reachable as
  `ExBashkit.Session.jobs/1` and so on.

  `exec(session, script, background: true)` starts the script as a job and
  returns `{:ok, job_id}` at once. The job runs in a copy of the session (its
  variable and `cd` changes stay its own, as in `( script ) &`), shares the
  filesystem, keeps running across later calls, and writes its stdout and
  stderr to `/tmp/jobs/ID.out` and `/tmp/jobs/ID.err`, which scripts can
  `tail` or `grep` while it runs. `jobs/1` lists the jobs with their status,
  exit code, start time and output paths; `terminate_job/2` stops one (exit
  code 143, as for SIGTERM); `await_job/3` waits for one. Jobs obey the
  session's limits (including `:timeout_ms`), at most `:max_jobs` (default 16)
  run at once, and they end when the session is garbage-collected.

      iex> s = ExBashkit.Session.new()
      iex> {:ok, id} = ExBashkit.Session.exec(s, "echo working; exit 3", background: true)
      iex> {:ok, job} = ExBashkit.Session.await_job(s, id)
      iex> {job.status, job.exit_code}
      {:exited, 3}
      iex> ExBashkit.Session.read_file(s, job.stdout_path)
      {:ok, "working\\n"}
  """

  alias ExBashkit.{Native, Session}
  alias ExBashkit.Session.Broker

  @typedoc "A background job, as `jobs/1` lists it."
  @type job :: %{
          id: pos_integer(),
          name: String.t(),
          status: :running | :exited | :terminated | :failed,
          exit_code: integer() | nil,
          started_at: DateTime.t(),
          stdout_path: String.t(),
          stderr_path: String.t(),
          error: String.t() | nil
        }

  @doc """
  The session's background jobs (see "Background jobs" in the module doc),
  oldest first. A finished job keeps its status and exit code.
  """
  @spec jobs(Session.t()) :: [job()]
  def jobs(%Session{ref: ref}) do
    Enum.map(Native.jobs_list(ref), &convert/1)
  end

  @doc """
  Stop background job `id` and everything it started. Its status becomes
  `:terminated` with exit code 143, as bash records a job killed by SIGTERM.
  """
  @spec terminate_job(Session.t(), pos_integer()) :: :ok | {:error, :not_found | :not_running}
  def terminate_job(%Session{ref: ref}, id) when is_integer(id) do
    case Native.job_terminate(ref, id) do
      :ok -> :ok
      other -> {:error, other}
    end
  end

  @doc """
  Wait until background job `id` is no longer running, at most `timeout` ms.
  The interpreter sends a message when the job ends (no polling).
  """
  @spec await_job(Session.t(), pos_integer(), timeout()) ::
          {:ok, job()} | {:error, :timeout | :not_found}
  def await_job(session, id, timeout \\ 5_000)

  def await_job(%Session{ref: ref}, id, timeout) when is_integer(id) and id > 0 do
    tag = make_ref()

    case Native.job_await(ref, id, self(), tag) do
      :not_found ->
        {:error, :not_found}

      {:done, job} ->
        {:ok, convert(job)}

      {:waiting, waiter} ->
        receive do
          {^tag, job} -> {:ok, convert(job)}
        after
          timeout ->
            case Native.job_await_cancel(ref, waiter) do
              :ok ->
                {:error, :timeout}

              # The job ended as the time ran out: its message is on its way.
              :sent ->
                receive do
                  {^tag, job} -> {:ok, convert(job)}
                end
            end
        end
    end
  end

  def await_job(%Session{}, _id, _timeout), do: {:error, :not_found}

  defp convert(j),
    do: %{j | started_at: DateTime.from_unix!(round(j.started_at * 1_000_000), :microsecond)}

  @doc false
  # A background job: a broker of its own serves its callbacks until the job
  # ends (the interpreter stops it then), whoever started it.
  def start(%Session{ref: ref} = session, script, native_opts, name) do
    name = if name == :default, do: default_job_name(script), else: name

    broker = if session.callbacks, do: Broker.start(ref, session.callbacks)

    case Native.job_start(
           ref,
           script,
           %{native_opts | broker: broker},
           name,
           session.config.max_jobs
         ) do
      {:ok, id} ->
        if ExBashkit.Telemetry.enabled?(), do: report_end(ref, id)
        {:ok, id}

      {:error, message} ->
        if broker, do: Broker.stop(broker)
        {:error, message}
    end
  end

  # `[:ex_bashkit, :job, :stop]` when job `id` ends, sent by a process that
  # waits for the interpreter's message (it holds no reference to the
  # session, so the session can still be collected, which ends the job).
  defp report_end(ref, id) do
    started = System.monotonic_time()
    tag = make_ref()

    listener =
      spawn(fn ->
        receive do
          {^tag, job} -> job_stopped(convert(job), started)
        end
      end)

    case Native.job_await(ref, id, listener, tag) do
      {:done, job} -> send(listener, {tag, job})
      {:waiting, _} -> :ok
      :not_found -> Process.exit(listener, :kill)
    end
  end

  defp job_stopped(job, started) do
    ExBashkit.Telemetry.event(
      [:ex_bashkit, :job, :stop],
      %{duration: System.monotonic_time() - started},
      %{job: job, status: job.status, exit_status: job.exit_code, error: job.error}
    )
  end

  defp default_job_name(script) do
    line = script |> String.split("\n", parts: 2) |> hd() |> String.trim()
    if byte_size(line) > 60, do: binary_part(line, 0, 57) <> "...", else: line
  end
end
