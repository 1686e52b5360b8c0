//! `NAME --help` prints the real utility's whole text, for every utility
//! `scripts/record_help_texts` recorded from Debian's (GNU coreutils 9.1,
//! findutils, diffutils, grep, sed, gzip, tar, util-linux, ...): scripts grep
//! these texts for the options a tool has. The texts are read from the
//! recordings at run time, so a utility added there is checked here too.

mod common;

fn recorded() -> Vec<(String, Vec<u8>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/commands/util/help_texts");
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("help_texts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).expect("name").to_string();
            (name, std::fs::read(&p).expect("text"))
        })
        .collect();
    all.sort();
    all
}

#[test]
fn every_recorded_utility_prints_its_whole_help() {
    let all = recorded();
    assert!(all.len() >= 100, "only {} texts", all.len());
    let mut wrong = Vec::new();
    for (name, text) in &all {
        let r = common::run(&format!("{name} --help")).expect(name);
        if r.stdout != *text || r.exit_code != 0 || !r.stderr.is_empty() {
            wrong.push(format!("{name} (status {}, {} bytes for {})", r.exit_code, r.stdout.len(), text.len()));
        }
    }
    assert!(wrong.is_empty(), "--help differs from the recording: {wrong:?}");
}

/// Among other options and by a path, as GNU's getopt and program name do.
#[test]
fn help_among_options_and_by_path() {
    let head = recorded().into_iter().find(|(n, _)| n == "head").expect("head").1;
    let r = common::run("head -n 3 --help; head --hel").expect("head");
    assert_eq!(r.stdout, [head.clone(), head.clone()].concat());
    let r = common::run("/usr/bin/head --help | head -1").expect("path");
    assert_eq!(String::from_utf8_lossy(&r.stdout), "Usage: /usr/bin/head [OPTION]... [FILE]...\n");
}
