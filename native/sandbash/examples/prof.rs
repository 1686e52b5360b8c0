use sandbash::Bash;
fn main() {
    let script = std::env::args().nth(1).unwrap_or_default();
    let n: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(10000);
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let mut b = Bash::builder().limits(sandbash::Limits {
        timeout_ms: 600_000,
        max_output_bytes: 1 << 30,
        max_string_bytes: 1 << 30,
        ..Default::default()
    });
    if let Some(f) = std::env::args().nth(3) {
        b = b.file("/d/json", std::fs::read(f).unwrap());
    }
    let mut bash = b.build().unwrap();
    let t0 = std::time::Instant::now();
    for _ in 0..n {
        if script.is_empty() {
            std::hint::black_box(Bash::builder().build().unwrap());
        } else {
            let r = rt.block_on(bash.exec(&script)).unwrap();
            if r.exit_code != 0 {
                eprintln!("{}", String::from_utf8_lossy(&r.stderr));
            }
            std::hint::black_box(r);
        }
    }
    println!("{:.2}", t0.elapsed().as_secs_f64() * 1e6 / n as f64);
}
