//! Parses kept per thread and shared by every session that runs on it.
//! Parsing is a pure function of the text (and of the depth limit), and the
//! same texts come back: a loop's words, a function's `$( )`, and the scripts
//! an application sends to session after session. brush-parser's PEG costs
//! about a microsecond for `echo hi`, a third of a short exec.
//!
//! Per thread, not per process: no lock on the hot path, and sessions on
//! other threads never contend. A session moving between threads only misses.
//!
//! Bounds: a text over its map's `max_text` bytes is never kept; each map
//! holds `entries` texts and starts over when full, so what a script feeds it
//! cannot grow it. An entry stays charged to the session whose exec parsed it
//! (see `limits::memory`) until its map starts over, at most one map's worth.

use crate::state::source::Source;
use brush_parser::ast::Program;
use brush_parser::word::WordPieceWithSource;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// Parsed word pieces.
pub type Pieces = Arc<Vec<WordPieceWithSource>>;

/// A parsed program (a script, an `eval`, a `$( )`) and its text after
/// `syntax::prepare`.
#[derive(Clone)]
pub struct CachedProgram {
    pub program: Arc<Program>,
    pub source: Arc<Source>,
    depth: usize,
    /// The error the text is with extglob off ([`super::extglob_off`]).
    extglob_off: Option<Arc<str>>,
    /// Whether extglob off reads the text otherwise than this parse
    /// ([`super::tokens_differ_without_extglob`]), looked up once.
    differs_without: bool,
}

/// One bounded map of parses by their text.
struct Map<V> {
    map: HashMap<Box<str>, V, foldhash::fast::RandomState>,
    entries: usize,
    max_text: usize,
}

impl<V: Clone> Map<V> {
    fn new(entries: usize, max_text: usize) -> Self {
        Map { map: HashMap::default(), entries, max_text }
    }

    fn get(&self, text: &str) -> Option<V> {
        self.map.get(text).cloned()
    }

    fn put(&mut self, text: &str, v: V) {
        if text.len() > self.max_text {
            return;
        }
        if self.map.len() >= self.entries {
            // Starting over frees the old entries at once, and a fresh map's
            // table is small again.
            self.map = HashMap::default();
        }
        self.map.insert(text.into(), v);
    }
}

struct Caches {
    /// Words of commands (`"$x"`, `${a[@]}`).
    words: Map<Pieces>,
    /// Assignment values (`~` also expands after `:`).
    values: Map<Pieces>,
    /// Whole programs: the scripts of execs, `$( )` texts.
    programs: Map<CachedProgram>,
}

thread_local! {
    static CACHES: RefCell<Caches> = RefCell::new(Caches {
        words: Map::new(256, 512),
        values: Map::new(256, 512),
        programs: Map::new(64, 4096),
    });
}

/// Forget this thread's parses (a benchmark measuring parsing as well).
pub fn clear() {
    CACHES.with_borrow_mut(|c| {
        c.words.map.clear();
        c.values.map.clear();
        c.programs.map.clear();
    });
}

/// The pieces of a word (`assignment`: an assignment value), parsed by
/// `parse` on a miss; errors are not kept.
pub fn word(raw: &str, assignment: bool, parse: impl FnOnce() -> Result<Pieces, String>) -> Result<Pieces, String> {
    let hit = CACHES.with_borrow(|c| if assignment { c.values.get(raw) } else { c.words.get(raw) });
    if let Some(p) = hit {
        return Ok(p);
    }
    let p = parse()?;
    CACHES.with_borrow_mut(|c| if assignment { c.values.put(raw, p.clone()) } else { c.words.put(raw, p.clone()) });
    Ok(p)
}

/// Whether `src` is parsed and kept already (under any depth limit).
pub fn holds(src: &str) -> bool {
    CACHES.with_borrow(|c| c.programs.map.contains_key(src))
}

/// `src` parsed as [`super::parse_as`] does, from the cache when seen before
/// under the same depth limit (the limit decides which texts are errors).
pub fn program(src: &str, depth: usize, extglob: bool) -> Result<CachedProgram, String> {
    let hit = CACHES.with_borrow(|c| c.programs.get(src)).filter(|p| p.depth == depth);
    let p = match hit {
        Some(p) => p,
        None => match super::parse(src, depth) {
            Ok(super::Parsed { program, source }) => {
                let (error, differs_without) = super::extglob_off::reading(src);
                let extglob_off = error.map(Arc::from);
                let p = CachedProgram { program: Arc::new(program), source, depth, extglob_off, differs_without };
                CACHES.with_borrow_mut(|c| c.programs.put(src, p.clone()));
                p
            }
            // `f+() { ...; }` is an error read with extglob, a definition without.
            Err(m)
                if !extglob && super::error_line(&m).is_some() && super::tokens_differ_without_extglob(src, false) =>
            {
                return without_extglob(src, depth);
            }
            Err(m) => return Err(super::with_extglob_error(m, src, extglob)),
        },
    };
    match &p.extglob_off {
        Some(e) if !extglob => Err(e.to_string()),
        _ if !extglob && p.differs_without => without_extglob(src, depth),
        _ => Ok(p),
    }
}

/// `src` parsed with extglob off where that reads it otherwise (rare: not kept).
fn without_extglob(src: &str, depth: usize) -> Result<CachedProgram, String> {
    let super::Parsed { program, source } = super::parse_as(src, depth, false)?;
    Ok(CachedProgram { program: Arc::new(program), source, depth, extglob_off: None, differs_without: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_is_the_same_parse_and_errors_are_not_kept() {
        let a = program("echo cached-once\n", 100, true).expect("parses");
        let b = program("echo cached-once\n", 100, true).expect("parses");
        assert!(Arc::ptr_eq(&a.program, &b.program));
        // Another depth limit is another parse.
        let c = program("echo cached-once\n", 99, true).expect("parses");
        assert!(!Arc::ptr_eq(&a.program, &c.program));
        assert!(program("if then", 100, true).is_err());
        let mut calls = 0;
        let mut parse = || {
            calls += 1;
            Err::<Pieces, _>("bad".to_string())
        };
        assert!(word("${", false, &mut parse).is_err());
        assert!(word("${", false, &mut parse).is_err());
        assert_eq!(calls, 2);
    }

    #[test]
    fn the_maps_never_hold_more_than_their_bound() {
        let mut m: Map<usize> = Map::new(4, 8);
        for i in 0..100 {
            m.put(&format!("t{i}"), i);
            assert!(m.map.len() <= 4);
        }
        m.put("a text longer than eight bytes", 1);
        assert_eq!(m.get("a text longer than eight bytes"), None);
        assert_eq!(m.get("t99"), Some(99));
    }
}
