defmodule ExBashkit.TestNodes do
  @moduledoc false
  # Distribution for the tests that use real nodes (`:peer`): this node made
  # distributed, and peers started with this node's code path and cookie.

  @doc """
  Make this node distributed. `epmd -daemon` returns before epmd listens, so
  starting distribution right after it may fail (a race under load): it is
  tried again until epmd answers.
  """
  def ensure_distributed(name \\ :"ex_bashkit_test@127.0.0.1") do
    unless Node.alive?() do
      System.cmd("epmd", ["-daemon"], stderr_to_stdout: true)
      start_distribution(name, 100)
    end

    :ok
  end

  defp start_distribution(name, tries) do
    case :net_kernel.start([name, :longnames]) do
      {:ok, _} ->
        :ok

      {:error, {:already_started, _}} ->
        :ok

      {:error, reason} when tries > 0 ->
        _ = reason
        Process.sleep(50)
        start_distribution(name, tries - 1)

      {:error, reason} ->
        raise "cannot start distribution (is epmd running?): #{inspect(reason)}"
    end
  end

  @doc "Start a peer node running the ex_bashkit application: `{node, peer}`."
  def start_peer(tag, env \\ []) do
    ensure_distributed()

    args =
      Enum.flat_map(:code.get_path(), &[~c"-pa", &1]) ++
        [~c"-setcookie", Atom.to_charlist(Node.get_cookie())]

    name = :"ex_bashkit_#{tag}_#{System.unique_integer([:positive])}"
    {:ok, peer, node} = :peer.start(%{name: name, host: ~c"127.0.0.1", args: args})
    for {k, v} <- env, do: :ok = :erpc.call(node, Application, :put_env, [:ex_bashkit, k, v])
    {:ok, _} = :erpc.call(node, Application, :ensure_all_started, [:ex_bashkit])
    {node, peer}
  end

  @doc "Stop a peer, whatever state it is in."
  def stop_peer(peer) do
    :peer.stop(peer)
  catch
    _, _ -> :ok
  end
end
