//! Associative arrays, listed in bash's own order.
//!
//! bash keeps an associative array in a hash table (1,024 buckets, FNV-1
//! hashes, new items at the head of their bucket, four times the buckets once
//! there are twice as many items as buckets) and lists it bucket by bucket.
//! Scripts print `${!m[@]}` and `declare -p m` in that order, so we record
//! what decides it (each item's insertion and the table's growth) and replay
//! it when listing.

use std::collections::BTreeMap;

/// The bucket count of a new table (bash's `ASSOC_HASH_BUCKETS`).
const INITIAL_BUCKETS: usize = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    value: String,
    /// Insertion number: later items stand first in their bucket.
    seq: u64,
    /// How many times the table had grown when the item went in.
    epoch: u32,
}

/// An associative array's elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssocMap {
    items: BTreeMap<String, Item>,
    buckets: usize,
    epoch: u32,
    next_seq: u64,
}

impl Default for AssocMap {
    fn default() -> Self {
        AssocMap { items: BTreeMap::new(), buckets: INITIAL_BUCKETS, epoch: 0, next_seq: 0 }
    }
}

/// bash's `hash_string`: FNV-1 over the key's bytes, which C reads as signed chars.
fn hash(key: &str) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in key.as_bytes() {
        h = h.wrapping_mul(16_777_619);
        h ^= b as i8 as i32 as u32;
    }
    h
}

impl AssocMap {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn get(&self, key: &str) -> Option<&String> {
        self.items.get(key).map(|i| &i.value)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.items.contains_key(key)
    }

    /// Set a value; an existing key keeps its place.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        if let Some(item) = self.items.get_mut(&key) {
            return Some(std::mem::replace(&mut item.value, value));
        }
        let item = self.new_item(value);
        self.items.insert(key, item);
        None
    }

    /// An item for a key not in the table yet, growing the table first when
    /// bash's would.
    fn new_item(&mut self, value: String) -> Item {
        if self.items.len() >= self.buckets * 2 {
            self.buckets *= 4;
            self.epoch += 1;
        }
        let item = Item { value, seq: self.next_seq, epoch: self.epoch };
        self.next_seq += 1;
        item
    }

    /// The value of `key`, added empty when missing (`m[k]+=x`).
    pub fn value_mut(&mut self, key: String) -> &mut String {
        let fresh = (!self.items.contains_key(&key)).then(|| self.new_item(String::new()));
        let item =
            self.items.entry(key).or_insert_with(|| fresh.unwrap_or(Item { value: String::new(), seq: 0, epoch: 0 }));
        &mut item.value
    }

    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.items.remove(key).map(|i| i.value)
    }

    /// The elements in bash's listing order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.ordered().into_iter().map(|(k, i)| (k, &i.value))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &String> {
        self.iter().map(|(_, v)| v)
    }

    pub fn into_values(self) -> Vec<String> {
        self.values().cloned().collect()
    }

    /// The elements in the order they were added (how snapshots keep them, so
    /// that adding them again rebuilds the same listing order).
    pub fn iter_inserted(&self) -> impl Iterator<Item = (&String, &String)> {
        let mut v: Vec<(&String, &Item)> = self.items.iter().collect();
        v.sort_by_key(|(_, i)| i.seq);
        v.into_iter().map(|(k, i)| (k, &i.value))
    }

    fn ordered(&self) -> Vec<(&String, &Item)> {
        let mask = self.buckets as u32 - 1;
        let mut by_bucket: BTreeMap<u32, Vec<(&String, &Item)>> = BTreeMap::new();
        for (k, i) in &self.items {
            by_bucket.entry(hash(k) & mask).or_default().push((k, i));
        }
        let mut out = Vec::with_capacity(self.items.len());
        for (_, group) in by_bucket {
            out.extend(bucket_order(group, self.epoch));
        }
        out
    }
}

/// One bucket's list at the end of `epoch`: the items added since the last
/// growth, newest first, then the older ones, which the growth re-added one
/// by one at the head (so reversed).
fn bucket_order<'a>(group: Vec<(&'a String, &'a Item)>, epoch: u32) -> Vec<(&'a String, &'a Item)> {
    let (mut newer, older): (Vec<_>, Vec<_>) = group.into_iter().partition(|(_, i)| i.epoch >= epoch);
    newer.sort_by_key(|e| std::cmp::Reverse(e.1.seq));
    if !older.is_empty() {
        let mut before = bucket_order(older, epoch.saturating_sub(1));
        before.reverse();
        newer.extend(before);
    }
    newer
}

impl FromIterator<(String, String)> for AssocMap {
    fn from_iter<T: IntoIterator<Item = (String, String)>>(iter: T) -> Self {
        let mut m = AssocMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(m: &AssocMap) -> Vec<&str> {
        m.keys().map(String::as_str).collect()
    }

    /// `declare -A m=([a]=1 [b]=2 [c]=3 [k]=v [j]=w); echo ${!m[@]}` in bash 5.2.
    #[test]
    fn listing_follows_bash_buckets() {
        let m: AssocMap = ["a", "b", "c", "k", "j"].iter().map(|k| (k.to_string(), String::new())).collect();
        assert_eq!(keys(&m), ["k", "j", "c", "b", "a"]);
    }

    /// Reassigning keeps the place; removing and adding again moves the key
    /// to the head of its bucket.
    #[test]
    fn updates_and_removals() {
        let mut m = AssocMap::new();
        for k in ["one", "two", "three"] {
            m.insert(k.into(), "1".into());
        }
        m.insert("one".into(), "1x".into());
        m.remove("two");
        assert_eq!(keys(&m), ["three", "one"]);
        assert_eq!(m.get("one").map(String::as_str), Some("1x"));
    }

    /// bash: `for i in $(seq 2100); do m[k$i]=1; done; echo "${!m[@]}"` starts
    /// with these (the table grew at the 2,049th key).
    #[test]
    fn growth_reorders_as_bash_does() {
        let m: AssocMap = (1..=2100).map(|i| (format!("k{i}"), String::new())).collect();
        assert_eq!(keys(&m)[..5], ["k1698", "k1699", "k1696", "k1697", "k1694"]);
        assert_eq!(m.len(), 2100);
    }
}
