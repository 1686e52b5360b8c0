//! Arithmetic: `$(( ))`, `(( ))`, `let`, array indices. The text is expanded
//! first, then parsed by brush-parser and evaluated here on wrapping i64.

use super::expand_to_segs;
use crate::interp::{Fds, Flow};
use crate::state::{ShellState, Value};
use brush_parser::ast::{
    ArithmeticExpr as E, ArithmeticTarget, BinaryOperator as B, UnaryAssignmentOperator as UA, UnaryOperator as U,
};

/// Deepest `a[b[c[...]]]` nesting parsed (brush-parser is exponential in it).
const MAX_SUBSCRIPT_NESTING: usize = 4;
/// Deepest recursion through variables whose values are expressions.
const MAX_EVAL_DEPTH: usize = 64;

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
    Ok(eval_str(sh, &expanded, 0))
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

/// Parse and evaluate already-expanded text.
pub fn eval_str(sh: &mut ShellState, text: &str, depth: usize) -> Result<i64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(0);
    }
    // Plain decimal fast path (a leading 0 means octal, left to the parser).
    if !t.starts_with('0') || t.len() == 1 {
        if let Ok(v) = t.parse::<i64>() {
            return Ok(v);
        }
    }
    if depth > MAX_EVAL_DEPTH {
        return Err(format!("{t}: expression recursion level exceeded (error token is \"{t}\")"));
    }
    if subscript_nesting(t) > MAX_SUBSCRIPT_NESTING {
        return Err(format!("{t}: subscripts nested too deeply"));
    }
    // Messages show the text as written after its leading blanks.
    let shown = text.trim_start();
    // An associative array's subscript is a string, not arithmetic: set the
    // keys aside and let the parser see placeholder names instead.
    let (rewritten, keys) = assoc_subscripts(sh, t);
    let t = rewritten.as_deref().unwrap_or(t);
    let expr = brush_parser::arithmetic::parse(t).map_err(|_| match bad_number(shown) {
        // bash stops reading at the bad constant.
        Some((a, b)) => format!("{}: value too great for base (error token is \"{}\")", &shown[..b], &shown[a..b]),
        None => syntax_error(shown),
    })?;
    let mut ev = Eval { sh, text: shown, depth, keys };
    ev.eval(&expr)
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
        let ok = digits.chars().all(|d| {
            let v = match d {
                '0'..='9' => d as u32 - '0' as u32,
                'a'..='z' => d as u32 - 'a' as u32 + 10,
                'A'..='Z' if base <= 36 => d as u32 - 'A' as u32 + 10,
                'A'..='Z' => d as u32 - 'A' as u32 + 36,
                '@' => 62,
                '_' => 63,
                _ => u32::MAX,
            };
            v < base
        });
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
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            if !want_operand {
                return format!("{t}: syntax error in expression (error token is \"{}\")", &t[start..]);
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
            if want_operand && !prefix {
                return format!("{t}: syntax error: operand expected (error token is \"{}\")", &t[start..]);
            }
            i += if ["**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--"].contains(&two) { 2 } else { 1 };
            // After `)` or a postfix `++`, an operator follows; otherwise an operand.
            want_operand = !(c == b')' || (!want_operand && (two == "++" || two == "--")));
        }
        last_start = start;
    }
    format!("{t}: syntax error: operand expected (error token is \"{}\")", &t[last_start..])
}

fn subscript_nesting(t: &str) -> usize {
    let (mut d, mut max) = (0usize, 0usize);
    for c in t.chars() {
        match c {
            '[' => {
                d += 1;
                max = max.max(d);
            }
            ']' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The name standing for the Nth associative-array key of an expression.
const KEY_PLACEHOLDER: &str = "__sandbash_assoc_key_";

/// `count[$w]++` with `count` associative: the text with each such subscript
/// replaced by a placeholder name, and the keys in order (`None` when the
/// text has no associative subscript).
fn assoc_subscripts(sh: &ShellState, t: &str) -> (Option<String>, Vec<String>) {
    if !t.contains('[') {
        return (None, Vec::new());
    }
    let b = t.as_bytes();
    let mut out = String::new();
    let mut keys = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphabetic() || b[i] == b'_')
            || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if b.get(i) != Some(&b'[') {
            continue;
        }
        let is_assoc = matches!(sh.vars.get_set(&t[start..i]).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_)));
        if !is_assoc {
            continue;
        }
        let (open, mut depth, mut j) = (i, 0usize, i);
        while j < b.len() {
            match b[j] {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if j >= b.len() {
            break;
        }
        out.push_str(&t[copied..=open]);
        out.push_str(&format!("{KEY_PLACEHOLDER}{}", keys.len()));
        keys.push(t[open + 1..j].to_string());
        copied = j;
        i = j + 1;
    }
    if keys.is_empty() {
        return (None, keys);
    }
    out.push_str(&t[copied..]);
    (Some(out), keys)
}

struct Eval<'a> {
    sh: &'a mut ShellState,
    text: &'a str,
    depth: usize,
    /// The associative-array keys set aside by [`assoc_subscripts`].
    keys: Vec<String>,
}

impl Eval<'_> {
    fn read_var(&mut self, name: &str) -> Result<i64, String> {
        let v = self.sh.get_var(name).or_else(|| dynamic(self.sh, name));
        match v {
            None => {
                if self.sh.opts.nounset {
                    return Err(format!("{name}: unbound variable"));
                }
                Ok(0)
            }
            Some(s) => eval_str(self.sh, &s, self.depth + 1),
        }
    }

    fn read_target(&mut self, t: &ArithmeticTarget) -> Result<i64, String> {
        match t {
            ArithmeticTarget::Variable(n) => self.read_var(n),
            ArithmeticTarget::ArrayElement(n, idx) => {
                let value = self.sh.vars.get_set(n).and_then(|v| v.value.clone());
                if let Some(Value::Assoc(m)) = &value {
                    let key = self.assoc_key(idx)?;
                    return match m.get(&key).cloned() {
                        Some(s) => eval_str(self.sh, &s, self.depth + 1),
                        None => Ok(0),
                    };
                }
                let i = self.eval(idx)?;
                let val = match value {
                    Some(Value::Indexed(m)) => {
                        let i = if i < 0 { m.keys().next_back().map_or(0, |k| k + 1) + i } else { i };
                        m.get(&i).cloned()
                    }
                    Some(Value::Assoc(m)) => m.get(&i.to_string()).cloned(),
                    Some(Value::Scalar(s)) if i == 0 => Some(s),
                    _ => None,
                };
                match val {
                    Some(s) => eval_str(self.sh, &s, self.depth + 1),
                    None => Ok(0),
                }
            }
        }
    }

    /// An associative array's key: the text set aside for its placeholder,
    /// else (a subscript this expression did not write) its value as text.
    fn assoc_key(&mut self, idx: &E) -> Result<String, String> {
        if let E::Reference(ArithmeticTarget::Variable(v)) = idx {
            if let Some(k) = v.strip_prefix(KEY_PLACEHOLDER).and_then(|n| n.parse::<usize>().ok()) {
                return Ok(self.keys.get(k).cloned().unwrap_or_default());
            }
            return Ok(v.clone());
        }
        Ok(self.eval(idx)?.to_string())
    }

    fn write_target(&mut self, t: &ArithmeticTarget, v: i64) -> Result<i64, String> {
        match t {
            ArithmeticTarget::Variable(n) => self.sh.set_var(n, v.to_string())?,
            ArithmeticTarget::ArrayElement(n, idx) => {
                if matches!(self.sh.vars.get_set(n).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_))) {
                    let key = self.assoc_key(idx)?;
                    let var = self.sh.vars.entry(n);
                    if var.readonly {
                        return Err(format!("{n}: readonly variable"));
                    }
                    if let Some(Value::Assoc(m)) = &mut var.value {
                        m.insert(key, v.to_string());
                    }
                    return Ok(v);
                }
                let i = self.eval(idx)?;
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
            }
        }
        Ok(v)
    }

    fn eval(&mut self, e: &E) -> Result<i64, String> {
        Ok(match e {
            E::Literal(v) => *v,
            E::Reference(t) => self.read_target(t)?,
            E::UnaryOp(op, x) => {
                let v = self.eval(x)?;
                match op {
                    U::UnaryPlus => v,
                    U::UnaryMinus => v.wrapping_neg(),
                    U::BitwiseNot => !v,
                    U::LogicalNot => i64::from(v == 0),
                }
            }
            E::BinaryOp(op, a, b) => match op {
                B::LogicalAnd => {
                    if self.eval(a)? == 0 {
                        0
                    } else {
                        i64::from(self.eval(b)? != 0)
                    }
                }
                B::LogicalOr => {
                    if self.eval(a)? != 0 {
                        1
                    } else {
                        i64::from(self.eval(b)? != 0)
                    }
                }
                _ => {
                    let x = self.eval(a)?;
                    let y = self.eval(b)?;
                    self.binary(op, x, y)?
                }
            },
            E::Conditional(c, t, f) => {
                if self.eval(c)? != 0 {
                    self.eval(t)?
                } else {
                    self.eval(f)?
                }
            }
            E::Assignment(t, x) => {
                let v = self.eval(x)?;
                self.write_target(t, v)?
            }
            E::BinaryAssignment(op, t, x) => {
                let cur = self.read_target(t)?;
                let y = self.eval(x)?;
                let v = self.binary(op, cur, y)?;
                self.write_target(t, v)?
            }
            E::UnaryAssignment(op, t) => {
                let cur = self.read_target(t)?;
                match op {
                    UA::PrefixIncrement => self.write_target(t, cur.wrapping_add(1))?,
                    UA::PrefixDecrement => self.write_target(t, cur.wrapping_sub(1))?,
                    UA::PostfixIncrement => {
                        self.write_target(t, cur.wrapping_add(1))?;
                        cur
                    }
                    UA::PostfixDecrement => {
                        self.write_target(t, cur.wrapping_sub(1))?;
                        cur
                    }
                }
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
