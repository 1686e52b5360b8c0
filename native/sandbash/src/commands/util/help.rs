//! `--help`: the real utility's whole text (recorded in `help_texts/` by
//! `scripts/record_help_texts`), with the name it was run by where GNU
//! prints its own name (`Usage: NAME`, `  or:  NAME`).

#[path = "help_texts.rs"]
mod texts;

use crate::commands::CommandContext;
use crate::io::IoError;

impl CommandContext<'_> {
    /// Print this utility's `--help`: the real one's text, else `fallback`.
    pub async fn out_help(&self, fallback: &[u8]) -> Result<(), IoError> {
        match gnu_help(self.name) {
            Some(text) => self.out(text.as_bytes()).await,
            None => self.out(fallback).await,
        }
    }
}

/// `name --help` as the real utility prints it; `None` when none was recorded.
pub fn gnu_help(name: &str) -> Option<String> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let (canon, text) = texts::TEXTS.iter().find(|(n, _)| *n == base)?;
    if name == *canon {
        return Some(text.to_string());
    }
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let renamed = ["Usage: ", "  or:  "].iter().find_map(|lead| {
            let rest = line.strip_prefix(lead)?.strip_prefix(canon)?;
            (rest.starts_with(' ') || rest.starts_with('\n')).then(|| format!("{lead}{name}{rest}"))
        });
        out.push_str(renamed.as_deref().unwrap_or(line));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::gnu_help;

    /// The table holds the coreutils' texts, each starting with its usage
    /// line, and a longer name used to run one shows in its usage lines only.
    #[test]
    fn texts_are_found_and_renamed() {
        let head = gnu_help("head").expect("head");
        assert!(head.starts_with("Usage: head [OPTION]... [FILE]...\n"));
        assert!(head.contains("  -n, --lines=[-]NUM"));
        let by_path = gnu_help("/usr/bin/head").expect("by path");
        assert!(by_path.starts_with("Usage: /usr/bin/head [OPTION]"));
        assert_eq!(by_path.len(), head.len() + "/usr/bin/".len());
        assert!(gnu_help("no-such-tool").is_none());
    }
}
