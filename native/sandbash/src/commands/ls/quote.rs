//! How `ls` shows names (gnulib quotearg styles): `--quoting-style=literal|
//! shell|shell-always|shell-escape|shell-escape-always|c|c-maybe|escape|
//! locale|clocale`, `-N`, `-Q` (c), `-b` (escape), and `-q` (control
//! characters as `?`). Output is never a terminal here, so the default is
//! literal, as GNU's is for a pipe.

/// A quoting style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoting {
    Literal,
    Shell,
    ShellAlways,
    ShellEscape,
    ShellEscapeAlways,
    C,
    CMaybe,
    Escape,
    Locale,
}

/// The `--quoting-style` words in GNU's order (for the "Valid arguments" list).
pub const STYLES: [&str; 10] = [
    "literal",
    "shell",
    "shell-always",
    "shell-escape",
    "shell-escape-always",
    "c",
    "c-maybe",
    "escape",
    "locale",
    "clocale",
];

impl Quoting {
    pub fn parse(word: &str) -> Option<Quoting> {
        Some(match word {
            "literal" => Quoting::Literal,
            "shell" => Quoting::Shell,
            "shell-always" => Quoting::ShellAlways,
            "shell-escape" => Quoting::ShellEscape,
            "shell-escape-always" => Quoting::ShellEscapeAlways,
            "c" => Quoting::C,
            "c-maybe" => Quoting::CMaybe,
            "escape" => Quoting::Escape,
            "locale" | "clocale" => Quoting::Locale,
            _ => return None,
        })
    }

    /// Whether names left unquoted get a leading space in columns and long
    /// listings where some name was quoted (GNU's align_variable_outer_quotes).
    pub fn aligns(self) -> bool {
        matches!(self, Quoting::Shell | Quoting::ShellEscape | Quoting::CMaybe)
    }

    /// `name` as shown; `hide` is `-q` (control characters become `?` in the
    /// styles that would print them raw).
    pub fn show(self, name: &str, hide: bool) -> String {
        let hidden;
        let name = if hide && matches!(self, Quoting::Literal | Quoting::Shell | Quoting::ShellAlways) {
            hidden = name.chars().map(|c| if c.is_control() { '?' } else { c }).collect::<String>();
            hidden.as_str()
        } else {
            name
        };
        match self {
            Quoting::Literal => name.to_string(),
            Quoting::Shell | Quoting::ShellAlways => {
                if self == Quoting::Shell && !shell_special(name) {
                    name.to_string()
                } else if name.contains('\'') && !name.chars().any(|c| "\"$`\\!".contains(c)) {
                    format!("\"{name}\"")
                } else {
                    format!("'{}'", name.replace('\'', "'\\''"))
                }
            }
            Quoting::ShellEscape if !shell_special(name) => name.to_string(),
            Quoting::ShellEscape | Quoting::ShellEscapeAlways => crate::commands::util::quote(name),
            Quoting::C => format!("\"{}\"", c_escape(name, false)),
            Quoting::CMaybe => {
                if name.chars().any(|c| c.is_control() || c == '"') {
                    format!("\"{}\"", c_escape(name, false))
                } else {
                    name.to_string()
                }
            }
            Quoting::Escape => c_escape(name, true),
            Quoting::Locale => {
                let body = c_escape(name, false).replace("\\\"", "\"");
                if crate::commands::util::locale_is_utf8() {
                    format!("\u{2018}{body}\u{2019}")
                } else {
                    format!("'{}'", body.replace('\'', "\\'"))
                }
            }
        }
    }
}

/// Whether the shell styles must quote `name`: gnulib's shell-special bytes,
/// `#` and `~` only at the start, blanks and control characters anywhere.
fn shell_special(name: &str) -> bool {
    name.is_empty()
        || name.starts_with(['#', '~'])
        || name.chars().any(|c| c.is_control() || c.is_whitespace() || " !\"$&'()*;<=>?[\\^`|".contains(c))
}

/// C-style backslash escapes (`\n`, `\t`, `\\`, `\"`, octal for other
/// controls); `escape` style also escapes spaces and leaves `"` alone.
fn c_escape(name: &str, escape_style: bool) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' if !escape_style => out.push_str("\\\""),
            ' ' if escape_style => out.push_str("\\ "),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::commands::util::testutil::check;

    const FILES: [(&str, &str); 12] = [
        ("a b", ""),
        ("plain", ""),
        ("it's", ""),
        ("tab\tx", ""),
        ("nl\nx", ""),
        ("q\"d", ""),
        ("back\\s", ""),
        ("$v", ""),
        ("*star", ""),
        ("-dash", ""),
        ("~t", ""),
        ("x=y", ""),
    ];

    fn ls(args: &[&str], out: &str) {
        let mut argv = vec!["ls"];
        argv.extend_from_slice(args);
        check(&argv, &FILES, "", out, "", 0);
    }

    #[test]
    fn styles() {
        ls(&[], "$v\n*star\n-dash\na b\nback\\s\nit's\nnl\nx\nplain\nq\"d\ntab\tx\nx=y\n~t\n");
        ls(&["-N"], "$v\n*star\n-dash\na b\nback\\s\nit's\nnl\nx\nplain\nq\"d\ntab\tx\nx=y\n~t\n");
        ls(
            &["--quoting-style=shell"],
            "'$v'\n'*star'\n-dash\n'a b'\n'back\\s'\n\"it's\"\n'nl\nx'\nplain\n'q\"d'\n'tab\tx'\n'x=y'\n'~t'\n",
        );
        ls(
            &["--quoting-style=shell-always"],
            "'$v'\n'*star'\n'-dash'\n'a b'\n'back\\s'\n\"it's\"\n'nl\nx'\n'plain'\n'q\"d'\n'tab\tx'\n'x=y'\n'~t'\n",
        );
        ls(
            &["--quoting-style=shell-escape"],
            "'$v'\n'*star'\n-dash\n'a b'\n'back\\s'\n\"it's\"\n'nl'$'\\n''x'\nplain\n'q\"d'\n'tab'$'\\t''x'\n'x=y'\n'~t'\n",
        );
        ls(
            &["--quoting-style=shell-escape-always"],
            "'$v'\n'*star'\n'-dash'\n'a b'\n'back\\s'\n\"it's\"\n'nl'$'\\n''x'\n'plain'\n'q\"d'\n'tab'$'\\t''x'\n'x=y'\n'~t'\n",
        );
        let c = "\"$v\"\n\"*star\"\n\"-dash\"\n\"a b\"\n\"back\\\\s\"\n\"it's\"\n\"nl\\nx\"\n\"plain\"\n\"q\\\"d\"\n\"tab\\tx\"\n\"x=y\"\n\"~t\"\n";
        ls(&["--quoting-style=c"], c);
        ls(&["-Q"], c);
        ls(
            &["--quoting-style=c-maybe"],
            "$v\n*star\n-dash\na b\nback\\s\nit's\n\"nl\\nx\"\nplain\n\"q\\\"d\"\n\"tab\\tx\"\nx=y\n~t\n",
        );
        let esc = "$v\n*star\n-dash\na\\ b\nback\\\\s\nit's\nnl\\nx\nplain\nq\"d\ntab\\tx\nx=y\n~t\n";
        ls(&["--quoting-style=escape"], esc);
        ls(&["-b"], esc);
        ls(&["-q"], "$v\n*star\n-dash\na b\nback\\s\nit's\nnl?x\nplain\nq\"d\ntab?x\nx=y\n~t\n");
    }

    #[test]
    fn aligned_columns() {
        let files =
            [("#a", ""), ("a!b", ""), ("a#b", ""), ("a%b", ""), ("a'b\"c", ""), ("a:b", ""), ("a{b", ""), ("a~", "")];
        check(
            &["ls", "-C", "-w", "40", "--quoting-style=shell"],
            &files,
            "",
            "'#a'    a#b  'a'\\''b\"c'   a{b\n'a!b'   a%b   a:b\t  a~\n",
            "",
            0,
        );
        check(&["ls", "-x", "-Q", "-w", "20"], &[("a", ""), ("b c", "")], "", "\"a\"  \"b c\"\n", "", 0);
    }

    #[test]
    fn bad_style() {
        let err =
            "ls: invalid argument 'foo' for '--quoting-style'\nValid arguments are:\n  - 'literal'\n  - 'shell'\n\
                   \x20 - 'shell-always'\n  - 'shell-escape'\n  - 'shell-escape-always'\n  - 'c'\n  - 'c-maybe'\n\
                   \x20 - 'escape'\n  - 'locale'\n  - 'clocale'\nTry 'ls --help' for more information.\n";
        check(&["ls", "--quoting-style=foo"], &[], "", "", err, 2);
    }
}
