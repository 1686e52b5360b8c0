//! Variables: scalars, indexed and associative arrays, with attributes and
//! function scopes (bash's dynamic scoping: the innermost scope that has the
//! name wins).

use super::assoc::AssocMap;
use super::call_stack::CallStack;
use super::hot::{self, HotVars};
use super::name_key::NameKey;
use hashbrown::hash_map::EntryRef;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// How many namerefs a lookup follows before giving up (bash's NAMEREF_MAX).
const NAMEREF_MAX: usize = 8;

/// What a name stands for once namerefs are followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved<'a> {
    /// A variable name, looked up in the scopes below `bound` (a local
    /// `local -n v=v` refers to the `v` of the scopes around its own).
    Name(Cow<'a, str>, usize),
    /// A reference to an array element: `declare -n r='a[1]'` (base, raw subscript).
    Element(String, String),
    /// The chain loops; `.0` is the name the lookup started from.
    Circular(String),
}

/// A variable's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(String),
    Indexed(BTreeMap<i64, String>),
    Assoc(AssocMap),
}

impl Value {
    /// `$name` of the value: arrays give element 0 / key "0".
    pub fn as_scalar(&self) -> Option<String> {
        match self {
            Value::Scalar(s) => Some(s.clone()),
            Value::Indexed(m) => m.get(&0).cloned(),
            Value::Assoc(m) => m.get("0").cloned(),
        }
    }
}

/// A variable with its attributes.
#[derive(Clone, Debug)]
pub struct Var {
    /// `None` for a name declared (`local x`, `declare x`) but not yet assigned.
    pub value: Option<Value>,
    pub exported: bool,
    pub readonly: bool,
    pub integer: bool,
    /// `declare -l` / `declare -u`: case applied on every assignment.
    pub case: Option<Case>,
    /// `declare -n`: the value is the name of another variable.
    pub nameref: bool,
    /// `declare -t` (shown by `declare -p`; functions' trace attribute is separate).
    pub trace: bool,
    /// An array made by `declare -a NAME` (or `-A`, `local -a`) and never
    /// assigned since: `declare -p` shows it without `=()`, the bare listing
    /// leaves it out (bash's invisible attribute). Any write clears it.
    pub unassigned: bool,
    /// The exec whose rollback journal already holds this variable's value
    /// from before it (see [`Variables::begin_journal`]).
    pub(crate) epoch: u32,
}

/// A case attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Lower,
    Upper,
    /// `declare -c`: the first character upper case, the rest lower.
    Capital,
}

impl Case {
    pub fn apply(self, s: String) -> String {
        match self {
            Case::Lower => s.to_lowercase(),
            Case::Upper => s.to_uppercase(),
            Case::Capital => {
                let mut c = s.chars();
                match c.next() {
                    Some(f) => f.to_uppercase().chain(c.as_str().to_lowercase().chars()).collect(),
                    None => s,
                }
            }
        }
    }
}

impl Var {
    /// A declared name without value or attributes.
    pub fn empty() -> Self {
        Var {
            value: None,
            exported: false,
            readonly: false,
            integer: false,
            case: None,
            nameref: false,
            trace: false,
            unassigned: false,
            epoch: 0,
        }
    }
    pub fn scalar(s: String) -> Self {
        Var { value: Some(Value::Scalar(s)), ..Var::empty() }
    }
}

/// Scoped variable storage. Scope 0 is global; each function call pushes one.
#[derive(Debug)]
pub struct Variables {
    /// Each variable behind its own `Arc`: forking the state (a subshell)
    /// copies pointers, and a write copies only the variable it changes.
    scopes: Vec<Arc<Scope>>,
    /// The globals the shell itself writes after nearly every command or
    /// call, each in its own cell (see [`hot`]), not in `scopes[0]`.
    hot: Arc<HotVars>,
    /// Set once a nameref exists: until then no lookup has to check for one.
    has_refs: bool,
    /// While an exec runs: what its global writes replaced, to roll back to.
    journal: Option<Box<Journal>>,
    /// The last journal's number.
    epoch: u32,
    /// A summary of the names the function scopes hold (see [`name_bit`]):
    /// a lookup of a name whose bit is clear goes straight to the globals
    /// instead of asking every scope of a deep recursion. Bits are set as
    /// locals are made and cleared when the last function scope ends.
    local_bits: u64,
    /// An empty scope that each call's scope starts as (copied on its first
    /// local): a call that makes no local allocates no table.
    empty: Arc<Scope>,
    /// The frames the call stack's arrays are computed from (see
    /// [`CallStack`]); shared with forks and the journal until changed.
    stack: Arc<CallStack>,
}

/// An exec's rollback journal of the global scope: each global name's
/// variable from before the exec's first change to it (`None`: it did not
/// exist). Cheaper than keeping a copy of the whole scope, which made every
/// exec that set one variable (even `$_`) copy the whole table.
#[derive(Debug)]
struct Journal {
    epoch: u32,
    before: Vec<(Name, Option<Arc<Var>>)>,
    /// Names already in `before`: a name unset and set again (as every
    /// function call does to `FUNCNAME`) is recorded once, so the journal
    /// stays as small as the set of names the exec touched. Made once
    /// `before` outgrows a look along it (most execs touch a few names).
    recorded: Option<hashbrown::HashSet<Name, foldhash::fast::RandomState>>,
    has_refs: bool,
    /// The call stack at the exec's start.
    stack: Arc<CallStack>,
}

impl Journal {
    fn record(&mut self, name: &str, before: Option<Arc<Var>>) {
        const LOOK_ALONG: usize = 16;
        match &mut self.recorded {
            Some(set) => {
                if set.contains(&NameKey(name)) {
                    return;
                }
                set.insert(Name::new(name));
            }
            None if self.before.iter().any(|(n, _)| n == name) => return,
            None if self.before.len() == LOOK_ALONG => {
                let mut set: hashbrown::HashSet<Name, _> = self.before.iter().map(|(n, _)| n.clone()).collect();
                set.insert(Name::new(name));
                self.recorded = Some(set);
            }
            None => {}
        }
        self.before.push((Name::new(name), before));
    }
}

impl Clone for Variables {
    /// A fork (a subshell) has no journal: its changes are its own.
    fn clone(&self) -> Self {
        Variables {
            scopes: self.scopes.clone(),
            hot: self.hot.clone(),
            has_refs: self.has_refs,
            journal: None,
            epoch: self.epoch,
            local_bits: self.local_bits,
            empty: self.empty.clone(),
            stack: self.stack.clone(),
        }
    }
}

impl Default for Variables {
    fn default() -> Self {
        Variables {
            scopes: vec![Arc::new(Scope::default())],
            hot: Default::default(),
            has_refs: false,
            journal: None,
            epoch: 0,
            local_bits: 0,
            empty: Default::default(),
            stack: Default::default(),
        }
    }
}

impl Variables {
    /// Bind `name` in the global scope to a variable shared with other
    /// shells (a write copies it first, as every write to a shared one does).
    /// Not journaled: for a shell being set up.
    pub fn insert_shared(&mut self, name: &str, var: Arc<Var>) {
        match hot::index(name) {
            Some(i) => *Arc::make_mut(&mut self.hot).cell(i) = Some(var),
            None => {
                Arc::make_mut(&mut self.scopes[0]).insert(Name::new(name), var);
            }
        }
        // Only the call stack's own names touch it (not every global set up).
        if self.stack.live_index(name).is_some() {
            Arc::make_mut(&mut self.stack).forget(name);
        }
    }

    /// Room for `n` more globals (a shell being set up: no table regrown on the way).
    pub fn reserve_globals(&mut self, n: usize) {
        Arc::make_mut(&mut self.scopes[0]).reserve(n);
    }
}

/// One scope's variables. foldhash: several times faster than SipHash on
/// short names, and randomly seeded per process.
type Scope = hashbrown::HashMap<Name, Arc<Var>, foldhash::fast::RandomState>;

/// A variable's name as a scope holds it: names up to 24 bytes sit inline, so
/// copying a scope (the first write to one shared with other shells)
/// allocates nothing per name.
pub type Name = compact_str::CompactString;

/// Function scopes set aside by [`Variables::hide_locals`].
pub struct HiddenScopes(Vec<Arc<Scope>>);

/// Split `a[1]` into `a` and `1`.
pub fn split_subscript(s: &str) -> Option<(&str, &str)> {
    let (base, rest) = s.split_once('[')?;
    Some((base, rest.strip_suffix(']')?))
}

impl Variables {
    /// The variable a name refers to now (set or only declared), namerefs followed.
    pub fn get(&self, name: &str) -> Option<&Var> {
        if !self.has_refs {
            return self.get_raw(name);
        }
        match self.resolve(name) {
            Resolved::Name(n, bound) => self.find(&n, bound).map(|(_, v)| v),
            Resolved::Element(..) | Resolved::Circular(_) => None,
        }
    }

    /// The variable `name` of scope `idx` as stored (no computed array).
    fn stored(&self, idx: usize, name: &str) -> Option<&Arc<Var>> {
        match hot::index(name).filter(|_| idx == 0) {
            Some(i) => self.hot.get(i),
            None => self.scopes[idx].get(&NameKey(name)),
        }
    }

    /// Put (`Some`) or remove (`None`) the variable `name` of scope `idx`.
    fn store(&mut self, idx: usize, name: &str, v: Option<Arc<Var>>) {
        if let Some(i) = hot::index(name).filter(|_| idx == 0) {
            *Arc::make_mut(&mut self.hot).cell(i) = v;
            return;
        }
        let scope = Arc::make_mut(&mut self.scopes[idx]);
        match v {
            Some(v) => {
                scope.insert(Name::new(name), v);
            }
            None => {
                scope.remove(&NameKey(name));
            }
        }
    }

    /// The variable named `name` itself (a nameref is not followed).
    pub fn get_raw(&self, name: &str) -> Option<&Var> {
        self.find(name, self.scopes.len()).map(|(_, v)| v)
    }

    /// Innermost variable `name` among the scopes below `bound`, with its scope.
    fn find(&self, name: &str, bound: usize) -> Option<(usize, &Var)> {
        if !self.maybe_local(name) {
            return self.lookup(0, name).map(|v| (0, v));
        }
        (0..bound).rev().find_map(|i| self.lookup(i, name).map(|v| (i, v)))
    }

    /// False when no function scope holds `name` (true may be a false alarm).
    fn maybe_local(&self, name: &str) -> bool {
        self.local_bits & name_bit(name) != 0
    }

    /// `name` in scope `idx`, the call stack's arrays computed.
    // One call of the table's `get`: with two, a build may keep it out of
    // line (a call per lookup, 10% of a counting loop).
    #[inline]
    fn lookup(&self, idx: usize, name: &str) -> Option<&Var> {
        if idx == 0 {
            if let Some(i) = hot::index(name) {
                if hot::of_stack(i) {
                    if let Some(j) = self.stack.live_index(name) {
                        return Some(self.stack.var(j));
                    }
                }
                return self.hot.get(i).map(|v| &**v);
            }
        }
        self.scopes[idx].get(&NameKey(name)).map(|v| &**v)
    }

    /// `${BASH_SOURCE[0]}` while the shell computes it, read from the frames
    /// without building the array (error messages ask for it at every
    /// line); `None` when it is a variable of its own (or not set).
    pub fn computed_source(&self) -> Option<Option<&str>> {
        (self.computed("BASH_SOURCE") && !self.has_refs).then(|| self.stack.sources.last().map(|s| &**s))
    }

    /// Whether `name` is one of the call stack's arrays, computed by the
    /// shell (bash's `noassign`): not unset, and no local of that name.
    pub fn computed(&self, name: &str) -> bool {
        self.stack.live_index(name).is_some() && !self.local_in(name, self.scopes.len())
    }

    /// The call stack's frames.
    pub fn call_stack(&self) -> &CallStack {
        &self.stack
    }

    /// The call stack's frames, to change: its arrays are computed again.
    pub fn call_stack_mut(&mut self) -> &mut CallStack {
        let stack = Arc::make_mut(&mut self.stack);
        stack.changed();
        stack
    }

    /// A global computed from the call stack becomes a plain variable
    /// (something is about to write it).
    fn materialize(&mut self, name: &str) {
        if let Some(i) = self.stack.live_index(name) {
            let v = Arc::make_mut(&mut self.stack).take(i);
            if let Some(h) = hot::index(name) {
                *Arc::make_mut(&mut self.hot).cell(h) = Some(v);
            }
        }
    }

    /// Whether the global variable `name` is readonly (no function can make
    /// it local).
    pub fn global_readonly(&self, name: &str) -> bool {
        self.lookup(0, name).is_some_and(|v| v.readonly)
    }

    /// True once any nameref was declared (lookups then follow them).
    pub fn has_refs(&self) -> bool {
        self.has_refs
    }

    /// Note that a nameref now exists.
    pub fn note_nameref(&mut self) {
        self.has_refs = true;
    }

    /// Is `name` itself a nameref?
    pub fn is_nameref(&self, name: &str) -> bool {
        self.has_refs && self.get_raw(name).is_some_and(|v| v.nameref)
    }

    /// Follow namerefs from `name`. A nameref without a value stands for itself.
    pub fn resolve<'a>(&self, name: &'a str) -> Resolved<'a> {
        let top = self.scopes.len();
        if !self.has_refs {
            return Resolved::Name(Cow::Borrowed(name), top);
        }
        let mut cur: Cow<'a, str> = Cow::Borrowed(name);
        let mut bound = top;
        for _ in 0..=NAMEREF_MAX {
            let Some((idx, v)) = self.find(&cur, bound) else {
                return Resolved::Name(cur, bound);
            };
            if !v.nameref {
                return Resolved::Name(cur, bound);
            }
            let target = match &v.value {
                Some(Value::Scalar(t)) if !t.is_empty() => t,
                _ => return Resolved::Name(cur, bound),
            };
            if let Some((base, sub)) = split_subscript(target) {
                return Resolved::Element(base.to_string(), sub.to_string());
            }
            if *target == *cur {
                // `local -n v=v`: the `v` of the enclosing scopes.
                if idx == 0 {
                    return Resolved::Circular(name.to_string());
                }
                bound = idx;
                continue;
            }
            if target == name {
                return Resolved::Circular(name.to_string());
            }
            cur = Cow::Owned(target.clone());
            bound = top;
        }
        Resolved::Circular(name.to_string())
    }

    /// A variable that has a value.
    pub fn get_set(&self, name: &str) -> Option<&Var> {
        self.get(name).filter(|v| v.value.is_some())
    }

    /// Whether a function scope below `bound` holds `name`.
    fn local_in(&self, name: &str, bound: usize) -> bool {
        self.maybe_local(name) && (1..bound).any(|i| self.scopes[i].contains_key(&NameKey(name)))
    }

    fn scope_index(&self, name: &str, bound: usize) -> usize {
        // A name no function scope holds is global.
        if !self.maybe_local(name) {
            return 0;
        }
        (1..bound).rev().find(|&i| self.scopes[i].contains_key(&NameKey(name))).unwrap_or(0)
    }

    /// Mutable access to the variable `name` resolves to (namerefs followed),
    /// creating it (global) if missing. A reference to an array element gives
    /// the array; a circular one the name itself.
    pub fn entry(&mut self, name: &str) -> &mut Var {
        if !self.has_refs {
            return self.entry_in(name, self.scopes.len());
        }
        match self.resolve(name) {
            Resolved::Name(n, bound) => {
                let n = n.into_owned();
                self.entry_in(&n, bound)
            }
            Resolved::Element(base, _) => self.entry_in(&base, self.scopes.len()),
            Resolved::Circular(_) => self.entry_raw(name),
        }
    }

    /// Mutable access to the variable named `name` itself (no nameref followed).
    pub fn entry_raw(&mut self, name: &str) -> &mut Var {
        self.entry_in(name, self.scopes.len())
    }

    fn entry_in(&mut self, name: &str, bound: usize) -> &mut Var {
        let idx = self.scope_index(name, bound);
        self.entry_at(idx, name)
    }

    /// The variable `name` of scope `idx`, created if missing; a global's
    /// value from before this exec goes to the journal first.
    fn entry_at(&mut self, idx: usize, name: &str) -> &mut Var {
        let hot_cell = if idx == 0 { hot::index(name) } else { None };
        if idx == 0 {
            if hot_cell.is_some_and(hot::of_stack) {
                self.materialize(name);
            }
        } else {
            self.local_bits |= name_bit(name);
        }
        let journal = if idx == 0 { self.journal.as_deref_mut() } else { None };
        if let Some(i) = hot_cell {
            let cell = Arc::make_mut(&mut self.hot).cell(i);
            let mut epoch = None;
            if let Some(journal) = journal {
                if cell.as_ref().is_none_or(|v| v.epoch != journal.epoch) {
                    journal.record(name, cell.clone());
                }
                epoch = Some(journal.epoch);
            }
            let v = Arc::make_mut(cell.get_or_insert_with(|| Arc::new(Var::empty())));
            if let Some(epoch) = epoch {
                v.epoch = epoch;
            }
            v.unassigned = false;
            return v;
        }
        let scope = Arc::make_mut(&mut self.scopes[idx]);
        let Some(journal) = journal else {
            let v = Arc::make_mut(scope.entry_ref(&NameKey(name)).or_insert_with(|| Arc::new(Var::empty())));
            v.unassigned = false;
            return v;
        };
        let slot = match scope.entry_ref(&NameKey(name)) {
            EntryRef::Occupied(o) => {
                let v = o.into_mut();
                if v.epoch != journal.epoch {
                    journal.record(name, Some(v.clone()));
                }
                v
            }
            EntryRef::Vacant(e) => {
                journal.record(name, None);
                e.insert(Arc::new(Var::empty()))
            }
        };
        let v = Arc::make_mut(slot);
        v.epoch = journal.epoch;
        v.unassigned = false;
        v
    }

    /// Start journaling global writes (an exec begins): a stop rolls them
    /// back with [`Self::roll_back`].
    pub fn begin_journal(&mut self) {
        self.epoch = self.epoch.wrapping_add(1).max(1);
        self.journal = Some(Box::new(Journal {
            epoch: self.epoch,
            before: Vec::new(),
            recorded: Default::default(),
            has_refs: self.has_refs,
            stack: self.stack.clone(),
        }));
    }

    /// Keep the exec's changes (it ended well).
    pub fn end_journal(&mut self) {
        self.journal = None;
    }

    /// Undo the exec's changes: function scopes it left open go, and each
    /// global it changed gets its value from before.
    pub fn roll_back(&mut self) {
        let Some(journal) = self.journal.take() else { return };
        self.scopes.truncate(1);
        self.local_bits = 0;
        for (name, before) in journal.before.into_iter().rev() {
            self.store(0, &name, before);
        }
        self.has_refs = journal.has_refs;
        self.stack = journal.stack;
    }

    /// Assign a scalar; `Err` is bash's message for a readonly name.
    pub fn set_scalar(&mut self, name: &str, value: String) -> Result<(), String> {
        if self.has_refs {
            match self.resolve(name) {
                Resolved::Name(..) => {}
                Resolved::Element(base, sub) => return self.set_element(&base, &sub, value),
                Resolved::Circular(n) => return Err(format!("warning: {n}: circular name reference")),
            }
        }
        let v = self.entry(name);
        if v.readonly {
            return Err(format!("{name}: readonly variable"));
        }
        let value = match v.case {
            Some(c) => c.apply(value),
            None => value,
        };
        match &mut v.value {
            Some(Value::Indexed(m)) => {
                m.insert(0, value);
            }
            Some(Value::Assoc(m)) => {
                m.insert("0".to_string(), value);
            }
            _ => v.value = Some(Value::Scalar(value)),
        }
        Ok(())
    }

    /// `a[sub]=value` with a literal subscript (through a nameref to an element).
    fn set_element(&mut self, base: &str, sub: &str, value: String) -> Result<(), String> {
        let v = self.entry(base);
        if v.readonly {
            return Err(format!("{base}: readonly variable"));
        }
        match &mut v.value {
            Some(Value::Assoc(m)) => {
                m.insert(sub.to_string(), value);
            }
            other => {
                let mut m = match other.take() {
                    Some(Value::Indexed(m)) => m,
                    Some(Value::Scalar(s)) => BTreeMap::from([(0, s)]),
                    _ => BTreeMap::new(),
                };
                m.insert(sub.trim().parse().unwrap_or(0), value);
                *other = Some(Value::Indexed(m));
            }
        }
        Ok(())
    }

    /// Replace the whole value.
    pub fn set_value(&mut self, name: &str, value: Value) -> Result<(), String> {
        let v = self.entry(name);
        if v.readonly {
            return Err(format!("{name}: readonly variable"));
        }
        v.value = Some(value);
        Ok(())
    }

    /// The global variable `name` itself, whatever locals hide it.
    pub fn global(&self, name: &str) -> Option<&Var> {
        self.lookup(0, name)
    }

    /// Give the global variable `name` itself (no nameref followed, no local
    /// looked at) a value, as bash sets `BASH_REMATCH`.
    pub fn set_global_value(&mut self, name: &str, value: Value) -> Result<(), String> {
        if self.global(name).is_some_and(|v| v.readonly) {
            return Err(format!("{name}: readonly variable"));
        }
        self.entry_at(0, name).value = Some(value);
        Ok(())
    }

    /// `unset name` (namerefs followed; a circular one unsets the name
    /// itself); `Err` for readonly.
    pub fn unset(&mut self, name: &str) -> Result<(), String> {
        if !self.has_refs {
            return self.unset_in(name, self.scopes.len());
        }
        match self.resolve(name) {
            Resolved::Name(n, bound) => {
                let n = n.into_owned();
                self.unset_in(&n, bound)
            }
            Resolved::Element(base, sub) => {
                if let Some(v) = self.get_raw(&base) {
                    if v.readonly {
                        return Err(format!("{base}: cannot unset: readonly variable"));
                    }
                    let v = self.entry(&base);
                    match &mut v.value {
                        Some(Value::Assoc(m)) => {
                            m.remove(sub.as_str());
                        }
                        Some(Value::Indexed(m)) => {
                            m.remove(&sub.trim().parse().unwrap_or(0));
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            Resolved::Circular(_) => self.unset_raw(name),
        }
    }

    /// `unset -n name`: the variable itself, even a nameref.
    pub fn unset_raw(&mut self, name: &str) -> Result<(), String> {
        self.unset_in(name, self.scopes.len())
    }

    fn unset_in(&mut self, name: &str, bound: usize) -> Result<(), String> {
        if bound > 0 && name != "FUNCNAME" && self.stack.live_index(name).is_some() && !self.local_in(name, bound) {
            // bash gives the other call stack arrays its `nounset` attribute.
            return Err(format!("{name}: cannot unset"));
        }
        self.materialize(name);
        let idx = match (0..bound).rev().find(|&i| self.stored(i, name).is_some()) {
            Some(i) => i,
            None => return Ok(()),
        };
        if self.stored(idx, name).is_some_and(|v| v.readonly) {
            return Err(format!("{name}: cannot unset: readonly variable"));
        }

        if idx == 0 {
            let before = self.stored(0, name).cloned();
            if let Some(journal) = self.journal.as_deref_mut() {
                if let Some(v) = before.filter(|v| v.epoch != journal.epoch) {
                    journal.record(name, Some(v));
                }
            }
        }
        let top = self.scopes.len() - 1;
        if idx == 0 || idx < top {
            // A global, or a local of a calling function: gone, so the
            // variable of the scope around it shows again (bash's dynamic unset).
            self.store(idx, name, None);
            if idx == 0 {
                Arc::make_mut(&mut self.stack).drop_name(name);
            }
        } else if let Some(v) = Arc::make_mut(&mut self.scopes[idx]).get_mut(name) {
            // A local of the running function stays local, without value or
            // attributes (bash keeps the name shadowed in that scope).
            *Arc::make_mut(v) = Var::empty();
        }
        Ok(())
    }

    /// The scopes, global first (for snapshots).
    pub fn scopes(&self) -> impl Iterator<Item = impl Iterator<Item = (&str, &Var)>> {
        self.scopes.iter().enumerate().map(|(i, s)| {
            let global = i == 0;
            let hot = global.then(|| self.hot.iter()).into_iter().flatten();
            let hot = hot.filter(|(k, _)| self.stack.live_index(k).is_none());
            let computed = global.then(|| self.stack.live_names()).into_iter().flatten();
            let computed = computed.map(|k| (k, self.lookup(0, k)));
            let computed = computed.filter_map(|(k, v)| v.map(|v| (k, v)));
            let own = s.iter().map(|(k, v)| (k.as_str(), &**v));
            own.chain(hot.map(|(k, v)| (k, &**v))).chain(computed)
        })
    }

    /// Variables made of these scopes, global first; `None` without any scope.
    pub fn from_scopes(scopes: Vec<HashMap<String, Var>>) -> Option<Self> {
        if scopes.is_empty() {
            return None;
        }
        let has_refs = scopes.iter().any(|s| s.values().any(|v| v.nameref));
        let mut hot = HotVars::default();
        let scopes = scopes.into_iter().enumerate().map(|(i, s)| {
            let mut scope = Scope::default();
            for (k, v) in s {
                if let Some(cell) = hot::index(&k).filter(|_| i == 0) {
                    *hot.cell(cell) = Some(Arc::new(v));
                } else {
                    scope.insert(Name::from(k), Arc::new(v));
                }
            }
            Arc::new(scope)
        });
        let scopes = scopes.collect();
        let stack = Default::default();
        let scopes: Vec<Arc<Scope>> = scopes;
        let local_bits = scopes.iter().skip(1).flat_map(|s| s.keys()).fold(0, |b, k| b | name_bit(k));
        let empty = Default::default();
        Some(Variables { scopes, hot: Arc::new(hot), has_refs, journal: None, epoch: 0, local_bits, empty, stack })
    }

    /// Start a function scope.
    pub fn push_scope(&mut self) {
        self.scopes.push(self.empty.clone());
    }

    /// End a function scope.
    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
        if self.scopes.len() == 1 {
            self.local_bits = 0;
        }
    }

    /// Set the function scopes aside (`declare -g` works on the globals
    /// alone); [`Variables::restore_locals`] puts them back.
    pub fn hide_locals(&mut self) -> HiddenScopes {
        HiddenScopes(self.scopes.split_off(1))
    }

    pub fn restore_locals(&mut self, h: HiddenScopes) {
        // A call while they were hidden may have cleared their bits.
        self.local_bits |= h.0.iter().flat_map(|s| s.keys()).fold(0, |b, k| b | name_bit(k));
        self.scopes.extend(h.0);
    }

    /// The names declared in the innermost function scope, sorted (`local`).
    pub fn local_names(&self) -> Vec<String> {
        if self.scopes.len() < 2 {
            return Vec::new();
        }
        let mut names: Vec<String> = self.scopes[self.scopes.len() - 1].keys().map(|k| k.to_string()).collect();
        names.sort();
        names
    }

    /// True inside a function.
    pub fn in_function(&self) -> bool {
        self.scopes.len() > 1
    }

    /// Whether the innermost function scope holds `name`.
    pub fn is_local_here(&self, name: &str) -> bool {
        let idx = self.scopes.len() - 1;
        self.in_function() && self.stored(idx, name).is_some()
    }

    /// `local name`: declare in the innermost scope (keeps an existing local).
    pub fn declare_local(&mut self, name: &str) -> &mut Var {
        let idx = self.scopes.len() - 1;
        // A new local of an exported variable is exported too, as in bash.
        let inherit = self.stored(idx, name).is_none() && self.get_raw(name).is_some_and(|v| v.exported);
        let v = self.entry_at(idx, name);
        if inherit {
            v.exported = true;
        }
        v
    }

    /// Exported names with values, sorted.
    pub fn exported(&self) -> Vec<(String, String)> {
        let mut seen: BTreeMap<&str, Option<String>> = BTreeMap::new();
        let stored = self.scopes.iter().rev().flat_map(|s| s.iter().map(|(k, v)| (k.as_str(), v)));
        // The computed arrays are never exported.
        for (k, v) in stored.chain(self.hot.iter()).filter(|(k, _)| self.stack.live_index(k).is_none()) {
            {
                seen.entry(k).or_insert_with(|| {
                    // Arrays never reach a child's environment.
                    if v.exported {
                        match &v.value {
                            Some(Value::Scalar(s)) => Some(s.clone()),
                            _ => None,
                        }
                    } else {
                        None
                    }
                });
            }
        }
        seen.into_iter().filter_map(|(k, v)| v.map(|v| (k.to_string(), v))).collect()
    }

    /// Every visible name, sorted (for `set`, `${!prefix*}`).
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.scopes.iter().flat_map(|s| s.keys().map(|k| k.to_string())).collect();
        names.extend(self.hot.iter().map(|(k, _)| k.to_string()));
        names.extend(self.stack.live_names().map(str::to_string));
        names.sort();
        names.dedup();
        names
    }
}

/// One of 64 bits for a name, for [`Variables::local_bits`].
fn name_bit(name: &str) -> u64 {
    let h = name.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    1 << (h >> 26)
}

#[cfg(test)]
mod tests {
    /// The call stack's names are looked up in the hot table: the two lists
    /// must not drift apart (a computed name missing from it would never be
    /// found in the global scope).
    #[test]
    fn call_stack_names_are_hot() {
        for name in super::super::call_stack::NAMES {
            assert!(super::hot::index(name).is_some_and(super::hot::of_stack), "{name}");
        }
        assert!(super::hot::index("PATH").is_none());
    }

    /// Lookups that skip the function scopes by the names' bits still find
    /// every local: in the scope that made it, in the functions it calls,
    /// after a call in between and after the scopes were hidden and put back.
    #[test]
    fn locals_are_found_past_the_name_bits() {
        use super::{Value, Variables};
        let val = |v: &Variables, n: &str| match v.get(n).and_then(|x| x.value.clone()) {
            Some(Value::Scalar(s)) => s,
            _ => "-".into(),
        };
        let mut v = Variables::default();
        v.entry("g").value = Some(Value::Scalar("global".into()));
        v.entry("n").value = Some(Value::Scalar("outer".into()));
        v.push_scope();
        v.declare_local("n").value = Some(Value::Scalar("f".into()));
        for _ in 0..100 {
            v.push_scope();
        }
        assert_eq!((val(&v, "n"), val(&v, "g")), ("f".into(), "global".into()));
        let hidden = v.hide_locals();
        // A call while they are hidden ends the last function scope.
        v.push_scope();
        v.pop_scope();
        assert_eq!(val(&v, "n"), "outer");
        v.restore_locals(hidden);
        assert_eq!(val(&v, "n"), "f");
        v.entry("n").value = Some(Value::Scalar("set".into()));
        for _ in 0..101 {
            v.pop_scope();
        }
        assert_eq!((val(&v, "n"), val(&v, "g")), ("outer".into(), "global".into()));
    }

    /// A rolled-back exec leaves every global as it found it, whether it
    /// touched a few names (the journal looks along its list) or many (it
    /// keeps a set), and a name unset and set again over and over is
    /// recorded once. Writes chosen at run time from a seeded generator.
    #[test]
    fn roll_back_restores_every_global() {
        use super::{Value, Variables};
        let dump = |v: &Variables| {
            let mut all: Vec<(String, Option<String>)> = v
                .names()
                .into_iter()
                .map(|n| (n.clone(), v.get(&n).and_then(|x| x.value.clone()).and_then(|x| x.as_scalar())))
                .collect();
            all.sort();
            all
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Names of the global table and of the hot cells (`super::hot`), some set before.
        let hot = ["_", "PIPESTATUS", "BASH_REMATCH", "BASH_EXECUTION_STRING"];
        for names in [3u64, 15, 16, 17, 40] {
            let mut v = Variables::default();
            for i in 0..names / 2 {
                v.entry(&format!("v{i}")).value = Some(Value::Scalar(format!("old{i}")));
            }
            v.entry("_").value = Some(Value::Scalar("last".into()));
            v.entry("BASH_REMATCH").value = Some(Value::Scalar("m".into()));
            let before = dump(&v);
            v.begin_journal();
            for step in 0..2000 {
                let k = next() % (names + hot.len() as u64);
                let name = match hot.get((k - k.min(names)) as usize).filter(|_| k >= names) {
                    Some(h) => h.to_string(),
                    None => format!("v{k}"),
                };
                if next() % 3 == 0 {
                    let _ = v.unset(&name);
                } else {
                    let _ = v.set_scalar(&name, format!("new{step}"));
                }
            }
            let recorded = v.journal.as_ref().map_or(0, |j| j.before.len());
            assert!(recorded <= names as usize + hot.len(), "{names} names, {recorded} records");
            v.roll_back();
            assert_eq!(dump(&v), before, "{names} names");
        }
    }
}
