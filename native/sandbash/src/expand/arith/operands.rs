//! The tokenizer of bash's expr.c (`readtok`), its number constants
//! (`strlong`) and the variables and array elements an expression reads
//! and assigns: the operand side of the evaluator in `arith.rs`.

use super::*;

impl Ev<'_> {
    /// `++x` / `x++`: the element the variable token evaluated to, else the
    /// token's text.
    pub(super) fn bind_lval(&mut self, v: i64) -> Result<(), String> {
        match (self.curlval.ind, self.curlval.tok, self.tokstr) {
            (Some(ind), Some(tok), _) => self.bind(tok, Some(ind), v),
            (_, _, Some(tok)) => self.bind(tok, None, v),
            _ => Ok(()),
        }
    }

    /// bash's readtok: the next token into `curtok`; a variable is evaluated
    /// as it is read (unless an `=` follows), a number converted.
    pub(super) fn readtok(&mut self) -> Result<(), String> {
        crate::limits::checkpoint().map_err(stopped)?;
        let b = self.b;
        let len = b.len();
        let mut cp = self.tp;
        while cp < len && cr_whitespace(b[cp]) {
            cp += 1;
        }
        if cp >= len {
            self.lasttok = self.curtok;
            self.curtok = END;
            self.tp = cp;
            return Ok(());
        }
        let start = cp;
        let c = b[cp];
        self.lasttp = start;
        self.tp = start;
        if c.is_ascii_alphabetic() || c == b'_' {
            cp += 1;
            while cp < len && (b[cp].is_ascii_alphanumeric() || b[cp] == b'_') {
                cp += 1;
            }
            let name_end = cp;
            let mut sub = None;
            if cp < len && b[cp] == b'[' {
                // A subscript evaluated here would be one level too deep:
                // fail before scanning for its `]` (nested subscripts built
                // at run time made every level rescan the rest: quadratic).
                let var = self.s.get(start..name_end).and_then(|n| self.sh.vars.get(n));
                let assoc = matches!(var.and_then(|v| v.value.as_ref()), Some(Value::Assoc(_)));
                if self.noeval == 0 && !assoc && self.depth + 1 >= MAX_EXPR_RECURSION {
                    return Err(self.err("expression recursion level exceeded"));
                }
                match find_close(b, cp) {
                    Some(close) => {
                        sub = Some((cp + 1, close));
                        cp = close + 1;
                    }
                    None => return Err(self.err("bad array subscript")),
                }
            }
            if self.curlval.tok.is_some() && self.curlval.tok == self.tokstr {
                self.curlval = LVal::default();
            }
            self.tokstr = Some((start, cp));
            // Look ahead at the next token (nothing evaluated): an `=` means
            // this variable is assigned, not read. An operator character
            // cannot fail to lex there; anything else is read in full, as
            // bash does (its errors come first).
            let mut j = cp;
            while j < len && cr_whitespace(b[j]) {
                j += 1;
            }
            let peek_eq = match b.get(j) {
                None => false,
                Some(b'=') => b.get(j + 1) != Some(&b'='),
                Some(c) if b"+-*/%<>&|^!~?:,()".contains(c) => false,
                Some(_) => {
                    let ec = self.save();
                    self.tokstr = None;
                    self.tp = cp;
                    self.noeval = 1;
                    self.curtok = STR;
                    self.enter()?;
                    self.readtok()?;
                    self.leave();
                    let peektok = self.curtok;
                    self.restore(ec);
                    peektok == EQ
                }
            };
            if self.lasttok == PREINC || self.lasttok == PREDEC || !peek_eq {
                self.tokval = self.streval(start, name_end, sub)?;
            } else {
                self.tokval = 0;
            }
            self.lasttok = self.curtok;
            self.curtok = STR;
        } else if c.is_ascii_digit() {
            while cp < len && (b[cp].is_ascii_alphanumeric() || matches!(b[cp], b'#' | b'@' | b'_')) {
                cp += 1;
            }
            self.tokval = self.strlong(start, cp)?;
            self.lasttok = self.curtok;
            self.curtok = NUM;
        } else {
            let c1 = b.get(start + 1).copied().unwrap_or(0);
            cp = start + 2;
            let tok = if c == b'=' && c1 == b'=' {
                EQEQ
            } else if c == b'!' && c1 == b'=' {
                NEQ
            } else if c == b'>' && c1 == b'=' {
                GEQ
            } else if c == b'<' && c1 == b'=' {
                LEQ
            } else if (c == b'<' || c == b'>') && c1 == c {
                let shift = if c == b'<' { LSH } else { RSH };
                if b.get(cp) == Some(&b'=') {
                    self.assigntok = shift;
                    cp += 1;
                    OP_ASSIGN
                } else {
                    shift
                }
            } else if c == b'&' && c1 == b'&' {
                LAND
            } else if c == b'|' && c1 == b'|' {
                LOR
            } else if c == b'*' && c1 == b'*' {
                POWER
            } else if (c == b'-' || c == b'+') && c1 == c && self.curtok == STR {
                if c == b'-' {
                    POSTDEC
                } else {
                    POSTINC
                }
            } else if (c == b'-' || c == b'+')
                && c1 == c
                && self.curtok == NUM
                && (self.lasttok == PREINC || self.lasttok == PREDEC)
            {
                return Err(self.err(if c == b'-' {
                    "--: assignment requires lvalue"
                } else {
                    "++: assignment requires lvalue"
                }));
            } else if (c == b'-' || c == b'+') && c1 == c {
                let mut xp = cp;
                while xp < len && cr_whitespace(b[xp]) {
                    xp += 1;
                }
                if xp < len && (b[xp].is_ascii_alphabetic() || b[xp] == b'_') {
                    if c == b'-' {
                        PREDEC
                    } else {
                        PREINC
                    }
                } else {
                    cp -= 1;
                    i32::from(c)
                }
            } else if c1 == b'=' && b"*/%+-&^|".contains(&c) {
                self.assigntok = i32::from(c);
                OP_ASSIGN
            } else if !is_arithop(i32::from(c)) {
                if self.curtok == END || is_arithop(self.curtok) || is_multiop(self.curtok) {
                    return Err(self.err("syntax error: operand expected"));
                }
                return Err(self.err("syntax error: invalid arithmetic operator"));
            } else {
                cp -= 1;
                i32::from(c)
            };
            self.lasttok = self.curtok;
            self.curtok = tok;
        }
        self.tp = cp;
        Ok(())
    }

    /// bash's strlong: decimal, `0` octal, `0x` hex, `BASE#DIGITS`.
    pub(super) fn strlong(&self, start: usize, end: usize) -> Result<i64, String> {
        let s = &self.b[start..end];
        let mut i = 0;
        let mut base: i64 = 10;
        let mut foundbase = false;
        if s[0] == b'0' {
            if s.len() == 1 {
                return Ok(0);
            }
            if s[1] == b'x' || s[1] == b'X' {
                base = 16;
                i = 2;
            } else {
                base = 8;
                i = 1;
            }
            foundbase = true;
        }
        let mut val: i64 = 0;
        while i < s.len() {
            let c = s[i];
            i += 1;
            if c == b'#' {
                if foundbase {
                    return Err(self.err_to("invalid number", end));
                }
                if !(2..=64).contains(&val) {
                    return Err(self.err_to("invalid arithmetic base", end));
                }
                base = val;
                val = 0;
                foundbase = true;
                if !s.get(i).is_some_and(|d| d.is_ascii_alphanumeric() || matches!(d, b'@' | b'_')) {
                    return Err(self.err_to("invalid integer constant", end));
                }
                continue;
            }
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'z' => c - b'a' + 10,
                b'A'..=b'Z' => c - b'A' + if base <= 36 { 10 } else { 36 },
                b'@' => 62,
                b'_' => 63,
                _ => break,
            };
            if i64::from(d) >= base {
                return Err(self.err_to("value too great for base", end));
            }
            val = val.wrapping_mul(base).wrapping_add(i64::from(d));
        }
        Ok(val)
    }

    /// A variable's value, evaluated as an expression (bash's expr_streval).
    pub(super) fn streval(
        &mut self,
        start: usize,
        name_end: usize,
        sub: Option<(usize, usize)>,
    ) -> Result<i64, String> {
        if self.noeval > 0 {
            return Ok(0);
        }
        let s = self.s;
        let name = &s[start..name_end];
        let (value, ind) = match sub {
            None => {
                // Fast path: a scalar holding a plain decimal number.
                let fast = self.depth + 1 < MAX_EXPR_RECURSION;
                if let Some(Value::Scalar(v)) = self.sh.vars.get(name).and_then(|v| v.value.as_ref()).filter(|_| fast) {
                    if let Some(n) = plain_decimal(v.trim_matches([' ', '\t', '\n'])) {
                        self.curlval = LVal { tok: self.tokstr, ind: None };
                        return Ok(n);
                    }
                }
                let v = self.sh.get_var(name).or_else(|| dynamic(self.sh, name));
                if v.is_none() && self.sh.opts.nounset {
                    return Err(format!("{UNBOUND_MARK}{name}: unbound variable"));
                }
                (v, None)
            }
            Some((a, z)) => self.element(name, &s[a..z])?,
        };
        let tval = match value {
            Some(v) => self.value(&v, start)?,
            None => 0,
        };
        self.curlval = LVal { tok: self.tokstr, ind };
        Ok(tval)
    }

    /// A variable's value as an expression, one evaluation deeper; `pos` is
    /// where its name starts (bash's error token when that is too deep).
    pub(super) fn value(&mut self, v: &str, pos: usize) -> Result<i64, String> {
        let t = v.trim_matches([' ', '\t', '\n']);
        if t.is_empty() {
            return Ok(0);
        }
        if self.depth + 1 >= MAX_EXPR_RECURSION || crate::limits::stack_low() {
            self.lasttp = pos;
            return Err(self.err("expression recursion level exceeded"));
        }
        if let Some(n) = plain_decimal(t) {
            return Ok(n);
        }
        eval_str(self.sh, v, self.depth + 1)
    }

    /// An index as bash computes it for an element of an indexed array
    /// (its own evaluation: an error there ends the shell).
    pub(super) fn index(&mut self, sub: &str) -> Result<i64, String> {
        if self.depth + 1 >= MAX_EXPR_RECURSION || crate::limits::stack_low() {
            return Err(self.err("expression recursion level exceeded"));
        }
        eval_str(self.sh, sub, self.depth + 1).map_err(|m| {
            if m.starts_with('\u{1}') {
                m
            } else {
                format!("{SUB_MARK}{m}")
            }
        })
    }

    /// `name[sub]` read: its value and, for an indexed array, the index.
    pub(super) fn element(&mut self, name: &str, sub: &str) -> Result<(Option<String>, Option<i64>), String> {
        if self.sh.opts.nounset && self.sh.vars.get_set(name).is_none() {
            return Err(format!("{UNBOUND_MARK}{name}: unbound variable"));
        }
        let assoc = matches!(self.sh.vars.get_set(name).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_)));
        if assoc {
            let key = unquote_key(sub);
            let v = match self.sh.vars.get_set(name).and_then(|v| v.value.as_ref()) {
                Some(Value::Assoc(m)) => m.get(key.as_ref()).cloned(),
                _ => None,
            };
            return Ok((v, None));
        }
        let i = self.index(sub)?;
        let var = self.sh.vars.get_set(name).and_then(|v| v.value.as_ref());
        // A scalar is element 0 and has no negative indices.
        let top = match var {
            Some(Value::Indexed(m)) => m.keys().next_back().map_or(0, |k| k + 1),
            _ => 0,
        };
        let at = if i < 0 { top + i } else { i };
        let v = match var {
            Some(Value::Indexed(m)) => m.get(&at).cloned(),
            Some(Value::Scalar(s)) if at == 0 => Some(s.clone()),
            _ => None,
        };
        if at < 0 {
            self.warn(format!("{name}: bad array subscript"));
        }
        Ok((v, Some(i)))
    }

    /// Assign to the variable token `tok` (a name, or `name[sub]`); `ind` is
    /// the index already computed for an indexed element.
    pub(super) fn bind(&mut self, tok: (usize, usize), ind: Option<i64>, v: i64) -> Result<(), String> {
        let s = self.s;
        let text = &s[tok.0..tok.1];
        let Some(open) = text.find('[') else {
            return self.sh.set_var(text, v.to_string()).map_err(|m| {
                if m.ends_with(": readonly variable") {
                    format!("{BARE_MARK}{m}")
                } else {
                    m
                }
            });
        };
        let n = &text[..open];
        let sub = &text[open + 1..text.len() - 1];
        if matches!(self.sh.vars.get_set(n).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_))) {
            let var = self.sh.vars.entry(n);
            if var.readonly {
                return Err(format!("{BARE_MARK}{n}: readonly variable"));
            }
            if let Some(Value::Assoc(m)) = &mut var.value {
                m.insert(unquote_key(sub).into_owned(), v.to_string());
            }
            return Ok(());
        }
        let mut i = match ind {
            Some(i) => i,
            None => self.index(sub)?,
        };
        let var = self.sh.vars.entry(n);
        if var.readonly {
            return Err(format!("{BARE_MARK}{n}: readonly variable"));
        }
        if i < 0 {
            let top = match &var.value {
                Some(Value::Indexed(m)) => m.keys().next_back().map_or(0, |k| k + 1),
                Some(Value::Scalar(_)) => 1,
                _ => 0,
            };
            i += top;
            if i < 0 {
                self.warn(format!("{text}: bad array subscript"));
                return Ok(());
            }
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
        Ok(())
    }
}

/// An associative key written in arithmetic (`A['k']`, `A["k"]`, `A[\k]`):
/// its quotes removed, as bash removes them.
fn unquote_key(sub: &str) -> std::borrow::Cow<'_, str> {
    if !sub.contains(['\'', '"', '\\']) {
        return std::borrow::Cow::Borrowed(sub);
    }
    let mut out = String::with_capacity(sub.len());
    let mut chars = sub.chars();
    let mut double = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => out.extend(chars.by_ref().take_while(|&q| q != '\'')),
            '"' => double = !double,
            '\\' => match chars.next() {
                Some(n) if !double || matches!(n, '"' | '\\' | '$' | '`') => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}
