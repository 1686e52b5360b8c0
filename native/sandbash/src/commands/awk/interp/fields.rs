//! The interpreter's records and fields: $0, splitting by FS, NF, rebuilding with OFS.

use super::*;

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {


    /// Returns the record it replaces, whose buffer the main loop recycles.
    pub fn set_record(&mut self, s: String) -> String {
        self.split_done = false;
        self.record_stale = false;
        std::mem::replace(&mut self.record, s)
    }

    /// Hand a spent record's buffer back to the main input.
    pub fn recycle_record(&mut self, s: String) {
        if let Some(r) = self.main.reader.as_mut() {
            r.recycle(s);
        }
    }

    pub fn ensure_split(&mut self) {
        if self.split_done {
            return;
        }
        self.split_done = true;
        let para = matches!(self.rs, RsMode::Para);
        let n = if field_spans(&self.record, &self.fs, para, &mut self.spans) {
            self.materialized = false;
            self.spans.len()
        } else {
            let fs = self.fs.clone();
            let rec = std::mem::take(&mut self.record);
            let parts = self.split_str(&rec, &fs, para).unwrap_or_default();
            self.record = rec;
            self.fields = parts.into_iter().map(Value::from_input).collect();
            self.materialized = true;
            self.fields.len()
        };
        self.globals[V_NF] = Cell::Val(Value::Num(n as f64));
    }

    /// Turn the spans into values before a field or NF changes.
    pub(super) fn materialize(&mut self) {
        self.ensure_split();
        if !self.materialized {
            let rec = &self.record;
            self.fields = self.spans.iter().map(|&(a, b)| Value::from_input(rec[a..b].to_string())).collect();
            self.materialized = true;
        }
    }

    pub(super) fn rebuild(&mut self) {
        let mut s = String::new();
        for (i, f) in self.fields.iter().enumerate() {
            if i > 0 {
                s.push_str(&self.ofs);
            }
            s.push_str(&f.str(&self.convfmt));
        }
        self.record = s;
        self.record_stale = false;
    }

    pub fn record(&mut self) -> &str {
        if self.record_stale {
            self.rebuild();
        }
        &self.record
    }

    pub fn get_field(&mut self, i: usize) -> Value {
        if i == 0 {
            return Value::from_input(self.record().to_string());
        }
        self.ensure_split();
        if self.materialized {
            return self.fields.get(i - 1).cloned().unwrap_or_default();
        }
        match self.spans.get(i - 1) {
            Some(&(a, b)) => Value::from_input(self.record[a..b].to_string()),
            None => Value::Uninit,
        }
    }

    /// `$i`'s text against a string, byte by byte (awk's comparison when
    /// one side is a string constant); None when the field holds a number
    /// (which compares by its CONVFMT text, NaN never equal).
    pub fn field_cmp_str(&mut self, i: usize, s: &str) -> Option<std::cmp::Ordering> {
        if i == 0 {
            return Some(self.record().as_bytes().cmp(s.as_bytes()));
        }
        self.ensure_split();
        if self.materialized {
            return match self.fields.get(i - 1) {
                Some(v) => v.as_str().map(|t| t.as_bytes().cmp(s.as_bytes())),
                None => Some("".cmp(s)),
            };
        }
        let t = self.spans.get(i - 1).map_or("", |&(a, b)| &self.record[a..b]);
        Some(t.as_bytes().cmp(s.as_bytes()))
    }

    /// `$i` as a number, without making a value of it.
    pub fn field_num(&mut self, i: usize) -> f64 {
        if i == 0 {
            return str_to_num(self.record());
        }
        self.ensure_split();
        if self.materialized {
            return self.fields.get(i - 1).map_or(0.0, Value::num);
        }
        self.spans.get(i - 1).map_or(0.0, |&(a, b)| str_to_num(&self.record[a..b]))
    }

    pub fn set_field(&mut self, i: usize, v: Value) {
        if i == 0 {
            let s = v.str(&self.convfmt);
            let _ = self.set_record(s);
            return;
        }
        self.materialize();
        if i > self.fields.len() {
            self.fields.resize(i, Value::Uninit);
            self.globals[V_NF] = Cell::Val(Value::Num(i as f64));
        }
        self.fields[i - 1] = v;
        self.record_stale = true;
    }

    pub(super) fn set_nf(&mut self, n: usize) {
        self.materialize();
        self.fields.resize(n, Value::Uninit);
        self.globals[V_NF] = Cell::Val(Value::Num(n as f64));
        self.record_stale = true;
    }

    pub(super) fn field_index(&self, v: &Value) -> R<usize> {
        let n = v.num();
        if n < 0.0 {
            return fatal(format!("attempt to access field {}", n as i64));
        }
        if n as usize > MAX_FIELD {
            return fatal(format!("attempt to access field {}", n as i64));
        }
        Ok(n as usize)
    }

    /// Split `s` by a field separator (`" "`: runs of blanks; one other
    /// character: literally; `""`: characters; else a regex).
    pub fn split_str(&mut self, s: &str, fs: &str, para: bool) -> R<Vec<String>> {
        if fs == " " {
            return Ok(s.split([' ', '\t', '\n']).filter(|x| !x.is_empty()).map(String::from).collect());
        }
        if s.is_empty() {
            return Ok(Vec::new());
        }
        if fs.is_empty() {
            return Ok(s.chars().map(String::from).collect());
        }
        let mut it = fs.chars();
        if let (Some(c), None) = (it.next(), it.next()) {
            if c != '\\' {
                if para {
                    return Ok(s.split([c, '\n']).map(String::from).collect());
                }
                return Ok(s.split(c).map(String::from).collect());
            }
        }
        let re = if para { self.dyn_regex(&format!("({fs})|\n"))? } else { self.dyn_regex(fs)? };
        Ok(split_re(&re, s))
    }
}

/// Split by a regex separator (empty matches never split).
pub fn split_re(re: &Regex, s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(s) {
        if m.is_empty() {
            continue;
        }
        out.push(s[last..m.start()].to_string());
        last = m.end();
    }
    out.push(s[last..].to_string());
    out
}

/// Where the fields of `s` lie when `fs` splits without a regex (`" "`:
/// runs of blanks; one other character but `\\`: literally, newlines too in
/// paragraph mode). False when the split needs `split_str`.
pub(super) fn field_spans(s: &str, fs: &str, para: bool, out: &mut Vec<(usize, usize)>) -> bool {
    out.clear();
    if fs == " " {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n') {
                i += 1;
            }
            let start = i;
            while i < b.len() && !matches!(b[i], b' ' | b'\t' | b'\n') {
                i += 1;
            }
            if i > start {
                out.push((start, i));
            }
        }
        return true;
    }
    if s.is_empty() {
        return true;
    }
    let mut it = fs.chars();
    let (Some(c), None) = (it.next(), it.next()) else { return false };
    if c == '\\' {
        return false;
    }
    let mut start = 0;
    let mut cut = |(i, m): (usize, &str)| {
        out.push((start, i));
        start = i + m.len();
    };
    if para {
        s.match_indices([c, '\n']).for_each(&mut cut);
    } else {
        s.match_indices(c).for_each(&mut cut);
    }
    out.push((start, s.len()));
    true
}
