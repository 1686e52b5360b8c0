//! bash runs the last simple command of a `-c` string, of a `( )` subshell
//! and of a `$( )` without forking, as an implicit `exec`; like `exec`, that
//! lowers `SHLVL` by one first. So `bash -c 'bash -c "echo \$SHLVL"'` prints
//! 1 where `bash -c 'bash -c "echo \$SHLVL"; :'` prints 2. This finds that
//! command ([`target`]) and computes the level a nested shell starts at
//! ([`child_level`]).

use crate::state::ShellState;
use brush_parser::ast;

/// The simple command of `list` bash would run without forking, as a
/// pointer to compare with the command being run (0: none): the last one,
/// after `;` (alone in its and-or list), `&&` or `||` (not `&`), alone in
/// its pipeline, without `!`,
/// `time` or redirections (bash's `should_suppress_fork` and
/// `can_optimize_connection`).
pub fn target(list: &ast::CompoundList) -> usize {
    let Some(ast::CompoundListItem(and_or, sep)) = list.0.last() else { return 0 };
    let before_async = list.0.len() > 1 && matches!(list.0[list.0.len() - 2].1, ast::SeparatorOperator::Async);
    if matches!(sep, ast::SeparatorOperator::Async) || before_async {
        return 0;
    }
    // bash's connection after `;` holds the whole and-or list: only a
    // simple command there is optimized (`a; b && c` forks `c`).
    if list.0.len() > 1 && !and_or.additional.is_empty() {
        return 0;
    }
    target_and_or(and_or)
}

/// [`target`] of one and-or list (a background job's, run in its own fork).
pub fn target_and_or(and_or: &ast::AndOrList) -> usize {
    let last = match and_or.additional.last() {
        Some(ast::AndOr::And(p) | ast::AndOr::Or(p)) => p,
        None => &and_or.first,
    };
    if last.bang || last.timed.is_some() || last.seq.len() != 1 {
        return 0;
    }
    let ast::Command::Simple(s) = &last.seq[0] else { return 0 };
    let redirects = |items: Option<&Vec<ast::CommandPrefixOrSuffixItem>>| {
        items.is_some_and(|v| v.iter().any(|i| matches!(i, ast::CommandPrefixOrSuffixItem::IoRedirect(_))))
    };
    if redirects(s.prefix.as_ref().map(|p| &p.0)) || redirects(s.suffix.as_ref().map(|p| &p.0)) {
        return 0;
    }
    s as *const ast::SimpleCommand as usize
}

/// Whether the shell's traps let it run its last command without forking:
/// no EXIT or ERR trap and no signal trapped with an action (ignoring one
/// with `trap '' SIG` does not count).
pub fn traps_allow(sh: &ShellState) -> bool {
    sh.traps.iter().all(|(name, action)| action.is_empty() && name != "EXIT" && name != "ERR")
}

/// `SHLVL` of a shell started from one whose exported `SHLVL` is `parent`
/// (`exec`ed: the parent lowered it first), and the warning bash prints
/// when it gets too high.
pub fn child_level(parent: Option<&str>, execed: bool) -> (i64, Option<String>) {
    let mut old = parent.and_then(|v| v.trim().parse::<i64>().ok()).unwrap_or(0);
    if execed {
        old = (old - 1).max(0);
    }
    let new = old.saturating_add(1).max(0);
    if new >= 1000 {
        return (1, Some(format!("warning: shell level ({new}) too high, resetting to 1")));
    }
    (new, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_as_bash_computes_them() {
        assert_eq!(child_level(None, false), (1, None));
        assert_eq!(child_level(Some("1"), false), (2, None));
        assert_eq!(child_level(Some("1"), true), (1, None));
        assert_eq!(child_level(Some("abc"), false), (1, None));
        assert_eq!(child_level(Some("-5"), false), (0, None));
        assert_eq!(child_level(Some("0"), true), (1, None));
        let (n, w) = child_level(Some("999"), false);
        assert_eq!(n, 1);
        assert_eq!(w.as_deref(), Some("warning: shell level (1000) too high, resetting to 1"));
        assert_eq!(child_level(Some("9223372036854775807"), false).0, 1);
    }
}
