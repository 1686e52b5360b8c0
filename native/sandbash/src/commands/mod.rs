//! Utilities a script can run (cat, grep, sort, ...), one module each, behind the
//! [`Command`] trait, plus the [`Registry`] that maps names to them. Builtins that
//! change shell state (cd, export, read, ...) live in `crate::builtins` instead.

pub mod common;
pub mod line_reader;
#[cfg(test)]
pub(crate) mod testutil;

mod arch;
mod awk;
mod base32;
mod base64;
mod basename;
mod basenc;
mod bc;
mod bc_num;
mod bignum;
mod cal;
mod cat;
mod chmod;
mod chown;
mod cksum;
mod cmp;
mod column;
mod comm;
mod cp;
mod csplit;
mod curl;
mod cut;
mod date;
mod date_fmt;
mod date_parse;
mod dc;
mod dd;
mod df;
mod diff;
mod diff_seq;
mod dirname;
mod dos2unix;
mod du;
mod echo;
mod egrep;
mod env;
mod envsubst;
mod expand;
mod expr;
mod factor;
mod file;
mod file_mode;
mod file_time;
mod file_util;
mod find;
mod find_parse;
mod find_printf;
mod fmt;
mod fold;
mod getconf;
mod grep;
mod grep_re;
mod grep_scan;
mod groups;
mod gzip;
mod gzip_codec;
mod hashsum;
mod head;
mod headtail;
mod hexdump;
mod hexdump_fmt;
pub mod host;
mod hostname;
mod http;
mod iconv;
mod id;
mod install;
mod join;
mod jq;
mod jq_funs;
mod jq_json;
mod jq_regex;
mod jq_run;
mod jq_val;
mod kill;
mod ldouble;
mod link;
mod ln;
mod logname;
mod ls;
mod ls_quote;
mod mkdir;
mod mktemp;
mod mv;
mod net_util;
mod nice;
mod nl;
mod nohup;
mod nproc;
mod numfmt;
mod od;
mod pager;
mod paste;
mod patch;
mod patch_parse;
mod pathchk;
mod posix_regex;
mod pr;
mod printenv;
mod printf;
mod ps;
mod pwd;
mod python;
mod python_os;
#[cfg(test)]
mod python_tests;
mod python_vm;
mod readlink;
mod rev;
mod rm;
mod rmdir;
pub mod run_util;
mod sed;
mod sed_exec;
mod sed_parse;
mod seq;
mod shred;
mod shuf;
mod sleep;
mod sort;
mod sort_cmp;
mod split;
mod stat;
mod stdbuf;
mod strings;
mod sum;
mod sync;
mod tac;
mod tail;
mod tar;
mod tee;
mod test;
pub(crate) mod timefmt;
mod timeout;
mod touch;
mod tput;
mod tr;
mod tree;
mod true_false;
mod truncate;
mod tsort;
mod tty;
mod uname;
mod unexpand;
mod uniq;
mod unlink;
mod unzip;
mod uptime;
mod users;
mod watch;
mod wc;
mod wget;
mod which;
mod who;
mod whoami;
mod xargs;
mod xxd;
mod yes;
mod zip;
mod zip_format;

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
}

/// The Python interpreter, if the session enabled it under `name`.
pub fn python_command(sys: &SysInfo, name: &str) -> Option<Arc<dyn Command>> {
    sys.python.iter().any(|n| n == name).then(|| Arc::new(python::Python) as Arc<dyn Command>)
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

/// The built-in utilities, built once per process.
pub fn default_registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut r = Registry::default();
        let all: Vec<(&str, Arc<dyn Command>)> = vec![
            ("awk", Arc::new(awk::Awk)),
            ("gawk", Arc::new(awk::Awk)),
            ("basename", Arc::new(basename::Basename)),
            ("hexdump", Arc::new(hexdump::Hexdump)),
            ("numfmt", Arc::new(numfmt::Numfmt)),
            ("shuf", Arc::new(shuf::Shuf)),
            ("bc", Arc::new(bc::Bc)),
            ("od", Arc::new(od::Od)),
            ("xxd", Arc::new(xxd::Xxd)),
            ("expr", Arc::new(expr::Expr)),
            ("cksum", Arc::new(cksum::Cksum)),
            ("sum", Arc::new(sum::Sum)),
            ("md5sum", Arc::new(hashsum::HashSum(hashsum::Algo::Md5))),
            ("sha1sum", Arc::new(hashsum::HashSum(hashsum::Algo::Sha1))),
            ("sha224sum", Arc::new(hashsum::HashSum(hashsum::Algo::Sha224))),
            ("sha256sum", Arc::new(hashsum::HashSum(hashsum::Algo::Sha256))),
            ("sha384sum", Arc::new(hashsum::HashSum(hashsum::Algo::Sha384))),
            ("sha512sum", Arc::new(hashsum::HashSum(hashsum::Algo::Sha512))),
            ("base64", Arc::new(base64::Base64)),
            ("base32", Arc::new(base32::Base32)),
            ("cat", Arc::new(cat::Cat)),
            ("jq", Arc::new(jq::Jq)),
            ("cal", Arc::new(cal::Cal)),
            ("sort", Arc::new(sort::Sort)),
            ("uniq", Arc::new(uniq::Uniq)),
            ("unexpand", Arc::new(unexpand::Unexpand)),
            ("grep", Arc::new(grep::Grep)),
            ("env", Arc::new(env::Env)),
            ("printenv", Arc::new(printenv::Printenv)),
            ("whoami", Arc::new(whoami::Whoami)),
            ("hostname", Arc::new(hostname::Hostname)),
            ("iconv", Arc::new(iconv::Iconv)),
            ("sleep", Arc::new(sleep::Sleep)),
            ("dirname", Arc::new(dirname::Dirname)),
            ("chmod", Arc::new(chmod::Chmod)),
            ("cp", Arc::new(cp::Cp)),
            ("ln", Arc::new(ln::Ln)),
            ("join", Arc::new(join::Join)),
            ("ls", Arc::new(ls::Ls)),
            ("mkdir", Arc::new(mkdir::Mkdir)),
            ("mv", Arc::new(mv::Mv)),
            ("readlink", Arc::new(readlink::Readlink)),
            ("realpath", Arc::new(readlink::Realpath)),
            ("rm", Arc::new(rm::Rm)),
            ("rmdir", Arc::new(rmdir::Rmdir)),
            ("stat", Arc::new(stat::Stat)),
            ("touch", Arc::new(touch::Touch)),
            ("tee", Arc::new(tee::Tee)),
            ("tar", Arc::new(tar::Tar)),
            ("rev", Arc::new(rev::Rev)),
            ("tac", Arc::new(tac::Tac)),
            ("strings", Arc::new(strings::Strings)),
            ("paste", Arc::new(paste::Paste)),
            ("comm", Arc::new(comm::Comm)),
            ("column", Arc::new(column::Column)),
            ("fold", Arc::new(fold::Fold)),
            ("fmt", Arc::new(fmt::Fmt)),
            ("expand", Arc::new(expand::Expand)),
            ("nl", Arc::new(nl::Nl)),
            ("printf", Arc::new(printf::Printf)),
            ("cut", Arc::new(cut::Cut)),
            ("curl", Arc::new(curl::Curl)),
            ("wget", Arc::new(wget::Wget)),
            ("ps", Arc::new(ps::Ps)),
            ("http", Arc::new(http::Http)),
            ("gzip", Arc::new(gzip::Gzip)),
            ("gunzip", Arc::new(gzip::Gzip)),
            ("zcat", Arc::new(gzip::Gzip)),
            ("date", Arc::new(date::Date)),
            ("head", Arc::new(head::Head)),
            ("seq", Arc::new(seq::Seq)),
            ("tail", Arc::new(tail::Tail)),
            ("tr", Arc::new(tr::Tr)),
            ("wc", Arc::new(wc::Wc)),
            ("yes", Arc::new(yes::Yes)),
            // Builtins that real systems also have as binaries, for env/xargs/find/timeout.
            ("echo", Arc::new(echo::Echo)),
            ("true", Arc::new(true_false::True)),
            ("false", Arc::new(true_false::False)),
            ("test", Arc::new(test::Test)),
            ("[", Arc::new(test::Test)),
            ("pwd", Arc::new(pwd::Pwd)),
            ("kill", Arc::new(kill::Kill)),
            ("find", Arc::new(find::Find)),
            ("xargs", Arc::new(xargs::Xargs)),
            ("timeout", Arc::new(timeout::Timeout)),
            ("which", Arc::new(which::Which)),
            ("nproc", Arc::new(nproc::Nproc)),
            ("uname", Arc::new(uname::Uname)),
            ("id", Arc::new(id::Id)),
            ("logname", Arc::new(logname::Logname)),
            ("watch", Arc::new(watch::Watch)),
            ("uptime", Arc::new(uptime::Uptime)),
            ("tty", Arc::new(tty::Tty)),
            ("tput", Arc::new(tput::Tput)),
            ("clear", Arc::new(tput::Clear)),
            ("less", Arc::new(pager::Less)),
            ("more", Arc::new(pager::More)),
            ("du", Arc::new(du::Du)),
            ("df", Arc::new(df::Df)),
            ("mktemp", Arc::new(mktemp::Mktemp)),
            ("truncate", Arc::new(truncate::Truncate)),
            ("split", Arc::new(split::Split)),
            ("install", Arc::new(install::Install)),
            ("chown", Arc::new(chown::Chown)),
            ("chgrp", Arc::new(chown::Chgrp)),
            ("file", Arc::new(file::File)),
            ("tree", Arc::new(tree::Tree)),
            ("sed", Arc::new(sed::Sed)),
            ("diff", Arc::new(diff::Diff)),
            ("cmp", Arc::new(cmp::Cmp)),
            ("arch", Arc::new(arch::Arch)),
            ("egrep", Arc::new(egrep::GrepAs("-E"))),
            ("fgrep", Arc::new(egrep::GrepAs("-F"))),
            ("groups", Arc::new(groups::Groups)),
            ("link", Arc::new(link::Link)),
            ("unlink", Arc::new(unlink::Unlink)),
            ("nice", Arc::new(nice::Nice)),
            ("nohup", Arc::new(nohup::Nohup)),
            ("stdbuf", Arc::new(stdbuf::Stdbuf)),
            ("sync", Arc::new(sync::Sync)),
            ("users", Arc::new(users::Users)),
            ("who", Arc::new(who::Who)),
            ("envsubst", Arc::new(envsubst::Envsubst)),
            ("factor", Arc::new(factor::Factor)),
            ("getconf", Arc::new(getconf::Getconf)),
            ("pathchk", Arc::new(pathchk::Pathchk)),
            ("tsort", Arc::new(tsort::Tsort)),
            ("dc", Arc::new(dc::Dc)),
            ("dos2unix", Arc::new(dos2unix::Dos2unix(dos2unix::Dir::DosToUnix))),
            ("unix2dos", Arc::new(dos2unix::Dos2unix(dos2unix::Dir::UnixToDos))),
            ("mac2unix", Arc::new(dos2unix::Dos2unix(dos2unix::Dir::MacToUnix))),
            ("unix2mac", Arc::new(dos2unix::Dos2unix(dos2unix::Dir::UnixToMac))),
            ("shred", Arc::new(shred::Shred)),
            ("basenc", Arc::new(basenc::Basenc)),
            ("b2sum", Arc::new(hashsum::HashSum(hashsum::Algo::Blake2b(64)))),
            ("zip", Arc::new(zip::Zip)),
            ("dd", Arc::new(dd::Dd)),
            ("csplit", Arc::new(csplit::Csplit)),
            ("pr", Arc::new(pr::Pr)),
            ("patch", Arc::new(patch::Patch)),
            ("unzip", Arc::new(unzip::Unzip)),
        ];
        for (name, cmd) in all {
            r.insert(name, cmd);
        }
        r
    })
}
