//! `mapfile` / `readarray`: lines of input into an indexed array.

use super::fail;
use crate::interp::simple::{store, Assigned, AssignedValue};
use crate::interp::{Fds, Flow, Slot};
use crate::io::Input;
use crate::state::{ShellState, Value};
use std::collections::BTreeMap;

const USAGE: &str = "mapfile: usage: mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]";

/// The input behind descriptor `fd` (`-u`), or `None` when it is not open for reading.
pub fn input_fd(fds: &Fds, fd: &str) -> Option<Input> {
    match fd.parse::<i32>().ok()? {
        0 => Some(fds.stdin.clone()),
        n => fds.extra.get(&n).and_then(Slot::input).cloned(),
    }
}

pub async fn mapfile(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Result<i32, Flow> {
    // It reads its whole input in one command: not on a caller's thread.
    crate::limits::inline::leave().await;
    let name = argv[0].as_str();
    let mut delim = b'\n';
    let mut count: Option<usize> = None;
    let mut origin: Option<i64> = None;
    let mut skip = 0usize;
    let mut trim = false;
    let mut input = fds.stdin.clone();
    let mut callback: Option<String> = None;
    let mut quantum = 5000usize;
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a.len() < 2 {
            break;
        }
        let chars = a[1..].char_indices();
        for (k, c) in chars {
            if c == 't' {
                trim = true;
                continue;
            }
            if !matches!(c, 'd' | 'n' | 'O' | 's' | 'u' | 'C' | 'c') {
                fds.shell_err(sh.loc(), &format!("{name}: -{c}: invalid option")).await;
                let _ = fds.stderr.write_str(&format!("{}\n", USAGE.replacen("mapfile", name, 2))).await;
                return Ok(2);
            }
            let rest = &a[1 + k + c.len_utf8()..];
            let value = if rest.is_empty() {
                i += 1;
                match argv.get(i) {
                    Some(v) => v.clone(),
                    None => {
                        let msg = format!("{name}: -{c}: option requires an argument");
                        fds.shell_err(sh.loc(), &msg).await;
                        let _ = fds.stderr.write_str(&format!("{}\n", USAGE.replacen("mapfile", name, 2))).await;
                        return Ok(2);
                    }
                }
            } else {
                rest.to_string()
            };
            let bad = |what: &str| format!("{name}: {value}: {what}");
            match c {
                'd' => delim = value.bytes().next().unwrap_or(0),
                'n' => match value.parse::<usize>() {
                    // `-n 0`: every line.
                    Ok(n) => count = Some(n).filter(|n| *n > 0),
                    Err(_) => return Ok(fail(sh.loc(), fds, &bad("invalid line count"), 1).await),
                },
                'O' => match value.parse::<i64>() {
                    Ok(n) if n >= 0 => origin = Some(n),
                    _ => return Ok(fail(sh.loc(), fds, &bad("invalid array origin"), 1).await),
                },
                's' => match value.parse::<usize>() {
                    Ok(n) => skip = n,
                    Err(_) => return Ok(fail(sh.loc(), fds, &bad("invalid line count"), 1).await),
                },
                'u' => match input_fd(fds, &value) {
                    Some(inp) => input = inp,
                    None => {
                        let msg = bad("invalid file descriptor: Bad file descriptor");
                        return Ok(fail(sh.loc(), fds, &msg, 1).await);
                    }
                },
                'C' => callback = Some(value),
                _ => match value.parse::<usize>() {
                    Ok(n) if n > 0 => quantum = n,
                    _ => return Ok(fail(sh.loc(), fds, &bad("invalid callback quantum"), 1).await),
                },
            }
            break;
        }
        i += 1;
    }
    let array = argv.get(i).cloned().unwrap_or_else(|| "MAPFILE".to_string());
    if !super::valid_name(&array) {
        return Ok(fail(sh.loc(), fds, &format!("{name}: `{array}': not a valid identifier"), 1).await);
    }
    if sh.vars.get(&array).is_some_and(|v| v.readonly) {
        return Ok(fail(sh.loc(), fds, &format!("{array}: readonly variable"), 1).await);
    }
    if sh.vars.get(&array).is_some_and(|v| matches!(v.value, Some(Value::Assoc(_)))) {
        return Ok(fail(sh.loc(), fds, &format!("{name}: {array}: not an indexed array"), 1).await);
    }
    // Without -O the old value is dropped, so it is not copied; the lines come
    // in key order and are built into a map in one go at the end.
    let base: BTreeMap<i64, String> = match origin.and_then(|_| sh.vars.get(&array)).and_then(|v| v.value.as_ref()) {
        Some(Value::Indexed(m)) => m.clone(),
        Some(Value::Scalar(s)) => BTreeMap::from([(0, s.clone())]),
        _ => BTreeMap::new(),
    };
    let mut m: Vec<(i64, String)> = Vec::new();
    let max = sh.budget.limits.max_string_bytes as usize;
    let mut idx = origin.unwrap_or(0);
    let mut read = 0usize;
    let mut total = 0u64;
    let too_much = || Flow::Stop(crate::limits::Budget::exceeded("max_string_bytes", max as u64, "mapfile input"));
    // One element from one line: skipped, its delimiter trimmed, cut at a NUL.
    let element = |mut line: Vec<u8>, skip: &mut usize| -> Option<String> {
        if *skip > 0 {
            *skip -= 1;
            return None;
        }
        if trim && line.last() == Some(&delim) {
            line.pop();
        }
        // An element is a C string in bash: it ends at the first NUL.
        if let Some(nul) = memchr::memchr(0, &line) {
            line.truncate(nul);
        }
        Some(crate::raw_bytes::decode_vec(line))
    };
    if count.is_none() && callback.is_none() {
        // Every line, nothing run between them: split whole chunks (a lock
        // and a wait per line were most of a mapfile of a file).
        let mut carry: Vec<u8> = Vec::new();
        let mut lines = 0u32;
        let mut scanned = 0usize;
        loop {
            crate::limits::checkpoint().map_err(Flow::Stop)?;
            let chunk = input.read_chunk().await;
            let done = chunk.is_none();
            if let Some(c) = chunk {
                total += c.len() as u64;
                if total > max as u64 {
                    return Err(too_much());
                }
                carry.extend_from_slice(&c);
            }
            // The carried part has no delimiter: only the new bytes are searched
            // (a long line arriving in many chunks is read once, not once a chunk).
            let mut start = 0;
            let mut from = scanned;
            while let Some(i) = memchr::memchr(delim, &carry[from..]).map(|i| from + i - start) {
                if let Some(text) = element(carry[start..start + i + 1].to_vec(), &mut skip) {
                    m.push((idx, text));
                    idx += 1;
                }
                start += i + 1;
                from = start;
                lines = lines.wrapping_add(1);
                if lines.is_multiple_of(4096) {
                    crate::limits::checkpoint().map_err(Flow::Stop)?;
                }
            }
            if done {
                if start < carry.len() {
                    if let Some(text) = element(carry[start..].to_vec(), &mut skip) {
                        m.push((idx, text));
                    }
                }
                break;
            }
            carry.drain(..start);
            scanned = carry.len();
        }
        count = Some(0);
    }
    while count.is_none_or(|n| read < n) {
        // Millions of short lines fit in the input limit: time and memory are
        // looked at as the array grows.
        crate::limits::checkpoint().map_err(Flow::Stop)?;
        let Some(line) = input.read_until(delim, max).await else { break };
        if line.is_empty() {
            break;
        }
        total += line.len() as u64;
        if total > max as u64 {
            return Err(too_much());
        }
        let Some(text) = element(line, &mut skip) else { continue };
        if let Some(cb) = &callback {
            if (read + 1).is_multiple_of(quantum) {
                let cmd = format!("{cb} {idx} {}", crate::expand::param::quote(&text));
                crate::interp::run_string(sh, &cmd, fds, "mapfile").await?;
            }
        }
        m.push((idx, text));
        idx += 1;
        read += 1;
    }
    // The variable keeps its attributes (export, `-i`, `-u`...); an integer
    // or case attribute changes each element as an assignment would.
    if sh.vars.get(&array).is_some_and(|v| v.integer || v.case.is_some()) {
        let items = m.into_iter().map(|(k, v)| (Some(k.to_string()), v)).collect();
        let a = Assigned { name: array, index: None, value: AssignedValue::Array(items), append: origin.is_some() };
        if let Err(e) = store(sh, a) {
            e.report(sh, fds, "mapfile: ").await?;
            return Ok(1);
        }
        return Ok(0);
    }
    let m = if base.is_empty() {
        m.into_iter().collect()
    } else {
        let mut base = base;
        base.extend(m);
        base
    };
    if let Err(e) = sh.vars.set_value(&array, Value::Indexed(m)) {
        return Ok(fail(sh.loc(), fds, &e, 1).await);
    }
    Ok(0)
}
