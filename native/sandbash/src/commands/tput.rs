//! `tput` and `clear`: there is no terminal, so capabilities that change the
//! screen print nothing; `cols`/`lines`/`colors` report an 80x24, 8-colour
//! terminal so layout code has numbers to work with.

use super::{Command, CommandContext, CommandResult};
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Tput;
pub struct Clear;

/// Capabilities accepted silently (they only emit escape sequences).
const SILENT: &[&str] = &[
    "clear", "sgr0", "bold", "dim", "smul", "rmul", "rev", "blink", "setaf", "setab", "setf", "setb", "cup", "civis",
    "cnorm", "smcup", "rmcup", "el", "el1", "ed", "home", "reset", "init", "sc", "rc", "cuu1", "cud1", "cuf1", "cub1",
    "cuu", "cud", "cuf", "cub", "hpa", "vpa", "bel", "op", "smso", "rmso", "sitm", "ritm", "flash", "invis",
];

#[async_trait]
impl Utility for Tput {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut args = ctx.args.iter().map(String::as_str).skip_while(|a| a.starts_with("-T") || *a == "-S");
        let Some(cap) = args.next() else {
            return Err(UError::new(2, "usage: tput [-V] [-S] [-T term] capname"));
        };
        match cap {
            "cols" | "co" => ctx.out(b"80\n").await?,
            "lines" | "li" => ctx.out(b"24\n").await?,
            "colors" | "Co" => ctx.out(b"8\n").await?,
            "longname" => ctx.out(b"xterm terminal emulator (X Window System)").await?,
            c if SILENT.contains(&c) => {}
            c => {
                return Err(UError::new(4, format!("unknown terminfo capability '{c}'")));
            }
        }
        Ok(0)
    }
}

#[async_trait]
impl Command for Clear {
    async fn run(&self, _ctx: &mut CommandContext<'_>) -> CommandResult {
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn tput() {
        check(&["tput", "cols"], &[], "", "80\n", "", 0);
        check(&["tput", "lines"], &[], "", "24\n", "", 0);
        check(&["tput", "colors"], &[], "", "8\n", "", 0);
        check(&["tput", "setaf", "1"], &[], "", "", "", 0);
        check(&["tput", "bogus"], &[], "", "", "tput: unknown terminfo capability 'bogus'\n", 4);
        check(&["clear"], &[], "", "", "", 0);
    }
}
