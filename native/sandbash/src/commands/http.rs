//! `http`: an HTTPie-style front on the same client and policy as curl:
//! `http [flags] [METHOD] URL [ITEM...]` with items `Header:value`,
//! `name==query`, `field=string`, `field:=json`. Fields make a JSON object body
//! (`-f`: a form). Standard output is never a terminal here, so, as HTTPie
//! does then, only the response body is printed (`--print`/`-h`/`-v` choose).

use super::util::net;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::net::client::{self, NetError, Request};
use crate::net::Url;
use async_trait::async_trait;

pub struct Http;

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[async_trait]
impl Utility for Http {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut form = false;
        let mut check_status = false;
        let mut print = "b".to_string();
        let mut words: Vec<&String> = Vec::new();
        for a in ctx.args {
            match a.as_str() {
                "-f" | "--form" => form = true,
                "-j" | "--json" | "--ignore-stdin" | "-I" => {}
                "--check-status" => check_status = true,
                "-h" | "--headers" => print = "h".into(),
                "-b" | "--body" => print = "b".into(),
                "-v" | "--verbose" => print = "HBhb".into(),
                "--version" => {
                    ctx.out(b"3.2.1\n").await?;
                    return Ok(0);
                }
                p if p.starts_with("--print=") => print = p["--print=".len()..].to_string(),
                p if p.starts_with('-') && p.len() > 1 => {
                    return Err(UError::new(2, format!("error: unrecognized arguments: {p}")));
                }
                _ => words.push(a),
            }
        }
        let mut rest = words.into_iter();
        let (method, raw_url) = match (rest.next(), rest.clone().next()) {
            (Some(m), Some(u)) if !m.is_empty() && m.chars().all(|c| c.is_ascii_uppercase()) => {
                rest.next();
                (Some(m.clone()), u.clone())
            }
            (Some(u), _) => (None, u.clone()),
            (None, _) => {
                ctx.stderr
                    .write(b"usage:\n    http [METHOD] URL [REQUEST_ITEM ...]\n\nerror:\n    the following arguments are required: URL\n")
                    .await?;
                return Ok(2);
            }
        };
        let url_text = if let Some(local) = raw_url.strip_prefix(':') {
            format!("http://localhost:{local}")
        } else if raw_url.contains("://") {
            raw_url.clone()
        } else {
            format!("http://{raw_url}")
        };
        let mut url = match Url::parse(&url_text) {
            Ok(u) => u,
            Err(e) => {
                return Err(UError::new(1, format!("error: InvalidURL: {e}")));
            }
        };
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut query: Vec<String> = Vec::new();
        for item in rest {
            if let Some((k, v)) = item.split_once("==") {
                query.push(format!(
                    "{}={}",
                    net::percent_encode(k.as_bytes()),
                    net::percent_encode(v.as_bytes())
                ));
            } else if let Some((k, v)) = item.split_once(":=") {
                fields.push((k.to_string(), v.to_string()));
            } else if let Some((k, v)) = item.split_once('=') {
                fields.push((k.to_string(), if form { v.to_string() } else { json_string(v) }));
            } else if let Some((k, v)) = item.split_once(':') {
                headers.push((k.to_string(), v.trim().to_string()));
            } else {
                return Err(UError::new(2, format!("error: argument REQUEST_ITEM: \"{item}\" is not a valid value")));
            }
        }
        if !query.is_empty() {
            let q = query.join("&");
            url.query = Some(match url.query.take() {
                Some(old) => format!("{old}&{q}"),
                None => q,
            });
        }
        let body = if fields.is_empty() {
            Vec::new()
        } else if form {
            fields
                .iter()
                .map(|(k, v)| {
                    format!("{}={}", net::percent_encode(k.as_bytes()), net::percent_encode(v.as_bytes()))
                })
                .collect::<Vec<_>>()
                .join("&")
                .into_bytes()
        } else {
            let inner: Vec<String> = fields.iter().map(|(k, v)| format!("{}: {v}", json_string(k))).collect();
            format!("{{{}}}", inner.join(", ")).into_bytes()
        };
        let method = method.unwrap_or_else(|| if body.is_empty() { "GET".into() } else { "POST".into() });
        let mut all = vec![("User-Agent".to_string(), "HTTPie/3.2.1".to_string())];
        if form {
            all.push(("Accept".into(), "*/*".into()));
        } else {
            all.push(("Accept".into(), if body.is_empty() { "*/*" } else { "application/json, */*;q=0.5" }.into()));
        }
        if !body.is_empty() {
            let ct = if form { "application/x-www-form-urlencoded; charset=utf-8" } else { "application/json" };
            all.push(("Content-Type".into(), ct.into()));
            all.push(("Content-Length".into(), body.len().to_string()));
        }
        for (k, v) in headers {
            all.retain(|(hk, _)| !hk.eq_ignore_ascii_case(&k));
            all.push((k, v));
        }
        let req = Request {
            method: method.clone(),
            url: url.clone(),
            headers: all,
            body,
            connect_timeout: None,
            max_body: ctx.budget.limits.max_response_bytes,
        };
        let mut resp = match client::send(&ctx.sys.net, req).await {
            Ok(r) => r,
            Err(e) => {
                let why = match e {
                    NetError::NotAllowed => "access denied by the sandbox's network allowlist (allow_net)".to_string(),
                    NetError::Private(ip) => {
                        format!("{ip} is a private or reserved address (blocked by block_private_ips)")
                    }
                    NetError::Resolve => format!("Failed to resolve '{}'", url.host),
                    NetError::Connect(w) | NetError::Tls(w) | NetError::Protocol(w) => w,
                    NetError::ConnectTimeout(_) => "timed out".to_string(),
                    NetError::TooLarge(max) => format!("response too large (max_response_bytes: {max})"),
                };
                return Err(UError::new(1, format!("error: ConnectionError: {why} while doing a {method} request to URL: {url}")));
            }
        };
        if print.contains('h') {
            let mut head = format!("{} {} {}\n", resp.version, resp.status, resp.reason);
            for (k, v) in &resp.headers {
                head.push_str(&format!("{}: {}\n", net::title_case(k), String::from_utf8_lossy(v)));
            }
            head.push('\n');
            ctx.out(head.as_bytes()).await?;
        }
        loop {
            match resp.chunk().await {
                Ok(Some(c)) => {
                    if print.contains('b') {
                        ctx.out(&c).await?;
                    }
                }
                Ok(None) => break,
                Err(NetError::TooLarge(max)) => {
                    return Err(UError::new(1, format!("error: response too large (max_response_bytes: {max})")));
                }
                Err(e) => {
                    return Err(UError::new(1, format!("error: {e:?}")));
                }
            }
        }
        if check_status && resp.status >= 300 {
            return Err(UError::new(i32::from(resp.status / 100), format!("warning: HTTP {} {}", resp.status, resp.reason)));
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_strings() {
        assert_eq!(super::json_string("a\"b\\\n\u{1}é"), "\"a\\\"b\\\\\\n\\u0001é\"");
    }
}
