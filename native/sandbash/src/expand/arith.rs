//! Arithmetic: `$(( ))`, `(( ))`, `let`, array indices. The text is expanded
//! first, then evaluated here on wrapping i64 as bash's expr.c does it:
//! evaluated while it is parsed, so side effects before an error stay and the
//! first error met is the one reported, with bash's error token.

use crate::interp::{Fds, Flow};
use crate::state::{ShellState, Value};

mod compiled;
mod operands;

/// bash's MAX_EXPR_RECURSION_LEVEL: expressions evaluated inside each other
/// (a variable whose value is an expression, a subscript). The same bound
/// applies to syntactic nesting (parentheses, unary operators, `?:`,
/// assignments, `**`), which bash leaves to its C stack.
const MAX_EXPR_RECURSION: usize = 1024;
/// Below this much native stack, a top-level evaluation moves to a fresh
/// segment of [`EVAL_SEGMENT`] bytes (see [`eval_str`]).
const EVAL_RED_ZONE: usize = 4 * 1024 * 1024;
const EVAL_SEGMENT: usize = 16 * 1024 * 1024;
/// An expression this short nests too little to need [`EVAL_RED_ZONE`].
const SHORT_TEXT: usize = 64;

/// Evaluate; an error abandons the current top-level command (as for
/// `$(( ))` in bash: the script goes on with its next line).
pub async fn eval_text(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<i64, Flow> {
    match eval_checked(sh, fds, text).await? {
        Ok(v) => Ok(v),
        Err(m) => {
            report(sh, fds, "", &m).await?;
            Err(Flow::Abort(1))
        }
    }
}

/// Marks an error met evaluating an array subscript: bash leaves the whole
/// `-c` string (the subshell) with status 1, whatever evaluated it.
const SUB_MARK: &str = "\u{1}subscript:";
/// Marks a variable unset under `set -u`: it ends the shell.
const UNBOUND_MARK: &str = "\u{1}unbound:";

/// Marks a failed assignment (a readonly variable): bash prints the
/// message as it is, without the `((: `/`let: ` of the command.
const BARE_MARK: &str = "\u{2}bare:";

/// Whether an arithmetic error is a variable unset under `set -u`.
pub fn is_unbound(m: &str) -> bool {
    m.starts_with(UNBOUND_MARK)
}

/// An arithmetic error's message without its marks.
pub fn plain(m: &str) -> &str {
    let m = m.strip_prefix(SUB_MARK).or_else(|| m.strip_prefix(UNBOUND_MARK)).unwrap_or(m);
    m.strip_prefix(BARE_MARK).unwrap_or(m)
}

/// Report an arithmetic error as bash does: `Ok` after printing
/// `{prefix}{message}` when only the command fails (`let`, `((`, `[[`), or
/// the flow that ends the shell for an error in a subscript or an unset
/// variable under `set -u` (printed without the prefix).
pub async fn report(sh: &ShellState, fds: &Fds, prefix: &str, m: &str) -> Result<(), Flow> {
    if let Some(m) = m.strip_prefix(SUB_MARK) {
        return Err(super::fatal(sh.loc(), fds, plain(m), 1).await);
    }
    if let Some(m) = m.strip_prefix(UNBOUND_MARK) {
        return Err(super::fatal(sh.loc(), fds, m, super::fatal_status(sh)).await);
    }
    if let Some(m) = m.strip_prefix(BARE_MARK) {
        fds.shell_err(sh.loc(), m).await;
        return Ok(());
    }
    fds.shell_err(sh.loc(), &format!("{prefix}{m}")).await;
    Ok(())
}

/// Evaluate; `Ok(Err(message))` for an arithmetic error the caller reports.
pub async fn eval_checked(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<Result<i64, String>, Flow> {
    if let Some(v) = try_unexpanded(sh, text) {
        return Ok(Ok(v));
    }
    let expanded = expand_text(sh, fds, text).await?;
    let r = eval_or_stop(sh, &expanded);
    flush_warnings(sh, fds).await;
    r
}

/// Print the warnings the last evaluations left (`a: bad array subscript`).
pub async fn flush_warnings(sh: &mut ShellState, fds: &Fds) {
    if sh.arith_warnings.is_empty() {
        return;
    }
    for m in std::mem::take(&mut sh.arith_warnings) {
        fds.shell_err(sh.loc(), &m).await;
    }
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
        super::expand_arith_text(sh, fds, text).await?
    } else {
        text.to_string()
    })
}

/// Evaluate text not yet expanded when its only expansions are parameters
/// the compiled form reads itself (`$1 * 2`, `i < $n`); `None`, with
/// nothing changed, otherwise.
pub fn try_unexpanded(sh: &mut ShellState, text: &str) -> Option<i64> {
    if needs_quote_removal(text) {
        return None;
    }
    compiled::try_eval(sh, text, false)
}

/// Whether arithmetic text holds quotes, backslashes or backquotes, which
/// only the full expansion reads.
pub fn needs_quote_removal(text: &str) -> bool {
    text.contains(['`', '"', '\'', '\\'])
}

/// Parse and evaluate already-expanded text. `depth` counts the evaluations
/// this one is nested in (0 at the top).
pub fn eval_str(sh: &mut ShellState, text: &str, depth: usize) -> Result<i64, String> {
    // The evaluator recurses on the native stack (bounded by the nesting
    // limits and `stack_low`): give it a fresh segment when little is left,
    // at any depth, so bash's limit of 1,024 is reached whatever a frame costs.
    if depth > 0 {
        return stacker::maybe_grow(EVAL_RED_ZONE, EVAL_SEGMENT, || eval_inner(sh, text, depth));
    }
    if let Some(v) = compiled::try_eval(sh, text, true) {
        return Ok(v);
    }
    // The top evaluation owns the bracket table its nested ones share.
    // A short one on a caller's thread (see `limits::inline`) fits the stack
    // left there (`stack_low` still guards it) without a fresh segment.
    if text.len() <= SHORT_TEXT && crate::limits::inline::active() {
        let r = eval_inner(sh, text, depth);
        BRACKETS.with(|b| b.borrow_mut().take());
        return r;
    }
    let r = stacker::maybe_grow(EVAL_RED_ZONE, EVAL_SEGMENT, || eval_inner(sh, text, depth));
    BRACKETS.with(|b| b.borrow_mut().take());
    r
}

/// Texts longer than this get a table of matching brackets (see [`BRACKETS`]).
const BRACKET_TABLE_MIN: usize = 4096;

thread_local! {
    /// Where each `[` of a long text being evaluated closes: (text address,
    /// text length, close offset or u32::MAX per byte); the top evaluation
    /// drops it when it ends. A subscript is
    /// evaluated as a slice of that text, one level deeper; without the table
    /// each level scanned the rest of the text again for its `]`, so nested
    /// subscripts built at run time (`a[a[a[...]]]`) took depth x length.
    /// An evaluation never awaits, so the thread is its own for the whole run.
    static BRACKETS: std::cell::RefCell<Option<(usize, usize, Vec<u32>)>> = const { std::cell::RefCell::new(None) };
}

/// Where the `]` closing the subscript that opens at `open` of `b` is:
/// from the table when `b` lies in the top text, else by a scan.
fn find_close(b: &[u8], open: usize) -> Option<usize> {
    let addr = b.as_ptr() as usize;
    let hit = BRACKETS.with(|t| {
        let t = t.borrow();
        let (base, len, closes) = t.as_ref()?;
        if addr < *base || addr + b.len() > base + len {
            return None;
        }
        let at = addr - base;
        let close = *closes.get(at + open)?;
        Some((close != u32::MAX).then(|| close as usize - at).filter(|&c| c < b.len()))
    });
    if let Some(found) = hit {
        return found;
    }
    // A long text not in the table (the top one, or a variable's value
    // evaluated inside it) gets the table.
    if b.len() >= BRACKET_TABLE_MIN && u32::try_from(b.len()).is_ok() {
        let bytes = (b.len() as u64).saturating_mul(4);
        if crate::limits::reserve(bytes).is_ok() {
            let mut closes = vec![u32::MAX; b.len()];
            let mut open_at: Vec<u32> = Vec::new();
            for (i, &c) in b.iter().enumerate() {
                match c {
                    b'[' => open_at.push(i as u32),
                    b']' => {
                        if let Some(o) = open_at.pop() {
                            closes[o as usize] = i as u32;
                        }
                    }
                    _ => {}
                }
            }
            let close = closes[open];
            BRACKETS.with(|t| *t.borrow_mut() = Some((addr, b.len(), closes)));
            return (close != u32::MAX).then_some(close as usize);
        }
    }
    skip_subscript(b, open)
}

fn eval_inner(sh: &mut ShellState, text: &str, depth: usize) -> Result<i64, String> {
    // bash's subexpr: blank text (spaces, tabs, newlines) is 0.
    let t = text.trim_matches([' ', '\t', '\n']);
    if t.is_empty() {
        return Ok(0);
    }
    if let Some(v) = plain_decimal(t) {
        return Ok(v);
    }
    let mut ev = Ev {
        sh,
        s: text,
        b: text.as_bytes(),
        depth,
        tp: 0,
        lasttp: 0,
        curtok: END,
        lasttok: END,
        tokval: 0,
        tokstr: None,
        assigntok: 0,
        noeval: 0,
        curlval: LVal::default(),
        nest: 0,
    };
    ev.readtok()?;
    let v = ev.expcomma()?;
    if ev.curtok != END {
        return Err(ev.err("syntax error in expression"));
    }
    Ok(v)
}

/// A stop of the exec (deadline, cancel, memory) seen inside an evaluation: it
/// ends the arithmetic as an error; the interpreter's next check then stops
/// the exec itself.
fn stopped(s: crate::limits::Stop) -> String {
    s.to_string()
}

// bash's tokens (expr.c); single-character operators are their own byte.
const END: i32 = 0;
const EQEQ: i32 = 1;
const NEQ: i32 = 2;
const LEQ: i32 = 3;
const GEQ: i32 = 4;
const STR: i32 = 5;
const NUM: i32 = 6;
const LAND: i32 = 7;
const LOR: i32 = 8;
const LSH: i32 = 9;
const RSH: i32 = 10;
const OP_ASSIGN: i32 = 11;
const COND: i32 = 12;
const POWER: i32 = 13;
const PREINC: i32 = 14;
const PREDEC: i32 = 15;
const POSTINC: i32 = 16;
const POSTDEC: i32 = 17;
const EQ: i32 = b'=' as i32;
const GT: i32 = b'>' as i32;
const LT: i32 = b'<' as i32;
const PLUS: i32 = b'+' as i32;
const MINUS: i32 = b'-' as i32;
const MUL: i32 = b'*' as i32;
const DIV: i32 = b'/' as i32;
const MOD: i32 = b'%' as i32;
const NOT: i32 = b'!' as i32;
const LPAR: i32 = b'(' as i32;
const RPAR: i32 = b')' as i32;
const BAND: i32 = b'&' as i32;
const BOR: i32 = b'|' as i32;
const BXOR: i32 = b'^' as i32;
const BNOT: i32 = b'~' as i32;
const QUES: i32 = b'?' as i32;
const COL: i32 = b':' as i32;
const COMMA: i32 = b',' as i32;

fn is_arithop(c: i32) -> bool {
    matches!(
        c,
        EQ | GT
            | LT
            | PLUS
            | MINUS
            | MUL
            | DIV
            | MOD
            | NOT
            | LPAR
            | RPAR
            | BAND
            | BOR
            | BXOR
            | BNOT
            | QUES
            | COL
            | COMMA
    )
}

fn is_multiop(c: i32) -> bool {
    matches!(
        c,
        EQEQ | NEQ
            | LEQ
            | GEQ
            | LAND
            | LOR
            | LSH
            | RSH
            | OP_ASSIGN
            | COND
            | POWER
            | PREINC
            | PREDEC
            | POSTINC
            | POSTDEC
    )
}

fn cr_whitespace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n')
}

/// The last variable token read: its text and, for an indexed array element,
/// the index it evaluated to (bash's `struct lvalue`).
#[derive(Clone, Copy, Default, PartialEq)]
struct LVal {
    tok: Option<(usize, usize)>,
    ind: Option<i64>,
}

/// The token state saved around a look-ahead (bash's SAVETOK/RESTORETOK).
#[derive(Clone, Copy)]
struct Saved {
    curtok: i32,
    lasttok: i32,
    tp: usize,
    lasttp: usize,
    tokval: i64,
    tokstr: Option<(usize, usize)>,
    noeval: u32,
    curlval: LVal,
}

/// bash's expr.c: a recursive-descent evaluator that evaluates as it parses,
/// so the side effects made before an error stay, the first error met wins,
/// and `error token is` shows the text from the last token read.
struct Ev<'a> {
    sh: &'a mut ShellState,
    /// The expression as given (leading blanks included).
    s: &'a str,
    b: &'a [u8],
    /// Evaluations this one is nested in (a variable's value, a subscript).
    depth: usize,
    tp: usize,
    lasttp: usize,
    curtok: i32,
    lasttok: i32,
    tokval: i64,
    /// The current variable token (name and subscript) as a range of `s`.
    tokstr: Option<(usize, usize)>,
    assigntok: i32,
    /// Above 0 where nothing is evaluated (the skipped side of `&&`, `||`, `?:`).
    noeval: u32,
    curlval: LVal,
    /// Syntactic nesting (parentheses, unary operators, `**`, `?:`, assignments).
    nest: usize,
}

impl Ev<'_> {
    /// bash's evalerror: the expression from its first non-blank, the message,
    /// and the text from the last token read.
    fn err(&self, msg: &str) -> String {
        self.err_to(msg, self.s.len())
    }

    /// [`Ev::err`] with the expression cut at `end` (bash ends the text at a
    /// number while it converts it).
    fn err_to(&self, msg: &str, end: usize) -> String {
        let expr = self.s.get(..end).unwrap_or(self.s);
        let shown = expr.trim_start_matches([' ', '\t']);
        let tok = expr.get(self.lasttp..).unwrap_or("");
        format!("{shown}: {msg} (error token is \"{tok}\")")
    }

    /// A warning for the caller to print (a bounded number of them).
    fn warn(&mut self, m: String) {
        if self.sh.arith_warnings.len() < 64 {
            self.sh.arith_warnings.push(m);
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.nest += 1;
        if self.nest > MAX_EXPR_RECURSION || crate::limits::stack_low() {
            return Err(self.err("expression recursion level exceeded"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nest -= 1;
    }

    fn save(&self) -> Saved {
        Saved {
            curtok: self.curtok,
            lasttok: self.lasttok,
            tp: self.tp,
            lasttp: self.lasttp,
            tokval: self.tokval,
            tokstr: self.tokstr,
            noeval: self.noeval,
            curlval: self.curlval,
        }
    }

    fn restore(&mut self, x: Saved) {
        self.curtok = x.curtok;
        self.lasttok = x.lasttok;
        self.tp = x.tp;
        self.lasttp = x.lasttp;
        self.tokval = x.tokval;
        self.tokstr = x.tokstr;
        self.noeval = x.noeval;
        self.curlval = x.curlval;
    }

    fn expcomma(&mut self) -> Result<i64, String> {
        let mut v = self.expassign()?;
        while self.curtok == COMMA {
            self.readtok()?;
            v = self.expassign()?;
        }
        Ok(v)
    }

    fn expassign(&mut self) -> Result<i64, String> {
        let mut value = self.expcond()?;
        if self.curtok == EQ || self.curtok == OP_ASSIGN {
            let special = self.curtok == OP_ASSIGN;
            if self.lasttok != STR {
                return Err(self.err("attempted assignment to non-variable"));
            }
            let op = self.assigntok;
            let lvalue = value;
            let lhs = self.tokstr;
            let lind = self.curlval.ind;
            self.readtok()?;
            self.enter()?;
            value = self.expassign()?;
            self.leave();
            if special {
                if (op == DIV || op == MOD) && value == 0 {
                    if self.noeval == 0 {
                        return Err(self.err("division by 0"));
                    }
                    value = 1;
                }
                value = match op {
                    MUL => lvalue.wrapping_mul(value),
                    DIV | MOD if lvalue == i64::MIN && value == -1 => {
                        if op == DIV {
                            i64::MIN
                        } else {
                            0
                        }
                    }
                    DIV => lvalue / value,
                    MOD => lvalue % value,
                    PLUS => lvalue.wrapping_add(value),
                    MINUS => lvalue.wrapping_sub(value),
                    LSH => lvalue.wrapping_shl((value & 63) as u32),
                    RSH => lvalue.wrapping_shr((value & 63) as u32),
                    BAND => lvalue & value,
                    BOR => lvalue | value,
                    BXOR => lvalue ^ value,
                    _ => return Err(self.err("bug: bad expassign token")),
                };
            }
            if self.noeval == 0 {
                if let Some(lhs) = lhs {
                    self.bind(lhs, lind, value)?;
                }
            }
            if self.curlval.tok.is_some() && self.curlval.tok == self.tokstr {
                self.curlval = LVal::default();
            }
            self.tokstr = None;
        }
        Ok(value)
    }

    fn expcond(&mut self) -> Result<i64, String> {
        let cval = self.explor()?;
        if self.curtok != QUES {
            return Ok(cval);
        }
        self.enter()?;
        let skip = cval == 0;
        if skip {
            self.noeval += 1;
        }
        self.readtok()?;
        if self.curtok == END || self.curtok == COL {
            return Err(self.err("expression expected"));
        }
        let val1 = self.expcomma()?;
        if skip {
            self.noeval -= 1;
        }
        if self.curtok != COL {
            return Err(self.err("`:' expected for conditional expression"));
        }
        let skip = cval != 0;
        if skip {
            self.noeval += 1;
        }
        self.readtok()?;
        if self.curtok == END {
            return Err(self.err("expression expected"));
        }
        let val2 = self.expcond()?;
        if skip {
            self.noeval -= 1;
        }
        self.leave();
        self.lasttok = COND;
        Ok(if cval != 0 { val1 } else { val2 })
    }

    fn explor(&mut self) -> Result<i64, String> {
        let mut val1 = self.expland()?;
        while self.curtok == LOR {
            let skip = val1 != 0;
            if skip {
                self.noeval += 1;
            }
            self.readtok()?;
            let val2 = self.expland()?;
            if skip {
                self.noeval -= 1;
            }
            val1 = i64::from(val1 != 0 || val2 != 0);
            self.lasttok = LOR;
        }
        Ok(val1)
    }

    fn expland(&mut self) -> Result<i64, String> {
        let mut val1 = self.expbor()?;
        while self.curtok == LAND {
            let skip = val1 == 0;
            if skip {
                self.noeval += 1;
            }
            self.readtok()?;
            let val2 = self.expbor()?;
            if skip {
                self.noeval -= 1;
            }
            val1 = i64::from(val1 != 0 && val2 != 0);
            self.lasttok = LAND;
        }
        Ok(val1)
    }

    fn expbor(&mut self) -> Result<i64, String> {
        let mut v = self.expbxor()?;
        while self.curtok == BOR {
            self.readtok()?;
            v |= self.expbxor()?;
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expbxor(&mut self) -> Result<i64, String> {
        let mut v = self.expband()?;
        while self.curtok == BXOR {
            self.readtok()?;
            v ^= self.expband()?;
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expband(&mut self) -> Result<i64, String> {
        let mut v = self.expeq()?;
        while self.curtok == BAND {
            self.readtok()?;
            v &= self.expeq()?;
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expeq(&mut self) -> Result<i64, String> {
        let mut v = self.expcompare()?;
        while self.curtok == EQEQ || self.curtok == NEQ {
            let op = self.curtok;
            self.readtok()?;
            let w = self.expcompare()?;
            v = i64::from(if op == EQEQ { v == w } else { v != w });
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expcompare(&mut self) -> Result<i64, String> {
        let mut v = self.expshift()?;
        while matches!(self.curtok, LEQ | GEQ | LT | GT) {
            let op = self.curtok;
            self.readtok()?;
            let w = self.expshift()?;
            v = i64::from(match op {
                LEQ => v <= w,
                GEQ => v >= w,
                LT => v < w,
                _ => v > w,
            });
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expshift(&mut self) -> Result<i64, String> {
        let mut v = self.expaddsub()?;
        while self.curtok == LSH || self.curtok == RSH {
            let op = self.curtok;
            self.readtok()?;
            let w = self.expaddsub()?;
            v = if op == LSH { v.wrapping_shl((w & 63) as u32) } else { v.wrapping_shr((w & 63) as u32) };
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expaddsub(&mut self) -> Result<i64, String> {
        let mut v = self.expmuldiv()?;
        while self.curtok == PLUS || self.curtok == MINUS {
            let op = self.curtok;
            self.readtok()?;
            let w = self.expmuldiv()?;
            v = if op == PLUS { v.wrapping_add(w) } else { v.wrapping_sub(w) };
            self.lasttok = NUM;
        }
        Ok(v)
    }

    fn expmuldiv(&mut self) -> Result<i64, String> {
        let mut v = self.exppower()?;
        while matches!(self.curtok, MUL | DIV | MOD) {
            let op = self.curtok;
            let stp = self.tp;
            self.readtok()?;
            let mut w = self.exppower()?;
            self.lasttok = NUM;
            if (op == DIV || op == MOD) && w == 0 {
                if self.noeval == 0 {
                    let mut at = stp;
                    while at < self.b.len() && matches!(self.b[at], b' ' | b'\t') {
                        at += 1;
                    }
                    self.lasttp = at;
                    return Err(self.err("division by 0"));
                }
                w = 1;
            } else if op == MOD && v == i64::MIN && w == -1 {
                v = 0;
                continue;
            } else if op == DIV && v == i64::MIN && w == -1 {
                w = 1;
            }
            v = match op {
                MUL => v.wrapping_mul(w),
                DIV => v / w,
                _ => v % w,
            };
        }
        Ok(v)
    }

    fn exppower(&mut self) -> Result<i64, String> {
        let mut v = self.expunary()?;
        while self.curtok == POWER {
            self.readtok()?;
            self.enter()?;
            let w = self.exppower()?;
            self.leave();
            self.lasttok = NUM;
            if w == 0 {
                return Ok(1);
            }
            if w < 0 {
                return Err(self.err("exponent less than 0"));
            }
            v = ipow(v, w);
        }
        Ok(v)
    }

    /// Prefix `!`, `~`, `-`, `+`: bash recurses once per operator; a loop
    /// here (a long chain is not nesting), applied right to left.
    fn expunary(&mut self) -> Result<i64, String> {
        let mut ops = Vec::new();
        while matches!(self.curtok, NOT | BNOT | MINUS | PLUS) {
            ops.push(self.curtok);
            self.readtok()?;
        }
        let mut v = self.exp0()?;
        if ops.is_empty() {
            return Ok(v);
        }
        for op in ops.iter().rev() {
            v = match *op {
                NOT => i64::from(v == 0),
                BNOT => !v,
                MINUS => v.wrapping_neg(),
                _ => v,
            };
        }
        self.lasttok = NUM;
        Ok(v)
    }

    fn exp0(&mut self) -> Result<i64, String> {
        let val;
        if self.curtok == PREINC || self.curtok == PREDEC {
            let stok = self.curtok;
            self.lasttok = stok;
            self.readtok()?;
            if self.curtok != STR {
                return Err(self.err("identifier expected after pre-increment or pre-decrement"));
            }
            let v2 = self.tokval.wrapping_add(if stok == PREINC { 1 } else { -1 });
            if self.noeval == 0 {
                self.bind_lval(v2)?;
            }
            val = v2;
            self.curtok = NUM;
            self.readtok()?;
        } else if self.curtok == LPAR {
            self.readtok()?;
            self.enter()?;
            val = self.expcomma()?;
            self.leave();
            if self.curtok != RPAR {
                return Err(self.err("missing `)'"));
            }
            self.readtok()?;
        } else if self.curtok == NUM || self.curtok == STR {
            val = self.tokval;
            if self.curtok == STR {
                let ec = self.save();
                self.tokstr = None;
                self.noeval = 1;
                self.readtok()?;
                let stok = self.curtok;
                if stok == POSTINC || stok == POSTDEC {
                    self.tokstr = ec.tokstr;
                    self.noeval = ec.noeval;
                    self.curlval = ec.curlval;
                    self.lasttok = STR;
                    let v2 = val.wrapping_add(if stok == POSTINC { 1 } else { -1 });
                    if self.noeval == 0 {
                        self.bind_lval(v2)?;
                    }
                    self.curtok = NUM;
                } else {
                    self.restore(ec);
                }
            }
            self.readtok()?;
        } else {
            return Err(self.err("syntax error: operand expected"));
        }
        Ok(val)
    }
}

/// A plain decimal number (optionally signed, no leading 0: that is octal),
/// read in one pass; `None` past the range of i64 as well.
fn plain_decimal(t: &str) -> Option<i64> {
    let (neg, digits) = match t.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        all => (false, all),
    };
    if digits.is_empty() || (digits[0] == b'0' && digits.len() > 1) {
        return None;
    }
    // Counted downwards so that i64::MIN, which has no positive, fits.
    let mut v: i64 = 0;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_sub(i64::from(d))?;
    }
    if neg {
        Some(v)
    } else {
        v.checked_neg()
    }
}

/// Where the `]` closing the subscript that opens at `open` is.
fn skip_subscript(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &ch) in b.iter().enumerate().skip(open) {
        match ch {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn ipow(mut base: i64, exp: i64) -> i64 {
    let mut r: i64 = 1;
    let mut e = exp as u64;
    while e > 0 {
        if e & 1 == 1 {
            r = r.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    r
}

/// Variables bash computes on every read (`LINENO`, `RANDOM`, `EPOCHSECONDS`, ...).
fn dynamic(sh: &ShellState, name: &str) -> Option<String> {
    super::param::dynamic_var(sh, name)
}
