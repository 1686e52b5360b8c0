//! Pathname expansion against the sandbox filesystem.

use super::split::Parts;
use crate::fs::path;
use crate::limits::{Budget, Stop};
use crate::pattern::Pattern;
use crate::state::ShellState;

/// Turn one split field into words: globbed when it has unquoted pattern
/// characters and matches, else the literal text. `Ok(Some(pattern))` is a
/// pattern without matches under `failglob`.
pub async fn expand_field(sh: &ShellState, parts: Parts, out: &mut Vec<String>) -> Result<Option<String>, Stop> {
    let pat = Pattern::from_parts(&parts);
    let literal: String = parts.iter().map(|p| p.0.as_str()).collect();
    if sh.opts.noglob || !pat.is_glob_pattern(sh.opts.extglob) {
        out.push(literal_text(&parts));
        return Ok(None);
    }
    let mut matches = glob(sh, &parts).await?;
    ignore_globbed(sh, &mut matches)?;
    if matches.is_empty() {
        if sh.opts.failglob {
            return Ok(Some(literal));
        }
        if sh.opts.nullglob {
            return Ok(None);
        }
        out.push(if literal.is_empty() { String::new() } else { literal_text(&parts) });
    } else {
        out.extend(matches);
    }
    Ok(None)
}

/// `GLOBIGNORE`: drop the matches that match one of its `:`-separated
/// patterns (matched against the whole path, `*` crossing `/`), and `.` and `..`.
fn ignore_globbed(sh: &ShellState, matches: &mut Vec<String>) -> Result<(), Stop> {
    let Some(list) = sh.get_var("GLOBIGNORE").filter(|v| !v.is_empty()) else { return Ok(()) };
    // Compiled once for all the matches (a long pattern costs its length to compile).
    let (extglob, nocase) = (sh.opts.extglob, sh.opts.nocaseglob);
    let pats = split_patterns(&list).into_iter().filter(|p| !p.is_empty()).map(Pattern::from_glob_text);
    let mut pats: Vec<crate::pattern::Matcher> = pats.filter_map(|p| p.matcher(extglob, nocase)).collect();
    let mut keep = Vec::with_capacity(matches.len());
    for m in matches.drain(..) {
        let base = m.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        if base == "." || base == ".." {
            continue;
        }
        let mut ignored = false;
        for p in &mut pats {
            crate::limits::checkpoint()?;
            if p.is_match(&m)? {
                ignored = true;
                break;
            }
        }
        if !ignored {
            keep.push(m);
        }
    }
    *matches = keep;
    Ok(())
}

/// GLOBIGNORE's patterns: split on `:`, but not on one after a backslash or
/// inside brackets (`[[:alnum:]]*`). As bash's `skip_to_delim` does, a `[`
/// runs to its matching `]`, counting nested ones, and one never closed
/// takes the rest of the list: a single pass however many `[` there are.
fn split_patterns(list: &str) -> Vec<&str> {
    let b = list.as_bytes();
    let (mut out, mut start, mut i) = (Vec::new(), 0, 0);
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' if depth > 0 => depth -= 1,
            b':' if depth == 0 => {
                out.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(list.get(start..).unwrap_or(""));
    out
}

/// Dot files match once GLOBIGNORE has been given a value (bash turns
/// `dotglob` on then, and off only when GLOBIGNORE is unset).
fn globignore_set(sh: &ShellState) -> bool {
    sh.vars.get("GLOBIGNORE").is_some_and(|v| v.value.is_some())
}

/// The text of a field that is not globbed (quotes are already removed).
fn literal_text(parts: &Parts) -> String {
    parts.iter().map(|p| p.0.as_str()).collect()
}

/// How deep `**` descends.
const MAX_GLOBSTAR_DEPTH: usize = 64;

/// All paths matching the pattern, sorted.
/// The paths a pattern matches (none when nothing does), for `compgen -G`.
pub(crate) async fn glob_matches(sh: &ShellState, parts: &Parts) -> Result<Vec<String>, Stop> {
    let mut matches = glob(sh, parts).await?;
    ignore_globbed(sh, &mut matches)?;
    Ok(matches)
}

async fn glob(sh: &ShellState, parts: &Parts) -> Result<Vec<String>, Stop> {
    // Split the characters into path components on '/'.
    let mut comps: Vec<Vec<(char, bool)>> = vec![Vec::new()];
    for (text, q) in parts {
        for c in text.chars() {
            if c == '/' {
                comps.push(Vec::new());
            } else if let Some(last) = comps.last_mut() {
                last.push((c, *q));
            }
        }
    }
    let absolute = comps.first().is_some_and(|c| c.is_empty()) && comps.len() > 1;
    let limit = sh.budget.limits.max_glob_results;
    // (display prefix, real dir)
    let mut current: Vec<(String, String)> =
        vec![if absolute { ("/".into(), "/".into()) } else { (String::new(), sh.cwd.clone()) }];
    let comps: Vec<_> = if absolute { comps[1..].to_vec() } else { comps };
    let n = comps.len();
    // A GLOBIGNORE that is set and not empty turns `dotglob` on.
    let dotglob = sh.opts.dotglob || globignore_set(sh);
    for (ci, comp) in comps.iter().enumerate() {
        let last = ci + 1 == n;
        let parts: Parts = comp.iter().map(|&(c, q)| (c.to_string(), q)).collect();
        let pat = Pattern::from_parts(&parts);
        let mut next = Vec::new();
        if comp.is_empty() {
            // Trailing slash or '//': keep directories only.
            for (disp, real) in current {
                // `**/` lists the directories below, not `.` itself.
                if disp.is_empty() {
                    continue;
                }
                if sh.fs.metadata(&real).await.is_ok_and(|m| m.is_dir()) {
                    next.push((format!("{disp}/").replace("//", "/"), real));
                }
            }
            current = next;
            continue;
        }
        if sh.opts.globstar && comp.as_slice() == [('*', false), ('*', false)] {
            // `**`: every directory below (and the directory itself); as the
            // last component, every file too.
            for (disp, real) in current {
                if !last || !disp.is_empty() {
                    next.push((disp.clone(), real.clone()));
                }
                let mut stack = vec![(disp, real, 0usize)];
                while let Some((d, r, depth)) = stack.pop() {
                    let Ok(entries) = sh.fs.read_dir(&r).await else {
                        continue;
                    };
                    for e in entries {
                        crate::limits::checkpoint()?;
                        if e.name.starts_with('.') && !dotglob {
                            continue;
                        }
                        let p = path::join(&r, &e.name);
                        let is_dir = e.file_type == crate::fs::FileType::Dir;
                        if is_dir {
                            next.push((format!("{d}{}{}", e.name, if last { "" } else { "/" }), p.clone()));
                            if depth < MAX_GLOBSTAR_DEPTH {
                                stack.push((format!("{d}{}/", e.name), p, depth + 1));
                            }
                        } else if last {
                            next.push((format!("{d}{}", e.name), p));
                        }
                        if next.len() as u64 > limit {
                            return Err(Budget::exceeded("max_glob_results", limit, "glob result count"));
                        }
                    }
                }
            }
            current = next;
            continue;
        }
        if !pat.has_meta(sh.opts.extglob) {
            let name = pat.literal();
            for (disp, real) in current {
                let p = path::join(&real, &name);
                let exists = if last {
                    sh.fs.symlink_metadata(&p).await.is_ok()
                } else {
                    sh.fs.metadata(&p).await.is_ok_and(|m| m.is_dir())
                };
                if exists {
                    next.push((format!("{disp}{name}{}", if last { "" } else { "/" }), p));
                }
            }
            current = next;
            continue;
        }
        // Compiled once for every entry of every directory.
        let Some(mut matcher) = pat.matcher(sh.opts.extglob, sh.opts.nocaseglob) else {
            return Ok(Vec::new());
        };
        let explicit_dot = comp.first().is_some_and(|&(c, _)| c == '.');
        // With `globskipdots` off, a pattern that starts with `.` may match
        // `.` and `..` too.
        let dots = explicit_dot && !sh.opts.globskipdots;
        for (disp, real) in current {
            let Ok(mut entries) = sh.fs.read_dir(&real).await else {
                continue;
            };
            if dots {
                for name in ["..", "."] {
                    entries.insert(0, crate::fs::DirEntry { name: name.into(), file_type: crate::fs::FileType::Dir });
                }
            }
            for e in entries {
                if e.name.starts_with('.') && !explicit_dot && !dotglob {
                    continue;
                }
                crate::limits::checkpoint()?;
                if !matcher.is_match(&e.name)? {
                    continue;
                }
                let p = path::join(&real, &e.name);
                if !last && !sh.fs.metadata(&p).await.is_ok_and(|m| m.is_dir()) {
                    continue;
                }
                next.push((format!("{disp}{}{}", e.name, if last { "" } else { "/" }), p));
                if next.len() as u64 > limit {
                    return Err(Budget::exceeded("max_glob_results", limit, "glob result count"));
                }
            }
        }
        current = next;
    }
    let mut out: Vec<String> = current.into_iter().map(|(d, _)| d).collect();
    out.sort();
    Ok(out)
}
