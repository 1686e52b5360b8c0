//! `read [-r] [-a arr] [-d delim] [-n n] [-N n] [-p prompt] [-s] [-t t] [name...]`.

use super::fail;
use crate::interp::simple::{store, Assigned, AssignedValue};
use crate::interp::{Fds, Flow};
use crate::state::ShellState;

pub async fn read(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Result<i32, Flow> {
    let mut raw = false;
    let mut array: Option<String> = None;
    let mut delim = b'\n';
    let mut nchars: Option<usize> = None;
    let mut exact = false;
    let mut names: Vec<String> = Vec::new();
    let mut input = fds.stdin.clone();
    let mut i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if !a.starts_with('-') || a.len() < 2 || !names.is_empty() {
            names.push(a.clone());
            i += 1;
            continue;
        }
        if a == "--" {
            names.extend(argv[i + 1..].iter().cloned());
            break;
        }
        let chars: Vec<char> = a[1..].chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            let takes_value = matches!(c, 'a' | 'd' | 'n' | 'N' | 'p' | 't' | 'u' | 'i');
            let value = if takes_value {
                let rest: String = chars[k + 1..].iter().collect();
                k = chars.len();
                if rest.is_empty() {
                    i += 1;
                    match argv.get(i) {
                        Some(v) => v.clone(),
                        None => {
                            return Ok(fail(sh.loc(), fds, &format!("read: -{c}: option requires an argument"), 2).await)
                        }
                    }
                } else {
                    rest
                }
            } else {
                k += 1;
                String::new()
            };
            match c {
                'r' => raw = true,
                's' | 'e' => {}
                'a' => array = Some(value),
                'd' => delim = value.bytes().next().unwrap_or(0),
                'n' | 'N' => match value.parse::<usize>() {
                    Ok(n) => {
                        nchars = Some(n);
                        exact = c == 'N';
                    }
                    Err(_) => return Ok(fail(sh.loc(), fds, &format!("read: {value}: invalid number"), 1).await),
                },
                'p' => {
                    let _ = fds.stderr.write(value.as_bytes()).await;
                }
                'u' => match super::mapfile::input_fd(fds, &value) {
                    Some(inp) => input = inp,
                    None => {
                        let msg = format!("read: {value}: invalid file descriptor: Bad file descriptor");
                        return Ok(fail(sh.loc(), fds, &msg, 1).await);
                    }
                },
                't' | 'i' => {}
                _ => return Ok(fail(sh.loc(), fds, &format!("read: -{c}: invalid option"), 2).await),
            }
        }
        i += 1;
    }
    for n in names.iter().chain(array.iter()) {
        if !super::valid_name(n) {
            return Ok(fail(sh.loc(), fds, &format!("read: `{n}': not a valid identifier"), 1).await);
        }
    }
    let max = sh.budget.limits.max_string_bytes as usize;

    // Read the input.
    let mut line: Vec<u8> = Vec::new();
    let mut hit_delim = false;
    loop {
        let chunk = match nchars {
            Some(n) if exact => input.read_exact_upto(n).await,
            Some(n) => {
                let mut got = Vec::new();
                while got.len() < n {
                    let b = input.read_exact_upto(1).await;
                    if b.is_empty() {
                        break;
                    }
                    if b[0] == delim {
                        hit_delim = true;
                        break;
                    }
                    got.extend(b);
                }
                if got.len() == n {
                    hit_delim = true;
                }
                got
            }
            None => match input.read_until(delim, max).await {
                Some(mut l) => {
                    if l.last() == Some(&delim) {
                        l.pop();
                        hit_delim = true;
                    }
                    l
                }
                None => Vec::new(),
            },
        };
        if exact {
            hit_delim = chunk.len() == nchars.unwrap_or(0);
        }
        line.extend(chunk);
        // Without -r, a trailing backslash continues the line.
        if !raw && hit_delim && delim == b'\n' && nchars.is_none() && ends_with_odd_backslash(&line) {
            line.pop();
            hit_delim = false;
            continue;
        }
        break;
    }
    let text = String::from_utf8_lossy(&line).into_owned();
    let text = if raw { text } else { unescape(&text) };

    let ifs = sh.get_var("IFS").unwrap_or_else(|| " \t\n".into());
    let status = i32::from(!hit_delim);
    if let Some(arr) = array {
        let fields = split_all(&text, &ifs);
        let items = fields.into_iter().map(|f| (None, f)).collect();
        let _ = sh.vars.unset(&arr);
        if let Err(e) =
            store(sh, Assigned { name: arr, index: None, value: AssignedValue::Array(items), append: false })
        {
            e.report(sh, fds, "read: ").await?;
            return Ok(1);
        }
        return Ok(status);
    }
    if names.is_empty() {
        set(sh, "REPLY", text, fds).await;
        return Ok(status);
    }
    let mut rest = text.as_str();
    for (k, name) in names.iter().enumerate() {
        if k + 1 == names.len() {
            let v = trim_last(rest, &ifs);
            set(sh, name, v, fds).await;
        } else {
            let (field, after) = next_field(rest, &ifs);
            set(sh, name, field, fds).await;
            rest = after;
        }
    }
    Ok(status)
}

async fn set(sh: &mut ShellState, name: &str, v: String, fds: &Fds) {
    if let Err(m) = sh.set_var(name, v) {
        fds.shell_err(sh.loc(), &format!("read: {m}")).await;
    }
}

fn ends_with_odd_backslash(b: &[u8]) -> bool {
    b.iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(n) = it.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn is_ws(c: char, ifs: &str) -> bool {
    matches!(c, ' ' | '\t' | '\n') && ifs.contains(c)
}

/// Take one field: skip leading IFS whitespace, read to an IFS character, then
/// consume the delimiter (whitespace around at most one non-whitespace char).
fn next_field<'a>(s: &'a str, ifs: &str) -> (String, &'a str) {
    let s = s.trim_start_matches(|c| is_ws(c, ifs));
    let end = s.find(|c| ifs.contains(c)).unwrap_or(s.len());
    let field = s[..end].to_string();
    let mut rest = s[end..].trim_start_matches(|c| is_ws(c, ifs));
    if let Some(c) = rest.chars().next() {
        if ifs.contains(c) && !is_ws(c, ifs) {
            rest = rest[c.len_utf8()..].trim_start_matches(|c| is_ws(c, ifs));
        }
    }
    (field, rest)
}

/// The last name's value: leading/trailing IFS whitespace removed, and one
/// trailing non-whitespace delimiter dropped when it ends a single field.
fn trim_last(s: &str, ifs: &str) -> String {
    let t = s.trim_start_matches(|c| is_ws(c, ifs)).trim_end_matches(|c| is_ws(c, ifs));
    if let Some(c) = t.chars().last() {
        if ifs.contains(c) && !is_ws(c, ifs) {
            let body = &t[..t.len() - c.len_utf8()];
            if !body.contains(|ch| ifs.contains(ch)) {
                return body.to_string();
            }
        }
    }
    t.to_string()
}

fn split_all(s: &str, ifs: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s.trim_start_matches(|c| is_ws(c, ifs));
    while !rest.is_empty() {
        let (f, r) = next_field(rest, ifs);
        out.push(f);
        rest = r;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_rules_match_bash() {
        assert_eq!(trim_last("b:", ":"), "b");
        assert_eq!(trim_last("b:c:", ":"), "b:c:");
        assert_eq!(next_field("  a   b  c  ", " \t\n"), ("a".to_string(), "b  c  "));
        assert_eq!(trim_last("b  c  ", " \t\n"), "b  c");
        assert_eq!(split_all(" 1 2  3 ", " \t\n"), ["1", "2", "3"]);
        assert_eq!(split_all("a::b", ":"), ["a", "", "b"]);
    }
}
