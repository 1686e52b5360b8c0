//! The call stack as bash shows it (`FUNCNAME`, `BASH_LINENO`, `caller`,
//! `BASH_ARGV`/`BASH_ARGC`) and the command the traps see (`BASH_COMMAND`).
//!
//! A frame is pushed by each function call and by each `source`/`.` (bash
//! names those frames `source`). `FUNCNAME` is only visible inside a function;
//! a script file (`bash file`) has a bottom frame `main` called from line 0.

use super::{ShellState, Value};

#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// `FUNCNAME` of each frame (a function's name or `source`), innermost
    /// last; parallel to [`ShellState::call_lines`].
    pub names: Vec<String>,
    /// `BASH_ARGV`/`BASH_ARGC` frames, innermost last: `None` for a frame that
    /// pushed no arguments (a function called without `extdebug`).
    pub args: Vec<Option<Vec<String>>>,
    /// `extdebug` has been on: function frames count in `BASH_ARGV` since.
    pub args_init: bool,
    /// Depth of trap actions running: `BASH_COMMAND` keeps the trapped command.
    pub in_trap: u32,
    /// `BASH_COMMAND` as bash prints it, computed while traps are set.
    pub command: Option<String>,
    /// The running simple command's span in the current source (for
    /// `BASH_COMMAND` when no trap is set).
    pub span: (usize, usize),
    /// While the EXIT trap runs: the status the shell exits with, which a
    /// fatal expansion error inside the trap leaves as it is.
    pub exit_status: Option<i32>,
}

impl ShellState {
    /// Push a call frame (`name` called from the current line).
    pub fn push_frame(&mut self, name: &str) {
        self.call_lines.push(self.line);
        self.trace.names.push(name.to_string());
        self.sync_call_vars();
    }

    /// Pop the innermost frame; the line it was called from.
    pub fn pop_frame(&mut self) -> Option<usize> {
        let line = self.call_lines.pop();
        self.trace.names.pop();
        self.sync_call_vars();
        line
    }

    /// Frames as `caller` sees them, innermost first: (FUNCNAME, BASH_LINENO).
    pub fn frames(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> =
            self.trace.names.iter().rev().cloned().zip(self.call_lines.iter().rev().copied()).collect();
        if self.script_file {
            out.push(("main".into(), 0));
        }
        out
    }

    /// Set `FUNCNAME` and `BASH_LINENO` from the frames.
    pub fn sync_call_vars(&mut self) {
        let main = self.script_file.then_some(("main", 0));
        let frames = || {
            let names = self.trace.names.iter().rev().map(String::as_str);
            names.zip(self.call_lines.iter().rev().copied()).chain(main).enumerate()
        };
        let names = frames().map(|(i, (n, _))| (i as i64, n.to_string())).collect();
        let lines = frames().map(|(i, (_, l))| (i as i64, l.to_string())).collect();
        if self.func_depth > 0 {
            let _ = self.vars.set_value("FUNCNAME", Value::Indexed(names));
        } else {
            // Outside functions bash shows it as a declared, unassigned array.
            let v = self.vars.entry_raw("FUNCNAME");
            v.value = Some(Value::Indexed(Default::default()));
            v.unassigned = true;
        }
        let _ = self.vars.set_value("BASH_LINENO", Value::Indexed(lines));
        self.sync_args();
    }

    /// Set `BASH_ARGV` (every frame's arguments, last first) and `BASH_ARGC`.
    pub fn sync_args(&mut self) {
        let mut argv = Vec::new();
        let mut argc = Vec::new();
        // Before `extdebug` was ever on, a function frame shows them empty.
        let hidden =
            !self.trace.args_init && self.func_depth > 0 && self.trace.args.last().is_some_and(Option::is_none);
        if !hidden {
            for frame in self.trace.args.iter().rev().flatten() {
                argc.push(frame.len().to_string());
                argv.extend(frame.iter().rev().cloned());
            }
        }
        let idx = |v: Vec<String>| Value::Indexed(v.into_iter().enumerate().map(|(i, s)| (i as i64, s)).collect());
        for (name, value) in [("BASH_ARGV", idx(argv)), ("BASH_ARGC", idx(argc))] {
            // Most calls leave them as they were (empty without `extdebug`):
            // no write then.
            if self.vars.get_raw(name).is_some_and(|v| v.value.as_ref() == Some(&value) && !v.unassigned) {
                continue;
            }
            let _ = self.vars.set_value(name, value);
        }
    }

    /// The shell's own arguments are the bottom `BASH_ARGV` frame.
    pub fn init_args(&mut self) {
        self.trace.args = vec![Some(self.positional.to_vec())];
        self.sync_args();
        if self.vars.get_raw("_").is_none() {
            // `$_` starts as the shell's name (bash's argv[0] without `_` in its environment).
            let _ = self.vars.set_scalar("_", self.arg0.clone());
        }
        if self.vars.get_raw("COMP_WORDBREAKS").is_none() {
            let _ = self.vars.set_scalar("COMP_WORDBREAKS", " \t\n\"'@><=;|&(:".to_string());
        }
        // The call stack's other arrays start set and empty.
        for name in ["BASH_LINENO", "BASH_SOURCE"] {
            if self.vars.get_raw(name).is_none() {
                let _ = self.vars.set_value(name, Value::Indexed(Default::default()));
            }
        }
        if self.func_depth == 0 && self.vars.get_raw("FUNCNAME").is_none() {
            // Declared from the start (`declare -p FUNCNAME` shows `declare -a FUNCNAME`).
            let v = self.vars.entry_raw("FUNCNAME");
            v.value = Some(Value::Indexed(Default::default()));
            v.unassigned = true;
        }
    }

    /// `BASH_COMMAND`: the command running (or, in a trap, the one trapped).
    pub fn bash_command(&self) -> String {
        if let Some(c) = &self.trace.command {
            return c.clone();
        }
        let (a, b) = self.trace.span;
        self.src.slice(a, b).map(|s| s.trim_end().to_string()).unwrap_or_default()
    }
}
