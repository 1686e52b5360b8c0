//! Shell patterns (globs): `*`, `?`, `[...]` and extglob groups, compiled to a
//! regex. Used by pathname expansion, `case`, `[[ == ]]` and `${x#pat}`.
//! Quoted characters match literally.

use parking_lot::Mutex;
use regex::{Regex, RegexBuilder};
use std::collections::HashMap;
use std::sync::LazyLock;

/// Compiled patterns kept for reuse (cleared when full).
const CACHE_ENTRIES: usize = 256;
static CACHE: LazyLock<Mutex<HashMap<(String, bool), Regex>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// Largest compiled pattern (regex program bytes); bounds memory and time.
const MAX_REGEX_SIZE: usize = 1 << 20;

/// A pattern built from characters, each marked quoted (literal) or not.
#[derive(Clone, Debug, Default)]
pub struct Pattern {
    chars: Vec<(char, bool)>,
}

impl Pattern {
    /// From expanded parts: `(text, quoted)`.
    pub fn from_parts(parts: &[(String, bool)]) -> Self {
        let mut chars = Vec::new();
        for (text, quoted) in parts {
            chars.extend(text.chars().map(|c| (c, *quoted)));
        }
        Pattern { chars }
    }

    /// From a pattern string where nothing is quoted except by backslashes.
    pub fn from_glob_text(s: &str) -> Self {
        Pattern { chars: s.chars().map(|c| (c, false)).collect() }
    }

    /// True when some unquoted character makes this more than a literal string.
    pub fn has_meta(&self, extglob: bool) -> bool {
        let c = &self.chars;
        c.iter().enumerate().any(|(i, &(ch, q))| {
            !q && (matches!(ch, '*' | '?' | '\\')
                || (ch == '[' && bracket(c, i).is_some())
                || (extglob && matches!(ch, '+' | '@' | '!') && c.get(i + 1).is_some_and(|&(n, nq)| n == '(' && !nq)))
        })
    }

    /// The literal text (quote removal, backslashes dropped).
    pub fn literal(&self) -> String {
        let mut out = String::new();
        let mut esc = false;
        for &(c, q) in &self.chars {
            if !q && !esc && c == '\\' {
                esc = true;
                continue;
            }
            esc = false;
            out.push(c);
        }
        out
    }

    /// The regex source (unanchored) for this pattern.
    pub fn regex_source(&self, extglob: bool) -> String {
        let mut out = String::new();
        let mut i = 0;
        let c = &self.chars;
        translate(c, &mut i, &mut out, extglob, false);
        out
    }

    /// Compile as a full match (`^...$`). Compiled patterns are cached, since
    /// loops match the same `case` or `[[ == ]]` pattern over and over.
    pub fn compile(&self, extglob: bool, nocase: bool) -> Option<Regex> {
        let src = format!("^(?:{})$", self.regex_source(extglob));
        let key = (src, nocase);
        if let Some(r) = CACHE.lock().get(&key) {
            return Some(r.clone());
        }
        let re = RegexBuilder::new(&key.0)
            .dot_matches_new_line(true)
            .case_insensitive(nocase)
            .size_limit(MAX_REGEX_SIZE)
            .build()
            .ok()?;
        let mut cache = CACHE.lock();
        if cache.len() >= CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, re.clone());
        Some(re)
    }

    /// Does the whole of `s` match?
    pub fn matches(&self, s: &str, extglob: bool) -> bool {
        self.matches_case(s, extglob, false)
    }

    /// Does the whole of `s` match, optionally ignoring case?
    pub fn matches_case(&self, s: &str, extglob: bool, nocase: bool) -> bool {
        if !self.has_meta(extglob) && !nocase {
            return self.literal() == s;
        }
        if extglob {
            if let Some(neg) = self.negations(nocase) {
                return neg.is_match(s);
            }
        }
        self.compile(extglob, nocase).is_some_and(|r| r.is_match(s))
    }

    /// The pattern split at its top-level `!(...)` groups, when it has any.
    fn negations(&self, nocase: bool) -> Option<NegMatcher> {
        let c = &self.chars;
        let mut parts = Vec::new();
        let mut negs = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < c.len() {
            let (ch, q) = c[i];
            if !q && ch == '\\' {
                i += 2;
                continue;
            }
            if !q && ch == '[' {
                if let Some((_, end)) = bracket(c, i) {
                    i = end;
                    continue;
                }
            }
            if !q && matches!(ch, '?' | '*' | '+' | '@' | '!') && c.get(i + 1) == Some(&('(', false)) {
                let (alts, end) = extglob_group(c, i + 2, true)?;
                if ch == '!' {
                    parts.push(Pattern { chars: c[start..i].to_vec() });
                    negs.push(anchored(&alts.join("|"), nocase)?);
                    start = end;
                }
                i = end;
                continue;
            }
            i += 1;
        }
        if negs.is_empty() {
            return None;
        }
        parts.push(Pattern { chars: c[start..].to_vec() });
        let parts = parts.iter().map(|p| anchored(&p.regex_source(true), nocase)).collect::<Option<Vec<_>>>()?;
        Some(NegMatcher { parts, negs })
    }
}

fn anchored(src: &str, nocase: bool) -> Option<Regex> {
    RegexBuilder::new(&format!("^(?:{src})$"))
        .dot_matches_new_line(true)
        .case_insensitive(nocase)
        .size_limit(MAX_REGEX_SIZE)
        .build()
        .ok()
}

/// Longest text tried against a pattern with `!(...)` (the search is quadratic per group).
const MAX_NEG_TEXT: usize = 4096;

/// `P0 !(N1) P1 !(N2) P2 ...`: each `Pk` and `Nk` a full-match regex. `!(N)`
/// matches any text that `N` does not match, which a regex cannot express, so
/// the splits are searched.
struct NegMatcher {
    parts: Vec<Regex>,
    negs: Vec<Regex>,
}

impl NegMatcher {
    fn is_match(&self, s: &str) -> bool {
        if s.len() > MAX_NEG_TEXT {
            return false;
        }
        let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
        let mut failed = std::collections::HashSet::new();
        self.from(s, &bounds, 0, 0, &mut failed)
    }

    /// Does `s[bounds[at]..]` match parts `k..`?
    fn from(
        &self,
        s: &str,
        bounds: &[usize],
        k: usize,
        at: usize,
        failed: &mut std::collections::HashSet<(usize, usize)>,
    ) -> bool {
        if k == self.negs.len() {
            return self.parts[k].is_match(&s[bounds[at]..]);
        }
        if failed.contains(&(k, at)) {
            return false;
        }
        for e in at..bounds.len() {
            if !self.parts[k].is_match(&s[bounds[at]..bounds[e]]) {
                continue;
            }
            for f in e..bounds.len() {
                if !self.negs[k].is_match(&s[bounds[e]..bounds[f]]) && self.from(s, bounds, k + 1, f, failed) {
                    return true;
                }
            }
        }
        failed.insert((k, at));
        false
    }
}

/// Translate `chars[*i..]` into regex syntax, stopping at an unquoted `)` or `|`
/// when `in_group` (extglob alternatives).
fn translate(c: &[(char, bool)], i: &mut usize, out: &mut String, extglob: bool, in_group: bool) {
    while *i < c.len() {
        let (ch, quoted) = c[*i];
        if quoted {
            push_lit(out, ch);
            *i += 1;
            continue;
        }
        if in_group && (ch == ')' || ch == '|') {
            return;
        }
        if extglob && matches!(ch, '?' | '*' | '+' | '@' | '!') && c.get(*i + 1) == Some(&('(', false)) {
            if let Some(group) = extglob_group(c, *i + 2, extglob) {
                let (alts, end) = group;
                let body = alts.join("|");
                match ch {
                    '?' => out.push_str(&format!("(?:{body})?")),
                    '*' => out.push_str(&format!("(?:{body})*")),
                    '+' => out.push_str(&format!("(?:{body})+")),
                    '@' => out.push_str(&format!("(?:{body})")),
                    // Negation needs look-ahead, which this regex engine lacks:
                    // approximate `!(x)` as "anything" only when x can't be handled.
                    _ => out.push_str(".*"),
                }
                *i = end;
                continue;
            }
        }
        match ch {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '\\' => {
                if let Some(&(next, _)) = c.get(*i + 1) {
                    push_lit(out, next);
                    *i += 1;
                } else {
                    push_lit(out, '\\');
                }
            }
            '[' => match bracket(c, *i) {
                Some((class, end)) => {
                    out.push_str(&class);
                    *i = end;
                    continue;
                }
                None => push_lit(out, '['),
            },
            _ => push_lit(out, ch),
        }
        *i += 1;
    }
}

/// Parse `(a|b)` alternatives starting after `(`; returns them and the index after `)`.
fn extglob_group(c: &[(char, bool)], start: usize, extglob: bool) -> Option<(Vec<String>, usize)> {
    let mut alts = Vec::new();
    let mut i = start;
    loop {
        let mut alt = String::new();
        translate(c, &mut i, &mut alt, extglob, true);
        alts.push(alt);
        match c.get(i) {
            Some(&('|', false)) => i += 1,
            Some(&(')', false)) => return Some((alts, i + 1)),
            _ => return None,
        }
    }
}

/// Translate a bracket expression starting at `c[start] == '['`.
fn bracket(c: &[(char, bool)], start: usize) -> Option<(String, usize)> {
    let mut i = start + 1;
    let mut out = String::from("[");
    if matches!(c.get(i), Some(&('!', false)) | Some(&('^', false))) {
        out.push('^');
        i += 1;
    }
    let first = i;
    while i < c.len() {
        let (ch, q) = c[i];
        if ch == ']' && !q && i > first {
            out.push(']');
            return Some((out, i + 1));
        }
        if ch == '[' && !q && c.get(i + 1) == Some(&(':', false)) {
            // [:class:]
            // The class name runs from after `[:` to the next `:]` (in chars).
            let window: Vec<char> = c[i..].iter().take(12).map(|x| x.0).collect();
            let end = (2..window.len().saturating_sub(1)).find(|&k| window[k] == ':' && window[k + 1] == ']');
            if let Some(end) = end {
                let name: String = window[2..end].iter().collect();
                let name = name.as_str();
                if matches!(
                    name,
                    "alpha"
                        | "digit"
                        | "alnum"
                        | "upper"
                        | "lower"
                        | "space"
                        | "blank"
                        | "punct"
                        | "print"
                        | "graph"
                        | "cntrl"
                        | "xdigit"
                        | "word"
                ) {
                    out.push_str(&format!("[:{name}:]"));
                    i += end + 2;
                    continue;
                }
            }
        }
        if ch == '\\' && !q {
            if let Some(&(n, _)) = c.get(i + 1) {
                push_class_lit(&mut out, n);
                i += 2;
                continue;
            }
        }
        if ch == '-' && !q && i > first && c.get(i + 1).is_some_and(|&(n, _)| n != ']') {
            out.push('-');
        } else {
            push_class_lit(&mut out, ch);
        }
        i += 1;
    }
    None
}

fn push_lit(out: &mut String, ch: char) {
    let mut buf = [0u8; 4];
    out.push_str(&regex::escape(ch.encode_utf8(&mut buf)));
}

fn push_class_lit(out: &mut String, ch: char) {
    if matches!(ch, '[' | ']' | '\\' | '^' | '-' | '&' | '~') {
        out.push('\\');
    }
    out.push(ch);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, s: &str) -> bool {
        Pattern::from_glob_text(p).matches(s, true)
    }

    #[test]
    fn globs() {
        assert!(m("*.txt", "a.txt"));
        assert!(!m("*.txt", "a.txt.bak"));
        assert!(m("a?c", "abc"));
        assert!(m("[a-c]x", "bx"));
        assert!(!m("[!a-c]x", "bx"));
        assert!(m("[[:digit:]]*", "1abc"));
        assert!(m("[]a]", "]"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "a"));
        assert!(m("@(foo|bar).c", "bar.c"));
        assert!(m("+(ab)", "ababab"));
        assert!(m("a.b", "a.b") && !m("a.b", "axb"));
        let quoted = Pattern::from_parts(&[("*".into(), true), ("*".into(), false)]);
        assert!(quoted.matches("*abc", true));
        assert!(!quoted.matches("abc", true));
    }
}
