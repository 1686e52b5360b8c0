//! Permission modes as GNU parses and prints them (gnulib `modechange.c` and
//! `filemode.c`): used by `mkdir -m`, `chmod`, `ls -l` and `stat`.

use crate::fs::FileType;

const SUID: u32 = 0o4000;
const SGID: u32 = 0o2000;
const SVTX: u32 = 0o1000;
const ALL: u32 = 0o7777;
const R: u32 = 0o444;
const W: u32 = 0o222;
const X: u32 = 0o111;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flag {
    Ordinary,
    /// `u`, `g`, `o` on the right side: copy those existing bits.
    Copy,
    /// `X`: execute only for directories or already-executable files.
    XIfAnyX,
}

/// One `who op perms` change of a compiled mode.
#[derive(Clone, Copy, Debug)]
struct Change {
    op: u8,
    flag: Flag,
    affected: u32,
    value: u32,
    mentioned: u32,
}

/// A compiled mode string (`755`, `u+x,go-w`, `=r`).
#[derive(Clone, Debug)]
pub struct ModeChange(Vec<Change>);

impl ModeChange {
    /// Compile like gnulib `mode_compile`; `None` means `invalid mode`.
    pub fn parse(s: &str) -> Option<ModeChange> {
        let b = s.as_bytes();
        if !b.is_empty() && b.iter().all(|c| (b'0'..=b'7').contains(c)) {
            let v = b.iter().try_fold(0u32, |acc, &d| {
                let n = acc * 8 + u32::from(d - b'0');
                (n <= ALL).then_some(n)
            })?;
            // Fewer than 5 digits leave a directory's set-id bits alone unless given.
            let mentioned = if b.len() < 5 { (v & (SUID | SGID)) | SVTX | 0o777 } else { ALL };
            return Some(ModeChange(vec![Change {
                op: b'=',
                flag: Flag::Ordinary,
                affected: ALL,
                value: v,
                mentioned,
            }]));
        }
        let mut out = Vec::new();
        let mut i = 0;
        loop {
            let mut affected = 0;
            loop {
                match b.get(i)? {
                    b'u' => affected |= SUID | 0o700,
                    b'g' => affected |= SGID | 0o070,
                    b'o' => affected |= SVTX | 0o007,
                    b'a' => affected |= ALL,
                    b'=' | b'+' | b'-' => break,
                    _ => return None,
                }
                i += 1;
            }
            while let Some(&op @ (b'=' | b'+' | b'-')) = b.get(i) {
                i += 1;
                let (mut value, mut flag) = (0, Flag::Copy);
                match b.get(i) {
                    Some(b'u') => (value, i) = (SUID | 0o700, i + 1),
                    Some(b'g') => (value, i) = (SGID | 0o070, i + 1),
                    Some(b'o') => (value, i) = (SVTX | 0o007, i + 1),
                    _ => {
                        flag = Flag::Ordinary;
                        while let Some(c) = b.get(i) {
                            match c {
                                b'r' => value |= R,
                                b'w' => value |= W,
                                b'x' => value |= X,
                                b'X' => flag = Flag::XIfAnyX,
                                b's' => value |= SUID | SGID,
                                b't' => value |= SVTX,
                                _ => break,
                            }
                            i += 1;
                        }
                    }
                }
                let mentioned = if affected != 0 { affected & value } else { value };
                out.push(Change { op, flag, affected, value, mentioned });
            }
            match b.get(i) {
                None => return Some(ModeChange(out)),
                Some(b',') => i += 1,
                Some(_) => return None,
            }
        }
    }

    /// Apply to `old` like gnulib `mode_adjust`: `umask` (the shell's, see
    /// [`crate::fs::Fs::umask`]) applies when no `who` is given; chmod also
    /// compares against 0 to warn.
    pub fn apply_umask(&self, old: u32, is_dir: bool, umask: u32) -> u32 {
        let mut new = old & ALL;
        for c in &self.0 {
            let omit = if is_dir { SUID | SGID } else { 0 } & !c.mentioned;
            let mut value = c.value;
            match c.flag {
                Flag::Ordinary => {}
                Flag::Copy => {
                    value &= new;
                    value |= if value & R != 0 { R } else { 0 }
                        | if value & W != 0 { W } else { 0 }
                        | if value & X != 0 { X } else { 0 };
                }
                Flag::XIfAnyX => {
                    if new & X != 0 || is_dir {
                        value |= X;
                    }
                }
            }
            value &= (if c.affected != 0 { c.affected } else { !umask }) & !omit;
            match c.op {
                b'=' => {
                    let preserved = (if c.affected != 0 { !c.affected } else { 0 }) | omit;
                    new = (new & preserved) | value;
                }
                b'+' => new |= value,
                _ => new &= !value,
            }
        }
        new
    }
}

/// `drwxr-xr-x` as `ls -l` and `stat -c %A` print it.
pub fn mode_string(file_type: FileType, mode: u32) -> String {
    let mut s = String::with_capacity(10);
    s.push(match file_type {
        FileType::Dir => 'd',
        FileType::Symlink => 'l',
        FileType::File => '-',
    });
    let bit = |m: u32, c: char| if mode & m != 0 { c } else { '-' };
    let special = |x: u32, sp: u32, on: char, off: char| match (mode & x != 0, mode & sp != 0) {
        (true, true) => on,
        (false, true) => off,
        (true, false) => 'x',
        (false, false) => '-',
    };
    s.push(bit(0o400, 'r'));
    s.push(bit(0o200, 'w'));
    s.push(special(0o100, SUID, 's', 'S'));
    s.push(bit(0o040, 'r'));
    s.push(bit(0o020, 'w'));
    s.push(special(0o010, SGID, 's', 'S'));
    s.push(bit(0o004, 'r'));
    s.push(bit(0o002, 'w'));
    s.push(special(0o001, SVTX, 't', 'T'));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str, old: u32, dir: bool) -> Option<u32> {
        ModeChange::parse(s).map(|c| c.apply_umask(old, dir, 0o022))
    }

    #[test]
    fn compiles_like_gnulib() {
        // Values from GNU `mkdir -m MODE d; stat -c %a d` (start 0777, umask 022).
        assert_eq!(m("700", 0o777, true), Some(0o700));
        assert_eq!(m("1777", 0o777, true), Some(0o1777));
        assert_eq!(m("u+x,g=r", 0o777, true), Some(0o747));
        assert_eq!(m("=x", 0o777, true), Some(0o111));
        assert_eq!(m("a-w", 0o777, true), Some(0o555));
        assert_eq!(m("-w", 0o777, true), Some(0o577));
        assert_eq!(m("go=u", 0o740, false), Some(0o777));
        assert_eq!(m("u+X", 0o644, false), Some(0o644));
        assert_eq!(m("+X", 0o744, false), Some(0o755));
        assert_eq!(m("888", 0, false), None);
        assert_eq!(m("bad", 0, false), None);
        assert_eq!(m("", 0, false), None);
        assert_eq!(m("u+x,", 0, false), None);
        assert_eq!(mode_string(FileType::Dir, 0o1777), "drwxrwxrwt");
        assert_eq!(mode_string(FileType::File, 0o4644), "-rwSr--r--");
    }
}
