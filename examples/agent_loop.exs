# A scripted agent conversation over one sandbox, using what agent shells ask
# for: tools for the model, custom builtins, a virtual filesystem, a background
# job, history, aliases, change tracking, hooks and a shared workspace.
#
#   mix run examples/agent_loop.exs
#
# The "model" is a fixed list of tool calls, as an LLM would emit them; a real
# loop would send ExBashkit.Tool.definitions() to the model and feed each
# result back.

alias ExBashkit.{Session, Tool}

tickets = %{"T-1" => "Login page returns 500", "T-2" => "Typo on pricing page"}

session =
  Session.new(
    # The application's own capability, callable as a command.
    builtins: %{
      "ticket" => fn %{args: [id]} ->
        case Map.fetch(tickets, id) do
          {:ok, title} -> {:ok, "#{id}: #{title}\n"}
          :error -> {:error, "ticket: #{id}: not found\n"}
        end
      end
    },
    # Read-only data served by the application.
    virtual_fs: %{
      "/kb" => fn
        %{op: :read, path: "/" <> name} -> {:ok, "Knowledge base article #{name}\n"}
        %{op: :list, path: "/"} -> {:ok, [{"deploy.md", :file}, {"oncall.md", :file}]}
        %{op: :stat, path: "/"} -> {:ok, %{type: :dir}}
        %{op: :stat} -> {:ok, %{type: :file}}
        _ -> {:error, :enotsup}
      end
    },
    # A policy hook: the agent may not delete the knowledge base or its notes.
    before_exec: fn script ->
      if script =~ ~r/rm\s+-rf\s+\//, do: {:error, "destructive command blocked"}, else: :ok
    end,
    limits: [timeout_ms: 5_000]
  )

:ok = Session.put_alias(session, "ll", "ls -l")

model_calls = [
  %{"name" => "bash", "input" => %{"script" => "ls /kb && ticket T-1"}},
  %{
    "name" => "writeFile",
    "input" => %{"path" => "/work/notes.md", "content" => "# Triage\n- T-1 first\n"}
  },
  %{
    "name" => "bash",
    "input" => %{
      "script" => "cd /work && for t in T-1 T-2; do ticket $t; done | tee tickets.txt | wc -l",
      "timeout_ms" => 2_000
    }
  },
  %{
    "name" => "bash",
    "input" => %{
      "script" => "for i in 1 2 3; do echo \"build step $i\"; sleep 0.05; done; echo done",
      "background" => true
    }
  },
  %{"name" => "bash", "input" => %{"script" => "rm -rf /work"}},
  %{"name" => "bash", "input" => %{"script" => "seq 1 5000 | awk '{s+=$1} END {print s}'"}},
  %{"name" => "readFile", "input" => %{"path" => "/work/tickets.txt"}}
]

for call <- model_calls do
  IO.puts("model> #{call["name"]} #{inspect(call["input"])}")

  case Tool.run(session, call, max_chars: 2_000) do
    {:ok, text} -> IO.puts("tool>  " <> String.replace(text, "\n", "\n       "))
    {:error, text} -> IO.puts("tool!  " <> text)
  end
end

# The background job kept running between calls; wait for it and read its output.
[job] = Session.jobs(session)
{:ok, job} = Session.await_job(session, job.id)
{:ok, out} = Session.read_file(session, job.stdout_path)
IO.puts("\njob #{job.id} (#{job.status}, exit #{job.exit_code}):\n" <> out)

# What the agent ran, and what it changed (to sync to the application's store).
IO.puts("history:")
for h <- Session.history(session), do: IO.puts("  #{h.number}  [#{h.exit_code}] #{h.command}")
{:ok, changes} = Session.changes(session, path: "/work")

for f <- changes.created,
    do: IO.puts("created #{f.path} (#{f.size} bytes, sha256 #{String.slice(f.sha256, 0, 12)}...)")

# A second agent on the same workspace, kept away from the knowledge base.
reviewer = Session.new(workspace: session, allowed_mounts: [])
{:ok, r} = Session.exec(reviewer, "cat /work/notes.md; cat /kb/deploy.md")
IO.puts("\nreviewer sees:\n" <> r.stdout <> r.stderr)
