//! `set -o` / `shopt` options.

/// Shell options that change how scripts run.
#[derive(Clone, Debug, Default)]
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
    /// `set -a`: assignments export
    pub allexport: bool,
    /// `set -E`: functions and subshells inherit the ERR trap
    pub errtrace: bool,
}

impl Options {
    /// `$-`: the single-letter options that are on.
    pub fn flags(&self) -> String {
        let mut s = String::new();
        if self.allexport {
            s.push('a');
        }
        if self.errexit {
            s.push('e');
        }
        if self.noglob {
            s.push('f');
        }
        s.push('h');
        if self.nounset {
            s.push('u');
        }
        if self.xtrace {
            s.push('x');
        }
        s.push('B');
        if self.noclobber {
            s.push('C');
        }
        if self.errtrace {
            s.push('E');
        }
        // Scripts run as `bash -c` runs its string.
        s.push('c');
        s
    }

    /// Set a `set -o NAME` option; `false` when the name is unknown.
    pub fn set_named(&mut self, name: &str, on: bool) -> bool {
        match name {
            "errexit" => self.errexit = on,
            "allexport" => self.allexport = on,
            "nounset" => self.nounset = on,
            "pipefail" => self.pipefail = on,
            "xtrace" => self.xtrace = on,
            "noglob" => self.noglob = on,
            "noclobber" => self.noclobber = on,
            "errtrace" => self.errtrace = on,
            _ => return false,
        }
        true
    }

    /// Set a `set -X` flag; `false` when the letter is unknown.
    pub fn set_flag(&mut self, flag: char, on: bool) -> bool {
        match flag {
            'e' => self.errexit = on,
            'a' => self.allexport = on,
            'u' => self.nounset = on,
            'x' => self.xtrace = on,
            'f' => self.noglob = on,
            'C' => self.noclobber = on,
            'E' => self.errtrace = on,
            'h' | 'B' | 'H' | 'm' | 'b' | 'v' | 'n' | 'k' | 'p' | 'P' | 'T' | 't' => {}
            _ => return false,
        }
        true
    }

    /// `set -o` listing pairs.
    pub fn named(&self) -> Vec<(&'static str, bool)> {
        vec![
            ("allexport", self.allexport),
            ("errexit", self.errexit),
            ("errtrace", self.errtrace),
            ("noclobber", self.noclobber),
            ("noglob", self.noglob),
            ("nounset", self.nounset),
            ("pipefail", self.pipefail),
            ("xtrace", self.xtrace),
        ]
    }

    /// Every option by name (`set -o` names, then `shopt` names), for snapshots:
    /// a new field belongs here too.
    pub fn all(&self) -> Vec<(&'static str, bool)> {
        let mut v = self.named();
        v.extend([
            ("nullglob", self.nullglob),
            ("dotglob", self.dotglob),
            ("failglob", self.failglob),
            ("nocaseglob", self.nocaseglob),
            ("extglob", self.extglob),
            ("globstar", self.globstar),
            ("expand_aliases", self.expand_aliases),
        ]);
        v
    }

    /// Set an option named as in [`all`](Self::all); `false` when unknown.
    pub fn set_any(&mut self, name: &str, on: bool) -> bool {
        if self.set_named(name, on) {
            return true;
        }
        match self.shopt_mut(name) {
            Some(b) => {
                *b = on;
                true
            }
            None => false,
        }
    }

    /// A `shopt` option; `None` when unknown.
    pub fn shopt_mut(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "nullglob" => &mut self.nullglob,
            "dotglob" => &mut self.dotglob,
            "failglob" => &mut self.failglob,
            "nocaseglob" => &mut self.nocaseglob,
            "extglob" => &mut self.extglob,
            "globstar" => &mut self.globstar,
            "expand_aliases" => &mut self.expand_aliases,
            _ => return None,
        })
    }
}
