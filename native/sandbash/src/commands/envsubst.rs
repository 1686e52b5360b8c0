//! `envsubst [-v] [SHELL-FORMAT]` (GNU gettext 0.21): copy stdin to stdout
//! with `$NAME` and `${NAME}` replaced by exported variables (unset ones by
//! nothing); a SHELL-FORMAT restricts the replacement to the variables it
//! names, and `-v` lists those. Stdin streams a line at a time.

use super::util::{Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::collections::HashMap;

pub struct Envsubst;

const SPEC: Spec =
    Spec::new("hvV", &[("help", Arg::No, "h"), ("variables", Arg::No, "v"), ("version", Arg::No, "V")], "");

const HELP: &str = "Usage: envsubst [OPTION] [SHELL-FORMAT]\n\n\
Substitutes the values of environment variables.\n\n\
Operation mode:\n  -v, --variables             output the variables occurring in SHELL-FORMAT\n\n\
Informative output:\n  -h, --help                  display this help and exit\n\
\x20 -V, --version               output version information and exit\n\n\
In normal operation mode, standard input is copied to standard output,\n\
with references to environment variables of the form $VARIABLE or ${VARIABLE}\n\
being replaced with the corresponding values.  If a SHELL-FORMAT is given,\n\
only those environment variables that are referenced in SHELL-FORMAT are\n\
substituted; otherwise all environment variables references occurring in\n\
standard input are substituted.\n\n\
When --variables is used, standard input is ignored, and the output consists\n\
of the environment variables that are referenced in SHELL-FORMAT, one per line.\n\n\
Report bugs in the bug tracker at <https://savannah.gnu.org/projects/gettext>\n\
or by email to <bug-gettext@gnu.org>.\n";

const VERSION: &str = "envsubst (GNU gettext-runtime) 0.21\n\
Copyright (C) 2003-2020 Free Software Foundation, Inc.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n\
Written by Bruno Haible.\n";

/// A variable reference at the start of `s` (which begins with `$`): the
/// name and the length of the whole reference.
fn reference(s: &[u8]) -> Option<(&[u8], usize)> {
    let braced = s.get(1) == Some(&b'{');
    let start = if braced { 2 } else { 1 };
    let first = *s.get(start)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let len = s[start..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
    let name = &s[start..start + len];
    if braced {
        (s.get(start + len) == Some(&b'}')).then_some((name, start + len + 1))
    } else {
        Some((name, start + len))
    }
}

/// Every variable reference in `s`, in order (repeats kept, as `-v` prints them).
fn references(s: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        match (s[i] == b'$').then(|| reference(&s[i..])).flatten() {
            Some((name, len)) => {
                out.push(name);
                i += len;
            }
            None => i += 1,
        }
    }
    out
}

/// `line` with its references replaced; `only` restricts them to a set.
fn substitute(line: &[u8], env: &HashMap<String, String>, only: Option<&[String]>) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == b'$' {
            if let Some((name, len)) = reference(&line[i..]) {
                let name = String::from_utf8_lossy(name);
                if only.is_none_or(|o| o.iter().any(|n| *n == name)) {
                    out.extend_from_slice(env.get(name.as_ref()).map_or(&b""[..], |v| v.as_bytes()));
                    i += len;
                    continue;
                }
            }
        }
        out.push(line[i]);
        i += 1;
    }
    out
}

#[async_trait]
impl Utility for Envsubst {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.has("h") {
            ctx.out(HELP.as_bytes()).await?;
            return Ok(0);
        }
        if p.has("V") {
            ctx.out(VERSION.as_bytes()).await?;
            return Ok(0);
        }
        if p.operands.len() > 1 {
            return Err(UError::new(1, "too many arguments"));
        }
        let format = p.operands.first();
        if p.has("v") {
            let Some(f) = format else {
                return Err(UError::new(1, "missing arguments"));
            };
            let mut out = Vec::new();
            for name in references(f.as_bytes()) {
                out.extend_from_slice(name);
                out.push(b'\n');
            }
            ctx.out(&out).await?;
            return Ok(0);
        }
        let only: Option<Vec<String>> =
            format.map(|f| references(f.as_bytes()).iter().map(|n| String::from_utf8_lossy(n).into_owned()).collect());
        // The environment of a program is what the shell exported.
        let env: HashMap<String, String> = ctx.env.exported().into_iter().collect();
        let Ok(mut src) = ctx.open_lines("-", b'\n').await else { return Ok(1) };
        while let Some(line) = src.next_line(ctx).await {
            ctx.out(&substitute(&line, &env, only.as_deref())).await?;
            if !ctx.still_running() {
                break;
            }
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{make_fs, run_full};
    use crate::limits::Limits;

    fn run(argv: &[&str], stdin: &str) -> (String, String, i32) {
        let fs = make_fs(&[]);
        let o = run_full(&fs, argv, stdin.as_bytes(), &[("A", "1"), ("B", "two")], Limits::default());
        (o.out, o.err, o.status)
    }

    fn ok(out: &str) -> (String, String, i32) {
        (out.into(), String::new(), 0)
    }

    #[test]
    fn substitutes() {
        assert_eq!(run(&["envsubst"], "$A ${B} $C x$ ${A $1 $$ ${B}c $_A\n"), ok("1 two  x$ ${A $1 $$ twoc \n"));
        assert_eq!(run(&["envsubst"], "${A:-x} ${A-y} $AB\n"), ok("${A:-x} ${A-y} \n"));
        assert_eq!(run(&["envsubst"], "\\$A"), ok("\\1"));
        assert_eq!(run(&["envsubst", "$B"], "$A $B\n"), ok("$A two\n"));
        assert_eq!(run(&["envsubst", "${A} foo"], "$A $B\n"), ok("1 $B\n"));
    }

    #[test]
    fn variables() {
        assert_eq!(run(&["envsubst", "-v", "$A ${B} $A x"], ""), ok("A\nB\nA\n"));
        assert_eq!(run(&["envsubst", "--variables", "$A"], ""), ok("A\n"));
    }

    #[test]
    fn errors() {
        assert_eq!(run(&["envsubst", "-v"], ""), ("".into(), "envsubst: missing arguments\n".into(), 1));
        assert_eq!(run(&["envsubst", "a", "b"], ""), ("".into(), "envsubst: too many arguments\n".into(), 1));
        let msg = "envsubst: invalid option -- 'x'\nTry 'envsubst --help' for more information.\n";
        assert_eq!(run(&["envsubst", "-x"], ""), ("".into(), msg.into(), 1));
    }
}
