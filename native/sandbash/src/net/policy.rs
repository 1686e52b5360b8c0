//! Who a script may talk to: the `:allow_net` allowlist (URL patterns matched
//! literally on scheme, host, port and path prefix, no DNS at match time) and
//! the private-address block applied to every address a name resolves to.

use super::url::Url;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A session's network policy. The default reaches nothing.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// `None`: no network at all; `Some(None)`: any URL; `Some(Some(list))`: these.
    allow: Option<Option<Vec<Url>>>,
    /// Refuse addresses in private and reserved ranges (on unless turned off).
    allow_private: bool,
}

impl Policy {
    /// No network (the default).
    pub fn none() -> Self {
        Policy::default()
    }

    /// Any URL (`allow_net: :all`).
    pub fn all() -> Self {
        Policy { allow: Some(None), allow_private: false }
    }

    /// URLs matching one of `patterns`; a pattern must name its scheme and host.
    pub fn allow(patterns: &[String]) -> Result<Self, String> {
        let list = patterns
            .iter()
            .map(|p| match Url::parse(p) {
                Ok(u) => Ok(u),
                Err(e) => Err(format!("bad allow_net pattern {p:?}: {e}")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Policy { allow: Some(Some(list)), allow_private: false })
    }

    /// `block_private_ips: false`.
    pub fn with_private_ips(mut self, allowed: bool) -> Self {
        self.allow_private = allowed;
        self
    }

    /// Whether any network access is configured.
    pub fn enabled(&self) -> bool {
        self.allow.is_some()
    }

    /// Whether `url` may be requested (before any DNS lookup).
    pub fn permits(&self, url: &Url) -> bool {
        match &self.allow {
            None => false,
            Some(None) => true,
            Some(Some(list)) => list.iter().any(|p| matches(p, url)),
        }
    }

    /// Whether a connection to `ip` may be made.
    pub fn permits_ip(&self, ip: IpAddr) -> bool {
        self.allow_private || !is_private(ip)
    }
}

/// A pattern matches a URL with the same scheme, host (case-insensitive) and
/// port, whose path starts with the pattern's path at a segment boundary.
fn matches(p: &Url, u: &Url) -> bool {
    if p.scheme != u.scheme || !p.host.eq_ignore_ascii_case(&u.host) || p.port != u.port {
        return false;
    }
    let pp = p.path.trim_end_matches('/');
    if pp.is_empty() {
        return true;
    }
    u.path == pp || u.path.starts_with(&format!("{pp}/")) || (p.path.ends_with('/') && u.path.starts_with(&p.path))
}

/// Loopback, RFC 1918, link-local, CGNAT, ULA, multicast, unspecified,
/// documentation and other reserved ranges, and IPv4 inside IPv6 forms.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => private_v4(v4),
        IpAddr::V6(v6) => private_v6(v6),
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // CGNAT 100.64/10
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240 // reserved
}

fn private_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return private_v4(v4);
    }
    let seg = ip.segments();
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (seg[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
        || (seg[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (seg[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (seg[0] == 0x2001 && seg[1] == 0x0db8) // documentation
        || (seg[0] == 0x64 && seg[1] == 0xff9b) // NAT64 holds IPv4 inside
        || (seg[0] == 0x2002) // 6to4 holds IPv4 inside
        || seg[..6] == [0, 0, 0, 0, 0, 0] // IPv4-compatible ::a.b.c.d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("url")
    }

    #[test]
    fn patterns_match_scheme_host_port_and_path_prefix() {
        let p = Policy::allow(&["https://api.example.com".into(), "https://cdn.example.com/assets".into()]).unwrap();
        assert!(p.permits(&url("https://api.example.com/v1/health")));
        assert!(p.permits(&url("https://API.example.com")));
        assert!(p.permits(&url("https://cdn.example.com/assets/x.png")));
        assert!(p.permits(&url("https://cdn.example.com/assets")));
        assert!(!p.permits(&url("https://cdn.example.com/assetsX")));
        assert!(!p.permits(&url("https://cdn.example.com/other")));
        assert!(!p.permits(&url("http://api.example.com/")));
        assert!(!p.permits(&url("https://api.example.com:8443/")));
        assert!(!p.permits(&url("https://api.example.com.evil.com/")));
        assert!(!p.permits(&url("https://evil.com/api.example.com")));
        assert!(!p.permits(&url("https://api.example.com@evil.com/")));
        assert!(!p.permits(&url("https://evil.com#@api.example.com")));
        assert!(!p.permits(&url("https://evil.com?@api.example.com")));
        assert!(!Policy::none().permits(&url("https://api.example.com")));
        assert!(Policy::all().permits(&url("http://anything:1/")));
    }

    #[test]
    fn the_path_is_matched_as_the_server_will_see_it() {
        let p = Policy::allow(&["http://h/allowed".into()]).unwrap();
        for out in [
            "http://h/allowed/../secret",
            "http://h/allowed/%2e%2e/secret",
            "http://h/allowed/%2E%2E/secret",
            "http://h/allowed%2f..%2fsecret",
            "http://h/allowed/..%2fsecret",
            "http://h/allowed/..;/secret",
            "http://h/allowed/..\\secret",
            "http://h/allowed/x/../../secret",
            "http://h//allowed/../secret",
        ] {
            assert!(!p.permits(&url(out)), "{out}");
        }
        for inside in ["http://h/allowed//x", "http://h/allowed/./x", "http://h/allowed/x/../y", "http://h//allowed/"] {
            assert!(p.permits(&url(inside)), "{inside}");
        }
        // A pattern written with dots means its normalized form.
        let p = Policy::allow(&["http://h/a/../b/".into()]).unwrap();
        assert!(p.permits(&url("http://h/b/x")));
        assert!(!p.permits(&url("http://h/a/x")));
    }

    #[test]
    fn patterns_need_a_scheme() {
        assert!(Policy::allow(&["api.example.com".into()]).is_err());
        assert!(Policy::allow(&["ftp://x.com".into()]).is_err());
    }

    #[test]
    fn private_and_reserved_addresses() {
        for a in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
        ] {
            assert!(is_private(a.parse().unwrap()), "{a}");
        }
        for a in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            assert!(!is_private(a.parse().unwrap()), "{a}");
        }
    }
}
