defmodule ExBashkit.Result do
  @moduledoc """
  What a finished script produced: its standard output and standard error as
  raw binaries (not necessarily UTF-8) and its exit status.

  A non-zero `exit_code` is still a result, as in a real shell: `{:ok, result}`.
  Every field has a default (`""`, `""`, `0`), so a custom builtin may return a
  partial result such as `%ExBashkit.Result{stdout: "x"}`.

  `queued_ms` is how long the script waited for a slot of the node's admission
  control (see `ExBashkit.configure_admission/1`), before it started and while
  taking turns with other scripts; that time does not count against its
  timeout. It is left out of `inspect/1`, which shows what the script produced.
  """

  @derive {Inspect, except: [:queued_ms]}
  defstruct stdout: "", stderr: "", exit_code: 0, queued_ms: 0

  @type t :: %__MODULE__{
          stdout: binary(),
          stderr: binary(),
          exit_code: non_neg_integer(),
          queued_ms: non_neg_integer()
        }
end
