//! Commands answered by the embedding application and filesystems mounted into
//! the tree: they behave like any command or directory (pipelines, `$( )`,
//! loops, redirects, `xargs`, globbing), and a mount's paths reach its backend
//! rooted at the mount. The Elixir bridge on top is tested in `test/`.

use async_trait::async_trait;
use sandbash::commands::host::{HostCall, HostCommands, HostHandler, HostReply};
use sandbash::fs::{Fs, MemoryFs};
use sandbash::FsLimits;
use sandbash::{Bash, BashBuilder, ExecResult};
use std::sync::{Arc, Mutex};

/// `upper` uppercases its stdin (or its arguments), `fail` prints to stderr and
/// exits 3, `where` prints its cwd and `$GREETING`; every call is recorded.
struct Handler {
    calls: Mutex<Vec<HostCall>>,
}

#[async_trait]
impl HostHandler for Handler {
    async fn call(&self, call: HostCall) -> HostReply {
        self.calls.lock().unwrap().push(call.clone());
        match call.name.as_str() {
            "upper" if call.args.is_empty() => {
                HostReply { stdout: call.stdin.to_ascii_uppercase(), ..Default::default() }
            }
            "upper" => {
                HostReply { stdout: format!("{}\n", call.args.join(" ").to_uppercase()).into(), ..Default::default() }
            }
            "fail" => HostReply { stderr: b"fail: no\n".to_vec(), status: 3, ..Default::default() },
            "where" => {
                let greeting = call.env.iter().find(|(k, _)| k == "GREETING").map(|(_, v)| v.as_str()).unwrap_or("-");
                HostReply { stdout: format!("{} {greeting}\n", call.cwd).into(), ..Default::default() }
            }
            _ => HostReply { status: 127, ..Default::default() },
        }
    }
}

fn run(builder: BashBuilder, script: &str) -> ExecResult {
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime");
    rt.block_on(async {
        let mut bash: Bash = builder.build().expect("build");
        bash.exec(script).await.expect("exec")
    })
}

fn with_host(max_stdin: u64) -> (BashBuilder, Arc<Handler>) {
    let h = Arc::new(Handler { calls: Mutex::new(Vec::new()) });
    let names = ["upper", "fail", "where"].map(String::from);
    (Bash::builder().host_commands(HostCommands::new(names, h.clone(), max_stdin)), h)
}

fn check(script: &str, out: &str, err: &str, status: i32) {
    let (b, _) = with_host(1 << 20);
    let r = run(b, script);
    assert_eq!(
        (String::from_utf8_lossy(&r.stdout).as_ref(), String::from_utf8_lossy(&r.stderr).as_ref(), r.exit_code),
        (out, err, status),
        "script: {script}"
    );
}

#[test]
fn host_command_in_pipelines_substitutions_and_loops() {
    check("echo abc | upper | tr B x", "AxC\n", "", 0);
    check("v=$(upper hi there); echo \"[$v]\"", "[HI THERE]\n", "", 0);
    check("for w in a b; do upper $w; done", "A\nB\n", "", 0);
    check("f() { upper \"$@\"; }; f x y", "X Y\n", "", 0);
    check("upper <<< hey", "HEY\n", "", 0);
    check("printf 'a\\nb\\n' | xargs -n1 upper", "A\nB\n", "", 0);
    check("env upper q", "Q\n", "", 0);
}

#[test]
fn host_command_status_stderr_and_redirects() {
    check("fail; echo $?", "3\n", "fail: no\n", 0);
    check("fail 2>/dev/null || echo failed", "failed\n", "", 0);
    check("upper z > /tmp/o; cat /tmp/o", "Z\n", "", 0);
    check("set -e; fail; echo not reached", "", "fail: no\n", 3);
    check("fail | upper; echo ${PIPESTATUS[*]}", "3 0\n", "fail: no\n", 0);
}

#[test]
fn functions_come_first_and_type_tells_builtin() {
    check("upper() { echo func; }; upper x", "func\n", "", 0);
    check("type -t upper; command -v upper", "builtin\nupper\n", "", 0);
}

#[test]
fn host_command_sees_exported_env_and_cwd() {
    check("cd /tmp; GREETING=hi where; where", "/tmp hi\n/tmp -\n", "", 0);
    check("export GREETING=yo; NOT_EXPORTED=1; where", "/ yo\n", "", 0);
}

#[test]
fn stdin_beyond_the_cap_fails_that_command_only() {
    let (b, h) = with_host(8);
    let r = run(b, "head -c 100 /dev/zero | upper; echo after $?");
    assert_eq!(String::from_utf8_lossy(&r.stdout), "after 1\n");
    assert_eq!(String::from_utf8_lossy(&r.stderr), "upper: standard input too large (max_reply_bytes: 8)\n");
    assert!(h.calls.lock().unwrap().is_empty(), "the handler must not be called");
}

fn with_mount() -> (BashBuilder, Arc<dyn Fs>) {
    let backend: Arc<dyn Fs> = Arc::new(MemoryFs::new(FsLimits::default()));
    (Bash::builder().mount("/mnt/data", backend.clone()), backend)
}

fn run_mount(script: &str) -> (String, String, i32, Arc<dyn Fs>) {
    let (b, backend) = with_mount();
    let r = run(b, script);
    (
        String::from_utf8_lossy(&r.stdout).into_owned(),
        String::from_utf8_lossy(&r.stderr).into_owned(),
        r.exit_code,
        backend,
    )
}

#[test]
fn a_mount_receives_paths_rooted_at_it() {
    let (out, err, code, backend) =
        run_mount("echo hi > /mnt/data/a.txt; mkdir /mnt/data/d; cat /mnt/data/a.txt; ls /mnt/data; ls /mnt");
    assert_eq!((out.as_str(), err.as_str(), code), ("hi\na.txt\nd\ndata\n", "", 0));
    let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
    assert_eq!(rt.block_on(backend.read("/a.txt")).expect("backend file"), b"hi\n");
    assert!(rt.block_on(backend.metadata("/d")).expect("backend dir").is_dir());
}

#[test]
fn mounts_work_with_globs_find_cp_mv_and_cd() {
    let script =
        "cd /mnt/data; touch x y; echo *; cd /; cp /mnt/data/x /tmp/x2; echo moved > /tmp/m; mv /tmp/m /mnt/data/m; \
                  cat /mnt/data/m; find /mnt -type f | sort; realpath /mnt/data/../data/x";
    let (out, err, code, _) = run_mount(script);
    assert_eq!(err, "");
    assert_eq!(out, "x y\nmoved\n/mnt/data/m\n/mnt/data/x\n/mnt/data/y\n/mnt/data/x\n");
    assert_eq!(code, 0);
}

#[test]
fn mount_point_cannot_be_removed_and_errors_read_as_usual() {
    let (out, err, code, _) = run_mount("cat /mnt/data/nope; rmdir /mnt/data; echo $?");
    assert_eq!(out, "1\n");
    assert_eq!(
        err,
        "cat: /mnt/data/nope: No such file or directory\nrmdir: failed to remove '/mnt/data': Permission denied\n"
    );
    assert_eq!(code, 0);
}

#[test]
fn bad_mount_points_are_refused_at_build() {
    for p in ["/", "relative", "/a/../b", "/a//b", "/a/"] {
        let backend: Arc<dyn Fs> = Arc::new(MemoryFs::default());
        assert!(Bash::builder().mount(p, backend).build().is_err(), "{p} must be refused");
    }
}
