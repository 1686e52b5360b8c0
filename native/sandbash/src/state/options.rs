//! `set -o` / `shopt` options: every name bash 5.2 knows, with bash's defaults
//! for a non-interactive `bash -c`. The options that change how a script runs
//! are fields; the rest are accepted, listed and kept, with no effect here
//! (they concern terminals, history, completion or job control).

/// The `set -o` names in `set -o`'s order, with their single letters.
const SET_NAMES: [(&str, Option<char>); 27] = [
    ("allexport", Some('a')),
    ("braceexpand", Some('B')),
    ("emacs", None),
    ("errexit", Some('e')),
    ("errtrace", Some('E')),
    ("functrace", Some('T')),
    ("hashall", Some('h')),
    ("histexpand", Some('H')),
    ("history", None),
    ("ignoreeof", None),
    ("interactive-comments", None),
    ("keyword", Some('k')),
    ("monitor", Some('m')),
    ("noclobber", Some('C')),
    ("noexec", Some('n')),
    ("noglob", Some('f')),
    ("nolog", None),
    ("notify", Some('b')),
    ("nounset", Some('u')),
    ("onecmd", Some('t')),
    ("physical", Some('P')),
    ("pipefail", None),
    ("posix", None),
    ("privileged", Some('p')),
    ("verbose", Some('v')),
    ("vi", None),
    ("xtrace", Some('x')),
];

/// `$-` lists the letters in this order (bash's flags table), then `c`.
const FLAG_ORDER: &str = "abefhkmnptuvxBCEHPT";

/// The `shopt` names of bash 5.2, in `shopt`'s order.
pub const SHOPT_NAMES: [&str; 57] = [
    "autocd",
    "assoc_expand_once",
    "cdable_vars",
    "cdspell",
    "checkhash",
    "checkjobs",
    "checkwinsize",
    "cmdhist",
    "compat31",
    "compat32",
    "compat40",
    "compat41",
    "compat42",
    "compat43",
    "compat44",
    "complete_fullquote",
    "direxpand",
    "dirspell",
    "dotglob",
    "execfail",
    "expand_aliases",
    "extdebug",
    "extglob",
    "extquote",
    "failglob",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "globstar",
    "gnu_errfmt",
    "histappend",
    "histreedit",
    "histverify",
    "hostcomplete",
    "huponexit",
    "inherit_errexit",
    "interactive_comments",
    "lastpipe",
    "lithist",
    "localvar_inherit",
    "localvar_unset",
    "login_shell",
    "mailwarn",
    "no_empty_cmd_completion",
    "nocaseglob",
    "nocasematch",
    "noexpand_translation",
    "nullglob",
    "patsub_replacement",
    "progcomp",
    "progcomp_alias",
    "promptvars",
    "restricted_shell",
    "shift_verbose",
    "sourcepath",
    "varredir_close",
    "xpg_echo",
];

/// Options that are on in a fresh `bash -c` and have no field of their own.
const INERT_ON_BY_DEFAULT: [&str; 12] = [
    "hashall",
    "interactive-comments",
    "checkwinsize",
    "cmdhist",
    "complete_fullquote",
    "extquote",
    "force_fignore",
    "globasciiranges",
    "hostcomplete",
    "interactive_comments",
    "progcomp",
    "promptvars",
];

/// Shell options that change how scripts run.
#[derive(Clone, Debug)]
pub struct Options {
    /// `set -e`
    pub errexit: bool,
    /// `set -u`
    pub nounset: bool,
    /// `set -o pipefail`
    pub pipefail: bool,
    /// `set -x`
    pub xtrace: bool,
    /// `set -f`
    pub noglob: bool,
    /// `set -C`
    pub noclobber: bool,
    /// `set -a`: assignments export
    pub allexport: bool,
    /// `set -E`: functions and subshells inherit the ERR trap
    pub errtrace: bool,
    /// `set -T`: functions inherit the DEBUG and RETURN traps
    pub functrace: bool,
    /// `shopt -s extdebug`: the DEBUG trap can skip commands; sets -E and -T
    pub extdebug: bool,
    /// `set -B` (on): brace expansion
    pub braceexpand: bool,
    /// `set -n`: read commands without running them
    pub noexec: bool,
    /// `shopt -s nullglob`
    pub nullglob: bool,
    /// `shopt -s dotglob`
    pub dotglob: bool,
    /// `shopt -s failglob`
    pub failglob: bool,
    /// `shopt -s nocaseglob`
    pub nocaseglob: bool,
    /// `shopt -s extglob`
    pub extglob: bool,
    /// `shopt -s globstar`
    pub globstar: bool,
    /// `shopt -s expand_aliases` (off in `bash -c`)
    pub expand_aliases: bool,
    /// `shopt -s lastpipe`: the last stage of a pipeline runs in this shell
    pub lastpipe: bool,
    /// `shopt -s nocasematch`: `case` and `[[ == =~ ]]` ignore case
    pub nocasematch: bool,
    /// `shopt -s inherit_errexit`: `$( )` keeps `set -e`
    pub inherit_errexit: bool,
    /// `shopt -s xpg_echo`: `echo` expands backslash escapes
    pub xpg_echo: bool,
    /// `shopt -s patsub_replacement` (on): `&` in `${x/p/r}` is the match
    pub patsub_replacement: bool,
    /// `shopt -s globskipdots` (on): globs never match `.` and `..`
    pub globskipdots: bool,
    /// `shopt -s localvar_inherit`: `local x` starts with the outer value
    pub localvar_inherit: bool,
    /// `shopt -s shift_verbose`: `shift` past the end says so
    pub shift_verbose: bool,
    /// `shopt -s sourcepath` (on): `source name` searches PATH
    pub sourcepath: bool,
    /// The options with no effect here that are on, by name (kept so that
    /// listings and snapshots show what the script set).
    inert: Vec<&'static str>,
    /// Where the shell reads its commands, the last letter of `$-`: `c` for
    /// a string (`bash -c`, every exec of a session), `s` for standard
    /// input, none for a script file.
    pub input: Option<char>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            errexit: false,
            nounset: false,
            pipefail: false,
            xtrace: false,
            noglob: false,
            noclobber: false,
            allexport: false,
            errtrace: false,
            functrace: false,
            extdebug: false,
            braceexpand: true,
            noexec: false,
            nullglob: false,
            dotglob: false,
            failglob: false,
            nocaseglob: false,
            extglob: false,
            globstar: false,
            expand_aliases: false,
            lastpipe: false,
            nocasematch: false,
            inherit_errexit: false,
            xpg_echo: false,
            patsub_replacement: true,
            globskipdots: true,
            localvar_inherit: false,
            shift_verbose: false,
            sourcepath: true,
            inert: INERT_ON_BY_DEFAULT.to_vec(),
            input: Some('c'),
        }
    }
}

/// The options with a field of their own: their names and fields, once.
macro_rules! option_fields {
    ($($name:literal => $field:ident),* $(,)?) => {
        impl Options {
            /// The field behind an option with an effect; `None` for the inert ones.
            fn field(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $($name => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            fn field_value(&self, name: &str) -> Option<bool> {
                match name {
                    $($name => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

option_fields! {
    "errexit" => errexit,
    "nounset" => nounset,
    "pipefail" => pipefail,
    "xtrace" => xtrace,
    "noglob" => noglob,
    "noclobber" => noclobber,
    "allexport" => allexport,
    "errtrace" => errtrace,
    "functrace" => functrace,
    "extdebug" => extdebug,
    "braceexpand" => braceexpand,
    "noexec" => noexec,
    "nullglob" => nullglob,
    "dotglob" => dotglob,
    "failglob" => failglob,
    "nocaseglob" => nocaseglob,
    "extglob" => extglob,
    "globstar" => globstar,
    "expand_aliases" => expand_aliases,
    "lastpipe" => lastpipe,
    "nocasematch" => nocasematch,
    "inherit_errexit" => inherit_errexit,
    "xpg_echo" => xpg_echo,
    "patsub_replacement" => patsub_replacement,
    "globskipdots" => globskipdots,
    "localvar_inherit" => localvar_inherit,
    "shift_verbose" => shift_verbose,
    "sourcepath" => sourcepath,
}

/// Which kind of name an option has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `set -o` name.
    Set,
    /// A `shopt` name.
    Shopt,
}

impl Options {
    /// Whether bash has an option of this name and kind.
    pub fn exists(name: &str, kind: Kind) -> bool {
        Self::known(name, kind).is_some()
    }

    /// The canonical `&'static` name of an option of this kind, if bash knows it.
    fn known(name: &str, kind: Kind) -> Option<&'static str> {
        match kind {
            Kind::Set => SET_NAMES.iter().map(|(n, _)| *n).find(|n| *n == name),
            Kind::Shopt => SHOPT_NAMES.iter().copied().find(|n| *n == name),
        }
    }

    /// An option's value; `None` when bash has no such option of this kind.
    pub fn get(&self, name: &str, kind: Kind) -> Option<bool> {
        let name = Self::known(name, kind)?;
        Some(self.field_value(name).unwrap_or_else(|| self.inert.contains(&name)))
    }

    /// Set an option; `false` when bash has no such option of this kind.
    pub fn set(&mut self, name: &str, kind: Kind, on: bool) -> bool {
        let Some(name) = Self::known(name, kind) else { return false };
        // As bash's debugging mode, `extdebug` turns function and error tracing with it.
        if name == "extdebug" {
            self.functrace = on;
            self.errtrace = on;
        }
        match self.field(name) {
            Some(v) => *v = on,
            None => {
                self.inert.retain(|n| *n != name);
                if on {
                    self.inert.push(name);
                }
            }
        }
        true
    }

    /// `$-`: the single-letter options that are on, in bash's order.
    pub fn flags(&self) -> String {
        let mut s: String = FLAG_ORDER.chars().filter(|&c| self.flag(c) == Some(true)).collect();
        s.extend(self.input);
        s
    }

    /// A single-letter option's value; `None` for an unknown letter.
    pub fn flag(&self, letter: char) -> Option<bool> {
        let (name, _) = SET_NAMES.iter().find(|(_, c)| *c == Some(letter))?;
        self.get(name, Kind::Set)
    }

    /// Set a `set -X` flag; `false` when the letter is unknown.
    /// Whether `set -LETTER` names an option.
    pub fn is_flag(&self, letter: char) -> bool {
        SET_NAMES.iter().any(|(_, c)| *c == Some(letter))
    }

    pub fn set_flag(&mut self, letter: char, on: bool) -> bool {
        match SET_NAMES.iter().find(|(_, c)| *c == Some(letter)) {
            Some((name, _)) => self.set(name, Kind::Set, on),
            None => false,
        }
    }

    /// Set a `set -o NAME` option; `false` when the name is unknown.
    pub fn set_named(&mut self, name: &str, on: bool) -> bool {
        // `vi` and `emacs` exclude each other, as bash's editing modes do.
        let done = self.set(name, Kind::Set, on);
        if done && on && (name == "vi" || name == "emacs") {
            self.set(if name == "vi" { "emacs" } else { "vi" }, Kind::Set, false);
        }
        done
    }

    /// `set -o` listing pairs, in bash's order.
    pub fn named(&self) -> Vec<(&'static str, bool)> {
        SET_NAMES.iter().map(|(n, _)| (*n, self.get(n, Kind::Set).unwrap_or(false))).collect()
    }

    /// `$SHELLOPTS`: the `set -o` options that are on, `:`-separated.
    pub fn shellopts(&self) -> String {
        self.named().into_iter().filter(|(_, on)| *on).map(|(n, _)| n).collect::<Vec<_>>().join(":")
    }

    /// `$BASHOPTS`: the `shopt` options that are on, `:`-separated.
    pub fn bashopts(&self) -> String {
        self.shopts().into_iter().filter(|(_, on)| *on).map(|(n, _)| n).collect::<Vec<_>>().join(":")
    }

    /// `shopt` listing pairs, in bash's order.
    pub fn shopts(&self) -> Vec<(&'static str, bool)> {
        SHOPT_NAMES.iter().map(|n| (*n, self.get(n, Kind::Shopt).unwrap_or(false))).collect()
    }

    /// Every option as snapshots keep it: the names that are on, then `!name`
    /// for each option that is off although it is on in a fresh shell.
    pub fn to_saved(&self) -> Vec<String> {
        let fresh = Options::default();
        let mut on = Vec::new();
        let mut off = Vec::new();
        for (kind, list) in [(Kind::Set, self.named()), (Kind::Shopt, self.shopts())] {
            for (n, v) in list {
                if v {
                    on.push(n.to_string());
                } else if fresh.get(n, kind) == Some(true) {
                    off.push(format!("!{n}"));
                }
            }
        }
        on.extend(off);
        on
    }

    /// Apply one saved entry (`name` or `!name`) onto a fresh shell's options;
    /// `false` when the name is unknown.
    pub fn apply_saved(&mut self, entry: &str) -> bool {
        let (name, on) = match entry.strip_prefix('!') {
            Some(n) => (n, false),
            None => (entry, true),
        };
        self.set(name, Kind::Set, on) | self.set(name, Kind::Shopt, on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bash -c 'echo $-'` prints `hBc`; `set -eu` makes it `ehuBc`.
    #[test]
    fn flags_follow_bash_order() {
        let mut o = Options::default();
        assert_eq!(o.flags(), "hBc");
        o.set_flag('u', true);
        o.set_flag('e', true);
        o.set_flag('T', true);
        assert_eq!(o.flags(), "ehuBTc");
        o.input = None;
        assert_eq!(o.flags(), "ehuBT");
    }

    #[test]
    fn saved_options_round_trip() {
        let mut o = Options::default();
        o.set("patsub_replacement", Kind::Shopt, false);
        o.set("lastpipe", Kind::Shopt, true);
        o.set("nolog", Kind::Set, true);
        let saved = o.to_saved();
        assert!(saved.contains(&"!patsub_replacement".to_string()));
        let mut back = Options::default();
        for e in &saved {
            assert!(back.apply_saved(e), "{e}");
        }
        assert_eq!(back.named(), o.named());
        assert_eq!(back.shopts(), o.shopts());
    }
}
