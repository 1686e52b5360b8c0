defmodule ExBashkit.PeerTest do
  # A session moves to another node: snapshot here, restore there, go on there,
  # and come back.
  use ExUnit.Case, async: false

  alias ExBashkit.{Result, Session}

  setup_all do
    # Distribution needs epmd; started if it is not running yet (and waited for).
    ExBashkit.TestNodes.ensure_distributed()
    args = Enum.flat_map(:code.get_path(), &[~c"-pa", &1])
    {:ok, peer, node} = :peer.start(%{name: :ex_bashkit_peer, host: ~c"127.0.0.1", args: args})
    on_exit(fn -> :peer.stop(peer) end)
    %{node: node}
  end

  test "snapshot on one node, restore and continue on another", %{node: node} do
    s = Session.new(files: %{"/notes.txt" => "from node one\n"})
    {:ok, _} = Session.exec(s, "x=41; greet() { echo \"hi from $1\"; }; cd /tmp")
    {:ok, bytes} = Session.snapshot(s, key: "shared-secret")

    remote = """
    s = ExBashkit.Session.new()
    {:ok, s} = ExBashkit.Session.restore(s, bytes, key: "shared-secret")
    {:ok, r} = ExBashkit.Session.exec(s, "x=$((x+1)); greet \\"$(hostname)\\" ; pwd; cat /notes.txt; echo more >> /notes.txt")
    {:ok, back} = ExBashkit.Session.snapshot(s, key: "shared-secret")
    {node(), r.stdout, back}
    """

    {{where, stdout, back}, _binding} =
      :erpc.call(node, Code, :eval_string, [remote, [bytes: bytes]])

    assert where == node
    assert stdout == "hi from bashkit-sandbox\n/tmp\nfrom node one\n"

    home = Session.new()
    assert {:ok, ^home} = Session.restore(home, back, key: "shared-secret")

    assert {:ok, %Result{stdout: "42\nfrom node one\nmore\n"}} =
             Session.exec(home, "echo $x; cat /notes.txt")
  end
end
