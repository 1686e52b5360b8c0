//! The `jq` run: compiles the program with jaq, runs it over the input
//! stream and hands output, messages and input requests to the command's
//! async side, under the guard of `jq_val`. A run over a small input first
//! runs inline, on the interpreter's thread with its input read ahead and
//! its messages kept ([`inline`]); one that runs long, writes much or wants
//! more input gives way and runs again on a worker thread of its own
//! ([`worker`]), talking to the async side through channels as it goes
//! (jaq's values are not `Send`, and its evaluator recurses).

mod compile;
use compile::*;

use super::funs::*;
use super::json::{self, Fmt, Reader};
use super::val::{self, Abort, Guard, Map, Val};
use jaq_core::box_iter::box_once;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::native::{bome, run, v, Fun};
use jaq_core::{Ctx, DataT, Error, Exn, ValT as _, Vars};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// What the worker tells the async side.
pub enum Msg {
    Out(Vec<u8>),
    Err(Vec<u8>),
    /// Send the next `InMsg`.
    NeedInput,
    Done(i32),
}

/// Input, on request.
#[derive(Clone)]
pub enum InMsg {
    /// Bytes; `Some(name)` starts a new source (`None` name: stdin).
    Chunk(Option<Option<String>>, Vec<u8>),
    Eof,
}

/// Everything the program run needs, prepared by the async side.
pub struct Job {
    pub program: String,
    pub fmt: Fmt,
    pub raw_out: bool,
    pub join: bool,
    pub nul_sep: bool,
    pub null_input: bool,
    pub slurp: bool,
    pub raw_in: bool,
    pub exit_status: bool,
    /// `--stream`: each input as its `tostream` events.
    pub stream: bool,
    /// `--unbuffered`: each output handed on at once.
    pub unbuffered: bool,
    /// `$name` values, in order; `named` holds those for `$ARGS.named`.
    pub vars: Vec<(String, JVal)>,
    pub named: Vec<(String, JVal)>,
    pub positional: Vec<JVal>,
    pub env: Vec<(String, String)>,
    pub guard: GuardSpec,
}

/// A value built on the async side (jaq values cannot cross threads).
#[derive(Clone, Debug)]
pub enum JVal {
    Str(String),
    /// JSON text, already validated.
    Json(String),
    /// Several JSON texts' values in one array (`--slurpfile`).
    JsonArr(Vec<u8>),
}

impl JVal {
    fn to_val(&self) -> Val {
        match self {
            JVal::Str(s) => Val::str(s),
            JVal::Json(t) => json::parse_one(t).unwrap_or(Val::Null),
            JVal::JsonArr(t) => Val::arr(json::parse_all(t).unwrap_or_default()),
        }
    }
}

pub struct GuardSpec {
    pub deadline: Option<std::time::Instant>,
    pub cancel: crate::limits::CancelToken,
    pub stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    pub max_len: usize,
    /// The exec's budget: the worker charges its allocations to it and stops
    /// when the session is over its memory budget.
    pub budget: Option<std::sync::Arc<crate::limits::Budget>>,
}

type Tx = tokio::sync::mpsc::Sender<Msg>;
type Rx = std::sync::mpsc::Receiver<InMsg>;

/// Input read ahead for an inline run, with the messages the async side
/// wrote while reading it (a file that did not open), replayed in place.
#[derive(Clone)]
pub struct Ahead {
    pub errors: Vec<u8>,
    pub msg: InMsg,
}

/// Output an inline run may keep before it gives way to a worker (which
/// streams it): a consumer such as `head` then sees output while it runs.
const INLINE_OUTPUT: usize = 256 * 1024;

/// Where a run's messages go and its input comes from.
enum Link {
    /// A worker thread: messages go to the async side as they come, and
    /// input is asked for.
    Thread(Tx, Rx),
    /// The interpreter's thread: input read ahead, messages kept for the
    /// async side to replay. `complete`: the input read ahead ends with its
    /// end (else asking past it gives way).
    Inline { input: std::vec::IntoIter<Ahead>, complete: bool, msgs: Vec<Msg>, bytes: usize },
}

impl Link {
    /// Hand `m` on; false when the async side has gone.
    fn push(&mut self, m: Msg) -> bool {
        match self {
            Link::Thread(tx, _) => tx.blocking_send(m).is_ok(),
            Link::Inline { msgs, bytes, .. } => {
                *bytes += match &m {
                    Msg::Out(b) | Msg::Err(b) => b.len(),
                    _ => 0,
                };
                msgs.push(m);
                true
            }
        }
    }

    /// Hand `m` on during the run: stops it when the async side has gone,
    /// and an inline run that has kept too much output gives way.
    fn send(&mut self, m: Msg) {
        if !self.push(m) {
            val::abort(Abort::Stopped);
        }
        if matches!(self, Link::Inline { bytes, .. } if *bytes > INLINE_OUTPUT) {
            val::abort(Abort::GiveWay);
        }
    }

    /// The next input.
    fn ask(&mut self) -> InMsg {
        match self {
            Link::Thread(tx, rx) => {
                if tx.blocking_send(Msg::NeedInput).is_err() {
                    val::abort(Abort::Stopped);
                }
                rx.recv().unwrap_or_else(|_| val::abort(Abort::Stopped))
            }
            Link::Inline { input, complete, msgs, .. } => match input.next() {
                Some(a) => {
                    if !a.errors.is_empty() {
                        msgs.push(Msg::Err(a.errors));
                    }
                    a.msg
                }
                None if *complete => InMsg::Eof,
                None => val::abort(Abort::GiveWay),
            },
        }
    }
}

/// Output buffered before it is handed over.
const FLUSH_AT: usize = 32 * 1024;

/// The size of jq's stdout buffer: stdio's for a pipe or a file.
const STDIO_BLOCK: usize = 4096;

// ---------------------------------------------------------------------------
// Runtime state shared with the native filters
// ---------------------------------------------------------------------------

struct Io {
    link: Rc<RefCell<Link>>,
    out: Vec<u8>,
    buf: VecDeque<u8>,
    eof: bool,
    reader: Reader,
    /// Raw (`-R`) line being gathered.
    raw_line: Vec<u8>,
    /// `-n -s`: the next input is all of them.
    slurp_inputs: bool,
    raw: bool,
    /// Current source name (`None`: stdin) and whether any input was read.
    file: Option<String>,
    started: bool,
    /// Newlines consumed in the current source; whether the last byte was one.
    lines: usize,
    last_nl: bool,
    /// A parse error ended the input.
    parse_error: Option<String>,
}

pub struct Runtime {
    io: RefCell<Io>,
    env: Vec<(String, String)>,
}

impl Io {
    fn send(&mut self, m: Msg) {
        self.link.borrow_mut().send(m);
    }

    fn flush(&mut self) {
        if !self.out.is_empty() {
            let out = std::mem::take(&mut self.out);
            self.send(Msg::Out(out));
        }
    }

    /// Hand on the stdout jq would have written by now: its stdout is
    /// block-buffered (stdio writes whole blocks of [`STDIO_BLOCK`] as they
    /// fill) and its stderr is not, so a message comes before the output
    /// still in the buffer, and after the blocks written.
    fn flush_blocks(&mut self) {
        let n = self.out.len() / STDIO_BLOCK * STDIO_BLOCK;
        if n > 0 {
            let rest = self.out.split_off(n);
            let out = std::mem::replace(&mut self.out, rest);
            self.send(Msg::Out(out));
        }
    }

    /// A message on stderr, where jq's would come (see [`Io::flush_blocks`]).
    fn err(&mut self, msg: String) {
        self.stderr(msg.into_bytes());
    }

    fn stderr(&mut self, msg: Vec<u8>) {
        self.flush_blocks();
        self.send(Msg::Err(msg));
    }

    /// More bytes, or false at the end of all input.
    fn refill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        // Reading on may write messages (a file that does not open).
        self.flush_blocks();
        let next = self.link.borrow_mut().ask();
        match next {
            InMsg::Chunk(name, data) => {
                if let Some(name) = name {
                    self.file = name;
                    self.lines = 0;
                }
                self.started = true;
                self.buf.extend(data);
                true
            }
            InMsg::Eof => {
                self.eof = true;
                self.started = true;
                false
            }
        }
    }

    /// Where jq says an error happened: `<stdin>:3`, or `<unknown>`.
    fn position(&self) -> String {
        if !self.started {
            return "<unknown>".into();
        }
        // jq counts the lines it has fed its parser, a whole line at a time.
        let mut n = self.lines;
        if !self.last_nl && self.buf.contains(&b'\n') {
            n += 1;
        }
        format!("{}:{}", self.file.as_deref().unwrap_or("<stdin>"), n)
    }

    fn next_json(&mut self) -> Option<Result<Val, String>> {
        if self.parse_error.is_some() {
            return None;
        }
        loop {
            loop {
                let run = self.reader.feed_string_run(self.buf.as_slices().0);
                if run > 0 {
                    self.buf.drain(..run);
                    self.last_nl = false;
                    continue;
                }
                let Some(b) = self.buf.pop_front() else { break };
                self.last_nl = b == b'\n';
                if self.last_nl {
                    self.lines += 1;
                }
                match self.reader.feed(b) {
                    Ok(Some(v)) => return Some(Ok(v)),
                    Ok(None) => {}
                    Err(e) => return Some(Err(self.parse_err(e))),
                }
            }
            if !self.refill() {
                return match self.reader.finish() {
                    Ok(v) => v.map(Ok),
                    Err(e) => Some(Err(self.parse_err(e))),
                };
            }
        }
    }

    fn parse_err(&mut self, e: String) -> String {
        let msg = format!("{e} at line {}, column {}", self.reader.line, self.reader.col);
        self.parse_error = Some(msg.clone());
        self.buf.clear();
        self.eof = true;
        msg
    }

    fn next_raw(&mut self) -> Option<Val> {
        loop {
            while let Some(b) = self.buf.pop_front() {
                if b == b'\n' {
                    self.lines += 1;
                    let line = std::mem::take(&mut self.raw_line);
                    return Some(Val::string(String::from_utf8_lossy(&line).into_owned()));
                }
                val::check_len(self.raw_line.len() + 1, "string");
                self.raw_line.push(b);
            }
            if !self.refill() {
                if self.raw_line.is_empty() {
                    return None;
                }
                let line = std::mem::take(&mut self.raw_line);
                return Some(Val::string(String::from_utf8_lossy(&line).into_owned()));
            }
        }
    }

    /// The whole rest of the input as one string (`-R -s`).
    fn rest_raw(&mut self) -> Val {
        let mut all = Vec::new();
        loop {
            all.extend(self.buf.drain(..));
            val::check_len(all.len(), "string");
            if !self.refill() {
                break;
            }
        }
        Val::string(String::from_utf8_lossy(&all).into_owned())
    }

    fn next_input(&mut self) -> Option<Result<Val, String>> {
        if self.slurp_inputs {
            // `-n -s`: `input`/`inputs` see one array (or string) of everything.
            self.slurp_inputs = false;
            if self.raw {
                return Some(Ok(self.rest_raw()));
            }
            let mut all = Vec::new();
            while let Some(r) = self.next_input() {
                match r {
                    Ok(v) => {
                        val::check_len(all.len() + 1, "array");
                        all.push(v)
                    }
                    Err(e) => return Some(Err(e)),
                }
            }
            return Some(Ok(Val::arr(all)));
        }
        if self.raw {
            self.next_raw().map(Ok)
        } else {
            self.next_json()
        }
    }
}

impl Runtime {
    fn next_input(&self) -> Option<Result<Val, String>> {
        self.io.borrow_mut().next_input()
    }
    fn stderr(&self, msg: Vec<u8>) {
        self.io.borrow_mut().stderr(msg);
    }
}

// ---------------------------------------------------------------------------
// jaq glue
// ---------------------------------------------------------------------------

pub struct JqData;

pub struct Data<'a> {
    lut: &'a jaq_core::Lut<JqData>,
    rt: &'a Runtime,
}

// jaq clones the data at every call of a `def` and asks for the LUT at every
// step of its evaluator: the guard's tick there bounds recursions that build
// no values (`def f: [f]; f`) by the stack, and their time by the deadline.
impl Clone for Data<'_> {
    fn clone(&self) -> Self {
        val::tick();
        Data { lut: self.lut, rt: self.rt }
    }
}

impl DataT for JqData {
    type V<'a> = Val;
    type Data<'a> = Data<'a>;
}

impl<'a> jaq_core::data::HasLut<'a, JqData> for Data<'a> {
    fn lut(&self) -> &'a jaq_core::Lut<JqData> {
        val::tick();
        self.lut
    }
}

/// Definitions that make jaq's standard library behave like jq 1.7's.
const DEFS: &str = r#"
def @json: tojson;
def @csv: _csv;
def @tsv: _tsv;
def @sh: _sh;
def @html: _html;
def @uri: _uri;
def @base64: _base64;
def @base64d: _base64d;
def @base32: _base32;
def @base32d: _base32d;
def delpaths($p): _delpaths($p);
def type: _type;
def keys: _keys;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max
  | [range(0; $max) as $j | [range(0; $in | length) as $i | $in[$i][$j]]] end;
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def @text: tostring;
def tostring: if type == "string" then . else tojson end;
def error(msg): msg | error;
def join($x): reduce .[] as $i (null; (if . == null then "" else . + $x end) +
  ($i | if . == null then "" elif type == "boolean" or type == "number" then tojson else . end)) // "";
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: reduce .[] as $x ({};
  . + { ($x | .key // .Key // .name // .Name): ($x | if has("value") then .value else .Value end) });
def with_entries(f): to_entries | map(f) | from_entries;
def del(f): delpaths([path(f)]);
def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;
def limit($n; f): if $n < 0 then f else _limit($n; f) end;
def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0 then . + ($i | _flatten($x - 1)) else . + [$i] end);
def flatten($x): if $x < 0 then error("flatten depth must not be negative") else _flatten($x) end;
def flatten: _flatten(-1);
def ltrimstr($x): if type == "string" and ($x | type) == "string" and startswith($x) then .[($x | length):] else . end;
def rtrimstr($x): if type == "string" and ($x | type) == "string" and endswith($x) and ($x | length) > 0
  then .[:length - ($x | length)] else . end;
def indices($i): if type == "array" and ($i | type) == "array" then .[$i]
  elif type == "array" then .[[$i]]
  elif type == "string" and ($i | type) == "string" then _strindices($i)
  else .[[$i]] end;
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def gamma: lgamma;
def _num(f): if type == "number" then f else error(_describe + " number required") end;
def floor: _num(_floor);
def ceil: _num(_ceil);
def round: _num(_round);
def sqrt: _num(_sqrt);
def fabs: _num(_fabs);
def log: _num(_log);
def log2: _num(_log2);
def log10: _num(_log10);
def exp: _num(_exp);
def exp2: _num(_exp2);
def exp10: _num(_exp10);
def implode: if type != "array" then error("implode input must be an array")
  else map(if type != "number" then error("array (\(tojson | _trunc)) can't be imploded, unicode codepoint needs to be numeric") end) | _implode end;
def utf8bytelength: if type == "string" then _utf8bytelength else error(_describe + " only strings have UTF-8 byte length") end;
def startswith($s): if type == "string" and ($s | type) == "string" then _startswith($s) else error("startswith() requires string inputs") end;
def endswith($s): if type == "string" and ($s | type) == "string" then _endswith($s) else error("endswith() requires string inputs") end;
def reverse: if type == "string" then explode | _reverse | implode elif . == null then [] else _reverse end;
def sort: if type == "array" then _sort else error(_describe + " cannot be sorted, as it is not an array") end;
def gmtime: if type == "number" then _gmtime else error("gmtime() requires numeric inputs") end;
def mktime: if type == "array" then _mktime else error("mktime requires array inputs") end;
def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def leaf_paths: paths(scalars);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init
  | foreach f as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input
  | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def halt_error($code): _halt_error_print, halt($code);
def halt_error: halt_error(5);
def debug(msg): (msg | debug | empty), .;
def input_line_number: _input_line_number;
def getpath($p): if ($p | type) != "array" then error("Path must be specified as an array")
  else reduce $p[] as $k (.; .[$k]) end;
def localtime: gmtime;
def strflocaltime(f): strftime(f);
def ascii_downcase: if type == "string" then _ascii_downcase else error("explode input must be a string") end;
def ascii_upcase: if type == "string" then _ascii_upcase else error("explode input must be a string") end;
"#;

/// jaq natives kept under another name, wrapped by definitions (`EARLY`
/// first, so jaq's own definitions still find them; `DEFS` then adds jq's
/// type checks and messages).
const RENAMED: &[(&str, &str)] = &[
    ("limit", "_limit"),
    ("floor", "_floor"),
    ("ceil", "_ceil"),
    ("round", "_round"),
    ("sqrt", "_sqrt"),
    ("fabs", "_fabs"),
    ("log", "_log"),
    ("log2", "_log2"),
    ("log10", "_log10"),
    ("exp", "_exp"),
    ("exp2", "_exp2"),
    ("exp10", "_exp10"),
    ("implode", "_implode"),
    ("utf8bytelength", "_utf8bytelength"),
    ("startswith", "_startswith"),
    ("endswith", "_endswith"),
    ("reverse", "_reverse"),
    ("sort", "_sort"),
    ("gmtime", "_gmtime"),
    ("mktime", "_mktime"),
];

/// Loaded before jaq's definitions: `nan`/`infinite` as natives (jaq's
/// divide by zero, which our numbers refuse) and the renamed natives.
const EARLY: &str = r#"
def nan: _nan; def infinite: _infinite; def limit($n; f): _limit($n; f);
def floor: _floor; def ceil: _ceil; def round: _round; def sqrt: _sqrt; def fabs: _fabs;
def log: _log; def log2: _log2; def log10: _log10; def exp: _exp; def exp2: _exp2; def exp10: _exp10;
def implode: _implode; def utf8bytelength: _utf8bytelength;
def startswith($s): _startswith($s); def endswith($s): _endswith($s);
def reverse: _reverse; def sort: _sort; def gmtime: _gmtime; def mktime: _mktime;
"#;

/// jaq natives replaced by ours (or dropped: host environment, logging).
const DROPPED: &[&str] =
    &["env", "debug_empty", "stderr_empty", "ascii_downcase", "ascii_upcase", "localtime", "strflocaltime"];

/// Global data giving natives the runtime.
pub trait HasRt<'a> {
    fn rt(&self) -> &'a Runtime;
}

impl<'a> HasRt<'a> for Data<'a> {
    fn rt(&self) -> &'a Runtime {
        self.rt
    }
}

fn natives() -> Vec<Fun<JqData>> {
    let keep = |f: &Fun<JqData>| !DROPPED.contains(&f.0);
    let mut all: Vec<Fun<JqData>> = jaq_core::funs::<JqData>().chain(jaq_std::funs::<JqData>()).filter(keep).collect();
    // jaq's `limit` is kept (it supports `path(limit(...))`) under another
    // name, for a `limit` that treats a negative count as jq does.
    for f in all.iter_mut() {
        if let Some(&(_, new)) = RENAMED.iter().find(|(old, _)| *old == f.0) {
            f.0 = new;
        }
    }
    all.extend(our_funs::<JqData>());
    all
}

fn our_funs<D: for<'a> DataT<V<'a> = Val>>() -> impl Iterator<Item = Fun<D>>
where
    for<'a> D::Data<'a>: HasRt<'a>,
{
    our_natives().into_vec().into_iter().map(run)
}

fn our_natives<D: for<'a> DataT<V<'a> = Val>>() -> Box<[jaq_core::native::Filter<jaq_core::RunPtr<D>>]>
where
    for<'a> D::Data<'a>: HasRt<'a>,
{
    Box::new([
        ("length", v(0), |cv| bome(length(&cv.1))),
        ("_keys", v(0), |cv| bome(keys(&cv.1, true))),
        ("keys_unsorted", v(0), |cv| bome(keys(&cv.1, false))),
        ("has", v(1), |mut cv| {
            let k = cv.0.pop_var();
            bome(has(&cv.1, &k))
        }),
        ("contains", v(1), |mut cv| {
            let b = cv.0.pop_var();
            bome(contains_top(&cv.1, &b))
        }),
        ("_strindices", v(1), |mut cv| {
            let n = cv.0.pop_var();
            bome(strindices(&cv.1, &n))
        }),
        ("_match_impl", v(3), |mut cv| {
            let test = cv.0.pop_var();
            let flags = cv.0.pop_var();
            let re = cv.0.pop_var();
            bome(super::regex::match_impl(&cv.1, &re, &flags, test.as_bool()))
        }),
        ("_nan", v(0), |_| bome(Ok(Val::Num(f64::NAN)))),
        ("_describe", v(0), |cv| bome(Ok(Val::string(cv.1.describe())))),
        ("_trunc", v(0), |cv| bome(Ok(Val::string(val::truncate_dump(&to_text(&cv.1)))))),
        ("_infinite", v(0), |_| bome(Ok(Val::Num(f64::INFINITY)))),
        ("tojson", v(0), |cv| bome(Ok(Val::string(json::to_json(&cv.1))))),
        ("fromjson", v(0), |cv| bome(fromjson(&cv.1))),
        ("tonumber", v(0), |cv| bome(tonumber(cv.1))),
        ("_type", v(0), |cv| bome(Ok(Val::str(cv.1.kind())))),
        ("_delpaths", v(1), |mut cv| {
            let ps = cv.0.pop_var();
            bome(delpaths(cv.1, &ps))
        }),
        ("_csv", v(0), |cv| bome(csv_tsv(&cv.1, true))),
        ("_tsv", v(0), |cv| bome(csv_tsv(&cv.1, false))),
        ("_sh", v(0), |cv| bome(shell_quote(&cv.1))),
        ("_html", v(0), |cv| bome(Ok(Val::string(html(&to_text(&cv.1)))))),
        ("_uri", v(0), |cv| bome(Ok(Val::string(uri(&to_text(&cv.1)))))),
        ("_base64", v(0), |cv| bome(Ok(Val::string(base64_enc(to_text(&cv.1).as_bytes()))))),
        ("_base64d", v(0), |cv| bome(base64_dec(&cv.1))),
        ("_base32", v(0), |cv| bome(Ok(Val::string(base32_enc(to_text(&cv.1).as_bytes()))))),
        ("_base32d", v(0), |cv| bome(base32_dec(&cv.1))),
        ("_ascii_downcase", v(0), |cv| bome(Ok(Val::string(to_text(&cv.1).to_ascii_lowercase())))),
        ("_ascii_upcase", v(0), |cv| bome(Ok(Val::string(to_text(&cv.1).to_ascii_uppercase())))),
        ("env", v(0), |cv| bome(Ok(env_obj(cv.0.data().rt())))),
        ("input", v(0), |cv| {
            box_once(match cv.0.data().rt().next_input() {
                Some(Ok(v)) => Ok(v),
                Some(Err(e)) => Err(Exn::from(Error::new(Val::string(e)))),
                // jq 1.7's wording for running out of inputs.
                None => Err(Exn::from(Error::new(Val::str("break")))),
            })
        }),
        ("inputs", v(0), |cv| {
            let rt = cv.0.data().rt();
            Box::new(
                std::iter::from_fn(move || rt.next_input())
                    .map(|r| r.map_err(|e| Exn::from(Error::new(Val::string(e))))),
            )
        }),
        ("input_filename", v(0), |cv| {
            let io = cv.0.data().rt().io.borrow();
            let name = if io.started { Some(io.file.as_deref().unwrap_or("<stdin>")) } else { None };
            bome(Ok(name.map_or(Val::Null, Val::str)))
        }),
        ("_input_line_number", v(0), |cv| bome(Ok(Val::from(cv.0.data().rt().io.borrow().lines)))),
        ("debug_empty", v(0), |cv| {
            let msg = format!("[\"DEBUG:\",{}]\n", json::to_json(&cv.1));
            cv.0.data().rt().stderr(msg.into_bytes());
            Box::new(std::iter::empty())
        }),
        ("stderr_empty", v(0), |cv| {
            cv.0.data().rt().stderr(to_text(&cv.1).into_bytes());
            Box::new(std::iter::empty())
        }),
        ("_halt_error_print", v(0), |cv| {
            let msg = match &cv.1 {
                Val::Str(s) => s.to_string(),
                Val::Null => String::new(),
                v => format!("{}\n", json::to_json(v)),
            };
            cv.0.data().rt().stderr(msg.into_bytes());
            Box::new(std::iter::empty())
        }),
    ])
}

fn env_obj(rt: &Runtime) -> Val {
    let mut m = Map::default();
    for (k, v) in &rt.env {
        m.insert(Rc::from(k.as_str()), Val::str(v));
    }
    Val::obj(m)
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

/// Entry point of the worker thread.
pub fn worker(job: Job, tx: Tx, rx: Rx) {
    let link = Rc::new(RefCell::new(Link::Thread(tx, rx)));
    guarded(&job, &link, None);
}

/// Run `job` on this thread over `input` read ahead (`complete`: to its end),
/// giving way at `until`. The messages to replay, ending with `Done`, or
/// `None` when the run gave way (ran past `until`, kept too much output or
/// wanted input past what was read): it must run again on a worker.
pub fn inline(job: &Job, input: Vec<Ahead>, complete: bool, until: std::time::Instant) -> Option<Vec<Msg>> {
    let link = Rc::new(RefCell::new(Link::Inline { input: input.into_iter(), complete, msgs: Vec::new(), bytes: 0 }));
    if !guarded(job, &link, Some(until)) {
        return None;
    }
    let mut link = link.borrow_mut();
    match &mut *link {
        Link::Inline { msgs, .. } => Some(std::mem::take(msgs)),
        Link::Thread(..) => None,
    }
}

/// Run `job` under the guard, ending with `Done` on `link`; false when it
/// gave way (`yield_at` passed, see [`inline`]).
fn guarded(job: &Job, link: &Rc<RefCell<Link>>, yield_at: Option<std::time::Instant>) -> bool {
    let g = &job.guard;
    let _scope = g.budget.as_ref().map(crate::limits::scope::enter);
    let cancel = g.cancel.clone();
    let heap_cap = g
        .budget
        .as_ref()
        .and_then(|b| b.memory())
        .filter(|m| m.limit() != u64::MAX)
        .map(|m| val::heap_cap(m.used(), m.limit()));
    val::install_guard(Some(Guard {
        deadline: g.deadline,
        yield_at,
        cancelled: Box::new(move || cancel.is_cancelled()),
        stop: g.stop.clone(),
        max_len: g.max_len,
        heap_cap,
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_job(job, link.clone())));
    val::install_guard(None);
    let status = match result {
        Ok(s) => s,
        Err(payload) => {
            let msg = match payload.downcast_ref::<Abort>() {
                Some(Abort::GiveWay) => return false,
                Some(Abort::Stopped) | Some(Abort::Cancelled) => None,
                Some(Abort::Timeout) => Some("jq: error: time limit exceeded (timeout_ms)\n".to_string()),
                Some(Abort::Depth) => Some(format!("jq: error: value nesting exceeds {}\n", val::MAX_DEPTH)),
                Some(Abort::Stack) => Some("jq: error: program recursion too deep\n".to_string()),
                Some(Abort::TooLarge(what)) => Some(format!("jq: error: {what} too large (max_string_bytes)\n")),
                Some(Abort::Limit(m)) => {
                    // The exec ends with this reason at its next check (the
                    // memory is freed by then, so it would not see it again).
                    if let Some(b) = &g.budget {
                        b.stop_from_job(crate::limits::Stop::Limit(m.clone()));
                    }
                    Some(format!("jq: error: {m}\n"))
                }
                None => Some("jq: error: internal error\n".to_string()),
            };
            if let Some(m) = msg {
                link.borrow_mut().push(Msg::Err(m.into_bytes()));
            }
            5
        }
    };
    link.borrow_mut().push(Msg::Done(status));
    true
}

fn run_job(job: &Job, link: Rc<RefCell<Link>>) -> i32 {
    let mut names: Vec<String> = vec!["$ENV".into(), "$ARGS".into()];
    names.extend(job.vars.iter().map(|(n, _)| format!("${n}")));
    let rt = Runtime {
        io: RefCell::new(Io {
            link,
            out: Vec::new(),
            buf: VecDeque::new(),
            eof: false,
            reader: Reader::default(),
            raw_line: Vec::new(),
            slurp_inputs: job.null_input && job.slurp,
            raw: job.raw_in,
            file: None,
            started: false,
            lines: 0,
            last_nl: false,
            parse_error: None,
        }),
        env: job.env.clone(),
    };
    let filter = match compile_cached(&job.program, &names) {
        Ok(f) => f,
        Err(msg) => {
            rt.io.borrow_mut().err(msg);
            return 3;
        }
    };
    let mut named = Map::default();
    for (k, v) in &job.named {
        named.insert(Rc::from(k.as_str()), v.to_val());
    }
    let mut args = Map::default();
    args.insert("positional".into(), Val::arr(job.positional.iter().map(JVal::to_val).collect()));
    args.insert("named".into(), Val::obj(named));
    let mut values = vec![env_obj(&rt), Val::obj(args)];
    values.extend(job.vars.iter().map(|(_, v)| v.to_val()));
    let vars = Vars::new(values);
    let data = Data { lut: &filter.lut, rt: &rt };
    let ctx = Ctx::<JqData>::new(data, vars);

    let mut st = RunState { status: 0, last: None, any_output: false, halted: None };
    if job.null_input {
        run_one(job, &filter, &ctx, &rt, Val::Null, &mut st);
    } else if job.slurp {
        let input = if job.raw_in {
            Some(rt.io.borrow_mut().rest_raw())
        } else {
            let mut all = Vec::new();
            let mut bad = false;
            while let Some(r) = rt.next_input() {
                match r {
                    Ok(v) => {
                        val::check_len(all.len() + 1, "array");
                        all.push(v)
                    }
                    Err(_) => {
                        bad = true;
                        break;
                    }
                }
            }
            (!bad).then(|| Val::arr(all))
        };
        if let Some(v) = input {
            run_one(job, &filter, &ctx, &rt, v, &mut st);
        }
    } else {
        while st.halted.is_none() {
            match rt.next_input() {
                Some(Ok(v)) if job.stream => {
                    let mut events = Vec::new();
                    stream_events(&v, &mut Vec::new(), &mut events);
                    for e in events {
                        run_one(job, &filter, &ctx, &rt, e, &mut st);
                    }
                }
                Some(Ok(v)) => run_one(job, &filter, &ctx, &rt, v, &mut st),
                _ => break,
            }
        }
    }
    let mut io = rt.io.borrow_mut();
    if let Some(code) = st.halted {
        io.flush();
        return code;
    }
    if let Some(e) = io.parse_error.clone() {
        io.err(format!("jq: parse error: {e}\n"));
        io.flush();
        // jq 1.7.1 ends a run cut short by bad input with status 5 (not 1.6's 2).
        return 5;
    }
    io.flush();
    if st.status != 0 {
        return st.status;
    }
    if job.exit_status {
        return match &st.last {
            None if !st.any_output => 4,
            Some(Val::Null | Val::Bool(false)) => 1,
            _ => 0,
        };
    }
    0
}

/// `--stream`: `[path, leaf]` for each scalar or empty container, and
/// `[path]` closing each non-empty container after its last element.
fn stream_events(v: &Val, path: &mut Vec<Val>, out: &mut Vec<Val>) {
    let entries: Vec<(Val, &Val)> = match v {
        Val::Arr(a) => a.items.iter().enumerate().map(|(i, x)| (Val::from(i), x)).collect(),
        Val::Obj(o) => o.map.iter().map(|(k, x)| (Val::Str(k.clone()), x)).collect(),
        _ => Vec::new(),
    };
    let Some(last) = entries.last().map(|(k, _)| k.clone()) else {
        out.push(Val::arr(vec![Val::arr(path.clone()), v.clone()]));
        return;
    };
    for (k, x) in entries {
        path.push(k);
        stream_events(x, path, out);
        path.pop();
    }
    let mut closing = path.clone();
    closing.push(last);
    out.push(Val::arr(vec![Val::arr(closing)]));
}

struct RunState {
    status: i32,
    last: Option<Val>,
    any_output: bool,
    halted: Option<i32>,
}

fn run_one(job: &Job, filter: &JFilter, ctx: &Ctx<JqData>, rt: &Runtime, input: Val, st: &mut RunState) {
    // jq's status follows the last input: an error in an earlier one is forgotten.
    st.status = 0;
    let outs = filter.id.run((ctx.clone(), input));
    for r in outs {
        match r {
            Ok(v) => {
                let mut io = rt.io.borrow_mut();
                emit(job, &mut io.out, &v);
                st.any_output = true;
                st.last = Some(v);
                if job.unbuffered {
                    io.flush();
                } else if io.out.len() >= FLUSH_AT {
                    io.flush_blocks();
                }
            }
            Err(e) => match e.get_err() {
                Ok(err) => {
                    let mut io = rt.io.borrow_mut();
                    let pos = io.position();
                    let msg = match err.into_val() {
                        Val::Str(s) => format!("jq: error (at {pos}): {s}\n"),
                        v => format!("jq: error (at {pos}) (not a string): {}\n", json::to_json(&v)),
                    };
                    io.err(msg);
                    st.status = 5;
                    // jq's -e with an error: the last output no longer counts.
                    return;
                }
                Err(exn) => match exn.get_halt() {
                    Ok(code) => {
                        st.halted = Some(code);
                        return;
                    }
                    Err(_) => {
                        // A `break` with no label around it.
                        rt.io.borrow_mut().err("jq: error (at <unknown>): break\n".into());
                        st.status = 5;
                        return;
                    }
                },
            },
        }
    }
}

fn emit(job: &Job, out: &mut Vec<u8>, v: &Val) {
    match v {
        Val::Str(s) if job.raw_out => out.extend_from_slice(s.as_bytes()),
        v => json::write(out, v, &job.fmt, 0),
    }
    if job.nul_sep {
        out.push(0);
    } else if !job.join {
        out.push(b'\n');
    }
    val::check_len(out.len(), "output");
}
