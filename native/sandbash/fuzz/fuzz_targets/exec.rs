//! Parse and run arbitrary input with every limit on: no input may panic,
//! hang past the timeout or grow memory without bound.
//!
//!     cd native/sandbash/fuzz && cargo +nightly fuzz run exec -- -max_total_time=600

#![no_main]

use libfuzzer_sys::fuzz_target;
use sandbash::{Bash, FsLimits, Limits};
use std::sync::OnceLock;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime"))
}

fuzz_target!(|data: &[u8]| {
    let script = String::from_utf8_lossy(data);
    let limits = Limits {
        max_commands: 2_000,
        max_loop_iterations: 500,
        max_total_loop_iterations: 5_000,
        max_function_depth: 20,
        max_input_bytes: 4_096,
        timeout_ms: 200,
        max_output_bytes: 64 * 1024,
        max_string_bytes: 64 * 1024,
        max_subshell_depth: 8,
        max_parser_depth: 50,
        max_brace_items: 1_000,
        max_glob_results: 1_000,
        max_pipeline_stages: 16,
        max_regex_bytes: 256 * 1024,
        max_memory_bytes: 64 * 1024 * 1024,
        ..Limits::default()
    };
    let fs = FsLimits { max_file_bytes: 64 * 1024, max_total_bytes: 256 * 1024, max_files: 200, max_path_depth: 16 };
    let Ok(mut bash) = Bash::builder().limits(limits).fs_limits(fs).file("/w/data.txt", "b\na\nc\n").cwd("/w").build()
    else {
        return;
    };
    let _ = runtime().block_on(bash.exec(&script));
    // The session must stay usable after anything.
    let r = runtime().block_on(bash.exec("echo ok")).expect("session usable");
    assert_eq!(r.stdout, b"ok\n");
});
