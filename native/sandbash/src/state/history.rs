//! The session's command history: every exec'd script with its exit status
//! (what the `history` builtin lists and `Session.history/2` searches). Shared
//! by every fork of the session, so subshells and ephemeral copies record into
//! the same list; bounded in entries and in bytes, the oldest entries dropped
//! first (a session replaying 10 MB scripts must not hold them all).

use std::collections::VecDeque;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based and never reused, as bash numbers history lines.
    pub number: u64,
    pub line: String,
    /// `None` while it runs (or when a limit stopped it).
    pub status: Option<i32>,
}

#[derive(Debug)]
pub struct History {
    entries: VecDeque<Entry>,
    next: u64,
    max: usize,
    /// Bytes of all lines held.
    bytes: usize,
}

/// Bytes of history lines a session keeps at most.
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

pub type HistoryHandle = Arc<parking_lot::Mutex<History>>;

impl History {
    pub fn new(max: usize) -> HistoryHandle {
        Arc::new(parking_lot::Mutex::new(History { entries: VecDeque::new(), next: 1, max: max.max(1), bytes: 0 }))
    }

    /// Record `line`; returns its number.
    pub fn push(&mut self, line: &str) -> u64 {
        let number = self.next;
        self.next += 1;
        let line = line.trim_end_matches('\n').to_string();
        self.bytes += line.len();
        self.entries.push_back(Entry { number, line, status: None });
        self.trim();
        number
    }

    /// Drop the oldest entries past either bound (the newest always stays).
    fn trim(&mut self) {
        while self.entries.len() > 1 && (self.entries.len() > self.max || self.bytes > MAX_BYTES) {
            if let Some(e) = self.entries.pop_front() {
                self.bytes -= e.line.len();
            }
        }
    }

    pub fn set_status(&mut self, number: u64, status: i32) {
        if let Some(e) = self.entries.iter_mut().rev().find(|e| e.number == number) {
            e.status = Some(status);
        }
    }

    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &Entry> + ExactSizeIterator {
        self.entries.iter()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    /// `history -d N`: false when there is no entry N.
    pub fn delete(&mut self, number: u64) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.number != number);
        self.bytes = self.entries.iter().map(|e| e.line.len()).sum();
        before != self.entries.len()
    }

    /// Replace everything (a restored snapshot).
    pub fn replace(&mut self, entries: Vec<Entry>) {
        self.next = entries.last().map_or(1, |e| e.number + 1);
        self.entries = entries.into();
        self.bytes = self.entries.iter().map(|e| e.line.len()).sum();
        self.trim();
    }
}
