//! Looking a short name up in a `String`-keyed hash table without a call to
//! libc's `memcmp`: names are a few bytes, and the call itself cost more
//! than the compare (it was a tenth of a counting loop's time).

use std::hash::{Hash, Hasher};

/// A name to look up: hashes as the `str` it holds, compares byte by byte.
pub struct NameKey<'a>(pub &'a str);

impl Hash for NameKey<'_> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The same bytes `String::hash` feeds, so keys and lookups agree.
        self.0.hash(state);
    }
}

impl hashbrown::Equivalent<String> for NameKey<'_> {
    #[inline]
    fn equivalent(&self, key: &String) -> bool {
        same(self.0.as_bytes(), key.as_bytes())
    }
}

impl hashbrown::Equivalent<Box<str>> for NameKey<'_> {
    #[inline]
    fn equivalent(&self, key: &Box<str>) -> bool {
        same(self.0.as_bytes(), key.as_bytes())
    }
}

impl hashbrown::Equivalent<compact_str::CompactString> for NameKey<'_> {
    #[inline]
    fn equivalent(&self, key: &compact_str::CompactString) -> bool {
        same(self.0.as_bytes(), key.as_bytes())
    }
}

impl From<&NameKey<'_>> for compact_str::CompactString {
    fn from(k: &NameKey<'_>) -> compact_str::CompactString {
        compact_str::CompactString::new(k.0)
    }
}

impl From<&NameKey<'_>> for String {
    fn from(k: &NameKey<'_>) -> String {
        k.0.to_string()
    }
}

impl From<&NameKey<'_>> for Box<str> {
    fn from(k: &NameKey<'_>) -> Box<str> {
        k.0.into()
    }
}

/// Byte equality, inlined for short slices (longer ones go to `memcmp`).
#[inline]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 32 {
        return a == b;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Byte order (as `str`'s), inlined.
#[inline]
pub fn order(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_string_keys_find() {
        let mut m: hashbrown::HashMap<String, u8, foldhash::fast::RandomState> = Default::default();
        let long = "n".repeat(40);
        for (i, k) in ["", "i", "x", "xy", "PIPESTATUS", long.as_str()].iter().enumerate() {
            m.insert(k.to_string(), i as u8);
        }
        for (i, k) in ["", "i", "x", "xy", "PIPESTATUS", long.as_str()].iter().enumerate() {
            assert_eq!(m.get(&NameKey(k)), Some(&(i as u8)));
        }
        assert_eq!(m.get(&NameKey("y")), None);
        assert_eq!(m.get(&NameKey("PIPESTATUs")), None);
        assert_eq!(m.get(&NameKey(&"n".repeat(41))), None);
        assert!(same(b"abc", b"abc") && !same(b"abc", b"abd") && !same(b"ab", b"abc"));
        for (a, b) in [("", ""), ("", "a"), ("a", "b"), ("ab", "a"), ("echo", "eval"), ("[", "[[")] {
            assert_eq!(order(a.as_bytes(), b.as_bytes()), a.cmp(b));
            assert_eq!(order(b.as_bytes(), a.as_bytes()), b.cmp(a));
        }
    }
}
