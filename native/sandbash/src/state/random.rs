//! `RANDOM` after an assignment seeds it: bash's generator (Park and Miller's
//! minimal standard, folded to 15 bits), so a script that sets `RANDOM=42`
//! reads the numbers bash would. Unseeded, `RANDOM` draws from a generator
//! shared by all sessions. A subshell starts unseeded, as bash reseeds one.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// The seeded generator of one shell (interior-mutable: `$RANDOM` is read
/// through a shared reference to the shell).
#[derive(Debug, Default)]
pub struct SeededRandom {
    seeded: AtomicBool,
    state: AtomicU32,
    last: AtomicU32,
}

impl SeededRandom {
    /// `RANDOM=value`: a whole number (blanks around it allowed) or nothing
    /// reseeds the generator, kept in 32 bits; anything else leaves it as
    /// it is.
    pub fn seed(&self, value: &str) {
        let t = value.trim_matches([' ', '\t', '\n']);
        // An empty value seeds 0, as in bash.
        let Ok(n) = (if t.is_empty() { Ok(0) } else { t.parse::<i64>() }) else {
            return;
        };
        self.state.store(n as u32, Ordering::Relaxed);
        self.last.store(0, Ordering::Relaxed);
        self.seeded.store(true, Ordering::Relaxed);
    }

    /// The next value (0 to 32767) once seeded; `None` before.
    pub fn next(&self) -> Option<u32> {
        if !self.seeded.load(Ordering::Relaxed) {
            return None;
        }
        let last = self.last.load(Ordering::Relaxed);
        let mut state = self.state.load(Ordering::Relaxed);
        // bash draws again when a value repeats the last one.
        let mut v;
        let mut tries = 0;
        loop {
            state = intrand32(state);
            v = ((state >> 16) ^ (state & 0xffff)) & 0x7fff;
            tries += 1;
            if v != last || tries > 8 {
                break;
            }
        }
        self.state.store(state, Ordering::Relaxed);
        self.last.store(v, Ordering::Relaxed);
        Some(v)
    }
}

/// x(n+1) = 16807 * x(n) mod (2^31 - 1), split to avoid overflow (bash's
/// variables.c); 0 cannot seed it.
fn intrand32(last: u32) -> u32 {
    let x = if last == 0 { 123_459_876 } else { last } as i64;
    let h = x / 127_773;
    let l = x - 127_773 * h;
    let t = 16807 * l - 2836 * h;
    (if t < 0 { t + 0x7fff_ffff } else { t }) as u32
}

#[cfg(test)]
mod tests {
    use super::SeededRandom;

    #[test]
    fn seeded_sequence_is_bashs() {
        // bash 5.2: RANDOM=7; echo $RANDOM $RANDOM $RANDOM
        let r = SeededRandom::default();
        assert_eq!(r.next(), None);
        r.seed("7");
        assert_eq!((r.next(), r.next(), r.next()), (Some(19344), Some(26956), Some(7409)));
    }
}
