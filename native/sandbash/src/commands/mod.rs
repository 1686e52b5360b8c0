//! Utilities a script can run (cat, grep, sort, ...), one module each, behind the
//! [`Command`] trait, plus the [`Registry`] that maps names to them. Builtins that
//! change shell state (cd, export, read, ...) live in `crate::builtins` instead.

pub mod host;
pub mod python;
pub mod run_util;
pub mod util;

use crate::fs::Fs;
use crate::io::{Input, IoError, Output};
use crate::limits::Budget;
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// What a running command sees of the shell's variables.
pub trait EnvView: Send + Sync {
    /// A variable's value (exported or not).
    fn get(&self, name: &str) -> Option<String>;
    /// The exported variables, sorted by name (what `env` prints).
    fn exported(&self) -> Vec<(String, String)>;
}

/// Fixed facts about the sandbox's "machine".
#[derive(Clone, Debug)]
pub struct SysInfo {
    pub username: String,
    pub hostname: String,
    /// Who curl, wget and http may reach (nobody by default).
    pub net: crate::net::Policy,
    /// Names the Python interpreter answers to (`python`, `python3`); none by default.
    pub python: Vec<String>,
    /// CPython, when the session was given its runtime (else Monty runs).
    pub python_runtime: Option<Arc<python::Runtime>>,
}

/// The Python interpreter, if the session enabled it under `name`.
pub fn python_command(sys: &SysInfo, name: &str) -> Option<Arc<dyn Command>> {
    sys.python.iter().any(|n| n == name).then(|| python::command(sys.python_runtime.as_ref()))
}

/// Everything one command invocation gets.
pub struct CommandContext<'a> {
    /// The name it was invoked by (argv[0]).
    pub name: &'a str,
    /// The arguments after the name.
    pub args: &'a [String],
    pub stdin: Input,
    pub stdout: Output,
    pub stderr: Output,
    /// Absolute working directory.
    pub cwd: &'a str,
    pub env: &'a dyn EnvView,
    pub fs: &'a Arc<dyn Fs>,
    pub sys: &'a SysInfo,
    pub budget: &'a Budget,
    /// Script line of the command (for `bash: line N:` messages of builtins).
    pub line: usize,
    /// The shell that ran the command, so `xargs sh -c ...`, `find -exec bash ...`
    /// can start a child shell of it (`None` where no shell is around, as in unit tests).
    pub shell: Option<&'a crate::state::ShellState>,
}

/// The result of a command: its exit status, or an I/O failure that ends it
/// (a broken pipe becomes status 141; an output-limit error ends the exec).
pub type CommandResult = Result<i32, IoError>;

/// A utility. Implementations are stateless unit structs registered by name.
#[async_trait]
pub trait Command: Send + Sync {
    async fn run(&self, ctx: &mut CommandContext<'_>) -> CommandResult;
}

/// Name -> implementation.
#[derive(Clone, Default)]
pub struct Registry {
    map: HashMap<String, Arc<dyn Command>>,
}

impl Registry {
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Command>> {
        self.map.get(name)
    }
    pub fn insert(&mut self, name: impl Into<String>, cmd: Arc<dyn Command>) {
        self.map.insert(name.into(), cmd);
    }
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }
}

/// The built-in utilities, built once per process from the table below.
pub fn default_registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut r = Registry::default();
        for (name, cmd) in utility_table() {
            r.insert(name, cmd);
        }
        r
    })
}

/// The names of the built-in utilities, in the order of the table.
pub fn utility_names() -> impl Iterator<Item = &'static str> {
    UTILITIES.iter().map(|u| u.name)
}

/// One row of the utility table.
pub struct Utility {
    /// The name a script runs it by.
    pub name: &'static str,
    /// The "Written by" part of its GNU coreutils 9.1 `--version`, for a coreutil.
    pub authors: Option<&'static str>,
}

/// Declares every utility in one place: `module ("name", Implementation[, "coreutils
/// authors"])...`. It generates the `mod` lines, [`UTILITIES`] (names and authors) and
/// the constructors [`default_registry`] is built from; a module may answer to several
/// names. The implementation is an expression evaluated inside its module.
macro_rules! utilities {
    ($( $module:ident $( ($name:literal, $cmd:expr $(, $authors:literal)?) )+ )*) => {
        $( mod $module; )*

        /// Every built-in utility, in the order of the table.
        pub static UTILITIES: &[Utility] = &[
            $( $( Utility { name: $name, authors: utilities!(@opt $($authors)?) }, )+ )*
        ];

        fn utility_table() -> Vec<(&'static str, Arc<dyn Command>)> {
            vec![
                $( $( ($name, {
                    #[allow(unused_imports)]
                    use self::$module::*;
                    Arc::new($cmd) as Arc<dyn Command>
                }), )+ )*
            ]
        }
    };
    (@opt) => { None };
    (@opt $a:literal) => { Some($a) };
}

// Adding a utility: write `commands/NAME.rs` (or `commands/NAME/mod.rs` for one of several
// parts) with a unit struct implementing `util::Utility` (or [`Command`]), and give it a line here.
#[rustfmt::skip]
utilities! {
    arch       ("arch", Arch, "David MacKenzie and Karel Zak.")
    awk        ("awk", Awk)
               ("gawk", Awk)
    base32     ("base32", Base32)
    base64     ("base64", Base64)
    basename   ("basename", Basename, "David MacKenzie.")
    basenc     ("basenc", Basenc, "Simon Josefsson and Assaf Gordon.")
    bc         ("bc", Bc)
    cal        ("cal", Cal)
    cat        ("cat", Cat, "Torbjorn Granlund and Richard M. Stallman.")
    chmod      ("chmod", Chmod, "David MacKenzie and Jim Meyering.")
    chown      ("chown", Chown, "David MacKenzie and Jim Meyering.")
               ("chgrp", Chgrp, "David MacKenzie and Jim Meyering.")
    cksum      ("cksum", Cksum)
    cmp        ("cmp", Cmp)
    column     ("column", Column)
    comm       ("comm", Comm, "Richard M. Stallman and David MacKenzie.")
    cp         ("cp", Cp, "Torbjorn Granlund, David MacKenzie, and Jim Meyering.")
    csplit     ("csplit", Csplit, "Stuart Kemp and David MacKenzie.")
    curl       ("curl", Curl)
    cut        ("cut", Cut, "David M. Ihnat, David MacKenzie, and Jim Meyering.")
    date       ("date", Date, "David MacKenzie.")
    dc         ("dc", Dc)
    dd         ("dd", Dd, "Paul Rubin, David MacKenzie, and Stuart Kemp.")
    df         ("df", Df, "Torbjorn Granlund, David MacKenzie, and Paul Eggert.")
    diff       ("diff", Diff)
    dirname    ("dirname", Dirname, "David MacKenzie and Jim Meyering.")
    dos2unix   ("dos2unix", Dos2unix(Dir::DosToUnix))
               ("unix2dos", Dos2unix(Dir::UnixToDos))
               ("mac2unix", Dos2unix(Dir::MacToUnix))
               ("unix2mac", Dos2unix(Dir::UnixToMac))
    du         ("du", Du, "Torbjorn Granlund, David MacKenzie, Paul Eggert,\nand Jim Meyering.")
    echo       ("echo", Echo, "Brian Fox and Chet Ramey.")
    env        ("env", Env, "Richard Mlynarik, David MacKenzie, and Assaf Gordon.")
    envsubst   ("envsubst", Envsubst)
    expand     ("expand", Expand, "David MacKenzie.")
    expr       ("expr", Expr)
    factor     ("factor", Factor, "Paul Rubin, Torbj\u{f6}rn Granlund, and Niels M\u{f6}ller.")
    file       ("file", File)
    find       ("find", Find)
    fmt        ("fmt", Fmt, "Ross Paterson.")
    fold       ("fold", Fold, "David MacKenzie.")
    getconf    ("getconf", Getconf)
    grep       ("grep", Grep)
               ("egrep", GrepAs("-E"))
               ("fgrep", GrepAs("-F"))
    groups     ("groups", Groups, "David MacKenzie and James Youngman.")
    gzip       ("gzip", Gzip)
               ("gunzip", Gzip)
               ("zcat", Gzip)
    hashsum    ("md5sum", HashSum(Algo::Md5))
               ("sha1sum", HashSum(Algo::Sha1))
               ("sha224sum", HashSum(Algo::Sha224))
               ("sha256sum", HashSum(Algo::Sha256))
               ("sha384sum", HashSum(Algo::Sha384))
               ("sha512sum", HashSum(Algo::Sha512))
               ("b2sum", HashSum(Algo::Blake2b(64)), "Padraig Brady and Samuel Neves.")
    headtail   ("head", Head, "David MacKenzie and Jim Meyering.")
               ("tail", Tail, "Paul Rubin, David MacKenzie, Ian Lance Taylor,\nand Jim Meyering.")
    hexdump    ("hexdump", Hexdump)
    hostname   ("hostname", Hostname)
    http       ("http", Http)
    iconv      ("iconv", Iconv)
    id         ("id", Id, "Arnold Robbins and David MacKenzie.")
    install    ("install", Install, "David MacKenzie.")
    join       ("join", Join, "Mike Haertel.")
    jq         ("jq", Jq)
    kill       ("kill", Kill)
    link       ("link", Link, "Michael Stone.")
    ln         ("ln", Ln, "Mike Parker and David MacKenzie.")
    logname    ("logname", Logname, "FIXME: unknown.")
    ls         ("ls", Ls, "Richard M. Stallman and David MacKenzie.")
    mkdir      ("mkdir", Mkdir, "David MacKenzie.")
    mktemp     ("mktemp", Mktemp, "Jim Meyering and Eric Blake.")
    mv         ("mv", Mv, "Mike Parker, David MacKenzie, and Jim Meyering.")
    nice       ("nice", Nice, "David MacKenzie.")
    nl         ("nl", Nl, "Scott Bartram and David MacKenzie.")
    nohup      ("nohup", Nohup, "Jim Meyering.")
    nproc      ("nproc", Nproc, "Giuseppe Scrivano.")
    numfmt     ("numfmt", Numfmt)
    od         ("od", Od)
    pager      ("less", Less)
               ("more", More)
    paste      ("paste", Paste, "David M. Ihnat and David MacKenzie.")
    patch      ("patch", Patch)
    pathchk    ("pathchk", Pathchk, "Paul Eggert, David MacKenzie, and Jim Meyering.")
    pr         ("pr", Pr, "Pete TerMaat and Roland Huebner.")
    printenv   ("printenv", Printenv, "David MacKenzie and Richard Mlynarik.")
    printf     ("printf", Printf)
    ps         ("ps", Ps)
    pwd        ("pwd", Pwd, "Jim Meyering.")
    readlink   ("readlink", Readlink, "Dmitry V. Levin.")
               ("realpath", Realpath, "Padraig Brady.")
    rev        ("rev", Rev)
    rm         ("rm", Rm, "Paul Rubin, David MacKenzie, Richard M. Stallman,\nand Jim Meyering.")
    rmdir      ("rmdir", Rmdir, "David MacKenzie.")
    sed        ("sed", Sed)
    seq        ("seq", Seq, "Ulrich Drepper.")
    shred      ("shred", Shred, "Colin Plumb.")
    shuf       ("shuf", Shuf)
    sleep      ("sleep", Sleep, "Jim Meyering and Paul Eggert.")
    sort       ("sort", Sort, "Mike Haertel and Paul Eggert.")
    split      ("split", Split, "Torbjorn Granlund and Richard M. Stallman.")
    stat       ("stat", Stat, "Michael Meskes.")
    stdbuf     ("stdbuf", Stdbuf, "Padraig Brady.")
    strings    ("strings", Strings)
    sum        ("sum", Sum)
    sync       ("sync", Sync, "Jim Meyering and Giuseppe Scrivano.")
    tac        ("tac", Tac, "Jay Lepreau and David MacKenzie.")
    tar        ("tar", Tar)
    tee        ("tee", Tee, "Mike Parker, Richard M. Stallman, and David MacKenzie.")
    test       ("test", Test)
               ("[", Test, "Kevin Braunsdorf and Matthew Bradburn.")
    timeout    ("timeout", Timeout, "Padraig Brady.")
    touch      ("touch", Touch, "Paul Rubin, Arnold Robbins, Jim Kingdon,\nDavid MacKenzie, and Randy Smith.")
    tput       ("tput", Tput)
               ("clear", Clear)
    tr         ("tr", Tr, "Jim Meyering.")
    tree       ("tree", Tree)
    true_false ("true", True, "Jim Meyering.")
               ("false", False, "Jim Meyering.")
    truncate   ("truncate", Truncate, "Padraig Brady.")
    tsort      ("tsort", Tsort, "Mark Kettenis.")
    tty        ("tty", Tty, "David MacKenzie.")
    uname      ("uname", Uname, "David MacKenzie.")
    unexpand   ("unexpand", Unexpand, "David MacKenzie.")
    uniq       ("uniq", Uniq, "Richard M. Stallman and David MacKenzie.")
    unlink     ("unlink", Unlink, "Michael Stone.")
    uptime     ("uptime", Uptime)
    users      ("users", Users, "Joseph Arceneaux and David MacKenzie.")
    watch      ("watch", Watch)
    wc         ("wc", Wc, "Paul Rubin and David MacKenzie.")
    wget       ("wget", Wget)
    which      ("which", Which)
    who        ("who", Who, "Joseph Arceneaux, David MacKenzie, and Michael Stone.")
    whoami     ("whoami", Whoami, "Richard Mlynarik.")
    xargs      ("xargs", Xargs)
    xxd        ("xxd", Xxd)
    yes        ("yes", Yes, "David MacKenzie.")
    zip        ("zip", Zip)
               ("unzip", Unzip)
}

/// printf's formatting, for the `printf -v` builtin (see `builtins::echo`).
pub(crate) use printf::format_in as format_printf;
