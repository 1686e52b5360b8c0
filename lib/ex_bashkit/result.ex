defmodule ExBashkit.Result do
  @moduledoc """
  What a finished script produced: its standard output and standard error as
  raw binaries (not necessarily UTF-8) and its exit status.

  A non-zero `exit_code` is still a result, as in a real shell: `{:ok, result}`.
  """

  @enforce_keys [:stdout, :stderr, :exit_code]
  defstruct stdout: "", stderr: "", exit_code: 0

  @type t :: %__MODULE__{stdout: binary(), stderr: binary(), exit_code: non_neg_integer()}
end
