//! Prompt strings as bash decodes them (`${x@P}`): the backslash escapes
//! `\u \h \w \t ...`; the caller then expands `$` and backquotes in the result.

use crate::state::ShellState;

/// Decode the prompt escapes of `s`.
pub fn decode(sh: &ShellState, s: &str) -> String {
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    let time = |fmt: &str| {
        String::from_utf8_lossy(&crate::commands::util::strftime::strftime(fmt.as_bytes(), now)).into_owned()
    };
    let home = sh.get_var("HOME").unwrap_or_default();
    let pwd = sh.get_var("PWD").unwrap_or_else(|| sh.cwd.clone());
    let tilde = |p: &str| -> String {
        if !home.is_empty() && (p == home || p.starts_with(&format!("{home}/"))) {
            format!("~{}", &p[home.len()..])
        } else {
            p.to_string()
        }
    };
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        match e {
            'a' => out.push('\x07'),
            'e' => out.push('\x1b'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            '\\' => out.push('\\'),
            '[' | ']' => {}
            'd' => out.push_str(&time("%a %b %d")),
            't' => out.push_str(&time("%H:%M:%S")),
            'T' => out.push_str(&time("%I:%M:%S")),
            '@' => out.push_str(&time("%I:%M %p")),
            'A' => out.push_str(&time("%H:%M")),
            'D' if chars.get(i) == Some(&'{') => match chars[i..].iter().position(|&ch| ch == '}') {
                Some(end) => {
                    let fmt: String = chars[i + 1..i + end].iter().collect();
                    out.push_str(&time(if fmt.is_empty() { "%H:%M:%S" } else { &fmt }));
                    i += end + 1;
                }
                None => out.push_str("\\D"),
            },
            'u' => out.push_str(&sh.sys.username),
            'h' => out.push_str(sh.sys.hostname.split('.').next().unwrap_or_default()),
            'H' => out.push_str(&sh.sys.hostname),
            's' => out.push_str("bash"),
            'v' => out.push_str("5.2"),
            'V' => out.push_str("5.2.15"),
            'w' => out.push_str(&tilde(&pwd)),
            'W' => {
                let t = tilde(&pwd);
                let base = if t == "/" || t == "~" { t.as_str() } else { t.rsplit('/').next().unwrap_or(&t) };
                out.push_str(base);
            }
            // A script without a terminal: no jobs of its own yet, history number 1.
            'j' | '#' => out.push('0'),
            '!' => out.push('1'),
            'l' => out.push_str("tty"),
            // The sandbox user is not root. With `promptvars` the `$` is
            // protected from the expansion that follows (decode_prompt_string).
            '$' => out.push_str(if promptvars(sh) { "\\$" } else { "$" }),
            '0'..='7' => {
                let digits: String = chars[i - 1..].iter().take(3).take_while(|d| d.is_digit(8)).collect();
                i += digits.len() - 1;
                if let Some(ch) = u32::from_str_radix(&digits, 8).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

/// `shopt promptvars`: prompts are expanded after decoding (on by default).
pub fn promptvars(sh: &ShellState) -> bool {
    sh.opts.get("promptvars", crate::state::options::Kind::Shopt) != Some(false)
}

/// The decoded prompt as a double-quoted string reads it, for an expansion
/// that treats backslashes as a here-document does: `\"` is `"` and a
/// backslash-newline disappears.
pub fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\n') => {}
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => out.push('\\'),
        }
    }
    out
}
