//! `sed`: stream editor (GNU sed 4.9). Options and input/output plumbing live
//! here; the script compiler is `sed_parse.rs`, the interpreter `sed_exec.rs`.

pub(crate) mod exec;
pub(crate) mod parse;

use crate::commands::util::{parse, Arg, Spec};
use exec::{Runner, Settings};
use parse::{compile, Chunk};
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Sed;

const SPEC: Spec = Spec::new(
    "nrEsuzbl:e:f:",
    &[
        ("quiet", Arg::No, "n"),
        ("silent", Arg::No, "n"),
        ("expression", Arg::Yes, "e"),
        ("file", Arg::Yes, "f"),
        ("in-place", Arg::Optional, "i"),
        ("line-length", Arg::Yes, "l"),
        ("regexp-extended", Arg::No, "E"),
        ("separate", Arg::No, "s"),
        ("unbuffered", Arg::No, "u"),
        ("null-data", Arg::No, "z"),
        ("zero-terminated", Arg::No, "z"),
        ("binary", Arg::No, "b"),
        ("posix", Arg::No, "posix"),
        ("debug", Arg::No, "debug"),
        ("sandbox", Arg::No, "sandbox"),
        ("follow-symlinks", Arg::No, "follow-symlinks"),
        ("help", Arg::No, "help"),
        ("version", Arg::No, "version"),
    ],
    "",
);

const USAGE: &str = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
";

const VERSION: &str = "sed (GNU sed) 4.9
Packaged by Debian
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Jay Fenlason, Tom Lord, Ken Pizzini,
Paolo Bonzini, Jim Meyering, and Assaf Gordon.

This sed program was built with SELinux support.
SELinux is disabled on this system.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
E-mail bug reports to: <bug-sed@gnu.org>.
";

/// `-i` takes an optional attached suffix (`-i.bak`), which the shared getopt
/// parser has no short form for: rewrite it to `--in-place[=SUFFIX]`.
fn rewrite_in_place(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            out.extend(args[i - 1..].iter().cloned());
            break;
        }
        if a.len() < 2 || !a.starts_with('-') || a.starts_with("--") {
            out.push(a.clone());
            continue;
        }
        let body = &a[1..];
        let mut kept = String::new();
        let mut done = false;
        for (pos, c) in body.char_indices() {
            if c == 'i' {
                if !kept.is_empty() {
                    out.push(format!("-{kept}"));
                }
                let rest = &body[pos + 1..];
                out.push(if rest.is_empty() { "--in-place".into() } else { format!("--in-place={rest}") });
                done = true;
                break;
            }
            kept.push(c);
            if "lef".contains(c) {
                // The rest of the argument (or the next one) is this option's value.
                kept.push_str(&body[pos + 1..]);
                out.push(format!("-{kept}"));
                if pos + 1 == body.len() && i < args.len() {
                    out.push(args[i].clone());
                    i += 1;
                }
                done = true;
                break;
            }
        }
        if !done {
            out.push(format!("-{kept}"));
        }
    }
    out
}

#[async_trait]
impl Utility for Sed {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let args = rewrite_in_place(ctx.args);
        let p = match parse(&args, &SPEC) {
            Ok(p) => p,
            Err(e) => {
                ctx.err(e.to_string()).await?;
                ctx.stderr.write_str(USAGE).await?;
                return Ok(1);
            }
        };
        if p.has("help") {
            ctx.out(USAGE.as_bytes()).await?;
            ctx.out(b"E-mail bug reports to: <bug-sed@gnu.org>.\n").await?;
            return Ok(0);
        }
        if p.has("version") {
            ctx.out(VERSION.as_bytes()).await?;
            return Ok(0);
        }
        if p.has("debug") {
            return Err(UError::new(1, "option '--debug' is not supported in this sandbox"));
        }
        let mut set = Settings::default();
        let mut chunks = Vec::new();
        for o in &p.opts {
            let v = o.val.clone().unwrap_or_default();
            match o.id {
                "n" => set.quiet = true,
                "E" | "r" => set.ere = true,
                "s" => set.separate = true,
                "z" => set.delim = 0,
                "i" => {
                    set.in_place = Some(v);
                    set.separate = true;
                }
                "l" => {
                    let digits: String = v.trim_start().chars().take_while(char::is_ascii_digit).collect();
                    set.line_len = digits.parse().unwrap_or(0);
                }
                "e" => chunks.push(Chunk { text: v.into_bytes(), file: None }),
                "f" => {
                    let text = if v == "-" || v == "/dev/stdin" {
                        ctx.read_stdin().await
                    } else {
                        ctx.fs.read(&ctx.resolve(&v)).await.map_err(|e| e.to_string())
                    };
                    match text {
                        Ok(mut t) => {
                            if t.last() == Some(&b'\n') {
                                t.pop();
                            }
                            chunks.push(Chunk { text: t, file: Some(v) });
                        }
                        Err(e) => {
                            return Err(UError::new(4, format!("couldn't open file {v}: {e}")));
                        }
                    }
                }
                _ => {}
            }
        }
        let mut files = p.operands;
        if chunks.is_empty() {
            if files.is_empty() {
                ctx.stderr.write_str(USAGE).await?;
                return Ok(1);
            }
            chunks.push(Chunk { text: files.remove(0).into_bytes(), file: None });
        }
        let prog = match compile(&chunks, set.ere, ctx.regex_limit()) {
            Ok(p) => p,
            Err(e) => {
                return Err(UError::new(e.status, e.msg));
            }
        };
        if prog.quiet {
            set.quiet = true;
        }
        if files.is_empty() {
            if set.in_place.is_some() {
                return Err(UError::new(4, "no input files"));
            }
            files.push("-".into());
        }
        Ok(Runner::new(ctx, prog, set, files).run().await?)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree};

    /// `s` with and without capture groups (two match paths), `N`th and `g`,
    /// the empty regex, case conversion; and the recycled line buffers
    /// (`N`, `-z`, a last line without newline, hold space).
    #[test]
    fn subst_paths() {
        let text = "baaac bc bcb\nno match\nkey=bc\n";
        check(&["sed", "s/a*/x/g"], &[], text, "xbxcx xbxcx xbxcxbx\nxnxox xmxtxcxhx\nxkxexyx=xbxcx\n", "", 0);
        check(&["sed", "s/\\(b\\)\\(c\\)/[\\2\\1&]/2g"], &[], text, "baaac bc [cbbc]b\nno match\nkey=bc\n", "", 0);
        check(&["sed", "s/b/&&/2"], &[], text, "baaac bbc bcb\nno match\nkey=bc\n", "", 0);
        check(&["sed", "/b/s//B/g"], &[], text, "Baaac Bc BcB\nno match\nkey=Bc\n", "", 0);
        check(&["sed", "s/\\w\\+/\\u&/g"], &[], text, "Baaac Bc Bcb\nNo Match\nKey=Bc\n", "", 0);
        check(&["sed", "s/c/\\U&x\\E-/g;s/key=/k:/"], &[], text, "baaaCX- bCX- bCX-b\nno matCX-h\nk:bCX-\n", "", 0);
        check(&["sed", "N;s/\\n/+/"], &[], "a\nb\nc", "a+b\nc", "", 0);
        check(&["sed", "-z", "s/[0-9]/N/"], &[], "x1\0y2\0", "xN\0yN\0", "", 0);
        check(&["sed", "-n", "h;s/l/L/;p;x;p"], &[], "l1\nl2\nl3\n", "L1\nl1\nL2\nl2\nL3\nl3\n", "", 0);
    }

    #[test]
    fn basics() {
        check(&["sed", "p"], &[], "a\nb\n", "a\na\nb\nb\n", "", 0);
        check(&["sed", "p"], &[], "a", "a\na", "", 0);
        check(&["sed", "-n", "$="], &[("f1", "x\ny\n"), ("f2", "p\nq\n")], "", "", "", 0);
        check(&["sed", "-n", "$p", "f1", "-", "f2"], &[("f1", "x\ny\n"), ("f2", "p\nq\n")], "s\n", "q\n", "", 0);
        check(
            &["sed", "s/x/X/", "f1", "nope"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "X\ny\n",
            "sed: can't read nope: No such file or directory\n",
            2,
        );
        check(
            &["sed", "-s", "-n", "$=;1=", "f1", "f2"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "1\n2\n1\n2\n",
            "",
            0,
        );
        check(
            &["sed", "-s", "1F", "f1", "-"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "in\n",
            "f1\nx\ny\n-\nin\n",
            "",
            0,
        );
        check(&["sed", "1d", "f1", "f2"], &[("f1", "x\ny\n"), ("f2", "p\nq\n")], "", "y\np\nq\n", "", 0);
        check(&["sed", "--expression=p", "-n", "f1"], &[("f1", "x\ny\n"), ("f2", "p\nq\n")], "", "x\ny\n", "", 0);
        check(
            &["sed", "-e", "1d", "-e", "$d"],
            &[],
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "2\n3\n4\n5\n6\n7\n8\n9\n",
            "",
            0,
        );
        check(&["sed"], &[], "", "", "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n", 1);
        check(&["sed", "-k", "p"], &[], "", "", "sed: invalid option -- 'k'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\n", 1);
        check(&["sed", "--help"], &[], "", "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n      --debug\n                 annotate program execution\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  --follow-symlinks\n                 follow symlinks when processing in place\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  --posix\n                 disable all GNU extensions.\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n                 (for portability use POSIX -E).\n  -s, --separate\n                 consider files as separate rather than as a single,\n                 continuous long stream.\n      --sandbox\n                 operate in sandbox mode (disable e/r/w commands).\n  -u, --unbuffered\n                 load minimal amounts of data from the input files and flush\n                 the output buffers more often\n  -z, --null-data\n                 separate lines by NUL characters\n      --help     display this help and exit\n      --version  output version information and exit\n\nIf no -e, --expression, -f, or --file option is given, then the first\nnon-option argument is taken as the sed script to interpret.  All\nremaining arguments are names of input files; if no input files are\nspecified, then the standard input is read.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\nE-mail bug reports to: <bug-sed@gnu.org>.\n", "", 0);
        check(&["sed", "--version"], &[], "", "sed (GNU sed) 4.9\nPackaged by Debian\nCopyright (C) 2022 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n\nWritten by Jay Fenlason, Tom Lord, Ken Pizzini,\nPaolo Bonzini, Jim Meyering, and Assaf Gordon.\n\nThis sed program was built with SELinux support.\nSELinux is disabled on this system.\n\nGNU sed home page: <https://www.gnu.org/software/sed/>.\nGeneral help using GNU software: <https://www.gnu.org/gethelp/>.\nE-mail bug reports to: <bug-sed@gnu.org>.\n", "", 0);
        check(
            &["sed", "-n", "-f", "s.sed", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n"), ("s.sed", "s/x/Z/\np\n")],
            "",
            "Z\ny\n",
            "",
            0,
        );
        check(
            &["sed", "-f", "s.sed", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n"), ("s.sed", "#n\n/y/p\n")],
            "",
            "y\n",
            "",
            0,
        );
        check(
            &["sed", "-f", "s.sed", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n"), ("s.sed", "p\nk\n")],
            "",
            "",
            "sed: file s.sed line 2: unknown command: `k'\n",
            1,
        );
        check(
            &["sed", "-f", "nope", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "sed: couldn't open file nope: No such file or directory\n",
            4,
        );
        check(&["sed", "#n\n1p"], &[], "a\nb\n", "a\n", "", 0);
        check(&["sed", "p", "d"], &[("d/", "")], "", "", "sed: read error on d: Is a directory\n", 4);
    }

    #[test]
    fn addresses() {
        check(&["sed", "-n", "3p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "3\n", "", 0);
        check(&["sed", "-n", "$p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "10\n", "", 0);
        check(
            &["sed", "1~3p;2,~4s/$/!/"],
            &[],
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "1\n1\n2!\n3!\n4\n4!\n5\n6\n7\n7\n8\n9\n10\n10\n",
            "",
            0,
        );
        check(&["sed", "-n", "0~4p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "4\n8\n", "", 0);
        check(&["sed", "-n", "3,+2p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "3\n4\n5\n", "", 0);
        check(&["sed", "-n", "/4/,/[68]/p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "4\n5\n6\n", "", 0);
        check(&["sed", "-n", "0,/1/p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n", "", 0);
        check(
            &["sed", "-n", "1,/1/p"],
            &[],
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "",
            0,
        );
        check(&["sed", "2,4!d"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "2\n3\n4\n", "", 0);
        check(&["sed", "-n", "/2/,1p"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "2\n", "", 0);
        check(&["sed", "-n", "\\,5,p;\\%6%Ip"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "5\n6\n", "", 0);
        check(&["sed", "/3/,$d"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n", "", 0);
        check(
            &["sed", "0,/[0-9]/s//X/"],
            &[],
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
            "",
            0,
        );
        check(&["sed", "-n", "/1/,/1/p"], &[], "1\n2\n1\n3\n1\n", "1\n2\n1\n1\n", "", 0);
        check(&["sed", "-n", "/A/Ip"], &[], "a\nb\n", "a\n", "", 0);
        check(&["sed", "-n", "$!{$!p}"], &[], "a\nb\nc\n", "a\nb\n", "", 0);
        check(&["sed", "2 , 3 !d"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "2\n3\n", "", 0);
    }

    #[test]
    fn commands() {
        check(&["sed", "s/a/b/"], &[], "aaa\n", "baa\n", "", 0);
        check(&["sed", "s/a/b/g"], &[], "aaa\n", "bbb\n", "", 0);
        check(&["sed", "s/a/b/2"], &[], "aaa\n", "aba\n", "", 0);
        check(&["sed", "s/a/b/2g"], &[], "aaaa\n", "abbb\n", "", 0);
        check(&["sed", "-n", "s/a/b/p"], &[], "a\nc\n", "b\n", "", 0);
        check(&["sed", "s/A/b/Ig"], &[], "aAa\n", "bbb\n", "", 0);
        check(&["sed", "s/a*/x/g"], &[], "baaac\n", "xbxcx\n", "", 0);
        check(&["sed", "s/x*/-/g"], &[], "abc\n", "-a-b-c-\n", "", 0);
        check(&["sed", "s/b*/x/2"], &[], "abc\n", "axc\n", "", 0);
        check(&["sed", "s/\\(foo\\) \\(bar\\)/\\2 \\1 [&] \\&/"], &[], "foo bar\n", "bar foo [foo bar] &\n", "", 0);
        check(&["sed", "-E", "s/(\\w+) (\\w+)/\\U\\2\\E \\u\\1/"], &[], "hello world\n", "WORLD Hello\n", "", 0);
        check(&["sed", "s/\\w\\+/\\L\\u&/g"], &[], "hELLO wORLD\n", "Hello World\n", "", 0);
        check(&["sed", "-E", "s/(a)|b/[\\1]/g"], &[], "ab\n", "[a][]\n", "", 0);
        check(&["sed", "s|/|_|g;s,_,\\,,"], &[], "a/b/c\n", "a,b_c\n", "", 0);
        check(&["sed", "s/ /\\n/g;s/\\t/T/"], &[], "a b\tc\n", "a\nbTc\n", "", 0);
        check(&["sed", "s/x/a\\tb\\x41\\o102\\d067/"], &[], "x\n", "a\tbABC\n", "", 0);
        check(&["sed", "s/[/]/X/;s/[[:digit:]]\\+$//"], &[], "a/b12\n", "aXb\n", "", 0);
        check(&["sed", "s/x/a\\\nb/"], &[], "x\n", "a\nb\n", "", 0);
        check(&["sed", "N;s/^y/Z/Mg;s/x$/X/M"], &[], "x\ny\n", "X\nZ\n", "", 0);
        check(&["sed", "N;s/x.y/Z/"], &[], "x\ny\n", "Z\n", "", 0);
        check(&["sed", "y/abc/xyz/"], &[], "aabbcc\n", "xxyyzz\n", "", 0);
        check(&["sed", "y/ab/\\n\\\\/"], &[], "ab\n", "\n\\\n", "", 0);
        check(&["sed", "1a foo"], &[], "a\nb\n", "a\nfoo\nb\n", "", 0);
        check(&["sed", "1a\\\n  two\\\nlines"], &[], "a\n", "a\n  two\nlines\n", "", 0);
        check(&["sed", "a\\  foo"], &[], "a\n", "a\n  foo\n", "", 0);
        check(&["sed", "$a end"], &[], "a", "a\nend\n", "", 0);
        check(&["sed", "1i\\\nstart"], &[], "a\nb\n", "start\na\nb\n", "", 0);
        check(&["sed", "2c\\\nchanged"], &[], "a\nb\nc\n", "a\nchanged\nc\n", "", 0);
        check(&["sed", "2,3c X"], &[], "a\nb\nc\nd\n", "a\nX\nd\n", "", 0);
        check(&["sed", "$!c X"], &[], "a\nb\nc\n", "X\nX\nc\n", "", 0);
        check(&["sed", "-e", "a\\", "-e", "foo"], &[], "x\n", "x\nfoo\n", "", 0);
        check(&["sed", "i\\"], &[], "x\n", "x\n", "", 0);
        check(&["sed", "2q"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n", "", 0);
        check(&["sed", "q5"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n", "", 5);
        check(&["sed", "3Q"], &[], "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n", "", 0);
        check(&["sed", "n;d"], &[], "1\n2\n3\n", "1\n3\n", "", 0);
        check(&["sed", "$!N;s/\\n/-/"], &[], "a\nb\nc\n", "a-b\nc\n", "", 0);
        check(&["sed", "N;D"], &[], "1\n2\n3\n", "3\n", "", 0);
        check(&["sed", "$!N;P;D"], &[], "1\n1\n2\n3\n3\n", "1\n1\n2\n3\n3\n", "", 0);
        check(&["sed", "1!G;h;$!d"], &[], "1\n2\n3\n", "3\n2\n1\n", "", 0);
        check(&["sed", ":a;N;$!ba;s/\\n/+/g"], &[], "1\n2\n3\n", "1+2+3\n", "", 0);
        check(&["sed", "-n", "H;${x;s/\\n/,/g;s/^,//;p}"], &[], "1\n2\n3\n", "1,2,3\n", "", 0);
        check(&["sed", "x;G"], &[], "1\n2\n", "\n1\n1\n2\n", "", 0);
        check(&["sed", "="], &[], "a\nb\n", "1\na\n2\nb\n", "", 0);
        check(&["sed", "-n", "l"], &[], "a\tb\x01\\é\n", "a\\tb\\001\\\\\\303\\251$\n", "", 0);
        check(&["sed", "-n", "l 5"], &[], "abcdefghijkl\n", "abcd\\\nefgh\\\nijkl$\n", "", 0);
        check(&["sed", "-l", "4", "-n", "l"], &[], "abcdefghijkl\n", "abc\\\ndef\\\nghi\\\njkl$\n", "", 0);
        check(&["sed", "z;s/^$/empty/"], &[], "x\n", "empty\n", "", 0);
        check(&["sed", ":a;s/x/y/;ta"], &[], "xxx\n", "yyy\n", "", 0);
        check(&["sed", "s/q/y/;Tend;s/x/z/;:end"], &[], "x\n", "x\n", "", 0);
        check(&["sed", "-n", "2{p;p}"], &[], "1\n2\n3\n", "2\n2\n", "", 0);
        check(&["sed", "-n", "/1/{/2/p}"], &[], "1\n12\n2\n", "12\n", "", 0);
        check(&["sed", "r r.txt"], &[("r.txt", "R\n")], "a\nb\n", "a\nR\nb\nR\n", "", 0);
        check(&["sed", "R r.txt"], &[("r.txt", "1\n2\n")], "a\nb\nc\n", "a\n1\nb\n2\nc\n", "", 0);
        check(&["sed", "r nope"], &[], "a\n", "a\n", "", 0);
        check(&["sed", "w /dev/stdout"], &[], "a\n", "a\na\n", "", 0);
        check(&["sed", "-z", "s/\\n/,/g"], &[], "x\ny\n", "x,y,", "", 0);
        check(&["sed", "-z", "s/^/X/"], &[], "a\0b\0", "Xa\0Xb\0", "", 0);
        check(&["sed", "-E", "s/a{2}|(b)+/X/g"], &[], "aaabbb\n", "XaX\n", "", 0);
        check(&["sed", "yes"], &[], "x\n", "", "sed: -e expression #1, char 3: unterminated `y' command\n", 1);
    }

    #[test]
    fn errors() {
        check(&["sed", "k"], &[], "a\n", "", "sed: -e expression #1, char 1: unknown command: `k'\n", 1);
        check(&["sed", "s/a/b"], &[], "a\n", "", "sed: -e expression #1, char 5: unterminated `s' command\n", 1);
        check(&["sed", "s/a"], &[], "a\n", "", "sed: -e expression #1, char 3: unterminated `s' command\n", 1);
        check(
            &["sed", "y/ab/c/"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 7: strings for `y' command are different lengths\n",
            1,
        );
        check(&["sed", "2,3,4p"], &[], "a\n", "", "sed: -e expression #1, char 4: unknown command: `,'\n", 1);
        check(&["sed", "0p"], &[], "a\n", "", "sed: -e expression #1, char 2: invalid usage of line address 0\n", 1);
        check(&["sed", "0,5p"], &[], "a\n", "", "sed: -e expression #1, char 4: invalid usage of line address 0\n", 1);
        check(&["sed", "b foo"], &[], "a\n", "", "sed: can't find label for jump to `foo'\n", 4);
        check(&["sed", ":"], &[], "a\n", "", "sed: -e expression #1, char 1: \":\" lacks a label\n", 1);
        check(&["sed", "}"], &[], "a\n", "", "sed: -e expression #1, char 1: unexpected `}'\n", 1);
        check(&["sed", "{p"], &[], "a\n", "", "sed: -e expression #1, char 0: unmatched `{'\n", 1);
        check(&["sed", "p;}"], &[], "a\n", "", "sed: -e expression #1, char 3: unexpected `}'\n", 1);
        check(&["sed", "pq"], &[], "a\n", "", "sed: -e expression #1, char 2: extra characters after command\n", 1);
        check(&["sed", "s/a/b/k"], &[], "a\n", "", "sed: -e expression #1, char 7: unknown option to `s'\n", 1);
        check(&["sed", "s/\\(a/b/"], &[], "a\n", "", "sed: -e expression #1, char 8: Unmatched ( or \\(\n", 1);
        check(
            &["sed", "s/a/\\1/"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 7: invalid reference \\1 on `s' command's RHS\n",
            1,
        );
        check(&["sed", "a"], &[], "a\n", "", "sed: -e expression #1, char 1: expected \\ after `a', `c' or `i'\n", 1);
        // `e` runs a shell command: refused in the sandbox with GNU --sandbox's wording.
        check(
            &["sed", "e ls"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 1: e/r/w commands disabled in sandbox mode\n",
            1,
        );
        check(
            &["sed", "r"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 1: missing filename in r/R/w/W commands\n",
            1,
        );
        check(
            &["sed", "w"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 1: missing filename in r/R/w/W commands\n",
            1,
        );
        check(&["sed", "/a"], &[], "a\n", "", "sed: -e expression #1, char 2: unterminated address regex\n", 1);
        check(&["sed", "dd"], &[], "a\n", "", "sed: -e expression #1, char 2: extra characters after command\n", 1);
        check(
            &["sed", "s/a/b/gg"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 8: multiple `g' options to `s' command\n",
            1,
        );
        check(
            &["sed", "s/a/b/0"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 7: number option to `s' command may not be zero\n",
            1,
        );
        check(&["sed", "1~"], &[], "a\n", "", "sed: -e expression #1, char 2: missing command\n", 1);
        check(&["sed", "y/a/"], &[], "a\n", "", "sed: -e expression #1, char 4: unterminated `y' command\n", 1);
        check(&["sed", "1,2q"], &[], "a\n", "", "sed: -e expression #1, char 4: command only uses one address\n", 1);
        check(
            &["sed", "s/a/b/pp"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 8: multiple `p' options to `s' command\n",
            1,
        );
        check(
            &["sed", "s/x/y/e"],
            &[],
            "a\n",
            "",
            "sed: -e expression #1, char 7: e/r/w commands disabled in sandbox mode\n",
            1,
        );
        check(&["sed", "s//x/"], &[], "a\n", "", "sed: -e expression #1, char 0: no previous regular expression\n", 1);
        check(&["sed", "s/[/x/"], &[], "a\n", "", "sed: -e expression #1, char 6: unterminated `s' command\n", 1);
        check(&["sed", "s/x\\{1/X/"], &[], "a\n", "", "sed: -e expression #1, char 9: Unmatched \\{\n", 1);
        check(&["sed", "!!p"], &[], "a\n", "", "sed: -e expression #1, char 2: multiple `!'s\n", 1);
        check(&["sed", "-E", "s/(x/X/"], &[], "x\n", "", "sed: -e expression #1, char 7: Unmatched ( or \\(\n", 1);
        check(
            &["sed", "-e", "p", "-e", "k"],
            &[],
            "x\n",
            "",
            "sed: -e expression #2, char 1: unknown command: `k'\n",
            1,
        );
    }

    #[test]
    fn in_place_and_files() {
        check_tree(
            &["sed", "-i", "s/x/X/", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "",
            0,
            "f1\tX\\ny\\n\nf2\tp\\nq\\n\n",
        );
        check_tree(
            &["sed", "-i.bak", "s/x/X/", "f1", "f2"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "",
            0,
            "f1\tX\\ny\\n\nf1.bak\tx\\ny\\n\nf2\tp\\nq\\n\nf2.bak\tp\\nq\\n\n",
        );
        check_tree(
            &["sed", "-n", "-i", "$p", "f1", "f2"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "",
            0,
            "f1\ty\\n\nf2\tq\\n\n",
        );
        check_tree(
            &["sed", "-i", "p", "nope", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "sed: can't read nope: No such file or directory\n",
            2,
            "f1\tx\\nx\\ny\\ny\\n\nf2\tp\\nq\\n\n",
        );
        check_tree(
            &["sed", "-i", "p"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "sed: no input files\n",
            4,
            "f1\tx\\ny\\n\nf2\tp\\nq\\n\n",
        );
        check_tree(
            &["sed", "-i", "p", "d"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n"), ("d/", "")],
            "",
            "",
            "sed: couldn't edit d: not a regular file\n",
            4,
            "d/\nf1\tx\\ny\\n\nf2\tp\\nq\\n\n",
        );
        check_tree(
            &["sed", "--in-place=old_*", "1d", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "",
            0,
            "f1\ty\\n\nf2\tp\\nq\\n\nold_f1\tx\\ny\\n\n",
        );
        check_tree(
            &["sed", "-Ei", "s/(x)/\\1\\1/;2q", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "",
            0,
            "f1\txx\\ny\\n\nf2\tp\\nq\\n\n",
        );
        check_tree(
            &["sed", "-n", "/x/w out", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "",
            0,
            "f1\tx\\ny\\n\nf2\tp\\nq\\n\nout\tx\\n\n",
        );
        check_tree(
            &["sed", "s/y/Y/w out", "f1", "f2"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "x\nY\np\nq\n",
            "",
            0,
            "f1\tx\\ny\\n\nf2\tp\\nq\\n\nout\tY\\n\n",
        );
        check_tree(
            &["sed", "w sub/out", "f1"],
            &[("f1", "x\ny\n"), ("f2", "p\nq\n")],
            "",
            "",
            "sed: couldn't open file sub/out: No such file or directory\n",
            4,
            "f1\tx\\ny\\n\nf2\tp\\nq\\n\n",
        );
    }

    /// A search past the backtracking limit stops sed (status 4) rather than
    /// taking its "no match" as true.
    #[test]
    fn backtracking_limit_stops_sed() {
        let line = format!("{}\n", "a".repeat(2_000));
        check(&["sed", "-E", "s/(a*)*\\1(a*)*\\2c/x/"], &[], &line, "", "sed: regex backtracking limit exceeded\n", 4);
        check(&["sed", "-E", "s/(a)\\1c/x/"], &[], "aac\n", "x\n", "", 0);
    }
}
