//! `join`: join lines of two sorted files on a common field (GNU coreutils
//! 9.1): `-1/-2/-j`, `-t`, `-a`, `-v`, `-e`, `-o` (lists and `auto`), `-i`,
//! `-z`, `--header` and GNU's order checking (a warning by default once an
//! unpairable line was seen, an error with `--check-order`).

use super::util::{quote, quote_locale, Arg, LineSource, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Join;

const SPEC: Spec = Spec::new(
    "a:e:io:t:v:1:2:j:z",
    &[
        ("ignore-case", Arg::No, "i"),
        ("check-order", Arg::No, "check"),
        ("nocheck-order", Arg::No, "nocheck"),
        ("zero-terminated", Arg::No, "z"),
        ("header", Arg::No, "header"),
    ],
    "[OPTION]... FILE1 FILE2",
);

/// A line split into fields.
struct Line {
    text: Vec<u8>,
    fields: Vec<(usize, usize)>,
}

impl Line {
    fn field(&self, i: usize) -> Option<&[u8]> {
        self.fields.get(i).map(|&(a, b)| &self.text[a..b])
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Default,
    Check,
    No,
}

/// One `-o` item: the join field, or (file, field).
#[derive(Clone, Copy)]
enum Out {
    Key,
    Field(usize, usize),
}

struct Cfg {
    tab: Option<u8>,
    keys: [usize; 2],
    unpaired: [bool; 2],
    paired: bool,
    empty: Option<Vec<u8>>,
    format: Option<Vec<Out>>,
    auto: bool,
    ignore_case: bool,
    delim: u8,
}

impl Cfg {
    fn split(&self, line: &[u8]) -> Line {
        let text = line.strip_suffix(&[self.delim]).unwrap_or(line).to_vec();
        let mut fields = Vec::new();
        match self.tab {
            Some(t) => {
                let mut start = 0;
                for (i, &b) in text.iter().enumerate() {
                    if b == t {
                        fields.push((start, i));
                        start = i + 1;
                    }
                }
                if !text.is_empty() {
                    fields.push((start, text.len()));
                }
            }
            None => {
                let blank = |b: u8| b == b' ' || b == b'\t' || b == b'\n';
                let mut i = 0;
                while i < text.len() {
                    while i < text.len() && blank(text[i]) {
                        i += 1;
                    }
                    let s = i;
                    while i < text.len() && !blank(text[i]) {
                        i += 1;
                    }
                    if s < i {
                        fields.push((s, i));
                    }
                }
            }
        }
        Line { text, fields }
    }

    fn cmp(&self, a: &Line, b: &Line, fa: usize, fb: usize) -> std::cmp::Ordering {
        let (x, y) = (a.field(self.keys[fa]).unwrap_or(b""), b.field(self.keys[fb]).unwrap_or(b""));
        if self.ignore_case {
            x.iter().map(u8::to_ascii_lowercase).cmp(y.iter().map(u8::to_ascii_lowercase))
        } else {
            x.cmp(y)
        }
    }

    /// One output line from `l1` and/or `l2` (an unpaired line has no partner).
    fn print(&self, l1: Option<&Line>, l2: Option<&Line>, out: &mut Vec<u8>) {
        let sep = self.tab.unwrap_or(b' ');
        let empty = self.empty.as_deref().unwrap_or(b"");
        let key = match (l1, l2) {
            (Some(l), _) if l.field(self.keys[0]).is_some() || l2.is_none() => l.field(self.keys[0]),
            (_, Some(l)) => l.field(self.keys[1]),
            _ => None,
        };
        let mut first = true;
        let mut put = |out: &mut Vec<u8>, f: Option<&[u8]>| {
            if !first {
                out.push(sep);
            }
            first = false;
            out.extend_from_slice(f.unwrap_or(empty));
        };
        match &self.format {
            Some(items) => {
                for it in items {
                    match *it {
                        Out::Key => put(out, key),
                        Out::Field(file, n) => {
                            let l = if file == 0 { l1 } else { l2 };
                            put(out, l.and_then(|l| l.field(n)));
                        }
                    }
                }
            }
            None => {
                put(out, key);
                for (file, l) in [l1, l2].into_iter().enumerate() {
                    if let Some(l) = l {
                        for i in (0..l.fields.len()).filter(|&i| i != self.keys[file]) {
                            put(out, l.field(i));
                        }
                    }
                }
            }
        }
        out.push(self.delim);
    }
}

/// Parse a field number (1-based) into an index.
fn field_num(s: &str) -> Option<usize> {
    s.parse::<usize>().ok().filter(|&n| n > 0).map(|n| n - 1)
}

/// `-o` list: `0`, `1.N`, `2.N` separated by commas or blanks.
/// The two files, and the field lists among the operands: as GNU join does,
/// operands right after `-o`'s list (`join -o 1.1 1.2 2.1 a b`) are more of
/// it when there are more than two, the earliest first. `Err`: a third
/// operand that cannot be one (`extra operand`).
fn files_and_lists(args: &[String], p: &super::util::Parsed) -> Result<(Vec<String>, Vec<String>), String> {
    // Which arguments the options took, and where each -o list ended.
    let mut taken = vec![false; args.len()];
    let mut o_ends = Vec::new();
    for o in &p.opts {
        let at = o.arg_index;
        let separate = o.val.as_deref().is_some_and(|v| args.get(at).is_none_or(|a| a.len() <= 2 || !a.ends_with(v)));
        let end = if separate { at + 1 } else { at };
        for t in taken.iter_mut().take(end + 1).skip(at) {
            *t = true;
        }
        if o.id == "o" && o.val.as_deref() != Some("auto") {
            o_ends.push(end);
        }
    }
    let dashdash = args.iter().position(|a| a == "--");
    let mut held: Vec<(String, bool)> = Vec::new();
    let mut lists = Vec::new();
    let mut chained = false;
    for (i, a) in args.iter().enumerate() {
        if dashdash == Some(i) {
            chained = false;
            continue;
        }
        if taken[i] && dashdash.is_none_or(|d| i < d) {
            chained = o_ends.contains(&i);
            continue;
        }
        let might_be_list = chained;
        if held.len() == 2 {
            let k = usize::from(!held[0].1);
            if !held[k].1 {
                return Err(a.clone());
            }
            lists.push(held.remove(k).0);
        }
        held.push((a.clone(), might_be_list));
    }
    Ok((held.into_iter().map(|h| h.0).collect(), lists))
}

fn parse_format(s: &str) -> Result<Vec<Out>, String> {
    let mut v = Vec::new();
    for item in s.split([',', ' ', '\t']).filter(|p| !p.is_empty()) {
        if item == "0" {
            v.push(Out::Key);
            continue;
        }
        // GNU looks at the first character: 0 alone, 1 or 2 before a dot.
        let file = match item.as_bytes()[0] {
            b'1' => 0,
            b'2' => 1,
            b'0' => return Err(format!("invalid field specifier: {}", quote_locale(item))),
            _ => return Err(format!("invalid file number in field spec: {}", quote_locale(item))),
        };
        let Some(n) = item[1..].strip_prefix('.') else {
            return Err(format!("invalid field specifier: {}", quote_locale(item)));
        };
        let n = field_num(n).ok_or_else(|| format!("invalid field number: {}", quote_locale(n)))?;
        v.push(Out::Field(file, n));
    }
    Ok(v)
}

/// Reads one file's lines, checking their order.
/// One input, read a line at a time: a window of lines from the one before
/// the current group (for the order check) to the last one looked at.
struct Reader {
    src: Option<LineSource>,
    lines: std::collections::VecDeque<Line>,
    /// The number of the window's first line.
    base: usize,
    pos: usize,
    name: String,
    warned: bool,
}

impl Reader {
    /// Read up to line `i`; false when the input ends before it.
    async fn load(&mut self, ctx: &CommandContext<'_>, cfg: &Cfg, i: usize) -> bool {
        while self.base + self.lines.len() <= i {
            let Some(src) = self.src.as_mut() else { return false };
            match src.next_line(ctx).await {
                Some(l) => self.lines.push_back(cfg.split(&l)),
                None => {
                    self.src = None;
                    return false;
                }
            }
        }
        i >= self.base
    }

    /// Line `i`, which `load` has read.
    fn get(&self, i: usize) -> &Line {
        &self.lines[i - self.base]
    }

    /// Drop the lines before `i`.
    fn forget_before(&mut self, i: usize) {
        while self.base < i && !self.lines.is_empty() {
            self.lines.pop_front();
            self.base += 1;
        }
    }
}

#[async_trait]
impl Utility for Join {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut cfg = Cfg {
            tab: None,
            keys: [0, 0],
            unpaired: [false, false],
            paired: true,
            empty: None,
            format: None,
            auto: false,
            ignore_case: p.has("i"),
            delim: if p.has("z") { 0 } else { b'\n' },
        };
        let mut order = Order::Default;
        for o in &p.opts {
            let v = o.val.as_deref().unwrap_or("");
            let bad_field = || format!("invalid field number: {}", quote_locale(v));
            let res: Result<(), String> = match o.id {
                "a" | "v" => match v {
                    "1" | "2" => {
                        cfg.unpaired[usize::from(v == "2")] = true;
                        if o.id == "v" {
                            cfg.paired = false;
                        }
                        Ok(())
                    }
                    _ => Err(bad_field()),
                },
                "e" => {
                    cfg.empty = Some(v.as_bytes().to_vec());
                    Ok(())
                }
                "o" if v == "auto" => {
                    cfg.auto = true;
                    Ok(())
                }
                "o" => parse_format(v).map(|f| cfg.format.get_or_insert_with(Vec::new).extend(f)),
                "t" => match v.as_bytes() {
                    [] => {
                        cfg.tab = Some(b'\n');
                        Ok(())
                    }
                    [c] => {
                        cfg.tab = Some(*c);
                        Ok(())
                    }
                    _ if v == "\\0" => {
                        cfg.tab = Some(0);
                        Ok(())
                    }
                    _ => Err(format!("multi-character tab {}", quote(v))),
                },
                "1" | "2" | "j" => match field_num(v) {
                    Some(n) => {
                        match o.id {
                            "1" => cfg.keys[0] = n,
                            "2" => cfg.keys[1] = n,
                            _ => cfg.keys = [n, n],
                        }
                        Ok(())
                    }
                    None => Err(bad_field()),
                },
                "check" => {
                    order = Order::Check;
                    Ok(())
                }
                "nocheck" => {
                    order = Order::No;
                    Ok(())
                }
                _ => Ok(()),
            };
            if let Err(m) = res {
                return Err(UError::new(1, m));
            }
        }
        let files = match files_and_lists(ctx.args, &p) {
            Ok((files, lists)) => {
                for l in lists {
                    match parse_format(&l) {
                        Ok(f) => cfg.format.get_or_insert_with(Vec::new).extend(f),
                        Err(m) => return Err(UError::new(1, m)),
                    }
                }
                files
            }
            Err(extra) => return Err(UError::usage(1, format!("extra operand {}", quote(&extra)))),
        };
        match files.len() {
            0 => {
                return Err(UError::usage(1, "missing operand"));
            }
            1 => {
                return Err(UError::usage(1, format!("missing operand after {}", quote_locale(&files[0]))));
            }
            _ => {}
        }
        // Both files are streamed and merged a line at a time.
        let mut readers = Vec::new();
        for f in &files {
            let src = match ctx.open_lines(f, cfg.delim).await {
                Ok(s) => s,
                Err(e) => {
                    return Err(UError::new(1, format!("{}: {e}", super::util::quotef(f))));
                }
            };
            let lines = std::collections::VecDeque::new();
            readers.push(Reader { src: Some(src), lines, base: 0, pos: 0, name: f.clone(), warned: false });
        }
        let (mut r2, mut r1) = (readers.pop().unwrap_or_else(empty_reader), readers.pop().unwrap_or_else(empty_reader));
        let has = [r1.load(ctx, &cfg, 0).await, r2.load(ctx, &cfg, 0).await];
        if cfg.auto {
            let n = |r: &Reader, has: bool| if has { r.get(0).fields.len() } else { 0 };
            let mut f = vec![Out::Key];
            f.extend((0..n(&r1, has[0])).filter(|&i| i != cfg.keys[0]).map(|i| Out::Field(0, i)));
            f.extend((0..n(&r2, has[1])).filter(|&i| i != cfg.keys[1]).map(|i| Out::Field(1, i)));
            cfg.format = Some(f);
        }
        let mut out = Vec::new();
        if p.has("header") && (has[0] || has[1]) {
            cfg.print(has[0].then(|| r1.get(0)), has[1].then(|| r2.get(0)), &mut out);
            r1.pos = usize::from(has[0]);
            r2.pos = usize::from(has[1]);
        }
        let mut j = Joiner { cfg: &cfg, order, seen_unpairable: false };
        let status = match j.run(ctx, &mut r1, &mut r2, &mut out).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 };
        ctx.out(&out).await?;
        Ok(status)
    }
}

fn empty_reader() -> Reader {
    Reader { src: None, lines: Default::default(), base: 0, pos: 0, name: String::new(), warned: false }
}

struct Joiner<'a> {
    cfg: &'a Cfg,
    order: Order,
    seen_unpairable: bool,
}

impl Joiner<'_> {
    /// Move `r` to its next line, checking order; `Err(())` stops (`--check-order`).
    async fn advance(&self, ctx: &CommandContext<'_>, r: &mut Reader, file: usize) -> Result<Result<(), ()>, IoError> {
        r.pos += 1;
        let checking = self.order == Order::Check || (self.order == Order::Default && self.seen_unpairable);
        if checking && !r.warned && r.load(ctx, self.cfg, r.pos).await {
            let (prev, cur) = (r.get(r.pos - 1), r.get(r.pos));
            if self.cfg.cmp(prev, cur, file, file).is_gt() {
                let text = String::from_utf8_lossy(&cur.text);
                ctx.err(format!("{}:{}: is not sorted: {text}", r.name, r.pos + 1)).await?;
                r.warned = true;
                if self.order == Order::Check {
                    return Ok(Err(()));
                }
            }
        }
        Ok(Ok(()))
    }

    async fn run(
        &mut self,
        ctx: &CommandContext<'_>,
        r1: &mut Reader,
        r2: &mut Reader,
        out: &mut Vec<u8>,
    ) -> UResult<i32> {
        let cfg = self.cfg;
        macro_rules! step {
            ($r:expr, $f:expr) => {
                if self.advance(ctx, $r, $f).await?.is_err() {
                    return Ok(1);
                }
            };
        }
        while r1.load(ctx, cfg, r1.pos).await & r2.load(ctx, cfg, r2.pos).await {
            if !ctx.still_running() {
                return Ok(1);
            }
            // Only the line before each current one is still needed.
            r1.forget_before(r1.pos.saturating_sub(1));
            r2.forget_before(r2.pos.saturating_sub(1));
            let (a, b) = (r1.get(r1.pos), r2.get(r2.pos));
            match cfg.cmp(a, b, 0, 1) {
                std::cmp::Ordering::Less => {
                    if cfg.unpaired[0] {
                        cfg.print(Some(a), None, out);
                    }
                    self.seen_unpairable = true;
                    step!(r1, 0);
                }
                std::cmp::Ordering::Greater => {
                    if cfg.unpaired[1] {
                        cfg.print(None, Some(b), out);
                    }
                    self.seen_unpairable = true;
                    step!(r2, 1);
                }
                std::cmp::Ordering::Equal => {
                    // The groups of equal keys on both sides.
                    let (s1, s2) = (r1.pos, r2.pos);
                    step!(r1, 0);
                    while r1.load(ctx, cfg, r1.pos).await && cfg.cmp(r1.get(r1.pos), r1.get(s1), 0, 0).is_eq() {
                        step!(r1, 0);
                    }
                    step!(r2, 1);
                    while r2.load(ctx, cfg, r2.pos).await && cfg.cmp(r2.get(r2.pos), r2.get(s2), 1, 1).is_eq() {
                        step!(r2, 1);
                    }
                    if cfg.paired {
                        // The product of two groups can be far larger than
                        // the input: written as it is made, a block at a time.
                        for i in s1..r1.pos {
                            for j in s2..r2.pos {
                                cfg.print(Some(r1.get(i)), Some(r2.get(j)), out);
                                if out.len() > 64 * 1024 {
                                    if !ctx.still_running() {
                                        return Ok(1);
                                    }
                                    ctx.out(out).await?;
                                    out.clear();
                                }
                            }
                        }
                    }
                }
            }
            if out.len() > 64 * 1024 {
                ctx.out(out).await?;
                out.clear();
            }
        }
        // What is left of either file is unpairable.
        for (file, r) in [(0, &mut *r1), (1, &mut *r2)] {
            if r.load(ctx, cfg, r.pos).await {
                self.seen_unpairable |= true;
            }
            while r.load(ctx, cfg, r.pos).await {
                r.forget_before(r.pos.saturating_sub(1));
                if cfg.unpaired[file] {
                    let l = r.get(r.pos);
                    if file == 0 {
                        cfg.print(Some(l), None, out);
                    } else {
                        cfg.print(None, Some(l), out);
                    }
                }
                if !cfg.unpaired[file] && self.order != Order::Check {
                    break;
                }
                step!(r, file);
            }
        }
        if r1.warned || r2.warned {
            ctx.out(out).await?;
            out.clear();
            return Err(UError::new(1, "input is not in sorted order"));
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    const F1: &str = "a 1\nb 2\nc 3\ne 5\n";
    const F2: &str = "a x\nc y\nc z\nd w\n";

    fn fs() -> Vec<(&'static str, &'static str)> {
        vec![
            ("f1", F1),
            ("f2", F2),
            ("u1", "b 1\na 2\nc 3\n"),
            ("t1", "k,v\na,,1\nb,2\n"),
            ("t2", "k,w\na,X\nc,Y\n"),
            ("up", "A q\nC r\n"),
        ]
    }

    fn ok(args: &[&str], out: &str) {
        let mut argv = vec!["join"];
        argv.extend_from_slice(args);
        check(&argv, &fs(), "", out, "", 0);
    }

    // Expected outputs from GNU join 9.1 (LC_ALL=C).
    #[test]
    fn joins() {
        ok(&["f1", "f2"], "a 1 x\nc 3 y\nc 3 z\n");
        ok(&["-a1", "f1", "f2"], "a 1 x\nb 2\nc 3 y\nc 3 z\ne 5\n");
        ok(&["-a2", "f1", "f2"], "a 1 x\nc 3 y\nc 3 z\nd w\n");
        ok(&["-a1", "-a2", "f1", "f2"], "a 1 x\nb 2\nc 3 y\nc 3 z\nd w\ne 5\n");
        ok(&["-v1", "f1", "f2"], "b 2\ne 5\n");
        ok(&["-v2", "f1", "f2"], "d w\n");
        ok(&["-o", "1.2,2.2", "f1", "f2"], "1 x\n3 y\n3 z\n");
        ok(&["-o", "auto", "-a1", "-e", "X", "f1", "f2"], "a 1 x\nb 2 X\nc 3 y\nc 3 z\ne 5 X\n");
        ok(&["-o", "0,2.2,1.2", "-a2", "-e", "NA", "f1", "f2"], "a x 1\nc y 3\nc z 3\nd w NA\n");
        ok(&["-e", "X", "-a1", "f1", "f2"], "a 1 x\nb 2\nc 3 y\nc 3 z\ne 5\n");
        ok(&["-j", "1", "f1", "f2"], "a 1 x\nc 3 y\nc 3 z\n");
        ok(&["-1", "2", "-2", "1", "f1", "f2"], "");
        ok(&["u1", "u1"], "b 1 1\na 2 2\nc 3 3\n");
        ok(&["-t,", "t1", "t2"], "k,v,w\na,,1,X\n");
        ok(&["-t,", "--header", "t1", "t2"], "k,v,w\na,,1,X\n");
        ok(&["-t,", "-a1", "-o", "auto", "t1", "t2"], "k,v,w\na,,X\nb,2,\n");
        ok(&["-i", "f1", "up"], "a 1 q\nc 3 r\n");
        ok(&["-t", "", "f1", "f2"], "");
        check(&["join", "-", "f1"], &fs(), "a\n", "a 1\n", "", 0);
    }

    #[test]
    fn order_and_errors() {
        let fs = fs();
        check(
            &["join", "u1", "f2"],
            &fs,
            "",
            "c 3 y\nc 3 z\n",
            "join: u1:2: is not sorted: a 2\njoin: input is not in sorted order\n",
            1,
        );
        check(&["join", "--check-order", "u1", "f2"], &fs, "", "", "join: u1:2: is not sorted: a 2\n", 1);
        check(&["join", "--nocheck-order", "u1", "f2"], &fs, "", "c 3 y\nc 3 z\n", "", 0);
        check(&["join", "f1", "nope"], &fs, "", "", "join: nope: No such file or directory\n", 1);
        let try_ = "Try 'join --help' for more information.\n";
        check(&["join", "f1"], &fs, "", "", &format!("join: missing operand after 'f1'\n{try_}"), 1);
        check(&["join", "-o", "3.1", "f1", "f2"], &fs, "", "", "join: invalid file number in field spec: '3.1'\n", 1);
        check(&["join", "-j0", "f1", "f2"], &fs, "", "", "join: invalid field number: '0'\n", 1);
        check(&["join", "-v3", "f1", "f2"], &fs, "", "", "join: invalid field number: '3'\n", 1);
        check(&["join", "-t", "ab", "f1", "f2"], &fs, "", "", "join: multi-character tab 'ab'\n", 1);
        check(&["join", "-x", "f1", "f2"], &fs, "", "", &format!("join: invalid option -- 'x'\n{try_}"), 1);
    }
}
