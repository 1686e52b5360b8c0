//! The awk interpreter: variables and arrays, records and fields, statements
//! and expressions. Evaluation is async (print may wait on a pipe, getline on
//! stdin), so recursive evaluation goes through boxed futures; expressions
//! that cannot wait take the synchronous path in `sync_eval.rs`.

mod fields;
pub use fields::split_re;

mod streams;

use super::io::{Reader, RsMode};
use super::parser::*;
use super::value::{compare, num_to_str, str_to_num, Value};
use crate::commands::CommandContext;
use crate::interp::GrowStack;
use crate::io::IoError;
use futures_util::future::{BoxFuture, FutureExt};
use regex::Regex;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use sync_eval::is_sync;

#[path = "sync_eval.rs"]
mod sync_eval;

/// Why evaluation stopped early.
#[derive(Debug)]
pub enum Ctl {
    Break,
    Continue,
    Next,
    NextFile,
    Exit,
    Return(Value),
    /// `awk: cmd. line:N: fatal: msg`, status 2.
    Fatal(String),
    /// `awk: fatal: msg` (no source location), status 2.
    FatalBare(String),
    Io(IoError),
    /// The exec's deadline passed or it was cancelled.
    Stop,
}

impl From<IoError> for Ctl {
    fn from(e: IoError) -> Ctl {
        Ctl::Io(e)
    }
}

pub type R<T> = Result<T, Ctl>;

pub fn fatal<T>(msg: impl Into<String>) -> R<T> {
    Err(Ctl::Fatal(msg.into()))
}

/// An associative array keeping insertion order (gawk's order is unspecified).
#[derive(Default, Debug)]
pub struct Array {
    map: HashMap<String, usize>,
    slots: Vec<Option<(String, Value)>>,
}

impl Array {
    pub fn get(&self, k: &str) -> Option<&Value> {
        self.map.get(k).and_then(|&i| self.slots[i].as_ref()).map(|(_, v)| v)
    }
    pub fn contains(&self, k: &str) -> bool {
        self.map.contains_key(k)
    }
    pub fn set(&mut self, k: String, v: Value) {
        match self.map.get(&k) {
            Some(&i) => {
                if let Some(slot) = &mut self.slots[i] {
                    slot.1 = v;
                }
            }
            None => {
                // Both tables double when full; the budget is asked first (a
                // refusal stops the exec, which ends at its next check).
                if let Err(stop) = self.before_growth() {
                    crate::limits::scope::stop_exec(stop);
                    return;
                }
                self.map.insert(k.clone(), self.slots.len());
                self.slots.push(Some((k, v)));
            }
        }
    }
    fn before_growth(&self) -> Result<(), crate::limits::Stop> {
        crate::limits::scope::before_push(&self.slots)?;
        let cap = self.map.capacity();
        if self.map.len() == cap && cap >= 4096 {
            let entry = std::mem::size_of::<(String, usize)>() as u64 + 1;
            crate::limits::scope::reserve((cap as u64).saturating_mul(2 * entry * 8 / 7))?;
        }
        Ok(())
    }
    pub fn remove(&mut self, k: &str) {
        if let Some(i) = self.map.remove(k) {
            self.slots[i] = None;
            if self.slots.len() > 32 && self.map.len() * 2 < self.slots.len() {
                self.slots.retain(Option::is_some);
                for (i, s) in self.slots.iter().enumerate() {
                    if let Some((k, _)) = s {
                        self.map.insert(k.clone(), i);
                    }
                }
            }
        }
    }
    pub fn clear(&mut self) {
        self.map.clear();
        self.slots.clear();
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn keys(&self) -> Vec<String> {
        self.slots.iter().flatten().map(|(k, _)| k.clone()).collect()
    }
    pub fn values(&self) -> Vec<Value> {
        self.slots.iter().flatten().map(|(_, v)| v.clone()).collect()
    }
}

#[derive(Clone, Debug)]
pub enum Cell {
    Val(Value),
    Arr(usize),
}

struct Frame {
    locals: Vec<Cell>,
    /// Arrays created for this call's locals, freed when it returns.
    owned: Vec<usize>,
}

/// Where an lvalue lives, resolved once for `x op= y` and `x++`.
enum Loc {
    Var(Var),
    Field(usize),
    Elem(usize, String),
}

/// An output file opened by `print > "name"`.
struct OutFile {
    path: String,
    buf: Vec<u8>,
}

/// Main input: the ARGV operands in turn, or stdin.
#[derive(Default)]
struct MainInput {
    argi: usize,
    reader: Option<Reader>,
    opened_any: bool,
    done: bool,
}

pub struct Interp<'p, 'c, 'a> {
    pub prog: &'p Program,
    pub ctx: &'c CommandContext<'a>,
    /// How the program refers to itself in messages (`awk`).
    pub name: String,
    pub src_names: Vec<String>,
    pub globals: Vec<Cell>,
    frames: Vec<Frame>,
    pub arrays: Vec<Array>,
    free_arrays: Vec<usize>,
    // Shared: cloning a `Regex` builds a new match-cache pool each time.
    pub lit_re: Vec<Arc<Regex>>,
    dyn_re: HashMap<String, Arc<Regex>>,
    // Record state.
    record: String,
    /// The split record as values, once a field was assigned (or the split
    /// needed a regex or characters).
    fields: Vec<Value>,
    /// Until then where each field lies in `record`: reading `$3` makes a
    /// value of that field only.
    spans: Vec<(usize, usize)>,
    /// `fields`, not `spans`, holds the split.
    materialized: bool,
    split_done: bool,
    record_stale: bool,
    // Cached special variables.
    pub convfmt: String,
    pub ofmt: String,
    pub subsep: String,
    ofs: String,
    ors: String,
    fs: String,
    rs: RsMode,
    // I/O.
    out_buf: Vec<u8>,
    /// The line `print` is building (kept for its capacity).
    line_buf: String,
    files: HashMap<String, OutFile>,
    inputs: HashMap<String, Reader>,
    main: MainInput,
    pub exit_code: i32,
    pub range_active: Vec<bool>,
    steps: u64,
    pub cur_line: (usize, usize),
    pub rand: super::builtins::Random,
    pub now: i64,
}

const MAX_FIELD: usize = 1 << 20;

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    pub fn new(prog: &'p Program, ctx: &'c CommandContext<'a>, name: String, src_names: Vec<String>) -> Self {
        let mut globals = vec![Cell::Val(Value::Uninit); prog.globals.len()];
        let mut arrays = Vec::new();
        for slot in [V_ENVIRON, V_ARGV] {
            globals[slot] = Cell::Arr(arrays.len());
            arrays.push(Array::default());
        }
        let s = |x: &str| Cell::Val(Value::Str(x.into()));
        globals[V_FS] = s(" ");
        globals[V_OFS] = s(" ");
        globals[V_ORS] = s("\n");
        globals[V_RS] = s("\n");
        globals[V_SUBSEP] = s("\x1c");
        globals[V_CONVFMT] = s("%.6g");
        globals[V_OFMT] = s("%.6g");
        globals[V_NR] = Cell::Val(Value::Num(0.0));
        globals[V_FNR] = Cell::Val(Value::Num(0.0));
        globals[V_NF] = Cell::Val(Value::Num(0.0));
        globals[V_RSTART] = Cell::Val(Value::Num(0.0));
        globals[V_RLENGTH] = Cell::Val(Value::Num(-1.0));
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        Interp {
            prog,
            ctx,
            name,
            src_names,
            globals,
            frames: Vec::new(),
            arrays,
            free_arrays: Vec::new(),
            lit_re: Vec::new(),
            dyn_re: HashMap::new(),
            record: String::new(),
            fields: Vec::new(),
            spans: Vec::new(),
            materialized: true,
            split_done: true,
            record_stale: false,
            convfmt: "%.6g".into(),
            ofmt: "%.6g".into(),
            subsep: "\x1c".into(),
            ofs: " ".into(),
            ors: "\n".into(),
            fs: " ".into(),
            rs: RsMode::Char("\n".into()),
            out_buf: Vec::new(),
            line_buf: String::new(),
            files: HashMap::new(),
            inputs: HashMap::new(),
            main: MainInput { argi: 1, ..MainInput::default() },
            exit_code: 0,
            range_active: vec![false; prog.rules.len()],
            steps: 0,
            cur_line: (0, 1),
            rand: super::builtins::Random::new(),
            now,
        }
    }

    /// Count a step of a loop; check the deadline now and then.
    pub fn tick(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps & 1023 == 0 && !self.ctx.still_running() {
            return Err(Ctl::Stop);
        }
        Ok(())
    }

    // ----- variables -------------------------------------------------------

    fn var_name(&self, v: Var) -> String {
        match v {
            Var::Global(i) => self.prog.globals[i].clone(),
            Var::Local(_) => "parameter".into(),
        }
    }

    fn cell(&self, v: Var) -> &Cell {
        match v {
            Var::Global(i) => &self.globals[i],
            Var::Local(i) => &self.frames.last().expect("local outside a function").locals[i],
        }
    }

    fn cell_mut(&mut self, v: Var) -> &mut Cell {
        match v {
            Var::Global(i) => &mut self.globals[i],
            Var::Local(i) => &mut self.frames.last_mut().expect("local outside a function").locals[i],
        }
    }

    pub fn get_var(&mut self, v: Var) -> R<Value> {
        if v == Var::Global(V_NF) {
            self.ensure_split();
        }
        match self.cell(v) {
            Cell::Val(x) => Ok(x.clone()),
            Cell::Arr(_) => fatal(format!("attempt to use array `{}' in a scalar context", self.var_name(v))),
        }
    }

    pub fn set_var(&mut self, v: Var, val: Value) -> R<()> {
        if let Var::Global(i) = v {
            if i < SPECIALS.len() {
                self.set_special(i, &val)?;
                if i == V_NF {
                    return Ok(());
                }
            }
        }
        let name_if_array = matches!(self.cell(v), Cell::Arr(_));
        if name_if_array {
            return fatal(format!("attempt to use array `{}' in a scalar context", self.var_name(v)));
        }
        *self.cell_mut(v) = Cell::Val(val);
        Ok(())
    }

    fn set_special(&mut self, i: usize, val: &Value) -> R<()> {
        match i {
            V_NF => {
                let n = val.num();
                if n < 0.0 {
                    return fatal(format!("NF set to negative value {}", num_to_str(n, "%.6g")));
                }
                self.set_nf((n as usize).min(MAX_FIELD));
            }
            V_FS => {
                self.ensure_split();
                self.fs = val.str(&self.convfmt);
            }
            V_OFS => {
                self.ensure_split();
                if self.record_stale {
                    self.rebuild();
                }
                self.ofs = val.str(&self.convfmt);
            }
            V_ORS => self.ors = val.str(&self.convfmt),
            V_SUBSEP => self.subsep = val.str(&self.convfmt),
            V_CONVFMT => self.convfmt = val.str(&self.convfmt),
            V_OFMT => self.ofmt = val.str(&self.convfmt),
            V_RS => {
                let s = val.str(&self.convfmt);
                self.rs = if s.is_empty() {
                    RsMode::Para
                } else if s.chars().count() == 1 {
                    RsMode::Char(s)
                } else {
                    RsMode::Regex(self.dyn_regex(&s)?)
                };
            }
            _ => {}
        }
        Ok(())
    }

    /// The array a variable names, created when it is unset.
    pub fn array_id(&mut self, v: Var) -> R<usize> {
        match self.cell(v) {
            Cell::Arr(id) => Ok(*id),
            Cell::Val(Value::Uninit) => {
                let id = self.alloc_array();
                *self.cell_mut(v) = Cell::Arr(id);
                if let (Var::Local(_), Some(f)) = (v, self.frames.last_mut()) {
                    f.owned.push(id);
                }
                Ok(id)
            }
            Cell::Val(_) => fatal(format!("attempt to use scalar `{}' as an array", self.var_name(v))),
        }
    }

    fn alloc_array(&mut self) -> usize {
        match self.free_arrays.pop() {
            Some(id) => id,
            None => {
                self.arrays.push(Array::default());
                self.arrays.len() - 1
            }
        }
    }

    pub async fn subscript(&mut self, subs: &'p [Expr]) -> R<String> {
        if subs.len() == 1 {
            return Ok(self.eval(&subs[0]).await?.str(&self.convfmt));
        }
        let mut k = String::new();
        for (i, e) in subs.iter().enumerate() {
            if i > 0 {
                k.push_str(&self.subsep);
            }
            let v = self.eval(e).await?;
            k.push_str(&v.str(&self.convfmt));
        }
        Ok(k)
    }

    // ----- regexes ---------------------------------------------------------

    pub fn dyn_regex(&mut self, s: &str) -> R<Arc<Regex>> {
        if let Some(r) = self.dyn_re.get(s) {
            return Ok(r.clone());
        }
        let limit = self.ctx.budget.limits.max_regex_bytes as usize;
        let re = super::regex::compile(s, limit).or_else(|e| fatal(format!("invalid regexp: {e}: /{s}/")))?;
        if self.dyn_re.len() > 500 {
            self.dyn_re.clear();
        }
        self.dyn_re.insert(s.to_string(), re.clone());
        Ok(re)
    }

    /// A regex operand: a `/re/` literal, or any value as a dynamic regex.
    pub async fn regex_of(&mut self, e: &'p Expr) -> R<Arc<Regex>> {
        if let Expr::Regex(i) = e {
            return Ok(self.lit_re[*i].clone());
        }
        let v = self.eval(e).await?;
        let s = v.str(&self.convfmt);
        self.dyn_regex(&s)
    }

    // ----- statements ------------------------------------------------------

    pub fn exec_block<'s>(&'s mut self, b: &'p [Stmt]) -> BoxFuture<'s, R<()>> {
        async move {
            for s in b {
                // The common statements of a rule body, without a boxed future.
                match s {
                    Stmt::Line(src, line) => self.cur_line = (*src, *line),
                    Stmt::Expr(e) if is_sync(e) => {
                        self.eval_sync(e)?;
                    }
                    Stmt::Print(args, None) if args.iter().all(is_sync) => {
                        self.print_sync(args)?;
                        if self.out_buf.len() >= 8192 {
                            self.flush_stdout().await?;
                        }
                    }
                    s => self.exec(s).await?,
                }
            }
            Ok(())
        }
        .boxed()
    }

    /// A `print` argument's text: numbers by OFMT.
    fn push_printed(&self, out: &mut String, v: Value) {
        match v {
            Value::Num(n) => out.push_str(&num_to_str(n, &self.ofmt)),
            v => out.push_str(v.as_str().unwrap_or("")),
        }
    }

    fn exec<'s>(&'s mut self, s: &'p Stmt) -> BoxFuture<'s, R<()>> {
        async move {
            match s {
                Stmt::Line(src, line) => self.cur_line = (*src, *line),
                Stmt::Expr(e) => {
                    self.ev(e).await?;
                }
                Stmt::Print(args, redir) => {
                    let mut out = String::new();
                    if args.is_empty() {
                        out.push_str(self.record());
                    }
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            out.push_str(&self.ofs);
                        }
                        let v = self.ev(a).await?;
                        self.push_printed(&mut out, v);
                    }
                    out.push_str(&self.ors);
                    let r = self.redir(redir).await?;
                    self.write_to(r, &out).await?;
                }
                Stmt::Printf(args, redir) => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.eval(a).await?);
                    }
                    let fmt = vals.remove(0).str(&self.convfmt);
                    let out = super::format::sprintf(&fmt, &vals, &self.convfmt).or_else(fatal)?;
                    let r = self.redir(redir).await?;
                    self.write_to(r, &out).await?;
                }
                Stmt::If(c, t, e) => {
                    if self.cond(c).await? {
                        self.exec(t).await?;
                    } else if let Some(e) = e {
                        self.exec(e).await?;
                    }
                }
                Stmt::While(c, body) => {
                    while self.cond(c).await? {
                        self.tick()?;
                        match self.exec(body).await {
                            Err(Ctl::Break) => break,
                            Err(Ctl::Continue) | Ok(()) => {}
                            Err(e) => return Err(e),
                        }
                    }
                }
                Stmt::Do(body, c) => loop {
                    self.tick()?;
                    match self.exec(body).await {
                        Err(Ctl::Break) => break,
                        Err(Ctl::Continue) | Ok(()) => {}
                        Err(e) => return Err(e),
                    }
                    if !self.cond(c).await? {
                        break;
                    }
                },
                Stmt::For(init, c, step, body) => {
                    if let Some(i) = init {
                        self.exec(i).await?;
                    }
                    loop {
                        self.tick()?;
                        if let Some(c) = c {
                            if !self.cond(c).await? {
                                break;
                            }
                        }
                        match self.exec(body).await {
                            Err(Ctl::Break) => break,
                            Err(Ctl::Continue) | Ok(()) => {}
                            Err(e) => return Err(e),
                        }
                        if let Some(st) = step {
                            self.exec(st).await?;
                        }
                    }
                }
                Stmt::ForIn(v, arr, body) => {
                    let id = self.array_id(*arr)?;
                    let keys = self.arrays[id].keys();
                    for k in keys {
                        self.tick()?;
                        self.set_var(*v, Value::from_input(k))?;
                        match self.exec(body).await {
                            Err(Ctl::Break) => break,
                            Err(Ctl::Continue) | Ok(()) => {}
                            Err(e) => return Err(e),
                        }
                    }
                }
                Stmt::Block(b) => self.exec_block(b).await?,
                Stmt::Next => return Err(Ctl::Next),
                Stmt::NextFile => return Err(Ctl::NextFile),
                Stmt::Break => return Err(Ctl::Break),
                Stmt::Continue => return Err(Ctl::Continue),
                Stmt::Exit(e) => {
                    if let Some(e) = e {
                        self.exit_code = self.eval(e).await?.num() as i32;
                    }
                    return Err(Ctl::Exit);
                }
                Stmt::Return(e) => {
                    let v = match e {
                        Some(e) => self.eval(e).await?,
                        None => Value::Uninit,
                    };
                    return Err(Ctl::Return(v));
                }
                Stmt::Delete(v, subs) => {
                    let id = self.array_id(*v)?;
                    match subs {
                        None => self.arrays[id].clear(),
                        Some(subs) => {
                            let k = self.subscript(subs).await?;
                            self.arrays[id].remove(&k);
                        }
                    }
                }
            }
            Ok(())
        }
        .boxed()
    }

    async fn redir(&mut self, r: &'p Option<(Redir, Expr)>) -> R<Option<(Redir, String)>> {
        match r {
            None => Ok(None),
            Some((k, e)) => {
                let v = self.eval(e).await?;
                Ok(Some((*k, v.str(&self.convfmt))))
            }
        }
    }

    pub async fn cond(&mut self, e: &'p Expr) -> R<bool> {
        Ok(self.ev(e).await?.truthy())
    }

    // ----- expressions -----------------------------------------------------

    pub async fn ev(&mut self, e: &'p Expr) -> R<Value> {
        if is_sync(e) {
            return self.eval_sync(e);
        }
        self.eval(e).await
    }

    async fn resolve(&mut self, lv: &'p LValue) -> R<Loc> {
        Ok(match lv {
            LValue::Var(v) => Loc::Var(*v),
            LValue::Field(e) => {
                let v = self.ev(e).await?;
                Loc::Field(self.field_index(&v)?)
            }
            LValue::Index(v, subs) => {
                let id = self.array_id(*v)?;
                let k = self.subscript(subs).await?;
                Loc::Elem(id, k)
            }
        })
    }

    fn load(&mut self, l: &Loc) -> R<Value> {
        match l {
            Loc::Var(v) => self.get_var(*v),
            Loc::Field(i) => Ok(self.get_field(*i)),
            Loc::Elem(id, k) => {
                let a = &mut self.arrays[*id];
                if let Some(v) = a.get(k) {
                    return Ok(v.clone());
                }
                // Referencing an element creates it.
                a.set(k.clone(), Value::Uninit);
                Ok(Value::Uninit)
            }
        }
    }

    fn store(&mut self, l: &Loc, v: Value) -> R<()> {
        match l {
            Loc::Var(var) => self.set_var(*var, v),
            Loc::Field(i) => {
                self.set_field(*i, v);
                Ok(())
            }
            Loc::Elem(id, k) => {
                self.arrays[*id].set(k.clone(), v);
                Ok(())
            }
        }
    }

    pub async fn assign(&mut self, lv: &'p LValue, v: Value) -> R<()> {
        let l = self.resolve(lv).await?;
        self.store(&l, v)
    }

    /// Arithmetic; `assign` tells `/=` and `%=` apart for gawk's message.
    fn arith(&self, op: BinOp, a: f64, b: f64, assign: bool) -> R<f64> {
        Ok(match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div | BinOp::Mod if b == 0.0 => {
                return fatal(match (op, assign) {
                    (BinOp::Div, false) => "division by zero attempted",
                    (BinOp::Div, true) => "division by zero attempted in `/='",
                    (_, false) => "division by zero attempted in `%'",
                    _ => "division by zero attempted in `%='",
                })
            }
            BinOp::Div => a / b,
            BinOp::Mod => a % b,
            BinOp::Pow => pow(a, b),
        })
    }

    /// `$0 ~ /re/` for the program's regex literal `i`.
    fn record_matches(&mut self, i: usize) -> Value {
        if self.record_stale {
            self.rebuild();
        }
        let m = self.lit_re.get(i).is_some_and(|re| re.is_match(&self.record));
        Value::Num(f64::from(u8::from(m)))
    }

    /// `lv = r` or `lv op= r` at a resolved place; the assigned value.
    fn assign_loc(&mut self, l: &Loc, op: Option<BinOp>, r: Value) -> R<Value> {
        let v = match op {
            None => r,
            Some(op) => {
                let cur = self.load(l)?.num();
                Value::Num(self.arith(op, cur, r.num(), true)?)
            }
        };
        self.store(l, v.clone())?;
        Ok(v)
    }

    /// `++x`, `x--`, ...: `d` is the step, `pre` says which value is the result.
    fn incdec(&mut self, l: &Loc, pre: bool, d: f64) -> R<Value> {
        let old = self.load(l)?.num();
        self.store(l, Value::Num(old + d))?;
        Ok(Value::Num(if pre { old + d } else { old }))
    }

    fn concat(&self, x: Value, y: &Value) -> R<Value> {
        let mut s = match x {
            Value::Str(s) | Value::StrNum(s, _) => s,
            x => x.str(&self.convfmt),
        };
        match y.as_str() {
            Some(t) => s.push_str(t),
            None => s.push_str(&y.str(&self.convfmt)),
        }
        if s.len() as u64 > self.ctx.budget.limits.max_string_bytes {
            return fatal("string too long");
        }
        Ok(Value::Str(s))
    }

    /// Each level of a tree polls the next one: every poll makes sure of
    /// enough stack first (a tree is at most `MAX_TREE_DEPTH` deep, so the
    /// segments this may add stay bounded).
    pub fn eval<'s>(&'s mut self, e: &'p Expr) -> GrowStack<dyn Future<Output = R<Value>> + Send + 's> {
        GrowStack(self.eval_boxed(e))
    }

    fn eval_boxed<'s>(&'s mut self, e: &'p Expr) -> BoxFuture<'s, R<Value>> {
        async move {
            Ok(match e {
                Expr::Num(n) => Value::Num(*n),
                Expr::Str(s) => Value::Str(s.clone()),
                Expr::Regex(i) => self.record_matches(*i),
                Expr::Group(g) => self.ev(g).await?,
                Expr::Lv(lv) => {
                    let l = self.resolve(lv).await?;
                    self.load(&l)?
                }
                Expr::Assign(lv, op, rhs) => {
                    let r = self.ev(rhs).await?;
                    let l = self.resolve(lv).await?;
                    self.assign_loc(&l, *op, r)?
                }
                Expr::Cond(c, a, b) => {
                    if self.ev(c).await?.truthy() {
                        self.ev(a).await?
                    } else {
                        self.ev(b).await?
                    }
                }
                Expr::And(a, b) => {
                    let r = self.ev(a).await?.truthy() && self.ev(b).await?.truthy();
                    Value::Num(f64::from(u8::from(r)))
                }
                Expr::Or(a, b) => {
                    let r = self.ev(a).await?.truthy() || self.ev(b).await?.truthy();
                    Value::Num(f64::from(u8::from(r)))
                }
                Expr::Not(a) => Value::Num(f64::from(u8::from(!self.ev(a).await?.truthy()))),
                Expr::Neg(a) => Value::Num(-self.ev(a).await?.num()),
                Expr::Plus(a) => Value::Num(self.ev(a).await?.num()),
                Expr::Bin(op, a, b) => {
                    let x = self.ev(a).await?.num();
                    let y = self.ev(b).await?.num();
                    Value::Num(self.arith(*op, x, y, false)?)
                }
                Expr::Cmp(op, a, b) => {
                    let x = self.ev(a).await?;
                    let y = self.ev(b).await?;
                    cmp_value(*op, &x, &y, &self.convfmt)
                }
                Expr::Match(neg, a, b) => {
                    let s = self.ev(a).await?.str(&self.convfmt);
                    let re = self.regex_of(b).await?;
                    Value::Num(f64::from(u8::from(re.is_match(&s) != *neg)))
                }
                Expr::Concat(a, b) => {
                    let x = self.ev(a).await?;
                    let y = self.ev(b).await?;
                    self.concat(x, &y)?
                }
                Expr::In(subs, arr) => {
                    let k = self.subscript(subs).await?;
                    let id = self.array_id(*arr)?;
                    Value::Num(f64::from(u8::from(self.arrays[id].contains(&k))))
                }
                Expr::IncDec(lv, pre, d) => {
                    let l = self.resolve(lv).await?;
                    self.incdec(&l, *pre, *d)?
                }
                Expr::Call(f, args) => self.call(*f, args).await?,
                Expr::Builtin(name, args) => self.builtin(name, args).await?,
                Expr::Getline(src, lv) => self.getline(src, lv).await?,
            })
        }
        .boxed()
    }

    async fn getline(&mut self, src: &'p GetSrc, lv: &'p Option<LValue>) -> R<Value> {
        match src {
            GetSrc::Cmd(c) => {
                let cmd = self.ev(c).await?.str(&self.convfmt);
                fatal(format!("cannot open pipe `{cmd}': running commands is not supported in this sandbox"))
            }
            GetSrc::Main => {
                self.flush_stdout().await?;
                let Some(rec) = self.next_main().await? else { return Ok(Value::Num(0.0)) };
                match lv {
                    Some(lv) => self.assign(lv, Value::from_input(rec)).await?,
                    None => drop(self.set_record(rec)),
                }
                Ok(Value::Num(1.0))
            }
            GetSrc::File(f) => {
                let name = self.ev(f).await?.str(&self.convfmt);
                match self.read_from(&name).await? {
                    Err(()) => Ok(Value::Num(-1.0)),
                    Ok(None) => Ok(Value::Num(0.0)),
                    Ok(Some(rec)) => {
                        match lv {
                            Some(lv) => self.assign(lv, Value::from_input(rec)).await?,
                            None => {
                                let _ = self.set_record(rec);
                                self.bump(V_NR);
                            }
                        }
                        Ok(Value::Num(1.0))
                    }
                }
            }
        }
    }

    async fn call(&mut self, fi: usize, args: &'p [Expr]) -> R<Value> {
        let f = &self.prog.funcs[fi];
        if !f.defined {
            return fatal(format!("function `{}' not defined", f.name));
        }
        if self.frames.len() as u64 >= self.ctx.budget.limits.max_function_depth {
            return fatal(format!(
                "function call nesting too deep (more than {} levels)",
                self.ctx.budget.limits.max_function_depth
            ));
        }
        self.tick()?;
        let mut locals = vec![Cell::Val(Value::Uninit); f.nparams];
        // Unset variables passed bare may become arrays in the callee.
        let mut untyped: Vec<(usize, Var)> = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if i >= f.nparams {
                // Extra arguments (gawk warned while parsing) are evaluated and dropped.
                self.ev(a).await?;
                continue;
            }
            if let Expr::Lv(LValue::Var(v)) = a {
                match self.cell(*v) {
                    Cell::Arr(id) => {
                        locals[i] = Cell::Arr(*id);
                        continue;
                    }
                    Cell::Val(Value::Uninit) if *v != Var::Global(V_NF) => {
                        untyped.push((i, *v));
                        continue;
                    }
                    _ => {}
                }
            }
            locals[i] = Cell::Val(self.ev(a).await?);
        }
        self.frames.push(Frame { locals, owned: Vec::new() });
        // Deep recursion polls nested futures: make sure the stack can take it.
        let r = crate::interp::GrowStack(self.exec_block(&f.body)).await;
        let Some(mut frame) = self.frames.pop() else { return Ok(Value::Uninit) };
        for (i, v) in untyped {
            if let Cell::Arr(id) = frame.locals[i] {
                frame.owned.retain(|&o| o != id);
                if matches!(self.cell(v), Cell::Val(Value::Uninit)) {
                    *self.cell_mut(v) = Cell::Arr(id);
                    if let (Var::Local(_), Some(caller)) = (v, self.frames.last_mut()) {
                        caller.owned.push(id);
                    }
                }
            }
        }
        for id in frame.owned {
            self.arrays[id].clear();
            self.free_arrays.push(id);
        }
        match r {
            Ok(()) => Ok(Value::Uninit),
            Err(Ctl::Return(v)) => Ok(v),
            Err(Ctl::Break | Ctl::Continue) => Ok(Value::Uninit),
            Err(e) => Err(e),
        }
    }
}

/// awk's `^`: integer exponents by repeated multiplication, like gawk.
pub fn pow(a: f64, b: f64) -> f64 {
    if b == b.trunc() && b.abs() < 1024.0 {
        let mut n = b.abs() as u32;
        let mut x = a;
        let mut r = 1.0;
        while n > 0 {
            if n & 1 == 1 {
                r *= x;
            }
            x *= x;
            n >>= 1;
        }
        return if b < 0.0 { 1.0 / r } else { r };
    }
    a.powf(b)
}


impl Interp<'_, '_, '_> {
    pub fn get_local(&self, v: Var) -> Option<Cell> {
        match v {
            Var::Local(i) => self.frames.last().and_then(|f| f.locals.get(i).cloned()),
            Var::Global(_) => None,
        }
    }

    /// `cmd. line:N: ` for messages about the running statement.
    pub fn location(&self) -> String {
        let name = self.src_names.get(self.cur_line.0).map_or("cmd. line", String::as_str);
        let fnr = self.num_var(V_FNR);
        if fnr > 0.0 {
            let file = match &self.globals[V_FILENAME] {
                Cell::Val(v) => v.str(&self.convfmt),
                Cell::Arr(_) => String::new(),
            };
            return format!("{name}:{}: (FILENAME={file} FNR={fnr}) ", self.cur_line.1);
        }
        format!("{name}:{}: ", self.cur_line.1)
    }

    pub fn records_read(&self) -> bool {
        self.num_var(V_NR) > 0.0
    }

    /// `cmd. line:N: ` without the input position.
    pub fn src_location(&self) -> String {
        let name = self.src_names.get(self.cur_line.0).map_or("cmd. line", String::as_str);
        format!("{name}:{}: ", self.cur_line.1)
    }

    pub fn fs_value(&self) -> String {
        self.fs.clone()
    }
}


/// Whether `op` holds for an ordering.
fn cmp_holds(op: CmpOp, o: std::cmp::Ordering) -> bool {
    match op {
        CmpOp::Lt => o.is_lt(),
        CmpOp::Le => o.is_le(),
        CmpOp::Eq => o.is_eq(),
        CmpOp::Ne => o.is_ne(),
        CmpOp::Ge => o.is_ge(),
        CmpOp::Gt => o.is_gt(),
    }
}

/// The value of a comparison (1 or 0).
fn cmp_value(op: CmpOp, x: &Value, y: &Value, convfmt: &str) -> Value {
    let r = cmp_holds(op, compare(x, y, convfmt));
    // NaN is never equal, less or greater.
    let nan = matches!((x, y), (Value::Num(p), _) | (_, Value::Num(p)) if p.is_nan());
    Value::Num(f64::from(u8::from(r && !(nan && op != CmpOp::Ne))))
}

/// RT = the record's terminator; most records end alike, so the string is
/// kept when it is already that.
fn set_rt(cell: &mut Cell, rt: &[u8]) {
    if !matches!(cell, Cell::Val(Value::Str(old)) if old.as_bytes() == rt) {
        *cell = Cell::Val(Value::Str(String::from_utf8_lossy(rt).into_owned()));
    }
}

/// A file to read records from, streamed; the character devices too.
async fn open_file(ctx: &CommandContext<'_>, path: &str) -> Result<crate::io::Input, crate::fs::FsError> {
    match crate::io::Input::device(path) {
        Some(dev) => Ok(dev),
        None => ctx.fs.open(path).await,
    }
}
