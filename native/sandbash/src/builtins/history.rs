//! `history`: the session's exec'd scripts, numbered (`history`, `history N`,
//! `history -c`, `history -d N`). Each exec is one entry, as one line typed at
//! an interactive prompt would be; with history turned off it lists nothing.
//! `fc` lists, edits and re-runs those entries; `bind` has no line editor to
//! bind keys in (bash's warning for a shell without one).

use crate::interp::Fds;
use crate::state::ShellState;

pub async fn history(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    // Turned off, the list is empty (bash without `set -o history`).
    let h = sh.history.clone().unwrap_or_else(|| crate::state::history::History::new(1));
    let args = &argv[1..];
    match args.first().map(String::as_str) {
        Some("-c") => {
            h.lock().clear();
            0
        }
        Some("-d") => {
            let n = args.get(1).and_then(|a| a.parse::<u64>().ok());
            match n {
                Some(n) if h.lock().delete(n) => 0,
                _ => {
                    let shown = args.get(1).map(String::as_str).unwrap_or("");
                    fds.shell_err(sh.loc(), &format!("history: {shown}: history position out of range")).await;
                    1
                }
            }
        }
        Some(a) if a.starts_with('-') && a.len() > 1 => {
            fds.shell_err(sh.loc(), &format!("history: {a}: invalid option")).await;
            let _ = fds.stderr.write(b"history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]\n").await;
            2
        }
        count => {
            let n = match count.map(str::parse::<usize>) {
                None => usize::MAX,
                Some(Ok(n)) => n,
                Some(Err(_)) => {
                    let shown = count.unwrap_or("");
                    fds.shell_err(sh.loc(), &format!("history: {shown}: numeric argument required")).await;
                    return 1;
                }
            };
            let text: String = {
                let h = h.lock();
                let skip = h.entries().len().saturating_sub(n);
                h.entries().skip(skip).map(|e| format!("{:>5}  {}\n", e.number, e.line)).collect()
            };
            match fds.stdout.write_str(&text).await {
                Ok(()) => 0,
                Err(_) => 1,
            }
        }
    }
}

const FC_USAGE: &str = "fc: usage: fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]\n";

/// `fc -l [-nr] [first [last]]`, `fc -s [pat=rep] [command]` and
/// `fc [-e ename] [first [last]]` over the entries before the running one.
pub async fn fc(sh: &mut ShellState, argv: &[String], fds: &Fds) -> crate::interp::Res {
    let (mut numbering, mut reverse, mut listing, mut execute) = (true, false, false, false);
    let mut editor: Option<String> = None;
    let mut i = 1;
    // Options end at the first argument that is a number (`-2` is one).
    while let Some(a) = argv.get(i) {
        let is_number = a.strip_prefix('-').unwrap_or(a).parse::<u64>().is_ok();
        if is_number || !a.starts_with('-') || a == "-" {
            break;
        }
        i += 1;
        if a == "--" {
            break;
        }
        for (k, c) in a[1..].char_indices() {
            match c {
                'n' => numbering = false,
                'l' => listing = true,
                'r' => reverse = true,
                's' => execute = true,
                'e' => {
                    let rest = &a[1 + k + 1..];
                    editor = if rest.is_empty() {
                        i += 1;
                        argv.get(i - 1).cloned()
                    } else {
                        Some(rest.to_string())
                    };
                    if editor.is_none() {
                        fds.shell_err(sh.loc(), "fc: -e: option requires an argument").await;
                        let _ = fds.stderr.write_str(FC_USAGE).await;
                        return Ok(2);
                    }
                    break;
                }
                c => {
                    fds.shell_err(sh.loc(), &format!("fc: -{c}: invalid option")).await;
                    let _ = fds.stderr.write_str(FC_USAGE).await;
                    return Ok(2);
                }
            }
        }
    }
    let rest = &argv[i.min(argv.len())..];
    execute |= editor.as_deref() == Some("-");
    // The entries before this exec's own (the last one, while it runs).
    let lines: Vec<(u64, String)> = match &sh.history {
        Some(h) => {
            let h = h.lock();
            let n = h.entries().len().saturating_sub(1);
            h.entries().take(n).map(|e| (e.number, e.line.clone())).collect()
        }
        None if execute => Vec::new(),
        None => return Ok(0),
    };
    let find = |spec: Option<&str>| -> Option<usize> {
        let last = lines.len().checked_sub(1)?;
        let Some(spec) = spec else { return Some(last) };
        let (neg, digits) = match spec.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, spec),
        };
        if digits.starts_with(|c: char| c.is_ascii_digit()) {
            let n: i64 = digits.chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap_or(0);
            return Some(match (neg, n) {
                (_, 0) => last,
                (true, n) => (last as i64 + 1 - n).max(0) as usize,
                (false, n) => lines.iter().position(|(num, _)| *num as i64 >= n).unwrap_or(last).min(last),
            });
        }
        (0..=last).rev().find(|&j| lines[j].1.starts_with(spec))
    };
    if execute {
        let mut subs: Vec<(&str, &str)> = Vec::new();
        let mut k = 0;
        while let Some((pat, rep)) = rest.get(k).and_then(|w| w.split_once('=')) {
            subs.push((pat, rep));
            k += 1;
        }
        let Some(j) = find(rest.get(k).map(String::as_str)) else {
            fds.shell_err(sh.loc(), "fc: no command found").await;
            return Ok(1);
        };
        let mut command = lines[j].1.clone();
        for (pat, rep) in subs {
            if !pat.is_empty() {
                command = command.replacen(pat, rep, 1);
            }
        }
        let _ = fds.stderr.write_str(&format!("{command}\n")).await;
        return crate::interp::run_string(sh, &command, fds, "fc").await;
    }
    let (begin, end) = match rest {
        [] if listing => (lines.len().saturating_sub(16), lines.len().checked_sub(1)),
        [] => (lines.len().saturating_sub(1), lines.len().checked_sub(1)),
        [first] => {
            let b = find(Some(first));
            (b.unwrap_or(0), if listing { lines.len().checked_sub(1).filter(|_| b.is_some()) } else { b })
        }
        [first, last, ..] => match (find(Some(first)), find(Some(last))) {
            (Some(b), Some(e)) => (b, Some(e)),
            _ => (0, None),
        },
    };
    let Some(end) = end else {
        fds.shell_err(sh.loc(), "fc: history specification out of range").await;
        return Ok(1);
    };
    let (begin, end, reverse) = if end < begin { (end, begin, true) } else { (begin, end, reverse) };
    let mut picked: Vec<&(u64, String)> = lines[begin..=end].iter().collect();
    if reverse {
        picked.reverse();
    }
    if listing {
        let out: String =
            picked.iter().map(|(n, l)| if numbering { format!("{n}\t {l}\n") } else { format!("\t {l}\n") }).collect();
        let _ = fds.stdout.write_str(&out).await;
        return Ok(0);
    }
    // Edit the lines in a file with FCEDIT (else EDITOR, else vi), then run
    // what the editor left, each line shown as it is read.
    let text: String = picked.iter().map(|(_, l)| format!("{l}\n")).collect();
    let file = format!("/tmp/bash-fc.{}", crate::expand::param::next_random() % 1_000_000);
    if let Err(e) = sh.fs.write(&file, text.as_bytes()).await {
        fds.shell_err(sh.loc(), &format!("fc: {file}: cannot open temp file: {e}")).await;
        return Ok(1);
    }
    let editor = editor
        .or_else(|| sh.get_var("FCEDIT").filter(|v| !v.is_empty()))
        .or_else(|| sh.get_var("EDITOR").filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "vi".to_string());
    let status = crate::interp::run_string(sh, &format!("{editor} {file}"), fds, "fc").await?;
    let edited = sh.fs.read(&file).await.unwrap_or_default();
    let _ = sh.fs.remove_file(&file).await;
    if status != 0 {
        return Ok(1);
    }
    let edited = crate::raw_bytes::decode_vec(edited);
    let _ = fds.stderr.write_str(&edited).await;
    crate::interp::run_string(sh, &edited, fds, "fc").await
}

/// `bind`: no line editor here, as in a shell reading a script.
pub async fn bind(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    // bash warns first, then reads the options.
    // Only the first word: the options with an argument are not read here.
    if let Some(c) = super::unknown_option(&argv[..argv.len().min(2)], "lpsvPSVXmfqurx") {
        fds.shell_err(sh.loc(), "bind: warning: line editing not enabled").await;
        let usage = "bind: usage: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]";
        return super::usage_error(sh, fds, &format!("bind: -{c}: invalid option"), usage).await;
    }
    fds.shell_err(sh.loc(), "bind: warning: line editing not enabled").await;
    0
}

#[cfg(test)]
mod tests {
    /// With the session's history, each exec is one entry, as one line typed
    /// at bash's prompt; the expectations are an interactive bash 5.2's.
    async fn session(lines: &[&str]) -> crate::Bash {
        let mut bash = crate::Bash::builder().build().expect("build");
        for l in lines {
            bash.exec(l).await.expect("exec");
        }
        bash
    }

    async fn run(bash: &mut crate::Bash, script: &str) -> (String, String, i32) {
        let r = bash.exec(script).await.expect("exec");
        (String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned(), r.exit_code)
    }

    #[tokio::test]
    async fn fc_lists_the_entries_before_its_own() {
        let mut b = session(&["echo a", "echo b", "x=1"]).await;
        assert_eq!(run(&mut b, "fc -l").await.0, "1\t echo a\n2\t echo b\n3\t x=1\n");
        assert_eq!(run(&mut b, "fc -l -1").await.0, "4\t fc -l\n");
        assert_eq!(run(&mut b, "fc -ln 1 2").await.0, "\t echo a\n\t echo b\n");
        assert_eq!(run(&mut b, "fc -lr 1 2").await.0, "2\t echo b\n1\t echo a\n");
        assert_eq!(run(&mut b, "fc -l 2 1").await.0, "2\t echo b\n1\t echo a\n");
        assert_eq!(
            run(&mut b, "fc -l echo").await.0,
            "2\t echo b\n3\t x=1\n4\t fc -l\n5\t fc -l -1\n6\t fc -ln 1 2\n7\t fc -lr 1 2\n8\t fc -l 2 1\n"
        );
        let (_, err, status) = run(&mut b, "fc -l nosuch").await;
        assert_eq!((err.as_str(), status), ("bash: line 1: fc: history specification out of range\n", 1));
    }

    #[tokio::test]
    async fn fc_s_runs_an_entry_again_with_substitutions() {
        let mut b = session(&["echo one two", "x=5"]).await;
        assert_eq!(run(&mut b, "fc -s").await, (String::new(), "x=5\n".into(), 0));
        assert_eq!(run(&mut b, "fc -s one=1 echo").await, ("1 two\n".into(), "echo 1 two\n".into(), 0));
        assert_eq!(run(&mut b, "fc -s nosuch").await.1, "bash: line 1: fc: no command found\n");
        let (_, err, status) = run(&mut b, "fc -q").await;
        assert_eq!(status, 2);
        assert!(err.contains("fc: -q: invalid option\nfc: usage: fc [-e ename]"), "{err}");
    }

    /// An entry that is itself `fc -s` runs itself again: nested as evals
    /// are, it stops at `max_function_depth`.
    #[tokio::test]
    async fn fc_s_of_itself_is_bounded() {
        let mut b = session(&[]).await;
        let _ = b.exec("fc -s").await;
        let err = b.exec("fc -s").await.map(|r| r.exit_code).unwrap_err();
        assert!(err.to_string().contains("max_function_depth"), "{err}");
    }

    #[tokio::test]
    async fn fc_edits_with_fcedit_then_runs_the_result() {
        let mut b = session(&["echo old"]).await;
        b.exec("ed() { echo 'echo new' > \"$1\"; }").await.expect("exec");
        let (out, err, status) = run(&mut b, "FCEDIT=ed fc -1").await;
        assert_eq!((out.as_str(), err.as_str(), status), ("new\n", "echo new\n", 0));
    }
}
