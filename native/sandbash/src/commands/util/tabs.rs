//! Tab stops (`-t LIST` of expand-common.c, used by expand and unexpand).

use super::quote::quote;
/// Tab stops: every `size` columns, or the `list` then (optionally) every
/// `extend` columns (`/N`) or `increment` past the last stop (`+N`).
#[derive(Clone, Debug, Default)]
pub struct TabStops {
    pub size: usize,
    pub list: Vec<usize>,
    pub extend: usize,
    pub increment: usize,
}

impl TabStops {
    /// Parse `-t` values (commas or blanks between numbers); GNU's messages on error.
    pub fn parse(specs: &[String]) -> Result<TabStops, String> {
        let mut t = TabStops::default();
        let all = specs.join(",");
        let parts: Vec<&str> = all.split([',', ' ', '\t']).filter(|p| !p.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            let (kind, digits) = match part.as_bytes()[0] {
                b'/' => ('/', &part[1..]),
                b'+' => ('+', &part[1..]),
                _ => (' ', *part),
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                let bad = digits.chars().find(|c| !c.is_ascii_digit()).map_or(part.to_string(), |c| c.to_string());
                return Err(format!("tab size contains invalid character(s): {}", quote(&bad)));
            }
            let n = digits.parse::<usize>().map_err(|_| format!("tab stop is too large {}", quote(digits)))?;
            if kind != ' ' && i + 1 != parts.len() {
                return Err(format!("'{kind}' specifier only allowed with the last value"));
            }
            match kind {
                '/' => t.extend = n,
                '+' => t.increment = n,
                _ => {
                    if n == 0 {
                        return Err("tab size cannot be 0".into());
                    }
                    if t.list.last().is_some_and(|&l| l >= n) {
                        return Err("tab sizes must be ascending".into());
                    }
                    t.list.push(n);
                }
            }
        }
        if t.list.len() <= 1 && t.extend == 0 && t.increment == 0 {
            t.size = t.list.pop().unwrap_or(8);
        }
        Ok(t)
    }

    /// The next stop after `col` (`idx` remembers the place in the list);
    /// `None` past the last stop of a list.
    pub fn next(&self, col: usize, idx: &mut usize) -> Option<usize> {
        if self.size > 0 {
            return Some(col + self.size - col % self.size);
        }
        while *idx < self.list.len() {
            if col < self.list[*idx] {
                return Some(self.list[*idx]);
            }
            *idx += 1;
        }
        if self.extend > 0 {
            return Some(col + self.extend - col % self.extend);
        }
        if self.increment > 0 {
            let last = self.list.last().copied().unwrap_or(0);
            return Some(col + self.increment - (col - last) % self.increment);
        }
        None
    }
}
