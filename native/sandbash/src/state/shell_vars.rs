//! Variables bash sets for itself when it starts, as ordinary variables so
//! they show in `declare -p`, `set`, `compgen -v` and `${!prefix*}`, and
//! test as set (`[[ -v BASH_VERSION ]]`); scripts gate features on
//! `${BASH_VERSINFO[0]}`. The values describe the bash the sandbox emulates.
//! They are made once and shared by every shell (a write copies one), so a
//! session pays a table slot for each, not the values.

use super::{Value, Var, Variables};
use std::sync::{Arc, LazyLock};

/// The version bash reports.
pub const VERSION: &str = "5.2.15(1)-release";

static SHARED: LazyLock<Vec<(&'static str, Arc<Var>)>> = LazyLock::new(|| {
    let mut all = Vec::new();
    for (name, value) in [
        ("BASH_VERSION", VERSION),
        ("HOSTTYPE", "x86_64"),
        ("MACHTYPE", "x86_64-pc-linux-gnu"),
        ("OSTYPE", "linux-gnu"),
        // Where `enable -f` would look (it loads nothing here); Debian's default.
        (
            "BASH_LOADABLES_PATH",
            "/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:.",
        ),
    ] {
        all.push((name, Arc::new(Var::scalar(value.to_string()))));
    }
    let info = ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"];
    let versinfo = Var {
        value: Some(Value::Indexed(info.iter().enumerate().map(|(i, s)| (i as i64, s.to_string())).collect())),
        readonly: true,
        ..Var::empty()
    };
    all.push(("BASH_VERSINFO", Arc::new(versinfo)));
    // The sandbox's user and its parent process, fixed.
    for (name, value) in [("UID", "1000"), ("EUID", "1000"), ("PPID", "1")] {
        let v = Var { integer: true, readonly: true, ..Var::scalar(value.to_string()) };
        all.push((name, Arc::new(v)));
    }
    all
});

/// How many variables [`install`] adds.
pub fn count() -> usize {
    SHARED.len()
}

/// Set `SHLVL` for a shell started from one whose exported level is
/// `parent` (`execed`: as its last command); bash's warning when too high.
pub fn set_level(vars: &mut Variables, parent: Option<&Var>, execed: bool) -> Option<String> {
    let parent = parent.filter(|v| v.exported).and_then(|v| match &v.value {
        Some(Value::Scalar(s)) => Some(s.as_str()),
        _ => None,
    });
    let (level, warning) = crate::interp::nofork::child_level(parent, execed);
    let v = vars.entry("SHLVL");
    v.value = Some(Value::Scalar(level.to_string()));
    v.exported = true;
    warning
}

/// Set them in `vars` (a new shell: a session or a nested `bash`).
/// `UID` and `EUID` of a session whose user is root.
pub fn make_root(vars: &mut Variables) {
    for name in ["UID", "EUID"] {
        let v = Var { integer: true, readonly: true, ..Var::scalar("0".to_string()) };
        vars.insert_shared(name, Arc::new(v));
    }
}

pub fn install(vars: &mut Variables) {
    for (name, var) in SHARED.iter() {
        vars.insert_shared(name, var.clone());
    }
}
