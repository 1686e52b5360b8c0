//! The adversarial suite: scripts written to crash (deep native recursion),
//! freeze (work that never looks at the clock) or exhaust (memory) the process,
//! with inputs generated at run time at sizes from 10^3 to 10^6.
//!
//! Every case runs twice: in-process, as a session would in the BEAM (on a
//! thread with a smaller stack than the NIF's runtime gives), and through the
//! `sandbash` CLI. A crash of the first takes this whole test binary down, as
//! it would take down a node; a crash of the CLI is a signal, reported as one.
//! Bounds on time are generous (a debug build on a busy machine); the tight
//! numbers belong to `bench/adversarial.sh`.

#[path = "adversarial/harness.rs"]
mod harness;

#[path = "adversarial/address_limit.rs"]
mod address_limit;
#[path = "adversarial/depth.rs"]
mod depth;
#[path = "adversarial/filesystem.rs"]
mod filesystem;
#[path = "adversarial/memory.rs"]
mod memory;
#[path = "adversarial/patterns.rs"]
mod patterns;
#[cfg(feature = "cpython")]
#[path = "adversarial/python.rs"]
mod python;
#[path = "adversarial/table.rs"]
mod table;
#[path = "adversarial/utilities.rs"]
mod utilities;
#[path = "adversarial/watchdog.rs"]
mod watchdog;
