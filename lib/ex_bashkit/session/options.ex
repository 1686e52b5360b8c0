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
    :max_response_bytes,
    :max_pipeline_stages,
    :max_subshell_depth,
    :max_parser_depth,
    :max_memory_bytes
  ]

  # Past this, a count means "unlimited" (the interpreter counts in u64).
  @u64_max 18_446_744_073_709_551_615

  # The longest timer the VM can set (about 49.7 days).
  @max_timer_ms 4_294_967_295

  # Words that can never be command names, so no builtin may claim them.
  @keywords ~w(if then else elif fi case esac for select while until do done in function
               time coproc { } ! [[ ]])

  def limit_keys, do: @limit_keys

  # Every option `Session.new/1` takes, with its default: the one list that
  # `normalize/1` starts from and checks keys against (`put/3` validates each).
  @options [
    env: [],
    cwd: "/",
    username: "sandbox",
    hostname: "bashkit-sandbox",
    files: [],
    limits: [],
    builtins: %{},
    virtual_fs: [],
    builtin_timeout_ms: 30_000,
    max_reply_bytes: 16 * 1024 * 1024,
    mounts: [],
    allowed_mount_paths: nil,
    allow_net: nil,
    block_private_ips: true,
    python: false,
    max_jobs: 16,
    before_exec: nil,
    after_exec: nil,
    snapshot_key: nil,
    history: true,
    workspace: nil,
    allowed_mounts: nil,
    commands: nil
  ]

  # Options an application may default in `config :ex_bashkit, ...`.
  @configurable [
    :limits,
    :builtin_timeout_ms,
    :max_reply_bytes,
    :max_jobs,
    :history,
    :block_private_ips,
    :allow_net,
    :username,
    :hostname,
    :python,
    :snapshot_key
  ]

  # The interpreter's defaults, for applying an operator's ceiling to a limit
  # a session leaves unset.
  @limit_defaults %{
    max_commands: 10_000,
    max_loop_iterations: 10_000,
    max_total_loop_iterations: 1_000_000,
    max_function_depth: 100,
    max_input_bytes: 10_000_000,
    timeout_ms: 30_000,
    max_output_bytes: 10 * 1024 * 1024,
    max_string_bytes: 10 * 1024 * 1024,
    max_file_bytes: 100 * 1024 * 1024,
    max_fs_bytes: 500 * 1024 * 1024,
    max_files: 100_000,
    max_path_depth: 128,
    max_brace_items: 100_000,
    max_glob_results: 100_000,
    max_regex_bytes: 10 * 1024 * 1024,
    max_response_bytes: 10 * 1024 * 1024,
    max_pipeline_stages: 256,
    max_subshell_depth: 64,
    max_parser_depth: 200,
    max_memory_bytes: 256 * 1024 * 1024
  }

  @doc false
  def keys, do: Keyword.keys(@options)

  @doc false
  def configurable, do: @configurable

  @doc false
  def limit_defaults, do: @limit_defaults

  @doc false
  def normalize(opts) do
    opts = to_keyword(opts, "options")
    %{defaults: defaults, ceilings: ceilings} = ExBashkit.Config.get()

    base = Enum.reduce(defaults, base(), fn {k, v}, acc -> put(acc, k, v) end)

    config_limits = base.limits

    Enum.reduce(opts, base, fn {key, value}, acc -> put(acc, key, value) end)
    |> merge_limits(config_limits)
    |> apply_ceilings(ceilings)
    |> check_mount_points()
    |> split_callbacks()
    |> share_workspace(opts)
  end

  defp default(:python, false), do: []
  defp default(_, v), do: v

  # What the NIF decodes beyond the options: `allow_net: :all` becomes a flag.
  defp base,
    do:
      Map.new(@options, fn {k, v} -> {k, default(k, v)} end)
      |> Map.put(:allow_net_all, false)
      |> Map.put(:python_runtime, nil)

  @doc false
  # Validate one option's value alone (for application config); raises as new/1 would.
  def check!(key, value) do
    put(base(), key, value)
    :ok
  end

  # Limits from the application config are defaults per key: a session's
  # `:limits` overrides the keys it names and keeps the others.
  defp merge_limits(acc, config_limits) do
    own = Map.new(acc.limits)

    %{
      acc
      | limits: Enum.reject(config_limits, fn {k, _} -> Map.has_key?(own, k) end) ++ acc.limits
    }
  end

  # An operator's ceilings: no session gets more, whatever it asks for (or
  # leaves at the interpreter's default).
  defp apply_ceilings(acc, ceilings) do
    limits =
      Enum.reduce(ceilings.limits, Map.new(acc.limits), fn {k, cap}, m ->
        key = Atom.to_string(k)
        Map.put(m, key, min(Map.get(m, key, Map.fetch!(@limit_defaults, k)), cap))
      end)

    bt =
      case ceilings.builtin_timeout_ms do
        nil -> acc.builtin_timeout_ms
        cap -> min(acc.builtin_timeout_ms, cap)
      end

    %{acc | limits: Enum.sort(limits), builtin_timeout_ms: bt}
  end

  # A workspace session shares its source's filesystem, mounts and callbacks;
  # it cannot bring its own (they would exist for it alone).
  defp share_workspace({native, callbacks, config}, opts) do
    case native.workspace do
      nil ->
        if native.allowed_mounts != nil,
          do: raise(ArgumentError, "option :allowed_mounts only applies with :workspace")

        {native, callbacks, config}

      ws ->
        own = [:builtins, :virtual_fs, :mounts, :allowed_mount_paths]

        case Enum.find(opts, fn {k, _} -> k in own end) do
          {k, _} ->
            raise ArgumentError,
                  "option #{inspect(k)} cannot be given with :workspace: a workspace session shares its source's"

          nil ->
            :ok
        end

        builtins = if ws.callbacks, do: Map.keys(ws.callbacks.builtins), else: []

        native = %{native | workspace: ws.ref, builtins: builtins, virtual_fs: [], mounts: []}
        {native, ws.callbacks, config}
    end
  end

  # The NIF gets the builtins' names and the mount points; the functions and
  # backends stay here for the broker (`callbacks` is nil without any).
  defp split_callbacks(acc) do
    mounts = Enum.sort(acc.virtual_fs)

    callbacks =
      if acc.builtins != %{} or mounts != [] do
        %{
          builtins: acc.builtins,
          mounts: mounts |> Enum.map(&elem(&1, 1)) |> List.to_tuple(),
          timeout: acc.builtin_timeout_ms,
          max_reply: acc.max_reply_bytes
        }
      end

    native = %{
      acc
      | builtins: Map.keys(acc.builtins),
        virtual_fs: Enum.map(mounts, &elem(&1, 0))
    }

    config = %{
      max_jobs: acc.max_jobs,
      before_exec: acc.before_exec,
      after_exec: acc.after_exec,
      hook_timeout: acc.builtin_timeout_ms,
      snapshot_key: acc.snapshot_key
    }

    {Map.drop(native, [:max_jobs, :before_exec, :after_exec, :snapshot_key]), callbacks, config}
  end

  defp put(acc, :env, v), do: %{acc | env: env(v)}
  defp put(acc, :cwd, v), do: %{acc | cwd: path(:cwd, v)}
  defp put(acc, :username, v), do: %{acc | username: name(:username, v)}
  defp put(acc, :hostname, v), do: %{acc | hostname: name(:hostname, v)}
  defp put(acc, :files, v), do: %{acc | files: files(v)}
  defp put(acc, :limits, v), do: %{acc | limits: limits(v)}
  defp put(acc, :builtins, v), do: %{acc | builtins: builtins(v)}
  defp put(acc, :virtual_fs, v), do: %{acc | virtual_fs: virtual_fs(v)}
  defp put(acc, :mounts, v), do: %{acc | mounts: mounts(v)}
  defp put(acc, :allow_net, :all), do: %{acc | allow_net: nil, allow_net_all: true}

  defp put(acc, :allow_net, v) when is_list(v),
    do: %{acc | allow_net: Enum.map(v, &url_pattern/1), allow_net_all: false}

  defp put(_acc, :allow_net, v),
    do:
      raise(
        ArgumentError,
        "option :allow_net must be a list of URL patterns or :all, got: #{inspect(v)}"
      )

  defp put(acc, :python, v) do
    {names, runtime} = python(v)
    %{acc | python: names, python_runtime: runtime}
  end

  defp put(acc, :block_private_ips, v) when is_boolean(v), do: %{acc | block_private_ips: v}

  defp put(acc, :max_jobs, v) when is_integer(v) and v >= 0, do: %{acc | max_jobs: v}

  defp put(_acc, :max_jobs, v),
    do:
      raise(ArgumentError, "option :max_jobs must be a non-negative integer, got: #{inspect(v)}")

  defp put(acc, hook, v) when hook in [:before_exec, :after_exec] and is_function(v, 1),
    do: Map.put(acc, hook, v)

  defp put(_acc, hook, v) when hook in [:before_exec, :after_exec],
    do:
      raise(
        ArgumentError,
        "option #{inspect(hook)} must be a 1-arity function, got: #{inspect(v)}"
      )

  defp put(acc, :snapshot_key, k) when is_binary(k) and byte_size(k) > 0,
    do: %{acc | snapshot_key: k}

  defp put(_acc, :snapshot_key, k),
    do:
      raise(
        ArgumentError,
        "option :snapshot_key must be a non-empty binary, got: #{inspect(k)}"
      )

  defp put(acc, :workspace, %ExBashkit.Session{} = ws), do: %{acc | workspace: ws}

  defp put(_acc, :workspace, v),
    do: raise(ArgumentError, "option :workspace must be an ExBashkit.Session, got: #{inspect(v)}")

  defp put(acc, :allowed_mounts, v) when is_list(v),
    do: %{acc | allowed_mounts: Enum.map(v, &stringify(:allowed_mounts, &1))}

  defp put(_acc, :allowed_mounts, v),
    do:
      raise(
        ArgumentError,
        "option :allowed_mounts must be a list of mount paths, got: #{inspect(v)}"
      )

  defp put(acc, :commands, v), do: %{acc | commands: commands(v)}

  defp put(acc, :history, v) when is_boolean(v), do: %{acc | history: v}

  defp put(_acc, :history, v),
    do: raise(ArgumentError, "option :history must be a boolean, got: #{inspect(v)}")

  defp put(_acc, :block_private_ips, v),
    do: raise(ArgumentError, "option :block_private_ips must be a boolean, got: #{inspect(v)}")

  defp put(acc, :allowed_mount_paths, v) when is_list(v),
    do: %{acc | allowed_mount_paths: Enum.map(v, &path(:allowed_mount_paths, &1))}

  defp put(_acc, :allowed_mount_paths, v),
    do:
      raise(
        ArgumentError,
        "option :allowed_mount_paths must be a list of host paths, got: #{inspect(v)}"
      )

  defp put(acc, :builtin_timeout_ms, v) when is_integer(v) and v >= 1 and v <= @max_timer_ms,
    do: %{acc | builtin_timeout_ms: v}

  defp put(_acc, :builtin_timeout_ms, v) when is_integer(v) and v > @max_timer_ms,
    do:
      raise(
        ArgumentError,
        "option :builtin_timeout_ms must be at most #{@max_timer_ms} (the longest `receive ... after` timeout), got: #{v}"
      )

  defp put(_acc, :builtin_timeout_ms, v),
    do:
      raise(
        ArgumentError,
        "option :builtin_timeout_ms must be a positive integer, got: #{inspect(v)}"
      )

  # A bad cap must never switch the check off (`n <= nil` is true in Erlang's
  # term order), so anything but a non-negative integer is refused.
  defp put(acc, :max_reply_bytes, v) when is_integer(v) and v >= 0,
    do: %{acc | max_reply_bytes: min(v, @u64_max)}

  defp put(_acc, :max_reply_bytes, v),
    do:
      raise(
        ArgumentError,
        "option :max_reply_bytes must be a non-negative integer, got: #{inspect(v)}"
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

  # `[only: names]` / `[except: names]` (or a map): {"only" | "except", names}.
  defp commands(nil), do: nil
  defp commands(v) when is_map(v), do: commands(Map.to_list(v))

  defp commands([{kind, names}]) when kind in [:only, :except] and is_list(names) do
    names =
      for n <- names do
        name =
          if is_binary(n) or (is_atom(n) and not is_nil(n) and not is_boolean(n)),
            do: stringify(:commands, n),
            else: raise(ArgumentError, commands_error([{kind, names}]))

        if name == "" or String.contains?(name, ["/", "=", " ", "\t", "\n"]) do
          raise ArgumentError, "option :commands: #{inspect(name)} is not a valid command name"
        end

        name
      end

    {Atom.to_string(kind), Enum.uniq(names)}
  end

  defp commands(v), do: raise(ArgumentError, commands_error(v))

  defp commands_error(v),
    do:
      "option :commands must be [only: [name, ...]] or [except: [name, ...]], got: #{inspect(v)}"

  # `true`: CPython as `python` and `python3`; `false`: off; a keyword list
  # of `:name`/`:names` and `:runtime` (`:cpython`, `:monty` or a path).
  # Gives the names and the runtime's path (`nil`: Monty).
  defp python(true), do: {["python", "python3"], ExBashkit.Python.Runtime.default_path()}
  defp python(false), do: {[], nil}

  defp python(v) when is_list(v) do
    unless Keyword.keyword?(v) and Keyword.keys(v) -- [:name, :names, :runtime] == [],
      do: raise(ArgumentError, python_error(v))

    names =
      case Keyword.take(v, [:name, :names]) do
        [] -> ["python", "python3"]
        [name: n] -> [n]
        [names: ns] when is_list(ns) -> ns
        _ -> raise ArgumentError, python_error(v)
      end

    runtime =
      case Keyword.get(v, :runtime, :cpython) do
        :cpython -> ExBashkit.Python.Runtime.default_path()
        :monty -> nil
        path when is_binary(path) and path != "" -> Path.expand(path)
        _ -> raise ArgumentError, python_error(v)
      end

    {Enum.map(names, &python_name(&1, v)), runtime}
  end

  defp python(v), do: raise(ArgumentError, python_error(v))

  defp python_name(name, _) when is_binary(name), do: command_name!(:python, name)

  defp python_name(_, v), do: raise(ArgumentError, python_error(v))

  # A name a command may be defined under, or an ArgumentError naming `opt`.
  defp command_name!(opt, name) do
    cond do
      name == "" or String.contains?(name, ["/", "=", " ", "\t", "\n"]) ->
        raise ArgumentError,
              "option #{inspect(opt)}: #{inspect(name)} is not a valid command name"

      name in @keywords ->
        raise ArgumentError,
              "option #{inspect(opt)}: #{inspect(name)} is a shell keyword and cannot be a command"

      true ->
        name
    end
  end

  defp python_error(v),
    do:
      "option :python must be a boolean or a keyword list of :name or :names and " <>
        ":runtime (:cpython, :monty or a path), got: #{inspect(v)}"

  defp builtins(v) do
    for {k, fun} <- to_keyword(v, "option :builtins"), into: %{} do
      unless is_binary(k) do
        raise ArgumentError,
              "option :builtins: a builtin's name must be a string, got: #{inspect(k)}"
      end

      name = command_name!(:builtins, stringify(:builtins, k))

      cond do
        not is_function(fun, 1) ->
          raise ArgumentError,
                "option :builtins: #{inspect(name)} must map to a 1-arity function, got: #{inspect(fun)}"

        true ->
          {name, fun}
      end
    end
  end

  # A pattern names its scheme: `api.example.com` would otherwise match nothing
  # and look like a working allowlist.
  defp url_pattern(p) do
    s = stringify(:allow_net, p)

    if s =~ ~r{\Ahttps?://[^/?#\s]+}i,
      do: s,
      else:
        raise(
          ArgumentError,
          "option :allow_net: #{inspect(s)} is not a URL pattern (it needs http:// or https:// and a host)"
        )
  end

  @mount_modes [:read_only, :read_write, :overlay]

  defp mounts(v) when is_list(v) do
    Enum.map(v, fn
      {vfs, host, mode} when mode in @mount_modes ->
        {mount_point(:mounts, stringify(:mounts, vfs)), path(:mounts, host), Atom.to_string(mode)}

      {_vfs, _host, mode} ->
        raise ArgumentError,
              "option :mounts: unknown mode #{inspect(mode)} (known: :read_only, :read_write, :overlay)"

      other ->
        raise ArgumentError,
              "option :mounts: entries must be {vfs_path, host_path, mode}, got: #{inspect(other)}"
    end)
  end

  defp mounts(v),
    do: raise(ArgumentError, "option :mounts must be a list, got: #{inspect(v)}")

  # A vfs path may hold one mount, host or virtual.
  defp check_mount_points(acc) do
    all = Enum.map(acc.mounts, &elem(&1, 0)) ++ Enum.map(acc.virtual_fs, &elem(&1, 0))

    case all -- Enum.uniq(all) do
      [] -> acc
      [p | _] -> raise ArgumentError, "#{inspect(p)} is mounted twice (:mounts and :virtual_fs)"
    end
  end

  defp virtual_fs(v) do
    mounts =
      for {p, spec} <- to_keyword(v, "option :virtual_fs") do
        {mount_point(:virtual_fs, stringify(:virtual_fs, p)), backend(p, spec)}
      end

    dups = mounts |> Enum.frequencies_by(&elem(&1, 0)) |> Enum.filter(fn {_, n} -> n > 1 end)

    if dups != [],
      do:
        raise(ArgumentError, "option :virtual_fs: #{inspect(elem(hd(dups), 0))} is mounted twice")

    mounts
  end

  # Only normalized absolute paths: `/a/../b`, `/a//b` and `/a/` would name a
  # mount that routing never matches, or matches in surprising ways.
  defp mount_point(opt, p) do
    parts = String.split(p, "/")

    ok =
      String.starts_with?(p, "/") and p != "/" and
        Enum.all?(tl(parts), &(&1 not in ["", ".", ".."]))

    if ok,
      do: p,
      else:
        raise(
          ArgumentError,
          "option #{inspect(opt)}: mount point #{inspect(p)} must be a normalized absolute path other than \"/\""
        )
  end

  defp backend(_p, fun) when is_function(fun, 1), do: fun
  defp backend(p, {mod, _arg} = spec) when is_atom(mod), do: module!(p, mod) && spec
  defp backend(p, mod) when is_atom(mod) and not is_nil(mod), do: module!(p, mod) && mod

  defp backend(p, other),
    do:
      raise(
        ArgumentError,
        "option :virtual_fs: backend for #{inspect(p)} must be a 1-arity function, a module or {module, arg}, got: #{inspect(other)}"
      )

  defp module!(p, mod) do
    case Code.ensure_loaded(mod) do
      {:module, _} ->
        true

      _ ->
        raise ArgumentError,
              "option :virtual_fs: backend module #{inspect(mod)} for #{inspect(p)} is not available"
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

  @doc false
  # `exec/3` options: {native options, partial?, nil | :default | job name}.
  def exec_opts(opts) do
    base = %{stdin: "", timeout_ms: nil, cwd: nil, env: [], broker: nil}
    background = opts[:background] == true
    name = opts[:name]

    cond do
      not is_boolean(Keyword.get(opts, :background, false)) ->
        raise ArgumentError,
              "option :background must be a boolean, got: #{inspect(opts[:background])}"

      name != nil and not background ->
        raise ArgumentError, "option :name only applies with background: true"

      name != nil and not is_binary(name) ->
        raise ArgumentError, "option :name must be a string, got: #{inspect(name)}"

      true ->
        :ok
    end

    opts = Keyword.drop(opts, [:background, :name])

    {native, partial?} = native_exec_opts(opts, base)
    {native, partial?, if(background, do: name || :default)}
  end

  defp native_exec_opts(opts, base) do
    Enum.reduce(opts, {base, false}, fn
      {:stdin, data}, {acc, p} ->
        {%{acc | stdin: iodata!(:stdin, data)}, p}

      {:timeout_ms, t}, {acc, p} when is_integer(t) and t >= 1 ->
        {%{acc | timeout_ms: min(t, @u64_max)}, p}

      {:timeout_ms, t}, _ ->
        raise ArgumentError, "option :timeout_ms must be a positive integer, got: #{inspect(t)}"

      {:cwd, dir}, {acc, p} ->
        {%{acc | cwd: path(:cwd, dir)}, p}

      {:env, env}, {acc, p} ->
        {%{acc | env: env(env)}, p}

      {:partial, b}, {acc, _} when is_boolean(b) ->
        {acc, b}

      {:partial, b}, _ ->
        raise ArgumentError, "option :partial must be a boolean, got: #{inspect(b)}"

      {key, _}, _ ->
        raise ArgumentError, "unknown option #{inspect(key)} for ExBashkit.Session.exec/3"

      other, _ ->
        raise ArgumentError, "exec options must be a keyword list, got: #{inspect(other)}"
    end)
  end

  defp iodata!(key, data) do
    IO.iodata_to_binary(data)
  rescue
    ArgumentError ->
      reraise ArgumentError,
              "option #{inspect(key)} must be iodata, got: #{inspect(data)}",
              __STACKTRACE__
  end
end
