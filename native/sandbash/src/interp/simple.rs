//! Simple commands: assignments, word expansion, redirects, then a function,
//! builtin, utility or script; `command not found` otherwise.

use super::{call_function, redirect, Fds, Flow, Res};
use crate::builtins::{self, DeclArg};
use crate::commands::CommandContext;
use crate::expand;
use crate::io::IoError;
use crate::state::{ShellState, Value, Var};
use crate::table::{Program, Resolved};
use brush_parser::ast::{self, AssignmentName, AssignmentValue, CommandPrefixOrSuffixItem as Item, SourceLocation};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A word of a simple command: an item of its prefix or suffix, or its name.
#[derive(Clone, Copy)]
enum Arg<'a> {
    Item(&'a Item),
    Name(&'a ast::Word),
}

/// Builtins whose `name=value` arguments are assignments.
fn is_declaration(name: &str) -> bool {
    matches!(name, "export" | "local" | "declare" | "typeset" | "readonly")
}

pub async fn run(sh: &mut ShellState, cmd: &ast::SimpleCommand, fds: &Fds) -> Res {
    mark_nofork(sh, cmd);
    let mut subs = super::procsub::ProcSubs::default();
    let r = run_with(sh, cmd, fds, &mut subs).await;
    // Most commands have none: their future stays small without it.
    if !subs.is_empty() {
        Box::pin(super::procsub::finish(sh, fds, subs)).await?;
    }
    r
}

/// Whether `cmd` is the command a child shell runs without forking again
/// (see `nofork`).
pub(super) fn mark_nofork(sh: &mut ShellState, cmd: &ast::SimpleCommand) {
    sh.nofork_now = sh.nofork == cmd as *const ast::SimpleCommand as usize && super::nofork::traps_allow(sh);
}

/// `{name}>file` / `{name}>&-`: a word `{name}` right before a redirection
/// (no blank between) names the descriptor. Opening picks the lowest free
/// descriptor from 10, to be stored in `name` once the redirections are
/// made (`opened`); closing reads it from `name`.
fn named_fds<'i>(
    sh: &mut ShellState,
    items: &'i [Item],
    fds: &Fds,
    opened: &mut Vec<NamedFd>,
) -> std::borrow::Cow<'i, [Item]> {
    let src = sh.src.clone();
    let is_named = |w: &ast::Word| {
        let v = &w.value;
        v.len() > 2
            && v.starts_with('{')
            && v.ends_with('}')
            && fd_var_name(&v[1..v.len() - 1])
            && w.loc
                .as_ref()
                .is_some_and(|l| src.slice(l.end.index, l.end.index + 1).is_some_and(|c| c == ">" || c == "<"))
    };
    // The usual case: nothing to rewrite, nothing copied.
    if !items.iter().any(|it| matches!(it, Item::Word(w) if is_named(w))) {
        return std::borrow::Cow::Borrowed(items);
    }
    let mut out = Vec::with_capacity(items.len());
    let mut i = 0;
    while i < items.len() {
        if let (Item::Word(w), Some(Item::IoRedirect(r))) = (&items[i], items.get(i + 1)) {
            let unnumbered = matches!(
                r,
                ast::IoRedirect::File(None, _, _)
                    | ast::IoRedirect::HereString(None, _)
                    | ast::IoRedirect::HereDocument(None, _)
            );
            if unnumbered && is_named(w) {
                let name = &w.value[1..w.value.len() - 1];
                let closing =
                    matches!(r, ast::IoRedirect::File(_, _, ast::IoFileRedirectTarget::Duplicate(t)) if t.value == "-");
                let fd = if closing {
                    fd_var_value(sh, name).and_then(|v| v.trim().parse::<i32>().ok())
                } else {
                    let current = sh.exec_fds.clone();
                    let open = &current.as_deref().unwrap_or(fds).extra;
                    let fd = (10..1024).find(|n| !open.contains_key(n) && !opened.iter().any(|o| o.fd == *n));
                    if let Some(n) = fd {
                        // Set now: a later redirection of the command may use it.
                        let base = crate::state::vars::split_subscript(name).map_or(name, |(b, _)| b);
                        let readonly = sh.vars.get(base).is_some_and(|v| v.readonly);
                        let before = sh.vars.get(base).cloned();
                        if !readonly {
                            set_fd_var(sh, name, n);
                        }
                        opened.push(NamedFd { name: name.to_string(), fd: n, before, readonly });
                    }
                    fd
                };
                if let Some(n) = fd {
                    let numbered = match r.clone() {
                        ast::IoRedirect::File(_, kind, target) => ast::IoRedirect::File(Some(n), kind, target),
                        ast::IoRedirect::HereString(_, word) => ast::IoRedirect::HereString(Some(n), word),
                        ast::IoRedirect::HereDocument(_, doc) => ast::IoRedirect::HereDocument(Some(n), doc),
                        other => other,
                    };
                    out.push(Item::IoRedirect(numbered));
                    i += 2;
                    continue;
                }
            }
        }
        out.push(items[i].clone());
        i += 1;
    }
    std::borrow::Cow::Owned(out)
}

/// A descriptor a `{name}` redirection opens, and what `name` held before.
struct NamedFd {
    name: String,
    fd: i32,
    before: Option<Var>,
    readonly: bool,
}

/// bash's messages for a `{name}` that is readonly; `false` when there was one.
async fn named_fds_assignable(sh: &ShellState, fds: &Fds, opened: &[NamedFd]) -> bool {
    let Some(o) = opened.iter().find(|o| o.readonly) else { return true };
    let base = crate::state::vars::split_subscript(&o.name).map_or(o.name.as_str(), |(b, _)| b);
    fds.shell_err(sh.loc(), &format!("{base}: readonly variable")).await;
    fds.shell_err(sh.loc(), &format!("{}: cannot assign fd to variable", o.name)).await;
    false
}

/// A redirection failed: the `{name}` variables get their values back.
fn unset_named_fds(sh: &mut ShellState, opened: Vec<NamedFd>) {
    for o in opened.into_iter().rev().filter(|o| !o.readonly) {
        let base = crate::state::vars::split_subscript(&o.name).map_or(o.name.clone(), |(b, _)| b.to_string());
        match o.before {
            Some(v) => *sh.vars.entry(&base) = v,
            None => {
                let _ = sh.vars.unset(&base);
            }
        }
    }
}

/// The descriptors `{name}` redirections of a command opened stay open
/// after it, as the shell's own.
fn keep_named_fds(sh: &mut ShellState, applied: &Fds, base: &Fds, opened: &[NamedFd]) {
    let current = sh.exec_fds.clone();
    let base = current.as_deref().unwrap_or(base);
    let mut extra = (*base.extra).clone();
    for o in opened {
        if let Some(slot) = applied.extra.get(&o.fd) {
            extra.insert(o.fd, slot.clone());
        }
    }
    sh.exec_fds = Some(Arc::new(Fds { extra: Arc::new(extra), ..base.clone() }));
}

/// `{name}` or `{name[N]}` (coprocesses keep their descriptors in an array).
pub(crate) fn fd_var_name(s: &str) -> bool {
    match crate::state::vars::split_subscript(s) {
        Some((base, sub)) => crate::builtins::valid_name(base) && sub.trim().parse::<i64>().is_ok(),
        None => crate::builtins::valid_name(s),
    }
}

fn fd_var_value(sh: &ShellState, name: &str) -> Option<String> {
    let Some((base, sub)) = crate::state::vars::split_subscript(name) else { return sh.get_var(name) };
    let i: i64 = sub.trim().parse().ok()?;
    match sh.vars.get(base)?.value.as_ref()? {
        crate::state::Value::Indexed(m) => m.get(&i).cloned(),
        crate::state::Value::Scalar(s) => (i == 0).then(|| s.clone()),
        crate::state::Value::Assoc(m) => m.get(sub).cloned(),
    }
}

fn set_fd_var(sh: &mut ShellState, name: &str, fd: i32) {
    let Some((base, sub)) = crate::state::vars::split_subscript(name) else {
        let _ = sh.set_var(name, fd.to_string());
        return;
    };
    let Ok(i) = sub.trim().parse::<i64>() else { return };
    let mut m = match sh.vars.get(base).and_then(|v| v.value.clone()) {
        Some(crate::state::Value::Indexed(m)) => m,
        Some(crate::state::Value::Scalar(s)) => [(0, s)].into_iter().collect(),
        _ => Default::default(),
    };
    m.insert(i, fd.to_string());
    let _ = sh.vars.set_value(base, crate::state::Value::Indexed(m));
}

/// Whether a DEBUG trap is set (and not running).
pub fn debug_set(sh: &ShellState) -> bool {
    !sh.traps.is_empty() && sh.traps.get("DEBUG").is_some_and(|a| !a.is_empty())
}

/// Run the action of trap `name` (DEBUG, ERR, RETURN) in this shell: its
/// lines count from the current one, `BASH_COMMAND` stays the trapped
/// command, the trap does not fire for its own commands, and `$?` is kept.
/// The result is the action's.
pub async fn run_trap(sh: &mut ShellState, name: &str, fds: &Fds) -> Res {
    let Some(action) = sh.traps.get(name).filter(|a| !a.is_empty()).cloned() else { return Ok(0) };
    Arc::make_mut(&mut sh.traps).insert(name.into(), String::new());
    sh.trace.in_trap += 1;
    let (status, line) = (sh.last_status, sh.line);
    // The trap's own pipelines leave PIPESTATUS as it was (bash saves and
    // restores it around a trap: an ERR trap still sees, and leaves, `1 4`).
    let pipestatus = sh.vars.get("PIPESTATUS").and_then(|v| v.value.clone());
    let r = super::run_trap_string(sh, &action, fds).await;
    if let Some(v) = pipestatus {
        super::set_pipestatus(sh, v);
    }
    sh.line = line;
    sh.trace.in_trap -= 1;
    if sh.traps.get(name).is_some_and(String::is_empty) {
        Arc::make_mut(&mut sh.traps).insert(name.into(), action);
    }
    sh.last_status = status;
    r
}

/// Before a compound command's step (a `for` turn, `(( ))`, `[[ ]]`, `case`):
/// it becomes `BASH_COMMAND` (computed by `text` only while traps are set) and
/// the DEBUG trap runs. `Ok(true)`: skip it (see [`debug_trap`]).
pub async fn before_command(
    sh: &mut ShellState,
    fds: &Fds,
    text: impl FnOnce(&ShellState) -> String,
) -> Result<bool, Flow> {
    if sh.trace.in_trap > 0 || sh.traps.is_empty() {
        return Ok(false);
    }
    let t = text(sh);
    if debug_set(sh) {
        return debug_trap(sh, fds, t).await;
    }
    sh.trace.command = Some(t);
    Ok(false)
}

/// Run the DEBUG trap before a command bash shows as `text` (its
/// `BASH_COMMAND`). `Ok(true)`: skip the command (`extdebug`, and the trap
/// failed); a status of 2 in a function or sourced file returns from it.
pub async fn debug_trap(sh: &mut ShellState, fds: &Fds, text: String) -> Result<bool, Flow> {
    if sh.trace.in_trap == 0 {
        sh.trace.command = Some(text);
    }
    let status = match run_trap(sh, "DEBUG", fds).await {
        Ok(s) | Err(Flow::Return(s)) => s,
        Err(Flow::Break(_)) | Err(Flow::Continue(_)) => 0,
        Err(e) => return Err(e),
    };
    if sh.opts.extdebug && status != 0 {
        if status == 2 && (sh.func_depth > 0 || sh.in_source) {
            return Err(Flow::Return(2));
        }
        return Ok(true);
    }
    Ok(false)
}

/// The line a command starts on, as `cmd.location()` gives it, without
/// building the whole span (that clones several positions per command).
/// The line bash gives a simple command: where its second token ends (the
/// lookahead its parser had read when it made the command), or its only
/// word's last line. So `echo "a<newline>b" $LINENO` is on line 2 and a
/// multi-line `x=$(...)` or `eval '...'` counts from its last line.
pub(super) fn command_line(cmd: &ast::SimpleCommand) -> Option<usize> {
    use ast::CommandPrefixOrSuffixItem as Item;
    // (start line, end line) of each item, in order.
    fn lines(it: &Item) -> Option<(usize, usize)> {
        match it {
            Item::Word(w) => w.loc.as_ref().map(|l| (l.start.line, l.end.line)),
            Item::AssignmentWord(a, _) => Some((a.loc.start.line, a.loc.end.line)),
            // A redirection's target word knows its line.
            Item::IoRedirect(ast::IoRedirect::File(_, _, ast::IoFileRedirectTarget::Filename(w))) => {
                w.loc.as_ref().map(|l| (l.start.line, l.end.line))
            }
            other => other.location().map(|l| (l.start.line, l.end.line)),
        }
    }
    // The first two items with a line (a plain loop: every command runs this).
    let mut found: [Option<(usize, usize, bool)>; 2] = [None, None];
    {
        let mut n = 0;
        let mut take = |x: Option<(usize, usize, bool)>| {
            if let Some(x) = x {
                found[n] = Some(x);
                n += 1;
            }
            n == 2
        };
        let item = |it: &Item| lines(it).map(|(s, e)| (s, e, matches!(it, Item::IoRedirect(_))));
        let name = cmd.word_or_name.as_ref().and_then(|w| w.loc.as_ref()).map(|l| (l.start.line, l.end.line, false));
        let prefix = cmd.prefix.iter().flat_map(|p| p.0.iter());
        let suffix = cmd.suffix.iter().flat_map(|p| p.0.iter());
        let _ = prefix.map(item).any(&mut take) || take(name) || suffix.map(item).any(&mut take);
    }
    let first = found[0]?;
    Some(match found[1] {
        // A redirection's first token is its operator.
        Some((start, _, true)) => start,
        Some((_, end, false)) => end,
        None => first.1,
    })
}

/// The first and last character index of a command, as `cmd.location()`
/// gives them, from its first and last item only.
pub(super) fn span(cmd: &ast::SimpleCommand) -> Option<(usize, usize)> {
    fn item(it: &Item, start: bool) -> Option<usize> {
        let pick = |l: &brush_parser::SourceSpan| if start { l.start.index } else { l.end.index };
        match it {
            Item::Word(w) => w.loc.as_ref().map(pick),
            Item::AssignmentWord(a, _) => Some(pick(&a.loc)),
            other => other.location().as_ref().map(pick),
        }
    }
    let word =
        |start: bool| cmd.word_or_name.as_ref()?.loc.as_ref().map(|l| if start { l.start.index } else { l.end.index });
    let first = match cmd.prefix.as_ref().and_then(|p| p.0.first()) {
        Some(it) => item(it, true),
        None => word(true).or_else(|| item(cmd.suffix.as_ref()?.0.first()?, true)),
    }?;
    let last = match cmd.suffix.as_ref().and_then(|p| p.0.last()) {
        Some(it) => item(it, false),
        None => word(false).or_else(|| item(cmd.prefix.as_ref()?.0.last()?, false)),
    }?;
    Some((first, last))
}

/// The command count says the runtime is owed a turn: give its other tasks
/// (other sessions, a cancel) a turn, and after a quantum, the admission
/// slot to a waiting exec. On a caller's thread its slice decides when to
/// leave instead (`limits::inline`).
pub(super) async fn take_turn(sh: &ShellState) {
    if crate::limits::inline::active() {
        return;
    }
    if sh.budget.should_requeue() {
        let budget = sh.budget.clone();
        budget.requeue().await;
    }
    tokio::task::yield_now().await;
    sh.budget.resumed();
}

async fn run_with(
    sh: &mut ShellState,
    cmd: &ast::SimpleCommand,
    fds: &Fds,
    subs: &mut super::procsub::ProcSubs,
) -> Res {
    if let Some(line) = command_line(cmd) {
        sh.line = sh.src.line(line);
    }
    if sh.budget.tick_command()? {
        take_turn(sh).await;
    }
    // `BASH_COMMAND`: printed as bash prints it while a trap may read it.
    if sh.trace.in_trap == 0 {
        if sh.traps.is_empty() {
            sh.trace.command = None;
            if let Some(sp) = span(cmd) {
                sh.trace.span = sp;
            }
        } else {
            let text = super::print_cmd::simple_text(&sh.src, cmd);
            if debug_set(sh) {
                if Box::pin(debug_trap(sh, fds, text)).await? {
                    return Ok(sh.last_status);
                }
            } else {
                sh.trace.command = Some(text);
            }
        }
    }
    let mut assigns: Vec<&ast::Assignment> = Vec::new();
    let mut redirs: Vec<ast::IoRedirect> = Vec::new();
    let mut words: Vec<Arg> = Vec::new();
    let mut opened: Vec<NamedFd> = Vec::new();
    let prefix_items = cmd.prefix.as_ref().map(|p| named_fds(sh, &p.0, fds, &mut opened));
    let suffix_items = cmd.suffix.as_ref().map(|s| named_fds(sh, &s.0, fds, &mut opened));
    if let Some(prefix) = &prefix_items {
        for it in prefix.iter() {
            match it {
                Item::AssignmentWord(a, _) => assigns.push(a),
                Item::IoRedirect(r) => redirs.push(r.clone()),
                other => words.push(Arg::Item(other)),
            }
        }
    }
    if let Some(w) = &cmd.word_or_name {
        words.push(Arg::Name(w));
    }
    if let Some(suffix) = &suffix_items {
        for it in suffix.iter() {
            match it {
                Item::IoRedirect(r) => redirs.push(r.clone()),
                other => words.push(Arg::Item(other)),
            }
        }
    }

    // Expand the words; for declaration builtins keep `name=value` as assignments.
    sh.subst_status = None;
    let mut argv: Vec<String> = Vec::new();
    let mut decl: Vec<DeclArg> = Vec::new();
    let mut declaring = false;
    for (i, it) in words.iter().enumerate() {
        match *it {
            Arg::Item(Item::AssignmentWord(a, w)) if declaring => {
                let _ = w;
                let v = Box::pin(expand_assignment(sh, fds, a)).await?;
                // A function of that name gets the word as text (and `$_` is it).
                argv.push(match &v.value {
                    AssignedValue::Scalar(s) => {
                        let sub = v.index.as_ref().map(|i| format!("[{i}]")).unwrap_or_default();
                        format!("{}{sub}{}{s}", v.name, if v.append { "+=" } else { "=" })
                    }
                    AssignedValue::Array(_) => v.name.clone(),
                });
                decl.push(DeclArg::Assign(v));
            }
            Arg::Name(w) | Arg::Item(Item::Word(w) | Item::AssignmentWord(_, w)) => {
                let src = sh.src.clone();
                let raw = src.word(w);
                let fields = expand::expand_word(sh, fds, &raw).await?;
                if i == 0 || argv.is_empty() {
                    // Only a name written as such makes the arguments
                    // assignments: one an expansion gives (`$c x=$v`) takes
                    // them as words, split and globbed.
                    declaring = !raw.contains(['$', '`']) && fields.first().is_some_and(|n| is_declaration(n));
                }
                for f in fields {
                    if declaring && !argv.is_empty() {
                        decl.push(DeclArg::Plain(f.clone()));
                    }
                    argv.push(f);
                }
            }
            Arg::Item(Item::ProcessSubstitution(kind, sub)) => {
                argv.push(Box::pin(super::procsub::open(sh, fds, kind, sub, subs)).await?);
            }
            Arg::Item(Item::IoRedirect(_)) => {}
        }
    }

    if argv.is_empty() {
        // Assignments only (and maybe redirects): they change this shell.
        for a in &assigns {
            let v = Box::pin(expand_assignment(sh, fds, a)).await?;
            // A key that expands to nothing: bash names the key as written.
            if let (AssignmentName::ArrayElementName(n, raw), Some("")) = (&a.name, v.index.as_deref()) {
                if is_assoc(sh, n) {
                    let raw = crate::syntax::unmark_subscript_blanks(raw);
                    fds.shell_err(sh.loc(), &format!("{n}[{raw}]: bad array subscript")).await;
                    return Err(if sh.opts.errexit { Flow::Exit(1) } else { Flow::Abort(1) });
                }
            }
            if sh.opts.xtrace {
                Box::pin(trace_assignment(sh, fds, &v)).await;
            }
            let stored = store(sh, v);
            expand::arith::flush_warnings(sh, fds).await;
            if let Err(e) = stored.or_else(|e| if matches!(e, StoreError::Refused) { Ok(()) } else { Err(e) }) {
                // Assigning to a readonly variable abandons the current
                // top-level command (the script goes on with its next line);
                // any other failed assignment ends a non-interactive shell.
                let readonly = matches!(&e, StoreError::Msg(m) if m.ends_with(": readonly variable")
                    || m.ends_with(": bad array subscript")
                    || m.ends_with(": cannot assign list to array member")
                    || m.ends_with("': not a valid identifier")
                    || m.ends_with(": circular name reference"));
                e.report(sh, fds, "").await?;
                // Under `set -e` a failed assignment to a readonly name ends the shell.
                return Err(if readonly && !sh.opts.errexit { Flow::Abort(1) } else { Flow::Exit(1) });
            }
        }
        // A command of assignments (or redirections) only leaves `$_` empty.
        set_last_arg(sh, String::new());
        if !redirs.is_empty() {
            if !named_fds_assignable(sh, fds, &opened).await {
                return Ok(1);
            }
            let Some(applied) = Box::pin(redirect::apply(sh, &redirs, fds)).await? else {
                unset_named_fds(sh, opened);
                return Ok(1);
            };
            if !opened.is_empty() {
                keep_named_fds(sh, &applied, fds, &opened);
            } else if !redirect::close_files(sh, fds, &applied).await {
                return Ok(1);
            }
        }
        return Ok(sh.subst_status.unwrap_or(0));
    }

    // The trace goes where the shell's goes: it is written before the
    // command's own redirections are made.
    if sh.opts.xtrace {
        let ps4 = sh.xtrace_prefix();
        let line = argv.iter().map(|a| xtrace_quote(a)).collect::<Vec<_>>().join(" ");
        let _ = xtrace_out(sh, fds).write_str(&format!("{ps4}{line}\n")).await;
    }
    // Without redirections the command writes where the shell does (no copy).
    let outer = fds;
    if !named_fds_assignable(sh, fds, &opened).await {
        return Ok(1);
    }
    let applied;
    let redirected = if redirs.is_empty() {
        Ok(None)
    } else if opened.is_empty() && redirs.iter().any(expands) && runs_as_program(sh, &argv[0]).await {
        // bash makes a program's redirections in the child it forked for
        // it: what their expansions change (`$((i++))` in a here-document)
        // stays there.
        let mut child = super::fork(sh);
        Box::pin(redirect::apply(&mut child, &redirs, fds)).await.map(Some)
    } else {
        Box::pin(redirect::apply(sh, &redirs, fds)).await.map(Some)
    };
    let fds = match redirected {
        Ok(None) => fds,
        Ok(Some(Some(f))) => {
            applied = f;
            &applied
        }
        Ok(Some(None)) => {
            unset_named_fds(sh, opened);
            return Ok(1);
        }
        Err(e) => return Box::pin(redirect_error(sh, &argv[0], e)).await,
    };
    let name = argv[0].clone();

    // Prefix assignments: temporary for the command; in POSIX mode they stay
    // after a special builtin (bash's default mode restores them too).
    let persistent = !assigns.is_empty()
        && sh.opts.get("posix", crate::state::options::Kind::Set) == Some(true)
        && builtins::is_special(&name)
        && !sh.funcs.contains_key(&name);
    let mut saved: Vec<(String, Option<Var>)> = Vec::new();
    for a in &assigns {
        // A prefix assignment gives the command a string: `B=(b c) cmd` the
        // text `(b c)` (expanded, not split); an element (`b[0]=2 cmd`) is
        // refused, as bash does building the command's environment.
        let v = match (&a.name, &a.value) {
            (ast::AssignmentName::ArrayElementName(..), _) => {
                let text = sh.src.slice(a.loc.start.index, a.loc.end.index).unwrap_or("");
                let lhs = text.split_once('=').map_or(text, |(l, _)| l.trim_end_matches('+'));
                fds.shell_err(sh.loc(), &format!("`{lhs}': not a valid identifier")).await;
                continue;
            }
            (ast::AssignmentName::VariableName(name), ast::AssignmentValue::Array(_)) => {
                let src = sh.src.clone();
                let text = src.slice(a.loc.start.index, a.loc.end.index).unwrap_or("");
                let list = text.split_once('=').map_or("", |(_, v)| v);
                let value = expand::expand_string(sh, fds, list).await?;
                Assigned { name: name.clone(), index: None, value: AssignedValue::Scalar(value), append: a.append }
            }
            _ => Box::pin(expand_assignment(sh, fds, a)).await?,
        };
        if !persistent {
            saved.push((v.name.clone(), sh.vars.get(&v.name).cloned()));
        }
        let n = v.name.clone();
        // A temporary binding is a plain string: `-i`, `-l` and `-u` of the
        // variable it hides do not apply to it, and it hides an array whole
        // (`arr=3 f` sees `arr` as "3"; `arr+=3` appends to `${arr}`).
        let plain = !persistent && v.index.is_none() && matches!(v.value, AssignedValue::Scalar(_));
        let hides = |x: &Var| {
            !x.readonly
                && !x.nameref
                && (x.integer || x.case.is_some() || matches!(x.value, Some(Value::Indexed(_) | Value::Assoc(_))))
        };
        let v = match v {
            Assigned { value: AssignedValue::Scalar(s), append, .. } if plain && sh.vars.get(&n).is_some_and(hides) => {
                let e = sh.vars.entry(&n);
                let before = if append {
                    e.value.as_ref().and_then(Value::as_scalar).unwrap_or_default()
                } else {
                    String::new()
                };
                e.value = Some(Value::Scalar(String::new()));
                e.integer = false;
                e.case = None;
                e.unassigned = false;
                Assigned { name: n.clone(), index: None, value: AssignedValue::Scalar(before + &s), append: false }
            }
            v => v,
        };
        if let Err(e) = store(sh, v) {
            // A readonly name keeps its value and the command still runs.
            if matches!(&e, StoreError::Refused)
                || matches!(&e, StoreError::Msg(m) if m.ends_with(": readonly variable"))
            {
                e.report(sh, fds, "").await?;
                continue;
            }
            restore(sh, saved);
            e.report(sh, fds, "").await?;
            return Ok(1);
        }
        if !persistent {
            sh.vars.entry(&n).exported = true;
        }
    }
    let last_arg = argv.last().cloned().unwrap_or_default();
    let result = dispatch(sh, &name, argv, decl, fds).await;
    // Files of whole-file backends get the command's output now (`exec`
    // keeps its descriptors open).
    let result = if std::ptr::eq(fds, outer) || name == "exec" || redirect::close_files(sh, outer, fds).await {
        result
    } else {
        result.map(|s| s.max(1))
    };
    if !opened.is_empty() && name != "exec" {
        keep_named_fds(sh, fds, outer, &opened);
    }
    restore(sh, saved);
    // `$_`: the last argument of the previous command.
    set_last_arg(sh, last_arg);
    result
}

/// An expansion error in a redirection of command `name`. bash makes the
/// redirections of a program in the child it forked for it: only that
/// command fails, with the status the child exits with, and the shell goes
/// on. For a builtin it is the shell's own error; in a function's it ends
/// the shell.
async fn redirect_error(sh: &ShellState, name: &str, e: Flow) -> Res {
    let (Flow::Exit(s) | Flow::Abort(s)) = e else {
        return Err(e);
    };
    match sh.commands.resolve(sh, name).await {
        Resolved::Function(_) => Err(Flow::Exit(s)),
        Resolved::SpecialBuiltin(_) | Resolved::Builtin(_) => Err(e),
        _ => Ok(s),
    }
}

/// Whether a redirection's word has an expansion (which may change the
/// shell: `$((i++))`, `${x:=y}`, a command substitution).
fn expands(r: &ast::IoRedirect) -> bool {
    use ast::{IoFileRedirectTarget as T, IoRedirect as R};
    let w = match r {
        R::File(_, _, T::Filename(w) | T::Duplicate(w)) | R::HereString(_, w) | R::OutputAndError(w, _) => w,
        R::File(_, _, T::Fd(_)) => return false,
        R::File(_, _, T::ProcessSubstitution(..)) => return true,
        R::HereDocument(_, doc) if !doc.requires_expansion => return false,
        R::HereDocument(_, doc) => &doc.doc,
    };
    w.value.contains(['$', '`'])
}

/// Whether `name` runs as a program would in bash (a forked child): a
/// utility, a script file, the embedder's command, or a name not found.
async fn runs_as_program(sh: &ShellState, name: &str) -> bool {
    !matches!(
        sh.commands.resolve(sh, name).await,
        Resolved::Function(_) | Resolved::SpecialBuiltin(_) | Resolved::Builtin(_)
    )
}

/// Set `$_`, unless it already holds that (a loop's commands mostly repeat it).
pub(super) fn set_last_arg(sh: &mut ShellState, v: String) {
    match last_arg_in_place(sh, &[&v]) {
        Some(Some(s)) => *s = v,
        Some(None) => {}
        None => set_last_arg_general(sh, v),
    }
}

/// [`set_last_arg`] of a value the caller keeps: copied into `$_`'s own
/// buffer, which allocates only when it has to grow.
pub(super) fn set_last_arg_str(sh: &mut ShellState, v: &str) {
    set_last_arg_parts(sh, &[v]);
}

/// [`set_last_arg_str`] of the text `parts` make together.
pub(super) fn set_last_arg_parts(sh: &mut ShellState, parts: &[&str]) {
    match last_arg_in_place(sh, parts) {
        Some(Some(s)) => {
            s.clear();
            parts.iter().for_each(|p| s.push_str(p));
        }
        Some(None) => {}
        None => set_last_arg_general(sh, parts.concat()),
    }
}

/// A plain scalar `$_` (the usual case), to replace in place: one lookup to
/// look, one to write, none of an assignment's checks. `Some(None)` when it
/// holds `v` already, `None` when it is not such a variable.
fn last_arg_in_place<'a>(sh: &'a mut ShellState, v: &[&str]) -> Option<Option<&'a mut String>> {
    // Empty strings are told apart by length: `memcmp` of 0 bytes at a
    // dangling pointer (an empty `String`'s) costs a masked load there that
    // the CPU resolves slowly, a fifth of a tight loop's time.
    let same = |s: &String| {
        s.len() == v.iter().map(|p| p.len()).sum::<usize>() && {
            let mut rest = s.as_str();
            v.iter().all(|p| {
                p.is_empty()
                    || match rest.strip_prefix(p) {
                        Some(r) => {
                            rest = r;
                            true
                        }
                        None => false,
                    }
            })
        }
    };
    let plain = |var: &Var| {
        matches!(var.value, Some(Value::Scalar(_)))
            && !(var.exported || var.readonly || var.integer || var.nameref || var.case.is_some())
    };
    if sh.vars.has_refs() || sh.opts.allexport {
        return None;
    }
    let found = sh.vars.get_raw("_").filter(|var| plain(var)).map(|var| match &var.value {
        Some(Value::Scalar(s)) => same(s),
        _ => false,
    })?;
    if found {
        return Some(None);
    }
    match &mut sh.vars.entry_raw("_").value {
        Some(Value::Scalar(s)) => Some(Some(s)),
        _ => Some(None),
    }
}

/// `$_` set as any assignment is, without the export attribute.
fn set_last_arg_general(sh: &mut ShellState, v: String) {
    let _ = sh.set_var("_", v);
    // Each command sets `$_` anew, without the export attribute.
    if sh.vars.get_raw("_").is_some_and(|v| v.exported) {
        sh.vars.entry_raw("_").exported = false;
    }
}

fn restore(sh: &mut ShellState, saved: Vec<(String, Option<Var>)>) {
    for (name, old) in saved.into_iter().rev() {
        match old {
            Some(v) => *sh.vars.entry(&name) = v,
            None => {
                let _ = sh.vars.unset(&name);
            }
        }
    }
}

/// Run `argv` as command `name` resolves (see [`crate::table`]).
pub async fn dispatch(sh: &mut ShellState, name: &str, argv: Vec<String>, decl: Vec<DeclArg>, fds: &Fds) -> Res {
    // A command named `%job` is `fg %job` to bash, before any lookup.
    if name.starts_with('%') {
        if let Some(fg) = builtins::lookup("fg") {
            let mut fg_argv = vec!["fg".to_string()];
            fg_argv.extend(argv);
            return builtins::run_builtin(sh, fg, &fg_argv, Vec::new(), fds).await;
        }
    }
    let r = sh.commands.resolve(sh, name).await;
    run_resolved(sh, name, r, argv, decl, fds).await
}

/// Run `argv` as what `name` resolved to.
pub async fn run_resolved(
    sh: &mut ShellState,
    name: &str,
    resolved: Resolved,
    argv: Vec<String>,
    decl: Vec<DeclArg>,
    fds: &Fds,
) -> Res {
    match resolved {
        Resolved::Function(f) => {
            // The arguments move to the call (no copy of each).
            let mut argv = argv;
            let args = if argv.is_empty() { argv } else { argv.split_off(1) };
            Box::pin(call_function(sh, name, f, Arc::new(args), fds)).await
        }
        Resolved::SpecialBuiltin(b) | Resolved::Builtin(b) | Resolved::Utility(Program::Shell(b), _) => {
            builtins::run_builtin(sh, b, &argv, decl, fds).await
        }
        Resolved::AppBuiltin => match sh.commands.app_builtins().cloned() {
            Some(host) => Box::pin(run_host(sh, &host, &argv, fds)).await,
            None => Box::pin(not_found(sh, name, fds)).await,
        },
        Resolved::Utility(Program::Command(cmd), _) => Box::pin(run_utility(sh, cmd.as_ref(), &argv, fds)).await,
        Resolved::File(path) => {
            let mut argv = argv;
            argv[0] = path;
            Box::pin(builtins::run_script_file(sh, &argv, fds)).await
        }
        Resolved::NotFound | Resolved::NotAllowed => Box::pin(not_found(sh, name, fds)).await,
    }
}

/// `bash: line N: NAME: command not found`, status 127 (also for a name the
/// session's policy restricts: to the script it does not exist).
async fn not_found(sh: &ShellState, name: &str, fds: &Fds) -> Res {
    // With `PATH` empty or unset bash runs the name from the current
    // directory, and fails as a missing file does.
    let what =
        if sh.get_var("PATH").is_none_or(|p| p.is_empty()) { "No such file or directory" } else { "command not found" };
    fds.shell_err(sh.loc(), &format!("{name}: {what}")).await;
    Ok(127)
}

/// Run a registered utility.
pub async fn run_utility(sh: &mut ShellState, cmd: &dyn crate::commands::Command, argv: &[String], fds: &Fds) -> Res {
    run_with_context(sh, Runner::Utility(cmd), argv, fds).await
}

/// Run a command the embedding application answers.
async fn run_host(sh: &mut ShellState, host: &crate::commands::host::HostCommands, argv: &[String], fds: &Fds) -> Res {
    run_with_context(sh, Runner::Host(host), argv, fds).await
}

/// What runs with a [`CommandContext`]: a utility, or the embedder's command.
enum Runner<'a> {
    Utility(&'a dyn crate::commands::Command),
    Host(&'a crate::commands::host::HostCommands),
}

async fn run_with_context(sh: &mut ShellState, runner: Runner<'_>, argv: &[String], fds: &Fds) -> Res {
    // A utility's loops do not come back to the interpreter: never on a
    // caller's thread. The embedder's command only copies its input and
    // waits (its embedder may serve it from the caller's side).
    if let Runner::Utility(_) = runner {
        crate::limits::inline::leave().await;
    }
    sh.budget.set_command(&argv[0]);
    let mut ctx = CommandContext {
        name: &argv[0],
        args: &argv[1..],
        stdin: fds.stdin.clone(),
        stdout: fds.stdout.clone(),
        stderr: fds.stderr.clone(),
        cwd: &sh.cwd,
        env: sh,
        fs: &sh.fs,
        sys: &sh.sys,
        budget: &sh.budget,
        line: sh.line,
        shell: Some(sh),
    };
    let r = match runner {
        Runner::Utility(cmd) => crate::commands::util::with_locale(sh, cmd.run(&mut ctx)).await,
        Runner::Host(host) => host.run(&mut ctx).await,
    };
    drop(ctx);
    if !sh.jobs.list.is_empty() {
        sh.jobs.notify_dead();
    }
    // It read a directory given as its input: the read failed.
    if matches!(r, Ok(0)) && fds.stdin.read_failed() {
        let _ = fds.stderr.write_str(&format!("{}: -: Is a directory\n", argv[0])).await;
        return Ok(1);
    }
    io_result(sh, &argv[0], r, fds).await
}

/// Map a command's I/O failure to a status (or end the exec on a limit).
pub async fn io_result(sh: &ShellState, name: &str, r: Result<i32, IoError>, fds: &Fds) -> Res {
    sh.budget.check()?;
    match r {
        Ok(s) => Ok(s),
        // SIGPIPE ends the whole process in bash: here, the (sub)shell of the stage.
        Err(IoError::BrokenPipe) => Err(Flow::Exit(141)),
        Err(IoError::OutputLimit(n)) => {
            Err(Flow::Stop(crate::limits::Budget::exceeded("max_output_bytes", n, "output")))
        }
        Err(e) => {
            // A bash builtin (`printf`) reports as the shell does; a utility by its name.
            if crate::builtins::is_bash_builtin(name) {
                fds.shell_err(sh.loc(), &format!("{name}: write error: {e}")).await;
            } else {
                let _ = fds.stderr.write_str(&format!("{name}: write error: {e}\n")).await;
            }
            Ok(1)
        }
    }
}

/// An assignment with its value expanded.
#[derive(Debug, Clone)]
pub struct Assigned {
    pub name: String,
    /// `a[i]=v`: the raw index.
    pub index: Option<String>,
    pub value: AssignedValue,
    pub append: bool,
}

#[derive(Debug, Clone)]
pub enum AssignedValue {
    Scalar(String),
    /// `(a b [k]=c)`: optional key (raw, expanded) and value.
    Array(Vec<(Option<String>, String)>),
}

/// The value of a `[k]=v` item: expanded as an assignment's (a tilde after
/// `:` too) for an indexed array; for an associative one bash 5.2 leaves a
/// tilde alone.
async fn keyed_value(sh: &mut ShellState, fds: &Fds, raw: &str, assoc: bool) -> Result<String, Flow> {
    if !assoc {
        return expand::expand_assignment_value(sh, fds, raw).await;
    }
    match raw.strip_prefix('~') {
        Some(rest) => expand::expand_string(sh, fds, &format!("\\~{rest}")).await,
        None => expand::expand_string(sh, fds, raw).await,
    }
}

/// Expand the value of `name=value` / `name=(...)` / `name[i]=value`.
pub async fn expand_assignment(sh: &mut ShellState, fds: &Fds, a: &ast::Assignment) -> Result<Assigned, Flow> {
    let (name, index) = match &a.name {
        AssignmentName::VariableName(n) => (n.clone(), None),
        // An indexed array's subscript is arithmetic text: expanded as in
        // double quotes (`a['1']=x` is an error in bash); an associative
        // array's key is an ordinary word.
        AssignmentName::ArrayElementName(n, i) => {
            let i = crate::syntax::unmark_subscript_blanks(i);
            let i = if is_assoc(sh, n) {
                expand::expand_string(sh, fds, &i).await?
            } else {
                expand::expand_arith_text(sh, fds, &i).await?
            };
            (n.clone(), Some(i))
        }
    };
    let value = match &a.value {
        AssignmentValue::Scalar(w) => {
            let src = sh.src.clone();
            let text = assignment_value_text(&src, a).unwrap_or_else(|| src.word(w).into_owned());
            AssignedValue::Scalar(expand::expand_assignment_value(sh, fds, &text).await?)
        }
        AssignmentValue::Array(items) => {
            let mut out = Vec::new();
            let assoc = is_assoc(sh, &name);
            for (k, v) in items {
                match k {
                    Some(k) => {
                        let key = expand::expand_string(sh, fds, &super::raw_word(sh, k)).await?;
                        if assoc && key.is_empty() {
                            let item = format!("[{}]={}", super::raw_word(sh, k), super::raw_word(sh, v));
                            empty_key(sh, fds, &item).await;
                            continue;
                        }
                        let val = keyed_value(sh, fds, &super::raw_word(sh, v), assoc).await?;
                        out.push((Some(key), val));
                    }
                    None => {
                        let raw = super::raw_word(sh, v);
                        // `[k]+=v` and keys holding `]` (`[a[0]]=v`), which
                        // brush-parser reads as plain words.
                        if let Some((key, append, val)) = keyed_item(&raw) {
                            let key = expand::expand_string(sh, fds, key).await?;
                            if assoc && key.is_empty() {
                                empty_key(sh, fds, &raw).await;
                                continue;
                            }
                            let val = keyed_value(sh, fds, val, assoc).await?;
                            let key = if append { format!("{APPEND_KEY}{key}") } else { key };
                            out.push((Some(key), val));
                            continue;
                        }
                        for f in expand::expand_word(sh, fds, &raw).await? {
                            out.push((None, f));
                        }
                    }
                }
            }
            AssignedValue::Array(out)
        }
    };
    Ok(Assigned { name, index, value, append: a.append })
}

/// An associative list's item whose key expands to nothing: bash names the
/// item as written and leaves it out.
async fn empty_key(sh: &ShellState, fds: &Fds, item: &str) {
    fds.shell_err(sh.loc(), &format!("{item}: bad array subscript")).await;
}

/// Marks the key of a `[k]+=v` item of a compound assignment.
const APPEND_KEY: char = '\u{2}';

/// `[key]=value` or `[key]+=value` written as one word: the key (brackets
/// balanced, so it may hold `]`), whether it appends, and the value.
fn keyed_item(raw: &str) -> Option<(&str, bool, &str)> {
    let rest = raw.strip_prefix('[')?;
    let mut depth = 1usize;
    let close = rest.char_indices().find_map(|(i, c)| {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let (key, after) = (&rest[..close], &rest[close + 1..]);
    if let Some(v) = after.strip_prefix("+=") {
        return Some((key, true, v));
    }
    after.strip_prefix('=').map(|v| (key, false, v))
}

/// Whether `name` (or what it refers to) is an associative array.
fn is_assoc(sh: &ShellState, name: &str) -> bool {
    let target = match sh.vars.resolve(name) {
        crate::state::Resolved::Name(n, _) => n,
        _ => std::borrow::Cow::Borrowed(name),
    };
    match sh.vars.get(&target) {
        Some(v) => matches!(v.value, Some(Value::Assoc(_))),
        // The alias table, an associative array bash computes.
        None => target == "BASH_ALIASES",
    }
}

/// The value text of `name=value` read from the source (the parsed value has
/// runs of spaces inside `${...}` collapsed).
fn assignment_value_text(src: &crate::state::source::Source, a: &ast::Assignment) -> Option<String> {
    let whole = src.slice(a.loc.start.index, a.loc.end.index)?;
    let eq = match &a.name {
        AssignmentName::VariableName(n) => {
            let rest = whole.strip_prefix(n.as_str())?;
            n.len() + if a.append { rest.strip_prefix("+=").map(|_| 2)? } else { rest.strip_prefix('=').map(|_| 1)? }
        }
        AssignmentName::ArrayElementName(..) => {
            let i = whole.find("]=").or_else(|| whole.find("]+="))?;
            i + if whole[i..].starts_with("]=") { 2 } else { 3 }
        }
    };
    let text = whole.get(eq..)?;
    Some(if text.contains("\\\n") { crate::state::source::strip_line_continuations(text) } else { text.to_string() })
}

/// Store an expanded assignment. `Err` is bash's message.
/// Why an assignment failed: bash's message, or a limit that ends the exec.
#[derive(Debug)]
pub enum StoreError {
    Msg(String),
    /// An arithmetic error (an integer variable's value, a subscript): bash
    /// discards the rest of the `-c` string (of the line, in a script file).
    Arith(String),
    /// A variable unset under `set -u` in such a value: it ends the shell.
    Unbound(String),
    Stop(crate::limits::Stop),
    /// A refusal bash makes without a message, ending the shell.
    Silent,
    /// A value bash ignores without a message: an assignment statement
    /// goes on as if it were made, a builtin that assigns fails (status 1).
    Refused,
}

impl StoreError {
    /// Print the message (and return `None`), or hand back the stop.
    pub async fn report(self, sh: &ShellState, fds: &Fds, prefix: &str) -> Result<(), Flow> {
        match self {
            StoreError::Msg(m) => {
                fds.shell_err(sh.loc(), &format!("{prefix}{m}")).await;
                Ok(())
            }
            StoreError::Arith(m) => {
                fds.shell_err(sh.loc(), &format!("{prefix}{m}")).await;
                Err(if sh.script_file { Flow::Abort(1) } else { Flow::Exit(1) })
            }
            StoreError::Unbound(m) => {
                Err(crate::expand::fatal(sh.loc(), fds, &m, crate::expand::fatal_status(sh)).await)
            }
            StoreError::Stop(s) => Err(Flow::Stop(s)),
            StoreError::Silent => Err(Flow::Exit(1)),
            StoreError::Refused => Ok(()),
        }
    }
}

/// Marks the inner error that is really the string limit.
const LIMIT_MARK: &str = "\0max_string_bytes:";
/// Marks an arithmetic error.
const ARITH_MARK: &str = "\0arith:";
/// Marks an unset variable under `set -u` in arithmetic.
const UNBOUND_MARK: &str = "\0unbound:";

fn arith(sh: &mut ShellState, text: &str) -> Result<i64, String> {
    use crate::expand::arith;
    arith::eval_str(sh, text, 0).map_err(|m| {
        let mark = if arith::is_unbound(&m) { UNBOUND_MARK } else { ARITH_MARK };
        format!("{mark}{}", arith::plain(&m))
    })
}

/// The end of the warning for a word without a key in a keyed associative list.
pub const UNKEYED_WARNING: &str = ": must use subscript when assigning associative array";

/// Assign a value; a value past `max_string_bytes` stops the exec.
pub fn store(sh: &mut ShellState, a: Assigned) -> Result<(), StoreError> {
    // The alias table seen as an array: what is assigned to it is defined.
    if a.name == "BASH_ALIASES" && sh.vars.get_raw("BASH_ALIASES").is_none() {
        if let Some(defined) = store_aliases(sh, &a) {
            return defined;
        }
    }
    // The call stack's arrays: bash keeps them itself (`att_noassign`). An
    // assignment to one is ignored; a list assigned to one ends the shell,
    // silently, as bash's refusal there is fatal.
    if sh.vars.computed(&a.name) {
        return match (&a.value, &a.index) {
            (AssignedValue::Array(_), None) => Err(StoreError::Silent),
            _ => Err(StoreError::Refused),
        };
    }
    let export = sh.opts.allexport && matches!(a.value, AssignedValue::Scalar(_)) && a.index.is_none();
    let name = if export { Some(a.name.clone()) } else { None };
    let r = store_inner(sh, a);
    if let (Ok(()), Some(n)) = (&r, name) {
        sh.vars.entry(&n).exported = true;
    }
    r.map_err(|m| match m.strip_prefix(LIMIT_MARK) {
        None if m.starts_with(ARITH_MARK) => StoreError::Arith(m[ARITH_MARK.len()..].to_string()),
        None if m.starts_with(UNBOUND_MARK) => StoreError::Unbound(m[UNBOUND_MARK.len()..].to_string()),
        Some(n) => StoreError::Stop(crate::limits::Budget::exceeded(
            "max_string_bytes",
            n.parse().unwrap_or(0),
            "variable size",
        )),
        None => StoreError::Msg(m),
    })
}

/// An assignment to bash's `BASH_ALIASES`, which defines aliases (any key a
/// name, `+=` appending to the alias's text, a plain value key `0`, a list
/// adding to the table); `None` for a form it does not take (a list to one
/// element), which the general store refuses.
fn store_aliases(sh: &mut ShellState, a: &Assigned) -> Option<Result<(), StoreError>> {
    let mut define = |key: &str, value: &str, append: bool| {
        let table = Arc::make_mut(&mut sh.aliases);
        let v = table.entry(key.to_string()).or_default();
        if !append {
            v.clear();
        }
        v.push_str(value);
    };
    match (&a.index, &a.value) {
        (Some(k), AssignedValue::Scalar(v)) => define(k, v, a.append),
        (None, AssignedValue::Scalar(v)) => define("0", v, a.append),
        (None, AssignedValue::Array(items)) => {
            // Words without keys pair up as keys and values, as in any
            // associative list.
            let mut pending: Option<&str> = None;
            for (k, v) in items {
                match k {
                    Some(k) => match k.strip_prefix(APPEND_KEY) {
                        Some(k) => define(k, v, true),
                        None => define(k, v, false),
                    },
                    None => match pending.take() {
                        Some(key) => define(key, v, false),
                        None => pending = Some(v),
                    },
                }
            }
            if let Some(key) = pending {
                define(key, "", false);
            }
        }
        (Some(_), AssignedValue::Array(_)) => return None,
    }
    Some(Ok(()))
}

fn store_inner(sh: &mut ShellState, mut a: Assigned) -> Result<(), String> {
    if sh.vars.has_refs() {
        match sh.vars.resolve(&a.name) {
            crate::state::Resolved::Name(n, _) => {
                if n != a.name.as_str() {
                    a.name = n.into_owned();
                }
            }
            crate::state::Resolved::Element(base, sub) => {
                // A reference to an element takes a string: an array is no
                // identifier, and `@`/`*` are no element to store into.
                if matches!(a.value, AssignedValue::Array(_)) {
                    return Err(format!("`{base}[{sub}]': not a valid identifier"));
                }
                if a.index.is_none() && (sub == "@" || sub == "*") {
                    return Err(format!("{base}[{sub}]: bad array subscript"));
                }
                if a.index.is_none() {
                    a.index = Some(sub);
                }
                a.name = base;
            }
            crate::state::Resolved::Circular(n) => return Err(format!("warning: {n}: circular name reference")),
        }
        if matches!(a.value, AssignedValue::Array(_)) && sh.vars.is_nameref(&a.name) {
            // An array assigned to a nameref without a target: it stops being one.
            sh.vars.entry_raw(&a.name).nameref = false;
            sh.vars.entry_raw(&a.name).value = None;
        }
    }
    let is_assoc = matches!(sh.vars.get(&a.name).and_then(|v| v.value.as_ref()), Some(Value::Assoc(_)));
    let integer = sh.vars.get(&a.name).is_some_and(|v| v.integer);
    let case = sh.vars.get(&a.name).and_then(|v| v.case);
    let cased = |s: String| match case {
        Some(c) => c.apply(s),
        None => s,
    };
    if sh.vars.get(&a.name).is_some_and(|v| v.readonly) || sh.is_computed_readonly(&a.name) {
        return Err(format!("{}: readonly variable", a.name));
    }
    let limit = sh.budget.limits.max_string_bytes;
    match (a.index, a.value) {
        // `x+=s` on a plain string grows it in place (a copy per append would
        // make building a string in a loop quadratic).
        (None, AssignedValue::Scalar(s))
            if a.append && !integer && case.is_none() && scalar_len(sh, &a.name).is_some() =>
        {
            let len = scalar_len(sh, &a.name).unwrap_or(0);
            if (len + s.len()) as u64 > limit {
                return Err(format!("{LIMIT_MARK}{limit}"));
            }
            let allexport = sh.opts.allexport;
            let var = sh.vars.entry(&a.name);
            if let Some(Value::Scalar(cur)) = &mut var.value {
                cur.push_str(&s);
            }
            if allexport {
                var.exported = true;
            }
            Ok(())
        }
        (None, AssignedValue::Scalar(s)) => {
            let s = if integer { arith(sh, &s)?.to_string() } else { s };
            let new = if a.append {
                if integer {
                    let cur = sh.get_var(&a.name).and_then(|c| c.parse::<i64>().ok()).unwrap_or(0);
                    (cur + s.parse::<i64>().unwrap_or(0)).to_string()
                } else {
                    let mut cur = sh.get_var(&a.name).unwrap_or_default();
                    cur.push_str(&s);
                    cur
                }
            } else {
                s
            };
            if new.len() as u64 > limit {
                return Err(format!("{LIMIT_MARK}{limit}"));
            }
            sh.set_var(&a.name, new)
        }
        // Elements are changed in place: copying the whole array for each
        // element would make filling an array quadratic.
        (Some(idx), AssignedValue::Scalar(s)) => {
            // An integer array evaluates each element (`a[1]+=2` adds).
            let s = if integer {
                let n = arith(sh, &s)?;
                let cur = if a.append { element_number(sh, &a.name, &idx, is_assoc)? } else { 0 };
                a.append = false;
                (cur + n).to_string()
            } else {
                s
            };
            if is_assoc {
                let var = sh.vars.entry(&a.name);
                if let Some(Value::Assoc(m)) = &mut var.value {
                    let entry = m.value_mut(idx);
                    if a.append {
                        if (entry.len() + s.len()) as u64 > limit {
                            return Err(format!("{LIMIT_MARK}{limit}"));
                        }
                        entry.push_str(&s);
                        // `-u`/`-l` apply to the whole new value.
                        if case.is_some() {
                            *entry = cased(std::mem::take(entry));
                        }
                    } else {
                        *entry = cased(s);
                    }
                }
                return Ok(());
            }
            // The subscript first: it may read this very array (`a[a[0]]=x`).
            let mut i = arith(sh, &idx)?;
            if i < 0 {
                let len = match sh.vars.get(&a.name).and_then(|v| v.value.as_ref()) {
                    Some(Value::Indexed(m)) => m.keys().next_back().map_or(0, |k| k + 1),
                    Some(Value::Scalar(_)) => 1,
                    _ => 0,
                };
                i += len;
                if i < 0 {
                    return Err(format!("{}[{idx}]: bad array subscript", a.name));
                }
            }
            let var = sh.vars.entry(&a.name);
            let mut m = match var.value.take() {
                Some(Value::Indexed(m)) => m,
                Some(Value::Scalar(v)) => BTreeMap::from([(0, v)]),
                _ => BTreeMap::new(),
            };
            let entry = m.entry(i).or_default();
            let too_long = a.append && (entry.len() + s.len()) as u64 > limit;
            if !too_long {
                if a.append {
                    entry.push_str(&s);
                    if case.is_some() {
                        *entry = cased(std::mem::take(entry));
                    }
                } else {
                    *entry = cased(s);
                }
            }
            var.value = Some(Value::Indexed(m));
            if too_long {
                return Err(format!("{LIMIT_MARK}{limit}"));
            }
            Ok(())
        }
        (Some(idx), AssignedValue::Array(_)) => Err(format!("{}[{idx}]: cannot assign list to array member", a.name)),
        (_, AssignedValue::Array(items)) => {
            let items = if integer {
                let mut out = Vec::with_capacity(items.len());
                for (k, v) in items {
                    // An associative list without keys pairs its words: only values count.
                    let n = arith(sh, &v)?;
                    out.push((k, n.to_string()));
                }
                out
            } else {
                items
            };
            if is_assoc {
                let mut m = match (a.append, take_value(sh, &a.name, a.append)) {
                    (true, Some(Value::Assoc(m))) => m,
                    _ => crate::state::assoc::AssocMap::new(),
                };
                let mut pending_key: Option<String> = None;
                // A list that starts with `[k]=v` is keyed: a word without a
                // key is refused with a warning (bash 5.2); else words pair up.
                let keyed = items.first().is_some_and(|(k, _)| k.is_some());
                for (k, v) in items {
                    if keyed && k.is_none() {
                        sh.arith_warnings.push(format!("{}: {v}{UNKEYED_WARNING}", a.name));
                        continue;
                    }
                    match (k, pending_key.take()) {
                        // bash 5.2 appends an associative `[k]+=v` only when the
                        // whole list is appended (`A+=(...)`); else it is `[k]=v`.
                        (Some(k), _) if k.starts_with(APPEND_KEY) => {
                            let k = k[APPEND_KEY.len_utf8()..].to_string();
                            let v = match m.get(&k) {
                                Some(cur) if a.append => format!("{cur}{v}"),
                                _ => v,
                            };
                            m.insert(k, cased(v));
                        }
                        (Some(k), _) => {
                            m.insert(k, cased(v));
                        }
                        (None, Some(k)) => {
                            m.insert(k, cased(v));
                        }
                        (None, None) => pending_key = Some(v),
                    }
                }
                if let Some(k) = pending_key {
                    m.insert(k, String::new());
                }
                sh.vars.set_value(&a.name, Value::Assoc(m))
            } else {
                // Taken rather than copied, unless a subscript in the list may read it.
                let keyed = items.iter().any(|(k, _)| k.is_some());
                let current = if keyed {
                    sh.vars.get(&a.name).and_then(|v| v.value.clone())
                } else {
                    take_value(sh, &a.name, a.append)
                };
                let mut m = match (a.append, current) {
                    (true, Some(Value::Indexed(m))) => m,
                    (true, Some(Value::Scalar(s))) => BTreeMap::from([(0, s)]),
                    _ => BTreeMap::new(),
                };
                let mut next = m.keys().next_back().map_or(0, |k| k + 1);
                for (k, v) in items {
                    let (i, append) = match k {
                        Some(k) => {
                            let (k, append) = match k.strip_prefix(APPEND_KEY) {
                                Some(k) => (k.to_string(), true),
                                None => (k, false),
                            };
                            // A key that reads the array sees the items before
                            // it (`b=([0]=5 [b[0]]=x)`): lent to the variable.
                            let i = if k.contains(a.name.as_str()) {
                                let _ = sh.vars.set_value(&a.name, Value::Indexed(std::mem::take(&mut m)));
                                let i = arith(sh, &k);
                                if let Some(Value::Indexed(back)) = sh.vars.entry(&a.name).value.take() {
                                    m = back;
                                }
                                i?
                            } else {
                                arith(sh, &k)?
                            };
                            // A negative key counts back from the end of the
                            // items so far; one before the start is skipped.
                            let i = if i < 0 {
                                match m.keys().next_back().map(|last| last + 1 + i).filter(|j| *j >= 0) {
                                    Some(j) => j,
                                    None => {
                                        let op = if append { "+=" } else { "=" };
                                        sh.arith_warnings.push(format!("[{k}]{op}{v}: bad array subscript"));
                                        continue;
                                    }
                                }
                            } else {
                                i
                            };
                            (i, append)
                        }
                        None => (next, false),
                    };
                    let v = match m.get(&i) {
                        Some(cur) if append => format!("{cur}{v}"),
                        _ => v,
                    };
                    m.insert(i, cased(v));
                    next = i + 1;
                }
                sh.vars.set_value(&a.name, Value::Indexed(m))
            }
        }
    }
}

/// The number in element `idx` of `name` (0 when unset or not a number).
fn element_number(sh: &mut ShellState, name: &str, idx: &str, assoc: bool) -> Result<i64, String> {
    let i = if assoc { 0 } else { arith(sh, idx)? };
    let cur = match sh.vars.get(name).and_then(|v| v.value.as_ref()) {
        Some(Value::Assoc(m)) if assoc => m.get(idx).cloned(),
        Some(Value::Indexed(m)) if !assoc => m.get(&i).cloned(),
        Some(Value::Scalar(s)) if !assoc && i == 0 => Some(s.clone()),
        _ => None,
    };
    Ok(cur.and_then(|c| c.trim().parse().ok()).unwrap_or(0))
}

/// The length of `name` when it holds a plain string.
fn scalar_len(sh: &ShellState, name: &str) -> Option<usize> {
    match sh.vars.get(name)?.value.as_ref()? {
        Value::Scalar(s) => Some(s.len()),
        _ => None,
    }
}

/// The value of `name`, moved out (to be changed and stored back) when
/// `take`, else nothing: a whole assignment replaces it anyway.
fn take_value(sh: &mut ShellState, name: &str, take: bool) -> Option<Value> {
    if !take || sh.vars.get(name).is_none() {
        return None;
    }
    sh.vars.entry(name).value.take()
}

/// Quote an argument the way `set -x` shows it.
/// `set -x` for an assignment-only command: `+ name=value`, as bash shows it.
async fn trace_assignment(sh: &ShellState, fds: &Fds, v: &Assigned) {
    let ps4 = sh.xtrace_prefix();
    let op = if v.append { "+=" } else { "=" };
    let index = v.index.as_ref().map(|i| format!("[{i}]")).unwrap_or_default();
    let value = match &v.value {
        // An empty value shows as nothing at all (`+ c=`).
        AssignedValue::Scalar(s) if s.is_empty() => String::new(),
        AssignedValue::Scalar(s) => xtrace_quote(s),
        AssignedValue::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|(k, val)| match k {
                    Some(k) => format!("[{k}]={}", xtrace_quote(val)),
                    None => xtrace_quote(val),
                })
                .collect();
            format!("({})", parts.join(" "))
        }
    };
    let _ = xtrace_out(sh, fds).write_str(&format!("{ps4}{}{index}{op}{value}\n", v.name)).await;
}

/// `set -x`: one line of trace (PS4, then `text`) when xtrace is on.
pub async fn xtrace(sh: &ShellState, fds: &Fds, text: &str) {
    if sh.opts.xtrace {
        let line = format!("{}{text}\n", sh.xtrace_prefix());
        let _ = xtrace_out(sh, fds).write_str(&line).await;
    }
}

/// Where `set -x` writes: the descriptor `BASH_XTRACEFD` names, else stderr.
pub(crate) fn xtrace_out<'a>(sh: &ShellState, fds: &'a Fds) -> &'a crate::io::Output {
    match sh.get_var("BASH_XTRACEFD").and_then(|v| v.trim().parse::<i32>().ok()) {
        Some(1) => &fds.stdout,
        Some(n) if n > 2 => fds.extra.get(&n).and_then(super::Slot::output).unwrap_or(&fds.stderr),
        _ => &fds.stderr,
    }
}

fn xtrace_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c)) {
        s.to_string()
    } else if s.chars().any(|c| !matches!(c, '\t' | '\n') && crate::raw_bytes::wants_ansi_quotes(c)) {
        // bash's ansic_shouldquote: tabs and newlines stay inside single quotes.
        expand::param::quote_if_needed(s)
    } else {
        expand::param::quote(s)
    }
}
