defmodule ExBashkit.SessionTest do
  # Expected outputs are what GNU bash 5.2 prints for the same script
  # (`bash -c SCRIPT 2>err`), recorded by hand on this machine.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  defp run(session, script, opts \\ []) do
    assert {:ok, %Result{} = r} = Session.exec(session, script, opts)
    r
  end

  describe "the release-built NIF" do
    # A release build once compiled `select`'s menu to an illegal instruction
    # (the allocator inlined into its callers): the whole VM died.
    test "select reads its choice" do
      r =
        run(
          Session.new(),
          "echo 2 | select item in alpha beta gamma; do echo \"got: $item\"; break; done"
        )

      assert {r.stdout, r.stderr, r.exit_code} ==
               {"got: beta\n", "1) alpha\n2) beta\n3) gamma\n#? ", 0}
    end

    test "every builtin answers --help without taking the VM down" do
      s = Session.new()
      names = s |> run("compgen -b") |> Map.fetch!(:stdout) |> String.split()
      assert "select" not in names and "echo" in names

      for name <- names do
        assert {:ok, %Result{}} = Session.exec(s, "#{name} --help", timeout_ms: 5_000), name
      end
    end
  end

  describe "state across calls" do
    test "variables, functions, cwd and files persist" do
      s = Session.new()
      run(s, "x=1; greet() { echo \"hi $1\"; }; cd /tmp; echo data > f")
      r = run(s, "echo $x; greet bob; pwd; cat f")
      assert r.stdout == "1\nhi bob\n/tmp\ndata\n"
      assert Session.read_file(s, "/tmp/f") == {:ok, "data\n"}
    end

    test "exit status is a result, not an error" do
      assert %Result{stdout: "", exit_code: 3} = run(Session.new(), "false || exit 3")
    end

    test "a session is independent of another" do
      a = Session.new()
      b = Session.new()
      run(a, "v=a")
      assert run(b, "echo ${v:-unset}").stdout == "unset\n"
    end

    test "stdin option feeds the script" do
      r = run(Session.new(), "read a b; echo \"$b-$a\"; cat", stdin: ["x y\n", "rest\n"])
      assert r.stdout == "y-x\nrest\n"
    end
  end

  describe "new/1 options" do
    test "env is exported, keys and values stringified" do
      s = Session.new(env: [GREETING: "hello", N: 5])
      assert run(s, "echo $GREETING $N; bash -c 'echo $GREETING'").stdout == "hello 5\nhello\n"
      s2 = Session.new(env: %{"LANG" => "C"})
      assert run(s2, "echo $LANG").stdout == "C\n"
    end

    test "cwd is created and used" do
      s = Session.new(cwd: "/work/project")
      assert run(s, "pwd; echo $PWD").stdout == "/work/project\n/work/project\n"
    end

    test "defaults for user, host, home and cwd" do
      r = run(Session.new(), "echo $USER $HOSTNAME $HOME; pwd")
      assert r.stdout == "sandbox bashkit-sandbox /home/sandbox\n/\n"
    end

    test "username and hostname" do
      r = run(Session.new(username: "alice", hostname: "box"), "echo $USER $HOSTNAME $HOME")
      assert r.stdout == "alice box /home/alice\n"
    end

    test "files take iodata and create parents" do
      s = Session.new(files: [{"/a/b/c.txt", ["he", ?l, "lo\n"]}])
      assert run(s, "cat /a/b/c.txt").stdout == "hello\n"
      assert Session.list_dir(s, "/a") == {:ok, [{"b", :dir}]}
    end

    test "bad options raise ArgumentError naming the option" do
      assert_raise ArgumentError, ~r/unknown option :bogus/, fn -> Session.new(bogus: 1) end
      assert_raise ArgumentError, ~r/:username/, fn -> Session.new(username: 5) end
      assert_raise ArgumentError, ~r/:env/, fn -> Session.new(env: [{"1BAD", "x"}]) end
      assert_raise ArgumentError, ~r/:env/, fn -> Session.new(env: "PATH") end
      assert_raise ArgumentError, ~r/:files/, fn -> Session.new(files: %{"/f" => :nope}) end
      assert_raise ArgumentError, ~r/:cwd/, fn -> Session.new(cwd: "") end

      assert_raise ArgumentError, ~r/unknown limit :max_bogus/, fn ->
        Session.new(limits: [max_bogus: 1])
      end

      assert_raise ArgumentError, ~r/:max_commands must be a non-negative integer/, fn ->
        Session.new(limits: [max_commands: -1])
      end

      assert_raise ArgumentError, ~r/:timeout_ms must be at least 1/, fn ->
        Session.new(limits: [timeout_ms: 0])
      end

      assert_raise ArgumentError, ~r/option :python must be a boolean/, fn ->
        Session.new(python: "yes")
      end

      assert_raise ArgumentError, ~r/keyword list or a map/, fn -> Session.new(:nope) end
    end

    test "commands: only lets scripts run the programs named" do
      s = Session.new(commands: [only: ["cat", "sort"]])
      r = run(s, "printf 'b\\na\\n' | sort | cat; cd /tmp; echo $PWD; grep x /dev/null; echo $?")
      assert r.stdout == "a\nb\n/tmp\n127\n"
      assert r.stderr == "bash: line 1: grep: command not found\n"
      # Hidden from type, command -v, compgen -c, which; and not run by env/xargs.
      r =
        run(
          s,
          "type grep; command -v grep; compgen -c | grep -x grep; which grep; env grep; echo $?"
        )

      assert r.stdout == "127\n"
      assert r.stderr =~ "type: grep: not found"
      assert run(s, "type -t sort cd; command -v cat").stdout == "file\nbuiltin\n/usr/bin/cat\n"
    end

    test "commands: except hides the names given, custom builtins and python included" do
      s =
        Session.new(
          commands: [except: ["curl", "greet", "python3"]],
          builtins: %{"greet" => fn _ -> {:ok, "hi\n"} end, "other" => fn _ -> {:ok, "o\n"} end},
          python: true
        )

      r =
        run(
          s,
          "greet; echo $?; /usr/bin/curl x; echo $?; python3 -c 1; echo $?; other; ls / >/dev/null; echo $?; env greet; echo $?"
        )

      assert r.stdout == "127\n127\n127\no\n0\n127\n"

      assert r.stderr ==
               "bash: line 1: greet: command not found\nbash: line 1: /usr/bin/curl: command not found\n" <>
                 "bash: line 1: python3: command not found\nenv: 'greet': No such file or directory\n"

      listed = run(s, "compgen -c").stdout |> String.split("\n")
      assert "other" in listed and "python" in listed and "ls" in listed
      refute Enum.any?(["greet", "curl", "python3"], &(&1 in listed))
    end

    test "bad commands options raise ArgumentError" do
      assert_raise ArgumentError, ~r/option :commands must be/, fn ->
        Session.new(commands: :all)
      end

      assert_raise ArgumentError, ~r/option :commands must be/, fn ->
        Session.new(commands: [only: ["ls"], except: ["cat"]])
      end

      assert_raise ArgumentError, ~r/option :commands must be/, fn ->
        Session.new(commands: [allow: ["ls"]])
      end

      assert_raise ArgumentError, ~r/option :commands must be/, fn ->
        Session.new(commands: [only: "ls"])
      end

      assert_raise ArgumentError, ~r/"a\/b" is not a valid command name/, fn ->
        Session.new(commands: [only: ["a/b"]])
      end

      assert_raise ArgumentError, ~r/cd is a shell builtin/, fn ->
        Session.new(commands: [except: ["cd"]])
      end
    end

    test "a count past the platform maximum means unlimited" do
      s = Session.new(limits: [max_commands: 2 ** 80])
      assert run(s, "echo ok").stdout == "ok\n"
    end
  end

  describe "errors" do
    test "unknown command: 127 and bash's message" do
      r = run(Session.new(), "nosuchcmd arg; echo after $?")
      assert r.stdout == "after 127\n"
      assert r.stderr == "bash: line 1: nosuchcmd: command not found\n"
    end

    test "a script that does not parse names the token and line" do
      assert {:error, message} = Session.exec(Session.new(), "if true; then echo x; fi fi")

      assert message ==
               "bash: -c: line 1: syntax error near unexpected token `fi'\n" <>
                 "bash: -c: line 1: `if true; then echo x; fi fi'"

      # As `bash -c` does, the lines before a syntax error run first; the
      # error then ends the script with status 2.
      assert {:ok, r} = Session.exec(Session.new(), "echo ok\nif true; then echo x; fi fi")

      assert {r.stdout, r.stderr, r.exit_code} ==
               {"ok\n",
                "bash: -c: line 2: syntax error near unexpected token `fi'\n" <>
                  "bash: -c: line 2: `if true; then echo x; fi fi'\n", 2}
    end

    test "a limit stops the script, names the limit, and the session keeps its state" do
      s = Session.new(limits: [max_loop_iterations: 50])
      run(s, "n=1")
      assert {:error, message} = Session.exec(s, "n=2; while true; do :; done")
      assert message =~ "max_loop_iterations: 50"
      assert run(s, "echo $n").stdout == "1\n"
    end

    test "bad arguments raise" do
      s = Session.new()
      assert_raise ArgumentError, fn -> Session.exec(s, :not_a_script) end

      assert_raise ArgumentError, ~r/unknown option :bogus/, fn ->
        Session.exec(s, "true", bogus: 1)
      end

      assert_raise ArgumentError, fn -> Session.exec(:not_a_session, "true") end
      assert_raise ArgumentError, ~r/:parents/, fn -> Session.mkdir(s, "/d", parents: :yes) end
    end
  end

  describe "bytes" do
    test "non-UTF-8 bytes round-trip through files and stdout" do
      bytes = <<0, 255, 254, ?\n, 0xC3>>
      s = Session.new(files: %{"/in.bin" => bytes})
      assert run(s, "cat /in.bin").stdout == bytes
      run(s, "cat /in.bin > /out.bin; cat /in.bin /in.bin | cat > /twice.bin")
      assert Session.read_file(s, "/out.bin") == {:ok, bytes}
      assert Session.read_file(s, "/twice.bin") == {:ok, bytes <> bytes}
    end

    test "stdin bytes reach the script unchanged" do
      assert run(Session.new(), "cat", stdin: <<1, 2, 255>>).stdout == <<1, 2, 255>>
    end
  end

  describe "file API" do
    test "write, read, stat, list, rename, remove" do
      s = Session.new()
      assert Session.write_file(s, "/d/x.txt", "abc") == :ok
      assert Session.write_file(s, "rel.txt", "r") == :ok
      assert Session.read_file(s, "/rel.txt") == {:ok, "r"}
      assert Session.stat(s, "/d/x.txt") == {:ok, %{type: :file, size: 3}}
      assert {:ok, %{type: :dir}} = Session.stat(s, "/d")
      assert Session.rename(s, "/d/x.txt", "/d/y.txt") == :ok
      assert Session.list_dir(s, "/d") == {:ok, [{"y.txt", :file}]}
      assert Session.read_file(s, "/d/x.txt") == {:error, "/d/x.txt: No such file or directory"}
      assert {:error, _} = Session.remove(s, "/d")
      assert Session.remove(s, "/d", recursive: true) == :ok
      assert {:error, "/d: No such file or directory"} = Session.stat(s, "/d")
    end

    test "mkdir with and without parents" do
      s = Session.new()
      assert {:error, "/a/b: No such file or directory"} = Session.mkdir(s, "/a/b")
      assert Session.mkdir(s, "/a/b", parents: true) == :ok
      assert Session.mkdir(s, "/a/b", parents: true) == :ok
      assert {:error, "/a/b: File exists"} = Session.mkdir(s, "/a/b")
      assert run(s, "cd /a/b && pwd").stdout == "/a/b\n"
    end

    test "missing paths and wrong kinds are errors" do
      s = Session.new(files: %{"/t" => "x"})
      assert {:error, _} = Session.read_file(s, "/nope")
      assert Session.list_dir(s, "/nope") == {:error, "/nope: No such file or directory"}
      assert Session.list_dir(s, "/t") == {:error, "/t: Not a directory"}
    end

    test "the application is not held to the permission bits the script set" do
      s = Session.new()
      run(s, "mkdir -p /p/d; echo secret > /p/d/f; chmod 000 /p/d/f; chmod 500 /p/d")
      assert run(s, "cat /p/d/f").exit_code == 1
      assert run(s, "echo x > /p/d/new").stderr == "bash: line 1: /p/d/new: Permission denied\n"
      assert Session.read_file(s, "/p/d/f") == {:ok, "secret\n"}
      assert Session.write_file(s, "/p/d/new", "mine") == :ok
      assert Session.list_dir(s, "/p/d") == {:ok, [{"f", :file}, {"new", :file}]}
      assert Session.remove(s, "/p/d", recursive: true) == :ok
    end

    test "a root session is not held to them either" do
      s = Session.new(username: "root")
      r = run(s, "echo x > f; chmod 000 f; cat f; id -u; echo $UID $HOME")
      assert r.stdout == "x\n0\n0 /root\n"
    end

    test "read_file of a directory is an error" do
      assert {:error, "/tmp: Is a directory"} = Session.read_file(Session.new(), "/tmp")
    end
  end

  describe "concurrency" do
    test "concurrent execs on one session run one at a time" do
      s = Session.new(files: %{"/count" => "0\n"})

      script = """
      read n < /count
      i=0; while [ $i -lt 200 ]; do i=$((i+1)); done
      echo $((n+1)) > /count
      """

      1..20
      |> Enum.map(fn _ -> Task.async(fn -> Session.exec(s, script) end) end)
      |> Enum.each(fn t -> assert {:ok, %Result{exit_code: 0}} = Task.await(t, 30_000) end)

      assert Session.read_file(s, "/count") == {:ok, "20\n"}
    end

    test "a busy session does not hold up another session" do
      forever = 10 ** 15

      busy =
        Session.new(
          limits: [
            timeout_ms: 1_000,
            max_commands: forever,
            max_loop_iterations: forever,
            max_total_loop_iterations: forever
          ]
        )

      slow = Task.async(fn -> Session.exec(busy, "while true; do :; done") end)
      # Give the busy script time to start, then run elsewhere while it spins.
      Process.sleep(50)
      assert {:ok, %Result{stdout: "free\n"}} = Session.exec(Session.new(), "echo free")
      assert Task.yield(slow, 0) == nil
      assert {:error, message} = Task.await(slow, 10_000)
      assert message =~ "timed out"
    end
  end
end
