//! Patterns.
