//! Native helpers of `jq` with jq 1.7's results and messages: `length`,
//! `keys`, `has`, `contains`, string offsets, JSON text, path deletion and
//! the `@csv` `@tsv` `@sh` `@html` `@uri` `@base64` `@base32` formats.

use super::json;
use super::val::{self, Val};
use jaq_core::{Error, ValT as _};
use std::rc::Rc;

type ValR = Result<Val, Error<Val>>;

fn fail<T>(msg: impl Into<String>) -> Result<T, Error<Val>> {
    Val::err(msg)
}
pub(super) fn to_text(v: &Val) -> String {
    match v {
        Val::Str(s) => s.to_string(),
        v => json::to_json(v),
    }
}

pub(super) fn length(v: &Val) -> ValR {
    Ok(match v {
        Val::Null => Val::from(0usize),
        Val::Bool(_) => return fail(format!("{} has no length", v.describe())),
        Val::Num(_) | Val::Lit(_) => Val::Num(v.as_f64().unwrap_or(0.0).abs()),
        Val::Str(s) => Val::from(s.chars().count()),
        Val::Arr(a) => Val::from(a.items.len()),
        Val::Obj(o) => Val::from(o.map.len()),
    })
}

pub(super) fn keys(v: &Val, sorted: bool) -> ValR {
    match v {
        Val::Obj(o) => {
            let mut ks: Vec<&Rc<str>> = o.map.keys().collect();
            if sorted {
                ks.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            }
            Ok(Val::arr(ks.into_iter().map(|k| Val::Str(k.clone())).collect()))
        }
        Val::Arr(a) => Ok(Val::arr((0..a.items.len()).map(Val::from).collect())),
        v => fail(format!("{} has no keys", v.describe())),
    }
}

pub(super) fn has(v: &Val, k: &Val) -> ValR {
    match (v, k) {
        (Val::Obj(o), Val::Str(s)) => Ok(Val::Bool(o.map.contains_key(s))),
        (Val::Arr(a), n) if n.is_num() => {
            let f = n.as_f64().unwrap_or(-1.0);
            Ok(Val::Bool(f >= 0.0 && f < a.items.len() as f64))
        }
        _ => fail(format!("Cannot check whether {} has a {} key", v.kind(), k.kind())),
    }
}

pub(super) fn contains(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Obj(x), Val::Obj(y)) => y.map.iter().all(|(k, bv)| x.map.get(k).is_some_and(|av| contains(av, bv))),
        (Val::Arr(x), Val::Arr(y)) => y.items.iter().all(|bv| x.items.iter().any(|av| contains(av, bv))),
        (Val::Str(x), Val::Str(y)) => x.contains(&**y),
        _ => a == b,
    }
}

pub(super) fn contains_top(a: &Val, b: &Val) -> ValR {
    if a.kind() != b.kind() {
        return fail(format!("{} and {} cannot have their containment checked", a.describe(), b.describe()));
    }
    Ok(Val::Bool(contains(a, b)))
}

/// Byte offsets of `n` in a string (jq 1.7 counts bytes here).
pub(super) fn strindices(s: &Val, n: &Val) -> ValR {
    let (Val::Str(s), Val::Str(n)) = (s, n) else { return Ok(Val::Null) };
    if n.is_empty() {
        return Ok(Val::Null);
    }
    let (h, nb) = (s.as_bytes(), n.as_bytes());
    let hits = (0..h.len().saturating_sub(nb.len() - 1)).filter(|&i| {
        // Quadratic in the worst case: let the guard see the time.
        val::tick();
        h[i..].starts_with(nb)
    });
    Ok(Val::arr(hits.map(Val::from).collect()))
}

pub(super) fn fromjson(v: &Val) -> ValR {
    let Val::Str(s) = v else {
        return fail(format!("{} cannot be parsed as JSON", v.describe()));
    };
    json::parse_one(s).or_else(|e| fail(format!("{e} (while parsing '{s}')")))
}

pub(super) fn tonumber(v: Val) -> ValR {
    match &v {
        n if n.is_num() => Ok(v),
        Val::Str(s) => match json::parse_one(s) {
            Ok(n) if n.is_num() => Ok(n),
            Ok(_) => fail(format!("Cannot parse '{s}' as JSON")),
            Err(e) => fail(format!("{e} (while parsing '{s}')")),
        },
        _ => fail(format!("{} cannot be parsed as a number", v.describe())),
    }
}

/// Remove one path from a value (jq's `delpaths` on a single path).
pub(super) fn delete_path(v: Val, path: &[Val]) -> ValR {
    let Some((head, rest)) = path.split_first() else { return Ok(Val::Null) };
    if matches!(v, Val::Null) {
        return Ok(Val::Null);
    }
    if rest.is_empty() {
        return match (v, head) {
            (Val::Obj(o), Val::Str(k)) => {
                let mut m = o.map.clone();
                m.shift_remove(k);
                Ok(Val::obj(m))
            }
            (Val::Arr(a), n) if n.is_num() => {
                let mut items = a.items.clone();
                let f = n.as_f64().unwrap_or(0.0).floor();
                let i = if f < 0.0 { f + items.len() as f64 } else { f };
                if i < 0.0 {
                    return fail("Out of bounds negative array index");
                }
                if (i as usize) < items.len() {
                    items.remove(i as usize);
                }
                Ok(Val::arr(items))
            }
            (v @ Val::Arr(_), Val::Obj(_)) => {
                let upd = v.map_index(head, jaq_core::path::Opt::Essential, |_| std::iter::empty());
                upd.map_err(|e| e.get_err().unwrap_or_else(|_| Error::new(Val::str("Invalid path"))))
            }
            (v, k) => fail(format!("Cannot delete field at {} index of {}", k.kind(), v.kind())),
        };
    }
    let child = v.index_val(head)?;
    if matches!(child, Val::Null) {
        return Ok(v);
    }
    let new = delete_path(child, rest)?;
    let upd = v.map_index(head, jaq_core::path::Opt::Essential, move |_| std::iter::once(Ok(new.clone())));
    upd.map_err(|e| e.get_err().unwrap_or_else(|_| Error::new(Val::str("Invalid path"))))
}

pub(super) fn delpaths(v: Val, paths: &Val) -> ValR {
    let Val::Arr(ps) = paths else { return fail("Paths must be specified as an array") };
    let mut ps: Vec<Val> = ps.items.clone();
    ps.sort();
    let mut v = v;
    for p in ps.iter().rev() {
        let Val::Arr(p) = p else { return fail("Path must be specified as an array") };
        v = delete_path(v, &p.items)?;
    }
    Ok(v)
}

pub(super) fn csv_tsv(v: &Val, csv: bool) -> ValR {
    let Val::Arr(a) = v else {
        return fail(format!(
            "{} cannot be {}-formatted, only an array can be",
            v.describe(),
            if csv { "csv" } else { "tsv" }
        ));
    };
    let mut out = String::new();
    for (i, x) in a.items.iter().enumerate() {
        if i > 0 {
            out.push(if csv { ',' } else { '\t' });
        }
        match x {
            Val::Null => {}
            Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            n if n.is_num() => out.push_str(&json::to_json(n)),
            Val::Str(s) if csv => {
                out.push('"');
                out.push_str(&s.replace('"', "\"\""));
                out.push('"');
            }
            Val::Str(s) => {
                for c in s.chars() {
                    match c {
                        '\t' => out.push_str("\\t"),
                        '\r' => out.push_str("\\r"),
                        '\n' => out.push_str("\\n"),
                        '\\' => out.push_str("\\\\"),
                        c => out.push(c),
                    }
                }
            }
            x => return fail(format!("{} is not valid in a {} row", x.describe(), if csv { "csv" } else { "tsv" })),
        }
        val::check_len(out.len(), "string");
    }
    Ok(Val::string(out))
}

pub(super) fn shell_quote(v: &Val) -> ValR {
    let one = |x: &Val| -> Result<String, Error<Val>> {
        match x {
            Val::Str(s) => Ok(format!("'{}'", s.replace('\'', "'\\''"))),
            Val::Arr(_) | Val::Obj(_) => fail(format!("{} can not be escaped for shell", x.describe())),
            x => Ok(json::to_json(x)),
        }
    };
    match v {
        Val::Arr(a) => {
            let parts: Result<Vec<String>, _> = a.items.iter().map(one).collect();
            Ok(Val::string(parts?.join(" ")))
        }
        v => Ok(Val::string(one(v)?)),
    }
}

pub(super) fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

pub(super) fn uri(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub(super) fn base64_enc(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub(super) fn base64_dec(v: &Val) -> ValR {
    let s = to_text(v);
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    let mut valid = 0usize;
    for b in s.bytes() {
        if b == b'=' {
            break;
        }
        let Some(d) = B64.iter().position(|&c| c == b) else {
            return fail(format!("{} is not valid base64 data", v.describe()));
        };
        valid += 1;
        acc = acc << 6 | d as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if valid % 4 == 1 {
        return fail(format!("{} trailing base64 byte found", v.describe()));
    }
    Ok(Val::string(String::from_utf8_lossy(&out).into_owned()))
}

const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

pub(super) fn base32_enc(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = buf.iter().fold(0u64, |acc, &b| acc << 8 | b as u64);
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                out.push(B32[(n >> (35 - 5 * i) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub(super) fn base32_dec(v: &Val) -> ValR {
    let s = to_text(v);
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u64, 0);
    for b in s.bytes() {
        if b == b'=' {
            break;
        }
        let Some(d) = B32.iter().position(|&c| c == b) else {
            return fail(format!("{} is not valid base32 data", v.describe()));
        };
        acc = acc << 5 | d as u64;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(Val::string(String::from_utf8_lossy(&out).into_owned()))
}
