//! The JSON value `jq` runs on (jaq's `ValT`), with jq 1.7's semantics and
//! error wording, plus the guard that bounds a running program: every value
//! operation ticks a per-thread counter that checks the deadline, the
//! cancellation flag and the remaining stack, and sizes are capped where
//! values are built. A program past a bound is unwound (`resume_unwind`,
//! which runs no panic hook) up to the jq worker thread, which reports it.

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
}

pub struct Guard {
    pub deadline: Option<Instant>,
    pub cancelled: Box<dyn Fn() -> bool + Send>,
    pub stop: Arc<AtomicBool>,
    /// Largest array/object length and string byte length a program may build.
    pub max_len: usize,
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
    // Only the jq worker thread runs guarded; elsewhere (argument parsing on
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
        if g.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Abort::Timeout);
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
        let s = super::jq_json::to_json(self);
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
// Numbers
// ---------------------------------------------------------------------------

/// A JSON number's text as jq 1.7 prints an unchanged literal (decNumber's
/// to-scientific-string): `1.0`, `1E+2`, `0.00001`, `1E-7`. `None` if the
/// text is not a number.
pub fn canonical_literal(s: &str) -> Option<String> {
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (mant, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: String = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let coef = if digits.is_empty() { "0" } else { digits };
    let exp = exp.checked_sub(frac.len() as i64)?;
    let n = coef.len() as i64;
    let adjusted = exp + n - 1;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp <= 0 && adjusted >= -6 {
        if exp == 0 {
            out.push_str(coef);
        } else {
            let point = n + exp;
            if point > 0 {
                out.push_str(&coef[..point as usize]);
                out.push('.');
                out.push_str(&coef[point as usize..]);
            } else {
                out.push_str("0.");
                for _ in 0..-point {
                    out.push('0');
                }
                out.push_str(coef);
            }
        }
    } else {
        out.push_str(&coef[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&coef[1..]);
        }
        out.push('E');
        out.push(if adjusted >= 0 { '+' } else { '-' });
        out.push_str(&adjusted.unsigned_abs().to_string());
    }
    Some(out)
}

/// A double as jq 1.7 prints it: shortest round-trip digits, plain unless
/// the exponent is below -4 or far past the digits, `e+XX` exponents,
/// infinities as the largest double, NaN as `null`.
pub fn fmt_f64(f: f64) -> String {
    if f.is_nan() {
        return "null".into();
    }
    let f = if f.is_infinite() { f64::MAX.copysign(f) } else { f };
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // `{:e}` gives the shortest round-trip digits: d.ddddde±x
    let e = format!("{:e}", f.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let nd = digits.len() as i32;
    let decpt = exp + 1;
    let mut out = String::new();
    if f < 0.0 {
        out.push('-');
    }
    if decpt <= -4 || decpt > nd + 15 {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        let x = decpt - 1;
        out.push(if x < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", x.unsigned_abs()));
    } else if decpt <= 0 {
        out.push_str("0.");
        for _ in 0..-decpt {
            out.push('0');
        }
        out.push_str(&digits);
    } else if decpt >= nd {
        out.push_str(&digits);
        for _ in 0..decpt - nd {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    }
    out
}

/// A number from its JSON or program text, keeping the literal when jq
/// would print it differently from the double.
pub fn num_from_text(s: &str) -> Option<Val> {
    if plain_number(s) {
        // Printed back exactly as written: no literal to keep.
        return s.parse().ok().map(Val::Num);
    }
    let canon = canonical_literal(s)?;
    let f: f64 = s.parse().ok()?;
    if fmt_f64(f) == canon {
        Some(Val::Num(f))
    } else {
        Some(Val::Lit(Rc::new((f, canon))))
    }
}

/// `0`, or an integer or decimal with a non-zero integer part, no trailing
/// zero in its fraction and at most 15 digits: an f64 holds it exactly and
/// prints it back as written, so the slow check of [`num_from_text`] (format
/// and compare) would say so too. Most JSON numbers are like this.
fn plain_number(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s).as_bytes();
    if b == b"0" {
        return s.len() == 1;
    }
    let int_len = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if int_len == 0 || b[0] == b'0' {
        return false;
    }
    let frac = match &b[int_len..] {
        [] => &[][..],
        [b'.', frac @ ..] => frac,
        _ => return false,
    };
    if !frac.is_empty() && (!frac.iter().all(u8::is_ascii_digit) || frac.last() == Some(&b'0')) {
        return false;
    }
    if int_len > 0 && b.len() - int_len == 1 {
        return false; // `5.`: not JSON, left to the slow path
    }
    int_len + frac.len() <= 15
}

fn num_cmp(a: f64, b: f64) -> Ordering {
    // jq sorts NaN below every number.
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
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
        f.write_str(&super::jq_json::to_json(self))
    }
}

// ---------------------------------------------------------------------------
// Arithmetic
// ---------------------------------------------------------------------------

type ValR = Result<Val, Error<Val>>;

fn binop_err(l: &Val, r: &Val, what: &str) -> ValR {
    Val::err(format!("{} and {} {what}", l.describe(), r.describe()))
}

impl std::ops::Add for Val {
    type Output = ValR;
    fn add(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (Val::Null, x) | (x, Val::Null) => Ok(x),
            (a, b) if a.is_num() && b.is_num() => Ok(Val::Num(a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0))),
            (Val::Str(a), Val::Str(b)) => {
                check_len(a.len() + b.len(), "string");
                Ok(Val::string(format!("{a}{b}")))
            }
            (a @ Val::Arr(_), b @ Val::Arr(_)) => {
                let mut l = a.into_items().unwrap_or_default();
                let r = b.into_items().unwrap_or_default();
                check_len(l.len() + r.len(), "array");
                l.extend(r);
                Ok(Val::arr(l))
            }
            (a @ Val::Obj(_), b @ Val::Obj(_)) => {
                let mut l = a.into_map().unwrap_or_default();
                for (k, v) in b.into_map().unwrap_or_default() {
                    l.insert(k, v);
                }
                Ok(Val::obj(l))
            }
            (a, b) => binop_err(&a, &b, "cannot be added"),
        }
    }
}

impl std::ops::Sub for Val {
    type Output = ValR;
    fn sub(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => Ok(Val::Num(a.as_f64().unwrap_or(0.0) - b.as_f64().unwrap_or(0.0))),
            (a @ Val::Arr(_), Val::Arr(b)) => {
                let mut l = a.into_items().unwrap_or_default();
                l.retain(|x| !b.items.contains(x));
                Ok(Val::arr(l))
            }
            (a, b) => binop_err(&a, &b, "cannot be subtracted"),
        }
    }
}

fn deep_merge(mut l: Map, r: Map) -> Map {
    for (k, v) in r {
        let merged = match (l.get(&k), &v) {
            (Some(Val::Obj(_)), Val::Obj(_)) => {
                let old = l.get(&k).cloned().and_then(Val::into_map).unwrap_or_default();
                Val::obj(deep_merge(old, v.into_map().unwrap_or_default()))
            }
            _ => v,
        };
        l.insert(k, merged);
    }
    l
}

fn repeat_str(s: &str, n: f64) -> ValR {
    // jq 1.7: a count below 1 (after truncation) gives "" for (0, 1), null below.
    if n.is_nan() || n < 0.0 {
        return Ok(Val::Null);
    }
    let times = n as usize;
    check_len(s.len().saturating_mul(times), "string");
    Ok(Val::string(s.repeat(times)))
}

impl std::ops::Mul for Val {
    type Output = ValR;
    fn mul(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => Ok(Val::Num(a.as_f64().unwrap_or(0.0) * b.as_f64().unwrap_or(0.0))),
            (Val::Str(s), n) | (n, Val::Str(s)) if n.is_num() => repeat_str(&s, n.as_f64().unwrap_or(0.0)),
            (a @ Val::Obj(_), b @ Val::Obj(_)) => {
                Ok(Val::obj(deep_merge(a.into_map().unwrap_or_default(), b.into_map().unwrap_or_default())))
            }
            (a, b) => binop_err(&a, &b, "cannot be multiplied"),
        }
    }
}

impl std::ops::Div for Val {
    type Output = ValR;
    fn div(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => {
                let d = b.as_f64().unwrap_or(0.0);
                if d == 0.0 {
                    return binop_err(&a, &b, "cannot be divided because the divisor is zero");
                }
                Ok(Val::Num(a.as_f64().unwrap_or(0.0) / d))
            }
            (Val::Str(a), Val::Str(b)) => Ok(split_str(&a, &b)),
            (a, b) => binop_err(&a, &b, "cannot be divided"),
        }
    }
}

/// `"a,b" / ","`: jq's split on a literal separator.
pub fn split_str(s: &str, sep: &str) -> Val {
    if s.is_empty() {
        return Val::arr(Vec::new());
    }
    if sep.is_empty() {
        // jq 1.7 splits into characters... as bytes; characters are the useful reading.
        return Val::arr(s.chars().map(|c| Val::string(c.to_string())).collect());
    }
    Val::arr(s.split(sep).map(Val::str).collect())
}

impl std::ops::Rem for Val {
    type Output = ValR;
    fn rem(self, rhs: Self) -> ValR {
        tick();
        match (self, rhs) {
            (a, b) if a.is_num() && b.is_num() => {
                let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
                // jq 1.7 truncates both operands to integers.
                let (xi, yi) = (x as i64, y as i64);
                if yi == 0 {
                    return binop_err(&a, &b, "cannot be divided (remainder) because the divisor is zero");
                }
                if x.is_nan() || y.is_nan() {
                    return Ok(Val::Num(f64::NAN));
                }
                Ok(Val::Num(xi.wrapping_rem(yi.wrapping_abs()) as f64))
            }
            (a, b) => binop_err(&a, &b, "cannot be divided"),
        }
    }
}

impl std::ops::Neg for Val {
    type Output = ValR;
    fn neg(self) -> ValR {
        tick();
        match self.as_f64() {
            Some(f) => Ok(Val::Num(-f)),
            None => Val::err(format!("{} cannot be negated", self.describe())),
        }
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
            v => Val::string(super::jq_json::to_json(&v)),
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
