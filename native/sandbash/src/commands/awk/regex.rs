//! awk's POSIX EREs (with gawk's escapes: `\y`, `\<`, `\/`, `\t`, ...) turned
//! into `regex` crate syntax. `.` matches newlines, as in awk.

use crate::commands::util::regex_cache;
use regex::Regex;

/// awk's compiled patterns, kept across calls and sessions.
static COMPILED: regex_cache::Cache<Regex> = regex_cache::Cache::new();

/// Translate then compile; `Err` is gawk's reason (`Unmatched ( or \(`).
pub fn compile(pat: &str, size_limit: usize) -> Result<std::sync::Arc<Regex>, String> {
    let src = translate(pat)?;
    let key = regex_cache::Key { source: src, flags: 0, size_limit };
    COMPILED.get_or_build(key, |k| regex::RegexBuilder::new(&k.source).size_limit(size_limit).build()).map_err(|e| match e {
        regex::Error::CompiledTooBig(_) => "Regular expression too big".to_string(),
        _ => "Invalid regular expression".to_string(),
    })
}

fn push_lit(out: &mut String, c: char) {
    let mut b = [0; 4];
    out.push_str(&regex::escape(c.encode_utf8(&mut b)));
}

/// The character a backslash escape stands for, when it is one.
fn escape_char(c: char) -> Option<char> {
    Some(match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'f' => '\x0c',
        'v' => '\x0b',
        'a' => '\x07',
        'b' => '\x08',
        '/' => '/',
        '"' => '"',
        _ => return None,
    })
}

pub fn translate(pat: &str) -> Result<String, String> {
    let c: Vec<char> = pat.chars().collect();
    let mut out = String::from("(?s)");
    let mut i = 0;
    let mut depth = 0usize;
    // Start (in `out`) of the last atom, for quantifiers; None at a start.
    let mut atom: Option<usize> = None;
    let mut quantified = false;
    let mut groups: Vec<usize> = Vec::new();
    while i < c.len() {
        let ch = c[i];
        i += 1;
        let start = out.len();
        match ch {
            '\\' => {
                let Some(&e) = c.get(i) else {
                    return Err("Trailing backslash".into());
                };
                i += 1;
                let special = match e {
                    'y' => Some("\\b"),
                    '<' => Some("\\b{start}"),
                    '>' => Some("\\b{end}"),
                    'B' => Some("\\B"),
                    '`' => Some("\\A"),
                    '\'' => Some("\\z"),
                    _ => None,
                };
                if let Some(s) = special {
                    out.push_str(s);
                    atom = None;
                    continue;
                }
                match e {
                    'w' | 'W' | 's' | 'S' => {
                        out.push('\\');
                        out.push(e);
                    }
                    '0'..='7' => {
                        let mut v = e as u32 - '0' as u32;
                        for _ in 0..2 {
                            match c.get(i) {
                                Some(&d @ '0'..='7') => {
                                    v = v * 8 + (d as u32 - '0' as u32);
                                    i += 1;
                                }
                                _ => break,
                            }
                        }
                        push_lit(&mut out, char::from_u32(v).unwrap_or('\0'));
                    }
                    _ => push_lit(&mut out, escape_char(e).unwrap_or(e)),
                }
                atom = Some(start);
                quantified = false;
            }
            '(' => {
                depth += 1;
                groups.push(start);
                out.push('(');
                atom = None;
            }
            ')' => {
                if depth == 0 {
                    return Err("Unmatched ) or \\)".into());
                }
                depth -= 1;
                out.push(')');
                atom = groups.pop();
                quantified = false;
            }
            '|' => {
                out.push('|');
                atom = None;
            }
            '^' | '$' => {
                out.push(ch);
                atom = None;
            }
            '*' | '+' | '?' | '{' => {
                let q = if ch == '{' {
                    match interval(&c, &mut i) {
                        Some(q) => q,
                        None => {
                            out.push_str("\\{");
                            atom = Some(start);
                            quantified = false;
                            continue;
                        }
                    }
                } else {
                    ch.to_string()
                };
                match atom {
                    // Nothing to repeat: literal, as gawk takes it.
                    None => {
                        push_lit(&mut out, ch);
                        if ch == '{' {
                            out.push_str(&regex::escape(&q[1..]));
                        }
                        atom = Some(start);
                        quantified = false;
                    }
                    Some(a) => {
                        if quantified {
                            out.insert_str(a, "(?:");
                            out.push(')');
                        }
                        out.push_str(&q);
                        quantified = true;
                    }
                }
            }
            '[' => {
                i = bracket(&c, i, &mut out)?;
                atom = Some(start);
                quantified = false;
            }
            '.' => {
                out.push('.');
                atom = Some(start);
                quantified = false;
            }
            _ => {
                push_lit(&mut out, ch);
                atom = Some(start);
                quantified = false;
            }
        }
    }
    if depth > 0 {
        return Err("Unmatched ( or \\(".into());
    }
    Ok(out)
}

/// After `{`: `{n}`, `{n,}`, `{,m}`, `{n,m}`; None when not an interval.
fn interval(c: &[char], i: &mut usize) -> Option<String> {
    let mut j = *i;
    let num = |j: &mut usize| -> Option<u32> {
        let s = *j;
        while c.get(*j).is_some_and(char::is_ascii_digit) {
            *j += 1;
        }
        (*j > s).then(|| c[s..*j].iter().collect::<String>().parse().unwrap_or(u32::MAX))
    };
    let lo = num(&mut j);
    let hi = if c.get(j) == Some(&',') {
        j += 1;
        Some(num(&mut j))
    } else {
        None
    };
    if c.get(j) != Some(&'}') || (lo.is_none() && hi.is_none()) {
        return None;
    }
    *i = j + 1;
    let lo = lo.unwrap_or(0).min(1000);
    Some(match hi {
        None => format!("{{{lo}}}"),
        Some(None) => format!("{{{lo},}}"),
        Some(Some(h)) => format!("{{{lo},{}}}", h.min(1000).max(lo)),
    })
}

/// One class member, escaped for a Rust class.
fn class_char(out: &mut String, ch: char) {
    if ch.is_ascii_punctuation() || ch == ' ' {
        out.push('\\');
    }
    out.push(ch);
}

/// A bracket expression starting after `[`; returns the index after `]`.
fn bracket(c: &[char], mut i: usize, out: &mut String) -> Result<usize, String> {
    let unmatched = || "Unmatched [, [^, [:, [., or [=".to_string();
    let mut cls = String::from("[");
    if c.get(i) == Some(&'^') {
        cls.push('^');
        i += 1;
    }
    let mut first = true;
    let mut prev: Option<char> = None;
    loop {
        let Some(&ch) = c.get(i) else { return Err(unmatched()) };
        i += 1;
        if ch == ']' && !first {
            break;
        }
        first = false;
        if ch == '[' && matches!(c.get(i), Some(':' | '.' | '=')) {
            let kind = c[i];
            let s = i + 1;
            let mut j = s;
            while j + 1 < c.len() && !(c[j] == kind && c[j + 1] == ']') {
                j += 1;
            }
            if j + 1 >= c.len() {
                return Err(unmatched());
            }
            let name: String = c[s..j].iter().collect();
            i = j + 2;
            if kind == ':' {
                const CLASSES: [&str; 12] = [
                    "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl",
                    "xdigit",
                ];
                if !CLASSES.contains(&name.as_str()) {
                    return Err("Invalid character class name".into());
                }
                cls.push_str(&format!("[:{name}:]"));
                prev = None;
            } else {
                for ch in name.chars() {
                    class_char(&mut cls, ch);
                    prev = Some(ch);
                }
            }
            continue;
        }
        let ch = if ch == '\\' {
            let Some(&e) = c.get(i) else { return Err(unmatched()) };
            i += 1;
            escape_char(e).unwrap_or(e)
        } else {
            ch
        };
        if ch == '-' && prev.is_some() && c.get(i).is_some_and(|&n| n != ']') {
            let lo = prev.unwrap_or('-');
            let mut hi = c[i];
            i += 1;
            if hi == '\\' {
                let Some(&e) = c.get(i) else { return Err(unmatched()) };
                i += 1;
                hi = escape_char(e).unwrap_or(e);
            }
            if hi < lo {
                return Err("Invalid range end".into());
            }
            cls.push('-');
            class_char(&mut cls, hi);
            prev = None;
            continue;
        }
        class_char(&mut cls, ch);
        prev = Some(ch);
    }
    cls.push(']');
    out.push_str(&cls);
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn translates() {
        assert_eq!(translate("a+b*").unwrap(), "(?s)a+b*");
        assert_eq!(translate("^[[:alpha:]_][^]x]").unwrap(), "(?s)^[[:alpha:]\\_][^\\]x]");
        assert_eq!(translate("\\/x\\.").unwrap(), "(?s)/x\\.");
        assert_eq!(translate("*a{2}b{").unwrap(), "(?s)\\*a{2}b\\{");
        assert_eq!(translate("[\\]a]").unwrap(), "(?s)[\\]a]");
        assert!(translate("a(").is_err());
    }
}
