//! One HTTP/1.1 exchange under the session's [`Policy`]: the URL is checked
//! before anything happens, the host is resolved once, every address is checked,
//! and the connection goes to the checked address (a second lookup could answer
//! differently: DNS rebinding). TLS is rustls with the bundled web roots.
//! Redirects are never followed; the caller sees the 3xx response.

use super::policy::Policy;
use super::url::Url;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub struct Request {
    pub method: String,
    pub url: Url,
    /// Sent as given, after `Host` (unless one of them is `Host`).
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub connect_timeout: Option<Duration>,
    /// Most bytes the response body may hold (`max_response_bytes`).
    pub max_body: u64,
}

/// Why a request did not complete; each maps to curl's exit code and words.
#[derive(Debug)]
pub enum NetError {
    /// The allowlist does not cover the URL: nothing was attempted.
    NotAllowed,
    /// The host resolved to a private or reserved address while those are blocked.
    Private(IpAddr),
    Resolve,
    Connect(String),
    ConnectTimeout(Duration),
    Tls(String),
    /// The server's answer was not valid HTTP, or the connection dropped.
    Protocol(String),
    /// The body grew past the request's `max_body`.
    TooLarge(u64),
}

impl NetError {
    /// curl's exit code.
    pub fn curl_code(&self) -> i32 {
        match self {
            NetError::NotAllowed | NetError::Private(_) | NetError::Connect(_) => 7,
            NetError::Resolve => 6,
            NetError::ConnectTimeout(_) => 28,
            NetError::Tls(_) => 35,
            NetError::Protocol(_) => 56,
            NetError::TooLarge(_) => 63,
        }
    }
}

/// A response whose body is still arriving.
pub struct Response {
    pub status: u16,
    pub reason: String,
    pub version: &'static str,
    pub headers: Vec<(String, Vec<u8>)>,
    body: hyper::body::Incoming,
    max_body: u64,
    received: u64,
    /// Stops the connection task when the response is dropped (a cancelled exec).
    _conn: AbortOnDrop,
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Response {
    /// The next piece of the body; `Ok(None)` at its end, `TooLarge` once
    /// the body passes the request's cap.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, NetError> {
        loop {
            match self.body.frame().await {
                None => return Ok(None),
                Some(Err(e)) => return Err(NetError::Protocol(e.to_string())),
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.received += data.len() as u64;
                        if self.received > self.max_body {
                            return Err(NetError::TooLarge(self.max_body));
                        }
                        return Ok(Some(data));
                    }
                }
            }
        }
    }

    /// Body bytes received so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
    }
}

fn tls_config() -> Arc<rustls::ClientConfig> {
    static CONFIG: OnceLock<Arc<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let builder = rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .unwrap_or_else(|_| rustls::ClientConfig::builder_with_protocol_versions(rustls::DEFAULT_VERSIONS));
            Arc::new(builder.with_root_certificates(roots).with_no_client_auth())
        })
        .clone()
}

/// The addresses to try, all of them checked. A name with any blocked
/// address is refused whole: rebinding answers often mix public and private ones.
async fn resolve(policy: &Policy, url: &Url) -> Result<Vec<SocketAddr>, NetError> {
    let addrs: Vec<SocketAddr> = match url.host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, url.port)],
        Err(_) => {
            let found = tokio::net::lookup_host((url.host.as_str(), url.port)).await.map_err(|_| NetError::Resolve)?;
            found.take(16).collect()
        }
    };
    if addrs.is_empty() {
        return Err(NetError::Resolve);
    }
    if let Some(bad) = addrs.iter().find(|a| !policy.permits_ip(a.ip())) {
        return Err(NetError::Private(bad.ip()));
    }
    Ok(addrs)
}

async fn connect(addrs: &[SocketAddr], timeout: Option<Duration>) -> Result<tokio::net::TcpStream, NetError> {
    let started = Instant::now();
    let mut last = String::from("Couldn't connect to server");
    for a in addrs {
        let attempt = tokio::net::TcpStream::connect(a);
        let res = match timeout {
            Some(t) => match tokio::time::timeout(t.saturating_sub(started.elapsed()), attempt).await {
                Ok(r) => r,
                Err(_) => return Err(NetError::ConnectTimeout(started.elapsed())),
            },
            None => attempt.await,
        };
        match res {
            Ok(s) => return Ok(s),
            // curl's words for a refused connection; wget says "Connection refused".
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => last = "Connection refused".into(),
            Err(e) => last = e.to_string(),
        }
    }
    Err(NetError::Connect(last))
}

/// Send `req` and return the response head; the body streams from [`Response::chunk`].
pub async fn send(policy: &Policy, req: Request) -> Result<Response, NetError> {
    if !policy.permits(&req.url) {
        return Err(NetError::NotAllowed);
    }
    let addrs = resolve(policy, &req.url).await?;
    let tcp = connect(&addrs, req.connect_timeout).await?;
    let _ = tcp.set_nodelay(true);
    let http_req = build(&req)?;
    if req.url.scheme == "https" {
        let name = rustls::pki_types::ServerName::try_from(req.url.host.clone())
            .map_err(|_| NetError::Tls(format!("bad server name {}", req.url.host)))?;
        let tls = tokio_rustls::TlsConnector::from(tls_config())
            .connect(name, tcp)
            .await
            .map_err(|e| NetError::Tls(e.to_string()))?;
        exchange(TokioIo::new(tls), http_req, req.max_body).await
    } else {
        exchange(TokioIo::new(tcp), http_req, req.max_body).await
    }
}

fn build(req: &Request) -> Result<hyper::Request<Full<Bytes>>, NetError> {
    let mut b = hyper::Request::builder().method(req.method.as_str()).uri(req.url.target());
    if !req.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        b = b.header("Host", req.url.host_header());
    }
    for (k, v) in &req.headers {
        b = b.header(k.as_str(), v.as_str());
    }
    b.body(Full::new(Bytes::from(req.body.clone()))).map_err(|e| NetError::Protocol(e.to_string()))
}

async fn exchange<T>(io: TokioIo<T>, req: hyper::Request<Full<Bytes>>, max_body: u64) -> Result<Response, NetError>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    // Header names go out as curl writes them (`User-Agent`), not lowercased.
    let (mut sender, conn) = hyper::client::conn::http1::Builder::new()
        .title_case_headers(true)
        .handshake(io)
        .await
        .map_err(|e| NetError::Protocol(e.to_string()))?;
    let conn = AbortOnDrop(tokio::spawn(async move {
        let _ = conn.await;
    }));
    let resp = sender.send_request(req).await.map_err(|e| NetError::Protocol(e.to_string()))?;
    let version = match resp.version() {
        hyper::Version::HTTP_10 => "HTTP/1.0",
        _ => "HTTP/1.1",
    };
    let status = resp.status();
    let headers = resp.headers().iter().map(|(k, v)| (k.as_str().to_string(), v.as_bytes().to_vec())).collect();
    Ok(Response {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or("").to_string(),
        version,
        headers,
        body: resp.into_body(),
        max_body,
        received: 0,
        _conn: conn,
    })
}
