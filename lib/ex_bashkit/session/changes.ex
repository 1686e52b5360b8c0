defmodule ExBashkit.Session.Changes do
  @moduledoc """
  What changed in a session's in-memory filesystem: markers and the files
  created, modified and deleted since one. Also reachable as
  `ExBashkit.Session.mark/1` and `ExBashkit.Session.changes/2`.
  """

  alias ExBashkit.{Native, Session}
  alias ExBashkit.Session.Files

  @typedoc "A file `changes/2` reports: its path, size and lowercase hex SHA-256."
  @type changed_file :: %{path: String.t(), size: non_neg_integer(), sha256: String.t()}

  @doc """
  Remember the in-memory filesystem as it is now, for `changes(session, since: marker)`.
  The last 32 markers are kept.
  """
  @spec mark(Session.t()) :: pos_integer()
  def mark(%Session{ref: ref}), do: Native.fs_mark(ref)

  @doc """
  The regular files created, modified and deleted in the session's in-memory
  filesystem since `:since` (a `mark/1` marker), or, without it, since the
  previous `changes/2` call without one (or since the session began); that
  call then becomes the new baseline. Created and modified files carry their
  size and SHA-256, so an application can sync the sandbox to its own store by
  copying only those. `:path` keeps the changes at or under a path.

  A file rewritten with the same bytes is not a change. Host mounts and
  virtual filesystems are not tracked (their data lives elsewhere already).

      iex> s = ExBashkit.Session.new(files: %{"/work/a.txt" => "a"})
      iex> {:ok, _} = ExBashkit.Session.changes(s)
      iex> {:ok, _} = ExBashkit.Session.exec(s, "echo abc > /work/b.txt; rm /work/a.txt; echo x > /tmp/x")
      iex> {:ok, c} = ExBashkit.Session.changes(s, path: "/work")
      iex> c.created
      [%{path: "/work/b.txt", size: 4, sha256: "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb"}]
      iex> {c.modified, c.deleted}
      {[], ["/work/a.txt"]}
  """
  @spec changes(Session.t(), keyword()) ::
          {:ok, %{created: [changed_file()], modified: [changed_file()], deleted: [String.t()]}}
          | {:error, String.t()}
  def changes(%Session{ref: ref}, opts \\ []) do
    since = Keyword.get(opts, :since)
    path = Keyword.get(opts, :path)

    unless since == nil or (is_integer(since) and since > 0),
      do:
        raise(ArgumentError, "option :since must be a marker from mark/1, got: #{inspect(since)}")

    unless path == nil or is_binary(path),
      do: raise(ArgumentError, "option :path must be a string, got: #{inspect(path)}")

    Native.fs_changes(ref, since, path && Files.fs_path(path))
  end
end
