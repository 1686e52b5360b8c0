//! `echo` as the coreutils binary (`/bin/echo`): what `env echo` and `xargs
//! echo` run; the shell itself uses its builtin. Options only while every
//! letter is one of `n`, `e`, `E`; `--help`/`--version` only when alone.

use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Echo;

/// Decode coreutils echo's escapes; `true` in the second value means `\c`
/// was met and output stops there (no newline either).
fn unescape(s: &[u8], out: &mut Vec<u8>) -> bool {
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        i += 1;
        if c != b'\\' || i >= s.len() {
            out.push(c);
            continue;
        }
        let e = s[i];
        i += 1;
        let digits = |i: &mut usize, max: usize, radix: u32| {
            let (mut v, mut n) = (0u32, 0);
            while n < max && *i < s.len() && (s[*i] as char).is_digit(radix) {
                v = v * radix + (s[*i] as char).to_digit(radix).unwrap_or(0);
                *i += 1;
                n += 1;
            }
            (v, n)
        };
        match e {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'c' => return true,
            b'e' => out.push(27),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            b'0' => out.push(digits(&mut i, 3, 8).0 as u8),
            b'1'..=b'7' => {
                i -= 1;
                out.push(digits(&mut i, 3, 8).0 as u8);
            }
            b'x' => match digits(&mut i, 2, 16) {
                (_, 0) => out.extend_from_slice(b"\\x"),
                (v, _) => out.push(v as u8),
            },
            other => out.extend_from_slice(&[b'\\', other]),
        }
    }
    false
}

#[async_trait]
impl Utility for Echo {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = ctx.args;
        if args.len() == 1 && args[0] == "--help" {
            let u = format!("Usage: {0} [SHORT-OPTION]... [STRING]...\n  or:  {0} LONG-OPTION\n", ctx.name);
            ctx.out(u.as_bytes()).await?;
            return Ok(0);
        }
        if args.len() == 1 && args[0] == "--version" {
            ctx.out(super::util::coreutils_version("echo").as_bytes()).await?;
            return Ok(0);
        }
        let (mut newline, mut escapes, mut i) = (true, false, 0);
        while let Some(a) = args.get(i) {
            let flags = a.strip_prefix('-').filter(|f| !f.is_empty() && f.bytes().all(|c| b"neE".contains(&c)));
            let Some(flags) = flags else { break };
            for c in flags.bytes() {
                match c {
                    b'n' => newline = false,
                    b'e' => escapes = true,
                    _ => escapes = false,
                }
            }
            i += 1;
        }
        let mut out = Vec::new();
        for (k, a) in args[i..].iter().enumerate() {
            if k > 0 {
                out.push(b' ');
            }
            if !escapes {
                out.extend_from_slice(a.as_bytes());
            } else if unescape(a.as_bytes(), &mut out) {
                ctx.out(&out).await?;
                return Ok(0);
            }
        }
        if newline {
            out.push(b'\n');
        }
        ctx.out(&out).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn echo() {
        check(&["echo", "-n", "hi"], &[], "", "hi", "", 0);
        check(&["echo", "-e", "a\\tb\\\\c", "x"], &[], "", "a\tb\\c x\n", "", 0);
        check(&["echo", "-e", "a\\cb", "x"], &[], "", "a", "", 0);
        check(&["echo", "--help", "x"], &[], "", "--help x\n", "", 0);
        check(&["echo", "-ne", "x\\0101\\x41\\u00e9\\E"], &[], "", "xAA\\u00e9\\E", "", 0);
        check(&["echo", "--", "-n"], &[], "", "-- -n\n", "", 0);
        check(&["echo", "-nx"], &[], "", "-nx\n", "", 0);
        check(&["echo", "-eE", "a\\tb"], &[], "", "a\\tb\n", "", 0);
        check(&["echo"], &[], "", "\n", "", 0);
    }
}
