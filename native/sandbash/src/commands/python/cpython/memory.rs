//! The guest's linear memory, allocated through the process allocator so the
//! session's memory budget counts every byte of it (wasmtime's own memories
//! are mappings the allocator never sees). Growth is refused past the budget
//! by the store's limiter; here it only moves the bytes to a larger block.
//!
//! Without guard pages the compiled code checks every access itself (the
//! engine is configured with `signals_based_traps(false)`, no reservation and
//! no guard), so a block of exactly the memory's size is enough.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use wasmtime::{LinearMemory, MemoryCreator, MemoryType};

/// Blocks are aligned to the host page.
const ALIGN: usize = 4096;

pub struct CountedMemory {
    ptr: *mut u8,
    size: usize,
    /// Bytes allocated: growth is geometric, as CPython grows its memory a
    /// few pages at a time and each move copies it all.
    capacity: usize,
    maximum: Option<usize>,
}

// SAFETY: the block is owned by this value alone and wasmtime serialises its
// use through the store that owns the memory.
unsafe impl Send for CountedMemory {}
unsafe impl Sync for CountedMemory {}

impl CountedMemory {
    fn new(size: usize, maximum: Option<usize>) -> Result<Self, String> {
        reserve(size)?;
        Ok(CountedMemory { ptr: block(size)?, size, capacity: size, maximum })
    }
}

/// A zeroed block of `size` bytes (a dangling aligned pointer for 0).
fn block(size: usize) -> Result<*mut u8, String> {
    if size == 0 {
        return Ok(ALIGN as *mut u8);
    }
    let layout = Layout::from_size_align(size, ALIGN).map_err(|e| e.to_string())?;
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { alloc_zeroed(layout) };
    if p.is_null() {
        return Err(format!("cannot allocate {size} bytes of linear memory"));
    }
    Ok(p)
}

/// Room in the session's budget for a new block of `size` bytes (while the
/// old one is still held): else the guest's `memory.grow` fails, and CPython
/// raises `MemoryError`.
fn reserve(size: usize) -> Result<(), String> {
    crate::limits::scope::reserve(size as u64).map_err(|e| e.to_string())
}

/// At most this much more is allocated ahead of what the guest asked for.
const MAX_SLACK: usize = 64 << 20;

fn free(ptr: *mut u8, size: usize) {
    if size != 0 {
        if let Ok(layout) = Layout::from_size_align(size, ALIGN) {
            // SAFETY: `ptr` came from `block(size)` with this layout.
            unsafe { dealloc(ptr, layout) };
        }
    }
}

impl Drop for CountedMemory {
    fn drop(&mut self) {
        free(self.ptr, self.capacity);
    }
}

// SAFETY: the block is page aligned, zero filled, `capacity >= size` bytes,
// and only replaced in `grow_to`, which wasmtime calls with the store held.
unsafe impl LinearMemory for CountedMemory {
    fn byte_size(&self) -> usize {
        self.size
    }

    fn byte_capacity(&self) -> usize {
        self.capacity
    }

    fn grow_to(&mut self, new_size: usize) -> wasmtime::Result<()> {
        if self.maximum.is_some_and(|m| new_size > m) {
            return Err(wasmtime::Error::msg("linear memory past its maximum"));
        }
        if new_size <= self.capacity {
            // The bytes past the old size were zeroed when allocated and the
            // guest could not reach them since.
            self.size = self.size.max(new_size);
            return Ok(());
        }
        let ahead = new_size.max(self.size + (self.size / 2).min(MAX_SLACK));
        let ahead = self.maximum.map_or(ahead, |m| ahead.min(m)).next_multiple_of(ALIGN);
        // Ahead if the budget allows, else exactly what was asked.
        let capacity = if reserve(ahead).is_ok() { ahead } else { new_size };
        reserve(capacity).map_err(wasmtime::Error::msg)?;
        let p = block(capacity).map_err(wasmtime::Error::msg)?;
        // SAFETY: both blocks are valid for `self.size` bytes and distinct.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr, p, self.size) };
        free(self.ptr, self.capacity);
        self.ptr = p;
        self.size = new_size;
        self.capacity = capacity;
        Ok(())
    }

    fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
}

/// Makes every memory of the engine a [`CountedMemory`].
pub struct CountedCreator;

// SAFETY: the memories it makes honour `LinearMemory`'s contract above; with
// no reservation and no guard asked for (the engine's configuration), none is
// expected of them.
unsafe impl MemoryCreator for CountedCreator {
    fn new_memory(
        &self,
        _ty: MemoryType,
        minimum: usize,
        maximum: Option<usize>,
        reserved: Option<usize>,
        guard: usize,
    ) -> Result<Box<dyn LinearMemory>, String> {
        if reserved.is_some_and(|r| r > 0) || guard > 0 {
            return Err("counted memories have no reservation or guard".to_string());
        }
        Ok(Box::new(CountedMemory::new(minimum, maximum)?))
    }
}
