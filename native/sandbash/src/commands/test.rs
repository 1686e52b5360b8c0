//! `test` and `[` as the coreutils binaries (for `find -exec test -f {} \;`,
//! `env [ ... ]`). The argument grammar is the shell builtin's parser
//! (`interp::test_parse`); evaluation needs only the filesystem, and messages
//! use coreutils' wording instead of bash's.

use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::path;
use crate::interp::test_parse;
use async_trait::async_trait;
use brush_parser::ast::{BinaryPredicate as BP, TestExpr, UnaryPredicate as UP};
use futures_util::future::BoxFuture;

pub struct Test;

/// bash's parse error text reworded as coreutils prints it.
fn coreutils_msg(bash: &str, args: &[&str]) -> String {
    if bash == "too many arguments" {
        // Usually the word after the first complete expression.
        let extra = args.get(1).copied().unwrap_or("");
        return format!("extra argument '{extra}'");
    }
    if bash == "argument expected" {
        return format!("missing argument after '{}'", args.last().copied().unwrap_or(""));
    }
    if bash == "`)' expected" {
        return "')' expected".into();
    }
    for suffix in [": unary operator expected", ": binary operator expected"] {
        if let Some(op) = bash.strip_suffix(suffix) {
            return format!("'{op}'{suffix}");
        }
    }
    bash.to_string()
}

fn int(s: &str) -> Result<i64, String> {
    s.trim_start_matches([' ', '\t'])
        .trim_end_matches([' ', '\t'])
        .parse()
        .map_err(|_| format!("invalid integer '{s}'"))
}

fn eval<'a>(ctx: &'a CommandContext<'_>, e: &'a TestExpr) -> BoxFuture<'a, Result<bool, String>> {
    Box::pin(async move {
        // The parser bounds the depth; this guards what is left of the stack.
        if crate::limits::stack_low() {
            return Err(test_parse::TOO_DEEP.to_string());
        }
        let full = |s: &str| path::resolve(ctx.cwd, s);
        Ok(match e {
            TestExpr::False => false,
            TestExpr::Literal(s) => !s.is_empty(),
            TestExpr::And(a, b) => eval(ctx, a).await? && eval(ctx, b).await?,
            TestExpr::Or(a, b) => eval(ctx, a).await? || eval(ctx, b).await?,
            TestExpr::Not(a) => !eval(ctx, a).await?,
            TestExpr::Parenthesized(a) => eval(ctx, a).await?,
            TestExpr::UnaryTest(p, s) => {
                if matches!(p, UP::StringHasZeroLength) {
                    return Ok(s.is_empty());
                }
                if matches!(p, UP::StringHasNonZeroLength) {
                    return Ok(!s.is_empty());
                }
                if s.is_empty() {
                    return Ok(false);
                }
                let m = if matches!(p, UP::FileExistsAndIsSymlink) {
                    ctx.fs.symlink_metadata(&full(s)).await
                } else {
                    ctx.fs.metadata(&full(s)).await
                };
                let Ok(m) = m else { return Ok(false) };
                match p {
                    UP::FileExists
                    | UP::FileExistsAndOwnedByEffectiveGroupId
                    | UP::FileExistsAndOwnedByEffectiveUserId
                    | UP::FileExistsAndModifiedSinceLastRead => true,
                    UP::FileExistsAndIsDir => m.is_dir(),
                    UP::FileExistsAndIsRegularFile => m.is_file(),
                    UP::FileExistsAndIsSymlink => m.is_symlink(),
                    UP::FileExistsAndIsNotZeroLength => m.size > 0,
                    UP::FileExistsAndIsReadable => m.mode & 0o444 != 0,
                    UP::FileExistsAndIsWritable => m.mode & 0o222 != 0,
                    UP::FileExistsAndIsExecutable => m.mode & 0o111 != 0,
                    UP::FileExistsAndIsSetuid => m.mode & 0o4000 != 0,
                    UP::FileExistsAndIsSetgid => m.mode & 0o2000 != 0,
                    UP::FileExistsAndHasStickyBit => m.mode & 0o1000 != 0,
                    _ => false,
                }
            }
            TestExpr::BinaryTest(p, a, b) => match p {
                BP::StringExactlyMatchesString | BP::StringExactlyMatchesPattern => a == b,
                BP::StringDoesNotExactlyMatchString | BP::StringDoesNotExactlyMatchPattern => a != b,
                BP::LeftSortsBeforeRight => a < b,
                BP::LeftSortsAfterRight => a > b,
                BP::LeftFileIsNewerOrExistsWhenRightDoesNot | BP::LeftFileIsOlderOrDoesNotExistWhenRightDoes => {
                    let ta = ctx.fs.metadata(&full(a)).await.ok().map(|m| m.mtime);
                    let tb = ctx.fs.metadata(&full(b)).await.ok().map(|m| m.mtime);
                    let (x, y) =
                        if matches!(p, BP::LeftFileIsNewerOrExistsWhenRightDoesNot) { (ta, tb) } else { (tb, ta) };
                    match (x, y) {
                        (Some(x), Some(y)) => x > y,
                        (Some(_), None) => true,
                        _ => false,
                    }
                }
                BP::FilesReferToSameDeviceAndInodeNumbers => {
                    let ca = ctx.fs.canonicalize(&full(a)).await;
                    let cb = ctx.fs.canonicalize(&full(b)).await;
                    matches!((ca, cb), (Ok(x), Ok(y)) if x == y)
                }
                BP::ArithmeticEqualTo => int(a)? == int(b)?,
                BP::ArithmeticNotEqualTo => int(a)? != int(b)?,
                BP::ArithmeticLessThan => int(a)? < int(b)?,
                BP::ArithmeticLessThanOrEqualTo => int(a)? <= int(b)?,
                BP::ArithmeticGreaterThan => int(a)? > int(b)?,
                BP::ArithmeticGreaterThanOrEqualTo => int(a)? >= int(b)?,
                _ => false,
            },
        })
    })
}

#[async_trait]
impl Utility for Test {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut args: Vec<&str> = ctx.args.iter().map(String::as_str).collect();
        if ctx.name == "[" {
            let text = match args.as_slice() {
                ["--help"] => Some("Usage: test EXPRESSION\n".to_string()),
                ["--version"] => Some(super::util::coreutils_version("[")),
                _ => None,
            };
            if let Some(text) = text {
                ctx.out(text.as_bytes()).await?;
                return Ok(0);
            }
            if args.last() != Some(&"]") {
                return Err(UError::new(2, "missing ']'"));
            }
            args.pop();
        }
        let r = match test_parse::parse(&args) {
            Ok(e) => eval(ctx, &e).await,
            Err(m) => Err(coreutils_msg(&m, &args)),
        };
        match r {
            Ok(b) => Ok(i32::from(!b)),
            Err(m) => Err(UError::new(2, m)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn files_and_strings() {
        let files = &[("f", "x"), ("e", ""), ("d/", "")];
        check(&["test", "-f", "f"], files, "", "", "", 0);
        check(&["test", "-d", "f"], files, "", "", "", 1);
        check(&["test", "-s", "e"], files, "", "", "", 1);
        check(&["[", "-d", "d", "]"], files, "", "", "", 0);
        check(&["[", "-f", "f"], files, "", "", "[: missing ']'\n", 2);
        check(&["test", "1", "-lt", "2", "-a", "-n", "x"], &[], "", "", "", 0);
        check(&["test", " 5", "-eq", "5"], &[], "", "", "", 0);
        check(&["test", "x", "=", "x"], &[], "", "", "", 0);
        check(&["test", "-n"], &[], "", "", "", 0);
        check(&["test"], &[], "", "", "", 1);
        check(&["test", "!"], &[], "", "", "", 0);
        check(&["test", "f", "-nt", "nope"], files, "", "", "", 0);
    }

    #[test]
    fn errors() {
        check(&["test", "abc", "-eq", "1"], &[], "", "", "test: invalid integer 'abc'\n", 2);
        check(&["test", "-x", "f", "g"], &[], "", "", "test: 'f': binary operator expected\n", 2);
        check(&["test", "a", "-xx", "b"], &[], "", "", "test: '-xx': binary operator expected\n", 2);
        check(&["[", "--version"], &[], "", "[ (GNU coreutils) 9.1\nCopyright (C) 2022 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n\nWritten by Kevin Braunsdorf and Matthew Bradburn.\n", "", 0);
    }
}
