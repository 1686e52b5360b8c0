defmodule ExBashkit.Session.Options do
  @moduledoc false
  # Validates `Session.new/1` options and normalizes them into the map the NIF
  # decodes. Every bad option raises ArgumentError naming it.

  @limit_keys [
    :max_commands,
    :max_loop_iterations,
    :max_total_loop_iterations,
    :max_function_depth,
    :max_input_bytes,
    :timeout_ms,
    :max_output_bytes,
    :max_string_bytes,
    :max_file_bytes,
    :max_fs_bytes,
    :max_files,
    :max_path_depth,
    :max_brace_items,
    :max_glob_results,
    :max_regex_bytes,
    :max_pipeline_stages,
    :max_subshell_depth,
    :max_parser_depth
  ]

  # Options of the seed contract that later work will bring; naming them gives a
  # clear error instead of "unknown option".
  @planned [
    :mounts,
    :allowed_mount_paths,
    :allow_net,
    :block_private_ips,
    :builtins,
    :builtin_timeout_ms,
    :virtual_fs,
    :python
  ]

  # Past this, a count means "unlimited" (the interpreter counts in u64).
  @u64_max 18_446_744_073_709_551_615

  def limit_keys, do: @limit_keys

  @doc false
  def normalize(opts) do
    opts = to_keyword(opts, "options")

    base = %{
      env: [],
      cwd: "/",
      username: "sandbox",
      hostname: "bashkit-sandbox",
      files: [],
      limits: []
    }

    Enum.reduce(opts, base, fn {key, value}, acc -> put(acc, key, value) end)
  end

  defp put(acc, :env, v), do: %{acc | env: env(v)}
  defp put(acc, :cwd, v), do: %{acc | cwd: path(:cwd, v)}
  defp put(acc, :username, v), do: %{acc | username: name(:username, v)}
  defp put(acc, :hostname, v), do: %{acc | hostname: name(:hostname, v)}
  defp put(acc, :files, v), do: %{acc | files: files(v)}
  defp put(acc, :limits, v), do: %{acc | limits: limits(v)}

  defp put(_acc, key, _v) when key in @planned,
    do:
      raise(
        ArgumentError,
        "option #{inspect(key)} is not supported yet by ExBashkit.Session.new/1"
      )

  defp put(_acc, key, _v),
    do: raise(ArgumentError, "unknown option #{inspect(key)} for ExBashkit.Session.new/1")

  defp to_keyword(opts, what) when is_map(opts), do: to_keyword(Map.to_list(opts), what)

  defp to_keyword(opts, what) when is_list(opts) do
    Enum.map(opts, fn
      {k, v} -> {k, v}
      other -> raise ArgumentError, "#{what} must be key-value pairs, got: #{inspect(other)}"
    end)
  end

  defp to_keyword(other, what),
    do: raise(ArgumentError, "#{what} must be a keyword list or a map, got: #{inspect(other)}")

  @doc false
  def env!(v), do: env(v)

  @doc false
  def text!(opt, v), do: path(opt, v)

  defp env(v) do
    for {k, val} <- to_keyword(v, "option :env") do
      key = stringify(:env, k)

      unless key =~ ~r/\A[A-Za-z_][A-Za-z0-9_]*\z/ do
        raise ArgumentError, "option :env: #{inspect(key)} is not a valid variable name"
      end

      {key, stringify(:env, val)}
    end
  end

  defp files(v) do
    for {p, content} <- to_keyword(v, "option :files") do
      data =
        try do
          IO.iodata_to_binary(content)
        rescue
          ArgumentError ->
            raise ArgumentError, "option :files: content of #{inspect(p)} is not iodata"
        end

      {path(:files, p), data}
    end
  end

  defp limits(v) do
    for {k, n} <- to_keyword(v, "option :limits") do
      unless k in @limit_keys do
        raise ArgumentError,
              "option :limits: unknown limit #{inspect(k)} (known: #{Enum.map_join(@limit_keys, ", ", &inspect/1)})"
      end

      unless is_integer(n) and n >= 0 do
        raise ArgumentError,
              "option :limits: #{inspect(k)} must be a non-negative integer, got: #{inspect(n)}"
      end

      if k == :timeout_ms and n < 1 do
        raise ArgumentError, "option :limits: :timeout_ms must be at least 1, got: 0"
      end

      {Atom.to_string(k), min(n, @u64_max)}
    end
  end

  defp path(opt, p) do
    s = stringify(opt, p)
    if s == "", do: raise(ArgumentError, "option #{inspect(opt)}: empty path")
    s
  end

  defp name(opt, v) when is_binary(v) do
    if String.valid?(v) and v != "" and not String.contains?(v, ["\n", "\0"]),
      do: v,
      else:
        raise(
          ArgumentError,
          "option #{inspect(opt)} must be a non-empty line of text, got: #{inspect(v)}"
        )
  end

  defp name(opt, v),
    do: raise(ArgumentError, "option #{inspect(opt)} must be a string, got: #{inspect(v)}")

  defp stringify(opt, v) when is_binary(v) do
    if String.valid?(v) and not String.contains?(v, "\0"),
      do: v,
      else:
        raise(
          ArgumentError,
          "option #{inspect(opt)}: #{inspect(v)} is not valid UTF-8 text without NUL"
        )
  end

  defp stringify(opt, v) when is_atom(v) and not is_nil(v),
    do: stringify(opt, Atom.to_string(v))

  defp stringify(opt, v) when is_number(v), do: stringify(opt, to_string(v))

  defp stringify(opt, v) when is_list(v) do
    stringify(opt, List.to_string(v))
  rescue
    ArgumentError ->
      raise ArgumentError, "option #{inspect(opt)}: cannot use #{inspect(v)} as text"
  end

  defp stringify(opt, v),
    do: raise(ArgumentError, "option #{inspect(opt)}: cannot use #{inspect(v)} as text")
end
