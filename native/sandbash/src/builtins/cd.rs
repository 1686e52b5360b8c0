//! `cd` and `pwd`.

use super::fail;
use crate::fs::path;
use crate::interp::Fds;
use crate::state::ShellState;

pub async fn cd(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let args: Vec<&str> = argv[1..].iter().map(String::as_str).filter(|a| !matches!(*a, "-L" | "-P" | "--")).collect();
    if args.len() > 1 {
        return fail(sh.loc(), fds, "cd: too many arguments", 1).await;
    }
    let mut print = false;
    let target = match args.first() {
        None => match sh.get_var("HOME") {
            Some(h) if !h.is_empty() => h,
            _ => return fail(sh.loc(), fds, "cd: HOME not set", 1).await,
        },
        Some(&"-") => match sh.get_var("OLDPWD") {
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
    if let Err(m) = chdir(sh, &target).await {
        return fail(sh.loc(), fds, &format!("cd: {m}"), 1).await;
    }
    if print {
        let _ = fds.stdout.write(format!("{}\n", sh.cwd).as_bytes()).await;
    }
    0
}

/// Change the working directory to `target` (relative to the current one),
/// setting PWD and OLDPWD. `Err` is bash's message after `cd: `.
pub async fn chdir(sh: &mut ShellState, target: &str) -> Result<(), String> {
    let dest = path::resolve(&sh.cwd, target);
    match sh.fs.metadata(&dest).await {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(format!("{target}: Not a directory")),
        Err(e) => return Err(format!("{target}: {e}")),
    }
    let old = std::mem::replace(&mut sh.cwd, dest.clone());
    let _ = sh.set_var("OLDPWD", old);
    let _ = sh.set_var("PWD", dest);
    Ok(())
}

pub async fn pwd(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let physical = argv[1..].iter().any(|a| a == "-P");
    let p =
        if physical { sh.fs.canonicalize(&sh.cwd).await.unwrap_or_else(|_| sh.cwd.clone()) } else { sh.cwd.clone() };
    match fds.stdout.write(format!("{p}\n").as_bytes()).await {
        Ok(()) => 0,
        Err(_) => 1,
    }
}
