//! jq's regular-expression primitive `_match_impl(re; flags; test)`, on the
//! `regex` crate: match objects exactly as jq 1.7 builds them (codepoint
//! offsets, every group listed with its name or `null`, unmatched groups as
//! `{"offset":-1,"string":null,"length":0,"name":...}`). `test`, `match`,
//! `capture`, `scan`, `split`, `sub` and `gsub` are defined on top of it.

use super::val::{Map, Val};
use jaq_core::Error;

type ValR = Result<Val, Error<Val>>;

/// Compiled-size cap for one program's regex.
const SIZE_LIMIT: usize = 10 * 1024 * 1024;

fn obj(pairs: Vec<(&str, Val)>) -> Val {
    let mut m = Map::default();
    for (k, v) in pairs {
        m.insert(k.into(), v);
    }
    Val::obj(m)
}

/// Character index of byte offset `b` in `s`.
fn char_pos(s: &str, b: usize) -> usize {
    s[..b].chars().count()
}

pub fn match_impl(input: &Val, re: &Val, flags: &Val, test: bool) -> ValR {
    let Val::Str(s) = input else {
        return Val::err(format!("{} cannot be matched, as it is not a string", input.describe()));
    };
    let Val::Str(pat) = re else {
        return Val::err(format!("{} cannot be matched, as it is not a string", re.describe()));
    };
    let flags = match flags {
        Val::Null => "",
        Val::Str(f) => f,
        v => return Val::err(format!("{} is not a string", v.describe())),
    };
    let (mut global, mut skip_empty) = (false, false);
    if crate::commands::util::regex_cache::admit(pat).is_err() {
        return Val::err(format!("regex of {} bytes is too big to compile", pat.len()));
    }
    let mut b = regex::RegexBuilder::new(pat);
    b.size_limit(SIZE_LIMIT);
    for c in flags.chars() {
        match c {
            'g' => global = true,
            'i' => {
                b.case_insensitive(true);
            }
            'x' => {
                b.ignore_whitespace(true);
            }
            's' => {
                b.dot_matches_new_line(true);
            }
            'n' => skip_empty = true,
            'p' => {
                b.dot_matches_new_line(true);
                skip_empty = true;
            }
            // Longest match is what a leftmost-first engine gives for most patterns.
            'l' => {}
            _ => return Val::err(format!("{flags} is not a valid modifier string")),
        }
    }
    let rx = match b.build() {
        Ok(r) => r,
        Err(e) => {
            let why = e.to_string();
            let why = why.lines().last().unwrap_or("").trim_start_matches("error: ");
            return Val::err(format!("{pat} (at offset 0) is not a valid regex: {why}"));
        }
    };
    if test {
        return Ok(Val::Bool(rx.is_match(s)));
    }
    let names: Vec<Option<&str>> = rx.capture_names().collect();
    let mut out = Vec::new();
    for caps in rx.captures_iter(s) {
        super::val::tick();
        let Some(m) = caps.get(0) else { continue };
        if skip_empty && m.as_str().is_empty() {
            continue;
        }
        let mut groups = Vec::new();
        for (i, name) in names.iter().enumerate().skip(1) {
            let name = name.map_or(Val::Null, Val::str);
            groups.push(match caps.get(i) {
                Some(g) => obj(vec![
                    ("offset", Val::from(char_pos(s, g.start()))),
                    ("length", Val::from(g.as_str().chars().count())),
                    ("string", Val::str(g.as_str())),
                    ("name", name),
                ]),
                None => obj(vec![
                    ("offset", Val::from(-1isize)),
                    ("string", Val::Null),
                    ("length", Val::from(0usize)),
                    ("name", name),
                ]),
            });
        }
        out.push(obj(vec![
            ("offset", Val::from(char_pos(s, m.start()))),
            ("length", Val::from(m.as_str().chars().count())),
            ("string", Val::str(m.as_str())),
            ("captures", Val::arr(groups)),
        ]));
        if !global {
            break;
        }
    }
    Ok(Val::arr(out))
}

/// jq 1.7's definitions over `_match_impl`.
pub const DEFS: &str = r#"
def match(re; mode): _match_impl(re; mode; false) | .[];
def match($val): ($val | type) as $vt | if $vt == "string" then match($val; null)
  elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1])
  elif $vt == "array" and ($val | length) > 0 then match($val[0]; null)
  else error($vt + " not a string or array") end;
def test(re; mode): _match_impl(re; mode; true);
def test($val): ($val | type) as $vt | if $vt == "string" then test($val; null)
  elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1])
  elif $vt == "array" and ($val | length) > 0 then test($val[0]; null)
  else error($vt + " not a string or array") end;
def _capture_object: [.captures[] | select(.name != null) | {key: .name, value: .string}] | from_entries;
def capture(re; mods): match(re; mods) | _capture_object;
def capture($val): ($val | type) as $vt | if $vt == "string" then capture($val; null)
  elif $vt == "array" and ($val | length) > 1 then capture($val[0]; $val[1])
  elif $vt == "array" and ($val | length) > 0 then capture($val[0]; null)
  else error($vt + " not a string or array") end;
def scan($re; $flags): match($re; "g" + ($flags // ""))
  | if (.captures | length) > 0 then [.captures[] | .string] else .string end;
def scan($re): scan($re; null);
def split($re; flags): . as $s
  | [0] + [match($re; "g" + (flags // "")) | (.offset, .offset + .length)] + [$s | length]
  | [range(0; length; 2) as $i | $s[.[$i]:.[$i + 1]]];
def splits($re; flags): split($re; flags) | .[];
def splits($re): splits($re; null);
def sub($re; str; $flags): . as $in
  | (reduce match($re; $flags) as $m ({r: "", p: 0};
      .r += $in[.p:$m.offset] + ($m | _capture_object | str) | .p = $m.offset + $m.length))
  | .r + $in[.p:];
def sub($re; str): sub($re; str; "");
def gsub($re; str; $flags): sub($re; str; $flags + "g");
def gsub($re; str): sub($re; str; "g");
"#;
