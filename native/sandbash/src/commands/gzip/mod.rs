//! `gzip`, `gunzip` and `zcat` (gzip 1.12): compress or expand files in place
//! (`x` <-> `x.gz`, keeping mode and mtime) or to stdout (`-c`), `-l` lists,
//! `-t` tests, `-r` recurses. Messages always say `gzip:`, as the real
//! `gunzip`/`zcat` wrapper scripts do. The header holds the file's name and
//! mtime (`-n`: neither) and OS byte 3, never anything from the host.

pub(crate) mod codec;

use crate::commands::util::{parse, quote_locale, Arg, OptError, Spec};
use crate::commands::util::strftime::{format, When};
use crate::commands::date::parse::Zone;
use crate::commands::util::file_time::to_unix;
use codec::{header, Decoder, Encoder, GzError};
use crate::commands::{Command, CommandContext, CommandResult};
use crate::fs::path;
use crate::io::IoError;
use async_trait::async_trait;

pub struct Gzip;

const SPEC: Spec = Spec::new(
    "cdfhklnNqrS:tvV123456789",
    &[
        ("stdout", Arg::No, "c"),
        ("to-stdout", Arg::No, "c"),
        ("decompress", Arg::No, "d"),
        ("uncompress", Arg::No, "d"),
        ("force", Arg::No, "f"),
        ("help", Arg::No, "h"),
        ("keep", Arg::No, "k"),
        ("list", Arg::No, "l"),
        ("no-name", Arg::No, "n"),
        ("name", Arg::No, "N"),
        ("quiet", Arg::No, "q"),
        ("silent", Arg::No, "q"),
        ("recursive", Arg::No, "r"),
        ("suffix", Arg::Yes, "S"),
        ("test", Arg::No, "t"),
        ("verbose", Arg::No, "v"),
        ("version", Arg::No, "V"),
        ("fast", Arg::No, "1"),
        ("best", Arg::No, "9"),
    ],
    "[OPTION]... [FILE]...",
);

const WARNING: i32 = 2;

struct Opts {
    stdout: bool,
    decompress: bool,
    force: bool,
    keep: bool,
    list: bool,
    no_name: bool,
    quiet: bool,
    recursive: bool,
    test: bool,
    verbose: bool,
    level: u32,
    suffix: String,
}

/// Exit status (an error beats a warning) and `-l` totals.
#[derive(Default)]
struct State {
    error: bool,
    warning: bool,
    listed: usize,
    tot_in: u64,
    tot_out: u64,
    header_bytes: u64,
}

/// `%5.1f%%` of gzip's ratio: the share of `orig` saved, counting the payload only.
fn ratio(orig: u64, packed: u64, header_bytes: u64) -> String {
    let num = orig as f64 - (packed as f64 - header_bytes as f64);
    let r = if orig == 0 { 0.0 } else { 100.0 * num / orig as f64 };
    format!("{r:5.1}%")
}

async fn say(ctx: &CommandContext<'_>, msg: &str) -> Result<(), IoError> {
    ctx.stderr.write(format!("gzip: {msg}\n").as_bytes()).await
}

/// The name with a known compressed suffix removed (`.tgz` gives `.tar`).
fn strip_suffix(name: &str, suffix: &str) -> Option<String> {
    let base = path::file_name(name);
    for s in [suffix, ".gz", "-gz", ".z", "-z", "_z"] {
        if let Some(b) = name.strip_suffix(s).filter(|_| base.len() > s.len()) {
            return Some(b.to_string());
        }
    }
    for s in [".tgz", ".taz"] {
        if let Some(b) = name.strip_suffix(s).filter(|_| base.len() > s.len()) {
            return Some(format!("{b}.tar"));
        }
    }
    None
}

#[async_trait]
impl Command for Gzip {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult {
        let p = match parse(ctx.args, &SPEC) {
            Ok(p) => p,
            Err(OptError::Help) => return help(ctx).await,
            Err(OptError::Version) => {
                ctx.out(crate::commands::util::gzip_version(ctx.name).as_bytes()).await?;
                return Ok(0);
            }
            Err(e) => {
                let m = format!("gzip: {e}\nTry `gzip --help' for more information.\n");
                ctx.stderr.write(m.as_bytes()).await?;
                return Ok(1);
            }
        };
        let mut o = Opts {
            stdout: ctx.name == "zcat",
            decompress: ctx.name != "gzip",
            force: false,
            keep: false,
            list: false,
            no_name: false,
            quiet: false,
            recursive: false,
            test: false,
            verbose: false,
            level: 6,
            suffix: ".gz".into(),
        };
        for op in &p.opts {
            match op.id {
                "c" => o.stdout = true,
                "d" => o.decompress = true,
                "f" => o.force = true,
                "h" => return help(ctx).await,
                "V" => {
                    ctx.out(crate::commands::util::gzip_version(ctx.name).as_bytes()).await?;
                    return Ok(0);
                }
                "k" => o.keep = true,
                "l" => o.list = true,
                "n" => o.no_name = true,
                "N" => o.no_name = false,
                "q" => (o.quiet, o.verbose) = (true, false),
                "r" => o.recursive = true,
                "S" => o.suffix = op.val.clone().unwrap_or_default(),
                "t" => o.test = true,
                "v" => (o.verbose, o.quiet) = (true, false),
                d => o.level = d.parse().unwrap_or(6),
            }
        }
        if o.suffix.is_empty() || o.suffix.contains('/') {
            say(ctx, &format!("invalid suffix {}", quote_locale(&o.suffix))).await?;
            return Ok(1);
        }
        if o.list || o.test {
            o.decompress = true;
        }
        let files = if p.operands.is_empty() { vec!["-".to_string()] } else { p.operands.clone() };
        let mut st = State::default();
        for f in &files {
            if !ctx.still_running() {
                break;
            }
            if f == "-" {
                stdin(ctx, &o, &mut st).await?;
            } else {
                file(ctx, &o, &mut st, f.clone()).await?;
            }
        }
        if o.list && st.listed > 1 {
            let pre = if o.verbose { " ".repeat(28) } else { String::new() };
            let r = ratio(st.tot_out, st.tot_in, st.header_bytes);
            ctx.out(format!("{pre}{:>19} {:>19} {r} (totals)\n", st.tot_in, st.tot_out).as_bytes()).await?;
        }
        Ok(if st.error {
            1
        } else if st.warning {
            WARNING
        } else {
            0
        })
    }
}

async fn help(ctx: &CommandContext<'_>) -> CommandResult {
    let text =
        "Usage: gzip [OPTION]... [FILE]...\nCompress or uncompress FILEs (by default, compress FILES in-place).\n";
    ctx.out_help(text.as_bytes()).await?;
    Ok(0)
}

async fn stdin(ctx: &CommandContext<'_>, o: &Opts, st: &mut State) -> Result<(), IoError> {
    if !o.decompress {
        let mut enc = Encoder::new(o.level, None, 0);
        let hb = enc.header_len() as u64 + 8;
        let (mut n_in, mut n_out) = (0u64, 0u64);
        while let Some(chunk) = ctx.stdin.read_chunk().await {
            n_in += chunk.len() as u64;
            let z = enc.feed(&chunk);
            n_out += z.len() as u64;
            ctx.out(&z).await?;
            if !ctx.still_running() {
                return Ok(());
            }
        }
        let z = enc.finish();
        n_out += z.len() as u64;
        ctx.out(&z).await?;
        if o.verbose {
            ctx.stderr.write(format!("{}\n", ratio(n_in, n_out, hb)).as_bytes()).await?;
        }
        return Ok(());
    }
    let data = match ctx.read_stdin().await {
        Ok(d) => d,
        Err(e) => {
            say(ctx, &format!("stdin: {e}")).await?;
            st.error = true;
            return Ok(());
        }
    };
    expand(ctx, o, st, "stdin", None, data).await
}

async fn file(ctx: &CommandContext<'_>, o: &Opts, st: &mut State, name: String) -> Result<(), IoError> {
    let mut name = name;
    let mut meta = ctx.fs.symlink_metadata(&ctx.resolve(&name)).await;
    if meta.is_err() && o.decompress && strip_suffix(&name, &o.suffix).is_none() {
        name = format!("{name}{}", o.suffix);
        meta = ctx.fs.symlink_metadata(&ctx.resolve(&name)).await;
    }
    let meta = match meta {
        Ok(m) if m.is_symlink() && !o.force => {
            say(ctx, &format!("{name}: Too many levels of symbolic links")).await?;
            st.error = true;
            return Ok(());
        }
        Ok(m) if m.is_symlink() => ctx.fs.metadata(&ctx.resolve(&name)).await,
        other => other,
    };
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            say(ctx, &format!("{name}: {e}")).await?;
            st.error = true;
            return Ok(());
        }
    };
    let full = ctx.resolve(&name);
    if meta.is_dir() {
        if !o.recursive {
            if !o.quiet {
                say(ctx, &format!("{name} is a directory -- ignored")).await?;
            }
            st.warning = true;
            return Ok(());
        }
        let mut entries = ctx.fs.read_dir(&full).await.unwrap_or_default();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        for e in entries {
            // Boxed: the recursion is async.
            Box::pin(file(ctx, o, st, path::join(&name, &e.name))).await?;
        }
        return Ok(());
    }
    let data = match ctx.fs.read(&full).await {
        Ok(d) => d,
        Err(e) => {
            say(ctx, &format!("{name}: {e}")).await?;
            st.error = true;
            return Ok(());
        }
    };
    if o.decompress {
        if o.list {
            return list(ctx, o, st, &name, &data, to_unix(meta.mtime).0).await;
        }
        let target = if o.stdout || o.test {
            None
        } else {
            match strip_suffix(&name, &o.suffix) {
                Some(t) => Some(t),
                None => {
                    if !o.quiet {
                        say(ctx, &format!("{name}: unknown suffix -- ignored")).await?;
                    }
                    st.warning = true;
                    return Ok(());
                }
            }
        };
        if let Some(t) = &target {
            if !o.force && ctx.fs.symlink_metadata(&ctx.resolve(t)).await.is_ok() {
                say(ctx, &format!("{t} already exists;\tnot overwritten")).await?;
                st.warning = true;
                return Ok(());
            }
        }
        let before = st.error;
        expand(ctx, o, st, &name, target.as_deref(), data).await?;
        if let Some(t) = target.filter(|_| st.error == before) {
            let tp = ctx.resolve(&t);
            let _ = ctx.fs.set_mode(&tp, meta.mode).await;
            let _ = ctx.fs.set_mtime(&tp, meta.mtime).await;
            if !o.keep {
                let _ = ctx.fs.remove_file(&full).await;
            }
        }
        return Ok(());
    }
    if !o.stdout && strip_suffix(&name, &o.suffix).is_some() {
        if !o.quiet {
            say(ctx, &format!("{name} already has {} suffix -- unchanged", o.suffix)).await?;
        }
        return Ok(());
    }
    let out_name = format!("{name}{}", o.suffix);
    let out_path = ctx.resolve(&out_name);
    if !o.stdout && !o.force && ctx.fs.symlink_metadata(&out_path).await.is_ok() {
        say(ctx, &format!("{out_name} already exists;\tnot overwritten")).await?;
        st.warning = true;
        return Ok(());
    }
    let base = path::file_name(&name).to_string();
    let (hname, mtime) = if o.no_name { (None, 0) } else { (Some(base.as_bytes()), to_unix(meta.mtime).0 as u32) };
    let mut enc = Encoder::new(o.level, hname, mtime);
    let hb = enc.header_len() as u64 + 8;
    let mut z = enc.feed(&data);
    z.extend(enc.finish());
    let r = ratio(data.len() as u64, z.len() as u64, hb);
    if o.stdout {
        ctx.out(&z).await?;
        if o.verbose {
            ctx.stderr.write(format!("{name}:\t{r} -- replaced with stdout\n").as_bytes()).await?;
        }
        return Ok(());
    }
    if let Err(e) = ctx.fs.write(&out_path, &z).await {
        say(ctx, &format!("{out_name}: {e}")).await?;
        st.error = true;
        return Ok(());
    }
    let _ = ctx.fs.set_mode(&out_path, meta.mode).await;
    let _ = ctx.fs.set_mtime(&out_path, meta.mtime).await;
    if !o.keep {
        let _ = ctx.fs.remove_file(&full).await;
    }
    if o.verbose {
        let how = if o.keep { "created" } else { "replaced with" };
        ctx.stderr.write(format!("{name}:\t{r} -- {how} {out_name}\n").as_bytes()).await?;
    }
    Ok(())
}

/// Decompress `data` to `target` (a file), or stdout, or nowhere (`-t`).
async fn expand(
    ctx: &CommandContext<'_>,
    o: &Opts,
    st: &mut State,
    name: &str,
    target: Option<&str>,
    data: Vec<u8>,
) -> Result<(), IoError> {
    let n_in = data.len() as u64;
    let hb = header(&data).map_or(0, |h| h.len as u64 + 8);
    let tpath = target.map(|t| ctx.resolve(t));
    if let Some(tp) = &tpath {
        if let Err(e) = ctx.fs.write(tp, b"").await {
            say(ctx, &format!("{}: {e}", target.unwrap_or(name))).await?;
            st.error = true;
            return Ok(());
        }
    }
    let mut dec = Decoder::new(data);
    let mut n_out = 0u64;
    loop {
        if !ctx.still_running() {
            return Ok(());
        }
        match dec.next_chunk() {
            Ok(Some(chunk)) => {
                n_out += chunk.len() as u64;
                match &tpath {
                    Some(tp) => {
                        if let Err(e) = ctx.fs.append(tp, &chunk).await {
                            let _ = ctx.fs.remove_file(tp).await;
                            say(ctx, &format!("{}: {e}", target.unwrap_or(name))).await?;
                            st.error = true;
                            return Ok(());
                        }
                    }
                    None if o.test => {}
                    None => ctx.out(&chunk).await?,
                }
            }
            Ok(None) => break,
            Err(e) => {
                if let Some(tp) = &tpath {
                    let _ = ctx.fs.remove_file(tp).await;
                }
                let m = format!("\ngzip: {name}: {e}\n");
                ctx.stderr.write(m.as_bytes()).await?;
                st.error = true;
                return Ok(());
            }
        }
    }
    if dec.trailing_garbage {
        if !o.quiet {
            ctx.stderr
                .write(format!("\ngzip: {name}: decompression OK, trailing garbage ignored\n").as_bytes())
                .await?;
        }
        st.warning = true;
    }
    if o.verbose {
        let line = if o.test {
            format!("{name}:\t OK\n")
        } else {
            let r = ratio(n_out, n_in, hb);
            match target {
                Some(t) if o.keep => format!("{name}:\t{r} -- created {t}\n"),
                Some(t) => format!("{name}:\t{r} -- replaced with {t}\n"),
                None => format!("{name}:\t{r} -- replaced with stdout\n"),
            }
        };
        ctx.stderr.write(line.as_bytes()).await?;
    }
    Ok(())
}

/// One `-l` line (the heading before the first).
async fn list(
    ctx: &CommandContext<'_>,
    o: &Opts,
    st: &mut State,
    name: &str,
    data: &[u8],
    mtime: i64,
) -> Result<(), IoError> {
    let h = match header(data) {
        Ok(h) if data.len() >= h.len + 8 => h,
        r => {
            let e = r.err().unwrap_or(GzError::Eof);
            ctx.stderr.write(format!("\ngzip: {name}: {e}\n").as_bytes()).await?;
            st.error = true;
            return Ok(());
        }
    };
    let n = data.len();
    let crc = u32::from_le_bytes([data[n - 8], data[n - 7], data[n - 6], data[n - 5]]);
    let size = u64::from(u32::from_le_bytes([data[n - 4], data[n - 3], data[n - 2], data[n - 1]]));
    if st.listed == 0 {
        let head = if o.verbose { "method  crc     date  time  " } else { "" };
        ctx.out(format!("{head}         compressed        uncompressed  ratio uncompressed_name\n").as_bytes()).await?;
    }
    let hb = h.len as u64 + 8;
    let pre = if o.verbose {
        let zone = Zone::from_tz(ctx.env.get("TZ").as_deref());
        let (offset, abbr) = zone.info(mtime);
        let date = format(b"%b %e %H:%M", &When { secs: mtime, nanos: 0, offset, abbr: &abbr });
        format!("defla {crc:08x} {} ", String::from_utf8_lossy(&date))
    } else {
        String::new()
    };
    let shown = strip_suffix(name, &o.suffix).unwrap_or_else(|| name.to_string());
    let r = ratio(size, n as u64, hb);
    ctx.out(format!("{pre}{n:>19} {size:>19} {r} {shown}\n").as_bytes()).await?;
    st.listed += 1;
    st.tot_in += n as u64;
    st.tot_out += size;
    st.header_bytes = hb;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{block_on, make_fs, run_full, run_raw, tree, Out};
    use crate::fs::Fs;
    use crate::limits::Limits;
    use std::sync::Arc;

    /// `printf 'hello\n' > a; touch -d '2024-01-02 03:04:05' a; gzip a` (gzip 1.12).
    const A_GZ: &[u8] = &[
        0x1f, 0x8b, 8, 8, 0x25, 0x7d, 0x93, 0x65, 0, 3, b'a', 0, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xe7, 2, 0, 0x20, 0x30,
        0x3a, 0x36, 6, 0, 0, 0,
    ];
    const MTIME: i64 = 1_704_164_645;

    fn fs_with(files: &[(&str, &[u8])]) -> Arc<dyn Fs> {
        let fs = make_fs(&[("d/", "")]);
        block_on(async {
            for (n, d) in files {
                let p = format!("/w/{n}");
                fs.mkdir(crate::fs::path::parent(&p), true).await.expect("mkdir");
                fs.write(&p, d).await.expect("write");
                fs.set_mode(&p, 0o600).await.expect("mode");
                fs.set_mtime(&p, crate::commands::util::file_time::from_unix(MTIME, 0)).await.expect("mtime");
            }
        });
        fs
    }

    fn raw(fs: &Arc<dyn Fs>, argv: &[&str], stdin: &[u8]) -> Vec<u8> {
        run_raw(fs, argv, stdin, &[], Limits::default()).0
    }

    fn go(fs: &Arc<dyn Fs>, argv: &[&str], stdin: &[u8]) -> Out {
        run_full(fs, argv, stdin, &[("TZ", "UTC")], Limits::default())
    }

    fn read(fs: &Arc<dyn Fs>, p: &str) -> Vec<u8> {
        block_on(fs.read(&format!("/w/{p}"))).expect("read")
    }

    fn meta(fs: &Arc<dyn Fs>, p: &str) -> (u32, i64) {
        let m = block_on(fs.metadata(&format!("/w/{p}"))).expect("meta");
        (m.mode, crate::commands::util::file_time::to_unix(m.mtime).0)
    }

    #[test]
    fn compress_in_place_like_gnu() {
        let fs = fs_with(&[("a", b"hello\n")]);
        let o = go(&fs, &["gzip", "a"], b"");
        assert_eq!((o.out.as_str(), o.err.as_str(), o.status), ("", "", 0));
        assert_eq!(read(&fs, "a.gz"), A_GZ);
        assert_eq!(meta(&fs, "a.gz"), (0o600, MTIME));
        assert!(block_on(fs.metadata("/w/a")).is_err());
    }

    #[test]
    fn expand_in_place_and_to_stdout() {
        let fs = fs_with(&[("a.gz", A_GZ), ("q.tgz", A_GZ)]);
        let o = go(&fs, &["gunzip", "-v", "a.gz", "q"], b"");
        assert_eq!(
            (o.out.as_str(), o.err.as_str(), o.status),
            ("", "a.gz:\t-33.3% -- replaced with a\ngzip: q.gz: No such file or directory\n", 1)
        );
        assert_eq!(read(&fs, "a"), b"hello\n");
        assert_eq!(meta(&fs, "a"), (0o600, MTIME));
        let o = go(&fs, &["gunzip", "q.tgz"], b"");
        assert_eq!(o.status, 0);
        assert_eq!(tree(&fs), "a\thello\\n\nd/\nq.tar\thello\\n\n");
        let fs = fs_with(&[("a.gz", A_GZ)]);
        let o = go(&fs, &["zcat", "a.gz", "a"], b"");
        assert_eq!((o.out.as_str(), o.status), ("hello\nhello\n", 0));
        let o = go(&fs, &["gzip", "-dc"], A_GZ);
        assert_eq!(o.out, "hello\n");
        let mut two = A_GZ.to_vec();
        two.extend_from_slice(A_GZ);
        assert_eq!(go(&fs, &["gunzip", "-c"], &two).out, "hello\nhello\n");
        let o = go(&fs, &["gunzip", "-kv", "a.gz"], b"");
        assert_eq!(o.err, "a.gz:\t-33.3% -- created a\n");
        assert!(block_on(fs.metadata("/w/a.gz")).is_ok());
        assert_eq!(go(&fs, &["gzip", "-tv", "a.gz"], b"").err, "a.gz:\t OK\n");
    }

    #[test]
    fn stdin_round_trip_and_levels() {
        let fs = fs_with(&[("e", b"")]);
        let z = &raw(&fs, &["gzip"], b"hi\n");
        // `echo hi | gzip`: no name, mtime 0, OS 3.
        assert_eq!(&z[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
        let fs2 = fs_with(&[("z.gz", z)]);
        assert_eq!(go(&fs2, &["zcat", "z.gz"], b"").out, "hi\n");
        // `gzip -c -9 e` and `gzip -1c e`: XFL 2 and 4, the name and mtime kept.
        let nine = raw(&fs, &["gzip", "-c", "-9", "e"], b"");
        assert_eq!(&nine[..12], &[0x1f, 0x8b, 8, 8, 0x25, 0x7d, 0x93, 0x65, 2, 3, b'e', 0]);
        let one = raw(&fs, &["gzip", "-1c", "e"], b"");
        assert_eq!(&one[8..10], &[4, 3]);
        let n = raw(&fs, &["gzip", "-cn", "e"], b"");
        assert_eq!(&n[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    }

    #[test]
    fn list() {
        let fs = fs_with(&[("a.gz", A_GZ), ("b.gz", A_GZ)]);
        let o = go(&fs, &["gzip", "-l", "a.gz"], b"");
        assert_eq!(o.out, "         compressed        uncompressed  ratio uncompressed_name\n                 28                   6 -33.3% a\n");
        let o = go(&fs, &["gzip", "-lv", "a.gz", "b.gz"], b"");
        assert_eq!(
            o.out,
            "method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\n\
             defla 363a3020 Jan  2 03:04                  28                   6 -33.3% a\n\
             defla 363a3020 Jan  2 03:04                  28                   6 -33.3% b\n\
             \x20                                            56                  12 -200.0% (totals)\n"
        );
    }

    #[test]
    fn errors_and_warnings() {
        let fs = fs_with(&[("a", b"hello\n"), ("b", b"x"), ("b.gz", A_GZ), ("z.gz", b"zz\n")]);
        let o = go(&fs, &["gzip", "b", "nope", "d", "b.gz"], b"");
        assert_eq!(
            (o.err.as_str(), o.status),
            (
                "gzip: b.gz already exists;\tnot overwritten\ngzip: nope: No such file or directory\ngzip: d is a directory -- ignored\ngzip: b.gz already has .gz suffix -- unchanged\n",
                1
            )
        );
        let o = go(&fs, &["gzip", "b"], b"");
        assert_eq!((o.err.as_str(), o.status), ("gzip: b.gz already exists;\tnot overwritten\n", 2));
        assert_eq!(go(&fs, &["gzip", "-f", "b"], b"").status, 0);
        let o = go(&fs, &["gunzip", "a"], b"");
        assert_eq!((o.err.as_str(), o.status), ("gzip: a: unknown suffix -- ignored\n", 2));
        let o = go(&fs, &["gunzip", "z.gz"], b"");
        assert_eq!((o.err.as_str(), o.status), ("\ngzip: z.gz: not in gzip format\n", 1));
        assert!(block_on(fs.metadata("/w/z")).is_err());
        let o = go(&fs, &["gzip", "-d", "nope.gz"], b"");
        assert_eq!((o.err.as_str(), o.status), ("gzip: nope.gz: No such file or directory\n", 1));
        let o = go(&fs, &["gunzip", "-c", "nope"], b"");
        assert_eq!(o.err, "gzip: nope.gz: No such file or directory\n");
        let mut junk = A_GZ.to_vec();
        junk.extend_from_slice(b"junk\n");
        let o = go(&fs, &["gunzip", "-c"], &junk);
        assert_eq!(
            (o.out.as_str(), o.err.as_str(), o.status),
            ("hello\n", "\ngzip: stdin: decompression OK, trailing garbage ignored\n", 2)
        );
        let mut crc = A_GZ.to_vec();
        crc[23] ^= 1;
        let o = go(&fs, &["gunzip", "-c"], &crc);
        assert_eq!((o.err.as_str(), o.status), ("\ngzip: stdin: invalid compressed data--crc error\n", 1));
        let o = go(&fs, &["gunzip", "-c"], &A_GZ[..20]);
        assert_eq!((o.err.as_str(), o.status), ("\ngzip: stdin: unexpected end of file\n", 1));
        let o = go(&fs, &["gzip", "-x"], b"");
        assert_eq!(
            (o.err.as_str(), o.status),
            ("gzip: invalid option -- 'x'\nTry `gzip --help' for more information.\n", 1)
        );
        let o = go(&fs, &["gzip", "-S", "", "a"], b"");
        assert_eq!((o.err.as_str(), o.status), ("gzip: invalid suffix ''\n", 1));
    }

    #[test]
    fn recursive() {
        let fs = fs_with(&[("d/x", b"1\n"), ("d/e/y", b"2\n")]);
        let o = go(&fs, &["gzip", "-r", "d"], b"");
        assert_eq!(o.status, 0);
        let o = go(&fs, &["zcat", "d/x.gz", "d/e/y.gz"], b"");
        assert_eq!(o.out, "1\n2\n");
        assert_eq!(go(&fs, &["gunzip", "-r", "d"], b"").status, 0);
        assert_eq!(read(&fs, "d/e/y"), b"2\n");
    }
}
