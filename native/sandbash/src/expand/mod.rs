//! Expansion.
