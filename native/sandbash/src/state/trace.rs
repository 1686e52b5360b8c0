//! The call stack as bash shows it (`FUNCNAME`, `BASH_LINENO`, `caller`,
//! `BASH_ARGV`/`BASH_ARGC`) and the command the traps see (`BASH_COMMAND`).
//!
//! A frame is pushed by each function call and by each `source`/`.` (bash
//! names those frames `source`). `FUNCNAME` is only visible inside a function;
//! a script file (`bash file`) has a bottom frame `main` called from line 0.

use super::call_stack::CallStack;
use super::ShellState;

#[derive(Clone, Debug, Default)]
pub struct Trace {
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
    /// The call stack's frames, to change (the frames live with the
    /// variables, which compute `FUNCNAME` and the rest from them on read).
    pub fn call_stack(&mut self) -> &mut CallStack {
        let in_function = self.func_depth > 0;
        let main = self.script_file;
        let stack = self.vars.call_stack_mut();
        stack.in_function = in_function;
        stack.main = main;
        stack
    }

    /// Push a call frame (`name` called from the current line).
    pub fn push_frame(&mut self, name: &str) {
        let line = self.line;
        let stack = self.call_stack();
        stack.lines.push(line);
        stack.names.push(name.into());
    }

    /// Pop the innermost frame; the line it was called from.
    pub fn pop_frame(&mut self) -> Option<usize> {
        let stack = self.call_stack();
        stack.names.pop();
        stack.lines.pop()
    }

    /// Frames as `caller` sees them, innermost first: (FUNCNAME, BASH_LINENO).
    pub fn frames(&self) -> Vec<(String, usize)> {
        let stack = self.vars.call_stack();
        let mut out: Vec<(String, usize)> =
            stack.names.iter().rev().map(|n| n.to_string()).zip(stack.lines.iter().rev().copied()).collect();
        if self.script_file {
            out.push(("main".into(), 0));
        }
        out
    }

    /// The shell's own arguments are the bottom `BASH_ARGV` frame.
    pub fn init_args(&mut self) {
        let args = self.positional.clone();
        self.call_stack().args = vec![Some(args)];
        if self.vars.get_raw("_").is_none() {
            // `$_` starts as the shell's name (bash's argv[0] without `_` in its environment).
            let _ = self.vars.set_scalar("_", self.arg0.clone());
        }
        if self.vars.get_raw("COMP_WORDBREAKS").is_none() {
            let _ = self.vars.set_scalar("COMP_WORDBREAKS", " \t\n\"'@><=;|&(:".to_string());
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
