//! The line-matching core of `diff`: GNU diffutils' `compareseq` (Myers'
//! O(ND) middle-snake search, gnulib diffseq.h) followed by its
//! `shift_boundaries`, so that hunks come out where GNU puts them.

use std::collections::HashMap;

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
/// `minimal` (`-d`): never take GNU's shortcut for costly inputs (see
/// [`middle_snake`]), so the edit script is a shortest one.
pub fn diff(
    a: &[usize],
    b: &[usize],
    horizon: usize,
    minimal: bool,
    keep_going: &mut dyn FnMut() -> bool,
) -> Vec<Change> {
    // GNU sets the common prefix and suffix aside first (`find_identical_ends`),
    // so changes never slide into them.
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..].iter().rev().zip(b[pre..].iter().rev()).take_while(|(x, y)| x == y).count();
    let suf = suf - suf.min(horizon);
    let (a, b) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    // Flags with a sentinel slot on both sides (GNU's `changed[-1]`).
    let mut ca = vec![false; a.len() + 2];
    let mut cb = vec![false; b.len() + 2];
    // GNU's `discard_confusing_lines`: a line found nowhere in the other
    // file is a change whatever the rest does (and, in runs of such, so is
    // one found very often), so the search runs on the other lines only
    // (two files with no line in common cost nothing to compare).
    let (ka, kb) = if minimal { ((0..a.len()).collect(), (0..b.len()).collect()) } else { kept(a, b) };
    let (sa, sb): (Vec<usize>, Vec<usize>) = (ka.iter().map(|&i| a[i]).collect(), kb.iter().map(|&i| b[i]).collect());
    let mut ka_changed = vec![false; sa.len() + 2];
    let mut kb_changed = vec![false; sb.len() + 2];
    let too_expensive = if minimal { usize::MAX } else { too_expensive(sa.len() + sb.len()) };
    compareseq(&sa, &sb, &mut ka_changed, &mut kb_changed, too_expensive, keep_going);
    spread(&mut ca, &ka, &ka_changed);
    spread(&mut cb, &kb, &kb_changed);
    shift_boundaries(a, &mut ca, &cb);
    shift_boundaries(b, &mut cb, &ca);
    let mut script = build_script(&ca, &cb, a.len(), b.len());
    for c in &mut script {
        c.a = (c.a.0 + pre, c.a.1 + pre);
        c.b = (c.b.0 + pre, c.b.1 + pre);
    }
    script
}

/// The lines of each file GNU's `discard_confusing_lines` keeps for the
/// search: all but those matching no line of the other file and, inside a
/// run of those, lines matching very many.
fn kept(a: &[usize], b: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let count = |v: &[usize]| {
        let mut m: HashMap<usize, usize> = HashMap::new();
        for &x in v {
            *m.entry(x).or_insert(0) += 1;
        }
        m
    };
    let (ca, cb) = (count(a), count(b));
    let keep = |v: &[usize], other: &HashMap<usize, usize>| {
        let mut d = marks(v, other);
        cancel_provisional(&mut d);
        (0..v.len()).filter(|&i| d[i] == 0).collect::<Vec<usize>>()
    };
    (keep(a, &cb), keep(b, &ca))
}

/// 1: matches no line of the other file; 2: matches more than about the
/// square root of its length (provisionally discardable).
fn marks(v: &[usize], other: &HashMap<usize, usize>) -> Vec<u8> {
    let mut many = 5usize;
    let mut tem = v.len() / 64;
    loop {
        tem >>= 2;
        if tem == 0 {
            break;
        }
        many = many.saturating_mul(2);
    }
    v.iter()
        .map(|x| match other.get(x).copied().unwrap_or(0) {
            0 => 1,
            n if n > many => 2,
            _ => 0,
        })
        .collect()
}

/// GNU's rules for provisional discards: kept only inside a run of
/// discards that starts and ends with a sure one, and not in long subruns
/// or near the run's ends.
fn cancel_provisional(d: &mut [u8]) {
    let end = d.len();
    let mut i = 0;
    while i < end {
        if d[i] == 2 {
            d[i] = 0;
        } else if d[i] != 0 {
            let mut j = i;
            let mut provisional = 0usize;
            while j < end && d[j] != 0 {
                if d[j] == 2 {
                    provisional += 1;
                }
                j += 1;
            }
            while j > i && d[j - 1] == 2 {
                j -= 1;
                d[j] = 0;
                provisional -= 1;
            }
            let length = j - i;
            if provisional * 4 > length {
                for x in &mut d[i..j] {
                    if *x == 2 {
                        *x = 0;
                    }
                }
            } else {
                let mut minimum = 1usize;
                let mut tem = length >> 2;
                loop {
                    tem >>= 2;
                    if tem == 0 {
                        break;
                    }
                    minimum <<= 1;
                }
                minimum += 1;
                // Cancel every subrun of `minimum` or more provisionals.
                let (mut k, mut consec) = (0usize, 0usize);
                while k < length {
                    if d[i + k] != 2 {
                        consec = 0;
                    } else {
                        consec += 1;
                        if consec == minimum {
                            // Back to the subrun's start, to cancel it all.
                            k -= consec;
                        } else if consec > minimum {
                            d[i + k] = 0;
                        }
                    }
                    k += 1;
                }
                // From each end, provisionals before 3 sure ones in a row
                // (or the first sure one 8 lines in) are kept.
                let mut consec = 0usize;
                for k in 0..length {
                    if k >= 8 && d[i + k] == 1 {
                        break;
                    }
                    match d[i + k] {
                        2 => {
                            consec = 0;
                            d[i + k] = 0;
                        }
                        0 => consec = 0,
                        _ => consec += 1,
                    }
                    if consec == 3 {
                        break;
                    }
                }
                i += length - 1;
                let mut consec = 0usize;
                for k in 0..length {
                    if k >= 8 && d[i - k] == 1 {
                        break;
                    }
                    match d[i - k] {
                        2 => {
                            consec = 0;
                            d[i - k] = 0;
                        }
                        0 => consec = 0,
                        _ => consec += 1,
                    }
                    if consec == 3 {
                        break;
                    }
                }
            }
        }
        i += 1;
    }
}

/// Changed flags of all lines from those of the kept ones (`kept[k]` is the
/// line of kept line `k`); every line not kept is changed.
fn spread(changed: &mut [bool], kept: &[usize], kept_changed: &[bool]) {
    let n = changed.len() - 2;
    for c in &mut changed[1..=n] {
        *c = true;
    }
    for (k, &line) in kept.iter().enumerate() {
        changed[line + 1] = kept_changed[k + 1];
    }
}

/// GNU's cost past which a middle snake is given up for the best diagonal
/// found so far: about the square root of the lines, at least 4096.
fn too_expensive(lines: usize) -> usize {
    let mut t = 1usize;
    let mut diags = lines + 3;
    while diags != 0 {
        t <<= 1;
        diags >>= 2;
    }
    t.max(4096)
}

fn compareseq(
    a: &[usize],
    b: &[usize],
    ca: &mut [bool],
    cb: &mut [bool],
    too_expensive: usize,
    keep_going: &mut dyn FnMut() -> bool,
) {
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
        let bounds = Bounds { xoff, xlim, yoff, ylim, off, too_expensive };
        let (xmid, ymid) = middle_snake(&bounds, &mut fd, &mut bd, &eq, keep_going);
        stack.push((xmid, xlim, ymid, ylim));
        stack.push((xoff, xmid, yoff, ymid));
    }
}

/// The part of the sequences a middle snake is looked for in.
struct Bounds {
    xoff: isize,
    xlim: isize,
    yoff: isize,
    ylim: isize,
    off: isize,
    too_expensive: usize,
}

/// gnulib `diag`: the midpoint of a shortest edit script, or, once its cost
/// passes `too_expensive` (or the exec must stop), GNU's heuristic midpoint:
/// the furthest-reaching diagonal found so far. The diff is then correct but
/// not always minimal, and the search stays near O(N sqrt N).
fn middle_snake(
    bounds: &Bounds,
    fd: &mut [isize],
    bd: &mut [isize],
    eq: &dyn Fn(isize, isize) -> bool,
    keep_going: &mut dyn FnMut() -> bool,
) -> (isize, isize) {
    let &Bounds { xoff, xlim, yoff, ylim, off, too_expensive } = bounds;
    let ix = |d: isize| (d + off) as usize;
    let dmin = xoff - ylim;
    let dmax = xlim - yoff;
    let fmid = xoff - yoff;
    let bmid = xlim - ylim;
    let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
    let odd = (fmid - bmid) & 1 != 0;
    fd[ix(fmid)] = xoff;
    bd[ix(bmid)] = xlim;
    let mut cost = 0usize;
    loop {
        cost += 1;
        if cost >= too_expensive || (cost.is_multiple_of(64) && !keep_going()) {
            return best_diagonal(bounds, fd, bd, (fmin, fmax), (bmin, bmax));
        }
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

/// GNU's midpoint when a snake costs too much: the better of the forward
/// diagonal that reaches furthest (largest x + y) and the backward one.
fn best_diagonal(b: &Bounds, fd: &[isize], bd: &[isize], f: (isize, isize), bk: (isize, isize)) -> (isize, isize) {
    let ix = |d: isize| (d + b.off) as usize;
    let (mut fxybest, mut fxbest) = (-1isize, b.xoff);
    let mut d = f.1;
    while d >= f.0 {
        let mut x = fd[ix(d)].min(b.xlim);
        let mut y = x - d;
        if b.ylim < y {
            x = b.ylim + d;
            y = b.ylim;
        }
        if fxybest < x + y {
            fxybest = x + y;
            fxbest = x;
        }
        d -= 2;
    }
    let (mut bxybest, mut bxbest) = (isize::MAX, b.xlim);
    let mut d = bk.1;
    while d >= bk.0 {
        let mut x = bd[ix(d)].max(b.xoff);
        let mut y = x - d;
        if y < b.yoff {
            x = b.yoff + d;
            y = b.yoff;
        }
        if x + y < bxybest {
            bxybest = x + y;
            bxbest = x;
        }
        d -= 2;
    }
    if (b.xlim + b.ylim) - bxybest < fxybest - (b.xoff + b.yoff) {
        (fxbest, fxybest - fxbest)
    } else {
        (bxbest, bxybest - bxbest)
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
        diff(&ids(a), &ids(b), 0, false, &mut || true)
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
