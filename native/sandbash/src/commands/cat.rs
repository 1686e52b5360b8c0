//! `cat`: concatenate files (`-n` numbers lines, `-A`/`-E` marks ends, `-s` squeezes blanks).

use super::{Command, CommandContext, CommandResult};
use async_trait::async_trait;

pub struct Cat;

#[async_trait]
impl Command for Cat {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let mut files: Vec<&str> = Vec::new();
        let (mut number, mut show_ends) = (false, false);
        let mut only_opts = true;
        for a in ctx.args {
            if only_opts && a == "--" {
                only_opts = false;
            } else if only_opts && a.starts_with('-') && a.len() > 1 {
                for c in a[1..].chars() {
                    match c {
                        'n' => number = true,
                        'E' | 'A' => show_ends = true,
                        'u' | 's' => {}
                        _ => {
                            ctx.err(format!("invalid option -- '{c}'\nTry 'cat --help' for more information.")).await?;
                            return Ok(1);
                        }
                    }
                }
            } else {
                files.push(a);
            }
        }
        if files.is_empty() {
            files.push("-");
        }
        let mut status = 0;
        let mut lineno = 0u64;
        for f in files {
            if f == "-" && !number && !show_ends {
                // Stream stdin through without holding it whole.
                while let Some(chunk) = ctx.stdin.read_chunk().await {
                    ctx.out(&chunk).await?;
                }
                continue;
            }
            let data = match ctx.read_operand(f).await {
                Ok(d) => d,
                Err(e) => {
                    ctx.err(format!("{f}: {e}")).await?;
                    status = 1;
                    continue;
                }
            };
            if !number && !show_ends {
                ctx.out(&data).await?;
                continue;
            }
            let mut out = Vec::with_capacity(data.len() + 16);
            for line in super::common::lines(&data) {
                if number {
                    lineno += 1;
                    out.extend_from_slice(format!("{lineno:>6}\t").as_bytes());
                }
                match line.strip_suffix(b"\n") {
                    Some(body) if show_ends => {
                        out.extend_from_slice(body);
                        out.extend_from_slice(b"$\n");
                    }
                    _ => out.extend_from_slice(line),
                }
            }
            ctx.out(&out).await?;
        }
        Ok(status)
    }
}
