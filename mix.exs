defmodule ExBashkit.MixProject do
  use Mix.Project

  def project do
    [
      app: :ex_bashkit,
      version: "0.1.0",
      elixir: "~> 1.14",
      start_permanent: Mix.env() == :prod,
      # The NIF must exist before the Elixir compiler loads ExBashkit.Native.
      compilers: [:ex_bashkit_cargo] ++ Mix.compilers(),
      deps: [],
      # ExBashkit.Python.Runtime.fetch/1 (set-up time: the mix task,
      # scripts/fetch_python) starts :inets and :ssl itself; a session never
      # needs them, so they stay out of the application's dependencies.
      xref: [exclude: [:httpc, :public_key]],
      docs: [main: "readme"]
    ]
  end

  def application, do: [mod: {ExBashkit.Application, []}, extra_applications: [:logger, :crypto]]
end

defmodule Mix.Tasks.Compile.ExBashkitCargo do
  @moduledoc """
  Builds `native/ex_bashkit_nif` with cargo and installs the library in
  `priv/native/`. The profile is `release` unless `EX_BASHKIT_CARGO_PROFILE=debug`;
  `EX_BASHKIT_CPYTHON=0` builds it without CPython (no wasmtime).

  * cargo's target directory is `_build/cargo` (beside the project's or the
    parent project's `_build/ENV`, never inside `deps/`); `CARGO_TARGET_DIR`
    wins when set.
  * A compile whose Rust sources, manifests, profile and target are unchanged
    since the last build does not run cargo (a fingerprint of their sizes and
    mtimes is kept in the compile manifest).
  * The first build says what it is doing and shows cargo's own progress.
  * A release build installs a stripped copy (`strip --strip-unneeded`, when
    `strip` is on the PATH); the library in cargo's target dir keeps its symbols.
  """
  use Mix.Task.Compiler

  @crate "ex_bashkit_nif"
  @manifest "compile.ex_bashkit_cargo"

  @impl true
  def run(_args) do
    {flags, dir} = profile()
    target = target_dir()
    dst = "priv/native/lib#{@crate}.so"
    fingerprint = fingerprint(flags, target)

    if File.exists?(dst) and read_manifest() == fingerprint do
      {:noop, []}
    else
      build(flags, dir, target, dst, fingerprint)
    end
  end

  defp build(flags, dir, target, dst, fingerprint) do
    cargo =
      System.find_executable("cargo") ||
        Mix.raise(
          "ex_bashkit needs Rust's cargo to build its NIF and none is on the PATH: " <>
            "install it with `curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh` " <>
            "(https://rustup.rs), open a new shell and run `mix compile` again"
        )

    Mix.shell().info(
      "==> ex_bashkit: building the #{@crate} NIF with cargo (#{dir} profile, target dir " <>
        "#{Path.relative_to_cwd(target)}); a first build compiles about 250 crates and takes " <>
        "several minutes, later ones seconds"
    )

    started = System.monotonic_time(:millisecond)
    args = ["build", "--locked", "-p", @crate | flags]

    case System.cmd(cargo, args,
           stderr_to_stdout: true,
           into: IO.stream(:stdio, :line),
           env: [{"CARGO_TARGET_DIR", target}]
         ) do
      {_, 0} ->
        status = install(Path.join([target, dir, "lib#{@crate}.so"]), dst, dir == "release")
        write_manifest(fingerprint)
        secs = div(System.monotonic_time(:millisecond) - started, 1000)
        Mix.shell().info("==> ex_bashkit: NIF ready (#{secs} s)")
        # On a fresh clone priv/ did not exist when Mix linked the build dir.
        Mix.Project.build_structure()
        {status, []}

      {_, code} ->
        Mix.shell().error("cargo build failed (exit #{code})")

        {:error,
         [
           %Mix.Task.Compiler.Diagnostic{
             compiler_name: "cargo",
             file: Path.expand("native/#{@crate}"),
             message: "cargo build failed (#{code})",
             position: nil,
             severity: :error
           }
         ]}
    end
  end

  @impl true
  def manifests, do: [manifest()]

  @impl true
  def clean do
    File.rm_rf!("priv/native")
    File.rm(manifest())
  end

  defp profile do
    {flags, dir} =
      case System.get_env("EX_BASHKIT_CARGO_PROFILE", "release") do
        "debug" -> {[], "debug"}
        _ -> {["--release"], "release"}
      end

    # EX_BASHKIT_CPYTHON=0 leaves wasmtime out (a first build about 40% shorter);
    # `python: true` then fails at Session.new, `runtime: :monty` still works.
    case System.get_env("EX_BASHKIT_CPYTHON") do
      "0" -> {["--no-default-features" | flags], dir}
      _ -> {flags, dir}
    end
  end

  # `_build/cargo`: shared by the environments, outside `deps/`.
  defp target_dir do
    case System.get_env("CARGO_TARGET_DIR") do
      dir when dir not in [nil, ""] -> Path.expand(dir)
      _ -> Path.expand("../cargo", Mix.Project.build_path())
    end
  end

  defp manifest, do: Path.join(Mix.Project.manifest_path(), @manifest)

  defp read_manifest do
    case File.read(manifest()) do
      {:ok, bin} -> bin
      _ -> nil
    end
  end

  defp write_manifest(fingerprint) do
    File.mkdir_p!(Path.dirname(manifest()))
    File.write!(manifest(), fingerprint)
  end

  # What a build depends on: the Rust sources and manifests (size and mtime),
  # the profile and the target dir.
  defp fingerprint(flags, target) do
    files =
      ["Cargo.toml", "Cargo.lock"] ++
        Path.wildcard("native/*/{Cargo.toml,build.rs}") ++ Path.wildcard("native/*/src/**/*")

    stats =
      for f <- Enum.sort(files),
          {:ok, %{type: :regular, size: size, mtime: mtime}} <- [File.stat(f)] do
        {f, size, mtime}
      end

    :crypto.hash(:sha256, :erlang.term_to_binary({flags, target, stats})) |> Base.encode16()
  end

  # Copy via rename, so a library mapped by a running VM is never rewritten;
  # a release build ships a stripped copy.
  defp install(src, dst, strip?) do
    File.mkdir_p!(Path.dirname(dst))
    tmp = dst <> ".tmp"
    File.cp!(src, tmp)
    strip = strip? && System.find_executable("strip")
    if strip, do: System.cmd(strip, ["--strip-unneeded", tmp], stderr_to_stdout: true)

    if File.exists?(dst) and File.read!(dst) == File.read!(tmp) do
      File.rm!(tmp)
      :noop
    else
      File.rename!(tmp, dst)
      :ok
    end
  end
end
