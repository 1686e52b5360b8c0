defmodule ExBashkit.Session.History do
  @moduledoc """
  A session's command history and aliases. Each function is also reachable as
  `ExBashkit.Session.history/2` and so on.
  """

  alias ExBashkit.{Native, Session}

  @typedoc "One entry of the command history."
  @type history_entry :: %{number: pos_integer(), command: String.t(), exit_code: integer() | nil}

  @doc """
  The session's command history: every script given to `exec/3` (a background
  job's with a trailing ` &`), oldest first, with its exit code (`nil` when a
  limit, the timeout or a cancel stopped it). It is what the `history`
  builtin lists. Empty when the session was created with `history: false`.

  Options: `:prefix` and `:contains` keep the entries whose command starts
  with / contains the string; `:limit` keeps the newest N of those.

      iex> s = ExBashkit.Session.new()
      iex> {:ok, _} = ExBashkit.Session.exec(s, "echo one")
      iex> {:ok, _} = ExBashkit.Session.exec(s, "ls /nope")
      iex> ExBashkit.Session.history(s, contains: "nope")
      [%{number: 2, command: "ls /nope", exit_code: 2}]
  """
  @spec history(Session.t(), keyword()) :: [history_entry()]
  def history(%Session{ref: ref}, opts \\ []) do
    prefix = Keyword.get(opts, :prefix)
    contains = Keyword.get(opts, :contains)

    entries =
      for {n, line, code} <- Native.history_list(ref),
          prefix == nil or String.starts_with?(line, prefix),
          contains == nil or String.contains?(line, contains),
          do: %{number: n, command: line, exit_code: code}

    case Keyword.get(opts, :limit) do
      nil ->
        entries

      n when is_integer(n) and n >= 0 ->
        Enum.take(entries, -n)

      bad ->
        raise ArgumentError, "option :limit must be a non-negative integer, got: #{inspect(bad)}"
    end
  end

  @doc "Forget the command history (as `history -c`)."
  @spec clear_history(Session.t()) :: :ok
  def clear_history(%Session{ref: ref}), do: Native.history_clear(ref)

  @doc """
  The session's aliases, as `%{name => value}`. Aliases apply to later
  scripts (`shopt -s expand_aliases` is on in sessions, as in an interactive shell).
  """
  @spec aliases(Session.t()) :: %{String.t() => String.t()}
  def aliases(%Session{ref: ref}), do: Map.new(Native.aliases_list(ref))

  @doc """
  Define or replace alias `name`, as `alias name='value'` would. It never
  waits for a running script: an alias set while one runs shows in
  `aliases/1` at once and reaches the shell when its next exec starts.

      iex> s = ExBashkit.Session.new()
      iex> :ok = ExBashkit.Session.put_alias(s, "ll", "ls -l")
      iex> ExBashkit.Session.aliases(s)
      %{"ll" => "ls -l"}
  """
  @spec put_alias(Session.t(), String.t(), String.t()) :: :ok | {:error, String.t()}
  def put_alias(%Session{ref: ref}, name, value) when is_binary(name) and is_binary(value),
    do: Native.alias_set(ref, name, value)

  @doc "Remove alias `name` (nothing happens if there is none)."
  @spec delete_alias(Session.t(), String.t()) :: :ok | {:error, String.t()}
  def delete_alias(%Session{ref: ref}, name) when is_binary(name),
    do: Native.alias_set(ref, name, nil)
end
