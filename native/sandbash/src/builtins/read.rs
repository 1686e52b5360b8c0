//! `read [-r] [-a arr] [-d delim] [-n n] [-N n] [-p prompt] [-s] [-t t] [name...]`.

use super::fail;
use crate::interp::simple::{store, Assigned, AssignedValue};
use crate::interp::{Fds, Flow};
use crate::state::ShellState;

const USAGE: &str = "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n";

pub async fn read(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Result<i32, Flow> {
    let mut raw = false;
    let mut array: Option<String> = None;
    let mut delim = b'\n';
    let mut nchars: Option<usize> = None;
    let mut exact = false;
    let mut names: Vec<String> = Vec::new();
    let mut input = fds.stdin.clone();
    // The descriptor named in a read error.
    let mut fd_shown = "0".to_string();
    let mut timeout_zero = false;
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
                            fail(sh.loc(), fds, &format!("read: -{c}: option requires an argument"), 2).await;
                            let _ = fds.stderr.write_str(USAGE).await;
                            return Ok(2);
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
                // The prompt shows only when the input is a terminal: never here.
                'p' => {}
                'u' => match super::mapfile::input_fd(fds, &value) {
                    Some(inp) => {
                        input = inp;
                        fd_shown = value.clone();
                    }
                    None => {
                        let msg = format!("read: {value}: invalid file descriptor: Bad file descriptor");
                        return Ok(fail(sh.loc(), fds, &msg, 1).await);
                    }
                },
                't' => match value.parse::<f64>() {
                    Ok(t) if t >= 0.0 && !value.starts_with(['+', '-']) => timeout_zero = t == 0.0,
                    _ => {
                        let msg = format!("read: {value}: invalid timeout specification");
                        return Ok(fail(sh.loc(), fds, &msg, 1).await);
                    }
                },
                'i' => {}
                _ => {
                    fail(sh.loc(), fds, &format!("read: -{c}: invalid option"), 2).await;
                    let _ = fds.stderr.write_str(USAGE).await;
                    return Ok(2);
                }
            }
        }
        i += 1;
    }
    // bash checks the first name before reading, the others (and `-a`'s)
    // as it assigns: the input is read and the names before a bad one set.
    if let Some(n) = names.first().filter(|n| !assignable(n)) {
        return Ok(invalid_name(sh, fds, n).await);
    }
    if timeout_zero {
        // `-t 0`: is there input to read? Nothing is read.
        return Ok(0);
    }
    let max = sh.budget.limits.max_string_bytes as usize;

    // Read the input: characters, each marked when a backslash escaped it.
    let mut chars: Vec<(char, bool)> = Vec::new();
    let mut hit_delim = false;
    match nchars {
        Some(0) => hit_delim = true,
        Some(n) => {
            let mut pass_next = false;
            let mut count = 0;
            loop {
                crate::limits::checkpoint().map_err(Flow::Stop)?;
                let b = input.read_exact_upto(1).await;
                let Some(&first) = b.first() else { break };
                // The rest of a multibyte character.
                let more = match first {
                    0xC0..=0xDF => 1,
                    0xE0..=0xEF => 2,
                    0xF0..=0xF7 => 3,
                    _ => 0,
                };
                let mut bytes = b;
                if more > 0 {
                    bytes.extend(input.read_exact_upto(more).await);
                }
                let text = crate::raw_bytes::decode_vec(bytes);
                for c in text.chars() {
                    // bash skips NUL bytes (a variable's value is a C string).
                    if c == '\0' {
                        continue;
                    }
                    if pass_next {
                        pass_next = false;
                        if c == '\n' {
                            continue;
                        }
                        chars.push((c, true));
                        count += 1;
                        continue;
                    }
                    if c == '\\' && !raw {
                        pass_next = true;
                        continue;
                    }
                    if !exact && c as u32 == u32::from(delim) {
                        hit_delim = true;
                        break;
                    }
                    chars.push((c, false));
                    count += 1;
                }
                if hit_delim || count >= n {
                    hit_delim = true;
                    break;
                }
                if chars.len() > max {
                    break;
                }
            }
        }
        None => loop {
            crate::limits::checkpoint().map_err(Flow::Stop)?;
            let Some(mut l) = input.read_until(delim, max).await else { break };
            let ended = l.last() == Some(&delim);
            if ended {
                l.pop();
            }
            let dangling = line_chars(&crate::raw_bytes::decode_vec(l), raw, &mut chars);
            if !ended {
                break;
            }
            if dangling {
                // A backslash before the delimiter: a newline continues the
                // line; another delimiter is a plain character.
                if delim != b'\n' {
                    chars.push((char::from(delim), true));
                }
                if chars.len() > max {
                    break;
                }
                continue;
            }
            hit_delim = true;
            break;
        },
    }
    if input.read_failed() {
        return Ok(fail(sh.loc(), fds, &format!("read: read error: {fd_shown}: Is a directory"), 1).await);
    }
    let status = i32::from(!hit_delim);
    let ifs = sh.get_var("IFS").unwrap_or_else(|| " \t\n".into());
    let plain = text;

    if let Some(arr) = array {
        if !super::valid_name(&arr) {
            return Ok(invalid_name(sh, fds, &arr).await);
        }
        let fields = if exact { vec![plain(&chars)] } else { split_all(&chars, &ifs) };
        if sh.vars.get(&arr).is_some_and(|v| matches!(v.value, Some(crate::state::Value::Assoc(_)))) {
            return Ok(fail(sh.loc(), fds, &format!("read: {arr}: not an indexed array"), 1).await);
        }
        if sh.vars.get(&arr).is_some_and(|v| v.readonly) {
            return Ok(fail(sh.loc(), fds, &format!("{arr}: readonly variable"), 1).await);
        }
        // The array is replaced whole; the variable keeps its attributes.
        let items = fields.into_iter().map(|f| (None, f)).collect();
        if let Err(e) =
            store(sh, Assigned { name: arr, index: None, value: AssignedValue::Array(items), append: false })
        {
            e.report(sh, fds, "read: ").await?;
            return Ok(1);
        }
        return Ok(status);
    }
    if names.is_empty() {
        return Ok(if set(sh, "REPLY", plain(&chars), fds).await? { status } else { 1 });
    }
    if exact {
        // `-N`: no splitting; the first name gets it all.
        let mut ok = set(sh, &names[0], plain(&chars), fds).await?;
        for n in &names[1..] {
            if !assignable(n) {
                return Ok(invalid_name(sh, fds, n).await);
            }
            ok &= set(sh, n, String::new(), fds).await?;
        }
        return Ok(if ok { status } else { 1 });
    }
    for (name, v) in names.iter().zip(fields_for(names.len(), &chars, &ifs)) {
        if !assignable(name) {
            return Ok(invalid_name(sh, fds, name).await);
        }
        if !set(sh, name, v, fds).await? {
            return Ok(1);
        }
    }
    Ok(status)
}

/// A line's characters as `read` takes them (NULs dropped; without `-r` a
/// backslash escapes the next one and a backslash-newline is removed),
/// each marked when escaped; true when a backslash ended the text.
pub(crate) fn line_chars(text: &str, raw: bool, chars: &mut Vec<(char, bool)>) -> bool {
    chars.reserve(text.len());
    let mut it = text.chars().filter(|&c| c != '\0');
    while let Some(c) = it.next() {
        if c == '\\' && !raw {
            match it.next() {
                Some('\n') => {}
                Some(n) => chars.push((n, true)),
                None => return true,
            }
        } else {
            chars.push((c, false));
        }
    }
    false
}

/// The values of `n` names from a line's characters: a field each, the
/// last name the rest of the line.
pub(crate) fn fields_for(n: usize, chars: &[(char, bool)], ifs: &str) -> Vec<String> {
    let mut rest = chars;
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        if k + 1 == n {
            out.push(trim_last(rest, ifs));
        } else {
            let (field, after) = next_field(rest, ifs);
            rest = after;
            out.push(field);
        }
    }
    out
}

/// A name `read` can assign: a variable or an array element (`a[1]`).
fn assignable(name: &str) -> bool {
    super::valid_name(name)
        || crate::state::vars::split_subscript(name).is_some_and(|(n, i)| super::valid_name(n) && !i.is_empty())
}

async fn invalid_name(sh: &ShellState, fds: &Fds, name: &str) -> i32 {
    fail(sh.loc(), fds, &format!("read: `{name}': not a valid identifier"), 1).await
}

/// Assign one name; false (after bash's message) when it cannot be.
/// Assign one variable as bash's read does (an integer variable evaluates
/// the text: an error there ends the shell, as for any assignment).
async fn set(sh: &mut ShellState, name: &str, v: String, fds: &Fds) -> Result<bool, Flow> {
    let element = crate::state::vars::split_subscript(name);
    let integer = sh.vars.get(element.map_or(name, |(n, _)| n)).is_some_and(|var| var.integer);
    if integer || element.is_some() {
        let (name, index) = match element {
            Some((n, i)) => (n.to_string(), Some(i.to_string())),
            None => (name.to_string(), None),
        };
        let a = Assigned { name, index, value: AssignedValue::Scalar(v), append: false };
        return match store(sh, a) {
            Ok(()) => Ok(true),
            Err(e) => {
                e.report(sh, fds, "read: ").await?;
                Ok(false)
            }
        };
    }
    Ok(match sh.set_var(name, v) {
        Ok(()) => true,
        Err(m) => {
            let m = if m.ends_with("readonly variable") { m } else { format!("read: {m}") };
            fds.shell_err(sh.loc(), &m).await;
            false
        }
    })
}

/// An IFS character (a separator unless escaped).
fn is_ifs(c: (char, bool), ifs: &str) -> bool {
    !c.1 && ifs.contains(c.0)
}

/// IFS whitespace (space, tab, newline that IFS holds), unescaped.
fn is_ws(c: (char, bool), ifs: &str) -> bool {
    !c.1 && matches!(c.0, ' ' | '\t' | '\n') && ifs.contains(c.0)
}

fn skip_ws<'a>(s: &'a [(char, bool)], ifs: &str) -> &'a [(char, bool)] {
    let n = s.iter().take_while(|&&c| is_ws(c, ifs)).count();
    &s[n..]
}

pub(crate) fn text(s: &[(char, bool)]) -> String {
    let mut out = String::with_capacity(s.len());
    out.extend(s.iter().map(|&(c, _)| c));
    out
}

/// Take one field: skip leading IFS whitespace, read to an IFS character, then
/// consume the delimiter (whitespace around at most one non-whitespace char).
fn next_field<'a>(s: &'a [(char, bool)], ifs: &str) -> (String, &'a [(char, bool)]) {
    let s = skip_ws(s, ifs);
    let end = s.iter().position(|&c| is_ifs(c, ifs)).unwrap_or(s.len());
    let field = text(&s[..end]);
    let mut rest = skip_ws(&s[end..], ifs);
    if let Some(&c) = rest.first() {
        if is_ifs(c, ifs) && !is_ws(c, ifs) {
            rest = skip_ws(&rest[1..], ifs);
        }
    }
    (field, rest)
}

/// The last name's value: leading/trailing IFS whitespace removed, and one
/// trailing non-whitespace delimiter dropped when it ends a single field.
fn trim_last(s: &[(char, bool)], ifs: &str) -> String {
    let mut t = skip_ws(s, ifs);
    while let Some(&c) = t.last() {
        if !is_ws(c, ifs) {
            break;
        }
        t = &t[..t.len() - 1];
    }
    if let Some(&c) = t.last() {
        if is_ifs(c, ifs) && !is_ws(c, ifs) {
            let body = &t[..t.len() - 1];
            if !body.iter().any(|&ch| is_ifs(ch, ifs)) {
                return text(body);
            }
        }
    }
    text(t)
}

fn split_all(s: &[(char, bool)], ifs: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = skip_ws(s, ifs);
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

    fn plain(s: &str) -> Vec<(char, bool)> {
        s.chars().map(|c| (c, false)).collect()
    }

    #[test]
    fn field_rules_match_bash() {
        let trim_last = |s: &str, ifs: &str| super::trim_last(&plain(s), ifs);
        let split_all = |s: &str, ifs: &str| super::split_all(&plain(s), ifs);
        let p = plain("  a   b  c  ");
        let (f, rest) = next_field(&p, " \t\n");
        assert_eq!((f.as_str(), text(rest).as_str()), ("a", "b  c  "));
        assert_eq!(trim_last("b:", ":"), "b");
        assert_eq!(trim_last("b:c:", ":"), "b:c:");
        assert_eq!(trim_last("b  c  ", " \t\n"), "b  c");
        assert_eq!(split_all(" 1 2  3 ", " \t\n"), ["1", "2", "3"]);
        assert_eq!(split_all("a::b", ":"), ["a", "", "b"]);
    }
}
