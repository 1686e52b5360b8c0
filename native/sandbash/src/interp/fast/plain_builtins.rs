//! Builtins run at once when their operands need no word machinery
//! (literals, quoted text, and single parameters whose value would not be
//! split or globbed): `:`, `true` and `false`, `shift`, `return`, `break`
//! and `continue`, and `[ A op B ]` / `test A op
//! B`. Only the tests that cannot fail are decided here (one operand,
//! `-z`/`-n`, `=`/`==`/`!=`, and the integer comparisons on integers);
//! anything else (file tests, `!`, `-a`, an error to print) declines and
//! runs the general way.

use super::{begin_simple, parameter, simple, Ran};
use crate::interp::Flow;
use crate::state::ShellState;
use brush_parser::ast::{self, CommandPrefixOrSuffixItem as Item};
use smallvec::SmallVec;
use std::borrow::Cow;

/// Operands of a test decided here, at most (`[ a = b ]` has three).
const MAX_OPERANDS: usize = 3;

/// Operands of `:`, `true` or `false` taken here, at most.
const MAX_IGNORED: usize = 8;

/// Which builtin a command runs here.
#[derive(Clone, Copy, PartialEq)]
enum Plain {
    Bracket,
    Test,
    /// `:`, `true` or `false`: the status whatever the operands.
    Status(bool),
}

pub fn builtin(sh: &mut ShellState, c: &ast::SimpleCommand) -> Result<Option<Ran>, Flow> {
    let Some(word) = &c.word_or_name else {
        return Ok(None);
    };
    let which = match word.value.as_str() {
        "shift" => return shift(sh, c),
        "return" | "break" | "continue" => return control(sh, c, &word.value),
        "[" => Plain::Bracket,
        "test" => Plain::Test,
        ":" | "true" => Plain::Status(true),
        "false" => Plain::Status(false),
        _ => return Ok(None),
    };
    let bracket = which == Plain::Bracket;
    if c.prefix.is_some() || sh.vars.has_refs() {
        return Ok(None);
    }
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if items.len() > MAX_IGNORED {
        return Ok(None);
    }
    let src = sh.src.clone();
    let mut raw: SmallVec<[Cow<str>; MAX_IGNORED + 1]> = SmallVec::new();
    for it in items {
        let Item::Word(w) = it else {
            return Ok(None);
        };
        raw.push(src.word(w));
    }
    if bracket {
        // `[` without its `]` is an error, printed the general way.
        if raw.pop().as_deref() != Some("]") {
            return Ok(None);
        }
    }
    let tested = matches!(which, Plain::Bracket | Plain::Test);
    if (tested && (raw.is_empty() || raw.len() > MAX_OPERANDS)) || !sh.commands.runs_builtin(sh, &word.value) {
        return Ok(None);
    }
    let mut ops: SmallVec<[Cow<str>; MAX_IGNORED + 1]> = SmallVec::new();
    for r in &raw {
        match operand(sh, r) {
            Some(v) => ops.push(v),
            None => return Ok(None),
        }
    }
    let truth = match which {
        Plain::Status(s) => s,
        _ => match decide(&ops) {
            Some(t) => t,
            None => return Ok(None),
        },
    };
    // `[`'s last word is always `]`: written without a copy.
    let last = match ops.last() {
        _ if bracket => None,
        Some(v) => Some(v.to_string()),
        None => Some(word.value.clone()),
    };
    drop(ops);
    let yield_due = sh.budget.tick_short_command()?;
    begin_simple(sh, c);
    match last {
        Some(last) => simple::set_last_arg(sh, last),
        None => simple::set_last_arg_str(sh, "]"),
    }
    Ok(Some(Ran { status: i32::from(!truth), yield_due }))
}

/// `shift` or `shift N` (N written in digits) that has that many
/// parameters to drop; its errors are printed the general way.
fn shift(sh: &mut ShellState, c: &ast::SimpleCommand) -> Result<Option<Ran>, Flow> {
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if c.prefix.is_some() || items.len() > 1 || !sh.commands.runs_builtin(sh, "shift") {
        return Ok(None);
    }
    let src = sh.src.clone();
    let (n, last) = match items {
        [] => (1, "shift".to_string()),
        [Item::Word(w)] => {
            let raw = src.word(w);
            if raw.is_empty() || raw.len() > 9 || !raw.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(None);
            }
            (raw.parse::<usize>().unwrap_or(usize::MAX), raw.into_owned())
        }
        _ => return Ok(None),
    };
    if n > sh.positional.len() {
        return Ok(None);
    }
    let yield_due = sh.budget.tick_short_command()?;
    begin_simple(sh, c);
    if n > 0 {
        sh.positional = std::sync::Arc::new(sh.positional[n..].to_vec());
    }
    simple::set_last_arg(sh, last);
    Ok(Some(Ran { status: 0, yield_due }))
}

/// `return [N]`, `break [N]` or `continue [N]`, N written in digits, where
/// it means what it says (in a function or sourced file; in a loop, N at
/// least 1): the flow it starts, as `builtins::control` starts it. An error
/// to print, or a turn owed to the runtime, runs the general way.
fn control(sh: &mut ShellState, c: &ast::SimpleCommand, name: &str) -> Result<Option<Ran>, Flow> {
    let items = c.suffix.as_ref().map_or(&[][..], |s| &s.0[..]);
    if c.prefix.is_some() || items.len() > 1 || !sh.commands.runs_builtin(sh, name) {
        return Ok(None);
    }
    let src = sh.src.clone();
    let (n, last) = match items {
        [] => (None, name.to_string()),
        [Item::Word(w)] => {
            let raw = src.word(w);
            if raw.is_empty() || raw.len() > 9 || !raw.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(None);
            }
            (raw.parse::<i64>().ok(), raw.into_owned())
        }
        _ => return Ok(None),
    };
    let flow = if name == "return" {
        if sh.func_depth == 0 && !sh.in_source {
            return Ok(None);
        }
        Flow::Return(n.map_or(sh.last_status, |n| (n & 255) as i32))
    } else {
        let n = n.unwrap_or(1);
        if sh.loop_depth == 0 || n < 1 {
            return Ok(None);
        }
        let n = (n as u32).min(sh.loop_depth as u32);
        if name == "break" {
            Flow::Break(n)
        } else {
            Flow::Continue(n)
        }
    };
    if sh.budget.tick_short_command()? {
        sh.budget.untick_command();
        return Ok(None);
    }
    begin_simple(sh, c);
    if name != "return" {
        sh.last_status = 0;
    }
    simple::set_last_arg(sh, last);
    Err(flow)
}

/// What `test` says of these operands, when it is one of the forms decided here.
fn decide(ops: &[Cow<str>]) -> Option<bool> {
    match ops {
        // One operand: true when not empty, whatever it says (`[ -z ]` too).
        [a] => Some(!a.is_empty()),
        [op, a] => match op.as_ref() {
            "-z" => Some(a.is_empty()),
            "-n" => Some(!a.is_empty()),
            _ => None,
        },
        // Three operands with a binary operator in the middle are always
        // that comparison (bash's `three_arguments` looks at it first).
        [a, op, b] => match op.as_ref() {
            "=" | "==" => Some(a == b),
            "!=" => Some(a != b),
            "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => {
                let (x, y) = (int(a)?, int(b)?);
                Some(match op.as_ref() {
                    "-eq" => x == y,
                    "-ne" => x != y,
                    "-lt" => x < y,
                    "-le" => x <= y,
                    "-gt" => x > y,
                    _ => x >= y,
                })
            }
            _ => None,
        },
        _ => None,
    }
}

/// An integer operand as `test` reads it; `None` (an error to print) otherwise.
fn int(s: &str) -> Option<i64> {
    crate::interp::cond::parse_int(s).ok()
}

/// The one field the word `raw` expands to, when that needs no word machinery.
pub(super) fn operand<'s>(sh: &'s ShellState, raw: &'s str) -> Option<Cow<'s, str>> {
    // The count of positional parameters and the last status: digits.
    match raw {
        "$#" | "\"$#\"" => return Some(Cow::Owned(sh.positional.len().to_string())),
        "$?" | "\"$?\"" => return Some(Cow::Owned(sh.last_status.to_string())),
        _ => {}
    }
    if let Some(inner) = raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return (!inner.contains('\'')).then_some(Cow::Borrowed(inner));
    }
    if let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        if inner.contains(['`', '\\', '"']) {
            return None;
        }
        if !inner.contains('$') {
            return Some(Cow::Borrowed(inner));
        }
        if let Some(v) = parameter(sh, inner) {
            return Some(Cow::Borrowed(v));
        }
        if let Some(v) = super::parameter_op(sh, inner) {
            return Some(Cow::Owned(v));
        }
        return interpolated(sh, inner).map(Cow::Owned);
    }
    if raw.starts_with('$') {
        // Unquoted: it must stay one field, as it is (not split, not globbed).
        let v = parameter(sh, raw)?;
        return (!v.is_empty() && v.bytes().all(plain) && !splits(sh, v)).then_some(Cow::Borrowed(v));
    }
    (!raw.is_empty() && raw.bytes().all(|b| plain(b) || b == b'!')).then_some(Cow::Borrowed(raw))
}

/// Text and parameters inside double quotes (`"line $i of ${n}"`): each
/// parameter `$name`, `${name}` or `$N` must be set (see [`parameter`]);
/// anything else after a `$` declines.
fn interpolated(sh: &ShellState, inner: &str) -> Option<String> {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let len = match after.as_bytes().first()? {
            b'{' => after.find('}')? + 1,
            b'0'..=b'9' => 1,
            c if c.is_ascii_alphabetic() || *c == b'_' => {
                after.bytes().position(|c| !(c.is_ascii_alphanumeric() || c == b'_')).unwrap_or(after.len())
            }
            _ => return None,
        };
        out.push_str(parameter(sh, &rest[at..at + 1 + len])?);
        // Past max_string_bytes the general path gives the error, before
        // sixty copies of a big value pile up here.
        if out.len() > 1 << 16 && out.len() as u64 > crate::expand::string_limit() {
            return None;
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    Some(out)
}

/// Bytes that no expansion, split (at the default IFS) or glob touches.
fn plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_-./,+@%:=".contains(&b)
}

/// Whether `IFS`, set otherwise than by default, would split `v`.
pub(super) fn splits(sh: &ShellState, v: &str) -> bool {
    match sh.vars.get("IFS").and_then(|x| x.value.as_ref()) {
        Some(crate::state::Value::Scalar(ifs)) => v.bytes().any(|b| ifs.as_bytes().contains(&b)),
        _ => false,
    }
}
