//! The `http://` and `https://` URLs the network commands take: just enough
//! parsing to match the allowlist and to make a request, nothing guessed.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    /// `http` or `https`.
    pub scheme: String,
    /// `user:password` before `@`, as written.
    pub userinfo: Option<String>,
    /// Lowercased; an IPv6 literal without its brackets.
    pub host: String,
    /// Explicit, or the scheme's default.
    pub port: u16,
    /// Starts with `/`.
    pub path: String,
    /// After `?`, without it.
    pub query: Option<String>,
}

impl Url {
    pub fn parse(s: &str) -> Result<Url, String> {
        let (scheme, rest) = s.split_once("://").ok_or("no scheme (expected http:// or https://)")?;
        let scheme = scheme.to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            other => return Err(format!("unsupported scheme {other:?}")),
        };
        let rest = rest.split('#').next().unwrap_or("");
        let split_at = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(split_at);
        let (userinfo, hostport) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u.to_string()), h),
            None => (None, authority),
        };
        let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
            let (h, after) = v6.split_once(']').ok_or("unterminated IPv6 address")?;
            h.parse::<std::net::Ipv6Addr>().map_err(|_| format!("bad IPv6 address {h:?}"))?;
            let port = match after {
                "" => None,
                p => Some(p.strip_prefix(':').ok_or("junk after IPv6 address")?),
            };
            (h.to_string(), port)
        } else {
            match hostport.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), Some(p)),
                None => (hostport.to_string(), None),
            }
        };
        if host.is_empty() {
            return Err("no host".into());
        }
        if host.bytes().any(|b| b.is_ascii_whitespace() || b.is_ascii_control() || b"/\\@?#%".contains(&b)) {
            return Err(format!("bad host {host:?}"));
        }
        let port = match port {
            None | Some("") => default_port,
            Some(p) => p.parse::<u16>().map_err(|_| format!("bad port {p:?}"))?,
        };
        let (path, query) = match tail.split_once('?') {
            Some((p, q)) => (p, Some(q.to_string())),
            None => (tail, None),
        };
        let path = if path.is_empty() { "/".to_string() } else { path.to_string() };
        if path.bytes().chain(query.iter().flat_map(|q| q.bytes())).any(|b| b.is_ascii_control() || b == b' ') {
            return Err("bad character in path".into());
        }
        Ok(Url { scheme, userinfo, host: host.to_ascii_lowercase(), port, path, query })
    }

    pub fn default_port(&self) -> bool {
        (self.scheme == "http" && self.port == 80) || (self.scheme == "https" && self.port == 443)
    }

    /// The `Host:` header value.
    pub fn host_header(&self) -> String {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        if self.default_port() {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }

    /// Path and query, as sent in the request line.
    pub fn target(&self) -> String {
        match &self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.clone(),
        }
    }

    /// The last path segment (`curl -O`, `wget`'s default file name).
    pub fn file_name(&self) -> Option<&str> {
        self.path.rsplit('/').next().filter(|n| !n.is_empty())
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}{}", self.scheme, self.host_header(), self.target())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_parts() {
        let u = Url::parse("HTTPS://user:pw@Example.COM:8443/a/b?x=1#frag").unwrap();
        assert_eq!(
            (u.scheme.as_str(), u.userinfo.as_deref(), u.host.as_str(), u.port, u.path.as_str(), u.query.as_deref()),
            ("https", Some("user:pw"), "example.com", 8443, "/a/b", Some("x=1"))
        );
        let u = Url::parse("http://[::1]:8080").unwrap();
        assert_eq!((u.host.as_str(), u.port, u.path.as_str()), ("::1", 8080, "/"));
        assert_eq!(u.host_header(), "[::1]:8080");
        assert_eq!(Url::parse("http://h?q").unwrap().target(), "/?q");
        for bad in ["example.com", "ftp://x", "http://", "http://h:99999/", "http://a b/", "http://[::1/"] {
            assert!(Url::parse(bad).is_err(), "{bad}");
        }
    }
}
