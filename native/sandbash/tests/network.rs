//! curl, wget and http against a real HTTP server on loopback, started by each
//! test. Loopback is a private address, so reaching it needs
//! `block_private_ips` off; the tests that prove a block also prove the server
//! was reachable, and count connections, so "blocked" can never pass vacuously.

use sandbash::net::Policy;
use sandbash::{Bash, ExecResult, Limits};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

struct Server {
    port: u16,
    connections: Arc<AtomicUsize>,
}

/// A small HTTP/1.1 server: `/hello`, `/echo` (method, target, some headers and
/// the body), `/missing` (404), `/redirect` (302), `/slow` (answers after 3 s),
/// `/big` (2 MiB).
fn server() -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let connections = Arc::new(AtomicUsize::new(0));
    let count = connections.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            count.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    return;
                }
                let mut headers = Vec::new();
                let mut length = 0usize;
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).is_err() || h == "\r\n" || h.is_empty() {
                        break;
                    }
                    let h = h.trim_end().to_string();
                    if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    headers.push(h);
                }
                let mut body = vec![0u8; length];
                let _ = reader.read_exact(&mut body);
                let mut parts = line.split_whitespace();
                let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                let (status, extra, payload): (&str, &str, Vec<u8>) = match target.split('?').next().unwrap_or("") {
                    "/hello" => ("200 OK", "Content-Type: text/plain\r\n", b"hello\n".to_vec()),
                    "/echo" => {
                        let keep: Vec<&String> = headers
                            .iter()
                            .filter(|h| {
                                let l = h.to_ascii_lowercase();
                                ["authorization", "content-type", "x-", "user-agent", "accept:"]
                                    .iter()
                                    .any(|p| l.starts_with(p))
                            })
                            .collect();
                        let mut text = format!("{method} {target}\n");
                        for h in keep {
                            text.push_str(h);
                            text.push('\n');
                        }
                        text.push_str(&String::from_utf8_lossy(&body));
                        ("200 OK", "", text.into_bytes())
                    }
                    "/missing" => ("404 Not Found", "", b"not found\n".to_vec()),
                    "/redirect" => ("302 Found", "Location: http://example.com/\r\n", Vec::new()),
                    "/slow" => {
                        std::thread::sleep(std::time::Duration::from_secs(3));
                        ("200 OK", "", b"late\n".to_vec())
                    }
                    "/big" => ("200 OK", "", vec![b'x'; 2 << 20]),
                    _ => ("500 Internal Server Error", "", Vec::new()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
                    payload.len()
                );
                let _ = stream.write_all(head.as_bytes());
                if method != "HEAD" {
                    let _ = stream.write_all(&payload);
                }
            });
        }
    });
    Server { port, connections }
}

fn run_with(policy: Policy, limits: Limits, script: &str) -> (String, String, i32) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let r: ExecResult = rt.block_on(async {
        let mut bash = Bash::builder().network(policy).limits(limits).build().expect("build");
        bash.exec(script).await.expect("exec")
    });
    (String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned(), r.exit_code)
}

fn open() -> Policy {
    Policy::all().with_private_ips(true)
}

fn run(policy: Policy, script: &str) -> (String, String, i32) {
    run_with(policy, Limits::default(), script)
}

#[test]
fn curl_gets_posts_and_prints_what_curl_prints() {
    let s = server();
    let u = format!("http://127.0.0.1:{}", s.port);
    let script = format!(
        "curl -s {u}/hello; curl -s -d 'a=1' -d b=2 {u}/echo; echo; \
         curl -s -X PUT -H 'X-Test: yes' -H 'Content-Type: application/json' --data-raw '{{\"k\":1}}' {u}/echo; echo; \
         curl -s -u user:pass -A agent/1 {u}/echo; curl -s -G --data-urlencode 'q=a b' {u}/echo"
    );
    let (out, err, code) = run(open(), &script);
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "hello\n\
         POST /echo\nUser-Agent: curl/7.88.1\nAccept: */*\nContent-Type: application/x-www-form-urlencoded\na=1&b=2\n\
         PUT /echo\nUser-Agent: curl/7.88.1\nAccept: */*\nX-Test: yes\nContent-Type: application/json\n{\"k\":1}\n\
         GET /echo\nAuthorization: Basic dXNlcjpwYXNz\nUser-Agent: agent/1\nAccept: */*\n\
         GET /echo?q=a%20b\nUser-Agent: curl/7.88.1\nAccept: */*\n"
    );
}

#[test]
fn curl_status_codes_headers_output_files_and_write_out() {
    let s = server();
    let u = format!("http://127.0.0.1:{}", s.port);
    let script = format!(
        "curl -s -o /tmp/h {u}/hello; cat /tmp/h; cd /tmp && curl -sO {u}/hello && cat hello; \
         curl -s -w '%{{http_code}}\\n' -o /dev/null {u}/missing; curl -sf {u}/missing; echo \"f=$?\"; \
         curl -sSf {u}/missing; echo \"f=$?\"; curl -sI {u}/hello; curl -si {u}/hello | tail -1; \
         curl -sL {u}/redirect; echo \"l=$?\"; curl -L {u}/redirect -w '%{{redirect_url}}\\n'"
    );
    let (out, err, code) = run(open(), &script);
    assert_eq!(
        out,
        "hello\nhello\n404\nf=22\nf=22\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\
         Connection: close\r\n\r\nhello\nl=0\nhttp://example.com/\n"
    );
    assert_eq!(
        err,
        "curl: (22) The requested URL returned error: 404\n\
         curl: redirect to http://example.com/ not followed: this sandbox never follows redirects\n"
    );
    assert_eq!(code, 0);
}

#[test]
fn the_allowlist_is_checked_before_any_connection() {
    let s = server();
    let u = format!("http://127.0.0.1:{}", s.port);
    let allow_other = Policy::allow(&[format!("{u}/hello")]).expect("policy").with_private_ips(true);
    let (out, err, code) =
        run(allow_other, &format!("curl -s {u}/hello; curl {u}/echo; echo $?; curl -s {u}/echo; echo $?"));
    assert_eq!(out, "hello\n7\n7\n");
    assert_eq!(
        err,
        format!(
            "curl: (7) Failed to connect to 127.0.0.1 port {}: access denied by the sandbox's network allowlist (allow_net)\n",
            s.port
        )
    );
    assert_eq!(code, 0);
    assert_eq!(s.connections.load(Ordering::SeqCst), 1, "only the allowed request connected");
    // No policy at all: nothing is reachable.
    let (_, _, code) = run(Policy::none(), &format!("curl -s {u}/hello"));
    assert_eq!(code, 7);
    assert_eq!(s.connections.load(Ordering::SeqCst), 1);
}

#[test]
fn private_addresses_are_blocked_by_default_even_when_allowed() {
    let s = server();
    let u = format!("http://127.0.0.1:{}", s.port);
    // Reachable with the block off (so the block below is not vacuous).
    assert_eq!(run(open(), &format!("curl -s {u}/hello")).0, "hello\n");
    let before = s.connections.load(Ordering::SeqCst);
    for target in [
        format!("{u}/hello"),
        format!("http://localhost:{}/hello", s.port),
        format!("http://[::ffff:127.0.0.1]:{}/hello", s.port),
        format!("http://0.0.0.0:{}/hello", s.port),
        // Numeric forms the C resolver turns into 127.0.0.1.
        format!("http://2130706433:{}/hello", s.port),
        format!("http://0x7f.1:{}/hello", s.port),
        format!("http://127.1:{}/hello", s.port),
    ] {
        let (out, err, code) = run(Policy::all(), &format!("curl -sS {target}"));
        assert_eq!((out.as_str(), code), ("", 7), "{target}");
        assert!(err.contains("is a private or reserved address (blocked by block_private_ips)"), "{target}: {err}");
    }
    assert_eq!(s.connections.load(Ordering::SeqCst), before, "a blocked request connected");
}

#[test]
fn errors_timeouts_and_limits() {
    let s = server();
    let u = format!("http://127.0.0.1:{}", s.port);
    let script = format!(
        "curl -sS --max-time 0.3 {u}/slow; echo \"t=$?\"; curl -sS http://no-such-host.invalid/; echo \"r=$?\"; \
         curl -sS http://127.0.0.1:1/; echo \"c=$?\"; curl -sS ftp://x/; echo \"p=$?\"; curl; echo \"n=$?\"; \
         curl -k https://x/; echo \"k=$?\"; curl -sS https://127.0.0.1:{}/hello; echo \"tls=$?\"; \
         curl -sS {u}/big | wc -c; echo \"b=${{PIPESTATUS[0]}}\"",
        s.port
    );
    let limits = Limits { max_response_bytes: 1 << 20, ..Limits::default() };
    let (out, err, _) = run_with(open(), limits, &script);
    assert_eq!(out, "t=28\nr=6\nc=7\np=1\nn=2\nk=60\ntls=35\n0\nb=63\n");
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("curl: (28) Operation timed out after "), "{err}");
    assert_eq!(lines[1], "curl: (6) Could not resolve host: no-such-host.invalid");
    assert!(
        lines[2].starts_with("curl: (7) Failed to connect to 127.0.0.1 port 1 after ")
            && lines[2].ends_with("Couldn't connect to server")
    );
    assert_eq!(lines[3], "curl: (1) Protocol \"ftp\" not supported or disabled in libcurl");
    assert_eq!(
        lines[4..6],
        ["curl: no URL specified!", "curl: try 'curl --help' or 'curl --manual' for more information"]
    );
    assert!(lines[6].starts_with("curl: (60) --insecure is refused"));
    assert!(lines[7].starts_with("curl: (35) TLS connect error"));
    assert_eq!(lines[8], "curl: (63) Maximum file size exceeded (max_response_bytes: 1048576)");
}

#[test]
fn wget_saves_files_and_exits_like_wget() {
    let s = server();
    let u = format!("http://127.0.0.1:{}", s.port);
    let script = format!(
        "cd /tmp; wget -q {u}/hello; wget -q {u}/hello; cat hello hello.1; wget -qO- {u}/hello; \
         wget -q -O out --post-data 'x=1' --header 'X-Key: k' {u}/echo; cat out; echo; \
         wget -q {u}/missing; echo \"m=$?\"; wget -q http://127.0.0.1:1/; echo \"c=$?\""
    );
    let (out, err, code) = run(open(), &script);
    assert_eq!(
        out,
        "hello\nhello\nhello\nPOST /echo\nUser-Agent: Wget/1.21.3\nAccept: */*\n\
         Content-Type: application/x-www-form-urlencoded\nX-Key: k\nx=1\nm=8\nc=4\n"
    );
    // -q: not a word on stderr, even for failures (as GNU Wget).
    assert_eq!((err.as_str(), code), ("", 0));
    let (_, err, code) = run(open(), &format!("wget {u}/missing; wget http://127.0.0.1:1/"));
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("--") && lines[0].ends_with(&format!("--  {u}/missing")), "{err}");
    assert_eq!(lines[1], "HTTP request sent, awaiting response... 404 Not Found");
    assert!(lines[2].ends_with(" ERROR 404: Not Found."), "{err}");
    assert_eq!(lines[4], "Connecting to 127.0.0.1:1... failed: Connection refused.");
    assert_eq!(code, 4);
    let (_, err, code) = run(Policy::none(), &format!("wget {u}/hello"));
    assert_eq!((err.contains("allow_net"), code), (true, 4));
}

#[test]
fn http_sends_json_and_prints_the_body() {
    let s = server();
    let port = s.port;
    let script = format!(
        "http :{port}/echo name=x n:=1 X-Id:7 q==a; echo; http -f POST 127.0.0.1:{port}/echo a='b c'; echo; \
         http --check-status :{port}/missing; echo \"s=$?\"; http -h :{port}/hello"
    );
    let script = script.replace(":{port}", &format!("127.0.0.1:{port}"));
    let (out, err, code) = run(open(), &script);
    assert_eq!(
        out,
        "POST /echo?q=a\nUser-Agent: HTTPie/3.2.1\nAccept: application/json, */*;q=0.5\nContent-Type: application/json\n\
         X-Id: 7\n{\"name\": \"x\", \"n\": 1}\n\
         POST /echo\nUser-Agent: HTTPie/3.2.1\nAccept: */*\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\na=b%20c\n\
         not found\ns=4\nHTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 6\nConnection: close\n\n"
    );
    assert_eq!(err, "http: warning: HTTP 404 Not Found\n");
    assert_eq!(code, 0);
}
