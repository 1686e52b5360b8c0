//! What changed in a [`MemoryFs`] between two moments: files created, modified
//! and deleted, with the SHA-256 of what is there now, so an application can
//! mirror the sandbox into its own store by syncing only those. A moment is a
//! [`MemoryTree`] (an export: the node map with file data shared, not copied),
//! so a baseline costs a map of paths and the diff hashes only changed files.

use super::memory::{Kind, MemoryTree, DEVICES};
use sha2::{Digest, Sha256};

/// One created or modified file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    pub path: String,
    pub size: u64,
    /// Lowercase hex.
    pub sha256: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub created: Vec<Changed>,
    pub modified: Vec<Changed>,
    pub deleted: Vec<String>,
}

fn hex_sha256(data: &[u8]) -> String {
    Sha256::digest(data).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `path` is `prefix` or under it (`None` or `/` take everything).
fn under(path: &str, prefix: Option<&str>) -> bool {
    match prefix.map(|p| p.trim_end_matches('/')) {
        None | Some("") => true,
        Some(p) => path == p || path.strip_prefix(p).is_some_and(|rest| rest.starts_with('/')),
    }
}

/// Regular files of `before` and `now` that differ (devices never count).
pub fn diff(before: &MemoryTree, now: &MemoryTree, prefix: Option<&str>) -> Changes {
    let file = |t: &MemoryTree, p: &str| match t.nodes.get(p).map(|n| &n.kind) {
        Some(Kind::File(d)) => Some(d.clone()),
        _ => None,
    };
    let mut out = Changes::default();
    for (path, node) in &now.nodes {
        let Kind::File(data) = &node.kind else { continue };
        if DEVICES.contains(&path.as_str()) || !under(path, prefix) {
            continue;
        }
        let entry = || Changed { path: path.clone(), size: data.len() as u64, sha256: hex_sha256(data) };
        match file(before, path) {
            None => out.created.push(entry()),
            // Unchanged files share their data with the baseline; a rewrite
            // with the same bytes is not a change either.
            Some(old) if std::sync::Arc::ptr_eq(&old, data) || old[..] == data[..] => {}
            Some(_) => out.modified.push(entry()),
        }
    }
    for (path, node) in &before.nodes {
        if matches!(node.kind, Kind::File(_))
            && !DEVICES.contains(&path.as_str())
            && under(path, prefix)
            && file(now, path).is_none()
        {
            out.deleted.push(path.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{Fs, MemoryFs};

    #[test]
    fn created_modified_deleted_with_hashes() {
        let fs = MemoryFs::default();
        let run = |f: std::pin::Pin<Box<dyn std::future::Future<Output = crate::fs::FsResult<()>> + Send + '_>>| {
            futures_util::FutureExt::now_or_never(f).expect("ready").expect("ok")
        };
        run(Box::pin(fs.mkdir("/w", true)));
        run(Box::pin(fs.write("/w/keep", b"k")));
        run(Box::pin(fs.write("/w/same", b"s")));
        run(Box::pin(fs.write("/w/edit", b"old")));
        run(Box::pin(fs.write("/w/gone", b"g")));
        let before = fs.export();
        run(Box::pin(fs.write("/w/new", b"abc")));
        run(Box::pin(fs.write("/w/same", b"s")));
        run(Box::pin(fs.append("/w/edit", b"er")));
        run(Box::pin(fs.remove_file("/w/gone")));
        run(Box::pin(fs.write("/elsewhere", b"x")));
        let c = diff(&before, &fs.export(), Some("/w"));
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(c.created, vec![Changed { path: "/w/new".into(), size: 3, sha256: abc.into() }]);
        assert_eq!(c.modified.iter().map(|m| m.path.as_str()).collect::<Vec<_>>(), ["/w/edit"]);
        assert_eq!(c.deleted, ["/w/gone"]);
        assert_eq!(diff(&before, &fs.export(), None).created.len(), 2);
    }
}
