defmodule ExBashkit.VirtualFsTest do
  # The VirtualFs contract as ex_bashkit defines it: `use ExBashkit.VirtualFs`
  # with defaults, one whole `write` for `>` (one `append` for `>>`),
  # `mkdir(path, true)` for `mkdir -p`, a root that is a directory without
  # asking, and a backend with `read` alone that still gives `test -f`/`cat`.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  # Whole files only, in an Agent: `read`, `write`, `list` and `remove` (no
  # `append`, no `stat`, no `mkdir`), every call reported to the test.
  defmodule WholeFs do
    use ExBashkit.VirtualFs

    @impl true
    def read({agent, _}, path) do
      case Agent.get(agent, &Map.fetch(&1, path)) do
        {:ok, data} -> {:ok, data}
        :error -> {:error, :enoent}
      end
    end

    @impl true
    def write({agent, test}, path, data) do
      send(test, {:write, path, data})
      Agent.update(agent, &Map.put(&1, path, data))
    end

    @impl true
    def list({agent, _}, "/"),
      do: {:ok, Agent.get(agent, &Map.keys/1) |> Enum.map(&String.trim_leading(&1, "/"))}

    def list(_, _), do: {:error, :enoent}

    @impl true
    def remove({agent, test}, path, recursive) do
      send(test, {:remove, path, recursive})
      Agent.update(agent, &Map.delete(&1, path))
    end
  end

  # ex_bashkit's documented example, unchanged: a bare `@behaviour` with
  # `read`, `write`, `remove` and `list`.
  defmodule KvFs do
    @behaviour ExBashkit.VirtualFs

    @impl true
    def read(store, "/" <> key) do
      case Agent.get(store, &Map.get(&1, key)) do
        nil -> {:error, :enoent}
        value -> {:ok, value}
      end
    end

    @impl true
    def write(store, "/" <> key, data) do
      Agent.update(store, &Map.put(&1, key, data))
      :ok
    end

    @impl true
    def remove(store, "/" <> key, _recursive) do
      Agent.update(store, &Map.delete(&1, key))
      :ok
    end

    @impl true
    def list(store, "/"), do: {:ok, Agent.get(store, &Map.keys(&1))}
  end

  defp whole_fs(files \\ %{}) do
    {:ok, agent} = Agent.start_link(fn -> files end)
    {agent, Session.new(virtual_fs: %{"/m" => {WholeFs, {agent, self()}}})}
  end

  defp run(s, script) do
    {:ok, %Result{stdout: out, stderr: err, exit_code: code}} = Session.exec(s, script)
    {out, err, code}
  end

  defp calls(acc \\ []) do
    receive do
      {op, _, _} = call when op in [:write, :remove, :mkdir, :append] -> calls([call | acc])
    after
      0 -> Enum.reverse(acc)
    end
  end

  test "`>` hands the backend one write with the whole content; `>>` works without append" do
    {agent, s} = whole_fs()
    assert run(s, "echo x > /m/f") == {"", "", 0}
    assert calls() == [{:write, "/f", "x\n"}]

    assert run(s, "{ echo a; echo b; } > /m/g; for i in 1 2 3; do echo $i; done > /m/h") ==
             {"", "", 0}

    assert calls() == [{:write, "/g", "a\nb\n"}, {:write, "/h", "1\n2\n3\n"}]

    # No `append` callback: `>>` reads the file and writes it whole.
    assert run(s, "echo more >> /m/f; cat /m/f") == {"x\nmore\n", "", 0}
    assert calls() == [{:write, "/f", "x\nmore\n"}]
    # An empty `>` still truncates, once.
    assert run(s, ": > /m/f; cat /m/f | wc -c") == {"0\n", "", 0}
    assert calls() == [{:write, "/f", ""}]
    assert Agent.get(agent, & &1) == %{"/f" => "", "/g" => "a\nb\n", "/h" => "1\n2\n3\n"}
  end

  test "output a later command reads reaches the backend first; exec's descriptors at the end" do
    {agent, s} = whole_fs()

    assert run(
             s,
             "printf 'line %s\\n' 1 2 > /m/p; wc -l < /m/p; f() { echo in-f; } ; f > /m/q; cat /m/q"
           ) ==
             {"2\nin-f\n", "", 0}

    assert run(s, "exec > /m/log; echo one; echo two") == {"", "", 0}
    assert Agent.get(agent, &Map.get(&1, "/log")) == "one\ntwo\n"
  end

  test "a backend that refuses the write: the script sees the error and status 1" do
    s =
      Session.new(
        virtual_fs: %{
          "/ro" => fn
            %{op: :read, path: "/f"} -> {:ok, "kept\n"}
            %{op: :read} -> {:error, :enoent}
            _ -> {:error, :enotsup}
          end
        }
      )

    assert {"", err, 1} = run(s, "echo x > /ro/f")
    assert err =~ "/ro/f: Operation not supported"
    assert run(s, "cat /ro/f") == {"kept\n", "", 0}
  end

  test "a backend with read alone: the root is a directory, test -f/-e and cat work" do
    s =
      Session.new(
        virtual_fs: %{
          "/r" => fn
            %{op: :read, path: "/there"} -> {:ok, "hello\n"}
            %{op: :read} -> {:error, :enoent}
          end
        }
      )

    script = """
    [ -d /r ] && echo root-is-dir
    test -f /r/there && echo file
    test -e /r/missing || echo missing-is-missing
    test -f /r/missing || echo missing-not-a-file
    cat /r/there; wc -c < /r/there
    """

    assert run(s, script) ==
             {"root-is-dir\nfile\nmissing-is-missing\nmissing-not-a-file\nhello\n6\n", "", 0}
  end

  test "mkdir -p is one recursive call; `ls` of a mount whose backend has no stat" do
    test = self()

    s =
      Session.new(
        virtual_fs: %{
          "/d" => fn
            %{op: :mkdir, path: p, recursive: r} ->
              send(test, {:mkdir, p, r})
              :ok

            %{op: :list, path: "/"} ->
              {:ok, [{"a", :dir}, "f"]}

            _ ->
              {:error, :enotsup}
          end
        }
      )

    assert run(s, "mkdir -p /d/a/b/c && echo made; ls /d") == {"made\na\nf\n", "", 0}
    assert calls() == [{:mkdir, "/a/b/c", true}]
    assert run(s, "mkdir /d/x") == {"", "", 0}
    assert calls() == [{:mkdir, "/x", false}]
  end

  test "use ExBashkit.VirtualFs: unimplemented callbacks answer enotsup, stat comes from read" do
    {agent, s} = whole_fs(%{"/a" => "12345"})
    assert WholeFs.append({agent, self()}, "/a", "x") == {:error, :enotsup}
    assert WholeFs.mkdir({agent, self()}, "/d", false) == {:error, :enotsup}
    assert WholeFs.stat({agent, self()}, "/a") == {:ok, %{type: :file, size: 5}}
    assert WholeFs.stat({agent, self()}, "/nope") == {:error, :enoent}
    assert {"", err, 1} = run(s, "mkdir /m/d")
    assert err =~ "Operation not supported"
    assert run(s, "stat -c %s /m/a; [ -e /m/nope ] || echo gone") == {"5\ngone\n", "", 0}
  end

  test "a backend written against ex_bashkit's documented callbacks works unchanged" do
    {:ok, store} = Agent.start_link(fn -> %{} end)
    s = Session.new(virtual_fs: %{"/kv" => {KvFs, store}})

    assert run(s, "echo 42 > /kv/answer; cat /kv/answer; ls /kv; test -f /kv/answer && echo yes") ==
             {"42\nanswer\nyes\n", "", 0}

    assert run(s, "echo 43 >> /kv/answer; cat /kv/answer") == {"42\n43\n", "", 0}
    assert run(s, "rm /kv/answer; ls /kv | wc -l") == {"0\n", "", 0}
    assert Agent.get(store, & &1) == %{}
  end
end
