//! `getopts optstring name [arg ...]`: one option per call, as bash walks them.

use crate::interp::Fds;
use crate::state::ShellState;

/// Messages of getopts have no line number: bash prints them as `$0: msg`.
async fn say(sh: &ShellState, fds: &Fds, msg: &str) {
    let silenced = sh.get_var("OPTERR").is_some_and(|v| v.trim() == "0");
    if !silenced {
        let _ = fds.stderr.write_str(&format!("{}: {msg}\n", sh.arg0)).await;
    }
}

pub async fn getopts(sh: &mut ShellState, argv: &[String], fds: &Fds) -> i32 {
    let (Some(spec), Some(name)) = (argv.get(1), argv.get(2)) else {
        let _ = fds.stderr.write(b"getopts: usage: getopts optstring name [arg ...]\n").await;
        return 2;
    };
    // A bad name is found when it is assigned: the option is read first
    // (OPTARG and OPTIND move on).
    let bad_name = !super::valid_name(name);
    let args: Vec<String> = if argv.len() > 3 { argv[3..].to_vec() } else { sh.positional.to_vec() };
    let (silent, spec) = match spec.strip_prefix(':') {
        Some(rest) => (true, rest),
        None => (false, spec.as_str()),
    };
    let raw = sh.get_var("OPTIND").and_then(|v| v.trim().parse::<i64>().ok()).unwrap_or(1);
    let mut optind = raw.max(1) as usize;
    // A cluster position only counts while OPTIND still points at its
    // argument; OPTIND=0 starts over.
    let mut sub = if sh.getopts_pos.0 == optind && raw > 0 { sh.getopts_pos.1 } else { 0 };
    // Past the end: OPTIND comes back to one after the last argument.
    optind = optind.min(args.len() + 1);
    // A position past the end of the argument (its text changed) starts it over.
    if args.get(optind - 1).is_none_or(|a| a.chars().count() <= sub) {
        sub = 0;
    }
    let mut set = |sh: &mut ShellState, var: &str, val: Option<String>| match val {
        _ if bad_name && var == name => {}
        Some(v) => {
            let _ = sh.set_var(var, v);
        }
        None => {
            let _ = sh.vars.unset(var);
        }
    };
    if sub == 0 {
        let arg = args.get(optind - 1).map(String::as_str);
        match arg {
            Some("--") => {
                optind += 1;
                finish(sh, name, optind, &mut set);
                return bad_name_status(sh, fds, name, bad_name, 1).await;
            }
            Some(a) if a.len() > 1 && a.starts_with('-') => sub = 1,
            _ => {
                finish(sh, name, optind, &mut set);
                return bad_name_status(sh, fds, name, bad_name, 1).await;
            }
        }
    }
    let arg: Vec<char> = args.get(optind - 1).map(|a| a.chars().collect()).unwrap_or_default();
    let Some(&c) = arg.get(sub) else {
        finish(sh, name, optind, &mut set);
        return bad_name_status(sh, fds, name, bad_name, 1).await;
    };
    sub += 1;
    if sub >= arg.len() {
        optind += 1;
        sub = 0;
    }
    let found = (c != ':').then(|| spec.find(c)).flatten();
    let (opt, optarg) = match found {
        None => {
            if silent {
                ("?".to_string(), Some(c.to_string()))
            } else {
                say(sh, fds, &format!("illegal option -- {c}")).await;
                ("?".to_string(), None)
            }
        }
        Some(i) if spec[i + c.len_utf8()..].starts_with(':') => {
            if sub != 0 {
                let rest: String = arg[sub..].iter().collect();
                optind += 1;
                sub = 0;
                (c.to_string(), Some(rest))
            } else if let Some(v) = args.get(optind - 1) {
                optind += 1;
                (c.to_string(), Some(v.clone()))
            } else if silent {
                (":".to_string(), Some(c.to_string()))
            } else {
                say(sh, fds, &format!("option requires an argument -- {c}")).await;
                ("?".to_string(), None)
            }
        }
        Some(_) => (c.to_string(), None),
    };
    set(sh, "OPTARG", optarg);
    set(sh, name, Some(opt));
    set(sh, "OPTIND", Some(optind.to_string()));
    sh.getopts_pos = (optind, sub);
    bad_name_status(sh, fds, name, bad_name, 0).await
}

/// `status`, unless the variable's name was bad: then bash's message and 1.
async fn bad_name_status(sh: &ShellState, fds: &Fds, name: &str, bad: bool, status: i32) -> i32 {
    if bad {
        return super::fail(sh.loc(), fds, &format!("getopts: `{name}': not a valid identifier"), 1).await;
    }
    status
}

/// No more options: `name` becomes `?` and OPTIND the first operand.
fn finish(sh: &mut ShellState, name: &str, optind: usize, set: &mut impl FnMut(&mut ShellState, &str, Option<String>)) {
    set(sh, name, Some("?".into()));
    set(sh, "OPTARG", None);
    set(sh, "OPTIND", Some(optind.to_string()));
    sh.getopts_pos = (0, 0);
}
