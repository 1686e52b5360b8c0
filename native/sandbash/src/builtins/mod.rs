//! Builtins.
