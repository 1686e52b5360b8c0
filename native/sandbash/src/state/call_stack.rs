//! The call stack's arrays (`FUNCNAME`, `BASH_LINENO`, `BASH_SOURCE`,
//! `BASH_ARGV`, `BASH_ARGC`) kept as frames, and made into arrays only when
//! something reads one: every function call and return changes all five, and
//! few scripts look at them, so building them eagerly was most of a call's cost.
//!
//! [`super::Variables`] owns the frames; a lookup of one of the names in the
//! global scope gets the array built from them (once per change). A write to
//! one (`unset`, or the shell's own) first turns it into a plain variable,
//! which it stays until the frames change again.

use super::vars::{Value, Var};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// The names, in the order of [`CallStack`]'s cells.
pub const NAMES: [&str; 5] = ["FUNCNAME", "BASH_LINENO", "BASH_SOURCE", "BASH_ARGV", "BASH_ARGC"];

/// The cell of one of [`NAMES`].
fn index(name: &str) -> Option<usize> {
    match name {
        "FUNCNAME" => Some(0),
        "BASH_LINENO" => Some(1),
        "BASH_SOURCE" => Some(2),
        "BASH_ARGV" => Some(3),
        "BASH_ARGC" => Some(4),
        _ => None,
    }
}

#[derive(Clone, Debug, Default)]
pub struct CallStack {
    /// `FUNCNAME` of each frame (a function's name or `source`), innermost last.
    pub names: Vec<Arc<str>>,
    /// The line each frame was called from, parallel to `names`.
    pub lines: Vec<usize>,
    /// The file of each running function or sourced file, innermost last.
    pub sources: Vec<Arc<str>>,
    /// `BASH_ARGV`/`BASH_ARGC` frames, innermost last: `None` for a frame that
    /// pushed no arguments (a function called without `extdebug`).
    pub args: Vec<Option<Arc<Vec<String>>>>,
    /// `extdebug` has been on: function frames count in `BASH_ARGV` since.
    pub args_init: bool,
    /// A script file: a bottom frame `main` called from line 0.
    pub main: bool,
    /// Inside a function when the frames last changed: `FUNCNAME` is only
    /// visible there.
    pub in_function: bool,
    /// Which names are computed from the frames (rather than plain variables).
    live: [bool; 5],
    /// Names unset: they lose their meaning for good, as in bash.
    dropped: [bool; 5],
    /// Each array, once built since the last change.
    cells: [OnceLock<Arc<Var>>; 5],
}

impl CallStack {
    /// The frames changed: every array is computed again when next read.
    pub(super) fn changed(&mut self) {
        self.live = self.dropped.map(|d| !d);
        self.cells = Default::default();
    }

    /// `name`'s cell when it is computed from the frames.
    pub(super) fn live_index(&self, name: &str) -> Option<usize> {
        index(name).filter(|&i| self.live[i])
    }

    /// Computed names (for listings).
    pub(super) fn live_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        NAMES.iter().zip(self.live).filter(|(_, l)| *l).map(|(n, _)| *n)
    }

    /// The array in cell `i`, built on first read.
    pub(super) fn var(&self, i: usize) -> &Var {
        self.cells[i].get_or_init(|| Arc::new(self.build(i)))
    }

    /// Cell `i` as a plain variable from now on (something writes it).
    pub(super) fn take(&mut self, i: usize) -> Arc<Var> {
        self.live[i] = false;
        let v = self.cells[i].take();
        v.unwrap_or_else(|| Arc::new(self.build(i)))
    }

    /// `unset name`: never computed again.
    pub(super) fn drop_name(&mut self, name: &str) {
        if let Some(i) = index(name) {
            self.dropped[i] = true;
            self.live[i] = false;
        }
    }

    /// Stop computing `name` (it was given a value of its own).
    pub(super) fn forget(&mut self, name: &str) {
        if let Some(i) = index(name) {
            self.live[i] = false;
        }
    }

    fn build(&self, i: usize) -> Var {
        let main = self.main.then_some(("main", 0));
        let frames = || {
            let names = self.names.iter().rev().map(|n| &**n);
            names.zip(self.lines.iter().rev().copied()).chain(main)
        };
        let value = match i {
            0 if !self.in_function => {
                // Outside functions bash shows it as a declared, unassigned array.
                return Var { value: Some(Value::Indexed(BTreeMap::new())), unassigned: true, ..Var::empty() };
            }
            0 => indexed(frames().map(|(n, _)| n.to_string())),
            1 => indexed(frames().map(|(_, l)| l.to_string())),
            2 => indexed(self.sources.iter().rev().map(|s| s.to_string())),
            _ => {
                let (argv, argc) = self.args_arrays();
                if i == 3 {
                    indexed(argv.into_iter())
                } else {
                    indexed(argc.into_iter())
                }
            }
        };
        Var { value: Some(value), ..Var::empty() }
    }

    /// `BASH_ARGV` (every frame's arguments, last first) and `BASH_ARGC`.
    fn args_arrays(&self) -> (Vec<String>, Vec<String>) {
        let mut argv = Vec::new();
        let mut argc = Vec::new();
        // Before `extdebug` was ever on, a function frame shows them empty.
        let hidden = !self.args_init && self.in_function && self.args.last().is_some_and(Option::is_none);
        if !hidden {
            for frame in self.args.iter().rev().flatten() {
                argc.push(frame.len().to_string());
                argv.extend(frame.iter().rev().cloned());
            }
        }
        (argv, argc)
    }
}

fn indexed(items: impl Iterator<Item = String>) -> Value {
    Value::Indexed(items.enumerate().map(|(i, s)| (i as i64, s)).collect())
}
