//! `dos2unix`, `unix2dos`, `mac2unix`, `unix2mac` (dos2unix 7.4): convert
//! line breaks of files in place (or `-n INFILE OUTFILE`, or stdin to
//! stdout), skipping binary files and symlinks, dropping or keeping the
//! UTF-8 byte order mark, with its messages on stderr. Only the `ascii`
//! conversion exists (code pages and UTF-16 are accepted and ignored).

use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::io::IoError;
use async_trait::async_trait;

/// Which line breaks a name converts: from DOS/Mac to Unix or back.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    DosToUnix,
    MacToUnix,
    UnixToDos,
    UnixToMac,
}

pub struct Dos2unix(pub Dir);

/// `-h` after its Usage line (dos2unix's wording; `help` adapts the BOM defaults).
const HELP_BODY: &str = r#" --allow-chown         allow file ownership change
 -ascii                convert only line breaks (default)
 -iso                  conversion between DOS and ISO-8859-1 character set
   -1252               use Windows code page 1252 (Western European)
   -437                use DOS code page 437 (US) (default)
   -850                use DOS code page 850 (Western European)
   -860                use DOS code page 860 (Portuguese)
   -863                use DOS code page 863 (French Canadian)
   -865                use DOS code page 865 (Nordic)
 -7                    convert 8 bit characters to 7 bit space
 -b, --keep-bom        keep Byte Order Mark
 -c, --convmode        conversion mode
   convmode            ascii, 7bit, iso, mac, default to ascii
 -f, --force           force conversion of binary files
 -h, --help            display this help text
 -i, --info[=FLAGS]    display file information
   file ...            files to analyze
 -k, --keepdate        keep output file date
 -L, --license         display software license
 -l, --newline         add additional newline
 -m, --add-bom         add Byte Order Mark (default UTF-8)
 -n, --newfile         write to new file
   infile              original file in new-file mode
   outfile             output file in new-file mode
 --no-allow-chown      don't allow file ownership change (default)
 -o, --oldfile         write to old file (default)
   file ...            files to convert in old-file mode
 -q, --quiet           quiet mode, suppress all warnings
 -r, --remove-bom      remove Byte Order Mark (default)
 -s, --safe            skip binary files (default)
 -u,  --keep-utf16     keep UTF-16 encoding
 -ul, --assume-utf16le assume that the input format is UTF-16LE
 -ub, --assume-utf16be assume that the input format is UTF-16BE
 -v,  --verbose        verbose operation
 -F, --follow-symlink  follow symbolic links and convert the targets
 -R, --replace-symlink replace symbolic links with converted files
                         (original target files remain unchanged)
 -S, --skip-symlink    keep symbolic links and targets unchanged (default)
 -V, --version         display version number
"#;

const VERSION_TEXT: &str = "dos2unix 7.4.3 (2022-06-05)\n\
With Unicode UTF-16 support.\n\
With native language support.\n\
With support to preserve the user and group ownership of files.\n\
LOCALEDIR: /usr/share/locale\n\
http://waterlan.home.xs4all.nl/dos2unix.html\n";

const BOM: &[u8] = b"\xef\xbb\xbf";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bom {
    Keep,
    Remove,
    Add,
}

struct Opts {
    dir: Dir,
    quiet: bool,
    force: bool,
    verbose: bool,
    newline: bool,
    bom: Bom,
    /// -F follows a symlink, -R replaces it; by default it is skipped.
    follow: bool,
    replace: bool,
}

/// The first byte dos2unix counts as binary and its line, if any.
fn binary_symbol(data: &[u8]) -> Option<(u8, usize)> {
    let i = data.iter().position(|&c| c < 32 && !matches!(c, b'\n' | b'\r' | b'\t' | b'\x0c'))?;
    Some((data[i], 1 + data[..i].iter().filter(|&&c| c == b'\n').count()))
}

/// Convert `data`; also the count of line breaks converted and in all.
fn convert(data: &[u8], o: &Opts) -> (Vec<u8>, usize, usize) {
    let (had_bom, body) = match data.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, data),
    };
    let mut out = Vec::with_capacity(body.len() + body.len() / 16 + 3);
    let keep = match o.bom {
        Bom::Add => true,
        Bom::Keep => had_bom,
        Bom::Remove => false,
    };
    if keep {
        out.extend_from_slice(BOM);
    }
    let (mut converted, mut total) = (0, 0);
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        let next = body.get(i + 1).copied();
        let prev_cr = i > 0 && body[i - 1] == b'\r';
        match (o.dir, c) {
            (Dir::DosToUnix, b'\r') if next == Some(b'\n') => {
                out.push(b'\n');
                if o.newline {
                    out.push(b'\n');
                }
                converted += 1;
                total += 1;
                i += 1;
            }
            (Dir::MacToUnix, b'\r') if next != Some(b'\n') => {
                out.push(b'\n');
                if o.newline {
                    out.push(b'\n');
                }
                converted += 1;
                total += 1;
            }
            (Dir::UnixToDos, b'\n') if !prev_cr => {
                out.extend_from_slice(if o.newline { b"\r\n\r\n" } else { b"\r\n" });
                converted += 1;
                total += 1;
            }
            (Dir::UnixToMac, b'\n') if !prev_cr => {
                out.extend_from_slice(if o.newline { b"\r\r" } else { b"\r" });
                converted += 1;
                total += 1;
            }
            (_, b'\n') => {
                out.push(c);
                total += 1;
            }
            _ => out.push(c),
        }
        i += 1;
    }
    (out, converted, total)
}

impl Dos2unix {
    fn format_name(&self) -> &'static str {
        match self.0 {
            Dir::DosToUnix | Dir::MacToUnix => "Unix",
            Dir::UnixToDos => "DOS",
            Dir::UnixToMac => "Mac",
        }
    }
}

/// The `-h` text for `name`: the BOM default differs by direction.
fn help(name: &str, to_unix: bool) -> String {
    let body = if to_unix {
        HELP_BODY.to_string()
    } else {
        HELP_BODY
            .replace("keep Byte Order Mark\n", "keep Byte Order Mark (default)\n")
            .replace("remove Byte Order Mark (default)", "remove Byte Order Mark")
    };
    format!("Usage: {name} [options] [file ...] [-n infile outfile ...]\n{body}")
}

/// Print an informational message unless `-q`.
async fn say(ctx: &CommandContext<'_>, o: &Opts, msg: String) -> Result<(), IoError> {
    if o.quiet {
        return Ok(());
    }
    ctx.err(msg).await
}

/// Convert one file into `out_name` (itself in old-file mode); the status.
async fn convert_file(
    ctx: &CommandContext<'_>,
    me: &Dos2unix,
    o: &Opts,
    name: &str,
    out_name: Option<&str>,
) -> UResult<i32> {
    let path = ctx.resolve(name);
    match ctx.fs.symlink_metadata(&path).await {
        Err(e) => {
            say(ctx, o, format!("{name}: {e}")).await?;
            say(ctx, o, format!("Skipping {name}, not a regular file.")).await?;
            return Ok(if o.quiet { 0 } else { 2 });
        }
        Ok(m) if m.is_symlink() && !(o.follow || o.replace) => {
            say(ctx, o, format!("Skipping symbolic link {name}.")).await?;
            return Ok(0);
        }
        Ok(m) if m.is_dir() => {
            say(ctx, o, format!("Skipping {name}, not a regular file.")).await?;
            return Ok(0);
        }
        Ok(_) => {}
    }
    let data = match ctx.fs.read(&path).await {
        Ok(d) => d,
        Err(e) => {
            say(ctx, o, format!("{name}: {e}")).await?;
            return Ok(if o.quiet { 0 } else { 2 });
        }
    };
    if !o.force {
        if let Some((sym, line)) = binary_symbol(&data) {
            say(ctx, o, format!("Binary symbol 0x{sym:02X} found at line {line}")).await?;
            say(ctx, o, format!("Skipping binary file {name}")).await?;
            return Ok(0);
        }
    }
    let (out, converted, total) = convert(&data, o);
    if o.verbose {
        say(ctx, o, format!("Converted {converted} out of {total} line breaks.")).await?;
    }
    let fmt = me.format_name();
    let target = match out_name {
        Some(t) => {
            say(ctx, o, format!("converting file {name} to file {t} in {fmt} format...")).await?;
            ctx.resolve(t)
        }
        None => {
            say(ctx, o, format!("converting file {name} to {fmt} format...")).await?;
            // -R writes a file in place of the link; -F (and plain files) the target.
            if o.follow {
                ctx.fs.canonicalize(&path).await.unwrap_or(path)
            } else {
                if o.replace {
                    ctx.fs.remove_file(&path).await.ok();
                }
                path
            }
        }
    };
    if let Err(e) = ctx.fs.write(&target, &out).await {
        return Err(UError::new(1, format!("Failed to write to temporary output file {}: {e}", out_name.unwrap_or(name))));
    }
    Ok(0)
}

#[async_trait]
impl Utility for Dos2unix {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let name = ctx.name.rsplit('/').next().unwrap_or(ctx.name).to_string();
        let to_unix = matches!(self.0, Dir::DosToUnix | Dir::MacToUnix);
        let mut o = Opts {
            dir: self.0,
            quiet: false,
            force: false,
            verbose: false,
            newline: false,
            bom: if to_unix { Bom::Remove } else { Bom::Keep },
            follow: false,
            replace: false,
        };
        // Operands with the mode they were given in (true: -n pairs).
        let mut files: Vec<(bool, String)> = Vec::new();
        let mut new_file = false;
        let mut args = ctx.args.iter();
        let mut opts_done = false;
        while let Some(a) = args.next() {
            if opts_done || !a.starts_with('-') || a == "-" {
                files.push((new_file, a.clone()));
                continue;
            }
            match a.as_str() {
                "--" => opts_done = true,
                "-h" | "--help" => {
                    ctx.out(help(&name, to_unix).as_bytes()).await?;
                    return Ok(0);
                }
                "-V" | "--version" => {
                    ctx.out(VERSION_TEXT.replace("dos2unix 7", &format!("{name} 7")).as_bytes()).await?;
                    return Ok(0);
                }
                "-q" | "--quiet" => o.quiet = true,
                "-f" | "--force" => o.force = true,
                "-s" | "--safe" => o.force = false,
                "-v" | "--verbose" => o.verbose = true,
                "-l" | "--newline" => o.newline = true,
                "-n" | "--newfile" => new_file = true,
                "-o" | "--oldfile" => new_file = false,
                "-b" | "--keep-bom" => o.bom = Bom::Keep,
                "-r" | "--remove-bom" => o.bom = Bom::Remove,
                "-m" | "--add-bom" => o.bom = Bom::Add,
                "-F" | "--follow-symlink" => (o.follow, o.replace) = (true, false),
                "-R" | "--replace-symlink" => (o.follow, o.replace) = (false, true),
                "-S" | "--skip-symlink" => (o.follow, o.replace) = (false, false),
                "-c" | "--convmode" => match args.next().map(String::as_str) {
                    Some("ascii" | "7bit" | "iso") => {}
                    Some("mac") => {
                        o.dir = if to_unix { Dir::MacToUnix } else { Dir::UnixToMac };
                    }
                    Some(m) => {
                        return Err(UError::new(1, format!("invalid {m} conversion mode specified")));
                    }
                    None => {
                        return Err(UError::new(1, format!("option '{a}' requires an argument")));
                    }
                },
                // Code pages, 7-bit, UTF-16 and ownership options change nothing here.
                "-k" | "--keepdate" | "-ascii" | "-iso" | "-7" | "-437" | "-850" | "-860" | "-863" | "-865"
                | "-1252" | "-u" | "--keep-utf16" | "-ul" | "--assume-utf16le" | "-ub" | "--assume-utf16be"
                | "--allow-chown" | "--no-allow-chown" => {}
                _ => {
                    ctx.out(help(&name, to_unix).as_bytes()).await?;
                    return Ok(1);
                }
            }
        }
        if files.is_empty() {
            // A filter: stdin to stdout.
            let data = match ctx.read_stdin().await {
                Ok(d) => d,
                Err(_) => return Ok(1),
            };
            if !o.force {
                if let Some((sym, line)) = binary_symbol(&data) {
                    say(ctx, &o, format!("Binary symbol 0x{sym:02X} found at line {line}")).await?;
                    say(ctx, &o, "Skipping binary file stdin".to_string()).await?;
                    return Ok(0);
                }
            }
            let (out, converted, total) = convert(&data, &o);
            if o.verbose {
                say(ctx, &o, format!("Converted {converted} out of {total} line breaks.")).await?;
            }
            ctx.out(&out).await?;
            return Ok(0);
        }
        let mut status = 0;
        let mut i = 0;
        while i < files.len() {
            if !ctx.still_running() {
                break;
            }
            let (pair, f) = &files[i];
            let st = if *pair {
                let Some((_, out)) = files.get(i + 1) else {
                    return Err(UError::new(1, format!("target of file {f} not specified in new-file mode")));
                };
                i += 1;
                match convert_file(ctx, self, &o, f, Some(out)).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 }
            } else {
                match convert_file(ctx, self, &o, f, None).await {
 Ok(s) => s,
 Err(e) => ctx.report(e).await?,
 }
            };
            if st != 0 {
                status = st;
            }
            i += 1;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree, make_fs, run_raw};
    use crate::limits::Limits;

    #[test]
    fn in_place() {
        let msg = "dos2unix: converting file d1 to Unix format...\n";
        check_tree(&["dos2unix", "d1"], &[("d1", "a\r\nb\r\nc")], "", "", msg, 0, "d1\ta\\nb\\nc\n");
        let msg = "unix2dos: converting file u1 to DOS format...\n";
        check_tree(&["unix2dos", "u1"], &[("u1", "a\nb\n")], "", "", msg, 0, "u1\ta\r\\nb\r\\n\n");
        check_tree(&["unix2dos", "u1"], &[("u1", "a\r\n\n")], "", "", msg, 0, "u1\ta\r\\n\r\\n\n");
        let msg = "dos2unix: converting file cr to Unix format...\n";
        check_tree(&["dos2unix", "cr"], &[("cr", "a\rb\r\n")], "", "", msg, 0, "cr\ta\rb\\n\n");
        let msg = "mac2unix: converting file m to Unix format...\n";
        check_tree(&["mac2unix", "m"], &[("m", "a\r\nb\rc\n")], "", "", msg, 0, "m\ta\r\\nb\\nc\\n\n");
        let msg = "unix2mac: converting file m to Mac format...\n";
        check_tree(&["unix2mac", "m"], &[("m", "a\nb\r\n")], "", "", msg, 0, "m\ta\rb\r\\n\n");
        let msg = "dos2unix: converting file d1 to file out in Unix format...\n";
        check_tree(&["dos2unix", "-n", "d1", "out"], &[("d1", "a\r\n")], "", "", msg, 0, "d1\ta\r\\n\nout\ta\\n\n");
        check_tree(&["dos2unix", "-q", "d1"], &[("d1", "a\r\n")], "", "", "", 0, "d1\ta\\n\n");
        let msg = "dos2unix: Converted 0 out of 2 line breaks.\ndos2unix: converting file d1 to Unix format...\n";
        check(&["dos2unix", "-v", "d1"], &[("d1", "a\nb\n")], "", "", msg, 0);
    }

    #[test]
    fn filter() {
        let fs = make_fs(&[]);
        let run = |argv: &[&str], input: &[u8]| run_raw(&fs, argv, input, &[], Limits::default());
        assert_eq!(run(&["dos2unix"], b"x\r\n"), (b"x\n".to_vec(), vec![], 0));
        assert_eq!(run(&["unix2dos"], b"x\n"), (b"x\r\n".to_vec(), vec![], 0));
        assert_eq!(run(&["dos2unix", "-l"], b"a\r\nb\n"), (b"a\n\nb\n".to_vec(), vec![], 0));
        assert_eq!(run(&["unix2dos", "-l"], b"a\nb\r\n"), (b"a\r\n\r\nb\r\n".to_vec(), vec![], 0));
        assert_eq!(run(&["dos2unix", "-m"], b"x"), (b"\xef\xbb\xbfx".to_vec(), vec![], 0));
        assert_eq!(run(&["dos2unix"], b"\xef\xbb\xbfa\r\n"), (b"a\n".to_vec(), vec![], 0));
        assert_eq!(run(&["unix2dos"], b"\xef\xbb\xbfa\n"), (b"\xef\xbb\xbfa\r\n".to_vec(), vec![], 0));
        assert_eq!(run(&["unix2dos", "-r"], b"\xef\xbb\xbfa\n"), (b"a\r\n".to_vec(), vec![], 0));
        let err = b"dos2unix: Binary symbol 0x00 found at line 1\ndos2unix: Skipping binary file stdin\n".to_vec();
        assert_eq!(run(&["dos2unix"], b"\0\n"), (vec![], err, 0));
        let err = b"dos2unix: Converted 1 out of 1 line breaks.\n".to_vec();
        assert_eq!(run(&["dos2unix", "-v"], b"a\r\n"), (b"a\n".to_vec(), err, 0));
    }

    #[test]
    fn skips() {
        let msg = "dos2unix: Binary symbol 0x07 found at line 1\ndos2unix: Skipping binary file b\n";
        check_tree(&["dos2unix", "b"], &[("b", "a\x07\r\n")], "", "", msg, 0, "b\ta\x07\r\\n\n");
        let msg = "dos2unix: Binary symbol 0x1B found at line 2\ndos2unix: Skipping binary file b\n";
        check(&["dos2unix", "b"], &[("b", "a\n\x0c\x1b\r\n")], "", "", msg, 0);
        let msg = "dos2unix: converting file b to Unix format...\n";
        check_tree(&["dos2unix", "-f", "b"], &[("b", "a\0\r\n")], "", "", msg, 0, "b\ta\0\\n\n");
        let msg = "dos2unix: nofile: No such file or directory\ndos2unix: Skipping nofile, not a regular file.\n";
        check(&["dos2unix", "nofile"], &[], "", "", msg, 2);
        check(&["dos2unix", "-q", "nofile"], &[], "", "", "", 0);
        check(&["dos2unix", "dx"], &[("dx/", "")], "", "", "dos2unix: Skipping dx, not a regular file.\n", 0);
        let msg = "dos2unix: target of file d1 not specified in new-file mode\n";
        check(&["dos2unix", "-n", "d1"], &[("d1", "")], "", "", msg, 1);
        let msg = "dos2unix: -q: No such file or directory\ndos2unix: Skipping -q, not a regular file.\n\
                   dos2unix: converting file d6 to Unix format...\n";
        check(&["dos2unix", "--", "-q", "d6"], &[("d6", "a\r\n")], "", "", msg, 2);
    }

    #[test]
    fn help_and_version() {
        let fs = make_fs(&[]);
        let (out, err, st) = run_raw(&fs, &["dos2unix", "-x"], b"", &[], Limits::default());
        let out = String::from_utf8_lossy(&out).into_owned();
        assert!(out.starts_with("Usage: dos2unix [options] [file ...] [-n infile outfile ...]\n --allow-chown "));
        assert_eq!((out.lines().count(), err.len(), st), (40, 0, 1));
        let (out, _, _) = run_raw(&fs, &["unix2dos", "-h"], b"", &[], Limits::default());
        assert!(String::from_utf8_lossy(&out).contains(" -b, --keep-bom        keep Byte Order Mark (default)\n"));
        let (out, _, _) = run_raw(&fs, &["dos2unix", "-V"], b"", &[], Limits::default());
        assert!(out.starts_with(b"dos2unix 7.4.3 (2022-06-05)\n"));
    }
}
