//! Keeps a Rust panic inside the NIF: the future's panic becomes an error value.
//! (The interpreter already turns a panic inside a script into `Error::Internal`
//! and rolls its state back; this is the last line for the glue around it.)

use futures_util::FutureExt;
use std::future::Future;
use std::panic::AssertUnwindSafe;

/// Run `fut`; a panic in it becomes `Err("internal error: ...")`.
pub async fn guarded<T>(fut: impl Future<Output = T>) -> Result<T, String> {
    AssertUnwindSafe(fut).catch_unwind().await.map_err(|p| format!("internal error: {}", panic_text(p.as_ref())))
}

/// A panic payload as text.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
