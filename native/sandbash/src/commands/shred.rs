//! `shred [-fuvxz] [-n N] [-s SIZE] FILE...` (GNU coreutils): overwrite
//! files with random data (`-z`: a last pass of zeros), rounded up to 4 KiB
//! blocks unless `-x`, then with `-u` rename them to shorter and shorter
//! names of zeros and remove them, with GNU's `-v` messages.

use super::util::{bad_arg, parse_size, quote_locale, quotef, Arg, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Shred;

const SPEC: Spec = Spec::new(
    "fn:s:uvxz",
    &[
        ("force", Arg::No, "f"),
        ("iterations", Arg::Yes, "n"),
        ("random-source", Arg::Yes, "random-source"),
        ("remove", Arg::Optional, "remove"),
        ("size", Arg::Yes, "s"),
        ("verbose", Arg::No, "v"),
        ("exact", Arg::No, "x"),
        ("zero", Arg::No, "z"),
    ],
    "[OPTION]... FILE...",
);

/// The block size files are rounded up to (st_blksize of GNU's filesystems).
const BLOCK: u64 = 4096;

/// GNU's fixed patterns, shown as `(ffffff)` by `-v` between random passes.
const PATTERNS: [u32; 22] = [
    0x000000, 0xffffff, 0x555555, 0xaaaaaa, 0x249249, 0x492492, 0x6db6db, 0x924924, 0xb6db6d, 0xdb6db6, 0x111111,
    0x222222, 0x333333, 0x444444, 0x666666, 0x777777, 0x888888, 0x999999, 0xbbbbbb, 0xcccccc, 0xdddddd, 0xeeeeee,
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Remove {
    No,
    Unlink,
    Wipe,
}

/// The passes for `n` iterations: `None` is random data. Random passes come
/// first, last and every few passes, as GNU's genpattern spreads them (GNU
/// also shuffles the fixed ones, so their order is not reproducible).
fn passes(n: u64, zero: bool) -> Vec<Option<u32>> {
    let mut out: Vec<Option<u32>> = Vec::new();
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n <= 3 {
        out.resize(n, None);
    } else {
        let mut fixed = PATTERNS.iter().cycle();
        for i in 0..n {
            let random = i == 0 || i + 1 == n || i % 10 == 0;
            out.push(if random { None } else { fixed.next().copied() });
        }
    }
    if zero {
        out.push(Some(0));
    }
    out
}

/// Fill `len` bytes with one pass's data.
fn pass_data(pass: Option<u32>, len: usize, seed: &mut u64) -> Vec<u8> {
    match pass {
        Some(p) => {
            let bytes = [(p >> 16) as u8, (p >> 8) as u8, p as u8];
            (0..len).map(|i| bytes[i % 3]).collect()
        }
        None => {
            let mut out = Vec::with_capacity(len + 8);
            while out.len() < len {
                // xorshift64: shredding only needs bytes that look random.
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                out.extend_from_slice(&seed.to_le_bytes());
            }
            out.truncate(len);
            out
        }
    }
}

struct Opts {
    passes: Vec<Option<u32>>,
    size: Option<u64>,
    exact: bool,
    verbose: bool,
    remove: Remove,
}

/// Rename `name` through shorter names of zeros (GNU's wipename), then remove it.
async fn wipe_name(ctx: &CommandContext<'_>, name: &str, o: &Opts) -> UResult<()> {
    if o.verbose {
        ctx.err(format!("{name}: removing")).await?;
    }
    let mut cur = name.to_string();
    if o.remove == Remove::Wipe {
        let (dir, base) = match name.rfind('/') {
            Some(i) => (&name[..=i], &name[i + 1..]),
            None => ("", name),
        };
        for len in (1..=base.len()).rev() {
            let new = format!("{dir}{}", "0".repeat(len));
            if new == cur || ctx.fs.symlink_metadata(&ctx.resolve(&new)).await.is_ok() {
                continue;
            }
            if ctx.fs.rename(&ctx.resolve(&cur), &ctx.resolve(&new)).await.is_ok() {
                if o.verbose {
                    ctx.err(format!("{cur}: renamed to {new}")).await?;
                }
                cur = new;
            }
        }
    }
    if let Err(e) = ctx.fs.remove_file(&ctx.resolve(&cur)).await {
        return Err(UError::new(1, format!("{}: failed to remove: {e}", quotef(name))));
    }
    if o.verbose {
        ctx.err(format!("{name}: removed")).await?;
    }
    Ok(())
}

/// Overwrite (and maybe remove) one file; the error says why it failed.
async fn shred_file(ctx: &CommandContext<'_>, name: &str, o: &Opts, seed: &mut u64) -> UResult<()> {
    if name == "-" {
        return Err(UError::new(1, "-: invalid file type"));
    }
    let path = ctx.resolve(name);
    let meta = match ctx.fs.metadata(&path).await {
        Ok(m) if m.is_dir() => Err(crate::fs::FsError::IsADirectory),
        r => r,
    };
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            return Err(UError::new(1, format!("{}: failed to open for writing: {e}", quotef(name))));
        }
    };
    let size = match o.size {
        Some(s) => s,
        None if o.exact => meta.size,
        None => meta.size.div_ceil(BLOCK) * BLOCK,
    };
    let len = match usize::try_from(size) {
        // The pass is built in memory, so it is held to the string limit.
        Ok(l) if size <= ctx.budget.limits.max_string_bytes => l,
        _ => {
            return Err(UError::new(1, format!("{}: error writing at offset 0: File too large", quotef(name))));
        }
    };
    let total = o.passes.len();
    for (i, pass) in o.passes.iter().enumerate() {
        if !ctx.still_running() {
            return Err(UError::Exit(1));
        }
        if o.verbose {
            let what = pass.map_or("random".to_string(), |p| format!("{p:06x}"));
            ctx.err(format!("{name}: pass {}/{total} ({what})...", i + 1)).await?;
        }
        // -s shorter than the file overwrites its start only, as GNU does.
        let mut data = pass_data(*pass, len, seed);
        if (len as u64) < meta.size {
            if let Ok(old) = ctx.fs.read(&path).await {
                data.extend_from_slice(old.get(len..).unwrap_or(&[]));
            }
        }
        if let Err(e) = ctx.fs.write(&path, &data).await {
            return Err(UError::new(1, format!("{}: error writing at offset 0: {e}", quotef(name))));
        }
    }
    if o.remove != Remove::No {
        return wipe_name(ctx, name, o).await;
    }
    Ok(())
}

#[async_trait]
impl Utility for Shred {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let mut o = Opts { passes: Vec::new(), size: None, exact: p.has("x"), verbose: p.has("v"), remove: Remove::No };
        let mut iterations = 3u64;
        for opt in &p.opts {
            let v = opt.val.as_deref().unwrap_or("");
            match opt.id {
                "n" => match v.parse::<u64>() {
                    Ok(n) => iterations = n,
                    Err(_) => {
                        return Err(UError::new(1, format!("invalid number of passes: {}", quote_locale(v))));
                    }
                },
                "s" => match parse_size(v) {
                    Some(s) => o.size = Some(s),
                    None => {
                        return Err(UError::new(1, format!("invalid file size: {}", quote_locale(v))));
                    }
                },
                "u" => o.remove = Remove::Wipe,
                "remove" => match opt.val.as_deref() {
                    None | Some("wipe" | "wipesync") => o.remove = Remove::Wipe,
                    Some("unlink") => o.remove = Remove::Unlink,
                    Some(bad) => {
                        let valid: Vec<String> = ["unlink", "wipe", "wipesync"].map(quote_locale).to_vec();
                        let refs: Vec<&str> = valid.iter().map(String::as_str).collect();
                        return Err(UError::usage(1, bad_arg(bad, "remove", &refs)));
                    }
                },
                _ => {}
            }
        }
        if iterations > 1_000_000 {
            return Err(UError::new(1, format!("invalid number of passes: {}", quote_locale(&iterations.to_string()))));
        }
        o.passes = passes(iterations, p.has("z"));
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing file operand"));
        }
        let mut seed = crate::expand::param::next_random() | 1;
        let mut ok = true;
        for f in &p.operands {
            if let Err(e) = shred_file(ctx, f, &o, &mut seed).await {
                ctx.report(e).await?;
                ok = false;
            }
        }
        Ok(if ok { 0 } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, check_tree, make_fs, run_full, tree};
    use crate::limits::Limits;

    #[test]
    fn overwrites() {
        let fs = make_fs(&[("s1", "hello\n"), ("big", &"x".repeat(5000)), ("e0", ""), ("s3", "abc")]);
        let run = |argv: &[&str]| run_full(&fs, argv, b"", &[], Limits::default());
        assert_eq!(run(&["shred", "-n", "1", "s1", "big", "e0"]).status, 0);
        let size = |name: &str| crate::commands::util::testutil::block_on(fs.metadata(&format!("/w/{name}"))).map(|m| m.size);
        assert_eq!((size("s1"), size("big"), size("e0")), (Ok(4096), Ok(8192), Ok(0)));
        run(&["shred", "-s", "10", "s3"]);
        assert_eq!(size("s3"), Ok(10));
        let t = tree(&fs);
        assert!(!t.contains("hello"), "{t}");
    }

    #[test]
    fn zero_exact() {
        let msg = "shred: e2: pass 1/2 (random)...\nshred: e2: pass 2/2 (000000)...\n";
        check_tree(&["shred", "-vzx", "-n1", "e2"], &[("e2", "ab")], "", "", msg, 0, "e2\t\0\0\n");
        check_tree(&["shred", "-v", "-n", "0", "e1"], &[("e1", "ab")], "", "", "", 0, "e1\tab\n");
        let msg = "shred: s3: pass 1/3 (random)...\nshred: s3: pass 2/3 (random)...\nshred: s3: pass 3/3 (000000)...\n";
        check(&["shred", "-vz", "-n", "2", "s3"], &[("s3", "abc")], "", "", msg, 0);
    }

    #[test]
    fn removes() {
        let msg = "shred: s3: pass 1/3 (random)...\nshred: s3: pass 2/3 (random)...\nshred: s3: pass 3/3 (random)...\n\
                   shred: s3: removing\nshred: s3: renamed to 00\nshred: 00: renamed to 0\nshred: s3: removed\n";
        check_tree(&["shred", "-vu", "s3"], &[("s3", "abc"), ("k", "")], "", "", msg, 0, "k\t\n");
        let msg = "shred: sub/ab: pass 1/1 (random)...\nshred: sub/ab: removing\nshred: sub/ab: renamed to sub/00\n\
                   shred: sub/00: renamed to sub/0\nshred: sub/ab: removed\n";
        check_tree(&["shred", "-vu", "-n1", "sub/ab"], &[("sub/ab", "abc")], "", "", msg, 0, "sub/\n");
        let msg = "shred: s4: pass 1/1 (random)...\nshred: s4: removing\nshred: s4: removed\n";
        check_tree(&["shred", "--remove=unlink", "-vn1", "s4"], &[("s4", "abc")], "", "", msg, 0, "");
    }

    #[test]
    fn errors() {
        check(&["shred"], &[], "", "", "shred: missing file operand\nTry 'shred --help' for more information.\n", 1);
        let msg = "shred: nofile: failed to open for writing: No such file or directory\n";
        check(&["shred", "nofile"], &[], "", "", msg, 1);
        check(&["shred", "dd"], &[("dd/", "")], "", "", "shred: dd: failed to open for writing: Is a directory\n", 1);
        check(&["shred", "-"], &[], "", "", "shred: -: invalid file type\n", 1);
        check(&["shred", "-n", "x", "f"], &[], "", "", "shred: invalid number of passes: 'x'\n", 1);
        check(&["shred", "-s", "x", "f"], &[], "", "", "shred: invalid file size: 'x'\n", 1);
        let msg = "shred: invalid argument 'foo' for '--remove'\nValid arguments are:\n  - 'unlink'\n  - 'wipe'\n  - 'wipesync'\n\
                   Try 'shred --help' for more information.\n";
        check(&["shred", "--remove=foo", "f"], &[], "", "", msg, 1);
    }
}
