//! `cd` and `pwd`.

use super::fail;
use crate::fs::path;
use crate::interp::Fds;
use crate::state::ShellState;

const CD_USAGE: &str = "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n";

pub async fn cd(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    // `cd [-L|[-P [-e]] [-@]] [dir]`: the last of -L and -P counts.
    let mut physical = false;
    let mut i = 1;
    while let Some(a) = argv.get(i).filter(|a| a.starts_with('-') && a.len() > 1) {
        i += 1;
        if a == "--" {
            break;
        }
        for c in a[1..].chars() {
            match c {
                'L' => physical = false,
                'P' => physical = true,
                'e' | '@' => {}
                c => {
                    fds.shell_err(sh.loc(), &format!("cd: -{c}: invalid option")).await;
                    let _ = fds.stderr.write_str(CD_USAGE).await;
                    return 2;
                }
            }
        }
    }
    let args = &argv[i..];
    if args.len() > 1 {
        return fail(sh.loc(), fds, "cd: too many arguments", 1).await;
    }
    let mut print = false;
    let target = match args.first().map(String::as_str) {
        None => match sh.get_var("HOME") {
            Some(h) if !h.is_empty() => h,
            _ => return fail(sh.loc(), fds, "cd: HOME not set", 1).await,
        },
        Some("-") => match sh.get_var("OLDPWD") {
            Some(o) if !o.is_empty() => {
                print = true;
                o
            }
            _ => return fail(sh.loc(), fds, "cd: OLDPWD not set", 1).await,
        },
        Some(t) => t.to_string(),
    };
    if target.is_empty() {
        return 0;
    }
    // CDPATH: a relative name not starting with `.` or `..` is looked up in
    // each of its directories (an empty entry is the current one); a
    // directory found through a non-empty entry is printed.
    let mut dest = target.clone();
    let dotted = target == "." || target == ".." || target.starts_with("./") || target.starts_with("../");
    if !target.starts_with('/') && !dotted {
        if let Some(cdpath) = sh.get_var("CDPATH").filter(|c| !c.is_empty()) {
            for entry in cdpath.split(':') {
                let base = if entry.is_empty() { "." } else { entry };
                let cand = path::join(base, &target);
                let full = path::resolve(&sh.cwd, &cand);
                if sh.fs.metadata(&full).await.is_ok_and(|m| m.is_dir()) {
                    print |= !entry.is_empty();
                    dest = cand;
                    break;
                }
            }
        }
    }
    if let Err(m) = chdir_with(sh, &dest, physical).await {
        let m = m.replacen(&dest, &target, 1);
        return fail(sh.loc(), fds, &format!("cd: {m}"), 1).await;
    }
    if print {
        let _ = fds.stdout.write_str(&format!("{}\n", sh.cwd)).await;
    }
    0
}

/// Change the working directory to `target` (relative to the current one),
/// setting PWD and OLDPWD. `Err` is bash's message after `cd: `.
pub async fn chdir(sh: &mut ShellState, target: &str) -> Result<(), String> {
    chdir_with(sh, target, false).await
}

/// [`chdir`], logical (`..` removes the name before it, which must be a
/// directory) or physical (`cd -P`: symbolic links resolved first).
async fn chdir_with(sh: &mut ShellState, target: &str, physical: bool) -> Result<(), String> {
    let dest = if physical {
        physical_path(sh, target).await.map_err(|e| format!("{target}: {e}"))?
    } else {
        let mut cur = if target.starts_with('/') { "/".to_string() } else { sh.cwd.clone() };
        for comp in target.split('/') {
            match comp {
                "" | "." => {}
                ".." => {
                    if !sh.fs.metadata(&cur).await.is_ok_and(|m| m.is_dir()) {
                        return Err(format!("{target}: No such file or directory"));
                    }
                    cur = path::parent(&cur).to_string();
                }
                name => cur = path::join(&cur, name),
            }
        }
        path::normalize(&cur)
    };
    match sh.fs.metadata(&dest).await {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(format!("{target}: Not a directory")),
        Err(e) => return Err(format!("{target}: {e}")),
    }
    // Entering a directory takes searching it.
    if !sh.fs.access(&dest, 1).await.unwrap_or(false) {
        return Err(format!("{target}: Permission denied"));
    }
    let old = std::mem::replace(&mut sh.cwd, dest.clone());
    let _ = sh.set_var("OLDPWD", old);
    let _ = sh.set_var("PWD", dest);
    Ok(())
}

/// `target` with every symbolic link on its way resolved.
async fn physical_path(sh: &ShellState, target: &str) -> Result<String, crate::fs::FsError> {
    let start = if target.starts_with('/') { "/".to_string() } else { sh.cwd.clone() };
    let mut cur = sh.fs.canonicalize(&start).await.unwrap_or(start);
    for comp in target.split('/') {
        match comp {
            "" | "." => {}
            ".." => cur = path::parent(&cur).to_string(),
            name => cur = sh.fs.canonicalize(&path::join(&cur, name)).await?,
        }
    }
    Ok(cur)
}

pub async fn pwd(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    if let Some(c) = super::unknown_option(argv, "LP") {
        return super::usage_error(sh, fds, &format!("pwd: -{c}: invalid option"), "pwd: usage: pwd [-LP]").await;
    }
    let physical = argv[1..].iter().any(|a| a == "-P");
    let p =
        if physical { sh.fs.canonicalize(&sh.cwd).await.unwrap_or_else(|_| sh.cwd.clone()) } else { sh.cwd.clone() };
    match fds.stdout.write_str(&format!("{p}\n")).await {
        Ok(()) => 0,
        Err(_) => 1,
    }
}
