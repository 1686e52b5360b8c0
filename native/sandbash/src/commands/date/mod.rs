//! `date`: print a date (now, `-d STRING`, `-f FILE` lines, `-r FILE`'s mtime)
//! in a format (`+FORMAT`, `-I`, `-R`, `--rfc-3339`), in `TZ` or UTC (`-u`).
//! Setting the clock (`-s`, `MMDDhhmm` operands) is refused: the sandbox has none.

pub(crate) mod parse;

use crate::commands::util::{bad_arg, quote, quote_locale, quotef, Arg, Spec};
use crate::commands::util::strftime::{format, When};
use parse::{parse, Zone};
use crate::commands::util::file_time::to_unix;
use crate::commands::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Date;

const SPEC: Spec = Spec::new(
    "d:f:I:r:Rs:u",
    &[
        ("date", Arg::Yes, "d"),
        ("file", Arg::Yes, "f"),
        ("iso-8601", Arg::Optional, "I"),
        ("reference", Arg::Yes, "r"),
        ("rfc-email", Arg::No, "R"),
        ("rfc-822", Arg::No, "R"),
        ("rfc-2822", Arg::No, "R"),
        ("rfc-3339", Arg::Yes, "rfc-3339"),
        ("set", Arg::Yes, "s"),
        ("utc", Arg::No, "u"),
        ("universal", Arg::No, "u"),
        ("uct", Arg::No, "u"),
    ],
    "[OPTION]... [+FORMAT]\n  or:  date [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]",
);

const ISO: [(&str, &str); 5] = [
    ("hours", "%Y-%m-%dT%H%:z"),
    ("minutes", "%Y-%m-%dT%H:%M%:z"),
    ("date", "%Y-%m-%d"),
    ("seconds", "%Y-%m-%dT%H:%M:%S%:z"),
    ("ns", "%Y-%m-%dT%H:%M:%S,%N%:z"),
];
const RFC3339: [(&str, &str); 3] =
    [("date", "%Y-%m-%d"), ("seconds", "%Y-%m-%d %H:%M:%S%:z"), ("ns", "%Y-%m-%d %H:%M:%S.%N%:z")];

/// argmatch: an exact name or a unique prefix.
fn argmatch(v: &str, table: &[(&'static str, &'static str)]) -> Option<&'static str> {
    if let Some(e) = table.iter().find(|e| e.0 == v) {
        return Some(e.1);
    }
    let c: Vec<_> = table.iter().filter(|e| !v.is_empty() && e.0.starts_with(v)).collect();
    (c.len() == 1).then(|| c[0].1)
}

/// `MMDDhhmm[[CC]YY][.ss]` (the set-the-clock operand): whether it is a valid date.
fn posix_time_ok(s: &str) -> bool {
    let (main, secs) = s.split_once('.').unwrap_or((s, "00"));
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    if !digits(main) || !matches!(main.len(), 8 | 10 | 12) || secs.len() != 2 || !digits(secs) {
        return false;
    }
    let n = |i: usize| main[i..i + 2].parse::<u32>().unwrap_or(99);
    (1..=12).contains(&n(0)) && (1..=31).contains(&n(2)) && n(4) < 24 && n(6) < 60 && secs < "60"
}

#[async_trait]
impl Utility for Date {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        // `-I` takes an optional value glued to it, which short options here cannot.
        let args: Vec<String> = ctx
            .args
            .iter()
            .map(|a| match a.strip_prefix("-I") {
                Some("") => "--iso-8601".to_string(),
                Some(v) if !v.starts_with('-') => format!("--iso-8601={v}"),
                _ => a.clone(),
            })
            .collect();
        let p = ctx.opts_of(&args, &SPEC).await?;
        let mut fmt: Option<String> = None;
        for o in &p.opts {
            let (table, name): (&[(&str, &str)], &str) = match o.id {
                "I" => (&ISO, "iso-8601"),
                "rfc-3339" => (&RFC3339, "rfc-3339"),
                "R" => (&[("", "%a, %d %b %Y %H:%M:%S %z")], ""),
                _ => continue,
            };
            let v = o.val.as_deref().unwrap_or(if o.id == "I" { "date" } else { "" });
            let Some(f) = argmatch(v, table) else {
                let valid: Vec<String> = table.iter().map(|e| format!("'{}'", e.0)).collect();
                let valid: Vec<&str> = valid.iter().map(String::as_str).collect();
                return Err(UError::usage(1, bad_arg(v, name, &valid)));
            };
            if fmt.is_some() {
                return Err(UError::new(1, "multiple output formats specified"));
            }
            fmt = Some(f.to_string());
        }
        let (datestr, file, reference, set) = (p.last("d"), p.last("f"), p.last("r"), p.last("s"));
        let given = usize::from(datestr.is_some()) + usize::from(file.is_some()) + usize::from(reference.is_some());
        if given > 1 {
            return Err(UError::usage(1, "the options to specify dates for printing are mutually exclusive"));
        }
        if set.is_some() && given > 0 {
            return Err(UError::usage(1, "the options to print and set the time may not be used together"));
        }
        let mut set_str = set.map(str::to_string);
        let mut posix_set = false;
        if let Some(op) = p.operands.first() {
            if let Some(extra) = p.operands.get(1) {
                return Err(UError::usage(1, format!("extra operand {}", quote_locale(extra))));
            }
            if let Some(f) = op.strip_prefix('+') {
                if fmt.is_some() {
                    return Err(UError::new(1, "multiple output formats specified"));
                }
                fmt = Some(f.to_string());
            } else if set.is_some() || given > 0 {
                let msg = format!(
                    "the argument {} lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'",
                    quote(op)
                );
                return Err(UError::usage(1, msg));
            } else {
                set_str = Some(op.clone());
                posix_set = true;
            }
        }
        let fmt = fmt.unwrap_or_else(|| "%a %b %e %H:%M:%S %Z %Y".to_string());
        let zone = if p.has("u") { Zone::utc() } else { Zone::from_tz(ctx.env.get("TZ").as_deref()) };
        let now = to_unix(std::time::SystemTime::now());
        let show = |t: (i64, u32)| {
            let (offset, abbr) = zone.info(t.0);
            let mut line = format(fmt.as_bytes(), &When { secs: t.0, nanos: t.1, offset, abbr: &abbr });
            line.push(b'\n');
            line
        };
        if let Some(s) = set_str {
            // Parsed as GNU would, then refused: there is no clock to set.
            let when = if posix_set { posix_time_ok(&s).then_some(now) } else { parse(&s, now, &zone) };
            let Some(when) = when else {
                return Err(UError::new(1, format!("invalid date {}", quote_locale(&s))));
            };
            ctx.err("cannot set date: Operation not permitted").await?;
            ctx.out(&show(when)).await?;
            return Ok(1);
        }
        if let Some(r) = reference {
            return match ctx.fs.metadata(&ctx.resolve(r)).await {
                Ok(m) => {
                    ctx.out(&show(to_unix(m.mtime))).await?;
                    Ok(0)
                }
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(r))).await?;
                    Ok(1)
                }
            };
        }
        if let Some(f) = file {
            let mut src = match ctx.open_lines(f, b'\n').await {
                Ok(s) => s,
                Err(e) => {
                    return Err(UError::new(1, format!("{}: {e}", quotef(f))));
                }
            };
            let mut status = 0;
            while let Some(line) = src.next_line(ctx).await {
                if !ctx.still_running() {
                    break;
                }
                let text = String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(&line)).into_owned();
                match parse(&text, now, &zone) {
                    Some(t) => ctx.out(&show(t)).await?,
                    None => {
                        ctx.err(format!("invalid date {}", quote_locale(&text))).await?;
                        status = 1;
                    }
                }
            }
            return Ok(status);
        }
        let when = match datestr {
            Some(d) => match parse(d, now, &zone) {
                Some(t) => t,
                None => {
                    return Err(UError::new(1, format!("invalid date {}", quote_locale(d))));
                }
            },
            None => now,
        };
        ctx.out(&show(when)).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{block_on, check, make_fs, run_full};
    use crate::limits::Limits;

    const TRY: &str = "Try 'date --help' for more information.\n";

    fn with_tz(argv: &[&str], tz: &str) -> String {
        let fs = make_fs(&[]);
        run_full(&fs, argv, b"", &[("TZ", tz)], Limits::default()).out
    }

    #[test]
    fn default_and_formats() {
        let d = "2024-01-01T05:06:07.5";
        check(&["date", "-d", d], &[], "", "Mon Jan  1 05:06:07 UTC 2024\n", "", 0);
        check(&["date", "-d", d, "--rfc-3339=ns"], &[], "", "2024-01-01 05:06:07.500000000+00:00\n", "", 0);
        check(&["date", "-d", d, "--rfc-3339=s"], &[], "", "2024-01-01 05:06:07+00:00\n", "", 0);
        check(&["date", "-d", d, "--rfc-3339=date"], &[], "", "2024-01-01\n", "", 0);
        for (o, want) in [
            ("-Id", "2024-01-01"),
            ("-Ih", "2024-01-01T05+00:00"),
            ("-Im", "2024-01-01T05:06+00:00"),
            ("-Is", "2024-01-01T05:06:07+00:00"),
            ("-In", "2024-01-01T05:06:07,500000000+00:00"),
            ("-I", "2024-01-01"),
            ("--iso-8601", "2024-01-01"),
            ("--iso-8601=seconds", "2024-01-01T05:06:07+00:00"),
            ("-R", "Mon, 01 Jan 2024 05:06:07 +0000"),
            ("+%s.%3N", "1704085567.500"),
        ] {
            check(&["date", "-d", d, o], &[], "", &format!("{want}\n"), "", 0);
        }
        check(&["date", "--date=@0", "-u", "+%F %T %Z"], &[], "", "1970-01-01 00:00:00 UTC\n", "", 0);
    }

    #[test]
    fn time_zones() {
        let d = "2024-01-01T05:06:07.5Z";
        assert_eq!(with_tz(&["date", "-d", d, "-Is"], "Asia/Kolkata"), "2024-01-01T10:36:07+05:30\n");
        assert_eq!(with_tz(&["date", "-d", d, "+%z %Z"], "America/New_York"), "-0500 EST\n");
        assert_eq!(with_tz(&["date", "-d", "2024-07-01 12:00"], "America/New_York"), "Mon Jul  1 12:00:00 EDT 2024\n");
        assert_eq!(with_tz(&["date", "-d", d], "Foo/Bar"), "Mon Jan  1 05:06:07 Foo 2024\n");
        assert_eq!(with_tz(&["date", "-d", d], "EST5EDT"), "Mon Jan  1 00:06:07 EST 2024\n");
        assert_eq!(with_tz(&["date", "-d", d], "JST-9"), "Mon Jan  1 14:06:07 JST 2024\n");
        assert_eq!(with_tz(&["date", "-d", d], ":Europe/Paris"), "Mon Jan  1 06:06:07 CET 2024\n");
        assert_eq!(with_tz(&["date", "-u", "-d", d], "Europe/Paris"), "Mon Jan  1 05:06:07 UTC 2024\n");
    }

    #[test]
    fn reference_and_file() {
        let fs = make_fs(&[("f", "x"), ("df", "2024-01-01\nfoo\n@5\n")]);
        block_on(async {
            let t = crate::commands::util::file_time::from_unix(1_714_979_289, 500_000_000);
            fs.set_mtime("/w/f", t).await.expect("set_mtime");
        });
        let o = run_full(&fs, &["date", "-r", "f", "+%F %T.%N"], b"", &[], Limits::default());
        assert_eq!((o.out.as_str(), o.status), ("2024-05-06 07:08:09.500000000\n", 0));
        let o = run_full(&fs, &["date", "-f", "df", "+%F"], b"", &[], Limits::default());
        assert_eq!(
            (o.out.as_str(), o.err.as_str(), o.status),
            ("2024-01-01\n1970-01-01\n", "date: invalid date 'foo'\n", 1)
        );
        let o = run_full(&fs, &["date", "-f", "-", "+%F"], b"@86400\n", &[], Limits::default());
        assert_eq!(o.out, "1970-01-02\n");
        check(&["date", "-r", "nope"], &[], "", "", "date: nope: No such file or directory\n", 1);
        check(&["date", "-f", "nope"], &[], "", "", "date: nope: No such file or directory\n", 1);
    }

    #[test]
    fn errors() {
        check(&["date", "-d", "foo"], &[], "", "", "date: invalid date 'foo'\n", 1);
        check(&["date", "-d", "2024-02-30"], &[], "", "", "date: invalid date '2024-02-30'\n", 1);
        check(&["date", "x"], &[], "", "", "date: invalid date 'x'\n", 1);
        check(&["date", "010101"], &[], "", "", "date: invalid date '010101'\n", 1);
        check(&["date", "+%F", "x"], &[], "", "", &format!("date: extra operand 'x'\n{TRY}"), 1);
        check(
            &["date", "-d", "2024-01-01", "+%F", "+%T"],
            &[],
            "",
            "",
            &format!("date: extra operand '+%T'\n{TRY}"),
            1,
        );
        check(&["date", "-d", "2024-03-05", "-I", "-R"], &[], "", "", "date: multiple output formats specified\n", 1);
        check(&["date", "-Is", "+%F"], &[], "", "", "date: multiple output formats specified\n", 1);
        check(
            &["date", "-d", "1", "-r", "f"],
            &[],
            "",
            "",
            &format!("date: the options to specify dates for printing are mutually exclusive\n{TRY}"),
            1,
        );
        check(
            &["date", "-d", "2024-01-01", "x"],
            &[],
            "",
            "",
            &format!("date: the argument 'x' lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'\n{TRY}"),
            1,
        );
        check(
            &["date", "-Ix"],
            &[],
            "",
            "",
            &format!("date: invalid argument 'x' for '--iso-8601'\nValid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\n{TRY}"),
            1,
        );
        check(
            &["date", "--rfc-3339=x"],
            &[],
            "",
            "",
            &format!("date: invalid argument 'x' for '--rfc-3339'\nValid arguments are:\n  - 'date'\n  - 'seconds'\n  - 'ns'\n{TRY}"),
            1,
        );
        check(
            &["date", "--rfc-3339"],
            &[],
            "",
            "",
            &format!("date: option '--rfc-3339' requires an argument\n{TRY}"),
            1,
        );
        check(&["date", "-k"], &[], "", "", &format!("date: invalid option -- 'k'\n{TRY}"), 1);
        check(&["date", "--foo"], &[], "", "", &format!("date: unrecognized option '--foo'\n{TRY}"), 1);
        check(&["date", "-d"], &[], "", "", &format!("date: option requires an argument -- 'd'\n{TRY}"), 1);
    }

    #[test]
    fn setting_is_refused() {
        check(
            &["date", "-s", "2020-01-01"],
            &[],
            "",
            "Wed Jan  1 00:00:00 UTC 2020\n",
            "date: cannot set date: Operation not permitted\n",
            1,
        );
        check(&["date", "-s", "foo"], &[], "", "", "date: invalid date 'foo'\n", 1);
    }
}
