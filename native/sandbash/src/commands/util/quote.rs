//! Quoting of names in messages (gnulib quotearg, shell-escape style) and the locale it follows.

fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.starts_with(['#', '~'])
        || s.chars().any(|c| c.is_control() || c.is_whitespace() || " !\"$&'()*;<=>?[\\^`|:".contains(c))
}

/// Quote `s` as GNU does for `'name'` in messages (always quoted): single
/// quotes, `'\''` for a quote, `$'\n'` for control characters; double quotes
/// when a single quote is the only special character.
pub fn quote(s: &str) -> String {
    if s.contains('\'') && !s.chars().any(|c| c.is_control() || "\"$`\\!".contains(c)) {
        return format!("\"{s}\"");
    }
    let mut out = String::new();
    let mut run = String::new();
    let mut open = false;
    for c in s.chars() {
        if c.is_control() {
            if open || !run.is_empty() || out.is_empty() {
                out.push('\'');
                out.push_str(&run);
                out.push('\'');
                run.clear();
            }
            out.push_str("$'");
            out.push_str(&ctrl_escape(c));
            out.push('\'');
            open = false;
        } else {
            open = true;
            if c == '\'' {
                run.push_str("'\\''");
            } else {
                run.push(c);
            }
        }
    }
    if open || out.is_empty() {
        out.push('\'');
        out.push_str(&run);
        out.push('\'');
    }
    out
}

tokio::task_local! {
    /// Whether the running utility's locale is UTF-8 (set per command by the
    /// interpreter from LC_ALL / LC_MESSAGES / LANG).
    static UTF8_LOCALE: bool;
}

/// Run `fut` (a utility) with the quoting style of the locale `env` names:
/// UTF-8 unless LC_ALL, LC_MESSAGES or LANG (the first one set) says
/// otherwise, e.g. `C` or `POSIX`. The sandbox's default locale is C.UTF-8.
pub async fn with_locale<F: std::future::Future>(env: &dyn crate::commands::EnvView, fut: F) -> F::Output {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|k| env.get(k).filter(|v| !v.is_empty()));
    let utf8 = match locale {
        None => true,
        Some(l) => {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        }
    };
    UTF8_LOCALE.scope(utf8, fut).await
}

/// Whether the running utility's locale is UTF-8 (C.UTF-8 unless the
/// environment names another; ASCII-only outside a utility, as in unit tests).
pub fn locale_is_utf8() -> bool {
    UTF8_LOCALE.try_with(|u| *u).unwrap_or(false)
}

/// GNU's `quote()`: the locale's quotation marks, `‘x’` in a UTF-8 locale
/// and `'x'` otherwise (file names in "cannot open" messages use [`quote`],
/// which is always ASCII, as GNU's `quoteaf` is).
pub fn quote_locale(s: &str) -> String {
    let utf8 = UTF8_LOCALE.try_with(|u| *u).unwrap_or(false);
    if utf8 && !s.chars().any(char::is_control) {
        format!("\u{2018}{s}\u{2019}")
    } else if utf8 {
        format!("\u{2018}{}\u{2019}", quote(s).trim_matches('\''))
    } else {
        quote(s)
    }
}

/// Quote `s` only when it needs it (GNU `quotef`, used for `wc: name: ...`).
pub fn quotef(s: &str) -> String {
    if needs_quotes(s) {
        quote(s)
    } else {
        s.to_string()
    }
}

fn ctrl_escape(c: char) -> String {
    match c {
        '\x07' => "\\a".into(),
        '\x08' => "\\b".into(),
        '\x0c' => "\\f".into(),
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        '\t' => "\\t".into(),
        '\x0b' => "\\v".into(),
        c => {
            let mut buf = [0u8; 4];
            c.encode_utf8(&mut buf).bytes().map(|b| format!("\\{b:03o}")).collect()
        }
    }
}
