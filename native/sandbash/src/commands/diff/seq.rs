//! The line-matching core of `diff`: GNU diffutils' `compareseq` (Myers'
//! O(ND) middle-snake search, gnulib diffseq.h) followed by its
//! `shift_boundaries`, so that hunks come out where GNU puts them.

/// One change: lines `a.0..a.1` of the first file replaced by `b.0..b.1` of the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub a: (usize, usize),
    pub b: (usize, usize),
}

/// Compare two sequences of line ids (equal ids = equal lines). `keep_going`
/// is polled now and then; when it says stop, the result is a coarse diff.
/// `horizon`: how many lines of the common suffix changes may slide into
/// (GNU keeps the output's context lines of it).
pub fn diff(a: &[usize], b: &[usize], horizon: usize, keep_going: &mut dyn FnMut() -> bool) -> Vec<Change> {
    // GNU sets the common prefix and suffix aside first (`find_identical_ends`),
    // so changes never slide into them.
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..].iter().rev().zip(b[pre..].iter().rev()).take_while(|(x, y)| x == y).count();
    let suf = suf - suf.min(horizon);
    let (a, b) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    // Flags with a sentinel slot on both sides (GNU's `changed[-1]`).
    let mut ca = vec![false; a.len() + 2];
    let mut cb = vec![false; b.len() + 2];
    compareseq(a, b, &mut ca, &mut cb, keep_going);
    shift_boundaries(a, &mut ca, &cb);
    shift_boundaries(b, &mut cb, &ca);
    let mut script = build_script(&ca, &cb, a.len(), b.len());
    for c in &mut script {
        c.a = (c.a.0 + pre, c.a.1 + pre);
        c.b = (c.b.0 + pre, c.b.1 + pre);
    }
    script
}

fn compareseq(a: &[usize], b: &[usize], ca: &mut [bool], cb: &mut [bool], keep_going: &mut dyn FnMut() -> bool) {
    let n = a.len() + b.len() + 3;
    let off = b.len() as isize + 1;
    let mut fd = vec![0isize; n];
    let mut bd = vec![0isize; n];
    let mut stack = vec![(0isize, a.len() as isize, 0isize, b.len() as isize)];
    let eq = |x: isize, y: isize| a[x as usize] == b[y as usize];
    let mut steps = 0u32;
    while let Some((mut xoff, mut xlim, mut yoff, mut ylim)) = stack.pop() {
        while xoff < xlim && yoff < ylim && eq(xoff, yoff) {
            xoff += 1;
            yoff += 1;
        }
        while xoff < xlim && yoff < ylim && eq(xlim - 1, ylim - 1) {
            xlim -= 1;
            ylim -= 1;
        }
        steps += 1;
        let give_up = steps.is_multiple_of(64) && !keep_going();
        if xoff == xlim || yoff == ylim || give_up {
            for y in yoff..ylim {
                cb[y as usize + 1] = true;
            }
            for x in xoff..xlim {
                ca[x as usize + 1] = true;
            }
            continue;
        }
        let (xmid, ymid) = middle_snake(xoff, xlim, yoff, ylim, off, &mut fd, &mut bd, &eq);
        stack.push((xmid, xlim, ymid, ylim));
        stack.push((xoff, xmid, yoff, ymid));
    }
}

/// gnulib `diag` without its heuristics: the midpoint of a shortest edit script.
#[allow(clippy::too_many_arguments)]
fn middle_snake(
    xoff: isize,
    xlim: isize,
    yoff: isize,
    ylim: isize,
    off: isize,
    fd: &mut [isize],
    bd: &mut [isize],
    eq: &dyn Fn(isize, isize) -> bool,
) -> (isize, isize) {
    let ix = |d: isize| (d + off) as usize;
    let dmin = xoff - ylim;
    let dmax = xlim - yoff;
    let fmid = xoff - yoff;
    let bmid = xlim - ylim;
    let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
    let odd = (fmid - bmid) & 1 != 0;
    fd[ix(fmid)] = xoff;
    bd[ix(bmid)] = xlim;
    loop {
        if fmin > dmin {
            fmin -= 1;
            fd[ix(fmin - 1)] = -1;
        } else {
            fmin += 1;
        }
        if fmax < dmax {
            fmax += 1;
            fd[ix(fmax + 1)] = -1;
        } else {
            fmax -= 1;
        }
        let mut d = fmax;
        while d >= fmin {
            let (tlo, thi) = (fd[ix(d - 1)], fd[ix(d + 1)]);
            let x0 = if tlo < thi { thi } else { tlo + 1 };
            let (mut x, mut y) = (x0, x0 - d);
            while x < xlim && y < ylim && eq(x, y) {
                x += 1;
                y += 1;
            }
            fd[ix(d)] = x;
            if odd && bmin <= d && d <= bmax && bd[ix(d)] <= x {
                return (x, y);
            }
            d -= 2;
        }
        if bmin > dmin {
            bmin -= 1;
            bd[ix(bmin - 1)] = isize::MAX;
        } else {
            bmin += 1;
        }
        if bmax < dmax {
            bmax += 1;
            bd[ix(bmax + 1)] = isize::MAX;
        } else {
            bmax -= 1;
        }
        let mut d = bmax;
        while d >= bmin {
            let (tlo, thi) = (bd[ix(d - 1)], bd[ix(d + 1)]);
            let x0 = if tlo < thi { tlo } else { thi - 1 };
            let (mut x, mut y) = (x0, x0 - d);
            while xoff < x && yoff < y && eq(x - 1, y - 1) {
                x -= 1;
                y -= 1;
            }
            bd[ix(d)] = x;
            if !odd && fmin <= d && d <= fmax && x <= fd[ix(d)] {
                return (x, y);
            }
            d -= 2;
        }
    }
}

/// GNU `shift_boundaries`: slide each run of changes down as far as equal
/// lines allow, then back up to line up with a run in the other file.
/// `changed` and `other` carry a sentinel at index 0 and at the end.
fn shift_boundaries(lines: &[usize], changed: &mut [bool], other: &[bool]) {
    let eq = |p: usize, q: usize| lines[p - 1] == lines[q - 1];
    let i_end = lines.len() + 1;
    let (mut i, mut j) = (1usize, 1usize);
    loop {
        while i < i_end && !changed[i] {
            while other[j] {
                j += 1;
            }
            j += 1;
            i += 1;
        }
        if i == i_end {
            break;
        }
        let mut start = i;
        i += 1;
        while changed[i] {
            i += 1;
        }
        while other[j] {
            j += 1;
        }
        let mut corresponding;
        loop {
            let runlength = i - start;
            while start > 1 && eq(start - 1, i - 1) {
                start -= 1;
                changed[start] = true;
                i -= 1;
                changed[i] = false;
                while changed[start - 1] {
                    start -= 1;
                }
                j -= 1;
                while other[j] {
                    j -= 1;
                }
            }
            corresponding = if other[j - 1] { i } else { i_end };
            while i != i_end && eq(start, i) {
                changed[start] = false;
                start += 1;
                changed[i] = true;
                i += 1;
                while changed[i] {
                    i += 1;
                }
                j += 1;
                while other[j] {
                    j += 1;
                    corresponding = i;
                }
            }
            if runlength == i - start {
                break;
            }
        }
        while corresponding < i {
            start -= 1;
            changed[start] = true;
            i -= 1;
            changed[i] = false;
            j -= 1;
            while other[j] {
                j -= 1;
            }
        }
    }
}

/// Turn the flags into changes, in order.
fn build_script(ca: &[bool], cb: &[bool], na: usize, nb: usize) -> Vec<Change> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    while i < na || j < nb {
        if (i < na && ca[i + 1]) || (j < nb && cb[j + 1]) {
            let (si, sj) = (i, j);
            while i < na && ca[i + 1] {
                i += 1;
            }
            while j < nb && cb[j + 1] {
                j += 1;
            }
            out.push(Change { a: (si, i), b: (sj, j) });
        } else {
            i += 1;
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{diff, Change};

    fn d(a: &str, b: &str) -> Vec<Change> {
        let ids = |s: &str| s.bytes().map(usize::from).collect::<Vec<_>>();
        diff(&ids(a), &ids(b), 0, &mut || true)
    }

    #[test]
    fn basic_changes() {
        assert_eq!(d("abc", "abc"), vec![]);
        assert_eq!(d("abc", "axc"), vec![Change { a: (1, 2), b: (1, 2) }]);
        assert_eq!(d("", "ab"), vec![Change { a: (0, 0), b: (0, 2) }]);
        // A blank-line style repeat: GNU slides the insertion down.
        assert_eq!(d("aXbX", "aXXbX"), vec![Change { a: (2, 2), b: (2, 3) }]);
        assert_eq!(d("abcabc", "ababcc"), vec![Change { a: (2, 3), b: (2, 2) }, Change { a: (5, 5), b: (4, 5) }]);
    }
}
