//! Incremental checkpoints: a record of what changed in a session since its
//! previous checkpoint, so that persisting a session after each call costs in
//! proportion to what the call changed, not to the session's size.
//!
//! A chain starts with a full snapshot ([`Bash::checkpoint_full`]); each
//! [`Bash::checkpoint_delta`] after it holds the files (whole, with their
//! modes and times) and the variables and functions that differ from the
//! previous record, the names of those that went, and the small parts of
//! the shell state (cwd, options, traps, positional parameters, aliases, the
//! directory stack) whole. The history is sent as what was dropped from its
//! front and what was added at its end.
//!
//! A delta is sealed like a snapshot (SHA-256, or HMAC-SHA256 with the key),
//! under its own magic (`"EXBD"`), and names its parent by the parent's tag,
//! so a chain cannot be reordered, spliced from two sessions or extended past
//! a missing record. [`Bash::restore_chain`] opens every record, checks the
//! links, applies the deltas to the decoded snapshot and checks the result
//! against the session's limits before anything in the session changes.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! use sandbash::Bash;
//! let mut a = Bash::builder().build().unwrap();
//! a.exec("x=1; echo one > /f").await.unwrap();
//! let (full, base) = a.checkpoint_full(None).unwrap();
//! a.exec("x=2; echo two >> /f").await.unwrap();
//! let (delta, _next) = a.checkpoint_delta(&base, None).unwrap();
//! let mut b = Bash::builder().build().unwrap();
//! b.restore_chain(&full, &[&delta[..]], None).unwrap();
//! assert_eq!(b.exec("echo $x; cat /f").await.unwrap().stdout, b"2\none\ntwo\n");
//! # });
//! ```

use super::format::{self, Blob, Seq, Text, DELTA, FLAG_NO_FS, FLAG_NO_FUNCS, TAG_LEN};
use super::fs::{FsM, NodeM};
use super::state::{FuncM, VarM};
use super::{fs as fsm, invalid, HistoryM, Parts};
use crate::fs::memory::{Kind, MemoryTree, Node};
use crate::{Bash, Error};
use bincode::{Decode, Encode};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the session's last checkpoint record holds: the next delta is the
/// difference from it. Kept by whoever writes the records (it shares file
/// data with the live filesystem, so it costs a map of paths and a copy of
/// the shell state, not a copy of the files).
pub struct Base {
    /// The tag of the record this base is (the next delta's parent).
    tag: [u8; TAG_LEN],
    keyed: bool,
    tree: MemoryTree,
    parts: Parts,
}

impl Base {
    /// The tag of the record this base describes.
    pub fn tag(&self) -> [u8; TAG_LEN] {
        self.tag
    }
}

impl std::fmt::Debug for Base {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Base").field("keyed", &self.keyed).field("files", &self.tree.nodes.len()).finish()
    }
}

/// A delta's body.
#[derive(Encode, Decode, Debug, PartialEq)]
struct DeltaM {
    /// The tag of the record this one follows.
    parent: Blob,
    fs: FsDeltaM,
    state: StateDeltaM,
}

#[derive(Encode, Decode, Debug, PartialEq, Default)]
struct FsDeltaM {
    /// Paths that are gone, sorted.
    removed: Seq<Text>,
    /// New or changed nodes, whole, sorted by path (parents first).
    upserts: Seq<NodeM>,
}

#[derive(Encode, Decode, Debug, PartialEq)]
enum VarsDeltaM {
    /// The global scope's changes (both states had only that scope).
    Changed { removed: Seq<Text>, set: Seq<VarM> },
    /// Every scope, whole.
    Whole(Seq<Seq<VarM>>),
}

#[derive(Encode, Decode, Debug, PartialEq)]
enum HistoryDeltaM {
    /// The first `dropped` entries went, `appended` came after the rest.
    Suffix {
        dropped: u64,
        appended: Seq<HistoryM>,
    },
    Whole(Seq<HistoryM>),
}

#[derive(Encode, Decode, Debug, PartialEq)]
struct StateDeltaM {
    vars: VarsDeltaM,
    funcs_removed: Seq<Text>,
    funcs_set: Seq<FuncM>,
    positional: Seq<Text>,
    arg0: Text,
    cwd: Text,
    last_status: i32,
    options: Seq<Text>,
    traps: Seq<(Text, Text)>,
    aliases: Seq<(Text, Text)>,
    dirstack: Seq<Text>,
    history: HistoryDeltaM,
    disabled: Seq<Text>,
    exported: Seq<Text>,
}

impl Bash {
    /// A full snapshot (filesystem and functions included) that starts a
    /// checkpoint chain, and the [`Base`] the next delta is taken against.
    pub fn checkpoint_full(&self, key: Option<&[u8]>) -> Result<(Vec<u8>, Base), Error> {
        format::check_key(key)?;
        let tree = self.mem.export();
        let parts = self.capture_parts(true);
        let bytes = format::seal(0, &parts.clone().into_body(Some(fsm::capture(&tree))), key)?;
        let tag = format::tag_of(&bytes).ok_or_else(|| Error::Internal("sealed bytes without a tag".into()))?;
        Ok((bytes, Base { tag, keyed: key.is_some(), tree, parts }))
    }

    /// What changed since `base` as a sealed delta record, and the base that
    /// record is (for the next one). `key` must be the chain's key.
    pub fn checkpoint_delta(&self, base: &Base, key: Option<&[u8]>) -> Result<(Vec<u8>, Base), Error> {
        format::check_key(key)?;
        if base.keyed != key.is_some() {
            return Err(Error::InvalidInput(
                "a checkpoint delta must be sealed as its chain is (with the same key, or none)".into(),
            ));
        }
        let tree = self.mem.export();
        let parts = self.capture_parts(true);
        let body = DeltaM {
            parent: Blob(Arc::new(base.tag.to_vec())),
            fs: diff_tree(&base.tree, &tree),
            state: diff_parts(&base.parts, &parts),
        };
        let bytes = format::seal_as(DELTA, 0, &body, key)?;
        let tag = format::tag_of(&bytes).ok_or_else(|| Error::Internal("sealed bytes without a tag".into()))?;
        Ok((bytes, Base { tag, keyed: key.is_some(), tree, parts }))
    }

    /// Replace this session's state and filesystem with what the chain `full`,
    /// `deltas` (oldest first) describes, and return the [`Base`] of its last
    /// record, to go on with. Every record is opened (tag or HMAC), each
    /// delta must follow the record before it, and the result is checked
    /// against this session's limits before anything changes: on `Err` the
    /// session is as it was.
    pub fn restore_chain(&mut self, full: &[u8], deltas: &[&[u8]], key: Option<&[u8]>) -> Result<Base, Error> {
        let total = deltas.iter().fold(full.len() as u64, |t, d| t.saturating_add(d.len() as u64));
        self.fits_budget(total)?;
        let (parts, nodes, tag) = {
            let _scope = crate::limits::scope::enter_account(&self.account);
            let start = super::open_full(full, key)?;
            if start.flags & (FLAG_NO_FS | FLAG_NO_FUNCS) != 0 {
                return Err(invalid("a checkpoint chain starts from a snapshot with its filesystem and functions"));
            }
            let mut parts = start.parts;
            let mut nodes: BTreeMap<String, NodeM> = BTreeMap::new();
            for n in start.fs.map(|f| f.nodes.0).unwrap_or_default() {
                if let Some(dup) = nodes.insert(n.path.0.clone(), n) {
                    return Err(invalid(format!("filesystem: {} appears twice", dup.path.0)));
                }
            }
            let mut tag = format::tag_of(full).ok_or_else(|| invalid("truncated"))?;
            for (i, bytes) in deltas.iter().enumerate() {
                let opened = format::open_as(DELTA, bytes, key).map_err(|e| at(i, e))?;
                let d: DeltaM = format::decode(opened.body).map_err(|e| at(i, e))?;
                if d.parent.0[..] != tag[..] {
                    return Err(invalid(format!("checkpoint delta {i} does not follow the record before it")));
                }
                apply_fs(&mut nodes, d.fs).map_err(|m| invalid(format!("checkpoint delta {i}: {m}")))?;
                apply_state(&mut parts, d.state).map_err(|m| invalid(format!("checkpoint delta {i}: {m}")))?;
                tag = format::tag_of(bytes).ok_or_else(|| invalid("truncated"))?;
            }
            (parts, nodes, tag)
        };
        // The base is the caller's bookkeeping, not the session's memory:
        // built outside the session's account.
        let base_parts = parts.clone();
        let _scope = crate::limits::scope::enter_account(&self.account);
        let fs = FsM { nodes: Seq(nodes.into_values().collect()) };
        let tree = fsm::rebuild(fs, self.mem.limits()).map_err(|e| invalid(format!("filesystem: {e}")))?;
        drop(_scope);
        let base_tree = tree.clone();
        let _scope = crate::limits::scope::enter_account(&self.account);
        self.install(0, parts, Some(tree))?;
        Ok(Base { tag, keyed: key.is_some(), tree: base_tree, parts: base_parts })
    }
}

fn at(i: usize, e: Error) -> Error {
    match e {
        Error::InvalidInput(m) => Error::InvalidInput(format!("checkpoint delta {i}: {m}")),
        other => other,
    }
}

fn same_node(a: &Node, b: &Node) -> bool {
    a.mode == b.mode
        && a.mtime == b.mtime
        && match (&a.kind, &b.kind) {
            (Kind::File(x), Kind::File(y)) => Arc::ptr_eq(x, y) || x == y,
            (Kind::Dir, Kind::Dir) => true,
            (Kind::Symlink(x), Kind::Symlink(y)) => x == y,
            _ => false,
        }
}

fn node_mirror(path: &str, n: &Node) -> NodeM {
    fsm::node(path, n)
}

/// The nodes of `new` that `old` lacks or holds otherwise, and the paths of
/// `old` that `new` lacks: one walk over both sorted maps, comparing file
/// contents by pointer first (an unchanged file shares its buffer).
fn diff_tree(old: &MemoryTree, new: &MemoryTree) -> FsDeltaM {
    let mut out = FsDeltaM::default();
    let (mut a, mut b) = (old.nodes.iter().peekable(), new.nodes.iter().peekable());
    loop {
        match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some((pa, _)), None) => {
                out.removed.0.push(Text((*pa).clone()));
                a.next();
            }
            (None, Some((pb, nb))) => {
                out.upserts.0.push(node_mirror(pb, nb));
                b.next();
            }
            (Some((pa, na)), Some((pb, nb))) => match pa.cmp(pb) {
                std::cmp::Ordering::Less => {
                    out.removed.0.push(Text((*pa).clone()));
                    a.next();
                }
                std::cmp::Ordering::Greater => {
                    out.upserts.0.push(node_mirror(pb, nb));
                    b.next();
                }
                std::cmp::Ordering::Equal => {
                    if !same_node(na, nb) {
                        out.upserts.0.push(node_mirror(pb, nb));
                    }
                    a.next();
                    b.next();
                }
            },
        }
    }
    out
}

fn apply_fs(nodes: &mut BTreeMap<String, NodeM>, d: FsDeltaM) -> Result<(), String> {
    for p in d.removed.0 {
        if nodes.remove(&p.0).is_none() {
            return Err(format!("removes {} which is not there", p.0));
        }
    }
    for n in d.upserts.0 {
        nodes.insert(n.path.0.clone(), n);
    }
    Ok(())
}

/// Merge two lists sorted by `key`: what `new` has that `old` lacks or holds
/// otherwise, and the keys of `old` that `new` lacks.
fn diff_sorted<T: PartialEq + Clone>(old: &[T], new: &[T], key: impl Fn(&T) -> &str) -> (Vec<Text>, Vec<T>) {
    let (mut removed, mut set) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(o), Some(n)) => match key(o).cmp(key(n)) {
                std::cmp::Ordering::Less => {
                    removed.push(Text(key(o).to_string()));
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    set.push(n.clone());
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    if o != n {
                        set.push(n.clone());
                    }
                    i += 1;
                    j += 1;
                }
            },
            (Some(o), None) => {
                removed.push(Text(key(o).to_string()));
                i += 1;
            }
            (None, Some(n)) => {
                set.push(n.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    (removed, set)
}

/// Apply a [`diff_sorted`] result to a list sorted by `key`.
fn apply_sorted<T>(
    list: Vec<T>,
    removed: Vec<Text>,
    set: Vec<T>,
    key: impl Fn(&T) -> String,
) -> Result<Vec<T>, String> {
    let mut map: BTreeMap<String, T> = BTreeMap::new();
    for x in list {
        map.insert(key(&x), x);
    }
    for r in removed {
        if map.remove(&r.0).is_none() {
            return Err(format!("removes {:?} which is not there", r.0));
        }
    }
    for x in set {
        map.insert(key(&x), x);
    }
    Ok(map.into_values().collect())
}

fn diff_history(old: &[HistoryM], new: &[HistoryM]) -> HistoryDeltaM {
    let suffix = |dropped: usize| {
        let kept = old.len() - dropped;
        (new.len() >= kept && old[dropped..] == new[..kept])
            .then(|| HistoryDeltaM::Suffix { dropped: dropped as u64, appended: Seq(new[kept..].to_vec()) })
    };
    // Entries are numbered upwards: the first one kept is found by its number.
    let dropped = match new.first() {
        None => old.len(),
        Some(first) => old.partition_point(|h| h.number < first.number),
    };
    suffix(dropped).unwrap_or_else(|| HistoryDeltaM::Whole(Seq(new.to_vec())))
}

fn diff_parts(old: &Parts, new: &Parts) -> StateDeltaM {
    let (o, n) = (&old.state, &new.state);
    let vars = match (o.scopes.0.as_slice(), n.scopes.0.as_slice()) {
        ([og], [ng]) => {
            let (removed, set) = diff_sorted(&og.0, &ng.0, |v: &VarM| v.name.0.as_str());
            VarsDeltaM::Changed { removed: Seq(removed), set: Seq(set) }
        }
        _ => VarsDeltaM::Whole(n.scopes.clone()),
    };
    let (funcs_removed, funcs_set) = diff_sorted(&o.funcs.0, &n.funcs.0, |f: &FuncM| f.name.0.as_str());
    StateDeltaM {
        vars,
        funcs_removed: Seq(funcs_removed),
        funcs_set: Seq(funcs_set),
        positional: n.positional.clone(),
        arg0: n.arg0.clone(),
        cwd: n.cwd.clone(),
        last_status: n.last_status,
        options: n.options.clone(),
        traps: n.traps.clone(),
        aliases: Seq(new.aliases.clone()),
        dirstack: Seq(new.dirstack.clone()),
        history: diff_history(&old.history, &new.history),
        disabled: Seq(new.disabled.clone()),
        exported: Seq(new.exported.clone()),
    }
}

fn apply_state(p: &mut Parts, d: StateDeltaM) -> Result<(), String> {
    let s = &mut p.state;
    match d.vars {
        VarsDeltaM::Changed { removed, set } => {
            let [global] = s.scopes.0.as_mut_slice() else {
                return Err("changes one variable scope, the record before it has several".into());
            };
            let vars = std::mem::take(&mut global.0);
            global.0 = apply_sorted(vars, removed.0, set.0, |v: &VarM| v.name.0.clone())?;
        }
        VarsDeltaM::Whole(scopes) => s.scopes = scopes,
    }
    let funcs = std::mem::take(&mut s.funcs.0);
    s.funcs.0 = apply_sorted(funcs, d.funcs_removed.0, d.funcs_set.0, |f: &FuncM| f.name.0.clone())?;
    s.positional = d.positional;
    s.arg0 = d.arg0;
    s.cwd = d.cwd;
    s.last_status = d.last_status;
    s.options = d.options;
    s.traps = d.traps;
    p.aliases = d.aliases.0;
    p.dirstack = d.dirstack.0;
    p.history = match d.history {
        HistoryDeltaM::Suffix { dropped, appended } => {
            let dropped = usize::try_from(dropped).ok().filter(|&n| n <= p.history.len());
            let Some(dropped) = dropped else {
                return Err("drops more history than the record before it holds".into());
            };
            let mut h = p.history.split_off(dropped);
            h.extend(appended.0);
            h
        }
        HistoryDeltaM::Whole(h) => h.0,
    };
    p.disabled = d.disabled.0;
    p.exported = d.exported.0;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime")
    }

    fn body(bytes: &[u8]) -> DeltaM {
        let opened = format::open_as(DELTA, bytes, None).expect("open");
        format::decode(opened.body).expect("decode")
    }

    #[test]
    fn a_delta_holds_only_what_changed() {
        let rt = rt();
        let mut a = Bash::builder().build().expect("build");
        rt.block_on(a.exec("big=$(printf '%05000d' 0); f() { :; }; for i in 1 2 3; do echo $i > /tmp/f$i; done"))
            .expect("exec");
        let (_, base) = a.checkpoint_full(None).expect("full");
        rt.block_on(a.exec("x=1; echo new > /tmp/f2; rm /tmp/f3; unset -f f")).expect("exec");
        let (bytes, _) = a.checkpoint_delta(&base, None).expect("delta");
        let d = body(&bytes);
        let up: Vec<&str> = d.fs.upserts.0.iter().map(|n| n.path.0.as_str()).collect();
        assert_eq!(up, ["/tmp/f2"]);
        assert_eq!(d.fs.removed.0, [Text("/tmp/f3".into())]);
        let VarsDeltaM::Changed { set, .. } = &d.state.vars else { panic!("whole scopes") };
        assert!(set.0.iter().any(|v| v.name.0 == "x"));
        assert!(!set.0.iter().any(|v| v.name.0 == "big"), "an unchanged variable was sent");
        assert_eq!(d.state.funcs_removed.0, [Text("f".into())]);
        // Far smaller than the 5 KB variable it did not repeat.
        assert!(bytes.len() < 2000, "{} bytes", bytes.len());
    }

    #[test]
    fn history_goes_as_a_suffix() {
        let h = |n: u64| HistoryM { number: n, line: Text(format!("cmd {n}")), status: Some(0) };
        let old: Vec<HistoryM> = (1..=5).map(h).collect();
        let new: Vec<HistoryM> = (3..=7).map(h).collect();
        let d = diff_history(&old, &new);
        assert_eq!(d, HistoryDeltaM::Suffix { dropped: 2, appended: Seq(vec![h(6), h(7)]) });
        let mut p = Parts {
            state: super::super::state::capture(&Bash::builder().build().expect("build").state, true),
            aliases: vec![],
            dirstack: vec![],
            history: old.clone(),
            disabled: vec![],
            exported: vec![],
        };
        let whole = diff_parts(&p, &Parts { history: new.clone(), ..p.clone() });
        apply_state(&mut p, whole).expect("apply");
        assert_eq!(p.history, new);
        // A history that was cleared and numbered anew goes whole.
        let cleared: Vec<HistoryM> = (1..=2).map(|n| HistoryM { line: Text("other".into()), ..h(n) }).collect();
        assert!(matches!(diff_history(&old, &cleared), HistoryDeltaM::Whole(_)));
        assert_eq!(diff_history(&old, &[]), HistoryDeltaM::Suffix { dropped: 5, appended: Seq(vec![]) });
    }
}
