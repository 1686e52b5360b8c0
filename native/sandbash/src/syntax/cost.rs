//! What a parse will cost, asked of the exec's budget before it starts.
//!
//! brush-parser cannot be interrupted and holds several hundred bytes per
//! token while it works (measured, peak per input byte: `a;` 650, `a\n` 730,
//! `x=1;` 500, `echo $x;` 260, a quoted string or a here-document body 2-3;
//! about 1,500 ns per token in a release build). So every parse of text a
//! script controls -- the script itself, `eval`, `source`, `bash -c`, traps,
//! `$( )` bodies, alias expansions, words and here-documents -- first asks
//! [`admit`]: the session's memory budget must hold the estimate, and the
//! deadline must leave time for it. Long texts are read a run of commands at
//! a time (`interp::reader`), so the estimate stays that of one run.

use crate::limits::{scope, Stop};

/// Bytes brush-parser holds per token of a program at its peak, at most
/// (the worst shape measured, `x=1;`, with the allocator's headers).
const TOKEN_BYTES: u64 = 1200;
/// Per byte of program text on top (the text's copies and char offsets).
const TEXT_BYTES: u64 = 8;
/// Time per token of a program (release build).
const TOKEN_NANOS: u64 = 1500;
/// Bytes a word's parse holds per expansion, quote or escape in it (`$a`
/// 280, `\a` 280), and per byte on top.
const PIECE_BYTES: u64 = 320;
const WORD_TEXT_BYTES: u64 = 4;
/// Time per piece of a word (`${a}` takes 1 µs a piece) and per byte.
const PIECE_NANOS: u64 = 1100;
const WORD_TEXT_NANOS: u64 = 40;
/// Below this the budget is not asked: the check would cost more than the parse.
const SMALL_BYTES: u64 = 256 * 1024;
const SMALL_NANOS: u64 = 2_000_000;

/// The estimated peak memory and time of one parse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub bytes: u64,
    pub nanos: u64,
}

/// A program's parse (see [`super::split`] for the tokens).
pub fn of_program(text: &str) -> Cost {
    if text.len() < 64 {
        return Cost { bytes: 0, nanos: 0 };
    }
    let tokens = super::split::tokens(text) as u64;
    Cost {
        bytes: tokens.saturating_mul(TOKEN_BYTES).saturating_add((text.len() as u64).saturating_mul(TEXT_BYTES)),
        nanos: tokens.saturating_mul(TOKEN_NANOS),
    }
}

/// A word's or a here-document's parse into pieces.
pub fn of_word(text: &str) -> Cost {
    if text.len() < 1024 {
        return Cost { bytes: 0, nanos: 0 };
    }
    let pieces = text.bytes().filter(|b| matches!(b, b'$' | b'`' | b'\\' | b'"' | b'\'')).count() as u64;
    let len = text.len() as u64;
    Cost {
        bytes: pieces.saturating_mul(PIECE_BYTES).saturating_add(len.saturating_mul(WORD_TEXT_BYTES)),
        nanos: pieces.saturating_mul(PIECE_NANOS).saturating_add(len.saturating_mul(WORD_TEXT_NANOS)),
    }
}

/// Whether the exec this thread works for can pay `cost`: `Err` when its
/// memory budget cannot hold the estimate, or its deadline comes first.
/// Outside an exec always `Ok`.
pub fn admit(cost: Cost) -> Result<(), Stop> {
    if cost.bytes >= SMALL_BYTES {
        scope::reserve(cost.bytes)?;
    }
    if cost.nanos >= SMALL_NANOS {
        scope::check_now()?;
        let late = scope::with_budget(|b| b.remaining().is_some_and(|r| r.as_nanos() < u128::from(cost.nanos)));
        if late == Some(true) {
            return Err(scope::with_budget(|b| Stop::Timeout(b.limits.timeout_ms)).unwrap_or(Stop::Cancelled));
        }
    }
    Ok(())
}

/// [`admit`] for a parse that reports errors as text: a refusal stops the
/// exec (at its next check, with the limit's own message) and is this
/// parse's error.
pub fn admit_or_stop(cost: Cost) -> Result<(), String> {
    admit(cost).map_err(|stop| {
        let m = stop.to_string();
        scope::stop_exec(stop);
        m
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{Budget, CancelToken, Limits, MemAccount};
    use std::sync::Arc;

    #[test]
    fn a_parse_the_budget_cannot_hold_is_refused_before_it_starts() {
        let limits = Limits { max_memory_bytes: 8 << 20, ..Limits::default() };
        let budget = Budget::new(limits, CancelToken::default());
        budget.set_memory(Arc::new(MemAccount::new(8 << 20)));
        let _g = scope::enter(&budget);
        let small = "a;".repeat(1000);
        assert!(admit(of_program(&small)).is_ok());
        let big = "a;".repeat(100_000);
        let e = admit(of_program(&big)).unwrap_err();
        assert!(e.to_string().contains("max_memory_bytes"), "{e}");
        // Text in quotes or a here-document body is cheap to parse.
        let quoted = format!("echo '{}'", "a;".repeat(200_000));
        assert!(admit(of_program(&quoted)).is_ok());
        let word = "$a".repeat(100_000);
        assert!(admit(of_word(&word)).is_err());
    }

    #[test]
    fn a_parse_longer_than_the_time_left_is_refused() {
        let limits = Limits { timeout_ms: 1, ..Limits::default() };
        let budget = Budget::new(limits, CancelToken::default());
        let _g = scope::enter(&budget);
        let big = "a;".repeat(100_000);
        assert_eq!(admit(of_program(&big)), Err(Stop::Timeout(1)));
    }
}
