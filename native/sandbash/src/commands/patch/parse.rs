//! Reading unified diffs (what `diff -u` and `git diff` write) for `patch`: one
//! file's patch at a time, with the text leading up to it (for GNU patch's
//! "can't find file" message), its `---`/`+++` names and its hunks.

/// One line of a hunk: `' '` context, `'-'` removed, `'+'` added; the text
/// keeps its newline unless a `\ No newline at end of file` followed it.
#[derive(Clone, Debug)]
pub struct HunkLine {
    pub kind: u8,
    pub text: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Hunk {
    pub old_first: usize,
    pub old_len: usize,
    pub new_first: usize,
    pub new_len: usize,
    /// The `@@ ... @@` line as written (with any function name).
    pub header: Vec<u8>,
    pub lines: Vec<HunkLine>,
}

impl Hunk {
    /// The same change backwards (`-R`).
    pub fn reversed(&self) -> Hunk {
        let lines = self
            .lines
            .iter()
            .map(|l| HunkLine {
                kind: match l.kind {
                    b'-' => b'+',
                    b'+' => b'-',
                    k => k,
                },
                text: l.text.clone(),
            })
            .collect();
        Hunk {
            old_first: self.new_first,
            old_len: self.new_len,
            new_first: self.old_first,
            new_len: self.old_len,
            header: self.header.clone(),
            lines,
        }
    }

    /// The lines it expects in the file (context and removed).
    pub fn old_lines(&self) -> impl Iterator<Item = &[u8]> {
        self.lines.iter().filter(|l| l.kind != b'+').map(|l| l.text.as_slice())
    }

    /// Context lines before the first change and after the last.
    pub fn context(&self) -> (usize, usize) {
        let pre = self.lines.iter().take_while(|l| l.kind == b' ').count();
        let post =
            if pre == self.lines.len() { 0 } else { self.lines.iter().rev().take_while(|l| l.kind == b' ').count() };
        (pre, post)
    }

    /// The hunk in unified form for a reject file, its line numbers moved by
    /// `shift` (what the hunks applied before it added or removed).
    pub fn to_unified(&self, shift: isize) -> Vec<u8> {
        let range = |first: usize, len: usize| {
            let first = (first as isize + shift).max(0);
            if len == 1 {
                first.to_string()
            } else {
                format!("{first},{len}")
            }
        };
        let mut out =
            format!("@@ -{} +{} @@\n", range(self.old_first, self.old_len), range(self.new_first, self.new_len))
                .into_bytes();
        for l in &self.lines {
            out.push(l.kind);
            out.extend_from_slice(&l.text);
            if !l.text.ends_with(b"\n") {
                out.extend_from_slice(b"\n\\ No newline at end of file\n");
            }
        }
        out
    }
}

/// One file's part of a patch.
#[derive(Clone, Debug, Default)]
pub struct FilePatch {
    /// The lines before the first hunk, back to the end of the previous file's part.
    pub leading: Vec<Vec<u8>>,
    /// The names as written, and what followed them (`\t` and a timestamp).
    pub old_name: String,
    pub old_rest: String,
    pub new_name: String,
    pub new_rest: String,
    /// Input line number of the first `@@`.
    pub first_hunk_line: usize,
    pub hunks: Vec<Hunk>,
}

/// A patch that cannot be read, in GNU patch's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// No file's patch at all in a non-empty input.
    Garbage,
    /// A hunk is cut short or holds a line no hunk can: the line number and the line.
    Malformed(usize, Vec<u8>),
}

/// Splits a patch into file patches.
pub struct Parser<'a> {
    lines: Vec<&'a [u8]>,
    pos: usize,
    found_any: bool,
}

/// `--- name\tstamp` -> (`name`, `\tstamp`); without a tab the whole rest is the name.
fn split_name(rest: &[u8]) -> (String, String) {
    let s = String::from_utf8_lossy(rest);
    let s = s.trim_end_matches(['\n', '\r']);
    match s.find('\t') {
        Some(i) => (s[..i].to_string(), s[i..].to_string()),
        None => (s.trim_end().to_string(), String::new()),
    }
}

/// `-a,b` / `+c,d` of an `@@` line (a missing count is 1).
fn range(s: &str) -> Option<(usize, usize)> {
    let (a, b) = match s.split_once(',') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let first = a.parse().ok()?;
    let len = match b {
        Some(b) => b.parse().ok()?,
        None => 1,
    };
    // Line numbers beyond any file the sandbox can hold are malformed, not overflow.
    (first < 1 << 40 && len < 1 << 40).then_some((first, len))
}

fn parse_at(line: &[u8]) -> Option<(usize, usize, usize, usize)> {
    let s = std::str::from_utf8(line).ok()?;
    let body = s.strip_prefix("@@ -")?;
    let (old, rest) = body.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let (a, b) = range(old)?;
    let (c, d) = range(new)?;
    Some((a, b, c, d))
}

impl<'a> Parser<'a> {
    pub fn new(data: &'a [u8]) -> Parser<'a> {
        Parser { lines: data.split_inclusive(|&b| b == b'\n').collect(), pos: 0, found_any: false }
    }

    /// The next file's patch; `Ok(None)` at the end.
    pub fn next_file(&mut self) -> Result<Option<FilePatch>, (ParseError, Option<Box<FilePatch>>)> {
        let mut fp = FilePatch::default();
        // Find `---` followed by `+++` and `@@`.
        loop {
            let Some(&line) = self.lines.get(self.pos) else {
                if !self.found_any && self.lines.iter().any(|l| !l.iter().all(u8::is_ascii_whitespace)) {
                    return Err((ParseError::Garbage, None));
                }
                return Ok(None);
            };
            let next = self.lines.get(self.pos + 1).copied().unwrap_or_default();
            let third = self.lines.get(self.pos + 2).copied().unwrap_or_default();
            if line.starts_with(b"--- ") && next.starts_with(b"+++ ") && third.starts_with(b"@@ -") {
                (fp.old_name, fp.old_rest) = split_name(&line[4..]);
                (fp.new_name, fp.new_rest) = split_name(&next[4..]);
                fp.leading.push(line.to_vec());
                fp.leading.push(next.to_vec());
                self.pos += 2;
                break;
            }
            fp.leading.push(line.to_vec());
            self.pos += 1;
        }
        self.found_any = true;
        fp.first_hunk_line = self.pos + 1;
        while let Some(&line) = self.lines.get(self.pos) {
            if !line.starts_with(b"@@ -") {
                break;
            }
            let Some((a, b, c, d)) = parse_at(line) else {
                return Err((ParseError::Malformed(self.pos + 1, line.to_vec()), Some(Box::new(fp))));
            };
            self.pos += 1;
            let mut h =
                Hunk { old_first: a, old_len: b, new_first: c, new_len: d, header: line.to_vec(), lines: vec![] };
            let (mut old, mut new) = (0usize, 0usize);
            while old < b || new < d {
                let Some(&l) = self.lines.get(self.pos) else {
                    // Input ends with as many old as new lines missing: GNU patch takes
                    // them for blank context lines (a mailer ate the trailing blanks).
                    if b - old == d - new {
                        for _ in old..b {
                            h.lines.push(HunkLine { kind: b' ', text: b"\n".to_vec() });
                        }
                        break;
                    }
                    return Err((ParseError::Malformed(self.pos + 1, Vec::new()), Some(Box::new(fp))));
                };
                let (kind, text) = match l.first() {
                    Some(&k @ (b' ' | b'-' | b'+')) => (k, &l[1..]),
                    // An empty line is an empty context line (some tools strip the blank).
                    Some(b'\n') => (b' ', l),
                    _ => return Err((ParseError::Malformed(self.pos + 1, l.to_vec()), Some(Box::new(fp)))),
                };
                match kind {
                    b' ' => (old, new) = (old + 1, new + 1),
                    b'-' => old += 1,
                    _ => new += 1,
                }
                if old > b || new > d {
                    return Err((ParseError::Malformed(self.pos + 1, l.to_vec()), Some(Box::new(fp))));
                }
                h.lines.push(HunkLine { kind, text: text.to_vec() });
                self.pos += 1;
                if self.lines.get(self.pos).is_some_and(|n| n.starts_with(b"\\")) {
                    if let Some(last) = h.lines.last_mut() {
                        if last.text.ends_with(b"\n") {
                            last.text.pop();
                        }
                    }
                    self.pos += 1;
                }
            }
            // A `\ No newline` after the last line of the hunk.
            if self.lines.get(self.pos).is_some_and(|n| n.starts_with(b"\\")) {
                self.pos += 1;
            }
            fp.hunks.push(h);
        }
        Ok(Some(fp))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_files_and_hunks() {
        let p = b"diff -u a b\n--- a/f\t2024-01-01\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n\\ No newline at end of file\n--- /dev/null\n+++ b/g\n@@ -0,0 +1 @@\n+hi\n";
        let mut ps = Parser::new(p);
        let f = ps.next_file().unwrap().unwrap();
        assert_eq!((f.old_name.as_str(), f.old_rest.as_str(), f.new_name.as_str()), ("a/f", "\t2024-01-01", "b/f"));
        assert_eq!(f.first_hunk_line, 4);
        assert_eq!(f.hunks[0].lines[2].text, b"z");
        assert_eq!(f.hunks[0].context(), (1, 0));
        let g = ps.next_file().unwrap().unwrap();
        assert_eq!((g.old_name.as_str(), g.hunks[0].old_first, g.hunks[0].old_len), ("/dev/null", 0, 0));
        assert!(ps.next_file().unwrap().is_none());
        assert_eq!(Parser::new(b"garbage\n").next_file().unwrap_err().0, ParseError::Garbage);
        let cut = b"--- a\n+++ a\n@@ -1,2 +1,2 @@\n a\n-b\n";
        assert_eq!(Parser::new(cut).next_file().unwrap_err().0, ParseError::Malformed(6, vec![]));
    }
}
