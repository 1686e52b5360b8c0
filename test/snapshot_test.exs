defmodule ExBashkit.SnapshotTest do
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  @golden "test/fixtures/session_v1.snapshot"
  @golden_keyed "test/fixtures/session_v1_keyed.snapshot"

  # What the session captured in the fixtures prints (made by
  # test/fixtures/make_golden.exs: arrays, attributes, a function,
  # options, a trap, a symlink, modes and an mtime, positional parameters, cwd).
  @probe """
  echo "${arr[1]}|${#arr[@]}|${map[k2]}|$n|$const|$EXPORTED"
  greet; greet you
  set -o | grep pipefail
  trap -p ERR
  pwd; echo "$@" $#
  cat /data/link; stat -c '%a %n' /data/t.txt; stat -c %Y /data/bin
  od -An -tx1 /data/bin 2>/dev/null || cat /data/bin | wc -c
  bash -c 'echo child sees $EXPORTED'
  const=changed
  """

  defp probe(s) do
    {:ok, r} = Session.exec(s, @probe)
    r
  end

  test "today's format is still read: the golden snapshot restores" do
    s = Session.new()
    assert {:ok, ^s} = Session.restore(s, File.read!(@golden))
    r = probe(s)
    lines = String.split(r.stdout, "\n")
    assert Enum.at(lines, 0) == "two words|3|v 2|42|fixed|yes"
    assert Enum.at(lines, 1) == "hello world"
    assert Enum.at(lines, 2) == "hello you"
    assert Enum.at(lines, 3) =~ ~r/^pipefail\s+on$/
    assert Enum.at(lines, 4) == "trap -- 'echo trapped' ERR"
    assert Enum.at(lines, 5) == "/data"
    assert Enum.at(lines, 6) == "p1 p 2 2"
    assert Enum.at(lines, 7) == "text"
    assert Enum.at(lines, 8) == "600 /data/t.txt"
    assert Enum.at(lines, 9) == "1704164645"
    assert "child sees yes" in lines
    assert r.stderr =~ "const: readonly variable"
    assert Session.read_file(s, "/data/bin") == {:ok, <<0, 1, 2, 255>>}
    assert Session.stat(s, "/data/link") == {:ok, %{type: :symlink, size: 11}}
  end

  test "the version 2 golden snapshot restores with its aliases and directory stack" do
    s = Session.new()
    assert {:ok, ^s} = Session.restore(s, File.read!("test/fixtures/session_v2.snapshot"))
    assert {:ok, %Result{stdout: out}} = Session.exec(s, "echo ${arr[1]}; dirs\nhi")
    assert out == "two words\n/data /tmp /data\nalias says hi\n"
  end

  test "the keyed golden snapshot needs its key" do
    bytes = File.read!(@golden_keyed)
    s = Session.new()
    assert {:error, message} = Session.restore(s, bytes)
    assert message =~ "key"
    assert {:error, _} = Session.restore(s, bytes, key: "wrong-key")
    assert {:ok, ^s} = Session.restore(s, bytes, key: "golden-key")
    assert {:ok, %Result{stdout: "hello world\n"}} = Session.exec(s, "greet")
  end

  # An attacker holding keyed bytes strips the HMAC and re-seals them with the
  # public SHA-256 tag (clearing the keyed flag): a session built with a
  # :snapshot_key refuses them, and so does any restore given the key.
  test "keyed bytes re-sealed without the key are refused by a keyed session" do
    key = "session-secret"
    s = Session.new(snapshot_key: key)
    {:ok, _} = Session.exec(s, "x=trusted")
    {:ok, sealed} = Session.snapshot(s)

    body_len = byte_size(sealed) - 7 - 32

    <<"EXBK", version::binary-size(2), flags, body::binary-size(body_len),
      _hmac::binary-size(32)>> = sealed

    unkeyed = <<"EXBK", version::binary, Bitwise.band(flags, 0xFE), body::binary>>
    forged = unkeyed <> :crypto.hash(:sha256, unkeyed)

    # The forgery is a valid plain snapshot: a session without a key takes it.
    assert {:ok, _} = Session.restore(Session.new(), forged)

    target = Session.new(snapshot_key: key)
    {:ok, _} = Session.exec(target, "x=kept")
    assert {:error, _} = Session.restore(target, forged)
    assert {:ok, %Result{stdout: "kept\n"}} = Session.exec(target, "echo $x")

    assert_raise ArgumentError, ~r/snapshot_key/, fn ->
      Session.restore(target, sealed, key: "another")
    end

    assert {:ok, ^target} = Session.restore(target, sealed)
    assert {:ok, %Result{stdout: "trusted\n"}} = Session.exec(target, "echo $x")
    assert_raise ArgumentError, ~r/snapshot_key/, fn -> Session.new(snapshot_key: "") end
  end

  test "a plain snapshot refuses a key" do
    {:ok, bytes} = Session.snapshot(Session.new())
    assert {:error, _} = Session.restore(Session.new(), bytes, key: "k")
  end

  test "an empty key raises" do
    s = Session.new()
    assert_raise ArgumentError, ~r/:key/, fn -> Session.snapshot(s, key: "") end
    assert_raise ArgumentError, ~r/:key/, fn -> Session.restore(s, "x", key: "") end
    assert_raise ArgumentError, ~r/unknown option/, fn -> Session.snapshot(s, bogus: true) end
  end

  test "truncated or tampered bytes are refused and the session is untouched" do
    {:ok, bytes} = Session.snapshot(Session.new(files: %{"/f" => "payload"}))
    target = Session.new()
    {:ok, _} = Session.exec(target, "mine=1; echo own > /own")

    for cut <- [0, 1, 4, div(byte_size(bytes), 2), byte_size(bytes) - 1] do
      assert {:error, _} = Session.restore(target, binary_part(bytes, 0, cut))
    end

    for pos <- [0, 5, div(byte_size(bytes), 2), byte_size(bytes) - 1] do
      <<pre::binary-size(pos), b, post::binary>> = bytes

      assert {:error, _} =
               Session.restore(target, <<pre::binary, Bitwise.bxor(b, 1), post::binary>>)
    end

    assert {:ok, %Result{stdout: "1\nown\n"}} = Session.exec(target, "echo $mine; cat /own")
    assert {:error, _} = Session.read_file(target, "/f")
  end

  test "a snapshot too big for the target's limits is refused" do
    {:ok, bytes} = Session.snapshot(Session.new(files: %{"/big" => String.duplicate("x", 5000)}))
    small = Session.new(limits: [max_file_bytes: 1000])
    assert {:error, message} = Session.restore(small, bytes)
    assert message =~ "max_file_bytes"
  end

  test "exclude_filesystem and exclude_functions" do
    s = Session.new(files: %{"/src" => "from source"})
    {:ok, _} = Session.exec(s, "v=1; f() { echo f; }")
    {:ok, no_fs} = Session.snapshot(s, exclude_filesystem: true)
    {:ok, no_fn} = Session.snapshot(s, exclude_functions: true)

    t = Session.new(files: %{"/dst" => "target's own"})
    assert {:ok, _} = Session.restore(t, no_fs)

    assert {:ok, %Result{stdout: "1\nf\ntarget's own"}} = Session.exec(t, "echo $v; f; cat /dst")

    assert {:error, _} = Session.read_file(t, "/src")

    u = Session.new()
    assert {:ok, _} = Session.restore(u, no_fn)

    assert {:ok, %Result{stdout: "1\nfrom source", exit_code: 127}} =
             Session.exec(u, "echo $v; cat /src; f")
  end

  test "an idle session's snapshot is small" do
    {:ok, bytes} = Session.snapshot(Session.new())
    # Mostly the variables a shell starts with (HOME, PATH, SHLVL, BASH_VERSINFO, ...).
    assert byte_size(bytes) < 1536
  end

  test "a snapshot waits for the running exec and sees its result" do
    s = Session.new()
    task = Task.async(fn -> Session.exec(s, "sleep 0.2; late=yes") end)
    Process.sleep(20)
    {:ok, bytes} = Session.snapshot(s)
    {:ok, _} = Task.await(task)
    t = Session.new()
    {:ok, _} = Session.restore(t, bytes)
    assert {:ok, %Result{stdout: "yes\n"}} = Session.exec(t, "echo $late")
  end
end
