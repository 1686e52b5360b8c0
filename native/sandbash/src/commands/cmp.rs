//! `cmp`: compare two files byte by byte (GNU diffutils 3.8).

use super::common::{parse, parse_size, quote, Arg, OptError, Spec};
use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Cmp;

const SPEC: Spec = Spec::new(
    "bi:ln:s",
    &[
        ("print-bytes", Arg::No, "b"),
        ("ignore-initial", Arg::Yes, "i"),
        ("verbose", Arg::No, "l"),
        ("bytes", Arg::Yes, "n"),
        ("quiet", Arg::No, "s"),
        ("silent", Arg::No, "s"),
    ],
    "[OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]",
)
.status(2);

/// GNU `sprintc`: `a`, `^J`, `^?`, `M-^@`.
fn show(b: u8) -> String {
    let mut s = String::new();
    let mut c = b;
    if c >= 128 {
        s.push_str("M-");
        c -= 128;
    }
    match c {
        0..=31 => {
            s.push('^');
            s.push((c + 64) as char);
        }
        127 => s.push_str("^?"),
        _ => s.push(c as char),
    }
    s
}

async fn usage(ctx: &CommandContext<'_>, msg: &str) -> Result<i32, crate::io::IoError> {
    ctx.err(msg).await?;
    ctx.err("Try 'cmp --help' for more information.").await?;
    Ok(2)
}

#[async_trait]
impl Command for Cmp {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out(b"Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]\nCompare two files byte by byte.\n")
                    .await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(b"cmp (GNU diffutils) 3.8\n").await?;
                return Ok(0);
            }
            Err(e) => return usage(ctx, &e.to_string()).await,
        };
        let (verbose, silent, bytes) = (p.has("l"), p.has("s"), p.has("b"));
        if verbose && silent {
            return usage(ctx, "options -l and -s are incompatible").await;
        }
        let mut skip = [0u64; 2];
        if let Some(v) = p.last("i") {
            let (a, b) = v.split_once(':').unwrap_or((v, v));
            match (parse_size(a), parse_size(b)) {
                (Some(x), Some(y)) => skip = [x, y],
                _ => return usage(ctx, &format!("invalid --ignore-initial value {}", quote(v))).await,
            }
        }
        let limit = match p.last("n") {
            Some(v) => match parse_size(v) {
                Some(n) => n,
                None => return usage(ctx, &format!("invalid --bytes value {}", quote(v))).await,
            },
            None => u64::MAX,
        };
        let ops = &p.operands;
        if ops.is_empty() {
            return usage(ctx, "missing operand after 'cmp'").await;
        }
        for (k, op) in ops.iter().enumerate().skip(2).take(2) {
            match parse_size(op) {
                Some(n) => skip[k - 2] = n,
                None => return usage(ctx, &format!("invalid --ignore-initial value {}", quote(op))).await,
            }
        }
        if ops.len() > 4 {
            return usage(ctx, &format!("extra operand {}", quote(&ops[4]))).await;
        }
        let names = [ops[0].clone(), ops.get(1).cloned().unwrap_or_else(|| "-".into())];
        let mut data = Vec::new();
        for n in &names {
            match ctx.read_operand(n).await {
                Ok(d) => data.push(d),
                Err(e) => {
                    if !silent {
                        ctx.err(format!("{n}: {e}")).await?;
                    }
                    return Ok(2);
                }
            }
        }
        let cut = |d: &[u8], s: u64| d[(s.min(d.len() as u64)) as usize..].to_vec();
        let (a, b) = (cut(&data[0], skip[0]), cut(&data[1], skip[1]));
        let lim = limit.min(usize::MAX as u64) as usize;
        let (a, b) = (&a[..a.len().min(lim)], &b[..b.len().min(lim)]);
        let common = a.len().min(b.len());
        let mut status = 0;
        let mut out = String::new();
        if verbose {
            // GNU sizes the offset column for the smaller file.
            let width = common.to_string().len();
            for i in 0..common {
                if a[i] != b[i] {
                    status = 1;
                    if bytes {
                        out.push_str(&format!(
                            "{:>width$} {:3o} {:<4} {:3o} {}\n",
                            i + 1,
                            a[i],
                            show(a[i]),
                            b[i],
                            show(b[i])
                        ));
                    } else {
                        out.push_str(&format!("{:>width$} {:3o} {:3o}\n", i + 1, a[i], b[i]));
                    }
                }
            }
            ctx.out(out.as_bytes()).await?;
        } else if let Some(i) = (0..common).find(|&i| a[i] != b[i]) {
            if !silent {
                let line = 1 + a[..i].iter().filter(|&&c| c == b'\n').count();
                let mut msg = format!("{} {} differ: byte {}, line {line}", names[0], names[1], i + 1);
                if bytes {
                    msg.push_str(&format!(" is {:3o} {} {:3o} {}", a[i], show(a[i]), b[i], show(b[i])));
                }
                msg.push('\n');
                ctx.out(msg.as_bytes()).await?;
            }
            return Ok(1);
        }
        if a.len() != b.len() {
            let (short, name) = if a.len() < b.len() { (a, &names[0]) } else { (b, &names[1]) };
            if !silent {
                let msg = if short.is_empty() {
                    format!("EOF on {name} which is empty")
                } else if verbose {
                    format!("EOF on {name} after byte {}", short.len())
                } else {
                    let nl = short.iter().filter(|&&c| c == b'\n').count();
                    if short.last() == Some(&b'\n') {
                        format!("EOF on {name} after byte {}, line {nl}", short.len())
                    } else {
                        format!("EOF on {name} after byte {}, in line {}", short.len(), nl + 1)
                    }
                };
                ctx.err(msg).await?;
            }
            status = 1;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::check;

    #[test]
    fn cmp_files() {
        check(&["cmp", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "p q differ: byte 1, line 1\n", "", 1);
        check(
            &["cmp", "-l", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "1 141 170\n3 142 141\n",
            "cmp: EOF on p after byte 4\n",
            1,
        );
        check(&["cmp", "-s", "p", "q"], &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")], "", "", "", 1);
        check(
            &["cmp", "-b", "p", "q"],
            &[("p", "a\nb\n"), ("q", "x\na\nb\nc\n")],
            "",
            "p q differ: byte 1, line 1 is 141 a 170 x\n",
            "",
            1,
        );
        check(&["cmp", "p", "p"], &[("p", "a\nb\n")], "", "", "", 0);
        check(&["cmp", "a", "p"], &[("a", "a\n"), ("p", "a\nb\n")], "", "", "cmp: EOF on a after byte 2, line 1\n", 1);
        check(&["cmp", "e", "p"], &[("e", ""), ("p", "a\nb\n")], "", "", "cmp: EOF on e which is empty\n", 1);
        check(&["cmp", "p", "nope"], &[("p", "a\nb\n")], "", "", "cmp: nope: No such file or directory\n", 2);
        check(&["cmp", "-s", "p", "nope"], &[("p", "a\nb\n")], "", "", "", 2);
        check(
            &["cmp", "-k", "p", "p"],
            &[("p", "a\nb\n")],
            "",
            "",
            "cmp: invalid option -- 'k'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(&["cmp", "p"], &[("p", "a\nb\n")], "a\nb\n", "", "", 0);
        check(&["cmp", "p", "-"], &[("p", "a\nb\n")], "a\nc\n", "p - differ: byte 3, line 2\n", "", 1);
        check(
            &["cmp"],
            &[],
            "",
            "",
            "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "a", "b", "c", "d", "e"],
            &[],
            "",
            "",
            "cmp: invalid --ignore-initial value 'c'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "a", "b", "1", "2", "e"],
            &[],
            "",
            "",
            "cmp: extra operand 'e'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(&["cmp", "-l", "c1", "c2"], &[("c1", "abc"), ("c2", "abd")], "", "3 143 144\n", "", 1);
        check(&["cmp", "-n", "2", "c1", "c2"], &[("c1", "abc"), ("c2", "abd")], "", "", "", 0);
        check(
            &["cmp", "-i", "1", "c1", "c2"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "c1 c2 differ: byte 2, line 1\n",
            "",
            1,
        );
        check(
            &["cmp", "c1", "c2", "1", "1"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "c1 c2 differ: byte 2, line 1\n",
            "",
            1,
        );
        check(
            &["cmp", "-n", "abc", "c1", "c2"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "",
            "cmp: invalid --bytes value 'abc'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "-i", "x", "c1", "c2"],
            &[("c1", "abc"), ("c2", "abd")],
            "",
            "",
            "cmp: invalid --ignore-initial value 'x'\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "",
            "cmp: EOF on x after byte 3, in line 2\n",
            1,
        );
        check(
            &["cmp", "x2", "y2"],
            &[("x2", "a\nb\n"), ("y2", "a\nb\nc")],
            "",
            "",
            "cmp: EOF on x2 after byte 4, line 2\n",
            1,
        );
        check(
            &["cmp", "y2", "x2"],
            &[("x2", "a\nb\n"), ("y2", "a\nb\nc")],
            "",
            "",
            "cmp: EOF on x2 after byte 4, line 2\n",
            1,
        );
        check(
            &["cmp", "-lb", "h1", "h2"],
            &[("h1", "\x01\n"), ("h2", "ab\n")],
            "",
            "1   1 ^A   141 a\n2 177 ^?   142 b\n",
            "",
            1,
        );
        check(
            &["cmp", "-b", "h1", "h2"],
            &[("h1", "\x01\n"), ("h2", "ab\n")],
            "",
            "h1 h2 differ: byte 1, line 1 is   1 ^A 141 a\n",
            "",
            1,
        );
        check(
            &["cmp", "-i", "1:2", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "x y differ: byte 1, line 1\n",
            "",
            1,
        );
        check(
            &["cmp", "-l", "-s", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "",
            "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n",
            2,
        );
        check(
            &["cmp", "--verbose", "--print-bytes", "x", "y"],
            &[("x", "a\nb"), ("y", "a\nbc")],
            "",
            "",
            "cmp: EOF on x after byte 3\n",
            1,
        );
        check(&["cmp", "-l", "r1", "r2"], &[("r1", "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"), ("r2", "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000X00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")], "", "151  60 130\n", "", 1);
        check(&["cmp", "-l", "z1", "z2"], &[("z1", "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"), ("z2", "0000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")], "", "   8  60  61\n", "cmp: EOF on z2 after byte 1000\n", 1);
        check(&["cmp", "-lb", "s1", "z1"], &[("s1", "ab\n"), ("z1", "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")], "", "1 141 a     60 0\n2 142 b     60 0\n3  12 ^J    60 0\n", "cmp: EOF on s1 after byte 3\n", 1);
    }
}
