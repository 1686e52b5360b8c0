defmodule ExBashkit.Session.Hooks do
  @moduledoc false
  # `:before_exec` and `:after_exec`: the application's functions run like
  # custom builtins, in a process of their own with the callback timeout, so a
  # raise, an exit or a hang cannot take the caller down. Both fail closed: a
  # hook that fails refuses the script (before) or replaces the result with an
  # error (after), since a hook may be a policy or a redaction filter.

  alias ExBashkit.Result

  @doc false
  def before_exec(%{before_exec: nil}, script), do: {:ok, script}

  def before_exec(%{before_exec: fun, hook_timeout: t}, script) do
    case isolated(fun, script, t) do
      {:ok, :ok} ->
        {:ok, script}

      {:ok, {:ok, new}} when is_binary(new) ->
        {:ok, new}

      {:ok, {:error, reason}} ->
        {:error, "script refused by before_exec: " <> text(reason)}

      {:ok, other} ->
        {:error, "before_exec returned an invalid value: " <> inspect(other, limit: 10)}

      {:error, why} ->
        {:error, "before_exec failed: " <> why}
    end
  end

  @doc false
  def after_exec(%{after_exec: nil}, result), do: result

  def after_exec(%{after_exec: fun, hook_timeout: t}, result) do
    case isolated(fun, result, t) do
      {:ok, :ok} ->
        result

      {:ok, {:ok, %Result{}} = new} ->
        new

      {:ok, {:error, msg} = new} when is_binary(msg) ->
        new

      {:ok, {:error, msg, %Result{}} = new} when is_binary(msg) ->
        new

      {:ok, other} ->
        {:error, "after_exec returned an invalid value: " <> inspect(other, limit: 10)}

      {:error, why} ->
        {:error, "after_exec failed: " <> why}
    end
  end

  defp text(r) when is_binary(r), do: r
  defp text(r), do: inspect(r, limit: 10)

  # Run `fun.(arg)` in a monitored process; kill it at the deadline.
  defp isolated(fun, arg, timeout) do
    parent = self()
    tag = make_ref()

    {pid, mref} =
      spawn_monitor(fn ->
        result =
          try do
            {:ok, fun.(arg)}
          rescue
            e -> {:error, "raised " <> Exception.message(e)}
          catch
            kind, reason -> {:error, "#{kind}: #{inspect(reason, limit: 10)}"}
          end

        send(parent, {tag, result})
      end)

    receive do
      {^tag, result} ->
        Process.demonitor(mref, [:flush])
        result

      {:DOWN, ^mref, :process, _, reason} ->
        {:error, "exited: #{inspect(reason, limit: 10)}"}
    after
      timeout ->
        Process.exit(pid, :kill)
        Process.demonitor(mref, [:flush])

        receive do
          {^tag, _} -> :ok
        after
          0 -> :ok
        end

        {:error, "timed out after #{timeout} ms"}
    end
  end
end
