//! Archives that try to write through a symlink they create (`link -> /etc`,
//! then `link/file`): extraction must write nothing outside its directory.
//! GNU tar 1.34 delays such links (absolute, or with `..`) until everything
//! else is out, so `link/file` fails: `tar: link/file: Cannot open: Not a
//! directory`, then `tar: Exiting with failure status due to previous
//! errors`, status 2 (checked on the host with a GNU-made archive).

mod common;
use common::*;

/// One ustar header block (+ data blocks) for `name`.
fn entry(name: &str, kind: u8, link: &str, data: &[u8]) -> Vec<u8> {
    let mut h = [0u8; 512];
    let put = |h: &mut [u8; 512], at: usize, v: &[u8]| h[at..at + v.len()].copy_from_slice(v);
    put(&mut h, 0, name.as_bytes());
    // Directories searchable, as a tar of real ones holds them.
    put(&mut h, 100, if kind == b'5' { b"0000755\0" } else { b"0000644\0" });
    put(&mut h, 108, b"0000000\0");
    put(&mut h, 116, b"0000000\0");
    put(&mut h, 124, format!("{:011o}\0", data.len()).as_bytes());
    put(&mut h, 136, b"14760000000\0");
    put(&mut h, 148, b"        ");
    h[156] = kind;
    put(&mut h, 157, link.as_bytes());
    put(&mut h, 257, b"ustar\x0000");
    put(&mut h, 265, b"root");
    put(&mut h, 297, b"root");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    put(&mut h, 148, format!("{sum:06o}\0 ").as_bytes());
    let mut v = h.to_vec();
    v.extend_from_slice(data);
    v.resize(v.len().div_ceil(512) * 512, 0);
    v
}

fn archive(entries: &[Vec<u8>]) -> Vec<u8> {
    let mut v: Vec<u8> = entries.concat();
    v.extend_from_slice(&[0u8; 1024]);
    v
}

fn extract(tar: &[u8], setup: &str, after: &str) -> sandbash::ExecResult {
    let script = format!("{setup}; mkdir -p x/out; cat > x/a.tar; cd x/out; tar xf ../a.tar; echo rc=$?; {after}");
    run_with_stdin(&script, tar).expect("run")
}

#[test]
fn tar_does_not_write_through_an_absolute_symlink_it_made() {
    let tar = archive(&[entry("link", b'2', "/etc", b""), entry("link/pwned", b'0', "", b"owned\n")]);
    let r = extract(&tar, "true", "ls /etc/pwned 2>&1; readlink link");
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "rc=2\nls: cannot access '/etc/pwned': No such file or directory\n/etc\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "tar: link/pwned: Cannot open: Not a directory\ntar: Exiting with failure status due to previous errors\n"
    );
}

#[test]
fn tar_does_not_write_through_a_dotdot_symlink_it_made() {
    // `up -> ../..` leads from x/out to the working directory.
    let tar = archive(&[
        entry("up", b'2', "../..", b""),
        entry("up/escaped", b'0', "", b"owned\n"),
        entry("d/", b'5', "", b""),
        entry("d/deep", b'2', "../../../..", b""),
        entry("d/deep/sub/f", b'0', "", b"owned\n"),
    ]);
    let r = extract(&tar, "true", "ls ../../escaped ../../../../sub 2>&1 | sort; readlink up d/deep");
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.starts_with("rc=2\n"), "{out}");
    assert!(!out.contains("escaped\n") || out.contains("cannot access"), "{out}");
    assert!(out.ends_with("../..\n../../../..\n"), "{out}");
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("tar: up/escaped: Cannot open: Not a directory\n"), "{err}");
    assert!(err.contains("tar: d/deep/sub/f: Cannot open: Not a directory\n"), "{err}");
}

#[test]
fn tar_safe_symlinks_are_made_at_once_and_delayed_ones_still_land() {
    // A relative link inside the tree is used by later members (as GNU does);
    // an absolute one is made at the end.
    let tar = archive(&[
        entry("real/", b'5', "", b""),
        entry("in", b'2', "real", b""),
        entry("in/f", b'0', "", b"hi\n"),
        entry("abs", b'2', "/tmp", b""),
    ]);
    let r = extract(&tar, "true", "cat real/f; readlink in abs");
    assert_eq!(String::from_utf8_lossy(&r.stdout), "rc=0\nhi\nreal\n/tmp\n");
    assert_eq!(String::from_utf8_lossy(&r.stderr), "");
}

/// A stored zip of `(name, unix mode, data)` entries, made by "Unix" (so the
/// mode's file type counts: 0o120000 is a symlink whose data is the target).
fn zip(entries: &[(&str, u32, &[u8])]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for (name, mode, data) in entries {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let (crc, len, offset) = (crc.sum(), data.len() as u32, out.len() as u32);
        let common = |v: &mut Vec<u8>| {
            for x in [0u16, 0, 0, 0x21] {
                v.extend_from_slice(&x.to_le_bytes()); // flags, method, time, date
            }
            for x in [crc, len, len] {
                v.extend_from_slice(&x.to_le_bytes());
            }
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes());
        };
        out.extend_from_slice(&0x04034b50u32.to_le_bytes());
        out.extend_from_slice(&10u16.to_le_bytes());
        common(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(&0x02014b50u32.to_le_bytes());
        central.extend_from_slice(&0x031eu16.to_le_bytes());
        central.extend_from_slice(&10u16.to_le_bytes());
        common(&mut central);
        central.extend_from_slice(&[0u8; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&(mode << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let at = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x06054b50u32.to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    let n = (entries.len() as u16).to_le_bytes();
    out.extend_from_slice(&n);
    out.extend_from_slice(&n);
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&[0u8; 2]);
    out
}

#[test]
fn unzip_never_writes_through_a_link_entry() {
    // This unzip extracts a symlink entry as a plain file holding its target,
    // so `link/pwned` cannot go through it (the parent is not a directory).
    let z = zip(&[("link", 0o120777, b"/etc"), ("link/pwned", 0o100644, b"owned\n"), ("up", 0o120777, b"../..")]);
    let r = run_with_stdin(
        "mkdir -p z/out; cat > z/a.zip; cd z/out; unzip -q ../a.zip; echo rc=$?; ls /etc/pwned 2>&1; cat link; echo",
        &z,
    )
    .expect("run");
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.ends_with("ls: cannot access '/etc/pwned': No such file or directory\n/etc\n"), "{out}");
}
