//! diff's if-then-else output: every line of both files written through
//! line formats (`--old-line-format`, `--new-line-format`,
//! `--unchanged-line-format`, `--line-format`) inside line group formats
//! (`--old-group-format`, `--new-group-format`, `--changed-group-format`,
//! `--unchanged-group-format`, or `-D NAME`'s `#ifdef` groups), with GNU's
//! directives: `%<` `%>` `%=` (a group's lines), `%l` `%L` (a line without or
//! with its newline), `%%`, `%c'C'`, printf-style numbers of lines (`%dn`,
//! `%5dF`, group letters `e f l m n` of the old file and `E F L M N` of the
//! new) and conditionals `%(A=B?THEN:ELSE)`.

use super::seq::Change;
use std::borrow::Cow;

/// Nesting of `%(...)` conditionals past which the rest is written as it is
/// (a format is an argument: deep nesting must not reach the stack's end).
const MAX_NESTING: usize = 32;

/// Which line format or group format an option sets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Which {
    OldLine,
    NewLine,
    UnchangedLine,
    OldGroup,
    NewGroup,
    ChangedGroup,
    UnchangedGroup,
}

/// The formats given; a missing one has GNU's default.
#[derive(Default)]
pub struct Formats {
    given: [Option<Vec<u8>>; 7],
}

impl Formats {
    /// Set one format. `Err` when the option set it to something else
    /// before (GNU's "conflicting ... option value").
    pub fn set(&mut self, which: Which, value: &[u8]) -> Result<(), ()> {
        let slot = &mut self.given[which as usize];
        match slot {
            Some(old) if old.as_slice() != value => Err(()),
            _ => {
                *slot = Some(value.to_vec());
                Ok(())
            }
        }
    }

    /// `-D NAME`: C preprocessor conditionals around each group.
    pub fn set_ifdef(&mut self, name: &str) -> Result<(), Which> {
        let groups = [
            (Which::OldGroup, format!("#ifndef {name}\n%<#endif /* ! {name} */\n")),
            (Which::NewGroup, format!("#ifdef {name}\n%>#endif /* {name} */\n")),
            (Which::ChangedGroup, format!("#ifndef {name}\n%<#else /* {name} */\n%>#endif /* {name} */\n")),
            (Which::UnchangedGroup, "%=".to_string()),
        ];
        for (which, value) in groups {
            self.set(which, value.as_bytes()).map_err(|()| which)?;
        }
        Ok(())
    }

    /// A format as GNU completes the set: line formats are `%l\n`; a
    /// missing old or new group format is the changed one when given (else
    /// `%<`, `%>`), a missing changed one the old and new together, a missing
    /// unchanged one `%=`.
    fn get(&self, which: Which) -> Cow<'_, [u8]> {
        let given = |w: Which| self.given[w as usize].as_deref();
        let or = |w: Which, dflt: &'static [u8]| Cow::Borrowed(given(w).unwrap_or(dflt));
        match which {
            Which::OldLine | Which::NewLine | Which::UnchangedLine => or(which, b"%l\n"),
            Which::UnchangedGroup => or(which, b"%="),
            Which::OldGroup | Which::NewGroup => match given(which).or(given(Which::ChangedGroup)) {
                Some(f) => Cow::Borrowed(f),
                None => Cow::Borrowed(if which == Which::OldGroup { b"%<" } else { b"%>" }),
            },
            Which::ChangedGroup => match given(which) {
                Some(f) => Cow::Borrowed(f),
                None => Cow::Owned([self.get(Which::OldGroup), self.get(Which::NewGroup)].concat()),
            },
        }
    }
}

/// Why writing stopped early.
pub enum Stopped {
    /// The memory budget cannot hold more output.
    Budget,
    /// The exec's deadline or cancel.
    Halted,
}

/// Writes line groups through the formats; the caller sends the output on
/// between groups ([`Writer::take`]).
pub struct Writer<'f, 'l> {
    formats: &'f Formats,
    a: &'l [&'l [u8]],
    b: &'l [&'l [u8]],
    out: Vec<u8>,
    lines: usize,
}

/// One line group: its lines of each file, as 0-based half-open ranges.
#[derive(Clone, Copy)]
struct Group {
    a: (usize, usize),
    b: (usize, usize),
}

impl Group {
    /// The value of a group letter: `e f l m n` count in the old file,
    /// `E F L M N` in the new one (1-based line numbers).
    fn letter(&self, c: u8) -> Option<i64> {
        let (lo, hi) = if c.is_ascii_lowercase() { self.a } else { self.b };
        let (first, last) = (lo as i64 + 1, hi as i64);
        Some(match c.to_ascii_lowercase() {
            b'e' => first - 1,
            b'f' => first,
            b'l' => last,
            b'm' => last + 1,
            b'n' => last - first + 1,
            _ => return None,
        })
    }
}

/// What a format is being written for: a group, or one line (its text and number).
enum Subject<'l> {
    Group(Group),
    Line(&'l [u8], usize),
}

impl<'f, 'l> Writer<'f, 'l> {
    pub fn new(formats: &'f Formats, a: &'l [&'l [u8]], b: &'l [&'l [u8]]) -> Self {
        Writer { formats, a, b, out: Vec::new(), lines: 0 }
    }

    /// The output so far, to send.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Write one group through its group format.
    pub fn group(&mut self, g: &Stretch, going: &mut dyn FnMut() -> bool) -> Result<(), Stopped> {
        let which = match (g.changed, g.a.1 > g.a.0, g.b.1 > g.b.0) {
            (false, ..) => Which::UnchangedGroup,
            (true, true, true) => Which::ChangedGroup,
            (true, true, false) => Which::OldGroup,
            (true, ..) => Which::NewGroup,
        };
        let formats = self.formats;
        let fmt = formats.get(which);
        let mut i = 0;
        self.format(&fmt, &mut i, None, &Subject::Group(Group { a: g.a, b: g.b }), true, 0, going)
    }

    fn push(&mut self, bytes: &[u8]) -> Result<(), Stopped> {
        if crate::limits::scope::extend_within_budget(&mut self.out, bytes) {
            Ok(())
        } else {
            Err(Stopped::Budget)
        }
    }

    /// The lines of one side of a group, each through its line format.
    fn lines(&mut self, which: Which, g: Group, going: &mut dyn FnMut() -> bool) -> Result<(), Stopped> {
        let (lines, range) = match which {
            Which::NewLine => (self.b, g.b),
            _ => (self.a, g.a),
        };
        let formats = self.formats;
        let fmt = formats.get(which);
        let (lo, hi) = (range.0, range.1.min(lines.len()));
        for (n, line) in lines.iter().enumerate().take(hi).skip(lo) {
            self.lines += 1;
            if self.lines.is_multiple_of(256) && !going() {
                return Err(Stopped::Halted);
            }
            let mut i = 0;
            self.format(&fmt, &mut i, None, &Subject::Line(line, n + 1), true, 0, going)?;
        }
        Ok(())
    }

    /// Interpret `fmt` from `*i` up to an unescaped byte of `stop` (or its
    /// end), writing only when `write` (a branch not taken is only read).
    #[allow(clippy::too_many_arguments)]
    fn format(
        &mut self,
        fmt: &[u8],
        i: &mut usize,
        stop: Option<u8>,
        subject: &Subject<'_>,
        write: bool,
        depth: usize,
        going: &mut dyn FnMut() -> bool,
    ) -> Result<(), Stopped> {
        while *i < fmt.len() {
            let c = fmt[*i];
            if Some(c) == stop {
                return Ok(());
            }
            if c != b'%' {
                // A run of plain bytes is written at once.
                let run = fmt[*i..].iter().take_while(|&&b| b != b'%' && Some(b) != stop).count();
                if write {
                    self.push(&fmt[*i..*i + run])?;
                }
                *i += run;
                continue;
            }
            *i += 1;
            let start = *i - 1;
            match (fmt.get(*i).copied(), subject) {
                (Some(b'%'), _) => {
                    *i += 1;
                    if write {
                        self.push(b"%")?;
                    }
                }
                (Some(d @ (b'<' | b'>' | b'=')), Subject::Group(g)) => {
                    *i += 1;
                    if write {
                        let which = match d {
                            b'<' => Which::OldLine,
                            b'>' => Which::NewLine,
                            _ => Which::UnchangedLine,
                        };
                        self.lines(which, *g, going)?;
                    }
                }
                (Some(b'l'), Subject::Line(text, _)) => {
                    *i += 1;
                    if write {
                        self.push(text.strip_suffix(b"\n").unwrap_or(text))?;
                    }
                }
                (Some(b'L'), Subject::Line(text, _)) => {
                    *i += 1;
                    if write {
                        self.push(text)?;
                    }
                }
                (Some(b'('), _) if depth < MAX_NESTING => {
                    *i += 1;
                    match condition(fmt, i, subject) {
                        Some(holds) => {
                            self.format(fmt, i, Some(b':'), subject, write && holds, depth + 1, going)?;
                            if fmt.get(*i) == Some(&b':') {
                                *i += 1;
                            }
                            self.format(fmt, i, Some(b')'), subject, write && !holds, depth + 1, going)?;
                            if fmt.get(*i) == Some(&b')') {
                                *i += 1;
                            }
                        }
                        None => {
                            *i = start + 1;
                            if write {
                                self.push(b"%")?;
                            }
                        }
                    }
                }
                _ => match spec(fmt, *i, subject) {
                    Some((text, end)) => {
                        *i = end;
                        if write {
                            self.push(&text)?;
                        }
                    }
                    // Not a directive: the `%` is written as it is.
                    None => {
                        if write {
                            self.push(b"%")?;
                        }
                    }
                },
            }
        }
        Ok(())
    }
}

/// A line group as the walk finds it: its lines of each file (0-based,
/// half-open) and whether it is a change (else both sides hold the same lines).
pub struct Stretch {
    a: (usize, usize),
    b: (usize, usize),
    changed: bool,
}

/// The groups of the whole files: the unchanged stretches between the
/// changes, and the changes.
pub fn stretches(changes: &[Change], na: usize, nb: usize) -> Vec<Stretch> {
    let mut out = Vec::with_capacity(changes.len() * 2 + 1);
    let (mut pa, mut pb) = (0, 0);
    for c in changes {
        if c.a.0 > pa || c.b.0 > pb {
            out.push(Stretch { a: (pa, c.a.0), b: (pb, c.b.0), changed: false });
        }
        out.push(Stretch { a: c.a, b: c.b, changed: true });
        (pa, pb) = (c.a.1, c.b.1);
    }
    if pa < na || pb < nb {
        out.push(Stretch { a: (pa, na), b: (pb, nb), changed: false });
    }
    out
}

/// `A=B?` of a conditional (after `%(`): whether it holds; `None` when it is
/// not one (then the `%` is literal).
fn condition(fmt: &[u8], i: &mut usize, subject: &Subject<'_>) -> Option<bool> {
    let a = operand(fmt, i, subject)?;
    if fmt.get(*i) != Some(&b'=') {
        return None;
    }
    *i += 1;
    let b = operand(fmt, i, subject)?;
    if fmt.get(*i) != Some(&b'?') {
        return None;
    }
    *i += 1;
    Some(a == b)
}

/// A number or a letter's value.
fn operand(fmt: &[u8], i: &mut usize, subject: &Subject<'_>) -> Option<i64> {
    let digits = fmt[*i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        let text = std::str::from_utf8(&fmt[*i..*i + digits]).ok()?;
        *i += digits;
        return text.parse().ok();
    }
    let v = value(*fmt.get(*i)?, subject)?;
    *i += 1;
    Some(v)
}

/// The value a letter names for this subject: a group letter, or `n` (the
/// line's number) for a line.
fn value(c: u8, subject: &Subject<'_>) -> Option<i64> {
    match subject {
        Subject::Group(g) => g.letter(c),
        Subject::Line(_, n) if c == b'n' => Some(*n as i64),
        Subject::Line(..) => None,
    }
}

/// A printf-style directive at `fmt[i..]` (after `%`): `c'C'` or
/// `[-'0]*[width][.prec]{d,o,x,X}LETTER` (GNU takes no other flag). The text and where it ends.
fn spec(fmt: &[u8], i: usize, subject: &Subject<'_>) -> Option<(Vec<u8>, usize)> {
    if fmt.get(i) == Some(&b'c') && fmt.get(i + 1) == Some(&b'\'') {
        return char_spec(fmt, i + 2);
    }
    let mut j = i;
    let mut flags = Vec::new();
    while let Some(&f @ (b'-' | b'\'' | b'0')) = fmt.get(j) {
        flags.push(f);
        j += 1;
    }
    let num = |j: &mut usize| -> Option<usize> {
        let n = fmt[*j..].iter().take_while(|c| c.is_ascii_digit()).count();
        let text = std::str::from_utf8(&fmt[*j..*j + n]).ok()?;
        *j += n;
        // Widths beyond this are not numbers a line count needs.
        text.parse::<usize>().ok().filter(|w| *w <= 1 << 16).or(if n == 0 { Some(0) } else { None })
    };
    let width = num(&mut j)?;
    let precision = if fmt.get(j) == Some(&b'.') {
        j += 1;
        Some(num(&mut j)?)
    } else {
        None
    };
    let conv = *fmt.get(j)?;
    if !matches!(conv, b'd' | b'o' | b'x' | b'X') {
        return None;
    }
    let v = value(*fmt.get(j + 1)?, subject)?;
    let digits = match conv {
        b'd' => v.unsigned_abs().to_string(),
        b'o' => format!("{:o}", v.unsigned_abs()),
        b'x' => format!("{:x}", v.unsigned_abs()),
        _ => format!("{:X}", v.unsigned_abs()),
    };
    let digits = match precision {
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    };
    let sign = if v < 0 { "-" } else { "" };
    let body = format!("{sign}{digits}");
    let text = if body.len() >= width {
        body
    } else if flags.contains(&b'-') {
        format!("{body:<width$}")
    } else if flags.contains(&b'0') && precision.is_none() {
        format!("{sign}{}{digits}", "0".repeat(width - body.len()))
    } else {
        format!("{body:>width$}")
    };
    Some((text.into_bytes(), j + 2))
}

/// `%c'C'` (from after the `'`): one character, or `\OOO` in octal.
fn char_spec(fmt: &[u8], i: usize) -> Option<(Vec<u8>, usize)> {
    if fmt.get(i) == Some(&b'\\') {
        let n = fmt[i + 1..].iter().take(3).take_while(|c| (b'0'..=b'7').contains(c)).count();
        if n == 0 || fmt.get(i + 1 + n) != Some(&b'\'') {
            return None;
        }
        let v = fmt[i + 1..i + 1 + n].iter().fold(0u32, |v, c| v * 8 + u32::from(c - b'0'));
        return Some((vec![v as u8], i + 2 + n));
    }
    let c = *fmt.get(i)?;
    (fmt.get(i + 1) == Some(&b'\'')).then(|| (vec![c], i + 2))
}
