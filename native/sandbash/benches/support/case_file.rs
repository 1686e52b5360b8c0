//! Shared by the benches that read bashkit's case file (`cases.rs` here and
//! `native/bench_bashkit`): the file's parser and the statistics they print.
//! Included with `#[path]`, so each bench uses only part of it.
#![allow(dead_code)]

use std::process::{Command, Stdio};
use std::time::Duration;

/// `bash -c SCRIPT` in `dir` (stdin empty, stderr dropped): stdout and status.
pub fn run_bash(bash: &str, dir: &std::path::Path, script: &str) -> (Vec<u8>, i32) {
    let out = Command::new(bash)
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("spawn bash");
    (out.stdout, out.status.code().unwrap_or(-1))
}

pub struct Case {
    pub name: String,
    pub category: String,
    pub script: String,
}

/// A Rust string literal at `s[i..]`: `"..."` with escapes or `r#"..."#`.
/// Returns the value and the index after it.
fn string_literal(s: &[u8], mut i: usize) -> Result<(String, usize), String> {
    if s.get(i) == Some(&b'r') {
        i += 1;
        let mut hashes = 0;
        while s.get(i) == Some(&b'#') {
            hashes += 1;
            i += 1;
        }
        if s.get(i) != Some(&b'"') {
            return Err(format!("raw string without a quote at byte {i}"));
        }
        i += 1;
        let mut close = vec![b'"'];
        close.extend(std::iter::repeat_n(b'#', hashes));
        let start = i;
        while i + close.len() <= s.len() {
            if s[i..].starts_with(&close) {
                let v = String::from_utf8_lossy(&s[start..i]).into_owned();
                return Ok((v, i + close.len()));
            }
            i += 1;
        }
        return Err("unterminated raw string".into());
    }
    if s.get(i) != Some(&b'"') {
        return Err(format!("expected a string literal at byte {i}"));
    }
    i += 1;
    let mut out = Vec::new();
    while i < s.len() {
        match s[i] {
            b'"' => return Ok((String::from_utf8_lossy(&out).into_owned(), i + 1)),
            b'\\' => {
                let c = *s.get(i + 1).ok_or("escape at the end")?;
                i += 2;
                match c {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'0' => out.push(0),
                    b'\\' | b'"' | b'\'' => out.push(c),
                    b'\n' => {
                        while i < s.len() && s[i].is_ascii_whitespace() {
                            i += 1;
                        }
                    }
                    b'x' => {
                        let h = std::str::from_utf8(s.get(i..i + 2).ok_or("short \\x")?).map_err(|e| e.to_string())?;
                        out.push(u8::from_str_radix(h, 16).map_err(|e| e.to_string())?);
                        i += 2;
                    }
                    b'u' => {
                        let end = s[i..].iter().position(|&b| b == b'}').ok_or("bad \\u")? + i;
                        let h = std::str::from_utf8(&s[i + 1..end]).map_err(|e| e.to_string())?;
                        let ch =
                            char::from_u32(u32::from_str_radix(h, 16).map_err(|e| e.to_string())?).ok_or("bad \\u")?;
                        out.extend_from_slice(ch.to_string().as_bytes());
                        i = end + 1;
                    }
                    other => return Err(format!("unknown escape \\{}", other as char)),
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Err("unterminated string".into())
}

fn skip_ws_comma(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b',') {
        i += 1;
    }
    // Comments between arguments (`"true", // ...`).
    if s[i..].starts_with(b"//") {
        while i < s.len() && s[i] != b'\n' {
            i += 1;
        }
        return skip_ws_comma(s, i);
    }
    i
}

pub fn load_cases(path: &str) -> Result<Vec<Case>, String> {
    let text = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let s = &text[..];
    let pat = b"BenchCase::new(";
    let mut cases = Vec::new();
    let mut i = 0;
    while let Some(p) = s[i..].windows(pat.len()).position(|w| w == pat) {
        i += p + pat.len();
        let j = skip_ws_comma(s, i);
        let (name, j) = string_literal(s, j)?;
        let j = skip_ws_comma(s, j);
        let cat = b"Category::";
        if !s[j..].starts_with(cat) {
            return Err(format!("{name}: no Category"));
        }
        let k = j + cat.len();
        let end = k + s[k..].iter().position(|b| !b.is_ascii_alphanumeric() && *b != b'_').unwrap_or(0);
        let category = String::from_utf8_lossy(&s[k..end]).to_lowercase();
        let j = skip_ws_comma(s, end);
        let (_desc, j) = string_literal(s, j)?;
        let j = skip_ws_comma(s, j);
        let (script, j) = string_literal(s, j)?;
        cases.push(Case { name, category, script });
        i = j;
    }
    Ok(cases)
}

pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

pub fn geomean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

pub fn fmt_us(d: f64) -> String {
    if d >= 1000.0 {
        format!("{:.2} ms", d / 1000.0)
    } else {
        format!("{d:.1} µs")
    }
}
