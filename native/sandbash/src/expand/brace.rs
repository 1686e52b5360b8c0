//! Brace expansion on raw word text: `a{b,c}d`, `{1..10..2}`, `{01..10}`,
//! `{a..e}`, nested. Quoted text and `${...}`/`$(...)` are left alone.

use crate::limits::{Budget, Stop};

/// Expand every brace group of `word`; a word without one comes back as is.
pub fn expand(word: &str, max_items: u64) -> Result<Vec<String>, Stop> {
    if !word.contains('{') {
        return Ok(vec![word.to_string()]);
    }
    let mut count = 0u64;
    expand_inner(word, max_items, &mut count)
}

/// The error of a word whose groups nest (or follow each other) deeper than
/// the native stack allows: bash would expand it, slowly.
fn too_deep() -> Stop {
    Stop::Limit("brace expansion nested too deeply (native stack)".into())
}

/// Recursive on the alternatives and on the rest of the word: each level
/// checks the stack, so a word built at run time (`eval` of `{a,{a,...}}`)
/// stops cleanly. Each scan checkpoints, and each word made is charged to
/// the memory budget before it is built.
fn expand_inner(word: &str, max: u64, count: &mut u64) -> Result<Vec<String>, Stop> {
    if crate::limits::stack_low() {
        return Err(too_deep());
    }
    let Some((start, end, alts)) = find_group(word, max)? else {
        return Ok(vec![word.to_string()]);
    };
    let prefix = &word[..start];
    let suffix = &word[end + 1..];
    let rests = expand_inner(suffix, max, count)?;
    let mut out = Vec::new();
    for alt in alts {
        for a in expand_inner(&alt, max, count)? {
            for r in &rests {
                *count += 1;
                if *count > max {
                    return Err(Budget::exceeded("max_brace_items", max, "brace expansion size"));
                }
                crate::limits::checkpoint()?;
                let len = prefix.len() + a.len() + r.len();
                if len > 1 << 16 {
                    crate::limits::reserve(len as u64)?;
                }
                out.push(format!("{prefix}{a}{r}"));
            }
        }
    }
    Ok(out)
}

/// Index just past a quoted region or `$`-construct starting at `i`, if any.
/// Recursive on quotes inside substitutions inside quotes; with the stack
/// nearly used the rest of the word counts as quoted (no expansion there).
fn skip_special(b: &[u8], i: usize) -> Option<usize> {
    if crate::limits::stack_low() {
        return Some(b.len());
    }
    match b[i] {
        b'\\' => Some((i + 2).min(b.len())),
        b'\'' => Some(find_close(b, i + 1, b'\'').map_or(b.len(), |j| j + 1)),
        b'"' => {
            // `"$(printf "}")"`: a command substitution inside double quotes
            // has quotes of its own. Nothing else does to bash's brace
            // expansion (braces.c): in `"${b-"{a,b}"}"` the inner quote ends
            // the quoted part, and `{a,b}` expands.
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                if b[j] == b'$' && b.get(j + 1) == Some(&b'(') {
                    if let Some(n) = skip_special(b, j) {
                        j = n;
                        continue;
                    }
                }
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            Some((j + 1).min(b.len()))
        }
        b'`' => Some(find_close(b, i + 1, b'`').map_or(b.len(), |j| j + 1)),
        b'$' if i + 1 < b.len() && matches!(b[i + 1], b'{' | b'(') => {
            let (open, close) = if b[i + 1] == b'{' { (b'{', b'}') } else { (b'(', b')') };
            let mut depth = 0;
            let mut j = i + 1;
            while j < b.len() {
                if b[j] == open {
                    depth += 1;
                } else if b[j] == close {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j + 1);
                    }
                } else if matches!(b[j], b'\'' | b'"' | b'\\') {
                    j = skip_special(b, j).unwrap_or(j + 1);
                    continue;
                }
                j += 1;
            }
            Some(b.len())
        }
        _ => None,
    }
}

fn find_close(b: &[u8], from: usize, c: u8) -> Option<usize> {
    (from..b.len()).find(|&j| b[j] == c)
}

/// The first brace group: (index of `{`, index of `}`, alternatives).
type Group = (usize, usize, Vec<String>);

fn find_group(word: &str, max: u64) -> Result<Option<Group>, Stop> {
    let b = word.as_bytes();
    let mut i = 0;
    while i < b.len() {
        crate::limits::checkpoint()?;
        if let Some(n) = skip_special(b, i) {
            i = n;
            continue;
        }
        if b[i] == b'{' {
            if let Some((end, commas)) = match_brace(b, i)? {
                let inner = &word[i + 1..end];
                if !commas.is_empty() {
                    let mut alts = Vec::new();
                    let mut last = i + 1;
                    for c in commas {
                        alts.push(word[last..c].to_string());
                        last = c + 1;
                    }
                    alts.push(word[last..end].to_string());
                    return Ok(Some((i, end, alts)));
                }
                if let Some(seq) = sequence(inner, max) {
                    return Ok(Some((i, end, seq)));
                }
            }
        }
        i += 1;
    }
    Ok(None)
}

/// The `}` matching the `{` at `open`, and the top-level commas between.
/// Linear, but run from every unmatched `{`: it checkpoints.
fn match_brace(b: &[u8], open: usize) -> Result<Option<(usize, Vec<usize>)>, Stop> {
    let mut depth = 0;
    let mut commas = Vec::new();
    let mut i = open;
    while i < b.len() {
        crate::limits::checkpoint()?;
        if i > open {
            if let Some(n) = skip_special(b, i) {
                i = n;
                continue;
            }
        }
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some((i, commas)));
                }
            }
            b',' if depth == 1 => commas.push(i),
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

/// `{x..y[..step]}` with integers or single letters.
/// A sequence longer than `max` yields `max + 1` items so the caller's count trips.
fn sequence(inner: &str, max: u64) -> Option<Vec<String>> {
    let parts: Vec<&str> = inner.split("..").collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse::<i64>().ok()?.checked_abs()?,
        None => 1,
    };
    let step = if step == 0 { 1 } else { step };
    if let (Ok(a), Ok(z)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        let padded = |s: &str| {
            let d = s.trim_start_matches('-');
            d.len() > 1 && d.starts_with('0')
        };
        let width = if padded(parts[0]) || padded(parts[1]) { parts[0].len().max(parts[1].len()) } else { 0 };
        let mut out = Vec::new();
        let mut v = a;
        loop {
            if width > 0 {
                // (Not `format!`'s width: it panics past 65,535, and an
                // operand of a long run of zeros asks for more.)
                use crate::commands::util::pad;
                if v < 0 {
                    out.push(format!("-{}", pad::right(&v.unsigned_abs().to_string(), width - 1, '0')));
                } else {
                    out.push(pad::right(&v.to_string(), width, '0'));
                }
            } else {
                out.push(v.to_string());
            }
            if out.len() as u64 > max {
                break;
            }
            if a <= z {
                v = v.checked_add(step)?;
                if v > z {
                    break;
                }
            } else {
                v = v.checked_sub(step)?;
                if v < z {
                    break;
                }
            }
        }
        return Some(out);
    }
    let (ca, cz) = (single_char(parts[0])?, single_char(parts[1])?);
    if !ca.is_ascii_alphabetic() || !cz.is_ascii_alphabetic() {
        return None;
    }
    let (a, z) = (ca as i64, cz as i64);
    let mut out = Vec::new();
    let mut v = a;
    loop {
        out.push((v as u8 as char).to_string());
        if a <= z {
            v += step;
            if v > z {
                break;
            }
        } else {
            v -= step;
            if v < z {
                break;
            }
        }
    }
    Some(out)
}

fn single_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    let c = it.next()?;
    it.next().is_none().then_some(c)
}

#[cfg(test)]
mod tests {
    use super::expand;

    fn e(s: &str) -> Vec<String> {
        expand(s, 1000).unwrap()
    }

    #[test]
    fn forms() {
        assert_eq!(e("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(e("{1..3}"), ["1", "2", "3"]);
        assert_eq!(e("{3..1}"), ["3", "2", "1"]);
        assert_eq!(e("{01..03}"), ["01", "02", "03"]);
        assert_eq!(e("{1..10..4}"), ["1", "5", "9"]);
        assert_eq!(e("{a..c}"), ["a", "b", "c"]);
        assert_eq!(e("{a,b{1,2}}"), ["a", "b1", "b2"]);
        assert_eq!(e("{x}"), ["{x}"]);
        assert_eq!(e("'{a,b}'"), ["'{a,b}'"]);
        assert_eq!(e("${x:-{a,b}}"), ["${x:-{a,b}}"]);
        assert_eq!(e("{a,b}{1,2}"), ["a1", "a2", "b1", "b2"]);
        assert!(expand("{1..100}{1..100}", 50).is_err());
    }
}
