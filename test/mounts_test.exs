defmodule ExBashkit.MountsTest do
  # `:mounts` and `:allowed_mount_paths` through the public API, on real
  # temporary directories. The escape attempts themselves are tested on the
  # interpreter (native/sandbash/tests/host_mounts.rs); here: the options,
  # the modes, the file API, and one escape per mode end to end.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  setup do
    root = Path.join(System.tmp_dir!(), "ex_bashkit_mounts_#{System.unique_integer([:positive])}")
    File.mkdir_p!(Path.join(root, "mnt/sub"))
    File.mkdir_p!(Path.join(root, "outside"))
    File.write!(Path.join(root, "mnt/a.txt"), "alpha\n")
    File.write!(Path.join(root, "outside/secret"), "SECRET\n")
    File.ln_s!(Path.join(root, "outside/secret"), Path.join(root, "mnt/escape"))
    on_exit(fn -> File.rm_rf!(root) end)
    %{root: root, mnt: Path.join(root, "mnt")}
  end

  defp run(s, script) do
    {:ok, %Result{} = r} = Session.exec(s, script)
    {r.stdout, r.stderr, r.exit_code}
  end

  test "read_only: reads work, writes and escapes fail", %{mnt: mnt} do
    s = Session.new(mounts: [{"/data", mnt, :read_only}])
    assert run(s, "cat /data/a.txt; ls /data") == {"alpha\na.txt\nescape\nsub\n", "", 0}

    assert run(s, "echo x > /data/b; cat /data/escape") ==
             {"",
              "bash: line 1: /data/b: Read-only file system\ncat: /data/escape: Permission denied\n",
              1}

    assert {:ok, "alpha\n"} = Session.read_file(s, "/data/a.txt")
    assert {:error, msg} = Session.write_file(s, "/data/new", "x")
    assert msg =~ "Read-only file system"
  end

  test "read_write: changes reach the host, escapes do not", %{root: root, mnt: mnt} do
    s = Session.new(mounts: [{"/work", mnt, :read_write}])

    assert run(s, "echo out > /work/out.txt; mkdir /work/d; cp /work/a.txt /work/d/") ==
             {"", "", 0}

    assert File.read!(Path.join(mnt, "out.txt")) == "out\n"
    assert File.read!(Path.join(mnt, "d/a.txt")) == "alpha\n"

    assert run(s, "echo pwned > /work/escape; ln -s /etc /work/etc") ==
             {"",
              "bash: line 1: /work/escape: Permission denied\n" <>
                "ln: failed to create symbolic link '/work/etc': Permission denied\n", 1}

    assert File.read!(Path.join(root, "outside/secret")) == "SECRET\n"
    assert :ok = Session.write_file(s, "/work/api.txt", "via api\n")
    assert File.read!(Path.join(mnt, "api.txt")) == "via api\n"
    assert {:ok, entries} = Session.list_dir(s, "/work")
    assert "api.txt" in Enum.map(entries, &elem(&1, 0))
  end

  test "overlay: the script sees its changes, the host does not", %{mnt: mnt} do
    s = Session.new(mounts: [{"/ov", mnt, :overlay}])

    assert run(
             s,
             "echo more >> /ov/a.txt; rm -r /ov/sub; echo n > /ov/new; ls /ov; cat /ov/a.txt"
           ) ==
             {"a.txt\nescape\nnew\nalpha\nmore\n", "", 0}

    assert File.read!(Path.join(mnt, "a.txt")) == "alpha\n"
    assert File.dir?(Path.join(mnt, "sub"))
    refute File.exists?(Path.join(mnt, "new"))
    assert run(s, "cat /ov/new") == {"n\n", "", 0}
  end

  test "mounts compose with the in-memory fs and virtual_fs", %{mnt: mnt} do
    s =
      Session.new(
        mounts: [{"/data", mnt, :read_only}],
        virtual_fs: %{"/data/api" => fn %{op: :read, path: p} -> {:ok, "api#{p}\n"} end},
        files: %{"/tmp/mem" => "mem\n"}
      )

    assert run(s, "cat /data/a.txt /data/api/x /tmp/mem; cp /data/a.txt /tmp/") ==
             {"alpha\napi/x\nmem\n", "", 0}
  end

  test "misconfigured mounts raise from new/1", %{root: root, mnt: mnt} do
    bad = [
      {[{"/d", mnt, :rw}], ~r/unknown mode/},
      {[{"/d", Path.join(root, "missing"), :read_only}], ~r/missing/},
      {[{"/d", Path.join(mnt, "a.txt"), :read_only}], ~r/not a directory/},
      {[{"/d", "/etc", :read_only}], ~r/refused/},
      {[{"/d", "/", :read_only}], ~r/refused/},
      {[{"/a/../b", mnt, :read_only}], ~r/normalized/},
      {[{"/a//b", mnt, :read_only}], ~r/normalized/},
      {[{"/a/", mnt, :read_only}], ~r/normalized/},
      {[{"/d", mnt, :read_only}, {"/d", mnt, :read_only}], ~r/mounted twice/},
      {[{"/d", mnt}], ~r/entries must be/}
    ]

    for {mounts, msg} <- bad do
      assert_raise ArgumentError, msg, fn -> Session.new(mounts: mounts) end
    end

    assert_raise ArgumentError, ~r/allowed_mount_paths/, fn ->
      Session.new(allowed_mount_paths: "/tmp")
    end
  end

  test "allowed_mount_paths is a switch: the allowlist becomes the only gate", %{
    root: root,
    mnt: mnt
  } do
    # Allowed: a path under the list.
    s = Session.new(mounts: [{"/d", mnt, :read_only}], allowed_mount_paths: [root])
    assert run(s, "cat /d/a.txt") == {"alpha\n", "", 0}

    # Outside the list: refused even though it is not sensitive.
    assert_raise ArgumentError, ~r/allowed_mount_paths/, fn ->
      Session.new(
        mounts: [{"/d", mnt, :read_only}],
        allowed_mount_paths: [Path.join(root, "outside")]
      )
    end

    # A sensitive path, deliberately allowed.
    s = Session.new(mounts: [{"/ssl", "/etc/ssl", :read_only}], allowed_mount_paths: ["/etc/ssl"])
    assert {_, "", 0} = run(s, "ls /ssl > /dev/null")
  end
end
