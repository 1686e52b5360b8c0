//! Shell patterns (globs): `*`, `?`, `[...]` and extglob groups, compiled to a
//! regex. Used by pathname expansion, `case`, `[[ == ]]` and `${x#pat}`.
//! Quoted characters match literally.

use crate::limits::Stop;
use parking_lot::Mutex;
use regex::{Regex, RegexBuilder};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::nfa::thompson;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, MatchKind};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

mod bracket;
pub(crate) use bracket::char_class;
use bracket::{bracket, forget_closes};

/// Compiled patterns kept for reuse (cleared when full).
const CACHE_ENTRIES: usize = 256;
static CACHE: LazyLock<Mutex<HashMap<(String, bool), Regex>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// Largest compiled pattern (regex program bytes); bounds memory and time.
const MAX_REGEX_SIZE: usize = 1 << 20;

/// A pattern built from characters, each marked quoted (literal) or not.
#[derive(Clone, Debug, Default)]
pub struct Pattern {
    chars: Vec<(char, bool)>,
}

impl Pattern {
    /// From expanded parts: `(text, quoted)`.
    pub fn from_parts(parts: &[(String, bool)]) -> Self {
        let mut chars = Vec::new();
        for (text, quoted) in parts {
            chars.extend(text.chars().map(|c| (c, *quoted)));
        }
        Pattern { chars }
    }

    /// From a pattern string where nothing is quoted except by backslashes.
    pub fn from_glob_text(s: &str) -> Self {
        Pattern { chars: s.chars().map(|c| (c, false)).collect() }
    }

    /// True when some unquoted character makes this more than a literal string.
    pub fn has_meta(&self, extglob: bool) -> bool {
        forget_closes();
        let c = &self.chars;
        c.iter().enumerate().any(|(i, &(ch, q))| {
            !q && (matches!(ch, '*' | '?' | '\\')
                || (ch == '[' && bracket(c, i).is_some())
                || (extglob && matches!(ch, '+' | '@' | '!') && c.get(i + 1).is_some_and(|&(n, nq)| n == '(' && !nq)))
        })
    }

    /// Whether pathname expansion takes this as a pattern (bash's
    /// `unquoted_glob_pattern_p`): an unquoted `*` or `?`, a bracket
    /// expression or an extglob group. A backslash only escapes the next
    /// character: `a\b` and `a\*b` from an expansion stay as they are.
    pub fn is_glob_pattern(&self, extglob: bool) -> bool {
        forget_closes();
        let c = &self.chars;
        let mut i = 0;
        while i < c.len() {
            let (ch, q) = c[i];
            if !q {
                match ch {
                    '\\' => {
                        i += 2;
                        continue;
                    }
                    '*' | '?' => return true,
                    '[' if bracket(c, i).is_some() => return true,
                    '+' | '@' | '!' if extglob && c.get(i + 1).is_some_and(|&(n, nq)| n == '(' && !nq) => return true,
                    _ => {}
                }
            }
            i += 1;
        }
        false
    }

    /// The literal text (quote removal, backslashes dropped).
    pub fn literal(&self) -> String {
        let mut out = String::new();
        let mut esc = false;
        for &(c, q) in &self.chars {
            if !q && !esc && c == '\\' {
                esc = true;
                continue;
            }
            esc = false;
            out.push(c);
        }
        out
    }

    /// The regex source (unanchored) for this pattern; `None` when its
    /// extglob groups nest deeper than [`MAX_GROUP_DEPTH`] (the pattern then
    /// matches nothing).
    pub fn regex_source(&self, extglob: bool) -> Option<String> {
        let mut out = String::new();
        let mut i = 0;
        forget_closes();
        let c = &self.chars;
        translate(c, &mut i, &mut out, extglob, false, 0).ok()?;
        Some(out)
    }

    /// Compile as a full match (`^...$`). Compiled patterns are cached, since
    /// loops match the same `case` or `[[ == ]]` pattern over and over.
    pub fn compile(&self, extglob: bool, nocase: bool) -> Option<Regex> {
        let src = format!("^(?:{})$", self.regex_source(extglob)?);
        let key = (src, nocase);
        if let Some(r) = CACHE.lock().get(&key) {
            return Some(r.clone());
        }
        crate::commands::util::regex_cache::admit(&key.0).ok()?;
        let re = RegexBuilder::new(&key.0)
            .dot_matches_new_line(true)
            .case_insensitive(nocase)
            .size_limit(MAX_REGEX_SIZE)
            .build()
            .ok()?;
        if key.0.len() <= MAX_CACHED_SOURCE {
            let mut cache = CACHE.lock();
            if cache.len() >= CACHE_ENTRIES {
                cache.clear();
            }
            cache.insert(key, re.clone());
        }
        Some(re)
    }

    /// Does the whole of `s` match?
    pub fn matches(&self, s: &str, extglob: bool) -> bool {
        self.matches_case(s, extglob, false)
    }

    /// Does the whole of `s` match, optionally ignoring case? A pattern that
    /// cannot be compiled (too large, nested too deep) matches nothing. When
    /// the exec must stop (deadline, cancel) the answer is `false` and the
    /// interpreter stops at its next check; [`try_matches_case`](Self::try_matches_case)
    /// says so instead.
    pub fn matches_case(&self, s: &str, extglob: bool, nocase: bool) -> bool {
        self.try_matches_case(s, extglob, nocase).unwrap_or(false)
    }

    /// [`matches_case`](Self::matches_case), with the `Stop` of an exec that ran
    /// out of time during the match.
    pub fn try_matches_case(&self, s: &str, extglob: bool, nocase: bool) -> Result<bool, Stop> {
        match self.matcher(extglob, nocase) {
            Some(mut m) => m.is_match(s),
            None => Ok(false),
        }
    }

    /// A matcher for whole strings, compiled once for many matches (a glob
    /// over a directory, `${x^^pat}` over each character). `None` when the
    /// pattern cannot be compiled: it matches nothing.
    pub fn matcher(&self, extglob: bool, nocase: bool) -> Option<Matcher> {
        match self.prepared(extglob, nocase) {
            Prep::Literal => Some(Matcher::Literal(self.literal())),
            Prep::Prefix(l) => Some(Matcher::Prefix(l)),
            Prep::Suffix(l) => Some(Matcher::Suffix(l)),
            Prep::Both(p, q) => Some(Matcher::Both(p, q)),
            Prep::Contains(l) => Some(Matcher::Contains(l)),
            Prep::Negated => self.negations(nocase).flatten().map(Matcher::Neg),
            Prep::Dfa(d) => Some(Matcher::Plain(Scanner::new(d))),
            Prep::Invalid => None,
        }
    }

    /// What `${x#pat}` and `${x/pat/rep}` search with (see [`Searcher`]).
    pub fn searcher(&self, extglob: bool, nocase: bool) -> Option<Searcher> {
        let scan = || self.scanner_case(extglob, nocase).map(|s| Searcher::Scan(Box::new(s)));
        match self.prepared(extglob, nocase) {
            Prep::Literal => {
                let lit = self.literal();
                // Longer ones go to the automaton: a search for every (overlapping)
                // occurrence costs up to the literal's length per position.
                if !lit.is_empty() && lit.len() <= MAX_SEARCHED_LITERAL {
                    return Some(Searcher::Literal(lit.into_bytes()));
                }
                scan()
            }
            Prep::Prefix(l) if l.len() <= MAX_SEARCHED_LITERAL => Some(Searcher::Prefix(l)),
            Prep::Suffix(l) if l.len() <= MAX_SEARCHED_LITERAL => Some(Searcher::Suffix(l)),
            Prep::Prefix(_) | Prep::Suffix(_) | Prep::Both(..) | Prep::Contains(_) => scan(),
            Prep::Negated => self.negations(nocase).flatten().map(Searcher::Pieces),
            Prep::Dfa(d) => Some(Searcher::Scan(Box::new(Scanner::new(d)))),
            Prep::Invalid => None,
        }
    }

    /// How this pattern matches, from the per-thread cache: loops match the
    /// same few patterns over and over, and translating, hashing the regex
    /// source and looking up its automaton cost more than the match.
    fn prepared(&self, extglob: bool, nocase: bool) -> Prep {
        let which = usize::from(extglob) | usize::from(nocase) << 1;
        let cached = self.chars.len() <= MAX_PREPARED_CHARS;
        if cached {
            if let Some(p) = PREPARED.with(|m| m.borrow()[which].get(&*self.chars).cloned()) {
                return p;
            }
        }
        let p = self.prepare(extglob, nocase);
        if cached {
            PREPARED.with(|m| keep(&mut m.borrow_mut()[which], self.chars.clone().into_boxed_slice(), p.clone()));
        }
        p
    }

    /// `Pattern::from_glob_text(text).try_matches_case(s, ..)` for a pattern
    /// as written (a `case` arm's `k*5`, `-*`, `*.txt`): its preparation is
    /// found by the text itself, so a loop's `case` builds no pattern, no
    /// matcher and no key per turn.
    pub fn text_matches(text: &str, s: &str, extglob: bool, nocase: bool) -> Result<bool, Stop> {
        // The commonest arms (`-a`, `-*`, `*.txt`, `*`) need no lookup: a
        // literal, or a literal before or after one `*` (an extglob group
        // needs a `(`, which goes the long way).
        if !nocase {
            let special = |t: &str| t.contains(['*', '?', '[', '\\', '(']);
            if !special(text) {
                return Ok(text == s);
            }
            if let Some(head) = text.strip_suffix('*').filter(|h| !special(h)) {
                return Ok(s.starts_with(head));
            }
            if let Some(tail) = text.strip_prefix('*').filter(|t| !special(t)) {
                return Ok(s.ends_with(tail));
            }
        }
        let which = usize::from(extglob) | usize::from(nocase) << 1;
        let cached = text.len() <= MAX_PREPARED_CHARS;
        let found = if cached { BY_TEXT.with(|m| m.borrow()[which].get(text).cloned()) } else { None };
        let prep = match found {
            Some(p) => p,
            None => {
                let p = Pattern::from_glob_text(text).prepared(extglob, nocase);
                if cached {
                    BY_TEXT.with(|m| keep(&mut m.borrow_mut()[which], text.into(), p.clone()));
                }
                p
            }
        };
        match prep {
            Prep::Literal => Ok(text == s),
            Prep::Prefix(l) => Ok(s.starts_with(&*l)),
            Prep::Suffix(l) => Ok(s.ends_with(&*l)),
            Prep::Both(p, q) => Ok(s.len() >= p.len() + q.len() && s.starts_with(&*p) && s.ends_with(&*q)),
            Prep::Contains(l) => Ok(s.contains(&*l)),
            Prep::Dfa(d) => Scanner::new(d).is_match(s),
            Prep::Negated => Pattern::from_glob_text(text).try_matches_case(s, extglob, nocase),
            Prep::Invalid => Ok(false),
        }
    }

    fn prepare(&self, extglob: bool, nocase: bool) -> Prep {
        if !nocase {
            if !self.has_meta(extglob) {
                return Prep::Literal;
            }
            if let Some(p) = affix_shape(&self.chars, extglob) {
                return p;
            }
        }
        if extglob {
            match self.negations(nocase) {
                Some(Some(_)) => return Prep::Negated,
                Some(None) => return Prep::Invalid,
                None => {}
            }
        }
        match self.regex_source(extglob).and_then(|src| dfas(&src, nocase)) {
            Some(d) => Prep::Dfa(d),
            None => Prep::Invalid,
        }
    }

    /// A scanner for the matches of this pattern inside a string (`${x#pat}`,
    /// `${x/pat/rep}`). `!(...)` groups are approximated as `*` there.
    pub fn scanner(&self, extglob: bool) -> Option<Scanner> {
        self.scanner_case(extglob, false)
    }

    /// [`Self::scanner`], ignoring case when `nocase` (`${x/pat/rep}` under `nocasematch`).
    pub fn scanner_case(&self, extglob: bool, nocase: bool) -> Option<Scanner> {
        Some(Scanner::new(dfas(&self.regex_source(extglob)?, nocase)?))
    }

    /// The pattern split at its top-level `!(...)` groups, when it has any:
    /// `Some(None)` when it has some but cannot be compiled.
    fn negations(&self, nocase: bool) -> Option<Option<NegMatcher>> {
        forget_closes();
        let c = &self.chars;
        let mut parts = Vec::new();
        let mut negs = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < c.len() {
            let (ch, q) = c[i];
            if !q && ch == '\\' {
                i += 2;
                continue;
            }
            if !q && ch == '[' {
                if let Some((_, end)) = bracket(c, i) {
                    i = end;
                    continue;
                }
            }
            if !q && matches!(ch, '?' | '*' | '+' | '@' | '!') && c.get(i + 1) == Some(&('(', false)) {
                let (alts, end) = match extglob_group(c, i + 2, true, 0) {
                    Ok(Some(g)) => g,
                    // Not a group after all: the characters are literal.
                    Ok(None) => {
                        i += 1;
                        continue;
                    }
                    Err(TooDeep) => return Some(None),
                };
                if ch == '!' {
                    parts.push(Pattern { chars: c[start..i].to_vec() });
                    negs.push(alts.join("|"));
                    start = end;
                }
                i = end;
                continue;
            }
            i += 1;
        }
        if negs.is_empty() {
            return None;
        }
        parts.push(Pattern { chars: c[start..].to_vec() });
        let compile = |src: &str| dfas(src, nocase).map(Scanner::new);
        let build = || {
            let parts = parts.iter().map(|p| compile(&p.regex_source(true)?)).collect::<Option<Vec<_>>>()?;
            let negs = negs.iter().map(|n| compile(n)).collect::<Option<Vec<_>>>()?;
            Some(NegMatcher { parts, negs })
        };
        Some(build())
    }
}

/// Deepest nesting of extglob groups translated. The regex parser refuses
/// groups nested past 250 anyway; this bound keeps [`translate`]'s own
/// recursion short whatever a pattern built at run time holds. A pattern
/// nested deeper matches nothing (bash would try it, slowly).
const MAX_GROUP_DEPTH: usize = 200;

/// How a pattern matches (see [`Pattern::prepared`]).
#[derive(Clone)]
enum Prep {
    /// No special character: compared as text.
    Literal,
    /// `lit*` (a literal prefix); `*` alone is `Prefix("")`.
    Prefix(Arc<str>),
    /// `*lit` (a literal suffix).
    Suffix(Arc<str>),
    /// `lit*lit` (a prefix and a suffix that do not overlap).
    Both(Arc<str>, Arc<str>),
    /// `*lit*` (the literal anywhere).
    Contains(Arc<str>),
    /// Top-level `!(...)` groups: no automaton, built per use.
    Negated,
    Dfa(Arc<Dfas>),
    /// Too large or nested too deep: matches nothing.
    Invalid,
}

/// Longest pattern kept in the per-thread cache (its key is the pattern).
const MAX_PREPARED_CHARS: usize = 256;

// foldhash, not SipHash: a loop's `case` hashes its pattern on every turn.
type PreparedMap = HashMap<Box<[(char, bool)]>, Prep, foldhash::fast::RandomState>;
thread_local! {
    /// Prepared patterns per thread, one map per (extglob, nocase); each
    /// cleared when full, so at most [`CACHE_ENTRIES`] of
    /// [`MAX_PREPARED_CHARS`] characters each.
    static PREPARED: std::cell::RefCell<[PreparedMap; 4]> = std::cell::RefCell::new(Default::default());
    /// The same by a pattern's unquoted text ([`Pattern::text_matches`]),
    /// bounded alike.
    static BY_TEXT: std::cell::RefCell<[TextMap; 4]> = std::cell::RefCell::new(Default::default());
}
type TextMap = HashMap<Box<str>, Prep, foldhash::fast::RandomState>;

/// Keep `p` in a per-thread map of preparations, emptied when full.
fn keep<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Prep, foldhash::fast::RandomState>, key: K, p: Prep) {
    if map.len() >= CACHE_ENTRIES {
        map.clear();
    }
    map.insert(key, p);
}

/// `lit*`, `*lit`, `*lit*` or `lit*lit` where `lit` has no special
/// character: matched by comparing text, in time linear in the string
/// whatever it holds.
fn affix_shape(c: &[(char, bool)], extglob: bool) -> Option<Prep> {
    let plain = |cs: &[(char, bool)]| {
        cs.iter()
            .all(|&(ch, q)| q || !(matches!(ch, '*' | '?' | '[' | '\\') || extglob && matches!(ch, '(' | ')' | '|')))
    };
    let text = |cs: &[(char, bool)]| -> Arc<str> { cs.iter().map(|&(ch, _)| ch).collect::<String>().into() };
    match c {
        [('*', false)] => Some(Prep::Prefix("".into())),
        [rest @ .., ('*', false)] if plain(rest) => Some(Prep::Prefix(text(rest))),
        [('*', false), rest @ ..] if plain(rest) => Some(Prep::Suffix(text(rest))),
        [('*', false), mid @ .., ('*', false)] if plain(mid) => Some(Prep::Contains(text(mid))),
        _ => {
            let star = c.iter().position(|&x| x == ('*', false))?;
            let (p, q) = (&c[..star], &c[star + 1..]);
            (plain(p) && plain(q)).then(|| Prep::Both(text(p), text(q)))
        }
    }
}

/// Regex sources longer than this are not kept in the caches (each entry
/// holds its compiled automata).
const MAX_CACHED_SOURCE: usize = 4096;

/// Lazy DFA cache per automaton; the DFA clears it and goes on when full.
const DFA_CACHE_BYTES: usize = 2 << 20;

/// A pattern's regex, compiled to lazy DFAs: forward, reverse, and reverse
/// for "some match starts here" (built on first use).
pub struct Dfas {
    src: String,
    nocase: bool,
    fwd: DFA,
    rev: OnceLock<Option<DFA>>,
    rev_any: OnceLock<Option<DFA>>,
    /// Caches of scanners that ended, with their sizes: the next scanner
    /// starts with the states they built instead of determinizing again
    /// (that was most of a `case` or `${x##*/}` in a loop).
    spare: Mutex<Vec<(Caches, usize)>>,
}

/// Spare caches kept per automaton: enough for a scanner and a nested one.
const SPARES_EACH: usize = 2;
/// A cache larger than this is dropped instead of kept.
const SPARE_BYTES_EACH: usize = 256 << 10;
/// All spare caches of the process together stay under this.
const SPARE_BYTES_TOTAL: usize = 16 << 20;
static SPARE_BYTES: AtomicUsize = AtomicUsize::new(0);

impl Dfas {
    fn lend(&self) -> Caches {
        if let Some((c, bytes)) = self.spare.lock().pop() {
            SPARE_BYTES.fetch_sub(bytes, Ordering::Relaxed);
            return c;
        }
        Caches { fwd: self.fwd.create_cache(), rev: None, rev_any: None }
    }

    fn give_back(&self, c: Caches) {
        let bytes = c.memory_usage();
        if bytes > SPARE_BYTES_EACH || SPARE_BYTES.load(Ordering::Relaxed) + bytes > SPARE_BYTES_TOTAL {
            return;
        }
        let mut spare = self.spare.lock();
        if spare.len() < SPARES_EACH {
            SPARE_BYTES.fetch_add(bytes, Ordering::Relaxed);
            spare.push((c, bytes));
        }
    }
}

impl Drop for Dfas {
    fn drop(&mut self) {
        let held: usize = self.spare.get_mut().iter().map(|(_, b)| b).sum();
        SPARE_BYTES.fetch_sub(held, Ordering::Relaxed);
    }
}

/// A scanner's lazy DFA caches: the states built so far.
struct Caches {
    fwd: Cache,
    rev: Option<(DFA, Cache)>,
    rev_any: Option<(DFA, Cache)>,
}

impl Caches {
    fn memory_usage(&self) -> usize {
        let other = |c: &Option<(DFA, Cache)>| c.as_ref().map_or(0, |(_, c)| c.memory_usage());
        self.fwd.memory_usage() + other(&self.rev) + other(&self.rev_any)
    }
}

type DfaCache = HashMap<(String, bool), Arc<Dfas>>;
static DFA_CACHE: LazyLock<Mutex<DfaCache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

fn build_dfa(src: &str, nocase: bool, reverse: bool) -> Option<DFA> {
    // A pattern the exec cannot pay to compile matches nothing; the exec
    // stops at its next check.
    crate::commands::util::regex_cache::admit(src).ok()?;
    DFA::builder()
        .syntax(syntax::Config::new().dot_matches_new_line(true).case_insensitive(nocase))
        .thompson(
            thompson::Config::new()
                .reverse(reverse)
                .which_captures(thompson::WhichCaptures::None)
                .nfa_size_limit(Some(MAX_REGEX_SIZE)),
        )
        // Every match, not the leftmost-first one: `@(b|ab)c` must report
        // both starts of "abc".
        .configure(
            DFA::config().match_kind(MatchKind::All).cache_capacity(DFA_CACHE_BYTES).skip_cache_capacity_check(true),
        )
        .build(src)
        .ok()
}

/// The automata of a regex source (unanchored, no look-around), cached.
fn dfas(src: &str, nocase: bool) -> Option<Arc<Dfas>> {
    let key = (src.to_string(), nocase);
    if let Some(d) = DFA_CACHE.lock().get(&key) {
        return Some(d.clone());
    }
    let fwd = build_dfa(src, nocase, false)?;
    let d = Arc::new(Dfas {
        src: key.0.clone(),
        nocase,
        fwd,
        rev: OnceLock::new(),
        rev_any: OnceLock::new(),
        spare: Mutex::new(Vec::new()),
    });
    if src.len() <= MAX_CACHED_SOURCE {
        let mut cache = DFA_CACHE.lock();
        if cache.len() >= CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, d.clone());
    }
    Some(d)
}

/// How a walk of a DFA over a string ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Walk {
    /// It reached the end of the string.
    Done,
    /// The callback asked to stop.
    Stopped,
    /// No match ends (or starts) at this position or beyond it.
    Died(usize),
}

/// Step `dfa` over `hay[from..]` (anchored at `from`), calling `f(j, m)` for
/// each `j` in `from..=len` with `m` true when `hay[from..j]` matches. One
/// checkpoint per byte: a step can build a DFA state, whose cost grows with
/// the pattern.
fn walk_fwd(
    dfa: &DFA,
    cache: &mut Cache,
    hay: &[u8],
    from: usize,
    mut f: impl FnMut(usize, bool) -> bool,
) -> Result<Walk, Stop> {
    let start = start::Config::new().anchored(Anchored::Yes);
    let Ok(mut sid) = dfa.start_state(cache, &start) else { return Ok(Walk::Died(from)) };
    for j in from..=hay.len() {
        crate::limits::checkpoint()?;
        // Matches are reported one byte late: the state after byte j tells
        // whether a match ends at j.
        let next = match hay.get(j) {
            Some(&b) => dfa.next_state(cache, sid, b),
            None => dfa.next_eoi_state(cache, sid),
        };
        let Ok(next) = next else { return Ok(Walk::Died(j)) };
        let m = next.is_match();
        if !m && next.is_dead() {
            return Ok(Walk::Died(j));
        }
        if !f(j, m) {
            return Ok(Walk::Stopped);
        }
        sid = next;
    }
    Ok(Walk::Done)
}

/// Step a reverse `dfa` over `hay` from its end down to 0, calling `f(i, m)`
/// for each `i` from `len` down to 0 with `m` true when `hay[i..]` matches.
/// `Walk::Died(i)`: no match starts at `i` or before it.
fn walk_rev(dfa: &DFA, cache: &mut Cache, hay: &[u8], mut f: impl FnMut(usize, bool) -> bool) -> Result<Walk, Stop> {
    let start = start::Config::new().anchored(Anchored::Yes);
    let Ok(mut sid) = dfa.start_state(cache, &start) else { return Ok(Walk::Died(hay.len())) };
    let mut i = hay.len();
    loop {
        crate::limits::checkpoint()?;
        let next = match i.checked_sub(1) {
            Some(k) => dfa.next_state(cache, sid, hay[k]),
            None => dfa.next_eoi_state(cache, sid),
        };
        let Ok(next) = next else { return Ok(Walk::Died(i)) };
        let m = next.is_match();
        if !m && next.is_dead() {
            return Ok(Walk::Died(i));
        }
        if !f(i, m) {
            return Ok(Walk::Stopped);
        }
        if i == 0 {
            return Ok(Walk::Done);
        }
        sid = next;
        i -= 1;
    }
}

/// A compiled pattern with its DFA caches: scans a string for every end of
/// a match from a given start, every start of a match running to the end,
/// or every position where some match starts. Each scan is linear in the
/// bytes it reads and checkpoints as it goes.
pub struct Scanner {
    dfas: Arc<Dfas>,
    /// Always `Some` until the scanner is dropped and gives them back.
    caches: Option<Caches>,
}

impl Drop for Scanner {
    fn drop(&mut self) {
        if let Some(c) = self.caches.take() {
            self.dfas.give_back(c);
        }
    }
}

impl Scanner {
    fn new(dfas: Arc<Dfas>) -> Self {
        let caches = Some(dfas.lend());
        Scanner { dfas, caches }
    }

    fn caches(&mut self) -> (&Dfas, &mut Caches) {
        let Scanner { dfas, caches } = self;
        let c = caches.get_or_insert_with(|| dfas.lend());
        (dfas, c)
    }

    /// The forward automaton and its cache.
    fn fwd(&mut self) -> (&DFA, &mut Cache) {
        let (d, c) = self.caches();
        (&d.fwd, &mut c.fwd)
    }

    /// Calls `f(j)` for each `j >= from` (ascending) where `s[from..j]`
    /// matches, until `f` returns false.
    pub fn ends(&mut self, s: &str, from: usize, mut f: impl FnMut(usize) -> bool) -> Result<(), Stop> {
        let (dfa, cache) = self.fwd();
        walk_fwd(dfa, cache, s.as_bytes(), from, |j, m| !m || f(j))?;
        Ok(())
    }

    /// Does the whole of `s` match?
    pub fn is_match(&mut self, s: &str) -> Result<bool, Stop> {
        let n = s.len();
        let mut hit = false;
        self.ends(s, 0, |j| {
            hit = j == n;
            true
        })?;
        Ok(hit)
    }

    /// Calls `f(i)` for each `i` (descending) where `s[i..]` matches, until
    /// `f` returns false. `false` when the reverse automaton cannot be built.
    pub fn starts(&mut self, s: &str, mut f: impl FnMut(usize) -> bool) -> Result<bool, Stop> {
        let Some((dfa, cache)) = self.rev_dfa() else { return Ok(false) };
        walk_rev(dfa, cache, s.as_bytes(), |i, m| !m || f(i))?;
        Ok(true)
    }

    /// The positions where some match (possibly empty) starts. `None` when
    /// the automaton cannot be built.
    pub fn match_starts(&mut self, s: &str) -> Result<Option<Bits>, Stop> {
        let (d, c) = self.caches();
        if c.rev_any.is_none() {
            let src = format!("(?:{})(?s:.*)", d.src);
            let Some(dfa) = d.rev_any.get_or_init(|| build_dfa(&src, d.nocase, true)).clone() else {
                return Ok(None);
            };
            let cache = dfa.create_cache();
            c.rev_any = Some((dfa, cache));
        }
        let Some((dfa, cache)) = c.rev_any.as_mut() else { return Ok(None) };
        let mut bits = Bits::new(s.len() + 1);
        walk_rev(dfa, cache, s.as_bytes(), |i, m| {
            if m {
                bits.set(i);
            }
            true
        })?;
        Ok(Some(bits))
    }
}

/// The matches of a pattern inside a string. A pattern with a top-level
/// `!(...)` has no automaton (a regex cannot say "does not match"): its
/// whole-string matcher is tried on each piece of the text instead, which
/// costs a match per piece (the deadline is checked throughout).
pub enum Searcher {
    Scan(Box<Scanner>),
    Pieces(NegMatcher),
    /// A pattern without special characters (`${x/world/bash}`): searched
    /// as bytes, with no automaton to build (that was most of such an exec).
    Literal(Vec<u8>),
    /// `lit*` (`${f#.*}`, `*` alone when `lit` is empty).
    Prefix(Arc<str>),
    /// `*lit` (`${p##*/}`).
    Suffix(Arc<str>),
}

/// The longest literal searched as bytes (see [`Pattern::searcher`]).
const MAX_SEARCHED_LITERAL: usize = 64;

impl Searcher {
    /// Whether a replacement may match the empty end of a non-empty string:
    /// bash tries there only a pattern that can start matching at the end
    /// of a string, which a negation cannot (`${x/%!(a)/-}` with x=a is a).
    pub fn matches_at_end(&self) -> bool {
        !matches!(self, Searcher::Pieces(_))
    }

    /// As [`Scanner::ends`].
    pub fn ends(&mut self, s: &str, from: usize, mut f: impl FnMut(usize) -> bool) -> Result<(), Stop> {
        match self {
            Searcher::Scan(sc) => sc.ends(s, from, f),
            Searcher::Literal(lit) => {
                if s.as_bytes().get(from..).is_some_and(|rest| rest.starts_with(lit)) {
                    f(from + lit.len());
                }
                Ok(())
            }
            Searcher::Prefix(lit) => {
                if s.get(from..).is_some_and(|rest| rest.starts_with(&**lit)) {
                    for j in (from + lit.len()..=s.len()).filter(|&j| s.is_char_boundary(j)) {
                        crate::limits::checkpoint()?;
                        if !f(j) {
                            break;
                        }
                    }
                }
                Ok(())
            }
            Searcher::Suffix(lit) => {
                let b = s.as_bytes();
                for k in occurrences(b.get(from..).unwrap_or_default(), lit.as_bytes()) {
                    crate::limits::checkpoint()?;
                    if !f(from + k + lit.len()) {
                        break;
                    }
                }
                Ok(())
            }
            Searcher::Pieces(m) => {
                for j in (from..=s.len()).filter(|&j| s.is_char_boundary(j)) {
                    crate::limits::checkpoint()?;
                    if m.is_match(&s[from..j])? && !f(j) {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// As [`Scanner::starts`].
    pub fn starts(&mut self, s: &str, mut f: impl FnMut(usize) -> bool) -> Result<bool, Stop> {
        match self {
            Searcher::Scan(sc) => sc.starts(s, f),
            Searcher::Literal(lit) => {
                if s.as_bytes().ends_with(lit) {
                    f(s.len() - lit.len());
                }
                Ok(true)
            }
            Searcher::Prefix(lit) => {
                for i in occurrences_rev(s.as_bytes(), lit.as_bytes()) {
                    crate::limits::checkpoint()?;
                    if !f(i) {
                        break;
                    }
                }
                Ok(true)
            }
            Searcher::Suffix(lit) => {
                if s.ends_with(&**lit) {
                    for i in (0..=s.len() - lit.len()).rev().filter(|&i| s.is_char_boundary(i)) {
                        crate::limits::checkpoint()?;
                        if !f(i) {
                            break;
                        }
                    }
                }
                Ok(true)
            }
            Searcher::Pieces(m) => {
                for i in (0..=s.len()).rev().filter(|&i| s.is_char_boundary(i)) {
                    crate::limits::checkpoint()?;
                    if m.is_match(&s[i..])? && !f(i) {
                        break;
                    }
                }
                Ok(true)
            }
        }
    }

    /// As [`Scanner::match_starts`].
    pub fn match_starts(&mut self, s: &str) -> Result<Option<Bits>, Stop> {
        match self {
            Searcher::Scan(sc) => sc.match_starts(s),
            Searcher::Literal(lit) => {
                let mut bits = Bits::new(s.len() + 1);
                for k in occurrences(s.as_bytes(), lit) {
                    crate::limits::checkpoint()?;
                    bits.set(k);
                }
                Ok(Some(bits))
            }
            Searcher::Prefix(lit) => {
                let mut bits = Bits::new(s.len() + 1);
                for k in occurrences(s.as_bytes(), lit.as_bytes()) {
                    crate::limits::checkpoint()?;
                    bits.set(k);
                }
                Ok(Some(bits))
            }
            Searcher::Suffix(lit) => {
                // A match starts at every position up to the last occurrence.
                let mut bits = Bits::new(s.len() + 1);
                if let Some(last) = memchr::memmem::rfind(s.as_bytes(), lit.as_bytes()) {
                    for i in (0..=last).filter(|&i| s.is_char_boundary(i)) {
                        crate::limits::checkpoint()?;
                        bits.set(i);
                    }
                }
                Ok(Some(bits))
            }
            Searcher::Pieces(m) => {
                let mut bits = Bits::new(s.len() + 1);
                for i in (0..=s.len()).filter(|&i| s.is_char_boundary(i)) {
                    for j in (i..=s.len()).filter(|&j| s.is_char_boundary(j)) {
                        crate::limits::checkpoint()?;
                        if m.is_match(&s[i..j])? {
                            bits.set(i);
                            break;
                        }
                    }
                }
                Ok(Some(bits))
            }
        }
    }
}

/// Where `lit` occurs in `hay`, overlapping occurrences too, ascending; an
/// empty `lit` occurs at every character boundary. A needle that is valid
/// UTF-8 only matches where a character starts.
fn occurrences<'a>(hay: &'a [u8], lit: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let finder = memchr::memmem::Finder::new(lit);
    let mut at = 0;
    std::iter::from_fn(move || {
        if lit.is_empty() {
            while at < hay.len() && (hay[at] as i8) < -0x40 {
                at += 1;
            }
            let k = (at <= hay.len()).then_some(at);
            at += 1;
            return k;
        }
        let k = at + finder.find(hay.get(at..)?)?;
        at = k + 1;
        Some(k)
    })
}

/// [`occurrences`], descending.
fn occurrences_rev<'a>(hay: &'a [u8], lit: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let finder = memchr::memmem::FinderRev::new(lit);
    // Occurrences still to report start before `end`.
    let mut end = Some(hay.len() + 1);
    std::iter::from_fn(move || {
        let e = end?;
        if lit.is_empty() {
            let mut k = e.checked_sub(1)?;
            while k < hay.len() && (hay[k] as i8) < -0x40 {
                k = k.checked_sub(1)?;
            }
            end = Some(k);
            return Some(k);
        }
        let k = finder.rfind(hay.get(..(e.checked_sub(1)? + lit.len()).min(hay.len()))?)?;
        end = Some(k);
        Some(k)
    })
}

/// A set of string positions.
pub struct Bits(Vec<u64>);

impl Bits {
    pub fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    pub fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    pub fn set(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }
}

/// A compiled whole-string matcher (see [`Pattern::matcher`]).
#[allow(clippy::large_enum_variant)] // built once per match loop, never stored in bulk
pub enum Matcher {
    Literal(String),
    /// `lit*`: the string starts with `lit`.
    Prefix(Arc<str>),
    /// `*lit`: the string ends with `lit`.
    Suffix(Arc<str>),
    /// `p*q`: starts with `p` and ends with `q`, apart.
    Both(Arc<str>, Arc<str>),
    /// `*lit*`: holds `lit`.
    Contains(Arc<str>),
    Plain(Scanner),
    Neg(NegMatcher),
}

impl Matcher {
    /// Does the whole of `s` match?
    pub fn is_match(&mut self, s: &str) -> Result<bool, Stop> {
        match self {
            Matcher::Literal(l) => Ok(l == s),
            Matcher::Prefix(l) => Ok(s.starts_with(&**l)),
            Matcher::Suffix(l) => Ok(s.ends_with(&**l)),
            Matcher::Both(p, q) => Ok(s.len() >= p.len() + q.len() && s.starts_with(&**p) && s.ends_with(&**q)),
            Matcher::Contains(l) => Ok(s.contains(&**l)),
            Matcher::Plain(sc) => sc.is_match(s),
            Matcher::Neg(n) => n.is_match(s),
        }
    }
}

/// `P0 !(N1) P1 !(N2) P2 ...`: `!(N)` matches any text that `N` does not
/// match, which a regex cannot express, so the splits are found by a dynamic
/// program over the parts, from the last backwards: the set of positions
/// from which the rest of the pattern matches to the end. Each step is at
/// worst quadratic in the length of the text (one forward scan per
/// position, usually cut short), and checkpoints as it goes.
pub struct NegMatcher {
    parts: Vec<Scanner>,
    negs: Vec<Scanner>,
}

impl NegMatcher {
    fn is_match(&mut self, s: &str) -> Result<bool, Stop> {
        let n = s.len();
        let bytes = s.as_bytes();
        let boundary = |p: usize| p == n || (bytes[p] as i8) >= -0x40;
        let k = self.negs.len();
        // rest[p]: s[p..] matches the parts and groups from the current one on.
        let mut end = Bits::new(n + 1);
        end.set(n);
        let Some(last) = self.parts.last_mut() else { return Ok(false) };
        let Some(mut rest) = last.reach(s, &end, true)? else { return Ok(false) };
        for m in (0..k).rev() {
            // neg_ok[e]: some f >= e in `rest` with s[e..f] not matching the group.
            let neg = &mut self.negs[m];
            let neg_ok = match neg.reach(s, &rest, false)? {
                Some(b) => b,
                None => neg_ok_by_walks(neg, s, &rest, &boundary)?,
            };
            // The new rest: s[p..e] matches part m for some e in neg_ok.
            let part = &mut self.parts[m];
            rest = match part.reach(s, &neg_ok, true)? {
                Some(b) => b,
                None => rest_by_walks(part, s, &neg_ok, &boundary)?,
            };
        }
        Ok(rest.get(0))
    }
}

impl Scanner {
    /// The reverse automaton and its cache, built on first use.
    fn rev_dfa(&mut self) -> Option<(&DFA, &mut Cache)> {
        let (d, c) = self.caches();
        if c.rev.is_none() {
            let dfa = d.rev.get_or_init(|| build_dfa(&d.src, d.nocase, true)).clone()?;
            let cache = dfa.create_cache();
            c.rev = Some((dfa, cache));
        }
        c.rev.as_mut().map(|(d, c)| (&*d, c))
    }

    /// For every char boundary `i`: is there an `f >= i` in `seeds` with
    /// `s[i..f]` matching (`want_match`) or not matching (`!want_match`)?
    /// One pass from the end, running a reverse DFA from every seed at once;
    /// runs in the same state merge, so the work is the length times the
    /// number of distinct states alive (small for ordinary patterns).
    /// `Ok(None)`: the automaton is missing, or its cache was cleared during
    /// the pass (which invalidates the states held): the caller falls back.
    fn reach(&mut self, s: &str, seeds: &Bits, want_match: bool) -> Result<Option<Bits>, Stop> {
        let n = s.len();
        let bytes = s.as_bytes();
        let Some((dfa, cache)) = self.rev_dfa() else { return Ok(None) };
        let start = start::Config::new().anchored(Anchored::Yes);
        let clears = cache.clear_count();
        let mut out = Bits::new(n + 1);
        let mut active: Vec<LazyStateID> = Vec::new();
        let mut next_active: Vec<LazyStateID> = Vec::new();
        // A thread that died matches nothing any more: every position to
        // its left then has a non-matching piece.
        let mut died = false;
        for i in (0..=n).rev() {
            crate::limits::checkpoint()?;
            if seeds.get(i) {
                let Ok(sid) = dfa.start_state(cache, &start) else { return Ok(None) };
                if cache.clear_count() != clears {
                    return Ok(None);
                }
                active.push(sid);
            }
            let (mut hit, mut miss) = (false, died);
            next_active.clear();
            for &sid in &active {
                crate::limits::checkpoint()?;
                // Reported one byte late: the state after s[i-1] says
                // whether s[i..f] matches.
                let next = match i.checked_sub(1) {
                    Some(k) => dfa.next_state(cache, sid, bytes[k]),
                    None => dfa.next_eoi_state(cache, sid),
                };
                let Ok(next) = next else { return Ok(None) };
                if cache.clear_count() != clears {
                    return Ok(None);
                }
                if next.is_match() {
                    hit = true;
                } else {
                    miss = true;
                }
                if next.is_dead() {
                    died = true;
                } else {
                    next_active.push(next);
                }
            }
            let boundary = i == n || (bytes[i] as i8) >= -0x40;
            if boundary && (if want_match { hit } else { miss }) {
                out.set(i);
            }
            next_active.sort_unstable();
            next_active.dedup();
            std::mem::swap(&mut active, &mut next_active);
        }
        Ok(Some(out))
    }
}

/// [`Scanner::reach`] for a group, by one forward walk per position (each
/// stops at the first good end): quadratic at worst, for when the DFA's
/// cache had to be cleared.
fn neg_ok_by_walks(neg: &mut Scanner, s: &str, rest: &Bits, boundary: &dyn Fn(usize) -> bool) -> Result<Bits, Stop> {
    let n = s.len();
    let after = suffix_any(rest, n);
    let mut neg_ok = Bits::new(n + 1);
    for e in (0..=n).filter(|&e| boundary(e) && after.get(e)) {
        let mut ok = false;
        let (dfa, cache) = neg.fwd();
        let end = walk_fwd(dfa, cache, s.as_bytes(), e, |f, matched| {
            ok = !matched && rest.get(f);
            !ok
        })?;
        if let Walk::Died(d) = end {
            // The group matches nothing from d on.
            ok = after.get(d);
        }
        if ok {
            neg_ok.set(e);
        }
    }
    Ok(neg_ok)
}

/// [`Scanner::reach`] for a part, by forward walks (see [`neg_ok_by_walks`]).
fn rest_by_walks(part: &mut Scanner, s: &str, ends: &Bits, boundary: &dyn Fn(usize) -> bool) -> Result<Bits, Stop> {
    let n = s.len();
    let ok_after = suffix_any(ends, n);
    let mut next = Bits::new(n + 1);
    for p in (0..=n).filter(|&p| boundary(p) && ok_after.get(p)) {
        let mut hit = false;
        part.ends(s, p, |e| {
            hit = ends.get(e);
            !hit
        })?;
        if hit {
            next.set(p);
        }
    }
    Ok(next)
}

/// `out[p]`: some position `>= p` is in `set`.
fn suffix_any(set: &Bits, n: usize) -> Bits {
    let mut out = Bits::new(n + 1);
    let mut any = false;
    for p in (0..=n).rev() {
        any |= set.get(p);
        if any {
            out.set(p);
        }
    }
    out
}

/// Too many nested extglob groups (see [`MAX_GROUP_DEPTH`]).
#[derive(Debug)]
struct TooDeep;

/// Translate `chars[*i..]` into regex syntax, stopping at an unquoted `)` or `|`
/// when `in_group` (extglob alternatives). `depth` counts the enclosing groups.
fn translate(
    c: &[(char, bool)],
    i: &mut usize,
    out: &mut String,
    extglob: bool,
    in_group: bool,
    depth: usize,
) -> Result<(), TooDeep> {
    while *i < c.len() {
        let (ch, quoted) = c[*i];
        if quoted {
            push_lit(out, ch);
            *i += 1;
            continue;
        }
        if in_group && (ch == ')' || ch == '|') {
            return Ok(());
        }
        if extglob && matches!(ch, '?' | '*' | '+' | '@' | '!') && c.get(*i + 1) == Some(&('(', false)) {
            if let Some(group) = extglob_group(c, *i + 2, extglob, depth + 1)? {
                let (alts, end) = group;
                let body = alts.join("|");
                match ch {
                    '?' => out.push_str(&format!("(?:{body})?")),
                    '*' => out.push_str(&format!("(?:{body})*")),
                    '+' => out.push_str(&format!("(?:{body})+")),
                    '@' => out.push_str(&format!("(?:{body})")),
                    // Negation needs look-ahead, which this regex engine lacks:
                    // approximate `!(x)` as "anything" only when x can't be handled.
                    _ => out.push_str(".*"),
                }
                *i = end;
                continue;
            }
        }
        match ch {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '\\' => {
                if let Some(&(next, _)) = c.get(*i + 1) {
                    push_lit(out, next);
                    *i += 1;
                } else {
                    push_lit(out, '\\');
                }
            }
            '[' => match bracket(c, *i) {
                Some((class, end)) => {
                    out.push_str(&class);
                    *i = end;
                    continue;
                }
                None => push_lit(out, '['),
            },
            _ => push_lit(out, ch),
        }
        *i += 1;
    }
    Ok(())
}

/// Parse `(a|b)` alternatives starting after `(`; returns them and the index
/// after `)`, or `None` when the group is not closed. `depth` is this group's
/// nesting; past [`MAX_GROUP_DEPTH`] (or with the stack nearly used) the
/// whole pattern is refused.
fn extglob_group(
    c: &[(char, bool)],
    start: usize,
    extglob: bool,
    depth: usize,
) -> Result<Option<(Vec<String>, usize)>, TooDeep> {
    if depth > MAX_GROUP_DEPTH || crate::limits::stack_low() {
        return Err(TooDeep);
    }
    let mut alts = Vec::new();
    let mut i = start;
    loop {
        let mut alt = String::new();
        translate(c, &mut i, &mut alt, extglob, true, depth)?;
        alts.push(alt);
        match c.get(i) {
            Some(&('|', false)) => i += 1,
            Some(&(')', false)) => return Ok(Some((alts, i + 1))),
            _ => return Ok(None),
        }
    }
}

fn push_lit(out: &mut String, ch: char) {
    let mut buf = [0u8; 4];
    out.push_str(&regex::escape(ch.encode_utf8(&mut buf)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, s: &str) -> bool {
        Pattern::from_glob_text(p).matches(s, true)
    }

    #[test]
    fn literal_shapes_agree_with_the_automaton() {
        // Every pattern of up to two stars over a small alphabet against
        // every string of up to five letters: the text comparisons of the
        // affix shapes must say what the full regex says.
        let alpha = ['a', 'b', '*'];
        let mut pats = vec![String::new()];
        for _ in 0..5 {
            let next: Vec<String> = pats.iter().flat_map(|p| alpha.iter().map(move |c| format!("{p}{c}"))).collect();
            pats.extend(next);
        }
        pats.sort();
        pats.dedup();
        let strs: Vec<String> = pats.iter().filter(|p| !p.contains('*')).cloned().collect();
        let mut shaped = 0;
        for p in pats.iter().filter(|p| p.matches('*').count() <= 2) {
            let pat = Pattern::from_glob_text(p);
            let re = pat.compile(false, false).expect("compiles");
            let Some(mut m) = pat.matcher(false, false) else { panic!("{p}") };
            shaped += usize::from(!matches!(m, Matcher::Plain(_)));
            for s in &strs {
                assert_eq!(m.is_match(s).ok(), Some(re.is_match(s)), "{p:?} on {s:?}");
            }
        }
        assert!(shaped > 100, "{shaped}");
    }

    #[test]
    fn globs() {
        assert!(m("*.txt", "a.txt"));
        assert!(!m("*.txt", "a.txt.bak"));
        assert!(m("a?c", "abc"));
        assert!(m("[a-c]x", "bx"));
        assert!(!m("[!a-c]x", "bx"));
        assert!(m("[[:digit:]]*", "1abc"));
        assert!(m("[]a]", "]"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "a"));
        assert!(m("@(foo|bar).c", "bar.c"));
        assert!(m("+(ab)", "ababab"));
        assert!(m("a.b", "a.b") && !m("a.b", "axb"));
        let quoted = Pattern::from_parts(&[("*".into(), true), ("*".into(), false)]);
        assert!(quoted.matches("*abc", true));
        assert!(!quoted.matches("abc", true));
    }

    /// A fixed-seed generator (xorshift) for the property tests.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    const PIECES: &[&str] = &[
        "a",
        "b",
        "*",
        "?",
        "[ab]",
        "[!a]",
        "@(a|b)",
        "*(ab)",
        "+(a|bb)",
        "?(b)",
        "\\*",
        "é",
        "*(é|a)",
        "[[:alpha:]]",
        "@(b|ab)",
        "@(a|ab|abb)",
        "*(a|ab)",
    ];
    const TEXT: &[&str] = &["a", "b", "*", "é", "c"];

    fn gen(rng: &mut Rng, from: &[&str], max: usize) -> String {
        (0..rng.below(max + 1)).map(|_| rng.pick(from)).collect()
    }

    fn bounds(s: &str) -> Vec<usize> {
        s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
    }

    /// The scans agree with the brute-force definition (a full regex match
    /// of every substring) on many small strings and patterns.
    #[test]
    fn scans_agree_with_brute_force() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..400 {
            let p = Pattern::from_glob_text(&gen(&mut rng, PIECES, 4));
            let re = p.compile(true, false).expect("compiles");
            let mut sc = p.scanner(true).expect("scanner");
            for _ in 0..6 {
                let s = gen(&mut rng, TEXT, 7);
                let b = bounds(&s);
                for &from in &b {
                    let mut got = Vec::new();
                    sc.ends(&s, from, |j| {
                        got.push(j);
                        true
                    })
                    .unwrap();
                    let want: Vec<usize> =
                        b.iter().copied().filter(|&j| j >= from && re.is_match(&s[from..j])).collect();
                    assert_eq!(got, want, "ends of {p:?} in {s:?} from {from}");
                }
                let mut got = Vec::new();
                assert!(sc
                    .starts(&s, |i| {
                        got.push(i);
                        true
                    })
                    .unwrap());
                let want: Vec<usize> = b.iter().rev().copied().filter(|&i| re.is_match(&s[i..])).collect();
                assert_eq!(got, want, "starts of {p:?} in {s:?}");
                let marks = sc.match_starts(&s).unwrap().expect("builds");
                for i in 0..=s.len() {
                    let want = b.contains(&i) && b.iter().any(|&j| j >= i && re.is_match(&s[i..j]));
                    assert_eq!(marks.get(i), want, "a match of {p:?} starts at {i} in {s:?}");
                }
                assert_eq!(sc.is_match(&s).unwrap(), re.is_match(&s), "{p:?} against {s:?}");
            }
        }
    }

    /// Every searcher and matcher (text, affix shapes, cached automata) agrees
    /// with the brute-force definition; run twice, so the second round works
    /// with prepared patterns and the caches the first round gave back.
    #[test]
    fn searchers_agree_with_brute_force() {
        const LIT: &[&str] = &["a", "b", "é", "ab", "\\*"];
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        let mut pats = Vec::new();
        for _ in 0..200 {
            let lit = gen(&mut rng, LIT, 3);
            pats.push(match rng.below(4) {
                0 => format!("*{lit}"),
                1 => format!("{lit}*"),
                2 => lit,
                _ => gen(&mut rng, PIECES, 3),
            });
        }
        pats.push("*".into());
        let texts: Vec<String> = (0..6).map(|_| gen(&mut rng, TEXT, 7)).collect();
        for _round in 0..2 {
            for src in &pats {
                let p = Pattern::from_glob_text(src);
                let re = p.compile(true, false).expect("compiles");
                let Some(mut sc) = p.searcher(true, false) else { panic!("{src}: no searcher") };
                for s in &texts {
                    let b = bounds(s);
                    for &from in &b {
                        let mut got = Vec::new();
                        sc.ends(s, from, |j| {
                            got.push(j);
                            true
                        })
                        .unwrap();
                        let want: Vec<usize> =
                            b.iter().copied().filter(|&j| j >= from && re.is_match(&s[from..j])).collect();
                        assert_eq!(got, want, "ends of {src:?} in {s:?} from {from}");
                    }
                    let mut got = Vec::new();
                    sc.starts(s, |i| {
                        got.push(i);
                        true
                    })
                    .unwrap();
                    let want: Vec<usize> = b.iter().rev().copied().filter(|&i| re.is_match(&s[i..])).collect();
                    assert_eq!(got, want, "starts of {src:?} in {s:?}");
                    let marks = sc.match_starts(s).unwrap().expect("builds");
                    for i in 0..=s.len() {
                        let want = b.contains(&i) && b.iter().any(|&j| j >= i && re.is_match(&s[i..j]));
                        assert_eq!(marks.get(i), want, "a match of {src:?} starts at {i} in {s:?}");
                    }
                    let mut m = p.matcher(true, false).expect("matcher");
                    assert_eq!(m.is_match(s).unwrap(), re.is_match(s), "{src:?} against {s:?}");
                }
            }
        }
    }

    /// The old recursive definition of `P0 !(N1) P1 ...`, on full-match regexes.
    fn neg_brute(parts: &[Regex], negs: &[Regex], s: &str, k: usize, at: usize) -> bool {
        if k == negs.len() {
            return parts[k].is_match(&s[at..]);
        }
        let b = bounds(s);
        b.iter().filter(|&&e| e >= at && parts[k].is_match(&s[at..e])).any(|&e| {
            b.iter().filter(|&&f| f >= e).any(|&f| !negs[k].is_match(&s[e..f]) && neg_brute(parts, negs, s, k + 1, f))
        })
    }

    #[test]
    fn negation_agrees_with_brute_force() {
        const NEG: &[&str] = &["a", "b", "*", "?", "!(a)", "!(b*)", "!(ab|b)", "!(*a)", "@(a|b)", "!()"];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let mut src = gen(&mut rng, NEG, 3);
            src.push_str("!(");
            src.push_str(rng.pick(&["a", "b", "ab|ba", "*b", ""]));
            src.push(')');
            src.push_str(&gen(&mut rng, NEG, 2));
            let p = Pattern::from_glob_text(&src);
            let Some(Matcher::Neg(mut m)) = p.matcher(true, false) else { panic!("{src}: not a negation") };
            let full = |sc: &Scanner| RegexBuilder::new(&format!("^(?:{})$", sc.dfas.src)).build().unwrap();
            let parts: Vec<Regex> = m.parts.iter().map(full).collect();
            let negs: Vec<Regex> = m.negs.iter().map(full).collect();
            for _ in 0..8 {
                let s = gen(&mut rng, TEXT, 6);
                assert_eq!(m.is_match(&s).unwrap(), neg_brute(&parts, &negs, &s, 0, 0), "{src:?} against {s:?}");
            }
        }
    }

    #[test]
    fn negation_is_not_capped_at_a_length() {
        let s = "a".repeat(100_000) + ".txt";
        assert!(m("!(*.c)", &s));
        assert!(!m("!(*.txt)", &s));
        assert!(m("*.!(c)", &s));
    }

    #[test]
    fn deeply_nested_groups_match_nothing_without_overflowing() {
        let depth = 100_000;
        let p = "@(".repeat(depth) + "a" + &")".repeat(depth);
        assert!(!m(&p, "a"));
        assert!(Pattern::from_glob_text(&p).scanner(true).is_none());
        // Within the bound, nesting works.
        let p = "@(".repeat(50) + "a" + &")".repeat(50);
        assert!(m(&p, "a"));
    }

    #[test]
    fn a_long_match_stops_at_the_deadline() {
        use crate::limits::{Budget, CancelToken, Limits};
        let cancel = CancelToken::default();
        let budget = Budget::new(Limits::default(), cancel.clone());
        let _g = crate::limits::scope::enter(&budget);
        cancel.cancel();
        let s = "a".repeat(1 << 20);
        // (`*b` alone compares the last byte: there is no walk to stop.)
        let p = Pattern::from_glob_text("*b*c");
        assert_eq!(p.try_matches_case(&s, true, false), Err(Stop::Cancelled));
        let p = Pattern::from_glob_text("!(*b)c");
        assert_eq!(p.try_matches_case(&s, true, false), Err(Stop::Cancelled));
    }
}
