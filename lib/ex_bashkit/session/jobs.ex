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

  import Bitwise, only: [<<<: 2]

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
    for j <- Native.jobs_list(ref) do
      %{j | started_at: DateTime.from_unix!(round(j.started_at * 1_000_000), :microsecond)}
    end
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
  """
  @spec await_job(Session.t(), pos_integer(), timeout()) ::
          {:ok, job()} | {:error, :timeout | :not_found}
  def await_job(%Session{} = session, id, timeout \\ 5_000) do
    deadline =
      System.monotonic_time(:millisecond) + if(timeout == :infinity, do: 1 <<< 62, else: timeout)

    poll_job(session, id, deadline, 1)
  end

  defp poll_job(session, id, deadline, pause) do
    case Enum.find(jobs(session), &(&1.id == id)) do
      nil ->
        {:error, :not_found}

      %{status: :running} ->
        if System.monotonic_time(:millisecond) >= deadline do
          {:error, :timeout}
        else
          Process.sleep(pause)
          poll_job(session, id, deadline, min(pause * 2, 50))
        end

      job ->
        {:ok, job}
    end
  end

  @doc false
  # A background job: a broker of its own serves its callbacks until the job
  # ends (the interpreter stops it then), whoever started it.
  def start(%Session{ref: ref} = session, script, native_opts, name) do
    name = if name == :default, do: default_job_name(script), else: name

    broker = if session.callbacks, do: Broker.start(ref, session.callbacks, owner: nil)

    case Native.job_start(
           ref,
           script,
           %{native_opts | broker: broker},
           name,
           session.config.max_jobs
         ) do
      {:ok, id} ->
        {:ok, id}

      {:error, message} ->
        if broker, do: Broker.stop(broker)
        {:error, message}
    end
  end

  defp default_job_name(script) do
    line = script |> String.split("\n", parts: 2) |> hd() |> String.trim()
    if byte_size(line) > 60, do: binary_part(line, 0, 57) <> "...", else: line
  end
end
