//! The text a program was parsed from. AST locations count characters; this
//! maps them to byte ranges so words can be re-read from the source exactly
//! (brush-parser's tokenizer collapses runs of spaces inside `${...}` and
//! `"..."`, so a word's `value` is not always its text).

use brush_parser::ast;
use std::borrow::Cow;

/// Cheap to clone: the text and its offsets are shared.
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub text: std::sync::Arc<str>,
    /// Script line of this text's first line, minus one: `$( )` and `eval`
    /// text report lines of the script around them, as bash does.
    pub line_base: usize,
    /// Lines moved since parsing (negative: earlier): after a command is
    /// abandoned, bash's parser counts on from the line of the error.
    shift: i64,
    /// Byte offset of every char, when the text is not ASCII.
    offsets: Option<std::sync::Arc<[u32]>>,
    /// Here-documents the end of the text closed (their delimiter lines were
    /// added to parse it): bash's warnings for them, printed before the last
    /// command runs, each as (line the text ended on, line of the `<<`,
    /// delimiter).
    pub eof_heredocs: Vec<(usize, usize, String)>,
}

impl Source {
    /// The same text, reporting lines after `base`.
    pub fn with_line_base(mut self, base: usize) -> Self {
        self.line_base = base;
        self
    }

    /// The same text, its lines reported `by` lines later (earlier when negative).
    pub fn with_shift(mut self, by: i64) -> Self {
        self.shift = self.shift.saturating_add(by);
        self
    }

    /// Lines moved since parsing (see [`Source::with_shift`]).
    pub fn shift(&self) -> i64 {
        self.shift
    }

    /// Byte offset of char index `ci` (AST locations count chars).
    pub fn byte_offset(&self, ci: usize) -> Option<usize> {
        match &self.offsets {
            None => (ci <= self.text.len()).then_some(ci),
            Some(o) => o.get(ci).map(|&b| b as usize),
        }
    }

    /// Length in chars (what AST locations count).
    pub fn char_len(&self) -> usize {
        self.offsets.as_ref().map_or(self.text.len(), |o| o.len() - 1)
    }

    /// The script line of line `l` of this text (1 is its first).
    pub fn line(&self, l: usize) -> usize {
        let n = (self.line_base as i64).saturating_add(l as i64).saturating_add(self.shift);
        n.max(0) as usize
    }

    pub fn new(text: &str) -> Self {
        let offsets = (!text.is_ascii()).then(|| {
            let mut v: Vec<u32> = text.char_indices().map(|(i, _)| i as u32).collect();
            v.push(text.len() as u32);
            std::sync::Arc::from(v)
        });
        Source { text: std::sync::Arc::from(text), line_base: 0, shift: 0, offsets, eof_heredocs: Vec::new() }
    }

    /// Text between two char indices.
    pub fn slice(&self, start: usize, end: usize) -> Option<&str> {
        let (a, b) = match &self.offsets {
            None => (start, end),
            Some(o) => (*o.get(start)? as usize, *o.get(end)? as usize),
        };
        self.text.get(a..b)
    }

    /// A word's exact source text (falls back to the parsed value).
    pub fn word<'a>(&'a self, w: &'a ast::Word) -> Cow<'a, str> {
        // Most words (`$i`, `-le`, `0`): ASCII without `"` or `${`, so
        // without any marker the rewrites before parsing add, and read as
        // parsed. One pass instead of a search per marker.
        let b = w.value.as_bytes();
        if b.iter().enumerate().all(|(i, &c)| c.is_ascii() && c != b'"' && !(c == b'$' && b.get(i + 1) == Some(&b'{')))
        {
            return Cow::Borrowed(&w.value);
        }
        match self.word_text(w) {
            Cow::Borrowed(s) => crate::syntax::word_as_written(s),
            Cow::Owned(s) => Cow::Owned(crate::syntax::word_as_written(&s).into_owned()),
        }
    }

    fn word_text<'a>(&'a self, w: &'a ast::Word) -> Cow<'a, str> {
        if w.value.contains("${") || w.value.contains('"') {
            if let Some(loc) = &w.loc {
                if let Some(s) = self.slice(loc.start.index, loc.end.index) {
                    if s.contains("\\\n") && s.chars().next() == w.value.chars().next() {
                        return Cow::Owned(strip_line_continuations(s));
                    }
                    if s.len() >= w.value.len()
                        && s.chars().next() == w.value.chars().next()
                        && s.chars().last() == w.value.chars().last()
                    {
                        return Cow::Borrowed(s);
                    }
                }
            }
        }
        Cow::Borrowed(&w.value)
    }
}

/// Remove `\<newline>` line continuations outside single quotes (the
/// tokenizer does it for the words it hands out, not for source slices).
pub fn strip_line_continuations(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    let (mut single, mut double) = (false, false);
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => match chars.peek() {
                Some('\n') => {
                    chars.next();
                    continue;
                }
                Some(&n) => {
                    out.push(c);
                    out.push(n);
                    chars.next();
                    continue;
                }
                None => {}
            },
            _ => {}
        }
        out.push(c);
    }
    out
}
