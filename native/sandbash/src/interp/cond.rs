//! Conditionals: `[[ ... ]]` and the `test` / `[` builtins share the predicates.

use super::{Fds, Flow, Res};
use crate::expand;
use crate::fs::path;
use crate::pattern::Pattern;
use crate::state::{ShellState, Value};
use brush_parser::ast::{BinaryPredicate as BP, ExtendedTestExpr as X, TestExpr, UnaryPredicate as UP};
use futures_util::future::BoxFuture;

/// `[[ expr ]]`: status 0 true, 1 false, 2 error.
pub async fn extended_test(sh: &mut ShellState, expr: &X, fds: &Fds) -> Res {
    let r = eval_ext(sh, expr, fds).await?;
    let status = match r {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(m) => {
            if !m.is_empty() {
                fds.shell_err(sh.loc(), &m).await;
            }
            2
        }
    };
    sh.last_status = status;
    Ok(status)
}

fn eval_ext<'a>(sh: &'a mut ShellState, e: &'a X, fds: &'a Fds) -> BoxFuture<'a, Result<Result<bool, String>, Flow>> {
    Box::pin(async move {
        let r: Result<bool, String> = match e {
            X::And(a, b) => match eval_ext(sh, a, fds).await? {
                Ok(true) => eval_ext(sh, b, fds).await?,
                other => other,
            },
            X::Or(a, b) => match eval_ext(sh, a, fds).await? {
                Ok(false) => eval_ext(sh, b, fds).await?,
                other => other,
            },
            // `set -x` shows a negated test with its `!`.
            X::Not(a) if matches!(**a, X::UnaryTest(..) | X::BinaryTest(..)) => {
                primary(sh, a, fds, true).await?.map(|v| !v)
            }
            X::Not(a) => eval_ext(sh, a, fds).await?.map(|v| !v),
            X::Parenthesized(a) => eval_ext(sh, a, fds).await?,
            X::UnaryTest(..) | X::BinaryTest(..) => primary(sh, e, fds, false).await?,
        };
        Ok(r)
    })
}

/// An operand of `[[ ]]` (expanded, not split or globbed).
async fn operand(sh: &mut ShellState, fds: &Fds, w: &brush_parser::ast::Word) -> Result<String, Flow> {
    let raw = super::raw_word(sh, w);
    if let Some(v) = super::fast::unsplit_word(sh, &raw) {
        return Ok(v.into_owned());
    }
    expand::expand_string(sh, fds, &raw).await
}

/// `[[ ]]` of one test (or its `!`) whose operands need no word machinery
/// (`[[ $x =~ ^re$ ]]`, `[[ $f == *.txt ]]`, `[[ -n "$x" ]]`), decided without
/// the async path a loop pays for on every turn: its status, or `None`
/// having changed nothing (the general path decides).
pub fn try_plain(sh: &mut ShellState, e: &X) -> Result<Option<i32>, Flow> {
    let (neg, e) = match e {
        X::Not(a) if matches!(**a, X::UnaryTest(..) | X::BinaryTest(..)) => (true, &**a),
        other => (false, other),
    };
    let r: Result<bool, String> = match e {
        X::UnaryTest(p @ (UP::StringHasZeroLength | UP::StringHasNonZeroLength), w) => {
            let raw = super::raw_word(sh, w);
            let Some(s) = super::fast::unsplit_word(sh, &raw) else { return Ok(None) };
            Ok(s.is_empty() == matches!(p, UP::StringHasZeroLength))
        }
        X::BinaryTest(p, l, r) => {
            let raw = super::raw_word(sh, l);
            let Some(left) = super::fast::unsplit_word(sh, &raw).map(std::borrow::Cow::into_owned) else {
                return Ok(None);
            };
            let right = super::raw_word(sh, r);
            match p {
                BP::StringExactlyMatchesPattern | BP::StringDoesNotExactlyMatchPattern
                    if super::compound::plain_pattern(&right, true) =>
                {
                    let m = Pattern::text_matches(&right, &left, true, sh.opts.nocasematch)?;
                    Ok(m == matches!(p, BP::StringExactlyMatchesPattern))
                }
                // Its only failure is an invalid regex: status 2, no message.
                BP::StringMatchesRegex if plain_regex(&right) => regex_match(sh, &left, &[(right, false)]),
                _ => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    Ok(match r {
        Ok(t) => Some(i32::from(t == neg)),
        Err(m) if m.is_empty() => Some(2),
        // A message to print: before anything changed (only a regex match
        // changes state, and it fails silently).
        Err(_) => None,
    })
}

/// A regex word with nothing to expand or quote: a `$` only at its end
/// (`^id-[0-9]+$`), which stays a `$`.
fn plain_regex(raw: &str) -> bool {
    !raw.is_empty()
        && !raw.bytes().any(|b| matches!(b, b'`' | b'\\' | b'\'' | b'"' | b'~' | b'<' | b'>'))
        && raw.find('$').is_none_or(|i| i == raw.len() - 1)
}

/// One test of `[[ ]]` (a unary or binary primary); `neg` when under `!`.
async fn primary(sh: &mut ShellState, e: &X, fds: &Fds, neg: bool) -> Result<Result<bool, String>, Flow> {
    Ok(match e {
        X::UnaryTest(p, w) => {
            let s = operand(sh, fds, w).await?;
            trace(sh, fds, neg, &format!("{p} {s}")).await;
            unary(sh, p, &s).await
        }
        X::BinaryTest(p, l, r) => {
            let left = operand(sh, fds, l).await?;
            match p {
                BP::StringExactlyMatchesPattern | BP::StringDoesNotExactlyMatchPattern => {
                    let parts = expand::expand_pattern(sh, fds, &super::raw_word(sh, r)).await?;
                    trace_binary(sh, fds, neg, &left, p, &parts).await;
                    let m = Pattern::from_parts(&parts).try_matches_case(&left, true, sh.opts.nocasematch)?;
                    Ok(m == matches!(p, BP::StringExactlyMatchesPattern))
                }
                BP::StringMatchesRegex => {
                    let raw = super::raw_word(sh, r);
                    let parts = match plain_regex(&raw) {
                        true => vec![(raw, false)],
                        false => expand::expand_pattern(sh, fds, &raw).await?,
                    };
                    trace_binary(sh, fds, neg, &left, p, &parts).await;
                    regex_match(sh, &left, &parts)
                }
                BP::ArithmeticEqualTo
                | BP::ArithmeticNotEqualTo
                | BP::ArithmeticLessThan
                | BP::ArithmeticLessThanOrEqualTo
                | BP::ArithmeticGreaterThan
                | BP::ArithmeticGreaterThanOrEqualTo => {
                    let right = expand::expand_string(sh, fds, &super::raw_word(sh, r)).await?;
                    trace(sh, fds, neg, &format!("{left} {p} {right}")).await;
                    // bash evaluates the left side first; an error stops there.
                    let a = expand::arith::eval_str(sh, &left, 0);
                    let b = if a.is_ok() { expand::arith::eval_str(sh, &right, 0) } else { Ok(0) };
                    expand::arith::flush_warnings(sh, fds).await;
                    match (a, b) {
                        (Ok(a), Ok(b)) => Ok(compare_ints(p, a, b)),
                        // bash reports it and takes the comparison as false.
                        (Err(m), _) | (_, Err(m)) => {
                            expand::arith::report(sh, fds, "[[: ", &m).await?;
                            Ok(false)
                        }
                    }
                }
                _ => {
                    let right = expand::expand_string(sh, fds, &super::raw_word(sh, r)).await?;
                    trace(sh, fds, neg, &format!("{left} {p} {right}")).await;
                    binary(sh, p, &left, &right).await
                }
            }
        }
        _ => eval_ext(sh, e, fds).await?,
    })
}

/// `set -x` shows each test of `[[ ]]` as it is evaluated.
async fn trace(sh: &ShellState, fds: &Fds, neg: bool, text: &str) {
    if sh.opts.xtrace {
        let bang = if neg { "! " } else { "" };
        let line = format!("{}[[ {bang}{text} ]]\n", sh.xtrace_prefix());
        let _ = super::simple::xtrace_out(sh, fds).write_str(&line).await;
    }
}

async fn trace_binary(sh: &ShellState, fds: &Fds, neg: bool, left: &str, p: &BP, right: &[(String, bool)]) {
    if sh.opts.xtrace {
        let right: String = right.iter().map(|(t, _)| t.as_str()).collect();
        trace(sh, fds, neg, &format!("{left} {p} {right}")).await;
    }
}

/// `=~`: a POSIX extended regex, as regcomp reads it (`.` matches a
/// newline, `[` inside a bracket expression is literal, back-references);
/// quoted parts match literally. Sets BASH_REMATCH.
/// Longest regex whose translation is kept, and how many are.
const MAX_KEPT_REGEX: usize = 1024;
const KEPT_REGEXES: usize = 128;

type Translations = std::collections::HashMap<Box<str>, Option<(std::rc::Rc<str>, bool)>>;
thread_local! {
    /// `[[ =~ ]]` regexes to the engine's source (and whether it needs
    /// backreferences): a loop matches one regex over and over, and the
    /// translation cost more than the match. Started over when full.
    static TRANSLATED: std::cell::RefCell<Translations> = std::cell::RefCell::new(Translations::new());
}

/// The engine's source for a POSIX regex, `None` when it is invalid.
fn translated(src: &str) -> Option<(std::rc::Rc<str>, bool)> {
    let make =
        || crate::commands::util::regex_translate::translate_capturing(src).ok().map(|t| (t.source.into(), t.backrefs));
    if src.len() > MAX_KEPT_REGEX {
        return make();
    }
    TRANSLATED.with(|m| {
        if let Some(hit) = m.borrow().get(src) {
            return hit.clone();
        }
        let made = make();
        let mut m = m.borrow_mut();
        if m.len() >= KEPT_REGEXES {
            m.clear();
        }
        m.insert(src.into(), made.clone());
        made
    })
}

fn regex_match(sh: &mut ShellState, s: &str, parts: &[(String, bool)]) -> Result<bool, String> {
    use crate::commands::util::posix_regex::{Flags, PosixRegex};
    let mut src = String::new();
    for (t, q) in parts {
        if *q {
            for c in t.chars() {
                if "\\.[]()*+?{}|^$".contains(c) {
                    src.push('\\');
                }
                src.push(c);
            }
        } else {
            src.push_str(t);
        }
    }
    // bash: status 2 for an invalid regex, with no message.
    let (source, backrefs) = translated(&src).ok_or_else(String::new)?;
    let flags = Flags { icase: sh.opts.nocasematch, multi_line: false, dot_nl: true };
    let limit = usize::try_from(sh.budget.limits.max_regex_bytes).unwrap_or(usize::MAX);
    let re = PosixRegex::new(&source, backrefs, flags, limit).map_err(|_| String::new())?;
    let mut groups: Option<Vec<(i64, String)>> = None;
    // Most tests in a loop fail: a search without captures tells first.
    if re.is_match(s.as_bytes()) {
        re.each_capture(s.as_bytes(), &mut |g| {
            let text = |n: usize| g(n).and_then(|(a, b)| s.get(a..b)).unwrap_or("").to_string();
            groups = Some((0..re.captures_len()).map(|n| (n as i64, text(n))).collect());
            false
        });
    }
    let matched = groups.is_some();
    // The global BASH_REMATCH, as bash sets it (a local of that name is
    // left alone). No match leaves an empty array: one already so stays.
    if !matched
        && matches!(sh.vars.global("BASH_REMATCH"), Some(v) if matches!(&v.value, Some(Value::Indexed(m)) if m.is_empty()))
    {
        return Ok(false);
    }
    let value = Value::Indexed(groups.unwrap_or_default().into_iter().collect());
    let _ = sh.vars.set_global_value("BASH_REMATCH", value);
    Ok(matched)
}

fn compare_ints(p: &BP, a: i64, b: i64) -> bool {
    match p {
        BP::ArithmeticEqualTo => a == b,
        BP::ArithmeticNotEqualTo => a != b,
        BP::ArithmeticLessThan => a < b,
        BP::ArithmeticLessThanOrEqualTo => a <= b,
        BP::ArithmeticGreaterThan => a > b,
        _ => a >= b,
    }
}

/// A unary predicate on an expanded operand.
pub async fn unary(sh: &ShellState, p: &UP, s: &str) -> Result<bool, String> {
    let full = || path::resolve(&sh.cwd, s);
    let fs = &sh.fs;
    Ok(match p {
        UP::StringHasZeroLength => s.is_empty(),
        UP::StringHasNonZeroLength => !s.is_empty(),
        UP::FileExists
        | UP::FileExistsAndOwnedByEffectiveGroupId
        | UP::FileExistsAndOwnedByEffectiveUserId
        | UP::FileExistsAndModifiedSinceLastRead => !s.is_empty() && fs.metadata(&full()).await.is_ok(),
        UP::FileExistsAndIsDir => !s.is_empty() && fs.metadata(&full()).await.is_ok_and(|m| m.is_dir()),
        UP::FileExistsAndIsRegularFile => !s.is_empty() && fs.metadata(&full()).await.is_ok_and(|m| m.is_file()),
        UP::FileExistsAndIsSymlink => !s.is_empty() && fs.symlink_metadata(&full()).await.is_ok_and(|m| m.is_symlink()),
        UP::FileExistsAndIsNotZeroLength => !s.is_empty() && fs.metadata(&full()).await.is_ok_and(|m| m.size > 0),
        UP::FileExistsAndIsReadable => !s.is_empty() && fs.access(&full(), 4).await.unwrap_or(false),
        UP::FileExistsAndIsWritable => !s.is_empty() && fs.access(&full(), 2).await.unwrap_or(false),
        UP::FileExistsAndIsExecutable => !s.is_empty() && fs.access(&full(), 1).await.unwrap_or(false),
        UP::FileExistsAndIsSetuid => !s.is_empty() && fs.metadata(&full()).await.is_ok_and(|m| m.mode & 0o4000 != 0),
        UP::FileExistsAndIsSetgid => !s.is_empty() && fs.metadata(&full()).await.is_ok_and(|m| m.mode & 0o2000 != 0),
        UP::FileExistsAndHasStickyBit => {
            !s.is_empty() && fs.metadata(&full()).await.is_ok_and(|m| m.mode & 0o1000 != 0)
        }
        // The sandbox's devices are its character special files.
        UP::FileExistsAndIsCharSpecialFile => {
            let p = full();
            matches!(p.as_str(), "/dev/null" | "/dev/zero" | "/dev/random" | "/dev/urandom" | "/dev/full")
                && fs.metadata(&p).await.is_ok()
        }
        // A nameref with a value (`declare -n r` alone is not set).
        UP::ShellVariableIsSetAndNameRef => sh.vars.get_raw(s).is_some_and(|v| v.nameref && v.value.is_some()),
        UP::FileExistsAndIsBlockSpecialFile
        | UP::FileExistsAndIsFifo
        | UP::FileExistsAndIsSocket
        | UP::FdIsOpenTerminal => false,
        UP::ShellOptionEnabled => sh.opts.get(s, crate::state::options::Kind::Set) == Some(true),
        UP::ShellVariableIsSetAndAssigned => match s.split_once('[') {
            Some((name, rest)) => {
                let idx = rest.trim_end_matches(']');
                match sh.vars.get_set(name).and_then(|v| v.value.as_ref()) {
                    Some(Value::Indexed(m)) => {
                        // A negative subscript counts back from the end.
                        let top = m.keys().next_back().map_or(0, |k| k + 1);
                        let at = |i: i64| if i < 0 { i.saturating_add(top) } else { i };
                        idx.trim().parse::<i64>().is_ok_and(|i| m.contains_key(&at(i))) || idx == "@" || idx == "*"
                    }
                    Some(Value::Assoc(m)) => m.contains_key(idx),
                    Some(Value::Scalar(_)) => idx == "0",
                    None => false,
                }
            }
            // An array's name alone stands for its element 0; an array
            // declared without a value is not set.
            None => {
                sh.vars.get_set(s).is_some_and(|v| {
                    !v.unassigned
                        && match &v.value {
                            Some(Value::Indexed(m)) => m.contains_key(&0),
                            Some(Value::Assoc(m)) => m.contains_key("0"),
                            _ => true,
                        }
                }) || crate::expand::param::dynamic_is_set(sh, s)
            }
        },
    })
}

/// A binary predicate on expanded operands (string and file comparisons).
pub async fn binary(sh: &ShellState, p: &BP, a: &str, b: &str) -> Result<bool, String> {
    let fs = &sh.fs;
    Ok(match p {
        BP::StringExactlyMatchesString | BP::StringExactlyMatchesPattern => a == b,
        BP::StringDoesNotExactlyMatchString | BP::StringDoesNotExactlyMatchPattern => a != b,
        BP::StringContainsSubstring => a.contains(b),
        BP::LeftSortsBeforeRight => a < b,
        BP::LeftSortsAfterRight => a > b,
        BP::StringMatchesRegex => false,
        BP::LeftFileIsNewerOrExistsWhenRightDoesNot | BP::LeftFileIsOlderOrDoesNotExistWhenRightDoes => {
            let ma = fs.metadata(&path::resolve(&sh.cwd, a)).await.ok().map(|m| m.mtime);
            let mb = fs.metadata(&path::resolve(&sh.cwd, b)).await.ok().map(|m| m.mtime);
            let newer = matches!(p, BP::LeftFileIsNewerOrExistsWhenRightDoesNot);
            match (ma, mb) {
                (Some(x), Some(y)) => {
                    if newer {
                        x > y
                    } else {
                        x < y
                    }
                }
                (Some(_), None) => newer,
                (None, Some(_)) => !newer,
                (None, None) => false,
            }
        }
        BP::FilesReferToSameDeviceAndInodeNumbers => {
            fs.same_file(&path::resolve(&sh.cwd, a), &path::resolve(&sh.cwd, b)).await.unwrap_or(false)
        }
        _ => {
            let x = parse_int(a)?;
            let y = parse_int(b)?;
            compare_ints(p, x, y)
        }
    })
}

/// `test`'s integer operands: optional blanks and sign, decimal digits.
pub(super) fn parse_int(s: &str) -> Result<i64, String> {
    s.trim().parse::<i64>().map_err(|_| format!("{s}: integer expression expected"))
}

/// `test ARGS` / `[ ARGS ]`.
pub async fn test_builtin(sh: &mut ShellState, argv: &[String], fds: &Fds) -> Res {
    let name = argv[0].as_str();
    let mut args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
    if name == "[" {
        if args.last() != Some(&"]") {
            fds.shell_err(sh.loc(), "[: missing `]'").await;
            return Ok(2);
        }
        args.pop();
    }
    let expr = match super::test_parse::parse(&args) {
        Ok(e) => e,
        Err(m) => {
            fds.shell_err(sh.loc(), &format!("{name}: {m}")).await;
            return Ok(2);
        }
    };
    match eval_test(sh, &expr).await {
        Ok(true) => Ok(0),
        Ok(false) => Ok(1),
        Err(m) => {
            fds.shell_err(sh.loc(), &format!("{name}: {m}")).await;
            Ok(2)
        }
    }
}

fn eval_test<'a>(sh: &'a ShellState, e: &'a TestExpr) -> BoxFuture<'a, Result<bool, String>> {
    Box::pin(async move {
        // The parser bounds the depth; this guards what is left of the stack.
        if crate::limits::stack_low() {
            return Err(super::test_parse::TOO_DEEP.to_string());
        }
        match e {
            TestExpr::False => Ok(false),
            TestExpr::Literal(s) => Ok(!s.is_empty()),
            TestExpr::And(a, b) => Ok(eval_test(sh, a).await? && eval_test(sh, b).await?),
            TestExpr::Or(a, b) => Ok(eval_test(sh, a).await? || eval_test(sh, b).await?),
            TestExpr::Not(a) => Ok(!eval_test(sh, a).await?),
            TestExpr::Parenthesized(a) => eval_test(sh, a).await,
            TestExpr::UnaryTest(p, s) => unary(sh, p, s).await,
            TestExpr::BinaryTest(p, a, b) => binary(sh, p, a, b).await,
        }
    })
}
