defmodule ExBashkit.ToolTest do
  use ExUnit.Case, async: true

  alias ExBashkit.{Session, Tool}

  test "long output is cut to head and tail, the whole of it left in a file" do
    s = Session.new()
    call = %{name: "bash", input: %{script: "seq 1 20000"}}
    {:ok, text} = Tool.run(s, call, max_chars: 100)
    assert String.starts_with?(text, "1\n2\n3\n")
    assert String.ends_with?(text, "19999\n20000\n[exit code: 0]")
    [_, path] = Regex.run(~r{the full output is in (/tmp/tool-output/\d+\.txt)}, text)
    {:ok, full} = Session.read_file(s, path)
    {:ok, %{stdout: expected}} = Session.exec(s, "seq 1 20000")
    assert full == expected <> "[exit code: 0]"
  end

  test "background calls, stopped scripts, bad calls" do
    s = Session.new(limits: [max_loop_iterations: 5])

    assert {:ok, "started background job 1" <> _} =
             Tool.run(s, %{
               "name" => "bash",
               "input" => %{"script" => "echo bg", "background" => true}
             })

    assert {:error, text} =
             Tool.run(s, %{
               "name" => "bash",
               "input" => %{"script" => "echo before; while :; do :; done"}
             })

    assert text =~ "before\n[exit code: 1]\n[stopped: "
    assert {:error, "unknown tool \"nope\""} = Tool.run(s, %{"name" => "nope", "input" => %{}})
    assert {:error, _} = Tool.run(s, %{"name" => "bash", "arguments" => ~s({"script": "x"})})
    assert {:error, _} = Tool.run(s, %{"name" => "readFile", "input" => %{"path" => "/missing"}})
    assert [%{name: "sb_bash"} | _] = Tool.definitions(prefix: "sb_")

    assert {:ok, "ok\n[exit code: 0]"} =
             Tool.run(s, %{"name" => "sb_bash", "input" => %{"script" => "echo ok"}},
               prefix: "sb_"
             )
  end
end
