//! Variables: scalars, indexed and associative arrays, with attributes and
//! function scopes (bash's dynamic scoping: the innermost scope that has the
//! name wins).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A variable's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(String),
    Indexed(BTreeMap<i64, String>),
    Assoc(BTreeMap<String, String>),
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
}

/// A case attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Lower,
    Upper,
}

impl Case {
    pub fn apply(self, s: String) -> String {
        match self {
            Case::Lower => s.to_lowercase(),
            Case::Upper => s.to_uppercase(),
        }
    }
}

impl Var {
    /// A declared name without value or attributes.
    pub fn empty() -> Self {
        Var { value: None, exported: false, readonly: false, integer: false, case: None }
    }
    pub fn scalar(s: String) -> Self {
        Var { value: Some(Value::Scalar(s)), ..Var::empty() }
    }
}

/// Scoped variable storage. Scope 0 is global; each function call pushes one.
#[derive(Clone, Debug)]
pub struct Variables {
    scopes: Vec<Arc<HashMap<String, Var>>>,
}

impl Default for Variables {
    fn default() -> Self {
        Variables { scopes: vec![Arc::new(HashMap::new())] }
    }
}

impl Variables {
    /// The variable a name refers to now (set or only declared).
    pub fn get(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// A variable that has a value.
    pub fn get_set(&self, name: &str) -> Option<&Var> {
        self.get(name).filter(|v| v.value.is_some())
    }

    fn scope_index(&self, name: &str) -> usize {
        self.scopes.iter().rposition(|s| s.contains_key(name)).unwrap_or(0)
    }

    /// Mutable access to the variable `name` resolves to, creating it (global) if missing.
    pub fn entry(&mut self, name: &str) -> &mut Var {
        let idx = self.scope_index(name);
        let scope = Arc::make_mut(&mut self.scopes[idx]);
        scope.entry(name.to_string()).or_insert_with(Var::empty)
    }

    /// Assign a scalar; `Err` is bash's message for a readonly name.
    pub fn set_scalar(&mut self, name: &str, value: String) -> Result<(), String> {
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

    /// Replace the whole value.
    pub fn set_value(&mut self, name: &str, value: Value) -> Result<(), String> {
        let v = self.entry(name);
        if v.readonly {
            return Err(format!("{name}: readonly variable"));
        }
        v.value = Some(value);
        Ok(())
    }

    /// `unset name`; `Err` for readonly.
    pub fn unset(&mut self, name: &str) -> Result<(), String> {
        let idx = match self.scopes.iter().rposition(|s| s.contains_key(name)) {
            Some(i) => i,
            None => return Ok(()),
        };
        if self.scopes[idx].get(name).is_some_and(|v| v.readonly) {
            return Err(format!("{name}: cannot unset: readonly variable"));
        }
        let scope = Arc::make_mut(&mut self.scopes[idx]);
        if idx == 0 {
            scope.remove(name);
        } else if let Some(v) = scope.get_mut(name) {
            // An unset local stays local (bash keeps the name shadowed in that scope).
            v.value = None;
        }
        Ok(())
    }

    /// The scopes, global first (for snapshots).
    pub fn scopes(&self) -> impl Iterator<Item = &HashMap<String, Var>> {
        self.scopes.iter().map(|s| s.as_ref())
    }

    /// Variables made of these scopes, global first; `None` without any scope.
    pub fn from_scopes(scopes: Vec<HashMap<String, Var>>) -> Option<Self> {
        if scopes.is_empty() {
            return None;
        }
        Some(Variables { scopes: scopes.into_iter().map(Arc::new).collect() })
    }

    /// Start a function scope.
    pub fn push_scope(&mut self) {
        self.scopes.push(Arc::new(HashMap::new()));
    }

    /// End a function scope.
    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    /// True inside a function.
    pub fn in_function(&self) -> bool {
        self.scopes.len() > 1
    }

    /// `local name`: declare in the innermost scope (keeps an existing local).
    pub fn declare_local(&mut self, name: &str) -> &mut Var {
        let last = self.scopes.len() - 1;
        let scope = Arc::make_mut(&mut self.scopes[last]);
        scope.entry(name.to_string()).or_insert_with(Var::empty)
    }

    /// Exported names with values, sorted.
    pub fn exported(&self) -> Vec<(String, String)> {
        let mut seen: BTreeMap<&str, Option<String>> = BTreeMap::new();
        for scope in self.scopes.iter().rev() {
            for (k, v) in scope.iter() {
                seen.entry(k.as_str()).or_insert_with(|| {
                    if v.exported {
                        v.value.as_ref().and_then(Value::as_scalar)
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
        let mut names: Vec<String> = self.scopes.iter().flat_map(|s| s.keys().cloned()).collect();
        names.sort();
        names.dedup();
        names
    }
}
