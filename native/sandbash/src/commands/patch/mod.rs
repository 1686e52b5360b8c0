//! `patch` (GNU patch 2.7.6) for unified diffs: `-p N`, `-i FILE` or stdin,
//! `-R`, `-N`, `--dry-run`, `-o FILE`, `-b`, `-F N`, `-s`, `-E`, creating and
//! deleting files (`/dev/null`), hunks placed with GNU's offset and fuzz
//! search, rejects saved to `FILE.rej` and a `.orig` backup when a patch does
//! not apply exactly. There is no terminal in the sandbox, so every question
//! GNU patch would ask takes its default answer, as it does without a tty.

pub(crate) mod parse;

use crate::commands::util::{parse, Arg, OptError, Spec};
use parse::{FilePatch, Hunk, ParseError, Parser};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;

pub struct Patch;

const SPEC: Spec = Spec::new(
    "p:i:RNo:bF:sEtfuvZT",
    &[
        ("strip", Arg::Yes, "p"),
        ("input", Arg::Yes, "i"),
        ("reverse", Arg::No, "R"),
        ("forward", Arg::No, "N"),
        ("output", Arg::Yes, "o"),
        ("backup", Arg::No, "b"),
        ("fuzz", Arg::Yes, "F"),
        ("quiet", Arg::No, "s"),
        ("silent", Arg::No, "s"),
        ("remove-empty-files", Arg::No, "E"),
        ("batch", Arg::No, "t"),
        ("force", Arg::No, "f"),
        ("unified", Arg::No, "u"),
        ("dry-run", Arg::No, "dry-run"),
        ("no-backup-if-mismatch", Arg::No, "no-backup-if-mismatch"),
        ("backup-if-mismatch", Arg::No, "backup-if-mismatch"),
        ("set-utc", Arg::No, "Z"),
        ("set-time", Arg::No, "T"),
    ],
    "[OPTION]... [ORIGFILE [PATCHFILE]]",
);

const VERSION: &str = "GNU patch 2.7.6
Copyright (C) 2003, 2009-2012 Free Software Foundation, Inc.
Copyright (C) 1988 Larry Wall

License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Larry Wall and Paul Eggert
";

struct Opts {
    strip: Option<usize>,
    reverse: bool,
    forward: bool,
    dry_run: bool,
    output: Option<String>,
    backup: bool,
    backup_mismatch: bool,
    max_fuzz: usize,
    silent: bool,
    remove_empty: bool,
    target: Option<String>,
}

/// `name` without its first `n` components (`None` if it has fewer); with no
/// `-p`, GNU patch keeps only the last component.
fn strip_name(name: &str, n: Option<usize>) -> Option<String> {
    let Some(n) = n else {
        return Some(name.rsplit('/').next().unwrap_or(name).to_string());
    };
    let mut rest = name;
    for _ in 0..n {
        let i = rest.find('/')?;
        rest = rest[i..].trim_start_matches('/');
    }
    Some(rest.to_string())
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[async_trait]
impl Utility for Patch {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = match parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => {
                ctx.out_help(format!("Usage: patch {}\n", SPEC.usage).as_bytes()).await?;
                return Ok(0);
            }
            Err(OptError::Version) => {
                ctx.out(VERSION.as_bytes()).await?;
                return Ok(0);
            }
            Err(e) => {
                ctx.err(e.to_string()).await?;
                return Err(UError::new(2, "Try 'patch --help' for more information."));
            }
        };
        if p.has("v") {
            ctx.out(VERSION.as_bytes()).await?;
            return Ok(0);
        }
        let mut o = Opts {
            strip: None,
            reverse: p.has("R"),
            forward: p.has("N"),
            dry_run: p.has("dry-run"),
            output: p.last("o").map(str::to_string),
            backup: p.has("b"),
            backup_mismatch: !p.has("no-backup-if-mismatch"),
            max_fuzz: 2,
            silent: p.has("s"),
            remove_empty: p.has("E"),
            target: p.operands.first().cloned(),
        };
        if let Some(n) = p.last("p") {
            match n.parse() {
                Ok(n) => o.strip = Some(n),
                Err(_) => {
                    return Err(UError::new(2, format!("**** strip count {n} is not a number")));
                }
            }
        }
        if let Some(f) = p.last("F") {
            match f.parse() {
                Ok(n) => o.max_fuzz = n,
                Err(_) => {
                    return Err(UError::new(2, format!("**** fuzz factor {f} is not a number")));
                }
            }
        }
        if p.operands.len() > 2 {
            return Err(UError::new(2, format!("**** extra operand {}", p.operands[2])));
        }
        let input = p.last("i").map(str::to_string).or_else(|| p.operands.get(1).cloned());
        let data = match &input {
            Some(f) => ctx.read_operand(f).await.map_err(|e| (f.clone(), e)),
            None => ctx.read_stdin().await.map_err(|e| ("-".to_string(), e)),
        };
        let data = match data {
            Ok(d) => d,
            Err((f, e)) => {
                return Err(UError::new(2, format!("**** Can't open patch file {f} : {e}")));
            }
        };
        let mut parser = Parser::new(&data);
        let mut status = 0;
        loop {
            if !ctx.still_running() {
                return Ok(2);
            }
            match parser.next_file() {
                Ok(Some(fp)) => {
 let st = match apply_file(ctx, &o, &fp).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 };
 status = status.max(st);
 },
                Ok(None) => break,
                Err((ParseError::Garbage, _)) => {
                    return Err(UError::new(2, "**** Only garbage was found in the patch input."));
                }
                Err((ParseError::Malformed(n, line), partial)) => {
                    if let Some(fp) = partial {
                        if let Some(t) = target_name(ctx, &o, &fp).await.ok().flatten() {
                            if !o.silent {
                                ctx.out(format!("patching file {t}\n").as_bytes()).await?;
                            }
                        }
                    }
                    let l = String::from_utf8_lossy(&line);
                    return Err(UError::new(2, format!("**** malformed patch at line {n}: {l}")));
                }
            }
        }
        Ok(status)
    }
}

/// Whether a `---`/`+++` side names no file (a creation or a deletion).
fn is_null(name: &str, rest: &str, first: usize, len: usize) -> bool {
    name == "/dev/null" || (first == 0 && len == 0 && (rest.contains("1970-01-01") || rest.contains("1969-12-31")))
}

/// The file to patch: the ORIGFILE operand, or the existing one of the names
/// (fewest components, then shortest base name, then shortest), or for a
/// creation the new name. `Ok(None)`: none exists.
async fn target_name(ctx: &CommandContext<'_>, o: &Opts, fp: &FilePatch) -> Result<Option<String>, IoError> {
    if let Some(t) = &o.target {
        return Ok(Some(t.clone()));
    }
    let h = fp.hunks.first();
    let (of, ol, nf, nl) = h.map_or((1, 1, 1, 1), |h| (h.old_first, h.old_len, h.new_first, h.new_len));
    let old_null = is_null(&fp.old_name, &fp.old_rest, of, ol);
    let new_null = is_null(&fp.new_name, &fp.new_rest, nf, nl);
    let mut cands = Vec::new();
    for (name, null) in [(&fp.old_name, old_null), (&fp.new_name, new_null)] {
        if !null {
            if let Some(n) = strip_name(name, o.strip).filter(|n| !n.is_empty()) {
                cands.push(n);
            }
        }
    }
    let mut existing = Vec::new();
    for c in &cands {
        if ctx.fs.metadata(&ctx.resolve(c)).await.is_ok() {
            existing.push(c.clone());
        }
    }
    let key = |n: &String| (n.matches('/').count(), n.rsplit('/').next().unwrap_or(n).len(), n.len());
    if let Some(best) = existing.iter().min_by_key(|n| key(n)) {
        return Ok(Some(best.clone()));
    }
    // Nothing exists: a deletion names the missing file; a creation (or a patch
    // whose old side is empty) makes the new name.
    if new_null && !old_null {
        return Ok(cands.first().cloned());
    }
    // Nothing exists: a creation (or a patch whose old side is empty) makes the new name.
    if old_null || (of == 0 && ol == 0) {
        return Ok(cands.last().cloned());
    }
    Ok(None)
}

/// Where one hunk goes: GNU patch's `locate_hunk`. Lines are 1-based; returns
/// the line its first old line matches, and the offset to carry forward.
fn locate(lines: &[&[u8]], h: &Hunk, fuzz: usize, last_offset: isize, frozen: usize) -> Option<usize> {
    let pat: Vec<&[u8]> = h.old_lines().collect();
    let pat_lines = pat.len() as isize;
    let first = if h.old_len == 0 { h.old_first + 1 } else { h.old_first } as isize;
    let first_guess = first + last_offset;
    let (pre, post) = h.context();
    let (pre, post) = (pre as isize, post as isize);
    let context = pre.max(post);
    let fuzz = fuzz as isize;
    let prefix_fuzz = fuzz + pre - context;
    let suffix_fuzz = fuzz + post - context;
    let input_lines = lines.len() as isize;
    if pat_lines == 0 {
        return usize::try_from(first_guess.max(1)).ok();
    }
    let matches = |at: isize, pf: isize, sf: isize| -> bool {
        // Lines ignored by fuzz at the end may lie past the end of the file.
        if at < 1 || at + pat_lines - sf.max(0) - 1 > input_lines {
            return false;
        }
        (pf.max(0)..pat_lines - sf.max(0)).all(|i| lines.get((at - 1 + i) as usize) == pat.get(i as usize))
    };
    if prefix_fuzz < 0 && first <= 1 {
        // It begins at the start of the file (or is the whole file).
        if suffix_fuzz < 0 && pat_lines != input_lines {
            return None;
        }
        return (frozen == 0 && matches(1, 0, suffix_fuzz.max(0))).then_some(1);
    }
    let prefix_fuzz = prefix_fuzz.max(0);
    if suffix_fuzz < 0 {
        // It ends at the end of the file.
        let at = input_lines - pat_lines + 1;
        return (at > frozen as isize && matches(at, prefix_fuzz, 0)).then_some(at as usize);
    }
    let max_where = input_lines - (pat_lines - suffix_fuzz) + 1;
    // Never before a line an earlier hunk changed (its trailing context is not frozen).
    let min_where = frozen as isize + 1;
    let max_pos = max_where - first_guess;
    let mut max_neg = first_guess - min_where;
    if first_guess <= max_neg {
        max_neg = first_guess - 1;
    }
    let max_off = max_pos.max(max_neg);
    let mut off = 0;
    while off <= max_off {
        if off <= max_pos && matches(first_guess + off, prefix_fuzz, suffix_fuzz) {
            return usize::try_from(first_guess + off).ok();
        }
        if off > 0 && off <= max_neg && matches(first_guess - off, prefix_fuzz, suffix_fuzz) {
            return usize::try_from(first_guess - off).ok();
        }
        off += 1;
    }
    None
}

/// How one file's hunks went.
#[derive(Default)]
struct Outcome {
    out: Vec<u8>,
    /// Hunks that found no place, with the output offset at that point.
    failed: Vec<(usize, isize)>,
    mismatch: bool,
    /// The first hunk matched only backwards: the whole file is skipped.
    reversed: bool,
}

/// Place every hunk, GNU style: each is tried with fuzz 0, 1, ... up to
/// `max_fuzz` (never more than its context); where the first hunk fails it
/// is also tried backwards, to spot an already-applied patch.
async fn apply_hunks(ctx: &CommandContext<'_>, o: &Opts, old: &[u8], hunks: &[Hunk]) -> Result<Outcome, IoError> {
    let lines: Vec<&[u8]> = old.split_inclusive(|&b| b == b'\n').collect();
    let mut r = Outcome::default();
    let mut frozen = 0usize;
    let mut last_offset: isize = 0;
    // Lines the applied hunks added minus those they removed: where a hunk
    // lands in the output (GNU reports that line, so failed hunks do not count).
    let mut out_offset: isize = 0;
    for (i, h) in hunks.iter().enumerate() {
        let n = i + 1;
        let (pre, post) = h.context();
        let my_max = o.max_fuzz.min(pre.max(post));
        let mut found;
        let mut fuzz = 0;
        loop {
            found = locate(&lines, h, fuzz, last_offset, frozen);
            // GNU tries the first hunk backwards at each fuzz level its forward try failed.
            if found.is_none() && n == 1 && !o.reverse {
                let rh = h.reversed();
                if locate(&lines, &rh, fuzz, last_offset, frozen).is_some() {
                    r.reversed = true;
                    return Ok(r);
                }
            }
            if found.is_some() || fuzz >= my_max {
                break;
            }
            fuzz += 1;
        }
        let Some(at) = found else {
            r.failed.push((i, out_offset));
            r.mismatch = true;
            if !o.silent {
                let at = h.old_first as isize + out_offset;
                ctx.out(format!("Hunk #{n} FAILED at {at}.\n").as_bytes()).await?;
            }
            continue;
        };
        let first = if h.old_len == 0 { h.old_first + 1 } else { h.old_first } as isize;
        // A hunk with no old lines goes where it says (clamped to the file): no offset.
        if h.old_lines().next().is_some() {
            last_offset = at as isize - first;
        }
        if fuzz > 0 || last_offset != 0 {
            r.mismatch = true;
            if !o.silent {
                let mut m = format!("Hunk #{n} succeeded at {}", at as isize + out_offset);
                if fuzz > 0 {
                    m.push_str(&format!(" with fuzz {fuzz}"));
                }
                if last_offset != 0 {
                    let s = if last_offset == 1 { "" } else { "s" };
                    m.push_str(&format!(" (offset {last_offset} line{s})"));
                }
                m.push_str(".\n");
                ctx.out(m.as_bytes()).await?;
            }
        }
        // Walk the hunk as GNU's apply_hunk does: input is copied lazily, up to
        // each removed line or insertion point, so context comes from the file
        // (fuzzed lines keep their text) and trailing context stays unfrozen,
        // free for the next hunk's leading context to match.
        let mut pos = at.saturating_sub(1);
        for l in &h.lines {
            match l.kind {
                b'+' => {
                    copy_till(&lines, &mut frozen, pos, &mut r.out);
                    r.out.extend_from_slice(&l.text);
                }
                b'-' => {
                    copy_till(&lines, &mut frozen, pos, &mut r.out);
                    pos += 1;
                    frozen = frozen.max(pos.min(lines.len()));
                }
                _ => pos += 1,
            }
        }
        let added = h.lines.iter().filter(|l| l.kind == b'+').count() as isize;
        let removed = h.lines.iter().filter(|l| l.kind == b'-').count() as isize;
        out_offset += added - removed;
    }
    for l in lines.get(frozen..).unwrap_or_default() {
        r.out.extend_from_slice(l);
    }
    Ok(r)
}

/// Copy input lines up to (not including) index `to` that are not copied yet.
fn copy_till(lines: &[&[u8]], frozen: &mut usize, to: usize, out: &mut Vec<u8>) {
    let to = to.min(lines.len());
    for l in lines.get(*frozen..to).unwrap_or_default() {
        out.extend_from_slice(l);
    }
    *frozen = (*frozen).max(to);
}

/// The `---`/`+++` header of a reject file: the names as patch used them.
fn reject_text(fp: &FilePatch, o: &Opts, hunks: &[(&Hunk, isize)]) -> Vec<u8> {
    let name = |n: &str| if n == "/dev/null" { n.to_string() } else { strip_name(n, o.strip).unwrap_or(n.to_string()) };
    let mut out =
        format!("--- {}{}\n+++ {}{}\n", name(&fp.old_name), fp.old_rest, name(&fp.new_name), fp.new_rest).into_bytes();
    for (h, shift) in hunks {
        out.extend(h.to_unified(*shift));
    }
    out
}

async fn apply_file(ctx: &CommandContext<'_>, o: &Opts, fp: &FilePatch) -> UResult<i32> {
    let hunks: Vec<Hunk> = if o.reverse { fp.hunks.iter().map(Hunk::reversed).collect() } else { fp.hunks.clone() };
    let total = hunks.len();
    let say = |s: String| async move {
        if o.silent {
            Ok(())
        } else {
            ctx.out(s.as_bytes()).await
        }
    };
    let Some(name) = target_name(ctx, o, fp).await? else {
        let mut m = format!("can't find file to patch at input line {}\n", fp.first_hunk_line);
        m.push_str(if o.strip.is_some() {
            "Perhaps you used the wrong -p or --strip option?\n"
        } else {
            "Perhaps you should have used the -p or --strip option?\n"
        });
        m.push_str("The text leading up to this was:\n--------------------------\n");
        for l in &fp.leading {
            m.push('|');
            m.push_str(&String::from_utf8_lossy(l));
            if !l.ends_with(b"\n") {
                m.push('\n');
            }
        }
        m.push_str("--------------------------\nFile to patch: \nSkip this patch? [y] \nSkipping patch.\n");
        m.push_str(&format!("{} out of {} ignored\n", total, plural(total, "hunk")));
        ctx.out(m.as_bytes()).await?;
        return Ok(1);
    };
    let full = ctx.resolve(&name);
    let existing = match ctx.fs.metadata(&full).await {
        Ok(m) if m.is_dir() => {
            return Err(UError::new(2, format!("**** {name}: Is a directory")));
        }
        Ok(_) => Some(ctx.fs.read(&full).await.unwrap_or_default()),
        Err(_) => None,
    };
    let first = hunks.first();
    let creates = first.is_some_and(|h| h.old_first == 0 && h.old_len == 0)
        && is_null(
            if o.reverse { &fp.new_name } else { &fp.old_name },
            if o.reverse { &fp.new_rest } else { &fp.old_rest },
            0,
            0,
        );
    let deletes = first.is_some_and(|h| h.new_len == 0)
        && is_null(
            if o.reverse { &fp.old_name } else { &fp.new_name },
            if o.reverse { &fp.old_rest } else { &fp.new_rest },
            0,
            0,
        );
    let verb = if o.dry_run { "checking" } else { "patching" };
    let ignored = |extra: &str| format!("{} out of {} ignored{extra}\n", total, plural(total, "hunk"));
    if creates && existing.as_ref().is_some_and(|d| !d.is_empty()) {
        say(format!("The next patch would create the file {name},\nwhich already exists!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")).await?;
        ctx.out(ignored("").as_bytes()).await?;
        return Ok(1);
    }
    if deletes && existing.is_none() && !creates {
        say(format!("The next patch would delete the file {name},\nwhich does not exist!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")).await?;
        ctx.out(ignored("").as_bytes()).await?;
        return Ok(1);
    }
    let read_from = match &o.output {
        Some(out) => format!("{out} (read from {name})"),
        None => name.clone(),
    };
    say(format!("{verb} file {read_from}\n")).await?;
    let old = existing.clone().unwrap_or_default();
    let r = apply_hunks(ctx, o, &old, &hunks).await?;
    let rej_name = format!("{name}.rej");
    if r.reversed {
        let m = if o.forward {
            "Reversed (or previously applied) patch detected!  Skipping patch.\n"
        } else {
            "Reversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n"
        };
        say(m.to_string()).await?;
        ctx.out(ignored(&format!(" -- saving rejects to file {rej_name}")).as_bytes()).await?;
        if !o.dry_run {
            let all: Vec<(&Hunk, isize)> = fp.hunks.iter().map(|h| (h, 0)).collect();
            write(ctx, &rej_name, &reject_text(fp, o, &all)).await?;
        }
        return Ok(1);
    }
    if o.dry_run {
        if !r.failed.is_empty() {
            let m = format!("{} out of {} FAILED\n", r.failed.len(), plural(total, "hunk"));
            ctx.out(m.as_bytes()).await?;
            return Ok(1);
        }
        return Ok(0);
    }
    let target = match &o.output {
        Some(out) => ctx.resolve(out),
        None => full.clone(),
    };
    if o.output.is_none() && (o.backup || (o.backup_mismatch && r.mismatch)) {
        write(ctx, &format!("{name}.orig"), &old).await?;
    }
    let remove = o.output.is_none() && r.out.is_empty() && (deletes || o.remove_empty) && r.failed.is_empty();
    if remove {
        let _ = ctx.fs.remove_file(&target).await;
    } else {
        if let Some(parent) = Some(crate::fs::path::parent(&target)) {
            let _ = ctx.fs.mkdir(parent, true).await;
        }
        if let Err(e) = ctx.fs.write(&target, &r.out).await {
            return Err(UError::new(2, format!("**** Can't create file {}: {e}", o.output.as_deref().unwrap_or(&name))));
        }
    }
    if r.failed.is_empty() {
        return Ok(0);
    }
    let failed: Vec<(&Hunk, isize)> = r.failed.iter().filter_map(|&(i, shift)| Some((hunks.get(i)?, shift))).collect();
    let m =
        format!("{} out of {} FAILED -- saving rejects to file {rej_name}\n", r.failed.len(), plural(total, "hunk"));
    ctx.out(m.as_bytes()).await?;
    write(ctx, &rej_name, &reject_text(fp, o, &failed)).await?;
    Ok(1)
}

async fn write(ctx: &CommandContext<'_>, name: &str, data: &[u8]) -> Result<(), IoError> {
    if let Err(e) = ctx.fs.write(&ctx.resolve(name), data).await {
        ctx.err(format!("**** Can't create file {name}: {e}")).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::run;

    /// Odd hunks and files never panic, whatever the status.
    #[test]
    fn odd_input_does_not_panic() {
        let cases = [
            "--- a\n+++ a\n@@ -99999999999999999999,1 +1 @@\n-x\n",
            "--- a\n+++ a\n@@ -5,0 +5,1 @@\n+x\n",
            "--- a\n+++ a\n@@ -0,0 +0,0 @@\n",
            "--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n@@ -1 +1 @@\n-y\n+z\n",
            "--- a\n+++ a\n@@ -3,2 +1,2 @@\n x\n x\n",
            "--- a\n+++ a\n@@ -1,2 +1,2 @@\n\\ No newline\n x\n",
            "--- a\n+++ a\n@@ -1,1 +1,1 @@\n?x\n",
        ];
        for c in cases {
            for file in ["", "x\n", "x\nx\nx\n", "x"] {
                let o = run(&["patch", "-F", "3"], &[("a", file)], c);
                assert!((0..=2).contains(&o.status), "{c:?} on {file:?}: {o:?}");
            }
        }
    }
}
