//! Snapshot and restore of a session: what comes back, what is kept out, how
//! keys are handled, and that damaged or hostile bytes are refused without a
//! panic and without touching the session.

use sandbash::fs::memory::{FsLimits, Kind, MemoryTree};
use sandbash::fs::Fs;
use sandbash::{Bash, Error, Limits, SnapshotOptions};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime")
}

/// Run a script and return its stdout, which must be printed with status `code`.
fn run(rt: &tokio::runtime::Runtime, bash: &mut Bash, script: &str) -> String {
    let r = rt.block_on(bash.exec(script)).unwrap_or_else(|e| panic!("{script}: {e}"));
    String::from_utf8_lossy(&r.stdout).into_owned() + &String::from_utf8_lossy(&r.stderr)
}

fn unkeyed() -> SnapshotOptions {
    SnapshotOptions::default()
}

fn snap(bash: &Bash) -> Vec<u8> {
    bash.snapshot(&unkeyed()).expect("snapshot")
}

/// Everything about the shell state a script can print.
const DUMP: &str = r#"declare -p; declare -f; set -o; shopt -p nullglob dotglob failglob nocaseglob extglob globstar; trap -p; pwd; echo "$0|$#|$*""#;

/// Every node of a filesystem, comparable.
fn tree(t: &MemoryTree) -> Vec<(String, String, u32, std::time::SystemTime)> {
    t.nodes
        .iter()
        .map(|(p, n)| {
            let k = match &n.kind {
                Kind::File(d) => format!("file {:?}", d.as_slice()),
                Kind::Dir => "dir".to_string(),
                Kind::Symlink(t) => format!("link {t}"),
            };
            (p.clone(), k, n.mode, n.mtime)
        })
        .collect()
}

fn invalid_input(e: Error) -> String {
    match e {
        Error::InvalidInput(m) => m,
        other => panic!("expected InvalidInput, got {other:?}"),
    }
}

/// A session with one of everything.
fn rich_session(rt: &tokio::runtime::Runtime) -> Bash {
    let mut a = Bash::builder().args("myscript", vec!["p1".into()]).build().expect("build");
    run(
        rt,
        &mut a,
        r#"
        s=plain; export e=exp; readonly r=ro; declare -i n=6*7; declare -l lo=ABC; declare -u up=abc
        declare -rx both=1; declare declared_only
        arr=(a "b c" "" d); arr[10]=ten; declare -A m=([k1]=v1 ["k 2"]="v 2" [ü]=$'\t')
        f() { echo "f:$1:$s"; }
        function g { f "$@" | tr a-z A-Z; }
        h() ( echo sub )
        k() { echo to-file; } > /tmp/kout
        shopt -s nullglob extglob
        trap 'echo bye' EXIT
        trap 'echo int' INT
        mkdir -p /data/sub/deep
        printf '\000\377\001bin\n' > /data/bin
        chmod 750 /data/bin
        touch -d @1234567890 /data/bin
        ln -s /data/bin /data/link
        ln -s ../missing /data/sub/dangling
        cd /data; cd /data/sub
        set -- one "two words" three
        trap - EXIT
        "#,
    );
    run(rt, &mut a, "set -o pipefail; set -u");
    a
}

#[test]
fn everything_round_trips() {
    let rt = rt();
    let mut a = rich_session(&rt);
    let bytes = snap(&a);
    let mut b = Bash::builder().username("other").hostname("elsewhere").build().expect("build");
    b.restore(&bytes, None).expect("restore");

    // The state as scripts see it, and the filesystem node by node.
    assert_eq!(run(&rt, &mut b, DUMP), run(&rt, &mut a, DUMP));
    assert_eq!(tree(&b.memory_fs().export()), tree(&a.memory_fs().export()));
    // Restoring again gives the same bytes: nothing was lost or reordered.
    assert_eq!(snap(&b), snap(&a));

    let out = run(
        &rt,
        &mut b,
        r#"echo "$s|$e|$r|$n|$lo|$up|$both|${declared_only-unset}"
        n=2+3; lo=XyZ; up=aBc; echo "$n $lo $up"
        echo "${#arr[@]} ${arr[10]} [${arr[1]}] [${arr[2]}] ${!arr[*]}"
        echo "${m[k 2]}|${m[k1]}|${#m[@]}"
        printenv e both; printenv s || echo s-not-exported
        f x; g ab; h; k; cat /tmp/kout
        pwd; echo "$OLDPWD"; echo "$0|$#|$2"
        echo "$-"; false | true; echo "pipefail:$?"
        trap -p
        (r=2) 2>&1; echo nullglob /nomatch* end
        cat /data/link | wc -c; readlink /data/sub/dangling; stat -c '%a %Y' /data/bin
        whoami; hostname"#,
    );
    assert_eq!(
        out,
        "plain|exp|ro|42|abc|ABC|1|unset\n\
         5 xyz ABC\n\
         5 ten [b c] [] 0 1 2 3 10\n\
         v 2|v1|3\n\
         exp\n1\ns-not-exported\n\
         f:x:plain\nF:AB:PLAIN\nsub\nto-file\n\
         /data/sub\n/data\nmyscript|3|two words\n\
         huBc\npipefail:1\n\
         trap -- 'echo int' SIGINT\n\
         myscript: line 10: r: readonly variable\nnullglob end\n\
         7\n../missing\n750 1234567890\n\
         other\nelsewhere\n"
    );
}

#[test]
fn errexit_traps_and_last_status_round_trip() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    // (An EXIT trap runs and ends with the exec that set it, as with `bash -c`; ERR persists.)
    run(&rt, &mut a, "trap 'echo err' ERR; set -e");
    // A failure before `&&` does not stop a `set -e` shell, and is the status.
    assert_eq!(rt.block_on(a.exec("(exit 7) && true")).expect("exec").exit_code, 7);
    let mut b = Bash::builder().build().expect("build");
    b.restore(&snap(&a), None).expect("restore");
    let r = rt.block_on(b.exec("echo $?; false; echo not-reached")).expect("exec");
    assert_eq!((String::from_utf8_lossy(&r.stdout).as_ref(), r.exit_code), ("7\nerr\n", 1));
}

#[test]
fn the_file_creation_mask_round_trips() {
    // As bash with GNU coreutils, uid 1000: `umask 027; touch f; mkdir d` makes 640 and 750.
    let rt = rt();
    let made = "cd /tmp && rm -rf m && mkdir m && cd m && touch f && mkdir d && stat -c '%a %n' f d; umask";
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "umask 027");
    for restored_into in [Bash::builder().build(), Bash::builder().build()] {
        let mut b = restored_into.expect("build");
        // The second target had a mask of its own, which the snapshot replaces.
        run(&rt, &mut b, "umask 077");
        b.restore(&snap(&a), None).expect("restore");
        assert_eq!(run(&rt, &mut b, made), "640 f\n750 d\n0027\n");
    }
    // Back to the default: the snapshot says nothing of it, and the view is gone.
    run(&rt, &mut a, "umask 022");
    let mut c = Bash::builder().build().expect("build");
    run(&rt, &mut c, "umask 077");
    c.restore(&snap(&a), None).expect("restore");
    assert_eq!(run(&rt, &mut c, made), "644 f\n755 d\n0022\n");
}

#[test]
fn a_bad_mask_in_a_snapshot_is_refused() {
    // A forger's `umask=` entry among the options: refused, the session as it was.
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "umask 027");
    let bytes = snap(&a);
    let at = bytes.windows(10).position(|w| w == b"umask=0027").expect("the mask is stored");
    for bad in [&b"umask=0999"[..], b"umask=1777", b"umask=zzzz"] {
        let mut forged = bytes.clone();
        forged[at..at + 10].copy_from_slice(bad);
        // Sealed again as an unkeyed snapshot is (SHA-256 of what precedes the tag).
        let body_end = forged.len() - 32;
        let tag = Sha256::digest(&forged[..body_end]);
        forged[body_end..].copy_from_slice(&tag);
        let mut b = Bash::builder().build().expect("build");
        let err = invalid_input(b.restore(&forged, None).expect_err("a bad mask was accepted"));
        assert!(err.contains("umask"), "{err}");
        assert_eq!(run(&rt, &mut b, "umask"), "0022\n");
    }
}

#[test]
fn the_filesystem_is_replaced_in_place() {
    let rt = rt();
    let a = rich_session(&rt);
    let mut b = Bash::builder().build().expect("build");
    run(&rt, &mut b, "echo mine > /mine");
    let held = b.memory_fs().clone();
    b.restore(&snap(&a), None).expect("restore");
    assert!(Arc::ptr_eq(&held, b.memory_fs()));
    let fs = held.clone();
    assert!(rt.block_on(async move { fs.read("/mine").await }).is_err());
    assert_eq!(rt.block_on(async move { held.read("/data/link").await }).expect("read"), b"\0\xff\x01bin\n");
    assert_eq!(b.memory_fs().total_bytes(), a.memory_fs().total_bytes());
}

#[test]
fn exclude_filesystem_keeps_the_targets_files() {
    let rt = rt();
    let a = rich_session(&rt);
    let opts = SnapshotOptions { exclude_filesystem: true, ..unkeyed() };
    let bytes = a.snapshot(&opts).expect("snapshot");
    assert!(bytes.len() < snap(&a).len());
    let mut b = Bash::builder().build().expect("build");
    run(&rt, &mut b, "mkdir /data; echo mine > /mine");
    b.restore(&bytes, None).expect("restore");
    assert_eq!(run(&rt, &mut b, "cat /mine; ls /data; echo $s; f z"), "mine\nplain\nf:z:plain\n");
}

#[test]
fn exclude_functions_keeps_the_targets_functions() {
    let rt = rt();
    let a = rich_session(&rt);
    let bytes = a.snapshot(&SnapshotOptions { exclude_functions: true, ..unkeyed() }).expect("snapshot");
    let mut b = Bash::builder().build().expect("build");
    run(&rt, &mut b, "mine() { echo mine; }");
    b.restore(&bytes, None).expect("restore");
    assert_eq!(
        run(&rt, &mut b, "declare -F; mine; echo $s; cat /data/link | wc -c"),
        "declare -f mine\nmine\nplain\n7\n"
    );
}

#[test]
fn keyed_snapshots() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "x=secret");
    let keyed = a.snapshot(&SnapshotOptions { key: Some(b"k1".to_vec()), ..unkeyed() }).expect("snapshot");
    let plain = snap(&a);
    let mut b = Bash::builder().build().expect("build");
    let before = snap(&b);

    let wrong = invalid_input(b.restore(&keyed, Some(b"k2")).unwrap_err());
    assert!(wrong.contains("tag mismatch"), "{wrong}");
    assert_eq!(invalid_input(b.restore(&keyed, None).unwrap_err()), "snapshot is keyed: a key is required");
    let e = invalid_input(b.restore(&plain, Some(b"k1")).unwrap_err());
    assert!(e.contains("not keyed"), "{e}");
    let empty = Error::InvalidInput("snapshot key must not be empty".into());
    assert_eq!(b.restore(&keyed, Some(b"")), Err(empty.clone()));
    assert_eq!(a.snapshot(&SnapshotOptions { key: Some(Vec::new()), ..unkeyed() }), Err(empty));
    assert_eq!(snap(&b), before);

    b.restore(&keyed, Some(b"k1")).expect("restore");
    assert_eq!(run(&rt, &mut b, "echo $x"), "secret\n");
    // The key is not printed with the options.
    let shown = format!("{:?}", SnapshotOptions { key: Some(b"hunter2".to_vec()), ..unkeyed() });
    assert!(!shown.contains("hunter2") && !shown.contains("104"), "{shown}");
}

/// A small snapshot and a target session holding different state.
fn small_pair(rt: &tokio::runtime::Runtime, key: Option<&[u8]>) -> (Vec<u8>, Bash) {
    let mut a = Bash::builder().build().expect("build");
    run(rt, &mut a, "x=1; a=(p q); f() { echo f; }; echo data > /tmp/f");
    let opts = SnapshotOptions { key: key.map(<[u8]>::to_vec), ..unkeyed() };
    let bytes = a.snapshot(&opts).expect("snapshot");
    let mut b = Bash::builder().build().expect("build");
    run(rt, &mut b, "y=2; g() { echo g; }; echo other > /tmp/g");
    (bytes, b)
}

#[test]
fn every_truncation_and_byte_flip_is_refused_and_changes_nothing() {
    let rt = rt();
    for key in [None, Some(&b"key"[..])] {
        let (bytes, mut b) = small_pair(&rt, key);
        let before = snap(&b);
        for len in 0..bytes.len() {
            assert!(b.restore(&bytes[..len], key).is_err(), "prefix of {len} bytes was accepted");
        }
        for i in 0..bytes.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[i] ^= mask;
                assert!(b.restore(&bad, key).is_err(), "flip {mask:#x} at {i} was accepted");
            }
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(b.restore(&longer, key).is_err());
        assert_eq!(snap(&b), before, "a refused restore changed the session");
        assert_eq!(run(&rt, &mut b, "echo $y; g; cat /tmp/g"), "2\ng\nother\n");
        b.restore(&bytes, key).expect("the intact snapshot");
        assert_eq!(run(&rt, &mut b, "echo $x ${a[1]} ${y-none}; f; cat /tmp/f"), "1 q none\nf\ndata\n");
    }
}

/// Re-seal a changed unkeyed snapshot with a matching SHA-256, as a forger would.
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 32;
    let tag: [u8; 32] = Sha256::digest(&bytes[..n]).into();
    bytes[n..].copy_from_slice(&tag);
    bytes
}

#[test]
fn forged_bodies_with_a_valid_checksum_never_panic() {
    let rt = rt();
    let (bytes, mut b) = small_pair(&rt, None);
    let body = 7..bytes.len() - 32;
    for i in body.clone() {
        for v in [0x00u8, 0x01, 0x7f, 0x80, 0xfb, 0xfc, 0xfd, 0xff] {
            let mut bad = bytes.clone();
            bad[i] = v;
            let before = snap(&b);
            // It may even be a valid snapshot; it must never panic, and a refused one changes nothing.
            if b.restore(&reseal(bad), None).is_err() {
                assert_eq!(snap(&b), before);
            }
        }
    }
    // Cut anywhere in the body and re-sealed.
    for cut in body {
        let mut bad = bytes[..cut].to_vec();
        bad.extend_from_slice(&[0; 32]);
        assert!(b.restore(&reseal(bad), None).is_err());
    }
    // The session still runs.
    assert!(run(&rt, &mut b, "echo ok").ends_with("ok\n"));
}

#[test]
fn builtins_turned_off_round_trip() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "enable -n echo printf");
    let bytes = snap(&a);
    let mut b = Bash::builder().build().expect("build");
    b.restore(&bytes, None).expect("restore");
    assert_eq!(run(&rt, &mut b, "enable -n; type -t echo"), "enable -n echo\nenable -n printf\nfile\n");
}

#[test]
fn exported_functions_round_trip() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "f() { echo in-child; }; g() { :; }; export -f f");
    let mut b = Bash::builder().build().expect("build");
    b.restore(&snap(&a), None).expect("restore");
    assert_eq!(run(&rt, &mut b, "declare -F; bash -c f"), "declare -fx f\ndeclare -f g\nin-child\n");
}

#[test]
fn a_version_3_snapshot_still_restores() {
    // Version 3 ends after the history; version 4 adds the builtins turned
    // off and the exported functions. A version 3 body is the version 4 body
    // without these two fields (here empty: a length byte of 0 each).
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "x=kept");
    let v4 = snap(&a);
    let n = v4.len() - 32;
    assert_eq!(v4[n - 2..n], [0, 0], "empty lists of builtins turned off and exported functions end the body");
    let mut v3 = v4[..n - 2].to_vec();
    v3[4..6].copy_from_slice(&3u16.to_le_bytes());
    v3.extend_from_slice(&[0; 32]);
    let mut b = Bash::builder().build().expect("build");
    run(&rt, &mut b, "enable -n echo");
    b.restore(&reseal(v3), None).expect("restore version 3");
    assert_eq!(run(&rt, &mut b, "echo $x; enable -n"), "kept\n");
}

#[test]
fn a_newer_version_is_refused_clearly() {
    let rt = rt();
    let (bytes, mut b) = small_pair(&rt, None);
    let mut v5 = bytes.clone();
    v5[4..6].copy_from_slice(&5u16.to_le_bytes());
    let msg = "snapshot version 5 is not supported (this build reads version 4)";
    assert_eq!(invalid_input(b.restore(&reseal(v5.clone()), None).unwrap_err()), msg);
    assert_eq!(invalid_input(b.restore(&v5, None).unwrap_err()), msg);
    let e = invalid_input(b.restore(b"not a snapshot at all, just text that is long enough", None).unwrap_err());
    assert!(e.contains("magic"), "{e}");
}

#[test]
fn files_past_the_targets_fs_limits_are_refused() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "mkdir -p /a/b/c/d/e; printf %0100d 0 > /a/big; for i in 1 2 3 4 5 6; do : > /a/f$i; done");
    let bytes = snap(&a);
    let tight = [
        (FsLimits { max_file_bytes: 99, ..FsLimits::default() }, "max_file_bytes"),
        (FsLimits { max_total_bytes: 99, ..FsLimits::default() }, "max_total_bytes"),
        (FsLimits { max_files: 16, ..FsLimits::default() }, "max_files"),
        (FsLimits { max_path_depth: 5, ..FsLimits::default() }, "max_path_depth"),
    ];
    for (limits, name) in tight {
        let mut b = Bash::builder().fs_limits(limits).build().expect("build");
        run(&rt, &mut b, "echo mine > /mine");
        let before = snap(&b);
        let e = invalid_input(b.restore(&bytes, None).unwrap_err());
        assert!(e.contains(name), "{name}: {e}");
        assert_eq!(snap(&b), before);
        assert_eq!(run(&rt, &mut b, "cat /mine"), "mine\n");
    }
    // The same snapshot fits default limits.
    Bash::builder().build().expect("build").restore(&bytes, None).expect("restore");
}

#[test]
fn variables_past_the_targets_string_limit_are_refused() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(&rt, &mut a, "x=$(printf %0200d 0)");
    let limits = Limits { max_string_bytes: 100, ..Limits::default() };
    let mut b = Bash::builder().limits(limits).build().expect("build");
    let e = invalid_input(b.restore(&snap(&a), None).unwrap_err());
    assert!(e.contains("max_string_bytes") && e.contains("variable x"), "{e}");
}

#[test]
fn mtimes_keep_their_nanoseconds() {
    let rt = rt();
    let a = Bash::builder().build().expect("build");
    let fs = a.fs();
    let t = UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789);
    let old = UNIX_EPOCH - Duration::new(86_400, 1);
    rt.block_on(async {
        fs.write("/tmp/new", b"n").await.expect("write");
        fs.set_mtime("/tmp/new", t).await.expect("mtime");
        fs.write("/tmp/old", b"o").await.expect("write");
        fs.set_mtime("/tmp/old", old).await.expect("mtime");
    });
    let mut b = Bash::builder().build().expect("build");
    b.restore(&snap(&a), None).expect("restore");
    let fs = b.fs();
    let (m1, m2) = rt.block_on(async { (fs.metadata("/tmp/new").await, fs.metadata("/tmp/old").await) });
    assert_eq!((m1.expect("new").mtime, m2.expect("old").mtime), (t, old));
}

#[test]
fn an_idle_session_is_small() {
    let a = Bash::builder().build().expect("build");
    let n = snap(&a).len();
    println!("idle session snapshot: {n} bytes");
    // The startup variables (HOME, PATH, SHLVL, BASH_VERSINFO, ...) are most of it.
    assert!(n < 1536, "{n} bytes");
    let n = a.snapshot(&SnapshotOptions { exclude_filesystem: true, ..unkeyed() }).expect("snapshot").len();
    println!("idle session snapshot without the filesystem: {n} bytes");
}

#[test]
fn a_session_restores_its_own_snapshot() {
    let rt = rt();
    let mut a = rich_session(&rt);
    let bytes = snap(&a);
    run(&rt, &mut a, "unset -f f; s=changed; rm -r /data; cd /");
    a.restore(&bytes, None).expect("restore");
    assert_eq!(snap(&a), bytes);
    assert_eq!(run(&rt, &mut a, "f x; pwd; cat /data/link | wc -c"), "f:x:plain\n/data/sub\n7\n");
}

#[test]
fn functions_defined_anywhere_parse_back() {
    let rt = rt();
    let mut a = Bash::builder().build().expect("build");
    run(
        &rt,
        &mut a,
        r##"x="ünïcödé"; cat <<EOF >/dev/null
a here-doc before the definitions
EOF
        eval 'e1() { echo "e1 $1"; }'
        outer() { inner() { echo inner; }; }; outer
        echo 'sourced() { echo sourced; }' > /tmp/lib.sh; . /tmp/lib.sh
        function  spaced   ()  { echo spaced; }
        nl()
        {
          echo nl
        }
        redir() { echo "to stderr"; } >&2
        multi() { for ((i=0;i<2;i++)); do echo m$i; done; case $1 in a) echo A;; *) echo other;; esac; }
        herefn() { cat; } <<END
in here $x
END
        "##,
    );
    let mut b = Bash::builder().build().expect("build");
    b.restore(&snap(&a), None).expect("restore");
    assert_eq!(run(&rt, &mut b, "declare -f"), run(&rt, &mut a, "declare -f"));
    let calls = "e1 z; inner; sourced; spaced; nl; redir 2>/dev/null; redir 2>&1; multi a; herefn";
    let out = run(&rt, &mut b, calls);
    assert_eq!(out, run(&rt, &mut a, calls));
    assert_eq!(out, "e1 z\ninner\nsourced\nspaced\nnl\nto stderr\nm0\nm1\nA\nin here ünïcödé\n");
}

#[test]
fn namerefs_survive_a_round_trip() {
    let rt = rt();
    let mut bash = Bash::builder().build().expect("build");
    run(&rt, &mut bash, "target=one; declare -n ref=target");
    let bytes = snap(&bash);
    let mut other = Bash::builder().build().expect("build");
    other.restore(&bytes, None).expect("restore");
    assert_eq!(
        run(&rt, &mut other, "ref=two; echo $target ${!ref}; declare -p ref"),
        "two target\ndeclare -n ref=\"target\"\n"
    );
}

#[test]
fn aliases_and_the_directory_stack_survive_a_round_trip() {
    let rt = rt();
    let mut bash = Bash::builder().build().expect("build");
    run(
        &rt,
        &mut bash,
        "shopt -s expand_aliases; alias ll='echo listing'; pushd /tmp >/dev/null; pushd /home >/dev/null",
    );
    let bytes = snap(&bash);
    let mut other = Bash::builder().build().expect("build");
    other.restore(&bytes, None).expect("restore");
    assert_eq!(run(&rt, &mut other, "alias ll; dirs"), "alias ll='echo listing'\n/home /tmp /\n");
}
