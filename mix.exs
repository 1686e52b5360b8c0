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
      docs: [main: "readme"]
    ]
  end

  def application, do: [mod: {ExBashkit.Application, []}, extra_applications: [:logger, :crypto]]
end

defmodule Mix.Tasks.Compile.ExBashkitCargo do
  @moduledoc """
  Builds `native/ex_bashkit_nif` with cargo and installs the library in
  `priv/native/`. The profile is `release` unless `EX_BASHKIT_CARGO_PROFILE=debug`.
  """
  use Mix.Task.Compiler

  @crate "ex_bashkit_nif"

  @impl true
  def run(_args) do
    {flags, dir} = profile()
    target = System.get_env("CARGO_TARGET_DIR") || Path.join(File.cwd!(), "target")
    args = ["build", "-q", "--locked", "-p", @crate | flags]

    case System.cmd("cargo", args, stderr_to_stdout: true, into: IO.stream(:stdio, :line)) do
      {_, 0} ->
        status =
          install(Path.join([target, dir, "lib#{@crate}.so"]), "priv/native/lib#{@crate}.so")

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
  def clean, do: File.rm_rf!("priv/native")

  defp profile do
    case System.get_env("EX_BASHKIT_CARGO_PROFILE", "release") do
      "debug" -> {[], "debug"}
      _ -> {["--release"], "release"}
    end
  end

  # Copy only changed bytes, via rename, so a library mapped by a running VM is never rewritten.
  defp install(src, dst) do
    File.mkdir_p!(Path.dirname(dst))

    if File.exists?(dst) and File.read!(dst) == File.read!(src) do
      :noop
    else
      File.cp!(src, dst <> ".tmp")
      File.rename!(dst <> ".tmp", dst)
      :ok
    end
  end
end
