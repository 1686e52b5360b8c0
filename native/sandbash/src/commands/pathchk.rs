//! `pathchk [-p] [-P] NAME...` (GNU coreutils): check that file names are
//! valid on this system (existing prefixes must be directories, components
//! at most NAME_MAX = 255 bytes, whole names below PATH_MAX = 4096) or, with
//! `-p`, portable to any POSIX system (14/256 limits, portable characters);
//! `-P` rejects empty names and components starting with `-`.

use super::util::{quote, quote_locale, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::FsError;
use async_trait::async_trait;

pub struct Pathchk;

const SPEC: Spec = Spec::new("pP", &[("portability", Arg::No, "portability")], "[OPTION]... NAME...");

const NAME_MAX: usize = 255;
const PATH_MAX: usize = 4096;
const POSIX_NAME_MAX: usize = 14;
const POSIX_PATH_MAX: usize = 256;

/// The components of `name`, skipping the slashes between them.
fn components(name: &str) -> impl Iterator<Item = &str> {
    name.split('/').filter(|c| !c.is_empty())
}

/// lstat's answer for `name`: whether it exists, or the errno text. Too long
/// a component is ENAMETOOLONG; a file where a directory should be, ENOTDIR.
async fn lstat(ctx: &CommandContext<'_>, name: &str) -> Result<bool, FsError> {
    if name.is_empty() {
        return Err(FsError::NotFound);
    }
    if components(name).any(|c| c.len() > NAME_MAX) || name.len() >= PATH_MAX {
        return Err(FsError::NameTooLong);
    }
    match ctx.fs.symlink_metadata(&ctx.resolve(name)).await {
        Ok(_) => Ok(true),
        Err(FsError::NotFound) => Ok(false),
        Err(e) => Err(e),
    }
}

/// GNU's validate_file_name: why `name` fails, as the error to report.
async fn validate(ctx: &CommandContext<'_>, name: &str, basic: bool, extra: bool) -> UResult<()> {
    if extra && components(name).any(|c| c.starts_with('-')) {
        return Err(UError::new(1, format!("leading '-' in a component of file name {}", quote(name))));
    }
    if (basic || extra) && name.is_empty() {
        return Err(UError::new(1, "empty file name"));
    }
    let mut exists = false;
    if basic {
        let portable = |c: char| c.is_ascii_alphanumeric() || "/._-".contains(c);
        if let Some(c) = name.chars().find(|&c| !portable(c)) {
            let msg = format!("nonportable character {} in file name {}", quote_locale(&c.to_string()), quote(name));
            return Err(UError::new(1, msg));
        }
    } else {
        match lstat(ctx, name).await {
            Ok(e) => exists = e,
            Err(e) => {
                return Err(UError::new(1, format!("{}: {e}", super::util::quotef(name))));
            }
        }
    }
    let max_path = if basic { POSIX_PATH_MAX } else { PATH_MAX };
    if (basic || !exists) && name.len() >= max_path {
        let msg = format!("limit {} exceeded by length {} of file name {}", max_path - 1, name.len(), quote(name));
        return Err(UError::new(1, msg));
    }
    // Only names with a component over the POSIX minimum need the check.
    let check_components = basic || (!exists && components(name).any(|c| c.len() > POSIX_NAME_MAX));
    if check_components {
        let max = if basic { POSIX_NAME_MAX } else { NAME_MAX };
        if let Some(c) = components(name).find(|c| c.len() > max) {
            let msg = format!("limit {max} exceeded by length {} of file name component {}", c.len(), quote_locale(c));
            return Err(UError::new(1, msg));
        }
    }
    Ok(())
}

#[async_trait]
impl Utility for Pathchk {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let portability = p.has("portability");
        let basic = p.has("p") || portability;
        let extra = p.has("P") || portability;
        let mut ok = true;
        for name in &p.operands {
            if let Err(e) = validate(ctx, name, basic, extra).await {
                ctx.report(e).await?;
                ok = false;
            }
        }
        Ok(if ok { 0 } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    #[test]
    fn system_limits() {
        check(&["pathchk", "a/b", "/x/y"], &[], "", "", "", 0);
        check(&["pathchk", "f/x"], &[("f", "")], "", "", "pathchk: f/x: Not a directory\n", 1);
        check(&["pathchk", ""], &[], "", "", "pathchk: '': No such file or directory\n", 1);
        let long = "a".repeat(300);
        check(&["pathchk", &long], &[], "", "", &format!("pathchk: {long}: File name too long\n"), 1);
        check(&["pathchk", "é"], &[], "", "", "", 0);
    }

    #[test]
    fn portability() {
        check(&["pathchk", "-p", "a b"], &[], "", "", "pathchk: nonportable character ' ' in file name 'a b'\n", 1);
        check(&["pathchk", "-p", "é"], &[], "", "", "pathchk: nonportable character 'é' in file name 'é'\n", 1);
        check(&["pathchk", "-p", "--", "-ab"], &[], "", "", "", 0);
        let msg = "pathchk: leading '-' in a component of file name 'a/-b'\n";
        check(&["pathchk", "-P", "a/-b"], &[], "", "", msg, 1);
        check(&["pathchk", "-P", ""], &[], "", "", "pathchk: empty file name\n", 1);
        check(&["pathchk", "-p", ""], &[], "", "", "pathchk: empty file name\n", 1);
        let a20 = "a".repeat(20);
        let msg = format!("pathchk: limit 14 exceeded by length 20 of file name component '{a20}'\n");
        check(&["pathchk", "-p", &a20], &[], "", "", &msg, 1);
        let deep = format!("/{}", "a/".repeat(150));
        let msg = format!("pathchk: limit 255 exceeded by length 301 of file name '{deep}'\n");
        check(&["pathchk", "-p", &deep], &[], "", "", &msg, 1);
        let msg = "pathchk: nonportable character ' ' in file name 'x/y z'\n";
        check(&["pathchk", "--portability", "x/y z"], &[], "", "", msg, 1);
        let msg = "pathchk: missing operand\nTry 'pathchk --help' for more information.\n";
        check(&["pathchk"], &[], "", "", msg, 1);
    }
}
