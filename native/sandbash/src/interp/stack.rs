//! Deeply nested scripts (functions calling `$( )` calling functions ...) poll
//! futures recursively; each poll here first makes sure enough stack is left,
//! switching to a fresh heap-allocated segment when it is not. Depth itself is
//! bounded by the limits, so memory stays bounded too.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Stack that must remain before polling deeper: what the polls between two
/// `GrowStack`s may use (a debug build's frames for `source` inside `source`
/// came near 256 KiB).
const RED_ZONE: usize = 1024 * 1024;
/// Size of each new segment.
const SEGMENT: usize = 8 * 1024 * 1024;

/// Wraps a future so every poll runs with at least `RED_ZONE` bytes of stack.
pub struct GrowStack<F: ?Sized>(pub Pin<Box<F>>);

impl<F: Future + ?Sized> Future for GrowStack<F> {
    type Output = F::Output;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // On a caller's thread (a first slice, see `limits::inline`) a deep
        // poll moves to the runtime instead of growing this thread's stack
        // (a fresh segment per exec would cost more than the exec).
        if crate::limits::inline::active() {
            if crate::limits::inline::stack_too_low() {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            return self.0.as_mut().poll(cx);
        }
        let inner = self.0.as_mut();
        stacker::maybe_grow(RED_ZONE, SEGMENT, move || inner.poll(cx))
    }
}
