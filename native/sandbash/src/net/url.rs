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
        let path = normalize_path(path);
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

/// The path a server will see, so the allowlist matches what is requested and
/// the request carries exactly what was matched: percent-encoded dots and
/// slashes decoded (`%2e`, `%2f`, and `%5c` or `\` as a slash, as some servers
/// take it), `;parameters` dropped from each segment (`/a/..;/b` is `/b` to
/// some servers), empty and `.` segments removed and `..` resolved (never above
/// the root). A trailing slash is kept.
pub fn normalize_path(raw: &str) -> String {
    let mut decoded = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find(['%', '\\']) {
        decoded.push_str(&rest[..i]);
        if rest[i..].starts_with('\\') {
            decoded.push('/');
            rest = &rest[i + 1..];
            continue;
        }
        let code = rest.get(i + 1..i + 3).map(str::to_ascii_lowercase);
        match code.as_deref() {
            Some("2e") => decoded.push('.'),
            Some("2f") | Some("5c") => decoded.push('/'),
            _ => {
                decoded.push('%');
                rest = &rest[i + 1..];
                continue;
            }
        }
        rest = &rest[i + 3..];
    }
    decoded.push_str(rest);
    let mut segments: Vec<&str> = Vec::new();
    for seg in decoded.split('/') {
        let seg = seg.split(';').next().unwrap_or("");
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    let trailing = decoded.ends_with('/') || decoded.ends_with("/.") || decoded.ends_with("/..");
    let mut out = String::with_capacity(decoded.len() + 1);
    for s in &segments {
        out.push('/');
        out.push_str(s);
    }
    if out.is_empty() || (trailing && !segments.is_empty()) {
        out.push('/');
    }
    out
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
        for (raw, sent) in [
            ("/allowed/../secret", "/secret"),
            ("/allowed/%2e%2e/secret", "/secret"),
            ("/allowed/%2E%2e/secret", "/secret"),
            ("/allowed%2f..%2fsecret", "/secret"),
            ("/allowed/..;/secret", "/secret"),
            ("/allowed/..\\secret", "/secret"),
            ("/allowed//x/./y/", "/allowed/x/y/"),
            ("/allowed;jsessionid=1/x", "/allowed/x"),
            ("/../../etc/passwd", "/etc/passwd"),
            ("/a/%41%2e", "/a/%41."),
            ("/a/b/..", "/a/"),
            ("", "/"),
        ] {
            let u = Url::parse(&format!("http://h{raw}")).unwrap();
            assert_eq!(u.path, sent, "{raw}");
            assert!(u.target().starts_with(sent), "{raw}");
        }
        for bad in ["example.com", "ftp://x", "http://", "http://h:99999/", "http://a b/", "http://[::1/"] {
            assert!(Url::parse(bad).is_err(), "{bad}");
        }
    }
}
