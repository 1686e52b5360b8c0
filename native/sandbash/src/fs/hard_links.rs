//! Hard links of a [`super::memory::MemoryFs`]: which names share one file.
//! A linked name holds its own node, kept equal to the others' after every
//! change (the contents are one shared buffer), so reading needs no lookup
//! here; only changes and removals of linked names come through. The bytes
//! of a group count once against the filesystem's size limit.

use std::collections::HashMap;

#[derive(Debug, Default)]
pub(super) struct Links {
    group_of: HashMap<String, u64>,
    groups: HashMap<u64, Vec<String>>,
    next: u64,
}

impl Links {
    /// The other names of the file at `path` (none when it has one name).
    pub fn others(&self, path: &str) -> Vec<String> {
        if self.group_of.is_empty() {
            return Vec::new();
        }
        match self.group_of.get(path).and_then(|g| self.groups.get(g)) {
            Some(names) => names.iter().filter(|n| *n != path).cloned().collect(),
            None => Vec::new(),
        }
    }

    /// Whether two names are one file.
    pub fn same(&self, a: &str, b: &str) -> bool {
        matches!((self.group_of.get(a), self.group_of.get(b)), (Some(x), Some(y)) if x == y)
    }

    /// `link` is now another name of the file at `target`.
    pub fn link(&mut self, target: &str, link: &str) {
        let g = match self.group_of.get(target) {
            Some(&g) => g,
            None => {
                self.next += 1;
                self.group_of.insert(target.to_string(), self.next);
                self.groups.insert(self.next, vec![target.to_string()]);
                self.next
            }
        };
        self.group_of.insert(link.to_string(), g);
        self.groups.entry(g).or_default().push(link.to_string());
    }

    /// `path` is gone. `true` when other names still hold its file (so its
    /// bytes are still stored).
    pub fn forget(&mut self, path: &str) -> bool {
        let Some(g) = self.group_of.remove(path) else { return false };
        let Some(names) = self.groups.get_mut(&g) else { return false };
        names.retain(|n| n != path);
        match names.len() {
            0 => {
                self.groups.remove(&g);
                false
            }
            1 => {
                // A file with one name left is an ordinary file again.
                let last = names.pop().unwrap_or_default();
                self.group_of.remove(&last);
                self.groups.remove(&g);
                true
            }
            _ => true,
        }
    }

    /// The name `from` (or, for a directory, every name below it) is now `to`.
    pub fn rename(&mut self, from: &str, to: &str) {
        if self.group_of.is_empty() {
            return;
        }
        let below = format!("{from}/");
        let moved: Vec<String> =
            self.group_of.keys().filter(|k| *k == from || k.starts_with(&below)).cloned().collect();
        for old in moved {
            let new = format!("{to}{}", &old[from.len()..]);
            if let Some(g) = self.group_of.remove(&old) {
                if let Some(names) = self.groups.get_mut(&g) {
                    for n in names.iter_mut().filter(|n| **n == old) {
                        *n = new.clone();
                    }
                }
                self.group_of.insert(new, g);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_follow_links_renames_and_removals() {
        let mut l = Links::default();
        l.link("/a", "/b");
        l.link("/b", "/c");
        assert!(l.same("/a", "/c"));
        assert_eq!(l.others("/a"), vec!["/b".to_string(), "/c".to_string()]);
        l.rename("/c", "/d/c");
        assert_eq!(l.others("/a"), vec!["/b".to_string(), "/d/c".to_string()]);
        assert!(l.forget("/a"));
        assert!(l.forget("/b"));
        // One name left: an ordinary file.
        assert!(l.others("/d/c").is_empty());
        assert!(!l.forget("/d/c"));
    }
}
