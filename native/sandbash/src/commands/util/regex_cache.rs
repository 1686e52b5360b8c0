//! Compiled regexes shared by every session of the process. Compiling is most
//! of what a short `grep -i`, `sed s///` or awk pattern costs (a case-folded
//! Unicode class alone takes ~80 µs), and scripts run the same few patterns
//! again and again. Each regex is handed out behind an `Arc`, not cloned: a
//! clone of a `Regex` gets a new pool of match caches, which its first
//! search builds again (a third of a `[[ =~ ]]` in a loop).
//!
//! Bounds: sources over [`MAX_SOURCE`] bytes are never kept; each cache holds
//! [`ENTRIES`] regexes and starts over when full, so it cannot grow with what
//! a script feeds it.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, LazyLock};

const ENTRIES: usize = 256;
const MAX_SOURCE: usize = 4096;

/// Everything a compiled regex depends on: its source and builder options.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub source: String,
    /// Builder flags, packed by the caller (each caller has its own cache).
    pub flags: u32,
    pub size_limit: usize,
}

/// One cache of compiled regexes of type `R`.
pub struct Cache<R> {
    map: LazyLock<Mutex<HashMap<Key, Arc<R>, foldhash::fast::RandomState>>>,
}

impl<R> Cache<R> {
    pub const fn new() -> Self {
        Cache { map: LazyLock::new(|| Mutex::new(HashMap::default())) }
    }

    /// The regex for `key`, compiled by `build` on a miss (errors are not
    /// kept). A compile the exec cannot pay for (see [`admit`]) is not
    /// started: it fails as too big, and the exec stops at its next check
    /// with the limit that refused it.
    pub fn get_or_build(
        &self,
        key: Key,
        build: impl FnOnce(&Key) -> Result<R, regex::Error>,
    ) -> Result<Arc<R>, regex::Error> {
        if let Some(r) = self.map.lock().get(&key) {
            return Ok(Arc::clone(r));
        }
        if admit(&key.source).is_err() {
            return Err(regex::Error::CompiledTooBig(key.size_limit));
        }
        let r = Arc::new(build(&key)?);
        if key.source.len() <= MAX_SOURCE {
            let mut map = self.map.lock();
            if map.len() >= ENTRIES {
                map.clear();
            }
            map.insert(key, Arc::clone(&r));
        }
        Ok(r)
    }
}

/// Memory a compile takes per byte of regex source, at worst: a list of a
/// million literals (`grep -f` of a big file) took about 160 (its syntax
/// tree and literal sets), measured with the bench `table`.
const COMPILE_BYTES: u64 = 200;
/// Time a compile takes per byte of source at worst (about 1.6 µs for the
/// same list); a compile cannot be interrupted, so it must fit the deadline.
const COMPILE_NANOS: u64 = 2000;

/// Whether the exec can pay for compiling `source` (memory budget and time
/// left): every regex compiled from a script's text asks first. A refusal
/// stops the exec at its next check and is returned as its message.
pub fn admit(source: &str) -> Result<(), String> {
    admit_len(source.len())
}

/// [`admit`] for a source of `len` bytes not built yet: a list of patterns
/// asks before its copies (wrapped, joined) are made.
pub fn admit_len(len: usize) -> Result<(), String> {
    let n = len as u64;
    crate::syntax::cost::admit_or_stop(crate::syntax::cost::Cost {
        bytes: n.saturating_mul(COMPILE_BYTES),
        nanos: n.saturating_mul(COMPILE_NANOS),
    })
}

impl<R: Clone> Default for Cache<R> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_does_not_build_and_errors_are_not_kept() {
        static C: Cache<u32> = Cache::new();
        let key = |s: &str| Key { source: s.into(), flags: 1, size_limit: 10 };
        let first = C.get_or_build(key("a"), |_| Ok(7)).ok();
        assert_eq!(first.as_deref(), Some(&7));
        // A hit hands out the regex built, not a copy of it.
        let again = C.get_or_build(key("a"), |_| panic!("built twice")).ok();
        assert!(matches!((&first, &again), (Some(a), Some(b)) if Arc::ptr_eq(a, b)));
        let bad = || regex::Error::Syntax("bad".into());
        assert_eq!(C.get_or_build(key("b"), |_| Err(bad())), Err(bad()));
        assert_eq!(C.get_or_build(key("b"), |_| Ok(8)).as_deref(), Ok(&8));
        // Other flags are another regex.
        let other = Key { flags: 2, ..key("a") };
        assert_eq!(C.get_or_build(other, |_| Ok(9)).as_deref(), Ok(&9));
    }

    #[test]
    fn the_cache_never_holds_more_than_its_bound() {
        static C: Cache<usize> = Cache::new();
        for i in 0..3 * ENTRIES {
            let _ = C.get_or_build(Key { source: i.to_string(), flags: 0, size_limit: 0 }, |_| Ok(i));
            assert!(C.map.lock().len() <= ENTRIES);
        }
        let long = "x".repeat(MAX_SOURCE + 1);
        let _ = C.get_or_build(Key { source: long.clone(), flags: 0, size_limit: 0 }, |_| Ok(1));
        assert!(!C.map.lock().contains_key(&Key { source: long, flags: 0, size_limit: 0 }));
    }
}
