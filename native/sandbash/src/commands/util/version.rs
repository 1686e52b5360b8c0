//! `--version` texts of the GNU tools.

/// The licence block GNU programs of 2022 print after their version line.
pub const GNU_LICENSE_2022: &str = "Copyright (C) 2022 Free Software Foundation, Inc.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n";

/// `NAME --version` of a GNU coreutils 9.1 utility, authors included.
pub fn coreutils_version(name: &str) -> String {
    // GNU prints its own name, not the path it was run by.
    let name = name.rsplit('/').next().unwrap_or(name);
    let mut text = format!("{name} (GNU coreutils) 9.1\n{GNU_LICENSE_2022}");
    if let Some(who) = crate::commands::UTILITIES.iter().find(|u| u.name == name).and_then(|u| u.authors) {
        text.push_str(&format!("\nWritten by {who}\n"));
    }
    text
}
