//! `getconf VAR` / `getconf PATH_VAR PATH` / `getconf -a [PATH]` (glibc 2.36):
//! the sandbox's fixed system configuration. The processor count is `nproc`'s,
//! the machine matches `uname`; `-a` lists the variables this table holds.

use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Getconf;

const USAGE: &str = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n";

/// Whether a variable is a sysconf/confstr one or a pathconf one (needs PATH).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sys,
    Path,
}

/// Name, kind, value (`None`: "undefined"), in glibc's `-a` order.
const VARS: &[(&str, Kind, Option<&str>)] = &[
    ("LINK_MAX", Kind::Path, Some("65000")),
    ("_POSIX_LINK_MAX", Kind::Path, Some("65000")),
    ("MAX_CANON", Kind::Path, Some("255")),
    ("_POSIX_MAX_CANON", Kind::Path, Some("255")),
    ("MAX_INPUT", Kind::Path, Some("255")),
    ("_POSIX_MAX_INPUT", Kind::Path, Some("255")),
    ("NAME_MAX", Kind::Path, Some("255")),
    ("_POSIX_NAME_MAX", Kind::Path, Some("255")),
    ("PATH_MAX", Kind::Path, Some("4096")),
    ("_POSIX_PATH_MAX", Kind::Path, Some("4096")),
    ("PIPE_BUF", Kind::Path, Some("4096")),
    ("_POSIX_PIPE_BUF", Kind::Path, Some("4096")),
    ("_POSIX_NO_TRUNC", Kind::Path, Some("1")),
    ("_POSIX_VDISABLE", Kind::Path, Some("0")),
    ("ARG_MAX", Kind::Sys, Some("2097152")),
    ("ATEXIT_MAX", Kind::Sys, Some("2147483647")),
    ("CHAR_BIT", Kind::Sys, Some("8")),
    ("CHAR_MAX", Kind::Sys, Some("127")),
    ("CHAR_MIN", Kind::Sys, Some("-128")),
    ("CHILD_MAX", Kind::Sys, Some("96365")),
    ("CLK_TCK", Kind::Sys, Some("100")),
    ("INT_MAX", Kind::Sys, Some("2147483647")),
    ("INT_MIN", Kind::Sys, Some("-2147483648")),
    ("IOV_MAX", Kind::Sys, Some("1024")),
    ("LOGNAME_MAX", Kind::Sys, Some("256")),
    ("LONG_BIT", Kind::Sys, Some("64")),
    ("MB_LEN_MAX", Kind::Sys, Some("16")),
    ("NGROUPS_MAX", Kind::Sys, Some("65536")),
    ("NZERO", Kind::Sys, Some("20")),
    ("OPEN_MAX", Kind::Sys, Some("1024")),
    ("PAGESIZE", Kind::Sys, Some("4096")),
    ("PAGE_SIZE", Kind::Sys, Some("4096")),
    ("SCHAR_MAX", Kind::Sys, Some("127")),
    ("SCHAR_MIN", Kind::Sys, Some("-128")),
    ("SHRT_MAX", Kind::Sys, Some("32767")),
    ("SHRT_MIN", Kind::Sys, Some("-32768")),
    ("SSIZE_MAX", Kind::Sys, Some("32767")),
    ("TTY_NAME_MAX", Kind::Sys, Some("32")),
    ("TZNAME_MAX", Kind::Sys, None),
    ("UCHAR_MAX", Kind::Sys, Some("255")),
    ("UINT_MAX", Kind::Sys, Some("4294967295")),
    ("ULONG_MAX", Kind::Sys, Some("18446744073709551615")),
    ("USHRT_MAX", Kind::Sys, Some("65535")),
    ("WORD_BIT", Kind::Sys, Some("32")),
    ("_AVPHYS_PAGES", Kind::Sys, Some("786432")),
    ("_NPROCESSORS_CONF", Kind::Sys, None),
    ("_NPROCESSORS_ONLN", Kind::Sys, None),
    ("_PHYS_PAGES", Kind::Sys, Some("1048576")),
    ("_POSIX_ARG_MAX", Kind::Sys, Some("2097152")),
    ("_POSIX_VERSION", Kind::Sys, Some("200809")),
    ("_XOPEN_VERSION", Kind::Sys, Some("700")),
    ("BC_BASE_MAX", Kind::Sys, Some("99")),
    ("BC_DIM_MAX", Kind::Sys, Some("2048")),
    ("BC_SCALE_MAX", Kind::Sys, Some("99")),
    ("BC_STRING_MAX", Kind::Sys, Some("1000")),
    ("COLL_WEIGHTS_MAX", Kind::Sys, Some("255")),
    ("EXPR_NEST_MAX", Kind::Sys, Some("32")),
    ("LINE_MAX", Kind::Sys, Some("2048")),
    ("POSIX2_LINE_MAX", Kind::Sys, Some("2048")),
    ("POSIX2_VERSION", Kind::Sys, Some("200809")),
    ("RE_DUP_MAX", Kind::Sys, Some("32767")),
    ("PATH", Kind::Sys, Some("/bin:/usr/bin")),
    ("CS_PATH", Kind::Sys, Some("/bin:/usr/bin")),
    ("STREAM_MAX", Kind::Sys, Some("16")),
    ("HOST_NAME_MAX", Kind::Sys, Some("64")),
    ("LOGIN_NAME_MAX", Kind::Sys, Some("256")),
    ("FILESIZEBITS", Kind::Path, Some("64")),
    ("SYMLINK_MAX", Kind::Path, None),
    ("GNU_LIBC_VERSION", Kind::Sys, Some("glibc 2.36")),
    ("GNU_LIBPTHREAD_VERSION", Kind::Sys, Some("NPTL 2.36")),
];

/// A variable's value as printed (`undefined` when it has none).
fn value(name: &str) -> Option<String> {
    if name.starts_with("_NPROCESSORS_") {
        return Some(super::nproc::NPROC.to_string());
    }
    VARS.iter().find(|v| v.0 == name).map(|v| v.2.map_or("undefined".to_string(), str::to_string))
}

#[async_trait]
impl Utility for Getconf {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut args = ctx.args;
        match args.first().map(String::as_str) {
            Some("--help") => {
                ctx.out(
                    b"Usage: getconf [-v SPEC] VAR\n  or:  getconf [-v SPEC] PATH_VAR PATH\n\n\
Get the configuration value for variable VAR, or for variable PATH_VAR\n\
for path PATH.  If SPEC is given, give values for compilation\nenvironment SPEC.\n\n",
                )
                .await?;
                return Ok(0);
            }
            Some("--version") => {
                ctx.out(
                    b"getconf (Debian GLIBC 2.36-9+deb12u14) 2.36\n\
Copyright (C) 2022 Free Software Foundation, Inc.\n\
This is free software; see the source for copying conditions.  There is NO\n\
warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n\
Written by Roland McGrath.\n",
                )
                .await?;
                return Ok(0);
            }
            _ => {}
        }
        if args.first().is_some_and(|a| a == "--") {
            args = &args[1..];
        }
        if args.first().is_some_and(|a| a == "-a") {
            let mut out = String::new();
            for (name, _, _) in VARS {
                let v = value(name).filter(|v| v != "undefined").unwrap_or_default();
                out.push_str(&format!("{name:<35}{v}\n"));
            }
            ctx.out(out.as_bytes()).await?;
            return Ok(0);
        }
        if args.first().is_some_and(|a| a == "-v") {
            if args.len() < 2 {
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(2);
            }
            args = &args[2..];
        }
        let (name, path) = match args {
            [name] => (name, None),
            [name, path] => (name, Some(path)),
            _ => {
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(2);
            }
        };
        let Some(val) = value(name) else {
            return Err(UError::new(2, format!("Unrecognized variable `{name}'")));
        };
        let kind = VARS.iter().find(|v| v.0 == name).map_or(Kind::Sys, |v| v.1);
        match (kind, path) {
            (Kind::Path, Some(p)) => {
                if let Err(e) = ctx.fs.metadata(&ctx.resolve(p)).await {
                    return Err(UError::new(3, format!("pathconf: {p}: {e}")));
                }
            }
            (Kind::Sys, None) => {}
            _ => {
                ctx.stderr.write(USAGE.as_bytes()).await?;
                return Ok(2);
            }
        }
        ctx.out(format!("{val}\n").as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;
    use crate::commands::util::testutil::run;

    const USAGE: &str = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n";

    #[test]
    fn values() {
        check(&["getconf", "PAGE_SIZE"], &[], "", "4096\n", "", 0);
        check(&["getconf", "PAGESIZE"], &[], "", "4096\n", "", 0);
        check(&["getconf", "ARG_MAX"], &[], "", "2097152\n", "", 0);
        check(&["getconf", "PATH"], &[], "", "/bin:/usr/bin\n", "", 0);
        check(&["getconf", "LONG_BIT"], &[], "", "64\n", "", 0);
        check(&["getconf", "NAME_MAX", "/"], &[], "", "255\n", "", 0);
        check(&["getconf", "PATH_MAX", "/"], &[], "", "4096\n", "", 0);
        check(&["getconf", "TZNAME_MAX"], &[], "", "undefined\n", "", 0);
        check(&["getconf", "-v", "POSIX_V7_LP64_OFF64", "CHAR_BIT"], &[], "", "8\n", "", 0);
        // The sandbox's processor count is nproc's.
        let n = run(&["nproc"], &[], "").out;
        check(&["getconf", "_NPROCESSORS_ONLN"], &[], "", &n, "", 0);
    }

    #[test]
    fn errors() {
        check(&["getconf"], &[], "", "", USAGE, 2);
        check(&["getconf", "NAME_MAX"], &[], "", "", USAGE, 2);
        check(&["getconf", "PAGE_SIZE", "/"], &[], "", "", USAGE, 2);
        check(&["getconf", "PAGE_SIZE", "x", "y"], &[], "", "", USAGE, 2);
        check(&["getconf", "FOO"], &[], "", "", "getconf: Unrecognized variable `FOO'\n", 2);
        let msg = "getconf: pathconf: /nonexist: No such file or directory\n";
        check(&["getconf", "NAME_MAX", "/nonexist"], &[], "", "", msg, 3);
    }

    #[test]
    fn all() {
        let out = run(&["getconf", "-a"], &[], "").out;
        assert!(out.contains("\nPAGE_SIZE                          4096\n"), "{out}");
        assert!(out.contains("\nTZNAME_MAX                         \n"), "{out}");
    }
}
