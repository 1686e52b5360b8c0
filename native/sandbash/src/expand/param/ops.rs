//! The operators' work on values: ${x:off:len} ranges, # and % affixes, / replacements, case changes' helpers, @Q quoting and @P prompts.

use super::*;

/// Char range for `${x:off:len}`; `None` when out of range.
pub(crate) fn slice_range(n: usize, off: i64, len: Option<i64>) -> Option<(usize, usize)> {
    let n = n as i64;
    let start = if off < 0 { n + off } else { off };
    if start < 0 || start > n {
        return None;
    }
    let end = match len {
        None => n,
        Some(l) if l < 0 => n + l,
        Some(l) => (start + l).min(n),
    };
    if end < start {
        return None;
    }
    Some((start as usize, end as usize))
}

/// `${x#pat}`, `${x##pat}`, `${x%pat}`, `${x%%pat}`: one scan gives every
/// end of a prefix match (forward) or every start of a suffix match (reverse).
/// `None`: a pattern that cannot be compiled, which matches nothing.
pub(crate) fn remove_affix(
    s: &str,
    scanner: Option<&mut Searcher>,
    suffix: bool,
    largest: bool,
) -> Result<String, Stop> {
    let Some(sc) = scanner else {
        return Ok(s.to_string());
    };
    let mut cut = None;
    if suffix {
        // Starts come from the end: the first is the shortest suffix.
        sc.starts(s, |i| {
            cut = Some(i);
            largest
        })?;
        Ok(cut.map_or(s, |i| &s[..i]).to_string())
    } else {
        sc.ends(s, 0, |j| {
            cut = Some(j);
            largest
        })?;
        Ok(cut.map_or(s, |j| &s[j..]).to_string())
    }
}

/// The replacement of `${x/pat/rep}`: text, and where the match goes.
pub(super) struct Replacement(Vec<RepPiece>);

pub(super) enum RepPiece {
    Text(String),
    /// An unquoted `&` under `shopt -s patsub_replacement`.
    Match,
}

impl Replacement {
    pub(super) fn literal(s: String) -> Self {
        Replacement(vec![RepPiece::Text(s)])
    }

    /// From expanded `(text, quoted)` parts: each unquoted `&` is the match.
    pub(super) fn from_parts(parts: &[(String, bool)]) -> Self {
        let mut pieces = Vec::new();
        let mut text = String::new();
        for (t, quoted) in parts {
            if *quoted {
                text.push_str(t);
                continue;
            }
            for c in t.chars() {
                if c == '&' {
                    pieces.push(RepPiece::Text(std::mem::take(&mut text)));
                    pieces.push(RepPiece::Match);
                } else {
                    text.push(c);
                }
            }
        }
        pieces.push(RepPiece::Text(text));
        Replacement(pieces)
    }
}

/// Append `text` to the result of a replacement, within `max_string_bytes`
/// and the session's memory: checked before the bytes are allocated.
pub(super) fn push_checked(out: &mut String, text: &str, limit: u64) -> Result<(), Stop> {
    let len = (out.len() + text.len()) as u64;
    if len > limit {
        return Err(Budget::exceeded("max_string_bytes", limit, "expansion size"));
    }
    if text.len() > 4096 {
        crate::limits::reserve(text.len() as u64)?;
    }
    out.push_str(text);
    Ok(())
}

impl Replacement {
    /// Append the replacement for one match, within `limit`.
    pub(super) fn push_checked(&self, out: &mut String, matched: &str, limit: u64) -> Result<(), Stop> {
        crate::limits::checkpoint()?;
        for p in &self.0 {
            match p {
                RepPiece::Text(t) => push_checked(out, t, limit)?,
                RepPiece::Match => push_checked(out, matched, limit)?,
            }
        }
        Ok(())
    }
}

/// `${x/pat/rep}` and its `//`, `/#`, `/%` forms. Matches are leftmost-longest
/// (an empty match is replaced too, as in bash): one reverse scan marks the
/// positions where a match starts, and from each marked position (not inside
/// an earlier match) a forward scan finds the longest end.
pub(super) fn replace(
    s: &str,
    scanner: Option<&mut Searcher>,
    rep: &Replacement,
    kind: &SubstringMatchKind,
    limit: u64,
) -> Result<String, Stop> {
    let Some(sc) = scanner else {
        return Ok(s.to_string());
    };
    match kind {
        SubstringMatchKind::Prefix => {
            let mut end = None;
            sc.ends(s, 0, |j| {
                end = Some(j);
                true
            })?;
            let Some(j) = end else { return Ok(s.to_string()) };
            let mut out = String::new();
            rep.push_checked(&mut out, &s[..j], limit)?;
            push_checked(&mut out, &s[j..], limit)?;
            Ok(out)
        }
        SubstringMatchKind::Suffix => {
            let mut start = None;
            sc.starts(s, |i| {
                start = Some(i);
                true
            })?;
            let Some(i) = start.filter(|&i| i < s.len() || s.is_empty() || sc.matches_at_end()) else {
                return Ok(s.to_string());
            };
            let mut out = String::new();
            push_checked(&mut out, &s[..i], limit)?;
            rep.push_checked(&mut out, &s[i..], limit)?;
            Ok(out)
        }
        SubstringMatchKind::FirstOccurrence | SubstringMatchKind::Anywhere => {
            let all = matches!(kind, SubstringMatchKind::Anywhere);
            let Some(starts) = sc.match_starts(s)? else { return Ok(s.to_string()) };
            // An empty value matches a pattern that matches the empty string.
            if s.is_empty() {
                let mut out = String::new();
                if starts.get(0) {
                    rep.push_checked(&mut out, "", limit)?;
                }
                return Ok(out);
            }
            let mut out = String::new();
            // Copied up to here; no match may start before it.
            let mut done = 0;
            for i in 0..s.len() {
                if i < done || !starts.get(i) {
                    continue;
                }
                let mut longest = i;
                sc.ends(s, i, |j| {
                    longest = j;
                    true
                })?;
                push_checked(&mut out, &s[done..i], limit)?;
                rep.push_checked(&mut out, &s[i..longest], limit)?;
                // As bash: after an empty match the next character is kept
                // and matching goes on after it.
                done = longest;
                if !all {
                    break;
                }
            }
            push_checked(&mut out, &s[done..], limit)?;
            Ok(out)
        }
    }
}

pub(super) fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Quote for reuse as shell input (`${x@Q}`, `declare -p`): single quotes.
pub fn quote(s: &str) -> String {
    // bash's sh_single_quote: a lone quote is `\'`.
    if s == "'" {
        return "\\'".to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Quote only when needed (how `set` and `declare` print plain values).
/// `${x@Q}`: single quotes, or `$'...'` when the value holds control characters.
pub(super) fn quote_reusable(s: &str) -> String {
    if s.chars().any(crate::raw_bytes::wants_ansi_quotes) {
        quote_if_needed(s)
    } else {
        quote(s)
    }
}

pub fn quote_if_needed(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_-./:,+@%^=".contains(c)) {
        s.to_string()
    } else if s.chars().any(crate::raw_bytes::wants_ansi_quotes) {
        let mut out = String::from("$'");
        for c in s.chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\x1b' => out.push_str("\\E"),
                '\x07' => out.push_str("\\a"),
                '\x08' => out.push_str("\\b"),
                '\x0c' => out.push_str("\\f"),
                '\x0b' => out.push_str("\\v"),
                '\'' => out.push_str("\\'"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() => out.push_str(&format!("\\{:03o}", c as u32)),
                c if crate::raw_bytes::as_byte(c).is_some() => {
                    out.push_str(&format!("\\{:03o}", crate::raw_bytes::as_byte(c).unwrap_or(0)))
                }
                c => out.push(c),
            }
        }
        out.push('\'');
        out
    } else {
        quote(s)
    }
}

/// `${x@P}` of a value: prompt escapes, then expansions in the result.
pub(super) async fn prompt_expand(sh: &mut ShellState, fds: &Fds, v: PV) -> Result<PV, Flow> {
    Ok(match v {
        PV::Str(s) => PV::Str(prompt_one(sh, fds, &s).await?),
        PV::List(items, c) => {
            let mut out = Vec::with_capacity(items.len());
            for s in items {
                out.push(prompt_one(sh, fds, &s).await?);
            }
            PV::List(out, c)
        }
        PV::Unset => PV::Unset,
    })
}

/// One prompt string: decoded, then (with `promptvars`) expanded as inside double quotes.
async fn prompt_one(sh: &mut ShellState, fds: &Fds, s: &str) -> Result<String, Flow> {
    let decoded = super::super::prompt::decode(sh, s);
    if !super::super::prompt::promptvars(sh) {
        return Ok(decoded);
    }
    super::super::expand_heredoc(sh, fds, &super::super::prompt::double_quoted(&decoded)).await
}
