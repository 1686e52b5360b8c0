//! `tree` (tree 2.x, UTF-8 line drawing): list directories as a tree,
//! entries sorted by name (byte order), hidden ones only with `-a`.
//! Options: `-a -d -f -l -L N -I PAT -P PAT --noreport --dirsfirst`.
//! Like tree 2.1, a top directory counts in the summary only when it lists
//! something.

use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use crate::fs::{path, FileType};
use crate::io::IoError;
use crate::pattern::Pattern;
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use regex::Regex;

pub struct Tree;

const USAGE: &str = "usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]\n\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]\n\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]\n\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]\n\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]\n\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]\n\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]\n\t[--help] [--] [directory ...]\n";

#[derive(Default)]
struct Opts {
    all: bool,
    dirs_only: bool,
    full_path: bool,
    follow_links: bool,
    dirs_first: bool,
    max_level: Option<usize>,
    ignore: Vec<Regex>,
    only: Vec<Regex>,
}

#[derive(Default)]
struct Counts {
    dirs: usize,
    files: usize,
}

/// `-I`/`-P` patterns: globs separated by `|`.
fn patterns(s: &str) -> Vec<Regex> {
    s.split('|').filter_map(|p| Pattern::from_glob_text(p).compile(false, false)).collect()
}

/// List the entries of `full` (shown as `shown`) below `prefix`.
fn list<'a>(
    ctx: &'a CommandContext<'_>,
    o: &'a Opts,
    c: &'a mut Counts,
    full: String,
    shown: String,
    prefix: String,
    level: usize,
) -> BoxFuture<'a, Result<usize, IoError>> {
    Box::pin(async move {
        let Ok(entries) = ctx.fs.read_dir(&full).await else { return Ok(0) };
        let mut shown_entries = Vec::new();
        for e in entries {
            if !o.all && e.name.starts_with('.') {
                continue;
            }
            if o.ignore.iter().any(|r| r.is_match(&e.name)) {
                continue;
            }
            let child = path::join(&full, &e.name);
            let is_dir = match e.file_type {
                FileType::Dir => true,
                FileType::Symlink => ctx.fs.metadata(&child).await.is_ok_and(|m| m.is_dir()),
                FileType::File => false,
            };
            if o.dirs_only && !is_dir {
                continue;
            }
            if !is_dir && !o.only.is_empty() && !o.only.iter().any(|r| r.is_match(&e.name)) {
                continue;
            }
            shown_entries.push((e, child, is_dir));
        }
        if o.dirs_first {
            shown_entries.sort_by_key(|(_, _, d)| !d);
        }
        let n = shown_entries.len();
        for (i, (e, child, is_dir)) in shown_entries.into_iter().enumerate() {
            if !ctx.still_running() {
                break;
            }
            let last = i + 1 == n;
            let name_shown =
                if o.full_path { format!("{}/{}", shown.trim_end_matches('/'), e.name) } else { e.name.clone() };
            let mut line = format!("{prefix}{}{name_shown}", if last { "└── " } else { "├── " });
            let link = e.file_type == FileType::Symlink;
            if link {
                line.push_str(&format!(" -> {}", ctx.fs.read_link(&child).await.unwrap_or_default()));
            }
            line.push('\n');
            ctx.out(line.as_bytes()).await?;
            if is_dir {
                c.dirs += 1;
                let deeper = o.max_level.is_none_or(|m| level < m);
                if deeper && (!link || o.follow_links) {
                    let p = format!("{prefix}{}", if last { "    " } else { "│   " });
                    let sub =
                        if o.full_path { format!("{}/{}", shown.trim_end_matches('/'), e.name) } else { String::new() };
                    list(ctx, o, c, child, sub, p, level + 1).await?;
                }
            } else {
                c.files += 1;
            }
        }
        Ok(n)
    })
}

#[async_trait]
impl Utility for Tree {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let mut o = Opts::default();
        let mut report = true;
        let mut roots = Vec::new();
        let mut args = ctx.args.iter();
        let mut opts_done = false;
        while let Some(a) = args.next() {
            if opts_done || !a.starts_with('-') || a == "-" {
                roots.push(a.clone());
                continue;
            }
            match a.as_str() {
                "--" => opts_done = true,
                "--noreport" => report = false,
                "--dirsfirst" => o.dirs_first = true,
                "--help" => {
                    ctx.out(USAGE.as_bytes()).await?;
                    return Ok(0);
                }
                "--version" => {
                    ctx.out(b"tree v2.1.0 (c) 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro\n").await?;
                    return Ok(0);
                }
                "-L" | "-I" | "-P" => {
                    let Some(v) = args.next() else {
                        let what =
                            if a == "-L" { "Missing argument to -L option." } else { "Missing argument to -I option." };
                        return Err(UError::new(1, what));
                    };
                    match a.as_str() {
                        "-L" => match v.parse::<usize>() {
                            Ok(n) if n > 0 => o.max_level = Some(n),
                            _ => {
                                return Err(UError::new(1, "Invalid level, must be greater than 0."));
                            }
                        },
                        "-I" => o.ignore.extend(patterns(v)),
                        _ => o.only.extend(patterns(v)),
                    }
                }
                s if s.starts_with("--") => {
                    ctx.stderr.write(format!("tree: Invalid argument `{s}'.\n{USAGE}").as_bytes()).await?;
                    return Ok(1);
                }
                s => {
                    for ch in s[1..].chars() {
                        match ch {
                            'a' => o.all = true,
                            'd' => o.dirs_only = true,
                            'f' => o.full_path = true,
                            'l' => o.follow_links = true,
                            'n' | 'C' | 'A' | 'N' | 'U' => {}
                            other => {
                                let msg = format!("tree: Invalid argument -`{other}'.\n{USAGE}");
                                ctx.stderr.write(msg.as_bytes()).await?;
                                return Ok(1);
                            }
                        }
                    }
                }
            }
        }
        if roots.is_empty() {
            roots.push(".".into());
        }
        let mut c = Counts::default();
        let mut status = 0;
        for r in &roots {
            let full = ctx.resolve(r);
            match ctx.fs.metadata(&full).await {
                Ok(m) if m.is_dir() => {
                    ctx.out(format!("{r}\n").as_bytes()).await?;
                    let shown = if o.full_path { r.clone() } else { String::new() };
                    if list(ctx, &o, &mut c, full, shown, String::new(), 1).await? > 0 {
                        c.dirs += 1;
                    }
                }
                Ok(_) => {
                    ctx.out(format!("{r}  [error opening dir]\n").as_bytes()).await?;
                    status = 2;
                }
                Err(_) => {
                    ctx.out(format!("{r}  [error opening dir]\n").as_bytes()).await?;
                    status = 2;
                }
            }
        }
        if report {
            let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "y" } else { "ies" });
            let dirs = plural(c.dirs, "director");
            let line = if o.dirs_only {
                format!("\n{dirs}\n")
            } else {
                format!("\n{dirs}, {} file{}\n", c.files, if c.files == 1 { "" } else { "s" })
            };
            ctx.out(line.as_bytes()).await?;
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::file_util::testing::{check_on, fs_with};
    use crate::commands::util::testutil::tree;

    #[test]
    fn trees() {
        // tree 2.1.0 (LC_ALL=C.UTF-8) on the same layout.
        let fs = fs_with(
            &[("a/b/c.txt", ""), ("a/x.log", ""), ("f.txt", ""), (".h/z", ""), (".hid", ""), ("d/", "")],
            &[("l", "f.txt"), ("br", "nowhere")],
        );
        let t = tree(&fs);
        let run = |args: &[&str], out: &str, status: i32| {
            let mut argv = vec!["tree"];
            argv.extend_from_slice(args);
            check_on(&fs, &argv, "", out, "", status, &t);
        };
        run(&[], ".\n├── a\n│   ├── b\n│   │   └── c.txt\n│   └── x.log\n├── br -> nowhere\n├── d\n├── f.txt\n└── l -> f.txt\n\n4 directories, 5 files\n", 0);
        run(&["-a"], ".\n├── .h\n│   └── z\n├── .hid\n├── a\n│   ├── b\n│   │   └── c.txt\n│   └── x.log\n├── br -> nowhere\n├── d\n├── f.txt\n└── l -> f.txt\n\n5 directories, 7 files\n", 0);
        run(&["-d"], ".\n├── a\n│   └── b\n└── d\n\n4 directories\n", 0);
        run(
            &["-L", "1"],
            ".\n├── a\n├── br -> nowhere\n├── d\n├── f.txt\n└── l -> f.txt\n\n3 directories, 3 files\n",
            0,
        );
        run(&["-f", "a"], "a\n├── a/b\n│   └── a/b/c.txt\n└── a/x.log\n\n2 directories, 2 files\n", 0);
        run(&["--noreport", "a"], "a\n├── b\n│   └── c.txt\n└── x.log\n", 0);
        run(
            &["-I", "*.txt"],
            ".\n├── a\n│   ├── b\n│   └── x.log\n├── br -> nowhere\n├── d\n└── l -> f.txt\n\n4 directories, 3 files\n",
            0,
        );
        run(&["a", "d"], "a\n├── b\n│   └── c.txt\n└── x.log\nd\n\n2 directories, 2 files\n", 0);
        run(&["d"], "d\n\n0 directories, 0 files\n", 0);
        run(&["nope"], "nope  [error opening dir]\n\n0 directories, 0 files\n", 2);
        check_on(&fs, &["tree", "-L", "x"], "", "", "tree: Invalid level, must be greater than 0.\n", 1, &t);
    }
}
