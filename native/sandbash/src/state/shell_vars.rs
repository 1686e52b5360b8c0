//! Variables bash sets for itself when it starts, as ordinary variables so
//! they show in `declare -p`, `set`, `compgen -v` and `${!prefix*}`, and
//! test as set (`[[ -v BASH_VERSION ]]`); scripts gate features on
//! `${BASH_VERSINFO[0]}`. The values describe the bash the sandbox emulates.

use super::{Value, Variables};

/// The version bash reports.
pub const VERSION: &str = "5.2.15(1)-release";

/// Set them in `vars` (a new shell: a session or a nested `bash`).
pub fn install(vars: &mut Variables) {
    for (name, value) in [
        ("BASH_VERSION", VERSION),
        ("HOSTTYPE", "x86_64"),
        ("MACHTYPE", "x86_64-pc-linux-gnu"),
        ("OSTYPE", "linux-gnu"),
    ] {
        vars.entry(name).value = Some(Value::Scalar(value.to_string()));
    }
    let info = ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"];
    let v = vars.entry("BASH_VERSINFO");
    v.value = Some(Value::Indexed(info.iter().enumerate().map(|(i, s)| (i as i64, s.to_string())).collect()));
    v.readonly = true;
    // The sandbox's user and its parent process, fixed.
    for (name, value) in [("UID", "1000"), ("EUID", "1000"), ("PPID", "1")] {
        let v = vars.entry(name);
        v.value = Some(Value::Scalar(value.to_string()));
        v.integer = true;
        v.readonly = true;
    }
}
