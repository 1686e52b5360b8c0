//! The session's command history: every exec'd script with its exit status
//! (what the `history` builtin lists and `Session.history/2` searches). Shared
//! by every fork of the session, so subshells and ephemeral copies record into
//! the same list; bounded, the oldest entries dropped first.

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
}

pub type HistoryHandle = Arc<parking_lot::Mutex<History>>;

impl History {
    pub fn new(max: usize) -> HistoryHandle {
        Arc::new(parking_lot::Mutex::new(History { entries: VecDeque::new(), next: 1, max: max.max(1) }))
    }

    /// Record `line`; returns its number.
    pub fn push(&mut self, line: &str) -> u64 {
        let number = self.next;
        self.next += 1;
        if self.entries.len() >= self.max {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry { number, line: line.trim_end_matches('\n').to_string(), status: None });
        number
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
    }

    /// `history -d N`: false when there is no entry N.
    pub fn delete(&mut self, number: u64) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.number != number);
        before != self.entries.len()
    }

    /// Replace everything (a restored snapshot).
    pub fn replace(&mut self, entries: Vec<Entry>) {
        self.next = entries.last().map_or(1, |e| e.number + 1);
        self.entries = entries.into();
        while self.entries.len() > self.max {
            self.entries.pop_front();
        }
    }
}
