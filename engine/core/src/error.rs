//! The failure every stage and job reports.

use serde_json::{Map, Value};

use crate::cancel::{CancelReason, Cancelled};

/// The closed set of reasons a job can fail for.
///
/// This is the reference's set (`cancelled, format, integrity, limit, path, policy, unavailable, io`)
/// plus `Timeout`, which the contract keeps distinct from `Cancelled`,
/// `InvalidInput`, for a request whose arguments are out of range,
/// and `Internal`, for a result that failed its own validation (a bug, never bad input).
///
/// Deliberately not `#[non_exhaustive]`: the set is closed, and every mapping to a wire code
/// is a total `match` that the compiler checks when a reason is added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureReason {
    InvalidInput,
    Cancelled,
    Timeout,
    Format,
    Integrity,
    Limit,
    Path,
    Policy,
    Unavailable,
    Io,
    Internal,
}

impl FailureReason {
    /// The stable lowercase wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureReason::InvalidInput => "invalid_input",
            FailureReason::Cancelled => "cancelled",
            FailureReason::Timeout => "timeout",
            FailureReason::Format => "format",
            FailureReason::Integrity => "integrity",
            FailureReason::Limit => "limit",
            FailureReason::Path => "path",
            FailureReason::Policy => "policy",
            FailureReason::Unavailable => "unavailable",
            FailureReason::Io => "io",
            FailureReason::Internal => "internal",
        }
    }
}

/// A typed failure: a reason, a lowercase message and structured details.
///
/// The message never repeats the source error; the source stays in `source()`.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    pub reason: FailureReason,
    pub message: String,
    /// Snake-case keys, JSON values; what a caller needs to act (a path, a limit, a digest).
    pub details: Map<String, Value>,
    #[source]
    pub source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Failure {
    pub fn new(reason: FailureReason, message: impl Into<String>) -> Failure {
        Failure {
            reason,
            message: message.into(),
            details: Map::new(),
            source: None,
        }
    }

    /// Adds one detail.
    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Failure {
        self.details.insert(key.to_owned(), value.into());
        self
    }

    /// Keeps the underlying cause.
    pub fn with_source(
        mut self,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Failure {
        self.source = Some(Box::new(source));
        self
    }

    /// True for `Cancelled` and `Timeout`.
    pub fn is_cancellation(&self) -> bool {
        matches!(
            self.reason,
            FailureReason::Cancelled | FailureReason::Timeout
        )
    }
}

impl From<Cancelled> for Failure {
    fn from(cancelled: Cancelled) -> Failure {
        match cancelled.reason {
            CancelReason::Timeout => Failure::new(FailureReason::Timeout, "job timed out"),
            CancelReason::User | CancelReason::Shutdown => Failure::new(
                FailureReason::Cancelled,
                format!("job cancelled ({})", cancelled.reason.as_str()),
            ),
        }
        .with_detail("cancel_reason", cancelled.reason.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_is_not_cancelled() {
        let timeout = Failure::from(Cancelled {
            reason: CancelReason::Timeout,
        });
        let user = Failure::from(Cancelled {
            reason: CancelReason::User,
        });
        assert_eq!(timeout.reason, FailureReason::Timeout);
        assert_eq!(user.reason, FailureReason::Cancelled);
        assert!(timeout.is_cancellation() && user.is_cancellation());
        assert_eq!(user.details["cancel_reason"], "user");
    }
}
