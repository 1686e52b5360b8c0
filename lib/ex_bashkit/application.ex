defmodule ExBashkit.Application do
  @moduledoc false
  # The supervision tree: a Registry for local names, a `:pg` scope for names
  # across the cluster, the memory store's table owner, the servers' crash
  # history and a DynamicSupervisor for `ExBashkit.Server`s.
  use Application

  @impl true
  def start(_type, _args) do
    # A bad config fails the start, naming the key.
    ExBashkit.Config.get()
    ExBashkit.Telemetry.refresh()

    children = [
      {Registry, keys: :unique, name: ExBashkit.Registry},
      %{id: ExBashkit.PG, start: {:pg, :start_link, [ExBashkit.PG]}},
      ExBashkit.Store.Memory,
      ExBashkit.Server.Crashes,
      # Servers are :temporary children: a crash spends none of its restart
      # intensity (see ExBashkit.Server.Crashes), so no session can end another.
      {DynamicSupervisor, name: ExBashkit.ServerSupervisor, strategy: :one_for_one}
    ]

    Supervisor.start_link(children, strategy: :one_for_one, name: ExBashkit.Supervisor)
  end
end
