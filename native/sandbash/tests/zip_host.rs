//! Archives our `zip` writes are read by Info-ZIP's own `unzip` (6.00): the
//! sandbox makes the archive (adding, updating, deleting members), the test
//! copies its bytes out and runs the real `unzip -t` / `-p` / `-l` on it.
//! (The other direction, host `zip` -> our `unzip`, is in `commands::unzip`'s
//! tests with fixtures from tests/fixtures/zip.) Skipped, with a note, where
//! `unzip` is not installed.

use sandbash::Bash;
use std::process::Command;

fn host_unzip() -> Option<&'static str> {
    ["/usr/bin/unzip", "/bin/unzip"].into_iter().find(|p| std::path::Path::new(p).exists())
}

#[test]
fn our_zip_is_read_by_host_unzip() {
    let Some(unzip) = host_unzip() else {
        eprintln!("note: no host unzip; skipped");
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let data = rt.block_on(async {
        let mut bash = Bash::builder().cwd("/w").build().unwrap();
        let r = bash
            .exec(
                "printf 'hello\\n' > a.txt; seq 1 2000 > b.txt; mkdir -p d/e; echo x > d/e/f; : > empty; \
                 touch -d '2024-01-02 03:04:05' a.txt; chmod 755 a.txt; zip -q -r x.zip a.txt b.txt d empty; \
                 zip -q x.zip a.txt; zip -q -d x.zip empty",
            )
            .await
            .unwrap();
        assert_eq!(r.exit_code, 0, "{}", String::from_utf8_lossy(&r.stderr));
        bash.fs().read("/w/x.zip").await.unwrap()
    });
    let dir = std::env::temp_dir().join(format!("sandbash-zip-host-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zip = dir.join("x.zip");
    std::fs::write(&zip, &data).unwrap();
    let t = Command::new(unzip).arg("-t").arg(&zip).env("TZ", "UTC").output().unwrap();
    let out = String::from_utf8_lossy(&t.stdout);
    assert!(t.status.success(), "{out}{}", String::from_utf8_lossy(&t.stderr));
    for name in ["a.txt", "b.txt", "d/", "d/e/", "d/e/f"] {
        assert!(out.contains(&format!("testing: {name}")), "{out}");
    }
    assert!(!out.contains("testing: empty"), "{out}");
    let p = Command::new(unzip).args(["-p"]).arg(&zip).args(["a.txt", "d/e/f"]).output().unwrap();
    assert_eq!(p.stdout, b"hello\nx\n");
    let b = Command::new(unzip).args(["-p"]).arg(&zip).arg("b.txt").output().unwrap();
    let seq: String = (1..=2000).map(|i| format!("{i}\n")).collect();
    assert_eq!(b.stdout, seq.as_bytes());
    // The listing's date is the file's mtime, as `unzip -l` prints it.
    let l = Command::new(unzip).args(["-l"]).arg(&zip).env("TZ", "UTC").output().unwrap();
    assert!(String::from_utf8_lossy(&l.stdout).contains("        6  2024-01-02 03:04   a.txt\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
