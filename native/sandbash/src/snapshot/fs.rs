//! The in-memory filesystem in a snapshot: every node with its real path,
//! contents or target, mode and mtime.

use super::format::{Blob, Seq, Text};
use crate::fs::memory::{FsLimits, Kind, MemoryTree, Node};
use bincode::{Decode, Encode};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub struct FsM {
    /// Sorted by path, so parents come before their children.
    pub nodes: Seq<NodeM>,
}

#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub struct NodeM {
    pub path: Text,
    pub kind: KindM,
    pub mode: u32,
    /// Seconds since the Unix epoch (negative before it) and nanoseconds
    /// (0..1e9) added to them.
    pub mtime_secs: i64,
    pub mtime_nanos: u32,
}

#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub enum KindM {
    File(Blob),
    Dir,
    Symlink(Text),
}

pub fn capture(tree: &MemoryTree) -> FsM {
    FsM { nodes: tree.nodes.iter().map(|(path, n)| node(path, n)).collect() }
}

/// The mirror of one node at `path` (file data shared, not copied).
pub fn node(path: &str, n: &Node) -> NodeM {
    let (mtime_secs, mtime_nanos) = split_time(n.mtime);
    let kind = match &n.kind {
        Kind::File(d) => KindM::File(Blob(d.clone())),
        Kind::Dir => KindM::Dir,
        Kind::Symlink(t) => KindM::Symlink(Text(t.clone())),
    };
    NodeM { path: Text(path.to_string()), kind, mode: n.mode, mtime_secs, mtime_nanos }
}

/// The tree the mirror describes, checked against `limits` (the target's).
pub fn rebuild(m: FsM, limits: &FsLimits) -> Result<MemoryTree, String> {
    // Cheap count check first, before building a map of a huge node list.
    if m.nodes.0.len() as u64 > limits.max_files {
        return Err(format!("{} files, more than max_files ({})", m.nodes.0.len(), limits.max_files));
    }
    let mut tree = MemoryTree::default();
    for n in m.nodes.0 {
        let mtime = join_time(n.mtime_secs, n.mtime_nanos).ok_or_else(|| format!("{}: bad mtime", n.path.0))?;
        let kind = match n.kind {
            KindM::File(b) => Kind::File(b.0),
            KindM::Dir => Kind::Dir,
            KindM::Symlink(t) => Kind::Symlink(t.0),
        };
        if tree.nodes.insert(n.path.0.clone(), Node { kind, mode: n.mode, mtime }).is_some() {
            return Err(format!("{} appears twice", n.path.0));
        }
    }
    tree.check(limits)?;
    Ok(tree)
}

fn split_time(t: SystemTime) -> (i64, u32) {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => (i64::try_from(d.as_secs()).unwrap_or(i64::MAX), d.subsec_nanos()),
        Err(e) => {
            // Before the epoch: floor the seconds, keep the nanoseconds positive.
            let d = e.duration();
            let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
            match d.subsec_nanos() {
                0 => (-secs, 0),
                n => (-secs - 1, 1_000_000_000 - n),
            }
        }
    }
}

fn join_time(secs: i64, nanos: u32) -> Option<SystemTime> {
    if nanos >= 1_000_000_000 {
        return None;
    }
    let base = if secs >= 0 {
        UNIX_EPOCH.checked_add(Duration::from_secs(secs.unsigned_abs()))?
    } else {
        UNIX_EPOCH.checked_sub(Duration::from_secs(secs.unsigned_abs()))?
    };
    base.checked_add(Duration::from_nanos(u64::from(nanos)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_on_both_sides_of_the_epoch() {
        for t in [
            UNIX_EPOCH,
            UNIX_EPOCH + Duration::new(1_700_000_000, 123),
            UNIX_EPOCH - Duration::new(5, 0),
            UNIX_EPOCH - Duration::new(5, 1),
        ] {
            let (s, n) = split_time(t);
            assert_eq!(join_time(s, n), Some(t), "{s} {n}");
        }
        assert_eq!(split_time(UNIX_EPOCH - Duration::new(5, 1)), (-6, 999_999_999));
        assert_eq!(join_time(0, 1_000_000_000), None);
        // The extremes may or may not fit a SystemTime; either way, no panic.
        for s in [i64::MAX, i64::MIN] {
            let _ = join_time(s, 999_999_999);
        }
    }
}
