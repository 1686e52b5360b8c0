//! Permissions as a non-root user meets them. The sandbox user owns every
//! node of the in-memory filesystem, so its owner bits decide: searching a
//! directory needs `x`, listing it `r`, making or removing a name in it `w`;
//! reading a file needs `r`, writing it `w`. A session whose user is `root`
//! is not checked (see [`crate::BashBuilder::username`]), and neither is the
//! application: its file calls (`ExBashkit.Session.read_file/2` and kin) run
//! inside [`as_application`].

use super::{FsError, FsResult};
use std::cell::Cell;

/// Reading (`r`), writing (`w`) and searching or running (`x`), as the owner.
pub const READ: u32 = 0o400;
pub const WRITE: u32 = 0o200;
pub const SEARCH: u32 = 0o100;

thread_local! {
    /// Set while the application's own file call runs on this thread.
    static APPLICATION: Cell<bool> = const { Cell::new(false) };
    /// Set while a descriptor already open reads or writes (see [`through_open`]).
    static OPEN: Cell<bool> = const { Cell::new(false) };
}

/// `fut` (a read or write through a descriptor already open), run without
/// permission checks: they were made when the descriptor was opened, as the
/// kernel makes them at `open(2)` only. So `umask 277; echo x > f` writes the
/// new read-only file, and `exec 3>f; chmod -w f; echo x >&3` writes too.
/// Set around each poll: the call may move between threads.
pub async fn through_open<F: std::future::Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    std::future::poll_fn(|cx| {
        let before = OPEN.with(|o| o.replace(true));
        let r = fut.as_mut().poll(cx);
        OPEN.with(|o| o.set(before));
        r
    })
    .await
}

/// Whether the file call on this thread goes through an open descriptor.
pub fn is_through_open() -> bool {
    OPEN.with(Cell::get)
}

/// Run `f` as the application: the filesystem does not check permissions
/// for what `f` does on this thread.
pub fn as_application<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            APPLICATION.with(|a| a.set(self.0));
        }
    }
    let _restore = Restore(APPLICATION.with(|a| a.replace(true)));
    f()
}

/// Whether the caller on this thread is the application.
pub fn is_application() -> bool {
    APPLICATION.with(Cell::get)
}

/// `Ok` when a node of permission bits `mode` grants the owner `want`.
pub fn allow(mode: u32, want: u32) -> FsResult<()> {
    if mode & want == want {
        Ok(())
    } else {
        Err(FsError::PermissionDenied)
    }
}
