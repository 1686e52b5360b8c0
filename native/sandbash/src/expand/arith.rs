//! Arithmetic: `$(( ))`, `(( ))`, `let`, array indices. The text is expanded
//! first, then parsed and evaluated here on wrapping i64 (bash's expr.c
//! grammar; our own parser, as brush-parser's is recursive in every operator
//! and exponential in nested subscripts).

use super::expand_to_segs;
use crate::interp::{Fds, Flow};
use crate::state::{ShellState, Value};
use brush_parser::ast::{BinaryOperator as B, UnaryOperator as U};

/// bash's MAX_EXPR_RECURSION_LEVEL: expressions evaluated inside each other
/// (a variable whose value is an expression, a subscript). The same bound
/// applies to syntactic nesting (parentheses, unary operators, `?:`,
/// assignments, `**`), which bash leaves to its C stack.
const MAX_EXPR_RECURSION: usize = 1024;
/// Below this much native stack, a top-level evaluation moves to a fresh
/// segment of [`EVAL_SEGMENT`] bytes (see [`eval_str`]).
const EVAL_RED_ZONE: usize = 4 * 1024 * 1024;
const EVAL_SEGMENT: usize = 16 * 1024 * 1024;

/// Evaluate; an error abandons the current top-level command (as for
/// `$(( ))` in bash: the script goes on with its next line).
pub async fn eval_text(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<i64, Flow> {
    match eval_checked(sh, fds, text).await? {
        Ok(v) => Ok(v),
        Err(m) => Err(super::abort(sh.loc(), fds, &m).await),
    }
}

/// Evaluate; `Ok(Err(message))` for an arithmetic error the caller reports.
pub async fn eval_checked(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<Result<i64, String>, Flow> {
    let expanded = expand_text(sh, fds, text).await?;
    eval_or_stop(sh, &expanded)
}

/// [`eval_str`] at the top, but a stop of the exec (deadline, cancel,
/// memory) seen while evaluating ends the exec rather than being reported as
/// an arithmetic error.
pub fn eval_or_stop(sh: &mut ShellState, text: &str) -> Result<Result<i64, String>, Flow> {
    let r = eval_str(sh, text, 0);
    if r.is_err() {
        crate::limits::scope::check_now()?;
    }
    Ok(r)
}

/// The text of an arithmetic expression after parameter, command and quote
/// expansion (what is then parsed).
pub async fn expand_text(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<String, Flow> {
    Ok(if text.contains(['$', '`', '"', '\'', '\\']) {
        let fields = expand_to_segs(sh, fds, text).await?;
        fields.into_iter().flatten().map(|s| s.text).collect::<String>()
    } else {
        text.to_string()
    })
}

/// Parse and evaluate already-expanded text. `depth` counts the evaluations
/// this one is nested in (0 at the top).
pub fn eval_str(sh: &mut ShellState, text: &str, depth: usize) -> Result<i64, String> {
    if depth == 0 {
        // The evaluator recurses on the native stack (bounded by the nesting
        // limits and `stack_low`): give it a fresh segment when little is left.
        return stacker::maybe_grow(EVAL_RED_ZONE, EVAL_SEGMENT, || eval_inner(sh, text, depth));
    }
    eval_inner(sh, text, depth)
}

fn eval_inner(sh: &mut ShellState, text: &str, depth: usize) -> Result<i64, String> {
    if text.trim().is_empty() {
        return Ok(0);
    }
    // Messages show the text as written after its leading blanks (spaces and
    // tabs, not newlines), and the parser reads the same text.
    let shown = text.trim_start_matches([' ', '\t']);
    let t = shown.trim_end();
    // Plain decimal fast path (a leading 0 means octal, left to the parser).
    if !t.starts_with('0') || t.len() == 1 {
        if let Ok(v) = t.parse::<i64>() {
            return Ok(v);
        }
    }
    let cache = sh.arith_cache.clone();
    if let Some(expr) = cache.get(t) {
        return Eval { sh, text: shown, depth }.eval(&expr);
    }
    let mut p = Parser { sh, src: t, b: t.as_bytes(), pos: 0, end: t.len(), nest: 0, last: 0 };
    let parsed = p.comma().and_then(|e| {
        p.skip_ws();
        if p.pos < p.end {
            Err(PErr::Syntax)
        } else {
            Ok(e)
        }
    });
    let expr = match parsed {
        Ok(e) => e,
        Err(PErr::Msg(m)) => return Err(m),
        Err(PErr::Syntax) => {
            return Err(match bad_number(shown) {
                // bash stops reading at the bad constant.
                Some((a, b)) => {
                    format!("{}: value too great for base (error token is \"{}\")", &shown[..b], &shown[a..b])
                }
                None => syntax_error(shown),
            });
        }
    };
    let expr = cache.keep(t, expr);
    let mut ev = Eval { sh, text: shown, depth };
    ev.eval(&expr)
}

/// Parsed expressions by their text, per session: the `$((i+1))` of a loop
/// is parsed once, not on every turn. Only texts without subscripts are kept
/// (how `a[k]` parses depends on whether `a` is associative at the time).
#[derive(Default)]
pub struct ArithCache {
    map: parking_lot::Mutex<std::collections::HashMap<Box<str>, std::sync::Arc<Ex>, foldhash::fast::RandomState>>,
}

/// Entries the cache holds before it starts over, and the longest text kept.
const CACHE_ENTRIES: usize = 256;
const CACHE_TEXT: usize = 256;

impl ArithCache {
    fn get(&self, text: &str) -> Option<std::sync::Arc<Ex>> {
        self.map.lock().get(text).cloned()
    }

    fn keep(&self, text: &str, expr: Ex) -> std::sync::Arc<Ex> {
        let expr = std::sync::Arc::new(expr);
        if text.len() <= CACHE_TEXT && !text.contains('[') {
            let mut map = self.map.lock();
            if map.len() >= CACHE_ENTRIES {
                map.clear();
            }
            map.insert(text.into(), expr.clone());
        }
        expr
    }
}

/// Where the first numeric constant with a digit its base does not have
/// (`08`, `2#12`, `0x1g`) starts and ends.
fn bad_number(t: &str) -> Option<(usize, usize)> {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            // A name (its digits are not a number).
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            continue;
        }
        if !c.is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'#' | b'@')) {
            i += 1;
        }
        let tok = &t[start..i];
        let (base, digits) = match tok.split_once('#') {
            Some((base, digits)) => (base.parse::<u32>().ok().filter(|b| (2..=64).contains(b))?, digits),
            None if tok.len() > 1 && (tok.starts_with("0x") || tok.starts_with("0X")) => (16, &tok[2..]),
            None if tok.starts_with('0') => (8, tok),
            None => (10, tok),
        };
        let ok = digits.chars().all(|d| digit_value(d, base).is_some());
        if !ok {
            return Some((start, i));
        }
    }
    None
}

/// bash's message for text that does not parse: an operator where an operand
/// belongs ("operand expected", from that token on), or an operand where an
/// operator belongs ("syntax error in expression").
fn syntax_error(t: &str) -> String {
    let b = t.as_bytes();
    let mut want_operand = true;
    let mut last_start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' {
            if !want_operand {
                return format!(
                    "{t}: syntax error in expression (error token is \"{}\")",
                    t.get(start..).unwrap_or("")
                );
            }
            while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'#' | b'@' | b'$')) {
                i += 1;
            }
            if b.get(i) == Some(&b'[') {
                // A subscript belongs to its name.
                let mut depth = 0;
                while i < b.len() {
                    match b[i] {
                        b'[' => depth += 1,
                        b']' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            want_operand = false;
        } else {
            let two = t.get(i..i + 2).unwrap_or("");
            let prefix = matches!(c, b'+' | b'-' | b'!' | b'~' | b'(');
            if !want_operand && !b"+-*/%<>=!~&|^?:,()[".contains(&c) {
                // `1.5`, `a.b`, `1 @ 2`: no operator starts with this character.
                return format!(
                    "{t}: syntax error: invalid arithmetic operator (error token is \"{}\")",
                    t.get(start..).unwrap_or("")
                );
            }
            if want_operand && !prefix {
                return format!(
                    "{t}: syntax error: operand expected (error token is \"{}\")",
                    t.get(start..).unwrap_or("")
                );
            }
            i += if ["**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--"].contains(&two) {
                2
            } else {
                // A whole character: a non-ASCII one is several bytes.
                t.get(i..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8)
            };
            // After `)` or a postfix `++`, an operator follows; otherwise an operand.
            want_operand = !(c == b')' || (!want_operand && (two == "++" || two == "--")));
        }
        last_start = start;
    }
    format!("{t}: syntax error: operand expected (error token is \"{}\")", t.get(last_start..).unwrap_or(""))
}

/// bash's message when expressions nest deeper than it allows; `at` is where
/// the error token starts.
fn too_deep(text: &str, at: usize) -> String {
    let tok = text.get(at..).unwrap_or(text);
    format!("{text}: expression recursion level exceeded (error token is \"{tok}\")")
}

/// A stop of the exec (deadline, cancel, memory) seen inside an evaluation: it
/// ends the arithmetic as an error; the interpreter's next check then stops
/// the exec itself.
fn stopped(s: crate::limits::Stop) -> String {
    s.to_string()
}

/// A parsed expression. Chains of one precedence level are flat (`a+b+c` is
/// one node), so only real nesting (parentheses, unary operators, `?:`,
/// assignments, `**`, subscripts) deepens the tree, and that is bounded by
/// [`MAX_EXPR_RECURSION`].
enum Ex {
    Num(i64),
    Ref(Target),
    /// Prefix `-`, `+`, `!`, `~`, applied right to left.
    Prefix(Vec<U>, Box<Ex>),
    /// `++x` / `x++` / `--x` / `x--`: (target, prefix?, step).
    IncDec(Target, bool, i64),
    /// Left-associative operators of one level, applied left to right.
    Chain(Box<Ex>, Vec<(B, Ex)>),
    Power(Box<Ex>, Box<Ex>),
    Cond(Box<Ex>, Box<Ex>, Box<Ex>),
    /// `x = e` or `x op= e`.
    Assign(Target, Option<B>, Box<Ex>),
    Comma(Vec<Ex>),
}

/// A variable or array element as written.
struct Target {
    name: String,
    /// Where the name starts in the text (bash's error token for recursion).
    pos: usize,
    sub: Option<Sub>,
}

/// A subscript: its text (an associative array's key) and, unless the array
/// was associative when parsed, the subscript as an expression.
struct Sub {
    /// Where its text is in the expression.
    raw: std::ops::Range<usize>,
    expr: Option<Box<Ex>>,
}

enum PErr {
    /// Reported with bash's generic wording ([`syntax_error`], [`bad_number`]).
    Syntax,
    Msg(String),
}

impl From<crate::limits::Stop> for PErr {
    fn from(s: crate::limits::Stop) -> Self {
        PErr::Msg(stopped(s))
    }
}

struct Parser<'a> {
    sh: &'a ShellState,
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    /// End of what is being parsed (a subscript ends at its `]`).
    end: usize,
    /// Syntactic nesting so far.
    nest: usize,
    /// Where the last operand started (bash's error token for a missing `:`).
    last: usize,
}

/// Binary operators from the lowest precedence level up (after `?:`).
const LEVELS: [&[(&str, B)]; 10] = [
    &[("||", B::LogicalOr)],
    &[("&&", B::LogicalAnd)],
    &[("|", B::BitwiseOr)],
    &[("^", B::BitwiseXor)],
    &[("&", B::BitwiseAnd)],
    &[("==", B::Equals), ("!=", B::NotEquals)],
    &[("<=", B::LessThanOrEqualTo), (">=", B::GreaterThanOrEqualTo), ("<", B::LessThan), (">", B::GreaterThan)],
    &[("<<", B::ShiftLeft), (">>", B::ShiftRight)],
    &[("+", B::Add), ("-", B::Subtract)],
    &[("*", B::Multiply), ("/", B::Divide), ("%", B::Modulo)],
];

const ASSIGN_OPS: [(&str, Option<B>); 11] = [
    ("<<=", Some(B::ShiftLeft)),
    (">>=", Some(B::ShiftRight)),
    ("*=", Some(B::Multiply)),
    ("/=", Some(B::Divide)),
    ("%=", Some(B::Modulo)),
    ("+=", Some(B::Add)),
    ("-=", Some(B::Subtract)),
    ("&=", Some(B::BitwiseAnd)),
    ("^=", Some(B::BitwiseXor)),
    ("|=", Some(B::BitwiseOr)),
    ("=", None),
];

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.end && self.b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn rest(&self) -> &[u8] {
        &self.b[self.pos..self.end]
    }

    fn at(&mut self, s: &str) -> bool {
        self.skip_ws();
        self.rest().starts_with(s.as_bytes())
    }

    /// One level deeper: bounded by bash's recursion limit and the stack.
    fn enter(&mut self) -> Result<(), PErr> {
        crate::limits::checkpoint()?;
        self.nest += 1;
        if self.nest > MAX_EXPR_RECURSION || crate::limits::stack_low() {
            return Err(PErr::Msg(too_deep(self.src, self.pos)));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nest -= 1;
    }

    /// expr (`,` expr)*
    fn comma(&mut self) -> Result<Ex, PErr> {
        let first = self.assign()?;
        if !self.at(",") {
            return Ok(first);
        }
        let mut all = vec![first];
        while self.at(",") {
            crate::limits::checkpoint()?;
            self.pos += 1;
            all.push(self.assign()?);
        }
        Ok(Ex::Comma(all))
    }

    fn assign(&mut self) -> Result<Ex, PErr> {
        let lhs = self.cond()?;
        self.skip_ws();
        let op_at = self.pos;
        let Some(&(tok, op)) = ASSIGN_OPS.iter().find(|(t, _)| self.rest().starts_with(t.as_bytes())) else {
            return Ok(lhs);
        };
        // `==` is a comparison, never `=` then `=`.
        if tok == "=" && self.rest().get(1) == Some(&b'=') {
            return Ok(lhs);
        }
        let Ex::Ref(target) = lhs else {
            return Err(PErr::Msg(format!(
                "{}: attempted assignment to non-variable (error token is \"{}\")",
                self.src,
                &self.src[op_at..]
            )));
        };
        self.pos += tok.len();
        self.enter()?;
        let rhs = self.assign()?;
        self.leave();
        Ok(Ex::Assign(target, op, Box::new(rhs)))
    }

    fn cond(&mut self) -> Result<Ex, PErr> {
        let c = self.binary(0)?;
        if !self.at("?") {
            return Ok(c);
        }
        self.pos += 1;
        self.enter()?;
        let t = self.comma()?;
        if !self.at(":") {
            let at = if self.pos < self.end { self.pos } else { self.last };
            return Err(PErr::Msg(format!(
                "{}: `:' expected for conditional expression (error token is \"{}\")",
                self.src,
                &self.src[at..]
            )));
        }
        self.pos += 1;
        let f = self.cond()?;
        self.leave();
        Ok(Ex::Cond(Box::new(c), Box::new(t), Box::new(f)))
    }

    /// The binary operator of `level` at the cursor, if any (not the start of
    /// an assignment operator or a longer operator).
    fn level_op(&mut self, level: usize) -> Option<(usize, B)> {
        self.skip_ws();
        let r = self.rest();
        for &(tok, op) in LEVELS[level] {
            if !r.starts_with(tok.as_bytes()) {
                continue;
            }
            let next = r.get(tok.len()).copied();
            let longer = match tok {
                // `||`, `&&`, `**`, `<<`, `>>`, compound assignment.
                "|" => matches!(next, Some(b'|' | b'=')),
                "&" => matches!(next, Some(b'&' | b'=')),
                "*" => matches!(next, Some(b'*' | b'=')),
                "<" => matches!(next, Some(b'<' | b'=')),
                ">" => matches!(next, Some(b'>' | b'=')),
                "<<" | ">>" => next == Some(b'='),
                "+" | "-" | "/" | "%" | "^" => next == Some(b'='),
                _ => false,
            };
            if !longer {
                return Some((tok.len(), op));
            }
        }
        None
    }

    /// The binary operator at the cursor (after `?:`), with its level.
    fn any_op(&mut self) -> Option<(usize, B, usize)> {
        (0..LEVELS.len()).find_map(|l| self.level_op(l).map(|(len, op)| (len, op, l)))
    }

    /// Operators of `min` and above, by precedence climbing: recursion only
    /// where precedence rises (at most one frame per level), and a run of
    /// one level's operators is one flat chain.
    fn binary(&mut self, min: usize) -> Result<Ex, PErr> {
        let mut lhs = self.power()?;
        let mut lhs_level = usize::MAX;
        while let Some((len, op, level)) = self.any_op() {
            if level < min {
                break;
            }
            crate::limits::checkpoint()?;
            self.pos += len;
            let rhs = self.binary(level + 1)?;
            lhs = match lhs {
                Ex::Chain(first, mut rest) if lhs_level == level => {
                    rest.push((op, rhs));
                    Ex::Chain(first, rest)
                }
                other => Ex::Chain(Box::new(other), vec![(op, rhs)]),
            };
            lhs_level = level;
        }
        Ok(lhs)
    }

    /// unary (`**` power)?, right-associative.
    fn power(&mut self) -> Result<Ex, PErr> {
        let base = self.unary()?;
        if !self.at("**") {
            return Ok(base);
        }
        self.pos += 2;
        self.enter()?;
        let exp = self.power()?;
        self.leave();
        Ok(Ex::Power(Box::new(base), Box::new(exp)))
    }

    /// Prefix operators (collected in a loop, not recursion), then an operand.
    fn unary(&mut self) -> Result<Ex, PErr> {
        let mut ops = Vec::new();
        loop {
            crate::limits::checkpoint()?;
            self.skip_ws();
            let r = self.rest();
            // `++x` / `--x` only before a name; otherwise two signs.
            if (r.starts_with(b"++") || r.starts_with(b"--")) && self.name_follows(self.pos + 2) {
                let step = if r[0] == b'+' { 1 } else { -1 };
                self.pos += 2;
                self.skip_ws();
                let target = self.target()?;
                return Ok(wrap(ops, Ex::IncDec(target, true, step)));
            }
            let op = match r.first() {
                Some(b'-') => U::UnaryMinus,
                Some(b'+') => U::UnaryPlus,
                Some(b'!') if r.get(1) != Some(&b'=') => U::LogicalNot,
                Some(b'~') => U::BitwiseNot,
                _ => break,
            };
            self.pos += 1;
            ops.push(op);
        }
        let e = self.primary()?;
        Ok(wrap(ops, e))
    }

    fn name_follows(&self, mut i: usize) -> bool {
        while i < self.end && self.b[i].is_ascii_whitespace() {
            i += 1;
        }
        i < self.end && (self.b[i].is_ascii_alphabetic() || self.b[i] == b'_')
    }

    fn primary(&mut self) -> Result<Ex, PErr> {
        self.skip_ws();
        self.last = self.pos;
        let Some(&c) = self.rest().first() else {
            return Err(PErr::Syntax);
        };
        if c == b'(' {
            self.pos += 1;
            self.enter()?;
            let e = self.comma()?;
            if !self.at(")") {
                return Err(PErr::Syntax);
            }
            self.pos += 1;
            self.leave();
            return Ok(e);
        }
        if c.is_ascii_digit() {
            let start = self.pos;
            while self.pos < self.end
                && (self.b[self.pos].is_ascii_alphanumeric() || matches!(self.b[self.pos], b'_' | b'#' | b'@'))
            {
                self.pos += 1;
            }
            return number(&self.src[start..self.pos]).map(Ex::Num).ok_or(PErr::Syntax);
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let target = self.target()?;
            // Postfix `++` / `--`.
            for (tok, step) in [("++", 1), ("--", -1)] {
                if self.at(tok) {
                    self.pos += 2;
                    return Ok(Ex::IncDec(target, false, step));
                }
            }
            return Ok(Ex::Ref(target));
        }
        Err(PErr::Syntax)
    }

    /// A name and its subscript, if any.
    fn target(&mut self) -> Result<Target, PErr> {
        let start = self.pos;
        while self.pos < self.end && (self.b[self.pos].is_ascii_alphanumeric() || self.b[self.pos] == b'_') {
            self.pos += 1;
        }
        if start == self.pos || self.b[start].is_ascii_digit() {
            return Err(PErr::Syntax);
        }
        let name = self.src[start..self.pos].to_string();
        if self.rest().first() != Some(&b'[') {
            return Ok(Target { name, pos: start, sub: None });
        }
        let open = self.pos;
        // An associative array's subscript is a string, not arithmetic: up to
        // the matching `]`, read once.
        let assoc = matches!(self.sh.vars.get_set(&name).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_)));
        if assoc {
            let mut depth = 0usize;
            let mut close = None;
            for (i, &ch) in self.b[open..self.end].iter().enumerate() {
                match ch {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(open + i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let close = close.ok_or(PErr::Syntax)?;
            self.pos = close + 1;
            let raw = open + 1..close;
            return Ok(Target { name, pos: start, sub: Some(Sub { raw, expr: None }) });
        }
        // An indexed one is an expression, parsed in place up to its `]`
        // (no scan ahead: nested subscripts stay linear).
        self.pos = open + 1;
        self.enter()?;
        let e = self.comma()?;
        if !self.at("]") {
            return Err(PErr::Syntax);
        }
        self.leave();
        let raw = open + 1..self.pos;
        self.pos += 1;
        Ok(Target { name, pos: start, sub: Some(Sub { raw, expr: Some(Box::new(e)) }) })
    }
}

fn wrap(ops: Vec<U>, e: Ex) -> Ex {
    if ops.is_empty() {
        e
    } else {
        Ex::Prefix(ops, Box::new(e))
    }
}

/// A numeric constant: decimal, `0`-octal, `0x` hex or `BASE#DIGITS`.
fn number(tok: &str) -> Option<i64> {
    let (base, digits) = match tok.split_once('#') {
        Some((base, digits)) => (base.parse::<u32>().ok().filter(|b| (2..=64).contains(b))?, digits),
        None if tok.len() > 1 && (tok.starts_with("0x") || tok.starts_with("0X")) => (16, &tok[2..]),
        None if tok.len() > 1 && tok.starts_with('0') => (8, &tok[1..]),
        None => (10, tok),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for d in digits.chars() {
        let x = digit_value(d, base)?;
        v = v.wrapping_mul(i64::from(base)).wrapping_add(i64::from(x));
    }
    Some(v)
}

/// A digit's value in `base` (bash: 0-9, a-z, A-Z, @, _; letters of either
/// case are 10-35 up to base 36), or `None` when the base has no such digit.
fn digit_value(d: char, base: u32) -> Option<u32> {
    let v = match d {
        '0'..='9' => d as u32 - '0' as u32,
        'a'..='z' => d as u32 - 'a' as u32 + 10,
        'A'..='Z' if base <= 36 => d as u32 - 'A' as u32 + 10,
        'A'..='Z' => d as u32 - 'A' as u32 + 36,
        '@' => 62,
        '_' => 63,
        _ => return None,
    };
    (v < base).then_some(v)
}

struct Eval<'a> {
    sh: &'a mut ShellState,
    text: &'a str,
    depth: usize,
}

impl Eval<'_> {
    /// A variable's value as an expression, one evaluation deeper; `pos` is
    /// where its name starts (bash's error token when that is too deep).
    fn value(&mut self, s: &str, pos: usize) -> Result<i64, String> {
        if s.trim().is_empty() {
            return Ok(0);
        }
        if self.depth + 1 >= MAX_EXPR_RECURSION || crate::limits::stack_low() {
            return Err(too_deep(self.text, pos));
        }
        eval_str(self.sh, s, self.depth + 1)
    }

    fn read_var(&mut self, name: &str, pos: usize) -> Result<i64, String> {
        let v = self.sh.get_var(name).or_else(|| dynamic(self.sh, name));
        match v {
            None => {
                if self.sh.opts.nounset {
                    return Err(format!("{name}: unbound variable"));
                }
                Ok(0)
            }
            Some(s) => self.value(&s, pos),
        }
    }

    /// An indexed array's subscript.
    fn index(&mut self, sub: &Sub) -> Result<i64, String> {
        match &sub.expr {
            Some(e) => self.eval(e),
            // Associative when parsed, no longer now.
            None => {
                let raw = self.text.get(sub.raw.clone()).unwrap_or_default().to_string();
                self.value(&raw, 0)
            }
        }
    }

    fn read_target(&mut self, t: &Target) -> Result<i64, String> {
        let Some(sub) = &t.sub else {
            return self.read_var(&t.name, t.pos);
        };
        let value = self.sh.vars.get_set(&t.name).and_then(|v| v.value.clone());
        if let Some(Value::Assoc(m)) = &value {
            return match m.get(&self.assoc_key(sub)?).cloned() {
                Some(s) => self.value(&s, t.pos),
                None => Ok(0),
            };
        }
        let i = self.index(sub)?;
        let val = match value {
            Some(Value::Indexed(m)) => {
                let i = if i < 0 { m.keys().next_back().map_or(0, |k| k + 1) + i } else { i };
                m.get(&i).cloned()
            }
            Some(Value::Scalar(s)) if i == 0 => Some(s),
            _ => None,
        };
        match val {
            Some(s) => self.value(&s, t.pos),
            None => Ok(0),
        }
    }

    /// An associative array's key: the subscript as written (when the array
    /// was associative at parse time), else the subscript's value as text.
    fn assoc_key(&mut self, sub: &Sub) -> Result<String, String> {
        match &sub.expr {
            None => Ok(self.text.get(sub.raw.clone()).unwrap_or_default().to_string()),
            Some(e) => match &**e {
                Ex::Ref(Target { name, sub: None, .. }) => Ok(name.clone()),
                e => Ok(self.eval(e)?.to_string()),
            },
        }
    }

    fn write_target(&mut self, t: &Target, v: i64) -> Result<i64, String> {
        let n = &t.name;
        let Some(sub) = &t.sub else {
            self.sh.set_var(n, v.to_string())?;
            return Ok(v);
        };
        if matches!(self.sh.vars.get_set(n).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_))) {
            let key = self.assoc_key(sub)?;
            let var = self.sh.vars.entry(n);
            if var.readonly {
                return Err(format!("{n}: readonly variable"));
            }
            if let Some(Value::Assoc(m)) = &mut var.value {
                m.insert(key, v.to_string());
            }
            return Ok(v);
        }
        let i = self.index(sub)?;
        let var = self.sh.vars.entry(n);
        if var.readonly {
            return Err(format!("{n}: readonly variable"));
        }
        match &mut var.value {
            Some(Value::Indexed(m)) => {
                m.insert(i, v.to_string());
            }
            Some(Value::Assoc(m)) => {
                m.insert(i.to_string(), v.to_string());
            }
            other => {
                let mut m = std::collections::BTreeMap::new();
                if let Some(Value::Scalar(s)) = other.take() {
                    m.insert(0, s);
                }
                m.insert(i, v.to_string());
                *other = Some(Value::Indexed(m));
            }
        }
        Ok(v)
    }

    fn eval(&mut self, e: &Ex) -> Result<i64, String> {
        crate::limits::checkpoint().map_err(stopped)?;
        // The tree's depth is bounded by the parser; this guards the stack
        // against that depth times the depth of nested evaluations.
        if crate::limits::stack_low() {
            return Err(too_deep(self.text, 0));
        }
        Ok(match e {
            Ex::Num(v) => *v,
            Ex::Ref(t) => self.read_target(t)?,
            Ex::Prefix(ops, x) => {
                let mut v = self.eval(x)?;
                for op in ops.iter().rev() {
                    v = match op {
                        U::UnaryPlus => v,
                        U::UnaryMinus => v.wrapping_neg(),
                        U::BitwiseNot => !v,
                        U::LogicalNot => i64::from(v == 0),
                    };
                }
                v
            }
            Ex::Chain(first, rest) => {
                let mut acc = self.eval(first)?;
                for (op, x) in rest {
                    acc = match op {
                        // Short-circuit: the other side is not evaluated.
                        B::LogicalAnd => {
                            if acc == 0 {
                                0
                            } else {
                                i64::from(self.eval(x)? != 0)
                            }
                        }
                        B::LogicalOr => {
                            if acc != 0 {
                                1
                            } else {
                                i64::from(self.eval(x)? != 0)
                            }
                        }
                        _ => {
                            let y = self.eval(x)?;
                            self.binary(op, acc, y)?
                        }
                    };
                }
                acc
            }
            Ex::Power(a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.binary(&B::Power, x, y)?
            }
            Ex::Cond(c, t, f) => {
                if self.eval(c)? != 0 {
                    self.eval(t)?
                } else {
                    self.eval(f)?
                }
            }
            Ex::Assign(t, None, x) => {
                let v = self.eval(x)?;
                self.write_target(t, v)?
            }
            Ex::Assign(t, Some(op), x) => {
                let cur = self.read_target(t)?;
                let y = self.eval(x)?;
                let v = self.binary(op, cur, y)?;
                self.write_target(t, v)?
            }
            Ex::IncDec(t, prefix, step) => {
                let cur = self.read_target(t)?;
                let new = cur.wrapping_add(*step);
                self.write_target(t, new)?;
                if *prefix {
                    new
                } else {
                    cur
                }
            }
            Ex::Comma(all) => {
                let mut v = 0;
                for x in all {
                    v = self.eval(x)?;
                }
                v
            }
        })
    }

    fn binary(&self, op: &B, x: i64, y: i64) -> Result<i64, String> {
        Ok(match op {
            B::Power => {
                if y < 0 {
                    return Err(format!(
                        "{}: exponent less than 0 (error token is \"{}\")",
                        self.text,
                        error_token(self.text, "**")
                    ));
                }
                let mut r: i64 = 1;
                let mut base = x;
                let mut e = y as u64;
                while e > 0 {
                    if e & 1 == 1 {
                        r = r.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                r
            }
            B::Multiply => x.wrapping_mul(y),
            B::Divide | B::Modulo => {
                if y == 0 {
                    let opch = if matches!(op, B::Divide) { "/" } else { "%" };
                    return Err(format!(
                        "{}: division by 0 (error token is \"{}\")",
                        self.text,
                        error_token(self.text, opch)
                    ));
                }
                if matches!(op, B::Divide) {
                    x.wrapping_div(y)
                } else {
                    x.wrapping_rem(y)
                }
            }
            B::Comma => y,
            B::Add => x.wrapping_add(y),
            B::Subtract => x.wrapping_sub(y),
            B::ShiftLeft => x.wrapping_shl((y & 63) as u32),
            B::ShiftRight => x.wrapping_shr((y & 63) as u32),
            B::LessThan => i64::from(x < y),
            B::LessThanOrEqualTo => i64::from(x <= y),
            B::GreaterThan => i64::from(x > y),
            B::GreaterThanOrEqualTo => i64::from(x >= y),
            B::Equals => i64::from(x == y),
            B::NotEquals => i64::from(x != y),
            B::BitwiseAnd => x & y,
            B::BitwiseXor => x ^ y,
            B::BitwiseOr => x | y,
            B::LogicalAnd => i64::from(x != 0 && y != 0),
            B::LogicalOr => i64::from(x != 0 || y != 0),
        })
    }
}

/// The text after the last `op`, which is where bash points for these errors.
fn error_token(text: &str, op: &str) -> String {
    match text.rfind(op) {
        // From the operand to the end, trailing blanks included, as bash shows it.
        Some(i) => text[i + op.len()..].trim_start().to_string(),
        None => text.to_string(),
    }
}

/// Variables bash computes on every read (`LINENO`, `RANDOM`, `EPOCHSECONDS`, ...).
fn dynamic(sh: &ShellState, name: &str) -> Option<String> {
    super::param::dynamic_var(sh, name)
}
