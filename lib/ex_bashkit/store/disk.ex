defmodule ExBashkit.Store.Disk do
  @moduledoc """
  The on-disk `ExBashkit.Store`: one file per session under `dir:` (default
  `ex_bashkit_sessions` in the system's temporary directory), named by a hash
  of the session's name. A record is written to a temporary file in the same
  directory, flushed to disk (`fsync`) and renamed over the old one, so a
  reader sees the old record or the new one, never a mix.

      config :ex_bashkit, store: {ExBashkit.Store.Disk, dir: "/var/lib/app/sessions"}

  The file holds `:erlang.term_to_binary/1` of the record; it is read back
  with `:safe` (no new atoms), and the snapshot inside is sealed (HMAC), so a
  tampered file fails to restore rather than restoring something else.
  """
  @behaviour ExBashkit.Store

  @impl true
  def put(%{name: name} = record, opts) do
    dir = dir(opts)
    File.mkdir_p!(dir)
    path = file(dir, name)
    tmp = path <> ".#{System.unique_integer([:positive])}.tmp"

    try do
      {:ok, fd} = :file.open(tmp, [:write, :binary, :raw])
      :ok = :file.write(fd, :erlang.term_to_binary(record))
      :ok = :file.sync(fd)
      :ok = :file.close(fd)
      File.rename!(tmp, path)
      :ok
    rescue
      e ->
        File.rm(tmp)
        {:error, Exception.message(e)}
    end
  end

  @impl true
  def get(name, opts) do
    with {:ok, bin} <- File.read(file(dir(opts), name)),
         %{name: ^name} = record <- safe(bin) do
      {:ok, record}
    else
      _ -> :error
    end
  end

  @impl true
  def delete(name, opts) do
    File.rm(file(dir(opts), name))
    :ok
  end

  @impl true
  def names(opts) do
    dir = dir(opts)

    case File.ls(dir) do
      {:ok, files} ->
        for f <- files,
            String.ends_with?(f, ".session"),
            {:ok, bin} <- [File.read(Path.join(dir, f))],
            %{name: name} <- [safe(bin)],
            do: name

      _ ->
        []
    end
  end

  defp safe(bin) do
    :erlang.binary_to_term(bin, [:safe])
  rescue
    ArgumentError -> nil
  end

  defp dir(opts), do: Keyword.get(opts, :dir, Path.join(System.tmp_dir!(), "ex_bashkit_sessions"))

  defp file(dir, name) do
    hash =
      :crypto.hash(:sha256, :erlang.term_to_binary(name, [:deterministic]))
      |> Base.url_encode64(padding: false)

    Path.join(dir, hash <> ".session")
  end
end
