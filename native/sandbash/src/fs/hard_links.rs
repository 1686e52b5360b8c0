//! Hard links of a [`super::memory::MemoryFs`]: which names share one file.
//! A linked name holds its own node, kept equal to the others' after every
//! change (the contents are one shared buffer), so reading needs no lookup
//! here; only changes and removals of linked names come through. The bytes
//! of a group count once against the filesystem's size limit.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Sorted maps: a name leaves its group, and a directory's renamed names are
/// found, in logarithmic time however many links there are.
#[derive(Debug, Default)]
pub(super) struct Links {
    group_of: BTreeMap<String, u64>,
    groups: HashMap<u64, BTreeSet<String>>,
    next: u64,
}

impl Links {
    /// Every name of the file at `path`, when it has more than one.
    pub fn group(&self, path: &str) -> Option<&BTreeSet<String>> {
        if self.group_of.is_empty() {
            return None;
        }
        self.group_of.get(path).and_then(|g| self.groups.get(g))
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
                self.groups.insert(self.next, BTreeSet::from([target.to_string()]));
                self.next
            }
        };
        self.group_of.insert(link.to_string(), g);
        self.groups.entry(g).or_default().insert(link.to_string());
    }

    /// `path` is gone. `true` when other names still hold its file (so its
    /// bytes are still stored).
    pub fn forget(&mut self, path: &str) -> bool {
        let Some(g) = self.group_of.remove(path) else { return false };
        let Some(names) = self.groups.get_mut(&g) else { return false };
        names.remove(path);
        match names.len() {
            0 => {
                self.groups.remove(&g);
                false
            }
            1 => {
                // A file with one name left is an ordinary file again.
                if let Some(last) = names.pop_first() {
                    self.group_of.remove(&last);
                }
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
        let inside = self.group_of.range(below.clone()..).take_while(|(k, _)| k.starts_with(&below));
        let mut moved: Vec<String> = inside.map(|(k, _)| k.clone()).collect();
        if self.group_of.contains_key(from) {
            moved.push(from.to_string());
        }
        for old in moved {
            let new = format!("{to}{}", &old[from.len()..]);
            if let Some(g) = self.group_of.remove(&old) {
                if let Some(names) = self.groups.get_mut(&g) {
                    names.remove(&old);
                    names.insert(new.clone());
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
        let names = |l: &Links, p: &str| l.group(p).map(|g| g.iter().cloned().collect::<Vec<_>>());
        assert_eq!(names(&l, "/a"), Some(vec!["/a".to_string(), "/b".to_string(), "/c".to_string()]));
        l.rename("/c", "/d/c");
        assert_eq!(names(&l, "/a"), Some(vec!["/a".to_string(), "/b".to_string(), "/d/c".to_string()]));
        // A directory renamed carries the linked names below it, not a sibling's.
        l.link("/a", "/dd");
        l.rename("/d", "/e");
        assert_eq!(names(&l, "/b"), Some(vec!["/a".into(), "/b".into(), "/dd".into(), "/e/c".into()]));
        assert!(l.forget("/dd"));
        assert!(l.forget("/a"));
        assert!(l.forget("/b"));
        // One name left: an ordinary file.
        assert!(l.group("/e/c").is_none());
        assert!(!l.forget("/e/c"));
    }
}
