//! Programmable completion without a line editor: `compgen` generates the
//! matches of a word as bash's pcomplete.c does (actions, `-G`, `-W`, `-F`,
//! `-C`, then `-X`, `-P`/`-S`, `-o plusdirs/dirnames/default`), `complete`
//! keeps specifications per command (`-p` prints them back, `-r` removes),
//! `compopt` changes their options.

use super::fail;
use crate::interp::Fds;
use crate::pattern::Pattern;
use crate::state::{ShellState, Value};
use std::sync::Arc;

mod actions;
use actions::*;

/// Actions in the order bash generates (and prints) them, with their letter.
const ACTIONS: &[(&str, Option<char>)] = &[
    ("alias", Some('a')),
    ("arrayvar", None),
    ("binding", None),
    ("builtin", Some('b')),
    ("command", Some('c')),
    ("directory", Some('d')),
    ("disabled", None),
    ("enabled", None),
    ("export", Some('e')),
    ("file", Some('f')),
    ("function", None),
    ("group", Some('g')),
    ("helptopic", None),
    ("hostname", None),
    ("job", Some('j')),
    ("keyword", Some('k')),
    ("running", None),
    ("service", Some('s')),
    ("setopt", None),
    ("shopt", None),
    ("signal", None),
    ("stopped", None),
    ("user", Some('u')),
    ("variable", Some('v')),
];

/// `-o` options, in the order `complete -p` prints them.
const OPTIONS: &[&str] =
    &["bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace", "plusdirs"];

/// A completion specification (`complete`'s, or `compgen`'s for one call).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompSpec {
    /// Indexes into [`ACTIONS`], kept sorted.
    actions: Vec<usize>,
    /// Bits over [`OPTIONS`].
    options: u16,
    glob: Option<String>,
    words: Option<String>,
    prefix: Option<String>,
    suffix: Option<String>,
    filter: Option<String>,
    command: Option<String>,
    function: Option<String>,
}

impl CompSpec {
    fn has_opt(&self, name: &str) -> bool {
        OPTIONS.iter().position(|o| *o == name).is_some_and(|i| self.options & (1 << i) != 0)
    }

    /// The `complete` command that recreates it (complete.def's print_compitem).
    fn printed(&self, name: &str) -> String {
        let mut s = String::from("complete");
        for (i, o) in OPTIONS.iter().enumerate() {
            if self.options & (1 << i) != 0 {
                s.push_str(&format!(" -o {o}"));
            }
        }
        for &a in &self.actions {
            if let Some(c) = ACTIONS[a].1 {
                s.push_str(&format!(" -{c}"));
            }
        }
        for &a in &self.actions {
            if ACTIONS[a].1.is_none() {
                s.push_str(&format!(" -A {}", ACTIONS[a].0));
            }
        }
        for (flag, v) in [
            ("-G", &self.glob),
            ("-W", &self.words),
            ("-P", &self.prefix),
            ("-S", &self.suffix),
            ("-X", &self.filter),
            ("-C", &self.command),
        ] {
            if let Some(v) = v {
                s.push_str(&format!(" {flag} {}", single_quote(v)));
            }
        }
        if let Some(f) = &self.function {
            s.push_str(&format!(" -F {f}"));
        }
        s.push(' ');
        s.push_str(name);
        s
    }
}

/// bash's sh_single_quote: always quoted, `'` as `'\''`.
fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The specifications `complete` keeps, by command name (`-D`, `-E`, `-I`
/// under bash's internal names).
pub type CompSpecs = std::collections::BTreeMap<String, CompSpec>;

const DEFAULT: &str = "_DefaultCmD_";
const EMPTY: &str = "_EmptycmD_";
const INITIAL: &str = "_InitialWorD_";

/// What the option letters of one command line gave.
struct Parsed {
    spec: CompSpec,
    /// Options turned off (`compopt +o`).
    off: u16,
    print: bool,
    remove: bool,
    /// `-D`, `-E`, `-I`.
    special: Vec<&'static str>,
    operands: Vec<String>,
}

/// Parse the options of `compgen`/`complete`/`compopt` (getopt style: a
/// value may follow its letter in the same word). `Err(status)` after a message.
async fn parse(sh: &ShellState, fds: &Fds, cmd: &str, argv: &[String]) -> Result<Parsed, i32> {
    let usage = match cmd {
        "compgen" => "compgen: usage: compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]",
        "complete" => "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
        _ => "compopt: usage: compopt [-o|+o option] [-DEI] [name ...]",
    };
    let letters: &str = match cmd {
        "compgen" => "abcdefgjksuvoAGWFCXPS",
        "complete" => "abcdefgjksuvprDEIoAGWFCXPS",
        _ => "oDEI",
    };
    let mut p = Parsed {
        spec: CompSpec::default(),
        off: 0,
        print: false,
        remove: false,
        special: Vec::new(),
        operands: Vec::new(),
    };
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--" {
            i += 1;
            break;
        }
        let plus = a.starts_with('+') && cmd == "compopt";
        if !(a.starts_with('-') || plus) || a.len() < 2 {
            break;
        }
        let chars: Vec<char> = a[1..].chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            j += 1;
            if !letters.contains(c) || (plus && c != 'o') {
                let sign = if plus { '+' } else { '-' };
                fds.shell_err(sh.loc(), &format!("{cmd}: {sign}{c}: invalid option")).await;
                let _ = fds.stderr.write_str(&format!("{usage}\n")).await;
                return Err(2);
            }
            if "oAGWFCXPS".contains(c) {
                let value = if j < chars.len() {
                    let v: String = chars[j..].iter().collect();
                    j = chars.len();
                    v
                } else {
                    i += 1;
                    match argv.get(i) {
                        Some(v) => v.clone(),
                        None => {
                            fds.shell_err(sh.loc(), &format!("{cmd}: -{c}: option requires an argument")).await;
                            let _ = fds.stderr.write_str(&format!("{usage}\n")).await;
                            return Err(2);
                        }
                    }
                };
                match c {
                    'o' => match OPTIONS.iter().position(|o| *o == value) {
                        Some(k) if plus => p.off |= 1 << k,
                        Some(k) => p.spec.options |= 1 << k,
                        None => {
                            return Err(fail(sh.loc(), fds, &format!("{cmd}: {value}: invalid option name"), 2).await);
                        }
                    },
                    'A' => match ACTIONS.iter().position(|(n, _)| *n == value) {
                        Some(k) => add_action(&mut p.spec, k),
                        None => {
                            return Err(fail(sh.loc(), fds, &format!("{cmd}: {value}: invalid action name"), 2).await);
                        }
                    },
                    'G' => p.spec.glob = Some(value),
                    'W' => p.spec.words = Some(value),
                    'F' => p.spec.function = Some(value),
                    'C' => p.spec.command = Some(value),
                    'X' => p.spec.filter = Some(value),
                    'P' => p.spec.prefix = Some(value),
                    _ => p.spec.suffix = Some(value),
                }
                continue;
            }
            match c {
                'p' => p.print = true,
                'r' => p.remove = true,
                'D' => p.special.push(DEFAULT),
                'E' => p.special.push(EMPTY),
                'I' => p.special.push(INITIAL),
                _ => {
                    if let Some(k) = ACTIONS.iter().position(|(_, l)| *l == Some(c)) {
                        add_action(&mut p.spec, k);
                    }
                }
            }
        }
        i += 1;
    }
    p.operands = argv[i.min(argv.len())..].to_vec();
    Ok(p)
}

fn add_action(spec: &mut CompSpec, k: usize) {
    if let Err(pos) = spec.actions.binary_search(&k) {
        spec.actions.insert(pos, k);
    }
}

/// `compgen [options] [word]`: print the matches, one a line; 1 when there are none.
pub async fn compgen(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let p = match parse(sh, fds, "compgen", argv).await {
        Ok(p) => p,
        Err(s) => return s,
    };
    let word = p.operands.first().cloned().unwrap_or_default();
    let found = match generate(sh, fds, &p.spec, &word, true).await {
        Ok(f) => f,
        Err(s) => return s,
    };
    if found.is_empty() {
        return 1;
    }
    let mut s = String::new();
    for f in found {
        s.push_str(&f);
        s.push('\n');
    }
    if fds.stdout.write_str(&s).await.is_err() {
        return 1;
    }
    0
}

/// The matches of `word` under `spec` (gen_compspec_completions).
async fn generate(
    sh: &mut ShellState,
    fds: &Fds,
    spec: &CompSpec,
    word: &str,
    compgen: bool,
) -> Result<Vec<String>, i32> {
    let mut found: Vec<String> = Vec::new();
    for &a in &spec.actions {
        found.extend(action_matches(sh, ACTIONS[a].0, word).await);
        if crate::limits::checkpoint().is_err() {
            return Err(1);
        }
    }
    if let Some(g) = &spec.glob {
        let mut out = Vec::new();
        let parts = vec![(g.clone(), false)];
        if let Ok(m) = crate::expand::glob::glob_matches(sh, &parts).await {
            out.extend(m);
        }
        found.extend(out);
    }
    if let Some(w) = &spec.words {
        let ifs = sh.get_var("IFS").unwrap_or_else(|| " \t\n".into());
        for item in split_at_delims(w, &ifs) {
            let v = match crate::expand::expand_string(sh, fds, &item).await {
                Ok(v) => v,
                Err(_) => continue,
            };
            if v.starts_with(word) {
                found.push(v);
            }
        }
    }
    if let Some(f) = &spec.function {
        if compgen {
            fds.shell_err(sh.loc(), "compgen: warning: -F option may not work as you expect").await;
        }
        found.extend(run_function(sh, fds, f, word).await);
    }
    if let Some(c) = &spec.command {
        if compgen {
            fds.shell_err(sh.loc(), "compgen: warning: -C option may not work as you expect").await;
        }
        let q = crate::expand::param::quote;
        let src = format!("{c} compgen {} ''", q(word));
        if let Ok(text) = crate::interp::command_substitution(sh, fds, &src).await {
            found.extend(text.split('\n').filter(|l| !l.is_empty()).map(str::to_string));
        }
    }
    if let Some(pat) = &spec.filter {
        // A leading `!` negates, unless it opens an extglob `!(...)`.
        let (negate, pat) = match pat.strip_prefix('!') {
            Some(rest) if !(sh.opts.extglob && rest.starts_with('(')) => (true, rest),
            _ => (false, pat.as_str()),
        };
        let pat = Pattern::from_glob_text(&ampersand(pat, word));
        let (extglob, nocase) = (sh.opts.extglob, sh.opts.nocasematch);
        found.retain(|m| pat.matches_case(m, extglob, nocase) == negate);
    }
    let (pre, suf) = (spec.prefix.clone().unwrap_or_default(), spec.suffix.clone().unwrap_or_default());
    if !pre.is_empty() || !suf.is_empty() {
        for m in &mut found {
            *m = format!("{pre}{m}{suf}");
        }
    }
    if spec.has_opt("plusdirs") {
        found.extend(files(sh, word, true).await);
    }
    if found.is_empty() && spec.has_opt("dirnames") {
        found = files(sh, word, true).await;
    }
    // `bashdefault` falls back on bash's own completions of a line being
    // edited: with none here, it adds nothing.
    if found.is_empty() && spec.has_opt("default") {
        found = files(sh, word, false).await;
    }
    Ok(found)
}

/// `-X`: an unescaped `&` stands for the word being completed.
fn ampersand(pat: &str, word: &str) -> String {
    let mut out = String::new();
    let mut chars = pat.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\\');
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '&' => {
                for w in word.chars() {
                    if matches!(w, '*' | '?' | '[' | ']' | '\\' | '(' | ')' | '|' | '!' | '@' | '+') {
                        out.push('\\');
                    }
                    out.push(w);
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// `-W`: split at unquoted IFS characters outside `$( )`, `${ }` and
/// backquotes; quotes are kept for the expansion after.
fn split_at_delims(s: &str, ifs: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    // Open `$(`/`${` (and plain parentheses inside them).
    let mut depth = 0usize;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if quote.is_none() && c == '$' && matches!(chars.peek(), Some('(' | '{')) {
            cur.push(c);
            if let Some(n) = chars.next() {
                cur.push(n);
            }
            depth += 1;
            continue;
        }
        if quote.is_none() && depth > 0 {
            match c {
                '(' | '{' => depth += 1,
                ')' | '}' => depth -= 1,
                _ => {}
            }
            if matches!(c, '(' | '{' | ')' | '}') {
                cur.push(c);
                continue;
            }
        }
        match quote {
            Some(q) => {
                cur.push(c);
                if c == '\\' && q == '"' {
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '\\' => {
                cur.push(c);
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            None if c == '\'' || c == '"' || c == '`' => {
                quote = Some(c);
                cur.push(c);
            }
            None if depth == 0 && ifs.contains(c) => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            None => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `-F func`: the function runs with `COMP_*` set (empty: no line is being
/// edited); `COMPREPLY` holds its matches.
async fn run_function(sh: &mut ShellState, fds: &Fds, name: &str, word: &str) -> Vec<String> {
    let Some(func) = sh.funcs.get(name).cloned() else {
        fds.shell_err(sh.loc(), &format!("compgen: {name}: function not found")).await;
        return Vec::new();
    };
    let _ = sh.vars.set_value("COMP_WORDS", Value::Indexed(Default::default()));
    for (n, v) in [("COMP_CWORD", "-1"), ("COMP_LINE", ""), ("COMP_POINT", "0"), ("COMP_TYPE", "0"), ("COMP_KEY", "0")]
    {
        let _ = sh.vars.set_scalar(n, v.to_string());
    }
    let _ = sh.vars.unset("COMPREPLY");
    let args = vec!["compgen".to_string(), word.to_string(), String::new()];
    let _ = crate::interp::call_function(sh, name, func, std::sync::Arc::new(args), fds).await;
    let reply = match sh.vars.get("COMPREPLY").and_then(|v| v.value.clone()) {
        Some(Value::Indexed(m)) => m.into_values().collect(),
        Some(Value::Assoc(m)) => m.into_values(),
        Some(Value::Scalar(s)) => vec![s],
        None => Vec::new(),
    };
    for n in ["COMP_WORDS", "COMP_CWORD", "COMP_LINE", "COMP_POINT", "COMP_TYPE", "COMP_KEY"] {
        let _ = sh.vars.unset(n);
    }
    reply
}

/// `complete`: define, print (`-p`, or no options) or remove (`-r`) specifications.
pub async fn complete(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let p = match parse(sh, fds, "complete", argv).await {
        Ok(p) => p,
        Err(s) => return s,
    };
    let mut names: Vec<String> = p.special.iter().map(|s| s.to_string()).collect();
    names.extend(p.operands.iter().cloned());
    let defines = p.spec != CompSpec::default();
    if p.remove {
        if names.is_empty() {
            sh.completions = Default::default();
            return 0;
        }
        let mut status = 0;
        for n in names {
            if Arc::make_mut(&mut sh.completions).remove(&n).is_none() {
                status = fail(sh.loc(), fds, &format!("complete: {n}: no completion specification"), 1).await;
            }
        }
        return status;
    }
    if p.print || (!defines && names.is_empty()) || (!defines && argv.len() == 1) {
        let mut out = String::new();
        let mut status = 0;
        if names.is_empty() {
            for (n, spec) in sh.completions.iter() {
                out.push_str(&spec.printed(&shown_name(n)));
                out.push('\n');
            }
        } else {
            for n in &names {
                match sh.completions.get(n) {
                    Some(spec) => {
                        out.push_str(&spec.printed(&shown_name(n)));
                        out.push('\n');
                    }
                    None => {
                        status = fail(sh.loc(), fds, &format!("complete: {n}: no completion specification"), 1).await
                    }
                }
            }
        }
        let _ = fds.stdout.write_str(&out).await;
        return status;
    }
    if names.is_empty() {
        return 0;
    }
    let table = Arc::make_mut(&mut sh.completions);
    for n in names {
        table.insert(n, p.spec.clone());
    }
    0
}

/// `-D`/`-E`/`-I` as `complete -p` shows them.
fn shown_name(n: &str) -> String {
    match n {
        DEFAULT => "-D".into(),
        EMPTY => "-E".into(),
        INITIAL => "-I".into(),
        n => n.into(),
    }
}

/// `compopt [-o|+o option] [-DEI] [name ...]`: change or show a specification's options.
pub async fn compopt(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let p = match parse(sh, fds, "compopt", argv).await {
        Ok(p) => p,
        Err(s) => return s,
    };
    let mut names: Vec<String> = p.special.iter().map(|s| s.to_string()).collect();
    names.extend(p.operands.iter().cloned());
    if names.is_empty() {
        // Outside a completion function there is no current one.
        return fail(sh.loc(), fds, "compopt: not currently executing completion function", 1).await;
    }
    let mut status = 0;
    let mut out = String::new();
    for n in names {
        let Some(spec) = Arc::make_mut(&mut sh.completions).get_mut(&n) else {
            status = fail(sh.loc(), fds, &format!("compopt: {n}: no completion specification"), 1).await;
            continue;
        };
        if p.spec.options == 0 && p.off == 0 {
            let mut line = String::from("compopt");
            for (i, o) in OPTIONS.iter().enumerate() {
                let sign = if spec.options & (1 << i) != 0 { '-' } else { '+' };
                line.push_str(&format!(" {sign}o {o}"));
            }
            out.push_str(&format!("{line} {}\n", shown_name(&n)));
        } else {
            spec.options = (spec.options | p.spec.options) & !p.off;
        }
    }
    let _ = fds.stdout.write_str(&out).await;
    status
}
