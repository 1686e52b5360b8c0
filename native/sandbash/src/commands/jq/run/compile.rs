//! Compiling a jq program: our prelude on jaq's, line/column of errors, nesting bounds.

use super::*;

// ---------------------------------------------------------------------------
// Compilation
// ---------------------------------------------------------------------------

pub(super) type JFilter = jaq_core::Filter<JqData>;

/// Byte offset of `part` inside `code` (0 if it lies elsewhere, as names
/// from the prelude do).
pub(super) fn offset_of(code: &str, part: &str) -> usize {
    let (c, p) = (code.as_ptr() as usize, part.as_ptr() as usize);
    if p >= c && p <= c + code.len() {
        p - c
    } else {
        0
    }
}

/// Line (1-based) of `part` inside `code`.
pub(super) fn line_of(code: &str, part: &str) -> usize {
    let start = offset_of(code, part).min(code.len());
    code[..start].matches('\n').count() + 1
}

/// jq's compile error report: the message, the program, and as many spaces
/// as the error's offset in it.
pub(super) fn compile_err(msgs: Vec<(String, usize)>, code: &str) -> String {
    let mut out = String::new();
    for (m, off) in &msgs {
        out.push_str(&format!("jq: error: {m}:\n{code}{}\n", " ".repeat(*off)));
    }
    let n = msgs.len();
    out.push_str(&format!("jq: {n} compile error{}\n", if n == 1 { "" } else { "s" }));
    out
}

/// Replace `$__loc__` (jaq lacks it) by the object jq gives.
pub(super) fn expand_loc(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("$__loc__") {
        let line = code[..code.len() - rest.len() + i].matches('\n').count() + 1;
        out.push_str(&rest[..i]);
        out.push_str(&format!("{{\"file\":\"<top-level>\",\"line\":{line}}}"));
        rest = &rest[i + "$__loc__".len()..];
    }
    out.push_str(rest);
    out
}

/// Deepest nesting of a program: brackets, and `def`s inside `def`s (jaq's
/// parser and compiler recurse on both, and compile time grows faster than
/// linearly with nested definitions). A `def` ends at the `;` after its body
/// at its own bracket level; strings and comments are skipped.
pub(super) fn nesting(code: &str) -> usize {
    let b = code.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut max = 0usize;
    let mut i = 0;
    // Inside a string literal (an interpolation `\(...)` is code again).
    let mut in_str = false;
    while i < b.len() {
        if in_str {
            match b[i] {
                b'\\' if b.get(i + 1) == Some(&b'(') => {
                    stack.push(b'i');
                    max = max.max(stack.len());
                    in_str = false;
                    i += 1;
                }
                b'\\' => i += 1,
                b'"' => in_str = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b[i] {
            b'"' => in_str = true,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                stack.push(b[i]);
                max = max.max(stack.len());
            }
            b')' | b']' | b'}' => {
                // Close the defs whose body the bracket ends, then the bracket.
                while stack.last() == Some(&b'd') {
                    stack.pop();
                }
                in_str = stack.pop() == Some(b'i');
            }
            b';' if stack.last() == Some(&b'd') => {
                stack.pop();
            }
            b'd' if b[i..].starts_with(b"def")
                && (i == 0 || !is_word(b[i - 1]))
                && b.get(i + 3).is_none_or(|&c| !is_word(c)) =>
            {
                stack.push(b'd');
                max = max.max(stack.len());
                i += 2;
            }
            _ => {}
        }
        i += 1;
    }
    max
}

pub(super) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'@'
}

/// A kept program: its text, the global names it was compiled with, the filter.
type Compiled = (String, Vec<String>, Rc<JFilter>);

thread_local! {
    /// Programs this worker compiled, most recent last: (program, global
    /// names, filter). A worker thread is reused (see `jq::run_on_worker`), and
    /// a script runs the same program again and again.
    static COMPILED: RefCell<Vec<Compiled>> = const { RefCell::new(Vec::new()) };
}

/// Programs each worker keeps compiled, and the longest program kept.
const COMPILED_ENTRIES: usize = 16;
const COMPILED_TEXT: usize = 2048;

/// [`compile`], from this worker's cache when it compiled `code` before.
/// A kept filter is charged to no session (it outlives the run); only
/// programs up to [`COMPILED_TEXT`] bytes are kept, so what it holds is bounded.
pub(super) fn compile_cached(code: &str, globals: &[String]) -> Result<Rc<JFilter>, String> {
    if code.len() > COMPILED_TEXT {
        return compile(code, globals).map(Rc::new);
    }
    let hit = COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        let i = c.iter().position(|(p, g, _)| p == code && g == globals)?;
        let e = c.remove(i);
        let f = e.2.clone();
        c.push(e);
        Some(f)
    });
    if let Some(f) = hit {
        return Ok(f);
    }
    let prev = crate::limits::memory::switch_to(0);
    let compiled = compile(code, globals).map(Rc::new);
    if let Ok(f) = &compiled {
        COMPILED.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= COMPILED_ENTRIES {
                c.remove(0);
            }
            c.push((code.to_string(), globals.to_vec(), f.clone()));
        });
    }
    crate::limits::memory::switch_to(prev);
    compiled
}

pub(super) fn compile(code: &str, globals: &[String]) -> Result<JFilter, String> {
    let code_shown = code.to_string();
    if nesting(code) > 1000 {
        return Err(compile_err(vec![("program nested too deeply at <top-level>, line 1".into(), 0)], &code_shown));
    }
    let code = expand_loc(code);
    let prelude =
        jaq_core::load::parse(DEFS, |p| p.defs()).ok_or_else(|| "jq: error: internal prelude\n".to_string())?;
    let regex_defs = jaq_core::load::parse(super::super::regex::DEFS, |p| p.defs())
        .ok_or_else(|| "jq: error: internal prelude\n".to_string())?;
    let early = jaq_core::load::parse(EARLY, |p| p.defs()).unwrap_or_default();
    let std_defs = jaq_std::defs().filter(|d| d.name != "nan" && d.name != "infinite");
    let defs = early.into_iter().chain(jaq_core::defs()).chain(std_defs).chain(prelude).chain(regex_defs);
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let modules = loader.load(&arena, File { code: code.as_str(), path: () }).map_err(|errs| {
        let mut msgs = Vec::new();
        for (_, e) in errs {
            use jaq_core::load::Error as E;
            match e {
                E::Io(v) => msgs.extend(v.into_iter().map(|(_, m)| (m, 0))),
                E::Lex(v) => msgs.extend(v.into_iter().map(|(_, found)| syntax_err(&code, found))),
                E::Parse(v) => msgs.extend(v.into_iter().map(|(_, found)| syntax_err(&code, found))),
            }
        }
        compile_err(msgs, &code_shown)
    })?;
    let compiler =
        jaq_core::Compiler::default().with_funs(natives()).with_global_vars(globals.iter().map(String::as_str));
    compiler.compile(modules).map_err(|errs| {
        let mut msgs = Vec::new();
        for (_, undefs) in errs {
            for (name, u) in undefs {
                use jaq_core::compile::Undefined as U;
                let what = match u {
                    U::Filter(arity) => format!("{name}/{arity}"),
                    U::Var if name.starts_with('$') => name.to_string(),
                    U::Var => format!("${name}"),
                    _ => name.to_string(),
                };
                let off = offset_of(&code, name);
                msgs.push((format!("{what} is not defined at <top-level>, line {}", line_of(&code, name)), off));
            }
        }
        compile_err(msgs, &code_shown)
    })
}

pub(super) fn syntax_err(code: &str, found: &str) -> (String, usize) {
    let off = offset_of(code, found);
    let off = if found.is_empty() { code.trim_end().len().saturating_sub(1) } else { off };
    let msg = format!(
        "syntax error, unexpected {} (Unix shell quoting issues?) at <top-level>, line {}",
        tok(found),
        line_of(code, found)
    );
    (msg, off)
}

/// How jq's syntax errors name what they found.
pub(super) fn tok(found: &str) -> String {
    let t: String = found.chars().take_while(|c| !c.is_whitespace()).take(10).collect();
    if t.is_empty() {
        "end of file".into()
    } else if t.chars().next().is_some_and(|c| c.is_alphabetic()) {
        "IDENT".into()
    } else {
        format!("'{}'", t.chars().next().unwrap_or(' '))
    }
}
