//! The vocabulary every REA crate shares.
//!
//! This crate owns the words, not the work: the cancellation token ([`CancelToken`]),
//! the closed set of failure reasons ([`FailureReason`]) and the [`Failure`] that carries one,
//! the traversal [`Limits`], the [`IntegrityPolicy`], and the rate-bounded [`ProgressReporter`].
//! It does no I/O and knows no stage, scheduler, MCP or CLI.
//!
//! Start with [`CancelToken`]: every long loop in REA calls `check()` on one.

mod cancel;
mod error;
mod integrity;
mod limits;
mod progress;

pub use cancel::{CancelReason, CancelToken, Cancelled};
pub use error::{Failure, FailureReason};
pub use integrity::IntegrityPolicy;
pub use limits::{LimitViolation, Limits};
pub use progress::{
    Clock, PhaseCounter, ProgressReporter, ProgressSink, ProgressUpdate, SystemClock,
};

/// Bytes in one hashing, reading or writing chunk: the cancellation grain for byte loops.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// Stack size of every worker thread. Parsing, walking and dropping a syntax tree recurse once
/// per nesting level; the parse stage bounds nesting so that any admitted file fits in this
/// much. Only touched pages cost memory.
pub const WORKER_STACK_BYTES: usize = 512 << 20;
