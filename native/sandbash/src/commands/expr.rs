//! `expr EXPRESSION` (GNU coreutils): `|`, `&`, comparisons (numeric when
//! both sides are integers), `+ - * / %` on arbitrary-precision integers,
//! `STRING : REGEX` (an anchored BRE: the `\(...\)` group or the match
//! length), `match`, `substr`, `index`, `length`, `+ TOKEN` and parentheses.
//! Exit status 0 (non-null result), 1 (null or 0), 2 (bad expression), 3.

use super::util::bignum::BigInt;
use super::util::quote_locale;
use super::util::regex_translate;
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Expr;

#[derive(Clone, Debug)]
enum Val {
    Int(BigInt),
    Str(String),
}

impl Val {
    fn text(&self) -> String {
        match self {
            Val::Int(i) => i.to_string(),
            Val::Str(s) => s.clone(),
        }
    }
    /// Empty, or a (string) zero such as `0`, `-0`, `00`.
    fn is_null(&self) -> bool {
        match self {
            Val::Int(i) => i.is_zero(),
            Val::Str(s) => {
                let d = s.strip_prefix('-').unwrap_or(s);
                s.is_empty() || (!d.is_empty() && d.bytes().all(|b| b == b'0'))
            }
        }
    }
    fn to_int(&self) -> Option<BigInt> {
        match self {
            Val::Int(i) => Some(i.clone()),
            Val::Str(s) if looks_like_integer(s) => BigInt::parse_decimal(s),
            Val::Str(_) => None,
        }
    }
}

fn looks_like_integer(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// Why evaluation stopped: the message and exit status.
struct Fail(String, i32);

fn syntax(msg: String) -> Fail {
    Fail(format!("syntax error: {msg}"), 2)
}

/// Operands nested deeper than this (parentheses, `length length ...`) are
/// refused: GNU expr recurses on its C stack without a limit.
const MAX_NESTING: usize = 1024;

struct Eval<'a> {
    args: &'a [String],
    pos: usize,
    utf8: bool,
    regex_limit: usize,
    /// Operands being evaluated inside each other.
    nest: usize,
}

impl Eval<'_> {
    fn more(&self) -> bool {
        self.pos < self.args.len()
    }
    fn next_is(&mut self, s: &str) -> bool {
        if self.args.get(self.pos).is_some_and(|a| a == s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn prev(&self) -> String {
        quote_locale(&self.args[self.pos - 1])
    }
    fn len_of(&self, s: &str) -> usize {
        if self.utf8 {
            s.chars().count()
        } else {
            s.len()
        }
    }
    /// The characters of `s` (bytes in a single-byte locale), as strings.
    fn units(&self, s: &str) -> Vec<String> {
        if self.utf8 {
            s.chars().map(String::from).collect()
        } else {
            // Single-byte locale: every byte is a character; keep UTF-8 intact
            // by splitting on char boundaries only where possible.
            s.bytes().map(|b| String::from_utf8_lossy(&[b]).into_owned()).collect()
        }
    }

    fn or(&mut self, ev: bool) -> Result<Val, Fail> {
        let mut l = self.and(ev)?;
        while self.next_is("|") {
            let r = self.and(ev && l.is_null())?;
            if l.is_null() {
                l = if r.is_null() { Val::Int(BigInt::zero()) } else { r };
            }
        }
        Ok(l)
    }

    fn and(&mut self, ev: bool) -> Result<Val, Fail> {
        let mut l = self.cmp(ev)?;
        while self.next_is("&") {
            let r = self.cmp(ev && !l.is_null())?;
            if l.is_null() || r.is_null() {
                l = Val::Int(BigInt::zero());
            }
        }
        Ok(l)
    }

    fn cmp(&mut self, ev: bool) -> Result<Val, Fail> {
        let mut l = self.add(ev)?;
        loop {
            let op = ["<", "<=", "=", "==", "!=", ">=", ">"].into_iter().find(|op| self.next_is(op));
            let Some(op) = op else { return Ok(l) };
            let r = self.add(ev)?;
            let mut val = false;
            if ev {
                let (ls, rs) = (l.text(), r.text());
                let ord = match (looks_like_integer(&ls), looks_like_integer(&rs)) {
                    (true, true) => l.to_int().unwrap_or_default().cmp(&r.to_int().unwrap_or_default()),
                    // strcoll in C and C.UTF-8 is byte order.
                    _ => ls.as_bytes().cmp(rs.as_bytes()),
                };
                val = match op {
                    "<" => ord.is_lt(),
                    "<=" => ord.is_le(),
                    "=" | "==" => ord.is_eq(),
                    "!=" => ord.is_ne(),
                    ">=" => ord.is_ge(),
                    _ => ord.is_gt(),
                };
            }
            l = Val::Int(BigInt::from_i64(i64::from(val)));
        }
    }

    fn arith(l: &Val, r: &Val) -> Result<(BigInt, BigInt), Fail> {
        match (l.to_int(), r.to_int()) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(Fail("non-integer argument".into(), 2)),
        }
    }

    fn add(&mut self, ev: bool) -> Result<Val, Fail> {
        let mut l = self.mul(ev)?;
        loop {
            let plus = if self.next_is("+") {
                true
            } else if self.next_is("-") {
                false
            } else {
                return Ok(l);
            };
            let r = self.mul(ev)?;
            if ev {
                let (a, b) = Self::arith(&l, &r)?;
                l = Val::Int(if plus { a.add(&b) } else { a.sub(&b) });
            }
        }
    }

    fn mul(&mut self, ev: bool) -> Result<Val, Fail> {
        let mut l = self.colon(ev)?;
        loop {
            let op = ["*", "/", "%"].into_iter().find(|op| self.next_is(op));
            let Some(op) = op else { return Ok(l) };
            let r = self.colon(ev)?;
            if ev {
                let (a, b) = Self::arith(&l, &r)?;
                if op == "*" {
                    l = Val::Int(a.mul(&b));
                } else {
                    let (q, m) = a.divmod(&b).ok_or_else(|| Fail("division by zero".into(), 2))?;
                    l = Val::Int(if op == "/" { q } else { m });
                }
            }
        }
    }

    fn colon(&mut self, ev: bool) -> Result<Val, Fail> {
        let mut l = self.unary(ev)?;
        while self.next_is(":") {
            let r = self.unary(ev)?;
            if ev {
                l = self.docolon(&l, &r)?;
            }
        }
        Ok(l)
    }

    /// Every operand goes through here: one level deeper, and one turn of the
    /// evaluation (a chain of a million operands checks the clock).
    fn unary(&mut self, ev: bool) -> Result<Val, Fail> {
        crate::limits::checkpoint().map_err(|s| Fail(s.to_string(), 3))?;
        self.nest += 1;
        if self.nest > MAX_NESTING || crate::limits::stack_low() {
            return Err(Fail("expression nested too deeply".into(), 2));
        }
        let r = self.unary_inner(ev);
        self.nest -= 1;
        r
    }

    fn unary_inner(&mut self, ev: bool) -> Result<Val, Fail> {
        if self.next_is("+") {
            if !self.more() {
                return Err(syntax(format!("missing argument after {}", self.prev())));
            }
            self.pos += 1;
            return Ok(Val::Str(self.args[self.pos - 1].clone()));
        }
        if self.next_is("length") {
            let r = self.unary(ev)?;
            return Ok(Val::Int(BigInt::from_i64(self.len_of(&r.text()) as i64)));
        }
        if self.next_is("match") {
            let l = self.unary(ev)?;
            let r = self.unary(ev)?;
            return if ev { self.docolon(&l, &r) } else { Ok(l) };
        }
        if self.next_is("index") {
            let l = self.unary(ev)?;
            let r = self.unary(ev)?;
            let set = self.units(&r.text());
            let pos = self.units(&l.text()).iter().position(|c| set.contains(c)).map_or(0, |i| i + 1);
            return Ok(Val::Int(BigInt::from_i64(pos as i64)));
        }
        if self.next_is("substr") {
            let s = self.unary(ev)?;
            let p = self.unary(ev)?;
            let n = self.unary(ev)?;
            let units = self.units(&s.text());
            let (Some(p), Some(n)) = (p.to_int(), n.to_int()) else {
                return Ok(Val::Str(String::new()));
            };
            // GNU's getsize: negative or huge values are SIZE_MAX.
            let size = |v: &BigInt| if v.is_neg() { u64::MAX } else { v.to_i64().map_or(u64::MAX, |x| x as u64) };
            let (p, n) = (size(&p), size(&n));
            let len = units.len() as u64;
            if len < p || p == 0 || n == 0 || n == u64::MAX {
                return Ok(Val::Str(String::new()));
            }
            let take = n.min(len - p + 1) as usize;
            let start = (p - 1) as usize;
            return Ok(Val::Str(units[start..start + take].concat()));
        }
        self.primary(ev)
    }

    fn primary(&mut self, ev: bool) -> Result<Val, Fail> {
        if !self.more() {
            return Err(syntax(format!("missing argument after {}", self.prev())));
        }
        if self.next_is("(") {
            let v = self.or(ev)?;
            if !self.more() {
                return Err(syntax(format!("expecting ')' after {}", self.prev())));
            }
            if !self.next_is(")") {
                return Err(syntax(format!("expecting ')' instead of {}", quote_locale(&self.args[self.pos]))));
            }
            return Ok(v);
        }
        if self.next_is(")") {
            return Err(syntax("unexpected ')'".into()));
        }
        self.pos += 1;
        Ok(Val::Str(self.args[self.pos - 1].clone()))
    }

    /// `STRING : REGEX`, anchored at the start, with POSIX's longest match.
    fn docolon(&self, sv: &Val, pv: &Val) -> Result<Val, Fail> {
        let s = sv.text();
        let pat = pv.text();
        let tr = regex_translate::translate_sed(&pat, false).map_err(|e| Fail(e, 2))?;
        let build = |src: String| {
            if crate::commands::util::regex_cache::admit(&src).is_err() {
                return Err(Fail("Regular expression too big".into(), 2));
            }
            regex::RegexBuilder::new(&src)
                .dot_matches_new_line(true)
                .size_limit(self.regex_limit)
                .build()
                .map_err(|_| Fail("Invalid regular expression".into(), 2))
        };
        let re = build(format!("^(?:{})", tr.source))?;
        let groups = re.captures_len() > 1;
        let Some(m) = re.find(&s) else {
            return Ok(if groups { Val::Str(String::new()) } else { Val::Int(BigInt::zero()) });
        };
        let mut end = m.end();
        let mut caps = re.captures(&s);
        // Leftmost-first may stop short of POSIX's longest match when the
        // pattern alternates: look for the longest prefix that matches whole.
        if pat.contains("\\|") {
            let whole = build(format!("^(?:{})$", tr.source))?;
            for (i, _) in s.char_indices().map(|(i, c)| (i + c.len_utf8(), c)).collect::<Vec<_>>().into_iter().rev() {
                if i <= end {
                    break;
                }
                if let Some(c) = whole.captures(&s[..i]) {
                    end = i;
                    caps = Some(c);
                    break;
                }
            }
        }
        if groups {
            let g = caps.and_then(|c| c.get(1).map(|g| g.as_str().to_string())).unwrap_or_default();
            return Ok(Val::Str(g));
        }
        Ok(Val::Int(BigInt::from_i64(self.len_of(&s[..end]) as i64)))
    }
}

#[async_trait]
impl Utility for Expr {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut args = ctx.args;
        match args.first().map(String::as_str) {
            Some("--help") => {
                ctx.out_help(b"Usage: expr EXPRESSION\n  or:  expr OPTION\n").await?;
                return Ok(0);
            }
            Some("--version") => {
                ctx.out(b"expr (GNU coreutils) 9.1\n").await?;
                return Ok(0);
            }
            Some("--") => args = &args[1..],
            _ => {}
        }
        if args.is_empty() {
            return Err(UError::usage(2, "missing operand"));
        }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|k| ctx.env.get(k).filter(|v| !v.is_empty()));
        let utf8 = locale.is_none_or(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        });
        let mut ev = Eval { args, pos: 0, utf8, regex_limit: ctx.regex_limit(), nest: 0 };
        let res = ev.or(true).and_then(|v| {
            if ev.more() {
                Err(syntax(format!("unexpected argument {}", quote_locale(&args[ev.pos]))))
            } else {
                Ok(v)
            }
        });
        match res {
            Ok(v) => {
                ctx.out(format!("{}\n", v.text()).as_bytes()).await?;
                Ok(i32::from(v.is_null()))
            }
            Err(Fail(msg, status)) => {
                ctx.err(msg).await?;
                Ok(status)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    fn ok(args: &[&str], out: &str, status: i32) {
        let mut argv = vec!["expr"];
        argv.extend_from_slice(args);
        check(&argv, &[], "", out, "", status);
    }
    fn bad(args: &[&str], err: &str) {
        let mut argv = vec!["expr"];
        argv.extend_from_slice(args);
        check(&argv, &[], "", "", &format!("expr: {err}\n"), 2);
    }

    #[test]
    fn arithmetic() {
        ok(&["99999999999999999999", "+", "1"], "100000000000000000000\n", 0);
        ok(&["9223372036854775807", "*", "3"], "27670116110564327421\n", 0);
        ok(&["007"], "007\n", 0);
        ok(&["007", "+", "0"], "7\n", 0);
        ok(&["-5", "%", "3"], "-2\n", 0);
        ok(&["5", "%", "-3"], "2\n", 0);
        ok(&["-7", "/", "2"], "-3\n", 0);
        ok(&["2", "*", "3", "+", "1"], "7\n", 0);
        ok(&["3", "-", "2", "-", "1"], "0\n", 1);
        ok(&["(", "3", ")", "*", "2"], "6\n", 0);
        ok(&["--", "1", "+", "1"], "2\n", 0);
        ok(&["-5", "+", "1"], "-4\n", 0);
        bad(&["5", "/", "0"], "division by zero");
        bad(&["a", "+", "1"], "non-integer argument");
        bad(&["+1", "+", "1"], "non-integer argument");
    }

    #[test]
    fn logic_and_comparison() {
        ok(&["007", "=", "7"], "1\n", 0);
        ok(&["0", "|", ""], "0\n", 1);
        ok(&["", "|", "0"], "0\n", 1);
        ok(&["a", "|", "b"], "a\n", 0);
        ok(&["0", "&", "1"], "0\n", 1);
        ok(&["1", "&", "2"], "1\n", 0);
        ok(&["-0"], "-0\n", 1);
        ok(&["00"], "00\n", 1);
        ok(&[""], "\n", 1);
        ok(&["a", "<", "b"], "1\n", 0);
        ok(&["10", "<", "9"], "0\n", 1);
        ok(&["10", "<", "9a"], "1\n", 0);
        ok(&["2", ">", "10"], "0\n", 1);
        ok(&["", "=", ""], "1\n", 0);
        ok(&["1", "=", "1", "=", "1"], "1\n", 0);
    }

    #[test]
    fn strings_and_regex() {
        ok(&["abc", ":", "a\\(.\\)"], "b\n", 0);
        ok(&["abc", ":", "a."], "2\n", 0);
        ok(&["abc", ":", "x"], "0\n", 1);
        ok(&["abc", ":", "x\\(.\\)"], "\n", 1);
        ok(&["xabc", ":", "a"], "0\n", 1);
        ok(&["x", ":", "*x"], "0\n", 1);
        ok(&["abc", ":", "ab\\|abc"], "3\n", 0);
        ok(&["a.c", ":", "a\\.c"], "3\n", 0);
        ok(&["aaa", ":", "a\\{2\\}"], "2\n", 0);
        ok(&["a\nb", ":", "a.b"], "3\n", 0);
        ok(&["length", "abcd"], "4\n", 0);
        ok(&["length", "é"], "1\n", 0);
        ok(&["é", ":", ".*"], "1\n", 0);
        ok(&["substr", "hello", "2", "3"], "ell\n", 0);
        ok(&["substr", "héllo", "2", "2"], "él\n", 0);
        ok(&["substr", "hello", "0", "2"], "\n", 1);
        ok(&["substr", "hello", "2", "-1"], "\n", 1);
        ok(&["substr", "hello", "2", "100"], "ello\n", 0);
        ok(&["index", "hello", "lo"], "3\n", 0);
        ok(&["index", "abc", ""], "0\n", 1);
        ok(&["index", "abc", "bz"], "2\n", 0);
        ok(&["match", "abc", "ab*"], "2\n", 0);
        ok(&["+", "length"], "length\n", 0);
        bad(&["abc", ":", "\\("], "Unmatched ( or \\(");
        bad(&["a", ":", "a\\{1"], "Unmatched \\{");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let n = super::MAX_NESTING + 1;
        let mut args = vec!["("; n];
        args.push("1");
        args.extend(std::iter::repeat_n(")", n));
        bad(&args, "expression nested too deeply");
        let mut args = vec!["length"; n];
        args.push("x");
        bad(&args, "expression nested too deeply");
        // (A test thread has a small stack: a modest depth.)
        ok(&args[n - 100..], "1\n", 0);
    }

    #[test]
    fn syntax_errors() {
        bad(&["1", "+"], "syntax error: missing argument after '+'");
        bad(&["1", "2"], "syntax error: unexpected argument '2'");
        bad(&["(", "1"], "syntax error: expecting ')' after '1'");
        bad(&["(", "1", "2"], "syntax error: expecting ')' instead of '2'");
        bad(&[")"], "syntax error: unexpected ')'");
        bad(&["length"], "syntax error: missing argument after 'length'");
        bad(&["1", "+", "2", "*"], "syntax error: missing argument after '*'");
        check(&["expr"], &[], "", "", "expr: missing operand\nTry 'expr --help' for more information.\n", 2);
    }
}
