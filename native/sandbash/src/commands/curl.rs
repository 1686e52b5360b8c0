//! `curl`: HTTP and HTTPS requests under the session's network policy, with the
//! flags scripts use (`-s -S -f -i -I -X -H -d --data-raw --data-binary
//! --data-urlencode -F -o -O -w -u -A -e -m --connect-timeout -L -G`), curl's
//! exit codes and its `curl: (N) ...` messages. Redirects are never followed;
//! `-k` is refused (certificates are always checked). No progress meter.

use super::util::net::{self, Body};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::net::client::{self, NetError, Request};
use crate::net::Url;
use async_trait::async_trait;
use std::time::{Duration, Instant};

pub struct Curl;

const VERSION: &str = "curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 rustls\n\
Release-Date: 2023-02-20\nProtocols: http https\nFeatures: IPv6 Largefile SSL\n";

#[derive(Default)]
struct Opts {
    silent: bool,
    show_error: bool,
    fail: bool,
    include: bool,
    head: bool,
    get: bool,
    location: bool,
    method: Option<String>,
    headers: Vec<(String, String)>,
    data: Vec<Vec<u8>>,
    form: Vec<String>,
    output: Option<String>,
    remote_name: bool,
    write_out: Option<String>,
    user: Option<String>,
    max_time: Option<Duration>,
    connect_timeout: Option<Duration>,
    urls: Vec<String>,
}

/// Options that take a value, by long name, with their short letter.
const WITH_VALUE: &[(&str, Option<char>)] = &[
    ("request", Some('X')),
    ("header", Some('H')),
    ("data", Some('d')),
    ("data-ascii", None),
    ("data-raw", None),
    ("data-binary", None),
    ("data-urlencode", None),
    ("form", Some('F')),
    ("output", Some('o')),
    ("write-out", Some('w')),
    ("user", Some('u')),
    ("user-agent", Some('A')),
    ("referer", Some('e')),
    ("max-time", Some('m')),
    ("connect-timeout", None),
    ("retry", None),
    ("url", None),
    ("cookie", Some('b')),
    ("max-redirs", None),
];

const FLAGS: &[(&str, Option<char>)] = &[
    ("silent", Some('s')),
    ("show-error", Some('S')),
    ("fail", Some('f')),
    ("fail-with-body", None),
    ("include", Some('i')),
    ("head", Some('I')),
    ("get", Some('G')),
    ("location", Some('L')),
    ("remote-name", Some('O')),
    ("insecure", Some('k')),
    ("compressed", None),
    ("verbose", Some('v')),
    ("no-progress-meter", None),
    ("http1.1", None),
    ("globoff", Some('g')),
];

fn seconds(v: &str) -> Option<Duration> {
    v.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0).map(Duration::from_secs_f64)
}

enum Parse {
    Run(Box<Opts>),
    /// Print this on stdout, exit 0 (`--help`, `--version`).
    Print(String),
    /// `curl: msg` and the exit status.
    Fail(String, i32),
}

async fn parse(ctx: &CommandContext<'_>, args: &[String]) -> Parse {
    let mut o = Opts::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        // (long name, attached value, as typed) for each option this word holds.
        let mut items: Vec<(String, Option<String>, String)> = Vec::new();
        if let Some(long) = a.strip_prefix("--") {
            if long.is_empty() {
                o.urls.extend(args[i..].iter().cloned());
                break;
            }
            items.push((long.to_string(), None, a.clone()));
        } else if a.len() > 1 && a.starts_with('-') {
            let chars: Vec<char> = a[1..].chars().collect();
            let mut k = 0;
            while k < chars.len() {
                let c = chars[k];
                k += 1;
                if let Some((name, _)) = WITH_VALUE.iter().find(|(_, s)| *s == Some(c)) {
                    let rest: String = chars[k..].iter().collect();
                    items.push((name.to_string(), (!rest.is_empty()).then_some(rest), format!("-{c}")));
                    break;
                }
                match FLAGS.iter().find(|(_, s)| *s == Some(c)) {
                    Some((name, _)) => items.push((name.to_string(), None, format!("-{c}"))),
                    None => return Parse::Fail(format!("option -{c}: is unknown"), 2),
                }
            }
        } else {
            o.urls.push(a.clone());
            continue;
        }
        for (name, attached, typed) in items {
            if name == "help" {
                return Parse::Print("Usage: curl [options...] <url>\n -d, --data <data>          HTTP POST data\n -f, --fail                 Fail fast with no output on HTTP errors\n -h, --help <category>      Get help for commands\n -i, --include              Include protocol response headers in the output\n -o, --output <file>        Write to file instead of stdout\n -O, --remote-name          Write output to a file named as the remote file\n -s, --silent               Silent mode\n -T, --upload-file <file>   Transfer local FILE to destination\n -u, --user <user:password> Server user and password\n -A, --user-agent <name>    Send User-Agent <name> to server\n -v, --verbose              Make the operation more talkative\n -V, --version              Show version number and quit\n".into());
            }
            if name == "version" {
                return Parse::Print(VERSION.into());
            }
            if WITH_VALUE.iter().any(|(n, _)| *n == name) {
                let value = match attached {
                    Some(v) => v,
                    None if i < args.len() => {
                        i += 1;
                        args[i - 1].clone()
                    }
                    None => return Parse::Fail(format!("option {typed}: requires parameter"), 2),
                };
                if let Err(msg) = set_value(ctx, &mut o, &name, value).await {
                    return Parse::Fail(msg.0, msg.1);
                }
            } else if FLAGS.iter().any(|(n, _)| *n == name) {
                match name.as_str() {
                    "silent" => o.silent = true,
                    "show-error" => o.show_error = true,
                    "fail" | "fail-with-body" => o.fail = true,
                    "include" => o.include = true,
                    "head" => o.head = true,
                    "get" => o.get = true,
                    "location" => o.location = true,
                    "remote-name" => o.remote_name = true,
                    "insecure" => {
                        return Parse::Fail(
                            "(60) --insecure is refused in this sandbox: certificates are always verified".into(),
                            60,
                        )
                    }
                    _ => {}
                }
            } else {
                return Parse::Fail(format!("option {typed}: is unknown"), 2);
            }
        }
    }
    Parse::Run(Box::new(o))
}

async fn set_value(ctx: &CommandContext<'_>, o: &mut Opts, name: &str, v: String) -> Result<(), (String, i32)> {
    match name {
        "request" => o.method = Some(v),
        "header" => {
            if let Some((k, val)) = v.split_once(':') {
                o.headers.push((k.trim().to_string(), val.trim().to_string()));
            }
        }
        "data" | "data-ascii" => o.data.push(net::data_arg(ctx, &v, true).await.map_err(|m| (m, 26))?),
        "data-binary" => o.data.push(net::data_arg(ctx, &v, false).await.map_err(|m| (m, 26))?),
        "data-raw" => o.data.push(v.into_bytes()),
        "data-urlencode" => o.data.push(net::urlencode_arg(ctx, &v).await.map_err(|m| (m, 26))?),
        "form" => o.form.push(v),
        "output" => o.output = Some(v),
        "write-out" => o.write_out = Some(v),
        "user" => o.user = Some(v),
        "user-agent" => o.headers.push(("User-Agent".into(), v)),
        "referer" => o.headers.push(("Referer".into(), v)),
        "cookie" => o.headers.push(("Cookie".into(), v)),
        "max-time" => {
            o.max_time =
                Some(seconds(&v).ok_or(("option --max-time: expected a proper numerical parameter".to_string(), 2))?)
        }
        "connect-timeout" => {
            o.connect_timeout = Some(
                seconds(&v)
                    .ok_or(("option --connect-timeout: expected a proper numerical parameter".to_string(), 2))?,
            )
        }
        "url" => o.urls.push(v),
        _ => {}
    }
    Ok(())
}

#[async_trait]
impl Utility for Curl {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let o = match parse(ctx, ctx.args).await {
            Parse::Run(o) => *o,
            Parse::Print(text) => {
                ctx.out(text.as_bytes()).await?;
                return Ok(0);
            }
            Parse::Fail(msg, code) => {
                ctx.err(msg).await?;
                if code == 2 {
                    ctx.err("try 'curl --help' or 'curl --manual' for more information").await?;
                }
                return Ok(code);
            }
        };
        if o.urls.is_empty() {
            ctx.err("no URL specified!").await?;
            return Err(UError::new(2, "try 'curl --help' or 'curl --manual' for more information"));
        }
        let mut status = 0;
        for raw in &o.urls {
            let code = fetch(ctx, &o, raw).await?;
            if code != 0 {
                status = code;
            }
        }
        Ok(status)
    }
}

/// Print `curl: (N) msg` unless silenced; return N.
async fn fail(ctx: &CommandContext<'_>, o: &Opts, code: i32, msg: &str) -> Result<i32, crate::io::IoError> {
    if !o.silent || o.show_error {
        ctx.err(format!("({code}) {msg}")).await?;
    }
    Ok(code)
}

async fn fetch(ctx: &CommandContext<'_>, o: &Opts, raw: &str) -> Result<i32, crate::io::IoError> {
    let with_scheme = if raw.contains("://") { raw.to_string() } else { format!("http://{raw}") };
    let mut url = match Url::parse(&with_scheme) {
        Ok(u) => u,
        Err(e) if e.starts_with("unsupported scheme") => {
            let scheme = raw.split("://").next().unwrap_or("");
            return fail(ctx, o, 1, &format!("Protocol \"{scheme}\" not supported or disabled in libcurl")).await;
        }
        Err(_) => return fail(ctx, o, 3, "URL using bad/illegal format or missing URL").await,
    };
    let mut body = Vec::new();
    let mut content_type = None;
    let mut method = if o.head { "HEAD" } else { "GET" }.to_string();
    if !o.data.is_empty() {
        let joined = o.data.join(&b'&');
        if o.get {
            let q = String::from_utf8_lossy(&joined).into_owned();
            url.query = Some(match url.query.take() {
                Some(old) => format!("{old}&{q}"),
                None => q,
            });
        } else {
            method = "POST".into();
            body = joined;
            content_type = Some("application/x-www-form-urlencoded".to_string());
        }
    } else if !o.form.is_empty() {
        match net::multipart(ctx, &o.form).await {
            Ok(Body { content_type: t, data }) => {
                method = "POST".into();
                content_type = Some(t);
                body = data;
            }
            Err(m) => return fail(ctx, o, 26, &m).await,
        }
    }
    if let Some(m) = &o.method {
        method = m.clone();
    }
    if o.remote_name && o.output.is_none() && url.file_name().is_none() {
        return fail(ctx, o, 23, "Remote file name has no length!").await;
    }
    // In curl's order: Authorization, User-Agent, Accept, the -H headers, then
    // Content-Length and Content-Type of a body.
    let mut headers: Vec<(String, String)> = Vec::new();
    let userinfo = o.user.clone().or_else(|| url.userinfo.clone().map(|u| net::percent_decode(&u)));
    if let Some(u) = userinfo {
        let u = if u.contains(':') { u } else { format!("{u}:") };
        headers.push(("Authorization".into(), format!("Basic {}", net::base64(u.as_bytes()))));
    }
    headers.push(("User-Agent".into(), "curl/7.88.1".into()));
    headers.push(("Accept".into(), "*/*".into()));
    let mut tail: Vec<(String, String)> = Vec::new();
    if !body.is_empty() || method == "POST" {
        tail.push(("Content-Length".into(), body.len().to_string()));
    }
    if let Some(t) = content_type {
        tail.push(("Content-Type".into(), t));
    }
    // A header given with -H replaces the default of the same name in place;
    // `X:` with no value removes it.
    for (k, v) in &o.headers {
        let slot = headers.iter().position(|(hk, _)| hk.eq_ignore_ascii_case(k));
        tail.retain(|(hk, _)| !hk.eq_ignore_ascii_case(k));
        match (slot, v.is_empty()) {
            (Some(i), true) => {
                headers.remove(i);
            }
            (Some(i), false) => headers[i].1 = v.clone(),
            (None, false) => headers.push((k.clone(), v.clone())),
            (None, true) => {}
        }
    }
    headers.extend(tail);

    let policy = &ctx.sys.net;
    let started = Instant::now();
    let req = Request {
        method,
        url: url.clone(),
        headers,
        body,
        connect_timeout: o.connect_timeout.or(o.max_time),
        max_body: ctx.budget.limits.max_response_bytes,
    };
    let exchange = async {
        let mut resp = client::send(policy, req).await?;
        let mut sink =
            net::Sink::new(ctx, o.output.as_deref(), o.remote_name.then(|| url.file_name().unwrap_or("")));
        let failed = o.fail && resp.status >= 400;
        if o.include || o.head {
            let mut head = format!("{} {} {}\r\n", resp.version, resp.status, resp.reason).into_bytes();
            for (k, v) in &resp.headers {
                head.extend_from_slice(net::title_case(k).as_bytes());
                head.extend_from_slice(b": ");
                head.extend_from_slice(v);
                head.extend_from_slice(b"\r\n");
            }
            head.extend_from_slice(b"\r\n");
            if !failed {
                sink.write(&head).await.map_err(Outcome::Io)?;
            }
        }
        let max = ctx.budget.limits.max_response_bytes;
        // A declared length past the cap fails before anything is written.
        if resp.header("content-length").and_then(|l| l.trim().parse::<u64>().ok()).is_some_and(|l| l > max) {
            return Err(Outcome::TooLarge(max));
        }
        if !failed {
            while let Some(chunk) = resp.chunk().await? {
                sink.write(&chunk).await.map_err(Outcome::Io)?;
                if !ctx.still_running() {
                    break;
                }
            }
        }
        sink.finish().await.map_err(Outcome::Io)?;
        let size = resp.received();
        Ok::<_, Outcome>((resp, size))
    };
    let result = match o.max_time {
        Some(t) => match tokio::time::timeout(t, exchange).await {
            Ok(r) => r,
            Err(_) => Err(Outcome::Timeout(started.elapsed())),
        },
        None => exchange.await,
    };
    match result {
        Ok((resp, size)) => {
            if let Some(w) = &o.write_out {
                let text = net::write_out(w, &resp, &url, size, started.elapsed());
                ctx.out(text.as_bytes()).await?;
            }
            if o.fail && resp.status >= 400 {
                return fail(ctx, o, 22, &format!("The requested URL returned error: {}", resp.status)).await;
            }
            if o.location && (300..400).contains(&resp.status) {
                if let Some(loc) = resp.header("location") {
                    if !o.silent || o.show_error {
                        ctx.err(format!("redirect to {loc} not followed: this sandbox never follows redirects"))
                            .await?;
                    }
                }
            }
            Ok(0)
        }
        Err(Outcome::Io(crate::io::IoError::Fs(e))) => {
            fail(ctx, o, 23, &format!("Failure writing output to destination: {e}")).await
        }
        Err(Outcome::Io(e)) => Err(e),
        Err(Outcome::TooLarge(max)) => {
            fail(ctx, o, 63, &format!("Maximum file size exceeded (max_response_bytes: {max})")).await
        }
        Err(Outcome::Timeout(d)) => {
            fail(ctx, o, 28, &format!("Operation timed out after {} milliseconds", d.as_millis())).await
        }
        Err(Outcome::Net(e)) => {
            let msg = match &e {
                NetError::NotAllowed => {
                    format!("Failed to connect to {} port {}: access denied by the sandbox's network allowlist (allow_net)", url.host, url.port)
                }
                NetError::Private(ip) => format!(
                    "Failed to connect to {} port {}: {ip} is a private or reserved address (blocked by block_private_ips)",
                    url.host, url.port
                ),
                NetError::Resolve => format!("Could not resolve host: {}", url.host),
                NetError::Connect(why) => format!(
                    "Failed to connect to {} port {} after {} ms: {}",
                    url.host,
                    url.port,
                    started.elapsed().as_millis(),
                    if why == "Connection refused" { "Couldn't connect to server" } else { why.as_str() }
                ),
                NetError::ConnectTimeout(d) => format!("Connection timed out after {} milliseconds", d.as_millis()),
                NetError::Tls(why) => format!("TLS connect error: {why}"),
                NetError::Protocol(why) => format!("Failure when receiving data from the peer: {why}"),
                NetError::TooLarge(max) => format!("Maximum file size exceeded (max_response_bytes: {max})"),
            };
            fail(ctx, o, e.curl_code(), &msg).await
        }
    }
}

enum Outcome {
    Net(NetError),
    Io(crate::io::IoError),
    TooLarge(u64),
    Timeout(Duration),
}

impl From<NetError> for Outcome {
    fn from(e: NetError) -> Self {
        match e {
            NetError::TooLarge(max) => Outcome::TooLarge(max),
            e => Outcome::Net(e),
        }
    }
}
