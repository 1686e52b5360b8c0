//! Lexical path handling inside the sandbox. Nothing here touches a filesystem.

/// Join `path` onto `cwd` (when relative) and normalize `.`/`..`/`//` lexically.
/// The result is absolute, without a trailing slash (except `/`).
pub fn resolve(cwd: &str, path: &str) -> String {
    if path.starts_with('/') {
        normalize(path)
    } else {
        let mut joined = String::with_capacity(cwd.len() + path.len() + 1);
        joined.push_str(cwd);
        joined.push('/');
        joined.push_str(path);
        normalize(&joined)
    }
}

/// Normalize an absolute path lexically; `..` above `/` stays at `/`.
pub fn normalize(path: &str) -> String {
    if is_normal(path) {
        return path.to_string();
    }
    walk(path)
}

/// [`normalize`] the long way: every part looked at.
fn walk(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for comp in path.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    if parts.is_empty() {
        return "/".to_string();
    }
    let mut out = String::with_capacity(path.len());
    for p in parts {
        out.push('/');
        out.push_str(p);
    }
    out
}

/// Whether `path` is what [`normalize`] makes of it (most paths a script
/// names are): `/`, or `/` before each of its parts, none empty, `.` or `..`.
fn is_normal(path: &str) -> bool {
    if path == "/" {
        return true;
    }
    let Some(rest) = path.strip_prefix('/') else { return false };
    // One pass over the bytes: every part is non-empty and not `.` or `..`.
    let bad = |len: usize, dots: usize| len == 0 || (dots == len && len <= 2);
    let (mut len, mut dots) = (0, 0);
    for &c in rest.as_bytes() {
        if c == b'/' {
            if bad(len, dots) {
                return false;
            }
            (len, dots) = (0, 0);
        } else {
            len += 1;
            dots += usize::from(c == b'.');
        }
    }
    !bad(len, dots)
}

/// Parent directory of a normalized absolute path (`/` for `/`).
pub fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// Last component of a normalized absolute path (empty for `/`).
pub fn file_name(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

/// Join a directory and a name.
pub fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_and_dots() {
        assert_eq!(resolve("/a/b", "../c/./d"), "/a/c/d");
        assert_eq!(resolve("/", "x//y/"), "/x/y");
        assert_eq!(resolve("/a", "/../../z"), "/z");
        assert_eq!(resolve("/a", "."), "/a");
        assert_eq!(parent("/a/b"), "/a");
        assert_eq!(parent("/a"), "/");
        assert_eq!(file_name("/a/b"), "b");
    }

    #[test]
    fn a_path_taken_as_normal_is_what_the_full_walk_makes_of_it() {
        // Every path of up to four parts from these pieces, as bytes.
        let pieces = ["", "/", "a", ".", "..", "bc", "..x", ".y"];
        let mut paths = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &paths {
                for q in pieces {
                    next.push(format!("{p}{q}"));
                    next.push(format!("{p}/{q}"));
                }
            }
            paths.extend(next);
            paths.sort();
            paths.dedup();
        }
        for p in &paths {
            let walked = walk(p);
            assert_eq!(normalize(p), walked, "{p:?}");
            assert_eq!(is_normal(p), *p == walked, "{p:?}");
        }
    }
}
