//! `cal` in util-linux's layout (no highlighting, as when not on a terminal):
//! a month (`cal`, `cal M Y`, month names too), three months (`-3`) or a
//! year (`cal Y`, `-y`), Sunday or Monday (`-m`) first. Every month has six
//! week rows padded to 20 columns; months in a row are two spaces apart.
//! The calendar is proleptic Gregorian (util-linux switches to Julian
//! before September 1752; dates that old are not special-cased here).

use super::util::{quote, Arg, Spec};
use super::date::parse::Zone;
use super::util::file_time::{civil_from_days, days_from_civil, to_unix};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;

pub struct Cal;

const SPEC: Spec = Spec::new(
    "13msy",
    &[
        ("one", Arg::No, "1"),
        ("three", Arg::No, "3"),
        ("monday", Arg::No, "m"),
        ("sunday", Arg::No, "s"),
        ("year", Arg::No, "y"),
    ],
    "[options] [[[day] month] year]",
);

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WIDTH: usize = 20;
const GUTTER: &str = "  ";

/// `text` centered in `w` columns (the extra space goes to the right).
fn center(text: &str, w: usize) -> String {
    let pad = w.saturating_sub(text.chars().count());
    format!("{}{text}{}", " ".repeat(pad / 2), " ".repeat(pad - pad / 2))
}

/// The 8 lines of one month: title, weekday names, six weeks.
fn month_lines(year: i64, month: u32, title: &str, monday: bool) -> Vec<String> {
    let names = if monday { "Mo Tu We Th Fr Sa Su" } else { "Su Mo Tu We Th Fr Sa" };
    let first = days_from_civil(year, month, 1);
    let next = if month == 12 { days_from_civil(year + 1, 1, 1) } else { days_from_civil(year, month + 1, 1) };
    let len = next - first;
    // 1970-01-01 was a Thursday.
    let wday = (first + 4).rem_euclid(7);
    let offset = if monday { (wday + 6) % 7 } else { wday };
    let mut lines = vec![center(title, WIDTH), names.to_string()];
    for week in 0..6 {
        let cells: Vec<String> = (0..7)
            .map(|col| {
                let d = week * 7 + col - offset + 1;
                if (1..=len).contains(&d) {
                    format!("{d:>2}")
                } else {
                    "  ".to_string()
                }
            })
            .collect();
        lines.push(cells.join(" "));
    }
    lines
}

/// Months side by side.
fn side_by_side(months: &[Vec<String>]) -> String {
    let mut out = String::new();
    for i in 0..months.first().map_or(0, Vec::len) {
        let row: Vec<&str> = months.iter().map(|m| m[i].as_str()).collect();
        out.push_str(&row.join(GUTTER));
        out.push('\n');
    }
    out
}

fn month_number(s: &str) -> Option<u32> {
    if let Ok(n) = s.parse::<u32>() {
        return (1..=12).contains(&n).then_some(n);
    }
    let l = s.to_ascii_lowercase();
    (l.len() >= 3).then(|| MONTHS.iter().position(|m| m.to_ascii_lowercase().starts_with(&l)).map(|i| i as u32 + 1))?
}

#[async_trait]
impl Utility for Cal {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        let monday = p.opts.iter().rev().find(|o| o.id == "m" || o.id == "s").is_some_and(|o| o.id == "m");
        let three = p.opts.iter().rev().find(|o| o.id == "1" || o.id == "3").is_some_and(|o| o.id == "3");
        let zone = Zone::from_tz(ctx.env.get("TZ").as_deref());
        let now = to_unix(std::time::SystemTime::now()).0;
        let (today_y, today_m, _) = civil_from_days((now + i64::from(zone.info(now).0)).div_euclid(86_400));
        let ops = &p.operands;
        let year_arg = |s: &str| s.parse::<i64>().ok().filter(|y| (1..=9999).contains(y));
        let (year, month) = match ops.len() {
            0 => (today_y, Some(today_m)),
            1 => match year_arg(&ops[0]) {
                Some(y) => (y, None),
                None => {
                    return Err(UError::new(1, format!("illegal year value: use 1-9999: {}", quote(&ops[0]))));
                }
            },
            2 | 3 => {
                let (m, y) = (&ops[ops.len() - 2], &ops[ops.len() - 1]);
                let Some(m) = month_number(m) else {
                    return Err(UError::new(1, format!("illegal month value: use 1-12: {}", quote(m))));
                };
                let Some(y) = year_arg(y) else {
                    return Err(UError::new(1, format!("illegal year value: use 1-9999: {}", quote(y))));
                };
                (y, Some(m))
            }
            _ => {
                return Err(UError::usage(1, "bad usage"));
            }
        };
        let out = match month {
            Some(m) if !p.has("y") && three => {
                let prev = if m == 1 { (year - 1, 12) } else { (year, m - 1) };
                let next = if m == 12 { (year + 1, 1) } else { (year, m + 1) };
                let ms: Vec<Vec<String>> = [prev, (year, m), next]
                    .iter()
                    .map(|&(y, m)| month_lines(y, m, &format!("{} {y}", MONTHS[m as usize - 1]), monday))
                    .collect();
                side_by_side(&ms)
            }
            Some(m) if !p.has("y") => {
                side_by_side(&[month_lines(year, m, &format!("{} {year}", MONTHS[m as usize - 1]), monday)])
            }
            _ => {
                let mut out = center(&year.to_string(), 3 * WIDTH + 2 * GUTTER.len());
                out.push('\n');
                for row in 0..4u32 {
                    if row > 0 {
                        out.push('\n');
                    }
                    let ms: Vec<Vec<String>> = (1..=3)
                        .map(|i| row * 3 + i)
                        .map(|m| month_lines(year, m, MONTHS[m as usize - 1], monday))
                        .collect();
                    out.push_str(&side_by_side(&ms));
                }
                out
            }
        };
        ctx.out(out.as_bytes()).await?;
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::util::testutil::check;

    // util-linux cal is not installed on this machine: the layout follows
    // util-linux 2.38 (20-column months, six week rows, centered titles);
    // the day placement was checked against Python's calendar module.
    #[test]
    fn month() {
        check(
            &["cal", "2", "2024"],
            &[],
            "",
            "   February 2024    \nSu Mo Tu We Th Fr Sa\n             1  2  3\n 4  5  6  7  8  9 10\n11 12 13 14 15 16 17\n18 19 20 21 22 23 24\n25 26 27 28 29      \n                    \n",
            "",
            0,
        );
        check(
            &["cal", "-m", "nov", "2026"],
            &[],
            "",
            "   November 2026    \nMo Tu We Th Fr Sa Su\n                   1\n 2  3  4  5  6  7  8\n 9 10 11 12 13 14 15\n16 17 18 19 20 21 22\n23 24 25 26 27 28 29\n30                  \n",
            "",
            0,
        );
    }

    #[test]
    fn three_and_year() {
        let o = super::super::util::testutil::run(&["cal", "-3", "1", "2024"], &[], "");
        let first: Vec<&str> = o.out.lines().take(3).collect();
        assert_eq!(
            first,
            [
                "   December 2023          January 2024         February 2024    ",
                "Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa",
                "                1  2      1  2  3  4  5  6               1  2  3",
            ]
        );
        let o = super::super::util::testutil::run(&["cal", "2024"], &[], "");
        let lines: Vec<&str> = o.out.lines().collect();
        assert_eq!(lines[0].trim(), "2024");
        assert_eq!(lines.len(), 1 + 4 * 8 + 3);
        assert_eq!(lines[1], "      January               February               March        ");
    }

    #[test]
    fn errors() {
        check(&["cal", "13", "2024"], &[], "", "", "cal: illegal month value: use 1-12: '13'\n", 1);
        check(&["cal", "0"], &[], "", "", "cal: illegal year value: use 1-9999: '0'\n", 1);
        check(&["cal", "-x"], &[], "", "", "cal: invalid option -- 'x'\nTry 'cal --help' for more information.\n", 1);
    }
}
