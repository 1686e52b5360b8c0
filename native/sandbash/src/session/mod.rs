//! What outlives one exec of a session, for an embedder that keeps sessions
//! around (the NIF): background jobs ([`jobs`]), filesystem change markers
//! ([`markers`]) and a copy of the aliases readable while a script runs
//! ([`AliasesHandle`]). Each is a typed part of the interpreter; the embedder
//! only converts values and delivers completions.

pub mod jobs;
pub mod markers;

use std::collections::BTreeMap;
use std::sync::Arc;

/// The aliases of a session, readable and changeable without waiting for a
/// running exec: reads see the aliases as the last exec left them plus the
/// changes made since; changes made while a script runs reach the shell when
/// its next exec starts (an alias never changes under a running script).
#[derive(Clone, Default)]
pub struct AliasesHandle(Arc<parking_lot::Mutex<AliasShared>>);

#[derive(Default)]
struct AliasShared {
    /// What a reader sees.
    view: Arc<BTreeMap<String, String>>,
    /// Changes the shell has not taken yet, oldest first (`None` removes).
    pending: Vec<(String, Option<String>)>,
}

impl AliasesHandle {
    /// The aliases, by name.
    pub fn list(&self) -> Vec<(String, String)> {
        self.0.lock().view.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// Define (`Some`) or remove (`None`) an alias; `Err` for a name bash refuses.
    pub fn set(&self, name: &str, value: Option<&str>) -> Result<(), String> {
        check_alias_name(name)?;
        let mut s = self.0.lock();
        apply(Arc::make_mut(&mut s.view), name, value);
        s.pending.push((name.to_string(), value.map(str::to_string)));
        Ok(())
    }

    /// Move the pending changes into the shell's aliases (at an exec's start).
    pub(crate) fn take_pending(&self, aliases: &mut Arc<BTreeMap<String, String>>) {
        let pending = std::mem::take(&mut self.0.lock().pending);
        if !pending.is_empty() {
            let map = Arc::make_mut(aliases);
            for (k, v) in pending {
                apply(map, &k, v.as_deref());
            }
        }
    }

    /// The shell's aliases as an exec left them (changes still pending stay on top).
    pub(crate) fn publish(&self, aliases: &Arc<BTreeMap<String, String>>) {
        let mut s = self.0.lock();
        let mut view = aliases.clone();
        if !s.pending.is_empty() {
            let map = Arc::make_mut(&mut view);
            for (k, v) in &s.pending {
                apply(map, k, v.as_deref());
            }
        }
        s.view = view;
    }

    /// The shell's aliases replaced whole (a restored snapshot): pending changes are dropped.
    pub(crate) fn reset(&self, aliases: &Arc<BTreeMap<String, String>>) {
        let mut s = self.0.lock();
        s.pending.clear();
        s.view = aliases.clone();
    }

    /// The shell's aliases with the pending changes applied, without taking them
    /// (an ephemeral copy of the session starts from these).
    pub(crate) fn view(&self) -> Arc<BTreeMap<String, String>> {
        self.0.lock().view.clone()
    }
}

fn apply(map: &mut BTreeMap<String, String>, name: &str, value: Option<&str>) {
    match value {
        Some(v) => {
            map.insert(name.to_string(), v.to_string());
        }
        None => {
            map.remove(name);
        }
    }
}

/// A name `alias` accepts.
pub fn check_alias_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains(['=', '/', '$', '`', '\\', '\'', '"', ' ', '\t', '\n', '\0']) {
        return Err(format!("`{name}': invalid alias name"));
    }
    Ok(())
}
