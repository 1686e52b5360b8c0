//! The globals the shell itself writes after nearly every command or call:
//! `$_` and `PIPESTATUS` after every command, the call stack's arrays at
//! every call, `BASH_REMATCH` at every match, `BASH_EXECUTION_STRING` at
//! every exec. Each has a fixed cell, apart from the global table: a write
//! finds its cell without hashing the name, and a fork (a `$( )`) that writes
//! one copies nine pointers, not the whole global table.

use super::vars::Var;
use std::sync::Arc;

/// The names, in the order of their cells.
pub const NAMES: [&str; 9] = [
    "_",
    "PIPESTATUS",
    "BASH_REMATCH",
    "BASH_EXECUTION_STRING",
    "FUNCNAME",
    "BASH_LINENO",
    "BASH_SOURCE",
    "BASH_ARGV",
    "BASH_ARGC",
];

/// Cells from here on hold the call stack's names (see `call_stack`).
const FIRST_OF_STACK: usize = 4;

/// The cell of one of [`NAMES`].
#[inline]
pub fn index(name: &str) -> Option<usize> {
    // The first byte rules out nearly every name before the compares.
    if !matches!(name.as_bytes().first(), Some(b'_' | b'P' | b'F' | b'B')) {
        return None;
    }
    match name {
        "_" => Some(0),
        "PIPESTATUS" => Some(1),
        "BASH_REMATCH" => Some(2),
        "BASH_EXECUTION_STRING" => Some(3),
        "FUNCNAME" => Some(4),
        "BASH_LINENO" => Some(5),
        "BASH_SOURCE" => Some(6),
        "BASH_ARGV" => Some(7),
        "BASH_ARGC" => Some(8),
        _ => None,
    }
}

#[cfg(test)]
#[test]
fn every_name_has_its_cell() {
    for (i, n) in NAMES.iter().enumerate() {
        assert_eq!(index(n), Some(i), "{n}");
    }
}

/// Whether cell `i` is one of the call stack's names, which may be computed.
#[inline]
pub fn of_stack(i: usize) -> bool {
    i >= FIRST_OF_STACK
}

/// One variable per name of [`NAMES`], or none.
#[derive(Clone, Debug, Default)]
pub struct HotVars([Option<Arc<Var>>; NAMES.len()]);

impl HotVars {
    pub fn get(&self, i: usize) -> Option<&Arc<Var>> {
        self.0[i].as_ref()
    }

    pub fn cell(&mut self, i: usize) -> &mut Option<Arc<Var>> {
        &mut self.0[i]
    }

    /// The variables set, with their names.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Arc<Var>)> {
        NAMES.iter().zip(&self.0).filter_map(|(n, v)| Some((*n, v.as_ref()?)))
    }
}
