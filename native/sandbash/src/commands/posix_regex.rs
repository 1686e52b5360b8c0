//! A compiled POSIX regex (from `grep_re`'s translation) for sed and grep:
//! the `regex` crate's linear-time engine, or, for a pattern with
//! back-references (`\(a*\)\1`), which no finite automaton can match, a
//! backtracking engine bounded by a step limit.

use regex::bytes::Regex;

/// Steps the backtracking engine may take for one match attempt (PCRE's own
/// default match limit is 10,000,000); past it the attempt counts as no match.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

#[derive(Debug)]
pub enum PosixRegex {
    Plain(Regex),
    /// Works on text: input that is not UTF-8 never matches it.
    Backref(fancy_regex::Regex),
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
            return fancy_regex::RegexBuilder::new(&src)
                .backtrack_limit(BACKTRACK_LIMIT)
                .delegate_size_limit(size_limit)
                .build()
                .map(PosixRegex::Backref)
                .map_err(|_| RegexError::Invalid);
        }
        regex::bytes::RegexBuilder::new(source)
            .case_insensitive(flags.icase)
            .multi_line(flags.multi_line)
            .dot_matches_new_line(flags.dot_nl)
            .size_limit(size_limit)
            .dfa_size_limit(size_limit)
            .build()
            .map(PosixRegex::Plain)
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(_) => RegexError::TooBig,
                _ => RegexError::Invalid,
            })
    }

    pub fn is_match(&self, hay: &[u8]) -> bool {
        match self {
            PosixRegex::Plain(r) => r.is_match(hay),
            PosixRegex::Backref(r) => std::str::from_utf8(hay).is_ok_and(|t| r.is_match(t).unwrap_or(false)),
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
                for m in r.find_iter(text).map_while(Result::ok) {
                    if !f(m.start(), m.end()) {
                        return;
                    }
                }
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
                for caps in r.captures_iter(text).map_while(Result::ok) {
                    if !f(&|g| caps.get(g).map(|m| (m.start(), m.end()))) {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::grep_re::translate_sed;

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
}
