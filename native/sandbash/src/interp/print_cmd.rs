//! Functions printed as bash prints them (`declare -f`, `type`): bash does not
//! keep a function's text, it re-prints the body from its parse tree
//! (bash's print_cmd.c). This walks brush-parser's AST the same way, with the
//! same quirks: `;` at the end of each list element, 4-space indentation,
//! `elif` as an `if` nested in `else`, here-document bodies after the line
//! that opens them, redirections after the words.
//!
//! bash's lists are left-deep trees of connections (`a; b; c` is
//! `(a ; b) ; c`) and its printer's state (pending indentation, here-docs
//! waiting for the connector) follows that shape, so [`Node`] presents
//! brush's flat lists as that tree.

use crate::state::source::Source;
use brush_parser::ast;

const INDENT: usize = 4;
/// Stack to keep free before printing one level deeper, and the segment added when short.
const RED_ZONE: usize = 64 * 1024;
const SEGMENT: usize = 1024 * 1024;

/// `NAME () \n{ \n    BODY\n}` for the definition of `name`.
pub fn function_text(src: &Source, name: &str, body: &ast::FunctionBody) -> String {
    let mut p = Printer::new(src);
    if crate::builtins::KEYWORDS.contains(&name) {
        p.put("function ");
    }
    p.put(name);
    p.put(" () \n");
    p.indentation = INDENT;
    p.inside_function_def += 1;
    p.put("{ \n");
    let redirects = p.body(body);
    p.indentation = 0;
    p.inside_function_def -= 1;
    p.close_body(redirects);
    p.out
}

/// A command on one line as bash shows it outside a function (`jobs`):
/// `;` and a space between commands, but loops still span lines.
pub fn command_text(src: &Source, list: &ast::AndOrList) -> String {
    let mut p = Printer::new(src);
    p.make(Some(Node::AndOr(list, 1 + list.additional.len())));
    p.flush_deferred("");
    p.out
}

/// One command on one line, as `BASH_COMMAND` shows it.
pub fn one_command_text(src: &Source, cmd: &ast::Command) -> String {
    let mut p = Printer::new(src);
    p.make(Some(Node::Command(cmd)));
    p.flush_deferred("");
    p.out
}

/// A simple command as `BASH_COMMAND` shows it (words as written, one blank
/// between them, `2> file` redirections).
pub fn simple_text(src: &Source, cmd: &ast::SimpleCommand) -> String {
    one_command_text(src, &ast::Command::Simple(cmd.clone()))
}

/// `coproc NAME COMMAND` as bash shows it.
pub fn coproc_text(src: &Source, name: &str, body: &ast::Command) -> String {
    let mut p = Printer::new(src);
    p.put(&format!("coproc {name} "));
    p.skip_this_indent += 1;
    p.make(Some(Node::Command(body)));
    p.flush_deferred("");
    p.out
}

/// One node of bash's command tree: brush's lists, and-or lists and pipelines
/// seen as the left-deep connections bash builds from them.
#[derive(Clone, Copy)]
enum Node<'a> {
    /// Items of a compound list; `true`: a `&` after the last one is part of
    /// the list (`false`: it is the connector to what follows).
    List(&'a [ast::CompoundListItem], bool),
    /// The first `n` pipelines of an and-or list.
    AndOr(&'a ast::AndOrList, usize),
    /// The first `n` stages of a pipeline (its `time`/`!` belong to the whole).
    Pipe(&'a ast::Pipeline, usize),
    Command(&'a ast::Command),
    Compound(&'a ast::CompoundCommand, Option<&'a ast::RedirectList>),
    /// `elif` clauses: bash keeps them as an `if` inside the `else`.
    Elif(&'a [ast::ElseClause]),
}

enum Connector {
    Seq,
    Async,
    Pipe,
    And,
    Or,
}

/// What a node is once its list structure is unfolded.
enum Shape<'a> {
    Connection(Node<'a>, Connector, Option<Node<'a>>),
    Command(&'a ast::Command),
    Compound(&'a ast::CompoundCommand, Option<&'a ast::RedirectList>),
    Elif(&'a ast::ElseClause, &'a [ast::ElseClause]),
    Empty,
}

/// A redirection ready to print; a here-document's body is printed apart.
enum Redir {
    Plain(String),
    HereDoc { header: String, body: String },
}

struct Printer<'s> {
    src: &'s Source,
    out: String,
    indentation: usize,
    skip_this_indent: usize,
    inside_function_def: usize,
    was_heredoc: bool,
    printing_connection: usize,
    deferred_heredocs: Vec<String>,
    /// Printing a command substitution's text, as bash's parser re-prints
    /// it (`print_comsub`): newlines between commands are kept.
    printing_comsub: bool,
}

impl<'s> Printer<'s> {
    fn new(src: &'s Source) -> Self {
        Printer {
            src,
            out: String::new(),
            indentation: 0,
            skip_this_indent: 0,
            inside_function_def: 0,
            was_heredoc: false,
            printing_connection: 0,
            deferred_heredocs: Vec::new(),
            printing_comsub: false,
        }
    }

    fn put(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn indent(&mut self) {
        let n = self.indentation;
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    fn newline(&mut self, s: &str) {
        self.put("\n");
        self.indent();
        self.put(s);
    }

    /// `;` unless the text already ends a command (`&` or a newline).
    fn semicolon(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with(['&', '\n']) {
            self.put(";");
        }
    }

    /// A function's body inside its braces; returns the redirections that
    /// follow the closing brace.
    fn body<'a>(&mut self, body: &'a ast::FunctionBody) -> Option<&'a ast::RedirectList> {
        let redirects = match &body.0 {
            ast::CompoundCommand::BraceGroup(g) => {
                self.make(Some(list(&g.list)));
                body.1.as_ref()
            }
            c => {
                self.make(Some(Node::Compound(c, body.1.as_ref())));
                None
            }
        };
        self.flush_deferred("");
        redirects
    }

    fn close_body(&mut self, redirects: Option<&ast::RedirectList>) {
        match redirects {
            Some(r) => {
                self.newline("} ");
                self.redirection_list(&r.0);
            }
            None => self.newline("}"),
        }
    }

    /// bash's make_command_string_internal.
    fn make(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        stacker::maybe_grow(RED_ZONE, SEGMENT, || self.make_node(node));
    }

    fn make_node(&mut self, node: Node<'_>) {
        if self.skip_this_indent > 0 {
            self.skip_this_indent -= 1;
        } else {
            self.indent();
        }
        let (pipeline, shape) = unfold(node);
        if let Some(p) = pipeline {
            match &p.timed {
                Some(ast::PipelineTimed::Timed(_)) => self.put("time "),
                Some(ast::PipelineTimed::TimedWithPosixOutput(_)) => self.put("time -p "),
                None => {}
            }
            if p.bang {
                self.put("! ");
            }
        }
        match shape {
            Shape::Connection(first, op, second) => self.connection(first, op, second),
            Shape::Command(c) => self.command(c),
            Shape::Compound(c, r) => {
                self.compound(c);
                if let Some(r) = r {
                    self.put(" ");
                    self.redirection_list(&r.0);
                }
            }
            Shape::Empty => {}
            Shape::Elif(clause, rest) => {
                if let Some(cond) = &clause.condition {
                    self.if_command(list(cond), list(&clause.body), else_part(rest));
                }
            }
        }
    }

    fn connection(&mut self, first: Node<'_>, op: Connector, second: Option<Node<'_>>) {
        self.skip_this_indent += 1;
        self.printing_connection += 1;
        self.make(Some(first));
        match op {
            Connector::Async | Connector::Pipe => {
                let async_ = matches!(op, Connector::Async);
                self.flush_deferred(if async_ { " &" } else { " |" });
                if !async_ || second.is_some() {
                    self.put(" ");
                    self.skip_this_indent += 1;
                }
            }
            Connector::And | Connector::Or => {
                self.flush_deferred(if matches!(op, Connector::And) { " && " } else { " || " });
                if second.is_some() {
                    self.skip_this_indent += 1;
                }
            }
            Connector::Seq if self.printing_comsub && self.deferred_heredocs.is_empty() && !self.was_heredoc => {
                // A newline between the two commands stays one; `;` is `; `.
                if newline_between(self.src, &first, second.as_ref()) {
                    self.put("\n");
                } else {
                    self.put("; ");
                }
                if second.is_some() {
                    self.skip_this_indent += 1;
                }
            }
            Connector::Seq => {
                if self.deferred_heredocs.is_empty() {
                    if !self.was_heredoc {
                        self.put(";");
                    } else {
                        self.was_heredoc = false;
                    }
                } else {
                    self.flush_deferred(if self.inside_function_def > 0 { "" } else { ";" });
                }
                if self.inside_function_def > 0 {
                    self.put("\n");
                } else {
                    self.put(" ");
                    if second.is_some() {
                        self.skip_this_indent += 1;
                    }
                }
            }
        }
        self.make(second);
        if !self.deferred_heredocs.is_empty() {
            self.flush_deferred("");
        }
        self.printing_connection -= 1;
    }

    fn command(&mut self, c: &ast::Command) {
        match c {
            ast::Command::Simple(s) => self.simple(s),
            ast::Command::Compound(c, r) => {
                self.compound(c);
                if let Some(r) = r {
                    self.put(" ");
                    self.redirection_list(&r.0);
                }
            }
            ast::Command::Function(def) => self.function_def(def),
            ast::Command::ExtendedTest(t, r) => {
                self.put("[[ ");
                self.cond(&t.expr);
                self.put(" ]]");
                if let Some(r) = r {
                    self.put(" ");
                    self.redirection_list(&r.0);
                }
            }
        }
    }

    /// A function defined inside a function: `function NAME () ` and the body
    /// at the current indentation.
    fn function_def(&mut self, def: &ast::FunctionDefinition) {
        self.put("function ");
        self.put(&def.fname.value);
        self.put(" () \n");
        self.indent();
        self.put("{ \n");
        self.inside_function_def += 1;
        self.indentation += INDENT;
        let redirects = self.body(&def.body);
        self.indentation -= INDENT;
        self.inside_function_def -= 1;
        self.close_body(redirects);
    }

    fn simple(&mut self, s: &ast::SimpleCommand) {
        let mut words: Vec<String> = Vec::new();
        let mut redirs: Vec<Redir> = Vec::new();
        let items = s.prefix.iter().flat_map(|p| p.0.iter()).map(Some);
        let name = s.word_or_name.as_ref().map(|w| ast::CommandPrefixOrSuffixItem::Word(w.clone()));
        let items: Vec<&ast::CommandPrefixOrSuffixItem> = items
            .chain(std::iter::once(name.as_ref()))
            .chain(s.suffix.iter().flat_map(|p| p.0.iter()).map(Some))
            .flatten()
            .collect();
        let mut named_fd: Option<String> = None;
        for (i, item) in items.iter().enumerate() {
            match item {
                ast::CommandPrefixOrSuffixItem::Word(w) => {
                    let next_is_redirect =
                        matches!(items.get(i + 1), Some(ast::CommandPrefixOrSuffixItem::IoRedirect(_)));
                    if next_is_redirect && self.names_fd(w) {
                        named_fd = Some(w.value.clone());
                    } else {
                        words.push(self.word(w));
                    }
                }
                ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) => words.push(self.word(w)),
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => words.push(self.procsub(kind, sub)),
                ast::CommandPrefixOrSuffixItem::IoRedirect(r) => redirs.push(self.redirect(r, named_fd.take())),
            }
        }
        self.put(&words.join(" "));
        if !redirs.is_empty() {
            if !words.is_empty() {
                self.put(" ");
            }
            self.print_redirs(redirs);
        }
    }

    /// A word as bash keeps it: as written, except that `$'...'` is already
    /// decoded (and single-quoted) and `$"..."` is plain `"..."`.
    fn word(&self, w: &ast::Word) -> String {
        let text = self.src.word(w);
        let text =
            if text.contains("$'") || text.contains("$\"") { ansi_c_to_single(&text) } else { text.into_owned() };
        if text.contains("$(") {
            reprint_substitutions(&text).unwrap_or(text)
        } else {
            text
        }
    }

    /// A `{name}` word written right before a redirection names its descriptor.
    fn names_fd(&self, w: &ast::Word) -> bool {
        let v = &w.value;
        v.len() > 2
            && v.starts_with('{')
            && v.ends_with('}')
            && super::simple::fd_var_name(&v[1..v.len() - 1])
            && w.loc
                .as_ref()
                .is_some_and(|l| self.src.slice(l.end.index, l.end.index + 1).is_some_and(|c| c == ">" || c == "<"))
    }

    fn procsub(&self, kind: &ast::ProcessSubstitutionKind, sub: &ast::SubshellCommand) -> String {
        let k = match kind {
            ast::ProcessSubstitutionKind::Read => "<",
            ast::ProcessSubstitutionKind::Write => ">",
        };
        match self.src.slice(sub.loc.start.index, sub.loc.end.index) {
            Some(t) if t.starts_with('(') && t.ends_with(')') => format!("{k}{t}"),
            _ => format!("{k}({})", sub.list),
        }
    }

    fn redirection_list(&mut self, rs: &[ast::IoRedirect]) {
        let redirs = rs.iter().map(|r| self.redirect(r, None)).collect();
        self.print_redirs(redirs);
    }

    /// bash's print_redirection_list: here-document headers in place, their
    /// bodies after the connector that follows (or right away).
    fn print_redirs(&mut self, redirs: Vec<Redir>) {
        let mut heredocs = Vec::new();
        self.was_heredoc = false;
        let n = redirs.len();
        for (i, r) in redirs.into_iter().enumerate() {
            match r {
                Redir::Plain(s) => self.put(&s),
                Redir::HereDoc { header, body } => {
                    self.put(&header);
                    heredocs.push(body);
                }
            }
            if i + 1 < n {
                self.put(" ");
            }
        }
        if heredocs.is_empty() {
            return;
        }
        if self.printing_connection > 0 {
            self.deferred_heredocs.extend(heredocs);
        } else {
            self.heredoc_bodies(heredocs);
        }
    }

    fn heredoc_bodies(&mut self, bodies: Vec<String>) {
        self.put("\n");
        for b in bodies {
            self.put(&b);
            self.put("\n");
        }
        self.was_heredoc = true;
    }

    /// bash's print_deferred_heredocs: the connector, then pending bodies.
    fn flush_deferred(&mut self, connector: &str) {
        let shown = !connector.is_empty() && connector != ";";
        if shown {
            self.put(connector);
        }
        if !self.deferred_heredocs.is_empty() {
            let bodies = std::mem::take(&mut self.deferred_heredocs);
            self.heredoc_bodies(bodies);
            if shown {
                self.put(" ");
            }
            self.was_heredoc = true;
        }
    }

    fn redirect(&self, r: &ast::IoRedirect, named: Option<String>) -> Redir {
        use ast::IoFileRedirectKind as K;
        let fd = |n: Option<i32>, default: i32| match (&named, n) {
            (Some(name), _) => name.clone(),
            (None, Some(n)) if n != default => n.to_string(),
            _ => String::new(),
        };
        let text = match r {
            ast::IoRedirect::File(n, kind, target) => {
                let target_text = match target {
                    ast::IoFileRedirectTarget::Filename(w) | ast::IoFileRedirectTarget::Duplicate(w) => self.word(w),
                    ast::IoFileRedirectTarget::Fd(f) => f.to_string(),
                    ast::IoFileRedirectTarget::ProcessSubstitution(k, sub) => self.procsub(k, sub),
                };
                match kind {
                    K::Read => format!("{}< {target_text}", fd(*n, 0)),
                    K::Write => format!("{}> {target_text}", fd(*n, 1)),
                    K::Append => format!("{}>> {target_text}", fd(*n, 1)),
                    K::ReadAndWrite => format!("{}<> {target_text}", fd(*n, 1)),
                    K::Clobber => format!("{}>| {target_text}", fd(*n, 1)),
                    K::DuplicateInput | K::DuplicateOutput => {
                        let (op, default) = if matches!(kind, K::DuplicateInput) { ("<&", 0) } else { (">&", 1) };
                        // A number (or `-`) as target: bash always shows the descriptor.
                        let numeric = target_text == "-"
                            || target_text.trim_end_matches('-').bytes().all(|b| b.is_ascii_digit())
                                && !target_text.is_empty();
                        let lead =
                            if numeric && named.is_none() { n.unwrap_or(default).to_string() } else { fd(*n, default) };
                        format!("{lead}{op}{target_text}")
                    }
                }
            }
            ast::IoRedirect::OutputAndError(w, append) => {
                format!("&>{} {}", if *append { ">" } else { "" }, self.word(w))
            }
            ast::IoRedirect::HereString(n, w) => format!("{}<<< {}", fd(*n, 0), self.word(w)),
            ast::IoRedirect::HereDocument(n, h) => {
                let tag = &h.here_end.value;
                let quoted = tag.contains(['\'', '"', '\\']);
                let eof = if quoted { unquote(tag) } else { tag.clone() };
                let shown = if quoted { crate::expand::param::quote(&eof) } else { eof.clone() };
                let dash = if h.remove_tabs { "-" } else { "" };
                let header = format!("{}<<{dash}{shown}", fd(*n, 0));
                return Redir::HereDoc { header, body: format!("{}{eof}", h.doc.value) };
            }
        };
        Redir::Plain(text)
    }

    fn compound(&mut self, c: &ast::CompoundCommand) {
        use ast::CompoundCommand as C;
        match c {
            C::Arithmetic(a) => {
                // brush trims the expression; bash prints it as written.
                match self.src.slice(a.loc.start.index, a.loc.end.index) {
                    Some(t) if t.starts_with("((") && t.ends_with("))") => self.put(t),
                    _ => self.put(&format!("(({}))", a.expr.value)),
                }
            }
            C::ArithmeticForClause(f) => {
                // bash drops the blanks before each part and reads an empty one as `1`.
                let written = self.src.slice(f.loc.start.index, f.loc.end.index).and_then(arith_for_parts);
                let parts = written.unwrap_or_else(|| {
                    [&f.initializer, &f.condition, &f.updater]
                        .map(|e| e.as_ref().map(|e| e.value.clone()).unwrap_or_default())
                });
                let [i, t, u] = parts.map(|p| match p.trim_start() {
                    "" => "1".to_string(),
                    v => v.to_string(),
                });
                self.put(&format!("for (({i}; {t}; {u}))"));
                self.newline("do\n");
                self.loop_body(&f.body.list);
            }
            C::BraceGroup(g) => {
                self.put("{ ");
                if self.inside_function_def == 0 {
                    self.skip_this_indent += 1;
                } else {
                    self.put("\n");
                    self.indentation += INDENT;
                }
                self.make(Some(list(&g.list)));
                self.flush_deferred("");
                if self.inside_function_def > 0 {
                    self.put("\n");
                    self.indentation -= INDENT;
                    self.indent();
                } else {
                    self.semicolon();
                    self.put(" ");
                }
                self.put("}");
            }
            C::Subshell(s) => {
                self.put("( ");
                self.skip_this_indent += 1;
                self.make(Some(list(&s.list)));
                self.flush_deferred("");
                self.put(" )");
            }
            C::ForClause(f) => {
                let words = match &f.values {
                    Some(ws) => ws.iter().map(|w| self.word(w)).collect::<Vec<_>>().join(" "),
                    None => "\"$@\"".to_string(),
                };
                self.put(&format!("for {} in {words};", f.variable_name));
                self.newline("do\n");
                self.loop_body(&f.body.list);
            }
            C::CaseClause(c) => {
                self.put(&format!("case {} in ", self.word(&c.value)));
                if !c.cases.is_empty() {
                    self.indentation += INDENT;
                    for item in &c.cases {
                        self.newline("");
                        let pats: Vec<String> = item.patterns.iter().map(|w| self.word(w)).collect();
                        self.put(&pats.join(" | "));
                        self.put(")\n");
                        self.indentation += INDENT;
                        self.make(item.cmd.as_ref().and_then(non_empty));
                        self.indentation -= INDENT;
                        self.flush_deferred("");
                        self.newline(match item.post_action {
                            ast::CaseItemPostAction::ExitCase => ";;",
                            ast::CaseItemPostAction::UnconditionallyExecuteNextCaseItem => ";&",
                            ast::CaseItemPostAction::ContinueEvaluatingCases => ";;&",
                        });
                    }
                    self.indentation -= INDENT;
                }
                self.newline("esac");
            }
            C::IfClause(i) => {
                self.if_command(list(&i.condition), list(&i.then), else_part(i.elses.as_deref().unwrap_or_default()));
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                if let Some((name, words)) = select_header(self.src, &w.0) {
                    self.put(&format!("select {name} in {words};"));
                    self.newline("do\n");
                    self.loop_body(&w.1.list);
                    return;
                }
                self.put(if matches!(c, C::WhileClause(_)) { "while " } else { "until " });
                self.skip_this_indent += 1;
                self.make(Some(list(&w.0)));
                self.flush_deferred("");
                self.semicolon();
                self.put(" do\n");
                self.indentation += INDENT;
                self.make(non_empty(&w.1.list));
                self.flush_deferred("");
                self.indentation -= INDENT;
                self.semicolon();
                self.newline("done");
            }
            C::Coprocess(c) => {
                let name = c.name.as_ref().map_or("COPROC", |w| w.value.as_str());
                self.put(&format!("coproc {name} "));
                self.skip_this_indent += 1;
                self.make(Some(Node::Command(&c.body)));
            }
        }
    }

    /// The `do ... done` of `for`, `for ((;;))` and `select`.
    fn loop_body(&mut self, body: &ast::CompoundList) {
        self.indentation += INDENT;
        self.make(non_empty(body));
        self.flush_deferred("");
        self.semicolon();
        self.indentation -= INDENT;
        self.newline("done");
    }

    fn if_command(&mut self, test: Node<'_>, then: Node<'_>, else_part: Option<Node<'_>>) {
        self.put("if ");
        self.skip_this_indent += 1;
        self.make(Some(test));
        self.semicolon();
        self.put(" then\n");
        self.indentation += INDENT;
        self.make(Some(then));
        self.flush_deferred("");
        self.indentation -= INDENT;
        if else_part.is_some() {
            self.semicolon();
            self.newline("else\n");
            self.indentation += INDENT;
            self.make(else_part);
            self.flush_deferred("");
            self.indentation -= INDENT;
        }
        self.semicolon();
        self.newline("fi");
    }

    /// bash's print_cond_node; operators are taken from the source when it
    /// has them (brush reads `=` as `==`).
    fn cond(&mut self, e: &ast::ExtendedTestExpr) {
        use ast::ExtendedTestExpr as E;
        match e {
            E::And(l, r) | E::Or(l, r) => {
                self.cond(l);
                self.put(if matches!(e, E::And(..)) { " && " } else { " || " });
                self.cond(r);
            }
            E::Not(x) => {
                self.put("! ");
                self.cond(x);
            }
            E::Parenthesized(x) => {
                self.put("( ");
                self.cond(x);
                self.put(" )");
            }
            E::UnaryTest(op, w) => {
                self.put(&format!("{op} {}", self.word(w)));
            }
            E::BinaryTest(op, l, r) => {
                let written = match (&l.loc, &r.loc) {
                    (Some(a), Some(b)) => self.src.slice(a.end.index, b.start.index).map(str::trim),
                    _ => None,
                };
                let op = match written {
                    Some(s) if !s.is_empty() && !s.contains(char::is_whitespace) => s.to_string(),
                    _ => op.to_string(),
                };
                self.put(&format!("{} {op} {}", self.word(l), self.word(r)));
            }
        }
    }
}

fn list(l: &ast::CompoundList) -> Node<'_> {
    Node::List(&l.0, true)
}

/// What follows `else`: the `else` body, or the next `elif` as an `if`.
fn else_part(rest: &[ast::ElseClause]) -> Option<Node<'_>> {
    match rest.first() {
        None => None,
        Some(e) if e.condition.is_none() => non_empty(&e.body),
        Some(_) => Some(Node::Elif(rest)),
    }
}

/// An empty list (`a) ;;`) prints as nothing at all, indentation included.
fn non_empty(l: &ast::CompoundList) -> Option<Node<'_>> {
    (!l.0.is_empty()).then(|| list(l))
}

/// Unfold a node to a connection or a command; the pipeline returned carries
/// the `time` / `!` of the node.
fn unfold(mut node: Node<'_>) -> (Option<&ast::Pipeline>, Shape<'_>) {
    loop {
        node = match node {
            Node::List(items, true) if items.last().is_some_and(|i| matches!(i.1, ast::SeparatorOperator::Async)) => {
                return (None, Shape::Connection(Node::List(items, false), Connector::Async, None));
            }
            Node::List(items, _) => match items {
                [] => return (None, Shape::Empty),
                [only] => Node::AndOr(&only.0, 1 + only.0.additional.len()),
                [init @ .., last] => {
                    let op = match init.last().map(|i| &i.1) {
                        Some(ast::SeparatorOperator::Async) => Connector::Async,
                        _ => Connector::Seq,
                    };
                    let second = Node::AndOr(&last.0, 1 + last.0.additional.len());
                    return (None, Shape::Connection(Node::List(init, false), op, Some(second)));
                }
            },
            Node::AndOr(a, n) if n <= 1 => Node::Pipe(&a.first, a.first.seq.len()),
            Node::AndOr(a, n) => {
                let (op, p) = match a.additional.get(n - 2) {
                    Some(ast::AndOr::And(p)) => (Connector::And, p),
                    Some(ast::AndOr::Or(p)) => (Connector::Or, p),
                    None => return (None, Shape::Empty),
                };
                return (None, Shape::Connection(Node::AndOr(a, n - 1), op, Some(Node::Pipe(p, p.seq.len()))));
            }
            Node::Pipe(p, n) => {
                // `time` and `!` belong to the whole pipeline, not to its first stages.
                let flags = (n == p.seq.len()).then_some(p);
                return match (n, p.seq.get(n.saturating_sub(1))) {
                    (_, None) => (flags, Shape::Empty),
                    (1, Some(c)) => (flags, Shape::Command(c)),
                    (_, Some(c)) => {
                        (flags, Shape::Connection(Node::Pipe(p, n - 1), Connector::Pipe, Some(Node::Command(c))))
                    }
                };
            }
            Node::Command(c) => return (None, Shape::Command(c)),
            Node::Compound(c, r) => return (None, Shape::Compound(c, r)),
            Node::Elif(clauses) => match clauses {
                [first, rest @ ..] => return (None, Shape::Elif(first, rest)),
                [] => return (None, Shape::Empty),
            },
        };
    }
}

/// Whether the text between the commands of a sequence is a newline (not `;`).
fn newline_between(src: &Source, first: &Node<'_>, second: Option<&Node<'_>>) -> bool {
    use brush_parser::ast::SourceLocation;
    let end = match first {
        Node::List(items, _) => items.last().and_then(|i| i.0.location()),
        _ => None,
    };
    let start = match second {
        Some(Node::AndOr(a, _)) => a.location(),
        _ => None,
    };
    let (Some(end), Some(start)) = (end, start) else { return false };
    src.slice(end.end.index, start.start.index)
        .is_some_and(|gap| gap.trim_start_matches([' ', '\t']).starts_with(|c| c != ';' && c != '&'))
}

/// Nesting of command substitutions re-printed inside each other (bash's
/// parser re-reads each as it reads it); deeper ones are kept as written.
const MAX_REPRINT_DEPTH: usize = 32;

thread_local! {
    static REPRINT_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A word with each `$( )` in it as bash's parser leaves it: parsed and
/// printed again (`$( echo  hi )` is `$(echo hi)`; comments go; a newline
/// between commands stays). `None` when nothing changes or the word or a
/// substitution does not parse.
fn reprint_substitutions(text: &str) -> Option<String> {
    let depth = REPRINT_DEPTH.with(|d| d.get());
    if depth >= MAX_REPRINT_DEPTH {
        return None;
    }
    crate::syntax::cost::admit_or_stop(crate::syntax::cost::of_word(text)).ok()?;
    let pieces = brush_parser::word::parse(text, &crate::syntax::options()).ok()?;
    let mut spans: Vec<(usize, usize, String)> = Vec::new();
    collect_substitutions(text, &pieces, &mut spans);
    if spans.is_empty() {
        return None;
    }
    REPRINT_DEPTH.with(|d| d.set(depth + 1));
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut changed = false;
    for (start, end, body) in spans {
        let Some(printed) = reprint_body(&body) else { continue };
        let new = format!("$({printed})");
        if text.get(start..end) == Some(new.as_str()) {
            continue;
        }
        out.push_str(&text[last..start]);
        out.push_str(&new);
        last = end;
        changed = true;
    }
    REPRINT_DEPTH.with(|d| d.set(depth));
    out.push_str(&text[last..]);
    changed.then_some(out)
}

/// The `$( )` pieces of a word (also inside double quotes): their byte
/// span in `text` and their body.
fn collect_substitutions(
    text: &str,
    pieces: &[brush_parser::word::WordPieceWithSource],
    out: &mut Vec<(usize, usize, String)>,
) {
    use brush_parser::word::WordPiece;
    for p in pieces {
        match &p.piece {
            WordPiece::CommandSubstitution(body)
                if text.get(p.start_index..p.end_index).is_some_and(|t| t.starts_with("$(") && t.ends_with(')')) =>
            {
                out.push((p.start_index, p.end_index, body.clone()));
            }
            WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                collect_substitutions(text, inner, out);
            }
            // In an operand (`${x:-$(...)}`): each `$(` outside single quotes.
            WordPiece::ParameterExpansion(_) => {
                let Some(slice) = text.get(p.start_index..p.end_index) else { continue };
                let b = slice.as_bytes();
                let mut j = 0;
                while j < b.len() {
                    match b[j] {
                        b'\\' => j += 1,
                        b'\'' => j += slice[j + 1..].find('\'').map_or(b.len(), |k| k + 1),
                        b'$' if b.get(j + 1) == Some(&b'(') && b.get(j + 2) != Some(&b'(') => {
                            let found = brush_parser::word::parse(&slice[j..], &crate::syntax::options())
                                .ok()
                                .and_then(|ps| ps.into_iter().next())
                                .and_then(|first| match first.piece {
                                    WordPiece::CommandSubstitution(body) => Some((first.end_index, body)),
                                    _ => None,
                                });
                            if let Some((len, body)) = found {
                                out.push((p.start_index + j, p.start_index + j + len, body));
                                j += len;
                                continue;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
            }
            _ => {}
        }
    }
}

/// A command substitution's text printed as bash's `print_comsub` does.
fn reprint_body(body: &str) -> Option<String> {
    let parsed = crate::syntax::parse(body, 200).ok()?;
    let items: Vec<ast::CompoundListItem> =
        parsed.program.complete_commands.iter().flat_map(|c| c.0.iter().cloned()).collect();
    let mut p = Printer::new(&parsed.source);
    p.printing_comsub = true;
    p.make(Some(Node::List(&items, true)));
    p.flush_deferred("");
    // bash separates a leading `(` from the `$(` that opens the substitution.
    Some(if p.out.starts_with('(') { format!(" {}", p.out) } else { p.out })
}

/// `$'...'` outside double quotes becomes its decoded text single-quoted, as
/// bash's parser leaves it.
pub(crate) fn ansi_c_to_single(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    let mut in_double = false;
    while let Some(c) = rest.chars().next() {
        let n = c.len_utf8();
        match c {
            '\\' => {
                let take = rest.chars().nth(1).map_or(n, |d| n + d.len_utf8());
                out.push_str(&rest[..take]);
                rest = &rest[take..];
                continue;
            }
            '"' => in_double = !in_double,
            '\'' if !in_double => {
                let end = rest[1..].find('\'').map_or(rest.len(), |e| e + 2);
                out.push_str(&rest[..end]);
                rest = &rest[end..];
                continue;
            }
            // `$"..."` (locale translation) is kept as the plain `"..."`.
            '$' if !in_double && rest[1..].starts_with('"') => {
                rest = &rest[1..];
                continue;
            }
            '$' if !in_double && rest[1..].starts_with('\'') => {
                let body = &rest[2..];
                let mut end = None;
                let mut chars = body.char_indices();
                while let Some((i, d)) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '\'' => {
                            end = Some(i);
                            break;
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    out.push_str(rest);
                    break;
                };
                out.push_str(&crate::expand::param::quote(&crate::expand::ansi_c::decode(&body[..end])));
                rest = &body[end + 1..];
                continue;
            }
            _ => {}
        }
        out.push(c);
        rest = &rest[n..];
    }
    out
}

/// The three parts of a `for ((A; B; C))` header as written (brush trims them).
fn arith_for_parts(text: &str) -> Option<[String; 3]> {
    let start = text.find("((")? + 2;
    let mut parts = vec![String::new()];
    let mut depth = 0usize;
    let mut chars = text[start..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 && chars.peek() == Some(&')') => {
                let [a, b, c]: [String; 3] = parts.try_into().ok()?;
                return Some([a, b, c]);
            }
            ')' => depth = depth.saturating_sub(1),
            ';' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut()?.push(c);
    }
    None
}

/// A here-document's delimiter with its quoting removed (`'EOF'` -> `EOF`).
fn unquote(tag: &str) -> String {
    let mut out = String::with_capacity(tag.len());
    let mut quote: Option<char> = None;
    let mut chars = tag.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'') | (None, '"') => quote = Some(c),
            (None, '\\') | (Some('"'), '\\') => out.extend(chars.next()),
            (_, c) => out.push(c),
        }
    }
    out
}

/// `select` is run as `while __select NAME -- WORDS` (see `syntax.rs`); this
/// gives back NAME and WORDS to print it as written.
fn select_header(src: &Source, cond: &ast::CompoundList) -> Option<(String, String)> {
    let [item] = cond.0.as_slice() else { return None };
    if !item.0.additional.is_empty() || item.0.first.seq.len() != 1 {
        return None;
    }
    let ast::Command::Simple(s) = item.0.first.seq.first()? else { return None };
    if s.prefix.is_some() || s.word_or_name.as_ref()?.value != "__select" {
        return None;
    }
    let mut words = s.suffix.as_ref()?.0.iter().map(|i| match i {
        ast::CommandPrefixOrSuffixItem::Word(w) => Some(src.word(w).into_owned()),
        _ => None,
    });
    let name = words.next()??;
    if words.next()?.as_deref() != Some("--") {
        return None;
    }
    let rest: Option<Vec<String>> = words.collect();
    Some((name, rest?.join(" ")))
}
