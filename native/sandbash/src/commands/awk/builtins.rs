//! awk's builtin functions (POSIX plus the gawk ones scripts use: gensub,
//! strftime, systime, mktime, asort, asorti, bit operations, ...).

use super::interp::{fatal, split_re, Cell, Ctl, Interp, R};
use super::parser::{Expr, LValue, Var, V_RLENGTH, V_RSTART};
use super::value::{compare, Value};
use regex::Regex;

/// gawk's `random()` (BSD additive feedback generator, as glibc's
/// `random_r` with a 256-byte state), so `rand()` gives gawk's sequence.
pub struct Random {
    state: Vec<i32>,
    f: usize,
    r: usize,
    pub seed: f64,
}

const DEG: usize = 63;
const SEP: usize = 1;

impl Random {
    pub fn new() -> Random {
        let mut r = Random { state: vec![0; DEG], f: SEP, r: 0, seed: 1.0 };
        r.srandom(1);
        r
    }

    pub fn srandom(&mut self, seed: u32) {
        let mut word = if seed == 0 { 1 } else { seed as i32 };
        self.state[0] = word;
        for i in 1..DEG {
            let hi = word / 127_773;
            let lo = word % 127_773;
            word = 16_807i32.wrapping_mul(lo).wrapping_sub(2_836i32.wrapping_mul(hi));
            if word < 0 {
                word = word.wrapping_add(2_147_483_647);
            }
            self.state[i] = word;
        }
        self.f = SEP;
        self.r = 0;
        for _ in 0..DEG * 10 {
            self.random();
        }
    }

    pub fn random(&mut self) -> u32 {
        let v = (self.state[self.f] as u32).wrapping_add(self.state[self.r] as u32);
        self.state[self.f] = v as i32;
        self.f += 1;
        self.r += 1;
        if self.f >= DEG {
            self.f = 0;
        } else if self.r >= DEG {
            self.r = 0;
        }
        v >> 1
    }

    /// gawk's `rand()`: two draws make one double in [0, 1).
    pub fn rand(&mut self) -> f64 {
        const DIV: f64 = 2_147_483_648.0;
        loop {
            let d1 = f64::from(self.random());
            let d2 = f64::from(self.random());
            let t = 0.5 + ((d1 / DIV + d2) / DIV) - 0.5;
            if t != 1.0 {
                return t;
            }
        }
    }
}

/// Character count of a byte prefix.
fn chars_before(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

/// Expand a sub/gsub replacement as gawk does: `&` is the match, `\&` a
/// literal `&`, `\\&` a backslash then the match; other backslashes stay.
fn expand_sub(repl: &[char], m: &str, out: &mut String) {
    let mut i = 0;
    while i < repl.len() {
        let c = repl[i];
        if c == '\\' && repl.get(i + 1) == Some(&'&') {
            out.push('&');
            i += 2;
        } else if c == '\\' && repl.get(i + 1) == Some(&'\\') && repl.get(i + 2) == Some(&'&') {
            out.push('\\');
            i += 2;
        } else if c == '&' {
            out.push_str(m);
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
}

/// Expand a gensub replacement (`\0`/`&` the match, `\N` a group).
fn expand_gensub(repl: &[char], caps: &regex::Captures, out: &mut String) {
    let mut i = 0;
    while i < repl.len() {
        let c = repl[i];
        match (c, repl.get(i + 1)) {
            ('\\', Some(&d)) if d.is_ascii_digit() => {
                let n = d as usize - '0' as usize;
                out.push_str(caps.get(n).map_or("", |m| m.as_str()));
                i += 2;
            }
            ('\\', Some('&')) => {
                out.push('&');
                i += 2;
            }
            ('\\', Some('\\')) => {
                out.push('\\');
                i += 2;
            }
            ('&', _) => {
                out.push_str(caps.get(0).map_or("", |m| m.as_str()));
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
}

/// Replace matches of `re` in `s`: all of them (`which == 0`) or the
/// `which`-th. An empty match right after a match is skipped, as in gawk.
fn substitute(
    re: &Regex,
    s: &str,
    which: usize,
    mut expand: impl FnMut(&regex::Captures, &mut String),
) -> (String, usize) {
    let mut out = String::new();
    let mut pos = 0;
    let mut last_end: Option<usize> = None;
    let mut count = 0;
    let mut seen = 0;
    while pos <= s.len() {
        let Some(caps) = re.captures_at(s, pos) else { break };
        let Some(m) = caps.get(0) else { break };
        if m.is_empty() && last_end == Some(m.start()) {
            // Copy one character and look again after it.
            let Some(c) = s[m.start()..].chars().next() else { break };
            out.push_str(&s[pos..m.start() + c.len_utf8()]);
            pos = m.start() + c.len_utf8();
            continue;
        }
        seen += 1;
        out.push_str(&s[pos..m.start()]);
        if which == 0 || seen == which {
            expand(&caps, &mut out);
            count += 1;
        } else {
            out.push_str(m.as_str());
        }
        last_end = Some(m.end());
        if m.is_empty() {
            match s[m.end()..].chars().next() {
                Some(c) => {
                    out.push(c);
                    pos = m.end() + c.len_utf8();
                }
                None => {
                    pos = s.len() + 1;
                }
            }
        } else {
            pos = m.end();
        }
        if which != 0 && seen >= which {
            break;
        }
    }
    if pos <= s.len() {
        out.push_str(&s[pos..]);
    }
    (out, count)
}

fn num(x: f64) -> Value {
    Value::Num(x)
}

fn to_u64(x: f64) -> u64 {
    if x < 0.0 {
        (x as i64) as u64
    } else {
        x as u64
    }
}

impl<'p> Interp<'p, '_, '_> {
    fn array_arg(&mut self, e: &'p Expr, fname: &str) -> R<usize> {
        match e {
            Expr::Lv(LValue::Var(v)) => self.array_id(*v),
            _ => fatal(format!("{fname}: second argument is not an array")),
        }
    }

    async fn str_arg(&mut self, e: &'p Expr) -> R<String> {
        let v = self.ev(e).await?;
        Ok(v.str(&self.convfmt))
    }

    async fn num_arg(&mut self, e: &'p Expr) -> R<f64> {
        Ok(self.ev(e).await?.num())
    }

    pub async fn builtin(&mut self, name: &str, a: &'p [Expr]) -> R<Value> {
        let n = a.len();
        let bad = |min: usize, max: usize| -> R<()> {
            if n < min || n > max {
                return fatal(format!("{name}: called with {n} arguments"));
            }
            Ok(())
        };
        match name {
            "length" => {
                bad(0, 1)?;
                if n == 0 {
                    return Ok(num(self.record().chars().count() as f64));
                }
                if let Expr::Lv(LValue::Var(v)) = &a[0] {
                    if let Cell::Arr(id) = self.cell_of(*v) {
                        return Ok(num(self.arrays[id].len() as f64));
                    }
                }
                let s = self.str_arg(&a[0]).await?;
                Ok(num(s.chars().count() as f64))
            }
            "substr" => {
                bad(2, 3)?;
                let s = self.str_arg(&a[0]).await?;
                let m = self.num_arg(&a[1]).await?;
                let len = if n == 3 { self.num_arg(&a[2]).await? } else { f64::INFINITY };
                let m = if m.is_nan() { 1.0 } else { m.trunc().max(1.0) };
                let len = if len.is_nan() { 0.0 } else { len.trunc() };
                if len <= 0.0 {
                    return Ok(Value::Str(String::new()));
                }
                let take = if len.is_infinite() { usize::MAX } else { len as usize };
                Ok(Value::Str(s.chars().skip(m as usize - 1).take(take).collect()))
            }
            "index" => {
                bad(2, 2)?;
                let s = self.str_arg(&a[0]).await?;
                let t = self.str_arg(&a[1]).await?;
                Ok(num(s.find(&t).map_or(0, |i| chars_before(&s, i) + 1) as f64))
            }
            "split" | "patsplit" => {
                bad(2, 4)?;
                let s = self.str_arg(&a[0]).await?;
                let id = self.array_arg(&a[1], name)?;
                let seps_id = if n == 4 { Some(self.array_arg(&a[3], name)?) } else { None };
                let parts: Vec<String> = if name == "patsplit" {
                    let re = if n >= 3 { self.regex_of(&a[2]).await? } else { self.dyn_regex("[^[:space:]]+")? };
                    re.find_iter(&s).filter(|m| !m.is_empty()).map(|m| m.as_str().to_string()).collect()
                } else if n >= 3 {
                    match &a[2] {
                        Expr::Regex(i) => {
                            let re = self.lit_re[*i].clone();
                            if s.is_empty() {
                                Vec::new()
                            } else {
                                split_re(&re, &s)
                            }
                        }
                        e => {
                            let fs = self.str_arg(e).await?;
                            self.split_str(&s, &fs, false)?
                        }
                    }
                } else {
                    let fs = self.fs_value();
                    self.split_str(&s, &fs, false)?
                };
                if let Some(sid) = seps_id {
                    self.arrays[sid].clear();
                }
                let arr = &mut self.arrays[id];
                arr.clear();
                let count = parts.len();
                for (i, p) in parts.into_iter().enumerate() {
                    arr.set((i + 1).to_string(), Value::from_input(p));
                }
                Ok(num(count as f64))
            }
            "sub" | "gsub" => {
                bad(2, 3)?;
                let re = self.regex_of(&a[0]).await?;
                let repl: Vec<char> = self.str_arg(&a[1]).await?.chars().collect();
                let target = match a.get(2) {
                    Some(e) => self.ev(e).await?.str(&self.convfmt),
                    None => self.record().to_string(),
                };
                let (out, count) = substitute(&re, &target, usize::from(name == "sub"), |c, o| {
                    expand_sub(&repl, c.get(0).map_or("", |m| m.as_str()), o)
                });
                if count > 0 {
                    match a.get(2) {
                        Some(Expr::Lv(lv)) => self.assign(lv, Value::Str(out)).await?,
                        Some(_) => {}
                        None => drop(self.set_record(out)),
                    }
                }
                Ok(num(count as f64))
            }
            "gensub" => {
                bad(3, 4)?;
                let re = self.regex_of(&a[0]).await?;
                let repl: Vec<char> = self.str_arg(&a[1]).await?.chars().collect();
                let how = self.ev(&a[2]).await?;
                let target = match a.get(3) {
                    Some(e) => self.str_arg(e).await?,
                    None => self.record().to_string(),
                };
                let which = match how.as_str() {
                    Some(h) if h.starts_with(['g', 'G']) => 0,
                    _ => (how.num() as i64).max(1) as usize,
                };
                let (out, _) = substitute(&re, &target, which, |c, o| expand_gensub(&repl, c, o));
                Ok(Value::Str(out))
            }
            "match" => {
                bad(2, 3)?;
                let s = self.str_arg(&a[0]).await?;
                let re = self.regex_of(&a[1]).await?;
                let arr = if n == 3 { Some(self.array_arg(&a[2], name)?) } else { None };
                let caps = re.captures(&s);
                let (start, len) = match &caps {
                    Some(c) => {
                        let m = c.get(0).map_or(0..0, |m| m.range());
                        (chars_before(&s, m.start) + 1, s[m].chars().count() as f64)
                    }
                    None => (0, -1.0),
                };
                self.globals[V_RSTART] = Cell::Val(num(start as f64));
                self.globals[V_RLENGTH] = Cell::Val(num(len));
                if let Some(id) = arr {
                    self.arrays[id].clear();
                    if let Some(c) = caps {
                        for (i, g) in c.iter().enumerate() {
                            if let Some(g) = g {
                                let arr = &mut self.arrays[id];
                                arr.set(i.to_string(), Value::from_input(g.as_str().to_string()));
                                let sub = &self.subsep;
                                let st = (chars_before(&s, g.start()) + 1) as f64;
                                let ln = g.as_str().chars().count() as f64;
                                arr.set(format!("{i}{sub}start"), num(st));
                                arr.set(format!("{i}{sub}length"), num(ln));
                            }
                        }
                    }
                }
                Ok(num(start as f64))
            }
            "sprintf" => {
                if n == 0 {
                    return fatal("sprintf: called with 0 arguments");
                }
                let mut vals = Vec::with_capacity(n);
                for e in a {
                    vals.push(self.ev(e).await?);
                }
                let fmt = vals.remove(0).str(&self.convfmt);
                let s = super::format::sprintf(&fmt, &vals, &self.convfmt).or_else(fatal)?;
                Ok(Value::Str(s))
            }
            "sin" | "cos" | "exp" | "log" | "sqrt" | "int" => {
                bad(1, 1)?;
                let x = self.num_arg(&a[0]).await?;
                let r = match name {
                    "sin" => x.sin(),
                    "cos" => x.cos(),
                    "exp" => x.exp(),
                    "log" => {
                        if x < 0.0 {
                            self.warn(&format!(
                                "log: received negative argument {}",
                                super::value::num_to_str(x, "%.6g")
                            ))
                            .await?;
                            -f64::NAN
                        } else {
                            x.ln()
                        }
                    }
                    "sqrt" => {
                        if x < 0.0 {
                            self.warn(&format!(
                                "sqrt: called with negative argument {}",
                                super::value::num_to_str(x, "%.6g")
                            ))
                            .await?;
                            -f64::NAN
                        } else {
                            x.sqrt()
                        }
                    }
                    _ => x.trunc(),
                };
                Ok(num(r))
            }
            "atan2" => {
                bad(2, 2)?;
                let y = self.num_arg(&a[0]).await?;
                let x = self.num_arg(&a[1]).await?;
                Ok(num(y.atan2(x)))
            }
            "rand" => {
                bad(0, 0)?;
                Ok(num(self.rand.rand()))
            }
            "srand" => {
                bad(0, 1)?;
                let prev = self.rand.seed;
                let seed = if n == 1 { self.num_arg(&a[0]).await?.trunc() } else { self.now as f64 };
                self.rand.seed = seed;
                self.rand.srandom(seed as i64 as u32);
                Ok(num(prev))
            }
            "tolower" | "toupper" => {
                bad(1, 1)?;
                let s = self.str_arg(&a[0]).await?;
                let up = name == "toupper";
                Ok(Value::Str(
                    s.chars()
                        .map(|c| {
                            let m: Vec<char> = if up { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
                            if m.len() == 1 {
                                m[0]
                            } else {
                                c
                            }
                        })
                        .collect(),
                ))
            }
            "systime" => {
                bad(0, 0)?;
                Ok(num(self.now as f64))
            }
            "strftime" => {
                bad(0, 3)?;
                let fmt = if n >= 1 { self.str_arg(&a[0]).await? } else { "%a %b %e %H:%M:%S %Z %Y".to_string() };
                let t = if n >= 2 { self.num_arg(&a[1]).await? as i64 } else { self.now };
                if n >= 3 {
                    self.ev(&a[2]).await?;
                }
                let out = crate::commands::util::strftime::strftime(fmt.as_bytes(), t);
                Ok(Value::Str(String::from_utf8_lossy(&out).into_owned()))
            }
            "mktime" => {
                bad(1, 2)?;
                let s = self.str_arg(&a[0]).await?;
                let p: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap_or(0)).collect();
                if p.len() < 6 {
                    return Ok(num(-1.0));
                }
                Ok(num(mktime(p[0], p[1], p[2], p[3], p[4], p[5]) as f64))
            }
            "close" => {
                bad(1, 2)?;
                let s = self.str_arg(&a[0]).await?;
                Ok(num(self.close(&s).await?))
            }
            "fflush" => {
                bad(0, 1)?;
                self.flush_all().await?;
                Ok(num(0.0))
            }
            "system" => {
                let cmd = if n > 0 { self.str_arg(&a[0]).await? } else { String::new() };
                fatal(format!("system(\"{cmd}\"): running commands is not supported in this sandbox"))
            }
            "and" | "or" | "xor" => {
                if n < 2 {
                    return fatal(format!("{name}: called with less than two arguments"));
                }
                let mut acc = to_u64(self.num_arg(&a[0]).await?);
                for e in &a[1..] {
                    let v = to_u64(self.num_arg(e).await?);
                    acc = match name {
                        "and" => acc & v,
                        "or" => acc | v,
                        _ => acc ^ v,
                    };
                }
                Ok(num(acc as f64))
            }
            "lshift" | "rshift" => {
                bad(2, 2)?;
                let v = to_u64(self.num_arg(&a[0]).await?);
                let s = (self.num_arg(&a[1]).await? as u32).min(63);
                Ok(num(if name == "lshift" { v << s } else { v >> s } as f64))
            }
            "compl" => {
                bad(1, 1)?;
                let v = to_u64(self.num_arg(&a[0]).await?);
                // gawk keeps 53 bits (the exact integers of a double).
                Ok(num((!v & ((1u64 << 53) - 1)) as f64))
            }
            "asort" | "asorti" => {
                bad(1, 2)?;
                let src = self.array_arg(&a[0], name)?;
                let dst = if n == 2 { self.array_arg(&a[1], name)? } else { src };
                let mut vals: Vec<Value> = if name == "asorti" {
                    self.arrays[src].keys().into_iter().map(Value::Str).collect()
                } else {
                    self.arrays[src].values()
                };
                let cf = self.convfmt.clone();
                // Numbers before strings, numbers by value, strings by bytes.
                vals.sort_by(|x, y| {
                    let nx = matches!(x, Value::Num(_) | Value::StrNum(..) | Value::Uninit);
                    let ny = matches!(y, Value::Num(_) | Value::StrNum(..) | Value::Uninit);
                    match (nx, ny) {
                        (true, false) => std::cmp::Ordering::Less,
                        (false, true) => std::cmp::Ordering::Greater,
                        _ => compare(x, y, &cf),
                    }
                });
                let arr = &mut self.arrays[dst];
                arr.clear();
                let count = vals.len();
                for (i, v) in vals.into_iter().enumerate() {
                    arr.set((i + 1).to_string(), v);
                }
                Ok(num(count as f64))
            }
            "isarray" => {
                bad(1, 1)?;
                let is = matches!(&a[0], Expr::Lv(LValue::Var(v)) if matches!(self.cell_of(*v), Cell::Arr(_)));
                Ok(num(f64::from(u8::from(is))))
            }
            "typeof" => {
                bad(1, 2)?;
                if let Expr::Lv(LValue::Var(v)) = &a[0] {
                    if let Cell::Arr(_) = self.cell_of(*v) {
                        return Ok(Value::Str("array".into()));
                    }
                }
                let t = match &a[0] {
                    Expr::Regex(_) => "regexp",
                    e => match self.ev(e).await? {
                        Value::Uninit => "untyped",
                        Value::Num(_) => "number",
                        Value::StrNum(..) => "strnum",
                        Value::Str(_) => "string",
                    },
                };
                Ok(Value::Str(t.into()))
            }
            _ => fatal(format!("function `{name}' not defined")),
        }
    }

    pub fn cell_of(&self, v: Var) -> Cell {
        match v {
            Var::Global(i) => self.globals[i].clone(),
            Var::Local(_) => match self.get_local(v) {
                Some(c) => c,
                None => Cell::Val(Value::Uninit),
            },
        }
    }

    /// A warning on stderr, gawk style.
    pub async fn warn(&mut self, msg: &str) -> R<()> {
        let loc = self.location();
        let line = format!("{}: {loc}warning: {msg}\n", self.name);
        self.ctx.stderr.write(line.as_bytes()).await.map_err(Ctl::Io)
    }
}

/// Seconds since the epoch of a UTC calendar time (fields may overflow).
pub fn mktime(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> i64 {
    let m0 = mo - 1;
    let y = y + m0.div_euclid(12);
    let m = m0.rem_euclid(12) + 1;
    let (yy, mm) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468 + (d - 1);
    days * 86_400 + h * 3600 + mi * 60 + s
}
