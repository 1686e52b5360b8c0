//! `cargo bench -p sandbash --bench snapshot`: the size of an idle session's
//! snapshot, and median times of snapshot and restore of a session holding
//! 10 MB of files (100 files of 100 KB).

use sandbash::{Bash, SnapshotOptions};
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("runtime");
    let idle = Bash::builder().build().expect("build");
    let plain = SnapshotOptions::default();
    let keyed = SnapshotOptions { key: Some(b"bench key".to_vec()), ..SnapshotOptions::default() };
    println!("idle session snapshot          {:>8} bytes", idle.snapshot(&plain).expect("snapshot").len());
    println!(
        "idle session, no filesystem    {:>8} bytes",
        idle.snapshot(&SnapshotOptions { exclude_filesystem: true, ..plain.clone() }).expect("snapshot").len()
    );

    let mut full = Bash::builder().build().expect("build");
    let fs = full.fs();
    rt.block_on(async {
        fs.mkdir("/data", false).await.expect("mkdir");
        for i in 0..100u32 {
            // Varied bytes, so nothing about the content is special.
            let data: Vec<u8> = (0..100 * 1024u32).map(|j| (j.wrapping_mul(31) ^ i) as u8).collect();
            fs.write(&format!("/data/f{i:03}"), &data).await.expect("write");
        }
    });
    rt.block_on(full.exec("x=1; f() { echo $x; }")).expect("exec");

    for (name, opts, key) in [("unkeyed", &plain, None), ("keyed", &keyed, Some(&b"bench key"[..]))] {
        let bytes = full.snapshot(opts).expect("snapshot");
        let mut target = Bash::builder().build().expect("build");
        let (mut snap, mut restore, mut both) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..21 {
            let t = Instant::now();
            let b = full.snapshot(opts).expect("snapshot");
            let t1 = t.elapsed();
            target.restore(&b, key).expect("restore");
            let t2 = t.elapsed();
            snap.push(t1);
            restore.push(t2 - t1);
            both.push(t2);
            std::hint::black_box(b);
        }
        println!(
            "10 MB session, {name:<8} {:>9} bytes   snapshot {:>6.1} ms   restore {:>6.1} ms   both {:>6.1} ms (medians of 21)",
            bytes.len(),
            ms(median(snap)),
            ms(median(restore)),
            ms(median(both))
        );
    }
}
