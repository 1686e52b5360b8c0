//! `sleep NUMBER[smhd]...`: the sum of the intervals, in slices so a timeout
//! or cancellation of the exec ends it promptly (the exec then reports why).

use super::util::{quote_locale, Spec};
use super::CommandContext;
use crate::commands::util::{UError, UResult, Utility};
use async_trait::async_trait;
use std::time::{Duration, Instant};

pub struct Sleep;

const SPEC: Spec = Spec::new("", &[], "NUMBER[SUFFIX]...");

/// Longest single wait between deadline/cancel checks.
const SLICE: Duration = Duration::from_millis(10);

/// Seconds in one operand (`1.5`, `2m`, `1e1`, `inf`), or `None` when invalid.
fn interval(s: &str) -> Option<f64> {
    let (num, mult) = match s.char_indices().last() {
        Some((i, 's')) => (&s[..i], 1.0),
        Some((i, 'm')) => (&s[..i], 60.0),
        Some((i, 'h')) => (&s[..i], 3600.0),
        Some((i, 'd')) => (&s[..i], 86400.0),
        _ => (s, 1.0),
    };
    // Rust's float syntax is close to strtod's; reject what strtod would not take.
    if num.is_empty() || num.starts_with(['+', '-']) && num.len() == 1 || num.contains(char::is_whitespace) {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    (v >= 0.0 && !v.is_nan()).then_some(v * mult)
}

#[async_trait]
impl Utility for Sleep {
    async fn main(&self, ctx: &mut CommandContext<'_>) -> UResult<i32> {
        let p = ctx.opts(&SPEC).await?;
        if p.operands.is_empty() {
            return Err(UError::usage(1, "missing operand"));
        }
        let mut total = 0f64;
        let mut bad = false;
        for a in &p.operands {
            match interval(a) {
                Some(v) => total += v,
                None => {
                    ctx.err(format!("invalid time interval {}", quote_locale(a))).await?;
                    bad = true;
                }
            }
        }
        if bad {
            return Err(UError::usage(1, ""));
        }
        let end = Duration::try_from_secs_f64(total).ok().and_then(|d| Instant::now().checked_add(d));
        // Sleeping holds no admission slot: a runnable script may take it.
        let budget = ctx.budget;
        let wait = async {
            loop {
                if !ctx.still_running() {
                    // The exec's deadline or cancellation: the interpreter reports it.
                    return 1;
                }
                let left = match end {
                    Some(e) => e.saturating_duration_since(Instant::now()),
                    None => SLICE,
                };
                if left.is_zero() {
                    return 0;
                }
                tokio::time::sleep(left.min(SLICE)).await;
            }
        };
        Ok(budget.idle(wait).await)
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::{check, make_fs, run_full};
    use crate::limits::Limits;
    use std::time::Instant;

    const TRY: &str = "Try 'sleep --help' for more information.\n";

    #[test]
    fn sleeps_and_errors() {
        check(&["sleep", "0.01", "0.001m"], &[], "", "", "", 0);
        check(&["sleep", "0"], &[], "", "", "", 0);
        check(&["sleep"], &[], "", "", &format!("sleep: missing operand\n{TRY}"), 1);
        check(&["sleep", "x"], &[], "", "", &format!("sleep: invalid time interval 'x'\n{TRY}"), 1);
        check(
            &["sleep", "1x", "y"],
            &[],
            "",
            "",
            &format!("sleep: invalid time interval '1x'\nsleep: invalid time interval 'y'\n{TRY}"),
            1,
        );
        check(&["sleep", "-1"], &[], "", "", &format!("sleep: invalid option -- '1'\n{TRY}"), 1);
    }

    #[test]
    fn stops_at_the_deadline() {
        let fs = make_fs(&[]);
        let t = Instant::now();
        let limits = Limits { timeout_ms: 50, ..Limits::default() };
        let out = run_full(&fs, &["sleep", "inf"], b"", &[], limits);
        assert!(t.elapsed().as_secs() < 5, "sleep ignored the deadline");
        assert_ne!(out.status, 0);
    }
}
