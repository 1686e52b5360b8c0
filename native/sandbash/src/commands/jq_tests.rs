//! Expected bytes below were printed by jq 1.7.1 (built from its release
//! tarball) run in an empty scratch directory.

use crate::commands::testutil::check;

#[test]
fn identity() {
    check(&["jq", "."], &[], "{\"a\":1}", "{\n  \"a\": 1\n}\n", "", 0);
}
