//! The JSON value `jq` runs on (jaq's `ValT`), with jq 1.7's semantics and
//! error wording, plus the guard that bounds a running program: every value
//! operation ticks a per-thread counter that checks the deadline, the
//! cancellation flag and the remaining stack, and sizes are capped where
//! values are built. A program past a bound is unwound (`resume_unwind`,
//! which runs no panic hook) up to the jq worker thread, which reports it.

mod num;
mod ops;
pub use num::*;
pub use ops::*;

use indexmap::IndexMap;
use jaq_core::box_iter::box_once;
use jaq_core::{path, val, Error, Exn};
use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering as AtOrd};
use std::sync::Arc;
use std::time::Instant;

/// Objects keep insertion order, as jq's do.
pub type Map = IndexMap<Rc<str>, Val>;

/// Deepest nesting a program may build (jq's parser stops input at 256; this
/// only keeps recursive drops, comparisons and printing off the stack's end).
pub const MAX_DEPTH: u32 = 10_000;

#[derive(Debug, Default)]
pub enum Val {
    #[default]
    Null,
    Bool(bool),
    Num(f64),
    /// A number literal whose text jq 1.7 prints unchanged (`1.0`, `1E+2`,
    /// `100000000000000000001`) until arithmetic turns it into a double.
    Lit(Rc<(f64, String)>),
    Str(Rc<str>),
    Arr(Rc<Arr>),
    Obj(Rc<Obj>),
}

#[derive(Debug, Clone, Default)]
pub struct Arr {
    pub items: Vec<Val>,
    pub depth: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Obj {
    pub map: Map,
    pub depth: u32,
}

// ---------------------------------------------------------------------------
// The guard
// ---------------------------------------------------------------------------

/// Why a program was stopped from outside the language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Abort {
    Timeout,
    Cancelled,
    /// The reader went away or the output limit was hit.
    Stopped,
    Depth,
    Stack,
    TooLarge(&'static str),
    /// The exec's budget said stop (memory, or another limit of the exec).
    Limit(String),
    /// An inline run gave way, to run again on a worker (see `run::inline`).
    GiveWay,
}

pub struct Guard {
    pub deadline: Option<Instant>,
    /// An inline run gives way at this time (see `run::inline`).
    pub yield_at: Option<Instant>,
    pub cancelled: Box<dyn Fn() -> bool + Send>,
    pub stop: Arc<AtomicBool>,
    /// Largest array/object length and string byte length a program may build.
    pub max_len: usize,
    /// Bytes the session may hold while the program runs (see [`heap_cap`]).
    pub heap_cap: Option<u64>,
}

/// The share of the session's free memory a jq program may fill. Dropping
/// what it built recurses through jaq's own types (a chain of closures from
/// `def f(x): f([x])`), and that stack is memory too, outside the allocator's
/// count: measured about 1.1 times the heap in a release build, several times
/// it in a debug one. Stopping the program at this share keeps heap plus drop
/// stack near the budget (release: 279 MiB peak RSS at 256 MiB, as the other
/// bombs of `benches/adversarial.rs`) while a document of a tenth of the
/// budget still fits.
pub fn heap_cap(used: u64, limit: u64) -> u64 {
    let free = limit.saturating_sub(used);
    // Debug builds' drop frames are larger still, but the worker's stack is
    // sized for them (see `jq.rs`): only the peak differs, not safety.
    used.saturating_add(free / 2)
}

thread_local! {
    static GUARD: RefCell<Option<Guard>> = const { RefCell::new(None) };
    static STEPS: Cell<u32> = const { Cell::new(0) };
    static MAX_LEN: Cell<usize> = const { Cell::new(usize::MAX) };
    /// Evaluation stops when less stack than this is left (see [`EVAL_STACK`]).
    static STACK_FLOOR: Cell<usize> = const { Cell::new(RED_ZONE) };
    /// The least stack left seen by [`tick`] since the guard was installed.
    static STACK_LOWEST: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// The least stack that was left during the guarded run (as seen every 64
/// steps), to tell a pooled worker whose stack a deep recursion touched.
pub fn lowest_stack_left() -> usize {
    STACK_LOWEST.with(Cell::get)
}

/// Stack the worker keeps free below its current position.
const RED_ZONE: usize = 512 * 1024;

/// Stack the evaluator may use. The worker's stack is larger: the rest is for
/// the recursive drops of what a program built (a chain of closures as long as
/// the memory budget allows), which run while an abort unwinds.
pub const EVAL_STACK: usize = 48 << 20;

pub fn install_guard(g: Option<Guard>) {
    let floor = match (&g, stacker::remaining_stack()) {
        (Some(_), Some(left)) => left.saturating_sub(EVAL_STACK).max(RED_ZONE),
        _ => RED_ZONE,
    };
    STACK_FLOOR.with(|f| f.set(floor));
    STACK_LOWEST.with(|l| l.set(usize::MAX));
    MAX_LEN.with(|m| m.set(g.as_ref().map_or(usize::MAX, |g| g.max_len)));
    GUARD.with(|c| *c.borrow_mut() = g);
}

pub fn abort(a: Abort) -> ! {
    std::panic::resume_unwind(Box::new(a))
}

/// One step of work. Cheap; every 64 steps looks at the stack, every 4096
/// at the clock and the flags.
#[inline]
pub fn tick() {
    let n = STEPS.with(|s| {
        let n = s.get().wrapping_add(1);
        s.set(n);
        n
    });
    if n & 63 == 0 {
        slow_check(n & 4095 == 0);
    }
}

#[cold]
fn slow_check(full: bool) {
    // Only a jq run is guarded; elsewhere (argument parsing on
    // the interpreter's threads) values are small and bounded by the parser.
    if GUARD.with(|g| g.borrow().is_none()) {
        return;
    }
    let left = stacker::remaining_stack();
    if let Some(r) = left {
        STACK_LOWEST.with(|l| l.set(l.get().min(r)));
    }
    if left.is_some_and(|r| r < STACK_FLOOR.with(Cell::get)) {
        abort(Abort::Stack);
    }
    if !full {
        return;
    }
    let why = GUARD.with(|g| {
        let g = g.borrow();
        let g = g.as_ref()?;
        if g.stop.load(AtOrd::Relaxed) {
            return Some(Abort::Stopped);
        }
        if (g.cancelled)() {
            return Some(Abort::Cancelled);
        }
        let now = Instant::now();
        if g.deadline.is_some_and(|d| now >= d) {
            return Some(Abort::Timeout);
        }
        if g.yield_at.is_some_and(|t| now >= t) {
            return Some(Abort::GiveWay);
        }
        if let Some(cap) = g.heap_cap {
            let over = crate::limits::scope::with_budget(|b| match b.memory() {
                Some(m) if m.used() > cap => Some(b.memory_exceeded()),
                _ => None,
            });
            if let Some(Some(crate::limits::Stop::Limit(m))) = over {
                return Some(Abort::Limit(m));
            }
        }
        // The exec's own budget (the worker entered its scope): memory above all.
        match crate::limits::scope::check_now() {
            Ok(()) => None,
            Err(crate::limits::Stop::Timeout(_)) => Some(Abort::Timeout),
            Err(crate::limits::Stop::Cancelled) => Some(Abort::Cancelled),
            Err(crate::limits::Stop::Limit(m)) => Some(Abort::Limit(m)),
        }
    });
    if let Some(a) = why {
        abort(a);
    }
}

/// Check a length being built against the cap.
#[inline]
pub fn check_len(n: usize, what: &'static str) {
    // Containers hold 16+ bytes an element: a quarter of the byte cap.
    let max = MAX_LEN.with(Cell::get);
    let max = if matches!(what, "array" | "object") { max / 4 } else { max };
    if n > max {
        abort(Abort::TooLarge(what));
    }
}

// ---------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------

impl Clone for Val {
    fn clone(&self) -> Self {
        tick();
        match self {
            Val::Null => Val::Null,
            Val::Bool(b) => Val::Bool(*b),
            Val::Num(n) => Val::Num(*n),
            Val::Lit(l) => Val::Lit(l.clone()),
            Val::Str(s) => Val::Str(s.clone()),
            Val::Arr(a) => Val::Arr(a.clone()),
            Val::Obj(o) => Val::Obj(o.clone()),
        }
    }
}

impl Val {
    pub fn str(s: &str) -> Val {
        check_len(s.len(), "string");
        Val::Str(Rc::from(s))
    }

    pub fn string(s: String) -> Val {
        check_len(s.len(), "string");
        Val::Str(Rc::from(s))
    }

    /// Nesting depth: 0 for scalars.
    pub fn depth(&self) -> u32 {
        match self {
            Val::Arr(a) => a.depth,
            Val::Obj(o) => o.depth,
            _ => 0,
        }
    }

    pub fn arr(items: Vec<Val>) -> Val {
        check_len(items.len(), "array");
        let depth = 1 + items.iter().map(Val::depth).max().unwrap_or(0);
        if depth > MAX_DEPTH {
            abort(Abort::Depth);
        }
        Val::Arr(Rc::new(Arr { items, depth }))
    }

    pub fn obj(map: Map) -> Val {
        check_len(map.len(), "object");
        let depth = 1 + map.values().map(Val::depth).max().unwrap_or(0);
        if depth > MAX_DEPTH {
            abort(Abort::Depth);
        }
        Val::Obj(Rc::new(Obj { map, depth }))
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Val::Num(n) => Some(*n),
            Val::Lit(l) => Some(l.0),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_num(&self) -> bool {
        matches!(self, Val::Num(_) | Val::Lit(_))
    }

    /// jq's type name.
    pub fn kind(&self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "boolean",
            Val::Num(_) | Val::Lit(_) => "number",
            Val::Str(_) => "string",
            Val::Arr(_) => "array",
            Val::Obj(_) => "object",
        }
    }

    fn kind_order(&self) -> u8 {
        match self {
            Val::Null => 0,
            Val::Bool(false) => 1,
            Val::Bool(true) => 2,
            Val::Num(_) | Val::Lit(_) => 3,
            Val::Str(_) => 4,
            Val::Arr(_) => 5,
            Val::Obj(_) => 6,
        }
    }

    /// `type (value)` as jq's error messages show a value: compact JSON cut
    /// to 11 bytes plus `...`.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.kind(), self.trunc_dump())
    }

    pub fn trunc_dump(&self) -> String {
        let s = super::json::to_json(self);
        truncate_dump(&s)
    }

    /// The `Error` jq raises with a plain message.
    pub fn err<T>(msg: impl Into<String>) -> Result<T, Error<Val>> {
        Err(Error::new(Val::string(msg.into())))
    }

    fn into_map(self) -> Option<Map> {
        match self {
            Val::Obj(o) => Some(Rc::try_unwrap(o).map_or_else(|o| o.map.clone(), |o| o.map)),
            _ => None,
        }
    }

    fn into_items(self) -> Option<Vec<Val>> {
        match self {
            Val::Arr(a) => Some(Rc::try_unwrap(a).map_or_else(|a| a.items.clone(), |a| a.items)),
            _ => None,
        }
    }
}

/// jq cuts dumped values in messages after 11 bytes (on a char boundary).
pub fn truncate_dump(s: &str) -> String {
    const MAX: usize = 11;
    if s.len() <= MAX {
        return s.to_string();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

impl From<bool> for Val {
    fn from(b: bool) -> Self {
        tick();
        Val::Bool(b)
    }
}
impl From<isize> for Val {
    fn from(i: isize) -> Self {
        tick();
        Val::Num(i as f64)
    }
}
impl From<usize> for Val {
    fn from(i: usize) -> Self {
        tick();
        Val::Num(i as f64)
    }
}
impl From<f64> for Val {
    fn from(f: f64) -> Self {
        tick();
        Val::Num(f)
    }
}
impl From<String> for Val {
    fn from(s: String) -> Self {
        tick();
        Val::string(s)
    }
}
impl From<val::Range<Val>> for Val {
    fn from(r: val::Range<Val>) -> Self {
        let mut m = Map::default();
        if let Some(s) = r.start {
            m.insert("start".into(), s);
        }
        if let Some(e) = r.end {
            m.insert("end".into(), e);
        }
        Val::obj(m)
    }
}

impl FromIterator<Val> for Val {
    fn from_iter<T: IntoIterator<Item = Val>>(iter: T) -> Self {
        let mut v = Vec::new();
        for x in iter {
            tick();
            check_len(v.len() + 1, "array");
            v.push(x);
        }
        Val::arr(v)
    }
}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

impl PartialEq for Val {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Val {}

// Deliberately not `Some(self.cmp(other))`: jq's `<` on NaN differs from
// the total order `sort` uses.
#[allow(clippy::non_canonical_partial_ord_impl)]
impl PartialOrd for Val {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        // jq: `nan < nan` is true, NaN is below everything numeric.
        if let (Some(a), Some(b)) = (self.as_f64(), other.as_f64()) {
            if a.is_nan() {
                return Some(Ordering::Less);
            }
            return Some(num_cmp(a, b));
        }
        Some(self.cmp(other))
    }
}

impl Ord for Val {
    fn cmp(&self, other: &Self) -> Ordering {
        tick();
        let (ka, kb) = (self.kind_order(), other.kind_order());
        if ka != kb {
            return ka.cmp(&kb);
        }
        match (self, other) {
            (Val::Str(a), Val::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Val::Arr(a), Val::Arr(b)) => a.items.cmp(&b.items),
            (Val::Obj(a), Val::Obj(b)) => {
                // jq: compare the sorted key lists, then the values key by key.
                let mut ka: Vec<&Rc<str>> = a.map.keys().collect();
                let mut kb: Vec<&Rc<str>> = b.map.keys().collect();
                ka.sort();
                kb.sort();
                ka.cmp(&kb).then_with(|| {
                    for k in ka {
                        let c = a.map.get(k).cmp(&b.map.get(k));
                        if c != Ordering::Equal {
                            return c;
                        }
                    }
                    Ordering::Equal
                })
            }
            _ => match (self.as_f64(), other.as_f64()) {
                (Some(a), Some(b)) => num_cmp(a, b),
                _ => Ordering::Equal,
            },
        }
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&super::json::to_json(self))
    }
}

// ---------------------------------------------------------------------------
// Paths: index, slice, update
// ---------------------------------------------------------------------------

fn index_err(v: &Val, i: &Val) -> Error<Val> {
    let msg = match i {
        Val::Str(s) => format!("Cannot index {} with string \"{s}\"", v.kind()),
        _ => format!("Cannot index {} with {}", v.kind(), i.kind()),
    };
    Error::new(Val::string(msg))
}

fn iter_err(v: &Val) -> Error<Val> {
    Error::new(Val::string(format!("Cannot iterate over {}", v.describe())))
}

/// An array position from a number: floor, negative counts from the end.
fn arr_pos(f: f64, len: usize) -> Option<usize> {
    let i = f.floor();
    let i = if i < 0.0 { i + len as f64 } else { i };
    (i >= 0.0 && i < len as f64).then_some(i as usize)
}

/// Slice bounds as jq computes them (clamped, start floored, end ceiled).
fn slice_bounds(start: Option<&Val>, end: Option<&Val>, len: usize) -> Result<(usize, usize), Error<Val>> {
    let conv = |v: Option<&Val>, dflt: usize, up: bool| -> Result<usize, Error<Val>> {
        match v {
            None | Some(Val::Null) => Ok(dflt),
            Some(v) => {
                let f = v
                    .as_f64()
                    .ok_or_else(|| Error::new(Val::str("Start and end indices of an array slice must be numbers")))?;
                let f = if up { f.ceil() } else { f.floor() };
                let f = if f < 0.0 { f + len as f64 } else { f };
                Ok(f.clamp(0.0, len as f64) as usize)
            }
        }
    };
    let s = conv(start, 0, false)?;
    let e = conv(end, len, true)?;
    Ok((s, e.max(s)))
}

fn char_slice(s: &str, from: usize, to: usize) -> &str {
    let mut idx = s.char_indices().map(|(i, _)| i).chain(std::iter::once(s.len()));
    let b = idx.nth(from).unwrap_or(s.len());
    let e = s.char_indices().map(|(i, _)| i).chain(std::iter::once(s.len())).nth(to).unwrap_or(s.len());
    &s[b..e.max(b)]
}

impl Val {
    pub fn index_val(&self, i: &Val) -> ValR {
        tick();
        match (self, i) {
            (Val::Null, Val::Str(_) | Val::Num(_) | Val::Lit(_) | Val::Null) => Ok(Val::Null),
            (Val::Null, Val::Obj(_)) => Ok(Val::Null),
            (Val::Obj(o), Val::Str(k)) => Ok(o.map.get(k).cloned().unwrap_or(Val::Null)),
            (Val::Arr(a), n) if n.is_num() => {
                let f = n.as_f64().unwrap_or(0.0);
                Ok(arr_pos(f, a.items.len()).map_or(Val::Null, |p| a.items[p].clone()))
            }
            (Val::Arr(a), Val::Arr(b)) => Ok(indices_of(&a.items, &b.items)),
            (Val::Arr(_) | Val::Str(_), Val::Obj(o)) => {
                let r = o.map.get("start")..o.map.get("end");
                self.slice(r.start, r.end)
            }
            _ => Err(index_err(self, i)),
        }
    }

    fn slice(&self, start: Option<&Val>, end: Option<&Val>) -> ValR {
        match self {
            Val::Null => Ok(Val::Null),
            Val::Arr(a) => {
                let (s, e) = slice_bounds(start, end, a.items.len())?;
                Ok(Val::arr(a.items[s..e].to_vec()))
            }
            Val::Str(st) => {
                let n = st.chars().count();
                let (s, e) = slice_bounds(start, end, n)?;
                Ok(Val::str(char_slice(st, s, e)))
            }
            _ => Val::err(format!("Cannot index {} with object", self.kind())),
        }
    }
}

/// `[1,2,1] | .[[1]]`: where the subarray starts.
pub fn indices_of(a: &[Val], b: &[Val]) -> Val {
    if b.is_empty() {
        return Val::Null;
    }
    let hits = a.windows(b.len()).enumerate().filter(|(_, w)| *w == b).map(|(i, _)| Val::from(i));
    Val::arr(hits.collect())
}

type ValX<'a> = jaq_core::ValX<'a, Val>;

fn take_first<'a, I: Iterator<Item = ValX<'a>>>(mut it: I) -> Result<Option<Val>, Exn<'a, Val>> {
    it.next().transpose()
}

impl jaq_core::ValT for Val {
    fn from_num(n: &str) -> Result<Val, Error<Val>> {
        tick();
        num_from_text(n).map_or_else(|| Val::err(format!("Invalid numeric literal {n}")), Ok)
    }

    fn from_map<I: IntoIterator<Item = (Self, Self)>>(iter: I) -> Result<Val, Error<Val>> {
        let mut m = Map::default();
        for (k, v) in iter {
            tick();
            match k {
                Val::Str(s) => {
                    m.insert(s, v);
                }
                k => return Val::err(format!("Cannot use {} as object key", k.describe())),
            }
        }
        Ok(Val::obj(m))
    }

    fn key_values(self) -> Box<dyn Iterator<Item = Result<(Val, Val), Error<Val>>>> {
        match self {
            Val::Arr(_) => {
                let items = self.into_items().unwrap_or_default();
                Box::new(items.into_iter().enumerate().map(|(i, x)| Ok((Val::from(i), x))))
            }
            Val::Obj(_) => {
                let m = self.into_map().unwrap_or_default();
                Box::new(m.into_iter().map(|(k, v)| Ok((Val::Str(k), v))))
            }
            v => box_once(Err(Error::new(Val::string(format!("{} has no keys", v.describe()))))),
        }
    }

    fn values(self) -> Box<dyn Iterator<Item = Result<Val, Error<Val>>>> {
        match self {
            Val::Arr(_) => Box::new(self.into_items().unwrap_or_default().into_iter().map(Ok)),
            Val::Obj(_) => Box::new(self.into_map().unwrap_or_default().into_values().map(Ok)),
            v => box_once(Err(iter_err(&v))),
        }
    }

    fn index(self, index: &Self) -> Result<Val, Error<Val>> {
        self.index_val(index)
    }

    fn range(self, range: val::Range<&Self>) -> Result<Val, Error<Val>> {
        tick();
        self.slice(range.start, range.end)
    }

    fn map_values<'a, I: Iterator<Item = ValX<'a>>>(self, opt: path::Opt, f: impl Fn(Self) -> I) -> ValX<'a> {
        tick();
        match self {
            Val::Arr(_) => {
                let mut out = Vec::new();
                for x in self.into_items().unwrap_or_default() {
                    if let Some(y) = take_first(f(x))? {
                        out.push(y);
                    }
                }
                Ok(Val::arr(out))
            }
            Val::Obj(_) => {
                let mut out = Map::default();
                for (k, v) in self.into_map().unwrap_or_default() {
                    if let Some(y) = take_first(f(v))? {
                        out.insert(k, y);
                    }
                }
                Ok(Val::obj(out))
            }
            v => opt.fail(v, |v| Exn::from(iter_err(&v))),
        }
    }

    fn map_index<'a, I: Iterator<Item = ValX<'a>>>(
        self,
        index: &Self,
        opt: path::Opt,
        f: impl Fn(Self) -> I,
    ) -> ValX<'a> {
        tick();
        if let (Val::Arr(_) | Val::Str(_) | Val::Null, Val::Obj(o)) = (&self, index) {
            let r = o.map.get("start")..o.map.get("end");
            return self.map_range(r, opt, f);
        }
        match (self, index) {
            (Val::Null, Val::Str(_)) => Val::obj(Map::default()).map_index(index, opt, f),
            (Val::Null, n) if n.is_num() => Val::arr(Vec::new()).map_index(index, opt, f),
            (v @ Val::Obj(_), Val::Str(k)) => {
                let mut m = v.into_map().unwrap_or_default();
                let old = m.get(k).cloned().unwrap_or(Val::Null);
                match take_first(f(old))? {
                    Some(y) => {
                        m.insert(k.clone(), y);
                    }
                    None => {
                        m.shift_remove(k);
                    }
                }
                Ok(Val::obj(m))
            }
            (v @ Val::Arr(_), n) if n.is_num() => {
                let mut a = v.into_items().unwrap_or_default();
                let fi = n.as_f64().unwrap_or(0.0).floor();
                let len = a.len() as f64;
                let pos = if fi < 0.0 { fi + len } else { fi };
                if pos < 0.0 {
                    return opt
                        .fail(Val::arr(a), |_| Exn::from(Error::new(Val::str("Out of bounds negative array index"))));
                }
                let pos = pos as usize;
                check_len(pos.saturating_add(1), "array");
                let old = a.get(pos).cloned().unwrap_or(Val::Null);
                match take_first(f(old))? {
                    Some(y) => {
                        if pos >= a.len() {
                            a.resize(pos + 1, Val::Null);
                        }
                        a[pos] = y;
                    }
                    None => {
                        if pos < a.len() {
                            a.remove(pos);
                        }
                    }
                }
                Ok(Val::arr(a))
            }
            (v, i) => {
                let e = index_err(&v, i);
                opt.fail(v, |_| Exn::from(e))
            }
        }
    }

    fn map_range<'a, I: Iterator<Item = ValX<'a>>>(
        self,
        range: val::Range<&Self>,
        opt: path::Opt,
        f: impl Fn(Self) -> I,
    ) -> ValX<'a> {
        tick();
        match self {
            Val::Null => Val::arr(Vec::new()).map_range(range, opt, f),
            Val::Arr(_) => {
                let mut a = self.into_items().unwrap_or_default();
                let (s, e) = match slice_bounds(range.start, range.end, a.len()) {
                    Ok(b) => b,
                    Err(err) => return opt.fail(Val::arr(a), |_| Exn::from(err)),
                };
                let part = Val::arr(a[s..e].to_vec());
                let new = match take_first(f(part))? {
                    Some(Val::Arr(n)) => n.items.clone(),
                    Some(_) => {
                        return Err(Exn::from(Error::new(Val::str(
                            "A slice of an array can only be assigned another array",
                        ))))
                    }
                    None => Vec::new(),
                };
                check_len(a.len() - (e - s) + new.len(), "array");
                a.splice(s..e, new);
                Ok(Val::arr(a))
            }
            v => {
                let e = Error::new(Val::string(format!("Cannot update field at object index of {}", v.kind())));
                opt.fail(v, |_| Exn::from(e))
            }
        }
    }

    fn as_bool(&self) -> bool {
        tick();
        !matches!(self, Val::Null | Val::Bool(false))
    }

    fn into_string(self) -> Self {
        tick();
        match self {
            Val::Str(_) => self,
            v => Val::string(super::json::to_json(&v)),
        }
    }
}

impl jaq_std::ValT for Val {
    fn into_seq<S: FromIterator<Self>>(self) -> Result<S, Self> {
        match self {
            Val::Arr(_) => Ok(self.into_items().unwrap_or_default().into_iter().collect()),
            v => Err(v),
        }
    }

    fn is_int(&self) -> bool {
        self.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
    }

    fn as_isize(&self) -> Option<isize> {
        let f = self.as_f64()?;
        (f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as isize)
    }

    fn as_f64(&self) -> Option<f64> {
        Val::as_f64(self)
    }

    fn is_utf8_str(&self) -> bool {
        matches!(self, Val::Str(_))
    }

    fn as_bytes(&self) -> Option<&[u8]> {
        self.as_str().map(str::as_bytes)
    }

    fn as_sub_str(&self, sub: &[u8]) -> Self {
        Val::string(String::from_utf8_lossy(sub).into_owned())
    }

    fn from_utf8_bytes(b: impl AsRef<[u8]> + Send + 'static) -> Self {
        Val::string(String::from_utf8_lossy(b.as_ref()).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow path of [`num_from_text`], to hold the fast one to.
    fn slow(s: &str) -> Option<Val> {
        let canon = canonical_literal(s)?;
        let f: f64 = s.parse().ok()?;
        Some(if fmt_f64(f) == canon { Val::Num(f) } else { Val::Lit(Rc::new((f, canon))) })
    }

    #[test]
    fn plain_numbers_read_as_the_slow_path_reads_them() {
        let mut cases: Vec<String> = ["0", "-0", "1", "-1", "10", "100.5", "999999999999999", "1000000000000000"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let int = x % 10u64.pow((x >> 60) as u32 % 12 + 1);
            let frac = (x >> 20) % 10_000;
            let sign = if x & 1 == 0 { "" } else { "-" };
            cases.push(format!("{sign}{int}"));
            cases.push(format!("{sign}{int}.{frac}"));
            cases.push(format!("{sign}{int}.{frac:04}"));
        }
        for s in &cases {
            let fast = plain_number(s);
            let (a, b) = (num_from_text(s), slow(s));
            let same = match (&a, &b) {
                (Some(Val::Num(p)), Some(Val::Num(q))) => p.to_bits() == q.to_bits(),
                (Some(Val::Lit(p)), Some(Val::Lit(q))) => p.0.to_bits() == q.0.to_bits() && p.1 == q.1,
                (None, None) => true,
                _ => false,
            };
            assert!(same, "{s} (fast path: {fast})");
        }
    }
}
