//! A larger C stack for CPython. The WASI build keeps its C stack in the
//! first 512 KiB of linear memory (the linker's `--stack-first`), so C-level
//! recursion (a recursive function behind `functools.lru_cache` goes through
//! C at each level, about 6.5 KB) runs out after some 80 levels and traps,
//! where CPython on Linux reaches its recursion limit and raises
//! `RecursionError`. We give the stack a region of its own instead: the
//! initial memory grows by [`STACK_BYTES`] and `__stack_pointer` starts at its
//! top. The allocator never reaches into it: its first region ends at the
//! linker's `__heap_end` (the old initial size, a constant in the code) and
//! it grows with `memory.grow`, past the new initial size.

/// The C stack CPython gets.
pub const STACK_BYTES: u32 = 16 << 20;
const PAGE: u32 = 64 * 1024;

fn leb_u32(b: &[u8], at: &mut usize) -> Result<u32, String> {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let byte = *b.get(*at).ok_or("truncated module")?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return u32::try_from(v).map_err(|_| "bad LEB128".to_string());
        }
        shift += 7;
        if shift > 35 {
            return Err("bad LEB128".into());
        }
    }
}

fn put_u32(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_i32(out: &mut Vec<u8>, mut v: i32) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0) {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The module with the stack moved, or why it does not have the layout
/// this expects (one memory without a maximum; global 0 the mutable i32
/// stack pointer at the top of a stack-first layout).
pub fn enlarge(module: &[u8]) -> Result<Vec<u8>, String> {
    if module.len() < 8 || &module[..4] != b"\0asm" {
        return Err("not a wasm module".into());
    }
    let mut out = module[..8].to_vec();
    let mut at = 8;
    let mut old_pages = None;
    let mut done = 0;
    while at < module.len() {
        let id = module[at];
        at += 1;
        let size = leb_u32(module, &mut at)? as usize;
        let body = module.get(at..at + size).ok_or("truncated section")?;
        at += size;
        let new_body = match id {
            5 => {
                let mut i = 0;
                let (count, flags) = (leb_u32(body, &mut i)?, leb_u32(body, &mut i)?);
                if count != 1 || flags != 0 {
                    return Err("unexpected memory section".into());
                }
                let min = leb_u32(body, &mut i)?;
                old_pages = Some(min);
                let mut b = Vec::new();
                put_u32(&mut b, 1);
                put_u32(&mut b, 0);
                put_u32(&mut b, min + STACK_BYTES / PAGE);
                b.extend_from_slice(&body[i..]);
                done += 1;
                Some(b)
            }
            6 => {
                let pages = old_pages.ok_or("globals before the memory")?;
                let mut i = 0;
                let count = leb_u32(body, &mut i)?;
                // Global 0: i32 (0x7f), mutable (1), `i32.const N` (0x41), `end`.
                if count == 0 || body.get(i..i + 3) != Some(&[0x7f, 1, 0x41]) {
                    return Err("unexpected stack pointer".into());
                }
                i += 3;
                let sp = leb_u32(body, &mut i)?;
                if body.get(i) != Some(&0x0b) || sp > 1 << 20 {
                    return Err("unexpected stack pointer".into());
                }
                let top =
                    i32::try_from((pages * PAGE) as u64 + u64::from(STACK_BYTES)).map_err(|_| "memory too large")?;
                let mut b = Vec::new();
                put_u32(&mut b, count);
                b.extend_from_slice(&[0x7f, 1, 0x41]);
                put_i32(&mut b, top);
                b.extend_from_slice(&body[i..]);
                done += 1;
                Some(b)
            }
            _ => None,
        };
        out.push(id);
        let body = new_body.as_deref().unwrap_or(body);
        put_u32(&mut out, body.len() as u32);
        out.extend_from_slice(body);
    }
    if done != 2 {
        return Err("no memory or global section".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::enlarge;

    #[test]
    fn moves_the_stack_pointer_above_the_initial_memory() {
        // (memory 2) (global (mut i32) (i32.const 65536)) and a custom section.
        let head = b"\0asm\x01\0\0\0".as_slice();
        let m = [head, &[5, 3, 1, 0, 2], &[6, 8, 1, 0x7f, 1, 0x41, 0x80, 0x80, 4, 0x0b], &[0, 2, 1, b'x']].concat();
        // 2 + 256 pages; the stack's top at 2 pages + 16 MiB = 0x1020000.
        let want =
            [head, &[5, 4, 1, 0, 0x82, 2], &[6, 9, 1, 0x7f, 1, 0x41, 0x80, 0x80, 0x88, 8, 0x0b], &[0, 2, 1, b'x']]
                .concat();
        assert_eq!(enlarge(&m).expect("patched"), want);
        assert!(enlarge(&m[..20]).is_err());
        assert!(enlarge(&[head, &[5, 4, 1, 1, 2, 3]].concat()).is_err());
    }
}
