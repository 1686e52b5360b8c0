//! Pieces curl, wget and http share: request bodies from arguments and files,
//! URL encoding, Basic auth, where the response goes, and curl's `-w` format.

use crate::commands::CommandContext;
use crate::io::IoError;
use crate::net::client::Response;
use crate::net::Url;
use std::time::Duration;

/// `-d`/`--data-binary` value: `@file` (or `@-`) reads it; `-d` drops the
/// file's CR and LF bytes, as curl does.
pub async fn data_arg(ctx: &CommandContext<'_>, v: &str, strip_newlines: bool) -> Result<Vec<u8>, String> {
    let Some(name) = v.strip_prefix('@') else { return Ok(v.as_bytes().to_vec()) };
    let mut data = ctx.read_operand(name).await.map_err(|e| format!("Failed to open {name}: {e}"))?;
    if strip_newlines {
        data.retain(|b| *b != b'\n' && *b != b'\r');
    }
    Ok(data)
}

/// `--data-urlencode`: `content`, `=content`, `name=content`, `@file`, `name@file`.
pub async fn urlencode_arg(ctx: &CommandContext<'_>, v: &str) -> Result<Vec<u8>, String> {
    let (name, content) = if let Some(rest) = v.strip_prefix('=') {
        (None, rest.as_bytes().to_vec())
    } else if let Some((n, c)) = v.split_once('=') {
        (Some(n), c.as_bytes().to_vec())
    } else if let Some((n, f)) = v.split_once('@') {
        let data = ctx.read_operand(f).await.map_err(|e| format!("Failed to open {f}: {e}"))?;
        (Some(n).filter(|n| !n.is_empty()), data)
    } else {
        (None, v.as_bytes().to_vec())
    };
    let enc = percent_encode(&content);
    Ok(match name {
        Some(n) => format!("{n}={enc}").into_bytes(),
        None => enc.into_bytes(),
    })
}

/// Percent-encode everything but unreserved characters (RFC 3986).
pub fn percent_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for &b in data {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for (k, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if k <= c.len() {
                out.push(T[((n >> shift) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `content-type` as `Content-Type` (the response head as HTTP/1.1 servers send it).
pub fn title_case(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("-")
}

pub struct Body {
    pub content_type: String,
    pub data: Vec<u8>,
}

/// `-F name=value`, `-F name=@file` (with `;type=`): a multipart/form-data body.
pub async fn multipart(ctx: &CommandContext<'_>, fields: &[String]) -> Result<Body, String> {
    let boundary = "------------------------sandbash0123456789";
    let mut data = Vec::new();
    for f in fields {
        let (name, value) = f.split_once('=').ok_or_else(|| format!("Illegally formatted input field: {f}"))?;
        data.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let (value, ctype) = match value.split_once(";type=") {
            Some((v, t)) => (v, Some(t)),
            None => (value, None),
        };
        if let Some(file) = value.strip_prefix('@') {
            let content = ctx.read_operand(file).await.map_err(|e| format!("Failed to open {file}: {e}"))?;
            let base = file.rsplit('/').next().unwrap_or(file);
            data.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{base}\"\r\n").as_bytes(),
            );
            data.extend_from_slice(
                format!("Content-Type: {}\r\n\r\n", ctype.unwrap_or("application/octet-stream")).as_bytes(),
            );
            data.extend_from_slice(&content);
        } else {
            data.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n").as_bytes());
            if let Some(t) = ctype {
                data.extend_from_slice(format!("Content-Type: {t}\r\n").as_bytes());
            }
            data.extend_from_slice(b"\r\n");
            data.extend_from_slice(value.as_bytes());
        }
        data.extend_from_slice(b"\r\n");
    }
    data.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok(Body { content_type: format!("multipart/form-data; boundary={boundary}"), data })
}

/// Where a response body goes: stdout, or a file in the sandbox written as it arrives.
pub struct Sink<'c, 'a> {
    ctx: &'c CommandContext<'a>,
    path: Option<String>,
    started: bool,
}

impl<'c, 'a> Sink<'c, 'a> {
    /// `output` (`-o`), else `remote` (`-O`: the URL's file name), else stdout.
    pub fn new(ctx: &'c CommandContext<'a>, output: Option<&str>, remote: Option<&str>) -> Self {
        let path = output.filter(|p| *p != "-").or(remote).map(|p| ctx.resolve(p));
        Sink { ctx, path, started: false }
    }

    pub async fn write(&mut self, data: &[u8]) -> Result<(), IoError> {
        match &self.path {
            None => self.ctx.out(data).await,
            Some(p) => {
                let r = if self.started { self.ctx.fs.append(p, data).await } else { self.ctx.fs.write(p, data).await };
                self.started = true;
                r.map_err(IoError::Fs)
            }
        }
    }

    /// An empty body still creates the output file.
    pub async fn finish(&mut self) -> Result<(), IoError> {
        if !self.started {
            self.write(b"").await?;
        }
        Ok(())
    }
}

/// curl's `-w` format: `%{variable}`, `%%`, and `\n \r \t \\` escapes.
pub fn write_out(fmt: &str, resp: &Response, url: &Url, size: u64, took: Duration) -> String {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '%' if chars.peek() == Some(&'%') => {
                chars.next();
                out.push('%');
            }
            '%' if chars.peek() == Some(&'{') => {
                chars.next();
                let name: String = chars.by_ref().take_while(|c| *c != '}').collect();
                out.push_str(&match name.as_str() {
                    "http_code" | "response_code" => format!("{:03}", resp.status),
                    "content_type" => resp.header("content-type").unwrap_or_default(),
                    "size_download" => size.to_string(),
                    "url_effective" | "url" => url.to_string(),
                    "redirect_url" => resp.header("location").unwrap_or_default(),
                    "http_version" => resp.version.trim_start_matches("HTTP/").to_string(),
                    "num_redirects" => "0".into(),
                    "scheme" => url.scheme.to_ascii_uppercase(),
                    "time_total" => format!("{:.6}", took.as_secs_f64()),
                    _ => String::new(),
                });
            }
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some(o) => {
                    out.push('\\');
                    out.push(o);
                }
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        assert_eq!(base64(b"user:pass"), "dXNlcjpwYXNz");
        assert_eq!(base64(b"a"), "YQ==");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(percent_encode(b"a b&c=d/~"), "a%20b%26c%3Dd%2F~");
        assert_eq!(percent_decode("a%20b%zz%2"), "a b%zz%2");
        assert_eq!(title_case("content-type"), "Content-Type");
        assert_eq!(title_case("x-request-id"), "X-Request-Id");
    }
}
