defmodule ExBashkit.Tool do
  @moduledoc """
  Tools for an LLM agent over one `ExBashkit.Session`: `definitions/1` gives
  the tool definitions (name, description, JSON schema) of a `bash`,
  `readFile` and `writeFile` trio, and `run/3` executes a tool call the model
  made and formats the result as the text to hand back to it.

  Long output is not sent whole: past `:max_chars` the result keeps the head
  and the tail, says how much was left out, and leaves the full text in a file
  in the sandbox (`/tmp/tool-output/N.txt`) the model can `grep` or `sed -n`.

      iex> session = ExBashkit.Session.new()
      iex> ExBashkit.Tool.definitions() |> Enum.map(& &1.name)
      ["bash", "readFile", "writeFile"]
      iex> ExBashkit.Tool.run(session, %{"name" => "bash", "input" => %{"script" => "echo hi; ls /nope"}})
      {:ok, "hi\\n[stderr]\\nls: cannot access '/nope': No such file or directory\\n[exit code: 2]"}
      iex> ExBashkit.Tool.run(session, %{"name" => "writeFile", "input" => %{"path" => "/w/a.txt", "content" => "x"}})
      {:ok, "wrote 1 bytes to /w/a.txt"}
      iex> ExBashkit.Tool.run(session, %{"name" => "readFile", "input" => %{"path" => "/w/a.txt"}})
      {:ok, "x"}
  """

  alias ExBashkit.{Result, Session}

  @default_max_chars 30_000
  @output_dir "/tmp/tool-output"

  @doc """
  The tool definitions, in the shape most LLM APIs take (`name`, `description`,
  `input_schema`; rename `input_schema` to `parameters` for OpenAI-style APIs).

  `opts`: `:prefix` prepended to each name (e.g. `"sandbox_"`).
  """
  @spec definitions(keyword()) :: [map()]
  def definitions(opts \\ []) do
    prefix = Keyword.get(opts, :prefix, "")

    [
      %{
        name: prefix <> "bash",
        description:
          "Run a bash script in a persistent, sandboxed Linux-like shell and get its stdout, stderr " <>
            "and exit code. State persists between calls: environment variables, the working " <>
            "directory, shell functions, aliases and files all stay as the previous call left them. " <>
            "GNU coreutils, grep, sed, awk, jq, find, tar and similar tools are available. The " <>
            "filesystem is virtual: nothing outside the sandbox is visible unless mounted, and the " <>
            "network is unreachable unless the application allowed it. With background: true the " <>
            "script keeps running after the call returns; its output goes to /tmp/jobs/N.out and " <>
            "/tmp/jobs/N.err. Output longer than the limit is cut to its head and tail, with the full " <>
            "text saved to a file named in the result.",
        input_schema: %{
          type: "object",
          properties: %{
            script: %{type: "string", description: "The bash script to run."},
            timeout_ms: %{
              type: "integer",
              description: "Wall-clock limit for this call in milliseconds (optional)."
            },
            background: %{
              type: "boolean",
              description: "Run as a background job and return its id at once (optional)."
            }
          },
          required: ["script"]
        }
      },
      %{
        name: prefix <> "readFile",
        description:
          "Read a file from the sandbox's persistent filesystem (absolute path). Returns its " <>
            "contents as text; long files are cut to head and tail.",
        input_schema: %{
          type: "object",
          properties: %{path: %{type: "string", description: "Absolute path of the file."}},
          required: ["path"]
        }
      },
      %{
        name: prefix <> "writeFile",
        description:
          "Create or overwrite a file in the sandbox's persistent filesystem (absolute path; " <>
            "missing directories are created). Later bash calls see it.",
        input_schema: %{
          type: "object",
          properties: %{
            path: %{type: "string", description: "Absolute path of the file."},
            content: %{type: "string", description: "The whole new contents."}
          },
          required: ["path", "content"]
        }
      }
    ]
  end

  @doc """
  Execute a tool call against `session`. `call` is a map with the tool's
  `"name"` and its decoded `"input"` (or `"arguments"`), string or atom keys.
  Returns `{:ok, text}` for a call that ran (a failing command is still
  `:ok`, with its exit code in the text) and `{:error, text}` for a call that
  could not (unknown tool, bad input, a limit stopped the script).

  `opts`: `:max_chars` (default 30,000) and `:prefix` (as given to `definitions/1`).
  """
  @spec run(Session.t(), map(), keyword()) :: {:ok, String.t()} | {:error, String.t()}
  def run(session, call, opts \\ []) do
    prefix = Keyword.get(opts, :prefix, "")
    max = Keyword.get(opts, :max_chars, @default_max_chars)
    name = get(call, "name")
    input = get(call, "input") || get(call, "arguments")

    cond do
      not is_map(input) ->
        {:error, "tool input must be a decoded JSON object, got: #{inspect(input, limit: 5)}"}

      name == prefix <> "bash" ->
        bash(session, input, max)

      name == prefix <> "readFile" ->
        read_file(session, input, max)

      name == prefix <> "writeFile" ->
        write_file(session, input)

      true ->
        {:error, "unknown tool #{inspect(name)}"}
    end
  end

  defp get(map, key) when is_map(map),
    do: Map.get(map, key, Map.get(map, String.to_atom(key)))

  defp get(_, _), do: nil

  defp bash(session, input, max) do
    script = get(input, "script")

    opts =
      if is_integer(get(input, "timeout_ms")),
        do: [timeout_ms: get(input, "timeout_ms")],
        else: []

    cond do
      not is_binary(script) ->
        {:error, "bash: input.script must be a string"}

      get(input, "background") == true ->
        case Session.exec(session, script, [background: true] ++ opts) do
          {:ok, id} ->
            {:ok,
             "started background job #{id}; output in /tmp/jobs/#{id}.out and /tmp/jobs/#{id}.err"}

          {:error, msg} ->
            {:error, msg}
        end

      true ->
        case Session.exec(session, script, [partial: true] ++ opts) do
          {:ok, %Result{} = r} ->
            {:ok, preview(session, format(r), max)}

          {:error, msg, %Result{} = r} ->
            {:error, preview(session, format(r) <> "\n[stopped: #{msg}]", max)}

          {:error, msg} ->
            {:error, msg}
        end
    end
  end

  defp format(%Result{stdout: out, stderr: err, exit_code: code}) do
    err_part = if err == "", do: "", else: "[stderr]\n" <> err

    body =
      out <>
        if(out != "" and err != "" and not String.ends_with?(out, "\n"), do: "\n", else: "") <>
        err_part

    body = if body != "" and not String.ends_with?(body, "\n"), do: body <> "\n", else: body
    body <> "[exit code: #{code}]"
  end

  defp read_file(session, input, max) do
    case get(input, "path") do
      path when is_binary(path) ->
        case Session.read_file(session, path) do
          {:ok, data} -> {:ok, preview(session, data, max)}
          {:error, msg} -> {:error, msg}
        end

      _ ->
        {:error, "readFile: input.path must be a string"}
    end
  end

  defp write_file(session, input) do
    with path when is_binary(path) <- get(input, "path"),
         content when is_binary(content) <- get(input, "content") do
      case Session.write_file(session, path, content) do
        :ok -> {:ok, "wrote #{byte_size(content)} bytes to #{path}"}
        {:error, msg} -> {:error, msg}
      end
    else
      _ -> {:error, "writeFile: input.path and input.content must be strings"}
    end
  end

  # Cut long text to its head and tail; the whole of it goes to a file.
  defp preview(_session, text, max) when byte_size(text) <= max, do: text

  defp preview(session, text, max) do
    n = System.unique_integer([:positive, :monotonic])
    path = "#{@output_dir}/#{n}.txt"
    saved = Session.write_file(session, path, text) == :ok
    half = div(max, 2)
    head = valid_prefix(binary_part(text, 0, half))
    tail = valid_suffix(binary_part(text, byte_size(text) - half, half))
    left_out = byte_size(text) - byte_size(head) - byte_size(tail)

    note =
      if saved,
        do: "[... #{left_out} bytes left out; the full output is in #{path} ...]",
        else: "[... #{left_out} bytes left out ...]"

    head <> "\n" <> note <> "\n" <> tail
  end

  # Never split a UTF-8 character: drop up to 3 bytes of a partial one at the
  # cut (binary output that is not UTF-8 anyway is left as it is).
  defp valid_prefix(bin), do: trim_invalid(bin, &binary_part(&1, 0, byte_size(&1) - 1))
  defp valid_suffix(bin), do: trim_invalid(bin, &binary_part(&1, 1, byte_size(&1) - 1))

  defp trim_invalid(bin, drop_one) do
    Enum.reduce_while(0..3, bin, fn _, acc ->
      if String.valid?(acc) or byte_size(acc) == 0,
        do: {:halt, acc},
        else: {:cont, drop_one.(acc)}
    end)
    |> then(fn trimmed -> if String.valid?(trimmed), do: trimmed, else: bin end)
  end
end
