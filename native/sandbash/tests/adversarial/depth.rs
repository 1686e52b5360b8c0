//! See tests/adversarial.rs.

#[allow(unused_imports)]
use super::harness::*;
