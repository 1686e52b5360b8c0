//! A compiled POSIX regex (from `grep_re`'s translation) for sed and grep:
//! the `regex` crate's linear-time engine, or, for a pattern with
//! back-references (`\(a*\)\1`), which no finite automaton can match, a
//! backtracking engine bounded by a step limit ([`Backtracker`]).

use super::regex_cache;
use regex::bytes::Regex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Compiled POSIX regexes (sed, and what else uses this engine), kept across calls and sessions.
static COMPILED: regex_cache::Cache<Regex> = regex_cache::Cache::new();

/// Backtracking steps one search may take (PCRE's own default match limit
/// is 10,000,000). The count runs over all the start positions one search
/// tries, so it cannot shrink with the line's length; a step can cost as much
/// as the line is long (a back-reference compared), so one search on a very
/// long line can take a while: measured (release build) up to 330 ms for
/// `(a*)\1\1...\1b` on a 10^5-byte line. Between searches the exec's
/// budget is checked.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// A backtracking regex (fancy-regex) with a step limit. Past the limit a
/// search counts as no match and [`Backtracker::take_exceeded`] says so, for
/// the tool to report (GNU grep -P: `exceeded PCRE's backtracking limit`,
/// status 2); a search also reports no match once the exec must stop
/// (deadline, cancel, memory), after recording why.
#[derive(Debug)]
pub struct Backtracker {
    re: fancy_regex::Regex,
    exceeded: AtomicBool,
}

impl Backtracker {
    pub fn new(src: &str, size_limit: usize) -> Result<Self, fancy_regex::Error> {
        if super::regex_cache::admit(src).is_err() {
            let why = format!("a compile of {} bytes is past the exec's limits", src.len());
            return Err(fancy_regex::Error::CompileError(Box::new(fancy_regex::CompileError::DfaBuildError(why))));
        }
        let re = fancy_regex::RegexBuilder::new(src)
            .backtrack_limit(BACKTRACK_LIMIT)
            .delegate_size_limit(size_limit)
            .build()?;
        Ok(Backtracker { re, exceeded: AtomicBool::new(false) })
    }

    pub fn captures_len(&self) -> usize {
        self.re.captures_len()
    }

    /// Whether a search past the step limit happened since the last call.
    pub fn take_exceeded(&self) -> bool {
        self.exceeded.swap(false, Ordering::Relaxed)
    }

    /// Before each search: false when the exec must stop (recorded for it).
    fn may_search(&self) -> bool {
        match crate::limits::scope::check_now() {
            Ok(()) => true,
            Err(stop) => {
                crate::limits::scope::with_budget(|b| b.stop_from_job(stop));
                false
            }
        }
    }

    fn failed(&self, e: &fancy_regex::Error) {
        if matches!(e, fancy_regex::Error::RuntimeError(fancy_regex::RuntimeError::BacktrackLimitExceeded)) {
            self.exceeded.store(true, Ordering::Relaxed);
        }
    }

    pub fn is_match(&self, text: &str) -> bool {
        let r = &self.re;
        if !self.may_search() {
            return false;
        }
        r.is_match(text).unwrap_or_else(|e| {
            self.failed(&e);
            false
        })
    }

    /// `f(start, end)` for each match until it returns false. The budget is
    /// checked before each search (the iterator searches once per item).
    pub fn each_match(&self, text: &str, f: &mut dyn FnMut(usize, usize) -> bool) {
        let r = &self.re;
        let mut it = r.find_iter(text);
        while self.may_search() {
            match it.next() {
                Some(Ok(m)) if f(m.start(), m.end()) => {}
                Some(Err(e)) => return self.failed(&e),
                _ => return,
            }
        }
    }

    /// `f(group)` for each match until it returns false.
    pub fn each_capture(&self, text: &str, f: &mut dyn FnMut(&Group<'_>) -> bool) {
        let r = &self.re;
        let mut it = r.captures_iter(text);
        while self.may_search() {
            match it.next() {
                Some(Ok(caps)) if f(&|g| caps.get(g).map(|m| (m.start(), m.end()))) => {}
                Some(Err(e)) => return self.failed(&e),
                _ => return,
            }
        }
    }
}

#[derive(Debug)]
pub enum PosixRegex {
    Plain(std::sync::Arc<Regex>),
    /// Works on text: input that is not UTF-8 never matches it.
    Backref(Backtracker),
}

/// How to compile: the flags sed and grep set on their patterns.
#[derive(Clone, Copy, Default)]
pub struct Flags {
    pub icase: bool,
    pub multi_line: bool,
    pub dot_nl: bool,
}

/// A compile failure: too big for the size limit, or invalid.
pub enum RegexError {
    TooBig,
    Invalid,
}

/// Where group n of a match lies (0: the whole match), for [`PosixRegex::each_capture`].
pub type Group<'a> = dyn Fn(usize) -> Option<(usize, usize)> + 'a;

impl PosixRegex {
    /// Compile translated source; `backrefs` picks the backtracking engine.
    pub fn new(source: &str, backrefs: bool, flags: Flags, size_limit: usize) -> Result<Self, RegexError> {
        if backrefs {
            let mut prefix = String::new();
            for (on, c) in [(flags.icase, 'i'), (flags.multi_line, 'm'), (flags.dot_nl, 's')] {
                if on {
                    prefix.push(c);
                }
            }
            let src = if prefix.is_empty() { source.to_string() } else { format!("(?{prefix}){source}") };
            return Backtracker::new(&src, size_limit).map(PosixRegex::Backref).map_err(|_| RegexError::Invalid);
        }
        let packed = u32::from(flags.icase) | u32::from(flags.multi_line) << 1 | u32::from(flags.dot_nl) << 2;
        let key = regex_cache::Key { source: source.to_string(), flags: packed, size_limit };
        COMPILED
            .get_or_build(key, |k| {
                regex::bytes::RegexBuilder::new(&k.source)
                    .case_insensitive(flags.icase)
                    .multi_line(flags.multi_line)
                    .dot_matches_new_line(flags.dot_nl)
                    .size_limit(size_limit)
                    .dfa_size_limit(size_limit)
                    .build()
            })
            .map(PosixRegex::Plain)
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(_) => RegexError::TooBig,
                _ => RegexError::Invalid,
            })
    }

    pub fn is_match(&self, hay: &[u8]) -> bool {
        match self {
            PosixRegex::Plain(r) => r.is_match(hay),
            PosixRegex::Backref(r) => std::str::from_utf8(hay).is_ok_and(|t| r.is_match(t)),
        }
    }

    /// Whether a search ran past the backtracking limit since the last call
    /// (its result, no match, is not to be trusted).
    pub fn take_exceeded(&self) -> bool {
        match self {
            PosixRegex::Plain(_) => false,
            PosixRegex::Backref(r) => r.take_exceeded(),
        }
    }

    /// The number of groups, the whole match included.
    pub fn captures_len(&self) -> usize {
        match self {
            PosixRegex::Plain(r) => r.captures_len(),
            PosixRegex::Backref(r) => r.captures_len(),
        }
    }

    /// Call `f(start, end)` for each match in turn until it returns false.
    pub fn each_match(&self, hay: &[u8], f: &mut dyn FnMut(usize, usize) -> bool) {
        match self {
            PosixRegex::Plain(r) => {
                for m in r.find_iter(hay) {
                    if !f(m.start(), m.end()) {
                        return;
                    }
                }
            }
            PosixRegex::Backref(r) => {
                let Ok(text) = std::str::from_utf8(hay) else { return };
                r.each_match(text, f);
            }
        }
    }

    /// Call `f(group)` for each match in turn until it returns false, where
    /// `group(n)` is where group n matched (0: the whole match).
    pub fn each_capture(&self, hay: &[u8], f: &mut dyn FnMut(&Group<'_>) -> bool) {
        match self {
            PosixRegex::Plain(r) => {
                for caps in r.captures_iter(hay) {
                    if !f(&|g| caps.get(g).map(|m| (m.start(), m.end()))) {
                        return;
                    }
                }
            }
            PosixRegex::Backref(r) => {
                let Ok(text) = std::str::from_utf8(hay) else { return };
                r.each_capture(text, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::regex_translate::translate_sed;
    use super::*;

    fn compile(p: &str) -> PosixRegex {
        let t = translate_sed(p, false).unwrap_or_else(|e| panic!("{p}: {e}"));
        PosixRegex::new(&t.source, t.backrefs, Flags::default(), 1 << 20).unwrap_or_else(|_| panic!("{p}"))
    }

    #[test]
    fn back_references_match_repeats() {
        let re = compile("\\([a-z]\\)\\1");
        assert!(matches!(re, PosixRegex::Backref(_)));
        assert!(re.is_match(b"hello"));
        assert!(!re.is_match(b"helo"));
        let mut found = Vec::new();
        re.each_match(b"aabbcd", &mut |a, b| {
            found.push((a, b));
            true
        });
        assert_eq!(found, [(0, 2), (2, 4)]);
    }

    #[test]
    fn plain_patterns_keep_the_linear_engine() {
        assert!(matches!(compile("a\\(b\\)*c"), PosixRegex::Plain(_)));
    }

    /// Past the step limit a search is no match, and the regex says so.
    #[test]
    fn the_backtracking_limit_is_reported() {
        let re = compile("\\(a*\\)*\\1\\(a*\\)*\\2c");
        let line = "a".repeat(2_000);
        assert!(!re.is_match(line.as_bytes()));
        assert!(re.take_exceeded());
        assert!(!re.take_exceeded());
        let line = "a".repeat(100_000);
        re.each_match(line.as_bytes(), &mut |_, _| true);
        assert!(re.take_exceeded());
        assert!(re.is_match(b"aac"));
        assert!(!re.take_exceeded());
    }
}
