//! Change markers: what the scripts changed in the in-memory filesystem since
//! a marker, or since the previous unmarked call. A marker is an export of the
//! filesystem (paths and shared file data, no copies); the diff hashes only
//! the files that changed.

use crate::fs::changes::{diff, Changes};
use crate::fs::memory::MemoryTree;
use std::collections::BTreeMap;

/// Markers kept per session; the oldest is dropped past this.
pub const MAX_MARKERS: usize = 32;

pub struct Markers {
    /// What the previous [`Markers::changes`] without a marker compared against.
    last: MemoryTree,
    next: u64,
    saved: BTreeMap<u64, MemoryTree>,
}

impl Markers {
    /// Start with the filesystem as it is `now`.
    pub fn new(now: MemoryTree) -> Self {
        Markers { last: now, next: 1, saved: BTreeMap::new() }
    }

    /// Remember `now`; returns the marker's id.
    pub fn mark(&mut self, now: MemoryTree) -> u64 {
        let id = self.next;
        self.next += 1;
        self.saved.insert(id, now);
        while self.saved.len() > MAX_MARKERS {
            self.saved.pop_first();
        }
        id
    }

    /// The changes from marker `id` to `now` (`None`: since the previous
    /// unmarked call, and `now` becomes the new baseline), under `prefix`.
    pub fn changes(&mut self, marker: Option<u64>, now: MemoryTree, prefix: Option<&str>) -> Result<Changes, String> {
        match marker {
            Some(id) => match self.saved.get(&id) {
                Some(before) => Ok(diff(before, &now, prefix)),
                None => Err(format!("unknown marker {id} (markers are kept for the last {MAX_MARKERS})")),
            },
            None => {
                let c = diff(&self.last, &now, prefix);
                self.last = now;
                Ok(c)
            }
        }
    }
}
