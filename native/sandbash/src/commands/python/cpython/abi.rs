//! The numbers and layouts of WASI preview 1 (`wasi_snapshot_preview1`) that
//! the host speaks: errno values, file types, flags and the byte layout of the
//! structures it writes into the guest's memory (all little-endian).

/// `__wasi_errno_t`.
pub type Errno = u16;

pub const SUCCESS: Errno = 0;
pub const ACCES: Errno = 2;
pub const BADF: Errno = 8;
pub const EXIST: Errno = 20;
pub const FAULT: Errno = 21;
pub const FBIG: Errno = 22;
pub const ILSEQ: Errno = 25;
pub const INTR: Errno = 27;
pub const INVAL: Errno = 28;
pub const IO: Errno = 29;
pub const ISDIR: Errno = 31;
pub const LOOP: Errno = 32;
pub const MFILE: Errno = 33;
pub const NAMETOOLONG: Errno = 37;
pub const NOENT: Errno = 44;
pub const NOSPC: Errno = 51;
pub const NOTDIR: Errno = 54;
pub const NOTEMPTY: Errno = 55;
pub const NOTSUP: Errno = 58;
pub const PIPE: Errno = 64;
pub const ROFS: Errno = 69;
pub const SPIPE: Errno = 70;
pub const XDEV: Errno = 75;

/// `__wasi_filetype_t`.
pub const FILETYPE_CHARACTER_DEVICE: u8 = 2;
pub const FILETYPE_DIRECTORY: u8 = 3;
pub const FILETYPE_REGULAR_FILE: u8 = 4;
pub const FILETYPE_SYMBOLIC_LINK: u8 = 7;

/// `__wasi_oflags_t`.
pub const O_CREAT: u16 = 1;
pub const O_DIRECTORY: u16 = 2;
pub const O_EXCL: u16 = 4;
pub const O_TRUNC: u16 = 8;

/// `__wasi_fdflags_t`.
pub const FDFLAG_APPEND: u16 = 1;

/// `__wasi_lookupflags_t`.
pub const LOOKUP_SYMLINK_FOLLOW: u32 = 1;

/// `__wasi_fstflags_t`.
pub const FST_ATIM: u16 = 1;
pub const FST_ATIM_NOW: u16 = 2;
pub const FST_MTIM: u16 = 4;
pub const FST_MTIM_NOW: u16 = 8;

/// `__wasi_rights_t` bits the host looks at.
pub const RIGHT_FD_READ: u64 = 1 << 1;
pub const RIGHT_FD_SEEK: u64 = 1 << 2;
pub const RIGHT_FD_TELL: u64 = 1 << 5;
pub const RIGHT_FD_WRITE: u64 = 1 << 6;
/// Every right of preview 1 (bits 0..=29).
pub const RIGHTS_ALL: u64 = (1 << 30) - 1;

/// `__wasi_whence_t`.
pub const WHENCE_SET: u8 = 0;
pub const WHENCE_CUR: u8 = 1;
pub const WHENCE_END: u8 = 2;

/// `__wasi_clockid_t`.
pub const CLOCK_REALTIME: u32 = 0;

/// `__wasi_eventtype_t` and the clock subscription's `abstime` flag.
pub const EVENTTYPE_CLOCK: u8 = 0;
pub const SUBCLOCK_ABSTIME: u16 = 1;

/// Sizes of the structures (bytes).
pub const FDSTAT_SIZE: usize = 24;
pub const FILESTAT_SIZE: usize = 64;
pub const DIRENT_SIZE: usize = 24;
pub const SUBSCRIPTION_SIZE: usize = 48;
pub const EVENT_SIZE: usize = 32;

/// `__wasi_filestat_t` as the host fills it.
#[derive(Clone, Copy, Debug, Default)]
pub struct FileStat {
    pub dev: u64,
    pub ino: u64,
    pub filetype: u8,
    pub nlink: u64,
    pub size: u64,
    pub atim: u64,
    pub mtim: u64,
    pub ctim: u64,
}

impl FileStat {
    pub fn bytes(&self) -> [u8; FILESTAT_SIZE] {
        let mut b = [0u8; FILESTAT_SIZE];
        b[0..8].copy_from_slice(&self.dev.to_le_bytes());
        b[8..16].copy_from_slice(&self.ino.to_le_bytes());
        b[16] = self.filetype;
        b[24..32].copy_from_slice(&self.nlink.to_le_bytes());
        b[32..40].copy_from_slice(&self.size.to_le_bytes());
        b[40..48].copy_from_slice(&self.atim.to_le_bytes());
        b[48..56].copy_from_slice(&self.mtim.to_le_bytes());
        b[56..64].copy_from_slice(&self.ctim.to_le_bytes());
        b
    }
}

/// `__wasi_fdstat_t`.
pub fn fdstat_bytes(filetype: u8, flags: u16, rights_base: u64, rights_inheriting: u64) -> [u8; FDSTAT_SIZE] {
    let mut b = [0u8; FDSTAT_SIZE];
    b[0] = filetype;
    b[2..4].copy_from_slice(&flags.to_le_bytes());
    b[8..16].copy_from_slice(&rights_base.to_le_bytes());
    b[16..24].copy_from_slice(&rights_inheriting.to_le_bytes());
    b
}

/// The 24-byte header of one `__wasi_dirent_t` (the name follows it).
pub fn dirent_bytes(next: u64, ino: u64, namlen: u32, filetype: u8) -> [u8; DIRENT_SIZE] {
    let mut b = [0u8; DIRENT_SIZE];
    b[0..8].copy_from_slice(&next.to_le_bytes());
    b[8..16].copy_from_slice(&ino.to_le_bytes());
    b[16..20].copy_from_slice(&namlen.to_le_bytes());
    b[20] = filetype;
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_put_each_field_where_wasi_libc_reads_it() {
        let s =
            FileStat { dev: 1, ino: 2, filetype: FILETYPE_REGULAR_FILE, nlink: 3, size: 4, atim: 5, mtim: 6, ctim: 7 };
        let b = s.bytes();
        assert_eq!(b[16], 4);
        assert_eq!(u64::from_le_bytes(b[32..40].try_into().unwrap()), 4);
        assert_eq!(u64::from_le_bytes(b[56..64].try_into().unwrap()), 7);
        let d = dirent_bytes(9, 8, 5, FILETYPE_DIRECTORY);
        assert_eq!(u32::from_le_bytes(d[16..20].try_into().unwrap()), 5);
        assert_eq!(d[20], 3);
        let f = fdstat_bytes(FILETYPE_DIRECTORY, FDFLAG_APPEND, 3, RIGHTS_ALL);
        assert_eq!(u16::from_le_bytes([f[2], f[3]]), 1);
        assert_eq!(u64::from_le_bytes(f[16..24].try_into().unwrap()), RIGHTS_ALL);
    }
}
