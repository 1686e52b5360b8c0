//! IFS field splitting of unquoted expansion results.

use super::Seg;

/// A field after splitting: `(text, quoted)` parts (quoted parts don't glob).
pub type Parts = Vec<(String, bool)>;

#[derive(PartialEq, Clone, Copy)]
enum State {
    /// Nothing delimited yet.
    Start,
    /// Last delimiter was IFS whitespace ending a field.
    AfterWhite,
    /// Last delimiter was a non-whitespace IFS character.
    AfterOther,
}

/// [`split_field`] for a word that already has `have` fields: past the
/// word limit (`max_glob_results` or `max_brace_items`, the larger) the
/// exec stops with the `max_brace_items` error.
pub fn split_within(
    limits: &crate::limits::Limits,
    field: Vec<Seg>,
    ifs: Option<&str>,
    have: usize,
) -> Result<Vec<Parts>, crate::interp::Flow> {
    let max = limits.max_glob_results.max(limits.max_brace_items);
    let room = usize::try_from(max.saturating_sub(have as u64)).unwrap_or(usize::MAX);
    split_field(field, ifs, room).ok_or_else(|| {
        let stop = crate::limits::Budget::exceeded("max_brace_items", limits.max_brace_items, "word count");
        crate::interp::Flow::Stop(stop)
    })
}

/// Split one field. `ifs` is `$IFS` (`None`: unset, meaning space/tab/newline).
/// `None` once it makes more than `max` fields: a few megabytes of one-letter
/// words would otherwise take a hundred bytes each before any limit looked.
pub fn split_field(field: Vec<Seg>, ifs: Option<&str>, max: usize) -> Option<Vec<Parts>> {
    let ifs = ifs.unwrap_or(" \t\n");
    let mut out: Vec<Parts> = Vec::new();
    let mut cur: Parts = Vec::new();
    let mut has_content = false;
    let mut state = State::Start;
    for seg in field {
        if !seg.split || ifs.is_empty() {
            if seg.quoted || !seg.text.is_empty() {
                has_content = true;
            }
            cur.push((seg.text, seg.quoted));
            continue;
        }
        let mut run = String::new();
        for c in seg.text.chars() {
            if !ifs.contains(c) {
                run.push(c);
                has_content = true;
                continue;
            }
            if !run.is_empty() {
                cur.push((std::mem::take(&mut run), false));
            }
            if out.len() > max {
                return None;
            }
            let white = matches!(c, ' ' | '\t' | '\n');
            if white {
                if has_content {
                    out.push(std::mem::take(&mut cur));
                    has_content = false;
                    state = State::AfterWhite;
                }
            } else {
                if has_content || state != State::AfterWhite {
                    out.push(std::mem::take(&mut cur));
                }
                has_content = false;
                state = State::AfterOther;
            }
        }
        if !run.is_empty() {
            cur.push((run, false));
        }
    }
    if has_content {
        out.push(cur);
    }
    (out.len() <= max).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str, ifs: &str) -> Vec<String> {
        let seg = Seg { text: text.into(), quoted: false, split: true };
        let fields = split_field(vec![seg], Some(ifs), usize::MAX).unwrap_or_default();
        fields.into_iter().map(|p| p.into_iter().map(|x| x.0).collect()).collect()
    }

    #[test]
    fn bash_splitting_rules() {
        assert_eq!(split("  a  b ", " \t\n"), ["a", "b"]);
        assert_eq!(split("a::b", ":"), ["a", "", "b"]);
        assert_eq!(split(":a:", ":"), ["", "a"]);
        assert_eq!(split("a : b", " :"), ["a", "b"]);
        assert_eq!(split("a: :b", " :"), ["a", "", "b"]);
        assert!(split("", " ").is_empty());
        let quoted_empty = vec![Seg { text: String::new(), quoted: true, split: false }];
        assert_eq!(split_field(quoted_empty, None, 10).map(|f| f.len()), Some(1));
        let seg = Seg { text: "a b c d".into(), quoted: false, split: true };
        assert!(split_field(vec![seg.clone()], None, 3).is_none());
        assert_eq!(split_field(vec![seg], None, 4).map(|f| f.len()), Some(4));
    }
}
