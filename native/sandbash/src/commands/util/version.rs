//! `--version` texts of the GNU tools.

/// The licence block GNU programs of 2022 print after their version line.
pub const GNU_LICENSE_2022: &str = "Copyright (C) 2022 Free Software Foundation, Inc.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n";

/// `find --version` and `xargs --version` (GNU findutils 4.9.0).
pub fn findutils_version(name: &str) -> String {
    let mut text = format!(
        "{name} (GNU findutils) 4.9.0\n{GNU_LICENSE_2022}\nWritten by Eric B. Decker, James Youngman, and Kevin Dalley.\n"
    );
    if name == "find" {
        text.push_str("Features enabled: D_TYPE O_NOFOLLOW(enabled) LEAF_OPTIMISATION FTS(FTS_CWDFD) CBO(level=2) \n");
    }
    text
}

/// `gzip --version` and its `gunzip`/`zcat` (gzip 1.12).
pub fn gzip_version(name: &str) -> String {
    let name = name.rsplit('/').next().unwrap_or(name);
    let tail = "This is free software.  You may redistribute copies of it under the terms of\n\
the GNU General Public License <https://www.gnu.org/licenses/gpl.html>.\n\
There is NO WARRANTY, to the extent permitted by law.\n";
    if name == "gzip" {
        format!("gzip 1.12\nCopyright (C) 2018 Free Software Foundation, Inc.\nCopyright (C) 1993 Jean-loup Gailly.\n{tail}\nWritten by Jean-loup Gailly.\n")
    } else {
        format!("{name} (gzip) 1.12\nCopyright (C) 2007, 2011-2018 Free Software Foundation, Inc.\n{tail}\nWritten by Paul Eggert.\n")
    }
}

/// `diff --version` (GNU diffutils 3.8, of 2021).
pub const DIFF_VERSION: &str = "diff (GNU diffutils) 3.8\n\
Copyright (C) 2021 Free Software Foundation, Inc.\n\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n\
\n\
Written by Paul Eggert, Mike Haertel, David Hayes,\n\
Richard Stallman, and Len Tower.\n";

/// `NAME --version` of a GNU coreutils 9.1 utility, authors included (or of
/// the GNU package the utility comes from).
pub fn coreutils_version(name: &str) -> String {
    // GNU prints its own name, not the path it was run by.
    let name = name.rsplit('/').next().unwrap_or(name);
    // Utilities of other packages, as Debian's print themselves.
    match name {
        "xargs" => return findutils_version(name),
        "column" | "rev" | "more" => return format!("{name} from util-linux 2.38.1\n"),
        "hostname" => return "hostname 3.23\n".into(),
        "file" => return "file-5.44\nmagic file from /etc/magic:/usr/share/misc/magic\n".into(),
        "gunzip" | "zcat" | "gzip" => return gzip_version(name),
        _ => {}
    }
    // Debian's dd names its package without the GNU.
    let package = if name == "dd" { "coreutils" } else { "GNU coreutils" };
    let mut text = format!("{name} ({package}) 9.1\n{GNU_LICENSE_2022}");
    if let Some(who) = crate::commands::UTILITIES.iter().find(|u| u.name == name).and_then(|u| u.authors) {
        text.push_str(&format!("\nWritten by {who}\n"));
    }
    text
}
