//! Generated attacks on every command of the table (every utility, every
//! builtin, the embedder's commands), shared by the property test
//! (`tests/adversarial/table.rs`, small sizes) and the bench
//! (`benches/table.rs`, full sizes).
//!
//! Each command meets the same generic shapes -- its input on stdin and as
//! files (many lines, one huge line, NUL bytes, invalid UTF-8, identical and
//! disjoint files, a deep tree), long and huge-number operands, patterns made
//! to backtrack -- plus the shapes of its own that make it work (a program for
//! awk, a width for fold, a count for seq, ...). Every run must end within
//! its timeout (plus a slack), hold no more than its memory budget (plus a
//! small constant), never panic (not even a caught panic), and leave the
//! session usable. A command the table gains without an entry in [`OWN`] or
//! [`GENERIC_ONLY`] fails [`coverage`].
#![allow(dead_code)]

use sandbash::{Bash, Error, ExecOptions, Limits};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Numbers at and past the integer limits.
pub const BIG: &str = "9223372036854775807";
pub const HUGE: &str = "18446744073709551617";
pub const NEG: &str = "-9223372036854775808";

/// Generated inputs of size `n` (lines, bytes), as files of a session.
pub fn files(n: usize) -> Vec<(String, Vec<u8>)> {
    let lines: Vec<u8> = (0..n).flat_map(|i| format!("line {} {}\n", i % 997, i).into_bytes()).collect();
    let other: Vec<u8> = (0..n).flat_map(|i| format!("other {}\n", i).into_bytes()).collect();
    let mut line = vec![b'a'; n * 8];
    line.push(b'\n');
    let nul: Vec<u8> = (0..n * 8).map(|i| if i % 3 == 0 { 0 } else { b'x' }).collect();
    let bin: Vec<u8> = (0..n * 8).map(|i| [0xff, 0xfe, 0xc3, b'\n', 0x80][i % 5]).collect();
    let numbers: Vec<u8> =
        (0..n).flat_map(|i| format!("{}\n", (i as u64).wrapping_mul(2654435761) % 1000003).into_bytes()).collect();
    let json: Vec<u8> = format!("[{}1]", "{\"k\":[1,2,{\"a\":\"b\"}]},".repeat(n / 4 + 1)).into_bytes();
    let mut out = vec![
        ("/in/lines".to_string(), lines.clone()),
        ("/in/same".to_string(), lines),
        ("/in/other".to_string(), other),
        ("/in/line".to_string(), line),
        ("/in/nul".to_string(), nul),
        ("/in/bin".to_string(), bin),
        ("/in/numbers".to_string(), numbers),
        ("/in/json".to_string(), json),
        ("/in/empty".to_string(), Vec::new()),
    ];
    // A deep tree: one path of `depth` directories, a file at the bottom.
    // Within the default path depth (128 components).
    let depth = (n / 20).clamp(10, 120);
    let deep = format!("/in/deep/{}f", "d/".repeat(depth));
    out.push((deep, b"bottom\n".to_vec()));
    // A wide directory.
    for i in 0..(n / 10).clamp(10, 500) {
        out.push((format!("/in/wide/f{i}"), format!("{i}\n").into_bytes()));
    }
    out
}

/// Shell variables the shapes use: `$LONG` (a long word), `$PAT` (patterns
/// built to backtrack), `$BIG`, `$HUGE`, `$NEG`.
pub fn prelude(n: usize) -> String {
    format!(
        "LONG=$(head -c {} /in/line); PAT='(a*)*b'; BACK='\\(a*\\)*\\1b'; BIG={BIG}; HUGE={HUGE}; NEG='{NEG}'\ncd /in\n",
        (n * 8).min(1 << 20)
    )
}

/// Shapes every command meets (`C` is its name).
pub const GENERIC: &[&str] = &[
    "C < lines",
    "C lines",
    "C line < line",
    "C nul < nul",
    "C bin < bin",
    "C lines other",
    "C lines same",
    "C \"$LONG\"",
    "C -$BIG",
    "C $BIG $HUGE $NEG",
    "C --\"${LONG:0:4096}\"",
    "C \"$PAT\" line",
    "C deep wide",
    "C < json",
    "C < empty",
    // Every one-letter option alone, then before an operand (an option that
    // wants an argument finds none, or takes the operand): built at run time.
    "for o in -{a..m} -{n..z}; do C $o < empty; C $o x < empty; done > /dev/null 2>&1",
    "for o in -{A..Z} -{0..9}; do C $o < empty; C $o x < empty; done > /dev/null 2>&1",
    "for o in -- - --x --help= -: '-?' +o -o; do C $o < empty; C $o -- < empty; done > /dev/null 2>&1",
];

/// Shapes of each command that makes work of an argument.
pub const OWN: &[(&str, &[&str])] = &[
    ("awk", &["awk '{ s = s $0 } END { print length(s) }' lines", "awk 'BEGIN { while (1) x = x \"aaaa\" }'", "awk -F \"$PAT\" '{ print NF }' line", "awk 'function f(n) { return f(n + 1) } BEGIN { f(1) }'", "awk '{ a[$0] = $0 } END { print length(a) }' lines", "awk 'BEGIN { printf \"%*d\", '$BIG', 1 }'"]),
    ("sed", &["sed -E 's/(a*)*b/x/g' line", "sed ':a;s/^/aa/;ta' lines", "sed -n 'H;${x;s/\\n/,/g;p}' lines", "sed \"s/$BACK/x/\" line"]),
    ("grep", &["grep -E \"$PAT\" line", "grep \"$BACK\" line", "grep -P '(a|aa)*c' line", "grep -c -f lines same", "grep -r x deep"]),
    ("jq", &["jq . json", "jq -n 'def f: f; f'", "jq -n '[range('$BIG')] | length'", "jq -n 'reduce range(1e9) as $i (0; .+1)'", "jq -r '.. | numbers' json", "jq -n '\"a\" * 100000000 | length'"]),
    ("sort", &["sort lines other", "sort -n numbers", "sort -u -k2,2n lines", "sort -t ' ' -k 3 line", "sort -S $BIG lines"]),
    ("uniq", &["uniq -c lines", "sort lines | uniq -d"]),
    ("comm", &["comm lines other", "comm -3 lines same"]),
    ("join", &["join lines other", "join -j 2 lines same"]),
    ("diff", &["diff lines other", "diff -u lines same", "diff nul bin", "diff -r deep wide", "diff line lines"]),
    ("patch", &["diff -u lines other > p; patch -o out lines p", "patch < lines"]),
    ("cmp", &["cmp lines same", "cmp -l nul bin | tail -1"]),
    ("find", &["find deep", "find . -name \"$LONG\"", "find . -regex \"$PAT\"", "find . -newer lines -o -size +1k", "find deep -exec echo {} +"]),
    ("xargs", &["xargs echo < lines | wc -c", "xargs -n 1 echo < lines | tail -1", "xargs -0 echo < nul | wc -c", "yes a | xargs echo | head -c 10"]),
    ("tar", &["tar cf t deep wide && tar tf t | wc -l", "tar xf lines", "tar czf t.gz . 2>&1 | tail -1"]),
    ("zip", &["zip -r z.zip deep && unzip -l z.zip | tail -1", "zip z lines other"]),
    ("unzip", &["unzip lines", "unzip -l bin"]),
    ("gzip", &["gzip -c lines | gzip -d | wc -l", "gzip -d < bin", "head -c 1000000 /dev/zero | gzip -9 | gzip -d | wc -c"]),
    ("gunzip", &["gunzip < bin", "gzip -c line | gunzip | wc -c"]),
    ("zcat", &["zcat bin", "gzip -c lines | zcat | wc -l"]),
    ("bc", &["echo \"2^$BIG\" | bc", "echo 'define f(n) { return f(n+1) }; f(1)' | bc", "echo 'scale=100000; 4*a(1)' | bc -l", "echo \"$BIG*$BIG*$BIG\" | bc"]),
    ("dc", &["echo \"2 $BIG ^p\" | dc", "echo '[dx]dx' | dc", "echo '100000 k 2 v p' | dc"]),
    ("expr", &["expr \"$LONG\" : \"$PAT\"", "expr $BIG + $BIG", "expr $BIG \\* $BIG", "expr substr \"$LONG\" 1 $BIG"]),
    ("printf", &["printf \"%${BIG}d\" 1", "printf '%.*f' $BIG 1", "printf '%s' \"$LONG$LONG$LONG$LONG\" | wc -c", "printf \"%-${HUGE}s\" x", "printf '%b' \"$LONG\" | wc -c"]),
    ("seq", &["seq $BIG | head -1", "seq 1 0.000001 $BIG | tail -1", "seq -w $NEG $BIG | head -2", "seq -f \"%${BIG}g\" 1"]),
    ("shuf", &["shuf -i 1-4000000000 | head -1", "shuf -n $BIG lines | wc -l", "shuf -r -i 1-10 | head -3", "shuf -i 1-$BIG -n 3"]),
    ("head", &["head -c $BIG /dev/zero | wc -c", "head -n -$BIG lines", "head -c -$BIG line"]),
    ("tail", &["tail -c $BIG line | wc -c", "tail -n +$BIG lines", "tail -n $BIG lines | wc -l"]),
    ("fold", &["fold -w $BIG line | wc -c", "fold -w 1 lines | wc -l"]),
    ("fmt", &["fmt -w $BIG lines | wc -l", "fmt -w 1 line | wc -l"]),
    ("column", &["column -t lines | wc -l", "column -c $BIG lines | wc -l", "column -s ' ' -t line"]),
    ("pr", &["pr -w $BIG lines | wc -l", "pr -l 1 lines | wc -l", "pr -$BIG lines | wc -l"]),
    ("cut", &["cut -c 1-$BIG line | wc -c", "cut -d ' ' -f $BIG lines | wc -l", "cut -b $BIG- line"]),
    ("paste", &["paste lines other same | wc -l", "paste -s -d \"$LONG\" lines | wc -c"]),
    ("tr", &["tr -s a b < line | wc -c", "tr a-z A-Z < bin | wc -c", "tr -d \"$LONG\" < lines | wc -c"]),
    ("expand", &["expand -t $BIG lines | wc -c", "printf 'a\\tb' | expand -t 1,$BIG"]),
    ("unexpand", &["unexpand -t $BIG lines | wc -c", "unexpand -a line | wc -c"]),
    ("od", &["od -w$BIG lines | wc -l", "od -A x -t x1z bin | tail -1", "od -N $BIG line | wc -l"]),
    ("xxd", &["xxd -c $BIG lines | wc -l", "xxd -p bin | xxd -r -p | wc -c", "xxd -c 1 line | wc -l"]),
    ("hexdump", &["hexdump -C bin | tail -1", "hexdump -n $BIG line | tail -1", "hexdump -e '\"%$BIG\"' line"]),
    ("base64", &["base64 -w $BIG line | wc -c", "base64 -d bin", "base64 lines | base64 -d | wc -c"]),
    ("base32", &["base32 line | base32 -d | wc -c", "base32 -w 0 bin | wc -c"]),
    ("basenc", &["basenc --base64 line | wc -c", "basenc --base16 -d bin"]),
    ("numfmt", &["numfmt --to=iec $BIG $HUGE", "numfmt --padding=$BIG 1", "numfmt < numbers | tail -1"]),
    ("factor", &["factor $BIG", "factor $HUGE", "factor 18446744073709551557", "factor < numbers | tail -1"]),
    ("date", &["date -d \"$LONG\"", "date -d @$BIG", "date +\"%${BIG}Y\"", "date -d '1000000000 years'"]),
    ("cal", &["cal $BIG", "cal 12 $BIG", "cal -y 9999"]),
    ("split", &["split -b 1 lines x && ls | wc -l", "split -l 1 lines y && ls | wc -l", "split -n $BIG lines"]),
    ("csplit", &["csplit lines '/line 1 /' '{*}' | tail -1", "csplit lines 1 '{'$BIG'}'"]),
    ("dd", &["dd if=/dev/zero bs=$BIG count=1 | wc -c", "dd if=line bs=1 | wc -c", "dd if=/dev/zero of=z bs=1M count=$BIG"]),
    ("truncate", &["truncate -s $BIG f && ls -l f", "truncate -s 1T g; wc -c g"]),
    ("shred", &["shred -n $BIG -s 1000 lines", "shred -s $BIG f"]),
    ("yes", &["yes \"$LONG\" | head -c 10000000 | wc -c", "yes | head -n $BIG | wc -l"]),
    ("cat", &["cat lines lines lines | wc -l", "cat /dev/zero | head -c 1000000 | wc -c", "cat -A bin | wc -c", "cat line >> line"]),
    ("tee", &["tee a b c < lines | wc -l", "tee -a lines < lines | wc -l"]),
    ("wc", &["wc -L line", "wc -m bin"]),
    ("tac", &["tac lines | head -1", "tac -s \"$PAT\" -r line | wc -c"]),
    ("rev", &["rev line | wc -c", "rev bin | wc -c"]),
    ("nl", &["nl -w $BIG lines | wc -l", "nl -s \"$LONG\" lines | wc -c"]),
    ("strings", &["strings -n $BIG bin", "strings -n 1 bin | wc -l"]),
    ("iconv", &["iconv -f latin1 -t utf-8 bin | wc -c", "iconv -f utf-8 -t ascii bin"]),
    ("sha256sum", &["sha256sum lines line nul bin", "sha256sum -c lines"]),
    ("md5sum", &["md5sum -c bin", "md5sum line"]),
    ("cksum", &["cksum lines line", "cksum -a sha512 line"]),
    ("tsort", &["tsort lines | wc -l", "seq 1000 | awk '{print $1, $1+1}' | tsort | tail -1", "printf 'a b\\nb a\\n' | tsort"]),
    ("envsubst", &["envsubst < lines | wc -l", "LONG=$LONG envsubst < line | wc -c"]),
    ("dos2unix", &["dos2unix < bin | wc -c", "dos2unix lines"]),
    ("ls", &["ls -R deep | wc -l", "ls -l wide | wc -l", "ls -w $BIG wide | wc -l"]),
    ("tree", &["tree deep | tail -1", "tree -L $BIG wide | tail -1"]),
    ("du", &["du -a deep | tail -1", "du -d $BIG ."]),
    ("cp", &["cp -r deep d2 && ls -R d2 | wc -l", "cp -r . ./sub"]),
    ("mv", &["mv deep d3 && ls d3", "mv . ./x"]),
    ("rm", &["rm -r deep wide && ls", "rm -rf /"]),
    ("mkdir", &["mkdir -p $(printf 'd/%.0s' {1..500})", "mkdir -p \"${LONG:0:100000}\""]),
    ("ln", &["ln -s loop loop; cat loop", "ln -s a b; ln -s b a; cat a"]),
    ("readlink", &["ln -s x y; readlink -f y", "readlink -f \"${LONG:0:100000}\""]),
    ("stat", &["stat deep lines", "stat -c \"%${BIG}n\" lines"]),
    ("touch", &["touch -d \"$LONG\" f", "touch -d @$BIG f; ls -l f"]),
    ("sleep", &["sleep $BIG", "sleep inf"]),
    ("timeout", &["timeout 0.1 sleep $BIG; echo $?", "timeout $BIG true"]),
    ("watch", &["watch -n 0.1 echo hi"]),
    ("env", &["env -i \"$LONG=1\" true", "env C=\"$LONG\" printenv C | wc -c"]),
    ("test", &["test \"$LONG\" = \"$LONG\"", "test $BIG -gt $HUGE", "test $(printf '! %.0s' {1..10000}) x"]),
    ("[", &["[ $(printf '( %.0s' {1..5000}) x $(printf ') %.0s' {1..5000}) ]"]),
    ("python", &["python -c 'x = \"a\" * 10**10'", "python -c 'while True: pass'", "python -c 'def f(): f()\nf()'"]),
    ("python3", &["python3 -c 'print(2**(10**8))'", "python3 -c 'x = [0] * 10**10'"]),
    ("eval", &["eval \"$(printf ': $((1));%.0s' {1..50000})\"", "eval \"$(yes 'echo;' | head -c 2000000)\""]),
    ("source", &["printf ': a;%.0s' {1..100000} > s; source s", "echo 'source s' > s; source s"]),
    (".", &["echo '. s' > s; . s"]),
    ("read", &["read -r x < line; echo ${#x}", "read -N $BIG x < lines", "read -a arr < line; echo ${#arr[@]}", "read -d '' x < nul"]),
    ("mapfile", &["mapfile -t a < lines; echo ${#a[@]}", "mapfile -n $BIG -t a < line; echo ${#a[0]}", "mapfile -d '' a < nul; echo ${#a[@]}"]),
    ("readarray", &["readarray -t a < lines; echo ${#a[@]}"]),
    ("printf", &["printf -v x \"%${BIG}s\" 1"]),
    ("declare", &["declare -a a=($(seq 100000)); echo ${#a[@]}", "declare -A m; for i in {1..100000}; do m[$i]=$i; done"]),
    ("let", &["let \"x = $BIG * $BIG\"", "let \"$(printf 'x+=1,%.0s' {1..100000})x\""]),
    ("trap", &["trap \"$LONG\" EXIT", "trap 'trap - EXIT; eval \"$LONG\"' EXIT"]),
    ("alias", &["shopt -s expand_aliases; alias a='b;b;b;b;b;b;b;b' b='c;c;c;c;c;c;c;c' c='d;d;d;d;d;d;d;d' d='e;e;e;e;e;e;e;e' e='f;f;f;f;f;f;f;f' f=:\na", "alias x=\"$LONG\"; alias | wc -c"]),
    ("bash", &["bash -c \"$(printf 'a;%.0s' {1..200000})\"", "bash -c 'bash -c \"bash -c :\"'", "f() { bash -c f; }; export -f f; f"]),
    ("sh", &["sh -c \"$(printf ': a;%.0s' {1..200000})\""]),
    ("getopts", &["while getopts \"${LONG:0:10000}\" o -a -b; do :; done"]),
    ("history", &["history -s \"$LONG\"; history | wc -c"]),
    ("fc", &["fc -l", "fc -s"]),
    ("complete", &["complete -W \"$LONG\" x; compgen -W \"$LONG\" a | wc -l"]),
    ("compgen", &["compgen -W \"$(seq 100000)\" 1 | wc -l", "compgen -c | wc -l"]),
    ("cd", &["cd deep/$(printf 'd/%.0s' {1..9}); pwd", "cd \"$LONG\""]),
    ("pushd", &["for i in {1..10000}; do pushd . >/dev/null; done; dirs | wc -c"]),
    ("set", &["set -- $(seq 100000); echo $#", "set -o \"$LONG\""]),
    ("shift", &["set -- 1 2 3; shift $BIG", "shift $HUGE"]),
    ("exec", &["exec {fd}>f; echo $fd"]),
    ("ulimit", &["ulimit -n $BIG", "ulimit -a"]),
    ("kill", &["sleep 10 & kill %1; wait", "kill -$BIG 1"]),
    ("wait", &["for i in {1..200}; do : & done; wait", "wait -n"]),
    ("curl", &["curl -s http://127.0.0.1:1/", "curl -s \"http://$LONG/\""]),
    ("wget", &["wget -q -O- http://127.0.0.1:1/"]),
    ("http", &["http GET http://127.0.0.1:1/"]),
    ("select", &["select x in $(seq 1000); do break; done < lines"]),
    ("__select", &["__select x -- a b < lines"]),
    ("__syntax_error", &["__syntax_error \"$LONG\""]),
];

/// Commands whose generic shapes are all the work they can be made to do.
pub const GENERIC_ONLY: &[&str] = &[
    ":",
    "true",
    "false",
    "arch",
    "basename",
    "dirname",
    "chmod",
    "chown",
    "df",
    "echo",
    "file",
    "getconf",
    "groups",
    "host",
    "hostname",
    "id",
    "install",
    "link",
    "logname",
    "mktemp",
    "nice",
    "nohup",
    "nproc",
    "pager",
    "less",
    "more",
    "pathchk",
    "printenv",
    "ps",
    "pwd",
    "rmdir",
    "stdbuf",
    "sum",
    "sync",
    "tput",
    "tty",
    "uname",
    "unlink",
    "uptime",
    "users",
    "which",
    "who",
    "whoami",
    "sha1sum",
    "sha224sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "egrep",
    "fgrep",
    "gunzip",
    "zcat",
    "unexpand",
    "alias",
    "unalias",
    "bg",
    "fg",
    "jobs",
    "disown",
    "suspend",
    "bind",
    "break",
    "continue",
    "builtin",
    "caller",
    "command",
    "type",
    "hash",
    "help",
    "dirs",
    "popd",
    "enable",
    "exit",
    "logout",
    "return",
    "export",
    "readonly",
    "local",
    "typeset",
    "unset",
    "shopt",
    "times",
    "umask",
    "coproc",
    "echo",
    "__stuck",
    "vdir",
    "dir",
    "sha256sum",
    "md5sum",
    "chgrp",
    "clear",
    "compopt",
    "gawk",
    "mac2unix",
    "realpath",
    "unix2dos",
    "unix2mac",
];

/// Every name of the table: utilities, builtins (internal ones too: a
/// script can name them).
pub fn all_names() -> Vec<String> {
    let mut v: Vec<String> = sandbash::commands::default_registry().names().map(str::to_string).collect();
    v.extend(sandbash::builtins::all().iter().map(|b| b.name.to_string()));
    v.sort();
    v.dedup();
    v
}

/// The scripts of command `name` at size `n`.
pub fn scripts(name: &str, n: usize) -> Vec<String> {
    let pre = prelude(n);
    let mut out: Vec<String> = GENERIC.iter().map(|g| format!("{pre}{}", g.replace('C', &quote_name(name)))).collect();
    for (_, own) in OWN.iter().filter(|(c, _)| *c == name) {
        out.extend(own.iter().map(|s| format!("{pre}{s}")));
    }
    out
}

fn quote_name(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        name.to_string()
    } else {
        format!("'{name}'")
    }
}

/// Panics seen anywhere in the process (caught or not): a panic is a bug
/// even when the interpreter turns it into an error.
pub static PANICS: AtomicU64 = AtomicU64::new(0);

/// Count panics from now on (once per process).
pub fn count_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // A test's own failed assertion is not the interpreter's panic.
            if !info.location().is_some_and(|l| l.file().contains("tests/")) {
                PANICS.fetch_add(1, Ordering::SeqCst);
            }
            prev(info);
        }));
    });
}

/// One run's measures.
pub struct Run {
    pub script: String,
    pub elapsed: Duration,
    pub peak: u64,
    pub outcome: Result<i32, String>,
    pub usable: bool,
}

/// The limits of a run: a short timeout, a small budget, and generous
/// counts (the timeout and the budget are what is under test).
pub fn limits(timeout_ms: u64, budget: u64) -> Limits {
    Limits {
        timeout_ms,
        max_memory_bytes: budget,
        max_commands: 1_000_000,
        max_loop_iterations: 10_000_000,
        max_total_loop_iterations: 10_000_000,
        ..Limits::default()
    }
}

/// Run `script` in a fresh session holding `files`, then `echo ok` in it.
pub fn run(script: &str, files: &[(String, Vec<u8>)], limits: Limits) -> Run {
    if std::env::var_os("TABLE_TRACE").is_some() {
        eprintln!("table: {}", script.lines().skip(2).collect::<Vec<_>>().join("; "));
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let mut b = Bash::builder().limits(limits).python(vec!["python".into(), "python3".into()]);
        for (p, c) in files {
            b = b.file(p.clone(), c.clone());
        }
        let mut bash = b.build().expect("build");
        bash.memory_account().reset_peak();
        let start = Instant::now();
        let r = bash.exec_with(script, ExecOptions::default()).await;
        let elapsed = start.elapsed();
        let peak = bash.memory_account().peak();
        let outcome = match r {
            Ok(r) => Ok(r.exit_code),
            Err(Error::Stopped { reason, .. }) => Err(reason.to_string()),
            Err(e) => Err(format!("{e}")),
        };
        let usable = matches!(bash.exec("echo ok").await, Ok(r) if r.stdout == b"ok\n");
        Run { script: script.to_string(), elapsed, peak, outcome, usable }
    })
}
