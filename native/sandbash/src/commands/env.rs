//! `env`: print the exported environment, or run a utility with a changed one
//! (`env -i`, `-u NAME`, `NAME=value`, `-C DIR`). Only registered utilities
//! can be run this way (see `run_util`): shell builtins and functions are not
//! programs, as with the real `env`.

use super::util::{quote, Arg, Spec};
use super::run_util::{self, Exec, Ran};
use super::{CommandContext, EnvView};
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Env;

const SPEC: Spec = Spec::new(
    "iu:0C:",
    &[("ignore-environment", Arg::No, "i"), ("unset", Arg::Yes, "u"), ("null", Arg::No, "0"), ("chdir", Arg::Yes, "C")],
    "[OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]",
)
.status(125)
.posix();

/// The shell's variables with `env`'s changes applied.
pub(super) struct Overlay<'a> {
    pub base: &'a dyn EnvView,
    pub clear: bool,
    pub unset: Vec<String>,
    pub set: Vec<(String, String)>,
}

impl EnvView for Overlay<'_> {
    fn get(&self, name: &str) -> Option<String> {
        if let Some((_, v)) = self.set.iter().rev().find(|(k, _)| k == name) {
            return Some(v.clone());
        }
        if self.clear || self.unset.iter().any(|u| u == name) {
            return None;
        }
        self.base.get(name)
    }
    fn exported(&self) -> Vec<(String, String)> {
        let mut all: Vec<(String, String)> = if self.clear {
            Vec::new()
        } else {
            self.base.exported().into_iter().filter(|(k, _)| !self.unset.contains(k)).collect()
        };
        for (k, v) in &self.set {
            match all.iter_mut().find(|(n, _)| n == k) {
                Some(e) => e.1 = v.clone(),
                None => all.push((k.clone(), v.clone())),
            }
        }
        all
    }
}

/// `NAME=value` lines (or `\0`-ended with `-0`).
pub fn format_env(vars: &[(String, String)], nul: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, v) in vars {
        out.extend_from_slice(format!("{k}={v}").as_bytes());
        out.push(if nul { 0 } else { b'\n' });
    }
    out
}

#[async_trait]
impl Utility for Env {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // `-` alone (before NAME=VALUE) means -i.
        let mut args: Vec<String> = ctx.args.to_vec();
        let dash = args.iter().position(|a| a == "-");
        let mut clear = false;
        if let Some(i) = dash {
            if args[..i].iter().all(|a| a.starts_with('-') && a != "--") {
                args.remove(i);
                clear = true;
            }
        }
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut ov = Overlay { base: ctx.env, clear, unset: vec![], set: vec![] };
        let (mut nul, mut dir) = (false, None::<String>);
        for o in &p.opts {
            match o.id {
                "i" => ov.clear = true,
                "u" => ov.unset.push(o.val.clone().unwrap_or_default()),
                "0" => nul = true,
                _ => dir = o.val.clone(),
            }
        }
        let mut rest = p.operands.as_slice();
        while let Some((name, value)) = rest.first().and_then(|a| a.split_once('=')) {
            ov.set.push((name.to_string(), value.to_string()));
            rest = &rest[1..];
        }
        let Some(cmd_name) = rest.first() else {
            if dir.is_some() {
                return Err(UError::usage(125, "must specify command with --chdir (-C)"));
            }
            ctx.out(&format_env(&ov.exported(), nul)).await?;
            return Ok(0);
        };
        if nul {
            return Err(UError::usage(125, "cannot specify --null (-0) with command"));
        }
        let cwd = match &dir {
            Some(d) => {
                let path = ctx.resolve(d);
                match ctx.fs.metadata(&path).await {
                    Ok(m) if m.is_dir() => path,
                    Ok(_) => return Err(cannot_chdir(d, "Not a directory")),
                    Err(e) => return Err(cannot_chdir(d, &e.to_string())),
                }
            }
            None => ctx.cwd.to_string(),
        };
        let mut e = Exec::from_ctx(ctx, rest);
        e.env = &ov;
        e.cwd = &cwd;
        match run_util::run(ctx, e).await? {
            Ran::Status(s) => Ok(s),
            Ran::NotFound => Err(UError::new(127, format!("{}: No such file or directory", quote(cmd_name)))),
        }
    }
}

fn cannot_chdir(d: &str, e: &str) -> UError {
    UError::new(125, format!("cannot change directory to {}: {e}", quote(d)))
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{make_fs, run_full};
    use crate::limits::Limits;

    fn run(argv: &[&str]) -> (String, i32) {
        let fs = make_fs(&[("f", "b\na\n")]);
        let o = run_full(&fs, argv, b"", &[("A", "1"), ("Z", "x")], Limits::default());
        (o.out + &o.err, o.status)
    }

    #[test]
    fn printing() {
        assert_eq!(run(&["env"]), ("A=1\nZ=x\n".into(), 0));
        assert_eq!(run(&["env", "-i", "B=2", "C=3"]), ("B=2\nC=3\n".into(), 0));
        assert_eq!(run(&["env", "-u", "A"]), ("Z=x\n".into(), 0));
        assert_eq!(run(&["env", "-", "Q=1"]), ("Q=1\n".into(), 0));
    }

    #[test]
    fn running() {
        assert_eq!(run(&["env", "Z=2", "printenv", "Z"]), ("2\n".into(), 0));
        assert_eq!(run(&["env", "-i", "X=1", "printenv"]), ("X=1\n".into(), 0));
        assert_eq!(run(&["env", "/usr/bin/sort", "f"]), ("a\nb\n".into(), 0));
        assert_eq!(run(&["env", "nosuchcmd"]), ("env: 'nosuchcmd': No such file or directory\n".into(), 127));
        assert_eq!(
            run(&["env", "-C", "/nonexist", "sort"]),
            ("env: cannot change directory to '/nonexist': No such file or directory\n".into(), 125)
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            run(&["env", "-x"]),
            ("env: invalid option -- 'x'\nTry 'env --help' for more information.\n".into(), 125)
        );
        assert_eq!(
            run(&["env", "-u"]),
            ("env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n".into(), 125)
        );
    }
}
