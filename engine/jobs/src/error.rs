//! The wire error object shared by the CLI and MCP:
//! `{code, category, message, retryable, remediation: {action, restart_required}, details}`.
//!
//! The mapping from [`FailureReason`] to `code` and `category` is one total `match`.

use rea_core::{Failure, FailureReason};
use serde_json::{Map, Value, json};

/// A failure as callers receive it.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorObject {
    pub code: &'static str,
    pub category: &'static str,
    pub message: String,
    pub retryable: bool,
    pub action: &'static str,
    pub details: Map<String, Value>,
}

impl ErrorObject {
    /// Maps a failure of `operation` to the wire shape.
    pub fn from_failure(operation: &str, failure: &Failure) -> ErrorObject {
        let (code, category, retryable, action) = match failure.reason {
            FailureReason::InvalidInput => (
                "invalid_request",
                "invalid_input",
                true,
                "Correct the listed arguments and retry.",
            ),
            FailureReason::Cancelled => (
                "cancelled",
                "cancelled",
                true,
                "Analysis was cancelled. Start it again when ready.",
            ),
            FailureReason::Timeout => (
                "timeout",
                "timeout",
                true,
                "Analysis took too long. Try a smaller request or a longer timeout.",
            ),
            FailureReason::Integrity if failure.details.contains_key("logical_path") => (
                "artifact_integrity_mismatch",
                "integrity_mismatch",
                false,
                "Artifact is invalid or has changed. Get a fresh copy, or record the mismatch with integrity_policy record-and-continue.",
            ),
            FailureReason::Integrity
                if failure.details.get("scope").and_then(Value::as_str) == Some("evidence") =>
            {
                (
                    "evidence_integrity_mismatch",
                    "integrity_mismatch",
                    false,
                    "Evidence is invalid or has changed. Recreate or re-import it.",
                )
            }
            FailureReason::Integrity => (
                "artifact_operation_failed",
                "integrity_mismatch",
                false,
                "Artifact is invalid or has changed. Get a fresh copy and retry.",
            ),
            FailureReason::Limit => (
                "truncated",
                "truncated",
                false,
                "Narrow the requested path or raise the named limit.",
            ),
            FailureReason::Path | FailureReason::Format | FailureReason::Io => (
                "artifact_operation_failed",
                "execution_failure",
                false,
                "Check the input path and that it is a directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap or Windows installer REA can read.",
            ),
            FailureReason::Policy | FailureReason::Unavailable => (
                "artifact_operation_failed",
                "unavailable",
                false,
                "This operation is unavailable for the input. Choose another operation or input.",
            ),
            FailureReason::Internal => (
                "execution_failure",
                "execution_failure",
                false,
                "Analysis could not complete. Retry once; if it continues, report the input.",
            ),
        };
        let mut details = failure.details.clone();
        details.insert("operation".to_owned(), Value::from(operation));
        details
            .entry("reason")
            .or_insert_with(|| Value::from(failure.reason.as_str()));
        if failure.is_cancellation() {
            details.insert("cleanup".to_owned(), Value::from("complete"));
        }
        ErrorObject {
            code,
            category,
            message: failure.message.clone(),
            retryable,
            action,
            details,
        }
    }

    /// The object as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "code": self.code,
            "category": self.category,
            "message": self.message,
            "retryable": self.retryable,
            "remediation": {"action": self.action, "restart_required": false},
            "details": self.details,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancellation_and_timeout_are_distinct_codes() {
        let cancelled = ErrorObject::from_failure(
            "inventory_artifact",
            &Failure::new(FailureReason::Cancelled, "job cancelled (user)"),
        );
        let timeout = ErrorObject::from_failure(
            "inventory_artifact",
            &Failure::new(FailureReason::Timeout, "job timed out"),
        );
        assert_eq!((cancelled.code, timeout.code), ("cancelled", "timeout"));
        assert!(cancelled.retryable && timeout.retryable);
        assert_eq!(cancelled.details["cleanup"], "complete");
        let json = cancelled.to_json();
        assert_eq!(json["remediation"]["restart_required"], false);
        assert_eq!(json["details"]["operation"], "inventory_artifact");
    }

    #[test]
    fn integrity_with_an_artifact_path_is_an_integrity_mismatch() {
        let failure = Failure::new(
            FailureReason::Integrity,
            "entry digest differs from its declaration",
        )
        .with_detail("logical_path", "main.js");
        assert_eq!(
            ErrorObject::from_failure("inventory_artifact", &failure).code,
            "artifact_integrity_mismatch"
        );
    }
}
