//! The sed interpreter: GNU sed 4.9's execute.c cycle (read a line, run the
//! program, auto-print, flush appended text) over a compiled [`Program`].
//! Input is streamed a line at a time with one line of lookahead for `$`.

use crate::commands::util::posix_regex::PosixRegex;
use super::parse::{Addr, Addr2, Cmd, Kind, Program, Re, Repl, Subst, WTarget};
use crate::commands::util::{UError, UResult};
use crate::commands::CommandContext;
use crate::fs::FsError;
use crate::io::IoError;
use std::collections::HashMap;
use std::sync::Arc;

/// What the options asked for.
pub struct Settings {
    pub quiet: bool,
    pub ere: bool,
    pub separate: bool,
    pub delim: u8,
    /// `-i[SUFFIX]`: the backup suffix (empty: no backup).
    pub in_place: Option<String>,
    /// `l` wrap width (`-l N`).
    pub line_len: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { quiet: false, ere: false, separate: false, delim: b'\n', in_place: None, line_len: 70 }
    }
}

enum Src {
    /// A file, read a chunk at a time.
    File(crate::commands::util::lines::LineReader),
    /// Stdin, a line at a time: `sed 1q` leaves the rest to the next reader.
    Stdin,
}

struct Line {
    data: Vec<u8>,
    /// It ended with the delimiter.
    nl: bool,
    /// Which opened input it came from (index into `names`).
    src: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Range {
    Inactive,
    /// In the range; `Some(n)` ends at line n, `None` when the end address matches.
    Active(Option<u64>),
    /// A range whose start is a line number never restarts.
    Closed,
}

enum App {
    Text(Vec<u8>),
    File(String),
}

#[derive(Default)]
struct Sink {
    buf: Vec<u8>,
    /// The last thing written lacked its newline (GNU adds it before more output).
    missing: bool,
}

enum Flow {
    End {
        print: bool,
    },
    /// `D`: run the program again on what is left, without reading.
    Restart,
    Quit(i32, bool),
}

const STDOUT: usize = 0;
const STDERR: usize = 1;
const IN_PLACE: usize = 2;
const FLUSH_AT: usize = 8192;

pub struct Runner<'c, 'a> {
    ctx: &'c CommandContext<'a>,
    prog: Arc<Program>,
    set: Settings,
    files: Vec<String>,
    next_file: usize,
    src: Option<Src>,
    /// Operand name of every opened input, by id.
    names: Vec<String>,
    peeked: Option<Line>,
    cur_src: Option<usize>,
    /// The file `-i` rewrites: its name as given and its path.
    in_place_path: Option<(String, String)>,
    line_no: u64,
    ps: Vec<u8>,
    chomped: bool,
    hold: Vec<u8>,
    replaced: bool,
    last_re: Option<Arc<PosixRegex>>,
    /// A regex search ran past the backtracking limit (sed stops, status 4).
    exceeded: bool,
    /// Recycled line buffers: the pattern space a new line replaced, and the
    /// text a substitution replaced, so a cycle allocates nothing.
    spare: Vec<u8>,
    scratch: Vec<u8>,
    ranges: Vec<Range>,
    append: Vec<App>,
    sinks: Vec<Sink>,
    rfiles: HashMap<String, (Vec<u8>, usize)>,
    status: i32,
    fatal: Option<i32>,
    max_len: usize,
    steps: u64,
}

impl<'c, 'a> Runner<'c, 'a> {
    pub fn new(ctx: &'c CommandContext<'a>, prog: Program, set: Settings, files: Vec<String>) -> Self {
        let n = prog.cmds.len();
        let sinks = (0..3 + prog.wfiles.len()).map(|_| Sink::default()).collect();
        let max_len = ctx.budget.limits.max_string_bytes.max(1 << 16) as usize;
        let mut r = Runner {
            ctx,
            prog: Arc::new(prog),
            set,
            files,
            next_file: 0,
            src: None,
            names: Vec::new(),
            peeked: None,
            cur_src: None,
            in_place_path: None,
            line_no: 0,
            ps: Vec::new(),
            chomped: true,
            hold: Vec::new(),
            replaced: false,
            last_re: None,
            exceeded: false,
            spare: Vec::new(),
            scratch: Vec::new(),
            ranges: vec![Range::Inactive; n],
            append: Vec::new(),
            sinks,
            rfiles: HashMap::new(),
            status: 0,
            fatal: None,
            max_len,
            steps: 0,
        };
        r.reset_ranges();
        r
    }

    /// `0,/re/` ranges start out active.
    fn reset_ranges(&mut self) {
        for (i, c) in self.prog.cmds.iter().enumerate() {
            self.ranges[i] = match (&c.a1, &c.a2) {
                (Some(Addr::Line(0)), Some(_)) => Range::Active(None),
                _ => Range::Inactive,
            };
        }
    }

    pub async fn run(mut self) -> UResult<i32> {
        let ctx = self.ctx;
        for w in &self.prog.wfiles {
            if let WTarget::File(name) = w {
                if let Err(e) = ctx.fs.write(&ctx.resolve(name), b"").await {
                    return Err(UError::new(4, format!("couldn't open file {name}: {e}")));
                }
            }
        }
        let mut restart = false;
        let mut code = None;
        loop {
            if !restart && !self.read_pattern_space(false).await? {
                break;
            }
            restart = false;
            match self.execute().await? {
                Flow::End { print } => {
                    if print && !self.set.quiet {
                        self.emit_ps(self.main()).await?;
                    }
                    self.dump_append().await?;
                }
                Flow::Restart => restart = true,
                Flow::Quit(c, print) => {
                    if print {
                        if !self.set.quiet {
                            self.emit_ps(self.main()).await?;
                        }
                        self.dump_append().await?;
                    }
                    code = Some(c);
                    break;
                }
            }
            if self.fatal.is_some() {
                break;
            }
        }
        self.finish_in_place().await?;
        for (i, w) in self.prog.wfiles.iter().enumerate() {
            if let WTarget::File(name) = w {
                let buf = std::mem::take(&mut self.sinks[3 + i].buf);
                if !buf.is_empty() {
                    if let Err(e) = ctx.fs.write(&ctx.resolve(name), &buf).await {
                        ctx.err(format!("couldn't write to {name}: {e}")).await?;
                        self.fatal = Some(4);
                    }
                }
            }
        }
        ctx.out(&std::mem::take(&mut self.sinks[STDOUT].buf)).await?;
        Ok(self.fatal.or(code).unwrap_or(self.status))
    }

    // ------------------------------------------------------------------
    // Input
    // ------------------------------------------------------------------

    /// Open the next readable operand; `false` when there is none.
    async fn open_next(&mut self) -> Result<bool, IoError> {
        let ctx = self.ctx;
        while self.next_file < self.files.len() && self.fatal.is_none() {
            let name = self.files[self.next_file].clone();
            self.next_file += 1;
            if name == "-" {
                if self.set.in_place.is_some() {
                    ctx.err("couldn't edit -: not a regular file").await?;
                    self.fatal = Some(4);
                    return Ok(false);
                }
                self.src = Some(Src::Stdin);
                self.names.push(name);
                return Ok(true);
            }
            let path = ctx.resolve(&name);
            if self.set.in_place.is_some() {
                match ctx.fs.metadata(&path).await {
                    Ok(m) if !m.is_file() => {
                        ctx.err(format!("couldn't edit {name}: not a regular file")).await?;
                        self.fatal = Some(4);
                        return Ok(false);
                    }
                    _ => {}
                }
            }
            // `-i` rewrites the whole file anyway; otherwise it is streamed.
            // Ok(Ok(whole file)) for `-i`, Ok(Err(stream)) otherwise.
            let opened: Result<Result<Vec<u8>, crate::io::Input>, FsError> = if self.set.in_place.is_some() {
                ctx.fs.read(&path).await.map(Ok)
            } else if let Some(dev) = crate::io::Input::device(&path) {
                Ok(Err(dev))
            } else {
                ctx.fs.open(&path).await.map(Err)
            };
            let input = match opened {
                Ok(Ok(d)) => {
                    if let Some(sfx) = self.set.in_place.clone().filter(|s| !s.is_empty()) {
                        let backup = backup_name(&name, &sfx);
                        if let Err(e) = ctx.fs.write(&ctx.resolve(&backup), &d).await {
                            ctx.err(format!("cannot rename {name}: {e}")).await?;
                            self.fatal = Some(4);
                            return Ok(false);
                        }
                    }
                    crate::io::Input::from_bytes(d)
                }
                Ok(Err(input)) => input,
                Err(FsError::IsADirectory) => {
                    ctx.err(format!("read error on {name}: Is a directory")).await?;
                    self.fatal = Some(4);
                    return Ok(false);
                }
                Err(e) => {
                    ctx.err(format!("can't read {name}: {e}")).await?;
                    self.status = 2;
                    continue;
                }
            };
            self.src = Some(Src::File(crate::commands::util::lines::LineReader::new(input, self.set.delim, self.max_len)));
            self.names.push(name);
            return Ok(true);
        }
        Ok(false)
    }

    /// The next line of the open input only.
    async fn fetch_same(&mut self) -> Option<Line> {
        let d = self.set.delim;
        let src = self.names.len().saturating_sub(1);
        let (mut data, nl) = match self.src.as_mut()? {
            Src::File(r) => {
                let Some(rest) = r.next_line().await else {
                    self.src = None;
                    return None;
                };
                let mut line = std::mem::take(&mut self.spare);
                line.clear();
                line.extend_from_slice(rest);
                if r.too_long {
                    self.ctx.budget.input_exceeded();
                }
                let nl = line.last() == Some(&d);
                (line, nl)
            }
            Src::Stdin => match self.ctx.stdin.read_until(d, self.max_len).await {
                Some(l) => {
                    let nl = l.last() == Some(&d);
                    (l, nl)
                }
                None => {
                    self.src = None;
                    return None;
                }
            },
        };
        if nl {
            data.pop();
        }
        Some(Line { data, nl, src })
    }

    /// Fill the lookahead; `cross`: look into the following operands too.
    async fn peek(&mut self, cross: bool) -> Result<bool, IoError> {
        if self.peeked.is_some() {
            return Ok(true);
        }
        loop {
            if let Some(l) = self.fetch_same().await {
                self.peeked = Some(l);
                return Ok(true);
            }
            if !cross || !self.open_next().await? {
                return Ok(false);
            }
        }
    }

    /// Is the current line the last one (`$`)?
    async fn is_last(&mut self) -> Result<bool, IoError> {
        Ok(!self.peek(!self.set.separate).await?)
    }

    async fn next_line(&mut self) -> Result<Option<Line>, IoError> {
        if self.peek(true).await? {
            return Ok(self.peeked.take());
        }
        Ok(None)
    }

    /// GNU `read_pattern_space`: the next line into (or appended to) the pattern space.
    async fn read_pattern_space(&mut self, append: bool) -> Result<bool, IoError> {
        let Some(l) = self.next_line().await? else {
            return Ok(false);
        };
        if self.cur_src != Some(l.src) {
            if self.set.in_place.is_some() {
                self.finish_in_place().await?;
                self.in_place_path = self.names.get(l.src).map(|n| (n.clone(), self.ctx.resolve(n)));
            }
            if self.set.separate && self.cur_src.is_some() {
                self.line_no = 0;
                self.reset_ranges();
            }
            self.cur_src = Some(l.src);
        }
        self.line_no += 1;
        if append {
            self.ps.push(self.set.delim);
            self.ps.extend_from_slice(&l.data);
            self.spare = l.data;
        } else {
            self.spare = std::mem::replace(&mut self.ps, l.data);
        }
        self.chomped = l.nl;
        self.replaced = false;
        Ok(true)
    }

    // ------------------------------------------------------------------
    // Output
    // ------------------------------------------------------------------

    fn main(&self) -> usize {
        if self.set.in_place.is_some() {
            IN_PLACE
        } else {
            STDOUT
        }
    }

    fn wsink(&self, i: usize) -> usize {
        match self.prog.wfiles.get(i) {
            Some(WTarget::Stdout) => STDOUT,
            Some(WTarget::Stderr) => STDERR,
            _ => 3 + i,
        }
    }

    /// Write `text`, then the delimiter if `delim` (else remember it is missing).
    async fn emit(&mut self, sink: usize, text: &[u8], delim: bool) -> Result<(), IoError> {
        let d = self.set.delim;
        let s = &mut self.sinks[sink];
        if s.missing {
            s.buf.push(d);
            s.missing = false;
        }
        s.buf.extend_from_slice(text);
        if delim {
            s.buf.push(d);
        } else {
            s.missing = true;
        }
        self.flush(sink).await
    }

    /// Write the pattern space (with its delimiter unless the line lacked one).
    async fn emit_ps(&mut self, sink: usize) -> Result<(), IoError> {
        let ps = std::mem::take(&mut self.ps);
        let r = self.emit(sink, &ps, self.chomped).await;
        self.ps = ps;
        r
    }

    /// Write text that carries its own newline (`i`, `=`, `l`, appended text).
    async fn emit_raw(&mut self, sink: usize, text: &[u8]) -> Result<(), IoError> {
        let d = self.set.delim;
        let s = &mut self.sinks[sink];
        if s.missing {
            s.buf.push(d);
            s.missing = false;
        }
        s.buf.extend_from_slice(text);
        self.flush(sink).await
    }

    async fn flush(&mut self, sink: usize) -> Result<(), IoError> {
        let s = &mut self.sinks[sink];
        if sink == STDOUT && s.buf.len() >= FLUSH_AT {
            self.ctx.out(&std::mem::take(&mut s.buf)).await?;
        } else if sink == STDERR {
            self.ctx.stderr.write(&std::mem::take(&mut s.buf)).await?;
        }
        Ok(())
    }

    async fn finish_in_place(&mut self) -> Result<(), IoError> {
        if let Some((name, path)) = self.in_place_path.take() {
            let s = std::mem::take(&mut self.sinks[IN_PLACE]);
            // A backend of whole operations is sent the file, not a rename.
            let failed = if self.ctx.fs.whole_operations(&path) {
                self.ctx.fs.write(&path, &s.buf).await.err().map(|e| format!("couldn't edit {name}: {e}"))
            } else {
                self.replace_by_rename(&name, &path, &s.buf).await.err()
            };
            if let Some(m) = failed {
                self.ctx.err(m).await?;
                self.fatal = Some(4);
            }
        }
        Ok(())
    }

    /// GNU sed writes the edited text to a new file beside the old one and
    /// renames it over (keeping the mode): what decides is whether the
    /// directory may be changed, not the file, and other hard links to the
    /// file keep the old text.
    async fn replace_by_rename(&self, name: &str, path: &str, data: &[u8]) -> Result<(), String> {
        use crate::fs::path::{join, parent};
        let tmp_name = format!("sed{:06x}", crate::expand::param::next_random() & 0xff_ffff);
        let tmp = join(parent(path), &tmp_name);
        let shown = match name.rfind('/') {
            Some(i) => format!("{}/{tmp_name}", &name[..i]),
            None => format!("./{tmp_name}"),
        };
        let fs = &self.ctx.fs;
        fs.write(&tmp, data).await.map_err(|e| format!("couldn't open temporary file {shown}: {e}"))?;
        if let Ok(m) = fs.metadata(path).await {
            fs.set_mode(&tmp, m.mode).await.ok();
        }
        if let Err(e) = fs.rename(&tmp, path).await {
            fs.remove_file(&tmp).await.ok();
            return Err(format!("cannot rename {shown}: {e}"));
        }
        Ok(())
    }

    async fn dump_append(&mut self) -> Result<(), IoError> {
        let main = self.main();
        for a in std::mem::take(&mut self.append) {
            match a {
                App::Text(t) => self.emit_raw(main, &t).await?,
                App::File(f) => {
                    let data = if f == "/dev/stdin" {
                        self.ctx.stdin.read_to_end(self.max_len).await.ok()
                    } else {
                        self.ctx.fs.read(&self.ctx.resolve(&f)).await.ok()
                    };
                    if let Some(d) = data {
                        self.emit_raw(main, &d).await?;
                    }
                }
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------
    // Addresses
    // ------------------------------------------------------------------

    /// The regex to use: `None` is the last one used (GNU's empty regex).
    fn pick(&mut self, re: &Option<Re>) -> Option<Arc<PosixRegex>> {
        match re {
            Some(r) => {
                self.last_re = Some(r.0.clone());
                Some(r.0.clone())
            }
            None => self.last_re.clone(),
        }
    }

    async fn match_one(&mut self, a: &Addr) -> Result<bool, IoError> {
        Ok(match a {
            Addr::Line(n) => self.line_no == *n,
            Addr::Last => self.is_last().await?,
            Addr::Step(first, step) => self.line_no >= *first && (self.line_no - first).is_multiple_of(*step),
            Addr::Re(r) => match self.pick(r) {
                Some(re) => {
                    let hit = re.is_match(&self.ps);
                    self.exceeded |= re.take_exceeded();
                    hit
                }
                None => false,
            },
        })
    }

    /// GNU `match_address_p`, with its range states.
    async fn selected(&mut self, i: usize, cmd: &Cmd) -> Result<bool, IoError> {
        let Some(a1) = &cmd.a1 else {
            return Ok(!cmd.negate);
        };
        let Some(a2) = &cmd.a2 else {
            return Ok(self.match_one(a1).await? != cmd.negate);
        };
        let l = self.line_no;
        let close = if matches!(a1, Addr::Line(_)) { Range::Closed } else { Range::Inactive };
        let m = match self.ranges[i] {
            Range::Closed => false,
            Range::Inactive => {
                let start = match a1 {
                    Addr::Line(n) => l >= *n,
                    a => self.match_one(a).await?,
                };
                if start {
                    self.ranges[i] = match a2 {
                        Addr2::Plus(n) => Range::Active(Some(l.saturating_add(*n))),
                        Addr2::Tilde(n) => Range::Active(Some(if *n == 0 { l } else { l.div_ceil(*n) * n })),
                        Addr2::A(Addr::Line(n)) => Range::Active(Some(*n)),
                        Addr2::A(_) => Range::Active(None),
                    };
                    if let Range::Active(Some(end)) = self.ranges[i] {
                        if end <= l {
                            self.ranges[i] = close;
                        }
                    }
                }
                start
            }
            Range::Active(Some(end)) => {
                if end <= l {
                    self.ranges[i] = close;
                }
                l <= end
            }
            Range::Active(None) => {
                if let Addr2::A(a) = a2 {
                    if self.match_one(a).await? {
                        self.ranges[i] = close;
                    }
                }
                true
            }
        };
        Ok(m != cmd.negate)
    }

    // ------------------------------------------------------------------
    // The program
    // ------------------------------------------------------------------

    fn too_big(&self) -> bool {
        self.ps.len() > self.max_len || self.hold.len() > self.max_len
    }

    async fn execute(&mut self) -> Result<Flow, IoError> {
        let prog = self.prog.clone();
        let cmds = &prog.cmds;
        let d = self.set.delim;
        let mut pc = 0;
        while pc < cmds.len() {
            self.steps += 1;
            if self.steps.is_multiple_of(256) && !self.ctx.still_running() {
                self.fatal = Some(1);
                return Ok(Flow::Quit(1, false));
            }
            if self.too_big() {
                self.ctx.err("memory exhausted").await?;
                self.fatal = Some(4);
                return Ok(Flow::Quit(4, false));
            }
            if self.exceeded {
                // A search ran past the backtracking limit: its "no match"
                // is not to be trusted, so stop as on a runtime failure.
                self.ctx.err("regex backtracking limit exceeded").await?;
                self.fatal = Some(4);
                return Ok(Flow::Quit(4, false));
            }
            let cmd = &cmds[pc];
            if !self.selected(pc, cmd).await? {
                pc = match cmd.kind {
                    Kind::Block(end) => end,
                    _ => pc + 1,
                };
                continue;
            }
            let main = self.main();
            match &cmd.kind {
                Kind::Block(_) | Kind::EndBlock | Kind::Nop => {}
                Kind::Subst(s) => {
                    if self.subst(s) {
                        self.replaced = true;
                        if s.print {
                            self.emit_ps(main).await?;
                        }
                        if let Some(w) = s.write {
                            self.emit_ps(self.wsink(w)).await?;
                        }
                    }
                }
                Kind::Trans(map) => self.ps = transliterate(&self.ps, map),
                Kind::Append(t) => self.append.push(App::Text(t.clone())),
                Kind::Insert(t) => self.emit_raw(main, t).await?,
                Kind::Change(t) => {
                    if cmd.a2.is_none() || !self.mid_range(pc) {
                        self.emit_raw(main, t).await?;
                    }
                    return Ok(Flow::End { print: false });
                }
                Kind::Delete => return Ok(Flow::End { print: false }),
                Kind::DeleteFirst => match self.ps.iter().position(|&b| b == d) {
                    Some(i) => {
                        self.ps.drain(..=i);
                        self.dump_append().await?;
                        return Ok(Flow::Restart);
                    }
                    None => return Ok(Flow::End { print: false }),
                },
                Kind::Print => self.emit_ps(main).await?,
                Kind::PrintFirst => {
                    let first = self.ps.split(|&b| b == d).next().unwrap_or_default().to_vec();
                    self.emit(main, &first, true).await?;
                }
                Kind::Next => {
                    if self.is_last().await? || self.fatal.is_some() {
                        return Ok(Flow::End { print: true });
                    }
                    if !self.set.quiet {
                        self.emit_ps(main).await?;
                    }
                    self.dump_append().await?;
                    if !self.read_pattern_space(false).await? {
                        return Ok(Flow::End { print: false });
                    }
                }
                Kind::NextAppend => {
                    if self.is_last().await? || self.fatal.is_some() {
                        return Ok(Flow::End { print: true });
                    }
                    self.dump_append().await?;
                    if !self.read_pattern_space(true).await? {
                        return Ok(Flow::End { print: true });
                    }
                }
                Kind::Quit(c) => return Ok(Flow::Quit(*c, true)),
                Kind::QuitSilent(c) => return Ok(Flow::Quit(*c, false)),
                Kind::ReadFile(f) => self.append.push(App::File(f.clone())),
                Kind::ReadLine(f) => {
                    if let Some(line) = self.read_r_line(f).await {
                        self.append.push(App::Text(line));
                    }
                }
                Kind::Write(w) => self.emit_ps(self.wsink(*w)).await?,
                Kind::WriteFirst(w) => {
                    let first = self.ps.split(|&b| b == d).next().unwrap_or_default().to_vec();
                    self.emit(self.wsink(*w), &first, true).await?;
                }
                Kind::LineNo => self.emit_raw(main, format!("{}\n", self.line_no).as_bytes()).await?,
                Kind::List(n) => {
                    let text = list_text(&self.ps, n.unwrap_or(self.set.line_len));
                    self.emit_raw(main, &text).await?;
                }
                Kind::Zap => self.ps.clear(),
                Kind::Hold => self.hold = self.ps.clone(),
                Kind::HoldAppend => {
                    self.hold.push(d);
                    self.hold.extend_from_slice(&self.ps);
                }
                Kind::Get => self.ps = self.hold.clone(),
                Kind::GetAppend => {
                    self.ps.push(d);
                    self.ps.extend_from_slice(&self.hold);
                }
                Kind::Exchange => std::mem::swap(&mut self.ps, &mut self.hold),
                Kind::Branch(t) => {
                    pc = t.unwrap_or(cmds.len());
                    continue;
                }
                Kind::BranchIf(t) => {
                    if self.replaced {
                        self.replaced = false;
                        pc = t.unwrap_or(cmds.len());
                        continue;
                    }
                }
                Kind::BranchUnless(t) => {
                    if !self.replaced {
                        pc = t.unwrap_or(cmds.len());
                        continue;
                    }
                    self.replaced = false;
                }
                Kind::FileName => {
                    let name = self.cur_src.and_then(|i| self.names.get(i)).cloned().unwrap_or_else(|| "-".into());
                    self.emit_raw(main, format!("{name}\n").as_bytes()).await?;
                }
            }
            pc += 1;
        }
        if self.exceeded {
            self.ctx.err("regex backtracking limit exceeded").await?;
            self.fatal = Some(4);
            return Ok(Flow::Quit(4, false));
        }
        Ok(Flow::End { print: true })
    }

    /// `c` in a range prints its text only at the range's end.
    fn mid_range(&self, pc: usize) -> bool {
        matches!(self.ranges[pc], Range::Active(_))
    }

    /// `R`: the next line of a file, kept open across cycles.
    async fn read_r_line(&mut self, f: &str) -> Option<Vec<u8>> {
        if !self.rfiles.contains_key(f) {
            let data = self.ctx.fs.read(&self.ctx.resolve(f)).await.unwrap_or_default();
            self.rfiles.insert(f.to_string(), (data, 0));
        }
        let (data, pos) = self.rfiles.get_mut(f)?;
        if *pos >= data.len() {
            return None;
        }
        let rest = &data[*pos..];
        let n = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        *pos += n;
        let mut line = rest[..n].to_vec();
        if line.last() != Some(&b'\n') {
            line.push(b'\n');
        }
        Some(line)
    }

    /// `s`: true when something was replaced.
    fn subst(&mut self, s: &Subst) -> bool {
        let Some(re) = self.pick(&s.re) else {
            return false;
        };
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut last = 0;
        let mut count = 0;
        let mut did = false;
        // Capture groups cost a slower engine: only ask for them when the
        // replacement refers to one (`&` is the whole match, which find gives).
        let groups = s.repl.iter().any(|r| matches!(r, Repl::Group(g) if *g > 0));
        let mut one = |start: usize, end: usize, out: &mut Vec<u8>, group: &dyn Fn(usize) -> Option<(usize, usize)>| {
            count += 1;
            if count < s.nth {
                return true;
            }
            out.extend_from_slice(&self.ps[last..start]);
            expand(&self.ps, group, &s.repl, out);
            last = end;
            did = true;
            s.global && out.len() <= self.max_len
        };
        if groups {
            re.each_capture(&self.ps, &mut |group| match group(0) {
                Some((start, end)) => one(start, end, &mut out, group),
                None => true,
            });
        } else {
            re.each_match(&self.ps, &mut |start, end| {
                let whole = |g: usize| (g == 0).then_some((start, end));
                one(start, end, &mut out, &whole)
            });
        }
        self.exceeded |= re.take_exceeded();
        if did {
            out.extend_from_slice(&self.ps[last..]);
            self.scratch = std::mem::replace(&mut self.ps, out);
        } else {
            self.scratch = out;
        }
        did
    }
}

/// GNU's backup name: `*` in the suffix stands for the file's base name.
fn backup_name(name: &str, sfx: &str) -> String {
    if !sfx.contains('*') {
        return format!("{name}{sfx}");
    }
    let (dir, base) = match name.rfind('/') {
        Some(i) => (&name[..=i], &name[i + 1..]),
        None => ("", name),
    };
    let b = sfx.replace('*', base);
    if b.contains('/') {
        b
    } else {
        format!("{dir}{b}")
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Case {
    None,
    Lower,
    Upper,
}

/// Append the replacement for one match, applying `\L \U \l \u \E`;
/// `group(n)` is where group n matched in `text`.
fn expand(text: &[u8], group: &dyn Fn(usize) -> Option<(usize, usize)>, repl: &[Repl], out: &mut Vec<u8>) {
    let (mut mode, mut one) = (Case::None, Case::None);
    for r in repl {
        let piece: &[u8] = match r {
            Repl::Lit(l) => l,
            Repl::Group(g) => group(*g).and_then(|(a, b)| text.get(a..b)).unwrap_or_default(),
            Repl::Lower => {
                mode = Case::Lower;
                continue;
            }
            Repl::Upper => {
                mode = Case::Upper;
                continue;
            }
            Repl::LowerOne => {
                one = Case::Lower;
                continue;
            }
            Repl::UpperOne => {
                one = Case::Upper;
                continue;
            }
            Repl::EndCase => {
                mode = Case::None;
                one = Case::None;
                continue;
            }
        };
        if mode == Case::None && one == Case::None {
            out.extend_from_slice(piece);
            continue;
        }
        for chunk in piece.utf8_chunks() {
            for c in chunk.valid().chars() {
                let how = if one != Case::None { std::mem::replace(&mut one, Case::None) } else { mode };
                match how {
                    Case::Lower => out.extend(c.to_lowercase().collect::<String>().bytes()),
                    Case::Upper => out.extend(c.to_uppercase().collect::<String>().bytes()),
                    Case::None => out.extend(c.encode_utf8(&mut [0; 4]).bytes()),
                }
            }
            out.extend_from_slice(chunk.invalid());
        }
    }
}

/// `y`: map characters (bytes when the text is not UTF-8).
fn transliterate(ps: &[u8], map: &[(char, char)]) -> Vec<u8> {
    let find = |c: char| map.iter().find(|p| p.0 == c).map_or(c, |p| p.1);
    match std::str::from_utf8(ps) {
        Ok(s) => s.chars().map(find).collect::<String>().into_bytes(),
        Err(_) => ps.iter().map(|&b| if b.is_ascii() { find(b as char) as u8 } else { b }).collect(),
    }
}

/// `l`: escapes, octal for other bytes, wrapped at `width` with `\`, ending in `$`.
fn list_text(ps: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut col = 0;
    for &b in ps {
        let esc = match b {
            b'\\' => "\\\\".to_string(),
            7 => "\\a".into(),
            8 => "\\b".into(),
            12 => "\\f".into(),
            b'\n' => "\\n".into(),
            b'\r' => "\\r".into(),
            b'\t' => "\\t".into(),
            11 => "\\v".into(),
            0x20..=0x7e => (b as char).to_string(),
            _ => format!("\\{b:03o}"),
        };
        if width > 0 && col + esc.len() > width - 1 {
            out.extend_from_slice(b"\\\n");
            col = 0;
        }
        col += esc.len();
        out.extend_from_slice(esc.as_bytes());
    }
    out.extend_from_slice(b"$\n");
    out
}
