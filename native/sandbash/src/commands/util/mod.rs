//! Helpers shared by the utilities, by concern: `operands` (paths, messages, reading
//! operands and lines), `args` (GNU option parsing), `quote` (names in messages),
//! `units` (sizes, durations), `tabs`, `version`, `strftime`, `lines`, the file
//! helpers, the POSIX regex engine and the compiled-regex cache. The common ones are re-exported here.

pub(crate) mod args;
pub(crate) mod bignum;
pub(crate) mod error;
pub(crate) mod file_mode;
pub(crate) mod file_time;
pub(crate) mod file_util;
pub(crate) mod help;
pub(crate) mod ldouble;
pub(crate) mod lines;
pub(crate) mod net;
pub(crate) mod operands;
pub(crate) mod pad;
pub(crate) mod posix_regex;
pub(crate) mod quote;
pub(crate) mod regex_cache;
pub(crate) mod regex_translate;
pub(crate) mod strftime;
pub(crate) mod tabs;
#[cfg(test)]
pub(crate) mod testutil;
pub(crate) mod units;
pub(crate) mod version;

pub use args::*;
pub use error::{UError, UResult, Utility};
pub use operands::*;
pub use quote::*;
pub use regex_translate::regex_escape;
pub use tabs::*;
pub use units::*;
pub use version::*;
