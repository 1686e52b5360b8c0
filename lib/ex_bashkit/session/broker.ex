defmodule ExBashkit.Session.Broker do
  @moduledoc false
  # The process that serves a background job's callbacks (a foreground exec's
  # caller serves its own, see `Dispatch`). It runs until the interpreter
  # stops it when the job ends; a broker killed from outside takes its
  # workers with it (their guardian watches it).

  alias ExBashkit.Session.Dispatch

  @doc false
  def start(session_ref, cfg) do
    spawn(fn -> loop(Dispatch.new(session_ref, cfg)) end)
  end

  @doc false
  def stop(broker), do: send(broker, :ex_bashkit_stop)

  defp loop(st) do
    receive do
      :ex_bashkit_stop ->
        Dispatch.stop(st)

      message ->
        loop(Dispatch.handle(message, st))
    after
      Dispatch.wait(st) -> loop(Dispatch.expire(st))
    end
  end
end
