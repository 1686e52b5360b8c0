//! Scanning one input for `grep`: line selection, context (`-A/-B/-C` with
//! `--` separators), `-o`, `-c`, `-l/-L`, `-m`, binary files, and the
//! `name:line:` prefixes (with GNU's default colors for `--color=always`).

use crate::commands::util::posix_regex::Backtracker;
use crate::commands::CommandContext;
use crate::io::IoError;
use regex::bytes::Regex;
use std::collections::VecDeque;

/// Settings that shape the output (fixed for the whole run).
pub struct Out {
    pub invert: bool,
    pub count: bool,
    pub files_with: bool,
    pub files_without: bool,
    pub quiet: bool,
    pub only: bool,
    pub line_num: bool,
    pub byte_off: bool,
    pub with_name: bool,
    pub max: Option<u64>,
    pub after: usize,
    pub before: usize,
    pub null_after_name: bool,
    pub delim: u8,
    /// Treat binary files as text (`-a`).
    pub text: bool,
    /// `-I`: binary files never match.
    pub skip_binary: bool,
    pub group_sep: Option<String>,
    pub color: bool,
}

/// What a run has done so far, across files.
#[derive(Default)]
pub struct State {
    /// Something was printed by a context-enabled run (a later group needs `--`).
    pub printed_any: bool,
    pub buf: Vec<u8>,
}

/// The compiled pattern set (`None`: no pattern at all, nothing matches).
pub struct Matcher {
    pub re: Option<std::sync::Arc<Regex>>,
    /// The same pattern with `^`/`$` at every line end, run over a whole
    /// buffer to skip the lines before its next match (GNU grep's way; one
    /// search per match instead of one per line). None when the pattern has
    /// buffer anchors (`\``, `\'`) or is Perl syntax.
    pub scan: Option<std::sync::Arc<Regex>>,
    /// `grep -P` with lookaround or back-references: a backtracking engine.
    /// It works on text, so a line that is not UTF-8 never matches it; a
    /// match that runs past the backtracking limit counts as no match, and
    /// grep reports it.
    pub fancy: Option<Backtracker>,
}

impl Matcher {
    fn is_match(&self, line: &[u8]) -> bool {
        if let Some(f) = &self.fancy {
            return std::str::from_utf8(line).is_ok_and(|t| f.is_match(t));
        }
        self.re.as_ref().is_some_and(|r| r.is_match(line))
    }
    fn spans(&self, line: &[u8]) -> Vec<(usize, usize)> {
        if let Some(f) = &self.fancy {
            let Ok(text) = std::str::from_utf8(line) else { return Vec::new() };
            let mut v = Vec::new();
            f.each_match(text, &mut |a, b| {
                if a < b {
                    v.push((a, b));
                }
                true
            });
            return v;
        }
        match &self.re {
            Some(r) => r.find_iter(line).filter(|m| m.start() < m.end()).map(|m| (m.start(), m.end())).collect(),
            None => Vec::new(),
        }
    }
}

const SGR_MATCH: &str = "\x1b[01;31m\x1b[K";
const SGR_NAME: &str = "\x1b[35m\x1b[K";
const SGR_NUM: &str = "\x1b[32m\x1b[K";
const SGR_SEP: &str = "\x1b[36m\x1b[K";
const SGR_END: &str = "\x1b[m\x1b[K";

/// The lines of one input, read a chunk at a time into a window (a file is
/// never held whole). The input turns binary at the first chunk with a NUL,
/// as GNU checks each buffer it reads.
pub struct Lines {
    input: crate::io::Input,
    /// The window: lines already scanned before `pos`, unscanned after.
    data: Vec<u8>,
    pos: usize,
    eof: bool,
    pub binary: bool,
    /// The current line (without its delimiter) in `data`.
    cur: (usize, usize),
    /// The next match of `Matcher::scan` in `data` at or after `hint_from`
    /// (outer None: not searched yet; inner None: there is none).
    hint: Option<Option<(usize, usize)>>,
    hint_from: usize,
    /// Only stdin gives back what it did not use (`grep -m1 x; cat`).
    shared: bool,
}

impl Lines {
    /// An input with its first chunk read (binary or not is known from it).
    pub async fn new(input: crate::io::Input, delim: u8, shared: bool) -> Lines {
        let mut l = Lines {
            input,
            data: Vec::new(),
            pos: 0,
            eof: false,
            binary: false,
            cur: (0, 0),
            hint: None,
            hint_from: 0,
            shared,
        };
        l.fill(delim).await;
        l
    }

    /// Append the next chunk; false at end of input.
    async fn fill(&mut self, delim: u8) -> bool {
        match self.input.read_chunk().await {
            Some(chunk) => {
                self.binary |= delim != 0 && memchr::memchr(0, &chunk).is_some();
                self.data.extend_from_slice(&chunk);
                true
            }
            None => {
                self.eof = true;
                false
            }
        }
    }

    /// The current line, without its delimiter.
    fn line(&self) -> &[u8] {
        self.data.get(self.cur.0..self.cur.1).unwrap_or_default()
    }

    /// Move to the next line; false at the end.
    async fn advance(&mut self, ctx: &CommandContext<'_>, delim: u8) -> bool {
        let mut scan_from = self.pos;
        loop {
            if let Some(i) = memchr::memchr(delim, self.data.get(scan_from..).unwrap_or_default()) {
                self.cur = (self.pos, scan_from + i);
                self.pos = scan_from + i + 1;
                return true;
            }
            if self.eof {
                if self.pos < self.data.len() {
                    self.cur = (self.pos, self.data.len());
                    self.pos = self.data.len();
                    return true;
                }
                return false;
            }
            // Drop the scanned lines; positions move, so the hint goes too.
            self.data.drain(..self.pos);
            self.pos = 0;
            self.hint = None;
            scan_from = self.data.len();
            if self.data.len() as u64 >= ctx.budget.limits.max_string_bytes.max(1) {
                ctx.budget.input_exceeded();
                return false;
            }
            self.fill(delim).await;
        }
    }

    /// Stop at `-m`: stdin keeps the bytes after the last line used.
    async fn finish(self) {
        if self.shared && !self.input.is_pipe().await {
            self.input.unread(self.data.get(self.pos..).unwrap_or_default()).await;
        }
    }

    /// Does the current line match? A line wholly before the next match the
    /// whole-buffer search found cannot (a match within a line is one of the
    /// buffer too); a buffer match within the line is a match of the line.
    fn matches(&mut self, m: &Matcher) -> bool {
        let (a, b) = self.cur;
        let Some(scan) = &m.scan else { return m.is_match(self.line()) };
        let stale = match self.hint {
            None => true,
            Some(h) => a < self.hint_from || h.is_some_and(|(s, _)| s < a),
        };
        if stale {
            self.hint = Some(scan.find_at(&self.data, a).map(|x| (x.start(), x.end())));
            self.hint_from = a;
        }
        match self.hint {
            Some(Some((s, e))) if s <= b => e <= b || m.is_match(self.line()),
            _ => false,
        }
    }
}

/// A line kept for `-B` context.
struct Held {
    num: u64,
    off: u64,
    text: Vec<u8>,
}

/// Scan one input; returns how many lines were selected.
pub async fn scan(
    ctx: &CommandContext<'_>,
    o: &Out,
    m: &Matcher,
    st: &mut State,
    name: &str,
    mut lines: Lines,
) -> Result<u64, IoError> {
    if lines.binary && o.skip_binary && !o.text {
        return Ok(0);
    }
    let listing = o.files_with || o.files_without;
    let print_lines = !o.count && !listing && !o.quiet;
    let context = print_lines && (o.text || !lines.binary) && (o.after > 0 || o.before > 0);
    let (mut num, mut off, mut selected) = (0u64, 0u64, 0u64);
    let mut held: VecDeque<Held> = VecDeque::new();
    let mut after_left = 0usize;
    let mut last_printed: Option<u64> = None;
    loop {
        // `-m N` reached: stop before reading another line, so stdin stays
        // just after the last one used.
        if after_left == 0 && o.max.is_some_and(|mx| selected >= mx) {
            break;
        }
        if !lines.advance(ctx, o.delim).await {
            break;
        }
        // The clock is read now and then, not per line.
        if num % 256 == 0 && !ctx.still_running() {
            break;
        }
        num += 1;
        let line_off = off;
        off += lines.line().len() as u64 + 1;
        let done = o.max.is_some_and(|mx| selected >= mx);
        let hit = !done && lines.matches(m) != o.invert;
        let line = lines.line();
        if !hit {
            if done && after_left == 0 {
                break;
            }
            if context {
                if after_left > 0 {
                    after_left -= 1;
                    emit(o, st, name, num, line_off, line, b'-', m, &mut last_printed);
                } else if o.before > 0 {
                    if held.len() == o.before {
                        held.pop_front();
                    }
                    held.push_back(Held { num, off: line_off, text: line.to_vec() });
                }
            }
            continue;
        }
        let binary = lines.binary && !o.text;
        if binary && o.skip_binary {
            break;
        }
        selected += 1;
        if o.quiet || o.files_with {
            break;
        }
        if binary && print_lines {
            flush(ctx, st).await?;
            ctx.err(format!("{name}: binary file matches")).await?;
            break;
        }
        if !print_lines {
            continue;
        }
        for h in std::mem::take(&mut held) {
            emit(o, st, name, h.num, h.off, &h.text, b'-', m, &mut last_printed);
        }
        emit(o, st, name, num, line_off, line, b':', m, &mut last_printed);
        after_left = o.after;
        if st.buf.len() >= 8192 {
            flush(ctx, st).await?;
        }
    }
    // Only `-m` puts stdin back after the last line used; GNU's `-q` and
    // `-l` leave it wherever their read stopped.
    if o.max.is_some_and(|mx| selected >= mx) {
        lines.finish().await;
    }
    if o.count && !o.quiet {
        let mut s = Vec::new();
        if o.with_name {
            name_prefix(o, &mut s, name, b':');
        }
        s.extend_from_slice(format!("{selected}\n").as_bytes());
        st.buf.extend_from_slice(&s);
    }
    if !o.quiet && ((o.files_with && selected > 0) || (o.files_without && selected == 0)) {
        if o.color {
            st.buf.extend_from_slice(format!("{SGR_NAME}{name}{SGR_END}").as_bytes());
        } else {
            st.buf.extend_from_slice(name.as_bytes());
        }
        st.buf.push(if o.null_after_name { 0 } else { b'\n' });
    }
    flush(ctx, st).await?;
    Ok(selected)
}

pub async fn flush(ctx: &CommandContext<'_>, st: &mut State) -> Result<(), IoError> {
    if !st.buf.is_empty() {
        ctx.out(&st.buf).await?;
        st.buf.clear();
    }
    Ok(())
}

/// `name` and its separator (`\0` with `-Z`).
fn name_prefix(o: &Out, s: &mut Vec<u8>, name: &str, sep: u8) {
    if o.color {
        s.extend_from_slice(format!("{SGR_NAME}{name}{SGR_END}").as_bytes());
    } else {
        s.extend_from_slice(name.as_bytes());
    }
    if o.null_after_name {
        s.push(0);
    } else {
        push_sep(o, s, sep);
    }
}

fn push_sep(o: &Out, s: &mut Vec<u8>, sep: u8) {
    if o.color {
        s.extend_from_slice(SGR_SEP.as_bytes());
        s.push(sep);
        s.extend_from_slice(SGR_END.as_bytes());
    } else {
        s.push(sep);
    }
}

fn prefix(o: &Out, s: &mut Vec<u8>, name: &str, num: u64, off: u64, sep: u8) {
    if o.with_name {
        name_prefix(o, s, name, sep);
    }
    for (on, n) in [(o.line_num, num), (o.byte_off, off)] {
        if on {
            if o.color {
                s.extend_from_slice(format!("{SGR_NUM}{n}{SGR_END}").as_bytes());
            } else {
                s.extend_from_slice(n.to_string().as_bytes());
            }
            push_sep(o, s, sep);
        }
    }
}

/// Print one line (selected: `sep == b':'`, context: `b'-'`), preceded by
/// `--` when it does not follow the previously printed line.
#[allow(clippy::too_many_arguments)]
fn emit(
    o: &Out,
    st: &mut State,
    name: &str,
    num: u64,
    off: u64,
    line: &[u8],
    sep: u8,
    m: &Matcher,
    last: &mut Option<u64>,
) {
    let gap = last.is_none_or(|l| l + 1 != num);
    if (o.after > 0 || o.before > 0) && gap && st.printed_any {
        if let Some(g) = &o.group_sep {
            if o.color {
                st.buf.extend_from_slice(format!("{SGR_SEP}{g}{SGR_END}").as_bytes());
            } else {
                st.buf.extend_from_slice(g.as_bytes());
            }
            st.buf.push(b'\n');
        }
    }
    *last = Some(num);
    st.printed_any = true;
    let s = &mut st.buf;
    if o.only {
        if sep != b':' || o.invert {
            return;
        }
        for (a, b) in m.spans(line) {
            prefix(o, s, name, num, off + a as u64, sep);
            if o.color {
                s.extend_from_slice(SGR_MATCH.as_bytes());
                s.extend_from_slice(&line[a..b]);
                s.extend_from_slice(SGR_END.as_bytes());
            } else {
                s.extend_from_slice(&line[a..b]);
            }
            s.push(o.delim);
        }
        return;
    }
    prefix(o, s, name, num, off, sep);
    if o.color && sep == b':' && !o.invert {
        let mut at = 0;
        for (a, b) in m.spans(line) {
            s.extend_from_slice(&line[at..a]);
            s.extend_from_slice(SGR_MATCH.as_bytes());
            s.extend_from_slice(&line[a..b]);
            s.extend_from_slice(SGR_END.as_bytes());
            at = b;
        }
        s.extend_from_slice(&line[at..]);
    } else {
        s.extend_from_slice(line);
    }
    s.push(o.delim);
}
