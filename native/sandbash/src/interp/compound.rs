//! Compound commands: `{ }`, `( )`, if, while/until, for, `for ((;;))`, case, `(( ))`.

use super::simple::before_command as before;
use super::{enter_subshell, run_list, Fds, Flow, Res};
use crate::expand;
use crate::pattern::Pattern;
use crate::state::ShellState;
use brush_parser::ast::{self, CaseItemPostAction, CompoundCommand as C};

pub async fn run(sh: &mut ShellState, c: &C, fds: &Fds) -> Res {
    if let C::BraceGroup(b) = c {
        // The body of nearly every function, kept apart from the other
        // kinds, whose futures are large: a function call's future holds
        // this one, and is copied whole on every call.
        return run_list(sh, &b.list, fds).await;
    }
    Box::pin(run_other(sh, c, fds)).await
}

/// A compound command other than `{ …; }`.
async fn run_other(sh: &mut ShellState, c: &C, fds: &Fds) -> Res {
    let is_loop = matches!(c, C::WhileClause(_) | C::UntilClause(_) | C::ForClause(_) | C::ArithmeticForClause(_));
    if !is_loop {
        return run_inner(sh, c, fds).await;
    }
    sh.loop_depth += 1;
    let r = run_inner(sh, c, fds).await;
    sh.loop_depth -= 1;
    r
}

async fn run_inner(sh: &mut ShellState, c: &C, fds: &Fds) -> Res {
    // Commands that are not lists run at their own line (`LINENO`, messages, traps).
    if matches!(c, C::ForClause(_) | C::ArithmeticForClause(_) | C::CaseClause(_) | C::Arithmetic(_) | C::Subshell(_)) {
        if let Some(l) = brush_parser::ast::SourceLocation::location(c) {
            sh.line = sh.src.line(l.start.line);
        }
        if matches!(c, C::Subshell(_)) && sh.trace.in_trap == 0 && !sh.traps.is_empty() {
            let cmd = ast::Command::Compound(c.clone(), None);
            sh.trace.command = Some(super::print_cmd::one_command_text(&sh.src, &cmd));
        }
    }
    match c {
        C::BraceGroup(b) => run_list(sh, &b.list, fds).await,
        C::Subshell(s) => subshell(sh, &s.list, fds).await,
        C::IfClause(i) => {
            if condition(sh, &i.condition, fds).await? {
                return run_list(sh, &i.then, fds).await;
            }
            for e in i.elses.iter().flatten() {
                match &e.condition {
                    Some(cond) => {
                        if condition(sh, cond, fds).await? {
                            return run_list(sh, &e.body, fds).await;
                        }
                    }
                    None => return run_list(sh, &e.body, fds).await,
                }
            }
            sh.last_status = 0;
            Ok(0)
        }
        C::WhileClause(w) => while_loop(sh, &w.0, &w.1.list, fds, false).await,
        C::UntilClause(w) => while_loop(sh, &w.0, &w.1.list, fds, true).await,
        C::ForClause(f) => {
            // Errors in its words name the line of `for`.
            sh.line = sh.src.line(f.loc.start.line);
            if !crate::builtins::valid_name(&f.variable_name) {
                fds.shell_err(sh.loc(), &format!("`{}': not a valid identifier", f.variable_name)).await;
                sh.last_status = 1;
                return Ok(1);
            }
            // `set -x` shows the loop's words as written, once per turn.
            let (values, shown) = match &f.values {
                Some(words) => {
                    let raw: Vec<String> = words.iter().map(|w| super::raw_word(sh, w)).collect();
                    let shown = raw.join(" ");
                    let raw: Vec<&str> = raw.iter().map(String::as_str).collect();
                    (expand::expand_words(sh, fds, &raw).await?, shown)
                }
                // `for w in ; do` (an empty list) reaches here as no list at
                // all: the source tells them apart (bash runs it zero times).
                None if empty_in_list(sh, f) => (Vec::new(), String::new()),
                None => (sh.positional.to_vec(), "\"$@\"".to_string()),
            };
            let mut status = 0;
            let for_line = sh.src.line(f.loc.start.line);
            for (i, v) in values.into_iter().enumerate() {
                sh.budget.tick_loop(i as u64 + 1)?;
                loop_turn(sh).await?;
                // Each turn starts at the `for` line (the DEBUG trap's `$LINENO`).
                sh.line = for_line;
                if before(sh, fds, |_| format!("for {} in {shown}", f.variable_name)).await? {
                    continue;
                }
                super::simple::xtrace(sh, fds, &format!("for {} in {shown}", f.variable_name)).await;
                if sh.vars.is_nameref(&f.variable_name) {
                    // A nameref loop variable refers to each word in turn.
                    sh.vars.entry_raw(&f.variable_name).value = Some(crate::state::Value::Scalar(v));
                } else if let Err(m) = sh.set_var(&f.variable_name, v) {
                    fds.shell_err(sh.loc(), &m).await;
                    return Ok(1);
                }
                match body(sh, &f.body.list, fds).await? {
                    Step::Next(s) => status = s,
                    Step::Stop(s) => {
                        status = s;
                        break;
                    }
                }
            }
            sh.last_status = status;
            Ok(status)
        }
        C::ArithmeticForClause(f) => {
            // bash evaluates (and `set -x` shows) an empty part as `1`.
            let part = |e: &Option<ast::UnexpandedArithmeticExpr>| -> String {
                match e.as_ref().map(|e| e.value.trim_start()).filter(|t| !t.trim().is_empty()) {
                    Some(t) => t.to_string(),
                    None => "1".to_string(),
                }
            };
            let (init, cond, upd) = (part(&f.initializer), part(&f.condition), part(&f.updater));
            // Errors in its three parts name the line of `for` (the body moves `sh.line`).
            let for_line = sh.src.line(f.loc.start.line);
            sh.line = for_line;
            {
                before(sh, fds, |_| format!("(({init}))")).await?;
                if arith(sh, fds, &init).await?.is_none() {
                    return Ok(1);
                }
            }
            let mut status = 0;
            let mut i = 0u64;
            loop {
                sh.line = for_line;
                before(sh, fds, |_| format!("(({cond}))")).await?;
                match arith(sh, fds, &cond).await? {
                    None => return Ok(1),
                    Some(0) => break,
                    _ => {}
                }
                i += 1;
                sh.budget.tick_loop(i)?;
                loop_turn(sh).await?;
                match body(sh, &f.body.list, fds).await? {
                    Step::Next(s) => status = s,
                    Step::Stop(s) => {
                        status = s;
                        break;
                    }
                }
                {
                    sh.line = for_line;
                    before(sh, fds, |_| format!("(({upd}))")).await?;
                    if arith(sh, fds, &upd).await?.is_none() {
                        return Ok(1);
                    }
                }
            }
            sh.last_status = status;
            Ok(status)
        }
        C::CaseClause(cc) => case(sh, cc, fds).await,
        C::Arithmetic(a) => {
            if let Some(r) = nested_subshell(sh, a, fds).await {
                return r;
            }
            // Its errors name its own line, the one it ends on (`$LINENO` too).
            sh.line = sh.src.line(a.loc.end.line);
            // The text between `((` and `))` as written: `set -x` shows its blanks.
            let src = sh.src.slice(a.loc.start.index, a.loc.end.index);
            let inner = src.and_then(|t| t.strip_prefix("((")?.strip_suffix("))")).map(str::to_string);
            let text = inner.unwrap_or_else(|| a.expr.value.clone());
            if before(sh, fds, |_| format!("(({text}))")).await? {
                return Ok(sh.last_status);
            }
            let status = match arith(sh, fds, &text).await? {
                Some(v) => i32::from(v == 0),
                None => 1,
            };
            sh.last_status = status;
            Ok(status)
        }
        C::Coprocess(c) => {
            let status = super::coproc::start(sh, c, fds).await?;
            sh.last_status = status;
            Ok(status)
        }
    }
}

/// Each turn of a loop meets the deadline and, when it is due, gives the
/// runtime a turn (a loop of commands that never wait would hold it).
async fn loop_turn(sh: &mut ShellState) -> Result<(), Flow> {
    if sh.budget.poll_turn()? {
        super::simple::take_turn(sh).await;
    }
    Ok(())
}

/// Evaluate arithmetic for `(( ))` / `for ((;;))`; `None` after printing an error.
async fn arith(sh: &mut ShellState, fds: &Fds, text: &str) -> Result<Option<i64>, Flow> {
    if !sh.opts.xtrace {
        if let Some(v) = expand::arith::try_unexpanded(sh, text) {
            return Ok(Some(v));
        }
    }
    // Text without expansions (`i<300000`, `i++`) is evaluated as it is.
    let expanded = if text.contains(['$', '`', '"', '\'', '\\']) {
        std::borrow::Cow::Owned(expand::arith::expand_text(sh, fds, text).await?)
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    if sh.opts.xtrace {
        super::simple::xtrace(sh, fds, &format!("(( {expanded} ))")).await;
    }
    let r = expand::arith::eval_or_stop(sh, &expanded)?;
    expand::arith::flush_warnings(sh, fds).await;
    match r {
        Ok(v) => Ok(Some(v)),
        Err(m) => {
            expand::arith::report(sh, fds, "((: ", &m).await?;
            Ok(None)
        }
    }
}

/// `((list) )`, `( (list))`: bash reads `((` as arithmetic only when it is
/// written together and closes with `))` written together; otherwise it is a
/// subshell in a subshell. brush-parser took the tokens as arithmetic: the
/// text inside the outer parentheses is parsed again (its lines counted from
/// the line of the `(`) and run in a fork. `None`: arithmetic.
async fn nested_subshell(sh: &mut ShellState, a: &ast::ArithmeticCommand, fds: &Fds) -> Option<Res> {
    let (start, end) = (sh.src.byte_offset(a.loc.start.index)?, sh.src.byte_offset(a.loc.end.index)?);
    let whole = sh.src.text.get(start..end)?;
    if (whole.starts_with("((") && whole.ends_with("))")) || !whole.starts_with('(') || !whole.ends_with(')') {
        return None;
    }
    let inner = whole.get(1..whole.len() - 1)?;
    let depth = sh.budget.limits.max_parser_depth as usize;
    let parsed = crate::syntax::cache::program(inner, depth, sh.opts.extglob).ok()?;
    let [list] = &parsed.program.complete_commands[..] else { return None };
    // Its first line is the line of the `(`.
    let base = sh.src.line_base + a.loc.start.line.saturating_sub(1);
    let source = (*parsed.source).clone().with_line_base(base).with_shift(sh.src.shift());
    let outer = std::mem::replace(&mut sh.src, std::sync::Arc::new(source));
    let r = subshell(sh, list, fds).await;
    sh.src = outer;
    Some(r)
}

/// `( list )`: a fork of the shell; nothing it changes comes back.
pub(crate) async fn subshell(sh: &mut ShellState, list: &ast::CompoundList, fds: &Fds) -> Res {
    let mut sub = super::fork(sh);
    enter_subshell(&mut sub)?;
    // `break` and `continue` see only the loops inside `( )` (bash resets
    // its loop level there; a pipeline's or `$( )`'s commands keep it).
    sub.loop_depth = 0;
    sub.nofork = super::nofork::target(list);
    let status = match run_list(&mut sub, list, fds).await {
        Ok(s) => s,
        Err(Flow::Exit(s)) | Err(Flow::Return(s)) | Err(Flow::Abort(s)) => s,
        Err(Flow::Break(_)) | Err(Flow::Continue(_)) => 0,
        Err(stop @ Flow::Stop(_)) => return Err(stop),
    };
    let status = super::run_exit_trap(&mut sub, fds, status).await?;
    sh.last_status = status;
    Ok(status)
}

/// Run a condition list with `set -e` suspended; true when it succeeded.
async fn condition(sh: &mut ShellState, list: &ast::CompoundList, fds: &Fds) -> Result<bool, Flow> {
    let before = sh.in_condition;
    sh.in_condition = true;
    let r = run_list(sh, list, fds).await;
    sh.in_condition = before;
    Ok(r? == 0)
}

enum Step {
    Next(i32),
    Stop(i32),
}

/// One turn of a loop body, turning break/continue into steps.
async fn body(sh: &mut ShellState, list: &ast::CompoundList, fds: &Fds) -> Result<Step, Flow> {
    match run_list(sh, list, fds).await {
        Ok(s) => Ok(Step::Next(s)),
        Err(Flow::Break(n)) if n > 1 => Err(Flow::Break(n - 1)),
        // The status of `break`/`continue` (1 after `break 0`).
        Err(Flow::Break(_)) => Ok(Step::Stop(sh.last_status)),
        Err(Flow::Continue(n)) if n > 1 => Err(Flow::Continue(n - 1)),
        Err(Flow::Continue(_)) => Ok(Step::Next(sh.last_status)),
        Err(e) => Err(e),
    }
}

async fn while_loop(
    sh: &mut ShellState,
    cond: &ast::CompoundList,
    list: &ast::CompoundList,
    fds: &Fds,
    until: bool,
) -> Res {
    let mut status = 0;
    let mut i = 0u64;
    loop {
        i += 1;
        sh.budget.tick_loop(i)?;
        loop_turn(sh).await?;
        // `break`/`continue` in the condition (execute_while_or_until): their
        // status is 0, so `until` ends and `while` goes on to its (skipped) body;
        // a level above this loop goes on outwards.
        let ok = match condition(sh, cond, fds).await {
            Ok(ok) => ok,
            Err(Flow::Break(n)) if n > 1 => return Err(Flow::Break(n - 1)),
            Err(Flow::Continue(n)) if n > 1 => return Err(Flow::Continue(n - 1)),
            Err(Flow::Break(_)) => {
                status = sh.last_status;
                break;
            }
            Err(Flow::Continue(_)) if until => {
                status = sh.last_status;
                break;
            }
            Err(Flow::Continue(_)) => continue,
            Err(e) => return Err(e),
        };
        if ok == until {
            // A `select` (a while over `__select`) that met end of input ends with 1.
            if std::mem::take(&mut sh.select_eof) {
                status = 1;
            }
            break;
        }
        match body(sh, list, fds).await? {
            Step::Next(s) => status = s,
            Step::Stop(s) => {
                status = s;
                break;
            }
        }
    }
    sh.last_status = status;
    Ok(status)
}

async fn case(sh: &mut ShellState, cc: &ast::CaseClauseCommand, fds: &Fds) -> Res {
    // Errors in its word name the line of `case`.
    sh.line = sh.src.line(cc.loc.start.line);
    let src = sh.src.clone();
    let raw = src.word(&cc.value);
    if before(sh, fds, |_| format!("case {raw} in ")).await? {
        return Ok(sh.last_status);
    }
    if sh.opts.xtrace {
        super::simple::xtrace(sh, fds, &format!("case {raw} in")).await;
    }
    let value = match super::fast::unsplit_word(sh, &raw) {
        Some(v) => v.into_owned(),
        None => expand::expand_string(sh, fds, &raw).await?,
    };
    let mut status = 0;
    let mut i = 0;
    let mut fall_through = false;
    while i < cc.cases.len() {
        let item = &cc.cases[i];
        let mut matched = fall_through;
        if !matched {
            for p in &item.patterns {
                let text = src.word(p);
                // Text with nothing to expand or quote is its own pattern
                // (the usual `-a)`, `k*5)`, `*.txt)`): no expansion per turn.
                let (extglob, nocase) = (sh.opts.extglob, sh.opts.nocasematch);
                let hit = if plain_pattern(&text, extglob) {
                    Pattern::text_matches(&text, &value, extglob, nocase)?
                } else {
                    let parts = expand::expand_pattern(sh, fds, &text).await?;
                    Pattern::from_parts(&parts).try_matches_case(&value, extglob, nocase)?
                };
                if hit {
                    matched = true;
                    break;
                }
            }
        }
        if !matched {
            i += 1;
            continue;
        }
        status = match &item.cmd {
            Some(list) => run_list(sh, list, fds).await?,
            None => 0,
        };
        match item.post_action {
            CaseItemPostAction::ExitCase => break,
            CaseItemPostAction::UnconditionallyExecuteNextCaseItem => fall_through = true,
            CaseItemPostAction::ContinueEvaluatingCases => fall_through = false,
        }
        i += 1;
    }
    sh.last_status = status;
    Ok(status)
}

/// A `case` pattern as written that expansion would leave as it is: no
/// parameter, command substitution, quote, escape or tilde (and, under
/// extglob, no group, whose text expansion reads).
pub(super) fn plain_pattern(text: &str, extglob: bool) -> bool {
    !(text.is_empty() || text.contains(['$', '`', '\'', '"', '\\', '~']) || extglob && text.contains(['(', ')', '|']))
}

/// Whether a `for` without words was written `for name in` (an empty list)
/// rather than `for name` (the positional parameters).
fn empty_in_list(sh: &ShellState, f: &ast::ForClauseCommand) -> bool {
    let Some(header) = sh.src.slice(f.loc.start.index, f.body.loc.start.index) else { return false };
    let mut words = header.split(|c: char| c.is_whitespace() || c == ';').filter(|w| !w.is_empty());
    // `for`, the name, then `in` (or `do` / nothing).
    words.nth(2) == Some("in")
}
