//! Reading a script command by command, as bash does, once aliases change
//! what it says. bash expands an alias as it reads each command, so an alias
//! can stand for a reserved word (`alias myif=if`) or open a here-document
//! whose body is on the lines after it: text that does not parse, or parses
//! otherwise, before the alias is known.
//!
//! The interpreter parses a script whole; when an alias applies to a command
//! (or a parse failed and aliases are defined once the commands before the
//! error have run), the rest of the text is read by a [`Reader`]: the text
//! from the first command not yet run, with the aliases of the moment
//! substituted, is parsed and its commands run one by one. It is read again
//! (from the end of the last command run) only when the aliases change, so a
//! script is parsed once more per `alias`/`unalias` that runs, and the budget
//! (deadline, command count) is met between commands as everywhere.

use super::alias::{self, Edit};
use super::{run_list, shift_after_abort, Fds, Flow, Res};
use crate::state::source::Source;
use crate::state::ShellState;
use crate::syntax::RunParse;
use brush_parser::ast::{self, SourceLocation};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What to do next.
pub enum Step {
    /// Run complete command `i` of the program (`sh.src` is its text);
    /// `true` when it is the text's last.
    Run(Arc<ast::Program>, usize, bool),
    /// The text is done.
    Done,
    /// A syntax error (bash's message, lines counted in the text read).
    Error(String),
}

pub struct Reader {
    raw: Arc<str>,
    /// Byte offset in `raw` of the first command not yet read.
    pos: usize,
    /// Lines of `raw` before `pos`.
    lines_before: usize,
    /// The script line of `raw`'s first line, minus one, and the lines moved
    /// by abandoned commands since (see [`Source::with_shift`]).
    base: usize,
    shift: i64,
    chunk: Option<Chunk>,
}

/// The commands of one reading.
struct Chunk {
    program: Arc<ast::Program>,
    source: Arc<Source>,
    /// Byte offset in `raw` where each command's text ends.
    ends: Vec<usize>,
    next: usize,
    /// What the text was read with: a change means reading again.
    aliases: Arc<BTreeMap<String, String>>,
    expand: bool,
    /// The run reaches the text's end: its last command is the text's last.
    at_end: bool,
}

/// Texts up to this size are read at once, as a whole program.
pub const WHOLE: usize = 16 * 1024;
/// A longer text is read in runs of whole commands of about this size.
pub const RUN: usize = 8 * 1024;

impl Reader {
    /// Read on from complete command `i` of `program`, whose text is `sh.src`
    /// (or begins `raw`, when given: the whole text of a runnable prefix).
    pub fn at_command(sh: &ShellState, program: &ast::Program, i: usize, raw: Option<Arc<str>>) -> Option<Reader> {
        let start = alias::command_start(&sh.src, program, i)?;
        let pos = sh.src.byte_offset(start)?;
        let raw = raw.unwrap_or_else(|| sh.src.text.clone());
        let lines_before = raw.get(..pos)?.matches('\n').count();
        Some(Reader { raw, pos, lines_before, base: sh.src.line_base, shift: sh.src.shift(), chunk: None })
    }

    /// Read on from byte `pos` of `raw` (the text after a runnable prefix),
    /// whose first line is script line `base + 1`.
    pub fn at_offset(raw: Arc<str>, pos: usize, base: usize) -> Reader {
        let pos = pos.min(raw.len());
        let lines_before = raw[..pos].matches('\n').count();
        Reader { raw, pos, lines_before, base, shift: 0, chunk: None }
    }

    /// Read the first run now (a script's first command is parsed before it
    /// runs): `Err` with bash's message when the text's first command does
    /// not parse (nothing would run). A malformed `[[ ]]` is left for the run
    /// to report, as it reports it.
    pub fn prime(&mut self, sh: &ShellState) -> Result<(), String> {
        while self.chunk.is_none() {
            match self.read(sh) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(m) if crate::syntax::cond::message(&m).is_none() => return Err(m),
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// The next command, with `sh.src` set to its text.
    pub fn next(&mut self, sh: &mut ShellState) -> Step {
        // A fresh reading hands out its first command at once; a run with no
        // command (comments) is passed over. Every reading moves on.
        loop {
            if let Some(c) = &mut self.chunk {
                if c.next > 0 {
                    // The previous command may have moved the lines after it.
                    c.source = sh.src.clone();
                }
                let same = c.expand == sh.opts.expand_aliases
                    && (Arc::ptr_eq(&c.aliases, &sh.aliases) || *c.aliases == *sh.aliases);
                if same && c.next < c.ends.len() {
                    let i = c.next;
                    c.next += 1;
                    let end = c.ends[i];
                    self.lines_before += self.raw.get(self.pos..end).map_or(0, |t| t.matches('\n').count());
                    self.pos = end;
                    sh.src = c.source.clone();
                    return Step::Run(c.program.clone(), i, c.at_end && c.next == c.ends.len());
                }
                self.shift = c.source.shift();
            }
            self.chunk = None;
            match self.read(sh) {
                Ok(true) => {}
                Ok(false) => return Step::Done,
                Err(m) => return Step::Error(m),
            }
        }
    }

    /// Parse the text from `pos` with the aliases of now; `false` when no
    /// command is left. A long text is read a run of whole commands at a
    /// time (see [`crate::syntax::split`]), so what is held parsed at once
    /// is about [`RUN`] bytes, or one command when that is longer.
    fn read(&mut self, sh: &ShellState) -> Result<bool, String> {
        let rest = self.raw.get(self.pos..).unwrap_or("");
        let depth = sh.budget.limits.max_parser_depth as usize;
        let mut want = RUN;
        let (parsed, len, edits, at_end) = loop {
            let cut = if rest.len() <= WHOLE { rest.len() } else { crate::syntax::split::scan(rest, want).cut };
            let at_end = cut >= rest.len();
            let run = &rest[..cut];
            let mapped = if sh.opts.expand_aliases && !sh.aliases.is_empty() {
                alias::expand_mapped(run, &sh.aliases)
            } else {
                None
            };
            let (text, edits): (Cow<'_, str>, Vec<Edit>) = match mapped {
                Some((t, e)) => (Cow::Owned(t), e),
                None => (Cow::Borrowed(run), Vec::new()),
            };
            let failed = if at_end {
                match crate::syntax::parse_as(&text, depth, sh.opts.extglob) {
                    Ok(p) => break (p, text.len(), edits, true),
                    Err(m) => m,
                }
            } else {
                match crate::syntax::parse_run(&text, depth, sh.opts.extglob) {
                    RunParse::Parsed(p) => break (p, text.len(), edits, false),
                    RunParse::Incomplete => {
                        // The cut was inside a command: read a longer run.
                        want = cut.saturating_mul(2);
                        continue;
                    }
                    RunParse::Error(m) => m,
                }
            };
            // The commands before the error run; the error comes at the next reading.
            match crate::syntax::runnable_prefix(&text, &failed, depth) {
                Some((p, n)) => break (p, n, edits, false),
                None => {
                    let m = if edits.is_empty() { failed } else { quote_raw_line(&failed, run, &text) };
                    return Err(super::shift_lines(&m, self.lines_before));
                }
            }
        };
        let program = parsed.program;
        let n = program.complete_commands.len();
        if n == 0 {
            if at_end {
                return Ok(false);
            }
            // Only comments and blank lines: on to the next run.
            let end = (self.pos + alias::raw_offset(&edits, len)).clamp(self.pos + 1, self.raw.len());
            self.lines_before += self.raw.get(self.pos..end).map_or(0, |t| t.matches('\n').count());
            self.pos = end;
            return Ok(true);
        }
        let source =
            Arc::unwrap_or_clone(parsed.source).with_line_base(self.base + self.lines_before).with_shift(self.shift);
        // Each command's text ends where the next one starts (its
        // here-document bodies lie past its own location); the last at the
        // end of what parsed.
        let mut ends = Vec::with_capacity(n);
        for i in 1..n {
            let start = alias::command_start(&source, &program, i).and_then(|c| source.byte_offset(c)).unwrap_or(len);
            ends.push(self.pos + alias::raw_offset(&edits, start));
        }
        ends.push(self.pos + alias::raw_offset(&edits, len));
        // Every reading moves on by at least a byte, so reading ends.
        if ends[0] <= self.pos {
            ends[0] = (self.pos + 1).min(self.raw.len());
        }
        self.chunk = Some(Chunk {
            program: Arc::new(program),
            source: Arc::new(source),
            ends,
            next: 0,
            aliases: sh.aliases.clone(),
            expand: sh.opts.expand_aliases,
            at_end,
        });
        Ok(true)
    }
}

/// bash quotes the line of a syntax error as it was written: the line of
/// `raw` for the line of its alias-expanded `text` the message quotes.
fn quote_raw_line(m: &str, raw: &str, text: &str) -> String {
    // The message's last line is `[bash: -c: ]line N: `TEXT'`.
    let quoted = m.rsplit_once('\n').and_then(|(head, last)| {
        let (before, _) = last.split_once(": `")?;
        let at = before.rfind("line ")?;
        let n: usize = before[at + 5..].parse().ok()?;
        if raw.lines().count() != text.lines().count() {
            return None;
        }
        let line = raw.lines().nth(n.checked_sub(1)?)?;
        Some(format!("{head}\n{before}: `{line}'"))
    });
    quoted.unwrap_or_else(|| m.to_string())
}

/// `program`'s command `i` starts a reading when aliases change it.
pub fn wants(sh: &ShellState, program: &ast::Program, i: usize) -> bool {
    alias::changes(sh, program, i) && program.complete_commands[i].location().is_some()
}

/// Run the rest of a top-level script through `reader`, as the program's
/// own loop runs it (`run_program_body`); `Err(Flow::Exit)` ends the shell.
pub async fn run_top(sh: &mut ShellState, mut reader: Reader, fds: &Fds) -> Res {
    let saved = sh.src.clone();
    let out = loop {
        let (program, i) = match reader.next(sh) {
            Step::Run(p, i, last) => {
                if last {
                    let execs = !sh.script_file;
                    super::at_last_command(sh, &p.complete_commands[i], execs, fds).await;
                }
                (p, i)
            }
            Step::Done => break Ok(sh.last_status),
            Step::Error(m) => {
                // A malformed `[[ ]]` ends the script with the status it had.
                let cond = crate::syntax::cond::message(&m);
                if cond != Some("") {
                    let who = if sh.script_file { format!("{}: ", sh.arg0) } else { format!("{}: -c: ", sh.arg0) };
                    let text = m.replace("\nbash: -c: ", &format!("\n{who}"));
                    let _ = fds.stderr.write_str(&format!("{who}{text}\n")).await;
                }
                break Err(Flow::Exit(if cond.is_some() { sh.last_status } else { 2 }));
            }
        };
        match run_list(sh, &program.complete_commands[i], fds).await {
            Ok(_) => {}
            Err(Flow::Break(_) | Flow::Continue(_)) => {}
            Err(Flow::Abort(n)) if sh.subshell_depth > sh.shell_base => {
                sh.last_status = n;
                break Ok(n);
            }
            Err(Flow::Abort(n)) => {
                sh.last_status = n;
                shift_after_abort(sh, &program, i);
            }
            Err(Flow::Return(n)) => sh.last_status = n,
            Err(e) => break Err(e),
        }
    };
    sh.src = saved;
    out
}

/// Run the rest of an `eval`/`source`/script-file text through `reader`, as
/// `run_string_inner` runs its commands; a syntax error is reported as there.
pub async fn run_string(sh: &mut ShellState, mut reader: Reader, fds: &Fds, what: &str, base: usize) -> Res {
    let saved = sh.src.clone();
    let mut status = sh.last_status;
    let out = loop {
        let (program, i) = match reader.next(sh) {
            Step::Run(p, i, last) => {
                if last {
                    let execs = what == "bash" && !sh.script_file;
                    super::at_last_command(sh, &p.complete_commands[i], execs, fds).await;
                }
                (p, i)
            }
            Step::Done => break Ok(status),
            Step::Error(m) => {
                sh.src = saved.clone();
                let src = reader.raw.clone();
                break Ok(super::syntax_error_status(sh, fds, what, &m, base, &src).await);
            }
        };
        let r = run_list(sh, &program.complete_commands[i], fds).await;
        match super::string_step(sh, r, what, &program, i) {
            Ok(s) => status = s,
            Err(e) => break Err(e),
        }
    };
    sh.src = saved;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quoted_line_is_the_line_as_written() {
        let m = "line 1: syntax error near unexpected token `fi'\nbash: -c: line 1: `if true; then :; fi fi'";
        let raw = "myif true; then :; fi fi\necho never\n";
        let text = "if true; then :; fi fi\necho never\n";
        assert_eq!(
            quote_raw_line(m, raw, text),
            "line 1: syntax error near unexpected token `fi'\nbash: -c: line 1: `myif true; then :; fi fi'"
        );
    }
}
