//! Snapshot and restore of a live session: its shell state and, unless
//! excluded, its in-memory filesystem, as bytes that can be stored and loaded
//! into another session. The session's configuration (limits, filesystem
//! limits, username, hostname) is not part of a snapshot: a restored session
//! keeps its own.
//!
//! The format is a versioned envelope (see [`format`]) around a bincode body
//! made of mirror structs defined here, never of the interpreter's own types,
//! so it stays stable when internals change. Functions are stored as their
//! source text and parsed again on restore.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! use sandbash::{Bash, SnapshotOptions};
//! let mut a = Bash::builder().build().unwrap();
//! a.exec("x=1; f() { echo f$x; }; echo hi > /tmp/greeting").await.unwrap();
//! let bytes = a.snapshot(&SnapshotOptions::default()).unwrap();
//! let mut b = Bash::builder().build().unwrap();
//! b.restore(&bytes, None).unwrap();
//! assert_eq!(b.exec("f; cat /tmp/greeting").await.unwrap().stdout, b"f1\nhi\n");
//! # });
//! ```

pub mod delta;
pub mod format;
pub mod fs;
pub mod state;

use crate::{Bash, Error};
use bincode::{Decode, Encode};
use format::{FLAG_NO_FS, FLAG_NO_FUNCS};

/// What [`Bash::snapshot`] includes and how it is sealed.
#[derive(Clone, Default)]
pub struct SnapshotOptions {
    /// Seal with HMAC-SHA256 under this key (must not be empty); restoring
    /// then needs the same key. Without it the tag is a plain SHA-256, which
    /// catches corruption but not a deliberate forgery.
    pub key: Option<Vec<u8>>,
    /// Leave the filesystem out; restoring keeps the target's.
    pub exclude_filesystem: bool,
    /// Leave functions out; restoring keeps the target's.
    pub exclude_functions: bool,
}

impl std::fmt::Debug for SnapshotOptions {
    // The key is a secret: never print it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SnapshotOptions")
            .field("key", &self.key.as_ref().map(|_| "<redacted>"))
            .field("exclude_filesystem", &self.exclude_filesystem)
            .field("exclude_functions", &self.exclude_functions)
            .finish()
    }
}

/// What version 2 added after a version 1 body: aliases and the directory stack.
#[derive(Encode, Decode, Debug, PartialEq)]
struct Extra {
    aliases: format::Seq<(format::Text, format::Text)>,
    dirstack: format::Seq<format::Text>,
}

/// A version 2 body: the version 1 body, then [`Extra`].
#[derive(Encode, Decode, Debug, PartialEq)]
struct BodyV2 {
    base: Body,
    extra: Extra,
}

/// One history entry: its number, the script, its status (if it finished).
#[derive(Encode, Decode, Debug, PartialEq, Clone)]
pub(crate) struct HistoryM {
    pub number: u64,
    pub line: format::Text,
    pub status: Option<i32>,
}

/// A version 3 body: the version 2 body, then the history.
#[derive(Encode, Decode, Debug, PartialEq)]
struct BodyV3 {
    v2: BodyV2,
    history: format::Seq<HistoryM>,
}

/// A version 4 body: the version 3 body, then the builtins `enable -n`
/// turned off and the functions `export -f` exported.
#[derive(Encode, Decode, Debug, PartialEq)]
struct BodyV4 {
    v3: BodyV3,
    disabled: format::Seq<format::Text>,
    exported_funcs: format::Seq<format::Text>,
}

/// Everything after the header (version 1).
#[derive(Encode, Decode, Debug, PartialEq)]
struct Body {
    state: state::StateM,
    /// `None` exactly when the header says the filesystem was excluded.
    fs: Option<fs::FsM>,
}

fn invalid(what: impl std::fmt::Display) -> Error {
    Error::InvalidInput(format!("invalid snapshot: {what}"))
}

/// The persistent parts of a session as a snapshot holds them, apart from
/// its filesystem: what a full snapshot's body carries, and what a
/// [`delta`] record is the difference of.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Parts {
    pub state: state::StateM,
    pub aliases: Vec<(format::Text, format::Text)>,
    pub dirstack: Vec<format::Text>,
    pub history: Vec<HistoryM>,
    pub disabled: Vec<format::Text>,
    pub exported: Vec<format::Text>,
}

/// A full snapshot, opened and decoded but not yet checked against a session.
pub(crate) struct Full {
    pub flags: u8,
    pub parts: Parts,
    pub fs: Option<fs::FsM>,
}

impl Parts {
    /// The body the current version writes for these parts and `fs`.
    fn into_body(self, fs: Option<fs::FsM>) -> BodyV4 {
        let Parts { state, aliases, dirstack, history, disabled, exported } = self;
        let base = Body { state, fs };
        let extra = Extra { aliases: format::Seq(aliases), dirstack: format::Seq(dirstack) };
        let v3 = BodyV3 { v2: BodyV2 { base, extra }, history: format::Seq(history) };
        BodyV4 { v3, disabled: format::Seq(disabled), exported_funcs: format::Seq(exported) }
    }
}

impl Bash {
    /// The session's persistent parts (functions only `with_funcs`).
    pub(crate) fn capture_parts(&self, with_funcs: bool) -> Parts {
        let aliases = self.aliases().into_iter().map(|(k, v)| (format::Text(k), format::Text(v))).collect();
        let dirstack = self.state.dirstack.iter().map(|d| format::Text(d.clone())).collect();
        let history = match &self.state.history {
            Some(h) => h
                .lock()
                .entries()
                .map(|e| HistoryM { number: e.number, line: format::Text(e.line.clone()), status: e.status })
                .collect(),
            None => Vec::new(),
        };
        let disabled = self.state.disabled.iter().map(|n| format::Text(n.clone())).collect();
        let mut exported: Vec<&String> = if with_funcs {
            self.state.funcs.iter().filter(|(_, f)| f.exported).map(|(n, _)| n).collect()
        } else {
            Vec::new()
        };
        exported.sort();
        let exported = exported.into_iter().map(|n| format::Text(n.clone())).collect();
        Parts { state: state::capture(&self.state, with_funcs), aliases, dirstack, history, disabled, exported }
    }

    /// The session's state (and filesystem, unless excluded) as bytes for
    /// [`restore`](Self::restore). See [`SnapshotOptions`].
    pub fn snapshot(&self, opts: &SnapshotOptions) -> Result<Vec<u8>, Error> {
        let key = opts.key.as_deref();
        format::check_key(key)?;
        let mut flags = 0;
        if opts.exclude_filesystem {
            flags |= FLAG_NO_FS;
        }
        if opts.exclude_functions {
            flags |= FLAG_NO_FUNCS;
        }
        let fs = (!opts.exclude_filesystem).then(|| fs::capture(&self.mem.export()));
        format::seal(flags, &self.capture_parts(!opts.exclude_functions).into_body(fs), key)
    }

    /// Replace this session's state (and filesystem, when the snapshot holds
    /// one) with a snapshot's. `key` must be the snapshot's key, or `None` for
    /// an unkeyed snapshot. Everything is checked first — tag, version,
    /// structure, that functions parse, and sizes against this session's
    /// limits — and on `Err` the session is left exactly as it was.
    ///
    /// The filesystem is replaced in place: the same [`MemoryFs`](crate::fs::MemoryFs)
    /// (and every `Arc` to it) sees the restored contents.
    pub fn restore(&mut self, bytes: &[u8], key: Option<&[u8]>) -> Result<(), Error> {
        self.fits_budget(bytes.len() as u64)?;
        let _scope = crate::limits::scope::enter_account(&self.account);
        let full = open_full(bytes, key)?;
        let tree = match full.fs {
            Some(m) => Some(fs::rebuild(m, self.mem.limits()).map_err(|e| invalid(format!("filesystem: {e}")))?),
            None => None,
        };
        self.install(full.flags, full.parts, tree)
    }

    /// Refuse snapshot bytes larger than the session's whole memory budget:
    /// the restored state is the session's own memory (`max_memory_bytes`).
    pub(crate) fn fits_budget(&self, bytes: u64) -> Result<(), Error> {
        if bytes > self.account.limit() {
            return Err(invalid(format!(
                "the snapshot is larger than this session's memory budget (max_memory_bytes: {})",
                self.account.limit()
            )));
        }
        Ok(())
    }

    /// Check `parts` (and the filesystem `tree`, built from the snapshot and
    /// checked against this session's limits) and only then make them the
    /// session's: on `Err` nothing changed.
    pub(crate) fn install(
        &mut self,
        flags: u8,
        parts: Parts,
        tree: Option<crate::fs::memory::MemoryTree>,
    ) -> Result<(), Error> {
        let Parts { state: body_state, aliases: alias_list, dirstack: dirs, history, disabled, exported } = parts;
        let no_fs = flags & FLAG_NO_FS != 0;
        let no_funcs = flags & FLAG_NO_FUNCS != 0;
        if no_fs != tree.is_none() {
            return Err(invalid("the flags and the body disagree about the filesystem"));
        }
        if no_funcs && !body_state.funcs.0.is_empty() {
            return Err(invalid("functions were excluded but the body holds some"));
        }
        let mut new_state = state::rebuild(body_state, &self.state, &self.limits, no_funcs).map_err(invalid)?;
        let max = self.limits.max_string_bytes as usize;
        let mut aliases = std::collections::BTreeMap::new();
        for (k, v) in alias_list {
            let bad_name = k.0.is_empty() || k.0.contains(['=', '/', '$', '`', '\\', ' ', '\t', '\n', '\0']);
            if bad_name || v.0.len() > max {
                return Err(invalid(format!("alias {:?} is not valid here", k.0)));
            }
            aliases.insert(k.0, v.0);
        }
        let mut dirstack = Vec::new();
        for d in dirs {
            if !d.0.starts_with('/') || d.0.len() > max {
                return Err(invalid("directory stack entries must be absolute paths"));
            }
            dirstack.push(d.0);
        }
        let mut entries = Vec::with_capacity(history.len());
        let mut last = 0;
        for h in history {
            if h.number <= last || h.line.0.len() > max {
                return Err(invalid("history entries must be numbered upwards and fit max_string_bytes"));
            }
            last = h.number;
            entries.push(crate::state::history::Entry { number: h.number, line: h.line.0, status: h.status });
        }
        let mut off = std::collections::BTreeSet::new();
        for n in disabled {
            if !crate::builtins::public_names().contains(&n.0.as_str()) {
                return Err(invalid(format!("{:?} is not a builtin that can be turned off", n.0)));
            }
            off.insert(n.0);
        }
        for n in exported {
            let Some(f) = new_state.funcs.get(&n.0) else {
                return Err(invalid(format!("exported function {:?} is not among the functions", n.0)));
            };
            let f = crate::state::Function { exported: true, ..crate::state::Function::clone(f) };
            std::sync::Arc::make_mut(&mut new_state.funcs).insert(n.0, std::sync::Arc::new(f));
        }
        new_state.aliases = std::sync::Arc::new(aliases);
        new_state.disabled = std::sync::Arc::new(off);
        new_state.dirstack = std::sync::Arc::new(dirstack);
        if let Some(tree) = tree {
            // Checks the tree again under the lock; its last chance to fail, before anything changed.
            self.mem.replace_contents(tree).map_err(|e| invalid(format!("filesystem: {e}")))?;
        }
        self.state = new_state;
        self.aliases.reset(&self.state.aliases);
        if let Some(h) = &self.state.history {
            h.lock().replace(entries);
        }
        Ok(())
    }
}

/// Open a full snapshot of any version this build reads and decode its body.
pub(crate) fn open_full(bytes: &[u8], key: Option<&[u8]>) -> Result<Full, Error> {
    let opened = format::open(bytes, key)?;
    let (body, extra, history, disabled, exported) = match opened.version {
        1 => (
            format::decode::<Body>(opened.body)?,
            Extra { aliases: format::Seq(Vec::new()), dirstack: format::Seq(Vec::new()) },
            Vec::new(),
            Vec::new(),
            Vec::new(),
        ),
        2 => {
            let v2: BodyV2 = format::decode(opened.body)?;
            (v2.base, v2.extra, Vec::new(), Vec::new(), Vec::new())
        }
        3 => {
            let v3: BodyV3 = format::decode(opened.body)?;
            (v3.v2.base, v3.v2.extra, v3.history.0, Vec::new(), Vec::new())
        }
        _ => {
            let v4: BodyV4 = format::decode(opened.body)?;
            (v4.v3.v2.base, v4.v3.v2.extra, v4.v3.history.0, v4.disabled.0, v4.exported_funcs.0)
        }
    };
    let parts =
        Parts { state: body.state, aliases: extra.aliases.0, dirstack: extra.dirstack.0, history, disabled, exported };
    Ok(Full { flags: opened.flags, parts, fs: body.fs })
}

#[cfg(test)]
mod tests {
    //! Bodies that decode but describe an impossible session: sealed with a
    //! valid tag, as a forger could, and refused with the session untouched.
    use super::*;
    use format::{Seq, Text};

    /// What a case expects in the error, and how it spoils the body.
    type Case<T> = (&'static str, Box<dyn Fn(&mut T)>);

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime")
    }

    fn body_of(bash: &Bash) -> Body {
        let bytes = bash.snapshot(&SnapshotOptions::default()).expect("snapshot");
        let opened = format::open(&bytes, None).expect("open");
        format::decode::<BodyV4>(opened.body).expect("decode").v3.v2.base
    }

    /// Seal a body as the current version writes it (the body, then no
    /// extras, no history, no builtins turned off, no exported functions).
    fn seal_v2(flags: u8, body: &Body) -> Vec<u8> {
        let extra = Extra { aliases: Seq(Vec::new()), dirstack: Seq(Vec::new()) };
        let history: Seq<HistoryM> = Seq(Vec::new());
        let none: Seq<Text> = Seq(Vec::new());
        format::seal(flags, &(body, &extra, &history, &none, &none), None).expect("seal")
    }

    /// Restore a doctored body into a fresh session: the error's text, after
    /// checking the session did not change.
    fn refused(body: &Body, flags: u8) -> String {
        let mut b = Bash::builder().build().expect("build");
        let before = b.snapshot(&SnapshotOptions::default()).expect("snapshot");
        let bytes = seal_v2(flags, body);
        let err = b.restore(&bytes, None).expect_err("a doctored body was accepted");
        assert_eq!(b.snapshot(&SnapshotOptions::default()).expect("snapshot"), before);
        err.to_string()
    }

    fn sample() -> Body {
        let rt = rt();
        let mut a = Bash::builder().build().expect("build");
        rt.block_on(a.exec("x=1; f() { echo f; }; trap 'echo t' INT; set -o pipefail")).expect("exec");
        body_of(&a)
    }

    #[test]
    fn the_sample_itself_restores() {
        let bytes = seal_v2(0, &sample());
        Bash::builder().build().expect("build").restore(&bytes, None).expect("restore");
    }

    #[test]
    fn state_that_cannot_be_is_refused() {
        let cases: Vec<Case<Body>> = vec![
            ("does not parse", Box::new(|b| b.state.funcs.0[0].source = "f() { echo".into())),
            ("defines \"g\"", Box::new(|b| b.state.funcs.0[0].source = "g() { :; }".into())),
            ("not one function", Box::new(|b| b.state.funcs.0[0].source = "f() { :; }; echo hi".into())),
            ("not one function", Box::new(|b| b.state.funcs.0[0].source = "echo hi".into())),
            (
                "appears twice",
                Box::new(|b| b.state.funcs.0.push(state::FuncM { name: "f".into(), source: "f() { :; }".into() })),
            ),
            ("cwd", Box::new(|b| b.state.cwd = "/tmp/../x".into())),
            ("cwd", Box::new(|b| b.state.cwd = "tmp".into())),
            ("unknown option", Box::new(|b| b.state.options.0.push("nosuchopt".into()))),
            ("unknown trap", Box::new(|b| b.state.traps.0.push(("SIGINT".into(), Text(String::new()))))),
            ("unknown trap", Box::new(|b| b.state.traps.0.push(("NOPE".into(), Text(String::new()))))),
            ("no variable scope", Box::new(|b| b.state.scopes.0.clear())),
            // Every bit of the attribute byte has a meaning now (0x80: declared,
            // never assigned), so no byte is refused for its attributes.
            ("bad variable name", Box::new(|b| b.state.scopes.0[0].0[0].name = "a=b".into())),
            ("bad variable name", Box::new(|b| b.state.scopes.0[0].0[0].name = "".into())),
            (
                "appears twice",
                Box::new(|b| {
                    let v = state::VarM { name: "x".into(), attrs: 0, value: state::ValueM::Unset };
                    b.state.scopes.0[0].0.push(v);
                }),
            ),
            (
                "repeated index",
                Box::new(|b| {
                    let items = Seq(vec![(1, "a".into()), (1, "b".into())]);
                    b.state.scopes.0[0].0[0].value = state::ValueM::Indexed(items);
                }),
            ),
            (
                "repeated key",
                Box::new(|b| {
                    let items = Seq(vec![("k".into(), "a".into()), ("k".into(), "b".into())]);
                    b.state.scopes.0[0].0[0].value = state::ValueM::Assoc(items);
                }),
            ),
        ];
        for (want, doctor) in cases {
            let mut b = sample();
            doctor(&mut b);
            let e = refused(&b, 0);
            assert!(e.contains(want), "want {want:?}: {e}");
        }
    }

    #[test]
    fn filesystems_that_cannot_be_are_refused() {
        let node = |path: &str, kind: fs::KindM| fs::NodeM {
            path: path.into(),
            kind,
            mode: 0o644,
            mtime_secs: 0,
            mtime_nanos: 0,
        };
        let cases: Vec<Case<fs::FsM>> = vec![
            ("parent", Box::new(move |f| f.nodes.0.push(node("/nope/x", fs::KindM::Dir)))),
            ("parent", Box::new(move |f| f.nodes.0.push(node("/tmp/x/y", fs::KindM::Dir)))),
            ("normalized", Box::new(move |f| f.nodes.0.push(node("/tmp/", fs::KindM::Dir)))),
            ("normalized", Box::new(move |f| f.nodes.0.push(node("tmp2", fs::KindM::Dir)))),
            ("normalized", Box::new(move |f| f.nodes.0.push(node("/tmp/./a", fs::KindM::Dir)))),
            ("appears twice", Box::new(move |f| f.nodes.0.push(node("/tmp", fs::KindM::Dir)))),
            ("/ is not", Box::new(|f| f.nodes.0.retain(|n| n.path.0 != "/"))),
            ("mode", Box::new(|f| f.nodes.0[0].mode = 0o10000)),
            ("mtime", Box::new(|f| f.nodes.0[0].mtime_nanos = 1_000_000_000)),
        ];
        for (want, doctor) in cases {
            let mut b = sample();
            doctor(b.fs.as_mut().expect("fs"));
            let e = refused(&b, 0);
            assert!(e.contains(want), "want {want:?}: {e}");
        }
    }

    #[test]
    fn flags_must_match_the_body() {
        let b = sample();
        assert!(refused(&b, FLAG_NO_FS).contains("disagree"));
        assert!(refused(&b, FLAG_NO_FUNCS).contains("excluded"));
        let mut b = sample();
        b.fs = None;
        assert!(refused(&b, 0).contains("disagree"));
    }

    #[test]
    fn open_scopes_round_trip() {
        let a = Bash::builder().build().expect("build");
        let mut sh = a.state.clone();
        sh.vars.push_scope();
        sh.vars.declare_local("loc").value = Some(crate::state::Value::Scalar("inner".into()));
        let m = state::capture(&sh, true);
        assert_eq!(m.scopes.0.len(), 2);
        let back = state::rebuild(m, &a.state, &a.limits, false).expect("rebuild");
        assert!(back.vars.in_function());
        assert_eq!(back.get_var("loc").as_deref(), Some("inner"));
        assert_eq!(back.get_var("HOME").as_deref(), Some("/home/sandbox"));
    }
}
