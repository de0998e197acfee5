//! A one-value hand-off between two plan nodes.

use std::sync::{Arc, Mutex};

use rea_core::{Failure, FailureReason};

/// Written once by a producer node, taken once by a consumer node.
pub(crate) struct Slot<T>(Arc<Mutex<Option<T>>>);

impl<T> Clone for Slot<T> {
    fn clone(&self) -> Slot<T> {
        Slot(Arc::clone(&self.0))
    }
}

impl<T> Slot<T> {
    pub(crate) fn new() -> Slot<T> {
        Slot(Arc::new(Mutex::new(None)))
    }

    pub(crate) fn put(&self, value: T) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(value);
    }

    pub(crate) fn take(&self, what: &str) -> Result<T, Failure> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .ok_or_else(|| {
                Failure::new(FailureReason::Internal, format!("{what} was not produced"))
            })
    }
}
