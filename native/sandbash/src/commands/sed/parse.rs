//! The sed script compiler: GNU sed 4.9's grammar (compile.c) turned into a
//! flat program. Blocks become jumps, labels become indexes, and errors carry
//! GNU's wording and position (`-e expression #1, char 3: ...`).

use crate::commands::util::regex_translate::translate_sed;
use crate::commands::util::posix_regex::{Flags, PosixRegex, RegexError};
use std::sync::Arc;

/// One script piece: `-e TEXT` / the script operand, or `-f FILE`.
pub struct Chunk {
    pub text: Vec<u8>,
    /// `Some(name)` for a `-f` file (errors then say `file NAME line N`).
    pub file: Option<String>,
}

/// A compiled regex; `None` in an address or `s` means "the last regex used".
/// Shared, because cloning a `Regex` builds a fresh match-cache pool (costly
/// once per line) while the runner remembers the last one used.
#[derive(Clone, Debug)]
pub struct Re(pub Arc<PosixRegex>);

#[derive(Clone, Debug)]
pub enum Addr {
    Line(u64),
    Last,
    Re(Option<Re>),
    /// `first~step`
    Step(u64, u64),
}

#[derive(Clone, Debug)]
pub enum Addr2 {
    A(Addr),
    /// `addr1,+N`
    Plus(u64),
    /// `addr1,~N`
    Tilde(u64),
}

/// A piece of an `s` replacement.
#[derive(Clone, Debug)]
pub enum Repl {
    Lit(Vec<u8>),
    /// `&` is group 0.
    Group(usize),
    Lower,
    Upper,
    LowerOne,
    UpperOne,
    EndCase,
}

#[derive(Clone, Debug)]
pub struct Subst {
    pub re: Option<Re>,
    pub repl: Vec<Repl>,
    pub global: bool,
    /// Replace from the Nth match on (1 = first).
    pub nth: usize,
    pub print: bool,
    pub write: Option<usize>,
}

/// Where `w` output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WTarget {
    Stdout,
    Stderr,
    File(String),
}

#[derive(Clone, Debug)]
pub enum Kind {
    /// `{`: jump to the index after the matching `}` when the address fails.
    Block(usize),
    EndBlock,
    Subst(Box<Subst>),
    Trans(Vec<(char, char)>),
    Append(Vec<u8>),
    Insert(Vec<u8>),
    Change(Vec<u8>),
    Delete,
    DeleteFirst,
    Print,
    PrintFirst,
    Next,
    NextAppend,
    Quit(i32),
    QuitSilent(i32),
    ReadFile(String),
    ReadLine(String),
    Write(usize),
    WriteFirst(usize),
    LineNo,
    List(Option<usize>),
    Zap,
    Hold,
    HoldAppend,
    Get,
    GetAppend,
    Exchange,
    /// `b`, `t`, `T`: target index (`None` = end of script).
    Branch(Option<usize>),
    BranchIf(Option<usize>),
    BranchUnless(Option<usize>),
    FileName,
    Nop,
}

#[derive(Clone, Debug)]
pub struct Cmd {
    pub a1: Option<Addr>,
    pub a2: Option<Addr2>,
    pub negate: bool,
    pub kind: Kind,
}

pub struct Program {
    pub cmds: Vec<Cmd>,
    /// Files named by `w` and `s///w`, in order of first appearance.
    pub wfiles: Vec<WTarget>,
    /// `#n` on the first line.
    pub quiet: bool,
}

/// A compile error: the message as GNU prints it (without `sed: `) and status.
pub struct CompileError {
    pub msg: String,
    pub status: i32,
}

const EOF: i32 = -1;

struct Parser<'a> {
    buf: Vec<u8>,
    /// (start offset in `buf`, chunk) for each chunk.
    starts: Vec<(usize, &'a Chunk)>,
    pos: usize,
    ere: bool,
    cmds: Vec<Cmd>,
    wfiles: Vec<WTarget>,
    blocks: Vec<usize>,
    labels: Vec<(Vec<u8>, usize)>,
    jumps: Vec<(usize, Vec<u8>)>,
    /// A non-empty regex was seen (an empty one before that is an error).
    have_re: bool,
    /// Compiled-size cap of each regex (`max_regex_bytes`).
    regex_limit: usize,
}

type PResult<T> = Result<T, CompileError>;

/// Compile the chunks (joined by newlines, as GNU does) into a program.
pub fn compile(chunks: &[Chunk], ere: bool, regex_limit: usize) -> PResult<Program> {
    let mut buf = Vec::new();
    let mut starts = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        if i > 0 {
            buf.push(b'\n');
        }
        starts.push((buf.len(), c));
        buf.extend_from_slice(&c.text);
    }
    let quiet =
        chunks.first().is_some_and(|c| c.text.starts_with(b"#n") && matches!(c.text.get(2), None | Some(b'\n')));
    let mut p = Parser {
        buf,
        starts,
        pos: 0,
        ere,
        cmds: Vec::new(),
        wfiles: Vec::new(),
        blocks: Vec::new(),
        labels: Vec::new(),
        jumps: Vec::new(),
        have_re: false,
        regex_limit,
    };
    p.program()?;
    if !p.blocks.is_empty() {
        // GNU reports an unclosed block at "char 0" of the last expression.
        let n = p.starts.len();
        let msg = match p.starts.last().and_then(|s| s.1.file.clone()) {
            Some(f) => format!("file {f} line 0: unmatched `{{'"),
            None => format!("-e expression #{n}, char 0: unmatched `{{'"),
        };
        return Err(CompileError { msg, status: 1 });
    }
    for (at, name) in std::mem::take(&mut p.jumps) {
        let Some(&(_, target)) = p.labels.iter().find(|l| l.0 == name) else {
            let msg = format!("can't find label for jump to `{}'", String::from_utf8_lossy(&name));
            return Err(CompileError { msg, status: 4 });
        };
        match &mut p.cmds[at].kind {
            Kind::Branch(t) | Kind::BranchIf(t) | Kind::BranchUnless(t) => *t = Some(target),
            _ => {}
        }
    }
    Ok(Program { cmds: p.cmds, wfiles: p.wfiles, quiet })
}

impl Parser<'_> {
    fn inchar(&mut self) -> i32 {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                i32::from(b)
            }
            None => EOF,
        }
    }
    fn savchar(&mut self, ch: i32) {
        if ch != EOF && self.pos > 0 {
            self.pos -= 1;
        }
    }
    fn in_nonblank(&mut self) -> i32 {
        loop {
            let c = self.inchar();
            if c != i32::from(b' ') && c != i32::from(b'\t') {
                return c;
            }
        }
    }
    fn in_integer(&mut self, first: i32) -> u64 {
        let mut n: u64 = (first - i32::from(b'0')) as u64;
        loop {
            let c = self.inchar();
            if (i32::from(b'0')..=i32::from(b'9')).contains(&c) {
                n = n.saturating_mul(10).saturating_add((c - i32::from(b'0')) as u64);
            } else {
                self.savchar(c);
                return n;
            }
        }
    }

    /// An error at the current position, worded as GNU's `bad_prog`.
    fn bad(&self, msg: impl AsRef<str>) -> CompileError {
        let idx = self.starts.iter().rposition(|s| s.0 < self.pos.max(1)).unwrap_or(0);
        let (start, chunk) = self.starts[idx];
        let msg = match &chunk.file {
            Some(f) => {
                let line = 1 + self.buf[start..self.pos.max(start)].iter().filter(|&&b| b == b'\n').count();
                let line = if self.buf[..self.pos].last() == Some(&b'\n') { line - 1 } else { line };
                format!("file {f} line {line}: {}", msg.as_ref())
            }
            None => format!("-e expression #{}, char {}: {}", idx + 1, self.pos - start, msg.as_ref()),
        };
        CompileError { msg, status: 1 }
    }

    fn program(&mut self) -> PResult<()> {
        loop {
            let mut ch = self.inchar();
            while ch == i32::from(b';') || is_space(ch) {
                ch = self.inchar();
            }
            if ch == EOF {
                return Ok(());
            }
            let mut cmd = Cmd { a1: None, a2: None, negate: false, kind: Kind::Nop };
            let mut zero = false;
            if let Some(a) = self.address(ch, false)? {
                zero = matches!(a, Addr::Line(0));
                cmd.a1 = Some(a);
                ch = self.in_nonblank();
                if ch == i32::from(b',') {
                    let c = self.in_nonblank();
                    match self.address2(c)? {
                        Some(a2) => cmd.a2 = Some(a2),
                        None => return Err(self.bad("unexpected `,'")),
                    }
                    ch = self.in_nonblank();
                }
            }
            if ch == i32::from(b'!') {
                cmd.negate = true;
                ch = self.in_nonblank();
                while is_space(ch) {
                    ch = self.in_nonblank();
                }
                if ch == i32::from(b'!') {
                    return Err(self.bad("multiple `!'s"));
                }
            }
            if ch == EOF || ch == i32::from(b'\n') || ch == i32::from(b';') {
                if ch != EOF {
                    // GNU counts the terminator as read.
                }
                return Err(self.bad("missing command"));
            }
            if zero && !matches!(cmd.a2, Some(Addr2::A(Addr::Re(_)))) {
                return Err(self.bad("invalid usage of line address 0"));
            }
            self.command(ch as u8, cmd)?;
        }
    }

    /// `N`, `$`, `/re/`, `\cREc`, `first~step`.
    fn address(&mut self, ch: i32, _second: bool) -> PResult<Option<Addr>> {
        if ch == i32::from(b'/') || ch == i32::from(b'\\') {
            let delim = if ch == i32::from(b'\\') { self.inchar() } else { ch };
            if delim == EOF || delim == i32::from(b'\n') || delim == i32::from(b'\\') {
                return Err(self.bad("unterminated address regex"));
            }
            let Some(pat) = self.match_slash(delim as u8, true) else {
                return Err(self.bad("unterminated address regex"));
            };
            let (mut icase, mut multi) = (false, false);
            loop {
                let c = self.in_nonblank();
                if c == i32::from(b'I') {
                    icase = true;
                } else if c == i32::from(b'M') {
                    multi = true;
                } else {
                    self.savchar(c);
                    break;
                }
            }
            return Ok(Some(Addr::Re(self.regex(&pat, icase, multi)?)));
        }
        if is_digit(ch) {
            let n = self.in_integer(ch);
            let c = self.in_nonblank();
            if c != i32::from(b'~') {
                self.savchar(c);
                return Ok(Some(Addr::Line(n)));
            }
            let c = self.in_nonblank();
            let step = if is_digit(c) {
                self.in_integer(c)
            } else {
                self.savchar(c);
                0
            };
            return Ok(Some(if step > 0 { Addr::Step(n, step) } else { Addr::Line(n) }));
        }
        if ch == i32::from(b'$') {
            return Ok(Some(Addr::Last));
        }
        Ok(None)
    }

    fn address2(&mut self, ch: i32) -> PResult<Option<Addr2>> {
        if ch == i32::from(b'+') || ch == i32::from(b'~') {
            let c = self.in_nonblank();
            if !is_digit(c) {
                self.savchar(c);
                return Ok(None);
            }
            let n = self.in_integer(c);
            return Ok(Some(if ch == i32::from(b'+') { Addr2::Plus(n) } else { Addr2::Tilde(n) }));
        }
        Ok(self.address(ch, true)?.map(|a| match a {
            // A step as the second address means just its line number.
            Addr::Step(n, _) => Addr2::A(Addr::Line(n)),
            a => Addr2::A(a),
        }))
    }

    /// GNU `match_slash`: text up to an unescaped `delim`; `\delim` loses its
    /// backslash, `\n` becomes a newline in regexes, `\` + newline a newline.
    fn match_slash(&mut self, delim: u8, regex: bool) -> Option<Vec<u8>> {
        let mut b = Vec::new();
        loop {
            let mut ch = self.inchar();
            if ch == EOF {
                return None;
            }
            if ch == i32::from(b'\n') {
                self.savchar(ch);
                return None;
            }
            if ch == i32::from(delim) {
                return Some(b);
            }
            if ch == i32::from(b'[') && regex {
                // A bracket expression is copied as is: the delimiter is literal inside.
                b.push(b'[');
                self.bracket(&mut b)?;
                continue;
            }
            if ch == i32::from(b'\\') {
                ch = self.inchar();
                if ch == EOF {
                    return None;
                } else if ch == i32::from(b'n') && regex {
                    ch = i32::from(b'\n');
                } else if ch != i32::from(b'\n') && (ch != i32::from(delim) || (!regex && ch == i32::from(b'&'))) {
                    b.push(b'\\');
                }
            }
            b.push(ch as u8);
        }
    }

    /// The rest of a bracket expression after `[` (`[^]...]`, `[[:alpha:]]`).
    fn bracket(&mut self, b: &mut Vec<u8>) -> Option<()> {
        let mut first = true;
        loop {
            let ch = self.inchar();
            if ch == EOF || ch == i32::from(b'\n') {
                self.savchar(ch);
                return None;
            }
            b.push(ch as u8);
            if ch == i32::from(b'^') && first && b.len() >= 2 && b[b.len() - 2] == b'[' {
                continue;
            }
            if ch == i32::from(b']') && !first {
                return Some(());
            }
            first = false;
            if ch == i32::from(b'[') {
                let k = self.inchar();
                if k == i32::from(b':') || k == i32::from(b'=') || k == i32::from(b'.') {
                    b.push(k as u8);
                    // Up to the matching `:]`.
                    loop {
                        let c = self.inchar();
                        if c == EOF || c == i32::from(b'\n') {
                            self.savchar(c);
                            return None;
                        }
                        b.push(c as u8);
                        if c == k && self.buf.get(self.pos) == Some(&b']') {
                            self.pos += 1;
                            b.push(b']');
                            break;
                        }
                    }
                } else {
                    self.savchar(k);
                }
            }
        }
    }

    fn regex(&mut self, pat: &[u8], icase: bool, multi: bool) -> PResult<Option<Re>> {
        if pat.is_empty() {
            if !self.have_re {
                let mut e = self.bad("no previous regular expression");
                if let Some(i) = e.msg.find(", char ") {
                    let rest = e.msg[i + 7..].split_once(':').map_or("", |r| r.1).to_string();
                    e.msg = format!("{}, char 0:{rest}", &e.msg[..i]);
                }
                return Err(e);
            }
            return Ok(None);
        }
        self.have_re = true;
        let pat = String::from_utf8_lossy(pat);
        let t = translate_sed(&pat, self.ere).map_err(|e| self.bad(e))?;
        let flags = Flags { icase, multi_line: multi, dot_nl: !multi };
        let re = PosixRegex::new(&t.source, t.backrefs, flags, self.regex_limit).map_err(|e| match e {
            RegexError::TooBig => self.bad("Regular expression too big"),
            RegexError::Invalid => self.bad("Invalid regular expression"),
        })?;
        Ok(Some(Re(Arc::new(re))))
    }

    /// GNU `read_end_of_cmd`.
    fn end_of_cmd(&mut self) -> PResult<()> {
        let ch = self.in_nonblank();
        if ch == i32::from(b'}') || ch == i32::from(b'#') {
            self.savchar(ch);
        } else if ch != EOF && ch != i32::from(b'\n') && ch != i32::from(b';') {
            return Err(self.bad("extra characters after command"));
        }
        Ok(())
    }

    /// A label for `:`, `b`, `t`, `T`: up to whitespace or `;`.
    fn label(&mut self) -> Vec<u8> {
        let mut b = Vec::new();
        let mut ch = self.in_nonblank();
        while ch != EOF && ch != i32::from(b'\n') && !is_space(ch) && ch != i32::from(b';') {
            b.push(ch as u8);
            ch = self.inchar();
        }
        self.savchar(ch);
        b
    }

    /// A file name for `r`, `w`, ...: the rest of the line.
    fn filename(&mut self) -> PResult<String> {
        let mut b = Vec::new();
        let mut ch = self.in_nonblank();
        while ch != EOF && ch != i32::from(b'\n') {
            b.push(ch as u8);
            ch = self.inchar();
        }
        if b.is_empty() {
            return Err(self.bad("missing filename in r/R/w/W commands"));
        }
        Ok(String::from_utf8_lossy(&b).into_owned())
    }

    fn wfile(&mut self, name: String) -> usize {
        let t = match name.as_str() {
            "/dev/stdout" => WTarget::Stdout,
            "/dev/stderr" => WTarget::Stderr,
            _ => WTarget::File(name),
        };
        match self.wfiles.iter().position(|w| *w == t) {
            Some(i) => i,
            None => {
                self.wfiles.push(t);
                self.wfiles.len() - 1
            }
        }
    }

    /// GNU `read_text` for `a`, `i`, `c`: one-liner or `a\` block; backslashes
    /// continue lines and escape characters.
    fn text(&mut self) -> PResult<Vec<u8>> {
        let mut ch = self.in_nonblank();
        if ch == EOF {
            return Err(self.bad("expected \\ after `a', `c' or `i'"));
        }
        let mut raw = Vec::new();
        if ch == i32::from(b'\\') {
            ch = self.inchar();
            if ch == EOF {
                return Ok(Vec::new());
            }
            if ch != i32::from(b'\n') {
                // `a\text`: the text starts right after the backslash, blanks kept.
                self.savchar(ch);
            }
        } else {
            self.savchar(ch);
        }
        ch = self.inchar();
        while ch != EOF && ch != i32::from(b'\n') {
            if ch == i32::from(b'\\') {
                ch = self.inchar();
                if ch != EOF {
                    raw.push(b'\\');
                }
            }
            if ch == EOF {
                break;
            }
            raw.push(ch as u8);
            ch = self.inchar();
        }
        raw.push(b'\n');
        Ok(unescape_text(&raw))
    }

    fn command(&mut self, c: u8, mut cmd: Cmd) -> PResult<()> {
        let one_addr = |p: &Self, cmd: &Cmd| -> PResult<()> {
            if cmd.a2.is_some() {
                return Err(p.bad("command only uses one address"));
            }
            Ok(())
        };
        cmd.kind = match c {
            b'{' => {
                self.blocks.push(self.cmds.len());
                Kind::Block(0)
            }
            b'}' => {
                if cmd.a1.is_some() {
                    return Err(self.bad("unexpected `,'"));
                }
                let Some(open) = self.blocks.pop() else {
                    return Err(self.bad("unexpected `}'"));
                };
                let end = self.cmds.len() + 1;
                self.cmds[open].kind = Kind::Block(end);
                self.end_of_cmd()?;
                Kind::EndBlock
            }
            b'#' => {
                if cmd.a1.is_some() {
                    return Err(self.bad("comments don't accept any addresses"));
                }
                let mut ch = self.inchar();
                while ch != EOF && ch != i32::from(b'\n') {
                    ch = self.inchar();
                }
                return Ok(());
            }
            b':' => {
                if cmd.a1.is_some() {
                    return Err(self.bad(": doesn't want any addresses"));
                }
                let l = self.label();
                if l.is_empty() {
                    return Err(self.bad("\":\" lacks a label"));
                }
                self.labels.push((l, self.cmds.len()));
                let ch = self.in_nonblank();
                if ch == i32::from(b';') || ch == i32::from(b'\n') {
                    // consumed
                } else {
                    self.savchar(ch);
                }
                Kind::Nop
            }
            b'b' | b't' | b'T' => {
                let l = self.label();
                if !l.is_empty() {
                    self.jumps.push((self.cmds.len(), l));
                }
                match c {
                    b'b' => Kind::Branch(None),
                    b't' => Kind::BranchIf(None),
                    _ => Kind::BranchUnless(None),
                }
            }
            b'a' | b'i' | b'c' => {
                let t = self.text()?;
                match c {
                    b'a' => Kind::Append(t),
                    b'i' => Kind::Insert(t),
                    _ => Kind::Change(t),
                }
            }
            b'r' | b'R' | b'w' | b'W' => {
                let f = self.filename()?;
                match c {
                    b'r' => Kind::ReadFile(f),
                    b'R' => Kind::ReadLine(f),
                    b'w' => Kind::Write(self.wfile(f)),
                    _ => Kind::WriteFirst(self.wfile(f)),
                }
            }
            b'q' | b'Q' | b'l' | b'L' => {
                if c != b'l' {
                    one_addr(self, &cmd)?;
                }
                let ch = self.in_nonblank();
                let n = if is_digit(ch) {
                    Some(self.in_integer(ch))
                } else {
                    self.savchar(ch);
                    None
                };
                self.end_of_cmd()?;
                let code = n.unwrap_or(0).min(i32::MAX as u64) as i32;
                match c {
                    b'q' => Kind::Quit(code),
                    b'Q' => Kind::QuitSilent(code),
                    b'l' => Kind::List(n.map(|v| v as usize)),
                    _ => return Err(self.bad("unknown command: `L'")),
                }
            }
            b'=' | b'd' | b'D' | b'F' | b'g' | b'G' | b'h' | b'H' | b'n' | b'N' | b'p' | b'P' | b'z' | b'x' => {
                self.end_of_cmd()?;
                match c {
                    b'=' => Kind::LineNo,
                    b'd' => Kind::Delete,
                    b'D' => Kind::DeleteFirst,
                    b'F' => Kind::FileName,
                    b'g' => Kind::Get,
                    b'G' => Kind::GetAppend,
                    b'h' => Kind::Hold,
                    b'H' => Kind::HoldAppend,
                    b'n' => Kind::Next,
                    b'N' => Kind::NextAppend,
                    b'p' => Kind::Print,
                    b'P' => Kind::PrintFirst,
                    b'z' => Kind::Zap,
                    _ => Kind::Exchange,
                }
            }
            b'e' => return Err(self.bad("e/r/w commands disabled in sandbox mode")),
            b's' => self.subst()?,
            b'y' => self.trans()?,
            other => {
                let ch = String::from_utf8_lossy(&[other]).into_owned();
                return Err(self.bad(format!("unknown command: `{ch}'")));
            }
        };
        self.cmds.push(cmd);
        Ok(())
    }

    fn subst(&mut self) -> PResult<Kind> {
        let delim = self.inchar();
        if delim == EOF || delim == i32::from(b'\n') || delim == i32::from(b'\\') {
            return Err(self.bad("unterminated `s' command"));
        }
        let d = delim as u8;
        let Some(pat) = self.match_slash(d, true) else {
            return Err(self.bad("unterminated `s' command"));
        };
        let Some(rep) = self.match_slash(d, false) else {
            return Err(self.bad("unterminated `s' command"));
        };
        let mut s = Subst { re: None, repl: Vec::new(), global: false, nth: 1, print: false, write: None };
        let (mut icase, mut multi, mut have_n) = (false, false, false);
        loop {
            let ch = self.in_nonblank();
            match u8::try_from(ch).unwrap_or(0) {
                b'i' | b'I' => icase = true,
                b'm' | b'M' => multi = true,
                b'e' => return Err(self.bad("e/r/w commands disabled in sandbox mode")),
                b'p' => {
                    if s.print {
                        return Err(self.bad("multiple `p' options to `s' command"));
                    }
                    s.print = true;
                }
                b'g' => {
                    if s.global {
                        return Err(self.bad("multiple `g' options to `s' command"));
                    }
                    s.global = true;
                }
                b'w' => {
                    let f = self.filename()?;
                    s.write = Some(self.wfile(f));
                    break;
                }
                b'0'..=b'9' => {
                    if have_n {
                        return Err(self.bad("multiple number options to `s' command"));
                    }
                    let n = self.in_integer(ch);
                    if n == 0 {
                        return Err(self.bad("number option to `s' command may not be zero"));
                    }
                    have_n = true;
                    s.nth = n.min(usize::MAX as u64) as usize;
                }
                b'}' | b'#' if ch != EOF => {
                    self.savchar(ch);
                    break;
                }
                b'\n' | b';' if ch != EOF => break,
                _ if ch == EOF => break,
                _ => return Err(self.bad("unknown option to `s'")),
            }
        }
        s.re = self.regex(&pat, icase, multi)?;
        s.repl = parse_replacement(&rep);
        if let Some(re) = &s.re {
            let groups = re.0.captures_len() - 1;
            for r in &s.repl {
                if let Repl::Group(g) = r {
                    if *g > groups {
                        return Err(self.bad(format!("invalid reference \\{g} on `s' command's RHS")));
                    }
                }
            }
        }
        Ok(Kind::Subst(Box::new(s)))
    }

    fn trans(&mut self) -> PResult<Kind> {
        let delim = self.inchar();
        if delim == EOF || delim == i32::from(b'\n') || delim == i32::from(b'\\') {
            return Err(self.bad("unterminated `y' command"));
        }
        let d = delim as u8;
        let (Some(a), Some(b)) = (self.match_slash(d, false), self.match_slash(d, false)) else {
            return Err(self.bad("unterminated `y' command"));
        };
        let unesc = |v: &[u8]| -> Vec<char> {
            let mut out = Vec::new();
            let mut i = 0;
            while i < v.len() {
                if v[i] == b'\\' && i + 1 < v.len() {
                    out.push(match v[i + 1] {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        other => other,
                    });
                    i += 2;
                } else {
                    out.push(v[i]);
                    i += 1;
                }
            }
            String::from_utf8_lossy(&out).chars().collect()
        };
        let (a, b) = (unesc(&a), unesc(&b));
        if a.len() != b.len() {
            return Err(self.bad("strings for `y' command are different lengths"));
        }
        self.end_of_cmd()?;
        Ok(Kind::Trans(a.into_iter().zip(b).collect()))
    }
}

fn is_space(ch: i32) -> bool {
    u8::try_from(ch).is_ok_and(|b| b.is_ascii_whitespace() || b == 0x0b)
}

fn is_digit(ch: i32) -> bool {
    u8::try_from(ch).is_ok_and(|b| b.is_ascii_digit())
}

/// A character escape shared by text and replacements (`\t`, `\x41`, ...):
/// the byte and how many input bytes after the backslash it used.
fn char_escape(v: &[u8]) -> Option<(u8, usize)> {
    let num = |radix: u32, max: usize| -> Option<(u8, usize)> {
        let digits: Vec<u8> = v[1..].iter().take(max).take_while(|b| (**b as char).is_digit(radix)).copied().collect();
        let s = std::str::from_utf8(&digits).ok()?;
        let n = u32::from_str_radix(s, radix).ok()?;
        Some(((n & 0xff) as u8, 1 + digits.len()))
    };
    match *v.first()? {
        b'a' => Some((7, 1)),
        b'f' => Some((12, 1)),
        b'v' => Some((11, 1)),
        b'r' => Some((b'\r', 1)),
        b't' => Some((b'\t', 1)),
        b'n' => Some((b'\n', 1)),
        b'd' => num(10, 3),
        b'o' => num(8, 3),
        b'x' => num(16, 2),
        b'c' => v.get(1).map(|c| (c.to_ascii_uppercase() ^ 0x40, 2)),
        _ => None,
    }
}

/// `a`/`i`/`c` text: escapes converted, other backslashes dropped.
fn unescape_text(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() {
            match char_escape(&raw[i + 1..]) {
                Some((b, used)) => {
                    out.push(b);
                    i += 1 + used;
                }
                None => {
                    out.push(raw[i + 1]);
                    i += 2;
                }
            }
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    out
}

/// An `s` replacement: `&`, `\1`..`\9`, case conversions, escapes.
fn parse_replacement(v: &[u8]) -> Vec<Repl> {
    let mut out = Vec::new();
    let mut lit = Vec::new();
    let flush = |lit: &mut Vec<u8>, out: &mut Vec<Repl>| {
        if !lit.is_empty() {
            out.push(Repl::Lit(std::mem::take(lit)));
        }
    };
    let mut i = 0;
    while i < v.len() {
        let c = v[i];
        if c == b'&' {
            flush(&mut lit, &mut out);
            out.push(Repl::Group(0));
            i += 1;
            continue;
        }
        if c != b'\\' || i + 1 >= v.len() {
            lit.push(c);
            i += 1;
            continue;
        }
        let e = v[i + 1];
        let special = match e {
            b'0'..=b'9' => Some(Repl::Group(usize::from(e - b'0'))),
            b'L' => Some(Repl::Lower),
            b'U' => Some(Repl::Upper),
            b'l' => Some(Repl::LowerOne),
            b'u' => Some(Repl::UpperOne),
            b'E' => Some(Repl::EndCase),
            _ => None,
        };
        if let Some(r) = special {
            flush(&mut lit, &mut out);
            out.push(r);
            i += 2;
            continue;
        }
        match char_escape(&v[i + 1..]) {
            Some((b, used)) => {
                lit.push(b);
                i += 1 + used;
            }
            None => {
                lit.push(e);
                i += 2;
            }
        }
    }
    flush(&mut lit, &mut out);
    out
}
