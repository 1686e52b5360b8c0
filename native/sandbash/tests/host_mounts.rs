//! Host directories mounted read-only, read-write and copy-on-write, on real
//! temporary directories, and every way out we know of: `..`, absolute and
//! relative symlinks planted on the host or made by the script, hard links,
//! fifos and sockets, credential directories, and the mount policy itself.

#![cfg(target_os = "linux")]

use sandbash::fs::host::{check_policy, HostFs, HostMode};
use sandbash::fs::overlay::OverlayFs;
use sandbash::fs::{Fs, MemoryFs};
use sandbash::{Bash, ExecResult, FsLimits};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A fresh host directory for one test: `root/mnt` is mounted, `root/outside` is not.
struct Host {
    root: PathBuf,
}

impl Host {
    fn new(tag: &str) -> Host {
        let root = std::env::temp_dir().join(format!("sandbash-mounts-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("mnt/sub")).expect("mkdir");
        std::fs::create_dir_all(root.join("outside")).expect("mkdir");
        std::fs::write(root.join("mnt/hello.txt"), "hello\n").expect("write");
        std::fs::write(root.join("mnt/sub/deep.txt"), "deep\n").expect("write");
        std::fs::write(root.join("outside/secret"), "SECRET\n").expect("write");
        Host { root }
    }
    fn mnt(&self) -> PathBuf {
        self.root.join("mnt")
    }
    fn outside(&self, name: &str) -> PathBuf {
        self.root.join("outside").join(name)
    }
    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.mnt().join(rel)).ok()
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn backend(dir: &Path, mode: &str) -> Arc<dyn Fs> {
    let limits = FsLimits::default();
    match mode {
        "ro" => Arc::new(HostFs::open(dir, HostMode::ReadOnly, limits.max_file_bytes, true).expect("mount")),
        "rw" => Arc::new(HostFs::open(dir, HostMode::ReadWrite, limits.max_file_bytes, true).expect("mount")),
        _ => {
            let lower = Arc::new(HostFs::open(dir, HostMode::ReadOnly, limits.max_file_bytes, true).expect("mount"));
            Arc::new(OverlayFs::new(lower, Arc::new(MemoryFs::new(limits))))
        }
    }
}

fn run(host: &Host, mode: &str, script: &str) -> (String, String, i32) {
    let fs = backend(&host.mnt(), mode);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_time().build().expect("runtime");
    let r: ExecResult = rt.block_on(async {
        let mut bash = Bash::builder().mount("/m", fs).build().expect("build");
        bash.exec(script).await.expect("exec")
    });
    (String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned(), r.exit_code)
}

#[test]
fn read_only_serves_reads_with_host_sizes_and_refuses_writes() {
    let h = Host::new("ro");
    let (out, err, _) =
        run(&h, "ro", "cat /m/hello.txt; ls /m; find /m -type f | sort; grep -r deep /m; stat -c '%s %F' /m/hello.txt");
    assert_eq!(err, "");
    assert_eq!(out, "hello\nhello.txt\nsub\n/m/hello.txt\n/m/sub/deep.txt\n/m/sub/deep.txt:deep\n6 regular file\n");

    let (out, err, _) = run(
        &h,
        "ro",
        "echo x > /m/new; rm /m/hello.txt; mkdir /m/d; touch /m/hello.txt; mv /m/hello.txt /m/h2; echo $?",
    );
    assert_eq!(out, "1\n");
    assert_eq!(
        err,
        "bash: line 1: /m/new: Read-only file system\n\
         rm: cannot remove '/m/hello.txt': Read-only file system\n\
         mkdir: cannot create directory ‘/m/d’: Read-only file system\n\
         touch: setting times of '/m/hello.txt': Read-only file system\n\
         mv: cannot move '/m/hello.txt' to '/m/h2': Read-only file system\n"
    );
    assert_eq!(h.read("hello.txt").as_deref(), Some("hello\n"));
    assert!(!h.mnt().join("new").exists());
}

#[test]
fn read_write_changes_the_host_and_works_with_cp_mv_tar() {
    let h = Host::new("rw");
    let script = "echo new > /m/new.txt; echo more >> /m/hello.txt; mkdir -p /m/a/b; cp /m/hello.txt /tmp/copy; \
                  echo mem > /tmp/mem; mv /tmp/mem /m/a/b/moved; mv /m/new.txt /tmp/back; cat /tmp/back; \
                  rm -r /m/sub; tar -cf /tmp/t.tar -C /m a; tar -tf /tmp/t.tar; cd /m/a; pwd; realpath b/moved";
    let (out, err, code) = run(&h, "rw", script);
    assert_eq!(err, "");
    assert_eq!(out, "new\na/\na/b/\na/b/moved\n/m/a\n/m/a/b/moved\n");
    assert_eq!(code, 0);
    assert_eq!(h.read("hello.txt").as_deref(), Some("hello\nmore\n"));
    assert_eq!(h.read("a/b/moved").as_deref(), Some("mem\n"));
    assert!(!h.mnt().join("new.txt").exists());
    assert!(!h.mnt().join("sub").exists());
}

#[test]
fn overlay_shows_changes_to_the_script_and_never_writes_the_host() {
    let h = Host::new("ov");
    let script = "echo more >> /m/hello.txt; echo new > /m/new.txt; rm /m/sub/deep.txt; mkdir /m/d; \
                  mv /m/new.txt /m/d/n; cat /m/hello.txt /m/d/n; ls -R /m; rm -r /m/sub; mkdir /m/sub; ls /m/sub; \
                  chmod 600 /m/hello.txt; stat -c %a /m/hello.txt";
    let (out, err, code) = run(&h, "ov", script);
    assert_eq!(err, "");
    assert_eq!(out, "hello\nmore\nnew\n/m:\nd\nhello.txt\nsub\n\n/m/d:\nn\n\n/m/sub:\n600\n");
    assert_eq!(code, 0);
    assert_eq!(h.read("hello.txt").as_deref(), Some("hello\n"));
    assert_eq!(h.read("sub/deep.txt").as_deref(), Some("deep\n"));
    assert!(!h.mnt().join("d").exists() && !h.mnt().join("new.txt").exists());
}

#[test]
fn host_symlinks_that_leave_the_mount_are_refused() {
    let h = Host::new("links");
    symlink(h.outside("secret"), h.mnt().join("abs")).expect("symlink");
    symlink("../outside/secret", h.mnt().join("rel")).expect("symlink");
    symlink("../../outside", h.mnt().join("sub/dirlink")).expect("symlink");
    symlink("/etc", h.mnt().join("etc")).expect("symlink");
    symlink("sub/deep.txt", h.mnt().join("inside")).expect("symlink");
    let script = "cat /m/abs; cat /m/rel; cat /m/sub/dirlink/secret; ls /m/etc/; cat /m/etc/hostname; \
                  cat /m/inside; cat /m/sub/../inside";
    for mode in ["ro", "rw", "ov"] {
        let (out, err, _) = run(&h, mode, script);
        assert_eq!(out, "deep\ndeep\n", "mode {mode}");
        assert_eq!(
            err,
            "cat: /m/abs: Permission denied\ncat: /m/rel: Permission denied\n\
             cat: /m/sub/dirlink/secret: Permission denied\nls: cannot access '/m/etc/': Permission denied\n\
             cat: /m/etc/hostname: Permission denied\n",
            "mode {mode}"
        );
    }
}

#[test]
fn writes_through_escaping_symlinks_never_reach_outside() {
    let h = Host::new("wlinks");
    symlink(h.outside("secret"), h.mnt().join("abs")).expect("symlink");
    symlink("../outside", h.mnt().join("out")).expect("symlink");
    let script =
        "echo pwned > /m/abs; echo pwned >> /m/abs; echo pwned > /m/out/new; mkdir /m/out/d; rm /m/out/secret; \
                  mv /m/hello.txt /m/out/stolen; chmod 777 /m/abs; touch /m/abs";
    let (_, err, _) = run(&h, "rw", script);
    assert!(err.lines().count() == 8 && err.lines().all(|l| l.contains("Permission denied")), "{err}");
    assert_eq!(std::fs::read_to_string(h.outside("secret")).expect("secret"), "SECRET\n");
    assert_eq!(std::fs::read_dir(h.root.join("outside")).expect("ls").count(), 1);
}

#[test]
fn symlinks_made_by_the_script_cannot_point_out() {
    let h = Host::new("mklinks");
    let (out, err, _) = run(
        &h,
        "rw",
        "ln -s /etc/hostname /m/a; ln -s ../../outside /m/b; ln -s sub/deep.txt /m/ok; cat /m/ok; echo $?",
    );
    assert_eq!(out, "deep\n0\n");
    assert_eq!(
        err,
        "ln: failed to create symbolic link '/m/a': Permission denied\n\
         ln: failed to create symbolic link '/m/b': Permission denied\n"
    );
    assert!(h.mnt().join("ok").is_symlink() && !h.mnt().join("a").exists());
}

#[test]
fn hard_links_fifos_sockets_and_credentials_are_refused() {
    let h = Host::new("special");
    std::fs::hard_link(h.outside("secret"), h.mnt().join("hard")).expect("hard link");
    let fifo = h.mnt().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let _sock = std::os::unix::net::UnixListener::bind(h.mnt().join("sock")).expect("socket");
    std::fs::create_dir_all(h.mnt().join(".ssh")).expect("mkdir");
    std::fs::write(h.mnt().join(".ssh/id_rsa"), "KEY\n").expect("write");
    let script = "ls -A /m; cat /m/hard; echo x > /m/hard; cat /m/fifo; cat /m/sock; cat /m/.ssh/id_rsa; ls /m/.ssh";
    let (out, err, _) = run(&h, "rw", script);
    // A hard link is listed (it is a regular file) but never opened.
    assert_eq!(out, "hard\nhello.txt\nsub\n");
    assert_eq!(
        err,
        "cat: /m/hard: Permission denied\nbash: line 1: /m/hard: Permission denied\n\
         cat: /m/fifo: Permission denied\ncat: /m/sock: Permission denied\n\
         cat: /m/.ssh/id_rsa: Permission denied\nls: cannot access '/m/.ssh': Permission denied\n"
    );
    assert_eq!(std::fs::read_to_string(h.outside("secret")).expect("secret"), "SECRET\n");
}

#[test]
fn a_huge_host_file_streams() {
    let h = Host::new("big");
    let f = std::fs::File::create(h.mnt().join("big")).expect("create");
    // Sparse: a 4 GiB file that takes no disk; reading it whole would exceed max_file_bytes.
    f.set_len(4 << 30).expect("set_len");
    let (out, err, code) = run(&h, "ro", "head -c 10 /m/big | tr '\\0' z; echo; head -c 3 < /m/big | wc -c; cat /m/big | head -c 5 | wc -c; ls -l /m/big | cut -d' ' -f5");
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(out, "zzzzzzzzzz\n3\n5\n4294967296\n");
}

#[test]
fn the_mount_policy_refuses_sensitive_paths_unless_allowlisted() {
    let h = Host::new("policy");
    for p in ["/", "/etc", "/proc", "/sys", "/dev", "/etc/ssl"] {
        assert!(check_policy(Path::new(p), None).is_err(), "{p} must be refused");
    }
    std::fs::create_dir_all(h.root.join("x/.ssh")).expect("mkdir");
    assert!(check_policy(&h.root.join("x/.ssh"), None).is_err());
    let link = h.root.join("etc-link");
    symlink("/etc", &link).expect("symlink");
    assert!(check_policy(&link, None).is_err(), "a symlink to /etc is /etc");
    assert!(check_policy(&h.mnt(), None).is_ok());
    assert!(check_policy(&h.root.join("missing"), None).is_err());
    assert!(check_policy(&h.mnt().join("hello.txt"), None).is_err(), "not a directory");
    // The switch: with an allowlist, only paths under it, sensitive or not.
    let allowed = [h.mnt()];
    assert!(check_policy(&h.mnt().join("sub"), Some(&allowed)).is_ok());
    assert!(check_policy(&h.root.join("outside"), Some(&allowed)).is_err());
    assert!(check_policy(Path::new("/etc/ssl"), Some(&[PathBuf::from("/etc")])).is_ok());
}

#[test]
fn a_symlink_swapped_in_while_commands_run_never_leads_out() {
    // A host thread keeps replacing `swap` (a real directory holding `f`) with a
    // symlink to the outside directory (whose `f` is the secret) and back,
    // while the script reads `swap/f` over and over.
    let h = Host::new("race");
    std::fs::write(h.outside("f"), "SECRET\n").expect("write");
    let real = h.root.join("real");
    std::fs::create_dir_all(&real).expect("mkdir");
    std::fs::write(real.join("f"), "safe\n").expect("write");
    let link = h.root.join("link");
    symlink(h.root.join("outside"), &link).expect("symlink");
    let swap = h.mnt().join("swap");
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, real, link, swap) = (stop.clone(), real.clone(), link.clone(), swap.clone());
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::rename(&real, &swap);
                let _ = std::fs::rename(&swap, &real);
                let _ = std::fs::rename(&link, &swap);
                let _ = std::fs::rename(&swap, &link);
            }
        })
    };
    let (out, _, _) = run(&h, "ro", "for i in $(seq 2000); do cat /m/swap/f 2>/dev/null; done");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().expect("swapper");
    assert!(!out.contains("SECRET"), "the secret leaked");
    assert!(out.contains("safe"), "the race never hit the real directory: the test proved nothing");
}

#[test]
fn sizes_and_mtimes_come_from_the_host() {
    let h = Host::new("times");
    let f = std::fs::File::options().write(true).open(h.mnt().join("hello.txt")).expect("open");
    f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000)).expect("set mtime");
    let (out, err, _) =
        run(&h, "rw", "stat -c '%s %Y' /m/hello.txt; touch -d @1234567890 /m/hello.txt; stat -c %Y /m/hello.txt");
    assert_eq!((out.as_str(), err.as_str()), ("6 1000000000\n1234567890\n", ""));
    let m = std::fs::metadata(h.mnt().join("hello.txt")).expect("meta").modified().expect("mtime");
    assert_eq!(m.duration_since(std::time::UNIX_EPOCH).expect("after epoch").as_secs(), 1_234_567_890);
}
