//! Incremental checkpoints (`Bash::checkpoint_full`, `checkpoint_delta`,
//! `restore_chain`): a chain restores exactly the session it was taken from,
//! a delta costs what changed, and a chain that is damaged, reordered, cut,
//! spliced or sealed with another key is refused whole, with the session
//! untouched.

use sandbash::snapshot::delta::Base;
use sandbash::{Bash, Error, SnapshotOptions};
use sha2::{Digest, Sha256};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime")
}

fn run(rt: &tokio::runtime::Runtime, bash: &mut Bash, script: &str) -> String {
    let r = rt.block_on(bash.exec(script)).unwrap_or_else(|e| panic!("{script}: {e}"));
    String::from_utf8_lossy(&r.stdout).into_owned() + &String::from_utf8_lossy(&r.stderr)
}

fn snap(bash: &Bash) -> Vec<u8> {
    bash.snapshot(&SnapshotOptions::default()).expect("snapshot")
}

/// Everything a script can print about the shell state, and the files.
const DUMP: &str = r#"declare -p | grep -v -e BASH_EXECUTION_STRING -e '^declare -[a-zA-Z-]* _=' ; declare -f; alias; set -o; trap -p; umask; pwd; dirs; echo "$#|$*"; history; find / -path /proc -prune -o -print0 | sort -z | xargs -0 ls -ld --time-style=+%s.%N"#;

/// Steps that change every kind of persistent state, one checkpoint after each.
const STEPS: &[&str] = &[
    "x=1; arr=(a b c); declare -A m=([k]=v); f() { echo f; }; mkdir -p /w/d/e; echo one > /w/a",
    "x=2; unset 'arr[1]'; m[k2]=v2; g() { f; }; echo two >> /w/a; ln -s /w/a /w/link; chmod 700 /w/a",
    "unset x; unset -f f; rm -r /w/d; mkdir /w/n; touch -d @1000000000 /w/n; cd /w/n",
    "alias ll='ls -l'; set -o pipefail; trap 'echo t' USR1; pushd /tmp >/dev/null; set -- p1 'p 2'; umask 027",
    "export e=exp; declare -i num=6*7; readonly ro=1; printf '\\000\\377' > /w/bin; mv /w/bin /w/bin2",
    ":",
    "unalias ll; set +o pipefail; trap - USR1; popd >/dev/null; history -c; y=after-clear; umask 0",
    "for i in $(seq 30); do echo $i > /w/f$i; done; rm /w/f3 /w/f7",
];

/// A session started with `start` and taken through `STEPS` with a
/// checkpoint after each: the chain, and the session's snapshot at each record.
struct Chain {
    session: Bash,
    full: Vec<u8>,
    deltas: Vec<Vec<u8>>,
    base: Base,
    states: Vec<Vec<u8>>,
}

fn chain_from(rt: &tokio::runtime::Runtime, start: &str, key: Option<&[u8]>) -> Chain {
    let mut a = Bash::builder().build().expect("build");
    run(rt, &mut a, start);
    let (full, mut base) = a.checkpoint_full(key).expect("full");
    let mut states = vec![snap(&a)];
    let mut deltas = Vec::new();
    for step in STEPS {
        run(rt, &mut a, step);
        let (d, next) = a.checkpoint_delta(&base, key).expect("delta");
        deltas.push(d);
        states.push(snap(&a));
        base = next;
    }
    Chain { session: a, full, deltas, base, states }
}

fn chain(rt: &tokio::runtime::Runtime, key: Option<&[u8]>) -> (Bash, Vec<u8>, Vec<Vec<u8>>, Base) {
    let c = chain_from(rt, "start=1", key);
    (c.session, c.full, c.deltas, c.base)
}

fn refs(d: &[Vec<u8>]) -> Vec<&[u8]> {
    d.iter().map(|x| x.as_slice()).collect()
}

fn invalid(e: Error) -> String {
    match e {
        Error::InvalidInput(m) => m,
        other => panic!("expected InvalidInput, got {other:?}"),
    }
}

#[test]
fn a_chain_restores_the_session_it_was_taken_from() {
    let rt = rt();
    let mut c = chain_from(&rt, "start=1", None);
    // Every prefix of the chain is the session as it was after that step.
    for n in 0..=c.deltas.len() {
        let mut b = Bash::builder().build().expect("build");
        b.restore_chain(&c.full, &refs(&c.deltas[..n]), None).expect("restore");
        assert_eq!(snap(&b), c.states[n], "after {n} deltas");
    }
    let mut b = Bash::builder().build().expect("build");
    b.restore_chain(&c.full, &refs(&c.deltas), None).expect("restore");
    assert_eq!(run(&rt, &mut b, DUMP), run(&rt, &mut c.session, DUMP));
}

#[test]
fn a_restored_chain_goes_on_with_deltas() {
    let rt = rt();
    let (_, full, mut deltas, _) = chain(&rt, Some(b"k"));
    let mut b = Bash::builder().build().expect("build");
    let base = b.restore_chain(&full, &refs(&deltas), Some(b"k")).expect("restore");
    run(&rt, &mut b, "z=3; echo more > /w/more");
    let (d, _) = b.checkpoint_delta(&base, Some(b"k")).expect("delta");
    deltas.push(d);
    let mut c = Bash::builder().build().expect("build");
    c.restore_chain(&full, &refs(&deltas), Some(b"k")).expect("restore");
    assert_eq!(snap(&c), snap(&b));
    assert_eq!(run(&rt, &mut c, "echo $z $y; cat /w/more"), "3 after-clear\nmore\n");
}

#[test]
fn a_delta_costs_what_changed_not_the_session() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    // About 4 MB in 16 files, and a big variable.
    run(&rt, &mut a, "mkdir /big; for i in $(seq 16); do head -c 262144 /dev/urandom > /big/f$i; done; v=$(seq 20000)");
    let (full, base) = a.checkpoint_full(None).expect("full");
    assert!(full.len() > 4_000_000, "{}", full.len());
    run(&rt, &mut a, "x=1; echo small > /big/new; rm /big/f2");
    let (d, _) = a.checkpoint_delta(&base, None).expect("delta");
    assert!(d.len() < 4_000, "a delta of one variable and one small file is {} bytes", d.len());
    // Rewriting a file with the bytes it had is no change either.
    let (d2, _) = a.checkpoint_delta(&base, None).expect("delta");
    assert_eq!(d.len(), d2.len());
    let mut b = Bash::builder().build().expect("build");
    b.restore_chain(&full, &[&d], None).expect("restore");
    assert_eq!(snap(&b), snap(&a));
}

#[test]
fn damaged_reordered_cut_or_spliced_chains_are_refused_and_change_nothing() {
    let rt = rt();
    let (_, full, deltas, _) = chain(&rt, None);
    let other = chain_from(&rt, "start=2", None);
    let (other_full, other_deltas) = (other.full, other.deltas);
    let mut b = Bash::builder().build().expect("build");
    run(&rt, &mut b, "mine=1; echo mine > /mine");
    let before = snap(&b);
    let all = refs(&deltas);

    // A delta missing, two swapped, one repeated, one from another chain.
    let mut missing = all.clone();
    missing.remove(2);
    let mut swapped = all.clone();
    swapped.swap(1, 2);
    let mut repeated = all.clone();
    repeated.insert(1, all[0]);
    let mut spliced = all.clone();
    spliced[3] = &other_deltas[3];
    for (what, chain) in [("missing", missing), ("swapped", swapped), ("repeated", repeated), ("spliced", spliced)] {
        let e = invalid(b.restore_chain(&full, &chain, None).expect_err(what));
        assert!(e.contains("does not follow"), "{what}: {e}");
    }
    // The deltas of one chain on the full snapshot of another.
    assert!(invalid(b.restore_chain(&other_full, &all, None).unwrap_err()).contains("does not follow"));
    // A delta where a snapshot belongs, and the other way round.
    assert!(b.restore_chain(&deltas[0], &[], None).is_err());
    assert!(b.restore(&deltas[0], None).is_err());
    assert!(b.restore_chain(&full, &[&full], None).is_err());
    // Every truncation and byte flip of one delta (sealed with SHA-256).
    let d = &deltas[1];
    for len in 0..d.len() {
        let mut c = all.clone();
        c[1] = &d[..len];
        assert!(b.restore_chain(&full, &c, None).is_err(), "a prefix of {len} bytes was accepted");
    }
    for i in 0..d.len() {
        let mut bad = d.clone();
        bad[i] ^= 0x20;
        let mut c = all.clone();
        c[1] = &bad;
        assert!(b.restore_chain(&full, &c, None).is_err(), "a flip at {i} was accepted");
    }
    assert_eq!(snap(&b), before, "a refused chain changed the session");
    assert_eq!(run(&rt, &mut b, "echo $mine; cat /mine"), "1\nmine\n");
}

#[test]
fn keys_must_match_along_the_chain() {
    let rt = rt();
    let (a, full, deltas, base) = chain(&rt, Some(b"key"));
    let mut b = Bash::builder().build().expect("build");
    assert!(b.restore_chain(&full, &refs(&deltas), Some(b"other")).is_err());
    assert!(b.restore_chain(&full, &refs(&deltas), None).is_err());
    // A delta of a keyed chain must be keyed, and with a key.
    assert!(a.checkpoint_delta(&base, None).is_err());
    assert!(a.checkpoint_delta(&base, Some(b"")).is_err());
    // An unkeyed delta re-tagged after a change passes its checksum but not
    // the keyed chain it claims to extend.
    let (_, plain_full, plain, _) = chain(&rt, None);
    let mut forged = plain[0].clone();
    let n = forged.len() - 32;
    forged[10] ^= 1;
    let tag: [u8; 32] = Sha256::digest(&forged[..n]).into();
    forged[n..].copy_from_slice(&tag);
    assert!(b.restore_chain(&plain_full, &[&forged], None).is_err());
    b.restore_chain(&full, &refs(&deltas), Some(b"key")).expect("the right key");
}

#[test]
fn a_chain_past_the_targets_limits_is_refused() {
    let rt = rt();
    let (_, full, deltas, _) = chain(&rt, None);
    let mut small = Bash::builder()
        .fs_limits(sandbash::fs::memory::FsLimits { max_files: 20, ..Default::default() })
        .build()
        .expect("build");
    let e = invalid(small.restore_chain(&full, &refs(&deltas), None).unwrap_err());
    assert!(e.contains("max_files"), "{e}");
}
