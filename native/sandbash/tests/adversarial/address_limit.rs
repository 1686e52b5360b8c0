//! See tests/adversarial.rs. The CLI under an address-space limit (as a
//! container's memory limit imposes): memory bombs, parse bombs and sizes a
//! script chooses end as an error of the exec, never as an allocation failure
//! that aborts the process (SIGABRT) or a crash (SIGSEGV).

const BUDGET: u64 = 64 << 20;

/// Scripts that each ask for far more than the budget, in different ways.
const BOMBS: &[&str] = &[
    "s=a; for i in {1..22}; do s=\"$s;$s\"; done; eval \"$s\"",
    "s=a; for i in {1..22}; do s=\"$s;$s\"; done; bash -c \"$s\"",
    "s='{ :;'; for i in {1..20}; do s=\"$s$s\"; done; eval \"$s }\"",
    "x=aaaaaaaa; while :; do x=$x$x; done",
    "a=(x); while :; do a+=(\"${a[@]}\"); done",
    "printf '%9223372036854775807d' 1",
    "seq -f '%9223372036854775807g' 1",
    "head -c 9223372036854775807 /dev/zero > /f",
    "dd if=/dev/zero of=/f bs=1G count=100",
    "shuf -i 1-4000000000 > /f",
    "yes | sort",
    "expand -t 1,9223372036854775807 <<< $'a\\tb' > /f",
    "awk 'BEGIN { while (1) s = s s \"xxxxxxxx\" }'",
    "printf '%s' {1..100000} | tr -d '\\n' > /f; x=$(cat /f /f /f /f /f /f /f /f); y=$x$x$x$x",
];

#[test]
fn no_bomb_aborts_the_cli_under_an_address_space_limit() {
    // The runtime's threads and the allocator's first arena need their room;
    // the bombs ask for far more than that and the budget together.
    let limit_kb = (BUDGET * 2 + (768 << 20)) / 1024;
    for bomb in BOMBS {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("ulimit -v {limit_kb}; exec \"$0\" -c \"$1\""))
            .arg(env!("CARGO_BIN_EXE_sandbash"))
            .arg(bomb)
            .env("SANDBASH_MAX_MEMORY_BYTES", BUDGET.to_string())
            .env("SANDBASH_TIMEOUT_MS", "20000")
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code().is_some(),
            "{bomb}: killed by a signal under ulimit -v {limit_kb}: {}",
            &err[..err.len().min(500)]
        );
        assert!(!err.contains("memory allocation of"), "{bomb}: {err:.500}");
    }
}
