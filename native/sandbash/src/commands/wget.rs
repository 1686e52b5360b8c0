//! `wget`: fetch a URL into a file (or `-O -` to stdout) under the session's
//! network policy: `-q -O --header --post-data --post-file -U -T --method`.
//! Exit statuses as GNU Wget: 4 network failure, 8 server error, 1 generic,
//! 2 usage. The log on stderr is Wget's, without the progress bar.

use super::util::net::Sink;
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use crate::net::client::{self, NetError, Request};
use crate::net::Url;
use async_trait::async_trait;
use std::time::Duration;

pub struct Wget;

#[derive(Default)]
struct Opts {
    quiet: bool,
    output: Option<String>,
    headers: Vec<(String, String)>,
    body: Option<Vec<u8>>,
    method: Option<String>,
    agent: Option<String>,
    timeout: Option<Duration>,
    urls: Vec<String>,
}

fn usage(msg: &str) -> String {
    format!("{msg}\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.")
}

async fn parse(ctx: &CommandContext<'_>, args: &[String]) -> Result<Opts, (String, i32)> {
    let mut o = Opts::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].clone();
        i += 1;
        let (name, inline) = match a.strip_prefix("--") {
            Some(l) => match l.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (l.to_string(), None),
            },
            None if a.len() > 1 && a.starts_with('-') => {
                let short = &a[1..2];
                let rest = &a[2..];
                let long = match short {
                    "q" => "quiet",
                    "O" => "output-document",
                    "U" => "user-agent",
                    "T" => "timeout",
                    "t" => "tries",
                    "c" => "continue",
                    "S" => "server-response",
                    _ => return Err((usage(&format!("wget: invalid option -- '{short}'")), 2)),
                };
                (long.to_string(), (!rest.is_empty()).then(|| rest.to_string()))
            }
            None => {
                o.urls.push(a);
                continue;
            }
        };
        let takes = [
            "output-document",
            "header",
            "post-data",
            "post-file",
            "user-agent",
            "timeout",
            "tries",
            "method",
            "body-data",
        ];
        let value = if takes.contains(&name.as_str()) {
            match inline {
                Some(v) => Some(v),
                None if i < args.len() => {
                    i += 1;
                    Some(args[i - 1].clone())
                }
                None => return Err((usage(&format!("wget: option requires an argument -- '{name}'")), 2)),
            }
        } else {
            None
        };
        let v = value.unwrap_or_default();
        match name.as_str() {
            "quiet" => o.quiet = true,
            "no-verbose" | "continue" | "server-response" | "no-check-certificate" | "tries" => {
                if name == "no-check-certificate" {
                    return Err((
                        "wget: --no-check-certificate is refused in this sandbox: certificates are always verified"
                            .into(),
                        1,
                    ));
                }
            }
            "output-document" => o.output = Some(v),
            "header" => {
                if let Some((k, val)) = v.split_once(':') {
                    o.headers.push((k.trim().to_string(), val.trim().to_string()));
                }
            }
            "post-data" | "body-data" => o.body = Some(v.into_bytes()),
            "post-file" => o.body = Some(ctx.read_operand(&v).await.map_err(|e| (format!("wget: {v}: {e}"), 3))?),
            "method" => o.method = Some(v.to_ascii_uppercase()),
            "user-agent" => o.agent = Some(v),
            "timeout" => {
                o.timeout = v.parse::<f64>().ok().filter(|s| *s > 0.0 && s.is_finite()).map(Duration::from_secs_f64)
            }
            "help" => {
                return Err((
                    "GNU Wget 1.21.3, a non-interactive network retriever.\nUsage: wget [OPTION]... [URL]...".into(),
                    0,
                ))
            }
            "version" => return Err(("GNU Wget 1.21.3 built on linux-gnu.".into(), 0)),
            _ => return Err((usage(&format!("wget: unrecognized option '--{name}'")), 2)),
        }
    }
    Ok(o)
}

/// Expand `-qO-` into `-q -O -` before parsing, the way getopt reads bundles.
fn split_bundles(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        if a.len() > 2 && a.starts_with('-') && !a.starts_with("--") && a[1..].starts_with('q') {
            out.push("-q".to_string());
            let rest = &a[2..];
            if !rest.is_empty() {
                out.push(format!("-{rest}"));
            }
        } else {
            out.push(a.clone());
        }
    }
    out
}

#[async_trait]
impl Utility for Wget {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = split_bundles(ctx.args);
        let o = match parse(ctx, &args).await {
            Ok(o) => o,
            Err((msg, 0)) => {
                ctx.out(format!("{msg}\n").as_bytes()).await?;
                return Ok(0);
            }
            Err((msg, code)) => {
                ctx.stderr.write(format!("{msg}\n").as_bytes()).await?;
                return Ok(code);
            }
        };
        if o.urls.is_empty() {
            ctx.stderr.write(usage("wget: missing URL").as_bytes()).await?;
            ctx.stderr.write(b"\n").await?;
            return Ok(1);
        }
        let mut status = 0;
        for raw in &o.urls {
            let s = fetch(ctx, &o, raw).await?;
            if s != 0 {
                status = s;
            }
        }
        Ok(status)
    }
}

async fn log(ctx: &CommandContext<'_>, o: &Opts, line: &str) -> Result<(), crate::io::IoError> {
    if o.quiet {
        return Ok(());
    }
    ctx.stderr.write(format!("{line}\n").as_bytes()).await
}

async fn fetch(ctx: &CommandContext<'_>, o: &Opts, raw: &str) -> Result<i32, crate::io::IoError> {
    let with_scheme = if raw.contains("://") { raw.to_string() } else { format!("http://{raw}") };
    let url = match Url::parse(&with_scheme) {
        Ok(u) => u,
        Err(_) => {
            ctx.stderr.write(format!("{raw}: Invalid URL.\n").as_bytes()).await?;
            return Ok(1);
        }
    };
    let now = jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M:%S").to_string();
    log(ctx, o, &format!("--{now}--  {url}")).await?;
    let method = o.method.clone().unwrap_or_else(|| if o.body.is_some() { "POST".into() } else { "GET".into() });
    let mut headers = vec![
        ("User-Agent".to_string(), o.agent.clone().unwrap_or_else(|| "Wget/1.21.3".into())),
        ("Accept".to_string(), "*/*".to_string()),
    ];
    let body = o.body.clone().unwrap_or_default();
    if o.body.is_some() {
        headers.push(("Content-Type".into(), "application/x-www-form-urlencoded".into()));
        headers.push(("Content-Length".into(), body.len().to_string()));
    }
    for (k, v) in &o.headers {
        headers.retain(|(hk, _)| !hk.eq_ignore_ascii_case(k));
        headers.push((k.clone(), v.clone()));
    }
    let req = Request {
        method,
        url: url.clone(),
        headers,
        body,
        connect_timeout: o.timeout,
        max_body: ctx.budget.limits.max_response_bytes,
    };
    let mut resp = match client::send(&ctx.sys.net, req).await {
        Ok(r) => r,
        Err(e) => {
            let msg = match e {
                NetError::NotAllowed => format!("{url}: access denied by the sandbox's network allowlist (allow_net)."),
                NetError::Private(ip) => {
                    format!("Connecting to {}:{}... failed: {ip} is a private or reserved address (blocked by block_private_ips).", url.host, url.port)
                }
                NetError::Resolve => format!("wget: unable to resolve host address ‘{}’", url.host),
                NetError::Connect(why) => format!("Connecting to {}:{}... failed: {why}.", url.host, url.port),
                NetError::ConnectTimeout(_) => {
                    format!("Connecting to {}:{}... failed: Connection timed out.", url.host, url.port)
                }
                NetError::Tls(why) => format!("Unable to establish SSL connection: {why}."),
                NetError::Protocol(why) => format!("Read error ({why})."),
                NetError::TooLarge(max) => format!("wget: response too large (max_response_bytes: {max})"),
            };
            log(ctx, o, &msg).await?;
            return Ok(4);
        }
    };
    log(ctx, o, &format!("HTTP request sent, awaiting response... {} {}", resp.status, resp.reason)).await?;
    if resp.status >= 400 {
        log(ctx, o, &format!("{now} ERROR {}: {}.", resp.status, resp.reason)).await?;
        return Ok(8);
    }
    if (300..400).contains(&resp.status) {
        let loc = resp.header("location").unwrap_or_default();
        log(ctx, o, &format!("Location: {loc} [not followed: this sandbox never follows redirects]")).await?;
        return Ok(8);
    }
    let name = match o.output.as_deref() {
        Some(p) => p.to_string(),
        None => free_name(ctx, url.file_name().unwrap_or("index.html")).await,
    };
    let to_stdout = name == "-";
    if !to_stdout {
        log(ctx, o, &format!("Saving to: ‘{name}’")).await?;
    }
    let mut sink = Sink::new(ctx, Some(&name), None);
    loop {
        match resp.chunk().await {
            Ok(Some(c)) => {
                if let Err(e) = sink.write(&c).await {
                    ctx.stderr.write(format!("wget: {name}: {e}\n").as_bytes()).await?;
                    return Ok(3);
                }
            }
            Ok(None) => break,
            Err(NetError::TooLarge(max)) => {
                ctx.stderr.write(format!("wget: response too large (max_response_bytes: {max})\n").as_bytes()).await?;
                return Ok(1);
            }
            Err(_) => {
                ctx.stderr.write(b"Read error.\n").await?;
                return Ok(4);
            }
        }
    }
    if let Err(e) = sink.finish().await {
        ctx.stderr.write(format!("wget: {name}: {e}\n").as_bytes()).await?;
        return Ok(3);
    }
    if !to_stdout {
        let size = resp.received();
        log(ctx, o, &format!("\n{now} - ‘{name}’ saved [{size}/{size}]\n")).await?;
    }
    Ok(0)
}

/// Wget never overwrites without `-O`: `name`, then `name.1`, `name.2`, ...
async fn free_name(ctx: &CommandContext<'_>, name: &str) -> String {
    if ctx.fs.symlink_metadata(&ctx.resolve(name)).await.is_err() {
        return name.to_string();
    }
    for n in 1..10_000 {
        let candidate = format!("{name}.{n}");
        if ctx.fs.symlink_metadata(&ctx.resolve(&candidate)).await.is_err() {
            return candidate;
        }
    }
    name.to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn bundles() {
        let a: Vec<String> = ["-qO-", "-q", "u"].iter().map(|s| s.to_string()).collect();
        assert_eq!(super::split_bundles(&a), ["-q", "-O-", "-q", "u"]);
    }
}
