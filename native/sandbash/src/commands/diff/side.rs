//! `diff -y`: the two files side by side, as GNU lays them out (its
//! `side.c`): each half cut at the half width, tabs kept where they line
//! up, the gutter's mark (`|` changed, `<` only left, `>` only right, `(`
//! a common line with `--left-column`) in the middle column.

use super::seq::Change;

const TAB: usize = 8;

/// How the columns fall for a total width.
pub struct Layout {
    /// Columns a half may fill.
    half: usize,
    /// Where the right half starts.
    right_at: usize,
    /// `-t`: tabs written as spaces.
    expand_tabs: bool,
    /// `--left-column`: a common line once, on the left, marked `(`.
    left_column: bool,
    /// `--suppress-common-lines`.
    suppress_common: bool,
}

impl Layout {
    /// GNU's arithmetic: the gutter is at least three columns and the right
    /// half starts on a tab stop (unless tabs are expanded).
    pub fn new(width: usize, expand_tabs: bool, left_column: bool, suppress_common: bool) -> Layout {
        let t = if expand_tabs { 1 } else { TAB };
        let off = (width + t + 3) / (2 * t) * t;
        let half = off.saturating_sub(3).min(width.saturating_sub(off));
        Layout { half, right_at: if half == 0 { width } else { off }, expand_tabs, left_column, suppress_common }
    }

    /// Pad from column `from` to `to` with tabs (unless expanded) and spaces.
    fn pad(&self, out: &mut Vec<u8>, mut from: usize, to: usize) -> usize {
        if !self.expand_tabs {
            let mut tab = from + TAB - from % TAB;
            while tab <= to {
                out.push(b'\t');
                from = tab;
                tab += TAB;
            }
        }
        while from < to {
            out.push(b' ');
            from += 1;
        }
        to
    }

    /// Write at most `bound` columns of `line` (its newline left off);
    /// the column reached.
    fn half_line(&self, out: &mut Vec<u8>, line: &[u8], bound: usize) -> usize {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        let (mut inp, mut outp) = (0usize, 0usize);
        for ch in String::from_utf8_lossy(text).chars() {
            match ch {
                '\t' => {
                    let spaces = TAB - inp % TAB;
                    if inp == outp {
                        let stop = outp + spaces;
                        if self.expand_tabs {
                            let stop = stop.min(bound);
                            while outp < stop {
                                out.push(b' ');
                                outp += 1;
                            }
                        } else if stop < bound {
                            outp = stop;
                            out.push(b'\t');
                        }
                    }
                    inp += spaces;
                }
                _ => {
                    let w = if ch.is_control() { 0 } else { unicode_width(ch) };
                    if inp + w <= bound {
                        outp = inp + w;
                        let mut b = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
                    }
                    inp += w;
                }
            }
        }
        outp
    }

    /// One output line: `left` and `right` (either may be missing), `mark`
    /// in the gutter (` ` for none).
    fn line(&self, out: &mut Vec<u8>, left: Option<&[u8]>, mark: u8, right: Option<&[u8]>) {
        let mut col = 0;
        let mut newline = false;
        if let Some(l) = left {
            newline |= l.ends_with(b"\n");
            col = self.half_line(out, l, self.half);
        }
        let mut mark = mark;
        if mark != b' ' {
            col = self.pad(out, col, (self.half + self.right_at).saturating_sub(1) / 2) + 1;
            if let (b'|', Some(r)) = (mark, right) {
                if newline != r.ends_with(b"\n") {
                    mark = if newline { b'/' } else { b'\\' };
                }
            }
            out.push(mark);
        }
        if let Some(r) = right {
            newline |= r.ends_with(b"\n");
            if r != b"\n" {
                self.pad(out, col, self.right_at);
                self.half_line(out, r, self.half);
            }
        }
        if newline {
            out.push(b'\n');
        }
    }

    /// Both files, change by change; `going` is asked every few lines (a
    /// line may take `-W` columns: the deadline and the budget bound the
    /// whole). False when it said stop.
    pub fn write(
        &self,
        out: &mut Vec<u8>,
        a: &[&[u8]],
        b: &[&[u8]],
        changes: &[Change],
        going: &mut dyn FnMut() -> bool,
    ) -> bool {
        let (mut pa, mut pb) = (0, 0);
        let mut lines = 0usize;
        let mut more = || {
            lines += 1;
            !lines.is_multiple_of(64) || going()
        };
        let common = |out: &mut Vec<u8>, from_a: usize, to_a: usize, from_b: usize, more: &mut dyn FnMut() -> bool| {
            if self.suppress_common {
                return true;
            }
            for (i, l) in a[from_a..to_a].iter().enumerate() {
                if !more() {
                    return false;
                }
                if self.left_column {
                    self.line(out, Some(l), b'(', None);
                } else {
                    self.line(out, Some(l), b' ', b.get(from_b + i).copied());
                }
            }
            true
        };
        for c in changes {
            if !common(out, pa, c.a.0, pb, &mut more) {
                return false;
            }
            let (old, new) = (&a[c.a.0..c.a.1], &b[c.b.0..c.b.1]);
            for i in 0..old.len().max(new.len()) {
                if !more() {
                    return false;
                }
                match (old.get(i), new.get(i)) {
                    (Some(l), Some(r)) => self.line(out, Some(l), b'|', Some(r)),
                    (Some(l), None) => self.line(out, Some(l), b'<', None),
                    (None, Some(r)) => self.line(out, None, b'>', Some(r)),
                    (None, None) => {}
                }
            }
            (pa, pb) = (c.a.1, c.b.1);
        }
        common(out, pa, a.len(), pb, &mut more)
    }
}

/// Columns a character takes: two for the wide East Asian ones, else one.
fn unicode_width(ch: char) -> usize {
    let c = ch as u32;
    let wide = matches!(c, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD);
    if wide {
        2
    } else {
        1
    }
}
