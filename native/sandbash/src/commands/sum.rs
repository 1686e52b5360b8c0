//! `sum [-r] [-s] [FILE]...` (GNU coreutils): the BSD 16-bit checksum with
//! 1K blocks (the default, `-r`) or the System V one with 512-byte blocks
//! (`-s`). The checksums are shared with `cksum -a bsd|sysv`.

use super::util::{quotef, Spec};
use super::CommandContext;
use crate::commands::util::{UResult, Utility};
use async_trait::async_trait;

pub struct Sum;

const SPEC: Spec = Spec::new("rs", &[("sysv", super::util::Arg::No, "s")], "[OPTION]... [FILE]...");

/// The BSD rotating checksum.
#[derive(Default)]
pub struct Bsd {
    sum: u32,
    len: u64,
}

impl Bsd {
    pub fn update(&mut self, data: &[u8]) {
        for &b in data {
            self.sum = ((self.sum >> 1) + ((self.sum & 1) << 15) + u32::from(b)) & 0xffff;
        }
        self.len += data.len() as u64;
    }
    /// `CHECKSUM BLOCKS` as GNU prints it (`%05d %5s`, 1K blocks rounded up).
    pub fn line(&self) -> String {
        format!("{:05} {:5}", self.sum, self.len.div_ceil(1024))
    }
}

/// The System V byte-sum checksum.
#[derive(Default)]
pub struct SysV {
    sum: u32,
    len: u64,
}

impl SysV {
    pub fn update(&mut self, data: &[u8]) {
        for &b in data {
            self.sum = self.sum.wrapping_add(u32::from(b));
        }
        self.len += data.len() as u64;
    }
    /// `CHECKSUM BLOCKS` (512-byte blocks rounded up).
    pub fn line(&self) -> String {
        let r = (self.sum & 0xffff) + (self.sum >> 16);
        let c = (r & 0xffff) + (r >> 16);
        format!("{c} {}", self.len.div_ceil(512))
    }
}

#[async_trait]
impl Utility for Sum {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        // The last of -r / -s wins.
        let sysv = p.opts.iter().rev().find(|o| o.id == "r" || o.id == "s").is_some_and(|o| o.id == "s");
        let named = !p.operands.is_empty();
        let files = if named { p.operands.clone() } else { vec!["-".to_string()] };
        let mut status = 0;
        for f in &files {
            let input = match ctx.open_input(f).await {
                Ok(i) => i,
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(f))).await?;
                    status = 1;
                    continue;
                }
            };
            let (mut b, mut s) = (Bsd::default(), SysV::default());
            while let Some(chunk) = input.read_chunk().await {
                if sysv {
                    s.update(&chunk);
                } else {
                    b.update(&chunk);
                }
                if !ctx.still_running() {
                    break;
                }
            }
            let mut line = if sysv { s.line() } else { b.line() };
            if named {
                line.push(' ');
                line.push_str(f);
            }
            line.push('\n');
            ctx.out(line.as_bytes()).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn sums() {
        let files = [("abc", "abc"), ("we ird", "x\ny\n")];
        check(&["sum", "abc", "we ird"], &files, "", "16556     1 abc\n00088     1 we ird\n", "", 0);
        check(&["sum"], &files, "abc", "16556     1\n", "", 0);
        check(&["sum", "-"], &files, "abc", "16556     1 -\n", "", 0);
        check(&["sum", "-s", "abc"], &files, "", "294 1 abc\n", "", 0);
        check(&["sum", "-rs", "abc"], &files, "", "294 1 abc\n", "", 0);
        check(&["sum", "-sr", "abc"], &files, "", "16556     1 abc\n", "", 0);
        let big = "x".repeat(100_000);
        check(&["sum"], &[], &big, "61743    98\n", "", 0);
        check(&["sum", "--sysv"], &[], &big, "7095 196\n", "", 0);
        check(&["sum", "nofile"], &[], "", "", "sum: nofile: No such file or directory\n", 1);
        check(&["sum", "-x"], &[], "", "", "sum: invalid option -- 'x'\nTry 'sum --help' for more information.\n", 1);
    }
}
