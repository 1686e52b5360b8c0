defmodule ExBashkit.NetworkTest do
  # `:allow_net` and `:block_private_ips` end to end, against an HTTP server on
  # loopback started here. It counts connections, and every "blocked" case is
  # paired with the same request succeeding once allowed, so a block can never
  # pass because the server was unreachable.
  use ExUnit.Case, async: true

  alias ExBashkit.{Result, Session}

  defp start_server do
    {:ok, listen} =
      :gen_tcp.listen(0, [:binary, active: false, reuseaddr: true, ip: {127, 0, 0, 1}])

    {:ok, port} = :inet.port(listen)
    counter = :counters.new(1, [])
    spawn_link(fn -> accept(listen, counter) end)
    %{port: port, counter: counter}
  end

  defp accept(listen, counter) do
    case :gen_tcp.accept(listen) do
      {:ok, sock} ->
        :counters.add(counter, 1, 1)
        {:ok, _request} = :gen_tcp.recv(sock, 0, 5000)
        body = "hi from loopback\n"

        :gen_tcp.send(
          sock,
          "HTTP/1.1 200 OK\r\nContent-Length: #{byte_size(body)}\r\nConnection: close\r\n\r\n" <>
            body
        )

        :gen_tcp.close(sock)
        accept(listen, counter)

      {:error, _} ->
        :ok
    end
  end

  defp run(s, script) do
    {:ok, %Result{} = r} = Session.exec(s, script)
    {r.stdout, r.stderr, r.exit_code}
  end

  defp connections(srv), do: :counters.get(srv.counter, 1)

  test "no network by default; an allowed URL is reached once private IPs are allowed" do
    srv = start_server()
    url = "http://127.0.0.1:#{srv.port}/x"

    assert {"", _, 7} = run(Session.new(), "curl -s #{url}")
    assert connections(srv) == 0

    s = Session.new(allow_net: ["http://127.0.0.1:#{srv.port}"], block_private_ips: false)
    assert run(s, "curl -s #{url}") == {"hi from loopback\n", "", 0}
    assert connections(srv) == 1
  end

  test "the private-address block holds even for an allowed URL" do
    srv = start_server()
    url = "http://127.0.0.1:#{srv.port}/x"
    blocked = Session.new(allow_net: :all)
    assert {"", err, 7} = run(blocked, "curl -sS #{url}")
    assert err =~ "blocked by block_private_ips"
    assert connections(srv) == 0

    assert run(Session.new(allow_net: :all, block_private_ips: false), "wget -qO- #{url}") ==
             {"hi from loopback\n", "", 0}

    assert connections(srv) == 1
  end

  test "a URL outside the allowlist opens no connection" do
    srv = start_server()
    s = Session.new(allow_net: ["http://127.0.0.1:#{srv.port}/api"], block_private_ips: false)
    assert {"", err, 7} = run(s, "curl -sS http://127.0.0.1:#{srv.port}/other")
    assert err =~ "allow_net"
    assert connections(srv) == 0
    assert {"hi from loopback\n", "", 0} = run(s, "curl -s http://127.0.0.1:#{srv.port}/api/v1")
  end

  test "bad network options raise" do
    for bad <- [["api.example.com"], ["ftp://x.com"], "https://x.com", :some] do
      assert_raise ArgumentError, ~r/allow_net/, fn -> Session.new(allow_net: bad) end
    end

    assert_raise ArgumentError, ~r/block_private_ips/, fn ->
      Session.new(block_private_ips: "no")
    end
  end
end
